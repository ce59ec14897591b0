/* odds.c — muster_prob: the odds of a procedure's results, computed.
 *
 * The exact engine first (vm/exact.c runs the call once per path through
 * its dice); past its budget, the simulation of simulate.c.  The result is
 * an Odds, which odds_print.c renders.
 */
#include "config.h"
#include "internal.h"

#include <string.h>

typedef struct ExactCall {
    const ProcSig *sig;
    const bool *given;
    Value *argv;
    int field;
} ExactCall;

/* One run for the exact engine: the defaults (they may roll), then the call,
 * whose reroll keeps them (exact_call). */
static int exact_run(void *ud, Vm *vm, Value *result)
{
    ExactCall *x = ud;
    if (api_fill_defaults(x->sig, x->given, vm, x->argv) || exact_call(vm, x->sig->proto, x->argv, x->sig->nparams, result))
        return -1;
    if (x->field >= 0)
        *result = result->as.r->field[x->field];
    return 0;
}

/* --field NAME of a procedure's record result: its index in *field. */
int api_find_field(muster_ctx *ctx, const Compiled *c, const ProcSig *sig, const char *name, int *field)
{
    if (sig->ret.kind != TY_RECORD)
        return api_usage_error(ctx, "--field %s: '%s' returns %s, not a record", name, sig->name,
                           compiler_type_name(c, sig->ret));
    const RecordDesc *r = &c->prog->records[sig->ret.enum_id];
    for (int i = 0; i < r->nfields; i++)
        if (!strcmp(r->fields[i], name))
            *field = i;
    if (*field < 0) {
        api_err_printf(ctx, "muster: error: --field %s: %s has no such field (it has:", name, r->name);
        for (int i = 0; i < r->nfields; i++)
            api_err_printf(ctx, " %s", r->fields[i]);
        fputs(")\n", ctx->err);
        return MUSTER_USAGE;
    }
    return MUSTER_OK;
}

int api_compute_odds(muster_ctx *ctx, const Compiled *c, const char *proc, int nargs, char *const *args,
                        const muster_prob_opts *opts, uint64_t seed, Odds *o)
{
    memset(o, 0, sizeof *o);
    uint64_t trials = opts->trials ? opts->trials : 100000;
    RngDice rng;
    dice_rng_init(&rng, seed);
    o->seed = seed;
    Call *call = mem_alloc(sizeof *call);
    int st = api_prepare_call(ctx, c, proc, nargs, args, opts->choices, opts->nchoices, &rng.base, NULL, call);
    if (st != MUSTER_OK)
        return st;
    const ProcSig *sig = call->sig;
    Vm *vm = &call->vm;
    Value *argv = call->argv;
    bool *given = call->given;
    o->sig = sig;
    o->argv = argv;
    o->given = given;
    /* the same procedure, run many times: remember pure calls' results, and
     * work the fixed defaults out once */
    vm->memo = true;
    vm->quiet_unknown = true;
    const bool *per_run = api_fix_pure_defaults(sig, given, vm, argv);

    /* --field: the odds of one field of a record result */
    int field = -1;
    if (opts->field && (st = api_find_field(ctx, c, sig, opts->field, &field)) != MUSTER_OK)
        return st;
    if (!opts->trials) {
        /* exact where the dice allow it */
        ExactCall x = { sig, per_run, argv, field };
        ExactOptions eo = { .budget = opts->budget };
        ExactResult er;
        exact_distribution(vm, sig->proto, argv, sig->nparams, exact_run, &x, &eo, &er);
        if (er.failed) {
            api_report_runtime(ctx, c, vm);
            exact_clear(&er);
            return MUSTER_ERROR;
        }
        if (!er.over_budget) {
            o->exact = true;
            o->er = er;
            return MUSTER_OK;
        }
        exact_clear(&er);
        if (opts->exact) {
            if (er.needed > 0)
                api_err_printf(ctx, "muster: error: the exact odds of '%s' need at least %.0f runs of it (one pool "
                        "alone has that many outcomes), more than the budget of %llu; raise --budget or "
                        "simulate with --trials\n", sig->name, er.needed,
                        (unsigned long long)(opts->budget ? opts->budget : EXACT_DEFAULT_BUDGET));
            else
                api_err_printf(ctx, "muster: error: the exact odds of '%s' need more than %llu runs of it; "
                        "raise --budget or simulate with --trials\n", sig->name,
                        (unsigned long long)(opts->budget ? opts->budget : EXACT_DEFAULT_BUDGET));
            return MUSTER_ERROR;
        }
        api_err_printf(ctx, "muster: note: too many outcomes to count exactly (more than %llu runs); simulating\n",
                (unsigned long long)(opts->budget ? opts->budget : EXACT_DEFAULT_BUDGET));
        vm->dice = &rng.base;
    }
    return api_simulate_odds(ctx, c, opts, vm, sig, argv, per_run, field, seed, trials, o);
}

int muster_prob(muster_ctx *ctx, const muster_program *prog, const char *proc, int nargs, char *const *args,
                const muster_prob_opts *opts)
{
    const Compiled *c = prog->compiled;
    uint64_t seed = opts->have_seed ? opts->seed : rng_fresh_seed();
    Odds o;
    int st = api_compute_odds(ctx, c, proc, nargs, args, opts, seed, &o);
    if (st != MUSTER_OK)
        return st;
    if (opts->vs)
        return api_compare_odds(ctx, c, proc, nargs, args, opts, seed, &o);
    if (o.exact) {
        st = api_print_exact(ctx, c, o.sig, o.argv, o.given, opts, opts->field, &o.er);
        exact_clear(&o.er);
        return st;
    }
    return api_print_simulated(ctx, c, opts, &o);
}
