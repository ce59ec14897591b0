/* engine.h — the exact engine's own parts, shared by its modules (not for
 * the rest of muster, which sees exact.h).
 *
 * exact.c runs the count (a run per path, the tick, the states merged, the
 * driver's entry points); decide.c keeps the path's decisions, their
 * weights and the next choice, and is the dice source that chooses instead
 * of drawing; lazy.c keeps pools lazily (classes split as far as asked,
 * questions answered face by face, big dice); calls.c works out calls of
 * rerolling and recursive procedures on their own (fixed points, pending
 * results of tail calls); claims.c counts prob() claims.
 */
#ifndef MUSTER_VM_ENGINE_H
#define MUSTER_VM_ENGINE_H

#include "vm/exact.h"
#include "base/mem.h"
#include "vm/facewise.h"
#include "vm/merge.h"
#include "vm/pool.h"
#include "vm/tally.h"

#include <gmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* A worked-out distribution of a rerolling or recursive procedure, for its
 * callers.  For a procedure that draws, `bags` is what the bags had left
 * when it was called (Vm.bag_left), and when anything may draw after it
 * returns (Proto.drawn_after), each outcome's value is a pair (bags_pair):
 * the result, and what the bags have left after it. */
typedef struct Dist {
    int proto;
    Value *args;
    int nargs;
    const int64_t *bags;
    bool paired;             /* its outcomes are pairs (bags_pair): something may draw after the call */
    ExactResult r;
    /* Worked out from the odds of a call still being worked out (a Working
     * below it): valid only while that one is in the same round (dep_gen);
     * NULL: final.  With `pending`, some outcomes stand for the result of
     * such a call (pending_value), and it is taken only where that result
     * would be returned as it is (a tail call). */
    const struct Working *dep;
    uint64_t dep_gen;
    bool pending;
    struct Dist *next;       /* the next in its bucket of Shared.memo */
    /* as an int not chosen yet (defer.c), once asked for; `undeferred`:
     * it cannot be one */
    const struct Deferred *deferred;
    bool undeferred;
} Dist;

/* An int the engine has not chosen yet (VAL_DIST, see OP_DEFER): the
 * distribution of a part of a sum that nothing but additions and the
 * return read.  Its outcomes' weights share one denominator, so a sum of
 * two parts is a convolution of one multiply-add per pair (defer.c).  Made
 * once for each distribution (defer.c remembers them, with what they were
 * made of, so they go when it goes): the same object is the same value. */
typedef struct Deferred {
    int64_t n;
    int64_t *value;          /* ascending */
    mpz_t *w;                /* > 0, out of den */
    mpz_t den;
    mpz_t mass;              /* the sum of w */
    mpz_t not_given, dropped;    /* the shares that end the run first, out of den (as DEC_DIST's) */
    const Dist *as_dist;     /* as a Dist, once it had to be chosen (defer.c's choose) */
    struct DeferUse *uses;   /* what was made of it (defer.c): it and what goes with it */
} Deferred;

typedef enum { DEC_POOL, DEC_DIST, DEC_SPLIT, DEC_VALUE, DEC_DRAW } DecKind;

/* One choice on the current path, and the probability of the path up to it. */
typedef struct Decision {
    DecKind kind;
    int64_t n;               /* DEC_POOL: n dice of `sides`; DEC_SPLIT: the n dice of a class;
                                DEC_VALUE: the end of the entries that agree with the answers before */
    int32_t sides;           /* DEC_POOL: faces; DEC_SPLIT: the class's faces in its first part (a) ... */
    int32_t other;           /* ... DEC_SPLIT: and in the rest (b) */
    int32_t *face;           /* DEC_POOL: the multiset, as its n faces in ascending order */
    bool given_sum;          /* DEC_POOL, DEC_DRAW: only the multisets (combinations) whose values add up
                                to want_sum, out of the orders (draws) that do (own_den, set once) */
    int64_t want_sum;
    const Dist *dist;        /* DEC_DIST: the callee's outcomes, then not-given and dropped */
    const FwJoint *joint;    /* DEC_VALUE: the answers to the questions asked of a roll */
    int64_t index;           /* DEC_DIST: the option; DEC_SPLIT: the dice in the first part;
                                DEC_VALUE: the entry of the joint */
    const int32_t *values;   /* DEC_DRAW with given_sum: each kind's value */
    int32_t kinds;           /* DEC_DRAW: n items from a bag of this many kinds, left[k] of kind k, */
    int64_t *left, *taken;   /* taken[k] of them drawn (a combination, not an order) */
    mpz_t own_num, own_den;  /* the probability of this choice */
    mpz_t num, den;          /* the path's up to and including it (not in lowest terms) */
} Decision;

/* ---- lazy pools ----
 *
 * A pool of up to 64 slots is not settled when it is rolled.  A Roll's
 * slots are the faces its dice can show, numbered 1..S in the order of the
 * values they show (value[s-1], nondecreasing, equal values allowed; NULL
 * for a plain dN, whose slot s shows s: that path is the same as ever).  A
 * dN is slots 1..N; a die of its own faces (Die) is a slot per face, its
 * values from the die; a mixed pool (OP_JOIN of fresh rolls, lazy_join) is
 * the slots of its parts merged in the order of their values, the dice of
 * each kind one class over that kind's slots ([d20, d20, d20]: one kind, 20
 * slots).  Its dice are kept as a partition of the slots into classes, with
 * the number of dice in each class (a Roll: at first a class per kind of
 * die, all its dice), every die of a class equally likely to show each of
 * its slots; and the pools the procedure holds are Views of it: the dice of
 * the roll whose slot is in a set (a filter narrows the set, with no
 * decision: faces_where gives the slots whose values pass, all the slots of
 * a value or none).  A question refines the partition just enough to answer
 * it: counting the dice of a set S splits each class that S cuts into its
 * part in S (a slots) and the rest (b slots), one DEC_SPLIT decision over
 * the j = 0..k dice of the class that land in its first part, with
 * probability C(k,j) a^j b^(k-j) / (a+b)^k.  A class with no dice splits
 * with no decision.  (A count that cuts several classes of a mixed pool is
 * asked face by face instead, below: one decision, not one per kind.)
 * Whether any die is in S is often known with no split at all, and
 * otherwise the classes S cuts are split one at a time until one has a die
 * in S (any_in); all() is any() of the dice that fail, highest and lowest
 * ask any() value by value (the slots of a value together).  The
 * refinement belongs to the roll, so every View of it sees it.  What needs
 * the dice themselves (a pool leaving the run, or compared) splits the
 * View's classes into single slots, one DEC_POOL decision per class among
 * its multisets, and then has an ordinary sorted pool of the slots' values
 * (Pool.sides as pool_die_values sets it).
 *
 * Rolls and Views are remade by every run (the decisions replay the same
 * refinements, and a join makes none); they live in slabs the engine keeps
 * from run to run, so a run allocates nothing but its pools.
 */
#define LAZY_MAX_SIDES 64

/* A class: its slots (bit s-1: slot s) and the dice showing one of them;
 * the same record facewise.c takes. */
typedef FwClass Class;

/* Different questions answered about one roll, at most (each a number in
 * the state of the next question's work); a question asked again is
 * answered from the first */
#define ASKED_MAX FW_MAX_QUESTIONS

typedef struct Roll {
    int32_t sides;           /* its slots: 1..sides */
    const int32_t *value;    /* value[s-1]: what slot s shows, nondecreasing; NULL: s itself (a plain dN) */
    int32_t pool_sides;      /* Pool.sides of a pool of its values */
    bool fresh;              /* nothing split, settled or asked since it was rolled (or joined) */
    int kinds;               /* kinds of dice: 1, or those of a mixed pool (its classes when fresh) */
    uint16_t symbols;        /* Pool.symbols of its pools (0: numbers) */
    int32_t map[LAZY_MAX_SIDES];  /* value's own storage */
    int ncls;
    Class cls[LAZY_MAX_SIDES];
    int nasked;              /* questions answered face by face (DEC_VALUE): once there is
                                one, the classes are not split any more */
    FwQuestion asked[ASKED_MAX];
    const int64_t *answers;  /* their answers, in order */
    /* plain dice of more than LAZY_MAX_SIDES sides (bigdice.c): big_n of
     * them; their faces cut into nseg segments (segment s is faces seg_lo[s]
     * to seg_hi[s], cut from segment seg_from[s]), the classes' slots;
     * their dice, when asked, settled once for all their views */
    bool big;
    int64_t big_n;
    int nseg;
    int32_t seg_lo[LAZY_MAX_SIDES], seg_hi[LAZY_MAX_SIDES];
    int8_t seg_from[LAZY_MAX_SIDES];
    const Pool *settled;
    /* a sum of its dice asked (of them all, or once a question split its
     * classes), or doubles() when settling them would need more than the
     * budget: late_op of the segments late_of, made when there were
     * late_cuts of them, answered late_value.  Asked again, the same
     * answer; after a sum, splits and settling are given it; after
     * doubles() nothing else of its dice is counted */
    bool late;
    int32_t late_op;
    uint64_t late_of;
    int late_cuts;
    int64_t late_value;
    /* items drawn from a bag (bags.c), not dice: slot s is kind s-1 of the
     * bag (whose kinds are in the order of their values), with cap[s-1] of
     * it left when they were drawn, one class of all the slots; its
     * questions are asked face by face as sets of items (fw_cache_joint's
     * cap), never by splitting; NULL for dice */
    const int64_t *cap;
    int64_t capv[LAZY_MAX_SIDES];
    struct Draw *draw;
} Roll;

typedef struct View {
    LazyPool base;           /* first: Pool.lazy points here */
    Roll *roll;              /* (NULL for a draw) */
    struct Draw *draw;       /* items drawn from a bag (bags.c), else NULL */
    uint64_t faces;          /* the dice of the roll on these slots; */
    int32_t keep;            /* 0, or of them only the keep_n highest (1) or lowest (-1), */
    int64_t keep_n;
    uint64_t post;           /* and of those kept, the ones on these slots (all when keep is 0) */
    int cuts;                /* big dice: the segments there were when `faces` was made (bigdice.c) */
    const Pool *plain;       /* once worked out: the dice's values, as a plain pool */
} View;

/* Fixed-size items in chunks that never move (Pools point at Views). */
typedef struct Slab {
    size_t size;             /* of an item */
    bool atomic;             /* the items hold no pointers */
    char **chunk;
    int nchunks;
    int used;                /* items handed out this run */
} Slab;

#define SLAB_CHUNK 32

/* Work done face by face counts towards the budget at this many steps a run. */
#define FW_STEPS_PER_RUN 32

/* An item of s, new (or used before, by an earlier run: set every field). */
static inline void *slab_take(Slab *s)
{
    int c = s->used / SLAB_CHUNK;
    if (c == s->nchunks) {
        char **chunk = mem_alloc(sizeof(char *) * (size_t)(c + 1));
        if (c)
            memcpy(chunk, s->chunk, sizeof(char *) * (size_t)c);
        chunk[c] = s->atomic ? mem_alloc_atomic(s->size * SLAB_CHUNK) : mem_alloc(s->size * SLAB_CHUNK);
        s->chunk = chunk;
        s->nchunks = c + 1;
    }
    return s->chunk[c] + s->size * (size_t)(s->used++ % SLAB_CHUNK);
}

/* Item i of s (i < s->used). */
static inline void *slab_at(const Slab *s, int i)
{
    return s->chunk[i / SLAB_CHUNK] + s->size * (size_t)(i % SLAB_CHUNK);
}

/* Items drawn from a bag and not put back, kept lazily (bags.c): their sum
 * is one choice among its totals, and which items they are is chosen only
 * when something needs them, and then the bag gives them up. */
typedef struct Draw {
    int64_t *bag;            /* the bag's counts in the machine (Vm.bag_left), taken down when settled */
    int32_t kinds;
    const int32_t *value;    /* each kind's value */
    int32_t sides, symbols;  /* of the pool they make */
    int64_t n;
    int64_t left[DIE_MAX_FACES];  /* what the bag had left when they were drawn */
    bool sum_known, settled;
    int64_t sum;
    const mpz_t *sum_ways;   /* the draws that give that sum */
    struct View *view;       /* the pool drawn */
    Roll *roll;              /* the same items as a roll of slots, for questions face by face; NULL past
                                LAZY_MAX_SIDES kinds */
    int64_t taken[DIE_MAX_FACES];  /* once settled: how many of each kind */
} Draw;

/* A claim worked out, for the arguments and choices it was worked out under. */
typedef struct ClaimMemo {
    int proto;
    int *choices;            /* a copy; NULL: every default */
    Value *args;             /* its arguments, kept (vm_keep): the caller's names it uses */
    int nargs;
    Value odds;
    struct ClaimMemo *next;
} ClaimMemo;

struct Claims {
    ClaimMemo *first;
};

/* A distribution being worked out, for the calls of it inside itself: a
 * recursive procedure with the same arguments (a duel that goes on, shots
 * until the target is destroyed) is answered from its odds so far. */
typedef struct Working {
    int proto;
    const Value *args;
    int nargs;
    const int64_t *bags;     /* (as Dist.bags) */
    const Dist *approx;      /* its odds so far: the recursion cut where the last round stopped */
    bool used;               /* asked for inside itself this round, not as a tail call */
    int id;                  /* its pending_value */
    int level;               /* 1 + the Workings below it */
    bool alive;              /* still being worked out */
    uint64_t gen;            /* its round, unique in the count (Dist.dep_gen) */
    const struct Working *dep;   /* the innermost Working below it whose odds its own rest on */
    struct Working *below;
} Working;

typedef struct Shared {
    const ExactOptions *opts;
    Working *working;        /* the distributions being worked out, innermost first */
    uint64_t runs;
    FwCache *fw;             /* answers worked out face by face */
    uint64_t next_tick;      /* runs at which the tick is called next */
    double done;             /* the outermost count's share of the probability run so far */
    int active;              /* counts under way on this Shared (1: the outermost) */
    bool stopped;            /* the tick said stop */
    const struct Shared *outer;  /* a claim's count: the count it is part of, whose progress the
                                    tick reports (its runs with the claim's, its share); else NULL */
    double needed;           /* the pool that did not fit the budget: its multisets */
    const Proto *needed_proto;   /* where it is rolled (ExactResult.needed_proto) */
    uint32_t needed_offset;
    const char *beyond;      /* a limit no budget lifts, met (ExactResult.beyond) */
    struct DeferMemo *defer; /* the Deferreds made, by what they were made of (defer.c) */
    /* the distributions worked out, by procedure, arguments and bags (a
     * hash table of chains; memo_cap a power of two, or 0) */
    Dist **memo;
    size_t memo_cap, memo_n;
    MergeLive *live;         /* the locals each procedure reads later (merge.h) */
    uint64_t merged;         /* runs ended at a state counted already */
    /* the next distribution's: the Working it works out (else NULL), and
     * whether it answers every call of a Working with its odds so far (no
     * pending results); the last one's innermost Working it rests on */
    Working *next_owner;
    bool next_approx;
    const Working *last_dep;
    int next_id;
    uint64_t next_gen;
} Shared;

/* Where a run that the engine ended goes (the VM sees an error). */
typedef enum PathEnd {
    PATH_OPEN,               /* the engine did not end it: its result or its error says */
    PATH_CUT,                /* past the depth limit, or a nested distribution's cut-off share
                                chosen: the dropped share */
    PATH_NOT_GIVEN,          /* a nested distribution's not-given share chosen */
    PATH_MERGED,             /* it reached a state whose runs are counted already (merge.h): `hit` */
} PathEnd;

typedef struct Engine {
    DiceSource base;         /* first: the VM sees an Engine as its dice source */
    Vm *vm;
    Shared *shared;
    Decision *path;
    int len, cap;
    int depth;               /* decisions consumed by this run */
    int rolls;               /* rolls made by this run (splits are not rolls): the depth limit */
    PathEnd end;             /* this run, when the engine ended it */
    /* EXACT_DONE while the count may go on; else the run found that it
     * cannot: EXACT_OVER_BUDGET (a pool with more multisets than the budget
     * has runs left, a nested distribution or a claim over budget), or
     * EXACT_FAILED (pool_plain could not work out a pool's faces;
     * vm->error says why) */
    ExactStatus halt;
    Slab rolls_slab, views;  /* this run's lazy pools */
    Slab draws;              /* this run's lazy draws (bags.c) */
    /* runs that meet in a state are counted once (merge.h): only while
     * the run is inside the call asked about (not its defaults, whose
     * values the driver holds outside the machine) */
    Merger *merger;
    bool merging;
    int hit;                 /* PATH_MERGED: the state reached (merger_at) */
    Tally *top;              /* the count's own tally */
    int64_t *extra;          /* the engine's part of a state */
    int extra_cap;
    /* the Working this count works out (its tail calls of Workings are
     * answered with pending results), or NULL; with `approx`, none is */
    Working *owner;
    bool approx;
    const Working *dep;      /* the innermost Working other than the owner its odds rest on */
    /* the Deferreds this run holds, in the order they were made (earlier
     * parts first): a run that ends before it chooses them ends in their
     * not-given and dropped shares first, as it would have had they been
     * chosen where they were made */
    const Deferred **held;
    int nheld, held_cap;
} Engine;

/* exact.c — the count itself: runs, the tick, states merged */
bool exact_tick_now(Shared *s);
bool exact_tick(Shared *s);
ExactStatus exact_count(Vm *vm, Shared *shared, int index, const Value *args, int nargs, ExactRun run,
                        void *run_ud, ExactResult *out);

/* decide.c — the decisions of a path: their weights, the next choice, pools and draws chosen */
void decide_weigh_own(Decision *d);
void decide_weigh_path(Engine *e, int k, bool den);
void decide_weigh(Engine *e, int k);
Decision *decide_push(Engine *e);
bool decide_dist_option_empty(const Decision *d);
bool decide_advance(Engine *e);
int decide_rolled_differently(char *err, size_t errlen);
int decide_count_roll(Engine *e, char *err, size_t errlen);
double decide_multisets(int64_t n, int64_t sides);
int decide_pool(Engine *e, int64_t n, int32_t sides, const int64_t *sum, mpz_srcptr ways, Decision **out,
                char *err, size_t errlen);
int decide_roll(DiceSource *self, int64_t n, int32_t sides, const Die *die, int32_t *out, char *err,
                size_t errlen);
int decide_draw_given(Engine *e, int64_t n, int32_t kinds, const int64_t *left, const int32_t *values,
                      const int64_t *sum, mpz_srcptr ways, int64_t *taken, char *err, size_t errlen);
int decide_draw(DiceSource *self, int64_t n, const Die *kinds, const int64_t *left, int64_t total,
                int64_t *taken, int32_t *order, char *err, size_t errlen);

/* lazy.c — lazy pools: rolls kept as classes, split only as far as the procedure asks */
int lazy_settle_value(Engine *e, Value *v);
extern const PoolMethods lazy_pool_methods;
bool lazy_fw_tick(void *ud);   /* FwLimits.tick: the count's tick */
/* Work face by face within what the budget has left: its limits, and then
 * its work charged (0; or -1, over budget or stopped, the count halted). */
FwLimits lazy_fw_limits(Engine *e);
int lazy_fw_done(Engine *e, FwStatus st, const FwLimits *lim, char *err, size_t errlen);
int lazy_plain_apply(Engine *e, View *v, OpCode op, CmpOp cmp, Value x, Value *out, char *err, size_t errlen);
/* A pool instruction on a View of a roll (a draw's too), as lazy pools answer it. */
int lazy_roll_apply(Engine *e, View *v, OpCode op, CmpOp cmp, Value x, Value *out, char *err, size_t errlen);
/* How many of r's dice (items) show each slot, asked face by face given
 * everything asked of r before: count[0..sides). */
int lazy_ask_faces(Engine *e, Roll *r, int64_t *count, char *err, size_t errlen);
/* the dice of r on slots S: how many (splitting the classes S cuts), and
 * whether there are any (splitting them one at a time); a view of them */
int lazy_count_in(Engine *e, Roll *r, uint64_t S, int64_t *n, char *err, size_t errlen);
int lazy_any_in(Engine *e, Roll *r, uint64_t S, bool *yes, char *err, size_t errlen);
const Pool *lazy_view_of(Engine *e, Roll *r, uint64_t faces);

/* bigdice.c: dice of more than LAZY_MAX_SIDES faces, n of them rolled as r
 * (big_init); the faces on segments m; their dice settled into v->plain;
 * what is asked of them */
void big_init(Roll *r, int64_t n);
int64_t big_size(const Roll *r, uint64_t m);
/* Split class i of a big roll r given its late sum, by S: 1 if the class
 * is not in the sum (split it as any). */
int big_split_given(Engine *e, Roll *r, int i, uint64_t S, char *err, size_t errlen);
int big_settle(Engine *e, View *v, char *err, size_t errlen);
int big_apply(Engine *e, View *v, OpCode op, CmpOp cmp, Value x, Value *out, char *err, size_t errlen);
/* v is the whole of its big roll r, fresh; one big roll of the plain dice
 * of fresh rolls a and b when one of them has more than 64 faces (else
 * *out NULL) */
bool big_whole(const Roll *r, const View *v);
int big_join(Engine *e, const Roll *ra, const Roll *rb, const Pool **out, char *err, size_t errlen);

/* bags.c — draws kept lazily */
int bags_draw(DiceSource *self, int64_t n, const Die *kinds, int32_t sides, int32_t symbols, int64_t *left,
              const Pool **out, char *err, size_t errlen);
int bags_settle(DiceSource *self, char *err, size_t errlen);
/* The draws not settled yet, as part of a state (merge.h): the numbers
 * written to out (NULL: only counted), four a draw. */
int bags_state(const Engine *e, const Vm *vm, int64_t *out);
int bags_apply(Engine *e, View *v, OpCode op, CmpOp cmp, Value x, Value *out, char *err, size_t errlen);
int bags_settle_view(Engine *e, View *v, char *err, size_t errlen);

/* decide.c too: one choice among a Dist's options (its outcomes, then
 * not given and dropped): the option's index in *option, or -1 (the
 * path rolled differently). */
int decide_dist(Engine *e, const Dist *dist, int64_t *option);

/* decide.c too: one choice among the totals of a sum worked out at once
 * (a joint of one question): `totals` gives the joint and the orders out
 * of which its weights are (asked only for a new decision); *out is the
 * entry chosen. */
int decide_total(Engine *e, int (*totals)(Engine *, void *, const FwJoint **, mpz_ptr, char *, size_t), void *ud,
                 const FwEntry **out, char *err, size_t errlen);

/* defer.c — parts of a sum kept as distributions, convolved */
/* dist (a call's) as an int not chosen yet, in *out: false when it cannot
 * be one (an outcome not an int). */
bool defer_dist(Engine *e, const Dist *dist, Value *out);
/* The sum of a lazy pool, as its joint says (one question: the sum). */
void defer_joint(Engine *e, const FwJoint *joint, Value *out);
int defer_arith(void *ud, Vm *vm, OpCode op, Value *a, Value *b, Value *out);   /* Vm.at_deferred */
int defer_settle(void *ud, Vm *vm, int depth, bool taken, Value *v);           /* Vm.at_settle */
/* A run is over with the result d: its weight num/den (given its state)
 * to d's outcomes and shares in t. */
void defer_tally(Engine *e, const Deferred *d, Tally *t, mpz_srcptr num, mpz_srcptr den);
/* A run ends early (not given, cut off) holding Deferreds: their own
 * shares of num/den go to t first, and num/den become what is left. */
void defer_held_first(Engine *e, Tally *t, mpz_ptr num, mpz_ptr den);

/* calls.c — calls worked out on their own: rerolling and recursive procedures, pending results */
bool calls_too_deep(Vm *vm, const char *name, char *err, size_t errlen);
Vm *calls_nested_vm(Vm *vm, int depth);
bool calls_same_args(const Value *a, const Value *b, int n);
Value calls_bags_pair(const Vm *vm, Value result);
int calls_answer(Engine *e, int index, const Value *call_args, int depth, bool whole_error, Value *result);
int calls_intercept(void *ud, const Proto *callee, int index, const Value *args, int depth, Value *result);

#endif
