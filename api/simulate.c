/* simulate.c — odds by simulation: trials in blocks on threads, and tallies.
 *
 * Each block of SIM_BLOCK trials has a random stream of its own, seeded from
 * the run's seed and the block's number, and the blocks are shared out among
 * the threads, so the counts are the same whatever the number of threads.
 * simulate and tally are the hot loop of `muster prob`: each trial is one
 * call on the VM (or a block of calls of the specialized proto, or a batch
 * of it run instruction by instruction, vm/batch.h) and one count, with no
 * allocation once the worker has warmed up.
 */
#include "config.h"
#include "api/internal.h"
#include "api/pace.h"
#include "api/progress.h"
#include "compiler/specialize.h"
#include "vm/batch.h"

#include <string.h>
#include <pthread.h>
#include <unistd.h>

static void tally_n(Tallies *t, Value v, uint64_t n);
static void tally_hashed(Tallies *t, const Value *v);

static inline void tally(Tallies *t, const Value *vp)
{
    ValTag tag = vp->tag;
    if ((tag == VAL_INT || tag == VAL_ENUM) && t->direct && tag == t->direct_tag && vp->enum_id == t->direct_enum) {
        /* the usual case, first and short */
        uint64_t k = (uint64_t)vp->as.i - (uint64_t)TALLY_DIRECT_LO;   /* (unsigned: no overflow) */
        if (k < TALLY_DIRECT_N) {
            t->direct[k]++;
            return;
        }
    }
    Value v = *vp;
    if (v.tag == VAL_INT || v.tag == VAL_ENUM || v.tag == VAL_BOOL) {
        uint64_t k = (uint64_t)(v.tag == VAL_BOOL ? (int64_t)v.as.b : v.as.i) - (uint64_t)TALLY_DIRECT_LO;
        if (!t->direct) {
            t->direct = mem_alloc_atomic(sizeof(uint64_t) * TALLY_DIRECT_N);
            memset(t->direct, 0, sizeof(uint64_t) * TALLY_DIRECT_N);
            t->direct_tag = v.tag;
            t->direct_enum = v.enum_id;
        }
        if (k < TALLY_DIRECT_N && v.tag == t->direct_tag && v.enum_id == t->direct_enum) {
            t->direct[k]++;
            return;
        }
    }
    tally_hashed(t, vp);
}

/* A result of a batch: its payload x as a value of kind's tag and enum. */
static inline Value lane_value(Value kind, int64_t x)
{
    return kind.tag == VAL_BOOL ? val_bool(x != 0) : val_make(kind.tag, kind.enum_id, x);
}

/* The n results of a batch, all of one kind, but for those that are a '?'
 * (site[i] >= 0, when site is not NULL), which are counted apart: counted
 * as tally counts them, straight into the array where they fall in it (no
 * value made of each, and no branch on which are a '?', which falls as
 * the dice do). */
static void tally_lanes(Tallies *t, Value kind, const int64_t *x, const int64_t *site, uint64_t n)
{
    uint64_t i = 0;
    while (!t->direct && i < n) {
        /* (the first result counted makes the array) */
        if (!site || site[i] < 0) {
            Value v = lane_value(kind, x[i]);
            tally(t, &v);
        }
        i++;
    }
    if (t->direct && t->direct_tag == kind.tag && t->direct_enum == kind.enum_id)
        for (; i < n; i++) {
            uint64_t k = (uint64_t)x[i] - (uint64_t)TALLY_DIRECT_LO;   /* (unsigned: no overflow) */
            uint64_t given = site ? (uint64_t)site[i] >> 63 : 1;       /* (1: not a '?') */
            if (k < TALLY_DIRECT_N) {
                t->direct[k] += given;
            } else if (given) {
                Value v = lane_value(kind, x[i]);
                tally_hashed(t, &v);
            }
        }
    for (; i < n; i++)
        if (!site || site[i] < 0) {
            Value v = lane_value(kind, x[i]);
            tally(t, &v);
        }
}

/* The slot of v in a table of cap slots (a power of two): its own, or the
 * empty one where it goes. */
static Tally *hashed_slot(Tally *slots, size_t cap, const Value *v, uint64_t hash)
{
    size_t i = hash & (cap - 1);
    while (slots[i].count && !val_identical(&slots[i].value, v))
        i = (i + 1) & (cap - 1);
    return &slots[i];
}

/* A result no array counts: found by its hash, not by a binary search of
 * the sorted list (a record compared field by field at every step).  A
 * value seen for the first time is copied out of the trial's arena. */
static void tally_hashed(Tallies *t, const Value *v)
{
    if (2 * (t->nhashed + 1) > t->hashed_cap) {
        size_t cap = t->hashed_cap ? 2 * t->hashed_cap : 64;
        Tally *slots = mem_alloc(sizeof(Tally) * cap);
        memset(slots, 0, sizeof(Tally) * cap);
        for (size_t i = 0; i < t->hashed_cap; i++)
            if (t->hashed[i].count)
                *hashed_slot(slots, cap, &t->hashed[i].value, val_hash(&t->hashed[i].value)) = t->hashed[i];
        t->hashed = slots;
        t->hashed_cap = cap;
    }
    Tally *slot = hashed_slot(t->hashed, t->hashed_cap, v, val_hash(v));
    if (!slot->count) {
        *slot = (Tally){ vm_keep(*v), 0 };
        t->nhashed++;
    }
    slot->count++;
}

static void tally_flush(Tallies *t)
{
    for (size_t i = 0; i < t->hashed_cap; i++)
        if (t->hashed[i].count) {
            tally_n(t, t->hashed[i].value, t->hashed[i].count);
            t->hashed[i].count = 0;
        }
    t->nhashed = 0;
    if (!t->direct)
        return;
    for (int64_t k = 0; k < TALLY_DIRECT_N; k++)
        if (t->direct[k]) {
            Value v = { .tag = t->direct_tag, .enum_id = t->direct_enum };
            if (v.tag == VAL_BOOL)
                v.as.b = k + TALLY_DIRECT_LO != 0;
            else
                v.as.i = k + TALLY_DIRECT_LO;
            tally_n(t, v, t->direct[k]);
            t->direct[k] = 0;
        }
}

static void tally_n(Tallies *t, Value v, uint64_t n)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = val_order(t->items[mid].value, v);
        if (c == 0) {
            t->items[mid].count += n;
            return;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 32;
        t->items = mem_realloc(t->items, sizeof(Tally) * t->cap, sizeof(Tally) * cap, 0);
        t->cap = cap;
    }
    memmove(&t->items[lo + 1], &t->items[lo], sizeof(Tally) * (t->n - lo));
    t->items[lo] = (Tally){ vm_keep(v), n };   /* a pool result outlives the trial's arena */
    t->n++;
}

#define SIM_BLOCK 4096       /* trials a block; each block has a stream of its own */
#define SIM_PROGRESS 200000  /* trials from which a progress line is drawn on a terminal */
#define SIM_REDRAW 0.5       /* seconds between redraws of it, at least */

typedef struct Sim {
    muster_ctx *ctx;
    const Compiled *c;
    const ProcSig *sig;
    const Value *argv;
    const bool *given;
    int *choices;
    int field;
    uint64_t seed, trials, nblocks;
    uint64_t next_block, blocks_done;    /* under lock */
    pthread_mutex_t lock;
    Progress bar;                        /* drawn under lock, on a terminal, for many trials */
    double drawn_at;                     /* under lock: when it was last drawn */
    const volatile sig_atomic_t *interrupt;  /* the caller's flag: stop at the next block */
    bool interrupted;                    /* under lock: it was seen set */
    bool out_of_memory;                  /* under lock: a thread ran out (see simulate_caught) */
    uint64_t failed_trial;               /* the first trial that failed, UINT64_MAX if none */
    Vm failed_vm;                        /* its machine, to report the error from */
    uint64_t unknown_first;
    const Program *prog;                 /* what the workers' machines run: the specialized
                                          * call's program, else the compiled one */
    int spec;                            /* the call specialized for its arguments (in prog), or -1 */
    SpecCodes codes;                     /* its record result returned as a code (codes.n > 0) */
    const BatchCode *batch;              /* the specialized call compiled for batches, or NULL */
} Sim;

typedef struct Worker {
    Sim *sim;
    pthread_t thread;
    Tallies t;
    uint64_t trials;                     /* trials run, for the message of an interrupted simulation */
    uint64_t unknown, unknown_first;
    const Proto *unknown_at;
    uint32_t unknown_offset;
} Worker;

/* What a worker's thread runs its trials with: on that thread's own stack,
 * so that what it writes every trial (the dice's state above all) is never
 * next to another thread's. */
typedef struct Runner {
    Worker *w;
    Sim *sim;
    Vm *vm;
    RngDice rng;
    Arena arena;                         /* the trial's pools: no allocation per trial once it has grown */
    Value *argv;
    Value *results;                      /* a block's results, before they are counted */
    bool defaults;                       /* any left to work out per trial? */
    BatchLanes *lanes;                   /* the batch path's registers, or NULL */
    uint64_t batches, gave_up;           /* batches tried, and those that gave their trials back */
} Runner;

#define BATCH_TRIES 8                    /* batches that may give up before the worker judges them */

/* Trial number `trial` met a value the rules text does not give where its
 * value was needed, or its result (the field asked about) holds one: it is
 * counted apart, and the first such trial's '?' kept to point at. */
static void count_unknown(Worker *w, const Proto *in, uint64_t trial, uint32_t offset)
{
    if (!w->unknown || trial < w->unknown_first) {
        w->unknown_first = trial;
        w->unknown_at = in;
        w->unknown_offset = offset;
    }
    w->unknown++;
}

/* The stream of block b: the run's seed and the block number mixed. */
static uint64_t block_seed(uint64_t seed, uint64_t b)
{
    uint64_t z = seed ^ (b * 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A block is done: redraw the progress line when its percentage changes,
 * and now and then in between (a long simulation moves slowly). */
static void sim_progress(Sim *sim)
{
    pthread_mutex_lock(&sim->lock);
    uint64_t done = ++sim->blocks_done;
    double now = pace_now();
    if (done * 100 / sim->nblocks != (done - 1) * 100 / sim->nblocks || now - sim->drawn_at >= SIM_REDRAW) {
        char words[48];
        snprintf(words, sizeof words, "of %llu trials", (unsigned long long)sim->trials);
        progress_draw(&sim->bar, (double)done / (double)sim->nblocks, words);
        sim->drawn_at = now;
    }
    pthread_mutex_unlock(&sim->lock);
}

/* Trials i..to of block b (which began at trial `from`) through the
 * interpreter; false when one failed, which ends the block. */
static bool run_trials(Runner *run, uint64_t b, uint64_t from, uint64_t i, uint64_t to)
{
    Worker *w = run->w;
    Sim *sim = run->sim;
    const ProcSig *sig = sim->sig;
    Vm *vm = run->vm;
    for (; i < to; i++) {
        Value r;
        arena_reset(&run->arena);
        if (sim->spec >= 0) {
            /* the specialized call (its result is already the field asked
             * for), the rest of the trials in one go */
            uint64_t done, unknown;
            /* once this worker knows where its first '?' is, the later
             * ones are only counted, without leaving the interpreter */
            vm->skip_unknown = w->unknown > 0;
            int rc = vm_call_many(vm, sim->spec, to - i, run->results, &done, &unknown);
            for (uint64_t k = 0; k < done; k++) {
                const Value *u = val_find_unknown(&run->results[k]);
                if (__builtin_expect(u != NULL, 0))
                    count_unknown(w, vm->prog->protos[sig->proto], i + k, vm_unknown_offset(vm->prog, *u));
                else
                    tally(&w->t, &run->results[k]);
            }
            w->unknown += unknown;
            i += done + unknown;
            if (rc == 0) {
                i--;            /* (the loop's i++ moves past the last) */
                continue;
            }
            /* It rolled what the original rolls up to the error, so the
             * dice are in step; a '?' after the first is only counted. */
            if (vm->error_unknown && w->unknown && i > w->unknown_first) {
                w->unknown++;
                continue;
            }
            /* Otherwise the same trial again with the original, which
             * says where the error is: back to the dice this trial
             * started with, by replaying the block up to it. */
            rng_seed(&run->rng.rng, block_seed(sim->seed, b));
            for (uint64_t k = from; k < i; k++) {
                Value ignored;
                arena_reset(&run->arena);
                (void)vm_call(vm, sim->spec, NULL, 0, &ignored);
            }
            arena_reset(&run->arena);
        }
        if ((run->defaults && api_fill_defaults(sig, sim->given, vm, run->argv))
            || vm_call(vm, sig->proto, run->argv, sig->nparams, &r)) {
            if (vm->error_unknown) {
                /* the odds of reaching a gap in the rules are part of the answer */
                count_unknown(w, vm->error_proto, i, vm->error_offset);
                continue;
            }
            pthread_mutex_lock(&sim->lock);
            if (i < sim->failed_trial) {
                sim->failed_trial = i;
                sim->failed_vm = *vm;
            }
            pthread_mutex_unlock(&sim->lock);
            return false;
        }
        /* the field asked about (of a record the rules text does not give: that unknown) */
        const Value *asked = sim->field >= 0 && r.tag == VAL_RECORD ? &r.as.r->field[sim->field] : &r;
        const Value *u = val_find_unknown(asked);
        if (u)
            count_unknown(w, vm->prog->protos[sig->proto], i, vm_unknown_offset(vm->prog, *u));
        else
            tally(&w->t, asked);
    }
    return true;
}

/* The results of a batch's n trials, from trial `first`, that are a '?':
 * counted apart, as count_unknown counts them, which keeps the place of
 * the first trial's '?' (the later ones of a batch are only counted). */
static void count_lane_unknowns(Worker *w, const Sim *sim, const BatchResults *r, uint64_t first, uint64_t n)
{
    uint64_t count = 0;
    for (uint64_t k = 0; k < n; k++)
        count += r->site[k] >= 0;
    if (count == 0)
        return;
    uint64_t k = 0;
    while (r->site[k] < 0)
        k++;
    uint32_t offset = vm_unknown_offset(sim->prog, val_unknown((int32_t)r->site[k], 0));
    count_unknown(w, sim->prog->protos[sim->sig->proto], first + k, offset);
    w->unknown += count - 1;
}

/* Trials i..to as one batch: counted, or false when the batch gave up,
 * the dice as they were before it. */
static bool run_batch(Runner *run, uint64_t i, uint64_t to)
{
    Worker *w = run->w;
    const Sim *sim = run->sim;
    BatchResults r;
    run->batches++;
    if (!batch_run(sim->batch, run->lanes, &run->rng.rng, (int)(to - i), &r)) {
        run->gave_up++;
        return false;
    }
    if (r.site)
        count_lane_unknowns(w, sim, &r, i, to - i);
    tally_lanes(&w->t, r.kind, r.value, r.site, to - i);
    return true;
}

/* Whether to try the next trials as a batch: while batches mostly do
 * not give up (a batch that gives up costs its dice drawn twice, and a
 * call whose trials mostly need a '?' would give up nearly every time). */
static bool batch_pays(const Runner *run)
{
    return run->lanes && (run->gave_up < BATCH_TRIES || 2 * run->gave_up < run->batches);
}

/* The trials from..to of block b: a batch at a time where the batch path
 * takes them, else (and where a batch gives up) through the interpreter. */
static void run_block(Runner *run, uint64_t b, uint64_t from, uint64_t to)
{
    for (uint64_t i = from; i < to;) {
        uint64_t end = to;
        if (batch_pays(run)) {
            end = to - i > BATCH_LANES ? i + BATCH_LANES : to;
            if (run_batch(run, i, end)) {
                i = end;
                continue;
            }
        }
        if (!run_trials(run, b, from, i, end))
            return;
        i = end;
    }
}

static void *simulate(void *arg)
{
    Worker *w = arg;
    Sim *sim = w->sim;
    const ProcSig *sig = sim->sig;
    Runner run = { .w = w, .sim = sim };
    dice_rng_init(&run.rng, 0);
    /* each worker's machine on cache lines of its own: two threads writing
     * next to each other would slow both (false sharing) */
    struct { char before[128]; Vm vm; char after[128]; } *own = mem_alloc(sizeof *own);
    Vm *vm = run.vm = &own->vm;
    vm_init(vm, sim->prog, &run.rng.base);
    vm->limits = sim->ctx->limits;
    vm->choices = sim->choices;
    vm->memo = true;
    vm->quiet_unknown = true;
    run.argv = mem_alloc(sizeof(Value) * (size_t)(sig->nparams + 1));
    memcpy(run.argv, sim->argv, sizeof(Value) * (size_t)sig->nparams);
    vm->scratch = &run.arena;
    run.results = mem_alloc(sizeof(Value) * SIM_BLOCK);
    for (int p = 0; p < sig->nparams; p++)
        run.defaults |= !sim->given[p];
    if (sim->batch)
        run.lanes = batch_lanes_new(sim->batch);
    for (;;) {
        pthread_mutex_lock(&sim->lock);
        uint64_t b = sim->next_block++;
        if (sim->interrupt && *sim->interrupt)
            sim->interrupted = true;
        bool stop = b >= sim->nblocks || sim->failed_trial != UINT64_MAX || sim->interrupted || sim->out_of_memory;
        pthread_mutex_unlock(&sim->lock);
        if (stop)
            break;
        rng_seed(&run.rng.rng, block_seed(sim->seed, b));
        uint64_t from = b * SIM_BLOCK, to = from + SIM_BLOCK < sim->trials ? from + SIM_BLOCK : sim->trials;
        w->trials += to - from;
        run_block(&run, b, from, to);
        if (sim->bar.to || sim->bar.hook)
            sim_progress(sim);
    }
    tally_flush(&w->t);
    return NULL;
}

/* A worker (the calling thread's share too) with running out of memory
 * caught on its own thread: it stops, the others stop at their next block,
 * and api_simulate_odds reports it once they have all ended (a jump out of
 * the calling thread's share would leave the others running on a Sim that
 * is gone). */
static void *simulate_caught(void *arg)
{
    Worker *w = arg;
    MemCatch mc;
    mem_catch_push(&mc);
    if (setjmp(mc.jump)) {
        pthread_mutex_lock(&w->sim->lock);
        w->sim->out_of_memory = true;
        pthread_mutex_unlock(&w->sim->lock);
        return NULL;
    }
    simulate(w);
    mem_catch_pop(&mc);
    return NULL;
}

/* The simulated odds of a call: `trials` runs of it in blocks, shared out
 * among threads, counted into o.  per_run says which arguments are worked
 * out afresh each trial; field is the record field counted, or -1. */
int api_simulate_odds(muster_ctx *ctx, const Compiled *c, const muster_prob_opts *opts, Vm *vm, const ProcSig *sig,
                      Value *argv, const bool *per_run, int field, uint64_t seed, uint64_t trials, Odds *o)
{
    /* simulate in blocks with a stream each, shared out among threads: the
     * counts are the same whatever the number of threads */
    int nthreads = opts->threads > 0 ? opts->threads : 1;
    uint64_t nblocks = (trials + SIM_BLOCK - 1) / SIM_BLOCK;
    if ((uint64_t)nthreads > nblocks)
        nthreads = (int)nblocks;
    Sim sim = { .ctx = ctx, .c = c, .sig = sig, .argv = argv, .given = per_run, .choices = vm->choices,
                .field = field, .seed = seed, .trials = trials, .nblocks = nblocks, .failed_trial = UINT64_MAX,
                .prog = c->prog, .spec = -1 };
    /* every argument fixed: compile the call once more for them (see specialize.h) */
    bool all_fixed = true;
    for (int p = 0; p < sig->nparams; p++)
        all_fixed &= per_run[p];
    if (all_fixed && !opts->no_specialize) {
        /* the specialized call lives in a program of its own, in which the
         * original's procedures keep their indexes (the fallback below calls
         * sig->proto on the same machine) */
        /* a record result is counted by its code, an int (see specialize.h) */
        const Program *spec = field < 0 ? specialize_call_coded(vm, sig->proto, argv, sig->nparams, &sim.spec, &sim.codes)
                                        : specialize_call(vm, sig->proto, argv, sig->nparams, field, &sim.spec);
        if (spec)
            sim.prog = spec;
        /* and, where it qualifies, once more for batches (see vm/batch.h) */
        if (spec && !ctx->no_batch)
            sim.batch = batch_compile(spec, sim.spec, &ctx->limits);
    }
    progress_init(&sim.bar, trials >= SIM_PROGRESS ? ctx->err : NULL);
    if (trials >= SIM_PROGRESS)
        progress_hook(&sim.bar, opts->progress, opts->progress_data);
    sim.interrupt = opts->interrupt;
    pthread_mutex_init(&sim.lock, NULL);
    Worker *w = mem_alloc(sizeof(Worker) * (size_t)nthreads);
    for (int k = 0; k < nthreads; k++) {
        w[k].sim = &sim;
        if (k > 0 && mem_thread_create(&w[k].thread, simulate_caught, &w[k]) != 0) {
            nthreads = k;   /* fewer threads than asked for: the rest is done by those running */
            break;
        }
    }
    simulate_caught(&w[0]);
    for (int k = 1; k < nthreads; k++)
        mem_thread_join(w[k].thread);
    pthread_mutex_destroy(&sim.lock);
    progress_clear(&sim.bar);
    if (sim.out_of_memory)
        return api_nomem(ctx);
    if (sim.interrupted && sim.failed_trial == UINT64_MAX) {
        uint64_t run = 0;
        for (int k = 0; k < nthreads; k++)
            run += w[k].trials;
        api_err_printf(ctx, "muster: interrupted: the simulation of %s had run %llu of %llu trials\n", sig->name,
                       (unsigned long long)run, (unsigned long long)trials);
        return MUSTER_INTERRUPTED;
    }
    if (sim.failed_trial != UINT64_MAX) {
        api_report_runtime(ctx, c, &sim.failed_vm);
        diag_report(&ctx->diag, DIAG_NOTE, NULL, (Span){ 0, 0 },
                    "this happened in trial %llu of the simulation with seed %llu; "
                    "--seed %llu --trials %llu repeats it",
                    (unsigned long long)sim.failed_trial + 1, (unsigned long long)seed, (unsigned long long)seed,
                    (unsigned long long)sim.failed_trial + 1);
        return MUSTER_ERROR;
    }
    /* merge the threads' counts, the codes of records turned back into records
     * (the trials the original ran, after an error or a first '?', counted
     * records themselves: equal ones are merged) */
    Tallies t = { 0 };
    for (int k = 0; k < nthreads; k++) {
        for (size_t i = 0; i < w[k].t.n; i++) {
            Value v = w[k].t.items[i].value;
            if (sim.codes.n > 0 && v.tag == VAL_INT && !specialize_decode(&sim.codes, v.as.i, &v)) {
                diag_report(&ctx->diag, DIAG_ERROR, NULL, (Span){ 0, 0 }, "internal error: no record has code %lld",
                            (long long)v.as.i);
                return MUSTER_ERROR;
            }
            tally_n(&t, v, w[k].t.items[i].count);
        }
        o->unknown += w[k].unknown;
        if (w[k].unknown && (!o->unknown_at || w[k].unknown_first < sim.unknown_first)) {
            sim.unknown_first = w[k].unknown_first;
            o->unknown_at = w[k].unknown_at;
            o->unknown_offset = w[k].unknown_offset;
        }
    }
    o->t = t;
    o->trials = trials;
    return MUSTER_OK;
}
