/* test_dice.c — the scripted and seeded dice sources, the dice list
 * parser, the generator (fixed reference values, uniformity by chi-square),
 * and the exact engine: its odds, rerolls as conditioning, cut paths, the
 * budget and lazy pools. */
#include "config.h"
#include "tests/unit/harness.h"
#include "vm/exact.h"
#include "vm/facewise.h"
#include "vm/pool.h"
#include "compiler/compiler.h"

#include <stdlib.h>

#include "vm/rng.h"

#include <stdlib.h>
#include <string.h>

/* ---- scripted dice ---- */

static void test_scripted_order(void)
{
    static const int64_t faces[] = { 6, 3, 4, 1, 2, 5 };
    ScriptDice d;
    dice_script_init(&d, faces, NULL, 6);
    char err[256] = "";
    int32_t out[3];
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 6, NULL, out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(out[0], 6);
    /* a pool takes as many as it has dice, in the order given */
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 3, 6, NULL, out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(out[0], 3);
    CU_ASSERT_EQUAL(out[1], 4);
    CU_ASSERT_EQUAL(out[2], 1);
    CU_ASSERT_EQUAL(d.next, 4);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 2, 6, NULL, out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(out[0], 2);
    CU_ASSERT_EQUAL(out[1], 5);
    CU_ASSERT_EQUAL(d.next, 6);
    CU_ASSERT_STRING_EQUAL(err, "");
}

static void test_scripted_running_out(void)
{
    static const int64_t faces[] = { 2, 5 };
    ScriptDice d;
    dice_script_init(&d, faces, NULL, 2);
    char err[256];
    int32_t out[4];
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 2, 6, NULL, out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 6, NULL, out, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "ran out of scripted dice: 2 given, a d6 needs one more");

    dice_script_init(&d, faces, NULL, 2);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 8, NULL, out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 3, 10, NULL, out, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "ran out of scripted dice: 2 given, a pool of 3 d10 needs 2 more");

    /* no dice at all */
    dice_script_init(&d, NULL, NULL, 0);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 20, NULL, out, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "ran out of scripted dice: 0 given, a d20 needs one more");
}

/* A die of its own faces takes the values read off it, and gives back a
 * face showing each (the first one: faces of one value are alike). */
static void test_scripted_own_faces(void)
{
    static const int32_t average[] = { 2, 3, 3, 4, 4, 5 };
    static const Die die = { "Average", 6, average, NULL, 0 };
    static const int64_t faces[] = { 5, 3, 2, 6 };
    ScriptDice d;
    char err[256] = "";
    int32_t out[3];
    dice_script_init(&d, faces, NULL, 4);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 3, 6, &die, out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(out[0], 6);
    CU_ASSERT_EQUAL(out[1], 2);
    CU_ASSERT_EQUAL(out[2], 1);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 6, &die, out, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "scripted die #4 is 6, which is not a face of Average (2, 3, 3, 4, 4, 5)");
    dice_script_init(&d, faces, NULL, 1);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 2, 6, &die, out, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "ran out of scripted dice: 1 given, a pool of 2 Average needs 1 more");
    dice_script_init(&d, NULL, NULL, 0);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 6, &die, out, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "ran out of scripted dice: 0 given, one Average needs one more");
}

/* A symbol die takes its faces by name; a number, or a name it does not
 * show, is an error that lists its faces. */
static void test_scripted_symbols(void)
{
    static const char *const members[] = { "hit", "crit", "focus", "blank" };
    static const int32_t values[] = { 0, 0, 0, 1, 2, 2, 3, 3 };
    static const Die attack = { "Attack", 8, values, members, 4 };
    static const int64_t faces[] = { 0, 0, 0, 0, 3 };
    static const char *const words[] = { "blank", "hit", "crit", "focus", NULL };
    ScriptDice d;
    char err[256] = "";
    int32_t out[4];
    dice_script_init(&d, faces, words, 5);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 3, 8, &attack, out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(out[0], 7);
    CU_ASSERT_EQUAL(out[1], 1);
    CU_ASSERT_EQUAL(out[2], 4);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 8, &attack, out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(out[0], 5);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 8, &attack, out, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "scripted die #5 is 3, which is not a face of Attack (hit, hit, hit, crit, focus, "
                                "focus, blank, blank)");
    /* a name for a die of numbers */
    dice_script_init(&d, faces, words, 5);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 6, NULL, out, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "scripted die #1 is 'blank', which is not a face of a d6 (1..6)");
}

static void test_scripted_face_out_of_range(void)
{
    static const int64_t faces[] = { 6, 7, 0, -1, 100 };
    ScriptDice d;
    char err[256];
    int32_t out[2];
    dice_script_init(&d, faces, NULL, 5);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 6, NULL, out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(out[0], 6);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 6, NULL, out, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "scripted die #2 is 7, which is not a face of a d6 (1..6)");

    dice_script_init(&d, faces + 2, NULL, 1);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 6, NULL, out, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "scripted die #1 is 0, which is not a face of a d6 (1..6)");

    dice_script_init(&d, faces + 3, NULL, 1);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 6, NULL, out, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "scripted die #1 is -1, which is not a face of a d6 (1..6)");

    /* the same face fits a bigger die */
    dice_script_init(&d, faces + 1, NULL, 1);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 8, NULL, out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(out[0], 7);
    dice_script_init(&d, faces + 4, NULL, 1);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 100, NULL, out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(out[0], 100);
    dice_script_init(&d, faces + 4, NULL, 1);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 99, NULL, out, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "scripted die #1 is 100, which is not a face of a d99 (1..99)");
}

/* ---- the dice list ---- */

static void test_parse_good_lists(void)
{
    int64_t *faces = NULL;
    const char **words = NULL;
    char err[256];
    CU_ASSERT_EQUAL(dice_parse_list("6,3,4", &faces, &words, err, sizeof err), 3);
    CU_ASSERT_PTR_NULL(words);
    CU_ASSERT_PTR_NOT_NULL_FATAL(faces);
    CU_ASSERT_EQUAL(faces[0], 6);
    CU_ASSERT_EQUAL(faces[1], 3);
    CU_ASSERT_EQUAL(faces[2], 4);

    CU_ASSERT_EQUAL(dice_parse_list(" 1 , 20,\t100 ", &faces, &words, err, sizeof err), 3);
    CU_ASSERT_EQUAL(faces[0], 1);
    CU_ASSERT_EQUAL(faces[1], 20);
    CU_ASSERT_EQUAL(faces[2], 100);

    CU_ASSERT_EQUAL(dice_parse_list("5", &faces, &words, err, sizeof err), 1);
    CU_ASSERT_EQUAL(faces[0], 5);

    CU_ASSERT_EQUAL(dice_parse_list("1000000000", &faces, &words, err, sizeof err), 1);
    CU_ASSERT_EQUAL(faces[0], 1000000000);

    /* a long list grows past the first allocation, in order */
    char text[2048] = "";
    for (int i = 0; i < 300; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s%d", i ? "," : "", i % 6 + 1);
    CU_ASSERT_EQUAL(dice_parse_list(text, &faces, &words, err, sizeof err), 300);
    int ok = 1;
    for (int i = 0; i < 300; i++)
        ok &= faces[i] == i % 6 + 1;
    CU_ASSERT(ok);

    /* a symbol die's faces by name, and negative faces (a die of its own faces may show them) */
    CU_ASSERT_EQUAL(dice_parse_list("hit, -1,blank_2", &faces, &words, err, sizeof err), 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(words);
    CU_ASSERT_STRING_EQUAL(words[0], "hit");
    CU_ASSERT_PTR_NULL(words[1]);
    CU_ASSERT_EQUAL(faces[1], -1);
    CU_ASSERT_STRING_EQUAL(words[2], "blank_2");
}

static void test_parse_bad_lists(void)
{
    static const struct { const char *text, *msg; } cases[] = {
        { "", "the dice list is empty" },
        { "1,,2", "expected a die face (a whole number, or a symbol's name) at ',2'" },
        { "1 2", "expected ',' between die faces at '2'" },
        { "1;2", "expected ',' between die faces at ';2'" },
        { "1.5", "expected ',' between die faces at '.5'" },
        { "- 1", "expected a die face (a whole number, or a symbol's name) at '- 1'" },
        { "+3", "expected a die face (a whole number, or a symbol's name) at '+3'" },
        { "3,hit-2", "expected ',' between die faces at '-2'" },
        { "99999999999999999999", "die face '99999999999999999999' is too large" },
        { "6,1000000001", "die face '1000000001' is too large" },
        { "-1000000001", "die face '-1000000001' is too large" },
        { "  ", "expected a die face (a whole number, or a symbol's name) at 'end of list'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t *faces = NULL;
        const char **words = NULL;
        char err[256] = "";
        long n = dice_parse_list(cases[i].text, &faces, &words, err, sizeof err);
        CU_ASSERT_EQUAL(n, -1);
        if (strcmp(err, cases[i].msg) != 0)
            fprintf(stderr, "\n'%s': got \"%s\", want \"%s\"\n", cases[i].text, err, cases[i].msg);
        CU_ASSERT_STRING_EQUAL(err, cases[i].msg);
    }
}

/* ---- the generator ---- */

static void test_rng_reference_values(void)
{
    /* xoshiro256** seeded through splitmix64: the published streams */
    static const struct { uint64_t seed, out[3]; } ref[] = {
        { 0, { 0x99ec5f36cb75f2b4ULL, 0xbf6e1f784956452aULL, 0x1a5f849d4933e6e0ULL } },
        { 12345, { 0xbe6a36374160d49bULL, 0x214aaa0637a688c6ULL, 0xf69d16de9954d388ULL } },
        { UINT64_MAX, { 0x8f5520d52a7ead08ULL, 0xc476a018caa1802dULL, 0x81de31c0d260469eULL } },
    };
    for (size_t i = 0; i < sizeof ref / sizeof ref[0]; i++) {
        Rng r;
        rng_seed(&r, ref[i].seed);
        for (int k = 0; k < 3; k++)
            CU_ASSERT_EQUAL(rng_next(&r), ref[i].out[k]);
    }
}

static void test_rng_determinism(void)
{
    Rng a, b, c;
    rng_seed(&a, 42);
    rng_seed(&b, 42);
    rng_seed(&c, 43);
    int same_ab = 0, same_ac = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = rng_next(&a), y = rng_next(&b), z = rng_next(&c);
        same_ab += x == y;
        same_ac += x == z;
    }
    CU_ASSERT_EQUAL(same_ab, 1000);
    CU_ASSERT_EQUAL(same_ac, 0);

    /* seeded dice: the same seed gives the same rolls, another seed others */
    RngDice d1, d2, d3;
    dice_rng_init(&d1, 2024);
    dice_rng_init(&d2, 2024);
    dice_rng_init(&d3, 2025);
    CU_ASSERT_EQUAL(d1.seed, 2024);
    int32_t f1[100], f2[100], f3[100];
    char err[64];
    CU_ASSERT_EQUAL(d1.base.roll(&d1.base, 100, 20, NULL, f1, err, sizeof err), 0);
    CU_ASSERT_EQUAL(d2.base.roll(&d2.base, 100, 20, NULL, f2, err, sizeof err), 0);
    CU_ASSERT_EQUAL(d3.base.roll(&d3.base, 100, 20, NULL, f3, err, sizeof err), 0);
    CU_ASSERT_EQUAL(memcmp(f1, f2, sizeof f1), 0);
    CU_ASSERT_NOT_EQUAL(memcmp(f1, f3, sizeof f1), 0);
    /* each die is rng_below(sides) + 1 from the seeded generator */
    Rng r;
    rng_seed(&r, 2024);
    int match = 0;
    for (int i = 0; i < 100; i++)
        match += f1[i] == (int32_t)rng_below(&r, 20) + 1;
    CU_ASSERT_EQUAL(match, 100);
}

static void test_rng_seed_zero_is_mixed(void)
{
    Rng r;
    rng_seed(&r, 0);
    CU_ASSERT(r.s[0] || r.s[1] || r.s[2] || r.s[3]);
    uint64_t first = rng_next(&r);
    int distinct = 0;
    for (int i = 0; i < 100; i++)
        distinct += rng_next(&r) != first;
    CU_ASSERT_EQUAL(distinct, 100);
}

static void test_rng_below_bounds(void)
{
    static const uint64_t ns[] = {
        1, 2, 3, 6, 7, 100, 1000003, (1ULL << 32) + 1, 1ULL << 63, (1ULL << 63) + 1,
        3ULL << 62, UINT64_MAX - 1, UINT64_MAX,
    };
    Rng r;
    rng_seed(&r, 99);
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        int ok = 1;
        for (int k = 0; k < 10000; k++)
            ok &= rng_below(&r, ns[i]) < ns[i];
        CU_ASSERT(ok);
    }
    /* n = 1 has one answer; n = 2 gives both */
    int zeros = 0, ones = 0;
    for (int k = 0; k < 1000; k++) {
        zeros += rng_below(&r, 1) == 0;
        ones += rng_below(&r, 2) == 1;
    }
    CU_ASSERT_EQUAL(zeros, 1000);
    CU_ASSERT(ones > 400 && ones < 600);
    /* every face of a small range appears */
    int seen[7] = { 0 };
    for (int k = 0; k < 1000; k++)
        seen[rng_below(&r, 7)] = 1;
    CU_ASSERT_EQUAL(seen[0] + seen[1] + seen[2] + seen[3] + seen[4] + seen[5] + seen[6], 7);
}

/* The chi-square statistic of counts[0..k) against a uniform expectation. */
static double chi_square(const long *counts, int k, long total)
{
    double expected = (double)total / k, x2 = 0;
    for (int i = 0; i < k; i++) {
        double d = (double)counts[i] - expected;
        x2 += d * d / expected;
    }
    return x2;
}

#define ROLLS 60000

static void test_dice_are_uniform(void)
{
    /* critical values of chi-square at p = 0.001, for sides - 1 degrees of freedom */
    static const struct { int sides; double critical; } dice[] = {
        { 2, 10.828 }, { 3, 13.816 }, { 4, 16.266 }, { 6, 20.515 }, { 8, 24.322 },
        { 10, 27.877 }, { 12, 31.264 }, { 20, 43.820 }, { 100, 148.230 },
    };
    static int32_t faces[ROLLS];
    for (size_t i = 0; i < sizeof dice / sizeof dice[0]; i++) {
        int sides = dice[i].sides;
        RngDice d;
        dice_rng_init(&d, 1000 + (uint64_t)sides);
        char err[64];
        CU_ASSERT_EQUAL_FATAL(d.base.roll(&d.base, ROLLS, sides, NULL, faces, err, sizeof err), 0);
        long counts[100] = { 0 };
        int in_range = 1;
        for (int k = 0; k < ROLLS; k++) {
            if (faces[k] < 1 || faces[k] > sides) {
                in_range = 0;
                continue;
            }
            counts[faces[k] - 1]++;
        }
        CU_ASSERT(in_range);
        double x2 = chi_square(counts, sides, ROLLS);
        if (x2 >= dice[i].critical)
            fprintf(stderr, "\nd%d: chi-square %.3f >= %.3f\n", sides, x2, dice[i].critical);
        CU_ASSERT(x2 < dice[i].critical);
    }
}

static void test_chi_square_catches_bias(void)
{
    /* the check above can fail: a d6 made by taking 3 random bits modulo 6
     * (faces 1 and 2 twice as likely) is far over the critical value */
    Rng r;
    rng_seed(&r, 1006);
    long counts[6] = { 0 };
    for (int k = 0; k < ROLLS; k++)
        counts[(rng_next(&r) >> 61) % 6]++;
    CU_ASSERT(chi_square(counts, 6, ROLLS) > 20.515);
}

static void test_large_range_is_unbiased(void)
{
    /* n = 3 * 2^62: reducing a 64-bit number modulo n would put half of
     * all results in [0, 2^62), and 5/8 of them below n/2.  An unbiased
     * draw puts a third in [0, 2^62) and half below n/2.  Multiplying
     * without rejecting (floor(x * n / 2^64) = floor(3x / 4)) would make
     * multiples of 3 twice as likely as the other results. */
    const uint64_t n = 3ULL << 62;
    const int draws = 200000;
    Rng r;
    rng_seed(&r, 77);
    long below_half = 0, below_quarter = 0, multiple_of_3 = 0, too_big = 0;
    for (int k = 0; k < draws; k++) {
        uint64_t x = rng_below(&r, n);
        too_big += x >= n;
        below_half += x < n / 2;
        below_quarter += x < (1ULL << 62);
        multiple_of_3 += x % 3 == 0;
    }
    CU_ASSERT_EQUAL(too_big, 0);
    double half = (double)below_half / draws, third = (double)below_quarter / draws;
    double mult3 = (double)multiple_of_3 / draws;
    /* the standard deviations are about 0.0011; allow 0.01 */
    if (half < 0.49 || half > 0.51 || third < 0.3233 || third > 0.3433 || mult3 < 0.3233 || mult3 > 0.3433)
        fprintf(stderr, "\nbelow n/2: %.4f (want 0.5); below 2^62: %.4f (want 0.3333); "
                "multiples of 3: %.4f (want 0.3333)\n", half, third, mult3);
    CU_ASSERT(half > 0.49 && half < 0.51);
    CU_ASSERT(third > 0.3233 && third < 0.3433);
    CU_ASSERT(mult3 > 0.3233 && mult3 < 0.3433);

    /* and the same check sees the bias of the modulo method */
    long mod_below_half = 0;
    for (int k = 0; k < draws; k++)
        mod_below_half += rng_next(&r) % n < n / 2;
    CU_ASSERT((double)mod_below_half / draws > 0.6);
}

static void test_fresh_seed(void)
{
    /* fresh seeds are short enough to type back in */
    uint64_t a = rng_fresh_seed(), b = rng_fresh_seed();
    CU_ASSERT(a < 1000000000000ULL);
    CU_ASSERT(b < 1000000000000ULL);
}

/* ---- the exact engine ---- */

/* The exact distribution of proc() in text, which takes no arguments; the
 * Vm's error text, when the count fails, goes to error (if not NULL). */
static void exact_with(const char *text, const char *proc, const ExactOptions *o, ExactResult *out,
                       char *error, size_t errlen)
{
    Compiled *c = compile_text(text, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    const ProcSig *sig = compiler_find_proc(c, proc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sig);
    Vm vm;
    vm_init(&vm, c->prog, NULL);
    exact_distribution(&vm, sig->proto, NULL, 0, NULL, NULL, o, out);
    if (error)
        snprintf(error, errlen, "%s", vm.error);
}

static void exact_of(const char *text, const char *proc, uint64_t budget, ExactResult *out)
{
    ExactOptions o = { .budget = budget };
    exact_with(text, proc, &o, out, NULL, 0);
}

/* Is the probability of outcome k num/den? */
static bool p_is(const ExactResult *r, int64_t k, unsigned long num, unsigned long den)
{
    mpq_t want;
    mpq_init(want);
    mpq_set_ui(want, num, den);
    mpq_canonicalize(want);
    bool ok = false;
    for (int i = 0; i < r->n; i++)
        if (r->outcomes[i].value.tag == VAL_INT && r->outcomes[i].value.as.i == k)
            ok = mpq_equal(r->outcomes[i].p, want);
    if (mpq_sgn(want) == 0) {
        ok = true;
        for (int i = 0; i < r->n; i++)
            if (r->outcomes[i].value.as.i == k)
                ok = false;
    }
    mpq_clear(want);
    return ok;
}

static unsigned long choose(unsigned n, unsigned k)
{
    unsigned long r = 1;
    for (unsigned i = 1; i <= k; i++)
        r = r * (n - k + i) / i;
    return r;
}

static void test_exact_binomial(void)
{
    /* count(n d6 >= 4) is binomial(n, 1/2); the engine runs each multiset once */
    for (unsigned n = 1; n <= 10; n++) {
        char text[128];
        snprintf(text, sizeof text, "proc f() -> int { return count(roll %ud6 >= 4) }", n);
        ExactResult r;
        exact_of(text, "f", 0, &r);
        CU_ASSERT_EQUAL(r.status, EXACT_DONE);
        CU_ASSERT_EQUAL(r.n, (int)n + 1);
        for (unsigned k = 0; k <= n; k++)
            CU_ASSERT(p_is(&r, k, choose(n, k), 1UL << n));
        /* one split: the number of dice in 4..6 */
        CU_ASSERT_EQUAL(r.runs, (uint64_t)n + 1);
        exact_clear(&r);
        /* the pool settled whole: one run a multiset */
        ExactOptions whole = { .whole_pools = true };
        exact_with(text, "f", &whole, &r, NULL, 0);
        for (unsigned k = 0; k <= n; k++)
            CU_ASSERT(p_is(&r, k, choose(n, k), 1UL << n));
        CU_ASSERT_EQUAL(r.runs, (uint64_t)choose(n + 5, 5));
        exact_clear(&r);
    }
}

static void test_exact_two_dice(void)
{
    ExactResult r;
    exact_of("proc f() -> int { return roll d6 + roll d6 }", "f", 0, &r);
    CU_ASSERT_EQUAL(r.n, 11);
    for (int t = 2; t <= 12; t++)
        CU_ASSERT(p_is(&r, t, (unsigned long)(6 - abs(t - 7)), 36));
    CU_ASSERT_EQUAL(r.runs, 36);
    exact_clear(&r);
    /* the same as a pool: its sum worked out face by face, and returned
     * whole (one run) */
    exact_of("proc f() -> int { return sum(roll 2d6) }", "f", 0, &r);
    CU_ASSERT(p_is(&r, 7, 6, 36));
    CU_ASSERT(p_is(&r, 12, 1, 36));
    CU_ASSERT_EQUAL(r.runs, 1);
    exact_clear(&r);
    /* held in a local first, and read only there: returned whole too */
    exact_of("proc f() -> int { let t = sum(roll 2d6)  return t }", "f", 0, &r);
    CU_ASSERT(p_is(&r, 7, 6, 36));
    CU_ASSERT_EQUAL(r.runs, 1);
    exact_clear(&r);
    /* read twice: one run a total */
    exact_of("proc f() -> int { let t = sum(roll 2d6)  return t + 0 * t }", "f", 0, &r);
    CU_ASSERT(p_is(&r, 7, 6, 36));
    CU_ASSERT_EQUAL(r.runs, 11);
    exact_clear(&r);
    /* a pool in the result: 21 multisets instead of 36 sequences */
    exact_of("proc f() -> pool { return roll 2d6 }", "f", 0, &r);
    CU_ASSERT_EQUAL(r.n, 21);
    CU_ASSERT_EQUAL(r.runs, 21);
    exact_clear(&r);
}

static const char *roll_offs =
    "proc off() -> int {\n"
    "  let a = roll d6\n"
    "  let b = roll d6\n"
    "  if a == b { reroll }\n"
    "  if a > b { return 1 }\n"
    "  return 0\n"
    "}\n"
    "proc twice() -> int { return off() + off() }\n"
    "proc skewed() -> int {\n"
    "  let a = roll d6\n"
    "  if a == 1 { return 9 }\n"
    "  return off()\n"
    "}\n";

static void test_exact_rerolls_condition(void)
{
    ExactResult r;
    exact_of(roll_offs, "off", 0, &r);
    CU_ASSERT(p_is(&r, 1, 1, 2));
    CU_ASSERT(p_is(&r, 0, 1, 2));
    exact_clear(&r);
    /* a rerolling procedure called twice: each call conditioned on its own */
    exact_of(roll_offs, "twice", 0, &r);
    CU_ASSERT(p_is(&r, 0, 1, 4));
    CU_ASSERT(p_is(&r, 1, 1, 2));
    CU_ASSERT(p_is(&r, 2, 1, 4));
    exact_clear(&r);
    /* conditioning inside a branch must not reweigh the other branch */
    exact_of(roll_offs, "skewed", 0, &r);
    CU_ASSERT(p_is(&r, 9, 1, 6));
    CU_ASSERT(p_is(&r, 1, 5, 12));
    CU_ASSERT(p_is(&r, 0, 5, 12));
    exact_clear(&r);
}

static void test_exact_cuts_and_gaps(void)
{
    ExactResult r;
    exact_of("proc e() -> int {\n let r = roll d6\n if r == 6 { return 6 + e() }\n return r\n}", "e", 0, &r);
    CU_ASSERT_EQUAL(r.status, EXACT_DONE);
    CU_ASSERT(mpq_sgn(r.dropped) > 0);
    CU_ASSERT(p_is(&r, 1, 1, 6));
    CU_ASSERT(p_is(&r, 7, 1, 36));
    /* what is kept and what is cut add up to one */
    mpq_t sum, one;
    mpq_inits(sum, one, NULL);
    mpq_set_ui(one, 1, 1);
    for (int i = 0; i < r.n; i++)
        mpq_add(sum, sum, r.outcomes[i].p);
    mpq_add(sum, sum, r.dropped);
    CU_ASSERT(mpq_equal(sum, one));
    mpq_clears(sum, one, NULL);
    exact_clear(&r);

    /* a run that needs a '?' is counted apart */
    exact_of("table t(n: int) -> int {\n 1: 5\n 2: ?\n 3: ?\n}\nproc f() -> int { return t(roll d3) + 1 }", "f", 0, &r);
    CU_ASSERT(p_is(&r, 6, 1, 3));
    CU_ASSERT_EQUAL(r.n, 1);
    mpq_t two_thirds;
    mpq_init(two_thirds);
    mpq_set_ui(two_thirds, 2, 3);
    CU_ASSERT(mpq_equal(r.not_given, two_thirds));
    exact_clear(&r);
    /* one whose result is a '?' has it as its result (the driver decides
     * what that counts as): one unknown for each '?' */
    exact_of("table t(n: int) -> int {\n 1: 5\n 2: ?\n 3: ?\n}\nproc f() -> int { return t(roll d3) }", "f", 0, &r);
    CU_ASSERT(p_is(&r, 5, 1, 3));
    CU_ASSERT_EQUAL_FATAL(r.n, 3);
    CU_ASSERT_EQUAL(r.outcomes[1].value.tag, VAL_UNKNOWN);
    CU_ASSERT_EQUAL(r.outcomes[2].value.tag, VAL_UNKNOWN);
    CU_ASSERT(mpq_sgn(r.not_given) == 0);
    mpq_clear(two_thirds);
    exact_clear(&r);
}

static void test_exact_budget_and_no_dice(void)
{
    ExactResult r;
    exact_of("proc f() -> pool { return roll 30d6 }", "f", 1000, &r);
    CU_ASSERT_EQUAL(r.status, EXACT_OVER_BUDGET);
    CU_ASSERT(r.needed > 1000);
    exact_clear(&r);
    exact_of("proc f() -> int { return count(roll 30d6 >= 4) }", "f", 20, &r);
    CU_ASSERT_EQUAL(r.status, EXACT_OVER_BUDGET);
    exact_clear(&r);
    exact_of("proc f() -> int { return 7 }", "f", 0, &r);
    CU_ASSERT_EQUAL(r.runs, 1);
    CU_ASSERT(p_is(&r, 7, 1, 1));
    exact_clear(&r);
    exact_of("proc f() -> int {\n let a = roll d2\n reroll\n}", "f", 0, &r);
    CU_ASSERT_EQUAL(r.status, EXACT_FAILED);
    exact_clear(&r);
}

/* The driver's tick: called as the count goes, with the share of the
 * probability covered growing to 1; false stops the count. */
typedef struct TickLog {
    int calls, stop_at;
    double last_done;
    bool grew;
} TickLog;

static bool log_tick(void *ud, const ExactProgress *p)
{
    TickLog *t = ud;
    t->calls++;
    t->grew = t->grew && p->done >= t->last_done && p->done <= 1.0 + 1e-12;
    t->last_done = p->done;
    return t->calls != t->stop_at;
}

static void test_exact_tick(void)
{
    /* three dice read as digits: every path a value of its own, so no two
     * runs meet in a state (see merge.h) */
    const char *text = "proc f() -> int { return roll d6 * 100 + roll d6 * 10 + roll d6 }";
    TickLog t = { .stop_at = -1, .grew = true };
    ExactOptions o = { .tick = log_tick, .tick_ud = &t, .tick_every = 10 };
    ExactResult r;
    exact_with(text, "f", &o, &r, NULL, 0);
    CU_ASSERT_EQUAL(r.status, EXACT_DONE);
    CU_ASSERT_EQUAL(r.runs, 216);
    CU_ASSERT(t.calls >= 20);
    CU_ASSERT(t.grew);
    CU_ASSERT(t.last_done > 0.9 && t.last_done < 1.0);
    exact_clear(&r);
    /* stopped at the third tick: a status, not a result */
    TickLog s = { .stop_at = 3, .grew = true };
    o.tick_ud = &s;
    exact_with(text, "f", &o, &r, NULL, 0);
    CU_ASSERT_EQUAL(r.status, EXACT_STOPPED);
    CU_ASSERT_EQUAL(s.calls, 3);
    CU_ASSERT(r.runs <= 31);
    exact_clear(&r);
}

/* A recursive procedure is worked out once per state; its calls of itself
 * with the same arguments round by round until less than EXACT_CUT_BELOW is
 * cut off: shots until two hits land, a negative binomial. */
/* Runs that reach a statement (or an addition) in the same state are
 * counted once (merge.h): fewer runs, the same odds; a local still to be
 * read keeps the runs apart. */
static void test_exact_merges_states(void)
{
    ExactResult r;
    /* the total so far is the state: 6 + 36 + 11 * 6 runs, not 216 */
    exact_of("proc f() -> int { return roll d6 + roll d6 + roll d6 }", "f", 0, &r);
    CU_ASSERT_EQUAL_FATAL(r.status, EXACT_DONE);
    CU_ASSERT(r.runs < 216);
    CU_ASSERT(p_is(&r, 3, 1, 216) && p_is(&r, 10, 27, 216) && p_is(&r, 18, 1, 216));
    exact_clear(&r);
    /* a is read at the end: every (a, b) is a state of its own */
    exact_of("proc f() -> int {\n  let a = roll d6\n  let b = roll d6\n  let c = roll d6\n"
             "  return a * 100 + b * 10 + c\n}", "f", 0, &r);
    CU_ASSERT_EQUAL_FATAL(r.status, EXACT_DONE);
    CU_ASSERT_EQUAL(r.n, 216);
    CU_ASSERT(p_is(&r, 111, 1, 216) && p_is(&r, 645, 1, 216));
    exact_clear(&r);
    /* a chain: the dice of the second roll depend on the first's count
     * only; P(none) = sum over h of C(4,h)/16 (1/2)^h = (3/4)^4 */
    exact_of("proc f() -> int {\n  let h = count(roll 4d6 >= 4)\n  let w = count(roll h d6 >= 4)\n"
             "  return w\n}", "f", 0, &r);
    CU_ASSERT_EQUAL_FATAL(r.status, EXACT_DONE);
    CU_ASSERT(p_is(&r, 0, 81, 256) && p_is(&r, 4, 1, 256));
    exact_clear(&r);
    /* a reroll below a merged state: the procedure's own odds, given no reroll */
    exact_of("proc f() -> int {\n  let a = roll d6 + roll d6\n  let b = roll d6\n"
             "  if b == 1 { reroll }\n  return a + b\n}", "f", 0, &r);
    CU_ASSERT_EQUAL_FATAL(r.status, EXACT_DONE);
    CU_ASSERT(p_is(&r, 4, 1, 180) && p_is(&r, 18, 1, 180) && p_is(&r, 3, 0, 1));
    exact_clear(&r);
}

/* Are two exact results the same, outcome for outcome and share for share? */
static bool same_result(const ExactResult *a, const ExactResult *b)
{
    if (a->status != b->status || a->n != b->n || !mpq_equal(a->not_given, b->not_given)
        || !mpq_equal(a->dropped, b->dropped))
        return false;
    for (int i = 0; i < a->n; i++)
        if (val_order(a->outcomes[i].value, b->outcomes[i].value) != 0 || !mpq_equal(a->outcomes[i].p, b->outcomes[i].p))
            return false;
    return true;
}

/* Parts of a returned sum that are only added up are kept as distributions
 * and convolved (defer.c): the odds of choosing each where it is made (the
 * same parts held in locals first), in far fewer runs, with the shares not
 * given and cut off in the order the parts were made. */
static void test_exact_deferred_parts(void)
{
    const char *text =
        "proc explode() -> int {\n"
        "  let r = roll d6\n"
        "  if r == 6 { return 6 + explode() }\n"
        "  return r\n"
        "}\n"
        "proc vague() -> int {\n"
        "  let r = roll d6\n"
        "  if r == 1 { reroll }\n"
        "  let unsaid: int = ?\n"
        "  if r == 2 { return unsaid + 1 }\n"
        "  return r\n"
        "}\n"
        "proc three() -> int { return explode() + explode() - explode() }\n"
        "proc three_held() -> int {\n  let a = explode()\n  let b = explode()\n  let c = explode()\n"
        "  return a + b - c\n}\n"
        "proc three_chosen() -> int {\n  let a = explode()\n  let b = explode()\n  let c = explode()\n"
        "  return a + b - c + 0 * (a + b + c)\n}\n"
        "proc cut_vague() -> int { return explode() + vague() + sum(roll 2d6) }\n"
        "proc cut_vague_held() -> int {\n  let a = explode()\n  let b = vague()\n  let c = sum(roll 2d6)\n"
        "  return a + b + c\n}\n"
        "proc cut_vague_chosen() -> int {\n  let a = explode()\n  let b = vague()\n  let c = sum(roll 2d6)\n"
        "  return a + b + c + 0 * a * b * c\n}\n"
        /* b named first in the return: a, made first, is chosen where it is made */
        "proc cut_vague_swapped() -> int {\n  let a = explode()\n  let b = vague()\n  return b + a + sum(roll 2d6)\n}\n"
        /* a return that may leave between: chosen */
        "proc cut_vague_leaves() -> int {\n  let a = explode()\n  let b = vague()\n  if b == 99 { return 0 }\n"
        "  return a + sum(roll 2d6) + b\n}\n"
        "proc vague_roll() -> int { return vague() + roll d6 + explode() }\n"
        "proc vague_roll_held() -> int {\n  let a = vague()\n  let b = roll d6\n  let c = explode()\n"
        "  return a + b + c\n}\n"
        "proc vague_roll_chosen() -> int {\n  let a = vague()\n  let b = roll d6\n  let c = explode()\n"
        "  return a + b + c + 0 * a * c\n}\n"
        "proc pair() -> int { return 10 - explode() + sum(roll 2d6) }\n"
        "proc chosen() -> int {\n  let x = pair()\n  if x > 12 { return x + roll d4 }\n  return x\n}\n"
        "proc chosen_held() -> int {\n  let a = explode()\n  let b = sum(roll 2d6)\n  let x = 10 - a + b\n"
        "  if x > 12 { return x + roll d4 }\n  return x\n}\n"
        "proc nothing() -> int {\n  let r = roll d6\n  if r == 1 { reroll }\n  let u: int = ?\n  return u + r\n}\n"
        "proc after_nothing() -> int {\n  let a = nothing()\n  let b = 10 / (roll d2 - 1)\n  return a + floor(b)\n}\n"
        "proc past_int() -> int { return sum(roll 2d6) + 9223372036854775800 }\n"
        "proc past_int_held() -> int {\n  let s = sum(roll 2d6)\n  return s + 9223372036854775800\n}\n";
    /* each: kept as distributions in the return, in names read once there,
     * and chosen one by one; the same odds, and fewer runs kept */
    static const char *const sets[][3] = { { "three", "three_held", "three_chosen" },
                                           { "cut_vague", "cut_vague_held", "cut_vague_chosen" },
                                           { "vague_roll", "vague_roll_held", "vague_roll_chosen" },
                                           { "chosen", "chosen", "chosen_held" } };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        ExactResult kept, named, chosen;
        exact_of(text, sets[i][0], 0, &kept);
        exact_of(text, sets[i][1], 0, &named);
        exact_of(text, sets[i][2], 0, &chosen);
        CU_ASSERT_EQUAL(kept.status, EXACT_DONE);
        CU_ASSERT(same_result(&kept, &named));
        CU_ASSERT(same_result(&kept, &chosen));
        CU_ASSERT(kept.runs < chosen.runs);
        CU_ASSERT(named.runs < chosen.runs);
        if (i == 1 || i == 2)
            CU_ASSERT(mpq_sgn(kept.not_given) > 0 && mpq_sgn(kept.dropped) > 0);
        exact_clear(&kept);
        exact_clear(&named);
        exact_clear(&chosen);
    }
    /* named parts out of the order made, or a return between: the same odds */
    static const char *const also[] = { "cut_vague_swapped", "cut_vague_leaves" };
    for (size_t i = 0; i < sizeof also / sizeof also[0]; i++) {
        ExactResult kept, other;
        exact_of(text, "cut_vague", 0, &kept);
        exact_of(text, also[i], 0, &other);
        CU_ASSERT(same_result(&kept, &other));
        exact_clear(&kept);
        exact_clear(&other);
    }
    /* a part with no outcome ends the run where it is made: the division
     * by zero after it is never reached */
    {
        ExactResult none;
        exact_of(text, "after_nothing", 0, &none);
        CU_ASSERT_EQUAL(none.status, EXACT_DONE);
        CU_ASSERT_EQUAL(none.n, 0);
        CU_ASSERT(mpq_cmp_ui(none.not_given, 1, 1) == 0);
        exact_clear(&none);
    }
    /* a total past an int: chosen after all, and the machine's error */
    ExactResult r;
    char err[320];
    ExactOptions o = { 0 };
    exact_with(text, "past_int", &o, &r, err, sizeof err);
    CU_ASSERT_EQUAL(r.status, EXACT_FAILED);
    CU_ASSERT(contains(err, "overflow"));
    exact_clear(&r);
    exact_with(text, "past_int_held", &o, &r, err, sizeof err);
    CU_ASSERT_EQUAL(r.status, EXACT_FAILED);
    exact_clear(&r);
    /* four pools summed in one run */
    exact_of("proc f() -> int { return sum(roll 5d6) + sum(roll 5d8) + sum(roll 5d10) + sum(roll 5d12) }", "f",
             0, &r);
    CU_ASSERT_EQUAL(r.status, EXACT_DONE);
    CU_ASSERT_EQUAL(r.n, 161);
    CU_ASSERT(r.runs < 2000);   /* (the work of the sums and convolutions; 9,514 runs chosen one by one) */
    exact_clear(&r);
    /* a budget too small for the convolution's work stops the count */
    exact_of("proc f() -> int { return sum(roll 30d6) + sum(roll 30d8) + sum(roll 30d10) }", "f", 200, &r);
    CU_ASSERT_EQUAL(r.status, EXACT_OVER_BUDGET);
    exact_clear(&r);
}

static unsigned long binom(unsigned long n, unsigned long k)
{
    unsigned long r = 1;
    for (unsigned long i = 1; i <= k; i++)
        r = r * (n - k + i) / i;
    return r;
}

/* Questions about items drawn, beside their sum, are asked face by face as
 * sets of items: the highest of 5 of 52 distinct cards, a count of a filter
 * of them, and a sum and a highest of one hand together, with no hand
 * chosen one by one (C(52, 5) = 2,598,960 of them). */
static void test_exact_draws_face_by_face(void)
{
    const char *text = "bag Cards { 1..52 }\n"
                       "proc high() -> int { return highest(draw 5 from Cards) }\n"
                       "proc tens() -> int { return count(draw 5 from Cards >= 40) }\n"
                       "proc both() -> int {\n  let h = draw 5 from Cards\n  let s = sum(h)\n"
                       "  if highest(h) == 52 { return s }\n  return 0\n}\n";
    ExactResult r;
    exact_of(text, "high", 0, &r);
    CU_ASSERT_EQUAL_FATAL(r.status, EXACT_DONE);
    CU_ASSERT_EQUAL(r.n, 48);
    for (unsigned long m = 5; m <= 52; m++)
        CU_ASSERT(p_is(&r, (int64_t)m, binom(m - 1, 4), binom(52, 5)));
    CU_ASSERT(r.runs < 10000);
    exact_clear(&r);
    exact_of(text, "tens", 0, &r);
    CU_ASSERT_EQUAL_FATAL(r.status, EXACT_DONE);
    for (unsigned long k = 0; k <= 5; k++)
        CU_ASSERT(p_is(&r, (int64_t)k, binom(13, k) * binom(39, 5 - k), binom(52, 5)));
    exact_clear(&r);
    /* with 52 among them the other four are any 4 of 1..51: a sum of 52 + t
     * as often as four distinct cards of 1..51 add up to t; the smallest is
     * 52 + 1 + 2 + 3 + 4 = 62, one hand */
    exact_of(text, "both", 0, &r);
    CU_ASSERT_EQUAL_FATAL(r.status, EXACT_DONE);
    CU_ASSERT(p_is(&r, 62, 1, binom(52, 5)));
    CU_ASSERT(p_is(&r, 63, 1, binom(52, 5)));
    CU_ASSERT(p_is(&r, 64, 2, binom(52, 5)));
    CU_ASSERT(p_is(&r, 0, binom(51, 5), binom(52, 5)));
    exact_clear(&r);
}

/* A walk that comes back to a state it was in, in tail calls: solved as
 * the absorbing chain it is, exactly and with nothing cut off; one that
 * never reaches a result is an error. */
static void test_exact_absorbing_walks(void)
{
    const char *text =
        "proc walk(pos: int) -> bool {\n"
        "  if pos == 0 { return false }\n"
        "  if pos == 4 { return true }\n"
        "  if roll d6 >= 3 { return walk(pos + 1) }\n"
        "  return walk(pos - 1)\n"
        "}\n"
        "proc from_two() -> bool { return walk(2) }\n"
        "proc back(x: int) -> int {\n"
        "  if x == 2 { return 1 }\n"
        "  if roll d2 == 1 { return back(0) }\n"
        "  return back(x + 1)\n"
        "}\n"
        "proc from_zero() -> int { return back(0) }\n"
        "proc forever(x: int) -> int {\n"
        "  if roll d2 == 1 { return forever(1 - x) }\n"
        "  return forever(x)\n"
        "}\n"
        "proc never() -> int { return forever(0) }\n";
    ExactResult r;
    /* up with 2/3: from 2 of 4, (1 - (1/2)^2) / (1 - (1/2)^4) = 4/5 */
    exact_of(text, "from_two", 0, &r);
    CU_ASSERT_EQUAL_FATAL(r.status, EXACT_DONE);
    CU_ASSERT_EQUAL_FATAL(r.n, 2);
    CU_ASSERT(mpq_sgn(r.dropped) == 0);
    mpq_t want;
    mpq_init(want);
    mpq_set_ui(want, 4, 5);
    CU_ASSERT(r.outcomes[1].value.tag == VAL_BOOL && mpq_equal(r.outcomes[1].p, want));
    mpq_clear(want);
    exact_clear(&r);
    exact_of(text, "from_zero", 0, &r);
    CU_ASSERT_EQUAL_FATAL(r.status, EXACT_DONE);
    CU_ASSERT(p_is(&r, 1, 1, 1) && mpq_sgn(r.dropped) == 0);
    exact_clear(&r);
    char err[320];
    ExactOptions o = { 0 };
    exact_with(text, "never", &o, &r, err, sizeof err);
    CU_ASSERT_EQUAL(r.status, EXACT_FAILED);
    CU_ASSERT(contains(err, "'forever' never ends"));
    exact_clear(&r);
}

static void test_exact_fought_to_a_finish(void)
{
    const char *text = "proc shots(hp: int) -> int {\n"
                       "  let r = roll d6\n"
                       "  if r >= 5 {\n"
                       "    if hp == 1 { return 1 }\n"
                       "    return 1 + shots(hp - 1)\n"
                       "  }\n"
                       "  return 1 + shots(hp)\n"
                       "}\n"
                       "proc two() -> int { return shots(2) }\n";
    ExactResult r;
    exact_of(text, "two", 0, &r);
    CU_ASSERT_EQUAL_FATAL(r.status, EXACT_DONE);
    CU_ASSERT(mpq_sgn(r.dropped) > 0 && mpq_get_d(r.dropped) < EXACT_CUT_BELOW);
    CU_ASSERT(r.runs < 100000);
    /* P(n shots) = (n - 1) (1/3)^2 (2/3)^(n-2), exactly for every n short of
     * where the rounds stopped (the far tail is cut, and reported so) */
    int checked = 0;
    for (int i = 0; i < r.n; i++) {
        int64_t n = r.outcomes[i].value.as.i;
        if (n > 40)
            continue;
        mpq_t want;
        mpq_init(want);
        mpz_ui_pow_ui(mpq_numref(want), 2, (unsigned long)(n - 2));
        mpz_mul_ui(mpq_numref(want), mpq_numref(want), (unsigned long)(n - 1));
        mpz_ui_pow_ui(mpq_denref(want), 3, (unsigned long)n);
        mpq_canonicalize(want);
        checked += mpq_equal(want, r.outcomes[i].p) != 0;
        mpq_clear(want);
    }
    CU_ASSERT(r.n > 50);
    CU_ASSERT_EQUAL(checked, 39);
    exact_clear(&r);
}

static const char *claim_text =
    "proc inner() -> bool {\n"
    "  let x = roll d6\n"
    "  if x == 6 { reroll }\n"
    "  return x * roll d6 + roll d6 * roll d6 >= 20\n"
    "}\n"
    "proc outer() -> int {\n"
    "  let a = roll d6\n"
    "  let b = roll d6\n"
    "  if prob(inner()) > 1/2 { return a * b }\n"
    "  return 0\n"
    "}\n";

/* While a claim is counted inside a count, the tick still sees the count:
 * its runs with the claim's (never fewer than before) and its share. */
typedef struct RunsLog {
    int calls, stop_at;
    uint64_t last_runs;
    double last_done;
    bool steady;
} RunsLog;

static bool runs_tick(void *ud, const ExactProgress *p)
{
    RunsLog *t = ud;
    t->calls++;
    t->steady = t->steady && p->runs >= t->last_runs && p->done >= t->last_done && p->done <= 1.0 + 1e-12;
    t->last_runs = p->runs;
    t->last_done = p->done;
    return t->calls != t->stop_at;
}

static void test_exact_tick_in_claims(void)
{
    /* the claim is asked on the last path only, when the count has made
     * 36 runs and covered 35/36 */
    const char *text =
        "proc late() -> int {\n"
        "  let a = roll d6\n"
        "  let b = roll d6\n"
        "  if a + b == 12 and prob(roll d6 * 1000 + roll d6 * 100 + roll d6 * 10 + roll d6 >= 3500) > 1/2 { return 1 }\n"
        "  return 0\n"
        "}\n";
    RunsLog t = { .stop_at = -1, .steady = true };
    ExactOptions o = { .tick = runs_tick, .tick_ud = &t, .tick_every = 5 };
    ExactResult r;
    exact_with(text, "late", &o, &r, NULL, 0);
    CU_ASSERT_EQUAL(r.status, EXACT_DONE);
    CU_ASSERT_EQUAL(r.runs, 36 + 1296);
    CU_ASSERT(t.steady);
    CU_ASSERT(t.calls > 1296 / 5);       /* the claim's runs ticked too */
    CU_ASSERT(t.last_runs > 36 && t.last_runs <= r.runs);
    CU_ASSERT_DOUBLE_EQUAL(t.last_done, 35.0 / 36, 1e-9);
    exact_clear(&r);
    /* stopped while the claim is counted: the count stops */
    RunsLog s = { .stop_at = 20, .steady = true };
    o.tick_ud = &s;
    exact_with(text, "late", &o, &r, NULL, 0);
    CU_ASSERT_EQUAL(r.status, EXACT_STOPPED);
    CU_ASSERT_EQUAL(s.calls, 20);
    CU_ASSERT(s.last_runs > 36);
    exact_clear(&r);
}

/* A claim asked on every path: worked out once, its runs counted with the
 * count's and held to its budget. */
static void test_exact_claims_counted_once(void)
{
    const char *text = claim_text;
    ExactResult claim, r;
    exact_of(text, "inner", 0, &claim);
    CU_ASSERT_EQUAL(claim.status, EXACT_DONE);
    exact_of(text, "outer", 0, &r);
    CU_ASSERT_EQUAL(r.status, EXACT_DONE);
    /* 36 paths, and the claim's runs (its own, and inner's once) */
    CU_ASSERT_EQUAL(r.runs, 36 + claim.runs + 2);
    /* the claim is the same on every path: all 0, or a * b */
    CU_ASSERT(p_is(&r, 0, 1, 1) || p_is(&r, 36, 1, 36));
    exact_clear(&r);
    exact_of(text, "outer", 36 + claim.runs, &r);
    CU_ASSERT_EQUAL(r.status, EXACT_OVER_BUDGET);
    exact_clear(&r);
    exact_clear(&claim);
}

/* A claim that uses the names around it is worked out once per distinct
 * values of them, and remembered. */
static void test_exact_claims_per_argument(void)
{
    const char *text =
        "proc inner(k: int) -> bool { return roll d6 >= k }\n"
        "proc outer() -> int {\n"
        "  let a = roll d3\n"
        "  let c = prob(inner(a) and roll d2 == 1)\n"
        "  if c > 3/8 { return 1 }\n"
        "  return 0\n"
        "}\n"
        "proc twice() -> int {\n"
        "  let a = roll d3\n"
        "  let b = roll d3\n"
        "  if prob(inner(a) and roll d2 == 1) > prob(inner(b) and roll d2 == 1) { return 1 }\n"
        "  return 0\n"
        "}\n";
    ExactResult r;
    exact_of(text, "outer", 0, &r);
    CU_ASSERT_EQUAL(r.status, EXACT_DONE);
    /* 1/2, 5/12 and 1/3 for a = 1, 2, 3 */
    CU_ASSERT(p_is(&r, 1, 2, 3));
    CU_ASSERT(p_is(&r, 0, 1, 3));
    /* 3 paths, and each value's claim once: 12 + 11 + 10 runs */
    CU_ASSERT_EQUAL(r.runs, 3 + 33);
    exact_clear(&r);
    /* the two claims of twice are two claims, each once per value of its
     * argument: 9 paths, 2 x 33 runs */
    exact_of(text, "twice", 0, &r);
    CU_ASSERT_EQUAL(r.status, EXACT_DONE);
    CU_ASSERT(p_is(&r, 1, 1, 3));
    CU_ASSERT_EQUAL(r.runs, 9 + 66);
    exact_clear(&r);
}

/* A '?' a rerolling procedure returns is its result, passed on: the runs
 * that do not need it have their values. */
static void test_exact_unknowns_passed_on(void)
{
    const char *text =
        "proc r() -> int { let x = roll d6\n if x == 1 { reroll }\n if x == 6 { return ? }\n return x }\n"
        "proc keep() -> int { let y = r()\n return roll d2 }\n"
        "proc need() -> int { return r() + 0 }\n";
    ExactResult r;
    exact_of(text, "keep", 0, &r);
    CU_ASSERT_EQUAL(r.status, EXACT_DONE);
    CU_ASSERT(p_is(&r, 1, 1, 2));
    CU_ASSERT(p_is(&r, 2, 1, 2));
    CU_ASSERT(mpq_sgn(r.not_given) == 0);
    exact_clear(&r);
    exact_of(text, "need", 0, &r);
    CU_ASSERT_EQUAL(r.status, EXACT_DONE);
    CU_ASSERT(p_is(&r, 3, 1, 5));
    mpq_t fifth;
    mpq_init(fifth);
    mpq_set_ui(fifth, 1, 5);
    CU_ASSERT(mpq_equal(r.not_given, fifth));
    mpq_clear(fifth);
    exact_clear(&r);
}

/* A count that needs more runs than its budget ends with the status that
 * says so, from exact_distribution and in the result; so does a count whose
 * claim would need more than the budget has left, estimate or not. */
static void test_exact_over_budget_status(void)
{
    static const ExactFallback fallback = { .trials = 7, .seed = 1 };
    const char *text = "proc f() -> pool { return roll 30d6 }\n"
                       "proc g() -> bool { return prob(roll d6 * 100000000 + roll d6 * 10000000\n"
                       "    + roll d6 * 1000000 + roll d6 * 100000 + roll d6 * 10000 + roll d6 * 1000\n"
                       "    + roll d6 * 100 + roll d6 * 10 + roll d6 >= 444444444) > 1/2 }\n";
    Compiled *c = compile_text(text, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    Vm vm;
    vm_init(&vm, c->prog, NULL);
    vm.limits.claim_fallback = &fallback;
    ExactOptions o = { .budget = 1000 };
    ExactResult r;
    CU_ASSERT_EQUAL(exact_distribution(&vm, compiler_find_proc(c, "f")->proto, NULL, 0, NULL, NULL, &o, &r),
                    EXACT_OVER_BUDGET);
    CU_ASSERT_EQUAL(r.status, EXACT_OVER_BUDGET);
    exact_clear(&r);
    o.budget = 0;
    CU_ASSERT_EQUAL(exact_distribution(&vm, compiler_find_proc(c, "g")->proto, NULL, 0, NULL, NULL, &o, &r),
                    EXACT_OVER_BUDGET);
    CU_ASSERT_EQUAL(r.status, EXACT_OVER_BUDGET);
    exact_clear(&r);
}

/* The value of claim() in text, a rat, run outside any count on a machine
 * given `fallback` (NULL: none); false with the error in err when it fails. */
static bool claim_with(const ExactFallback *fallback, Value *out, char *err, size_t errlen)
{
    /* nine dice read as the digits of one number: 10,077,696 paths, none
     * meeting another in a state (see merge.h), past the claim's budget */
    const char *text = "proc claim() -> rat { return prob(roll d6 * 100000000 + roll d6 * 10000000\n"
                       "    + roll d6 * 1000000 + roll d6 * 100000 + roll d6 * 10000 + roll d6 * 1000\n"
                       "    + roll d6 * 100 + roll d6 * 10 + roll d6 >= 444444444) }\n";
    Compiled *c = compile_text(text, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    Vm vm;
    vm_init(&vm, c->prog, NULL);
    vm.limits.claim_fallback = fallback;
    bool ok = vm_call(&vm, compiler_find_proc(c, "claim")->proto, NULL, 0, out) == 0;
    snprintf(err, errlen, "%s", ok ? "" : vm.error);
    return ok;
}

/* Exact odds past 64-bit numbers: the closest fraction that fits, with or
 * without an estimate asked for (the total of 60 dice, worked out face by face). */
static void test_exact_claim_past_64_bits(void)
{
    const char *text = "proc claim() -> rat { return prob(sum(roll 60d6) >= 210) }\n";
    Compiled *c = compile_text(text, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    Vm vm;
    vm_init(&vm, c->prog, NULL);
    Value v;
    CU_ASSERT_FATAL(vm_call(&vm, compiler_find_proc(c, "claim")->proto, NULL, 0, &v) == 0);
    CU_ASSERT_EQUAL(v.tag, VAL_RAT);
    /* Python: Fraction(exact).limit_denominator(2**63 - 1) */
    CU_ASSERT_EQUAL(v.as.q.num, 3286610734560471597LL);
    CU_ASSERT_EQUAL(v.as.q.den, 6381288714033052025LL);
}

/* A claim past the exact budget is estimated with the trials and the seed
 * its machine's owner gives, and with none it is an error. */
static void test_exact_claim_fallback(void)
{
    char err[320];
    Value a, b, c;
    /* seven trials: the estimate is a share of seven */
    static const ExactFallback seven = { .trials = 7, .seed = 1 }, seven_again = { .trials = 7, .seed = 1 };
    CU_ASSERT_FATAL(claim_with(&seven, &a, err, sizeof err));
    CU_ASSERT_EQUAL_FATAL(a.tag, VAL_RAT);
    CU_ASSERT_EQUAL(a.as.q.den, 7);
    /* the same seed, the same estimate */
    CU_ASSERT_FATAL(claim_with(&seven_again, &b, err, sizeof err));
    CU_ASSERT(val_order(a, b) == 0);
    /* another number of trials: a share of those */
    static const ExactFallback thirteen = { .trials = 13, .seed = 1 };
    CU_ASSERT_FATAL(claim_with(&thirteen, &c, err, sizeof err));
    CU_ASSERT_EQUAL_FATAL(c.tag, VAL_RAT);
    CU_ASSERT_EQUAL(c.as.q.den, 13);
    /* the seed is the policy's: some seed gives another share of seven */
    bool differs = false;
    for (uint64_t seed = 2; seed < 40 && !differs; seed++) {
        ExactFallback other = { .trials = 7, .seed = seed };
        CU_ASSERT_FATAL(claim_with(&other, &b, err, sizeof err));
        differs = val_order(a, b) != 0;
    }
    CU_ASSERT(differs);
    /* no estimate given: the claim is an error at the prob() */
    CU_ASSERT_FALSE(claim_with(NULL, &a, err, sizeof err));
    CU_ASSERT(contains(err, "prob(): the exact odds need more than 2000000 runs, and no estimate was asked for"));
}


/* ---- questions about a pool, face by face (facewise.c), against brute force ---- */

static uint64_t fw_seed = 88172645463325252ULL;
static int fw_rand(int n)
{
    fw_seed ^= fw_seed << 13;
    fw_seed ^= fw_seed >> 7;
    fw_seed ^= fw_seed << 17;
    return (int)(fw_seed % (uint64_t)n);
}

/* q's answer of the dice on slots[0..n) of a roll whose slot f shows
 * value[f-1] (nondecreasing; NULL: f), written plainly: the dice of pre in
 * the order of their slots (so of their values), the kept ones cut out (of
 * equal values, those on higher slots count as higher), those in post, then
 * the question about their values (FW_FACES: how many on each slot). */
static int plain_answer(const FwQuestion *q, int32_t sides, const int32_t *value, const int32_t *slots, int n,
                        int64_t *out)
{
    int32_t d[16];
    int m = 0;
    for (int i = 0; i < n; i++)
        if (q->pre >> (slots[i] - 1) & 1)
            d[m++] = slots[i];
    for (int i = 1; i < m; i++)
        for (int k = i; k > 0 && d[k - 1] > d[k]; k--) {
            int32_t t = d[k];
            d[k] = d[k - 1];
            d[k - 1] = t;
        }
    int from = 0, to = m;
    if (q->keep > 0 && q->keep_n < m)
        from = m - (int)q->keep_n;
    if (q->keep < 0 && q->keep_n < m)
        to = (int)q->keep_n;
    int32_t kept[16];
    int k = 0;
    for (int i = from; i < to; i++)
        if (!q->keep || (q->post >> (d[i] - 1) & 1))
            kept[k++] = d[i];
    int64_t v = 0, x[16];
    for (int i = 0; i < k; i++)
        x[i] = value ? value[kept[i] - 1] : kept[i];
    switch (q->kind) {
    case FW_SUM: for (int i = 0; i < k; i++) v += x[i]; break;
    case FW_COUNT: v = k; break;
    case FW_ANY: v = k > 0; break;
    case FW_MAX: v = k ? x[k - 1] : FW_NONE; break;
    case FW_MIN: v = k ? x[0] : FW_NONE; break;
    case FW_DOUBLES: for (int i = 1; i < k; i++) v |= x[i] == x[i - 1]; break;
    case FW_FACES: {
        int w = 0;
        for (int32_t f = 1; f <= sides; f++)
            if (q->pre >> (f - 1) & 1) {
                int64_t c = 0;
                for (int i = 0; i < k; i++)
                    c += kept[i] == f;
                out[w++] = c;
            }
        return w;
    }
    }
    *out = v;
    return 1;
}

static uint64_t random_set(int32_t sides)
{
    uint64_t s = 0;
    for (int32_t f = 1; f <= sides; f++)
        if (fw_rand(3))
            s |= (uint64_t)1 << (f - 1);
    return s;
}

/* A random partition of slots 1..sides into classes, ndice shared out. */
static int random_classes(int32_t sides, int ndice, FwClass *cls)
{
    int ncls = 0;
    memset(cls, 0, sizeof(FwClass) * FW_MAX_SIDES);
    for (int32_t f = 1; f <= sides; f++) {
        int c = ncls && fw_rand(2) ? fw_rand(ncls) : ncls++;
        cls[c].faces |= (uint64_t)1 << (f - 1);
    }
    for (int i = 0; i < ndice; i++)
        cls[fw_rand(ncls)].count++;
    return ncls;
}

static void random_questions(int32_t sides, int nq, FwQuestion *q)
{
    for (int i = 0; i < nq; i++) {
        q[i] = (FwQuestion){ .kind = fw_rand(7), .pre = random_set(sides) };
        q[i].keep = fw_rand(3) - 1;
        q[i].keep_n = fw_rand(4);
        q[i].post = q[i].keep ? random_set(sides) : (((uint64_t)1 << sides) - 1);
        if (!q[i].keep)
            q[i].keep_n = 0;
    }
}

/* Does j, the joint distribution of q[0..nq) about the dice of the classes
 * on slots showing value[] (NULL: their numbers), give every combination of
 * answers the share of the ordered sequences of slots (each die from its
 * class) that give it?  Says how not, when not. */
static bool joint_matches_brute_force(const FwJoint *j, int32_t sides, const int32_t *value, const FwClass *cls,
                                      int ncls, const FwQuestion *q, int nq, const char *what)
{
    int32_t slots[16], die_cls[16];
    int n = 0;
    for (int c = 0; c < ncls; c++)
        for (int64_t k = 0; k < cls[c].count; k++)
            die_cls[n++] = c;
    int64_t total = 0, seq[16] = { 0 };
    /* the answers of each sequence, tallied */
    int64_t (*ans)[64] = calloc(50000, sizeof *ans);
    int64_t *tally = calloc(50000, sizeof(int64_t));
    int nans = 0, width = 0;
    for (;;) {
        for (int i = 0; i < n; i++) {
            uint64_t fs = cls[die_cls[i]].faces;
            for (int64_t s2 = seq[i]; s2 > 0; s2--)
                fs &= fs - 1;
            slots[i] = __builtin_ctzll(fs) + 1;
        }
        int64_t a[64];
        width = 0;
        for (int i = 0; i < nq; i++)
            width += plain_answer(&q[i], sides, value, slots, n, a + width);
        int k;
        for (k = 0; k < nans && memcmp(ans[k], a, sizeof(int64_t) * (size_t)width); k++)
            ;
        if (k == nans)
            memcpy(ans[nans++], a, sizeof(int64_t) * (size_t)width);
        tally[k]++;
        total++;
        int i = 0;
        while (i < n && ++seq[i] == __builtin_popcountll(cls[die_cls[i]].faces))
            seq[i++] = 0;
        if (i == n)
            break;
    }
    mpz_t jt;
    mpz_init(jt);
    for (int64_t e = 0; e < j->n; e++)
        mpz_add(jt, jt, j->e[e].w);
    bool same = j->width == width && j->n == nans;
    for (int k = 0; k < nans && same; k++) {
        int64_t lo, hi;
        fw_range(j, ans[k], width, &lo, &hi);
        if (hi != lo + 1) {
            same = false;
            break;
        }
        /* w / jt == tally / total */
        mpz_t l, r;
        mpz_inits(l, r, NULL);
        mpz_mul_ui(l, j->e[lo].w, (unsigned long)total);
        mpz_mul_ui(r, jt, (unsigned long)tally[k]);
        same = mpz_cmp(l, r) == 0;
        mpz_clears(l, r, NULL);
    }
    if (!same) {
        printf("\nfacewise differs (%s): sides %d dice %d questions %d\n", what, sides, n, nq);
        if (value) {
            printf("  values");
            for (int32_t f = 0; f < sides; f++)
                printf(" %d", value[f]);
            printf("\n");
        }
        for (int c = 0; c < ncls; c++)
            printf("  class %llx x%lld\n", (unsigned long long)cls[c].faces, (long long)cls[c].count);
        for (int i = 0; i < nq; i++)
            printf("  q kind %d keep %d n %lld pre %llx post %llx\n", q[i].kind, q[i].keep, (long long)q[i].keep_n,
                   (unsigned long long)q[i].pre, (unsigned long long)q[i].post);
        if (getenv("FW_DEBUG")) {
            for (int64_t e = 0; e < j->n; e++) {
                printf("   fw:");
                for (int i = 0; i < j->width; i++) printf(" %lld", (long long)j->e[e].vals[i]);
                gmp_printf(" : %Zd / %Zd\n", j->e[e].w, jt);
            }
            for (int k = 0; k < nans; k++) {
                printf("   bf:");
                for (int i = 0; i < width; i++) printf(" %lld", (long long)ans[k][i]);
                printf(" : %lld / %lld\n", (long long)tally[k], (long long)total);
            }
        }
    }
    mpz_clear(jt);
    free(ans);
    free(tally);
    return same;
}

static void test_facewise_brute_force(void)
{
    int checked = 0;
    for (int round = 0; round < 400; round++) {
        int32_t sides = 2 + fw_rand(5);
        FwClass cls[FW_MAX_SIDES];
        int ncls = random_classes(sides, fw_rand(6), cls);
        int nq = 1 + fw_rand(3);
        FwQuestion q[3];
        random_questions(sides, nq, q);
        FwLimits lim = { .max_work = 100000000 };
        FwJoint *j;
        CU_ASSERT_EQUAL_FATAL(fw_joint(sides, NULL, cls, ncls, q, nq, &lim, &j), FW_OK);
        bool same = joint_matches_brute_force(j, sides, NULL, cls, ncls, q, nq, "faces");
        CU_ASSERT(same);
        checked += same;
        fw_joint_free(j);
    }
    CU_ASSERT_EQUAL(checked, 400);
}

/* A random value map for slots 1..sides: nondecreasing, from below 0 up,
 * with repeats; now and then spread wide (past what a lone sum takes as
 * polynomials), now and then all one value. */
static void random_values(int32_t sides, int32_t *value)
{
    int32_t v = fw_rand(7) - 4, spread = fw_rand(8) == 0 ? 1500 : 1;
    bool flat = fw_rand(12) == 0;
    for (int32_t f = 0; f < sides; f++) {
        value[f] = v * spread;
        if (!flat)
            v += fw_rand(3) == 0 ? 0 : 1 + fw_rand(2);
    }
}

/* Slots showing values of their own: equal values on several slots (doubles
 * of two slots, ties kept highest or lowest), values of 0 and below, sums
 * as polynomials and not; every question against brute force. */
static void test_facewise_value_maps(void)
{
    int checked = 0, repeats = 0, negative = 0, wide = 0;
    for (int round = 0; round < 600; round++) {
        int32_t sides = 2 + fw_rand(6), value[FW_MAX_SIDES];
        random_values(sides, value);
        for (int32_t f = 1; f < sides; f++)
            repeats += value[f] == value[f - 1];
        negative += value[0] < 0;
        wide += value[sides - 1] - value[0] > 4096;
        FwClass cls[FW_MAX_SIDES];
        int ncls = random_classes(sides, fw_rand(6), cls);
        int nq = 1 + fw_rand(3);
        FwQuestion q[3];
        random_questions(sides, nq, q);
        if (fw_rand(4) == 0) {
            /* a lone sum (polynomials, unless spread wide) */
            nq = 1;
            q[0] = (FwQuestion){ .kind = FW_SUM, .pre = random_set(sides), .post = ((uint64_t)1 << sides) - 1 };
        }
        FwLimits lim = { .max_work = 100000000 };
        FwJoint *j;
        CU_ASSERT_EQUAL_FATAL(fw_joint(sides, value, cls, ncls, q, nq, &lim, &j), FW_OK);
        bool same = joint_matches_brute_force(j, sides, value, cls, ncls, q, nq, "values");
        CU_ASSERT(same);
        checked += same;
        fw_joint_free(j);
    }
    CU_ASSERT_EQUAL(checked, 600);
    /* the cases the test is there for came up */
    CU_ASSERT(repeats > 100);
    CU_ASSERT(negative > 100);
    CU_ASSERT(wide > 20);
}

/* The weights of two joints of one question, entry by entry. */
static bool same_joint(const FwJoint *a, const FwJoint *b)
{
    if (a->n != b->n || a->width != b->width)
        return false;
    for (int64_t e = 0; e < a->n; e++)
        if (memcmp(a->e[e].vals, b->e[e].vals, sizeof(int64_t) * (size_t)a->width) || mpz_cmp(a->e[e].w, b->e[e].w))
            return false;
    return true;
}

/* A lone sum, as polynomial powers, against the same sum worked out face by
 * face (the highest of all the dice kept: the general path), for many dice
 * with value maps; and two known answers. */
static void test_facewise_value_sums(void)
{
    int agree = 0;
    for (int round = 0; round < 60; round++) {
        int32_t sides = 2 + fw_rand(8), value[FW_MAX_SIDES];
        random_values(sides, value);
        FwClass cls[FW_MAX_SIDES];
        int ncls = random_classes(sides, 5 + fw_rand(20), cls);
        int64_t n = 0;
        for (int c = 0; c < ncls; c++)
            n += cls[c].count;
        uint64_t all = ((uint64_t)1 << sides) - 1, pre = fw_rand(2) ? all : random_set(sides);
        FwQuestion alone = { .kind = FW_SUM, .pre = pre, .post = all };
        FwQuestion kept = { .kind = FW_SUM, .keep = 1, .keep_n = n, .pre = pre, .post = all };
        FwLimits lim = { .max_work = 1000000000 };
        FwJoint *a, *b;
        CU_ASSERT_EQUAL_FATAL(fw_joint(sides, value, cls, ncls, &alone, 1, &lim, &a), FW_OK);
        CU_ASSERT_EQUAL_FATAL(fw_joint(sides, value, cls, ncls, &kept, 1, &lim, &b), FW_OK);
        bool same = same_joint(a, b);
        if (!same)
            printf("\nlone sum differs: round %d sides %d dice %lld\n", round, sides, (long long)n);
        agree += same;
        fw_joint_free(a);
        fw_joint_free(b);
    }
    CU_ASSERT_EQUAL(agree, 60);

    /* 2d(0, 0, 1): the sum is 0, 1 or 2 with weights 4, 4, 1 */
    static const int32_t zeros[] = { 0, 0, 1 };
    FwClass two[1] = { { 0x7, 2 } };
    FwQuestion sum = { .kind = FW_SUM, .pre = 0x7, .post = 0x7 };
    FwLimits lim = { .max_work = 1000000 };
    FwJoint *j;
    CU_ASSERT_EQUAL_FATAL(fw_joint(3, zeros, two, 1, &sum, 1, &lim, &j), FW_OK);
    CU_ASSERT(j->n == 3 && j->e[0].vals[0] == 0 && mpz_cmp_ui(j->e[0].w, 4) == 0 && mpz_cmp_ui(j->e[1].w, 4) == 0
              && mpz_cmp_ui(j->e[2].w, 1) == 0 && j->e[2].vals[0] == 2);
    fw_joint_free(j);
    /* doubles of 2d(1, 2, 2, 3): the same value on one slot or two, 6 of 16 */
    static const int32_t mid[] = { 1, 2, 2, 3 };
    FwClass pair[1] = { { 0xf, 2 } };
    FwQuestion dbl = { .kind = FW_DOUBLES, .pre = 0xf, .post = 0xf };
    CU_ASSERT_EQUAL_FATAL(fw_joint(4, mid, pair, 1, &dbl, 1, &lim, &j), FW_OK);
    CU_ASSERT(j->n == 2 && j->e[1].vals[0] == 1 && mpz_cmp_ui(j->e[1].w, 6) == 0 && mpz_cmp_ui(j->e[0].w, 10) == 0);
    fw_joint_free(j);
}

/* A lone sum of many dice: the polynomial power against a plain convolution. */
static void test_facewise_big_sums(void)
{
    FwClass cls[2] = { { 0x3f, 60 } };
    FwQuestion q = { .kind = FW_SUM, .pre = 0x3f, .post = 0x3f };
    FwLimits lim = { .max_work = 100000000 };
    FwJoint *j;
    CU_ASSERT_EQUAL_FATAL(fw_joint(6, NULL, cls, 1, &q, 1, &lim, &j), FW_OK);
    CU_ASSERT_EQUAL(j->n, 301);
    /* the convolution, die by die */
    mpz_t *c = calloc(361, sizeof(mpz_t));
    for (int i = 0; i <= 360; i++)
        mpz_init(c[i]);
    mpz_set_ui(c[0], 1);
    for (int d = 0; d < 60; d++)
        for (int v = 360; v >= 0; v--) {
            mpz_set_ui(c[v], 0);
            for (int f = 1; f <= 6 && f <= v; f++)
                mpz_add(c[v], c[v], c[v - f]);
        }
    bool same = true;
    for (int64_t e = 0; e < j->n; e++)
        same &= mpz_cmp(j->e[e].w, c[j->e[e].vals[0]]) == 0;
    CU_ASSERT(same);
    CU_ASSERT_EQUAL(j->e[0].vals[0], 60);
    CU_ASSERT_EQUAL(j->e[300].vals[0], 360);
    for (int i = 0; i <= 360; i++)
        mpz_clear(c[i]);
    free(c);
    fw_joint_free(j);
    /* the highest 3 of 500d6 settles early: little work */
    FwClass big[1] = { { 0x3f, 500 } };
    FwQuestion h = { .kind = FW_SUM, .keep = 1, .keep_n = 3, .pre = 0x3f, .post = 0x3f };
    lim.work = 0;
    CU_ASSERT_EQUAL_FATAL(fw_joint(6, NULL, big, 1, &h, 1, &lim, &j), FW_OK);
    CU_ASSERT(lim.work < 20000);
    CU_ASSERT_EQUAL(j->n, 16);           /* 3 to 18 */
    CU_ASSERT_EQUAL(j->e[15].vals[0], 18);
    fw_joint_free(j);
}

/* ---- lazy pools: the same odds as settling every pool whole ---- */

/* Do two results give the same probability to every outcome, and the same
 * not-given and cut-off shares? */
static bool same_distribution(const ExactResult *a, const ExactResult *b)
{
    if (a->status != EXACT_DONE || b->status != EXACT_DONE || a->n != b->n)
        return false;
    for (int i = 0; i < a->n; i++)
        if (val_order(a->outcomes[i].value, b->outcomes[i].value) != 0 || !mpq_equal(a->outcomes[i].p, b->outcomes[i].p))
            return false;
    return mpq_equal(a->not_given, b->not_given) && mpq_equal(a->dropped, b->dropped);
}

static const char *lazy_cases =
    "record R { d: pool, n: int }\n"
    /* two filters of one roll, a filter of a filter, any and all */
    "proc filters() -> int {\n"
    "  let p = roll 5d6\n"
    "  let h = p >= 4\n"
    "  let s = h == 6\n"
    "  let r = 0\n"
    "  if any(p == 1) { r = 1 }\n"
    "  if all(h >= 5) { r = r + 2 }\n"
    "  return count(h) * 100 + count(s) * 10 + r\n"
    "}\n"
    /* overlapping filters, then a sum of one of them */
    "proc overlap() -> int {\n"
    "  let p = roll 5d6\n"
    "  let a = p >= 3\n"
    "  let b = p <= 4\n"
    "  return count(a) * 1000 + count(b) * 100 + sum(b)\n"
    "}\n"
    "proc tens() -> int {\n"
    "  let p = roll 4d10\n"
    "  let lo = p <= 3\n"
    "  let r = count(lo)\n"
    "  if all(p != 10) { r = r + 10 }\n"
    "  if any(lo == 1) { r = r + 100 }\n"
    "  if any(p > 11/2) { r = r + 1000 }\n"
    "  return r\n"
    "}\n"
    "proc extremes() -> int {\n"
    "  let p = roll 4d10\n"
    "  let q = p > 3\n"
    "  if count(q) == 0 { return lowest(p) }\n"
    "  return highest(q) * 100 + lowest(p) * 10000 + count(p != 7)\n"
    "}\n"
    "proc best() -> int {\n"
    "  let p = roll 4d10\n"
    "  let x = count(p >= 8)\n"
    "  return sum(highest(2, p)) * 10 + sum(lowest(2, p >= 2)) * 1000 + x\n"
    "}\n"
    "proc pairs() -> int {\n"
    "  let p = roll 5d6\n"
    "  let r = 0\n"
    "  if doubles(p >= 3) { r = 1 }\n"
    "  if any(p > 4) { r = r + 2 }\n"
    "  return r + 10 * count(p == 3) + 100 * highest(p)\n"
    "}\n"
    "proc kept() -> pool {\n"
    "  let p = roll 4d6\n"
    "  let q = p >= 3\n"
    "  if any(q == 6) { return q }\n"
    "  return p\n"
    "}\n"
    "proc boxed() -> R {\n"
    "  let p = roll 4d6\n"
    "  return R(d: p >= 5, n: count(p == 2))\n"
    "}\n"
    "proc same() -> bool {\n"
    "  let a = R(d: roll 2d6 >= 4, n: 1)\n"
    "  let b = R(d: roll 2d6 >= 4, n: 1)\n"
    "  return a == b\n"
    "}\n"
    "proc against() -> int {\n"
    "  let t = roll d6\n"
    "  return count(roll 4d6 >= t) + 10 * t\n"
    "}\n"
    "proc big() -> int {\n"
    "  let p = roll 2d100\n"
    "  return count(p >= 50) + 10 * count(p == 100)\n"
    "}\n"
    /* a rerolling callee: worked out on its own, with a pool argument */
    "proc at_least(p: pool) -> int {\n"
    "  let q = roll 2d6\n"
    "  if all(q <= 2) { reroll }\n"
    "  return count(p >= highest(q))\n"
    "}\n"
    "proc nested() -> int {\n"
    "  let p = roll 3d6\n"
    "  if any(p == 1) { return at_least(p >= 2) }\n"
    "  return 10 + count(p >= 5)\n"
    "}\n"
    "proc conditioned() -> int {\n"
    "  let p = roll 3d6\n"
    "  if all(p <= 2) { reroll }\n"
    "  return count(p == 6) * 10 + count(p >= 4)\n"
    "}\n"
    /* open-ended: every six rolls again, cut at the depth limit */
    "proc burst(n: int) -> int {\n"
    "  let p = roll n d6\n"
    "  let s = count(p == 6)\n"
    "  if s > 0 { return count(p >= 4) + burst(s) }\n"
    "  return count(p >= 4)\n"
    "}\n"
    "proc open() -> int { return burst(3) }\n"
    "table t(n: int) -> int {\n 0: 1\n 1: ?\n 2: 5\n 3: ?\n}\n"
    "proc gaps() -> int { return t(count(roll 3d6 == 6)) + count(roll 2d6 >= 3) }\n";

static void test_lazy_matches_whole(void)
{
    static const char *const procs[] = { "filters", "overlap", "tens", "extremes", "best", "pairs", "kept",
                                         "boxed", "same", "against", "big", "nested", "conditioned", "open",
                                         "gaps" };
    for (size_t i = 0; i < sizeof procs / sizeof procs[0]; i++) {
        ExactOptions lazy = { .max_decisions = 12 }, whole = { .max_decisions = 12, .whole_pools = true };
        ExactResult a, b;
        char ea[320], eb[320];
        exact_with(lazy_cases, procs[i], &lazy, &a, ea, sizeof ea);
        exact_with(lazy_cases, procs[i], &whole, &b, eb, sizeof eb);
        bool same = same_distribution(&a, &b);
        if (!same)
            fprintf(stderr, "\n%s: lazy (%d outcomes, %s) and whole (%d outcomes, %s) differ\n", procs[i], a.n,
                    a.status == EXACT_FAILED ? ea : "ok", b.n, b.status == EXACT_FAILED ? eb : "ok");
        CU_ASSERT(same);
        /* lazy never takes more runs */
        CU_ASSERT(a.runs <= b.runs);
        exact_clear(&a);
        exact_clear(&b);
    }
    /* the shares the cases are there for */
    ExactResult r;
    ExactOptions o = { .max_decisions = 12 };
    exact_with(lazy_cases, "open", &o, &r, NULL, 0);
    CU_ASSERT(mpq_sgn(r.dropped) > 0);
    exact_clear(&r);
    exact_with(lazy_cases, "gaps", &o, &r, NULL, 0);
    CU_ASSERT(mpq_sgn(r.not_given) > 0);
    exact_clear(&r);
}

/* Every comparison, with thresholds inside, at the ends of and outside the
 * faces, whole and rational, on d6 and on the largest lazy die (d64). */
static void test_lazy_comparisons(void)
{
    static const char *const ops[] = { "==", "!=", "<", "<=", ">", ">=" };
    static const struct { const char *pool, *x; } cases[] = {
        { "3d6", "0" }, { "3d6", "1" }, { "3d6", "3" }, { "3d6", "6" }, { "3d6", "7" }, { "3d6", "-2" },
        { "3d6", "100" }, { "3d6", "7/2" }, { "3d6", "-1/2" }, { "2d64", "0" }, { "2d64", "1" },
        { "2d64", "63" }, { "2d64", "64" }, { "2d64", "65" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int op = 0; op < 6; op++) {
            char text[400];
            snprintf(text, sizeof text,
                     "proc f() -> int {\n"
                     "  let p = roll %s\n"
                     "  let r = count(p %s %s) * 10\n"
                     "  if any(p %s %s) { r = r + 1 }\n"
                     "  if all(p %s %s) { r = r + 2 }\n"
                     "  return r\n"
                     "}\n",
                     cases[i].pool, ops[op], cases[i].x, ops[op], cases[i].x, ops[op], cases[i].x);
            ExactOptions lazy = { 0 }, whole = { .whole_pools = true };
            ExactResult a, b;
            exact_with(text, "f", &lazy, &a, NULL, 0);
            exact_with(text, "f", &whole, &b, NULL, 0);
            bool same = same_distribution(&a, &b);
            if (!same)
                fprintf(stderr, "\n%s %s %s: lazy and whole differ\n", cases[i].pool, ops[op], cases[i].x);
            CU_ASSERT(same);
            exact_clear(&a);
            exact_clear(&b);
        }
}

static void test_lazy_errors(void)
{
    /* an empty pool's highest is an error, lazy or not */
    static const char *text = "proc f() -> int { return highest(roll 2d6 > 7) }\n"
                              "proc g() -> int { return lowest(roll 2d6 < 1) }\n";
    ExactOptions o = { 0 };
    ExactResult r;
    char err[320];
    exact_with(text, "f", &o, &r, err, sizeof err);
    CU_ASSERT_EQUAL(r.status, EXACT_FAILED);
    CU_ASSERT(contains(err, "highest() of an empty pool"));
    exact_clear(&r);
    exact_with(text, "g", &o, &r, err, sizeof err);
    CU_ASSERT_EQUAL(r.status, EXACT_FAILED);
    CU_ASSERT(contains(err, "lowest() of an empty pool"));
    exact_clear(&r);
    /* comparing records asks for the faces of their pools (pool_plain):
     * past the budget that is over budget, not a failure */
    static const char *compare = "record R { d: pool, n: int }\n"
                                 "proc f() -> bool {\n"
                                 "  let a = R(d: roll 60d6, n: 1)\n"
                                 "  let b = R(d: roll 60d6, n: 1)\n"
                                 "  return a == b\n"
                                 "}\n";
    exact_with(compare, "f", &o, &r, err, sizeof err);
    CU_ASSERT_EQUAL(r.status, EXACT_OVER_BUDGET);
    CU_ASSERT(r.needed > EXACT_DEFAULT_BUDGET);
    exact_clear(&r);
}

/* Is the probability of outcome k of r q? */
static bool p_is_q(const ExactResult *r, int64_t k, const mpq_t q)
{
    for (int i = 0; i < r->n; i++)
        if (r->outcomes[i].value.tag == VAL_INT && r->outcomes[i].value.as.i == k)
            return mpq_equal(r->outcomes[i].p, q);
    return mpq_sgn(q) == 0;
}

/* (num / den)^k into p */
static void q_pow(mpq_t p, unsigned long num, unsigned long den, unsigned long k)
{
    mpz_ui_pow_ui(mpq_numref(p), num, k);
    mpz_ui_pow_ui(mpq_denref(p), den, k);
    mpq_canonicalize(p);
}

/* What the procedures below give for dice a, b, c (of 70 faces). */
static int64_t big_brute(int which, const int *d)
{
    int n = which == 1 ? 2 : 3, ge60 = 0, le5 = 0, q = 0, q50 = 0, lt40 = 0, hi = 0, lo3 = 0, top = 0, low = 0;
    int most = 0, least20 = 0;
    for (int i = 0; i < n; i++) {
        ge60 += d[i] >= 60;
        le5 += d[i] <= 5;
        q += d[i] >= 30;
        q50 += d[i] >= 30 && d[i] <= 50;
        lt40 += d[i] < 40;
        hi += d[i] >= 65;
        lo3 += d[i] < 3;
        top += d[i] == 70;
        low += d[i] < 20;
        most = d[i] > most ? d[i] : most;
        least20 = d[i] >= 20 && (!least20 || d[i] < least20) ? d[i] : least20;
    }
    switch (which) {
    case 0: return ge60 * 10 + le5;
    case 1: return q + q50 * 100 + lt40 * 10000;
    case 3: return least20 ? least20 * 100 + most : -1;
    default:
        if (hi) return lo3 + 10 * top;
        if (low == n) return -1;
        return -2 - (n - low);
    }
}

static int cmp_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* What the procedures of test_lazy_big_dice_late give for dice d[0..n). */
static int64_t late_brute(int which, const int *d, int n)
{
    int ge60 = 0, le10 = 0, ge50 = 0, le6 = 0;
    int64_t sum = 0, sum35 = 0;
    bool doubles = false;
    for (int i = 0; i < n; i++) {
        ge60 += d[i] >= 60;
        le10 += d[i] <= 10;
        ge50 += d[i] >= 50;
        le6 += d[i] <= 6;
        sum += d[i];
        sum35 += d[i] >= 35 ? d[i] : 0;
        for (int j = 0; j < i; j++)
            doubles = doubles || d[i] == d[j];
    }
    switch (which) {
    case 0: return ge60 * 1000 + sum;
    case 1: return le10 * 1000 + sum35;
    case 2: return doubles ? 100 + ge50 : ge50;
    case 3: return 2 * sum + ge60;
    case 4: return le6 * 1000 + sum;
    default: {
        int most = 0, not50 = 0;
        for (int i = 0; i < n; i++) {
            most = d[i] > most ? d[i] : most;
            not50 += d[i] != 50 ? d[i] : 0;
        }
        return which == 5 ? sum % 7 * 100 + most + ge60 * 1000 : which == 6 ? not50 + most : not50 * 100 + sum % 13;
    }
    }
}

/* A sum or doubles() of dice of more than 64 faces asked after a count has
 * split them, or a sum first and then counts, the highest, the dice: one
 * choice among the answers of the split dice together, and what follows
 * given it, against every roll (doubles() is asked so when the multisets
 * would be past the budget; a small budget here, to take that way);
 * anything asked after doubles() needs the multisets, and says so. */
static void test_lazy_big_dice_late(void)
{
    const char *text =
        "proc counted() -> int {\n  let p = roll 3d70\n  let c = count(p >= 60)\n  return c * 1000 + sum(p)\n}\n"
        "proc filtered() -> int {\n  let p = roll 3d70\n  let c = count(p <= 10)\n  return c * 1000 + sum(p >= 35)\n}\n"
        "proc doubled() -> int {\n  let p = roll 3d70\n  let c = count(p >= 50)\n"
        "  if doubles(p) { return 100 + c }\n  return c\n}\n"
        "proc twice() -> int {\n  let p = roll 3d70\n  let c = count(p >= 60)\n  return sum(p) + sum(p) + c\n}\n"
        "proc mixed() -> int {\n  let p = roll [2d70, 1d6]\n  let c = count(p <= 6)\n  return c * 1000 + sum(p)\n}\n"
        "proc after() -> int {\n  let p = roll 3d70\n  let c = count(p >= 60)\n  let s = sum(p)\n"
        "  return c * 1000 + s % 7 * 100 + highest(p)\n}\n"
        "proc first() -> int {\n  let p = roll 3d70\n  let s = sum(p)\n  return count(p >= 60) * 1000 + s\n}\n"
        "proc first_high() -> int {\n  let p = roll 3d70\n  let s = sum(p)\n"
        "  return count(p >= 60) * 1000 + s % 7 * 100 + highest(p)\n}\n"
        "proc apart() -> int {\n  let p = roll 3d70\n  let c = count(p >= 60)\n  let s = sum(p != 50)\n"
        "  return s + highest(p)\n}\n"
        "proc settled() -> int {\n  let p = roll 3d70\n  let s = sum(p != 50)\n  let k = highest(3, p)\n"
        "  return s * 100 + sum(k) % 13\n}\n"
        "proc doubled_then() -> int {\n  let p = roll 3d70\n  let c = count(p >= 60)\n"
        "  if doubles(p) { return highest(p) }\n  return c\n}\n";
    /* (the sum first: given it, the count and the highest split the dice) */
    static const char *const procs[] = { "counted", "filtered", "doubled", "twice", "mixed", "after", "first",
                                         "first_high", "apart", "settled" };
    static const int brute[] = { 0, 1, 2, 3, 4, 5, 0, 5, 6, 7 };
    for (int t = 0; t < 10; t++) {
        int which = brute[t];
        ExactResult r;
        exact_of(text, procs[t], t == 5 || t >= 7 ? 0 : 2000, &r);
        CU_ASSERT_EQUAL_FATAL(r.status, EXACT_DONE);
        unsigned long total = which == 4 ? 70 * 70 * 6 : 70 * 70 * 70;
        /* every roll's value, sorted: the runs of equal values */
        int64_t *all = malloc(sizeof(int64_t) * total);
        CU_ASSERT_PTR_NOT_NULL_FATAL(all);
        for (unsigned long k = 0; k < total; k++) {
            int d[3] = { (int)(k % 70) + 1, (int)(k / 70 % 70) + 1, (int)(k / 4900) + 1 };
            all[k] = late_brute(which, d, 3);
        }
        qsort(all, total, sizeof *all, cmp_int64);
        int nv = 0;
        for (unsigned long k = 0, next; k < total; k = next, nv++) {
            for (next = k + 1; next < total && all[next] == all[k]; next++)
                ;
            CU_ASSERT(p_is(&r, all[k], next - k, total));
        }
        CU_ASSERT_EQUAL(r.n, nv);
        free(all);
        exact_clear(&r);
    }
    /* after doubles(), the highest needs the dice's multisets: past a
     * budget below them */
    ExactResult r;
    exact_of(text, "doubled_then", 2000, &r);
    CU_ASSERT_EQUAL(r.status, EXACT_OVER_BUDGET);
    CU_ASSERT(r.needed > 2000);
    exact_clear(&r);
    /* ten d100 all apart: 100 * 99 * ... * 91 of 100^10, in 2 runs */
    exact_of("proc f() -> bool { return doubles(roll 10d100) }", "f", 0, &r);
    CU_ASSERT_EQUAL_FATAL(r.status, EXACT_DONE);
    CU_ASSERT_EQUAL(r.runs, 2);
    mpq_t want;
    mpq_init(want);
    mpz_set_ui(mpq_numref(want), 1);
    for (unsigned long f = 91; f <= 100; f++)
        mpz_mul_ui(mpq_numref(want), mpq_numref(want), f);
    mpz_ui_pow_ui(mpq_denref(want), 100, 10);
    mpq_canonicalize(want);
    bool found = false;
    for (int i = 0; i < r.n; i++)
        if (r.outcomes[i].value.tag == VAL_BOOL && !r.outcomes[i].value.as.b) {
            found = true;
            CU_ASSERT(mpq_equal(r.outcomes[i].p, want));
        }
    CU_ASSERT(found);
    mpq_clear(want);
    exact_clear(&r);
}

static void test_lazy_big_dice_classes(void)
{
    /* dice of more than 64 faces, their faces cut where they are compared:
     * counts, filters of filters, any() and all(), against every roll */
    const char *text =
        "proc two_counts() -> int {\n  let p = roll 3d70\n  let a = count(p >= 60)\n  let b = count(p <= 5)\n"
        "  return a * 10 + b\n}\n"
        "proc filtered() -> int {\n  let p = roll 2d70\n  let q = p >= 30\n"
        "  return count(q) + count(q <= 50) * 100 + count(p < 40) * 10000\n}\n"
        "proc asked() -> int {\n  let p = roll 3d70\n"
        "  if any(p >= 65) { return count(p < 3) + 10 * count(p == 70) }\n"
        "  if all(p < 20) { return -1 }\n  return -2 - count(p > 19)\n}\n"
        "proc extremes() -> int {\n  let p = roll 3d70\n  let q = p >= 20\n"
        "  if any(q) { return lowest(q) * 100 + highest(p) }\n  return -1\n}\n";
    static const char *const procs[] = { "two_counts", "filtered", "asked", "extremes" };
    for (int which = 0; which < 4; which++) {
        ExactResult r;
        exact_of(text, procs[which], 0, &r);
        CU_ASSERT_EQUAL_FATAL(r.status, EXACT_DONE);
        CU_ASSERT(r.runs < (which == 3 ? 10000 : 40));
        int n = which == 1 ? 2 : 3;
        unsigned long total = n == 2 ? 70 * 70 : 70 * 70 * 70;
        /* the counts of every value, one roll at a time */
        int64_t vals[2048];
        unsigned long ways[2048];
        int nv = 0;
        int d[3] = { 1, 1, 1 };
        for (unsigned long k = 0; k < total; k++) {
            d[0] = (int)(k % 70) + 1;
            d[1] = (int)(k / 70 % 70) + 1;
            d[2] = (int)(k / 4900) + 1;
            int64_t v = big_brute(which, d);
            int i = 0;
            while (i < nv && vals[i] != v)
                i++;
            if (i == nv) {
                CU_ASSERT_FATAL(nv < 2048);
                vals[nv] = v;
                ways[nv++] = 0;
            }
            ways[i]++;
        }
        CU_ASSERT_EQUAL(r.n, nv);
        for (int i = 0; i < nv; i++)
            CU_ASSERT(p_is(&r, vals[i], ways[i], total));
        exact_clear(&r);
    }
    /* ten d100: 11 runs, where its multisets are 4.3e13 */
    ExactResult r;
    exact_of("proc f() -> int { return count(roll 10d100 >= 90) }", "f", 0, &r);
    CU_ASSERT_EQUAL(r.status, EXACT_DONE);
    CU_ASSERT_EQUAL(r.runs, 11);
    mpq_t p;
    mpq_init(p);
    q_pow(p, 11, 100, 10);
    CU_ASSERT(p_is_q(&r, 10, p));
    exact_clear(&r);
    /* mixed pools with such dice: a class for each kind of die */
    exact_of("proc f() -> int { return count(roll [10d40, 10d30] >= 20) }", "f", 0, &r);
    CU_ASSERT_EQUAL(r.status, EXACT_DONE);
    CU_ASSERT(r.runs <= 121);
    q_pow(p, 21 * 11, 40 * 30, 10);
    CU_ASSERT(p_is_q(&r, 20, p));
    exact_clear(&r);
    /* its highest (by halves), and its sum only returned (the kinds' sums
     * convolved) */
    ExactResult t;
    exact_of("proc f() -> int { return highest(roll [d100, 2d6]) }", "f", 0, &r);
    exact_of("proc f() -> int { return sum(roll [d100, 2d6]) }", "f", 0, &t);
    CU_ASSERT_EQUAL(r.status, EXACT_DONE);
    CU_ASSERT_EQUAL(t.status, EXACT_DONE);
    for (int m = 1; m <= 112; m++) {
        unsigned long ways = 0, sums = 0;
        for (int a = 1; a <= 100; a++)
            for (int b = 1; b <= 6; b++)
                for (int c = 1; c <= 6; c++) {
                    ways += (a > b ? (a > c ? a : c) : (b > c ? b : c)) == m;
                    sums += a + b + c == m;
                }
        CU_ASSERT(p_is(&r, m, ways, 3600));
        CU_ASSERT(p_is(&t, m, sums, 3600));
    }
    exact_clear(&t);
    mpq_clear(p);
    exact_clear(&r);
}

static void test_lazy_closed_forms(void)
{
    /* count(60d6 >= 4) is Binomial(60, 1/2), in 61 runs */
    ExactResult r;
    exact_of("proc f() -> int { return count(roll 60d6 >= 4) }", "f", 0, &r);
    CU_ASSERT_EQUAL(r.status, EXACT_DONE);
    CU_ASSERT_EQUAL(r.n, 61);
    CU_ASSERT_EQUAL(r.runs, 61);
    mpq_t q;
    mpq_init(q);
    for (unsigned long k = 0; k <= 60; k++) {
        mpz_bin_uiui(mpq_numref(q), 60, k);
        mpz_ui_pow_ui(mpq_denref(q), 2, 60);
        mpq_canonicalize(q);
        CU_ASSERT(p_is_q(&r, (int64_t)k, q));
    }
    exact_clear(&r);

    /* any six among 60d6: 1 - (5/6)^60 */
    exact_of("proc f() -> bool { return any(roll 60d6 == 6) }", "f", 0, &r);
    CU_ASSERT_EQUAL(r.status, EXACT_DONE);
    CU_ASSERT_EQUAL(r.n, 2);
    mpz_ui_pow_ui(mpq_numref(q), 6, 60);
    mpz_ui_pow_ui(mpq_denref(q), 5, 60);
    mpz_sub(mpq_numref(q), mpq_numref(q), mpq_denref(q));
    mpz_ui_pow_ui(mpq_denref(q), 6, 60);
    mpq_canonicalize(q);
    CU_ASSERT(r.n == 2 && r.outcomes[1].value.as.b && mpq_equal(r.outcomes[1].p, q));
    exact_clear(&r);

    /* highest of 60d6: P(6) = 1 - (5/6)^60 again, in a few hundred runs */
    exact_of("proc f() -> int { return highest(roll 60d6) }", "f", 0, &r);
    CU_ASSERT_EQUAL(r.status, EXACT_DONE);
    CU_ASSERT(p_is_q(&r, 6, q));
    CU_ASSERT(r.runs < 1000);
    exact_clear(&r);
    mpq_clear(q);
}

/* The REBS volley (rules/rebs.muster, resolve_volley): hits are the dice
 * of 4+, one more if any die is a 6; a whiff is every die a 1. */
static const char *volley =
    "proc volley(fv: int) -> int {\n"
    "  let dice = roll fv d6\n"
    "  let hits = count(dice >= 4)\n"
    "  if any(dice == 6) { hits = hits + 1 }\n"
    "  let whiff = 0\n"
    "  if all(dice == 1) { whiff = 1 }\n"
    "  return hits * 2 + whiff\n"
    "}\n"
    "proc f() -> int { return volley(30) }\n";

static void test_lazy_volley_matches_dp(void)
{
    enum { N = 30 };
    /* dp[h][six][ones]: dice so far, h of them 4+, whether a 6 came up,
     * whether every die was a 1; one die is 1 (1/6), 2-3 (2/6), 4-5 (2/6), 6 (1/6) */
    static mpq_t dp[N + 1][2][2], next[N + 1][2][2];
    for (int h = 0; h <= N; h++)
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                mpq_init(dp[h][a][b]);
                mpq_init(next[h][a][b]);
            }
    mpq_set_ui(dp[0][0][1], 1, 1);
    mpq_t w, t;
    mpq_inits(w, t, NULL);
    for (int die = 0; die < N; die++) {
        for (int h = 0; h <= N; h++)
            for (int a = 0; a < 2; a++)
                for (int b = 0; b < 2; b++)
                    mpq_set_ui(next[h][a][b], 0, 1);
        for (int h = 0; h < N; h++)
            for (int a = 0; a < 2; a++)
                for (int b = 0; b < 2; b++) {
                    if (mpq_sgn(dp[h][a][b]) == 0)
                        continue;
                    static const struct { unsigned long p; int hit, six, one; } faces[] = {
                        { 1, 0, 0, 1 }, { 2, 0, 0, 0 }, { 2, 1, 0, 0 }, { 1, 1, 1, 0 },
                    };
                    for (int f = 0; f < 4; f++) {
                        mpq_set_ui(w, faces[f].p, 6);
                        mpq_mul(t, dp[h][a][b], w);
                        mpq_t *to = &next[h + faces[f].hit][a | faces[f].six][b & faces[f].one];
                        mpq_add(*to, *to, t);
                    }
                }
        for (int h = 0; h <= N; h++)
            for (int a = 0; a < 2; a++)
                for (int b = 0; b < 2; b++)
                    mpq_set(dp[h][a][b], next[h][a][b]);
    }
    ExactResult r;
    exact_of(volley, "f", 0, &r);
    CU_ASSERT_EQUAL(r.status, EXACT_DONE);
    /* each value hits * 2 + whiff comes from one (h, six, ones) at most, except
     * that the values must add up: gather the dp by value and compare */
    mpq_t want[2 * (N + 1) + 2];
    for (int v = 0; v < 2 * (N + 1) + 2; v++)
        mpq_init(want[v]);
    for (int h = 0; h <= N; h++)
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                int v = (h + a) * 2 + b;
                mpq_add(want[v], want[v], dp[h][a][b]);
            }
    int nonzero = 0;
    for (int v = 0; v < 2 * (N + 1) + 2; v++) {
        nonzero += mpq_sgn(want[v]) > 0;
        CU_ASSERT(p_is_q(&r, v, want[v]));
        mpq_clear(want[v]);
    }
    CU_ASSERT_EQUAL(r.n, nonzero);
    /* about (N+1)^3/6 runs, where settling the pool would take C(N+5, 5) */
    CU_ASSERT(r.runs < 10000);
    exact_clear(&r);
    mpq_clears(w, t, NULL);
    for (int h = 0; h <= N; h++)
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++) {
                mpq_clear(dp[h][a][b]);
                mpq_clear(next[h][a][b]);
            }
}

/* ---- lazy pools of dice of their own faces, and mixed pools, through the
 * engine's pool methods (as the VM calls them), against brute force ---- */

static const int32_t average_values[] = { 2, 3, 3, 4, 4, 5 };
static const int32_t fudge_values[] = { -1, -1, 0, 0, 1, 1 };
static const int32_t odd_values[] = { -3, 0, 0, 2, 7 };
static const int32_t wide_values[] = { -5000, 0, 5000 };
static const int32_t four_values[] = { 1, 2, 3, 4 };   /* the values of a d4: its slots are its faces */
static const Die test_dice[] = {
    { .name = "Average", .n = 6, .value = average_values }, { .name = "Fudge", .n = 6, .value = fudge_values },
    { .name = "Odd", .n = 5, .value = odd_values }, { .name = "Wide", .n = 3, .value = wide_values },
    { .name = "Four", .n = 4, .value = four_values },
};

/* n dice of test_dice[die], or with die < 0 of `sides` */
typedef struct Part {
    int64_t n;
    int die;
    int32_t sides;
} Part;

typedef struct DieCase {
    Part part[3];
    int nparts;
    int ask;                 /* what is asked of the pool: see ask_of */
} DieCase;

#define ASKS 8

/* The value of pool instruction op on p, lazy (from its source) or plain;
 * *fail on an error. */
static Value pool_op(Vm *vm, OpCode op, const Pool *p, CmpOp cmp, Value x, bool *fail)
{
    if (p->lazy) {
        Value out;
        char err[200];
        if (pool_lazy_op(op, p, cmp, x, &out, err, sizeof err)) {
            *fail = true;
            return val_int(0);
        }
        return out;
    }
    pool_order(p);
    switch (op) {
    case OP_FILTER: return val_pool(pool_filter(vm ? vm->scratch : NULL, p, cmp, x));
    case OP_COUNT: return val_int(p->n);
    case OP_SUM: return val_int(pool_sum(p));
    case OP_HIGHEST: return val_int(p->n ? p->face[p->n - 1] : -99999);
    case OP_LOWEST: return val_int(p->n ? p->face[0] : -99999);
    case OP_HIGHEST_N: return val_pool(pool_highest(vm ? vm->scratch : NULL, p, x.as.i));
    case OP_LOWEST_N: return val_pool(pool_lowest(vm ? vm->scratch : NULL, p, x.as.i));
    case OP_DOUBLES: return val_bool(pool_doubles(p));
    case OP_ANY: return val_bool(pool_any(p, cmp, x));
    case OP_ALL: return val_bool(pool_all(p, cmp, x));
    default: *fail = true; return val_int(0);
    }
}

#define OP(code, pool, cmp, x) pool_op(vm, (code), (pool), (cmp), (x), fail)
#define NUM(v) ((v).tag == VAL_BOOL ? (int64_t)(v).as.b : (v).as.i)

/* Question `ask` about the pool p (every pool here has a die). */
static int64_t ask_of(Vm *vm, int ask, const Pool *p, bool *fail)
{
    Value none = val_int(0);
    switch (ask) {
    case 0: return NUM(OP(OP_SUM, p, CMP_EQ, none));
    case 1: {
        int64_t c = NUM(OP(OP_COUNT, OP(OP_FILTER, p, CMP_GE, val_int(3)).as.p, CMP_EQ, none));
        return c * 100000 + NUM(OP(OP_HIGHEST, p, CMP_EQ, none));
    }
    case 2: {
        int64_t s = NUM(OP(OP_SUM, OP(OP_HIGHEST_N, p, CMP_EQ, val_int(2)).as.p, CMP_EQ, none));
        return s * 100000 + NUM(OP(OP_LOWEST, p, CMP_EQ, none));
    }
    case 3:
        return NUM(OP(OP_DOUBLES, p, CMP_EQ, none)) + 2 * NUM(OP(OP_ANY, p, CMP_EQ, val_int(0)))
             + 4 * NUM(OP(OP_ALL, p, CMP_GE, val_int(0)));
    case 4: {
        const Pool *q = OP(OP_FILTER, p, CMP_GE, val_int(0)).as.p;
        return NUM(OP(OP_SUM, OP(OP_LOWEST_N, q, CMP_EQ, val_int(2)).as.p, CMP_EQ, none));
    }
    case 5: {
        /* the dice themselves, in order */
        const Pool *f = pool_order(pool_plain(p));
        uint64_t h = 0;
        for (int64_t i = 0; i < f->n; i++)
            h = h * 1000003u + (uint64_t)(f->face[i] + 6000);
        return (int64_t)(h >> 2);
    }
    case 6: {
        /* a count that splits the classes, then a question face by face */
        int64_t c = NUM(OP(OP_COUNT, OP(OP_FILTER, p, CMP_GE, val_int(2)).as.p, CMP_EQ, none));
        const Pool *top = OP(OP_HIGHEST_N, p, CMP_EQ, val_int(3)).as.p;
        return c * 100000 + NUM(OP(OP_COUNT, OP(OP_FILTER, top, CMP_EQ, val_int(4)).as.p, CMP_EQ, none));
    }
    default: {
        /* the doubles of a filter, then the sum of all */
        int64_t d = NUM(OP(OP_DOUBLES, OP(OP_FILTER, p, CMP_NE, val_int(3)).as.p, CMP_EQ, none));
        return d + 2 * NUM(OP(OP_SUM, p, CMP_EQ, none));
    }
    }
}

#undef OP

/* One run: the parts rolled in turn and joined, as the VM does. */
static int die_case_run(void *ud, Vm *vm, Value *result)
{
    const DieCase *dc = ud;
    const Pool *pool = NULL;
    bool fail = false;
    char err[200];
    for (int i = 0; i < dc->nparts; i++) {
        const Part *pt = &dc->part[i];
        const Die *die = pt->die >= 0 ? &test_dice[pt->die] : NULL;
        int32_t sides = die ? die->n : pt->sides;
        const Pool *p;
        if (vm->dice->pools->roll(vm->dice, pt->n, sides, die, &p, err, sizeof err))
            return -1;
        if (pool) {
            const Pool *joined = NULL;
            if (vm->dice->pools->join(vm->dice, pool, p, &joined, err, sizeof err))
                return -1;
            p = joined ? joined : pool_join(vm->scratch, pool, p);
        }
        pool = p;
    }
    *result = val_int(ask_of(vm, dc->ask, pool, &fail));
    return fail ? -1 : 0;
}

/* Does the exact engine give the case the shares of brute force (every
 * ordered outcome of the dice, each die's faces alike)? */
static bool die_case_matches(const DieCase *dc, Vm *vm, uint64_t *runs)
{
    ExactOptions o = { 0 };
    ExactResult r;
    exact_distribution(vm, 0, NULL, 0, die_case_run, (void *)dc, &o, &r);
    if (r.status != EXACT_DONE) {
        printf("\ncase ask %d: status %d (%s)\n", dc->ask, r.status, vm->error);
        exact_clear(&r);
        return false;
    }
    *runs = r.runs;
    /* the dice one by one: their values */
    const int32_t *vals[16];
    int32_t nv[16], idx[16] = { 0 }, plain[16][100];
    int n = 0;
    for (int i = 0; i < dc->nparts; i++)
        for (int64_t k = 0; k < dc->part[i].n; k++, n++) {
            const Part *pt = &dc->part[i];
            if (pt->die >= 0) {
                vals[n] = test_dice[pt->die].value;
                nv[n] = test_dice[pt->die].n;
            } else {
                for (int32_t f = 0; f < pt->sides; f++)
                    plain[n][f] = f + 1;
                vals[n] = plain[n];
                nv[n] = pt->sides;
            }
        }
    int64_t *key = calloc(200000, sizeof(int64_t)), *tally = calloc(200000, sizeof(int64_t)), total = 0;
    int nkeys = 0;
    for (;;) {
        Pool *p = pool_alloc(NULL, 0, n);
        for (int i = 0; i < n; i++)
            p->face[i] = vals[i][idx[i]];
        p->unsorted = true;
        bool fail = false;
        int64_t a = ask_of(NULL, dc->ask, p, &fail);
        int k = 0;
        while (k < nkeys && key[k] != a)
            k++;
        if (k == nkeys)
            key[nkeys++] = a;
        tally[k]++;
        total++;
        int i = 0;
        while (i < n && ++idx[i] == nv[i])
            idx[i++] = 0;
        if (i == n)
            break;
    }
    bool same = r.n == nkeys;
    mpq_t q;
    mpq_init(q);
    for (int k = 0; k < nkeys && same; k++) {
        mpq_set_ui(q, (unsigned long)tally[k], (unsigned long)total);
        mpq_canonicalize(q);
        same = p_is_q(&r, key[k], q);
    }
    if (!same)
        printf("\ncase ask %d: %d outcomes exact, %d by brute force\n", dc->ask, r.n, nkeys);
    mpq_clear(q);
    free(key);
    free(tally);
    exact_clear(&r);
    return same;
}

static void test_lazy_dice_of_their_own(void)
{
    Compiled *c = compile_text("proc f() -> int { return 0 }\n", NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    Vm vm;
    vm_init(&vm, c->prog, NULL);
    enum { AVERAGE, FUDGE, ODD, WIDE, FOUR };
    static const struct { Part part[3]; int nparts; } pools[] = {
        { { { 3, AVERAGE, 0 } }, 1 },
        { { { 4, FUDGE, 0 } }, 1 },
        { { { 2, AVERAGE, 0 }, { 1, -1, 6 } }, 2 },
        { { { 2, FUDGE, 0 }, { 2, FUDGE, 0 } }, 2 },           /* one kind: one class */
        { { { 1, ODD, 0 }, { 2, AVERAGE, 0 }, { 1, -1, 4 } }, 3 },
        { { { 2, WIDE, 0 }, { 1, ODD, 0 } }, 2 },              /* values too far apart for polynomials */
        { { { 1, FOUR, 0 }, { 2, -1, 4 } }, 2 },               /* a die showing its faces' numbers: a d4 */
        { { { 3, -1, 6 }, { 1, -1, 8 } }, 2 },
        { { { 1, -1, 40 }, { 1, -1, 30 } }, 2 },               /* 70 slots: the faces are joined */
        { { { 1, -1, 6 }, { 1, -1, 100 } }, 2 },               /* a d100 is not lazy: the same */
    };
    int checked = 0, total = 0;
    for (size_t i = 0; i < sizeof pools / sizeof pools[0]; i++)
        for (int ask = 0; ask < ASKS; ask++) {
            DieCase dc = { .nparts = pools[i].nparts, .ask = ask };
            memcpy(dc.part, pools[i].part, sizeof dc.part);
            uint64_t runs = 0;
            bool same = die_case_matches(&dc, &vm, &runs);
            if (!same)
                printf("  (pool %zu)\n", i);
            checked += same;
            total++;
        }
    CU_ASSERT_EQUAL(checked, total);

    /* lazy all the way: 40d6 and 40d8 joined, counted in a few thousand runs */
    ExactResult r;
    exact_of("proc f() -> int { return count(roll [40d6, 40d8] >= 5) }", "f", 0, &r);
    CU_ASSERT_EQUAL(r.status, EXACT_DONE);
    CU_ASSERT_EQUAL(r.n, 81);
    CU_ASSERT(r.runs < 5000);
    exact_clear(&r);
    /* four kinds: the count asked face by face, one decision, not one split per kind */
    exact_of("proc f() -> int { return count(roll [40d6, 40d8, 40d10, 40d12] >= 5) }", "f", 0, &r);
    CU_ASSERT_EQUAL(r.status, EXACT_DONE);
    CU_ASSERT_EQUAL(r.n, 161);
    exact_clear(&r);
    /* declared dice, lazy and rolled whole: the same odds */
    static const char *declared =
        "die Average { 2, 3, 3, 4, 4, 5 }\n"
        "die Fudge { -1, -1, 0, 0, 1, 1 }\n"
        "enum Face { hit, crit, focus, blank }\n"
        "die Attack { 3 hit, crit, 2 focus, 2 blank }\n"
        "proc a() -> int { let p = roll 4 Average\n return count(p >= 4) * 100 + sum(highest(2, p)) }\n"
        "proc b() -> int { let p = roll [3 Fudge, d4]\n if doubles(p) { return lowest(p) }\n return sum(p) }\n"
        "proc c() -> Face { let p = roll [2 Attack, Attack] != blank\n if count(p) == 0 { return blank }\n"
        "  return highest(p) }\n"
        "proc d() -> pool of Face { return lowest(2, roll 3 Attack) }\n"
        "proc e() -> int { let p = roll [2 Average, 2 d6]\n if any(p == 5) { return count(p == 3) }\n return 10 + sum(p) }\n";
    static const char *const procs[] = { "a", "b", "c", "d", "e" };
    for (size_t i = 0; i < sizeof procs / sizeof procs[0]; i++) {
        ExactOptions lazy = { 0 }, whole = { .whole_pools = true };
        ExactResult x, y;
        char ex[320], ey[320];
        exact_with(declared, procs[i], &lazy, &x, ex, sizeof ex);
        exact_with(declared, procs[i], &whole, &y, ey, sizeof ey);
        bool same = same_distribution(&x, &y);
        if (!same)
            fprintf(stderr, "\ndeclared dice %s: lazy (%s) and whole (%s) differ\n", procs[i],
                    x.status == EXACT_DONE ? "ok" : ex, y.status == EXACT_DONE ? "ok" : ey);
        CU_ASSERT(same);
        CU_ASSERT(x.runs <= y.runs);
        exact_clear(&x);
        exact_clear(&y);
    }
    /* three d20s are one kind of die: the highest of them as of 3d20 */
    ExactResult a, b;
    exact_of("proc f() -> int { return highest(roll [d20, d20, d20]) }", "f", 0, &a);
    exact_of("proc f() -> int { return highest(roll 3d20) }", "f", 0, &b);
    CU_ASSERT(same_distribution(&a, &b));
    CU_ASSERT(a.runs == b.runs);
    exact_clear(&a);
    exact_clear(&b);
}

void register_tests(void)
{
    static const TestDef scripted[] = {
        { "dice come in order", test_scripted_order },
        { "running out", test_scripted_running_out },
        { "a die of its own faces takes the values read off it", test_scripted_own_faces },
        { "a symbol die takes its faces by name", test_scripted_symbols },
        { "faces out of range", test_scripted_face_out_of_range },
        { "good dice lists", test_parse_good_lists },
        { "bad dice lists", test_parse_bad_lists },
        { NULL, NULL },
    };
    static const TestDef rng[] = {
        { "reference values", test_rng_reference_values },
        { "same seed, same dice", test_rng_determinism },
        { "seed 0 is well mixed", test_rng_seed_zero_is_mixed },
        { "rng_below stays in bounds", test_rng_below_bounds },
        { "every die size is uniform (chi-square)", test_dice_are_uniform },
        { "the chi-square check catches bias", test_chi_square_catches_bias },
        { "a large range is not biased low", test_large_range_is_unbiased },
        { "fresh seeds", test_fresh_seed },
        { NULL, NULL },
    };
    static const TestDef exact[] = {
        { "binomial pools, one run a multiset", test_exact_binomial },
        { "two dice, as rolls and as a pool", test_exact_two_dice },
        { "rerolls are conditioning", test_exact_rerolls_condition },
        { "open-ended rolls are cut; gaps are counted apart", test_exact_cuts_and_gaps },
        { "budget, no dice, always rerolling", test_exact_budget_and_no_dice },
        { "the driver's tick sees progress and can stop a count", test_exact_tick },
        { "a recursion fought to a finish, once per state", test_exact_fought_to_a_finish },
        { "runs that meet in a state are counted once", test_exact_merges_states },
        { "parts only added up are convolved", test_exact_deferred_parts },
        { "draws are asked face by face as sets of items", test_exact_draws_face_by_face },
        { "walks that come back to a state are absorbing chains", test_exact_absorbing_walks },
        { "inside a claim, the tick sees the count", test_exact_tick_in_claims },
        { "claims are counted once, within the budget", test_exact_claims_counted_once },
        { "claims are counted once per value of their arguments", test_exact_claims_per_argument },
        { "a '?' a rerolling procedure returns is passed on", test_exact_unknowns_passed_on },
        { "over budget is a status, claims included", test_exact_over_budget_status },
        { "a claim past the budget is estimated as its machine says", test_exact_claim_fallback },
        { "a claim past 64-bit numbers is the closest fraction that fits", test_exact_claim_past_64_bits },
        { "lazy pools give the odds of whole pools", test_lazy_matches_whole },
        { "lazy pools: every comparison", test_lazy_comparisons },
        { "lazy pools: empty pools, faces past the budget", test_lazy_errors },
        { "lazy pools: 60d6 closed forms", test_lazy_closed_forms },
        { "lazy pools: dice of more than 64 faces, cut where compared", test_lazy_big_dice_classes },
        { "lazy pools: the sum or doubles of dice of more than 64 faces, once split", test_lazy_big_dice_late },
        { "lazy pools: a 30-die volley against a dynamic program", test_lazy_volley_matches_dp },
        { "face by face: every question against brute force", test_facewise_brute_force },
        { "face by face: 60d6 summed, highest 3 of 500d6", test_facewise_big_sums },
        { "face by face: slots with values of their own, against brute force", test_facewise_value_maps },
        { "face by face: sums of values, as polynomials and face by face", test_facewise_value_sums },
        { "lazy pools: dice of their own faces and mixed pools against brute force", test_lazy_dice_of_their_own },
        { NULL, NULL },
    };
    add_suite("dice: scripted", scripted);
    add_suite("dice: exact", exact);
    add_suite("dice: seeded", rng);
}
