/* Fire and Fury musketry_effect weapon=rm range=close stands=4, trained target:
   4 fire points = -1, total d10-1 read on the trained column. */
#include "rng.h"
static const char *names[] = {"withering", "telling_checked", "telling_cold_steel", "telling_home",
                              "galling", "lively", "desultory"};
int main(int argc, char **argv)
{
  long n = bench_args(argc, argv), counts[7] = {0};
  double t0 = now_ns();
  for (long i = 0; i < n; i++) {
    int t = die(10) - 1;
    int k = t >= 11 ? 0 : t >= 9 ? 1 : t == 8 ? 2 : t == 7 ? 3 : t >= 5 ? 4 : t == 4 ? 5 : 6;
    counts[k]++;
  }
  report_ns(t0, n);
  for (int v = 0; v < 7; v++) if (counts[v]) printf("%s %ld\n", names[v], counts[v]);
  return 0;
}
