/* decide.c — the exact engine's decisions: a path's choices, their weights
 * and the next choice; the dice source that chooses instead of drawing. */
#include "config.h"
#include "vm/engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- decisions ---- */

/* A pool's numerator: the n! / (c1! ... cs!) orderings of its multiset,
 * from the runs of equal faces (work in n, not in the sides). */
static void weigh_orders(Decision *d)
{
    mpz_fac_ui(d->own_num, (unsigned long)d->n);
    mpz_t f;
    mpz_init(f);
    for (int64_t i = 0; i < d->n;) {
        int64_t j = i + 1;
        while (j < d->n && d->face[j] == d->face[i])
            j++;
        if (j - i > 1) {
            mpz_fac_ui(f, (unsigned long)(j - i));
            mpz_divexact(d->own_num, d->own_num, f);
        }
        i = j;
    }
    mpz_clear(f);
}

/* A draw's probability: the combinations that give it, the product of
 * C(left, taken) over the kinds, out of C(total left, n). */
static void weigh_draw(Decision *d)
{
    mpz_t c;
    mpz_init(c);
    int64_t total = 0;
    mpz_set_ui(d->own_num, 1);
    for (int32_t k = 0; k < d->kinds; k++) {
        total += d->left[k];
        mpz_bin_uiui(c, (unsigned long)d->left[k], (unsigned long)d->taken[k]);
        mpz_mul(d->own_num, d->own_num, c);
    }
    if (!d->given_sum)
        mpz_bin_uiui(d->own_den, (unsigned long)total, (unsigned long)d->n);
    mpz_clear(c);
}

/* The values' total of a draw's combination (given_sum draws). */
static int64_t draw_total(const Decision *d)
{
    int64_t t = 0;
    for (int32_t k = 0; k < d->kinds; k++)
        t += d->taken[k] * d->values[k];
    return t;
}

/* The first combination of a draw: as many as there are of the first
 * kind, then of the next, and so on. */
static void draw_first(Decision *d)
{
    int64_t r = d->n;
    for (int32_t k = 0; k < d->kinds; k++) {
        d->taken[k] = r < d->left[k] ? r : d->left[k];
        r -= d->taken[k];
    }
}

/* The next combination (fewer of an earlier kind, the rest again as many
 * of each next kind as there are): false after the last. */
static bool draw_next(Decision *d)
{
    int64_t room = 0;   /* places left in the kinds after i */
    for (int32_t i = d->kinds - 2; i >= 0; i--) {
        room += d->left[i + 1] - d->taken[i + 1];
        if (d->taken[i] > 0 && room > 0) {
            d->taken[i]--;
            int64_t r = 1;
            for (int32_t k = i + 1; k < d->kinds; k++)
                r += d->taken[k];
            for (int32_t k = i + 1; k < d->kinds; k++) {
                d->taken[k] = r < d->left[k] ? r : d->left[k];
                r -= d->taken[k];
            }
            return true;
        }
    }
    return false;
}

/* The decision's own probability, own_num / own_den: a new decision, or a
 * DIST moved to its next option.  A pool or a split moves by its numerator
 * alone (advance). */
void decide_weigh_own(Decision *d)
{
    if (d->kind == DEC_POOL) {
        /* orderings of the multiset, out of s^n */
        weigh_orders(d);
        if (!d->given_sum)
            mpz_ui_pow_ui(d->own_den, (unsigned long)d->sides, (unsigned long)d->n);
    } else if (d->kind == DEC_SPLIT) {
        /* C(k, j) a^j b^(k-j) / (a+b)^k, here for j = 0 */
        mpz_ui_pow_ui(d->own_num, (unsigned long)d->other, (unsigned long)d->n);
        mpz_ui_pow_ui(d->own_den, (unsigned long)(d->sides + d->other), (unsigned long)d->n);
    } else if (d->kind == DEC_VALUE) {
        /* the entry's weight out of those that agree with the answers before */
        mpz_set(d->own_num, d->joint->e[d->index].w);
    } else if (d->kind == DEC_DRAW) {
        weigh_draw(d);
    } else {
        const ExactResult *r = &d->dist->r;
        const mpq_t *q = d->index < r->n ? &r->outcomes[d->index].p : d->index == r->n ? &r->not_given : &r->dropped;
        mpz_set(d->own_num, mpq_numref(*q));
        mpz_set(d->own_den, mpq_denref(*q));
    }
}

/* The path's weight up to decision k: the weight before it times its own
 * (numerator, and the denominator too when `den` is set). */
void decide_weigh_path(Engine *e, int k, bool den)
{
    Decision *d = &e->path[k];
    if (k == 0) {
        mpz_set(d->num, d->own_num);
        if (den)
            mpz_set(d->den, d->own_den);
    } else {
        mpz_mul(d->num, e->path[k - 1].num, d->own_num);
        if (den)
            mpz_mul(d->den, e->path[k - 1].den, d->own_den);
    }
}

void decide_weigh(Engine *e, int k)
{
    decide_weigh_own(&e->path[k]);
    decide_weigh_path(e, k, true);
}

Decision *decide_push(Engine *e)
{
    if (e->len == e->cap) {
        /* the numbers of a slot are set up once and kept for the whole count */
        int cap = e->cap ? e->cap * 2 : 16;
        Decision *p = mem_alloc(sizeof(Decision) * (size_t)cap);
        if (e->len)
            memcpy(p, e->path, sizeof(Decision) * (size_t)e->len);
        for (int i = e->cap; i < cap; i++)
            mpz_inits(p[i].own_num, p[i].own_den, p[i].num, p[i].den, NULL);
        e->path = p;
        e->cap = cap;
    }
    if (e->merger) {
        /* the state waiting, if any, is where the paths below this decision begin */
        static mpz_t one;
        if (!e->len && !mpz_size(one))
            mpz_init_set_ui(one, 1);
        merger_decision(e->merger, e->len, e->len ? e->path[e->len - 1].num : one,
                        e->len ? e->path[e->len - 1].den : one);
    }
    Decision *d = &e->path[e->len++];
    d->face = NULL;
    d->dist = NULL;
    d->left = d->taken = NULL;
    d->index = 0;
    return d;
}

/* The DIST options with no probability are skipped; true if d points at one. */
bool decide_dist_option_empty(const Decision *d)
{
    const ExactResult *r = &d->dist->r;
    if (d->index < r->n)
        return mpq_sgn(r->outcomes[d->index].p) == 0;
    if (d->index == r->n)
        return mpq_sgn(r->not_given) == 0;
    return mpq_sgn(r->dropped) == 0;
}

int decide_dist(Engine *e, const Dist *dist, int64_t *option)
{
    Decision *d;
    if (e->depth < e->len) {
        d = &e->path[e->depth];
        if (d->kind != DEC_DIST || d->dist != dist)
            return decide_rolled_differently(e->vm->error, sizeof e->vm->error);
    } else {
        d = decide_push(e);
        d->kind = DEC_DIST;
        d->dist = dist;
        d->index = 0;
        while (d->index < dist->r.n + 2 && decide_dist_option_empty(d))
            d->index++;
        decide_weigh(e, e->len - 1);
    }
    e->depth++;
    *option = d->index;
    return 0;
}

int decide_total(Engine *e, int (*totals)(Engine *, void *, const FwJoint **, mpz_ptr, char *, size_t), void *ud,
                 const FwEntry **out, char *err, size_t errlen)
{
    Decision *d;
    if (e->depth < e->len) {
        d = &e->path[e->depth];
        if (d->kind != DEC_VALUE || d->joint->nq != 1)
            return decide_rolled_differently(err, errlen);
    } else {
        const FwJoint *joint;
        mpz_t den;
        mpz_init(den);
        int rc = totals(e, ud, &joint, den, err, errlen);
        if (rc == 0) {
            d = decide_push(e);
            d->kind = DEC_VALUE;
            d->joint = joint;
            d->index = 0;
            d->n = joint->n;
            mpz_set(d->own_den, den);
            decide_weigh_own(d);
            decide_weigh_path(e, e->len - 1, true);
        }
        mpz_clear(den);
        if (rc)
            return -1;
    }
    e->depth++;
    *out = &d->joint->e[d->index];
    return 0;
}

/* The faces' total of a pool decision. */
static int64_t faces_total(const Decision *d)
{
    int64_t t = 0;
    for (int64_t k = 0; k < d->n; k++)
        t += d->face[k];
    return t;
}

/* The next multiset of a pool decision (given_sum: the next with that
 * total): the last die below the top face goes up one face, and every die
 * after it (all on the top face) goes with it; the work is in the dice,
 * never in the sides, so a die of a million sides costs a million runs and
 * no more.  False after the last. */
static bool next_multiset(Decision *d)
{
    for (;;) {
        int64_t i = d->n - 1;
        while (i >= 0 && d->face[i] == d->sides)
            i--;
        if (i < 0)
            return false;
        int32_t f = ++d->face[i];
        for (int64_t k = i + 1; k < d->n; k++)
            d->face[k] = f;
        if (!d->given_sum || faces_total(d) == d->want_sum)
            return true;
    }
}

/* Move the last decision to its next choice, dropping those it exhausts.
 * False when every path has been run. */
bool decide_advance(Engine *e)
{
    while (e->len > 0) {
        /* the states whose paths are all below the decision about to move are done */
        if (e->merger)
            merger_close(e->merger, e->len, true, e->top);
        Decision *d = &e->path[e->len - 1];
        if (d->kind == DEC_POOL) {
            if (next_multiset(d)) {
                weigh_orders(d);   /* s^n stays */
                decide_weigh_path(e, e->len - 1, false);
                return true;
            }
        } else if (d->kind == DEC_SPLIT) {
            if (d->index < d->n) {
                /* C(k, j+1) a^(j+1) b^(k-j-1) is C(k, j) a^j b^(k-j) times (k-j) a / ((j+1) b);
                 * the denominator stays */
                unsigned long k = (unsigned long)d->n, j = (unsigned long)d->index;
                mpz_mul_ui(d->own_num, d->own_num, (k - j) * (unsigned long)d->sides);
                mpz_divexact_ui(d->own_num, d->own_num, (j + 1) * (unsigned long)d->other);
                d->index++;
                decide_weigh_path(e, e->len - 1, false);
                return true;
            }
        } else if (d->kind == DEC_VALUE) {
            if (++d->index < d->n) {
                decide_weigh_own(d);    /* the denominator stays */
                decide_weigh_path(e, e->len - 1, false);
                return true;
            }
        } else if (d->kind == DEC_DRAW) {
            bool more;
            while ((more = draw_next(d)) && d->given_sum && draw_total(d) != d->want_sum)
                ;
            if (more) {
                weigh_draw(d);   /* (the denominator stays) */
                decide_weigh_path(e, e->len - 1, false);
                return true;
            }
        } else {
            int last = d->dist->r.n + 2;
            do
                d->index++;
            while (d->index < last && decide_dist_option_empty(d));
            if (d->index < last) {
                decide_weigh(e, e->len - 1);
                return true;
            }
        }
        e->len--;
    }
    if (e->merger)
        merger_close(e->merger, 0, true, e->top);
    return false;
}

/* ---- the dice source ---- */

int decide_rolled_differently(char *err, size_t errlen)
{
    snprintf(err, errlen, "the procedure rolled differently on the same dice (it must not depend "
                          "on anything but its arguments and dice)");
    return -1;
}

/* A roll (of a pool, a die, or a call of a rerolling procedure) counts
 * towards the depth limit; past it the path is cut. */
int decide_count_roll(Engine *e, char *err, size_t errlen)
{
    int most = e->shared->opts->max_decisions;
    if (e->rolls >= most) {
        e->end = PATH_CUT;
        snprintf(err, errlen, "cut: more than %d rolls on one path", most);
        return -1;
    }
    e->rolls++;
    return 0;
}

/* The multisets of n dice of `sides` faces, C(n+s-1, r), r the smaller of
 * n and s-1: the product of r ratios, however many sides the dice have
 * (as a double, stopping past 10^18). */
double decide_multisets(int64_t n, int64_t sides)
{
    double multisets = 1;
    int64_t r = n < sides - 1 ? n : sides - 1;
    for (int64_t k = 1; k <= r && multisets < 1e18; k++)
        multisets = multisets * (double)(n + sides - 1 - r + k) / (double)k;
    return multisets;
}

/* The next decision of the path: n dice of `sides`, one choice among their
 * multisets (a new one starts at every die on the first face). */
/* One choice among the multisets of n dS (with `ways`, only those whose
 * faces add up to *sum, of the `ways` orders that do). */
int decide_pool(Engine *e, int64_t n, int32_t sides, const int64_t *sum, mpz_srcptr ways, Decision **out,
                         char *err, size_t errlen)
{
    const ExactOptions *o = e->shared->opts;
    Decision *d;
    if (e->depth < e->len) {
        d = &e->path[e->depth];
        if (d->kind != DEC_POOL || d->n != n || d->sides != sides || d->given_sum != (sum != NULL)
            || (sum && d->want_sum != *sum))
            return decide_rolled_differently(err, errlen);
    } else {
        /* a pool with more multisets than runs left can never be finished:
         * say so now */
        double multisets = decide_multisets(n, sides);
        if (multisets > (double)(o->budget - e->shared->runs)) {
            /* over budget wins over a failure found earlier in the run */
            e->halt = EXACT_OVER_BUDGET;
            if (multisets > (double)o->budget)
                e->shared->needed = multisets;   /* this pool alone is past the budget */
            snprintf(err, errlen, "over the budget of the exact count");
            return -1;
        }
        d = decide_push(e);
        d->kind = DEC_POOL;
        d->n = n;
        d->sides = sides;
        d->face = mem_alloc_atomic(sizeof(int32_t) * (size_t)(n ? n : 1));
        d->given_sum = sum != NULL;
        int64_t extra = sum ? *sum - n : 0;   /* the first with the total: the excess on the last dice */
        for (int64_t k = n - 1; k >= 0; k--) {
            int64_t up = extra < sides - 1 ? extra : sides - 1;
            d->face[k] = (int32_t)(1 + up);
            extra -= up;
        }
        if (sum) {
            d->want_sum = *sum;
            mpz_set(d->own_den, ways);
        }
        decide_weigh(e, e->len - 1);
    }
    e->depth++;
    *out = d;
    return 0;
}

int decide_roll(DiceSource *self, int64_t n, int32_t sides, const Die *die, int32_t *out, char *err,
                       size_t errlen)
{
    (void)die;   /* the faces are chosen as numbers: the VM maps them to the die's values */
    Engine *e = (Engine *)self;
    Decision *d;
    if (decide_count_roll(e, err, errlen))
        return -1;
    if (n == 0)
        return 0;           /* a roll (it counts towards the cut) with nothing to choose */
    if (decide_pool(e, n, sides, NULL, NULL, &d, err, errlen))
        return -1;
    memcpy(out, d->face, sizeof(int32_t) * (size_t)n);
    return 0;
}

/* How many combinations of n items a bag with left[k] of each of its
 * kinds has (how many of each kind: C(52, 5) for five of 52 distinct
 * cards), counted kind by kind; past 1e18 it is only "more". */
static double draw_combinations(int64_t n, int32_t kinds, const int64_t *left)
{
    double *ways = mem_alloc_atomic(sizeof(double) * (size_t)(n + 1)),
           *sums = mem_alloc_atomic(sizeof(double) * (size_t)(n + 2));
    ways[0] = 1;
    for (int64_t j = 1; j <= n; j++)
        ways[j] = 0;
    for (int32_t k = 0; k < kinds; k++) {
        /* ways'[j] = ways[j - left[k]] + ... + ways[j]: by the running sums */
        sums[0] = 0;
        for (int64_t j = 0; j <= n; j++)
            sums[j + 1] = sums[j] + ways[j];
        for (int64_t j = 0; j <= n; j++) {
            int64_t from = j - left[k] > 0 ? j - left[k] : 0;
            double w = sums[j + 1] - sums[from];
            ways[j] = w > 1e18 ? 1e18 : w;
        }
    }
    return ways[n];
}

/* n items drawn from a bag of `kinds` kinds (left[k] of kind k, showing
 * values[k]): one choice among the combinations (how many of each), weighed
 * by the ways to draw them, never by orders; with `ways`, only those whose
 * values add up to *sum, out of the `ways` draws that do.  taken[k] is the
 * choice. */
int decide_draw_given(Engine *e, int64_t n, int32_t kinds, const int64_t *left, const int32_t *values,
                      const int64_t *sum, mpz_srcptr ways, int64_t *taken, char *err, size_t errlen)
{
    const ExactOptions *o = e->shared->opts;
    if (decide_count_roll(e, err, errlen))
        return -1;
    Decision *d;
    if (e->depth < e->len) {
        d = &e->path[e->depth];
        if (d->kind != DEC_DRAW || d->n != n || d->kinds != kinds || d->given_sum != (sum != NULL)
            || (sum && d->want_sum != *sum) || memcmp(d->left, left, sizeof(int64_t) * (size_t)kinds))
            return decide_rolled_differently(err, errlen);
    } else {
        /* more combinations than the runs left can never be finished */
        double combos = draw_combinations(n, kinds, left);
        if (combos > (double)(o->budget - e->shared->runs) && combos > 1) {
            e->halt = EXACT_OVER_BUDGET;
            if (combos > (double)o->budget)
                e->shared->needed = combos;
            snprintf(err, errlen, "over the budget of the exact count");
            return -1;
        }
        d = decide_push(e);
        d->kind = DEC_DRAW;
        d->n = n;
        d->kinds = kinds;
        d->left = mem_alloc_atomic(sizeof(int64_t) * 2 * (size_t)kinds);
        d->taken = d->left + kinds;
        d->values = values;
        memcpy(d->left, left, sizeof(int64_t) * (size_t)kinds);
        draw_first(d);
        d->given_sum = sum != NULL;
        if (sum) {
            d->want_sum = *sum;
            mpz_set(d->own_den, ways);
            while (draw_total(d) != *sum && draw_next(d))
                ;
        }
        decide_weigh(e, e->len - 1);
    }
    e->depth++;
    memcpy(taken, d->taken, sizeof(int64_t) * (size_t)kinds);
    return 0;
}

int decide_draw(DiceSource *self, int64_t n, const Die *kinds, const int64_t *left, int64_t total,
                int64_t *taken, int32_t *order, char *err, size_t errlen)
{
    (void)order;
    (void)total;
    return decide_draw_given((Engine *)self, n, kinds->n, left, kinds->value, NULL, NULL, taken, err, errlen);
}
