/* tables.c — lookup tables: `table`, `bands`, outcome fields, member texts.
 *
 * A table's cells are constants, so the whole table is built here at
 * compile time and the procedure behind it is just "look it up".  Bands
 * are tables whose rows are ranges of a die total; the compiler proves
 * that every value of the total falls in exactly one band and names the
 * values that do not.
 */
#include "config.h"
#include "compiler/internal.h"
#include "base/mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- constant values ---- */

static bool const_int(const Expr *e, int64_t *out)
{
    if (e->kind == EX_INT) {
        *out = e->as.i;
        return true;
    }
    if (e->kind == EX_UNARY && (e->as.unary.op == OPR_NEG || e->as.unary.op == OPR_POS)
        && e->as.unary.operand->kind == EX_INT) {
        *out = e->as.unary.op == OPR_NEG ? -e->as.unary.operand->as.i : e->as.unary.operand->as.i;
        return true;
    }
    return false;
}

bool comp_const_value(Compiler *c, const Expr *e, Type want, Value *out)
{
    Type got = T_ERR;
    int64_t i, d;
    if (const_int(e, &i)) {
        *out = val_int(i);
        got = T_INT;
    } else if (e->kind == EX_BINARY && e->as.binary.op == OPR_DIV && const_int(e->as.binary.left, &i)
               && const_int(e->as.binary.right, &d)) {
        if (d == 0) {
            comp_error(c, e->span, "a fraction cannot have 0 below the line");
            return false;
        }
        val_make_rat(i, d, out);
        got = T_RAT;
    } else if (e->kind == EX_BOOL) {
        *out = val_bool(e->as.b);
        got = T_BOOL;
    } else if (e->kind == EX_STR) {
        *out = val_str(val_new_str(e->as.str.bytes, e->as.str.len));
        got = T_STR;
    } else if (e->kind == EX_NAME || (e->kind == EX_MEMBER && e->as.member.object->kind == EX_NAME)) {
        /* a member: of the wanted enum, or written Enum.member, or unique */
        const char *name = e->kind == EX_NAME ? e->as.name : e->as.member.member;
        int id = -1, k = -1;
        if (e->kind == EX_MEMBER)
            id = comp_find_enum(c, e->as.member.object->as.name);
        else if (want.kind == TY_ENUM && comp_find_member(c, want.enum_id, name) >= 0)
            id = want.enum_id;
        else if (names_get(&c->member_shared, name) < 0)
            id = names_get(&c->member_names, name);
        if (id >= 0)
            k = comp_find_member(c, id, name);
        if (k < 0) {
            if (want.kind == TY_ENUM)
                comp_error(c, e->span, "'%s' is not a member of %s", name, comp_type_name(c, want));
            else
                comp_error(c, e->span, "'%s' is not a value here (a cell holds a number, a fraction like 1/4, "
                           "true/false, a string, a member of an enum, '?' or '-')", name);
            return false;
        }
        *out = val_enum(id, k);
        got = (Type){ TY_ENUM, id };
    } else {
        comp_error(c, e->span, "this must be a plain value: a number, a fraction like 1/4, true/false, a string "
                   "or a member of an enum");
        return false;
    }
    if (!fits(want, got)) {
        comp_error(c, e->span, "this is %s, but %s is wanted here", comp_type_name(c, got), comp_type_name(c, want));
        return false;
    }
    if (want.kind == TY_RAT && got.kind == TY_INT)
        val_make_rat(out->as.i, 1, out);
    return true;
}

void comp_emit_table(Compiler *c, int table, int nkeys, Span at)
{
    comp_emit_op(c, OP_TABLE, at);
    comp_emit_u16(c, (unsigned)table, at);
    comp_adjust_stack(c, 1 - nkeys);
}

/* ---- building tables ---- */

static Table *new_table(const char *name, int ndims, int nrows, int ncols)
{
    Table *t = mem_alloc(sizeof *t);
    t->name = name;
    t->ndims = ndims;
    size_t n = (size_t)nrows * (size_t)(ncols ? ncols : 1);
    t->cells = mem_alloc(sizeof(Value) * (n + 1));
    t->kinds = mem_alloc_atomic(sizeof(CellKind) * (n + 1));
    t->cell_offsets = mem_alloc_atomic(sizeof(uint32_t) * (n + 1));
    for (size_t i = 0; i < n; i++)
        t->kinds[i] = CELL_VALUE;
    return t;
}

/* A dimension where key value k (0..n-1) is row k. */
static TableDim identity_dim(int n)
{
    TableDim d = { .mode = KEYS_INDEX, .n = n, .nkeys = n };
    d.index = mem_alloc_atomic(sizeof(int) * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        d.index[i] = i;
    return d;
}

/* Where each entry of an int-keyed dimension came from, for messages. */
typedef struct Entry {
    int64_t lo, hi;
    int row;
    Span span;
    const Source *src;       /* the key's file, when not the table's */
} Entry;

static int entry_order(const void *a, const void *b)
{
    const Entry *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo ? 1 : 0;
}

static void range_text(char *buf, size_t len, int64_t lo, int64_t hi)
{
    if (lo == hi)
        snprintf(buf, len, "%lld", (long long)lo);
    else if (lo == INT64_MIN && hi == INT64_MAX)
        snprintf(buf, len, "every value");
    else if (lo == INT64_MIN)
        snprintf(buf, len, "..%lld", (long long)hi);
    else if (hi == INT64_MAX)
        snprintf(buf, len, "%lld..", (long long)lo);
    else
        snprintf(buf, len, "%lld..%lld", (long long)lo, (long long)hi);
}

typedef struct DimSpec {
    const char *what;        /* "row", "column" */
    bool blocks;             /* columns written as `column NAME` blocks */
    const Param *param;
    Type type;
    bool bands;              /* must cover its domain exactly */
} DimSpec;

/* The member (or, for bool, 0 or 1) a row key names; -1, reported, if it
 * names none. */
static int index_key(Compiler *c, const DimSpec *spec, const Key *key)
{
    Type t = spec->type;
    int k = -1;
    if (key->kind == KEY_NAME && t.kind == TY_BOOL)
        k = !strcmp(key->name, "true") ? 1 : !strcmp(key->name, "false") ? 0 : -1;
    else if (key->kind == KEY_NAME)
        k = comp_find_member(c, t.enum_id, key->name);
    if (k < 0)
        COMP_AT_SOURCE(c, key->src, comp_error(c, key->span, "this %s key must be %s%s", spec->what,
                                               t.kind == TY_BOOL ? "true or false" : "a member of ",
                                               t.kind == TY_BOOL ? "" : comp_type_name(c, t)));
    return k;
}

/* Member k has no row (or column): say how to give it one. */
static void missing_key(Compiler *c, const char *table, const DimSpec *spec, int k)
{
    Type t = spec->type;
    const char *m = t.kind == TY_BOOL ? (k ? "true" : "false") : c->prog->enums[t.enum_id].members[k];
    if (!strcmp(spec->what, "row"))
        comp_error(c, spec->param->span, "%s has no row for %s (write '%s: ?' if the rules text does not give it)",
                   table, m, m);
    else if (spec->blocks)
        comp_error(c, spec->param->span, "%s has no column for %s (add a 'column %s' block)", table, m, m);
    else
        comp_error(c, spec->param->span, "%s has no column for %s (add it to the columns, with '?' "
                   "in the rows where the rules text does not give it)", table, m);
    const Decl *e = t.kind == TY_ENUM && c->enum_decls ? c->enum_decls[t.enum_id] : NULL;
    if (e && e->as.enm.items[k].src)
        COMP_AT_SOURCE(c, e->as.enm.items[k].src,
                       comp_note(c, e->as.enm.items[k].span, "a variant adds '%s' to %s here: give %s a %s for "
                                 "it ('add %s: ...' in a 'change' of it)", m, e->name, table, spec->what, m));
}

/* Enum and bool keys: every member has exactly one row. */
static bool build_index_dim(Compiler *c, const char *table, const DimSpec *spec, const KeyList *const *keys, int n,
                            TableDim *out)
{
    bool ok = true;
    Type t = spec->type;
    int nkeys = t.kind == TY_BOOL ? 2 : c->prog->enums[t.enum_id].nmembers;
    out->mode = KEYS_INDEX;
    out->nkeys = nkeys;
    out->index = mem_alloc_atomic(sizeof(int) * (size_t)(nkeys + 1));
    const Key **where = mem_alloc(sizeof(Key *) * (size_t)(nkeys + 1));
    for (int k = 0; k < nkeys; k++)
        out->index[k] = -1;
    for (int r = 0; r < n; r++)
        for (int j = 0; j < keys[r]->n; j++) {
            const Key *key = &keys[r]->items[j];
            int k = index_key(c, spec, key);
            if (k < 0) {
                ok = false;
                continue;
            }
            if (out->index[k] >= 0) {
                COMP_AT_SOURCE(c, key->src, comp_error(c, key->span, "%s has two %ss for %s", table, spec->what,
                                                       key->name));
                COMP_AT_SOURCE(c, where[k]->src, comp_note(c, where[k]->span, "the first is here"));
                ok = false;
                continue;
            }
            out->index[k] = r;
            where[k] = key;
            if (!out->labels[r])
                out->labels[r] = key->name;
        }
    for (int k = 0; k < nkeys && ok; k++)
        if (out->index[k] < 0) {
            missing_key(c, table, spec, k);
            ok = false;
        }
    return ok;
}

/* A row's label lists all its keys: "5, 6". */
static void add_label(TableDim *out, int r, int64_t lo, int64_t hi)
{
    char buf[64];
    range_text(buf, sizeof buf, lo, hi);
    if (!out->labels[r]) {
        out->labels[r] = mem_strdup(buf);
    } else {
        char *both = mem_alloc_atomic(strlen(out->labels[r]) + strlen(buf) + 3);
        sprintf(both, "%s, %s", out->labels[r], buf);
        out->labels[r] = both;
    }
}

/* The entries of int keys, one for each value, range and list item, in the
 * order written; *ranges is set if any is a range, *ok cleared by a bad key. */
static Entry *int_entries(Compiler *c, const DimSpec *spec, const KeyList *const *keys, int n, TableDim *out,
                          int *count, bool *ranges, bool *ok)
{
    int total = 0;
    for (int r = 0; r < n; r++)
        total += keys[r]->n;
    Entry *e = mem_alloc_atomic(sizeof(Entry) * (size_t)(total + 1));
    *count = 0;
    for (int r = 0; r < n; r++)
        for (int j = 0; j < keys[r]->n; j++) {
            const Key *key = &keys[r]->items[j];
            if (key->kind == KEY_NAME) {
                COMP_AT_SOURCE(c, key->src, comp_error(c, key->span, "this %s key must be a number or a range like "
                                                       "3..4, not '%s'", spec->what, key->name));
                *ok = false;
                continue;
            }
            int64_t lo = key->lo_open ? INT64_MIN : key->lo, hi = key->hi_open ? INT64_MAX : key->hi;
            if (lo > hi) {
                COMP_AT_SOURCE(c, key->src, comp_error(c, key->span, "this range is empty: it starts above where it "
                                                       "ends"));
                *ok = false;
                continue;
            }
            *ranges |= key->kind == KEY_RANGE;
            e[(*count)++] = (Entry){ lo, hi, r, key->span, key->src };
            add_label(out, r, lo, hi);
        }
    return e;
}

/* Sorted entries: an entry overlaps an earlier one exactly when it starts
 * at or below the furthest end reached so far. */
static bool no_overlaps(Compiler *c, const char *table, const DimSpec *spec, const Entry *e, int count)
{
    bool ok = true;
    int reach = 0;
    for (int i = 1; i < count; i++) {
        if (e[i].lo <= e[reach].hi) {
            char buf[64];
            int64_t end = e[i].hi < e[reach].hi ? e[i].hi : e[reach].hi;
            range_text(buf, sizeof buf, e[i].lo, end);
            COMP_AT_SOURCE(c, e[i].src, comp_error(c, e[i].span, "%s: %s %s in two %ss", table, buf,
                                                   e[i].lo == end ? "falls" : "fall", spec->what));
            COMP_AT_SOURCE(c, e[reach].src, comp_note(c, e[reach].span, "it is also covered here"));
            ok = false;
        }
        if (e[i].hi > e[reach].hi)
            reach = i;
    }
    return ok;
}

/* The coverage proof of bands: walk the sorted bands over the key's domain
 * [lo, hi], keeping the lowest value not yet covered, and report each gap. */
static bool covers_domain(Compiler *c, const char *table, const Param *p, const Entry *e, int count, int64_t lo,
                          int64_t hi)
{
    bool ok = true;
    int64_t next = lo;   /* the lowest value not yet covered */
    bool to_end = false;
    char buf[64];
    for (int i = 0; i < count && !to_end; i++) {
        if (e[i].hi < next)
            continue;   /* below the declared values: harmless */
        if (e[i].lo > next) {
            range_text(buf, sizeof buf, next, e[i].lo - 1 < hi ? e[i].lo - 1 : hi);
            COMP_AT_SOURCE(c, e[i].src, comp_error(c, e[i].span, "%s: no band covers %s of '%s'", table, buf,
                                                   p->name));
            ok = false;
        }
        if (e[i].hi >= hi)
            to_end = true;
        else
            next = e[i].hi + 1;
    }
    if (!to_end) {
        range_text(buf, sizeof buf, next, hi);
        comp_error(c, p->span, "%s: no band covers %s of '%s'", table, buf, p->name);
        ok = false;
    }
    return ok;
}

/* Int keys: exact values or ranges, sorted for binary search; bands must
 * also cover their domain. */
static bool build_int_dim(Compiler *c, const char *table, const DimSpec *spec, const KeyList *const *keys, int n,
                          TableDim *out)
{
    bool ok = true, ranges = spec->bands;
    int count;
    Entry *e = int_entries(c, spec, keys, n, out, &count, &ranges, &ok);
    qsort(e, (size_t)count, sizeof *e, entry_order);
    ok &= no_overlaps(c, table, spec, e, count);
    if (spec->bands && ok) {
        const Param *p = spec->param;
        int64_t lo = p->has_range && !p->lo_open ? p->lo : INT64_MIN;
        int64_t hi = p->has_range && !p->hi_open ? p->hi : INT64_MAX;
        if (lo > hi) {
            comp_error(c, p->range_span, "this range is empty: it starts above where it ends");
            return false;
        }
        ok &= covers_domain(c, table, p, e, count, lo, hi);
    }
    out->mode = ranges ? KEYS_RANGES : KEYS_INTS;
    out->nkeys = count;
    out->lo = mem_alloc_atomic(sizeof(int64_t) * (size_t)(count + 1));
    out->hi = mem_alloc_atomic(sizeof(int64_t) * (size_t)(count + 1));
    out->row = mem_alloc_atomic(sizeof(int) * (size_t)(count + 1));
    for (int i = 0; i < count; i++) {
        out->lo[i] = e[i].lo;
        out->hi[i] = e[i].hi;
        out->row[i] = e[i].row;
    }
    return ok;
}

/* Build one dimension from the keys of its rows (or column headings).
 * keys[r] is the key list of row r. */
static bool build_dim(Compiler *c, const char *table, const DimSpec *spec, const KeyList *const *keys, int n,
                      TableDim *out)
{
    Type t = spec->type;
    memset(out, 0, sizeof *out);
    out->n = n;
    out->labels = mem_alloc(sizeof(char *) * (size_t)(n + 1));
    out->key_tag = t.kind == TY_ENUM ? VAL_ENUM : t.kind == TY_BOOL ? VAL_BOOL : VAL_INT;
    out->key_enum = t.kind == TY_ENUM ? t.enum_id : 0;
    if (t.kind == TY_ENUM || t.kind == TY_BOOL)
        return build_index_dim(c, table, spec, keys, n, out);
    if (t.kind != TY_INT) {
        comp_error(c, spec->param->type.span, "a table is looked up by an enum, a bool or an int, not by %s",
                   comp_type_name(c, t));
        return false;
    }
    return build_int_dim(c, table, spec, keys, n, out);
}

void comp_list_unknown(Compiler *c, Span at, const char *what)
{
    Compiled *out = c->out;
    int cap = out->nunknowns;
    out->unknowns = ast_grow(out->unknowns, out->nunknowns, &cap, sizeof(Unknown));
    out->unknowns[out->nunknowns++] = (Unknown){ c->src, at, what };
}

/* Is the table's shape one it can be built from: one or two keys, columns
 * only with two, rows?  *ncols becomes the number of columns, of either
 * kind. */
static bool table_shape(Compiler *c, const Decl *d, const char *kind, const char *title, int *ncols)
{
    int ndims = d->params.n;
    int nblocks = d->as.table.blocks.n;
    *ncols = d->as.table.columns.n;
    if (ndims < 1 || ndims > 2) {
        comp_error(c, d->name_span, "a %s is looked up by one or two keys, not %d", kind, ndims);
        return false;
    }
    if (nblocks) {
        /* `column` blocks instead of a `columns` line: one column of values a block */
        if (ndims != 2) {
            comp_error(c, d->as.table.blocks.items[0].span, "'column' blocks need two keys, a row key and a column key");
            return false;
        }
        if (*ncols) {
            comp_error(c, d->as.table.blocks.items[0].span,
                       "write either a 'columns' line or 'column' blocks, not both");
            return false;
        }
        *ncols = nblocks;
    }
    if (ndims == 2 && *ncols == 0) {
        comp_error(c, d->name_span, "%s has two keys, so it needs a 'columns' line naming the values of '%s'", title,
                   d->params.items[1].name);
        return false;
    }
    if (ndims == 1 && *ncols > 0) {
        comp_error(c, d->as.table.columns.items[0].span, "%s has one key, so it has no columns", title);
        return false;
    }
    if (d->as.table.nrows == 0) {
        comp_error(c, d->name_span, "%s has no rows", title);
        return false;
    }
    return true;
}

/* Each column heading, or each `column` line, as a key list of one key. */
static const KeyList **one_key_each(const KeyList *keys)
{
    const KeyList **lists = mem_alloc(sizeof(KeyList *) * (size_t)(keys->n + 1));
    for (int k = 0; k < keys->n; k++) {
        KeyList *one = mem_alloc(sizeof *one);
        one->items = &keys->items[k];
        one->n = one->cap = 1;
        lists[k] = one;
    }
    return lists;
}

/* The column key: from the `columns` line, or one column a `column` block. */
static bool build_columns(Compiler *c, const char *title, const Decl *d, const ProcSig *sig, bool blocks,
                          Table *t)
{
    const KeyList *heads = blocks ? &d->as.table.blocks : &d->as.table.columns;
    DimSpec cspec = { "column", blocks, &d->params.items[1], sig->ptypes[1], false };
    return build_dim(c, title, &cspec, one_key_each(heads), heads->n, &t->dim[1]);
}

/* Rows written before the first `column` line belong to no block. */
static bool rows_in_blocks(Compiler *c, const Decl *d)
{
    bool ok = true;
    for (int r = 0; r < d->as.table.nrows; r++)
        if (d->as.table.rows[r].block < 0) {
            comp_error(c, d->as.table.rows[r].span, "this row comes before the first 'column' line");
            ok = false;
        }
    return ok;
}

/* In column blocks, each block's rows are a dimension of their own,
 * numbered into the one list of rows; none is built once `ok` is false. */
static bool build_block_rows(Compiler *c, const char *title, const Decl *d, const DimSpec *rspec, Table *t,
                             bool ok)
{
    int nrows = d->as.table.nrows, nblocks = d->as.table.blocks.n;
    t->col_rows = mem_alloc(sizeof(TableDim) * (size_t)(nblocks + 1));
    t->dim[0].n = nrows;
    t->dim[0].labels = mem_alloc(sizeof(char *) * (size_t)(nrows + 1));
    int *global = mem_alloc_atomic(sizeof(int) * (size_t)(nrows + 1));
    const KeyList **rows = mem_alloc(sizeof(KeyList *) * (size_t)(nrows + 1));
    for (int b = 0; b < nblocks && ok; b++) {
        int n = 0;
        for (int r = 0; r < nrows; r++)
            if (d->as.table.rows[r].block == b) {
                global[n] = r;
                rows[n++] = &d->as.table.rows[r].keys;
            }
        char *btitle = mem_alloc_atomic(strlen(title) + 64);
        sprintf(btitle, "%s, column %s", title, d->as.table.blocks.items[b].name ? d->as.table.blocks.items[b].name : "?");
        TableDim *dim = &t->col_rows[b];
        ok &= build_dim(c, btitle, rspec, rows, n, dim);
        if (!ok)
            break;
        if (dim->mode == KEYS_INDEX) {
            for (int k = 0; k < dim->nkeys; k++)
                if (dim->index[k] >= 0)
                    dim->index[k] = global[dim->index[k]];
        } else {
            for (int k = 0; k < dim->nkeys; k++)
                dim->row[k] = global[dim->row[k]];
        }
        for (int k = 0; k < n; k++)
            t->dim[0].labels[global[k]] = dim->labels[k];
    }
    return ok;
}

/* The row key of a table without `column` blocks. */
static bool build_rows(Compiler *c, const char *title, const Decl *d, const DimSpec *rspec, Table *t)
{
    int nrows = d->as.table.nrows;
    const KeyList **rows = mem_alloc(sizeof(KeyList *) * (size_t)(nrows + 1));
    for (int r = 0; r < nrows; r++)
        rows[r] = &d->as.table.rows[r].keys;
    return build_dim(c, title, rspec, rows, nrows, &t->dim[0]);
}

/* A `?` cell: record it for the warnings, described by its row and column. */
static void unknown_cell(Compiler *c, const char *title, const Decl *d, const Table *t, int r, int k, Span at)
{
    const Row *row = &d->as.table.rows[r];
    char *what = mem_alloc_atomic(256);
    const char *col = d->as.table.blocks.n ? (row->block >= 0 ? t->dim[1].labels[row->block] : "?")
                      : t->dim[1].labels && t->dim[1].labels[k] ? t->dim[1].labels[k] : "?";
    if (t->ndims == 2)
        snprintf(what, 256, "%s, row %s, column %s", title, t->dim[0].labels[r] ? t->dim[0].labels[r] : "?",
                 col ? col : "?");
    else
        snprintf(what, 256, "%s, row %s", title, t->dim[0].labels[r] ? t->dim[0].labels[r] : "?");
    comp_list_unknown(c, at, what);
}

/* Cell k of row r (a table `width` cells wide). */
static bool fill_cell(Compiler *c, const char *title, const Decl *d, const ProcSig *sig, Table *t, int r, int k,
                      int width)
{
    const Expr *cell = d->as.table.rows[r].cells.items[k];
    int at = r * width + k;
    t->cell_offsets[at] = comp_pos(c, cell->span.begin);
    if (cell->kind == EX_UNKNOWN || cell->kind == EX_NA) {
        t->kinds[at] = cell->kind == EX_UNKNOWN ? CELL_UNKNOWN : CELL_NA;
        if (cell->kind == EX_UNKNOWN)
            unknown_cell(c, title, d, t, r, k, cell->span);
        return true;
    }
    return comp_const_value(c, cell, sig->ret, &t->cells[at]);
}

/* The cells, row by row, and the bands' words for each row. */
static bool fill_cells(Compiler *c, const char *title, const Decl *d, const ProcSig *sig, Table *t, int width)
{
    bool ok = true;
    int nrows = d->as.table.nrows;
    t->row_texts = mem_alloc(sizeof(char *) * (size_t)(nrows + 1));
    for (int r = 0; r < nrows; r++) {
        const Row *row = &d->as.table.rows[r];
        SourceMark in_row = comp_enter_source(c, row->src);
        t->row_texts[r] = row->text;
        if (row->text && !t->bands)
            comp_error(c, row->span, "only bands give each row the sheet's words");
        if (row->cells.n != width) {
            comp_error(c, row->span, "this row has %d %s, but %s has %d column%s", row->cells.n,
                       row->cells.n == 1 ? "value" : "values", title, width, width == 1 ? "" : "s");
            comp_leave_source(c, in_row);
            ok = false;
            continue;
        }
        for (int k = 0; k < width; k++)
            COMP_AT_SOURCE(c, row->cell_src ? row->cell_src[k] : NULL,
                           ok &= fill_cell(c, title, d, sig, t, r, k, width));
        comp_leave_source(c, in_row);
    }
    return ok;
}

/* The procedure behind the table: LOAD each key, TABLE, RETURN. */
static void table_proc(Compiler *c, ProcSig *sig, const Decl *d, int index)
{
    int ndims = d->params.n;
    FnState *fn = comp_begin_params(c, sig, &d->params);
    for (int i = 0; i < ndims; i++) {
        comp_emit_op(c, OP_LOAD, d->name_span);
        comp_emit_byte(c, (uint8_t)i, d->name_span);
    }
    comp_emit_table(c, index, ndims, d->name_span);
    comp_emit_op(c, OP_RETURN, d->name_span);
    comp_end_fn(c, fn);
}

void comp_table(Compiler *c, ProcSig *sig, const Decl *d)
{
    bool bands = d->kind == DECL_BANDS;
    const char *kind = bands ? "bands" : "table";
    char *title = mem_alloc_atomic(strlen(d->name) + 16);
    sprintf(title, "%s '%s'", kind, d->name);
    int ndims = d->params.n, nrows = d->as.table.nrows, nblocks = d->as.table.blocks.n, ncols;
    bool ok = true;
    if (!table_shape(c, d, kind, title, &ncols))
        return;
    for (int i = 0; i < ndims; i++)
        if (d->params.items[i].deflt) {
            comp_error(c, d->params.items[i].deflt->span, "the keys of a %s have no defaults", kind);
            ok = false;
        }
    if (bands && sig->ptypes[0].kind != TY_INT && !is_err(sig->ptypes[0])) {
        comp_error(c, d->params.items[0].type.span, "bands are looked up by an int (a die total), not by %s",
                   comp_type_name(c, sig->ptypes[0]));
        return;
    }
    if (is_err(sig->ret) || is_err(sig->ptypes[0]) || (ndims == 2 && is_err(sig->ptypes[1])))
        return;

    int width = ndims == 2 && !nblocks ? ncols : 1;
    Table *t = new_table(d->name, ndims, nrows, width);
    t->bands = bands;
    DimSpec rspec = { "row", false, &d->params.items[0], sig->ptypes[0], bands };
    if (nblocks) {
        ok &= build_columns(c, title, d, sig, true, t);
        ok &= rows_in_blocks(c, d);
        ok = build_block_rows(c, title, d, &rspec, t, ok);
    } else {
        ok &= build_rows(c, title, d, &rspec, t);
        if (ndims == 2)
            ok &= build_columns(c, title, d, sig, false, t);
    }
    if (!ok || !fill_cells(c, title, d, sig, t, width))
        return;
    table_proc(c, sig, d, chunk_add_table(c->prog, t));
}

/* ---- outcomes and texts ---- */

/* The field values of member m of an outcome: given, or the fields' defaults. */
static bool member_fields(Compiler *c, const Decl *d, const ParamList *fields, const Type *types, Table *t, int m)
{
    bool ok = true;
    const Member *mem = &d->as.enm.items[m];
    const Expr **given = mem_alloc(sizeof(Expr *) * (size_t)(fields->n + 1));
    for (int a = 0; a < mem->fields.n; a++) {
        const Arg *arg = &mem->fields.items[a];
        int f = a;
        if (arg->name) {
            for (f = 0; f < fields->n && strcmp(fields->items[f].name, arg->name); f++)
                ;
            if (f == fields->n) {
                comp_error(c, arg->name_span, "outcome %s has no field '%s'", d->name, arg->name);
                ok = false;
                continue;
            }
        } else if (f >= fields->n) {
            comp_error(c, arg->value->span, "outcome %s has only %d field%s", d->name, fields->n,
                       fields->n == 1 ? "" : "s");
            ok = false;
            continue;
        }
        if (given[f]) {
            comp_error(c, arg->value->span, "field '%s' is given twice", fields->items[f].name);
            ok = false;
        }
        given[f] = arg->value;
    }
    for (int f = 0; f < fields->n; f++) {
        const Expr *v = given[f] ? given[f] : fields->items[f].deflt;
        int at = m * fields->n + f;
        if (!v) {
            comp_error(c, mem->span, "%s says nothing of '%s' and the field has no default",
                       mem->name, fields->items[f].name);
            ok = false;
            continue;
        }
        /* a field's default is written where the field is, which may be
         * another file than the member (a variant's new member) */
        const Source *from = given[f] ? c->src : fields->items[f].src ? fields->items[f].src : decl_source(c, d);
        SourceMark in_value = comp_enter_source(c, from);
        t->cell_offsets[at] = comp_pos(c, v->span.begin);
        if (v->kind == EX_UNKNOWN) {
            t->kinds[at] = CELL_UNKNOWN;
            char *what = mem_alloc_atomic(256);
            snprintf(what, 256, "outcome %s, %s, field %s", d->name, mem->name, fields->items[f].name);
            comp_list_unknown(c, v->span, what);
        } else {
            ok &= comp_const_value(c, v, types[f], &t->cells[at]);
        }
        comp_leave_source(c, in_value);
    }
    return ok;
}

void comp_outcome_fields(Compiler *c, int enum_id, const Decl *d)
{
    const ParamList *fields = &d->params;
    c->outcome_fields[enum_id] = fields;
    if (fields->n == 0)
        return;
    int n = d->as.enm.n;
    Type *types = mem_alloc(sizeof(Type) * (size_t)(fields->n + 1));
    bool ok = true;
    for (int f = 0; f < fields->n; f++) {
        ok &= comp_resolve_type(c, fields->items[f].type, &types[f]);
        for (int g = 0; g < f; g++)
            if (!strcmp(fields->items[f].name, fields->items[g].name)) {
                comp_error(c, fields->items[f].span, "field '%s' is listed twice", fields->items[f].name);
                ok = false;
            }
    }
    if (!ok)
        return;
    Table *t = new_table(d->name, 2, n, fields->n);
    t->dim[0] = identity_dim(n);
    t->dim[0].key_tag = VAL_ENUM;
    t->dim[0].key_enum = enum_id;
    t->dim[1] = identity_dim(fields->n);
    t->fields = true;
    /* name members and fields in messages, not their numbers */
    t->dim[0].labels = mem_alloc(sizeof(char *) * (size_t)(n + 1));
    for (int m = 0; m < n; m++)
        t->dim[0].labels[m] = d->as.enm.items[m].name;
    t->dim[1].labels = mem_alloc(sizeof(char *) * (size_t)(fields->n + 1));
    for (int f = 0; f < fields->n; f++)
        t->dim[1].labels[f] = fields->items[f].name;
    for (int m = 0; m < n; m++)
        COMP_AT_SOURCE(c, d->as.enm.items[m].src, ok &= member_fields(c, d, fields, types, t, m));
    if (ok)
        c->field_tables[enum_id] = chunk_add_table(c->prog, t);
}


int comp_text_table(Compiler *c, int enum_id)
{
    if (c->text_tables[enum_id] >= 0)
        return c->text_tables[enum_id];
    const EnumDesc *e = &c->prog->enums[enum_id];
    char *name = mem_alloc_atomic(strlen(e->name) + 16);
    sprintf(name, "text of %s", e->name);
    Table *t = new_table(name, 1, e->nmembers, 1);
    t->dim[0] = identity_dim(e->nmembers);
    t->dim[0].key_tag = VAL_ENUM;
    t->dim[0].key_enum = enum_id;
    for (int m = 0; m < e->nmembers; m++) {
        const char *s = e->texts && e->texts[m] ? e->texts[m] : e->members[m];
        t->cells[m] = val_str(val_new_str(s, strlen(s)));
    }
    return c->text_tables[enum_id] = chunk_add_table(c->prog, t);
}
