/* diff.c — muster diff: what a house rule changes, set against the rules.
 *
 * Three parts, each skipped when it has nothing to say:
 *   1. every declaration of the variant that differs from the rules' of the
 *      same name — its rows, cells, modifier lines, members, parameters'
 *      defaults, result and body, each as the rules have it and as the
 *      variant does — and the declarations only one side has;
 *   2. the rules' worked examples the variant changes (a variant of them
 *      runs them itself; see examples.c);
 *   3. the odds of every procedure both give that runs without arguments
 *      (or of the one call named), side by side as prob --vs shows them,
 *      for those whose odds differ; the others are named on one line.
 * Declarations are compared by what they say, not where they are written,
 * so `diff` works as well on a copy of the rules edited by hand.
 */
#include "config.h"
#include "api/internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- what a declaration says, part by part ---- */

/* One part of a declaration: a row's cell, a line, a member, a default. */
typedef struct Part {
    const char *key;         /* "row light", "line \"Cover\"", "parameter x" */
    const char *text;        /* what it says there */
} Part;

typedef struct Parts {
    Part *items;
    int n, cap;
} Parts;

/* Parts are found by key; a key said twice (two lines of one label) is
 * told apart by its count: "line \"Charged\" (2)". */
static void add_part(Parts *ps, const char *key, const char *text)
{
    int seen = 0;
    for (int i = 0; i < ps->n; i++)
        seen += !strcmp(ps->items[i].key, key);
    if (seen) {
        char *numbered = mem_alloc_atomic(strlen(key) + 24);
        sprintf(numbered, "%s (%d)", key, seen + 1);
        key = numbered;
    }
    AST_PUSH(*ps, ((Part){ key, text }));
}

static void print_expr(FILE *out, const void *e)
{
    ast_print_expr(out, e);
}

static char *expr_text(const Expr *e)
{
    return mem_printed(print_expr, e);
}

static char *joined(const char *a, const char *sep, const char *b)
{
    char *out = mem_alloc_atomic(strlen(a) + strlen(sep) + strlen(b) + 1);
    strcpy(out, a);
    strcat(out, sep);
    strcat(out, b);
    return out;
}

static void table_parts(const Decl *d, Parts *ps)
{
    const KeyList *cols = &d->as.table.columns;
    for (int r = 0; r < d->as.table.nrows; r++) {
        const Row *row = &d->as.table.rows[r];
        for (int k = 0; k < row->keys.n; k++) {
            char *key = joined("row ", "", ast_key_text(&row->keys.items[k]));
            if (row->block >= 0 && row->block < d->as.table.blocks.n)   /* `column NAME` blocks */
                key = joined(joined("column ", "", ast_key_text(&d->as.table.blocks.items[row->block])), ", ", key);
            if (cols->n && row->cells.n == cols->n) {
                for (int c = 0; c < cols->n; c++)
                    add_part(ps, joined(key, ", column ", ast_key_text(&cols->items[c])),
                             expr_text(row->cells.items[c]));
                continue;
            }
            char *text = mem_strdup("");
            for (int c = 0; c < row->cells.n; c++)
                text = joined(text, c ? " " : "", expr_text(row->cells.items[c]));
            bool said = row->cells.n == 1 && row->cells.items[0]->kind == EX_STR;   /* `=> "words"` */
            if (row->text && !said)
                text = joined(text, text[0] ? " " : "", joined("\"", row->text, "\""));
            add_part(ps, key, text);
        }
    }
}

static const char *line_text(const Decl *d, const ModItem *it)
{
    return api_folded_text(it->src ? it->src : d->src, it->span);
}

static void mod_parts(const Decl *d, const ModList *items, Parts *ps)
{
    for (int i = 0; i < items->n; i++) {
        const ModItem *it = &items->items[i];
        if (it->kind == MOD_ONEOF)
            mod_parts(d, &it->group, ps);
        else
            add_part(ps, joined("line \"", it->label ? it->label : "", "\""), line_text(d, it));
    }
}

static void member_parts(const Decl *d, Parts *ps)
{
    for (int i = 0; i < d->as.enm.n; i++) {
        const Member *m = &d->as.enm.items[i];
        char *text = m->text ? joined("\"", m->text, "\"") : mem_strdup("");
        for (int a = 0; a < m->fields.n; a++) {
            const Arg *arg = &m->fields.items[a];
            char *one = arg->name ? joined(arg->name, ": ", expr_text(arg->value)) : expr_text(arg->value);
            text = joined(text, a ? ", " : text[0] ? " (" : "(", one);
        }
        if (m->fields.n)
            text = joined(text, "", ")");
        add_part(ps, joined("member ", "", m->name), text);
    }
    if (d->as.enm.flavour == ENUM_CHOICE && d->as.enm.deflt)
        add_part(ps, "default", d->as.enm.deflt);
}

/* A procedure's body, as written (white space folded). */
static const char *body_text(const Decl *d)
{
    const StmtList *body = &d->as.proc.body;
    if (!body->n)
        return "";
    Span at = { body->items[0]->span.begin, d->as.proc.body_end.end };
    return api_folded_text(d->src, at);
}

static void proc_parts(const Decl *d, Parts *ps)
{
    for (int i = 0; i < d->params.n; i++) {
        const Param *p = &d->params.items[i];
        const char *text = p->type.name ? p->type.name : "?";
        if (p->deflt)
            text = joined(text, " = ", expr_text(p->deflt));
        add_part(ps, joined("parameter ", "", p->name), text);
    }
    add_part(ps, "result", d->ret.name ? d->ret.name : "(none)");
    add_part(ps, "body", body_text(d));
}

static Parts parts_of(const Decl *d)
{
    Parts ps = { NULL, 0, 0 };
    switch (d->kind) {
    case DECL_TABLE: case DECL_BANDS: table_parts(d, &ps); break;
    case DECL_MODIFIERS: mod_parts(d, &d->as.mods.items, &ps); break;
    case DECL_ENUM: member_parts(d, &ps); break;
    case DECL_PROC: proc_parts(d, &ps); break;
    default: add_part(&ps, "declaration", api_folded_text(d->src, d->span)); break;
    }
    return ps;
}

static const Part *find_part(const Parts *ps, const char *key)
{
    for (int i = 0; i < ps->n; i++)
        if (!strcmp(ps->items[i].key, key))
            return &ps->items[i];
    return NULL;
}

/* ---- the declarations ---- */

static const char *kind_word(const Decl *d)
{
    static const char *const flavours[] = { "enum", "ladder", "outcome", "choice" };
    switch (d->kind) {
    case DECL_PROC: return "proc";
    case DECL_TABLE: return "table";
    case DECL_BANDS: return "bands";
    case DECL_MODIFIERS: return "modifiers";
    case DECL_ENUM: return flavours[d->as.enm.flavour];
    case DECL_RECORD: return "record";
    case DECL_SEQUENCE: return "sequence";
    default: return NULL;
    }
}

static void put_where(FILE *out, const Decl *d)
{
    int line, col;
    source_linecol(d->src, d->name_span.begin, &line, &col);
    fputs(" (", out);
    diag_put_text(out, d->src->path);
    fprintf(out, ":%d)", line);
}

static const Decl *find_decl(const Module *m, const Decl *like)
{
    for (int i = 0; i < m->n; i++) {
        const Decl *d = m->decls[i];
        if (d->name && !strcmp(d->name, like->name) && kind_word(d) && !strcmp(kind_word(d), kind_word(like)))
            return d;
    }
    return NULL;
}

static void put_text(FILE *out, const char *text)
{
    if (!text[0]) {
        fputs("(nothing)", out);
        return;
    }
    size_t n = strlen(text);
    if (n > 70) {
        char cut[72];
        memcpy(cut, text, 67);
        strcpy(cut + 67, "...");
        diag_put_text(out, cut);
    } else {
        diag_put_text(out, text);
    }
}

/* The parts of a that b says otherwise or not at all, then b's new ones. */
static int put_changes(FILE *out, const Parts *a, const Parts *b)
{
    int n = 0;
    for (int i = 0; i < a->n; i++) {
        const Part *now = find_part(b, a->items[i].key);
        if (now && !strcmp(now->text, a->items[i].text))
            continue;
        fputs("    ", out);
        diag_put_text(out, a->items[i].key);
        fputs(": ", out);
        put_text(out, a->items[i].text);
        fputs(" → ", out);
        if (now)
            put_text(out, now->text);
        else
            fputs("(gone)", out);
        fputc('\n', out);
        n++;
    }
    for (int i = 0; i < b->n; i++) {
        if (find_part(a, b->items[i].key))
            continue;
        fputs("    ", out);
        diag_put_text(out, b->items[i].key);
        fputs(": (new) ", out);
        put_text(out, b->items[i].text);
        fputc('\n', out);
        n++;
    }
    return n;
}

/* Part 1; returns how many declarations differ. */
static int declarations(FILE *out, const Compiled *base, const Compiled *variant)
{
    int changed = 0;
    const Module *vm = variant->module, *bm = base->module;
    for (int i = 0; i < vm->n; i++) {
        const Decl *d = vm->decls[i];
        if (!kind_word(d))
            continue;
        const Decl *was = find_decl(bm, d);
        if (!was) {
            if (!changed++)
                fputs("Declarations:\n", out);
            fprintf(out, "  new %s %s", kind_word(d), d->name);
            put_where(out, d);
            fputc('\n', out);
            continue;
        }
        Parts a = parts_of(was), b = parts_of(d);
        if (d->kind == DECL_PROC && d->as.proc.body.items == was->as.proc.body.items)
            b.items[b.n - 1].text = a.items[a.n - 1].text;   /* the same body, read from the same place */
        char *lines = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&lines, &len);
        int n = f ? put_changes(f, &a, &b) : 1;
        if (f)
            fclose(f);
        if (n) {
            if (!changed++)
                fputs("Declarations:\n", out);
            fprintf(out, "  %s %s", kind_word(d), d->name);
            put_where(out, was);
            fputs(":\n", out);
            fputs(lines ? lines : "    (could not be compared)\n", out);
        }
        free(lines);
    }
    for (int i = 0; i < bm->n; i++) {
        const Decl *d = bm->decls[i];
        if (!kind_word(d) || find_decl(vm, d))
            continue;
        if (!changed++)
            fputs("Declarations:\n", out);
        fprintf(out, "  %s %s is gone", kind_word(d), d->name);
        put_where(out, d);
        fputc('\n', out);
    }
    return changed;
}

/* ---- the odds ---- */

/* Procedures the variant and the rules both give that run without
 * arguments, in the variant's order. */
static bool runs_alone(const ProcSig *sig)
{
    if (sig->kind != SIG_PROC || !sig->decl || sig->decl->kind != DECL_PROC)
        return false;
    for (int i = 0; i < sig->nparams; i++)
        if (sig->pdefault[i] < 0)
            return false;
    return true;
}

/* The odds of one call (of one field of it, when opts say) in both; true
 * when they differ, after printing them side by side. */
static int compare_call(muster_ctx *ctx, const Compiled *const sides[2], const char *const paths[2],
                        const char *proc, int nargs, char *const *args, const muster_prob_opts *opts,
                        uint64_t seed, bool *differs)
{
    Odds odds[2];
    int st = api_compute_odds(ctx, sides[0], proc, nargs, args, opts, seed, &odds[0]);
    if (st != MUSTER_OK)
        return st;
    st = api_compute_odds(ctx, sides[1], proc, nargs, args, opts, seed, &odds[1]);
    if (st == MUSTER_OK) {
        OddsVs vs;
        api_vs_build(sides, odds, paths, 2, opts, seed, &vs);
        *differs = api_vs_differs(&vs);
        if (*differs) {
            fputc('\n', ctx->out);
            api_vs_text(ctx->out, &vs);
        }
    }
    for (int k = 0; k < 2; k++)
        if (odds[k].exact && (k == 0 || st == MUSTER_OK))
            exact_clear(&odds[k].er);
    return st;
}

/* The call's odds; a record's field by field (unless opts name one). */
static int compare_proc(muster_ctx *ctx, const Compiled *const sides[2], const char *const paths[2],
                        const ProcSig *sig, int nargs, char *const *args, const muster_prob_opts *opts,
                        uint64_t seed, bool *differs)
{
    *differs = false;
    if (sig->ret.kind != TY_RECORD || opts->field)
        return compare_call(ctx, sides, paths, sig->name, nargs, args, opts, seed, differs);
    const RecordDesc *r = &sides[1]->prog->records[sig->ret.enum_id];
    for (int f = 0; f < r->nfields; f++) {
        muster_prob_opts one = *opts;
        one.field = r->fields[f];
        bool d = false;
        int st = compare_call(ctx, sides, paths, sig->name, nargs, args, &one, seed, &d);
        if (st != MUSTER_OK)
            return st;
        *differs |= d;
    }
    return MUSTER_OK;
}

/* Part 3: the call named, or every procedure both run without arguments. */
static int odds(muster_ctx *ctx, const Compiled *const sides[2], const char *const paths[2], const char *proc,
                int nargs, char *const *args, const muster_prob_opts *opts, uint64_t seed)
{
    int status = MUSTER_OK;
    char *same = mem_strdup("");
    int nsame = 0;
    for (int i = 0; i < sides[1]->nprocs; i++) {
        const ProcSig *sig = &sides[1]->procs[i];
        if (proc ? strcmp(sig->name, proc) != 0 : !runs_alone(sig))
            continue;
        const ProcSig *theirs = compiler_find_proc(sides[0], sig->name);
        if (!theirs || (!proc && !runs_alone(theirs)))
            continue;
        bool differs = false;
        int st = compare_proc(ctx, sides, paths, sig, proc ? nargs : 0, args, opts, seed, &differs);
        if (st == MUSTER_INTERRUPTED)
            return st;       /* (the caller asked to stop: no more procedures) */
        if (st != MUSTER_OK) {
            fprintf(ctx->out, "\n%s: the odds could not be worked out (see the error)\n", sig->name);
            status = st;
            if (proc)
                return st;
        } else if (!differs) {
            same = joined(same, nsame++ ? ", " : "", sig->name);
        }
    }
    if (nsame)
        fprintf(ctx->out, "\nThe same odds in both: %s\n", same);
    return status;
}

static int diff_printing(muster_ctx *ctx, const muster_program *base, const muster_program *variant, const char *proc,
                int nargs, char *const *args, const muster_prob_opts *opts)
{
    const Compiled *sides[2] = { base->compiled, variant->compiled };
    const char *paths[2] = { sides[0]->src->path, sides[1]->src->path };
    if (proc && !compiler_find_proc(sides[1], proc))
        return api_usage_error(ctx, "%s has no procedure '%s'", paths[1], proc);
    if (proc && !compiler_find_proc(sides[0], proc))
        return api_usage_error(ctx, "%s has no procedure '%s'", paths[0], proc);
    diag_put_text(ctx->out, paths[0]);
    fputs(" against ", ctx->out);
    diag_put_text(ctx->out, paths[1]);
    fputs("\n\n", ctx->out);
    if (!declarations(ctx->out, sides[0], sides[1]))
        fputs("Declarations: none differs\n", ctx->out);
    bool of_base = false;
    for (int i = 0; i < sides[1]->nexamples; i++)
        of_base |= sides[1]->examples[i].of_base;
    if (of_base) {
        /* only when the variant changes some */
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        FILE *out = ctx->out;
        ctx->out = f ? f : out;
        int changed = api_base_examples(ctx, sides[1], true);
        ctx->out = out;
        if (f)
            fclose(f);
        if (changed && text)
            fprintf(out, "\nThe rules' examples:\n%s", text);
        free(text);
    }
    uint64_t seed = opts->have_seed ? opts->seed : 1;
    int st = odds(ctx, sides, paths, proc, nargs, args, opts, seed);
    fflush(ctx->out);
    return st;
}

int muster_diff(muster_ctx *ctx, const muster_program *base, const muster_program *variant, const char *proc,
                int nargs, char *const *args, const muster_prob_opts *opts)
{
    MemCatch mc;
    API_TRY(ctx, mc, return MUSTER_NOMEM);
    int st = diff_printing(ctx, base, variant, proc, nargs, args, opts);
    return API_DONE(ctx, mc, st);
}
