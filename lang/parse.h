/* parse.h — turning a Source into a Module (syntax tree).
 *
 * The parser is Bison-generated (parser.y, pure and reentrant) and reads
 * tokens from an re2c lexer (lexer.re) over the in-memory source text.  All
 * state lives in a Parser struct passed to both, so parses can run in
 * parallel.  Syntax errors are reported through the Diag with the span of
 * the offending token; after an error the parser skips to the end of the
 * current declaration and goes on, so one run can show several mistakes.
 */
#ifndef MUSTER_LANG_PARSE_H
#define MUSTER_LANG_PARSE_H

#include "lang/ast.h"
#include "lang/source.h"

typedef struct Parser {
    const Source *src;
    Diag *diag;
    Module *module;
    /* lexer state */
    const char *cur, *lim, *tok;
    /* open brackets, innermost last, for "not closed" notes */
    uint32_t open[AST_MAX_DEPTH + 1];
    char open_ch[AST_MAX_DEPTH + 1];
    char open_kind[AST_MAX_DEPTH + 1];   /* for '{': the kind of block (see brace_kind) */
    int pending_block;       /* the kind of block the next '{' opens */
    int nopen;
    int aborted;             /* a fatal problem (too deep) was reported */
    int skip_to;             /* after a syntax error: skip tokens until open[skip_to] closes; -1 none */
    /* table and bands bodies are read a row a line: the lexer marks line ends there */
    int table_depth;         /* bracket depth of the body being read; 0 when none */
    int last_token;
    int replay_close;        /* a '}' to deliver after the ROWEND that ends the last row */
    /* `##` documentation comments, in order */
    struct DocLine { uint32_t begin, end; const char *text; } *docs;
    int ndocs, docs_cap;
    /* parse_expression: the lexer first hands the parser START_EXPR, and the
     * parser leaves the expression here */
    int start_expr;
    Expr *expr;
} Parser;

/* Parse a whole source.  Always returns a module (possibly partial);
 * check diag->errors to know whether it is complete. */
Module *parse_module(const Source *src, Diag *diag);

/* Parse a source that must be exactly one expression (`muster -e`).
 * NULL, with the errors reported, when it is not. */
Expr *parse_expression(const Source *src, Diag *diag);

/* The lexer, for the parser and for tests: the next token's kind, with its
 * value in *lval and its span in *loc.  0 at the end of input. */
union LANG_YYSTYPE;
int lang_lex(Parser *ps, union LANG_YYSTYPE *lval, Span *loc);
void lang_lex_init(Parser *ps, const Source *src, Diag *diag);

#endif
