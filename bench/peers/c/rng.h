/* xoshiro256** seeded by splitmix64; unbiased bounded sampling (Lemire). */
#ifndef BENCH_RNG_H
#define BENCH_RNG_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t rng_s[4];

static uint64_t splitmix64(uint64_t *x)
{
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static void rng_seed(uint64_t seed)
{
  for (int i = 0; i < 4; i++) rng_s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(void)
{
  uint64_t r = rotl(rng_s[1] * 5, 7) * 9, t = rng_s[1] << 17;
  rng_s[2] ^= rng_s[0]; rng_s[3] ^= rng_s[1]; rng_s[1] ^= rng_s[2]; rng_s[0] ^= rng_s[3];
  rng_s[2] ^= t; rng_s[3] = rotl(rng_s[3], 45);
  return r;
}

/* uniform integer in 1..n, no modulo bias */
static inline int die(uint32_t n)
{
  uint64_t m = (uint64_t)(uint32_t)(rng_next() >> 32) * n;
  uint32_t l = (uint32_t)m;
  if (l < n) {
    uint32_t t = -n % n;
    while (l < t) { m = (uint64_t)(uint32_t)(rng_next() >> 32) * n; l = (uint32_t)m; }
  }
  return (int)(m >> 32) + 1;
}

static double now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static long bench_args(int argc, char **argv)
{
  if (argc < 2) { fprintf(stderr, "usage: %s TRIALS [SEED]\n", argv[0]); exit(2); }
  rng_seed(argc > 2 ? strtoull(argv[2], 0, 10) : 1);
  return atol(argv[1]);
}

static void report_ns(double t0, long n)
{
  fprintf(stderr, "%.2f\n", (now_ns() - t0) / (double)n);
}
#endif
