/* exact.c — the exact engine: every path through a procedure's dice, once. */
#include "config.h"
#include "vm/exact.h"
#include "base/mem.h"
#include "vm/facewise.h"
#include "vm/merge.h"
#include "vm/pool.h"
#include "vm/tally.h"

#include <math.h>
#include <stdlib.h>
#include <pthread.h>
#ifdef __EMSCRIPTEN__
#include <emscripten/stack.h>
#endif
#include <string.h>

/* A worked-out distribution of a rerolling or recursive procedure, for its
 * callers.  For a procedure that draws, `bags` is what the bags had left
 * when it was called (Vm.bag_left), and when anything may draw after it
 * returns (Proto.drawn_after), each outcome's value is a pair (bags_pair):
 * the result, and what the bags have left after it. */
typedef struct Dist {
    int proto;
    Value *args;
    int nargs;
    const int64_t *bags;
    bool paired;             /* its outcomes are pairs (bags_pair): something may draw after the call */
    ExactResult r;
    /* Worked out from the odds of a call still being worked out (a Working
     * below it): valid only while that one is in the same round (dep_gen);
     * NULL: final.  With `pending`, some outcomes stand for the result of
     * such a call (pending_value), and it is taken only where that result
     * would be returned as it is (a tail call). */
    const struct Working *dep;
    uint64_t dep_gen;
    bool pending;
    struct Dist *next;       /* the next in its bucket of Shared.memo */
} Dist;

typedef enum { DEC_POOL, DEC_DIST, DEC_SPLIT, DEC_VALUE, DEC_DRAW } DecKind;

/* One choice on the current path, and the probability of the path up to it. */
typedef struct Decision {
    DecKind kind;
    int64_t n;               /* DEC_POOL: n dice of `sides`; DEC_SPLIT: the n dice of a class;
                                DEC_VALUE: the end of the entries that agree with the answers before */
    int32_t sides;           /* DEC_POOL: faces; DEC_SPLIT: the class's faces in its first part (a) ... */
    int32_t other;           /* ... DEC_SPLIT: and in the rest (b) */
    int32_t *face;           /* DEC_POOL: the multiset, as its n faces in ascending order */
    bool given_sum;          /* DEC_POOL: only the multisets whose faces add up to want_sum, out of the
                                orders that do (own_den, set once) */
    int64_t want_sum;
    const Dist *dist;        /* DEC_DIST: the callee's outcomes, then not-given and dropped */
    const FwJoint *joint;    /* DEC_VALUE: the answers to the questions asked of a roll */
    int64_t index;           /* DEC_DIST: the option; DEC_SPLIT: the dice in the first part;
                                DEC_VALUE: the entry of the joint */
    int32_t kinds;           /* DEC_DRAW: n items from a bag of this many kinds, left[k] of kind k, */
    int64_t *left, *taken;   /* taken[k] of them drawn (a combination, not an order) */
    mpz_t own_num, own_den;  /* the probability of this choice */
    mpz_t num, den;          /* the path's up to and including it (not in lowest terms) */
} Decision;

/* ---- lazy pools ----
 *
 * A pool of up to 64 slots is not settled when it is rolled.  A Roll's
 * slots are the faces its dice can show, numbered 1..S in the order of the
 * values they show (value[s-1], nondecreasing, equal values allowed; NULL
 * for a plain dN, whose slot s shows s: that path is the same as ever).  A
 * dN is slots 1..N; a die of its own faces (Die) is a slot per face, its
 * values from the die; a mixed pool (OP_JOIN of fresh rolls, lazy_join) is
 * the slots of its parts merged in the order of their values, the dice of
 * each kind one class over that kind's slots ([d20, d20, d20]: one kind, 20
 * slots).  Its dice are kept as a partition of the slots into classes, with
 * the number of dice in each class (a Roll: at first a class per kind of
 * die, all its dice), every die of a class equally likely to show each of
 * its slots; and the pools the procedure holds are Views of it: the dice of
 * the roll whose slot is in a set (a filter narrows the set, with no
 * decision: faces_where gives the slots whose values pass, all the slots of
 * a value or none).  A question refines the partition just enough to answer
 * it: counting the dice of a set S splits each class that S cuts into its
 * part in S (a slots) and the rest (b slots), one DEC_SPLIT decision over
 * the j = 0..k dice of the class that land in its first part, with
 * probability C(k,j) a^j b^(k-j) / (a+b)^k.  A class with no dice splits
 * with no decision.  (A count that cuts several classes of a mixed pool is
 * asked face by face instead, below: one decision, not one per kind.)
 * Whether any die is in S is often known with no split at all, and
 * otherwise the classes S cuts are split one at a time until one has a die
 * in S (any_in); all() is any() of the dice that fail, highest and lowest
 * ask any() value by value (the slots of a value together).  The
 * refinement belongs to the roll, so every View of it sees it.  What needs
 * the dice themselves (a pool leaving the run, or compared) splits the
 * View's classes into single slots, one DEC_POOL decision per class among
 * its multisets, and then has an ordinary sorted pool of the slots' values
 * (Pool.sides as pool_die_values sets it).
 *
 * Rolls and Views are remade by every run (the decisions replay the same
 * refinements, and a join makes none); they live in slabs the engine keeps
 * from run to run, so a run allocates nothing but its pools.
 */
#define LAZY_MAX_SIDES 64

/* A class: its slots (bit s-1: slot s) and the dice showing one of them;
 * the same record facewise.c takes. */
typedef FwClass Class;

/* Different questions answered about one roll, at most (each a number in
 * the state of the next question's work); a question asked again is
 * answered from the first */
#define ASKED_MAX FW_MAX_QUESTIONS

typedef struct Roll {
    int32_t sides;           /* its slots: 1..sides */
    const int32_t *value;    /* value[s-1]: what slot s shows, nondecreasing; NULL: s itself (a plain dN) */
    int32_t pool_sides;      /* Pool.sides of a pool of its values */
    bool fresh;              /* nothing split, settled or asked since it was rolled (or joined) */
    int kinds;               /* kinds of dice: 1, or those of a mixed pool (its classes when fresh) */
    uint16_t symbols;        /* Pool.symbols of its pools (0: numbers) */
    int32_t map[LAZY_MAX_SIDES];  /* value's own storage */
    int ncls;
    Class cls[LAZY_MAX_SIDES];
    int nasked;              /* questions answered face by face (DEC_VALUE): once there is
                                one, the classes are not split any more */
    FwQuestion asked[ASKED_MAX];
    const int64_t *answers;  /* their answers, in order */
    /* plain dice of more than LAZY_MAX_SIDES sides (no classes): big_n of
     * them; their sum is answered as a distribution (sum_known, sum, out of
     * sum_ways orders), anything else from their multiset */
    bool big, sum_known;
    int64_t big_n, sum;
    const mpz_t *sum_ways;
} Roll;

typedef struct View {
    LazyPool base;           /* first: Pool.lazy points here */
    Roll *roll;
    uint64_t faces;          /* the dice of the roll on these slots; */
    int32_t keep;            /* 0, or of them only the keep_n highest (1) or lowest (-1), */
    int64_t keep_n;
    uint64_t post;           /* and of those kept, the ones on these slots (all when keep is 0) */
    const Pool *plain;       /* once worked out: the dice's values, as a plain pool */
} View;

/* Fixed-size items in chunks that never move (Pools point at Views). */
typedef struct Slab {
    size_t size;             /* of an item */
    bool atomic;             /* the items hold no pointers */
    char **chunk;
    int nchunks;
    int used;                /* items handed out this run */
} Slab;

#define SLAB_CHUNK 32

/* A claim worked out, for the arguments and choices it was worked out under. */
typedef struct ClaimMemo {
    int proto;
    int *choices;            /* a copy; NULL: every default */
    Value *args;             /* its arguments, kept (vm_keep): the caller's names it uses */
    int nargs;
    Value odds;
    struct ClaimMemo *next;
} ClaimMemo;

struct Claims {
    ClaimMemo *first;
};

/* A distribution being worked out, for the calls of it inside itself: a
 * recursive procedure with the same arguments (a duel that goes on, shots
 * until the target is destroyed) is answered from its odds so far. */
typedef struct Working {
    int proto;
    const Value *args;
    int nargs;
    const int64_t *bags;     /* (as Dist.bags) */
    const Dist *approx;      /* its odds so far: the recursion cut where the last round stopped */
    bool used;               /* asked for inside itself this round, not as a tail call */
    int id;                  /* its pending_value */
    int level;               /* 1 + the Workings below it */
    bool alive;              /* still being worked out */
    uint64_t gen;            /* its round, unique in the count (Dist.dep_gen) */
    const struct Working *dep;   /* the innermost Working below it whose odds its own rest on */
    struct Working *below;
} Working;

typedef struct Shared {
    const ExactOptions *opts;
    Working *working;        /* the distributions being worked out, innermost first */
    uint64_t runs;
    FwCache *fw;             /* answers worked out face by face */
    uint64_t next_tick;      /* runs at which the tick is called next */
    double done;             /* the outermost count's share of the probability run so far */
    int active;              /* counts under way on this Shared (1: the outermost) */
    bool stopped;            /* the tick said stop */
    const struct Shared *outer;  /* a claim's count: the count it is part of, whose progress the
                                    tick reports (its runs with the claim's, its share); else NULL */
    double needed;           /* the pool that did not fit the budget: its multisets */
    const char *beyond;      /* a limit no budget lifts, met (ExactResult.beyond) */
    /* the distributions worked out, by procedure, arguments and bags (a
     * hash table of chains; memo_cap a power of two, or 0) */
    Dist **memo;
    size_t memo_cap, memo_n;
    MergeLive *live;         /* the locals each procedure reads later (merge.h) */
    uint64_t merged;         /* runs ended at a state counted already */
    /* the next distribution's: the Working it works out (else NULL), and
     * whether it answers every call of a Working with its odds so far (no
     * pending results); the last one's innermost Working it rests on */
    Working *next_owner;
    bool next_approx;
    const Working *last_dep;
    int next_id;
    uint64_t next_gen;
} Shared;

/* Where a run that the engine ended goes (the VM sees an error). */
typedef enum PathEnd {
    PATH_OPEN,               /* the engine did not end it: its result or its error says */
    PATH_CUT,                /* past the depth limit, or a nested distribution's cut-off share
                                chosen: the dropped share */
    PATH_NOT_GIVEN,          /* a nested distribution's not-given share chosen */
    PATH_MERGED,             /* it reached a state whose runs are counted already (merge.h): `hit` */
} PathEnd;

typedef struct Engine {
    DiceSource base;         /* first: the VM sees an Engine as its dice source */
    Vm *vm;
    Shared *shared;
    Decision *path;
    int len, cap;
    int depth;               /* decisions consumed by this run */
    int rolls;               /* rolls made by this run (splits are not rolls): the depth limit */
    PathEnd end;             /* this run, when the engine ended it */
    /* EXACT_DONE while the count may go on; else the run found that it
     * cannot: EXACT_OVER_BUDGET (a pool with more multisets than the budget
     * has runs left, a nested distribution or a claim over budget), or
     * EXACT_FAILED (pool_plain could not work out a pool's faces;
     * vm->error says why) */
    ExactStatus halt;
    Slab rolls_slab, views;  /* this run's lazy pools */
    /* runs that meet in a state are counted once (merge.h): only while
     * the run is inside the call asked about (not its defaults, whose
     * values the driver holds outside the machine) */
    Merger *merger;
    bool merging;
    int hit;                 /* PATH_MERGED: the state reached (merger_at) */
    Tally *top;              /* the count's own tally */
    int64_t *extra;          /* the engine's part of a state */
    int extra_cap;
    /* the Working this count works out (its tail calls of Workings are
     * answered with pending results), or NULL; with `approx`, none is */
    Working *owner;
    bool approx;
    const Working *dep;      /* the innermost Working other than the owner its odds rest on */
} Engine;

/* The driver's tick, when its time has come: false when it says stop
 * (and from then on). */
static bool tick_now(Shared *s)
{
    const ExactOptions *o = s->opts;
    if (o->tick && !s->stopped) {
        /* inside a claim, the progress of the count the driver started */
        ExactProgress p = { .runs = s->runs };
        const Shared *top = s;
        for (; top->outer; top = top->outer)
            p.runs += top->outer->runs;
        p.done = top->done;
        if (!o->tick(o->tick_ud, &p))
            s->stopped = true;
    }
    return !s->stopped;
}

static bool tick(Shared *s)
{
    if (s->stopped || !s->opts->tick || s->runs < s->next_tick)
        return !s->stopped;
    s->next_tick = s->runs + (s->opts->tick_every ? s->opts->tick_every : EXACT_TICK_EVERY);
    return tick_now(s);
}

/* num / den as a double, for numbers past a double's range too. */
static double ratio_d(mpz_srcptr num, mpz_srcptr den)
{
    long en, ed;
    double n = mpz_get_d_2exp(&en, num), d = mpz_get_d_2exp(&ed, den);
    return d == 0 ? 0 : ldexp(n / d, (int)(en - ed));
}

void exact_clear(ExactResult *r)
{
    for (int i = 0; i < r->n; i++)
        mpq_clear(r->outcomes[i].p);
    r->n = 0;
    mpq_clear(r->not_given);
    mpq_clear(r->dropped);
}

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
    mpz_bin_uiui(d->own_den, (unsigned long)total, (unsigned long)d->n);
    mpz_clear(c);
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
static void weigh_own(Decision *d)
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
static void weigh_path(Engine *e, int k, bool den)
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

static void weigh(Engine *e, int k)
{
    weigh_own(&e->path[k]);
    weigh_path(e, k, true);
}

static Decision *push(Engine *e)
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
static bool dist_option_empty(const Decision *d)
{
    const ExactResult *r = &d->dist->r;
    if (d->index < r->n)
        return mpq_sgn(r->outcomes[d->index].p) == 0;
    if (d->index == r->n)
        return mpq_sgn(r->not_given) == 0;
    return mpq_sgn(r->dropped) == 0;
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
static bool advance(Engine *e)
{
    while (e->len > 0) {
        /* the states whose paths are all below the decision about to move are done */
        if (e->merger)
            merger_close(e->merger, e->len, true, e->top);
        Decision *d = &e->path[e->len - 1];
        if (d->kind == DEC_POOL) {
            if (next_multiset(d)) {
                weigh_orders(d);   /* s^n stays */
                weigh_path(e, e->len - 1, false);
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
                weigh_path(e, e->len - 1, false);
                return true;
            }
        } else if (d->kind == DEC_VALUE) {
            if (++d->index < d->n) {
                weigh_own(d);    /* the denominator stays */
                weigh_path(e, e->len - 1, false);
                return true;
            }
        } else if (d->kind == DEC_DRAW) {
            if (draw_next(d)) {
                weigh_draw(d);   /* (the denominator stays) */
                weigh_path(e, e->len - 1, false);
                return true;
            }
        } else {
            int last = d->dist->r.n + 2;
            do
                d->index++;
            while (d->index < last && dist_option_empty(d));
            if (d->index < last) {
                weigh(e, e->len - 1);
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

static int rolled_differently(char *err, size_t errlen)
{
    snprintf(err, errlen, "the procedure rolled differently on the same dice (it must not depend "
                          "on anything but its arguments and dice)");
    return -1;
}

/* A roll (of a pool, a die, or a call of a rerolling procedure) counts
 * towards the depth limit; past it the path is cut. */
static int count_roll(Engine *e, char *err, size_t errlen)
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

/* The next decision of the path: n dice of `sides`, one choice among their
 * multisets (a new one starts at every die on the first face). */
/* One choice among the multisets of n dS (with `ways`, only those whose
 * faces add up to *sum, of the `ways` orders that do). */
static int pool_decision(Engine *e, int64_t n, int32_t sides, const int64_t *sum, mpz_srcptr ways, Decision **out,
                         char *err, size_t errlen)
{
    const ExactOptions *o = e->shared->opts;
    Decision *d;
    if (e->depth < e->len) {
        d = &e->path[e->depth];
        if (d->kind != DEC_POOL || d->n != n || d->sides != sides || d->given_sum != (sum != NULL)
            || (sum && d->want_sum != *sum))
            return rolled_differently(err, errlen);
    } else {
        /* a pool with more multisets than runs left can never be finished:
         * say so now.  C(n+s-1, r), r the smaller of n and s-1: the product
         * of r ratios, however many sides the dice have */
        double multisets = 1;
        int64_t r = n < sides - 1 ? n : sides - 1;
        for (int64_t k = 1; k <= r && multisets < 1e18; k++)
            multisets = multisets * (double)(n + sides - 1 - r + k) / (double)k;
        if (multisets > (double)(o->budget - e->shared->runs)) {
            /* over budget wins over a failure found earlier in the run */
            e->halt = EXACT_OVER_BUDGET;
            if (multisets > (double)o->budget)
                e->shared->needed = multisets;   /* this pool alone is past the budget */
            snprintf(err, errlen, "over the budget of the exact count");
            return -1;
        }
        d = push(e);
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
        weigh(e, e->len - 1);
    }
    e->depth++;
    *out = d;
    return 0;
}

static int engine_roll(DiceSource *self, int64_t n, int32_t sides, const Die *die, int32_t *out, char *err,
                       size_t errlen)
{
    (void)die;   /* the faces are chosen as numbers: the VM maps them to the die's values */
    Engine *e = (Engine *)self;
    Decision *d;
    if (count_roll(e, err, errlen))
        return -1;
    if (n == 0)
        return 0;           /* a roll (it counts towards the cut) with nothing to choose */
    if (pool_decision(e, n, sides, NULL, NULL, &d, err, errlen))
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

/* n items drawn from a bag: one choice among the combinations of its kinds
 * (how many of each), weighed by the ways to draw them, never by orders. */
static int engine_draw(DiceSource *self, int64_t n, const Die *kinds, const int64_t *left, int64_t total,
                       int64_t *taken, int32_t *order, char *err, size_t errlen)
{
    (void)order;
    Engine *e = (Engine *)self;
    const ExactOptions *o = e->shared->opts;
    if (count_roll(e, err, errlen))
        return -1;
    Decision *d;
    if (e->depth < e->len) {
        d = &e->path[e->depth];
        if (d->kind != DEC_DRAW || d->n != n || d->kinds != kinds->n
            || memcmp(d->left, left, sizeof(int64_t) * (size_t)kinds->n))
            return rolled_differently(err, errlen);
    } else {
        /* more combinations than the runs left can never be finished */
        double combos = draw_combinations(n, kinds->n, left);
        if (combos > (double)(o->budget - e->shared->runs) && combos > 1) {
            e->halt = EXACT_OVER_BUDGET;
            if (combos > (double)o->budget)
                e->shared->needed = combos;
            snprintf(err, errlen, "over the budget of the exact count");
            return -1;
        }
        (void)total;
        d = push(e);
        d->kind = DEC_DRAW;
        d->n = n;
        d->kinds = kinds->n;
        d->left = mem_alloc_atomic(sizeof(int64_t) * 2 * (size_t)kinds->n);
        d->taken = d->left + kinds->n;
        memcpy(d->left, left, sizeof(int64_t) * (size_t)kinds->n);
        draw_first(d);
        weigh(e, e->len - 1);
    }
    e->depth++;
    memcpy(taken, d->taken, sizeof(int64_t) * (size_t)kinds->n);
    return 0;
}

/* ---- lazy pools: the pool methods ---- */

static void *slab_take(Slab *s)
{
    int c = s->used / SLAB_CHUNK;
    if (c == s->nchunks) {
        char **chunk = mem_alloc(sizeof(char *) * (size_t)(c + 1));
        if (c)
            memcpy(chunk, s->chunk, sizeof(char *) * (size_t)c);
        chunk[c] = s->atomic ? mem_alloc_atomic(s->size * SLAB_CHUNK) : mem_alloc(s->size * SLAB_CHUNK);
        s->chunk = chunk;
        s->nchunks = c + 1;
    }
    return s->chunk[c] + s->size * (size_t)(s->used++ % SLAB_CHUNK);
}

/* Slots 1..k (k <= 64). */
static uint64_t all_faces(int32_t k)
{
    return k == 64 ? ~(uint64_t)0 : ((uint64_t)1 << k) - 1;
}

static int32_t slot_value(const Roll *r, int32_t s)
{
    return r->value ? r->value[s - 1] : s;
}

/* The slots of r whose values compare to x: all the slots of a value or
 * none of them. */
static uint64_t faces_where(const Roll *r, CmpOp cmp, Value x)
{
    int32_t sides = r->sides;
    uint64_t all = all_faces(sides);
    if (x.tag == VAL_INT) {
        /* the values are in order: the slots under x are 1..lt, those up to x 1..le */
        int64_t lt, le, k = x.as.i;
        if (!r->value) {
            lt = k - 1 < 0 ? 0 : k - 1 > sides ? sides : k - 1;
            le = k < 0 ? 0 : k > sides ? sides : k;
        } else {
            for (lt = 0; lt < sides && r->value[lt] < k; lt++)
                ;
            for (le = lt; le < sides && r->value[le] <= k; le++)
                ;
        }
        uint64_t below = all_faces((int32_t)lt), upto = all_faces((int32_t)le), at = upto & ~below;
        switch (cmp) {
        case CMP_LT: return below;
        case CMP_LE: return upto;
        case CMP_GT: return all & ~upto;
        case CMP_GE: return all & ~below;
        case CMP_EQ: return at;
        case CMP_NE: return all & ~at;
        }
    }
    uint64_t m = 0;
    for (int32_t f = 1; f <= sides; f++)
        if (pool_face_cmp(slot_value(r, f), cmp, x))
            m |= (uint64_t)1 << (f - 1);
    return m;
}

/* A lazy pool: the dice of roll r with a face in `faces`. */
static const Pool *view_pool(Engine *e, Roll *r, uint64_t faces)
{
    View *v = slab_take(&e->views);
    v->base.source = &e->base;
    v->roll = r;
    v->faces = faces;
    v->keep = 0;
    v->keep_n = 0;
    v->post = r->big ? 0 : all_faces(r->sides);
    v->plain = NULL;
    Pool *p = pool_alloc(e->vm->scratch, r->pool_sides, 0);
    p->symbols = r->symbols;
    p->n = -1;
    p->lazy = &v->base;
    return p;
}

/* Split class i of r, which S cuts, into its part in S (kept at i) and the
 * rest (added at the end). */
static int split_class(Engine *e, Roll *r, int i, uint64_t S, char *err, size_t errlen)
{
    Class *c = &r->cls[i];
    uint64_t in = c->faces & S, out = c->faces & ~S;
    int64_t j = 0;
    r->fresh = false;
    if (c->count > 0) {
        int32_t a = __builtin_popcountll(in), b = __builtin_popcountll(out);
        Decision *d;
        if (e->depth < e->len) {
            d = &e->path[e->depth];
            if (d->kind != DEC_SPLIT || d->n != c->count || d->sides != a || d->other != b)
                return rolled_differently(err, errlen);
        } else {
            d = push(e);
            d->kind = DEC_SPLIT;
            d->n = c->count;
            d->sides = a;
            d->other = b;
            weigh(e, e->len - 1);
        }
        e->depth++;
        j = d->index;
    }
    r->cls[r->ncls++] = (Class){ out, c->count - j };
    c->faces = in;
    c->count = j;
    return 0;
}

/* Split every class of r that S cuts. */
static int refine(Engine *e, Roll *r, uint64_t S, char *err, size_t errlen)
{
    int ncls = r->ncls;
    for (int i = 0; i < ncls; i++)
        if ((r->cls[i].faces & S) && (r->cls[i].faces & ~S) && split_class(e, r, i, S, err, errlen))
            return -1;
    return 0;
}

/* How many classes of r with dice S cuts. */
static int cut_classes(const Roll *r, uint64_t S)
{
    int n = 0;
    for (int i = 0; i < r->ncls; i++)
        n += r->cls[i].count > 0 && (r->cls[i].faces & S) && (r->cls[i].faces & ~S);
    return n;
}

/* How many dice of r have a face in S. */
static int count_in(Engine *e, Roll *r, uint64_t S, int64_t *n, char *err, size_t errlen)
{
    *n = 0;
    if (!S)
        return 0;
    if (refine(e, r, S, err, errlen))
        return -1;
    for (int i = 0; i < r->ncls; i++)
        if (r->cls[i].faces & S)
            *n += r->cls[i].count;
    return 0;
}

/* Does some die of r have a face in S?  Often known with no split (a class
 * inside S has dice, or no class that meets S has any); else the classes S
 * cuts are split one at a time, until one turns up a die in S. */
static int any_in(Engine *e, Roll *r, uint64_t S, bool *yes, char *err, size_t errlen)
{
    *yes = false;
    bool open = false;
    for (int i = 0; i < r->ncls; i++) {
        const Class *c = &r->cls[i];
        if (!(c->faces & S) || c->count == 0)
            continue;
        if (!(c->faces & ~S)) {
            *yes = true;
            return 0;
        }
        open = true;
    }
    if (!open)
        return 0;
    int ncls = r->ncls;
    for (int i = 0; i < ncls; i++) {
        const Class *c = &r->cls[i];
        if (!(c->faces & S) || !(c->faces & ~S) || c->count == 0)
            continue;
        if (split_class(e, r, i, S, err, errlen))
            return -1;
        if (r->cls[i].count > 0) {
            *yes = true;
            return 0;
        }
    }
    return 0;
}

/* The faces of the dice of r with a face in `faces`, while r has not been
 * asked anything face by face: its classes split into single faces, one
 * DEC_POOL decision per class among its multisets. */
static int settle_classes(Engine *e, Roll *r, uint64_t faces, const Pool **out, char *err, size_t errlen)
{
    if (refine(e, r, faces, err, errlen))
        return -1;
    int ncls = r->ncls;
    for (int i = 0; i < ncls; i++) {
        Class *c = &r->cls[i];
        int32_t m = __builtin_popcountll(c->faces);
        if (!(c->faces & faces) || m == 1 || c->count == 0)
            continue;
        Decision *d;
        if (pool_decision(e, c->count, m, NULL, NULL, &d, err, errlen))
            return -1;
        /* the class's faces in ascending order take the multiset's counts */
        int64_t counts[LAZY_MAX_SIDES] = { 0 };
        for (int64_t k = 0; k < d->n; k++)
            counts[d->face[k] - 1]++;
        uint64_t rest = c->faces;
        for (int32_t k = 0; k < m; k++) {
            uint64_t bit = rest & -rest;
            rest &= rest - 1;
            if (k == 0)
                *c = (Class){ bit, counts[0] };
            else
                r->cls[r->ncls++] = (Class){ bit, counts[k] };
        }
    }
    r->fresh = false;
    int64_t count[LAZY_MAX_SIDES + 1] = { 0 }, n = 0;
    for (int i = 0; i < r->ncls; i++)
        if ((r->cls[i].faces & faces) && r->cls[i].count) {
            count[__builtin_ctzll(r->cls[i].faces) + 1] = r->cls[i].count;
            n += r->cls[i].count;
        }
    /* the slots in order show their values in order: the pool is sorted */
    Pool *p = pool_alloc(e->vm->scratch, r->pool_sides, n);
    p->symbols = r->symbols;
    int64_t k = 0;
    for (int32_t f = 1; f <= r->sides; f++)
        for (int64_t c = count[f]; c > 0; c--)
            p->face[k++] = slot_value(r, f);
    *out = p;
    return 0;
}

/* ---- lazy pools: questions answered face by face ----
 *
 * What splitting classes cannot answer without settling every multiset (a
 * sum, the highest three, doubles, anything about a pool of kept dice) is
 * worked out face by face (facewise.c, slot by slot with the roll's value
 * map): the distribution of the answer, one DEC_VALUE decision among its
 * values.  (Dice of equal values on different slots are alike to every
 * question: a kept few cut among them take the higher slots first, the
 * same on every path.)  That answer is then known of
 * the roll, and every later question about it is asked together with the
 * earlier ones, given their answers (the entries of their joint
 * distribution that begin with them): so the roll's classes are never
 * split again, and a sum and a count of one roll stay exact together.
 */

/* Work done face by face counts towards the budget at this many steps a run. */
#define FW_STEPS_PER_RUN 32

static bool fw_tick(void *ud)
{
    return tick_now(ud);
}

static FwQuestion question(const View *v, FwKind kind)
{
    return (FwQuestion){ .kind = kind, .keep = v->keep, .keep_n = v->keep_n, .pre = v->faces, .post = v->post };
}

/* The answer to q about roll r: *answer points at it (fw_width(q) numbers). */
static bool same_question(const FwQuestion *a, const FwQuestion *b)
{
    return a->kind == b->kind && a->keep == b->keep && a->keep_n == b->keep_n && a->pre == b->pre
        && a->post == b->post;
}

static int ask(Engine *e, Roll *r, const FwQuestion *q, const int64_t **answer, char *err, size_t errlen)
{
    /* asked before: the same answer, and no new decision */
    for (int i = 0, at = 0; i < r->nasked; at += fw_width(&r->asked[i]), i++)
        if (same_question(&r->asked[i], q)) {
            *answer = r->answers + at;
            return 0;
        }
    Decision *d;
    if (e->depth < e->len) {
        d = &e->path[e->depth];
        if (d->kind != DEC_VALUE || d->joint->nq != r->nasked + 1)
            return rolled_differently(err, errlen);
    } else {
        Shared *sh = e->shared;
        if (r->nasked == ASKED_MAX) {
            e->halt = EXACT_OVER_BUDGET;
            sh->beyond = "it keeps at most " FW_MAX_QUESTIONS_TEXT " different questions about one roll together "
                         "(sums, counts, the highest or lowest dice), and more are asked";
            snprintf(err, errlen, "over a limit of the exact count: %s", sh->beyond);
            return -1;
        }
        FwQuestion qs[ASKED_MAX + 1];
        memcpy(qs, r->asked, sizeof(FwQuestion) * (size_t)r->nasked);
        qs[r->nasked] = *q;
        if (!sh->fw)
            sh->fw = fw_cache_new();
        uint64_t left = sh->opts->budget > sh->runs ? sh->opts->budget - sh->runs : 0;
        FwLimits lim = { .max_work = left * FW_STEPS_PER_RUN, .tick = fw_tick, .ud = sh };
        const FwJoint *joint;
        FwStatus st = fw_cache_joint(sh->fw, r->sides, r->value, r->cls, r->ncls, qs, r->nasked + 1, &lim, &joint);
        sh->runs += lim.work / FW_STEPS_PER_RUN;
        if (st != FW_OK) {
            e->halt = st == FW_STOPPED ? EXACT_STOPPED : EXACT_OVER_BUDGET;
            if (st == FW_TOO_BIG && (double)lim.max_work / FW_STEPS_PER_RUN >= (double)sh->opts->budget)
                sh->needed = (double)sh->opts->budget + 1;
            snprintf(err, errlen, "over the budget of the exact count");
            return -1;
        }
        int64_t lo, hi;
        fw_range(joint, r->answers, joint->offset[r->nasked], &lo, &hi);
        if (lo == hi) {
            /* cannot be: the answers before came from this roll's own joint */
            snprintf(err, errlen, "internal error: no answer agrees with the roll's earlier answers");
            e->halt = EXACT_FAILED;
            return -1;
        }
        d = push(e);
        d->kind = DEC_VALUE;
        d->joint = joint;
        d->index = lo;
        d->n = hi;
        mpz_set_ui(d->own_den, 0);
        for (int64_t i = lo; i < hi; i++)
            mpz_add(d->own_den, d->own_den, joint->e[i].w);
        weigh_own(d);
        weigh_path(e, e->len - 1, true);
    }
    e->depth++;
    const int64_t *vals = d->joint->e[d->index].vals;
    r->fresh = false;
    r->asked[r->nasked++] = *q;
    r->answers = vals;
    *answer = vals + d->joint->offset[r->nasked - 1];
    return 0;
}

/* A number answered face by face. */
static int ask_number(Engine *e, const View *v, FwKind kind, int64_t *n, char *err, size_t errlen)
{
    FwQuestion q = question(v, kind);
    const int64_t *a;
    if (ask(e, v->roll, &q, &a, err, errlen))
        return -1;
    *n = *a;
    return 0;
}

static int settle_big(Engine *e, View *v, char *err, size_t errlen);

/* The dice of v as a plain pool. */
static int settle(Engine *e, View *v, char *err, size_t errlen)
{
    if (v->plain)
        return 0;
    Roll *r = v->roll;
    if (r->big)
        return settle_big(e, v, err, errlen);
    if (!v->keep && r->nasked == 0)
        return settle_classes(e, r, v->faces, &v->plain, err, errlen);
    /* how many show each face, asked face by face */
    FwQuestion q = question(v, FW_FACES);
    const int64_t *count;
    if (ask(e, r, &q, &count, err, errlen))
        return -1;
    int64_t n = 0;
    for (int i = 0; i < fw_width(&q); i++)
        n += count[i];
    Pool *p = pool_alloc(e->vm->scratch, r->pool_sides, n);
    p->symbols = r->symbols;
    int64_t k = 0, i = 0;
    for (int32_t f = 1; f <= r->sides; f++)
        if (v->faces >> (f - 1) & 1)
            for (int64_t c = count[i++]; c > 0; c--)
                p->face[k++] = slot_value(r, f);
    v->plain = p;
    return 0;
}

/* The n highest (keep 1) or lowest (-1) dice of v, as a lazy pool. */
static const Pool *kept_pool(Engine *e, const View *v, int32_t keep, int64_t n)
{
    const Pool *p = view_pool(e, v->roll, v->faces);
    View *k = (View *)p->lazy;
    k->keep = keep;
    k->keep_n = n;
    return p;
}

/* Pool.sides of a pool whose values run from lo to hi (as pool_die_values
 * sets it): the highest, when they are all faces of a die of up to 64 sides,
 * else 0. */
static int32_t sides_of_values(int32_t lo, int32_t hi)
{
    return lo >= 1 && hi <= LAZY_MAX_SIDES ? hi : 0;
}

/* r's slots 1..n show value[0..n) (nondecreasing), or their own numbers
 * when value is NULL or says just that. */
static void set_values(Roll *r, int32_t n, const int32_t *value)
{
    r->sides = n;
    r->value = NULL;
    r->pool_sides = n;
    if (!value)
        return;
    bool own = true;
    for (int32_t s = 0; s < n; s++)
        own &= value[s] == s + 1;
    if (own)
        return;
    memcpy(r->map, value, sizeof(int32_t) * (size_t)n);
    r->value = r->map;
    r->pool_sides = sides_of_values(value[0], value[n - 1]);
}

/* DieDesc.symbols of a die of the program's (0: its faces are numbers, or
 * it is not one of the program's dies). */
static int32_t die_symbols(const Engine *e, const Die *die)
{
    const Program *prog = e->vm->prog;
    for (int i = 0; die && i < prog->ndies; i++)
        if (&prog->dies[i].die == die)
            return prog->dies[i].symbols;
    return 0;
}

static int lazy_roll(DiceSource *self, int64_t n, int32_t sides, const Die *die, const Pool **out, char *err,
                     size_t errlen)
{
    Engine *e = (Engine *)self;
    if (sides > LAZY_MAX_SIDES && !die) {
        /* a class is a set of slots in 64 bits: bigger dice have no
         * classes, their sum is asked at once, all else of their multiset
         * (big_apply) */
        if (count_roll(e, err, errlen))
            return -1;
        Roll *r = slab_take(&e->rolls_slab);
        memset(r, 0, offsetof(Roll, cls));
        r->sides = r->pool_sides = sides;
        r->kinds = 1;
        r->ncls = 0;
        r->nasked = 0;
        r->answers = NULL;
        r->big = true;
        r->sum_known = false;
        r->big_n = n;
        *out = view_pool(e, r, 0);
        return 0;
    }
    if (sides > LAZY_MAX_SIDES) {
        /* (a die of its own faces has at most DIE_MAX_FACES) */
        Pool *p = pool_alloc(e->vm->scratch, sides, n);
        if (engine_roll(self, n, sides, die, p->face, err, errlen))
            return -1;
        if (die)
            pool_die_values(p, die);
        pool_sort(p);
        *out = p;
        return 0;
    }
    if (count_roll(e, err, errlen))
        return -1;
    /* a die of its own faces: a slot for each face, showing its value */
    Roll *r = slab_take(&e->rolls_slab);
    set_values(r, sides, die ? die->value : NULL);
    r->fresh = true;
    r->kinds = 1;
    r->symbols = (uint16_t)die_symbols(e, die);
    r->ncls = 1;
    r->cls[0] = (Class){ all_faces(sides), n };
    r->nasked = 0;
    r->answers = NULL;
    r->big = false;
    *out = view_pool(e, r, r->cls[0].faces);
    return 0;
}

/* The values of class c of r in order, into out; their number. */
static int32_t class_values(const Roll *r, const Class *c, int32_t *out)
{
    int32_t m = 0;
    for (uint64_t rest = c->faces; rest; rest &= rest - 1)
        out[m++] = slot_value(r, __builtin_ctzll(rest) + 1);
    return m;
}

/* The roll of a pool's dice, when it is the whole of a fresh roll of e's. */
static Roll *fresh_roll(const Engine *e, const Pool *p)
{
    if (!p->lazy || p->lazy->source != &e->base)
        return NULL;
    const View *v = (const View *)p->lazy;
    Roll *r = v->roll;
    return r->fresh && !v->keep && v->faces == all_faces(r->sides) ? r : NULL;
}

/* One pool of the dice of a and b (OP_JOIN), at least one of them lazy.
 * Two fresh rolls whose slots fit in 64 make one roll: the slots of both,
 * in the order of their values, and the classes of both, where a class of
 * b whose slots show the same values as one of a's (the same kind of die)
 * adds its dice to that class, so [d20, d20, d20] has 20 slots.  No
 * decision is made: the parts were counted as rolls when they were rolled.
 * Otherwise *out is NULL, and the VM joins their faces. */
static int lazy_join(DiceSource *self, const Pool *a, const Pool *b, const Pool **out, char *err, size_t errlen)
{
    Engine *e = (Engine *)self;
    *out = NULL;
    Roll *ra = fresh_roll(e, a), *rb = fresh_roll(e, b);
    if (!ra || !rb || ra == rb)
        return 0;
    /* the kinds of dice: a's classes, then b's that are not among them */
    const Roll *from[2] = { ra, rb };
    int32_t kval[2 * LAZY_MAX_SIDES][LAZY_MAX_SIDES], klen[2 * LAZY_MAX_SIDES];
    int64_t kcount[2 * LAZY_MAX_SIDES], total = 0;
    int nk = 0;
    int32_t slots = 0;
    for (int part = 0; part < 2; part++) {
        const Roll *r = from[part];
        for (int i = 0; i < r->ncls; i++) {
            const Class *c = &r->cls[i];
            int32_t vals[LAZY_MAX_SIDES], m = class_values(r, c, vals);
            total += c->count;
            int k = 0;
            while (k < nk && !(klen[k] == m && !memcmp(kval[k], vals, sizeof(int32_t) * (size_t)m)))
                k++;
            if (k < nk) {
                kcount[k] += c->count;
                continue;
            }
            slots += m;
            if (slots > LAZY_MAX_SIDES)
                return 0;    /* too many slots: the faces are joined */
            memcpy(kval[nk], vals, sizeof(int32_t) * (size_t)m);
            klen[nk] = m;
            kcount[nk++] = c->count;
        }
    }
    if (total > e->vm->limits.max_pool) {
        snprintf(err, errlen, "a pool of %lld dice is over the limit of %lld", (long long)total,
                 (long long)e->vm->limits.max_pool);
        return -1;
    }
    /* the slots in the order of their values (of the first kind first among
     * equal values, then in the kind's own order) */
    int32_t value[LAZY_MAX_SIDES];
    int next[2 * LAZY_MAX_SIDES] = { 0 };
    Roll *r = slab_take(&e->rolls_slab);
    r->ncls = nk;
    for (int k = 0; k < nk; k++)
        r->cls[k] = (Class){ 0, kcount[k] };
    for (int32_t s = 0; s < slots; s++) {
        int best = -1;
        for (int k = 0; k < nk; k++)
            if (next[k] < klen[k] && (best < 0 || kval[k][next[k]] < kval[best][next[best]]))
                best = k;
        value[s] = kval[best][next[best]++];
        r->cls[best].faces |= (uint64_t)1 << s;
    }
    set_values(r, slots, value);
    r->fresh = true;
    r->kinds = nk;
    r->symbols = ra->symbols;   /* as pool_join has it */
    r->nasked = 0;
    r->answers = NULL;
    *out = view_pool(e, r, all_faces(slots));
    return 0;
}

/* The sum of a roll of big dice: one choice among its totals (worked out
 * at once, fw_cache_sum_of_dice), the same on every later asking. */
static int big_sum(Engine *e, Roll *r, int64_t *out, char *err, size_t errlen)
{
    if (r->sum_known) {
        *out = r->sum;
        return 0;
    }
    Decision *d;
    if (e->depth < e->len) {
        d = &e->path[e->depth];
        if (d->kind != DEC_VALUE || d->joint->nq != 1)
            return rolled_differently(err, errlen);
    } else {
        Shared *sh = e->shared;
        if (!sh->fw)
            sh->fw = fw_cache_new();
        uint64_t left = sh->opts->budget > sh->runs ? sh->opts->budget - sh->runs : 0;
        FwLimits lim = { .max_work = left * FW_STEPS_PER_RUN, .tick = fw_tick, .ud = sh };
        const FwJoint *joint;
        FwStatus st = fw_cache_sum_of_dice(sh->fw, r->big_n, r->sides, &lim, &joint);
        sh->runs += lim.work / FW_STEPS_PER_RUN;
        if (st != FW_OK) {
            e->halt = st == FW_STOPPED ? EXACT_STOPPED : EXACT_OVER_BUDGET;
            snprintf(err, errlen, "over the budget of the exact count");
            return -1;
        }
        d = push(e);
        d->kind = DEC_VALUE;
        d->joint = joint;
        d->index = 0;
        d->n = joint->n;
        mpz_ui_pow_ui(d->own_den, (unsigned long)r->sides, (unsigned long)r->big_n);
        weigh_own(d);
        weigh_path(e, e->len - 1, true);
    }
    e->depth++;
    r->sum_known = true;
    r->sum = d->joint->e[d->index].vals[0];
    r->sum_ways = &d->joint->e[d->index].w;
    *out = r->sum;
    return 0;
}

/* The multiset of a roll of big dice (given its sum, when that was asked). */
static int settle_big(Engine *e, View *v, char *err, size_t errlen)
{
    Roll *r = v->roll;
    Pool *p = pool_alloc(e->vm->scratch, r->sides, r->big_n);
    if (r->big_n > 0) {
        Decision *d;
        if (pool_decision(e, r->big_n, r->sides, r->sum_known ? &r->sum : NULL, r->sum_known ? *r->sum_ways : NULL,
                          &d, err, errlen))
            return -1;
        memcpy(p->face, d->face, sizeof(int32_t) * (size_t)r->big_n);
    }
    v->plain = p;
    return 0;
}

/* What is asked of a roll of big dice: the sum at once, the rest of its
 * multiset (a filter of it is a view that holds its dice). */
static int big_apply(Engine *e, View *v, OpCode op, CmpOp cmp, Value x, Value *out, char *err, size_t errlen)
{
    int64_t n;
    if (op == OP_SUM && !v->plain) {
        if (big_sum(e, v->roll, &n, err, errlen))
            return -1;
        *out = val_int(n);
        return 0;
    }
    if (settle(e, v, err, errlen))
        return -1;
    const Pool *p = v->plain;
    Arena *a = e->vm->scratch;
    switch (op) {
    case OP_FILTER: case OP_HIGHEST_N: case OP_LOWEST_N: {
        const Pool *q = op == OP_FILTER ? pool_filter(a, p, cmp, x)
                      : op == OP_HIGHEST_N ? pool_highest(a, p, x.as.i) : pool_lowest(a, p, x.as.i);
        View *w = slab_take(&e->views);
        *w = *v;
        w->plain = q;
        Pool *lazy = pool_alloc(a, p->sides, 0);
        lazy->n = -1;
        lazy->lazy = &w->base;
        *out = val_pool(lazy);
        return 0;
    }
    case OP_COUNT: *out = val_int(p->n); return 0;
    case OP_ANY: *out = val_bool(pool_any(p, cmp, x)); return 0;
    case OP_ALL: *out = val_bool(pool_all(p, cmp, x)); return 0;
    case OP_SUM: *out = val_int(pool_sum(p)); return 0;
    case OP_DOUBLES: *out = val_bool(pool_doubles(p)); return 0;
    case OP_HIGHEST: case OP_LOWEST:
        if (p->n == 0) {
            snprintf(err, errlen, "%s() of an empty pool", op == OP_HIGHEST ? "highest" : "lowest");
            return -1;
        }
        *out = val_int(op == OP_HIGHEST ? p->face[p->n - 1] : p->face[0]);
        return 0;
    default:
        snprintf(err, errlen, "bad pool instruction %d", (int)op);
        return -1;
    }
}

static int lazy_apply(DiceSource *self, OpCode op, const Pool *p, CmpOp cmp, Value x, Value *out, char *err,
                      size_t errlen)
{
    Engine *e = (Engine *)self;
    View *v = (View *)p->lazy;
    Roll *r = v->roll;
    if (r->big)
        return big_apply(e, v, op, cmp, x, out, err, errlen);
    int64_t n;
    bool yes;
    /* split classes while nothing was asked of the roll face by face, and
     * the dice asked about are not a kept few */
    bool split = !v->keep && r->nasked == 0;
    uint64_t where = op == OP_FILTER || op == OP_ANY || op == OP_ALL ? faces_where(r, cmp, x) : 0;
    switch (op) {
    case OP_FILTER:
        if (!v->keep) {
            *out = val_pool(view_pool(e, r, v->faces & where));
        } else {
            const Pool *f = kept_pool(e, v, v->keep, v->keep_n);
            ((View *)f->lazy)->post = v->post & where;
            *out = val_pool(f);
        }
        return 0;
    case OP_COUNT:
        if (split && r->kinds > 1 && cut_classes(r, v->faces) > 1)
            split = false;   /* one decision among the counts, not one per class */
        if (split ? count_in(e, r, v->faces, &n, err, errlen) : ask_number(e, v, FW_COUNT, &n, err, errlen))
            return -1;
        *out = val_int(n);
        return 0;
    case OP_ANY: case OP_ALL: {
        /* all(): no die fails the test */
        uint64_t test = op == OP_ANY ? where : ~where & all_faces(r->sides);
        if (split) {
            if (any_in(e, r, v->faces & test, &yes, err, errlen))
                return -1;
        } else {
            View t = *v;
            if (t.keep)
                t.post &= test;
            else
                t.faces &= test;
            if (ask_number(e, &t, FW_ANY, &n, err, errlen))
                return -1;
            yes = n;
        }
        *out = val_bool(op == OP_ANY ? yes : !yes);
        return 0;
    }
    case OP_HIGHEST: case OP_LOWEST:
        if (!split) {
            if (ask_number(e, v, op == OP_HIGHEST ? FW_MAX : FW_MIN, &n, err, errlen))
                return -1;
            if (n != FW_NONE) {
                *out = val_int(n);
                return 0;
            }
        } else {
            /* from the top (bottom) value down (up), the first that has dice:
             * the slots of a value asked about together */
            for (int32_t k = 0; k < r->sides;) {
                int32_t x = slot_value(r, op == OP_HIGHEST ? r->sides - k : k + 1);
                uint64_t slots = 0;
                for (; k < r->sides; k++) {
                    int32_t f = op == OP_HIGHEST ? r->sides - k : k + 1;
                    if (slot_value(r, f) != x)
                        break;
                    slots |= (uint64_t)1 << (f - 1);
                }
                if (!(v->faces & slots))
                    continue;
                if (any_in(e, r, v->faces & slots, &yes, err, errlen))
                    return -1;
                if (yes) {
                    *out = val_int(x);
                    return 0;
                }
            }
        }
        snprintf(err, errlen, "%s() of an empty pool", op == OP_HIGHEST ? "highest" : "lowest");
        return -1;
    case OP_SUM: case OP_DOUBLES:
        if (ask_number(e, v, op == OP_SUM ? FW_SUM : FW_DOUBLES, &n, err, errlen))
            return -1;
        *out = op == OP_SUM ? val_int(n) : val_bool(n);
        return 0;
    case OP_HIGHEST_N: case OP_LOWEST_N: {
        int32_t keep = op == OP_HIGHEST_N ? 1 : -1;
        if (!v->keep) {
            *out = val_pool(kept_pool(e, v, keep, x.as.i));
            return 0;
        }
        if (v->keep == keep && v->post == all_faces(r->sides)) {
            /* the highest 2 of the highest 3 */
            *out = val_pool(kept_pool(e, v, keep, x.as.i < v->keep_n ? x.as.i : v->keep_n));
            return 0;
        }
        /* kept one way, then the other (or after a filter): from the faces */
        if (settle(e, v, err, errlen))
            return -1;
        *out = val_pool(keep > 0 ? pool_highest(e->vm->scratch, v->plain, x.as.i)
                                 : pool_lowest(e->vm->scratch, v->plain, x.as.i));
        return 0;
    }
    default:
        snprintf(err, errlen, "bad pool instruction %d", (int)op);
        return -1;
    }
}

static const Pool *lazy_faces(DiceSource *self, const Pool *p)
{
    Engine *e = (Engine *)self;
    View *v = (View *)p->lazy;
    char err[sizeof e->vm->error];
    if (settle(e, v, err, sizeof err)) {
        /* the run goes on with no dice here, and is then set aside (over
         * budget or stopped, if it is, wins) */
        if (e->halt == EXACT_DONE) {
            e->halt = EXACT_FAILED;
            snprintf(e->vm->error, sizeof e->vm->error, "%s", err);
        }
        return pool_alloc(e->vm->scratch, p->sides, 0);
    }
    return v->plain;
}

static const PoolMethods lazy_methods = { lazy_roll, lazy_apply, lazy_faces, lazy_join };

/* v with every lazy pool in it (records included) replaced by its faces. */
static int settle_value(Engine *e, Value *v)
{
    if (v->tag == VAL_POOL && v->as.p->lazy) {
        View *view = (View *)v->as.p->lazy;
        if (settle(e, view, e->vm->error, sizeof e->vm->error))
            return -1;
        *v = val_pool(view->plain);
    } else if (v->tag == VAL_RECORD) {
        const Record *r = v->as.r;
        Record *copy = NULL;
        for (int32_t i = 0; i < r->n; i++) {
            Value f = r->field[i];
            if (f.tag != VAL_POOL && f.tag != VAL_RECORD)
                continue;
            if (settle_value(e, &f))
                return -1;
            bool same = f.tag == VAL_POOL ? f.as.p == r->field[i].as.p : f.as.r == r->field[i].as.r;
            if (same)
                continue;
            if (!copy) {
                copy = mem_alloc(sizeof(Record) + sizeof(Value) * (size_t)r->n);
                memcpy(copy, r, sizeof(Record) + sizeof(Value) * (size_t)r->n);
            }
            copy->field[i] = f;
        }
        if (copy)
            *v = val_record(copy);
    }
    return 0;
}

static ExactStatus distribution(Vm *vm, Shared *shared, int index, const Value *args, int nargs, ExactRun run,
                                void *run_ud, ExactResult *out);

/* Machines nested one in another (a claim's, a rerolling procedure's) each
 * take some C stack, whatever the depth limit says: about 2 KB in a release
 * build and 10 KB in a sanitizer build.  This many at most, so the limit is
 * the same in every build; and never more than half the thread's stack
 * (measured from where the outermost machine nested its first), for a
 * thread or a shell with a small one. */
#define MAX_NESTING 250

static __thread const char *nesting_top;   /* the C stack where nesting began */

static size_t stack_budget(void)
{
    static __thread size_t budget;
    if (!budget) {
        size_t size = 0;
#ifdef __EMSCRIPTEN__
        /* WebAssembly's stack (web/build.sh sets its size): pthread_getattr_np gives 0 there */
        size = emscripten_stack_get_base() - emscripten_stack_get_end();
#else
        pthread_attr_t attr;
        void *addr;
        if (pthread_getattr_np(pthread_self(), &attr) == 0) {
            if (pthread_attr_getstack(&attr, &addr, &size) != 0)
                size = 0;
            pthread_attr_destroy(&attr);
        }
#endif
        if (size == 0)
            size = (size_t)2 << 20;
        if (size > ((size_t)64 << 20))
            size = (size_t)64 << 20;
        budget = size / 2;
    }
    return budget;
}

static bool too_deep(Vm *vm, const char *name, char *err, size_t errlen)
{
    char here;
    if (vm->nesting == 0)
        nesting_top = &here;
    size_t used = nesting_top > &here ? (size_t)(nesting_top - &here) : 0;
    if (vm->nesting < MAX_NESTING && used < stack_budget())
        return false;
    if (vm->nesting >= MAX_NESTING)
        snprintf(err, errlen, "recursion limit reached: more than %d claims and rerolling procedures worked out "
                 "one inside another when calling '%s'", MAX_NESTING, name);
    else
        snprintf(err, errlen, "recursion limit reached: claims and rerolling procedures worked out one inside "
                 "another have used half the C stack when calling '%s' (ulimit -s)", name);
    return true;
}

/* A machine of its own for work nested in vm's (a rerolling procedure, a
 * claim), as if called from vm's frame `depth` (-1: before vm's top-level
 * call): the same program, limits, choices and claims worked out, and the
 * calls around it counted towards the depth limit. */
static Vm *nested_vm(Vm *vm, int depth)
{
    if (!vm->claims)
        vm->claims = mem_alloc(sizeof(Claims));
    Vm *inner = mem_alloc(sizeof(Vm));   /* not on the C stack, which nesting deepens */
    vm_init(inner, vm->prog, NULL);
    inner->limits = vm->limits;
    inner->choices = vm->choices;
    inner->base_depth = vm->base_depth + depth + 1;
    inner->nesting = vm->nesting + 1;
    inner->claims = vm->claims;
    return inner;
}

static bool same_args(const Value *a, const Value *b, int n)
{
    for (int i = 0; i < n; i++)
        if (val_order(a[i], b[i]) != 0)
            return false;
    return true;
}

/* ---- calls of a call being worked out ---- */

/* Of two Workings (or NULL), the one further up the stack. */
static const Working *inner_of(const Working *a, const Working *b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    return a->level > b->level ? a : b;
}

/* The count's odds rest on w's (unless w is what it works out). */
static void note_dep(Engine *e, const Working *w)
{
    if (w && w != e->owner)
        e->dep = inner_of(e->dep, w);
}

/* A Dist remembered is good while what it rests on is in the same round. */
static bool dist_valid(const Dist *d)
{
    return !d->dep || (d->dep->alive && d->dep->gen == d->dep_gen);
}

/* The result of w's call, before it is known: a record of no declared type
 * (-2) holding w's id.  It is only ever returned as it is, up to the count
 * that works w out, which solves for it (eliminate_pending). */
static Value pending_value(const Working *w)
{
    Record *r = mem_alloc(sizeof(Record) + sizeof(Value));
    r->type = -2;
    r->n = 1;
    r->field[0] = val_int(w->id);
    return val_record(r);
}

static bool is_pending(Value v)
{
    return v.tag == VAL_RECORD && v.as.r->type == -2;
}

/* Would a value the call from frame `depth` returns be the result of the
 * machine's call as it is?  Each frame from there down goes straight to a
 * RETURN (past MERGEs, NOTEs and JUMPs) when the call it made returns. */
static bool is_tail(const Vm *vm, int depth)
{
    if (depth < 0)
        return false;
    for (int k = depth; k >= 0; k--) {
        const Proto *p = vm->frames[k].proto;
        int pc = (int)(vm->frames[k].ip - p->code);
        for (;;) {
            if (pc >= p->len)
                return false;
            uint8_t op = p->code[pc];
            if (op == OP_RETURN)
                break;
            if (op == OP_JUMP)
                pc = chunk_jump_target(p->code, pc);
            else if (op == OP_MERGE || op == OP_NOTE)
                pc += chunk_insn_len(p->code, pc);
            else
                return false;
        }
    }
    return true;
}

/* A round of w's count is done: its own pending result, worth m, is the
 * result again, so the odds are the rest divided by 1 - m (an absorbing
 * chain solved exactly).  False when nothing but the call itself is ever
 * reached (m = 1): the call never ends. */
static bool eliminate_pending(Dist *d, const Working *w)
{
    ExactResult *r = &d->r;
    int at = -1;
    for (int i = 0; i < r->n; i++)
        if (is_pending(r->outcomes[i].value) && r->outcomes[i].value.as.r->field[0].as.i == w->id)
            at = i;
    d->pending = false;
    if (at < 0) {
        for (int i = 0; i < r->n; i++)
            d->pending = d->pending || is_pending(r->outcomes[i].value);
        return true;
    }
    mpq_t rest;
    mpq_init(rest);
    mpq_set_ui(rest, 1, 1);
    mpq_sub(rest, rest, r->outcomes[at].p);
    mpq_clear(r->outcomes[at].p);
    memmove(&r->outcomes[at], &r->outcomes[at + 1], sizeof(ExactOutcome) * (size_t)(r->n - at - 1));
    r->n--;
    if (mpq_sgn(rest) <= 0) {
        mpq_clear(rest);
        return false;
    }
    for (int i = 0; i < r->n; i++) {
        mpq_div(r->outcomes[i].p, r->outcomes[i].p, rest);
        d->pending = d->pending || is_pending(r->outcomes[i].value);
    }
    mpq_div(r->not_given, r->not_given, rest);
    mpq_div(r->dropped, r->dropped, rest);
    mpq_clear(rest);
    return true;
}

/* The odds of every result of a recursive call, worked out round by round:
 * the first round answers the calls of itself inside itself (same
 * procedure, same arguments) as cut off, each later round answers them with
 * the odds of the round before, so round k has the recursion cut at depth
 * k; it stops when the share cut off is below EXACT_CUT_BELOW (or nothing
 * was cut, or after max_decisions rounds).  Calls with other arguments are
 * worked out on their own and remembered, so a duel whose states never
 * repeat is counted once per state.  *tainted: the result used the odds so
 * far of a call below it, so is not final. */
static ExactStatus fixed_point(Vm *inner, Shared *sh, Dist *d, bool approx)
{
    /* round 1: every call of itself cut off */
    Dist *prev = mem_alloc(sizeof *prev);
    mpq_inits(prev->r.not_given, prev->r.dropped, NULL);
    mpq_set_ui(prev->r.dropped, 1, 1);
    Working *w = mem_alloc(sizeof *w);   /* (the Dists that rest on it point at it) */
    *w = (Working){ .proto = d->proto, .args = d->args, .nargs = d->nargs, .bags = d->bags, .approx = prev,
                    .below = sh->working, .id = ++sh->next_id, .alive = true };
    w->level = w->below ? w->below->level + 1 : 1;
    sh->working = w;
    ExactStatus status;
    for (int round = 1;; round++) {
        w->used = false;
        w->gen = ++sh->next_gen;
        sh->next_owner = w;
        sh->next_approx = approx;
        status = distribution(inner, sh, d->proto, d->args, d->nargs, NULL, NULL, &d->r);
        w->dep = inner_of(w->dep, sh->last_dep);
        if (status == EXACT_DONE && !eliminate_pending(d, w)) {
            snprintf(inner->error, sizeof inner->error, "'%s' never ends: every way of the dice comes back to "
                     "this same call, so it never gives a result", inner->prog->protos[d->proto]->name);
            status = EXACT_FAILED;
        }
        if (status != EXACT_DONE || !w->used || mpq_get_d(d->r.dropped) < EXACT_CUT_BELOW
            || round >= sh->opts->max_decisions)
            break;
        /* the next round answers the calls inside with this round's odds */
        Dist *next = mem_alloc(sizeof *next);
        *next = *d;
        w->approx = next;
        exact_clear(&prev->r);
        prev = next;
    }
    exact_clear(&prev->r);
    w->alive = false;
    sh->working = w->below;
    d->dep = w->dep;
    return status;
}

static bool same_bags(const int64_t *a, const int64_t *b, int64_t n)
{
    if (!a || !b)
        return a == b;
    return !memcmp(a, b, sizeof(int64_t) * (size_t)n);
}

/* A call's key for Shared.memo: equal arguments (by val_order: the int 2 and
 * the rational 2/1 alike) and bags hash alike. */
static uint64_t call_hash(int proto, const Value *args, int nargs, const int64_t *bags, int64_t nbags)
{
    uint64_t h = (uint64_t)proto * 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < nargs; i++) {
        const Value *v = &args[i];
        uint64_t w = 0;
        if (val_is_scalar(v->tag))
            w = (uint64_t)val_scalar_payload(v);
        else if (v->tag == VAL_RAT)
            w = v->as.q.den == 1 ? (uint64_t)v->as.q.num : (uint64_t)v->as.q.num * 31 + (uint64_t)v->as.q.den;
        h = (h ^ w) * 0x100000001b3ULL + (uint64_t)i;
    }
    for (int64_t i = 0; bags && i < nbags; i++)
        h = (h ^ (uint64_t)bags[i]) * 0xc2b2ae3d27d4eb4fULL;
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 31);
}

/* The call's distribution remembered and still good (with pending results
 * only where `pending` allows them), else NULL; those no longer good are
 * let go on the way. */
static const Dist *memo_find(Shared *s, int proto, const Value *args, int nargs, const int64_t *bags,
                             int64_t nbags, bool pending)
{
    if (!s->memo_cap)
        return NULL;
    for (Dist **at = &s->memo[call_hash(proto, args, nargs, bags, nbags) & (s->memo_cap - 1)]; *at;) {
        Dist *m = *at;
        if (!dist_valid(m)) {
            *at = m->next;
            s->memo_n--;
            continue;
        }
        if (m->proto == proto && (pending || !m->pending) && same_args(m->args, args, nargs)
            && same_bags(m->bags, bags, nbags))
            return m;
        at = &m->next;
    }
    return NULL;
}

static void memo_add(Shared *s, Dist *d, int64_t nbags)
{
    if (s->memo_n >= s->memo_cap / 2) {
        size_t cap = s->memo_cap ? s->memo_cap * 2 : 64;
        Dist **tab = mem_alloc(sizeof(Dist *) * cap);
        for (size_t i = 0; i < s->memo_cap; i++)
            for (Dist *m = s->memo[i], *next; m; m = next) {
                next = m->next;
                size_t b = call_hash(m->proto, m->args, m->nargs, m->bags, nbags) & (cap - 1);
                m->next = tab[b];
                tab[b] = m;
            }
        s->memo = tab;
        s->memo_cap = cap;
    }
    size_t b = call_hash(d->proto, d->args, d->nargs, d->bags, nbags) & (s->memo_cap - 1);
    d->next = s->memo[b];
    s->memo[b] = d;
    s->memo_n++;
}

/* A result of a call worked out from bags part drawn (Vm.bag_start): the
 * pair of it and what the bags have left after it, as one value (a record
 * of no declared type: the result, then each count), so that results equal
 * but for the bags stay apart. */
static Value bags_pair(const Vm *vm, Value result)
{
    int64_t n = vm->prog->bag_items;
    Record *r = mem_alloc(sizeof(Record) + sizeof(Value) * (size_t)(n + 1));
    r->type = -1;
    r->n = (int32_t)(n + 1);
    r->field[0] = result;
    for (int64_t i = 0; i < n; i++)
        r->field[i + 1] = val_int(vm->bag_left[i]);
    return val_record(r);
}

/* A Dist for the call of proto `index` with args (kept) and bags (copied). */
static Dist *new_dist(int index, int nargs, const Value *args, const int64_t *bags, int64_t nbags)
{
    Dist *made = mem_alloc(sizeof *made);
    made->proto = index;
    made->nargs = nargs;
    made->args = mem_alloc(sizeof(Value) * (size_t)(nargs + 1));
    for (int i = 0; i < nargs; i++)
        made->args[i] = vm_keep(args[i]);
    if (bags) {
        int64_t *copy = mem_alloc_atomic(sizeof(int64_t) * (size_t)nbags);
        memcpy(copy, bags, sizeof(int64_t) * (size_t)nbags);
        made->bags = copy;
    }
    return made;
}

/* The odds of made's call, on the machine `inner`: a recursive procedure
 * round by round (fixed_point), another in one count; made->dep is what
 * they rest on. */
static ExactStatus work_out(Engine *e, Vm *inner, const Proto *callee, Dist *made, bool approx)
{
    Shared *sh = e->shared;
    inner->bag_start = made->bags;
    /* what the call leaves in the bags is part of its result only when
     * anything may draw after it */
    made->paired = inner->bag_pair = made->bags && callee->drawn_after;
    if (callee->recursive)
        return fixed_point(inner, sh, made, approx);
    sh->next_owner = NULL;
    sh->next_approx = approx;
    ExactStatus status = distribution(inner, sh, made->proto, made->args, made->nargs, NULL, NULL, &made->r);
    made->dep = sh->last_dep;
    return status;
}

/* A call of a procedure that rerolls, from frame `depth` of the engine's
 * machine: its own conditioned distribution, one choice among its results.
 * 1 with *result set, or -1.  With `whole_error` a failure of the
 * distribution leaves the inner machine's error, place and callers in the
 * engine's (for a call made outside the interpreter, which has no place of
 * its own to report). */
static int answer_call(Engine *e, int index, const Value *call_args, int depth, bool whole_error, Value *result)
{
    const Proto *callee = e->vm->prog->protos[index];
    /* the callee is worked out on its own: a lazy pool among the arguments
     * goes as its faces */
    Value *args = mem_alloc(sizeof(Value) * (size_t)(callee->nparams + 1));
    for (int i = 0; i < callee->nparams; i++) {
        args[i] = call_args[i];
        if (settle_value(e, &args[i]))
            return -1;       /* over budget, if it is, is in e->halt */
    }
    const Dist *dist = NULL;
    /* a procedure that draws: worked out from what the bags have left now */
    int64_t nbags = e->vm->prog->bag_items;
    const int64_t *bags = callee->draws ? e->vm->bag_left : NULL;
    /* may its result stand for itself (a pending result) until the count
     * that works out a call below solves for it?  Where it is returned as it
     * is, up to such a count */
    bool tail = e->owner && !e->approx && !callee->draws && is_tail(e->vm, depth);
    /* the same call, inside itself: in a tail call its pending result, else
     * its odds so far; either way what is worked out here rests on it */
    for (Working *w = e->shared->working; w && !dist; w = w->below)
        if (w->proto == index && same_args(w->args, args, callee->nparams) && same_bags(w->bags, bags, nbags)) {
            note_dep(e, w);
            if (tail) {
                *result = pending_value(w);
                return 1;
            }
            w->used = true;
            dist = w->approx;
        }
    if (!dist)
        dist = memo_find(e->shared, index, args, callee->nparams, bags, nbags, tail);
    if (!dist) {
        char deep[sizeof e->vm->error];
        if (too_deep(e->vm, callee->name, deep, sizeof deep)) {
            /* a recursive call too deep to work out on its own is run on the
             * path, as any call is (and cut with it after max_decisions rolls) */
            if (!callee->rerolls)
                return 0;
            memcpy(e->vm->error, deep, sizeof deep);
            return -1;
        }
        Dist *made = new_dist(index, callee->nparams, args, bags, nbags);
        Vm *inner = nested_vm(e->vm, depth);
        ExactStatus status = work_out(e, inner, callee, made, e->approx);
        if (status == EXACT_DONE && made->pending && !tail) {
            /* its odds rest on a pending result, which cannot be used here:
             * worked out again from the odds so far instead */
            made = new_dist(index, callee->nparams, args, bags, nbags);
            inner = nested_vm(e->vm, depth);
            status = work_out(e, inner, callee, made, true);
        }
        dist = made;
        if (status != EXACT_DONE) {
            /* hand the inner error up: a failure ends this run with the
             * inner error, over budget ends the whole count */
            Vm *vm = e->vm;
            memcpy(vm->error, inner->error, sizeof vm->error);
            if (status == EXACT_OVER_BUDGET) {
                if (e->halt == EXACT_DONE)
                    e->halt = EXACT_OVER_BUDGET;
            } else if (whole_error) {
                vm->error_proto = inner->error_proto;
                vm->error_offset = inner->error_offset;
                vm->error_depth = inner->error_depth;
                vm->error_unknown = inner->error_unknown;
                vm->frames = inner->frames;
                vm->frames_cap = inner->frames_cap;
            }
            return -1;
        }
        /* remembered, for as long as what it rests on is (dist_valid) */
        made->dep_gen = made->dep ? made->dep->gen : 0;
        memo_add(e->shared, made, nbags);
    }
    note_dep(e, dist->dep);
    char err[sizeof e->vm->error];
    if (count_roll(e, err, sizeof err))
        return -1;
    Decision *d;
    if (e->depth < e->len) {
        d = &e->path[e->depth];
        if (d->kind != DEC_DIST || d->dist != dist) {
            rolled_differently(e->vm->error, sizeof e->vm->error);
            return -1;
        }
    } else {
        d = push(e);
        d->kind = DEC_DIST;
        d->dist = dist;
        d->index = 0;
        while (d->index < dist->r.n + 2 && dist_option_empty(d))
            d->index++;
        weigh(e, e->len - 1);
    }
    e->depth++;
    if (d->index < dist->r.n) {
        Value v = dist->r.outcomes[d->index].value;
        if (dist->paired) {
            /* the result, and the bags as the call left them */
            const Record *pair = v.as.r;
            for (int64_t i = 0; i < nbags; i++)
                e->vm->bag_left[i] = pair->field[i + 1].as.i;
            v = pair->field[0];
        }
        *result = v;
        return 1;
    }
    e->end = d->index == dist->r.n ? PATH_NOT_GIVEN : PATH_CUT;
    return -1;
}

/* The VM's hook: a CALL of a procedure that rerolls. */
static int engine_intercept(void *ud, const Proto *callee, int index, const Value *args, int depth, Value *result)
{
    (void)callee;
    return answer_call(ud, index, args, depth, false, result);
}

/* The VM's hook at a MERGE: a state met at the frontier of the walk that
 * is counted already ends the run (PATH_MERGED), else it waits for the
 * run's next decision (merge.h). */
static int engine_merge(void *ud, Vm *vm, int depth, const Value *sp)
{
    Engine *e = ud;
    if (!e->merging || e->depth < e->len || e->halt != EXACT_DONE)
        return 0;
    const Program *prog = vm->prog;
    /* what the rest of the run depends on besides the machine: the rolls
     * so far (the depth limit), what the bags have left, the choices */
    int n = 1 + (int)prog->bag_items + (vm->choices ? prog->nenums : 0);
    if (n > e->extra_cap) {
        e->extra_cap = n * 2;
        e->extra = mem_alloc_atomic(sizeof(int64_t) * (size_t)e->extra_cap);
    }
    int k = 0;
    e->extra[k++] = e->rolls;
    for (int64_t i = 0; i < prog->bag_items; i++)
        e->extra[k++] = vm->bag_left[i];
    for (int i = 0; vm->choices && i < prog->nenums; i++)
        e->extra[k++] = vm->choices[i];
    int hit;
    if (!merger_at(e->merger, vm, depth, sp, e->extra, k, &hit))
        return 0;
    e->hit = hit;
    e->end = PATH_MERGED;
    snprintf(vm->error, sizeof vm->error, "counted already");
    return -1;
}

int exact_call(Vm *vm, int index, const Value *args, int nargs, Value *result)
{
    if (vm->intercept == engine_intercept && vm->prog->protos[index]->rerolls) {
        Engine *e = vm->intercept_ud;
        /* Dice rolled before the call (a default that rolls) stand when the
         * procedure rerolls, as they do in the VM: so it is worked out on its
         * own, as when a script calls it.  With nothing rolled before it, the
         * engine's own conditioning of the run is the same thing, cheaper.
         * Whether anything was rolled is the same on every path: the code
         * before the first roll is the same on all of them. */
        if (e->rolls > 0)
            return answer_call(e, index, args, -1, true, result) > 0 ? 0 : -1;
    }
    if (vm->intercept == engine_intercept) {
        /* the call asked about: its states are the machine's */
        Engine *e = vm->intercept_ud;
        e->merging = true;
        int rc = vm_call(vm, index, args, nargs, result);
        e->merging = false;
        return rc;
    }
    return vm_call(vm, index, args, nargs, result);
}

bool exact_moments(const ExactResult *r, mpq_t mean, mpq_t variance)
{
    /* sums of p, v p and v^2 p, then mean = S1/S0 and variance = S2/S0 - mean^2 */
    mpq_t s0, s1, s2;
    mpz_t num, den;
    mpq_inits(s0, s1, s2, NULL);
    mpz_inits(num, den, NULL);
    for (int i = 0; i < r->n; i++) {
        Value v = r->outcomes[i].value;
        mpz_srcptr pn = mpq_numref(r->outcomes[i].p), pd = mpq_denref(r->outcomes[i].p);
        long vn = (long)(v.tag == VAL_RAT ? v.as.q.num : v.as.i);
        unsigned long vd = v.tag == VAL_RAT ? (unsigned long)v.as.q.den : 1;
        tally_add(s0, pn, pd);
        mpz_mul_si(num, pn, vn);
        mpz_mul_ui(den, pd, vd);
        tally_add(s1, num, den);
        mpz_mul_si(num, num, vn);
        mpz_mul_ui(den, den, vd);
        tally_add(s2, num, den);
    }
    mpq_canonicalize(s0);
    mpq_canonicalize(s1);
    mpq_canonicalize(s2);
    bool any = mpq_sgn(s0) > 0;
    if (any) {
        mpq_div(mean, s1, s0);
        mpq_div(variance, s2, s0);
        mpq_mul(s1, mean, mean);
        mpq_sub(variance, variance, s1);
    } else {
        mpq_set_ui(mean, 0, 1);
        mpq_set_ui(variance, 0, 1);
    }
    mpq_clears(s0, s1, s2, NULL);
    mpz_clears(num, den, NULL);
    return any;
}

static ExactStatus distribution(Vm *vm, Shared *shared, int index, const Value *args, int nargs, ExactRun run,
                                void *run_ud, ExactResult *out)
{
    Tally top;
    tally_init(&top);
    ExactStatus status = EXACT_DONE;
    Engine e = { .vm = vm, .shared = shared, .halt = EXACT_DONE, .top = &top, .owner = shared->next_owner,
                 .approx = shared->next_approx };
    shared->next_owner = NULL;
    shared->next_approx = false;
    if (!shared->live)
        shared->live = merge_live_new();
    e.merger = merger_new(shared->live);
    e.base.roll = engine_roll;
    e.base.draw = engine_draw;
    e.base.pools = shared->opts->whole_pools ? NULL : &lazy_methods;
    e.rolls_slab = (Slab){ .size = sizeof(Roll), .atomic = true };
    e.views = (Slab){ .size = sizeof(View), .atomic = false };
    DiceSource *saved = vm->dice;
    vm->dice = &e.base;
    /* the engine's runs are not traced (a trace would see lazy pools) */
    const VmTrace *saved_trace = vm->trace;
    vm->trace = NULL;
    vm->stop_on_reroll = true;
    vm->intercept = engine_intercept;
    vm->intercept_ud = &e;
    vm->at_merge = engine_merge;
    Arena arena = { 0 };
    Arena *saved_scratch = vm->scratch;
    vm->scratch = &arena;
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    mpz_t unit;              /* the weight of a path with no dice */
    mpz_init_set_ui(unit, 1);
    mpz_t given_num, given_den;   /* a path's weight given the state it is counted in (merge.h) */
    mpz_inits(given_num, given_den, NULL);
    bool outermost = shared->active++ == 0;
    do {
        if (++shared->runs > shared->opts->budget) {
            status = EXACT_OVER_BUDGET;
            break;
        }
        if (!tick(shared)) {
            status = EXACT_STOPPED;
            break;
        }
        e.merging = !run;    /* a driver's run says when its call begins (exact_call) */
        e.depth = 0;
        e.rolls = 0;
        e.end = PATH_OPEN;
        e.rolls_slab.used = e.views.used = 0;
        arena_reset(&arena);
        vm->rerolled = false;
        Value result;
        int rc = run ? run(run_ud, vm, &result) : vm_call(vm, index, args, nargs, &result);
        /* a result that holds lazy pools takes their faces (more decisions) */
        if (rc == 0 && settle_value(&e, &result))
            rc = -1;
        if (rc == 0 && vm->bag_pair)
            result = bags_pair(vm, result);
        /* the path's probability: that of its last choice (1 with no dice) */
        mpz_srcptr num = e.depth ? e.path[e.depth - 1].num : unit, den = e.depth ? e.path[e.depth - 1].den : unit;
        if (e.halt == EXACT_DONE && shared->stopped)
            e.halt = EXACT_STOPPED;
        merger_run_over(e.merger);
        if (e.halt != EXACT_DONE) {
            /* the count cannot go on: over budget, or a pool that failed */
            status = e.halt;
            break;
        }
        Tally *t = merger_tally(e.merger, &top);
        merger_given(e.merger, num, den, given_num, given_den);
        if (outermost)
            shared->done += ratio_d(num, den);
        num = given_num;
        den = given_den;
        if (rc == 0) {
            mpq_t *slot = tally_slot(&t->r, result, &t->cap);
            tally_add(*slot, num, den);
        }
        else if (e.end == PATH_MERGED) {
            merger_hit(e.merger, e.hit, num, den);
            shared->merged++;
        }
        else if (e.end == PATH_CUT)
            tally_add(t->r.dropped, num, den);
        else if (vm->rerolled)
            tally_add(t->rejected, num, den);
        else if (vm->error_unknown || e.end == PATH_NOT_GIVEN)
            tally_add(t->r.not_given, num, den);
        else {
            /* an error of the procedure's own */
            status = EXACT_FAILED;
            break;
        }
        /* the run used every decision on the path; any left over came from
         * a path that ended early (an error), so drop them */
        if (e.len > e.depth)
            merger_close(e.merger, e.depth + 1, false, &top);
        e.len = e.depth;
    } while (advance(&e));
    merger_close(e.merger, 0, false, &top);   /* (open only when the count stopped) */
    merger_expand(e.merger, &top);
    shared->active--;
    tally_finish(&top);
    *out = top.r;
    out->status = status;
    mpq_ptr rejected = top.rejected;
    out->runs = shared->runs;
    out->needed = shared->needed;
    out->beyond = shared->beyond;
    if (out->status == EXACT_DONE && mpq_sgn(rejected) > 0) {
        /* reroll is conditioning: share out what the rerolls set aside */
        mpq_t kept;
        mpq_init(kept);
        mpq_sub(kept, one, rejected);
        if (mpq_sgn(kept) == 0) {
            out->status = EXACT_FAILED;
            snprintf(vm->error, sizeof vm->error, "'%s' rerolls whatever the dice show",
                     vm->prog->protos[index]->name);
        } else {
            for (int i = 0; i < out->n; i++)
                mpq_div(out->outcomes[i].p, out->outcomes[i].p, kept);
            mpq_div(out->not_given, out->not_given, kept);
            mpq_div(out->dropped, out->dropped, kept);
        }
        mpq_clear(kept);
    }
    for (int i = 0; i < e.cap; i++)
        mpz_clears(e.path[i].own_num, e.path[i].own_den, e.path[i].num, e.path[i].den, NULL);
    mpz_clears(unit, given_num, given_den, NULL);
    mpq_clears(rejected, one, NULL);
    vm->at_merge = NULL;
    shared->last_dep = e.dep;
    vm->dice = saved;
    vm->trace = saved_trace;
    vm->scratch = saved_scratch;
    vm->stop_on_reroll = false;
    vm->intercept = NULL;
    return out->status;
}

/* ---- claims: prob() ---- */

/* A claim's value is its exact probability when counting it takes at most
 * CLAIM_BUDGET runs, else the estimate the machine's owner asks for
 * (VmLimits.claim_fallback: the share of its trials, on its fixed seed, that
 * come out true): the same wherever it is asked. */
#define CLAIM_BUDGET EXACT_DEFAULT_BUDGET

/* q, a probability whose top or bottom is past 64 bits, replaced by the
 * closest fraction that fits: the last convergent of its continued fraction
 * that fits (within 1/(b b') of q, b and b' the bottoms of that convergent
 * and the next: about 1e-37 for odds like those of 60 dice). */
static void nearest_fitting(mpq_t q)
{
    /* convergents h/k of n/d: h = a h1 + h0, k = a k1 + k0, from 0/1 and 1/0 */
    mpz_t n, d, a, r, h0, h1, k0, k1, h, k;
    mpz_inits(n, d, a, r, h0, h1, k0, k1, h, k, NULL);
    mpz_set(n, mpq_numref(q));
    mpz_set(d, mpq_denref(q));
    mpz_set_ui(h1, 1);
    mpz_set_ui(k0, 1);
    mpq_set_ui(q, 0, 1);
    while (mpz_sgn(d)) {
        mpz_fdiv_qr(a, r, n, d);
        mpz_mul(h, a, h1);
        mpz_add(h, h, h0);
        mpz_mul(k, a, k1);
        mpz_add(k, k, k0);
        if (!mpz_fits_slong_p(h) || !mpz_fits_slong_p(k))
            break;
        mpq_set_num(q, h);
        mpq_set_den(q, k);
        mpz_swap(h0, h1);
        mpz_swap(h1, h);
        mpz_swap(k0, k1);
        mpz_swap(k1, k);
        mpz_swap(n, d);
        mpz_swap(d, r);
    }
    mpq_canonicalize(q);
    mpz_clears(n, d, a, r, h0, h1, k0, k1, h, k, NULL);
}

static bool same_choices(const int *a, const int *b, int n)
{
    if (!a || !b)
        return a == b;
    return !memcmp(a, b, sizeof(int) * (size_t)n);
}

static const char claim_not_given[] =
    "prob(): some outcomes reach a value the rules text does not give, so the odds are not known";

ExactStatus exact_claim(Vm *vm, int proto, const Value *call_args, int nargs, int depth, Value *out, char *why,
                        size_t whylen)
{
    const Proto *p = vm->prog->protos[proto];
    if (vm->base_depth + depth + 1 >= vm->limits.max_depth) {
        snprintf(why, whylen, "recursion limit reached: more than %d calls active at once when calling '%s'",
                 vm->limits.max_depth, p->name);
        return EXACT_FAILED;
    }
    Engine *e = vm->intercept == engine_intercept ? vm->intercept_ud : NULL;
    /* The arguments are the claim's own: inside an exact count a lazy pool
     * among them goes as its faces (deciding them on the count's path). */
    const Value *args = call_args;
    if (e && nargs) {
        Value *settled = mem_alloc(sizeof(Value) * (size_t)nargs);
        for (int i = 0; i < nargs; i++) {
            settled[i] = call_args[i];
            if (settle_value(e, &settled[i])) {
                snprintf(why, whylen, "%s", e->halt == EXACT_OVER_BUDGET ? "over the budget of the exact count"
                                                                          : vm->error);
                return e->halt == EXACT_OVER_BUDGET ? EXACT_OVER_BUDGET : EXACT_FAILED;
            }
        }
        args = settled;
    }
    int nenums = vm->prog->nenums;
    if (vm->claims)
        for (const ClaimMemo *m = vm->claims->first; m; m = m->next)
            if (m->proto == proto && same_choices(m->choices, vm->choices, nenums) && same_args(m->args, args, nargs)) {
                *out = m->odds;
                return EXACT_DONE;
            }
    if (too_deep(vm, p->name, why, whylen))
        return EXACT_FAILED;
    /* worked out now and remembered: what lives in a trial's arena is
     * copied out (nothing is allocated when the claim is remembered) */
    Value *kept = mem_alloc(sizeof(Value) * (size_t)(nargs + 1));
    for (int i = 0; i < nargs; i++)
        kept[i] = vm_keep(args[i]);
    args = kept;
    /* the estimate past the budget, if the machine's owner gave one */
    const ExactFallback *fallback = vm->limits.claim_fallback;
    if (fallback && fallback->trials == 0)
        fallback = NULL;
    /* Inside an exact count, the claim's runs are that count's too, and may
     * take only what its budget has left: past it the count is over budget
     * (which a claim worked out on its own may never be). */
    uint64_t cap = CLAIM_BUDGET;
    bool limited = false;
    if (e) {
        uint64_t left = e->shared->opts->budget - e->shared->runs;
        if (left < cap) {
            cap = left;
            limited = true;
        }
    }
    Vm *inner = nested_vm(vm, depth);
    ExactOptions o = { .budget = cap, .max_decisions = EXACT_DEFAULT_DECISIONS };
    if (e) {
        /* the count's driver keeps its say over the claim's runs */
        o.tick = e->shared->opts->tick;
        o.tick_ud = e->shared->opts->tick_ud;
        o.tick_every = e->shared->opts->tick_every;
    }
    Shared shared = { .opts = &o, .outer = e ? e->shared : NULL };
    ExactResult r;
    ExactStatus counted = distribution(inner, &shared, proto, args, nargs, NULL, NULL, &r);
    fw_cache_free(shared.fw);
    /* a claim that is itself an unknown on some path is not known either */
    for (int i = 0; i < r.n; i++)
        if (r.outcomes[i].value.tag == VAL_UNKNOWN)
            mpq_add(r.not_given, r.not_given, r.outcomes[i].p);
    if (e)
        e->shared->runs += shared.runs < cap ? shared.runs : cap;
    if (counted == EXACT_STOPPED) {
        snprintf(why, whylen, "stopped");
        e->shared->stopped = true;
        exact_clear(&r);
        return EXACT_STOPPED;
    }
    ExactStatus status = EXACT_DONE;
    /* the exact odds; past 64-bit numbers (`big`), the closest fraction
     * that fits */
    mpq_t q;
    mpq_init(q);
    bool big = false;
    if (counted == EXACT_DONE) {
        for (int i = 0; i < r.n; i++)
            if (r.outcomes[i].value.tag != VAL_UNKNOWN && r.outcomes[i].value.as.b)
                mpq_add(q, q, r.outcomes[i].p);
        big = !mpz_fits_slong_p(mpq_numref(q)) || !mpz_fits_slong_p(mpq_denref(q));
    }
    const char *prefix = strncmp(inner->error, "prob(): ", 8) ? "prob(): " : "";
    if (counted == EXACT_FAILED) {
        snprintf(why, whylen, "%s%.280s", prefix, inner->error);
        status = EXACT_FAILED;
    } else if (mpq_sgn(r.not_given) > 0 || mpq_get_d(r.dropped) >= EXACT_CUT_BELOW) {
        /* (a share cut off below EXACT_CUT_BELOW, as a recursion fought to
         * a finish leaves, is left out: the odds are those counted) */
        snprintf(why, whylen, "prob(): some outcomes %s, so the odds are not known",
                 mpq_sgn(r.not_given) > 0 ? "reach a value the rules text does not give" : "go on past the depth limit");
        status = EXACT_FAILED;
    } else if (counted == EXACT_OVER_BUDGET
               && (limited || (e && fallback && e->shared->opts->budget - e->shared->runs < fallback->trials))) {
        /* the count this claim is part of cannot be finished within its
         * budget: it ends over budget (the VM reports `why` as the run's
         * error, which the count sets aside) */
        snprintf(why, whylen, "over the budget of the exact count");
        if (e->halt == EXACT_DONE)
            e->halt = EXACT_OVER_BUDGET;
        status = EXACT_OVER_BUDGET;
    } else if (counted == EXACT_OVER_BUDGET && !fallback) {
        snprintf(why, whylen, "prob(): the exact odds need more than %llu runs, and no estimate was asked for",
                 (unsigned long long)cap);
        status = EXACT_FAILED;
    } else if (counted == EXACT_OVER_BUDGET) {
        /* the estimate: the share of the fallback's trials, on its seed,
         * that come out true */
        if (e)
            e->shared->runs += fallback->trials;
        RngDice rng;
        dice_rng_init(&rng, fallback->seed);
        inner->dice = &rng.base;
        int64_t yes = 0;
        for (uint64_t i = 0; i < fallback->trials; i++) {
            Value v;
            int rc = vm_call(inner, proto, args, nargs, &v);
            if (rc == 0 && v.tag != VAL_UNKNOWN) {
                yes += v.as.b;
                continue;
            }
            if (rc == 0 || inner->error_unknown)
                snprintf(why, whylen, "%s", claim_not_given);
            else
                snprintf(why, whylen, "%s%.280s", strncmp(inner->error, "prob(): ", 8) ? "prob(): " : "", inner->error);
            exact_clear(&r);
            mpq_clear(q);
            return EXACT_FAILED;
        }
        val_make_rat(yes, (int64_t)fallback->trials, out);
    } else {
        if (big)
            nearest_fitting(q);
        val_make_rat(mpz_get_si(mpq_numref(q)), mpz_get_si(mpq_denref(q)), out);
    }
    mpq_clear(q);
    exact_clear(&r);
    if (status == EXACT_DONE) {
        /* remembered for the rest of the computation: asked on every path of
         * a count, or in every trial, it is worked out once */
        ClaimMemo *m = mem_alloc(sizeof *m);
        m->proto = proto;
        if (vm->choices) {
            m->choices = mem_alloc_atomic(sizeof(int) * (size_t)(nenums + 1));
            memcpy(m->choices, vm->choices, sizeof(int) * (size_t)nenums);
        }
        m->args = kept;
        m->nargs = nargs;
        m->odds = *out;
        m->next = vm->claims->first;
        vm->claims->first = m;
    }
    return status;
}

ExactStatus exact_distribution(Vm *vm, int index, const Value *args, int nargs, ExactRun run, void *run_ud,
                               const ExactOptions *opts, ExactResult *out)
{
    ExactOptions o = *opts;
    if (!o.budget)
        o.budget = EXACT_DEFAULT_BUDGET;
    if (!o.max_decisions)
        o.max_decisions = EXACT_DEFAULT_DECISIONS;
    Shared shared = { .opts = &o };
    ExactStatus st = distribution(vm, &shared, index, args, nargs, run, run_ud, out);
    fw_cache_free(shared.fw);
    return st;
}
