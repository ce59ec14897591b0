/* test_dice.c — dice sources, the dice list parser and the generator. */
#include "config.h"
#include "harness.h"
#include "exact.h"
#include "compiler.h"

#include <stdlib.h>

#include "rng.h"

#include <stdlib.h>
#include <string.h>

/* ---- scripted dice ---- */

static void test_scripted_order(void)
{
    static const int64_t faces[] = { 6, 3, 4, 1, 2, 5 };
    ScriptDice d;
    dice_script_init(&d, faces, 6);
    char err[256] = "";
    int32_t out[3];
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 6, out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(out[0], 6);
    /* a pool takes as many as it has dice, in the order given */
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 3, 6, out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(out[0], 3);
    CU_ASSERT_EQUAL(out[1], 4);
    CU_ASSERT_EQUAL(out[2], 1);
    CU_ASSERT_EQUAL(d.next, 4);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 2, 6, out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(out[0], 2);
    CU_ASSERT_EQUAL(out[1], 5);
    CU_ASSERT_EQUAL(d.next, 6);
    CU_ASSERT_STRING_EQUAL(err, "");
}

static void test_scripted_running_out(void)
{
    static const int64_t faces[] = { 2, 5 };
    ScriptDice d;
    dice_script_init(&d, faces, 2);
    char err[256];
    int32_t out[4];
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 2, 6, out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 6, out, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "ran out of scripted dice: 2 given, a d6 needs one more");

    dice_script_init(&d, faces, 2);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 8, out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 3, 10, out, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "ran out of scripted dice: 2 given, a pool of 3 d10 needs 2 more");

    /* no dice at all */
    dice_script_init(&d, NULL, 0);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 20, out, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "ran out of scripted dice: 0 given, a d20 needs one more");
}

static void test_scripted_face_out_of_range(void)
{
    static const int64_t faces[] = { 6, 7, 0, -1, 100 };
    ScriptDice d;
    char err[256];
    int32_t out[2];
    dice_script_init(&d, faces, 5);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 6, out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(out[0], 6);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 6, out, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "scripted die #2 is 7, which is not a face of a d6 (1..6)");

    dice_script_init(&d, faces + 2, 1);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 6, out, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "scripted die #1 is 0, which is not a face of a d6 (1..6)");

    dice_script_init(&d, faces + 3, 1);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 6, out, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "scripted die #1 is -1, which is not a face of a d6 (1..6)");

    /* the same face fits a bigger die */
    dice_script_init(&d, faces + 1, 1);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 8, out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(out[0], 7);
    dice_script_init(&d, faces + 4, 1);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 100, out, err, sizeof err), 0);
    CU_ASSERT_EQUAL(out[0], 100);
    dice_script_init(&d, faces + 4, 1);
    CU_ASSERT_EQUAL(d.base.roll(&d.base, 1, 99, out, err, sizeof err), -1);
    CU_ASSERT_STRING_EQUAL(err, "scripted die #1 is 100, which is not a face of a d99 (1..99)");
}

/* ---- the dice list ---- */

static void test_parse_good_lists(void)
{
    int64_t *faces = NULL;
    char err[256];
    CU_ASSERT_EQUAL(dice_parse_list("6,3,4", &faces, err, sizeof err), 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(faces);
    CU_ASSERT_EQUAL(faces[0], 6);
    CU_ASSERT_EQUAL(faces[1], 3);
    CU_ASSERT_EQUAL(faces[2], 4);

    CU_ASSERT_EQUAL(dice_parse_list(" 1 , 20,\t100 ", &faces, err, sizeof err), 3);
    CU_ASSERT_EQUAL(faces[0], 1);
    CU_ASSERT_EQUAL(faces[1], 20);
    CU_ASSERT_EQUAL(faces[2], 100);

    CU_ASSERT_EQUAL(dice_parse_list("5", &faces, err, sizeof err), 1);
    CU_ASSERT_EQUAL(faces[0], 5);

    CU_ASSERT_EQUAL(dice_parse_list("1000000000", &faces, err, sizeof err), 1);
    CU_ASSERT_EQUAL(faces[0], 1000000000);

    /* a long list grows past the first allocation, in order */
    char text[2048] = "";
    for (int i = 0; i < 300; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s%d", i ? "," : "", i % 6 + 1);
    CU_ASSERT_EQUAL(dice_parse_list(text, &faces, err, sizeof err), 300);
    int ok = 1;
    for (int i = 0; i < 300; i++)
        ok &= faces[i] == i % 6 + 1;
    CU_ASSERT(ok);
}

static void test_parse_bad_lists(void)
{
    static const struct { const char *text, *msg; } cases[] = {
        { "", "the dice list is empty" },
        { "a", "expected a die face (a whole number) at 'a'" },
        { "1,,2", "expected a die face (a whole number) at ',2'" },
        { "1 2", "expected ',' between die faces at '2'" },
        { "1;2", "expected ',' between die faces at ';2'" },
        { "1.5", "expected ',' between die faces at '.5'" },
        { "-1", "expected a die face (a whole number) at '-1'" },
        { "+3", "expected a die face (a whole number) at '+3'" },
        { "3,x", "expected a die face (a whole number) at 'x'" },
        { "99999999999999999999", "die face '99999999999999999999' is too large" },
        { "6,1000000001", "die face '1000000001' is too large" },
        { "  ", "expected a die face (a whole number) at 'end of list'" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int64_t *faces = NULL;
        char err[256] = "";
        long n = dice_parse_list(cases[i].text, &faces, err, sizeof err);
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
    CU_ASSERT_EQUAL(d1.base.roll(&d1.base, 100, 20, f1, err, sizeof err), 0);
    CU_ASSERT_EQUAL(d2.base.roll(&d2.base, 100, 20, f2, err, sizeof err), 0);
    CU_ASSERT_EQUAL(d3.base.roll(&d3.base, 100, 20, f3, err, sizeof err), 0);
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
        CU_ASSERT_EQUAL_FATAL(d.base.roll(&d.base, ROLLS, sides, faces, err, sizeof err), 0);
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

/* The exact distribution of proc() in text, which takes no arguments. */
static void exact_of(const char *text, const char *proc, uint64_t budget, ExactResult *out)
{
    Compiled *c = compile_text(text, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    const ProcSig *sig = compiler_find_proc(c, proc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sig);
    Vm vm;
    vm_init(&vm, c->prog, NULL);
    ExactOptions o = { .budget = budget };
    exact_distribution(&vm, sig->proto, NULL, 0, NULL, NULL, &o, out);
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
        CU_ASSERT_FALSE(r.failed);
        CU_ASSERT_FALSE(r.over_budget);
        CU_ASSERT_EQUAL(r.n, (int)n + 1);
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
    /* the same as a pool: 21 multisets instead of 36 sequences */
    exact_of("proc f() -> int { return sum(roll 2d6) }", "f", 0, &r);
    CU_ASSERT(p_is(&r, 7, 6, 36));
    CU_ASSERT(p_is(&r, 12, 1, 36));
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
    CU_ASSERT_FALSE(r.failed);
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

    exact_of("table t(n: int) -> int {\n 1: 5\n 2: ?\n 3: ?\n}\nproc f() -> int { return t(roll d3) }", "f", 0, &r);
    CU_ASSERT(p_is(&r, 5, 1, 3));
    mpq_t two_thirds;
    mpq_init(two_thirds);
    mpq_set_ui(two_thirds, 2, 3);
    CU_ASSERT(mpq_equal(r.not_given, two_thirds));
    mpq_clear(two_thirds);
    exact_clear(&r);
}

static void test_exact_budget_and_no_dice(void)
{
    ExactResult r;
    exact_of("proc f() -> int { return count(roll 30d6 >= 4) }", "f", 1000, &r);
    CU_ASSERT(r.over_budget);
    exact_clear(&r);
    exact_of("proc f() -> int { return 7 }", "f", 0, &r);
    CU_ASSERT_EQUAL(r.runs, 1);
    CU_ASSERT(p_is(&r, 7, 1, 1));
    exact_clear(&r);
    exact_of("proc f() -> int {\n let a = roll d2\n reroll\n}", "f", 0, &r);
    CU_ASSERT(r.failed);
    exact_clear(&r);
}

void register_tests(void)
{
    static const TestDef scripted[] = {
        { "dice come in order", test_scripted_order },
        { "running out", test_scripted_running_out },
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
        { NULL, NULL },
    };
    add_suite("dice: scripted", scripted);
    add_suite("dice: exact", exact);
    add_suite("dice: seeded", rng);
}
