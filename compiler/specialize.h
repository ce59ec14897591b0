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
 * again to report it.  Specializing gives up (returns -1) on what it cannot
 * follow: odds, examples' picks and expectations, or code that grows past
 * a budget; the caller then simply runs the original.
 */
#ifndef MUSTER_COMPILER_SPECIALIZE_H
#define MUSTER_COMPILER_SPECIALIZE_H

#include "vm/vm.h"

/* Add to vm->prog a procedure of no arguments equivalent to calling
 * protos[index](args) — or, with field >= 0, to taking that field of its
 * record result — with vm->choices fixed.  Returns its index, or -1 when
 * the procedure cannot be specialized.  `vm` is used to work out known
 * values (its dice are never rolled). */
int specialize_call(Vm *vm, int index, const Value *args, int nargs, int field);

#endif
