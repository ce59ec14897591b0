/* dice.h — where dice come from.
 *
 * Every die comes from a DiceSource, so one compiled procedure can be played
 * with seeded dice, replayed with the dice a player actually threw
 * (scripted), enumerated exactly or sampled in bulk, without changing the
 * bytecode.  (Seeded dice let the VM draw from their generator directly, the
 * same draws `roll` would make: see `rng` below.)
 *
 * A source is asked for a whole pool at once (n dice of `sides` faces).
 * That matters: a pool is a multiset, and a source that enumerates outcomes
 * can branch over multisets instead of ordered sequences.
 */
#ifndef MUSTER_VM_DICE_H
#define MUSTER_VM_DICE_H

#include "vm/opcodes.h"
#include "vm/rng.h"
#include "vm/value.h"

#include <stddef.h>
#include <stdint.h>

typedef struct DiceSource DiceSource;
typedef struct PoolMethods PoolMethods;

/* A die with faces of its own (a `die` declaration): n faces, 1 to
 * DIE_MAX_FACES, showing value[0..n) in ascending order, equal values
 * allowed (the average die is 2, 3, 3, 4, 4, 5).  A symbol die's values are
 * the indexes of its enum's members.  Sources roll such a die as a die of
 * n sides, face k standing for value[k-1] (the VM maps it); a plain dN is
 * passed as NULL.  Values are within +-DIE_MAX_VALUE, as every face is. */
#define DIE_MAX_FACES 64
#define DIE_MAX_VALUE (1 << 20)
typedef struct Die {
    const char *name;        /* for messages: "Average" */
    int32_t n;
    const int32_t *value;
    const char *const *names;    /* a symbol die: its enum's members (value i is names[i]); else NULL */
    int32_t nnames;
} Die;

struct DiceSource {
    /* Fill out[0..n) with faces in 1..sides (any order); for a die of its
     * own faces (die not NULL, sides == die->n) face k is die->value[k-1]
     * (a scripted source takes the values and gives back their faces).
     * Returns 0, or -1 after writing a message to err (errlen bytes). */
    int (*roll)(DiceSource *self, int64_t n, int32_t sides, const Die *die, int32_t *out, char *err,
                size_t errlen);
    /* Draw n items without replacement from a bag whose kinds of item are
     * kinds->value[0..kinds->n) with left[k] of kind k left (total of them,
     * total >= n >= 1): how many of each kind are drawn, in taken[k]; and,
     * when `order` is not NULL, the kinds in the order drawn (n of them).
     * Returns 0, or -1 after writing a message to err. */
    int (*draw)(DiceSource *self, int64_t n, const Die *kinds, const int64_t *left, int64_t total,
                int64_t *taken, int32_t *order, char *err, size_t errlen);
    /* Set only by seeded dice: their generator, which the VM may draw from
     * directly (as roll would, face = rng_below(rng, sides) + 1) to save
     * a call per die.  NULL for every other source. */
    Rng *rng;
    /* NULL for a source whose pools are plain sorted faces (random and
     * scripted dice).  Otherwise the source may hand out lazy pools and
     * answers for them; the VM costs a plain source one test per pool roll
     * and one per pool instruction. */
    const PoolMethods *pools;
};

/* Lazy pools.  A source that enumerates outcomes (the exact engine) need not
 * settle every face of a pool when it is rolled: "how many dice show 4 or
 * more" has n + 1 answers, where the faces of n d6 have C(n+5, 5).  Such a
 * source hands the VM a Pool whose `lazy` points at its own record of the
 * pool, which begins with a LazyPool, and the VM hands every pool
 * instruction on such a pool back to that source.  Filters of a lazy pool
 * are lazy pools of the same dice.  Whatever else needs a lazy pool's faces
 * (comparing records that hold pools, keeping a pool) goes through
 * pool_plain (pool.h), which asks the source for them. */
struct LazyPool {
    DiceSource *source;      /* the source that holds the pool */
};

struct PoolMethods {
    /* A pool of n >= 1 dice of `sides` (or of die, not NULL, which has
     * sides faces), lazy or plain as the source sees fit: a plain pool
     * holds the values, never the faces' numbers. */
    int (*roll)(DiceSource *self, int64_t n, int32_t sides, const Die *die, const Pool **out, char *err,
                size_t errlen);
    /* The value of pool instruction op (OP_FILTER .. OP_DOUBLES, see
     * opcodes.def) on the lazy pool p: FILTER, ANY and ALL compare the dice
     * with x by cmp, HIGHEST_N and LOWEST_N take x as the number of dice
     * (checked to be >= 0); the others ignore cmp and x.  Returns 0 with
     * *out set, or -1 after writing a message to err. */
    int (*apply)(DiceSource *self, OpCode op, const Pool *p, CmpOp cmp, Value x, Value *out, char *err,
                 size_t errlen);
    /* The faces of the lazy pool p, as a plain sorted pool.  It cannot fail:
     * a source that cannot work them out notes that for itself (and ends
     * the run) and hands back an empty pool. */
    const Pool *(*faces)(DiceSource *self, const Pool *p);
    /* One pool of the dice of a and b (OP_JOIN: a mixed pool, each part a
     * fresh roll), at least one of them lazy: 0 with *out the joined pool,
     * or with *out NULL when the source leaves the join to the VM (which
     * joins their faces); -1 after writing a message to err.  NULL: the VM
     * always joins the faces. */
    int (*join)(DiceSource *self, const Pool *a, const Pool *b, const Pool **out, char *err, size_t errlen);
    /* n >= 1 items drawn from a bag (kinds->value[k] showing, as a pool of
     * `sides` and `symbols` as the VM would make it), with left[k] of kind k
     * left, as a lazy pool: the source takes left down itself once it knows
     * what was drawn (NULL: the VM draws through DiceSource.draw). */
    int (*draw)(DiceSource *self, int64_t n, const Die *kinds, int32_t sides, int32_t symbols, int64_t *left,
                const Pool **out, char *err, size_t errlen);
    /* Called before the VM reads what a bag has left: the source settles the
     * draws it left lazy.  0, or -1 after writing a message to err. */
    int (*bags)(DiceSource *self, char *err, size_t errlen);
};

/* Seeded pseudo-random dice. */
typedef struct RngDice {
    DiceSource base;
    Rng rng;
    uint64_t seed;
} RngDice;

void dice_rng_init(RngDice *d, uint64_t seed);

/* n items drawn from a bag by rng, as `draw` says (seeded dice do this,
 * and the VM with their generator). */
void dice_draw_rng(Rng *rng, int64_t n, int32_t kinds, const int64_t *left, int64_t total, int64_t *taken,
                   int32_t *order);

/* Scripted dice: the given faces in order, one per die; a pool takes as
 * many as it has dice.  Running out, or a face that does not fit the die,
 * is an error that says so. */
typedef struct ScriptDice {
    DiceSource base;
    const int64_t *faces;
    const char *const *words;    /* NULL, or per face the symbol given in its place (else NULL) */
    size_t n, next;
} ScriptDice;

void dice_script_init(ScriptDice *d, const int64_t *faces, const char *const *words, size_t n);

/* Parse "6,3,4" (or "hit, blank, -1": a symbol die's faces by name, a
 * numbered one's may be negative) into faces and, where a name stands,
 * words (*words is set to NULL when there is none); returns the count, or
 * -1 with a message. */
long dice_parse_list(const char *text, int64_t **faces, const char ***words, char *err, size_t errlen);

#endif
