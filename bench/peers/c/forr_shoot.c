/* For Reign or Ruin shoot sht=6 def=4: 6 d10, each above 4 hits. */
#include "rng.h"
int main(int argc, char **argv)
{
  long n = bench_args(argc, argv), counts[7] = {0};
  double t0 = now_ns();
  for (long i = 0; i < n; i++) {
    int hits = 0;
    for (int d = 0; d < 6; d++) hits += die(10) > 4;
    counts[hits]++;
  }
  report_ns(t0, n);
  for (int v = 0; v < 7; v++) if (counts[v]) printf("%d %ld\n", v, counts[v]);
  return 0;
}
