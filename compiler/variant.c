/* variant.c — a variant's `change` declarations applied to its base (see
 * variant.h): found by name among the base's declarations, checked, and
 * put in their place as copies.  The parts a change brings (rows, cells,
 * lines, members, defaults) carry the variant's file, so that a message
 * about them points there and a sheet can mark them. */
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
    const char *block;       /* patching the rows of this `column` block, or NULL */
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

static const char *kind_word(const Decl *d)
{
    static const char *const flavours[] = { "enum", "ladder", "outcome", "choice" };
    switch (d->kind) {
    case DECL_PROC: return "procedure";
    case DECL_TABLE: return "table";
    case DECL_BANDS: return "bands table";
    case DECL_MODIFIERS: return "modifiers list";
    case DECL_ENUM: return flavours[d->as.enm.flavour];
    case DECL_RECORD: return "record";
    default: return "declaration";
    }
}

static const char *article(const char *word)
{
    return strchr("aeiou", word[0]) ? "an" : "a";
}

static bool same_name(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

/* The file of a part taken into `into`: NULL when it is into's own. */
static const Source *from(const Decl *into, const Source *src)
{
    return src == into->src ? NULL : src;
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

static void signature_refused(Patch *pt, const Decl *change, const Decl *base)
{
    refuse(pt, change, change->name_span,
           "changed procedure '%s' must keep the parameters and result %s of the one in %s (to change only "
           "some defaults, write 'NAME = VALUE, ...')", change->name, signature_text(base), pt->base);
    diag_report(pt->diag, DIAG_NOTE, base->src, base->name_span, "the procedure '%s' it changes", base->name);
}

static int find_param(const ParamList *ps, const char *name)
{
    for (int i = 0; i < ps->n; i++)
        if (!strcmp(ps->items[i].name, name))
            return i;
    return -1;
}

/* The parameters of the changed procedure p: the base's, with the
 * change's defaults (all of them when it lists every parameter; those it
 * names when it ends with `...`). */
static bool changed_params(Patch *pt, const Decl *change, const Decl *base, Decl *p)
{
    ParamList out = { NULL, 0, 0 };
    for (int i = 0; i < base->params.n; i++) {
        Param q = base->params.items[i];
        q.src = from(p, q.src ? q.src : base->src);
        AST_PUSH(out, q);
    }
    if (!change->rest_params && change->params.n != base->params.n) {
        signature_refused(pt, change, base);
        return false;
    }
    for (int i = 0; i < change->params.n; i++) {
        const Param *c = &change->params.items[i];
        int k = change->rest_params ? find_param(&base->params, c->name) : i;
        if (k < 0) {
            refuse(pt, change, c->span, "the procedure '%s' has no parameter '%s' in %s", change->name, c->name,
                   pt->base);
            return false;
        }
        if (strcmp(base->params.items[k].name, c->name) != 0
            || (c->type.name && !same_name(c->type.name, base->params.items[k].type.name))) {
            signature_refused(pt, change, base);
            return false;
        }
        if (change->rest_params && !c->deflt) {
            refuse(pt, change, c->span, "give '%s' its new default ('%s = VALUE'), or list every parameter "
                   "without '...'", c->name, c->name);
            return false;
        }
        out.items[k].deflt = c->deflt;
        out.items[k].src = from(p, change->src);
    }
    p->params = out;
    return true;
}

static void change_proc(Patch *pt, Decl *change, Decl **slot)
{
    const Decl *base = *slot;
    bool ret_given = change->ret.name != NULL;
    if ((ret_given || (!change->rest_params && !change->keep_body)) && !same_name(change->ret.name, base->ret.name)) {
        signature_refused(pt, change, base);
        return;
    }
    Decl *p = mem_alloc(sizeof *p);
    *p = change->keep_body ? *base : *change;
    p->change = false;
    p->was = base;
    p->changed_in = change->src;
    p->ret = ret_given ? change->ret : base->ret;
    if (!ret_given && !change->keep_body)
        p->ret.span = change->name_span;   /* base's span, this file */
    if (change->keep_body)
        p->name_span = base->name_span;
    if (!p->doc)
        p->doc = base->doc;      /* what the procedure is for, unless the change says otherwise */
    if (!p->cite) {
        p->cite = base->cite;
        p->cite_span = p->name_span;
    }
    if (changed_params(pt, change, base, p))
        *slot = p;
}

/* ---- tables and bands ---- */

static bool same_key(const Key *a, const Key *b)
{
    if (a->kind == KEY_NAME || b->kind == KEY_NAME)
        return a->kind == b->kind && !strcmp(a->name, b->name);
    return a->lo == b->lo && a->hi == b->hi && a->lo_open == b->lo_open && a->hi_open == b->hi_open;
}

/* A numeric key's ends, open ends as the extremes. */
static int64_t key_lo(const Key *k) { return k->lo_open ? INT64_MIN : k->lo; }
static int64_t key_hi(const Key *k) { return k->hi_open ? INT64_MAX : k->hi; }

static bool overlap(const Key *a, const Key *b)
{
    return a->kind != KEY_NAME && b->kind != KEY_NAME && key_lo(a) <= key_hi(b) && key_lo(b) <= key_hi(a);
}

static bool within(const Key *inner, const Key *outer)
{
    return key_lo(outer) <= key_lo(inner) && key_hi(inner) <= key_hi(outer);
}

/* k keeping only lo..hi (where it is written, and by which file, stay). */
static Key narrowed(Key k, int64_t lo, int64_t hi)
{
    k.kind = KEY_RANGE;
    k.lo = lo;
    k.hi = hi;
    k.lo_open = lo == INT64_MIN;
    k.hi_open = hi == INT64_MAX;
    if (lo == hi && !k.lo_open && !k.hi_open)
        k.kind = KEY_INT;
    return k;
}

static void insert_row(Decl *t, int at, Row row)
{
    t->as.table.rows = ast_grow(t->as.table.rows, t->as.table.nrows, &t->as.table.cap, sizeof(Row));
    memmove(&t->as.table.rows[at + 1], &t->as.table.rows[at], sizeof(Row) * (size_t)(t->as.table.nrows - at));
    t->as.table.rows[at] = row;
    t->as.table.nrows++;
}

static void drop_row(Decl *t, int at)
{
    memmove(&t->as.table.rows[at], &t->as.table.rows[at + 1], sizeof(Row) * (size_t)(t->as.table.nrows - at - 1));
    t->as.table.nrows--;
}

/* The row with exactly key k, made a row of its own when it shares its
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
            insert_row(t, r + 1, alone);
            return r + 1;
        }
    }
    return -1;
}

/* Where a row for k goes among rows written in order of their numbers
 * (rising or falling, as the first two say; rising when there is one), or
 * -1 when they are not one number or range each. */
static int ordered_place(const Decl *t, const Key *k)
{
    int n = t->as.table.nrows;
    if (n < 1)
        return -1;
    for (int r = 0; r < n; r++)
        if (t->as.table.rows[r].keys.n != 1 || t->as.table.rows[r].keys.items[0].kind == KEY_NAME)
            return -1;
    bool rising = n < 2 || key_lo(&t->as.table.rows[0].keys.items[0]) < key_lo(&t->as.table.rows[1].keys.items[0]);
    int r = 0;
    while (r < n && (rising ? key_lo(&t->as.table.rows[r].keys.items[0]) < key_lo(k)
                            : key_lo(&t->as.table.rows[r].keys.items[0]) > key_lo(k)))
        r++;
    return r;
}

/* Lay the range k over t's rows: each row's keys lose the numbers k
 * covers (a row left with none goes), and a row for k alone, a copy of
 * `like` when given, goes in its place in the order of the numbers (or
 * where the first row it met was).  A key that loses numbers is marked as
 * narrowed by the file `by`.  Returns the new row's index. */
static int overlay(Decl *t, const Key *k, const Row *like, const Source *by)
{
    int first = -1;
    for (int r = 0; r < t->as.table.nrows; r++) {
        Row *row = &t->as.table.rows[r];
        KeyList kept = { NULL, 0, 0 };
        bool met = false;
        for (int i = 0; i < row->keys.n; i++) {
            const Key *old = &row->keys.items[i];
            if (!overlap(old, k)) {
                AST_PUSH(kept, *old);
                continue;
            }
            met = true;
            Key part = *old;
            part.narrowed_in = by;
            if (key_lo(old) < key_lo(k))
                AST_PUSH(kept, narrowed(part, key_lo(old), key_lo(k) - 1));
            if (key_hi(old) > key_hi(k))
                AST_PUSH(kept, narrowed(part, key_hi(k) + 1, key_hi(old)));
        }
        if (!met)
            continue;
        if (first < 0)
            first = r;
        row->keys = kept;
        if (kept.n == 0) {
            drop_row(t, r);
            r--;
        }
    }
    Row alone = like ? *like : (Row){ .block = -1 };
    alone.keys = (KeyList){ NULL, 0, 0 };
    AST_PUSH(alone.keys, *k);
    int at = ordered_place(t, k);
    if (at < 0)
        at = first < 0 ? t->as.table.nrows : first;
    insert_row(t, at, alone);
    return at;
}

/* The one row of t whose key holds all of k, or NULL. */
static const Row *row_holding(const Decl *t, const Key *k)
{
    for (int r = 0; r < t->as.table.nrows; r++)
        for (int i = 0; i < t->as.table.rows[r].keys.n; i++)
            if (t->as.table.rows[r].keys.items[i].kind != KEY_NAME && within(k, &t->as.table.rows[r].keys.items[i]))
                return &t->as.table.rows[r];
    return NULL;
}

static bool meets_any(const Decl *t, const Key *k)
{
    for (int r = 0; r < t->as.table.nrows; r++)
        for (int i = 0; i < t->as.table.rows[r].keys.n; i++)
            if (overlap(&t->as.table.rows[r].keys.items[i], k))
                return true;
    return false;
}

/* A copy of the base's table whose rows and cell lists are its own. */
static Decl *copy_table(const Decl *base)
{
    Decl *t = mem_alloc(sizeof *t);
    *t = *base;
    t->was = base;
    t->as.table.rows = mem_alloc(sizeof(Row) * (size_t)(base->as.table.nrows + 1));
    memcpy(t->as.table.rows, base->as.table.rows, sizeof(Row) * (size_t)base->as.table.nrows);
    t->as.table.cap = base->as.table.nrows + 1;
    for (int r = 0; r < t->as.table.nrows; r++) {
        Row *row = &t->as.table.rows[r];
        ExprList cells = { NULL, 0, 0 };
        for (int k = 0; k < row->cells.n; k++)
            AST_PUSH(cells, row->cells.items[k]);
        row->cells = cells;
        if (row->cell_src) {
            const Source **srcs = mem_alloc(sizeof(Source *) * (size_t)(row->cells.n + 1));
            memcpy(srcs, row->cell_src, sizeof(Source *) * (size_t)row->cells.n);
            row->cell_src = srcs;
        }
    }
    return t;
}

/* Which of the base's columns each cell of the change's rows gives (NULL:
 * all of them, in order); *bad when a named column is not the base's. */
static int *columns_given(Patch *pt, const Decl *change, const Decl *base, bool *bad)
{
    const KeyList *cols = &change->as.table.columns;
    *bad = false;
    if (!cols->n)
        return NULL;
    if (!base->as.table.columns.n) {
        refuse(pt, change, cols->items[0].span, "the %s '%s' has no columns in %s", kind_word(base), change->name,
               pt->base);
        *bad = true;
        return NULL;
    }
    int *col_at = mem_alloc_atomic(sizeof(int) * (size_t)cols->n);
    for (int c = 0; c < cols->n; c++) {
        col_at[c] = -1;
        for (int b = 0; b < base->as.table.columns.n; b++)
            if (same_key(&base->as.table.columns.items[b], &cols->items[c]))
                col_at[c] = b;
        if (col_at[c] < 0) {
            refuse(pt, change, cols->items[c].span, "the %s '%s' has no column '%s' in %s", kind_word(base),
                   change->name, ast_key_text(&cols->items[c]), pt->base);
            *bad = true;
        }
    }
    return col_at;
}

/* Put the change's row (its cells, or those of the columns col_at names)
 * into t's row `at`. */
static void fill_row(Row *into, const Row *row, const int *col_at, int ncols, const Source *src)
{
    if (!col_at) {
        ExprList cells = { NULL, 0, 0 };
        for (int c = 0; c < row->cells.n; c++)
            AST_PUSH(cells, row->cells.items[c]);
        into->cells = cells;
        into->text = row->text;
        into->src = src;
        into->cell_src = NULL;
        return;
    }
    if (!into->cell_src) {
        into->cell_src = mem_alloc(sizeof(Source *) * (size_t)(ncols + 1));
        for (int c = 0; c < ncols; c++)
            into->cell_src[c] = into->src;
    }
    for (int c = 0; c < row->cells.n; c++) {
        into->cells.items[col_at[c]] = row->cells.items[c];
        into->cell_src[col_at[c]] = src;
    }
}

/* "'NAME'", or "'NAME' (column C)" inside a `column` block, for messages. */
static const char *table_named(const Patch *pt, const Decl *change)
{
    size_t len = strlen(change->name) + (pt->block ? strlen(pt->block) : 0) + 16;
    char *text = mem_alloc_atomic(len);
    if (pt->block)
        snprintf(text, len, "'%s' (column %s)", change->name, pt->block);
    else
        snprintf(text, len, "'%s'", change->name);
    return text;
}

/* One key of one of the change's rows: the row of t it changes or adds. */
static int row_for_key(Patch *pt, const Decl *change, const Row *row, const Key *written, Decl *t, bool subset)
{
    Key own = *written;
    own.src = from(t, change->src);
    const Key *k = &own;
    const char *what = kind_word(t);
    const char *name = table_named(pt, change);
    bool numeric = k->kind != KEY_NAME;
    if (row->patch == PATCH_ADD) {
        bool taken = numeric ? meets_any(t, k) : own_row(t, k) >= 0;
        if (taken && numeric) {
            refuse(pt, change, k->span, "the %s %s already has rows for some of %s in %s; leave out 'add' to "
                   "lay the new row over them", what, name, ast_key_text(k), pt->base);
            return -1;
        }
        if (taken) {
            refuse(pt, change, k->span, "the %s %s already has a row '%s' in %s; to change it, leave out 'add'",
                   what, name, ast_key_text(k), pt->base);
            return -1;
        }
        if (subset) {
            refuse(pt, change, k->span, "a new row gives every column; leave out the 'columns' line");
            return -1;
        }
        Row blank = { .block = -1 };
        insert_row(t, t->as.table.nrows, blank);
        t->as.table.rows[t->as.table.nrows - 1].keys = (KeyList){ NULL, 0, 0 };
        AST_PUSH(t->as.table.rows[t->as.table.nrows - 1].keys, *k);
        return t->as.table.nrows - 1;
    }
    int at = own_row(t, k);
    if (at >= 0)
        return at;
    if (!numeric || !meets_any(t, k)) {
        refuse(pt, change, k->span, "the %s %s has no row '%s' in %s (to add one, write 'add' before it)", what,
               name, ast_key_text(k), pt->base);
        return -1;
    }
    const Row *like = row_holding(t, k);
    if (subset && !like) {
        refuse(pt, change, k->span, "'%s' spans rows of %s that differ in %s; with a 'columns' line, give a "
               "range within one row", ast_key_text(k), name, pt->base);
        return -1;
    }
    return overlay(t, k, like, change->src);
}

/* Lay the change's rows of block `block` (-1: a table without blocks)
 * over t. */
static void patch_rows(Patch *pt, const Decl *change, Decl *t, const int *col_at, int ncols, int block)
{
    int given = col_at ? change->as.table.columns.n : ncols;
    for (int r = 0; r < change->as.table.nrows; r++) {
        const Row *row = &change->as.table.rows[r];
        if (row->block != block)
            continue;
        if (row->cells.n != given) {
            if (col_at)
                refuse(pt, change, row->span, "this row gives %d values for the %d columns its 'columns' line names",
                       row->cells.n, given);
            else
                refuse(pt, change, row->span,
                       "this row gives %d value%s; the rows of %s in %s give %d%s", row->cells.n,
                       row->cells.n == 1 ? "" : "s", table_named(pt, change), pt->base, given,
                       pt->block ? "" : " (to change some of them, name their columns in a 'columns' line)");
            continue;
        }
        for (int k = 0; k < row->keys.n; k++) {
            int at = row_for_key(pt, change, row, &row->keys.items[k], t, col_at != NULL);
            if (at >= 0)
                fill_row(&t->as.table.rows[at], row, col_at, ncols, from(t, change->src));
        }
    }
}

/* A table written in `column` blocks: each `column NAME` of the change
 * names a block of the base's, and the rows under it are laid over that
 * block's rows as over a table of one column (each block is a table of
 * its own, with its own keys and its own proof of coverage). */
static void change_blocks(Patch *pt, const Decl *change, Decl *t)
{
    const KeyList *blocks = &t->as.table.blocks;
    for (int cb = 0; cb < change->as.table.blocks.n; cb++) {
        const Key *name = &change->as.table.blocks.items[cb];
        int b = 0;
        while (b < blocks->n && !same_key(&blocks->items[b], name))
            b++;
        if (b == blocks->n) {
            refuse(pt, change, name->span, "the %s '%s' has no 'column %s' block in %s", kind_word(t), change->name,
                   ast_key_text(name), pt->base);
            continue;
        }
        /* the block's rows, as a table of their own */
        Decl one = *t;
        one.as.table.rows = NULL;
        one.as.table.nrows = one.as.table.cap = 0;
        one.as.table.blocks = (KeyList){ NULL, 0, 0 };
        int first = -1;
        for (int r = 0; r < t->as.table.nrows; r++)
            if (t->as.table.rows[r].block == b) {
                first = first < 0 ? r : first;
                insert_row(&one, one.as.table.nrows, t->as.table.rows[r]);
                drop_row(t, r--);
            }
        pt->block = ast_key_text(name);
        patch_rows(pt, change, &one, NULL, 1, cb);
        pt->block = NULL;
        for (int r = 0; r < one.as.table.nrows; r++) {
            one.as.table.rows[r].block = b;
            insert_row(t, (first < 0 ? t->as.table.nrows : first) + r, one.as.table.rows[r]);
        }
    }
}

static void change_table(Patch *pt, Decl *change, Decl **slot)
{
    const Decl *base = *slot;
    bool blocks = base->as.table.blocks.n > 0;
    if (blocks != (change->as.table.blocks.n > 0)) {
        if (blocks)
            refuse(pt, change, change->name_span,
                   "the %s '%s' is written in 'column' blocks in %s: put each row under the 'column NAME' line "
                   "of the block it changes", kind_word(base), change->name, pt->base);
        else
            refuse(pt, change, change->as.table.blocks.items[0].span,
                   "the %s '%s' has no 'column' blocks in %s; to change some columns, name them in a 'columns' line",
                   kind_word(base), change->name, pt->base);
        return;
    }
    if (blocks && change->as.table.columns.n) {
        refuse(pt, change, change->as.table.columns.items[0].span,
               "the %s '%s' is written in 'column' blocks in %s: a row under 'column NAME' changes that block's "
               "value, so there is no 'columns' line", kind_word(base), change->name, pt->base);
        return;
    }
    if (blocks && change->as.table.nrows && change->as.table.rows[0].block < 0) {
        refuse(pt, change, change->as.table.rows[0].span,
               "this row is under no 'column NAME' line; the %s '%s' is written in 'column' blocks in %s",
               kind_word(base), change->name, pt->base);
        return;
    }
    bool bad;
    int *col_at = columns_given(pt, change, base, &bad);
    if (bad)
        return;
    Decl *t = copy_table(base);
    t->changed_in = change->src;
    if (blocks)
        change_blocks(pt, change, t);
    else
        patch_rows(pt, change, t, col_at, base->as.table.columns.n ? base->as.table.columns.n : 1, -1);
    *slot = t;
}

/* ---- modifiers ---- */

static ModList copy_mods(const ModList *in)
{
    ModList out = { NULL, 0, 0 };
    for (int i = 0; i < in->n; i++) {
        ModItem it = in->items[i];
        if (it.kind == MOD_ONEOF)
            it.group = copy_mods(&in->items[i].group);
        AST_PUSH(out, it);
    }
    return out;
}

/* Where the lines labelled `label` are: the first in *list at *at, and
 * how many there are (in one-of groups too). */
static int find_label(ModList *in, const char *label, ModList **list, int *at)
{
    int n = 0;
    for (int i = 0; i < in->n; i++) {
        if (in->items[i].kind == MOD_ONEOF) {
            ModList *l;
            int a;
            int k = find_label(&in->items[i].group, label, &l, &a);
            if (k && !n) {
                *list = l;
                *at = a;
            }
            n += k;
        } else if (in->items[i].label && !strcmp(in->items[i].label, label)) {
            if (!n) {
                *list = in;
                *at = i;
            }
            n++;
        }
    }
    return n;
}

static void insert_item(ModList *list, int at, ModItem it)
{
    AST_PUSH(*list, it);
    memmove(&list->items[at + 1], &list->items[at], sizeof(ModItem) * (size_t)(list->n - 1 - at));
    list->items[at] = it;
}

/* A group left with one line is that line; with none, nothing. */
static void tidy_groups(ModList *list)
{
    for (int i = 0; i < list->n; i++) {
        if (list->items[i].kind != MOD_ONEOF)
            continue;
        tidy_groups(&list->items[i].group);
        if (list->items[i].group.n == 1) {
            list->items[i] = list->items[i].group.items[0];
        } else if (list->items[i].group.n == 0) {
            memmove(&list->items[i], &list->items[i + 1], sizeof(ModItem) * (size_t)(list->n - i - 1));
            list->n--;
            i--;
        }
    }
}

/* The one line labelled `label` (in m's items), or false after saying why not. */
static bool one_line(Patch *pt, const Decl *change, Decl *m, const char *label, Span at, ModList **list, int *i)
{
    int n = find_label(&m->as.mods.items, label, list, i);
    if (n == 1)
        return true;
    if (n == 0)
        refuse(pt, change, at, "the modifiers list '%s' has no line labelled \"%s\" in %s", change->name, label,
               pt->base);
    else
        refuse(pt, change, at, "%d lines of '%s' in %s are labelled \"%s\"; a variant names a line by a label "
               "only one line has", n, change->name, pt->base, label);
    return false;
}

static void patch_line(Patch *pt, const Decl *change, Decl *m, const ModItem *it)
{
    ModItem line = *it;
    line.src = from(m, change->src);
    ModList *list;
    int at;
    if (it->patch == PATCH_ADD) {
        if (it->label && find_label(&m->as.mods.items, it->label, &list, &at)) {
            refuse(pt, change, it->span, "'%s' already has a line labelled \"%s\" in %s; to change it, leave out "
                   "'add'", change->name, it->label, pt->base);
            return;
        }
        if (!it->place) {
            AST_PUSH(m->as.mods.items, line);
            return;
        }
        if (one_line(pt, change, m, it->place_label, it->place_span, &list, &at))
            insert_item(list, it->place > 0 ? at + 1 : at, line);
        return;
    }
    if (it->kind == MOD_ONEOF) {
        refuse(pt, change, it->span, "a 'one of' group has no label to find it by in %s; change its lines one "
               "by one, or write 'add' to add a new group", pt->base);
        return;
    }
    if (!one_line(pt, change, m, it->label, it->span, &list, &at))
        return;
    if (it->patch == PATCH_REMOVE) {
        memmove(&list->items[at], &list->items[at + 1], sizeof(ModItem) * (size_t)(list->n - at - 1));
        list->n--;
    } else {
        list->items[at] = line;
    }
}

static void change_mods(Patch *pt, Decl *change, Decl **slot)
{
    const Decl *base = *slot;
    Decl *m = mem_alloc(sizeof *m);
    *m = *base;
    m->was = base;
    m->changed_in = change->src;
    m->as.mods.items = copy_mods(&base->as.mods.items);
    for (int i = 0; i < change->as.mods.items.n; i++)
        patch_line(pt, change, m, &change->as.mods.items.items[i]);
    tidy_groups(&m->as.mods.items);
    *slot = m;
}

/* ---- enums, outcomes and choices ---- */

static int find_member(const Decl *e, const char *name)
{
    for (int i = 0; i < e->as.enm.n; i++)
        if (!strcmp(e->as.enm.items[i].name, name))
            return i;
    return -1;
}

/* An outcome member's field values: the base's, with those the change gives. */
static ArgList merge_fields(const Decl *base, const Member *was, const Member *now)
{
    ArgList out = { NULL, 0, 0 };
    for (int i = 0; i < was->fields.n; i++)
        AST_PUSH(out, was->fields.items[i]);
    for (int i = 0; i < now->fields.n; i++) {
        const Arg *a = &now->fields.items[i];
        const char *name = a->name ? a->name : i < base->params.n ? base->params.items[i].name : NULL;
        int at = -1;
        for (int j = 0; j < out.n && name; j++) {
            const char *old = out.items[j].name ? out.items[j].name
                              : j < base->params.n ? base->params.items[j].name : NULL;
            if (old && !strcmp(old, name))
                at = j;
        }
        Arg named = *a;
        if (!named.name && name)
            named.name = name;
        if (at >= 0)
            out.items[at] = named;
        else
            AST_PUSH(out, named);
    }
    return out;
}

static void change_members(Patch *pt, Decl *change, Decl **slot)
{
    const Decl *base = *slot;
    Decl *e = mem_alloc(sizeof *e);
    *e = *base;
    e->was = base;
    e->changed_in = change->src;
    e->as.enm.items = mem_alloc(sizeof(Member) * (size_t)(base->as.enm.n + change->as.enm.n + 1));
    memcpy(e->as.enm.items, base->as.enm.items, sizeof(Member) * (size_t)base->as.enm.n);
    e->as.enm.cap = base->as.enm.n + change->as.enm.n + 1;
    const Source *src = from(e, change->src);
    for (int i = 0; i < change->as.enm.n; i++) {
        const Member *m = &change->as.enm.items[i];
        int at = find_member(e, m->name);
        if (m->patch == PATCH_ADD) {
            if (at >= 0)
                refuse(pt, change, m->span, "the %s '%s' already has '%s' in %s; to change it, leave out 'add'",
                       kind_word(base), change->name, m->name, pt->base);
            else if (base->as.enm.flavour == ENUM_LADDER)
                refuse(pt, change, m->span, "a ladder's steps are in order, each a step from the next; a variant "
                       "cannot add one to '%s'", change->name);
            else {
                e->as.enm.items[e->as.enm.n] = *m;
                e->as.enm.items[e->as.enm.n++].src = src;
            }
            continue;
        }
        if (at < 0) {
            refuse(pt, change, m->span, "the %s '%s' has no member '%s' in %s (to add one, write 'add %s')",
                   kind_word(base), change->name, m->name, pt->base, m->name);
            continue;
        }
        Member *into = &e->as.enm.items[at];
        if (m->text)
            into->text = m->text;
        if (m->fields.n)
            into->fields = merge_fields(base, into, m);
        into->src = src;
    }
    if (change->as.enm.prompt)
        e->as.enm.prompt = change->as.enm.prompt;
    if (change->as.enm.deflt) {
        if (find_member(e, change->as.enm.deflt) < 0)
            refuse(pt, change, change->as.enm.deflt_span, "the default '%s' is not one of the options of %s",
                   change->as.enm.deflt, change->name);
        e->as.enm.deflt = change->as.enm.deflt;
        e->as.enm.deflt_span = base->as.enm.deflt_span;
    }
    *slot = e;
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

/* The base's declaration a change names, or NULL after saying why not. */
static Decl **changed_slot(Patch *pt, Module *all, int nbase, const Decl *d)
{
    Decl **slot = NULL;
    for (int j = 0; j < nbase && !slot; j++)
        if (all->decls[j]->name && !strcmp(all->decls[j]->name, d->name)
            && all->decls[j]->kind != DECL_EXAMPLE && all->decls[j]->kind != DECL_RULESET)
            slot = &all->decls[j];
    if (!slot) {
        refuse(pt, d, d->name_span, "there is no %s '%s' to change in %s", kind_word(d), d->name, pt->base);
        return NULL;
    }
    bool same_kind = (*slot)->kind == d->kind
                     && (d->kind != DECL_ENUM || (*slot)->as.enm.flavour == d->as.enm.flavour);
    if (!same_kind) {
        refuse(pt, d, d->name_span, "'%s' is %s %s in %s, not %s %s", d->name, article(kind_word(*slot)),
               kind_word(*slot), pt->base, article(kind_word(d)), kind_word(d));
        diag_report(pt->diag, DIAG_NOTE, (*slot)->src, (*slot)->name_span, "'%s' is declared here", d->name);
        return NULL;
    }
    return slot;
}

bool variant_apply(Module *all, int nbase, const Source *base_src, Decl *header, Diag *diag)
{
    Patch pt = { diag, header->as.ruleset.base, true, NULL };
    merge_header(all, nbase, base_src, header);
    int kept = nbase;
    for (int i = nbase; i < all->n; i++) {
        Decl *d = all->decls[i];
        if (!d->change) {
            all->decls[kept++] = d;
            continue;
        }
        Decl **slot = changed_slot(&pt, all, nbase, d);
        if (!slot)
            continue;
        switch (d->kind) {
        case DECL_PROC: change_proc(&pt, d, slot); break;
        case DECL_TABLE: case DECL_BANDS: change_table(&pt, d, slot); break;
        case DECL_MODIFIERS: change_mods(&pt, d, slot); break;
        case DECL_ENUM: change_members(&pt, d, slot); break;
        default: break;
        }
    }
    all->n = kept;
    return pt.ok;
}
