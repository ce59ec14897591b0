/* tally.h — a distribution being summed up: exact weights per outcome.
 *
 * The exact engine adds each path's probability to the outcome it reaches,
 * to the share not given ('?'), cut off (the depth limit) or set aside by a
 * reroll.  A Tally is those sums.  Weights are added as num/den out of
 * lowest terms (paths through the same rolls share a denominator, so most
 * additions are one mpz_add and no gcd); tally_finish reduces them.
 */
#ifndef MUSTER_VM_TALLY_H
#define MUSTER_VM_TALLY_H

#include "vm/exact.h"

typedef struct Tally {
    ExactResult r;           /* outcomes (sorted by value), not given, dropped */
    int cap;                 /* room in r.outcomes */
    mpq_t rejected;          /* set aside by a reroll of the procedure asked about */
} Tally;

void tally_init(Tally *t);

/* acc += num/den (acc out of lowest terms). */
void tally_add(mpq_t acc, mpz_srcptr num, mpz_srcptr den);

/* The sum for outcome v, made (zero) if new; v is kept (vm_keep). */
mpq_t *tally_slot(ExactResult *r, Value v, int *cap);

/* to += from * num/den, share by share (num/den NULL: times 1). */
void tally_add_scaled(Tally *to, const Tally *from, mpz_srcptr num, mpz_srcptr den);

/* Every share in lowest terms. */
void tally_finish(Tally *t);

#endif
