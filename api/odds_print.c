/* odds_print.c — the odds of prob printed as text, JSON or CSV.
 *
 * These renderers compute nothing: they print the OddsTable that odds.c
 * works out, each with an exact and a simulated layout.
 * The text table sizes its value column to the widest value, writes the
 * exact engine's fractions with GMP, and avoids printf's general conversion
 * per row, since a die of a million sides has a million rows.
 */
#include "config.h"
#include "api/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct Shown {
    Value v;
    const Program *prog;
} Shown;

static void print_shown(FILE *out, const void *what)
{
    const Shown *s = what;
    val_print(out, s->v, s->prog);
}

/* A value's text form as a string (GC memory). */
char *api_value_text(Value v, const Program *prog)
{
    if (v.tag == VAL_INT) {
        /* the common case, without a stream (a die of a million sides has a million rows) */
        char buf[24];
        snprintf(buf, sizeof buf, "%lld", (long long)v.as.i);
        return mem_strdup(buf);
    }
    Shown s = { v, prog };
    return mem_printed(print_shown, &s);
}

char *api_words_head(const char *text)
{
    if (!text || strlen(text) <= 40)
        return NULL;
    for (const char *p = text; *p && p - text <= 32; p++) {
        if ((*p == ':' || *p == '.') && p[1] == ' ' && p > text)
            return mem_strndup(text, (size_t)(p - text));
        if (*p == ' ' && p > text && (!strncmp(p + 1, "- ", 2) || !strncmp(p + 1, "– ", 4) || !strncmp(p + 1, "— ", 4)))
            return mem_strndup(text, (size_t)(p - text));
    }
    return NULL;
}

const char *api_value_words(Value v, const Program *prog)
{
    if (v.tag == VAL_ENUM && prog && v.enum_id >= 0 && v.enum_id < prog->nenums) {
        const EnumDesc *e = &prog->enums[v.enum_id];
        const char *t = v.as.i >= 0 && v.as.i < e->nmembers && e->texts ? e->texts[v.as.i] : NULL;
        const char *head = api_words_head(t);
        if (t)
            return head ? head : strlen(t) <= 40 ? t : api_value_text(v, prog);
    }
    return api_value_text(v, prog);
}

/* The value column of an odds table: each value as text, whole; *width
 * grows to the widest. */
static char **value_column(const OddsTable *t, int *width)
{
    char **texts = mem_alloc(sizeof(char *) * (size_t)(t->n + 1));
    for (int i = 0; i < t->n; i++) {
        texts[i] = api_value_text(t->rows[i].value, t->c->prog);
        int w = (int)strlen(texts[i]);
        if (w > *width)
            *width = w;
    }
    return texts;
}

bool api_odds_ordered(const OddsTable *t)
{
    return t->n == 0 || t->rows[0].value.tag != VAL_RECORD;
}

/* A CSV field: quoted (with doubled quotes) when it holds a comma, quote or newline. */
void api_csv_field(FILE *out, const char *text)
{
    if (!strpbrk(text, ",\"\n\r")) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *p = text; *p; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}

/* The --choose options in force, each choice once (the last given wins). */
void api_print_choosing(FILE *out, char *const *choices, int nchoices)
{
    bool first = true;
    for (int i = 0; i < nchoices; i++) {
        const char *eq = strchr(choices[i], '=');
        size_t name = eq ? (size_t)(eq - choices[i]) : strlen(choices[i]);
        bool later = false;
        for (int j = i + 1; j < nchoices; j++)
            later |= !strncmp(choices[j], choices[i], name) && choices[j][name] == '=';
        if (later)
            continue;
        fprintf(out, "%s%s", first ? " choosing " : ", ", choices[i]);
        first = false;
    }
}

static void print_mpq(FILE *out, const mpq_t q)
{
    mpz_out_str(out, 10, mpq_numref(q));
    if (mpz_cmp_ui(mpq_denref(q), 1) != 0) {
        fputc('/', out);
        mpz_out_str(out, 10, mpq_denref(q));
    }
}

static char *mem_printed_double(double d)
{
    char buf[32];
    snprintf(buf, sizeof buf, "~%.3g", d);
    return mem_strdup(buf);
}

char *api_mpq_text(const mpq_t q)
{
    if (mpz_sizeinbase(mpq_numref(q), 10) + mpz_sizeinbase(mpq_denref(q), 10) + 3 <= 64) {
        /* the common case, in place (a die of a million sides has a million rows) */
        char buf[64];
        return mem_strdup(mpq_get_str(buf, 10, q));
    }
    char *s = mpq_get_str(NULL, 10, q);
    char *copy = mem_strdup(s);
    void (*freefunc)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &freefunc);
    freefunc(s, strlen(s) + 1);
    return copy;
}

/* x as printf's "%.<digits>f" would write it (digits 1..10), without the
 * cost of printf's general conversion: x's exact binary value times
 * 10^digits, rounded half to even, in 128-bit integers.  Numbers it cannot
 * do that way (huge, infinite, not a number) go to snprintf.  buf holds at
 * least 48 bytes; the length is returned. */
static int fixed_text(char *buf, double x, int digits)
{
    static const uint64_t pow10[] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
                                      1000000000, 10000000000ULL };
    int e;
    double f = frexp(fabs(x), &e);          /* |x| = f 2^e, f in [0.5, 1) */
    if (!isfinite(x) || e > 20 || digits < 1 || digits > 10)
        return snprintf(buf, 48, "%.*f", digits, x);
    int len = 0;
    if (signbit(x))
        buf[len++] = '-';
    unsigned __int128 q = 0;
    if (f != 0) {
        /* |x| = m 2^(e-53), m a whole number of 53 bits */
        uint64_t m = (uint64_t)ldexp(f, 53);
        int sh = 53 - e;                     /* > 32 */
        unsigned __int128 n = (unsigned __int128)m * pow10[digits];
        if (sh < 128) {
            q = n >> sh;
            unsigned __int128 rem = n & ((((unsigned __int128)1) << sh) - 1), half = ((unsigned __int128)1) << (sh - 1);
            if (rem > half || (rem == half && (q & 1)))
                q++;
        }
    }
    uint64_t whole = (uint64_t)(q / pow10[digits]), frac = (uint64_t)(q % pow10[digits]);
    char digits_of_whole[24];
    int w = 0;
    do {
        digits_of_whole[w++] = (char)('0' + whole % 10);
        whole /= 10;
    } while (whole);
    while (w)
        buf[len++] = digits_of_whole[--w];
    buf[len++] = '.';
    for (int k = digits - 1; k >= 0; k--) {
        buf[len + k] = (char)('0' + frac % 10);
        frac /= 10;
    }
    len += digits;
    buf[len] = '\0';
    return len;
}

/* text in a column of `width`, right-aligned (or left, for `left`) */
static void put_column(FILE *out, const char *text, int width, bool left)
{
    int pad = width - (int)strlen(text);
    if (left)
        fputs(text, out);
    for (; pad > 0; pad--)
        putc(' ', out);
    if (!left)
        fputs(text, out);
}

/* ends an odds row with a bar of '#', one per 2.5% of probability */
static void end_with_bar(FILE *out, double p)
{
    int bar = (int)(p * 40 + 0.5);
    if (bar)
        fputs("  ", out);
    for (int k = 0; k < bar; k++)
        fputc('#', out);
    fputc('\n', out);
}


/* The call the odds are of: `attack(dice: 5).hits choosing cover=none` */
void api_print_odds_heading(FILE *out, const OddsTable *t)
{
    api_print_call_given(out, t->c, t->sig, t->argv, t->given);
    if (t->field)
        fprintf(out, ".%s", t->field);
    api_print_choosing(out, t->choices, t->nchoices);
}

/* ---- exact odds ---- */

/* The rows shown one by one: a long tail of rare values (an exploding die)
 * ends in one "more" row instead, in the text, the HTML page and the chart
 * alike (JSON and CSV list them all).  Simulated odds list every row. */
int api_odds_shown(const OddsTable *t)
{
    if (!t->exact || t->n <= 60)
        return t->n;
    for (int i = 40; i < t->n; i++)
        if (t->rows[i].at_least < 1e-4)
            return i;
    return t->n;
}

/* The p column of exact odds: each fraction, or its size when it is too
 * long to read (JSON and CSV keep it whole); *pw is the column's width. */
static char **fraction_column(const OddsTable *t, int *pw)
{
    char **ps = mem_alloc(sizeof(char *) * (size_t)(t->n + 2));
    *pw = 1;
    for (int i = 0; i < t->n; i++) {
        ps[i] = api_mpq_text(t->rows[i].q);
        if (strlen(ps[i]) > 30) {
            char approx[32];
            snprintf(approx, sizeof approx, "~%.3g", t->rows[i].p);
            ps[i] = mem_strdup(approx);
        }
        if ((int)strlen(ps[i]) > *pw)
            *pw = (int)strlen(ps[i]);
    }
    if (*pw > 30)
        *pw = 30;
    return ps;
}

/* The rows of exact odds; a long tail (an exploding die) ends in one line
 * for what is left, since --json has it all. */
static void exact_rows(FILE *out, const OddsTable *t, char **texts, char **ps, int width, int pw)
{
    int shown = api_odds_shown(t);
    for (int i = 0; i < t->n; i++) {
        const OddsRow *row = &t->rows[i];
        if (i == shown) {
            if (api_odds_ordered(t))
                fprintf(out, "%*s  %-*s  %11.5f  %9.5f  %9.5f\n", width, "more", pw, "", row->at_least,
                        row->at_least, t->valued);
            else
                fprintf(out, "%*s  %-*s  %11.5f\n", width, "more", pw, "", row->at_least);
            fprintf(out, "(%d more values, from ", t->n - i);
            val_print(out, row->value, t->c->prog);
            fputs(" to ", out);
            val_print(out, t->rows[t->n - 1].value, t->c->prog);
            fputs(", each rarer than shown; --json or --csv lists them)\n", out);
            break;
        }
        char pt[48], lt[48], mt[48];
        fixed_text(pt, row->p, 5);
        fixed_text(lt, row->at_least, 5);
        fixed_text(mt, row->at_most, 5);
        /* (as "%*s  %-*s  %11.5f  %9.5f  %9.5f", without printf's cost per row) */
        put_column(out, texts[i], width, !api_odds_ordered(t));   /* (records read from the left) */
        fputs("  ", out);
        put_column(out, ps[i], pw, true);
        fputs("  ", out);
        put_column(out, pt, 11, false);
        if (api_odds_ordered(t)) {
            fputs("  ", out);
            put_column(out, lt, 9, false);
            fputs("  ", out);
            put_column(out, mt, 9, false);
        }
        end_with_bar(out, row->p);
    }
}

static void exact_text(FILE *out, const OddsTable *t)
{
    api_print_odds_heading(out, t);
    fprintf(out, ": exact (%llu run%s)\n", (unsigned long long)t->runs, t->runs == 1 ? "" : "s");
    int width = t->has_not_given ? 19 : 5, pw;
    char **texts = value_column(t, &width);
    char **ps = fraction_column(t, &pw);
    fprintf(out, api_odds_ordered(t) ? "%*s  %-*s  %11s" : "%-*s  %-*s  %11s", width, "value", pw, "p",
            "probability");
    fputs(api_odds_ordered(t) ? "   at least    at most\n" : "\n", out);
    exact_rows(out, t, texts, ps, width, pw);
    if (t->has_not_given)
        fprintf(out, api_odds_ordered(t) ? "%*s  %-*s  %11.5f\n" : "%-*s  %-*s  %11.5f\n", width,
                "not given in source", pw, api_mpq_text(t->not_given.q), t->not_given.p);
    if (t->has_cut) {
        char *p = api_mpq_text(t->cut_q);
        fprintf(out, "cut off: an open-ended roll was cut short with probability %s; "
                "that is in no row above\n", strlen(p) <= 30 ? p : mem_printed_double(t->cut));
    }
    if (t->numeric) {
        fprintf(out, "mean %.4f", t->mean);
        if (t->mean_fraction && strlen(t->mean_fraction) <= 30)
            fprintf(out, " (%s)", t->mean_fraction);
        fprintf(out, ", standard deviation %.4f%s\n", t->sd,
                t->has_not_given ? " (of the outcomes with a value)" : "");
    }
}

static void print_heading(FILE *out, const void *what)
{
    api_print_odds_heading(out, what);
}

/* The end of an odds object: the call the odds are of, as the text's
 * heading gives it ("fire_hits(card: 8, band: c, cover: none)"). */
static void json_call(FILE *out, const OddsTable *t)
{
    char *call = mem_printed(print_heading, t);
    fputs(", \"call\": ", out);
    val_json_string(out, call, strlen(call));
    fputs("}\n", out);
}

static void exact_json(FILE *out, const OddsTable *t)
{
    fputs("{\"exact\": true, \"trials\": null, \"outcomes\": [", out);
    for (int i = 0; i < t->n; i++) {
        fputs(i ? ", {\"value\": " : "{\"value\": ", out);
        val_print_json(out, t->rows[i].value, t->c->prog);
        fputs(", \"p\": \"", out);
        print_mpq(out, t->rows[i].q);
        fprintf(out, "\", \"probability\": %.10g}", t->rows[i].p);
    }
    if (t->has_not_given) {
        fputs(t->n ? ", " : "", out);
        fputs("{\"value\": null, \"not_given\": true, \"p\": \"", out);
        print_mpq(out, t->not_given.q);
        fprintf(out, "\", \"probability\": %.10g}", t->not_given.p);
    }
    fputs("]", out);
    if (t->has_cut) {
        fputs(", \"dropped\": \"", out);
        print_mpq(out, t->cut_q);
        fputc('"', out);
    }
    if (t->numeric) {
        fprintf(out, ", \"mean\": %.10g, \"sd\": %.10g, \"mean_p\": \"", t->mean, t->sd);
        print_mpq(out, t->mean_q);
        fputc('"', out);
    }
    json_call(out, t);
}

static void exact_csv(FILE *out, const OddsTable *t)
{
    fputs("value,p,probability\n", out);
    for (int i = 0; i < t->n; i++) {
        char p[48];
        fixed_text(p, t->rows[i].p, 10);
        api_csv_field(out, api_value_text(t->rows[i].value, t->c->prog));
        fputc(',', out);
        print_mpq(out, t->rows[i].q);
        fprintf(out, ",%s\n", p);
    }
    if (t->has_not_given) {
        fputs("not given in source,", out);
        print_mpq(out, t->not_given.q);
        fprintf(out, ",%.10f\n", t->not_given.p);
    }
    if (t->has_cut) {
        fputs("cut off,", out);
        print_mpq(out, t->cut_q);
        fprintf(out, ",%.10f\n", t->cut);
    }
}

/* ---- simulated odds ---- */

static void simulated_text(FILE *out, const OddsTable *t)
{
    api_print_odds_heading(out, t);
    fprintf(out, ": %llu trials, seed %llu (simulated; 95%% intervals)\n", (unsigned long long)t->trials,
            (unsigned long long)t->seed);
    /* the value column is as wide as the widest value (up to a point) */
    int width = t->has_not_given ? 19 : 5;
    char **texts = value_column(t, &width);
    bool ordered = api_odds_ordered(t);
    fprintf(out, ordered ? "%*s  %9s  %19s" : "%-*s  %9s  %19s", width, "value", "p", "95% interval");
    fputs(ordered ? "   at least    at most\n" : "\n", out);
    for (int i = 0; i < t->n; i++) {
        const OddsRow *row = &t->rows[i];
        fprintf(out, ordered ? "%*s  %9.5f  [%7.5f, %7.5f]" : "%-*s  %9.5f  [%7.5f, %7.5f]", width, texts[i], row->p,
                row->lo, row->hi);
        if (ordered)
            fprintf(out, "  %9.5f  %9.5f", row->at_least, row->at_most);
        end_with_bar(out, row->p);
    }
    if (t->has_not_given) {
        fprintf(out, ordered ? "%*s  %9.5f  [%7.5f, %7.5f]\n" : "%-*s  %9.5f  [%7.5f, %7.5f]\n", width,
                "not given in source", t->not_given.p, t->not_given.lo, t->not_given.hi);
        fprintf(out, "(%llu trials reached a value the rules text does not give, such as %s line %d)\n",
                (unsigned long long)t->not_given.count, t->not_given_path, t->not_given_line);
    }
    if (t->numeric)
        fprintf(out, "mean %.4f, standard deviation %.4f%s\n", t->mean, t->sd,
                t->has_not_given ? " (of the trials with a value)" : "");
}

static void simulated_json(FILE *out, const OddsTable *t)
{
    fprintf(out, "{\"exact\": false, \"trials\": %llu, \"seed\": %llu, \"outcomes\": [",
            (unsigned long long)t->trials, (unsigned long long)t->seed);
    for (int i = 0; i < t->n; i++) {
        const OddsRow *row = &t->rows[i];
        fputs(i ? ", " : "", out);
        fputs("{\"value\": ", out);
        val_print_json(out, row->value, t->c->prog);
        fprintf(out, ", \"p\": %.6g, \"probability\": %.6g, \"low\": %.6g, \"high\": %.6g}", row->p, row->p,
                row->lo, row->hi);
    }
    if (t->has_not_given)
        fprintf(out, "%s{\"value\": null, \"not_given\": true, \"p\": %.6g, \"probability\": %.6g, "
                "\"low\": %.6g, \"high\": %.6g}", t->n ? ", " : "", t->not_given.p, t->not_given.p,
                t->not_given.lo, t->not_given.hi);
    fputs("]", out);
    if (t->numeric)
        fprintf(out, ", \"mean\": %.6g, \"sd\": %.6g", t->mean, t->sd);
    json_call(out, t);
}

static void simulated_csv(FILE *out, const OddsTable *t)
{
    fputs("value,probability,low,high,count\n", out);
    for (int i = 0; i < t->n; i++) {
        const OddsRow *row = &t->rows[i];
        api_csv_field(out, api_value_text(row->value, t->c->prog));
        fprintf(out, ",%.6f,%.6f,%.6f,%llu\n", row->p, row->lo, row->hi, (unsigned long long)row->count);
    }
    if (t->has_not_given)
        fprintf(out, "not given in source,%.6f,%.6f,%.6f,%llu\n", t->not_given.p, t->not_given.lo,
                t->not_given.hi, (unsigned long long)t->not_given.count);
}

void api_odds_text(FILE *out, const OddsTable *t)
{
    if (t->exact)
        exact_text(out, t);
    else
        simulated_text(out, t);
}

void api_odds_json(FILE *out, const OddsTable *t)
{
    if (t->exact)
        exact_json(out, t);
    else
        simulated_json(out, t);
}

void api_odds_csv(FILE *out, const OddsTable *t)
{
    if (t->exact)
        exact_csv(out, t);
    else
        simulated_csv(out, t);
}

void api_line_put(ApiLine *l, const char *text, int width, bool left)
{
    int pad = width - (int)strlen(text);
    if (!left && pad > 0)
        l->pending += pad;
    if (*text) {
        fprintf(l->out, "%*s%s", l->pending, "", text);
        l->pending = 0;
    }
    if (left && pad > 0)
        l->pending += pad;
    l->pending += 2;
}

void api_line_end(ApiLine *l)
{
    fputc('\n', l->out);
    l->pending = 0;
}
