/* REBS melee_roll attacker_md=4 defender_md=3, its result: each side rolls its Melee Dice,
 * 4+ hits, more hits wins; the loser falls back D3 (a d3 rolled, as the procedure does). */
#include "rng.h"
static const char *names[] = {"attacker_wins", "defender_wins", "draw"};
int main(int argc, char **argv)
{
  long n = bench_args(argc, argv), counts[3] = {0};
  double t0 = now_ns();
  for (long i = 0; i < n; i++) {
    int a = 0, d = 0, k;
    for (int j = 0; j < 4; j++) a += die(6) >= 4;
    for (int j = 0; j < 3; j++) d += die(6) >= 4;
    if (a > d) { (void)die(3); k = 0; }
    else if (d > a) { (void)die(3); k = 1; }
    else k = 2;
    counts[k]++;
  }
  report_ns(t0, n);
  for (int v = 0; v < 3; v++) if (counts[v]) printf("%s %ld\n", names[v], counts[v]);
  return 0;
}
