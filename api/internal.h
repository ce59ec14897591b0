/* internal.h — what the files of api/ share, and nothing outside api/ sees.
 *
 * api/ is the library's driver: it sits on top of lang/, compiler/ and vm/
 * and implements include/muster.h.  The two opaque types of the public API
 * are defined here, with the few structs that pass between the files (a
 * Call made ready from command-line text, the Odds of a procedure) and the
 * api_ functions one file offers the others.  Each file keeps the rest to
 * itself (static).
 */
#ifndef MUSTER_API_INTERNAL_H
#define MUSTER_API_INTERNAL_H

#include "muster.h"
#include "compiler/compiler.h"
#include "vm/dice.h"
#include "vm/exact.h"
#include "base/mem.h"
#include "vm/vm.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct muster_ctx {
    FILE *out, *err;
    Diag diag;
    VmLimits limits;
    bool quiet_fallback;     /* a grid of calls says once, not per call, that it simulates */
    bool no_batch;           /* simulate without the batch path (vm/batch.h): for the tests that
                                compare the two, which must count alike */
    /* muster_new(NULL, NULL, 0): the streams are the library's own, the
     * output thrown away and the diagnostics kept (in `kept`, from
     * open_memstream) for muster_last_error's text. */
    bool own_out, own_err;
    char *kept;
    size_t kept_len;
    /* muster_last_error: what the last call that failed said */
    bool failed;
    int fail_status;
    char *fail_file, *fail_message, *fail_text;   /* GC memory */
    int fail_line, fail_col;
};

/* The program's lists for the value-level API (values.c), made when first
 * asked for. */
typedef struct ApiCatalog ApiCatalog;
ApiCatalog *api_catalog(const Compiled *c);

struct muster_program {
    Compiled *compiled;
    ApiCatalog *catalog;
};

/* ---- context.c ---- */

/* What muster does when counting every way the dice can fall would take
 * more runs than the exact engine's budget: it simulates.  Its numbers are
 * all in api_monte_carlo (context.c); the VM has none of its own. */
typedef struct MonteCarlo {
    uint64_t prob_trials;    /* `muster prob` without --trials */
    ExactFallback claim;     /* a prob() claim: its trials and its fixed seed */
} MonteCarlo;

extern const MonteCarlo api_monte_carlo;

/* Every public function that may fail starts with api_begin (the first
 * error is recorded anew) and returns through api_end, which keeps what
 * the call said for muster_last_error when its status is not MUSTER_OK. */
void api_begin(muster_ctx *ctx);
int api_end(muster_ctx *ctx, int status);
/* Out of memory in a call: says so and returns MUSTER_NOMEM. */
int api_nomem(muster_ctx *ctx);
/* The frame of a public function that may run out of memory: api_begin,
 * and a catch (base/mem.h) that on running out reports it, ends the call
 * (api_end) and does `on_nomem` (a return).  API_DONE pops the catch and
 * ends the call with its status. */
#define API_TRY(ctx, mc, on_nomem) \
    api_begin(ctx); \
    mem_catch_push(&(mc)); \
    if (setjmp((mc).jump)) { \
        api_end((ctx), api_nomem(ctx)); \
        on_nomem; \
    }
/* (a function, so that a status written as a call is worked out while the
 * catch is still pushed) */
static inline int api_done(muster_ctx *ctx, MemCatch *mc, int status)
{
    mem_catch_pop(mc);
    return api_end(ctx, status);
}
#define API_DONE(ctx, mc, status) api_done((ctx), &(mc), (status))
/* muster_prob without its catch of running out of memory, for a caller that
 * has one (api/session.c). */
int api_prob(muster_ctx *ctx, const muster_program *prog, const char *proc, int nargs, char *const *args,
             const muster_prob_opts *opts);
/* A program for the caller to keep (never collected until freed). */
muster_program *api_new_program(Compiled *c);

/* A message to the error stream, its control characters escaped. */
__attribute__((format(printf, 2, 3)))
void api_err_printf(muster_ctx *ctx, const char *fmt, ...);
/* "muster: error: " and the message; returns MUSTER_USAGE. */
__attribute__((format(printf, 2, 3)))
int api_usage_error(muster_ctx *ctx, const char *fmt, ...);
/* A runtime error at the failing expression, with the call chain. */
void api_report_runtime(muster_ctx *ctx, const Compiled *c, const Vm *vm);

/* The real paths of the files a load has read, so that each is read once. */
typedef struct Loaded {
    char **paths;
    int n, cap;
} Loaded;
/* A file with its imports (and, for a variant, its base, patched), as one
 * module; NULL after reporting errors.  The files read are added to seen. */
Module *api_load_module(muster_ctx *ctx, const Source *src, Loaded *seen);
/* The declarations of the files m imports (and theirs) not in seen yet,
 * added to into. */
void api_load_imports(muster_ctx *ctx, Module *into, const Module *m, Loaded *seen);
/* compiler_compile_with the standard library's names, for the message of
 * a call of a procedure it declares without its import. */
Compiled *api_compile(muster_ctx *ctx, const Module *m);

/* ---- args.c ---- */

/* A procedure made ready to call from command-line text: its signature, a
 * machine on the given dice with the choices applied, and the arguments
 * (defaults still to be filled, per call, by api_fill_defaults). */
typedef struct Call {
    const ProcSig *sig;
    Vm vm;
    Value argv[65];
    bool given[65];
} Call;

int api_prepare_call(muster_ctx *ctx, const Compiled *c, const char *proc, int nargs, char *const *args,
                     char *const *choice_texts, int nchoices, DiceSource *dice, const VmTrace *trace, Call *call);
int api_fill_defaults(const ProcSig *sig, const bool *given, Vm *vm, Value *out);
const bool *api_fix_pure_defaults(const ProcSig *sig, const bool *given, Vm *vm, Value *args);
void api_print_signature(FILE *out, const Compiled *c, const ProcSig *sig);
void api_print_call_given(FILE *out, const Compiled *c, const ProcSig *sig, const Value *args, const bool *given);
void api_print_call(FILE *out, const Compiled *c, const ProcSig *sig, const Value *args);

/* ---- run.c ---- */

/* The dice of a run: scripted (the faces listed in `scripted`, as --dice
 * gives them), else seeded (`seed` when have_seed, else a fresh one). */
int api_dice_for(muster_ctx *ctx, const char *scripted, int have_seed, uint64_t seed, RngDice *rng,
                 ScriptDice *script, DiceSource **dice);
/* A value, with the sheet's words for it when it has some. */
void api_print_explained(FILE *out, Value v, const Program *prog);
/* muster_run; on `kept` when it is not NULL (scripted dice that outlast the
 * call, as a session's do: what is left of them is not warned about), else
 * on the dice opts says. */
int api_run(muster_ctx *ctx, const Compiled *c, const char *proc, int nargs, char *const *args,
            const muster_run_opts *opts, ScriptDice *kept);

/* ---- odds.c, simulate.c, odds_print.c ---- */

typedef struct Tally {
    Value value;
    uint64_t count;
} Tally;

/* Counts of results, sorted by value.  Small ints, members and bools (the
 * usual results) are first counted straight into an array indexed by value,
 * and any other (records, rationals, strings, pools) in a hash table, and
 * both are folded into the sorted list by tally_flush. */
#define TALLY_DIRECT_LO (-1024)
#define TALLY_DIRECT_N 8192

typedef struct Tallies {
    Tally *items;
    size_t n, cap;
    uint64_t *direct;        /* TALLY_DIRECT_N counts, for values of one tag (and enum) */
    ValTag direct_tag;
    int32_t direct_enum;
    Tally *hashed;           /* the others: open addressing by val_hash (count 0: empty) */
    size_t nhashed, hashed_cap;   /* (the capacity is a power of two) */
} Tallies;

/* The odds of a procedure's results: exact, or simulated. */
/* Why odds that might have been exact were simulated. */
typedef enum OddsFallback {
    ODDS_NO_FALLBACK,        /* exact, or simulated because --trials said so */
    ODDS_PAST_BUDGET,        /* the exact count reached its budget (or one pool alone was bigger) */
    ODDS_TOO_SLOW,           /* stopped by its pace: it fitted the budget but would take too long */
    ODDS_SLOW_PAST_BUDGET,   /* stopped by its pace: it would need more runs than the budget and
                                take too long to reach it (see api/pace.h) */
} OddsFallback;

typedef struct Odds {
    const ProcSig *sig;
    Value *argv;
    const bool *given;       /* which arguments were given (the rest are defaults) */
    bool exact;
    OddsFallback fallback;   /* simulated: why not exact */
    ExactResult er;          /* exact */
    Tallies t;               /* simulated: results and their counts */
    uint64_t trials, seed;
    uint64_t unknown;        /* trials that reached a value the rules text does not give */
    const Proto *unknown_at;
    uint32_t unknown_offset;
} Odds;

/* The odds of a call as a plain table, computed once from an Odds and
 * printed by the renderers of odds_print.c (text, JSON, CSV), which do no
 * statistics of their own.  Exact odds keep their fractions (pointers into
 * the Odds' ExactResult, which must outlive the table); simulated ones
 * keep counts and 95% intervals. */
typedef struct OddsRow {
    Value value;
    mpq_srcptr q;            /* exact: the probability as a fraction; NULL when simulated */
    double p;                /* the probability */
    double lo, hi;           /* simulated: its 95% interval (Wilson score) */
    uint64_t count;          /* simulated: the trials that gave it */
    double at_least;         /* the share with a value this one or above */
    double at_most;          /* the share with a value this one or below */
} OddsRow;

typedef struct OddsTable {
    const Compiled *c;       /* the script the values belong to */
    const ProcSig *sig;      /* the call, for the heading */
    const Value *argv;
    const bool *given;
    const char *field;       /* --field, or NULL */
    char *const *choices;    /* --choose, for the heading */
    int nchoices;
    bool exact;
    uint64_t runs;           /* exact: runs of the procedure */
    uint64_t trials, seed;   /* simulated */
    int n;
    OddsRow *rows;           /* in the order of the values */
    bool has_not_given;      /* some runs reached a value the rules text does not give */
    OddsRow not_given;       /* ... with what share */
    const char *not_given_path;  /* simulated: where the first of them did */
    int not_given_line;
    bool has_cut;            /* exact: an open-ended roll was cut short */
    mpq_srcptr cut_q;        /* ... with this probability */
    double cut;
    double valued;           /* exact: the share of runs with a value */
    bool numeric;            /* the values are numbers: mean and sd are set */
    double mean, sd;         /* of the runs with a value */
    mpq_t mean_q;            /* exact: the mean as a fraction (GC memory: never cleared) */
    char *mean_fraction;     /* exact: ... as text when it is not whole, else NULL */
} OddsTable;

/* --vs: one number on one side of a comparison (the rules, or a variant):
 * a probability or a mean, and its change against the rules' (0 on the
 * rules' side).  The fractions are set only when exact: q when the side is
 * exact, dq when the rules are too (worked out with mpq_sub, never from the
 * doubles). */
typedef struct OddsCell {
    double p, change;
    bool exact, exact_change;
    mpq_t q, dq;
} OddsCell;

/* --vs: one value's probability on every side. */
typedef struct OddsChange {
    Value value;
    const Program *prog;     /* the script the value was found in */
    const char *text;        /* the value as text: two scripts' enums compare by name */
    OddsCell *cell;          /* one per side */
} OddsChange;

/* --vs: the odds under the rules (side 0) and under each variant, on the
 * same dice. */
typedef struct OddsVs {
    int nsides;              /* 1 + the variants */
    OddsTable *side;
    const char **path;       /* each side's file */
    uint64_t seed;
    int n;
    OddsChange *rows;        /* every value any side gives */
    bool has_not_given;      /* some side reaches a value the rules text does not give */
    OddsCell *not_given;     /* one per side */
    bool numeric;            /* every side's values are numbers */
    OddsCell *mean;          /* one per side, of the outcomes with a value */
} OddsVs;

int api_find_field(muster_ctx *ctx, const Compiled *c, const ProcSig *sig, const char *name, int *field);
/* One number of a call's odds, for a sheet's odds table: the chance that
 * it returns true, or (mean) its mean (of the runs with a value); *exact
 * the fraction when counted exactly (else NULL: simulated, seed 1),
 * *unknown the share of runs that reach a value the rules text does not
 * give (0 when none). */
int api_odds_number(muster_ctx *ctx, const Compiled *c, const char *proc, int nargs, char *const *args, bool mean,
                    double *value, char **exact, bool *simulated, double *unknown);
int api_compute_odds(muster_ctx *ctx, const Compiled *c, const char *proc, int nargs, char *const *args,
                     const muster_prob_opts *opts, uint64_t seed, Odds *o);
int api_simulate_odds(muster_ctx *ctx, const Compiled *c, const muster_prob_opts *opts, Vm *vm, const ProcSig *sig,
                      Value *argv, const bool *per_run, int field, uint64_t seed, uint64_t trials, Odds *o);

/* odds_print.c: the renderers, and the text helpers odds.c shares */
void api_odds_text(FILE *out, const OddsTable *t);
void api_odds_json(FILE *out, const OddsTable *t);
void api_odds_csv(FILE *out, const OddsTable *t);
void api_print_odds_heading(FILE *out, const OddsTable *t);
void api_print_choosing(FILE *out, char *const *choices, int nchoices);
int api_odds_shown(const OddsTable *t);
/* Whether t's values have an order, so that "at least" and "at most" mean
 * something: not records. */
bool api_odds_ordered(const OddsTable *t);
void api_csv_field(FILE *out, const char *text);
/* A line of aligned columns (the --vs and grid tables): each text padded
 * to its width (left- or right-aligned), two spaces between columns, no
 * trailing blanks. */
typedef struct ApiLine {
    FILE *out;
    int pending;             /* blanks owed before the next text */
} ApiLine;
void api_line_put(ApiLine *l, const char *text, int width, bool left);
void api_line_end(ApiLine *l);
char *api_value_text(Value v, const Program *prog);
/* The head of a member's long words, "Attack order" for "Attack order:
 * Move full speed to ...": when the words run past 40 characters and
 * begin with at most 32 ending in ':', '.' or a dash.  NULL when they have
 * none. */
char *api_words_head(const char *text);
/* A value in players' words, for a chart's label: a member's words (their
 * head when they are long and have one), else as api_value_text. */
const char *api_value_words(Value v, const Program *prog);
char *api_mpq_text(const mpq_t q);

/* odds_html.c: the odds as one HTML page, the table and the chart */
void api_odds_html(FILE *out, const OddsTable *t);
void api_vs_html(FILE *out, const OddsVs *vs);
/* odds.c: --svg FILE, the chart of one of them written there (the other NULL) */
int api_write_chart(muster_ctx *ctx, const char *path, const OddsTable *t, const OddsVs *vs);

/* odds.c: an Odds as a table (an exact one points into the Odds) */
void api_odds_table(const Compiled *c, const muster_prob_opts *opts, const Odds *o, OddsTable *t);
/* odds.c: the Wilson score interval at 95% of k in n */
void api_wilson(uint64_t k, uint64_t n, double *lo, double *hi);

/* odds_vs.c: --vs, worked out and printed (vs_print.c) */
void api_vs_build(const Compiled *const *compiled, const Odds *odds, const char *const *path, int nsides,
                  const muster_prob_opts *opts, uint64_t seed, OddsVs *vs);
bool api_vs_differs(const OddsVs *vs);
/* Source text from `at`, each run of white space one space (room for
 * three more characters, to cut it with "..."). */
char *api_folded_text(const Source *src, Span at);
int api_base_examples(muster_ctx *ctx, const Compiled *c, bool changed_only);
int api_prob_vs(muster_ctx *ctx, const Compiled *c, const char *proc, int nargs, char *const *args,
                const muster_prob_opts *opts, uint64_t seed, const Odds *base);
void api_vs_text(FILE *out, const OddsVs *vs);
void api_vs_sides(FILE *out, const OddsVs *vs);
/* A fraction as the text shows it: "+5/36" (with `sign`), or "~3.06e-146"
 * when it is longer than 30 characters. */
char *api_fraction_text(mpq_srcptr q, double p, bool sign);
void api_vs_json(FILE *out, const OddsVs *vs);
void api_vs_csv(FILE *out, const OddsVs *vs);

/* ---- grid.c, grid_print.c: prob over a grid of arguments ---- */

/* One value's share in one row of a grid (0 where the row never gives it). */
typedef struct GridCell {
    double p;
    mpq_srcptr q;            /* exact: the fraction; NULL for 0, or when simulated */
    double lo, hi;           /* simulated: the 95% interval */
    uint64_t count;          /* simulated: the trials that gave it */
} GridCell;

/* One combination of the listed values: its call's odds, worked out as
 * prob works out one call, and a cell for each column of the grid. */
typedef struct GridRow {
    Odds odds;               /* odds.argv holds the combination's values */
    OddsTable t;             /* points into odds when exact */
    GridCell *cell;          /* one per column */
    GridCell not_given, cut;
} GridRow;

/* prob FILE PROC a=x,y b=u,v: one row per combination, the first listed
 * argument varying slowest; the columns are every value some row gives, in
 * value order. */
typedef struct OddsGrid {
    const Compiled *c;
    const ProcSig *sig;
    const char *field;       /* --field, or NULL */
    char *const *choices;    /* --choose, for the heading */
    int nchoices;
    int nvary;
    int *vary;               /* the parameters listed with several values, in the order given */
    int nrows;
    GridRow *rows;
    int ncols;
    Value *cols;
    int nexact;              /* rows counted exactly (the rest were simulated) */
    uint64_t trials, seed;   /* of the simulated rows */
    bool has_not_given;      /* some row reaches a value the rules text does not give */
    bool has_cut;            /* some exact row cut an open-ended roll */
    bool numeric;            /* the values are numbers: each row with a value has a mean */
} OddsGrid;

bool api_grid_wanted(int nargs, char *const *args);
int api_prob_grid(muster_ctx *ctx, const Compiled *c, const char *proc, int nargs, char *const *args,
                  const muster_prob_opts *opts, uint64_t seed);
void api_grid_text(FILE *out, const OddsGrid *g);
void api_grid_json(FILE *out, const OddsGrid *g);
void api_grid_csv(FILE *out, const OddsGrid *g);

#endif
