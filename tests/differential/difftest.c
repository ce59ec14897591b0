/* difftest.c — the differential check: random programs, counted by brute
 * force, against `muster prob`.
 *
 * For each seed it generates a small, valid muster script (enums, ladders and
 * outcomes, a choice, a table with cells the text does not give, bands, a
 * modifier list, a record with a default that rolls, procedures with
 * parameters and defaults that roll, calls between them, procedures that
 * call themselves with a smaller count down to a base case, pools (now and
 * then of up to 12 dice; mixed pools of dice of different sides), chains of
 * dependent pools (a local that counts, sums or takes the highest of a pool
 * gives the number of dice of the next one, two to four stages, an `if`
 * between two of them now and then, each stage's local dead once the next
 * has used it but for the last and now and then one more), independent
 * parts added together (sum(roll 3d6) + sum(roll 2d8) - f2() * f2(), in one
 * expression or as locals of their own joined in the result), bags of
 * numbers (some of distinct items, lo..hi) and of an enum's members, drawn
 * from one at a time and several at once, rerolls, prob() claims, and '?'
 * written for a value that is kept, passed on or returned, a record's field
 * most often), keeps its own syntax tree of it, and works out the exact
 * distribution of the first procedure's result by the simplest method there
 * is: running its own interpreter once for every sequence of faces the dice
 * can show, one die at a time (a pool of 2 or more dice as one choice of its
 * multisets, weighed by the ways its dice show it), with exact rational
 * weights (GMP); a walk (a procedure that comes back to the positions it
 * was in, until either end) by the gambler's ruin's formula instead.
 * Bags are full when a run of f0 starts, and what a run draws stays out
 * until it ends, through every procedure it calls: one item
 * drawn is one choice of what it is (weighed by how many of it are left),
 * several drawn at once one choice of how many of each come out (weighed
 * by the ways to draw them).  A value the text does not give
 * (a '?' cell or field, or a '?' written as a value) is carried as such and
 * makes the run "not given" only where its value is needed, or when the
 * result asked about (the field, with --field) holds one.  A `reroll` is conditioning: a
 * procedure that can reroll is counted on its own for the arguments it was
 * called with, its rerolling sequences dropped and the rest renormalised.
 * Nothing here comes from libmuster; the interpreter is written from
 * docs/language.md.
 *
 * Then it asks the real `muster` for
 *   (a) `prob FILE f0 ARGS --exact --json`, which must equal the brute force
 *       exactly, fraction by fraction;
 *   (b) `prob ... --trials N --seed S --json --threads 1`, whose count of each
 *       value must not fall in a binomial tail of probability below 1e-9 under
 *       the brute-force probability (about six standard errors), and must be
 *       0 for a value the brute force says is impossible;
 *   (c) the same simulation with `--threads 4` and with `--no-specialize`,
 *       whose counts must be identical to (b).
 * A disagreement prints the program, the command lines and the distributions,
 * saves the script to the failure folder, and counts as a failure, unless the
 * seed is listed in the known-failures file for every check it failed.
 *
 *   difftest [--seed S] [--count N] [--trials T] [--known FILE] [--save DIR]
 *            [--muster PATH] [--limit RUNS] [--show] [--quiet]
 *
 * Defaults: seeds 1 to 400, 10000 trials, the list
 * $top_srcdir/tests/differential/known.txt, failures saved in
 * ./difftest-failures, $MUSTER or ./muster.  Program i of a run is generated
 * from seed S + i alone, so `--seed X --count 1` replays program X.  `--show`
 * prints the programs and their brute-force distributions without running
 * muster.  A program is generated again (from the same seed's stream) when
 * its brute force would take more than RUNS runs (5000), or when it would
 * fail at run time, reroll nearly always or ask prob() about a value the
 * text does not give: those are not programs to compare.  The last line is
 * `N passed, N failed`; known failures are counted on a line of their own.
 */
#define _GNU_SOURCE
#include <gmp.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- utilities */

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "difftest: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(2);
}

/* Everything of one program lives in one arena, dropped when it is done. */
typedef struct Chunk { struct Chunk *next; size_t used, size; char data[]; } Chunk;
static Chunk *arena;
static Chunk *spare;      /* chunks of earlier programs, for the next ones */

static void *alloc(size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (!arena || arena->used + n > arena->size) {
        size_t size = n > (1 << 20) ? n : (1 << 20);
        Chunk *c;
        if (spare && spare->size >= n) {
            c = spare;
            spare = spare->next;
            size = c->size;
        } else {
            c = malloc(sizeof *c + size);
        }
        if (!c)
            die("out of memory");
        c->next = arena;
        c->used = 0;
        c->size = size;
        arena = c;
    }
    void *p = arena->data + arena->used;
    arena->used += n;
    memset(p, 0, n);
    return p;
}

static void arena_free(void)
{
    while (arena) {
        Chunk *next = arena->next;
        arena->next = spare;
        arena->used = 0;
        spare = arena;
        arena = next;
    }
}

typedef struct { char *s; size_t len, cap; } Buf;

static void bputs(Buf *b, const char *s)
{
    size_t n = strlen(s);
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        if (!b->s)
            die("out of memory");
    }
    memcpy(b->s + b->len, s, n + 1);
    b->len += n;
}

static void bprintf(Buf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    bputs(b, tmp);
}

static void bclear(Buf *b) { b->len = 0; if (b->s) b->s[0] = 0; }

static char *adup(const char *s)
{
    char *d = alloc(strlen(s) + 1);
    strcpy(d, s);
    return d;
}

/* splitmix64: the generator's only source of randomness. */
static uint64_t rng_state;
static uint64_t rnd64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static int rnd(int n) { return (int)(rnd64() % (uint64_t)n); }          /* 0..n-1 */
static int chance(int percent) { return rnd(100) < percent; }
static int range(int lo, int hi) { return lo + rnd(hi - lo + 1); }

/* -------------------------------------------------------------------- model */

enum { T_INT, T_RAT, T_BOOL, T_ENUM, T_POOL, T_REC, T_EPOOL };   /* T_EPOOL: a pool of members of enum id (drawn from bag Z) */
typedef struct { int kind, id; } Type;   /* id: the enum's index */

static int type_eq(Type a, Type b) { return a.kind == b.kind && ((a.kind != T_ENUM && a.kind != T_EPOOL) || a.id == b.id); }

enum {
    E_NUM, E_BOOLK, E_MEMBER, E_VAR,
    E_ADD, E_SUB, E_MUL, E_DIV, E_MOD, E_NEG,
    E_CMP, E_AND, E_OR, E_NOT,
    E_MIN, E_MAX, E_CLAMP, E_ABS, E_FLOOR, E_CEIL, E_ROUND,
    E_ROLL1, E_ROLLD, E_ROLLN, E_MIXED, E_FILTER, E_COUNT, E_SUM, E_HIGHEST, E_LOWEST,
    E_HIGHESTN, E_LOWESTN, E_ANY, E_ANYCMP, E_ALLCMP, E_DOUBLES,
    E_CALL, E_TABLE, E_BANDS, E_MODS, E_RECNEW, E_FIELD, E_PROB, E_SHIFT,
    E_OFIELD,             /* the int field n of an outcome */
    E_CHOOSE,             /* choose(C) == C.ck */
    E_UNK,                /* '?', a value the rules text does not give (kept, passed on or returned) */
    E_ROLLC,              /* roll n Xk: n dice of the program's die k (faces of its own) */
    E_DRAW1,              /* draw Y (k2 = 0) or draw Z (k2 = 1): one item of that bag, not put back in the run */
    E_DRAWN,              /* draw n from Y (or Z): a pool of n of them */
    E_INP,                /* p in [values of the bits of k]: the dice showing one of them */
};
enum { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE };
static const char *cmp_text[] = { "==", "!=", "<", "<=", ">", ">=" };

typedef struct Expr Expr;
struct Expr {
    int op;
    Type ty;
    int64_t k, k2;        /* constants: number, sides, comparison, member, slot, index */
    Expr *a, *b, *c;
    Expr **args;          /* calls: one per parameter (NULL: left to its default) */
    int nargs;
    int *order;           /* calls: the order the given arguments are written in */
    int npositional;      /* calls: how many of them are written without a name */
    void *memo;           /* prob(): the claim's probability once counted */
};

enum { S_LET, S_ASSIGN, S_IF, S_RETURN, S_REROLL };
typedef struct Stmt Stmt;
struct Stmt {
    int kind, slot;
    Expr *e;
    Stmt **then, **els;
    int nthen, nels;
};

typedef struct { Type ty; Expr *def; } Param;

#define MAX_PARAMS 4
#define MAX_SLOTS 32
typedef struct {
    Param params[MAX_PARAMS];
    int nparams;
    Type ret;
    Stmt **body;
    int nbody;
    int nslots;
    Type slot_ty[MAX_SLOTS];
    int rerolls;
    /* a walk (gen_walk): from its one argument, a position, it returns
     * ends[0] at lo or below and ends[1] at hi or above; else it rolls a
     * d`sides` and calls itself one step up on `up` or more, where it is on
     * `stay` (if not 0), one step down otherwise.  It comes back to the
     * positions it was in, so the brute force cannot run it: the odds are
     * the gambler's ruin's, worked out exactly (walk_dist). */
    int walk, lo, hi, sides, up, stay;
    Expr *ends[2];
} Proc;

typedef struct {
    int nmembers;
    int ladder;
    int outcome;          /* an outcome with one field, n: int = 0 */
    int n[4], n_given[4]; /* each member's n, or '?' */
} Enum;

/* modifier list items, applied in order to a running int total */
enum { M_ADD, M_EACH, M_CAP, M_ONEOF, M_MUL };
typedef struct ModItem {
    int kind;
    Expr *cond;          /* M_ADD: condition; M_EACH: the count */
    int amount;          /* M_ADD, M_EACH; M_MUL: the factor amount/den */
    int den;
    int lo, hi, has_lo, has_hi;   /* M_CAP */
    struct ModItem *items; int nitems;   /* M_ONEOF */
} ModItem;

typedef struct { Type ty; Expr *def; } Field;

#define MAX_PROCS 6
typedef struct {
    Enum enums[2];
    int nenums;
    int has_table; Type table_key; Type table_ret; int table_cells[4]; int table_given[4];
    int has_bands; Type bands_ret; int bands_cut[4]; int bands_val[4]; int nbands;
    int has_mods; Type mods_params[2]; ModItem mods[5]; int nmods;
    int mods_rat;         /* a factor: the total is a rat */
    int has_start, start; /* start at */
    int has_choice, noptions, choice_default, chosen;
    int has_rec; Field fields[3]; int nfields;
    int ndies; int die_n[2]; int die_v[2][8];   /* dice of their own faces: die k shows die_v[k][0..die_n[k]) */
    /* bags: bag 0 is Y, of numbers; bag 1 is Z, of members of enum bag_enum.
     * Bag k holds bag_c[k][i] items of value bag_v[k][i] (a member's index
     * for Z), i < bag_n[k]; bag_n[k] == 0: no such bag. */
    int has_bag;          /* either bag */
    int bag_n[2], bag_v[2][8], bag_c[2][8], bag_enum, bag_range;   /* bag_range: Y printed as lo..hi */
    Proc procs[MAX_PROCS];
    int nprocs;
    /* the call `muster prob` is asked about: f0 with these arguments given */
    int given[MAX_PARAMS];
    int64_t given_val[MAX_PARAMS];
    int field;            /* -1, or the field of f0's record result asked about with --field */
} Program;

static Program *P;

/* ---------------------------------------------------------------- values */

typedef struct Value Value;
struct Value {
    int kind;             /* T_* */
    int64_t n, d;         /* numbers n/d (d = 1 for int); bool and member in n */
    int np;               /* pool */
    int64_t *faces;       /* sorted */
    Value *fields;        /* record */
    int unk;              /* a value the rules text does not give: it stops a run only where it is needed */
};

static int reject;        /* the program is not one to test (a runtime error, too big, ...) */

static Value num(__int128 n, __int128 d)
{
    Value v = { .kind = T_INT };
    if (d < 0) { n = -n; d = -d; }
    if (d == 0) { reject = 1; d = 1; }
    __int128 a = n < 0 ? -n : n, b = d;
    while (b) { __int128 t = a % b; a = b; b = t; }
    if (a > 1) { n /= a; d /= a; }
    if (n > INT64_MAX / 4 || n < -INT64_MAX / 4 || d > INT64_MAX / 4) { reject = 1; n = 0; d = 1; }
    v.n = (int64_t)n;
    v.d = (int64_t)d;
    return v;
}
static Value vint(int64_t n) { return num(n, 1); }
static Value vbool(int b) { Value v = { .kind = T_BOOL, .n = b, .d = 1 }; return v; }

static int64_t floor_div(int64_t n, int64_t d) { int64_t q = n / d; if ((n % d) && ((n < 0) != (d < 0))) q--; return q; }

static int num_cmp(Value a, Value b)
{
    __int128 l = (__int128)a.n * b.d, r = (__int128)b.n * a.d;
    return l < r ? -1 : l > r;
}

static int cmp_holds(int op, int c)
{
    switch (op) {
    case C_EQ: return c == 0;
    case C_NE: return c != 0;
    case C_LT: return c < 0;
    case C_LE: return c <= 0;
    case C_GT: return c > 0;
    default: return c >= 0;
    }
}

/* The value as `muster prob --json` prints it, compacted (no spaces). */
static void render(Buf *b, Value v, Type ty)
{
    if (v.unk) { bputs(b, "?"); return; }
    switch (ty.kind) {
    case T_INT: bprintf(b, "%lld", (long long)v.n); break;
    case T_RAT:
        if (v.d == 1) bprintf(b, "%lld", (long long)v.n);
        else bprintf(b, "\"%lld/%lld\"", (long long)v.n, (long long)v.d);
        break;
    case T_BOOL: bputs(b, v.n ? "true" : "false"); break;
    case T_ENUM: bprintf(b, "\"%c%lld\"", 'a' + ty.id, (long long)v.n); break;
    case T_POOL:
        bputs(b, "[");
        for (int i = 0; i < v.np; i++) bprintf(b, "%s%lld", i ? "," : "", (long long)v.faces[i]);
        bputs(b, "]");
        break;
    case T_REC:
        bputs(b, "{");
        for (int i = 0; i < P->nfields; i++) {
            bprintf(b, "%s\"g%d\":", i ? "," : "", i);
            render(b, v.fields[i], P->fields[i].ty);
        }
        bputs(b, "}");
        break;
    }
}

/* ------------------------------------------------------------ distributions */

typedef struct {
    char *key;            /* the rendered value; "null" for "not given in source" */
    Value v;
    mpq_t w;
} Outcome;

typedef struct {
    Outcome *o;
    int n, cap;
} Dist;

static void dist_add(Dist *d, const char *key, Value v, mpq_t w)
{
    for (int i = 0; i < d->n; i++)
        if (!strcmp(d->o[i].key, key)) {
            mpq_add(d->o[i].w, d->o[i].w, w);
            return;
        }
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 8;
        d->o = realloc(d->o, d->cap * sizeof *d->o);
    }
    Outcome *o = &d->o[d->n++];
    o->key = strdup(key);
    o->v = v;
    mpq_init(o->w);
    mpq_set(o->w, w);
}

static void dist_free(Dist *d)
{
    for (int i = 0; i < d->n; i++) {
        free(d->o[i].key);
        mpq_clear(d->o[i].w);
    }
    free(d->o);
    d->o = NULL;
    d->n = d->cap = 0;
}

/* ------------------------------------------------------------- brute force */

/* One enumeration: every sequence of choices is run once.  A choice is a die
 * (equal weights) or the result of a rerolling procedure (its conditioned
 * distribution).  The path holds the choices made so far; after a run the
 * last choice with alternatives left moves on. */
#define MAX_PATH 256
typedef struct Enumeration {
    int idx[MAX_PATH], cnt[MAX_PATH];
    int len, pos;
    mpz_t wn, wd;         /* the weight of the run so far, wn / wd (reduced when the run ends) */
    jmp_buf out;          /* `reroll`, a value not given, a rejected program */
} Enumeration;

static Enumeration *cur;
static int cmp_i64(const void *a, const void *b);
static long runs, run_limit = 5000;
static int call_depth;    /* calls within calls: a program that goes too deep is not one to test */
/* the attempts of the rerolling calls made in the run (see call_proc), and
 * the most any run of the last enumeration made */
static double run_cost, run_cost_max;

enum { END_REROLL = 1, END_NOT_GIVEN, END_REJECT };

static void bail(int why)
{
    if (why == END_REJECT)
        reject = 1;
    longjmp(cur->out, why);
}

static int choose(int n)
{
    Enumeration *e = cur;
    if (n <= 0) bail(END_REJECT);
    if (e->pos < e->len) {
        if (e->cnt[e->pos] != n) bail(END_REJECT);   /* cannot happen: runs are deterministic */
        return e->idx[e->pos++];
    }
    if (e->len == MAX_PATH) bail(END_REJECT);
    e->idx[e->len] = 0;
    e->cnt[e->len] = n;
    e->len++;
    e->pos++;
    return 0;
}

/* The run's weight times num / den. */
static void weigh(unsigned long num, unsigned long den)
{
    if (num != 1) mpz_mul_ui(cur->wn, cur->wn, num);
    if (den != 1) mpz_mul_ui(cur->wd, cur->wd, den);
}

/* What each bag has left in the run being enumerated (full as each starts:
 * a run is one call of f0, and what it draws stays out until it ends,
 * through every procedure it calls). */
static int bag_left[2][8];

/* One item drawn from bag b: each item left as likely, so a value with c
 * items of the total t left comes out with weight c / t. */
static int64_t draw_item(int b)
{
    int total = 0, kinds[8], nk = 0;
    for (int k = 0; k < P->bag_n[b]; k++) {
        total += bag_left[b][k];
        if (bag_left[b][k]) kinds[nk++] = k;
    }
    if (total == 0) bail(END_REJECT);   /* drawing from an empty bag is an error */
    int k = kinds[choose(nk)];
    weigh((unsigned long)bag_left[b][k], (unsigned long)total);
    bag_left[b][k]--;
    return P->bag_v[b][k];
}

static unsigned long binom(int n, int k)
{
    if (k < 0 || k > n) return 0;
    unsigned long r = 1;
    for (int i = 1; i <= k; i++) r = r * (unsigned long)(n - k + i) / (unsigned long)i;
    return r;
}

/* n items drawn at once from bag b, as one choice among how many of each
 * value come out (x[k] of value k, x[k] <= what is left of it, summing to
 * n), weighed by C(c1, x1) ... C(ck, xk) / C(total, n).  Faces sorted. */
static void draw_many(int b, int n, int64_t *faces)
{
    int K = P->bag_n[b], total = 0;
    for (int k = 0; k < K; k++) total += bag_left[b][k];
    if (n > total) bail(END_REJECT);
    /* the choices, in order: x counted up as a K-digit number */
    static int combos[1024][8];
    int x[8] = { 0 }, nc = 0;
    for (;;) {
        int sum = 0;
        for (int k = 0; k < K; k++) sum += x[k];
        if (sum == n) {
            if (nc == 1024) bail(END_REJECT);
            memcpy(combos[nc++], x, sizeof x);
        }
        int k = 0;
        while (k < K && x[k] == bag_left[b][k]) x[k++] = 0;
        if (k == K) break;
        x[k]++;
    }
    int *got = combos[choose(nc)];
    mpz_t t;
    mpz_init_set_ui(t, 1);
    for (int k = 0; k < K; k++) mpz_mul_ui(t, t, binom(bag_left[b][k], got[k]));
    mpz_mul(cur->wn, cur->wn, t);
    mpz_clear(t);
    weigh(1, binom(total, n));
    /* values in increasing order: Y's values, or Z's member indices, are distinct */
    int at = 0;
    for (int k = 0; k < K; k++) {
        for (int c = 0; c < got[k]; c++) faces[at++] = P->bag_v[b][k];
        bag_left[b][k] -= got[k];
    }
    qsort(faces, (size_t)n, sizeof(int64_t), cmp_i64);
}

static int64_t roll_die(int64_t sides)
{
    if (sides < 1 || sides > 64) bail(END_REJECT);
    int f = choose((int)sides);
    weigh(1, (unsigned long)sides);
    return f + 1;
}

/* A pool of n dice of `sides` faces as one choice: one of its multisets (as
 * counts per face, in the order next_multiset lists them), weighed by the
 * ways its dice can show it, n! / (c1! c2! ...) / sides^n.  Faces sorted.
 * The multisets of each (n, sides) are listed once, with their ways. */
static int next_multiset(int *c, int sides)
{
    int j = sides - 2;
    while (j >= 0 && c[j] == 0)
        j--;
    if (j < 0)
        return 0;
    c[j]--;
    int last = c[sides - 1];
    c[sides - 1] = 0;
    c[j + 1] = last + 1;
    return 1;
}

typedef struct { int m; int64_t *faces; mpz_t *ways; mpz_t den; } Multisets;
static Multisets *multisets[17][65];

static void roll_multiset(int n, int sides, int64_t *faces)
{
    if (sides < 1 || sides > 64 || n > 16) bail(END_REJECT);
    Multisets *ms = multisets[n][sides];
    if (!ms) {
        long m = 1;   /* how many multisets: C(n + sides - 1, n) */
        for (int i = 1; i <= n; i++)
            m = m * (sides - 1 + i) / i;
        if (m > 4000) bail(END_REJECT);
        ms = malloc(sizeof *ms);
        ms->m = (int)m;
        ms->faces = malloc(sizeof(int64_t) * (size_t)(m * (n ? n : 1)));
        ms->ways = malloc(sizeof(mpz_t) * (size_t)m);
        mpz_init(ms->den);
        mpz_ui_pow_ui(ms->den, (unsigned long)sides, (unsigned long)n);
        int c[64] = { 0 };
        c[0] = n;
        mpz_t t;
        mpz_init(t);
        for (long k = 0; k < m; k++) {
            if (k) next_multiset(c, sides);
            mpz_init(ms->ways[k]);
            mpz_fac_ui(ms->ways[k], (unsigned long)n);
            int at = 0;
            for (int f = 0; f < sides; f++) {
                mpz_fac_ui(t, (unsigned long)c[f]);
                mpz_divexact(ms->ways[k], ms->ways[k], t);
                for (int i = 0; i < c[f]; i++)
                    ms->faces[k * n + at++] = f + 1;
            }
        }
        mpz_clear(t);
        multisets[n][sides] = ms;
    }
    int k = choose(ms->m);
    memcpy(faces, ms->faces + (long)k * n, sizeof(int64_t) * (size_t)n);
    mpz_mul(cur->wn, cur->wn, ms->ways[k]);
    mpz_mul(cur->wd, cur->wd, ms->den);
}

typedef struct { Value *slots; } Frame;

static Value eval(Expr *e, Frame *f);
static Value call_proc(int p, Value *args);
static void exec_body(Stmt **body, int n, Frame *f, Value *ret, int *done);

/* Does v hold a value the rules text does not give (itself, or a field)? */
static int has_unknown(Value v, Type ty)
{
    if (v.unk) return 1;
    if (ty.kind == T_REC)
        for (int i = 0; i < P->nfields; i++)
            if (has_unknown(v.fields[i], P->fields[i].ty)) return 1;
    return 0;
}

/* Runs `fn` once for every way its dice can fall; adds each result to *out
 * under its rendered key, or to "null" when it needed a value not given (or,
 * unless keep_unknown, when its result holds one); drops the runs that
 * reroll. */
typedef Value (*RunFn)(void *arg);
static void enumerate(RunFn fn, void *arg, Type ty, int keep_unknown, Dist *out)
{
    Enumeration e;
    Enumeration *saved = cur;
    Buf key = { 0 };
    mpq_t w;
    /* each run starts with the bags as they are: full for a run of f0, as
     * the enclosing run left them for one nested in it (a claim, a
     * rerolling procedure: neither draws), and left so */
    int start[2][8];
    memcpy(start, saved ? (const void *)bag_left : (const void *)P->bag_c, sizeof start);
    int depth = call_depth;
    double outer_cost = run_cost, most = 0;
    e.len = 0;
    mpz_inits(e.wn, e.wd, NULL);
    mpq_init(w);
    cur = &e;
    for (;;) {
        e.pos = 0;
        mpz_set_ui(e.wn, 1);
        mpz_set_ui(e.wd, 1);
        memcpy(bag_left, start, sizeof bag_left);
        call_depth = depth;
        run_cost = 0;
        if (++runs > run_limit) { reject = 1; break; }
        int why = setjmp(e.out);
        if (!why) {
            Value v = fn(arg);
            bclear(&key);
            if (!keep_unknown && has_unknown(v, ty))
                bputs(&key, "null");
            else
                render(&key, v, ty);
            mpq_set_num(w, e.wn);
            mpq_set_den(w, e.wd);
            mpq_canonicalize(w);
            dist_add(out, key.s, v, w);
        } else if (why == END_NOT_GIVEN) {
            mpq_set_num(w, e.wn);
            mpq_set_den(w, e.wd);
            mpq_canonicalize(w);
            dist_add(out, "null", vint(0), w);
        } else if (why == END_REJECT) {
            break;
        }
        if (run_cost > most) most = run_cost;
        e.len = e.pos;
        while (e.len > 0 && e.idx[e.len - 1] == e.cnt[e.len - 1] - 1)
            e.len--;
        if (e.len == 0)
            break;
        e.idx[e.len - 1]++;
    }
    cur = saved;
    memcpy(bag_left, start, sizeof bag_left);
    call_depth = depth;
    run_cost = outer_cost;
    run_cost_max = most;
    mpz_clears(e.wn, e.wd, NULL);
    mpq_clear(w);
    free(key.s);   /* a rejection is for the caller to act on (after freeing *out) */
}

/* Scales d up to 1; returns the share it had (0 when rejected). */
static double normalise(Dist *d)
{
    mpq_t total;
    mpq_init(total);
    for (int i = 0; i < d->n; i++) mpq_add(total, total, d->o[i].w);
    double share = mpq_get_d(total);
    /* a procedure that rerolls whatever the dice show has no odds, and one that
     * nearly always rerolls makes a slow simulation: not programs to test */
    mpq_t least;
    mpq_init(least);
    mpq_set_ui(least, 1, 100);
    int too_rare = mpq_cmp(total, least) < 0;
    mpq_clear(least);
    if (too_rare) { reject = 1; mpq_clear(total); return 0; }
    for (int i = 0; i < d->n; i++) mpq_div(d->o[i].w, d->o[i].w, total);
    mpq_clear(total);
    return share;
}

/* Picks one outcome of a distribution as a choice of the current run. */
static Value pick(Dist *d)
{
    int i = choose(d->n);
    mpz_mul(cur->wn, cur->wn, mpq_numref(d->o[i].w));
    mpz_mul(cur->wd, cur->wd, mpq_denref(d->o[i].w));
    if (!strcmp(d->o[i].key, "null"))
        bail(END_NOT_GIVEN);
    return d->o[i].v;
}

/* Values kept past a run (memoised distributions) must not point into
 * memory a later run overwrites; everything is in the arena, which lives as
 * long as the program, so they don't. */

/* The conditioned distributions of rerolling procedures, per arguments. */
typedef struct Memo { struct Memo *next; int proc; char *key; Dist d; double cost; } Memo;
static Memo *memos;

/* The distribution remembered for procedure pi and the key (which is
 * freed), or a new one (*fresh set) to be worked out and then put first in
 * memos. */
static Memo *memo_get(int pi, Buf *key, int *fresh)
{
    Memo *m;
    for (m = memos; m; m = m->next)
        if (m->proc == pi && !strcmp(m->key, key->s))
            break;
    *fresh = !m;
    if (!m) {
        m = alloc(sizeof *m);
        m->proc = pi;
        m->key = adup(key->s);
    }
    free(key->s);
    return m;
}

static void memos_free(void)
{
    for (Memo *m = memos; m; m = m->next)
        dist_free(&m->d);
    memos = NULL;
}

typedef struct { int proc; Value *args; } BodyRun;

static Value run_body(void *arg)
{
    BodyRun *r = arg;
    Proc *p = &P->procs[r->proc];
    Frame f;
    f.slots = alloc(sizeof(Value) * (size_t)(p->nslots + 1));
    for (int i = 0; i < p->nparams; i++) f.slots[i] = r->args[i];
    Value ret = { 0 };
    int done = 0;
    if (++call_depth > 100) bail(END_REJECT);   /* (an argument grown huge, counted down one at a time) */
    exec_body(p->body, p->nbody, &f, &ret, &done);
    call_depth--;
    if (!done) bail(END_REJECT);
    return ret;
}

static Value walk_call(int pi, Value *args);
static Value need(Value v);

static Value call_proc(int pi, Value *args)
{
    Proc *p = &P->procs[pi];
    if (p->walk)
        return walk_call(pi, args);
    if (!p->rerolls) {
        BodyRun r = { pi, args };
        return run_body(&r);
    }
    Buf key = { 0 };
    bputs(&key, "");
    for (int i = 0; i < p->nparams; i++) {
        render(&key, args[i], p->params[i].ty);
        bputs(&key, ";");
    }
    int fresh;
    Memo *m = memo_get(pi, &key, &fresh);
    if (fresh) {
        BodyRun r = { pi, args };
        enumerate(run_body, &r, p->ret, 1, &m->d);   /* (an unknown result is passed on) */
        double nested = run_cost_max;
        double share = normalise(&m->d);
        /* the attempts a call takes, each with the attempts of the rerolling
         * calls it makes: rerolls nested in rerolls make a simulation that
         * runs into the reroll limit (a million in one run) */
        m->cost = share > 0 ? (1 + nested) / share : 0;
        if (m->cost > 1000) reject = 1;
        if (reject) {
            dist_free(&m->d);
            bail(END_REJECT);
        }
        m->next = memos;
        memos = m;
    }
    run_cost += m->cost;
    return pick(&m->d);
}

/* The odds of a walk from position x of reaching its top end: with u and d
 * the chances of a step up and down given a step (a `stay` only delays),
 * (1 - (d/u)^(x-lo)) / (1 - (d/u)^(hi-lo)), or (x-lo)/(hi-lo) when u = d. */
static void walk_top(const Proc *p, int64_t x, mpq_t out)
{
    int64_t ups = p->sides - p->up + 1, downs = p->up - 1 - (p->stay ? 1 : 0);
    if (x <= p->lo) { mpq_set_ui(out, 0, 1); return; }
    if (x >= p->hi) { mpq_set_ui(out, 1, 1); return; }
    if (ups == downs) {
        mpq_set_ui(out, (unsigned long)(x - p->lo), (unsigned long)(p->hi - p->lo));
        mpq_canonicalize(out);
        return;
    }
    mpz_t a, b, num, den;
    mpz_inits(a, b, num, den, NULL);
    /* (d/u)^k = downs^k / ups^k: scale both by ups^(hi-lo) */
    int64_t k = x - p->lo, n = p->hi - p->lo;
    mpz_ui_pow_ui(a, (unsigned long)downs, (unsigned long)k);
    mpz_ui_pow_ui(b, (unsigned long)ups, (unsigned long)k);
    mpz_sub(num, b, a);                          /* ups^k - downs^k */
    mpz_ui_pow_ui(b, (unsigned long)ups, (unsigned long)(n - k));
    mpz_mul(num, num, b);                        /* times ups^(n-k) */
    mpz_ui_pow_ui(a, (unsigned long)downs, (unsigned long)n);
    mpz_ui_pow_ui(den, (unsigned long)ups, (unsigned long)n);
    mpz_sub(den, den, a);                        /* ups^n - downs^n */
    mpq_set_num(out, num);
    mpq_set_den(out, den);
    mpq_canonicalize(out);   /* (the signs of both, when downs > ups) */
    mpz_clears(a, b, num, den, NULL);
}

/* A call of a walk: one of its two ends, chosen with the walk's odds. */
static Value walk_call(int pi, Value *args)
{
    Proc *p = &P->procs[pi];
    need(args[0]);
    Buf key = { 0 };
    bprintf(&key, "walk %lld", (long long)args[0].n);
    int fresh;
    Memo *m = memo_get(pi, &key, &fresh);
    if (fresh) {
        mpq_t top, bottom;
        mpq_inits(top, bottom, NULL);
        walk_top(p, args[0].n, top);
        mpq_set_ui(bottom, 1, 1);
        mpq_sub(bottom, bottom, top);
        Buf r = { 0 };
        for (int end = 0; end < 2; end++) {
            Value v = eval(p->ends[end], NULL);
            bclear(&r);
            render(&r, v, p->ret);
            if (mpq_sgn(end ? top : bottom) > 0)
                dist_add(&m->d, r.s, v, end ? top : bottom);
        }
        free(r.s);
        mpq_clears(top, bottom, NULL);
        m->cost = 0;
        m->next = memos;
        memos = m;
    }
    return pick(&m->d);
}

static Value run_claim(void *arg) { return eval(arg, NULL); }

static Value *pool_new(int n)
{
    Value *v = alloc(sizeof *v);
    v->kind = T_POOL;
    v->np = n;
    v->faces = alloc(sizeof(int64_t) * (n ? n : 1));
    return v;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static Value filter(Value p, int op, Value x)
{
    Value *r = pool_new(p.np);
    r->np = 0;
    for (int i = 0; i < p.np; i++)
        if (cmp_holds(op, num_cmp(vint(p.faces[i]), x)))
            r->faces[r->np++] = p.faces[i];
    return *r;
}

static Value eval_call_args(Expr *e, Value *args, Param *params, int nparams, Frame *f)
{
    /* written arguments in the order written, then the defaults */
    for (int i = 0; i < e->nargs; i++) {
        int pi = e->order[i];
        args[pi] = eval(e->args[pi], f);
    }
    for (int i = 0; i < nparams; i++)
        if (!e->args[i])
            args[i] = eval(params[i].def, NULL);
    return vint(0);
}

/* What the language says of an unknown: kept, passed on and returned
 * like any value, it stops the run (not given) where its value is needed. */
static Value unknown(Type ty) { Value v = { .kind = ty.kind, .d = 1, .unk = 1 }; return v; }
static Value need(Value v) { if (v.unk) bail(END_NOT_GIVEN); return v; }
#define NEED(x) need(eval((x), f))

static Value eval(Expr *e, Frame *f)
{
    Value a, b, c;
    switch (e->op) {
    case E_NUM: return vint(e->k);
    case E_BOOLK: return vbool((int)e->k);
    case E_MEMBER: { Value v = { .kind = T_ENUM, .n = e->k, .d = 1 }; return v; }
    case E_VAR: return f->slots[e->k];
    case E_ADD: a = eval(e->a, f); b = eval(e->b, f); need(a); need(b); return num((__int128)a.n * b.d + (__int128)b.n * a.d, (__int128)a.d * b.d);
    case E_SUB: a = eval(e->a, f); b = eval(e->b, f); need(a); need(b); return num((__int128)a.n * b.d - (__int128)b.n * a.d, (__int128)a.d * b.d);
    case E_MUL: a = eval(e->a, f); b = eval(e->b, f); need(a); need(b); return num((__int128)a.n * b.n, (__int128)a.d * b.d);
    case E_DIV:
        a = eval(e->a, f); b = eval(e->b, f); need(a); need(b);
        if (b.n == 0) bail(END_REJECT);
        return num((__int128)a.n * b.d, (__int128)a.d * b.n);
    case E_MOD: {
        a = eval(e->a, f); b = eval(e->b, f); need(a); need(b);
        if (b.n == 0) bail(END_REJECT);
        int64_t r = a.n % b.n;
        if (r != 0 && ((r < 0) != (b.n < 0))) r += b.n;
        return vint(r);
    }
    case E_NEG: a = NEED(e->a); return num(-(__int128)a.n, a.d);
    case E_CMP:
        a = eval(e->a, f); b = eval(e->b, f); need(a); need(b);
        if (e->a->ty.kind == T_BOOL || e->a->ty.kind == T_ENUM) return vbool(cmp_holds((int)e->k, (a.n > b.n) - (a.n < b.n)));
        return vbool(cmp_holds((int)e->k, num_cmp(a, b)));
    case E_AND: a = NEED(e->a); if (!a.n) return a; return eval(e->b, f);
    case E_OR: a = NEED(e->a); if (a.n) return a; return eval(e->b, f);
    case E_NOT: a = NEED(e->a); return vbool(!a.n);
    case E_MIN: a = eval(e->a, f); b = eval(e->b, f); need(a); need(b); return num_cmp(a, b) <= 0 ? a : b;
    case E_MAX: a = eval(e->a, f); b = eval(e->b, f); need(a); need(b); return num_cmp(a, b) >= 0 ? a : b;
    case E_CLAMP:
        a = eval(e->a, f); b = eval(e->b, f); c = eval(e->c, f); need(a); need(b); need(c);
        if (num_cmp(a, b) < 0) a = b;
        if (num_cmp(a, c) > 0) a = c;
        return a;
    case E_ABS: a = NEED(e->a); return num(a.n < 0 ? -(__int128)a.n : a.n, a.d);
    case E_FLOOR: a = NEED(e->a); return vint(floor_div(a.n, a.d));
    case E_CEIL: a = NEED(e->a); return vint(-floor_div(-a.n, a.d));
    case E_ROUND: {
        a = NEED(e->a);
        /* halves away from zero */
        int64_t m = a.n < 0 ? -a.n : a.n;
        int64_t r = floor_div(2 * m + a.d, 2 * a.d);
        return vint(a.n < 0 ? -r : r);
    }
    case E_ROLL1: return vint(roll_die(e->k));
    case E_ROLLD: a = NEED(e->a); return vint(roll_die(a.n));
    case E_ROLLN: {
        /* (both worked out before either is needed, as the machine does) */
        a = eval(e->a, f);
        b = e->b ? eval(e->b, f) : vint(e->k);
        need(a);
        need(b);
        if (a.n < 0 || a.n > 16) bail(END_REJECT);
        int64_t sides = b.n;
        Value *p = pool_new((int)a.n);
        if (a.n >= 2) {
            roll_multiset((int)a.n, (int)sides, p->faces);
            return *p;
        }
        for (int i = 0; i < p->np; i++) p->faces[i] = roll_die(sides);
        qsort(p->faces, p->np, sizeof(int64_t), cmp_i64);
        return *p;
    }
    case E_ROLLC: {
        /* a die of its own faces: each face equally likely, the pool its
         * faces' values (a multiset of faces, then their values) */
        a = eval(e->a, f);
        need(a);
        if (a.n < 0 || a.n > 16) bail(END_REJECT);
        int sides = P->die_n[e->k];
        Value *p = pool_new((int)a.n);
        if (a.n >= 2)
            roll_multiset((int)a.n, sides, p->faces);
        else
            for (int i = 0; i < p->np; i++) p->faces[i] = roll_die(sides);
        for (int i = 0; i < p->np; i++) p->faces[i] = P->die_v[e->k][p->faces[i] - 1];
        qsort(p->faces, p->np, sizeof(int64_t), cmp_i64);
        return *p;
    }
    case E_INP: {
        a = NEED(e->a);
        Value *p = pool_new(0);
        p->faces = alloc(sizeof(int64_t) * (size_t)(a.np + 1));
        for (int i = 0; i < a.np; i++)
            if (a.faces[i] >= -2 && a.faces[i] <= 12 && (e->k >> (a.faces[i] + 2) & 1))
                p->faces[p->np++] = a.faces[i];
        return *p;
    }
    case E_DRAW1: {
        a = vint(draw_item((int)e->k2));
        if (e->k2) a.kind = T_ENUM;
        return a;
    }
    case E_DRAWN: {
        /* one item on its own, several as one choice of how many of each */
        a = eval(e->a, f);
        need(a);
        if (a.n < 0 || a.n > 12) bail(END_REJECT);
        Value *p = pool_new((int)a.n);
        if (a.n == 1) p->faces[0] = draw_item((int)e->k2);
        else draw_many((int)e->k2, (int)a.n, p->faces);
        return *p;
    }
    case E_MIXED: {
        /* roll [n1 dS1, n2 dS2, ...]: each part rolled in turn, as above,
         * and the pool is all their dice */
        int64_t faces[64];
        int n = 0;
        for (int i = 0; i < e->nargs; i++) {
            Value part = eval(e->args[i], f);
            need(part);
            for (int j = 0; j < part.np; j++) faces[n++] = part.faces[j];
        }
        Value *p = pool_new(n);
        memcpy(p->faces, faces, sizeof(int64_t) * (size_t)n);
        qsort(p->faces, p->np, sizeof(int64_t), cmp_i64);
        return *p;
    }
    case E_FILTER: a = eval(e->a, f); b = eval(e->b, f); need(a); need(b); return filter(a, (int)e->k, b);
    case E_COUNT: a = NEED(e->a); return vint(a.np);
    case E_SUM: { a = NEED(e->a); int64_t s = 0; for (int i = 0; i < a.np; i++) s += a.faces[i]; return vint(s); }
    case E_HIGHEST: a = NEED(e->a); if (!a.np) bail(END_REJECT); return vint(a.faces[a.np - 1]);
    case E_LOWEST: a = NEED(e->a); if (!a.np) bail(END_REJECT); return vint(a.faces[0]);
    case E_HIGHESTN: case E_LOWESTN: {
        a = eval(e->a, f); b = eval(e->b, f); need(a); need(b);
        if (a.n < 0) bail(END_REJECT);
        int n = a.n < b.np ? (int)a.n : b.np;
        Value *p = pool_new(n);
        for (int i = 0; i < n; i++) p->faces[i] = e->op == E_LOWESTN ? b.faces[i] : b.faces[b.np - n + i];
        return *p;
    }
    case E_ANY: a = NEED(e->a); return vbool(a.np > 0);
    case E_ANYCMP: a = eval(e->a, f); b = eval(e->b, f); need(a); need(b); return vbool(filter(a, (int)e->k, b).np > 0);
    case E_ALLCMP: a = eval(e->a, f); b = eval(e->b, f); need(a); need(b); return vbool(filter(a, (int)e->k, b).np == a.np);
    case E_DOUBLES:
        a = NEED(e->a);
        for (int i = 1; i < a.np; i++) if (a.faces[i] == a.faces[i - 1]) return vbool(1);
        return vbool(0);
    case E_CALL: {
        Proc *p = &P->procs[e->k];
        Value *args = alloc(sizeof(Value) * MAX_PARAMS);
        eval_call_args(e, args, p->params, p->nparams, f);
        return call_proc((int)e->k, args);
    }
    case E_TABLE: {
        a = NEED(e->a);
        if (!P->table_given[a.n]) return unknown(e->ty);
        if (P->table_ret.kind == T_ENUM) { Value v = { .kind = T_ENUM, .n = P->table_cells[a.n], .d = 1 }; return v; }
        return vint(P->table_cells[a.n]);
    }
    case E_BANDS: {
        a = NEED(e->a);
        int i = 0;
        while (i < P->nbands - 1 && a.n > P->bands_cut[i]) i++;
        if (P->bands_ret.kind == T_ENUM) { Value v = { .kind = T_ENUM, .n = P->bands_val[i], .d = 1 }; return v; }
        return vint(P->bands_val[i]);
    }
    case E_MODS: {
        Value args[2];
        Param params[2] = { { P->mods_params[0], NULL }, { P->mods_params[1], NULL } };
        eval_call_args(e, args, params, 2, f);
        Frame mf = { args };
        Value total = vint(P->has_start ? P->start : 0);
        for (int i = 0; i < P->nmods; i++) {
            ModItem *m = &P->mods[i];
            ModItem *one = m;
            if (m->kind == M_ONEOF) {
                /* the first item whose condition holds, its condition worked out once */
                one = NULL;
                for (int j = 0; j < m->nitems && !one; j++)
                    if (need(eval(m->items[j].cond, &mf)).n) one = &m->items[j];
                if (one) total = num((__int128)total.n + (__int128)one->amount * total.d, total.d);
                continue;
            }
            if (one->kind == M_ADD) {
                if (need(eval(one->cond, &mf)).n) total = num((__int128)total.n + (__int128)one->amount * total.d, total.d);
            } else if (one->kind == M_EACH) {
                int64_t k = need(eval(one->cond, &mf)).n;
                total = num((__int128)total.n + (__int128)k * one->amount * total.d, total.d);
            } else if (one->kind == M_MUL) {
                if (need(eval(one->cond, &mf)).n) total = num((__int128)total.n * one->amount, (__int128)total.d * one->den);
            } else if (one->kind == M_CAP) {
                if (one->has_lo && num_cmp(total, vint(one->lo)) < 0) total = vint(one->lo);
                if (one->has_hi && num_cmp(total, vint(one->hi)) > 0) total = vint(one->hi);
            }
        }
        return total;
    }
    case E_RECNEW: {
        Value *fields = alloc(sizeof(Value) * P->nfields);
        Param params[3];
        for (int i = 0; i < P->nfields; i++) { params[i].ty = P->fields[i].ty; params[i].def = P->fields[i].def; }
        eval_call_args(e, fields, params, P->nfields, f);
        Value v = { .kind = T_REC, .fields = fields };
        return v;
    }
    case E_FIELD:
        /* a field of a record not given is not given either */
        a = eval(e->a, f);
        if (a.unk) { a.kind = e->ty.kind; return a; }
        return a.fields[e->k];
    case E_PROB: {
        if (!e->memo) {
            Dist d = { 0 };
            enumerate(run_claim, e->a, e->a->ty, 0, &d);
            if (reject) { dist_free(&d); bail(END_REJECT); }
            Value *v = alloc(sizeof *v);
            *v = vint(0);
            v->kind = T_RAT;
            for (int i = 0; i < d.n; i++) {
                if (!strcmp(d.o[i].key, "null")) reject = 1;   /* prob() refuses a claim that can reach '?' */
                else if (d.o[i].v.n) {
                    if (!mpz_fits_slong_p(mpq_numref(d.o[i].w)) || !mpz_fits_slong_p(mpq_denref(d.o[i].w))) reject = 1;
                    else *v = num(mpz_get_si(mpq_numref(d.o[i].w)), mpz_get_si(mpq_denref(d.o[i].w)));
                }
            }
            dist_free(&d);
            if (reject) bail(END_REJECT);
            e->memo = v;
        }
        return *(Value *)e->memo;
    }
    case E_OFIELD: {
        a = eval(e->a, f);
        Enum *en = &P->enums[e->a->ty.id];
        if (a.unk || !en->n_given[a.n]) return unknown(e->ty);
        return vint(en->n[a.n]);
    }
    case E_CHOOSE: return vbool(P->chosen == e->k);
    case E_UNK: return unknown(e->ty);
    case E_SHIFT: {
        a = eval(e->a, f); b = eval(e->b, f); need(a); need(b);
        int64_t m = a.n + b.n, top = P->enums[e->a->ty.id].nmembers - 1;
        if (m < 0) m = 0;
        if (m > top) m = top;
        a.n = m;
        return a;
    }
    }
    bail(END_REJECT);
    return vint(0);
}

#undef NEED

static void exec_body(Stmt **body, int n, Frame *f, Value *ret, int *done)
{
    for (int i = 0; i < n && !*done; i++) {
        Stmt *s = body[i];
        switch (s->kind) {
        case S_LET: case S_ASSIGN: f->slots[s->slot] = eval(s->e, f); break;
        case S_IF:
            if (need(eval(s->e, f)).n) exec_body(s->then, s->nthen, f, ret, done);
            else exec_body(s->els, s->nels, f, ret, done);
            break;
        case S_RETURN: *ret = eval(s->e, f); *done = 1; break;
        case S_REROLL: bail(END_REROLL);
        }
    }
}

/* ---------------------------------------------------------------- generator */

typedef struct { int slot; Type ty; } Var;
typedef struct { Var v[MAX_SLOTS]; int n; int proc; } Scope;   /* proc: calls may go to later ones only */

static Type TY(int kind, int id) { Type t = { kind, id }; return t; }

static Expr *mk(int op, Type ty)
{
    Expr *e = alloc(sizeof *e);
    e->op = op;
    e->ty = ty;
    return e;
}
static Expr *mk2(int op, Type ty, Expr *a, Expr *b) { Expr *e = mk(op, ty); e->a = a; e->b = b; return e; }
static Expr *mknum(int64_t k) { Expr *e = mk(E_NUM, TY(T_INT, 0)); e->k = k; return e; }

static int dice_sites;    /* rolls written in the procedure being generated */
static int in_mods;       /* generating the modifier list: no calls of it, no claims */
static int no_draws;      /* generating a parameter's default: it may not draw (muster refuses it) */
static const int SIDES[] = { 2, 3, 4, 6, 6, 6, 8 };

static Expr *gen(Type ty, int depth, Scope *sc);

static int bag_total(int b)
{
    int total = 0;
    for (int k = 0; k < P->bag_n[b]; k++) total += P->bag_c[b][k];
    return total;
}
static int can_draw(int b) { return P->bag_n[b] && !no_draws; }
static Expr *gen_epool(Scope *sc, int nonempty);
static Expr *gen_epool_use(Type ty, int depth, Scope *sc);
static Stmt *mkstmt(int kind);

/* A value that is kept, passed on or returned (a local's, an argument, a
 * record's field, a result, a default): now and then '?', a value the
 * rules text does not give, more often for a record's field. */
static Expr *gen_passed(Type ty, int depth, Scope *sc, int percent)
{
    if (chance(percent)) return mk(E_UNK, ty);
    return gen(ty, depth, sc);
}

static Expr *var_of(Type ty, Scope *sc)
{
    int cand[MAX_SLOTS], n = 0;
    for (int i = 0; i < sc->n; i++)
        if (type_eq(sc->v[i].ty, ty)) cand[n++] = i;
    if (!n) return NULL;
    Expr *e = mk(E_VAR, ty);
    e->k = sc->v[cand[rnd(n)]].slot;
    return e;
}

/* The arguments of a call: each parameter given (positionally while that
 * is possible, then by name in any order) or left to its default. */
static void gen_args(Expr *e, Param *params, int n, Scope *sc, int depth, int unknowns)
{
    e->nargs = 0;
    e->args = alloc(sizeof(Expr *) * (n ? n : 1));
    e->order = alloc(sizeof(int) * (n ? n : 1));
    int positional = 1;
    e->npositional = 0;
    for (int i = 0; i < n; i++) {
        if (params[i].def && chance(45)) { positional = 0; continue; }
        e->args[i] = gen_passed(params[i].ty, depth, sc, unknowns);
        e->order[e->nargs++] = i;
        if (positional && chance(70)) e->npositional++;
        else positional = 0;
    }
    /* shuffle the named ones */
    for (int i = e->nargs - 1; i > e->npositional; i--) {
        int j = e->npositional + rnd(i - e->npositional + 1);
        int t = e->order[i]; e->order[i] = e->order[j]; e->order[j] = t;
    }
}

static Expr *gen_call(Type ty, int depth, Scope *sc)
{
    int cand[MAX_PROCS], n = 0;
    for (int i = sc->proc + 1; i < P->nprocs; i++)
        if (type_eq(P->procs[i].ret, ty)) cand[n++] = i;
    if (!n) return NULL;
    Expr *e = mk(E_CALL, ty);
    e->k = cand[rnd(n)];
    gen_args(e, P->procs[e->k].params, P->procs[e->k].nparams, sc, depth - 1, 3);
    return e;
}

static Expr *gen_pool(int depth, Scope *sc, int nonempty)
{
    Expr *v = var_of(TY(T_POOL, 0), sc);
    if (v && !nonempty && chance(50)) return v;
    int r = rnd(10);
    if (depth > 0 && !nonempty && r == 0) {
        Expr *e = mk2(E_FILTER, TY(T_POOL, 0), gen_pool(depth - 1, sc, 0), mknum(range(1, 5)));
        e->k = rnd(6);
        return e;
    }
    if (depth > 0 && r == 1) {
        Expr *e = mk2(chance(50) ? E_HIGHESTN : E_LOWESTN, TY(T_POOL, 0), mknum(range(nonempty, 2)), gen_pool(depth - 1, sc, nonempty));
        return e;
    }
    if (r == 2) {
        /* a mixed pool: two or three parts of dice of different sides */
        dice_sites++;
        Expr *e = mk(E_MIXED, TY(T_POOL, 0));
        e->nargs = range(2, 3);
        e->args = alloc(sizeof *e->args * (size_t)e->nargs);
        for (int i = 0; i < e->nargs; i++) {
            int own = P->ndies && chance(40);
            Expr *part = mk(own ? E_ROLLC : E_ROLLN, TY(T_POOL, 0));
            part->k = own ? rnd(P->ndies) : SIDES[rnd(7)];
            part->a = mknum(i == 0 && nonempty ? range(1, 3) : range(0, 3));
            if (!own && chance(12)) {
                /* dice of more than 64 faces among them */
                part->k = chance(50) ? 70 : 100;
                part->a = mknum(i == 0 && nonempty ? 1 : range(0, 2));
            }
            e->args[i] = part;
        }
        return e;
    }
    if (depth > 0 && r == 5 && chance(50)) {
        /* the dice showing one of a few values (-2..12, bit v+2) */
        Expr *e = mk(E_INP, TY(T_POOL, 0));
        e->a = gen_pool(depth - 1, sc, 0);
        do e->k = (int64_t)rnd(1 << 15); while (!e->k || __builtin_popcountll((uint64_t)e->k) > 4);
        return e;
    }
    if (r == 4 && P->bag_n[0] && !no_draws && dice_sites < 6) {
        /* items drawn from the bag, not put back (a count no more than it holds) */
        dice_sites++;
        int total = bag_total(0);
        Expr *e = mk(E_DRAWN, TY(T_POOL, 0));
        e->a = mknum(range(nonempty, total < 3 ? total : 3));
        return e;
    }
    if (r == 3 && P->ndies) {
        /* dice of a die of their own faces */
        dice_sites++;
        Expr *e = mk(E_ROLLC, TY(T_POOL, 0));
        e->k = rnd(P->ndies);
        e->a = mknum(chance(20) ? range(4, 6) : range(nonempty, 3));
        return e;
    }
    dice_sites++;
    Expr *e = mk(E_ROLLN, TY(T_POOL, 0));
    if (chance(15)) {
        /* a bigger pool, counted as multisets by the brute force, where
         * muster works some questions out face by face */
        static const int BIG[][2] = { { 4, 6 }, { 5, 6 }, { 6, 4 }, { 8, 3 }, { 10, 2 }, { 12, 2 }, { 7, 3 }, { 5, 8 },
                                      { 2, 70 }, { 2, 100 }, { 1, 100 }, { 3, 65 } };
        int b = rnd(12);
        e->k = BIG[b][1];
        e->a = mknum(BIG[b][0]);
        if (e->k > 64 && chance(50)) {
            /* dice of more than 64 faces, compared to one of their faces */
            Expr *f = mk2(E_FILTER, TY(T_POOL, 0), e, mknum(range(0, (int)e->k + 1)));
            f->k = rnd(6);
            return f;
        }
        return e;
    }
    e->k = SIDES[rnd(7)];
    if (depth > 0 && chance(25)) {
        Expr *c = mk(E_CLAMP, TY(T_INT, 0));
        c->a = gen(TY(T_INT, 0), depth - 1, sc);
        c->b = mknum(nonempty ? 1 : 0);
        c->c = mknum(range(1, 3));
        e->a = c;
    } else {
        e->a = mknum(nonempty || !chance(10) ? range(1, 3) : 0);
    }
    if (depth > 0 && chance(10)) {
        Expr *c = mk(E_CLAMP, TY(T_INT, 0));
        c->a = gen(TY(T_INT, 0), depth - 1, sc);
        c->b = mknum(1);
        c->c = mknum(range(2, 6));
        e->b = c;
    }
    return e;
}

static Expr *gen_claim(int proc)
{
    Scope empty = { .n = 0, .proc = proc };
    Expr *e = mk(E_CMP, TY(T_BOOL, 0));
    e->a = gen(TY(T_INT, 0), 2, &empty);
    e->b = mknum(range(0, 6));
    e->k = rnd(6);
    return e;
}

static Expr *gen(Type ty, int depth, Scope *sc)
{
    Expr *e = NULL;
    if (depth <= 0 || chance(15)) {
        /* leaves */
        if (chance(55) && (e = var_of(ty, sc))) return e;
        switch (ty.kind) {
        case T_INT:
            if (can_draw(0) && chance(20) && dice_sites < 6) { dice_sites++; return mk(E_DRAW1, ty); }
            if (chance(45) && dice_sites < 6) { dice_sites++; e = mk(E_ROLL1, ty); e->k = SIDES[rnd(7)]; return e; }
            return mknum(range(0, 4));
        case T_RAT: { e = mk2(E_DIV, ty, mknum(range(0, 5)), mknum(range(1, 4))); return e; }
        case T_BOOL:
            if (chance(50)) { e = mk(E_BOOLK, ty); e->k = rnd(2); return e; }
            e = mk(E_CMP, ty); e->a = gen(TY(T_INT, 0), 0, sc); e->b = mknum(range(1, 4)); e->k = rnd(6); return e;
        case T_ENUM:
            if (can_draw(1) && ty.id == P->bag_enum && chance(25) && dice_sites < 6) {
                dice_sites++;
                e = mk(E_DRAW1, ty);
                e->k2 = 1;
                return e;
            }
            e = mk(E_MEMBER, ty); e->k = rnd(P->enums[ty.id].nmembers); return e;
        case T_POOL: return gen_pool(0, sc, 0);
        case T_REC: break;
        }
    }
    Type INT = TY(T_INT, 0), BOOL = TY(T_BOOL, 0), RAT = TY(T_RAT, 0);
    for (int tries = 0; tries < 20 && !e; tries++) {
        int r = rnd(16);
        switch (ty.kind) {
        case T_INT:
            switch (r) {
            case 0: e = mk2(rnd(2) ? E_ADD : E_SUB, ty, gen(INT, depth - 1, sc), gen(INT, depth - 1, sc)); break;
            case 1: e = mk2(E_MUL, ty, gen(INT, depth - 1, sc), mknum(range(-1, 3))); break;
            case 2: e = mk2(rnd(2) ? E_MIN : E_MAX, ty, gen(INT, depth - 1, sc), gen(INT, depth - 1, sc)); break;
            case 3: e = mk2(E_CLAMP, ty, gen(INT, depth - 1, sc), mknum(range(-1, 2))); e->c = mknum(range(2, 6)); break;
            case 4: e = mk(rnd(3) == 0 ? E_ROUND : rnd(2) ? E_FLOOR : E_CEIL, ty); e->a = gen(RAT, depth - 1, sc); break;
            case 5: e = mk2(E_MOD, ty, gen(INT, depth - 1, sc), mknum(range(2, 3))); break;
            case 6: e = mk(E_ABS, ty); e->a = mk2(E_SUB, ty, gen(INT, depth - 1, sc), mknum(range(1, 4))); break;
            case 7:
                if (can_draw(1) && chance(30)) { e = gen_epool_use(ty, depth, sc); break; }
                e = mk(rnd(2) ? E_SUM : E_COUNT, ty); e->a = gen_pool(depth - 1, sc, 0); break;
            case 8: e = mk(rnd(2) ? E_HIGHEST : E_LOWEST, ty); e->a = gen_pool(depth - 1, sc, 1); break;
            case 9: case 10: e = gen_call(ty, depth, sc); break;
            case 11:
                if (P->has_table && P->table_ret.kind == T_INT) { e = mk(E_TABLE, ty); e->a = gen(P->table_key, depth - 1, sc); }
                break;
            case 12:
                if (P->has_bands && P->bands_ret.kind == T_INT) { e = mk(E_BANDS, ty); e->a = gen(INT, depth - 1, sc); }
                break;
            case 13:
                if (P->has_mods && !P->mods_rat && !in_mods) {
                    e = mk(E_MODS, ty);
                    Param params[2] = { { P->mods_params[0], NULL }, { P->mods_params[1], NULL } };
                    gen_args(e, params, 2, sc, depth - 1, 0);
                }
                break;
            case 14:
                if (chance(50)) {
                    for (int i = 0; i < P->nenums; i++)
                        if (P->enums[i].outcome) { e = mk(E_OFIELD, ty); e->a = gen(TY(T_ENUM, i), depth - 1, sc); break; }
                } else if (P->has_rec) {
                    for (int i = 0; i < P->nfields; i++)
                        if (P->fields[i].ty.kind == T_INT && chance(60)) {
                            e = mk(E_FIELD, ty); e->k = i; e->a = gen(TY(T_REC, 0), depth - 1, sc); break;
                        }
                }
                break;
            case 15:
                if (dice_sites < 6 && chance(30)) {
                    dice_sites++;
                    e = mk(E_ROLLD, ty);
                    e->a = mk(E_CLAMP, ty);
                    e->a->a = gen(INT, depth - 1, sc); e->a->b = mknum(1); e->a->c = mknum(range(2, 6));
                    break;
                }
                /* fall through */
            default: if (dice_sites < 6) { dice_sites++; e = mk(E_ROLL1, ty); e->k = SIDES[rnd(7)]; } break;
            }
            break;
        case T_RAT:
            switch (r % 6) {
            case 0: e = mk2(E_DIV, ty, gen(INT, depth - 1, sc), mknum(range(1, 4))); break;
            case 1: e = mk2(rnd(2) ? E_ADD : E_SUB, ty, gen(RAT, depth - 1, sc), gen(INT, depth - 1, sc)); break;
            case 2: e = mk2(E_MUL, ty, gen(RAT, depth - 1, sc), mk2(E_DIV, ty, mknum(range(1, 3)), mknum(range(1, 4)))); break;
            case 3: e = gen_call(ty, depth, sc); break;
            case 4: if (!in_mods && !P->has_bag && chance(15)) { e = mk(E_PROB, ty); e->a = gen_claim(sc->proc); } break;
            case 5:
                if (P->has_mods && P->mods_rat && !in_mods) {
                    e = mk(E_MODS, ty);
                    Param params[2] = { { P->mods_params[0], NULL }, { P->mods_params[1], NULL } };
                    gen_args(e, params, 2, sc, depth - 1, 0);
                }
                break;
            }
            break;
        case T_BOOL:
            switch (r % 12) {
            case 0: case 1: {
                e = mk(E_CMP, ty); e->k = rnd(6);
                int t = rnd(3);
                Type at = t == 0 ? INT : t == 1 ? RAT : TY(T_ENUM, rnd(P->nenums));
                e->a = gen(at, depth - 1, sc);
                e->b = at.kind == T_ENUM ? gen(at, 0, sc) : gen(INT, depth - 1, sc);
                break;
            }
            case 2: e = mk(E_NOT, ty); e->a = gen(BOOL, depth - 1, sc); break;
            case 3: e = mk2(rnd(2) ? E_AND : E_OR, ty, gen(BOOL, depth - 1, sc), gen(BOOL, depth - 1, sc)); break;
            case 4: e = mk2(rnd(2) ? E_ANYCMP : E_ALLCMP, ty, gen_pool(depth - 1, sc, 0), mknum(range(1, 6))); e->k = rnd(6); break;
            case 5:
                if (can_draw(1) && chance(30)) { e = gen_epool_use(ty, depth, sc); break; }
                e = mk(rnd(2) ? E_ANY : E_DOUBLES, ty); e->a = gen_pool(depth - 1, sc, 0); break;
            case 6: case 7: e = gen_call(ty, depth, sc); break;
            case 8:
                if (!in_mods && !P->has_bag && chance(10)) {
                    e = mk(E_CMP, ty); e->k = rnd(6);
                    e->a = mk(E_PROB, RAT); e->a->a = gen_claim(sc->proc);
                    e->b = mk2(E_DIV, RAT, mknum(range(0, 4)), mknum(4));
                }
                break;
            case 9:
                if (P->has_choice && chance(50)) { e = mk(E_CHOOSE, ty); e->k = rnd(P->noptions); break; }
                if (P->has_rec) for (int i = 0; i < P->nfields; i++)
                    if (P->fields[i].ty.kind == T_BOOL) { e = mk(E_FIELD, ty); e->k = i; e->a = gen(TY(T_REC, 0), depth - 1, sc); break; }
                break;
            default: e = mk2(E_CMP, ty, gen(INT, depth - 1, sc), gen(INT, depth - 1, sc)); e->k = rnd(6); break;
            }
            break;
        case T_ENUM:
            switch (r % 6) {
            case 0: case 1: e = gen_call(ty, depth, sc); break;
            case 2: if (P->has_bands && type_eq(P->bands_ret, ty)) { e = mk(E_BANDS, ty); e->a = gen(INT, depth - 1, sc); } break;
            case 3: if (P->has_table && type_eq(P->table_ret, ty)) { e = mk(E_TABLE, ty); e->a = gen(P->table_key, depth - 1, sc); } break;
            case 4: if (P->enums[ty.id].ladder) { e = mk2(E_SHIFT, ty, gen(ty, depth - 1, sc), gen(INT, depth - 1, sc)); } break;
            default:
                if (can_draw(1) && ty.id == P->bag_enum && chance(40)) { e = gen_epool_use(ty, depth, sc); break; }
                e = mk(E_MEMBER, ty); e->k = rnd(P->enums[ty.id].nmembers); break;
            }
            break;
        case T_POOL: e = gen_pool(depth, sc, 0); break;
        case T_REC:
            if (chance(30)) e = gen_call(ty, depth, sc);
            if (!e && chance(30)) e = var_of(ty, sc);
            if (!e) {
                e = mk(E_RECNEW, ty);
                Param params[3];
                for (int i = 0; i < P->nfields; i++) { params[i].ty = P->fields[i].ty; params[i].def = P->fields[i].def; }
                gen_args(e, params, P->nfields, sc, depth - 1, 12);
            }
            break;
        }
    }
    if (!e) return gen(ty, 0, sc);
    return e;
}

/* Items of bag Z (members of an enum) drawn several at once: a local that
 * holds such a pool, or a draw of 1 to 3 of them (at least 1 when the pool
 * must not be empty). */
static Expr *gen_epool(Scope *sc, int nonempty)
{
    Expr *v = var_of(TY(T_EPOOL, P->bag_enum), sc);
    if (v && chance(50)) return v;
    dice_sites++;
    int total = bag_total(1);
    Expr *e = mk(E_DRAWN, TY(T_EPOOL, P->bag_enum));
    e->k2 = 1;
    e->a = mknum(range(nonempty ? 1 : 0, total < 3 ? total : 3));
    if (nonempty && !e->a->k) e->a->k = 1;
    return e;
}

/* What is asked of a pool of members: how many show one (==, <, ... a
 * member, or in a list of members), whether any or all do, the highest or
 * lowest member (in the enum's order). */
static Expr *gen_epool_use(Type ty, int depth, Scope *sc)
{
    (void)depth;
    Type me = TY(T_ENUM, P->bag_enum);
    int nm = P->enums[P->bag_enum].nmembers;
    Expr *member = mk(E_MEMBER, me);
    member->k = rnd(nm);
    if (ty.kind == T_ENUM) {
        Expr *e = mk(chance(60) ? E_HIGHEST : E_LOWEST, me);
        e->a = gen_epool(sc, 1);
        return e;
    }
    if (ty.kind == T_BOOL) {
        Expr *e = mk2(chance(60) ? E_ANYCMP : E_ALLCMP, ty, gen_epool(sc, 0), member);
        e->k = rnd(6);
        return e;
    }
    Expr *e = mk(E_COUNT, TY(T_INT, 0));
    if (chance(30)) {
        Expr *in = mk(E_INP, TY(T_EPOOL, P->bag_enum));
        in->a = gen_epool(sc, 0);
        do in->k = (int64_t)rnd(1 << nm) << 2; while (!in->k);
        e->a = in;
    } else {
        e->a = mk2(E_FILTER, TY(T_EPOOL, P->bag_enum), gen_epool(sc, 0), member);
        e->a->k = chance(50) ? C_EQ : rnd(6);
    }
    return e;
}

/* A local of procedure p holding e: in sight of what follows (sc) or not,
 * when nothing after the statement that uses it next may use it. */
static Stmt *let_of(Proc *p, Scope *sc, Expr *e, Type t, int visible)
{
    Stmt *s = mkstmt(S_LET);
    s->e = e;
    s->slot = p->nslots;
    p->slot_ty[p->nslots++] = t;
    if (visible) { sc->v[sc->n].slot = s->slot; sc->v[sc->n].ty = t; sc->n++; }
    return s;
}
static Expr *var_at(int slot, Type t) { Expr *e = mk(E_VAR, t); e->k = slot; return e; }
static Stmt *assign_of(int slot, Expr *e) { Stmt *s = mkstmt(S_ASSIGN); s->slot = slot; s->e = e; return s; }
static Stmt *if_of(Expr *cond, Stmt *then, Stmt *els)
{
    Stmt *c = mkstmt(S_IF);
    c->e = cond;
    c->then = alloc(sizeof(Stmt *));
    c->then[0] = then;
    c->nthen = 1;
    if (els) {
        c->els = alloc(sizeof(Stmt *));
        c->els[0] = els;
        c->nels = 1;
    }
    return c;
}
static Expr *cmp_of(Expr *a, int op, Expr *b) { Expr *e = mk2(E_CMP, TY(T_BOOL, 0), a, b); e->k = op; return e; }
static Expr *roll_of(Expr *count, int sides) { Expr *e = mk(E_ROLLN, TY(T_POOL, 0)); e->a = count; e->k = sides; return e; }
static Expr *int_param(Proc *p)
{
    for (int i = 0; i < p->nparams; i++)
        if (p->params[i].ty.kind == T_INT) return var_at(i, p->params[i].ty);
    return NULL;
}

/* How many multisets n dice of s sides show: what a pool costs the brute force. */
static long multisets_of(int n, int s)
{
    long m = 1;
    for (int i = 1; i <= n; i++) m = m * (s - 1 + i) / i;
    return m;
}

/* A chain of dependent pools: a local counts (or sums, or takes the highest
 * of) a pool, and the next pool has that many dice, two to four stages, now
 * and then with an `if` between two stages that changes the local.  The
 * local of each stage is used by the next one and then dead, except that of
 * the last stage and now and then of one before it, which stay in sight of
 * what follows (*use gets them, added up, for the result).  Every count of
 * dice is kept to 4 or less, so that the brute force stays small. */
static int gen_chain(Proc *p, Scope *sc, Stmt **body, int n, Expr **use)
{
    Type INT = TY(T_INT, 0);
    int stages = range(2, chance(30) ? 4 : 3);
    Expr *count;
    int bound;                /* the most dice the next stage can roll */
    Expr *param = int_param(p);
    if (param && chance(30)) {
        bound = range(2, 3);
        count = mk(E_CLAMP, INT);
        count->a = param; count->b = mknum(0); count->c = mknum(bound);
    } else {
        bound = range(1, 3);
        count = mknum(bound);
    }
    int live = -1, last_slot = -1;
    for (int st = 0; st < stages; st++) {
        int last = st == stages - 1, drew = 0;
        Expr *pool;
        int sides, vb = bound;
        if (st == 0 && can_draw(0) && chance(30)) {
            /* the first stage draws from the bag: the next ones depend on
             * how many of what came out, and the bag's contents go on */
            int total = bag_total(0);
            pool = mk(E_DRAWN, TY(T_POOL, 0));
            pool->a = mknum(bound < total ? bound : total);
            vb = (int)pool->a->k;
            sides = 6;
            drew = 1;
        } else {
            static const int S[] = { 2, 3, 4, 6, 6, 8 };
            sides = S[rnd(6)];
            if (bound >= 3 && sides > 4 && st > 0 && chance(50)) sides = 4;
            pool = roll_of(count, sides);
        }
        dice_sites++;
        Expr *val;
        int r = rnd(10);
        if (r < 6 || (!last && r < 8 && bound * sides > 4 && pool->op != E_DRAWN)) {
            /* how many dice show (at least, at most, ...) a number */
            val = mk(E_COUNT, INT);
            if (r == 5 && pool->op == E_ROLLN) {
                val->a = mk(E_INP, TY(T_POOL, 0));
                val->a->a = pool;
                do val->a->k = (int64_t)rnd(1 << sides) << 3; while (!val->a->k);   /* faces 1..sides */
            } else {
                val->a = mk2(E_FILTER, TY(T_POOL, 0), pool, mknum(range(2, sides < 4 ? sides : 4)));
                val->a->k = chance(60) ? C_GE : rnd(6);
            }
        } else if (r < 8) {
            /* the sum: at the last stage, of items drawn, or of dice few and
             * small enough (2d2, 1d4) to be the next stage's count */
            val = mk(E_SUM, INT);
            val->a = pool;
            vb = bound * (pool->op == E_DRAWN ? 6 : sides);
        } else {
            /* the highest (or lowest) die: there is at least one */
            val = mk(chance(70) ? E_HIGHEST : E_LOWEST, INT);
            if (pool->op == E_ROLLN && !(count->op == E_NUM && count->k >= 1))
                pool->a = mk2(E_MAX, INT, count, mknum(1));
            else if (pool->op == E_DRAWN && pool->a->k == 0)
                pool->a->k = 1;
            val->a = pool;
            vb = pool->op == E_DRAWN ? 6 : sides;
        }
        int keep = last || (live < 0 && chance(35));
        Stmt *s = let_of(p, sc, val, INT, keep);
        body[n++] = s;
        if (keep && !last) live = s->slot;
        last_slot = s->slot;
        Expr *v = var_at(s->slot, INT);
        if (chance(35)) {
            /* an `if` that changes the local before the next stage */
            Expr *cond;
            int c = rnd(10);
            if (c < 4) cond = cmp_of(v, rnd(6), mknum(range(0, 2)));
            else if (c < 6) { Expr *d = mk(E_ROLL1, INT); d->k = SIDES[rnd(7)]; cond = cmp_of(d, rnd(6), mknum(range(1, 4))); dice_sites++; }
            else if (c == 6) cond = gen(TY(T_BOOL, 0), 1, sc);
            else if (c == 7) {
                /* a bool local, dead once the `if` has read it */
                Stmt *b = let_of(p, sc, cmp_of(v, rnd(6), mknum(range(0, 2))), TY(T_BOOL, 0), 0);
                body[n++] = b;
                cond = var_at(b->slot, TY(T_BOOL, 0));
            } else {
                /* a die rolled before the stage and kept in a local, compared
                 * with a number after it and dead then: a run carries it
                 * through the stage's roll to the `if` */
                Expr *d = mk(E_ROLL1, INT);
                d->k = SIDES[rnd(7)];
                dice_sites++;
                Stmt *b = let_of(p, sc, d, INT, 0);
                body[n] = body[n - 1];
                body[n - 1] = b;
                n++;
                cond = cmp_of(var_at(b->slot, INT), rnd(6), mknum(range(1, 4)));
            }
            Expr *down = mk2(E_MAX, INT, mk2(E_SUB, INT, v, mknum(1)), mknum(0));
            Expr *up = mk2(E_ADD, INT, v, mknum(1));
            Expr *to = mknum(range(0, 2));
            int t = rnd(3);
            Stmt *then = assign_of(s->slot, t == 0 ? down : t == 1 ? up : to);
            if (t == 1) vb++;
            Stmt *els = NULL;
            if (chance(30)) { els = assign_of(s->slot, t == 0 ? up : down); if (t != 1) vb++; }
            body[n++] = if_of(cond, then, els);
        }
        if (last) break;
        /* the next stage's count: the local, or the local changed a little */
        int c = rnd(10);
        if (vb <= 3 && c < 5) { count = v; bound = vb; }
        else if (vb <= 2 && c < 7) { count = mk2(E_ADD, INT, v, mknum(1)); bound = vb + 1; }
        else if (c < 9 || vb > 4 || drew) {
            /* (a sum or highest of items drawn may be below 0) */
            int cap = range(2, 3);
            if (drew && val->op != E_COUNT) {
                count = mk(E_CLAMP, INT);
                count->a = v; count->b = mknum(0); count->c = mknum(cap);
            } else {
                count = mk2(E_MIN, INT, v, mknum(cap));
            }
            bound = vb < cap ? vb : cap;
        } else { count = v; bound = vb; }
    }
    Expr *u = var_at(last_slot, INT);
    if (live >= 0) u = mk2(chance(70) ? E_ADD : E_SUB, INT, u, var_at(live, INT));
    *use = u;
    return n;
}


/* One of the independent parts of a sum: dice (a sum, a count, the highest
 * of a few, one die), a call of a later procedure that gives an int, or a
 * draw.  *cost: about how many choices the brute force makes for it. */
static Expr *gen_part(Scope *sc, long *cost, long budget)
{
    Type INT = TY(T_INT, 0);
    for (int tries = 0; tries < 10; tries++) {
        int r = rnd(10);
        if (r >= 7 && r <= 8) {
            Expr *e = gen_call(INT, 2, sc);
            if (e) { *cost = 8; return e; }
            continue;
        }
        if (r == 9) {
            if (can_draw(0) && chance(50)) {
                dice_sites++;
                if (chance(50)) { *cost = 4; return mk(E_DRAW1, INT); }
                Expr *e = mk(E_SUM, INT);
                e->a = mk(E_DRAWN, TY(T_POOL, 0));
                int total = bag_total(0);
                e->a->a = mknum(range(1, total < 3 ? total : 3));
                *cost = 20;
                return e;
            }
            if (can_draw(1)) { *cost = 8; return gen_epool_use(INT, 1, sc); }
            continue;
        }
        int dice = range(1, 3), sides = SIDES[rnd(7)];
        if (r == 6) dice = 1;
        long c = r == 6 ? sides : multisets_of(dice, sides);
        if (c > budget) continue;
        dice_sites++;
        *cost = c;
        if (r == 6) { Expr *e = mk(E_ROLL1, INT); e->k = sides; return e; }
        Expr *pool = roll_of(mknum(dice), sides);
        Expr *e = mk(r < 3 ? E_SUM : r < 5 ? E_COUNT : chance(70) ? E_HIGHEST : E_LOWEST, INT);
        if (e->op == E_COUNT) {
            e->a = mk2(E_FILTER, TY(T_POOL, 0), pool, mknum(range(2, sides)));
            e->a->k = chance(70) ? C_GE : rnd(6);
        } else {
            e->a = pool;
        }
        return e;
    }
    *cost = 2;
    Expr *e = mk(E_ROLL1, INT);
    e->k = 2;
    return e;
}

/* Independent parts added together, two to four of them, `-` and `*` now
 * and then: sum(roll 3d6) + sum(roll 2d8), f2() + f2() (the same call
 * twice, or the same dice), a chain of parts in one expression.  In
 * parts[] (if not NULL) the parts, and in ops[] what joins each to the ones
 * before it, for writing them as separate locals instead. */
static Expr *gen_parts(Scope *sc, Expr **parts, int *ops, int *nparts)
{
    Type INT = TY(T_INT, 0);
    int np = range(2, chance(40) ? 4 : 3), muls = 0;
    long budget = 3000, cost;
    Expr *sum = NULL;
    Expr *prev = NULL;
    for (int i = 0; i < np; i++) {
        Expr *part;
        if (prev && (prev->op == E_CALL ? chance(50) : chance(20))) { part = prev; cost = 8; }   /* the same part again */
        else part = gen_part(sc, &cost, budget);
        budget /= cost > 1 ? cost : 2;
        if (budget < 2) budget = 2;
        int op = E_ADD;
        int r = rnd(100);
        if (i && r < 15) op = E_SUB;
        else if (i && r < 27 && !muls) { op = E_MUL; muls++; }
        if (parts) { parts[i] = part; ops[i] = op; }
        sum = i ? mk2(op, INT, sum, part) : part;
        prev = part;
    }
    if (nparts) *nparts = np;
    return sum;
}


/* Dice of more than 64 faces asked about twice: a count, any() or the
 * highest first (which splits their faces where it compares), then their
 * sum, a filter's sum or doubles() (asked of the split dice at once, or of
 * their multisets, as the budget allows).  *use gets an int made of both. */
static int gen_big_block(Proc *p, Scope *sc, Stmt **body, int n, Expr **use)
{
    Type INT = TY(T_INT, 0);
    static const int BIG[][2] = { { 2, 70 }, { 2, 65 }, { 2, 66 }, { 2, 68 } };
    int k = rnd(4), sides = BIG[k][1];
    Expr *pool;
    if (chance(25)) {
        pool = mk(E_MIXED, TY(T_POOL, 0));
        pool->nargs = 2;
        pool->args = alloc(sizeof *pool->args * 2);
        pool->args[0] = roll_of(mknum(1), sides);
        pool->args[1] = roll_of(mknum(2), SIDES[rnd(3)]);
    } else {
        pool = roll_of(mknum(BIG[k][0]), sides);
    }
    dice_sites++;
    Stmt *ps = let_of(p, sc, pool, TY(T_POOL, 0), 0);
    body[n++] = ps;
    Expr *pv = var_at(ps->slot, TY(T_POOL, 0));
    Stmt *fs;
    int r = rnd(10);
    if (r < 8) {
        Expr *first;
        if (r < 6) {
            first = mk(E_COUNT, INT);
            first->a = mk2(E_FILTER, TY(T_POOL, 0), pv, mknum(range(2, sides)));
            first->a->k = chance(60) ? C_GE : rnd(6);
        } else {
            first = mk(chance(70) ? E_HIGHEST : E_LOWEST, INT);
            first->a = pv;
        }
        fs = let_of(p, sc, first, INT, 0);
        body[n++] = fs;
    } else {
        /* any(): 7 or 0 */
        Expr *any = mk2(E_ANYCMP, TY(T_BOOL, 0), pv, mknum(range(1, sides)));
        any->k = rnd(6);
        fs = let_of(p, sc, mknum(0), INT, 0);
        body[n++] = fs;
        body[n++] = if_of(any, assign_of(fs->slot, mknum(7)), NULL);
    }
    Expr *fv = var_at(fs->slot, INT);
    r = rnd(10);
    if (r < 7) {
        Expr *sum = mk(E_SUM, INT);
        sum->a = pv;
        if (r >= 4) {
            sum->a = mk2(E_FILTER, TY(T_POOL, 0), pv, mknum(range(2, sides)));
            sum->a->k = chance(60) ? C_GE : rnd(6);
        }
        *use = mk2(E_ADD, INT, mk2(E_MUL, INT, fv, mknum(1000)), sum);
    } else {
        /* doubles(): 500 more */
        Expr *d = mk(E_DOUBLES, TY(T_BOOL, 0));
        d->a = pv;
        body[n++] = if_of(d, assign_of(fs->slot, mk2(E_ADD, INT, fv, mknum(500))), NULL);
        *use = var_at(fs->slot, INT);
    }
    return n;
}

/* Draws from a bag in a row: several items at once (kept as a pool, or
 * asked about at once), then one at a time, as the rules draw chits or
 * cards.  *use gets an int made of what came out, for the result. */
static int gen_bag_block(Proc *p, Scope *sc, Stmt **body, int n, Expr **use)
{
    Type INT = TY(T_INT, 0);
    int b = P->bag_n[0] && P->bag_n[1] ? rnd(2) : P->bag_n[0] ? 0 : 1;
    int total = bag_total(b), left = total;
    Type item = b ? TY(T_ENUM, P->bag_enum) : INT;
    Type pool = b ? TY(T_EPOOL, P->bag_enum) : TY(T_POOL, 0);
    Expr *u = NULL;
    if (left >= 2 && chance(75)) {
        /* several at once */
        Expr *d = mk(E_DRAWN, pool);
        d->k2 = b;
        d->a = mknum(range(2, left < 4 ? left : 4));
        left -= (int)d->a->k;
        dice_sites++;
        Expr *held = d;
        if (chance(60)) {
            Stmt *s = let_of(p, sc, d, pool, 1);
            body[n++] = s;
            held = var_at(s->slot, pool);
        }
        Expr *q;
        if (b) {
            q = mk(E_COUNT, INT);
            q->a = mk2(E_FILTER, pool, held, mk(E_MEMBER, item));
            q->a->b->k = rnd(P->enums[P->bag_enum].nmembers);
            q->a->k = chance(60) ? C_EQ : rnd(6);
        } else {
            int r = rnd(3);
            q = mk(r == 0 ? E_SUM : r == 1 ? E_COUNT : E_HIGHEST, INT);
            if (r == 1) { q->a = mk2(E_FILTER, pool, held, mknum(range(1, 5))); q->a->k = rnd(6); }
            else q->a = held;
        }
        Stmt *s = let_of(p, sc, q, INT, 1);
        body[n++] = s;
        u = var_at(s->slot, INT);
    }
    int singles = left >= 1 ? range(1, left < 3 ? left : 3) : 0;
    int first = -1;
    for (int i = 0; i < singles; i++) {
        Expr *d = mk(E_DRAW1, item);
        d->k2 = b;
        dice_sites++;
        Stmt *s = let_of(p, sc, d, item, 1);
        body[n++] = s;
        Expr *v = var_at(s->slot, item);
        if (b) {
            /* a member: compared with the first one drawn, or with a member */
            if (first < 0) { first = s->slot; continue; }
            Expr *cond = cmp_of(var_at(first, item), rnd(6), v);
            if (!u) { Stmt *z = let_of(p, sc, mknum(0), INT, 1); body[n++] = z; u = var_at(z->slot, INT); }
            body[n++] = if_of(cond, assign_of((int)u->k, mk2(E_ADD, INT, u, mknum(range(1, 2)))), NULL);
        } else {
            u = u ? mk2(chance(70) ? E_ADD : chance(50) ? E_SUB : E_MAX, INT, u, v) : v;
        }
    }
    if (!u) {
        Expr *m = mk(E_MEMBER, item);
        m->k = rnd(P->enums[P->bag_enum].nmembers);
        Stmt *z = let_of(p, sc, mknum(0), INT, 1);
        body[n++] = z;
        u = var_at(z->slot, INT);
        body[n++] = if_of(cmp_of(var_at(first, item), rnd(6), m), assign_of((int)u->k, mknum(range(1, 3))), NULL);
    }
    *use = u;
    return n;
}

/* The condition of an `if`: now and then a bool local as it is (or its
 * negation), the value a run carries to the `if` and no further. */
static Expr *gen_cond(Scope *sc)
{
    Expr *v = chance(25) ? var_of(TY(T_BOOL, 0), sc) : NULL;
    if (!v) return gen(TY(T_BOOL, 0), 2, sc);
    if (chance(30)) { Expr *e = mk(E_NOT, v->ty); e->a = v; return e; }
    return v;
}

static Type random_type(int allow_rec, int allow_pool)
{
    for (;;) {
        int r = rnd(12);
        if (r < 5) return TY(T_INT, 0);
        if (r < 7) return TY(T_BOOL, 0);
        if (r < 9) return TY(T_ENUM, rnd(P->nenums));
        if (r == 9) return TY(T_RAT, 0);
        if (r == 10 && allow_pool) return TY(T_POOL, 0);
        if (r == 11 && allow_rec && P->has_rec) return TY(T_REC, 0);
    }
}

/* A default: no parameters in sight, may roll dice and call later procedures. */
static Expr *gen_default(Type ty, int proc)
{
    Scope empty = { .n = 0, .proc = proc };
    if (chance(3)) return mk(E_UNK, ty);
    if (P->has_bag) {
        /* a leaf: no call of a procedure that may draw, and no draw */
        no_draws = 1;
        Expr *e = gen(ty, 0, &empty);
        no_draws = 0;
        return e;
    }
    if (chance(proc == 0 ? 60 : 40)) {
        if (ty.kind == T_INT) { Expr *e = mk(E_ROLL1, ty); e->k = range(2, 4); return e; }
        return gen(ty, 1, &empty);
    }
    return gen(ty, 0, &empty);
}

static Stmt *mkstmt(int kind) { Stmt *s = alloc(sizeof *s); s->kind = kind; return s; }

/* A constant of type t, for a walk's end. */
static Expr *walk_end(Type t)
{
    Expr *e;
    if (t.kind == T_BOOL) { e = mk(E_BOOLK, t); e->k = rnd(2); return e; }
    if (t.kind == T_ENUM) { e = mk(E_MEMBER, t); e->k = rnd(P->enums[t.id].nmembers); return e; }
    return mknum(range(-2, 9));
}

static Stmt *walk_return(int pi, Expr *pos, int step)
{
    Stmt *s = mkstmt(S_RETURN);
    s->e = mk(E_CALL, P->procs[pi].ret);
    s->e->k = pi;
    s->e->nargs = s->e->npositional = 1;
    s->e->args = alloc(sizeof(Expr *));
    s->e->order = alloc(sizeof(int));
    s->e->args[0] = step ? mk2(step > 0 ? E_ADD : E_SUB, TY(T_INT, 0), pos, mknum(1)) : pos;
    return s;
}

static Stmt *walk_if(Expr *cond, Stmt *then)
{
    Stmt *s = mkstmt(S_IF);
    s->e = cond;
    s->then = alloc(sizeof(Stmt *));
    s->then[0] = then;
    s->nthen = 1;
    return s;
}

static Expr *walk_cmp(int c, Expr *a, Expr *b)
{
    Expr *e = mk2(E_CMP, TY(T_BOOL, 0), a, b);
    e->k = c;
    return e;
}

/* A procedure that walks until it reaches either end (see Proc.walk): the
 * engine solves it as an absorbing chain, in tail calls. */
static void gen_walk(int pi)
{
    Proc *p = &P->procs[pi];
    p->walk = 1;
    p->nparams = 1;
    p->params[0].ty = TY(T_INT, 0);
    p->params[0].def = chance(30) ? mknum(range(0, 5)) : NULL;
    p->slot_ty[0] = TY(T_INT, 0);
    do p->ret = random_type(0, 0); while (p->ret.kind == T_RAT);
    p->rerolls = 0;
    p->lo = range(-1, 1);
    p->hi = p->lo + range(2, 7);
    static const int sides[] = { 2, 3, 4, 6, 10 };
    p->sides = sides[rnd(5)];
    p->up = range(2, p->sides);
    p->stay = p->up > 2 && chance(40) ? range(1, p->up - 2) : 0;
    p->ends[0] = walk_end(p->ret);
    p->ends[1] = walk_end(p->ret);
    Expr *pos = mk(E_VAR, TY(T_INT, 0));
    pos->k = 0;
    Stmt **body = alloc(sizeof(Stmt *) * 8);
    int n = 0;
    Stmt *r = mkstmt(S_RETURN);
    r->e = p->ends[0];
    body[n++] = walk_if(walk_cmp(C_LE, pos, mknum(p->lo)), r);
    r = mkstmt(S_RETURN);
    r->e = p->ends[1];
    body[n++] = walk_if(walk_cmp(C_GE, pos, mknum(p->hi)), r);
    Stmt *roll = mkstmt(S_LET);
    roll->e = mk(E_ROLL1, TY(T_INT, 0));
    roll->e->k = p->sides;
    roll->slot = p->nslots = 1;
    p->slot_ty[p->nslots++] = TY(T_INT, 0);
    body[n++] = roll;
    Expr *rv = mk(E_VAR, TY(T_INT, 0));
    rv->k = 1;
    body[n++] = walk_if(walk_cmp(C_GE, rv, mknum(p->up)), walk_return(pi, pos, 1));
    if (p->stay)
        body[n++] = walk_if(walk_cmp(C_EQ, rv, mknum(p->stay)), walk_return(pi, pos, 0));
    body[n++] = walk_return(pi, pos, -1);
    p->body = body;
    p->nbody = n;
}

static void gen_proc(int pi)
{
    Proc *p = &P->procs[pi];
    dice_sites = 0;
    p->walk = 0;
    if (pi > 0 && chance(18)) {
        gen_walk(pi);
        dice_sites = 1;
        return;
    }
    p->nparams = rnd(pi == 0 ? 4 : 3);
    for (int i = 0; i < p->nparams; i++) {
        Type t;
        do t = random_type(0, 0); while (t.kind == T_RAT && pi == 0);
        p->params[i].ty = t;
        p->params[i].def = chance(pi == 0 ? 60 : 40) ? gen_default(t, pi) : NULL;
        p->slot_ty[i] = t;
    }
    p->nslots = p->nparams;
    if (pi == 0) {
        /* the arguments of the call `muster prob` is asked about */
        for (int i = 0; i < p->nparams; i++) {
            P->given[i] = !p->params[i].def || chance(40);
            Type t = p->params[i].ty;
            P->given_val[i] = t.kind == T_INT ? range(0, 3) : t.kind == T_BOOL ? rnd(2) : rnd(P->enums[t.id].nmembers);
        }
    }
    p->ret = pi == 0 && P->has_rec && chance(20) ? TY(T_REC, 0) : random_type(1, pi == 0);
    p->rerolls = 0;
    Scope sc = { .n = 0, .proc = pi };
    for (int i = 0; i < p->nparams; i++) { sc.v[sc.n].slot = i; sc.v[sc.n].ty = p->params[i].ty; sc.n++; }
    Stmt **body = alloc(sizeof(Stmt *) * 64);
    int n = 0;
    int down = -1, self = -1;
    for (int i = 0; i < p->nparams && down < 0; i++)
        if (p->params[i].ty.kind == T_INT) down = i;
    if (down >= 0 && chance(25)) {
        /* fought to a finish: a call of itself with a smaller count (by 1,
         * or by a die), down to a base case; muster works such a procedure
         * out once per set of arguments */
        Expr *count = mk(E_VAR, TY(T_INT, 0));
        count->k = down;
        Stmt *base = mkstmt(S_IF);
        base->e = mk2(E_CMP, TY(T_BOOL, 0), count, mknum(range(0, 1)));
        base->e->k = C_LE;
        base->then = alloc(sizeof(Stmt *));
        base->then[0] = mkstmt(S_RETURN);
        base->then[0]->e = gen_passed(p->ret, 1, &sc, 5);
        base->nthen = 1;
        body[n++] = base;
        if (P->has_bag && !no_draws && chance(50)) {
            /* an item drawn before going on: the bag's contents differ
             * from call to call (muster works out each call once per
             * arguments and contents of the bag) */
            int b = P->bag_n[0] ? 0 : 1;
            Type t = b ? TY(T_ENUM, P->bag_enum) : TY(T_INT, 0);
            Expr *d = mk(E_DRAW1, t);
            d->k2 = b;
            body[n++] = let_of(p, &sc, d, t, 1);
        }
        Stmt *s = mkstmt(S_LET);
        s->e = mk(E_CALL, p->ret);
        s->e->k = pi;
        s->e->nargs = s->e->npositional = p->nparams;
        s->e->args = alloc(sizeof(Expr *) * (size_t)p->nparams);
        s->e->order = alloc(sizeof(int) * (size_t)p->nparams);
        for (int i = 0; i < p->nparams; i++) {
            s->e->order[i] = i;
            if (i != down) {
                s->e->args[i] = gen_passed(p->params[i].ty, 1, &sc, 3);
                continue;
            }
            Expr *step = mknum(1);
            if (chance(50)) {
                step = mk(E_ROLL1, TY(T_INT, 0));
                step->k = 2;
            }
            s->e->args[i] = mk2(E_SUB, TY(T_INT, 0), count, step);
        }
        s->slot = self = p->nslots;
        p->slot_ty[p->nslots++] = p->ret;
        body[n++] = s;
        sc.v[sc.n].slot = s->slot; sc.v[sc.n].ty = p->ret; sc.n++;
    }
    if (pi + 1 < P->nprocs && chance(60)) {
        /* a call of a later procedure, kept in a local for what follows */
        int j = range(pi + 1, P->nprocs - 1);
        Stmt *s = mkstmt(S_LET);
        s->e = mk(E_CALL, P->procs[j].ret);
        s->e->k = j;
        gen_args(s->e, P->procs[j].params, P->procs[j].nparams, &sc, 1, 3);
        s->slot = p->nslots;
        p->slot_ty[p->nslots++] = P->procs[j].ret;
        body[n++] = s;
        sc.v[sc.n].slot = s->slot; sc.v[sc.n].ty = P->procs[j].ret; sc.n++;
    }
    int nlets = range(0, 3);
    for (int i = 0; i < nlets; i++) {
        Type t = random_type(1, 1);
        Stmt *s = mkstmt(S_LET);
        s->e = gen_passed(t, 2, &sc, 4);
        s->slot = p->nslots;
        p->slot_ty[p->nslots++] = t;
        body[n++] = s;
        sc.v[sc.n].slot = s->slot; sc.v[sc.n].ty = t; sc.n++;
        if (chance(35)) {
            /* if COND { x = ... } else { x = ... } */
            Stmt *c = mkstmt(S_IF);
            c->e = gen_cond(&sc);
            c->then = alloc(sizeof(Stmt *));
            c->then[0] = mkstmt(S_ASSIGN);
            c->then[0]->slot = s->slot;
            c->then[0]->e = gen_passed(t, 1, &sc, 4);
            c->nthen = 1;
            if (chance(40)) {
                c->els = alloc(sizeof(Stmt *));
                c->els[0] = mkstmt(S_ASSIGN);
                c->els[0]->slot = s->slot;
                c->els[0]->e = gen(t, 1, &sc);
                c->nels = 1;
            }
            body[n++] = c;
        }
    }
    /* chains of dependent pools, draws in a row, independent parts added
     * together: in a random order, each now and then; what they come to is
     * used by the result */
    Expr *uses[3], *ret_parts = NULL;
    int nuses = 0;
    int blocks[3] = { 0, 1, 2 };
    for (int i = 2; i > 0; i--) { int j = rnd(i + 1), t = blocks[i]; blocks[i] = blocks[j]; blocks[j] = t; }
    for (int bi = 0; bi < 3; bi++) {
        if (blocks[bi] == 0 && chance(pi == 0 ? 30 : 15))
            n = gen_chain(p, &sc, body, n, &uses[nuses++]);
        else if (blocks[bi] == 1 && P->has_bag && chance(pi == 0 ? 50 : 30))
            n = gen_bag_block(p, &sc, body, n, &uses[nuses++]);
        else if (blocks[bi] == 1 && pi == 0 && chance(15))
            n = gen_big_block(p, &sc, body, n, &uses[nuses++]);
        else if (blocks[bi] == 2 && chance(pi == 0 ? 35 : 20)) {
            Expr *parts[4];
            int ops[4], np, mode = rnd(10);
            Expr *e = gen_parts(&sc, parts, ops, &np);
            if (mode < 4 && p->ret.kind == T_INT && !ret_parts) {
                ret_parts = e;                    /* in the result itself */
            } else if (mode < 7) {
                /* the same parts as locals of their own, joined in the result */
                Expr *sum = NULL;
                for (int i = 0; i < np; i++) {
                    Stmt *s = let_of(p, &sc, parts[i], TY(T_INT, 0), chance(30));
                    body[n++] = s;
                    Expr *v = var_at(s->slot, TY(T_INT, 0));
                    sum = i ? mk2(ops[i], TY(T_INT, 0), sum, v) : v;
                }
                if (p->ret.kind == T_INT && !ret_parts) ret_parts = sum;
                else uses[nuses++] = sum;
            } else {
                Stmt *s = let_of(p, &sc, e, TY(T_INT, 0), 1);
                body[n++] = s;
                uses[nuses++] = var_at(s->slot, TY(T_INT, 0));
            }
        }
    }
    if (!P->has_bag && chance(pi == 0 ? 50 : 25)) {   /* (a procedure that rerolls cannot draw) */
        Stmt *c = mkstmt(S_IF);
        /* a parameter if there is one of type int (the procedure's own
         * arguments, possibly rolled by a default), else any int local */
        Expr *param = NULL;
        for (int i = 0; i < p->nparams && !param; i++)
            if (p->params[i].ty.kind == T_INT && (pi != 0 || !P->given[i] || chance(30))) {
                param = mk(E_VAR, p->params[i].ty);
                param->k = i;
            }
        if (!param)
            param = var_of(TY(T_INT, 0), &sc);
        if (param && chance(60)) {
            /* a reroll whose odds depend on an argument */
            Expr *die = mk(E_ROLL1, TY(T_INT, 0));
            die->k = range(3, 6);
            c->e = mk2(E_CMP, TY(T_BOOL, 0), chance(70) ? die : gen(TY(T_INT, 0), 1, &sc), param);
            c->e->k = range(C_LT, C_GE);
        } else {
            c->e = gen(TY(T_BOOL, 0), 2, &sc);
        }
        c->then = alloc(sizeof(Stmt *));
        c->then[0] = mkstmt(S_REROLL);
        c->nthen = 1;
        body[n++] = c;
        p->rerolls = 1;
    }
    if (chance(25)) {
        Stmt *c = mkstmt(S_IF);
        c->e = gen_cond(&sc);
        c->then = alloc(sizeof(Stmt *));
        c->then[0] = mkstmt(S_RETURN);
        c->then[0]->e = gen_passed(p->ret, 2, &sc, 5);
        c->nthen = 1;
        body[n++] = c;
    }
    Stmt *r = mkstmt(S_RETURN);
    r->e = gen_passed(p->ret, 3, &sc, 2);
    Expr *used = var_of(TY(T_INT, 0), &sc);
    if (p->ret.kind == T_INT && used && r->e->op != E_UNK && chance(50))
        r->e = mk2(E_ADD, p->ret, r->e, used);   /* results that depend on the arguments and locals */
    if (self >= 0 && p->ret.kind == T_INT && r->e->op != E_UNK && chance(70)) {
        Expr *rest = mk(E_VAR, p->ret);           /* ... and on the rest of the fight */
        rest->k = self;
        r->e = mk2(E_ADD, p->ret, r->e, rest);
    }
    if (ret_parts && r->e->op != E_UNK)
        r->e = chance(60) ? ret_parts : mk2(E_ADD, p->ret, ret_parts, r->e);
    for (int i = 0; i < nuses && r->e->op != E_UNK; i++) {
        /* what the blocks above came to, in the result */
        if (p->ret.kind == T_INT && chance(85))
            r->e = mk2(chance(80) ? E_ADD : E_SUB, p->ret, r->e, uses[i]);
        else if (p->ret.kind == T_BOOL && chance(60)) {
            Expr *c = cmp_of(uses[i], rnd(6), mknum(range(0, 4)));
            r->e = chance(40) ? c : mk2(chance(50) ? E_AND : E_OR, p->ret, c, r->e);
        }
    }
    body[n++] = r;
    p->body = body;
    p->nbody = n;
}

static void gen_program(void)
{
    P->nenums = range(1, 2);
    for (int i = 0; i < P->nenums; i++) {
        P->enums[i].nmembers = range(2, 4);
        P->enums[i].ladder = chance(45);
        P->enums[i].outcome = !P->enums[i].ladder && chance(40);
        for (int m = 0; m < P->enums[i].nmembers; m++) {
            P->enums[i].n[m] = range(-1, 3);
            P->enums[i].n_given[m] = !chance(15);
        }
    }
    /* bag Y: 1 to 4 kinds of item, distinct values -1..6, 1 to 4 of each,
     * or 3 to 8 items all different, lo..hi */
    if (chance(25)) {
        if (chance(50)) {
            P->bag_n[0] = range(1, 4);
            for (int k = 0; k < P->bag_n[0]; k++) {
                int v, dup;
                do {
                    v = range(-1, 6);
                    dup = 0;
                    for (int j = 0; j < k; j++) dup |= P->bag_v[0][j] == v;
                } while (dup);
                P->bag_v[0][k] = v;
                P->bag_c[0][k] = range(1, 4);
            }
        } else {
            int lo = range(0, 2);
            P->bag_n[0] = range(3, 8);
            P->bag_range = chance(70);
            for (int k = 0; k < P->bag_n[0]; k++) {
                P->bag_v[0][k] = lo + k;
                P->bag_c[0][k] = 1;
            }
        }
    }
    /* bag Z: the members of an enum, each once, or 1 to 3 of each */
    if (chance(15)) {
        int e = rnd(P->nenums), distinct = chance(50);
        P->bag_enum = e;
        P->bag_n[1] = P->enums[e].nmembers;
        for (int k = 0; k < P->bag_n[1]; k++) {
            P->bag_v[1][k] = k;
            P->bag_c[1][k] = distinct ? 1 : range(1, 3);
        }
    }
    P->has_bag = P->bag_n[0] || P->bag_n[1];
    /* dice of their own faces: 1 to 8 faces, values -2..7, repeats allowed */
    P->ndies = chance(35) ? range(1, 2) : 0;
    for (int i = 0; i < P->ndies; i++) {
        P->die_n[i] = range(1, 8);
        for (int k = 0; k < P->die_n[i]; k++)
            P->die_v[i][k] = range(-2, 7);
    }
    if ((P->has_choice = chance(30))) {
        P->noptions = range(2, 3);
        P->choice_default = rnd(P->noptions);
        P->chosen = chance(50) ? P->choice_default : rnd(P->noptions);
    }
    if ((P->has_table = chance(50))) {
        P->table_key = TY(T_ENUM, rnd(P->nenums));
        P->table_ret = chance(70) ? TY(T_INT, 0) : TY(T_ENUM, rnd(P->nenums));
        for (int i = 0; i < P->enums[P->table_key.id].nmembers; i++) {
            P->table_given[i] = !chance(15);
            P->table_cells[i] = P->table_ret.kind == T_INT ? range(-2, 4) : rnd(P->enums[P->table_ret.id].nmembers);
        }
    }
    if ((P->has_bands = chance(50))) {
        P->bands_ret = chance(50) ? TY(T_INT, 0) : TY(T_ENUM, rnd(P->nenums));
        P->nbands = range(2, 4);
        int cut = range(-1, 3);
        for (int i = 0; i < P->nbands; i++) {
            P->bands_cut[i] = cut;
            cut += range(1, 4);
            P->bands_val[i] = P->bands_ret.kind == T_INT ? range(-2, 5) : rnd(P->enums[P->bands_ret.id].nmembers);
        }
    }
    if ((P->has_mods = chance(40))) {
        in_mods = 1;
        P->mods_params[0] = TY(T_INT, 0);
        P->mods_params[1] = TY(T_BOOL, 0);
        Scope ms = { .n = 2, .proc = MAX_PROCS };
        ms.v[0].slot = 0; ms.v[0].ty = P->mods_params[0];
        ms.v[1].slot = 1; ms.v[1].ty = P->mods_params[1];
        P->nmods = range(1, 4);
        P->has_start = chance(25);
        P->start = range(-2, 3);
        for (int i = 0; i < P->nmods; i++) {
            ModItem *m = &P->mods[i];
            int r = rnd(6);
            if (r == 5) {
                static const int fac[][2] = { { 1, 2 }, { 3, 2 }, { 2, 1 }, { 1, 3 } };
                int k = rnd(4);
                m->kind = M_MUL;
                m->cond = gen(TY(T_BOOL, 0), 1, &ms);
                m->amount = fac[k][0];
                m->den = fac[k][1];
                P->mods_rat = 1;
                continue;
            }
            if (r == 0 && i > 0) { m->kind = M_CAP; m->has_lo = chance(70); m->has_hi = !m->has_lo || chance(50); m->lo = range(-3, 0); m->hi = range(0, 3); }
            else if (r == 1) { m->kind = M_EACH; m->cond = mk(E_VAR, TY(T_INT, 0)); m->cond->k = 0; m->amount = range(-2, 2) | 1; }
            else if (r == 2) {
                m->kind = M_ONEOF;
                m->nitems = range(2, 3);
                m->items = alloc(sizeof(ModItem) * m->nitems);
                for (int j = 0; j < m->nitems; j++) {
                    m->items[j].kind = M_ADD;
                    m->items[j].cond = gen(TY(T_BOOL, 0), 1, &ms);
                    m->items[j].amount = range(-3, 3);
                }
            } else { m->kind = M_ADD; m->cond = gen(TY(T_BOOL, 0), 1, &ms); m->amount = range(-3, 3); }
        }
    }
    in_mods = 0;
    if ((P->has_rec = chance(35))) {
        P->nfields = range(1, 3);
        for (int i = 0; i < P->nfields; i++) {
            int r = rnd(3);
            P->fields[i].ty = r == 0 ? TY(T_INT, 0) : r == 1 ? TY(T_BOOL, 0) : TY(T_ENUM, rnd(P->nenums));
            P->fields[i].def = NULL;
            if (chance(50)) {
                Scope empty = { .n = 0, .proc = MAX_PROCS };
                if (P->fields[i].ty.kind == T_INT && chance(60)) { P->fields[i].def = mk(E_ROLL1, P->fields[i].ty); P->fields[i].def->k = range(2, 3); }
                else P->fields[i].def = gen_passed(P->fields[i].ty, 0, &empty, 10);
            }
        }
    }
    P->nprocs = range(2, 5);
    for (int i = P->nprocs - 1; i >= 0; i--)
        gen_proc(i);
}

/* ------------------------------------------------------------------ printer */

static void print_expr(Buf *b, Expr *e);

static void print_args(Buf *b, Expr *e, const char *prefix)
{
    bputs(b, "(");
    for (int i = 0; i < e->nargs; i++) {
        int pi = e->order[i];
        if (i) bputs(b, ", ");
        if (i >= e->npositional) bprintf(b, "%s%d: ", prefix, pi);
        print_expr(b, e->args[pi]);
    }
    bputs(b, ")");
}

static void print_member(Buf *b, Type ty, int64_t m) { bprintf(b, "%c%lld", 'a' + ty.id, (long long)m); }

/* a + b - c * d: a sum's terms (and a product's factors) on the left are
 * written without parentheses of their own, as a rules text writes them;
 * the parser's left-to-right order and precedence give the same tree */
static void print_terms(Buf *b, Expr *e)
{
    const char *op = e->op == E_ADD ? "+" : e->op == E_SUB ? "-" : e->op == E_MUL ? "*" : e->op == E_DIV ? "/" : "%";
    int additive = e->op == E_ADD || e->op == E_SUB;
    Expr *l = e->a;
    if (l->op == e->op || (additive && (l->op == E_ADD || l->op == E_SUB)) || (e->op == E_MUL && l->op == E_MUL))
        print_terms(b, l);
    else
        print_expr(b, l);
    bprintf(b, " %s ", op);
    print_expr(b, e->b);
}

static void print_expr(Buf *b, Expr *e)
{
    static const char *names[] = {
        [E_MIN] = "min", [E_MAX] = "max", [E_CLAMP] = "clamp", [E_ABS] = "abs", [E_FLOOR] = "floor",
        [E_CEIL] = "ceil", [E_ROUND] = "round", [E_COUNT] = "count", [E_SUM] = "sum",
        [E_HIGHEST] = "highest", [E_LOWEST] = "lowest", [E_HIGHESTN] = "highest", [E_LOWESTN] = "lowest",
        [E_ANY] = "any", [E_ANYCMP] = "any", [E_ALLCMP] = "all", [E_DOUBLES] = "doubles", [E_SHIFT] = "shift",
    };
    switch (e->op) {
    case E_NUM: if (e->k < 0) bprintf(b, "(-%lld)", -(long long)e->k); else bprintf(b, "%lld", (long long)e->k); break;
    case E_BOOLK: bputs(b, e->k ? "true" : "false"); break;
    case E_MEMBER: bprintf(b, "%c.", 'A' + e->ty.id); print_member(b, e->ty, e->k); break;
    case E_VAR: bprintf(b, "v%lld", (long long)e->k); break;
    case E_ADD: case E_SUB: case E_MUL: case E_DIV: case E_MOD: {
        bputs(b, "(");
        print_terms(b, e);
        bputs(b, ")");
        break;
    }
    case E_NEG: bputs(b, "(-"); print_expr(b, e->a); bputs(b, ")"); break;
    case E_CMP: case E_FILTER:
        bputs(b, "("); print_expr(b, e->a); bprintf(b, " %s ", cmp_text[e->k]); print_expr(b, e->b); bputs(b, ")");
        break;
    case E_AND: case E_OR:
        bputs(b, "("); print_expr(b, e->a); bputs(b, e->op == E_AND ? " and " : " or "); print_expr(b, e->b); bputs(b, ")");
        break;
    case E_NOT: bputs(b, "(not "); print_expr(b, e->a); bputs(b, ")"); break;
    case E_MIN: case E_MAX: case E_HIGHESTN: case E_LOWESTN: case E_SHIFT:
        bprintf(b, "%s(", names[e->op]); print_expr(b, e->a); bputs(b, ", "); print_expr(b, e->b); bputs(b, ")");
        break;
    case E_CLAMP:
        bputs(b, "clamp("); print_expr(b, e->a); bputs(b, ", "); print_expr(b, e->b); bputs(b, ", "); print_expr(b, e->c); bputs(b, ")");
        break;
    case E_ABS: case E_FLOOR: case E_CEIL: case E_ROUND: case E_COUNT: case E_SUM: case E_HIGHEST:
    case E_LOWEST: case E_ANY: case E_DOUBLES:
        bprintf(b, "%s(", names[e->op]); print_expr(b, e->a); bputs(b, ")");
        break;
    case E_ANYCMP: case E_ALLCMP:
        bprintf(b, "%s(", names[e->op]); print_expr(b, e->a); bprintf(b, " %s ", cmp_text[e->k]); print_expr(b, e->b); bputs(b, ")");
        break;
    case E_ROLL1: bprintf(b, "(roll d%lld)", (long long)e->k); break;
    case E_ROLLD: bputs(b, "(roll d("); print_expr(b, e->a); bputs(b, "))"); break;
    case E_ROLLN:
        bputs(b, "(roll ");
        if (e->a->op == E_NUM) bprintf(b, "%lld", (long long)e->a->k);
        else print_expr(b, e->a);
        if (e->b) { bputs(b, " d("); print_expr(b, e->b); bputs(b, "))"); }
        else bprintf(b, "%sd%lld)", e->a->op == E_NUM ? "" : " ", (long long)e->k);
        break;
    case E_MIXED:
        bputs(b, "(roll [");
        for (int i = 0; i < e->nargs; i++)
            bprintf(b, e->args[i]->op == E_ROLLC ? "%s%lld X%lld" : "%s%lld d%lld", i ? ", " : "",
                    (long long)e->args[i]->a->k, (long long)e->args[i]->k);
        bputs(b, "])");
        break;
    case E_ROLLC: bprintf(b, "(roll %lld X%lld)", (long long)e->a->k, (long long)e->k); break;
    case E_DRAW1: bputs(b, e->k2 ? "(draw Z)" : "(draw Y)"); break;
    case E_INP: {
        bputs(b, "(");
        print_expr(b, e->a);
        bputs(b, " in [");
        int first = 1;
        for (int v = -2; v <= 12; v++)
            if (e->k >> (v + 2) & 1) {
                bputs(b, first ? "" : ", ");
                if (e->a->ty.kind == T_EPOOL) print_member(b, TY(T_ENUM, e->a->ty.id), v);
                else bprintf(b, "%d", v);
                first = 0;
            }
        bputs(b, "])");
        break;
    }
    case E_DRAWN:
        bputs(b, "(draw ");
        print_expr(b, e->a);
        bputs(b, e->k2 ? " from Z)" : " from Y)");
        break;
    case E_CALL: bprintf(b, "f%lld", (long long)e->k); print_args(b, e, "v"); break;
    case E_TABLE: bputs(b, "tab("); print_expr(b, e->a); bputs(b, ")"); break;
    case E_BANDS: bputs(b, "bnd("); print_expr(b, e->a); bputs(b, ")"); break;
    case E_MODS: bputs(b, "mods"); print_args(b, e, "v"); break;
    case E_RECNEW: bputs(b, "R"); print_args(b, e, "g"); break;
    case E_FIELD: print_expr(b, e->a); bprintf(b, ".g%lld", (long long)e->k); break;
    case E_PROB: bputs(b, "prob("); print_expr(b, e->a); bputs(b, ")"); break;
    case E_OFIELD: bputs(b, "("); print_expr(b, e->a); bputs(b, ").n"); break;
    case E_CHOOSE: bprintf(b, "(choose(C) == C.c%lld)", (long long)e->k); break;
    case E_UNK: bputs(b, "?"); break;
    }
}

static const char *type_name(Type t)
{
    static char buf[4][8];
    static int i;
    switch (t.kind) {
    case T_INT: return "int";
    case T_RAT: return "rat";
    case T_BOOL: return "bool";
    case T_POOL: return "pool";
    case T_REC: return "R";
    default: i = (i + 1) % 4; snprintf(buf[i], sizeof buf[i], "%c", 'A' + t.id); return buf[i];
    }
}

static void print_block(Buf *b, Stmt **body, int n, int indent)
{
    for (int i = 0; i < n; i++) {
        Stmt *s = body[i];
        bprintf(b, "%*s", indent, "");
        switch (s->kind) {
        case S_LET:
            /* '?' has no type of its own: a 'let' of one says it */
            if (s->e->op == E_UNK) bprintf(b, "let v%d: %s = ?\n", s->slot, type_name(s->e->ty));
            else { bprintf(b, "let v%d = ", s->slot); print_expr(b, s->e); bputs(b, "\n"); }
            break;
        case S_ASSIGN: bprintf(b, "v%d = ", s->slot); print_expr(b, s->e); bputs(b, "\n"); break;
        case S_RETURN: bputs(b, "return "); print_expr(b, s->e); bputs(b, "\n"); break;
        case S_REROLL: bputs(b, "reroll\n"); break;
        case S_IF:
            bputs(b, "if "); print_expr(b, s->e); bputs(b, " {\n");
            print_block(b, s->then, s->nthen, indent + 2);
            bprintf(b, "%*s}", indent, "");
            if (s->nels) {
                bputs(b, " else {\n");
                print_block(b, s->els, s->nels, indent + 2);
                bprintf(b, "%*s}", indent, "");
            }
            bputs(b, "\n");
            break;
        }
    }
}

static void print_program(Buf *b)
{
    if (P->bag_n[0]) {
        bputs(b, "bag Y {");
        int first = 1;
        if (P->bag_range)
            bprintf(b, " %d..%d", P->bag_v[0][0], P->bag_v[0][P->bag_n[0] - 1]);
        else
            for (int k = 0; k < P->bag_n[0]; k++)
                for (int c = 0; c < P->bag_c[0][k]; c++, first = 0) bprintf(b, "%s %d", first ? "" : ",", P->bag_v[0][k]);
        bputs(b, " }\n");
    }
    for (int i = 0; i < P->ndies; i++) {
        bprintf(b, "die X%d {", i);
        for (int k = 0; k < P->die_n[i]; k++) bprintf(b, "%s %d", k ? "," : "", P->die_v[i][k]);
        bputs(b, " }\n");
    }
    for (int i = 0; i < P->nenums; i++) {
        Enum *en = &P->enums[i];
        if (en->outcome) {
            bprintf(b, "outcome %c(n: int = 0) {\n", 'A' + i);
            for (int m = 0; m < en->nmembers; m++) {
                bprintf(b, "  %c%d", 'a' + i, m);
                if (!en->n_given[m]) bputs(b, " (n: ?)");
                else if (en->n[m] != 0 || chance(50)) bprintf(b, " (n: %d)", en->n[m]);
                bputs(b, "\n");
            }
            bputs(b, "}\n");
            continue;
        }
        bprintf(b, "%s %c {", en->ladder ? "ladder" : "enum", 'A' + i);
        for (int m = 0; m < en->nmembers; m++) bprintf(b, "%s %c%d", m ? "," : "", 'a' + i, m);
        bputs(b, " }\n");
    }
    if (P->bag_n[1]) {
        bputs(b, "bag Z {");
        for (int k = 0; k < P->bag_n[1]; k++) {
            bputs(b, k ? ", " : " ");
            if (P->bag_c[1][k] > 1) bprintf(b, "%d ", P->bag_c[1][k]);
            print_member(b, TY(T_ENUM, P->bag_enum), P->bag_v[1][k]);
        }
        bputs(b, " }\n");
    }
    if (P->has_choice) {
        bputs(b, "choice C \"Pick one\" {");
        for (int o = 0; o < P->noptions; o++) bprintf(b, "%s c%d", o ? "," : "", o);
        bprintf(b, " } default c%d\n", P->choice_default);
    }
    if (P->has_table) {
        bprintf(b, "table tab(k: %s) -> %s {\n", type_name(P->table_key), type_name(P->table_ret));
        for (int i = 0; i < P->enums[P->table_key.id].nmembers; i++) {
            bprintf(b, "  %c%d: ", 'a' + P->table_key.id, i);
            if (!P->table_given[i]) bputs(b, "?");
            else if (P->table_ret.kind == T_INT) bprintf(b, "%d", P->table_cells[i]);
            else print_member(b, P->table_ret, P->table_cells[i]);
            bputs(b, "\n");
        }
        bputs(b, "}\n");
    }
    if (P->has_bands) {
        bprintf(b, "bands bnd(total: int) -> %s {\n", type_name(P->bands_ret));
        for (int i = 0; i < P->nbands; i++) {
            if (i == 0) bprintf(b, "  ..%d => ", P->bands_cut[0]);
            else if (i == P->nbands - 1) bprintf(b, "  %d.. => ", P->bands_cut[i - 1] + 1);
            else if (P->bands_cut[i - 1] + 1 == P->bands_cut[i]) bprintf(b, "  %d => ", P->bands_cut[i]);
            else bprintf(b, "  %d..%d => ", P->bands_cut[i - 1] + 1, P->bands_cut[i]);
            if (P->bands_ret.kind == T_INT) bprintf(b, "%d\n", P->bands_val[i]);
            else { print_member(b, P->bands_ret, P->bands_val[i]); bputs(b, "\n"); }
        }
        bputs(b, "}\n");
    }
    if (P->has_mods) {
        bprintf(b, "modifiers mods(v0: int, v1: bool) -> %s {\n", P->mods_rat ? "rat" : "int");
        if (P->has_start) bprintf(b, "  start at %d \"start\"\n", P->start);
        for (int i = 0; i < P->nmods; i++) {
            ModItem *m = &P->mods[i];
            if (m->kind == M_MUL) {
                bputs(b, "  ");
                print_expr(b, m->cond);
                bprintf(b, " : * %d/%d \"factor %d\"\n", m->amount, m->den, i);
            } else if (m->kind == M_CAP) {
                bputs(b, "  cap ");
                if (m->has_lo) bprintf(b, "%d", m->lo);
                bputs(b, "..");
                if (m->has_hi) bprintf(b, "%d", m->hi);
                bprintf(b, " \"cap %d\"\n", i);
            } else if (m->kind == M_EACH) {
                bprintf(b, "  each v0 : %+d \"each %d\"\n", m->amount, i);
            } else if (m->kind == M_ONEOF) {
                bputs(b, "  one of {\n");
                for (int j = 0; j < m->nitems; j++) {
                    bputs(b, "    ");
                    print_expr(b, m->items[j].cond);
                    bprintf(b, " : %+d \"item %d.%d\"\n", m->items[j].amount, i, j);
                }
                bputs(b, "  }\n");
            } else {
                bputs(b, "  ");
                print_expr(b, m->cond);
                bprintf(b, " : %+d \"item %d\"\n", m->amount, i);
            }
        }
        bputs(b, "}\n");
    }
    if (P->has_rec) {
        bputs(b, "record R {");
        for (int i = 0; i < P->nfields; i++) {
            bprintf(b, "%s g%d: %s", i ? "," : "", i, type_name(P->fields[i].ty));
            if (P->fields[i].def) { bputs(b, " = "); print_expr(b, P->fields[i].def); }
        }
        bputs(b, " }\n");
    }
    for (int pi = 0; pi < P->nprocs; pi++) {
        Proc *p = &P->procs[pi];
        bprintf(b, "proc f%d(", pi);
        for (int i = 0; i < p->nparams; i++) {
            bprintf(b, "%sv%d: %s", i ? ", " : "", i, type_name(p->params[i].ty));
            if (p->params[i].def) { bputs(b, " = "); print_expr(b, p->params[i].def); }
        }
        bprintf(b, ") -> %s {\n", type_name(p->ret));
        print_block(b, p->body, p->nbody, 2);
        bputs(b, "}\n");
    }
}

/* ------------------------------------------------------- muster's JSON output */

/* Parses one JSON value at *s, appending it to *canon without spaces. */
static int json_value(const char **s, Buf *canon)
{
    const char *p = *s;
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
    if (*p == '"') {
        const char *q = p + 1;
        while (*q && *q != '"') { if (*q == '\\' && q[1]) q++; q++; }
        if (*q != '"') return 0;
        char tmp[4096];
        size_t n = (size_t)(q + 1 - p);
        if (n >= sizeof tmp) return 0;
        memcpy(tmp, p, n);
        tmp[n] = 0;
        bputs(canon, tmp);
        *s = q + 1;
        return 1;
    }
    if (*p == '[' || *p == '{') {
        char close = *p == '[' ? ']' : '}';
        bputs(canon, *p == '[' ? "[" : "{");
        p++;
        int first = 1;
        for (;;) {
            while (*p == ' ' || *p == '\n') p++;
            if (*p == close) { p++; break; }
            if (!first) {
                if (*p != ',') return 0;
                bputs(canon, ",");
                p++;
            }
            first = 0;
            if (close == '}') {
                if (!json_value(&p, canon)) return 0;
                while (*p == ' ') p++;
                if (*p != ':') return 0;
                bputs(canon, ":");
                p++;
            }
            if (!json_value(&p, canon)) return 0;
        }
        bputs(canon, close == ']' ? "]" : "}");
        *s = p;
        return 1;
    }
    const char *q = p;
    while (*q && !strchr(",]} \n", *q)) q++;
    if (q == p) return 0;
    char tmp[128];
    size_t n = (size_t)(q - p);
    if (n >= sizeof tmp) return 0;
    memcpy(tmp, p, n);
    tmp[n] = 0;
    bputs(canon, tmp);
    *s = q;
    return 1;
}

typedef struct { char *key; char *p; int not_given; } Got;
typedef struct { Got *o; int n; int exact; long long trials; } Parsed;

static void parsed_free(Parsed *r)
{
    for (int i = 0; i < r->n; i++) { free(r->o[i].key); free(r->o[i].p); }
    free(r->o);
    memset(r, 0, sizeof *r);
}

/* Reads `muster prob --json`: its outcomes, as (value, p) texts. */
static int parse_prob(const char *text, Parsed *r)
{
    memset(r, 0, sizeof *r);
    const char *p = text;
    Buf tmp = { 0 };
    while (*p == ' ' || *p == '\n') p++;
    if (*p++ != '{') return 0;
    for (;;) {
        while (*p == ' ' || *p == ',' || *p == '\n') p++;
        if (*p == '}') break;
        bclear(&tmp);
        if (!json_value(&p, &tmp)) goto bad;
        char key[64];
        snprintf(key, sizeof key, "%s", tmp.s);
        while (*p == ' ') p++;
        if (*p++ != ':') goto bad;
        while (*p == ' ') p++;
        if (!strcmp(key, "\"outcomes\"")) {
            if (*p++ != '[') goto bad;
            for (;;) {
                while (*p == ' ' || *p == ',') p++;
                if (*p == ']') { p++; break; }
                if (*p++ != '{') goto bad;
                Got g = { 0 };
                for (;;) {
                    while (*p == ' ' || *p == ',') p++;
                    if (*p == '}') { p++; break; }
                    bclear(&tmp);
                    if (!json_value(&p, &tmp)) goto bad;
                    snprintf(key, sizeof key, "%s", tmp.s);
                    while (*p == ' ') p++;
                    if (*p++ != ':') goto bad;
                    bclear(&tmp);
                    if (!json_value(&p, &tmp)) goto bad;
                    if (!strcmp(key, "\"value\"")) g.key = strdup(tmp.s);
                    else if (!strcmp(key, "\"p\"")) {
                        char *v = tmp.s;
                        size_t n = strlen(v);
                        if (n >= 2 && v[0] == '"') { v[n - 1] = 0; v++; }
                        g.p = strdup(v);
                    } else if (!strcmp(key, "\"not_given\"")) g.not_given = !strcmp(tmp.s, "true");
                }
                if (!g.key || !g.p) goto bad;
                r->o = realloc(r->o, (r->n + 1) * sizeof *r->o);
                r->o[r->n++] = g;
            }
        } else {
            bclear(&tmp);
            if (!json_value(&p, &tmp)) goto bad;
            if (!strcmp(key, "\"exact\"")) r->exact = !strcmp(tmp.s, "true");
            else if (!strcmp(key, "\"trials\"")) r->trials = atoll(tmp.s);
            else if (!strcmp(key, "\"dropped\"")) goto bad;   /* no generated program is open-ended */
        }
    }
    free(tmp.s);
    return 1;
bad:
    free(tmp.s);
    parsed_free(r);
    return 0;
}

/* ------------------------------------------------------------ running muster */

static const char *muster_path;
static char workdir[256];

/* Runs shell commands side by side and waits for all of them: the standard
 * output of command i into out[i], its standard error into err[i] and its
 * exit status into st[i] (-1 when it did not exit normally). */
static void slurp(const char *path, Buf *b)
{
    bclear(b);
    bputs(b, "");
    FILE *f = fopen(path, "r");
    if (!f) return;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk - 1, f)) > 0) {
        chunk[n] = 0;
        bputs(b, chunk);
    }
    fclose(f);
    unlink(path);
}

static void run_all(char cmds[][1200], int n, Buf *out, Buf *err, int *st)
{
    Buf all = { 0 };
    bputs(&all, "");
    for (int i = 0; i < n; i++)
        bprintf(&all, "( %s >'%s/out%d' 2>'%s/err%d'; echo $? >'%s/st%d' ) & ", cmds[i], workdir, i, workdir, i, workdir, i);
    bputs(&all, "wait");
    int rc = system(all.s);
    (void)rc;
    free(all.s);
    for (int i = 0; i < n; i++) {
        char path[300];
        Buf s = { 0 };
        snprintf(path, sizeof path, "%s/out%d", workdir, i);
        slurp(path, &out[i]);
        snprintf(path, sizeof path, "%s/err%d", workdir, i);
        slurp(path, &err[i]);
        snprintf(path, sizeof path, "%s/st%d", workdir, i);
        slurp(path, &s);
        st[i] = s.len ? atoi(s.s) : -1;
        if (st[i] > 128) st[i] = -1;   /* killed by a signal, or by timeout (124 stays) */
        free(s.s);
    }
}

/* ---------------------------------------------------------------- checking */

static long trials = 10000;
static uint64_t sim_seed = 12345;
static int quiet, show_only;

/* log P(X = k) for X ~ Binomial(n, p), 0 < p < 1 */
static double log_pmf(long n, long k, double p)
{
    return lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0) + k * log(p) + (n - k) * log1p(-p);
}

/* The probability, under Binomial(n, p), of a count at least as far from the
 * mean as k on k's side: the test's tail. */
static double binomial_tail(long n, long k, double p)
{
    if (p <= 0) return k == 0 ? 1 : 0;
    if (p >= 1) return k == n ? 1 : 0;
    double mean = n * p, sum = 0;
    if (k >= mean) {
        for (long j = k; j <= n; j++) {
            double t = exp(log_pmf(n, j, p));
            sum += t;
            if (j > mean + 1 && t < sum * 1e-17) break;
        }
    } else {
        for (long j = k; j >= 0; j--) {
            double t = exp(log_pmf(n, j, p));
            sum += t;
            if (j < mean - 1 && t < sum * 1e-17) break;
        }
    }
    return sum > 1 ? 1 : sum;
}

#define TAIL_BOUND 1e-9

typedef struct { char **keys; long *counts; int n; int ok; } Counts;

static void counts_free(Counts *c)
{
    for (int i = 0; i < c->n; i++) free(c->keys[i]);
    free(c->keys);
    free(c->counts);
    memset(c, 0, sizeof *c);
}

static int sim_counts(const Parsed *r, Counts *c)
{
    memset(c, 0, sizeof *c);
    c->keys = calloc(r->n + 1, sizeof *c->keys);
    c->counts = calloc(r->n + 1, sizeof *c->counts);
    c->ok = 1;
    for (int i = 0; i < r->n; i++) {
        double p = strtod(r->o[i].p, NULL);
        double k = p * (double)trials;
        c->keys[i] = strdup(r->o[i].key);
        c->counts[i] = llround(k);
        if (fabs(k - (double)c->counts[i]) > 1e-6) c->ok = 0;
    }
    c->n = r->n;
    return c->ok;
}

static long count_of(const Counts *c, const char *key)
{
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->keys[i], key)) return c->counts[i];
    return 0;
}

static int counts_equal(const Counts *a, const Counts *b)
{
    if (a->n != b->n) return 0;
    for (int i = 0; i < a->n; i++)
        if (count_of(b, a->keys[i]) != a->counts[i]) return 0;
    return 1;
}

/* A known failure: a seed, the checks it is known to fail (a set of the
 * letters x, a, b, c), and why. */
typedef struct { long long seed; char checks[8]; char *why; } Known;
static Known *known;
static int nknown;

static const Known *known_of(long long seed)
{
    for (int i = 0; i < nknown; i++)
        if (known[i].seed == seed) return &known[i];
    return NULL;
}

static void load_known(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) die("cannot read %s", path);
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '#' || *p == '\n' || !*p) continue;
        char *end;
        long long s = strtoll(p, &end, 10);
        if (end == p) die("%s: a line must start with a seed: %s", path, line);
        while (*end == ' ' || *end == '\t') end++;
        size_t n = strspn(end, "xabc");
        if (n == 0 || n >= sizeof known->checks || (end[n] != ' ' && end[n] != '\t'))
            die("%s: seed %lld must be followed by the checks it fails (x, a, b, c)", path, s);
        known = realloc(known, (nknown + 1) * sizeof *known);
        known[nknown].seed = s;
        memcpy(known[nknown].checks, end, n);
        known[nknown].checks[n] = 0;
        end += n;
        while (*end == ' ' || *end == '\t') end++;
        end[strcspn(end, "\n")] = 0;
        if (!*end) die("%s: seed %lld needs a line saying why it fails", path, s);
        known[nknown].why = strdup(end);
        nknown++;
    }
    fclose(f);
}

static void print_dist(FILE *out, const char *title, const Dist *d)
{
    fprintf(out, "  %s:\n", title);
    for (int i = 0; i < d->n; i++) {
        char *s = mpq_get_str(NULL, 10, d->o[i].w);
        fprintf(out, "    %-24s %s\n", d->o[i].key, s);
        free(s);
    }
}

static void print_parsed(FILE *out, const char *title, const Parsed *r, int sim)
{
    fprintf(out, "  %s:\n", title);
    for (int i = 0; i < r->n; i++) {
        if (sim) fprintf(out, "    %-24s %s (%lld trials)\n", r->o[i].key, r->o[i].p, (long long)llround(strtod(r->o[i].p, NULL) * trials));
        else fprintf(out, "    %-24s %s\n", r->o[i].key, r->o[i].p);
    }
}

static long total_runs, total_attempts, total_too_big;
static void mark(char *checks, char c)
{
    if (!strchr(checks, c)) {
        size_t n = strlen(checks);
        checks[n] = c;
        checks[n + 1] = 0;
    }
}

static int programs_passed, programs_failed, programs_known, programs_skipped;
static const char *save_dir = "difftest-failures";

static Value top_run(void *global);

/* Generates program `seed` until one is accepted by the brute force (a few
 * tries are normal: too many dice, a reroll that always happens, ...). */
static int make_program(long long seed, Dist *dist, Buf *src, Buf *args)
{
    /* mixed, so that neighbouring seeds do not share a stretch of the stream */
    rng_state = (uint64_t)seed ^ 0x2545f4914f6cdd1dULL;
    rng_state = rnd64();
    for (int attempt = 0; attempt < 200; attempt++) {
        memos_free();
        arena_free();
        P = alloc(sizeof *P);
        gen_program();
        reject = 0;
        runs = 0;
        dist_free(dist);
        enumerate(top_run, NULL, P->procs[0].ret, 1, dist);
        total_runs += runs;
        total_attempts++;
        if (reject) { if (runs > run_limit) total_too_big++; continue; }
        if (P->procs[0].ret.kind == T_REC && chance(50)) {
            /* --field: the odds of one field of the record */
            int fi = rnd(P->nfields);
            Dist proj = { 0 };
            Buf key = { 0 };
            for (int i = 0; i < dist->n; i++) {
                bclear(&key);
                Value v = dist->o[i].v;
                /* the field is not given when the run needed a value not
                 * given, or the field itself is one (or the whole record) */
                if (!strcmp(dist->o[i].key, "null") || v.unk || v.fields[fi].unk) bputs(&key, "null");
                else render(&key, v.fields[fi], P->fields[fi].ty);
                dist_add(&proj, key.s, v, dist->o[i].w);
            }
            free(key.s);
            dist_free(dist);
            *dist = proj;
            P->field = fi;
        } else {
            /* the whole result: not given when it holds a value not given */
            Dist whole = { 0 };
            for (int i = 0; i < dist->n; i++)
                dist_add(&whole, !strcmp(dist->o[i].key, "null") || has_unknown(dist->o[i].v, P->procs[0].ret)
                                 ? "null" : dist->o[i].key, dist->o[i].v, dist->o[i].w);
            dist_free(dist);
            *dist = whole;
            P->field = -1;
        }
        bclear(src);
        print_program(src);
        bclear(args);
        bputs(args, "");
        Proc *root = &P->procs[0];
        for (int i = 0; i < root->nparams; i++) {
            if (!P->given[i]) continue;
            Type t = root->params[i].ty;
            if (t.kind == T_INT) bprintf(args, " v%d=%lld", i, (long long)P->given_val[i]);
            else if (t.kind == T_BOOL) bprintf(args, " v%d=%s", i, P->given_val[i] ? "true" : "false");
            else bprintf(args, " v%d=%c%lld", i, 'a' + t.id, (long long)P->given_val[i]);
        }
        if (P->field >= 0)
            bprintf(args, " --field g%d", P->field);
        if (P->has_choice && P->chosen != P->choice_default)
            bprintf(args, " --choose C=c%d", P->chosen);
        return 1;
    }
    return 0;
}

/* The call muster prob is asked about.  With `global` set, a rerolling f0
 * is run inline, so its rerolls are conditioned over all the paths of the
 * call together, defaults included: not the language's meaning (a reroll
 * keeps the arguments), but what a known bug of the exact count computes,
 * so that a report can say whether a disagreement is that one. */
static Value top_run(void *global)
{
    Proc *root = &P->procs[0];
    Value *args = alloc(sizeof(Value) * MAX_PARAMS);
    for (int i = 0; i < root->nparams; i++) {
        if (P->given[i]) {
            Type t = root->params[i].ty;
            args[i] = t.kind == T_INT ? vint(P->given_val[i]) : t.kind == T_BOOL ? vbool((int)P->given_val[i]) : (Value){ .kind = T_ENUM, .n = P->given_val[i], .d = 1 };
        } else {
            args[i] = eval(root->params[i].def, NULL);
        }
    }
    if (global) {
        BodyRun r = { 0, args };
        return run_body(&r);
    }
    return call_proc(0, args);
}

/* Whether muster's exact odds g equal the brute force's, fraction by
 * fraction. */
static int same_as_brute(const Parsed *g, const Dist *dist)
{
    int same = g->n == dist->n && g->exact;
    mpq_t q;
    mpq_init(q);
    for (int i = 0; same && i < g->n; i++) {
        const char *key = g->o[i].not_given ? "null" : g->o[i].key;
        int j;
        for (j = 0; j < dist->n && strcmp(dist->o[j].key, key); j++) ;
        if (j == dist->n || mpq_set_str(q, g->o[i].p, 10) != 0) { same = 0; break; }
        mpq_canonicalize(q);
        if (!mpq_equal(q, dist->o[j].w)) same = 0;
    }
    mpq_clear(q);
    return same;
}

/* Whether muster's exact odds equal f0's with its rerolls conditioned over
 * all the paths of the call together (see top_run). */
static int matches_global(const Parsed *r)
{
    Dist g = { 0 };
    long saved_runs = runs;
    runs = 0;
    reject = 0;
    enumerate(top_run, (void *)1, P->procs[0].ret, 0, &g);
    int same = !reject;
    if (same) normalise(&g);
    same = same && !reject && g.n == r->n;
    mpq_t q;
    mpq_init(q);
    for (int i = 0; same && i < r->n; i++) {
        const char *key = r->o[i].not_given ? "null" : r->o[i].key;
        int j;
        for (j = 0; j < g.n && strcmp(g.o[j].key, key); j++) ;
        if (j == g.n || mpq_set_str(q, r->o[i].p, 10) != 0) { same = 0; break; }
        mpq_canonicalize(q);
        same = mpq_equal(q, g.o[j].w);
    }
    mpq_clear(q);
    dist_free(&g);
    runs = saved_runs;
    reject = 0;
    return same;
}

static void check_one(long long seed)
{
    Dist dist = { 0 };
    Buf src = { 0 }, args = { 0 }, report = { 0 };
    if (!make_program(seed, &dist, &src, &args)) {
        programs_skipped++;
        if (!quiet) printf("SKIP seed %lld: no program accepted\n", seed);
        goto done;
    }
    if (show_only) {
        printf("# seed %lld: muster prob FILE f0%s\n%s", seed, args.s, src.s);
        for (int i = 0; i < dist.n; i++) {
            char *s = mpq_get_str(NULL, 10, dist.o[i].w);
            printf("#   %-24s %s\n", dist.o[i].key, s);
            free(s);
        }
        programs_passed++;
        goto done;
    }
    char file[400];
    snprintf(file, sizeof file, "%s/seed%lld.muster", workdir, seed);
    FILE *f = fopen(file, "w");
    if (!f) die("cannot write %s", file);
    fputs(src.s, f);
    fclose(f);

    char cmd[5][1200];
    const char *names[5] = { "exact", "simulated, 1 thread", "simulated, 4 threads", "simulated, --no-specialize",
                             "exact, small budget" };
    snprintf(cmd[0], sizeof cmd[0], "timeout 60 '%s' prob '%s' f0%s --exact --json", muster_path, file, args.s);
    snprintf(cmd[1], sizeof cmd[1], "timeout 60 '%s' prob '%s' f0%s --trials %ld --seed %llu --threads 1 --json",
             muster_path, file, args.s, trials, (unsigned long long)(sim_seed + (uint64_t)seed));
    snprintf(cmd[2], sizeof cmd[2], "timeout 60 '%s' prob '%s' f0%s --trials %ld --seed %llu --threads 4 --json",
             muster_path, file, args.s, trials, (unsigned long long)(sim_seed + (uint64_t)seed));
    snprintf(cmd[3], sizeof cmd[3], "timeout 60 '%s' prob '%s' f0%s --trials %ld --seed %llu --threads 1 --no-specialize --json",
             muster_path, file, args.s, trials, (unsigned long long)(sim_seed + (uint64_t)seed));
    snprintf(cmd[4], sizeof cmd[4], "timeout 60 '%s' prob '%s' f0%s --exact --json --budget 1000", muster_path, file,
             args.s);
    Parsed got[5];
    memset(got, 0, sizeof got);
    char failed_checks[8] = "";
    int global_bug = 0;
    Buf out[5] = { { 0 } }, err[5] = { { 0 } };
    int st[5];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    run_all(cmd, 5, out, err, st);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    if (getenv("DIFFTEST_STATS") && took > 0.5)
        fprintf(stderr, "seed %lld: muster took %.2f s\n", seed, took);
    for (int i = 0; i < 5; i++) {
        if (i == 4 && st[i] == 1 && strstr(err[i].s ? err[i].s : "", "budget")) {
            memset(&got[i], 0, sizeof got[i]);
            continue;
        }
        if (st[i] != 0 || !parse_prob(out[i].s, &got[i])) {
            bprintf(&report, "  %s: exit %d\n    $ %s\n", names[i], st[i], cmd[i]);
            bputs(&report, "    ");
            bputs(&report, out[i].len ? out[i].s : "(no output)\n");
            if (err[i].len) { bputs(&report, "    "); bputs(&report, err[i].s); }
            mark(failed_checks, 'x');
            memset(&got[i], 0, sizeof got[i]);
        }
    }
    /* (a) exact odds equal the brute force, fraction by fraction; and
     * with a small budget, where the count takes other ways (or says it is
     * over the budget) */
    if (got[4].o && !same_as_brute(&got[4], &dist)) {
        bprintf(&report, "  (a) the exact odds with a small budget differ from the brute force\n    $ %s\n", cmd[4]);
        mark(failed_checks, 'a');
    }
    if (got[0].o) {
        int same = same_as_brute(&got[0], &dist);
        if (!same) {
            bputs(&report, "  (a) the exact odds differ from the brute force\n");
            if (P->procs[0].rerolls && matches_global(&got[0]))
                global_bug = 1;
            if (global_bug)
                bputs(&report, "      (they are f0's odds with its rerolls conditioned over all its paths together,\n"
                               "      its rolled defaults included: the known bug in tests/differential/known.txt)\n");
            mark(failed_checks, 'a');
        }
    }
    /* (b) the simulation agrees with the brute force; (c) its counts do not
     * depend on threads or the specializer */
    Counts c[4];
    memset(c, 0, sizeof c);
    for (int i = 1; i < 4; i++)
        if (got[i].o && (!sim_counts(&got[i], &c[i]) || got[i].exact || got[i].trials != trials)) {
            bprintf(&report, "  %s: the shares are not whole counts of %ld trials\n", names[i], trials);
            mark(failed_checks, 'x');
        }
    if (got[1].o) {
        for (int i = 0; i < c[1].n; i++) {
            int j;
            for (j = 0; j < dist.n && strcmp(dist.o[j].key, c[1].keys[i]); j++) ;
            if (j == dist.n) {
                bprintf(&report, "  (b) the simulation gave %s, which the brute force never does\n", c[1].keys[i]);
                mark(failed_checks, 'b');
            }
        }
        for (int j = 0; j < dist.n; j++) {
            double p = mpq_get_d(dist.o[j].w);
            long k = count_of(&c[1], dist.o[j].key);
            double tail = binomial_tail(trials, k, p);
            if (tail < TAIL_BOUND) {
                bprintf(&report, "  (b) %s: %ld of %ld trials, expected %.1f; binomial tail %.3g < %g\n",
                        dist.o[j].key, k, trials, p * trials, tail, TAIL_BOUND);
                mark(failed_checks, 'b');
            }
        }
    }
    if (got[1].o && got[2].o && !counts_equal(&c[1], &c[2])) {
        bputs(&report, "  (c) the counts differ between --threads 1 and --threads 4\n");
        mark(failed_checks, 'c');
    }
    if (got[1].o && got[3].o && !counts_equal(&c[1], &c[3])) {
        bputs(&report, "  (c) the counts differ with --no-specialize\n");
        mark(failed_checks, 'c');
    }

    const Known *k = known_of(seed);
    /* known only if every check that failed is one the list names */
    const char *why = k && strspn(failed_checks, k->checks) == strlen(failed_checks) ? k->why : NULL;
    if (!*failed_checks) {
        programs_passed++;
        if (k) printf("NOTE seed %lld is listed as a known failure (%s) but passes now; take it out of the list\n", seed, k->why);
        else if (!quiet) printf("PASS seed %lld\n", seed);
    } else {
        FILE *o = stdout;
        if (why) {
            programs_known++;
            fprintf(o, "KNOWN seed %lld (checks failed: %s): %s\n", seed, failed_checks, why);
        } else {
            programs_failed++;
            fprintf(o, "FAIL seed %lld (checks failed: %s)%s\n", seed, failed_checks,
                    global_bug ? ", like the known bug of rerolls and rolled defaults" : "");
        }
        if (!why || !quiet) {
            fprintf(o, "%s", report.s);
            fprintf(o, "  the program (f0%s):\n", args.s);
            for (char *line = src.s; *line;) {
                char *nl = strchr(line, '\n');
                fprintf(o, "    %.*s\n", (int)(nl ? nl - line : (long)strlen(line)), line);
                line = nl ? nl + 1 : line + strlen(line);
            }
            print_dist(o, "brute force", &dist);
            for (int i = 0; i < 5; i++)
                if (got[i].o) print_parsed(o, names[i], &got[i], i > 0 && i < 4);
            fprintf(o, "  replay: difftest --seed %lld --count 1\n", seed);
        }
        if (!why && save_dir && *save_dir) {
            mkdir(save_dir, 0777);
            char path[600];
            snprintf(path, sizeof path, "%s/seed%lld.muster", save_dir, seed);
            FILE *s = fopen(path, "w");
            if (s) {
                fprintf(s, "# difftest seed %lld: muster prob seed%lld.muster f0%s --exact\n", seed, seed, args.s);
                for (int i = 0; i < dist.n; i++) {
                    char *w = mpq_get_str(NULL, 10, dist.o[i].w);
                    fprintf(s, "# brute force: %s %s\n", dist.o[i].key, w);
                    free(w);
                }
                fputs(src.s, s);
                fclose(s);
                fprintf(o, "  saved as %s\n", path);
            }
        }
    }
    for (int i = 0; i < 4; i++)
        counts_free(&c[i]);
    for (int i = 0; i < 5; i++) { parsed_free(&got[i]); free(out[i].s); free(err[i].s); }
    unlink(file);
done:
    dist_free(&dist);
    free(src.s); free(args.s); free(report.s);
}

int main(int argc, char **argv)
{
    long long seed = 1, count = 400;
    const char *known_path = NULL;
    muster_path = getenv("MUSTER");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--seed") && v) { seed = atoll(v); i++; }
        else if (!strcmp(a, "--count") && v) { count = atoll(v); i++; }
        else if (!strcmp(a, "--trials") && v) { trials = atol(v); i++; }
        else if (!strcmp(a, "--known") && v) { known_path = v; i++; }
        else if (!strcmp(a, "--save") && v) { save_dir = v; i++; }
        else if (!strcmp(a, "--muster") && v) { muster_path = v; i++; }
        else if (!strcmp(a, "--limit") && v) { run_limit = atol(v); i++; }
        else if (!strcmp(a, "--show")) show_only = 1;
        else if (!strcmp(a, "--quiet")) quiet = 1;
        else {
            fprintf(stderr, "usage: difftest [--seed S] [--count N] [--trials T] [--known FILE] [--save DIR]\n"
                            "                [--muster PATH] [--limit RUNS] [--show] [--quiet]\n");
            return 2;
        }
    }
    if (trials < 1 || trials > 1000000) die("--trials must be 1 to 1000000");
    if (!known_path) {
        /* make check: the list beside this program's source */
        static char path[1024];
        const char *srcdir = getenv("top_srcdir");
        snprintf(path, sizeof path, "%s/tests/differential/known.txt", srcdir ? srcdir : ".");
        if (access(path, R_OK) == 0) known_path = path;
    }
    if (known_path) load_known(known_path);
    if (!show_only) {
        if (!muster_path) muster_path = "./muster";
        if (access(muster_path, X_OK) != 0) die("cannot run %s; build it or set MUSTER", muster_path);
        snprintf(workdir, sizeof workdir, "%s/difftest.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
        if (!mkdtemp(workdir)) die("cannot make a temporary directory");
    }
    for (long long s = seed; s < seed + count; s++)
        check_one(s);
    if (!show_only) {
        rmdir(workdir);
    }
    if (getenv("DIFFTEST_STATS"))
        fprintf(stderr, "brute force: %ld runs, %ld programs generated, %ld of them too big\n", total_runs, total_attempts, total_too_big);
    if (programs_known || programs_skipped)
        printf("%d known failures (in %s, not counted below), %d seeds skipped\n", programs_known,
               known_path ? known_path : "no list", programs_skipped);
    printf("%d passed, %d failed\n", programs_passed, programs_failed);
    return programs_failed ? 1 : 0;
}
