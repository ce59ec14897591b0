/* lazy.c — the exact engine's lazy pools (see the note in engine.h): rolls
 * kept as classes, questions answered face by face, dice past 64 faces. */
#include "config.h"
#include "vm/engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- lazy pools: the pool methods ---- */

/* Slots 1..k (k <= 64). */
static uint64_t all_faces(int32_t k)
{
    return k == 64 ? ~(uint64_t)0 : ((uint64_t)1 << k) - 1;
}

static int32_t slot_value(const Roll *r, int32_t s)
{
    return r->value ? r->value[s - 1] : s;
}

/* The slots of r whose values compare to x: all the slots of a value or
 * none of them. */
static uint64_t faces_where(const Roll *r, CmpOp cmp, Value x)
{
    int32_t sides = r->sides;
    uint64_t all = all_faces(sides);
    if (x.tag == VAL_INT) {
        /* the values are in order: the slots under x are 1..lt, those up to x 1..le */
        int64_t lt, le, k = x.as.i;
        if (!r->value) {
            lt = k - 1 < 0 ? 0 : k - 1 > sides ? sides : k - 1;
            le = k < 0 ? 0 : k > sides ? sides : k;
        } else {
            for (lt = 0; lt < sides && r->value[lt] < k; lt++)
                ;
            for (le = lt; le < sides && r->value[le] <= k; le++)
                ;
        }
        uint64_t below = all_faces((int32_t)lt), upto = all_faces((int32_t)le), at = upto & ~below;
        switch (cmp) {
        case CMP_LT: return below;
        case CMP_LE: return upto;
        case CMP_GT: return all & ~upto;
        case CMP_GE: return all & ~below;
        case CMP_EQ: return at;
        case CMP_NE: return all & ~at;
        }
    }
    uint64_t m = 0;
    for (int32_t f = 1; f <= sides; f++)
        if (pool_face_cmp(slot_value(r, f), cmp, x))
            m |= (uint64_t)1 << (f - 1);
    return m;
}

/* A lazy pool: the dice of roll r with a face in `faces`. */
const Pool *lazy_view_of(Engine *e, Roll *r, uint64_t faces)
{
    View *v = slab_take(&e->views);
    v->base.source = &e->base;
    v->roll = r;
    v->draw = NULL;
    v->faces = faces;
    v->keep = 0;
    v->keep_n = 0;
    v->post = r->big ? 0 : all_faces(r->sides);
    v->cuts = r->big ? r->nseg : 0;
    v->plain = NULL;
    Pool *p = pool_alloc(e->vm->scratch, r->pool_sides, 0);
    p->symbols = r->symbols;
    p->n = -1;
    p->lazy = &v->base;
    return p;
}

/* The faces of r on slots m (segments of faces, for big dice). */
static int64_t slots_size(const Roll *r, uint64_t m)
{
    return r->big ? big_size(r, m) : __builtin_popcountll(m);
}

/* Split class i of r, which S cuts, into its part in S (kept at i) and the
 * rest (added at the end). */
static int split_class(Engine *e, Roll *r, int i, uint64_t S, char *err, size_t errlen)
{
    Class *c = &r->cls[i];
    if (r->big && r->late && c->count > 0) {
        int rc = big_split_given(e, r, i, S, err, errlen);
        if (rc <= 0)
            return rc;
    }
    uint64_t in = c->faces & S, out = c->faces & ~S;
    int64_t j = 0;
    r->fresh = false;
    if (c->count > 0) {
        int32_t a = (int32_t)slots_size(r, in), b = (int32_t)slots_size(r, out);
        Decision *d;
        if (e->depth < e->len) {
            d = &e->path[e->depth];
            if (d->kind != DEC_SPLIT || d->n != c->count || d->sides != a || d->other != b)
                return decide_rolled_differently(err, errlen);
        } else {
            d = decide_push(e);
            d->kind = DEC_SPLIT;
            d->n = c->count;
            d->sides = a;
            d->other = b;
            decide_weigh(e, e->len - 1);
        }
        e->depth++;
        j = d->index;
    }
    r->cls[r->ncls++] = (Class){ out, c->count - j };
    c->faces = in;
    c->count = j;
    return 0;
}

/* Split every class of r that S cuts. */
static int refine(Engine *e, Roll *r, uint64_t S, char *err, size_t errlen)
{
    int ncls = r->ncls;
    for (int i = 0; i < ncls; i++)
        if ((r->cls[i].faces & S) && (r->cls[i].faces & ~S) && split_class(e, r, i, S, err, errlen))
            return -1;
    return 0;
}

/* How many classes of r with dice S cuts. */
static int cut_classes(const Roll *r, uint64_t S)
{
    int n = 0;
    for (int i = 0; i < r->ncls; i++)
        n += r->cls[i].count > 0 && (r->cls[i].faces & S) && (r->cls[i].faces & ~S);
    return n;
}

/* How many dice of r have a face in S. */
int lazy_count_in(Engine *e, Roll *r, uint64_t S, int64_t *n, char *err, size_t errlen)
{
    *n = 0;
    if (!S)
        return 0;
    if (refine(e, r, S, err, errlen))
        return -1;
    for (int i = 0; i < r->ncls; i++)
        if (r->cls[i].faces & S)
            *n += r->cls[i].count;
    return 0;
}

/* Does some die of r have a face in S?  Often known with no split (a class
 * inside S has dice, or no class that meets S has any); else the classes S
 * cuts are split one at a time, until one turns up a die in S. */
int lazy_any_in(Engine *e, Roll *r, uint64_t S, bool *yes, char *err, size_t errlen)
{
    *yes = false;
    bool open = false;
    for (int i = 0; i < r->ncls; i++) {
        const Class *c = &r->cls[i];
        if (!(c->faces & S) || c->count == 0)
            continue;
        if (!(c->faces & ~S)) {
            *yes = true;
            return 0;
        }
        open = true;
    }
    if (!open)
        return 0;
    int ncls = r->ncls;
    for (int i = 0; i < ncls; i++) {
        const Class *c = &r->cls[i];
        if (!(c->faces & S) || !(c->faces & ~S) || c->count == 0)
            continue;
        if (split_class(e, r, i, S, err, errlen))
            return -1;
        if (r->cls[i].count > 0) {
            *yes = true;
            return 0;
        }
    }
    return 0;
}

/* The faces of the dice of r with a face in `faces`, while r has not been
 * asked anything face by face: its classes split into single faces, one
 * DEC_POOL decision per class among its multisets. */
static int settle_classes(Engine *e, Roll *r, uint64_t faces, const Pool **out, char *err, size_t errlen)
{
    if (refine(e, r, faces, err, errlen))
        return -1;
    int ncls = r->ncls;
    for (int i = 0; i < ncls; i++) {
        Class *c = &r->cls[i];
        int32_t m = __builtin_popcountll(c->faces);
        if (!(c->faces & faces) || m == 1 || c->count == 0)
            continue;
        Decision *d;
        if (decide_pool(e, c->count, m, NULL, NULL, &d, err, errlen))
            return -1;
        /* the class's faces in ascending order take the multiset's counts */
        int64_t counts[LAZY_MAX_SIDES] = { 0 };
        for (int64_t k = 0; k < d->n; k++)
            counts[d->face[k] - 1]++;
        uint64_t rest = c->faces;
        for (int32_t k = 0; k < m; k++) {
            uint64_t bit = rest & -rest;
            rest &= rest - 1;
            if (k == 0)
                *c = (Class){ bit, counts[0] };
            else
                r->cls[r->ncls++] = (Class){ bit, counts[k] };
        }
    }
    r->fresh = false;
    int64_t count[LAZY_MAX_SIDES + 1] = { 0 }, n = 0;
    for (int i = 0; i < r->ncls; i++)
        if ((r->cls[i].faces & faces) && r->cls[i].count) {
            count[__builtin_ctzll(r->cls[i].faces) + 1] = r->cls[i].count;
            n += r->cls[i].count;
        }
    /* the slots in order show their values in order: the pool is sorted */
    Pool *p = pool_alloc(e->vm->scratch, r->pool_sides, n);
    p->symbols = r->symbols;
    int64_t k = 0;
    for (int32_t f = 1; f <= r->sides; f++)
        for (int64_t c = count[f]; c > 0; c--)
            p->face[k++] = slot_value(r, f);
    *out = p;
    return 0;
}

/* ---- lazy pools: questions answered face by face ----
 *
 * What splitting classes cannot answer without settling every multiset (a
 * sum, the highest three, doubles, anything about a pool of kept dice) is
 * worked out face by face (facewise.c, slot by slot with the roll's value
 * map): the distribution of the answer, one DEC_VALUE decision among its
 * values.  (Dice of equal values on different slots are alike to every
 * question: a kept few cut among them take the higher slots first, the
 * same on every path.)  That answer is then known of
 * the roll, and every later question about it is asked together with the
 * earlier ones, given their answers (the entries of their joint
 * distribution that begin with them): so the roll's classes are never
 * split again, and a sum and a count of one roll stay exact together.
 */

bool lazy_fw_tick(void *ud)
{
    return exact_tick_now(ud);
}

static FwQuestion question(const View *v, FwKind kind)
{
    return (FwQuestion){ .kind = kind, .keep = v->keep, .keep_n = v->keep_n, .pre = v->faces, .post = v->post };
}

/* The answer to q about roll r: *answer points at it (fw_width(q) numbers). */
static bool same_question(const FwQuestion *a, const FwQuestion *b)
{
    return a->kind == b->kind && a->keep == b->keep && a->keep_n == b->keep_n && a->pre == b->pre
        && a->post == b->post;
}

FwLimits lazy_fw_limits(Engine *e)
{
    Shared *sh = e->shared;
    if (!sh->fw)
        sh->fw = fw_cache_new();
    uint64_t left = sh->opts->budget > sh->runs ? sh->opts->budget - sh->runs : 0;
    return (FwLimits){ .max_work = left * FW_STEPS_PER_RUN, .tick = lazy_fw_tick, .ud = sh };
}

int lazy_fw_done(Engine *e, FwStatus st, const FwLimits *lim, char *err, size_t errlen)
{
    Shared *sh = e->shared;
    sh->runs += lim->work / FW_STEPS_PER_RUN;
    if (st == FW_OK)
        return 0;
    e->halt = st == FW_STOPPED ? EXACT_STOPPED : EXACT_OVER_BUDGET;
    snprintf(err, errlen, "over the budget of the exact count");
    return -1;
}

/* The joint answers to r's questions so far and q, worked out face by
 * face (within what the budget has left). */
static int joint_of(Engine *e, Roll *r, const FwQuestion *q, const FwJoint **joint, char *err, size_t errlen)
{
    FwQuestion qs[ASKED_MAX + 1];
    memcpy(qs, r->asked, sizeof(FwQuestion) * (size_t)r->nasked);
    qs[r->nasked] = *q;
    FwLimits lim = lazy_fw_limits(e);
    FwStatus st = fw_cache_joint(e->shared->fw, r->sides, r->value, r->cap, r->cls, r->ncls, qs, r->nasked + 1, &lim,
                                 joint);
    const ExactOptions *o = e->shared->opts;
    if (st == FW_TOO_BIG && (double)lim.max_work / FW_STEPS_PER_RUN >= (double)o->budget)
        e->shared->needed = (double)o->budget + 1;   /* (the roll alone is past the whole budget) */
    return lazy_fw_done(e, st, &lim, err, errlen);
}

static int ask(Engine *e, Roll *r, const FwQuestion *q, const int64_t **answer, char *err, size_t errlen)
{
    /* asked before: the same answer, and no new decision */
    for (int i = 0, at = 0; i < r->nasked; at += fw_width(&r->asked[i]), i++)
        if (same_question(&r->asked[i], q)) {
            *answer = r->answers + at;
            return 0;
        }
    Decision *d;
    if (e->depth < e->len) {
        d = &e->path[e->depth];
        if (d->kind != DEC_VALUE || d->joint->nq != r->nasked + 1)
            return decide_rolled_differently(err, errlen);
    } else {
        Shared *sh = e->shared;
        if (r->nasked == ASKED_MAX) {
            e->halt = EXACT_OVER_BUDGET;
            sh->beyond = "it keeps at most " FW_MAX_QUESTIONS_TEXT " different questions about one roll together "
                         "(sums, counts, the highest or lowest dice), and more are asked";
            snprintf(err, errlen, "over a limit of the exact count: %s", sh->beyond);
            return -1;
        }
        const FwJoint *joint;
        if (joint_of(e, r, q, &joint, err, errlen))
            return -1;
        int64_t lo, hi;
        fw_range(joint, r->answers, joint->offset[r->nasked], &lo, &hi);
        if (lo == hi) {
            /* cannot be: the answers before came from this roll's own joint */
            snprintf(err, errlen, "internal error: no answer agrees with the roll's earlier answers");
            e->halt = EXACT_FAILED;
            return -1;
        }
        d = decide_push(e);
        d->kind = DEC_VALUE;
        d->joint = joint;
        d->index = lo;
        d->n = hi;
        mpz_set_ui(d->own_den, 0);
        for (int64_t i = lo; i < hi; i++)
            mpz_add(d->own_den, d->own_den, joint->e[i].w);
        decide_weigh_own(d);
        decide_weigh_path(e, e->len - 1, true);
    }
    e->depth++;
    const int64_t *vals = d->joint->e[d->index].vals;
    r->fresh = false;
    r->asked[r->nasked++] = *q;
    r->answers = vals;
    *answer = vals + d->joint->offset[r->nasked - 1];
    return 0;
}

/* A number answered face by face. */
static int ask_number(Engine *e, const View *v, FwKind kind, int64_t *n, char *err, size_t errlen)
{
    FwQuestion q = question(v, kind);
    const int64_t *a;
    if (ask(e, v->roll, &q, &a, err, errlen))
        return -1;
    *n = *a;
    return 0;
}

/* The dice of v as a plain pool. */
static int settle(Engine *e, View *v, char *err, size_t errlen)
{
    if (v->plain)
        return 0;
    if (v->draw || (v->roll && v->roll->cap))
        return bags_settle_view(e, v, err, errlen);
    Roll *r = v->roll;
    if (r->big)
        return big_settle(e, v, err, errlen);
    if (!v->keep && r->nasked == 0)
        return settle_classes(e, r, v->faces, &v->plain, err, errlen);
    /* how many show each face, asked face by face */
    FwQuestion q = question(v, FW_FACES);
    const int64_t *count;
    if (ask(e, r, &q, &count, err, errlen))
        return -1;
    int64_t n = 0;
    for (int i = 0; i < fw_width(&q); i++)
        n += count[i];
    Pool *p = pool_alloc(e->vm->scratch, r->pool_sides, n);
    p->symbols = r->symbols;
    int64_t k = 0, i = 0;
    for (int32_t f = 1; f <= r->sides; f++)
        if (v->faces >> (f - 1) & 1)
            for (int64_t c = count[i++]; c > 0; c--)
                p->face[k++] = slot_value(r, f);
    v->plain = p;
    return 0;
}

/* The n highest (keep 1) or lowest (-1) dice of v, as a lazy pool. */
static const Pool *kept_pool(Engine *e, const View *v, int32_t keep, int64_t n)
{
    const Pool *p = lazy_view_of(e, v->roll, v->faces);
    View *k = (View *)p->lazy;
    k->keep = keep;
    k->keep_n = n;
    return p;
}

/* Pool.sides of a pool whose values run from lo to hi (as pool_die_values
 * sets it): the highest, when they are all faces of a die of up to 64 sides,
 * else 0. */
static int32_t sides_of_values(int32_t lo, int32_t hi)
{
    return lo >= 1 && hi <= LAZY_MAX_SIDES ? hi : 0;
}

/* r's slots 1..n show value[0..n) (nondecreasing), or their own numbers
 * when value is NULL or says just that. */
static void set_values(Roll *r, int32_t n, const int32_t *value)
{
    r->sides = n;
    r->value = NULL;
    r->pool_sides = n;
    if (!value)
        return;
    bool own = true;
    for (int32_t s = 0; s < n; s++)
        own &= value[s] == s + 1;
    if (own)
        return;
    memcpy(r->map, value, sizeof(int32_t) * (size_t)n);
    r->value = r->map;
    r->pool_sides = sides_of_values(value[0], value[n - 1]);
}

/* DieDesc.symbols of a die of the program's (0: its faces are numbers, or
 * it is not one of the program's dies). */
static int32_t die_symbols(const Engine *e, const Die *die)
{
    const Program *prog = e->vm->prog;
    for (int i = 0; die && i < prog->ndies; i++)
        if (&prog->dies[i].die == die)
            return prog->dies[i].symbols;
    return 0;
}

static int lazy_roll(DiceSource *self, int64_t n, int32_t sides, const Die *die, const Pool **out, char *err,
                     size_t errlen)
{
    Engine *e = (Engine *)self;
    if (sides > LAZY_MAX_SIDES && !die) {
        /* a class is a set of slots in 64 bits: the classes of bigger dice
         * are sets of runs of faces (bigdice.c) */
        if (decide_count_roll(e, err, errlen))
            return -1;
        Roll *r = slab_take(&e->rolls_slab);
        r->cap = NULL;   /* (dice; an item used before may have been a draw's) */
        r->draw = NULL;
        memset(r, 0, offsetof(Roll, cls));
        r->sides = r->pool_sides = sides;
        r->kinds = 1;
        r->nasked = 0;
        r->answers = NULL;
        big_init(r, n);
        *out = lazy_view_of(e, r, 1);
        return 0;
    }
    if (sides > LAZY_MAX_SIDES) {
        /* (a die of its own faces has at most DIE_MAX_FACES) */
        Pool *p = pool_alloc(e->vm->scratch, sides, n);
        if (decide_roll(self, n, sides, die, p->face, err, errlen))
            return -1;
        if (die)
            pool_die_values(p, die);
        pool_sort(p);
        *out = p;
        return 0;
    }
    if (decide_count_roll(e, err, errlen))
        return -1;
    /* a die of its own faces: a slot for each face, showing its value */
    Roll *r = slab_take(&e->rolls_slab);
    r->cap = NULL;   /* (dice; an item used before may have been a draw's) */
    r->draw = NULL;
    set_values(r, sides, die ? die->value : NULL);
    r->fresh = true;
    r->kinds = 1;
    r->symbols = (uint16_t)die_symbols(e, die);
    r->ncls = 1;
    r->cls[0] = (Class){ all_faces(sides), n };
    r->nasked = 0;
    r->answers = NULL;
    r->big = false;
    *out = lazy_view_of(e, r, r->cls[0].faces);
    return 0;
}

/* The values of class c of r in order, into out; their number. */
static int32_t class_values(const Roll *r, const Class *c, int32_t *out)
{
    int32_t m = 0;
    for (uint64_t rest = c->faces; rest; rest &= rest - 1)
        out[m++] = slot_value(r, __builtin_ctzll(rest) + 1);
    return m;
}

/* The roll of a pool's dice, when it is the whole of a fresh roll of e's. */
static Roll *fresh_roll(const Engine *e, const Pool *p)
{
    if (!p->lazy || p->lazy->source != &e->base)
        return NULL;
    const View *v = (const View *)p->lazy;
    Roll *r = v->roll;
    if (r && r->big)
        return big_whole(r, v) ? r : NULL;
    return r && r->fresh && !v->keep && v->faces == all_faces(r->sides) ? r : NULL;
}

/* One pool of the dice of a and b (OP_JOIN), at least one of them lazy.
 * Two fresh rolls whose slots fit in 64 make one roll: the slots of both,
 * in the order of their values, and the classes of both, where a class of
 * b whose slots show the same values as one of a's (the same kind of die)
 * adds its dice to that class, so [d20, d20, d20] has 20 slots.  No
 * decision is made: the parts were counted as rolls when they were rolled.
 * Otherwise *out is NULL, and the VM joins their faces. */
static int lazy_join(DiceSource *self, const Pool *a, const Pool *b, const Pool **out, char *err, size_t errlen)
{
    Engine *e = (Engine *)self;
    *out = NULL;
    Roll *ra = fresh_roll(e, a), *rb = fresh_roll(e, b);
    if (!ra || !rb || ra == rb)
        return 0;
    if (ra->big || rb->big)
        return big_join(e, ra, rb, out, err, errlen);
    /* the kinds of dice: a's classes, then b's that are not among them */
    const Roll *from[2] = { ra, rb };
    int32_t kval[2 * LAZY_MAX_SIDES][LAZY_MAX_SIDES], klen[2 * LAZY_MAX_SIDES];
    int64_t kcount[2 * LAZY_MAX_SIDES], total = 0;
    int nk = 0;
    int32_t slots = 0;
    for (int part = 0; part < 2; part++) {
        const Roll *r = from[part];
        for (int i = 0; i < r->ncls; i++) {
            const Class *c = &r->cls[i];
            int32_t vals[LAZY_MAX_SIDES], m = class_values(r, c, vals);
            total += c->count;
            int k = 0;
            while (k < nk && !(klen[k] == m && !memcmp(kval[k], vals, sizeof(int32_t) * (size_t)m)))
                k++;
            if (k < nk) {
                kcount[k] += c->count;
                continue;
            }
            slots += m;
            if (slots > LAZY_MAX_SIDES)
                return big_join(e, ra, rb, out, err, errlen);   /* (or the faces are joined) */
            memcpy(kval[nk], vals, sizeof(int32_t) * (size_t)m);
            klen[nk] = m;
            kcount[nk++] = c->count;
        }
    }
    if (total > e->vm->limits.max_pool) {
        snprintf(err, errlen, "a pool of %lld dice is over the limit of %lld", (long long)total,
                 (long long)e->vm->limits.max_pool);
        return -1;
    }
    /* the slots in the order of their values (of the first kind first among
     * equal values, then in the kind's own order) */
    int32_t value[LAZY_MAX_SIDES];
    int next[2 * LAZY_MAX_SIDES] = { 0 };
    Roll *r = slab_take(&e->rolls_slab);
    r->cap = NULL;   /* (dice; an item used before may have been a draw's) */
    r->draw = NULL;
    r->big = false;          /* (the slab's items are used again run after run) */
    r->ncls = nk;
    for (int k = 0; k < nk; k++)
        r->cls[k] = (Class){ 0, kcount[k] };
    for (int32_t s = 0; s < slots; s++) {
        int best = -1;
        for (int k = 0; k < nk; k++)
            if (next[k] < klen[k] && (best < 0 || kval[k][next[k]] < kval[best][next[best]]))
                best = k;
        value[s] = kval[best][next[best]++];
        r->cls[best].faces |= (uint64_t)1 << s;
    }
    set_values(r, slots, value);
    r->fresh = true;
    r->kinds = nk;
    r->symbols = ra->symbols;   /* as pool_join has it */
    r->nasked = 0;
    r->answers = NULL;
    *out = lazy_view_of(e, r, all_faces(slots));
    return 0;
}

/* What is asked of a lazy pool through its faces (dice past 64 faces, a
 * draw): a filter or the kept dice of it is a view holding its values. */
int lazy_plain_apply(Engine *e, View *v, OpCode op, CmpOp cmp, Value x, Value *out, char *err, size_t errlen)
{
    if (settle(e, v, err, errlen))
        return -1;
    const Pool *p = v->plain;
    Arena *a = e->vm->scratch;
    switch (op) {
    case OP_FILTER: case OP_HIGHEST_N: case OP_LOWEST_N: {
        const Pool *q = op == OP_FILTER ? pool_filter(a, p, cmp, x)
                      : op == OP_HIGHEST_N ? pool_highest(a, p, x.as.i) : pool_lowest(a, p, x.as.i);
        View *w = slab_take(&e->views);
        *w = *v;
        w->plain = q;
        Pool *lazy = pool_alloc(a, p->sides, 0);
        lazy->n = -1;
        lazy->lazy = &w->base;
        *out = val_pool(lazy);
        return 0;
    }
    case OP_COUNT: *out = val_int(p->n); return 0;
    case OP_ANY: *out = val_bool(pool_any(p, cmp, x)); return 0;
    case OP_ALL: *out = val_bool(pool_all(p, cmp, x)); return 0;
    case OP_SUM: *out = val_int(pool_sum(p)); return 0;
    case OP_DOUBLES: *out = val_bool(pool_doubles(p)); return 0;
    case OP_HIGHEST: case OP_LOWEST:
        if (p->n == 0) {
            snprintf(err, errlen, "%s() of an empty pool", op == OP_HIGHEST ? "highest" : "lowest");
            return -1;
        }
        *out = val_int(op == OP_HIGHEST ? p->face[p->n - 1] : p->face[0]);
        return 0;
    default:
        snprintf(err, errlen, "bad pool instruction %d", (int)op);
        return -1;
    }
}

static int lazy_apply(DiceSource *self, OpCode op, const Pool *p, CmpOp cmp, Value x, Value *out, char *err,
                      size_t errlen)
{
    Engine *e = (Engine *)self;
    View *v = (View *)p->lazy;
    if (v->draw || v->roll->cap)
        return bags_apply(e, v, op, cmp, x, out, err, errlen);
    return lazy_roll_apply(e, v, op, cmp, x, out, err, errlen);
}

int lazy_ask_faces(Engine *e, Roll *r, int64_t *count, char *err, size_t errlen)
{
    FwQuestion q = { .kind = FW_FACES, .pre = all_faces(r->sides), .post = all_faces(r->sides) };
    const int64_t *a;
    if (ask(e, r, &q, &a, err, errlen))
        return -1;
    memcpy(count, a, sizeof(int64_t) * (size_t)r->sides);
    return 0;
}

int lazy_roll_apply(Engine *e, View *v, OpCode op, CmpOp cmp, Value x, Value *out, char *err, size_t errlen)
{
    Roll *r = v->roll;
    if (r->big)
        return big_apply(e, v, op, cmp, x, out, err, errlen);
    int64_t n;
    bool yes;
    /* split classes while nothing was asked of the roll face by face, and
     * the dice asked about are not a kept few (items drawn are never split:
     * the splits weigh dice) */
    bool split = !v->keep && r->nasked == 0 && !r->cap;
    uint64_t where = op == OP_FILTER || op == OP_ANY || op == OP_ALL ? faces_where(r, cmp, x) : 0;
    switch (op) {
    case OP_FILTER:
        if (!v->keep) {
            *out = val_pool(lazy_view_of(e, r, v->faces & where));
        } else {
            const Pool *f = kept_pool(e, v, v->keep, v->keep_n);
            ((View *)f->lazy)->post = v->post & where;
            *out = val_pool(f);
        }
        return 0;
    case OP_COUNT:
        if (split && r->kinds > 1 && cut_classes(r, v->faces) > 1)
            split = false;   /* one decision among the counts, not one per class */
        if (split ? lazy_count_in(e, r, v->faces, &n, err, errlen) : ask_number(e, v, FW_COUNT, &n, err, errlen))
            return -1;
        *out = val_int(n);
        return 0;
    case OP_ANY: case OP_ALL: {
        /* all(): no die fails the test */
        uint64_t test = op == OP_ANY ? where : ~where & all_faces(r->sides);
        if (split) {
            if (lazy_any_in(e, r, v->faces & test, &yes, err, errlen))
                return -1;
        } else {
            View t = *v;
            if (t.keep)
                t.post &= test;
            else
                t.faces &= test;
            if (ask_number(e, &t, FW_ANY, &n, err, errlen))
                return -1;
            yes = n;
        }
        *out = val_bool(op == OP_ANY ? yes : !yes);
        return 0;
    }
    case OP_HIGHEST: case OP_LOWEST:
        if (!split) {
            if (ask_number(e, v, op == OP_HIGHEST ? FW_MAX : FW_MIN, &n, err, errlen))
                return -1;
            if (n != FW_NONE) {
                *out = val_int(n);
                return 0;
            }
        } else {
            /* from the top (bottom) value down (up), the first that has dice:
             * the slots of a value asked about together */
            for (int32_t k = 0; k < r->sides;) {
                int32_t x = slot_value(r, op == OP_HIGHEST ? r->sides - k : k + 1);
                uint64_t slots = 0;
                for (; k < r->sides; k++) {
                    int32_t f = op == OP_HIGHEST ? r->sides - k : k + 1;
                    if (slot_value(r, f) != x)
                        break;
                    slots |= (uint64_t)1 << (f - 1);
                }
                if (!(v->faces & slots))
                    continue;
                if (lazy_any_in(e, r, v->faces & slots, &yes, err, errlen))
                    return -1;
                if (yes) {
                    *out = val_int(x);
                    return 0;
                }
            }
        }
        snprintf(err, errlen, "%s() of an empty pool", op == OP_HIGHEST ? "highest" : "lowest");
        return -1;
    case OP_SUM: case OP_DOUBLES:
        if (op == OP_SUM && e->vm->may_defer && r->nasked == 0) {
            /* a fresh roll only added up: its sum stands as a distribution
             * (nothing else asks about the roll, so it asks nothing of it) */
            FwQuestion q = question(v, FW_SUM);
            const FwJoint *joint;
            if (joint_of(e, r, &q, &joint, err, errlen))
                return -1;
            defer_joint(e, joint, out);
            return 0;
        }
        if (ask_number(e, v, op == OP_SUM ? FW_SUM : FW_DOUBLES, &n, err, errlen))
            return -1;
        *out = op == OP_SUM ? val_int(n) : val_bool(n);
        return 0;
    case OP_HIGHEST_N: case OP_LOWEST_N: {
        int32_t keep = op == OP_HIGHEST_N ? 1 : -1;
        if (!v->keep) {
            *out = val_pool(kept_pool(e, v, keep, x.as.i));
            return 0;
        }
        if (v->keep == keep && v->post == all_faces(r->sides)) {
            /* the highest 2 of the highest 3 */
            *out = val_pool(kept_pool(e, v, keep, x.as.i < v->keep_n ? x.as.i : v->keep_n));
            return 0;
        }
        /* kept one way, then the other (or after a filter): from the faces */
        if (settle(e, v, err, errlen))
            return -1;
        *out = val_pool(keep > 0 ? pool_highest(e->vm->scratch, v->plain, x.as.i)
                                 : pool_lowest(e->vm->scratch, v->plain, x.as.i));
        return 0;
    }
    default:
        snprintf(err, errlen, "bad pool instruction %d", (int)op);
        return -1;
    }
}

static const Pool *lazy_faces(DiceSource *self, const Pool *p)
{
    Engine *e = (Engine *)self;
    View *v = (View *)p->lazy;
    char err[sizeof e->vm->error];
    if (settle(e, v, err, sizeof err)) {
        /* the run goes on with no dice here, and is then set aside (over
         * budget or stopped, if it is, wins) */
        if (e->halt == EXACT_DONE) {
            e->halt = EXACT_FAILED;
            snprintf(e->vm->error, sizeof e->vm->error, "%s", err);
        }
        return pool_alloc(e->vm->scratch, p->sides, 0);
    }
    return v->plain;
}

const PoolMethods lazy_pool_methods = { lazy_roll, lazy_apply, lazy_faces, lazy_join, bags_draw, bags_settle };

/* v with every lazy pool in it (records included) replaced by its faces. */
int lazy_settle_value(Engine *e, Value *v)
{
    if (v->tag == VAL_POOL && v->as.p->lazy) {
        View *view = (View *)v->as.p->lazy;
        if (settle(e, view, e->vm->error, sizeof e->vm->error))
            return -1;
        *v = val_pool(view->plain);
    } else if (v->tag == VAL_RECORD) {
        const Record *r = v->as.r;
        Record *copy = NULL;
        for (int32_t i = 0; i < r->n; i++) {
            Value f = r->field[i];
            if (f.tag != VAL_POOL && f.tag != VAL_RECORD)
                continue;
            if (lazy_settle_value(e, &f))
                return -1;
            bool same = f.tag == VAL_POOL ? f.as.p == r->field[i].as.p : f.as.r == r->field[i].as.r;
            if (same)
                continue;
            if (!copy) {
                copy = mem_alloc(sizeof(Record) + sizeof(Value) * (size_t)r->n);
                memcpy(copy, r, sizeof(Record) + sizeof(Value) * (size_t)r->n);
            }
            copy->field[i] = f;
        }
        if (copy)
            *v = val_record(copy);
    }
    return 0;
}
