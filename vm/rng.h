/* rng.h — the pseudo-random generator behind seeded dice.
 *
 * xoshiro256** seeded through splitmix64, so any 64-bit seed (0 included)
 * gives a well-mixed state and the same seed gives the same stream on every
 * machine.  rng_below draws an integer uniformly from [0, n) with Lemire's
 * multiply-and-reject method: no modulo bias, and usually no division;
 * rng_dice makes the same draws for a whole pool at once.  Inline, since
 * the simulation draws every die through here.
 */
#ifndef MUSTER_VM_RNG_H
#define MUSTER_VM_RNG_H

#include <stdint.h>

typedef struct Rng {
    uint64_t s[4];
} Rng;

void rng_seed(Rng *r, uint64_t seed);

static inline uint64_t rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* One step of xoshiro256** on a state s: its next 64 random bits.  The
 * state may be the generator's own or four locals a loop over many dice
 * keeps in registers (rng_face_in). */
static inline __attribute__((always_inline)) uint64_t rng_step(uint64_t s[4])
{
    uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return result;
}

/* The next 64 random bits (inline: the simulation's innermost step). */
static inline uint64_t rng_next(Rng *r)
{
    return rng_step(r->s);
}

/* Uniform in [0, n); n must be > 0. */
static inline uint64_t rng_below(Rng *r, uint64_t n)
{
    unsigned __int128 m = (unsigned __int128)rng_next(r) * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        uint64_t threshold = (0 - n) % n;   /* 2^64 mod n */
        while (low < threshold) {
            m = (unsigned __int128)rng_next(r) * n;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

/* One die of `sides` faces, its face less 1, drawn as rng_below draws it
 * from a generator whose state the caller holds in four locals (so that a
 * loop over many dice keeps it in registers). */
static inline __attribute__((always_inline)) uint64_t rng_face_in(uint64_t st[4], uint64_t sides)
{
    unsigned __int128 m;
    uint64_t low;
    do {
        m = (unsigned __int128)rng_step(st) * sides;
        low = (uint64_t)m;
    } while (low < sides && low < (0 - sides) % sides);
    return (uint64_t)(m >> 64);
}

/* n dice of `sides` faces into out: the same draws as n calls of
 * rng_below(r, sides) + 1, with the generator's state kept in registers
 * for the whole pool.  With lane_bits 8 or 4 it also counts the dice
 * showing each face in the lanes of one word, face f in bits
 * [lane_bits (f - 1), lane_bits f), as it goes (see pool_note_lanes), and
 * returns that word; 0 with lane_bits 0. */
static inline uint64_t rng_dice(Rng *r, int32_t *out, int64_t n, uint64_t sides, unsigned lane_bits)
{
    uint64_t st[4] = { r->s[0], r->s[1], r->s[2], r->s[3] };
    uint64_t lanes = 0;
    for (int64_t i = 0; i < n; i++) {
        uint64_t face = rng_face_in(st, sides);
        out[i] = (int32_t)face + 1;
        lanes += lane_bits ? (uint64_t)1 << (lane_bits * (unsigned)face) : 0;
    }
    for (int k = 0; k < 4; k++)
        r->s[k] = st[k];
    return lanes;
}

/* The same draws as rng_dice, only counted: how many of the n dice show a
 * face in [lo, lo + span).  (count(roll 8d6 >= 4) needs no pool.) */
static inline int64_t rng_count_in(Rng *r, int64_t n, uint64_t sides, int64_t lo, uint64_t span)
{
    uint64_t st[4] = { r->s[0], r->s[1], r->s[2], r->s[3] };
    int64_t count = 0;
    for (int64_t i = 0; i < n; i++)
        count += (uint64_t)((int64_t)rng_face_in(st, sides) + 1 - lo) < span;
    for (int k = 0; k < 4; k++)
        r->s[k] = st[k];
    return count;
}

/* A seed from the operating system, for runs without --seed. */
uint64_t rng_fresh_seed(void);

#endif
