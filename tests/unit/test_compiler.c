/* test_compiler.c — type checking, name resolution, calls and the bytecode;
 * tables, bands and the other rules declarations; the peephole pass and the
 * specializer; and examples, choices, turn sequences and imports through
 * the public API. */
#include "config.h"
#include "tests/unit/harness.h"

#include "muster.h"
#include "vm/opcodes.h"
#include "compiler/specialize.h"
#include "base/mem.h"
#include "vm/rng.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Does msgs hold "test.muster:L:C: error: what" where L:C is the position of
 * the first occurrence of `at` in src (nth, counting from 0)? */
static bool error_at_nth(const char *msgs, const char *src, const char *at, int nth, const char *what)
{
    const char *p = strstr(src, at);
    for (int i = 0; p && i < nth; i++)
        p = strstr(p + 1, at);
    if (!p) {
        fprintf(stderr, "test bug: '%s' is not in the source\n", at);
        return false;
    }
    int line = 1, col = 1;
    for (const char *q = src; q < p; q++) {
        if (*q == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    char want[512];
    snprintf(want, sizeof want, "test.muster:%d:%d: error: %s", line, col, what);
    if (!contains(msgs, want)) {
        fprintf(stderr, "\nexpected: %s\nin:\n%s", want, msgs);
        return false;
    }
    return true;
}

static bool error_at(const char *msgs, const char *src, const char *at, const char *what)
{
    return error_at_nth(msgs, src, at, 0, what);
}

/* Compile src expecting exactly `n` errors; returns the messages. */
static const char *expect_errors(const char *src, int n)
{
    const char *msgs;
    int errors;
    Compiled *c = compile_text(src, &msgs, &errors);
    CU_ASSERT_PTR_NULL(c);
    CU_ASSERT_EQUAL(errors, n);
    if (errors != n)
        fprintf(stderr, "\n%d errors, expected %d, for:\n%s\n%s", errors, n, src, msgs);
    return msgs;
}

static Compiled *must_compile(const char *src)
{
    const char *msgs;
    Compiled *c = compile_text(src, &msgs, NULL);
    if (!c)
        fprintf(stderr, "\ndoes not compile:\n%s\n%s", src, msgs);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    return c;
}

static const Proto *proto_named(const Compiled *c, const char *name)
{
    int i = chunk_find_proto(c->prog, name);
    CU_ASSERT_FATAL(i >= 0);
    return c->prog->protos[i];
}

static const char *disassembly(const Compiled *c, const char *name)
{
    static char buf[8192];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    chunk_disassemble(f, c->prog, proto_named(c, name));
    fclose(f);
    return buf;
}

/* ---- type errors ---- */

static void test_pool_used_as_int(void)
{
    const char *src = "proc f() -> int {\n  let p = roll 3d6\n  return p + 1\n}";
    const char *m = expect_errors(src, 1);
    CU_ASSERT(error_at(m, src, "p + 1", "'+' needs numbers, not pool: count(p), sum(p), highest(p) or lowest(p) turn a pool into an int"));

    src = "proc f() -> int { return roll 2d6 }";
    m = expect_errors(src, 1);
    CU_ASSERT(error_at(m, src, "roll", "'f' returns int, but this is pool"));

    src = "proc f() -> int { return floor(roll 2d6) }";
    m = expect_errors(src, 1);
    CU_ASSERT(error_at(m, src, "roll", "floor() needs a number here, not pool"));

    src = "proc f() -> int { if roll 2d6 >= 4 { return 1 } return 0 }";
    m = expect_errors(src, 1);
    CU_ASSERT(error_at(m, src, "roll", "an 'if' condition must be bool, not pool (any(p >= 4) asks whether some die is 4 or more)"));
}

static void test_mod_needs_ints(void)
{
    const char *src = "proc f() -> int { return 7/2 % 2 }";
    const char *m = expect_errors(src, 1);
    CU_ASSERT(error_at(m, src, "7/2", "'%' needs two ints (round a rational first with floor, ceil or round)"));

    src = "proc f(q: rat) -> int { return 5 % q }";
    m = expect_errors(src, 1);
    CU_ASSERT(contains(m, "'%' needs two ints"));

    /* but ints are fine, and floor() makes an int */
    must_compile("proc f(q: rat) -> int { return 5 % floor(q) }");
}

static void test_comparing_different_enums(void)
{
    const char *src = "enum A { x, y }\nenum B { u, v }\n"
                      "proc f(a: A, b: B) -> bool { return a == b }";
    const char *m = expect_errors(src, 1);
    CU_ASSERT(error_at(m, src, "a == b", "cannot compare A with B"));

    src = "enum A { x, y }\nenum B { u, v }\nproc f() -> bool { return A.x < B.u }";
    m = expect_errors(src, 1);
    CU_ASSERT(contains(m, "cannot compare A with B"));

    /* members of one enum are ordered */
    must_compile("enum A { x, y }\nproc f(a: A) -> bool { return a < y and a >= A.x }");
}

static void test_other_comparisons(void)
{
    const char *src = "proc f() -> bool { return true < false }";
    CU_ASSERT(error_at(expect_errors(src, 1), src, "true <", "bool values can only be compared with == and !="));
    src = "proc f() -> bool { return \"a\" == 1 }";
    CU_ASSERT(error_at(expect_errors(src, 1), src, "\"a\"", "cannot compare str with int"));
    src = "proc f(p: pool) -> bool { return 3 < p }";
    CU_ASSERT(error_at(expect_errors(src, 1), src, "3 <", "write the pool first when filtering dice, as in 'p > x'"));
    src = "proc f(p: pool, q: pool) -> bool { return p == q }";
    CU_ASSERT(contains(expect_errors(src, 1), "a pool's dice are compared with a number, not pool"));
    /* ints and rationals compare freely; strings and bools by equality */
    must_compile("proc f(q: rat) -> bool { return 1 < q and q != 2 and \"a\" != \"b\" and true == true }");
}

static void test_wrong_return_type(void)
{
    const char *src = "proc f() -> int { return true }";
    CU_ASSERT(error_at(expect_errors(src, 1), src, "true", "'f' returns int, but this is bool"));
    src = "proc f() -> int { return 1/2 }";
    CU_ASSERT(error_at(expect_errors(src, 1), src, "1/2", "'f' returns int, but this is rat"));
    src = "enum E { a }\nproc f() -> bool { return E.a }";
    CU_ASSERT(contains(expect_errors(src, 1), "'f' returns bool, but this is E"));
    /* an int is a rational */
    must_compile("proc f() -> rat { return 1 }");
}

static void test_missing_return(void)
{
    const char *src = "proc f(x: int) -> int {\n  if x > 0 { return 1 }\n}";
    const char *m = expect_errors(src, 1);
    /* reported at the closing brace of the body */
    CU_ASSERT(error_at_nth(m, src, "}", 1, "'f' can reach its end without returning a value (it must return int on every path)"));

    src = "proc f(x: int) -> int { if x > 0 { return 1 } else if x < 0 { return 2 } }";
    CU_ASSERT(contains(expect_errors(src, 1), "'f' can reach its end without returning"));

    src = "proc f(x: int) -> int { let y = x }";
    CU_ASSERT(contains(expect_errors(src, 1), "'f' can reach its end without returning"));

    /* every path returns or rerolls: fine */
    must_compile("proc f(x: int) -> int { if x > 0 { return 1 } else if x < 0 { reroll } else { return 3 } }");
    must_compile("proc f(x: int) -> int { if x > 0 { if x > 5 { return 1 } else { return 2 } } else { return 3 } }");
}

static void test_unreachable_statement(void)
{
    const char *src = "proc f() -> int {\n  return 1\n  let x = 2\n  return x\n}";
    const char *m = expect_errors(src, 1);
    CU_ASSERT(error_at(m, src, "let x", "this statement can never run: the one before it always returns or rerolls"));

    src = "proc f() -> int { reroll\n return 1 }";
    CU_ASSERT(error_at(expect_errors(src, 1), src, "return", "this statement can never run"));

    src = "proc f(b: bool) -> int { if b { return 1 } else { return 2 } return 3 }";
    CU_ASSERT(error_at(expect_errors(src, 1), src, "return 3", "this statement can never run"));
}

static void test_unknown_names(void)
{
    const char *src = "proc f() -> int {\n  let total = 3\n  return totl + 1\n}";
    CU_ASSERT(error_at(expect_errors(src, 1), src, "totl", "unknown name 'totl'; did you mean 'total'?"));

    src = "proc f(card: int) -> int { return crad }";
    CU_ASSERT(contains(expect_errors(src, 1), "unknown name 'crad'; did you mean 'card'?"));

    src = "enum Cover { none, light, heavy }\nproc f() -> Cover { return hevy }";
    CU_ASSERT(contains(expect_errors(src, 1), "unknown name 'hevy': Cover has no such member (its members are none, light, heavy)"));

    src = "enum Cover { none, light, heavy }\nproc f() -> int { let c = hevy return 1 }";
    CU_ASSERT(contains(expect_errors(src, 1), "unknown name 'hevy'; did you mean 'heavy'?"));

    /* nothing close: no suggestion */
    src = "proc f() -> int { let total = 3 return zebra }";
    const char *m = expect_errors(src, 1);
    CU_ASSERT(contains(m, "unknown name 'zebra'\n"));
    CU_ASSERT_FALSE(contains(m, "did you mean"));

    /* a name from another procedure is not in scope */
    src = "proc g() -> int { let secret = 1 return secret }\nproc f() -> int { return secret }";
    m = expect_errors(src, 1);
    CU_ASSERT(contains(m, "unknown name 'secret'"));

    /* a name from an inner block is gone after it */
    src = "proc f(b: bool) -> int { if b { let inner = 1 } return inner }";
    CU_ASSERT(contains(expect_errors(src, 1), "unknown name 'inner'"));

    src = "proc f() -> int { return 1 }\nproc g() -> int { return f }";
    CU_ASSERT(contains(expect_errors(src, 1), "'f' is a procedure; call it with f(...)"));

    src = "enum Cover { none }\nproc g() -> int { let c = Cover return 1 }";
    CU_ASSERT(contains(expect_errors(src, 1), "'Cover' is an enum type, not a value; name a member, as in Cover.none"));

    src = "enum Cover { none }\nproc g() -> Cover { return Covr.none }";
    CU_ASSERT(contains(expect_errors(src, 1), "unknown name 'Covr'; did you mean 'Cover'?"));
    src = "enum Cover { none }\nproc g() -> Cover { return Cover.nne }";
    CU_ASSERT(contains(expect_errors(src, 1), "Cover has no member 'nne'"));

    src = "proc f(x: integer) -> int { return 1 }";
    CU_ASSERT(error_at(expect_errors(src, 1), src, "integer", "unknown type 'integer'"));
}

static void test_unknown_procedures(void)
{
    const char *src = "proc fire(n: int) -> int { return n }\nproc f() -> int { return fier(1) }";
    CU_ASSERT(error_at(expect_errors(src, 1), src, "fier", "unknown procedure 'fier'; did you mean 'fire'?"));

    src = "proc f() -> int { return flor(7/2) }";
    CU_ASSERT(contains(expect_errors(src, 1), "unknown procedure 'flor'; did you mean 'floor'?"));

    src = "proc f() -> int { return frobnicate(1) }";
    const char *m = expect_errors(src, 1);
    CU_ASSERT(contains(m, "unknown procedure 'frobnicate'\n"));
    CU_ASSERT_FALSE(contains(m, "did you mean"));

    /* the arguments of an unknown call are still checked */
    src = "proc f() -> int { return frobnicate(nope) }";
    CU_ASSERT(contains(expect_errors(src, 2), "unknown name 'nope'"));

    src = "proc f(x: int) -> int { return x(1) }";
    CU_ASSERT(contains(expect_errors(src, 1), "'x' is a value, not a procedure"));
}

static void test_argument_errors(void)
{
    static const char *defs = "proc f(a: int, b: int) -> int { return a + b }\n";
    char src[512];

    snprintf(src, sizeof src, "%sproc g() -> int { return f(1, 2, 3) }", defs);
    CU_ASSERT(error_at(expect_errors(src, 1), src, "3)", "too many arguments: 'f' takes 2"));

    snprintf(src, sizeof src, "%sproc g() -> int { return f(1) }", defs);
    const char *m = expect_errors(src, 1);
    CU_ASSERT(error_at(m, src, "f(1)", "missing argument 'b' (int) in call to 'f'"));
    CU_ASSERT(contains(m, "test.muster:1:6: note: 'f' is declared here"));

    /* the first missing argument is reported */
    snprintf(src, sizeof src, "%sproc g() -> int { return f() }", defs);
    m = expect_errors(src, 1);
    CU_ASSERT(contains(m, "missing argument 'a' (int) in call to 'f'"));

    snprintf(src, sizeof src, "%sproc g() -> int { return f(1, a: 2) }", defs);
    CU_ASSERT(error_at(expect_errors(src, 1), src, "a: 2", "parameter 'a' of 'f' is given twice"));

    snprintf(src, sizeof src, "%sproc g() -> int { return f(a: 1, a: 2, b: 3) }", defs);
    CU_ASSERT(error_at(expect_errors(src, 1), src, "a: 2", "parameter 'a' of 'f' is given twice"));

    snprintf(src, sizeof src, "%sproc g() -> int { return f(1, z: 2) }", defs);
    CU_ASSERT(error_at(expect_errors(src, 1), src, "z:", "'f' has no parameter named 'z'"));

    snprintf(src, sizeof src, "%sproc g() -> int { return f(a: 1, 2) }", defs);
    CU_ASSERT(error_at(expect_errors(src, 1), src, "2)", "a positional argument cannot follow named ones"));

    snprintf(src, sizeof src, "%sproc g() -> int { return f(true, 2) }", defs);
    CU_ASSERT(error_at(expect_errors(src, 1), src, "true", "argument 'a' of 'f' must be int, not bool"));

    snprintf(src, sizeof src, "%sproc g() -> int { return f(a: 1, b: 1/2) }", defs);
    CU_ASSERT(error_at(expect_errors(src, 1), src, "1/2", "argument 'b' of 'f' must be int, not rat"));

    /* built-ins */
    CU_ASSERT(contains(expect_errors("proc g() -> int { return max(a: 1, b: 2) }", 1),
                       "built-in function 'max' takes no named arguments"));
    CU_ASSERT(contains(expect_errors("proc g() -> int { return floor(1, 2) }", 1),
                       "wrong number of arguments to floor: 2 given; use one number"));
    CU_ASSERT(contains(expect_errors("proc g() -> int { return max(1) }", 1),
                       "wrong number of arguments to max: 1 given; use two or more numbers"));
    CU_ASSERT(contains(expect_errors("proc g() -> int { return clamp(1, 2) }", 1),
                       "wrong number of arguments to clamp: 2 given; use clamp(x, low, high)"));
    CU_ASSERT(contains(expect_errors("proc g() -> bool { return any(1 == 1) }", 1),
                       "any() needs a comparison of a pool's dice with the pool first, as in any(p >= 6)"));
    CU_ASSERT(contains(expect_errors("proc g(p: pool) -> bool { return all(p) }", 1),
                       "all() needs a comparison of a pool's dice, as in all(p == 6)"));
    CU_ASSERT(contains(expect_errors("proc g() -> pool { return highest(2, 3) }", 1),
                       "highest() needs a pool here, not int"));
}

static void test_assignments(void)
{
    const char *src = "proc f(n: int) -> int {\n  n = n + 1\n  return n\n}";
    CU_ASSERT(error_at(expect_errors(src, 1), src, "n = ", "parameters cannot be changed; use 'let' for a new name"));

    src = "proc f() -> int { y = 1 return 0 }";
    CU_ASSERT(error_at(expect_errors(src, 1), src, "y =", "'y' is not defined; introduce it with 'let y = ...'"));

    src = "proc f() -> int { let x = 1\n x = 1/2\n return x }";
    CU_ASSERT(error_at(expect_errors(src, 1), src, "1/2", "'x' is int and cannot be given rat"));

    src = "proc f() -> int { let x: int = 3/2 return x }";
    CU_ASSERT(error_at(expect_errors(src, 1), src, "3/2", "'x' is declared int but given rat"));

    src = "proc f() -> int { let x = 1\n let x = 2\n return x }";
    const char *m = expect_errors(src, 1);
    CU_ASSERT(error_at_nth(m, src, "x", 1, "'x' is already defined in this block"));
    CU_ASSERT(contains(m, "test.muster:1:23: note: 'x' was defined here"));

    /* a rational variable takes ints; an inner block may shadow */
    must_compile("proc f() -> rat { let x: rat = 1\n x = x / 3\n x = 2\n return x }");
    must_compile("proc f(b: bool) -> int { let x = 1 if b { let x = true } return x }");
}

static void test_operand_types(void)
{
    CU_ASSERT(contains(expect_errors("proc f() -> bool { return not 1 }", 1), "'not' needs a bool, not int"));
    CU_ASSERT(contains(expect_errors("proc f() -> bool { return -true }", 1), "cannot negate bool"));
    CU_ASSERT(contains(expect_errors("proc f() -> bool { return 1 and true }", 1), "'and' needs bool operands, not int"));
    CU_ASSERT(contains(expect_errors("proc f() -> bool { return true or 2 }", 1), "'or' needs bool operands, not int"));
    CU_ASSERT(contains(expect_errors("proc f() -> str { return \"a\" + 1 }", 1), "'+' needs numbers, not str"));
    CU_ASSERT(contains(expect_errors("proc f() -> str { return \"a\" - \"b\" }", 1), "'-' needs numbers, not str"));
    CU_ASSERT(contains(expect_errors("proc f() -> pool { return roll (1/2) d6 }", 1),
                       "the number of dice must be an int, not rat (round it with floor, ceil or round)"));
    CU_ASSERT(contains(expect_errors("proc f() -> int { if 1 { return 1 } return 0 }", 1),
                       "an 'if' condition must be bool, not int"));
    must_compile("proc f() -> str { return \"a\" + \"b\" }");
}

static void test_declaration_errors(void)
{
    CU_ASSERT(contains(expect_errors("proc f() { return 1 }", 1),
                       "procedure 'f' needs a result type, as in 'proc f(...) -> int'"));
    const char *src = "proc f() -> int { return 1 }\nproc f() -> int { return 2 }";
    const char *m = expect_errors(src, 1);
    CU_ASSERT(error_at_nth(m, src, "f", 1, "'f' is declared twice"));
    CU_ASSERT(contains(m, "test.muster:1:6: note: the first 'f' is here"));
    CU_ASSERT(contains(expect_errors("proc max(a: int) -> int { return a }", 1),
                       "'max' is a built-in function; choose another name"));
    CU_ASSERT(contains(expect_errors("enum E { a }\nenum E { b }", 1), "'E' is declared twice"));
    CU_ASSERT(contains(expect_errors("enum E { a, b, a }", 1), "'a' is listed twice in enum E"));
    CU_ASSERT(contains(expect_errors("enum E { }", 1), "enum 'E' has no members"));
    CU_ASSERT(contains(expect_errors("enum int { a }", 1), "'int' is a built-in type; choose another name"));
    CU_ASSERT(contains(expect_errors("enum E { a }\nproc E() -> int { return 1 }", 1),
                       "'E' is already the name of a type"));
    const char *msgs;
    int errors;
    CU_ASSERT_PTR_NULL(compile_text("proc f(a: int, a: int) -> int { return 1 }", &msgs, &errors));
    CU_ASSERT(errors >= 1);
    CU_ASSERT(contains(msgs, "test.muster:1:16: error: parameter 'a' is listed twice"));
    CU_ASSERT(contains(expect_errors("proc f(a: int = true) -> int { return a }", 1),
                       "the default of 'a' must be int, not bool"));
}

static void test_keeps_going_after_errors(void)
{
    /* one run reports the mistakes of every procedure */
    const char *src = "proc a() -> int { return true }\n"
                      "proc b() -> int { return nope }\n"
                      "proc c(x: int) -> int { x = 2 return x }\n";
    const char *m = expect_errors(src, 3);
    CU_ASSERT(contains(m, "test.muster:1:"));
    CU_ASSERT(contains(m, "test.muster:2:"));
    CU_ASSERT(contains(m, "test.muster:3:"));
}

/* ---- enums ---- */

static const char *two_enums =
    "enum Cover { none, light, heavy }\n"
    "enum Armour { none, mail, plate }\n";

static void test_enum_members_by_expected_type(void)
{
    char src[2048];
    snprintf(src, sizeof src, "%s"
             "proc f(c: Cover = none, a: Armour = none) -> int {\n"
             "  if c == none and a == none { return 0 }\n"
             "  if c == heavy and a == plate { return 3 }\n"
             "  return 1\n"
             "}\n"
             "proc armour() -> Armour { return none }\n"
             "proc cover() -> Cover { let x: Cover = none\n return x }\n"
             "proc call() -> int { return f(c: light, a: none) }\n"
             "proc assign() -> Armour { let x = mail\n x = none\n return x }\n",
             two_enums);
    Compiled *c = must_compile(src);
    Run r;
    run_scripted(&r, c, NULL);
    CU_ASSERT_EQUAL(run_call(&r, "armour", NULL, 0), 0);
    CU_ASSERT_EQUAL(r.result.tag, VAL_ENUM);
    CU_ASSERT_EQUAL(r.result.enum_id, 1);
    CU_ASSERT_EQUAL(r.result.as.i, 0);
    CU_ASSERT_EQUAL(run_call(&r, "cover", NULL, 0), 0);
    CU_ASSERT_EQUAL(r.result.enum_id, 0);
    CU_ASSERT_EQUAL(r.result.as.i, 0);
    CU_ASSERT_EQUAL(run_call(&r, "f", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "0");
    Value args[2] = { val_enum(0, 2), val_enum(1, 2) };
    CU_ASSERT_EQUAL(run_call(&r, "f", args, 2), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "3");
    CU_ASSERT_EQUAL(run_call(&r, "call", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "1");
    CU_ASSERT_EQUAL(run_call(&r, "assign", NULL, 0), 0);
    CU_ASSERT_EQUAL(r.result.enum_id, 1);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "none");
    CU_ASSERT_STRING_EQUAL(compiler_type_name(c, c->procs[0].ptypes[1]), "Armour");
}

static void test_enum_ambiguity(void)
{
    char src[1024];
    snprintf(src, sizeof src, "%sproc f() -> int { let x = none\n return 1 }", two_enums);
    const char *m = expect_errors(src, 1);
    CU_ASSERT(error_at_nth(m, src, "none", 2,
                           "'none' is a member of more than one enum; write it as Cover.none (or another enum's name)"));

    /* the left of a comparison takes its enum from a typed right side */
    snprintf(src, sizeof src, "%sproc f(c: Cover) -> bool { return none == c }", two_enums);
    must_compile(src);
    snprintf(src, sizeof src, "%sproc f() -> bool { return none == Armour.mail }", two_enums);
    must_compile(src);
    /* ... but not from an untyped one */
    snprintf(src, sizeof src, "%sproc f() -> bool { return none == none }", two_enums);
    CU_ASSERT(contains(expect_errors(src, 2), "'none' is a member of more than one enum"));

    /* a member of the wrong enum, qualified */
    snprintf(src, sizeof src, "%sproc f(c: Cover = Armour.none) -> int { return 1 }", two_enums);
    CU_ASSERT(contains(expect_errors(src, 1), "the default of 'c' must be Cover, not Armour"));

    /* an unshared member used where another enum is expected */
    snprintf(src, sizeof src, "%sproc f(c: Cover = mail) -> int { return 1 }", two_enums);
    CU_ASSERT(contains(expect_errors(src, 1), "the default of 'c' must be Cover, not Armour"));

    /* qualified names always work */
    snprintf(src, sizeof src, "%sproc f() -> bool { return Armour.none == Armour.mail }", two_enums);
    must_compile(src);
}

/* ---- defaults and named arguments ---- */

static void test_defaults(void)
{
    Compiled *c = must_compile("proc f(a: int, b: int = 10, c: int = 2 * 3) -> int { return a * 100 + b + c }\n"
                               "proc one() -> int { return f(1) }\n"
                               "proc two() -> int { return f(1, 2) }\n"
                               "proc named() -> int { return f(a: 4, c: 0) }\n"
                               "proc dice(n: int = roll d6) -> int { return n }\n"
                               "proc both() -> int { return dice() * 10 + dice(n: 0) }\n");
    /* each default is a procedure of its own */
    const ProcSig *sig = compiler_find_proc(c, "f");
    CU_ASSERT_PTR_NOT_NULL_FATAL(sig);
    CU_ASSERT_EQUAL(sig->pdefault[0], -1);
    CU_ASSERT(sig->pdefault[1] >= 0);
    CU_ASSERT_EQUAL(sig->pdefault[1], chunk_find_proto(c->prog, "f(b: default)"));
    CU_ASSERT_EQUAL(sig->pdefault[2], chunk_find_proto(c->prog, "f(c: default)"));

    Run r;
    run_scripted(&r, c, "4");
    CU_ASSERT_EQUAL(run_call(&r, "one", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "116");
    CU_ASSERT_EQUAL(run_call(&r, "two", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "108");
    CU_ASSERT_EQUAL(run_call(&r, "named", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "410");
    CU_ASSERT_EQUAL(dice_used(&r), 0);
    /* a default is evaluated only when the argument is left out */
    CU_ASSERT_EQUAL(run_call(&r, "both", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "40");
    CU_ASSERT_EQUAL(dice_used(&r), 1);
}

/* A default may call a procedure declared further down and leave out that
 * procedure's own defaults. */
static void test_default_calls_a_later_procedure(void)
{
    Compiled *c = must_compile("proc a(x: int = b()) -> int { return x }\n"
                               "proc b(y: int = 4, z: int = roll d6) -> int { return y * 10 + z }\n");
    Run r;
    run_scripted(&r, c, "3");
    CU_ASSERT_EQUAL(run_call(&r, "a", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "43");
    CU_ASSERT_EQUAL(dice_used(&r), 1);
}

static void test_named_arguments_in_parameter_order(void)
{
    Compiled *c = must_compile(
        "proc pair(a: int, b: int) -> int { return a * 10 + b }\n"
        "proc named() -> int { return pair(a: roll d6, b: roll d6) }\n"
        "proc positional() -> int { return pair(roll d6, roll d6) }\n"
        "proc tri(a: int, b: int = 7, c: int = 0) -> int { return a * 100 + b * 10 + c }\n"
        "proc skip() -> int { return tri(a: roll d6, c: roll d6) }\n"
        "proc late(a: int, b: int = roll d6) -> int { return a * 10 + b }\n"
        "proc deflt() -> int { return late(a: roll d6) }\n"
        "proc mixed() -> int { return tri(roll d6, c: roll d6) }\n");
    Run r;
    run_scripted(&r, c, "1,2");
    CU_ASSERT_EQUAL(run_call(&r, "named", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "12");

    run_scripted(&r, c, "1,2");
    CU_ASSERT_EQUAL(run_call(&r, "positional", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "12");

    run_scripted(&r, c, "5,3");
    CU_ASSERT_EQUAL(run_call(&r, "skip", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "573");   /* a = 5, c = 3, b its default */

    run_scripted(&r, c, "1,2");
    CU_ASSERT_EQUAL(run_call(&r, "deflt", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "12");    /* written argument first, then the default */

    run_scripted(&r, c, "4,6");
    CU_ASSERT_EQUAL(run_call(&r, "mixed", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "476");
    CU_ASSERT_EQUAL(dice_used(&r), 2);
}

/* Named arguments written in another order than the parameters must still
 * be evaluated in the order written, so dice are rolled left to right
 * (the compiler reorders them through hidden temporaries). */
static void test_named_arguments_roll_in_written_order(void)
{
    const char *msgs;
    Compiled *c = compile_text(
        "enum Cover { none, light, heavy }\n"
        "enum Armour { none, mail, plate }\n"
        "proc pair(a: int, b: int) -> int { return a * 10 + b }\n"
        "proc named() -> int { return pair(b: roll d6, a: roll d6) }\n"
        "proc tri(a: int, b: int = 7, c: int = 0) -> int { return a * 100 + b * 10 + c }\n"
        "proc skip() -> int { return tri(c: roll d6, a: roll d6) }\n"
        "proc nested() -> int { return pair(b: pair(b: roll d6, a: roll d6), a: roll d6) }\n"
        "proc plain() -> int { return tri(c: 1, b: 2, a: 3) }\n"
        "proc f(c: Cover, a: Armour) -> int { if c == light and a == none { return 1 } return 0 }\n"
        "proc members() -> int { return f(a: none, c: light) }\n",
        &msgs, NULL);
    CU_ASSERT_FALSE(contains(msgs, "'' is already defined"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);

    Run r;
    run_scripted(&r, c, "1,2");
    CU_ASSERT_EQUAL(run_call(&r, "named", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "21");   /* b = 1 (first die), a = 2 */

    run_scripted(&r, c, "3,5");
    CU_ASSERT_EQUAL(run_call(&r, "skip", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "573");  /* c = 3, a = 5, b its default */

    run_scripted(&r, c, "1,2,3");
    CU_ASSERT_EQUAL(run_call(&r, "nested", NULL, 0), 0);
    /* inner: b = 1, a = 2 -> 21; outer: b = 21, a = 3 -> 51 */
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "51");
    CU_ASSERT_EQUAL(dice_used(&r), 3);

    CU_ASSERT_EQUAL(run_call(&r, "plain", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "321");
    /* enum members are resolved by each parameter's type */
    CU_ASSERT_EQUAL(run_call(&r, "members", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "1");

    /* and a type error among reordered arguments is the only error */
    const char *src = "proc f(a: int, b: int) -> int { return a + b }\n"
                      "proc g() -> int { return f(b: 1/2, a: 1) }";
    CU_ASSERT(error_at(expect_errors(src, 1), src, "1/2", "argument 'b' of 'f' must be int, not rat"));
}

static void test_calls_in_any_order(void)
{
    /* procedures may call ones declared later, and each other */
    Compiled *c = must_compile("proc is_even(n: int) -> bool { if n == 0 { return true } return is_odd(n - 1) }\n"
                               "proc is_odd(n: int) -> bool { if n == 0 { return false } return is_even(n - 1) }\n"
                               "enum Late { x }\n"
                               "proc uses() -> Late { return later() }\n"
                               "proc later() -> Late { return x }\n");
    CU_ASSERT_EQUAL(c->nprocs, 4);
    CU_ASSERT_STRING_EQUAL(c->procs[0].name, "is_even");
    CU_ASSERT_STRING_EQUAL(c->procs[3].name, "later");
    Run r;
    run_scripted(&r, c, NULL);
    Value seven = val_int(7);
    CU_ASSERT_EQUAL(run_call(&r, "is_odd", &seven, 1), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "true");
    CU_ASSERT_EQUAL(run_call(&r, "is_even", &seven, 1), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "false");
    CU_ASSERT_EQUAL(run_call(&r, "uses", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "x");
}

static void test_signatures(void)
{
    Compiled *c = must_compile("enum Cover { none, light }\n"
                               "proc hits(card: int, cover: Cover = none, ratio: rat = 1/2) -> pool { return roll card d6 }\n");
    const ProcSig *s = compiler_find_proc(c, "hits");
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_PTR_NULL(compiler_find_proc(c, "misses"));
    CU_ASSERT_EQUAL(s->nparams, 3);
    CU_ASSERT_STRING_EQUAL(s->pnames[0], "card");
    CU_ASSERT_STRING_EQUAL(s->pnames[2], "ratio");
    CU_ASSERT_EQUAL(s->ptypes[0].kind, TY_INT);
    CU_ASSERT_EQUAL(s->ptypes[1].kind, TY_ENUM);
    CU_ASSERT_EQUAL(s->ptypes[2].kind, TY_RAT);
    CU_ASSERT_EQUAL(s->ret.kind, TY_POOL);
    CU_ASSERT_STRING_EQUAL(compiler_type_name(c, s->ret), "pool");
    CU_ASSERT_STRING_EQUAL(compiler_type_name(c, s->ptypes[1]), "Cover");
    CU_ASSERT_EQUAL(s->proto, chunk_find_proto(c->prog, "hits"));
    CU_ASSERT_EQUAL(c->prog->nenums, 1);
    CU_ASSERT_STRING_EQUAL(c->prog->enums[0].members[1], "light");
}

/* ---- bytecode ---- */

static void test_bytecode_of_a_tiny_proc(void)
{
    Compiled *c = must_compile("proc inc(a: int) -> int { return a + 1 }");
    const Proto *p = proto_named(c, "inc");
    /* (CONST then ADD is fused by the peephole pass) */
    static const uint8_t want[] = { OP_LOAD, 0, OP_ADDK, 0, 0, OP_RETURN };
    CU_ASSERT_EQUAL_FATAL(p->len, (int)sizeof want);
    CU_ASSERT_EQUAL(memcmp(p->code, want, sizeof want), 0);
    CU_ASSERT_EQUAL(p->nparams, 1);
    CU_ASSERT_EQUAL(p->nlocals, 1);
    CU_ASSERT_EQUAL(p->nconsts, 1);
    CU_ASSERT_EQUAL(p->consts[0].tag, VAL_INT);
    CU_ASSERT_EQUAL(p->consts[0].as.i, 1);
    CU_ASSERT_STRING_EQUAL(disassembly(c, "inc"),
                           "proc inc (params 1, locals 1, stack 3, 6 bytes)\n"
                           "  0000  LOAD        0     ; a\n"
                           "  0002  ADDK        0     ; 1\n"
                           "  0005  RETURN\n");
    /* the line table points each byte at its expression (a fused
     * instruction at the operation's, where its errors are) */
    CU_ASSERT_EQUAL(p->offsets[0], 33);   /* a */
    CU_ASSERT_EQUAL(p->offsets[2], 35);   /* the '+' of a + 1 */
    CU_ASSERT_EQUAL(p->offsets[4], 35);
    CU_ASSERT_EQUAL(p->offsets[5], 26);   /* return */
}

static void test_bytecode_of_branches(void)
{
    Compiled *c = must_compile("proc pick(b: bool) -> int { if b { return 1 } else { return 2 } }\n"
                               "proc both(a: bool, b: bool) -> bool { return a and b }\n"
                               "proc either(a: bool, b: bool) -> bool { return a or b }\n");
    /* no jump over the else when the then-branch returns */
    static const uint8_t pick[] = { OP_LOAD, 0, OP_JUMP_FALSE, 3, 0, OP_RETURNK, 0, 0,
                                    OP_RETURNK, 1, 0 };
    const Proto *p = proto_named(c, "pick");
    CU_ASSERT_EQUAL_FATAL(p->len, (int)sizeof pick);
    CU_ASSERT_EQUAL(memcmp(p->code, pick, sizeof pick), 0);

    static const uint8_t both[] = { OP_LOAD, 0, OP_AND_JUMP, 2, 0, OP_LOAD, 1, OP_RETURN };
    p = proto_named(c, "both");
    CU_ASSERT_EQUAL_FATAL(p->len, (int)sizeof both);
    CU_ASSERT_EQUAL(memcmp(p->code, both, sizeof both), 0);

    static const uint8_t either[] = { OP_LOAD, 0, OP_OR_JUMP, 2, 0, OP_LOAD, 1, OP_RETURN };
    p = proto_named(c, "either");
    CU_ASSERT_EQUAL_FATAL(p->len, (int)sizeof either);
    CU_ASSERT_EQUAL(memcmp(p->code, either, sizeof either), 0);
    CU_ASSERT(contains(disassembly(c, "pick"), "  0002  JUMP_FALSE  3     ; -> 0008\n"));
}

static void test_bytecode_of_dice(void)
{
    Compiled *c = must_compile("proc hits(n: int) -> int { return count(roll n d6 >= 4) }\n"
                               "proc one() -> int { return roll d20 }\n"
                               "proc six(p: pool) -> bool { return any(p == 6) }\n");
    /* (FILTER then COUNT is fused by the peephole pass, and then with its constant) */
    static const uint8_t hits[] = { OP_LOAD, 0, OP_CONST, 0, 0, OP_ROLL_POOL, OP_COUNT_IFK, 1, 0, CMP_GE,
                                    OP_RETURN };
    const Proto *p = proto_named(c, "hits");
    CU_ASSERT_EQUAL_FATAL(p->len, (int)sizeof hits);
    CU_ASSERT_EQUAL(memcmp(p->code, hits, sizeof hits), 0);
    CU_ASSERT_EQUAL(p->consts[0].as.i, 6);
    CU_ASSERT_EQUAL(p->consts[1].as.i, 4);

    static const uint8_t one[] = { OP_ROLLK, 0, 0, OP_RETURN };
    p = proto_named(c, "one");
    CU_ASSERT_EQUAL_FATAL(p->len, (int)sizeof one);
    CU_ASSERT_EQUAL(memcmp(p->code, one, sizeof one), 0);
    CU_ASSERT_EQUAL(p->consts[0].as.i, 20);

    static const uint8_t six[] = { OP_LOAD, 0, OP_ANYK, 0, 0, CMP_EQ, OP_RETURN };
    p = proto_named(c, "six");
    CU_ASSERT_EQUAL_FATAL(p->len, (int)sizeof six);
    CU_ASSERT_EQUAL(memcmp(p->code, six, sizeof six), 0);
    CU_ASSERT(contains(disassembly(c, "six"), "ANYK        0     ; == 6\n"));
}

static void test_bytecode_of_calls_and_constants(void)
{
    Compiled *c = must_compile("proc f(a: int, b: int = 5) -> int { return a - b }\n"
                               "proc g() -> int { return f(7) + 7 + 7 }\n");
    const Proto *g = proto_named(c, "g");
    int f = chunk_find_proto(c->prog, "f");
    int fb = chunk_find_proto(c->prog, "f(b: default)");
    CU_ASSERT_FATAL(f >= 0 && fb >= 0);
    /* CONST 7; CALL default; CALL f 2; ADDK 7; ADDK 7; RETURN */
    const uint8_t want[] = { OP_CONST, 0, 0, OP_CALL, (uint8_t)fb, 0, 0, OP_CALL, (uint8_t)f, 0, 2,
                             OP_ADDK, 0, 0, OP_ADDK, 0, 0, OP_RETURN };
    CU_ASSERT_EQUAL_FATAL(g->len, (int)sizeof want);
    CU_ASSERT_EQUAL(memcmp(g->code, want, sizeof want), 0);
    /* equal int constants are stored once */
    CU_ASSERT_EQUAL(g->nconsts, 1);
    CU_ASSERT(contains(disassembly(c, "g"), "CALL        0     ; f, 2 args\n"));
    CU_ASSERT(contains(disassembly(c, "g"), "; f(b: default), 0 args\n"));
    /* the default is a procedure returning its value */
    const Proto *d = c->prog->protos[fb];
    static const uint8_t dflt[] = { OP_RETURNK, 0, 0 };
    CU_ASSERT_EQUAL_FATAL(d->len, (int)sizeof dflt);
    CU_ASSERT_EQUAL(memcmp(d->code, dflt, sizeof dflt), 0);
    CU_ASSERT_EQUAL(d->consts[0].as.i, 5);
}

static void test_locals_and_stack_size(void)
{
    Compiled *c = must_compile("proc f(a: int) -> int {\n"
                               "  let x = a * 2\n"
                               "  if a > 0 { let y = x + 1\n let z = y\n return z }\n"
                               "  let w = 3\n"
                               "  return x + w\n"
                               "}\n");
    const Proto *p = proto_named(c, "f");
    /* a, x and the block's y, z; w reuses y's slot after the block */
    CU_ASSERT_EQUAL(p->nlocals, 4);
    CU_ASSERT_EQUAL(p->nparams, 1);
    CU_ASSERT(p->max_stack >= 2);
    Run r;
    run_scripted(&r, c, NULL);
    Value a = val_int(5);
    CU_ASSERT_EQUAL(run_call(&r, "f", &a, 1), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "11");
    a = val_int(-5);
    CU_ASSERT_EQUAL(run_call(&r, "f", &a, 1), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "-7");
}

/* Source of `proc f(p0: int, ...) -> int { let v0 = ... return LAST }`, malloc'ed. */
static char *big_proc(int nparams, int nlets)
{
    size_t cap = 64 + (size_t)nparams * 16 + (size_t)nlets * 32;
    char *s = malloc(cap);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    strcpy(s, "proc f(");
    for (int i = 0; i < nparams; i++)
        snprintf(s + strlen(s), cap - strlen(s), "%sp%d: int", i ? ", " : "", i);
    strcat(s, ") -> int {\n");
    for (int i = 0; i < nlets; i++)
        snprintf(s + strlen(s), cap - strlen(s), "  let v%d = %s%d + 1\n", i, i ? "v" : "p", i ? i - 1 : 0);
    if (nlets)
        snprintf(s + strlen(s), cap - strlen(s), "  return v%d\n}\n", nlets - 1);
    else
        snprintf(s + strlen(s), cap - strlen(s), "  return p%d\n}\n", nparams - 1);
    return s;
}

static void test_procedure_limits(void)
{
    /* 255 local slots: one parameter and 254 lets fit, 255 lets do not */
    char *src = big_proc(1, 254);
    Compiled *c = must_compile(src);
    free(src);
    CU_ASSERT_EQUAL(proto_named(c, "f")->nlocals, 255);
    Run r;
    run_scripted(&r, c, NULL);
    Value one = val_int(1);
    CU_ASSERT_EQUAL(run_call(&r, "f", &one, 1), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "255");

    src = big_proc(1, 255);
    const char *m = compile_errors(src);
    free(src);
    CU_ASSERT(contains(m, "error: too many local names in one procedure (the limit is 255)"));

    /* 64 parameters, not 65 */
    src = big_proc(64, 0);
    c = must_compile(src);
    free(src);
    Value args[64];
    for (int i = 0; i < 64; i++)
        args[i] = val_int(i * 10);
    run_scripted(&r, c, NULL);
    CU_ASSERT_EQUAL(run_call(&r, "f", args, 64), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "630");

    src = big_proc(65, 0);
    m = compile_errors(src);
    free(src);
    CU_ASSERT(contains(m, "error: 'f' has 65 parameters; the limit is 64"));
}

/* ---- the public interface (api/) ---- */

static const char *api_src =
    "enum Cover { none, light, heavy }\n"
    "proc f(n: int, q: rat = 1/2, c: Cover = none) -> rat { return n * q + 10 / (n - 3) }\n"
    "proc dice(n: int) -> int { return sum(roll n d6) }\n"
    "proc cover(c: Cover) -> bool { return c == heavy }\n";

typedef struct Api {
    FILE *out, *err;
    char *out_buf, *err_buf;
    size_t out_len, err_len;
    muster_ctx *ctx;
    muster_program *prog;
} Api;

static void api_open(Api *a, const char *src)
{
    memset(a, 0, sizeof *a);
    a->out = open_memstream(&a->out_buf, &a->out_len);
    a->err = open_memstream(&a->err_buf, &a->err_len);
    CU_ASSERT_FATAL(a->out && a->err);
    a->ctx = muster_new(a->out, a->err, 0);
    a->prog = muster_load_string(a->ctx, "api.muster", src, strlen(src));
}

static const char *api_out(Api *a) { fflush(a->out); return a->out_buf ? a->out_buf : ""; }
static const char *api_err(Api *a) { fflush(a->err); return a->err_buf ? a->err_buf : ""; }

static void api_close(Api *a)
{
    fclose(a->out);
    fclose(a->err);
    free(a->out_buf);
    free(a->err_buf);
}

static int api_run(Api *a, const char *proc, int nargs, char *const *args, const char *dice, int json)
{
    muster_run_opts o = { .have_seed = 1, .seed = 1, .dice = dice, .json = json };
    return muster_run(a->ctx, a->prog, proc, nargs, args, &o);
}

static void test_api_run(void)
{
    Api a;
    api_open(&a, api_src);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a.prog);
    CU_ASSERT_EQUAL(muster_error_count(a.ctx), 0);
    char *n4[] = { "n=4" };
    CU_ASSERT_EQUAL(api_run(&a, "f", 1, n4, NULL, 0), MUSTER_OK);
    char *all[] = { "c=Cover.light", "q=3/2", "n=4" };
    CU_ASSERT_EQUAL(api_run(&a, "f", 3, all, NULL, 0), MUSTER_OK);
    char *n5[] = { "n=5", "q=-1/3" };
    CU_ASSERT_EQUAL(api_run(&a, "f", 2, n5, NULL, 0), MUSTER_OK);
    char *heavy[] = { "c=heavy" };
    CU_ASSERT_EQUAL(api_run(&a, "cover", 1, heavy, NULL, 0), MUSTER_OK);
    CU_ASSERT_STRING_EQUAL(api_out(&a), "12\n16\n10/3\ntrue\n");
    CU_ASSERT_STRING_EQUAL(api_err(&a), "");
    api_close(&a);
}

/* A record with a field the text does not give is printed, '?' for the
 * field, with a note; its odds count a field that is known. */
static void test_api_unknown_fields(void)
{
    Api a;
    api_open(&a, "table lost(n: int) -> int {\n  1..4: 0\n  5: ?\n  6: 1\n}\n"
                 "record Volley { hits: int, lost: int }\n"
                 "proc volley() -> Volley { let d = roll d6\n return Volley(hits: d, lost: lost(d)) }\n"
                 "proc lost_only() -> int { return volley().lost }\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a.prog);
    CU_ASSERT_EQUAL(api_run(&a, "volley", 0, NULL, "5", 0), MUSTER_OK);
    CU_ASSERT_EQUAL(api_run(&a, "volley", 0, NULL, "5", 1), MUSTER_OK);
    CU_ASSERT(contains(api_out(&a), "Volley(hits: 5, lost: ?)\n{\"result\": {\"hits\": 5, \"lost\": null}, "));
    CU_ASSERT(contains(api_out(&a), "{\"event\": \"return\", \"proc\": \"lost\", \"line\": 1, \"depth\": 1, "
                                    "\"value\": null}"));
    CU_ASSERT(contains(api_err(&a), "api.muster:3:6: note: 'lost' is not known: table 'lost' gives no value for 5: "
                                    "the rules text does not say (marked '?')\n"));
    /* a result that is itself not given is the error it was */
    CU_ASSERT_EQUAL(api_run(&a, "lost_only", 0, NULL, "5", 0), MUSTER_ERROR);
    CU_ASSERT(contains(api_err(&a), "api.muster:3:6: error: table 'lost' gives no value for 5: the rules text does "
                                    "not say (marked '?') (in 'lost_only')\n"));
    api_close(&a);

    /* the odds of a field count the runs where it is not given apart, and
     * only those */
    api_open(&a, "table lost(n: int) -> int {\n  1..4: 0\n  5: ?\n  6: 1\n}\n"
                 "record Volley { hits: int, lost: int }\n"
                 "proc volley() -> Volley { let d = roll d6\n return Volley(hits: d, lost: lost(d)) }\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a.prog);
    muster_prob_opts o = { .have_seed = 1, .seed = 1, .csv = 1, .field = "hits" };
    CU_ASSERT_EQUAL(muster_prob(a.ctx, a.prog, "volley", 0, NULL, &o), MUSTER_OK);
    o.field = "lost";
    CU_ASSERT_EQUAL(muster_prob(a.ctx, a.prog, "volley", 0, NULL, &o), MUSTER_OK);
    o.field = NULL;
    CU_ASSERT_EQUAL(muster_prob(a.ctx, a.prog, "volley", 0, NULL, &o), MUSTER_OK);
    CU_ASSERT_STRING_EQUAL(api_out(&a), "value,p,probability\n1,1/6,0.1666666667\n2,1/6,0.1666666667\n"
                                        "3,1/6,0.1666666667\n4,1/6,0.1666666667\n5,1/6,0.1666666667\n"
                                        "6,1/6,0.1666666667\n"
                                        "value,p,probability\n0,2/3,0.6666666667\n1,1/6,0.1666666667\n"
                                        "not given in source,1/6,0.1666666667\n"
                                        "value,p,probability\n"
                                        "\"Volley(hits: 1, lost: 0)\",1/6,0.1666666667\n"
                                        "\"Volley(hits: 2, lost: 0)\",1/6,0.1666666667\n"
                                        "\"Volley(hits: 3, lost: 0)\",1/6,0.1666666667\n"
                                        "\"Volley(hits: 4, lost: 0)\",1/6,0.1666666667\n"
                                        "\"Volley(hits: 6, lost: 1)\",1/6,0.1666666667\n"
                                        "not given in source,1/6,0.1666666667\n");
    CU_ASSERT_STRING_EQUAL(api_err(&a), "");
    /* simulated alike */
    o.field = "hits";
    o.csv = 0;
    o.json = 1;
    o.trials = 6000;
    CU_ASSERT_EQUAL(muster_prob(a.ctx, a.prog, "volley", 0, NULL, &o), MUSTER_OK);
    CU_ASSERT_FALSE(contains(api_out(&a), "not_given"));
    o.field = "lost";
    CU_ASSERT_EQUAL(muster_prob(a.ctx, a.prog, "volley", 0, NULL, &o), MUSTER_OK);
    CU_ASSERT(contains(api_out(&a), "\"not_given\": true"));
    api_close(&a);
}

/* opts.interrupt: a flag the caller sets (from its own signal handler) to
 * stop odds being worked out; the library reads it and returns
 * MUSTER_INTERRUPTED, printing nothing on the output. */
static void test_api_interrupt(void)
{
    Api a;
    api_open(&a, api_src);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a.prog);
    volatile sig_atomic_t flag = 0;
    muster_prob_opts o = { .have_seed = 1, .seed = 1, .threads = 2, .interrupt = &flag };
    char *n2[] = { "n=2" };
    CU_ASSERT_EQUAL(muster_prob(a.ctx, a.prog, "dice", 1, n2, &o), MUSTER_OK);   /* not set: as without it */
    CU_ASSERT(contains(api_out(&a), "dice(n: 2): exact (1 run)"));
    size_t out_before = a.out_len;
    flag = 1;
    CU_ASSERT_EQUAL(muster_prob(a.ctx, a.prog, "dice", 1, n2, &o), MUSTER_INTERRUPTED);
    CU_ASSERT_STRING_EQUAL(api_err(&a), "muster: interrupted: the exact count of dice had covered less than 0.1% "
                                        "of the probability after 1 run\n");
    o.trials = 100000;
    CU_ASSERT_EQUAL(muster_prob(a.ctx, a.prog, "dice", 1, n2, &o), MUSTER_INTERRUPTED);
    CU_ASSERT(contains(api_err(&a), "muster: interrupted: the simulation of dice had run 0 of 100000 trials\n"));
    /* a grid says which combination it was working on */
    o.trials = 0;
    char *n23[] = { "n=2,3" };
    CU_ASSERT_EQUAL(muster_prob(a.ctx, a.prog, "dice", 1, n23, &o), MUSTER_INTERRUPTED);
    CU_ASSERT(contains(api_err(&a), "after 1 run\nmuster: note: while working out the odds of n=2\n"));
    api_out(&a);
    CU_ASSERT_EQUAL(a.out_len, out_before);
    CU_ASSERT_EQUAL(flag, 1);   /* never cleared by the library */
    api_close(&a);
}

static void test_api_dice(void)
{
    Api a;
    api_open(&a, api_src);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a.prog);
    char *n2[] = { "n=2" };
    CU_ASSERT_EQUAL(api_run(&a, "dice", 1, n2, "1,2,3", 0), MUSTER_OK);
    CU_ASSERT_EQUAL(api_run(&a, "dice", 1, n2, "6,5", 1), MUSTER_OK);
    CU_ASSERT_STRING_EQUAL(api_out(&a), "3\n{\"result\": 11, \"log\": [{\"event\": \"roll\", \"proc\": \"dice\", "
                                        "\"line\": 3, \"dice\": \"2d6\", \"faces\": [5, 6]}]}\n");
    CU_ASSERT_STRING_EQUAL(api_err(&a), "muster: warning: 1 of the 3 scripted dice were not used\n");
    CU_ASSERT_EQUAL(api_run(&a, "dice", 1, n2, "1,x!", 0), MUSTER_USAGE);
    CU_ASSERT(contains(api_err(&a), "muster: error: --dice: expected ',' between die faces at '!'\n"));
    /* a name for a die of numbers is the run's error, naming the die */
    CU_ASSERT_EQUAL(api_run(&a, "dice", 1, n2, "1,hit", 0), MUSTER_ERROR);
    CU_ASSERT(contains(api_err(&a), "scripted die #2 is 'hit', which is not a face of a d6 (1..6)"));
    CU_ASSERT_EQUAL(api_run(&a, "dice", 1, n2, "1", 0), MUSTER_ERROR);
    CU_ASSERT(contains(api_err(&a), "api.muster:3:39: error: ran out of scripted dice: 1 given, a pool of 2 d6 needs 1 more (in 'dice')"));
    /* the same seed gives the same answer */
    muster_run_opts o = { .have_seed = 1, .seed = 99 };
    char *n10[] = { "n=10" };
    api_out(&a);
    size_t before = a.out_len;
    CU_ASSERT_EQUAL(muster_run(a.ctx, a.prog, "dice", 1, n10, &o), MUSTER_OK);
    CU_ASSERT_EQUAL(muster_run(a.ctx, a.prog, "dice", 1, n10, &o), MUSTER_OK);
    const char *out = api_out(&a) + before;
    const char *nl = strchr(out, '\n');
    CU_ASSERT_PTR_NOT_NULL_FATAL(nl);
    CU_ASSERT_EQUAL(strncmp(out, nl + 1, (size_t)(nl - out + 1)), 0);
    api_close(&a);
}

static void test_api_errors(void)
{
    Api a;
    api_open(&a, api_src);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a.prog);
    char *n3[] = { "n=3" };
    CU_ASSERT_EQUAL(api_run(&a, "f", 1, n3, NULL, 0), MUSTER_ERROR);
    /* a runtime error points at the failing expression, 10 / (n - 3) */
    CU_ASSERT(contains(api_err(&a), "api.muster:2:74: error: division by zero (in 'f')\n"));
    CU_ASSERT_EQUAL(muster_error_count(a.ctx), 1);

    CU_ASSERT_EQUAL(api_run(&a, "f", 0, NULL, NULL, 0), MUSTER_USAGE);
    CU_ASSERT(contains(api_err(&a), "muster: error: missing argument n=int (a whole number)\n"
                                    "usage: f(n: int, q: rat = 1/2, c: Cover = none) -> rat\n"));
    char *bad_int[] = { "n=x" };
    CU_ASSERT_EQUAL(api_run(&a, "f", 1, bad_int, NULL, 0), MUSTER_USAGE);
    CU_ASSERT(contains(api_err(&a), "'x' is not a valid int for parameter 'n' (a whole number)"));
    char *bad_enum[] = { "n=4", "c=medium" };
    CU_ASSERT_EQUAL(api_run(&a, "f", 2, bad_enum, NULL, 0), MUSTER_USAGE);
    CU_ASSERT(contains(api_err(&a), "'medium' is not a valid Cover for parameter 'c' (one of: none light heavy)"));
    char *bad_rat[] = { "n=4", "q=1/0" };
    CU_ASSERT_EQUAL(api_run(&a, "f", 2, bad_rat, NULL, 0), MUSTER_USAGE);
    CU_ASSERT(contains(api_err(&a), "'1/0' is not a valid rat for parameter 'q'"));
    char *twice[] = { "n=4", "n=5" };
    CU_ASSERT_EQUAL(api_run(&a, "f", 2, twice, NULL, 0), MUSTER_USAGE);
    CU_ASSERT(contains(api_err(&a), "parameter 'n' is given twice"));
    char *unknown[] = { "m=4" };
    CU_ASSERT_EQUAL(api_run(&a, "f", 1, unknown, NULL, 0), MUSTER_USAGE);
    CU_ASSERT(contains(api_err(&a), "'f' has no parameter named 'm'"));
    CU_ASSERT_EQUAL(api_run(&a, "nope", 0, NULL, NULL, 0), MUSTER_USAGE);
    CU_ASSERT(contains(api_err(&a), "api.muster has no procedure 'nope'; it has: f dice cover\n"));
    CU_ASSERT_STRING_EQUAL(api_out(&a), "");
    api_close(&a);

    /* a script with errors gives no program */
    api_open(&a, "proc f() -> int { return true }\nproc g() -> int { return nope }\n");
    CU_ASSERT_PTR_NULL(a.prog);
    CU_ASSERT_EQUAL(muster_error_count(a.ctx), 2);
    CU_ASSERT(contains(api_err(&a), "api.muster:1:26: error: 'f' returns int, but this is bool"));
    CU_ASSERT(contains(api_err(&a), "api.muster:2:26: error: unknown name 'nope'"));
    api_close(&a);
}


/* ---- tables and bands ---- */

static const Table *table_named(const Compiled *c, const char *name)
{
    for (int i = 0; i < c->prog->ntables; i++)
        if (!strcmp(c->prog->tables[i]->name, name))
            return c->prog->tables[i];
    CU_FAIL_FATAL("no table of that name");
    return NULL;
}

/* Compile one bands block `bands b(PARAM) -> int { ROWS }` (rows separated
 * by newlines): "" if it compiles, else the diagnostics. */
static const char *bands_errors(const char *param, const char *rows, const char **src_out)
{
    static char src[1024];
    snprintf(src, sizeof src, "bands b(%s) -> int {\n%s\n}\n", param, rows);
    *src_out = src;
    const char *msgs;
    Compiled *c = compile_text(src, &msgs, NULL);
    return c ? "" : msgs;
}

static void test_bands_cover_every_value(void)
{
    const char *src, *m;
    /* open at both ends */
    CU_ASSERT_STRING_EQUAL(bands_errors("x: int", "..0 => 1\n1.. => 2", &src), "");
    /* the extremes of 64 bits, written as single values */
    CU_ASSERT_STRING_EQUAL(bands_errors("x: int", "..-9223372036854775807 => 1\n"
                                                  "-9223372036854775806..9223372036854775806 => 2\n"
                                                  "9223372036854775807 => 3", &src), "");
    /* the smallest int cannot be written, only reached with an open end */
    m = bands_errors("x: int", "-9223372036854775808..0 => 1\n1.. => 2", &src);
    CU_ASSERT(error_at(m, src, "-9223", "number too large"));
    /* single values and lists, in any order */
    CU_ASSERT_STRING_EQUAL(bands_errors("x: int", "4.. => 3\n2, 3 => 2\n..1 => 1", &src), "");
    CU_ASSERT_STRING_EQUAL(bands_errors("x: int", "..0 => 0\n1 => 1\n3 => 3\n2 => 2\n4.. => 4", &src), "");
    CU_ASSERT_STRING_EQUAL(bands_errors("x: int", "..0, 5.. => 0\n1..4 => 1", &src), "");

    /* the largest int left out: reported at the parameter */
    m = bands_errors("x: int", "..0 => 1\n1..9223372036854775806 => 2", &src);
    CU_ASSERT(error_at(m, src, "x: int", "bands 'b': no band covers 9223372036854775807 of 'x'"));
    /* the smallest: reported at the first band */
    m = bands_errors("x: int", "-9223372036854775807.. => 1", &src);
    CU_ASSERT(error_at(m, src, "-9223", "bands 'b': no band covers -9223372036854775808 of 'x'"));
    /* no open end below or above */
    m = bands_errors("x: int", "1..3 => 1", &src);
    CU_ASSERT(error_at(m, src, "1..3", "bands 'b': no band covers ..0 of 'x'"));
    CU_ASSERT(error_at(m, src, "x: int", "bands 'b': no band covers 4.. of 'x'"));
    CU_ASSERT_EQUAL(occurrences(m, "error:"), 2);
    /* a single value missing between lists, and a range missing */
    m = bands_errors("x: int", "..1 => 1\n2, 4 => 2\n5..6 => 3\n10.. => 4", &src);
    CU_ASSERT(error_at(m, src, "4 =>", "bands 'b': no band covers 3 of 'x'"));
    CU_ASSERT(error_at(m, src, "10..", "bands 'b': no band covers 7..9 of 'x'"));
    CU_ASSERT_EQUAL(occurrences(m, "error:"), 2);
}

static void test_bands_overlaps(void)
{
    const char *src, *m;
    m = bands_errors("x: int", "..4 => 1\n4..6 => 2\n7.. => 3", &src);
    CU_ASSERT(error_at(m, src, "4..6", "bands 'b': 4 falls in two rows"));
    CU_ASSERT(contains(m, "test.muster:2:1: note: it is also covered here"));
    CU_ASSERT_EQUAL(occurrences(m, "error:"), 1);
    m = bands_errors("x: int", "..3 => 1\n5.. => 2\n2..6 => 3", &src);
    CU_ASSERT(error_at(m, src, "2..6", "bands 'b': 2..3 fall in two rows"));
    CU_ASSERT(error_at(m, src, "5..", "bands 'b': 5..6 fall in two rows"));
    CU_ASSERT_EQUAL(occurrences(m, "error:"), 2);
    /* a value in a list and in a range */
    m = bands_errors("x: int", "..2, 7 => 1\n3..8 => 2\n9.. => 3", &src);
    CU_ASSERT(error_at(m, src, "7 =>", "bands 'b': 7 falls in two rows"));
    /* overlaps at the 64-bit ends */
    m = bands_errors("x: int", "..0 => 1\n1.. => 2\n9223372036854775807 => 3", &src);
    CU_ASSERT(error_at(m, src, "9223372036854775807", "bands 'b': 9223372036854775807 falls in two rows"));
    /* an empty range */
    m = bands_errors("x: int", "..3 => 1\n6..4 => 2\n4.. => 3", &src);
    CU_ASSERT(error_at(m, src, "6..4", "this range is empty: it starts above where it ends"));
    /* in a table (not bands) values may be left out, but not given twice */
    m = compile_errors("table t(n: int) -> int {\n  1..3: 1\n  3: 2\n}\n");
    CU_ASSERT(contains(m, "test.muster:3:3: error: table 't': 3 falls in two rows"));
    CU_ASSERT_STRING_EQUAL(compile_errors("table t(n: int) -> int {\n  1..3: 1\n  5: 2\n}\n"), "");
}

static void test_bands_domain(void)
{
    const char *src, *m;
    /* bands beyond the declared values do no harm */
    CU_ASSERT_STRING_EQUAL(bands_errors("x: int in 1..6", "..3 => 1\n4.. => 2", &src), "");
    CU_ASSERT_STRING_EQUAL(bands_errors("x: int in 1..6", "1..3 => 1\n4..6 => 2", &src), "");
    CU_ASSERT_STRING_EQUAL(bands_errors("x: int in 1..6", "-5..0 => 0\n1..6 => 1\n7..9 => 2", &src), "");
    CU_ASSERT_STRING_EQUAL(bands_errors("x: int in 3", "3 => 1", &src), "");
    CU_ASSERT_STRING_EQUAL(bands_errors("x: int in 1..", "1..2 => 1\n3.. => 2", &src), "");
    CU_ASSERT_STRING_EQUAL(bands_errors("x: int in ..0", "..-1 => 1\n0 => 2", &src), "");
    CU_ASSERT_STRING_EQUAL(bands_errors("x: int in -3..+3", "-3..-1 => 1\n0..3 => 2", &src), "");
    /* what the domain needs */
    m = bands_errors("x: int in 1..6", "2..6 => 1", &src);
    CU_ASSERT(error_at(m, src, "2..6", "bands 'b': no band covers 1 of 'x'"));
    m = bands_errors("x: int in 1..6", "1..5 => 1", &src);
    CU_ASSERT(error_at(m, src, "x: int", "bands 'b': no band covers 6 of 'x'"));
    m = bands_errors("x: int in 1..6", "1..2 => 1\n5..6 => 2", &src);
    CU_ASSERT(error_at(m, src, "5..6", "bands 'b': no band covers 3..4 of 'x'"));
    m = bands_errors("x: int in 1..", "1..2 => 1", &src);
    CU_ASSERT(error_at(m, src, "x: int", "bands 'b': no band covers 3.. of 'x'"));
    m = bands_errors("x: int in 1..6", "7.. => 1", &src);
    CU_ASSERT(error_at(m, src, "7..", "bands 'b': no band covers 1..6 of 'x'"));
    /* only bands take a domain */
    m = compile_errors("table t(n: int in 1..6) -> int {\n  1..6: 1\n}\n");
    CU_ASSERT(contains(m, "test.muster:1:19: error: only the parameters of bands and odds take a range of values"));
}

static void test_table_structure(void)
{
    Compiled *c = must_compile("enum Cover { none, light, heavy }\n"
                               "enum Formation { line, column }\n"
                               "table moves(f: Formation, c: Cover) -> int {\n"
                               "  columns heavy none light\n"
                               "  column: - 8 ?\n"
                               "  line: 1 6 4\n"
                               "}\n"
                               "table cost(n: int) -> int {\n"
                               "  3: 30\n"
                               "  1, 2: 10\n"
                               "}\n"
                               "bands b(x: int) -> int {\n"
                               "  5.. => 2\n"
                               "  ..0 => 0\n"
                               "  1..4 => 1\n"
                               "}\n"
                               "table later(f: Formation) -> rat {\n"
                               "  line: ?\n"
                               "  column: 1/2\n"
                               "}\n");
    const Table *t = table_named(c, "moves");
    CU_ASSERT_EQUAL(t->ndims, 2);
    CU_ASSERT_EQUAL(t->dim[0].mode, KEYS_INDEX);
    CU_ASSERT_EQUAL(t->dim[0].n, 2);
    /* key value (member index) -> row as written */
    CU_ASSERT_EQUAL(t->dim[0].index[0], 1);   /* line */
    CU_ASSERT_EQUAL(t->dim[0].index[1], 0);   /* column */
    CU_ASSERT_EQUAL(t->dim[1].index[0], 1);   /* none */
    CU_ASSERT_EQUAL(t->dim[1].index[1], 2);   /* light */
    CU_ASSERT_EQUAL(t->dim[1].index[2], 0);   /* heavy */
    CU_ASSERT_EQUAL(t->kinds[0], CELL_NA);
    CU_ASSERT_EQUAL(t->kinds[1], CELL_VALUE);
    CU_ASSERT_EQUAL(t->cells[1].as.i, 8);
    CU_ASSERT_EQUAL(t->kinds[2], CELL_UNKNOWN);
    CU_ASSERT_EQUAL(t->cells[5].as.i, 4);
    t = table_named(c, "cost");
    CU_ASSERT_EQUAL(t->dim[0].mode, KEYS_INTS);
    CU_ASSERT_EQUAL_FATAL(t->dim[0].nkeys, 3);
    CU_ASSERT_EQUAL(t->dim[0].lo[0], 1);
    CU_ASSERT_EQUAL(t->dim[0].lo[2], 3);
    CU_ASSERT_EQUAL(t->dim[0].row[0], 1);
    CU_ASSERT_EQUAL(t->dim[0].row[1], 1);
    CU_ASSERT_EQUAL(t->dim[0].row[2], 0);
    t = table_named(c, "b");
    CU_ASSERT_EQUAL(t->dim[0].mode, KEYS_RANGES);
    CU_ASSERT_EQUAL_FATAL(t->dim[0].nkeys, 3);
    CU_ASSERT_EQUAL(t->dim[0].lo[0], INT64_MIN);
    CU_ASSERT_EQUAL(t->dim[0].hi[0], 0);
    CU_ASSERT_EQUAL(t->dim[0].lo[1], 1);
    CU_ASSERT_EQUAL(t->dim[0].hi[1], 4);
    CU_ASSERT_EQUAL(t->dim[0].lo[2], 5);
    CU_ASSERT_EQUAL(t->dim[0].hi[2], INT64_MAX);
    CU_ASSERT_EQUAL(t->dim[0].row[2], 0);
    /* a fraction in a rat table is kept exact */
    t = table_named(c, "later");
    CU_ASSERT_EQUAL(t->cells[1].tag, VAL_RAT);
    /* the cells the rules text leaves out, in order, with where they are */
    CU_ASSERT_EQUAL_FATAL(c->nunknowns, 2);
    CU_ASSERT_STRING_EQUAL(c->unknowns[0].what, "table 'moves', row column, column light");
    CU_ASSERT_STRING_EQUAL(c->unknowns[1].what, "table 'later', row line");
    const char *text = c->src->text;
    CU_ASSERT_EQUAL(c->unknowns[0].span.begin, (uint32_t)(strstr(text, "?\n  line") - text));
    CU_ASSERT_EQUAL(c->unknowns[1].span.begin, (uint32_t)(strstr(text, "line: ?") - text) + 6);
}

static void test_table_errors(void)
{
    const char *src = "enum F { a, b }\n"
                      "table t(f: F = a) -> int {\n"
                      "  a: 1\n"
                      "  b: 2\n"
                      "}\n"
                      "table r(f: F) -> rat {\n"
                      "  a: 1/0\n"
                      "  b: 1/-2\n"
                      "}\n"
                      "table s(f: F) -> F {\n"
                      "  a: c\n"
                      "  b: a\n"
                      "}\n"
                      "table u(f: F) -> int {\n"
                      "  a: nothing\n"
                      "  b: 2\n"
                      "}\n";
    const char *m = expect_errors(src, 4);
    CU_ASSERT(error_at(m, src, "a) -> int", "the keys of a table have no defaults"));
    CU_ASSERT(error_at(m, src, "1/0", "a fraction cannot have 0 below the line"));
    CU_ASSERT(error_at(m, src, "c\n", "'c' is not a member of F"));
    CU_ASSERT(error_at(m, src, "nothing", "'nothing' is not a value here (a cell holds a number, a fraction like 1/4, "
                                          "true/false, a string, a member of an enum, '?' or '-')"));
    /* a member shared by two enums is the one of the wanted type */
    Compiled *c = must_compile("enum A { x, y }\nenum B { x, z }\ntable t(a: A) -> B {\n  x: x\n  y: z\n}\n");
    const Table *t = table_named(c, "t");
    CU_ASSERT_EQUAL(t->cells[0].tag, VAL_ENUM);
    CU_ASSERT_EQUAL(t->cells[0].enum_id, 1);
    CU_ASSERT_EQUAL(t->cells[0].as.i, 0);
}

/* ---- outcomes, records, modifiers, choices, examples, sequences ---- */

static void test_rules_declaration_errors(void)
{
    const char *src = "outcome Empty { }\n"
                      "outcome Shot(hits: int = 1) { a (hits: true), b (misses: 2), c }\n"
                      "choice Pick \"?\" { left, right, left } default middle\n"
                      "proc f() -> str { return text(3) }\n"
                      "proc g() -> Pick { return choose() }\n"
                      "modifiers m(x: bool) {\n"
                      "  one of {\n"
                      "    x : +1 \"a\"\n"
                      "    cap ..3 \"c\"\n"
                      "  }\n"
                      "  start at \"no\" \"base\"\n"
                      "}\n"
                      "modifiers n(x: bool) { start at true \"base\" }\n"
                      "sequence s { phase \"1\" { phase \"2\" { phase \"3\" { phase \"4\" { phase \"5\" { step \"x\" } } } } } }\n";
    const char *m = expect_errors(src, 11);
    CU_ASSERT(error_at(m, src, "Empty", "outcome 'Empty' has no members"));
    CU_ASSERT(error_at(m, src, "true)", "this is bool, but int is wanted here"));
    CU_ASSERT(error_at(m, src, "misses", "outcome Shot has no field 'misses'"));
    CU_ASSERT(error_at_nth(m, src, "left", 1, "'left' is listed twice in choice Pick"));
    CU_ASSERT(error_at(m, src, "middle", "the default 'middle' is not one of the options of Pick"));
    CU_ASSERT(error_at(m, src, "3) }", "text() gives the words of an enum member or outcome, not of int"));
    CU_ASSERT(error_at(m, src, "choose()", "wrong number of arguments to choose: 0 given; use choose(Choice)"));
    CU_ASSERT(error_at(m, src, "cap ..3", "'one of' holds conditional modifiers only"));
    CU_ASSERT(error_at(m, src, "start at \"no\"", "'start at' gives the starting value, so it comes first"));
    CU_ASSERT(error_at(m, src, "true \"base\"", "the base must be a number, not bool"));
    CU_ASSERT(error_at(m, src, "phase \"5\"", "phases nest at most four deep"));
}

/* ---- the public interface: examples, checks, turns, imports ---- */

static const char examples_src[] =
    "enum Cover { none, light \"Light cover\" }\n"
    "table cover_mod(c: Cover) -> int {\n"
    "  none: 0\n"
    "  light: ?\n"
    "}\n"
    "choice Critical \"Any 6\" { extra_hit, disorder } default extra_hit\n"
    "proc hits(n: int) -> int {\n"
    "  let p = roll n d6\n"
    "  if any(p == 6) and choose(Critical) == extra_hit { return count(p >= 4) + 1 }\n"
    "  return count(p >= 4)\n"
    "}\n"
    "proc cover(c: Cover) -> Cover { return c }\n"
    "example \"passes\" {\n"
    "  dice 6, 1\n"
    "  expect hits(2) == 2\n"
    "}\n"
    "example \"chosen\" {\n"
    "  choose Critical = disorder\n"
    "  dice 6, 1\n"
    "  expect hits(2) == 1\n"
    "}\n"
    "example \"fails twice\" {\n"
    "  expect hits(0) == 1\n"
    "  expect cover(none) == light\n"
    "  expect hits(0) > 0\n"
    "}\n"
    "example \"dice left over\" {\n"
    "  dice 4, 4, 4\n"
    "  expect hits(2) == 2\n"
    "}\n"
    "example \"unknown cell\" {\n"
    "  expect cover_mod(light) == 0\n"
    "}\n";

static void test_api_examples(void)
{
    Api a;
    api_open(&a, examples_src);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a.prog);
    int passed = 0, failed = 0;
    CU_ASSERT_EQUAL(muster_test(a.ctx, a.prog, &passed, &failed), MUSTER_ERROR);
    CU_ASSERT_EQUAL(passed, 2);
    CU_ASSERT_EQUAL(failed, 3);
    CU_ASSERT_STRING_EQUAL(api_out(&a), "PASS api.muster:13: passes\n"
                                        "PASS api.muster:17: chosen\n"
                                        "FAIL api.muster:22: fails twice\n"
                                        "FAIL api.muster:27: dice left over\n"
                                        "FAIL api.muster:31: unknown cell\n");
    const char *err = api_err(&a);
    CU_ASSERT(contains(err, "api.muster:23:10: error: example \"fails twice\" fails: expected 1, got 0\n"));
    CU_ASSERT(contains(err, "api.muster:24:10: error: example \"fails twice\" fails: expected light (\"Light cover\"), "
                            "got none\n"));
    CU_ASSERT(contains(err, "api.muster:25:10: error: example \"fails twice\" fails: expected a value > 0, got 0\n"));
    CU_ASSERT(contains(err, "api.muster:27:9: error: example \"dice left over\" gives 3 dice but uses only 2 of them\n"));
    /* the '?' cell's value is needed by the comparison, in the example */
    CU_ASSERT(contains(err, "api.muster:4:10: error: table 'cover_mod' gives no value for light: the rules text "
                            "does not say (marked '?') (in 'example \"unknown cell\"')\n"));
    CU_ASSERT(contains(err, "api.muster:32:27: note: its value is needed here\n"));
    CU_ASSERT(contains(err, "api.muster:31:9: note: while running example \"unknown cell\"\n"));
    /* muster_test reports no warnings; the counts add up over calls */
    CU_ASSERT_FALSE(contains(err, "warning"));
    CU_ASSERT_EQUAL(muster_test(a.ctx, a.prog, &passed, &failed), MUSTER_ERROR);
    CU_ASSERT_EQUAL(passed, 4);
    CU_ASSERT_EQUAL(failed, 6);
    api_close(&a);
}

static void test_api_check(void)
{
    Api a;
    api_open(&a, examples_src);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a.prog);
    int passed = 0, failed = 0;
    CU_ASSERT_EQUAL(muster_check(a.ctx, a.prog, &passed, &failed), MUSTER_ERROR);
    CU_ASSERT_EQUAL(passed, 2);
    CU_ASSERT_EQUAL(failed, 3);
    /* check prints nothing of its own on the output: the driver does */
    CU_ASSERT_STRING_EQUAL(api_out(&a), "");
    const char *err = api_err(&a);
    /* the unknown cell first, as a warning, then the failures */
    static const char warning[] = "api.muster:4:10: warning: not given in the rules text: table 'cover_mod', row light\n";
    CU_ASSERT(strncmp(err, warning, strlen(warning)) == 0);
    CU_ASSERT(contains(err, "example \"fails twice\" fails: expected 1, got 0"));
    CU_ASSERT_EQUAL(occurrences(err, "warning:"), 1);
    api_close(&a);

    /* all examples passing, and none at all */
    api_open(&a, "proc f() -> int { return 2 }\nexample \"two\" { expect f() == 2 }\nexample \"also\" { expect f() > 1 }\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a.prog);
    passed = failed = 0;
    CU_ASSERT_EQUAL(muster_check(a.ctx, a.prog, &passed, &failed), MUSTER_OK);
    CU_ASSERT_EQUAL(passed, 2);
    CU_ASSERT_EQUAL(failed, 0);
    CU_ASSERT_STRING_EQUAL(api_err(&a), "");
    api_close(&a);
    api_open(&a, "proc f() -> int { return 2 }\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a.prog);
    passed = failed = 0;
    CU_ASSERT_EQUAL(muster_test(a.ctx, a.prog, &passed, &failed), MUSTER_OK);
    CU_ASSERT_EQUAL(passed + failed, 0);
    CU_ASSERT_STRING_EQUAL(api_out(&a), "");
    api_close(&a);
}

static void test_api_choose(void)
{
    Api a;
    api_open(&a, examples_src);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a.prog);
    char *n2[] = { "n=2" };
    char *disorder[] = { "Critical=disorder" };
    muster_run_opts o = { .dice = "6,5" };
    CU_ASSERT_EQUAL(muster_run(a.ctx, a.prog, "hits", 1, n2, &o), MUSTER_OK);
    o.choices = disorder;
    o.nchoices = 1;
    CU_ASSERT_EQUAL(muster_run(a.ctx, a.prog, "hits", 1, n2, &o), MUSTER_OK);
    CU_ASSERT_STRING_EQUAL(api_out(&a), "3\n2\n");
    char *bad[] = { "Cover=light" };
    o.choices = bad;
    CU_ASSERT_EQUAL(muster_run(a.ctx, a.prog, "hits", 1, n2, &o), MUSTER_USAGE);
    CU_ASSERT(contains(api_err(&a), "muster: error: --choose wants CHOICE=OPTION, where CHOICE is one of the script's "
                                    "choices: Critical\n"));
    char *option[] = { "Critical=extra" };
    o.choices = option;
    CU_ASSERT_EQUAL(muster_run(a.ctx, a.prog, "hits", 1, n2, &o), MUSTER_USAGE);
    CU_ASSERT(contains(api_err(&a), "muster: error: 'extra' is not an option of Critical (one of: extra_hit disorder)\n"));
    api_close(&a);
}

static void test_api_turn(void)
{
    Api a;
    api_open(&a, "ruleset \"Rules\" { units cm }\n"
                 "proc init() -> int { return roll d6 }\n"
                 "## Both sides.\n"
                 "sequence turn {\n"
                 "  phase \"Start\" { step init \"Initiative\" step \"Move\" }\n"
                 "  step \"End\"\n"
                 "}\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a.prog);
    CU_ASSERT_EQUAL(muster_turn(a.ctx, a.prog), MUSTER_OK);
    CU_ASSERT_STRING_EQUAL(api_out(&a), "Rules: turn\n"
                                        "Both sides.\n"
                                        "1. Start\n"
                                        "   1.1. Initiative  [muster run ... init]\n"
                                        "   1.2. Move\n"
                                        "2. End\n");
    api_close(&a);
    /* two sequences: each under its own name */
    api_open(&a, "sequence day { step \"Dawn\" }\nsequence night { step \"Dusk\" }\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a.prog);
    CU_ASSERT_EQUAL(muster_turn(a.ctx, a.prog), MUSTER_OK);
    CU_ASSERT_STRING_EQUAL(api_out(&a), "day\n1. Dawn\n\nnight\n1. Dusk\n");
    api_close(&a);
    api_open(&a, "proc f() -> int { return 1 }\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a.prog);
    CU_ASSERT_EQUAL(muster_turn(a.ctx, a.prog), MUSTER_ERROR);
    CU_ASSERT_STRING_EQUAL(api_err(&a), "muster: error: api.muster declares no turn sequence (a 'sequence' block)\n");
    api_close(&a);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
}

static void test_api_imports(void)
{
    const char *tmp = getenv("TMPDIR");
    char dir[200];
    snprintf(dir, sizeof dir, "%s/muster-import-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char main_path[256], lib_path[256], sub_path[256];
    snprintf(main_path, sizeof main_path, "%s/main.muster", dir);
    snprintf(lib_path, sizeof lib_path, "%s/lib.muster", dir);
    snprintf(sub_path, sizeof sub_path, "%s/sub.muster", dir);
    write_file(main_path, "ruleset \"Main\" { units cm }\n"
                          "import \"lib\"\n"
                          "import \"lib.muster\"\n"
                          "import \"sub\"\n"
                          "proc twice(n: int) -> int { return double(n) + double(n) }\n"
                          "example \"main\" { expect twice(1) == 4 }\n");
    write_file(lib_path, "ruleset \"Library\" { version \"1\" }\n"
                         "import \"sub\"\n"
                         "proc double(n: int) -> int { return 2 * n }\n"
                         "example \"lib fails, but only when run itself\" { expect double(1) == 3 }\n");
    write_file(sub_path, "enum Side { red, blue }\n");
    Api a;
    memset(&a, 0, sizeof a);
    a.out = open_memstream(&a.out_buf, &a.out_len);
    a.err = open_memstream(&a.err_buf, &a.err_len);
    CU_ASSERT_FATAL(a.out && a.err);
    a.ctx = muster_new(a.out, a.err, 0);
    /* each file once, however often imported; the imported examples are not run */
    a.prog = muster_load(a.ctx, main_path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a.prog);
    CU_ASSERT_STRING_EQUAL(api_err(&a), "");
    int passed = 0, failed = 0;
    CU_ASSERT_EQUAL(muster_test(a.ctx, a.prog, &passed, &failed), MUSTER_OK);
    CU_ASSERT_EQUAL(passed, 1);
    CU_ASSERT_EQUAL(failed, 0);
    char line[400];
    snprintf(line, sizeof line, "PASS %s:6: main\n", main_path);
    CU_ASSERT_STRING_EQUAL(api_out(&a), line);
    /* the library's own header does not clash with the main file's */
    write_file(sub_path, "sequence turn { step \"x\" }\n");
    a.prog = muster_load(a.ctx, main_path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a.prog);
    CU_ASSERT_EQUAL(muster_turn(a.ctx, a.prog), MUSTER_OK);
    CU_ASSERT(contains(api_out(&a), "Main: turn\n1. x\n"));

    /* a file that is not there */
    write_file(sub_path, "import \"missing_piece\"\n");
    a.prog = muster_load(a.ctx, main_path);
    CU_ASSERT_PTR_NULL(a.prog);
    char want[512];
    snprintf(want, sizeof want, "/sub.muster:1:8: error: cannot find 'missing_piece' beside this file, in MUSTER_PATH "
             "or in %s\n", MUSTER_DATADIR);
    CU_ASSERT(contains(api_err(&a), want));
    api_close(&a);
    unlink(main_path);
    unlink(lib_path);
    unlink(sub_path);
    rmdir(dir);
}

/* The peephole pass fuses runs of LOADs, but never across a jump target:
 * here `b or c` jumps straight to the LOAD of d. */
static void test_peephole_keeps_jump_targets(void)
{
    Compiled *c = must_compile("proc g(x: bool, y: int) -> int { if x { return y } return 0 - y }\n"
                               "proc f(a: int, b: bool, c: bool, d: int) -> int { return g(b or c, d) + a }\n"
                               "proc h(a: int, b: int, c: int) -> int { return g(true, a + b + c) }\n");
    static const uint8_t f[] = { OP_LOAD, 1, OP_OR_JUMP, 2, 0, OP_LOAD, 2, OP_LOAD, 3, OP_CALL, 0, 0, 2,
                                 OP_LOAD, 0, OP_ADD, OP_RETURN };
    const Proto *p = proto_named(c, "f");
    CU_ASSERT_EQUAL_FATAL(p->len, (int)sizeof f);
    CU_ASSERT_EQUAL(memcmp(p->code, f, sizeof f), 0);
    CU_ASSERT(contains(disassembly(c, "h"), "LOADN       0 2 ; slots 0..1\n"));
    Run r;
    run_seeded(&r, c, 1);
    for (int b = 0; b < 2; b++)
        for (int cc = 0; cc < 2; cc++) {
            Value args[4] = { val_int(100), val_bool(b), val_bool(cc), val_int(7) };
            CU_ASSERT_EQUAL_FATAL(run_call(&r, "f", args, 4), 0);
            CU_ASSERT_EQUAL(r.result.as.i, (b || cc) ? 107 : 93);
        }
    Value three[3] = { val_int(1), val_int(2), val_int(3) };
    CU_ASSERT_EQUAL_FATAL(run_call(&r, "h", three, 3), 0);
    CU_ASSERT_EQUAL(r.result.as.i, 6);
}

/* How many MERGEs the compiled code of `name` holds. */
static int merges_in(const Compiled *c, const char *name)
{
    const Proto *p = proto_named(c, name);
    int n = 0;
    for (int pc = 0; pc < p->len; pc += chunk_insn_len(p->code, pc))
        n += p->code[pc] == OP_MERGE;
    return n;
}

/* Where the exact engine may merge runs: between statements and after an
 * addition of two parts that both may roll, only with dice before and
 * after, and never twice with no dice between. */
static void test_merge_points(void)
{
    Compiled *c = must_compile(
        "proc chain(n: int) -> int {\n"
        "  let h = count(roll n d6 >= 4)\n"
        "  let w = count(roll h d6 >= 4)\n"
        "  return count(roll w d6 >= 4)\n"
        "}\n"
        "proc plain(a: int) -> int {\n  let b = a + 1\n  let c = b * 2\n  return c\n}\n"
        "proc one_roll(a: int) -> int {\n  let b = a + 1\n  let c = b + roll d6\n  return c + a\n}\n"
        "proc parts() -> int { return sum(roll 2d6) + sum(roll 2d8) + sum(roll 2d10) }\n"
        "proc pure(n: int) -> int { if n == 0 { return 0 } return 1 + pure(n - 1) }\n"
        "proc calls() -> int { return pure(3) + pure(4) }\n"
        "proc nested() -> int {\n  let r = roll d6\n  if r == 6 { return r + roll d6 }\n  return r\n}\n");
    CU_ASSERT_EQUAL(merges_in(c, "chain"), 2);     /* before the 2nd and 3rd statements */
    CU_ASSERT_EQUAL(merges_in(c, "plain"), 0);     /* no dice */
    CU_ASSERT_EQUAL(merges_in(c, "one_roll"), 0);  /* dice before, none after, or the reverse */
    CU_ASSERT_EQUAL(merges_in(c, "parts"), 1);     /* after the first addition: a third part follows */
    CU_ASSERT_EQUAL(merges_in(c, "calls"), 0);     /* the procedure called rolls no dice */
    CU_ASSERT_EQUAL(merges_in(c, "nested"), 1);    /* after the roll; not again in the if: no dice between */
    CU_ASSERT(contains(disassembly(c, "parts"), "ADD\n  0"));
}

/* ---- specializing a call for fixed arguments ---- */

static const char spec_src[] =
    "record R { a: int  b: int  c: bool }\n"
    "enum Side { left, right }\n"
    "choice Crit \"?\" { more \"+1\"  less \"-1\" } default more\n"
    "bands band(t: int) -> int {\n  ..2 => 1\n  3..4 => ?\n  5.. => 3\n}\n"
    "table side_bonus(s: Side) -> int {\n  left: 1\n  right: 2\n}\n"
    "proc make(x: int) -> R { return R(a: x, b: x * 2, c: x > 3) }\n"
    "proc mods(s: Side, k: int) -> int { if s == left and k > 1 { return side_bonus(s) + k } return k }\n"
    "proc inner(n: int, k: int) -> int {\n"
    "  let d = roll n d6\n"
    "  if any(d == 6) and k > 1 { return count(d >= 4) + k }\n"
    "  if all(d <= 2) or k == 0 { return 0 }\n"
    "  return sum(d) + highest(d)\n"
    "}\n"
    "proc crit() -> int { if choose(Crit) == more { return 1 } return 0 - 1 }\n"
    "proc main(n: int, k: int, s: Side, bonus: bool) -> int {\n"
    "  let r = make(roll d6)\n"
    "  let base = inner(n, mods(s, k)) + crit()\n"
    "  if r.c or bonus { base = base + r.b }\n"
    "  if roll d6 == 1 and not bonus { reroll }\n"
    "  return base + band(roll d6) + r.a * 0 + make(k).b\n"
    "}\n"
    "proc whole(n: int) -> R { let x = roll n d4  return R(a: count(x == 4), b: sum(x), c: doubles(x)) }\n"
    "proc mostly(n: int) -> R { if roll d6 == 1 { return R(a: n, b: roll d3, c: true) } return R(a: roll d3, b: n, c: false) }\n"
    "proc asks() -> rat { return prob(roll d6 >= 5) }\n"
    "table grid(r: int, s: Side) -> int {\n  columns left right\n  1: 10 20\n  2: 30 ?\n  3: 50 60\n}\n"
    "proc grid_roll(s: Side) -> int { return grid(roll d3, s) + grid(roll d3, left) }\n"
    "proc critical(n: int, k: int) -> int { let d = roll n d6  let h = count(d >= 4)  if any(d == 6) { h = h + k }  return h }\n"
    "proc steps(n: int) -> int { let d = roll n d6  let h = count(d >= 4)  if any(d == 6) { h = h + 1 }  return floor(h / 3) * 10 + h % 2 }\n"
    "proc unread(m: int) -> int { let a = roll d6  let b = roll d6  let w = 0  if a < b { w = m }\n"
    "  if a + b > 7 { return 1 }  return 0 }\n"
    "record Q { ge: bool  lt: bool  eq: bool  ne: bool  le: bool  gt: bool  fl: int  ce: int  ro: int  fl2: int }\n"
    "proc quot(k: int, c: rat) -> Q {\n"
    "  let h = roll d20 - 10\n"
    "  let q = h / k\n"
    "  return Q(ge: q >= c, lt: q < c, eq: q == c, ne: q != c, le: c <= q, gt: c > q,\n"
    "           fl: floor(q), ce: ceil(q), ro: round(q), fl2: floor(h / k))\n"
    "}\n"
    "proc opposed(m: int) -> int { return band((roll d6 + m) - (roll d6 - 1)) * 10 + band(roll d6 + m + 1) }\n"
    "proc whole_q(k: int) -> int {\n"
    "  let h = roll d20 - 5\n"
    "  let f = floor(h / k)\n"
    "  let c = ceil(h / k)\n"
    "  if f >= 2 and c < 3 { return 1 }\n"
    "  if f > 0 { return 2 }\n"
    "  if c <= -1 { return 3 }\n"
    "  if f == 0 { return 4 }\n"
    "  if c / 2 > 1/2 { return 5 }\n"
    "  if 0 > f { return 6 }\n"
    "  return 7\n"
    "}\n"
    "proc quot_if(k: int) -> int {\n"
    "  let q = (roll d20 - 10) / k\n"
    "  if q > 1 { return 1 }\n"
    "  if q == 0 { return 2 }\n"
    "  return 3\n"
    "}\n"
    "proc eff(k: int) -> int {\n"
    "  let t = roll d10 + k\n"
    "  let extra = 0\n"
    "  if t >= 9 { extra = t - 14 }\n"
    "  return band(t)\n"
    "}\n"
    /* '?' values: a test nobody reads still stops the run on one */
    "proc gaps(k: int) -> R {\n"
    "  let t = band(roll d6 + k)\n"
    "  let unread = t == 1\n"
    "  return R(a: t, b: roll d6, c: k > 1)\n"
    "}\n"
    "proc kept(k: int) -> R {\n"
    "  let t = band(roll d6 + k)\n"
    "  let u: int = ?\n"
    "  if t == 3 and roll d2 == 1 { return ? }\n"
    "  return R(a: t, b: u, c: roll d6 > 3)\n"
    "}\n"
    "proc maybe(k: int) -> int { if roll d6 > k { return ? } return band(roll d6) }\n";

static int spec_run(Run *r, int proto, const Value *args, int nargs, Value *out)
{
    arena_reset(r->vm.scratch);
    return vm_call(&r->vm, proto, args, nargs, out);
}

/* The specialized procedure gives what the original gives, trial by trial
 * on the same dice: results, errors ('?' on some paths), rerolls. */
static void test_specialized_calls_match(void)
{
    Compiled *c = must_compile(spec_src);
    struct { const char *proc; Value args[4]; int nargs; int field; } cases[] = {
        { "main", { val_int(3), val_int(2), val_enum(0, 0), val_bool(false) }, 4, -1 },
        { "main", { val_int(5), val_int(0), val_enum(0, 1), val_bool(true) }, 4, -1 },
        { "main", { val_int(1), val_int(3), val_enum(0, 0), val_bool(true) }, 4, -1 },
        { "whole", { val_int(4) }, 1, -1 },
        { "whole", { val_int(4) }, 1, 0 },
        { "whole", { val_int(6) }, 1, 2 },
        { "eff", { val_int(-4) }, 1, -1 },
        { "grid_roll", { val_enum(0, 1) }, 1, -1 },
        { "critical", { val_int(8), val_int(1) }, 2, -1 },
        { "critical", { val_int(5), val_int(3) }, 2, -1 },
        { "gaps", { val_int(0) }, 1, -1 },
        { "gaps", { val_int(0) }, 1, 1 },
        { "kept", { val_int(1) }, 1, -1 },
        { "kept", { val_int(1) }, 1, 0 },
        { "kept", { val_int(1) }, 1, 1 },
        { "kept", { val_int(1) }, 1, 2 },
        { "maybe", { val_int(3) }, 1, -1 },
        { "quot", { val_int(3), rat(1, 3) }, 2, -1 },
        { "quot", { val_int(3), rat(2, 1) }, 2, -1 },
        { "quot", { val_int(-3), rat(-2, 3) }, 2, -1 },
        { "quot", { val_int(7), rat(-1, 2) }, 2, -1 },
        { "quot", { val_int(-1), rat(5, 2) }, 2, -1 },
        { "quot", { val_int(2), rat(0, 1) }, 2, -1 },
        { "quot", { val_int(-4), rat(3, 4) }, 2, -1 },
        { "quot_if", { val_int(2) }, 1, -1 },
        { "steps", { val_int(8) }, 1, -1 },
        { "unread", { val_int(2) }, 1, -1 },
        { "mostly", { val_int(5) }, 1, -1 },
        { "mostly", { val_int(5) }, 1, 1 },
        { "whole_q", { val_int(3) }, 1, -1 },
        { "whole_q", { val_int(2) }, 1, -1 },
        { "whole_q", { val_int(1) }, 1, -1 },
        { "whole_q", { val_int(-3) }, 1, -1 },
        { "opposed", { val_int(0) }, 1, -1 },
        { "opposed", { val_int(-3) }, 1, -1 },
        { "opposed", { val_int(2) }, 1, -1 },
        { "quot_if", { val_int(-3) }, 1, -1 },
    };
    int enum_side = -1;
    for (int e = 0; e < c->prog->nenums; e++)
        if (!strcmp(c->prog->enums[e].name, "Side"))
            enum_side = e;
    CU_ASSERT_FATAL(enum_side >= 0);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        for (int i = 0; i < cases[k].nargs; i++)
            if (cases[k].args[i].tag == VAL_ENUM)
                cases[k].args[i].enum_id = enum_side;
        Run plain, spec;
        Arena a1 = { 0 }, a2 = { 0 };
        run_seeded(&plain, c, 7 + k);
        run_seeded(&spec, c, 7 + k);
        plain.vm.scratch = &a1;
        spec.vm.scratch = &a2;
        int orig = chunk_find_proto(c->prog, cases[k].proc);
        int sp = -1;
        const Program *sprog = specialize_call(&spec.vm, orig, cases[k].args, cases[k].nargs, cases[k].field, &sp);
        CU_ASSERT_FATAL(sprog != NULL && sp >= 0);
        spec.vm.prog = sprog;    /* the specialized call runs on its own program */
        int mismatches = 0, unknowns = 0;
        for (int t = 0; t < 4000; t++) {
            Value want, got;
            int rc1 = spec_run(&plain, orig, cases[k].args, cases[k].nargs, &want);
            int rc2 = spec_run(&spec, sp, NULL, 0, &got);
            if (rc1 == 0 && cases[k].field >= 0 && want.tag == VAL_RECORD)
                want = want.as.r->field[cases[k].field];   /* (of a record not given: that unknown) */
            if (rc1 != rc2 || (rc1 == 0 && strcmp(show_value(want), show_value(got)) != 0)
                || (rc1 != 0 && plain.vm.error_unknown != spec.vm.error_unknown))
                mismatches++;
            unknowns += rc1 != 0 && plain.vm.error_unknown;
        }
        CU_ASSERT_EQUAL(mismatches, 0);
        if (!strcmp(cases[k].proc, "main") || !strcmp(cases[k].proc, "grid_roll") || !strcmp(cases[k].proc, "gaps"))
            CU_ASSERT(unknowns > 0);      /* the '?' cell was needed, and alike */
        /* the same dice were used: the streams are still in step */
        CU_ASSERT_EQUAL(rng_next(&plain.rng.rng), rng_next(&spec.rng.rng));
    }
}

/* A record result returned as a code: decoded, the same records as the
 * original's, trial by trial; and one that cannot be coded (a field that
 * is a pool; more than SPEC_MAX_CODES records) is specialized as before,
 * with no codes. */
static void test_specialized_codes(void)
{
    Compiled *c = must_compile(spec_src);
    struct { const char *proc; Value args[2]; int nargs; } cases[] = {
        { "whole", { val_int(4) }, 1 },
        { "whole", { val_int(7) }, 1 },
        { "mostly", { val_int(5) }, 1 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        Run plain, spec;
        Arena a1 = { 0 }, a2 = { 0 };
        run_seeded(&plain, c, 70 + k);
        run_seeded(&spec, c, 70 + k);
        plain.vm.scratch = &a1;
        spec.vm.scratch = &a2;
        int orig = chunk_find_proto(c->prog, cases[k].proc);
        int sp = -1;
        SpecCodes codes;
        const Program *sprog = specialize_call_coded(&spec.vm, orig, cases[k].args, cases[k].nargs, &sp, &codes);
        CU_ASSERT_FATAL(sprog != NULL && sp >= 0);
        CU_ASSERT(codes.n > 0 && codes.ncodes <= SPEC_MAX_CODES);
        spec.vm.prog = sprog;
        int mismatches = 0;
        for (int t = 0; t < 3000; t++) {
            Value want, got, rec;
            int rc1 = spec_run(&plain, orig, cases[k].args, cases[k].nargs, &want);
            int rc2 = spec_run(&spec, sp, NULL, 0, &got);
            if (rc1 != 0 || rc2 != 0 || got.tag != VAL_INT || !specialize_decode(&codes, got.as.i, &rec)
                || strcmp(show_value(want), show_value(rec)) != 0)
                mismatches++;
        }
        CU_ASSERT_EQUAL(mismatches, 0);
        CU_ASSERT_EQUAL(rng_next(&plain.rng.rng), rng_next(&spec.rng.rng));
    }
    /* fields far from 0 (their products could overflow): less their lowest
     * value first; and a field that is a die plus a constant, taken as the die */
    Compiled *far = must_compile("record F { a: int  b: int  c: bool  d: int }\n"
                                 "proc far(n: int) -> F {\n"
                                 "  let x = roll d6 + n\n"
                                 "  return F(a: x, b: roll d4 - n, c: roll d6 > 3, d: roll d3 + 2)\n"
                                 "}\n");
    static const int64_t offsets[] = { 0, 3000000000LL, -4611686018427387000LL };
    for (size_t k = 0; k < sizeof offsets / sizeof *offsets; k++) {
        Run plain, spec;
        Arena a1 = { 0 }, a2 = { 0 };
        run_seeded(&plain, far, 90 + k);
        run_seeded(&spec, far, 90 + k);
        plain.vm.scratch = &a1;
        spec.vm.scratch = &a2;
        Value n[1] = { val_int(offsets[k]) };
        int orig = chunk_find_proto(far->prog, "far"), sp = -1;
        SpecCodes codes;
        const Program *sprog = specialize_call_coded(&spec.vm, orig, n, 1, &sp, &codes);
        CU_ASSERT_FATAL(sprog != NULL && codes.n > 0);
        spec.vm.prog = sprog;
        int mismatches = 0;
        for (int t = 0; t < 500; t++) {
            Value want, got, rec;
            if (spec_run(&plain, orig, n, 1, &want) != 0 || spec_run(&spec, sp, NULL, 0, &got) != 0
                || got.tag != VAL_INT || !specialize_decode(&codes, got.as.i, &rec)
                || strcmp(show_value(want), show_value(rec)) != 0)
                mismatches++;
        }
        CU_ASSERT_EQUAL(mismatches, 0);
    }
    Compiled *p = must_compile("record P { dice: pool  n: int }\n"
                               "proc keep(n: int) -> P { return P(dice: roll n d6, n: n) }\n");
    Run r;
    run_seeded(&r, p, 1);
    Value four[1] = { val_int(4) };
    int sp = -1;
    SpecCodes codes;
    CU_ASSERT_PTR_NOT_NULL(specialize_call_coded(&r.vm, chunk_find_proto(p->prog, "keep"), four, 1, &sp, &codes));
    CU_ASSERT_EQUAL(codes.n, 0);
    Value none;
    CU_ASSERT(!specialize_decode(&codes, 0, &none));
    /* quot's record has six bools and four ints of some seven values each */
    Value quot_args[2] = { val_int(3), rat(1, 3) };
    run_seeded(&r, c, 1);
    CU_ASSERT_PTR_NOT_NULL(specialize_call_coded(&r.vm, chunk_find_proto(c->prog, "quot"), quot_args, 2, &sp, &codes));
    CU_ASSERT_EQUAL(codes.n, 0);
}

/* What is known is worked out once: the specialized code has no call left
 * to a procedure whose arguments were fixed, and no field a caller drops. */
static void test_specialized_code(void)
{
    Compiled *c = must_compile(spec_src);
    Run r;
    run_seeded(&r, c, 1);
    Value args[1] = { val_int(4) };
    int sp = -1;
    const Program *sprog = specialize_call(&r.vm, chunk_find_proto(c->prog, "whole"), args, 1, 0, &sp);
    CU_ASSERT_FATAL(sprog != NULL);
    const Proto *p = sprog->protos[sp];
    bool sums = false, calls = false, doubles = false, counts = false;
    for (int pc = 0; pc < p->len; pc += chunk_insn_len(p->code, pc)) {
        sums |= p->code[pc] == OP_SUM;
        calls |= p->code[pc] == OP_CALL;
        doubles |= p->code[pc] == OP_DOUBLES;
        counts |= p->code[pc] == OP_COUNT_IF || p->code[pc] == OP_COUNT_IFK || p->code[pc] == OP_ROLL_COUNTK;
    }
    CU_ASSERT(counts);
    CU_ASSERT(!sums);        /* fields b and c are never read */
    CU_ASSERT(!doubles);
    CU_ASSERT(!calls);       /* the record was never built */
    /* t - 14 of a d10 plus 1 cannot overflow, so the unread `extra` goes,
     * and with it the branch whose two sides are then the same */
    Value minus[1] = { val_int(1) };
    sprog = specialize_call(&r.vm, chunk_find_proto(c->prog, "eff"), minus, 1, -1, &sp);
    CU_ASSERT_FATAL(sprog != NULL);
    p = sprog->protos[sp];
    bool branches = false, subtracts = false, tables = false;
    for (int pc = 0; pc < p->len; pc += chunk_insn_len(p->code, pc)) {
        branches |= p->code[pc] == OP_JUMP_FALSE;
        subtracts |= p->code[pc] == OP_SUB || p->code[pc] == OP_SUBK;
        tables |= p->code[pc] == OP_TABLE;
    }
    CU_ASSERT(tables);
    CU_ASSERT(!branches);
    CU_ASSERT(!subtracts);
    /* a two-key table with its column known is looked up by one key */
    int side_enum = -1;
    for (int e = 0; e < c->prog->nenums; e++)
        if (!strcmp(c->prog->enums[e].name, "Side"))
            side_enum = e;
    Value right[1] = { val_enum(side_enum, 1) };
    sprog = specialize_call(&r.vm, chunk_find_proto(c->prog, "grid_roll"), right, 1, -1, &sp);
    CU_ASSERT_FATAL(sprog != NULL);
    p = sprog->protos[sp];
    int lookups = 0;
    for (int pc = 0; pc < p->len; pc += chunk_insn_len(p->code, pc))
        if (p->code[pc] == OP_TABLE) {
            lookups++;
            CU_ASSERT_EQUAL(sprog->tables[p->code[pc + 1] | (p->code[pc + 2] << 8)]->ndims, 1);
        }
    CU_ASSERT_EQUAL(lookups, 2);
    /* a branch that adds k or nothing is an add of k times the test */
    Value crit_args[2] = { val_int(8), val_int(2) };
    sprog = specialize_call(&r.vm, chunk_find_proto(c->prog, "critical"), crit_args, 2, -1, &sp);
    CU_ASSERT_FATAL(sprog != NULL);
    p = sprog->protos[sp];
    bool jumps = false, converts = false;
    for (int pc = 0; pc < p->len; pc += chunk_insn_len(p->code, pc)) {
        jumps |= p->code[pc] == OP_JUMP_FALSE || p->code[pc] == OP_JUMP_UNLESS;
        converts |= p->code[pc] == OP_BOOL_INT || p->code[pc] == OP_ADD_IF;
    }
    CU_ASSERT(!jumps);
    CU_ASSERT(converts);
    /* the modifiers of an opposed roll gathered into the table it is read on */
    Value two[1] = { val_int(2) };
    sprog = specialize_call(&r.vm, chunk_find_proto(c->prog, "opposed"), two, 1, -1, &sp);
    CU_ASSERT_FATAL(sprog != NULL);
    p = sprog->protos[sp];
    bool adds = false, subs = false;
    for (int pc = 0; pc < p->len; pc += chunk_insn_len(p->code, pc)) {
        adds |= p->code[pc] == OP_ADDK || p->code[pc] == OP_SUBK;
        subs |= p->code[pc] == OP_SUB;
    }
    CU_ASSERT(!adds);
    CU_ASSERT(subs);
    /* a record most of whose fields are known is a copy of one made now */
    Value five[1] = { val_int(5) };
    sprog = specialize_call(&r.vm, chunk_find_proto(c->prog, "mostly"), five, 1, -1, &sp);
    CU_ASSERT_FATAL(sprog != NULL);
    p = sprog->protos[sp];
    int copies = 0, builds = 0;
    for (int pc = 0; pc < p->len; pc += chunk_insn_len(p->code, pc)) {
        copies += p->code[pc] == OP_RECORDK;
        builds += p->code[pc] == OP_RECORD;
    }
    CU_ASSERT_EQUAL(copies, 2);
    CU_ASSERT_EQUAL(builds, 0);
    /* and one that adds 1 before the same work on both sides */
    Value steps_args[1] = { val_int(8) };
    sprog = specialize_call(&r.vm, chunk_find_proto(c->prog, "steps"), steps_args, 1, -1, &sp);
    CU_ASSERT_FATAL(sprog != NULL);
    p = sprog->protos[sp];
    jumps = converts = false;
    for (int pc = 0; pc < p->len; pc += chunk_insn_len(p->code, pc)) {
        jumps |= p->code[pc] == OP_JUMP_FALSE || p->code[pc] == OP_JUMP_UNLESS;
        converts |= p->code[pc] == OP_ADD_IF;
    }
    CU_ASSERT(!jumps);
    CU_ASSERT(converts);
    /* a quotient of ints by a known int is never made: compared, it is the
     * dividend compared with a whole number; made whole, an IDIV */
    Value quot_args[2] = { val_int(3), rat(1, 3) };
    sprog = specialize_call(&r.vm, chunk_find_proto(c->prog, "quot"), quot_args, 2, -1, &sp);
    CU_ASSERT_FATAL(sprog != NULL);
    p = sprog->protos[sp];
    bool divides = false, whole = false;
    for (int pc = 0; pc < p->len; pc += chunk_insn_len(p->code, pc)) {
        divides |= p->code[pc] == OP_DIV;
        whole |= p->code[pc] == OP_IDIV || p->code[pc] == OP_IDIVK;
    }
    CU_ASSERT(!divides);
    CU_ASSERT(whole);
    /* a branch whose sides branch alike, and end alike, is no branch:
     * here on a test whose effect nobody reads */
    Value unread_args[1] = { val_int(2) };
    sprog = specialize_call(&r.vm, chunk_find_proto(c->prog, "unread"), unread_args, 1, -1, &sp);
    CU_ASSERT_FATAL(sprog != NULL);
    p = sprog->protos[sp];
    int tests = 0;
    bool less = false;
    for (int pc = 0; pc < p->len; pc += chunk_insn_len(p->code, pc)) {
        tests += chunk_is_jump(p->code[pc]);
        less |= p->code[pc] == OP_LT || (p->code[pc] == OP_JUMP_CMP && p->code[pc + 1] == CMP_LT);
    }
    CU_ASSERT_EQUAL(tests, 1);
    CU_ASSERT(!less);
    /* odds inside cannot be followed: the caller runs the original */
    CU_ASSERT_PTR_NULL(specialize_call(&r.vm, chunk_find_proto(c->prog, "asks"), NULL, 0, -1, &sp));
}

/* Specializing never changes the program it is given: neither a call that
 * is specialized nor one given up on (odds inside) adds a proto or a table
 * to it, or moves its arrays. */
static void test_specialize_leaves_program(void)
{
    Compiled *c = must_compile(spec_src);
    Run r;
    run_seeded(&r, c, 1);
    const Program *orig = c->prog;
    int nprotos = orig->nprotos, ntables = orig->ntables;
    Proto **protos = orig->protos;
    Table **tables = orig->tables;
    Proto **each = mem_alloc(sizeof(Proto *) * (size_t)nprotos);
    memcpy(each, protos, sizeof(Proto *) * (size_t)nprotos);
    int side_enum = -1;
    for (int e = 0; e < orig->nenums; e++)
        if (!strcmp(orig->enums[e].name, "Side"))
            side_enum = e;
    CU_ASSERT_FATAL(side_enum >= 0);
    /* one that succeeds, with a column of a two-key table sliced off */
    Value right[1] = { val_enum(side_enum, 1) };
    int sp = -1;
    const Program *sprog = specialize_call(&r.vm, chunk_find_proto(orig, "grid_roll"), right, 1, -1, &sp);
    CU_ASSERT_FATAL(sprog != NULL);
    CU_ASSERT(sprog != orig);
    CU_ASSERT(sp >= nprotos && sp < sprog->nprotos);
    CU_ASSERT(sprog->ntables > ntables);
    for (int i = 0; i < nprotos; i++)
        CU_ASSERT(sprog->protos[i] == each[i]);   /* the original's indexes still hold */
    /* one that gives up: odds inside */
    int untouched = -7;
    CU_ASSERT_PTR_NULL(specialize_call(&r.vm, chunk_find_proto(orig, "asks"), NULL, 0, -1, &untouched));
    CU_ASSERT_EQUAL(untouched, -7);
    CU_ASSERT_EQUAL(orig->nprotos, nprotos);
    CU_ASSERT_EQUAL(orig->ntables, ntables);
    CU_ASSERT(orig->protos == protos);
    CU_ASSERT(orig->tables == tables);
    for (int i = 0; i < nprotos; i++)
        CU_ASSERT(orig->protos[i] == each[i]);
    CU_ASSERT(r.vm.prog == orig);
}

/* ---- '?' written as a value ---- */

static void test_unknown_expressions(void)
{
    /* its type is its place's: a typed let, an assignment, a return, an
     * argument, a record's field, a default */
    Compiled *c = must_compile("record Unit { melee: int, name: str = ? }\n"
                               "enum Cover { none, light }\n"
                               "proc f(c: Cover = ?) -> int { return 1 }\n"
                               "proc g() -> Unit {\n"
                               "  let x: int = ?\n"
                               "  let p: pool = ?\n"
                               "  x = ?\n"
                               "  let n = f(?)\n"
                               "  return Unit(melee: ?)\n"
                               "}\n"
                               "proc h() -> pool { return ? }\n");
    /* each is listed, as a table's '?' cells are */
    CU_ASSERT_EQUAL_FATAL(c->nunknowns, 8);
    static const char *const what[] = {
        "record Unit, the default of 'name'", "procedure 'f', the default of 'c'", "procedure 'g', 'x'",
        "procedure 'g', 'p'", "procedure 'g', 'x'", "procedure 'g', argument 'c' of 'f'",
        "procedure 'g', field 'melee' of Unit", "procedure 'h', its result",
    };
    for (int i = 0; i < 8; i++)
        CU_ASSERT_STRING_EQUAL(c->unknowns[i].what, what[i]);
    CU_ASSERT(contains(disassembly(c, "h"), "RETURNK     0     ; ?"));
    /* the peephole pass fuses no unknown into an instruction */
    c = must_compile("proc f(n: int) -> int { let u: int = ?\n return n }\n"
                     "proc g() -> int { return f(?) }\n");
    CU_ASSERT_FALSE(contains(disassembly(c, "g"), "K "));

    /* where its value would be needed at once, or no type is wanted, it is an error */
    static const char needed[] = "'?' stands for a value the rules text does not give: it can be kept, passed on or "
                                 "returned (by 'let', 'return', as an argument or a record's field), but here its "
                                 "value would be needed at once";
    const char *src = "proc f() -> int { return ? + 1 }";
    CU_ASSERT(error_at(expect_errors(src, 1), src, "?", needed));
    src = "proc f() -> bool { if ? { return true } return false }";
    CU_ASSERT(error_at(expect_errors(src, 1), src, "?", needed));
    src = "proc f() -> int { return max(?, 1) }";
    CU_ASSERT(error_at(expect_errors(src, 1), src, "?", needed));
    src = "proc f() -> rat { return prob(?) }";
    CU_ASSERT(error_at(expect_errors(src, 1), src, "?", needed));
    src = "proc f() -> int { let x = ?\n return 1 }";
    CU_ASSERT(error_at(expect_errors(src, 1), src, "?",
                       "'?' has no type of its own: write the type of 'x', as in 'let x: int = ?'"));
    /* '-' is a cell's, not a value */
    src = "proc f() -> int { return - }";
    CU_ASSERT_EQUAL(compile_text(src, NULL, NULL), NULL);
}

/* ---- prob() claims with the names around them ---- */

static const char claims_src[] =
    "enum Facing { front, flank, rear }\n"
    "proc hits(facing: Facing) -> int {\n"
    "  let n = 2\n"
    "  if facing == flank { n = 3 } else if facing == rear { n = 4 }\n"
    "  return count(roll n d6 >= 4)\n"
    "}\n"
    "proc p_hit(facing: Facing) -> rat { return prob(hits(facing) >= 2) }\n"
    "proc p_need(k: int) -> rat { let need = k + 1\n return prob(roll d6 >= need) }\n"
    "proc both() -> rat { return p_hit(front) + p_hit(flank) + p_hit(rear) + p_hit(front) }\n"
    "proc nested(k: int) -> rat { return prob(prob(roll d6 >= k) > 1/2 and roll d6 >= k) }\n"
    "proc none() -> rat { return prob(roll d6 == 6) }\n";

static void test_claims_with_parameters(void)
{
    Compiled *c = must_compile(claims_src);
    /* the claim's procedure takes the names it uses; OP_PROB pops them */
    const Proto *claim = proto_named(c, "prob() on line 7");
    CU_ASSERT_EQUAL(claim->nparams, 1);
    CU_ASSERT_STRING_EQUAL(claim->param_names[0], "facing");
    CU_ASSERT(contains(disassembly(c, "p_hit"), "LOAD        0     ; facing\n  0002  PROB"));
    CU_ASSERT(contains(disassembly(c, "p_hit"), "prob() on line 7, 1 args"));
    CU_ASSERT_EQUAL(proto_named(c, "prob() on line 12")->nparams, 0);
    CU_ASSERT_EQUAL(proto_named(c, "prob() on line 9")->nparams, 1);   /* a local */
    CU_ASSERT_STRING_EQUAL(proto_named(c, "prob() on line 9")->param_names[0], "need");
    /* worked out per value */
    Run r;
    run_scripted(&r, c, NULL);
    Value front[1] = { val_enum(0, 0) }, flank[1] = { val_enum(0, 1) }, rear[1] = { val_enum(0, 2) };
    CU_ASSERT_EQUAL(run_call(&r, "p_hit", front, 1), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "1/4");
    CU_ASSERT_EQUAL(run_call(&r, "p_hit", flank, 1), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "1/2");
    CU_ASSERT_EQUAL(run_call(&r, "p_hit", rear, 1), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "11/16");
    CU_ASSERT_EQUAL(run_call(&r, "both", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "27/16");
    Value three[1] = { val_int(3) };
    CU_ASSERT_EQUAL(run_call(&r, "p_need", three, 1), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "1/2");
    CU_ASSERT_EQUAL(run_call(&r, "nested", three, 1), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "2/3");
    Value five[1] = { val_int(5) };
    CU_ASSERT_EQUAL(run_call(&r, "nested", five, 1), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "0");
    CU_ASSERT_EQUAL(run_call(&r, "none", NULL, 0), 0);
    CU_ASSERT_STRING_EQUAL(show(&r, r.result), "1/6");
    /* a claim that needs, or is, a value the text does not give has no odds */
    c = must_compile("proc f(k: int) -> rat { let x: int = ?\n return prob(roll d6 > x) }\n"
                     "proc g() -> rat { let x: bool = ?\n return prob(x) }\n");
    run_scripted(&r, c, NULL);
    CU_ASSERT_EQUAL(run_call(&r, "f", three, 1), -1);
    CU_ASSERT_STRING_EQUAL(r.vm.error, "prob(): some outcomes reach a value the rules text does not give, so the odds "
                                       "are not known");
    CU_ASSERT_EQUAL(run_call(&r, "g", NULL, 0), -1);
    CU_ASSERT_STRING_EQUAL(r.vm.error, "prob(): some outcomes reach a value the rules text does not give, so the odds "
                                       "are not known");
    /* a default still cannot use the other parameters: it says so */
    const char *src = "enum Facing { front, flank }\n"
                      "proc hits(facing: Facing) -> int { return 1 }\n"
                      "proc p(facing: Facing, x: rat = prob(hits(facing) >= 2)) -> rat { return x }";
    CU_ASSERT(error_at(expect_errors(src, 1), src, "facing) >=",
                       "the default of a parameter cannot use the other parameters of 'p' ('facing' is one): a "
                       "default is worked out on its own"));
}

static void test_bytecode_of_rules_constructs(void)
{
    Compiled *c = must_compile("enum Cover { none, light }\n"
                               "ladder State { good, bad }\n"
                               "choice Crit \"?\" { a, b } default a\n"
                               "record Unit { melee: int, state: State }\n"
                               "table t(c: Cover, d: Cover) -> int {\n"
                               "  columns none light\n"
                               "  none: 1 2\n"
                               "  light: 3 4\n"
                               "}\n"
                               "modifiers m(x: bool) { x : +1 \"plus\" }\n"
                               "proc worse(s: State) -> State { return shift(s, 1) }\n"
                               "proc pick() -> Crit { return choose(Crit) }\n"
                               "proc melee(u: Unit) -> int { return u.melee }\n"
                               "example \"e\" { expect t(none, light) == 2 }\n");
    /* (two LOADs of slots 0 and 1 become one LOADN) */
    static const uint8_t table[] = { OP_LOADN, 0, 2, OP_TABLE, 0, 0, OP_RETURN };
    const Proto *p = proto_named(c, "t");
    CU_ASSERT_EQUAL_FATAL(p->len, (int)sizeof table);
    CU_ASSERT_EQUAL(memcmp(p->code, table, sizeof table), 0);
    CU_ASSERT(contains(disassembly(c, "t"), "  0003  TABLE       0     ; t\n"));
    CU_ASSERT_STRING_EQUAL(disassembly(c, "m"), "proc m (params 1, locals 2, stack 3, 24 bytes)\n"
                                               "  0000  CONST       0     ; 0\n"
                                               "  0003  STORE       1\n"
                                               "  0005  LOAD        0     ; x\n"
                                               "  0007  JUMP_FALSE  12    ; -> 0022\n"
                                               "  0010  CONST       1     ; 1\n"
                                               "  0013  NOTE        2     ; \"plus\"\n"
                                               "  0017  LOAD        1\n"
                                               "  0019  ADD\n"
                                               "  0020  STORE       1\n"
                                               "  0022  RETURNL     1\n");
    CU_ASSERT(contains(disassembly(c, "worse"), "  0005  SHIFT\n"));
    CU_ASSERT(contains(disassembly(c, "pick"), "  0000  CHOOSE      2     ; Crit\n"));
    CU_ASSERT(contains(disassembly(c, "melee"), "  0002  FIELD       0\n"));
    CU_ASSERT(contains(disassembly(c, "Unit"), "  0003  RECORD      0     ; Unit, 2 fields\n"));
    CU_ASSERT(contains(disassembly(c, "example \"e\""), "EXPECT      0\n"));
}

void register_tests(void)
{
    static const TestDef types[] = {
        { "pool used as an int", test_pool_used_as_int },
        { "% needs ints", test_mod_needs_ints },
        { "comparing different enums", test_comparing_different_enums },
        { "other comparisons", test_other_comparisons },
        { "wrong return type", test_wrong_return_type },
        { "missing return on some path", test_missing_return },
        { "unreachable statement", test_unreachable_statement },
        { "operand types", test_operand_types },
        { NULL, NULL },
    };
    static const TestDef names[] = {
        { "unknown names and suggestions", test_unknown_names },
        { "unknown procedures", test_unknown_procedures },
        { "argument errors", test_argument_errors },
        { "assignments", test_assignments },
        { "declaration errors", test_declaration_errors },
        { "keeps going after errors", test_keeps_going_after_errors },
        { NULL, NULL },
    };
    static const TestDef resolution[] = {
        { "enum members by expected type", test_enum_members_by_expected_type },
        { "ambiguous enum members", test_enum_ambiguity },
        { "defaults", test_defaults },
        { "a default calls a later procedure", test_default_calls_a_later_procedure },
        { "named arguments in parameter order", test_named_arguments_in_parameter_order },
        { "named arguments roll in written order", test_named_arguments_roll_in_written_order },
        { "calls in any order", test_calls_in_any_order },
        { "signatures", test_signatures },
        { NULL, NULL },
    };
    static const TestDef bytecode[] = {
        { "a tiny procedure", test_bytecode_of_a_tiny_proc },
        { "branches and short-circuits", test_bytecode_of_branches },
        { "dice", test_bytecode_of_dice },
        { "calls and constants", test_bytecode_of_calls_and_constants },
        { "locals and stack size", test_locals_and_stack_size },
        { "procedure limits", test_procedure_limits },
        { NULL, NULL },
    };
    add_suite("compiler: types", types);
    add_suite("compiler: names and calls", names);
    add_suite("compiler: resolution", resolution);
    add_suite("compiler: bytecode", bytecode);
    static const TestDef api[] = {
        { "run", test_api_run },
        { "'?' fields of a record result", test_api_unknown_fields },
        { "dice and seeds", test_api_dice },
        { "interrupting odds", test_api_interrupt },
        { "errors", test_api_errors },
        { NULL, NULL },
    };
    add_suite("compiler: public interface", api);
    static const TestDef rules[] = {
        { "bands cover every value", test_bands_cover_every_value },
        { "bands overlaps", test_bands_overlaps },
        { "bands with a domain", test_bands_domain },
        { "table structure", test_table_structure },
        { "table errors", test_table_errors },
        { "rules declaration errors", test_rules_declaration_errors },
        { "bytecode of rules constructs", test_bytecode_of_rules_constructs },
        { "'?' written as a value", test_unknown_expressions },
        { "prob() claims with parameters and locals", test_claims_with_parameters },
        { "peephole keeps jump targets", test_peephole_keeps_jump_targets },
        { "where the exact engine may merge runs", test_merge_points },
        { "specialized calls match the original", test_specialized_calls_match },
        { "record results as codes", test_specialized_codes },
        { "specialized code keeps only what the dice decide", test_specialized_code },
        { "specializing leaves the program it is given alone", test_specialize_leaves_program },
        { "examples via muster_test", test_api_examples },
        { "examples and warnings via muster_check", test_api_check },
        { "choices on the command line", test_api_choose },
        { "turn sequences", test_api_turn },
        { "imports", test_api_imports },
        { NULL, NULL },
    };
    add_suite("compiler: rules constructs", rules);
}
