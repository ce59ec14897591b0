/* exact.c — the exact engine: every path through a procedure's dice, once
 * (see engine.h for its parts). */
#include "config.h"
#include "vm/engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The driver's tick, when its time has come: false when it says stop
 * (and from then on). */
bool exact_tick_now(Shared *s)
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

bool exact_tick(Shared *s)
{
    if (s->stopped || !s->opts->tick || s->runs < s->next_tick)
        return !s->stopped;
    s->next_tick = s->runs + (s->opts->tick_every ? s->opts->tick_every : EXACT_TICK_EVERY);
    return exact_tick_now(s);
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
     * so far (the depth limit), what the bags have left, the choices, and
     * the draws not settled yet (which the bags still hold: bags_state) */
    int n = 1 + (int)prog->bag_items + (vm->choices ? prog->nenums : 0) + bags_state(e, vm, NULL);
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
    k += bags_state(e, vm, e->extra + k);
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
    if (vm->intercept == calls_intercept && vm->prog->protos[index]->rerolls) {
        Engine *e = vm->intercept_ud;
        /* Dice rolled before the call (a default that rolls) stand when the
         * procedure rerolls, as they do in the VM: so it is worked out on its
         * own, as when a script calls it.  With nothing rolled before it, the
         * engine's own conditioning of the run is the same thing, cheaper.
         * Whether anything was rolled is the same on every path: the code
         * before the first roll is the same on all of them. */
        if (e->rolls > 0)
            return calls_answer(e, index, args, -1, true, result) > 0 ? 0 : -1;
    }
    if (vm->intercept == calls_intercept) {
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

/* Where a run's weight num/den goes (the table in docs/architecture.md):
 * false for an error of the procedure's own, which stops the count. */
static bool tally_run(Engine *e, int rc, Value result, Tally *t, mpz_srcptr num, mpz_srcptr den)
{
    const Vm *vm = e->vm;
    if (rc == 0 && result.tag == VAL_DIST)
        defer_tally(e, result.as.dist, t, num, den);   /* a distribution, whole */
    else if (rc == 0)
        tally_add(*tally_slot(&t->r, result, &t->cap), num, den);
    else if (e->end == PATH_MERGED) {
        merger_hit(e->merger, e->hit, num, den);
        e->shared->merged++;
    } else if (e->end == PATH_CUT)
        tally_add(t->r.dropped, num, den);
    else if (vm->rerolled)
        tally_add(t->rejected, num, den);
    else if (vm->error_unknown || e->end == PATH_NOT_GIVEN)
        tally_add(t->r.not_given, num, den);
    else
        return false;
    return true;
}

/* Reroll is conditioning: share out what the rerolls set aside. */
static void condition(Vm *vm, int index, ExactResult *out, mpq_srcptr rejected)
{
    mpq_t kept;
    mpq_init(kept);
    mpq_set_ui(kept, 1, 1);
    mpq_sub(kept, kept, rejected);
    if (mpq_sgn(kept) == 0) {
        out->status = EXACT_FAILED;
        snprintf(vm->error, sizeof vm->error, "'%s' rerolls whatever the dice show", vm->prog->protos[index]->name);
    } else {
        for (int i = 0; i < out->n; i++)
            mpq_div(out->outcomes[i].p, out->outcomes[i].p, kept);
        mpq_div(out->not_given, out->not_given, kept);
        mpq_div(out->dropped, out->dropped, kept);
    }
    mpq_clear(kept);
}

/* What the count sets in the machine, and what was there before. */
typedef struct Hooks {
    DiceSource *dice;
    const VmTrace *trace;
    Arena *scratch;
    int (*at_deferred)(void *, Vm *, OpCode, Value *, Value *, Value *);
    int (*at_settle)(void *, Vm *, int, bool, Value *);
} Hooks;

static Hooks attach(Vm *vm, Engine *e, Arena *arena)
{
    Hooks was = { vm->dice, vm->trace, vm->scratch, vm->at_deferred, vm->at_settle };
    vm->dice = &e->base;
    vm->trace = NULL;        /* the engine's runs are not traced (a trace would see lazy pools) */
    vm->scratch = arena;
    vm->stop_on_reroll = true;
    vm->intercept = calls_intercept;
    vm->intercept_ud = e;
    vm->at_merge = engine_merge;
    vm->at_deferred = defer_arith;
    vm->at_settle = defer_settle;
    return was;
}

static void detach(Vm *vm, const Hooks *was)
{
    vm->dice = was->dice;
    vm->trace = was->trace;
    vm->scratch = was->scratch;
    vm->stop_on_reroll = false;
    vm->intercept = NULL;
    vm->at_merge = NULL;
    vm->at_deferred = was->at_deferred;
    vm->at_settle = was->at_settle;
}

ExactStatus exact_count(Vm *vm, Shared *shared, int index, const Value *args, int nargs, ExactRun run,
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
    e.base.roll = decide_roll;
    e.base.draw = decide_draw;
    e.base.pools = shared->opts->whole_pools ? NULL : &lazy_pool_methods;
    e.rolls_slab = (Slab){ .size = sizeof(Roll), .atomic = true };
    e.draws = (Slab){ .size = sizeof(Draw), .atomic = true };
    e.views = (Slab){ .size = sizeof(View), .atomic = false };
    Arena arena = { 0 };
    Hooks saved = attach(vm, &e, &arena);
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
        if (!exact_tick(shared)) {
            status = EXACT_STOPPED;
            break;
        }
        e.merging = !run;    /* a driver's run says when its call begins (exact_call) */
        e.depth = 0;
        e.rolls = 0;
        e.end = PATH_OPEN;
        e.nheld = 0;
        e.rolls_slab.used = e.views.used = e.draws.used = 0;
        arena_reset(&arena);
        vm->rerolled = false;
        Value result;
        int rc = run ? run(run_ud, vm, &result) : vm_call(vm, index, args, nargs, &result);
        bool stopped_in_run = rc != 0;   /* (then vm->error_proto says where) */
        /* a result that holds lazy pools takes their faces (more decisions) */
        if (rc == 0 && lazy_settle_value(&e, &result))
            rc = -1;
        if (rc == 0 && vm->bag_pair) {
            /* what the bags have left is part of the result */
            char err[sizeof vm->error];
            if (bags_settle(&e.base, err, sizeof err))
                rc = -1;
            else
                result = calls_bags_pair(vm, result);
        }
        /* the path's probability: that of its last choice (1 with no dice) */
        mpz_srcptr num = e.depth ? e.path[e.depth - 1].num : unit, den = e.depth ? e.path[e.depth - 1].den : unit;
        if (e.halt == EXACT_DONE && shared->stopped)
            e.halt = EXACT_STOPPED;
        merger_run_over(e.merger);
        if (e.halt != EXACT_DONE) {
            /* the count cannot go on: over budget, or a pool that failed;
             * a pool too big for the whole budget stopped the machine where
             * it is rolled (the innermost count sees it first) */
            if (e.halt == EXACT_OVER_BUDGET && shared->needed > 0 && !shared->needed_proto && stopped_in_run
                && vm->error_proto) {
                shared->needed_proto = vm->error_proto;
                shared->needed_offset = vm->error_offset;
            }
            status = e.halt;
            break;
        }
        Tally *t = merger_tally(e.merger, &top);
        merger_given(e.merger, num, den, given_num, given_den);
        if (outermost)
            shared->done += ratio_d(num, den);
        num = given_num;
        den = given_den;
        if (rc != 0 && e.nheld && (e.end == PATH_CUT || e.end == PATH_NOT_GIVEN || vm->error_unknown))
            defer_held_first(&e, t, given_num, given_den);   /* the parts it holds end it first */
        if (!tally_run(&e, rc, result, t, num, den)) {
            /* an error of the procedure's own */
            status = EXACT_FAILED;
            break;
        }
        /* the run used every decision on the path; any left over came from
         * a path that ended early (an error), so drop them */
        if (e.len > e.depth)
            merger_close(e.merger, e.depth + 1, false, &top);
        e.len = e.depth;
    } while (decide_advance(&e));
    merger_close(e.merger, 0, false, &top);   /* (open only when the count stopped) */
    merger_expand(e.merger, &top);
    shared->active--;
    tally_finish(&top);
    *out = top.r;
    out->status = status;
    mpq_ptr rejected = top.rejected;
    out->runs = shared->runs;
    out->needed = shared->needed;
    out->needed_proto = shared->needed_proto;
    out->needed_offset = shared->needed_offset;
    out->beyond = shared->beyond;
    if (out->status == EXACT_DONE && mpq_sgn(rejected) > 0)
        condition(vm, index, out, rejected);
    for (int i = 0; i < e.cap; i++)
        mpz_clears(e.path[i].own_num, e.path[i].own_den, e.path[i].num, e.path[i].den, NULL);
    mpz_clears(unit, given_num, given_den, NULL);
    mpq_clear(rejected);
    shared->last_dep = e.dep;
    detach(vm, &saved);
    return out->status;
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
    ExactStatus st = exact_count(vm, &shared, index, args, nargs, run, run_ud, out);
    fw_cache_free(shared.fw);
    return st;
}
