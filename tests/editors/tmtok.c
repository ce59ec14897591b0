/* tmtok.c — a small TextMate tokenizer, to test editors/vscode's grammar.
 *
 *   tmtok GRAMMAR.json FILE            one line per token: LINE COL BYTES SCOPES TEXT (tab-separated)
 *   tmtok GRAMMAR.json FILE --html TITLE [FIRST LAST]
 *                                      the file's lines (FIRST to LAST) as an HTML page,
 *                                      coloured by scope
 *
 * It reads the grammar as VS Code does and tokenizes the file a line at a
 * time the way a TextMate tokenizer does: at each position every pattern
 * of the innermost open begin/end region (or of the grammar's top level),
 * with the region's end pattern first, is searched for; the match that
 * starts leftmost wins, the earlier pattern on a tie.  A `match` rule
 * scopes its text with its name and captures; a `begin` opens a region,
 * which its `end` closes (each with their captures) and whose own
 * `patterns` apply inside it, across lines.  Patterns are Oniguruma regular
 * expressions, as in VS Code; each line is searched with a "\n" after it.
 *
 * It implements only what editors/vscode/syntaxes/muster.tmLanguage.json
 * uses: rules with name, match, captures, begin, end, beginCaptures,
 * endCaptures, patterns and include ("#NAME" of the repository), captures
 * with a name.  Anything else in the grammar (while, contentName, a
 * back-reference in an end pattern, an include of another grammar, ...)
 * is an error, so the grammar cannot come to rely on a feature this test
 * would get wrong.  Every regular expression must compile.
 */
#include "config.h"

#include <oniguruma.h>

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("tmtok: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static void *xmalloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p)
        die("out of memory");
    return p;
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        die("out of memory");
    return p;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die("cannot read %s", path);
    size_t cap = 1 << 16, n = 0;
    char *buf = xmalloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 >= cap)
            buf = xrealloc(buf, cap *= 2);
    }
    fclose(f);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* ---- JSON ---- */

typedef enum { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ } JType;

typedef struct J {
    JType type;
    char *str;            /* J_STR */
    struct J **items;     /* J_ARR, J_OBJ (values) */
    char **keys;          /* J_OBJ */
    int n;
} J;

typedef struct { const char *s, *start; } JParse;

static void jfail(JParse *p, const char *what) __attribute__((noreturn));

static void jfail(JParse *p, const char *what)
{
    int line = 1;
    for (const char *c = p->start; c < p->s; c++)
        line += *c == '\n';
    die("grammar: %s at line %d", what, line);
}

static void jspace(JParse *p)
{
    while (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r')
        p->s++;
}

static void put_utf8(char **out, unsigned c)
{
    char *o = *out;
    if (c < 0x80) {
        *o++ = (char)c;
    } else if (c < 0x800) {
        *o++ = (char)(0xC0 | c >> 6);
        *o++ = (char)(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        *o++ = (char)(0xE0 | c >> 12);
        *o++ = (char)(0x80 | (c >> 6 & 0x3F));
        *o++ = (char)(0x80 | (c & 0x3F));
    } else {
        *o++ = (char)(0xF0 | c >> 18);
        *o++ = (char)(0x80 | (c >> 12 & 0x3F));
        *o++ = (char)(0x80 | (c >> 6 & 0x3F));
        *o++ = (char)(0x80 | (c & 0x3F));
    }
    *out = o;
}

static unsigned jhex4(JParse *p)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = *p->s++;
        if (!isxdigit((unsigned char)c))
            jfail(p, "bad \\u escape");
        v = v * 16 + (unsigned)(isdigit((unsigned char)c) ? c - '0' : (tolower((unsigned char)c) - 'a' + 10));
    }
    return v;
}

static char *jstring(JParse *p)
{
    if (*p->s != '"')
        jfail(p, "expected a string");
    p->s++;
    const char *e = p->s;
    while (*e && *e != '"')
        e += *e == '\\' && e[1] ? 2 : 1;
    char *out = xmalloc((size_t)(e - p->s) * 2 + 1), *o = out;
    while (*p->s != '"') {
        if (!*p->s)
            jfail(p, "unterminated string");
        if ((unsigned char)*p->s < 0x20)
            jfail(p, "control character in a string");
        if (*p->s != '\\') {
            *o++ = *p->s++;
            continue;
        }
        p->s++;
        char c = *p->s++;
        switch (c) {
        case '"': case '\\': case '/': *o++ = c; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            unsigned u = jhex4(p);
            if (u >= 0xD800 && u < 0xDC00 && p->s[0] == '\\' && p->s[1] == 'u') {
                p->s += 2;
                unsigned lo = jhex4(p);
                if (lo < 0xDC00 || lo > 0xDFFF)
                    jfail(p, "bad surrogate pair");
                u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
            } else if (u >= 0xD800 && u <= 0xDFFF) {
                jfail(p, "lone surrogate");
            }
            put_utf8(&o, u);
            break;
        }
        default: jfail(p, "bad escape in a string");
        }
    }
    p->s++;
    *o = '\0';
    return out;
}

static J *jvalue(JParse *p, int depth)
{
    if (depth > 64)
        jfail(p, "nested too deeply");
    jspace(p);
    J *j = xmalloc(sizeof *j);
    if (*p->s == '{' || *p->s == '[') {
        bool obj = *p->s == '{';
        char close = obj ? '}' : ']';
        j->type = obj ? J_OBJ : J_ARR;
        p->s++;
        jspace(p);
        if (*p->s == close) {
            p->s++;
            return j;
        }
        for (;;) {
            j->items = xrealloc(j->items, sizeof *j->items * (size_t)(j->n + 1));
            if (obj) {
                jspace(p);
                j->keys = xrealloc(j->keys, sizeof *j->keys * (size_t)(j->n + 1));
                j->keys[j->n] = jstring(p);
                for (int i = 0; i < j->n; i++)
                    if (!strcmp(j->keys[i], j->keys[j->n]))
                        jfail(p, "a key given twice");
                jspace(p);
                if (*p->s++ != ':')
                    jfail(p, "expected ':'");
            }
            j->items[j->n++] = jvalue(p, depth + 1);
            jspace(p);
            if (*p->s == ',') {
                p->s++;
                continue;
            }
            if (*p->s++ != close)
                jfail(p, obj ? "expected ',' or '}'" : "expected ',' or ']'");
            return j;
        }
    }
    if (*p->s == '"') {
        j->type = J_STR;
        j->str = jstring(p);
        return j;
    }
    if (!strncmp(p->s, "true", 4) || !strncmp(p->s, "false", 5) || !strncmp(p->s, "null", 4)) {
        j->type = *p->s == 'n' ? J_NULL : J_BOOL;
        p->s += *p->s == 'f' ? 5 : 4;
        return j;
    }
    if (*p->s == '-' || isdigit((unsigned char)*p->s)) {
        char *end;
        strtod(p->s, &end);
        p->s = end;
        j->type = J_NUM;
        return j;
    }
    jfail(p, "expected a value");
}

static J *jget(const J *obj, const char *key)
{
    for (int i = 0; i < obj->n; i++)
        if (!strcmp(obj->keys[i], key))
            return obj->items[i];
    return NULL;
}

/* ---- the grammar ---- */

#define MAX_CAPTURES 10

typedef struct Rule Rule;
struct Rule {
    const char *where;               /* for messages: "repository.strings.patterns[1]" */
    const char *name;
    regex_t *match, *begin, *end;
    const char *captures[MAX_CAPTURES], *begin_captures[MAX_CAPTURES], *end_captures[MAX_CAPTURES];
    const char *include;             /* a repository key */
    Rule **patterns;                 /* as written */
    int npatterns;
    Rule **flat;                     /* includes and groups spliced in: what is searched */
    int nflat;
    bool flattening, flattened;
};

typedef struct Grammar {
    const char *scope;
    Rule *top;                       /* the top-level patterns, as a group */
    char **keys;                     /* the repository */
    Rule **rules;
    int nrepo;
} Grammar;

static char *strf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

static regex_t *compile(const char *pattern, const char *where)
{
    regex_t *re;
    OnigErrorInfo info;
    const UChar *p = (const UChar *)pattern;
    int r = onig_new(&re, p, p + strlen(pattern), ONIG_OPTION_CAPTURE_GROUP, ONIG_ENCODING_UTF8,
                     ONIG_SYNTAX_DEFAULT, &info);
    if (r != ONIG_NORMAL) {
        UChar msg[ONIG_MAX_ERROR_MESSAGE_LEN];
        onig_error_code_to_str(msg, r, &info);
        die("%s: the pattern /%s/ does not compile: %s", where, pattern, (char *)msg);
    }
    return re;
}

static void read_captures(const J *j, const char **out, const char *where)
{
    if (j->type != J_OBJ)
        die("%s: captures must be an object", where);
    for (int i = 0; i < j->n; i++) {
        char *end;
        long k = strtol(j->keys[i], &end, 10);
        if (*end || end == j->keys[i] || k < 0 || k >= MAX_CAPTURES)
            die("%s: capture '%s' is not a group number below %d", where, j->keys[i], MAX_CAPTURES);
        const J *c = j->items[i];
        if (c->type != J_OBJ)
            die("%s: capture %ld must be an object", where, k);
        for (int f = 0; f < c->n; f++)
            if (strcmp(c->keys[f], "name") != 0 && strcmp(c->keys[f], "comment") != 0)
                die("%s: capture %ld has '%s', which this tokenizer does not implement", where, k, c->keys[f]);
        const J *name = jget(c, "name");
        if (!name || name->type != J_STR)
            die("%s: capture %ld needs a name", where, k);
        out[k] = name->str;
    }
}

static Rule *read_rule(const J *j, const char *where);

static void read_patterns(Rule *r, const J *j, const char *where)
{
    if (j->type != J_ARR)
        die("%s: patterns must be an array", where);
    r->npatterns = j->n;
    r->patterns = xmalloc(sizeof *r->patterns * (size_t)j->n);
    for (int i = 0; i < j->n; i++)
        r->patterns[i] = read_rule(j->items[i], strf("%s.patterns[%d]", where, i));
}

static Rule *read_rule(const J *j, const char *where)
{
    static const char *const known[] = {
        "name", "match", "captures", "begin", "end", "beginCaptures", "endCaptures", "patterns", "include", "comment",
    };
    if (j->type != J_OBJ)
        die("%s: a rule must be an object", where);
    Rule *r = xmalloc(sizeof *r);
    r->where = where;
    for (int i = 0; i < j->n; i++) {
        bool ok = false;
        for (size_t k = 0; k < sizeof known / sizeof *known; k++)
            ok |= !strcmp(j->keys[i], known[k]);
        if (!ok)
            die("%s: '%s' is a rule key this tokenizer does not implement", where, j->keys[i]);
        if (strcmp(j->keys[i], "patterns") && strcmp(j->keys[i], "captures") && strcmp(j->keys[i], "beginCaptures")
            && strcmp(j->keys[i], "endCaptures") && j->items[i]->type != J_STR)
            die("%s: '%s' must be a string", where, j->keys[i]);
    }
    const J *v;
    if ((v = jget(j, "name")))
        r->name = v->str;
    if ((v = jget(j, "include"))) {
        if (v->str[0] != '#')
            die("%s: include '%s': only \"#NAME\" of this grammar's repository is implemented", where, v->str);
        if (j->n > 1 + (jget(j, "comment") != NULL))
            die("%s: an include rule has nothing else", where);
        r->include = v->str + 1;
        return r;
    }
    const J *match = jget(j, "match"), *begin = jget(j, "begin"), *end = jget(j, "end");
    const J *pats = jget(j, "patterns");
    if (match) {
        if (begin || end || pats || jget(j, "beginCaptures") || jget(j, "endCaptures"))
            die("%s: a match rule has no begin, end or patterns", where);
        r->match = compile(match->str, where);
        if ((v = jget(j, "captures")))
            read_captures(v, r->captures, where);
    } else if (begin || end) {
        if (!begin || !end)
            die("%s: begin and end go together", where);
        for (const char *s = end->str; *s; s++)
            if (*s == '\\' && s[1]) {
                if (isdigit((unsigned char)s[1]) && s[1] != '0')
                    die("%s: the end pattern refers back to the begin (\\%c), which this tokenizer does not implement",
                        where, s[1]);
                s++;
            }
        r->begin = compile(begin->str, where);
        r->end = compile(end->str, where);
        if ((v = jget(j, "captures")))
            die("%s: give a begin/end rule beginCaptures and endCaptures", where);
        if ((v = jget(j, "beginCaptures")))
            read_captures(v, r->begin_captures, where);
        if ((v = jget(j, "endCaptures")))
            read_captures(v, r->end_captures, where);
        if (pats)
            read_patterns(r, pats, where);
    } else if (pats) {
        if (r->name || jget(j, "captures") || jget(j, "beginCaptures") || jget(j, "endCaptures"))
            die("%s: a group of patterns has no name or captures", where);
        read_patterns(r, pats, where);
    } else {
        die("%s: a rule needs match, begin/end, patterns or include", where);
    }
    return r;
}

static void flatten(Grammar *g, Rule *r);

static void splice(Grammar *g, Rule *into, Rule *p)
{
    if (p->include) {
        int i = 0;
        while (i < g->nrepo && strcmp(g->keys[i], p->include) != 0)
            i++;
        if (i == g->nrepo)
            die("%s: include '#%s': no such repository entry", p->where, p->include);
        p = g->rules[i];
    }
    if (p->match || p->begin) {
        into->flat = xrealloc(into->flat, sizeof *into->flat * (size_t)(into->nflat + 1));
        into->flat[into->nflat++] = p;
        return;
    }
    if (p->flattening)
        die("%s: includes itself", p->where);
    flatten(g, p);
    for (int i = 0; i < p->nflat; i++) {
        into->flat = xrealloc(into->flat, sizeof *into->flat * (size_t)(into->nflat + 1));
        into->flat[into->nflat++] = p->flat[i];
    }
}

/* The patterns searched inside r (a region or a group): its own, with
 * each include and group replaced by the rules it stands for. */
static void flatten(Grammar *g, Rule *r)
{
    if (r->flattened)
        return;
    r->flattening = true;
    for (int i = 0; i < r->npatterns; i++)
        splice(g, r, r->patterns[i]);
    r->flattening = false;
    r->flattened = true;
}

static Grammar *read_grammar(const char *path)
{
    size_t len;
    char *text = read_file(path, &len);
    JParse p = { text, text };
    J *j = jvalue(&p, 0);
    jspace(&p);
    if (*p.s)
        jfail(&p, "text after the grammar");
    if (j->type != J_OBJ)
        die("grammar: not an object");
    static const char *const known[] = { "$schema", "name", "scopeName", "fileTypes", "patterns", "repository", "comment" };
    for (int i = 0; i < j->n; i++) {
        bool ok = false;
        for (size_t k = 0; k < sizeof known / sizeof *known; k++)
            ok |= !strcmp(j->keys[i], known[k]);
        if (!ok)
            die("grammar: '%s' is a top-level key this tokenizer does not implement", j->keys[i]);
    }
    Grammar *g = xmalloc(sizeof *g);
    const J *scope = jget(j, "scopeName"), *pats = jget(j, "patterns"), *repo = jget(j, "repository");
    if (!scope || scope->type != J_STR || !pats)
        die("grammar: needs scopeName and patterns");
    g->scope = scope->str;
    g->top = xmalloc(sizeof *g->top);
    g->top->where = "patterns";
    read_patterns(g->top, pats, "grammar");
    if (repo) {
        if (repo->type != J_OBJ)
            die("grammar: repository must be an object");
        g->nrepo = repo->n;
        g->keys = repo->keys;
        g->rules = xmalloc(sizeof *g->rules * (size_t)repo->n);
        for (int i = 0; i < repo->n; i++)
            g->rules[i] = read_rule(repo->items[i], strf("repository.%s", repo->keys[i]));
    }
    flatten(g, g->top);
    for (int i = 0; i < g->nrepo; i++)
        flatten(g, g->rules[i]);
    return g;
}

/* ---- tokenizing ---- */

/* Scope lists ("source.muster string.quoted.double.muster"), each kept once
 * and named by its index. */
static char **scope_lists;
static int nscope_lists;

static int intern(const char *s)
{
    for (int i = 0; i < nscope_lists; i++)
        if (!strcmp(scope_lists[i], s))
            return i;
    scope_lists = xrealloc(scope_lists, sizeof *scope_lists * (size_t)(nscope_lists + 1));
    scope_lists[nscope_lists] = strf("%s", s);
    return nscope_lists++;
}

#define MAX_STACK 32

typedef struct Tokenizer {
    Grammar *g;
    Rule *stack[MAX_STACK];          /* the open regions, innermost last */
    int depth;
    OnigRegion *region, *best;
} Tokenizer;

/* The scopes of the open regions, then those of names[] (NULLs skipped). */
static int scopes_with(const Tokenizer *t, const char *const *names, int n)
{
    char buf[2048];
    int len = snprintf(buf, sizeof buf, "%s", t->g->scope);
    for (int i = 0; i < t->depth; i++)
        if (t->stack[i]->name)
            len += snprintf(buf + len, sizeof buf - (size_t)len, " %s", t->stack[i]->name);
    for (int i = 0; i < n; i++)
        if (names[i])
            len += snprintf(buf + len, sizeof buf - (size_t)len, " %s", names[i]);
    if ((size_t)len >= sizeof buf)
        die("scopes nested too deeply");
    return intern(buf);
}

/* Scope bytes [from, to) of the line: the open regions', the rule's name
 * (NULL: none), and the captures' names where each group matched. */
static void scope_match(const Tokenizer *t, int *scope, int from, int to, const char *name,
                        const char *const *captures)
{
    for (int b = from; b < to; b++) {
        const char *names[1 + MAX_CAPTURES];
        int n = 0;
        names[n++] = name;
        for (int k = 0; captures && k < MAX_CAPTURES && k < t->best->num_regs; k++)
            if (captures[k] && t->best->beg[k] >= 0 && t->best->beg[k] <= b && b < t->best->end[k])
                names[n++] = captures[k];
        scope[b] = scopes_with(t, names, n);
    }
}

/* Tokenize one line, text[0, len) with its "\n" at text[len - 1]; scope[b]
 * is set for every byte. */
static void tokenize_line(Tokenizer *t, const char *text, int len, int *scope, int lineno)
{
    const UChar *s = (const UChar *)text, *e = s + len;
    int pos = 0, stalls = 0;
    while (pos < len) {
        Rule *region = t->depth ? t->stack[t->depth - 1] : NULL;
        Rule *const *cands = region ? region->flat : t->g->top->flat;
        int ncands = region ? region->nflat : t->g->top->nflat;
        int best = -2, best_at = len + 1;   /* -1: the region's end; else an index into cands */
        for (int c = region ? -1 : 0; c < ncands; c++) {
            regex_t *re = c < 0 ? region->end : cands[c]->match ? cands[c]->match : cands[c]->begin;
            onig_region_clear(t->region);
            int at = onig_search(re, s, e, s + pos, e, t->region, ONIG_OPTION_NONE);
            if (at >= 0 && at < best_at) {
                best = c;
                best_at = at;
                onig_region_copy(t->best, t->region);
            } else if (at < ONIG_MISMATCH) {
                die("line %d: searching failed (%d)", lineno, at);
            }
        }
        int none = scopes_with(t, NULL, 0);
        if (best == -2) {
            for (int b = pos; b < len; b++)
                scope[b] = none;
            return;
        }
        int start = t->best->beg[0], end = t->best->end[0];
        for (int b = pos; b < start; b++)
            scope[b] = none;
        if (best == -1) {
            scope_match(t, scope, start, end, NULL, region->end_captures);
            t->depth--;
        } else if (cands[best]->begin) {
            if (t->depth == MAX_STACK)
                die("line %d: regions nested more than %d deep", lineno, MAX_STACK);
            t->stack[t->depth++] = cands[best];
            scope_match(t, scope, start, end, NULL, cands[best]->begin_captures);
        } else {
            scope_match(t, scope, start, end, cands[best]->name, cands[best]->captures);
            if (end == start) {
                /* an empty match moves nothing: step over one byte */
                scope[start] = none;
                end = start + 1;
            }
        }
        if (end == pos && ++stalls > 8)
            die("line %d: the grammar opens and closes regions at byte %d without moving on", lineno, pos + 1);
        if (end != pos)
            stalls = 0;
        pos = end;
    }
}

/* ---- output ---- */

static void put_text(FILE *out, const char *s, int n)
{
    for (int i = 0; i < n; i++) {
        if (s[i] == '\t')
            fputs("\\t", out);
        else if (s[i] == '\\')
            fputs("\\\\", out);
        else
            fputc(s[i], out);
    }
}

static void put_html(FILE *out, const char *s, int n)
{
    for (int i = 0; i < n; i++) {
        switch (s[i]) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(s[i], out);
        }
    }
}

/* The colours of the page: VS Code's Dark+ theme for these scopes, with
 * two of muster's own, so the picture shows what the grammar tells apart.
 * A scope takes the rule of the longest selector that is a prefix of it
 * (at a dot), looking from the innermost scope out, as themes do. */
static const struct { const char *selector, *style; } theme[] = {
    { "comment", "color:#6A9955" },
    { "string", "color:#CE9178" },
    { "constant.character.escape", "color:#D7BA7D" },
    { "constant.numeric", "color:#B5CEA8" },
    { "constant.numeric.dice", "color:#B5CEA8;font-weight:bold" },
    { "constant.language", "color:#569CD6" },
    { "constant.language.unknown", "color:#1E1E1E;background:#E5C07B;font-weight:bold" },
    { "keyword", "color:#569CD6" },
    { "keyword.control", "color:#C586C0" },
    { "keyword.operator", "color:#D4D4D4" },
    { "keyword.operator.logical", "color:#569CD6" },
    { "storage", "color:#569CD6" },
    { "entity.name.function", "color:#DCDCAA" },
    { "support.function", "color:#DCDCAA" },
    { "entity.name.type", "color:#4EC9B0" },
    { "support.type", "color:#4EC9B0" },
    { "variable", "color:#9CDCFE" },
};

static int style_of(const char *scopes)
{
    char *copy = strf("%s", scopes);
    char *words[64];
    int n = 0;
    for (char *w = strtok(copy, " "); w && n < 64; w = strtok(NULL, " "))
        words[n++] = w;
    int found = -1;
    for (int i = n - 1; i >= 0 && found < 0; i--) {
        size_t best = 0;
        for (size_t k = 0; k < sizeof theme / sizeof *theme; k++) {
            size_t l = strlen(theme[k].selector);
            if (!strncmp(words[i], theme[k].selector, l) && (words[i][l] == '\0' || words[i][l] == '.') && l > best) {
                best = l;
                found = (int)k;
            }
        }
    }
    free(copy);
    return found;
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 5 && argc != 7)
        die("usage: tmtok GRAMMAR.json FILE [--html TITLE [FIRST LAST]]");
    bool html = argc >= 5;
    if (html && strcmp(argv[3], "--html") != 0)
        die("usage: tmtok GRAMMAR.json FILE [--html TITLE [FIRST LAST]]");
    long first = argc == 7 ? atol(argv[5]) : 1, last = argc == 7 ? atol(argv[6]) : -1;

    OnigEncoding enc = ONIG_ENCODING_UTF8;
    onig_initialize(&enc, 1);
    Grammar *g = read_grammar(argv[1]);
    size_t len;
    char *text = read_file(argv[2], &len);

    Tokenizer t = { .g = g, .region = onig_region_new(), .best = onig_region_new() };
    if (html) {
        printf("<!DOCTYPE html>\n<html><head><meta charset=\"UTF-8\"><title>");
        put_html(stdout, argv[4], (int)strlen(argv[4]));
        printf("</title>\n<style>\nbody { margin: 0; background: #1E1E1E; }\n"
               "pre { margin: 0; padding: 6px 8px; color: #D4D4D4; background: #1E1E1E; white-space: pre-wrap;"
               " font: 13px/1.45 'DejaVu Sans Mono', monospace; }\n"
               ".n { color: #858585; display: inline-block; width: 3.5em; }\n</style></head>\n<body><pre>");
    }
    int cap = 256, *scope = xmalloc(sizeof *scope * (size_t)cap);
    char *linebuf = xmalloc(16);
    int lineno = 0;
    for (size_t at = 0; at < len;) {
        size_t nl = at;
        while (nl < len && text[nl] != '\n')
            nl++;
        int n = (int)(nl - at);
        lineno++;
        if (n + 1 > cap) {
            cap = n + 1;
            scope = xrealloc(scope, sizeof *scope * (size_t)cap);
        }
        linebuf = xrealloc(linebuf, (size_t)n + 2);
        memcpy(linebuf, text + at, (size_t)n);
        linebuf[n] = '\n';
        linebuf[n + 1] = '\0';
        tokenize_line(&t, linebuf, n + 1, scope, lineno);
        bool shown = lineno >= first && (last < 0 || lineno <= last);
        if (html && shown)
            printf("<span class=\"n\">%4d</span>", lineno);
        for (int b = 0; b < n;) {
            int e = b + 1;
            while (e < n && scope[e] == scope[b])
                e++;
            if (!html) {
                printf("%d\t%d\t%d\t%s\t", lineno, b + 1, e - b, scope_lists[scope[b]]);
                put_text(stdout, linebuf + b, e - b);
                putchar('\n');
            } else if (shown) {
                int k = style_of(scope_lists[scope[b]]);
                if (k >= 0)
                    printf("<span style=\"%s\">", theme[k].style);
                put_html(stdout, linebuf + b, e - b);
                if (k >= 0)
                    printf("</span>");
            }
            b = e;
        }
        if (html && shown)
            putchar('\n');
        at = nl + 1;
    }
    if (html)
        printf("</pre></body></html>\n");
    onig_region_free(t.region, 1);
    onig_region_free(t.best, 1);
    onig_end();
    return 0;
}
