/* batch.h — simulated trials run a batch at a time, instruction by instruction.
 *
 * The interpreter runs one trial from its first instruction to its RETURN,
 * then the next: each instruction pays for its dispatch once per trial.
 * A simulation's specialized call (specialize.h) is often a few
 * instructions with no call, no loop and no pool it keeps: a die or two, a
 * sum, a table.  Such a proto is compiled once more, here, into a batch
 * program that runs each instruction over BATCH_LANES trials at once, one
 * int64 per trial (a lane), with no Value boxing and no dispatch per trial.
 *
 * A batch gives exactly what the interpreter gives, trial by trial, from
 * the same generator: first every trial's dice are drawn in trial order,
 * each trial's rolls in the order its code makes them (a roll made on some
 * ways only, or a reroll, where the trial's earlier rolls decide, from a
 * table worked out when compiling), then the instructions run over the
 * lanes, a forward branch as a choice per lane.  Where some trial needs
 * what a batch cannot do (an integer overflow, a division by zero, a table
 * cell with no value given, a '?' whose value is needed, more rerolls than
 * the limits allow), the batch gives up before anything is counted and
 * puts the generator back where it was, for the caller to run those trials
 * through the interpreter instead.
 */
#ifndef MUSTER_VM_BATCH_H
#define MUSTER_VM_BATCH_H

#include "vm/chunk.h"
#include "vm/rng.h"
#include "vm/vm.h"

#include <stdbool.h>
#include <stdint.h>

#define BATCH_LANES 256          /* trials a batch: its lanes, 2 KiB a register */

typedef struct BatchCode BatchCode;     /* a proto compiled for batches, read-only once made */
typedef struct BatchLanes BatchLanes;   /* the registers one machine runs it on */

/* What a batch gives: each trial's result as the payload of a value of
 * `kind`'s tag and enum (an int, a member's index, a bool as 0 or 1), and,
 * where a result may be a value the rules text does not give, site[i] >= 0
 * for a trial whose result is the '?' of Program.unknowns[site[i]] (site is
 * NULL when no result can be one). */
typedef struct BatchResults {
    Value kind;
    const int64_t *value;
    const int64_t *site;
} BatchResults;

/* protos[index] of prog, a procedure of no parameters, compiled for
 * batches on machines with these limits; NULL when it does not qualify:
 * it calls, computes with anything but ints, bools and members (a pool
 * only as the counts of a small roll), makes a roll or a reroll on some
 * ways only that a pool or too many values of earlier rolls decide, or
 * uses an instruction the batch does not know. */
const BatchCode *batch_compile(const Program *prog, int index, const VmLimits *limits);

/* Registers for code, for one thread. */
BatchLanes *batch_lanes_new(const BatchCode *code);

/* n (1..BATCH_LANES) trials of code, drawing from rng as n runs of the
 * proto by the interpreter with seeded dice (RngDice) and no trace would: true with their results in *out (valid
 * until the next batch on these lanes); false if a trial needs what a
 * batch cannot do, with rng as it was before the call. */
bool batch_run(const BatchCode *code, BatchLanes *lanes, Rng *rng, int n, BatchResults *out);

#endif
