/* ast.c — building syntax trees. */
#include "config.h"
#include "ast.h"
#include "mem.h"

const char *const ast_operator_text[] = {
    "+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or", "-", "not"
};

Expr *ast_expr(ExprKind kind, Span span)
{
    Expr *e = mem_alloc(sizeof *e);
    e->kind = kind;
    e->span = span;
    e->depth = 1;
    return e;
}

Expr *ast_unary(Operator op, Expr *operand, Span span)
{
    Expr *e = ast_expr(EX_UNARY, span);
    e->as.unary.op = op;
    e->as.unary.operand = operand;
    e->depth = operand->depth + 1;
    return e;
}

Expr *ast_binary(Operator op, Span op_span, Expr *l, Expr *r, Span span)
{
    Expr *e = ast_expr(EX_BINARY, span);
    e->as.binary.op = op;
    e->as.binary.op_span = op_span;
    e->as.binary.left = l;
    e->as.binary.right = r;
    e->depth = (l->depth > r->depth ? l->depth : r->depth) + 1;
    return e;
}

Expr *ast_call(const char *callee, Span callee_span, Arg *args, int nargs, Span span)
{
    Expr *e = ast_expr(EX_CALL, span);
    e->as.call.callee = callee;
    e->as.call.callee_span = callee_span;
    e->as.call.args = args;
    e->as.call.nargs = nargs;
    int d = 0;
    for (int i = 0; i < nargs; i++)
        if (args[i].value->depth > d)
            d = args[i].value->depth;
    e->depth = d + 1;
    return e;
}

Expr *ast_roll(Expr *count, int64_t sides, Span span)
{
    Expr *e = ast_expr(EX_ROLL, span);
    e->as.roll.count = count;
    e->as.roll.sides = sides;
    e->depth = count ? count->depth + 1 : 1;
    return e;
}

Stmt *ast_stmt(StmtKind kind, Span span)
{
    Stmt *s = mem_alloc(sizeof *s);
    s->kind = kind;
    s->span = span;
    return s;
}

#define GROW(arr, n, cap, type)                                                         \
    do {                                                                                \
        if ((n) == (cap)) {                                                             \
            int ncap_ = (cap) ? (cap) * 2 : 4;                                          \
            (arr) = mem_realloc((arr), sizeof(type) * (size_t)(cap),                    \
                                sizeof(type) * (size_t)ncap_, 0);                       \
            (cap) = ncap_;                                                              \
        }                                                                               \
    } while (0)

void ast_stmt_push(StmtList *list, Stmt *s)
{
    GROW(list->items, list->n, list->cap, Stmt *);
    list->items[list->n++] = s;
}

Decl *ast_decl(DeclKind kind, const char *name, Span name_span, Span span)
{
    Decl *d = mem_alloc(sizeof *d);
    d->kind = kind;
    d->name = name;
    d->name_span = name_span;
    d->span = span;
    return d;
}

void ast_param_push(Decl *proc, Param p)
{
    GROW(proc->as.proc.params, proc->as.proc.nparams, proc->as.proc.cap, Param);
    proc->as.proc.params[proc->as.proc.nparams++] = p;
}

void ast_member_push(Decl *enm, const char *name, Span span)
{
    int cap = enm->as.enm.cap;
    GROW(enm->as.enm.members, enm->as.enm.n, enm->as.enm.cap, const char *);
    if (cap != enm->as.enm.cap)
        enm->as.enm.spans = mem_realloc(enm->as.enm.spans, sizeof(Span) * (size_t)cap,
                                        sizeof(Span) * (size_t)enm->as.enm.cap, 1);
    enm->as.enm.spans[enm->as.enm.n] = span;
    enm->as.enm.members[enm->as.enm.n++] = name;
}

void ast_module_push(Module *m, Decl *d)
{
    GROW(m->decls, m->n, m->cap, Decl *);
    m->decls[m->n++] = d;
}
