/* claims.c — the exact engine's prob() claims: counted once per value of
 * the names they use, estimated past their budget as the machine says. */
#include "config.h"
#include "vm/engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    Engine *e = vm->intercept == calls_intercept ? vm->intercept_ud : NULL;
    /* The arguments are the claim's own: inside an exact count a lazy pool
     * among them goes as its faces (deciding them on the count's path). */
    const Value *args = call_args;
    if (e && nargs) {
        Value *settled = mem_alloc(sizeof(Value) * (size_t)nargs);
        for (int i = 0; i < nargs; i++) {
            settled[i] = call_args[i];
            if (lazy_settle_value(e, &settled[i])) {
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
            if (m->proto == proto && same_choices(m->choices, vm->choices, nenums) && calls_same_args(m->args, args, nargs)) {
                *out = m->odds;
                return EXACT_DONE;
            }
    if (calls_too_deep(vm, p->name, why, whylen))
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
    Vm *inner = calls_nested_vm(vm, depth);
    ExactOptions o = { .budget = cap, .max_decisions = EXACT_DEFAULT_DECISIONS };
    if (e) {
        /* the count's driver keeps its say over the claim's runs */
        o.tick = e->shared->opts->tick;
        o.tick_ud = e->shared->opts->tick_ud;
        o.tick_every = e->shared->opts->tick_every;
    }
    Shared shared = { .opts = &o, .outer = e ? e->shared : NULL };
    ExactResult r;
    ExactStatus counted = exact_count(inner, &shared, proto, args, nargs, NULL, NULL, &r);
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
