/* bigdice.c — the exact engine's dice of more than 64 faces.
 *
 * A class of a lazy roll is a set of slots in 64 bits (lazy.c); a d100
 * has more faces than that.  What a procedure asks of ten d100 seldom
 * needs them one by one, though: their sum is a convolution (worked out
 * at once, fw_cache_sum_of_dice), and `count(roll 10d100 >= 90)` only
 * needs to know which dice show 90 or more.  So the faces of big dice are
 * cut into segments, runs of faces, only where a question compares them
 * to a number (at most 64 segments); the roll's classes are sets of
 * segments, and a count, any() or all() splits them as lazy.c splits the
 * classes of small dice (one DEC_SPLIT per class cut, weighed by the
 * number of faces on either side): the count of ten d100 at 90 or more is
 * eleven runs, where their multisets are 4.3 × 10^13.
 *
 * A cut never changes what a set of segments made before it stands for:
 * segment s was cut from seg_from[s], and a set holding that one holds
 * the pieces cut from it since (faces_of: a view knows how many segments
 * there were when it was made).  So a filter's view made early
 * keeps its faces while later questions cut further.
 *
 * The highest (lowest) die is found by halves of the faces left, an any()
 * each (extreme).  A sum, and doubles() of dice of one kind, are asked
 * late (big_sum, late_answer): one choice among the answers of the split
 * dice together, their classes' sums convolved (fw_cache_sum_of_runs), or
 * their chance of all differing.  After a sum, splits are weighed by the
 * ways the rest makes up the total (big_split_given).  Anything else
 * settles the roll's dice: every class's multiset chosen (DEC_POOL), kept
 * on the roll, so that every view of it sees the same dice; after a sum,
 * each class's share of the total first (class_total), then the multisets
 * that give it.  After doubles() asked late they cannot be settled
 * (past_late), so it is asked late only where settling would be past the
 * budget anyway.
 */
#include "config.h"
#include "vm/engine.h"

#include <stdio.h>
#include <string.h>

void big_init(Roll *r, int64_t n)
{
    r->big = true;
    r->big_n = n;
    r->nseg = 1;
    r->seg_lo[0] = 1;
    r->seg_hi[0] = r->sides;
    r->seg_from[0] = -1;
    r->ncls = 1;
    r->cls[0] = (Class){ 1, n };
    r->settled = NULL;
    r->late = false;
    r->fresh = true;
}

/* ---- segments ---- */

/* The segments that a set m made when there were `cuts` of them (a view's)
 * stands for now. */
static uint64_t since(const Roll *r, uint64_t m, int cuts)
{
    for (int s = cuts; s < r->nseg; s++)   /* (the cuts since go after it) */
        if (m >> r->seg_from[s] & 1)
            m |= (uint64_t)1 << s;
    return m;
}

static uint64_t faces_of(const Roll *r, const View *v)
{
    return since(r, v->faces, v->cuts);
}

static uint64_t all_segments(const Roll *r)
{
    return r->nseg == 64 ? ~(uint64_t)0 : ((uint64_t)1 << r->nseg) - 1;
}

int64_t big_size(const Roll *r, uint64_t m)
{
    int64_t n = 0;
    for (int s = 0; s < r->nseg; s++)
        if (m >> s & 1)
            n += (int64_t)r->seg_hi[s] - r->seg_lo[s] + 1;
    return n;
}

/* A segment that begins at face t (2 <= t <= sides): false if that needs
 * more than 64. */
static bool cut_at(Roll *r, int64_t t)
{
    if (t <= 1 || t > r->sides)
        return true;
    for (int s = 0; s < r->nseg; s++) {
        if (!(r->seg_lo[s] < t && t <= r->seg_hi[s]))
            continue;
        if (r->nseg == LAZY_MAX_SIDES)
            return false;
        int m = r->nseg++;
        r->seg_lo[m] = (int32_t)t;
        r->seg_hi[m] = r->seg_hi[s];
        r->seg_from[m] = (int8_t)s;
        r->seg_hi[s] = (int32_t)t - 1;
        for (int i = 0; i < r->ncls; i++)
            if (r->cls[i].faces >> s & 1)
                r->cls[i].faces |= (uint64_t)1 << m;
        return true;
    }
    return true;
}

/* The segments of faces that compare to k, cut as that needs: false if
 * it needs more than 64. */
static bool where(Roll *r, CmpOp cmp, int64_t k, uint64_t *out)
{
    int64_t n = r->sides, lo = 1, hi = n;
    k = k < 0 ? 0 : k > n + 1 ? n + 1 : k;   /* (the same faces compare so) */
    switch (cmp) {
    case CMP_LT: hi = k - 1; break;
    case CMP_LE: hi = k; break;
    case CMP_GT: lo = k + 1; break;
    case CMP_GE: lo = k; break;
    case CMP_EQ: case CMP_NE: lo = hi = k; break;
    }
    lo = lo < 1 ? 1 : lo;
    hi = hi > n ? n : hi;
    uint64_t m = 0;
    if (lo <= hi) {
        if (!cut_at(r, lo) || !cut_at(r, hi + 1))
            return false;
        for (int s = 0; s < r->nseg; s++)
            if (r->seg_lo[s] >= lo && r->seg_hi[s] <= hi)
                m |= (uint64_t)1 << s;
    }
    *out = cmp == CMP_NE ? all_segments(r) & ~m : m;
    return true;
}

/* The segments of m in the order of their faces: their number. */
static int in_order(const Roll *r, uint64_t m, int *seg)
{
    int n = 0;
    for (int s = 0; s < r->nseg; s++) {
        if (!(m >> s & 1))
            continue;
        int i = n++;
        for (; i > 0 && r->seg_lo[seg[i - 1]] > r->seg_lo[s]; i--)
            seg[i] = seg[i - 1];
        seg[i] = s;
    }
    return n;
}

/* ---- the sum, asked first ---- */

/* The totals of a roll of big dice, worked out at once (within what the
 * budget has left). */
static int big_joint(Engine *e, const Roll *r, const FwJoint **joint, char *err, size_t errlen)
{
    FwLimits lim = lazy_fw_limits(e);
    FwStatus st = fw_cache_sum_of_dice(e->shared->fw, r->big_n, r->sides, &lim, joint);
    return lazy_fw_done(e, st, &lim, err, errlen);
}

static int big_totals(Engine *e, void *ud, const FwJoint **joint, mpz_ptr den, char *err, size_t errlen)
{
    const Roll *r = ud;
    mpz_ui_pow_ui(den, (unsigned long)r->sides, (unsigned long)r->big_n);
    return big_joint(e, r, joint, err, errlen);
}

/* The sum of a whole roll of big dice: one choice among its totals, kept
 * as a late sum of all its segments. */
static int big_sum(Engine *e, Roll *r, int64_t *out, char *err, size_t errlen)
{
    const FwEntry *total;
    if (decide_total(e, big_totals, r, &total, err, errlen))
        return -1;
    r->late = true;
    r->late_op = OP_SUM;
    r->late_of = all_segments(r);
    r->late_cuts = r->nseg;
    r->late_value = total->vals[0];
    r->fresh = false;
    *out = r->late_value;
    return 0;
}

/* ---- asked of the dice as a whole, once split ---- */

/* The faces of the segments of m as runs (lo[i]..hi[i], ascending, apart):
 * their number. */
static int runs_of(const Roll *r, uint64_t m, int64_t *lo, int64_t *hi)
{
    int seg[LAZY_MAX_SIDES], n = in_order(r, m, seg), k = 0;
    for (int i = 0; i < n; i++) {
        if (k > 0 && hi[k - 1] + 1 == r->seg_lo[seg[i]]) {
            hi[k - 1] = r->seg_hi[seg[i]];
            continue;
        }
        lo[k] = r->seg_lo[seg[i]];
        hi[k++] = r->seg_hi[seg[i]];
    }
    return k;
}

typedef struct Inside {
    const Roll *r;
    uint64_t m;              /* the classes with dice inside these segments, */
    int from;                /* from this one on */
} Inside;

static bool inside(const Class *c, uint64_t m)
{
    return c->count > 0 && !(c->faces & ~m);
}

/* The totals of the dice of the classes of s, each class's dice any of its
 * faces: each class's convolved (within what the budget has left). */
static int inside_totals(Engine *e, void *ud, const FwJoint **joint, mpz_ptr den, char *err, size_t errlen)
{
    const Inside *s = ud;
    const Roll *r = s->r;
    FwRuns kinds[LAZY_MAX_SIDES];
    int64_t *runs = mem_alloc_atomic(sizeof(int64_t) * 2 * LAZY_MAX_SIDES * (size_t)r->ncls);
    int nk = 0;
    mpz_t p;
    mpz_init(p);
    mpz_set_ui(den, 1);
    for (int i = s->from; i < r->ncls; i++) {
        const Class *c = &r->cls[i];
        if (!inside(c, s->m))
            continue;
        int64_t *lo = runs + 2 * LAZY_MAX_SIDES * nk, *hi = lo + LAZY_MAX_SIDES;
        kinds[nk++] = (FwRuns){ .count = c->count, .nrun = runs_of(r, c->faces, lo, hi), .lo = lo, .hi = hi };
        mpz_ui_pow_ui(p, (unsigned long)big_size(r, c->faces), (unsigned long)c->count);
        mpz_mul(den, den, p);
    }
    mpz_clear(p);
    FwLimits lim = lazy_fw_limits(e);
    FwStatus st = fw_cache_sum_of_runs(e->shared->fw, kinds, nk, &lim, joint);
    return lazy_fw_done(e, st, &lim, err, errlen);
}

/* The weight of total t in the totals j (0 if none). */
static mpz_srcptr weight_of(const FwJoint *j, int64_t t)
{
    int64_t lo, hi;
    fw_range(j, &t, 1, &lo, &hi);
    return lo < hi ? j->e[lo].w : NULL;
}

/* An empty joint of one question, room for n entries. */
static FwJoint *joint_new(int64_t n)
{
    FwJoint *j = mem_alloc(sizeof *j);
    *j = (FwJoint){ .nq = 1, .width = 1, .offset = mem_alloc_atomic(sizeof(int) * 2) };
    j->offset[1] = 1;
    j->e = mem_alloc(sizeof(FwEntry) * (size_t)(n ? n : 1));
    return j;
}

/* A new entry of j, of the value at *val (kept), weighing w1 w2, added to
 * *den. */
static void joint_push(FwJoint *j, const int64_t *val, mpz_srcptr w1, mpz_srcptr w2, mpz_ptr den)
{
    FwEntry *en = &j->e[j->n++];
    en->vals = (int64_t *)val;
    mpz_init(en->w);
    mpz_mul(en->w, w1, w2);
    mpz_add(den, den, en->w);
}

/* The next class after i inside m (r->ncls if none). */
static int next_inside(const Roll *r, int i, uint64_t m)
{
    do
        i++;
    while (i < r->ncls && !inside(&r->cls[i], m));
    return i;
}

/* What class s->from of a late sum adds up to, given that it and the
 * classes after it inside s->m add up to s->left: each total of its own
 * weighed by its orders times those of the rest making up the difference. */
typedef struct Share {
    Inside in;
    int64_t left;
} Share;

static int share_totals(Engine *e, void *ud, const FwJoint **joint, mpz_ptr den, char *err, size_t errlen)
{
    const Share *s = ud;
    const Roll *r = s->in.r;
    int i = s->in.from;
    const FwJoint *own, *rest;
    Inside one = { r, r->cls[i].faces, i }, after = { r, s->in.m, next_inside(r, i, s->in.m) };
    mpz_t ignored;
    mpz_init(ignored);
    int rc = inside_totals(e, &one, &own, ignored, err, errlen) || inside_totals(e, &after, &rest, ignored, err, errlen);
    mpz_clear(ignored);
    if (rc)
        return -1;
    FwJoint *j = joint_new(own->n);
    mpz_set_ui(den, 0);
    for (int64_t k = 0; k < own->n; k++) {
        mpz_srcptr w = weight_of(rest, s->left - own->e[k].vals[0]);
        if (w)
            joint_push(j, own->e[k].vals, own->e[k].w, w, den);
    }
    *joint = j;
    return 0;
}

/* The total of class i of a late sum (of the segments m), the rest of the
 * sum being *left (of it and the classes after it inside m), and its
 * orders: chosen, unless it is the last of them. */
static int class_total(Engine *e, Roll *r, int i, uint64_t m, int64_t *left, int64_t *total, mpz_srcptr *ways,
                       char *err, size_t errlen)
{
    const FwJoint *own;
    Inside one = { r, r->cls[i].faces, i };
    mpz_t ignored;
    mpz_init(ignored);
    int rc = inside_totals(e, &one, &own, ignored, err, errlen);
    mpz_clear(ignored);
    if (rc)
        return -1;
    *total = *left;
    if (next_inside(r, i, m) < r->ncls) {
        Share s = { { r, m, i }, *left };
        const FwEntry *chosen;
        if (decide_total(e, share_totals, &s, &chosen, err, errlen))
            return -1;
        *total = chosen->vals[0];
    }
    *ways = weight_of(own, *total);
    *left -= *total;
    return 0;
}

/* Do two dice of the classes inside s->m show the same face?  (Their
 * faces are apart, dice of one kind: within a class of f faces, n dice all
 * differ in f (f - 1) ... (f - n + 1) of its f^n orders.) */
static int inside_doubles(Engine *e, void *ud, const FwJoint **joint, mpz_ptr den, char *err, size_t errlen)
{
    (void)e, (void)err, (void)errlen;
    const Inside *s = ud;
    const Roll *r = s->r;
    mpz_t apart, p;
    mpz_inits(apart, p, NULL);
    mpz_set_ui(den, 1);
    mpz_set_ui(apart, 1);
    for (int i = 0; i < r->ncls; i++) {
        const Class *c = &r->cls[i];
        if (!inside(c, s->m))
            continue;
        int64_t f = big_size(r, c->faces);
        mpz_ui_pow_ui(p, (unsigned long)f, (unsigned long)c->count);
        mpz_mul(den, den, p);
        for (int64_t j = 0; j < c->count; j++)
            mpz_mul_si(apart, apart, f - j < 0 ? 0 : f - j);
    }
    static const int64_t answer[2] = { 0, 1 };
    FwJoint *j = joint_new(2);
    mpz_t one, total;
    mpz_init_set_ui(one, 1);
    mpz_init(total);
    mpz_sub(p, den, apart);
    for (int yes = 0; yes <= 1; yes++)
        if (mpz_sgn(yes ? p : apart))
            joint_push(j, &answer[yes], yes ? p : apart, one, total);
    mpz_clears(apart, p, one, total, NULL);
    *joint = j;
    return 0;
}

/* Are the faces of the classes inside m apart (dice of one kind)? */
static bool apart(const Roll *r, uint64_t m)
{
    uint64_t seen = 0;
    for (int i = 0; i < r->ncls; i++) {
        const Class *c = &r->cls[i];
        if (!inside(c, m))
            continue;
        if (seen & c->faces)
            return false;
        seen |= c->faces;
    }
    return true;
}

/* Of a roll answered late: anything but the same question again is past
 * the count. */
/* The runs that settling r's dice takes: the product of its classes'
 * multisets. */
static double settle_cost(const Roll *r)
{
    double cost = 1;
    for (int i = 0; i < r->ncls && cost < 1e18; i++)
        if (r->cls[i].count > 0)
            cost *= decide_multisets(r->cls[i].count, big_size(r, r->cls[i].faces));
    return cost;
}

static int past_late(Engine *e, const Roll *r, char *err, size_t errlen)
{
    e->halt = EXACT_OVER_BUDGET;
    e->shared->needed = settle_cost(r);
    snprintf(err, errlen, "over the budget of the exact count");
    return -1;
}

/* ---- settling ---- */

/* The dice of every class of r, chosen (given the sum, when it was asked),
 * kept on r. */
static int settle_roll(Engine *e, Roll *r, char *err, size_t errlen)
{
    if (r->late && r->late_op != OP_SUM)
        return past_late(e, r, err, errlen);
    uint64_t late = r->late ? since(r, r->late_of, r->late_cuts) : 0;
    int64_t left = r->late_value;   /* (of a late sum: what its classes not chosen yet add up to) */
    Pool *p = pool_alloc(e->vm->scratch, r->sides, r->big_n);
    int64_t k = 0;
    for (int i = 0; i < r->ncls; i++) {
        const Class *c = &r->cls[i];
        if (c->count == 0)
            continue;
        const int64_t *sum = NULL;
        mpz_srcptr ways = NULL;
        int64_t want;
        if (r->late && inside(c, late)) {
            /* one run of faces lo..hi (its dice on the first run of
             * several split from the rest, given the sum): its dice add up
             * to their total less count (lo - 1) on faces 1..hi - lo + 1 */
            int64_t lo[LAZY_MAX_SIDES], hi[LAZY_MAX_SIDES];
            while (c->count > 0 && runs_of(r, c->faces, lo, hi) > 1) {
                uint64_t first = 0;
                for (int s = 0; s < r->nseg; s++)
                    if ((c->faces >> s & 1) && r->seg_hi[s] <= hi[0])
                        first |= (uint64_t)1 << s;
                if (r->ncls == LAZY_MAX_SIDES)
                    return past_late(e, r, err, errlen);
                if (big_split_given(e, r, i, first, err, errlen) < 0)
                    return -1;
            }
            if (c->count == 0)
                continue;
            if (class_total(e, r, i, late, &left, &want, &ways, err, errlen))
                return -1;
            want -= c->count * (lo[0] - 1);
            sum = &want;
        }
        int seg[LAZY_MAX_SIDES], nseg = in_order(r, c->faces, seg);
        Decision *d;
        if (decide_pool(e, c->count, (int32_t)big_size(r, c->faces), sum, ways, &d, err, errlen))
            return -1;
        /* the class's faces in ascending order take the multiset's */
        for (int64_t j = 0; j < c->count; j++) {
            int64_t f = d->face[j];
            int at = 0;
            for (; at + 1 < nseg && f > (int64_t)r->seg_hi[seg[at]] - r->seg_lo[seg[at]] + 1; at++)
                f -= (int64_t)r->seg_hi[seg[at]] - r->seg_lo[seg[at]] + 1;
            p->face[k++] = (int32_t)(r->seg_lo[seg[at]] + f - 1);
        }
    }
    p->n = k;
    pool_sort(p);
    r->settled = p;
    r->fresh = false;
    return 0;
}

/* The dice of v as a plain pool: those of its roll's, settled, that show
 * one of v's faces. */
int big_settle(Engine *e, View *v, char *err, size_t errlen)
{
    Roll *r = v->roll;
    if (!r->settled && settle_roll(e, r, err, errlen))
        return -1;
    uint64_t m = faces_of(r, v);
    if (m == all_segments(r)) {
        v->plain = r->settled;
        return 0;
    }
    const Pool *all = r->settled;
    Pool *p = pool_alloc(e->vm->scratch, r->sides, all->n);
    int64_t k = 0;
    for (int64_t j = 0; j < all->n; j++)
        for (int s = 0; s < r->nseg; s++)
            if ((m >> s & 1) && all->face[j] >= r->seg_lo[s] && all->face[j] <= r->seg_hi[s]) {
                p->face[k++] = all->face[j];
                break;
            }
    p->n = k;
    v->plain = p;
    return 0;
}

/* ---- splitting, given a late sum ---- */

typedef struct Given {
    const Roll *r;
    int i;                   /* the class split */
    uint64_t in;             /* into its faces here and the rest */
    uint64_t m;              /* the late sum's segments */
} Given;

/* How many of class s->i's dice show one of s->in: each number j weighed
 * by C(count, j) times the orders of j dice on those faces, the rest of the
 * class on the others and the other classes of the sum that add up to it. */
static int given_counts(Engine *e, void *ud, const FwJoint **joint, mpz_ptr den, char *err, size_t errlen)
{
    const Given *s = ud;
    const Roll *r = s->r;
    const Class *c = &r->cls[s->i];
    int64_t *runs = mem_alloc_atomic(sizeof(int64_t) * 2 * LAZY_MAX_SIDES * (size_t)(r->ncls + 1));
    FwRuns kinds[LAZY_MAX_SIDES + 1];
    int nk = 2;
    for (int k = 0; k < r->ncls; k++) {
        if (k == s->i || !inside(&r->cls[k], s->m))
            continue;
        int64_t *lo = runs + 2 * LAZY_MAX_SIDES * nk, *hi = lo + LAZY_MAX_SIDES;
        kinds[nk++] = (FwRuns){ .count = r->cls[k].count, .nrun = runs_of(r, r->cls[k].faces, lo, hi), .lo = lo,
                                .hi = hi };
    }
    int64_t *lo = runs, *hi = lo + LAZY_MAX_SIDES;
    kinds[0] = (FwRuns){ .nrun = runs_of(r, c->faces & s->in, lo, hi), .lo = lo, .hi = hi };
    lo = runs + 2 * LAZY_MAX_SIDES, hi = lo + LAZY_MAX_SIDES;
    kinds[1] = (FwRuns){ .nrun = runs_of(r, c->faces & ~s->in, lo, hi), .lo = lo, .hi = hi };
    FwJoint *j = joint_new(c->count + 1);
    int64_t *vals = mem_alloc_atomic(sizeof(int64_t) * (size_t)(c->count + 1));
    mpz_set_ui(den, 0);
    mpz_t binom;
    mpz_init_set_ui(binom, 1);
    for (int64_t n = 0; n <= c->count; n++) {
        kinds[0].count = n;
        kinds[1].count = c->count - n;
        const FwJoint *totals;
        FwLimits lim = lazy_fw_limits(e);
        FwStatus st = fw_cache_sum_of_runs(e->shared->fw, kinds, nk, &lim, &totals);
        if (lazy_fw_done(e, st, &lim, err, errlen)) {
            mpz_clear(binom);
            return -1;
        }
        mpz_srcptr w = weight_of(totals, r->late_value);
        vals[n] = n;
        if (w)
            joint_push(j, &vals[n], w, binom, den);
        mpz_mul_ui(binom, binom, (unsigned long)(c->count - n));
        mpz_divexact_ui(binom, binom, (unsigned long)(n + 1));
    }
    mpz_clear(binom);
    *joint = j;
    return 0;
}

int big_split_given(Engine *e, Roll *r, int i, uint64_t S, char *err, size_t errlen)
{
    Class *c = &r->cls[i];
    Given s = { r, i, S, since(r, r->late_of, r->late_cuts) };
    if (!inside(c, s.m))
        return 1;   /* (independent of the sum: split as any) */
    const FwEntry *n;
    if (decide_total(e, given_counts, &s, &n, err, errlen))
        return -1;
    r->fresh = false;
    r->cls[r->ncls++] = (Class){ c->faces & ~S, c->count - n->vals[0] };
    c->faces &= S;
    c->count = n->vals[0];
    return 0;
}

/* ---- asked late ---- */

/* The sum or doubles() of the dice of v, once the roll's classes are split
 * (or of a mixed pool): one choice among its answers, worked out from the
 * classes' dice inside v (each class cut by v split first).  Asked again,
 * the same answer; anything else of the roll's dice after it is past the
 * exact count (late). */
static int late_answer(Engine *e, View *v, OpCode op, Value *out, char *err, size_t errlen)
{
    Roll *r = v->roll;
    double cost = settle_cost(r);
    if (op == OP_DOUBLES && cost <= (double)e->shared->opts->budget)
        return 1;   /* (its dice are settled, as small pools' are) */
    uint64_t m = faces_of(r, v);
    int64_t n;
    if (lazy_count_in(e, r, m, &n, err, errlen))
        return -1;
    Inside s = { r, m, 0 };
    const FwEntry *answer;
    if (decide_total(e, op == OP_SUM ? inside_totals : inside_doubles, &s, &answer, err, errlen))
        return -1;
    r->late = true;
    r->late_op = op;
    r->late_of = m;
    r->late_cuts = r->nseg;
    r->late_value = answer->vals[0];
    r->fresh = false;
    *out = op == OP_SUM ? val_int(r->late_value) : val_bool(r->late_value != 0);
    return 0;
}

/* ---- what is asked ---- */

/* The highest (top) or lowest face of the dice of one class of n dice on
 * the faces lo..hi, and how many show it: (face, k) as face * (n + 1) + k,
 * weighed by C(n, k) times the orders of the other n - k on the faces
 * below (above) it, out of (hi - lo + 1)^n. */
typedef struct Top {
    int64_t n, lo, hi;
    bool top;
} Top;

static int top_counts(Engine *e, void *ud, const FwJoint **joint, mpz_ptr den, char *err, size_t errlen)
{
    (void)e, (void)err, (void)errlen;
    const Top *t = ud;
    int64_t f = t->hi - t->lo + 1;
    FwJoint *j = joint_new(f * t->n);
    int64_t *vals = mem_alloc_atomic(sizeof(int64_t) * (size_t)(f * t->n));
    mpz_t binom, rest, total;
    mpz_inits(binom, rest, total, NULL);
    for (int64_t face = t->lo; face <= t->hi; face++) {
        int64_t others = t->top ? face - t->lo : t->hi - face;
        mpz_set_ui(binom, 1);
        for (int64_t k = 1; k <= t->n; k++) {
            mpz_mul_ui(binom, binom, (unsigned long)(t->n - k + 1));
            mpz_divexact_ui(binom, binom, (unsigned long)k);
            if (others == 0 && k < t->n)
                continue;
            mpz_ui_pow_ui(rest, (unsigned long)others, (unsigned long)(t->n - k));
            int64_t *v = &vals[j->n];
            *v = face * (t->n + 1) + k;
            joint_push(j, v, binom, rest, total);
        }
    }
    mpz_ui_pow_ui(den, (unsigned long)f, (unsigned long)t->n);
    mpz_clears(binom, rest, total, NULL);
    *joint = j;
    return 0;
}

/* The highest (top) or lowest face of the dice of view v when they are one
 * class on one run of faces: one choice of the face and of how many show
 * it, which splits the class in three (those dice, the rest below (above)
 * it, none past it).  2 if they are not so (or the choice would be too
 * big), else as extreme. */
static int extreme_at_once(Engine *e, View *v, bool top, int64_t *face, char *err, size_t errlen)
{
    Roll *r = v->roll;
    uint64_t m = faces_of(r, v);
    int at = -1;
    for (int i = 0; i < r->ncls; i++)
        if (r->cls[i].count > 0 && (r->cls[i].faces & m)) {
            if (at >= 0 || (r->cls[i].faces & ~m))
                return 2;
            at = i;
        }
    int64_t lo[LAZY_MAX_SIDES], hi[LAZY_MAX_SIDES];
    if (at < 0 || r->late || r->nseg + 2 > LAZY_MAX_SIDES || r->ncls + 2 > LAZY_MAX_SIDES
        || runs_of(r, r->cls[at].faces, lo, hi) > 1)
        return 2;
    Top t = { r->cls[at].count, lo[0], hi[0], top };
    if ((hi[0] - lo[0] + 1) * t.n > 100000)
        return 2;
    const FwEntry *chosen;
    if (decide_total(e, top_counts, &t, &chosen, err, errlen))
        return -1;
    int64_t f = chosen->vals[0] / (t.n + 1), k = chosen->vals[0] % (t.n + 1);
    uint64_t eq, below, above;
    where(r, CMP_EQ, f, &eq);
    where(r, CMP_LT, f, &below);
    where(r, CMP_GT, f, &above);
    Class *c = &r->cls[at];
    uint64_t faces = c->faces;
    r->fresh = false;
    c->faces = faces & eq;
    c->count = k;
    if (faces & (top ? below : above))
        r->cls[r->ncls++] = (Class){ faces & (top ? below : above), t.n - k };
    if (faces & (top ? above : below))
        r->cls[r->ncls++] = (Class){ faces & (top ? above : below), 0 };
    *face = f;
    return 0;
}

/* The highest (top) or lowest face of the dice of view v, by halves: is
 * there a die in the upper (lower) half of the faces left?  Each asking
 * splits the classes it cuts, one at a time, until a die turns up
 * (lazy_any_in).  0 with *face, or with *found false: no die; -1 on an
 * error; 1 if it would need more than 64 segments. */
static int extreme(Engine *e, View *v, bool top, int64_t *face, bool *found, char *err, size_t errlen)
{
    Roll *r = v->roll;
    int rc = extreme_at_once(e, v, top, face, err, errlen);
    *found = true;
    if (rc != 2)
        return rc;
    if (lazy_any_in(e, r, faces_of(r, v), found, err, errlen))
        return -1;
    int64_t lo = 1, hi = r->sides;
    while (*found && lo < hi) {
        int64_t mid = top ? (lo + hi + 1) / 2 : (lo + hi) / 2;
        uint64_t from, to;
        if (!where(r, CMP_GE, top ? mid : lo, &from) || !where(r, CMP_LE, top ? hi : mid, &to))
            return 1;
        bool yes;
        if (lazy_any_in(e, r, faces_of(r, v) & from & to, &yes, err, errlen))
            return -1;
        if (top)
            *(yes ? &lo : &hi) = yes ? mid : mid - 1;
        else
            *(yes ? &hi : &lo) = yes ? mid : mid + 1;
    }
    *face = lo;
    return 0;
}

/* Can a question of v be answered by splitting classes?  Not of kept
 * dice, nor once doubles() was asked late (after a late sum, the splits
 * are weighed by the ways of the rest to make up the total,
 * big_split_given). */
static bool splits(const View *v)
{
    const Roll *r = v->roll;
    return !v->plain && !v->keep && !r->settled && !(r->late && r->late_op != OP_SUM);
}

/* The sum of a fresh mixed roll, only added up: the sums of its kinds,
 * each worked out at once, convolved. */
static int sum_of_kinds(Engine *e, Roll *r, Value *out, char *err, size_t errlen)
{
    Value total = val_int(0);
    bool have = false;
    for (int i = 0; i < r->ncls; i++) {
        const Class *c = &r->cls[i];
        if (c->count == 0)
            continue;
        const FwJoint *joint;
        FwLimits lim = lazy_fw_limits(e);
        FwStatus st = fw_cache_sum_of_dice(e->shared->fw, c->count, big_size(r, c->faces), &lim, &joint);
        if (lazy_fw_done(e, st, &lim, err, errlen))
            return -1;
        Value part, sum;
        defer_joint(e, joint, &part);
        if (!have) {
            total = part;
            have = true;
            continue;
        }
        int rc = defer_arith(e, e->vm, OP_ADD, &total, &part, &sum);
        if (rc < 0) {
            snprintf(err, errlen, "%s", e->vm->error);
            return -1;
        }
        if (rc > 0) {
            /* (chosen each: a total past an int) */
            int64_t n;
            if (__builtin_add_overflow(total.as.i, part.as.i, &n)) {
                snprintf(err, errlen, "integer overflow in +");
                return -1;
            }
            sum = val_int(n);
        }
        total = sum;
    }
    r->fresh = false;
    *out = total;
    return 0;
}

int big_apply(Engine *e, View *v, OpCode op, CmpOp cmp, Value x, Value *out, char *err, size_t errlen)
{
    Roll *r = v->roll;
    if (r->late) {
        /* (a filter is only a view of the dice) */
        uint64_t test;
        if (op == OP_FILTER && x.tag == VAL_INT && !v->plain && !v->keep && where(r, cmp, x.as.i, &test)) {
            *out = val_pool(lazy_view_of(e, r, faces_of(r, v) & test));
            return 0;
        }
        if ((int32_t)op == r->late_op && !v->plain && !v->keep && faces_of(r, v) == since(r, r->late_of, r->late_cuts)) {
            *out = op == OP_SUM ? val_int(r->late_value) : val_bool(r->late_value != 0);
            return 0;
        }
        if (r->late_op != OP_SUM)
            return past_late(e, r, err, errlen);
        if (op == OP_SUM || op == OP_DOUBLES)
            return lazy_plain_apply(e, v, op, cmp, x, out, err, errlen);   /* (of the dice that give the sum) */
    }
    uint64_t m = faces_of(r, v), test = 0;
    bool whole = m == all_segments(r) && r->ncls == 1 && r->kinds == 1 && !v->plain && !v->keep && !r->settled
                 && !r->late;
    if (op == OP_SUM && whole && e->vm->may_defer) {
        /* only added up: its totals stand as a distribution */
        const FwJoint *joint;
        if (big_joint(e, r, &joint, err, errlen))
            return -1;
        defer_joint(e, joint, out);
        return 0;
    }
    if (op == OP_SUM && e->vm->may_defer && r->kinds > 1 && big_whole(r, v))
        return sum_of_kinds(e, r, out, err, errlen);
    if (op == OP_SUM && whole) {
        int64_t n;
        if (big_sum(e, r, &n, err, errlen))
            return -1;
        *out = val_int(n);
        return 0;
    }
    if ((op == OP_SUM || (op == OP_DOUBLES && apart(r, faces_of(r, v)))) && splits(v)) {
        int rc = late_answer(e, v, op, out, err, errlen);
        if (rc <= 0)
            return rc;
    }
    bool by_faces = (op == OP_FILTER || op == OP_ANY || op == OP_ALL) && x.tag == VAL_INT;
    if (splits(v) && (op == OP_COUNT || (by_faces && where(r, cmp, x.as.i, &test)))) {
        m = faces_of(r, v);   /* (cut further) */
        int64_t n;
        bool yes;
        switch (op) {
        case OP_FILTER:
            *out = val_pool(lazy_view_of(e, r, m & test));
            return 0;
        case OP_COUNT:
            if (lazy_count_in(e, r, m, &n, err, errlen))
                return -1;
            *out = val_int(n);
            return 0;
        default:
            /* all(): no die fails the test */
            if (lazy_any_in(e, r, m & (op == OP_ANY ? test : ~test), &yes, err, errlen))
                return -1;
            *out = val_bool(op == OP_ANY ? yes : !yes);
            return 0;
        }
    }
    if (splits(v) && (op == OP_HIGHEST || op == OP_LOWEST)) {
        int64_t face;
        bool found;
        int rc = extreme(e, v, op == OP_HIGHEST, &face, &found, err, errlen);
        if (rc < 0)
            return -1;
        if (rc == 0 && !found) {
            snprintf(err, errlen, "%s() of an empty pool", op == OP_HIGHEST ? "highest" : "lowest");
            return -1;
        }
        if (rc == 0) {
            *out = val_int(face);
            return 0;
        }
    }
    return lazy_plain_apply(e, v, op, cmp, x, out, err, errlen);
}

/* ---- mixed pools ---- */

bool big_whole(const Roll *r, const View *v)
{
    return r->fresh && !v->keep && !v->plain && faces_of(r, v) == all_segments(r);
}

/* The kinds of plain dice of a fresh roll r (dice of sides[k] faces,
 * count[k] of them), added to the *nk kinds seen before: false if one
 * shows other values than 1 to its number of faces, or they are symbols. */
static bool plain_kinds(const Roll *r, int64_t *sides, int64_t *count, int *nk)
{
    if (r->symbols)
        return false;
    for (int i = 0; i < r->ncls; i++) {
        const Class *c = &r->cls[i];
        int64_t s = r->big ? big_size(r, c->faces) : __builtin_popcountll(c->faces);
        if (r->big) {
            int seg[LAZY_MAX_SIDES], n = in_order(r, c->faces, seg);
            if (r->seg_lo[seg[0]] != 1 || r->seg_hi[seg[n - 1]] != s)
                return false;
        } else {
            int32_t m = 0;
            for (uint64_t rest = c->faces; rest; rest &= rest - 1, m++)
                if ((r->value ? r->value[__builtin_ctzll(rest)] : __builtin_ctzll(rest) + 1) != m + 1)
                    return false;
        }
        int k = 0;
        while (k < *nk && sides[k] != s)
            k++;
        if (k == *nk) {
            if (*nk == LAZY_MAX_SIDES)
                return false;
            sides[k] = s;
            count[(*nk)++] = 0;
        }
        count[k] += c->count;
    }
    return true;
}

int big_join(Engine *e, const Roll *ra, const Roll *rb, const Pool **out, char *err, size_t errlen)
{
    int64_t sides[LAZY_MAX_SIDES], count[LAZY_MAX_SIDES], total = 0, most = 0;
    int nk = 0;
    *out = NULL;
    if (!plain_kinds(ra, sides, count, &nk) || !plain_kinds(rb, sides, count, &nk))
        return 0;
    for (int k = 0; k < nk; k++) {
        total += count[k];
        most = sides[k] > most ? sides[k] : most;
    }
    if (total > e->vm->limits.max_pool) {
        snprintf(err, errlen, "a pool of %lld dice is over the limit of %lld", (long long)total,
                 (long long)e->vm->limits.max_pool);
        return -1;
    }
    Roll *r = slab_take(&e->rolls_slab);
    memset(r, 0, offsetof(Roll, cls));
    r->cap = NULL;
    r->draw = NULL;
    r->sides = r->pool_sides = (int32_t)most;
    r->kinds = nk;
    r->answers = NULL;
    big_init(r, total);
    /* a segment for each kind's faces past the last's, a class of each kind */
    r->ncls = 0;
    for (int k = 0; k < nk; k++)
        if (!cut_at(r, sides[k] + 1))
            return 0;
    for (int k = 0; k < nk; k++) {
        uint64_t m;
        where(r, CMP_LE, sides[k], &m);
        r->cls[r->ncls++] = (Class){ m, count[k] };
    }
    *out = lazy_view_of(e, r, all_segments(r));
    return 0;
}
