/* pool.h — dice pools as multisets, and what can be asked of them.
 *
 * Pools are immutable: every operation returns a new pool (or a number),
 * so a pool may be shared between locals freely.  The faces are kept in
 * ascending order, which makes highest/lowest a slice, except in a fresh
 * roll marked unsorted: pool_order sorts it in place the first time an
 * order is needed (counting and testing faces need none, and a roll of
 * few dice of few faces counts them in lanes of one word instead).  A pool
 * may come from a simulated trial's arena, and a lazy pool (dice.h) holds
 * no faces at all: pool_plain and pool_lazy_op are the ways into it.
 */
#ifndef MUSTER_VM_POOL_H
#define MUSTER_VM_POOL_H

#include "vm/opcodes.h"
#include "base/mem.h"
#include "vm/value.h"

#include <stdbool.h>

/* A plain pool of n dice: from the arena when one is given (it lives until the
 * arena is reset), else from the collector. */
static inline Pool *pool_alloc(Arena *arena, int32_t sides, int64_t n)
{
    size_t size = sizeof(Pool) + sizeof(int32_t) * (size_t)n;
    Pool *p = arena ? arena_alloc(arena, size) : mem_alloc_atomic(size);
    p->sides = sides;
    p->unsorted = false;
    p->lane_bits = 0;
    p->symbols = 0;
    p->n = n;
    p->lazy = NULL;
    return p;
}

/* A fresh roll of few dice of few faces: count each face into a lane of
 * one word (8-bit lanes for up to 8 faces and 255 dice, 4-bit lanes for up
 * to 16 faces and 15 dice), so that counting and testing its dice against
 * a whole number is a few operations on that word (pool_count_lanes). */
static inline unsigned pool_lane_bits(int64_t sides, int64_t n)
{
    return sides < 1 ? 0 : sides <= 8 && n <= 255 ? 8 : sides <= 16 && n <= 15 ? 4 : 0;
}

static inline void pool_note_lanes(Pool *p)
{
    unsigned w = pool_lane_bits(p->sides, p->n);
    if (!w)
        return;
    uint64_t lanes = 0;
    for (int64_t i = 0; i < p->n; i++)
        lanes += (uint64_t)1 << (w * (unsigned)(p->face[i] - 1));
    p->lanes = lanes;
    p->lane_bits = (uint8_t)w;
}

/* Dice of a pool with lanes showing k or more: the lanes from face k up,
 * added by one multiplication (no lane's running total can carry, since it
 * is at most the number of dice, which fits a lane). */
static inline int64_t pool_lanes_ge(const Pool *p, int64_t k)
{
    if (k <= 1)
        return p->n;
    if (k > p->sides)
        return 0;
    uint64_t v = p->lanes >> (p->lane_bits * (unsigned)(k - 1));
    return p->lane_bits == 8 ? (int64_t)((v * 0x0101010101010101ULL) >> 56)
                             : (int64_t)((v * 0x1111111111111111ULL) >> 60);
}

/* How many dice of a pool with lanes compare to the whole number k. */
static inline int64_t pool_count_lanes(const Pool *p, CmpOp op, int64_t k)
{
    int64_t eq = 0;
    if (op == CMP_EQ || op == CMP_NE) {
        if (k >= 1 && k <= p->sides)
            eq = (int64_t)((p->lanes >> (p->lane_bits * (unsigned)(k - 1))) & ((1u << p->lane_bits) - 1));
        return op == CMP_EQ ? eq : p->n - eq;
    }
    /* k + 1 only where k < sides, so it cannot overflow */
    switch (op) {
    case CMP_GE: return pool_lanes_ge(p, k);
    case CMP_GT: return k >= p->sides ? 0 : pool_lanes_ge(p, k + 1);
    case CMP_LT: return p->n - pool_lanes_ge(p, k);
    case CMP_LE: return k >= p->sides ? p->n : p->n - pool_lanes_ge(p, k + 1);
    default: return 0;
    }
}
/* The faces of a die of `sides` sides that compare (op) to k: those in
 * [*lo, *lo + *span), or for != all but those.  (count(roll n dS >= k) is
 * a count of the dice in a range, with k clamped to the faces.) */
static inline void pool_face_span(CmpOp op, int64_t k, int64_t sides, int64_t *lo, uint64_t *span)
{
    k = k < 0 ? 0 : k > sides ? sides + 1 : k;
    int64_t from = op == CMP_GT || op == CMP_GE ? (op == CMP_GT ? k + 1 : k) : op == CMP_LT || op == CMP_LE ? 1 : k;
    int64_t to = op == CMP_LT ? k - 1 : op == CMP_LE || op == CMP_EQ || op == CMP_NE ? k : sides;
    *lo = from;
    *span = to >= from ? (uint64_t)(to - from + 1) : 0;
}

/* A pool's faces: p itself, or for a lazy pool (dice.h) the faces its
 * source works out.  The functions below take plain pools only, except
 * pool_keep, which goes through this. */
const Pool *pool_plain(const Pool *p);
/* The value of pool instruction op on the lazy pool p, from its source (see
 * PoolMethods in dice.h). */
int pool_lazy_op(OpCode op, const Pool *p, CmpOp cmp, Value x, Value *out, char *err, size_t errlen);
/* The same pool, plain and in collector memory (for a pool that outlives its arena). */
Pool *pool_keep(const Pool *p);
/* A fresh pool of die's faces (1..die->n) turned into the die's values, in
 * place, with sides set to fit them (see Pool.sides). */
typedef struct Die Die;
void pool_die_values(Pool *p, const Die *die);
/* Sort p's faces in place (only while building a fresh pool). */
void pool_sort(Pool *p);
/* p with its faces in order: sorts an unsorted pool in place, which
 * changes no pool's value (a pool is a multiset). */
const Pool *pool_order(const Pool *p);
/* The dice of p whose face compares to x (x an int or rational). */
Pool *pool_filter(Arena *arena, const Pool *p, CmpOp op, Value x);
/* How many dice of p compare to the whole number k: one pass over the
 * faces in any order, with no branches (a face is at most 2^20, so k is
 * clamped without changing any comparison).  Inline: the simulation's
 * count of hits. */
static inline int64_t pool_count_scan(const Pool *p, CmpOp op, int64_t k)
{
    int32_t kk = k > (1 << 21) ? (1 << 21) : k < -(1 << 21) ? -(1 << 21) : (int32_t)k;
    int64_t c = 0;
    const int32_t *f = p->face;
    switch (op) {
    case CMP_EQ: for (int64_t i = 0; i < p->n; i++) c += f[i] == kk; break;
    case CMP_NE: for (int64_t i = 0; i < p->n; i++) c += f[i] != kk; break;
    case CMP_LT: for (int64_t i = 0; i < p->n; i++) c += f[i] < kk; break;
    case CMP_LE: for (int64_t i = 0; i < p->n; i++) c += f[i] <= kk; break;
    case CMP_GT: for (int64_t i = 0; i < p->n; i++) c += f[i] > kk; break;
    case CMP_GE: for (int64_t i = 0; i < p->n; i++) c += f[i] >= kk; break;
    }
    return c;
}

/* How many dice of p compare to x (the size of pool_filter's pool). */
int64_t pool_count(const Pool *p, CmpOp op, Value x);
bool pool_any(const Pool *p, CmpOp op, Value x);
bool pool_all(const Pool *p, CmpOp op, Value x);
/* Sum of faces; cannot overflow for pools within the size limit. */
int64_t pool_sum(const Pool *p);
/* The n highest / lowest dice (n clamped to the pool's size; n >= 0). */
Pool *pool_highest(Arena *arena, const Pool *p, int64_t n);
Pool *pool_lowest(Arena *arena, const Pool *p, int64_t n);
/* One pool of the dice of a and b, lazy or plain (a mixed pool: its sides
 * are the larger of the two, the most any of its dice shows). */
Pool *pool_join(Arena *arena, const Pool *a, const Pool *b);
/* Whether two dice show the same face. */
bool pool_doubles(const Pool *p);


/* Does a face compare to x? */
bool pool_face_cmp(int32_t face, CmpOp op, Value x);

#endif
