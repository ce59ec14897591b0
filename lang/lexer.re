/* lexer.re — muster's tokens (re2c).  Generates lexer.c; never edit that.
 *
 * The source is a NUL-terminated buffer; re2c's end-of-input rule ($) fires
 * only at the real end, so a NUL byte inside the file is just another bad
 * character.  Bad characters and malformed literals are reported here and
 * skipped, so the parser sees a clean token stream and one run can report
 * several problems.
 *
 * The lexer keeps track of the open brackets, which makes it depend on
 * where it is: the words that start a declaration are keywords only at the
 * top level, `each`, `cap` and `expect` only in the blocks that use them,
 * and in a table or bands body a line break ends a row (ROWEND).  `##`
 * lines are collected for the parser, which makes the ones just above a
 * declaration its documentation.
 */
#include "config.h"
#include "lang/parser_state.h"
#include "lang/parser.h"
#include "base/mem.h"

#include <ctype.h>
#include <string.h>

#define MAX_NAME 64   /* longest name, in characters */

#define TOKEN_SPAN(loc, ps) do { (loc)->begin = (uint32_t)((ps)->tok - (ps)->src->text); \
                                 (loc)->end = (uint32_t)((ps)->cur - (ps)->src->text); } while (0)

void lang_lex_init(Parser *ps, const Source *src, Diag *diag)
{
    memset(ps, 0, sizeof *ps);
    ps->src = src;
    ps->diag = diag;
    ps->cur = src->text;
    ps->lim = src->text + src->len;
    ps->skip_to = -1;
    ps->errors_at_start = diag->errors;
}

static void lex_error(Parser *ps, Span loc, const char *fmt, const char *arg)
{
    diag_report(ps->diag, DIAG_ERROR, ps->src, loc, fmt, arg);
}

static int open_bracket(Parser *ps, Span loc, char ch)
{
    if (ps->nopen >= AST_MAX_DEPTH) {
        diag_report(ps->diag, DIAG_ERROR, ps->src, loc,
                    "brackets nested more than %d deep; split this into smaller procedures",
                    AST_MAX_DEPTH);
        ps->aborted = 1;
        return 0;
    }
    ps->open[ps->nopen] = loc.begin;
    ps->open_kind[ps->nopen] = 0;
    if (ch == '{') {
        ps->open_kind[ps->nopen] = (char)ps->pending_block;
        ps->pending_block = 0;
    }
    ps->open_ch[ps->nopen++] = ch;
    return 1;
}

/* The indentation (spaces and tabs) of the line holding offset at; -1
 * when something else comes before at on its line and first is set. */
static int indent_of(const Parser *ps, uint32_t at, bool first)
{
    const char *text = ps->src->text;
    uint32_t start = at;
    while (start > 0 && text[start - 1] != '\n')
        start--;
    uint32_t i = start;
    while (text[i] == ' ' || text[i] == '\t')
        i++;
    if (first && i != at)
        return -1;
    return (int)(i - start);
}

/* Close the innermost bracket; a '}' at `at` that starts its line
 * indented less than the line of its '{' is noted (see unsure_open). */
static void close_bracket(Parser *ps, uint32_t at)
{
    if (ps->nopen <= 0)
        return;
    int top = ps->nopen - 1;
    if (ps->open_ch[top] == '{' && !ps->unsure_open) {
        int close = indent_of(ps, at, true);
        int open = indent_of(ps, ps->open[top], false);
        if (close >= 0 && close < open) {
            ps->unsure_open = ps->open[top] + 1;
            ps->unsure_close = at + 1;
            for (int i = top - 1; i >= 0 && !ps->unsure_outer; i--)
                if (ps->open_ch[i] == '{' && indent_of(ps, ps->open[i], false) == close)
                    ps->unsure_outer = ps->open[i] + 1;
        }
    }
    ps->nopen--;
    if (ps->nopen == 0)
        ps->unsure_open = ps->unsure_close = ps->unsure_outer = 0;
}

/* What kind of block the innermost open '{' is: 'm' modifiers, 'e' example,
 * 't' table or bands, 0 anything else or none. */
static int brace_kind(const Parser *ps)
{
    for (int i = ps->nopen - 1; i >= 0; i--)
        if (ps->open_ch[i] == '{')
            return ps->open_kind[i];
    return 0;
}

/* Where a declaration can start: at the top level, first in the file or
 * after the end of one ('}', or the string or name a declaration can end
 * with).  The newer declaration words are keywords only there, so a script
 * may still have a `proc odds(...)` or an enum member `section`. */
static int starts_decl(const Parser *ps)
{
    int t = ps->last_token;
    return ps->nopen == 0 && (t == 0 || t == '}' || t == STRING || t == IDENT);
}

/* Is the token before the current one (spaces aside) the word w? */
static int after_word(const Parser *ps, const char *w)
{
    const char *p = ps->tok, *start = ps->src->text;
    ptrdiff_t n = (ptrdiff_t)strlen(w);
    while (p > start && (p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n' || p[-1] == '\r'))
        p--;
    if (p - start < n || memcmp(p - n, w, (size_t)n) != 0)
        return 0;
    const char *before = p - n;   /* the word starts there: nothing of a name just before it */
    return before == start || !(isalnum((unsigned char)before[-1]) || before[-1] == '_');
}

/* `draw Orders`, `draw n from Orders`: 'draw' is a keyword where a
 * procedure's code stands (its body and its parameters' defaults, an
 * example, a modifier list, an odds, a record's defaults) when a name or a number follows it on its
 * line; anywhere else it is a name (an outcome `draw`, `result == draw`). */
static int draw_here(const Parser *ps)
{
    const char *p = ps->cur;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!(isalnum((unsigned char)*p) || *p == '_'))
        return 0;
    if (ps->pending_block == 'b' && ps->nopen > 0)
        return 1;            /* a default in a procedure's parameters */
    for (int i = ps->nopen - 1; i >= 0; i--)
        if (ps->open_ch[i] == '{' && strchr("bemr", ps->open_kind[i]) && ps->open_kind[i])
            return 1;
    return 0;
}

/* Words that are keywords only where they can start something: the
 * declarations at the top level, and a few words inside the blocks that
 * use them.  Everywhere else they are ordinary names (an 'outcome' local,
 * a 'table' parameter). */
static int keyword(Parser *ps, const char *text, size_t n)
{
    static const struct { const char *word; int token; int where; char opens; } words[] = {
        { "ruleset", RULESET, 0, 0 }, { "ladder", LADDER, 0, 0 }, { "record", RECORD, 0, 'r' },
        { "table", TABLE, 0, 't' }, { "bands", BANDS, 0, 't' }, { "modifiers", MODIFIERS, 0, 'm' },
        { "outcome", OUTCOME, 0, 0 }, { "choice", CHOICE, 0, 0 }, { "sequence", SEQUENCE, 0, 0 },
        { "example", EXAMPLE, 0, 'e' }, { "import", IMPORT, 0, 0 },
        { "variant", VARIANT, 0, 0 }, { "change", CHANGE, 0, 0 },
        { "section", SECTION, 'd', 0 }, { "odds", ODDS, 'd', 'b' }, { "die", DIEDECL, 'd', 0 },
        { "bag", BAGDECL, 'd', 0 },
        { "draw", DRAW, 'w', 0 }, { "from", FROM, 'f', 0 },
        { "add", ADD, 'p', 0 }, { "remove", REMOVE, 'p', 0 },
        { "each", EACH, 'm', 0 }, { "cap", CAP, 'm', 0 }, { "note", NOTE, 'm', 0 }, { "expect", EXPECT, 'e', 0 },
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (strlen(words[i].word) != n || memcmp(words[i].word, text, n) != 0)
            continue;
        if (words[i].where == 'p' ? !(ps->patch_depth && ps->nopen == ps->patch_depth)
            : words[i].where == 'd' ? !starts_decl(ps)
            : words[i].where == 'w' ? !draw_here(ps)
            : words[i].where == 'f' ? !ps->in_draw
            : words[i].where == 0 ? ps->nopen != 0 : brace_kind(ps) != words[i].where)
            return 0;
        if (!strchr("wf", words[i].where) || !words[i].where)
            ps->pending_block = words[i].opens;   /* (draw, from and of stand inside what a block follows) */
        return words[i].token;
    }
    return 0;
}

/* The words of the two lists above and of the rules below that start a
 * declaration or a statement, or stand in an expression: what a prompt
 * offers to complete (the words of one kind of block only, `each`,
 * `expect`..., are left out).  A unit test lexes each as a keyword. */
const char *const lang_keywords[] = {
    "proc", "enum", "ladder", "outcome", "choice", "record", "table", "bands", "modifiers", "sequence",
    "example", "ruleset", "import", "section", "odds", "variant", "change", "die", "bag",
    "let", "return", "if", "else", "reroll", "roll", "true", "false", "and", "or", "not",
    NULL,
};

/* Inside a table or bands body (not in brackets within it)? */
static int in_table(const Parser *ps)
{
    return ps->table_depth && ps->nopen == ps->table_depth;
}

static void add_doc(Parser *ps, const char *from, const char *to)
{
    if (ps->ndocs == ps->docs_cap) {
        int cap = ps->docs_cap ? ps->docs_cap * 2 : 16;
        ps->docs = mem_realloc(ps->docs, sizeof *ps->docs * (size_t)ps->docs_cap, sizeof *ps->docs * (size_t)cap, 0);
        ps->docs_cap = cap;
    }
    /* "## text" is the text; "##    text", indented past the first space,
     * is kept as "  text": a line of its own (a chain, a list of
     * parameters) that the sheet does not run into the line before */
    const char *t = from + 2;
    if (t < to && *t == ' ')
        t++;
    const char *body = t;
    while (t < to && (*t == ' ' || *t == '\t'))
        t++;
    const char *e = to;
    while (e > t && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        e--;
    bool indented = t - body >= 2 && t < e;
    char *text = mem_alloc_atomic((size_t)(e - t) + 3);
    sprintf(text, "%s%.*s", indented ? "  " : "", (int)(e - t), t);
    ps->docs[ps->ndocs++] = (struct DocLine){ (uint32_t)(from - ps->src->text), (uint32_t)(to - ps->src->text), text };
}

/* The length of the well-formed UTF-8 sequence at s (before e), or 0 if
 * the bytes there are not one: a stray continuation byte, a sequence cut
 * short, an overlong encoding, a surrogate or a code point past U+10FFFF. */
static int utf8_length(const unsigned char *s, const unsigned char *e)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    int n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (!n || e - s < n)
        return 0;
    for (int k = 1; k < n; k++)
        if ((s[k] & 0xC0) != 0x80)
            return 0;
    if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] > 0x9F) || (c == 0xF0 && s[1] < 0x90)
        || (c == 0xF4 && s[1] > 0x8F))
        return 0;
    return n;
}

/* The text of a string or comment [from, to) is UTF-8 with no control
 * characters in it (but tabs): what it says reaches JSON, sheets and
 * terminals, where a stray byte makes invalid output and an escape
 * character takes over the screen.  The first bad byte is an error. */
static void check_text(Parser *ps, const char *from, const char *to, const char *what)
{
    const unsigned char *s = (const unsigned char *)from, *e = (const unsigned char *)to;
    while (s < e) {
        int n = utf8_length(s, e);
        unsigned c = n == 1 ? s[0] : n == 2 ? (unsigned)((s[0] & 0x1F) << 6 | (s[1] & 0x3F)) : 0xFFFF;
        const char *problem = !n ? "invalid UTF-8" : (c < 0x20 && c != '\t' && c != '\r') || (c >= 0x7F && c <= 0x9F)
                                                      ? "a control character" : NULL;
        if (problem) {
            uint32_t at = (uint32_t)((const char *)s - ps->src->text);
            char msg[160];
            if (n == 2)
                snprintf(msg, sizeof msg, "%s (U+%04X) in %s: strings and comments hold printable text", problem, c,
                         what);
            else if (n)
                snprintf(msg, sizeof msg, "%s (byte 0x%02x) in %s: strings and comments hold printable text", problem,
                         s[0], what);
            else
                snprintf(msg, sizeof msg, "%s (byte 0x%02x) in %s: a script is UTF-8 text", problem, s[0], what);
            lex_error(ps, (Span){ at, at + (uint32_t)(n ? n : 1) }, "%s", msg);
            return;
        }
        s += n;
    }
}

/* Parse the digits of [s, e) into *out; false if it does not fit. */
static int parse_int(const char *s, const char *e, int64_t *out)
{
    int64_t v = 0;
    for (; s < e; s++) {
        if (v > (INT64_MAX - (*s - '0')) / 10)
            return 0;
        v = v * 10 + (*s - '0');
    }
    *out = v;
    return 1;
}

/* Decode the escapes of a string literal body [s, e). */
static void string_value(const char *s, const char *e, LANG_YYSTYPE *lval)
{
    char *out = mem_alloc_atomic((size_t)(e - s) + 1);
    size_t n = 0;
    for (; s < e; s++) {
        if (*s == '\\' && s + 1 < e) {
            s++;
            out[n++] = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s;
        } else {
            out[n++] = *s;
        }
    }
    out[n] = '\0';
    lval->str.bytes = out;
    lval->str.len = n;
}

static int lex_token(Parser *ps, LANG_YYSTYPE *lval, Span *loc);

/* Follow `change KIND NAME ... {` at the top level, to know when `add` and
 * `remove` are keywords (see Parser.change_state). */
static void track_change(Parser *ps, int tok)
{
    if (tok == CHANGE) {
        ps->change_state = 1;
    } else if (ps->change_state == 1) {
        ps->change_state = tok == PROC ? 0 : 2;
    } else if (ps->change_state == 2) {
        if (tok == '{' && ps->nopen == 1) {
            ps->patch_depth = 1;
            ps->change_state = 0;
        } else if (tok != IDENT && tok != STRING) {
            ps->change_state = 0;
        }
    }
    if (tok == '}' && ps->patch_depth && ps->nopen < ps->patch_depth)
        ps->patch_depth = 0;
}

int lang_lex(Parser *ps, LANG_YYSTYPE *lval, Span *loc)
{
    if (ps->start_expr == 1) {
        ps->start_expr = 2;   /* handed over; the parse is of an expression */
        *loc = (Span){ 0, 0 };
        return START_EXPR;
    }
    int tok = lex_token(ps, lval, loc);
    track_change(ps, tok);
    if (tok == PROC)
        ps->pending_block = 'b';   /* the next '{' is its body (see draw_here) */
    ps->last_token = tok;
    return tok;
}

static int lex_token(Parser *ps, LANG_YYSTYPE *lval, Span *loc)
{
    if (ps->aborted)
        return END;
    for (;;) {
        ps->tok = ps->cur;
        const char *YYMARKER = NULL;
        (void)YYMARKER;
        /*!re2c
            re2c:api:style = free-form;
            re2c:define:YYCTYPE = "unsigned char";
            re2c:define:YYCURSOR = "ps->cur";
            re2c:define:YYLIMIT = "ps->lim";
            re2c:define:YYPEEK = "*(const unsigned char *)ps->cur";
            re2c:define:YYSKIP = "++ps->cur;";
            re2c:define:YYBACKUP = "YYMARKER = ps->cur;";
            re2c:define:YYRESTORE = "ps->cur = YYMARKER;";
            re2c:define:YYLESSTHAN = "ps->lim <= ps->cur";
            re2c:yyfill:enable = 0;
            re2c:eof = 0;

            digit = [0-9];
            ident = [a-zA-Z_][a-zA-Z0-9_]*;

            $ { TOKEN_SPAN(loc, ps); return END; }

            [ \t\r\f\v]+ { continue; }
            "\n" {
                /* in a table body a line is a row */
                if (in_table(ps) && ps->last_token != ROWEND && ps->last_token != '{') {
                    TOKEN_SPAN(loc, ps);
                    return ROWEND;
                }
                continue;
            }
            "##" [^\n\x00]* {
                check_text(ps, ps->tok, ps->cur, "a comment");
                add_doc(ps, ps->tok, ps->cur);
                continue;
            }
            "#" [^\n\x00]* { check_text(ps, ps->tok, ps->cur, "a comment"); continue; }

            "proc"   { TOKEN_SPAN(loc, ps); return PROC; }
            "enum"   { TOKEN_SPAN(loc, ps); return ENUM; }
            "let"    { TOKEN_SPAN(loc, ps); return LET; }
            "return" { TOKEN_SPAN(loc, ps); return RETURN; }
            "if"     { TOKEN_SPAN(loc, ps); return IF; }
            "else"   { TOKEN_SPAN(loc, ps); return ELSE; }
            "reroll" { TOKEN_SPAN(loc, ps); return REROLL; }
            "roll"   { TOKEN_SPAN(loc, ps); return ROLL; }
            "true"   { TOKEN_SPAN(loc, ps); return TRUE; }
            "false"  { TOKEN_SPAN(loc, ps); return FALSE; }
            "and"    { TOKEN_SPAN(loc, ps); return AND; }
            "or"     { TOKEN_SPAN(loc, ps); return OR; }
            "not"    { TOKEN_SPAN(loc, ps); return NOT; }
            ("one" | "start") [ \t\r\n]+ ("of" | "at") {
                /* the phrases "one of" and "start at" in a modifier list; elsewhere
                 * (or as "one offset") these are names */
                unsigned char next = (unsigned char)*ps->cur;
                int first = ps->tok[0] == 'o' ? 3 : 5;
                const char *second = ps->cur - 2;
                int phrase = (first == 3 && second[0] == 'o') ? ONEOF : (first == 5 && second[0] == 'a') ? STARTAT : 0;
                if (!phrase || brace_kind(ps) != 'm' || next == '_' || (next >= '0' && next <= '9')
                    || ((next | 0x20) >= 'a' && (next | 0x20) <= 'z')) {
                    ps->cur = ps->tok + first;
                    TOKEN_SPAN(loc, ps);
                    lval->s = mem_strndup(ps->tok, (size_t)first);
                    return IDENT;
                }
                TOKEN_SPAN(loc, ps);
                if (phrase == ONEOF)
                    ps->pending_block = 'm';
                return phrase;
            }
            "d(" {
                /* a die with sides worked out, as in 'roll n d(x)': only where a die can stand,
                 * right after 'roll', a count, or '[' or ',' in a mixed pool's list ('roll [d6, d(x)]');
                 * elsewhere d( is a call of something named d */
                int prev = ps->last_token;
                bool in_list = ps->nopen > 0 && ps->open_ch[ps->nopen - 1] == '[' && (prev == '[' || prev == ',');
                if (prev != ROLL && prev != INT && prev != IDENT && prev != ')' && !in_list) {
                    ps->cur = ps->tok + 1;
                    TOKEN_SPAN(loc, ps);
                    lval->s = mem_strndup(ps->tok, 1);
                    return IDENT;
                }
                TOKEN_SPAN(loc, ps);
                if (!open_bracket(ps, *loc, '('))
                    return END;
                return DPAREN;
            }
            [-+] digit+ {
                /* a signed number is one token only in a table body, where "-" alone means n/a */
                if (!in_table(ps)) {
                    ps->cur = ps->tok + 1;
                    TOKEN_SPAN(loc, ps);
                    return *ps->tok;
                }
                TOKEN_SPAN(loc, ps);
                if (!parse_int(ps->tok + 1, ps->cur, &lval->i)) {
                    lex_error(ps, *loc, "number too large: muster's integers are 64-bit (at most 9223372036854775807)%s", "");
                    lval->i = 0;
                }
                if (*ps->tok == '-')
                    lval->i = -lval->i;
                return INT;
            }

            "d" digit+ {
                TOKEN_SPAN(loc, ps);
                if (!parse_int(ps->tok + 1, ps->cur, &lval->i) || lval->i > (1 << 20)) {
                    lex_error(ps, *loc, "a die has at most 1048576 sides, not %s", "that many");
                    lval->i = 6;
                } else if (lval->i < 1) {
                    lex_error(ps, *loc, "a die needs at least one side%s", "");
                    lval->i = 1;
                }
                return DIE;
            }
            ident {
                TOKEN_SPAN(loc, ps);
                size_t n = (size_t)(ps->cur - ps->tok);
                int kw = keyword(ps, ps->tok, n);
                if (kw == DRAW || kw == FROM)
                    ps->in_draw = kw == DRAW;   /* `draw n from Bag`: its 'from' may follow */
                if (kw)
                    return kw;
                if (n == 2 && !memcmp(ps->tok, "in", 2) && !in_table(ps)) {
                    /* `x in [a, b]`: a list follows; anywhere else 'in' is a name (or a bands parameter's word) */
                    const char *q = ps->cur;
                    while (*q == ' ' || *q == '\t')
                        q++;
                    if (*q == '[')
                        return IN;
                }
                if (n == 2 && !memcmp(ps->tok, "of", 2) && ps->last_token == IDENT && after_word(ps, "pool"))
                    return OF;   /* `pool of Face`, the type of a pool of symbol dice: a word of one position */
                if (n > MAX_NAME) {
                    lex_error(ps, *loc, "this name is longer than %s characters", "64");
                    n = MAX_NAME;
                }
                lval->s = mem_strndup(ps->tok, n);
                return IDENT;
            }
            digit+ "." digit+ {
                /* a decimal is an exact rational: 0.31 is 31/100 */
                TOKEN_SPAN(loc, ps);
                const char *dot = memchr(ps->tok, '.', (size_t)(ps->cur - ps->tok));
                int64_t whole, frac, scale = 1;
                if (ps->cur - dot - 1 > 18 || !parse_int(ps->tok, dot, &whole) || !parse_int(dot + 1, ps->cur, &frac)) {
                    lex_error(ps, *loc, "this decimal has too many digits for an exact fraction%s", "");
                    whole = frac = 0;
                } else {
                    for (const char *d = dot + 1; d < ps->cur; d++)
                        scale *= 10;
                }
                if (whole > (INT64_MAX - frac) / scale) {
                    lex_error(ps, *loc, "number too large: muster's integers are 64-bit%s", "");
                    whole = frac = 0;
                }
                lval->q.num = whole * scale + frac;
                lval->q.den = scale;
                return DECIMAL;
            }
            "&&" | "||" {
                TOKEN_SPAN(loc, ps);
                lex_error(ps, *loc, "write '%s' here", ps->tok[0] == '&' ? "and" : "or");
                return ps->tok[0] == '&' ? AND : OR;
            }
            digit+ {
                TOKEN_SPAN(loc, ps);
                if (!parse_int(ps->tok, ps->cur, &lval->i)) {
                    lex_error(ps, *loc, "number too large: muster's integers are 64-bit (at most 9223372036854775807)%s", "");
                    lval->i = 0;
                }
                return INT;
            }
            digit+ ident {
                /* "2d6" is a count and a die: give back the die */
                const char *d = ps->tok;
                while (*d >= '0' && *d <= '9')
                    d++;
                const char *e = d + 1;
                while (e < ps->cur && *e >= '0' && *e <= '9')
                    e++;
                if (*d == 'd' && e == ps->cur && e > d + 1) {
                    ps->cur = d;
                    TOKEN_SPAN(loc, ps);
                    if (!parse_int(ps->tok, ps->cur, &lval->i)) {
                        lex_error(ps, *loc, "number too large: muster's integers are 64-bit (at most 9223372036854775807)%s", "");
                        lval->i = 0;
                    }
                    return INT;
                }
                TOKEN_SPAN(loc, ps);
                lex_error(ps, *loc, "'%s' is neither a number nor a name (names cannot start with a digit; dice are written like 2d6)",
                          mem_strndup(ps->tok, (size_t)(ps->cur - ps->tok)));
                lval->i = 0;
                return INT;
            }
            ["] ([^"\\\n\x00] | [\\] [^\n\x00])* ["] {
                TOKEN_SPAN(loc, ps);
                check_text(ps, ps->tok + 1, ps->cur - 1, "a string");
                string_value(ps->tok + 1, ps->cur - 1, lval);
                return STRING;
            }
            ["] ([^"\\\n\x00] | [\\] [^\n\x00])* {
                TOKEN_SPAN(loc, ps);
                lex_error(ps, *loc, "unterminated string: a string must end with '\"' on the same line%s", "");
                check_text(ps, ps->tok + 1, ps->cur, "a string");
                string_value(ps->tok + 1, ps->cur, lval);
                return STRING;
            }

            "->" { TOKEN_SPAN(loc, ps); return ARROW; }
            "=>" { TOKEN_SPAN(loc, ps); return FATARROW; }
            "..." { TOKEN_SPAN(loc, ps); return ELLIPSIS; }
            ".." { TOKEN_SPAN(loc, ps); return DOTDOT; }
            "==" { TOKEN_SPAN(loc, ps); return EQ; }
            "!=" { TOKEN_SPAN(loc, ps); return NE; }
            "<=" { TOKEN_SPAN(loc, ps); return LE; }
            ">=" { TOKEN_SPAN(loc, ps); return GE; }
            [({[] {
                TOKEN_SPAN(loc, ps);
                if (!open_bracket(ps, *loc, *ps->tok))
                    return END;
                if (*ps->tok == '{' && ps->open_kind[ps->nopen - 1] == 't')
                    ps->table_depth = ps->nopen;
                return *ps->tok;
            }
            [)}\]] {
                TOKEN_SPAN(loc, ps);
                if (*ps->tok == '}' && in_table(ps)) {
                    if (ps->last_token != ROWEND && ps->last_token != '{') {
                        /* end the last row first; the '}' comes next time */
                        ps->cur = ps->tok;
                        loc->end = loc->begin;
                        return ROWEND;
                    }
                    ps->table_depth = 0;
                }
                close_bracket(ps, loc->begin);
                return *ps->tok;
            }
            [,:=+\-*/%<>.;?~] { TOKEN_SPAN(loc, ps); return *ps->tok; }

            * {
                TOKEN_SPAN(loc, ps);
                unsigned char c = (unsigned char)*ps->tok;
                char shown[16];
                if (c >= 0x21 && c < 0x7f)
                    snprintf(shown, sizeof shown, "'%c'", c);
                else if (c >= 0x80) {
                    /* skip the rest of a UTF-8 sequence so it is reported once */
                    while (ps->cur < ps->lim && ((unsigned char)*ps->cur & 0xC0) == 0x80)
                        ps->cur++;
                    loc->end = (uint32_t)(ps->cur - ps->src->text);
                    snprintf(shown, sizeof shown, "byte 0x%02x", c);
                } else
                    snprintf(shown, sizeof shown, "byte 0x%02x", c);
                if (c >= 0x80)
                    lex_error(ps, *loc, "unexpected %s: outside strings and comments a script is plain ASCII", shown);
                else if (c == '!' )
                    lex_error(ps, *loc, "unexpected %s: write 'not' for negation, '!=' for 'not equal'", shown);
                else if (c == '&' || c == '|')
                    lex_error(ps, *loc, "unexpected %s: write 'and' / 'or'", shown);
                else
                    lex_error(ps, *loc, "unexpected character %s", shown);
                continue;
            }
        */
    }
}
