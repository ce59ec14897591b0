/* defer.c — parts of a sum the exact engine keeps as distributions.
 *
 * `return explode() + explode() + explode()` rolls three independent parts
 * and only adds them up.  Counted run by run, the second part is run once
 * for every result of the first, the third once for every total of the
 * first two: runs that multiply.  Where the compiler sees that a part's
 * value is only added up and returned (it puts a DEFER after the part, see
 * opcodes.def), the engine hands the machine the part's distribution
 * instead of one of its results (a Deferred, as a VAL_DIST value), and
 * ADD and SUB of such values are convolutions: one multiply-add per pair of
 * outcomes, in one run.  The run's result is then a distribution, tallied
 * whole (defer_tally).  Where a caller does not take such a result on, its
 * SETTLE chooses one outcome after all: one DEC_DIST decision, as a call's.
 *
 * The parts are independent: a DEFER follows only a call (worked out on
 * its own, from its arguments) or the sum of a fresh roll no one else
 * reads, and a call that draws from a bag something draws from later
 * (its Dist is paired) is chosen as before.  A part that may end the run
 * (its not-given and dropped shares) ends it first, as when it was chosen
 * where it was made: the convolution keeps that order, and so does a run
 * that ends early while it holds parts (defer_held_first).
 *
 * Deferreds are made once for each distribution and remembered by what
 * they were made of (on the Dist, on the first Deferred of a sum, here for
 * a pool's joint), so the same distribution is the same object: states
 * holding one merge, and a run replayed finds the same decision.  What a
 * round of a recursive call's odds made goes with that round.  The work
 * counts towards the budget (afford).
 */
#include "config.h"
#include "vm/engine.h"

#include <stdlib.h>
#include <string.h>

/* What a Deferred was made of, besides the one it is remembered on. */
typedef enum { FROM_ADD, FROM_SUB, FROM_ADDK, FROM_KSUB } DeferKind;

/* A Deferred made of another, remembered on that one (so it goes when that
 * one goes: a round's odds of a call being worked out are not kept past
 * the round): of kind `kind`, with `other` (ADD, SUB) or `k`. */
typedef struct DeferUse {
    DeferKind kind;
    const Deferred *other;
    int64_t k;
    const Deferred *made;    /* NULL: it cannot be made (a total past an int) */
    struct DeferUse *next;
} DeferUse;

/* The sums of pools, by their joint (joints are kept for the whole count). */
typedef struct DeferMemo {
    const FwJoint **joint;
    const Deferred **made;
    size_t cap, n;           /* cap a power of two */
} DeferMemo;

static size_t joint_bucket(const FwJoint *j, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)j * 0x9e3779b97f4a7c15ULL;
    return (size_t)(h >> 32) & (cap - 1);
}

static const Deferred *joint_find(const DeferMemo *m, const FwJoint *j)
{
    if (!m)
        return NULL;
    for (size_t b = joint_bucket(j, m->cap);; b = (b + 1) & (m->cap - 1)) {
        if (!m->joint[b])
            return NULL;
        if (m->joint[b] == j)
            return m->made[b];
    }
}

static void joint_put(DeferMemo *m, const FwJoint *j, const Deferred *d)
{
    size_t b = joint_bucket(j, m->cap);
    while (m->joint[b])
        b = (b + 1) & (m->cap - 1);
    m->joint[b] = j;
    m->made[b] = d;
    m->n++;
}

static void joint_remember(Shared *s, const FwJoint *j, const Deferred *d)
{
    DeferMemo *m = s->defer;
    if (!m || m->n >= m->cap / 2) {
        DeferMemo *grown = mem_alloc(sizeof *grown);
        grown->cap = m ? m->cap * 2 : 64;
        grown->joint = mem_alloc(sizeof(FwJoint *) * grown->cap);
        grown->made = mem_alloc(sizeof(Deferred *) * grown->cap);
        for (size_t i = 0; m && i < m->cap; i++)
            if (m->joint[i])
                joint_put(grown, m->joint[i], m->made[i]);
        s->defer = m = grown;
    }
    joint_put(m, j, d);
}

/* Work done for Deferreds counts towards the budget: a run for each
 * outcome made (what a run would have tallied, and about what it keeps in
 * memory), and one for this many pairs of outcomes convolved. */
#define DEFER_PAIRS_PER_RUN 16

/* Charge the work of `made` outcomes from `pairs` pairs to the budget:
 * false (the count halts, over budget) when it is more than is left. */
static bool afford(Engine *e, uint64_t pairs, uint64_t made)
{
    Shared *sh = e->shared;
    uint64_t runs = pairs / DEFER_PAIRS_PER_RUN + made;
    if (runs > (sh->opts->budget > sh->runs ? sh->opts->budget - sh->runs : 0)) {
        if (e->halt == EXACT_DONE)
            e->halt = EXACT_OVER_BUDGET;
        snprintf(e->vm->error, sizeof e->vm->error, "over the budget of the exact count");
        return false;
    }
    sh->runs += runs;
    return true;
}

static Deferred *new_deferred(int64_t n)
{
    Deferred *d = mem_alloc(sizeof *d);
    d->n = n;
    d->value = mem_alloc_atomic(sizeof(int64_t) * (size_t)(n + 1));
    d->w = mem_alloc(sizeof(mpz_t) * (size_t)(n + 1));
    for (int64_t i = 0; i < n; i++)
        mpz_init(d->w[i]);
    mpz_inits(d->den, d->mass, d->not_given, d->dropped, NULL);
    return d;
}

static void hold(Engine *e, const Deferred *d)
{
    if (e->nheld == e->held_cap) {
        int cap = e->held_cap ? e->held_cap * 2 : 8;
        const Deferred **held = mem_alloc(sizeof(Deferred *) * (size_t)cap);
        if (e->nheld)
            memcpy(held, e->held, sizeof(Deferred *) * (size_t)e->nheld);
        e->held = held;
        e->held_cap = cap;
    }
    e->held[e->nheld++] = d;
}

/* d is no longer held on its own (added into another, chosen, or tallied). */
static void let_go(Engine *e, const Deferred *d)
{
    for (int i = e->nheld - 1; i >= 0; i--)
        if (e->held[i] == d) {
            memmove(e->held + i, e->held + i + 1, sizeof(Deferred *) * (size_t)(e->nheld - i - 1));
            e->nheld--;
            return;
        }
}

/* ---- made of a call's distribution, or of a pool's sum ---- */

static const Deferred *of_dist(const Dist *dist)
{
    const ExactResult *r = &dist->r;
    for (int i = 0; i < r->n; i++)
        if (r->outcomes[i].value.tag != VAL_INT)
            return NULL;
    Deferred *d = new_deferred(r->n);
    /* the common denominator: the lcm of the shares' */
    mpz_set_ui(d->den, 1);
    for (int i = 0; i < r->n; i++)
        mpz_lcm(d->den, d->den, mpq_denref(r->outcomes[i].p));
    mpz_lcm(d->den, d->den, mpq_denref(r->not_given));
    mpz_lcm(d->den, d->den, mpq_denref(r->dropped));
    mpz_t k;
    mpz_init(k);
    int64_t m = 0;
    for (int i = 0; i < r->n; i++) {
        if (mpq_sgn(r->outcomes[i].p) == 0)
            continue;
        d->value[m] = r->outcomes[i].value.as.i;
        mpz_divexact(k, d->den, mpq_denref(r->outcomes[i].p));
        mpz_mul(d->w[m], mpq_numref(r->outcomes[i].p), k);
        mpz_add(d->mass, d->mass, d->w[m]);
        m++;
    }
    d->n = m;
    mpz_divexact(k, d->den, mpq_denref(r->not_given));
    mpz_mul(d->not_given, mpq_numref(r->not_given), k);
    mpz_divexact(k, d->den, mpq_denref(r->dropped));
    mpz_mul(d->dropped, mpq_numref(r->dropped), k);
    mpz_clear(k);
    d->as_dist = dist;
    return d;
}

bool defer_dist(Engine *e, const Dist *dist, Value *out)
{
    /* (a call with no outcome, only shares not given or cut off, ends the
     * run where it is made: what comes after it is never reached, even
     * where it would fail) */
    if (dist->undeferred || dist->r.n == 0)
        return false;
    const Deferred *d = dist->deferred;
    if (!d) {
        if (!afford(e, 0, (uint64_t)dist->r.n))
            return false;
        d = of_dist(dist);
        /* (remembered on the Dist itself, and gone with it) */
        ((Dist *)dist)->deferred = d;
        ((Dist *)dist)->undeferred = !d;
        if (!d)
            return false;
    }
    hold(e, d);
    *out = (Value){ .tag = VAL_DIST, .as.dist = d };
    return true;
}

void defer_joint(Engine *e, const FwJoint *joint, Value *out)
{
    const Deferred *made = joint_find(e->shared->defer, joint);
    if (!made) {
        /* the entries are sorted by their one answer, each answer once */
        Deferred *d = new_deferred(joint->n);
        int64_t m = 0;
        for (int64_t i = 0; i < joint->n; i++) {
            int64_t v = joint->e[i].vals[0];
            if (m == 0 || d->value[m - 1] != v)
                d->value[m++] = v;
            mpz_add(d->w[m - 1], d->w[m - 1], joint->e[i].w);
            mpz_add(d->den, d->den, joint->e[i].w);
        }
        d->n = m;
        mpz_set(d->mass, d->den);
        joint_remember(e->shared, joint, d);
        made = d;
    }
    hold(e, made);
    *out = (Value){ .tag = VAL_DIST, .as.dist = made };
}

/* ---- sums ---- */

typedef struct Pair {
    int64_t value;
    int64_t i, j;
} Pair;

static int pair_order(const void *x, const void *y)
{
    const Pair *a = x, *b = y;
    return (a->value > b->value) - (a->value < b->value);
}

/* a + sign b, outcome by outcome; NULL when a total would overflow.  Dense
 * (an accumulator per total) where the totals are few, else by sorting the
 * pairs. */
static const Deferred *convolve(const Deferred *a, const Deferred *b, int sign)
{
    int64_t blo = sign > 0 ? b->value[0] : -b->value[b->n - 1];
    int64_t bhi = sign > 0 ? b->value[b->n - 1] : -b->value[0];
    int64_t lo, hi;
    if (b->n == 0 || a->n == 0 || __builtin_add_overflow(a->value[0], blo, &lo)
        || __builtin_add_overflow(a->value[a->n - 1], bhi, &hi) || hi - lo < 0)
        return NULL;
    Deferred *d;
    if ((uint64_t)(hi - lo) < 4 * (uint64_t)a->n * (uint64_t)b->n + 1024) {
        int64_t span = hi - lo + 1;
        mpz_t *acc = mem_alloc(sizeof(mpz_t) * (size_t)span);
        for (int64_t t = 0; t < span; t++)
            mpz_init(acc[t]);
        for (int64_t i = 0; i < a->n; i++)
            for (int64_t j = 0; j < b->n; j++)
                mpz_addmul(acc[a->value[i] + sign * b->value[j] - lo], a->w[i], b->w[j]);
        int64_t m = 0;
        for (int64_t t = 0; t < span; t++)
            m += mpz_sgn(acc[t]) != 0;
        d = new_deferred(m);
        m = 0;
        for (int64_t t = 0; t < span; t++)
            if (mpz_sgn(acc[t])) {
                d->value[m] = lo + t;
                mpz_swap(d->w[m++], acc[t]);
            }
    } else {
        Pair *p = mem_alloc_atomic(sizeof(Pair) * (size_t)(a->n * b->n));
        int64_t np = 0;
        for (int64_t i = 0; i < a->n; i++)
            for (int64_t j = 0; j < b->n; j++)
                p[np++] = (Pair){ a->value[i] + sign * b->value[j], i, j };
        qsort(p, (size_t)np, sizeof *p, pair_order);
        int64_t m = 0;
        for (int64_t t = 0; t < np; t++)
            m += t == 0 || p[t].value != p[t - 1].value;
        d = new_deferred(m);
        m = 0;
        for (int64_t t = 0; t < np; t++) {
            if (t == 0 || p[t].value != p[t - 1].value)
                d->value[m++] = p[t].value;
            mpz_addmul(d->w[m - 1], a->w[p[t].i], b->w[p[t].j]);
        }
    }
    mpz_mul(d->den, a->den, b->den);
    mpz_mul(d->mass, a->mass, b->mass);
    /* a's own ends come first, then b's after each of a's outcomes */
    mpz_mul(d->not_given, a->not_given, b->den);
    mpz_addmul(d->not_given, a->mass, b->not_given);
    mpz_mul(d->dropped, a->dropped, b->den);
    mpz_addmul(d->dropped, a->mass, b->dropped);
    return d;
}

/* sign a + k, every outcome moved; NULL on an overflow.  The weights are
 * a's own (never changed once made), reversed for -a. */
static const Deferred *shift(const Deferred *a, int sign, int64_t k)
{
    Deferred *d = mem_alloc(sizeof *d);
    d->n = a->n;
    d->value = mem_alloc_atomic(sizeof(int64_t) * (size_t)(a->n + 1));
    if (sign > 0) {
        d->w = a->w;
    } else {
        d->w = mem_alloc(sizeof(mpz_t) * (size_t)(a->n + 1));
        for (int64_t i = 0; i < a->n; i++)
            memcpy(d->w[i], a->w[a->n - 1 - i], sizeof(mpz_t));   /* (shared limbs: read only) */
    }
    mpz_inits(d->den, d->mass, d->not_given, d->dropped, NULL);
    for (int64_t i = 0; i < a->n; i++) {
        int64_t at = sign > 0 ? i : a->n - 1 - i;
        if (a->value[at] == INT64_MIN || __builtin_add_overflow(sign * a->value[at], k, &d->value[i]))
            return NULL;
    }
    mpz_set(d->den, a->den);
    mpz_set(d->mass, a->mass);
    mpz_set(d->not_given, a->not_given);
    mpz_set(d->dropped, a->dropped);
    return d;
}

/* An outcome of d chosen, as a call's would be: 0 with *v an int, or -1
 * (the run ends: not given, cut off, or rolled differently). */
static int choose(Engine *e, const Deferred *d, Value *v)
{
    if (!d->as_dist) {
        Dist *dist = mem_alloc(sizeof *dist);
        dist->proto = -1;
        ExactResult *r = &dist->r;
        r->n = (int)d->n;
        r->outcomes = mem_alloc(sizeof(ExactOutcome) * (size_t)(d->n + 1));
        for (int64_t i = 0; i < d->n; i++) {
            r->outcomes[i].value = val_int(d->value[i]);
            mpq_init(r->outcomes[i].p);
            mpq_set_num(r->outcomes[i].p, d->w[i]);
            mpq_set_den(r->outcomes[i].p, d->den);
            mpq_canonicalize(r->outcomes[i].p);
        }
        mpq_inits(r->not_given, r->dropped, NULL);
        mpq_set_num(r->not_given, d->not_given);
        mpq_set_den(r->not_given, d->den);
        mpq_canonicalize(r->not_given);
        mpq_set_num(r->dropped, d->dropped);
        mpq_set_den(r->dropped, d->den);
        mpq_canonicalize(r->dropped);
        r->status = EXACT_DONE;
        ((Deferred *)d)->as_dist = dist;
    }
    let_go(e, d);
    int64_t option;
    if (decide_dist(e, d->as_dist, &option))
        return -1;
    if (option < d->n) {
        *v = val_int(d->value[option]);
        return 0;
    }
    e->end = option == d->n ? PATH_NOT_GIVEN : PATH_CUT;
    snprintf(e->vm->error, sizeof e->vm->error, "%s", e->end == PATH_CUT ? "cut off" : "not given");
    return -1;
}

/* What `kind` of on (with other or k) makes, remembered on `on`: *made,
 * true; false when the budget cannot pay for it. */
static bool made_of(Engine *e, const Deferred *on, DeferKind kind, const Deferred *other, int64_t k,
                    const Deferred **made)
{
    for (const DeferUse *u = on->uses; u; u = u->next)
        if (u->kind == kind && u->other == other && u->k == k) {
            *made = u->made;
            return true;
        }
    bool pairs = kind == FROM_ADD || kind == FROM_SUB;
    if (!(pairs ? afford(e, (uint64_t)on->n * (uint64_t)other->n, (uint64_t)(on->n + other->n))
                : afford(e, 0, (uint64_t)on->n)))
        return false;
    DeferUse *u = mem_alloc(sizeof *u);
    *u = (DeferUse){ kind, other, k, NULL, on->uses };
    u->made = pairs ? convolve(on, other, kind == FROM_SUB ? -1 : 1) : shift(on, kind == FROM_KSUB ? -1 : 1, k);
    ((Deferred *)on)->uses = u;
    *made = u->made;
    return true;
}

int defer_arith(void *ud, Vm *vm, OpCode op, Value *a, Value *b, Value *out)
{
    Engine *e = ud;
    (void)vm;
    int sign = op == OP_SUB ? -1 : 1;
    const Deferred *d = NULL;
    bool afforded = true;
    if (a->tag == VAL_DIST && b->tag == VAL_DIST)
        afforded = made_of(e, a->as.dist, sign > 0 ? FROM_ADD : FROM_SUB, b->as.dist, 0, &d);
    else if (a->tag == VAL_DIST && b->tag == VAL_INT && b->as.i != INT64_MIN)
        afforded = made_of(e, a->as.dist, FROM_ADDK, NULL, sign * b->as.i, &d);
    else if (b->tag == VAL_DIST && a->tag == VAL_INT)
        afforded = made_of(e, b->as.dist, sign > 0 ? FROM_ADDK : FROM_KSUB, NULL, a->as.i, &d);
    if (!afforded)
        return -1;
    if (d) {
        if (a->tag == VAL_DIST)
            let_go(e, a->as.dist);
        if (b->tag == VAL_DIST)
            let_go(e, b->as.dist);
        hold(e, d);
        *out = (Value){ .tag = VAL_DIST, .as.dist = d };
        return 0;
    }
    /* a total past an int, or an operand that is no int: each chosen, and
     * the machine's own arithmetic says what it says (in the order made) */
    if (a->tag == VAL_DIST && choose(e, a->as.dist, a))
        return -1;
    if (b->tag == VAL_DIST && choose(e, b->as.dist, b))
        return -1;
    return 1;
}

int defer_settle(void *ud, Vm *vm, int depth, bool taken, Value *v)
{
    Engine *e = ud;
    /* taken on by the caller, or the result of the call asked about (the
     * count tallies it whole: not a result for a default, nor one that
     * goes out with the bags) */
    if (taken || (depth == 0 && e->merging && !vm->bag_pair))
        return 0;
    return choose(e, v->as.dist, v) ? -1 : 0;
}

/* d's not-given and dropped shares of a run of weight num / (m / d's
 * denominator) to t (n: room for a product). */
static void tally_ends(Tally *t, const Deferred *d, mpz_srcptr num, mpz_srcptr m, mpz_ptr n)
{
    if (mpz_sgn(d->not_given)) {
        mpz_mul(n, num, d->not_given);
        tally_add(t->r.not_given, n, m);
    }
    if (mpz_sgn(d->dropped)) {
        mpz_mul(n, num, d->dropped);
        tally_add(t->r.dropped, n, m);
    }
}

void defer_tally(Engine *e, const Deferred *d, Tally *t, mpz_srcptr num, mpz_srcptr den)
{
    let_go(e, d);
    mpz_t n, m;
    mpz_inits(n, m, NULL);
    mpz_mul(m, den, d->den);
    for (int64_t i = 0; i < d->n; i++) {
        mpz_mul(n, num, d->w[i]);
        tally_add(*tally_slot(&t->r, val_int(d->value[i]), &t->cap), n, m);
    }
    tally_ends(t, d, num, m, n);
    mpz_clears(n, m, NULL);
}

void defer_held_first(Engine *e, Tally *t, mpz_ptr num, mpz_ptr den)
{
    mpz_t n, m;
    mpz_inits(n, m, NULL);
    for (int i = 0; i < e->nheld; i++) {
        const Deferred *d = e->held[i];
        mpz_mul(m, den, d->den);
        tally_ends(t, d, num, m, n);
        mpz_mul(num, num, d->mass);
        mpz_set(den, m);
    }
    e->nheld = 0;
    mpz_clears(n, m, NULL);
}
