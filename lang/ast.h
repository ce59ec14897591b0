/* ast.h — the syntax tree the parser builds and the compiler walks.
 *
 * Nodes are plain structs from the collector, each with the Span of source
 * it came from.  The tree says what was written, nothing more: names are
 * unresolved strings and there are no types yet — the compiler decides
 * both.  Every expression records its nesting depth so that absurdly deep
 * input is refused by the parser (with a message) before any recursive walk
 * could exhaust the C stack.
 */
#ifndef MUSTER_LANG_AST_H
#define MUSTER_LANG_AST_H

#include "source.h"

#include <stdbool.h>
#include <stdint.h>

/* Deepest expression or block nesting accepted. */
#define AST_MAX_DEPTH 1000

typedef enum {
    EX_INT, EX_BOOL, EX_STR, EX_NAME, EX_MEMBER,
    EX_UNARY, EX_BINARY, EX_CALL, EX_ROLL, EX_ERROR
} ExprKind;

typedef enum {
    OPR_ADD, OPR_SUB, OPR_MUL, OPR_DIV, OPR_MOD,
    OPR_EQ, OPR_NE, OPR_LT, OPR_LE, OPR_GT, OPR_GE,
    OPR_AND, OPR_OR, OPR_NEG, OPR_NOT
} Operator;

extern const char *const ast_operator_text[];

typedef struct Expr Expr;

typedef struct Arg {
    const char *name;        /* NULL for a positional argument */
    Span name_span;
    Expr *value;
} Arg;

struct Expr {
    ExprKind kind;
    Span span;
    int depth;
    union {
        int64_t i;
        bool b;
        struct { const char *bytes; size_t len; } str;
        const char *name;
        struct { const char *type, *member; } member;
        struct { Operator op; Expr *operand; } unary;
        struct { Operator op; Expr *left, *right; Span op_span; } binary;
        struct { const char *callee; Span callee_span; Arg *args; int nargs; } call;
        struct { Expr *count; int64_t sides; } roll;   /* count NULL: a single die */
    } as;
};

typedef struct TypeRef {
    const char *name;        /* NULL when absent */
    Span span;
} TypeRef;

typedef struct Stmt Stmt;

typedef struct StmtList {
    Stmt **items;
    int n, cap;
} StmtList;

typedef enum { ST_LET, ST_ASSIGN, ST_RETURN, ST_IF, ST_REROLL } StmtKind;

struct Stmt {
    StmtKind kind;
    Span span;
    union {
        struct { const char *name; Span name_span; TypeRef type; Expr *value; } let;  /* and assign */
        Expr *ret;
        struct { Expr *cond; StmtList then, els; Span else_span; bool has_else; } if_;
    } as;
};

typedef struct Param {
    const char *name;
    Span span;
    TypeRef type;
    Expr *deflt;             /* NULL when none */
} Param;

typedef enum { DECL_PROC, DECL_ENUM } DeclKind;

typedef struct Decl {
    DeclKind kind;
    Span span;
    const char *name;
    Span name_span;
    union {
        struct { Param *params; int nparams, cap; TypeRef ret; StmtList body; Span body_end; } proc;
        struct { const char **members; Span *spans; int n, cap; } enm;
    } as;
} Decl;

typedef struct Module {
    const Source *src;
    Decl **decls;
    int n, cap;
} Module;

/* Constructors used by the parser. */
Expr *ast_expr(ExprKind kind, Span span);
Expr *ast_unary(Operator op, Expr *operand, Span span);
Expr *ast_binary(Operator op, Span op_span, Expr *l, Expr *r, Span span);
Expr *ast_call(const char *callee, Span callee_span, Arg *args, int nargs, Span span);
Expr *ast_roll(Expr *count, int64_t sides, Span span);
Stmt *ast_stmt(StmtKind kind, Span span);
void ast_stmt_push(StmtList *list, Stmt *s);
Decl *ast_decl(DeclKind kind, const char *name, Span name_span, Span span);
void ast_param_push(Decl *proc, Param p);
void ast_member_push(Decl *enm, const char *name, Span span);
void ast_module_push(Module *m, Decl *d);

#endif
