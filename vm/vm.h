/* vm.h — the machine that runs compiled procedures.
 *
 * A stack machine: each call gets a frame whose first slots are its
 * arguments and locals, with the operand stack above them.  The VM trusts
 * the compiler's static types (a pool operand is a pool) and checks only
 * what types cannot promise: overflow, division by zero, empty pools, the
 * dice source running out.  Calls between procedures never recurse on the C
 * stack, so a runaway script meets the step limit or the call-depth limit,
 * never a crash; the one C recursion is a machine nested in another (a
 * prob() claim, or a rerolling procedure the exact engine works out on its
 * own), which exact.c bounds (250 deep, or half the thread's C stack).
 *
 * There is no global state: everything a run needs is in the Vm struct, and
 * two Vms run side by side (the simulation's threads each have one).
 *
 * Errors are reported as a message plus the proto and code offset; the
 * caller maps the offset to a source line through the proto's line table.
 */
#ifndef MUSTER_VM_VM_H
#define MUSTER_VM_VM_H

#include "vm/chunk.h"
#include "vm/dice.h"
#include "base/mem.h"

#include <stdint.h>

typedef struct VmLimits {
    uint64_t max_steps;      /* instructions per top-level call */
    int max_depth;           /* nested calls */
    int64_t max_pool;        /* dice in one pool */
    int64_t max_rerolls;     /* rerolls per top-level call */
    /* how a prob() claim past the exact budget is estimated (exact.h), given
     * by the machine's owner; NULL: such a claim is an error */
    const struct ExactFallback *claim_fallback;
} VmLimits;

extern const VmLimits vm_default_limits;

/* The most sides a die may have (a roll of more is an error). */
#define VM_MAX_SIDES (1 << 20)

/* What a run reports as it goes, for explanations and logs (all optional). */
typedef struct VmTrace {
    void *ud;
    /* a die or pool was rolled: `pool` is NULL for a single die (then `face`,
     * its value); sides < 0 for the program's die -sides - 1 (a `die`
     * declaration's, its sides being its faces) */
    void (*on_roll)(void *ud, const Proto *p, uint32_t offset, int32_t sides, int64_t n,
                    const Pool *pool, int64_t face);
    void (*on_reroll)(void *ud, const Proto *p, uint32_t offset);
    /* a procedure was entered (depth 1 = called from the top-level one) / returned */
    void (*on_call)(void *ud, const Proto *callee, const Value *args, int depth);
    void (*on_return)(void *ud, const Proto *p, Value result, int depth);
    /* a modifier list reported an item (see NoteKind) */
    void (*on_note)(void *ud, const Proto *p, uint32_t offset, const MuStr *label, int kind, Value value);
    /* a band with the sheet's words for it matched (row of table t) */
    void (*on_row)(void *ud, const Proto *p, uint32_t offset, int table, int row);
    /* a choice was made: option `index` of choice enum `enum_id` (overridden: not the default) */
    void (*on_choose)(void *ud, const Proto *p, uint32_t offset, int enum_id, int index, bool overridden);
    /* an example's expectation was checked; without this callback a failed
     * one is a runtime error */
    void (*on_expect)(void *ud, const Proto *p, uint32_t offset, int index, bool ok, Value left, Value right);
    /* n items were drawn from bag `bag`: `pool` is NULL for one item (then
     * `item`, its value); order[0..n) the kinds in the order drawn, left
     * the items the bag has left */
    void (*on_draw)(void *ud, const Proto *p, uint32_t offset, int bag, int64_t n, const Pool *pool, int64_t item,
                    const int32_t *order, int64_t left);
} VmTrace;

typedef struct Frame {
    const Proto *proto;
    const uint8_t *ip;
    Value *base;
    int memo;                /* where to remember the result on return (proto x ways + way), or -1 */
    ArenaMark scratch;       /* a rerolling proto: the scratch arena when it was called */
} Frame;

typedef struct MemoSet MemoSet;
typedef struct Claims Claims;   /* prob() claims worked out (exact.c) */

typedef struct Vm {
    const Program *prog;
    DiceSource *dice;
    VmLimits limits;
    const VmTrace *trace;
    int *choices;            /* per enum id: the option to take at a choice, or -1 for its default; may be NULL */
    /* For the exact engine: a call of a procedure that rerolls or is
     * recursive (Proto.recursive; one that draws too) may be
     * answered by `intercept` (1: *result is the answer; 0: not answered,
     * call it as usual; -1: an error), and
     * a reroll of the top-level procedure can end the run instead.  `depth`
     * is the caller's (0: the top-level procedure). */
    int (*intercept)(void *ud, const Proto *callee, int index, const Value *args, int depth, Value *result);
    void *intercept_ud;
    /* For the exact engine too: at a MERGE (a statement begins), with the
     * frames' ips saved and sp the top of the stack: 0 to go on, -1 to end
     * the run (the engine has counted its rest already, or failed; it
     * explains in vm->error).  NULL: MERGE does nothing. */
    int (*at_merge)(void *ud, struct Vm *vm, int depth, const Value *sp);
    /* And ints kept as distributions (VAL_DIST), for sums of independent
     * parts: the engine makes one only where may_defer says a DEFER follows
     * (set for `intercept` and a lazy pool's SUM).  at_deferred works out
     * ADD or SUB of a and b, one of them or both VAL_DIST: 0 with *out, or
     * 1 with a and b made plain values for the VM's own arithmetic (-1: an
     * error in vm->error).  at_settle is SETTLE's, on a VAL_DIST *v about to
     * be returned from frame `depth` (`taken`: the caller takes it on): *v
     * chosen, or left as it is (0), or -1. */
    bool may_defer;
    int (*at_deferred)(void *ud, struct Vm *vm, OpCode op, Value *a, Value *b, Value *out);
    int (*at_settle)(void *ud, struct Vm *vm, int depth, bool taken, Value *v);
    bool stop_on_reroll;
    bool rerolled;           /* the last call ended at a reroll (stop_on_reroll) */
    /* Where pools go: NULL, the collector; or an arena its owner resets
     * between calls (simulations), in which case a result that must outlive
     * the next reset goes through vm_keep. */
    Arena *scratch;
    /* Remember the last result of each `memo` proto (see chunk_mark_pure)
     * and answer a call with the same arguments from it: set by owners that
     * run one procedure many times (simulation, the exact engine), with the
     * same `choices` throughout (a choice's option counts as fixed).
     * Ignored while a trace is attached, so explanations see every call. */
    bool memo;
    MemoSet *memo_tab;       /* per proto */
    /* The calls active around this machine's top-level one, when it works
     * out a claim or a rerolling procedure for another machine: they count
     * towards limits.max_depth, so recursion through prob() stops there. */
    int base_depth;
    int nesting;             /* machines this one is nested in (each a C call deeper) */
    /* prob() claims already worked out, shared with the machines nested in
     * this one (see exact_claim); NULL until the first */
    Claims *claims;
    int memo_n;              /* protos memo_tab has room for */
    bool memo_dirty;         /* a call failed with remembered calls under way */
    /* what each bag has left in this run (BagDesc.base), filled at its start */
    int64_t *bag_left;
    /* what a run starts with in its bags (as bag_left), or NULL: every bag
     * full.  Set by the exact engine on the machine that works out a call of
     * a procedure that draws on its own, from what its caller's run had left;
     * with bag_pair, its results are recorded with what the bags have left
     * after them (for a caller that may draw after the call). */
    const int64_t *bag_start;
    bool bag_pair;
    Value *stack;
    int stack_size;
    Frame *frames;
    int frames_cap;
    uint64_t steps;          /* instructions executed by the last call */
    uint64_t runs_done;      /* vm_call_many: results so far */
    uint64_t runs_unknown;   /* vm_call_many: runs that reached a '?' (with skip_unknown) */
    /* the error of the last failed call */
    char error[320];
    const Proto *error_proto;
    uint32_t error_offset;
    int error_depth;         /* frames[0..error_depth) are the callers, each with its ip at the call */
    bool error_unknown;      /* the error is a value the rules text does not give ('?'), needed:
                              * error_offset is where the '?' is written */
    bool error_needed;       /* ... by the instruction at error_needed_offset (of error_proto) */
    uint32_t error_needed_offset;
    bool skip_unknown;       /* vm_call_many: a run that needs such a value is counted and the next begun */
    bool quiet_unknown;      /* such a value is only counted (simulation, exact engine): its error
                              * names the place but not the keys, which are costly to print */
} Vm;

void vm_init(Vm *vm, const Program *prog, DiceSource *dice);
/* The message of unknown u (a value the rules text does not give, see
 * value.h): "table 'move' gives no value for line, woods: the rules text
 * does not say (marked '?')", and where its '?' is written (a position as
 * in Proto.offsets). */
void vm_unknown_text(const Program *prog, Value u, char *buf, size_t len);
static inline uint32_t vm_unknown_offset(const Program *prog, Value u)
{
    return prog->unknowns[u.enum_id].offset;
}
/* Set vm's error as a run that stopped on unknown u in proto `in`: for an
 * owner whose result (or the part of it asked about) is u. */
void vm_unknown_error(Vm *vm, Value u, const Proto *in);
/* A value made safe to keep after the scratch arena is reset: pools, also
 * inside records, copied to the collector. */
Value vm_keep(Value v);
/* Call protos[index] with nargs arguments; 0 on success with *result set,
 * -1 on a runtime error (see vm->error, error_proto, error_offset).  The
 * result may be, or hold, an unknown: what is asked about is the owner's
 * to decide (a run that needs an unknown's value stops with
 * error_unknown). */
int vm_call(Vm *vm, int index, const Value *args, int nargs, Value *result);
/* Call protos[index], a procedure of no parameters, up to n times, its
 * results to results[0..): one entry into the interpreter for a block of
 * simulated trials.  The scratch arena (if any) is reset between runs,
 * except once a result is a pool or a record, which lives there: the runs
 * after it then allocate above it, and it stops early when they have
 * filled half the arena, for the owner to count the results and reset it.
 * With skip_unknown set, a run that needs the value of a '?' is counted in
 * *unknown and the next one started; otherwise it is an error (a result
 * that is an unknown is a result, for the owner).  Returns 0
 * with *done results and *unknown such runs, or -1 on a runtime error in the
 * run after those (the Vm's error fields describe it). */
int vm_call_many(Vm *vm, int index, uint64_t n, Value *results, uint64_t *done, uint64_t *unknown);

#endif
