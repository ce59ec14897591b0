/* Republic assault_round table=pitched_battle attacker_grade=veteran defender_grade=average,
 * the defender's panic hits: each side rolls d10; the Pitched Battle column gives its
 * panic hits (3) only for a difference of 6 (the text's example), so every other win of
 * the attacker gives the defender a value the text does not give ('?'); a draw or a loss
 * gives the defender none (0). */
#include "rng.h"
int main(int argc, char **argv)
{
  long n = bench_args(argc, argv), none = 0, three = 0, not_given = 0;
  double t0 = now_ns();
  for (long i = 0; i < n; i++) {
    int a = die(10), d = die(10);
    if (a - d <= 0) none++; else if (a - d == 6) three++; else not_given++;
  }
  report_ns(t0, n);
  if (none) printf("0 %ld\n", none);
  if (three) printf("3 %ld\n", three);
  if (not_given) printf("not_given %ld\n", not_given);
  return 0;
}
