/* exact.h — exact distributions, by running a procedure on every outcome of its dice.
 *
 * The exact engine is a dice source that, instead of drawing, chooses: the
 * first run takes the first outcome of every roll, and each later run
 * changes the last choice that has alternatives left, until every path
 * through the procedure's dice has been run once.  A die is one choice
 * among its faces.  A pool is not settled when it is rolled: it is a lazy
 * pool (see dice.h), counts of dice per class of faces, and each question
 * the procedure asks of it splits only the classes it must, one choice
 * among the number of a class's k dice that land in one part (weighted
 * C(k,j) a^j b^(k-j) / (a+b)^k), so count(roll 60d6 >= 4) takes 61 runs.
 * What needs a pool's faces (sum, highest n, doubles, a pool in a result)
 * settles the classes concerned, one choice among the multisets of each,
 * weighted by its multinomial coefficient.  Pools of more than 64 sides
 * are settled whole when rolled.  Probabilities are exact rationals (GMP).
 *
 * `reroll` is conditioning: a procedure that rerolls gets the distribution
 * of its attempts that do not.  For the procedure asked about, paths that
 * reroll are set aside and the rest renormalised; a procedure that rerolls
 * and is called from another is worked out on its own (once per distinct
 * arguments) and then stands for one choice among its results.
 *
 * A path that keeps rolling past a depth limit (an open-ended explosion) is
 * cut, and the probability cut off is reported, never silently added to a
 * result.  A path that reaches a value the rules text does not give ('?')
 * is counted apart, as in simulation.  Work is bounded by a budget of runs;
 * past it the engine stops and says how far it got.
 */
#ifndef MUSTER_VM_EXACT_H
#define MUSTER_VM_EXACT_H

#include "vm/vm.h"

#include <gmp.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct ExactOutcome {
    Value value;
    mpq_t p;
} ExactOutcome;

/* How a count (exact_distribution) or a claim (exact_claim) ended.  The
 * engine decides on this value, never on an error's text. */
typedef enum ExactStatus {
    EXACT_DONE = 0,          /* every path was run: the result is complete (a claim: *out is set) */
    EXACT_FAILED,            /* a runtime error on some path (other than '?') stopped it: the Vm's
                                error fields say where (a claim: its `why`) */
    EXACT_OVER_BUDGET,       /* it stopped: it needs more runs than the budget allows (a claim:
                                more than the count it is part of has left) */
    EXACT_STOPPED,           /* the driver's tick (ExactOptions.tick) asked it to stop */
} ExactStatus;

/* How far a count has got, for the driver's tick. */
typedef struct ExactProgress {
    uint64_t runs;           /* runs so far, all nested work included */
    double done;             /* the share of the probability the outermost count has covered so
                                far (0 to 1): the paths run, weighed by their probability */
} ExactProgress;

/* Called every ExactOptions.tick_every runs or so (and from long pieces of
 * work inside a run), so that the driver can show progress, watch the
 * clock and stop the count: return false to stop it (EXACT_STOPPED). */
typedef bool (*ExactTick)(void *ud, const ExactProgress *p);

typedef struct ExactResult {
    ExactOutcome *outcomes;  /* sorted by value */
    int n;
    mpq_t not_given;         /* reached a '?' */
    mpq_t dropped;           /* cut at the depth limit */
    uint64_t runs;           /* runs of the procedure it took */
    ExactStatus status;      /* the outcomes are the distribution only when EXACT_DONE */
    double needed;           /* over budget because a single pool was too big: its number of outcomes */
    const struct Proto *needed_proto;   /* and where it is: the proto rolling (or drawing) it, NULL if not */
    uint32_t needed_offset;  /* known, and the source offset of the instruction (Proto.offsets) */
    const char *beyond;      /* over a limit of the engine's that no budget lifts: what it is (else NULL) */
} ExactResult;

typedef struct ExactOptions {
    uint64_t budget;         /* most runs, all nested work included; 0: the default */
    int max_decisions;       /* most rolls on one path before it is cut; 0: the default */
    bool whole_pools;        /* settle every pool when it is rolled, one decision among its
                                multisets (the engine before lazy pools: for tests) */
    ExactTick tick;          /* NULL: none */
    void *tick_ud;
    uint64_t tick_every;     /* runs between ticks; 0: EXACT_TICK_EVERY */
} ExactOptions;

#define EXACT_TICK_EVERY 1024

#define EXACT_DEFAULT_BUDGET 2000000
#define EXACT_DEFAULT_DECISIONS 200
/* A recursive procedure's calls of itself are worked out round by round,
 * until the share its recursion leaves cut off is below this. */
#define EXACT_CUT_BELOW 1e-12

/* How a prob() claim is estimated when counting it exactly would take more
 * than EXACT_DEFAULT_BUDGET runs: the share of `trials` calls of the claim,
 * on dice seeded with `seed`, that come out true (yes / trials, a rat).
 * The engine has no numbers of its own: the driver that owns the machine
 * gives them in VmLimits.claim_fallback (api/context.c, beside `muster
 * prob`'s own default number of trials).  With none, a claim past the
 * budget is an error. */
typedef struct ExactFallback {
    uint64_t trials;         /* at least 1 */
    uint64_t seed;           /* fixed, so that a claim is the same wherever it is asked */
} ExactFallback;

/* One run of what is asked about: by default a call of protos[index](args);
 * a driver may supply its own (to work out default arguments first). */
typedef int (*ExactRun)(void *ud, Vm *vm, Value *result);

/* Work out the distribution of protos[index](args) — or of `run` when
 * given.  `vm` supplies the program, limits and choices (its dice source is
 * replaced for the duration); when the count fails, its error fields
 * describe the error.  Returns out->status.  Call exact_clear on the result
 * when done. */
ExactStatus exact_distribution(Vm *vm, int index, const Value *args, int nargs, ExactRun run, void *run_ud,
                               const ExactOptions *opts, ExactResult *out);
void exact_clear(ExactResult *r);

/* For an ExactRun: call protos[index](args) as vm_call does, but when the
 * engine is counting and the run has rolled dice before the call (a default
 * that rolls), a procedure that rerolls is worked out on its own, so that
 * its reroll keeps those dice, as in the VM. */
int exact_call(Vm *vm, int index, const Value *args, int nargs, Value *result);

/* prob(claim), for OP_PROB at frame `depth` of vm: the probability that the
 * claim protos[proto] (a bool) is true of its arguments args[0..nargs) (the
 * values of the caller's names it uses), as a rat in *out.  Exact when that
 * takes at most EXACT_DEFAULT_BUDGET runs, else estimated as
 * vm->limits.claim_fallback says.  Worked out once per claim, arguments and
 * choices for vm and the machines nested in it.  Returns EXACT_DONE (0)
 * with *out set; EXACT_FAILED with the reason in why (a claim that may need
 * or be a value the rules text does not give has no known odds); or,
 * inside an exact count whose budget has too little left for the claim
 * (its runs count towards that budget), EXACT_OVER_BUDGET, and that count
 * ends over budget. */
ExactStatus exact_claim(Vm *vm, int proto, const Value *args, int nargs, int depth, Value *out, char *why,
                        size_t whylen);

/* The mean and the variance of a numeric distribution's outcomes (those
 * with a value), exact; false when no outcome has any probability.  Linear
 * in the outcomes: the sums are kept over a common denominator while they
 * run (the outcomes of one count mostly share one). */
bool exact_moments(const ExactResult *r, mpq_t mean, mpq_t variance);

#endif
