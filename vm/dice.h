/* dice.h — where dice come from.
 *
 * The VM never draws random numbers itself: every die goes through a
 * DiceSource, so one compiled procedure can be played with seeded dice,
 * replayed with the dice a player actually threw (scripted), and later
 * enumerated exactly or sampled in bulk, without changing the bytecode.
 *
 * A source is asked for a whole pool at once (n dice of `sides` faces).
 * That matters: a pool is a multiset, and a source that enumerates outcomes
 * can branch over multisets instead of ordered sequences.
 */
#ifndef MUSTER_VM_DICE_H
#define MUSTER_VM_DICE_H

#include "rng.h"

#include <stddef.h>
#include <stdint.h>

typedef struct DiceSource DiceSource;

struct DiceSource {
    /* Fill out[0..n) with faces in 1..sides (any order).  Returns 0, or -1
     * after writing a message to err (errlen bytes). */
    int (*roll)(DiceSource *self, int64_t n, int32_t sides, int32_t *out, char *err, size_t errlen);
    /* Set only by seeded dice: their generator, which the VM may draw from
     * directly (as roll would, face = rng_below(rng, sides) + 1) to save
     * a call per die.  NULL for every other source. */
    Rng *rng;
};

/* Seeded pseudo-random dice. */
typedef struct RngDice {
    DiceSource base;
    Rng rng;
    uint64_t seed;
} RngDice;

void dice_rng_init(RngDice *d, uint64_t seed);

/* Scripted dice: the given faces in order, one per die; a pool takes as
 * many as it has dice.  Running out, or a face that does not fit the die,
 * is an error that says so. */
typedef struct ScriptDice {
    DiceSource base;
    const int64_t *faces;
    size_t n, next;
} ScriptDice;

void dice_script_init(ScriptDice *d, const int64_t *faces, size_t n);

/* Parse "6,3,4" into faces; returns the count, or -1 with a message. */
long dice_parse_list(const char *text, int64_t **faces, char *err, size_t errlen);

#endif
