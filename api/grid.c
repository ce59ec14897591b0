/* grid.c — prob over a grid of arguments: `facing=front,side,rear close=true,false`.
 *
 * An argument whose value holds commas lists several values; prob works out
 * the odds of every combination of the values listed, each on its own
 * through api_compute_odds (exact where the dice allow, else simulated on
 * the one seed), exactly as it would work out that call alone.  Before any
 * odds are counted every listed value is checked by the same parsing a
 * single call goes through, so a bad value gets the message it would get
 * alone and nothing is printed.  The rows are then put on common columns,
 * every value some row gives, in an OddsGrid that grid_print.c prints.
 */
#include "config.h"
#include "api/internal.h"

#include <stdlib.h>
#include <string.h>

/* More combinations than this is a usage error: each one is a whole prob. */
#define GRID_MOST_ROWS 1000

/* One argument of the command line: a name=value, or a name=a,b,c whose
 * items are each written out as name=item. */
typedef struct Listed {
    int n;
    char **items;
} Listed;

static bool is_list(const char *arg)
{
    const char *eq = strchr(arg, '=');
    return eq && strchr(eq + 1, ',');
}

bool api_grid_wanted(int nargs, char *const *args)
{
    for (int i = 0; i < nargs; i++)
        if (is_list(args[i]))
            return true;
    return false;
}

/* Splits each listed argument into name=item strings; a usage error for an
 * empty item. */
static int split_lists(muster_ctx *ctx, int nargs, char *const *args, Listed *lists)
{
    for (int i = 0; i < nargs; i++) {
        Listed *l = &lists[i];
        if (!is_list(args[i])) {
            l->n = 1;
            l->items = mem_alloc(sizeof(char *));
            l->items[0] = args[i];
            continue;
        }
        const char *eq = strchr(args[i], '=');
        size_t name = (size_t)(eq - args[i]) + 1;   /* "name=" */
        int n = 1;
        for (const char *p = eq + 1; *p; p++)
            n += *p == ',';
        l->items = mem_alloc(sizeof(char *) * (size_t)n);
        const char *item = eq + 1;
        for (int k = 0; k < n; k++) {
            const char *end = strchr(item, ',');
            size_t len = end ? (size_t)(end - item) : strlen(item);
            if (len == 0) {
                api_usage_error(ctx, "'%s' lists an empty value; separate the values with single commas, "
                                "with none before the first or after the last", args[i]);
                return MUSTER_USAGE;
            }
            char *text = mem_alloc_atomic(name + len + 1);
            memcpy(text, args[i], name);
            memcpy(text + name, item, len);
            text[name + len] = '\0';
            l->items[k] = text;
            item = end ? end + 1 : item + len;
        }
        l->n = n;
    }
    return MUSTER_OK;
}

/* The combination `idx` (an item of each argument) as name=value strings. */
static void combination(int nargs, const Listed *lists, const int *idx, char **out)
{
    for (int i = 0; i < nargs; i++)
        out[i] = lists[i].items[idx[i]];
}

/* The parameter an argument names, once a call has been made of it. */
static int param_of(const ProcSig *sig, const char *arg)
{
    size_t nl = (size_t)(strchr(arg, '=') - arg);
    for (int p = 0; p < sig->nparams; p++)
        if (strlen(sig->pnames[p]) == nl && !strncmp(sig->pnames[p], arg, nl))
            return p;
    return -1;
}

/* Every listed value parsed as a single call would parse it (each list's
 * items in turn, the other lists at their first), so that a bad value is
 * refused with the single call's message before anything is counted; and a
 * value listed twice for one parameter is refused too.  *vary gets the
 * listed parameters. */
static int check_values(muster_ctx *ctx, const Compiled *c, const char *proc, int nargs, const Listed *lists,
                        const muster_prob_opts *opts, OddsGrid *g)
{
    int *idx = mem_alloc_atomic(sizeof(int) * (size_t)(nargs + 1));
    char **combo = mem_alloc(sizeof(char *) * (size_t)(nargs + 1));
    Call *call = mem_alloc(sizeof *call);
    RngDice rng;
    dice_rng_init(&rng, 1);
    memset(idx, 0, sizeof(int) * (size_t)(nargs + 1));
    combination(nargs, lists, idx, combo);
    int st = api_prepare_call(ctx, c, proc, nargs, combo, opts->choices, opts->nchoices, &rng.base, NULL, call);
    if (st != MUSTER_OK)
        return st;
    g->sig = call->sig;
    g->vary = mem_alloc_atomic(sizeof(int) * (size_t)(nargs + 1));
    for (int i = 0; i < nargs; i++) {
        if (lists[i].n == 1)
            continue;
        int p = param_of(g->sig, lists[i].items[0]);
        g->vary[g->nvary++] = p;
        Value *seen = mem_alloc(sizeof(Value) * (size_t)lists[i].n);
        for (int k = 0; k < lists[i].n; k++) {
            idx[i] = k;
            combination(nargs, lists, idx, combo);
            if ((st = api_prepare_call(ctx, c, proc, nargs, combo, opts->choices, opts->nchoices, &rng.base, NULL,
                                       call)) != MUSTER_OK)
                return st;
            seen[k] = call->argv[p];
            for (int j = 0; j < k; j++)
                if (val_equal(seen[j], seen[k])) {
                    const char *a = strchr(lists[i].items[j], '=') + 1, *b = strchr(lists[i].items[k], '=') + 1;
                    if (!strcmp(a, b))
                        return api_usage_error(ctx, "'%s' is listed twice for parameter '%s'; list each value once",
                                               b, g->sig->pnames[p]);
                    return api_usage_error(ctx, "'%s' and '%s' are the same value of parameter '%s'; list each "
                                           "value once", a, b, g->sig->pnames[p]);
                }
        }
        idx[i] = 0;
    }
    return MUSTER_OK;
}

/* A row's cell in each column (0 where it never gives that value), found
 * by a walk along both sorted lists, then its shares not given and cut. */
static void set_cells(OddsGrid *g, GridRow *row)
{
    const OddsTable *t = &row->t;
    row->cell = mem_alloc(sizeof(GridCell) * (size_t)(g->ncols + 1));
    int i = 0;
    for (int k = 0; k < g->ncols; k++) {
        GridCell *cell = &row->cell[k];
        while (i < t->n && val_order(t->rows[i].value, g->cols[k]) < 0)
            i++;
        if (i < t->n && val_order(t->rows[i].value, g->cols[k]) == 0) {
            const OddsRow *r = &t->rows[i];
            *cell = (GridCell){ r->p, r->q, r->lo, r->hi, r->count };
        } else if (!t->exact) {
            api_wilson(0, t->trials, &cell->lo, &cell->hi);
        }
    }
    row->not_given = (GridCell){ t->not_given.p, t->exact ? t->not_given.q : NULL, t->not_given.lo,
                                 t->not_given.hi, t->not_given.count };
    if (!t->exact && !t->has_not_given)
        api_wilson(0, t->trials, &row->not_given.lo, &row->not_given.hi);
    row->cut = (GridCell){ t->cut, t->exact ? t->cut_q : NULL, 0, 0, 0 };
}

static int by_value(const void *a, const void *b)
{
    return val_order(*(const Value *)a, *(const Value *)b);
}

/* The columns: every value some row gives, once each, in value order. */
static void grid_columns(OddsGrid *g)
{
    size_t most = 0;
    for (int r = 0; r < g->nrows; r++)
        most += (size_t)g->rows[r].t.n;
    Value *all = mem_alloc(sizeof(Value) * (most + 1));
    size_t n = 0;
    for (int r = 0; r < g->nrows; r++)
        for (int i = 0; i < g->rows[r].t.n; i++)
            all[n++] = g->rows[r].t.rows[i].value;
    qsort(all, n, sizeof(Value), by_value);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!k || val_order(all[k - 1], all[i]) != 0)
            all[k++] = all[i];
    g->cols = all;
    g->ncols = (int)k;
    g->numeric = k > 0 && (all[0].tag == VAL_INT || all[0].tag == VAL_RAT);
}

static void clear_rows(OddsGrid *g)
{
    for (int r = 0; r < g->nrows; r++)
        if (g->rows[r].odds.exact)
            exact_clear(&g->rows[r].odds.er);
}

/* The combination a failed count was working on, after its error. */
static void say_combination(muster_ctx *ctx, const OddsGrid *g, const Value *argv)
{
    api_err_printf(ctx, "muster: note: while working out the odds of");
    for (int k = 0; k < g->nvary; k++) {
        int p = g->vary[k];
        api_err_printf(ctx, "%s%s=%s", k ? ", " : " ", g->sig->pnames[p], api_value_text(argv[p], g->c->prog));
    }
    fputc('\n', ctx->err);
}

/* One note for the rows that could not be counted exactly: past the
 * budget, or too slow to count (see api/pace.h; the time is the
 * machine's, so the note gives no numbers for it). */
static void say_simulated(muster_ctx *ctx, const muster_prob_opts *opts, int nrows, int past_budget, int too_slow)
{
    int n = past_budget + too_slow;
    if (!n)
        return;
    unsigned long long budget = opts->budget ? opts->budget : EXACT_DEFAULT_BUDGET;
    if (!too_slow)
        api_err_printf(ctx, "muster: note: too many outcomes to count exactly for %d of the %d combinations "
                       "(more than %llu runs); simulating %s\n", n, nrows, budget, n == 1 ? "it" : "them");
    else
        api_err_printf(ctx, "muster: note: counting every outcome exactly would take too long for %d of the %d "
                       "combinations (more than %llu runs, or more than about a second); simulating %s; --exact "
                       "waits for the exact odds\n", n, nrows, budget, n == 1 ? "it" : "them");
}

/* Every row counted; MUSTER_OK, or the first failing row's status. */
static int count_rows(muster_ctx *ctx, const Compiled *c, const char *proc, int nargs, const Listed *lists,
                      const muster_prob_opts *opts, uint64_t seed, OddsGrid *g)
{
    int *idx = mem_alloc_atomic(sizeof(int) * (size_t)(nargs + 1));
    memset(idx, 0, sizeof(int) * (size_t)(nargs + 1));
    int past_budget = 0, too_slow = 0;   /* rows simulated for want of runs, or of time */
    for (int r = 0; r < g->nrows; r++) {
        GridRow *row = &g->rows[r];
        char **combo = mem_alloc(sizeof(char *) * (size_t)(nargs + 1));
        combination(nargs, lists, idx, combo);
        bool quiet = ctx->quiet_fallback;
        ctx->quiet_fallback = true;
        int st = api_compute_odds(ctx, c, proc, nargs, combo, opts, seed, &row->odds);
        ctx->quiet_fallback = quiet;
        if (st != MUSTER_OK) {
            if ((st == MUSTER_ERROR || st == MUSTER_INTERRUPTED) && row->odds.argv)
                say_combination(ctx, g, row->odds.argv);
            g->nrows = r;
            clear_rows(g);
            return st;
        }
        api_odds_table(c, opts, &row->odds, &row->t);
        if (row->odds.exact) {
            g->nexact++;
        } else {
            g->trials = row->t.trials;
            g->seed = row->t.seed;
            past_budget += row->odds.fallback == ODDS_PAST_BUDGET;
            too_slow += row->odds.fallback == ODDS_TOO_SLOW || row->odds.fallback == ODDS_SLOW_PAST_BUDGET;
        }
        g->has_not_given |= row->t.has_not_given;
        g->has_cut |= row->t.has_cut;
        /* the next combination: the last argument varies fastest */
        for (int i = nargs - 1; i >= 0; i--) {
            if (++idx[i] < lists[i].n)
                break;
            idx[i] = 0;
        }
    }
    if (!ctx->quiet_fallback)
        say_simulated(ctx, opts, g->nrows, past_budget, too_slow);
    return MUSTER_OK;
}

int api_prob_grid(muster_ctx *ctx, const Compiled *c, const char *proc, int nargs, char *const *args,
                  const muster_prob_opts *opts, uint64_t seed)
{
    if (opts->nvs) {
        for (int i = 0; i < nargs; i++)
            if (is_list(args[i]))
                return api_usage_error(ctx, "--vs compares one call: give one value per argument ('%s' lists "
                                       "several); compare each combination in a call of its own", args[i]);
    }
    if (opts->svg || opts->html) {
        for (int i = 0; i < nargs; i++)
            if (is_list(args[i]))
                return api_usage_error(ctx, "%s charts one call: give one value per argument ('%s' lists several)",
                                       opts->svg ? "--svg" : "--html", args[i]);
    }
    Listed *lists = mem_alloc(sizeof(Listed) * (size_t)(nargs + 1));
    int st = split_lists(ctx, nargs, args, lists);
    if (st != MUSTER_OK)
        return st;
    uint64_t rows = 1;
    for (int i = 0; i < nargs; i++) {
        rows *= (uint64_t)lists[i].n;
        if (rows > GRID_MOST_ROWS) {
            uint64_t all = 1;
            bool huge = false;
            for (int j = 0; j < nargs && !huge; j++) {
                huge = all > UINT64_MAX / (uint64_t)lists[j].n;
                all *= (uint64_t)lists[j].n;
            }
            if (huge)
                return api_usage_error(ctx, "the lists make more combinations than can be counted, and at most "
                                       "%d are worked out; list fewer values", GRID_MOST_ROWS);
            return api_usage_error(ctx, "the lists make %llu combinations, more than the %d that are worked out; "
                                   "list fewer values", (unsigned long long)all, GRID_MOST_ROWS);
        }
    }
    OddsGrid *g = mem_alloc(sizeof *g);
    g->c = c;
    g->field = opts->field;
    g->choices = opts->choices;
    g->nchoices = opts->nchoices;
    if ((st = check_values(ctx, c, proc, nargs, lists, opts, g)) != MUSTER_OK)
        return st;
    g->nrows = (int)rows;
    g->rows = mem_alloc(sizeof(GridRow) * rows);
    if ((st = count_rows(ctx, c, proc, nargs, lists, opts, seed, g)) != MUSTER_OK)
        return st;
    grid_columns(g);
    for (int r = 0; r < g->nrows; r++)
        set_cells(g, &g->rows[r]);
    if (opts->json)
        api_grid_json(ctx->out, g);
    else if (opts->csv)
        api_grid_csv(ctx->out, g);
    else
        api_grid_text(ctx->out, g);
    clear_rows(g);
    return MUSTER_OK;
}
