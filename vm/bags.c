/* bags.c — the exact engine's draws from bags, kept lazily: the sum of the
 * items drawn is one choice among its totals (a hand of five of 52 distinct
 * cards is 231 totals, not 2,598,960 hands); anything else asked of them is
 * answered face by face, as a lazy pool's questions are, over a roll of a
 * slot per kind whose weights are sets of items (Roll.cap); and which items
 * they are is chosen only when something needs them (their faces, or what
 * the bag has left), given what was asked of them before. */
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
    d->roll = NULL;
    if (kinds->n <= LAZY_MAX_SIDES) {
        /* the same items as a roll of one class over a slot per kind, for
         * what is asked of them face by face (kinds are in the order of
         * their values) */
        Roll *r = slab_take(&e->rolls_slab);
        memset(r, 0, sizeof *r);
        r->sides = kinds->n;
        memcpy(r->map, kinds->value, sizeof(int32_t) * (size_t)kinds->n);
        r->value = r->map;
        r->pool_sides = sides;
        r->kinds = 1;
        r->symbols = (uint16_t)symbols;
        memcpy(r->capv, d->left, sizeof(int64_t) * (size_t)kinds->n);
        r->cap = r->capv;
        r->draw = d;
        r->ncls = 1;
        r->cls[0] = (Class){ kinds->n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << kinds->n) - 1, n };
        d->roll = r;
        v->roll = r;
        v->faces = v->post = r->cls[0].faces;
    }
    Pool *p = pool_alloc(e->vm->scratch, sides, 0);
    p->symbols = (uint16_t)symbols;
    p->n = -1;
    p->lazy = &v->base;
    *out = p;
    return 0;
}

/* Which items d are: one choice among the combinations (given the sum, when
 * it was chosen), or, once other questions were asked of them face by face,
 * how many of each kind given their answers; then the bag gives them up. */
static int settle_draw(Engine *e, Draw *d, char *err, size_t errlen)
{
    int64_t *taken = d->taken;
    const Roll *r = d->roll;
    if (r && r->nasked > (d->sum_known ? 1 : 0)) {
        if (lazy_ask_faces(e, d->roll, taken, err, errlen))
            return -1;
    } else if (decide_draw_given(e, d->n, d->kinds, d->left, d->value, d->sum_known ? &d->sum : NULL,
                                 d->sum_known ? *d->sum_ways : NULL, taken, err, errlen)) {
        return -1;
    }
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
        /* the bag still holds them: which bag, how many, the sum chosen, and
         * the answers to what was asked of them face by face */
        int nasked = d->roll ? d->roll->nasked : 0, width = 0;
        for (int q = 0; q < nasked; q++)
            width += fw_width(&d->roll->asked[q]);
        if (out) {
            out[k] = d->bag - vm->bag_left;
            out[k + 1] = d->n;
            out[k + 2] = d->sum_known;
            out[k + 3] = d->sum_known ? d->sum : 0;
            out[k + 4] = nasked;
            if (width)
                memcpy(out + k + 5, d->roll->answers, sizeof(int64_t) * (size_t)width);
        }
        k += 5 + width;
    }
    return k;
}

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

/* The dice of view v of the settled draw d: those on its slots, of them
 * the keep_n highest or lowest (of equal values the higher slots first),
 * of those the ones on `post`. */
static const Pool *view_of_draw(Engine *e, const Draw *d, const View *v)
{
    int32_t sides = d->roll->sides;
    int64_t count[LAZY_MAX_SIDES] = { 0 }, n = 0;
    for (int32_t s = 0; s < sides; s++)
        if (v->faces >> s & 1)
            n += count[s] = d->taken[s];
    if (v->keep) {
        int64_t room = v->keep_n < n ? v->keep_n : n;
        for (int32_t i = 0; i < sides; i++) {
            int32_t s = v->keep > 0 ? sides - 1 - i : i;
            int64_t c = count[s] < room ? count[s] : room;
            room -= c;
            count[s] = v->post >> s & 1 ? c : 0;
        }
    }
    n = 0;
    for (int32_t s = 0; s < sides; s++)
        n += count[s];
    Pool *q = pool_alloc(e->vm->scratch, d->sides, n);
    q->symbols = (uint16_t)d->symbols;
    int64_t i = 0;
    for (int32_t s = 0; s < sides; s++)
        for (int64_t c = count[s]; c > 0; c--)
            q->face[i++] = d->value[s];
    return q;
}

int bags_settle_view(Engine *e, View *v, char *err, size_t errlen)
{
    Draw *d = v->draw ? v->draw : v->roll->draw;
    if (!d->settled && settle_draw(e, d, err, errlen))
        return -1;
    if (!v->plain)
        v->plain = v->draw ? d->view->plain : view_of_draw(e, d, v);
    return 0;
}

int bags_apply(Engine *e, View *v, OpCode op, CmpOp cmp, Value x, Value *out, char *err, size_t errlen)
{
    Draw *d = v->draw ? v->draw : v->roll->draw;
    Roll *r = d->roll;
    if (!d->settled && op == OP_SUM && v->draw && !d->symbols && (!r || r->nasked == 0)) {
        /* the sum first: one choice among its totals, worked out kind by kind */
        int64_t n = 0;
        if (draw_sum(e, d, &n, err, errlen))
            return -1;
        if (r) {
            /* known of the roll too, for what is asked of it next */
            r->asked[0] = (FwQuestion){ .kind = FW_SUM, .pre = v->faces, .post = v->post };
            r->nasked = 1;
            r->answers = &d->sum;
        }
        *out = val_int(n);
        return 0;
    }
    if (!d->settled && r)
        return lazy_roll_apply(e, v, op, cmp, x, out, err, errlen);
    if (bags_settle_view(e, v, err, errlen))
        return -1;
    return lazy_plain_apply(e, v, op, cmp, x, out, err, errlen);
}
