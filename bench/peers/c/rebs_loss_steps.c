/* REBS fire_loss_steps card=8 band=c: 8d6, 4+ hits, any 6 adds one hit; every 3 hits is a Loss Step. */
#include "rng.h"
int main(int argc, char **argv)
{
  long n = bench_args(argc, argv), counts[4] = {0};
  double t0 = now_ns();
  for (long i = 0; i < n; i++) {
    int hits = 0, six = 0;
    for (int d = 0; d < 8; d++) { int r = die(6); hits += r >= 4; six |= r == 6; }
    counts[(hits + six) / 3]++;
  }
  report_ns(t0, n);
  for (int v = 0; v < 4; v++) if (counts[v]) printf("%d %ld\n", v, counts[v]);
  return 0;
}
