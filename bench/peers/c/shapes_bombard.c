/* bench/shapes.muster bombard target=column: d8, a natural 1 rolled again, +1 against a
 * column, read on the Bombardment Effects bands. */
#include "rng.h"
static const char *names[] = {"no_effect", "shaken", "disordered", "stand_lost", "two_stands_lost"};
int main(int argc, char **argv)
{
  long n = bench_args(argc, argv), counts[5] = {0};
  double t0 = now_ns();
  for (long i = 0; i < n; i++) {
    int r;
    do r = die(8); while (r == 1);
    int t = r + 1;
    int k = t >= 8 ? 4 : t == 7 ? 3 : t >= 5 ? 2 : t >= 3 ? 1 : 0;
    counts[k]++;
  }
  report_ns(t0, n);
  for (int v = 0; v < 5; v++) if (counts[v]) printf("%s %ld\n", names[v], counts[v]);
  return 0;
}
