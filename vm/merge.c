/* merge.c — the exact engine's states, and the runs that meet in them (see merge.h). */
#include "config.h"
#include "vm/merge.h"
#include "base/mem.h"
#include "vm/pool.h"

#include <string.h>

/* ---- liveness ---- */

typedef struct LiveProto {
    const Proto *proto;
    int words;               /* per instruction: bit s of word s / 64 for local slot s */
    uint64_t *at;            /* (len + 1) * words: the locals read later, from each pc on */
    struct LiveProto *next;
} LiveProto;

struct MergeLive {
    LiveProto **tab;         /* by the proto's address; cap a power of two */
    size_t cap, n;
};

MergeLive *merge_live_new(void)
{
    MergeLive *l = mem_alloc(sizeof *l);
    l->cap = 64;
    l->tab = mem_alloc(sizeof(LiveProto *) * l->cap);
    return l;
}

static size_t proto_bucket(const Proto *p, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ULL;
    return (size_t)(h >> 32) & (cap - 1);
}

static void set_bit(uint64_t *w, int s)
{
    w[s / 64] |= (uint64_t)1 << (s % 64);
}

/* One backward pass: every jump goes forward, so an instruction's
 * successors are worked out before it.  live(pc) = reads(pc) + (the
 * successors' live - writes(pc)). */
static void work_out_live(LiveProto *lp)
{
    const Proto *p = lp->proto;
    const uint8_t *code = p->code;
    int W = lp->words, len = p->len, npcs = 0;
    int *pcs = mem_alloc_atomic(sizeof(int) * (size_t)(len + 1));
    for (int pc = 0; pc < len; pc += chunk_insn_len(code, pc))
        pcs[npcs++] = pc;
    for (int k = npcs - 1; k >= 0; k--) {
        int pc = pcs[k];
        uint8_t op = code[pc];
        uint64_t *in = lp->at + (size_t)pc * (size_t)W;
        const uint64_t *next = lp->at + (size_t)(pc + chunk_insn_len(code, pc)) * (size_t)W;
        bool falls = !op_is(op, OPF_ENDS) && op != OP_JUMP;
        const uint64_t *jump = chunk_is_jump(op) ? lp->at + (size_t)chunk_jump_target(code, pc) * (size_t)W : NULL;
        for (int w = 0; w < W; w++)
            in[w] = (falls ? next[w] : 0) | (jump ? jump[w] : 0);
        if (op_is(op, OPF_WRITES))
            in[code[pc + 1] / 64] &= ~((uint64_t)1 << (code[pc + 1] % 64));
        switch (op) {
        case OP_LOAD: case OP_RETURNL: case OP_JUMP_UNLESS_L:
            set_bit(in, code[pc + 1]);
            break;
        case OP_LOADN:
            for (int s = code[pc + 1]; s < code[pc + 1] + code[pc + 2]; s++)
                set_bit(in, s);
            break;
        case OP_REROLL:
            /* the procedure begins again, from its arguments */
            for (int s = 0; s < p->nparams; s++)
                set_bit(in, s);
            break;
        default:
            break;
        }
    }
}

static const uint64_t *live_at(MergeLive *l, const Proto *p, int pc)
{
    LiveProto *lp = l->tab[proto_bucket(p, l->cap)];
    while (lp && lp->proto != p)
        lp = lp->next;
    if (!lp) {
        if (l->n >= l->cap / 2) {
            size_t cap = l->cap * 2;
            LiveProto **tab = mem_alloc(sizeof(LiveProto *) * cap);
            for (size_t i = 0; i < l->cap; i++)
                for (LiveProto *x = l->tab[i], *nx; x; x = nx) {
                    nx = x->next;
                    size_t b = proto_bucket(x->proto, cap);
                    x->next = tab[b];
                    tab[b] = x;
                }
            l->tab = tab;
            l->cap = cap;
        }
        lp = mem_alloc(sizeof *lp);
        lp->proto = p;
        lp->words = p->nlocals > 0 ? (p->nlocals + 63) / 64 : 1;
        size_t bytes = sizeof(uint64_t) * (size_t)lp->words * (size_t)(p->len + 1);
        lp->at = mem_alloc_atomic(bytes);
        memset(lp->at, 0, bytes);
        work_out_live(lp);
        size_t b = proto_bucket(p, l->cap);
        lp->next = l->tab[b];
        l->tab[b] = lp;
        l->n++;
    }
    return lp->at + (size_t)pc * (size_t)lp->words;
}

/* ---- values in a state ---- */

/* Can v be compared as it is?  Not a lazy pool, whose dice the engine
 * keeps in its own record (and whose refinement is part of the run). */
static bool keyable(Value v)
{
    if (v.tag == VAL_POOL)
        return !v.as.p->lazy;
    if (v.tag == VAL_RECORD) {
        for (int32_t i = 0; i < v.as.r->n; i++)
            if (!keyable(v.as.r->field[i]))
                return false;
    }
    return true;
}

static uint64_t mix(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0x100000001b3ULL;
    return h ^ (h >> 29);
}

static uint64_t hash_value(Value v)
{
    uint64_t h = mix(0xcbf29ce484222325ULL, (uint64_t)v.tag << 32 | (uint32_t)v.enum_id);
    switch (v.tag) {
    case VAL_RAT:
        return mix(mix(h, (uint64_t)v.as.q.num), (uint64_t)v.as.q.den);
    case VAL_STR:
        for (size_t i = 0; i < v.as.s->len; i++)
            h = mix(h, (uint8_t)v.as.s->bytes[i]);
        return h;
    case VAL_POOL: {
        /* the faces, in any order */
        uint64_t sum = 0;
        for (int64_t i = 0; i < v.as.p->n; i++)
            sum += (uint64_t)(int64_t)v.as.p->face[i] * 0x9e3779b97f4a7c15ULL + 1;
        return mix(mix(h, (uint64_t)v.as.p->n), sum);
    }
    case VAL_RECORD:
        h = mix(h, (uint64_t)v.as.r->type);
        for (int32_t i = 0; i < v.as.r->n; i++)
            h = mix(h, hash_value(v.as.r->field[i]));
        return h;
    default:
        return mix(h, (uint64_t)v.as.i);
    }
}

static bool same_value(Value a, Value b)
{
    if (a.tag != b.tag || a.enum_id != b.enum_id)
        return false;
    switch (a.tag) {
    case VAL_RAT:
        return a.as.q.num == b.as.q.num && a.as.q.den == b.as.q.den;
    case VAL_STR:
        return a.as.s->len == b.as.s->len && !memcmp(a.as.s->bytes, b.as.s->bytes, a.as.s->len);
    case VAL_POOL:
        return a.as.p->sides == b.as.p->sides && a.as.p->symbols == b.as.p->symbols && val_order(a, b) == 0;
    case VAL_RECORD:
        if (a.as.r->type != b.as.r->type || a.as.r->n != b.as.r->n)
            return false;
        for (int32_t i = 0; i < a.as.r->n; i++)
            if (!same_value(a.as.r->field[i], b.as.r->field[i]))
                return false;
        return true;
    default:
        return a.as.i == b.as.i;
    }
}

/* ---- states ---- */

typedef struct State {
    uint64_t hash;
    int nints, nvals;
    int64_t *ints;           /* per frame: its proto, pc and size; then the engine's own */
    Value *vals;             /* the live locals and the stack, frame by frame */
    int ints_cap, vals_cap;  /* (a state being built) */
} State;

static void put_int(State *s, int64_t i)
{
    if (s->nints == s->ints_cap) {
        int cap = s->ints_cap ? s->ints_cap * 2 : 32;
        int64_t *n = mem_alloc_atomic(sizeof(int64_t) * (size_t)cap);
        if (s->nints)
            memcpy(n, s->ints, sizeof(int64_t) * (size_t)s->nints);
        s->ints = n;
        s->ints_cap = cap;
    }
    s->ints[s->nints++] = i;
    s->hash = mix(s->hash, (uint64_t)i);
}

static bool put_value(State *s, Value v)
{
    if (!keyable(v))
        return false;
    if (s->nvals == s->vals_cap) {
        int cap = s->vals_cap ? s->vals_cap * 2 : 32;
        Value *n = mem_alloc(sizeof(Value) * (size_t)cap);
        if (s->nvals)
            memcpy(n, s->vals, sizeof(Value) * (size_t)s->nvals);
        s->vals = n;
        s->vals_cap = cap;
    }
    s->vals[s->nvals++] = v;
    s->hash = mix(s->hash, hash_value(v));
    return true;
}

/* The state of vm at a MERGE in frame `depth`: false if it holds a value
 * that cannot be compared. */
static bool build(State *s, MergeLive *live, const Vm *vm, int depth, const Value *sp, const int64_t *extra,
                  int nextra)
{
    s->hash = 0x84222325cbf29ce4ULL;
    s->nints = s->nvals = 0;
    for (int k = 0; k <= depth; k++) {
        const Frame *f = &vm->frames[k];
        const Proto *p = f->proto;
        int pc = (int)(f->ip - p->code);
        const Value *end = k < depth ? vm->frames[k + 1].base : sp;
        put_int(s, (int64_t)(intptr_t)p);
        put_int(s, pc);
        put_int(s, end - f->base);
        const uint64_t *l = live_at(live, p, pc);
        for (int slot = 0; slot < p->nlocals; slot++)
            if ((l[slot / 64] >> (slot % 64) & 1) && !put_value(s, f->base[slot]))
                return false;
        for (const Value *v = f->base + p->nlocals; v < end; v++)
            if (!put_value(s, *v))
                return false;
    }
    for (int i = 0; i < nextra; i++)
        put_int(s, extra[i]);
    return true;
}

static bool same_state(const State *a, const State *b)
{
    if (a->hash != b->hash || a->nints != b->nints || a->nvals != b->nvals
        || memcmp(a->ints, b->ints, sizeof(int64_t) * (size_t)a->nints))
        return false;
    for (int i = 0; i < a->nvals; i++)
        if (!same_value(a->vals[i], b->vals[i]))
            return false;
    return true;
}

/* A copy of s that outlives the run (its values kept). */
static State keep_state(const State *s)
{
    State k = { .hash = s->hash, .nints = s->nints, .nvals = s->nvals };
    k.ints = mem_alloc_atomic(sizeof(int64_t) * (size_t)(s->nints ? s->nints : 1));
    memcpy(k.ints, s->ints, sizeof(int64_t) * (size_t)s->nints);
    k.vals = mem_alloc(sizeof(Value) * (size_t)(s->nvals ? s->nvals : 1));
    for (int i = 0; i < s->nvals; i++)
        k.vals[i] = vm_keep(s->vals[i]);
    return k;
}

/* ---- weights of states ---- */

/* Weights of states counted already, by their index (ascending): each run
 * that ends at one adds its probability to the state's weight, and the
 * state's distribution is added in, times the weight, once at the end
 * (merger_expand), not once per run. */
typedef struct Coefs {
    int n, cap;
    int *id;
    mpq_t *w;
} Coefs;

static int coefs_place(Coefs *c, int id)
{
    int lo = 0, hi = c->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (c->id[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < c->n && c->id[lo] == id)
        return lo;
    if (c->n == c->cap) {
        int cap = c->cap ? c->cap * 2 : 8;
        int *ids = mem_alloc_atomic(sizeof(int) * (size_t)cap);
        mpq_t *w = mem_alloc(sizeof(mpq_t) * (size_t)cap);
        if (c->n) {
            memcpy(ids, c->id, sizeof(int) * (size_t)c->n);
            memcpy(w, c->w, sizeof(mpq_t) * (size_t)c->n);
        }
        c->id = ids;
        c->w = w;
        c->cap = cap;
    }
    memmove(&c->id[lo + 1], &c->id[lo], sizeof(int) * (size_t)(c->n - lo));
    memmove(&c->w[lo + 1], &c->w[lo], sizeof(mpq_t) * (size_t)(c->n - lo));
    c->id[lo] = id;
    mpq_init(c->w[lo]);
    c->n++;
    return lo;
}

/* to += from * num/den */
static void coefs_add_all(Coefs *to, const Coefs *from, mpz_srcptr num, mpz_srcptr den)
{
    mpz_t tn, td;
    mpz_inits(tn, td, NULL);
    for (int i = 0; i < from->n; i++) {
        int k = coefs_place(to, from->id[i]);
        mpz_mul(tn, mpq_numref(from->w[i]), num);
        mpz_mul(td, mpq_denref(from->w[i]), den);
        tally_add(to->w[k], tn, td);
    }
    mpz_clears(tn, td, NULL);
}

/* ---- frames and what they came to ---- */

typedef struct MergeFrame {
    int start;               /* the index of its first decision */
    State state;
    /* The runs below it that ended, and those that reached a state counted
     * already, by their probability given the frame's state: a path's
     * weight is the product of its decisions' (never reduced), so it is
     * the product up to the frame's state times the rest, and dividing by
     * the first is exact (mpz_divexact, no gcd). */
    Tally t;
    Coefs kids;
    mpz_t num, den;          /* the probability of reaching it (a path's weight) */
    mpz_t rel_num, rel_den;  /* ... given the frame around it */
} MergeFrame;

typedef struct Entry {
    State state;
    /* its continuations' distribution, given the state: outcomes, and
     * states counted before it with their probabilities */
    Tally given;
    Coefs kids;
    int id;                  /* its index in Merger.entries */
    struct Entry *next;
} Entry;

struct Merger {
    MergeLive *live;
    State building, waiting;
    bool has_waiting;
    MergeFrame *frames;
    int nframes, frames_cap;
    Entry **tab;             /* cap a power of two */
    size_t cap;
    Entry **entries;         /* by index, in the order they were counted */
    int n, entries_cap;
    Coefs top;               /* the states reached outside every frame */
};

Merger *merger_new(MergeLive *live)
{
    Merger *m = mem_alloc(sizeof *m);
    m->live = live;
    m->cap = 256;
    m->tab = mem_alloc(sizeof(Entry *) * m->cap);
    return m;
}

size_t merger_states(const Merger *m)
{
    return (size_t)m->n;
}

static int find(const Merger *m, const State *s)
{
    for (const Entry *e = m->tab[s->hash & (m->cap - 1)]; e; e = e->next)
        if (same_state(&e->state, s))
            return e->id;
    return -1;
}

static void add_entry(Merger *m, Entry *e)
{
    if ((size_t)m->n >= m->cap / 2) {
        size_t cap = m->cap * 2;
        Entry **tab = mem_alloc(sizeof(Entry *) * cap);
        for (size_t i = 0; i < m->cap; i++)
            for (Entry *x = m->tab[i], *nx; x; x = nx) {
                nx = x->next;
                x->next = tab[x->state.hash & (cap - 1)];
                tab[x->state.hash & (cap - 1)] = x;
            }
        m->tab = tab;
        m->cap = cap;
    }
    if (m->n == m->entries_cap) {
        int cap = m->entries_cap ? m->entries_cap * 2 : 64;
        Entry **es = mem_alloc(sizeof(Entry *) * (size_t)cap);
        if (m->n)
            memcpy(es, m->entries, sizeof(Entry *) * (size_t)m->n);
        m->entries = es;
        m->entries_cap = cap;
    }
    e->id = m->n;
    m->entries[m->n++] = e;
    e->next = m->tab[e->state.hash & (m->cap - 1)];
    m->tab[e->state.hash & (m->cap - 1)] = e;
}

int merger_at(Merger *m, const Vm *vm, int depth, const Value *sp, const int64_t *extra, int nextra, int *hit)
{
    /* a state that cannot be taken leaves the one waiting, if any: no
     * decision came between them, so the runs below either are the same */
    if (!build(&m->building, m->live, vm, depth, sp, extra, nextra))
        return 0;
    int id = find(m, &m->building);
    if (id >= 0) {
        *hit = id;
        return 1;
    }
    State t = m->waiting;    /* the buffers swap: the one built waits */
    m->waiting = m->building;
    m->building = t;
    m->has_waiting = true;
    return 0;
}

void merger_given(const Merger *m, mpz_srcptr num, mpz_srcptr den, mpz_ptr rn, mpz_ptr rd)
{
    if (!m->nframes) {
        mpz_set(rn, num);
        mpz_set(rd, den);
        return;
    }
    const MergeFrame *f = &m->frames[m->nframes - 1];
    mpz_divexact(rn, num, f->num);
    mpz_divexact(rd, den, f->den);
}

void merger_hit(Merger *m, int id, mpz_srcptr num, mpz_srcptr den)
{
    Coefs *c = m->nframes ? &m->frames[m->nframes - 1].kids : &m->top;
    int k = coefs_place(c, id);   /* (before c->w is read: it may move) */
    tally_add(c->w[k], num, den);
}

void merger_decision(Merger *m, int at, mpz_srcptr num, mpz_srcptr den)
{
    if (!m->has_waiting)
        return;
    m->has_waiting = false;
    if (m->nframes == m->frames_cap) {
        int cap = m->frames_cap ? m->frames_cap * 2 : 16;
        MergeFrame *f = mem_alloc(sizeof(MergeFrame) * (size_t)cap);
        if (m->nframes)
            memcpy(f, m->frames, sizeof(MergeFrame) * (size_t)m->nframes);
        m->frames = f;
        m->frames_cap = cap;
    }
    MergeFrame *f = &m->frames[m->nframes];
    f->start = at;
    f->state = keep_state(&m->waiting);
    tally_init(&f->t);
    f->kids = (Coefs){ 0 };
    mpz_init_set(f->num, num);
    mpz_init_set(f->den, den);
    mpz_inits(f->rel_num, f->rel_den, NULL);
    merger_given(m, num, den, f->rel_num, f->rel_den);
    m->nframes++;
}

void merger_run_over(Merger *m)
{
    m->has_waiting = false;
}

Tally *merger_tally(Merger *m, Tally *top)
{
    return m->nframes ? &m->frames[m->nframes - 1].t : top;
}

void merger_close(Merger *m, int at, bool remember, Tally *top)
{
    while (m->nframes && m->frames[m->nframes - 1].start >= at) {
        MergeFrame *f = &m->frames[--m->nframes];
        tally_add_scaled(merger_tally(m, top), &f->t, f->rel_num, f->rel_den);
        coefs_add_all(m->nframes ? &m->frames[m->nframes - 1].kids : &m->top, &f->kids, f->rel_num, f->rel_den);
        if (remember && find(m, &f->state) < 0) {
            Entry *e = mem_alloc(sizeof *e);
            e->state = f->state;
            e->given = f->t;
            e->kids = f->kids;
            /* in lowest terms once, for every run that reaches it */
            tally_finish(&e->given);
            for (int i = 0; i < e->kids.n; i++)
                mpq_canonicalize(e->kids.w[i]);
            add_entry(m, e);
        }
        mpz_clears(f->num, f->den, f->rel_num, f->rel_den, NULL);
    }
}

void merger_expand(Merger *m, Tally *top)
{
    /* every state's weight, from the last counted to the first: a state's
     * own states were counted before it */
    mpq_t *w = mem_alloc(sizeof(mpq_t) * (size_t)(m->n ? m->n : 1));
    for (int i = 0; i < m->n; i++)
        mpq_init(w[i]);
    for (int i = 0; i < m->top.n; i++)
        tally_add(w[m->top.id[i]], mpq_numref(m->top.w[i]), mpq_denref(m->top.w[i]));
    mpz_t tn, td;
    mpz_inits(tn, td, NULL);
    for (int id = m->n - 1; id >= 0; id--) {
        if (mpq_sgn(w[id]) == 0)
            continue;
        mpq_canonicalize(w[id]);
        const Entry *e = m->entries[id];
        tally_add_scaled(top, &e->given, mpq_numref(w[id]), mpq_denref(w[id]));
        for (int i = 0; i < e->kids.n; i++) {
            mpz_mul(tn, mpq_numref(w[id]), mpq_numref(e->kids.w[i]));
            mpz_mul(td, mpq_denref(w[id]), mpq_denref(e->kids.w[i]));
            tally_add(w[e->kids.id[i]], tn, td);
        }
        mpq_clear(w[id]);
    }
    mpz_clears(tn, td, NULL);
    m->top.n = 0;
}
