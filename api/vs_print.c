/* vs_print.c — prob --vs printed as text, JSON or CSV.
 *
 * Like odds_print.c, these compute nothing: they print the OddsVs of
 * odds_vs.c.  Each side (the rules, then each variant) has its probability
 * and, for a variant, its change against the rules; an exact number has its
 * fraction beside it.  One variant keeps the names `variant` and `change`;
 * several are numbered (`variant 1`, `change 1`, ...), and their JSON has
 * arrays where one variant's has a number.
 */
#include "config.h"
#include "api/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A fraction as text, with a sign when `sign` and it is above 0, or its
 * size when it is too long to read (JSON and CSV keep it whole). */
char *api_fraction_text(mpq_srcptr q, double p, bool sign)
{
    char *text = api_mpq_text(q);
    char buf[48];
    if (strlen(text) > 30)
        snprintf(buf, sizeof buf, "~%.3g", p);
    else
        snprintf(buf, sizeof buf, "%s%s", sign && mpq_sgn(q) > 0 ? "+" : "", text);
    return mem_strdup(buf);
}

/* The heading's word for side k (k > 0) of several: "variant 2". */
static const char *side_name(const OddsVs *vs, int k, const char *one, char buf[32])
{
    if (vs->nsides == 2)
        return one;
    snprintf(buf, 32, "%s %d", one, k);
    return buf;
}

/* ---- text ---- */

/* A line of columns, with the spaces before a column held back until
 * something follows them, so that no line ends in blanks. */

/* The widths of the fraction columns: 2 k for side k's probability, 2 k + 1
 * for its change; 0 where a column has no fractions. */
typedef struct Widths {
    int value;
    int *fraction;
} Widths;

static void widen(int *width, const char *text)
{
    if ((int)strlen(text) > *width)
        *width = (int)strlen(text);
}

static void widen_cells(const OddsVs *vs, const OddsCell *cells, Widths *w)
{
    for (int k = 0; k < vs->nsides; k++) {
        if (cells[k].exact)
            widen(&w->fraction[2 * k], api_fraction_text(cells[k].q, cells[k].p, false));
        if (k && cells[k].exact_change)
            widen(&w->fraction[2 * k + 1], api_fraction_text(cells[k].dq, cells[k].change, true));
    }
}

static char *value_text(const OddsChange *row)
{
    char *text = mem_strdup(row->text);
    if (strlen(text) > 40)
        strcpy(text + 37, "...");
    return text;
}

static Widths column_widths(const OddsVs *vs)
{
    Widths w = { vs->has_not_given ? 19 : 5, mem_alloc(sizeof(int) * (size_t)(2 * vs->nsides)) };
    for (int i = 0; i < vs->n; i++) {
        widen(&w.value, value_text(&vs->rows[i]));
        widen_cells(vs, vs->rows[i].cell, &w);
    }
    if (vs->has_not_given)
        widen_cells(vs, vs->not_given, &w);
    if (vs->numeric)
        widen_cells(vs, vs->mean, &w);
    return w;
}

static void put_fraction(ApiLine *l, const Widths *w, int column, bool exact, mpq_srcptr q, double p, bool sign)
{
    if (w->fraction[column])
        api_line_put(l, exact ? api_fraction_text(q, p, sign) : "", w->fraction[column], true);
}

/* One line of the table: its label, then each side's number (with `digits`
 * decimals) and fraction, and each variant's change. */
static void cells_line(FILE *out, const OddsVs *vs, const Widths *w, const char *label, const OddsCell *cells,
                       int digits)
{
    ApiLine l = { out, 0 };
    char num[48];
    api_line_put(&l, label, w->value, false);
    for (int k = 0; k < vs->nsides; k++) {
        snprintf(num, sizeof num, "%9.*f", digits, cells[k].p);
        api_line_put(&l, num, 9, false);
        put_fraction(&l, w, 2 * k, cells[k].exact, cells[k].q, cells[k].p, false);
        if (!k)
            continue;
        snprintf(num, sizeof num, "%+9.*f", digits, cells[k].change);
        api_line_put(&l, num, 9, false);
        put_fraction(&l, w, 2 * k + 1, cells[k].exact_change, cells[k].dq, cells[k].change, true);
    }
    api_line_end(&l);
}

static void header_line(FILE *out, const OddsVs *vs, const Widths *w)
{
    ApiLine l = { out, 0 };
    char buf[32];
    api_line_put(&l, "value", w->value, false);
    for (int k = 0; k < vs->nsides; k++) {
        api_line_put(&l, k ? side_name(vs, k, "variant", buf) : "rules", 9, false);
        if (w->fraction[2 * k])
            api_line_put(&l, "", w->fraction[2 * k], true);
        if (!k)
            continue;
        api_line_put(&l, side_name(vs, k, "change", buf), 9, false);
        if (w->fraction[2 * k + 1])
            api_line_put(&l, "", w->fraction[2 * k + 1], true);
    }
    api_line_end(&l);
}

/* How side k was counted, for the heading of a comparison where not every
 * side was counted the same way: " (exact)". */
static void side_note(FILE *out, const OddsVs *vs, int k, bool mixed)
{
    char name[32];
    bool numbered = k && vs->nsides > 2;
    if (!numbered && !mixed)
        return;
    fprintf(out, " (%s", numbered ? side_name(vs, k, "variant", name) : "");
    if (mixed && vs->side[k].exact)
        fprintf(out, "%sexact", numbered ? ", " : "");
    else if (mixed)
        fprintf(out, "%ssimulated, seed %llu", numbered ? ", " : "", (unsigned long long)vs->seed);
    fputc(')', out);
}

/* The call as a side's heading shows it (malloc'd). */
static char *heading_text(const OddsTable *t)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return strdup("");
    api_print_odds_heading(m, t);
    fclose(m);
    return text;
}

/* The heading: the call, then the files and how each side was counted.
 * File names are written as diag_put_text writes them: no raw control
 * character. */
static void vs_heading(FILE *out, const OddsVs *vs)
{
    api_print_odds_heading(out, &vs->side[0]);
    fputs(": ", out);
    api_vs_sides(out, vs);
}

/* The heading after the call: the files and how each side was counted,
 * then a line for each variant called with defaults of its own. */
void api_vs_sides(FILE *out, const OddsVs *vs)
{
    int exact = 0;
    for (int k = 0; k < vs->nsides; k++)
        exact += vs->side[k].exact;
    bool mixed = exact > 0 && exact < vs->nsides;
    for (int k = 0; k < vs->nsides; k++) {
        fputs(k == 0 ? "" : k == 1 ? " against " : k == vs->nsides - 1 ? " and " : ", ", out);
        diag_put_text(out, vs->path[k]);
        side_note(out, vs, k, mixed);
    }
    if (exact == vs->nsides)
        fputs(", exact", out);
    else if (!exact)
        fprintf(out, ", simulated on the same dice, seed %llu", (unsigned long long)vs->seed);
    fputc('\n', out);
    /* a variant that changed a default is called with its own */
    char *rules = heading_text(&vs->side[0]);
    for (int k = 1; k < vs->nsides; k++) {
        char *own = heading_text(&vs->side[k]);
        if (strcmp(own, rules) != 0) {
            fputs("  ", out);
            diag_put_text(out, vs->path[k]);
            fprintf(out, " has defaults of its own: %s\n", own);
        }
        free(own);
    }
    free(rules);
}

void api_vs_text(FILE *out, const OddsVs *vs)
{
    vs_heading(out, vs);
    Widths w = column_widths(vs);
    header_line(out, vs, &w);
    for (int i = 0; i < vs->n; i++)
        cells_line(out, vs, &w, value_text(&vs->rows[i]), vs->rows[i].cell, 5);
    if (vs->has_not_given)
        cells_line(out, vs, &w, "not given in source", vs->not_given, 5);
    if (vs->numeric)
        cells_line(out, vs, &w, "mean", vs->mean, 4);
}

/* ---- JSON ---- */

static void json_fraction(FILE *out, bool exact, mpq_srcptr q)
{
    if (!exact) {
        fputs("null", out);
        return;
    }
    fputc('"', out);
    fputs(api_mpq_text(q), out);
    fputc('"', out);
}

/* One variant: "base": 0.5, "variant": 0.25, "change": -0.25, then the
 * fractions of the exact ones ("base_p": "1/2", ...). */
static void json_pair(FILE *out, const OddsCell *cells, const char *const names[6])
{
    fprintf(out, "\"%s\": %.10g, \"%s\": %.10g, \"%s\": %.10g", names[0], cells[0].p, names[1], cells[1].p,
            names[2], cells[1].change);
    const bool exact[3] = { cells[0].exact, cells[1].exact, cells[1].exact_change };
    mpq_srcptr q[3] = { cells[0].q, cells[1].q, cells[1].dq };
    for (int j = 0; j < 3; j++)
        if (exact[j]) {
            fprintf(out, ", \"%s\": ", names[3 + j]);
            json_fraction(out, true, q[j]);
        }
}

/* Several variants: "base": 0.5, "variants": [...], "changes": [...], then
 * "base_p" when the rules are exact and "variants_p" and "changes_p" when
 * some variant is, with null for one that is not. */
static void json_many(FILE *out, const OddsVs *vs, const OddsCell *cells, const char *const names[6])
{
    bool some = false;
    fprintf(out, "\"%s\": %.10g", names[0], cells[0].p);
    for (int j = 1; j <= 2; j++) {
        fprintf(out, ", \"%s\": [", names[j]);
        for (int k = 1; k < vs->nsides; k++)
            fprintf(out, "%s%.10g", k > 1 ? ", " : "", j == 1 ? cells[k].p : cells[k].change);
        fputc(']', out);
    }
    if (cells[0].exact) {
        fprintf(out, ", \"%s\": ", names[3]);
        json_fraction(out, true, cells[0].q);
    }
    for (int k = 1; k < vs->nsides; k++)
        some |= cells[k].exact;
    for (int j = 1; some && j <= 2; j++) {
        fprintf(out, ", \"%s\": [", names[3 + j]);
        for (int k = 1; k < vs->nsides; k++) {
            fputs(k > 1 ? ", " : "", out);
            json_fraction(out, j == 1 ? cells[k].exact : cells[k].exact_change, j == 1 ? cells[k].q : cells[k].dq);
        }
        fputc(']', out);
    }
}

static const char *const outcome_names[2][6] = {
    { "base", "variant", "change", "base_p", "variant_p", "change_p" },
    { "base", "variants", "changes", "base_p", "variants_p", "changes_p" },
};
static const char *const mean_names[2][6] = {
    { "base_mean", "variant_mean", "mean_change", "base_mean_p", "variant_mean_p", "mean_change_p" },
    { "base_mean", "variant_means", "mean_changes", "base_mean_p", "variant_means_p", "mean_changes_p" },
};

static void json_cells(FILE *out, const OddsVs *vs, const OddsCell *cells, const char *const names[2][6])
{
    if (vs->nsides == 2)
        json_pair(out, cells, names[0]);
    else
        json_many(out, vs, cells, names[1]);
}

void api_vs_json(FILE *out, const OddsVs *vs)
{
    bool exact = true;
    for (int k = 0; k < vs->nsides; k++)
        exact &= vs->side[k].exact;
    fprintf(out, "{\"exact\": %s, \"base\": ", exact ? "true" : "false");
    val_json_string(out, vs->path[0], strlen(vs->path[0]));
    fputs(vs->nsides == 2 ? ", \"variant\": " : ", \"variants\": [", out);
    for (int k = 1; k < vs->nsides; k++) {
        fputs(k > 1 ? ", " : "", out);
        val_json_string(out, vs->path[k], strlen(vs->path[k]));
    }
    fputs(vs->nsides == 2 ? ", \"outcomes\": [" : "], \"outcomes\": [", out);
    for (int i = 0; i < vs->n; i++) {
        fputs(i ? ", {\"value\": " : "{\"value\": ", out);
        val_print_json(out, vs->rows[i].value, vs->rows[i].prog);
        fputs(", ", out);
        json_cells(out, vs, vs->rows[i].cell, outcome_names);
        fputc('}', out);
    }
    if (vs->has_not_given) {
        fputs(vs->n ? ", {\"value\": null, \"not_given\": true, " : "{\"value\": null, \"not_given\": true, ", out);
        json_cells(out, vs, vs->not_given, outcome_names);
        fputc('}', out);
    }
    fputs("]", out);
    if (vs->numeric) {
        fputs(", ", out);
        json_cells(out, vs, vs->mean, mean_names);
    }
    fputs("}\n", out);
}

/* ---- CSV ---- */

static void csv_number(FILE *out, double p, bool exact)
{
    fprintf(out, exact ? ",%.10f" : ",%.6f", p);
}

static void csv_fraction(FILE *out, bool exact, mpq_srcptr q)
{
    if (exact) {
        fputc(',', out);
        fputs(api_mpq_text(q), out);
    }
}

/* A column of variant k: "variant" with one variant, "variant_2" with
 * several; `suffix` ends it ("_p"). */
static void csv_column(FILE *out, const OddsVs *vs, const char *name, int k, const char *suffix)
{
    if (vs->nsides == 2)
        fprintf(out, ",%s%s", name, suffix);
    else
        fprintf(out, ",%s_%d%s", name, k, suffix);
}

/* The columns: value, base, then each variant and its change, then the
 * fractions of the exact ones (base_p, variant_p, change_p). */
static void csv_header(FILE *out, const OddsVs *vs)
{
    fputs("value,base", out);
    for (int k = 1; k < vs->nsides; k++) {
        csv_column(out, vs, "variant", k, "");
        csv_column(out, vs, "change", k, "");
    }
    if (vs->side[0].exact)
        fputs(",base_p", out);
    for (int k = 1; k < vs->nsides; k++) {
        if (vs->side[k].exact)
            csv_column(out, vs, "variant", k, "_p");
        if (vs->side[k].exact && vs->side[0].exact)
            csv_column(out, vs, "change", k, "_p");
    }
    fputc('\n', out);
}

static void csv_line(FILE *out, const OddsVs *vs, const char *label, const OddsCell *cells)
{
    api_csv_field(out, label);
    csv_number(out, cells[0].p, cells[0].exact);
    for (int k = 1; k < vs->nsides; k++) {
        csv_number(out, cells[k].p, cells[k].exact);
        csv_number(out, cells[k].change, cells[k].exact_change);
    }
    csv_fraction(out, cells[0].exact, cells[0].q);
    for (int k = 1; k < vs->nsides; k++) {
        csv_fraction(out, cells[k].exact, cells[k].q);
        csv_fraction(out, cells[k].exact_change, cells[k].dq);
    }
    fputc('\n', out);
}

void api_vs_csv(FILE *out, const OddsVs *vs)
{
    csv_header(out, vs);
    for (int i = 0; i < vs->n; i++)
        csv_line(out, vs, vs->rows[i].text, vs->rows[i].cell);
    if (vs->has_not_given)
        csv_line(out, vs, "not given in source", vs->not_given);
    if (vs->numeric)
        csv_line(out, vs, "mean", vs->mean);
}
