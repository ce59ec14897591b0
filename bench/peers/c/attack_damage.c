/* examples/attack-dice.muster damage red=3 agility=2 black=1: three red eight-sided dice
 * (3 hit, 1 crit, 2 focus, 2 blank) and a black six-sided one (2 hit, 2 crit, 2 blank);
 * hits and crits score; two white eight-sided dice (3 evade, 2 focus, 3 blank), each
 * evade cancels a hit; the damage is what is left, at least 0. */
#include "rng.h"
int main(int argc, char **argv)
{
  long n = bench_args(argc, argv), counts[5] = {0};
  double t0 = now_ns();
  for (long i = 0; i < n; i++) {
    int hits = 0, evades = 0;
    for (int d = 0; d < 3; d++) hits += die(8) <= 4;   /* faces 1-3 hit, 4 crit */
    hits += die(6) <= 4;                               /* faces 1-2 hit, 3-4 crit */
    for (int d = 0; d < 2; d++) evades += die(8) <= 3;
    int left = hits - evades;
    counts[left > 0 ? left : 0]++;
  }
  report_ns(t0, n);
  for (int v = 0; v < 5; v++) if (counts[v]) printf("%d %ld\n", v, counts[v]);
  return 0;
}
