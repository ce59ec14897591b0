/* exact.c — the exact engine: every path through a procedure's dice, once. */
#include "config.h"
#include "exact.h"
#include "mem.h"

#include <stdlib.h>
#include <string.h>

/* A worked-out distribution of a rerolling procedure, for its callers. */
typedef struct Dist {
    int proto;
    Value *args;
    int nargs;
    ExactResult r;
    struct Dist *next;
} Dist;

typedef enum { DEC_POOL, DEC_DIST } DecKind;

/* One choice on the current path, and the probability of the path up to it. */
typedef struct Decision {
    DecKind kind;
    int64_t n;               /* DEC_POOL: n dice of `sides` */
    int32_t sides;
    int64_t *counts;         /* DEC_POOL: how many dice show each face (the multiset) */
    const Dist *dist;        /* DEC_DIST: the callee's outcomes, then not-given and dropped */
    int index;
    mpq_t weight;
} Decision;

typedef struct Shared {
    const ExactOptions *opts;
    uint64_t runs;
    double needed;           /* the pool that did not fit the budget: its multisets */
    Dist *memo;
} Shared;

typedef struct Engine {
    DiceSource base;         /* first: the VM sees an Engine as its dice source */
    Vm *vm;
    Shared *shared;
    Decision *path;
    int len, cap;
    int depth;               /* decisions consumed by this run */
    bool cut;                /* this run went past the depth limit */
    bool too_many;           /* a pool has more multisets than the budget has runs left */
    int stop;                /* a nested distribution chose not-given (1) or dropped (2) */
} Engine;

/* ---- outcomes ---- */

static mpq_t *outcome_slot(ExactResult *r, Value v, int *cap)
{
    int lo = 0, hi = r->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        int c = val_order(r->outcomes[mid].value, v);
        if (c == 0)
            return &r->outcomes[mid].p;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (r->n == *cap) {
        int ncap = *cap ? *cap * 2 : 16;
        ExactOutcome *o = mem_alloc(sizeof(ExactOutcome) * (size_t)ncap);
        if (r->n)
            memcpy(o, r->outcomes, sizeof(ExactOutcome) * (size_t)r->n);
        r->outcomes = o;
        *cap = ncap;
    }
    memmove(&r->outcomes[lo + 1], &r->outcomes[lo], sizeof(ExactOutcome) * (size_t)(r->n - lo));
    r->outcomes[lo].value = vm_keep(v);   /* it outlives the run's arena */
    mpq_init(r->outcomes[lo].p);
    r->n++;
    return &r->outcomes[lo].p;
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

/* weight = (previous path weight) x (the decision's own probability) */
static void weigh(Engine *e, int k)
{
    Decision *d = &e->path[k];
    mpq_t own;
    mpq_init(own);
    if (d->kind == DEC_POOL) {
        /* n! / (c1! ... cs!) orderings of the multiset, out of s^n */
        mpz_t num, den, f;
        mpz_inits(num, den, f, NULL);
        mpz_fac_ui(num, (unsigned long)d->n);
        for (int32_t i = 0; i < d->sides; i++)
            if (d->counts[i] > 1) {
                mpz_fac_ui(f, (unsigned long)d->counts[i]);
                mpz_divexact(num, num, f);
            }
        mpz_ui_pow_ui(den, (unsigned long)d->sides, (unsigned long)d->n);
        mpq_set_num(own, num);
        mpq_set_den(own, den);
        mpq_canonicalize(own);
        mpz_clears(num, den, f, NULL);
    } else {
        const ExactResult *r = &d->dist->r;
        if (d->index < r->n)
            mpq_set(own, r->outcomes[d->index].p);
        else if (d->index == r->n)
            mpq_set(own, r->not_given);
        else
            mpq_set(own, r->dropped);
    }
    if (k == 0)
        mpq_set(d->weight, own);
    else
        mpq_mul(d->weight, e->path[k - 1].weight, own);
    mpq_clear(own);
}

static Decision *push(Engine *e)
{
    if (e->len == e->cap) {
        int cap = e->cap ? e->cap * 2 : 16;
        Decision *p = mem_alloc(sizeof(Decision) * (size_t)cap);
        if (e->len)
            memcpy(p, e->path, sizeof(Decision) * (size_t)e->len);
        e->path = p;
        e->cap = cap;
    }
    Decision *d = &e->path[e->len++];
    memset(d, 0, sizeof *d);
    mpq_init(d->weight);
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

/* Move the last decision to its next choice, dropping those it exhausts.
 * False when every path has been run. */
static bool advance(Engine *e)
{
    while (e->len > 0) {
        Decision *d = &e->path[e->len - 1];
        if (d->kind == DEC_POOL) {
            /* the next multiset: take one die from the last face before the
             * end that has any, and put it, with every die after it, on the
             * face just after */
            int32_t s = d->sides;
            int32_t j = s - 2;
            while (j >= 0 && d->counts[j] == 0)
                j--;
            if (j >= 0) {
                int64_t rest = 1;
                for (int32_t i = j + 1; i < s; i++) {
                    rest += d->counts[i];
                    d->counts[i] = 0;
                }
                d->counts[j]--;
                d->counts[j + 1] = rest;
                weigh(e, e->len - 1);
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
        mpq_clear(d->weight);
        e->len--;
    }
    return false;
}

/* ---- the dice source ---- */

static int engine_roll(DiceSource *self, int64_t n, int32_t sides, int32_t *out, char *err, size_t errlen)
{
    Engine *e = (Engine *)self;
    const ExactOptions *o = e->shared->opts;
    if (e->depth >= o->max_decisions) {
        e->cut = true;
        snprintf(err, errlen, "cut: more than %d rolls on one path", o->max_decisions);
        return -1;
    }
    Decision *d;
    if (e->depth < e->len) {
        d = &e->path[e->depth];
        if (d->kind != DEC_POOL || d->n != n || d->sides != sides) {
            snprintf(err, errlen, "the procedure rolled differently on the same dice (it must not depend "
                                  "on anything but its arguments and dice)");
            return -1;
        }
    } else {
        /* a pool with more multisets than runs left can never be finished: say so now */
        double multisets = 1;
        for (int64_t k = 1; k < sides && multisets < 1e18; k++)
            multisets = multisets * (double)(n + k) / (double)k;
        if (multisets > (double)(o->budget - e->shared->runs)) {
            e->too_many = true;
            if (multisets > (double)o->budget)
                e->shared->needed = multisets;   /* this pool alone is past the budget */
            snprintf(err, errlen, "budget");
            return -1;
        }
        d = push(e);
        d->kind = DEC_POOL;
        d->n = n;
        d->sides = sides;
        d->counts = mem_alloc_atomic(sizeof(int64_t) * (size_t)sides);
        memset(d->counts, 0, sizeof(int64_t) * (size_t)sides);
        d->counts[0] = n;
        weigh(e, e->len - 1);
    }
    e->depth++;
    int64_t k = 0;
    for (int32_t f = 0; f < sides; f++)
        for (int64_t c = 0; c < d->counts[f]; c++)
            out[k++] = f + 1;
    return 0;
}

static void distribution(Vm *vm, Shared *shared, int index, const Value *args, int nargs, ExactRun run,
                         void *run_ud, ExactResult *out);

/* A call of a procedure that rerolls: its own conditioned distribution, one
 * choice among its results. */
static int engine_intercept(void *ud, const Proto *callee, int index, const Value *args, Value *result)
{
    (void)callee;
    Engine *e = ud;
    Dist *dist;
    for (dist = e->shared->memo; dist; dist = dist->next) {
        if (dist->proto != index)
            continue;
        int i;
        for (i = 0; i < dist->nargs && val_order(dist->args[i], args[i]) == 0; i++)
            ;
        if (i == dist->nargs)
            break;
    }
    if (!dist) {
        dist = mem_alloc(sizeof *dist);
        dist->proto = index;
        dist->nargs = e->vm->prog->protos[index]->nparams;
        dist->args = mem_alloc(sizeof(Value) * (size_t)(dist->nargs + 1));
        for (int i = 0; i < dist->nargs; i++)
            dist->args[i] = vm_keep(args[i]);
        Vm inner;
        vm_init(&inner, e->vm->prog, NULL);
        inner.limits = e->vm->limits;
        inner.choices = e->vm->choices;
        distribution(&inner, e->shared, index, args, dist->nargs, NULL, NULL, &dist->r);
        if (dist->r.failed || dist->r.over_budget) {
            /* hand the inner error up */
            memcpy(e->vm->error, inner.error, sizeof e->vm->error);
            if (dist->r.over_budget)
                snprintf(e->vm->error, sizeof e->vm->error, "budget");
            return -1;
        }
        dist->next = e->shared->memo;
        e->shared->memo = dist;
    }
    Decision *d;
    if (e->depth < e->len) {
        d = &e->path[e->depth];
    } else {
        if (e->depth >= e->shared->opts->max_decisions) {
            e->cut = true;
            return -1;
        }
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
        *result = dist->r.outcomes[d->index].value;
        return 1;
    }
    e->stop = d->index == dist->r.n ? 1 : 2;
    return -1;
}

static void distribution(Vm *vm, Shared *shared, int index, const Value *args, int nargs, ExactRun run,
                         void *run_ud, ExactResult *out)
{
    memset(out, 0, sizeof *out);
    mpq_init(out->not_given);
    mpq_init(out->dropped);
    int cap = 0;
    Engine e = { .vm = vm, .shared = shared };
    e.base.roll = engine_roll;
    DiceSource *saved = vm->dice;
    vm->dice = &e.base;
    vm->stop_on_reroll = true;
    vm->intercept = engine_intercept;
    vm->intercept_ud = &e;
    Arena arena = { 0 };
    Arena *saved_scratch = vm->scratch;
    vm->scratch = &arena;
    mpq_t rejected, one;
    mpq_inits(rejected, one, NULL);
    mpq_set_ui(one, 1, 1);
    do {
        if (++shared->runs > shared->opts->budget) {
            out->over_budget = true;
            break;
        }
        e.depth = 0;
        e.cut = false;
        e.too_many = false;
        arena_reset(&arena);
        e.stop = 0;
        vm->rerolled = false;
        Value result;
        int rc = run ? run(run_ud, vm, &result) : vm_call(vm, index, args, nargs, &result);
        /* the path's probability: that of its last choice (1 with no dice) */
        const mpq_t *w = e.depth ? &e.path[e.depth - 1].weight : &one;
        if (rc != 0 && e.too_many) {
            out->over_budget = true;
            break;
        }
        if (rc == 0) {
            mpq_t *slot = outcome_slot(out, result, &cap);
            mpq_add(*slot, *slot, *w);
        }
        else if (e.cut || e.stop == 2)
            mpq_add(out->dropped, out->dropped, *w);
        else if (vm->rerolled)
            mpq_add(rejected, rejected, *w);
        else if (vm->error_unknown || e.stop == 1)
            mpq_add(out->not_given, out->not_given, *w);
        else if (!strcmp(vm->error, "budget")) {
            out->over_budget = true;
            break;
        } else {
            out->failed = true;
            break;
        }
        /* the run used every decision on the path; any left over came from
         * a path that ended early (an error), so drop them */
        while (e.len > e.depth) {
            mpq_clear(e.path[e.len - 1].weight);
            e.len--;
        }
    } while (advance(&e));
    out->runs = shared->runs;
    out->needed = shared->needed;
    if (!out->failed && !out->over_budget && mpq_sgn(rejected) > 0) {
        /* reroll is conditioning: share out what the rerolls set aside */
        mpq_t kept;
        mpq_init(kept);
        mpq_sub(kept, one, rejected);
        if (mpq_sgn(kept) == 0) {
            out->failed = true;
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
    while (e.len > 0)
        mpq_clear(e.path[--e.len].weight);
    mpq_clears(rejected, one, NULL);
    vm->dice = saved;
    vm->scratch = saved_scratch;
    vm->stop_on_reroll = false;
    vm->intercept = NULL;
}

void exact_distribution(Vm *vm, int index, const Value *args, int nargs, ExactRun run, void *run_ud,
                        const ExactOptions *opts, ExactResult *out)
{
    ExactOptions o = *opts;
    if (!o.budget)
        o.budget = EXACT_DEFAULT_BUDGET;
    if (!o.max_decisions)
        o.max_decisions = EXACT_DEFAULT_DECISIONS;
    Shared shared = { .opts = &o };
    distribution(vm, &shared, index, args, nargs, run, run_ud, out);
}
