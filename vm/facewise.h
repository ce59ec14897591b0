/* facewise.h — questions about a pool of dice, answered face by face.
 *
 * The exact engine (exact.c) asks what a pool's dice add up to, what its
 * highest three add up to, whether two dice match, without running the
 * procedure once per multiset of the pool (60d6 has 8,259,888).  The pool
 * is given as slots 1..S and what each shows (a value map, nondecreasing:
 * a dN is slots 1..N showing 1..N, the map left out; a die of its own faces
 * has a slot per face, equal values on several slots; a mixed pool the
 * slots of all its kinds of dice, in the order of their values), and as
 * classes: sets of slots, each with the number of its dice (every die of a
 * class equally likely to show any slot of it, the classes independent:
 * how exact.c keeps a pool it has only partly looked at).
 *
 * Several questions may be asked of one pool at once; the answer is their
 * joint distribution: every combination of answers with its weight, the
 * number of ways (ordered sequences of slots) the dice give it.  Answers
 * are of values (a sum adds them, the highest is a value, doubles are two
 * dice of one value, on one slot or two), except FW_FACES, which counts the
 * dice on each slot.  exact.c conditions on the answers it has already
 * chosen by taking the entries that begin with them (fw_range).
 *
 * How: the slots are visited in order, and at each the number of dice that
 * show it is chosen (C(r, j) ways for j of the r dice of its class not yet
 * placed); each question keeps a small state (a running sum, a count, how
 * many dice kept so far, and for doubles, when values repeat, whether a die
 * of the value being visited was seen), and equal states are merged, so the
 * work grows with the number of dice and the sizes of the states, never
 * with the number of multisets.  The order is that of the values (from the
 * top when the first question that keeps dice keeps the highest) when a
 * question keeps dice or asks the highest, the lowest or doubles; else the
 * slots are visited class by class, so that only one class at a time has
 * dice left to place.  A state whose every answer is settled (the highest
 * three are found) stops placing dice: the rest are counted in one power.
 * A lone sum is worked out faster still, as a power of each class's
 * polynomial (its values as exponents, shifted to start at 0), by the
 * recurrence for the powers of a power series, unless a class's values span
 * more than a few thousand.  The design follows the published approach of
 * the Icepool dice library (outcome by outcome, with merged evaluator
 * states).
 */
#ifndef MUSTER_VM_FACEWISE_H
#define MUSTER_VM_FACEWISE_H

#include <gmp.h>
#include <stdbool.h>
#include <stdint.h>

#define FW_MAX_SIDES 64
#define FW_MAX_QUESTIONS 32  /* about one pool, asked together */
#define FW_MAX_QUESTIONS_TEXT "32"
#define FW_NONE INT64_MIN    /* the highest (lowest) value of no dice */

typedef enum FwKind {
    FW_SUM,                  /* the values added up */
    FW_COUNT,                /* how many dice */
    FW_ANY,                  /* 1 if there is a die, else 0 */
    FW_MAX,                  /* the highest value, FW_NONE if no die */
    FW_MIN,                  /* the lowest value, FW_NONE if no die */
    FW_DOUBLES,              /* 1 if two dice show the same value */
    FW_FACES,                /* the dice themselves: how many show each slot of `pre`, lowest first */
} FwKind;

/* The dice a question is about: those on a slot in `pre`; when keep is
 * not 0, only the keep_n highest (keep 1) or lowest (keep -1) of them (of
 * equal values, those on the higher slots count as higher); and of those,
 * the ones on a slot in `post` (every slot when keep is 0).  Bit s-1 of a
 * set stands for slot s. */
typedef struct FwQuestion {
    int32_t kind;            /* FwKind */
    int32_t keep;
    int64_t keep_n;
    uint64_t pre, post;
} FwQuestion;

typedef struct FwClass {
    uint64_t faces;          /* its slots */
    int64_t count;
} FwClass;

typedef struct FwEntry {
    int64_t *vals;           /* the answers, question by question (FW_FACES takes one per face of pre) */
    mpz_t w;                 /* > 0 */
} FwEntry;

typedef struct FwJoint {
    int nq;
    int width;               /* of an entry's vals */
    int *offset;             /* question i's answer is at vals + offset[i] */
    FwEntry *e;
    int64_t n;               /* sorted by vals */
} FwJoint;

typedef enum FwStatus {
    FW_OK,
    FW_TOO_BIG,              /* more work than limits.max_work */
    FW_STOPPED,              /* the tick said stop */
} FwStatus;

typedef struct FwLimits {
    uint64_t max_work;       /* steps allowed: one for each state and number of dice tried */
    uint64_t work;           /* steps taken, added to by each call */
    bool (*tick)(void *ud);  /* called every few thousand steps (NULL: never): false stops the work */
    void *ud;
} FwLimits;

/* How many values a question's answer takes in an entry. */
int fw_width(const FwQuestion *q);

/* The entries of j whose first values are prefix[0..width): [*lo, *hi). */
void fw_range(const FwJoint *j, const int64_t *prefix, int width, int64_t *lo, int64_t *hi);

/* A cache of joint distributions, by pool and questions, for one count. */
typedef struct FwCache FwCache;

FwCache *fw_cache_new(void);
void fw_cache_free(FwCache *c);

/* The joint distribution of questions q[0..nq) about the pool of dice
 * given by its classes, whose slots 1..sides (at most FW_MAX_SIDES) show
 * value[0..sides) (value[f-1] for slot f, nondecreasing; NULL: slot f
 * shows f); from the cache when it was worked out before.  With `cap`, the
 * pool is items drawn from a bag instead (one class of all the slots, its
 * count the items drawn): cap[f-1] items show slot f, and the weights are
 * the sets of items that give each answer (fw_joint_of_draw). */
FwStatus fw_cache_joint(FwCache *c, int32_t sides, const int32_t *value, const int64_t *cap, const FwClass *cls,
                        int ncls, const FwQuestion *q, int nq, FwLimits *lim, const FwJoint **out);

/* The total of n plain dice of `sides` faces (any number of them), as a
 * joint of one question: each total from n to n * sides with its orders,
 * out of sides^n; from the cache when it was worked out before. */
FwStatus fw_cache_sum_of_dice(FwCache *c, int64_t n, int64_t sides, FwLimits *lim, const FwJoint **out);
FwStatus fw_sum_of_dice(int64_t n, int64_t sides, FwLimits *lim, FwJoint **out);

/* A kind of dice for fw_sum_of_runs: `count` dice, each showing any value
 * of the runs lo[i]..hi[i] (ascending, apart), each value one way. */
typedef struct FwRuns {
    int64_t count;
    int nrun;
    const int64_t *lo, *hi;
} FwRuns;

/* The total of the dice of kinds[0..nk) (as fw_cache_sum_of_dice: each
 * total with its orders, out of the product of each kind's number of
 * values to the power of its count); from the cache when it was worked out
 * before. */
FwStatus fw_cache_sum_of_runs(FwCache *c, const FwRuns *kinds, int nk, FwLimits *lim, const FwJoint **out);
FwStatus fw_sum_of_runs(const FwRuns *kinds, int nk, FwLimits *lim, FwJoint **out);

/* The total of n items drawn, not put back, from a bag with left[k] items
 * of kind k (kinds <= 64) showing value[k]: each total with the number of
 * draws (sets of n items) that give it, out of C(sum of left, n). */
FwStatus fw_cache_sum_of_draw(FwCache *c, int32_t kinds, const int32_t *value, const int64_t *left, int64_t n,
                              FwLimits *lim, const FwJoint **out);
FwStatus fw_sum_of_draw(int32_t kinds, const int32_t *value, const int64_t *left, int64_t n, FwLimits *lim,
                        FwJoint **out);

/* The questions about n items drawn, not put back, from a bag whose
 * slots 1..sides show value[] (nondecreasing) with cap[f-1] items on slot
 * f: each combination of answers with the number of sets of n items that
 * give it, out of C(sum of cap, n).  Not kept. */
FwStatus fw_joint_of_draw(int32_t sides, const int32_t *value, const int64_t *cap, int64_t n, const FwQuestion *q,
                          int nq, FwLimits *lim, FwJoint **out);

/* The same, worked out every time, not kept (for tests). */
FwStatus fw_joint(int32_t sides, const int32_t *value, const FwClass *cls, int ncls, const FwQuestion *q, int nq,
                  FwLimits *lim, FwJoint **out);
void fw_joint_free(FwJoint *j);

#endif
