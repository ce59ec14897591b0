/* odds_vs.c — prob --vs: the odds under the rules and under house rules.
 *
 * The same call is worked out in each variant's script as prob would work
 * it out alone (exact where it can be, else simulated with the rules'
 * seed, so the same trials throw the same dice), and the tables are put
 * side by side in an OddsVs: every value any side gives, with each side's
 * probability and its change against the rules', then the same for the
 * share "not given in source" and the mean.  Where both numbers are exact
 * the change is worked out on the fractions; vs_print.c prints it all.
 */
#include "config.h"
#include "api/chart.h"

#include <string.h>

static bool is_number(Value v)
{
    return v.tag == VAL_INT || v.tag == VAL_RAT;
}

/* Each value of a side as text: two scripts' values meet by their text. */
static char **side_texts(const OddsTable *t)
{
    char **text = mem_alloc(sizeof(char *) * (size_t)(t->n + 1));
    for (int i = 0; i < t->n; i++)
        text[i] = api_value_text(t->rows[i].value, t->c->prog);
    return text;
}

/* The row of a side that gives `text`, or -1. */
static int row_of(const OddsTable *t, char **texts, const char *text)
{
    for (int i = 0; i < t->n; i++)
        if (!strcmp(texts[i], text))
            return i;
    return -1;
}

static OddsCell *new_cells(int nsides)
{
    OddsCell *cells = mem_alloc(sizeof(OddsCell) * (size_t)nsides);
    for (int k = 0; k < nsides; k++)
        mpq_inits(cells[k].q, cells[k].dq, NULL);
    return cells;
}

/* One side's number in a cell: p, and q (NULL: 0) when the side is exact. */
static void set_cell(OddsCell *cell, const OddsTable *t, double p, mpq_srcptr q)
{
    cell->p = p;
    cell->exact = t->exact;
    if (t->exact && q)
        mpq_set(cell->q, q);
}

/* Each side's change against the rules' (side 0): exact when both are. */
static void set_changes(OddsCell *cells, int nsides)
{
    for (int k = 0; k < nsides; k++) {
        cells[k].change = cells[k].p - cells[0].p;
        cells[k].exact_change = cells[0].exact && cells[k].exact;
        if (cells[k].exact_change)
            mpq_sub(cells[k].dq, cells[k].q, cells[0].q);
    }
}

/* Every value some side gives, the rules' in order, then any that only a
 * variant gives; numbers sort the same in every script, so they are put in
 * order. */
static void vs_values(OddsVs *vs, char ***texts)
{
    int most = 0;
    for (int k = 0; k < vs->nsides; k++)
        most += vs->side[k].n;
    OddsChange *rows = mem_alloc(sizeof(OddsChange) * (size_t)(most + 1));
    int n = 0;
    for (int k = 0; k < vs->nsides; k++)
        for (int i = 0; i < vs->side[k].n; i++) {
            int j;
            for (j = 0; j < n && strcmp(rows[j].text, texts[k][i]); j++)
                ;
            if (j == n)
                rows[n++] = (OddsChange){ vs->side[k].rows[i].value, vs->side[k].c->prog, texts[k][i], NULL };
        }
    bool numbers = true;
    for (int i = 0; i < n; i++)
        numbers &= is_number(rows[i].value);
    for (int i = 1; numbers && i < n; i++)
        for (int j = i; j > 0 && val_num_cmp(rows[j - 1].value, rows[j].value) > 0; j--) {
            OddsChange tr = rows[j];
            rows[j] = rows[j - 1];
            rows[j - 1] = tr;
        }
    vs->n = n;
    vs->rows = rows;
}

/* The rows of the comparison, each value's probability on every side (0
 * where a side never gives it). */
static void vs_rows(OddsVs *vs)
{
    char ***texts = mem_alloc(sizeof(char **) * (size_t)vs->nsides);
    for (int k = 0; k < vs->nsides; k++)
        texts[k] = side_texts(&vs->side[k]);
    vs_values(vs, texts);
    for (int i = 0; i < vs->n; i++) {
        OddsChange *row = &vs->rows[i];
        row->cell = new_cells(vs->nsides);
        for (int k = 0; k < vs->nsides; k++) {
            const OddsTable *t = &vs->side[k];
            int at = row_of(t, texts[k], row->text);
            set_cell(&row->cell[k], t, at < 0 ? 0 : t->rows[at].p, at < 0 ? NULL : t->rows[at].q);
        }
        set_changes(row->cell, vs->nsides);
    }
}

/* The share "not given in source" and the mean, on every side. */
static void vs_totals(OddsVs *vs)
{
    vs->not_given = new_cells(vs->nsides);
    vs->mean = new_cells(vs->nsides);
    vs->numeric = true;
    for (int k = 0; k < vs->nsides; k++) {
        const OddsTable *t = &vs->side[k];
        vs->has_not_given |= t->has_not_given;
        vs->numeric &= t->numeric;
        set_cell(&vs->not_given[k], t, t->not_given.p, t->not_given.q);
        set_cell(&vs->mean[k], t, t->mean, t->numeric ? t->mean_q : NULL);
    }
    set_changes(vs->not_given, vs->nsides);
    set_changes(vs->mean, vs->nsides);
}

/* The sides' odds side by side: compiled[k] and odds[k] for each side,
 * the rules' first; path[k] names each. */
void api_vs_build(const Compiled *const *compiled, const Odds *odds, const char *const *path, int nsides,
                  const muster_prob_opts *opts, uint64_t seed, OddsVs *vs)
{
    *vs = (OddsVs){ .nsides = nsides, .seed = seed };
    vs->side = mem_alloc(sizeof(OddsTable) * (size_t)nsides);
    vs->path = mem_alloc(sizeof(char *) * (size_t)nsides);
    for (int k = 0; k < nsides; k++) {
        api_odds_table(compiled[k], opts, &odds[k], &vs->side[k]);
        vs->path[k] = path[k];
    }
    vs_rows(vs);
    vs_totals(vs);
}

/* Whether any side's odds differ from the rules' in any result. */
bool api_vs_differs(const OddsVs *vs)
{
    for (int k = 1; k < vs->nsides; k++) {
        for (int i = 0; i < vs->n; i++) {
            const OddsCell *c = &vs->rows[i].cell[k];
            if (c->exact_change ? mpq_sgn(c->dq) != 0 : c->change != 0)
                return true;
        }
        const OddsCell *g = vs->has_not_given ? &vs->not_given[k] : NULL;
        if (g && (g->exact_change ? mpq_sgn(g->dq) != 0 : g->change != 0))
            return true;
    }
    return false;
}

static int print_vs(muster_ctx *ctx, const muster_prob_opts *opts, const OddsVs *vs)
{
    FILE *out = ctx->out;
    bool to_out = opts->svg && !strcmp(opts->svg, "-");
    if (opts->svg && !to_out) {
        int st = api_write_chart(ctx, opts->svg, NULL, vs);
        if (st != MUSTER_OK)
            return st;
    }
    if (opts->html)
        api_vs_html(out, vs);
    else if (to_out)
        chart_vs_svg(out, vs);
    else if (opts->json)
        api_vs_json(out, vs);
    else if (opts->csv)
        api_vs_csv(out, vs);
    else
        api_vs_text(out, vs);
    return MUSTER_OK;
}

int api_prob_vs(muster_ctx *ctx, const Compiled *c, const char *proc, int nargs, char *const *args,
                const muster_prob_opts *opts, uint64_t seed, const Odds *base)
{
    int nsides = 1 + opts->nvs;
    Odds *odds = mem_alloc(sizeof(Odds) * (size_t)nsides);
    const Compiled **compiled = mem_alloc(sizeof(Compiled *) * (size_t)nsides);
    const char **path = mem_alloc(sizeof(char *) * (size_t)nsides);
    odds[0] = *base;
    compiled[0] = c;
    path[0] = c->src->path;
    int st = MUSTER_OK;
    int done = 1;
    for (; done < nsides && st == MUSTER_OK; done++) {
        /* each variant's odds, worked out with the rules' seed */
        muster_program *variant = muster_load(ctx, opts->vs[done - 1]);
        if (!variant) {
            st = MUSTER_ERROR;
            break;
        }
        compiled[done] = variant->compiled;
        path[done] = opts->vs[done - 1];
        st = api_compute_odds(ctx, compiled[done], proc, nargs, args, opts, seed, &odds[done]);
        if (st != MUSTER_OK)
            break;
    }
    if (st == MUSTER_OK) {
        OddsVs vs;
        api_vs_build(compiled, odds, path, nsides, opts, seed, &vs);
        st = print_vs(ctx, opts, &vs);
    }
    for (int k = 1; k < done && k < nsides; k++)
        if (odds[k].exact)
            exact_clear(&odds[k].er);
    return st;
}
