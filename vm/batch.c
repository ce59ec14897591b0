/* batch.c — a proto compiled for batches of trials, and a batch run.
 *
 * batch_compile follows the proto's bytecode once, as the interpreter
 * would, with a register (one int64 lane per trial) where the interpreter
 * would have a value: each stack slot and local holds the number of the
 * register its value is in, so LOAD, STORE and TEE only move numbers while
 * compiling and cost nothing in a batch.  Each instruction that computes
 * becomes one batch operation over the lanes.
 *
 * A forward branch cannot send some lanes one way and the rest the other,
 * so both ways are followed, one after the other, each under a predicate:
 * a register that is 1 in the lanes that take it.  Where ways meet, a
 * value that differs between them is chosen lane by lane (SELECT); each
 * RETURN is kept with its predicate, and the result is chosen among them
 * at the end.  An operation that can fail reports a failure only in the
 * lanes of its predicate: the other lanes compute on values their trials
 * never had, harmlessly (every operation is defined on any input).
 *
 * The first phase of a batch draws the dice, trial by trial, as the
 * interpreter would, from a roll schedule fixed at compile time.  Where
 * every way through the code makes the same rolls in the same order (the
 * same instruction, or its copy on another way), the schedule is those
 * rolls, made by every trial, shared by the ways.  Otherwise each roll,
 * and each REROLL, is a step of its own, made by the trials of its
 * predicate; whether a trial is one of them depends only on its earlier
 * rolls, so it is worked out when compiling for every combination of
 * their values (by running the operations before the step over made-up
 * lanes holding the combinations), and phase 1 looks it up, trial by
 * trial.
 *
 * Registers are given slots of lanes by a linear scan over the operations,
 * a slot taken again once the register in it is dead, so that a batch's
 * working set stays in the first level of cache.
 */
#include "config.h"
#include "vm/batch.h"
#include "base/mem.h"
#include "vm/pool.h"

#include <string.h>

#define BATCH_MAX_SLOTS 128      /* registers live at once (2 KiB each); more: not worth a batch */
#define NO_CELL (-2)             /* a table's site of a key with no cell, or a '-' cell: an error */

typedef enum {
    BOP_ADD, BOP_SUB, BOP_MUL,           /* dst = a op b (overflow fails) */
    BOP_ADDK, BOP_SUBK, BOP_MULK,        /* dst = a op k */
    BOP_ADD_IF,                          /* dst = a + b, b a bool */
    BOP_NEG, BOP_ABS,
    BOP_MIN, BOP_MAX,
    BOP_MOD,                             /* the sign of b; b = 0 or -1 is left to the interpreter */
    BOP_IDIV,                            /* dst = a / b rounded by aux (DivMode) */
    BOP_IDIVK,                           /* dst = a / k rounded by aux; k2: ceil(2^64 / k), or 0 */
    BOP_CMP, BOP_CMPK,                   /* dst = a aux (CmpOp) b / k, 0 or 1 */
    BOP_NOT,
    BOP_AND, BOP_ANDNOT, BOP_OR,         /* predicates: a and b, a and not b, a or b */
    BOP_SELECT,                          /* dst = c ? a : b */
    BOP_TABLE,                           /* dst = the cell of key a; site_dst (if any) its '?' */
    BOP_COUNT, BOP_ANY, BOP_ALL,         /* of the face counts a (lanes of aux bits): those in mask k */
    BOP_HIGHEST, BOP_LOWEST,             /* ... the highest face shown, the lowest */
    BOP_SUM, BOP_DOUBLES,                /* ... the faces' sum (of k sides), two alike */
    BOP_KNOWN,                           /* a, a register of '?' sites, holds none */
    BOP_JOIN,                            /* dst = a + (b << k): two pools' counts side by side */
    BOP_NARROW,                          /* dst = the k counts of a, in lanes of 8 bits, in lanes of 4 */
} BatchOpKind;

typedef struct BatchTable {
    ValTag tag;                          /* its cells' kind */
    int32_t enum_id;
    bool unknowns;                       /* some key finds a '?' */
    int64_t lo;                          /* the key of value[1] (Table.fast_lo) */
    int64_t n;
    /* [0, n + 2), as Table.fast from fast[-1]: each cell's payload, and its
     * site: -1, a value; >= 0, a '?' (in Program.unknowns); or NO_CELL */
    const int64_t *value, *site;
} BatchTable;

typedef struct BatchOp {
    uint8_t kind;
    uint8_t aux;
    int dst, site_dst;                   /* registers while compiling, slots once allocated; -1: none */
    int a, b, c;
    int pred;                            /* where it is met: a failure counts in these lanes only */
    int64_t k, k2;
    const BatchTable *table;
    const int32_t *values;               /* HIGHEST, LOWEST, SUM: face i's value is values[i - 1] (else i) */
    /* SUM of values: for byte j of the counts, sum_table[256 j + byte] is
     * what the faces counted in that byte add up to (k2 bytes) */
    const int64_t *sum_table;
} BatchOp;

#define DECISION_DEPS 8              /* earlier rolls a decision may depend on */
#define DECISION_MAX 4096            /* ... and combinations of their values */

/* Whether a trial makes a step of the schedule (a roll on some ways only,
 * a reroll), as a function of its earlier rolls, worked out at compile
 * time for every combination of their values: takes[sum over j of
 * (roll j's value - lo[j]) * stride[j]]. */
typedef struct BatchDecision {
    int ndeps;
    int dep[DECISION_DEPS];              /* the rolls' registers (slots once allocated) */
    int64_t lo[DECISION_DEPS], stride[DECISION_DEPS];
    const uint8_t *takes;
} BatchDecision;

typedef enum { STEP_DIE, STEP_COUNT, STEP_POOL, STEP_REROLL } StepKind;

/* One step of the roll schedule: a die (ROLLK), a count of dice
 * (ROLL_COUNTK) or a pool kept as its counts per face (ROLL_POOLK), into
 * register dst; or a reroll, which starts the trial again. */
typedef struct BatchStep {
    StepKind kind;
    int dst;                             /* -1 for a reroll */
    uint64_t sides;
    int64_t n;                           /* STEP_COUNT, STEP_POOL: the dice */
    int64_t lo;                          /* STEP_COUNT: the faces counted, [lo, lo + span), */
    uint64_t span;
    bool complement;                     /* ... or all but those */
    unsigned lane_bits;                  /* STEP_POOL */
    /* STEP_POOL: a register for the sum of its faces' values (values[face
     * - 1], or the face itself when NULL), added up as they are drawn, or
     * -1: sum() of a fresh roll needs no pass over its counts */
    int sum_dst;
    const int32_t *values;
    int pred;                            /* while compiling: the lanes that make it */
    int at_op;                           /* while compiling: the operations before it */
    const BatchDecision *when;           /* NULL: every trial makes it */
    int64_t idle;                        /* a roll's lane in a trial that does not make it: a value it can have */
} BatchStep;

typedef struct BatchConst {
    int slot;
    int64_t value;
} BatchConst;

struct BatchCode {
    BatchOp *ops;
    int nops;
    BatchStep *steps;                    /* the roll schedule */
    int nsteps;
    bool dice_only;                      /* every step is one die that every trial rolls */
    bool shared;                         /* every trial makes every step: no decisions, no rerolls */
    int64_t max_rerolls;                 /* a trial's rerolls past which the interpreter may fail */
    BatchConst *consts;                  /* slots filled once, when lanes are made */
    int nconsts;
    int nslots;
    int result, result_site;             /* slots; result_site -1: no result is a '?' */
    Value kind;
};

struct BatchLanes {
    int64_t *slot;                       /* nslots x BATCH_LANES */
};

/* ---- compiling ---- */

static bool exec_op(const BatchOp *o, int64_t *slot, int n);

/* What a stack slot or a local holds while compiling. */
typedef struct Held {
    int reg;                 /* the register of its lanes, or -1: nothing (a local not yet written) */
    int site;                /* the register of its '?' sites (-1 in a lane: a value), or -1: never a '?' */
    ValTag tag;              /* VAL_INT, VAL_BOOL, VAL_ENUM, or VAL_POOL: the face counts of a small roll */
    int32_t enum_id;
    int32_t sides;           /* VAL_POOL: its dice, their sides, the bits of a face's count */
    int64_t dice;
    uint8_t lane_bits;
    /* VAL_POOL: what face i shows, values[i - 1] (a die of its own faces, a
     * mixed pool's faces side by side), or NULL: i itself; and 1 + the enum
     * of a pool of symbols, or 0 */
    const int32_t *values;
    int32_t symbols;
} Held;

/* The state of the lanes at one instruction, on one way through the code. */
typedef struct Path {
    Held *stack;
    int depth;
    Held *locals;
    int pred;                /* the register of the lanes that are here */
    int rolled;              /* the steps of a shared schedule made on the way here */
    bool live;               /* false: no way reaches here (after a RETURN or JUMP) */
} Path;

/* A jump not yet landed: the state it carries to its target. */
typedef struct Edge {
    int target;
    Path path;
} Edge;

typedef struct Return {
    int pred;
    int rolled;              /* every way must make every roll of the schedule */
    Held value;
} Return;

typedef struct RegInfo {
    /* a predicate made by a branch: parent and cond, or not cond (negated) */
    int parent, cond;
    bool negated;
    int const_of;            /* index in the constants, or -1 */
    int last_use;            /* the last operation that reads it (nops: the result) */
    int slot;
} RegInfo;

typedef struct Builder {
    const Program *prog;
    const Proto *p;
    const VmLimits *limits;
    RegInfo *regs;
    int nregs, regs_cap;
    BatchOp *ops;
    int nops, ops_cap;
    BatchStep *steps;
    int nsteps, steps_cap;
    /* every roll instruction a step of its own, made where its predicate
     * holds, else every way's k-th roll one shared step */
    bool conditional;
    BatchConst *consts;
    int nconsts, consts_cap;
    Edge *edges;
    int nedges, edges_cap;
    Return *rets;
    int nrets, rets_cap;
    const BatchTable **tables;           /* per table of the program, compiled when first looked up */
    int all;                             /* the predicate of every lane: a constant 1 */
} Builder;

/* Room for one more of n items of `size` in *arr (of *cap). */
static void *room(void *arr, int *cap, int n, size_t size)
{
    if (n < *cap)
        return arr;
    int grown = *cap ? 2 * *cap : 16;
    arr = mem_realloc(arr, size * (size_t)*cap, size * (size_t)grown, 0);
    *cap = grown;
    return arr;
}

static int new_reg(Builder *b)
{
    b->regs = room(b->regs, &b->regs_cap, b->nregs, sizeof(RegInfo));
    b->regs[b->nregs] = (RegInfo){ .parent = -1, .cond = -1, .const_of = -1, .last_use = -1, .slot = -1 };
    return b->nregs++;
}

static int const_reg(Builder *b, int64_t value)
{
    for (int r = 0; r < b->nregs; r++)
        if (b->regs[r].const_of >= 0 && b->consts[b->regs[r].const_of].value == value)
            return r;
    int r = new_reg(b);
    b->consts = room(b->consts, &b->consts_cap, b->nconsts, sizeof(BatchConst));
    b->consts[b->nconsts] = (BatchConst){ .slot = -1, .value = value };
    b->regs[r].const_of = b->nconsts++;
    return r;
}

/* Append op, under predicate pred; its result goes to a new register,
 * which is returned. */
static int emit(Builder *b, BatchOp op, int pred)
{
    op.pred = pred;
    op.dst = new_reg(b);
    b->ops = room(b->ops, &b->ops_cap, b->nops, sizeof(BatchOp));
    b->ops[b->nops++] = op;
    return op.dst;
}

static BatchOp make_op(BatchOpKind kind, int a, int bb, int64_t k)
{
    return (BatchOp){ .kind = (uint8_t)kind, .a = a, .b = bb, .c = -1, .site_dst = -1, .k = k };
}

static Held held(int reg, ValTag tag, int32_t enum_id)
{
    return (Held){ .reg = reg, .site = -1, .tag = tag, .enum_id = enum_id };
}

/* A constant as the batch holds it: an int, a bool or a member; false for
 * anything else. */
static bool const_held(Builder *b, Value v, Held *out)
{
    if (v.tag != VAL_INT && v.tag != VAL_BOOL && v.tag != VAL_ENUM)
        return false;
    *out = held(const_reg(b, v.tag == VAL_BOOL ? (int64_t)v.as.b : v.as.i), v.tag, v.enum_id);
    return true;
}

static bool same_kind(const Held *x, const Held *y)
{
    return x->tag == y->tag && x->enum_id == y->enum_id && x->tag != VAL_POOL;
}

/* x's value is needed here: a lane where it is a '?' fails, for the
 * interpreter to count or report. */
static void need(Builder *b, const Path *at, const Held *x)
{
    if (x->site >= 0)
        (void)emit(b, make_op(BOP_KNOWN, x->site, -1, 0), at->pred);
}

/* The lanes of pred where cond is 1 (or, negated, 0).  (Of all lanes,
 * those where cond is 1 are cond itself.) */
static int pred_split(Builder *b, int pred, int cond, bool negated)
{
    int r = pred == b->all && !negated ? cond : emit(b, make_op(negated ? BOP_ANDNOT : BOP_AND, pred, cond, 0), b->all);
    b->regs[r].parent = pred;
    b->regs[r].cond = cond;
    b->regs[r].negated = negated;
    return r;
}

/* The lanes of x or of y: the two ways of one branch are its parent again
 * (so a roll after an if-else is met by every lane). */
static int pred_join(Builder *b, int x, int y)
{
    if (x == y)
        return x;
    const RegInfo *rx = &b->regs[x], *ry = &b->regs[y];
    if (rx->cond >= 0 && rx->cond == ry->cond && rx->parent == ry->parent && rx->negated != ry->negated)
        return rx->parent;
    return emit(b, make_op(BOP_OR, x, y, 0), b->all);
}

static Path path_copy(const Builder *b, const Path *from)
{
    Path to = *from;
    size_t stack = sizeof(Held) * (size_t)(b->p->max_stack + 1), locals = sizeof(Held) * (size_t)(b->p->nlocals + 1);
    to.stack = mem_alloc(stack);
    to.locals = mem_alloc(locals);
    memcpy(to.stack, from->stack, stack);
    memcpy(to.locals, from->locals, locals);
    return to;
}

/* A jump from `at`, taken by the lanes of pred, to target. */
static void add_edge(Builder *b, const Path *at, int pred, int target)
{
    b->edges = room(b->edges, &b->edges_cap, b->nedges, sizeof(Edge));
    Edge *e = &b->edges[b->nedges++];
    e->target = target;
    e->path = path_copy(b, at);
    e->path.pred = pred;
}

/* A conditional jump at `at` to target, taken where cond is `when` (1 or
 * 0): the lanes that jump leave, the others go on. */
static void branch(Builder *b, Path *at, int cond, bool when, int target)
{
    int jump = pred_split(b, at->pred, cond, !when);
    int stay = pred_split(b, at->pred, cond, when);
    add_edge(b, at, jump, target);
    at->pred = stay;
}

/* The value of one place (a stack slot or a local) where ways meet: the
 * same register on every way, or chosen lane by lane; hs[k] came with
 * predicate preds[k].  Nothing (reg -1) where some way has nothing there,
 * or ways hold different kinds (a local slot used again for another
 * value), or different pools. */
static void merge_held(Builder *b, const Held *hs, const int *preds, int n, Held *out)
{
    *out = hs[0];
    bool same = true, alike = true, sites = false;
    for (int k = 0; k < n; k++) {
        if (hs[k].reg < 0) {
            out->reg = -1;
            return;
        }
        same &= hs[k].reg == hs[0].reg && hs[k].site == hs[0].site;
        alike &= hs[k].tag == hs[0].tag && hs[k].enum_id == hs[0].enum_id;
        sites |= hs[k].site >= 0;
    }
    if (same)
        return;
    if (!alike || hs[0].tag == VAL_POOL) {
        out->reg = -1;
        return;
    }
    int v = hs[n - 1].reg, s = hs[n - 1].site >= 0 ? hs[n - 1].site : const_reg(b, -1);
    for (int k = n - 2; k >= 0; k--) {
        BatchOp op = make_op(BOP_SELECT, hs[k].reg, v, 0);
        op.c = preds[k];
        v = emit(b, op, b->all);
        if (sites) {
            BatchOp sop = make_op(BOP_SELECT, hs[k].site >= 0 ? hs[k].site : const_reg(b, -1), s, 0);
            sop.c = preds[k];
            s = emit(b, sop, b->all);
        }
    }
    out->reg = v;
    out->site = sites ? s : -1;
}

/* The instruction at pc is reached by the way falling through into it
 * (if live) and by the jumps landing on it: one path for it. */
static bool merge(Builder *b, Path *at, int pc)
{
    int n = 0, cap = b->nedges + 1;
    const Path **ways = mem_alloc(sizeof(Path *) * (size_t)cap);
    if (at->live)
        ways[n++] = at;
    for (int e = 0; e < b->nedges; e++)
        if (b->edges[e].target == pc)
            ways[n++] = &b->edges[e].path;
    if (n == 0 || (n == 1 && ways[0] == at))
        return true;
    int *preds = mem_alloc(sizeof(int) * (size_t)n);
    Held *hs = mem_alloc(sizeof(Held) * (size_t)n);
    Path joined = path_copy(b, ways[0]);
    joined.live = true;
    for (int k = 0; k < n; k++) {
        if (ways[k]->depth != ways[0]->depth || (!b->conditional && ways[k]->rolled != ways[0]->rolled))
            return false;
        preds[k] = ways[k]->pred;
        joined.pred = k ? pred_join(b, joined.pred, preds[k]) : preds[0];
    }
    for (int i = 0; i < joined.depth; i++) {
        for (int k = 0; k < n; k++)
            hs[k] = ways[k]->stack[i];
        merge_held(b, hs, preds, n, &joined.stack[i]);
        if (joined.stack[i].reg < 0)
            return false;
    }
    for (int i = 0; i < b->p->nlocals; i++) {
        for (int k = 0; k < n; k++)
            hs[k] = ways[k]->locals[i];
        merge_held(b, hs, preds, n, &joined.locals[i]);
    }
    /* the edges landed: gone */
    int kept = 0;
    for (int e = 0; e < b->nedges; e++)
        if (b->edges[e].target != pc)
            b->edges[kept++] = b->edges[e];
    b->nedges = kept;
    *at = joined;
    return true;
}


/* The row that index i of table t's first look (Table.fast) stands for,
 * or -1: what its general lookup finds for such a key. */
static int fast_row(const Table *t, int64_t i)
{
    const TableDim *d = &t->dim[0];
    if (d->mode == KEYS_INDEX)
        return i >= 0 && i < d->nkeys ? d->index[i] : -1;
    return i < 0 ? d->below : i >= d->direct_n ? d->above : d->direct[i];
}

/* Table t (one key, with a first look) for batches: the cells of its first
 * look, and where that has none the '?' the general lookup gives or an
 * error; NULL if its cells are not ints, bools or members of one kind, or
 * if none has a value. */
static const BatchTable *batch_table(const Table *t)
{
    int64_t *value = mem_alloc_atomic(sizeof(int64_t) * (size_t)(t->fast_n + 2));
    int64_t *site = mem_alloc_atomic(sizeof(int64_t) * (size_t)(t->fast_n + 2));
    BatchTable *bt = mem_alloc(sizeof *bt);
    *bt = (BatchTable){ .lo = t->fast_lo, .n = t->fast_n, .value = value, .site = site };
    bool any = false;
    for (int64_t i = -1; i <= t->fast_n; i++) {
        const Value *cell = t->fast[i];
        value[i + 1] = 0;
        if (cell && cell->tag == VAL_UNKNOWN) {
            /* a '?' cell (its unknown, the key left to fill in: Table.fast) */
            site[i + 1] = cell->enum_id;
            bt->unknowns = true;
            continue;
        }
        if (!cell) {
            int row = fast_row(t, i);
            bool unknown = row >= 0 && t->kinds[row] == CELL_UNKNOWN && t->unknown_site;
            site[i + 1] = unknown ? t->unknown_site[row] : NO_CELL;
            bt->unknowns |= unknown;
            continue;
        }
        if (cell->tag != VAL_INT && cell->tag != VAL_BOOL && cell->tag != VAL_ENUM)
            return NULL;
        if (any && (cell->tag != bt->tag || cell->enum_id != bt->enum_id))
            return NULL;
        bt->tag = cell->tag;
        bt->enum_id = cell->enum_id;
        any = true;
        value[i + 1] = cell->tag == VAL_BOOL ? (int64_t)cell->as.b : cell->as.i;
        site[i + 1] = -1;
    }
    return any ? bt : NULL;
}

/* The mask of the lanes, in a pool's counts per face (lane_bits each), of
 * the faces whose values (face f's values[f - 1], or f when values is
 * NULL) compare (op) to k. */
static int64_t face_mask(int32_t sides, const int32_t *values, unsigned lane_bits, CmpOp op, int64_t k)
{
    uint64_t mask = 0, lane = ((uint64_t)1 << lane_bits) - 1;
    for (int64_t f = 1; f <= sides; f++) {
        int64_t v = values ? values[f - 1] : f;
        if (cmp_holds((v > k) - (v < k), op))
            mask |= lane << (lane_bits * (unsigned)(f - 1));
    }
    return (int64_t)mask;
}

static void add_step(Builder *b, BatchStep step)
{
    b->steps = room(b->steps, &b->steps_cap, b->nsteps, sizeof(BatchStep));
    b->steps[b->nsteps++] = step;
}

/* A roll of constant dice, pushed as a register of kind h: a step of the
 * schedule, which phase 1 draws trial by trial.  Shared, the k-th roll of
 * every way is one step: the first way to get this far adds it, the others
 * must make the same roll there (on another copy of the same code, which
 * the specializer makes of what follows a branch).  Conditional, each roll
 * is a step of its own, made by the trials of its predicate.  False if
 * the ways differ (shared), or if the interpreter would fail on the roll. */
static bool add_roll(Builder *b, Path *at, BatchStep r, Held h)
{
    if (r.sides < 1 || r.sides > VM_MAX_SIDES || r.n < 0 || r.n > b->limits->max_pool)
        return false;
    if (!b->conditional && at->rolled < b->nsteps) {
        const BatchStep *was = &b->steps[at->rolled];
        if (was->kind != r.kind || was->sides != r.sides || was->n != r.n || was->lo != r.lo || was->span != r.span
            || was->complement != r.complement || was->lane_bits != r.lane_bits)
            return false;
        r.dst = was->dst;
    } else {
        r.dst = new_reg(b);
        r.sum_dst = -1;
        r.pred = b->conditional ? at->pred : b->all;
        r.at_op = b->nops;
        add_step(b, r);
    }
    at->rolled++;
    h.reg = r.dst;
    at->stack[at->depth++] = h;
    return true;
}

/* REROLL: the trials of its predicate start again (conditional only; one
 * that every trial meets would never end, an error for the interpreter). */
static bool add_reroll(Builder *b, Path *at)
{
    if (!b->conditional || at->pred == b->all)
        return false;
    add_step(b, (BatchStep){ .kind = STEP_REROLL, .dst = -1, .pred = at->pred, .at_op = b->nops });
    at->live = false;
    return true;
}

static const Value *konst(const Builder *b, const uint8_t *at)
{
    return &b->p->consts[chunk_u16(at)];
}

/* The int constant whose index is at `at`, in *k; false if it is no int. */
static bool int_const(const Builder *b, const uint8_t *at, int64_t *k)
{
    const Value *v = konst(b, at);
    *k = v->as.i;
    return v->tag == VAL_INT;
}

static bool is_int(const Held *h) { return h->tag == VAL_INT; }
static bool is_bool(const Held *h) { return h->tag == VAL_BOOL; }

/* x compared (op) with the constant whose index is at `k`, as a register
 * of 0s and 1s; -1 if they are not alike. */
static int compare_const(Builder *b, const Path *at, const Held *x, const uint8_t *k, CmpOp op)
{
    Held c;
    if (!const_held(b, *konst(b, k), &c) || !same_kind(x, &c))
        return -1;
    need(b, at, x);
    BatchOp o = make_op(BOP_CMPK, x->reg, -1, b->consts[b->regs[c.reg].const_of].value);
    o.aux = (uint8_t)op;
    return emit(b, o, at->pred);
}

/* x compared (op) with y; -1 if they are not alike. */
static int compare(Builder *b, const Path *at, const Held *x, const Held *y, CmpOp op)
{
    if (!same_kind(x, y))
        return -1;
    need(b, at, x);
    need(b, at, y);
    BatchOp o = make_op(BOP_CMP, x->reg, y->reg, 0);
    o.aux = (uint8_t)op;
    return emit(b, o, at->pred);
}

static void add_return(Builder *b, Path *at, Held value)
{
    b->rets = room(b->rets, &b->rets_cap, b->nrets, sizeof(Return));
    b->rets[b->nrets++] = (Return){ .pred = at->pred, .rolled = at->rolled, .value = value };
    at->live = false;
}

/* Arithmetic of two ints (ADD, SUB, MUL, MIN, MAX, MOD, IDIV). */
static bool binary(Builder *b, Path *at, BatchOpKind kind, uint8_t aux)
{
    Held y = at->stack[--at->depth], x = at->stack[--at->depth];
    if (!is_int(&x) || !is_int(&y))
        return false;
    need(b, at, &x);
    need(b, at, &y);
    BatchOp o = make_op(kind, x.reg, y.reg, 0);
    o.aux = aux;
    at->stack[at->depth++] = held(emit(b, o, at->pred), VAL_INT, 0);
    return true;
}

/* An int and an int constant (ADDK, SUBK, MULK, IDIVK). */
static bool with_const(Builder *b, Path *at, const uint8_t *ip, BatchOpKind kind)
{
    Held x = at->stack[--at->depth];
    int64_t k;
    if (!is_int(&x) || !int_const(b, ip, &k))
        return false;
    BatchOp o = make_op(kind, x.reg, -1, k);
    if (kind == BOP_IDIVK) {
        /* (a divisor of 0 would fail every trial that gets here) */
        unsigned inverse = chunk_u16(ip + 2) & 0x3fff;
        if (k == 0 || k == INT64_MIN)
            return false;
        o.aux = (uint8_t)(chunk_u16(ip + 2) >> 14);
        o.k2 = inverse != 0x3fff ? b->p->consts[inverse].as.i : 0;
    }
    need(b, at, &x);
    at->stack[at->depth++] = held(emit(b, o, at->pred), VAL_INT, 0);
    return true;
}

/* A one-key table looked up through its first look. */
static bool table(Builder *b, Path *at, int index)
{
    Held x = at->stack[--at->depth];
    const Table *t = b->prog->tables[index];
    if (x.tag == VAL_POOL || !t->fast)
        return false;
    if (!b->tables[index])
        b->tables[index] = batch_table(t);
    const BatchTable *bt = b->tables[index];
    if (!bt)
        return false;
    need(b, at, &x);
    BatchOp o = make_op(BOP_TABLE, x.reg, -1, 0);
    o.table = bt;
    if (bt->unknowns)
        o.site_dst = new_reg(b);
    Held h = held(emit(b, o, at->pred), bt->tag, bt->enum_id);
    h.site = o.site_dst;
    at->stack[at->depth++] = h;
    return true;
}

/* COUNT_IFK, ANYK, ALLK: a question about the faces of a small roll. */
static bool faces(Builder *b, Path *at, const uint8_t *ip, BatchOpKind kind)
{
    Held x = at->stack[--at->depth];
    if (x.tag != VAL_POOL)
        return false;
    const Value *c = konst(b, ip);
    /* (a member compared with a pool of symbols is its index) */
    if (c->tag != VAL_INT && !(x.symbols && c->tag == VAL_ENUM && c->enum_id == x.symbols - 1))
        return false;
    BatchOp o = make_op(kind, x.reg, -1, face_mask(x.sides, x.values, x.lane_bits, (CmpOp)ip[2], c->as.i));
    o.aux = x.lane_bits;
    at->stack[at->depth++] = held(emit(b, o, at->pred), kind == BOP_COUNT ? VAL_INT : VAL_BOOL, 0);
    return true;
}

/* HIGHEST, LOWEST, SUM, DOUBLES: the answer of a small roll's counts. */
static bool of_pool(Builder *b, Path *at, BatchOpKind kind)
{
    Held x = at->stack[--at->depth];
    /* (the highest or lowest of no dice is an error: the interpreter's) */
    if (x.tag != VAL_POOL || ((kind == BOP_HIGHEST || kind == BOP_LOWEST) && x.dice == 0))
        return false;
    if (x.values) {
        /* two dice alike are two faces of one value: only where the
         * values rise from face to face is that one face twice */
        for (int32_t f = 1; f < x.sides && kind == BOP_DOUBLES; f++)
            if (x.values[f] <= x.values[f - 1])
                return false;
        if (x.symbols && kind == BOP_SUM)
            return false;
    }
    if (kind == BOP_SUM) {
        /* the sum of a roll as it is, added up while its dice are drawn */
        for (int k = 0; k < b->nsteps; k++)
            if (b->steps[k].dst == x.reg && b->steps[k].kind == STEP_POOL) {
                BatchStep *step = &b->steps[k];
                if (step->sum_dst < 0) {
                    step->sum_dst = new_reg(b);
                    step->values = x.values;
                }
                at->stack[at->depth++] = held(step->sum_dst, VAL_INT, 0);
                return true;
            }
    }
    BatchOp o = make_op(kind, x.reg, -1, x.sides);
    o.aux = x.lane_bits;
    o.values = x.values;
    if (x.values && kind == BOP_SUM) {
        /* a table a byte of the counts: the sum is a look-up a byte */
        int bytes = (x.sides * x.lane_bits + 7) / 8;
        int64_t *t = mem_alloc_atomic(sizeof(int64_t) * 256 * (size_t)bytes);
        for (int j = 0; j < bytes; j++)
            for (int byte = 0; byte < 256; byte++) {
                int64_t sum = 0;
                for (int bit = 0; bit < 8; bit += x.lane_bits) {
                    int f = (8 * j + bit) / x.lane_bits;
                    if (f < x.sides)
                        sum += (int64_t)x.values[f] * ((byte >> bit) & ((1 << x.lane_bits) - 1));
                }
                t[256 * j + byte] = sum;
            }
        o.sum_table = t;
        o.k2 = bytes;
    }
    /* (the highest of symbols is the member's index, which MEMBER makes a member) */
    at->stack[at->depth++] = held(emit(b, o, at->pred), kind == BOP_DOUBLES ? VAL_BOOL : VAL_INT, 0);
    return true;
}

/* ROLLK, ROLL_COUNTK, ROLL_POOLK. */
static bool dice(Builder *b, Path *at, OpCode op, const uint8_t *ip)
{
    int64_t n = 1, sides, k = 0;
    if (!int_const(b, op == OP_ROLLK ? ip : ip + 2, &sides) || (op != OP_ROLLK && !int_const(b, ip, &n))
        || (op == OP_ROLL_COUNTK && !int_const(b, ip + 4, &k)))
        return false;
    BatchStep r = { .kind = op == OP_ROLLK ? STEP_DIE : op == OP_ROLL_COUNTK ? STEP_COUNT : STEP_POOL,
                    .sides = (uint64_t)sides, .n = n, .idle = op == OP_ROLLK ? 1 : 0 };
    Held h = held(-1, VAL_INT, 0);
    if (op == OP_ROLL_COUNTK) {
        CmpOp cmp = (CmpOp)ip[6];
        pool_face_span(cmp, k, sides, &r.lo, &r.span);
        r.complement = cmp == CMP_NE;
    } else if (op == OP_ROLL_POOLK) {
        /* kept only as its counts per face, which a small roll has */
        r.lane_bits = pool_lane_bits(sides, n);
        if (!r.lane_bits)
            return false;
        h = (Held){ .site = -1, .tag = VAL_POOL, .sides = (int32_t)sides, .dice = n, .lane_bits = (uint8_t)r.lane_bits };
    }
    return add_roll(b, at, r, h);
}

/* ROLL_DIE_POOL: a constant count of dice of their own faces (Program.dies),
 * kept as counts per face as ROLL_POOLK keeps its, with the faces' values. */
static bool die_pool(Builder *b, Path *at, const uint8_t *ip)
{
    Held c = at->stack[--at->depth];
    unsigned index = chunk_u16(ip);
    if (c.tag != VAL_INT || c.reg < 0 || b->regs[c.reg].const_of < 0 || (int)index >= b->prog->ndies)
        return false;
    const DieDesc *dd = &b->prog->dies[index];
    int64_t n = b->consts[b->regs[c.reg].const_of].value, sides = dd->die.n;
    /* narrow counts while they fit, so that two such pools fit side by side
     * when joined */
    unsigned bits = sides <= 8 && n <= 15 ? 4 : pool_lane_bits(sides, n);
    if (!bits)
        return false;
    BatchStep r = { .kind = STEP_POOL, .sides = (uint64_t)sides, .n = n, .lane_bits = bits };
    Held h = { .site = -1, .tag = VAL_POOL, .sides = (int32_t)sides, .dice = n, .lane_bits = (uint8_t)bits,
               .values = dd->die.value, .symbols = dd->symbols };
    return add_roll(b, at, r, h);
}

/* JOIN: two pools' counts side by side in one word, the second's faces
 * numbered after the first's, and their values likewise. */
/* A pool's counts in lanes of 4 bits, if they are in lanes of 8 and fit. */
static void narrow(Builder *b, const Path *at, Held *x)
{
    if (x->tag != VAL_POOL || x->lane_bits != 8 || x->dice > 15 || x->sides > 16)
        return;
    BatchOp o = make_op(BOP_NARROW, x->reg, -1, x->sides);
    x->reg = emit(b, o, at->pred);
    x->lane_bits = 4;
}

static bool join(Builder *b, Path *at)
{
    Held y = at->stack[--at->depth], x = at->stack[--at->depth];
    if (x.lane_bits != y.lane_bits || (int64_t)(x.sides + y.sides) * x.lane_bits > 64) {
        narrow(b, at, &x);
        narrow(b, at, &y);
    }
    if (x.tag != VAL_POOL || y.tag != VAL_POOL || x.lane_bits != y.lane_bits || x.symbols != y.symbols
        || (int64_t)(x.sides + y.sides) * x.lane_bits > 64 || x.dice + y.dice >= ((int64_t)1 << x.lane_bits))
        return false;
    int32_t sides = x.sides + y.sides;
    int32_t *values = mem_alloc_atomic(sizeof(int32_t) * (size_t)sides);
    for (int32_t f = 0; f < x.sides; f++)
        values[f] = x.values ? x.values[f] : f + 1;
    for (int32_t f = 0; f < y.sides; f++)
        values[x.sides + f] = y.values ? y.values[f] : f + 1;
    BatchOp o = make_op(BOP_JOIN, x.reg, y.reg, (int64_t)x.lane_bits * x.sides);
    Held h = { .site = -1, .tag = VAL_POOL, .sides = sides, .dice = x.dice + y.dice, .lane_bits = x.lane_bits,
               .values = values, .symbols = x.symbols };
    h.reg = emit(b, o, at->pred);
    at->stack[at->depth++] = h;
    return true;
}

/* One instruction, at pc, on the lanes of `at`; false if it does not
 * qualify.  The stack's depth is checked against the proto's own. */
static bool step(Builder *b, Path *at, int pc)
{
    const Proto *p = b->p;
    const uint8_t *ip = p->code + pc + 1;
    OpCode op = (OpCode)p->code[pc];
    Held *st = at->stack;
    int pops = chunk_insn_pops(b->prog, p->code + pc), pushes = chunk_insn_pushes(b->prog, p->code + pc);
    if (pops > at->depth || at->depth - pops + pushes > p->max_stack)
        return false;
    int target = chunk_is_jump((uint8_t)op) ? chunk_jump_target(p->code, pc) : -1;
    switch (op) {
    case OP_CONST:
        return const_held(b, *konst(b, ip), &st[at->depth++]);
    case OP_TRUE:
    case OP_FALSE:
        st[at->depth++] = held(const_reg(b, op == OP_TRUE), VAL_BOOL, 0);
        return true;
    case OP_LOAD:
    case OP_LOADN:
        for (int i = 0; i < (op == OP_LOAD ? 1 : ip[1]); i++) {
            if (ip[0] + i >= p->nlocals || at->locals[ip[0] + i].reg < 0)
                return false;
            st[at->depth++] = at->locals[ip[0] + i];
        }
        return true;
    case OP_STORE: at->locals[ip[0]] = st[--at->depth]; return true;
    case OP_TEE: at->locals[ip[0]] = st[at->depth - 1]; return true;
    case OP_POP: at->depth--; return true;
    case OP_MERGE: case OP_DEFER: case OP_SETTLE: return true;
    case OP_ADD: return binary(b, at, BOP_ADD, 0);
    case OP_SUB: return binary(b, at, BOP_SUB, 0);
    case OP_MUL: return binary(b, at, BOP_MUL, 0);
    case OP_MIN: return binary(b, at, BOP_MIN, 0);
    case OP_MAX: return binary(b, at, BOP_MAX, 0);
    case OP_MOD: return binary(b, at, BOP_MOD, 0);
    case OP_IDIV: return binary(b, at, BOP_IDIV, ip[0]);
    case OP_ADDK: return with_const(b, at, ip, BOP_ADDK);
    case OP_SUBK: return with_const(b, at, ip, BOP_SUBK);
    case OP_MULK: return with_const(b, at, ip, BOP_MULK);
    case OP_IDIVK: return with_const(b, at, ip, BOP_IDIVK);
    case OP_NEG:
    case OP_ABS:
    case OP_NOT: {
        Held x = st[--at->depth];
        if (op == OP_NOT ? !is_bool(&x) : !is_int(&x))
            return false;
        need(b, at, &x);
        BatchOpKind kind = op == OP_NEG ? BOP_NEG : op == OP_ABS ? BOP_ABS : BOP_NOT;
        st[at->depth++] = held(emit(b, make_op(kind, x.reg, -1, 0), at->pred), x.tag, 0);
        return true;
    }
    case OP_BOOL_INT: {
        /* a bool's lanes are 0 and 1 already */
        Held x = st[--at->depth];
        if (!is_bool(&x))
            return false;
        need(b, at, &x);
        st[at->depth++] = held(x.reg, VAL_INT, 0);
        return true;
    }
    case OP_ADD_IF: {
        Held y = st[--at->depth], x = st[--at->depth];
        if (!is_int(&x) || !is_bool(&y))
            return false;
        need(b, at, &x);
        need(b, at, &y);
        st[at->depth++] = held(emit(b, make_op(BOP_ADD_IF, x.reg, y.reg, 0), at->pred), VAL_INT, 0);
        return true;
    }
    case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE: {
        Held y = st[--at->depth], x = st[--at->depth];
        int r = compare(b, at, &x, &y, (CmpOp)(op - OP_EQ));
        st[at->depth++] = held(r, VAL_BOOL, 0);
        return r >= 0;
    }
    case OP_CMPK: {
        Held x = st[--at->depth];
        int r = compare_const(b, at, &x, ip, (CmpOp)ip[2]);
        st[at->depth++] = held(r, VAL_BOOL, 0);
        return r >= 0;
    }
    case OP_TABLE: return table(b, at, (int)chunk_u16(ip));
    case OP_ROLLK:
    case OP_ROLL_COUNTK:
    case OP_ROLL_POOLK:
        return dice(b, at, op, ip);
    case OP_ROLL_DIE_POOL: return die_pool(b, at, ip);
    case OP_MEMBER:
        /* an index made a member of enum k: the same lanes */
        if (!is_int(&st[at->depth - 1]))
            return false;
        st[at->depth - 1].tag = VAL_ENUM;
        st[at->depth - 1].enum_id = (int32_t)chunk_u16(ip);
        return true;
    case OP_JOIN: return join(b, at);
    case OP_COUNT_IFK: return faces(b, at, ip, BOP_COUNT);
    case OP_ANYK: return faces(b, at, ip, BOP_ANY);
    case OP_ALLK: return faces(b, at, ip, BOP_ALL);
    case OP_HIGHEST: return of_pool(b, at, BOP_HIGHEST);
    case OP_LOWEST: return of_pool(b, at, BOP_LOWEST);
    case OP_SUM: return of_pool(b, at, BOP_SUM);
    case OP_DOUBLES: return of_pool(b, at, BOP_DOUBLES);
    case OP_COUNT: {
        Held x = st[--at->depth];
        if (x.tag != VAL_POOL)
            return false;
        st[at->depth++] = held(const_reg(b, x.dice), VAL_INT, 0);
        return true;
    }
    case OP_JUMP:
        add_edge(b, at, at->pred, target);
        at->live = false;
        return true;
    case OP_JUMP_FALSE: {
        Held c = st[--at->depth];
        if (!is_bool(&c))
            return false;
        need(b, at, &c);
        branch(b, at, c.reg, false, target);
        return true;
    }
    case OP_AND_JUMP:
    case OP_OR_JUMP: {
        /* the way that jumps keeps the test on the stack */
        Held c = st[at->depth - 1];
        if (!is_bool(&c))
            return false;
        need(b, at, &c);
        branch(b, at, c.reg, op == OP_OR_JUMP, target);
        at->depth--;
        return true;
    }
    case OP_JUMP_UNLESS:
    case OP_JUMP_UNLESS_L: {
        Held x = op == OP_JUMP_UNLESS ? st[--at->depth] : at->locals[ip[0]];
        const uint8_t *k = op == OP_JUMP_UNLESS ? ip : ip + 1;
        if (x.reg < 0)
            return false;
        int c = compare_const(b, at, &x, k, (CmpOp)k[2]);
        if (c < 0)
            return false;
        branch(b, at, c, false, target);
        return true;
    }
    case OP_JUMP_CMP: {
        Held y = st[--at->depth], x = st[--at->depth];
        int c = compare(b, at, &x, &y, (CmpOp)ip[0]);
        if (c < 0)
            return false;
        branch(b, at, c, false, target);
        return true;
    }
    case OP_RETURN: add_return(b, at, st[--at->depth]); return true;
    case OP_REROLL: return add_reroll(b, at);
    case OP_RETURNL:
        if (at->locals[ip[0]].reg < 0)
            return false;
        add_return(b, at, at->locals[ip[0]]);
        return true;
    case OP_RETURNK: {
        Held h;
        if (!const_held(b, *konst(b, ip), &h))
            return false;
        add_return(b, at, h);
        return true;
    }
    default:
        return false;
    }
}

/* The result: each RETURN's value in the lanes of its predicate (every
 * lane meets exactly one, in its last attempt); false if they are not all
 * of one kind that a tally counts, or if a way misses some rolls of a
 * shared schedule. */
static bool choose_result(Builder *b, Held *out)
{
    if (b->nrets == 0)
        return false;
    int *preds = mem_alloc(sizeof(int) * (size_t)b->nrets);
    Held *values = mem_alloc(sizeof(Held) * (size_t)b->nrets);
    for (int k = 0; k < b->nrets; k++) {
        preds[k] = b->rets[k].pred;
        values[k] = b->rets[k].value;
        if (!same_kind(&values[k], &values[0]) || (!b->conditional && b->rets[k].rolled != b->nsteps))
            return false;
    }
    merge_held(b, values, preds, b->nrets, out);
    return out->reg >= 0;
}

/* When each register is last read (by operation j, or nops for the
 * result), so that its slot can be taken again after that. */
static void note_uses(Builder *b, const Held *result)
{
    for (int j = 0; j < b->nops; j++) {
        const BatchOp *o = &b->ops[j];
        int reads[] = { o->a, o->b, o->c, o->pred };
        for (size_t i = 0; i < sizeof reads / sizeof reads[0]; i++)
            if (reads[i] >= 0)
                b->regs[reads[i]].last_use = j;
    }
    b->regs[result->reg].last_use = b->nops;
    if (result->site >= 0)
        b->regs[result->site].last_use = b->nops;
}

typedef struct Slots {
    int *free;
    int nfree, n;
} Slots;

static int take_slot(Slots *s)
{
    return s->nfree ? s->free[--s->nfree] : s->n++;
}

/* Register r is dead after operation j: its slot is free again (constants
 * keep theirs, filled once). */
static void release(Builder *b, Slots *s, int r, int j)
{
    if (r >= 0 && b->regs[r].last_use <= j && b->regs[r].const_of < 0 && b->regs[r].slot >= 0) {
        s->free[s->nfree++] = b->regs[r].slot;
        b->regs[r].slot = -1 - b->regs[r].slot;   /* (released once) */
    }
}

static int slot_of(const Builder *b, int r)
{
    if (r < 0)
        return -1;
    int s = b->regs[r].slot;
    return s >= 0 ? s : -1 - s;
}

/* A slot of lanes for every register, by a linear scan: the constants and
 * the rolls' first (the rolls are drawn before any operation, and read
 * by the decisions of phase 1), then each
 * operation's result, in a slot freed by a register read for the last
 * time by it or before (each lane of an operation is read before it is
 * written, so its result may take its operands' slot). */
static int allocate(Builder *b)
{
    Slots s = { .free = mem_alloc(sizeof(int) * (size_t)(b->nregs + 1)) };
    for (int r = 0; r < b->nregs; r++)
        if (b->regs[r].const_of >= 0)
            b->consts[b->regs[r].const_of].slot = b->regs[r].slot = take_slot(&s);
    for (int k = 0; k < b->nsteps; k++) {
        if (b->steps[k].dst >= 0)
            b->regs[b->steps[k].dst].slot = take_slot(&s);
        if (b->steps[k].kind == STEP_POOL && b->steps[k].sum_dst >= 0)
            b->regs[b->steps[k].sum_dst].slot = take_slot(&s);
    }
    for (int k = 0; k < b->nsteps; k++) {
        release(b, &s, b->steps[k].dst, -1);
        if (b->steps[k].kind == STEP_POOL)
            release(b, &s, b->steps[k].sum_dst, -1);
    }
    for (int j = 0; j < b->nops; j++) {
        BatchOp *o = &b->ops[j];
        int reads[] = { o->a, o->b, o->c, o->pred };
        for (size_t i = 0; i < sizeof reads / sizeof reads[0]; i++)
            release(b, &s, reads[i], j);
        b->regs[o->dst].slot = take_slot(&s);
        if (o->site_dst >= 0)
            b->regs[o->site_dst].slot = take_slot(&s);
        release(b, &s, o->dst, j);
        release(b, &s, o->site_dst, j);
    }
    /* every register named by its slot from here on */
    for (int j = 0; j < b->nops; j++) {
        BatchOp *o = &b->ops[j];
        o->dst = slot_of(b, o->dst);
        o->site_dst = slot_of(b, o->site_dst);
        o->a = slot_of(b, o->a);
        o->b = slot_of(b, o->b);
        o->c = slot_of(b, o->c);
        o->pred = slot_of(b, o->pred);
    }
    for (int k = 0; k < b->nsteps; k++) {
        BatchStep *step = &b->steps[k];
        step->dst = slot_of(b, step->dst);
        if (step->kind == STEP_POOL)
            step->sum_dst = slot_of(b, step->sum_dst);
        if (step->when) {
            BatchDecision *d = (BatchDecision *)step->when;
            for (int j = 0; j < d->ndeps; j++)
                d->dep[j] = slot_of(b, d->dep[j]);
        }
    }
    return s.n;
}

/* The rolls (steps of the schedule) that register r is worked out from,
 * added to deps (of n): through the operations that make it, back to the
 * rolls.  False if one is a pool (its values are too many to go through)
 * or if there are too many. */
static bool rolls_behind(const Builder *b, int r, const int *op_of, const int *step_of, int *deps, int *n,
                         bool *seen)
{
    if (r < 0 || seen[r])
        return true;
    seen[r] = true;
    if (step_of[r] >= 0) {
        if (b->steps[step_of[r]].kind == STEP_POOL || *n == DECISION_DEPS)
            return false;
        deps[(*n)++] = r;
        return true;
    }
    if (op_of[r] < 0)
        return true;                     /* a constant */
    const BatchOp *o = &b->ops[op_of[r]];
    return rolls_behind(b, o->a, op_of, step_of, deps, n, seen) && rolls_behind(b, o->b, op_of, step_of, deps, n, seen)
           && rolls_behind(b, o->c, op_of, step_of, deps, n, seen);
}

/* A roll's value in combination `combo` of a decision (mixed radix). */
static int64_t combo_value(const BatchDecision *d, int j, int64_t count, int64_t combo)
{
    return d->lo[j] + combo / d->stride[j] % count;
}

/* The decision of step k, made by the lanes of its predicate: for every
 * combination of the values of the rolls it depends on, the operations
 * before it run over lanes holding that combination (a batch of made-up
 * trials), and its predicate read off.  A combination on which an
 * operation fails is one whose trials make phase 2 fail too, so what is
 * decided there does not matter.  NULL if it cannot be made. */
static const BatchDecision *decide(Builder *b, int k, int64_t *lanes, const int *op_of, const int *step_of)
{
    const BatchStep *step = &b->steps[k];
    BatchDecision *d = mem_alloc(sizeof *d);
    bool *seen = mem_alloc(sizeof(bool) * (size_t)b->nregs);
    if (!rolls_behind(b, step->pred, op_of, step_of, d->dep, &d->ndeps, seen))
        return NULL;
    int64_t combos = 1, count[DECISION_DEPS];
    for (int j = 0; j < d->ndeps; j++) {
        const BatchStep *roll = &b->steps[step_of[d->dep[j]]];
        count[j] = roll->kind == STEP_DIE ? (int64_t)roll->sides : roll->n + 1;
        d->lo[j] = roll->idle;
        d->stride[j] = combos;
        if (count[j] > DECISION_MAX / combos)
            return NULL;
        combos *= count[j];
    }
    uint8_t *takes = mem_alloc_atomic((size_t)combos);
    for (int64_t first = 0; first < combos; first += BATCH_LANES) {
        int n = combos - first < BATCH_LANES ? (int)(combos - first) : BATCH_LANES;
        for (int j = 0; j < d->ndeps; j++)
            for (int i = 0; i < n; i++)
                lanes[(size_t)d->dep[j] * BATCH_LANES + i] = combo_value(d, j, count[j], first + i);
        for (int o = 0; o < step->at_op; o++)
            (void)exec_op(&b->ops[o], lanes, n);
        for (int i = 0; i < n; i++)
            takes[first + i] = (uint8_t)(lanes[(size_t)step->pred * BATCH_LANES + i] & 1);
    }
    d->takes = takes;
    return d;
}

/* The decisions of the steps some trials do not make (conditional). */
static bool decide_steps(Builder *b)
{
    int *op_of = mem_alloc_atomic(sizeof(int) * (size_t)b->nregs);
    int *step_of = mem_alloc_atomic(sizeof(int) * (size_t)b->nregs);
    for (int r = 0; r < b->nregs; r++)
        op_of[r] = step_of[r] = -1;
    for (int j = 0; j < b->nops; j++) {
        op_of[b->ops[j].dst] = j;
        if (b->ops[j].site_dst >= 0)
            op_of[b->ops[j].site_dst] = j;
    }
    for (int k = 0; k < b->nsteps; k++) {
        if (b->steps[k].dst >= 0)
            step_of[b->steps[k].dst] = k;
        if (b->steps[k].kind == STEP_POOL && b->steps[k].sum_dst >= 0)
            step_of[b->steps[k].sum_dst] = k;
    }
    /* made-up trials' lanes, one slot a register, the constants filled */
    int64_t *lanes = mem_alloc_atomic(sizeof(int64_t) * BATCH_LANES * (size_t)b->nregs);
    memset(lanes, 0, sizeof(int64_t) * BATCH_LANES * (size_t)b->nregs);
    for (int r = 0; r < b->nregs; r++)
        if (b->regs[r].const_of >= 0)
            for (int i = 0; i < BATCH_LANES; i++)
                lanes[(size_t)r * BATCH_LANES + i] = b->consts[b->regs[r].const_of].value;
    for (int k = 0; k < b->nsteps; k++)
        if (b->steps[k].pred != b->all && !(b->steps[k].when = decide(b, k, lanes, op_of, step_of)))
            return false;
    return true;
}

/* How many instructions the proto has: the most an attempt at a run of
 * it (it never jumps back) can take, against the step limit. */
static uint64_t count_insns(const Proto *p)
{
    uint64_t n = 0;
    for (int pc = 0; pc < p->len; pc += chunk_insn_len(p->code, pc))
        n++;
    return n;
}

/* protos[index] compiled for batches with a shared or a conditional
 * schedule (see Builder), or NULL. */
static const BatchCode *compile(const Program *prog, int index, const VmLimits *limits, bool conditional)
{
    const Proto *p = prog->protos[index];
    uint64_t insns = count_insns(p);
    if (p->nparams != 0 || insns > limits->max_steps)
        return NULL;
    Builder b = { .prog = prog, .p = p, .limits = limits, .conditional = conditional };
    b.tables = mem_alloc(sizeof(BatchTable *) * (size_t)(prog->ntables + 1));
    b.all = const_reg(&b, 1);
    Path at = { .pred = b.all, .live = true };
    at.stack = mem_alloc(sizeof(Held) * (size_t)(p->max_stack + 1));
    at.locals = mem_alloc(sizeof(Held) * (size_t)(p->nlocals + 1));
    for (int i = 0; i < p->nlocals; i++)
        at.locals[i] = (Held){ .reg = -1, .site = -1 };
    for (int pc = 0; pc < p->len; pc += chunk_insn_len(p->code, pc)) {
        if (!merge(&b, &at, pc))
            return NULL;
        if (at.live && !step(&b, &at, pc))
            return NULL;
    }
    Held result;
    if (at.live || b.nedges > 0 || !choose_result(&b, &result) || result.tag == VAL_POOL || !decide_steps(&b))
        return NULL;
    note_uses(&b, &result);
    int nslots = allocate(&b);
    if (nslots > BATCH_MAX_SLOTS)
        return NULL;
    BatchCode *code = mem_alloc(sizeof *code);
    *code = (BatchCode){ .ops = b.ops, .nops = b.nops, .steps = b.steps, .nsteps = b.nsteps, .consts = b.consts,
                         .nconsts = b.nconsts, .nslots = nslots, .result = slot_of(&b, result.reg),
                         .result_site = slot_of(&b, result.site),
                         .kind = val_make(result.tag, result.enum_id, 0) };
    /* past this many rerolls a trial may meet the reroll limit, or take
     * more instructions than the step limit allows */
    code->max_rerolls = (int64_t)(limits->max_steps / insns) - 1;
    if (limits->max_rerolls < code->max_rerolls)
        code->max_rerolls = limits->max_rerolls;
    code->dice_only = true;
    for (int k = 0; k < b.nsteps; k++)
        code->dice_only &= b.steps[k].kind == STEP_DIE && !b.steps[k].when;
    code->shared = true;
    for (int k = 0; k < b.nsteps; k++)
        code->shared &= b.steps[k].kind != STEP_REROLL && !b.steps[k].when;
    return code;
}

const BatchCode *batch_compile(const Program *prog, int index, const VmLimits *limits)
{
    /* (a shared schedule draws with no decisions: tried first) */
    const BatchCode *code = compile(prog, index, limits, false);
    return code ? code : compile(prog, index, limits, true);
}

BatchLanes *batch_lanes_new(const BatchCode *code)
{
    BatchLanes *lanes = mem_alloc(sizeof *lanes);
    size_t size = sizeof(int64_t) * BATCH_LANES * (size_t)code->nslots;
    lanes->slot = mem_alloc_atomic(size);
    memset(lanes->slot, 0, size);
    for (int k = 0; k < code->nconsts; k++)
        for (int i = 0; i < BATCH_LANES; i++)
            lanes->slot[(size_t)code->consts[k].slot * BATCH_LANES + i] = code->consts[k].value;
    return lanes;
}

/* ---- running ---- */

/* Does trial t make the step of decision d?  (Its earlier rolls' lanes
 * hold their values, or, where it did not make one, a value it can have.) */
static inline bool decided(const BatchDecision *d, const int64_t *slot, int t)
{
    int64_t at = 0;
    for (int j = 0; j < d->ndeps; j++)
        at += (slot[(size_t)d->dep[j] * BATCH_LANES + t] - d->lo[j]) * d->stride[j];
    return d->takes[at];
}

/* Phase 1 when every step is one die every trial rolls, the usual case:
 * a loop of its own, with the generator's state in registers. */
static __attribute__((noinline)) void draw_dice(const BatchCode *code, int64_t *slot, Rng *rng, int n)
{
    Rng r = *rng;            /* (a copy the compiler can keep in registers) */
    for (int t = 0; t < n; t++)
        for (int k = 0; k < code->nsteps; k++) {
            const BatchStep *step = &code->steps[k];
            slot[(size_t)step->dst * BATCH_LANES + t] = (int64_t)rng_below(&r, step->sides) + 1;
        }
    *rng = r;
}

/* Phase 1 for any schedule: a trial makes a step with a decision only
 * where the decision says, and a reroll starts it again; false if one
 * rerolls past code->max_rerolls. */
static __attribute__((noinline)) bool draw_steps(const BatchCode *code, int64_t *slot, Rng *rng, int n)
{
    int32_t faces[255];      /* a small roll's faces, which only its counts outlive */
    Rng r = *rng;
    for (int t = 0; t < n; t++) {
        int64_t rerolls = 0;
        for (int k = 0; k < code->nsteps; k++) {
            const BatchStep *step = &code->steps[k];
            int64_t *out = step->dst >= 0 ? slot + (size_t)step->dst * BATCH_LANES : NULL;
            if (step->when && !decided(step->when, slot, t)) {
                if (out)
                    out[t] = step->idle;
                if (step->kind == STEP_POOL && step->sum_dst >= 0)
                    slot[(size_t)step->sum_dst * BATCH_LANES + t] = 0;
                continue;
            }
            switch (step->kind) {
            case STEP_DIE:
                out[t] = (int64_t)rng_below(&r, step->sides) + 1;
                break;
            case STEP_COUNT: {
                int64_t c = rng_count_in(&r, step->n, step->sides, step->lo, step->span);
                out[t] = step->complement ? step->n - c : c;
                break;
            }
            case STEP_POOL:
                out[t] = (int64_t)rng_dice(&r, faces, step->n, step->sides, step->lane_bits);
                if (step->sum_dst >= 0) {
                    int64_t sum = 0;
                    for (int64_t i = 0; i < step->n; i++)
                        sum += step->values ? step->values[faces[i] - 1] : faces[i];
                    slot[(size_t)step->sum_dst * BATCH_LANES + t] = sum;
                }
                break;
            case STEP_REROLL:
                if (++rerolls > code->max_rerolls)
                    return false;
                k = -1;          /* (the trial again, from its first step) */
                break;
            }
        }
    }
    *rng = r;
    return true;
}

/* Phase 1 when every trial makes every step, dice, counts and pools: the
 * generator's state in four locals for the whole batch, and each step's
 * dice drawn as rng.h's loops draw them (rng_face_in), a pool counted
 * straight into its lanes. */
static __attribute__((noinline)) void draw_shared(const BatchCode *code, int64_t *slot, Rng *rng, int n)
{
    uint64_t st[4] = { rng->s[0], rng->s[1], rng->s[2], rng->s[3] };
    const BatchStep *steps = code->steps;
    int nsteps = code->nsteps;
    for (int t = 0; t < n; t++)
        for (int k = 0; k < nsteps; k++) {
            const BatchStep *step = &steps[k];
            int64_t *out = slot + (size_t)step->dst * BATCH_LANES;
            uint64_t sides = step->sides;
            switch (step->kind) {
            case STEP_DIE:
                out[t] = (int64_t)rng_face_in(st, sides) + 1;
                break;
            case STEP_COUNT: {
                int64_t c = 0;
                for (int64_t i = 0; i < step->n; i++)
                    c += (uint64_t)((int64_t)rng_face_in(st, sides) + 1 - step->lo) < step->span;
                out[t] = step->complement ? step->n - c : c;
                break;
            }
            case STEP_POOL: {
                uint64_t lanes = 0;
                unsigned bits = step->lane_bits;
                if (step->sum_dst >= 0) {
                    int64_t sum = 0;
                    const int32_t *v = step->values;
                    for (int64_t i = 0; i < step->n; i++) {
                        uint64_t f = rng_face_in(st, sides);
                        lanes += (uint64_t)1 << (bits * (unsigned)f);
                        sum += v ? v[f] : (int64_t)f + 1;
                    }
                    slot[(size_t)step->sum_dst * BATCH_LANES + t] = sum;
                } else {
                    for (int64_t i = 0; i < step->n; i++)
                        lanes += (uint64_t)1 << (bits * (unsigned)rng_face_in(st, sides));
                }
                out[t] = (int64_t)lanes;
                break;
            }
            case STEP_REROLL:
                break;           /* (not in a shared schedule) */
            }
        }
    for (int k = 0; k < 4; k++)
        rng->s[k] = st[k];
}

/* Phase 1: every trial's dice, trial after trial, each trial's in the
 * order of the schedule: the draws the interpreter makes, in its order
 * (counts and pools by rng.h's loops, as it draws them).  False if a
 * trial rerolls too often, with rng left part way. */
static bool draw(const BatchCode *code, int64_t *slot, Rng *rng, int n)
{
    if (code->dice_only) {
        draw_dice(code, slot, rng, n);
        return true;
    }
    if (code->shared) {
        draw_shared(code, slot, rng, n);
        return true;
    }
    return draw_steps(code, slot, rng, n);
}

/* A comparison of each lane of a with b (a slot's lanes, or one constant
 * k when b is NULL), into d. */
static void compare_lanes(int64_t *d, const int64_t *a, const int64_t *b, int64_t k, CmpOp op, int n)
{
#define COMPARE_LANES(rel) \
    do { \
        if (b) \
            for (int i = 0; i < n; i++) d[i] = a[i] rel b[i]; \
        else \
            for (int i = 0; i < n; i++) d[i] = a[i] rel k; \
    } while (0)
    switch (op) {
    case CMP_EQ: COMPARE_LANES(==); break;
    case CMP_NE: COMPARE_LANES(!=); break;
    case CMP_LT: COMPARE_LANES(<); break;
    case CMP_LE: COMPARE_LANES(<=); break;
    case CMP_GT: COMPARE_LANES(>); break;
    case CMP_GE: COMPARE_LANES(>=); break;
    }
#undef COMPARE_LANES
}

/* A quotient by a constant: by its reciprocal where the dividend has 32
 * bits and is not negative, as the interpreter does (the same whole
 * number), else as val_idiv_fast; false for a quotient it leaves to
 * val_idiv. */
static inline bool divide_const(int64_t a, int64_t k, uint64_t inverse, DivMode mode, int64_t *q)
{
    if (inverse && (uint64_t)a < ((uint64_t)1 << 32)) {
        uint64_t ua = (uint64_t)a, uk = (uint64_t)k;
        uint64_t r = (uint64_t)(((unsigned __int128)inverse * ua) >> 64);
        uint64_t rem = ua - r * uk;
        r += mode == DIV_CEIL ? rem != 0 : mode == DIV_ROUND ? 2 * rem >= uk : 0;
        *q = (int64_t)r;
        return true;
    }
    return val_idiv_fast(a, k, mode, q);
}

/* One operation over n lanes; false if it fails in a lane of its
 * predicate (in other lanes it computes on values no trial has, and
 * whatever it makes of them is never chosen). */
static bool exec_op(const BatchOp *o, int64_t *slot, int n)
{
#define LANES(s) ((s) >= 0 ? slot + (size_t)(s) * BATCH_LANES : NULL)
    int64_t *d = LANES(o->dst), *ds = LANES(o->site_dst);
    const int64_t *a = LANES(o->a), *b = LANES(o->b), *c = LANES(o->c), *p = LANES(o->pred);
#undef LANES
    const int64_t k = o->k;
    uint64_t bad = 0;        /* some lane of the predicate fails */
    switch ((BatchOpKind)o->kind) {
    case BOP_ADD:
        for (int i = 0; i < n; i++) {
            int64_t r;
            bad |= (uint64_t)p[i] & __builtin_add_overflow(a[i], b[i], &r);
            d[i] = r;
        }
        break;
    case BOP_SUB:
        for (int i = 0; i < n; i++) {
            int64_t r;
            bad |= (uint64_t)p[i] & __builtin_sub_overflow(a[i], b[i], &r);
            d[i] = r;
        }
        break;
    case BOP_MUL:
        for (int i = 0; i < n; i++) {
            int64_t r;
            bad |= (uint64_t)p[i] & __builtin_mul_overflow(a[i], b[i], &r);
            d[i] = r;
        }
        break;
    case BOP_ADDK:
        for (int i = 0; i < n; i++) {
            int64_t r;
            bad |= (uint64_t)p[i] & __builtin_add_overflow(a[i], k, &r);
            d[i] = r;
        }
        break;
    case BOP_SUBK:
        for (int i = 0; i < n; i++) {
            int64_t r;
            bad |= (uint64_t)p[i] & __builtin_sub_overflow(a[i], k, &r);
            d[i] = r;
        }
        break;
    case BOP_MULK:
        for (int i = 0; i < n; i++) {
            int64_t r;
            bad |= (uint64_t)p[i] & __builtin_mul_overflow(a[i], k, &r);
            d[i] = r;
        }
        break;
    case BOP_ADD_IF:
        for (int i = 0; i < n; i++) {
            int64_t r;
            bad |= (uint64_t)p[i] & __builtin_add_overflow(a[i], b[i], &r);
            d[i] = r;
        }
        break;
    case BOP_NEG:
        for (int i = 0; i < n; i++) {
            bad |= (uint64_t)p[i] & (a[i] == INT64_MIN);
            d[i] = (int64_t)(0 - (uint64_t)a[i]);
        }
        break;
    case BOP_ABS:
        for (int i = 0; i < n; i++) {
            /* (the sign's mask: all ones below zero) */
            uint64_t sign = (uint64_t)(a[i] >> 63);
            bad |= (uint64_t)p[i] & (a[i] == INT64_MIN);
            d[i] = (int64_t)(((uint64_t)a[i] ^ sign) - sign);
        }
        break;
    case BOP_MIN:
        for (int i = 0; i < n; i++)
            d[i] = a[i] <= b[i] ? a[i] : b[i];
        break;
    case BOP_MAX:
        for (int i = 0; i < n; i++)
            d[i] = a[i] <= b[i] ? b[i] : a[i];
        break;
    case BOP_MOD:
        for (int i = 0; i < n; i++) {
            /* (0 is an error, and -1 would overflow on INT64_MIN: both
             * the interpreter's) */
            bool odd = b[i] == 0 || b[i] == -1;
            int64_t y = odd ? 1 : b[i], r = a[i] % y;
            bad |= (uint64_t)p[i] & odd;
            d[i] = r != 0 && (r < 0) != (y < 0) ? r + y : r;
        }
        break;
    case BOP_IDIV:
        for (int i = 0; i < n; i++) {
            int64_t q = 0;
            bad |= (uint64_t)p[i] & !val_idiv_fast(a[i], b[i], (DivMode)o->aux, &q);
            d[i] = q;
        }
        break;
    case BOP_IDIVK:
        for (int i = 0; i < n; i++) {
            int64_t q = 0;
            bad |= (uint64_t)p[i] & !divide_const(a[i], k, (uint64_t)o->k2, (DivMode)o->aux, &q);
            d[i] = q;
        }
        break;
    case BOP_CMP:
    case BOP_CMPK:
        compare_lanes(d, a, o->kind == BOP_CMP ? b : NULL, k, (CmpOp)o->aux, n);
        break;
    case BOP_NOT:
        for (int i = 0; i < n; i++)
            d[i] = a[i] ^ 1;
        break;
    case BOP_AND:
        for (int i = 0; i < n; i++)
            d[i] = a[i] & b[i];
        break;
    case BOP_ANDNOT:
        for (int i = 0; i < n; i++)
            d[i] = a[i] & (b[i] ^ 1);
        break;
    case BOP_OR:
        for (int i = 0; i < n; i++)
            d[i] = a[i] | b[i];
        break;
    case BOP_SELECT:
        /* by a mask, not a branch: which way a lane went is as the dice fell */
        for (int i = 0; i < n; i++)
            d[i] = b[i] ^ ((a[i] ^ b[i]) & -c[i]);
        break;
    case BOP_TABLE: {
        /* the interpreter's first look: the key's cell, or the one below
         * or above the span, indexed with no branch */
        const BatchTable *t = o->table;
        for (int i = 0; i < n; i++) {
            int64_t key = a[i];
            uint64_t at = (uint64_t)key - (uint64_t)t->lo;
            int64_t x = at < (uint64_t)t->n ? (int64_t)at + 1 : t->n + 1;
            x = key < t->lo ? 0 : x;
            int64_t site = t->site[x];
            bad |= (uint64_t)p[i] & (site == NO_CELL);
            d[i] = t->value[x];
            if (ds)
                ds[i] = site;
        }
        break;
    }
    case BOP_COUNT: {
        /* the counts of the faces asked about, summed by one
         * multiplication (no lane's running total can carry) */
        uint64_t ones = o->aux == 8 ? 0x0101010101010101ULL : 0x1111111111111111ULL;
        for (int i = 0; i < n; i++)
            d[i] = (int64_t)((((uint64_t)a[i] & (uint64_t)k) * ones) >> (64 - o->aux));
        break;
    }
    case BOP_ANY:
        for (int i = 0; i < n; i++)
            d[i] = ((uint64_t)a[i] & (uint64_t)k) != 0;
        break;
    case BOP_ALL:
        for (int i = 0; i < n; i++)
            d[i] = ((uint64_t)a[i] & ~(uint64_t)k) == 0;
        break;
    case BOP_HIGHEST:
    case BOP_LOWEST:
        if (o->values) {
            /* the highest (lowest) value among the faces shown, wherever
             * it is among them */
            uint64_t lane = ((uint64_t)1 << o->aux) - 1;
            bool high = o->kind == BOP_HIGHEST;
            for (int i = 0; i < n; i++) {
                int64_t best = high ? INT64_MIN : INT64_MAX;
                for (int64_t f = 0; f < k; f++)
                    if (((uint64_t)a[i] >> (o->aux * f)) & lane)
                        best = high ? (o->values[f] > best ? o->values[f] : best)
                                    : (o->values[f] < best ? o->values[f] : best);
                d[i] = a[i] ? best : 1;
            }
        } else if (o->kind == BOP_HIGHEST) {
            /* the top lane that holds a die (a roll of dice holds one) */
            for (int i = 0; i < n; i++)
                d[i] = (63 - __builtin_clzll((uint64_t)a[i] | 1)) / o->aux + 1;
        } else {
            for (int i = 0; i < n; i++)
                d[i] = a[i] ? __builtin_ctzll((uint64_t)a[i]) / o->aux + 1 : 1;
        }
        break;
    case BOP_SUM: {
        uint64_t lane = ((uint64_t)1 << o->aux) - 1;
        if (o->sum_table) {
            /* a look-up a byte of the counts (see of_pool) */
            const int64_t *t = o->sum_table;
            int bytes = (int)o->k2;
            for (int i = 0; i < n; i++) {
                uint64_t w = (uint64_t)a[i];
                int64_t sum = 0;
                for (int j = 0; j < bytes; j++)
                    sum += t[256 * j + ((w >> (8 * j)) & 0xff)];
                d[i] = sum;
            }
            break;
        }
        for (int i = 0; i < n; i++) {
            int64_t sum = 0;
            for (int64_t f = 1; f <= k; f++)
                sum += f * (int64_t)(((uint64_t)a[i] >> (o->aux * (f - 1))) & lane);
            d[i] = sum;
        }
        break;
    }
    case BOP_JOIN:
        for (int i = 0; i < n; i++)
            d[i] = (int64_t)((uint64_t)a[i] + ((uint64_t)b[i] << k));
        break;
    case BOP_NARROW:
        for (int i = 0; i < n; i++) {
            uint64_t w = 0;
            for (int64_t f = 0; f < k; f++)
                w |= (((uint64_t)a[i] >> (8 * f)) & 0xf) << (4 * f);
            d[i] = (int64_t)w;
        }
        break;
    case BOP_DOUBLES: {
        /* some lane holds 2 or more */
        uint64_t two = o->aux == 8 ? 0xFEFEFEFEFEFEFEFEULL : 0xEEEEEEEEEEEEEEEEULL;
        for (int i = 0; i < n; i++)
            d[i] = ((uint64_t)a[i] & two) != 0;
        break;
    }
    case BOP_KNOWN:
        for (int i = 0; i < n; i++)
            bad |= (uint64_t)p[i] & (a[i] >= 0);
        break;
    }
    return bad == 0;
}

bool batch_run(const BatchCode *code, BatchLanes *lanes, Rng *rng, int n, BatchResults *out)
{
    Rng start = *rng;
    bool ran = draw(code, lanes->slot, rng, n);
    for (int j = 0; ran && j < code->nops; j++)
        ran = exec_op(&code->ops[j], lanes->slot, n);
    if (!ran) {
        *rng = start;
        return false;
    }
    out->kind = code->kind;
    out->value = lanes->slot + (size_t)code->result * BATCH_LANES;
    out->site = code->result_site >= 0 ? lanes->slot + (size_t)code->result_site * BATCH_LANES : NULL;
    return true;
}
