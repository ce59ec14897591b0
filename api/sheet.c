/* sheet.c — render a script back as a quick reference sheet (Markdown or HTML).
 *
 * The sheet is written from the declarations themselves, in the order a
 * player reads a QRS: the header, the turn sequences, then the modifier
 * lists, result bands, tables, enums (results, states and choices) and
 * records, then the procedures with their doc comments, and the worked
 * examples.  Only the main file is rendered, not what it imports.  A `?`
 * cell reads "not given in source" so the sheet can be laid beside the
 * original and the gaps seen at a glance.  The HTML is one self-contained
 * page (CSS only, no scripts) laid out for printing on A4.
 *
 * A variant's sheet is the whole ruleset: the declarations of its base (as
 * the variant patched them) and of each variant of the chain, with a House
 * rules block naming each variant, its mark (†, ‡, ...) and its note.  What
 * a variant changed carries its mark (the marks the loader left: Row.src,
 * Row.cell_src, ModItem.src, Member.src, Param.src, Decl.was and
 * Decl.changed_in), what it
 * added also "new", and a modifier line it removed is struck through.  Its
 * worked examples are the variant's own: the base's may not hold under it.
 */
#include "config.h"
#include "api/sheet.h"
#include "api/chart.h"
#include "api/internal.h"
#include "base/mem.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One variant of the chain a variant's sheet shows, innermost first. */
typedef struct House {
    const Decl *header;      /* its `variant "TITLE" of "BASE"` */
    const char *mark;        /* "†", "‡", ... */
} House;

typedef struct Sheet {
    FILE *out;
    bool html;
    bool one_line;           /* writing a table cell or a heading: a line break must not end it */
    const Compiled *c;
    /* a variant's sheet: its chain of variants (none for a plain script)
     * and the file of the ruleset at the bottom of it */
    House *house;
    int nhouse;
    const Source *root;
    const char *mark;        /* written after the next cell's text, then cleared */
    const char *struck;      /* cells of a modifier line a variant removed: its mark */
    const Decl *decl;        /* the declaration being written */
    /* the table sheet (not --review): players' words, the script's order,
     * porters' notes as numbered footnotes, odds tables worked out */
    bool players;
    muster_ctx *ctx;
    const muster_program *prog;
    const char **notes;      /* footnotes, in order */
    int nnotes, notes_cap;
    bool any_unknown;        /* a '?' cell was shown: the legend says what it means */
    const char *indent;      /* Markdown: after a line break in prose, so that it stays in a list item */
    bool vertical;           /* the next table's column headers are printed upright (HTML) */
    bool whole_words;        /* writing a table of one column of results: an outcome's words are whole */
    bool tight;              /* the next table may break its words anywhere to fit its column (HTML) */
    int wide;                /* the characters across a column of the page holds, about */
    const char *const *only; /* `muster sheet FILE NAME...`: only these parts */
    int nonly;
} Sheet;

/* ---- text ---- */

/* Text of the script (a string, a doc comment) as sheet text: nothing in
 * it may become markup.  HTML escapes its four characters; Markdown
 * escapes its emphasis and table characters and writes '<' as "&lt;", so a
 * "<script>" in a string is shown, never run.  A line break inside a cell
 * or a heading is "<br>" (a raw one would end the row); the lexer lets no
 * other control character into a string, but one that got here would be
 * shown as \x1b, never written raw. */
static void put(Sheet *s, const char *text)
{
    for (const char *p = text; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '\n') {
            fputs(s->one_line ? "<br>" : s->html ? "<br>\n" : "  \n", s->out);
            continue;
        }
        if ((c < 0x20 && c != '\t') || c == 0x7f) {
            fprintf(s->out, "\\x%02x", c);
            continue;
        }
        if (s->html) {
            switch (c) {
            case '&': fputs("&amp;", s->out); continue;
            case '<': fputs("&lt;", s->out); continue;
            case '>': fputs("&gt;", s->out); continue;
            case '"': fputs("&quot;", s->out); continue;
            }
        } else if (c == '<') {
            fputs("&lt;", s->out);
            continue;
        } else if (c == '|' || c == '*' || c == '_' || c == '`' || c == '\\') {
            fputc('\\', s->out);
        }
        fputc(c, s->out);
    }
}

static void print_expr(FILE *out, const void *e) { ast_print_expr(out, e); }

static char *expr_text(const Expr *e) { return mem_printed(print_expr, e); }

static void heading(Sheet *s, int level, const char *text, const char *cite)
{
    s->one_line = true;
    if (s->html) {
        fprintf(s->out, "<h%d>", level);
        put(s, text);
        if (cite) {
            fputs(" <span class=\"cite\">", s->out);
            put(s, cite);
            fputs("</span>", s->out);
        }
        fprintf(s->out, "</h%d>\n", level);
    } else {
        fprintf(s->out, "%.*s ", level, "######");
        put(s, text);
        if (cite) {
            fputs(" (", s->out);
            put(s, cite);
            fputc(')', s->out);
        }
        fputs("\n\n", s->out);
    }
    s->one_line = false;
}

/* A declaration's heading: its title, and what a variant did to it. */
static const char *decl_mark(const Sheet *s, const Decl *d);

static void decl_heading(Sheet *s, int level, const char *title, const Decl *d)
{
    const char *mark = decl_mark(s, d);
    const char *cite = s->players ? NULL : d->cite;   /* the table sheet cites the text by section */
    if (!mark) {
        heading(s, level, title, cite);
        return;
    }
    char *marked = mem_alloc_atomic(strlen(title) + strlen(mark) + 2);
    sprintf(marked, "%s %s", title, mark);
    heading(s, level, marked, cite);
}

/* Prose from a doc comment: lines wrap, a blank line starts a new
 * paragraph, `code` stays code. */
static void prose(Sheet *s, const char *text)
{
    bool code = false;
    bool item = false;       /* in a "- " list line, whose indented lines go on with it */
    bool own = false;        /* in an indented line of its own, which the next line does not join */
    for (const char *p = text; *p; p++) {
        if ((p == text || p[-1] == '\n') && *p != '\n') {
            bool indent = p[0] == ' ' && p[1] == ' ';
            own = indent && !item;
            item = (p[0] == '-' && p[1] == ' ') || (item && indent);
            if (p == text && indent)
                p += 2;
        }
        if (*p == '\n' && p[1] == '\n') {
            fputs(s->html ? "</p>\n<p>" : "\n\n", s->out);
            fputs(s->html ? "" : s->indent, s->out);
            while (p[1] == '\n')
                p++;
        } else if (*p == '\n' && p[1] == '-' && p[2] == ' ') {
            fputs(s->html ? "<br>\n" : "  \n", s->out);   /* a list line keeps its own line */
            fputs(s->html ? "" : s->indent, s->out);
        } else if (*p == '\n' && ((p[1] == ' ' && p[2] == ' ' && !item) || own)) {
            fputs(s->html ? "<br>\n" : "  \n", s->out);   /* so does an indented one, and the line after it */
            fputs(s->html ? "" : s->indent, s->out);
            if (p[1] == ' ' && p[2] == ' ' && !item)
                p += 2;
        } else if (*p == '\n') {
            fputc(' ', s->out);
            while (p[1] == ' ')
                p++;   /* an item's indented line goes on with it */
        } else if (*p == '`') {
            if (s->html)
                fputs(code ? "</code>" : "<code>", s->out);
            else
                fputc('`', s->out);
            code = !code;
        } else {
            char one[2] = { *p, '\0' };
            if (code && !s->html)
                fputc(*p, s->out);   /* nothing to escape inside code */
            else
                put(s, one);
        }
    }
    if (code && s->html)
        fputs("</code>", s->out);
}

static void paragraph(Sheet *s, const char *text, const char *cls)
{
    if (!text || !*text)
        return;
    if (s->html) {
        fprintf(s->out, "<p%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
        prose(s, text);
        fputs("</p>\n", s->out);
    } else {
        prose(s, text);
        fputs("\n\n", s->out);
    }
}

/* ---- tables ---- */

static void table_begin(Sheet *s, const char *const *headers, int n)
{
    if (s->html) {
        fputs(s->tight ? "<table class=\"tight\">\n<thead><tr>" : "<table>\n<thead><tr>", s->out);
        for (int i = 0; i < n; i++) {
            bool v = i && s->vertical && *headers[i];
            fputs(v ? "<th class=\"v\"><span>" : "<th>", s->out);
            put(s, headers[i]);
            fputs(v ? "</span></th>" : "</th>", s->out);
        }
        fputs("</tr></thead>\n<tbody>\n", s->out);
    } else {
        fputc('|', s->out);
        for (int i = 0; i < n; i++) {
            fputc(' ', s->out);
            put(s, headers[i]);
            fputs(" |", s->out);
        }
        fputs("\n|", s->out);
        for (int i = 0; i < n; i++)
            fputs("---|", s->out);
        fputc('\n', s->out);
    }
}

/* A cell: plain text, or with a class (HTML) / emphasis (Markdown); struck
 * through when s->struck, and followed by the pending mark. */
static void cell(Sheet *s, const char *text, const char *cls)
{
    s->one_line = true;
    bool strike = s->struck && text && *text;
    if (s->html) {
        fprintf(s->out, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
        fputs(strike ? "<del>" : "", s->out);
        put(s, text ? text : "");
        fputs(strike ? "</del>" : "", s->out);
    } else {
        fputs(strike ? " ~~" : " ", s->out);
        if (cls && text && *text)
            fputc('*', s->out);
        put(s, text ? text : "");
        if (cls && text && *text)
            fputc('*', s->out);
        fputs(strike ? "~~" : "", s->out);
    }
    if (s->mark)
        put(s, s->mark);
    fputs(s->html ? "</td>" : " |", s->out);
    s->mark = NULL;
    s->one_line = false;
}

static void row_begin(Sheet *s) { fputs(s->html ? "<tr>" : "|", s->out); }
static void row_end(Sheet *s) { fputs(s->html ? "</tr>\n" : "\n", s->out); }

static void table_end(Sheet *s)
{
    fputs(s->html ? "</tbody>\n</table>\n" : "\n", s->out);
}

/* ---- what a variant changed ---- */

/* The mark of the variant whose file src is, or NULL (the base's, or none). */
static const char *mark_of(const Sheet *s, const Source *src)
{
    for (int i = 0; src && i < s->nhouse; i++)
        if (s->house[i].header->src == src)
            return s->house[i].mark;
    return NULL;
}

/* The mark of a part of d that a variant wrote (its src), or NULL. */
static const char *part_mark(const Sheet *s, const Decl *d, const Source *src)
{
    return src && src != d->src ? mark_of(s, src) : NULL;
}

static const char *with_new(const char *mark, bool fresh)
{
    if (!mark || !fresh)
        return mark;
    char *text = mem_alloc_atomic(strlen(mark) + 8);
    sprintf(text, "%s new", mark);
    return text;
}

#define MAX_LEVELS 64

/* The mark of the variant that made `level`, one of the declarations a
 * chain of changes left (d, d->was, ...). */
static const char *level_mark(const Sheet *s, const Decl *level)
{
    const char *mark = mark_of(s, level->changed_in);
    return mark ? mark : "";
}

/* The marks of every variant that changed d, innermost first. */
static const char *changer_marks(const Sheet *s, const Decl *d)
{
    const char *marks[MAX_LEVELS];
    int k = 0;
    size_t len = 1;
    for (const Decl *x = d; x->was && k < MAX_LEVELS; x = x->was) {
        marks[k] = level_mark(s, x);
        len += strlen(marks[k++]) + 1;
    }
    char *text = mem_alloc_atomic(len);
    text[0] = '\0';
    for (int i = k - 1; i >= 0; i--)
        sprintf(text + strlen(text), "%s%s", i < k - 1 ? " " : "", marks[i]);
    return text;
}

/* The declaration of the ruleset at the bottom of d's chain of changes. */
static const Decl *original(const Decl *d)
{
    while (d->was)
        d = d->was;
    return d;
}

/* What a heading says after its title: the mark of each variant that
 * changed the declaration, and "new" after that of the one that added it. */
static const char *decl_mark(const Sheet *s, const Decl *d)
{
    if (!s->nhouse)
        return NULL;
    const char *added = with_new(mark_of(s, original(d)->src), true);
    if (!d->was)
        return added;
    const char *changed = changer_marks(s, d);
    if (!added)
        return changed;
    char *both = mem_alloc_atomic(strlen(added) + strlen(changed) + 2);
    sprintf(both, "%s %s", added, changed);
    return both;
}

static const char *member_mark(const Sheet *s, const Decl *d, const Member *m);

/* Whether a variant of the sheet changed or added d or a part of it, so
 * that its marks must be shown where d is (not merely where it is used). */
static bool house_touched(const Sheet *s, const Decl *d)
{
    if (!s->nhouse)
        return false;
    if (decl_mark(s, d))
        return true;
    if (d->kind == DECL_ENUM)
        for (int i = 0; i < d->as.enm.n; i++)
            if (member_mark(s, d, &d->as.enm.items[i]))
                return true;
    if (d->kind == DECL_TABLE || d->kind == DECL_BANDS)
        for (int r = 0; r < d->as.table.nrows; r++) {
            const Row *row = &d->as.table.rows[r];
            if (part_mark(s, d, row->src))
                return true;
            for (int k = 0; row->cell_src && k < row->cells.n; k++)
                if (part_mark(s, d, row->cell_src[k]))
                    return true;
        }
    return false;
}

static bool same_row_key(const Key *a, const Key *b)
{
    if (a->kind == KEY_NAME || b->kind == KEY_NAME)
        return a->kind == b->kind && !strcmp(a->name, b->name);
    int64_t alo = a->lo_open ? INT64_MIN : a->lo, ahi = a->hi_open ? INT64_MAX : a->hi;
    int64_t blo = b->lo_open ? INT64_MIN : b->lo, bhi = b->hi_open ? INT64_MAX : b->hi;
    return alo <= bhi && blo <= ahi;
}

/* A row none of whose keys the base's table has (or overlaps), in the same
 * `column` block: added. */
static bool row_is_new(const Decl *d, const Row *row)
{
    const Decl *was = d->was ? original(d) : NULL;
    for (int r = 0; was && r < was->as.table.nrows; r++)
        for (int i = 0; was->as.table.rows[r].block == row->block && i < was->as.table.rows[r].keys.n; i++)
            for (int k = 0; k < row->keys.n; k++)
                if (same_row_key(&was->as.table.rows[r].keys.items[i], &row->keys.items[k]))
                    return false;
    return was != NULL;
}

static bool has_label(const ModList *items, const char *label)
{
    for (int i = 0; i < items->n; i++)
        if ((items->items[i].label && !strcmp(items->items[i].label, label))
            || has_label(&items->items[i].group, label))
            return true;
    return false;
}

static bool member_is_new(const Decl *d, const char *name)
{
    const Decl *was = d->was ? original(d) : NULL;
    for (int i = 0; was && i < was->as.enm.n; i++)
        if (!strcmp(was->as.enm.items[i].name, name))
            return false;
    return was != NULL;
}

/* The mark of the variant whose row, laid over these keys, took some of
 * their numbers (the latest such, in a chain), or NULL. */
static const char *narrowed_mark(const Sheet *s, const Decl *d, const KeyList *keys)
{
    const char *mark = NULL;
    for (int i = 0; i < keys->n; i++) {
        const char *m = part_mark(s, d, keys->items[i].narrowed_in);
        mark = m ? m : mark;
    }
    return mark;
}

/* ---- pieces of declarations ---- */

static char *key_text(const Key *k)
{
    char buf[96];
    if (k->kind == KEY_NAME)
        return mem_strdup(k->name);
    if (k->kind == KEY_INT)
        snprintf(buf, sizeof buf, "%lld", (long long)k->lo);
    else if (k->lo_open)
        snprintf(buf, sizeof buf, "%lld or less", (long long)k->hi);
    else if (k->hi_open)
        snprintf(buf, sizeof buf, "%lld or more", (long long)k->lo);
    else if (k->lo < 0)
        snprintf(buf, sizeof buf, "%lld to %lld", (long long)k->lo, (long long)k->hi);
    else
        snprintf(buf, sizeof buf, "%lld–%lld", (long long)k->lo, (long long)k->hi);
    return mem_strdup(buf);
}

static char *keys_text(const KeyList *keys)
{
    size_t len = 1;
    char **parts = mem_alloc(sizeof(char *) * (size_t)(keys->n + 1));
    for (int i = 0; i < keys->n; i++) {
        parts[i] = key_text(&keys->items[i]);
        len += strlen(parts[i]) + 2;
    }
    char *out = mem_alloc_atomic(len);
    out[0] = '\0';
    for (int i = 0; i < keys->n; i++) {
        if (i)
            strcat(out, ", ");
        strcat(out, parts[i]);
    }
    return out;
}

/* The declaration of the enum a table's cells are members of, if it gives texts. */
static const Decl *texts_of(const Sheet *s, const char *type)
{
    if (!type)
        return NULL;
    const Module *m = s->c->module;
    for (int i = 0; i < m->n; i++)
        if (m->decls[i]->kind == DECL_ENUM && !strcmp(m->decls[i]->name, type))
            return m->decls[i];
    return NULL;
}

static const char *member_text(const Decl *e, const char *name)
{
    for (int i = 0; e && i < e->as.enm.n; i++)
        if (!strcmp(e->as.enm.items[i].name, name))
            return e->as.enm.items[i].text;
    return NULL;
}

/* The value of field f of member m of outcome d: as the member gives it
 * (by name, or in order), else the field's default; NULL when neither. */
static const Expr *member_field(const Decl *d, const Member *m, int f)
{
    const Expr *v = NULL;
    for (int a = 0; a < m->fields.n; a++) {
        const Arg *arg = &m->fields.items[a];
        if ((arg->name && !strcmp(arg->name, d->params.items[f].name)) || (!arg->name && a == f))
            v = arg->value;
    }
    return v ? v : d->params.items[f].deflt;
}

static void cell_value(Sheet *s, const Expr *e);
static const char *player_value(Sheet *s, const Expr *e, const Decl *texts);

static void cell_value_text(Sheet *s, const Expr *e, const Decl *texts)
{
    const char *t = e->kind == EX_NAME ? member_text(texts, e->as.name) : NULL;
    if (s->players) {
        cell(s, player_value(s, e, texts), e->kind == EX_UNKNOWN ? "unknown" : NULL);
        return;
    }
    if (t) {   /* the words, however long (they wrap), and the name the script uses */
        char *both = mem_alloc_atomic(strlen(t) + strlen(e->as.name) + 8);
        sprintf(both, "%s (%s)", t, e->as.name);
        cell(s, both, NULL);
        return;
    }
    cell_value(s, e);
}

static void cell_value(Sheet *s, const Expr *e)
{
    if (e->kind == EX_STR) {
        cell(s, mem_strndup(e->as.str.bytes, e->as.str.len), NULL);
        return;
    }
    if (e->kind == EX_UNKNOWN)
        cell(s, "not given in source", "unknown");
    else if (e->kind == EX_NA)
        cell(s, "—", NULL);
    else
        cell(s, expr_text(e), NULL);
}

/* "name(x: int = 2) → T", a default a variant changed followed by its mark. */
static char *signature(const Sheet *s, const Decl *d)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m)
        return mem_strdup(d->name);
    fprintf(m, "%s(", d->name);
    for (int i = 0; i < d->params.n; i++) {
        const Param *p = &d->params.items[i];
        fprintf(m, "%s%s: %s", i ? ", " : "", p->name, p->type.name);
        if (p->deflt) {
            fputs(" = ", m);
            ast_print_expr(m, p->deflt);
            const char *mark = part_mark(s, d, p->src);
            fputs(mark ? mark : "", m);
        }
    }
    fputc(')', m);
    if (d->ret.name)
        fprintf(m, " → %s", d->ret.name);
    fclose(m);
    char *copy = mem_strndup(buf, len);
    free(buf);
    return copy;
}

/* ---- sections ---- */

/* Whether the steps carry numbers of their own, as the text prints them
 * ("1) Declare", "b. Declare charges"), at least half of them: on the
 * table sheet they are not numbered again. */
static bool own_numbers(const Sheet *s, const SeqList *items)
{
    if (!s->players)
        return false;
    int own = 0;
    for (int i = 0; i < items->n; i++) {
        const char *t = items->items[i].text;
        int digits = 0;
        while (t[digits] >= '0' && t[digits] <= '9')
            digits++;
        int head = digits && digits <= 2 ? digits : t[0] >= 'a' && t[0] <= 'z' ? 1 : 0;
        own += head && (t[head] == ')' || t[head] == '.') && t[head + 1] == ' ';
    }
    return items->n && own * 2 >= items->n;
}

static void render_steps(Sheet *s, const SeqList *items)
{
    fputs(!s->html ? "" : own_numbers(s, items) ? "<ol class=\"own\">\n" : "<ol>\n", s->out);
    for (int i = 0; i < items->n; i++) {
        const SeqItem *it = &items->items[i];
        if (s->html) {
            fputs("<li>", s->out);
            put(s, it->text);
            if (it->proc) {
                fputs(" <span class=\"proc\">", s->out);
                put(s, it->proc);
                fputs("</span>", s->out);
            }
            if (it->phase) {
                fputc('\n', s->out);
                render_steps(s, &it->children);
            }
            fputs("</li>\n", s->out);
        }
    }
    fputs(s->html ? "</ol>\n" : "", s->out);
}

static void render_steps_md(Sheet *s, const SeqList *items, int indent)
{
    bool own = own_numbers(s, items);
    for (int i = 0; i < items->n; i++) {
        const SeqItem *it = &items->items[i];
        if (own)
            fprintf(s->out, "%*s- ", indent, "");
        else
            fprintf(s->out, "%*s%d. ", indent, "", i + 1);
        put(s, it->text);
        if (it->proc) {
            fputs(" (`", s->out);
            fputs(it->proc, s->out);
            fputs("`)", s->out);
        }
        fputc('\n', s->out);
        if (it->phase)
            render_steps_md(s, &it->children, indent + 3);
    }
}

static void render_sequence(Sheet *s, const Decl *d)
{
    char title[256];
    snprintf(title, sizeof title, "Turn sequence: %s", d->name);
    decl_heading(s, 2, title, d);
    paragraph(s, d->doc, "doc");
    if (s->html)
        render_steps(s, &d->as.seq.items);
    else {
        render_steps_md(s, &d->as.seq.items, 0);
        fputc('\n', s->out);
    }
}

/* Positive numbers read +1 on a sheet; anything worked out is shown as written. */
static const char *sign_of(const Expr *e)
{
    return e->kind == EX_INT || (e->kind == EX_BINARY && e->as.binary.op == OPR_DIV
                                 && e->as.binary.left->kind == EX_INT && e->as.binary.right->kind == EX_INT) ? "+" : "";
}

/* The mark after a line's amount: that of the variant that removed it,
 * changed it, or added it ("new") or the `one of` group it is in (outer). */
static const char *line_mark(const Sheet *s, const ModItem *it, const char *outer)
{
    if (s->struck)
        return s->struck;
    const char *mark = part_mark(s, s->decl, it->src);
    mark = mark ? mark : outer;
    bool fresh = !it->label || !s->decl->was || !has_label(&original(s->decl)->as.mods.items, it->label);
    return with_new(mark, fresh);
}

static void mod_rows(Sheet *s, const ModList *items, const char *group, const char *outer, int *groups)
{
    for (int i = 0; i < items->n; i++) {
        const ModItem *it = &items->items[i];
        const char *mark = line_mark(s, it, outer);
        char when[512];
        if (it->kind != MOD_ONEOF)
            row_begin(s);
        switch (it->kind) {
        case MOD_ADD: case MOD_MUL: {
            char *cond = expr_text(it->cond);
            snprintf(when, sizeof when, "%s%s", group ? group : "", cond);
            cell(s, when, NULL);
            char *v = expr_text(it->value);
            char value[256];
            bool compound = it->value->kind == EX_BINARY && !(it->value->as.binary.op == OPR_DIV
                                                              && it->value->as.binary.left->kind == EX_INT
                                                              && it->value->as.binary.right->kind == EX_INT);
            if (it->kind == MOD_MUL)
                snprintf(value, sizeof value, compound ? "× (%s)" : "× %s", v);
            else
                snprintf(value, sizeof value, "%s%s", v[0] == '-' || v[0] == '+' ? "" : sign_of(it->value), v);
            s->mark = mark;
            cell(s, value, "mod");
            cell(s, it->label, NULL);
            break;
        }
        case MOD_EACH: {
            snprintf(when, sizeof when, "%seach of %s", group ? group : "", expr_text(it->cond));
            cell(s, when, NULL);
            char *v = expr_text(it->value);
            char value[256];
            snprintf(value, sizeof value, "%s%s each", v[0] == '-' || v[0] == '+' ? "" : sign_of(it->value), v);
            s->mark = mark;
            cell(s, value, "mod");
            cell(s, it->label, NULL);
            break;
        }
        case MOD_CAP: {
            cell(s, "total", NULL);
            const Key *r = &it->range;
            char value[256];
            if (r->lo_open)
                snprintf(value, sizeof value, "at most %lld", (long long)r->hi);
            else if (r->hi_open)
                snprintf(value, sizeof value, "at least %lld", (long long)r->lo);
            else
                snprintf(value, sizeof value, "%lld to %lld", (long long)r->lo, (long long)r->hi);
            s->mark = mark;
            cell(s, value, "mod");
            cell(s, it->label, NULL);
            break;
        }
        case MOD_NOTE:
            cell(s, "", NULL);
            s->mark = mark;
            cell(s, it->says, "mod");
            cell(s, it->label, NULL);
            break;
        case MOD_BASE:
            cell(s, "start", NULL);
            s->mark = mark;
            cell(s, expr_text(it->value), "mod");
            cell(s, it->label, NULL);
            break;
        case MOD_ONEOF: {
            /* groups are numbered, so two in a row can be told apart */
            char *label = mem_alloc_atomic(32);
            snprintf(label, 32, "one of (%d): ", ++*groups);
            mod_rows(s, &it->group, label, part_mark(s, s->decl, it->src), groups);
            continue;
        }
        }
        row_end(s);
    }
}

/* The labelled lines of `was` that `now` (a level of d's chain of changes)
 * has not, struck through with the mark of the variant that took them away. */
static void removed_lines(Sheet *s, const ModList *was, const Decl *now, const Decl *d, int *groups)
{
    for (int i = 0; i < was->n; i++) {
        const ModItem *it = &was->items[i];
        if (it->kind == MOD_ONEOF)
            removed_lines(s, &it->group, now, d, groups);
        else if (it->label && !has_label(&now->as.mods.items, it->label)) {
            ModList one = { (ModItem *)it, 1, 1 };
            s->struck = level_mark(s, now);
            mod_rows(s, &one, NULL, NULL, groups);
            s->struck = NULL;
        }
    }
}

/* Each change of the chain (d, d->was, ...) against the one before it. */
static void removed_rows(Sheet *s, const Decl *d)
{
    int groups = 0;
    for (const Decl *now = d; s->nhouse && now->was; now = now->was)
        removed_lines(s, &now->was->as.mods.items, now, d, &groups);
}

static void render_modifiers(Sheet *s, const Decl *d)
{
    decl_heading(s, 3, signature(s, d), d);
    paragraph(s, d->doc, "doc");
    bool factors = false;
    for (int i = 0; i < d->as.mods.items.n; i++) {
        const ModItem *it = &d->as.mods.items.items[i];
        factors |= it->kind == MOD_MUL;
        for (int k = 0; it->kind == MOD_ONEOF && k < it->group.n; k++)
            factors |= it->group.items[k].kind == MOD_MUL;
    }
    if (factors)
        paragraph(s, "Applied in this order (the sheet's math order): modifiers add, factors multiply the total so far.",
                  "note");
    static const char *const headers[] = { "When", "Modifier", "" };
    table_begin(s, headers, 3);
    int groups = 0;
    s->decl = d;
    mod_rows(s, &d->as.mods.items, NULL, NULL, &groups);
    removed_rows(s, d);
    table_end(s);
}

/* A table row's values, each with its mark, and its words when the table
 * has a column of them; then the row's end. */
static void row_cells(Sheet *s, const Decl *d, const Row *row, const char *mark, const Decl *words, bool texts)
{
    for (int k = 0; k < row->cells.n; k++) {
        s->mark = row->cell_src ? part_mark(s, d, row->cell_src[k]) : mark;
        cell_value_text(s, row->cells.items[k], words);
    }
    if (texts) {
        s->mark = row->text ? mark : NULL;
        cell(s, row->text ? row->text : "", NULL);
    }
    row_end(s);
}

static void render_table(Sheet *s, const Decl *d)
{
    decl_heading(s, 3, signature(s, d), d);
    paragraph(s, d->doc, "doc");
    bool bands = d->kind == DECL_BANDS;
    int ncols = d->as.table.columns.n;
    bool texts = false;
    for (int r = 0; r < d->as.table.nrows; r++)
        texts |= d->as.table.rows[r].text != NULL;
    int nheaders = 1 + (ncols ? ncols : 1) + (texts ? 1 : 0);
    const char **headers = mem_alloc(sizeof(char *) * (size_t)(nheaders + 1));
    headers[0] = d->params.n ? d->params.items[0].name : "";
    if (ncols)
        for (int k = 0; k < ncols; k++)
            headers[1 + k] = key_text(&d->as.table.columns.items[k]);
    else
        headers[1] = bands ? "result" : "value";
    if (texts)
        headers[nheaders - 1] = "";
    table_begin(s, headers, nheaders);
    int block = -1;
    for (int r = 0; r < d->as.table.nrows; r++) {
        const Row *row = &d->as.table.rows[r];
        if (row->block != block && row->block >= 0) {
            /* a `column` block: its rows follow under its name */
            block = row->block;
            char *name = key_text(&d->as.table.blocks.items[block]);
            char *head = mem_alloc_atomic(strlen(name) + 32);
            sprintf(head, "%s = %s", d->params.n > 1 ? d->params.items[1].name : "column", name);
            row_begin(s);
            cell(s, head, "key");
            for (int k = 1; k < nheaders; k++)
                cell(s, "", NULL);
            row_end(s);
        }
        const char *mark = part_mark(s, d, row->src);
        row_begin(s);
        s->mark = with_new(mark ? mark : narrowed_mark(s, d, &row->keys), row_is_new(d, row));
        cell(s, keys_text(&row->keys), "key");
        const Decl *words = texts_of(s, d->ret.name);
        row_cells(s, d, row, mark, words, texts);
    }
    table_end(s);
}

/* A member's mark: the variant's that changed it, "new" when it added it. */
static const char *member_mark(const Sheet *s, const Decl *d, const Member *m)
{
    return with_new(part_mark(s, d, m->src), member_is_new(d, m->name));
}

/* After a choice's default: the mark and the default it replaced, when a
 * variant changed it. */
static const char *default_change(const Sheet *s, const Decl *d)
{
    for (const Decl *now = d; s->nhouse && now->was; now = now->was)
        if (strcmp(now->as.enm.deflt, now->was->as.enm.deflt) != 0) {
            const char *mark = level_mark(s, now);
            char *text = mem_alloc_atomic(strlen(mark) + strlen(now->was->as.enm.deflt) + 16);
            sprintf(text, "%s (was %s)", mark, now->was->as.enm.deflt);
            return text;
        }
    return "";
}

static void render_enum(Sheet *s, const Decl *d)
{
    static const char *const words[] = { "Enum", "Ladder", "Outcome", "Choice" };
    char title[256];
    snprintf(title, sizeof title, "%s: %s", words[d->as.enm.flavour], d->name);
    decl_heading(s, 3, title, d);
    paragraph(s, d->doc, "doc");
    if (d->as.enm.flavour == ENUM_LADDER)
        paragraph(s, "In order; a shift moves along it and stops at either end.", "note");
    if (d->as.enm.flavour == ENUM_CHOICE) {
        char line[512];
        snprintf(line, sizeof line, "%s%sUnless told otherwise: %s%s.", d->as.enm.prompt ? d->as.enm.prompt : "",
                 d->as.enm.prompt ? " — " : "", d->as.enm.deflt, default_change(s, d));
        paragraph(s, line, "note");
    }
    bool texts = false;
    for (int i = 0; i < d->as.enm.n; i++)
        texts |= d->as.enm.items[i].text != NULL;
    int nf = d->params.n;
    if (!texts && nf == 0) {
        /* just the names, in order */
        size_t len = 1;
        for (int i = 0; i < d->as.enm.n; i++)
            len += strlen(d->as.enm.items[i].name) + 6;   /* and " → " (5 bytes) or ", " */
        for (int i = 0; i < d->as.enm.n; i++) {
            const char *mark = member_mark(s, d, &d->as.enm.items[i]);
            len += mark ? strlen(mark) : 0;
        }
        char *list = mem_alloc_atomic(len);
        list[0] = '\0';
        for (int i = 0; i < d->as.enm.n; i++) {
            const char *mark = member_mark(s, d, &d->as.enm.items[i]);
            if (i)
                strcat(list, d->as.enm.flavour == ENUM_LADDER ? " → " : ", ");
            strcat(list, d->as.enm.items[i].name);
            strcat(list, mark ? mark : "");
        }
        paragraph(s, list, NULL);
        return;
    }
    const char **headers = mem_alloc(sizeof(char *) * (size_t)(nf + 3));
    headers[0] = "";
    headers[1] = "text";
    for (int f = 0; f < nf; f++)
        headers[2 + f] = d->params.items[f].name;
    table_begin(s, headers, 2 + nf);
    for (int i = 0; i < d->as.enm.n; i++) {
        const Member *m = &d->as.enm.items[i];
        row_begin(s);
        s->mark = member_mark(s, d, m);
        cell(s, m->name, "key");
        cell(s, m->text ? m->text : "", NULL);
        for (int f = 0; f < nf; f++) {
            const Expr *v = member_field(d, m, f);
            if (v)
                cell_value(s, v);
            else
                cell(s, "", NULL);
        }
        row_end(s);
    }
    table_end(s);
}

static char *words_of(const char *name);

/* A die's faces as the die shows them, in the order written: a strip of
 * one row, a cell per face (a symbol in its words). */
static void die_strip(Sheet *s, const Decl *d)
{
    const Program *prog = s->c->prog;
    const DieDesc *dd = NULL;
    for (int i = 0; i < prog->ndies && !dd; i++)
        if (!strcmp(prog->dies[i].die.name, d->name))
            dd = &prog->dies[i];
    if (!dd)
        return;
    const EnumDesc *e = dd->symbols ? &prog->enums[dd->symbols - 1] : NULL;
    const char **headers = mem_alloc(sizeof(char *) * (size_t)(dd->die.n + 1));
    for (int i = 0; i < dd->die.n; i++)
        headers[i] = "";
    table_begin(s, headers, dd->die.n);
    row_begin(s);
    for (int i = 0; i < dd->die.n; i++) {
        int32_t v = dd->written[i];
        char num[16];
        snprintf(num, sizeof num, "%d", (int)v);
        cell(s, !e ? num : e->texts[v] ? e->texts[v] : words_of(e->members[v]), NULL);
    }
    row_end(s);
    table_end(s);
}

/* "Die: Average (average die)", "Bag: Orders": a die's or bag's heading. */
static const char *die_title(const char *kind, const Decl *d)
{
    char *t = mem_alloc_atomic(strlen(kind) + strlen(d->name) + (d->as.die.text ? strlen(d->as.die.text) : 0) + 16);
    if (d->as.die.text)
        sprintf(t, "%s: %s (%s)", kind, d->name, d->as.die.text);
    else
        sprintf(t, "%s: %s", kind, d->name);
    return t;
}

/* A bag's contents: each item as written, over how many the bag holds. */
static void bag_contents(Sheet *s, const Decl *d)
{
    const Program *prog = s->c->prog;
    const BagDesc *b = NULL;
    for (int i = 0; i < prog->nbags && !b; i++)
        if (!strcmp(prog->bags[i].kinds.name, d->name))
            b = &prog->bags[i];
    if (!b)
        return;
    const EnumDesc *e = b->symbols ? &prog->enums[b->symbols - 1] : NULL;
    /* the items in the order first written, each once, with how many */
    const char **headers = mem_alloc(sizeof(char *) * (size_t)(b->nwritten + 1));
    int64_t *counts = mem_alloc_atomic(sizeof(int64_t) * (size_t)(b->nwritten + 1));
    int32_t *seen = mem_alloc_atomic(sizeof(int32_t) * (size_t)(b->nwritten + 1));
    int n = 0;
    for (int i = 0; i < b->nwritten; i++) {
        int32_t v = b->written_value[i];
        int k = 0;
        while (k < n && seen[k] != v)
            k++;
        if (k < n) {
            counts[k] += b->written_count[i];
            continue;
        }
        char *num = mem_alloc_atomic(16);
        snprintf(num, 16, "%d", (int)v);
        seen[n] = v;
        counts[n] = b->written_count[i];
        headers[n++] = !e ? num : e->texts[v] ? e->texts[v] : words_of(e->members[v]);
    }
    table_begin(s, headers, n);
    row_begin(s);
    for (int i = 0; i < n; i++) {
        char text[32];
        snprintf(text, sizeof text, "%lld", (long long)counts[i]);
        cell(s, text, NULL);
    }
    row_end(s);
    table_end(s);
}

static void render_bag(Sheet *s, const Decl *d)
{
    decl_heading(s, 3, die_title("Bag", d), d);
    paragraph(s, d->doc, "doc");
    paragraph(s, "Drawn without putting back until the run is over.", "note");
    bag_contents(s, d);
}

static void render_die(Sheet *s, const Decl *d)
{
    decl_heading(s, 3, die_title("Die", d), d);
    paragraph(s, d->doc, "doc");
    die_strip(s, d);
}

static void render_record(Sheet *s, const Decl *d)
{
    char title[256];
    snprintf(title, sizeof title, "Record: %s", d->name);
    decl_heading(s, 3, title, d);
    paragraph(s, d->doc, "doc");
    static const char *const headers[] = { "field", "type", "default" };
    table_begin(s, headers, 3);
    for (int i = 0; i < d->params.n; i++) {
        const Param *p = &d->params.items[i];
        row_begin(s);
        cell(s, p->name, "key");
        cell(s, p->type.name, NULL);
        s->mark = p->deflt ? part_mark(s, d, p->src) : NULL;
        cell(s, p->deflt ? expr_text(p->deflt) : "", NULL);
        row_end(s);
    }
    table_end(s);
}

/* The review's chart of a procedure that runs without arguments (every
 * parameter has a default) and rolls dice: a bar chart of its odds with
 * those defaults, when the exact engine counts them within a small budget
 * (HTML only; nothing when they cannot be counted so, are certain, or are
 * of a record).  Its errors are not the sheet's: they go nowhere. */
enum { REVIEW_CHART_BUDGET = 20000 };

static void review_chart(Sheet *s, const Decl *d)
{
    if (!s->html || !s->ctx || d->as.proc.odds != ODDS_NONE || !d->ret.name)
        return;
    for (int i = 0; i < d->params.n; i++)
        if (!d->params.items[i].deflt)
            return;
    const Module *m = s->c->module;
    for (int i = 0; i < m->n; i++)
        if (m->decls[i]->kind == DECL_RECORD && !strcmp(m->decls[i]->name, d->ret.name))
            return;
    FILE *sink = fopen("/dev/null", "w");
    if (!sink)
        return;
    muster_ctx quiet = *s->ctx;
    quiet.out = quiet.err = sink;
    diag_init(&quiet.diag, sink, false);
    quiet.quiet_fallback = true;
    muster_prob_opts opts = { .have_seed = 1, .seed = 1, .exact = 1, .budget = REVIEW_CHART_BUDGET };
    Odds o;
    if (api_compute_odds(&quiet, s->c, d->name, 0, NULL, &opts, opts.seed, &o) == MUSTER_OK && o.exact) {
        OddsTable t;
        api_odds_table(s->c, &opts, &o, &t);
        if (t.n > 1) {
            fputs("<figure class=\"chart\">\n", s->out);
            chart_odds_svg(s->out, &t);
            fputs("</figure>\n", s->out);
        }
    }
    fclose(sink);
}

static void render_proc(Sheet *s, const Decl *d)
{
    decl_heading(s, 3, signature(s, d), d);
    paragraph(s, d->doc ? d->doc : "(no description)", "doc");
    review_chart(s, d);
}

/* Whether d is on the sheet: written in the main file or, on a variant's
 * sheet, in one of the files of its chain (not in what they import). */
static bool on_sheet(const Sheet *s, const Decl *d)
{
    return d->src == s->c->src || d->src == s->root || mark_of(s, d->src);
}

static void render_examples(Sheet *s, const Module *m)
{
    bool any = false;
    for (int i = 0; i < m->n; i++) {
        const Decl *d = m->decls[i];
        if (d->kind != DECL_EXAMPLE || d->src != s->c->src)
            continue;   /* a base's examples may not hold under a variant */
        if (!any) {
            heading(s, 2, "Worked examples", NULL);
            fputs(s->html ? "<ul class=\"examples\">\n" : "", s->out);
            any = true;
        }
        fputs(s->html ? "<li>" : "- ", s->out);
        put(s, d->name);
        if (d->cite) {
            fputs(s->html ? " <span class=\"cite\">" : " (", s->out);
            put(s, d->cite);
            fputs(s->html ? "</span>" : ")", s->out);
        }
        fputs(s->html ? "</li>\n" : "\n", s->out);
    }
    if (any)
        fputs(s->html ? "</ul>\n" : "\n", s->out);
}

/* ---- a variant's house rules ---- */

/* "†", "‡", "§", "¶", then "†5", "†6", ... */
static const char *mark_text(int i)
{
    static const char *const marks[] = { "†", "‡", "§", "¶" };
    if (i < 4)
        return marks[i];
    char *text = mem_alloc_atomic(16);
    snprintf(text, 16, "†%d", i + 1);
    return text;
}

/* The chain of a variant's sheet: the module's variant headers up to the
 * main file's, innermost first (the loader puts a base before what changes
 * it); the root is the file of the module's first declaration as written. */
static void find_house(Sheet *s)
{
    const Decl *top = s->c->ruleset;
    const Module *m = s->c->module;
    if (!top || !top->as.ruleset.base || !m->n)
        return;
    s->house = mem_alloc(sizeof(House) * (size_t)(m->n + 1));
    for (int i = 0; i < m->n; i++) {
        const Decl *d = m->decls[i];
        if (d->kind != DECL_RULESET || !d->as.ruleset.base)
            continue;
        s->house[s->nhouse].header = d;
        s->house[s->nhouse].mark = mark_text(s->nhouse);
        s->nhouse++;
        if (d == top)
            break;
    }
    const Decl *first = m->decls[0];
    while (first->was)
        first = first->was;
    s->root = first->src;
}

static const char *setting(const Decl *header, const char *key)
{
    for (int i = 0; header && i < header->as.ruleset.n; i++)
        if (!strcmp(header->as.ruleset.items[i].key, key))
            return header->as.ruleset.items[i].value;
    return NULL;
}

/* The header of the ruleset the chain's variant i changes, or NULL. */
static const Decl *base_header(const Sheet *s, int i)
{
    if (i > 0)
        return s->house[i - 1].header;
    const Module *m = s->c->module;
    for (int k = 0; k < m->n; k++)
        if (m->decls[k]->kind == DECL_RULESET && m->decls[k]->src == s->root)
            return m->decls[k];
    return NULL;
}

/* The note variant i wrote itself (not one it kept from its base), or NULL. */
static const char *own_note(const Sheet *s, int i)
{
    const char *note = setting(s->house[i].header, "note");
    return note && note != setting(base_header(s, i), "note") ? note : NULL;
}

/* "A variant of TITLE (BASE)." */
static const char *variant_of(const Sheet *s)
{
    const Decl *top = s->house[s->nhouse - 1].header;
    const Decl *base = base_header(s, s->nhouse - 1);
    const char *file = top->as.ruleset.base;
    char *text = mem_alloc_atomic(strlen(file) + (base ? strlen(base->name) : 0) + 32);
    if (base)
        sprintf(text, "A variant of %s (%s).", base->name, file);
    else
        sprintf(text, "A variant of %s.", file);
    return text;
}

/* Each variant of the chain with its mark, title, file and note (its
 * reason), and what the marks mean. */
static void render_house(Sheet *s)
{
    if (!s->nhouse)
        return;
    heading(s, 2, "House rules", NULL);
    fputs(s->html ? "<ul class=\"house\">\n" : "", s->out);
    for (int i = 0; i < s->nhouse; i++) {
        const Decl *h = s->house[i].header;
        const char *note = own_note(s, i);
        fputs(s->html ? "<li><b>" : "- **", s->out);
        put(s, s->house[i].mark);
        fputs(s->html ? "</b> " : "** ", s->out);
        put(s, h->name);
        fputs(s->html ? " <span class=\"cite\">(" : " (", s->out);
        put(s, h->src->path);
        fputs(s->html ? ")</span>" : ")", s->out);
        if (note) {
            fputs(": ", s->out);
            s->one_line = true;
            put(s, note);
            s->one_line = false;
        }
        fputs(s->html ? "</li>\n" : "\n", s->out);
    }
    fputs(s->html ? "</ul>\n" : "\n", s->out);
    paragraph(s, "A house rule's mark follows each value, line and heading it changed; \"new\" marks what it added, "
              "and a modifier line struck through is one it took away.", "note");
}

/* ---- the table sheet: the script's order, players' words ---- */

/* "turret_jammed" as a player reads it: "turret jammed". */
static char *words_of(const char *name)
{
    char *w = mem_strdup(name);
    for (char *p = w; *p; p++)
        if (*p == '_')
            *p = ' ';
    return w;
}

/* A title from a name: "fire_table" -> "Fire table", "FireCritical" ->
 * "Fire critical". */
static char *title_of(const char *name)
{
    char *w = mem_alloc_atomic(2 * strlen(name) + 1), *o = w;
    for (const char *p = name; *p; p++) {
        bool cap = *p >= 'A' && *p <= 'Z';
        if (cap && p > name && p[-1] >= 'a' && p[-1] <= 'z') {
            *o++ = ' ';
            *o++ = (char)(*p - 'A' + 'a');
        } else
            *o++ = *p == '_' ? ' ' : *p;
    }
    *o = '\0';
    if (w[0] >= 'a' && w[0] <= 'z')
        w[0] = (char)(w[0] - 'a' + 'A');
    return w;
}

static int64_t gcd64(int64_t a, int64_t b)
{
    a = a < 0 ? -a : a;
    b = b < 0 ? -b : b;
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a ? a : 1;
}

/* n/d as a player reads it: "½", "1¼", "⅔", else "3/7". */
static char *fraction_text(int64_t n, int64_t d)
{
    static const struct { int n, d; const char *glyph; } glyphs[] = {
        { 1, 2, "½" }, { 1, 3, "⅓" }, { 2, 3, "⅔" }, { 1, 4, "¼" }, { 3, 4, "¾" }, { 1, 5, "⅕" },
        { 2, 5, "⅖" }, { 3, 5, "⅗" }, { 4, 5, "⅘" }, { 1, 6, "⅙" }, { 5, 6, "⅚" }, { 1, 8, "⅛" },
        { 3, 8, "⅜" }, { 5, 8, "⅝" }, { 7, 8, "⅞" },
    };
    char buf[64];
    if (d < 0) {
        n = -n;
        d = -d;
    }
    int64_t g = gcd64(n, d);
    n /= g;
    d /= g;
    if (d == 1) {
        snprintf(buf, sizeof buf, "%lld", (long long)n);
        return mem_strdup(buf);
    }
    const char *sign = n < 0 ? "-" : "";
    int64_t whole = (n < 0 ? -n : n) / d, part = (n < 0 ? -n : n) % d;
    for (size_t i = 0; i < sizeof glyphs / sizeof glyphs[0]; i++)
        if (glyphs[i].n == part && glyphs[i].d == d) {
            if (whole)
                snprintf(buf, sizeof buf, "%s%lld%s", sign, (long long)whole, glyphs[i].glyph);
            else
                snprintf(buf, sizeof buf, "%s%s", sign, glyphs[i].glyph);
            return mem_strdup(buf);
        }
    snprintf(buf, sizeof buf, "%lld/%lld", (long long)n, (long long)d);
    return mem_strdup(buf);
}

/* The declaration named `name` on the sheet's module, of a table kind. */
static const Decl *table_named(const Sheet *s, const char *name)
{
    const Module *m = s->c->module;
    for (int i = m->n - 1; i >= 0; i--)
        if ((m->decls[i]->kind == DECL_TABLE || m->decls[i]->kind == DECL_BANDS) && !strcmp(m->decls[i]->name, name))
            return m->decls[i];
    return NULL;
}

/* `formation_fraction(column)`: a one-key table looked up with a member
 * or a number written out; the cell it finds, or NULL. */
static const Expr *looked_up(const Sheet *s, const Expr *e)
{
    if (e->kind != EX_CALL || e->as.call.nargs != 1)
        return NULL;
    const Decl *t = table_named(s, e->as.call.callee);
    const Expr *a = e->as.call.args[0].value;
    if (!t || t->as.table.columns.n || t->as.table.blocks.n || (a->kind != EX_NAME && a->kind != EX_INT))
        return NULL;
    for (int r = 0; r < t->as.table.nrows; r++) {
        const Row *row = &t->as.table.rows[r];
        for (int k = 0; k < row->keys.n && row->cells.n == 1; k++) {
            const Key *key = &row->keys.items[k];
            bool hit = a->kind == EX_NAME ? key->kind == KEY_NAME && !strcmp(key->name, a->as.name)
                                          : key->kind != KEY_NAME && (key->lo_open || key->lo <= a->as.i)
                                                && (key->hi_open || a->as.i <= key->hi);
            if (hit)
                return row->cells.items[0];
        }
    }
    return NULL;
}

/* A number as a player reads it (1, -2, ½, 1¼), or NULL when e is not a
 * number written out (or a one-key table's cell for one). */
static char *player_number(const Sheet *s, const Expr *e)
{
    const Expr *cell = looked_up(s, e);
    if (cell)
        e = cell;
    if (e->kind == EX_INT)
        return fraction_text(e->as.i, 1);
    if (e->kind == EX_UNARY && e->as.unary.op == OPR_NEG && e->as.unary.operand->kind == EX_INT)
        return fraction_text(-e->as.unary.operand->as.i, 1);
    if (e->kind == EX_BINARY && e->as.binary.op == OPR_DIV && e->as.binary.left->kind == EX_INT
        && e->as.binary.right->kind == EX_INT && e->as.binary.right->as.i != 0)
        return fraction_text(e->as.binary.left->as.i, e->as.binary.right->as.i);
    return NULL;
}

/* The rest of a member's words after their head and its ':', '.' or dash. */
static const char *rest_of_words(const char *text, const char *head)
{
    const char *rest = text + strlen(head);
    while (*rest == ' ')
        rest++;
    if (*rest == ':' || *rest == '.' || *rest == '-')
        rest++;
    else if (!strncmp(rest, "–", 3) || !strncmp(rest, "—", 3))
        rest += 3;
    while (*rest == ' ')
        rest++;
    return rest;
}

/* An enum whose long words the table sheet prints once, in a legend at
 * the enum, and by their heads everywhere else (an outcome's words are
 * printed whole in the tables that give them). */
static bool has_legend(const Decl *e)
{
    if (!e || e->kind != DECL_ENUM)
        return false;
    bool any = false;
    const char **heads = mem_alloc(sizeof(char *) * (size_t)(e->as.enm.n + 1));
    for (int i = 0; i < e->as.enm.n; i++) {
        const Member *m = &e->as.enm.items[i];
        const char *head = api_words_head(m->text);
        any |= head != NULL;
        heads[i] = head ? head : m->text ? m->text : m->name;
        for (int j = 0; j < i; j++)
            if (!strcmp(heads[j], heads[i]))
                return false;   /* "Panic" twice: the heads would not say which */
    }
    return any;
}

static bool named(const Sheet *s, const Decl *d, const Decl *section);

/* A member's words on the table sheet: its head when its enum has a legend
 * the sheet prints (it is on it, and named when the sheet is of some parts
 * only), else the whole of them, as an outcome's are in a table of one
 * column of results. */
static const char *player_member(const Sheet *s, const Decl *e, const char *name)
{
    const char *t = member_text(e, name);
    bool whole = s->whole_words && e && e->as.enm.flavour == ENUM_OUTCOME;
    if (!whole && has_legend(e) && on_sheet(s, e) && named(s, e, NULL)) {
        const char *head = api_words_head(t);
        if (head)
            return head;
    }
    return t;
}

/* A cell's value in players' words: a member's wording, ✔/— for a
 * bool, a fraction as ½, '?' where the rules text gives none. */
static const char *player_value(Sheet *s, const Expr *e, const Decl *texts)
{
    switch (e->kind) {
    case EX_STR: return mem_strndup(e->as.str.bytes, e->as.str.len);
    case EX_BOOL: return e->as.b ? "✔" : "—";
    case EX_UNKNOWN: s->any_unknown = true; return "?";
    case EX_NA: return "–";
    case EX_NAME: {
        const char *t = player_member(s, texts, e->as.name);
        return t ? t : words_of(e->as.name);
    }
    default: {
        char *n = player_number(s, e);
        return n ? n : expr_text(e);
    }
    }
}

/* Whether a doc line (after its indentation) is a note on one of d's
 * parameters, "card: the firer's card" or "tn is the number": a porter's. */
static bool param_note(const Decl *d, const char *line)
{
    for (int i = 0; i < d->params.n; i++) {
        size_t n = strlen(d->params.items[i].name);
        if (!strncmp(line, d->params.items[i].name, n) && (line[n] == ':' || line[n] == ' '))
            return true;
    }
    return false;
}

/* A porter's note without its sentences on the procedure's inputs: a
 * sentence that starts with a parameter's name (`tn is the scenario's
 * number`, "failed_last_turn: ...") is for whoever runs the procedure,
 * not for a player at the table.  NULL when nothing is left. */
static bool names_input(const Decl *d, const char *sentence)
{
    bool code = *sentence == '`';
    for (int i = 0; i < d->params.n; i++) {
        const char *name = d->params.items[i].name;
        size_t n = strlen(name);
        const char *after = sentence + code + n;
        if (strncmp(sentence + code, name, n) || (code && *after++ != '`'))
            continue;
        if (*after == ':' || *after == ' ')
            return true;
    }
    return false;
}

/* Whether a sentence starts at n: a capital, a quotation, code, a list's
 * dash or a parameter's name. */
static bool starts_sentence(const Decl *d, const char *n)
{
    return (*n >= 'A' && *n <= 'Z') || *n == '"' || *n == '`' || *n == '-' || names_input(d, n);
}

/* Where the sentence of a note that starts at p ends, with the spaces
 * after it: after a '.' and spaces where a sentence starts, at a line
 * indented by two spaces where one starts (an item of the porter's list;
 * an indented line that does not start one goes on with the item, one not
 * indented ends it), or at a blank line. */
static const char *next_sentence(const Decl *d, const char *p, bool item)
{
    for (p++; *p; p++) {
        if (item && p[-1] == '\n' && p[0] != ' ' && p[0] != '\n')
            return p;   /* a line not indented ends the item */
        if (p[-1] == '\n' && p[0] == ' ' && p[1] == ' ' && starts_sentence(d, p + 2))
            return p;   /* an item starts here, with its two spaces */
        if (p[-1] == '\n' && p[0] == '\n')
            break;
        if (p[-1] != '.' || (*p != ' ' && *p != '\n'))
            continue;
        const char *n = p;
        while (*n == ' ' || *n == '\n')
            n++;
        if (starts_sentence(d, n))
            break;
    }
    while (*p == ' ' || *p == '\n') {   /* the spaces between go with the sentence before */
        if (p[0] == '\n' && p[1] == ' ' && p[2] == ' ')
            return p + 1;
        p++;
    }
    return p;
}

static const char *players_note(const Decl *d, const char *note)
{
    if (!note)
        return NULL;
    char *kept = mem_alloc_atomic(strlen(note) + 1), *k = kept;
    for (const char *p = note; *p;) {
        const char *body = p;
        while (*body == ' ')
            body++;
        const char *e = next_sentence(d, body, body - p >= 2 && (p == note || p[-1] == '\n'));
        if (!names_input(d, body)) {
            memcpy(k, p, (size_t)(e - p));
            k += e - p;
        }
        p = e;
    }
    *k = '\0';
    while (k > kept && (k[-1] == ' ' || k[-1] == '\n'))
        *--k = '\0';
    return *kept ? kept : NULL;
}

/* A doc comment split for the table sheet: its first sentence is the
 * caption, with the lines indented under it (not notes on parameters);
 * the rest, a porter's note, becomes a numbered footnote.
 * Returns the caption (NULL for none) and sets *note (or NULL). */
static char *caption_of(const Decl *d, const char **note)
{
    const char *doc = d->doc;
    *note = NULL;
    if (!doc || !*doc)
        return NULL;
    const char *p = doc;
    int depth = 0;   /* no sentence ends inside brackets */
    for (; *p; p++) {
        if (p[0] == '\n' && (p[1] == '\n' || (p[1] == ' ' && p[2] == ' ')))
            break;   /* a paragraph or an indented line ends the caption */
        depth += p[0] == '(' ? 1 : p[0] == ')' && depth ? -1 : 0;
        if ((p[0] != '.' && p[0] != ':' && p[0] != '?' && p[0] != '!') || depth)
            continue;
        if (p[0] == '.' && (p[1] == '.' || (p > doc && p[-1] == '.')))
            continue;   /* an ellipsis */
        const char *q = p + 1;
        while (*q == '"' || *q == ')' || *q == '\'')
            q++;
        if (*q == '\0') {
            p = q;
            break;
        }
        if ((*q != ' ' && *q != '\n') || p[0] == ':')
            continue;
        /* a sentence ends where the next one starts with a capital, a
         * quotation or a parameter's name, or after two spaces: "p. 49"
         * and "(Def. 5)" do not end one */
        const char *n = q;
        while (*n == ' ' || *n == '\n')
            n++;
        if ((*n >= 'A' && *n <= 'Z') || *n == '"' || *n == '(' || *n == '\0' || !strncmp(n, "“", 3)
            || (p[0] == '.' && !strncmp(q, "  ", 2)) || param_note(d, n)) {
            p = q;
            break;
        }
    }
    /* lines indented under the first sentence are printed with it */
    while (p[0] == '\n' && p[1] == ' ' && p[2] == ' ' && !param_note(d, p + 3)) {
        const char *eol = strchr(p + 1, '\n');
        p = eol ? eol : p + strlen(p);
    }
    const char *rest = p;
    while (*rest == ' ' || *rest == '\n')
        rest++;
    if (rest - p >= 3 && rest[-1] == ' ' && rest[-2] == ' ' && rest[-3] == '\n')
        rest -= 2;   /* a note that starts with an indented line keeps it on its own */
    if (*rest)
        *note = rest;
    return mem_strndup(doc, (size_t)(p - doc));
}

static int add_note(Sheet *s, const char *note)
{
    s->notes = ast_grow(s->notes, s->nnotes, &s->notes_cap, sizeof *s->notes);
    s->notes[s->nnotes++] = note;
    return s->nnotes;
}

/* The caption under a declaration's title, with its footnote's number. */
static void player_caption(Sheet *s, const Decl *d)
{
    const char *note;
    char *caption = caption_of(d, &note);
    note = players_note(d, note);
    if (!caption && !note)
        return;
    fputs(s->html ? "<p class=\"doc\">" : "", s->out);
    if (caption)
        prose(s, caption);
    if (note)
        fprintf(s->out, s->html ? "<sup class=\"fn\">%d</sup>" : " [%d]", add_note(s, note));
    fputs(s->html ? "</p>\n" : "\n\n", s->out);
}

static void player_heading(Sheet *s, const Decl *d, const char *title)
{
    decl_heading(s, 3, title ? title : title_of(d->name), d);
    player_caption(s, d);
}

/* A block: a heading and what it heads, kept in one column, unless it
 * has more rows than a column holds (COLUMN_ROWS, about, at the sheet's
 * type), or is a list of steps of more than LONG_STEPS lines: a long one
 * may go on in the next column (its heading still stays with its first
 * rows).  Print engines do not keep a block to one page while letting it
 * change columns, so a table that fits a column never breaks at all. */
enum { COLUMN_ROWS = 60, LONG_STEPS = 14 };

static void open_block(Sheet *s, bool may_break)
{
    fputs(!s->html ? "" : may_break ? "<div class=\"block long\">\n" : "<div class=\"block\">\n", s->out);
}

/* The lines of a list of steps, its sub-steps too. */
static int step_lines(const SeqList *items)
{
    int n = items->n;
    for (int i = 0; i < items->n; i++)
        n += step_lines(&items->items[i].children);
    return n;
}

static void close_block(Sheet *s)
{
    fputs(s->html ? "</div>\n" : "", s->out);
}

/* Bands written in column blocks, each row giving a member: printed as
 * such a table is printed in a rules text, a row per result (in the
 * enum's order), a column per block holding the numbers that give it, the
 * result's words last.  False (and nothing written) when d is not such
 * bands, or a house rule marks it (its marks are per row). */
static bool pivot_bands(Sheet *s, const Decl *d, const Decl *words, const Decl *colkeys)
{
    if (d->kind != DECL_BANDS || d->as.table.blocks.n < 2 || d->as.table.blocks.n > 8 || !words
        || house_touched(s, d))
        return false;
    for (int r = 0; r < d->as.table.nrows; r++)
        if (d->as.table.rows[r].block < 0 || d->as.table.rows[r].cells.n != 1 || d->as.table.rows[r].cells.items[0]->kind != EX_NAME
            || d->as.table.rows[r].text)
            return false;
    int nb = d->as.table.blocks.n;
    const char **headers = mem_alloc(sizeof(char *) * (size_t)(nb + 2));
    for (int b = 0; b < nb; b++) {
        const Key *bk = &d->as.table.blocks.items[b];
        const char *label = bk->kind == KEY_NAME ? player_member(s, colkeys, bk->name) : NULL;
        headers[b] = label ? label : bk->kind == KEY_NAME ? words_of(bk->name) : key_text(bk);
    }
    headers[nb] = "result";
    table_begin(s, headers, nb + 1);
    for (int i = 0; i < words->as.enm.n; i++) {
        const Member *m = &words->as.enm.items[i];
        char **in = mem_alloc(sizeof(char *) * (size_t)nb);
        bool any = false;
        for (int r = 0; r < d->as.table.nrows; r++) {
            const Row *row = &d->as.table.rows[r];
            if (strcmp(row->cells.items[0]->as.name, m->name))
                continue;
            char *k = keys_text(&row->keys), *was = in[row->block];
            if (was) {
                char *both = mem_alloc_atomic(strlen(was) + strlen(k) + 3);
                sprintf(both, "%s, %s", was, k);
                k = both;
            }
            in[row->block] = k;
            any = true;
        }
        if (!any)
            continue;
        row_begin(s);
        for (int b = 0; b < nb; b++)
            cell(s, in[b] ? in[b] : "–", "key");
        cell(s, m->text ? m->text : words_of(m->name), NULL);
        row_end(s);
    }
    table_end(s);
    return true;
}

/* A row's keys in players' words. */
static char *row_key_text(const Sheet *s, const Row *row, const Decl *keys)
{
    char *key = mem_strdup("");
    for (int i = 0; i < row->keys.n; i++) {
        const Key *k = &row->keys.items[i];
        const char *t = k->kind == KEY_NAME ? player_member(s, keys, k->name) : NULL;
        const char *one = t ? t : k->kind == KEY_NAME ? words_of(k->name) : key_text(k);
        char *both = mem_alloc_atomic(strlen(key) + strlen(one) + 3);
        sprintf(both, "%s%s%s", key, i ? ", " : "", one);
        key = both;
    }
    return key;
}

/* The characters of the longest word of text: a cell is no narrower when
 * words break only between words (and after a '/'). */
static int longest_word(const char *t)
{
    int best = 0, n = 0;
    for (; t && *t; t++) {
        if (*t == ' ' || *t == '\n' || *t == '/') {
            n = *t == '/';
            if (n > best)
                best = n;
            continue;
        }
        if (((unsigned char)*t & 0xC0) != 0x80 && ++n > best)
            best = n;
    }
    return best;
}

/* How a table fits a column of the sheet: its words unbroken are about
 * s->wide characters across at most (as measured on the rulesets' sheets:
 * 48 on A4, 44 on the narrower Letter).  A wider one gets upright headers
 * when its cells are short (a grid of marks or numbers), else breaks its
 * words anywhere. */
enum { SHORT_CELL = 4, SHORT_KEY = 10 };

static void fit_table(Sheet *s, const Decl *d, const char *const *headers, int nheaders, const Decl *keys,
                      const Decl *words)
{
    int *most = mem_alloc(sizeof(int) * (size_t)nheaders);
    for (int k = 0; k < nheaders; k++)
        most[k] = 0;
    bool short_cells = true;
    for (int r = 0; r < d->as.table.nrows; r++) {
        const Row *row = &d->as.table.rows[r];
        int w = longest_word(row_key_text(s, row, keys));
        most[0] = w > most[0] ? w : most[0];
        for (int k = 0; k < row->cells.n && 1 + k < nheaders; k++) {
            bool any = s->any_unknown;
            w = longest_word(player_value(s, row->cells.items[k], words));
            s->any_unknown = any;
            most[1 + k] = w > most[1 + k] ? w : most[1 + k];
            short_cells &= w <= SHORT_CELL;
        }
        if (row->text) {
            short_cells = false;
            w = longest_word(row->text);
            most[nheaders - 1] = w > most[nheaders - 1] ? w : most[nheaders - 1];
        }
    }
    int across = 0, heads = 0;
    for (int k = 0; k < nheaders; k++) {
        int h = longest_word(headers[k]);
        across += (h > most[k] ? h : most[k]) + 1;
        heads += (k ? most[k] : h > most[k] ? h : most[k]) + 1;
    }
    s->vertical = across > s->wide && short_cells && heads <= s->wide;
    s->tight = across > s->wide && !s->vertical;
}

/* Whether the text gives no cell of table d: every cell is '?', and no
 * row has words of its own. */
static bool none_given(const Decl *d)
{
    for (int r = 0; r < d->as.table.nrows; r++) {
        const Row *row = &d->as.table.rows[r];
        if (row->text)
            return false;
        for (int k = 0; k < row->cells.n; k++)
            if (row->cells.items[k]->kind != EX_UNKNOWN)
                return false;
    }
    return d->as.table.nrows > 0;
}

static void table_body(Sheet *s, const Decl *d);

static void players_table(Sheet *s, const Decl *d)
{
    s->whole_words = d->as.table.columns.n <= 1;
    table_body(s, d);
    s->whole_words = false;
}

static void table_body(Sheet *s, const Decl *d)
{
    if (none_given(d) && !house_touched(s, d)) {
        /* a grid of '?' says no more than a line does */
        open_block(s, false);
        player_heading(s, d, NULL);
        s->any_unknown = true;
        paragraph(s, "Every value: ? — the rules text does not give this table.", "note");
        close_block(s);
        return;
    }
    open_block(s, d->as.table.nrows > COLUMN_ROWS);
    player_heading(s, d, NULL);
    int ncols = d->as.table.columns.n;
    const Decl *keys = d->params.n ? texts_of(s, d->params.items[0].type.name) : NULL;
    const Decl *colkeys = d->params.n > 1 ? texts_of(s, d->params.items[1].type.name) : NULL;
    bool texts = false;
    for (int r = 0; r < d->as.table.nrows; r++)
        texts |= d->as.table.rows[r].text != NULL;
    int nheaders = 1 + (ncols ? ncols : 1) + (texts ? 1 : 0);
    const char **headers = mem_alloc(sizeof(char *) * (size_t)(nheaders + 1));
    headers[0] = d->params.n ? words_of(d->params.items[0].name) : "";
    for (int k = 0; k < ncols; k++) {
        const Key *key = &d->as.table.columns.items[k];
        const char *t = key->kind == KEY_NAME ? player_member(s, colkeys, key->name) : NULL;
        headers[1 + k] = t ? t : key->kind == KEY_NAME ? words_of(key->name) : key_text(key);
    }
    if (!ncols)
        headers[1] = d->kind == DECL_BANDS ? "result" : d->ret.name && !strcmp(d->ret.name, "bool") ? "" : "value";
    if (texts)
        headers[nheaders - 1] = "";
    const Decl *words = texts_of(s, d->ret.name);
    if (pivot_bands(s, d, words, colkeys)) {
        close_block(s);
        return;
    }
    fit_table(s, d, headers, nheaders, keys, words);
    table_begin(s, headers, nheaders);
    s->vertical = s->tight = false;
    int block = -1;
    for (int r = 0; r < d->as.table.nrows; r++) {
        const Row *row = &d->as.table.rows[r];
        if (row->block != block && row->block >= 0) {
            block = row->block;
            const Key *bk = &d->as.table.blocks.items[block];
            const char *t = bk->kind == KEY_NAME ? player_member(s, colkeys, bk->name) : NULL;
            row_begin(s);
            cell(s, t ? t : bk->kind == KEY_NAME ? words_of(bk->name) : key_text(bk), "block");
            for (int k = 1; k < nheaders; k++)
                cell(s, "", "block");
            row_end(s);
        }
        const char *mark = part_mark(s, d, row->src);
        row_begin(s);
        s->mark = with_new(mark ? mark : narrowed_mark(s, d, &row->keys), row_is_new(d, row));
        const char *key = row_key_text(s, row, keys);
        cell(s, key, strlen(key) <= SHORT_KEY ? "key nw" : "key");   /* "1–2", "8 or more" on one line */
        row_cells(s, d, row, mark, words, texts);
    }
    table_end(s);
    close_block(s);
}

/* A modifier's amount as a player reads it: "+1", "-2", "× ½", "+1 each". */
static char *player_amount(Sheet *s, const ModItem *it)
{
    if (it->kind == MOD_NOTE) {
        s->any_unknown |= !strcmp(it->says, "?");
        return mem_strdup(it->says);
    }
    char *n = player_number(s, it->value);
    const Expr *e = it->value, *cell = looked_up(s, e);
    if (cell && cell->kind == EX_UNKNOWN) {
        s->any_unknown = true;
        return mem_strdup("?");
    }
    /* an amount the player supplies (a parameter) reads as its words; one
     * a table gives, as a pointer to that table */
    const char *v = n ? n : e->kind == EX_NAME ? words_of(e->as.name) : NULL;
    if (!v && e->kind == EX_CALL) {
        char *see = mem_alloc_atomic(strlen(e->as.call.callee) + 8);
        sprintf(see, "%s%s", table_named(s, e->as.call.callee) ? "see " : "", title_of(e->as.call.callee));
        v = see;
    }
    if (!v)
        v = expr_text(e);
    char buf[256];
    if (it->kind == MOD_MUL)
        snprintf(buf, sizeof buf, "× %s", v);
    else if (it->kind == MOD_BASE)
        snprintf(buf, sizeof buf, "%s", v);
    else
        snprintf(buf, sizeof buf, "%s%s%s", n && v[0] != '-' ? "+" : "", v, it->kind == MOD_EACH ? " each" : "");
    return mem_strdup(buf);
}

static void players_mod_rows(Sheet *s, const ModList *items, const char *outer)
{
    for (int i = 0; i < items->n; i++) {
        const ModItem *it = &items->items[i];
        const char *mark = line_mark(s, it, outer);
        if (it->kind == MOD_ONEOF) {
            row_begin(s);
            cell(s, "only one of:", "group");
            cell(s, "", NULL);
            row_end(s);
            players_mod_rows(s, &it->group, part_mark(s, s->decl, it->src));
            continue;
        }
        row_begin(s);
        const char *what = it->label ? it->label : it->cond ? expr_text(it->cond) : "";
        if (it->kind == MOD_BASE)
            what = it->label ? it->label : "start at";
        if (it->kind == MOD_CAP) {
            const Key *r = &it->range;
            char *v = mem_alloc_atomic(96);
            if (r->lo_open)
                snprintf(v, 96, "at most %lld", (long long)r->hi);
            else if (r->hi_open)
                snprintf(v, 96, "at least %lld", (long long)r->lo);
            else
                snprintf(v, 96, "%lld to %lld", (long long)r->lo, (long long)r->hi);
            cell(s, it->label ? it->label : "total", outer ? "in-group" : NULL);
            s->mark = mark;
            cell(s, v, "mod");
        } else {
            cell(s, what, outer || (items != &s->decl->as.mods.items) ? "in-group" : NULL);
            s->mark = mark;
            cell(s, player_amount(s, it), "mod");
        }
        row_end(s);
    }
}

static void players_mods(Sheet *s, const Decl *d)
{
    open_block(s, d->as.mods.items.n > COLUMN_ROWS);
    player_heading(s, d, NULL);
    static const char *const headers[] = { "", "" };
    table_begin(s, headers, 2);
    s->decl = d;
    players_mod_rows(s, &d->as.mods.items, NULL);
    int groups = 0;
    if (s->nhouse) {
        /* removed lines, struck through, as in the review */
        for (const Decl *now = d; now->was; now = now->was)
            removed_lines(s, &now->was->as.mods.items, now, d, &groups);
    }
    table_end(s);
    close_block(s);
}

/* Whether every result of outcome d is a cell of a table or bands on the
 * sheet (so the sheet shows each in its words already), unless a house
 * rule changed it (its marks are shown at the outcome). */
static bool all_tabled(const Sheet *s, const Decl *d)
{
    if (house_touched(s, d))
        return false;
    const Module *m = s->c->module;
    for (int i = 0; i < d->as.enm.n; i++) {
        const Member *mem = &d->as.enm.items[i];
        bool found = false;
        for (int k = 0; k < m->n && !found; k++) {
            const Decl *t = m->decls[k];
            if ((t->kind != DECL_TABLE && t->kind != DECL_BANDS) || !t->ret.name || strcmp(t->ret.name, d->name))
                continue;
            for (int r = 0; r < t->as.table.nrows && !found; r++)
                for (int c = 0; c < t->as.table.rows[r].cells.n && !found; c++) {
                    const Expr *e = t->as.table.rows[r].cells.items[c];
                    found = e->kind == EX_NAME && !strcmp(e->as.name, mem->name);
                }
        }
        if (!found || !mem->text)
            return false;
    }
    return true;
}

/* Whether the sheet shows members of outcome d by their heads: a table
 * of several columns of results that gives them or is keyed by d, or an
 * odds table keyed by d. */
static bool by_heads(const Sheet *s, const Decl *d)
{
    const Module *m = s->c->module;
    for (int k = 0; k < m->n; k++) {
        const Decl *t = m->decls[k];
        if (!on_sheet(s, t))
            continue;
        bool keyed = false;
        for (int i = 0; i < t->params.n; i++)
            keyed |= t->params.items[i].type.name && !strcmp(t->params.items[i].type.name, d->name);
        bool gives = t->ret.name && !strcmp(t->ret.name, d->name);
        if (t->kind == DECL_PROC ? t->as.proc.odds != ODDS_NONE && keyed
                                 : (t->kind == DECL_TABLE || t->kind == DECL_BANDS) && t->as.table.columns.n > 1
                                       && (keyed || gives))
            return true;
    }
    return false;
}

/* Whether a table, bands block or odds table on the sheet has a key of
 * enum d, so that its rows or columns show every member in its words,
 * unless a house rule changed d (its marks are shown at the enum). */
static bool keyed_by(const Sheet *s, const Decl *d)
{
    if (house_touched(s, d))
        return false;
    const Module *m = s->c->module;
    for (int k = 0; k < m->n; k++) {
        const Decl *t = m->decls[k];
        bool keyed = t->kind == DECL_TABLE || t->kind == DECL_BANDS
                     || (t->kind == DECL_PROC && t->as.proc.odds != ODDS_NONE);
        if (!keyed || !on_sheet(s, t))
            continue;
        for (int i = 0; i < t->params.n; i++)
            if (t->params.items[i].type.name && !strcmp(t->params.items[i].type.name, d->name))
                return true;
    }
    return false;
}

/* A bag: its name and what it holds. */
static void players_bag(Sheet *s, const Decl *d)
{
    open_block(s, false);
    player_heading(s, d, d->as.die.text ? title_of(d->as.die.text) : NULL);
    bag_contents(s, d);
    close_block(s);
}

/* A die of its own faces: its name and its strip of faces. */
static void players_die(Sheet *s, const Decl *d)
{
    open_block(s, false);
    player_heading(s, d, d->as.die.text ? title_of(d->as.die.text) : NULL);
    die_strip(s, d);
    close_block(s);
}

static void players_enum(Sheet *s, const Decl *d)
{
    bool texts = false;
    for (int i = 0; i < d->as.enm.n; i++)
        texts |= d->as.enm.items[i].text != NULL;
    int nf = d->params.n;
    bool legend = has_legend(d);
    bool outcome = d->as.enm.flavour == ENUM_OUTCOME;
    if (!nf && d->as.enm.flavour != ENUM_LADDER && d->as.enm.flavour != ENUM_CHOICE && !legend
        && !(texts && d->doc && !keyed_by(s, d)) && !(texts && outcome && !all_tabled(s, d)))
        return;   /* a plain enum: its words are read in the tables and lines that use them (unless the
                     porter documents it, as a list of the text's, and no table is keyed by it) */
    bool tabled = outcome && all_tabled(s, d);
    if (tabled && !(legend && by_heads(s, d)))
        return;   /* so are an outcome's when a table gives each result: its fields are the porter's */
    open_block(s, d->as.enm.n > COLUMN_ROWS);
    player_heading(s, d, NULL);
    if (d->as.enm.flavour == ENUM_CHOICE) {
        const char *t = member_text(d, d->as.enm.deflt);
        char line[512];
        snprintf(line, sizeof line, "%s%sUnless told otherwise: %s%s.", d->as.enm.prompt ? d->as.enm.prompt : "",
                 d->as.enm.prompt ? " — " : "", t ? t : words_of(d->as.enm.deflt), default_change(s, d));
        paragraph(s, line, "note");
    }
    if (legend && (!nf || tabled)) {
        /* long words: each member's head, then the rest of its words (the
         * tables give each result by its head) */
        static const char *const headers[] = { "", "" };
        table_begin(s, headers, 2);
        for (int i = 0; i < d->as.enm.n; i++) {
            const Member *m = &d->as.enm.items[i];
            const char *head = api_words_head(m->text);
            const char *rest = head ? rest_of_words(m->text, head) : "";
            row_begin(s);
            s->mark = member_mark(s, d, m);
            cell(s, head ? head : m->text ? m->text : words_of(m->name), "key");
            cell(s, rest, NULL);
            row_end(s);
        }
        table_end(s);
        close_block(s);
        return;
    }
    if (d->as.enm.flavour == ENUM_LADDER || (!nf && d->as.enm.flavour != ENUM_OUTCOME)) {
        /* in order, in their words */
        fputs(s->html ? "<p class=\"chain\">" : "", s->out);
        for (int i = 0; i < d->as.enm.n; i++) {
            const Member *m = &d->as.enm.items[i];
            if (i)
                put(s, d->as.enm.flavour == ENUM_LADDER ? " → " : " · ");
            put(s, m->text ? m->text : words_of(m->name));
            const char *mark = member_mark(s, d, m);
            if (mark)
                put(s, mark);
        }
        fputs(s->html ? "</p>\n" : "\n\n", s->out);
        close_block(s);
        return;
    }
    if (!nf) {
        /* results, or long words: a list, a member a line */
        fputs(s->html ? "<ul class=\"members\">\n" : "", s->out);
        for (int i = 0; i < d->as.enm.n; i++) {
            const Member *m = &d->as.enm.items[i];
            fputs(s->html ? "<li>" : "- ", s->out);
            s->one_line = true;
            put(s, m->text ? m->text : words_of(m->name));
            s->one_line = false;
            const char *mark = member_mark(s, d, m);
            if (mark)
                put(s, mark);
            fputs(s->html ? "</li>\n" : "\n", s->out);
        }
        fputs(s->html ? "</ul>\n" : "\n", s->out);
        close_block(s);
        return;
    }
    const char **headers = mem_alloc(sizeof(char *) * (size_t)(nf + 2));
    headers[0] = "";
    for (int f = 0; f < nf; f++)
        headers[1 + f] = words_of(d->params.items[f].name);
    table_begin(s, headers, 1 + nf);
    for (int i = 0; i < d->as.enm.n; i++) {
        const Member *m = &d->as.enm.items[i];
        row_begin(s);
        s->mark = member_mark(s, d, m);
        cell(s, m->text ? m->text : words_of(m->name), "key");
        for (int f = 0; f < nf; f++) {
            const Expr *v = member_field(d, m, f);
            cell(s, v ? player_value(s, v, texts_of(s, d->params.items[f].type.name)) : "", NULL);
        }
        row_end(s);
    }
    table_end(s);
    close_block(s);
}

/* The values an odds table's parameter takes: texts for the heading and
 * NAME=VALUE arguments for prob. */
static int odds_values(const Sheet *s, const Param *p, const char ***labels, const char ***args)
{
    const Decl *e = texts_of(s, p->type.name);
    int n = e ? e->as.enm.n : !strcmp(p->type.name, "bool") ? 2 : p->has_range ? (int)(p->hi - p->lo + 1) : 0;
    *labels = mem_alloc(sizeof(char *) * (size_t)(n + 1));
    *args = mem_alloc(sizeof(char *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        char value[64];
        if (e) {
            const Member *m = &e->as.enm.items[i];
            const char *t = player_member(s, e, m->name);
            (*labels)[i] = t ? t : words_of(m->name);
            snprintf(value, sizeof value, "%s", m->name);
        } else if (!strcmp(p->type.name, "bool")) {
            (*labels)[i] = i ? "—" : "✔";
            snprintf(value, sizeof value, "%s", i ? "false" : "true");
        } else {
            snprintf(value, sizeof value, "%lld", (long long)(p->lo + i));
            (*labels)[i] = mem_strdup(value);
        }
        char *arg = mem_alloc_atomic(strlen(p->name) + strlen(value) + 2);
        sprintf(arg, "%s=%s", p->name, value);
        (*args)[i] = arg;
    }
    return n;
}

/* One cell of an odds table: "58%" (or the mean), and the exact fraction. */
static void odds_cell(Sheet *s, const Decl *d, char *const *args, int nargs)
{
    double v, unknown;
    char *exact;
    bool simulated;
    int st = api_odds_number(s->ctx, s->c, d->name, nargs, args, d->as.proc.odds == ODDS_MEAN, &v, &exact,
                             &simulated, &unknown);
    char text[64];
    if (st != MUSTER_OK) {
        cell(s, "error", "unknown");
        return;
    }
    const char *approx = simulated ? "≈" : "";
    if (unknown > 0) {
        /* some runs reach a '?': a chance lies between what is known and
         * that plus the unknown share; a mean is not known */
        s->any_unknown = true;
        if (d->as.proc.odds == ODDS_MEAN || unknown >= 1)
            snprintf(text, sizeof text, "?");
        else
            snprintf(text, sizeof text, "%s%.0f–%.0f%% ?", approx, v * 100, (v + unknown) * 100);
        exact = NULL;
    } else if (d->as.proc.odds == ODDS_MEAN)
        snprintf(text, sizeof text, "%s%.1f", approx, v);
    else if (v > 0 && v < 0.005)
        snprintf(text, sizeof text, "%s<1%%", approx);
    else if (v < 1 && v > 0.995)
        snprintf(text, sizeof text, "%s>99%%", approx);
    else
        snprintf(text, sizeof text, "%s%.0f%%", approx, v * 100);
    if (s->html) {
        fprintf(s->out, "<td class=\"odds%s\"", unknown > 0 ? " unknown" : "");
        if (exact) {
            fputs(" title=\"", s->out);
            put(s, exact);
            fputc('"', s->out);
        }
        fputc('>', s->out);
        put(s, text);
        fputs("</td>", s->out);
    } else {
        fputc(' ', s->out);
        put(s, text);
        fputs(" |", s->out);
    }
}

/* An odds table: the chance of its claim (or the mean of its number) for
 * every value of its parameters, the first down the side, the second
 * across. */
static void players_odds(Sheet *s, const Decl *d)
{
    open_block(s, false);
    player_heading(s, d, d->as.proc.title);
    const char **rl = NULL, **ra = NULL, **cl = NULL, **ca = NULL;
    int nr = d->params.n > 0 ? odds_values(s, &d->params.items[0], &rl, &ra) : 1;
    int nc = d->params.n > 1 ? odds_values(s, &d->params.items[1], &cl, &ca) : 1;
    const char **headers = mem_alloc(sizeof(char *) * (size_t)(nc + 2));
    headers[0] = d->params.n ? words_of(d->params.items[0].name) : "";
    if (d->params.n > 1) {
        char *corner = mem_alloc_atomic(strlen(headers[0]) + strlen(d->params.items[1].name) + 8);
        sprintf(corner, "%s \\ %s", headers[0], words_of(d->params.items[1].name));
        headers[0] = corner;
    }
    for (int k = 0; k < nc; k++)
        headers[1 + k] = d->params.n > 1 ? cl[k] : d->as.proc.odds == ODDS_MEAN ? "mean" : "chance";
    table_begin(s, headers, 1 + nc);
    for (int r = 0; r < nr; r++) {
        row_begin(s);
        cell(s, d->params.n ? rl[r] : "", "key");
        for (int k = 0; k < nc; k++) {
            char *args[2];
            int nargs = 0;
            if (d->params.n > 0)
                args[nargs++] = (char *)ra[r];
            if (d->params.n > 1)
                args[nargs++] = (char *)ca[k];
            odds_cell(s, d, args, nargs);
        }
        row_end(s);
    }
    table_end(s);
    close_block(s);
}

static void players_proc(Sheet *s, const Decl *d)
{
    if (d->as.proc.odds != ODDS_NONE) {
        players_odds(s, d);
        return;
    }
    if (!d->doc)
        return;
    /* a procedure is a line of text: its title, then its caption */
    const char *note;
    char *caption = caption_of(d, &note);
    note = players_note(d, note);
    const char *mark = decl_mark(s, d);
    const char *title = title_of(d->name);
    /* a caption that starts with the title ("Rally (End Phase): ...")
     * gives its own first words as the title */
    size_t n = strlen(title);
    if (caption && !strncasecmp(caption, title, n) && strchr(":( ,", caption[n]) && caption[n]) {
        title = mem_strndup(caption, n);
        caption += n;
    }
    fputs(s->html ? "<p class=\"doc proc-line\"><b>" : "**", s->out);
    put(s, title);
    if (mark) {
        put(s, " ");
        put(s, mark);
    }
    fputs(s->html ? "</b>" : "**", s->out);
    if (caption) {
        if (*caption != ':' && *caption != ',' && *caption != ' ')
            put(s, " ");
        prose(s, caption);
    }
    if (note)
        fprintf(s->out, s->html ? "<sup class=\"fn\">%d</sup>" : " [%d]", add_note(s, note));
    fputs(s->html ? "</p>\n" : "\n\n", s->out);
}

static void players_sequence(Sheet *s, const Decl *d)
{
    open_block(s, step_lines(&d->as.seq.items) > LONG_STEPS);
    const char *title = title_of(d->name);
    decl_heading(s, 3, title, d);
    player_caption(s, d);
    /* one phase that the title names ("Fire" of "Fire procedure"): its steps */
    const SeqList *steps = &d->as.seq.items;
    const SeqItem *only = steps->n == 1 ? &steps->items[0] : NULL;
    if (only && only->phase && !only->proc && strcasestr(title, only->text))
        steps = &only->children;
    if (s->html)
        render_steps(s, steps);
    else {
        render_steps_md(s, steps, 0);
        fputc('\n', s->out);
    }
    close_block(s);
}

static void players_notes(Sheet *s)
{
    if (!s->nnotes && !s->any_unknown)
        return;
    fputs(s->html ? "<div class=\"notes\">\n" : "", s->out);
    heading(s, 2, "Notes", NULL);
    if (s->any_unknown)
        paragraph(s, "? — the rules text does not give this value.", "note");
    fputs(s->html ? "<ol class=\"notes\">\n" : "", s->out);
    for (int i = 0; i < s->nnotes; i++) {
        int n = fprintf(s->out, s->html ? "<li>" : "%d. ", i + 1);
        char indent[16];
        snprintf(indent, sizeof indent, "%*s", n > 0 && n < 16 ? n : 0, "");
        s->indent = indent;   /* a note's later lines and paragraphs stay in its item */
        prose(s, s->notes[i]);
        s->indent = "";
        fputs(s->html ? "</li>\n" : "\n", s->out);
    }
    fputs(s->html ? "</ol>\n</div>\n" : "\n", s->out);
}

bool sheet_has_part(const Compiled *c, const char *name)
{
    const Module *m = c->module;
    for (int i = 0; i < m->n; i++)
        if (m->decls[i]->name && !strcmp(m->decls[i]->name, name))
            return true;
    return false;
}

/* Whether `muster sheet FILE NAME...` names d, or the section it is in. */
static bool named(const Sheet *s, const Decl *d, const Decl *section)
{
    if (!s->nonly)
        return true;
    for (int i = 0; i < s->nonly; i++)
        if ((d->name && !strcmp(d->name, s->only[i])) || (section && !strcmp(section->name, s->only[i])))
            return true;
    return false;
}

/* What a section's source adds to its title: none when it repeats the
 * title, the rest when it starts with it ("Terrain, p. 34" under
 * "Terrain" is "p. 34"). */
static const char *section_cite(const Decl *section)
{
    const char *cite = section->cite, *title = section->name;
    if (!cite)
        return NULL;
    size_t n = strlen(title);
    const char *rest = cite + n;
    if (strncasecmp(cite, title, n) || (*rest && !strchr(",;: ", *rest)))
        return cite;   /* not the title, or a longer word */
    while (*rest && strchr(",;: ", *rest))
        rest++;
    return *rest ? rest : NULL;
}

/* The declarations in the order the porter wrote them, under the sections
 * the script names. */
static void render_players(Sheet *s)
{
    const Module *m = s->c->module;
    const Decl *section = NULL, *heading_due = NULL;
    FILE *out = s->out;
    fputs(s->html ? "<main class=\"qrs\">\n" : "", out);
    for (int i = 0; i < m->n; i++) {
        const Decl *d = m->decls[i];
        if (d->kind == DECL_SECTION)
            section = d;
        if (!on_sheet(s, d) || !named(s, d, section))
            continue;
        if (d->kind == DECL_SECTION) {
            heading_due = d;   /* written before the first thing it heads: a section with none has none */
            continue;
        }
        /* each declaration to memory first: it may print nothing */
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        if (!mem)
            continue;
        s->out = mem;
        switch (d->kind) {
        case DECL_SEQUENCE: players_sequence(s, d); break;
        case DECL_MODIFIERS: players_mods(s, d); break;
        case DECL_BANDS: case DECL_TABLE: players_table(s, d); break;
        case DECL_ENUM: players_enum(s, d); break;
        case DECL_DIE: players_die(s, d); break;
        case DECL_BAG: players_bag(s, d); break;
        case DECL_PROC: players_proc(s, d); break;
        default: break;
        }
        fclose(mem);
        s->out = out;
        if (len && heading_due) {
            heading(s, 2, heading_due->name, section_cite(heading_due));
            heading_due = NULL;
        }
        fwrite(text, 1, len, out);
        free(text);
    }
    players_notes(s);
    fputs(s->html ? "</main>\n" : "", out);
}

static const char css[] =
    "@page { size: A4; margin: 14mm; }\n"
    "body { font: 10.5pt/1.35 'DejaVu Sans', Arial, sans-serif; color: #111; max-width: 190mm; margin: 0 auto; }\n"
    "h1 { font-size: 17pt; margin: 0 0 2mm; border-bottom: 2px solid #333; }\n"
    "h2 { font-size: 13pt; margin: 6mm 0 2mm; border-bottom: 1px solid #999; break-after: avoid; }\n"
    "h3 { font-size: 11pt; margin: 4mm 0 1mm; break-after: avoid; }\n"
    ".cite { font-weight: normal; font-size: 8.5pt; color: #555; }\n"
    ".meta, .note { font-size: 9pt; color: #444; margin: 1mm 0; }\n"
    ".doc { margin: 1mm 0 2mm; }\n"
    "table { border-collapse: collapse; margin: 1mm 0 3mm; break-inside: avoid; font-size: 9.5pt; }\n"
    "th, td { border: 1px solid #999; padding: 1mm 2.5mm; text-align: left; vertical-align: top; }\n"
    "th { background: #e8e8e8; }\n"
    "td.key { font-weight: bold; white-space: nowrap; }\n"
    "td.mod { white-space: nowrap; text-align: right; }\n"
    "td.unknown { font-style: italic; color: #a00; }\n"
    "ol { margin: 1mm 0 2mm 6mm; padding-left: 4mm; }\n"
    ".proc { font-family: monospace; font-size: 8.5pt; color: #555; }\n"
    "ul.examples { font-size: 9.5pt; }\n"
    "figure.chart { margin: 1mm 0 3mm; break-inside: avoid; }\n"
    "figure.chart svg { max-width: 100%; height: auto; }\n"
    "@media print { body { max-width: none; } }\n";

/* The table sheet: landscape, in columns, small type; a block (a heading
 * and its table) is never split, and a heading never ends a column. */
static const char css_players[] =
    "@page { size: %s landscape; margin: 7mm; }\n"
    "body { font: 6.5pt/1.2 'DejaVu Sans', Arial, sans-serif; color: #111; margin: 0; }\n"
    "h1 { font-size: 13pt; margin: 0 0 1mm; border-bottom: 1.5px solid #333; }\n"
    ".meta, .note { font-size: 6.5pt; color: #444; margin: 0.5mm 0; }\n"
    "main.qrs { column-count: 4; column-gap: 4mm; column-fill: auto; }\n"
    "@media screen { main.qrs { column-fill: balance; } body { max-width: 300mm; margin: 0 auto; padding: 4mm; } }\n"
    "h2 { font-size: 8.5pt; margin: 1.8mm 0 0.8mm; padding: 0.2mm 1mm; background: #333; color: #fff; break-after: avoid; }\n"
    "h2 .cite { color: #ddd; }\n"
    "h3 { font-size: 7.5pt; margin: 1.2mm 0 0.3mm; break-after: avoid; }\n"
    ".block { break-inside: avoid; margin-top: 1.2mm; }\n"
    /* a block's heading runs in to its caption, as a sheet's bold lead-in */
    ".block > h3 { display: inline; margin: 0 0.8mm 0 0; }\n"
    ".block > h3 + p.doc { display: inline; }\n"
    ".block > h3 + p.doc + * { margin-top: 0.5mm; }\n"
    ".block.long { break-inside: auto; }\n"
    "tr { break-inside: avoid; }\n"
    ".cite { font-weight: normal; font-size: 6.5pt; color: #555; }\n"
    ".doc { margin: 0 0 0.8mm; }\n"
    "sup.fn { font-size: 5.5pt; color: #555; }\n"
    "table { border-collapse: collapse; margin: 0.5mm 0 1.2mm; width: 100%%; font-size: 6.2pt; line-height: 1.15; }\n"
    "th, td { border: 0.5px solid #999; padding: 0.1mm 0.7mm; text-align: left; vertical-align: top; overflow-wrap: break-word; }\n"
    "th { background: #e4e4e4; font-weight: bold; }\n"
    "th.v { vertical-align: bottom; }\n"
    "th.v span { writing-mode: vertical-rl; transform: rotate(180deg); max-height: 20mm; }\n"
    "table.tight th, table.tight td { overflow-wrap: anywhere; padding-left: 0.4mm; padding-right: 0.4mm; }\n"
    "td.key { font-weight: bold; }\n"
    "td.nw { white-space: nowrap; }\n"
    "td.mod, td.odds { white-space: nowrap; text-align: right; }\n"
    "td.block, td.group { font-style: italic; background: #f0f0f0; }\n"
    "td.in-group { padding-left: 3mm; }\n"
    "td.unknown { color: #a00; font-weight: bold; }\n"
    "p.chain { margin: 0 0 1mm; }\n"
    "ul.members { margin: 0 0 1mm; padding-left: 3mm; }\n"
    "ol { margin: 0.5mm 0 1mm; padding-left: 4mm; }\n"
    "ol.own { list-style: none; padding-left: 1.5mm; }\n"
    ".proc { display: none; }\n"
    ".notes { font-size: 5.5pt; line-height: 1.12; color: #333; }\n"
    ".notes ol { padding-left: 4mm; }\n";

static void render(FILE *out, const Compiled *c, const SheetOptions *o);

/* The sheet is written whole to memory first, so that it ends with one line
 * break and no blank line after the last section. */
int sheet_render(FILE *out, const Compiled *c, const SheetOptions *o)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        render(out, c, o);
        return 0;
    }
    render(mem, c, o);
    fclose(mem);
    while (len > 1 && text[len - 1] == '\n' && text[len - 2] == '\n')
        len--;
    fwrite(text, 1, len, out);
    free(text);
    return 0;
}

static void render(FILE *out, const Compiled *c, const SheetOptions *o)
{
    bool html = o->html;
    Sheet s = { .out = out, .html = html, .c = c, .players = !o->review, .ctx = o->ctx, .only = o->only,
                .nonly = o->nonly, .wide = o->letter ? 44 : 48, .indent = "" };
    const Module *m = c->module;
    const Source *src = c->src;
    const char *title = c->ruleset ? c->ruleset->name : src->path;
    if (html) {
        fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
        put(&s, title);
        fputs("</title>\n<style>\n", out);
        if (s.players)
            fprintf(out, css_players, o->letter ? "letter" : "A4");
        else
            fputs(css, out);
        fputs("</style>\n</head>\n<body>\n<h1>", out);
        put(&s, title);
        fputs("</h1>\n", out);
    } else {
        fputs("# ", out);
        put(&s, title);
        fputs("\n\n", out);
    }
    find_house(&s);
    if (s.nhouse)
        paragraph(&s, variant_of(&s), "meta");
    if (c->ruleset) {
        /* a variant's own note is its reason, under House rules */
        const char *skip = s.nhouse ? own_note(&s, s.nhouse - 1) : NULL;
        char meta[1024] = "";
        size_t len = 0;
        for (int i = 0; i < c->ruleset->as.ruleset.n && len < sizeof meta - 64; i++) {
            const Setting *st = &c->ruleset->as.ruleset.items[i];
            if (st->value != skip)
                len += (size_t)snprintf(meta + len, sizeof meta - len, "%s%s: %s", len ? " · " : "", st->key,
                                        st->value);
        }
        paragraph(&s, meta, "meta");
    }
    if (!s.players)
        paragraph(&s, "Generated by muster from the script; cells the rules text does not give read \"not given in source\".",
                  "meta");
    render_house(&s);
    if (s.players) {
        render_players(&s);
        if (html)
            fputs("</body>\n</html>\n", out);
        return;
    }
    static const struct { DeclKind kind; const char *title; } sections[] = {
        { DECL_SEQUENCE, NULL }, { DECL_DIE, "Dice" }, { DECL_BAG, "Bags" }, { DECL_MODIFIERS, "Modifiers" }, { DECL_BANDS, "Result bands" },
        { DECL_TABLE, "Tables" }, { DECL_ENUM, "Results, states and choices" }, { DECL_RECORD, "Records" },
        { DECL_PROC, "Procedures" },
    };
    for (size_t k = 0; k < sizeof sections / sizeof sections[0]; k++) {
        bool any = false;
        for (int i = 0; i < m->n; i++) {
            const Decl *d = m->decls[i];
            if (d->kind != sections[k].kind || !on_sheet(&s, d))
                continue;
            if (!any && sections[k].title)
                heading(&s, 2, sections[k].title, NULL);
            any = true;
            switch (d->kind) {
            case DECL_SEQUENCE: render_sequence(&s, d); break;
            case DECL_MODIFIERS: render_modifiers(&s, d); break;
            case DECL_BANDS: case DECL_TABLE: render_table(&s, d); break;
            case DECL_ENUM: render_enum(&s, d); break;
            case DECL_DIE: render_die(&s, d); break;
            case DECL_BAG: render_bag(&s, d); break;
            case DECL_RECORD: render_record(&s, d); break;
            case DECL_PROC: render_proc(&s, d); break;
            default: break;
            }
        }
    }
    render_examples(&s, m);
    if (html)
        fputs("</body>\n</html>\n", out);
}
