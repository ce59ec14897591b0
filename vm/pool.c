/* pool.c — the pool operations of pool.h that are not inline: sorting
 * (a counting sort for dice of up to 64 faces), filters, counts, any/all,
 * sum, highest and lowest, doubles, and the two doors to a lazy pool's
 * source. */
#include "config.h"
#include "vm/pool.h"
#include "vm/dice.h"
#include "base/mem.h"

#include <stdlib.h>
#include <string.h>

const Pool *pool_plain(const Pool *p)
{
    if (!p->lazy)
        return p;
    DiceSource *source = p->lazy->source;
    return source->pools->faces(source, p);
}

int pool_lazy_op(OpCode op, const Pool *p, CmpOp cmp, Value x, Value *out, char *err, size_t errlen)
{
    DiceSource *source = p->lazy->source;
    return source->pools->apply(source, op, p, cmp, x, out, err, errlen);
}

Pool *pool_keep(const Pool *p)
{
    p = pool_plain(p);
    Pool *q = pool_alloc(NULL, p->sides, p->n);
    memcpy(q->face, p->face, sizeof(int32_t) * (size_t)p->n);
    q->unsorted = p->unsorted;
    q->symbols = p->symbols;
    return q;
}

void pool_die_values(Pool *p, const Die *die)
{
    int32_t lo = die->value[0], hi = die->value[die->n - 1];
    for (int64_t i = 0; i < p->n; i++)
        p->face[i] = die->value[p->face[i] - 1];
    p->sides = lo >= 1 && hi <= 64 ? hi : 0;
    p->lane_bits = 0;
    p->unsorted = p->n > 1;
}

static int cmp_face(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

void pool_sort(Pool *p)
{
    p->unsorted = false;
    if (p->n < 2)
        return;
    if (p->sides >= 1 && p->sides <= 64) {
        /* counting sort: dice have few faces (no comparisons, no mispredicted branches) */
        int64_t count[65];
        memset(count, 0, sizeof(int64_t) * (size_t)(p->sides + 1));
        for (int64_t i = 0; i < p->n; i++)
            count[p->face[i]]++;
        int64_t k = 0;
        for (int32_t f = 1; f <= p->sides; f++)
            for (int64_t c = count[f]; c > 0; c--)
                p->face[k++] = f;
    } else if (p->n <= 16) {
        /* a handful of big dice: insertion sort */
        for (int64_t i = 1; i < p->n; i++) {
            int32_t f = p->face[i];
            int64_t j = i;
            for (; j > 0 && p->face[j - 1] > f; j--)
                p->face[j] = p->face[j - 1];
            p->face[j] = f;
        }
    } else {
        qsort(p->face, (size_t)p->n, sizeof(int32_t), cmp_face);
    }
}

const Pool *pool_order(const Pool *p)
{
    if (p->unsorted)
        pool_sort((Pool *)p);
    return p;
}

bool pool_face_cmp(int32_t face, CmpOp op, Value x)
{
    return cmp_holds(val_num_cmp(val_int(face), x), op);
}

static Pool *slice(Arena *arena, const Pool *p, int64_t from, int64_t n)
{
    Pool *q = pool_alloc(arena, p->sides, n);
    memcpy(q->face, p->face + from, sizeof(int32_t) * (size_t)n);
    q->symbols = p->symbols;
    return q;
}

/* The first index whose face is >= f (faces are sorted). */
static int64_t lower_bound(const Pool *p, int64_t f)
{
    int64_t lo = 0, hi = p->n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (p->face[mid] < f)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* For a whole-number x, the dice that compare to it are one run of the
 * sorted faces [*from, *to) — except for !=, which is everything but such a
 * run (reported as the run of == with *inverted set). */
static bool int_run(const Pool *p, CmpOp op, Value x, int64_t *from, int64_t *to, bool *inverted)
{
    if (x.tag != VAL_INT || p->unsorted)
        return false;
    int64_t k = x.as.i;
    /* clamp so k + 1 cannot overflow: faces are at most 2^20 */
    if (k > (int64_t)1 << 40)
        k = (int64_t)1 << 40;
    if (k < -((int64_t)1 << 40))
        k = -((int64_t)1 << 40);
    *inverted = false;
    switch (op) {
    case CMP_LT: *from = 0; *to = lower_bound(p, k); break;
    case CMP_LE: *from = 0; *to = lower_bound(p, k + 1); break;
    case CMP_GT: *from = lower_bound(p, k + 1); *to = p->n; break;
    case CMP_GE: *from = lower_bound(p, k); *to = p->n; break;
    case CMP_EQ: *from = lower_bound(p, k); *to = lower_bound(p, k + 1); break;
    case CMP_NE: *from = lower_bound(p, k); *to = lower_bound(p, k + 1); *inverted = true; break;
    }
    return true;
}

int64_t pool_count(const Pool *p, CmpOp op, Value x)
{
    int64_t from, to;
    bool inverted;
    if (int_run(p, op, x, &from, &to, &inverted))
        return inverted ? p->n - (to - from) : to - from;
    if (x.tag == VAL_INT)
        return pool_count_scan(p, op, x.as.i);
    int64_t n = 0;
    for (int64_t i = 0; i < p->n; i++)
        n += pool_face_cmp(p->face[i], op, x);
    return n;
}

Pool *pool_filter(Arena *arena, const Pool *p, CmpOp op, Value x)
{
    int64_t from, to;
    bool inverted;
    if (int_run(p, op, x, &from, &to, &inverted)) {
        if (!inverted)
            return slice(arena, p, from, to - from);
        Pool *q = pool_alloc(arena, p->sides, p->n - (to - from));
        memcpy(q->face, p->face, sizeof(int32_t) * (size_t)from);
        memcpy(q->face + from, p->face + to, sizeof(int32_t) * (size_t)(p->n - to));
        q->symbols = p->symbols;
        return q;
    }
    int64_t n = pool_count(p, op, x);
    Pool *q = pool_alloc(arena, p->sides, n);
    int64_t k = 0;
    for (int64_t i = 0; i < p->n; i++)
        if (pool_face_cmp(p->face[i], op, x))
            q->face[k++] = p->face[i];
    q->unsorted = p->unsorted;
    q->symbols = p->symbols;
    return q;
}

bool pool_any(const Pool *p, CmpOp op, Value x)
{
    int64_t from, to;
    bool inverted;
    if (int_run(p, op, x, &from, &to, &inverted))
        return inverted ? p->n - (to - from) > 0 : to > from;
    if (x.tag == VAL_INT)
        return pool_count_scan(p, op, x.as.i) > 0;
    for (int64_t i = 0; i < p->n; i++)
        if (pool_face_cmp(p->face[i], op, x))
            return true;
    return false;
}

bool pool_all(const Pool *p, CmpOp op, Value x)
{
    int64_t from, to;
    bool inverted;
    if (int_run(p, op, x, &from, &to, &inverted))
        return inverted ? to == from : to - from == p->n;
    if (x.tag == VAL_INT)
        return pool_count_scan(p, op, x.as.i) == p->n;
    for (int64_t i = 0; i < p->n; i++)
        if (!pool_face_cmp(p->face[i], op, x))
            return false;
    return true;
}

int64_t pool_sum(const Pool *p)
{
    int64_t s = 0;
    for (int64_t i = 0; i < p->n; i++)
        s += p->face[i];
    return s;
}


Pool *pool_highest(Arena *arena, const Pool *p, int64_t n)
{
    pool_order(p);
    if (n > p->n)
        n = p->n;
    return slice(arena, p, p->n - n, n);
}

Pool *pool_lowest(Arena *arena, const Pool *p, int64_t n)
{
    pool_order(p);
    if (n > p->n)
        n = p->n;
    return slice(arena, p, 0, n);
}

Pool *pool_join(Arena *arena, const Pool *a, const Pool *b)
{
    a = pool_order(pool_plain(a));   /* (pool_plain of a plain pool is the pool itself) */
    b = pool_order(pool_plain(b));
    int32_t sides = a->sides && b->sides ? (a->sides > b->sides ? a->sides : b->sides) : 0;
    Pool *q = pool_alloc(arena, sides, a->n + b->n);
    int64_t i = 0, j = 0, k = 0;
    while (i < a->n && j < b->n)
        q->face[k++] = a->face[i] <= b->face[j] ? a->face[i++] : b->face[j++];
    while (i < a->n)
        q->face[k++] = a->face[i++];
    while (j < b->n)
        q->face[k++] = b->face[j++];
    q->symbols = a->symbols;
    pool_note_lanes(q);
    return q;
}

bool pool_doubles(const Pool *p)
{
    pool_order(p);
    for (int64_t i = 1; i < p->n; i++)
        if (p->face[i] == p->face[i - 1])
            return true;
    return false;
}
