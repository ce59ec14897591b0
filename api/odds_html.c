/* odds_html.c — prob --html: the odds as one self-contained HTML page.
 *
 * A renderer like odds_print.c and vs_print.c, which computes nothing: a
 * heading, the table the text output prints (the same numbers, with the
 * exact fractions in a column of their own) and the chart of chart.c
 * inlined as <svg>.  CSS only, no script, nothing fetched.
 */
#include "config.h"
#include "api/chart.h"

#include <stdlib.h>
#include <string.h>

static const char css[] =
    "body { font: 15px/1.4 system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif; color: #111; "
    "max-width: 680px; margin: 24px auto; padding: 0 12px; }\n"
    "h1 { font-size: 19px; margin: 0 0 4px; overflow-wrap: anywhere; }\n"
    ".meta { color: #444; margin: 0 0 12px; }\n"
    "table { border-collapse: collapse; margin: 8px 0; font-variant-numeric: tabular-nums; }\n"
    "th, td { padding: 2px 8px; border-bottom: 1px solid #ddd; text-align: right; white-space: nowrap; }\n"
    "th { border-bottom: 2px solid #888; font-weight: 600; }\n"
    "td.q { text-align: left; color: #444; padding-left: 2px; }\n"
    "tr.apart td { font-style: italic; border-top: 1px dashed #888; }\n"
    "tr.mean td { border-bottom: none; }\n"
    "figure { margin: 16px 0; }\n"
    "svg { max-width: 100%; height: auto; }\n";

static void text(FILE *out, const char *s)
{
    chart_xml_text(out, s, -1);
}

/* Text whose line breaks are kept, each as <br>. */
static void lines(FILE *out, const char *s)
{
    while (*s) {
        const char *nl = strchr(s, '\n');
        size_t len = nl ? (size_t)(nl - s) : strlen(s);
        text(out, mem_strndup(s, len));
        if (!nl || !nl[1])
            break;
        fputs("<br>\n", out);
        s = nl + 1;
    }
}

static char *heading_of(const OddsTable *t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return mem_strdup("");
    api_print_odds_heading(m, t);
    fclose(m);
    char *copy = mem_strdup(buf);
    free(buf);
    return copy;
}

static void page_start(FILE *out, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
    text(out, title);
    fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", css);
    text(out, title);
    fputs("</h1>\n", out);
}

static void page_end(FILE *out)
{
    fputs("</body>\n</html>\n", out);
}

static void cell(FILE *out, const char *cls, const char *fmt, double x)
{
    fprintf(out, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
    fprintf(out, fmt, x);
    fputs("</td>", out);
}

static void text_cell(FILE *out, const char *cls, const char *s)
{
    fprintf(out, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
    text(out, s);
    fputs("</td>", out);
}

/* ---- one side ---- */

static void exact_table(FILE *out, const OddsTable *t)
{
    bool ordered = api_odds_ordered(t);
    fputs("<table>\n<tr><th>value</th><th>p</th><th>probability</th>", out);
    fputs(ordered ? "<th>at least</th><th>at most</th></tr>\n" : "</tr>\n", out);
    int shown = api_odds_shown(t);
    for (int i = 0; i < shown; i++) {
        const OddsRow *row = &t->rows[i];
        fputs("<tr>", out);
        text_cell(out, NULL, api_value_text(row->value, t->c->prog));
        text_cell(out, "q", api_fraction_text(row->q, row->p, false));
        cell(out, NULL, "%.5f", row->p);
        if (ordered) {
            cell(out, NULL, "%.5f", row->at_least);
            cell(out, NULL, "%.5f", row->at_most);
        }
        fputs("</tr>\n", out);
    }
    if (shown < t->n) {
        const OddsRow *row = &t->rows[shown];
        fputs("<tr class=\"apart\"><td>more</td><td class=\"q\"></td>", out);
        cell(out, NULL, "%.5f", row->at_least);
        if (ordered) {
            cell(out, NULL, "%.5f", row->at_least);
            cell(out, NULL, "%.5f", t->valued);
        }
        fputs("</tr>\n", out);
    }
    if (t->has_not_given) {
        fputs("<tr class=\"apart\"><td>not given in source</td>", out);
        text_cell(out, "q", api_fraction_text(t->not_given.q, t->not_given.p, false));
        cell(out, NULL, "%.5f", t->not_given.p);
        fputs(ordered ? "<td></td><td></td></tr>\n" : "</tr>\n", out);
    }
    fputs("</table>\n", out);
    if (shown < t->n) {
        fprintf(out, "<p class=\"meta\">%d more values, from ", t->n - shown);
        text(out, api_value_text(t->rows[shown].value, t->c->prog));
        fputs(" to ", out);
        text(out, api_value_text(t->rows[t->n - 1].value, t->c->prog));
        fputs(", each rarer than shown, are in the row <i>more</i>; --json or --csv lists them.</p>\n", out);
    }
    if (t->has_cut) {
        fputs("<p class=\"meta\">Cut off: an open-ended roll was cut short with probability ", out);
        text(out, api_fraction_text(t->cut_q, t->cut, false));
        fputs("; that is in no row above.</p>\n", out);
    }
}

static void simulated_table(FILE *out, const OddsTable *t)
{
    bool ordered = api_odds_ordered(t);
    fputs("<table>\n<tr><th>value</th><th>p</th><th>95% interval</th>", out);
    fputs(ordered ? "<th>at least</th><th>at most</th></tr>\n" : "</tr>\n", out);
    for (int i = 0; i < t->n; i++) {
        const OddsRow *row = &t->rows[i];
        fputs("<tr>", out);
        text_cell(out, NULL, api_value_text(row->value, t->c->prog));
        cell(out, NULL, "%.5f", row->p);
        fprintf(out, "<td>[%.5f, %.5f]</td>", row->lo, row->hi);
        if (ordered) {
            cell(out, NULL, "%.5f", row->at_least);
            cell(out, NULL, "%.5f", row->at_most);
        }
        fputs("</tr>\n", out);
    }
    if (t->has_not_given) {
        fputs("<tr class=\"apart\"><td>not given in source</td>", out);
        cell(out, NULL, "%.5f", t->not_given.p);
        fprintf(out, "<td>[%.5f, %.5f]</td>%s</tr>\n", t->not_given.lo, t->not_given.hi,
                ordered ? "<td></td><td></td>" : "");
    }
    fputs("</table>\n", out);
    if (t->has_not_given) {
        fprintf(out, "<p class=\"meta\">%llu trials reached a value the rules text does not give, such as ",
                (unsigned long long)t->not_given.count);
        text(out, t->not_given_path);
        fprintf(out, " line %d.</p>\n", t->not_given_line);
    }
}

void api_odds_html(FILE *out, const OddsTable *t)
{
    page_start(out, heading_of(t));
    if (t->exact)
        fprintf(out, "<p class=\"meta\">exact (%llu run%s)</p>\n", (unsigned long long)t->runs,
                t->runs == 1 ? "" : "s");
    else
        fprintf(out, "<p class=\"meta\">%llu trials, seed %llu (simulated; 95%% intervals)</p>\n",
                (unsigned long long)t->trials, (unsigned long long)t->seed);
    if (t->exact)
        exact_table(out, t);
    else
        simulated_table(out, t);
    if (t->numeric) {
        fprintf(out, "<p>mean %.4f", t->mean);
        if (t->exact && t->mean_fraction && strlen(t->mean_fraction) <= 30)
            fprintf(out, " (%s)", t->mean_fraction);
        fprintf(out, ", standard deviation %.4f%s</p>\n", t->sd,
                !t->has_not_given ? "" : t->exact ? " (of the outcomes with a value)" : " (of the trials with a value)");
    }
    fputs("<figure>\n", out);
    chart_odds_svg(out, t);
    fputs("</figure>\n", out);
    page_end(out);
}

/* ---- --vs ---- */

static const char *side_name(const OddsVs *vs, int k, const char *one, char buf[32])
{
    if (vs->nsides == 2)
        return one;
    snprintf(buf, 32, "%s %d", one, k);
    return buf;
}

/* A number and its fraction (an empty cell when it is not exact). */
static void cells(FILE *out, const char *fmt, double x, bool exact, mpq_srcptr q, bool sign)
{
    cell(out, NULL, fmt, x);
    text_cell(out, "q", exact ? api_fraction_text(q, x, sign) : "");
}

static void vs_line(FILE *out, const OddsVs *vs, const char *cls, const char *label, const OddsCell *c, int digits)
{
    char fmt[16], signed_fmt[16];
    snprintf(fmt, sizeof fmt, "%%.%df", digits);
    snprintf(signed_fmt, sizeof signed_fmt, "%%+.%df", digits);
    fprintf(out, "<tr%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
    text_cell(out, NULL, label);
    for (int k = 0; k < vs->nsides; k++) {
        cells(out, fmt, c[k].p, c[k].exact, c[k].q, false);
        if (k)
            cells(out, signed_fmt, c[k].change, c[k].exact_change, c[k].dq, true);
    }
    fputs("</tr>\n", out);
}

void api_vs_html(FILE *out, const OddsVs *vs)
{
    page_start(out, heading_of(&vs->side[0]));
    char *sides = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&sides, &len);
    if (m) {
        api_vs_sides(m, vs);
        fclose(m);
        fputs("<p class=\"meta\">", out);
        lines(out, sides);
        fputs("</p>\n", out);
        free(sides);
    }
    char buf[32];
    fputs("<table>\n<tr><th>value</th><th colspan=\"2\">rules</th>", out);
    for (int k = 1; k < vs->nsides; k++) {
        fprintf(out, "<th colspan=\"2\">%s</th>", side_name(vs, k, "variant", buf));
        fprintf(out, "<th colspan=\"2\">%s</th>", side_name(vs, k, "change", buf));
    }
    fputs("</tr>\n", out);
    for (int i = 0; i < vs->n; i++)
        vs_line(out, vs, NULL, vs->rows[i].text, vs->rows[i].cell, 5);
    if (vs->has_not_given)
        vs_line(out, vs, "apart", "not given in source", vs->not_given, 5);
    if (vs->numeric)
        vs_line(out, vs, "mean", "mean", vs->mean, 4);
    fputs("</table>\n<figure>\n", out);
    chart_vs_svg(out, vs);
    fputs("</figure>\n", out);
    page_end(out);
}
