/* parser.y — muster's grammar (Bison).  Generates parser.c / parser.h.
 *
 * Pure and reentrant: all state is in the Parser passed as %param.
 * Locations are byte-offset Spans; they turn into line:column only when a
 * message is printed.  Syntax errors name what was found and what could
 * come instead; after one, the rest of the innermost block around it is
 * dropped, up to the '}' that closes it, and the parse carries on.
 * At the end are parse.h's entry points, parse_module and parse_expression,
 * and the step that gives each declaration the `##` lines just above it.
 */
%code top {
#include "config.h"
}

%code requires {
#include "lang/ast.h"
typedef struct Parser Parser;
typedef struct Cite { const char *text; Span span; } Cite;
}

%code provides {
int lang_yylex(LANG_YYSTYPE *lval, Span *loc, Parser *ps);
void lang_yyerror(Span *loc, Parser *ps, const char *msg);
}

%code {
#include "lang/parser_state.h"
#include "base/mem.h"

#include <ctype.h>
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

/* Words that are keywords only where they stand (so they stay free as
 * names elsewhere): check that the name in that position is the word. */
static void want_word(Parser *ps, const char *got, Span at, const char *word, const char *what)
{
    if (strcmp(got, word) != 0)
        diag_report(ps->diag, DIAG_ERROR, ps->src, at, "expected '%s' here (%s), not '%s'", word, what, got);
}

static Decl *decl_with(Decl *d, const Source *src, Cite cite)
{
    d->src = src;
    d->cite = cite.text;
    d->cite_span = cite.span;
    return d;
}

/* A `change` declaration's marks. */
static void change_of(Decl *d, Span word)
{
    d->change = true;
    d->change_span = word;
    d->span = span2(word, d->span);
}

static Decl *change_members_of(Decl *members, const Source *src, Cite cite, const char *name, Span name_span,
                               Span span, EnumFlavour flavour)
{
    Decl *d = decl_with(members, src, cite);
    d->name = name;
    d->name_span = name_span;
    d->span = span;
    d->as.enm.flavour = flavour;
    return d;
}

static void push_row(Decl *t, Row row)
{
    t->as.table.rows = ast_grow(t->as.table.rows, t->as.table.nrows, &t->as.table.cap, sizeof(Row));
    row.block = t->as.table.blocks.n - 1;
    t->as.table.rows[t->as.table.nrows++] = row;
}

static Key int_key(int64_t v, Span at)
{
    Key k = { .kind = KEY_INT, .span = at, .lo = v, .hi = v };
    return k;
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
    struct { int64_t num, den; } q;
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
    ParamList params;
    Member member;
    Decl *members;
    Key key;
    KeyList keys;
    ExprList cells;
    Row row;
    ModItem mod;
    ModList mods;
    SeqItem seq;
    SeqList seqs;
    IntList ints;
    Cite cite;
    DieFace face;
}

%token END 0 "end of file"
%token <s> IDENT "name"
%token <i> INT "number"
%token <q> DECIMAL "decimal"
%token <i> DIE "die"
%token <str> STRING "string"
%token PROC "'proc'" ENUM "'enum'" LET "'let'" RETURN "'return'" IF "'if'" ELSE "'else'"
%token REROLL "'reroll'" ROLL "'roll'" TRUE "'true'" FALSE "'false'"
%token AND "'and'" OR "'or'" NOT "'not'"
%token RULESET "'ruleset'" LADDER "'ladder'" RECORD "'record'" TABLE "'table'" BANDS "'bands'"
%token MODIFIERS "'modifiers'" OUTCOME "'outcome'" CHOICE "'choice'" SEQUENCE "'sequence'"
%token EXAMPLE "'example'" IMPORT "'import'" EXPECT "'expect'" EACH "'each'" CAP "'cap'" NOTE "'note'"
%token SECTION "'section'" ODDS "'odds'" DIEDECL "'die'" OF "'of'" BAGDECL "'bag'" DRAW "'draw'" FROM "'from'"
%token IN "'in'"
%token VARIANT "'variant'" CHANGE "'change'" ADD "'add'" REMOVE "'remove'" ELLIPSIS "'...'"
%token ONEOF "'one of'" STARTAT "'start at'"
%token ARROW "'->'" EQ "'=='" NE "'!='" LE "'<='" GE "'>='" DOTDOT "'..'" FATARROW "'=>'"
%token DPAREN "'d('" ROWEND "end of row"
%token ROLLEND "end of the roll"   /* never written: see lang_yylex */
%token START_EXPR "start of an expression"   /* never in a script: see parse_expression */

%left OR
%left AND
%precedence NOT
%nonassoc EQ NE '<' LE '>' GE IN
%left '+' '-'
%left '*' '/' '%'
%precedence NEG

%type <expr> expr primary cell str_cell roll_part
%type <cells> roll_parts
%type <stmt> stmt if_stmt ex_stmt
%type <stmts> stmts block ex_stmts
%type <arg> arg
%type <args> args args_opt
%type <decl> decl proc_decl enum_decl outcome_decl choice_decl record_decl table_decl bands_decl
%type <decl> mods_decl seq_decl example_decl ruleset_decl import_decl table_body settings
%type <decl> variant_decl change_decl change_members_opt change_members section_decl odds_decl
%type <decl> die_decl bag_decl die_faces_opt die_faces
%type <face> die_face face_name
%type <member> change_member
%type <mod> patch_item
%type <mods> patch_items
%type <param> change_param
%type <params> change_params_opt change_params
%type <stmts> body_opt
%type <s> default_opt
%type <type> type ret_opt
%type <param> param field
%type <params> params_opt params fields_opt fields
%type <member> member
%type <members> members_opt members
%type <key> key range_key col_key
%type <keys> keys col_keys
%type <cells> cells str_cells
%type <row> row
%type <mod> mod_item
%type <mods> mod_items
%type <seq> seq_item
%type <seqs> seq_items
%type <ints> ints
%type <cite> cite_opt
%type <i> signed_int
%type <s> text_opt

%start start

%%

/* A script is a module; `muster -e` parses a lone expression (the lexer
 * hands over START_EXPR first, which no script can contain). */
start
    : module
    | START_EXPR expr    { ps->expr = $2; }
    ;

module
    : %empty
    | module decl        { if ($2) ast_module_push(ps->module, $2); }
    | module error '}'
    ;

decl
    : proc_decl | enum_decl | outcome_decl | choice_decl | record_decl | table_decl
    | bands_decl | mods_decl | seq_decl | example_decl | ruleset_decl | import_decl
    | variant_decl | change_decl | section_decl | odds_decl | die_decl | bag_decl
    ;

/* `bag Orders "order dice" { 8 union, 6 rebel, end_turn }`: items drawn without replacement */
bag_decl
    : BAGDECL IDENT text_opt cite_opt '{' die_faces_opt '}' {
          $$ = decl_with($6, ps->src, $4);
          $$->kind = DECL_BAG;
          $$->name = $2; $$->name_span = @2; $$->span = span2(@1, @7);
          $$->as.die.text = $3;
      }
    ;

/* `die Average "average die" { 2, 3, 3, 4, 4, 5 }`, `die Attack { 3 hit, crit, 2 focus, 2 blank }` */
die_decl
    : DIEDECL IDENT text_opt cite_opt '{' die_faces_opt '}' {
          $$ = decl_with($6, ps->src, $4);
          $$->name = $2; $$->name_span = @2; $$->span = span2(@1, @7);
          $$->as.die.text = $3;
      }
    ;

die_faces_opt
    : %empty               { $$ = ast_decl(DECL_DIE, NULL, @$, @$); }
    | die_faces
    | die_faces ','
    ;

die_faces
    : die_face                 { $$ = ast_decl(DECL_DIE, NULL, @1, @1); AST_PUSH($$->as.die, $1); }
    | die_faces ',' die_face   { $$ = $1; AST_PUSH($$->as.die, $3); }
    ;

die_face
    : signed_int                      { $$ = (DieFace){ .span = @$, .value = $1, .last = $1, .count = 1 }; }
    | signed_int DOTDOT signed_int    { $$ = (DieFace){ .span = @$, .value = $1, .last = $3, .count = 1 }; }
    | face_name                       { $$ = $1; $$.count = 1; }
    | INT face_name                   { $$ = $2; $$.span = @$; $$.count = $1; $$.count_span = @1; }
    ;

face_name
    : IDENT            { $$ = (DieFace){ .span = @$, .symbol = true, .name = $1, .name_span = @1 }; }
    | IDENT '.' IDENT  { $$ = (DieFace){ .span = @$, .symbol = true, .enum_name = $1, .name = $3, .name_span = @3 }; }
    ;

/* `section "Fire"`: the declarations after it, up to the next section, are
 * that part of the sheet */
section_decl
    : SECTION STRING cite_opt {
          $$ = decl_with(ast_decl(DECL_SECTION, $2.bytes, @2, span2(@1, @2)), ps->src, $3);
      }
    ;

/* `odds hit(cover: Cover) "Chance to hit" { chance shoot(cover) }`: a
 * procedure returning the claim (bool) or the number (rat) whose chance or
 * mean the sheet prints for every value of its parameters */
odds_decl
    : ODDS IDENT '(' params_opt ')' text_opt cite_opt '{' IDENT expr '}' {
          $$ = decl_with(ast_decl(DECL_PROC, $2, @2, span2(@1, @11)), ps->src, $7);
          $$->params = $4;
          $$->as.proc.title = $6;
          bool mean = !strcmp($9, "mean");
          if (!mean)
              want_word(ps, $9, @9, "chance", "'chance' and a claim, or 'mean' and a number");
          $$->as.proc.odds = mean ? ODDS_MEAN : ODDS_CHANCE;
          $$->ret = (TypeRef){ .name = mean ? "rat" : "bool", .span = @9 };
          Stmt *ret = ast_stmt(ST_RETURN, $10->span);
          ret->as.ret = $10;
          ast_stmt_push(&$$->as.proc.body, ret);
          $$->as.proc.body_end = (Span){ @11.begin, @11.end };
      }
    ;

/* `source "..."`: where in the rules text a declaration comes from */
cite_opt
    : %empty        { $$ = (Cite){ NULL, @$ }; }
    | IDENT STRING  { want_word(ps, $1, @1, "source", "a reference into the rules text"); $$ = (Cite){ $2.bytes, @2 }; }
    ;

proc_decl
    : PROC IDENT '(' params_opt ')' ret_opt cite_opt block {
          $$ = decl_with(ast_decl(DECL_PROC, $2, @2, span2(@1, @8)), ps->src, $7);
          $$->params = $4;
          $$->ret = $6;
          $$->as.proc.body = $8;
          $$->as.proc.body_end = (Span){ @8.end - 1, @8.end };
      }
    ;

params_opt
    : %empty         { $$ = (ParamList){ NULL, 0, 0 }; }
    | params
    | params ','
    ;

params
    : param             { $$ = (ParamList){ NULL, 0, 0 }; AST_PUSH($$, $1); }
    | params ',' param  { $$ = $1; AST_PUSH($$, $3); }
    ;

param
    : IDENT ':' type          { $$ = (Param){ .name = $1, .span = @1, .type = $3 }; }
    | IDENT ':' type '=' expr { $$ = (Param){ .name = $1, .span = @1, .type = $3, .deflt = $5 }; }
    | IDENT ':' type IDENT range_key {
          want_word(ps, $4, @4, "in", "the values this parameter covers");
          $$ = (Param){ .name = $1, .span = @1, .type = $3, .has_range = true, .lo = $5.lo, .hi = $5.hi,
                        .lo_open = $5.lo_open, .hi_open = $5.hi_open, .range_span = @5 };
      }
    ;

ret_opt
    : %empty      { $$ = (TypeRef){ .span = @$ }; }
    | ARROW type  { $$ = $2; }
    ;

type
    : IDENT       { $$ = (TypeRef){ $1, @1, NULL, @1 }; }
    | IDENT OF IDENT { $$ = (TypeRef){ $1, span2(@1, @3), $3, @3 }; }
    ;

/* ---- enums and their relatives ---- */

enum_decl
    : ENUM IDENT cite_opt '{' members_opt '}' {
          $$ = decl_with($5, ps->src, $3);
          $$->name = $2; $$->name_span = @2; $$->span = span2(@1, @6);
      }
    | LADDER IDENT cite_opt '{' members_opt '}' {
          $$ = decl_with($5, ps->src, $3);
          $$->name = $2; $$->name_span = @2; $$->span = span2(@1, @6);
          $$->as.enm.flavour = ENUM_LADDER;
      }
    ;

outcome_decl
    : OUTCOME IDENT cite_opt '{' members_opt '}' {
          $$ = decl_with($5, ps->src, $3);
          $$->name = $2; $$->name_span = @2; $$->span = span2(@1, @6);
          $$->as.enm.flavour = ENUM_OUTCOME;
      }
    | OUTCOME IDENT '(' params_opt ')' cite_opt '{' members_opt '}' {
          $$ = decl_with($8, ps->src, $6);
          $$->name = $2; $$->name_span = @2; $$->span = span2(@1, @9);
          $$->as.enm.flavour = ENUM_OUTCOME;
          $$->params = $4;
      }
    ;

choice_decl
    : CHOICE IDENT text_opt cite_opt '{' members_opt '}' IDENT IDENT {
          want_word(ps, $8, @8, "default", "the option taken unless told otherwise");
          $$ = decl_with($6, ps->src, $4);
          $$->name = $2; $$->name_span = @2; $$->span = span2(@1, @9);
          $$->as.enm.flavour = ENUM_CHOICE;
          $$->as.enm.prompt = $3;
          $$->as.enm.deflt = $9;
          $$->as.enm.deflt_span = @9;
      }
    ;

text_opt
    : %empty   { $$ = NULL; }
    | STRING   { $$ = $1.bytes; }
    ;

members_opt
    : %empty       { $$ = ast_decl(DECL_ENUM, NULL, @$, @$); }
    | members
    | members ','
    ;

members
    : member             { $$ = ast_decl(DECL_ENUM, NULL, @1, @1); AST_PUSH($$->as.enm, $1); }
    | members member     { $$ = $1; AST_PUSH($$->as.enm, $2); }
    | members ',' member { $$ = $1; AST_PUSH($$->as.enm, $3); }
    ;

member
    : IDENT                          { $$ = (Member){ .name = $1, .span = @1 }; }
    | IDENT STRING                   { $$ = (Member){ .name = $1, .span = @1, .text = $2.bytes }; }
    | IDENT '(' args_opt ')'         { $$ = (Member){ .name = $1, .span = @1, .fields = $3 }; }
    | IDENT STRING '(' args_opt ')'  { $$ = (Member){ .name = $1, .span = @1, .text = $2.bytes, .fields = $4 }; }
    ;

/* ---- records ---- */

record_decl
    : RECORD IDENT cite_opt '{' fields_opt '}' {
          $$ = decl_with(ast_decl(DECL_RECORD, $2, @2, span2(@1, @6)), ps->src, $3);
          $$->params = $5;
      }
    ;

fields_opt
    : %empty   { $$ = (ParamList){ NULL, 0, 0 }; }
    | fields
    ;

fields
    : field            { $$ = (ParamList){ NULL, 0, 0 }; AST_PUSH($$, $1); }
    | fields field     { $$ = $1; AST_PUSH($$, $2); }
    | fields ',' field { $$ = $1; AST_PUSH($$, $3); }
    ;

field
    : IDENT ':' type          { $$ = (Param){ .name = $1, .span = @1, .type = $3 }; }
    | IDENT ':' type '=' expr { $$ = (Param){ .name = $1, .span = @1, .type = $3, .deflt = $5 }; }
    ;

/* ---- tables and bands: one row a line (the lexer marks the line ends) ---- */

table_decl
    : TABLE IDENT '(' params_opt ')' ret_opt cite_opt '{' table_body '}' {
          $$ = decl_with($9, ps->src, $7);
          $$->kind = DECL_TABLE; $$->name = $2; $$->name_span = @2; $$->span = span2(@1, @10);
          $$->params = $4; $$->ret = $6;
      }
    ;

bands_decl
    : BANDS IDENT '(' params_opt ')' ret_opt cite_opt '{' table_body '}' {
          $$ = decl_with($9, ps->src, $7);
          $$->kind = DECL_BANDS; $$->name = $2; $$->name_span = @2; $$->span = span2(@1, @10);
          $$->params = $4; $$->ret = $6;
      }
    ;

table_body
    : %empty                 { $$ = ast_decl(DECL_TABLE, NULL, @$, @$); }
    | table_body ROWEND      { $$ = $1; }
    | table_body row ROWEND  { $$ = $1; push_row($$, $2); }
    | table_body ADD row ROWEND  { $$ = $1; $3.patch = PATCH_ADD; push_row($$, $3); }
    | table_body IDENT col_keys ROWEND {
          $$ = $1;
          if (!strcmp($2, "column")) {
              /* `column NAME`: the rows that follow are that column's, with their own ranges */
              if ($3.n != 1)
                  diag_report(ps->diag, DIAG_ERROR, ps->src, @3, "a 'column' line names one column");
              AST_PUSH($$->as.table.blocks, $3.items[0]);
          } else {
              want_word(ps, $2, @2, "columns", "the column headings");
              if ($$->as.table.columns.n)
                  diag_report(ps->diag, DIAG_ERROR, ps->src, @2, "the columns are already given");
              $$->as.table.columns = $3;
          }
      }
    ;

/* Table rows (':') hold values, strings among them; band rows ('=>') may end
 * with the sheet's words for the result, so their values are not strings —
 * a band whose result is a string gives it as those words. */
row
    : keys ':' str_cells            { $$ = (Row){ .keys = $1, .cells = $3, .span = @$, .block = -1 }; }
    | keys FATARROW cells text_opt  { $$ = (Row){ .keys = $1, .cells = $3, .text = $4, .span = @$, .block = -1 }; }
    | keys FATARROW STRING {
          Expr *e = ast_expr(EX_STR, @3);
          e->as.str.bytes = $3.bytes;
          e->as.str.len = $3.len;
          $$ = (Row){ .keys = $1, .text = $3.bytes, .span = @$, .block = -1 };
          AST_PUSH($$.cells, e);
      }
    ;

str_cells
    : str_cell                { $$ = (ExprList){ NULL, 0, 0 }; AST_PUSH($$, $1); }
    | str_cells str_cell      { $$ = $1; AST_PUSH($$, $2); }
    | str_cells ',' str_cell  { $$ = $1; AST_PUSH($$, $3); }
    ;

str_cell
    : cell
    | STRING   { $$ = ast_expr(EX_STR, @$); $$->as.str.bytes = $1.bytes; $$->as.str.len = $1.len; }
    ;

keys
    : key           { $$ = (KeyList){ NULL, 0, 0 }; AST_PUSH($$, $1); }
    | keys ',' key  { $$ = $1; AST_PUSH($$, $3); }
    ;

col_keys
    : col_key               { $$ = (KeyList){ NULL, 0, 0 }; AST_PUSH($$, $1); }
    | col_keys col_key      { $$ = $1; AST_PUSH($$, $2); }
    | col_keys ',' col_key  { $$ = $1; AST_PUSH($$, $3); }
    ;

/* column headings: names or single numbers (ranges are for rows) */
col_key
    : IDENT      { $$ = (Key){ .kind = KEY_NAME, .span = @1, .name = $1 }; }
    | TRUE       { $$ = (Key){ .kind = KEY_NAME, .span = @1, .name = "true" }; }
    | FALSE      { $$ = (Key){ .kind = KEY_NAME, .span = @1, .name = "false" }; }
    | INT        { $$ = int_key($1, @1); }
    ;

key
    : IDENT      { $$ = (Key){ .kind = KEY_NAME, .span = @1, .name = $1 }; }
    | TRUE       { $$ = (Key){ .kind = KEY_NAME, .span = @1, .name = "true" }; }
    | FALSE      { $$ = (Key){ .kind = KEY_NAME, .span = @1, .name = "false" }; }
    | range_key
    ;

range_key
    : signed_int                    { $$ = int_key($1, @1); }
    | signed_int DOTDOT signed_int  { $$ = (Key){ .kind = KEY_RANGE, .span = @$, .lo = $1, .hi = $3 }; }
    | signed_int DOTDOT             { $$ = (Key){ .kind = KEY_RANGE, .span = @$, .lo = $1, .hi_open = true }; }
    | DOTDOT signed_int             { $$ = (Key){ .kind = KEY_RANGE, .span = @$, .hi = $2, .lo_open = true }; }
    ;

signed_int
    : INT       { $$ = $1; }
    | '-' INT   { $$ = -$2; }
    | '+' INT   { $$ = $2; }
    ;

cells
    : cell            { $$ = (ExprList){ NULL, 0, 0 }; AST_PUSH($$, $1); }
    | cells cell      { $$ = $1; AST_PUSH($$, $2); }
    | cells ',' cell  { $$ = $1; AST_PUSH($$, $3); }
    ;

/* Cells are plain values; in a table body "-3" is one number and a lone
 * "-" means "not applicable". */
cell
    : INT             { $$ = ast_expr(EX_INT, @$); $$->as.i = $1; }
    | DECIMAL         {
          Expr *l = ast_expr(EX_INT, @1), *r = ast_expr(EX_INT, @1);
          l->as.i = $1.num; r->as.i = $1.den;
          $$ = ast_binary(OPR_DIV, @1, l, r, @$);
      }
    | INT '/' INT     {
          Expr *l = ast_expr(EX_INT, @1), *r = ast_expr(EX_INT, @3);
          l->as.i = $1; r->as.i = $3;
          $$ = ast_binary(OPR_DIV, @2, l, r, @$);
      }
    | IDENT           { $$ = ast_expr(EX_NAME, @$); $$->as.name = $1; }
    | TRUE            { $$ = ast_expr(EX_BOOL, @$); $$->as.b = true; }
    | FALSE           { $$ = ast_expr(EX_BOOL, @$); $$->as.b = false; }
    | IDENT '.' IDENT {
          Expr *type = ast_expr(EX_NAME, @1);
          type->as.name = $1;
          $$ = ast_expr(EX_MEMBER, @$);
          $$->as.member.object = type; $$->as.member.member = $3; $$->as.member.member_span = @3;
      }
    | '?'             { $$ = ast_expr(EX_UNKNOWN, @$); }
    | '-'             { $$ = ast_expr(EX_NA, @$); }
    ;

/* ---- modifiers ---- */

mods_decl
    : MODIFIERS IDENT '(' params_opt ')' ret_opt cite_opt '{' mod_items '}' {
          $$ = decl_with(ast_decl(DECL_MODIFIERS, $2, @2, span2(@1, @10)), ps->src, $7);
          $$->params = $4;
          $$->ret = $6;
          $$->as.mods.items = $9;
      }
    ;

mod_items
    : %empty              { $$ = (ModList){ NULL, 0, 0 }; }
    | mod_items mod_item  { $$ = $1; AST_PUSH($$, $2); }
    ;

mod_item
    : expr ':' expr STRING {
          $$ = (ModItem){ .kind = MOD_ADD, .span = @$, .cond = $1, .value = $3, .label = $4.bytes };
      }
    | expr ':' '*' expr STRING {
          $$ = (ModItem){ .kind = MOD_MUL, .span = @$, .cond = $1, .value = $4, .label = $5.bytes };
      }
    | EACH expr ':' expr STRING {
          $$ = (ModItem){ .kind = MOD_EACH, .span = @$, .cond = $2, .value = $4, .label = $5.bytes };
      }
    | ONEOF '{' mod_items '}' {
          $$ = (ModItem){ .kind = MOD_ONEOF, .span = @$, .group = $3 };
      }
    | CAP range_key STRING {
          $$ = (ModItem){ .kind = MOD_CAP, .span = @$, .range = $2, .label = $3.bytes };
      }
    | STARTAT expr STRING {
          $$ = (ModItem){ .kind = MOD_BASE, .span = @$, .value = $2, .label = $3.bytes };
      }
    | NOTE STRING STRING {
          $$ = (ModItem){ .kind = MOD_NOTE, .span = @$, .says = $2.bytes, .label = $3.bytes };
      }
    ;

/* ---- the turn sequence ---- */

seq_decl
    : SEQUENCE IDENT cite_opt '{' seq_items '}' {
          $$ = decl_with(ast_decl(DECL_SEQUENCE, $2, @2, span2(@1, @6)), ps->src, $3);
          $$->as.seq.items = $5;
      }
    ;

seq_items
    : %empty              { $$ = (SeqList){ NULL, 0, 0 }; }
    | seq_items seq_item  { $$ = $1; AST_PUSH($$, $2); }
    ;

seq_item
    : IDENT STRING {
          want_word(ps, $1, @1, "step", "a step of the turn");
          $$ = (SeqItem){ .span = @$, .text = $2.bytes };
      }
    | IDENT IDENT STRING {
          want_word(ps, $1, @1, "step", "a step of the turn, with the procedure that resolves it");
          $$ = (SeqItem){ .span = @$, .text = $3.bytes, .proc = $2, .proc_span = @2 };
      }
    | IDENT STRING '{' seq_items '}' {
          want_word(ps, $1, @1, "phase", "a phase of the turn");
          $$ = (SeqItem){ .phase = true, .span = @$, .text = $2.bytes, .children = $4 };
      }
    ;

/* ---- examples from the rules text ---- */

example_decl
    : EXAMPLE STRING cite_opt '{' ex_stmts '}' {
          $$ = decl_with(ast_decl(DECL_EXAMPLE, $2.bytes, @2, span2(@1, @6)), ps->src, $3);
          $$->as.proc.body = $5;
          $$->as.proc.body_end = (Span){ @6.begin, @6.end };
      }
    ;

ex_stmts
    : %empty             { $$ = (StmtList){ NULL, 0, 0 }; }
    | ex_stmts ex_stmt   { $$ = $1; ast_stmt_push(&$$, $2); }
    | ex_stmts ';'       { $$ = $1; }
    ;

ex_stmt
    : EXPECT expr        { $$ = ast_stmt(ST_EXPECT, @$); $$->as.ret = $2; }
    | EXPECT expr '~' expr IDENT expr {
          /* expect prob(...) ~ 0.31 within 0.01 */
          want_word(ps, $5, @5, "within", "how far the value may be from the one expected");
          $$ = ast_stmt(ST_EXPECT, @$);
          $$->as.ret = ast_binary(OPR_APPROX, @3, $2, $4, span2(@2, @4));
          $$->as.ret->as.binary.tolerance = $6;
      }
    | IDENT ints {
          want_word(ps, $1, @1, "dice", "the dice thrown in this example");
          $$ = ast_stmt(ST_DICE, @$); $$->as.dice.list = $2;
      }
    | IDENT STRING {
          want_word(ps, $1, @1, "dice", "the dice thrown in this example");
          $$ = ast_stmt(ST_DICE, @$); $$->as.dice.text = $2.bytes;
      }
    | IDENT IDENT '=' IDENT {
          want_word(ps, $1, @1, "choose", "the option taken at a choice");
          $$ = ast_stmt(ST_CHOOSE, @$);
          $$->as.choose.choice = $2; $$->as.choose.choice_span = @2;
          $$->as.choose.option = $4; $$->as.choose.option_span = @4;
      }
    | LET IDENT '=' expr {
          $$ = ast_stmt(ST_LET, @$);
          $$->as.let.name = $2; $$->as.let.name_span = @2;
          $$->as.let.type = (TypeRef){ .span = @2 }; $$->as.let.value = $4;
      }
    ;

ints
    : INT           { $$ = (IntList){ NULL, 0, 0 }; AST_PUSH($$, $1); }
    | ints ',' INT  { $$ = $1; AST_PUSH($$, $3); }
    ;

/* ---- the ruleset header and imports ---- */

ruleset_decl
    : RULESET STRING '{' settings '}' {
          $$ = $4;
          $$->kind = DECL_RULESET; $$->name = $2.bytes; $$->name_span = @2; $$->span = span2(@1, @5);
          $$->src = ps->src;
      }
    ;

settings
    : %empty                 { $$ = ast_decl(DECL_RULESET, NULL, @$, @$); }
    | settings IDENT STRING  { $$ = $1; AST_PUSH($$->as.ruleset, ((Setting){ $2, @2, $3.bytes })); }
    | settings IDENT IDENT   { $$ = $1; AST_PUSH($$->as.ruleset, ((Setting){ $2, @2, $3 })); }
    ;

/* a variant: `variant "TITLE" of "BASE" { settings }` heads a file that
 * changes the ruleset BASE; its `change` declarations patch the base's */
variant_decl
    : VARIANT STRING IDENT STRING '{' settings '}' {
          want_word(ps, $3, @3, "of", "the file of the ruleset the variant changes");
          $$ = $6;
          $$->kind = DECL_RULESET; $$->name = $2.bytes; $$->name_span = @2; $$->span = span2(@1, @7);
          $$->src = ps->src;
          $$->as.ruleset.base = $4.bytes;
          $$->as.ruleset.base_span = @4;
      }
    ;

/* `change KIND NAME ...` in a variant: a patch of the base's declaration
 * NAME (compiler/variant.c applies it).  In the block of any but a
 * procedure, `add` and `remove` are keywords at the start of a row, member
 * or line. */
change_decl
    : CHANGE PROC IDENT '(' change_params_opt ')' ret_opt cite_opt body_opt {
          $$ = decl_with(ast_decl(DECL_PROC, $3, @3, @$), ps->src, $8);
          $$->ret = $7;
          for (int i = 0; i < $5.n; i++) {
              if (strcmp($5.items[i].name, "...") != 0) {
                  AST_PUSH($$->params, $5.items[i]);
                  continue;
              }
              if (i != $5.n - 1)
                  diag_report(ps->diag, DIAG_ERROR, ps->src, $5.items[i].span,
                              "'...' stands for the base's other parameters, so it comes last");
              $$->rest_params = true;
              $$->rest_span = $5.items[i].span;
          }
          $$->keep_body = @9.begin == @9.end;
          $$->as.proc.body = $9;
          $$->as.proc.body_end = (Span){ @9.end - 1, @9.end };
          change_of($$, @1);
      }
    | CHANGE TABLE IDENT cite_opt '{' table_body '}' {
          $$ = decl_with($6, ps->src, $4);
          $$->kind = DECL_TABLE; $$->name = $3; $$->name_span = @3; $$->span = @$;
          change_of($$, @1);
      }
    | CHANGE BANDS IDENT cite_opt '{' table_body '}' {
          $$ = decl_with($6, ps->src, $4);
          $$->kind = DECL_BANDS; $$->name = $3; $$->name_span = @3; $$->span = @$;
          change_of($$, @1);
      }
    | CHANGE MODIFIERS IDENT cite_opt '{' patch_items '}' {
          $$ = decl_with(ast_decl(DECL_MODIFIERS, $3, @3, @$), ps->src, $4);
          $$->as.mods.items = $6;
          change_of($$, @1);
      }
    | CHANGE ENUM IDENT cite_opt '{' change_members_opt '}' {
          $$ = change_members_of($6, ps->src, $4, $3, @3, @$, ENUM_PLAIN);
          change_of($$, @1);
      }
    | CHANGE LADDER IDENT cite_opt '{' change_members_opt '}' {
          $$ = change_members_of($6, ps->src, $4, $3, @3, @$, ENUM_LADDER);
          change_of($$, @1);
      }
    | CHANGE OUTCOME IDENT cite_opt '{' change_members_opt '}' {
          $$ = change_members_of($6, ps->src, $4, $3, @3, @$, ENUM_OUTCOME);
          change_of($$, @1);
      }
    | CHANGE CHOICE IDENT text_opt '{' change_members_opt '}' default_opt {
          $$ = change_members_of($6, ps->src, (Cite){ NULL, @3 }, $3, @3, @$, ENUM_CHOICE);
          $$->as.enm.prompt = $4;
          $$->as.enm.deflt = $8;
          $$->as.enm.deflt_span = (Span){ @8.end - (uint32_t)($8 ? strlen($8) : 0), @8.end };
          change_of($$, @1);
      }
    | CHANGE CHOICE IDENT text_opt IDENT IDENT {
          want_word(ps, $5, @5, "default", "the option taken unless told otherwise");
          $$ = change_members_of(ast_decl(DECL_ENUM, NULL, @5, @5), ps->src, (Cite){ NULL, @3 }, $3, @3, @$,
                                 ENUM_CHOICE);
          $$->as.enm.prompt = $4;
          $$->as.enm.deflt = $6;
          $$->as.enm.deflt_span = @6;
          change_of($$, @1);
      }
    ;

/* a changed procedure's parameters: as written in the base, `NAME = VALUE`
 * (a new default, the type as in the base) or, last, `...` (the others) */
change_params_opt
    : %empty         { $$ = (ParamList){ NULL, 0, 0 }; }
    | change_params
    | change_params ','
    ;

change_params
    : change_param                    { $$ = (ParamList){ NULL, 0, 0 }; AST_PUSH($$, $1); }
    | change_params ',' change_param  { $$ = $1; AST_PUSH($$, $3); }
    ;

change_param
    : param
    | IDENT '=' expr  { $$ = (Param){ .name = $1, .span = @1, .deflt = $3 }; }
    | ELLIPSIS        { $$ = (Param){ .name = "...", .span = @1 }; }
    ;

/* no body: the base's, with the defaults changed */
body_opt
    : %empty  { $$ = (StmtList){ NULL, 0, 0 }; }
    | block
    ;

default_opt
    : %empty       { $$ = NULL; }
    | IDENT IDENT  { want_word(ps, $1, @1, "default", "the option taken unless told otherwise"); $$ = $2; }
    ;

/* the members of a changed enum, outcome or choice: the base's, changed,
 * and new ones after `add` (commas between them optional, as in the base) */
change_members_opt
    : %empty          { $$ = ast_decl(DECL_ENUM, NULL, @$, @$); }
    | change_members
    | change_members ','
    ;

change_members
    : change_member                     { $$ = ast_decl(DECL_ENUM, NULL, @1, @1); AST_PUSH($$->as.enm, $1); }
    | change_members change_member      { $$ = $1; AST_PUSH($$->as.enm, $2); }
    | change_members ',' change_member  { $$ = $1; AST_PUSH($$->as.enm, $3); }
    ;

change_member
    : member
    | ADD member  { $$ = $2; $$.patch = PATCH_ADD; }
    ;

/* the lines of a changed modifiers list: a line changes the base's line of
 * the same label; `add LINE` puts a new one last, `add before "LABEL" LINE`
 * or `add after "LABEL" LINE` next to one; `remove "LABEL"` takes one away */
patch_items
    : %empty                  { $$ = (ModList){ NULL, 0, 0 }; }
    | patch_items patch_item  { $$ = $1; AST_PUSH($$, $2); }
    ;

patch_item
    : mod_item
    | REMOVE STRING  { $$ = (ModItem){ .kind = MOD_ADD, .span = @$, .label = $2.bytes, .patch = PATCH_REMOVE }; }
    | ADD mod_item   { $$ = $2; $$.patch = PATCH_ADD; }
    | ADD IDENT STRING mod_item {
          $$ = $4;
          $$.patch = PATCH_ADD;
          if (!strcmp($2, "before") || !strcmp($2, "after"))
              $$.place = $2[0] == 'b' ? -1 : 1;
          else
              diag_report(ps->diag, DIAG_ERROR, ps->src, @2,
                          "unexpected '%s'; expected 'before' or 'after' and the label of a line", $2);
          $$.place_label = $3.bytes;
          $$.place_span = @3;
      }
    ;

import_decl
    : IMPORT STRING {
          $$ = ast_decl(DECL_IMPORT, $2.bytes, @2, @$);
          $$->src = ps->src;
          $$->as.import.path = $2.bytes;
      }
    ;

/* ---- procedure bodies ---- */

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
          $$->as.let.type = (TypeRef){ .span = @2 }; $$->as.let.value = $4;
      }
    | LET IDENT ':' type '=' expr {
          $$ = ast_stmt(ST_LET, @$);
          $$->as.let.name = $2; $$->as.let.name_span = @2;
          $$->as.let.type = $4; $$->as.let.value = $6;
      }
    | IDENT '=' expr {
          $$ = ast_stmt(ST_ASSIGN, @$);
          $$->as.let.name = $1; $$->as.let.name_span = @1;
          $$->as.let.type = (TypeRef){ .span = @1 }; $$->as.let.value = $3;
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
    | expr IN '[' args ']' {
          /* `face in [hit, crit]`, `dice in [hit, crit]`: a call of the
           * membership test, which no script can name */
          Arg subject = { NULL, @1, $1 };
          ArgList all = { NULL, 0, 0 };
          AST_PUSH(all, subject);
          for (int i = 0; i < $4.n; i++)
              AST_PUSH(all, $4.items[i]);
          $$ = ast_call(AST_IN_CALLEE, @2, all.items, all.n, @$);
          DEPTH($$);
      }
    | '-' expr %prec NEG { $$ = ast_unary(OPR_NEG, $2, @$); DEPTH($$); }
    | '+' expr %prec NEG { $$ = ast_unary(OPR_POS, $2, @$); DEPTH($$); }
    | primary
    | DRAW IDENT { $$ = ast_draw(NULL, $2, @2, @$); }     /* from a bag: see lexer.re's draw_here */
    | DRAW primary FROM IDENT { $$ = ast_draw($2, $4, @4, @$); DEPTH($$); }
    ;

primary
    : INT            { $$ = ast_expr(EX_INT, @$); $$->as.i = $1; }
    | DECIMAL {
          /* num/den, as the fraction it is */
          Expr *l = ast_expr(EX_INT, @1), *r = ast_expr(EX_INT, @1);
          l->as.i = $1.num; r->as.i = $1.den;
          $$ = ast_binary(OPR_DIV, @1, l, r, @$);
      }
    | TRUE           { $$ = ast_expr(EX_BOOL, @$); $$->as.b = true; }
    | FALSE          { $$ = ast_expr(EX_BOOL, @$); $$->as.b = false; }
    | STRING         { $$ = ast_expr(EX_STR, @$); $$->as.str.bytes = $1.bytes; $$->as.str.len = $1.len; }
    | IDENT          { $$ = ast_expr(EX_NAME, @$); $$->as.name = $1; }
    | '?'            { $$ = ast_expr(EX_UNKNOWN, @$); }   /* a value the rules text does not give */
    | primary '.' IDENT {
          $$ = ast_expr(EX_MEMBER, @$);
          $$->as.member.object = $1; $$->as.member.member = $3; $$->as.member.member_span = @3;
          $$->depth = $1->depth + 1;
          DEPTH($$);
      }
    | IDENT '(' args_opt ')' { $$ = ast_call($1, @1, $3.items, $3.n, @$); DEPTH($$); }
    | '(' expr ')'   { $$ = $2; }
    | ROLL DIE       { $$ = ast_roll(NULL, $2, NULL, @$); }
    | ROLL primary DIE { $$ = ast_roll($2, $3, NULL, @$); DEPTH($$); }
    | ROLL DPAREN expr ')' { $$ = ast_roll(NULL, 0, $3, @$); DEPTH($$); }
    | ROLL primary DPAREN expr ')' { $$ = ast_roll($2, 0, $4, @$); DEPTH($$); }
    | ROLL '[' roll_parts ']' { $$ = ast_roll_mixed($3.items, $3.n, @$); DEPTH($$); }
    | ROLL IDENT ROLLEND { $$ = ast_roll_die(NULL, $2, @2, @$); }

    | ROLL primary IDENT { $$ = ast_roll_die($2, $3, @3, @$); DEPTH($$); }
    ;

/* the dice of a mixed pool: `roll [2d6, d8, n d(x)]` */
roll_parts
    : roll_part                  { $$ = (ExprList){ NULL, 0, 0 }; AST_PUSH($$, $1); }
    | roll_parts ',' roll_part   { $$ = $1; AST_PUSH($$, $3); }
    ;

roll_part
    : DIE                        { $$ = ast_roll(NULL, $1, NULL, @$); }
    | primary DIE                { $$ = ast_roll($1, $2, NULL, @$); DEPTH($$); }
    | DPAREN expr ')'            { $$ = ast_roll(NULL, 0, $2, @$); DEPTH($$); }
    | primary DPAREN expr ')'    { $$ = ast_roll($1, 0, $3, @$); DEPTH($$); }
    | IDENT                      { $$ = ast_roll_die(NULL, $1, @1, @$); }
    | primary IDENT              { $$ = ast_roll_die($1, $2, @2, @$); DEPTH($$); }
    ;

args_opt
    : %empty         { $$ = (ArgList){ NULL, 0, 0 }; }
    | args
    | args ','
    ;

args
    : arg            { $$ = (ArgList){ NULL, 0, 0 }; AST_PUSH($$, $1); }
    | args ',' arg   { $$ = $1; AST_PUSH($$, $3); }
    ;

arg
    : expr           { $$ = (Arg){ NULL, @1, $1 }; }
    | IDENT ':' expr { $$ = (Arg){ $1, @1, $3 }; }
    ;

%%

struct Ahead {
    int tok;
    LANG_YYSTYPE lval;
    Span loc;
};

/* The next token: one read ahead (see lang_yylex), else the lexer's. */
static int next_token(Parser *ps, LANG_YYSTYPE *lval, Span *loc)
{
    if (ps->nahead) {
        int tok = ps->ahead[0].tok;
        *lval = ps->ahead[0].lval;
        *loc = ps->ahead[0].loc;
        ps->ahead[0] = ps->ahead[1];
        ps->nahead--;
        return tok;
    }
    return lang_lex(ps, lval, loc);
}

static void push_ahead(Parser *ps, int tok, const LANG_YYSTYPE *lval, Span loc)
{
    if (!ps->ahead)
        ps->ahead = mem_alloc(2 * sizeof *ps->ahead);
    ps->ahead[ps->nahead].tok = tok;
    ps->ahead[ps->nahead].lval = *lval;
    ps->ahead[ps->nahead].loc = loc;
    ps->nahead++;
}

/* `roll Average` rolls one die of a `die` declaration; `roll 3 Average`
 * or `roll n Average` rolls several.  Statements need no terminator, so
 * after `roll NAME` a name on the next line could be either the die of a
 * roll of NAME dice or the start of the next statement (`hits = 0`): a
 * roll's count and its die are written on one line, and the parser is told
 * where a one-die roll ends by ROLLEND, put after `roll NAME` unless what
 * follows continues a count (a die, `d(`, `.`, `(`, or a name on the same
 * line). */
int lang_yylex(LANG_YYSTYPE *lval, Span *loc, Parser *ps)
{
    int tok = next_token(ps, lval, loc);
    if (ps->skip_to >= 0) {
        /* recovering: everything up to the '}' closing the block is dropped */
        while (tok != END && !(tok == '}' && ps->nopen == ps->skip_to))
            tok = next_token(ps, lval, loc);
        ps->skip_to = -1;
    }
    if (tok == IDENT && ps->after_roll && !ps->nahead) {
        LANG_YYSTYPE next_val;
        Span next_loc;
        int next = lang_lex(ps, &next_val, &next_loc);
        bool same_line = !memchr(ps->src->text + loc->end, '\n', next_loc.begin - loc->end);
        bool count = next == DIE || next == DPAREN || next == '.' || next == '(' || (next == IDENT && same_line);
        if (!count) {
            LANG_YYSTYPE none = { 0 };
            push_ahead(ps, ROLLEND, &none, (Span){ loc->end, loc->end });
        }
        push_ahead(ps, next, &next_val, next_loc);
    }
    ps->after_roll = tok == ROLL;
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

/* Is the text just before offset at (blanks aside) the word 'pool'? */
static bool after_word_pool(const Parser *ps, uint32_t at)
{
    const char *text = ps->src->text;
    while (at > 0 && isspace((unsigned char)text[at - 1]))
        at--;
    return at >= 4 && !strncmp(text + at - 4, "pool", 4)
           && (at == 4 || !(isalnum((unsigned char)text[at - 5]) || text[at - 5] == '_'));
}

/* Is the text just before offset at (blanks aside) the word 'roll'? */
static bool after_roll(const Parser *ps, uint32_t at)
{
    const char *text = ps->src->text;
    while (at > 0 && (text[at - 1] == ' ' || text[at - 1] == '\t'))
        at--;
    return at >= 4 && !strncmp(text + at - 4, "roll", 4)
           && (at == 4 || !(isalnum((unsigned char)text[at - 5]) || text[at - 5] == '_'));
}

/* `roll d8 + d6`: is the die at offset at the second of two joined by
 * '+' after a 'roll'?  Then the length of the first die's text, which
 * starts at *first; else 0. */
static int added_die(const Parser *ps, uint32_t at, uint32_t *first)
{
    const char *text = ps->src->text;
    while (at > 0 && (text[at - 1] == ' ' || text[at - 1] == '\t'))
        at--;
    if (at == 0 || text[at - 1] != '+')
        return 0;
    at--;
    while (at > 0 && (text[at - 1] == ' ' || text[at - 1] == '\t'))
        at--;
    uint32_t end = at;
    while (at > 0 && end - at < 20 && (isalnum((unsigned char)text[at - 1]) || text[at - 1] == '_'))
        at--;
    uint32_t d = at;   /* `2d6`, `d8`: digits, 'd', digits */
    while (d < end && isdigit((unsigned char)text[d]))
        d++;
    if (end - at < 2 || d + 1 >= end || text[d] != 'd' || strspn(text + d + 1, "0123456789") < end - d - 1
        || !after_roll(ps, at))
        return 0;
    *first = at;
    return (int)(end - at);
}

/* Is the innermost open '{' a modifiers block's? */
static bool in_modifiers(const Parser *ps)
{
    for (int i = ps->nopen - 1; i >= 0; i--)
        if (ps->open_ch[i] == '{')
            return ps->open_kind[i] == 'm';
    return false;
}

/* `hits(facing=rear)`: is the '=' at offset at just after a name that
 * starts an argument of a call?  Then the argument as it is written
 * (`facing: rear`), else NULL. */
static const char *call_argument(const Parser *ps, uint32_t at)
{
    if (ps->nopen <= 0 || ps->open_ch[ps->nopen - 1] != '(')
        return NULL;
    const char *text = ps->src->text;
    uint32_t paren = ps->open[ps->nopen - 1];
    uint32_t p = paren;   /* a call: a name just before the '(' */
    while (p > 0 && (text[p - 1] == ' ' || text[p - 1] == '\t'))
        p--;
    uint32_t w = p;
    while (w > 0 && (isalnum((unsigned char)text[w - 1]) || text[w - 1] == '_'))
        w--;
    /* not a call, or a built-in function, whose arguments have no names */
    static const char *const words[] = {
        "return", "if", "and", "or", "not", "else", "roll", "cap", "each", "expect",
        "floor", "ceil", "round", "abs", "min", "max", "clamp", "count", "sum", "highest", "lowest",
        "any", "all", "doubles", "shift", "choose", "text", "prob",
    };
    if (w == p || isdigit((unsigned char)text[w]))
        return NULL;
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strlen(words[i]) == p - w && !strncmp(words[i], text + w, p - w))
            return NULL;
    uint32_t end = at;   /* the name before the '=' */
    while (end > paren && (text[end - 1] == ' ' || text[end - 1] == '\t'))
        end--;
    uint32_t begin = end;
    while (begin > paren && (isalnum((unsigned char)text[begin - 1]) || text[begin - 1] == '_'))
        begin--;
    if (begin == end || end - begin > 40 || isdigit((unsigned char)text[begin]))
        return NULL;
    uint32_t before = begin;   /* and before it, the '(' or a ',' */
    while (before > paren + 1 && (text[before - 1] == ' ' || text[before - 1] == '\t' || text[before - 1] == '\n'))
        before--;
    if (before != paren + 1 && text[before - 1] != ',')
        return NULL;
    /* the value: the word after the '=', if there is one */
    uint32_t v = at + 1;
    while (v < ps->src->len && (text[v] == ' ' || text[v] == '\t'))
        v++;
    uint32_t vend = v;
    while (vend < ps->src->len && vend - v < 40 && (isalnum((unsigned char)text[vend]) || text[vend] == '_' || text[vend] == '.'))
        vend++;
    static char shown[128];
    if (vend > v)
        snprintf(shown, sizeof shown, "%.*s: %.*s", (int)(end - begin), text + begin, (int)(vend - v), text + v);
    else
        snprintf(shown, sizeof shown, "%.*s: ...", (int)(end - begin), text + begin);
    return shown;
}

static int yyreport_syntax_error(const yypcontext_t *ctx, Parser *ps)
{
    if (ps->aborted)
        return 0;
    yysymbol_kind_t found = yypcontext_token(ctx);
    const Span *loc = yypcontext_location(ctx);
    yysymbol_kind_t expected[YYNTOKENS];
    int n = yypcontext_expected_tokens(ctx, expected, YYNTOKENS);
    /* 'of' is a word only after 'pool', and the end of a roll is never written */
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (expected[i] != YYSYMBOL_ROLLEND && (expected[i] != YYSYMBOL_OF || after_word_pool(ps, loc->begin)))
            expected[kept++] = expected[i];
    n = kept;
    char msg[512];
    size_t len = 0;
    if (found == YYSYMBOL_IDENT || found == YYSYMBOL_INT || found == YYSYMBOL_DIE)
        len += (size_t)snprintf(msg + len, sizeof msg - len, "unexpected %s '%.*s'", describe(found),
                                (int)(loc->end - loc->begin > 40 ? 40 : loc->end - loc->begin),
                                ps->src->text + loc->begin);
    else
        len += (size_t)snprintf(msg + len, sizeof msg - len, "unexpected %s", describe(found));
    size_t head = len;   /* "unexpected X" */
    if (expects(expected, n, YYSYMBOL_PROC) && len < sizeof msg) {
        len += (size_t)snprintf(msg + len, sizeof msg - len,
                                "; expected a declaration (proc, enum, table, bands, modifiers, example, ...)");
    } else if (n > 0 && n <= 5) {
        len += (size_t)snprintf(msg + len, sizeof msg - len, "; expected ");
        for (int i = 0; i < n && len < sizeof msg; i++)
            len += (size_t)snprintf(msg + len, sizeof msg - len, "%s%s",
                                    i == 0 ? "" : i == n - 1 ? " or " : ", ", describe(expected[i]));
    }
    bool new_decl = (found == YYSYMBOL_PROC || found == YYSYMBOL_ENUM) && ps->nopen > 0;
    /* a keyword where a name was wanted */
    bool keyword = found >= YYSYMBOL_PROC && found <= YYSYMBOL_STARTAT && loc->end > loc->begin + 1
                   && n <= 3 && expects(expected, n, YYSYMBOL_IDENT) && !expects(expected, n, YYTRANSLATE('{'));
    char first = ps->src->text[loc->begin];
    bool comparison = found == YYSYMBOL_EQ || found == YYSYMBOL_NE || found == YYSYMBOL_LE || found == YYSYMBOL_GE
                      || (loc->end == loc->begin + 1 && (first == '<' || first == '>'));
    bool brace = false;   /* is a '{' one of the things that could come here? */
    for (int i = 0; i < n; i++)
        brace |= expected[i] == YYTRANSLATE('{');
    /* `{ 3 }` or `{ x + 1 }`: a procedure's value written without `return` */
    int inner = ps->nopen - 1 + (found == YYTRANSLATE('}'));   /* a '}' found has closed its '{' */
    while (inner >= 0 && ps->open_ch[inner] != '{')
        inner--;
    bool in_body = inner >= 0 && (ps->open_kind[inner] == 0 || ps->open_kind[inner] == 'b') && !ps->table_depth;
    bool value_start = found == YYSYMBOL_INT || found == YYSYMBOL_DECIMAL || found == YYSYMBOL_STRING
                       || found == YYSYMBOL_ROLL || found == YYSYMBOL_TRUE || found == YYSYMBOL_FALSE
                       || found == YYSYMBOL_NOT || found == YYSYMBOL_DPAREN
                       || (loc->end == loc->begin + 1 && (first == '(' || first == '-'));
    uint32_t die_at = 0;          /* `roll d8 + d6`: where the first die starts */
    uint32_t back = loc->begin;   /* the value starts a statement: first on its line, or after '{' ';' '}' */
    while (back > 0 && (ps->src->text[back - 1] == ' ' || ps->src->text[back - 1] == '\t'))
        back--;
    bool starts = back == 0 || strchr("\n\r{};", ps->src->text[back - 1]);
    bool bare_value = in_body && value_start && starts && expects(expected, n, YYSYMBOL_RETURN);
    int name_len = 0;   /* `x + 1`: the name before the token, where only '=' could come */
    if (in_body && n == 1 && expected[0] == YYTRANSLATE('=') && found != YYSYMBOL_INT && found != YYSYMBOL_IDENT
        && found != YYSYMBOL_DIE && found != YYSYMBOL_DECIMAL && found != YYSYMBOL_STRING) {
        uint32_t at = loc->begin;
        while (at > 0 && (ps->src->text[at - 1] == ' ' || ps->src->text[at - 1] == '\t'))
            at--;
        uint32_t end = at;
        while (at > 0 && (isalnum((unsigned char)ps->src->text[at - 1]) || ps->src->text[at - 1] == '_'))
            at--;
        uint32_t before = at;
        while (before > 0 && (ps->src->text[before - 1] == ' ' || ps->src->text[before - 1] == '\t'))
            before--;
        if (end > at && !(before > 0 && ps->src->text[before - 1] == ':'))
            name_len = (int)(end - at);
        if (name_len > 40)
            name_len = 0;
        if (name_len)
            snprintf(msg + head, sizeof msg - head,
                     "; a procedure's value is given with 'return': write 'return' before '%.*s' "
                     "('%.*s = ...' gives %.*s a new value)",
                     name_len, ps->src->text + at, name_len, ps->src->text + at, name_len, ps->src->text + at);
    }
    if (name_len)
        ;
    else if (bare_value && found != YYSYMBOL_YYEOF)
        snprintf(msg + head, sizeof msg - head,
                 "; a procedure's value is given with 'return': write 'return' before it");
    else if (keyword && !new_decl && len < sizeof msg)
        snprintf(msg + len, sizeof msg - len, " ('%.*s' is a keyword; choose another name)",
                 (int)(loc->end - loc->begin), ps->src->text + loc->begin);
    else if (found == YYSYMBOL_DIE && expects(expected, n, YYSYMBOL_IDENT) && !expects(expected, n, YYTRANSLATE('+'))
        && len < sizeof msg)
        snprintf(msg + len, sizeof msg - len, " (a die like d6 cannot be used as a name)");
    else if (found == YYSYMBOL_DIE && added_die(ps, loc->begin, &die_at) && len < sizeof msg) {
        /* `roll d8 + d6`: dice of two sizes, added or as one pool */
        int a = added_die(ps, loc->begin, &die_at), b = (int)(loc->end - loc->begin);
        const char *text = ps->src->text;
        if (text[die_at] == 'd' && text[loc->begin] == 'd')
            snprintf(msg + len, sizeof msg - len, " (each die is rolled with 'roll': 'roll %.*s + roll %.*s' adds the "
                     "two rolls, and 'roll [%.*s, %.*s]' rolls them as one pool)", a, text + die_at, b,
                     text + loc->begin, a, text + die_at, b, text + loc->begin);
        else
            snprintf(msg + len, sizeof msg - len, " (dice of two kinds are rolled as one pool with 'roll [%.*s, %.*s]'"
                     "; 'sum(roll [%.*s, %.*s])' adds them up)", a, text + die_at, b, text + loc->begin, a,
                     text + die_at, b, text + loc->begin);
    } else if (found == YYSYMBOL_DIE && len < sizeof msg)
        snprintf(msg + len, sizeof msg - len, " (dice are rolled with 'roll', as in 'roll 2d6')");
    else if (first == '?' && loc->end == loc->begin + 1 && len < sizeof msg)
        snprintf(msg + len, sizeof msg - len, " ('?' stands for a value the rules text does not give, where a value is written)");
    else if (loc->end == loc->begin + 1 && first == '=' && call_argument(ps, loc->begin) && len < sizeof msg)
        snprintf(msg + head, sizeof msg - head, " (an argument is written with ':', as in '%s'; to compare, write '==')", call_argument(ps, loc->begin));
    else if (first == '+' && loc->end == loc->begin + 1 && expects(expected, n, YYSYMBOL_DOTDOT) && loc->begin > 0
             && isdigit((unsigned char)ps->src->text[loc->begin - 1]) && len < sizeof msg) {
        /* `6+ : ...` in a table's key: 6 or more */
        uint32_t b = loc->begin;
        while (b > 0 && isdigit((unsigned char)ps->src->text[b - 1]) && loc->begin - b < 18)
            b--;
        int nd = (int)(loc->begin - b);
        const char *num = ps->src->text + b;
        snprintf(msg + head, sizeof msg - head, "; a range is written '%.*s..' (%.*s or more) or like '%.*s..10' (%.*s to 10)",
                 nd, num, nd, num, nd, num, nd, num);
    } else if (loc->end == loc->begin + 1 && first == '-' && after_roll(ps, loc->begin) && len < sizeof msg) {
        /* `roll -2d6`: a count below zero */
        const char *text = ps->src->text;
        uint32_t v = loc->end, ve = loc->end;
        while (ve < ps->src->len && ve - v < 30 && (isalnum((unsigned char)text[ve]) || text[ve] == '_'))
            ve++;
        bool one_die = ve > v + 1 && text[v] == 'd' && strspn(text + v + 1, "0123456789") == ve - v - 1;
        uint32_t d = ve;   /* `-n d6`: the die after a count's name */
        while (d < ps->src->len && (text[d] == ' ' || text[d] == '\t'))
            d++;
        if (!one_die && d > ve && text[d] == 'd' && isdigit((unsigned char)text[d + 1])) {
            ve = d + 1;
            while (ve < ps->src->len && ve - v < 30 && isdigit((unsigned char)text[ve]))
                ve++;
        }
        if (one_die)
            snprintf(msg + head, sizeof msg - head, "; a die cannot be rolled negative: for the negative of its roll, "
                     "write '-(roll %.*s)'", (int)(ve - v), text + v);
        else if (ve > v)
            snprintf(msg + head, sizeof msg - head, "; a pool's count cannot be negative: for the negative of its total, "
                     "write '-sum(roll %.*s)'", (int)(ve - v), text + v);
        else
            snprintf(msg + head, sizeof msg - head, "; a pool's count cannot be negative: for the negative of its total, "
                     "write '-sum(roll ...)'");
    } else if (found == YYSYMBOL_EACH && in_modifiers(ps) && len < sizeof msg) {
        /* `optics : -1 each`: the count comes first */
        const char *text = ps->src->text;
        uint32_t b = loc->begin;
        while (b > 0 && text[b - 1] != '\n')
            b--;
        while (text[b] == ' ' || text[b] == '\t')
            b++;
        const char *colon = memchr(text + b, ':', loc->begin - b);
        uint32_t e = colon ? (uint32_t)(colon - text) : b;
        while (e > b && (text[e - 1] == ' ' || text[e - 1] == '\t'))
            e--;
        uint32_t a = colon ? (uint32_t)(colon - text) + 1 : b;   /* the amount, between the ':' and 'each' */
        while (a < loc->begin && (text[a] == ' ' || text[a] == '\t'))
            a++;
        uint32_t ae = loc->begin;
        while (ae > a && (text[ae - 1] == ' ' || text[ae - 1] == '\t'))
            ae--;
        uint32_t l = loc->end;   /* the label after 'each', if it is there */
        while (l < ps->src->len && (text[l] == ' ' || text[l] == '\t'))
            l++;
        uint32_t le = l + 1;
        while (l < ps->src->len && text[l] == '"' && le < ps->src->len && le - l < 60 && text[le] != '"' && text[le] != '\n')
            le++;
        const char *label = "\"Label\"";
        int label_len = 7;
        if (l < ps->src->len && text[l] == '"' && le < ps->src->len && text[le] == '"') {
            label = text + l;
            label_len = (int)(le + 1 - l);
        }
        if (colon && e > b && e - b <= 40 && ae > a && ae - a <= 20)
            snprintf(msg + head, sizeof msg - head, "; an amount for each of a count is written with 'each' first: "
                     "'each %.*s : %.*s %.*s'", (int)(e - b), text + b, (int)(ae - a), text + a, label_len, label);
        else
            snprintf(msg + head, sizeof msg - head, "; an amount for each of a count is written with 'each' first: "
                     "'each COUNT : AMOUNT \"Label\"'");
    } else if (comparison && len < sizeof msg)
        snprintf(msg + len, sizeof msg - len, " (comparisons do not chain: write 'a < x and x < b')");
    else if (((ps->nopen > 0 && ps->open_ch[ps->nopen - 1] == '[') || (loc->end == loc->begin + 1 && first == ']'))
             && found != YYSYMBOL_YYEOF && len < sizeof msg)
        snprintf(msg + len, sizeof msg - len, " (a mixed pool lists its dice, as in 'roll [2d6, d8]')");
    else if (loc->end == loc->begin + 1 && first == '=' && expects(expected, n, YYSYMBOL_EQ) && len < sizeof msg)
        snprintf(msg + len, sizeof msg - len, " (to compare, write '==')");
    else if (ps->table_depth && ps->nopen == ps->table_depth && (first == ':' || found == YYSYMBOL_FATARROW)
             && len < sizeof msg)
        snprintf(msg + len, sizeof msg - len, " (a table or bands block has one row per line)");
    else if (brace && n > 5 && found != YYSYMBOL_YYEOF && len < sizeof msg)
        snprintf(msg + len, sizeof msg - len, " (is a '{' missing?)");
    else if (new_decl && len < sizeof msg)
        snprintf(msg + len, sizeof msg - len, " (a '%c' before it is still open)", ps->open_ch[ps->nopen - 1]);
    else if (found == YYSYMBOL_YYEOF && ps->nopen > 0 && len < sizeof msg)
        snprintf(msg + len, sizeof msg - len, " (a '%c' is still open)", ps->open_ch[ps->nopen - 1]);
    if (found == YYSYMBOL_YYEOF && ps->diag->errors == ps->errors_at_start)
        ps->short_at_end = 1;
    if (ps->start_expr && found == YYSYMBOL_YYEOF) {
        /* a one-off expression (muster -e) that stops short */
        int open = 0;
        for (int i = 0; i < ps->nopen; i++)
            open += ps->open_ch[i] == '(';
        snprintf(msg, sizeof msg, "the expression stops before it is finished%s",
                 open ? " (a '(' is still open)" : "");
    } else if (ps->start_expr && expects(expected, n, YYSYMBOL_YYEOF)) {
        /* a whole expression, and then more */
        snprintf(msg + head, sizeof msg - head, ps->at_prompt
                 ? " after the end of the expression (a line takes one expression, or declarations)"
                 : " after the end of the expression (-e takes one expression)");
    }
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
    if ((found == YYSYMBOL_YYEOF || new_decl) && ps->nopen > 0 && ps->unsure_open
        && ps->unsure_open - 1 > ps->open[ps->nopen - 1]) {
        /* the '{' that lost its '}' is more likely an inner one: a '}'
         * meant for an outer block closed it */
        uint32_t at = ps->unsure_open - 1;
        Span open = { at, at + 1 };
        int close_line, outer_line = 0, col;
        source_linecol(ps->src, ps->unsure_close - 1, &close_line, &col);
        if (ps->unsure_outer)
            source_linecol(ps->src, ps->unsure_outer - 1, &outer_line, &col);
        uint32_t word = at;   /* the line's first word: 'if' or 'else' names the block */
        while (word > 0 && ps->src->text[word - 1] != '\n')
            word--;
        while (ps->src->text[word] == ' ' || ps->src->text[word] == '\t')
            word++;
        const char *w = ps->src->text + word;
        const char *what = !strncmp(w, "if ", 3) ? " of the 'if'"
                           : !strncmp(w, "} else", 6) || !strncmp(w, "else", 4) ? " of the 'else'" : "";
        if (outer_line)
            diag_report(ps->diag, DIAG_NOTE, ps->src, open,
                        "this '{'%s is never closed: the '}' on line %d lines up with the '{' on line %d "
                        "but closes this one", what, close_line, outer_line);
        else
            diag_report(ps->diag, DIAG_NOTE, ps->src, open,
                        "this '{'%s is never closed: the '}' on line %d is indented as for an outer block "
                        "but closes this one", what, close_line);
    } else if ((found == YYSYMBOL_YYEOF || new_decl) && ps->nopen > 0) {
        Span open = { ps->open[ps->nopen - 1], ps->open[ps->nopen - 1] + 1 };
        diag_report(ps->diag, DIAG_NOTE, ps->src, open, "this '%c' is never closed", ps->open_ch[ps->nopen - 1]);
    }
    return 0;
}

/* Only white space and plain `#` comments between from and to? */
static bool blank(const char *text, uint32_t from, uint32_t to)
{
    for (uint32_t i = from; i < to; i++) {
        if (text[i] == '#' && (i + 1 >= to || text[i + 1] != '#')) {
            while (i < to && text[i] != '\n')
                i++;
            continue;
        }
        if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r' && text[i] != '\n')
            return false;
    }
    return true;
}

/* Give each declaration the `##` lines written just before it. */
static void attach_docs(Parser *ps, Module *m)
{
    const char *text = ps->src->text;
    int k = 0;
    for (int i = 0; i < m->n; i++) {
        Decl *d = m->decls[i];
        while (k < ps->ndocs && ps->docs[k].end <= d->span.begin)
            k++;
        /* docs[k - 1] is the last comment before the declaration */
        int last = k - 1;
        if (last < 0 || !blank(text, ps->docs[last].end, d->span.begin))
            continue;
        int first = last;
        while (first > 0 && blank(text, ps->docs[first - 1].end, ps->docs[first].begin))
            first--;
        size_t len = 0;
        for (int j = first; j <= last; j++)
            len += strlen(ps->docs[j].text) + 1;
        char *doc = mem_alloc_atomic(len + 1);
        doc[0] = '\0';
        for (int j = first; j <= last; j++) {
            strcat(doc, ps->docs[j].text);
            if (j < last)
                strcat(doc, "\n");
        }
        d->doc = doc;
    }
}

static Expr *expression_of(const Source *src, Diag *diag, int at_prompt)
{
    Parser ps;
    lang_lex_init(&ps, src, diag);
    ps.start_expr = 1;
    ps.at_prompt = at_prompt;
    ps.module = mem_alloc(sizeof *ps.module);
    ps.module->src = src;
    const char *nul = memchr(src->text, '\0', src->len);
    if (nul) {
        Span at = { (uint32_t)(nul - src->text), (uint32_t)(nul - src->text) + 1 };
        diag_report(diag, DIAG_ERROR, src, at, "the expression contains a NUL byte");
        return NULL;
    }
    int before = diag->errors;
    lang_yyparse(&ps);
    return diag->errors > before ? NULL : ps.expr;
}

Expr *parse_expression(const Source *src, Diag *diag)
{
    return expression_of(src, diag, 0);
}

Expr *parse_prompt_expression(const Source *src, Diag *diag)
{
    return expression_of(src, diag, 1);
}

EntryKind parse_entry_kind(const Source *src)
{
    Diag quiet;
    diag_init(&quiet, NULL, 0);
    Parser ps;
    lang_lex_init(&ps, src, &quiet);
    YYSTYPE lval;
    Span loc;
    switch (lang_lex(&ps, &lval, &loc)) {
    case END:
        return ENTRY_EMPTY;
    case PROC: case ENUM: case LADDER: case OUTCOME: case CHOICE: case RECORD: case TABLE: case BANDS:
    case MODIFIERS: case SEQUENCE: case EXAMPLE: case RULESET: case IMPORT: case VARIANT: case CHANGE:
    case SECTION: case ODDS:
        return ENTRY_DECLARATIONS;
    case LET: case RETURN: case IF: case ELSE: case REROLL:
        return ENTRY_STATEMENT;
    default:
        return ENTRY_EXPRESSION;
    }
}

bool parse_stops_short(const Source *src, bool expression)
{
    Diag quiet;
    diag_init(&quiet, NULL, 0);
    Parser ps;
    lang_lex_init(&ps, src, &quiet);
    ps.start_expr = expression;
    ps.module = mem_alloc(sizeof *ps.module);
    ps.module->src = src;
    if (memchr(src->text, '\0', src->len))
        return false;
    lang_yyparse(&ps);
    return ps.short_at_end;
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
    attach_docs(&ps, m);
    return m;
}
