/* merge.h — the exact engine's states: runs that reach the same one are counted once.
 *
 * The exact engine runs a procedure once per path through its dice.  Many
 * paths meet again: in a chain of rolls (hits, then wounds for the hits,
 * then saves for the wounds) the wounds roll depends only on how many hits
 * there were, not on which dice made them, and everything after the saves
 * only on how many wounds were unsaved.  So at each MERGE (a statement
 * begins, see opcodes.def) the engine takes the run's *state*: where every
 * active procedure is, the values of the locals it will still read (their
 * liveness is worked out from the bytecode: jumps only go forward, so one
 * backward pass gives it), the values on the stack, and what else the rest
 * of the run depends on (the engine's own: rolls so far, what the bags
 * have left, the choices).  A state whose every continuation has been run
 * already ends the run there: the state's weight grows by the path's
 * probability, and its distribution, conditioned on the state, is added
 * in times its weight once, when the walk is over.
 *
 * The continuations are counted the way the engine counts everything, by
 * its depth-first walk over decisions: a state met at the frontier of the
 * walk (no decision of its run yet past it) becomes a *frame* when the
 * next decision is made, and the outcomes of the runs below it are tallied
 * in the frame's own Tally.  When the walk moves a decision before the
 * frame's first one, every continuation has been run: the frame's tally,
 * divided by the probability of reaching it, is remembered for its state,
 * and added to the frame around it.  What a state remembers is its own
 * outcomes and the weights of the states counted before it that its runs
 * reached: the weights flow down that graph once, at the end, so a chain
 * costs its edges between states, not its runs times their outcomes.  A state that holds a lazy pool (whose
 * refinement the engine keeps elsewhere) is not taken: the run goes on
 * unmerged, as before.
 */
#ifndef MUSTER_VM_MERGE_H
#define MUSTER_VM_MERGE_H

#include "vm/tally.h"
#include "vm/vm.h"

#include <gmp.h>
#include <stdbool.h>
#include <stdint.h>

/* Which locals each instruction of a proto leaves to be read later, worked
 * out once per proto; shared by the mergers of one count. */
typedef struct MergeLive MergeLive;
MergeLive *merge_live_new(void);

typedef struct Merger Merger;

Merger *merger_new(MergeLive *live);

/* At a MERGE at the frontier of the walk, `depth` the frame it is in, sp
 * the top of vm's stack, extra[0..nextra) the engine's own part of the
 * state: 1 with *hit set when the state's continuations have all been
 * counted (the state's index: the run ends there, see merger_hit); else
 * 0, the state then waiting for the run's next decision. */
int merger_at(Merger *m, const Vm *vm, int depth, const Value *sp, const int64_t *extra, int nextra, int *hit);

/* A run ended at state `hit`, its probability num/den (merger_given): the state's
 * distribution counts that much more (in the innermost frame). */
void merger_hit(Merger *m, int hit, mpz_srcptr num, mpz_srcptr den);

/* A decision is made at index `at` of the walk's path, the path's
 * probability before it num/den: the state waiting, if any, becomes a
 * frame whose continuations are the paths below it. */
void merger_decision(Merger *m, int at, mpz_srcptr num, mpz_srcptr den);

/* The run is over: no state waits any more. */
void merger_run_over(Merger *m);

/* A path's weight num/den given the innermost frame's state, in rn/rd
 * (what a run adds to merger_tally, or merger_hit takes). */
void merger_given(const Merger *m, mpz_srcptr num, mpz_srcptr den, mpz_ptr rn, mpz_ptr rd);

/* Where a run's outcome is tallied: the innermost frame's tally, or top. */
Tally *merger_tally(Merger *m, Tally *top);

/* The walk is about to move the decision at index at - 1 (0: it is over):
 * the frames at or below `at` are done.  With `remember`, each one's
 * distribution is kept for its state; each is added to the frame around it
 * (or top). */
void merger_close(Merger *m, int at, bool remember, Tally *top);

/* The walk is over: the states reached outside every frame, each with
 * its distribution (and the states that one reached, and so on), added
 * to top. */
void merger_expand(Merger *m, Tally *top);

/* States remembered so far. */
size_t merger_states(const Merger *m);

#endif
