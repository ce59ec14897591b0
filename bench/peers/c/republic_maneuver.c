/* Republic maneuver_roll division_commander=energetic proficient_within_2=1: d10 + 2. */
#include "rng.h"
int main(int argc, char **argv)
{
  long n = bench_args(argc, argv), counts[13] = {0};
  double t0 = now_ns();
  for (long i = 0; i < n; i++) counts[die(10) + 2]++;
  report_ns(t0, n);
  for (int v = 0; v < 13; v++) if (counts[v]) printf("%d %ld\n", v, counts[v]);
  return 0;
}
