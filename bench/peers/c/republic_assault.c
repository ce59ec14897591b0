/* Republic assault_round table=pitched_battle attacker_grade=veteran defender_grade=average,
 * its difference: each side rolls d10; the Pitched Battle column gives its panic hits
 * only for a difference of 6 (the text's example), so every other difference reaches a
 * value the text does not give ('?'). The morale hits (3 points per M hit for both
 * grades) are given for every margin, so they add no gap. */
#include "rng.h"
int main(int argc, char **argv)
{
  long n = bench_args(argc, argv), six = 0, not_given = 0;
  double t0 = now_ns();
  for (long i = 0; i < n; i++) {
    int a = die(10), d = die(10);
    if (a - d == 6) six++; else not_given++;
  }
  report_ns(t0, n);
  if (six) printf("6 %ld\n", six);
  if (not_given) printf("not_given %ld\n", not_given);
  return 0;
}
