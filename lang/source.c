/* source.c — reading scripts and printing diagnostics with carets.
 *
 * A script is read whole (at most SOURCE_MAX_BYTES, 64 MiB), its lone CRs
 * made newlines so every byte keeps its offset, and its line starts indexed.
 * A diagnostic shows at most 120 bytes of its line around the span, with
 * control characters and invalid UTF-8 shown as '?', so a hostile script
 * cannot write to the terminal; after d->max_errors errors (20 by default)
 * nothing more is shown, but everything is still counted.
 */
#include "config.h"
#include "lang/source.h"
#include "base/mem.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

/* text with every lone CR (old Mac files) made a '\n', or NULL if it has
 * none: the lexer (a row of a table ends at a line's end), comments and
 * line numbers then see the same lines in CR, LF and CRLF files.  CRLF
 * stays as it is (the CR is blank space before the line's end), so every
 * byte keeps its offset. */
static char *one_line_ending(const char *text, size_t len)
{
    const char *cr = memchr(text, '\r', len);
    while (cr && cr + 1 < text + len && cr[1] == '\n')
        cr = memchr(cr + 1, '\r', len - (size_t)(cr + 1 - text));
    if (!cr)
        return NULL;
    char *out = mem_alloc_atomic(len + 1);
    memcpy(out, text, len);
    out[len] = '\0';
    for (size_t i = (size_t)(cr - text); i < len; i++)
        if (out[i] == '\r' && (i + 1 == len || out[i + 1] != '\n'))
            out[i] = '\n';
    return out;
}

Source *source_new(const char *path, const char *text, size_t len)
{
    char *unified = one_line_ending(text, len);
    if (unified)
        text = unified;
    Source *s = mem_alloc(sizeof *s);
    s->path = path;
    s->text = text;
    s->len = len;
    size_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    s->line_start = mem_alloc_atomic(sizeof(size_t) * n);
    s->line_start[0] = 0;
    size_t k = 1;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n')
            s->line_start[k++] = i + 1;
    s->nlines = n;
    return s;
}

Source *source_read(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *buf = mem_alloc_atomic(cap);
    for (;;) {
        if (len + 1 >= cap) {
            buf = mem_realloc(buf, cap, cap * 2, 1);
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0 || len > SOURCE_MAX_BYTES)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
        return NULL;
    }
    if (len > SOURCE_MAX_BYTES) {
        snprintf(err, errlen, "'%s' is larger than %u MiB; is it really a script?", path, SOURCE_MAX_BYTES >> 20);
        return NULL;
    }
    buf[len] = '\0';
    return source_new(mem_strdup(path), buf, len);
}

static size_t line_index(const Source *src, size_t offset)
{
    size_t lo = 0, hi = src->nlines;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (src->line_start[mid] <= offset)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Is text[from, to) well-formed UTF-8? */
static bool utf8_valid(const char *text, size_t from, size_t to)
{
    const unsigned char *s = (const unsigned char *)text;
    for (size_t i = from; i < to;) {
        unsigned char c = s[i];
        int more = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
        if (more < 0 || (more > 0 && c < 0xC2 && more == 1))
            return false;
        for (int k = 1; k <= more; k++)
            if (i + (size_t)k >= to || (s[i + (size_t)k] & 0xC0) != 0x80)
                return false;
        i += (size_t)more + 1;
    }
    return true;
}

/* Characters in text[from, to): code points if the text is UTF-8, else bytes. */
static int char_count(const char *text, size_t from, size_t to)
{
    if (!utf8_valid(text, from, to))
        return (int)(to - from);
    int n = 0;
    for (size_t i = from; i < to; i++)
        n += ((unsigned char)text[i] & 0xC0) != 0x80;
    return n;
}

void source_linecol(const Source *src, size_t offset, int *line, int *col)
{
    if (offset > src->len)
        offset = src->len;
    size_t li = line_index(src, offset);
    *line = (int)li + 1 + src->line_offset;
    *col = char_count(src->text, src->line_start[li], offset) + 1;
}

void diag_init(Diag *d, FILE *out, int color)
{
    memset(d, 0, sizeof *d);
    d->out = out;
    d->color = color;
    d->max_errors = 20;
}

void diag_forget_first(Diag *d)
{
    d->has_first = false;
    d->first_file = d->first_message = NULL;
    d->first_line = d->first_col = 0;
}

#define SHOW_MAX 120   /* longest piece of a source line shown under a message */

static void show_line(Diag *d, const Source *src, Span span, const char *caret_color)
{
    size_t li = line_index(src, span.begin);
    size_t ls = src->line_start[li];
    size_t le = ls;
    while (le < src->len && src->text[le] != '\n')
        le++;
    if (le > ls && src->text[le - 1] == '\r')
        le--;
    size_t b = span.begin < ls ? ls : span.begin;
    if (b > le)
        b = le;
    size_t e = span.end > le ? le : span.end;
    if (e < b)
        e = b;
    /* window of at most SHOW_MAX bytes around the span's start */
    size_t ws = ls, we = le;
    int cut_left = 0, cut_right = 0;
    if (we - ws > SHOW_MAX) {
        if (b - ws > SHOW_MAX / 2) {
            ws = b - SHOW_MAX / 2;
            while (ws < b && ((unsigned char)src->text[ws] & 0xC0) == 0x80)
                ws++;
            cut_left = 1;
        }
        if (we - ws > SHOW_MAX) {
            we = ws + SHOW_MAX;
            while (we > b && ((unsigned char)src->text[we] & 0xC0) == 0x80)
                we--;
            cut_right = 1;
        }
        if (e > we)
            e = we;
    }
    int lineno = (int)li + 1 + src->line_offset;
    int width = fprintf(d->out, " %5d | ", lineno) - 3;
    if (cut_left)
        fputs("...", d->out);
    bool utf8 = utf8_valid(src->text, ws, we);
    for (size_t i = ws; i < we; i++) {
        unsigned char c = (unsigned char)src->text[i];
        if (c == '\t')
            fputc(' ', d->out);
        else if (c < 0x20 || c == 0x7f || (c >= 0x80 && !utf8))
            fputc('?', d->out);
        else if (c == 0xC2 && i + 1 < we && (unsigned char)src->text[i + 1] <= 0x9F) {
            fputc('?', d->out);      /* a C1 control character (U+0080 to U+009F) */
            i++;
        }
        else
            fputc(c, d->out);
    }
    if (cut_right)
        fputs("...", d->out);
    fputc('\n', d->out);
    fprintf(d->out, "%*s | ", width, "");
    if (cut_left)
        fputs("   ", d->out);
    int pad = utf8 ? char_count(src->text, ws, b) : (int)(b - ws);
    fprintf(d->out, "%*s", pad, "");
    if (d->color)
        fputs(caret_color, d->out);
    fputc('^', d->out);
    int tail = (utf8 ? char_count(src->text, b, e) : (int)(e - b)) - 1;
    for (int i = 0; i < tail; i++)
        fputc('~', d->out);
    if (d->color)
        fputs("\033[0m", d->out);
    fputc('\n', d->out);
}

static void report(Diag *d, DiagLevel level, const Source *src, Span span, bool excerpt, const char *fmt, va_list ap);

void diag_put_text(FILE *out, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    for (; *s; s++) {
        if (*s < 0x20 || *s == 0x7f)
            fprintf(out, "\\x%02x", *s);
        else if (*s == 0xC2 && s[1] >= 0x80 && s[1] <= 0x9F) {
            fprintf(out, "\\u%04x", s[1]);    /* a C1 control character */
            s++;
        } else
            fputc(*s, out);
    }
}

void diag_vreport(Diag *d, DiagLevel level, const Source *src, Span span, const char *fmt, va_list ap)
{
    report(d, level, src, span, true, fmt, ap);
}

void diag_brief(Diag *d, DiagLevel level, const Source *src, Span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(d, level, src, span, false, fmt, ap);
    va_end(ap);
}

static void report(Diag *d, DiagLevel level, const Source *src, Span span, bool excerpt, const char *fmt, va_list ap)
{
    if (level == DIAG_ERROR)
        d->errors++;
    else if (level == DIAG_WARNING)
        d->warnings++;
    if (!d->out)
        return;
    if (d->max_errors && d->errors > d->max_errors) {
        /* past the limit nothing more is shown, notes included */
        if (level == DIAG_ERROR && d->errors == d->max_errors + 1) {
            diag_put_text(d->out, src ? src->path : "muster");
            fputs(": too many errors; stopping\n", d->out);
        }
        return;
    }
    static const char *const word[] = { "error", "warning", "note" };
    static const char *const colour[] = { "\033[1;31m", "\033[1;35m", "\033[1;36m" };
    if (src) {
        int line, col;
        source_linecol(src, span.begin, &line, &col);
        if (d->color)
            fputs("\033[1m", d->out);
        diag_put_text(d->out, src->path);
        fprintf(d->out, ":%d:%d: ", line, col);
    } else {
        if (d->color)
            fputs("\033[1m", d->out);
        fputs("muster: ", d->out);
    }
    if (d->color)
        fprintf(d->out, "%s%s:\033[0m\033[1m ", colour[level], word[level]);
    else
        fprintf(d->out, "%s: ", word[level]);
    /* a message may quote what it was given (an argument, a file name):
     * no control character of it reaches the terminal */
    char small[512], *buf = small;
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n >= (int)sizeof small) {
        buf = mem_alloc_atomic((size_t)n + 1);
        vsnprintf(buf, (size_t)n + 1, fmt, again);
    }
    va_end(again);
    if (level == DIAG_ERROR && !d->has_first) {
        d->has_first = true;
        d->first_file = src ? src->path : NULL;
        d->first_line = d->first_col = 0;
        if (src)
            source_linecol(src, span.begin, &d->first_line, &d->first_col);
        d->first_message = mem_strdup(buf);
    }
    diag_put_text(d->out, buf);
    if (d->color)
        fputs("\033[0m", d->out);
    fputc('\n', d->out);
    if (src && excerpt)
        show_line(d, src, span, colour[level]);
}

void diag_report(Diag *d, DiagLevel level, const Source *src, Span span, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(d, level, src, span, fmt, ap);
    va_end(ap);
}
