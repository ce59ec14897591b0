/* vm.c — the interpreter: one call of a proto, or many runs of it.
 *
 * vm_call runs a proto to its result on the machine's own value stack and
 * frames (no C recursion: a script's recursion stops at limits.max_depth).
 * vm_call_many runs it again and again from the top, as the simulation
 * does, each run's pools and records in a scratch arena reset between runs.
 * Around the dispatch loop: the remembered results of pure calls (memo_*),
 * the stacks, the error report (fail) and the loop's rare and heavy cases
 * (intercept_call, grow_for_call, roll_pool, table_lookup). */
#include "config.h"
#include "vm/vm.h"
#include "base/mem.h"
#include "vm/opcodes.h"
#include "vm/pool.h"
#include "vm/exact.h"

#include <stdarg.h>
#include <string.h>

#define SCAN_DICE 64             /* a pool this small is counted in one pass, inline */

const VmLimits vm_default_limits = {
    .max_steps = 100000000ULL,
    .max_depth = 1000,
    .max_pool = 1000000,
    .max_rerolls = 1000000,
};

void vm_init(Vm *vm, const Program *prog, DiceSource *dice)
{
    memset(vm, 0, sizeof *vm);
    vm->prog = prog;
    vm->dice = dice;
    vm->limits = vm_default_limits;
}

Value vm_keep(Value v)
{
    if (v.tag == VAL_POOL)
        return val_pool(pool_keep(v.as.p));
    if (v.tag == VAL_RECORD) {
        /* the record itself may be in a scratch arena */
        Record *r = mem_alloc(sizeof(Record) + sizeof(Value) * (size_t)v.as.r->n);
        r->type = v.as.r->type;
        r->n = v.as.r->n;
        for (int32_t i = 0; i < r->n; i++)
            r->field[i] = vm_keep(v.as.r->field[i]);
        return val_record(r);
    }
    return v;
}

/* ---- remembered results ---- */

#define MEMO_WAYS 4           /* results remembered per proto: a few call sites with their own arguments */

typedef struct MemoEntry {
    Value *args;             /* collector memory */
    Value result;
    enum { MEMO_EMPTY, MEMO_VALID, MEMO_BUSY } state;
} MemoEntry;

struct MemoSet {
    MemoEntry way[MEMO_WAYS];
    int next;                /* the way to reuse next */
    bool off;                /* its arguments keep changing: not worth remembering */
    uint32_t hits, misses;
};

/* Only calls whose arguments and result are plain values are remembered:
 * a pool has no identity to compare and lives in the trial's arena, and a
 * record would have to be copied out of it (an allocation per trial). */
static inline bool plain(Value v)
{
    return v.tag != VAL_POOL && v.tag != VAL_RECORD;
}

static bool memo_same_slow(Value a, Value b);

static inline bool memo_same(Value a, Value b)
{
    if (a.tag != b.tag)
        return false;
    switch (a.tag) {
    case VAL_INT: return a.as.i == b.as.i;
    case VAL_ENUM: return a.as.i == b.as.i && a.enum_id == b.enum_id;
    case VAL_BOOL: return a.as.b == b.as.b;
    default: return memo_same_slow(a, b);
    }
}

static bool memo_same_slow(Value a, Value b)
{
    switch (a.tag) {
    case VAL_RAT: return a.as.q.num == b.as.q.num && a.as.q.den == b.as.q.den;
    case VAL_STR: return a.as.s == b.as.s || (a.as.s->len == b.as.s->len && memcmp(a.as.s->bytes, b.as.s->bytes, a.as.s->len) == 0);
    default: return false;
    }
}

/* A call of a memo proto: 1 if a remembered result answers it (*out); else
 * 0, with *remember set to the way that is to remember what this call
 * returns, or -1. */
static int memo_lookup(MemoSet *m, const Value *args, int argc, Value *out, int *remember)
{
    *remember = -1;
    for (int w = 0; w < MEMO_WAYS; w++) {
        const MemoEntry *e = &m->way[w];
        if (e->state != MEMO_VALID)
            continue;
        int i = 0;
        while (i < argc && memo_same(e->args[i], args[i]))
            i++;
        if (i == argc) {
            m->hits++;
            *out = e->result;
            return 1;
        }
    }
    if (m->off)
        return 0;
    if (++m->misses >= 64 && m->hits < 4 * m->misses) {
        m->off = true;
        for (int w = 0; w < MEMO_WAYS; w++)
            if (m->way[w].state == MEMO_VALID)
                m->way[w].state = MEMO_EMPTY;
        return 0;
    }
    MemoEntry *e = &m->way[m->next];
    if (e->state == MEMO_BUSY)
        return 0;                /* (a recursive call) */
    for (int i = 0; i < argc; i++)
        if (!plain(args[i]))
            return 0;
    if (!e->args && argc)
        e->args = mem_alloc(sizeof(Value) * (size_t)argc);
    if (argc)   /* (no arguments: args and e->args may be NULL) */
        memcpy(e->args, args, sizeof(Value) * (size_t)argc);
    e->state = MEMO_BUSY;
    *remember = m->next;
    m->next = (m->next + 1) % MEMO_WAYS;
    return 0;
}

static void memo_store(MemoEntry *e, Value r)
{
    e->result = r;
    e->state = plain(r) ? MEMO_VALID : MEMO_EMPTY;
}

/* A call failed at frame depth `depth`: if remembered calls were under
 * way, their entries are left busy, for memo_prepare to clear. */
static void memo_abandon(Vm *vm, int depth)
{
    for (int f = 1; f <= depth; f++)
        if (vm->frames[f].memo >= 0)
            vm->memo_dirty = true;
}

static void memo_prepare(Vm *vm)
{
    if (!vm->memo || vm->trace) {
        return;
    }
    if (vm->memo_n < vm->prog->nprotos) {
        /* (a program may gain protos, e.g. a specialized call) */
        MemoSet *tab = mem_alloc(sizeof(MemoSet) * (size_t)(vm->prog->nprotos + 1));
        if (vm->memo_tab)
            memcpy(tab, vm->memo_tab, sizeof(MemoSet) * (size_t)vm->memo_n);
        vm->memo_tab = tab;
        vm->memo_n = vm->prog->nprotos;
    }
    if (vm->memo_dirty) {
        for (int i = 0; i < vm->prog->nprotos; i++)
            for (int w = 0; w < MEMO_WAYS; w++)
                if (vm->memo_tab[i].way[w].state == MEMO_BUSY)
                    vm->memo_tab[i].way[w].state = MEMO_EMPTY;
        vm->memo_dirty = false;
    }
}

static void ensure_stacks(Vm *vm)
{
    if (!vm->stack) {
        /* enough for most runs; a deep recursion grows it (see OP_CALL).  A
         * machine nested in another (base_depth) starts small: a recursion
         * through prob() makes one per level */
        vm->stack_size = vm->base_depth ? 1 << 8 : 1 << 12;
        vm->stack = mem_alloc(sizeof(Value) * (size_t)vm->stack_size);
    }
    int frames = vm->limits.max_depth - vm->base_depth + 1;
    if (vm->base_depth && frames > 16)
        frames = 16;             /* grown as it goes (grow_frames) */
    if (frames < 1)
        frames = 1;
    if (vm->frames_cap < frames) {
        vm->frames_cap = frames;
        vm->frames = mem_alloc(sizeof(Frame) * (size_t)vm->frames_cap);
    }
}

/* Every bag full again, as a run starts (or as bag_start says). */
static void bags_refill(Vm *vm)
{
    const Program *prog = vm->prog;
    if (!vm->bag_left)
        vm->bag_left = mem_alloc_atomic(sizeof(int64_t) * (size_t)prog->bag_items);
    if (vm->bag_start) {
        memcpy(vm->bag_left, vm->bag_start, sizeof(int64_t) * (size_t)prog->bag_items);
        return;
    }
    for (int b = 0; b < prog->nbags; b++)
        memcpy(vm->bag_left + prog->bags[b].base, prog->bags[b].count,
               sizeof(int64_t) * (size_t)prog->bags[b].kinds.n);
}

/* n items from bag bg, not put back (one item's value when !pool, else a
 * pool of them); false with the reason in err.  `at` is the instruction. */
static bool draw_items(Vm *vm, const Proto *p, const uint8_t *at, Rng *rng, const BagDesc *bg, int64_t n, bool pool,
                       Value *out, char *err, size_t errlen)
{
    const PoolMethods *lazy = rng ? NULL : vm->dice->pools;
    if (lazy && lazy->bags && lazy->bags(vm->dice, err, errlen))
        return false;        /* (what the bags have left is settled first) */
    int64_t *left = vm->bag_left + bg->base, total = 0;
    int32_t kinds = bg->kinds.n;
    for (int32_t k = 0; k < kinds; k++)
        total += left[k];
    if (n < 0 || n > total) {
        if (n < 0)
            snprintf(err, errlen, "cannot draw a negative number of items (%lld)", (long long)n);
        else
            snprintf(err, errlen, "cannot draw %lld from %s: it has %lld left of the %lld it holds",
                     (long long)n, bg->kinds.name, (long long)total, (long long)bg->total);
        return false;
    }
    if (n == 1 && !pool && rng && !vm->trace) {
        /* one item, seeded: the r-th of those left, as dice_draw_rng draws it */
        int64_t r = (int64_t)rng_below(rng, (uint64_t)total);
        int32_t k = 0;
        while (r >= left[k])
            r -= left[k++];
        left[k]--;
        int64_t item = bg->kinds.value[k];
        *out = bg->symbols ? val_enum(bg->symbols - 1, item) : val_int(item);
        return true;
    }
    int32_t lo = bg->kinds.value[0], hi = bg->kinds.value[kinds - 1];
    int32_t pool_sides = lo >= 1 && hi <= 64 ? hi : 0;
    if (pool && n > 0 && lazy && lazy->draw && !vm->trace) {
        /* the source keeps the draw lazily, and takes the bag down itself */
        const Pool *q;
        if (lazy->draw(vm->dice, n, &bg->kinds, pool_sides, bg->symbols, left, &q, err, errlen))
            return false;
        *out = val_pool(q);
        return true;
    }
    int64_t taken[DIE_MAX_FACES];
    memset(taken, 0, sizeof(int64_t) * (size_t)kinds);
    int32_t *order = vm->trace && n ? mem_alloc_atomic(sizeof(int32_t) * (size_t)n) : NULL;
    if (n == 0)
        ;
    else if (rng)
        dice_draw_rng(rng, n, kinds, left, total, taken, order);
    else if (vm->dice->draw(vm->dice, n, &bg->kinds, left, total, taken, order, err, errlen))
        return false;
    Pool *q = NULL;
    if (pool) {
        q = pool_alloc(vm->scratch, 0, n);
        int64_t i = 0;
        for (int32_t k = 0; k < kinds; k++)
            for (int64_t c = taken[k]; c > 0; c--)
                q->face[i++] = bg->kinds.value[k];
        q->sides = pool_sides;
        q->symbols = (uint16_t)bg->symbols;
        *out = val_pool(q);
    }
    int64_t item = 0;
    for (int32_t k = 0; k < kinds; k++) {
        if (taken[k])
            item = bg->kinds.value[k];
        left[k] -= taken[k];
    }
    if (!pool)
        *out = bg->symbols ? val_enum(bg->symbols - 1, item) : val_int(item);
    if (vm->trace && vm->trace->on_draw)
        vm->trace->on_draw(vm->trace->ud, p, p->offsets[at - p->code], (int)(bg - vm->prog->bags), n, q, item, order,
                           total - n);
    return true;
}

/* Room for frame `depth` in a nested machine's frames, which start small. */
static void grow_frames(Vm *vm, int depth)
{
    int cap = vm->frames_cap * 2;
    if (cap < depth + 1)
        cap = depth + 1;
    Frame *f = mem_alloc(sizeof(Frame) * (size_t)cap);
    memcpy(f, vm->frames, sizeof(Frame) * (size_t)vm->frames_cap);
    vm->frames = f;
    vm->frames_cap = cap;
}

static void grow_stack(Vm *vm, ptrdiff_t need)
{
    int size = vm->stack_size;
    while (size < need)
        size *= 2;
    Value *stack = mem_alloc(sizeof(Value) * (size_t)size);
    memcpy(stack, vm->stack, sizeof(Value) * (size_t)vm->stack_size);
    vm->stack = stack;
    vm->stack_size = size;
}

static int fail(Vm *vm, const Proto *p, const uint8_t *ip, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(vm->error, sizeof vm->error, fmt, ap);
    va_end(ap);
    vm->error_proto = p;
    vm->error_offset = p && ip ? p->offsets[ip - p->code] : (p ? p->decl_offset : 0);
    vm->error_needed = false;
    memo_abandon(vm, vm->error_depth);
    return -1;
}

/* Writing a scalar in place (see val_make in value.h for why whole). */
#define PUT_INT(d, i) (*(d) = val_int(i))
#define PUT_BOOL(d, b) (*(d) = val_bool(b))
#define PUT_ENUM(d, id, i) (*(d) = val_enum((id), (i)))

static void key_text(char *buf, size_t len, Value key, const Program *prog)
{
    FILE *f = fmemopen(buf, len, "w");
    if (!f) {
        snprintf(buf, len, "?");
        return;
    }
    val_print(f, key, prog);
    fclose(f);
}

/* 1 or 0, whether a op b holds; or -1 when a or b is, or holds (a record's
 * field), an unknown, whose value the comparison needs: *unknown is it. */
static int compare_other(const Value *a, const Value *b, CmpOp op, Value *unknown)
{
    const Value *u = val_find_unknown(a);
    if (!u)
        u = val_find_unknown(b);
    if (u) {
        *unknown = *u;
        return -1;
    }
    bool numeric = (a->tag == VAL_INT || a->tag == VAL_RAT) && (b->tag == VAL_INT || b->tag == VAL_RAT);
    return cmp_holds(numeric ? val_num_cmp(*a, *b) : val_order(*a, *b), op);
}

/* Inline for the common cases: two ints, two members of one enum, two
 * bools; anything else out of line. */
static inline __attribute__((always_inline)) int compare(const Value *a, const Value *b, CmpOp op, Value *unknown)
{
    if (a->tag == b->tag && (a->tag == VAL_INT || a->tag == VAL_ENUM) && a->enum_id == b->enum_id)
        return cmp_holds((a->as.i > b->as.i) - (a->as.i < b->as.i), op);
    if (a->tag == VAL_BOOL && b->tag == VAL_BOOL)
        return cmp_holds((int)a->as.b - (int)b->as.b, op);
    return compare_other(a, b, op, unknown);
}

/* ---- values the rules text does not give ---- */

/* The key payload k of dimension d, as the value it was. */
static Value dim_key(const TableDim *d, int64_t k)
{
    return d->key_tag == VAL_BOOL ? val_bool(k != 0) : val_make(d->key_tag, d->key_enum, k);
}

/* The key that selects column `col` of d (columns are single keys). */
static Value column_key(const TableDim *d, int col)
{
    for (int k = 0; k < d->nkeys; k++)
        if (d->mode == KEYS_INDEX ? d->index[k] == col : d->row[k] == col)
            return dim_key(d, d->mode == KEYS_INDEX ? k : d->lo[k]);
    return val_int(col);
}

/* The column of cell `cell` of table t. */
static int cell_column(const Table *t, int cell)
{
    if (!t->col_rows)
        return cell % t->dim[1].n;
    for (int b = 0; b < t->dim[1].n; b++) {
        const TableDim *rows = &t->col_rows[b];
        for (int k = 0; k < rows->nkeys; k++)
            if ((rows->mode == KEYS_INDEX ? rows->index[k] : rows->row[k]) == cell)
                return b;
    }
    return 0;
}

void vm_unknown_text(const Program *prog, Value u, char *buf, size_t len)
{
    const UnknownSite *s = &prog->unknowns[u.enum_id];
    if (s->table < 0) {
        if (s->what)
            snprintf(buf, len, "%s gives no value for %s: the rules text does not say (marked '?')", s->owner,
                     s->what);
        else
            snprintf(buf, len, "%s gives no value here: the rules text does not say (marked '?')", s->owner);
        return;
    }
    const Table *t = prog->tables[s->table];
    char k0[64], k1[64] = "";
    /* (the rows of column blocks are each column's own; their keys are alike) */
    key_text(k0, sizeof k0, dim_key(t->col_rows ? &t->col_rows[0] : &t->dim[0], u.as.q.num), prog);
    if (t->ndims == 2) {
        /* the column from the cell (a lookup in one column of the table,
         * made by the specializer, has only the row's key) */
        int col = cell_column(t, s->cell);
        if (t->dim[1].labels && t->dim[1].mode == KEYS_INDEX && !t->col_rows)
            snprintf(k1, sizeof k1, "%s", t->dim[1].labels[col]);   /* a field's name, not its number */
        else
            key_text(k1, sizeof k1, column_key(&t->dim[1], col), prog);
    }
    snprintf(buf, len, "table '%s' gives no value for %s%s%s: the rules text does not say (marked '?')", t->name,
             k0, t->ndims == 2 ? ", " : "", k1);
}

/* The run stops on unknown u: its message (or, for an owner that only
 * counts such runs, a short one), pointing at the '?'. */
static void set_unknown_error(Vm *vm, Value u)
{
    if (vm->quiet_unknown) {
        static const char quiet[] = "a value the rules text does not give is needed here (marked '?')";
        memcpy(vm->error, quiet, sizeof quiet);
    } else {
        vm_unknown_text(vm->prog, u, vm->error, sizeof vm->error);
    }
    vm->error_unknown = true;
    vm->error_offset = vm_unknown_offset(vm->prog, u);
}

void vm_unknown_error(Vm *vm, Value u, const Proto *in)
{
    set_unknown_error(vm, u);
    vm->error_proto = in;
    vm->error_depth = 0;
    vm->error_needed = false;
}

/* Instruction `at` of p, in frame `depth`, needs the value of unknown u:
 * the run stops (-1), the error pointing at the '?', and the place that
 * needed it kept for a note. */
static int need_unknown(Vm *vm, const Proto *p, const uint8_t *at, int depth, Value u)
{
    vm->error_depth = depth;
    set_unknown_error(vm, u);
    vm->error_proto = p;
    vm->error_needed = true;
    vm->error_needed_offset = p->offsets[at - p->code];
    memo_abandon(vm, depth);
    return -1;
}

/* ---- the loop's rare and heavy cases, out of line ----
 *
 * What the dispatch loop meets seldom, or what takes many instructions when
 * it does, is a function of its own: the loop stays small enough for the
 * processor to keep in cache, and reads as what each opcode does. */

#define COLD __attribute__((noinline, cold))

/* A call of a rerolling or recursive procedure inside an exact count: the
 * engine answers it (0, *answer), leaves it to be run as usual (1), or
 * stops the run (-1, why in vm->error). */
static COLD int intercept_call(Vm *vm, const Proto *callee, int index, const Value *args, int depth,
                               Value *answer)
{
    vm->error[0] = '\0';
    int rc = vm->intercept(vm->intercept_ud, callee, index, args, depth, answer);
    if (rc > 0)
        return 0;
    if (rc == 0)
        return 1;
    if (!vm->error[0])
        snprintf(vm->error, sizeof vm->error, "stopped");
    return -1;
}

/* ADD or SUB of the top two values, one of them or both an int the exact
 * engine keeps as a distribution (VAL_DIST): 0 with the result in sp[-2]
 * (the VM pops one), 1 with both made plain values for the VM's own
 * arithmetic, -1 with vm->error set. */
static COLD int deferred_arith(Vm *vm, OpCode op, Value *sp)
{
    Value out;
    int rc = vm->at_deferred(vm->intercept_ud, vm, op, &sp[-2], &sp[-1], &out);
    if (rc == 0)
        sp[-2] = out;
    return rc;
}

/* Room on the value stack for `need` values above its bottom; the frames
 * hold pointers into it, and so do the loop's base and sp: all are moved. */
static COLD void grow_for_call(Vm *vm, int depth, ptrdiff_t need, Value **base, Value **sp)
{
    Value *old = vm->stack;
    grow_stack(vm, need);
    for (int f = 0; f <= depth; f++)
        vm->frames[f].base = vm->stack + (vm->frames[f].base - old);
    *base = vm->stack + (*base - old);
    *sp = vm->stack + (*sp - old);
}

/* How many of n dice of `sides` sides compare to k: ROLL_COUNTK's loop,
 * a function of its own so that the loop has registers of its own (inside
 * the interpreter's, its count and index lived on the stack). */
static __attribute__((noinline)) int64_t count_roll(Rng *rng, int64_t n, int64_t sides, CmpOp cmp, int64_t k)
{
    int64_t lo;
    uint64_t span;
    pool_face_span(cmp, k, sides, &lo, &span);
    int64_t c = rng_count_in(rng, n, (uint64_t)sides, lo, span);
    return cmp == CMP_NE ? n - c : c;
}

/* A fresh pool's dice drawn from seeded dice, with their counts per face
 * in lanes: a function of its own, as count_roll. */
static __attribute__((noinline)) void draw_pool(Rng *rng, Pool *pool)
{
    unsigned w = pool_lane_bits(pool->sides, pool->n);
    pool->lanes = rng_dice(rng, pool->face, pool->n, (uint64_t)pool->sides, w);
    pool->lane_bits = (uint8_t)w;
}

/* n dice of `sides` sides (or of die, which has `sides` faces, when not
 * NULL) from the run's dice, as a pool; false with the reason in err when
 * the dice cannot be rolled.  `at` is the instruction, for the trace. */
static bool roll_pool(Vm *vm, const Proto *p, const uint8_t *at, Rng *rng, int64_t n, int64_t sides, const Die *die,
                      const Pool **out, char *err, size_t errlen)
{
    if (sides < 1 || sides > VM_MAX_SIDES) {
        snprintf(err, errlen, "a die must have 1 to %d sides, not %lld", VM_MAX_SIDES, (long long)sides);
        return false;
    }
    if (n < 0) {
        snprintf(err, errlen, "cannot roll a negative number of dice (%lld)", (long long)n);
        return false;
    }
    if (n > vm->limits.max_pool) {
        snprintf(err, errlen, "a pool of %lld dice is over the limit of %lld", (long long)n,
                 (long long)vm->limits.max_pool);
        return false;
    }
    const Pool *pool;
    if (vm->dice->pools) {
        /* the source may keep the pool lazily (the exact engine); a pool of
         * no dice is still a roll, counted towards its cut */
        if (vm->dice->pools->roll(vm->dice, n, (int32_t)sides, die, &pool, err, errlen))
            return false;
    } else {
        Pool *fresh = pool_alloc(vm->scratch, (int32_t)sides, n);
        if (rng && !die) {
            draw_pool(rng, fresh);   /* (the counts per face in lanes as the dice are drawn) */
        } else if (vm->dice->roll(vm->dice, n, (int32_t)sides, die, fresh->face, err, errlen)) {
            return false;       /* (asked even for no dice: the exact engine counts every roll) */
        } else if (die) {
            pool_die_values(fresh, die);
        } else {
            pool_note_lanes(fresh);
        }
        if (vm->trace)
            pool_sort(fresh);   /* an explanation shows it */
        else
            fresh->unsorted = n > 1;
        pool = fresh;
    }
    if (vm->trace && vm->trace->on_roll) {
        int32_t which = die ? -(int32_t)((const DieDesc *)die - vm->prog->dies) - 1 : (int32_t)sides;
        vm->trace->on_roll(vm->trace->ud, p, p->offsets[at - p->code], which, n, pool, 0);
    }
    *out = pool;
    return true;
}

/* How a table lookup that missed the fast path ended. */
typedef enum {
    LOOKUP_VALUE,            /* the cell's value (or a '?' cell's unknown) replaces the keys on the stack */
    LOOKUP_UNKNOWN,          /* a key is an unknown (*unknown), whose value the lookup needs */
    LOOKUP_FAILED,           /* an error, in vm->error */
} Lookup;

/* Key k of dimension d of t as the rules looked it up: a table the
 * specializer made with its keys moved (Table.key_shift) was looked up on
 * x for the x + key_shift of the rules. */
static Value shown_key(const Table *t, int d, Value k)
{
    int64_t shown;
    if (d == 0 && t->key_shift && k.tag == VAL_INT && !__builtin_add_overflow(k.as.i, t->key_shift, &shown))
        k.as.i = shown;
    return k;
}

/* A '?' cell of t's first look (a key-less unknown, see Table.fast) for
 * the key payload k: the unknown table_lookup would make. */
static COLD Value fast_unknown(const Table *t, Value cell, int64_t k)
{
    return val_unknown(cell.enum_id, shown_key(t, 0, val_int(k)).as.i);
}

/* Table t looked up on the key(s) on top of *sp, by the instruction that
 * ends at `ip`, in frame `depth`: the general path (two keys, bands,
 * columns with rows of their own, a row shown in an explanation, a key
 * with no row, a cell with no value, a key that is an unknown).  A '?'
 * cell gives an unknown, which stops the run only where its value is
 * needed; a field of an unknown outcome is that unknown. */
static Lookup table_lookup(Vm *vm, const Proto *p, const uint8_t *ip, const Table *t, Value **spp,
                          int depth, Value *unknown)
{
    const Program *prog = vm->prog;
    Value *sp = *spp;
    Value keys[2];
    int at[2] = { 0, 0 };
    vm->error_depth = depth;     /* fail() forgets the memo entries of the frames up to it */
    /* (one or two keys; not a loop, which the compiler makes a memmove) */
    if (t->ndims == 2) {
        keys[1] = sp[-1];
        keys[0] = sp[-2];
        sp -= 2;
    } else {
        keys[0] = *--sp;
    }
    *spp = sp;
    if (keys[0].tag == VAL_UNKNOWN && t->fields) {
        *(*spp)++ = keys[0];
        return LOOKUP_VALUE;
    }
    for (int d = 0; d < t->ndims; d++)
        if (keys[d].tag == VAL_UNKNOWN) {
            *unknown = keys[d];
            return LOOKUP_UNKNOWN;
        }
    for (int d = t->col_rows ? 1 : 0; d < t->ndims; d++) {
        at[d] = chunk_key_find(&t->dim[d], keys[d]);
        if (at[d] < 0) {
            char k[64];
            key_text(k, sizeof k, shown_key(t, d, keys[d]), prog);
            if (t->bands && d == 0)
                fail(vm, p, ip - 1, "no band of '%s' covers %s", t->name, k);
            else
                fail(vm, p, ip - 1, "table '%s' has no %s for %s", t->name, d == 0 ? "row" : "column", k);
            return LOOKUP_FAILED;
        }
    }
    if (t->col_rows) {
        /* each column has its own rows: find the column, then the row in it */
        at[0] = chunk_key_find(&t->col_rows[at[1]], keys[0]);
        if (at[0] < 0) {
            char k[64], col[64];
            key_text(k, sizeof k, shown_key(t, 0, keys[0]), prog);
            key_text(col, sizeof col, keys[1], prog);
            fail(vm, p, ip - 1, "no band of '%s' covers %s in column %s", t->name, k, col);
            return LOOKUP_FAILED;
        }
        at[1] = 0;
    }
    int cell = t->col_rows ? at[0] : at[0] * (t->ndims == 2 ? t->dim[1].n : 1) + at[1];
    if (t->row_texts && t->row_texts[at[0]] && vm->trace && vm->trace->on_row)
        vm->trace->on_row(vm->trace->ud, p, p->offsets[ip - 3 - p->code], (int)chunk_u16(ip - 2), at[0]);
    if (t->kinds[cell] == CELL_UNKNOWN) {
        /* the row's key goes with it, for its message (a row may stand for
         * a range of keys; a column is one) */
        Value shown = shown_key(t, 0, keys[0]);
        int64_t k = shown.tag == VAL_BOOL ? (int64_t)shown.as.b : shown.as.i;
        *(*spp)++ = val_unknown(t->unknown_site[cell], k);
        return LOOKUP_VALUE;
    }
    if (t->kinds[cell] != CELL_VALUE) {
        char k0[64], k1[64] = "";
        key_text(k0, sizeof k0, shown_key(t, 0, keys[0]), prog);
        if (t->ndims == 2)
            key_text(k1, sizeof k1, keys[1], prog);
        if (t->ndims == 2 && t->dim[1].labels && t->dim[1].mode == KEYS_INDEX && !t->col_rows)
            snprintf(k1, sizeof k1, "%s", t->dim[1].labels[at[1]]);   /* a field's name, not its number */
        fail(vm, p, ip - 3, "table '%s' has no value for %s%s%s: it does not apply (marked '-')",
             t->name, k0, t->ndims == 2 ? ", " : "", k1);
        vm->error_offset = t->cell_offsets[cell];
        return LOOKUP_FAILED;
    }
    *(*spp)++ = t->cells[cell];
    return LOOKUP_VALUE;
}

/* The interpreter: protos[index](args), `repeat` times over (see
 * vm_call_many), each result to the next of results[]. */
static int run(Vm *vm, int index, const Value *args, int nargs, Value *results, uint64_t repeat)
{
    uint64_t finished = 0, skipped = 0;
    /* a pool or record result lives in the scratch arena: while one is
     * held, the next runs allocate above it instead of resetting it */
    bool held = false;
    vm->runs_done = 0;
    vm->runs_unknown = 0;
    ensure_stacks(vm);
    if (vm->prog->nbags)
        bags_refill(vm);
    memo_prepare(vm);
    MemoSet *const memo = vm->memo && !vm->trace ? vm->memo_tab : NULL;
    const Program *prog = vm->prog;
    const VmLimits *lim = &vm->limits;
    Rng *const rng = vm->dice ? vm->dice->rng : NULL;   /* seeded dice, drawn from directly */
    /* the steps left before the limit: counted down, so that each
     * instruction tests one number and reads no limit */
    uint64_t steps_left = lim->max_steps;
    int64_t rerolls = 0;
    char dice_err[256];

    const Proto *p = prog->protos[index];
    vm->error_depth = 0;
    vm->error_unknown = false;
    vm->error_needed = false;
    if (nargs != p->nparams)
        return fail(vm, p, NULL, "'%s' takes %d arguments, %d given", p->name, p->nparams, nargs);
    if (p->nlocals + p->max_stack > vm->stack_size)
        grow_stack(vm, p->nlocals + p->max_stack);
    Value *base = vm->stack;
    if (nargs)
        memcpy(base, args, sizeof(Value) * (size_t)nargs);
    Value *sp = base + p->nlocals;
    const uint8_t *ip = p->code;
    int depth = 0;
    vm->frames[0] = (Frame){ .proto = p, .ip = ip, .base = base, .memo = -1 };
    if (vm->scratch)
        vm->frames[0].scratch = arena_mark(vm->scratch);

#define PUSH(v) (*sp++ = (v))
#define POP() (*--sp)
#define PEEK(k) (sp[-1 - (k)])
/* What the Vm keeps of a run when it stops, by a result or an error: the
 * loop holds these in locals and writes them only here. */
#define SAVE_RUN() do { vm->steps = lim->max_steps - steps_left; vm->error_depth = depth; vm->runs_done = finished; \
        vm->runs_unknown = skipped; } while (0)
/* The next of `repeat` runs, from the top frame (depth 0, p and base its
 * own): from the top, its pools and records in a fresh arena. */
#define NEXT_RUN() do { if (vm->scratch) { if (held) vm->frames[0].scratch = arena_mark(vm->scratch); \
                                             else arena_reset(vm->scratch); } \
        steps_left = lim->max_steps; rerolls = 0; ip = p->code; sp = base + p->nlocals; \
        if (prog->nbags) bags_refill(vm); } while (0)
/* Results held in the scratch arena (below) have filled half of it: time
 * to return them, for the owner to count and reset it. */
#define HELD_FULL() (held && vm->scratch->used > vm->scratch->size / 2)
#define ERR(...) do { SAVE_RUN(); return fail(vm, p, ip - 1, __VA_ARGS__); } while (0)
/* An instruction that needs the value of v: an unknown stops the run
 * there (see `unknown:` below the switch). */
#define KNOWN(v) do { if (__builtin_expect((v).tag == VAL_UNKNOWN, 0)) { unknown = (v); goto needed; } } while (0)
#define ARITH(fn) do { Value b_ = POP(); Value a_ = POP(); Value r_; KNOWN(a_); KNOWN(b_); \
        const char *e_ = fn(a_, b_, &r_); if (e_) ERR("%s", e_); PUSH(r_); } while (0)
/* ADD or SUB of an int the exact engine keeps as a distribution: the
 * engine works it out, or makes both plain and the instruction runs again */
#define DEFERRED(code, again) do { \
        if (__builtin_expect(PEEK(0).tag == VAL_DIST || PEEK(1).tag == VAL_DIST, 0)) { \
            int rc_ = deferred_arith(vm, (code), sp); \
            if (rc_ < 0) \
                ERR("%s", vm->error); \
            if (rc_ == 0) { \
                sp--; \
                NEXT; \
            } \
            goto again; \
        } } while (0)
#define UNARY(fn) do { KNOWN(sp[-1]); Value a_ = POP(); Value r_; \
        const char *e_ = fn(a_, &r_); if (e_) ERR("%s", e_); PUSH(r_); } while (0)
/* a comparison into dst: -1 from compare is an unknown among a and b */
#define COMPARE(dst, a, b, cmp) do { int c_ = compare((a), (b), (cmp), &unknown); \
        if (__builtin_expect(c_ < 0, 0)) goto needed; \
        dst = c_ != 0; } while (0)

    /* the compared value of ANY, ALL, COUNT_IF: the slot just popped, or a K
     * form's constant.  A pointer, not a copy: a Value copied into a local
     * is written in pieces and read back whole, which the processor cannot
     * forward from its store buffer (a stall of a dozen cycles). */
    const Value *operand;
    Value unknown;           /* what an instruction needed and found unknown */
    DivMode idiv_mode;       /* IDIV's and IDIVK's rounding */
    uint8_t op;
#if defined(__GNUC__) && !defined(__EMSCRIPTEN__)
    /* Threaded dispatch: each instruction ends by jumping straight to the
     * next one's code through this table, so each has a jump of its own for
     * the processor to predict (what follows a JUMP_UNLESS is not what
     * follows a ROLLK), where a switch at the top of a loop shares one among
     * all.  The switch stays, reached only by the first instruction, so the
     * compiler still warns of an opcode it does not handle (and a CASE with
     * no label here, or a label with no CASE, does not compile).
     * Not in WebAssembly (web/build.sh), which has no indirect jump: there
     * each `goto *` becomes a jump to one shared table anyway, and the plain
     * switch runs faster (a cup of 24 order dice drawn one at a time to the
     * third Confederate die: 1.24 s for 3000000 trials, against 1.85 s). */
    static const void *const code_of[256] = {
#define OP(name, operands, pops, pushes, jump_at, effects, summary) [OP_##name] = &&do_##name,
#include "vm/opcodes.def"
#undef OP
        [OP__COUNT ... 255] = &&bad_op,
    };
#define NEXT do { op = *ip++; \
        if (__builtin_expect(steps_left-- == 0, 0)) goto step_limit; \
        goto *code_of[op]; } while (0)
#define CASE(name) case OP_##name: do_##name
#else
#define NEXT goto next
#define CASE(name) case OP_##name
#endif
    for (;;) {
#if !defined(__GNUC__) || defined(__EMSCRIPTEN__)
    next:
#endif
        op = *ip++;
        if (steps_left-- == 0)
            goto step_limit;
        /* a byte that is no opcode stops here, so the switch needs no
         * default and the compiler warns of an opcode it does not handle */
        if (__builtin_expect(op >= OP__COUNT, 0))
            goto bad_op;
        switch ((OpCode)op) {
        CASE(CONST):
            PUSH(p->consts[chunk_u16(ip)]);
            ip += 2;
            NEXT;
        CASE(TRUE): PUT_BOOL(sp, true); sp++; NEXT;
        CASE(FALSE): PUT_BOOL(sp, false); sp++; NEXT;
        CASE(LOAD): PUSH(base[*ip++]); NEXT;
        CASE(LOADN): {
            /* a plain loop: a few values, where an inlined memcpy is slow to start */
            const Value *from = base + ip[0];
            for (int k = ip[1]; k > 0; k--)
                *sp++ = *from++;
            ip += 2;
            NEXT;
        }
        CASE(STORE): base[*ip++] = POP(); NEXT;
        CASE(POP): sp--; NEXT;
        CASE(ADDK): {
            const Value *k = &p->consts[chunk_u16(ip)];
            ip += 2;
            if (sp[-1].tag == VAL_INT && k->tag == VAL_INT) {
                int64_t r;
                if (__builtin_add_overflow(sp[-1].as.i, k->as.i, &r))
                    ERR("integer overflow");
                PUT_INT(&sp[-1], r);
                NEXT;
            }
            PUSH(*k);
            goto add;
        }
        CASE(ADD): add: {
            if (PEEK(0).tag == VAL_STR && PEEK(1).tag == VAL_STR) {
                Value b = POP(), a = POP();
                MuStr *s = val_new_str(NULL, a.as.s->len + b.as.s->len);
                memcpy(s->bytes, a.as.s->bytes, a.as.s->len);
                memcpy(s->bytes + a.as.s->len, b.as.s->bytes, b.as.s->len);
                PUSH(val_str(s));
                NEXT;
            }
            if (PEEK(0).tag == VAL_INT && PEEK(1).tag == VAL_INT) {
                int64_t r;
                if (__builtin_add_overflow(PEEK(1).as.i, PEEK(0).as.i, &r))
                    ERR("integer overflow");
                sp--;
                PUT_INT(&sp[-1], r);
                NEXT;
            }
            DEFERRED(OP_ADD, add);
            ARITH(val_add);
            NEXT;
        }
        CASE(SUBK):
            PUSH(p->consts[chunk_u16(ip)]);
            ip += 2;
            goto sub;
        CASE(SUB): sub:
            if (PEEK(0).tag == VAL_INT && PEEK(1).tag == VAL_INT) {
                int64_t r;
                if (__builtin_sub_overflow(PEEK(1).as.i, PEEK(0).as.i, &r))
                    ERR("integer overflow");
                sp--;
                PUT_INT(&sp[-1], r);
                NEXT;
            }
            DEFERRED(OP_SUB, sub);
            ARITH(val_sub);
            NEXT;
        CASE(CMPK): {
            CmpOp c = (CmpOp)ip[2];
            bool holds;
            COMPARE(holds, &sp[-1], &p->consts[chunk_u16(ip)], c);
            PUT_BOOL(&sp[-1], holds);
            ip += 3;
            NEXT;
        }
        CASE(TEE): base[*ip++] = sp[-1]; NEXT;
        CASE(MULK):
            operand = &p->consts[chunk_u16(ip)];
            ip += 2;
            goto mul;
        CASE(MUL):
            operand = --sp;
        mul:
            if (sp[-1].tag == VAL_INT && operand->tag == VAL_INT) {
                int64_t r;
                if (__builtin_mul_overflow(sp[-1].as.i, operand->as.i, &r))
                    ERR("integer overflow");
                PUT_INT(&sp[-1], r);
                NEXT;
            }
            KNOWN(sp[-1]);
            KNOWN(*operand);
            {
                Value r;
                const char *e = val_mul(sp[-1], *operand, &r);
                if (e)
                    ERR("%s", e);
                sp[-1] = r;
            }
            NEXT;
        CASE(DIV): ARITH(val_div); NEXT;
        CASE(MOD):
            if (sp[-1].tag == VAL_INT && sp[-2].tag == VAL_INT && sp[-1].as.i != 0 && sp[-1].as.i != -1) {
                /* (-1 would overflow on INT64_MIN, 0 is an error: both go
                 * to val_mod, as does an unknown) */
                int64_t b = sp[-1].as.i, r = sp[-2].as.i % b;
                sp--;
                PUT_INT(&sp[-1], r != 0 && (r < 0) != (b < 0) ? r + b : r);
                NEXT;
            }
            ARITH(val_mod);
            NEXT;
        CASE(IDIVK): {
            operand = &p->consts[chunk_u16(ip)];
            idiv_mode = (DivMode)(chunk_u16(ip + 2) >> 14);
            unsigned inverse = chunk_u16(ip + 2) & 0x3fff;
            ip += 4;
            if (inverse != 0x3fff && sp[-1].tag == VAL_INT && (uint64_t)sp[-1].as.i < ((uint64_t)1 << 32)) {
                /* a dividend of 32 bits and at least 0 by a constant of 32
                 * bits: a multiplication by its reciprocal, ceil(2^64 / k),
                 * where a division would take many cycles (Lemire, Kaser
                 * and Kurz, "Faster remainder by direct computation") */
                uint64_t a = (uint64_t)sp[-1].as.i, k = (uint64_t)operand->as.i;
                uint64_t q = (uint64_t)(((unsigned __int128)(uint64_t)p->consts[inverse].as.i * a) >> 64);
                uint64_t rem = a - q * k;
                q += idiv_mode == DIV_CEIL ? rem != 0 : idiv_mode == DIV_ROUND ? 2 * rem >= k : 0;
                PUT_INT(&sp[-1], (int64_t)q);
                NEXT;
            }
            goto idiv;
        }
        CASE(IDIV):
            operand = --sp;
            idiv_mode = (DivMode)*ip++;
        idiv: {
            /* DIV then FLOOR, CEIL or ROUND: two ints make no rational */
            DivMode mode = idiv_mode;
            int64_t q;
            if (sp[-1].tag == VAL_INT && operand->tag == VAL_INT && val_idiv_fast(sp[-1].as.i, operand->as.i, mode, &q)) {
                PUT_INT(&sp[-1], q);
                NEXT;
            }
            KNOWN(sp[-1]);
            KNOWN(*operand);
            Value r;
            const char *e = val_idiv(sp[-1], *operand, mode, &r);
            if (e)
                ERR("%s", e);
            sp[-1] = r;
            NEXT;
        }
        CASE(NEG): UNARY(val_neg); NEXT;
        CASE(NOT): KNOWN(sp[-1]); PUT_BOOL(&sp[-1], !sp[-1].as.b); NEXT;
        CASE(BOOL_INT): KNOWN(sp[-1]); PUT_INT(&sp[-1], sp[-1].as.b ? 1 : 0); NEXT;
        CASE(ADD_IF): {
            KNOWN(sp[-1]);
            KNOWN(sp[-2]);
            /* no branch on the test: the processor could not guess it */
            int64_t inc = (--sp)->as.b ? 1 : 0;
            if (sp[-1].tag == VAL_INT) {
                int64_t r;
                if (__builtin_add_overflow(sp[-1].as.i, inc, &r))
                    ERR("integer overflow");
                PUT_INT(&sp[-1], r);
                NEXT;
            }
            PUSH(val_int(inc));
            goto add;
        }
        CASE(EQ): CASE(NE): CASE(LT): CASE(LE): CASE(GT): CASE(GE): {
            bool holds;
            COMPARE(holds, &sp[-2], &sp[-1], (CmpOp)(op - OP_EQ));
            sp--;
            PUT_BOOL(&sp[-1], holds);
            NEXT;
        }
        CASE(JUMP): ip += 2 + chunk_u16(ip); NEXT;
        CASE(JUMP_UNLESS): {
            bool holds;
            COMPARE(holds, &sp[-1], &p->consts[chunk_u16(ip)], (CmpOp)ip[2]);
            sp--;
            ip += holds ? 5 : 5 + chunk_u16(ip + 3);
            NEXT;
        }
        CASE(JUMP_CMP): {
            bool holds;
            COMPARE(holds, &sp[-2], &sp[-1], (CmpOp)ip[0]);
            sp -= 2;
            ip += holds ? 3 : 3 + chunk_u16(ip + 1);
            NEXT;
        }
        CASE(JUMP_UNLESS_L): {
            bool holds;
            COMPARE(holds, &base[ip[0]], &p->consts[chunk_u16(ip + 1)], (CmpOp)ip[3]);
            ip += holds ? 6 : 6 + chunk_u16(ip + 4);
            NEXT;
        }
        CASE(JUMP_FALSE): {
            KNOWN(sp[-1]);
            Value c = POP();
            ip += c.as.b ? 2 : 2 + chunk_u16(ip);
            NEXT;
        }
        CASE(AND_JUMP):
            KNOWN(PEEK(0));
            if (!PEEK(0).as.b) ip += 2 + chunk_u16(ip);
            else { sp--; ip += 2; }
            NEXT;
        CASE(OR_JUMP):
            KNOWN(PEEK(0));
            if (PEEK(0).as.b) ip += 2 + chunk_u16(ip);
            else { sp--; ip += 2; }
            NEXT;
        CASE(CALL): {
            int callee_index = (int)chunk_u16(ip);
            const Proto *callee = prog->protos[callee_index];
            int argc = ip[2];
            ip += 3;
            if (vm->base_depth + depth + 1 >= lim->max_depth)
                ERR("recursion limit reached: more than %d calls active at once when calling '%s'",
                    lim->max_depth, callee->name);
            if ((callee->rerolls || callee->recursive) && vm->intercept) {
                Value answer;
                vm->frames[depth].ip = ip;   /* where the call returns to (a tail call?) */
                vm->may_defer = *ip == OP_DEFER;
                int rc = intercept_call(vm, callee, callee_index, sp - argc, depth, &answer);
                vm->may_defer = false;
                if (rc < 0) {
                    char why[sizeof vm->error];
                    memcpy(why, vm->error, sizeof why);
                    ERR("%s", why);
                }
                if (rc == 0) {
                    sp -= argc;
                    PUSH(answer);
                    NEXT;
                }
                /* else called as usual */
            }
            int remember_as = -1;
            if (callee->memo && memo) {
                Value answer;
                int way;
                if (memo_lookup(&memo[callee_index], sp - argc, argc, &answer, &way)) {
                    sp -= argc;
                    PUSH(answer);
                    NEXT;
                }
                if (way >= 0)
                    remember_as = callee_index * MEMO_WAYS + way;
            }
            if (sp + callee->nlocals + callee->max_stack > vm->stack + vm->stack_size) {
                /* (through copies: a pointer whose address is taken lives in
                 * memory, and sp and base are read by every instruction) */
                Value *moved_base = base, *moved_sp = sp;
                grow_for_call(vm, depth, (sp - vm->stack) + callee->nlocals + callee->max_stack, &moved_base, &moved_sp);
                base = moved_base;
                sp = moved_sp;
            }
            if (depth + 1 >= vm->frames_cap)
                grow_frames(vm, depth + 1);
            Value *nbase = sp - argc;
            vm->frames[depth].ip = ip;
            depth++;
            p = callee;
            base = nbase;
            sp = base + p->nlocals;
            ip = p->code;
            vm->frames[depth] = (Frame){ .proto = p, .ip = ip, .base = base, .memo = remember_as };
            if (p->rerolls && vm->scratch)
                vm->frames[depth].scratch = arena_mark(vm->scratch);
            if (vm->trace && vm->trace->on_call && !p->hidden)
                vm->trace->on_call(vm->trace->ud, p, base, depth);
            NEXT;
        }
        CASE(RETURNK):
            PUSH(p->consts[chunk_u16(ip)]);
            ip += 2;
            goto return_top;
        CASE(RETURNL):
            PUSH(base[*ip++]);
            __attribute__((fallthrough));
        CASE(RETURN):
        return_top: {
            Value r = POP();
            if (depth == 0) {
                results[finished++] = r;
                if (finished + skipped < repeat) {
                    held |= (r.tag == VAL_POOL || r.tag == VAL_RECORD) && vm->scratch;
                    if (!HELD_FULL()) {
                        NEXT_RUN();
                        NEXT;
                    }
                }
                SAVE_RUN();
                return 0;
            }
            if (vm->trace && vm->trace->on_return && !p->hidden)
                vm->trace->on_return(vm->trace->ud, p, r, depth);
            if (vm->frames[depth].memo >= 0)
                memo_store(&memo[vm->frames[depth].memo / MEMO_WAYS].way[vm->frames[depth].memo % MEMO_WAYS], r);
            sp = base;
            depth--;
            p = vm->frames[depth].proto;
            base = vm->frames[depth].base;
            ip = vm->frames[depth].ip;
            PUSH(r);
            NEXT;
        }
        CASE(REROLL):
            if (vm->stop_on_reroll && depth == 0) {
                vm->rerolled = true;
                ERR("reroll");
            }
            if (++rerolls > lim->max_rerolls)
                ERR("reroll limit reached: rerolled %lld times without a result (can the reroll condition ever be false?)",
                    (long long)lim->max_rerolls);
            if (vm->trace && vm->trace->on_reroll)
                vm->trace->on_reroll(vm->trace->ud, p, p->offsets[ip - 1 - p->code]);
            /* the attempt's pools and records go: a reroll that runs on
             * holds one attempt's memory, not every attempt's */
            if (vm->scratch)
                arena_release(vm->scratch, vm->frames[depth].scratch);
            ip = p->code;
            sp = base + p->nlocals;
            NEXT;
        CASE(ROLLK):
            operand = &p->consts[chunk_u16(ip)];
            ip += 2;
            goto roll;
        CASE(ROLL):
            KNOWN(sp[-1]);
            operand = --sp;
        roll: {
            int64_t sides = operand->as.i;
            if (sides < 1 || sides > VM_MAX_SIDES)
                ERR("a die must have 1 to %d sides, not %lld", VM_MAX_SIDES, (long long)sides);
            int32_t face;
            if (rng)
                face = (int32_t)rng_below(rng, (uint64_t)sides) + 1;
            else if (vm->dice->roll(vm->dice, 1, (int32_t)sides, NULL, &face, dice_err, sizeof dice_err))
                ERR("%s", dice_err);
            if (vm->trace && vm->trace->on_roll)
                vm->trace->on_roll(vm->trace->ud, p, p->offsets[ip - 1 - p->code], (int32_t)sides, 1, NULL, face);
            PUT_INT(sp, face);
            sp++;
            NEXT;
        }
        CASE(ROLL_DIE): {
            const DieDesc *dd = &vm->prog->dies[chunk_u16(ip)];
            ip += 2;
            int32_t face;
            if (rng)
                face = (int32_t)rng_below(rng, (uint64_t)dd->die.n) + 1;
            else if (vm->dice->roll(vm->dice, 1, dd->die.n, &dd->die, &face, dice_err, sizeof dice_err))
                ERR("%s", dice_err);
            int32_t v = dd->die.value[face - 1];
            if (vm->trace && vm->trace->on_roll)
                vm->trace->on_roll(vm->trace->ud, p, p->offsets[ip - 3 - p->code], -(int32_t)(dd - vm->prog->dies) - 1,
                                   1, NULL, v);
            PUSH(dd->symbols ? val_enum(dd->symbols - 1, v) : val_int(v));
            NEXT;
        }
        CASE(ROLL_DIE_POOL): {
            KNOWN(sp[-1]);
            const DieDesc *dd = &vm->prog->dies[chunk_u16(ip)];
            ip += 2;
            int64_t n = POP().as.i;
            const Pool *pool;
            if (!roll_pool(vm, p, ip - 3, rng, n, dd->die.n, &dd->die, &pool, dice_err, sizeof dice_err))
                ERR("%s", dice_err);
            if (dd->symbols && !pool->lazy)
                ((Pool *)pool)->symbols = (uint16_t)dd->symbols;   /* (a fresh pool, this roll's own) */
            PUSH(val_pool(pool));
            NEXT;
        }
        CASE(DRAW): CASE(DRAW_POOL): {
            const BagDesc *bg = &prog->bags[chunk_u16(ip)];
            ip += 2;
            int64_t n = 1;
            if (op == OP_DRAW_POOL) {
                KNOWN(sp[-1]);
                n = POP().as.i;
            }
            Value v;
            if (!draw_items(vm, p, ip - 3, rng, bg, n, op == OP_DRAW_POOL, &v, dice_err, sizeof dice_err))
                ERR("%s", dice_err);
            PUSH(v);
            NEXT;
        }
        CASE(ORD):
            KNOWN(sp[-1]);
            PUT_INT(&sp[-1], sp[-1].as.i);
            NEXT;
        CASE(MEMBER):
            KNOWN(sp[-1]);
            sp[-1] = val_enum((int32_t)chunk_u16(ip), sp[-1].as.i);
            ip += 2;
            NEXT;
        CASE(ROLL_POOLK):
            PUSH(p->consts[chunk_u16(ip)]);
            PUSH(p->consts[chunk_u16(ip + 2)]);
            ip += 4;
            __attribute__((fallthrough));
        CASE(ROLL_POOL): {
            KNOWN(sp[-1]);
            KNOWN(sp[-2]);
            int64_t sides = POP().as.i;
            int64_t n = POP().as.i;
            const Pool *pool;
            if (!roll_pool(vm, p, ip - 1, rng, n, sides, NULL, &pool, dice_err, sizeof dice_err))
                ERR("%s", dice_err);
            PUSH(val_pool(pool));
            NEXT;
        }
/* A lazy pool is answered by the dice source that holds it: the value of
 * instruction `code` on `pool` replaces the top of the stack.  (`code` is
 * spelt out, not `op`, which would cost the dispatch of every instruction
 * a register.) */
#define LAZY_POOL(code, pool, cmp, x) \
    if (__builtin_expect((pool)->lazy != NULL, 0)) { \
        if (pool_lazy_op((code), (pool), (cmp), (x), &sp[-1], dice_err, sizeof dice_err)) \
            ERR("%s", dice_err); \
        NEXT; \
    }
        CASE(FILTER): {
            KNOWN(sp[-1]);
            KNOWN(sp[-2]);
            Value x = POP();
            CmpOp cmp = (CmpOp)*ip++;
            LAZY_POOL(OP_FILTER, sp[-1].as.p, cmp, x);
            sp[-1] = val_pool(pool_filter(vm->scratch, sp[-1].as.p, cmp, x));
            NEXT;
        }
        CASE(ANYK):
            KNOWN(sp[-1]);
            operand = &p->consts[chunk_u16(ip)];
            ip += 2;
            goto any;
        CASE(ANY):
            KNOWN(sp[-1]);
            KNOWN(sp[-2]);
            operand = --sp;
        any: {
            const Value x = *operand;
            CmpOp cmp = (CmpOp)*ip++;
            LAZY_POOL(OP_ANY, sp[-1].as.p, cmp, x);
            if (x.tag == VAL_INT && sp[-1].as.p->lane_bits)
                PUT_BOOL(&sp[-1], pool_count_lanes(sp[-1].as.p, cmp, x.as.i) > 0);
            else if (x.tag == VAL_INT && sp[-1].as.p->n <= SCAN_DICE)
                PUT_BOOL(&sp[-1], pool_count_scan(sp[-1].as.p, cmp, x.as.i) > 0);
            else
                PUT_BOOL(&sp[-1], pool_any(sp[-1].as.p, cmp, x));
            NEXT;
        }
        CASE(ALLK):
            KNOWN(sp[-1]);
            operand = &p->consts[chunk_u16(ip)];
            ip += 2;
            goto all;
        CASE(ALL):
            KNOWN(sp[-1]);
            KNOWN(sp[-2]);
            operand = --sp;
        all: {
            const Value x = *operand;
            CmpOp cmp = (CmpOp)*ip++;
            LAZY_POOL(OP_ALL, sp[-1].as.p, cmp, x);
            if (x.tag == VAL_INT && sp[-1].as.p->lane_bits)
                PUT_BOOL(&sp[-1], pool_count_lanes(sp[-1].as.p, cmp, x.as.i) == sp[-1].as.p->n);
            else if (x.tag == VAL_INT && sp[-1].as.p->n <= SCAN_DICE)
                PUT_BOOL(&sp[-1], pool_count_scan(sp[-1].as.p, cmp, x.as.i) == sp[-1].as.p->n);
            else
                PUT_BOOL(&sp[-1], pool_all(sp[-1].as.p, cmp, x));
            NEXT;
        }
        CASE(COUNT):
            KNOWN(sp[-1]);
            LAZY_POOL(OP_COUNT, sp[-1].as.p, CMP_EQ, val_int(0));
            PUT_INT(&sp[-1], sp[-1].as.p->n);
            NEXT;
        CASE(ROLL_COUNTK): {
            /* count(roll n dS cmp k) as one draw-and-count loop, no pool:
             * what seeded dice with no trace to show the pool do */
            int64_t n = p->consts[chunk_u16(ip)].as.i, sides = p->consts[chunk_u16(ip + 2)].as.i;
            operand = &p->consts[chunk_u16(ip + 4)];
            CmpOp cmp = (CmpOp)ip[6];
            if (rng && !vm->trace && operand->tag == VAL_INT && sides >= 1 && sides <= VM_MAX_SIDES && n >= 0
                && n <= lim->max_pool) {
                int64_t c = count_roll(rng, n, sides, cmp, operand->as.i);
                ip += 7;
                PUT_INT(sp, c);
                sp++;
                NEXT;
            }
            /* otherwise the two instructions it stands for (scripted dice,
             * the exact engine's lazy pools, a trace, a roll that fails) */
            ip += 6;                 /* (at the CmpOp byte, which count_if reads) */
            const Pool *pool;
            if (!roll_pool(vm, p, ip, rng, n, sides, NULL, &pool, dice_err, sizeof dice_err))
                ERR("%s", dice_err);
            PUSH(val_pool(pool));
            goto count_if;
        }
        CASE(COUNT_IFK):
            KNOWN(sp[-1]);
            operand = &p->consts[chunk_u16(ip)];
            ip += 2;
            goto count_if;
        CASE(COUNT_IF):
            KNOWN(sp[-1]);
            KNOWN(sp[-2]);
            operand = --sp;
        count_if: {
            const Value x = *operand;
            CmpOp cmp = (CmpOp)*ip++;
            if (__builtin_expect(sp[-1].as.p->lazy != NULL, 0)) {
                /* FILTER then COUNT, as the peephole pass found them */
                if (pool_lazy_op(OP_FILTER, sp[-1].as.p, cmp, x, &sp[-1], dice_err, sizeof dice_err)
                    || pool_lazy_op(OP_COUNT, sp[-1].as.p, CMP_EQ, val_int(0), &sp[-1], dice_err, sizeof dice_err))
                    ERR("%s", dice_err);
                NEXT;
            }
            if (x.tag == VAL_INT && sp[-1].as.p->lane_bits)
                PUT_INT(&sp[-1], pool_count_lanes(sp[-1].as.p, cmp, x.as.i));
            else if (x.tag == VAL_INT && sp[-1].as.p->n <= SCAN_DICE)
                PUT_INT(&sp[-1], pool_count_scan(sp[-1].as.p, cmp, x.as.i));
            else
                PUT_INT(&sp[-1], pool_count(sp[-1].as.p, cmp, x));
            NEXT;
        }
        CASE(SUM):
            KNOWN(sp[-1]);
            if (__builtin_expect(sp[-1].as.p->lazy != NULL, 0)) {
                vm->may_defer = *ip == OP_DEFER;
                int rc = pool_lazy_op(OP_SUM, sp[-1].as.p, CMP_EQ, val_int(0), &sp[-1], dice_err, sizeof dice_err);
                vm->may_defer = false;
                if (rc)
                    ERR("%s", dice_err);
                NEXT;
            }
            PUT_INT(&sp[-1], pool_sum(sp[-1].as.p));
            NEXT;
        CASE(HIGHEST): CASE(LOWEST): {
            KNOWN(sp[-1]);
            const Pool *pool = sp[-1].as.p;
            LAZY_POOL(op == OP_HIGHEST ? OP_HIGHEST : OP_LOWEST, pool, CMP_EQ, val_int(0));
            if (pool->lane_bits && pool->n > 0) {
                /* the highest or lowest lane that holds a die, without sorting */
                int bit = op == OP_HIGHEST ? 63 - __builtin_clzll(pool->lanes) : __builtin_ctzll(pool->lanes);
                PUT_INT(&sp[-1], bit / pool->lane_bits + 1);
                NEXT;
            }
            pool = pool_order(pool);
            if (pool->n == 0)
                ERR("%s() of an empty pool", op == OP_HIGHEST ? "highest" : "lowest");
            PUT_INT(&sp[-1], op == OP_HIGHEST ? pool->face[pool->n - 1] : pool->face[0]);
            NEXT;
        }
        CASE(HIGHEST_N): CASE(LOWEST_N): {
            KNOWN(sp[-1]);
            KNOWN(sp[-2]);
            Value pv = POP();
            int64_t n = sp[-1].as.i;
            if (n < 0)
                ERR("%s() of a negative number of dice (%lld)",
                    op == OP_HIGHEST_N ? "highest" : "lowest", (long long)n);
            LAZY_POOL(op == OP_HIGHEST_N ? OP_HIGHEST_N : OP_LOWEST_N, pv.as.p, CMP_EQ, val_int(n));
            sp[-1] = val_pool(op == OP_HIGHEST_N ? pool_highest(vm->scratch, pv.as.p, n)
                                                 : pool_lowest(vm->scratch, pv.as.p, n));
            NEXT;
        }
        CASE(DOUBLES):
            KNOWN(sp[-1]);
            LAZY_POOL(OP_DOUBLES, sp[-1].as.p, CMP_EQ, val_int(0));
            if (sp[-1].as.p->lane_bits)     /* some lane of 2 or more */
                PUT_BOOL(&sp[-1], (sp[-1].as.p->lanes & (sp[-1].as.p->lane_bits == 8 ? 0xFEFEFEFEFEFEFEFEULL
                                                                                       : 0xEEEEEEEEEEEEEEEEULL)) != 0);
            else
                PUT_BOOL(&sp[-1], pool_doubles(sp[-1].as.p));
            NEXT;
#undef LAZY_POOL
        CASE(JOIN): {
            KNOWN(sp[-1]);
            KNOWN(sp[-2]);
            const Pool *b = POP().as.p, *a = sp[-1].as.p;
            if (__builtin_expect(a->lazy != NULL || b->lazy != NULL, 0)) {
                /* the source may join lazy pools itself; else their faces are
                 * settled (each part one choice among its multisets) */
                DiceSource *source = (a->lazy ? a->lazy : b->lazy)->source;
                const Pool *joined = NULL;
                if (source->pools->join && source->pools->join(source, a, b, &joined, dice_err, sizeof dice_err))
                    ERR("%s", dice_err);
                if (joined) {
                    sp[-1] = val_pool(joined);
                    NEXT;
                }
                b = pool_plain(b);
                a = pool_plain(a);
            }
            if (a->n + b->n > vm->limits.max_pool)
                ERR("a pool of %lld dice is over the limit of %lld", (long long)(a->n + b->n),
                    (long long)vm->limits.max_pool);
            sp[-1] = val_pool(pool_join(vm->scratch, a, b));
            NEXT;
        }
        CASE(FLOOR): UNARY(val_floor); NEXT;
        CASE(CEIL): UNARY(val_ceil); NEXT;
        CASE(ROUND): UNARY(val_round); NEXT;
        CASE(ABS): UNARY(val_abs); NEXT;
        CASE(TABLE): {
            const Table *t = prog->tables[chunk_u16(ip)];
            ip += 2;
            if (t->fast && !(t->row_texts && vm->trace)) {
                /* the usual case first: one key, a value in its cell */
                int64_t k = sp[-1].tag == VAL_BOOL ? (int64_t)sp[-1].as.b : sp[-1].as.i;
                /* the key's cell, or the one below or above the span: an
                 * index picked with no branch (a die's key is as likely
                 * to fall beyond an open-ended band as anywhere) */
                uint64_t at = (uint64_t)k - (uint64_t)t->fast_lo;
                int64_t i = at < (uint64_t)t->fast_n ? (int64_t)at : t->fast_n;
                i = k < t->fast_lo ? -1 : i;
                const Value *cell = t->fast[i];
                if (cell && sp[-1].tag != VAL_UNKNOWN) {   /* (a key that is an unknown: the general path) */
                    sp[-1] = *cell;
                    if (__builtin_expect(sp[-1].tag == VAL_UNKNOWN, 0))
                        sp[-1] = fast_unknown(t, sp[-1], k);   /* a '?' cell: its unknown names the key */
                    NEXT;
                }
            }
            Value *looked_sp = sp;   /* (a copy, as for grow_for_call) */
            Lookup how = table_lookup(vm, p, ip, t, &looked_sp, depth, &unknown);
            sp = looked_sp;
            if (how == LOOKUP_UNKNOWN) {
                goto needed;
            } else if (how == LOOKUP_FAILED) {
                SAVE_RUN();
                return -1;
            }
            NEXT;
        }
        CASE(SHIFT): {
            KNOWN(sp[-1]);
            KNOWN(sp[-2]);
            int64_t n = POP().as.i;
            Value *m = &sp[-1];
            int64_t last = prog->enums[m->enum_id].nmembers - 1;
            int64_t to = m->as.i + (n > last ? last + 1 : n < -last ? -last - 1 : n);
            PUT_ENUM(m, m->enum_id, to < 0 ? 0 : to > last ? last : to);
            NEXT;
        }
        CASE(RECORD): {
            int type = (int)chunk_u16(ip), n = ip[2];
            ip += 3;
            size_t size = sizeof(Record) + sizeof(Value) * (size_t)n;
            Record *r = vm->scratch ? arena_alloc(vm->scratch, size) : mem_alloc(size);
            r->type = type;
            r->n = n;
            sp -= n;
            memcpy(r->field, sp, sizeof(Value) * (size_t)n);
            PUSH(val_record(r));
            NEXT;
        }
        CASE(RECORDK): {
            /* a record whose other fields were known when it was specialized */
            const Record *t = p->consts[chunk_u16(ip)].as.r;
            unsigned mask = chunk_u16(ip + 2);
            ip += 4;
            size_t size = sizeof(Record) + sizeof(Value) * (size_t)t->n;
            Record *r = vm->scratch ? arena_alloc(vm->scratch, size) : mem_alloc(size);
            memcpy(r, t, size);
            sp -= __builtin_popcount(mask);
            for (const Value *from = sp; mask; mask &= mask - 1)
                r->field[__builtin_ctz(mask)] = *from++;
            PUSH(val_record(r));
            NEXT;
        }
        CASE(FIELD):
            /* a field of a record the rules text does not give is not given either */
            if (__builtin_expect(sp[-1].tag == VAL_UNKNOWN, 0))
                ip++;
            else
                sp[-1] = sp[-1].as.r->field[*ip++];
            NEXT;
        CASE(MERGE):
            steps_left++;    /* not a step of the rules' own */
            if (vm->at_merge) {
                vm->frames[depth].ip = ip;
                if (vm->at_merge(vm->intercept_ud, vm, depth, sp)) {
                    char why[sizeof vm->error];
                    memcpy(why, vm->error, sizeof why);
                    ERR("%s", why);
                }
            }
            NEXT;
        CASE(DEFER):
            steps_left++;    /* not a step of the rules' own */
            NEXT;
        CASE(SETTLE):
            steps_left++;
            if (__builtin_expect(sp[-1].tag == VAL_DIST, 0)) {
                bool taken = depth > 0 && *vm->frames[depth - 1].ip == OP_DEFER;
                vm->frames[depth].ip = ip;
                if (vm->at_settle(vm->intercept_ud, vm, depth, taken, &sp[-1])) {
                    char why[sizeof vm->error];
                    memcpy(why, vm->error, sizeof why);
                    ERR("%s", why);
                }
            }
            NEXT;
        CASE(NOTE): {
            const MuStr *label = p->consts[chunk_u16(ip)].as.s;
            int kind = ip[2];
            ip += 3;
            if (vm->trace && vm->trace->on_note)
                vm->trace->on_note(vm->trace->ud, p, p->offsets[ip - 4 - p->code], label, kind, sp[-1]);
            NEXT;
        }
        CASE(CHOOSE): {
            int id = (int)chunk_u16(ip);
            ip += 2;
            int pick = vm->choices ? vm->choices[id] : -1;
            PUT_ENUM(sp, id, pick >= 0 ? pick : prog->enums[id].deflt);
            sp++;
            if (vm->trace && vm->trace->on_choose)
                vm->trace->on_choose(vm->trace->ud, p, p->offsets[ip - 3 - p->code], id, (int)sp[-1].as.i, pick >= 0);
            NEXT;
        }
        CASE(PROB): {
            Value odds;
            char why[sizeof vm->error];
            int argc = ip[2];
            ip += 3;
            if (exact_claim(vm, (int)chunk_u16(ip - 3), sp - argc, argc, depth, &odds, why, sizeof why))
                ERR("%s", why);
            sp -= argc;
            PUSH(odds);
            NEXT;
        }
        CASE(PICK):
            if (!vm->choices)
                ERR("a choice can only be made in an example");
            vm->choices[chunk_u16(ip)] = (int)chunk_u16(ip + 2);
            ip += 4;
            NEXT;
        CASE(EXPECT): {
            int index = (int)chunk_u16(ip);
            ip += 2;
            KNOWN(sp[-1]);
            Value ok = POP(), right = POP(), left = POP();
            if (vm->trace && vm->trace->on_expect)
                vm->trace->on_expect(vm->trace->ud, p, p->offsets[ip - 3 - p->code], index, ok.as.b, left, right);
            else if (!ok.as.b)
                ERR("expectation %d does not hold", index + 1);
            NEXT;
        }
        CASE(MIN): CASE(MAX): {
            KNOWN(sp[-1]);
            KNOWN(sp[-2]);
            Value b = POP(), a = POP();
            int c = val_num_cmp(a, b);
            PUSH((op == OP_MIN) == (c <= 0) ? a : b);
            NEXT;
        }
        }
        continue;
    needed:
        /* an instruction needs the value of an unknown: the run stops (or,
         * one of many runs that may skip such a run, is counted and the
         * next one begun) */
        if (vm->skip_unknown && repeat > 1) {
            skipped++;
            memo_abandon(vm, depth);
            depth = 0;
            if (finished + skipped == repeat || HELD_FULL()) {
                SAVE_RUN();
                return 0;
            }
            p = vm->frames[0].proto;
            base = vm->frames[0].base;
            NEXT_RUN();
            NEXT;
        }
        SAVE_RUN();
        return need_unknown(vm, p, ip - 1, depth, unknown);
    }
step_limit:
    ERR("step limit reached: %llu instructions without finishing; is a recursion or a reroll running away?",
        (unsigned long long)lim->max_steps);
bad_op:
    ERR("bad instruction %d", op);
#undef NEXT
#undef CASE
#undef KNOWN
#undef COMPARE
#undef PUSH
#undef POP
#undef PEEK
#undef ERR
#undef SAVE_RUN
#undef NEXT_RUN
#undef HELD_FULL
#undef ARITH
#undef UNARY
}

int vm_call(Vm *vm, int index, const Value *args, int nargs, Value *result)
{
    return run(vm, index, args, nargs, result, 1);
}

int vm_call_many(Vm *vm, int index, uint64_t n, Value *results, uint64_t *done, uint64_t *unknown)
{
    int rc = n ? run(vm, index, NULL, 0, results, n) : 0;
    *done = vm->runs_done;
    *unknown = vm->runs_unknown;
    return rc;
}

