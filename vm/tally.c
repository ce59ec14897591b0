/* tally.c — a distribution being summed up (see tally.h). */
#include "config.h"
#include "vm/tally.h"
#include "base/mem.h"

#include <string.h>

void tally_init(Tally *t)
{
    memset(t, 0, sizeof *t);
    mpq_inits(t->r.not_given, t->r.dropped, t->rejected, NULL);
}

void tally_add(mpq_t acc, mpz_srcptr num, mpz_srcptr den)
{
    mpz_ptr an = mpq_numref(acc), ad = mpq_denref(acc);
    if (mpz_sgn(an) == 0) {
        mpz_set(an, num);
        mpz_set(ad, den);
    } else if (mpz_cmp(ad, den) == 0) {
        mpz_add(an, an, num);
    } else if (mpz_size(ad) >= mpz_size(den) && mpz_divisible_p(ad, den)) {
        /* the sums of a walk's paths mostly have denominators that divide
         * one another (products of the dice's sides): no gcd needed */
        mpz_t k;
        mpz_init(k);
        mpz_divexact(k, ad, den);
        mpz_addmul(an, num, k);
        mpz_clear(k);
    } else if (mpz_divisible_p(den, ad)) {
        mpz_t k;
        mpz_init(k);
        mpz_divexact(k, den, ad);
        mpz_mul(an, an, k);
        mpz_add(an, an, num);
        mpz_set(ad, den);
        mpz_clear(k);
    } else {
        mpz_mul(an, an, den);
        mpz_addmul(an, num, ad);
        mpz_mul(ad, ad, den);
        if (mpz_size(ad) > 2 * mpz_size(den) + 4)
            mpq_canonicalize(acc);
    }
}

mpq_t *tally_slot(ExactResult *r, Value v, int *cap)
{
    int lo = 0, hi = r->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        int c = val_order(r->outcomes[mid].value, v);
        if (c == 0)
            return &r->outcomes[mid].p;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (r->n == *cap) {
        int ncap = *cap ? *cap * 2 : 16;
        ExactOutcome *o = mem_alloc(sizeof(ExactOutcome) * (size_t)ncap);
        if (r->n)
            memcpy(o, r->outcomes, sizeof(ExactOutcome) * (size_t)r->n);
        r->outcomes = o;
        *cap = ncap;
    }
    memmove(&r->outcomes[lo + 1], &r->outcomes[lo], sizeof(ExactOutcome) * (size_t)(r->n - lo));
    r->outcomes[lo].value = vm_keep(v);   /* it outlives the run's arena */
    mpq_init(r->outcomes[lo].p);
    r->n++;
    return &r->outcomes[lo].p;
}

/* acc += q * num/den */
static void add_times(mpq_t acc, const mpq_t q, mpz_srcptr num, mpz_srcptr den, mpz_t tn, mpz_t td)
{
    if (mpq_sgn(q) == 0)
        return;
    if (!num) {
        tally_add(acc, mpq_numref(q), mpq_denref(q));
        return;
    }
    mpz_mul(tn, mpq_numref(q), num);
    mpz_mul(td, mpq_denref(q), den);
    tally_add(acc, tn, td);
}

void tally_add_scaled(Tally *to, const Tally *from, mpz_srcptr num, mpz_srcptr den)
{
    mpz_t tn, td;
    mpz_inits(tn, td, NULL);
    for (int i = 0; i < from->r.n; i++)
        add_times(*tally_slot(&to->r, from->r.outcomes[i].value, &to->cap), from->r.outcomes[i].p, num, den, tn, td);
    add_times(to->r.not_given, from->r.not_given, num, den, tn, td);
    add_times(to->r.dropped, from->r.dropped, num, den, tn, td);
    add_times(to->rejected, from->rejected, num, den, tn, td);
    mpz_clears(tn, td, NULL);
}

void tally_finish(Tally *t)
{
    for (int i = 0; i < t->r.n; i++)
        mpq_canonicalize(t->r.outcomes[i].p);
    mpq_canonicalize(t->r.not_given);
    mpq_canonicalize(t->r.dropped);
    mpq_canonicalize(t->rejected);
}
