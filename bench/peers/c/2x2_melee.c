/* 2x2 melee heavy_cavalry (+2) vs line_infantry (+0): draws rerolled. */
#include "rng.h"
static const char *names[] = {"attacker_destroyed_must", "attacker_destroyed", "attacker_routs",
                              "defender_routs", "defender_destroyed", "defender_destroyed_must"};
int main(int argc, char **argv)
{
  long n = bench_args(argc, argv), counts[6] = {0};
  double t0 = now_ns();
  for (long i = 0; i < n; i++) {
    int diff;
    do diff = (die(6) + 2) - die(6); while (diff == 0);
    int k = diff >= 4 ? 5 : diff == 3 ? 4 : diff >= 1 ? 3 : diff >= -2 ? 2 : diff == -3 ? 1 : 0;
    counts[k]++;
  }
  report_ns(t0, n);
  for (int v = 0; v < 6; v++) if (counts[v]) printf("%s %ld\n", names[v], counts[v]);
  return 0;
}
