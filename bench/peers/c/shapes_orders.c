/* bench/shapes.muster union_moves: a cup of 12 Union and 12 Confederate order dice,
 * drawn one at a time without putting back; the Union dice drawn before the third
 * Confederate one. */
#include "rng.h"
int main(int argc, char **argv)
{
  long n = bench_args(argc, argv), counts[13] = {0};
  double t0 = now_ns();
  for (long i = 0; i < n; i++) {
    int left_union = 12, left = 24, rebels = 0, moves = 0;
    while (rebels < 3) {
      if (die((uint32_t)left) <= left_union) { left_union--; moves++; }
      else rebels++;
      left--;
    }
    counts[moves]++;
  }
  report_ns(t0, n);
  for (int v = 0; v <= 12; v++) if (counts[v]) printf("%d %ld\n", v, counts[v]);
  return 0;
}
