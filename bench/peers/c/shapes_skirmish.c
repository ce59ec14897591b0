/* bench/shapes.muster skirmish_fire figures=8 target_figures=9: 8 d6, 5+ hits; half the
 * hits, rounded up, are figures lost; a third of the 9 figures or more falls back. */
#include "rng.h"
static const char *names[] = {"no_effect", "casualties", "falls_back"};
int main(int argc, char **argv)
{
  long n = bench_args(argc, argv), counts[3] = {0};
  double t0 = now_ns();
  for (long i = 0; i < n; i++) {
    int hits = 0;
    for (int d = 0; d < 8; d++) hits += die(6) >= 5;
    int lost = (hits + 1) / 2;
    counts[lost * 3 >= 9 ? 2 : lost > 0 ? 1 : 0]++;
  }
  report_ns(t0, n);
  for (int v = 0; v < 3; v++) if (counts[v]) printf("%s %ld\n", names[v], counts[v]);
  return 0;
}
