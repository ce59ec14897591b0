/* compiler.h — from syntax tree to bytecode.
 *
 * A first pass declares every enum, record, table and procedure (so order
 * in the file does not matter and procedures may call each other
 * recursively); then every parameter default gets a procedure of its own,
 * and those are compiled; then each body (procedures, tables, bands,
 * modifier lists), then examples, sequences and the ruleset header, each
 * checked and turned into code in one walk; last the peephole pass.
 * Typing is static: every expression has one type (int, rat, bool, str,
 * pool or an enum), and a mistake such as a pool used where a number is
 * needed is a compile error with the exact span, never a runtime surprise.
 * The compiler keeps going after an error, reporting each (up to the
 * diagnostic limit), and produces no program if there was any.
 *
 * The compiled program keeps each procedure's signature (parameter names,
 * types, defaults) so a driver can turn `name=value` text into arguments.
 */
#ifndef MUSTER_COMPILER_COMPILER_H
#define MUSTER_COMPILER_COMPILER_H

#include "lang/ast.h"
#include "vm/chunk.h"
#include "lang/source.h"

typedef enum { TY_ERROR, TY_INT, TY_RAT, TY_BOOL, TY_STR, TY_POOL, TY_ENUM, TY_RECORD } TypeKind;

typedef struct Type {
    TypeKind kind;
    int enum_id;             /* TY_ENUM: the enum; TY_RECORD: the record type */
} Type;

/* What a callable name stands for. */
typedef enum { SIG_PROC, SIG_TABLE, SIG_BANDS, SIG_MODIFIERS, SIG_RECORD } SigKind;

typedef struct ProcSig {
    SigKind kind;
    const char *name;
    int proto;               /* index in the program's protos */
    int nparams;
    const char **pnames;
    Type *ptypes;
    int *pdefault;           /* proto computing the default, or -1 */
    const char **pdeftext;   /* the default as written (spaces folded), or NULL */
    Type ret;
    Span span;
    const Decl *decl;
} ProcSig;

/* An `example` from the rules text, compiled to a procedure of its own. */
typedef struct Example {
    const char *name;
    const Decl *decl;
    const Source *src;
    int proto;
    const int64_t *dice;     /* the dice thrown in it, in order */
    const char *const *dice_words;   /* NULL, or per die the face named in its place (a symbol die's) */
    int ndice;
    int *choices;            /* per enum id: the option chosen, or -1 */
    Span *expects;           /* where each expectation is written */
    int *expect_ops;         /* its comparison (an Operator), or -1 for a plain claim */
    const char **tolerances; /* for `~ ... within t`: t as written */
    int nexpects, expects_cap;
    bool of_base;            /* the base's, run against a variant: a failure is a change, not an error */
} Example;

/* A `?` cell: a value the rules text does not give. */
typedef struct Unknown {
    const Source *src;
    Span span;
    const char *what;        /* "table move, row cavalry, column woods" */
} Unknown;

/* Something `muster check` points out that is not an error (a name that is
 * never used). */
typedef struct Lint {
    const Source *src;
    Span span;
    const char *message;
} Lint;

typedef struct Compiled {
    Program *prog;
    const Source *src;       /* the main file */
    const Module *module;    /* its declarations (and those it imports) */
    const char *expression;  /* a one-off expression (prob -e), shown in place of the call */
    /* Every file the code came from, and where each starts in the one
     * numbering of positions that Proto.offsets, Proto.decl_offset and
     * Table.cell_offsets use (the files one after another): see
     * compiler_locate. */
    const Source **sources;
    uint32_t *source_start;
    int nsources;
    bool too_much_text;      /* the files do not fit in 32-bit positions (reported) */
    ProcSig *procs;          /* everything callable, in declaration order */
    int nprocs;
    Example *examples;
    int nexamples;
    const Decl **sequences;
    int nsequences;
    const Decl *ruleset;     /* NULL when the script has no header */
    Unknown *unknowns;
    int nunknowns;
    Lint *lints;
    int nlints;
} Compiled;

/* A one-off expression becomes `proc expression() -> <this> { return EXPR }`. */
#define COMPILER_EXPRESSION_PROC "expression"
#define COMPILER_INFERRED_TYPE "the type of the expression"

/* Compile a parsed module (its declarations may come from several files);
 * NULL if any error was reported. */
Compiled *compiler_compile(const Module *m, Diag *diag);
/* Which module of the standard library declares a procedure named name:
 * the name its import is written with ("dice"), or NULL. */
typedef const char *StdlibLookup(const char *name);
/* compiler_compile, where a call of an unknown procedure that a module of
 * the standard library declares says which import brings it. */
Compiled *compiler_compile_with(const Module *m, Diag *diag, StdlibLookup *stdlib);

const ProcSig *compiler_find_proc(const Compiled *c, const char *name);
/* The file and byte offset in it of a position recorded in a proto's line
 * table, its decl_offset or a table's cell_offsets. */
const Source *compiler_locate(const Compiled *c, uint32_t pos, uint32_t *offset);
/* "int", "rat", "Cover", ... */
const char *compiler_type_name(const Compiled *c, Type t);
/* The name of the i-th built-in function (floor, sum, any...), or NULL past
 * the last. */
const char *compiler_builtin_name(int i);
/* The one of names[0..n) closest to target, if close enough to be what was
 * meant (the compiler's "did you mean"); NULL if none is. */
const char *compiler_closest(const char *target, const char *const *names, int n);

#endif
