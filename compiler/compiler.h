/* compiler.h — from syntax tree to bytecode.
 *
 * One pass declares every enum and procedure (so order in the file does
 * not matter and procedures may call each other recursively); a second
 * pass checks each procedure body and generates its code in the same walk.
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

#include "ast.h"
#include "chunk.h"
#include "source.h"

typedef enum { TY_ERROR, TY_INT, TY_RAT, TY_BOOL, TY_STR, TY_POOL, TY_ENUM } TypeKind;

typedef struct Type {
    TypeKind kind;
    int enum_id;             /* TY_ENUM */
} Type;

typedef struct ProcSig {
    const char *name;
    int proto;               /* index in the program's protos */
    int nparams;
    const char **pnames;
    Type *ptypes;
    int *pdefault;           /* proto computing the default, or -1 */
    Type ret;
    Span span;
    const Decl *decl;
} ProcSig;

typedef struct Compiled {
    Program *prog;
    const Source *src;
    ProcSig *procs;          /* the user's procedures, in declaration order */
    int nprocs;
} Compiled;

/* Compile a parsed module; NULL if any error was reported. */
Compiled *compiler_compile(const Module *m, Diag *diag);

const ProcSig *compiler_find_proc(const Compiled *c, const char *name);
/* "int", "rat", "Cover", ... */
const char *compiler_type_name(const Compiled *c, Type t);

#endif
