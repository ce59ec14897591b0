/* facewise.c — questions about a pool of dice, answered face by face (see facewise.h). */
#include "config.h"
#include "vm/facewise.h"
#include "base/mem.h"

#include <stdlib.h>
#include <string.h>

#define TICK_STEPS 4096

static bool in_set(uint64_t set, int32_t f) { return set >> (f - 1) & 1; }

int fw_width(const FwQuestion *q)
{
    return q->kind == FW_FACES ? __builtin_popcountll(q->pre) : 1;
}

/* ---- states and their weights: a hash map from a row of numbers to a number ---- */

typedef struct Map {
    int width;               /* numbers in a key */
    int64_t *keys;           /* cap rows of width */
    mpz_t *w;                /* cap weights; the first `inited` are initialised */
    int64_t n, cap, inited;
    uint32_t *slot;          /* index + 1, or 0 for a free slot */
    int64_t nslots;          /* a power of two */
} Map;

static void map_init(Map *m, int width)
{
    memset(m, 0, sizeof *m);
    m->width = width;
}

/* The numbers' own memory is GMP's, given back here; the rest is the
 * collector's. */
static void map_free(Map *m)
{
    for (int64_t i = 0; i < m->inited; i++)
        mpz_clear(m->w[i]);
    memset(m, 0, sizeof *m);
}

static void map_reset(Map *m)
{
    m->n = 0;
    if (m->slot)
        memset(m->slot, 0, sizeof(uint32_t) * (size_t)m->nslots);
}

static uint64_t hash_key(const int64_t *k, int width)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < width; i++) {
        h ^= (uint64_t)k[i] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h *= 0xff51afd7ed558ccdULL;
    }
    return h ^ (h >> 29);
}

static void map_rehash(Map *m, int64_t nslots)
{
    m->slot = mem_alloc_atomic(sizeof(uint32_t) * (size_t)nslots);
    memset(m->slot, 0, sizeof(uint32_t) * (size_t)nslots);
    m->nslots = nslots;
    for (int64_t i = 0; i < m->n; i++) {
        uint64_t s = hash_key(m->keys + i * m->width, m->width) & (uint64_t)(nslots - 1);
        while (m->slot[s])
            s = (s + 1) & (uint64_t)(nslots - 1);
        m->slot[s] = (uint32_t)(i + 1);
    }
}

/* The weight of `key`, added if new (at 0). */
static mpz_ptr map_at(Map *m, const int64_t *key)
{
    if (2 * (m->n + 1) > m->nslots)
        map_rehash(m, m->nslots ? 2 * m->nslots : 64);
    uint64_t s = hash_key(key, m->width) & (uint64_t)(m->nslots - 1);
    while (m->slot[s]) {
        int64_t i = m->slot[s] - 1;
        if (!memcmp(m->keys + i * m->width, key, sizeof(int64_t) * (size_t)m->width))
            return m->w[i];
        s = (s + 1) & (uint64_t)(m->nslots - 1);
    }
    if (m->n == m->cap) {
        int64_t cap = m->cap ? 2 * m->cap : 64;
        m->keys = mem_realloc(m->keys, sizeof(int64_t) * (size_t)(m->cap * m->width),
                              sizeof(int64_t) * (size_t)(cap * m->width), 1);
        m->w = mem_realloc(m->w, sizeof(mpz_t) * (size_t)m->cap, sizeof(mpz_t) * (size_t)cap, 1);
        m->cap = cap;
    }
    int64_t i = m->n++;
    if (i == m->inited) {
        mpz_init(m->w[i]);
        m->inited++;
    } else {
        mpz_set_ui(m->w[i], 0);
    }
    memcpy(m->keys + i * m->width, key, sizeof(int64_t) * (size_t)m->width);
    m->slot[s] = (uint32_t)(i + 1);
    return m->w[i];
}

/* ---- limits ---- */

static FwStatus spend(FwLimits *lim, uint64_t steps)
{
    uint64_t before = lim->work;
    lim->work += steps;
    if (lim->work > lim->max_work)
        return FW_TOO_BIG;
    if (lim->tick && before / TICK_STEPS != lim->work / TICK_STEPS && !lim->tick(lim->ud))
        return FW_STOPPED;
    return FW_OK;
}

/* ---- answers from a pool's counts ---- */

/* The answer to q of the dice whose counts by slot are count[1..sides],
 * slot f showing val[f] (nondecreasing). */
static void answer_of_counts(const FwQuestion *q, int32_t sides, const int64_t *val, const int64_t *count,
                             int64_t *out)
{
    /* the dice q is about, slot by slot: kept (the kept ones first) and in post */
    int64_t asked[FW_MAX_SIDES + 1] = { 0 }, left = q->keep_n;
    for (int32_t i = 0; i < sides; i++) {
        int32_t f = q->keep < 0 ? i + 1 : sides - i;
        if (!in_set(q->pre, f))
            continue;
        int64_t c = count[f];
        if (q->keep) {
            c = c < left ? c : left;
            left -= c;
            if (!in_set(q->post, f))
                c = 0;
        }
        asked[f] = c;
    }
    int64_t sum = 0, n = 0, hi = FW_NONE, lo = FW_NONE, at = FW_NONE, run = 0;
    bool doubles = false;
    int k = 0;
    for (int32_t f = 1; f <= sides; f++) {
        if (!in_set(q->pre, f))
            continue;
        int64_t c = asked[f];
        if (q->kind == FW_FACES)
            out[k++] = c;
        if (!c)
            continue;
        int64_t v = val[f];
        if (v != at) {
            /* the dice of one value: two of them are doubles, on one slot or two */
            at = v;
            run = 0;
        }
        sum += c * v;
        n += c;
        run += c;
        doubles |= run >= 2;
        hi = v;
        if (lo == FW_NONE)
            lo = v;
    }
    switch (q->kind) {
    case FW_SUM: *out = sum; break;
    case FW_COUNT: *out = n; break;
    case FW_ANY: *out = n > 0; break;
    case FW_MAX: *out = hi; break;
    case FW_MIN: *out = lo; break;
    case FW_DOUBLES: *out = doubles; break;
    }
}

/* ---- the joint distribution, face by face ---- */

/* How a question is followed through the visit: step by step (its answer
 * so far, and how many dice it has kept), or, for the dice themselves and
 * for keeping the other way from the visit, by the count of each face of
 * `pre` (the answer worked out at the end). */
typedef struct Track {
    const FwQuestion *q;
    bool counts;             /* followed by the counts of all the dice of pre */
    int at;                  /* its first number in a state */
    int seen;                /* followed step by step and keeping dice: the number of those seen so far */
    int run;                 /* doubles followed step by step among slots of equal values: whether a die
                                of the value being visited was seen (-1: not followed) */
    int last;                /* the last place in the visit that can change its answer (-1: none) */
} Track;

typedef struct Plan {
    int32_t sides;
    int64_t val[FW_MAX_SIDES + 1];  /* by slot: its value (nondecreasing) */
    bool repeats;            /* some slots share a value */
    int dir;                 /* 1: faces visited lowest first; -1: highest first */
    int nfaces;              /* the faces asked about, in the order visited */
    int32_t face[FW_MAX_SIDES];   /* slots, in fact */
    bool group_end[FW_MAX_SIDES]; /* by place: the next place (if any) has another value */
    int cls_of[FW_MAX_SIDES];     /* by place: the class (its number in a state), or -1 (no dice) */
    int ncls;                /* classes with dice and a face asked about: the state's first numbers */
    int64_t count[FW_MAX_SIDES];  /* by class: its dice */
    int last_of_cls[FW_MAX_SIDES];/* by class: the place of its last face asked about */
    int64_t unasked[FW_MAX_SIDES];/* by class: its faces no question is about */
    int later[FW_MAX_SIDES][FW_MAX_SIDES]; /* [class][place]: its faces asked about visited after the place */
    /* items drawn from a bag instead of dice (fw_joint_of_draw): by slot,
     * the items of it there are (NULL: dice); and by class, the items on
     * its slots no question is about, and on its slots asked about visited
     * after a place */
    const int64_t *cap;
    int64_t unasked_items[FW_MAX_SIDES];
    int64_t later_items[FW_MAX_SIDES][FW_MAX_SIDES];
    int nq;
    Track track[FW_MAX_QUESTIONS];
    int width;               /* of a state */
} Plan;


/* A face's place among the faces of `pre` (a counted question's number). */
static int place_in(uint64_t pre, int32_t f)
{
    return __builtin_popcountll(pre & (((uint64_t)1 << (f - 1)) - 1));
}

static void plan_make(Plan *p, int32_t sides, const int32_t *value, const int64_t *cap, const FwClass *cls,
                      int ncls, const FwQuestion *q, int nq)
{
    memset(p, 0, sizeof *p);
    p->sides = sides;
    p->cap = cap;
    for (int32_t f = 1; f <= sides; f++) {
        p->val[f] = value ? value[f - 1] : f;
        p->repeats |= f > 1 && p->val[f] == p->val[f - 1];
    }
    uint64_t asked = 0;
    p->dir = 1;
    for (int i = 0; i < nq; i++)
        asked |= q[i].pre;
    /* visited in the order the first question that keeps dice keeps them:
     * from the top for the highest, from the bottom for the lowest */
    for (int i = 0; i < nq; i++)
        if (q[i].keep) {
            p->dir = -q[i].keep;
            break;
        }
    /* Questions that care about no order of the dice (sums, counts, the
     * dice themselves) visit the slots class by class, so that one class at
     * a time has dice left to place (a pool of dice of several kinds, whose
     * slots of one value belong to different classes, keeps few states);
     * the others visit them in the order of their values. */
    bool in_order = false;
    for (int i = 0; i < nq; i++)
        in_order |= q[i].keep || q[i].kind == FW_MAX || q[i].kind == FW_MIN || q[i].kind == FW_DOUBLES;
    uint64_t placed = 0;
    if (!in_order)
        for (int c = 0; c < ncls; c++)
            for (uint64_t rest = cls[c].faces & asked & ~placed; rest; rest &= rest - 1) {
                p->face[p->nfaces++] = __builtin_ctzll(rest) + 1;
                placed |= rest & -rest;
            }
    for (int32_t i = 0; i < sides; i++) {
        int32_t f = p->dir > 0 ? i + 1 : sides - i;
        if (in_set(asked & ~placed, f))
            p->face[p->nfaces++] = f;
    }
    for (int t = 0; t < p->nfaces; t++)
        p->group_end[t] = t + 1 == p->nfaces || p->val[p->face[t + 1]] != p->val[p->face[t]];
    /* the classes that matter: with dice and a face asked about */
    int slot_of[FW_MAX_SIDES];
    for (int c = 0; c < ncls; c++) {
        slot_of[c] = -1;
        if (cls[c].count > 0 && (cls[c].faces & asked)) {
            slot_of[c] = p->ncls;
            p->count[p->ncls] = cls[c].count;
            p->unasked[p->ncls] = __builtin_popcountll(cls[c].faces & ~asked);
            for (uint64_t rest = cap ? cls[c].faces & ~asked : 0; rest; rest &= rest - 1)
                p->unasked_items[p->ncls] += cap[__builtin_ctzll(rest)];
            p->ncls++;
        }
    }
    for (int t = 0; t < p->nfaces; t++) {
        p->cls_of[t] = -1;
        for (int c = 0; c < ncls; c++)
            if (in_set(cls[c].faces, p->face[t]))
                p->cls_of[t] = slot_of[c];
        if (p->cls_of[t] >= 0)
            p->last_of_cls[p->cls_of[t]] = t;
    }
    for (int c = 0; c < p->ncls; c++)
        for (int t = 0; t < p->nfaces; t++) {
            int n = 0;
            int64_t items = 0;
            for (int u = t + 1; u < p->nfaces; u++)
                if (p->cls_of[u] == c) {
                    n++;
                    items += cap ? cap[p->face[u] - 1] : 0;
                }
            p->later[c][t] = n;
            p->later_items[c][t] = items;
        }
    p->nq = nq;
    p->width = p->ncls;
    for (int i = 0; i < nq; i++) {
        Track *k = &p->track[i];
        k->q = &q[i];
        k->counts = q[i].keep && q[i].keep != -p->dir;
        k->at = p->width;
        p->width += k->counts ? __builtin_popcountll(q[i].pre) : fw_width(&q[i]);
        k->seen = -1;
        if (!k->counts && q[i].keep)
            k->seen = p->width++;
        k->run = -1;
        if (!k->counts && q[i].kind == FW_DOUBLES && p->repeats)
            k->run = p->width++;
        uint64_t matters = k->counts || !q[i].keep ? q[i].pre : q[i].pre & q[i].post;
        k->last = -1;
        for (int t = 0; t < p->nfaces; t++)
            if (in_set(matters, p->face[t]))
                k->last = t;
    }
}

static void state_start(const Plan *p, int64_t *s)
{
    memset(s, 0, sizeof(int64_t) * (size_t)p->width);
    for (int c = 0; c < p->ncls; c++)
        s[c] = p->count[c];
    for (int i = 0; i < p->nq; i++) {
        const Track *k = &p->track[i];
        if (!k->counts && (k->q->kind == FW_MAX || k->q->kind == FW_MIN))
            s[k->at] = FW_NONE;
    }
}

/* j dice show slot f (at place t): question k's state moves on. */
static void track_see(const Plan *p, const Track *k, int64_t *s, int32_t f, int64_t j)
{
    const FwQuestion *q = k->q;
    if (k->counts) {
        s[k->at + place_in(q->pre, f)] = j;
        return;
    }
    int64_t c = j;
    if (q->keep) {
        int64_t *seen = &s[k->seen], room = q->keep_n - *seen;
        c = c < room ? c : room;
        *seen += c;
        if (!in_set(q->post, f))
            c = 0;
    }
    if (q->kind == FW_FACES) {
        s[k->at + place_in(q->pre, f)] = c;
        return;
    }
    if (!c)
        return;
    int64_t *v = &s[k->at], x = p->val[f];
    switch (q->kind) {
    case FW_SUM: *v += c * x; break;
    case FW_COUNT: *v += c; break;
    case FW_ANY: *v = 1; break;
    case FW_DOUBLES:
        if (k->run < 0) {
            *v |= c >= 2;
        } else {
            /* two dice of one value, on this slot or with one before it of the same value */
            *v |= c >= 2 || s[k->run];
            s[k->run] = !*v;
        }
        break;
    case FW_MAX: if (p->dir > 0 || *v == FW_NONE) *v = x; break;
    case FW_MIN: if (p->dir < 0 || *v == FW_NONE) *v = x; break;
    }
}

/* j dice show slot f (at place t): every question's state moves on. */
static void state_see(const Plan *p, int64_t *s, int t, int64_t j)
{
    int32_t f = p->face[t];
    for (int i = 0; i < p->nq; i++) {
        const Track *k = &p->track[i];
        if (in_set(k->q->pre, f))
            track_see(p, k, s, f, j);
        if (k->run >= 0 && p->group_end[t])
            s[k->run] = 0;   /* the next slot has another value */
    }
}

/* Is every answer settled once place t is visited? */
static bool state_settled(const Plan *p, const int64_t *s, int t)
{
    for (int i = 0; i < p->nq; i++) {
        const Track *k = &p->track[i];
        if (t >= k->last)
            continue;
        if (k->counts)
            return false;
        const FwQuestion *q = k->q;
        int64_t v = s[k->at];
        if (q->keep && s[k->seen] >= q->keep_n)
            continue;
        if (q->kind == FW_FACES)
            return false;
        if ((q->kind == FW_ANY || q->kind == FW_DOUBLES) && v == 1)
            continue;
        if (q->kind == FW_MAX && p->dir < 0 && v != FW_NONE)
            continue;
        if (q->kind == FW_MIN && p->dir > 0 && v != FW_NONE)
            continue;
        return false;
    }
    return true;
}

/* The answers of a state at the end of the visit. */
static void state_answers(const Plan *p, const int64_t *s, const int *offset, int64_t *vals)
{
    for (int i = 0; i < p->nq; i++) {
        const Track *k = &p->track[i];
        if (!k->counts) {
            memcpy(vals + offset[i], s + k->at, sizeof(int64_t) * (size_t)fw_width(k->q));
            continue;
        }
        int64_t count[FW_MAX_SIDES + 1] = { 0 };
        for (int32_t f = 1; f <= p->sides; f++)
            if (in_set(k->q->pre, f))
                count[f] = s[k->at + place_in(k->q->pre, f)];
        answer_of_counts(k->q, p->sides, p->val, count, vals + offset[i]);
    }
}

static int cmp_width;
static int entry_cmp(const void *a, const void *b)
{
    const int64_t *x = ((const FwEntry *)a)->vals, *y = ((const FwEntry *)b)->vals;
    for (int i = 0; i < cmp_width; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* The joint's entries from a map of answers to weights, sorted. */
static FwJoint *joint_of(Map *answers, int nq, const int *offset)
{
    FwJoint *j = mem_alloc(sizeof *j);
    j->nq = nq;
    j->width = answers->width;
    j->offset = mem_alloc_atomic(sizeof(int) * (size_t)(nq + 1));
    memcpy(j->offset, offset, sizeof(int) * (size_t)(nq + 1));
    j->e = mem_alloc(sizeof(FwEntry) * (size_t)(answers->n ? answers->n : 1));
    int64_t *vals = mem_alloc_atomic(sizeof(int64_t) * (size_t)(answers->n * j->width + 1));
    for (int64_t i = 0; i < answers->n; i++) {
        if (mpz_sgn(answers->w[i]) == 0)
            continue;
        FwEntry *e = &j->e[j->n++];
        e->vals = vals + i * j->width;
        memcpy(e->vals, answers->keys + i * j->width, sizeof(int64_t) * (size_t)j->width);
        mpz_init_set(e->w, answers->w[i]);
    }
    cmp_width = j->width;
    qsort(j->e, (size_t)j->n, sizeof(FwEntry), entry_cmp);
    return j;
}

/* The joint of one question whose answers are the totals low, low + 1,
 * ... with the ways w[0..n) (those of no way left out). */
static FwJoint *joint_of_totals(mpz_t *w, int64_t n, int64_t low)
{
    Map m;
    map_init(&m, 1);
    for (int64_t i = 0; i < n; i++)
        if (mpz_sgn(w[i])) {
            int64_t v = low + i;
            mpz_set(map_at(&m, &v), w[i]);
        }
    int offset[2] = { 0, 1 };
    FwJoint *j = joint_of(&m, 1, offset);
    map_free(&m);
    return j;
}

void fw_joint_free(FwJoint *j)
{
    if (!j)
        return;
    for (int64_t i = 0; i < j->n; i++)
        mpz_clear(j->e[i].w);
    j->e = NULL;
    j->n = 0;
}

/* b = a^k for a polynomial a[0..d] with a[0] > 0, by the recurrence
 * b[t] = sum over i of ((k+1) i - t) a[i] b[t-i], over t a[0] (J. C. P.
 * Miller's, for the powers of a power series): k d + 1 coefficients, each
 * from the at most d terms of a before it that are not 0, and the division
 * is exact. */
static FwStatus poly_pow(const int64_t *a, int d, int64_t k, mpz_t *b, FwLimits *lim)
{
    int64_t len = k * d + 1;
    int nz[FW_MAX_SIDES + 1], nnz = 0;   /* the i >= 1 with a[i] != 0: at most a die's slots */
    for (int i = 1; i <= d; i++)
        if (a[i])
            nz[nnz++] = i;
    mpz_ui_pow_ui(b[0], (unsigned long)a[0], (unsigned long)k);
    for (int64_t t = 1; t < len; t++) {
        mpz_set_ui(b[t], 0);
        for (int m = 0; m < nnz && nz[m] <= t; m++) {
            int i = nz[m];
            int64_t c = ((k + 1) * i - t) * a[i];
            if (c > 0)
                mpz_addmul_ui(b[t], b[t - i], (unsigned long)c);
            else if (c < 0)
                mpz_submul_ui(b[t], b[t - i], (unsigned long)-c);
        }
        mpz_divexact_ui(b[t], b[t], (unsigned long)(t * a[0]));
        if ((t & 255) == 0) {
            FwStatus st = spend(lim, 256 * (uint64_t)(nnz ? nnz : 1));
            if (st != FW_OK)
                return st;
        }
    }
    return FW_OK;
}

static mpz_t *poly_new(int64_t len)
{
    mpz_t *p = mem_alloc_atomic(sizeof(mpz_t) * (size_t)len);
    for (int64_t i = 0; i < len; i++)
        mpz_init(p[i]);
    return p;
}

static void poly_free(mpz_t *p, int64_t len)
{
    for (int64_t i = 0; i < len; i++)
        mpz_clear(p[i]);
}

/* A die's polynomial in sum_alone may span at most this many values
 * (wider value maps take the general path). */
#define SUM_ALONE_SPAN 4096

/* The values of the classes' dice in sum_alone span at most SUM_ALONE_SPAN each. */
static bool sum_alone_fits(const int64_t *val, const FwClass *cls, int ncls, const FwQuestion *q)
{
    for (int c = 0; c < ncls; c++) {
        uint64_t in = cls[c].faces & q->pre;
        if (cls[c].count <= 0 || !in)
            continue;
        int64_t low = val[__builtin_ctzll(in) + 1], high = val[64 - __builtin_clzll(in)];
        if (cls[c].faces & ~q->pre) {
            low = low < 0 ? low : 0;
            high = high > 0 ? high : 0;
        }
        if (high - low > SUM_ALONE_SPAN)
            return false;
    }
    return true;
}

/* The distribution of a lone sum of the dice of pre (none kept): each
 * class's dice are alike and independent, so the sum's polynomial is the
 * product over the classes of (the values of its slots in pre as exponents,
 * with its other slots at 0) to the power of its dice. */
static FwStatus sum_alone(const int64_t *val, const FwClass *cls, int ncls, const FwQuestion *q, FwLimits *lim,
                          FwJoint **out)
{
    mpz_t *acc = poly_new(1);
    int64_t acc_len = 1, acc_low = 0;   /* acc[i] is the weight of the sum acc_low + i */
    mpz_set_ui(acc[0], 1);
    int64_t *a = mem_alloc_atomic(sizeof(int64_t) * (SUM_ALONE_SPAN + 1));
    FwStatus st = FW_OK;
    for (int c = 0; c < ncls && st == FW_OK; c++) {
        uint64_t in = cls[c].faces & q->pre;
        if (cls[c].count <= 0 || !in)
            continue;
        int64_t k = cls[c].count, out_faces = __builtin_popcountll(cls[c].faces & ~q->pre);
        /* the die's polynomial x^low (a[0] + a[1] x + ... + a[d] x^d), a[0] > 0
         * (slots in order have their values in order) */
        int64_t low = val[__builtin_ctzll(in) + 1], high = val[64 - __builtin_clzll(in)];
        if (out_faces) {
            low = low < 0 ? low : 0;
            high = high > 0 ? high : 0;
        }
        int d = (int)(high - low);
        memset(a, 0, sizeof(int64_t) * (size_t)(d + 1));
        if (out_faces)
            a[-low] += out_faces;
        for (int32_t f = 1; f <= FW_MAX_SIDES; f++)
            if (in_set(in, f))
                a[val[f] - low] += 1;
        int64_t len = k * d + 1;
        mpz_t *pw = poly_new(len);
        st = poly_pow(a, d, k, pw, lim);
        if (st == FW_OK)
            st = spend(lim, (uint64_t)(acc_len * len));
        if (st == FW_OK) {
            mpz_t *prod = poly_new(acc_len + len - 1);
            for (int64_t i = 0; i < acc_len; i++)
                if (mpz_sgn(acc[i]))
                    for (int64_t t = 0; t < len; t++)
                        mpz_addmul(prod[i + t], acc[i], pw[t]);
            poly_free(acc, acc_len);
            acc = prod;
            acc_len += len - 1;
            acc_low += k * low;
        }
        poly_free(pw, len);
    }
    if (st == FW_OK)
        *out = joint_of_totals(acc, acc_len, acc_low);
    poly_free(acc, acc_len);
    return st;
}

/* The ways the k dice (items) left of a class may show its faces, of which
 * there are `faces` (holding `items` items): faces^k orders for dice,
 * C(items, k) sets for a draw (0 when too few). */
static void ways_left(const Plan *p, mpz_ptr out, int64_t faces, int64_t items, int64_t k)
{
    if (p->cap)
        mpz_bin_uiui(out, (unsigned long)items, (unsigned long)k);
    else
        mpz_ui_pow_ui(out, (unsigned long)faces, (unsigned long)k);
}

static FwStatus joint_work(int32_t sides, const int32_t *value, const int64_t *cap, const FwClass *cls, int ncls,
                           const FwQuestion *q, int nq, FwLimits *lim, FwJoint **out);

FwStatus fw_joint(int32_t sides, const int32_t *value, const FwClass *cls, int ncls, const FwQuestion *q, int nq,
                  FwLimits *lim, FwJoint **out)
{
    return joint_work(sides, value, NULL, cls, ncls, q, nq, lim, out);
}

FwStatus fw_joint_of_draw(int32_t sides, const int32_t *value, const int64_t *cap, int64_t n, const FwQuestion *q,
                          int nq, FwLimits *lim, FwJoint **out)
{
    FwClass all = { sides >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << sides) - 1, n };
    return joint_work(sides, value, cap, &all, 1, q, nq, lim, out);
}

static FwStatus joint_work(int32_t sides, const int32_t *value, const int64_t *cap, const FwClass *cls, int ncls,
                           const FwQuestion *q, int nq, FwLimits *lim, FwJoint **out)
{
    *out = NULL;
    if (nq == 1 && q[0].kind == FW_SUM && !q[0].keep && !cap) {
        int64_t val[FW_MAX_SIDES + 1] = { 0 };
        for (int32_t f = 1; f <= sides; f++)
            val[f] = value ? value[f - 1] : f;
        if (sum_alone_fits(val, cls, ncls, q))
            return sum_alone(val, cls, ncls, q, lim, out);
    }
    Plan *p = mem_alloc_atomic(sizeof *p);
    if (nq > (int)(sizeof p->track / sizeof p->track[0]))
        return FW_TOO_BIG;
    plan_make(p, sides, value, cap, cls, ncls, q, nq);
    int offset[sizeof p->track / sizeof p->track[0] + 1];
    offset[0] = 0;
    for (int i = 0; i < nq; i++)
        offset[i + 1] = offset[i] + fw_width(&q[i]);
    int W = p->width;
    Map cur, next;
    map_init(&cur, W);
    map_init(&next, W);
    int64_t *s = mem_alloc_atomic(sizeof(int64_t) * (size_t)(W + 1));
    state_start(p, s);
    mpz_set_ui(map_at(&cur, s), 1);
    mpz_t binom, f, power;
    /* room for a few limbs from the start: no reallocation as the weights grow */
    mpz_init2(binom, 512);
    mpz_init2(f, 512);
    mpz_init2(power, 512);
    FwStatus st = FW_OK;
    for (int t = 0; t < p->nfaces && st == FW_OK; t++) {
        int c = p->cls_of[t];
        bool last = c >= 0 && p->last_of_cls[c] == t;
        map_reset(&next);
        for (int64_t i = 0; i < cur.n && st == FW_OK; i++) {
            const int64_t *from = cur.keys + i * W;
            int64_t r = c >= 0 ? from[c] : 0;
            /* at its last face asked about, a class with no other faces
             * puts all its dice left there */
            int64_t j0 = last && p->unasked[c] == 0 ? r : 0;
            /* a draw: no more of a kind than the bag holds; the ways are the
             * sets of j of its items, C(cap, j) */
            int64_t most = cap && c >= 0 && r > cap[p->face[t] - 1] ? cap[p->face[t] - 1] : r;
            if (cap && c >= 0)
                mpz_bin_uiui(binom, (unsigned long)cap[p->face[t] - 1], (unsigned long)j0);
            else
                mpz_set_ui(binom, 1);
            st = spend(lim, (uint64_t)(r - j0 + 1));
            for (int64_t j = j0; j <= most && st == FW_OK; j++) {
                memcpy(s, from, sizeof(int64_t) * (size_t)W);
                mpz_set(f, binom);
                if (c >= 0) {
                    s[c] = r - j;
                    if (last && p->unasked[c] && r > j) {
                        /* the dice left go to the faces nobody asks about */
                        ways_left(p, power, p->unasked[c], p->unasked_items[c], r - j);
                        mpz_mul(f, f, power);
                    }
                    if (last)
                        s[c] = 0;
                }
                state_see(p, s, t, j);
                if (state_settled(p, s, t)) {
                    /* every answer is known: the dice not placed yet may show
                     * any face left to them */
                    for (int k = 0; k < p->ncls; k++)
                        if (s[k] > 0) {
                            ways_left(p, power, p->unasked[k] + p->later[k][t],
                                      p->unasked_items[k] + p->later_items[k][t], s[k]);
                            mpz_mul(f, f, power);
                            s[k] = 0;
                        }
                }
                if (mpz_sgn(f))
                    mpz_addmul(map_at(&next, s), cur.w[i], f);
                /* C(r, j+1) = C(r, j) (r - j) / (j + 1), and so for C(cap, j) */
                int64_t from_n = cap && c >= 0 ? cap[p->face[t] - 1] : r;
                mpz_mul_ui(binom, binom, (unsigned long)(from_n - j));
                mpz_divexact_ui(binom, binom, (unsigned long)(j + 1));
            }
        }
        Map tmp = cur;
        cur = next;
        next = tmp;
    }
    if (st == FW_OK) {
        Map answers;
        map_init(&answers, offset[nq]);
        int64_t *vals = mem_alloc_atomic(sizeof(int64_t) * (size_t)(offset[nq] + 1));
        for (int64_t i = 0; i < cur.n; i++) {
            state_answers(p, cur.keys + i * W, offset, vals);
            mpz_ptr w = map_at(&answers, vals);
            mpz_add(w, w, cur.w[i]);
        }
        *out = joint_of(&answers, nq, offset);
        map_free(&answers);
    }
    mpz_clears(binom, f, power, NULL);
    map_free(&cur);
    map_free(&next);
    return st;
}

void fw_range(const FwJoint *j, const int64_t *prefix, int width, int64_t *lo, int64_t *hi)
{
    /* the first entry not below the prefix, then the first above it */
    for (int pass = 0; pass < 2; pass++) {
        int64_t a = 0, b = j->n;
        while (a < b) {
            int64_t mid = a + (b - a) / 2;
            const int64_t *v = j->e[mid].vals;
            int c = 0;
            for (int i = 0; i < width && !c; i++)
                c = v[i] < prefix[i] ? -1 : v[i] > prefix[i] ? 1 : 0;
            if (c < 0 || (pass == 1 && c == 0))
                a = mid + 1;
            else
                b = mid;
        }
        *(pass ? hi : lo) = a;
    }
}

/* ---- the cache ---- */

typedef struct CacheItem {
    uint64_t *key;
    int len;
    FwJoint *joint;
    struct CacheItem *next;
} CacheItem;

#define CACHE_BUCKETS 1024
#define DRAW_KEY_KINDS 64   /* the kinds of a bag, at most (DIE_MAX_FACES) */

struct FwCache {
    CacheItem *bucket[CACHE_BUCKETS];
};

FwCache *fw_cache_new(void)
{
    return mem_alloc(sizeof(FwCache));
}

void fw_cache_free(FwCache *c)
{
    if (!c)
        return;
    for (int b = 0; b < CACHE_BUCKETS; b++)
        for (CacheItem *it = c->bucket[b]; it; it = it->next)
            fw_joint_free(it->joint);
    memset(c, 0, sizeof *c);
}

static FwJoint *cache_find(const FwCache *c, const uint64_t *key, int len)
{
    uint64_t h = hash_key((const int64_t *)key, len) % CACHE_BUCKETS;
    for (CacheItem *it = c->bucket[h]; it; it = it->next)
        if (it->len == len && !memcmp(it->key, key, sizeof(uint64_t) * (size_t)len))
            return it->joint;
    return NULL;
}

static void cache_put(FwCache *c, const uint64_t *key, int len, FwJoint *j)
{
    uint64_t h = hash_key((const int64_t *)key, len) % CACHE_BUCKETS;
    CacheItem *it = mem_alloc(sizeof *it);
    it->key = mem_alloc_atomic(sizeof(uint64_t) * (size_t)len);
    memcpy(it->key, key, sizeof(uint64_t) * (size_t)len);
    it->len = len;
    it->joint = j;
    it->next = c->bucket[h];
    c->bucket[h] = it;
}

FwStatus fw_cache_joint(FwCache *c, int32_t sides, const int32_t *value, const int64_t *cap, const FwClass *cls,
                        int ncls, const FwQuestion *q, int nq, FwLimits *lim, const FwJoint **out)
{
    /* the key: the slots and their values (when not the slots' own numbers)
     * and items (a draw), the classes with dice, the questions */
    uint64_t key[2 + 2 * FW_MAX_SIDES + 2 * FW_MAX_SIDES + 1 + 5 * FW_MAX_QUESTIONS];
    int len = 0;
    if (nq > FW_MAX_QUESTIONS)
        return FW_TOO_BIG;
    key[len++] = (uint64_t)sides | (value ? (uint64_t)1 << 32 : 0) | (cap ? (uint64_t)1 << 33 : 0);
    if (value)
        for (int32_t f = 0; f < sides; f++)
            key[len++] = (uint64_t)(int64_t)value[f];
    if (cap)
        for (int32_t f = 0; f < sides; f++)
            key[len++] = (uint64_t)cap[f];
    for (int i = 0; i < ncls; i++)
        if (cls[i].count > 0) {
            key[len++] = cls[i].faces;
            key[len++] = (uint64_t)cls[i].count;
        }
    key[len++] = (uint64_t)nq << 32 | 0xfeedu;
    for (int i = 0; i < nq; i++) {
        key[len++] = (uint64_t)q[i].kind;
        key[len++] = (uint64_t)(int64_t)q[i].keep;
        key[len++] = (uint64_t)q[i].keep_n;
        key[len++] = q[i].pre;
        key[len++] = q[i].post;
    }
    if ((*out = cache_find(c, key, len)))
        return FW_OK;
    FwJoint *j;
    FwStatus st = joint_work(sides, value, cap, cls, ncls, q, nq, lim, &j);
    if (st != FW_OK)
        return st;
    cache_put(c, key, len, j);
    *out = j;
    return FW_OK;
}

FwStatus fw_sum_of_dice(int64_t n, int64_t sides, FwLimits *lim, FwJoint **out)
{
    /* the ways of each total, from n (all ones) up: each die added by a
     * window of `sides` over the ways before */
    int64_t span = n * (sides - 1) + 1;
    mpz_t *ways = mem_alloc(sizeof(mpz_t) * (size_t)span), *next = mem_alloc(sizeof(mpz_t) * (size_t)span);
    for (int64_t i = 0; i < span; i++)
        mpz_inits(ways[i], next[i], NULL);
    mpz_set_ui(ways[0], 1);
    mpz_t window;
    mpz_init(window);
    FwStatus st = FW_OK;
    for (int64_t k = 1; k <= n && st == FW_OK; k++) {
        int64_t width = (k - 1) * (sides - 1) + 1;   /* of the totals of k - 1 dice */
        st = spend(lim, (uint64_t)(width + sides));
        mpz_set_ui(window, 0);
        for (int64_t t = 0; t < width + sides - 1 && st == FW_OK; t++) {
            if (t < width)
                mpz_add(window, window, ways[t]);
            if (t - sides >= 0)
                mpz_sub(window, window, ways[t - sides]);
            mpz_set(next[t], window);
        }
        mpz_t *tmp = ways;
        ways = next;
        next = tmp;
    }
    if (st == FW_OK) {
        FwJoint *j = mem_alloc(sizeof *j);
        j->nq = 1;
        j->width = 1;
        j->offset = mem_alloc_atomic(sizeof(int) * 2);
        j->offset[0] = 0;
        j->offset[1] = 1;
        j->e = mem_alloc(sizeof(FwEntry) * (size_t)span);
        int64_t *vals = mem_alloc_atomic(sizeof(int64_t) * (size_t)span);
        for (int64_t i = 0; i < span; i++) {
            FwEntry *e = &j->e[j->n++];
            e->vals = vals + i;
            vals[i] = n + i;
            mpz_init_set(e->w, ways[i]);
        }
        *out = j;
    }
    for (int64_t i = 0; i < span; i++)
        mpz_clears(ways[i], next[i], NULL);
    mpz_clear(window);
    return st;
}

FwStatus fw_sum_of_draw(int32_t kinds, const int32_t *value, const int64_t *left, int64_t n, FwLimits *lim,
                        FwJoint **out)
{
    /* kind by kind, how many items of it are drawn (C(left, j) ways for j),
     * the state (items drawn so far, their total); equal states merge */
    int64_t later = 0;       /* items of the kinds not visited yet */
    for (int32_t k = 0; k < kinds; k++)
        later += left[k];
    Map cur, next;
    map_init(&cur, 2);
    map_init(&next, 2);
    int64_t key[2] = { 0, 0 };
    mpz_set_ui(map_at(&cur, key), 1);
    mpz_t binom;
    mpz_init(binom);
    FwStatus st = FW_OK;
    for (int32_t k = 0; k < kinds && st == FW_OK; k++) {
        later -= left[k];
        map_reset(&next);
        for (int64_t i = 0; i < cur.n && st == FW_OK; i++) {
            int64_t t = cur.keys[2 * i], sum = cur.keys[2 * i + 1];
            int64_t most = left[k] < n - t ? left[k] : n - t;
            st = spend(lim, (uint64_t)most + 1);
            mpz_set_ui(binom, 1);
            for (int64_t j = 0; j <= most; j++) {
                if (t + j + later >= n) {   /* (else n can no longer be reached) */
                    key[0] = t + j;
                    key[1] = sum + j * value[k];
                    mpz_addmul(map_at(&next, key), cur.w[i], binom);
                }
                mpz_mul_ui(binom, binom, (unsigned long)(left[k] - j));
                mpz_divexact_ui(binom, binom, (unsigned long)(j + 1));
            }
        }
        Map tmp = cur;
        cur = next;
        next = tmp;
    }
    if (st == FW_OK) {
        Map answers;
        map_init(&answers, 1);
        for (int64_t i = 0; i < cur.n; i++)
            if (cur.keys[2 * i] == n) {
                mpz_ptr w = map_at(&answers, &cur.keys[2 * i + 1]);
                mpz_add(w, w, cur.w[i]);
            }
        int offset[2] = { 0, 1 };
        *out = joint_of(&answers, 1, offset);
        map_free(&answers);
    }
    mpz_clear(binom);
    map_free(&cur);
    map_free(&next);
    return st;
}

FwStatus fw_cache_sum_of_draw(FwCache *c, int32_t kinds, const int32_t *value, const int64_t *left, int64_t n,
                              FwLimits *lim, const FwJoint **out)
{
    uint64_t key[2 + 2 * DRAW_KEY_KINDS];
    int len = 0;
    key[len++] = (uint64_t)0xd4a3ULL << 48 | (uint64_t)(uint32_t)kinds;
    key[len++] = (uint64_t)n;
    for (int32_t k = 0; k < kinds; k++) {
        key[len++] = (uint64_t)(int64_t)value[k];
        key[len++] = (uint64_t)left[k];
    }
    if ((*out = cache_find(c, key, len)))
        return FW_OK;
    FwJoint *j;
    FwStatus st = fw_sum_of_draw(kinds, value, left, n, lim, &j);
    if (st != FW_OK)
        return st;
    cache_put(c, key, len, j);
    *out = j;
    return FW_OK;
}

FwStatus fw_cache_sum_of_dice(FwCache *c, int64_t n, int64_t sides, FwLimits *lim, const FwJoint **out)
{
    uint64_t key[3] = { 0x5a3dd1ceULL << 32, (uint64_t)n, (uint64_t)sides };
    if ((*out = cache_find(c, key, 3)))
        return FW_OK;
    FwJoint *j;
    FwStatus st = fw_sum_of_dice(n, sides, lim, &j);
    if (st != FW_OK)
        return st;
    cache_put(c, key, 3, j);
    *out = j;
    return FW_OK;
}

/* The ways of each total of the dice so far (ways[0..*width), from the
 * least), one die more of the runs of k: the new ways of a total are, for
 * each run, a window of the old ones, added up from their running sums. */
static FwStatus add_die_of_runs(const FwRuns *k, mpz_t *ways, mpz_t *pre, int64_t *width, FwLimits *lim)
{
    int64_t m = k->lo[0], grown = *width + k->hi[k->nrun - 1] - m;
    FwStatus st = spend(lim, (uint64_t)(*width + grown * k->nrun));
    if (st != FW_OK)
        return st;
    mpz_set_ui(pre[0], 0);
    for (int64_t i = 0; i < *width; i++)
        mpz_add(pre[i + 1], pre[i], ways[i]);
    for (int64_t t = 0; t < grown; t++) {
        mpz_set_ui(ways[t], 0);
        for (int i = 0; i < k->nrun; i++) {
            /* the old totals t - (v - m) for v in the run */
            int64_t a = t - (k->hi[i] - m), b = t - (k->lo[i] - m);
            a = a < 0 ? 0 : a;
            b = b > *width - 1 ? *width - 1 : b;
            if (a <= b) {
                mpz_add(ways[t], ways[t], pre[b + 1]);
                mpz_sub(ways[t], ways[t], pre[a]);
            }
        }
    }
    *width = grown;
    return FW_OK;
}

FwStatus fw_sum_of_runs(const FwRuns *kinds, int nk, FwLimits *lim, FwJoint **out)
{
    int64_t span = 1, least = 0;
    for (int k = 0; k < nk; k++) {
        span += kinds[k].count * (kinds[k].hi[kinds[k].nrun - 1] - kinds[k].lo[0]);
        least += kinds[k].count * kinds[k].lo[0];
    }
    FwStatus st = spend(lim, (uint64_t)span);
    if (st != FW_OK)
        return st;
    mpz_t *ways = mem_alloc(sizeof(mpz_t) * (size_t)span), *pre = mem_alloc(sizeof(mpz_t) * (size_t)(span + 1));
    for (int64_t i = 0; i < span; i++)
        mpz_inits(ways[i], pre[i], NULL);
    mpz_init(pre[span]);
    mpz_set_ui(ways[0], 1);
    int64_t width = 1;
    for (int k = 0; k < nk && st == FW_OK; k++)
        for (int64_t j = 0; j < kinds[k].count && st == FW_OK; j++)
            st = add_die_of_runs(&kinds[k], ways, pre, &width, lim);
    if (st == FW_OK)
        *out = joint_of_totals(ways, width, least);
    for (int64_t i = 0; i < span; i++)
        mpz_clears(ways[i], pre[i], NULL);
    mpz_clear(pre[span]);
    return st;
}

FwStatus fw_cache_sum_of_runs(FwCache *c, const FwRuns *kinds, int nk, FwLimits *lim, const FwJoint **out)
{
    int len = 2;
    for (int k = 0; k < nk; k++)
        len += 2 + 2 * kinds[k].nrun;
    uint64_t *key = mem_alloc_atomic(sizeof(uint64_t) * (size_t)len);
    int at = 0;
    key[at++] = (uint64_t)0x7275e5ULL << 40;
    key[at++] = (uint64_t)nk;
    for (int k = 0; k < nk; k++) {
        key[at++] = (uint64_t)kinds[k].count;
        key[at++] = (uint64_t)kinds[k].nrun;
        for (int i = 0; i < kinds[k].nrun; i++) {
            key[at++] = (uint64_t)kinds[k].lo[i];
            key[at++] = (uint64_t)kinds[k].hi[i];
        }
    }
    if ((*out = cache_find(c, key, len)))
        return FW_OK;
    FwJoint *j;
    FwStatus st = fw_sum_of_runs(kinds, nk, lim, &j);
    if (st != FW_OK)
        return st;
    cache_put(c, key, len, j);
    *out = j;
    return FW_OK;
}
