/* REBS reorganization state=disordered (no leader, TN 4), the whole ReorgResult:
 * d6; a 6 removes Disordered; a 1 falls back D3+2; 4+ passes; else fails, D3 back. */
#include "rng.h"
int main(int argc, char **argv)
{
  /* 0: nat6_removes_disordered, 1..3: nat1 with d3 1..3, 4: passed, 5..7: failed with d3 1..3 */
  long n = bench_args(argc, argv), counts[8] = {0};
  double t0 = now_ns();
  for (long i = 0; i < n; i++) {
    int r = die(6), k;
    if (r == 6) k = 0;
    else if (r == 1) k = die(3);
    else if (r >= 4) k = 4;
    else k = 4 + die(3);
    counts[k]++;
  }
  report_ns(t0, n);
  if (counts[0]) printf("nat6_removes_disordered,good_order,0,false %ld\n", counts[0]);
  for (int d = 1; d <= 3; d++) if (counts[d]) printf("nat1,disordered,%d,false %ld\n", d + 2, counts[d]);
  if (counts[4]) printf("passed,disordered,0,false %ld\n", counts[4]);
  for (int d = 1; d <= 3; d++) if (counts[4 + d]) printf("failed,disordered,%d,false %ld\n", d, counts[4 + d]);
  return 0;
}
