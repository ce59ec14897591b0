/* ast.c — building syntax trees. */
#include "config.h"
#include "ast.h"
#include "mem.h"

const char *const ast_operator_text[] = {
    "+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or", "-", "not", "+"
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

Expr *ast_roll(Expr *count, int64_t sides, Expr *sides_expr, Span span)
{
    Expr *e = ast_expr(EX_ROLL, span);
    e->as.roll.count = count;
    e->as.roll.sides = sides;
    e->as.roll.sides_expr = sides_expr;
    int d = count ? count->depth : 0;
    if (sides_expr && sides_expr->depth > d)
        d = sides_expr->depth;
    e->depth = d + 1;
    return e;
}

Stmt *ast_stmt(StmtKind kind, Span span)
{
    Stmt *s = mem_alloc(sizeof *s);
    s->kind = kind;
    s->span = span;
    return s;
}

void *ast_grow(void *items, int n, int *cap, size_t size)
{
    if (n < *cap)
        return items;
    int ncap = *cap ? *cap * 2 : 4;
    items = mem_realloc(items, size * (size_t)*cap, size * (size_t)ncap, 0);
    *cap = ncap;
    return items;
}

void ast_stmt_push(StmtList *list, Stmt *s)
{
    AST_PUSH(*list, s);
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

void ast_module_push(Module *m, Decl *d)
{
    m->decls = ast_grow(m->decls, m->n, &m->cap, sizeof *m->decls);
    m->decls[m->n++] = d;
}
