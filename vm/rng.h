/* rng.h — the pseudo-random generator behind seeded dice.
 *
 * xoshiro256** seeded through splitmix64, so any 64-bit seed (0 included)
 * gives a well-mixed state and the same seed gives the same stream on every
 * machine.  rng_below draws an integer uniformly from [0, n) with Lemire's
 * multiply-and-reject method: no modulo bias, and usually no division.
 */
#ifndef MUSTER_VM_RNG_H
#define MUSTER_VM_RNG_H

#include <stdint.h>

typedef struct Rng {
    uint64_t s[4];
} Rng;

void rng_seed(Rng *r, uint64_t seed);

static inline uint64_t rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* The next 64 random bits (inline: the simulation's innermost step). */
static inline uint64_t rng_next(Rng *r)
{
    uint64_t *s = r->s;
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

/* A seed from the operating system, for runs without --seed. */
uint64_t rng_fresh_seed(void);

#endif
