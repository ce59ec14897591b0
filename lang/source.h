/* source.h — source files and diagnostics.
 *
 * A Source is a script's text, kept whole for the life of the program so
 * every later stage (parser, compiler, VM errors) can point back into it.
 * Positions everywhere are byte offsets; they become line:column only when
 * a message is printed.  Columns count characters (UTF-8 aware), not bytes.
 *
 * Diagnostics print as `file:line:col: error: message`, then the source line
 * and a caret under the span, like a C compiler.  Colour is used only when
 * asked for (the driver asks on a terminal without NO_COLOR).
 */
#ifndef MUSTER_LANG_SOURCE_H
#define MUSTER_LANG_SOURCE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct Span {
    uint32_t begin, end;     /* byte offsets, end exclusive */
} Span;

typedef struct Source {
    const char *path;
    const char *text;        /* NUL-terminated; may contain NULs before len */
    size_t len;
    size_t *line_start;      /* offsets where each line begins */
    size_t nlines;
    int line_offset;         /* added to its line numbers: 0 for a file; text typed at a prompt
                                is numbered as the lines of the whole session (see api/session.c) */
} Source;

/* Largest script accepted, in bytes. */
#define SOURCE_MAX_BYTES (64u << 20)

Source *source_new(const char *path, const char *text, size_t len);
/* Read a file; NULL with a message in err if it cannot be read. */
Source *source_read(const char *path, char *err, size_t errlen);
void source_linecol(const Source *src, size_t offset, int *line, int *col);

typedef enum { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } DiagLevel;

typedef struct Diag {
    FILE *out;               /* NULL: count the reports, print none */
    int color;
    int errors, warnings;
    int max_errors;          /* stop reporting (but keep counting) after this many */
    /* The first error since diag_forget_first (for the C API's muster_last_error):
     * its file (NULL: none), line and column (0 when it has no place) and
     * message.  Errors past the limit are not recorded. */
    bool has_first;
    const char *first_file;
    int first_line, first_col;
    const char *first_message;
} Diag;

void diag_init(Diag *d, FILE *out, int color);
/* Start recording the first error anew (see Diag.has_first). */
void diag_forget_first(Diag *d);
/* A one-line report (file:line:col: level: message) without the source excerpt,
 * for long lists such as the values a rules text leaves out. */
void diag_brief(Diag *d, DiagLevel level, const Source *src, Span span, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Text for a terminal: control characters (C0, DEL, C1) written as \x1b or
 * \u009b, the way the string printer writes them, never raw. */
void diag_put_text(FILE *out, const char *text);
void diag_report(Diag *d, DiagLevel level, const Source *src, Span span, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void diag_vreport(Diag *d, DiagLevel level, const Source *src, Span span, const char *fmt, va_list ap);

#endif
