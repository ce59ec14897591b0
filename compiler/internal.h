/* internal.h — what the compiler's own files share.
 *
 * compiler.c walks expressions, statements and procedures and drives the
 * whole compile; tables.c builds lookup tables (tables, bands with their
 * coverage proof, outcome fields) from constant cells; rules.c compiles
 * modifier lists, examples, turn sequences and the ruleset header.  They
 * share one Compiler state and the helpers below (prefix comp_); nothing
 * here is visible outside compiler/.
 */
#ifndef MUSTER_COMPILER_INTERNAL_H
#define MUSTER_COMPILER_INTERNAL_H

#include "compiler/compiler.h"
#include "compiler/names.h"
#include "vm/opcodes.h"

#include <stdbool.h>

#define MAX_SLOTS 255
#define MAX_CODE 65535
#define MAX_CONSTS 65535

typedef struct Local {
    const char *name;
    Span span;
    Type type;
    int slot;
    int scope;
    bool is_param;
    bool used;
} Local;

typedef struct FnState {
    ProcSig *sig;
    Proto *proto;
    Local locals[MAX_SLOTS + 1];
    int nlocals;
    int scope;
    int stack, max_stack;
    int next_slot, max_slot;
    bool too_big;            /* already reported */
} FnState;

typedef struct Compiler {
    Diag *diag;
    StdlibLookup *stdlib;    /* for the hint of an unknown procedure; NULL none */
    const Source *src;       /* the file of the declaration being compiled */
    uint32_t src_start;      /* where src starts in the positions protos and tables record */
    Compiled *out;
    Program *prog;
    ProcSig *procs;
    int nprocs, procs_cap;
    FnState *fn;
    Names proc_names;        /* name -> index in procs */
    Names enum_names;        /* name -> enum id */
    Names record_names;      /* name -> record id */
    Names member_names;      /* member name -> the first enum that has it */
    Names member_shared;     /* member names found in more than one enum */
    Names die_names;         /* name -> index in the program's dies */
    Names bag_names;         /* name -> index in the program's bags */
    int *field_tables;       /* per enum id: table of outcome fields, or -1 */
    const ParamList **outcome_fields;   /* per enum id: the outcome's field declarations */
    const Decl **enum_decls; /* per enum id: its declaration, or NULL */
    int *text_tables;        /* per enum id: table of member texts, or -1 (made on first use) */
    int nexpects;            /* expectations in the example being compiled */
    const ProcSig *default_of;   /* compiling a parameter's default: whose parameter it is */
    /* For a '?' written as an expression (a value the rules text does not
     * give), what its messages call it: the declaration it is in ("procedure
     * 'volley'"), and, for the expression unknown_for, what it stands for
     * ("its result"; see comp_unknown_role). */
    const char *owner;
    const Expr *unknown_for;
    const char *unknown_what;
    /* the claims of prob() (their protos), checked once every procedure is
     * compiled: one that draws from a bag is allowed only in an example */
    struct ClaimSite { int proto; Span span; const Source *src; bool in_example; } *claims;
    int nclaims, claims_cap;
    bool in_example;         /* compiling an example's body */
    /* The parts of the return being compiled that are only added up and
     * returned (calls, sums of a fresh roll): each is followed by a DEFER,
     * and the return by a SETTLE (see opcodes.def) */
    const Expr **deferrable;
    int ndeferrable, deferrable_cap;
    int deferred;            /* DEFERs emitted for them (and named parts read) */
    /* of the procedure being compiled, the lets whose value is such a part
     * (their values) and the reads of their names in a return (parts.c) */
    const Expr **named_lets, **named_reads;
    int nnamed_lets, named_lets_cap, nnamed_reads, named_reads_cap;
} Compiler;

static const Type T_ERR = { TY_ERROR, 0 }, T_INT = { TY_INT, 0 }, T_RAT = { TY_RAT, 0 },
                  T_BOOL = { TY_BOOL, 0 }, T_STR = { TY_STR, 0 }, T_POOL = { TY_POOL, 0 };
static const Type T_NONE = { TY_ERROR, -1 };   /* "no expectation" hint */
static const Type T_INFER = { TY_ERROR, -3 };  /* result type of a one-off expression, found when compiled */


static inline bool is_err(Type t) { return t.kind == TY_ERROR; }
static inline bool is_num(Type t) { return t.kind == TY_INT || t.kind == TY_RAT; }
static inline bool same(Type a, Type b)
{
    return a.kind == b.kind
           && ((a.kind != TY_ENUM && a.kind != TY_RECORD && a.kind != TY_POOL) || a.enum_id == b.enum_id);
}
/* Can a value of type `from` be used where `to` is expected? */
static inline bool fits(Type to, Type from)
{
    return is_err(to) || is_err(from) || same(to, from) || (to.kind == TY_RAT && from.kind == TY_INT);
}

/* A part of a declaration written in another file (a variant's row, line,
 * member or default): diagnostics and new protos point there until
 * comp_leave_source gives back what comp_enter_source returned.  src NULL
 * is the declaration's own file. */
typedef struct SourceMark { const Source *src; uint32_t start; } SourceMark;
SourceMark comp_enter_source(Compiler *c, const Source *src);
void comp_leave_source(Compiler *c, SourceMark was);
/* The position recorded in code and cells for a byte offset in the current
 * file (compiler_locate turns it back into the file and offset). */
static inline uint32_t comp_pos(const Compiler *c, uint32_t offset) { return c->src_start + offset; }
/* The file a declaration was written in. */
const Source *decl_source(const Compiler *c, const Decl *d);
#define COMP_AT_SOURCE(c, src, ...)                                \
    do {                                                           \
        SourceMark at_source_ = comp_enter_source((c), (src));     \
        __VA_ARGS__;                                               \
        comp_leave_source((c), at_source_);                        \
    } while (0)

/* diagnostics, at the current declaration's file */
void comp_error(Compiler *c, Span at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void comp_note(Compiler *c, Span at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void comp_warning(Compiler *c, Span at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* names and types */
const char *comp_type_name(const Compiler *c, Type t);
int comp_find_enum(const Compiler *c, const char *name);
int comp_find_member(const Compiler *c, int enum_id, const char *name);
ProcSig *comp_find_proc(Compiler *c, const char *name);
bool comp_resolve_type(Compiler *c, TypeRef ref, Type *out);
/* Is a new declaration's name taken (a built-in, a type, a callable, a die)?  Reported if so. */
bool comp_name_taken(Compiler *c, const char *name, Span at);

/* code */
void comp_emit_byte(Compiler *c, uint8_t b, Span at);
void comp_adjust_stack(Compiler *c, int effect);
void comp_emit_op(Compiler *c, OpCode op, Span at);
void comp_emit_u16(Compiler *c, unsigned v, Span at);
void comp_emit_const(Compiler *c, Value v, Span at);
int comp_emit_jump(Compiler *c, OpCode op, Span at);
void comp_patch_jump(Compiler *c, int pos);
void comp_emit_call(Compiler *c, int proto, int argc, Span at);
Local *comp_find_local(Compiler *c, const char *name);
Local *comp_add_local(Compiler *c, const char *name, Span span, Type type, bool is_param);
int comp_add_temp(Compiler *c, Span at);
void comp_begin_scope(Compiler *c);
void comp_end_scope(Compiler *c);
Proto *comp_begin_fn(Compiler *c, FnState *fn, ProcSig *sig, const char *name, Span at);
void comp_end_fn(Compiler *c, FnState *fn);
Type comp_expr(Compiler *c, const Expr *e, Type hint);
/* When e is a '?', what it stands for in its messages ("its result",
 * "'x'"): said before e is compiled. */
void comp_unknown_role(Compiler *c, const Expr *e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool comp_block(Compiler *c, const StmtList *list);
bool comp_is_builtin(const char *name);

/* parts.c: the parts of a result only added up (DEFER, SETTLE) */
bool comp_is_fresh_sum(const Expr *e);
void comp_find_named_parts(Compiler *c, const StmtList *body);
void comp_return_parts(Compiler *c, const Expr *ret);
void comp_let_part(Compiler *c, const Stmt *let);
void comp_defer_part(Compiler *c, const Expr *e, Type t);
/* Register a callable (procedure, table, ...) and its proto; NULL if the name is taken. */
ProcSig *comp_declare_callable(Compiler *c, const Decl *d, SigKind kind, const ParamList *params, TypeRef ret);
/* A proto whose parameters are its locals, for tables, records and modifiers. */
FnState *comp_begin_params(Compiler *c, ProcSig *sig, const ParamList *params);

/* tables.c */
/* A '?' for `muster check` to list: where it is, and what it is ("table 'move', row line, column woods"). */
void comp_list_unknown(Compiler *c, Span at, const char *what);
/* The value of a constant cell or field (a literal, a fraction, a member); false after an error. */
bool comp_const_value(Compiler *c, const Expr *e, Type want, Value *out);
void comp_table(Compiler *c, ProcSig *sig, const Decl *d);
/* The table behind an outcome's fields (-1 if it has none), and a field's index in it. */
void comp_outcome_fields(Compiler *c, int enum_id, const Decl *d);
/* The table of an enum's member texts, made on first use. */
int comp_text_table(Compiler *c, int enum_id);
void comp_emit_table(Compiler *c, int table, int nkeys, Span at);

/* die.c */
int comp_find_die(const Compiler *c, const char *name);
void comp_declare_die(Compiler *c, const Decl *d);
int comp_find_bag(const Compiler *c, const char *name);
void comp_declare_bag(Compiler *c, const Decl *d);
/* `draw BAG` (one item) or `draw N from BAG` (a pool). */
Type comp_draw(Compiler *c, const Expr *e);
/* A roll of the dice of a `die` declaration: one die (an int or a member),
 * or, with pool, a pool of the count of them (1 when none is written). */
Type comp_roll_die(Compiler *c, const Expr *e, bool pool);

/* rules.c */
void comp_modifiers(Compiler *c, ProcSig *sig, const Decl *d);
void comp_example(Compiler *c, const Decl *d);
void comp_sequence(Compiler *c, const Decl *d);
void comp_ruleset(Compiler *c, const Decl *d);
/* an expectation inside an example */
void comp_expect(Compiler *c, const Stmt *s);

#endif
