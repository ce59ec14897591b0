/* facewise.h — questions about a pool of dice, answered face by face.
 *
 * The exact engine (exact.c) asks what a pool's dice add up to, what its
 * highest three add up to, whether two dice match, without running the
 * procedure once per multiset of the pool (60d6 has 8,259,888).  The pool
 * is given as classes: sets of faces, each with the number of its dice
 * (every die of a class equally likely to show any face of it, the classes
 * independent: how exact.c keeps a pool it has only partly looked at).
 *
 * Several questions may be asked of one pool at once; the answer is their
 * joint distribution: every combination of answers with its weight, the
 * number of ways (ordered sequences of faces) the dice give it.  exact.c
 * conditions on the answers it has already chosen by taking the entries
 * that begin with them (fw_range).
 *
 * How: the faces are visited in order, and at each the number of dice that
 * show it is chosen (C(r, j) ways for j of the r dice of its class not yet
 * placed); each question keeps a small state (a running sum, a count, how
 * many dice kept so far), and equal states are merged, so the work grows
 * with the number of dice and the sizes of the states, never with the
 * number of multisets.  A state whose every answer is settled (the highest
 * three are found) stops placing dice: the rest are counted in one power.
 * A lone sum is worked out faster still, as a power of each class's
 * polynomial (its faces as exponents), by the recurrence for the powers of
 * a power series.  The design follows the published approach of the
 * Icepool dice library (outcome by outcome, with merged evaluator states).
 */
#ifndef MUSTER_VM_FACEWISE_H
#define MUSTER_VM_FACEWISE_H

#include <gmp.h>
#include <stdbool.h>
#include <stdint.h>

#define FW_MAX_SIDES 64
#define FW_NONE INT64_MIN    /* the highest (lowest) face of no dice */

typedef enum FwKind {
    FW_SUM,                  /* the faces added up */
    FW_COUNT,                /* how many dice */
    FW_ANY,                  /* 1 if there is a die, else 0 */
    FW_MAX,                  /* the highest face, FW_NONE if no die */
    FW_MIN,                  /* the lowest face, FW_NONE if no die */
    FW_DOUBLES,              /* 1 if two dice show the same face */
    FW_FACES,                /* the dice themselves: how many show each face of `pre`, lowest first */
} FwKind;

/* The dice a question is about: those with a face in `pre`; when keep is
 * not 0, only the keep_n highest (keep 1) or lowest (keep -1) of them; and
 * of those, the ones with a face in `post` (every face when keep is 0).
 * Bit f-1 of a set stands for face f. */
typedef struct FwQuestion {
    int32_t kind;            /* FwKind */
    int32_t keep;
    int64_t keep_n;
    uint64_t pre, post;
} FwQuestion;

typedef struct FwClass {
    uint64_t faces;
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
 * shows f); from the cache when it was worked out before. */
FwStatus fw_cache_joint(FwCache *c, int32_t sides, const int32_t *value, const FwClass *cls, int ncls,
                        const FwQuestion *q, int nq, FwLimits *lim, const FwJoint **out);

/* The same, worked out every time, not kept (for tests). */
FwStatus fw_joint(int32_t sides, const int32_t *value, const FwClass *cls, int ncls, const FwQuestion *q, int nq,
                  FwLimits *lim, FwJoint **out);
void fw_joint_free(FwJoint *j);

#endif
