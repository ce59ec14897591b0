/* specialize.c — a procedure compiled once more for fixed arguments (see specialize.h). */
#include "config.h"
#include "compiler/specialize.h"
#include "compiler/peephole.h"
#include "base/mem.h"
#include "vm/opcodes.h"

#include <stdio.h>
#include <string.h>

#define SPEC_MAX_CODE 16384      /* bytes of residual code before giving up */
#define SPEC_MAX_TEMPS 240       /* locals of the residual procedure (slots are one byte) */
#define SPEC_MAX_INLINE 24       /* procedures inlined into one another */

/* What the specializer knows of a value. */
typedef enum {
    AV_KNOWN,                /* its value, now */
    AV_TEMP,                 /* only at run time: in local `temp` of the residual procedure */
    AV_REC                   /* a record not built yet: its fields, each known or not */
} AvKind;

typedef struct AVal {
    AvKind kind;
    bool is_int;             /* AV_TEMP: certainly an int (for what may be removed) */
    bool ranged;             /* AV_TEMP: an int certainly in [lo, hi] */
    bool bounded;            /* AV_TEMP: a rational certainly in [lo, hi] (not ranged: maybe not whole) */
    int64_t lo, hi;
    bool pooled;             /* AV_TEMP: a pool of at most pn dice of ps sides */
    int64_t pn, ps;
    bool maybe_unknown;      /* AV_TEMP: may be a value the rules text does not give (a table's '?') */
    bool is_bool;            /* AV_TEMP: certainly a bool (a comparison, a test of a pool) */
    const struct AVal *qx;   /* AV_TEMP: the quotient of int *qx by qk (a known int, not 0), so that
                              * floor(x / k) and x / k >= c need no rational (see quotient_test); */
    int64_t qk;
    bool qwhole;             /* or, with qk > 0, that quotient made whole, rounded as qmode says */
    DivMode qmode;
    const struct AVal *px;   /* AV_TEMP: the int *px plus pk (known), within bounds: a table looked up
                              * on it is looked up on *px in a table moved by pk (see shifted) */
    int64_t pk;
    int temp;
    Value v;
    int32_t type, n;
    const struct AVal *fields;
} AVal;

/* A procedure being followed: the top one, or one inlined into it. */
typedef struct SFrame {
    const Proto *p;
    int index;
    int pc;
    AVal *locals;
    AVal *stack;
    int sp;
} SFrame;

typedef struct SState {
    SFrame f[SPEC_MAX_INLINE];
    int depth;               /* f[0..depth] */
} SState;

/* One column of a two-key table, made into a table of its own. */
typedef struct Slice {
    int table, col, index;
    int64_t shift;           /* or the table with its keys moved down by shift (col -1) */
} Slice;

/* The instructions that compute one value into one temp. */
typedef struct Group {
    int start, end, temp;
    bool removable;          /* cannot fail and rolls nothing */
} Group;

typedef struct Spec {
    Program *prog;
    Vm ev;                   /* works out known instructions */
    int scratch;             /* a proto to hold one instruction to work out */
    Proto *out;
    int ntemps;
    int depth_now, peak;     /* operand stack depth while emitting (max_stack_of has the last word) */
    Group *groups;
    int ngroups, gcap;
    int field;
    bool failed;
    Slice *slices;           /* columns of two-key tables made so far */
    int nslices, slices_cap;
    bool *temp_unknown;      /* per temp: its AVal's maybe_unknown (for tidy) */
    SpecCodes *codes;        /* the record result returned as a code (see specialize.h), or NULL */
    bool uncodable;          /* a path's result cannot be coded: start again without codes */
} Spec;

static AVal known(Value v)
{
    AVal a = { .kind = AV_KNOWN, .v = v };
    return a;
}

/* Is a certainly a value the rules text gives?  An unknown (value.h) stops
 * the run where its value is needed, so what takes one must stay, in its
 * place, even when nobody reads its result. */
static bool surely_known(const AVal *a)
{
    switch (a->kind) {
    case AV_KNOWN: return val_find_unknown(&a->v) == NULL;
    case AV_TEMP: return !a->maybe_unknown;
    case AV_REC:
        for (int i = 0; i < a->n; i++)
            if (!surely_known(&a->fields[i]))
                return false;
        return true;
    }
    return false;
}

/* A known value that is a known answer, not an unknown. */
static bool known_value(const AVal *a)
{
    return a->kind == AV_KNOWN && a->v.tag != VAL_UNKNOWN;
}

/* ---- working out what is known ---- */

/* Run one instruction on known inputs with the VM; false if it fails (it
 * is then left for run time, where it fails in its place). */
static bool eval_insn(Spec *S, const uint8_t *insn, int len, const Value *in, int n, Value *out)
{
    /* (once the specialization has failed, what stands for a value may not
     * be of its type: the machine, which trusts types, is not run on it) */
    if (S->failed)
        return false;
    Proto *q = S->prog->protos[S->scratch];
    q->len = 0;
    q->nconsts = 0;
    for (int i = 0; i < n; i++) {
        int k = chunk_const(q, in[i]);
        chunk_emit(q, OP_CONST, 0);
        chunk_emit(q, (uint8_t)(k & 0xff), 0);
        chunk_emit(q, (uint8_t)(k >> 8), 0);
    }
    for (int i = 0; i < len; i++)
        chunk_emit(q, insn[i], 0);
    chunk_emit(q, OP_RETURN, 0);
    q->nparams = q->nlocals = 0;
    q->max_stack = n + 2;
    return vm_call(&S->ev, S->scratch, NULL, 0, out) == 0;
}

/* ---- emitting the residual procedure ---- */

static void emit(Spec *S, uint8_t b, uint32_t off)
{
    chunk_emit(S->out, b, off);
}

static void depth(Spec *S, int k)
{
    S->depth_now += k;
    if (S->depth_now > S->peak)
        S->peak = S->depth_now;
}

static void emit_value(Spec *S, const AVal *a, uint32_t off)
{
    switch (a->kind) {
    case AV_KNOWN: {
        int k = chunk_const(S->out, a->v);
        if (k > 0xffff)
            S->failed = true;
        emit(S, OP_CONST, off);
        emit(S, (uint8_t)(k & 0xff), off);
        emit(S, (uint8_t)(k >> 8), off);
        depth(S, 1);
        break;
    }
    case AV_TEMP:
        emit(S, OP_LOAD, off);
        emit(S, (uint8_t)a->temp, off);
        depth(S, 1);
        break;
    case AV_REC: {
        /* the fields known now in a record made once, a constant copied at
         * run time with the others set (RECORDK), when that saves work */
        int unknown = 0;
        for (int i = 0; i < a->n; i++)
            unknown += a->fields[i].kind != AV_KNOWN;
        if (a->n <= 16 && a->n - unknown >= 2) {
            Record *t = mem_alloc(sizeof(Record) + sizeof(Value) * (size_t)a->n);
            t->type = a->type;
            t->n = a->n;
            unsigned mask = 0;
            for (int i = 0; i < a->n; i++) {
                if (a->fields[i].kind == AV_KNOWN) {
                    t->field[i] = a->fields[i].v;
                } else {
                    t->field[i] = val_int(0);   /* (set at run time) */
                    mask |= 1u << i;
                    emit_value(S, &a->fields[i], off);
                }
            }
            int k = chunk_const(S->out, val_record(t));
            if (k > 0xffff)
                S->failed = true;
            emit(S, OP_RECORDK, off);
            emit(S, (uint8_t)(k & 0xff), off);
            emit(S, (uint8_t)(k >> 8), off);
            emit(S, (uint8_t)(mask & 0xff), off);
            emit(S, (uint8_t)(mask >> 8), off);
            depth(S, 1 - unknown);
            break;
        }
        for (int i = 0; i < a->n; i++)
            emit_value(S, &a->fields[i], off);
        emit(S, OP_RECORD, off);
        emit(S, (uint8_t)(a->type & 0xff), off);
        emit(S, (uint8_t)(a->type >> 8), off);
        emit(S, (uint8_t)a->n, off);
        depth(S, 1 - a->n);
        break;
    }
    }
}

/* The instruction insn on inputs in[0..n), its result kept in a new temp. */
static AVal emit_op(Spec *S, const uint8_t *insn, int len, const AVal *in, int n, uint32_t off, bool removable)
{
    Group g = { .start = S->out->len, .removable = removable };
    S->depth_now = 0;
    for (int i = 0; i < n; i++)
        emit_value(S, &in[i], off);
    for (int i = 0; i < len; i++)
        emit(S, insn[i], off);
    if (S->ntemps >= SPEC_MAX_TEMPS) {
        S->failed = true;
        return known(val_int(0));
    }
    g.temp = S->ntemps++;
    emit(S, OP_STORE, off);
    emit(S, (uint8_t)g.temp, off);
    g.end = S->out->len;
    if (S->ngroups == S->gcap) {
        int cap = S->gcap ? S->gcap * 2 : 64;
        S->groups = mem_realloc(S->groups, sizeof(Group) * (size_t)S->gcap, sizeof(Group) * (size_t)cap, 1);
        S->gcap = cap;
    }
    S->groups[S->ngroups++] = g;
    AVal a = { .kind = AV_TEMP, .temp = g.temp };
    return a;
}

/* r, a temp just made, may be an unknown. */
static AVal maybe_unknown(Spec *S, AVal r)
{
    if (r.kind == AV_TEMP) {
        r.maybe_unknown = true;
        S->temp_unknown[r.temp] = true;
        /* not certainly an int or a bool, nor within bounds: nothing that
         * takes it in place of its value (a quotient's dividend, a key's
         * shift, a record's code) may skip the instruction that needs it */
        r.is_int = r.is_bool = r.ranged = r.bounded = false;
        r.qx = r.px = NULL;
    }
    return r;
}

/* A JUMP_FALSE on cond, to be patched; returns where it is. */
static int emit_jump_false(Spec *S, const AVal *cond, uint32_t off)
{
    S->depth_now = 0;
    emit_value(S, cond, off);
    int at = S->out->len;
    emit(S, OP_JUMP_FALSE, off);
    emit(S, 0xff, off);
    emit(S, 0xff, off);
    return at;
}

/* Make the jump at `at` land here. */
static void patch(Spec *S, int at)
{
    if (S->out->len - (at + chunk_insn_len(S->out->code, at)) > 0xffff) {
        S->failed = true;
        return;
    }
    chunk_set_jump(S->out->code, at, S->out->len);
}

/* ---- following the code ---- */

static AVal *copy_avals(const AVal *a, int n)
{
    AVal *c = mem_alloc(sizeof(AVal) * (size_t)(n + 1));
    if (n)
        memcpy(c, a, sizeof(AVal) * (size_t)n);
    return c;
}

static int stack_room(const Proto *p) { return p->max_stack + 4; }

static SState *clone_state(const SState *st)
{
    SState *c = mem_alloc(sizeof *c);
    c->depth = st->depth;
    for (int d = 0; d <= st->depth; d++) {
        c->f[d] = st->f[d];
        c->f[d].locals = copy_avals(st->f[d].locals, st->f[d].p->nlocals);
        c->f[d].stack = copy_avals(st->f[d].stack, stack_room(st->f[d].p));
    }
    return c;
}

static void enter(SState *st, const Proto *p, int index, const AVal *args, int nargs)
{
    SFrame *f = &st->f[st->depth];
    f->p = p;
    f->index = index;
    f->pc = 0;
    f->locals = mem_alloc(sizeof(AVal) * (size_t)(p->nlocals + 1));
    for (int i = 0; i < nargs; i++)
        f->locals[i] = args[i];
    for (int i = nargs; i < p->nlocals; i++)
        f->locals[i] = known(val_int(0));   /* written before it is read */
    f->stack = mem_alloc(sizeof(AVal) * (size_t)stack_room(p));
    f->sp = 0;
}

/* How many values an instruction takes, if it computes one value from
 * them (VALUE in opcodes.def); -1 for any other. */
static int inputs_of(const Program *prog, const uint8_t *ip)
{
    return op_is(ip[0], OPF_VALUE) ? chunk_insn_pops(prog, ip) : -1;
}

static bool is_int(const AVal *a)
{
    return a->kind == AV_KNOWN ? a->v.tag == VAL_INT : a->kind == AV_TEMP && (a->is_int || a->ranged);
}

/* The bounds of an int, when they are known. */
static bool bounds(const AVal *a, int64_t *lo, int64_t *hi)
{
    if (a->kind == AV_KNOWN && a->v.tag == VAL_INT) {
        *lo = *hi = a->v.as.i;
        return true;
    }
    if (a->kind == AV_TEMP && a->ranged) {
        *lo = a->lo;
        *hi = a->hi;
        return true;
    }
    return false;
}

#define RANGE_LIMIT ((__int128)1 << 62)

static void set_bounds(AVal *r, __int128 lo, __int128 hi)
{
    if (lo >= -RANGE_LIMIT && hi <= RANGE_LIMIT) {
        r->ranged = true;
        r->lo = (int64_t)lo;
        r->hi = (int64_t)hi;
    }
}

static __int128 min128(__int128 a, __int128 b) { return a < b ? a : b; }
static __int128 max128(__int128 a, __int128 b) { return a > b ? a : b; }

/* What is certain of an instruction's result from what is certain of its
 * inputs: the bounds of an int (dice are 1 to sides, counts 0 to the
 * dice), the size of a pool.  Arithmetic within bounds cannot overflow,
 * so a result nobody reads may then be dropped. */
static void result_bounds(const uint8_t *ip, const AVal *in, int n, AVal *r)
{
    uint8_t op = ip[0];
    int64_t a0 = 0, a1 = 0, b0 = 0, b1 = 0;
    bool ra = n >= 1 && bounds(&in[0], &a0, &a1);
    bool rb = n >= 2 && bounds(&in[1], &b0, &b1);
    switch ((OpCode)op) {
    case OP_ROLL:
        if (ra && a0 >= 1)
            set_bounds(r, 1, a1);
        break;
    case OP_ROLL_POOL:
        if (ra && rb && a0 >= 0 && b0 >= 1) {
            r->pooled = true;
            r->pn = a1;
            r->ps = b1;
        }
        break;
    case OP_FILTER:
        if (in[0].kind == AV_TEMP && in[0].pooled) {
            r->pooled = true;
            r->pn = in[0].pn;
            r->ps = in[0].ps;
        }
        break;
    case OP_HIGHEST_N: case OP_LOWEST_N:
        if (in[1].kind == AV_TEMP && in[1].pooled) {
            r->pooled = true;
            r->pn = in[1].pn;
            r->ps = in[1].ps;
        }
        break;
    case OP_COUNT: case OP_COUNT_IF:
        if (in[0].kind == AV_TEMP && in[0].pooled)
            set_bounds(r, 0, in[0].pn);
        break;
    case OP_SUM:
        if (in[0].kind == AV_TEMP && in[0].pooled)
            set_bounds(r, 0, (__int128)in[0].pn * in[0].ps);
        break;
    case OP_HIGHEST: case OP_LOWEST:
        if (in[0].kind == AV_TEMP && in[0].pooled)
            set_bounds(r, 1, in[0].ps);
        break;
    case OP_ADD:
        if (ra && rb)
            set_bounds(r, (__int128)a0 + b0, (__int128)a1 + b1);
        break;
    case OP_SUB:
        if (ra && rb)
            set_bounds(r, (__int128)a0 - b1, (__int128)a1 - b0);
        break;
    case OP_MUL:
        if (ra && rb) {
            __int128 c[4] = { (__int128)a0 * b0, (__int128)a0 * b1, (__int128)a1 * b0, (__int128)a1 * b1 };
            set_bounds(r, min128(min128(c[0], c[1]), min128(c[2], c[3])),
                       max128(max128(c[0], c[1]), max128(c[2], c[3])));
        }
        break;
    case OP_NEG:
        if (ra)
            set_bounds(r, -(__int128)a1, -(__int128)a0);
        break;
    case OP_ABS:
        if (ra)
            set_bounds(r, a0 >= 0 ? a0 : a1 <= 0 ? -(__int128)a1 : 0,
                       max128(a0 < 0 ? -(__int128)a0 : a0, a1 < 0 ? -(__int128)a1 : a1));
        break;
    case OP_MIN:
        if (ra && rb)
            set_bounds(r, min128(a0, b0), min128(a1, b1));
        break;
    case OP_MAX:
        if (ra && rb)
            set_bounds(r, max128(a0, b0), max128(a1, b1));
        break;
    case OP_MOD:
        if (rb && b0 == b1 && b0 > 0)
            set_bounds(r, 0, b0 - 1);
        break;
    case OP_DIV:
        /* a bounded int by a known int other than 0: a rational between the
         * quotients of the bounds (rounded outwards) */
        if (ra && rb && b0 == b1 && b0 != 0) {
            __int128 q0 = (__int128)a0 / b0, q1 = (__int128)a1 / b0;
            __int128 lo = min128(q0, q1) - 1, hi = max128(q0, q1) + 1;
            if (lo >= -RANGE_LIMIT && hi <= RANGE_LIMIT) {
                r->bounded = true;
                r->lo = (int64_t)lo;
                r->hi = (int64_t)hi;
            }
        }
        break;
    case OP_FLOOR: case OP_CEIL: case OP_ROUND:
        if (ra)
            set_bounds(r, a0, a1);
        else if (in[0].kind == AV_TEMP && in[0].bounded)
            set_bounds(r, in[0].lo, in[0].hi);
        break;
    case OP_IDIV: {
        /* a bounded int by a known int other than 0: between the quotients
         * of the bounds (made whole, a quotient only grows, or only
         * shrinks, with the dividend) */
        int64_t q0, q1;
        if (ra && rb && b0 == b1 && val_idiv_fast(a0, b0, (DivMode)ip[1], &q0)
            && val_idiv_fast(a1, b0, (DivMode)ip[1], &q1))
            set_bounds(r, min128(q0, q1), max128(q0, q1));
        break;
    }
    default:
        break;
    }
}

/* Can the instruction be dropped when nobody reads its result: it rolls
 * nothing and cannot fail on these n inputs?  Not if one may be an
 * unknown, whose value it needs; else what opcodes.def says of it (a VALUE
 * that neither FAILS nor rolls DICE), or, for a few that fail only on some
 * inputs, what these inputs prove. */
static bool removable(uint8_t op, const AVal *in, int n)
{
    for (int i = 0; i < n; i++)
        if (!surely_known(&in[i]))
            return false;
    if (op_is(op, OPF_VALUE) && !(op_info[op].effects & (OPF_FAILS | OPF_DICE)))
        return true;
    switch ((OpCode)op) {
    case OP_CEIL: case OP_ROUND:
        /* of a whole number or a rational within bounds: no overflow */
        return is_int(&in[0]) || (in[0].kind == AV_TEMP && in[0].bounded);
    case OP_MOD:
        /* an int by a known int other than 0 cannot fail */
        return is_int(&in[0]) && in[1].kind == AV_KNOWN && in[1].v.tag == VAL_INT && in[1].v.as.i != 0;
    case OP_DIV: case OP_IDIV: {
        /* nor by a known int above 0; below 0, only INT64_MIN divided can
         * overflow (INT64_MIN / -3 is 2^63 / 3), and nothing does divided
         * by INT64_MIN but an even int (1 / INT64_MIN has 2^63 below) */
        if (!is_int(&in[0]) || in[1].kind != AV_KNOWN || in[1].v.tag != VAL_INT)
            return false;
        int64_t k = in[1].v.as.i, lo, hi;
        return k > 0 || (k < 0 && k != INT64_MIN && bounds(&in[0], &lo, &hi) && lo > INT64_MIN);
    }
    default:
        return false;
    }
}

/* Is the result certainly a bool? */
static bool gives_bool(uint8_t op)
{
    switch ((OpCode)op) {
    case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
    case OP_NOT: case OP_ANY: case OP_ALL: case OP_DOUBLES:
        return true;
    default:
        return false;
    }
}

/* Is the result certainly an int? */
static bool gives_int(uint8_t op, const AVal *in)
{
    switch ((OpCode)op) {
    case OP_COUNT: case OP_COUNT_IF: case OP_SUM: case OP_ROLL: case OP_HIGHEST: case OP_LOWEST:
    case OP_MOD: case OP_FLOOR: case OP_CEIL: case OP_ROUND: case OP_IDIV:
        return true;
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_MIN: case OP_MAX:
        return is_int(&in[0]) && is_int(&in[1]);
    case OP_NEG: case OP_ABS:
        return is_int(&in[0]);
    default:
        return false;
    }
}

/* ---- quotients of ints by known ints ----
 *
 * x / k, for an int x and a known int k, is a rational, reduced by a gcd
 * at run time.  Made whole or compared with a known number it need not be
 * made at all: floor(x / k) is IDIV of x by k, and x / k >= c is
 * x >= c * k (turned round when k < 0), against the whole number that
 * decides it.  The DIV is then read by nobody, and goes (see tidy).  So
 * with a quotient made whole, floor(x / 3) >= 2 being x >= 6: when it is
 * only compared (a third of the unit lost), the IDIV goes too. */

/* The comparison with its sides swapped (a < b is b > a); also what
 * multiplying both sides by a negative number makes of it. */
static CmpOp cmp_swapped(CmpOp c)
{
    switch (c) {
    case CMP_LT: return CMP_GT;
    case CMP_LE: return CMP_GE;
    case CMP_GT: return CMP_LT;
    case CMP_GE: return CMP_LE;
    default: return c;
    }
}

/* x / k `cmp` c, for any int x, as x `*to` *whole: 0; or 1 when it never
 * holds, 2 when it always does (x == 5/2); -1 when c is no number or the
 * whole number does not fit. */
static int quotient_cmp(CmpOp cmp, int64_t k, Value c, CmpOp *to, int64_t *whole)
{
    __int128 num, den;
    if (c.tag == VAL_INT) {
        num = c.as.i;
        den = 1;
    } else if (c.tag == VAL_RAT) {
        num = c.as.q.num;
        den = c.as.q.den;
    } else {
        return -1;
    }
    num *= k;                        /* (within 127 bits) */
    if (k < 0)
        cmp = cmp_swapped(cmp);
    __int128 fl = num / den;
    bool exact = num % den == 0;
    if (!exact && num < 0)
        fl--;                        /* (rounded down, not towards 0) */
    if (fl < INT64_MIN || fl >= INT64_MAX)
        return -1;
    *whole = (int64_t)fl;
    if (exact) {
        *to = cmp;
        return 0;
    }
    /* x against a number strictly between fl and fl + 1 */
    switch (cmp) {
    case CMP_EQ: return 1;
    case CMP_NE: return 2;
    case CMP_LT: case CMP_LE: *to = CMP_LE; return 0;
    case CMP_GT: case CMP_GE: *to = CMP_GT; return 0;
    }
    return -1;
}

/* floor or ceil of x / k (k > 0) `cmp` the whole number c, for any int x,
 * as x `*to` *t; false if no one comparison of x says it (==, !=) or the
 * number does not fit.  T(c), the least x whose quotient is c or more, is
 * c k made whole (floor), or (c - 1) k + 1 (ceil); the quotient is more
 * than c from T(c + 1) on, and below c up to T(c) - 1. */
static bool whole_quotient_cmp(CmpOp cmp, int64_t k, DivMode mode, int64_t c, CmpOp *to, int64_t *t)
{
    if (cmp == CMP_EQ || cmp == CMP_NE)
        return false;
    __int128 from = cmp == CMP_GT || cmp == CMP_LE ? (__int128)c + 1 : c;
    __int128 least = mode == DIV_FLOOR ? from * k : (from - 1) * k + 1;
    if (cmp == CMP_LT || cmp == CMP_LE)
        least--;                     /* (the last x below it) */
    if (least < INT64_MIN || least > INT64_MAX)
        return false;
    *to = cmp == CMP_GE || cmp == CMP_GT ? CMP_GE : CMP_LE;
    *t = (int64_t)least;
    return true;
}

/* A comparison *op (EQ..GE) of in[0] and in[1], one a quotient x / k (or
 * one made whole) and the other a known number: rewritten in place as a
 * comparison of x with a known int, or decided (*decided, *holds).  False
 * if it is no such test. */
static bool quotient_test_once(uint8_t *op, AVal in[2], bool *decided, bool *holds)
{
    *decided = false;
    int q = in[0].kind == AV_TEMP && in[0].qx && in[1].kind == AV_KNOWN ? 0
          : in[1].kind == AV_TEMP && in[1].qx && in[0].kind == AV_KNOWN ? 1 : -1;
    if (q < 0)
        return false;
    CmpOp cmp = (CmpOp)(*op - OP_EQ), to;
    if (q == 1)
        cmp = cmp_swapped(cmp);      /* c cmp x/k is x/k cmp' c */
    int64_t whole;
    /* (made whole, the quotient is an int compared as it is first) */
    int how = quotient_cmp(cmp, in[q].qwhole ? 1 : in[q].qk, in[1 - q].v, &to, &whole);
    if (how < 0)
        return false;
    if (how > 0) {
        *decided = true;
        *holds = how == 2;
        return true;
    }
    if (in[q].qwhole && !whole_quotient_cmp(to, in[q].qk, in[q].qmode, whole, &to, &whole))
        return false;
    AVal x = *in[q].qx;
    in[0] = x;
    in[1] = known(val_int(whole));
    *op = (uint8_t)(OP_EQ + to);
    return true;
}

/* quotient_test_once for as long as the dividend is a quotient in turn:
 * ceil(hits / 2) / 9 >= 1/3 is ceil(hits / 2) >= 3, is hits >= 5. */
static bool quotient_test(uint8_t *op, AVal in[2], bool *decided, bool *holds)
{
    if (!quotient_test_once(op, in, decided, holds))
        return false;
    for (int depth = 0; depth < 8 && !*decided; depth++) {
        uint8_t again = *op;
        AVal next[2] = { in[0], in[1] };
        if (!quotient_test_once(&again, next, decided, holds))
            break;
        *op = again;
        in[0] = next[0];
        in[1] = next[1];
    }
    return true;
}

static void follow(Spec *S, SState *st);

/* A new entry in the list of tables made (columns, moved tables). */
static Slice *new_slice(Spec *S)
{
    if (S->nslices == S->slices_cap) {
        int cap = S->slices_cap ? S->slices_cap * 2 : 8;
        S->slices = mem_realloc(S->slices, sizeof(Slice) * (size_t)S->slices_cap, sizeof(Slice) * (size_t)cap, 1);
        S->slices_cap = cap;
    }
    return &S->slices[S->nslices++];
}

/* The table of one column of two-key table ti (the column `key` selects),
 * as a table of one key: made once per column and added to the
 * specializer's program (the copy, see program_copy).  -1 if the key
 * selects no column (the lookup then fails at run time, as written). */
static int column_of(Spec *S, int ti, Value key)
{
    const Table *t = S->prog->tables[ti];
    const TableDim *cols = &t->dim[1];
    int col = chunk_key_find(cols, key);
    if (col < 0)
        return -1;
    for (int i = 0; i < S->nslices; i++)
        if (S->slices[i].table == ti && S->slices[i].col == col)
            return S->slices[i].index;
    Table *c = mem_alloc(sizeof *c);
    *c = *t;
    c->ndims = 1;
    c->col_rows = NULL;
    memset(&c->dim[1], 0, sizeof c->dim[1]);
    if (t->col_rows) {
        /* each column has its own rows, into the one list of cells */
        c->dim[0] = t->col_rows[col];
    } else {
        int rows = t->dim[0].n, ncols = t->dim[1].n;
        c->cells = mem_alloc(sizeof(Value) * (size_t)(rows + 1));
        c->kinds = mem_alloc_atomic(sizeof(CellKind) * (size_t)(rows + 1));
        c->cell_offsets = mem_alloc_atomic(sizeof(uint32_t) * (size_t)(rows + 1));
        /* its '?' cells are the table's own (their messages name the column) */
        if (t->unknown_site)
            c->unknown_site = mem_alloc_atomic(sizeof(int32_t) * (size_t)(rows + 1));
        for (int r = 0; r < rows; r++) {
            c->cells[r] = t->cells[r * ncols + col];
            c->kinds[r] = t->kinds[r * ncols + col];
            c->cell_offsets[r] = t->cell_offsets[r * ncols + col];
            if (t->unknown_site)
                c->unknown_site[r] = t->unknown_site[r * ncols + col];
        }
    }
    int index = chunk_add_table(S->prog, c);
    *new_slice(S) = (Slice){ .table = ti, .col = col, .index = index };
    return index;
}

/* One-key table ti with int keys, its keys moved down by k: looked up on
 * x it gives what ti gives on x + k (the d8 + 1 of a roll on a table is
 * the d8 on a table of its own), made once per table and k.  -1 if ti has
 * no such keys, or a bound would overflow. */
static int shifted(Spec *S, int ti, int64_t k)
{
    const Table *t = S->prog->tables[ti];
    const TableDim *d = &t->dim[0];
    if (t->ndims != 1 || t->col_rows || (d->mode != KEYS_INTS && d->mode != KEYS_RANGES))
        return -1;
    for (int i = 0; i < S->nslices; i++)
        if (S->slices[i].table == ti && S->slices[i].col == -1 && S->slices[i].shift == k)
            return S->slices[i].index;
    int64_t *lo = mem_alloc_atomic(sizeof(int64_t) * (size_t)(d->nkeys + 1));
    int64_t *hi = mem_alloc_atomic(sizeof(int64_t) * (size_t)(d->nkeys + 1));
    for (int i = 0; i < d->nkeys; i++) {
        /* (open ends stay open) */
        if ((d->lo[i] != INT64_MIN && __builtin_sub_overflow(d->lo[i], k, &lo[i]))
            || (d->hi[i] != INT64_MAX && __builtin_sub_overflow(d->hi[i], k, &hi[i])))
            return -1;
        if (d->lo[i] == INT64_MIN)
            lo[i] = INT64_MIN;
        if (d->hi[i] == INT64_MAX)
            hi[i] = INT64_MAX;
    }
    Table *c = mem_alloc(sizeof *c);
    *c = *t;
    c->dim[0].lo = lo;
    c->dim[0].hi = hi;
    c->key_shift = t->key_shift + k;   /* (its '?'s name the key of the table it was made from) */
    int index = chunk_add_table(S->prog, c);
    *new_slice(S) = (Slice){ .table = ti, .col = -1, .index = index, .shift = k };
    return index;
}

#define PUSHA(fr, a) ((fr)->stack[(fr)->sp++] = (a))
#define POPA(fr) ((fr)->stack[--(fr)->sp])

/* A branch on a value the dice decide: the fall-through side is followed
 * first (to its end), then the jumped-to side continues in st. */
static void split(Spec *S, const AVal *cond, uint32_t off, SState *through)
{
    int j = emit_jump_false(S, cond, off);
    follow(S, through);
    patch(S, j);
}

/* The peephole pass's fused instructions, taken apart into the plain ones
 * they stand for: their constants are pushed as known values, and *ip,
 * *op and *len are made to describe the plain operation, written into
 * plain_op.  Other instructions are left as they are. */
static void take_apart(SFrame *fr, const Proto *p, const uint8_t **ip, uint8_t *op, int *len, uint8_t *plain_op)
{
    const uint8_t *at = *ip;
    if (*op == OP_COUNT_IFK || *op == OP_ANYK || *op == OP_ALLK) {
        PUSHA(fr, known(p->consts[chunk_u16(at + 1)]));
        plain_op[0] = *op == OP_COUNT_IFK ? OP_COUNT_IF : *op == OP_ANYK ? OP_ANY : OP_ALL;
        plain_op[1] = at[3];
        *len = 2;
    } else if (*op == OP_ROLL_POOLK) {
        PUSHA(fr, known(p->consts[chunk_u16(at + 1)]));
        PUSHA(fr, known(p->consts[chunk_u16(at + 3)]));
        plain_op[0] = OP_ROLL_POOL;
        *len = 1;
    } else if (*op == OP_IDIVK) {
        PUSHA(fr, known(p->consts[chunk_u16(at + 1)]));
        plain_op[0] = OP_IDIV;
        plain_op[1] = (uint8_t)(chunk_u16(at + 3) >> 14);
        *len = 2;
    } else if (*op == OP_ROLLK || *op == OP_ADDK || *op == OP_SUBK || *op == OP_MULK || *op == OP_CMPK) {
        /* the peephole pass's pairs, taken apart: the constant, then the operation */
        PUSHA(fr, known(p->consts[chunk_u16(at + 1)]));
        plain_op[0] = *op == OP_ROLLK ? OP_ROLL : *op == OP_ADDK ? OP_ADD : *op == OP_SUBK ? OP_SUB
                    : *op == OP_MULK ? OP_MUL : (uint8_t)(OP_EQ + at[3]);
        *len = 1;
    } else {
        return;
    }
    *op = plain_op[0];
    *ip = plain_op;
}

/* JUMP_FALSE, or JUMP_UNLESS (its test first), at `at`: a known test picks
 * its side; one the dice decide splits the path. */
static void follow_jump(Spec *S, SState *st, const uint8_t *ip, uint8_t op, int at, uint32_t off)
{
    SFrame *fr = &st->f[st->depth];
    AVal c = POPA(fr);
    int target = chunk_jump_target(fr->p->code, at);
    if (op == OP_JUMP_UNLESS || op == OP_JUMP_CMP) {
        /* the peephole pass's test and branch, taken apart: the test first
         * (of the top and a constant, or of the two values on top) */
        uint8_t test[1] = { (uint8_t)(OP_EQ + (op == OP_JUMP_CMP ? ip[1] : ip[3])) };
        AVal in[2] = { c, c };
        if (op == OP_JUMP_CMP)
            in[0] = POPA(fr);
        else
            in[1] = known(fr->p->consts[chunk_u16(ip + 1)]);
        Value vals[2] = { in[0].v, in[1].v }, r;
        bool decided = false, holds = false;
        if (in[0].kind == AV_KNOWN && in[1].kind == AV_KNOWN && eval_insn(S, test, 1, vals, 2, &r))
            c = known(r);
        else if (quotient_test(test, in, &decided, &holds) && decided)
            c = known(val_bool(holds));
        else
            c = emit_op(S, test, 1, in, 2, off, removable(test[0], in, 2));
    }
    if (known_value(&c)) {
        if (!c.v.as.b)
            fr->pc = target;
        return;
    }
    split(S, &c, off, clone_state(st));
    st->f[st->depth].pc = target;
}

/* AND_JUMP or OR_JUMP at `at`.  AND: false jumps keeping it, true is
 * dropped; OR the other way. */
static void follow_and_or(Spec *S, SState *st, uint8_t op, int at, uint32_t off)
{
    SFrame *fr = &st->f[st->depth];
    AVal c = fr->stack[fr->sp - 1];
    int target = chunk_jump_target(fr->p->code, at);
    bool jump_on = op == OP_OR_JUMP;
    if (known_value(&c)) {
        if (c.v.as.b == jump_on)
            fr->pc = target;
        else
            fr->sp--;
        return;
    }
    SState *t = clone_state(st);          /* the side where c is true */
    SFrame *tf = &t->f[t->depth];
    if (jump_on) {
        tf->stack[tf->sp - 1] = known(val_bool(true));
        tf->pc = target;
    } else {
        tf->sp--;
    }
    split(S, &c, off, t);
    fr = &st->f[st->depth];                /* the side where c is false */
    if (jump_on) {
        fr->sp--;
    } else {
        fr->stack[fr->sp - 1] = known(val_bool(false));
        fr->pc = target;
    }
}

/* CALL: a pure procedure on known arguments is worked out now; otherwise
 * the callee is inlined (a frame of its own in st), or, if it rerolls or
 * the inlining runs too deep, the call is kept. */
static void follow_call(Spec *S, SState *st, const uint8_t *ip, int len, uint32_t off)
{
    SFrame *fr = &st->f[st->depth];
    int ci = (int)chunk_u16(ip + 1), argc = ip[3];
    const Proto *callee = S->prog->protos[ci];
    fr->sp -= argc;
    AVal *args = copy_avals(fr->stack + fr->sp, argc);
    bool all_known = true;
    for (int i = 0; i < argc; i++)
        all_known &= args[i].kind == AV_KNOWN;
    if (all_known && callee->pure) {
        Value vals[256], r;
        for (int i = 0; i < argc; i++)
            vals[i] = args[i].v;
        if (vm_call(&S->ev, ci, vals, argc, &r) == 0) {
            PUSHA(fr, known(r));
            return;
        }
    }
    int active = 0;
    for (int d = 0; d <= st->depth; d++)
        active += st->f[d].index == ci;
    if (!callee->rerolls && st->depth + 1 < SPEC_MAX_INLINE && active < 2) {
        st->depth++;
        enter(st, callee, ci, args, argc);
        return;
    }
    PUSHA(fr, maybe_unknown(S, emit_op(S, ip, len, args, argc, off, false)));
}

/* RETURN (or RETURNL, whose local is already pushed): an inlined callee
 * hands its result to its caller, and true is returned; the top procedure
 * returns it (the field asked for, if any) from the residual code, and
 * false is returned: this path is done. */
/* A record result returned as its code (see SpecCodes): the varying
 * fields' offsets from their lowest values, each times the number of
 * values before it, and the path's first code.  False, with nothing
 * emitted, if this record cannot be coded. */
static bool emit_code(Spec *S, const AVal *r, uint32_t off)
{
    SpecShape sh = { .base = S->codes->ncodes, .size = 1 };
    int n;
    Record *t = NULL;
    if (r->kind == AV_KNOWN && r->v.tag == VAL_RECORD) {
        n = 0;
        sh.record = r->v;
    } else if (r->kind == AV_REC && r->n <= 16) {
        n = r->n;
        t = mem_alloc(sizeof(Record) + sizeof(Value) * (size_t)(n + 1));
        t->type = r->type;
        t->n = n;
        sh.record = val_record(t);
    } else {
        return false;
    }
    /* a record that holds a '?' is counted apart from the values, which
     * its code would hide */
    if (!surely_known(r))
        return false;
    for (int i = 0; i < n; i++) {
        const AVal *f = &r->fields[i];
        if (f->kind == AV_KNOWN) {
            t->field[i] = f->v;
            continue;
        }
        int64_t lo = 0, hi = 0;
        if (f->kind != AV_TEMP || !(f->is_bool || bounds(f, &lo, &hi)))
            return false;
        t->field[i] = val_int(0);
        int k = sh.nvar++;
        sh.field[k] = i;
        sh.is_bool[k] = f->is_bool;
        sh.lo[k] = f->is_bool ? 0 : lo;
        sh.count[k] = f->is_bool ? 2 : hi - lo + 1;
        if (sh.count[k] < 1 || sh.count[k] > SPEC_MAX_CODES || sh.size * sh.count[k] > SPEC_MAX_CODES)
            return false;
        sh.size *= sh.count[k];
    }
    if (sh.base + sh.size > SPEC_MAX_CODES)
        return false;
    /* base + sum of (f - lo) * stride, the constant parts added once at the
     * end, and a field x + pk (px) taken as x, its pk among them: when the
     * numbers are small, so that no product can overflow at run time; else
     * each field less its lowest value first, which is less than its count */
    S->depth_now = 0;
    int64_t stride = 1, add = sh.base;
    const int64_t small = (int64_t)1 << 31;
    for (int k = 0; k < sh.nvar; k++) {
        const AVal *f = &r->fields[sh.field[k]];
        int64_t lo = sh.lo[k], hi = lo + sh.count[k] - 1, xlo, xhi;
        bool in_range = lo >= -small && hi <= small;
        if (!sh.is_bool[k] && in_range && f->px && f->px->kind == AV_TEMP && bounds(f->px, &xlo, &xhi)
            && xlo >= -small && xhi <= small && f->pk >= -2 * small && f->pk <= 2 * small) {
            lo -= f->pk;                     /* (x + pk) - lo is x - (lo - pk) */
            f = f->px;
        }
        emit_value(S, f, off);
        if (sh.is_bool[k])
            emit(S, OP_BOOL_INT, off);
        if (!in_range) {
            emit_value(S, &(AVal){ .kind = AV_KNOWN, .v = val_int(lo) }, off);
            emit(S, OP_SUB, off);
            depth(S, -1);
            lo = 0;
        }
        if (stride != 1) {
            emit_value(S, &(AVal){ .kind = AV_KNOWN, .v = val_int(stride) }, off);
            emit(S, OP_MUL, off);
            depth(S, -1);
        }
        if (k > 0) {
            emit(S, OP_ADD, off);
            depth(S, -1);
        }
        add -= lo * stride;                  /* (|lo| < 2^33, stride <= SPEC_MAX_CODES) */
        stride *= sh.count[k];
    }
    if (sh.nvar == 0 || add != 0) {
        emit_value(S, &(AVal){ .kind = AV_KNOWN, .v = val_int(add) }, off);
        if (sh.nvar > 0) {
            emit(S, OP_ADD, off);
            depth(S, -1);
        }
    }
    emit(S, OP_RETURN, off);
    SpecCodes *c = S->codes;
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 8;
        c->shapes = mem_realloc(c->shapes, sizeof(SpecShape) * (size_t)c->cap, sizeof(SpecShape) * (size_t)cap, 0);
        c->cap = cap;
    }
    c->shapes[c->n++] = sh;
    c->ncodes += sh.size;
    return true;
}

static bool follow_return(Spec *S, SState *st, uint32_t off)
{
    AVal r = POPA(&st->f[st->depth]);
    if (st->depth > 0) {
        st->depth--;
        PUSHA(&st->f[st->depth], r);
        return true;
    }
    if (S->field >= 0) {
        if (r.kind == AV_REC) {
            r = r.fields[S->field];
        } else if (r.kind == AV_KNOWN) {
            /* (a record the rules text does not give: its field is not given either) */
            if (r.v.tag == VAL_RECORD)
                r = known(r.v.as.r->field[S->field]);
        } else {
            uint8_t insn[2] = { OP_FIELD, (uint8_t)S->field };
            r = maybe_unknown(S, emit_op(S, insn, 2, &r, 1, off, true));
        }
    } else if (S->codes && !S->uncodable) {
        if (emit_code(S, &r, off))
            return false;
        S->uncodable = true;   /* (and the whole call is specialized again, without codes) */
    }
    S->depth_now = 0;
    emit_value(S, &r, off);
    emit(S, OP_RETURN, off);
    return false;
}

/* RECORD: built now if every field is known, else kept virtual. */
static void follow_record(SFrame *fr, const uint8_t *ip)
{
    int type = (int)chunk_u16(ip + 1), n = ip[3];
    fr->sp -= n;
    AVal *fields = copy_avals(fr->stack + fr->sp, n);
    bool all_known = true;
    for (int i = 0; i < n; i++)
        all_known &= fields[i].kind == AV_KNOWN;
    if (all_known) {
        Record *r = mem_alloc(sizeof(Record) + sizeof(Value) * (size_t)n);
        r->type = type;
        r->n = n;
        for (int i = 0; i < n; i++)
            r->field[i] = fields[i].v;
        PUSHA(fr, known(val_record(r)));
    } else {
        AVal a = { .kind = AV_REC, .type = type, .n = n, .fields = fields };
        PUSHA(fr, a);
    }
}

/* FIELD: of a virtual or known record, taken now; else at run time. */
static void follow_field(Spec *S, SFrame *fr, const uint8_t *ip, int len, uint32_t off)
{
    AVal r = fr->stack[fr->sp - 1];
    if (r.kind == AV_REC) {
        fr->stack[fr->sp - 1] = r.fields[ip[1]];
        return;
    }
    if (r.kind == AV_KNOWN) {
        /* (a record the rules text does not give: its field is not given either) */
        if (r.v.tag == VAL_RECORD)
            fr->stack[fr->sp - 1] = known(r.v.as.r->field[ip[1]]);
        return;
    }
    fr->sp--;
    PUSHA(fr, maybe_unknown(S, emit_op(S, ip, len, &r, 1, off, true)));
}

/* An instruction that computes one value from one or two others: worked
 * out now if its inputs are known (and it rolls nothing), else written
 * into the residual code with what is certain of its result.  False if
 * the instruction is not one the specializer can follow. */
static bool follow_value(Spec *S, SFrame *fr, const uint8_t *ip, uint8_t op, int len, uint32_t off)
{
    int n = inputs_of(S->prog, ip);
    if (n < 0 || n > 2)
        return false;
    AVal in[2];
    fr->sp -= n;
    memcpy(in, fr->stack + fr->sp, sizeof(AVal) * (size_t)n);
    bool dice = op_is(op, OPF_DICE);
    bool all_known = !dice;
    for (int i = 0; i < n; i++)
        all_known &= in[i].kind == AV_KNOWN;
    if (all_known) {
        Value vals[2], r;
        for (int i = 0; i < n; i++)
            vals[i] = in[i].v;
        if (eval_insn(S, ip, len, vals, n, &r)) {
            PUSHA(fr, known(r));
            return true;
        }
    }
    /* a quotient of ints compared or made whole: no rational (quotient_test) */
    uint8_t rewritten[2];
    if (op >= OP_EQ && op <= OP_GE && n == 2) {
        bool decided, holds;
        rewritten[0] = op;
        if (quotient_test(rewritten, in, &decided, &holds)) {
            if (decided) {
                PUSHA(fr, known(val_bool(holds)));
                return true;
            }
            op = rewritten[0];
            ip = rewritten;
            len = 1;
        }
    }
    if ((op == OP_FLOOR || op == OP_CEIL || op == OP_ROUND) && in[0].kind == AV_TEMP && in[0].qx && !in[0].qwhole) {
        rewritten[0] = OP_IDIV;
        rewritten[1] = op == OP_FLOOR ? DIV_FLOOR : op == OP_CEIL ? DIV_CEIL : DIV_ROUND;
        in[1] = known(val_int(in[0].qk));
        in[0] = *in[0].qx;
        op = OP_IDIV;
        ip = rewritten;
        len = 2;
        n = 2;
    }
    /* a two-key table looked up with its column known: one column of it */
    uint8_t sliced[3];
    if (op == OP_TABLE && n == 2 && known_value(&in[1])) {
        int col_table = column_of(S, (int)chunk_u16(ip + 1), in[1].v);
        if (col_table >= 0) {
            sliced[0] = OP_TABLE;
            sliced[1] = (uint8_t)(col_table & 0xff);
            sliced[2] = (uint8_t)(col_table >> 8);
            ip = sliced;
            n = 1;
        }
    }
    /* a table looked up on x + k: a table moved by k, looked up on x */
    if (op == OP_TABLE && n == 1 && in[0].kind == AV_TEMP && in[0].px) {
        int moved = shifted(S, (int)chunk_u16(ip + 1), in[0].pk);
        if (moved >= 0) {
            sliced[0] = OP_TABLE;
            sliced[1] = (uint8_t)(moved & 0xff);
            sliced[2] = (uint8_t)(moved >> 8);
            ip = sliced;
            in[0] = *in[0].px;
        }
    }
    /* (a + ka) - (b + kb) is (a - b) + (ka - kb), and likewise a sum: the
     * constants gathered last, where a table looked up on the result can
     * take them (shifted); the sums they were in are then read by nobody */
    if (n == 2 && (op == OP_ADD || op == OP_SUB) && in[0].kind == AV_TEMP && in[1].kind == AV_TEMP
        && (in[0].px || in[1].px) && is_int(&in[0]) && is_int(&in[1])) {
        AVal a = in[0].px ? *in[0].px : in[0], b = in[1].px ? *in[1].px : in[1];
        int64_t ka = in[0].px ? in[0].pk : 0, kb = in[1].px ? in[1].pk : 0, k;
        AVal whole = { .kind = AV_TEMP };
        result_bounds(ip, in, 2, &whole);
        if (whole.ranged && !(op == OP_ADD ? __builtin_add_overflow(ka, kb, &k) : __builtin_sub_overflow(ka, kb, &k))) {
            const uint8_t inner[1] = { op }, plus[1] = { OP_ADD };
            PUSHA(fr, a);
            PUSHA(fr, b);
            if (!follow_value(S, fr, inner, op, 1, off))
                return false;
            if (k == 0)
                return true;
            PUSHA(fr, known(val_int(k)));
            return follow_value(S, fr, plus, OP_ADD, 1, off);
        }
    }
    /* x + 0, x - 0, x * 1 on a whole number are x (the same value and type) */
    if (n == 2 && (op == OP_ADD || op == OP_SUB || op == OP_MUL)) {
        int64_t unit = op == OP_MUL ? 1 : 0;
        if (is_int(&in[0]) && in[1].kind == AV_KNOWN && in[1].v.tag == VAL_INT && in[1].v.as.i == unit) {
            PUSHA(fr, in[0]);
            return true;
        }
        if (op != OP_SUB && is_int(&in[1]) && in[0].kind == AV_KNOWN && in[0].v.tag == VAL_INT
            && in[0].v.as.i == unit) {
            PUSHA(fr, in[1]);
            return true;
        }
    }
    AVal b = { .kind = AV_TEMP };
    result_bounds(ip, in, n, &b);
    /* arithmetic within bounds cannot overflow */
    bool arith = op == OP_ADD || op == OP_SUB || op == OP_MUL || op == OP_NEG || op == OP_ABS;
    AVal r = emit_op(S, ip, len, in, n, off, removable(op, in, n) || (arith && b.ranged && surely_known(&in[0])
                                                                        && (n < 2 || surely_known(&in[1]))));
    r.is_int = gives_int(op, in) || b.ranged;
    r.is_bool = gives_bool(op);
    r.ranged = b.ranged;
    r.bounded = b.bounded;
    r.lo = b.lo;
    r.hi = b.hi;
    r.pooled = b.pooled;
    r.pn = b.pn;
    r.ps = b.ps;
    if (op == OP_TABLE) {
        /* a '?' cell, or (an outcome's field) a member that is not given */
        const Table *t = S->prog->tables[chunk_u16(ip + 1)];
        if (t->unknown_site || (t->fields && !surely_known(&in[0])))
            r = maybe_unknown(S, r);
    }
    /* (an int that may be a '?' is not certainly an int: see maybe_unknown) */
    if (op == OP_DIV && in[0].kind == AV_TEMP && is_int(&in[0]) && in[1].kind == AV_KNOWN
        && in[1].v.tag == VAL_INT && in[1].v.as.i != 0) {
        AVal *x = mem_alloc(sizeof *x);
        *x = in[0];
        r.qx = x;
        r.qk = in[1].v.as.i;
    }
    if (op == OP_IDIV && (ip[1] == DIV_FLOOR || ip[1] == DIV_CEIL) && in[0].kind == AV_TEMP && is_int(&in[0])
        && in[1].kind == AV_KNOWN && in[1].v.tag == VAL_INT && in[1].v.as.i > 0) {
        AVal *x = mem_alloc(sizeof *x);
        *x = in[0];
        r.qx = x;
        r.qk = in[1].v.as.i;
        r.qwhole = true;
        r.qmode = (DivMode)ip[1];
    }
    /* x + k and k + x, x - k, within bounds (so the sum cannot fail) */
    int xi = -1;
    if (b.ranged && (op == OP_ADD || op == OP_SUB) && in[1].kind == AV_KNOWN && in[1].v.tag == VAL_INT
        && in[0].kind == AV_TEMP && is_int(&in[0]))
        xi = 0;
    else if (b.ranged && op == OP_ADD && in[0].kind == AV_KNOWN && in[0].v.tag == VAL_INT && in[1].kind == AV_TEMP
             && is_int(&in[1]))
        xi = 1;
    if (xi >= 0 && in[1 - xi].v.as.i != INT64_MIN) {
        /* (x + j) + k is x + (j + k) */
        int64_t k = op == OP_SUB ? -in[1].v.as.i : in[1 - xi].v.as.i;
        const AVal *x = &in[xi];
        if (x->px && !__builtin_add_overflow(x->pk, k, &k))
            x = x->px;
        else if (x->px)
            x = NULL;
        if (x) {
            AVal *keep = mem_alloc(sizeof *keep);
            *keep = *x;
            r.px = keep;
            r.pk = k;
        }
    }
    PUSHA(fr, r);
    return true;
}

/* Follow the code from st to the end of every path, writing the residual
 * code of what is not known. */
static void follow(Spec *S, SState *st)
{
    for (;;) {
        if (S->failed || S->out->len > SPEC_MAX_CODE) {
            S->failed = true;
            return;
        }
        SFrame *fr = &st->f[st->depth];
        const Proto *p = fr->p;
        const uint8_t *ip = p->code + fr->pc;
        uint8_t op = ip[0];
        int at = fr->pc;
        int len = chunk_insn_len(p->code, at);
        uint32_t off = p->offsets[at];
        fr->pc += len;
        uint8_t plain_op[2];
        take_apart(fr, p, &ip, &op, &len, plain_op);
        switch ((OpCode)op) {
        case OP_CONST: PUSHA(fr, known(p->consts[chunk_u16(ip + 1)])); break;
        case OP_TRUE: PUSHA(fr, known(val_bool(true))); break;
        case OP_FALSE: PUSHA(fr, known(val_bool(false))); break;
        case OP_LOAD: PUSHA(fr, fr->locals[ip[1]]); break;
        case OP_LOADN:
            for (int k = 0; k < ip[2]; k++)
                PUSHA(fr, fr->locals[ip[1] + k]);
            break;
        case OP_STORE: fr->locals[ip[1]] = POPA(fr); break;
        case OP_TEE: fr->locals[ip[1]] = fr->stack[fr->sp - 1]; break;
        case OP_POP: fr->sp--; break;
        case OP_NOTE: break;   /* for explanations only */
        case OP_MERGE: case OP_DEFER: case OP_SETTLE:
            break;             /* for the exact engine only: a simulation merges and defers nothing */
        case OP_CHOOSE: {
            int id = (int)chunk_u16(ip + 1);
            int pick = S->ev.choices ? S->ev.choices[id] : -1;
            PUSHA(fr, known(val_enum(id, pick >= 0 ? pick : S->prog->enums[id].deflt)));
            break;
        }
        case OP_JUMP: fr->pc = chunk_jump_target(p->code, at); break;
        case OP_JUMP_FALSE: case OP_JUMP_UNLESS: case OP_JUMP_CMP: follow_jump(S, st, ip, op, at, off); break;
        case OP_JUMP_UNLESS_L: {
            /* the peephole pass's load and test, taken apart */
            const uint8_t test[6] = { OP_JUMP_UNLESS, ip[2], ip[3], ip[4], ip[5], ip[6] };
            PUSHA(fr, fr->locals[ip[1]]);
            follow_jump(S, st, test, OP_JUMP_UNLESS, at, off);
            break;
        }
        case OP_RETURNK:
            PUSHA(fr, known(p->consts[chunk_u16(ip + 1)]));
            if (!follow_return(S, st, off))
                return;
            break;
        case OP_AND_JUMP: case OP_OR_JUMP: follow_and_or(S, st, op, at, off); break;
        case OP_CALL: follow_call(S, st, ip, len, off); break;
        case OP_RETURNL:
            PUSHA(fr, fr->locals[ip[1]]);
            /* fall through */
        case OP_RETURN:
            if (!follow_return(S, st, off))
                return;
            break;
        case OP_REROLL:
            if (st->depth > 0) {
                S->failed = true;   /* (rerolling callees are never inlined) */
                return;
            }
            emit(S, OP_REROLL, off);
            return;
        case OP_ROLL_COUNTK: {
            /* the peephole pass's roll and count, taken apart: a pool of
             * the known dice, then its count (fused again at the end) */
            static const uint8_t roll[1] = { OP_ROLL_POOL };
            uint8_t count[2] = { OP_COUNT_IF, ip[7] };
            PUSHA(fr, known(p->consts[chunk_u16(ip + 1)]));
            PUSHA(fr, known(p->consts[chunk_u16(ip + 3)]));
            if (!follow_value(S, fr, roll, OP_ROLL_POOL, 1, off)) {
                S->failed = true;
                return;
            }
            PUSHA(fr, known(p->consts[chunk_u16(ip + 5)]));
            if (!follow_value(S, fr, count, OP_COUNT_IF, 2, off)) {
                S->failed = true;
                return;
            }
            break;
        }
        case OP_RECORD: follow_record(fr, ip); break;
        case OP_FIELD: follow_field(S, fr, ip, len, off); break;
        case OP_PROB: case OP_PICK: case OP_EXPECT:
            S->failed = true;
            return;
        default:
            if (!follow_value(S, fr, ip, op, len, off)) {
                S->failed = true;
                return;
            }
            break;
        }
    }
}

/* ---- tidying the residual code ---- */

/* Keep only the bytes marked in keep (whole instructions), moving jumps. */
static void compact(Proto *p, const bool *keep)
{
    int len = p->len;
    int *moved = mem_alloc_atomic(sizeof(int) * ((size_t)len + 1));
    uint8_t *code = mem_alloc_atomic((size_t)len + 1);
    uint32_t *offsets = mem_alloc_atomic(sizeof(uint32_t) * ((size_t)len + 1));
    int n = 0;
    for (int pc = 0; pc < len; pc++) {
        moved[pc] = n;
        if (keep[pc]) {
            code[n] = p->code[pc];
            offsets[n] = p->offsets[pc];
            n++;
        }
    }
    moved[len] = n;
    for (int pc = 0; pc < len; pc += chunk_insn_len(p->code, pc))
        if (keep[pc] && chunk_is_jump(p->code[pc]))
            chunk_set_jump(code, moved[pc], moved[chunk_jump_target(p->code, pc)]);
    p->code = code;
    p->offsets = offsets;
    p->len = p->cap = n;
}

static bool ends_path(uint8_t op) { return op_is(op, OPF_ENDS); }

/* The kept instructions of a subtree of the residual code, which is a
 * tree: a branch's fall-through side, up to the branch's target, then its
 * jumped-to side.  From instruction index i up to byte `stop`, or with
 * stop < 0 to the end of its paths (an end of a path with no jumped-to
 * side still ahead).  Returns how many, or -1 if it holds a jump other
 * than a JUMP_FALSE; *branches says whether it holds one. */
static int subtree(const Proto *p, const int *starts, int ninsn, const bool *keep, int i, int stop, int *out,
                   bool *branches)
{
    int n = 0, ahead = -1;   /* the furthest jump target seen */
    *branches = false;
    for (; i < ninsn && (stop < 0 || starts[i] < stop); i++) {
        int pc = starts[i];
        if (!keep[pc])
            continue;
        uint8_t op = p->code[pc];
        if (chunk_is_jump(op)) {
            if (op != OP_JUMP_FALSE)
                return -1;
            *branches = true;
            int t = chunk_jump_target(p->code, pc);
            ahead = t > ahead ? t : ahead;
        }
        out[n++] = pc;
        if (ends_path(op) && stop < 0 && ahead <= pc)
            break;
    }
    return n;
}

/* The index in side[0..n) of the first instruction at or after byte pc. */
static int index_at(const int *side, int n, int pc)
{
    int k = 0;
    while (k < n && side[k] < pc)
        k++;
    return k;
}

/* A branch that adds k or nothing: "LOAD c, JUMP_FALSE, (LOAD x, CONST k,
 * ADD, STORE y, LOAD y, RETURN), (LOAD x, RETURN)" with k a whole number
 * and y read only there, becomes "LOAD x, LOAD c, ADD_IF, RETURN" for k = 1,
 * else "LOAD x, LOAD c, BOOL_INT, CONST k, MUL, ADD, RETURN":
 * x + (c ? k : 0), the same value (x + 0 is x) and no branch
 * for the processor to guess (a REBS volley's extra hit on any 6).  The new
 * instructions are written over the first side's bytes, the rest of which
 * become one-byte instructions that are dropped, so the code can still be
 * walked instruction by instruction. */
static bool add_if(Spec *S, Proto *p, const int *starts, bool *keep, bool *dead, int *uses,
                   int prev, int i, int target, const int *fa, int nf, const int *ja, int nj)
{
    const uint8_t *c = p->code;
    if (nf != 6 || nj != 2 || c[fa[0]] != OP_LOAD || c[fa[1]] != OP_CONST || c[fa[2]] != OP_ADD
        || c[fa[3]] != OP_STORE || c[fa[4]] != OP_LOAD || c[fa[4] + 1] != c[fa[3] + 1] || c[fa[5]] != OP_RETURN
        || c[ja[0]] != OP_LOAD || c[ja[0] + 1] != c[fa[0] + 1] || c[ja[1]] != OP_RETURN
        || uses[c[fa[3] + 1]] != 1)
        return false;
    int cond_at = starts[prev], jump_at = starts[i];
    Value k = p->consts[chunk_u16(c + fa[1] + 1)];
    if (k.tag != VAL_INT)
        return false;
    int x = c[fa[0] + 1], y = c[fa[3] + 1], cond = c[cond_at + 1];
    int from = jump_at + 3;
    uint8_t tail[16];
    int n = 0;
    tail[n++] = OP_LOAD;
    tail[n++] = (uint8_t)x;
    tail[n++] = OP_LOAD;
    tail[n++] = (uint8_t)cond;
    if (k.as.i == 1) {
        tail[n++] = OP_ADD_IF;
    } else {
        tail[n++] = OP_BOOL_INT;
        tail[n++] = OP_CONST;
        tail[n++] = c[fa[1] + 1];
        tail[n++] = c[fa[1] + 2];
        tail[n++] = OP_MUL;
        tail[n++] = OP_ADD;
    }
    tail[n++] = OP_RETURN;
    if (from + n > target)
        return false;
    uint32_t off = p->offsets[jump_at];
    /* the groups on this side are gone with it */
    for (int g = 0; g < S->ngroups; g++)
        if (S->groups[g].start >= from && S->groups[g].end <= target)
            dead[g] = true;
    keep[cond_at] = keep[cond_at + 1] = false;
    memset(keep + jump_at, 0, 3);
    for (int b = from; b < target; b++) {
        p->code[b] = b - from < n ? tail[b - from] : OP_RETURN;
        p->offsets[b] = off;
        keep[b] = b - from < n;
    }
    memset(keep + ja[0], 0, 2);
    keep[ja[1]] = false;
    uses[x]--;               /* two loads of x (one each side) became one */
    uses[y]--;
    return true;
}

/* Are the kept instructions a[0..n) and b[0..n) the same, up to the names
 * of the temps each side makes for itself (every temp is stored once)?
 * rename maps a's temps to b's; it may come with some set. */
static bool same_code(const Proto *p, const int *a, const int *b, int n, int *rename)
{
    for (int k = 0; k < n; k++) {
        const uint8_t *x = p->code + a[k], *y = p->code + b[k];
        int l = chunk_insn_len(p->code, a[k]);
        if (l != chunk_insn_len(p->code, b[k]) || x[0] != y[0])
            return false;
        if (x[0] == OP_STORE)
            rename[x[1]] = y[1];
        else if (x[0] == OP_LOAD ? (rename[x[1]] >= 0 ? rename[x[1]] != y[1] : x[1] != y[1])
                                 : memcmp(x, y, (size_t)l) != 0)
            return false;
    }
    return true;
}

/* A branch whose one side adds 1 to x and then does what the other side
 * does with x: "LOAD c, JUMP_FALSE, (LOAD x, CONST 1, ADD, STORE y, T(y)),
 * (T(x))" becomes "LOAD x, LOAD c, ADD_IF, STORE y, T(y)", as in REBS's
 * Loss Steps, floor(hits / 3) with an extra hit on any 6 or without.  The
 * three new instructions are written over the first side's first three
 * (and a byte left over that is dropped), so the walk of the code by
 * instructions and the groups' bounds still hold. */
static bool add_if_before(Spec *S, Proto *p, bool *keep, bool *dead, int *uses, int cond_at, int jump_at,
                          const int *fa, int nf, const int *ja, int nj)
{
    uint8_t *c = p->code;
    if (nf < 5 || nf - 4 != nj || c[fa[0]] != OP_LOAD || c[fa[1]] != OP_CONST || c[fa[2]] != OP_ADD
        || c[fa[3]] != OP_STORE || fa[1] != fa[0] + 2 || fa[2] != fa[1] + 3 || fa[3] != fa[2] + 1)
        return false;
    Value k = p->consts[chunk_u16(c + fa[1] + 1)];
    if (k.tag != VAL_INT || k.as.i != 1)
        return false;
    int rename[SPEC_MAX_TEMPS + 1];
    for (int t = 0; t <= SPEC_MAX_TEMPS; t++)
        rename[t] = -1;
    int x = c[fa[0] + 1], y = c[fa[3] + 1], cond = c[cond_at + 1];
    rename[y] = x;           /* T(y) on the first side is T(x) on the other */
    if (!same_code(p, fa + 4, ja, nj, rename))
        return false;
    keep[cond_at] = keep[cond_at + 1] = false;
    memset(keep + jump_at, 0, 3);
    uint32_t off = p->offsets[fa[2]];   /* (where the ADD's overflow would be reported) */
    const uint8_t prefix[6] = { OP_LOAD, (uint8_t)x, OP_LOAD, (uint8_t)cond, OP_ADD_IF, OP_RETURN };
    for (int b = 0; b < 6; b++) {
        c[fa[0] + b] = prefix[b];
        p->offsets[fa[0] + b] = off;
        keep[fa[0] + b] = b < 5;
    }
    /* the other side goes, with its groups */
    int end = ja[nj - 1] + chunk_insn_len(c, ja[nj - 1]);
    for (int i = 0; i < nj; i++) {
        if (keep[ja[i]] && c[ja[i]] == OP_LOAD)
            uses[c[ja[i] + 1]]--;
        memset(keep + ja[i], 0, (size_t)chunk_insn_len(c, ja[i]));
    }
    for (int g = 0; g < S->ngroups; g++)
        if (S->groups[g].start >= ja[0] && S->groups[g].end <= end)
            dead[g] = true;
    return true;
}

static void tidy(Spec *S)
{
    Proto *p = S->out;
    int len = p->len;
    int *starts = mem_alloc_atomic(sizeof(int) * ((size_t)len + 1));
    int ninsn = 0;
    for (int pc = 0; pc < len; pc += chunk_insn_len(p->code, pc))
        starts[ninsn++] = pc;
    int *uses = mem_alloc_atomic(sizeof(int) * (SPEC_MAX_TEMPS + 1));
    memset(uses, 0, sizeof(int) * (SPEC_MAX_TEMPS + 1));
    for (int i = 0; i < ninsn; i++)
        if (p->code[starts[i]] == OP_LOAD)
            uses[p->code[starts[i] + 1]]++;
    bool *keep = mem_alloc_atomic((size_t)len + 1);
    memset(keep, 1, (size_t)len + 1);
    bool *dead = mem_alloc_atomic((size_t)S->ngroups + 1);
    memset(dead, 0, (size_t)S->ngroups + 1);
    int *fa = mem_alloc_atomic(sizeof(int) * ((size_t)ninsn + 1));
    int *ja = mem_alloc_atomic(sizeof(int) * ((size_t)ninsn + 1));
#define DROP(pc) do { if (keep[pc] && p->code[pc] == OP_LOAD) uses[p->code[(pc) + 1]]--; \
                      memset(keep + (pc), 0, (size_t)chunk_insn_len(p->code, pc)); } while (0)
    for (bool changed = true; changed;) {
        changed = false;
        /* drop what nobody reads, and then what only that read */
        for (int g = S->ngroups - 1; g >= 0; g--) {
            const Group *gr = &S->groups[g];
            if (dead[g] || !gr->removable || uses[gr->temp] > 0)
                continue;
            dead[g] = true;
            changed = true;
            for (int pc = gr->start; pc < gr->end; pc += chunk_insn_len(p->code, pc))
                DROP(pc);
        }
        /* a branch whose two sides now do the same is no branch: keep one
         * side, drop the other, the jump and the test's load */
        for (int i = 1; i < ninsn; i++) {
            int pc = starts[i];
            if (!keep[pc] || p->code[pc] != OP_JUMP_FALSE)
                continue;
            int prev = i - 1;
            while (prev >= 0 && !keep[starts[prev]])
                prev--;
            if (prev < 0 || p->code[starts[prev]] != OP_LOAD || S->temp_unknown[p->code[starts[prev] + 1]])
                continue;   /* (a test that may be a '?' stops the run: it stays) */
            int target = chunk_jump_target(p->code, pc);
            bool fbranches, jbranches;
            int nf = subtree(p, starts, ninsn, keep, i + 1, target, fa, &fbranches);
            int j = i + 1;
            while (j < ninsn && starts[j] < target)
                j++;
            int nj = subtree(p, starts, ninsn, keep, j, -1, ja, &jbranches);
            if (nf <= 0 || nj <= 0 || !ends_path(p->code[fa[nf - 1]]) || !ends_path(p->code[ja[nj - 1]]))
                continue;
            /* the same instructions, up to the names of the temps each side
             * makes for itself (every temp is stored once), and the same
             * branches within them (a test whose sides end alike at last,
             * as one whose result nobody reads: an opposed roll's natural
             * winner when only the panic hits are asked for) */
            bool same = nf == nj;
            int rename[SPEC_MAX_TEMPS + 1];
            for (int t = 0; t <= SPEC_MAX_TEMPS; t++)
                rename[t] = -1;
            for (int k = 0; k < nf && same; k++) {
                const uint8_t *a = p->code + fa[k], *b = p->code + ja[k];
                int l = chunk_insn_len(p->code, fa[k]);
                if (l != chunk_insn_len(p->code, ja[k]) || a[0] != b[0])
                    same = false;
                else if (a[0] == OP_STORE)
                    rename[a[1]] = b[1];
                else if (a[0] == OP_LOAD)
                    same = rename[a[1]] >= 0 ? rename[a[1]] == b[1] : a[1] == b[1];
                else if (a[0] == OP_JUMP_FALSE)
                    same = index_at(fa, nf, chunk_jump_target(p->code, fa[k]))
                        == index_at(ja, nj, chunk_jump_target(p->code, ja[k]));
                else
                    same = memcmp(a, b, (size_t)l) == 0;
            }
            if (!same) {
                if (!fbranches && !jbranches)
                    changed |= add_if(S, p, starts, keep, dead, uses, prev, i, target, fa, nf, ja, nj)
                            || add_if_before(S, p, keep, dead, uses, starts[prev], pc, fa, nf, ja, nj);
                continue;
            }
            DROP(starts[prev]);
            DROP(pc);
            for (int k = 0; k < nj; k++)
                DROP(ja[k]);
            changed = true;
        }
    }
#undef DROP
    compact(p, keep);
    /* a value stored and at once loaded by its only reader stays on the
     * stack (what precedes a jump target is always a RETURN or REROLL, so
     * the pair never straddles one) */
    keep = mem_alloc_atomic((size_t)p->len + 1);
    memset(keep, 1, (size_t)p->len + 1);
    for (int pc = 0; pc + 2 < p->len; pc += chunk_insn_len(p->code, pc))
        if (p->code[pc] == OP_STORE && p->code[pc + 2] == OP_LOAD && p->code[pc + 3] == p->code[pc + 1]
            && uses[p->code[pc + 1]] == 1)
            memset(keep + pc, 0, 4);
    compact(p, keep);
    /* and two values each read once, by the instruction after the second:
     * STORE t, (what computes u), STORE u, LOAD t, LOAD u leaves t on the
     * stack under u.  What computes u only pushes and pops above t (it is
     * one value's inputs and its operation, with no jump, store or end in
     * it), so t is where LOAD t would have put it. */
    keep = mem_alloc_atomic((size_t)p->len + 1);
    memset(keep, 1, (size_t)p->len + 1);
    for (int pc = 0; pc < p->len; pc += chunk_insn_len(p->code, pc)) {
        if (p->code[pc] != OP_STORE || uses[p->code[pc + 1]] != 1 || !keep[pc])
            continue;
        int t = p->code[pc + 1], q = pc + 2;
        while (q < p->len && !op_is(p->code[q], OPF_WRITES) && !chunk_is_jump(p->code[q])
               && !ends_path(p->code[q]))
            q += chunk_insn_len(p->code, q);
        if (q == pc + 2 || q + 6 > p->len || p->code[q] != OP_STORE)
            continue;
        int u = p->code[q + 1];
        if (uses[u] != 1 || p->code[q + 2] != OP_LOAD || p->code[q + 3] != t || p->code[q + 4] != OP_LOAD
            || p->code[q + 5] != u)
            continue;
        keep[pc] = keep[pc + 1] = false;
        memset(keep + q, 0, 6);
    }
    compact(p, keep);
    while (peephole_proto(p))
        ;
}

/* The deepest the operand stack gets in the residual code, worked out from
 * the code itself: each instruction's effect, and at a jump's target the
 * depth the jump left (the code is a tree, so nothing else reaches it). */
static int max_stack_of(const Program *prog, const Proto *p)
{
    int *at = mem_alloc_atomic(sizeof(int) * ((size_t)p->len + 1));
    for (int i = 0; i <= p->len; i++)
        at[i] = -1;
    int depth = 0, most = 0;
    for (int pc = 0; pc < p->len; pc += chunk_insn_len(p->code, pc)) {
        if (at[pc] >= 0)
            depth = at[pc];
        const uint8_t *ip = p->code + pc;
        depth += chunk_insn_pushes(prog, ip) - chunk_insn_pops(prog, ip);
        if (chunk_is_jump(ip[0]))
            at[chunk_jump_target(p->code, pc)] = depth;
        most = depth > most ? depth : most;
    }
    return most;
}

/* A program for the specializer to add to: the original's protos and
 * tables in arrays of its own (it appends a scratch proto, the residual
 * proto and the columns of two-key tables it slices), sharing the protos,
 * tables, enums and records themselves, which it only reads.  Every index
 * into the original means the same in the copy. */
static Program *program_copy(const Program *orig)
{
    Program *prog = chunk_program_new();
    *prog = *orig;
    prog->protos_cap = orig->nprotos + 2;
    prog->protos = mem_alloc(sizeof(Proto *) * (size_t)prog->protos_cap);
    if (orig->nprotos)
        memcpy(prog->protos, orig->protos, sizeof(Proto *) * (size_t)orig->nprotos);
    prog->tables_cap = orig->ntables + 1;
    prog->tables = mem_alloc(sizeof(Table *) * (size_t)prog->tables_cap);
    if (orig->ntables)
        memcpy(prog->tables, orig->tables, sizeof(Table *) * (size_t)orig->ntables);
    return prog;
}

/* specialize_call, with the record result coded if codes is given. */
static const Program *specialize(const Vm *vm, int index, const Value *args, int nargs, int field, int *out_index,
                                 SpecCodes *codes)
{
    const Proto *top = vm->prog->protos[index];
    if (nargs != top->nparams)
        return NULL;
    Spec *S = mem_alloc(sizeof *S);
    S->codes = codes;
    S->prog = program_copy(vm->prog);
    vm_init(&S->ev, S->prog, NULL);
    S->ev.limits = vm->limits;
    S->ev.choices = vm->choices;
    S->field = field;
    S->ev.quiet_unknown = true;   /* (what it meets is left for run time, which reports it) */
    S->temp_unknown = mem_alloc_atomic(SPEC_MAX_TEMPS + 1);
    memset(S->temp_unknown, 0, SPEC_MAX_TEMPS + 1);
    Proto *scratch = chunk_proto_new(S->prog, "(working out a known value)", top->decl_offset);
    scratch->hidden = true;
    S->scratch = S->prog->nprotos - 1;
    size_t len = strlen(top->name) + 32;
    char *name = mem_alloc_atomic(len);
    snprintf(name, len, "%s (for these arguments)", top->name);
    S->out = chunk_proto_new(S->prog, name, top->decl_offset);
    S->out->hidden = true;
    S->out->rerolls = top->rerolls;
    int spec = S->prog->nprotos - 1;

    SState *st = mem_alloc(sizeof *st);
    AVal *a = mem_alloc(sizeof(AVal) * (size_t)(nargs + 1));
    for (int i = 0; i < nargs; i++)
        a[i] = known(args[i]);
    st->depth = 0;
    enter(st, top, index, a, nargs);
    follow(S, st);
    if (S->failed || S->uncodable)
        return NULL;
    tidy(S);
    S->out->nlocals = S->ntemps;
    S->out->max_stack = max_stack_of(S->prog, S->out) + 1;
    *out_index = spec;
    return S->prog;
}

const Program *specialize_call(const Vm *vm, int index, const Value *args, int nargs, int field, int *out_index)
{
    return specialize(vm, index, args, nargs, field, out_index, NULL);
}

const Program *specialize_call_coded(const Vm *vm, int index, const Value *args, int nargs, int *out_index,
                                     SpecCodes *codes)
{
    *codes = (SpecCodes){ 0 };
    const Program *prog = specialize(vm, index, args, nargs, -1, out_index, codes);
    if (prog && codes->n > 0)
        return prog;
    *codes = (SpecCodes){ 0 };
    return specialize(vm, index, args, nargs, -1, out_index, NULL);
}

bool specialize_decode(const SpecCodes *codes, int64_t code, Value *record)
{
    for (int s = 0; s < codes->n; s++) {
        const SpecShape *sh = &codes->shapes[s];
        if (code < sh->base || code >= sh->base + sh->size)
            continue;
        const Record *t = sh->record.as.r;
        Record *r = mem_alloc(sizeof(Record) + sizeof(Value) * (size_t)t->n);
        memcpy(r, t, sizeof(Record) + sizeof(Value) * (size_t)t->n);
        int64_t rest = code - sh->base;
        for (int k = 0; k < sh->nvar; k++) {
            int64_t v = rest % sh->count[k];
            rest /= sh->count[k];
            r->field[sh->field[k]] = sh->is_bool[k] ? val_bool(v != 0) : val_int(sh->lo[k] + v);
        }
        *record = val_record(r);
        return true;
    }
    return false;
}
