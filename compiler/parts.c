/* parts.c — the parts of a procedure's result that are only added up.
 *
 * In `return explode() + explode() + sum(roll 5d6)` each part's value is
 * only added to the others and returned.  The exact engine may then keep a
 * part as its distribution and add the distributions up (a convolution)
 * instead of running the rest once per outcome of the part: a DEFER after
 * each such part says so, and a SETTLE before the return (where a caller
 * that does not add the result up has one outcome chosen after all).  The
 * parts are calls of procedures and sums of a roll made there, which no one
 * else reads: two parts are then independent.
 *
 * A part may also be given a name first:
 *
 *     let a = explode()
 *     let b = explode()
 *     return a + b
 *
 * The let's value is then such a part when the name is read once in the
 * whole procedure, there, and the path from the let to that return cannot
 * leave in between: the name is bound nowhere else, the return is in the
 * let's own block, and no statement between holds a return or a reroll
 * (so every run that makes the part adds it up, or ends early, where the
 * engine accounts for the parts it holds).  A part that may end a run
 * must end it before the parts made after it, as when it was chosen where
 * it was made: the named parts of a return are taken only in the order
 * they were made, and before the parts written in the return itself.
 */
#include "config.h"
#include "compiler/internal.h"
#include "base/mem.h"

#include <string.h>

bool comp_is_fresh_sum(const Expr *e)
{
    if (e->kind != EX_CALL || strcmp(e->as.call.callee, "sum") || e->as.call.nargs != 1
        || e->as.call.args[0].name)
        return false;
    const Expr *p = e->as.call.args[0].value;
    return p->kind == EX_ROLL && !p->as.roll.draw;
}

/* A call of a procedure, or the sum of a fresh roll. */
static bool is_part(const Expr *e)
{
    return e->kind == EX_CALL && (comp_is_fresh_sum(e) || !comp_is_builtin(e->as.call.callee));
}

/* A let of an int (or of whatever the value is): not one that converts it. */
static bool plain_let(const Stmt *s)
{
    return s->kind == ST_LET && is_part(s->as.let.value)
        && (!s->as.let.type.name || !strcmp(s->as.let.type.name, "int"));
}

static void push_expr(const Expr ***list, int *n, int *cap, const Expr *e)
{
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        const Expr **grown = mem_alloc(sizeof(Expr *) * (size_t)*cap);
        if (*n)
            memcpy(grown, *list, sizeof(Expr *) * (size_t)*n);
        *list = grown;
    }
    (*list)[(*n)++] = e;
}

/* ---- named parts ---- */

/* A let whose value is a part, where it is. */
typedef struct Named {
    const Stmt *let;
    const StmtList *block;
    int at;                  /* its index in block */
    int binds, reads;        /* of its name, in the whole procedure */
    const Expr *read;        /* the last read */
} Named;

typedef struct Finder {
    Named *named;
    int n, cap;
} Finder;

static void collect(Finder *f, const StmtList *block)
{
    for (int i = 0; i < block->n; i++) {
        const Stmt *s = block->items[i];
        if (plain_let(s)) {
            if (f->n == f->cap) {
                f->cap = f->cap ? f->cap * 2 : 8;
                Named *grown = mem_alloc(sizeof(Named) * (size_t)f->cap);
                if (f->n)
                    memcpy(grown, f->named, sizeof(Named) * (size_t)f->n);
                f->named = grown;
            }
            f->named[f->n++] = (Named){ .let = s, .block = block, .at = i };
        } else if (s->kind == ST_IF) {
            collect(f, &s->as.if_.then);
            collect(f, &s->as.if_.els);
        }
    }
}

static void count_read(void *ud, const Expr *name)
{
    Finder *f = ud;
    for (int k = 0; k < f->n; k++)
        if (!strcmp(f->named[k].let->as.let.name, name->as.name)) {
            f->named[k].reads++;
            f->named[k].read = name;
        }
}

static void count_uses(Finder *f, const StmtList *block)
{
    for (int i = 0; i < block->n; i++) {
        const Stmt *s = block->items[i];
        switch (s->kind) {
        case ST_LET: case ST_ASSIGN:
            for (int k = 0; k < f->n; k++)
                if (!strcmp(f->named[k].let->as.let.name, s->as.let.name))
                    f->named[k].binds++;
            ast_each_name(s->as.let.value, count_read, f);
            break;
        case ST_RETURN: case ST_EXPECT:
            ast_each_name(s->as.ret, count_read, f);
            break;
        case ST_IF:
            ast_each_name(s->as.if_.cond, count_read, f);
            count_uses(f, &s->as.if_.then);
            count_uses(f, &s->as.if_.els);
            break;
        default:
            break;
        }
    }
}

/* Can statement s leave the procedure, or begin it again? */
static bool may_leave(const Stmt *s)
{
    if (s->kind == ST_RETURN || s->kind == ST_REROLL)
        return true;
    if (s->kind != ST_IF)
        return false;
    for (int i = 0; i < s->as.if_.then.n; i++)
        if (may_leave(s->as.if_.then.items[i]))
            return true;
    for (int i = 0; i < s->as.if_.els.n; i++)
        if (may_leave(s->as.if_.els.items[i]))
            return true;
    return false;
}

/* The parts of a sum or difference (e), below its additions, in order. */
static void parts_of(const Expr *e, const Expr ***list, int *n, int *cap)
{
    if (e->kind == EX_BINARY && (e->as.binary.op == OPR_ADD || e->as.binary.op == OPR_SUB)) {
        parts_of(e->as.binary.left, list, n, cap);
        parts_of(e->as.binary.right, list, n, cap);
    } else if (is_part(e) || e->kind == EX_NAME) {
        push_expr(list, n, cap, e);
    }
}

/* Named n is read as a part of the return at its block's index `ret`, with
 * nothing between that may leave. */
static bool read_as_part(const Named *n, int *ret)
{
    if (n->binds != 1 || n->reads != 1)
        return false;
    for (int j = n->at + 1; j < n->block->n; j++) {
        const Stmt *s = n->block->items[j];
        if (s->kind == ST_RETURN) {
            const Expr **parts = NULL;
            int np = 0, cap = 0;
            parts_of(s->as.ret, &parts, &np, &cap);
            for (int k = 0; k < np; k++)
                if (parts[k] == n->read) {
                    *ret = j;
                    return true;
                }
            return false;
        }
        if (may_leave(s))
            return false;
    }
    return false;
}

void comp_find_named_parts(Compiler *c, const StmtList *body)
{
    c->nnamed_lets = c->nnamed_reads = 0;
    Finder f = { 0 };
    collect(&f, body);
    if (!f.n)
        return;
    count_uses(&f, body);
    int *ret = mem_alloc_atomic(sizeof(int) * (size_t)f.n);
    for (int k = 0; k < f.n; k++)
        if (!read_as_part(&f.named[k], &ret[k]))
            ret[k] = -1;
    /* each return: its named parts in the order they were made, before any
     * part written in it */
    for (int k = 0; k < f.n; k++) {
        if (ret[k] < 0)
            continue;
        const Stmt *r = f.named[k].block->items[ret[k]];
        const Expr **parts = NULL;
        int np = 0, cap = 0, last = -1;
        parts_of(r->as.ret, &parts, &np, &cap);
        bool written = false;
        for (int p = 0; p < np; p++) {
            int m = -1;
            for (int q = 0; q < f.n; q++)
                if (ret[q] >= 0 && f.named[q].read == parts[p] && f.named[q].block == f.named[k].block)
                    m = q;
            if (m < 0) {
                written = written || parts[p]->kind != EX_NAME;
                continue;
            }
            if (!written && f.named[m].at > last) {
                last = f.named[m].at;
                push_expr(&c->named_reads, &c->nnamed_reads, &c->named_reads_cap, parts[p]);
                push_expr(&c->named_lets, &c->nnamed_lets, &c->named_lets_cap, f.named[m].let->as.let.value);
            }
            ret[m] = -1;     /* this return is done for it */
        }
    }
}

/* ---- DEFERs and SETTLEs ---- */

void comp_return_parts(Compiler *c, const Expr *ret)
{
    c->ndeferrable = c->deferred = 0;
    const Expr **parts = NULL;
    int np = 0, cap = 0;
    parts_of(ret, &parts, &np, &cap);
    for (int p = 0; p < np; p++) {
        if (parts[p]->kind != EX_NAME) {
            push_expr(&c->deferrable, &c->ndeferrable, &c->deferrable_cap, parts[p]);
            continue;
        }
        for (int k = 0; k < c->nnamed_reads; k++)
            if (c->named_reads[k] == parts[p])
                c->deferred++;   /* a SETTLE for it */
    }
}

void comp_let_part(Compiler *c, const Stmt *let)
{
    c->ndeferrable = c->deferred = 0;
    for (int k = 0; k < c->nnamed_lets; k++)
        if (c->named_lets[k] == let->as.let.value)
            push_expr(&c->deferrable, &c->ndeferrable, &c->deferrable_cap, let->as.let.value);
}

void comp_defer_part(Compiler *c, const Expr *e, Type t)
{
    if (t.kind != TY_INT)
        return;
    for (int i = 0; i < c->ndeferrable; i++)
        if (c->deferrable[i] == e) {
            comp_emit_op(c, OP_DEFER, e->span);
            c->deferred++;
            return;
        }
}
