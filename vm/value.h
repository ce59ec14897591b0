/* value.h — the values a muster program computes with.
 *
 * A Value is a small tagged struct passed by value: ints, exact rationals,
 * bools and enum members live inline, so arithmetic never allocates; strings,
 * dice pools and records point at immutable objects.  Rules
 * arithmetic is exact: ints are 64-bit and overflow is an error (never a
 * wraparound), rationals are kept in lowest terms with a positive
 * denominator, and there is no floating point anywhere.
 *
 * A pool is a multiset of dice faces, stored sorted ascending: no die has an
 * identity or a position, so two pools with the same faces are the same pool.
 * (A fresh roll in a simulation is put in order only when something asks
 * for an order: counting and testing faces do not need one.)
 */
#ifndef MUSTER_VM_VALUE_H
#define MUSTER_VM_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
    VAL_INT,
    VAL_RAT,
    VAL_BOOL,
    VAL_STR,
    VAL_ENUM,
    VAL_POOL,
    VAL_RECORD,
    VAL_UNKNOWN,            /* a value the rules text does not give ('?'): see val_unknown */
    VAL_DIST                /* inside an exact count only: an int not chosen yet, kept as its distribution
                               (as.dist, the engine's; see OP_DEFER in opcodes.def) */
} ValTag;

typedef struct MuStr {
    size_t len;
    char bytes[];           /* NUL-terminated */
} MuStr;

typedef struct LazyPool LazyPool;

typedef struct Pool {
    int32_t sides;          /* every face is in 1..sides; 0: the faces are any values (dice of their own
                               faces, see Die in dice.h), within +-2^20 as every face is */
    bool unsorted;          /* the faces are not in order yet (see pool_order) */
    uint8_t lane_bits;      /* 0, or 8 or 4: `lanes` holds how many dice show each face */
    uint16_t symbols;       /* 0: the faces are numbers; else 1 + the enum whose members' indexes they are
                               (a pool of symbol dice, see DieDesc in chunk.h): for printing */
    int64_t n;              /* number of dice */
    uint64_t lanes;         /* face f's count in bits [w(f-1), wf) for w = lane_bits (see pool_note_lanes) */
    /* NULL for an ordinary pool.  Otherwise the pool is held lazily by a
     * dice source (the exact engine keeps a pool as counts per class of
     * faces, see dice.h): n is -1, face[] is empty, and only the source can
     * answer questions about it (pool_plain in pool.h gives its faces). */
    const LazyPool *lazy;
    int32_t face[];         /* sorted ascending, unless unsorted */
} Pool;

typedef struct Record Record;

typedef struct Value {
    ValTag tag;
    int32_t enum_id;        /* VAL_ENUM: which enum */
    union {
        int64_t i;          /* VAL_INT, VAL_ENUM (member index) */
        struct { int64_t num, den; } q;  /* VAL_RAT: lowest terms, den > 0 */
        bool b;
        const MuStr *s;
        const Pool *p;
        const Record *r;
        const struct Deferred *dist;   /* VAL_DIST */
    } as;
} Value;
/* An unknown (VAL_UNKNOWN) stands for a value of any type that the rules
 * text does not give.  It may be stored, passed, returned and kept in a
 * record field like any value; only what needs its value (arithmetic, a
 * comparison, a branch, a table key, the result asked about) stops on it.
 * enum_id is the '?' it came from, an index in Program.unknowns (chunk.h),
 * and as.i the row key (an int, a member's index, a bool) of the table
 * lookup that met it, for its message. */

struct Record {
    int32_t type;           /* which record type */
    int32_t n;
    Value field[];
};

/* What printing needs to know about the program's types: the names of
 * enum members and record fields.  Program (chunk.h) supplies it. */
typedef enum { FLAVOUR_ENUM, FLAVOUR_LADDER, FLAVOUR_OUTCOME, FLAVOUR_CHOICE } EnumFlavourTag;

typedef struct EnumDesc {
    const char *name;
    int nmembers;
    const char **members;
    const char **texts;     /* the sheet's words for each member (entries may be NULL) */
    EnumFlavourTag flavour;
    int deflt;              /* choices: the default option's index */
    const char *prompt;     /* choices: the question */
} EnumDesc;

typedef struct RecordDesc {
    const char *name;
    int nfields;
    const char **fields;
} RecordDesc;

struct Program;

/* A value from its tag, enum and 64-bit payload (the rest zero).  Written
 * as one 16-byte piece and one 8-byte piece, the way values are copied: a
 * value built in smaller overlapping pieces (zeroed, then a field set)
 * cannot be forwarded from the store buffer to the copy that reads it
 * next, which costs a stall of a dozen cycles in the interpreter loop. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
typedef int64_t ValueFront __attribute__((vector_size(16)));
static inline Value val_make(ValTag tag, int32_t enum_id, int64_t payload)
{
    Value v;
    ValueFront front = { (int64_t)((uint64_t)(uint32_t)tag | ((uint64_t)(uint32_t)enum_id << 32)), payload };
    __builtin_memcpy(&v, &front, sizeof front);
    v.as.q.den = 0;
    return v;
}
#else
static inline Value val_make(ValTag tag, int32_t enum_id, int64_t payload)
{
    Value v;
    v.tag = tag;
    v.enum_id = enum_id;
    v.as.q.num = payload;
    v.as.q.den = 0;
    return v;
}
#endif

static inline Value val_int(int64_t i) { return val_make(VAL_INT, 0, i); }
static inline Value val_bool(bool b) { return val_make(VAL_BOOL, 0, b ? 1 : 0); }
static inline Value val_enum(int32_t id, int64_t index) { return val_make(VAL_ENUM, id, index); }
static inline Value val_str(const MuStr *s) { return val_make(VAL_STR, 0, (int64_t)(intptr_t)s); }
static inline Value val_pool(const Pool *p) { return val_make(VAL_POOL, 0, (int64_t)(intptr_t)p); }
static inline Value val_record(const Record *r) { return val_make(VAL_RECORD, 0, (int64_t)(intptr_t)r); }
static inline Value val_unknown(int32_t site, int64_t row_key) { return val_make(VAL_UNKNOWN, site, row_key); }
/* The first unknown in v (v itself, or in a field of a record, depth
 * first), or NULL.  Inline for the usual answer, asked of every simulated
 * trial's result. */
const Value *val_find_unknown_in_record(const Value *v);
static inline const Value *val_find_unknown(const Value *v)
{
    if (v->tag == VAL_UNKNOWN)
        return v;
    return v->tag == VAL_RECORD ? val_find_unknown_in_record(v) : NULL;
}

/* A rational from num/den, reduced; den must not be 0.  Returns false on
 * overflow of int64. */
bool val_make_rat(int64_t num, int64_t den, Value *out);

/* A string of len bytes copied from bytes (or left to fill when bytes is NULL). */
MuStr *val_new_str(const char *bytes, size_t len);

/* Exact arithmetic on ints and rationals.  Each returns NULL on success or a
 * static message ("integer overflow", "division by zero") on failure.  An int
 * result stays an int; anything involving a rational gives a rational. */
const char *val_add(Value a, Value b, Value *out);
const char *val_sub(Value a, Value b, Value *out);
const char *val_mul(Value a, Value b, Value *out);
const char *val_div(Value a, Value b, Value *out);   /* always rational */
const char *val_mod(Value a, Value b, Value *out);   /* ints; result has the divisor's sign */
const char *val_neg(Value a, Value *out);
const char *val_floor(Value a, Value *out);
const char *val_ceil(Value a, Value *out);
const char *val_round(Value a, Value *out);          /* halves away from zero */
const char *val_abs(Value a, Value *out);

/* How a quotient is made whole: the FLOOR, CEIL or ROUND (the nearest int,
 * halves away from zero) of a division, fused with it in IDIV and IDIVK. */
typedef enum { DIV_FLOOR, DIV_CEIL, DIV_ROUND } DivMode;

/* a/b made whole as `mode` says: the same value and the same errors as
 * val_div then val_floor, val_ceil or val_round, but two ints make no
 * rational on the way (see val_idiv_fast). */
const char *val_idiv(Value a, Value b, DivMode mode, Value *out);

/* The usual case of val_idiv, inline for the interpreter: two ints, b not
 * 0 and neither INT64_MIN (whose quotients may not fit a rational: 1 /
 * INT64_MIN and INT64_MIN / -3 overflow in val_div), in *q; false for the
 * rest, which val_idiv takes through val_div. */
static inline bool val_idiv_fast(int64_t a, int64_t b, DivMode mode, int64_t *q)
{
    if (b == 0 || a == INT64_MIN || b == INT64_MIN)
        return false;
    int64_t t = a / b, r = a % b;      /* truncated towards zero */
    /* moved one step when there is a remainder, with no branch on the
     * numbers (a die's quotient has one or not as the dice fall, and a
     * guessed branch costs more than the arithmetic) */
    int64_t rem = r != 0, below = (r ^ b) < 0;   /* (the quotient is below zero, if rem) */
    if (mode == DIV_FLOOR) {
        t -= rem & below;
    } else if (mode == DIV_CEIL) {
        t += rem & !below;
    } else {
        /* ROUND: away from zero when the remainder is at least half the
         * divisor (|r| < |b| < 2^63, so 2|r| fits in 64 unsigned bits) */
        uint64_t ar = r < 0 ? -(uint64_t)r : (uint64_t)r, ab = b < 0 ? -(uint64_t)b : (uint64_t)b;
        t += (int64_t)(rem & (2 * ar >= ab)) * (1 - 2 * below);
    }
    *q = t;
    return true;
}

/* Numeric comparison of ints/rationals: <0, 0, >0. */
int val_num_cmp(Value a, Value b);
/* Equality of two values of the same static type. */
bool val_equal(Value a, Value b);
/* Total order used to sort outcomes: numbers by value, then bools, enums by
 * (enum, index), strings bytewise, pools by size then faces, records field
 * by field, unknowns last (by the '?' they came from). */
int val_order(Value a, Value b);
/* The same value in the same form (the same tag, a rational's terms, a
 * record's fields likewise), and a hash that agrees with it: for counting
 * results by value.  Identical values are equal by val_order; equal ones
 * may not be identical (the int 2 and the rational 2/1). */
bool val_identical_any(const Value *a, const Value *b);
uint64_t val_hash_any(const Value *v);

/* Ints, members and bools: the fields of most records. */
static inline bool val_is_scalar(ValTag t)
{
    return t == VAL_INT || t == VAL_ENUM || t == VAL_BOOL;
}

static inline int64_t val_scalar_payload(const Value *v)
{
    return v->tag == VAL_BOOL ? (int64_t)v->as.b : v->as.i;
}

/* val_identical_any, with a record of scalars compared inline: a
 * simulation counting records calls this for every trial. */
static inline bool val_identical(const Value *a, const Value *b)
{
    if (a->tag != VAL_RECORD || b->tag != VAL_RECORD)
        return val_identical_any(a, b);
    const Record *p = a->as.r, *q = b->as.r;
    if (p->type != q->type || p->n != q->n)
        return false;
    for (int32_t i = 0; i < p->n; i++) {
        const Value *x = &p->field[i], *y = &q->field[i];
        if (!val_is_scalar(x->tag)) {
            if (!val_identical_any(x, y))
                return false;
        } else if (x->tag != y->tag || x->enum_id != y->enum_id || val_scalar_payload(x) != val_scalar_payload(y)) {
            return false;
        }
    }
    return true;
}

/* val_hash_any, likewise (the same hash). */
static inline uint64_t val_hash(const Value *v)
{
    if (v->tag != VAL_RECORD)
        return val_hash_any(v);
    /* the fields each multiplied by a constant of their own and added, so
     * that the multiplications do not wait on one another */
    static const uint64_t k[4] = { 0x9e3779b97f4a7c15ULL, 0xc2b2ae3d27d4eb4fULL,
                                   0x165667b19e3779f9ULL, 0xd6e8feb86659fd93ULL };
    const Record *r = v->as.r;
    uint64_t sum = (uint64_t)r->type;
    for (int32_t i = 0; i < r->n; i++) {
        const Value *f = &r->field[i];
        uint64_t w = val_is_scalar(f->tag) ? (uint64_t)val_scalar_payload(f) : val_hash_any(f);
        sum += (w ^ ((uint64_t)f->tag | (uint64_t)(uint32_t)f->enum_id << 8) << 48 ^ (uint64_t)i << 40) * k[i & 3];
    }
    /* splitmix64's finalizer: every bit of the words moves every bit of the hash */
    sum = (sum ^ (sum >> 30)) * 0xbf58476d1ce4e5b9ULL;
    sum = (sum ^ (sum >> 27)) * 0x94d049bb133111ebULL;
    return sum ^ (sum >> 31);
}

/* Text form: 7, 3/2, true, light, "text", [1, 4, 6], Unit(melee: 3), and
 * ? for an unknown.  JSON form: numbers, a non-integral rational as the
 * string "3/2", enums as "name", pools as an array of faces, records as
 * objects, an unknown as null.  `prog` supplies
 * the names (NULL prints placeholders). */
void val_print(FILE *out, Value v, const struct Program *prog);
void val_print_json(FILE *out, Value v, const struct Program *prog);
/* Print a JSON string literal (quotes and escapes). */
void val_json_string(FILE *out, const char *s, size_t len);

#endif
