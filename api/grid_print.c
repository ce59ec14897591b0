/* grid_print.c — prob over a grid of arguments, printed as text, JSON or CSV.
 *
 * Like odds_print.c, these compute nothing: they print the OddsGrid of
 * grid.c, one row per combination of the values listed.  Text and CSV put
 * every row on the same columns (the values, then the shares not given and
 * cut off when some row has them, then the mean), each exact number with
 * its fraction beside it; JSON keeps, in each row, the shape of a single
 * call's `prob --json`.
 */
#include "config.h"
#include "api/internal.h"

#include <string.h>

/* A fraction as text, or its size when it is too long to read (JSON and
 * CSV keep it whole); NULL is 0. */
static const char *fraction_text(mpq_srcptr q, double p)
{
    if (!q)
        return "0";
    char *text = api_mpq_text(q);
    if (strlen(text) <= 30)
        return text;
    char buf[32];
    snprintf(buf, sizeof buf, "~%.3g", p);
    return mem_strdup(buf);
}

static bool is_varied(const OddsGrid *g, int p)
{
    for (int k = 0; k < g->nvary; k++)
        if (g->vary[k] == p)
            return true;
    return false;
}

/* The call with `*` for each argument listed, then how the rows were
 * counted: `hits(card: *, cover: none), one row per card: exact`. */
static void grid_heading(FILE *out, const OddsGrid *g)
{
    const Odds *first = &g->rows[0].odds;
    const ProcSig *sig = g->sig;
    fprintf(out, "%s(", sig->name);
    for (int p = 0; p < sig->nparams; p++) {
        fprintf(out, "%s%s: ", p ? ", " : "", sig->pnames[p]);
        if (is_varied(g, p))
            fputc('*', out);
        else if (first->given[p])
            val_print(out, first->argv[p], g->c->prog);
        else
            fputs(sig->pdeftext[p] ? sig->pdeftext[p] : "default", out);
    }
    fputc(')', out);
    if (g->field)
        fprintf(out, ".%s", g->field);
    api_print_choosing(out, g->choices, g->nchoices);
    fputs(", one row per ", out);
    for (int k = 0; k < g->nvary; k++)
        fprintf(out, "%s%s", k == 0 ? "" : k == g->nvary - 1 ? " and " : ", ", sig->pnames[g->vary[k]]);
    if (g->nexact == g->nrows)
        fputs(": exact\n", out);
    else if (!g->nexact)
        fprintf(out, ": simulated (%llu trials each, seed %llu)\n", (unsigned long long)g->trials,
                (unsigned long long)g->seed);
    else
        fprintf(out, ": exact, but %d of the %d rows simulated (%llu trials each, seed %llu)\n",
                g->nrows - g->nexact, g->nrows, (unsigned long long)g->trials, (unsigned long long)g->seed);
}

/* ---- text ---- */

/* A line of columns, with the spaces before a column held back until
 * something follows them, so that no line ends in blanks. */

/* A column of numbers: its label, and for each row the number and its
 * fraction ("" when simulated). */
typedef struct NumColumn {
    const char *label;
    const char **num, **frac;
    int width, fwidth;
} NumColumn;

static void widen(int *width, const char *text)
{
    if ((int)strlen(text) > *width)
        *width = (int)strlen(text);
}

static NumColumn new_column(const OddsGrid *g, const char *label)
{
    NumColumn col = { label, mem_alloc(sizeof(char *) * (size_t)g->nrows), mem_alloc(sizeof(char *) * (size_t)g->nrows),
                      (int)strlen(label) > 9 ? (int)strlen(label) : 9, 0 };
    return col;
}

static void set_number(NumColumn *col, int r, const char *fmt, double p, bool exact, mpq_srcptr q)
{
    char buf[48];
    snprintf(buf, sizeof buf, fmt, p);
    col->num[r] = mem_strdup(buf);
    col->frac[r] = exact ? fraction_text(q, p) : "";
    widen(&col->width, col->num[r]);
    widen(&col->fwidth, col->frac[r]);
}

static void cell_column(const OddsGrid *g, NumColumn *col, const GridCell *(*cell)(const GridRow *, int), int k)
{
    for (int r = 0; r < g->nrows; r++) {
        const GridCell *c = cell(&g->rows[r], k);
        set_number(col, r, "%.5f", c->p, g->rows[r].t.exact, c->q);
    }
}

static const GridCell *value_cell(const GridRow *row, int k)
{
    return &row->cell[k];
}

static const GridCell *not_given_cell(const GridRow *row, int k)
{
    (void)k;
    return &row->not_given;
}

static const GridCell *cut_cell(const GridRow *row, int k)
{
    (void)k;
    return &row->cut;
}

/* Every column of numbers, in order: the values, not given, cut off, mean. */
static NumColumn *number_columns(const OddsGrid *g, int *n)
{
    NumColumn *cols = mem_alloc(sizeof(NumColumn) * (size_t)(g->ncols + 3));
    int m = 0;
    for (int k = 0; k < g->ncols; k++) {
        char *label = api_value_text(g->cols[k], g->c->prog);
        if (strlen(label) > 40)
            strcpy(label + 37, "...");
        cols[m] = new_column(g, label);
        cell_column(g, &cols[m++], value_cell, k);
    }
    if (g->has_not_given) {
        cols[m] = new_column(g, "not given");
        cell_column(g, &cols[m++], not_given_cell, 0);
    }
    if (g->has_cut) {
        cols[m] = new_column(g, "cut off");
        cell_column(g, &cols[m++], cut_cell, 0);
    }
    if (g->numeric) {
        cols[m] = new_column(g, "mean");
        for (int r = 0; r < g->nrows; r++) {
            const OddsTable *t = &g->rows[r].t;
            if (t->numeric) {
                set_number(&cols[m], r, "%.4f", t->mean, t->exact, t->mean_q);
            } else {
                cols[m].num[r] = "";
                cols[m].frac[r] = "";
            }
        }
        m++;
    }
    *n = m;
    return cols;
}

/* A parameter's values are put right when they are numbers. */
static bool right_aligned(const OddsGrid *g, int p)
{
    return g->sig->ptypes[p].kind == TY_INT || g->sig->ptypes[p].kind == TY_RAT;
}

void api_grid_text(FILE *out, const OddsGrid *g)
{
    grid_heading(out, g);
    bool mixed = g->nexact > 0 && g->nexact < g->nrows;
    /* the arguments' columns */
    char ***args = mem_alloc(sizeof(char **) * (size_t)g->nvary);
    int *aw = mem_alloc_atomic(sizeof(int) * (size_t)g->nvary);
    for (int k = 0; k < g->nvary; k++) {
        int p = g->vary[k];
        args[k] = mem_alloc(sizeof(char *) * (size_t)g->nrows);
        aw[k] = (int)strlen(g->sig->pnames[p]);
        for (int r = 0; r < g->nrows; r++) {
            args[k][r] = api_value_text(g->rows[r].odds.argv[p], g->c->prog);
            if (strlen(args[k][r]) > 40)
                strcpy(args[k][r] + 37, "...");
            widen(&aw[k], args[k][r]);
        }
    }
    int n;
    NumColumn *cols = number_columns(g, &n);
    ApiLine l = { out, 0 };
    for (int k = 0; k < g->nvary; k++)
        api_line_put(&l, g->sig->pnames[g->vary[k]], aw[k], !right_aligned(g, g->vary[k]));
    if (mixed)
        api_line_put(&l, "counted", 9, true);
    for (int j = 0; j < n; j++) {
        api_line_put(&l, cols[j].label, cols[j].width, false);
        if (cols[j].fwidth)
            api_line_put(&l, "", cols[j].fwidth, true);
    }
    api_line_end(&l);
    for (int r = 0; r < g->nrows; r++) {
        for (int k = 0; k < g->nvary; k++)
            api_line_put(&l, args[k][r], aw[k], !right_aligned(g, g->vary[k]));
        if (mixed)
            api_line_put(&l, g->rows[r].t.exact ? "exact" : "simulated", 9, true);
        for (int j = 0; j < n; j++) {
            api_line_put(&l, cols[j].num[r], cols[j].width, false);
            if (cols[j].fwidth)
                api_line_put(&l, cols[j].frac[r], cols[j].fwidth, true);
        }
        api_line_end(&l);
    }
}

/* ---- JSON ---- */

/* One outcome of a row, in the shape of `prob --json`: exact, the fraction
 * as "p"; simulated, "p" as a number and the 95% interval. */
static void json_outcome(FILE *out, const OddsTable *t, const GridCell *c)
{
    if (t->exact) {
        fprintf(out, ", \"p\": \"%s\", \"probability\": %.10g}", c->q ? api_mpq_text(c->q) : "0", c->p);
        return;
    }
    fprintf(out, ", \"p\": %.6g, \"probability\": %.6g, \"low\": %.6g, \"high\": %.6g}", c->p, c->p, c->lo, c->hi);
}

static void json_row(FILE *out, const OddsGrid *g, const GridRow *row)
{
    const OddsTable *t = &row->t;
    fputs("{\"args\": {", out);
    for (int k = 0; k < g->nvary; k++) {
        int p = g->vary[k];
        fputs(k ? ", " : "", out);
        val_json_string(out, g->sig->pnames[p], strlen(g->sig->pnames[p]));
        fputs(": ", out);
        val_print_json(out, row->odds.argv[p], g->c->prog);
    }
    if (t->exact)
        fputs("}, \"exact\": true, \"trials\": null, \"outcomes\": [", out);
    else
        fprintf(out, "}, \"exact\": false, \"trials\": %llu, \"seed\": %llu, \"outcomes\": [",
                (unsigned long long)t->trials, (unsigned long long)t->seed);
    for (int k = 0; k < g->ncols; k++) {
        fputs(k ? ", {\"value\": " : "{\"value\": ", out);
        val_print_json(out, g->cols[k], g->c->prog);
        json_outcome(out, t, &row->cell[k]);
    }
    if (g->has_not_given) {
        fputs(g->ncols ? ", {\"value\": null, \"not_given\": true" : "{\"value\": null, \"not_given\": true", out);
        json_outcome(out, t, &row->not_given);
    }
    fputc(']', out);
    if (t->has_cut)
        fprintf(out, ", \"dropped\": \"%s\"", api_mpq_text(t->cut_q));
    if (t->numeric)
        fprintf(out, t->exact ? ", \"mean\": %.10g, \"sd\": %.10g" : ", \"mean\": %.6g, \"sd\": %.6g", t->mean, t->sd);
    fputc('}', out);
}

void api_grid_json(FILE *out, const OddsGrid *g)
{
    const Odds *first = &g->rows[0].odds;
    fputs("{\"procedure\": ", out);
    val_json_string(out, g->sig->name, strlen(g->sig->name));
    if (g->field) {
        fputs(", \"field\": ", out);
        val_json_string(out, g->field, strlen(g->field));
    }
    fputs(", \"fixed\": {", out);
    bool any = false;
    for (int p = 0; p < g->sig->nparams; p++) {
        if (is_varied(g, p) || !first->given[p])
            continue;
        fputs(any ? ", " : "", out);
        val_json_string(out, g->sig->pnames[p], strlen(g->sig->pnames[p]));
        fputs(": ", out);
        val_print_json(out, first->argv[p], g->c->prog);
        any = true;
    }
    fputs("}, \"varying\": [", out);
    for (int k = 0; k < g->nvary; k++) {
        const char *name = g->sig->pnames[g->vary[k]];
        fputs(k ? ", " : "", out);
        val_json_string(out, name, strlen(name));
    }
    fprintf(out, "], \"exact\": %s, \"rows\": [", g->nexact == g->nrows ? "true" : "false");
    for (int r = 0; r < g->nrows; r++) {
        fputs(r ? ", " : "", out);
        json_row(out, g, &g->rows[r]);
    }
    fputs("]}\n", out);
}

/* ---- CSV ---- */

static void csv_label(FILE *out, const char *text, const char *suffix)
{
    size_t n = strlen(text), s = strlen(suffix);
    char *both = mem_alloc_atomic(n + s + 1);
    memcpy(both, text, n);
    memcpy(both + n, suffix, s + 1);
    fputc(',', out);
    api_csv_field(out, both);
}

static void csv_number(FILE *out, const GridRow *row, double p)
{
    fprintf(out, row->t.exact ? ",%.10f" : ",%.6f", p);
}

static void csv_fraction(FILE *out, const GridRow *row, mpq_srcptr q)
{
    fputc(',', out);
    if (row->t.exact)
        fputs(q ? api_mpq_text(q) : "0", out);
}

void api_grid_csv(FILE *out, const OddsGrid *g)
{
    bool fractions = g->nexact > 0;
    char **labels = mem_alloc(sizeof(char *) * (size_t)(g->ncols + 1));
    for (int k = 0; k < g->ncols; k++)
        labels[k] = api_value_text(g->cols[k], g->c->prog);
    /* the header: the arguments, exact, each value, not_given, cut_off, mean, then their fractions */
    for (int k = 0; k < g->nvary; k++) {
        if (k)
            fputc(',', out);
        api_csv_field(out, g->sig->pnames[g->vary[k]]);
    }
    fputs(",exact", out);
    for (int pass = 0; pass < 1 + fractions; pass++) {
        const char *suffix = pass ? "_p" : "";
        for (int k = 0; k < g->ncols; k++)
            csv_label(out, labels[k], suffix);
        if (g->has_not_given)
            csv_label(out, "not_given", suffix);
        if (g->has_cut)
            csv_label(out, "cut_off", suffix);
        if (g->numeric)
            csv_label(out, "mean", suffix);
    }
    fputc('\n', out);
    for (int r = 0; r < g->nrows; r++) {
        const GridRow *row = &g->rows[r];
        const OddsTable *t = &row->t;
        for (int k = 0; k < g->nvary; k++) {
            if (k)
                fputc(',', out);
            api_csv_field(out, api_value_text(row->odds.argv[g->vary[k]], g->c->prog));
        }
        fputs(t->exact ? ",true" : ",false", out);
        for (int k = 0; k < g->ncols; k++)
            csv_number(out, row, row->cell[k].p);
        if (g->has_not_given)
            csv_number(out, row, row->not_given.p);
        if (g->has_cut)
            csv_number(out, row, row->cut.p);
        if (g->numeric) {
            if (t->numeric)
                csv_number(out, row, t->mean);
            else
                fputc(',', out);
        }
        if (fractions) {
            for (int k = 0; k < g->ncols; k++)
                csv_fraction(out, row, row->cell[k].q);
            if (g->has_not_given)
                csv_fraction(out, row, row->not_given.q);
            if (g->has_cut)
                csv_fraction(out, row, row->cut.q);
            if (g->numeric) {
                if (t->numeric)
                    csv_fraction(out, row, t->mean_q);
                else
                    fputc(',', out);
            }
        }
        fputc('\n', out);
    }
}
