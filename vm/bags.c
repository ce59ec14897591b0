/* bags.c — the exact engine's draws from bags, kept lazily: the sum of the
 * items drawn is one choice among its totals (a hand of five of 52 distinct
 * cards is 231 totals, not 2,598,960 hands), and which items they are is
 * chosen only when something needs them (their faces, another question, or
 * what the bag has left), given the sum when it was chosen first. */
#include "config.h"
#include "vm/engine.h"

#include <string.h>

int bags_draw(DiceSource *self, int64_t n, const Die *kinds, int32_t sides, int32_t symbols, int64_t *left,
              const Pool **out, char *err, size_t errlen)
{
    Engine *e = (Engine *)self;
    if (kinds->n > DIE_MAX_FACES) {
        snprintf(err, errlen, "internal error: a bag of more than %d kinds", DIE_MAX_FACES);
        return -1;
    }
    Draw *d = slab_take(&e->draws);
    d->bag = left;
    d->kinds = kinds->n;
    d->value = kinds->value;
    d->sides = sides;
    d->symbols = symbols;
    d->n = n;
    memcpy(d->left, left, sizeof(int64_t) * (size_t)kinds->n);
    d->sum_known = d->settled = false;
    View *v = slab_take(&e->views);
    memset(v, 0, sizeof *v);
    v->base.source = &e->base;
    v->draw = d;
    d->view = v;
    Pool *p = pool_alloc(e->vm->scratch, sides, 0);
    p->symbols = (uint16_t)symbols;
    p->n = -1;
    p->lazy = &v->base;
    *out = p;
    return 0;
}

/* Which items d are: one choice among the combinations (given the sum, when
 * it was chosen); then the bag gives them up. */
static int settle_draw(Engine *e, Draw *d, char *err, size_t errlen)
{
    int64_t taken[DIE_MAX_FACES];
    if (decide_draw_given(e, d->n, d->kinds, d->left, d->value, d->sum_known ? &d->sum : NULL,
                          d->sum_known ? *d->sum_ways : NULL, taken, err, errlen))
        return -1;
    Pool *q = pool_alloc(e->vm->scratch, d->sides, d->n);
    q->symbols = (uint16_t)d->symbols;
    int64_t i = 0;
    for (int32_t k = 0; k < d->kinds; k++) {
        for (int64_t c = taken[k]; c > 0; c--)
            q->face[i++] = d->value[k];
        d->bag[k] -= taken[k];
    }
    d->view->plain = q;
    d->settled = true;
    return 0;
}

int bags_settle(DiceSource *self, char *err, size_t errlen)
{
    Engine *e = (Engine *)self;
    for (int i = 0; i < e->draws.used; i++) {
        Draw *d = slab_at(&e->draws, i);
        if (!d->settled && settle_draw(e, d, err, errlen))
            return -1;
    }
    return 0;
}

int bags_state(const Engine *e, const Vm *vm, int64_t *out)
{
    int k = 0;
    for (int i = 0; i < e->draws.used; i++) {
        const Draw *d = slab_at(&e->draws, i);
        if (d->settled)
            continue;
        /* the bag still holds them: which bag, how many, and the sum chosen */
        if (out) {
            out[k] = d->bag - vm->bag_left;
            out[k + 1] = d->n;
            out[k + 2] = d->sum_known;
            out[k + 3] = d->sum_known ? d->sum : 0;
        }
        k += 4;
    }
    return k;
}

int bags_settle_view(Engine *e, View *v, char *err, size_t errlen)
{
    Draw *d = v->draw;
    if (!d->settled && settle_draw(e, d, err, errlen))
        return -1;
    if (!v->plain)
        v->plain = d->view->plain;
    return 0;
}

/* The sum of d: one choice among its totals, the same on every later asking. */
static int draw_totals(Engine *e, void *ud, const FwJoint **joint, mpz_ptr den, char *err, size_t errlen)
{
    const Draw *d = ud;
    int64_t total = 0;
    for (int32_t k = 0; k < d->kinds; k++)
        total += d->left[k];
    mpz_bin_uiui(den, (unsigned long)total, (unsigned long)d->n);
    FwLimits lim = lazy_fw_limits(e);
    FwStatus st = fw_cache_sum_of_draw(e->shared->fw, d->kinds, d->value, d->left, d->n, &lim, joint);
    return lazy_fw_done(e, st, &lim, err, errlen);
}

static int draw_sum(Engine *e, Draw *d, int64_t *out, char *err, size_t errlen)
{
    if (!d->sum_known) {
        if (decide_count_roll(e, err, errlen))
            return -1;
        const FwEntry *total;
        if (decide_total(e, draw_totals, d, &total, err, errlen))
            return -1;
        d->sum_known = true;
        d->sum = total->vals[0];
        d->sum_ways = &total->w;
    }
    *out = d->sum;
    return 0;
}

int bags_apply(Engine *e, View *v, OpCode op, CmpOp cmp, Value x, Value *out, char *err, size_t errlen)
{
    Draw *d = v->draw;
    if (op == OP_SUM && !d->settled && !d->symbols) {
        int64_t n = 0;
        if (draw_sum(e, d, &n, err, errlen))
            return -1;
        *out = val_int(n);
        return 0;
    }
    return lazy_plain_apply(e, v, op, cmp, x, out, err, errlen);
}
