/* ast.c — building syntax trees, and printing an expression back as text.
 *
 * The constructors the parser calls allocate each node from the collector
 * and work out its nesting depth from its children's.  ast_print_expr
 * writes an expression as it could be written, with only the parentheses
 * precedence needs (the sheets print defaults and cells through it).
 */
#include "config.h"
#include "lang/ast.h"
#include "base/mem.h"

#include <string.h>

const char *const ast_operator_text[] = {
    "+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or", "-", "not", "+", "~"
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

Expr *ast_roll_mixed(Expr **parts, int nparts, Span span)
{
    Expr *e = ast_expr(EX_ROLL, span);
    e->as.roll.parts = parts;
    e->as.roll.nparts = nparts;
    int d = 0;
    for (int i = 0; i < nparts; i++)
        if (parts[i]->depth > d)
            d = parts[i]->depth;
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

Expr *ast_roll_die(Expr *count, const char *die, Span die_span, Span span)
{
    Expr *e = ast_roll(count, 0, NULL, span);
    e->as.roll.die = die;
    e->as.roll.die_span = die_span;
    return e;
}

Expr *ast_draw(Expr *count, const char *bag, Span bag_span, Span span)
{
    Expr *e = ast_roll_die(count, bag, bag_span, span);
    e->as.roll.draw = true;
    return e;
}

/* Binding strength, for deciding where parentheses are needed. */
static int precedence(const Expr *e)
{
    if (e->kind == EX_BINARY) {
        switch (e->as.binary.op) {
        case OPR_OR: return 1;
        case OPR_AND: return 2;
        case OPR_EQ: case OPR_NE: case OPR_LT: case OPR_LE: case OPR_GT: case OPR_GE: return 4;
        case OPR_ADD: case OPR_SUB: return 5;
        default: return 6;
        }
    }
    if (e->kind == EX_UNARY)
        return e->as.unary.op == OPR_NOT ? 3 : 7;
    return 8;
}

static void print_sub(FILE *out, const Expr *e, int min)
{
    bool paren = precedence(e) < min;
    if (paren)
        fputc('(', out);
    ast_print_expr(out, e);
    if (paren)
        fputc(')', out);
}

/* The dice of a roll: "2d6", "n d(x)". */
static void print_dice(FILE *out, const Expr *e)
{
    if (e->as.roll.count) {
        print_sub(out, e->as.roll.count, 8);
        if (e->as.roll.count->kind != EX_INT)
            fputc(' ', out);
    }
    if (e->as.roll.die) {
        if (e->as.roll.count && e->as.roll.count->kind == EX_INT)
            fputc(' ', out);
        fputs(e->as.roll.die, out);
    } else if (e->as.roll.sides_expr) {
        fputs("d(", out);
        ast_print_expr(out, e->as.roll.sides_expr);
        fputc(')', out);
    } else {
        fprintf(out, "d%lld", (long long)e->as.roll.sides);
    }
}

void ast_print_expr(FILE *out, const Expr *e)
{
    switch (e->kind) {
    case EX_INT: fprintf(out, "%lld", (long long)e->as.i); break;
    case EX_BOOL: fputs(e->as.b ? "true" : "false", out); break;
    case EX_STR: fprintf(out, "\"%.*s\"", (int)e->as.str.len, e->as.str.bytes); break;
    case EX_NAME: fputs(e->as.name, out); break;
    case EX_MEMBER:
        print_sub(out, e->as.member.object, 8);
        fprintf(out, ".%s", e->as.member.member);
        break;
    case EX_UNARY:
        fputs(e->as.unary.op == OPR_NOT ? "not " : ast_operator_text[e->as.unary.op], out);
        print_sub(out, e->as.unary.operand, precedence(e));
        break;
    case EX_BINARY: {
        int p = precedence(e);
        if (e->as.binary.op == OPR_DIV && e->as.binary.left->kind == EX_INT && e->as.binary.right->kind == EX_INT) {
            /* a fraction reads 1/4 */
            fprintf(out, "%lld/%lld", (long long)e->as.binary.left->as.i, (long long)e->as.binary.right->as.i);
            break;
        }
        print_sub(out, e->as.binary.left, p);
        fprintf(out, " %s ", ast_operator_text[e->as.binary.op]);
        print_sub(out, e->as.binary.right, p + 1);
        break;
    }
    case EX_CALL:
        if (!strcmp(e->as.call.callee, AST_IN_CALLEE)) {
            print_sub(out, e->as.call.args[0].value, 5);
            fputs(" in [", out);
            for (int i = 1; i < e->as.call.nargs; i++) {
                if (i > 1)
                    fputs(", ", out);
                ast_print_expr(out, e->as.call.args[i].value);
            }
            fputc(']', out);
            break;
        }
        fprintf(out, "%s(", e->as.call.callee);
        for (int i = 0; i < e->as.call.nargs; i++) {
            if (i)
                fputs(", ", out);
            if (e->as.call.args[i].name)
                fprintf(out, "%s: ", e->as.call.args[i].name);
            ast_print_expr(out, e->as.call.args[i].value);
        }
        fputc(')', out);
        break;
    case EX_ROLL:
        if (e->as.roll.nparts) {
            fputs("roll [", out);
            for (int i = 0; i < e->as.roll.nparts; i++) {
                if (i)
                    fputs(", ", out);
                print_dice(out, e->as.roll.parts[i]);
            }
            fputc(']', out);
            break;
        }
        if (e->as.roll.draw) {
            fputs("draw ", out);
            if (e->as.roll.count) {
                print_sub(out, e->as.roll.count, 8);
                fputs(" from ", out);
            }
            fputs(e->as.roll.die, out);
            break;
        }
        fputs("roll ", out);
        print_dice(out, e);
        break;
    case EX_UNKNOWN: fputc('?', out); break;
    case EX_NA: fputc('-', out); break;
    case EX_ERROR: fputs("<error>", out); break;
    }
}

Stmt *ast_stmt(StmtKind kind, Span span)
{
    Stmt *s = mem_alloc(sizeof *s);
    s->kind = kind;
    s->span = span;
    return s;
}

void ast_each_name(const Expr *e, void (*fn)(void *ud, const Expr *name), void *ud)
{
    if (!e)
        return;
    switch (e->kind) {
    case EX_NAME:
        fn(ud, e);
        return;
    case EX_MEMBER:
        ast_each_name(e->as.member.object, fn, ud);
        return;
    case EX_UNARY:
        ast_each_name(e->as.unary.operand, fn, ud);
        return;
    case EX_BINARY:
        ast_each_name(e->as.binary.left, fn, ud);
        ast_each_name(e->as.binary.right, fn, ud);
        ast_each_name(e->as.binary.tolerance, fn, ud);
        return;
    case EX_CALL:
        for (int i = 0; i < e->as.call.nargs; i++)
            ast_each_name(e->as.call.args[i].value, fn, ud);
        return;
    case EX_ROLL:
        ast_each_name(e->as.roll.count, fn, ud);
        ast_each_name(e->as.roll.sides_expr, fn, ud);
        for (int i = 0; i < e->as.roll.nparts; i++)
            ast_each_name(e->as.roll.parts[i], fn, ud);
        return;
    default:
        return;
    }
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

char *ast_key_text(const Key *k)
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
