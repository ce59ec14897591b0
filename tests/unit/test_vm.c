/* test_vm.c — running compiled procedures: arithmetic, control, dice and
 * pools, limits, errors and where they point, the trace, the rules
 * constructs; remembered pure calls, trials that allocate nothing, and the
 * instruction facts of opcodes.def checked against each other. */
#include "config.h"
#include "tests/unit/harness.h"
#include "base/mem.h"

#include "vm/opcodes.h"
#include "vm/pool.h"
#include "vm/rng.h"

#include <string.h>

/* Run `proc f() -> TYPE { return EXPR }` and return the result as text,
 * or "error: MESSAGE" if the run failed. */
static const char *eval(const char *type, const char *expr)
{
    static char out[8][400];
    static int next;
    char *buf = out[next++ % 8];
    char src[1024];
    snprintf(src, sizeof src, "proc f() -> %s { return %s }", type, expr);
    Run r;
    if (run_text(&r, src, "f", NULL, 0, NULL) == 0)
        snprintf(buf, sizeof out[0], "%s", show(&r, r.result));
    else
        snprintf(buf, sizeof out[0], "error: %s", r.vm.error);
    return buf;
}

#define EVAL(type, expr, want) CU_ASSERT_STRING_EQUAL(eval(type, expr), want)

/* Run src's proc with scripted dice; the result as text or "error: ...". */
static const char *run_dice(Run *r, const char *src, const char *proc, const Value *args, int nargs,
                            const char *dice)
{
    static char buf[400];
    if (run_text(r, src, proc, args, nargs, dice) == 0)
        snprintf(buf, sizeof buf, "%s", show(r, r->result));
    else
        snprintf(buf, sizeof buf, "error: %s", r->vm.error);
    return buf;
}

/* ---- arithmetic ---- */

static void test_integer_arithmetic(void)
{
    EVAL("int", "1 + 2 * 3", "7");
    EVAL("int", "(1 + 2) * 3", "9");
    EVAL("int", "10 - 3 - 2", "5");
    EVAL("int", "-4 * -5", "20");
    EVAL("int", "0 - 7", "-7");
    EVAL("int", "abs(0 - 7)", "7");
    EVAL("int", "min(4, 2, 9)", "2");
    EVAL("int", "max(4, 2, 9)", "9");
    EVAL("int", "clamp(15, 1, 10)", "10");
    EVAL("int", "clamp(-3, 1, 10)", "1");
    EVAL("int", "clamp(5, 1, 10)", "5");
    EVAL("bool", "3 > 2 and 2 >= 2 and 1 < 2 and 2 <= 2 and 1 != 2 and 1 == 1", "true");
    EVAL("bool", "3 < 2", "false");
}

static void test_rationals_are_exact(void)
{
    EVAL("rat", "1/4 + 1/4", "1/2");
    EVAL("bool", "1/4 + 1/4 == 1/2", "true");
    EVAL("rat", "2/4", "1/2");
    EVAL("rat", "6/3", "2");
    EVAL("rat", "1 / -2", "-1/2");
    EVAL("rat", "-(1/2)", "-1/2");
    EVAL("rat", "1/3 + 1/6", "1/2");
    EVAL("rat", "1/3 * 3", "1");
    EVAL("rat", "(2/3) / (4/9)", "3/2");
    EVAL("rat", "1/2 - 3/4", "-1/4");
    EVAL("bool", "1/3 + 1/3 + 1/3 == 1", "true");
    EVAL("bool", "1/3 < 1/2 and 2/3 > 1/2 and 1/2 >= 2/4", "true");
    EVAL("bool", "3/2 == 1", "false");
}

static void test_rational_reduction_in_values(void)
{
    /* lowest terms with a positive denominator, in the Value itself */
    Run r;
    CU_ASSERT_EQUAL(run_text(&r, "proc f() -> rat { return 3/-12 + 1/12 }", "f", NULL, 0, NULL), 0);
    CU_ASSERT_EQUAL(r.result.tag, VAL_RAT);
    CU_ASSERT_EQUAL(r.result.as.q.num, -1);
    CU_ASSERT_EQUAL(r.result.as.q.den, 6);
    /* an int divided by an int is always a rational, even when whole */
    CU_ASSERT_EQUAL(run_text(&r, "proc f() -> rat { return 8/4 }", "f", NULL, 0, NULL), 0);
    CU_ASSERT_EQUAL(r.result.tag, VAL_RAT);
    CU_ASSERT_EQUAL(r.result.as.q.num, 2);
    CU_ASSERT_EQUAL(r.result.as.q.den, 1);
    /* a rational parameter */
    Value q = rat(5, 10);
    CU_ASSERT_EQUAL(run_text(&r, "proc f(q: rat) -> rat { return q * 4 }", "f", &q, 1, NULL), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "2");
}

static void test_rounding(void)
{
    EVAL("int", "floor(7/2)", "3");
    EVAL("int", "ceil(7/2)", "4");
    EVAL("int", "round(7/2)", "4");
    EVAL("int", "floor(-7/2)", "-4");
    EVAL("int", "ceil(-7/2)", "-3");
    EVAL("int", "round(-7/2)", "-4");     /* halves away from zero */
    EVAL("int", "round(-5/4)", "-1");
    EVAL("int", "round(-7/4)", "-2");
    EVAL("int", "round(5/2)", "3");
    EVAL("int", "round(-1/2)", "-1");
    EVAL("int", "round(1/3)", "0");
    EVAL("int", "round(-1/3)", "0");
    EVAL("int", "floor(-1/3)", "-1");
    EVAL("int", "ceil(-1/3)", "0");
    EVAL("int", "ceil(1/3)", "1");
    EVAL("int", "floor(-8/4)", "-2");
    EVAL("int", "ceil(-8/4)", "-2");
    EVAL("int", "floor(5)", "5");
    EVAL("rat", "abs(-3/4)", "3/4");
}

static void test_modulo(void)
{
    /* the result has the divisor's sign */
    EVAL("int", "7 % 3", "1");
    EVAL("int", "-7 % 3", "2");
    EVAL("int", "7 % -3", "-2");
    EVAL("int", "-7 % -3", "-1");
    EVAL("int", "6 % -3", "0");
    EVAL("int", "0 % 5", "0");
    EVAL("int", "(-9223372036854775807 - 1) % -1", "0");
    EVAL("int", "7 % abs(0)", "error: division by zero");
}

static void test_overflow(void)
{
    EVAL("int", "9223372036854775807", "9223372036854775807");
    EVAL("int", "9223372036854775807 + 1", "error: integer overflow");
    EVAL("int", "9223372036854775806 + 1", "9223372036854775807");
    EVAL("int", "-9223372036854775807 - 1", "-9223372036854775808");
    EVAL("int", "-9223372036854775807 - 2", "error: integer overflow");
    EVAL("int", "4294967296 * 4294967296", "error: integer overflow");
    EVAL("int", "3037000499 * 3037000499", "9223372030926249001");
    EVAL("int", "-(-9223372036854775807 - 1)", "error: integer overflow");
    EVAL("int", "abs(-9223372036854775807 - 1)", "error: integer overflow");
    EVAL("int", "(-9223372036854775807 - 1) * -1", "error: integer overflow");
    /* rationals overflow too, never wrap */
    EVAL("rat", "9223372036854775807 / 2 + 9223372036854775807 / 2", "9223372036854775807");
    EVAL("rat", "9223372036854775807 / 2 * 3", "error: integer overflow");
    EVAL("rat", "1 / 9223372036854775807 / 2", "error: integer overflow");
}

static void test_division_by_zero(void)
{
    EVAL("rat", "1 / abs(0)", "error: division by zero");
    EVAL("rat", "1 / (1/2 - 1/2)", "error: division by zero");
    EVAL("rat", "0 / 5", "0");
}

/* Has the code of proc `name` an instruction `op`? */
static bool uses_op(const Compiled *c, const char *name, uint8_t op)
{
    const Proto *p = c->prog->protos[chunk_find_proto(c->prog, name)];
    for (int pc = 0; pc < p->len; pc += chunk_insn_len(p->code, pc))
        if (p->code[pc] == op)
            return true;
    return false;
}

/* The result of proc `name` on (a, b), or "error: MESSAGE". */
static const char *call2(const Compiled *c, const char *name, Value a, Value b)
{
    static char out[4][400];
    static int next;
    char *buf = out[next++ % 4];
    Run r;
    run_seeded(&r, c, 1);
    Value args[2] = { a, b };
    if (run_call(&r, name, args, 2) == 0)
        snprintf(buf, sizeof out[0], "%s", show(&r, r.result));
    else
        snprintf(buf, sizeof out[0], "error: %s", r.vm.error);
    return buf;
}

static const int64_t quotient_as[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 17, -1, -2, -3, -4, -5, -6, -7,
                                       -8, -9, -10, -11, -13, -17, INT64_MAX, INT64_MAX - 1, INT64_MIN,
                                       INT64_MIN + 1, INT64_MIN + 2 };
static const int64_t quotient_bs[] = { 1, 2, 3, 4, 5, 6, 7, -1, -2, -3, -4, -5, -6, -7, 0, INT64_MAX,
                                       INT64_MIN, INT64_MIN + 1, 1000000007 };

/* floor, ceil and round of a quotient of ints (IDIV, IDIVK: no rational
 * made) give what the rational path they stand for gives (DIV, then FLOOR,
 * CEIL or ROUND): negative operands, the extremes, halves, and the same
 * errors (division by zero; the overflows of INT64_MIN / -1 and 1 /
 * INT64_MIN, whose rationals do not fit) at the same place. */
static void test_integer_quotients(void)
{
    const char *(*const whole[])(Value, Value *) = { val_floor, val_ceil, val_round };
    /* the arithmetic itself, against val_div and the rounding functions */
    for (int m = 0; m < 3; m++)
        for (size_t i = 0; i < sizeof quotient_as / sizeof *quotient_as; i++)
            for (size_t j = 0; j < sizeof quotient_bs / sizeof *quotient_bs; j++) {
                Value q, want = val_int(0), got = val_int(0);
                const char *e1 = val_div(val_int(quotient_as[i]), val_int(quotient_bs[j]), &q);
                if (!e1)
                    e1 = whole[m](q, &want);
                const char *e2 = val_idiv(val_int(quotient_as[i]), val_int(quotient_bs[j]), (DivMode)m, &got);
                CU_ASSERT((e1 == NULL) == (e2 == NULL));
                if (e1 && e2)
                    CU_ASSERT_STRING_EQUAL(e1, e2);
                if (!e1 && !e2) {
                    CU_ASSERT_EQUAL(got.tag, VAL_INT);
                    CU_ASSERT_EQUAL(got.as.i, want.as.i);
                }
            }
    /* compiled: fused where the quotient is made whole at once, not where
     * it is kept in a local first; rational operands take the rational path */
    char src[2048];
    snprintf(src, sizeof src,
             "proc f0(a: int, b: int) -> int { return floor(a / b) }\n"
             "proc f1(a: int, b: int) -> int { return ceil(a / b) }\n"
             "proc f2(a: int, b: int) -> int { return round(a / b) }\n"
             "proc g0(a: int, b: int) -> int { let q = a / b  return floor(q) }\n"
             "proc g1(a: int, b: int) -> int { let q = a / b  return ceil(q) }\n"
             "proc g2(a: int, b: int) -> int { let q = a / b  return round(q) }\n"
             "proc k0(a: int, b: int) -> int { return floor(a / 3) + b }\n"
             "proc h0(a: int, b: int) -> int { let q = a / 3  return floor(q) + b }\n"
             "proc r0(a: rat, b: int) -> int { return floor(a / b) }\n"
             "proc s0(a: rat, b: int) -> int { let q = a / b  return floor(q) }\n"
             "proc r2(a: rat, b: int) -> int { return round(a / b) }\n"
             "proc s2(a: rat, b: int) -> int { let q = a / b  return round(q) }\n");
    Compiled *c = compile_text(src, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT(uses_op(c, "f0", OP_IDIV) && uses_op(c, "f2", OP_IDIV));
    CU_ASSERT(uses_op(c, "k0", OP_IDIVK) && !uses_op(c, "k0", OP_DIV));
    CU_ASSERT(uses_op(c, "g0", OP_DIV) && uses_op(c, "g0", OP_FLOOR) && !uses_op(c, "g0", OP_IDIV));
    for (int m = 0; m < 3; m++) {
        char f[16], g[16];
        snprintf(f, sizeof f, "f%d", m);
        snprintf(g, sizeof g, "g%d", m);
        for (size_t i = 0; i < sizeof quotient_as / sizeof *quotient_as; i++)
            for (size_t j = 0; j < sizeof quotient_bs / sizeof *quotient_bs; j++) {
                Value a = val_int(quotient_as[i]), b = val_int(quotient_bs[j]);
                CU_ASSERT_STRING_EQUAL(call2(c, f, a, b), call2(c, g, a, b));
            }
    }
    for (size_t i = 0; i < sizeof quotient_as / sizeof *quotient_as; i++)
        CU_ASSERT_STRING_EQUAL(call2(c, "k0", val_int(quotient_as[i]), val_int(0)),
                               call2(c, "h0", val_int(quotient_as[i]), val_int(0)));
    static const int64_t rats[][2] = { { 7, 2 }, { -7, 2 }, { 1, 3 }, { -5, 3 }, { 9, 4 }, { 0, 1 } };
    for (size_t i = 0; i < sizeof rats / sizeof *rats; i++)
        for (int64_t b = -4; b <= 4; b++) {
            Value a = rat(rats[i][0], rats[i][1]);
            CU_ASSERT_STRING_EQUAL(call2(c, "r0", a, val_int(b)), call2(c, "s0", a, val_int(b)));
            CU_ASSERT_STRING_EQUAL(call2(c, "r2", a, val_int(b)), call2(c, "s2", a, val_int(b)));
        }
    /* by a constant: a dividend of 32 bits and at least 0 is divided by
     * multiplying by the constant's reciprocal; any other the plain way */
    static const char *divisors[] = { "1", "2", "3", "6", "7", "10", "1000003", "4294967295", "4294967296" };
    static const int64_t dividends[] = { 0, 1, 2, 3, 5, 6, 7, 9, 17, 100, 65535, 1000002, 1000003, 2147483647,
                                         4294967294LL, 4294967295LL, 4294967296LL, 9000000000LL, -1, -7, INT64_MAX };
    for (size_t d = 0; d < sizeof divisors / sizeof *divisors; d++) {
        char ksrc[1024];
        snprintf(ksrc, sizeof ksrc,
                 "proc kf(a: int, b: int) -> int { return floor(a / %s) + b }\n"
                 "proc kc(a: int, b: int) -> int { return ceil(a / %s) + b }\n"
                 "proc kr(a: int, b: int) -> int { return round(a / %s) + b }\n"
                 "proc uf(a: int, b: int) -> int { let q = a / %s  return floor(q) + b }\n"
                 "proc uc(a: int, b: int) -> int { let q = a / %s  return ceil(q) + b }\n"
                 "proc ur(a: int, b: int) -> int { let q = a / %s  return round(q) + b }\n",
                 divisors[d], divisors[d], divisors[d], divisors[d], divisors[d], divisors[d]);
        Compiled *k = compile_text(ksrc, NULL, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(k);
        CU_ASSERT(uses_op(k, "kf", OP_IDIVK) && uses_op(k, "kr", OP_IDIVK));
        for (size_t i = 0; i < sizeof dividends / sizeof *dividends; i++) {
            Value a = val_int(dividends[i]), zero = val_int(0);
            CU_ASSERT_STRING_EQUAL(call2(k, "kf", a, zero), call2(k, "uf", a, zero));
            CU_ASSERT_STRING_EQUAL(call2(k, "kc", a, zero), call2(k, "uc", a, zero));
            CU_ASSERT_STRING_EQUAL(call2(k, "kr", a, zero), call2(k, "ur", a, zero));
        }
    }
    CU_ASSERT_STRING_EQUAL(call2(c, "f0", val_int(-7), val_int(2)), "-4");
    CU_ASSERT_STRING_EQUAL(call2(c, "f1", val_int(-7), val_int(2)), "-3");
    CU_ASSERT_STRING_EQUAL(call2(c, "f2", val_int(-7), val_int(2)), "-4");
    CU_ASSERT_STRING_EQUAL(call2(c, "f0", val_int(7), val_int(-2)), "-4");
    CU_ASSERT_STRING_EQUAL(call2(c, "f2", val_int(5), val_int(-2)), "-3");
    CU_ASSERT_STRING_EQUAL(call2(c, "f0", val_int(7), val_int(0)), "error: division by zero");
    CU_ASSERT_STRING_EQUAL(call2(c, "f1", val_int(INT64_MIN), val_int(-1)), "error: integer overflow");
    CU_ASSERT_STRING_EQUAL(call2(c, "r0", rat(7, 2), val_int(0)), "error: division by zero");
    /* the error points at the `/`, as the division's does */
    const char *at = "proc f(a: int, b: int) -> int {\n  return 1 + floor(a / b)\n}\n";
    Run r;
    Value args[2] = { val_int(3), val_int(0) };
    CU_ASSERT_EQUAL(run_text(&r, at, "f", args, 2, NULL), -1);
    CU_ASSERT_STRING_EQUAL(r.vm.error, "division by zero");
    CU_ASSERT_EQUAL(r.vm.error_offset, (uint32_t)(strstr(at, "/ b") - at));
}

/* Products and remainders of ints, worked inline by the VM, agree with
 * val_mul and val_mod, overflow and division by zero included. */
static void test_products_and_remainders(void)
{
    Compiled *c = compile_text("proc m(a: int, b: int) -> int { return a * b }\n"
                               "proc mk(a: int, b: int) -> int { return a * 3 + b }\n"
                               "proc md(a: int, b: int) -> int { return a % b }\n"
                               "proc mq(a: rat, b: int) -> rat { return a * b }\n", NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT(uses_op(c, "mk", OP_MULK));
    for (size_t i = 0; i < sizeof quotient_as / sizeof *quotient_as; i++)
        for (size_t j = 0; j < sizeof quotient_bs / sizeof *quotient_bs; j++) {
            Value a = val_int(quotient_as[i]), b = val_int(quotient_bs[j]), want;
            char text[400];
            const char *e = val_mul(a, b, &want);
            snprintf(text, sizeof text, e ? "error: %s" : "%s", e ? e : show_value(want));
            CU_ASSERT_STRING_EQUAL(call2(c, "m", a, b), text);
            e = val_mod(a, b, &want);
            snprintf(text, sizeof text, e ? "error: %s" : "%s", e ? e : show_value(want));
            CU_ASSERT_STRING_EQUAL(call2(c, "md", a, b), text);
            e = val_mul(a, val_int(3), &want);
            if (!e)
                e = val_add(want, val_int(0), &want);
            snprintf(text, sizeof text, e ? "error: %s" : "%s", e ? e : show_value(want));
            CU_ASSERT_STRING_EQUAL(call2(c, "mk", a, val_int(0)), text);
        }
    CU_ASSERT_STRING_EQUAL(call2(c, "mq", rat(3, 4), val_int(2)), "3/2");
    CU_ASSERT_STRING_EQUAL(call2(c, "mq", rat(3, 4), val_int(-4)), "-3");
    CU_ASSERT_STRING_EQUAL(call2(c, "m", val_int(INT64_MIN), val_int(-1)), "error: integer overflow");
}

/* count(roll n dS cmp k) as ROLL_COUNTK, the dice counted as they are
 * drawn, gives what the pool and its count give, on the same dice, for
 * every comparison and for k below, within and above the faces; with
 * scripted dice (no generator to draw from) it takes the pool's path. */
static void test_roll_count(void)
{
    static const char *ops[] = { "==", "!=", "<", "<=", ">", ">=" };
    for (int o = 0; o < 6; o++) {
        char src[512];
        snprintf(src, sizeof src,
                 "proc fused(k: int) -> int { return count(roll 7d6 %s k) }\n"
                 "proc fused3(k: int) -> int { return count(roll 7d6 %s 3) + k }\n"
                 "proc apart(k: int) -> int { let p = roll 7d6  return count(p %s k) }\n",
                 ops[o], ops[o], ops[o]);
        Compiled *c = compile_text(src, NULL, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        CU_ASSERT(uses_op(c, "fused3", OP_ROLL_COUNTK) && !uses_op(c, "apart", OP_ROLL_COUNTK));
        for (int64_t k = -1; k <= 8; k++) {
            Run a, b;
            run_seeded(&a, c, 40 + (uint64_t)k);
            run_seeded(&b, c, 40 + (uint64_t)k);
            Value arg = val_int(k);
            for (int t = 0; t < 50; t++) {
                CU_ASSERT_EQUAL_FATAL(run_call(&a, "fused", &arg, 1), 0);
                CU_ASSERT_EQUAL_FATAL(run_call(&b, "apart", &arg, 1), 0);
                CU_ASSERT_EQUAL(a.result.as.i, b.result.as.i);
            }
            CU_ASSERT_EQUAL(rng_next(&a.rng.rng), rng_next(&b.rng.rng));   /* the same dice drawn */
        }
        Run r;
        Value zero = val_int(0);
        CU_ASSERT_EQUAL(run_text(&r, src, "fused3", &zero, 1, "1,2,3,4,5,6,3"), 0);
        static const int64_t want[] = { 2, 5, 2, 4, 3, 5 };
        CU_ASSERT_EQUAL(r.result.as.i, want[o]);
    }
    /* a roll that cannot be made fails as the pool's does, at the roll */
    const char *bad = "proc f() -> int {\n  return 1 + count(roll 2000000d6 >= 4)\n}\n";
    Run r;
    CU_ASSERT_EQUAL(run_text(&r, bad, "f", NULL, 0, NULL), -1);
    CU_ASSERT(contains(r.vm.error, "over the limit"));
    CU_ASSERT_EQUAL(r.vm.error_offset, (uint32_t)(strstr(bad, "roll 2000000d6") - bad));
}

/* A test of two values and its branch (JUMP_CMP) agrees with the test's
 * value, for each comparison, on ints, rationals and both mixed. */
static void test_compare_and_branch(void)
{
    static const char *ops[] = { "==", "!=", "<", "<=", ">", ">=" };
    static const int64_t nums[][2] = { { 1, 1 }, { 2, 1 }, { 3, 1 }, { 5, 2 }, { -1, 2 }, { 4, 2 } };
    for (int o = 0; o < 6; o++) {
        char src[512];
        snprintf(src, sizeof src,
                 "proc branch(a: rat, b: rat) -> int { if a %s b { return 1 } return 0 }\n"
                 "proc test(a: rat, b: rat) -> bool { return a %s b }\n", ops[o], ops[o]);
        Compiled *c = compile_text(src, NULL, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        CU_ASSERT(uses_op(c, "branch", OP_JUMP_CMP));
        for (size_t i = 0; i < sizeof nums / sizeof *nums; i++)
            for (size_t j = 0; j < sizeof nums / sizeof *nums; j++) {
                Value a = nums[i][1] == 1 ? val_int(nums[i][0]) : rat(nums[i][0], nums[i][1]);
                Value b = nums[j][1] == 1 ? val_int(nums[j][0]) : rat(nums[j][0], nums[j][1]);
                CU_ASSERT_STRING_EQUAL(call2(c, "branch", a, b), strcmp(call2(c, "test", a, b), "true") ? "0" : "1");
            }
    }
}

static void test_strings_and_bools(void)
{
    EVAL("str", "\"hit\" + \"s\"", "\"hits\"");
    EVAL("bool", "\"a\" == \"a\" and \"a\" != \"b\"", "true");
    EVAL("bool", "not true or false", "false");
    EVAL("bool", "not (true and false)", "true");
}

/* ---- control ---- */

static void test_if_chains(void)
{
    const char *src = "proc f(x: int) -> str {\n"
                      "  if x < 0 { return \"negative\" }\n"
                      "  else if x == 0 { return \"zero\" }\n"
                      "  else if x < 10 { return \"small\" }\n"
                      "  else { return \"large\" }\n"
                      "}\n";
    static const struct { int64_t x; const char *want; } cases[] = {
        { -5, "\"negative\"" }, { 0, "\"zero\"" }, { 9, "\"small\"" }, { 10, "\"large\"" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Run r;
        Value x = val_int(cases[i].x);
        CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "f", &x, 1, NULL), cases[i].want);
    }
}

static void test_locals(void)
{
    const char *src = "proc f(n: int) -> int {\n"
                      "  let total = 0\n"
                      "  total = total + n\n"
                      "  if n > 2 { let total = 100\n total = total + 1 }\n"
                      "  total = total * 2\n"
                      "  return total\n"
                      "}\n";
    Run r;
    Value n = val_int(5);
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "f", &n, 1, NULL), "10");
}

static void test_short_circuit(void)
{
    /* the right operand's die is not rolled when the left decides */
    const char *src = "proc both(a: bool) -> bool { return a and roll d6 == 6 }\n"
                      "proc either(a: bool) -> bool { return a or roll d6 == 6 }\n";
    Run r;
    Value f = val_bool(false), t = val_bool(true);
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "both", &f, 1, "6"), "false");
    CU_ASSERT_EQUAL(dice_used(&r), 0);
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "both", &t, 1, "6"), "true");
    CU_ASSERT_EQUAL(dice_used(&r), 1);
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "both", &t, 1, "5"), "false");
    CU_ASSERT_EQUAL(dice_used(&r), 1);
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "either", &t, 1, "1"), "true");
    CU_ASSERT_EQUAL(dice_used(&r), 0);
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "either", &f, 1, "6"), "true");
    CU_ASSERT_EQUAL(dice_used(&r), 1);
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "either", &f, 1, "2"), "false");
    CU_ASSERT_EQUAL(dice_used(&r), 1);

    /* short-circuiting also skips errors: the division never happens */
    EVAL("bool", "false and 1 / abs(0) > 1", "false");
    EVAL("bool", "true or 1 / abs(0) > 1", "true");
    EVAL("bool", "true and 1 / abs(0) > 1", "error: division by zero");
}

static void test_short_circuit_chains(void)
{
    /* a chain stops at the first deciding operand, however long */
    const char *src = "proc f() -> bool { return roll d6 > 3 and roll d6 > 3 and roll d6 > 3 }\n"
                      "proc g() -> bool { return roll d6 > 3 or roll d6 > 3 or roll d6 > 3 }\n";
    Run r;
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "f", NULL, 0, "4,1,6,6"), "false");
    CU_ASSERT_EQUAL(dice_used(&r), 2);
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "f", NULL, 0, "4,5,6"), "true");
    CU_ASSERT_EQUAL(dice_used(&r), 3);
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "g", NULL, 0, "1,5,1"), "true");
    CU_ASSERT_EQUAL(dice_used(&r), 2);
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "g", NULL, 0, "1,2,3"), "false");
    CU_ASSERT_EQUAL(dice_used(&r), 3);
}

static const char *recursive =
    "proc fib(n: int) -> int { if n < 2 { return n } return fib(n - 1) + fib(n - 2) }\n"
    "proc fact(n: int) -> int { if n == 0 { return 1 } return n * fact(n - 1) }\n"
    "proc down(n: int) -> int { if n == 0 { return 0 } return 1 + down(n - 1) }\n"
    "proc forever(n: int) -> int { return forever(n + 1) }\n";

static void test_recursion(void)
{
    Run r;
    Value n = val_int(20);
    CU_ASSERT_STRING_EQUAL(run_dice(&r, recursive, "fib", &n, 1, NULL), "6765");
    n = val_int(1);
    CU_ASSERT_STRING_EQUAL(run_dice(&r, recursive, "fib", &n, 1, NULL), "1");
    n = val_int(20);
    CU_ASSERT_STRING_EQUAL(run_dice(&r, recursive, "fact", &n, 1, NULL), "2432902008176640000");
    n = val_int(21);
    CU_ASSERT_STRING_EQUAL(run_dice(&r, recursive, "fact", &n, 1, NULL), "error: integer overflow");
    n = val_int(900);
    CU_ASSERT_STRING_EQUAL(run_dice(&r, recursive, "down", &n, 1, NULL), "900");
}

static void test_recursion_limit(void)
{
    Run r;
    Value n = val_int(5000);
    CU_ASSERT_EQUAL(run_text(&r, recursive, "down", &n, 1, NULL), -1);
    CU_ASSERT(contains(r.vm.error, "recursion limit reached: more than 1000 calls active at once when calling 'down'"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.vm.error_proto);
    CU_ASSERT_STRING_EQUAL(r.vm.error_proto->name, "down");

    /* a lower limit */
    Compiled *c = compile_text(recursive, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    run_scripted(&r, c, NULL);
    r.vm.limits.max_depth = 50;
    n = val_int(40);
    CU_ASSERT_EQUAL(run_call(&r, "down", &n, 1), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "40");
    n = val_int(60);
    CU_ASSERT_EQUAL(run_call(&r, "down", &n, 1), -1);
    CU_ASSERT(contains(r.vm.error, "more than 50 calls active at once"));
    /* the machine is usable after an error */
    n = val_int(10);
    CU_ASSERT_EQUAL(run_call(&r, "fib", &n, 1), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "55");
}

static void test_step_limit(void)
{
    Compiled *c = compile_text(recursive, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    Run r;
    run_scripted(&r, c, NULL);
    /* forever() runs 4 instructions a call; 1001 stops it mid-procedure
     * (see test_step_limit_location for a limit that falls on a call) */
    r.vm.limits.max_steps = 1001;
    Value n = val_int(0);
    CU_ASSERT_EQUAL(run_call(&r, "forever", &n, 1), -1);
    CU_ASSERT(contains(r.vm.error, "step limit reached: 1001 instructions without finishing"));
    CU_ASSERT_EQUAL(r.vm.steps, 1002);
    CU_ASSERT_STRING_EQUAL(r.vm.error_proto->name, "forever");
    CU_ASSERT(r.vm.error_depth > 200);
    /* the count starts again for each call */
    n = val_int(5);
    CU_ASSERT_EQUAL(run_call(&r, "fib", &n, 1), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "5");
    n = val_int(20);
    CU_ASSERT_EQUAL(run_call(&r, "fib", &n, 1), -1);
    CU_ASSERT(contains(r.vm.error, "step limit reached"));
}

static void test_reroll(void)
{
    const char *src = "proc f() -> int { let a = roll d6\n if a < 3 { reroll }\n return a }\n"
                      "proc g(n: int) -> int { let a = roll d6\n if a == 1 { reroll }\n return n * 10 + a }\n"
                      "proc h() -> int { let x = roll d6\n return x * 100 + g(3) }\n"
                      "proc always() -> int { reroll }\n";
    Run r;
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "f", NULL, 0, "1,2,5,6"), "5");
    CU_ASSERT_EQUAL(dice_used(&r), 3);
    /* the arguments survive a reroll */
    Value n = val_int(7);
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "g", &n, 1, "1,1,1,4"), "74");
    CU_ASSERT_EQUAL(dice_used(&r), 4);
    /* a reroll restarts only the procedure that rerolls, not its caller */
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "h", NULL, 0, "4,1,1,6"), "436");
    CU_ASSERT_EQUAL(dice_used(&r), 4);
    /* out of dice while rerolling */
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "f", NULL, 0, "1,2"),
                           "error: ran out of scripted dice: 2 given, a d6 needs one more");
}

static void test_reroll_limit(void)
{
    const char *src = "proc always() -> int { reroll }\n"
                      "proc f() -> int { let a = roll d6\n if a < 6 { reroll }\n return a }\n"
                      "proc never() -> int { let a = roll d6\n if a < 7 { reroll }\n return a }\n";
    Run r;
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "always", NULL, 0, NULL),
                           "error: reroll limit reached: rerolled 1000000 times without a result (can the reroll condition ever be false?)");

    Compiled *c = compile_text(src, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    run_seeded(&r, c, 1);
    r.vm.limits.max_rerolls = 10;
    CU_ASSERT_EQUAL(run_call(&r, "always", NULL, 0), -1);
    CU_ASSERT(contains(r.vm.error, "reroll limit reached: rerolled 10 times"));

    /* the limit counts rerolls per top-level call: 10 allowed, the 11th fails */
    run_scripted(&r, c, "1,1,1,1,1,1,1,1,1,1,6");
    r.vm.limits.max_rerolls = 10;
    CU_ASSERT_EQUAL(run_call(&r, "f", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "6");
    run_scripted(&r, c, "1,1,1,1,1,1,1,1,1,1,1,6");
    r.vm.limits.max_rerolls = 10;
    CU_ASSERT_EQUAL(run_call(&r, "f", NULL, 0), -1);
    CU_ASSERT(contains(r.vm.error, "reroll limit reached"));

    /* with a step limit lower than the reroll limit, the step limit stops
     * it (never() runs 8 instructions a round: 50 stops it mid-round) */
    run_seeded(&r, c, 3);
    r.vm.limits.max_steps = 50;
    CU_ASSERT_EQUAL(run_call(&r, "never", NULL, 0), -1);
    CU_ASSERT(contains(r.vm.error, "step limit reached"));
}

/* Where a step-limit error points.  The limit can strike at the first
 * instruction of a procedure, just after a call or a reroll; the error must
 * still point into that procedure's line table (at its first instruction),
 * never before its code. */
static void test_step_limit_location(void)
{
    const char *src = "proc first() -> int { return 1 }\n"
                      "proc forever(n: int) -> int { return forever(n + 1) }\n"
                      "proc always() -> int { reroll }\n";
    Compiled *c = compile_text(src, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    uint32_t forever_at = (uint32_t)(strstr(src, "proc forever") - src);
    uint32_t always_at = (uint32_t)(strstr(src, "proc always") - src);
    Run r;
    run_scripted(&r, c, NULL);
    r.vm.limits.max_steps = 50;
    CU_ASSERT_EQUAL(run_call(&r, "always", NULL, 0), -1);
    CU_ASSERT(contains(r.vm.error, "step limit reached"));
    CU_ASSERT(r.vm.error_offset >= always_at && r.vm.error_offset < strlen(src));

    run_scripted(&r, c, NULL);
    r.vm.limits.max_steps = 1000;   /* the 1001st instruction starts a call */
    Value n = val_int(0);
    CU_ASSERT_EQUAL(run_call(&r, "forever", &n, 1), -1);
    CU_ASSERT(contains(r.vm.error, "step limit reached"));
    CU_ASSERT(r.vm.error_offset >= forever_at && r.vm.error_offset < always_at);
}

/* ---- dice and pools ---- */

static const char *pools =
    "proc p() -> pool { return roll 5d6 }\n"
    "proc hi2() -> pool { return highest(2, roll 5d6) }\n"
    "proc lo2() -> pool { return lowest(2, roll 5d6) }\n"
    "proc hi9() -> pool { return highest(9, roll 5d6) }\n"
    "proc hi0() -> pool { return highest(0, roll 5d6) }\n"
    "proc top() -> int { return highest(roll 5d6) }\n"
    "proc bottom() -> int { return lowest(roll 5d6) }\n"
    "proc n() -> int { return count(roll 5d6) }\n"
    "proc s() -> int { return sum(roll 5d6) }\n"
    "proc hits() -> int { return count(roll 5d6 >= 3) }\n"
    "proc filt() -> pool { return roll 5d6 != 6 }\n"
    "proc half() -> pool { return roll 5d6 > 5/2 }\n"
    "proc any6() -> bool { return any(roll 5d6 == 6) }\n"
    "proc any1() -> bool { return any(roll 5d6 == 1) }\n"
    "proc all2() -> bool { return all(roll 5d6 >= 2) }\n"
    "proc all1() -> bool { return all(roll 5d6 >= 1) }\n"
    "proc nonempty() -> bool { return any(roll 5d6 > 6) }\n"
    "proc some() -> bool { return any(roll 5d6 >= 6) }\n"
    "proc anyp() -> bool { return any(roll 5d6 > 4) }\n"
    "proc dbl() -> bool { return doubles(roll 5d6) }\n"
    "proc one() -> int { return roll d6 }\n";

static void test_pool_operations(void)
{
    /* the dice 3,6,1,6,2 make the pool [1, 2, 3, 6, 6] */
    static const struct { const char *proc, *want; } cases[] = {
        { "p", "[1, 2, 3, 6, 6]" },
        { "hi2", "[6, 6]" },
        { "lo2", "[1, 2]" },
        { "hi9", "[1, 2, 3, 6, 6]" },
        { "hi0", "[]" },
        { "top", "6" },
        { "bottom", "1" },
        { "n", "5" },
        { "s", "18" },
        { "hits", "3" },
        { "filt", "[1, 2, 3]" },
        { "half", "[3, 6, 6]" },
        { "any6", "true" },
        { "any1", "true" },
        { "all2", "false" },
        { "all1", "true" },
        { "nonempty", "false" },
        { "some", "true" },
        { "dbl", "true" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Run r;
        const char *got = run_dice(&r, pools, cases[i].proc, NULL, 0, "3,6,1,6,2");
        if (strcmp(got, cases[i].want) != 0)
            fprintf(stderr, "\n%s: got %s, want %s\n", cases[i].proc, got, cases[i].want);
        CU_ASSERT_STRING_EQUAL(got, cases[i].want);
        CU_ASSERT_EQUAL(dice_used(&r), 5);
    }
}

static void test_pool_without_doubles(void)
{
    Run r;
    CU_ASSERT_STRING_EQUAL(run_dice(&r, pools, "dbl", NULL, 0, "5,3,1,2,4"), "false");
    CU_ASSERT_STRING_EQUAL(run_dice(&r, pools, "dbl", NULL, 0, "5,3,1,1,4"), "true");
    CU_ASSERT_STRING_EQUAL(run_dice(&r, pools, "dbl", NULL, 0, "5,3,6,2,5"), "true");
    CU_ASSERT_STRING_EQUAL(run_dice(&r, pools, "p", NULL, 0, "5,3,1,2,4"), "[1, 2, 3, 4, 5]");
    CU_ASSERT_STRING_EQUAL(run_dice(&r, pools, "any6", NULL, 0, "5,3,1,2,4"), "false");
    CU_ASSERT_STRING_EQUAL(run_dice(&r, pools, "all2", NULL, 0, "5,3,6,2,4"), "true");
    CU_ASSERT_STRING_EQUAL(run_dice(&r, pools, "anyp", NULL, 0, "1,1,1,1,1"), "false");
}

static void test_pool_edge_cases(void)
{
    const char *src = "proc empty_top() -> int { return highest(roll 3d6 > 6) }\n"
                      "proc empty_bottom() -> int { return lowest(roll 0 d6) }\n"
                      "proc none() -> pool { return roll 0 d6 }\n"
                      "proc none_any() -> bool { return any(roll 0 d6) }\n"
                      "proc none_all() -> bool { return all(roll 0 d6 == 6) }\n"
                      "proc negative(n: int) -> pool { return roll n d6 }\n"
                      "proc neg_highest() -> pool { return highest(0 - 1, roll 2d6) }\n"
                      "proc big() -> pool { return roll 20d100 }\n"
                      "proc many(n: int) -> int { return count(roll n d6) }\n";
    Run r;
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "empty_top", NULL, 0, "1,2,3"), "error: highest() of an empty pool");
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "empty_bottom", NULL, 0, NULL), "error: lowest() of an empty pool");
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "none", NULL, 0, NULL), "[]");
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "none_any", NULL, 0, NULL), "false");
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "none_all", NULL, 0, NULL), "true");
    Value n = val_int(-1);
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "negative", &n, 1, NULL), "error: cannot roll a negative number of dice (-1)");
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "neg_highest", NULL, 0, "1,2"),
                           "error: highest() of a negative number of dice (-1)");
    /* sorting works past the small-die counting sort */
    CU_ASSERT_STRING_EQUAL(run_dice(&r, src, "big", NULL, 0,
                                    "100,1,50,99,2,77,3,3,64,65,1,100,42,17,18,90,91,5,55,54"),
                           "[1, 1, 2, 3, 3, 5, 17, 18, 42, 50, 54, 55, 64, 65, 77, 90, 91, 99, 100, 100]");
    /* the pool size limit */
    Compiled *c = compile_text(src, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    run_seeded(&r, c, 7);
    r.vm.limits.max_pool = 100;
    n = val_int(100);
    CU_ASSERT_EQUAL(run_call(&r, "many", &n, 1), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "100");
    n = val_int(101);
    CU_ASSERT_EQUAL(run_call(&r, "many", &n, 1), -1);
    CU_ASSERT_STRING_EQUAL(r.vm.error, "a pool of 101 dice is over the limit of 100");
}

static void test_dice_errors(void)
{
    Run r;
    CU_ASSERT_STRING_EQUAL(run_dice(&r, pools, "one", NULL, 0, "7"),
                           "error: scripted die #1 is 7, which is not a face of a d6 (1..6)");
    CU_ASSERT_STRING_EQUAL(run_dice(&r, pools, "p", NULL, 0, "1,2,3"),
                           "error: ran out of scripted dice: 3 given, a pool of 5 d6 needs 2 more");
    CU_ASSERT_STRING_EQUAL(run_dice(&r, pools, "p", NULL, 0, "1,2,3,4,0"),
                           "error: scripted die #5 is 0, which is not a face of a d6 (1..6)");
}

static void test_seeded_runs(void)
{
    /* the same seed gives the same results; faces stay in range */
    Compiled *c = compile_text(pools, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    Run a, b;
    run_seeded(&a, c, 12345);
    run_seeded(&b, c, 12345);
    int differ = 0;
    for (int i = 0; i < 200; i++) {
        CU_ASSERT_EQUAL_FATAL(run_call(&a, "p", NULL, 0), 0);
        CU_ASSERT_EQUAL_FATAL(run_call(&b, "p", NULL, 0), 0);
        const Pool *pa = a.result.as.p;
        CU_ASSERT_EQUAL_FATAL(pa->n, 5);
        CU_ASSERT_EQUAL(val_order(a.result, b.result), 0);
        for (int k = 0; k < 5; k++) {
            CU_ASSERT(pa->face[k] >= 1 && pa->face[k] <= 6);
            if (k)
                CU_ASSERT(pa->face[k - 1] <= pa->face[k]);
        }
        if (i > 0 && pa->face[0] != 1)
            differ++;
    }
    CU_ASSERT(differ > 0);
}

/* ---- error locations ---- */

static void test_error_location(void)
{
    const char *src = "proc ratio(x: int) -> rat {\n"
                      "  let y = x + 1\n"
                      "  return 10 / (x - 2)\n"
                      "}\n"
                      "proc outer() -> rat { return 1 + ratio(2) }\n";
    Run r;
    Value x = val_int(2);
    CU_ASSERT_EQUAL(run_text(&r, src, "ratio", &x, 1, NULL), -1);
    CU_ASSERT_STRING_EQUAL(r.vm.error, "division by zero");
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.vm.error_proto);
    CU_ASSERT_STRING_EQUAL(r.vm.error_proto->name, "ratio");
    /* the error points at the operator of the failing division */
    CU_ASSERT_EQUAL(r.vm.error_offset, (uint32_t)(strstr(src, "/ (x - 2)") - src));
    CU_ASSERT_EQUAL(r.vm.error_depth, 0);

    /* through a call: the error is in the callee, the caller is recorded */
    CU_ASSERT_EQUAL(run_text(&r, src, "outer", NULL, 0, NULL), -1);
    CU_ASSERT_STRING_EQUAL(r.vm.error_proto->name, "ratio");
    CU_ASSERT_EQUAL(r.vm.error_offset, (uint32_t)(strstr(src, "/ (x - 2)") - src));
    CU_ASSERT_EQUAL_FATAL(r.vm.error_depth, 1);
    CU_ASSERT_STRING_EQUAL(r.vm.frames[0].proto->name, "outer");
    const Proto *caller = r.vm.frames[0].proto;
    uint32_t call_at = caller->offsets[r.vm.frames[0].ip - caller->code - 1];
    CU_ASSERT_EQUAL(call_at, (uint32_t)(strstr(src, "ratio(2)") - src));
}

static void test_error_location_of_dice(void)
{
    const char *src = "proc f() -> int {\n"
                      "  let a = roll d6\n"
                      "  let p = roll 3d8\n"
                      "  return a + highest(p > 8)\n"
                      "}\n";
    Run r;
    /* running out at the pool */
    CU_ASSERT_EQUAL(run_text(&r, src, "f", NULL, 0, "1,2"), -1);
    CU_ASSERT(contains(r.vm.error, "ran out of scripted dice"));
    CU_ASSERT_EQUAL(r.vm.error_offset, (uint32_t)(strstr(src, "roll 3d8") - src));
    /* a face too large for the first die */
    CU_ASSERT_EQUAL(run_text(&r, src, "f", NULL, 0, "8,2,3,4"), -1);
    CU_ASSERT_EQUAL(r.vm.error_offset, (uint32_t)(strstr(src, "roll d6") - src));
    /* the empty pool at highest() */
    CU_ASSERT_EQUAL(run_text(&r, src, "f", NULL, 0, "1,2,3,4"), -1);
    CU_ASSERT_STRING_EQUAL(r.vm.error, "highest() of an empty pool");
    CU_ASSERT_EQUAL(r.vm.error_offset, (uint32_t)(strstr(src, "highest(") - src));
}

static void test_overflow_location(void)
{
    const char *src = "proc f(n: int) -> int {\n"
                      "  let big = n * 2\n"
                      "  let bigger = big * big\n"
                      "  return bigger\n"
                      "}\n";
    Run r;
    Value n = val_int(3);
    CU_ASSERT_EQUAL(run_text(&r, src, "f", &n, 1, NULL), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "36");
    n = val_int(INT64_MAX / 2);
    CU_ASSERT_EQUAL(run_text(&r, src, "f", &n, 1, NULL), -1);
    CU_ASSERT_STRING_EQUAL(r.vm.error, "integer overflow");
    CU_ASSERT_EQUAL(r.vm.error_offset, (uint32_t)(strstr(src, "* big") - src));
    n = val_int(INT64_MAX);
    CU_ASSERT_EQUAL(run_text(&r, src, "f", &n, 1, NULL), -1);
    CU_ASSERT_EQUAL(r.vm.error_offset, (uint32_t)(strstr(src, "* 2") - src));
}

static void test_wrong_argument_count(void)
{
    Compiled *c = compile_text("proc f(a: int) -> int { return a }", NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    Run r;
    run_scripted(&r, c, NULL);
    CU_ASSERT_EQUAL(vm_call(&r.vm, compiler_find_proc(c, "f")->proto, NULL, 0, &r.result), -1);
    CU_ASSERT_STRING_EQUAL(r.vm.error, "'f' takes 1 arguments, 0 given");
}

static void test_no_arguments_as_null(void)
{
    /* vm.h: "Call protos[index] with nargs arguments" — with none, the
     * argument pointer may be NULL, as api/args.c passes for defaults.  (Under
     * -fsanitize=undefined this reports vm.c's memcpy(base, NULL, 0).) */
    Compiled *c = compile_text("proc f() -> int { return 42 }", NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    Run r;
    run_scripted(&r, c, NULL);
    CU_ASSERT_EQUAL(vm_call(&r.vm, compiler_find_proc(c, "f")->proto, NULL, 0, &r.result), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "42");
}

/* ---- tracing ---- */

typedef struct Event {
    int kind;                /* 0 roll, 1 reroll */
    const char *proc;
    uint32_t offset;
    int32_t sides;
    int64_t n;
    char dice[64];
} Event;

typedef struct Events {
    Event items[16];
    int n;
} Events;

static void on_roll(void *ud, const Proto *p, uint32_t offset, int32_t sides, int64_t n, const Pool *pool,
                    int64_t face)
{
    Events *ev = ud;
    if (ev->n == 16)
        return;
    Event *e = &ev->items[ev->n++];
    *e = (Event){ 0, p->name, offset, sides, n, "" };
    snprintf(e->dice, sizeof e->dice, "%s", pool ? show_value(val_pool(pool)) : show_value(val_int(face)));
}

static void on_reroll(void *ud, const Proto *p, uint32_t offset)
{
    Events *ev = ud;
    if (ev->n < 16)
        ev->items[ev->n++] = (Event){ 1, p->name, offset, 0, 0, "" };
}

static void test_trace(void)
{
    const char *src = "proc f() -> int {\n"
                      "  let a = roll d6\n"
                      "  if a == 1 { reroll }\n"
                      "  return a + count(roll 3d8 >= 5)\n"
                      "}\n";
    Compiled *c = compile_text(src, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    Run r;
    run_scripted(&r, c, "1,4,8,2,5");
    Events ev = { .n = 0 };
    VmTrace trace = { .ud = &ev, .on_roll = on_roll, .on_reroll = on_reroll };
    r.vm.trace = &trace;
    CU_ASSERT_EQUAL(run_call(&r, "f", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "6");
    CU_ASSERT_EQUAL_FATAL(ev.n, 4);
    uint32_t die_at = (uint32_t)(strstr(src, "roll d6") - src);
    uint32_t reroll_at = (uint32_t)(strstr(src, "reroll") - src);
    uint32_t pool_at = (uint32_t)(strstr(src, "roll 3d8") - src);
    CU_ASSERT_EQUAL(ev.items[0].kind, 0);
    CU_ASSERT_EQUAL(ev.items[0].offset, die_at);
    CU_ASSERT_EQUAL(ev.items[0].sides, 6);
    CU_ASSERT_EQUAL(ev.items[0].n, 1);
    CU_ASSERT_STRING_EQUAL(ev.items[0].dice, "1");
    CU_ASSERT_EQUAL(ev.items[1].kind, 1);
    CU_ASSERT_EQUAL(ev.items[1].offset, reroll_at);
    CU_ASSERT_STRING_EQUAL(ev.items[1].proc, "f");
    CU_ASSERT_STRING_EQUAL(ev.items[2].dice, "4");
    CU_ASSERT_EQUAL(ev.items[3].offset, pool_at);
    CU_ASSERT_EQUAL(ev.items[3].sides, 8);
    CU_ASSERT_EQUAL(ev.items[3].n, 3);
    CU_ASSERT_STRING_EQUAL(ev.items[3].dice, "[2, 5, 8]");
}

/* ---- values ---- */

static Value make_pool(int32_t sides, int n, const int32_t *faces)
{
    Pool *p = pool_alloc(NULL, sides, n);
    memcpy(p->face, faces, sizeof(int32_t) * (size_t)n);
    pool_sort(p);
    return val_pool(p);
}

static const char *json(Value v, const Program *prog)
{
    static char buf[2][128];
    static int next;
    char *b = buf[next++ % 2];
    FILE *f = fmemopen(b, sizeof buf[0], "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    val_print_json(f, v, prog);
    fclose(f);
    return b;
}

static void test_value_order_and_printing(void)
{
    static const int32_t a[] = { 3, 1 }, b[] = { 1, 4 }, c[] = { 6 };
    Value pa = make_pool(6, 2, a), pb = make_pool(6, 2, b), pc = make_pool(6, 1, c);
    /* pools: by size, then faces */
    CU_ASSERT(val_order(pa, pb) < 0);
    CU_ASSERT(val_order(pb, pa) > 0);
    CU_ASSERT(val_order(pc, pa) < 0);
    CU_ASSERT_EQUAL(val_order(pa, make_pool(6, 2, (const int32_t[]){ 1, 3 })), 0);
    /* numbers by value, across ints and rationals */
    CU_ASSERT(val_equal(val_int(2), rat(4, 2)));
    CU_ASSERT(val_order(rat(1, 3), rat(1, 2)) < 0);
    CU_ASSERT(val_order(val_int(-1), rat(-1, 2)) < 0);
    /* then bools, enums, strings, pools */
    CU_ASSERT(val_order(val_int(1000), val_bool(false)) < 0);
    CU_ASSERT(val_order(val_bool(true), val_enum(0, 0)) < 0);
    CU_ASSERT(val_order(val_enum(0, 5), val_enum(1, 0)) < 0);
    CU_ASSERT(val_order(val_enum(1, 1), val_enum(1, 0)) > 0);
    Value s1 = val_str(val_new_str("ab", 2)), s2 = val_str(val_new_str("abc", 3));
    CU_ASSERT(val_order(s1, s2) < 0);
    CU_ASSERT(val_order(s2, pa) < 0);

    static const char *members[] = { "none", "light" };
    EnumDesc enums[] = { { .name = "Cover", .nmembers = 2, .members = members } };
    static const char *fields[] = { "melee", "cover" };
    RecordDesc records[] = { { "Unit", 2, fields } };
    Program prog = { .enums = enums, .nenums = 1, .records = records, .nrecords = 1 };
    CU_ASSERT_STRING_EQUAL(json(rat(3, 2), &prog), "\"3/2\"");
    CU_ASSERT_STRING_EQUAL(json(rat(4, 2), &prog), "2");
    CU_ASSERT_STRING_EQUAL(json(val_enum(0, 1), &prog), "\"light\"");
    CU_ASSERT_STRING_EQUAL(json(pa, &prog), "[1, 3]");
    CU_ASSERT_STRING_EQUAL(json(val_str(val_new_str("a\"\n", 3)), &prog), "\"a\\\"\\n\"");
    Record *r = mem_alloc(sizeof(Record) + 2 * sizeof(Value));
    r->type = 0;
    r->n = 2;
    r->field[0] = val_int(3);
    r->field[1] = val_enum(0, 1);
    CU_ASSERT_STRING_EQUAL(json(val_record(r), &prog), "{\"melee\": 3, \"cover\": \"light\"}");
    CU_ASSERT_STRING_EQUAL(show_value(rat(-6, 4)), "-3/2");
}


/* ---- rules constructs ---- */

/* Compile script plus `proc f() -> TYPE { return EXPR }`, run f and return
 * the result as text, or "error: MESSAGE" if the run failed. */
static const char *eval_in(const char *script, const char *type, const char *expr)
{
    static char out[8][400];
    static int next;
    char *buf = out[next++ % 8];
    char src[4096];
    snprintf(src, sizeof src, "%s\nproc f() -> %s { return %s }\n", script, type, expr);
    Run r;
    if (run_text(&r, src, "f", NULL, 0, NULL) == 0)
        snprintf(buf, sizeof out[0], "%s", show(&r, r.result));
    else
        snprintf(buf, sizeof out[0], "error: %s", r.vm.error);
    return buf;
}

#define EVAL_IN(script, type, expr, want) CU_ASSERT_STRING_EQUAL(eval_in(script, type, expr), want)

static const char tables_src[] =
    "enum Cover { none, light, heavy }\n"
    "enum Formation { line, column }\n"
    "table cover_mod(c: Cover) -> int {\n"
    "  heavy: -2\n"
    "  none: 0\n"
    "  light: -1\n"
    "}\n"
    "table moves(f: Formation, c: Cover) -> rat {\n"
    "  columns  heavy light none\n"
    "  column:  -     ?     8\n"
    "  line:    1/2   4     6\n"
    "}\n"
    "table cost(n: int) -> int {\n"
    "  3: 30\n"
    "  1: 10\n"
    "  -2: 5\n"
    "}\n"
    "table band(n: int) -> Cover {\n"
    "  ..0: none\n"
    "  7, 9..: heavy\n"
    "  1..3: light\n"
    "}\n"
    "table uphill(b: bool) -> int {\n"
    "  false: 0\n"
    "  true: 2\n"
    "}\n"
    "table by_bool(n: int, b: bool) -> Cover {\n"
    "  columns true false\n"
    "  1: light none\n"
    "  2..: heavy light\n"
    "}\n"
    "table pair(a: Cover, b: Cover) -> bool {\n"
    "  columns none light heavy\n"
    "  none: true false false\n"
    "  light: false true false\n"
    "  heavy: false false true\n"
    "}\n";

static void test_table_lookups(void)
{
    /* one enum key, rows in any order */
    EVAL_IN(tables_src, "int", "cover_mod(none)", "0");
    EVAL_IN(tables_src, "int", "cover_mod(light)", "-1");
    EVAL_IN(tables_src, "int", "cover_mod(heavy)", "-2");
    /* two enum keys, columns in any order; int cells of a rat table */
    EVAL_IN(tables_src, "rat", "moves(line, heavy)", "1/2");
    EVAL_IN(tables_src, "rat", "moves(line, light)", "4");
    EVAL_IN(tables_src, "rat", "moves(column, none)", "8");
    EVAL_IN(tables_src, "rat", "moves(line, none) + moves(column, none)", "14");
    EVAL_IN(tables_src, "bool", "pair(light, light) and not pair(light, heavy) and pair(heavy, heavy)", "true");
    EVAL_IN(tables_src, "bool", "pair(none, heavy)", "false");
    /* exact int keys */
    EVAL_IN(tables_src, "int", "cost(1)", "10");
    EVAL_IN(tables_src, "int", "cost(3)", "30");
    EVAL_IN(tables_src, "int", "cost(-2)", "5");
    /* ranges, lists and open ends */
    EVAL_IN(tables_src, "Cover", "band(-9223372036854775807 - 1)", "none");
    EVAL_IN(tables_src, "Cover", "band(0)", "none");
    EVAL_IN(tables_src, "Cover", "band(1)", "light");
    EVAL_IN(tables_src, "Cover", "band(3)", "light");
    EVAL_IN(tables_src, "Cover", "band(7)", "heavy");
    EVAL_IN(tables_src, "Cover", "band(9)", "heavy");
    EVAL_IN(tables_src, "Cover", "band(9223372036854775807)", "heavy");
    /* bool keys, as rows and as columns */
    EVAL_IN(tables_src, "int", "uphill(true)", "2");
    EVAL_IN(tables_src, "int", "uphill(false)", "0");
    EVAL_IN(tables_src, "int", "uphill(1 < 2) + uphill(1 > 2)", "2");
    EVAL_IN(tables_src, "Cover", "by_bool(1, true)", "light");
    EVAL_IN(tables_src, "Cover", "by_bool(1, false)", "none");
    EVAL_IN(tables_src, "Cover", "by_bool(5, true)", "heavy");
    EVAL_IN(tables_src, "Cover", "by_bool(2, false)", "light");
}

static void test_table_lookup_errors(void)
{
    /* an int key the table does not list */
    EVAL_IN(tables_src, "int", "cost(2)", "error: table 'cost' has no row for 2");
    EVAL_IN(tables_src, "int", "cost(0)", "error: table 'cost' has no row for 0");
    EVAL_IN(tables_src, "int", "cost(4)", "error: table 'cost' has no row for 4");
    EVAL_IN(tables_src, "Cover", "band(4)", "error: table 'band' has no row for 4");
    EVAL_IN(tables_src, "Cover", "band(8)", "error: table 'band' has no row for 8");
    EVAL_IN(tables_src, "Cover", "by_bool(0, true)", "error: table 'by_bool' has no row for 0");

    /* '?' and '-' cells: the error points at the cell (a '?' is needed by
     * the addition, in f, which a note points at) */
    char src[4096];
    snprintf(src, sizeof src, "%s\nproc f(f: Formation, c: Cover) -> rat { return moves(f, c) + 1 }\n", tables_src);
    Run r;
    Value args[2] = { val_enum(1, 1), val_enum(0, 1) };   /* column, light */
    CU_ASSERT_EQUAL(run_text(&r, src, "f", args, 2, NULL), -1);
    CU_ASSERT_STRING_EQUAL(r.vm.error, "table 'moves' gives no value for column, light: the rules text does not "
                                       "say (marked '?')");
    CU_ASSERT(r.vm.error_unknown);
    CU_ASSERT_EQUAL(r.vm.error_offset, (uint32_t)(strstr(src, "?     8") - src));
    CU_ASSERT_PTR_NOT_NULL_FATAL(r.vm.error_proto);
    CU_ASSERT_STRING_EQUAL(r.vm.error_proto->name, "f");
    CU_ASSERT_EQUAL(r.vm.error_depth, 0);
    CU_ASSERT(r.vm.error_needed);
    CU_ASSERT_EQUAL(r.vm.error_needed_offset, (uint32_t)(strstr(src, "+ 1 }") - src));
    args[1] = val_enum(0, 2);   /* heavy */
    CU_ASSERT_EQUAL(run_text(&r, src, "f", args, 2, NULL), -1);
    CU_ASSERT_STRING_EQUAL(r.vm.error, "table 'moves' has no value for column, heavy: it does not apply (marked '-')");
    CU_ASSERT_EQUAL(r.vm.error_offset, (uint32_t)(strstr(src, "-     ?") - src));
    /* the other cells of that row are fine */
    args[1] = val_enum(0, 0);
    CU_ASSERT_EQUAL(run_text(&r, src, "f", args, 2, NULL), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "9");
}

static void test_bands_lookups(void)
{
    static const char src[] = "outcome Shot { miss \"Miss\", hit \"Hit\", kill }\n"
                              "bands shoot(total: int) -> Shot {\n"
                              "  ..2    => miss\n"
                              "  3, 5   => hit\n"
                              "  4      => miss\n"
                              "  6..    => kill\n"
                              "}\n"
                              "bands on_d6(die: int in 1..6) -> int {\n"
                              "  1..3 => 0\n"
                              "  4..6 => 1\n"
                              "}\n";
    EVAL_IN(src, "Shot", "shoot(-9223372036854775807 - 1)", "miss");
    EVAL_IN(src, "Shot", "shoot(2)", "miss");
    EVAL_IN(src, "Shot", "shoot(3)", "hit");
    EVAL_IN(src, "Shot", "shoot(4)", "miss");
    EVAL_IN(src, "Shot", "shoot(5)", "hit");
    EVAL_IN(src, "Shot", "shoot(6)", "kill");
    EVAL_IN(src, "Shot", "shoot(9223372036854775807)", "kill");
    EVAL_IN(src, "str", "text(shoot(3)) + text(shoot(0)) + text(shoot(8))", "\"HitMisskill\"");
    EVAL_IN(src, "int", "on_d6(1) + 10 * on_d6(6)", "10");
    /* outside the declared values there is no band */
    EVAL_IN(src, "int", "on_d6(7)", "error: no band of 'on_d6' covers 7");
    EVAL_IN(src, "int", "on_d6(0)", "error: no band of 'on_d6' covers 0");
}

/* ---- modifiers ---- */

typedef struct Note {
    int kind;
    char label[32];
    char value[32];
} Note;

typedef struct Notes {
    Note items[16];
    int n;
    char choices[256];
} Notes;

static void on_note(void *ud, const Proto *p, uint32_t offset, const MuStr *label, int kind, Value value)
{
    (void)p;
    (void)offset;
    Notes *ns = ud;
    if (ns->n == 16)
        return;
    Note *n = &ns->items[ns->n++];
    n->kind = kind;
    snprintf(n->label, sizeof n->label, "%s", label->bytes);
    snprintf(n->value, sizeof n->value, "%s", show_value(value));
}

/* The notes of a run as text: "+1 Label" for additions, "x 1/2 Label"
 * for factors, "cap 3 Label", "start 2 Label". */
static const char *notes_text(const Notes *ns)
{
    static char buf[1024];
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < ns->n; i++) {
        const Note *n = &ns->items[i];
        const char *sign = n->kind == NOTE_ADD ? (n->value[0] == '-' ? "" : "+")
                           : n->kind == NOTE_MUL ? "x " : n->kind == NOTE_CAP ? "cap " : "start ";
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s%s %s", i ? ", " : "", sign, n->value, n->label);
    }
    return buf;
}

/* Run proc of src with integer arguments, tracing notes; the result as
 * text and the notes in *ns. */
static const char *run_mods(const char *src, const char *proc, const int64_t *ints, int nargs, Notes *ns)
{
    static char buf[400];
    Compiled *c = compile_text(src, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    Run r;
    run_scripted(&r, c, NULL);
    memset(ns, 0, sizeof *ns);
    VmTrace trace = { .ud = ns, .on_note = on_note };
    r.vm.trace = &trace;
    Value args[8];
    for (int i = 0; i < nargs; i++)
        args[i] = val_int(ints[i]);
    if (run_call(&r, proc, args, nargs) != 0)
        snprintf(buf, sizeof buf, "error: %s", r.vm.error);
    else
        snprintf(buf, sizeof buf, "%s", show(&r, r.result));
    return buf;
}

static void test_modifier_order(void)
{
    /* the items apply top to bottom: a factor multiplies the total so far */
    static const char src[] = "modifiers add_then_halve(x: int) {\n"
                              "  start at x \"base\"\n"
                              "  true : +1 \"plus one\"\n"
                              "  true : * 1/2 \"halved\"\n"
                              "}\n"
                              "modifiers halve_then_add(x: int) {\n"
                              "  start at x \"base\"\n"
                              "  true : * 1/2 \"halved\"\n"
                              "  true : +1 \"plus one\"\n"
                              "}\n"
                              "modifiers add_then_cap(x: int) {\n"
                              "  start at x \"base\"\n"
                              "  true : +3 \"plus three\"\n"
                              "  cap ..4 \"at most 4\"\n"
                              "}\n"
                              "modifiers cap_then_add(x: int) {\n"
                              "  start at x \"base\"\n"
                              "  cap ..4 \"at most 4\"\n"
                              "  true : +3 \"plus three\"\n"
                              "}\n";
    Notes ns;
    int64_t three = 3;
    CU_ASSERT_STRING_EQUAL(run_mods(src, "add_then_halve", &three, 1, &ns), "2");
    CU_ASSERT_STRING_EQUAL(notes_text(&ns), "start 3 base, +1 plus one, x 1/2 halved");
    CU_ASSERT_STRING_EQUAL(run_mods(src, "halve_then_add", &three, 1, &ns), "5/2");
    CU_ASSERT_STRING_EQUAL(notes_text(&ns), "start 3 base, x 1/2 halved, +1 plus one");
    CU_ASSERT_STRING_EQUAL(run_mods(src, "add_then_cap", &three, 1, &ns), "4");
    CU_ASSERT_STRING_EQUAL(notes_text(&ns), "start 3 base, +3 plus three, cap 4 at most 4");
    CU_ASSERT_STRING_EQUAL(run_mods(src, "cap_then_add", &three, 1, &ns), "6");
    CU_ASSERT_STRING_EQUAL(notes_text(&ns), "start 3 base, +3 plus three");
    int64_t nine = 9;
    CU_ASSERT_STRING_EQUAL(run_mods(src, "cap_then_add", &nine, 1, &ns), "7");
    CU_ASSERT_STRING_EQUAL(notes_text(&ns), "start 9 base, cap 4 at most 4, +3 plus three");
}

static void test_modifier_items_apply(void)
{
    static const char src[] = "modifiers m(a: int, n: int) {\n"
                              "  one of {\n"
                              "    a > 1 : +1 \"big\"\n"
                              "    a > 0 : +10 \"small\"\n"
                              "    a < 0 : * 2 \"negative\"\n"
                              "  }\n"
                              "  each n : -2 \"per n\"\n"
                              "  cap -5..5 \"within five\"\n"
                              "}\n";
    Notes ns;
    /* without 'start at' the total starts at 0; only the first 'one of' that holds applies */
    int64_t a2[] = { 2, 0 };
    CU_ASSERT_STRING_EQUAL(run_mods(src, "m", a2, 2, &ns), "1");
    CU_ASSERT_STRING_EQUAL(notes_text(&ns), "+1 big");
    int64_t a1[] = { 1, 1 };
    CU_ASSERT_STRING_EQUAL(run_mods(src, "m", a1, 2, &ns), "5");
    CU_ASSERT_STRING_EQUAL(notes_text(&ns), "+10 small, -2 per n, cap 5 within five");
    int64_t a0[] = { 0, 0 };
    CU_ASSERT_STRING_EQUAL(run_mods(src, "m", a0, 2, &ns), "0");
    CU_ASSERT_EQUAL(ns.n, 0);
    /* each: the modifier times the count, also for a negative count */
    int64_t neg[] = { -1, -1 };
    CU_ASSERT_STRING_EQUAL(run_mods(src, "m", neg, 2, &ns), "2");
    CU_ASSERT_STRING_EQUAL(notes_text(&ns), "x 2 negative, +2 per n");
    int64_t many[] = { 0, 4 };
    CU_ASSERT_STRING_EQUAL(run_mods(src, "m", many, 2, &ns), "-5");
    CU_ASSERT_STRING_EQUAL(notes_text(&ns), "-8 per n, cap -5 within five");
    /* a cap that does not bite says nothing */
    int64_t two[] = { 0, 2 };
    CU_ASSERT_STRING_EQUAL(run_mods(src, "m", two, 2, &ns), "-4");
    CU_ASSERT_STRING_EQUAL(notes_text(&ns), "-4 per n");
    /* a modifier list is an int unless a factor may apply */
    Compiled *c = compile_text(src, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL(compiler_find_proc(c, "m")->ret.kind, TY_RAT);
    c = compile_text("modifiers k(x: bool) { x : +1 \"a\" }", NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL(compiler_find_proc(c, "k")->ret.kind, TY_INT);
}

/* ---- ladders, records, outcomes, choices ---- */

static void test_shift_saturates(void)
{
    static const char src[] = "ladder State { good, shaken, wavering, routing }\n"
                              "enum Other { x, y }\n";
    EVAL_IN(src, "State", "shift(shaken, 1)", "wavering");
    EVAL_IN(src, "State", "shift(shaken, -1)", "good");
    EVAL_IN(src, "State", "shift(shaken, 0)", "shaken");
    EVAL_IN(src, "State", "shift(good, -1)", "good");
    EVAL_IN(src, "State", "shift(routing, 1)", "routing");
    EVAL_IN(src, "State", "shift(good, 3)", "routing");
    EVAL_IN(src, "State", "shift(routing, -3)", "good");
    EVAL_IN(src, "State", "shift(shaken, 100)", "routing");
    EVAL_IN(src, "State", "shift(wavering, -100)", "good");
    EVAL_IN(src, "State", "shift(shaken, 9223372036854775807)", "routing");
    EVAL_IN(src, "State", "shift(wavering, -9223372036854775807 - 1)", "good");
    EVAL_IN(src, "State", "shift(shift(good, 2), -1)", "shaken");
    EVAL_IN(src, "bool", "shift(good, 1) > good and shift(routing, 5) == routing", "true");
}

static void test_records(void)
{
    static const char src[] = "ladder State { good, shaken, routing }\n"
                              "record Unit { melee: int, fresh: bool = true, state: State = good }\n"
                              "record Pair { first: Unit, second: Unit }\n"
                              "proc hurt(u: Unit) -> Unit {\n"
                              "  return Unit(melee: u.melee - 1, fresh: false, state: shift(u.state, +1))\n"
                              "}\n";
    EVAL_IN(src, "int", "Unit(melee: 3).melee", "3");
    EVAL_IN(src, "bool", "Unit(melee: 3).fresh", "true");
    EVAL_IN(src, "State", "Unit(melee: 3).state", "good");
    EVAL_IN(src, "State", "Unit(state: routing, melee: 1).state", "routing");
    EVAL_IN(src, "int", "Unit(4, false).melee", "4");
    EVAL_IN(src, "bool", "Unit(4, false).fresh", "false");
    EVAL_IN(src, "State", "hurt(hurt(Unit(melee: 5))).state", "routing");
    EVAL_IN(src, "int", "hurt(hurt(Unit(melee: 5))).melee", "3");
    EVAL_IN(src, "int", "Pair(first: Unit(melee: 1), second: Unit(melee: 7)).second.melee", "7");
    EVAL_IN(src, "Unit", "hurt(Unit(melee: 2))", "Unit(melee: 1, fresh: false, state: shaken)");
}

static void test_outcome_fields_and_texts(void)
{
    static const char src[] = "outcome Shot(removed: bool = false, hits: int = 1, factor: rat = 1) {\n"
                              "  destroyed \"Target Destroyed\" (removed: true, hits: 3)\n"
                              "  pinned \"Target Pinned\" (factor: 1/2)\n"
                              "  missed (hits: 0)\n"
                              "}\n"
                              "enum Cover { none, light \"Light cover\" }\n";
    EVAL_IN(src, "bool", "destroyed.removed", "true");
    EVAL_IN(src, "int", "destroyed.hits", "3");
    EVAL_IN(src, "bool", "pinned.removed", "false");
    EVAL_IN(src, "int", "pinned.hits", "1");
    EVAL_IN(src, "rat", "pinned.factor", "1/2");
    EVAL_IN(src, "rat", "missed.factor", "1");
    EVAL_IN(src, "int", "missed.hits", "0");
    EVAL_IN(src, "int", "Shot.destroyed.hits + Shot.pinned.hits", "4");
    EVAL_IN(src, "str", "text(destroyed)", "\"Target Destroyed\"");
    EVAL_IN(src, "str", "text(missed)", "\"missed\"");
    EVAL_IN(src, "str", "text(light) + \"/\" + text(none)", "\"Light cover/none\"");
}

/* ---- values the rules text does not give ---- */

static const char unknown_src[] =
    "ladder Cover { none, light }\n"
    "outcome Shot(lost: int = 0) { hit (lost: 1)  pinned (lost: ?)  missed }\n"
    "record Unit { melee: int, cover: Cover = none }\n"
    "table gap(c: Cover) -> int { none: 1\n light: ? }\n"
    "table range(n: int) -> int { 1..3: 5\n 4..6: ?\n }\n"
    "table grid(c: Cover, s: Shot) -> int {\n columns hit pinned missed\n none: 1 2 3\n light: 4 ? 6\n}\n"
    "proc u_int() -> int { return ? }\n"
    "proc u_bool() -> bool { return ? }\n"
    "proc u_pool() -> pool { return ? }\n"
    "proc u_cover() -> Cover { return ? }\n"
    "proc u_shot() -> Shot { return ? }\n"
    "proc u_unit() -> Unit { return ? }\n";

/* A '?' is kept, passed on and returned like any value. */
static void test_unknown_values_pass(void)
{
    EVAL_IN(unknown_src, "int", "u_int()", "?");
    EVAL_IN(unknown_src, "int", "gap(light)", "?");
    EVAL_IN(unknown_src, "int", "gap(none)", "1");
    EVAL_IN(unknown_src, "Unit", "Unit(melee: gap(light))", "Unit(melee: ?, cover: none)");
    EVAL_IN(unknown_src, "Unit", "Unit(melee: 2, cover: u_cover())", "Unit(melee: 2, cover: ?)");
    EVAL_IN(unknown_src, "int", "Unit(melee: 2, cover: u_cover()).melee", "2");
    EVAL_IN(unknown_src, "int", "pinned.lost", "?");
    EVAL_IN(unknown_src, "int", "hit.lost", "1");
    /* a field of a record or an outcome the text does not give is not given either */
    EVAL_IN(unknown_src, "int", "u_unit().melee", "?");
    EVAL_IN(unknown_src, "int", "u_shot().lost", "?");
    /* 'and' and 'or' need their left side: the right one is their result */
    EVAL_IN(unknown_src, "bool", "true and u_bool()", "?");
    EVAL_IN(unknown_src, "bool", "false and u_bool()", "false");
    EVAL_IN(unknown_src, "bool", "true or u_bool()", "true");
}

/* What needs an unknown's value stops the run there. */
static void test_unknown_values_needed(void)
{
    static const char *const needs[][2] = {
        { "int", "u_int() + 1" }, { "int", "1 + u_int()" }, { "int", "u_int() - 2" }, { "int", "u_int() * 2" },
        { "rat", "u_int() / 2" }, { "int", "u_int() % 2" }, { "int", "-u_int()" }, { "int", "abs(u_int())" },
        { "int", "floor(u_int() / 1)" }, { "int", "min(u_int(), 3)" }, { "int", "max(3, u_int())" },
        { "int", "clamp(u_int(), 1, 3)" }, { "bool", "u_int() == 1" }, { "bool", "2 > u_int()" },
        { "bool", "u_int() >= 1" }, { "bool", "not u_bool()" }, { "bool", "u_bool() and true" },
        { "bool", "u_bool() or false" }, { "bool", "u_cover() == none" }, { "Cover", "shift(u_cover(), 1)" },
        { "pool", "roll u_int() d6" }, { "int", "roll d(u_int())" }, { "pool", "roll 2 d(u_int())" },
        { "int", "count(u_pool())" }, { "int", "sum(u_pool())" }, { "int", "highest(u_pool())" },
        { "pool", "highest(u_int(), roll 3d6)" }, { "pool", "u_pool() >= 4" }, { "pool", "roll 3d6 >= u_int()" },
        { "bool", "any(u_pool() == 6)" }, { "bool", "all(roll 2d6 <= u_int())" }, { "bool", "doubles(u_pool())" },
        { "str", "text(u_cover())" }, { "int", "gap(u_cover())" }, { "int", "range(u_int())" },
        { "bool", "Unit(melee: u_int()) == Unit(melee: 1)" },
    };
    for (size_t i = 0; i < sizeof needs / sizeof needs[0]; i++) {
        char src[4096];
        snprintf(src, sizeof src, "%s\nproc f() -> %s { return %s }\n", unknown_src, needs[i][0], needs[i][1]);
        Run r;
        int rc = run_text(&r, src, "f", NULL, 0, "1,2,3,4,5,6");
        CU_ASSERT_EQUAL(rc, -1);
        CU_ASSERT(r.vm.error_unknown);
        CU_ASSERT(r.vm.error_needed);
        if (rc != -1 || !r.vm.error_unknown)
            fprintf(stderr, "\n%s: %s\n", needs[i][1], rc ? r.vm.error : show(&r, r.result));
        /* the error points at the '?', the note at what needed it: in f, or
         * in the table a key is given to */
        CU_ASSERT(r.vm.error_offset < strlen(src) && src[r.vm.error_offset] == '?');
        bool in_table = !strncmp(needs[i][1], "gap(", 4) || !strncmp(needs[i][1], "range(", 6);
        CU_ASSERT_STRING_EQUAL(r.vm.error_proto->name, in_table ? (needs[i][1][0] == 'g' ? "gap" : "range") : "f");
        if (!in_table)
            CU_ASSERT(r.vm.error_needed_offset > (uint32_t)(strstr(src, "proc f()") - src));
    }
    /* a condition */
    Run r;
    CU_ASSERT_EQUAL(run_text(&r, "proc f(b: bool) -> int { let x: bool = ?\n if x { return 1 } return 2 }", "f",
                             (Value[]){ val_bool(true) }, 1, NULL), -1);
    CU_ASSERT(r.vm.error_unknown);
    CU_ASSERT_STRING_EQUAL(r.vm.error, "procedure 'f' gives no value for 'x': the rules text does not say "
                                       "(marked '?')");
}

/* The message of each kind of '?', and where it points. */
static void test_unknown_messages(void)
{
    EVAL_IN(unknown_src, "int", "gap(light) + 1",
            "error: table 'gap' gives no value for light: the rules text does not say (marked '?')");
    EVAL_IN(unknown_src, "int", "range(5) + 1",
            "error: table 'range' gives no value for 5: the rules text does not say (marked '?')");
    EVAL_IN(unknown_src, "int", "grid(light, pinned) + 1",
            "error: table 'grid' gives no value for light, pinned: the rules text does not say (marked '?')");
    EVAL_IN(unknown_src, "int", "pinned.lost + 1",
            "error: table 'Shot' gives no value for pinned, lost: the rules text does not say (marked '?')");
    EVAL_IN(unknown_src, "int", "u_int() + 1",
            "error: procedure 'u_int' gives no value for its result: the rules text does not say (marked '?')");
    EVAL_IN(unknown_src, "int", "Unit(melee: ?).melee + 1",
            "error: procedure 'f' gives no value for field 'melee' of Unit: the rules text does not say (marked '?')");
    /* the same text from the value, for a driver that prints it */
    Run r;
    CU_ASSERT_EQUAL(run_text(&r, unknown_src, "u_unit", NULL, 0, NULL), 0);
    CU_ASSERT_EQUAL_FATAL(r.result.tag, VAL_UNKNOWN);
    char why[320];
    vm_unknown_text(r.vm.prog, r.result, why, sizeof why);
    CU_ASSERT_STRING_EQUAL(why, "procedure 'u_unit' gives no value for its result: the rules text does not say "
                                "(marked '?')");
    CU_ASSERT_EQUAL(vm_unknown_offset(r.vm.prog, r.result), (uint32_t)(strstr(unknown_src, "Unit { return ?") + 14
                                                                       - unknown_src));
    /* a quiet machine (one that only counts them) says where, not which keys */
    char src[4096];
    snprintf(src, sizeof src, "%s\nproc f() -> int { return gap(light) + 1 }\n", unknown_src);
    Compiled *c = compile_text(src, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    run_scripted(&r, c, NULL);
    r.vm.quiet_unknown = true;
    CU_ASSERT_EQUAL(run_call(&r, "f", NULL, 0), -1);
    CU_ASSERT(r.vm.error_unknown);
    CU_ASSERT_EQUAL(r.vm.error_offset, (uint32_t)(strstr(src, "light: ?") + 7 - src));
    CU_ASSERT_FALSE(contains(r.vm.error, "light"));
    /* order and printing */
    CU_ASSERT_EQUAL(val_order(val_unknown(0, 0), val_unknown(0, 0)), 0);
    CU_ASSERT(val_order(val_unknown(0, 0), val_unknown(1, 0)) < 0);
    CU_ASSERT(val_order(val_int(5), val_unknown(0, 0)) < 0);   /* unknowns sort last */
    CU_ASSERT_STRING_EQUAL(show_value(val_unknown(0, 0)), "?");
}

static void on_choose(void *ud, const Proto *p, uint32_t offset, int enum_id, int index, bool overridden)
{
    (void)p;
    (void)offset;
    Notes *ns = ud;
    size_t len = strlen(ns->choices);
    snprintf(ns->choices + len, sizeof ns->choices - len, "%s%d:%d%s", len ? " " : "", enum_id, index,
             overridden ? " chosen" : " default");
}

static void test_choices(void)
{
    static const char src[] = "enum Cover { none, light }\n"
                              "choice Critical \"Any 6\" { extra_hit, disorder, retreat } default disorder\n"
                              "proc f() -> Critical { return choose(Critical) }\n"
                              "proc g() -> int {\n"
                              "  if choose(Critical) == extra_hit { return 1 }\n"
                              "  return 0\n"
                              "}\n";
    Compiled *c = compile_text(src, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    Run r;
    Notes ns;
    memset(&ns, 0, sizeof ns);
    VmTrace trace = { .ud = &ns, .on_choose = on_choose };
    run_scripted(&r, c, NULL);
    r.vm.trace = &trace;
    /* the default without any override */
    CU_ASSERT_EQUAL(run_call(&r, "f", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "disorder");
    int none[] = { -1, -1 };
    r.vm.choices = none;
    CU_ASSERT_EQUAL(run_call(&r, "f", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "disorder");
    /* an override, per choice (Critical is enum 1) */
    int pick[] = { -1, 2 };
    r.vm.choices = pick;
    CU_ASSERT_EQUAL(run_call(&r, "f", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "retreat");
    pick[1] = 0;
    CU_ASSERT_EQUAL(run_call(&r, "g", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "1");
    r.vm.choices = NULL;
    CU_ASSERT_EQUAL(run_call(&r, "g", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "0");
    CU_ASSERT_STRING_EQUAL(ns.choices, "1:1 default 1:1 default 1:2 chosen 1:0 chosen 1:1 default");
}

static void test_expect_without_a_reporter(void)
{
    /* an example's expectation, run with no one to report to, is an error */
    static const char src[] = "proc f(n: int) -> int { return n + roll d6 }\n"
                              "example \"e\" {\n"
                              "  dice 2, 3\n"
                              "  expect f(1) == 3\n"
                              "  expect f(1) == 5\n"
                              "}\n";
    Compiled *c = compile_text(src, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL_FATAL(c->nexamples, 1);
    CU_ASSERT_EQUAL(c->examples[0].ndice, 2);
    CU_ASSERT_EQUAL(c->examples[0].nexpects, 2);
    Run r;
    run_scripted(&r, c, "2,3");
    CU_ASSERT_EQUAL(vm_call(&r.vm, c->examples[0].proto, NULL, 0, &r.result), -1);
    CU_ASSERT_STRING_EQUAL(r.vm.error, "expectation 2 does not hold");
    CU_ASSERT_EQUAL(r.vm.error_offset, (uint32_t)(strstr(src, "expect f(1) == 5") - src));
    run_scripted(&r, c, "2,4");
    CU_ASSERT_EQUAL(vm_call(&r.vm, c->examples[0].proto, NULL, 0, &r.result), 0);
}

/* Filters on sorted faces take a run by binary search; check every
 * comparison against counting die by die, on many pools. */
static void test_pool_filters_match_brute_force(void)
{
    Rng rng;
    rng_seed(&rng, 42);
    for (int trial = 0; trial < 300; trial++) {
        int64_t n = (int64_t)rng_below(&rng, 25);
        int32_t sides = (int32_t)rng_below(&rng, 12) + 1;
        Pool *p = pool_alloc(NULL, sides, n);
        for (int64_t i = 0; i < n; i++)
            p->face[i] = (int32_t)rng_below(&rng, (uint64_t)sides) + 1;
        pool_sort(p);
        for (int op = CMP_EQ; op <= CMP_GE; op++)
            for (int64_t k = -1; k <= sides + 1; k++) {
                int64_t want = 0;
                for (int64_t i = 0; i < n; i++)
                    want += cmp_holds(p->face[i] < k ? -1 : p->face[i] > k, (CmpOp)op);
                const Pool *q = pool_filter(NULL, p, (CmpOp)op, val_int(k));
                CU_ASSERT_EQUAL(q->n, want);
                for (int64_t i = 0; i < q->n; i++)
                    CU_ASSERT(cmp_holds(q->face[i] < k ? -1 : q->face[i] > k, (CmpOp)op));
                CU_ASSERT_EQUAL(pool_any(p, (CmpOp)op, val_int(k)), want > 0);
                CU_ASSERT_EQUAL(pool_all(p, (CmpOp)op, val_int(k)), want == n);
            }
        for (int64_t i = 1; i < n; i++)
            CU_ASSERT(p->face[i - 1] <= p->face[i]);
    }
}

/* vm_call_many runs a procedure of no parameters over and over with one
 * entry into the interpreter: the same results as one call at a time, pool
 * results held in the arena until half of it is used, and the number of
 * runs done when one fails. */
static void test_call_many(void)
{
    Compiled *c = compile_text("proc two() -> int {\n"
                               "  let a = roll d6\n"
                               "  if a == 6 { reroll }\n"
                               "  return a + roll d6\n"
                               "}\n"
                               "proc dice() -> pool { return roll 3d6 }\n"
                               "table gap(n: int) -> int {\n  1: 1\n  2: ?\n  3: 3\n}\n"
                               "proc gappy() -> int { return gap(roll d3) + 0 }\n"
                               "proc given() -> int { return gap(roll d3) }\n", NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    Run one, many;
    run_seeded(&one, c, 21);
    run_seeded(&many, c, 21);
    Arena a1 = { 0 }, a2 = { 0 };
    one.vm.scratch = &a1;
    many.vm.scratch = &a2;
    int two = chunk_find_proto(c->prog, "two");
    Value results[500];
    uint64_t done = 0, unknown = 0;
    CU_ASSERT_EQUAL(vm_call_many(&many.vm, two, 500, results, &done, &unknown), 0);
    CU_ASSERT_EQUAL(done, 500);
    for (int i = 0; i < 500; i++) {
        Value r;
        arena_reset(&a1);
        CU_ASSERT_EQUAL_FATAL(vm_call(&one.vm, two, NULL, 0, &r), 0);
        CU_ASSERT_EQUAL(r.as.i, results[i].as.i);
    }
    /* a pool lives in the arena: the runs after it allocate above it until
     * half the arena is used, then the call returns, every pool intact */
    {
        Run p1, pn;
        run_seeded(&p1, c, 22);
        run_seeded(&pn, c, 22);
        Arena b1 = { 0 }, bn = { 0 };
        p1.vm.scratch = &b1;
        pn.vm.scratch = &bn;
        int dice = chunk_find_proto(c->prog, "dice");
        Value *pools = mem_alloc(sizeof(Value) * 100000);
        uint64_t got = 0;
        CU_ASSERT_EQUAL(vm_call_many(&pn.vm, dice, 100000, pools, &got, &unknown), 0);
        CU_ASSERT(got > 10 && got < 100000);
        CU_ASSERT(bn.used <= bn.size);
        for (uint64_t k = 0; k < got; k++) {
            Value r;
            arena_reset(&b1);
            CU_ASSERT_EQUAL_FATAL(vm_call(&p1.vm, dice, NULL, 0, &r), 0);
            CU_ASSERT_EQUAL_FATAL(pools[k].tag, VAL_POOL);
            CU_ASSERT_EQUAL(val_order(pools[k], r), 0);
        }
    }
    /* a failing run: the ones before it are done */
    int gappy = chunk_find_proto(c->prog, "gappy");
    int fails = 0;
    for (int round = 0; round < 50; round++) {
        int rc = vm_call_many(&many.vm, gappy, 100, results, &done, &unknown);
        if (rc) {
            fails++;
            CU_ASSERT(done < 100);
            CU_ASSERT(many.vm.error_unknown);
            for (uint64_t k = 0; k < done; k++)
                CU_ASSERT(results[k].as.i == 1 || results[k].as.i == 3);
        } else {
            CU_ASSERT_EQUAL(done, 100);
        }
    }
    CU_ASSERT(fails > 0);
    /* with skip_unknown, a run reaching the '?' is counted and the rest go on */
    many.vm.skip_unknown = true;
    many.vm.quiet_unknown = true;
    CU_ASSERT_EQUAL(vm_call_many(&many.vm, gappy, 300, results, &done, &unknown), 0);
    CU_ASSERT_EQUAL(done + unknown, 300);
    CU_ASSERT(unknown > 50 && unknown < 150);   /* one in three */
    for (uint64_t k = 0; k < done; k++)
        CU_ASSERT(results[k].as.i == 1 || results[k].as.i == 3);
    /* a result that is a '?' is a result: the owner decides what it counts as */
    CU_ASSERT_EQUAL(vm_call_many(&many.vm, chunk_find_proto(c->prog, "given"), 300, results, &done, &unknown), 0);
    CU_ASSERT_EQUAL(done, 300);
    CU_ASSERT_EQUAL(unknown, 0);
    int gaps = 0;
    for (uint64_t k = 0; k < done; k++)
        gaps += results[k].tag == VAL_UNKNOWN;
    CU_ASSERT(gaps > 50 && gaps < 150);
}

/* A fresh roll of few dice of few faces keeps its counts per face in the
 * lanes of one word: counting against a whole number from them agrees with
 * looking at every die. */
static void test_pool_lanes(void)
{
    Rng rng;
    rng_seed(&rng, 17);
    int64_t ks[] = { INT64_MIN, -3, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 16, 17, 18, INT64_MAX };
    int with_lanes = 0;
    for (int trial = 0; trial < 400; trial++) {
        int32_t sides = (int32_t)rng_below(&rng, 20) + 1;
        int64_t n = (int64_t)rng_below(&rng, trial % 2 ? 16 : 300);
        Pool *p = pool_alloc(NULL, sides, n);
        for (int64_t i = 0; i < n; i++)
            p->face[i] = (int32_t)rng_below(&rng, (uint64_t)sides) + 1;
        pool_note_lanes(p);
        if (!p->lane_bits) {
            CU_ASSERT(sides > 16 || (sides > 8 && n > 15) || n > 255);
            continue;
        }
        with_lanes++;
        /* and the highest, lowest and doubles the VM reads off them */
        if (n > 0) {
            Pool *q = pool_alloc(NULL, sides, n);
            memcpy(q->face, p->face, sizeof(int32_t) * (size_t)n);
            pool_sort(q);
            CU_ASSERT_EQUAL((63 - __builtin_clzll(p->lanes)) / p->lane_bits + 1, q->face[n - 1]);
            CU_ASSERT_EQUAL(__builtin_ctzll(p->lanes) / p->lane_bits + 1, q->face[0]);
            bool dbl = (p->lanes & (p->lane_bits == 8 ? 0xFEFEFEFEFEFEFEFEULL : 0xEEEEEEEEEEEEEEEEULL)) != 0;
            CU_ASSERT_EQUAL(dbl, pool_doubles(q));
        }
        for (int op = CMP_EQ; op <= CMP_GE; op++)
            for (size_t j = 0; j < sizeof ks / sizeof ks[0]; j++)
                CU_ASSERT_EQUAL(pool_count_lanes(p, (CmpOp)op, ks[j]), pool_count_scan(p, (CmpOp)op, ks[j]));
    }
    CU_ASSERT(with_lanes > 150);
}

/* Int keys over a small span are looked up through a table of rows, which
 * answers as the binary search does, open ends and gaps included. */
static void test_direct_table_index(void)
{
    Rng rng;
    rng_seed(&rng, 3);
    for (int trial = 0; trial < 200; trial++) {
        int n = (int)rng_below(&rng, 6) + 1;
        int64_t at = (int64_t)rng_below(&rng, 40) - 20;
        TableDim d = { .mode = KEYS_RANGES, .n = n, .nkeys = n };
        d.lo = mem_alloc_atomic(sizeof(int64_t) * (size_t)n);
        d.hi = mem_alloc_atomic(sizeof(int64_t) * (size_t)n);
        d.row = mem_alloc_atomic(sizeof(int) * (size_t)n);
        for (int i = 0; i < n; i++) {
            at += (int64_t)rng_below(&rng, 3);            /* a gap of 0 to 2 keys */
            d.lo[i] = at;
            at += (int64_t)rng_below(&rng, 4);
            d.hi[i] = at++;
            d.row[i] = n - 1 - i;
        }
        if (rng_below(&rng, 2))
            d.lo[0] = INT64_MIN;
        if (rng_below(&rng, 2))
            d.hi[n - 1] = INT64_MAX;
        TableDim plain = d;
        Table t = { .name = "t", .ndims = 1 };
        t.dim[0] = d;
        t.cells = mem_alloc(sizeof(Value) * (size_t)n);
        t.kinds = mem_alloc_atomic(sizeof(CellKind) * (size_t)n);
        for (int i = 0; i < n; i++) {
            t.cells[i] = val_int(100 + i);
            t.kinds[i] = i == 1 ? CELL_UNKNOWN : CELL_VALUE;
        }
        Program *prog = chunk_program_new();
        chunk_add_table(prog, &t);
        if (n > 1 || d.lo[0] != INT64_MIN || d.hi[0] != INT64_MAX)
            CU_ASSERT_PTR_NOT_NULL(t.dim[0].direct);   /* (one band over every int has no bounds to index) */
        for (int64_t k = -60; k <= 60; k++)
            CU_ASSERT_EQUAL(chunk_dim_find(&t.dim[0], k), chunk_dim_find(&plain, k));
        CU_ASSERT_EQUAL(chunk_dim_find(&t.dim[0], INT64_MIN), chunk_dim_find(&plain, INT64_MIN));
        CU_ASSERT_EQUAL(chunk_dim_find(&t.dim[0], INT64_MAX), chunk_dim_find(&plain, INT64_MAX));
        /* and the cells by key: the row's cell where it has a value, a
         * '?' cell's unknown (its key left for the VM to fill in), else
         * none; below and above the span likewise */
        if (t.fast)
            for (int64_t k = t.fast_lo - 3; k < t.fast_lo + t.fast_n + 3; k++) {
                int row = chunk_dim_find(&plain, k);
                const Value *got = k < t.fast_lo ? t.fast[-1] : k >= t.fast_lo + t.fast_n ? t.fast[t.fast_n]
                                 : t.fast[k - t.fast_lo];
                if (row >= 0 && t.kinds[row] == CELL_UNKNOWN) {
                    CU_ASSERT_FATAL(got != NULL);
                    CU_ASSERT_EQUAL(got->tag, VAL_UNKNOWN);
                    CU_ASSERT_EQUAL(got->enum_id, t.unknown_site[row]);
                    continue;
                }
                const Value *want = row < 0 ? NULL : t.kinds[row] == CELL_VALUE ? &t.cells[row] : NULL;
                CU_ASSERT_PTR_EQUAL(got, want);
            }
    }
}

/* A fresh roll in a simulation is left unsorted: every operation on it
 * answers as on the same dice in order. */
static void test_unsorted_pools_answer_alike(void)
{
    Rng rng;
    rng_seed(&rng, 7);
    for (int trial = 0; trial < 300; trial++) {
        int64_t n = (int64_t)rng_below(&rng, 20);
        int32_t sides = (int32_t)rng_below(&rng, 20) + 1;
        Pool *raw = pool_alloc(NULL, sides, n), *sorted = pool_alloc(NULL, sides, n);
        for (int64_t i = 0; i < n; i++)
            raw->face[i] = sorted->face[i] = (int32_t)rng_below(&rng, (uint64_t)sides) + 1;
        raw->unsorted = true;
        pool_sort(sorted);
        for (int op = CMP_EQ; op <= CMP_GE; op++)
            for (int64_t k = -1; k <= sides + 1; k++) {
                Value x = val_int(k);
                CU_ASSERT_EQUAL(pool_count(raw, (CmpOp)op, x), pool_count(sorted, (CmpOp)op, x));
                CU_ASSERT_EQUAL(pool_any(raw, (CmpOp)op, x), pool_any(sorted, (CmpOp)op, x));
                CU_ASSERT_EQUAL(pool_all(raw, (CmpOp)op, x), pool_all(sorted, (CmpOp)op, x));
                Value half = rat(2 * k + 1, 2);
                CU_ASSERT_EQUAL(pool_count(raw, (CmpOp)op, half), pool_count(sorted, (CmpOp)op, half));
                CU_ASSERT_EQUAL(val_order(val_pool(pool_filter(NULL, raw, (CmpOp)op, x)),
                                          val_pool(pool_filter(NULL, sorted, (CmpOp)op, x))), 0);
            }
        CU_ASSERT_EQUAL(pool_sum(raw), pool_sum(sorted));
        Pool *copy = pool_alloc(NULL, sides, n);
        memcpy(copy->face, raw->face, sizeof(int32_t) * (size_t)n);
        copy->unsorted = true;
        CU_ASSERT_EQUAL(pool_doubles(copy), pool_doubles(sorted));
        for (int64_t h = 0; h <= n; h++) {
            Pool *c2 = pool_alloc(NULL, sides, n);
            memcpy(c2->face, raw->face, sizeof(int32_t) * (size_t)n);
            c2->unsorted = n > 1;
            CU_ASSERT_EQUAL(val_order(val_pool(pool_highest(NULL, c2, h)), val_pool(pool_highest(NULL, sorted, h))), 0);
            CU_ASSERT_EQUAL(val_order(val_pool(pool_lowest(NULL, c2, h)), val_pool(pool_lowest(NULL, sorted, h))), 0);
        }
        /* comparing and printing put it in order */
        CU_ASSERT_EQUAL(val_order(val_pool(raw), val_pool(sorted)), 0);
        CU_ASSERT_FALSE(raw->unsorted);
        CU_ASSERT_EQUAL(memcmp(raw->face, sorted->face, sizeof(int32_t) * (size_t)n), 0);
    }
}

/* A simulated trial with a scratch arena allocates nothing once warm: the
 * pools of each trial reuse the arena (no work for the collector). */
static void test_trials_allocate_nothing(void)
{
    Compiled *c = compile_text("proc volley(n: int) -> int {\n"
                               "  let d = roll n d6\n"
                               "  let h = count(d >= 4) + count(highest(2, d) == 6)\n"
                               "  if any(d == 6) { h = h + 1 }\n"
                               "  return h\n"
                               "}\n", NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    Run r;
    run_seeded(&r, c, 11);
    Arena arena = { 0 };
    r.vm.scratch = &arena;
    Value n = val_int(12);
    /* warm up: the arena and the stacks grow to their size */
    for (int i = 0; i < 100; i++) {
        arena_reset(&arena);
        CU_ASSERT_EQUAL_FATAL(run_call(&r, "volley", &n, 1), 0);
    }
    size_t before = mem_allocated(), collections = mem_collections();
    for (int i = 0; i < 20000; i++) {
        arena_reset(&arena);
        CU_ASSERT_EQUAL_FATAL(run_call(&r, "volley", &n, 1), 0);
    }
    CU_ASSERT_EQUAL(mem_allocated(), before);
    CU_ASSERT_EQUAL(mem_collections(), collections);

    /* a claim of the names around it, once remembered for their values,
     * and a '?' passed along, allocate nothing either */
    c = compile_text("table gap(n: int) -> int { 1..3: 1\n 4..6: ? }\n"
                     "record R { a: int, b: int }\n"
                     "proc asks(k: int) -> R {\n"
                     "  let d = roll d3\n"
                     "  let q = prob(roll d6 >= d + k)\n"
                     "  return R(a: floor(q * 6), b: gap(roll d6))\n"
                     "}\n", NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    run_seeded(&r, c, 11);
    r.vm.scratch = &arena;
    n = val_int(1);
    for (int i = 0; i < 100; i++) {
        arena_reset(&arena);
        CU_ASSERT_EQUAL_FATAL(run_call(&r, "asks", &n, 1), 0);
    }
    before = mem_allocated();
    collections = mem_collections();
    for (int i = 0; i < 20000; i++) {
        arena_reset(&arena);
        CU_ASSERT_EQUAL_FATAL(run_call(&r, "asks", &n, 1), 0);
    }
    CU_ASSERT_EQUAL(mem_allocated(), before);
    CU_ASSERT_EQUAL(mem_collections(), collections);
}

/* ---- remembered results of pure procedures ---- */

static const char memo_src[] =
    "record Pair { a: int  b: rat }\n"
    "choice Bonus \"bonus?\" { yes \"+1\"  no \"none\" } default yes\n"
    "proc twice(x: int) -> int { return x * 2 }\n"
    "proc bonus() -> int { if choose(Bonus) == yes { return 1 } return 0 }\n"
    "proc mods(x: int, b: rat, s: str) -> rat { return twice(x) + b + bonus() }\n"
    "proc scale(p: Pair) -> rat { return p.b * twice(p.a) }\n"
    "proc pair(x: int) -> Pair { return Pair(a: twice(x), b: x / 3) }\n"
    "proc rolls(x: int) -> int { return roll d6 + x }\n"
    "proc uses_roll(x: int) -> int { return twice(x) + rolls(x) }\n"
    "proc down(n: int) -> int { if n <= 0 { return 0 } return down(n - 1) + twice(1) }\n"
    "proc ping(n: int) -> int { if n <= 0 { return roll d4 } return pong(n - 1) }\n"
    "proc pong(n: int) -> int { return ping(n) + 1 }\n"
    "proc big(d: pool) -> int { return count(d >= 4) + twice(1) + twice(2) + twice(3) }\n"
    "proc trial(k: int) -> Pair {\n"
    "  let r = roll d6\n"
    "  let d = roll 3 d6\n"
    "  let fixed = mods(k, 1/2, \"x\") + scale(Pair(a: k, b: 1/3))\n"
    "  let varied = mods(r, pair(r).b, \"y\") + mods(k + r % 2, pair(k).b, \"z\") + scale(pair(r))\n"
    "  return Pair(a: down(r) + big(d) + floor(fixed), b: varied + pair(r).b)\n"
    "}\n";

static const Proto *proto_named(const Compiled *c, const char *name)
{
    int i = chunk_find_proto(c->prog, name);
    CU_ASSERT_FATAL(i >= 0);
    return c->prog->protos[i];
}

static void test_pure_marking(void)
{
    Compiled *c = compile_text(memo_src, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT(proto_named(c, "twice")->pure);
    CU_ASSERT(!proto_named(c, "twice")->memo);      /* one multiplication: not worth it */
    CU_ASSERT(proto_named(c, "mods")->pure && proto_named(c, "mods")->memo);
    CU_ASSERT(proto_named(c, "bonus")->pure);       /* a choice is fixed while a program runs */
    CU_ASSERT(!proto_named(c, "rolls")->pure);
    CU_ASSERT(!proto_named(c, "uses_roll")->pure);  /* calls something that rolls */
    CU_ASSERT(proto_named(c, "down")->pure && proto_named(c, "down")->memo);  /* recursive */
    CU_ASSERT(!proto_named(c, "ping")->pure);       /* mutual recursion reaching a roll */
    CU_ASSERT(!proto_named(c, "pong")->pure);
    CU_ASSERT(!proto_named(c, "trial")->pure);
}

/* Which procedures draw from a bag, and after which calls of them something
 * may still draw (Proto.drawn_after): the code after the call, or after
 * the caller returns, through calls that are themselves last. */
static const char *draws_src =
    "enum Side { us, them }\n"
    "bag Cup { 3 us, 3 them }\n"
    "proc plain(n: int) -> int { return n + 1 }\n"
    "proc tail(n: int) -> int {\n  if n == 0 { return 0 }\n  let d = draw Cup\n"
    "  if d == us { return 1 + tail(n - 1) }\n  return tail(n - 1)\n}\n"
    "proc twice() -> int { return tail(2) + count(draw 2 from Cup == us) }\n"
    "proc branches(k: int) -> int {\n  if k > 0 { return last(k) }\n  let a = last(k)\n  return a + plain(a)\n}\n"
    "proc last(k: int) -> int {\n  if k == 0 { return 0 }\n  let d = draw Cup\n  return last(k - 1)\n}\n"
    "proc top() -> int { return between() + 1 }\n"
    "proc between() -> int { return inner() }\n"
    "proc inner() -> int {\n  let d = draw Cup\n  if d == us { return 1 }\n  return 0\n}\n"
    "proc outer() -> int { return between() + count(draw 1 from Cup == us) }\n";

static void test_draws_marking(void)
{
    Compiled *c = compile_text(draws_src, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT(!proto_named(c, "plain")->draws);
    CU_ASSERT(proto_named(c, "tail")->draws);
    CU_ASSERT(proto_named(c, "twice")->draws);      /* calls tail, and draws itself */
    CU_ASSERT(proto_named(c, "tail")->drawn_after);  /* twice draws after tail(2) returns */
    CU_ASSERT(!proto_named(c, "last")->drawn_after); /* nothing after it draws: plain(a) does not */
    CU_ASSERT(proto_named(c, "between")->drawn_after);   /* outer draws after it */
    CU_ASSERT(proto_named(c, "inner")->drawn_after);     /* ... and so after inner, last in between */
    CU_ASSERT(!proto_named(c, "top")->drawn_after);      /* nothing calls top */
    CU_ASSERT(!proto_named(c, "plain")->drawn_after);
}

/* Remembering results changes nothing but speed: the same seed gives the
 * same results with and without it, trial by trial (records, rationals,
 * strings and pools as arguments; alternating arguments; recursion). */
static void test_memo_matches_plain_runs(void)
{
    Compiled *c = compile_text(memo_src, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    Run plain, memo;
    run_seeded(&plain, c, 99);
    run_seeded(&memo, c, 99);
    Arena arena = { 0 };
    memo.vm.memo = true;
    memo.vm.scratch = &arena;
    int mismatches = 0;
    uint64_t plain_steps = 0, memo_steps = 0;
    for (int i = 0; i < 3000; i++) {
        Value k = val_int(i % 7 == 0 ? 2 : 5);
        arena_reset(&arena);
        CU_ASSERT_EQUAL_FATAL(run_call(&plain, "trial", &k, 1), 0);
        CU_ASSERT_EQUAL_FATAL(run_call(&memo, "trial", &k, 1), 0);
        if (strcmp(show(&plain, plain.result), show(&memo, memo.result)) != 0)
            mismatches++;
        plain_steps += plain.vm.steps;
        memo_steps += memo.vm.steps;
    }
    CU_ASSERT_EQUAL(mismatches, 0);
    /* and it did remember: fewer instructions for the same work */
    CU_ASSERT(memo_steps < plain_steps);
    /* a failed call leaves nothing half-remembered */
    Value bad = val_int(-1);
    CU_ASSERT_EQUAL(run_call(&memo, "down", &bad, 1), 0);
    memo.vm.limits.max_depth = 5;
    Value deep = val_int(50);
    CU_ASSERT_EQUAL(run_call(&memo, "down", &deep, 1), -1);
    memo.vm.limits.max_depth = vm_default_limits.max_depth;
    CU_ASSERT_EQUAL(run_call(&memo, "down", &deep, 1), 0);
    CU_ASSERT_STRING_EQUAL(show(&memo, memo.result), "100");
}

/* Records built in a trial go to the arena too, and remembered calls
 * allocate only when first made. */
static void test_trials_with_records_allocate_nothing(void)
{
    Compiled *c = compile_text(memo_src, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    Run r;
    run_seeded(&r, c, 5);
    Arena arena = { 0 };
    r.vm.scratch = &arena;
    r.vm.memo = true;
    Value k = val_int(3);
    for (int i = 0; i < 2000; i++) {
        arena_reset(&arena);
        CU_ASSERT_EQUAL_FATAL(run_call(&r, "trial", &k, 1), 0);
    }
    size_t before = mem_allocated(), collections = mem_collections();
    for (int i = 0; i < 20000; i++) {
        arena_reset(&arena);
        CU_ASSERT_EQUAL_FATAL(run_call(&r, "trial", &k, 1), 0);
    }
    CU_ASSERT_EQUAL(mem_allocated(), before);
    CU_ASSERT_EQUAL(mem_collections(), collections);
}

/* ---- the instruction set (vm/opcodes.def) ---- */

/* Every opcode says what it is: the passes derive their classifications
 * from these columns, so one left out or contradictory is a failure here,
 * never a silent default. */
static void test_opcodes_classified(void)
{
    Program *prog = chunk_program_new();
    Table *t = mem_alloc(sizeof *t);
    t->ndims = 2;
    chunk_add_table(prog, t);
    for (int op = 0; op < OP__COUNT; op++) {
        const OpInfo *in = &op_info[op];
        unsigned e = in->effects;
        char what[96];
        snprintf(what, sizeof what, "opcode %d (%s)", op, in->name ? in->name : "?");
        bool ok = in->name && in->name[0] && in->summary && in->summary[0];
        /* purity is declared, one way or the other */
        ok &= !(e & OPF_PURE) != !(e & OPF_IMPURE);
        /* what rolls dice is never remembered nor worked out ahead */
        ok &= !(e & OPF_DICE) || (e & OPF_IMPURE);
        ok &= !(e & OPF_MOVES) || !(e & (OPF_DICE | OPF_IMPURE | OPF_FAILS));
        ok &= in->operand_bytes >= 0 && in->operand_bytes <= 7;
        /* a jump has its u16 offset among its operands */
        ok &= in->jump_at == OP_NOJUMP || (in->jump_at >= 0 && in->jump_at + 2 <= in->operand_bytes);
        /* a VALUE pushes its one result and does nothing else */
        ok &= !(e & OPF_VALUE) || (in->pushes == 1 && in->jump_at == OP_NOJUMP && !(e & (OPF_ENDS | OPF_TRACE | OPF_WRITES)));
        ok &= !(e & OPF_ENDS) || (in->pushes == 0 && in->jump_at == OP_NOJUMP);
        ok &= !(e & OPF_WRITES) || in->operand_bytes >= 1;
        ok &= (in->pops >= 0 || in->pops == OP_VARIES) && (in->pushes >= 0 || in->pushes == OP_VARIES);
        ok &= in->stack_effect == (in->pops == OP_VARIES || in->pushes == OP_VARIES ? 0 : in->pushes - in->pops);
        /* a count given as VARIES is worked out from the operands */
        uint8_t insn[8] = { (uint8_t)op, 0, 0, 3, 0, 0, 0, 0 };
        if (in->pops == OP_VARIES)
            ok &= chunk_insn_pops(prog, insn) == (op == OP_TABLE || op == OP_RECORDK ? 2 : 3);   /* (RECORDK: mask 3) */
        if (in->pushes == OP_VARIES) {
            insn[2] = 4;
            ok &= chunk_insn_pushes(prog, insn) == 4;
        }
        if (!ok)
            fprintf(stderr, "\n%s: missing or inconsistent in opcodes.def\n", what);
        CU_ASSERT(ok);
    }
    /* the dice opcodes are the ones opcodes.def says roll */
    CU_ASSERT(op_is(OP_ROLL, OPF_DICE) && op_is(OP_ROLL_POOL, OPF_DICE) && op_is(OP_ROLLK, OPF_DICE)
              && op_is(OP_ROLL_POOLK, OPF_DICE));
    CU_ASSERT(chunk_is_jump(OP_JUMP_UNLESS) && op_info[OP_JUMP_UNLESS].jump_at == 3);
}

/* chunk_mark_pure reads purity from opcodes.def: a procedure of one
 * instruction of each opcode is pure exactly when that opcode is PURE. */
static void test_purity_from_opcodes(void)
{
    for (int op = 0; op < OP__COUNT; op++) {
        Program *prog = chunk_program_new();
        Proto *p = chunk_proto_new(prog, "f", 0);
        chunk_emit(p, (uint8_t)op, 0);
        for (int i = 0; i < op_info[op].operand_bytes; i++)
            chunk_emit(p, 0, 0);   /* a CALL calls f itself */
        chunk_emit(p, OP_RETURN, 0);
        chunk_mark_pure(prog);
        CU_ASSERT_EQUAL(p->pure, op_is((uint8_t)op, OPF_PURE));
    }
}

/* The decoder: lengths, and jumps landing where their offset says. */
static void test_decoder(void)
{
    for (int op = 0; op < OP__COUNT; op++) {
        uint8_t code[16] = { 0 };
        code[2] = (uint8_t)op;
        CU_ASSERT_EQUAL(chunk_insn_len(code, 2), 1 + op_info[op].operand_bytes);
        if (!chunk_is_jump((uint8_t)op))
            continue;
        chunk_set_jump(code, 2, 300);
        CU_ASSERT_EQUAL(chunk_jump_target(code, 2), 300);
        CU_ASSERT_EQUAL(chunk_u16(code + 3 + op_info[op].jump_at), 300u - (3u + (unsigned)op_info[op].operand_bytes));
    }
}

/* A byte that is no opcode is a runtime error, not a crash. */
static void test_bad_instruction(void)
{
    Program *prog = chunk_program_new();
    Proto *p = chunk_proto_new(prog, "f", 0);
    chunk_emit(p, (uint8_t)OP__COUNT, 0);
    chunk_emit(p, 0xff, 0);
    p->max_stack = 2;
    Vm vm;
    vm_init(&vm, prog, NULL);
    Value r;
    CU_ASSERT_EQUAL(vm_call(&vm, 0, NULL, 0, &r), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(vm.error, "bad instruction"));
}

void register_tests(void)
{
    static const TestDef arithmetic[] = {
        { "integer arithmetic", test_integer_arithmetic },
        { "rationals are exact", test_rationals_are_exact },
        { "rationals are reduced", test_rational_reduction_in_values },
        { "floor, ceil and round", test_rounding },
        { "modulo", test_modulo },
        { "overflow is an error", test_overflow },
        { "division by zero", test_division_by_zero },
        { "quotients of ints made whole", test_integer_quotients },
        { "products and remainders of ints", test_products_and_remainders },
        { "counting dice as they are drawn", test_roll_count },
        { "a test of two values and its branch", test_compare_and_branch },
        { "strings and bools", test_strings_and_bools },
        { NULL, NULL },
    };
    static const TestDef control[] = {
        { "if / else if chains", test_if_chains },
        { "locals", test_locals },
        { "short-circuit and / or", test_short_circuit },
        { "short-circuit chains", test_short_circuit_chains },
        { "recursion", test_recursion },
        { "recursion limit", test_recursion_limit },
        { "step limit", test_step_limit },
        { "step limit location", test_step_limit_location },
        { "simulated trials allocate nothing", test_trials_allocate_nothing },
        { "trials with records and remembered calls allocate nothing", test_trials_with_records_allocate_nothing },
        { "pure procedures are marked", test_pure_marking },
        { "remembered results match plain runs", test_memo_matches_plain_runs },
        { "pool filters match counting die by die", test_pool_filters_match_brute_force },
        { "unsorted pools answer as sorted ones", test_unsorted_pools_answer_alike },
        { "small spans of int keys looked up directly", test_direct_table_index },
        { "many calls in one entry", test_call_many },
        { "counts per face in the lanes of a word", test_pool_lanes },
        { "reroll", test_reroll },
        { "reroll limit", test_reroll_limit },
        { NULL, NULL },
    };
    static const TestDef dice[] = {
        { "pool operations", test_pool_operations },
        { "pools without doubles", test_pool_without_doubles },
        { "pool edge cases", test_pool_edge_cases },
        { "dice errors", test_dice_errors },
        { "seeded runs", test_seeded_runs },
        { NULL, NULL },
    };
    static const TestDef errors[] = {
        { "error location", test_error_location },
        { "error location of dice", test_error_location_of_dice },
        { "overflow location", test_overflow_location },
        { "wrong argument count", test_wrong_argument_count },
        { "no arguments as NULL", test_no_arguments_as_null },
        { NULL, NULL },
    };
    add_suite("vm: arithmetic", arithmetic);
    add_suite("vm: control", control);
    add_suite("vm: dice and pools", dice);
    static const TestDef other[] = {
        { "trace of rolls and rerolls", test_trace },
        { "value order and printing", test_value_order_and_printing },
        { NULL, NULL },
    };
    add_suite("vm: errors", errors);
    static const TestDef isa[] = {
        { "every opcode is classified", test_opcodes_classified },
        { "purity follows opcodes.def", test_purity_from_opcodes },
        { "which procedures draw, and after which calls something may draw", test_draws_marking },
        { "the instruction decoder", test_decoder },
        { "a bad instruction is an error", test_bad_instruction },
        { NULL, NULL },
    };
    add_suite("vm: instruction set", isa);
    add_suite("vm: tracing and values", other);
    static const TestDef rules[] = {
        { "table lookups", test_table_lookups },
        { "table lookup errors", test_table_lookup_errors },
        { "bands lookups", test_bands_lookups },
        { "modifier order", test_modifier_order },
        { "modifier items", test_modifier_items_apply },
        { "shift saturates", test_shift_saturates },
        { "records", test_records },
        { "outcome fields and texts", test_outcome_fields_and_texts },
        { "'?' values are kept, passed on and returned", test_unknown_values_pass },
        { "'?' values stop a run where they are needed", test_unknown_values_needed },
        { "'?' values: messages and places", test_unknown_messages },
        { "choices", test_choices },
        { "expect without a reporter", test_expect_without_a_reporter },
        { NULL, NULL },
    };
    add_suite("vm: rules constructs", rules);
}
