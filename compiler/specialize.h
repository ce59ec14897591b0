/* specialize.h — a procedure compiled once more for fixed arguments.
 *
 * `muster prob` runs one call, with the same arguments, a million times.
 * Most of what a rules procedure computes does not depend on the dice:
 * eligibility checks, modifier lists, table lookups on the arguments.  The
 * specializer runs the procedure's bytecode once symbolically, with the
 * arguments known and the dice not, and writes a new procedure of no
 * arguments that does only what depends on the dice:
 *
 *   - an instruction whose inputs are all known is worked out now (by the
 *     VM itself, so the semantics are the VM's), and a call of a pure
 *     procedure (chunk_mark_pure) with known arguments likewise;
 *   - a call is otherwise inlined (its locals become the new procedure's),
 *     unless its callee rerolls or the inlining runs too deep, in which case
 *     it stays a call;
 *   - a record whose fields are not all known stays virtual (its fields
 *     are kept apart), so taking a field of it costs nothing, and fields
 *     nobody reads are never computed;
 *   - a branch on something the dice decide is kept, and each side is
 *     specialized on its own (the code is a tree, not a graph);
 *   - each computed value goes to a fresh local; a value nobody reads, from
 *     an instruction that cannot fail, is removed afterwards.
 *
 * The result rolls the same dice in the same order and returns the same
 * value as the original on every path, and fails where it fails (a failing
 * instruction is never removed or worked out early).  Its error locations
 * are not the original's: a caller that meets an error runs the original
 * again to report it.  Specializing gives up (returns NULL) on what it cannot
 * follow: odds, examples' picks and expectations, or code that grows past
 * a budget; the caller then simply runs the original.  The program it was
 * given is never changed: what it writes goes into a copy.
 */
#ifndef MUSTER_COMPILER_SPECIALIZE_H
#define MUSTER_COMPILER_SPECIALIZE_H

#include "vm/vm.h"

/* A procedure of no arguments equivalent to calling protos[index](args)
 * of vm->prog — or, with field >= 0, to taking that field of its record
 * result — with vm->choices fixed.  It is built in a new program: a copy
 * of vm->prog with arrays of protos and tables of its own, in which every
 * proto and table of vm->prog keeps its index, and to which the
 * specializer adds its own (the new procedure, a scratch procedure, the
 * columns of two-key tables it looks up).  Returns that program, with the
 * new procedure's index in *out_index: a VM that runs it is initialised
 * with the returned program, and can still call any procedure of the
 * original by its index.  Returns NULL when the procedure cannot be
 * specialized (*out_index is then left alone).  vm->prog is never
 * changed, whether or not specializing succeeds; `vm` only lends its
 * limits and choices to a machine of the specializer's own that works out
 * known values (no dice are rolled). */
const Program *specialize_call(const Vm *vm, int index, const Value *args, int nargs, int field, int *out_index);

/* Result codes.  A record result costs a simulation building the record
 * and counting it by a hash of its fields, every trial.  On each path the
 * specializer knows most of a record's fields, and the others are ints
 * between bounds or bools: so the record can be returned as an int, a code
 * counted like any small int, and turned back into the record once, when
 * the counts are done.  The codes of one path's records are a range of
 * their own: its first code, plus each varying field's offset from its
 * lowest value times the number of values of the fields before it. */
#define SPEC_MAX_CODES 4096      /* codes in all, so that each is a small int */

typedef struct SpecShape {
    Value record;            /* the path's record, the varying fields 0 */
    int nvar;                /* the fields that vary, and for each */
    int field[16];           /* its index */
    bool is_bool[16];        /* a bool (0 and 1), or an int */
    int64_t lo[16], count[16];   /* its lowest value and how many values */
    int64_t base, size;      /* its codes: [base, base + size) */
} SpecShape;

typedef struct SpecCodes {
    SpecShape *shapes;
    int n, cap;
    int64_t ncodes;          /* codes used: [0, ncodes) */
} SpecCodes;

/* specialize_call (no field) whose record result is a code, when every
 * path's record can be coded: codes->n is then > 0.  Otherwise (a result
 * that is no record, a field that is neither a bounded int nor a bool, too
 * many codes) it is specialize_call's procedure, with codes->n 0. */
const Program *specialize_call_coded(const Vm *vm, int index, const Value *args, int nargs, int *out_index,
                                     SpecCodes *codes);

/* The record of a code; false if no path gives it. */
bool specialize_decode(const SpecCodes *codes, int64_t code, Value *record);

#endif
