/* variant.c — a variant's `change` declarations applied to its base (see
 * variant.h): found by name among the base's declarations, checked, and
 * put in their place as copies. */
#include "config.h"
#include "compiler/variant.h"
#include "base/mem.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Patch {
    Diag *diag;
    const char *base;        /* the base's file, as the variant names it */
    bool ok;
} Patch;

static void refuse(Patch *pt, const Decl *d, Span at, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void refuse(Patch *pt, const Decl *d, Span at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(pt->diag, DIAG_ERROR, d->src, at, fmt, ap);
    va_end(ap);
    pt->ok = false;
}

static const char *kind_word(DeclKind k)
{
    switch (k) {
    case DECL_PROC: return "procedure";
    case DECL_TABLE: return "table";
    case DECL_BANDS: return "bands table";
    case DECL_MODIFIERS: return "modifiers list";
    case DECL_ENUM: return "enum";
    case DECL_RECORD: return "record";
    default: return "declaration";
    }
}

static bool same_name(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

/* ---- procedures ---- */

/* "(card: int, band: Band) -> Volley", the parameters and result written out. */
static char *signature_text(const Decl *d)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return mem_strdup("(...)");
    fputc('(', f);
    for (int i = 0; i < d->params.n; i++)
        fprintf(f, "%s%s%s%s", i ? ", " : "", d->params.items[i].name, d->params.items[i].type.name ? ": " : "",
                d->params.items[i].type.name ? d->params.items[i].type.name : "");
    fputc(')', f);
    if (d->ret.name)
        fprintf(f, " -> %s", d->ret.name);
    fclose(f);
    char *out = mem_strdup(text);
    free(text);
    return out;
}

static void change_proc(Patch *pt, Decl *change, Decl **slot)
{
    const Decl *base = *slot;
    bool fits = change->params.n == base->params.n && same_name(change->ret.name, base->ret.name);
    for (int i = 0; fits && i < change->params.n; i++)
        fits = same_name(change->params.items[i].name, base->params.items[i].name)
            && same_name(change->params.items[i].type.name, base->params.items[i].type.name);
    if (!fits) {
        refuse(pt, change, change->name_span,
               "changed procedure '%s' must keep the parameters and result %s of the one in %s", change->name,
               signature_text(base), pt->base);
        diag_report(pt->diag, DIAG_NOTE, base->src, base->name_span, "the procedure '%s' it changes", base->name);
        return;
    }
    *slot = change;
}

/* ---- tables and bands ---- */

static bool same_key(const Key *a, const Key *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == KEY_NAME)
        return !strcmp(a->name, b->name);
    return a->lo == b->lo && a->hi == b->hi && a->lo_open == b->lo_open && a->hi_open == b->hi_open;
}

static char *key_text(const Key *k)
{
    char buf[96];
    if (k->kind == KEY_NAME)
        return mem_strdup(k->name);
    if (k->kind == KEY_INT || (k->lo == k->hi && !k->lo_open && !k->hi_open))
        snprintf(buf, sizeof buf, "%lld", (long long)k->lo);
    else if (k->lo_open)
        snprintf(buf, sizeof buf, "..%lld", (long long)k->hi);
    else if (k->hi_open)
        snprintf(buf, sizeof buf, "%lld..", (long long)k->lo);
    else
        snprintf(buf, sizeof buf, "%lld..%lld", (long long)k->lo, (long long)k->hi);
    return mem_strdup(buf);
}

/* The base's row with key k, made a row of its own when it shares its
 * cells with other keys (`a, b: 1`): its index in t's rows, or -1. */
static int own_row(Decl *t, const Key *k)
{
    for (int r = 0; r < t->as.table.nrows; r++) {
        Row *row = &t->as.table.rows[r];
        for (int i = 0; i < row->keys.n; i++) {
            if (!same_key(&row->keys.items[i], k))
                continue;
            if (row->keys.n == 1)
                return r;
            /* split: the key leaves the shared row and gets a copy of it, just after */
            Row alone = *row;
            alone.keys = (KeyList){ NULL, 0, 0 };
            AST_PUSH(alone.keys, row->keys.items[i]);
            KeyList rest = { NULL, 0, 0 };
            for (int j = 0; j < row->keys.n; j++)
                if (j != i)
                    AST_PUSH(rest, row->keys.items[j]);
            row->keys = rest;
            t->as.table.rows = ast_grow(t->as.table.rows, t->as.table.nrows, &t->as.table.cap, sizeof(Row));
            memmove(&t->as.table.rows[r + 2], &t->as.table.rows[r + 1],
                    sizeof(Row) * (size_t)(t->as.table.nrows - r - 1));
            t->as.table.rows[r + 1] = alone;
            t->as.table.nrows++;
            return r + 1;
        }
    }
    return -1;
}

static void change_table(Patch *pt, Decl *change, Decl **slot)
{
    const Decl *base = *slot;
    const char *what = kind_word(base->kind);
    if (base->as.table.blocks.n || change->as.table.blocks.n) {
        refuse(pt, change, change->name_span,
               "the %s '%s' has 'column' blocks, whose rows a variant cannot change one by one; "
               "change the procedure that uses it (base: %s)", what, change->name, pt->base);
        return;
    }
    /* the copy that takes the base's place: its own rows, each its own cells */
    Decl *t = mem_alloc(sizeof *t);
    *t = *base;
    t->as.table.rows = mem_alloc(sizeof(Row) * (size_t)(base->as.table.nrows + 1));
    memcpy(t->as.table.rows, base->as.table.rows, sizeof(Row) * (size_t)base->as.table.nrows);
    t->as.table.cap = base->as.table.nrows + 1;
    for (int r = 0; r < t->as.table.nrows; r++) {
        ExprList cells = { NULL, 0, 0 };
        for (int k = 0; k < base->as.table.rows[r].cells.n; k++)
            AST_PUSH(cells, base->as.table.rows[r].cells.items[k]);
        t->as.table.rows[r].cells = cells;
    }
    int ncols = base->as.table.columns.n ? base->as.table.columns.n : 1;
    /* which of the base's cells each of the change's rows gives */
    const KeyList *cols = &change->as.table.columns;
    int *col_at = NULL;
    if (cols->n) {
        if (!base->as.table.columns.n) {
            refuse(pt, change, cols->items[0].span, "the %s '%s' has no columns in %s", what, change->name, pt->base);
            return;
        }
        col_at = mem_alloc_atomic(sizeof(int) * (size_t)cols->n);
        for (int c = 0; c < cols->n; c++) {
            col_at[c] = -1;
            for (int b = 0; b < base->as.table.columns.n; b++)
                if (same_key(&base->as.table.columns.items[b], &cols->items[c]))
                    col_at[c] = b;
            if (col_at[c] < 0) {
                refuse(pt, change, cols->items[c].span, "the %s '%s' has no column '%s' in %s", what,
                       change->name, key_text(&cols->items[c]), pt->base);
                return;
            }
        }
    }
    int given = cols->n ? cols->n : ncols;
    for (int r = 0; r < change->as.table.nrows; r++) {
        const Row *row = &change->as.table.rows[r];
        if (row->cells.n != given) {
            if (cols->n)
                refuse(pt, change, row->span, "this row gives %d values for the %d columns its 'columns' line names",
                       row->cells.n, given);
            else
                refuse(pt, change, row->span,
                       "this row gives %d value%s; the rows of '%s' in %s give %d (to change some of them, "
                       "name their columns in a 'columns' line)", row->cells.n, row->cells.n == 1 ? "" : "s",
                       change->name, pt->base, given);
            continue;
        }
        for (int k = 0; k < row->keys.n; k++) {
            int at = own_row(t, &row->keys.items[k]);
            if (at < 0) {
                refuse(pt, change, row->keys.items[k].span, "the %s '%s' has no row '%s' in %s", what,
                       change->name, key_text(&row->keys.items[k]), pt->base);
                continue;
            }
            Row *into = &t->as.table.rows[at];
            if (cols->n) {
                for (int c = 0; c < cols->n; c++)
                    into->cells.items[col_at[c]] = row->cells.items[c];
            } else {
                ExprList cells = { NULL, 0, 0 };
                for (int c = 0; c < row->cells.n; c++)
                    AST_PUSH(cells, row->cells.items[c]);
                into->cells = cells;
                into->text = row->text;
            }
        }
    }
    *slot = t;
}

/* ---- the header ---- */

static void merge_header(Module *all, int nbase, const Source *base_src, Decl *header)
{
    for (int i = 0; i < nbase; i++) {
        const Decl *d = all->decls[i];
        if (d->kind != DECL_RULESET || d->src != base_src)
            continue;
        for (int k = 0; k < d->as.ruleset.n; k++) {
            bool given = false;
            for (int j = 0; j < header->as.ruleset.n; j++)
                given |= !strcmp(header->as.ruleset.items[j].key, d->as.ruleset.items[k].key);
            if (!given)
                AST_PUSH(header->as.ruleset, d->as.ruleset.items[k]);
        }
        return;
    }
}

bool variant_apply(Module *all, int nbase, const Source *base_src, Decl *header, Diag *diag)
{
    Patch pt = { diag, header->as.ruleset.base, true };
    merge_header(all, nbase, base_src, header);
    int kept = nbase;
    for (int i = nbase; i < all->n; i++) {
        Decl *d = all->decls[i];
        if (!d->change) {
            all->decls[kept++] = d;
            continue;
        }
        Decl **slot = NULL;
        for (int j = 0; j < nbase && !slot; j++)
            if (all->decls[j]->name && !strcmp(all->decls[j]->name, d->name)
                && all->decls[j]->kind != DECL_EXAMPLE && all->decls[j]->kind != DECL_RULESET)
                slot = &all->decls[j];
        if (!slot) {
            refuse(&pt, d, d->name_span, "there is no %s '%s' to change in %s", kind_word(d->kind), d->name,
                   pt.base);
            continue;
        }
        if ((*slot)->kind != d->kind) {
            refuse(&pt, d, d->name_span, "'%s' is a %s in %s, not a %s", d->name, kind_word((*slot)->kind),
                   pt.base, kind_word(d->kind));
            diag_report(diag, DIAG_NOTE, (*slot)->src, (*slot)->name_span, "'%s' is declared here", d->name);
            continue;
        }
        if (d->kind == DECL_PROC)
            change_proc(&pt, d, slot);
        else
            change_table(&pt, d, slot);
    }
    all->n = kept;
    return pt.ok;
}
