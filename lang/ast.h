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

#include "lang/source.h"

#include <stdbool.h>
#include <stdint.h>

/* Deepest expression or block nesting accepted. */
#define AST_MAX_DEPTH 1000

typedef enum {
    EX_INT, EX_BOOL, EX_STR, EX_NAME, EX_MEMBER,
    EX_UNARY, EX_BINARY, EX_CALL, EX_ROLL, EX_ERROR,
    EX_UNKNOWN,              /* a table cell '?': not given in the source */
    EX_NA                    /* a table cell '-': not applicable */
} ExprKind;

typedef enum {
    OPR_ADD, OPR_SUB, OPR_MUL, OPR_DIV, OPR_MOD,
    OPR_EQ, OPR_NE, OPR_LT, OPR_LE, OPR_GT, OPR_GE,
    OPR_AND, OPR_OR, OPR_NEG, OPR_NOT, OPR_POS,
    OPR_APPROX               /* expect a ~ b within t */
} Operator;

extern const char *const ast_operator_text[];

typedef struct Expr Expr;

typedef struct Arg {
    const char *name;        /* NULL for a positional argument */
    Span name_span;
    Expr *value;
} Arg;

typedef struct ArgList {
    Arg *items;
    int n, cap;
} ArgList;

struct Expr {
    ExprKind kind;
    Span span;
    int depth;
    union {
        int64_t i;
        bool b;
        struct { const char *bytes; size_t len; } str;
        const char *name;
        struct { Expr *object; const char *member; Span member_span; } member;   /* x.m, Enum.m */
        struct { Operator op; Expr *operand; } unary;
        struct { Operator op; Expr *left, *right; Span op_span; Expr *tolerance; } binary;
        struct { const char *callee; Span callee_span; Arg *args; int nargs; } call;
        /* count NULL: one die.  A mixed pool, `roll [2d6, d8]`, has nparts >= 1
         * parts, each a roll of its own (count NULL there: one die, in the pool) */
        /* die not NULL: dice of a `die` declaration, `roll 3 Average` (sides unused) */
        struct { Expr *count; int64_t sides; Expr *sides_expr; struct Expr **parts; int nparts;
                 const char *die; Span die_span; bool draw; } roll;
    } as;
};

typedef struct TypeRef {
    const char *name;        /* NULL when absent */
    Span span;
    const char *of;          /* `pool of Face`: the enum of a pool of symbol dice, else NULL */
    Span of_span;
} TypeRef;

typedef struct Stmt Stmt;

typedef struct StmtList {
    Stmt **items;
    int n, cap;
} StmtList;

typedef enum { ST_LET, ST_ASSIGN, ST_RETURN, ST_IF, ST_REROLL, ST_EXPECT, ST_DICE, ST_CHOOSE } StmtKind;

typedef struct IntList {
    int64_t *items;
    int n, cap;
} IntList;

struct Stmt {
    StmtKind kind;
    Span span;
    union {
        struct { const char *name; Span name_span; TypeRef type; Expr *value; } let;  /* and assign */
        Expr *ret;           /* return, expect */
        struct { Expr *cond; StmtList then, els; Span else_span; bool has_else; } if_;
        /* dice 6, 3, 4 (examples); or, as the command line's --dice takes them,
         * dice "hit, blank, 3" (text, with list empty) */
        struct { IntList list; const char *text; } dice;
        struct { const char *choice; Span choice_span; const char *option; Span option_span; } choose;
    } as;
};

typedef struct Param {
    const char *name;
    Span span;
    TypeRef type;
    Expr *deflt;             /* NULL when none */
    bool has_range;          /* bands and odds: `x: int in lo..hi` */
    bool lo_open, hi_open;
    int64_t lo, hi;
    Span range_span;
    const Source *src;       /* set when its default comes from another file than its declaration (a variant) */
} Param;

typedef struct ParamList {
    Param *items;
    int n, cap;
} ParamList;

/* In a variant's `change` block, what a row, member or line does to the
 * base: changes the one of the same key, name or label (PATCH_CHANGE), is
 * new (`add`) or takes the base's away (`remove`, modifiers only). */
typedef enum { PATCH_CHANGE, PATCH_ADD, PATCH_REMOVE } PatchKind;

/* A member of an enum-like declaration (enum, ladder, outcome, choice). */
typedef struct Member {
    const char *name;
    Span span;
    const char *text;        /* the sheet's words for it, or NULL */
    ArgList fields;          /* outcome field values */
    PatchKind patch;
    const Source *src;       /* set when a variant added or changed it: the variant's file */
} Member;

/* A row key of a table or bands block: a name, a number or a range. */
typedef enum { KEY_NAME, KEY_INT, KEY_RANGE } KeyKind;

typedef struct Key {
    KeyKind kind;
    Span span;
    const char *name;
    int64_t lo, hi;          /* KEY_INT: lo == hi */
    bool lo_open, hi_open;   /* KEY_RANGE: `..4`, `8..` */
    const Source *src;       /* set when a variant wrote it: the variant's file */
    const Source *narrowed_in;  /* a variant's row laid over it took some of its numbers: that variant's file */
} Key;

typedef struct KeyList {
    Key *items;
    int n, cap;
} KeyList;

typedef struct ExprList {
    Expr **items;
    int n, cap;
} ExprList;

typedef struct Row {
    KeyList keys;
    ExprList cells;
    const char *text;        /* bands: the sheet's words for the result */
    Span span;
    int block;               /* the `column` block it is written under, or -1 */
    PatchKind patch;
    /* Set when a variant added or changed the row: the file its keys and
     * words come from, and (when only some cells changed) each cell's file. */
    const Source *src;
    const Source **cell_src;
} Row;

typedef enum { MOD_ADD, MOD_MUL, MOD_EACH, MOD_ONEOF, MOD_CAP, MOD_BASE, MOD_NOTE } ModKind;

typedef struct ModItem ModItem;

typedef struct ModList {
    ModItem *items;
    int n, cap;
} ModList;

struct ModItem {
    ModKind kind;
    Span span;
    Expr *cond;              /* MOD_ADD, MOD_MUL: when it applies; MOD_EACH: the count */
    Expr *value;             /* the modifier, the factor or the base */
    const char *label;
    const char *says;        /* MOD_NOTE: what the sheet prints in place of a number ("NP") */
    ModList group;           /* MOD_ONEOF */
    Key range;               /* MOD_CAP */
    /* in a variant's `change modifiers`: what the line does to the base's,
     * and where an added one goes (-1 before, +1 after place_label, 0 last) */
    PatchKind patch;
    int place;
    const char *place_label;
    Span place_span;
    const Source *src;       /* set when a variant added or changed it: the variant's file */
};

typedef struct SeqItem SeqItem;

typedef struct SeqList {
    SeqItem *items;
    int n, cap;
} SeqList;

struct SeqItem {
    bool phase;
    Span span;
    const char *text;
    const char *proc;        /* a step may name the procedure that resolves it */
    Span proc_span;
    SeqList children;
};

typedef struct Setting {
    const char *key;
    Span span;
    const char *value;
} Setting;

/* A face of a `die` declaration: a number, a run of numbers (`0..9`), or
 * a member of an enum (`hit`, `Face.hit`) on `count` faces (`3 hit`). */
typedef struct DieFace {
    Span span;
    bool symbol;
    int64_t value, last;     /* a number: value..last (last == value for one) */
    const char *enum_name;   /* a symbol written in full (`Face.hit`): the enum, else NULL */
    const char *name;        /* a symbol: the member */
    Span name_span;
    int64_t count;           /* the faces showing it */
    Span count_span;
} DieFace;

typedef enum {
    DECL_PROC, DECL_ENUM, DECL_RECORD, DECL_TABLE, DECL_BANDS, DECL_MODIFIERS,
    DECL_SEQUENCE, DECL_EXAMPLE, DECL_RULESET, DECL_IMPORT,
    DECL_SECTION,            /* `section "TITLE"`: a heading of the sheet; name is the title */
    DECL_DIE,                /* `die NAME "WORDS" { FACES }`: a die with faces of its own */
    DECL_BAG                 /* `bag NAME "WORDS" { ITEMS }`: items drawn without replacement (as.die) */
} DeclKind;

/* An `odds` declaration is a procedure whose body is one expression: the
 * sheet prints its chance (a bool) or its mean over the grid of its
 * parameters' values. */
typedef enum { ODDS_NONE, ODDS_CHANCE, ODDS_MEAN } OddsKind;

typedef enum { ENUM_PLAIN, ENUM_LADDER, ENUM_OUTCOME, ENUM_CHOICE } EnumFlavour;

typedef struct Decl {
    DeclKind kind;
    Span span;
    const char *name;        /* for examples and rulesets: the title */
    Span name_span;
    const Source *src;       /* the file it was written in */
    const char *doc;         /* from `##` comments just before it, or NULL */
    const char *cite;        /* `source "..."`: where in the rules text it comes from */
    Span cite_span;
    ParamList params;        /* proc, record (fields), table, bands, modifiers, outcome (fields) */
    bool change;             /* `change ...` in a variant: a patch of the base's declaration of this name */
    Span change_span;        /* the word `change` */
    bool of_base;            /* an example of the ruleset a variant changes (set when loading) */
    /* `change proc NAME(x = 2, ...)`: the `...` (the base's other
     * parameters) and whether the body is the base's (none written) */
    bool rest_params, keep_body;
    Span rest_span;
    const struct Decl *was;  /* the base's declaration a variant's change put this one in place of */
    const Source *changed_in;   /* with `was`: the file of the variant whose `change` made this */
    TypeRef ret;
    union {
        /* and example; odds/title: an `odds NAME(...) "TITLE" { chance|mean EXPR }` */
        struct { StmtList body; Span body_end; OddsKind odds; const char *title; } proc;
        struct { Member *items; int n, cap; EnumFlavour flavour;
                 const char *prompt; const char *deflt; Span deflt_span; } enm;
        /* and bands; `blocks` holds the keys of `column NAME` lines, each
         * starting a block of rows with its own ranges */
        struct { KeyList columns; Row *rows; int nrows, cap; KeyList blocks; } table;
        struct { ModList items; } mods;
        struct { SeqList items; } seq;
        /* base: `variant "T" of "BASE"`, the file of the ruleset it changes */
        struct { Setting *items; int n, cap; const char *base; Span base_span; } ruleset;
        struct { const char *path; } import;
        struct { DieFace *items; int n, cap; const char *text; } die;
    } as;
} Decl;

typedef struct Module {
    const Source *src;
    Decl **decls;
    int n, cap;
} Module;

/* Write an expression back as source text, with only the parentheses it needs. */
void ast_print_expr(FILE *out, const Expr *e);

/* Calls fn on each name (EX_NAME) read in e, in the order written; the
 * walk is bounded by the parser's depth limit. */
void ast_each_name(const Expr *e, void (*fn)(void *ud, const Expr *name), void *ud);

/* Grow a vector (items, n, cap) of elements of `size` bytes by one slot. */
void *ast_grow(void *items, int n, int *cap, size_t size);
#define AST_PUSH(vec, value)                                                              \
    do {                                                                                  \
        (vec).items = ast_grow((vec).items, (vec).n, &(vec).cap, sizeof *(vec).items);     \
        (vec).items[(vec).n++] = (value);                                                 \
    } while (0)

/* Constructors used by the parser. */
Expr *ast_expr(ExprKind kind, Span span);
Expr *ast_unary(Operator op, Expr *operand, Span span);
Expr *ast_binary(Operator op, Span op_span, Expr *l, Expr *r, Span span);
Expr *ast_call(const char *callee, Span callee_span, Arg *args, int nargs, Span span);
/* `x in [a, b]` is a call of this callee (no script can write the name),
 * with x as the first argument and the list after it. */
#define AST_IN_CALLEE " in"
Expr *ast_roll(Expr *count, int64_t sides, Expr *sides_expr, Span span);
/* `roll NAME` (count NULL) or `roll COUNT NAME`: dice of a `die` declaration. */
Expr *ast_roll_die(Expr *count, const char *die, Span die_span, Span span);
/* `draw BAG` (count NULL: one item) or `draw COUNT from BAG`: an EX_ROLL with draw set (die: the bag). */
Expr *ast_draw(Expr *count, const char *bag, Span bag_span, Span span);
/* `roll [PART, ...]`: a pool of the dice of every part (each an ast_roll). */
Expr *ast_roll_mixed(Expr **parts, int nparts, Span span);
Stmt *ast_stmt(StmtKind kind, Span span);
void ast_stmt_push(StmtList *list, Stmt *s);
Decl *ast_decl(DeclKind kind, const char *name, Span name_span, Span span);
/* A row key as muster writes it: "light", "7", "..6", "8..", "3..5". */
char *ast_key_text(const Key *k);
void ast_module_push(Module *m, Decl *d);

#endif
