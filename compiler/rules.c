/* rules.c — modifier lists, examples, turn sequences and the ruleset header.
 *
 * A modifier list compiles to a procedure that keeps a running total and
 * reports each item that applies (NOTE), so an explanation can say "+1
 * Enfilade, -1 Light cover".  The items apply in the order written, which
 * is the sheet's own math order: modifiers add, factors multiply the total
 * so far, caps clamp it.
 *
 * An example compiles to a procedure of its own whose expectations report
 * both sides (EXPECT), with the dice it declares fed in as scripted dice.
 */
#include "config.h"
#include "compiler/internal.h"
#include "base/mem.h"

#include <string.h>

/* ---- modifiers ---- */

typedef struct ModState {
    int total;               /* slot of the running total */
    bool rat;                /* the total may be fractional */
} ModState;

static void emit_load(Compiler *c, int slot, Span at)
{
    comp_emit_op(c, OP_LOAD, at);
    comp_emit_byte(c, (uint8_t)slot, at);
}

static void emit_store(Compiler *c, int slot, Span at)
{
    comp_emit_op(c, OP_STORE, at);
    comp_emit_byte(c, (uint8_t)slot, at);
}

static void emit_note(Compiler *c, const char *label, NoteKind kind, Span at)
{
    int k = chunk_const(c->fn->proto, val_str(val_new_str(label ? label : "", label ? strlen(label) : 0)));
    comp_emit_op(c, OP_NOTE, at);
    comp_emit_u16(c, (unsigned)k, at);
    comp_emit_byte(c, (uint8_t)kind, at);
}

static void want_bool(Compiler *c, const Expr *e)
{
    Type t = comp_expr(c, e, T_BOOL);
    if (t.kind == TY_INT)
        /* `optics : -1`: an amount for each of a count */
        comp_error(c, e->span, "the condition of a modifier must be true or false, not int; "
                   "for an amount per unit of a count, write 'each' before it: 'each %s : AMOUNT \"Label\"'",
                   mem_printed((void (*)(FILE *, const void *))ast_print_expr, e));
    else if (!fits(T_BOOL, t))
        comp_error(c, e->span, "the condition of a modifier must be true or false, not %s", comp_type_name(c, t));
}

static void want_number(Compiler *c, ModState *m, const Expr *e, const char *what)
{
    Type t = comp_expr(c, e, T_INT);
    if (t.kind == TY_RAT)
        m->rat = true;
    else if (!is_num(t) && !is_err(t))
        comp_error(c, e->span, "%s must be a number, not %s", what, comp_type_name(c, t));
}

/* total = total OP (value on the stack) */
static void apply(Compiler *c, const ModState *m, OpCode op, Span at)
{
    emit_load(c, m->total, at);
    comp_emit_op(c, op, at);
    emit_store(c, m->total, at);
}

/* The effect of an item whose condition held (or the count of `each`). */
static void item_effect(Compiler *c, ModState *m, const ModItem *it, int count_slot)
{
    switch (it->kind) {
    case MOD_ADD:
        want_number(c, m, it->value, "a modifier");
        emit_note(c, it->label, NOTE_ADD, it->span);
        apply(c, m, OP_ADD, it->span);
        break;
    case MOD_MUL:
        want_number(c, m, it->value, "a factor");
        m->rat = true;
        emit_note(c, it->label, NOTE_MUL, it->span);
        apply(c, m, OP_MUL, it->span);
        break;
    case MOD_EACH:
        want_number(c, m, it->value, "a modifier");
        emit_load(c, count_slot, it->span);
        comp_emit_op(c, OP_MUL, it->span);
        emit_note(c, it->label, NOTE_ADD, it->span);
        apply(c, m, OP_ADD, it->span);
        break;
    default:
        break;
    }
}

/* Compile the test of an item; returns the jump to patch when it fails,
 * and for `each` the slot holding the count. */
static int item_test(Compiler *c, const ModItem *it, int *count_slot)
{
    if (it->kind == MOD_EACH) {
        Type t = comp_expr(c, it->cond, T_INT);
        if (t.kind != TY_INT && !is_err(t))
            comp_error(c, it->cond->span, "'each' counts with an int, not %s", comp_type_name(c, t));
        *count_slot = comp_add_temp(c, it->cond->span);
        emit_store(c, *count_slot, it->span);
        emit_load(c, *count_slot, it->span);
        comp_emit_const(c, val_int(0), it->span);
        comp_emit_op(c, OP_NE, it->span);
    } else {
        want_bool(c, it->cond);
    }
    return comp_emit_jump(c, OP_JUMP_FALSE, it->cond->span);
}

static void mod_items(Compiler *c, ModState *m, const ModList *items, bool top)
{
    for (int i = 0; i < items->n; i++) {
        const ModItem *it = &items->items[i];
        SourceMark in_item = comp_enter_source(c, it->src);
        int count = 0;
        switch (it->kind) {
        case MOD_BASE:
            if (!top || i != 0) {
                comp_error(c, it->span, "'start at' gives the starting value, so it comes first");
                break;
            }
            want_number(c, m, it->value, "the base");
            emit_note(c, it->label, NOTE_BASE, it->span);
            emit_store(c, m->total, it->span);
            break;
        case MOD_NOTE:
            break;   /* a line of the sheet that is not a number: printed, never added */
        case MOD_ADD: case MOD_MUL: case MOD_EACH: {
            int skip = item_test(c, it, &count);
            item_effect(c, m, it, count);
            comp_patch_jump(c, skip);
            break;
        }
        case MOD_ONEOF: {
            /* the first item whose condition holds, and no other */
            int *ends = mem_alloc_atomic(sizeof(int) * (size_t)(it->group.n + 1));
            int nends = 0;
            for (int k = 0; k < it->group.n; k++) {
                const ModItem *g = &it->group.items[k];
                SourceMark in_line = comp_enter_source(c, g->src);
                if (g->kind != MOD_ADD && g->kind != MOD_MUL && g->kind != MOD_EACH) {
                    comp_error(c, g->span, "'one of' holds conditional modifiers only");
                } else {
                    int skip = item_test(c, g, &count);
                    item_effect(c, m, g, count);
                    ends[nends++] = comp_emit_jump(c, OP_JUMP, g->span);
                    comp_patch_jump(c, skip);
                }
                comp_leave_source(c, in_line);
            }
            for (int k = 0; k < nends; k++)
                comp_patch_jump(c, ends[k]);
            if (it->group.n < 2)
                comp_error(c, it->span, "'one of' needs at least two modifiers to choose from");
            break;
        }
        case MOD_CAP: {
            const Key *r = &it->range;
            if (r->kind == KEY_INT) {
                comp_error(c, r->span, "a cap is a range, such as -6.. or ..+3 or -3..3");
                break;
            }
            int capped = comp_add_temp(c, it->span);
            emit_load(c, m->total, it->span);
            if (!r->lo_open) {
                comp_emit_const(c, val_int(r->lo), it->span);
                comp_emit_op(c, OP_MAX, it->span);
            }
            if (!r->hi_open) {
                comp_emit_const(c, val_int(r->hi), it->span);
                comp_emit_op(c, OP_MIN, it->span);
            }
            emit_store(c, capped, it->span);
            /* report the cap only when it bites */
            emit_load(c, capped, it->span);
            emit_load(c, m->total, it->span);
            comp_emit_op(c, OP_NE, it->span);
            int skip = comp_emit_jump(c, OP_JUMP_FALSE, it->span);
            emit_load(c, capped, it->span);
            emit_note(c, it->label, NOTE_CAP, it->span);
            comp_emit_op(c, OP_POP, it->span);
            comp_patch_jump(c, skip);
            emit_load(c, capped, it->span);
            emit_store(c, m->total, it->span);
            break;
        }
        }
        comp_leave_source(c, in_item);
    }
}

void comp_modifiers(Compiler *c, ProcSig *sig, const Decl *d)
{
    FnState *fn = comp_begin_params(c, sig, &d->params);
    ModState m = { .rat = sig->ret.kind == TY_RAT };
    m.total = comp_add_temp(c, d->name_span);
    const ModList *items = &d->as.mods.items;
    if (items->n == 0 || items->items[0].kind != MOD_BASE) {
        comp_emit_const(c, val_int(0), d->name_span);
        emit_store(c, m.total, d->name_span);
    }
    mod_items(c, &m, items, true);
    emit_load(c, m.total, d->as.mods.items.n ? d->as.mods.items.items[items->n - 1].span : d->name_span);
    comp_emit_op(c, OP_RETURN, d->name_span);
    comp_end_fn(c, fn);
    if (m.rat && sig->ret.kind == TY_INT)
        comp_error(c, d->name_span, "the total of '%s' can be a fraction; declare it '-> rat' and round it where "
                   "the rules say", d->name);
}

/* ---- examples ---- */

static bool is_comparison(const Expr *e)
{
    return e->kind == EX_BINARY && e->as.binary.op >= OPR_EQ && e->as.binary.op <= OPR_GE;
}

void comp_expect(Compiler *c, const Stmt *s)
{
    const Expr *e = s->as.ret;
    Example *ex = &c->out->examples[c->out->nexamples - 1];
    int index = ex->nexpects;
    int op = -1;
    int left = comp_add_temp(c, e->span), right = comp_add_temp(c, e->span);
    Span at = e->span;
    if (e->kind == EX_BINARY && e->as.binary.op == OPR_APPROX) {
        /* a ~ b within t: |a - b| <= t */
        const Expr *parts[3] = { e->as.binary.left, e->as.binary.right, e->as.binary.tolerance };
        int slots[3] = { left, right, comp_add_temp(c, e->span) };
        for (int k = 0; k < 3; k++) {
            Type t = comp_expr(c, parts[k], T_NONE);
            if (!is_num(t) && !is_err(t))
                comp_error(c, parts[k]->span, "'~ ... within ...' compares numbers, not %s", comp_type_name(c, t));
            emit_store(c, slots[k], at);
        }
        op = OPR_APPROX;
        emit_load(c, left, at);
        emit_load(c, right, at);
        emit_load(c, left, at);
        emit_load(c, right, at);
        comp_emit_op(c, OP_SUB, at);
        comp_emit_op(c, OP_ABS, at);
        emit_load(c, slots[2], at);
        comp_emit_op(c, OP_LE, e->as.binary.op_span);
    } else if (is_comparison(e)) {
        /* keep both sides, to show them when the claim fails */
        const Expr *l = e->as.binary.left, *r = e->as.binary.right;
        Type lt = comp_expr(c, l, T_NONE);
        Type rt = comp_expr(c, r, lt.kind == TY_ENUM ? lt : T_NONE);
        op = e->as.binary.op;
        bool ordered = op != OPR_EQ && op != OPR_NE;
        bool ok = is_err(lt) || is_err(rt) || (is_num(lt) && is_num(rt))
                  || (same(lt, rt) && (lt.kind == TY_ENUM || (!ordered && lt.kind != TY_POOL)));
        if (!ok)
            comp_error(c, e->span, "cannot compare %s with %s here", comp_type_name(c, lt), comp_type_name(c, rt));
        emit_store(c, right, at);
        emit_store(c, left, at);
        emit_load(c, left, at);
        emit_load(c, right, at);
        emit_load(c, left, at);
        emit_load(c, right, at);
        comp_emit_op(c, (OpCode)(OP_EQ + (op - OPR_EQ)), e->as.binary.op_span);
    } else {
        Type t = comp_expr(c, e, T_BOOL);
        if (!fits(T_BOOL, t))
            comp_error(c, e->span, "'expect' needs a claim that is true or false, such as f(x) == 3, not %s",
                       comp_type_name(c, t));
        emit_store(c, left, at);
        emit_load(c, left, at);
        comp_emit_op(c, OP_TRUE, at);
        emit_load(c, left, at);
    }
    comp_emit_op(c, OP_EXPECT, s->span);
    comp_emit_u16(c, (unsigned)index, s->span);
    int tcap = ex->nexpects;
    ex->tolerances = ast_grow(ex->tolerances, ex->nexpects, &tcap, sizeof(char *));
    /* the tolerance as written (0.01 reads better than 1/100) */
    const Expr *tol = op == OPR_APPROX ? e->as.binary.tolerance : NULL;
    ex->tolerances[ex->nexpects] = tol ? mem_strndup(c->src->text + tol->span.begin, tol->span.end - tol->span.begin)
                                       : NULL;
    ex->expects = ast_grow(ex->expects, ex->nexpects, &ex->expects_cap, sizeof(Span));
    ex->expects[ex->nexpects] = e->span;
    int cap = ex->nexpects;
    ex->expect_ops = ast_grow(ex->expect_ops, ex->nexpects, &cap, sizeof(int));
    ex->expect_ops[ex->nexpects++] = op;
}

void comp_example(Compiler *c, const Decl *d)
{
    Compiled *out = c->out;
    int cap = out->nexamples;
    out->examples = ast_grow(out->examples, out->nexamples, &cap, sizeof(Example));
    Example *ex = &out->examples[out->nexamples++];
    memset(ex, 0, sizeof *ex);
    ex->name = d->name;
    ex->decl = d;
    ex->src = c->src;
    ex->of_base = d->of_base;
    ex->choices = mem_alloc_atomic(sizeof(int) * (size_t)(c->prog->nenums + 1));
    for (int i = 0; i < c->prog->nenums; i++)
        ex->choices[i] = -1;
    /* the dice of the example, in the order written (its choices are made as it runs) */
    int64_t *dice = NULL;
    const char **words = NULL;
    bool any_word = false;
    int ndice = 0, dcap = 0, wcap = 0;
    for (int i = 0; i < d->as.proc.body.n; i++) {
        const Stmt *s = d->as.proc.body.items[i];
        if (s->kind != ST_DICE)
            continue;
        const int64_t *faces = s->as.dice.list.items;
        const char **named = NULL;
        long n = s->as.dice.list.n;
        if (s->as.dice.text) {
            /* dice "hit, blank, 3": read as --dice reads it */
            int64_t *parsed;
            char err[256];
            n = dice_parse_list(s->as.dice.text, &parsed, &named, err, sizeof err);
            if (n < 0) {
                comp_error(c, s->span, "%s", err);
                continue;
            }
            faces = parsed;
        }
        for (long k = 0; k < n; k++) {
            int at = ndice;
            dice = ast_grow(dice, ndice, &dcap, sizeof(int64_t));
            words = ast_grow(words, at, &wcap, sizeof(char *));
            dice[ndice++] = faces[k];
            words[at] = named ? named[k] : NULL;
            any_word |= words[at] != NULL;
        }
    }
    ex->dice = dice;
    ex->dice_words = any_word ? words : NULL;
    ex->ndice = ndice;

    char *name = mem_alloc_atomic(strlen(d->name) + 16);
    sprintf(name, "example \"%s\"", d->name);
    Proto *proto = chunk_proto_new(c->prog, name, comp_pos(c, d->name_span.begin));
    proto->hidden = true;
    ex->proto = c->prog->nprotos - 1;
    ProcSig *sig = mem_alloc(sizeof *sig);
    *sig = (ProcSig){ .kind = SIG_PROC, .name = name, .proto = ex->proto, .ret = T_INT, .span = d->name_span,
                      .decl = d };
    FnState *fn = mem_alloc(sizeof *fn);
    comp_begin_fn(c, fn, sig, name, d->name_span);
    fn->scope = 1;
    comp_block(c, &d->as.proc.body);
    comp_emit_const(c, val_int(0), d->as.proc.body_end);
    comp_emit_op(c, OP_RETURN, d->as.proc.body_end);
    comp_end_fn(c, fn);
    if (ex->nexpects == 0)
        comp_error(c, d->name_span, "example \"%s\" expects nothing; add a line such as 'expect f(x) == 3'", d->name);
}

/* ---- the turn sequence ---- */

static void check_steps(Compiler *c, const SeqList *items, int depth)
{
    for (int i = 0; i < items->n; i++) {
        const SeqItem *it = &items->items[i];
        if (it->proc && !comp_find_proc(c, it->proc))
            comp_error(c, it->proc_span, "step names '%s', but there is no procedure of that name", it->proc);
        if (it->phase) {
            if (it->children.n == 0)
                comp_error(c, it->span, "this phase has no steps");
            if (depth >= 4)
                comp_error(c, it->span, "phases nest at most four deep");
            check_steps(c, &it->children, depth + 1);
        }
    }
}

void comp_sequence(Compiler *c, const Decl *d)
{
    Compiled *out = c->out;
    for (int i = 0; i < out->nsequences; i++)
        if (!strcmp(out->sequences[i]->name, d->name)) {
            comp_error(c, d->name_span, "sequence '%s' is declared twice", d->name);
            return;
        }
    if (d->as.seq.items.n == 0)
        comp_error(c, d->name_span, "sequence '%s' has no phases or steps", d->name);
    check_steps(c, &d->as.seq.items, 0);
    int cap = out->nsequences;
    out->sequences = ast_grow(out->sequences, out->nsequences, &cap, sizeof(Decl *));
    out->sequences[out->nsequences++] = d;
}

/* ---- the ruleset header ---- */

static const char *const ruleset_keys[] = { "source", "units", "version", "author", "scale", "note", NULL };

void comp_ruleset(Compiler *c, const Decl *d)
{
    if (c->out->ruleset) {
        /* an imported file's header is its own business */
        if (c->out->ruleset->src == d->src) {
            comp_error(c, d->name_span, "a script has one ruleset header");
        }
        return;
    }
    for (int i = 0; i < d->as.ruleset.n; i++) {
        const Setting *s = &d->as.ruleset.items[i];
        int k;
        for (k = 0; ruleset_keys[k] && strcmp(ruleset_keys[k], s->key); k++)
            ;
        if (!ruleset_keys[k])
            comp_error(c, s->span, "a ruleset header knows source, units, version, author, scale and note, not '%s'",
                       s->key);
        for (int j = 0; j < i; j++)
            if (!strcmp(d->as.ruleset.items[j].key, s->key))
                comp_error(c, s->span, "'%s' is given twice", s->key);
    }
    if (d->src == c->out->src)
        c->out->ruleset = d;
}
