/* parser_state.h — the state the lexer and the parser share, private to lang/.
 *
 * One Parser per parse, passed to the Bison parser (parser.y) and to the
 * re2c lexer (lexer.re): the source and its Diag, the module being built,
 * the lexer's cursor, the open brackets, the block kinds, the table body
 * being read a row a line, where to recover after a syntax error and the
 * `##` lines read so far.  Nothing outside lang/ includes this header but the lexer's
 * unit test and tests/editors/lexwords.c (where the lexer reads keywords, for
 * the editors' grammars); the rest of muster parses through parse.h.
 */
#ifndef MUSTER_LANG_PARSER_STATE_H
#define MUSTER_LANG_PARSER_STATE_H

#include "lang/parse.h"

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
    /* the first '}' (since the top level was last reached) indented less
     * than the line of the '{' it closes: that '{' is likely the one
     * missing its '}', the '}' meant for an outer block; 0 none */
    uint32_t unsure_open, unsure_close, unsure_outer;   /* offsets + 1 */
    /* in a variant, the block of a `change` (but of a procedure) is a patch
     * block, where `add` and `remove` are keywords: change_state is 1 just
     * after `change`, 2 after its kind word; patch_depth the block's depth */
    int change_state;
    int patch_depth;
    int replay_close;        /* a '}' to deliver after the ROWEND that ends the last row */
    /* `##` documentation comments, in order */
    struct DocLine { uint32_t begin, end; const char *text; } *docs;
    int ndocs, docs_cap;
    /* parse_expression: the lexer first hands the parser START_EXPR, and the
     * parser leaves the expression here */
    int start_expr;
    Expr *expr;
    /* text typed at a prompt (`muster repl`): an expression's errors speak
     * of the prompt, not of -e; and whether the first error was the end of
     * the text, met before what the text began was finished (short_at_end) */
    int at_prompt;
    int errors_at_start;
    int short_at_end;
    /* tokens read ahead (at most two), and whether the last was 'roll' (see lang_yylex) */
    struct Ahead *ahead;     /* two, allocated when first needed */
    int nahead;
    int after_roll;
} Parser;

/* The lexer, for the parser and for tests: the next token's kind, with its
 * value in *lval and its span in *loc.  0 at the end of input. */
union LANG_YYSTYPE;
int lang_lex(Parser *ps, union LANG_YYSTYPE *lval, Span *loc);
void lang_lex_init(Parser *ps, const Source *src, Diag *diag);

#endif
