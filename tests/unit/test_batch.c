/* test_batch.c — the batch path (vm/batch.h) against the interpreter: the
 * same results from the same dice, trial by trial, and the generator left
 * where the interpreter leaves it; what qualifies; the batches that give
 * their trials back (an overflow, a key with no cell, a '?' whose value is
 * needed) with the generator untouched; and the simulation's output, the
 * same with the batch path and without it. */
#include "config.h"
#include "tests/unit/harness.h"
#include "api/internal.h"
#include "base/mem.h"
#include "compiler/specialize.h"
#include "vm/batch.h"

#include <stdlib.h>
#include <string.h>

static const char *batch_src =
    "enum Effect { none light heavy rout }\n"
    "bands effect(total: int) -> Effect {\n  ..2: none\n  3..5: light\n  6..8: heavy\n  9..: rout\n}\n"
    "table lost(n: int) -> int {\n  1..3: 0\n  4: ?\n  5: 1\n  6: 2\n}\n"
    "table small(n: int) -> int {\n  1..6: 1\n}\n"
    "proc plain() -> int { return roll d10 + 2 }\n"
    "proc mixed() -> int { return roll d6 + roll d8 * 3 - 1 }\n"
    "proc fire(mod: int) -> Effect { return effect(roll d10 + roll d4 + mod) }\n"
    "proc quot(k: int) -> int { return floor((roll d20 + k) / 4) + ceil(roll d12 / 5) + round(roll d8 / 3) }\n"
    "proc by_die() -> int { return floor(roll d6 * 7 / roll d3) }\n"
    "proc hit(need: int) -> bool { return roll d6 + 1 >= need }\n"
    "proc volley(n: int) -> int {\n  let dice = roll n d6\n  let hits = count(dice >= 4)\n"
    "  if any(dice == 6) { hits = hits + 1 }\n  return hits\n}\n"
    "proc shoot(n: int) -> int {\n  let h = count(roll n d10 > 4)\n  if h > 0 { return h }\n  return 0\n}\n"
    "proc after_branch(k: int) -> int {\n  let a = roll d6\n  let b = 0\n"
    "  if a > 3 { b = a * 2 } else { b = a + k }\n  return b + roll d4\n}\n"
    "proc both(k: int) -> bool {\n  let a = roll d6\n  let c = roll d8\n  return a + k > c and c != 3 or a == 1\n}\n"
    "proc grade(k: int) -> Effect {\n  let d = roll d10 + k\n  if d >= 9 { return rout }\n"
    "  if d <= 2 { return none }\n  return effect(d)\n}\n"
    "proc twice(n: int) -> int {\n  let a = count(roll n d6 >= 5)\n  let b = count(roll n d6 >= 5)\n"
    "  return max(a, b) - min(a, b) + abs(a - 5) + (a * b) % 4\n}\n"
    "proc gap() -> int { return lost(roll d6) }\n"
    "proc gap_needed() -> int { return lost(roll d6) + 1 }\n"
    "proc big(k: int) -> int { return roll d100 * k }\n"
    "proc off() -> int { return small(roll d8) }\n"
    "proc under() -> int { return small(roll d8 - 2) }\n"
    "proc faces(n: int) -> int {\n  let p = roll n d6\n  let q = roll 3 d12\n"
    "  return highest(p) * 100 + lowest(p) * 10 + sum(p) + sum(q) - highest(q) + lowest(q)\n}\n"
    "proc pair(n: int) -> bool {\n  let a = doubles(roll n d8)\n  let b = doubles(roll 2 d16)\n  return a or b\n}\n"
    "proc pair_or(n: int) -> bool { return doubles(roll n d8) or doubles(roll 2 d16) }\n"
    "proc rerolls() -> int {\n  let d = roll d6\n  if d == 1 { reroll }\n  return d\n}\n"
    "proc rational() -> rat { return roll d6 / 4 }\n"
    "proc maybe_roll() -> int {\n  let a = roll d6\n  if a == 6 { return a + roll d6 }\n  return a\n}\n"
    "proc many(n: int) -> int { return count(roll n d6 >= 4) * 2 - count(roll 3 d8 != 2) }\n"
    "proc melee() -> int {\n  let d = roll d6 - roll d6\n  if d == 0 { reroll }\n  return d\n}\n"
    "proc reorg() -> int {\n  let d = roll d6\n  if d == 6 { return 0 }\n  if d == 1 { return roll d3 }\n"
    "  if d >= 4 { return 4 }\n  return roll d3 + 4\n}\n"
    "proc chain() -> int {\n  let a = roll d6\n  if a >= 4 {\n    let b = roll d4\n"
    "    if b == 4 { return a + roll d8 }\n    return b\n  }\n  return count(roll 3 d6 >= 5)\n}\n"
    "proc late_reroll() -> int {\n  let a = roll d6\n  let b = 0\n  if a > 3 { b = count(roll 2 d6 >= 5) }\n"
    "  if a + b == 6 { reroll }\n  return a * 10 + b\n}\n"
    "proc wide() -> int {\n  let a = roll d100\n  let b = roll d100\n  if a > b { return roll d6 }\n  return 0\n}\n"
    "proc on_pool() -> int {\n  let p = roll 3 d6\n  if any(p == 6) { return roll d6 }\n  return 0\n}\n"
    "die Average { 2, 3, 3, 4, 4, 5 }\n"
    "die Fudge { -1, -1, 0, 0, 1, 1 }\n"
    "enum Face { hit, crit, focus, blank }\n"
    "die Red { 3 hit, crit, 2 focus, 2 blank }\n"
    "die Black { 2 hit, 2 crit, 2 blank }\n"
    "proc average(n: int) -> int {\n  let p = roll n Average\n"
    "  return sum(p) * 100 + highest(p) * 10 + lowest(p) + count(p >= 4) + sum(roll 4 Fudge)\n}\n"
    "proc symbols(n: int) -> int {\n  let p = roll [n Red, 1 Black]\n"
    "  let hits = count(p == hit) + count(p in [crit])\n"
    "  if any(p == crit) and not all(p != blank) { hits = hits + 10 }\n  return hits\n}\n"
    "proc best(n: int) -> Face { return lowest(roll n Red) }\n"
    "proc mixed_pool(n: int) -> int {\n  let p = roll [n d6, 2 Average, d4]\n"
    "  return sum(p) * 10 + count(p >= 4)\n}\n"
    "proc mixed_high(n: int) -> int {\n  let p = roll [n d6, d4, 2 Fudge]\n  return highest(p) * 10 + lowest(p)\n}\n"
    "proc mixed_pair(n: int) -> bool { return doubles(roll [n d6, d8]) }\n"
    "proc late_sum(k: int) -> int {\n  let a = roll d6\n  let b = 0\n"
    "  if a > k { b = sum(roll 2 Average) + sum(roll 3 d6) * 10 }\n  return a * 1000 + b\n}\n";

static Compiled *batch_compiled(void)
{
    static Compiled *c;
    if (!c) {
        const char *msgs;
        c = compile_text(batch_src, &msgs, NULL);
        if (!c)
            fprintf(stderr, "\ndoes not compile:\n%s", msgs);
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    return c;
}

/* proc(args) specialized as the simulation does it: its program, with the
 * call's index in *index. */
static const Program *specialized(const char *proc, const Value *args, int nargs, int *index)
{
    Compiled *c = batch_compiled();
    Run r;
    run_seeded(&r, c, 1);
    *index = -1;
    const Program *prog = specialize_call(&r.vm, chunk_find_proto(c->prog, proc), args, nargs, -1, index);
    CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
    return prog;
}

static bool same_rng(const Rng *a, const Rng *b)
{
    return memcmp(a->s, b->s, sizeof a->s) == 0;
}

/* Does trial t of a batch give v, the interpreter's result? */
static bool lane_gives(const BatchResults *r, int t, Value v)
{
    if (r->site && r->site[t] >= 0)
        return v.tag == VAL_UNKNOWN && v.enum_id == r->site[t];
    if (v.tag != r->kind.tag || v.enum_id != r->kind.enum_id)
        return false;
    return v.tag == VAL_BOOL ? (int64_t)v.as.b == r->value[t] : v.as.i == r->value[t];
}

typedef struct Compared {
    int batches, gave_up;
    int failing;             /* batches in which the interpreter failed some trial */
    int mismatches;          /* trials of a batch that ran whose result, or whose dice, differ */
    int unknowns;            /* results that are a '?' */
} Compared;

/* `batches` batches of the call at `index` of prog, each of `lanes`
 * trials, from seed, on machines with these limits: each batch through batch_run, and its trials one by
 * one through the interpreter on a generator of its own from the same
 * seed.  A batch that runs must give each trial's result and leave its
 * generator where the interpreter's is; one that gives up must leave its
 * generator untouched, and is then put where the interpreter's is. */
static Compared compare(const Program *prog, int index, const VmLimits *limits, uint64_t seed, int batches, int lanes)
{
    Compared out = { 0 };
    const BatchCode *code = batch_compile(prog, index, limits);
    CU_ASSERT_PTR_NOT_NULL_FATAL(code);
    BatchLanes *regs = batch_lanes_new(code);
    RngDice dice;
    dice_rng_init(&dice, seed);
    Rng rng = dice.rng;
    Vm vm;
    vm_init(&vm, prog, &dice.base);
    vm.limits = *limits;
    Arena arena = { 0 };
    vm.scratch = &arena;
    for (int k = 0; k < batches; k++) {
        Rng before = rng;
        BatchResults r;
        bool ran = batch_run(code, regs, &rng, lanes, &r);
        out.batches++;
        bool failed = false;
        for (int t = 0; t < lanes; t++) {
            Value v;
            arena_reset(&arena);
            if (vm_call(&vm, index, NULL, 0, &v) != 0) {
                failed = true;
                continue;
            }
            if (ran && !lane_gives(&r, t, v))
                out.mismatches++;
            out.unknowns += ran && v.tag == VAL_UNKNOWN;
        }
        out.failing += failed;
        if (ran) {
            out.mismatches += !same_rng(&rng, &dice.rng) || failed;
        } else {
            out.gave_up++;
            out.mismatches += !same_rng(&rng, &before);
            rng = dice.rng;
        }
    }
    return out;
}

/* Batches of proc(args) against the interpreter, whole and a few lanes. */
static Compared compare_call(const char *proc, const Value *args, int nargs, uint64_t seed)
{
    int index;
    const Program *prog = specialized(proc, args, nargs, &index);
    Compared whole = compare(prog, index, &vm_default_limits, seed, 40, BATCH_LANES);
    Compared few = compare(prog, index, &vm_default_limits, seed + 1, 40, 7);
    CU_ASSERT_EQUAL(few.mismatches, 0);
    CU_ASSERT_EQUAL(few.gave_up, few.failing);
    return whole;
}

/* Batches of proc, with its one argument arg when nargs is 1, run as the
 * interpreter runs them, none giving up. */
static void runs_alike(const char *proc, int nargs, Value arg)
{
    Compared c = compare_call(proc, &arg, nargs, 11);
    CU_ASSERT_EQUAL(c.mismatches, 0);
    CU_ASSERT_EQUAL(c.gave_up, 0);
    CU_ASSERT_EQUAL(c.failing, 0);
}

/* Dice, constants, sums and products, quotients and comparisons. */
static void test_straight_lines(void)
{
    runs_alike("plain", 0, val_int(0));
    runs_alike("mixed", 0, val_int(0));
    runs_alike("quot", 1, val_int(3));
    runs_alike("quot", 1, val_int(-30));
    runs_alike("by_die", 0, val_int(0));
    runs_alike("hit", 1, val_int(4));
    runs_alike("twice", 1, val_int(4));
    runs_alike("twice", 1, val_int(0));
    runs_alike("many", 1, val_int(9));
}

/* Tables: bands open at both ends, a table shifted by the specializer, a
 * member's enum kept. */
static void test_tables(void)
{
    runs_alike("fire", 1, val_int(0));
    runs_alike("fire", 1, val_int(-6));
    runs_alike("fire", 1, val_int(5));
    runs_alike("grade", 1, val_int(1));
}

/* A small roll kept as its counts per face; branches as choices per lane,
 * a roll made on two copies of the same code. */
static void test_pools_and_branches(void)
{
    runs_alike("volley", 1, val_int(8));
    runs_alike("volley", 1, val_int(0));
    runs_alike("faces", 1, val_int(5));
    runs_alike("faces", 1, val_int(1));
    runs_alike("faces", 1, val_int(40));
    runs_alike("pair", 1, val_int(2));
    runs_alike("pair", 1, val_int(0));
    runs_alike("shoot", 1, val_int(6));
    runs_alike("after_branch", 1, val_int(2));
    runs_alike("both", 1, val_int(1));
    runs_alike("both", 1, val_int(-2));
}

/* Dice of their own faces kept as counts per face with the faces' values
 * (numbers, negative ones, symbols), and mixed pools joined side by side;
 * what the faces' values do not allow (doubles where two faces have one
 * value) is left to the interpreter. */
static void test_own_faces(void)
{
    runs_alike("average", 1, val_int(4));
    runs_alike("average", 1, val_int(1));
    runs_alike("average", 1, val_int(12));
    runs_alike("symbols", 1, val_int(3));
    runs_alike("symbols", 1, val_int(0));
    runs_alike("best", 1, val_int(2));
    runs_alike("mixed_pool", 1, val_int(3));
    runs_alike("mixed_high", 1, val_int(3));
    runs_alike("mixed_high", 1, val_int(0));
    runs_alike("late_sum", 1, val_int(3));   /* sums added up as drawn, on some ways only */
    /* doubles of faces of equal values are not counted per face: the interpreter's */
    int index;
    Value arg = val_int(3);
    const Program *prog = specialized("mixed_pair", &arg, 1, &index);
    CU_ASSERT_PTR_NULL(batch_compile(prog, index, &vm_default_limits));
}

/* Rolls that some trials make and others do not, and rerolls: each
 * trial's dice drawn as the interpreter draws them, decided by its
 * earlier rolls. */
static void test_rolls_on_some_ways(void)
{
    runs_alike("rerolls", 0, val_int(0));
    runs_alike("melee", 0, val_int(0));
    runs_alike("maybe_roll", 0, val_int(0));
    runs_alike("reorg", 0, val_int(0));
    runs_alike("chain", 0, val_int(0));
    runs_alike("late_reroll", 0, val_int(0));
    /* past the reroll limit, the interpreter's error: the batch gives up */
    int index;
    const Program *prog = specialized("rerolls", NULL, 0, &index);
    VmLimits none = vm_default_limits;
    none.max_rerolls = 0;
    Compared c = compare(prog, index, &none, 9, 20, BATCH_LANES);
    CU_ASSERT_EQUAL(c.mismatches, 0);
    CU_ASSERT_EQUAL(c.gave_up, c.batches);
    CU_ASSERT_EQUAL(c.failing, c.batches);
    c = compare(prog, index, &none, 9, 20, 2);
    CU_ASSERT_EQUAL(c.mismatches, 0);
    CU_ASSERT(c.gave_up > 0 && c.gave_up < c.batches);
    CU_ASSERT_EQUAL(c.gave_up, c.failing);
}

/* A '?' that is a result is one for its trial; one whose value is needed
 * gives the batch up. */
static void test_unknowns(void)
{
    Value none[] = { val_int(0) };
    Compared c = compare_call("gap", none, 0, 5);
    CU_ASSERT_EQUAL(c.mismatches, 0);
    CU_ASSERT_EQUAL(c.gave_up, 0);
    CU_ASSERT(c.unknowns > 0);
    c = compare_call("gap_needed", none, 0, 5);
    CU_ASSERT_EQUAL(c.mismatches, 0);
    CU_ASSERT_EQUAL(c.gave_up, c.batches);
    CU_ASSERT_EQUAL(c.failing, c.batches);
}

/* An overflow in some trial, or a key beyond a table's rows (above or
 * below them), gives the batch up, the generator untouched; the batches
 * with none run. */
static void test_giving_up(void)
{
    /* d100 * 10^17 overflows from 93 up: nearly every batch has one */
    Value big[] = { val_int(100000000000000000), val_int(0) };
    Compared c = compare_call("big", big, 1, 3);
    CU_ASSERT_EQUAL(c.mismatches, 0);
    CU_ASSERT(c.gave_up > 0);
    CU_ASSERT_EQUAL(c.gave_up, c.failing);
    /* 10^16 never does */
    big[0] = val_int(10000000000000000);
    c = compare_call("big", big, 1, 3);
    CU_ASSERT_EQUAL(c.mismatches, 0);
    CU_ASSERT_EQUAL(c.gave_up, 0);
    /* a 7 or an 8 has no row of 'small' */
    Value none[] = { val_int(0) };
    c = compare_call("off", none, 0, 3);
    CU_ASSERT_EQUAL(c.mismatches, 0);
    CU_ASSERT_EQUAL(c.gave_up, c.batches);
    CU_ASSERT_EQUAL(c.gave_up, c.failing);
    /* and a -1 or a 0 none either */
    c = compare_call("under", none, 0, 3);
    CU_ASSERT_EQUAL(c.mismatches, 0);
    CU_ASSERT_EQUAL(c.gave_up, c.batches);
    CU_ASSERT_EQUAL(c.gave_up, c.failing);
}

/* ---- random procedures ---- */

typedef struct Gen {
    uint64_t state;
    bool has_c;              /* the local c may be read */
    char *text;
    size_t len, cap;
} Gen;

static unsigned gen_below(Gen *g, unsigned n)
{
    g->state = g->state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((g->state >> 33) % n);
}

static void gen_put(Gen *g, const char *s)
{
    size_t n = strlen(s);
    if (g->len + n + 1 > g->cap) {
        size_t cap = 2 * (g->len + n + 1);
        g->text = mem_realloc(g->text, g->cap, cap, 1);
        g->cap = cap;
    }
    memcpy(g->text + g->len, s, n + 1);
    g->len += n;
}

static void gen_bool(Gen *g, int depth);

static void gen_int(Gen *g, int depth);

/* A divisor: a constant one that is not a plain nonzero number (0,
 * (2 - 2)...) is made `(k - k + ...)`, the same value but not a constant,
 * since a constant 0 below the line is a compile-time error; the division
 * by zero is then met at run time, as the test wants. */
static void gen_divisor(Gen *g, int depth)
{
    size_t start = g->len;
    gen_int(g, depth);
    const char *text = g->text + start;
    bool constant = !strpbrk(text, "abcdefghijklmnopqrstuvwxyz");
    bool plain = strspn(text + (*text == '-'), "0123456789") == strlen(text + (*text == '-')) && strcmp(text, "0");
    if (constant && !plain) {
        char *copy = mem_strndup(text, g->len - start);
        g->len = start;
        g->text[start] = '\0';
        gen_put(g, "(k - k + ");
        gen_put(g, copy);
        gen_put(g, ")");
    }
}

/* An int expression over the procedure's dice and its argument k. */
static void gen_int(Gen *g, int depth)
{
    /* (c, last: not in its own definition) */
    static const char *const leaves[] = { "a", "b", "k", "highest(p)", "lowest(p)", "sum(p)",
                                          "count(p >= 4)", "0", "1", "2", "5", "-3", "c" };
    static const char *const binary[] = { "+", "-", "*", "%" };
    static const char *const calls[] = { "floor", "ceil", "round" };
    unsigned pick = depth > 2 ? 0 : gen_below(g, 8);
    if (pick <= 2) {
        gen_put(g, leaves[gen_below(g, sizeof leaves / sizeof leaves[0] - !g->has_c)]);
    } else if (pick == 3) {
        gen_put(g, "(");
        gen_int(g, depth + 1);
        gen_put(g, " ");
        unsigned op = gen_below(g, 4);
        gen_put(g, binary[op]);
        gen_put(g, " ");
        if (op == 3)
            gen_divisor(g, depth + 1);
        else
            gen_int(g, depth + 1);
        gen_put(g, ")");
    } else if (pick == 4) {
        gen_put(g, calls[gen_below(g, 3)]);
        gen_put(g, "(");
        gen_int(g, depth + 1);
        gen_put(g, " / ");
        gen_divisor(g, depth + 1);
        gen_put(g, ")");
    } else if (pick == 5) {
        gen_put(g, gen_below(g, 2) ? "min(" : "max(");
        gen_int(g, depth + 1);
        gen_put(g, ", ");
        gen_int(g, depth + 1);
        gen_put(g, ")");
    } else if (pick == 6) {
        gen_put(g, gen_below(g, 3) ? "steps(" : "abs(");
        gen_int(g, depth + 1);
        gen_put(g, ")");
    } else {
        gen_put(g, "clamp(");
        gen_int(g, depth + 1);
        gen_put(g, ", -2, 7)");
    }
}

static void gen_bool(Gen *g, int depth)
{
    static const char *const rel[] = { "<", "<=", "==", "!=", ">", ">=" };
    unsigned pick = depth > 2 ? 0 : gen_below(g, 5);
    if (pick <= 1) {
        gen_int(g, depth + 1);
        gen_put(g, " ");
        gen_put(g, rel[gen_below(g, 6)]);
        gen_put(g, " ");
        gen_int(g, depth + 1);
    } else if (pick == 2) {
        gen_put(g, "(any(p == 6) != (");
        gen_bool(g, depth + 1);
        gen_put(g, "))");
    } else {
        gen_put(g, "(");
        gen_bool(g, depth + 1);
        gen_put(g, pick == 3 ? " and " : " or ");
        gen_bool(g, depth + 1);
        gen_put(g, ")");
    }
}

/* A procedure whose dice are all rolled first, then computed with at
 * random: ints, quotients, comparisons, branches, a table. */
static const char *gen_proc(Gen *g)
{
    g->len = 0;
    gen_put(g, "bands steps(n: int) -> int {\n  ..0: -1\n  1..3: 2\n  4..6: 5\n  7..: 9\n}\n"
               "proc r(k: int) -> int {\n  let a = roll d6\n  let b = count(roll 4 d8 >= 3)\n"
               "  let p = roll 3 d6\n  let c = ");
    g->has_c = false;
    gen_int(g, 0);
    g->has_c = true;
    gen_put(g, "\n  if ");
    gen_bool(g, 0);
    gen_put(g, " {\n    c = ");
    gen_int(g, 0);
    gen_put(g, "\n  }\n");
    /* a roll that some trials make, a reroll that some make, as the dice
     * decide (not a pool's: its values are too many to decide on) */
    static const char *const decided[] = { "a > 2", "b == 3", "a + b < 5", "a * k > 6", "b != a" };
    if (gen_below(g, 2)) {
        gen_put(g, "  if ");
        gen_put(g, decided[gen_below(g, 5)]);
        gen_put(g, " {\n    c = c + roll d4\n  }\n");
    }
    if (gen_below(g, 3) == 0) {
        gen_put(g, "  if a == 6 and ");
        gen_put(g, decided[gen_below(g, 5)]);
        gen_put(g, " {\n    reroll\n  }\n");
    }
    gen_put(g, "  if ");
    gen_bool(g, 0);
    gen_put(g, " {\n    return ");
    gen_int(g, 0);
    gen_put(g, "\n  }\n  return ");
    gen_int(g, 0);
    gen_put(g, "\n}\n");
    return g->text;
}

/* Random procedures of that shape, specialized for a random k: those that
 * qualify (most) run as the interpreter runs them, trial by trial. */
static void test_random_procedures(void)
{
    Gen g = { .state = 20240611 };
    int qualified = 0, ran = 0, programs = 150;
    for (int n = 0; n < programs; n++) {
        const char *src = gen_proc(&g);
        const char *msgs;
        Compiled *c = compile_text(src, &msgs, NULL);
        if (!c) {
            fprintf(stderr, "\ndoes not compile:\n%s\n%s", src, msgs);
            CU_FAIL("a random procedure does not compile");
            continue;
        }
        Value k = val_int((int64_t)gen_below(&g, 9) - 4);
        Run r;
        run_seeded(&r, c, 1);
        int index = -1;
        const Program *prog = specialize_call(&r.vm, chunk_find_proto(c->prog, "r"), &k, 1, -1, &index);
        if (!prog || !batch_compile(prog, index, &vm_default_limits))
            continue;
        qualified++;
        Compared got = compare(prog, index, &vm_default_limits, 1000 + (uint64_t)n, 6, BATCH_LANES);
        ran += got.batches - got.gave_up;
        if (got.mismatches)
            fprintf(stderr, "\nbatches differ from the interpreter, k = %lld:\n%s", (long long)k.as.i, src);
        CU_ASSERT_EQUAL(got.mismatches, 0);
    }
    CU_ASSERT(qualified > programs / 3);
    CU_ASSERT(ran > 2 * qualified);
}

/* What does not qualify: a rational; a roll decided by a pool, or by
 * too many values of earlier rolls; a proto with parameters; one past the
 * step limit. */
static void test_not_qualifying(void)
{
    Compiled *c = batch_compiled();
    int index;
    const Program *prog = specialized("rational", NULL, 0, &index);
    CU_ASSERT_PTR_NULL(batch_compile(prog, index, &vm_default_limits));
    /* (the second roll only when the first has no doubles) */
    Value two = val_int(2);
    prog = specialized("pair_or", &two, 1, &index);
    CU_ASSERT_PTR_NULL(batch_compile(prog, index, &vm_default_limits));
    prog = specialized("on_pool", NULL, 0, &index);
    CU_ASSERT_PTR_NULL(batch_compile(prog, index, &vm_default_limits));
    prog = specialized("wide", NULL, 0, &index);   /* (10000 pairs of d100s) */
    CU_ASSERT_PTR_NULL(batch_compile(prog, index, &vm_default_limits));
    CU_ASSERT_PTR_NULL(batch_compile(c->prog, chunk_find_proto(c->prog, "fire"), &vm_default_limits));
    prog = specialized("plain", NULL, 0, &index);
    VmLimits tight = vm_default_limits;
    tight.max_steps = 2;     /* ROLLK, ADDK, RETURN: the third would stop the interpreter */
    CU_ASSERT_PTR_NULL(batch_compile(prog, index, &tight));
    tight.max_steps = 3;
    CU_ASSERT_PTR_NOT_NULL(batch_compile(prog, index, &tight));
    /* the highest of no dice is an error */
    Value none = val_int(0);
    prog = specialized("faces", &none, 1, &index);
    CU_ASSERT_PTR_NULL(batch_compile(prog, index, &vm_default_limits));
    /* more dice than the pool limit: the interpreter's error */
    Value n[] = { val_int(50) };
    prog = specialized("volley", n, 1, &index);
    tight = vm_default_limits;
    tight.max_pool = 49;
    CU_ASSERT_PTR_NULL(batch_compile(prog, index, &tight));
}

/* `muster prob` of a call, simulated, with or without the batch path:
 * what it prints on the output and the error streams. */
static char *prob_output(const char *proc, int nargs, char **args, bool batch, int threads, uint64_t trials)
{
    char *out = NULL, *err = NULL;
    size_t out_len = 0, err_len = 0;
    FILE *o = open_memstream(&out, &out_len), *e = open_memstream(&err, &err_len);
    CU_ASSERT_FATAL(o && e);
    muster_ctx *ctx = muster_new(o, e, 0);
    ctx->no_batch = !batch;
    muster_program *prog = muster_load_string(ctx, "batch.muster", batch_src, strlen(batch_src));
    CU_ASSERT_PTR_NOT_NULL_FATAL(prog);
    muster_prob_opts opts = { .have_seed = 1, .seed = 99, .trials = trials, .threads = threads, .json = 1 };
    (void)muster_prob(ctx, prog, proc, nargs, args, &opts);
    fclose(o);
    fclose(e);
    char *both = mem_alloc(out_len + err_len + 2);
    snprintf(both, out_len + err_len + 2, "%s\n%s", out, err);
    free(out);
    free(err);
    return both;
}

/* The same output from proc(arg) (arg NULL: no argument), simulated on
 * `threads` threads, with the batch path and without. */
static void prints_alike(int threads, uint64_t trials, const char *proc, const char *arg)
{
    char *args[] = { (char *)arg };
    char *with = prob_output(proc, arg != NULL, args, true, threads, trials);
    char *without = prob_output(proc, arg != NULL, args, false, threads, trials);
    if (strcmp(with, without) != 0)
        fprintf(stderr, "\n%s: with batches\n%s\nwithout\n%s\n", proc, with, without);
    CU_ASSERT_STRING_EQUAL(with, without);
}

/* The simulation counts alike with batches and without: results, '?'s
 * counted apart with the first one's place, a trial that fails (the same
 * trial reported), any number of threads, a last batch cut short. */
static void test_simulation_counts_alike(void)
{
    prints_alike(1, 50000, "plain", NULL);
    prints_alike(3, 50001, "fire", "mod=1");
    prints_alike(2, 30007, "volley", "n=8");
    prints_alike(1, 30000, "shoot", "n=6");
    prints_alike(1, 30000, "hit", "need=5");
    prints_alike(3, 30000, "grade", "k=-1");
    prints_alike(1, 30000, "gap", NULL);
    prints_alike(3, 30000, "gap_needed", NULL);
    prints_alike(1, 30000, "big", "k=100000000000000000");
    prints_alike(2, 30000, "off", NULL);
    prints_alike(1, 30000, "quot", "k=-7");
    prints_alike(3, 30000, "reorg", NULL);
    prints_alike(1, 30000, "chain", NULL);
    prints_alike(2, 30000, "late_reroll", NULL);
    prints_alike(3, 30000, "average", "n=4");
    prints_alike(2, 30000, "symbols", "n=3");
    /* (each of them through batches: they qualify) */
    struct { const char *proc; int nargs; } batched[] = {
        { "plain", 0 }, { "fire", 1 }, { "volley", 1 }, { "shoot", 1 }, { "hit", 1 }, { "grade", 1 },
        { "gap", 0 }, { "gap_needed", 0 }, { "big", 1 }, { "off", 0 }, { "quot", 1 },
        { "reorg", 0 }, { "chain", 0 }, { "late_reroll", 0 }, { "average", 1 }, { "symbols", 1 },
        { "best", 1 }, { "mixed_pool", 1 },
    };
    Value one = val_int(1);
    for (size_t k = 0; k < sizeof batched / sizeof batched[0]; k++) {
        int index;
        const Program *prog = specialized(batched[k].proc, &one, batched[k].nargs, &index);
        CU_ASSERT_PTR_NOT_NULL(batch_compile(prog, index, &vm_default_limits));
    }
}

void register_tests(void)
{
    static const TestDef batch[] = {
        { "straight lines run as the interpreter runs them", test_straight_lines },
        { "dice of their own faces and mixed pools run as the interpreter runs them", test_own_faces },
        { "tables, bands open at either end", test_tables },
        { "small rolls and branches", test_pools_and_branches },
        { "rolls on some ways only, rerolls", test_rolls_on_some_ways },
        { "a '?' as a result, and one needed", test_unknowns },
        { "an overflow or a key with no row gives the batch up", test_giving_up },
        { "random procedures run as the interpreter runs them", test_random_procedures },
        { "what does not qualify", test_not_qualifying },
        { "the simulation counts alike with batches and without", test_simulation_counts_alike },
        { NULL, NULL },
    };
    add_suite("batch", batch);
}
