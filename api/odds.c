/* odds.c — muster_prob: the odds of a procedure's results, computed.
 *
 * The exact engine first (vm/exact.c runs the call once per path through
 * its dice); past its budget, or when its pace says it would take too long
 * (pace.h), the simulation of simulate.c.  Either gives an Odds, from which
 * the statistics are worked out once into an OddsTable (probabilities,
 * intervals, the shares at least and at most, the `?` and cut-off shares,
 * mean and spread); odds_print.c only prints it, and odds_vs.c puts tables
 * side by side for --vs.
 *
 * The exact count is watched as it goes, through the engine's tick: the
 * caller's interrupt flag, the count's pace, and its progress on a
 * terminal once it has taken more than a second.
 */
#include "config.h"
#include "api/chart.h"
#include "api/pace.h"
#include "api/progress.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <string.h>

typedef struct ExactCall {
    const ProcSig *sig;
    const bool *given;
    Value *argv;
    int field;
} ExactCall;

/* One run for the exact engine: the defaults (they may roll), then the call,
 * whose reroll keeps them (exact_call).  What is asked about is the result,
 * or its field: when that is, or holds, a value the rules text does not
 * give, the run ends as one that needed such a value, which the engine
 * counts apart (as the simulation does). */
static int exact_run(void *ud, Vm *vm, Value *result)
{
    ExactCall *x = ud;
    if (api_fill_defaults(x->sig, x->given, vm, x->argv) || exact_call(vm, x->sig->proto, x->argv, x->sig->nparams, result))
        return -1;
    if (x->field >= 0 && result->tag == VAL_RECORD)   /* (a record not given: its fields are not either) */
        *result = result->as.r->field[x->field];
    const Value *u = val_find_unknown(result);
    if (u) {
        vm_unknown_error(vm, *u, vm->prog->protos[x->sig->proto]);
        return -1;
    }
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

/* An exact count watched as it goes (the engine's tick): Ctrl-C, its pace
 * and its progress line. */
typedef enum WatchStop {
    WATCH_GOING,
    WATCH_INTERRUPTED,       /* the caller's interrupt flag was set */
    WATCH_PACE,              /* pace_judge said stop */
} WatchStop;

typedef struct Watch {
    double start;            /* pace_now() when the count began */
    double work_start;       /* pace_work_now() then: the verdicts go by the count's own work */
    uint64_t budget;
    bool patient;            /* --exact: never stopped for its pace */
    Pace pace_so_far;
    const volatile sig_atomic_t *interrupt;
    Progress bar;
    double drawn_at;         /* when the bar was last drawn */
    ExactProgress seen;      /* how far the count had got at the last look */
    double elapsed;          /* and when, in seconds from the start */
    WatchStop stop;
    PaceEstimate pace;       /* the last verdict, with its projections */
} Watch;

#define WATCH_EVERY 256      /* runs between looks (a clock read each: nothing beside the runs) */
#define WATCH_REDRAW 0.25    /* seconds between redraws of the progress line */

static void watch_draw(Watch *w, double now)
{
    char took[32], words[80];
    pace_duration_text(w->elapsed, took, sizeof took);
    snprintf(words, sizeof words, "covered, %llu runs, %s", (unsigned long long)w->seen.runs, took);
    progress_draw(&w->bar, w->seen.done, words);
    w->drawn_at = now;
}

static bool watch_tick(void *ud, const ExactProgress *p)
{
    Watch *w = ud;
    double now = pace_now();
    w->seen = *p;
    w->elapsed = now - w->start;
    if (w->interrupt && *w->interrupt) {
        w->stop = WATCH_INTERRUPTED;
        return false;
    }
    if (!w->patient) {
        PaceSample s = { pace_work_now() - w->work_start, p->runs, p->done };
        w->pace = pace_look(&w->pace_so_far, &s);
        if (w->pace.verdict != PACE_WAIT) {
            w->stop = WATCH_PACE;
            return false;
        }
    }
    if (w->elapsed >= PACE_SHOW && now - w->drawn_at >= WATCH_REDRAW)
        watch_draw(w, now);
    return true;
}

/* Why the count was stopped for its pace, and what happens instead. */
static void say_too_slow(muster_ctx *ctx, const ProcSig *sig, const Watch *w, uint64_t trials)
{
    char runs[48], share[32], took[32];
    pace_share_text(w->seen.done, share, sizeof share);
    if (w->pace.verdict == PACE_OVER_BUDGET && isfinite(w->pace.runs)) {
        /* in runs only: the same note on any machine */
        pace_runs_text(w->pace.runs, runs, sizeof runs);
        api_err_printf(ctx, "muster: note: %s: counting every outcome exactly would take about %s runs, more than "
                       "the budget of %llu; simulating %llu trials instead\n", sig->name, runs,
                       (unsigned long long)w->budget, (unsigned long long)trials);
        return;
    }
    if (w->pace.verdict == PACE_OVER_BUDGET) {
        /* the share covered stopped growing: no telling how long, but the
         * budget will be reached first */
        api_err_printf(ctx, "muster: note: %s: counting every outcome exactly would take more than the budget of "
                       "%llu runs (%s of the probability covered in %.1f s, then no more); simulating %llu "
                       "trials instead\n", sig->name, (unsigned long long)w->budget, share, w->elapsed,
                       (unsigned long long)trials);
        return;
    }
    pace_duration_text(w->pace.seconds, took, sizeof took);
    api_err_printf(ctx, "muster: note: %s: counting every outcome exactly would take about %s (%s of the "
                   "probability covered in %.1f s); simulating %llu trials instead; --exact waits for the exact "
                   "odds\n", sig->name, took, share, w->elapsed, (unsigned long long)trials);
}

/* The exact count has failed to give odds: over budget or stopped.  With
 * --exact that is an error; else the reason is kept (and said, unless the
 * caller says it for many) and the simulation follows. */
static int exact_fell_short(muster_ctx *ctx, const Compiled *c, const muster_prob_opts *opts, const ProcSig *sig, const Watch *w,
                            const ExactResult *er, uint64_t trials, Odds *o)
{
    if (w->stop == WATCH_INTERRUPTED) {
        char share[32];
        pace_share_text(w->seen.done, share, sizeof share);
        api_err_printf(ctx, "muster: interrupted: the exact count of %s had covered %s of the probability after "
                       "%llu run%s\n", sig->name, share, (unsigned long long)w->seen.runs, w->seen.runs == 1 ? "" : "s");
        return MUSTER_INTERRUPTED;
    }
    if (w->stop == WATCH_PACE) {
        o->fallback = w->pace.verdict == PACE_OVER_BUDGET ? ODDS_SLOW_PAST_BUDGET : ODDS_TOO_SLOW;
        if (!ctx->quiet_fallback)
            say_too_slow(ctx, sig, w, trials);
        return MUSTER_OK;
    }
    /* over budget: --exact says so, else the simulation */
    if (er->beyond) {
        /* a limit of the engine's, not of the budget */
        if (opts->exact) {
            api_err_printf(ctx, "muster: error: the exact odds of '%s' cannot be counted: %s; simulate with "
                           "--trials\n", sig->name, er->beyond);
            return MUSTER_ERROR;
        }
        o->fallback = ODDS_PAST_BUDGET;
        if (!ctx->quiet_fallback)
            api_err_printf(ctx, "muster: note: %s: the exact count cannot go on: %s; simulating\n", sig->name,
                           er->beyond);
        return MUSTER_OK;
    }
    if (opts->exact) {
        if (er->needed > 0) {
            api_err_printf(ctx, "muster: error: the exact odds of '%s' need at least %.0f runs of it (one pool "
                    "alone has that many outcomes), more than the budget of %llu; raise --budget or "
                    "simulate with --trials\n", sig->name, er->needed, (unsigned long long)w->budget);
            if (er->needed_proto) {
                uint32_t off;
                const Source *src = compiler_locate(c, er->needed_offset, &off);
                diag_report(&ctx->diag, DIAG_NOTE, src, (Span){ off, off + 1 }, "this needs every outcome of that pool, in '%s'",
                            er->needed_proto->name);
            }
        } else
            api_err_printf(ctx, "muster: error: the exact odds of '%s' need more than %llu runs of it; "
                    "raise --budget or simulate with --trials\n", sig->name, (unsigned long long)w->budget);
        return MUSTER_ERROR;
    }
    o->fallback = ODDS_PAST_BUDGET;
    if (!ctx->quiet_fallback)
        api_err_printf(ctx, "muster: note: too many outcomes to count exactly (more than %llu runs); simulating\n",
                (unsigned long long)w->budget);
    return MUSTER_OK;
}

int api_compute_odds(muster_ctx *ctx, const Compiled *c, const char *proc, int nargs, char *const *args,
                        const muster_prob_opts *opts, uint64_t seed, Odds *o)
{
    memset(o, 0, sizeof *o);
    uint64_t trials = opts->trials ? opts->trials : api_monte_carlo.prob_trials;
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
        /* exact where the dice allow it, watched as it goes */
        ExactCall x = { sig, per_run, argv, field };
        Watch w = { .start = pace_now(), .work_start = pace_work_now(), .budget = opts->budget ? opts->budget : EXACT_DEFAULT_BUDGET,
                    .patient = opts->exact, .interrupt = opts->interrupt };
        progress_init(&w.bar, ctx->err);
        progress_hook(&w.bar, opts->progress, opts->progress_data);
        pace_start(&w.pace_so_far, w.budget);
        ExactOptions eo = { .budget = opts->budget, .tick = watch_tick, .tick_ud = &w, .tick_every = WATCH_EVERY };
        ExactResult er;
        ExactStatus counted = exact_distribution(vm, sig->proto, argv, sig->nparams, exact_run, &x, &eo, &er);
        progress_clear(&w.bar);
        if (counted == EXACT_DONE) {
            o->exact = true;
            o->er = er;
            return MUSTER_OK;
        }
        if (counted == EXACT_FAILED) {
            api_report_runtime(ctx, c, vm);
            exact_clear(&er);
            return MUSTER_ERROR;
        }
        st = exact_fell_short(ctx, c, opts, sig, &w, &er, trials, o);
        exact_clear(&er);
        if (st != MUSTER_OK)
            return st;
        vm->dice = &rng.base;
    }
    return api_simulate_odds(ctx, c, opts, vm, sig, argv, per_run, field, seed, trials, o);
}

/* Wilson score interval at 95%. */
void api_wilson(uint64_t k, uint64_t n, double *lo, double *hi)
{
    const double z = 1.959963984540054;
    double p = (double)k / (double)n, nn = (double)n;
    double denom = 1 + z * z / nn;
    double centre = (p + z * z / (2 * nn)) / denom;
    double half = z * sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / denom;
    *lo = centre - half < 0 || k == 0 ? 0 : centre - half;   /* none seen: rounding must not show 1e-19 */
    *hi = centre + half > 1 ? 1 : centre + half;
}

static double as_double(Value v)
{
    return v.tag == VAL_RAT ? (double)v.as.q.num / (double)v.as.q.den : (double)v.as.i;
}

static bool is_number(Value v)
{
    return v.tag == VAL_INT || v.tag == VAL_RAT;
}

/* q as a double, the same on every machine.  GMP's mpq_get_d truncates,
 * but where the result is below DBL_MIN (a share of 1e-320 among 500 dice)
 * its code for x86-64 and its portable C, which the browser's build uses,
 * give different subnormal doubles; there the quotient of the two numbers'
 * leading bits is scaled down instead, which IEEE rounds to the nearest. */
static double odds_double(mpq_srcptr q)
{
    double d = mpq_get_d(q);
    if (mpq_sgn(q) == 0 || fabs(d) >= DBL_MIN)
        return d;
    long en, ed;
    double n = mpz_get_d_2exp(&en, mpq_numref(q)), m = mpz_get_d_2exp(&ed, mpq_denref(q));
    return ldexp(n / m, (int)(en - ed));
}

/* The table of exact odds: each value's fraction, the shares at least and
 * at most (of the runs with a value), the mean and the spread. */
static void exact_table(const ExactResult *r, OddsTable *t)
{
    t->exact = true;
    t->runs = r->runs;
    t->n = r->n;
    t->rows = mem_alloc(sizeof(OddsRow) * (size_t)(r->n + 1));
    t->has_not_given = mpq_sgn(r->not_given) > 0;
    t->not_given = (OddsRow){ .q = r->not_given, .p = odds_double(r->not_given) };
    t->has_cut = mpq_sgn(r->dropped) > 0;
    t->cut_q = r->dropped;
    t->cut = odds_double(r->dropped);
    t->valued = 1 - odds_double(r->not_given) - odds_double(r->dropped);
    double below = 0;
    for (int i = 0; i < r->n; i++) {
        OddsRow *row = &t->rows[i];
        row->value = r->outcomes[i].value;
        row->q = r->outcomes[i].p;
        row->p = odds_double(r->outcomes[i].p);
        row->lo = row->hi = row->p;
        row->at_least = t->valued - below;   /* as in a simulation: of the runs with a value */
        below += row->p;
        row->at_most = below;
    }
    t->numeric = r->n > 0 && is_number(r->outcomes[0].value);
    if (t->numeric) {
        /* mean and spread over the outcomes with a value */
        mpq_t sq;
        mpq_inits(t->mean_q, sq, NULL);
        exact_moments(r, t->mean_q, sq);
        t->mean = mpq_get_d(t->mean_q);
        t->sd = sqrt(mpq_get_d(sq));
        if (mpz_cmp_ui(mpq_denref(t->mean_q), 1) != 0)
            t->mean_fraction = api_mpq_text(t->mean_q);
        mpq_clear(sq);
    }
}

/* The table of simulated odds: each value's share of the trials with its
 * 95% interval, the shares at least and at most, the mean and the spread
 * (of the trials with a value). */
static void simulated_table(const Odds *o, OddsTable *t)
{
    const Tallies *ts = &o->t;
    uint64_t trials = o->trials, unknown = o->unknown;
    t->trials = trials;
    t->seed = o->seed;
    t->n = (int)ts->n;
    t->rows = mem_alloc(sizeof(OddsRow) * (ts->n + 1));
    uint64_t below = 0;
    for (size_t i = 0; i < ts->n; i++) {
        OddsRow *row = &t->rows[i];
        row->value = ts->items[i].value;
        row->count = ts->items[i].count;
        row->p = (double)row->count / (double)trials;
        api_wilson(row->count, trials, &row->lo, &row->hi);
        row->at_least = (double)(trials - unknown - below) / (double)trials;
        below += row->count;
        row->at_most = (double)below / (double)trials;
    }
    t->has_not_given = unknown > 0;
    t->not_given = (OddsRow){ .p = (double)unknown / (double)trials, .count = unknown };
    if (unknown) {
        api_wilson(unknown, trials, &t->not_given.lo, &t->not_given.hi);
        uint32_t off;
        const Source *src = compiler_locate(t->c, o->unknown_offset, &off);
        int col;
        source_linecol(src, off, &t->not_given_line, &col);
        t->not_given_path = src->path;
    }
    t->numeric = ts->n > 0 && is_number(ts->items[0].value);
    if (t->numeric) {
        double mean = 0, var = 0;
        uint64_t known = trials - unknown;   /* mean and spread are of the trials with a value */
        for (size_t i = 0; i < ts->n; i++)
            mean += as_double(ts->items[i].value) * (double)ts->items[i].count;
        mean /= (double)known;
        for (size_t i = 0; i < ts->n; i++) {
            double d = as_double(ts->items[i].value) - mean;
            var += d * d * (double)ts->items[i].count;
        }
        var /= (double)known;
        t->mean = mean;
        t->sd = sqrt(var);
    }
}

/* The odds of o as a table.  An exact table points into o's ExactResult. */
void api_odds_table(const Compiled *c, const muster_prob_opts *opts, const Odds *o, OddsTable *t)
{
    memset(t, 0, sizeof *t);
    t->c = c;
    t->sig = o->sig;
    t->argv = o->argv;
    t->given = o->given;
    t->field = opts->field;
    t->choices = opts->choices;
    t->nchoices = opts->nchoices;
    if (o->exact)
        exact_table(&o->er, t);
    else
        simulated_table(o, t);
}

/* --svg FILE: the chart of t (or of vs) written to FILE, before anything
 * is printed; a file that cannot be written is an error, as one that
 * cannot be read is. */
int api_write_chart(muster_ctx *ctx, const char *path, const OddsTable *t, const OddsVs *vs)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        api_err_printf(ctx, "muster: error: cannot write '%s': %s\n", path, strerror(errno));
        return MUSTER_ERROR;
    }
    if (vs)
        chart_vs_svg(f, vs);
    else
        chart_odds_svg(f, t);
    int bad = ferror(f);
    int err = bad ? errno : 0;
    if (fclose(f) != 0 && !bad) {
        bad = 1;
        err = errno;
    }
    if (bad) {
        api_err_printf(ctx, "muster: error: cannot write '%s': %s\n", path, strerror(err ? err : EIO));
        return MUSTER_ERROR;
    }
    return MUSTER_OK;
}

int api_prob(muster_ctx *ctx, const muster_program *prog, const char *proc, int nargs, char *const *args,
                const muster_prob_opts *opts)
{
    const Compiled *c = prog->compiled;
    uint64_t seed = opts->have_seed ? opts->seed : rng_fresh_seed();
    if (api_grid_wanted(nargs, args))
        return api_prob_grid(ctx, c, proc, nargs, args, opts, seed);
    Odds o;
    int st = api_compute_odds(ctx, c, proc, nargs, args, opts, seed, &o);
    if (st != MUSTER_OK)
        return st;
    if (opts->nvs) {
        st = api_prob_vs(ctx, c, proc, nargs, args, opts, seed, &o);
        if (o.exact)
            exact_clear(&o.er);
        return st;
    }
    OddsTable t;
    api_odds_table(c, opts, &o, &t);
    if (opts->svg && strcmp(opts->svg, "-") && (st = api_write_chart(ctx, opts->svg, &t, NULL)) != MUSTER_OK)
        ;
    else if (opts->html)
        api_odds_html(ctx->out, &t);
    else if (opts->svg && !strcmp(opts->svg, "-"))
        chart_odds_svg(ctx->out, &t);
    else if (opts->json)
        api_odds_json(ctx->out, &t);
    else if (opts->csv)
        api_odds_csv(ctx->out, &t);
    else
        api_odds_text(ctx->out, &t);
    if (o.exact)
        exact_clear(&o.er);
    return st;
}

int api_odds_number(muster_ctx *ctx, const Compiled *c, const char *proc, int nargs, char *const *args, bool mean,
                    double *value, char **exact, bool *simulated, double *unknown)
{
    muster_prob_opts opts = { .have_seed = 1, .seed = 1 };
    Odds o;
    int st = api_compute_odds(ctx, c, proc, nargs, args, &opts, opts.seed, &o);
    if (st != MUSTER_OK)
        return st;
    OddsTable t;
    api_odds_table(c, &opts, &o, &t);
    *simulated = !o.exact;
    *unknown = t.has_not_given ? t.not_given.p : 0;
    *exact = NULL;
    *value = 0;
    if (mean) {
        *value = t.numeric ? t.mean : 0;
        if (o.exact && t.numeric)
            *exact = api_mpq_text(t.mean_q);
    } else {
        for (int i = 0; i < t.n; i++)
            if (t.rows[i].value.tag == VAL_BOOL && t.rows[i].value.as.b) {
                *value = t.rows[i].p;
                if (o.exact)
                    *exact = api_mpq_text(t.rows[i].q);
            }
        if (o.exact && !*exact)
            *exact = mem_strdup("0");
    }
    if (o.exact)
        exact_clear(&o.er);
    return MUSTER_OK;
}

int muster_prob(muster_ctx *ctx, const muster_program *prog, const char *proc, int nargs, char *const *args,
                const muster_prob_opts *opts)
{
    MemCatch mc;
    API_TRY(ctx, mc, return MUSTER_NOMEM);
    int st = api_prob(ctx, prog, proc, nargs, args, opts);
    return API_DONE(ctx, mc, st);
}
