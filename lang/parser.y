/* parser.y — muster's grammar (Bison).  Generates parser.c / parser.h.
 *
 * Pure and reentrant: all state is in the Parser passed as %param.
 * Locations are byte-offset Spans; they turn into line:column only when a
 * message is printed.  Syntax errors name what was found and what could
 * come instead; after one, the parser skips to the next '}' and carries on.
 */
%code top {
#include "config.h"
}

%code requires {
#include "ast.h"
typedef struct Parser Parser;
typedef struct ArgList { Arg *items; int n, cap; } ArgList;
}

%code provides {
int lang_yylex(LANG_YYSTYPE *lval, Span *loc, Parser *ps);
void lang_yyerror(Span *loc, Parser *ps, const char *msg);
}

%code {
#include "parse.h"
#include "mem.h"

#include <string.h>

/* Bison's stacks hold tree pointers: keep them where the collector looks. */
#define YYSTACK_USE_ALLOCA 0
#define YYMALLOC mem_alloc
#define YYFREE(p) ((void)(p))

#define YYLLOC_DEFAULT(Cur, Rhs, N)                                   \
    do {                                                              \
        if (N) {                                                      \
            (Cur).begin = YYRHSLOC(Rhs, 1).begin;                     \
            (Cur).end = YYRHSLOC(Rhs, N).end;                         \
        } else {                                                      \
            (Cur).begin = (Cur).end = YYRHSLOC(Rhs, 0).end;           \
        }                                                             \
    } while (0)

static Span span2(Span a, Span b) { Span s = { a.begin, b.end }; return s; }

/* Refuse trees deeper than AST_MAX_DEPTH, once, and stop the parse. */
#define DEPTH(e)                                                                \
    do {                                                                        \
        if ((e)->depth > AST_MAX_DEPTH) {                                       \
            diag_report(ps->diag, DIAG_ERROR, ps->src, (e)->span,               \
                        "expression nested more than %d deep; split it up with 'let'", \
                        AST_MAX_DEPTH);                                         \
            ps->aborted = 1;                                                    \
            YYABORT;                                                            \
        }                                                                       \
    } while (0)

static void arg_push(ArgList *l, Arg a)
{
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 4;
        l->items = mem_realloc(l->items, sizeof(Arg) * (size_t)l->cap, sizeof(Arg) * (size_t)cap, 0);
        l->cap = cap;
    }
    l->items[l->n++] = a;
}
}

%define api.pure full
%define api.prefix {lang_yy}
%define api.location.type {Span}
%define parse.error custom
%define parse.lac full
%locations
%expect 0
%param {Parser *ps}

%union {
    int64_t i;
    const char *s;
    struct { const char *bytes; size_t len; } str;
    Expr *expr;
    Stmt *stmt;
    StmtList stmts;
    Arg arg;
    ArgList args;
    Decl *decl;
    TypeRef type;
    Param param;
}

%token END 0 "end of file"
%token <s> IDENT "name"
%token <i> INT "number"
%token <i> DIE "die"
%token <str> STRING "string"
%token PROC "'proc'" ENUM "'enum'" LET "'let'" RETURN "'return'" IF "'if'" ELSE "'else'"
%token REROLL "'reroll'" ROLL "'roll'" TRUE "'true'" FALSE "'false'"
%token AND "'and'" OR "'or'" NOT "'not'"
%token ARROW "'->'" EQ "'=='" NE "'!='" LE "'<='" GE "'>='"

%left OR
%left AND
%precedence NOT
%nonassoc EQ NE '<' LE '>' GE
%left '+' '-'
%left '*' '/' '%'
%precedence NEG

%type <expr> expr primary
%type <stmt> stmt if_stmt
%type <stmts> stmts block
%type <arg> arg
%type <args> args args_opt
%type <decl> decl proc_head enum_head params_opt params members_opt members
%type <type> type ret_opt
%type <param> param

%%

module
    : %empty
    | module decl        { if ($2) ast_module_push(ps->module, $2); }
    | module error '}'
    ;

decl
    : proc_head ')' ret_opt block {
          $$ = $1;
          $$->as.proc.ret = $3;
          $$->as.proc.body = $4;
          $$->as.proc.body_end = @4;
          $$->as.proc.body_end.begin = @4.end - 1;
          $$->span = span2($1->span, @4);
      }
    | enum_head '}' { $$ = $1; $$->span = span2($1->span, @2); }
    ;

proc_head
    : PROC IDENT '(' params_opt {
          $$ = $4;
          $$->name = $2;
          $$->name_span = @2;
          $$->span = span2(@1, @2);
      }
    ;

params_opt
    : %empty         { $$ = ast_decl(DECL_PROC, NULL, @$, @$); }
    | params
    | params ','
    ;

params
    : param          { $$ = ast_decl(DECL_PROC, NULL, @$, @$); ast_param_push($$, $1); }
    | params ',' param { $$ = $1; ast_param_push($$, $3); }
    ;

param
    : IDENT ':' type          { $$ = (Param){ $1, @1, $3, NULL }; }
    | IDENT ':' type '=' expr { $$ = (Param){ $1, @1, $3, $5 }; }
    ;

ret_opt
    : %empty      { $$ = (TypeRef){ NULL, @$ }; }
    | ARROW type  { $$ = $2; }
    ;

type
    : IDENT       { $$ = (TypeRef){ $1, @1 }; }
    ;

enum_head
    : ENUM IDENT '{' members_opt {
          $$ = $4;
          $$->name = $2;
          $$->name_span = @2;
          $$->span = span2(@1, @2);
      }
    ;

members_opt
    : %empty       { $$ = ast_decl(DECL_ENUM, NULL, @$, @$); }
    | members
    | members ','
    ;

members
    : IDENT              { $$ = ast_decl(DECL_ENUM, NULL, @1, @1); ast_member_push($$, $1, @1); }
    | members IDENT      { $$ = $1; ast_member_push($$, $2, @2); }
    | members ',' IDENT  { $$ = $1; ast_member_push($$, $3, @3); }
    ;

block
    : '{' stmts '}'  { $$ = $2; }
    | '{' stmts error '}' { $$ = $2; yyerrok; }   /* the lexer skips to this '}' */
    ;

stmts
    : %empty         { $$ = (StmtList){ NULL, 0, 0 }; }
    | stmts stmt     { $$ = $1; ast_stmt_push(&$$, $2); }
    | stmts ';'      { $$ = $1; }
    ;

stmt
    : LET IDENT '=' expr {
          $$ = ast_stmt(ST_LET, @$);
          $$->as.let.name = $2; $$->as.let.name_span = @2;
          $$->as.let.type = (TypeRef){ NULL, @2 }; $$->as.let.value = $4;
      }
    | LET IDENT ':' type '=' expr {
          $$ = ast_stmt(ST_LET, @$);
          $$->as.let.name = $2; $$->as.let.name_span = @2;
          $$->as.let.type = $4; $$->as.let.value = $6;
      }
    | IDENT '=' expr {
          $$ = ast_stmt(ST_ASSIGN, @$);
          $$->as.let.name = $1; $$->as.let.name_span = @1;
          $$->as.let.type = (TypeRef){ NULL, @1 }; $$->as.let.value = $3;
      }
    | RETURN expr    { $$ = ast_stmt(ST_RETURN, @$); $$->as.ret = $2; }
    | REROLL         { $$ = ast_stmt(ST_REROLL, @$); }
    | if_stmt
    ;

if_stmt
    : IF expr block {
          $$ = ast_stmt(ST_IF, @$);
          $$->as.if_.cond = $2; $$->as.if_.then = $3;
      }
    | IF expr block ELSE block {
          $$ = ast_stmt(ST_IF, @$);
          $$->as.if_.cond = $2; $$->as.if_.then = $3;
          $$->as.if_.els = $5; $$->as.if_.has_else = true; $$->as.if_.else_span = @4;
      }
    | IF expr block ELSE if_stmt {
          $$ = ast_stmt(ST_IF, @$);
          $$->as.if_.cond = $2; $$->as.if_.then = $3;
          $$->as.if_.els = (StmtList){ NULL, 0, 0 };
          ast_stmt_push(&$$->as.if_.els, $5);
          $$->as.if_.has_else = true; $$->as.if_.else_span = @4;
      }
    ;

expr
    : expr OR expr   { $$ = ast_binary(OPR_OR, @2, $1, $3, @$); DEPTH($$); }
    | expr AND expr  { $$ = ast_binary(OPR_AND, @2, $1, $3, @$); DEPTH($$); }
    | NOT expr       { $$ = ast_unary(OPR_NOT, $2, @$); DEPTH($$); }
    | expr EQ expr   { $$ = ast_binary(OPR_EQ, @2, $1, $3, @$); DEPTH($$); }
    | expr NE expr   { $$ = ast_binary(OPR_NE, @2, $1, $3, @$); DEPTH($$); }
    | expr '<' expr  { $$ = ast_binary(OPR_LT, @2, $1, $3, @$); DEPTH($$); }
    | expr LE expr   { $$ = ast_binary(OPR_LE, @2, $1, $3, @$); DEPTH($$); }
    | expr '>' expr  { $$ = ast_binary(OPR_GT, @2, $1, $3, @$); DEPTH($$); }
    | expr GE expr   { $$ = ast_binary(OPR_GE, @2, $1, $3, @$); DEPTH($$); }
    | expr '+' expr  { $$ = ast_binary(OPR_ADD, @2, $1, $3, @$); DEPTH($$); }
    | expr '-' expr  { $$ = ast_binary(OPR_SUB, @2, $1, $3, @$); DEPTH($$); }
    | expr '*' expr  { $$ = ast_binary(OPR_MUL, @2, $1, $3, @$); DEPTH($$); }
    | expr '/' expr  { $$ = ast_binary(OPR_DIV, @2, $1, $3, @$); DEPTH($$); }
    | expr '%' expr  { $$ = ast_binary(OPR_MOD, @2, $1, $3, @$); DEPTH($$); }
    | '-' expr %prec NEG { $$ = ast_unary(OPR_NEG, $2, @$); DEPTH($$); }
    | primary
    ;

primary
    : INT            { $$ = ast_expr(EX_INT, @$); $$->as.i = $1; }
    | TRUE           { $$ = ast_expr(EX_BOOL, @$); $$->as.b = true; }
    | FALSE          { $$ = ast_expr(EX_BOOL, @$); $$->as.b = false; }
    | STRING         { $$ = ast_expr(EX_STR, @$); $$->as.str.bytes = $1.bytes; $$->as.str.len = $1.len; }
    | IDENT          { $$ = ast_expr(EX_NAME, @$); $$->as.name = $1; }
    | IDENT '.' IDENT {
          $$ = ast_expr(EX_MEMBER, @$);
          $$->as.member.type = $1; $$->as.member.member = $3;
      }
    | IDENT '(' args_opt ')' { $$ = ast_call($1, @1, $3.items, $3.n, @$); DEPTH($$); }
    | '(' expr ')'   { $$ = $2; }
    | ROLL DIE       { $$ = ast_roll(NULL, $2, @$); }
    | ROLL primary DIE { $$ = ast_roll($2, $3, @$); DEPTH($$); }
    ;

args_opt
    : %empty         { $$ = (ArgList){ NULL, 0, 0 }; }
    | args
    | args ','
    ;

args
    : arg            { $$ = (ArgList){ NULL, 0, 0 }; arg_push(&$$, $1); }
    | args ',' arg   { $$ = $1; arg_push(&$$, $3); }
    ;

arg
    : expr           { $$ = (Arg){ NULL, @1, $1 }; }
    | IDENT ':' expr { $$ = (Arg){ $1, @1, $3 }; }
    ;

%%

int lang_yylex(LANG_YYSTYPE *lval, Span *loc, Parser *ps)
{
    int tok = lang_lex(ps, lval, loc);
    if (ps->skip_to >= 0) {
        /* recovering: everything up to the '}' closing the block is dropped */
        while (tok != END && !(tok == '}' && ps->nopen == ps->skip_to))
            tok = lang_lex(ps, lval, loc);
        ps->skip_to = -1;
    }
    return tok;
}

void lang_yyerror(Span *loc, Parser *ps, const char *msg)
{
    if (ps->aborted)
        return;
    if (strcmp(msg, "memory exhausted") == 0) {
        diag_report(ps->diag, DIAG_ERROR, ps->src, *loc,
                    "nested too deeply for the parser; split this into smaller pieces");
        ps->aborted = 1;
        return;
    }
    diag_report(ps->diag, DIAG_ERROR, ps->src, *loc, "%s", msg);
}

static const char *describe(yysymbol_kind_t sym)
{
    return yysymbol_name(sym);
}

static bool expects(const yysymbol_kind_t *list, int n, yysymbol_kind_t sym)
{
    for (int i = 0; i < n; i++)
        if (list[i] == sym)
            return true;
    return false;
}

static int yyreport_syntax_error(const yypcontext_t *ctx, Parser *ps)
{
    if (ps->aborted)
        return 0;
    yysymbol_kind_t found = yypcontext_token(ctx);
    const Span *loc = yypcontext_location(ctx);
    yysymbol_kind_t expected[YYNTOKENS];
    int n = yypcontext_expected_tokens(ctx, expected, YYNTOKENS);
    char msg[512];
    size_t len = 0;
    if (found == YYSYMBOL_IDENT || found == YYSYMBOL_INT || found == YYSYMBOL_DIE)
        len += (size_t)snprintf(msg + len, sizeof msg - len, "unexpected %s '%.*s'", describe(found),
                                (int)(loc->end - loc->begin > 40 ? 40 : loc->end - loc->begin),
                                ps->src->text + loc->begin);
    else
        len += (size_t)snprintf(msg + len, sizeof msg - len, "unexpected %s", describe(found));
    if (n > 0 && n <= 5) {
        len += (size_t)snprintf(msg + len, sizeof msg - len, "; expected ");
        for (int i = 0; i < n && len < sizeof msg; i++)
            len += (size_t)snprintf(msg + len, sizeof msg - len, "%s%s",
                                    i == 0 ? "" : i == n - 1 ? " or " : ", ", describe(expected[i]));
    }
    bool new_decl = (found == YYSYMBOL_PROC || found == YYSYMBOL_ENUM) && ps->nopen > 0;
    char first = ps->src->text[loc->begin];
    bool comparison = found == YYSYMBOL_EQ || found == YYSYMBOL_NE || found == YYSYMBOL_LE || found == YYSYMBOL_GE
                      || (loc->end == loc->begin + 1 && (first == '<' || first == '>'));
    bool brace = false;   /* is a '{' one of the things that could come here? */
    for (int i = 0; i < n; i++)
        brace |= expected[i] == YYTRANSLATE('{');
    if (found == YYSYMBOL_DIE && expects(expected, n, YYSYMBOL_IDENT) && !expects(expected, n, YYTRANSLATE('+'))
        && len < sizeof msg)
        snprintf(msg + len, sizeof msg - len, " (a die like d6 cannot be used as a name)");
    else if (found == YYSYMBOL_DIE && len < sizeof msg)
        snprintf(msg + len, sizeof msg - len, " (dice are rolled with 'roll', as in 'roll 2d6')");
    else if (comparison && len < sizeof msg)
        snprintf(msg + len, sizeof msg - len, " (comparisons do not chain: write 'a < x and x < b')");
    else if (brace && n > 5 && found != YYSYMBOL_YYEOF && len < sizeof msg)
        snprintf(msg + len, sizeof msg - len, " (is a '{' missing?)");
    else if (found == YYSYMBOL_YYUNDEF + 0 && 0)
        ;
    else if (loc->end == loc->begin + 1 && ps->src->text[loc->begin] == '=' && expects(expected, n, YYSYMBOL_EQ)
             && len < sizeof msg)
        snprintf(msg + len, sizeof msg - len, " (to compare, write '==')");
    else if (new_decl && len < sizeof msg)
        snprintf(msg + len, sizeof msg - len, " (a '%c' before it is still open)", ps->open_ch[ps->nopen - 1]);
    else if (found == YYSYMBOL_YYEOF && ps->nopen > 0 && len < sizeof msg)
        snprintf(msg + len, sizeof msg - len, " (a '%c' is still open)", ps->open_ch[ps->nopen - 1]);
    diag_report(ps->diag, DIAG_ERROR, ps->src, *loc, "%s", msg);
    /* Recover at the end of the innermost block around the error: the
     * lexer skips to the '}' that closes it (see lang_lex). */
    if (found != YYSYMBOL_YYEOF && !new_decl) {
        int top = ps->nopen - 1;
        if (top >= 0 && ps->open[top] == loc->begin)
            top--;   /* the unexpected token itself opened a bracket */
        if (found == YYSYMBOL_YYUNDEF || ps->src->text[loc->begin] != '}')
            while (top >= 0 && ps->open_ch[top] != '{')
                top--;
        else
            top = -1;
        ps->skip_to = top;
    }
    if ((found == YYSYMBOL_YYEOF || new_decl) && ps->nopen > 0) {
        Span open = { ps->open[ps->nopen - 1], ps->open[ps->nopen - 1] + 1 };
        diag_report(ps->diag, DIAG_NOTE, ps->src, open, "this '%c' is never closed", ps->open_ch[ps->nopen - 1]);
    }
    return 0;
}

Module *parse_module(const Source *src, Diag *diag)
{
    Parser ps;
    lang_lex_init(&ps, src, diag);
    Module *m = mem_alloc(sizeof *m);
    m->src = src;
    ps.module = m;
    const char *nul = memchr(src->text, '\0', src->len);
    if (nul) {
        Span at = { (uint32_t)(nul - src->text), (uint32_t)(nul - src->text) + 1 };
        diag_report(diag, DIAG_ERROR, src, at,
                    "the file contains a NUL byte: it looks like binary data, not a muster script");
        return m;
    }
    lang_yyparse(&ps);
    return m;
}
