/* chart.c — the odds of prob as an SVG bar chart.
 *
 * An OddsTable (or an OddsVs) is first turned into a Chart: the title, a
 * note on how the odds were found, a slot per value with each side's
 * probability, and the labels.  Nothing is computed but what a drawing
 * needs (where things go); every number comes from the table.  The layout
 * then decides how the x labels fit: all of them level when there is room,
 * else every k-th (numbers, on round values) or, for names, turned 45
 * degrees and cut, with the full name in a <title>.  Widths of text are
 * estimated from its length (0.6 em a character, generous for a sans-serif
 * font), since an SVG cannot measure its own text.
 */
#include "config.h"
#include "api/chart.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { W = 640, H = 360 };
enum { TITLE_SIZE = 14, NOTE_SIZE = 11, TICK_SIZE = 10 };
#define CHAR_EM 0.6
#define FONT "system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif"

enum { SLOT_VALUE, SLOT_MORE, SLOT_NOT_GIVEN };

typedef struct Slot {
    const char *label;
    int kind;
    bool whole;              /* an int value: labels thin out on round numbers */
    long long iv;
    double *p;               /* per side, from 0 to 1 */
    char **tip;              /* per side: what a pointer over the bar shows */
} Slot;

typedef struct Chart {
    char *title;
    char *note;
    char *caption;           /* the mean, for one side; NULL */
    const char *axis;        /* what the x axis holds */
    int nsides;
    char **legend;           /* per side, when several */
    int n;
    Slot *slot;
} Chart;

/* ---- text ---- */

__attribute__((format(printf, 1, 2)))
static char *strf(const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return mem_strdup(buf);
}

/* The next character of UTF-8 text at *s (advanced), or -1 for a byte
 * that does not start a well-formed one (*s past that byte). */
static long next_char(const unsigned char **s)
{
    const unsigned char *p = *s;
    int len = p[0] < 0x80 ? 1 : (p[0] & 0xe0) == 0xc0 ? 2 : (p[0] & 0xf0) == 0xe0 ? 3 : (p[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (!len) {
        *s = p + 1;
        return -1;
    }
    long c = len == 1 ? p[0] : p[0] & (0x7f >> len);
    for (int i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80) {
            *s = p + 1;
            return -1;
        }
        c = c << 6 | (p[i] & 0x3f);
    }
    static const long least[5] = { 0, 0, 0x80, 0x800, 0x10000 };
    *s = p + len;
    if (c < least[len] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return -1;
    return c;
}

/* How many characters `text` shows (as chart_xml_text writes it). */
static int text_chars(const char *text)
{
    int n = 0;
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        long c = next_char(&s);
        n += c >= 0 && (c < 0x20 || c == 0x7f) && c != '\t' && c != '\n' && c != '\r' ? 4 : 1;
    }
    return n;
}

static void put_char(FILE *out, long c)
{
    if (c < 0) {
        fputs("\xef\xbf\xbd", out);
        return;
    }
    switch (c) {
    case '&': fputs("&amp;", out); return;
    case '<': fputs("&lt;", out); return;
    case '>': fputs("&gt;", out); return;
    case '"': fputs("&quot;", out); return;
    case '\'': fputs("&#39;", out); return;
    case '\t': case '\n': case '\r': fputc(' ', out); return;
    }
    if (c < 0x20 || c == 0x7f) {
        fprintf(out, "\\x%02lx", c);
        return;
    }
    char buf[4];
    int n = 0;
    if (c < 0x80)
        buf[n++] = (char)c;
    else if (c < 0x800) {
        buf[n++] = (char)(0xc0 | c >> 6);
        buf[n++] = (char)(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
        buf[n++] = (char)(0xe0 | c >> 12);
        buf[n++] = (char)(0x80 | (c >> 6 & 0x3f));
        buf[n++] = (char)(0x80 | (c & 0x3f));
    } else {
        buf[n++] = (char)(0xf0 | c >> 18);
        buf[n++] = (char)(0x80 | (c >> 12 & 0x3f));
        buf[n++] = (char)(0x80 | (c >> 6 & 0x3f));
        buf[n++] = (char)(0x80 | (c & 0x3f));
    }
    fwrite(buf, 1, (size_t)n, out);
}

bool chart_xml_text(FILE *out, const char *text, int max)
{
    bool cut = max >= 0 && text_chars(text) > max;
    int shown = 0;
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        long c = next_char(&s);
        int w = c >= 0 && (c < 0x20 || c == 0x7f) && c != '\t' && c != '\n' && c != '\r' ? 4 : 1;
        if (cut && shown + w > max - 1)
            break;
        put_char(out, c);
        shown += w;
    }
    if (cut)
        fputs("\xe2\x80\xa6", out);
    return cut;
}

/* A number for a coordinate: at most two decimals, no trailing zeros. */
static void put_num(FILE *out, double x)
{
    char buf[48];
    snprintf(buf, sizeof buf, "%.2f", x);
    char *dot = strchr(buf, '.');
    if (dot) {
        char *end = buf + strlen(buf) - 1;
        while (end > dot && *end == '0')
            *end-- = '\0';
        if (end == dot)
            *end = '\0';
    }
    fputs(strcmp(buf, "-0") ? buf : "0", out);
}

/* A percentage as a label: "25%", "2.5%", "0.25%". */
static void put_percent(FILE *out, double pc)
{
    put_num(out, pc);
    fputc('%', out);
}

static double text_width(const char *text, int size)
{
    return text_chars(text) * CHAR_EM * size;
}

/* <text x=.. y=.. [attrs]>TEXT</text>, cut to max characters (the full
 * text then in a <title>). */
static void put_text(FILE *out, double x, double y, const char *attrs, const char *text, int max)
{
    fputs("<text x=\"", out);
    put_num(out, x);
    fputs("\" y=\"", out);
    put_num(out, y);
    fprintf(out, "\"%s%s>", *attrs ? " " : "", attrs);
    if (max >= 0 && text_chars(text) > max) {
        fputs("<title>", out);
        chart_xml_text(out, text, -1);
        fputs("</title>", out);
    }
    chart_xml_text(out, text, max);
    fputs("</text>\n", out);
}

/* The call as the text heading shows it (GC memory). */
static char *heading_of(const OddsTable *t)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return mem_strdup("");
    api_print_odds_heading(m, t);
    fclose(m);
    char *copy = mem_strdup(text);
    free(text);
    return copy;
}

/* What the x axis holds: the result of the procedure (or its field). */
static const char *axis_of(const OddsTable *t)
{
    if (t->c->expression)
        return "value";
    return t->field ? strf("result of %s, field %s", t->sig->name, t->field) : strf("result of %s", t->sig->name);
}

/* A probability for a pointer: "22.28% (385/1728)". */
static char *tip_of(double p, mpq_srcptr q)
{
    char *fraction = q ? api_mpq_text(q) : NULL;
    if (fraction && strlen(fraction) <= 30)
        return strf("%.3f%% (%s)", 100 * p, fraction);
    return strf("%.3f%%", 100 * p);
}

/* ---- the chart of the model ---- */

static Slot *new_slots(int n, int nsides)
{
    Slot *slots = mem_alloc(sizeof(Slot) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        slots[i].p = mem_alloc(sizeof(double) * (size_t)nsides);
        slots[i].tip = mem_alloc(sizeof(char *) * (size_t)nsides);
    }
    return slots;
}

/* A value's whole words, for a tooltip: a member's as the sheet gives
 * them, else as the text shows it. */
static const char *member_words(Value v, const Program *prog)
{
    if (v.tag == VAL_ENUM && prog && v.enum_id >= 0 && v.enum_id < prog->nenums) {
        const EnumDesc *e = &prog->enums[v.enum_id];
        if (e->texts && v.as.i >= 0 && v.as.i < e->nmembers && e->texts[v.as.i])
            return e->texts[v.as.i];
    }
    return api_value_text(v, prog);
}

static void set_value(Slot *s, Value v, const char *label)
{
    s->kind = SLOT_VALUE;
    s->label = label;
    s->whole = v.tag == VAL_INT;
    s->iv = v.tag == VAL_INT ? (long long)v.as.i : 0;
}

static char *mean_caption(const OddsTable *t)
{
    if (!t->numeric)
        return NULL;
    if (t->mean_fraction && strlen(t->mean_fraction) <= 30)
        return strf("mean %.4f (%s), standard deviation %.4f", t->mean, t->mean_fraction, t->sd);
    return strf("mean %.4f, standard deviation %.4f", t->mean, t->sd);
}

static void odds_chart(const OddsTable *t, Chart *ch)
{
    int shown = api_odds_shown(t);
    int n = shown + (shown < t->n) + t->has_not_given;
    *ch = (Chart){ .title = heading_of(t), .axis = axis_of(t), .nsides = 1, .n = n, .slot = new_slots(n, 1) };
    if (t->exact)
        ch->note = strf("exact (%llu run%s)", (unsigned long long)t->runs, t->runs == 1 ? "" : "s");
    else
        ch->note = strf("simulated: %llu trials, seed %llu", (unsigned long long)t->trials,
                        (unsigned long long)t->seed);
    ch->caption = mean_caption(t);
    int k = 0;
    for (int i = 0; i < shown; i++, k++) {
        const OddsRow *row = &t->rows[i];
        Slot *s = &ch->slot[k];
        set_value(s, row->value, api_value_words(row->value, t->c->prog));
        s->p[0] = row->p;
        s->tip[0] = strf("%s: %s", member_words(row->value, t->c->prog), tip_of(row->p, row->q));
    }
    if (shown < t->n) {
        /* the tail the text folds into "more" */
        Slot *s = &ch->slot[k++];
        s->kind = SLOT_MORE;
        s->label = "more";
        s->p[0] = t->rows[shown].at_least;
        s->tip[0] = strf("%d more values, from %s to %s: %s", t->n - shown,
                         api_value_text(t->rows[shown].value, t->c->prog),
                         api_value_text(t->rows[t->n - 1].value, t->c->prog), tip_of(s->p[0], NULL));
    }
    if (t->has_not_given) {
        Slot *s = &ch->slot[k++];
        s->kind = SLOT_NOT_GIVEN;
        s->label = "not given in source";
        s->p[0] = t->not_given.p;
        s->tip[0] = strf("not given in source: %s", tip_of(t->not_given.p, t->not_given.q));
    }
}

/* A long path cut at the front, where it names folders: "…/golden/odds.muster". */
static const char *path_tail(const char *path, int max)
{
    int n = text_chars(path);
    if (n <= max)
        return path;
    const unsigned char *s = (const unsigned char *)path;
    for (int skip = n - (max - 1); skip > 0 && *s; skip--)
        next_char(&s);
    return strf("\xe2\x80\xa6%s", (const char *)s);
}

/* A side's name in the legend: "rules: volley.muster", "variant 2: harsh.muster". */
static char *side_label(const OddsVs *vs, int k)
{
    char *name;
    const char *path = path_tail(vs->path[k], 36);
    if (k == 0)
        name = strf("rules: %s", path);
    else if (vs->nsides == 2)
        name = strf("variant: %s", path);
    else
        name = strf("variant %d: %s", k, path);
    bool mixed = false;
    for (int j = 0; j < vs->nsides; j++)
        mixed |= vs->side[j].exact != vs->side[0].exact;
    if (mixed)
        name = strf("%s (%s)", name, vs->side[k].exact ? "exact" : "simulated");
    if (vs->numeric)
        name = strf("%s, mean %.4f", name, vs->mean[k].p);
    return name;
}

static void vs_chart(const OddsVs *vs, Chart *ch)
{
    int n = vs->n + vs->has_not_given, ns = vs->nsides;
    *ch = (Chart){ .title = heading_of(&vs->side[0]), .axis = axis_of(&vs->side[0]), .nsides = ns, .n = n,
                   .slot = new_slots(n, ns) };
    int exact = 0;
    for (int k = 0; k < ns; k++)
        exact += vs->side[k].exact;
    uint64_t trials = 0;
    for (int k = 0; k < ns; k++)
        if (!vs->side[k].exact)
            trials = vs->side[k].trials;
    if (exact == ns)
        ch->note = "exact";
    else if (!exact)
        ch->note = strf("simulated on the same dice: %llu trials, seed %llu", (unsigned long long)trials,
                        (unsigned long long)vs->seed);
    else
        ch->note = strf("exact where the dice allow; the rest simulated: %llu trials, seed %llu",
                        (unsigned long long)trials, (unsigned long long)vs->seed);
    ch->legend = mem_alloc(sizeof(char *) * (size_t)ns);
    for (int k = 0; k < ns; k++)
        ch->legend[k] = side_label(vs, k);
    for (int i = 0; i < vs->n; i++) {
        const OddsChange *row = &vs->rows[i];
        Slot *s = &ch->slot[i];
        set_value(s, row->value, row->text);
        for (int k = 0; k < ns; k++) {
            s->p[k] = row->cell[k].p;
            s->tip[k] = strf("%s, %s: %s", ch->legend[k], row->text,
                             tip_of(row->cell[k].p, row->cell[k].exact ? row->cell[k].q : NULL));
        }
    }
    if (vs->has_not_given) {
        Slot *s = &ch->slot[vs->n];
        s->kind = SLOT_NOT_GIVEN;
        s->label = "not given in source";
        for (int k = 0; k < ns; k++) {
            s->p[k] = vs->not_given[k].p;
            s->tip[k] = strf("%s, not given in source: %s", ch->legend[k],
                             tip_of(vs->not_given[k].p, vs->not_given[k].exact ? vs->not_given[k].q : NULL));
        }
    }
}

/* ---- layout ---- */

/* The y axis: from 0 to top percent, a gridline every step. */
static void y_scale(const Chart *ch, double *top, double *step)
{
    static const double steps[] = { 0.01, 0.02, 0.025, 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 5, 10, 20, 25 };
    double most = 0;
    for (int i = 0; i < ch->n; i++)
        for (int k = 0; k < ch->nsides; k++)
            if (ch->slot[i].p[k] * 100 > most)
                most = ch->slot[i].p[k] * 100;
    *step = 25;
    for (size_t j = 0; j < sizeof steps / sizeof steps[0]; j++)
        if (most <= steps[j] * 5 + 1e-9) {
            *step = steps[j];
            break;
        }
    double ticks = ceil(most / *step - 1e-9);
    *top = (ticks < 1 ? 1 : ticks) * *step;
}

/* How the x labels are laid out. */
typedef struct Layout {
    double left, right, top, bottom;
    double slot;             /* the width of a value's slot */
    bool turned;             /* labels turned 45 degrees (and cut to `cut` characters) */
    int cut;
    bool *labelled;          /* per slot */
    double *label_x;         /* where a level label is centred */
} Layout;

enum { TURNED_CUT = 24 };

static const char *shown_label(const Slot *s)
{
    return s->label;
}

/* Level labels: every one if they fit; else, for numbers, round values
 * every k (1, 2, 5, 10, 20, 50...), then any label that would touch the
 * one before it (or a reserved one: "more", "not given") is left out. */
static void level_labels(const Chart *ch, Layout *l)
{
    double most = 0;
    for (int i = 0; i < ch->n; i++) {
        double w = text_width(shown_label(&ch->slot[i]), TICK_SIZE);
        if (ch->slot[i].kind == SLOT_VALUE && w > most)
            most = w;
    }
    long long k = 1;
    for (long long mag = 1; k * l->slot < most + 6 && k < (1LL << 60);) {
        /* 1, 2, 5, 10, 20, 50, ... */
        if (k == mag)
            k = 2 * mag;
        else if (k == 2 * mag)
            k = 5 * mag;
        else
            k = mag *= 10;
    }
    /* reserved first: the special slots, each drawn inside the chart */
    double *lo = mem_alloc_atomic(sizeof(double) * (size_t)(ch->n + 1));
    double *hi = mem_alloc_atomic(sizeof(double) * (size_t)(ch->n + 1));
    int nres = 0;
    for (int i = 0; i < ch->n; i++) {
        double cx = l->left + (i + 0.5) * l->slot, w = text_width(ch->slot[i].label, TICK_SIZE);
        l->label_x[i] = cx;
        if (ch->slot[i].kind == SLOT_VALUE)
            continue;
        if (cx + w / 2 > W - 4)
            l->label_x[i] = cx = W - 4 - w / 2;
        l->labelled[i] = true;
        lo[nres] = cx - w / 2;
        hi[nres++] = cx + w / 2;
    }
    double last = -1e9;
    for (int i = 0; i < ch->n; i++) {
        const Slot *s = &ch->slot[i];
        if (s->kind != SLOT_VALUE)
            continue;
        if (s->whole ? s->iv % k != 0 : i % k != 0)
            continue;
        double cx = l->label_x[i], w = text_width(s->label, TICK_SIZE);
        bool clear = cx - w / 2 >= last + 6;
        for (int r = 0; r < nres; r++)
            clear &= cx + w / 2 + 6 <= lo[r] || cx - w / 2 >= hi[r] + 6;
        if (!clear)
            continue;
        l->labelled[i] = true;
        last = cx + w / 2;
    }
}

/* Turned labels: one every slot, or every k-th when the slots are
 * narrower than a line of text. */
static void turned_labels(const Chart *ch, Layout *l)
{
    int k = (int)ceil(14 / l->slot);
    for (int i = 0; i < ch->n; i++) {
        l->label_x[i] = l->left + (i + 0.5) * l->slot;
        l->labelled[i] = i % k == 0 || ch->slot[i].kind != SLOT_VALUE;
    }
}

static void lay_out(const Chart *ch, Layout *l, double top)
{
    l->left = 56;
    l->right = W - 16;
    l->top = top;
    l->labelled = mem_alloc_atomic(sizeof(bool) * (size_t)(ch->n + 1));
    l->label_x = mem_alloc_atomic(sizeof(double) * (size_t)(ch->n + 1));
    memset(l->labelled, 0, sizeof(bool) * (size_t)(ch->n + 1));
    l->slot = (l->right - l->left) / (ch->n ? ch->n : 1);
    /* level when every label fits its slot, or when they are numbers */
    bool fits = true, numbers = true;
    double longest = 0;
    for (int i = 0; i < ch->n; i++) {
        const Slot *s = &ch->slot[i];
        double w = text_width(s->label, TICK_SIZE);
        if (s->kind == SLOT_VALUE) {
            fits &= w + 6 <= l->slot;
            numbers &= s->whole;
        }
        int chars = text_chars(s->label);
        double turned = (chars > TURNED_CUT ? TURNED_CUT : chars) * CHAR_EM * TICK_SIZE;
        if (turned > longest)
            longest = turned;
    }
    l->turned = !fits && !numbers;
    if (!l->turned) {
        l->bottom = H - 40;
        level_labels(ch, l);
        return;
    }
    l->cut = TURNED_CUT;
    double drop = longest * M_SQRT1_2 + 6;
    /* room on the left for the first labels, which reach back past the axis */
    for (int i = 0; i < ch->n && i < 8; i++) {
        int chars = text_chars(ch->slot[i].label);
        double reach = (chars > TURNED_CUT ? TURNED_CUT : chars) * CHAR_EM * TICK_SIZE * M_SQRT1_2;
        double need = reach - (i + 0.5) * l->slot + 8;
        if (need > l->left) {
            l->left = need;
            l->slot = (l->right - l->left) / ch->n;
        }
    }
    l->bottom = H - 26 - drop;
    turned_labels(ch, l);
}

/* ---- drawing ---- */

/* The fill of side k (of nsides): greys and hatching that print in black
 * and white; one side alone is a mid grey. */
static const char *side_fill(int k, int nsides)
{
    static const char *const fills[] = { "#3d3d3d", "#a6a6a6", "url(#muster-diag)", "#e3e3e3",
                                         "url(#muster-cross)", "url(#muster-dots)" };
    return nsides == 1 ? "#5a5a5a" : fills[k % 6];
}

static void put_defs(FILE *out, const Chart *ch)
{
    bool ng = false;
    for (int i = 0; i < ch->n; i++)
        ng |= ch->slot[i].kind == SLOT_NOT_GIVEN && ch->nsides == 1;
    if (!ng && ch->nsides < 3)
        return;
    fputs("<defs>\n", out);
    if (ng)
        fputs("<pattern id=\"muster-ng\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
              "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#fff\"/>"
              "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#555\" stroke-width=\"2\"/></pattern>\n", out);
    if (ch->nsides >= 3)
        fputs("<pattern id=\"muster-diag\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\" "
              "patternTransform=\"rotate(-45)\"><rect width=\"5\" height=\"5\" fill=\"#fff\"/>"
              "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"5\" stroke=\"#222\" stroke-width=\"1.5\"/></pattern>\n"
              "<pattern id=\"muster-cross\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">"
              "<rect width=\"6\" height=\"6\" fill=\"#fff\"/><path d=\"M0 3H6M3 0V6\" stroke=\"#222\" "
              "stroke-width=\"1\"/></pattern>\n"
              "<pattern id=\"muster-dots\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\">"
              "<rect width=\"5\" height=\"5\" fill=\"#fff\"/><circle cx=\"2.5\" cy=\"2.5\" r=\"1.2\" "
              "fill=\"#222\"/></pattern>\n", out);
    fputs("</defs>\n", out);
}

static void put_rect(FILE *out, double x, double y, double w, double h, const char *extra)
{
    fputs("<rect x=\"", out);
    put_num(out, x);
    fputs("\" y=\"", out);
    put_num(out, y);
    fputs("\" width=\"", out);
    put_num(out, w);
    fputs("\" height=\"", out);
    put_num(out, h);
    fprintf(out, "\"%s", extra);
}

static void put_line(FILE *out, double x1, double y1, double x2, double y2, const char *attrs)
{
    fputs("<line x1=\"", out);
    put_num(out, x1);
    fputs("\" y1=\"", out);
    put_num(out, y1);
    fputs("\" x2=\"", out);
    put_num(out, x2);
    fputs("\" y2=\"", out);
    put_num(out, y2);
    fprintf(out, "\" %s/>\n", attrs);
}

/* The heading lines: title, note (and the mean on its right, or below
 * when there is no room), the legend; returns where the plot may start. */
static double put_heading(FILE *out, const Chart *ch)
{
    int title_max = (int)((W - 32) / (CHAR_EM * TITLE_SIZE));
    char attrs[64];
    snprintf(attrs, sizeof attrs, "font-size=\"%d\" font-weight=\"bold\"", TITLE_SIZE);
    put_text(out, 16, 22, attrs, ch->title, title_max);
    double y = 40;
    put_text(out, 16, y, "fill=\"#333\"", ch->note, -1);
    if (ch->caption) {
        double room = W - 32 - text_width(ch->note, NOTE_SIZE) - 24;
        if (text_width(ch->caption, NOTE_SIZE) > room)
            y += 15;
        put_text(out, W - 16, y, "fill=\"#333\" text-anchor=\"end\"", ch->caption, -1);
    }
    if (ch->nsides > 1) {
        /* the legend: a swatch and a name per side, wrapped to the width */
        double x = 16;
        y += 17;
        for (int k = 0; k < ch->nsides; k++) {
            int max = 72;
            double w = 16 + (text_chars(ch->legend[k]) > max ? max : text_chars(ch->legend[k])) * CHAR_EM * NOTE_SIZE;
            if (x > 16 && x + w > W - 16) {
                x = 16;
                y += 16;
            }
            char fill[64];
            snprintf(fill, sizeof fill, " fill=\"%s\" stroke=\"#000\" stroke-width=\"0.75\"/>\n",
                     side_fill(k, ch->nsides));
            put_rect(out, x, y - 9, 11, 10, fill);
            put_text(out, x + 16, y, "", ch->legend[k], max);
            x += w + 18;
        }
    }
    return y + 18;
}

static void put_y_axis(FILE *out, const Layout *l, double top, double step)
{
    int ticks = (int)lround(top / step);
    for (int j = 0; j <= ticks; j++) {
        double y = l->bottom - (l->bottom - l->top) * j / ticks;
        if (j)
            put_line(out, l->left, y, l->right, y, "stroke=\"#d4d4d4\" stroke-width=\"1\"");
        fputs("<text x=\"", out);
        put_num(out, l->left - 6);
        fputs("\" y=\"", out);
        put_num(out, y + 3.5);
        fprintf(out, "\" font-size=\"%d\" text-anchor=\"end\" fill=\"#333\">", TICK_SIZE);
        put_percent(out, j * step);
        fputs("</text>\n", out);
    }
    fputs("<text transform=\"translate(14 ", out);
    put_num(out, (l->top + l->bottom) / 2);
    fprintf(out, ") rotate(-90)\" text-anchor=\"middle\" fill=\"#333\">probability</text>\n");
}

static void put_bars(FILE *out, const Chart *ch, const Layout *l, double top)
{
    double inner = l->slot >= 4 ? l->slot * 0.8 : l->slot;
    double bw = inner / ch->nsides, scale = (l->bottom - l->top) / top;
    bool outline = bw >= 3;
    for (int k = 0; k < ch->nsides; k++) {
        fprintf(out, "<g fill=\"%s\"%s>\n", side_fill(k, ch->nsides),
                outline ? " stroke=\"#000\" stroke-width=\"0.75\"" : "");
        for (int i = 0; i < ch->n; i++) {
            const Slot *s = &ch->slot[i];
            double h = s->p[k] * 100 * scale;
            double x = l->left + i * l->slot + (l->slot - inner) / 2 + k * bw;
            const char *extra = ">";
            if (s->kind == SLOT_NOT_GIVEN)
                extra = ch->nsides == 1 ? " fill=\"url(#muster-ng)\" stroke=\"#000\" stroke-dasharray=\"3 2\">"
                                        : " stroke-dasharray=\"3 2\">";
            else if (s->kind == SLOT_MORE)
                extra = " fill=\"#bdbdbd\">";
            put_rect(out, x, l->bottom - h, bw, h, extra);
            fputs("<title>", out);
            chart_xml_text(out, s->tip[k], -1);
            fputs("</title></rect>\n", out);
        }
        fputs("</g>\n", out);
    }
    /* the shares apart from the values: a dashed line before them */
    for (int i = 1; i < ch->n; i++)
        if (ch->slot[i].kind != SLOT_VALUE && ch->slot[i - 1].kind == SLOT_VALUE) {
            double x = l->left + i * l->slot;
            put_line(out, x, l->top, x, l->bottom, "stroke=\"#777\" stroke-dasharray=\"4 3\"");
        }
}

static void put_x_axis(FILE *out, const Chart *ch, const Layout *l)
{
    put_line(out, l->left, l->bottom, l->right, l->bottom, "stroke=\"#000\" stroke-width=\"1\"");
    char attrs[96];
    for (int i = 0; i < ch->n; i++) {
        if (!l->labelled[i])
            continue;
        const Slot *s = &ch->slot[i];
        double cx = l->left + (i + 0.5) * l->slot;
        put_line(out, cx, l->bottom, cx, l->bottom + 4, "stroke=\"#000\"");
        const char *style = s->kind == SLOT_VALUE ? "" : " font-style=\"italic\"";
        if (l->turned) {
            fputs("<text transform=\"translate(", out);
            put_num(out, cx + 3);
            fputc(' ', out);
            put_num(out, l->bottom + 10);
            fprintf(out, ") rotate(-45)\" font-size=\"%d\" text-anchor=\"end\"%s>", TICK_SIZE, style);
            if (text_chars(s->label) > l->cut) {
                fputs("<title>", out);
                chart_xml_text(out, s->label, -1);
                fputs("</title>", out);
            }
            chart_xml_text(out, s->label, l->cut);
            fputs("</text>\n", out);
        } else {
            snprintf(attrs, sizeof attrs, "font-size=\"%d\" text-anchor=\"middle\"%s", TICK_SIZE, style);
            put_text(out, l->label_x[i], l->bottom + 15, attrs, s->label, -1);
        }
    }
    put_text(out, (l->left + l->right) / 2, H - 10, "text-anchor=\"middle\" fill=\"#333\"", ch->axis, 80);
}

static void draw(FILE *out, const Chart *ch)
{
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"%s\" font-size=\"%d\" role=\"img\">\n", W, H, W, H, FONT, NOTE_SIZE);
    fputs("<title>", out);
    chart_xml_text(out, ch->title, -1);
    fputs("</title>\n", out);
    put_defs(out, ch);
    fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", W, H);
    double top = put_heading(out, ch);
    double ytop, step;
    y_scale(ch, &ytop, &step);
    Layout l;
    lay_out(ch, &l, top);
    put_y_axis(out, &l, ytop, step);
    put_bars(out, ch, &l, ytop);
    put_x_axis(out, ch, &l);
    fputs("</svg>\n", out);
}

void chart_odds_svg(FILE *out, const OddsTable *t)
{
    Chart ch;
    odds_chart(t, &ch);
    draw(out, &ch);
}

void chart_vs_svg(FILE *out, const OddsVs *vs)
{
    Chart ch;
    vs_chart(vs, &ch);
    draw(out, &ch);
}
