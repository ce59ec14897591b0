/* peephole.h — rewriting finished bytecode into fewer, bigger instructions.
 *
 * Runs on each proto once the whole program is compiled.  It fuses the
 * sequences the code generator emits often, so the VM dispatches fewer
 * instructions for the same work:
 *   LOAD s, LOAD s+1, ..., LOAD s+n-1  ->  LOADN s n   (arguments passed on)
 *   FILTER c, COUNT                    ->  COUNT_IF c  (no pool is built)
 *   CONST n, CONST s, ROLL_POOL        ->  ROLL_POOLK
 *   CONST k, then ROLL, ADD, SUB, MUL or a comparison  ->  ROLLK, ADDK, SUBK, MULK, CMPK
 *   CONST k, then COUNT_IF, ANY or ALL ->  COUNT_IFK, ANYK, ALLK
 *   ROLL_POOLK n s, COUNT_IFK k c      ->  ROLL_COUNTK (no pool made)
 *   CONST k, comparison, JUMP_FALSE    ->  JUMP_UNLESS
 *   comparison, JUMP_FALSE             ->  JUMP_CMP    (if a > d)
 *   DIV, then FLOOR, CEIL or ROUND     ->  IDIV m      (no rational made of two ints)
 *   CONST k, DIV, FLOOR/CEIL/ROUND     ->  IDIVK k m   (and CONST k, IDIV m)
 *   LOAD s, RETURN                     ->  RETURNL s
 *   CONST k, RETURN                    ->  RETURNK k
 *   LOAD s, JUMP_UNLESS k c            ->  JUMP_UNLESS_L s k c
 *   STORE s, LOAD s                    ->  TEE s
 * A sequence is never fused across a jump target, and jumps, the line
 * table and the proto's length are rebuilt to match the shorter code.
 * What the code computes, and where its errors point, is unchanged.
 */
#ifndef MUSTER_COMPILER_PEEPHOLE_H
#define MUSTER_COMPILER_PEEPHOLE_H

#include "vm/chunk.h"

#include <stdbool.h>

/* One pass over p; true if it fused anything (another pass may fuse more).
 * A MERGE with nothing after it that rolls, draws or calls is dropped. */
bool peephole_proto(Proto *p);
void peephole_program(Program *prog);
/* Once chunk_mark_pure has run: the MERGEs (statements' beginnings, for
 * the exact engine) with nothing after them that may roll dice, a call of
 * a pure procedure included, are dropped. */
void peephole_merges(Program *prog);

#endif
