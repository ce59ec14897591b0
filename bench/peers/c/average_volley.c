/* examples/average-die.muster volley battalions=2 range=close target=line: two average
 * dice (2, 3, 3, 4, 4, 5) added up, +2 close range; ..4 none, 5..7 one,
 * 8..10 two, 11.. three. */
#include "rng.h"
static const char *names[] = {"none", "one", "two", "three"};
static const int average[] = {2, 3, 3, 4, 4, 5};
int main(int argc, char **argv)
{
  long n = bench_args(argc, argv), counts[4] = {0};
  double t0 = now_ns();
  for (long i = 0; i < n; i++) {
    int total = 2;
    for (int d = 0; d < 2; d++) total += average[die(6) - 1];
    counts[total <= 4 ? 0 : total <= 7 ? 1 : total <= 10 ? 2 : 3]++;
  }
  report_ns(t0, n);
  for (int v = 0; v < 4; v++) if (counts[v]) printf("%s %ld\n", names[v], counts[v]);
  return 0;
}
