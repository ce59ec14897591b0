/* rng.c — seeding the generator of rng.h through splitmix64, and a fresh
 * seed for runs without --seed: from /dev/urandom (the clock and the
 * process id if that fails), kept below 10^12 so it can be typed back in.
 * The generator itself, xoshiro256**, is inline in rng.h.  Both are
 * public-domain algorithms by Blackman and Vigna, written for muster. */
#include "config.h"
#include "vm/rng.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rng_seed(Rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

uint64_t rng_fresh_seed(void)
{
    uint64_t seed = 0;
    FILE *f = fopen("/dev/urandom", "rb");
    if (f) {
        if (fread(&seed, sizeof seed, 1, f) != 1)
            seed = 0;
        fclose(f);
    }
    if (!seed) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = (uint64_t)ts.tv_sec * 1000000007ULL ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
    }
    /* keep seeds short enough to type back in */
    return seed % 1000000000000ULL;
}
