/* calls.c — the exact engine's calls worked out on their own: rerolling
 * and recursive procedures (fixed points, pending results of tail calls),
 * remembered by arguments and bags. */
#include "config.h"
#include "vm/engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#ifdef __EMSCRIPTEN__
#include <emscripten/stack.h>
#endif

/* Machines nested one in another (a claim's, a rerolling procedure's) each
 * take some C stack, whatever the depth limit says: about 2 KB in a release
 * build and 10 KB in a sanitizer build.  This many at most, so the limit is
 * the same in every build; and never more than half the thread's stack
 * (measured from where the outermost machine nested its first), for a
 * thread or a shell with a small one. */
#define MAX_NESTING 250

static __thread const char *nesting_top;   /* the C stack where nesting began */

static size_t stack_budget(void)
{
    static __thread size_t budget;
    if (!budget) {
        size_t size = 0;
#ifdef __EMSCRIPTEN__
        /* WebAssembly's stack (web/build.sh sets its size): pthread_getattr_np gives 0 there */
        size = emscripten_stack_get_base() - emscripten_stack_get_end();
#else
        pthread_attr_t attr;
        void *addr;
        if (pthread_getattr_np(pthread_self(), &attr) == 0) {
            if (pthread_attr_getstack(&attr, &addr, &size) != 0)
                size = 0;
            pthread_attr_destroy(&attr);
        }
#endif
        if (size == 0)
            size = (size_t)2 << 20;
        if (size > ((size_t)64 << 20))
            size = (size_t)64 << 20;
        budget = size / 2;
    }
    return budget;
}

bool calls_too_deep(Vm *vm, const char *name, char *err, size_t errlen)
{
    char here;
    if (vm->nesting == 0)
        nesting_top = &here;
    size_t used = nesting_top > &here ? (size_t)(nesting_top - &here) : 0;
    if (vm->nesting < MAX_NESTING && used < stack_budget())
        return false;
    if (vm->nesting >= MAX_NESTING)
        snprintf(err, errlen, "recursion limit reached: more than %d claims and rerolling procedures worked out "
                 "one inside another when calling '%s'", MAX_NESTING, name);
    else
        snprintf(err, errlen, "recursion limit reached: claims and rerolling procedures worked out one inside "
                 "another have used half the C stack when calling '%s' (ulimit -s)", name);
    return true;
}

/* A machine of its own for work nested in vm's (a rerolling procedure, a
 * claim), as if called from vm's frame `depth` (-1: before vm's top-level
 * call): the same program, limits, choices and claims worked out, and the
 * calls around it counted towards the depth limit. */
Vm *calls_nested_vm(Vm *vm, int depth)
{
    if (!vm->claims)
        vm->claims = mem_alloc(sizeof(Claims));
    Vm *inner = mem_alloc(sizeof(Vm));   /* not on the C stack, which nesting deepens */
    vm_init(inner, vm->prog, NULL);
    inner->limits = vm->limits;
    inner->choices = vm->choices;
    inner->base_depth = vm->base_depth + depth + 1;
    inner->nesting = vm->nesting + 1;
    inner->claims = vm->claims;
    return inner;
}

bool calls_same_args(const Value *a, const Value *b, int n)
{
    for (int i = 0; i < n; i++)
        if (val_order(a[i], b[i]) != 0)
            return false;
    return true;
}

/* ---- calls of a call being worked out ---- */

/* Of two Workings (or NULL), the one further up the stack. */
static const Working *inner_of(const Working *a, const Working *b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    return a->level > b->level ? a : b;
}

/* The count's odds rest on w's (unless w is what it works out). */
static void note_dep(Engine *e, const Working *w)
{
    if (w && w != e->owner)
        e->dep = inner_of(e->dep, w);
}

/* A Dist remembered is good while what it rests on is in the same round. */
static bool dist_valid(const Dist *d)
{
    return !d->dep || (d->dep->alive && d->dep->gen == d->dep_gen);
}

/* The result of w's call, before it is known: a record of no declared type
 * (-2) holding w's id.  It is only ever returned as it is, up to the count
 * that works w out, which solves for it (eliminate_pending). */
static Value pending_value(const Working *w)
{
    Record *r = mem_alloc(sizeof(Record) + sizeof(Value));
    r->type = -2;
    r->n = 1;
    r->field[0] = val_int(w->id);
    return val_record(r);
}

static bool is_pending(Value v)
{
    return v.tag == VAL_RECORD && v.as.r->type == -2;
}

/* Would a value the call from frame `depth` returns be the result of the
 * machine's call as it is?  Each frame from there down goes straight to a
 * RETURN (past MERGEs, NOTEs, DEFERs, SETTLEs and JUMPs) when the call it
 * made returns. */
static bool is_tail(const Vm *vm, int depth)
{
    if (depth < 0)
        return false;
    for (int k = depth; k >= 0; k--) {
        const Proto *p = vm->frames[k].proto;
        int pc = (int)(vm->frames[k].ip - p->code);
        for (;;) {
            if (pc >= p->len)
                return false;
            uint8_t op = p->code[pc];
            if (op == OP_RETURN)
                break;
            if (op == OP_JUMP)
                pc = chunk_jump_target(p->code, pc);
            else if (op == OP_MERGE || op == OP_NOTE || op == OP_DEFER || op == OP_SETTLE)
                pc += chunk_insn_len(p->code, pc);
            else
                return false;
        }
    }
    return true;
}

/* A round of w's count is done: its own pending result, worth m, is the
 * result again, so the odds are the rest divided by 1 - m (an absorbing
 * chain solved exactly).  False when nothing but the call itself is ever
 * reached (m = 1): the call never ends. */
static bool eliminate_pending(Dist *d, const Working *w)
{
    ExactResult *r = &d->r;
    int at = -1;
    for (int i = 0; i < r->n; i++)
        if (is_pending(r->outcomes[i].value) && r->outcomes[i].value.as.r->field[0].as.i == w->id)
            at = i;
    d->pending = false;
    if (at < 0) {
        for (int i = 0; i < r->n; i++)
            d->pending = d->pending || is_pending(r->outcomes[i].value);
        return true;
    }
    mpq_t rest;
    mpq_init(rest);
    mpq_set_ui(rest, 1, 1);
    mpq_sub(rest, rest, r->outcomes[at].p);
    mpq_clear(r->outcomes[at].p);
    memmove(&r->outcomes[at], &r->outcomes[at + 1], sizeof(ExactOutcome) * (size_t)(r->n - at - 1));
    r->n--;
    if (mpq_sgn(rest) <= 0) {
        mpq_clear(rest);
        return false;
    }
    for (int i = 0; i < r->n; i++) {
        mpq_div(r->outcomes[i].p, r->outcomes[i].p, rest);
        d->pending = d->pending || is_pending(r->outcomes[i].value);
    }
    mpq_div(r->not_given, r->not_given, rest);
    mpq_div(r->dropped, r->dropped, rest);
    mpq_clear(rest);
    return true;
}

/* The odds of every result of a recursive call, worked out round by round:
 * the first round answers the calls of itself inside itself (same
 * procedure, same arguments) as cut off, each later round answers them with
 * the odds of the round before, so round k has the recursion cut at depth
 * k; it stops when the share cut off is below EXACT_CUT_BELOW (or nothing
 * was cut, or after max_decisions rounds).  Calls with other arguments are
 * worked out on their own and remembered, so a duel whose states never
 * repeat is counted once per state.  *tainted: the result used the odds so
 * far of a call below it, so is not final. */
static ExactStatus fixed_point(Vm *inner, Shared *sh, Dist *d, bool approx)
{
    /* round 1: every call of itself cut off */
    Dist *prev = mem_alloc(sizeof *prev);
    mpq_inits(prev->r.not_given, prev->r.dropped, NULL);
    mpq_set_ui(prev->r.dropped, 1, 1);
    Working *w = mem_alloc(sizeof *w);   /* (the Dists that rest on it point at it) */
    *w = (Working){ .proto = d->proto, .args = d->args, .nargs = d->nargs, .bags = d->bags, .approx = prev,
                    .below = sh->working, .id = ++sh->next_id, .alive = true };
    w->level = w->below ? w->below->level + 1 : 1;
    sh->working = w;
    ExactStatus status;
    for (int round = 1;; round++) {
        w->used = false;
        w->gen = ++sh->next_gen;
        sh->next_owner = w;
        sh->next_approx = approx;
        status = exact_count(inner, sh, d->proto, d->args, d->nargs, NULL, NULL, &d->r);
        w->dep = inner_of(w->dep, sh->last_dep);
        if (status == EXACT_DONE && !eliminate_pending(d, w)) {
            snprintf(inner->error, sizeof inner->error, "'%s' never ends: every way of the dice comes back to "
                     "this same call, so it never gives a result", inner->prog->protos[d->proto]->name);
            status = EXACT_FAILED;
        }
        if (status != EXACT_DONE || !w->used || mpq_get_d(d->r.dropped) < EXACT_CUT_BELOW
            || round >= sh->opts->max_decisions)
            break;
        /* the next round answers the calls inside with this round's odds */
        Dist *next = mem_alloc(sizeof *next);
        *next = *d;
        w->approx = next;
        exact_clear(&prev->r);
        prev = next;
    }
    exact_clear(&prev->r);
    w->alive = false;
    sh->working = w->below;
    d->dep = w->dep;
    return status;
}

static bool same_bags(const int64_t *a, const int64_t *b, int64_t n)
{
    if (!a || !b)
        return a == b;
    return !memcmp(a, b, sizeof(int64_t) * (size_t)n);
}

/* A call's key for Shared.memo: equal arguments (by val_order: the int 2 and
 * the rational 2/1 alike) and bags hash alike. */
static uint64_t call_hash(int proto, const Value *args, int nargs, const int64_t *bags, int64_t nbags)
{
    uint64_t h = (uint64_t)proto * 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < nargs; i++) {
        const Value *v = &args[i];
        uint64_t w = 0;
        if (val_is_scalar(v->tag))
            w = (uint64_t)val_scalar_payload(v);
        else if (v->tag == VAL_RAT)
            w = v->as.q.den == 1 ? (uint64_t)v->as.q.num : (uint64_t)v->as.q.num * 31 + (uint64_t)v->as.q.den;
        h = (h ^ w) * 0x100000001b3ULL + (uint64_t)i;
    }
    for (int64_t i = 0; bags && i < nbags; i++)
        h = (h ^ (uint64_t)bags[i]) * 0xc2b2ae3d27d4eb4fULL;
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 31);
}

/* The call's distribution remembered and still good (with pending results
 * only where `pending` allows them), else NULL; those no longer good are
 * let go on the way. */
static const Dist *memo_find(Shared *s, int proto, const Value *args, int nargs, const int64_t *bags,
                             int64_t nbags, bool pending)
{
    if (!s->memo_cap)
        return NULL;
    for (Dist **at = &s->memo[call_hash(proto, args, nargs, bags, nbags) & (s->memo_cap - 1)]; *at;) {
        Dist *m = *at;
        if (!dist_valid(m)) {
            *at = m->next;
            s->memo_n--;
            continue;
        }
        if (m->proto == proto && (pending || !m->pending) && calls_same_args(m->args, args, nargs)
            && same_bags(m->bags, bags, nbags))
            return m;
        at = &m->next;
    }
    return NULL;
}

static void memo_add(Shared *s, Dist *d, int64_t nbags)
{
    if (s->memo_n >= s->memo_cap / 2) {
        size_t cap = s->memo_cap ? s->memo_cap * 2 : 64;
        Dist **tab = mem_alloc(sizeof(Dist *) * cap);
        for (size_t i = 0; i < s->memo_cap; i++)
            for (Dist *m = s->memo[i], *next; m; m = next) {
                next = m->next;
                size_t b = call_hash(m->proto, m->args, m->nargs, m->bags, nbags) & (cap - 1);
                m->next = tab[b];
                tab[b] = m;
            }
        s->memo = tab;
        s->memo_cap = cap;
    }
    size_t b = call_hash(d->proto, d->args, d->nargs, d->bags, nbags) & (s->memo_cap - 1);
    d->next = s->memo[b];
    s->memo[b] = d;
    s->memo_n++;
}

/* A result of a call worked out from bags part drawn (Vm.bag_start): the
 * pair of it and what the bags have left after it, as one value (a record
 * of no declared type: the result, then each count), so that results equal
 * but for the bags stay apart. */
Value calls_bags_pair(const Vm *vm, Value result)
{
    int64_t n = vm->prog->bag_items;
    Record *r = mem_alloc(sizeof(Record) + sizeof(Value) * (size_t)(n + 1));
    r->type = -1;
    r->n = (int32_t)(n + 1);
    r->field[0] = result;
    for (int64_t i = 0; i < n; i++)
        r->field[i + 1] = val_int(vm->bag_left[i]);
    return val_record(r);
}

/* A Dist for the call of proto `index` with args (kept) and bags (copied). */
static Dist *new_dist(int index, int nargs, const Value *args, const int64_t *bags, int64_t nbags)
{
    Dist *made = mem_alloc(sizeof *made);
    made->proto = index;
    made->nargs = nargs;
    made->args = mem_alloc(sizeof(Value) * (size_t)(nargs + 1));
    for (int i = 0; i < nargs; i++)
        made->args[i] = vm_keep(args[i]);
    if (bags) {
        int64_t *copy = mem_alloc_atomic(sizeof(int64_t) * (size_t)nbags);
        memcpy(copy, bags, sizeof(int64_t) * (size_t)nbags);
        made->bags = copy;
    }
    return made;
}

/* The odds of made's call, on the machine `inner`: a recursive procedure
 * round by round (fixed_point), another in one count; made->dep is what
 * they rest on. */
static ExactStatus work_out(Engine *e, Vm *inner, const Proto *callee, Dist *made, bool approx)
{
    Shared *sh = e->shared;
    inner->bag_start = made->bags;
    /* what the call leaves in the bags is part of its result only when
     * anything may draw after it */
    made->paired = inner->bag_pair = made->bags && callee->drawn_after;
    if (callee->recursive)
        return fixed_point(inner, sh, made, approx);
    sh->next_owner = NULL;
    sh->next_approx = approx;
    ExactStatus status = exact_count(inner, sh, made->proto, made->args, made->nargs, NULL, NULL, &made->r);
    made->dep = sh->last_dep;
    return status;
}

/* A call of a procedure that rerolls, from frame `depth` of the engine's
 * machine: its own conditioned distribution, one choice among its results.
 * 1 with *result set, or -1.  With `whole_error` a failure of the
 * distribution leaves the inner machine's error, place and callers in the
 * engine's (for a call made outside the interpreter, which has no place of
 * its own to report). */
int calls_answer(Engine *e, int index, const Value *call_args, int depth, bool whole_error, Value *result)
{
    const Proto *callee = e->vm->prog->protos[index];
    /* the callee is worked out on its own: a lazy pool among the arguments
     * goes as its faces */
    Value *args = mem_alloc(sizeof(Value) * (size_t)(callee->nparams + 1));
    for (int i = 0; i < callee->nparams; i++) {
        args[i] = call_args[i];
        if (lazy_settle_value(e, &args[i]))
            return -1;       /* over budget, if it is, is in e->halt */
    }
    const Dist *dist = NULL;
    /* a procedure that draws: worked out from what the bags have left now */
    int64_t nbags = e->vm->prog->bag_items;
    if (callee->draws && bags_settle(&e->base, e->vm->error, sizeof e->vm->error))
        return -1;           /* (what the bags have left is part of the call) */
    const int64_t *bags = callee->draws ? e->vm->bag_left : NULL;
    /* may its result stand for itself (a pending result) until the count
     * that works out a call below solves for it?  Where it is returned as it
     * is, up to such a count */
    bool tail = e->owner && !e->approx && !callee->draws && is_tail(e->vm, depth);
    /* the same call, inside itself: in a tail call its pending result, else
     * its odds so far; either way what is worked out here rests on it */
    for (Working *w = e->shared->working; w && !dist; w = w->below)
        if (w->proto == index && calls_same_args(w->args, args, callee->nparams) && same_bags(w->bags, bags, nbags)) {
            note_dep(e, w);
            if (tail) {
                *result = pending_value(w);
                return 1;
            }
            w->used = true;
            dist = w->approx;
        }
    if (!dist)
        dist = memo_find(e->shared, index, args, callee->nparams, bags, nbags, tail);
    if (!dist) {
        char deep[sizeof e->vm->error];
        if (calls_too_deep(e->vm, callee->name, deep, sizeof deep)) {
            /* a recursive call too deep to work out on its own is run on the
             * path, as any call is (and cut with it after max_decisions rolls) */
            if (!callee->rerolls)
                return 0;
            memcpy(e->vm->error, deep, sizeof deep);
            return -1;
        }
        Dist *made = new_dist(index, callee->nparams, args, bags, nbags);
        Vm *inner = calls_nested_vm(e->vm, depth);
        ExactStatus status = work_out(e, inner, callee, made, e->approx);
        if (status == EXACT_DONE && made->pending && !tail) {
            /* its odds rest on a pending result, which cannot be used here:
             * worked out again from the odds so far instead */
            made = new_dist(index, callee->nparams, args, bags, nbags);
            inner = calls_nested_vm(e->vm, depth);
            status = work_out(e, inner, callee, made, true);
        }
        dist = made;
        if (status != EXACT_DONE) {
            /* hand the inner error up: a failure ends this run with the
             * inner error, over budget ends the whole count */
            Vm *vm = e->vm;
            memcpy(vm->error, inner->error, sizeof vm->error);
            if (status == EXACT_OVER_BUDGET) {
                if (e->halt == EXACT_DONE)
                    e->halt = EXACT_OVER_BUDGET;
            } else if (whole_error) {
                vm->error_proto = inner->error_proto;
                vm->error_offset = inner->error_offset;
                vm->error_depth = inner->error_depth;
                vm->error_unknown = inner->error_unknown;
                vm->frames = inner->frames;
                vm->frames_cap = inner->frames_cap;
            }
            return -1;
        }
        /* remembered, for as long as what it rests on is (dist_valid) */
        made->dep_gen = made->dep ? made->dep->gen : 0;
        memo_add(e->shared, made, nbags);
    }
    note_dep(e, dist->dep);
    char err[sizeof e->vm->error];
    if (decide_count_roll(e, err, sizeof err))
        return -1;
    /* only added up and returned: its distribution stands for it */
    if (e->vm->may_defer && !dist->paired && !dist->pending && defer_dist(e, dist, result))
        return 1;
    int64_t option;
    if (decide_dist(e, dist, &option))
        return -1;
    if (option < dist->r.n) {
        Value v = dist->r.outcomes[option].value;
        if (dist->paired) {
            /* the result, and the bags as the call left them */
            const Record *pair = v.as.r;
            for (int64_t i = 0; i < nbags; i++)
                e->vm->bag_left[i] = pair->field[i + 1].as.i;
            v = pair->field[0];
        }
        *result = v;
        return 1;
    }
    e->end = option == dist->r.n ? PATH_NOT_GIVEN : PATH_CUT;
    return -1;
}

/* The VM's hook: a CALL of a procedure that rerolls. */
int calls_intercept(void *ud, const Proto *callee, int index, const Value *args, int depth, Value *result)
{
    (void)callee;
    return calls_answer(ud, index, args, depth, false, result);
}
