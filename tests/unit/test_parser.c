/* test_parser.c — the Bison grammar: trees, precedence, errors, limits. */
#include "config.h"
#include "tests/unit/harness.h"

#include "lang/parse.h"

#include <stdlib.h>
#include <string.h>

/* ---- printing trees as S-expressions ---- */

static void sx(FILE *f, const Expr *e)
{
    switch (e->kind) {
    case EX_INT: fprintf(f, "%lld", (long long)e->as.i); break;
    case EX_BOOL: fputs(e->as.b ? "true" : "false", f); break;
    case EX_STR: fprintf(f, "\"%.*s\"", (int)e->as.str.len, e->as.str.bytes); break;
    case EX_NAME: fputs(e->as.name, f); break;
    case EX_MEMBER: sx(f, e->as.member.object); fprintf(f, ".%s", e->as.member.member); break;
    case EX_UNKNOWN: fputs("?", f); break;
    case EX_NA: fputs("-", f); break;
    case EX_UNARY:
        fprintf(f, "(%s ", e->as.unary.op == OPR_NEG ? "neg" : ast_operator_text[e->as.unary.op]);
        sx(f, e->as.unary.operand);
        fputc(')', f);
        break;
    case EX_BINARY:
        fprintf(f, "(%s ", ast_operator_text[e->as.binary.op]);
        sx(f, e->as.binary.left);
        fputc(' ', f);
        sx(f, e->as.binary.right);
        fputc(')', f);
        break;
    case EX_CALL:
        fprintf(f, "(call %s", e->as.call.callee);
        for (int i = 0; i < e->as.call.nargs; i++) {
            fputc(' ', f);
            if (e->as.call.args[i].name)
                fprintf(f, "%s:", e->as.call.args[i].name);
            sx(f, e->as.call.args[i].value);
        }
        fputc(')', f);
        break;
    case EX_ROLL:
        fputs("(roll ", f);
        if (e->as.roll.count) {
            sx(f, e->as.roll.count);
            fputc(' ', f);
        }
        fprintf(f, "d%lld)", (long long)e->as.roll.sides);
        break;
    case EX_ERROR: fputs("<error>", f); break;
    }
}

/* The tree of `return EXPR` as text, in a static buffer; "" on a parse error. */
static const char *tree(const char *expr_text)
{
    static char out[4096];
    char src[2048];
    snprintf(src, sizeof src, "proc f() -> int { return %s }", expr_text);
    Capture cap;
    Module *m = parse_text(src, &cap);
    out[0] = '\0';
    if (cap.diag.errors == 0) {
        FILE *f = fmemopen(out, sizeof out, "w");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        sx(f, first_return(m));
        fclose(f);
    } else {
        fprintf(stderr, "unexpected parse error:\n%s", capture_text(&cap));
    }
    capture_close(&cap);
    return out;
}

/* Parse src; returns the module, with the diagnostics copied to a static buffer. */
static const char *last_messages;
static int last_errors;

static Module *parse(const char *src)
{
    static char buf[16384];
    Capture cap;
    Module *m = parse_text(src, &cap);
    snprintf(buf, sizeof buf, "%s", capture_text(&cap));
    last_messages = buf;
    last_errors = cap.diag.errors;
    capture_close(&cap);
    return m;
}

static const Decl *find_decl(const Module *m, const char *name)
{
    for (int i = 0; i < m->n; i++)
        if (m->decls[i]->name && strcmp(m->decls[i]->name, name) == 0)
            return m->decls[i];
    return NULL;
}

/* ---- precedence and associativity ---- */

static void test_arithmetic_precedence(void)
{
    CU_ASSERT_STRING_EQUAL(tree("1 + 2 * 3"), "(+ 1 (* 2 3))");
    CU_ASSERT_STRING_EQUAL(tree("1 * 2 + 3"), "(+ (* 1 2) 3)");
    CU_ASSERT_STRING_EQUAL(tree("(1 + 2) * 3"), "(* (+ 1 2) 3)");
    CU_ASSERT_STRING_EQUAL(tree("1 - 2 - 3"), "(- (- 1 2) 3)");
    CU_ASSERT_STRING_EQUAL(tree("8 / 4 / 2"), "(/ (/ 8 4) 2)");
    CU_ASSERT_STRING_EQUAL(tree("7 % 3 * 2"), "(* (% 7 3) 2)");
    CU_ASSERT_STRING_EQUAL(tree("1 + 6 / 3 - 2"), "(- (+ 1 (/ 6 3)) 2)");
}

static void test_unary_minus(void)
{
    CU_ASSERT_STRING_EQUAL(tree("-1"), "(neg 1)");
    CU_ASSERT_STRING_EQUAL(tree("-a * b"), "(* (neg a) b)");
    CU_ASSERT_STRING_EQUAL(tree("a - -b"), "(- a (neg b))");
    CU_ASSERT_STRING_EQUAL(tree("--a"), "(neg (neg a))");
    CU_ASSERT_STRING_EQUAL(tree("-(a + b)"), "(neg (+ a b))");
    CU_ASSERT_STRING_EQUAL(tree("-a + b"), "(+ (neg a) b)");
}

static void test_logic_precedence(void)
{
    /* not binds looser than comparisons: not (a == b) */
    CU_ASSERT_STRING_EQUAL(tree("not a == b"), "(not (== a b))");
    CU_ASSERT_STRING_EQUAL(tree("not a and b"), "(and (not a) b)");
    CU_ASSERT_STRING_EQUAL(tree("a or b and c"), "(or a (and b c))");
    CU_ASSERT_STRING_EQUAL(tree("a and b or c"), "(or (and a b) c)");
    CU_ASSERT_STRING_EQUAL(tree("a or b or c"), "(or (or a b) c)");
    CU_ASSERT_STRING_EQUAL(tree("x < 1 + 2 and y >= 3"), "(and (< x (+ 1 2)) (>= y 3))");
    CU_ASSERT_STRING_EQUAL(tree("not not a"), "(not (not a))");
    CU_ASSERT_STRING_EQUAL(tree("a != b or c <= d"), "(or (!= a b) (<= c d))");
    CU_ASSERT_STRING_EQUAL(tree("a > -b"), "(> a (neg b))");
}

static void test_comparisons_do_not_chain(void)
{
    Module *m = parse("proc f() -> bool { return 1 < 2 < 3 }");
    (void)m;
    CU_ASSERT_EQUAL(last_errors, 1);
    CU_ASSERT(contains(last_messages, "test.muster:1:33: error: unexpected '<'"));
}

static void test_primaries(void)
{
    CU_ASSERT_STRING_EQUAL(tree("true"), "true");
    CU_ASSERT_STRING_EQUAL(tree("false"), "false");
    CU_ASSERT_STRING_EQUAL(tree("\"a b\" + \"c\""), "(+ \"a b\" \"c\")");
    CU_ASSERT_STRING_EQUAL(tree("Cover.heavy"), "Cover.heavy");
    CU_ASSERT_STRING_EQUAL(tree("heavy"), "heavy");
    CU_ASSERT_STRING_EQUAL(tree("((((7))))"), "7");
}

/* ---- calls ---- */

static void test_call_arguments(void)
{
    CU_ASSERT_STRING_EQUAL(tree("f()"), "(call f)");
    CU_ASSERT_STRING_EQUAL(tree("f(1)"), "(call f 1)");
    CU_ASSERT_STRING_EQUAL(tree("f(1, 2,)"), "(call f 1 2)");
    CU_ASSERT_STRING_EQUAL(tree("f(a: 1, b: x + 1)"), "(call f a:1 b:(+ x 1))");
    CU_ASSERT_STRING_EQUAL(tree("f(1, cover: heavy)"), "(call f 1 cover:heavy)");
    CU_ASSERT_STRING_EQUAL(tree("f(g(1), h())"), "(call f (call g 1) (call h))");
    CU_ASSERT_STRING_EQUAL(tree("max(1, 2) * 3"), "(* (call max 1 2) 3)");
    /* the parser accepts any order; the compiler rejects positional after named */
    CU_ASSERT_STRING_EQUAL(tree("f(a: 1, 2)"), "(call f a:1 2)");
}

static void test_call_argument_spans(void)
{
    /*                     0         1         2         3         4
     *                     012345678901234567890123456789012345678901234 */
    Module *m = parse("proc f() -> int { return g(1, cover: heavy) }");
    CU_ASSERT_EQUAL_FATAL(last_errors, 0);
    const Expr *e = first_return(m);
    CU_ASSERT_EQUAL_FATAL(e->kind, EX_CALL);
    CU_ASSERT_EQUAL(e->span.begin, 25);
    CU_ASSERT_EQUAL(e->span.end, 43);
    CU_ASSERT_EQUAL(e->as.call.callee_span.begin, 25);
    CU_ASSERT_EQUAL(e->as.call.callee_span.end, 26);
    CU_ASSERT_EQUAL_FATAL(e->as.call.nargs, 2);
    CU_ASSERT_PTR_NULL(e->as.call.args[0].name);
    CU_ASSERT_STRING_EQUAL(e->as.call.args[1].name, "cover");
    CU_ASSERT_EQUAL(e->as.call.args[1].name_span.begin, 30);
    CU_ASSERT_EQUAL(e->as.call.args[1].name_span.end, 35);
    CU_ASSERT_EQUAL(e->as.call.args[1].value->span.begin, 37);
    CU_ASSERT_EQUAL(e->as.call.args[1].value->span.end, 42);
}

/* ---- dice ---- */

static void test_roll_forms(void)
{
    CU_ASSERT_STRING_EQUAL(tree("roll d6"), "(roll d6)");
    CU_ASSERT_STRING_EQUAL(tree("roll 2d6"), "(roll 2 d6)");
    CU_ASSERT_STRING_EQUAL(tree("roll 2 d6"), "(roll 2 d6)");
    CU_ASSERT_STRING_EQUAL(tree("roll n d6"), "(roll n d6)");
    CU_ASSERT_STRING_EQUAL(tree("roll (n + 1) d6"), "(roll (+ n 1) d6)");
    CU_ASSERT_STRING_EQUAL(tree("roll f(x) d10"), "(roll (call f x) d10)");
    CU_ASSERT_STRING_EQUAL(tree("roll d20 + 3"), "(+ (roll d20) 3)");
    CU_ASSERT_STRING_EQUAL(tree("roll 3d6 >= 4"), "(>= (roll 3 d6) 4)");
    CU_ASSERT_STRING_EQUAL(tree("count(roll 10d6 >= 5)"), "(call count (>= (roll 10 d6) 5))");
}

static void test_roll_spans(void)
{
    Module *m = parse("proc f() -> int { return roll 12d100 }");
    CU_ASSERT_EQUAL_FATAL(last_errors, 0);
    const Expr *e = first_return(m);
    CU_ASSERT_EQUAL_FATAL(e->kind, EX_ROLL);
    CU_ASSERT_EQUAL(e->span.begin, 25);
    CU_ASSERT_EQUAL(e->span.end, 36);
    CU_ASSERT_EQUAL(e->as.roll.sides, 100);
    CU_ASSERT_EQUAL_FATAL(e->as.roll.count->kind, EX_INT);
    CU_ASSERT_EQUAL(e->as.roll.count->as.i, 12);
}

static void test_bad_roll_forms(void)
{
    /* a die without roll, and roll without a die */
    parse("proc f() -> int { return 2d6 }");
    CU_ASSERT_EQUAL(last_errors, 1);
    CU_ASSERT(contains(last_messages, "unexpected die 'd6'"));
    CU_ASSERT(contains(last_messages, "(dice are rolled with 'roll', as in 'roll 2d6')"));

    parse("proc f() -> int { return roll 6 }");
    CU_ASSERT_EQUAL(last_errors, 1);
    CU_ASSERT(contains(last_messages, "test.muster:1:33: error: unexpected '}'; expected name, die"));

    /* the count of a pool is a primary: roll -1 d6 is not a roll */
    parse("proc f() -> int { return roll -1 d6 }");
    CU_ASSERT_EQUAL(last_errors, 1);
}

/* ---- statements and declarations ---- */

static void test_statements(void)
{
    Module *m = parse("proc f(n: int) -> int {\n"
                      "  let a = 1\n"
                      "  let b: rat = 2;\n"
                      "  a = a + n; ;\n"
                      "  reroll\n"
                      "  return a\n"
                      "}\n");
    CU_ASSERT_EQUAL_FATAL(last_errors, 0);
    CU_ASSERT_EQUAL_FATAL(m->n, 1);
    const StmtList *body = &m->decls[0]->as.proc.body;
    CU_ASSERT_EQUAL_FATAL(body->n, 5);
    CU_ASSERT_EQUAL(body->items[0]->kind, ST_LET);
    CU_ASSERT_STRING_EQUAL(body->items[0]->as.let.name, "a");
    CU_ASSERT_PTR_NULL(body->items[0]->as.let.type.name);
    CU_ASSERT_EQUAL(body->items[1]->kind, ST_LET);
    CU_ASSERT_STRING_EQUAL(body->items[1]->as.let.type.name, "rat");
    CU_ASSERT_EQUAL(body->items[2]->kind, ST_ASSIGN);
    CU_ASSERT_STRING_EQUAL(body->items[2]->as.let.name, "a");
    CU_ASSERT_EQUAL(body->items[3]->kind, ST_REROLL);
    CU_ASSERT_EQUAL(body->items[4]->kind, ST_RETURN);
    /* statement spans: `let a = 1` starts at byte 26 */
    CU_ASSERT_EQUAL(body->items[0]->span.begin, 26);
    CU_ASSERT_EQUAL(body->items[0]->span.end, 35);
}

static void test_if_chains(void)
{
    Module *m = parse("proc f(x: int) -> int {\n"
                      "  if x == 1 { return 10 }\n"
                      "  else if x == 2 { return 20 }\n"
                      "  else if x == 3 { return 30 } else { return 0 }\n"
                      "}\n"
                      "proc g(x: int) -> int { if x > 0 { return 1 } return 2 }\n");
    CU_ASSERT_EQUAL_FATAL(last_errors, 0);
    CU_ASSERT_EQUAL_FATAL(m->n, 2);
    const StmtList *body = &m->decls[0]->as.proc.body;
    CU_ASSERT_EQUAL_FATAL(body->n, 1);
    /* else-if nests as an else branch holding one if statement */
    const Stmt *s = body->items[0];
    int chain = 0;
    while (s->kind == ST_IF && s->as.if_.has_else && s->as.if_.els.n == 1
           && s->as.if_.els.items[0]->kind == ST_IF) {
        CU_ASSERT_EQUAL(s->as.if_.then.n, 1);
        s = s->as.if_.els.items[0];
        chain++;
    }
    CU_ASSERT_EQUAL(chain, 2);
    CU_ASSERT_EQUAL_FATAL(s->kind, ST_IF);
    CU_ASSERT(s->as.if_.has_else);
    CU_ASSERT_EQUAL_FATAL(s->as.if_.els.n, 1);
    CU_ASSERT_EQUAL(s->as.if_.els.items[0]->kind, ST_RETURN);

    const StmtList *g = &m->decls[1]->as.proc.body;
    CU_ASSERT_EQUAL_FATAL(g->n, 2);
    CU_ASSERT_EQUAL(g->items[0]->kind, ST_IF);
    CU_ASSERT_FALSE(g->items[0]->as.if_.has_else);
    CU_ASSERT_EQUAL(g->items[1]->kind, ST_RETURN);
}

static void test_if_needs_braces(void)
{
    parse("proc f(x: int) -> int { if x > 0 return 1 }");
    CU_ASSERT_EQUAL(last_errors, 1);
    CU_ASSERT(contains(last_messages, "unexpected 'return'"));
}

static void test_proc_declarations(void)
{
    Module *m = parse("proc hits(card: int, cover: Cover = none, bonus: int = 1 + 1,) -> int { return card }\n"
                      "proc none_at_all() { return 1 }\n");
    CU_ASSERT_EQUAL_FATAL(last_errors, 0);
    CU_ASSERT_EQUAL_FATAL(m->n, 2);
    const Decl *d = m->decls[0];
    CU_ASSERT_EQUAL(d->kind, DECL_PROC);
    CU_ASSERT_STRING_EQUAL(d->name, "hits");
    CU_ASSERT_EQUAL(d->name_span.begin, 5);
    CU_ASSERT_EQUAL(d->name_span.end, 9);
    CU_ASSERT_EQUAL_FATAL(d->params.n, 3);
    CU_ASSERT_STRING_EQUAL(d->params.items[0].name, "card");
    CU_ASSERT_STRING_EQUAL(d->params.items[0].type.name, "int");
    CU_ASSERT_PTR_NULL(d->params.items[0].deflt);
    CU_ASSERT_STRING_EQUAL(d->params.items[1].type.name, "Cover");
    CU_ASSERT_PTR_NOT_NULL_FATAL(d->params.items[1].deflt);
    CU_ASSERT_EQUAL(d->params.items[1].deflt->kind, EX_NAME);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d->params.items[2].deflt);
    CU_ASSERT_EQUAL(d->params.items[2].deflt->kind, EX_BINARY);
    CU_ASSERT_STRING_EQUAL(d->ret.name, "int");
    /* a missing result type parses (the compiler asks for it) */
    CU_ASSERT_PTR_NULL(m->decls[1]->ret.name);
}

static void test_enum_members(void)
{
    Module *m = parse("enum A { x y z }\n"
                      "enum B { x, y, z }\n"
                      "enum C { x, y, z, }\n"
                      "enum D { x, y z }\n"
                      "enum E { }\n"
                      "enum F { solo }\n");
    CU_ASSERT_EQUAL_FATAL(last_errors, 0);
    CU_ASSERT_EQUAL_FATAL(m->n, 6);
    static const char *const names[] = { "A", "B", "C", "D" };
    for (int i = 0; i < 4; i++) {
        const Decl *d = find_decl(m, names[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        CU_ASSERT_EQUAL(d->kind, DECL_ENUM);
        CU_ASSERT_EQUAL_FATAL(d->as.enm.n, 3);
        CU_ASSERT_STRING_EQUAL(d->as.enm.items[0].name, "x");
        CU_ASSERT_STRING_EQUAL(d->as.enm.items[1].name, "y");
        CU_ASSERT_STRING_EQUAL(d->as.enm.items[2].name, "z");
    }
    /* member spans: "enum A { x y z }" has y at byte 11 */
    CU_ASSERT_EQUAL(m->decls[0]->as.enm.items[1].span.begin, 11);
    CU_ASSERT_EQUAL(m->decls[0]->as.enm.items[1].span.end, 12);
    CU_ASSERT_EQUAL(find_decl(m, "E")->as.enm.n, 0);
    CU_ASSERT_EQUAL(find_decl(m, "F")->as.enm.n, 1);
}

static void test_many_enum_members(void)
{
    /* the member list grows past its first allocation */
    char src[4096] = "enum Big {";
    for (int i = 0; i < 100; i++)
        snprintf(src + strlen(src), sizeof src - strlen(src), " m%d%s", i, i % 2 ? "," : "");
    strcat(src, " }");
    Module *m = parse(src);
    CU_ASSERT_EQUAL_FATAL(last_errors, 0);
    CU_ASSERT_EQUAL_FATAL(m->decls[0]->as.enm.n, 100);
    CU_ASSERT_STRING_EQUAL(m->decls[0]->as.enm.items[99].name, "m99");
    CU_ASSERT_STRING_EQUAL(m->decls[0]->as.enm.items[57].name, "m57");
    uint32_t at = (uint32_t)(strstr(src, " m57") - src) + 1;
    CU_ASSERT_EQUAL(m->decls[0]->as.enm.items[57].span.begin, at);
}

/* ---- syntax errors ---- */

static void test_syntax_error_messages(void)
{
    parse("proc 5");
    CU_ASSERT_EQUAL(last_errors, 1);
    CU_ASSERT(contains(last_messages, "test.muster:1:6: error: unexpected number '5'; expected name"));

    parse("proc f(x int) -> int { return x }");
    CU_ASSERT_EQUAL(last_errors, 1);
    CU_ASSERT(contains(last_messages, "test.muster:1:10: error: unexpected name 'int'; expected ':'"));

    parse("let x = 1");
    CU_ASSERT_EQUAL(last_errors, 1);
    CU_ASSERT(contains(last_messages, "unexpected 'let'; expected a declaration (proc, enum, table, bands, modifiers, example, ...)"));

    /* the caret line underlines the whole offending token */
    parse("proc f() -> int { return 1 + }");
    CU_ASSERT_EQUAL(last_errors, 1);
    CU_ASSERT(contains(last_messages, "test.muster:1:30: error: unexpected '}'"));
    CU_ASSERT(contains(last_messages, "    1 | proc f() -> int { return 1 + }\n"));
}

static void test_unclosed_bracket(void)
{
    parse("proc f() -> int {\n  return max(1,\n");
    CU_ASSERT_EQUAL(last_errors, 1);
    CU_ASSERT(contains(last_messages, "test.muster:3:1: error: unexpected end of file"));
    CU_ASSERT(contains(last_messages, "(a '(' is still open)"));
    CU_ASSERT(contains(last_messages, "test.muster:2:13: note: this '(' is never closed"));

    parse("proc f() -> int {\n  return 1\n");
    CU_ASSERT_EQUAL(last_errors, 1);
    CU_ASSERT(contains(last_messages, "(a '{' is still open)"));
    CU_ASSERT(contains(last_messages, "test.muster:1:17: note: this '{' is never closed"));
}

static void test_recovery_reports_several_errors(void)
{
    Module *m = parse("proc a() -> int { return 1 + }\n"
                      "proc b() -> int { return * 2 }\n"
                      "proc ok() -> int { return 3 }\n"
                      "proc c() -> int { let x = 2d6 return x }\n"
                      "enum E { p q }\n"
                      "proc d() -> int { return (1 + 2 }\n");
    CU_ASSERT_EQUAL(last_errors, 4);
    CU_ASSERT(contains(last_messages, "test.muster:1:30: error: unexpected '}'"));
    CU_ASSERT(contains(last_messages, "test.muster:2:26: error: unexpected '*'"));
    CU_ASSERT(contains(last_messages, "test.muster:4:28: error: unexpected die 'd6'"));
    CU_ASSERT(contains(last_messages, "test.muster:6:33: error: unexpected '}'"));
    /* the good declarations between the bad ones are kept */
    CU_ASSERT_PTR_NOT_NULL(find_decl(m, "ok"));
    CU_ASSERT_PTR_NOT_NULL(find_decl(m, "E"));
    /* recovery happens at the end of the block, so even 'a' is kept */
    CU_ASSERT_PTR_NOT_NULL(find_decl(m, "a"));
}

/* After an error inside a nested block the parser recovers at the end of
 * the innermost block around it, so the rest of the procedure is not read
 * as top-level text (no second, spurious error) and later declarations
 * still parse. */
static void test_recovery_inside_nested_block(void)
{
    Module *m = parse("proc a() -> int { if true { return 1 + } return 2 }\n"
                      "proc b() -> int { return 3 }\n");
    CU_ASSERT_EQUAL(last_errors, 1);
    CU_ASSERT(contains(last_messages, "test.muster:1:40: error: unexpected '}'"));
    CU_ASSERT_FALSE(contains(last_messages, "unexpected 'return'"));
    CU_ASSERT_PTR_NOT_NULL(find_decl(m, "b"));
}

static void test_lexer_errors_reach_the_parse(void)
{
    /* a bad character is reported and skipped; the rest parses */
    Module *m = parse("proc f() -> int { return 1 @ + 2 }\nproc g() -> int { return 1 }");
    CU_ASSERT_EQUAL(last_errors, 1);
    CU_ASSERT(contains(last_messages, "unexpected character '@'"));
    CU_ASSERT_EQUAL(m->n, 2);
}

static void test_error_limit(void)
{
    /* after 20 errors the rest are counted but not printed */
    char src[8192] = "";
    for (int i = 0; i < 30; i++)
        strcat(src, "proc f() -> int { return * }\n");
    parse(src);
    CU_ASSERT_EQUAL(last_errors, 30);
    CU_ASSERT_EQUAL(occurrences(last_messages, ": error: "), 20);
    CU_ASSERT_EQUAL(occurrences(last_messages, "too many errors; stopping"), 1);
}

/* ---- depth limits ---- */

static char *repeat(const char *prefix, const char *unit, int n, const char *middle, const char *unit2,
                    const char *suffix)
{
    size_t len = strlen(prefix) + (strlen(unit) + strlen(unit2)) * (size_t)n + strlen(middle) + strlen(suffix) + 1;
    char *s = malloc(len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    strcpy(s, prefix);
    char *p = s + strlen(s);
    for (int i = 0; i < n; i++, p += strlen(unit))
        memcpy(p, unit, strlen(unit));
    strcpy(p, middle);
    p += strlen(middle);
    for (int i = 0; i < n; i++, p += strlen(unit2))
        memcpy(p, unit2, strlen(unit2));
    strcpy(p, suffix);
    return s;
}

static const char *HEAD = "proc f() -> int { return ";
static const char *TAIL = " }\nproc g() -> int { return 2 }\n";

/* Parse n nested/chained units; returns the error count. */
static int depth_case(const char *unit, int n, const char *middle, const char *unit2)
{
    char *src = repeat(HEAD, unit, n, middle, unit2, TAIL);
    Module *m = parse(src);
    free(src);
    CU_ASSERT_PTR_NOT_NULL(m);
    return last_errors;
}

static void test_deep_parentheses(void)
{
    /* the block's '{' is open too: AST_MAX_DEPTH - 1 parentheses make AST_MAX_DEPTH brackets */
    CU_ASSERT_EQUAL(depth_case("(", AST_MAX_DEPTH - 1, "1", ")"), 0);
    CU_ASSERT_EQUAL(depth_case("(", AST_MAX_DEPTH, "1", ")"), 1);
    CU_ASSERT(contains(last_messages, "brackets nested more than 1000 deep"));
    /* the one message, at the bracket that goes too deep (column 26 + 999) */
    CU_ASSERT(contains(last_messages, "test.muster:1:1025: error:"));
    CU_ASSERT_EQUAL(depth_case("(", 100000, "1", ")"), 1);
    CU_ASSERT(contains(last_messages, "brackets nested more than 1000 deep"));
    /* unbalanced too */
    CU_ASSERT_EQUAL(depth_case("(", 5000, "1", ""), 1);
    CU_ASSERT(contains(last_messages, "brackets nested more than 1000 deep"));
}

static void test_long_unary_chains(void)
{
    CU_ASSERT_EQUAL(depth_case("-", AST_MAX_DEPTH - 1, "1", ""), 0);
    CU_ASSERT_EQUAL(depth_case("-", AST_MAX_DEPTH, "1", ""), 1);
    CU_ASSERT(contains(last_messages, "expression nested more than 1000 deep; split it up with 'let'"));
    CU_ASSERT_EQUAL(depth_case("not ", AST_MAX_DEPTH + 1, "true", ""), 1);
    CU_ASSERT(contains(last_messages, "expression nested more than 1000 deep"));
    /* far longer than the parser's own stack: still one clean message */
    CU_ASSERT_EQUAL(depth_case("- ", 200000, "1", ""), 1);
    CU_ASSERT(contains(last_messages, "nested too deeply for the parser"));
}

static void test_long_binary_chains(void)
{
    /* 1 + 1 + ... is left-nested: k operators make depth k + 1 */
    CU_ASSERT_EQUAL(depth_case("", 0, "1", ""), 0);
    CU_ASSERT_EQUAL(depth_case("1 + ", AST_MAX_DEPTH - 1, "1", ""), 0);
    CU_ASSERT_EQUAL(depth_case("1 + ", AST_MAX_DEPTH, "1", ""), 1);
    CU_ASSERT(contains(last_messages, "expression nested more than 1000 deep"));
    CU_ASSERT_EQUAL(depth_case("a and ", 100000, "b", ""), 1);
    CU_ASSERT(contains(last_messages, "expression nested more than 1000 deep"));
    /* mixed operators: the left-nested 'or' chain still grows one level a unit */
    CU_ASSERT_EQUAL(depth_case("x or y and ", AST_MAX_DEPTH + 100, "z", ""), 1);
}

static void test_deep_calls_and_rolls(void)
{
    /* f(f(f(...))) — calls nest through their brackets */
    CU_ASSERT_EQUAL(depth_case("f(", AST_MAX_DEPTH + 1, "1", ")"), 1);
    CU_ASSERT(contains(last_messages, "nested more than 1000 deep"));
    /* roll roll roll ... d6 d6 d6: roll counts nest without brackets */
    CU_ASSERT_EQUAL(depth_case("roll ", AST_MAX_DEPTH - 1, "1", " d6"), 0);
    CU_ASSERT_EQUAL(depth_case("roll ", AST_MAX_DEPTH + 1, "1", " d6"), 1);
    CU_ASSERT(contains(last_messages, "expression nested more than 1000 deep"));
}

static void test_deep_blocks(void)
{
    /* nested ifs: brackets again */
    char *src = repeat("proc f() -> int { ", "if true { ", AST_MAX_DEPTH + 100, "return 1", " }", " }");
    parse(src);
    free(src);
    CU_ASSERT_EQUAL(last_errors, 1);
    CU_ASSERT(contains(last_messages, "brackets nested more than 1000 deep"));
}


/* ---- rules constructs ---- */

static const char *cell_text(const Expr *e)
{
    static char out[4][64];
    static int next;
    char *buf = out[next++ % 4];
    FILE *f = fmemopen(buf, sizeof out[0], "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    sx(f, e);
    fclose(f);
    return buf;
}

static void test_doc_comments(void)
{
    Module *m = parse("##  The fire table.\n"
                      "##   Read it top to bottom.   \n"
                      "table fire(c: Cover) -> int { none: 1 }\n"
                      "\n"
                      "## Documents plain: a plain comment between is passed over.\n"
                      "# plain\n"
                      "proc plain() -> int { return 1 }\n"
                      "proc undocumented() -> int {\n"
                      "  ## inside a body: not for the next declaration\n"
                      "  return 1\n"
                      "}\n"
                      "proc next_one() -> int { return 2 }\n"
                      "## Cover\n"
                      "\n"
                      "## kinds.\n"
                      "\n"
                      "enum Cover { none }\n"
                      "## Results.\n"
                      "##\n"
                      "## A new paragraph.\n"
                      "outcome Shot { hit }\n"
                      "## The turn.\n"
                      "sequence turn { step \"x\" }\n"
                      "## An example.\n"
                      "example \"e\" { expect true }\n"
                      "## at the end of the file, for nothing\n");
    CU_ASSERT_EQUAL_FATAL(last_errors, 0);
    CU_ASSERT_EQUAL_FATAL(m->n, 8);
    CU_ASSERT_PTR_NOT_NULL_FATAL(find_decl(m, "fire")->doc);
    /* consecutive lines joined by newlines, each trimmed of the marker and
     * blanks; a line indented past the first space keeps two of them */
    CU_ASSERT_STRING_EQUAL(find_decl(m, "fire")->doc, "The fire table.\n  Read it top to bottom.");
    CU_ASSERT_STRING_EQUAL(find_decl(m, "plain")->doc, "Documents plain: a plain comment between is passed over.");
    CU_ASSERT_PTR_NULL(find_decl(m, "undocumented")->doc);
    CU_ASSERT_PTR_NULL(find_decl(m, "next_one")->doc);
    /* blank lines between doc lines and before the declaration are allowed */
    CU_ASSERT_PTR_NOT_NULL_FATAL(find_decl(m, "Cover")->doc);
    CU_ASSERT_STRING_EQUAL(find_decl(m, "Cover")->doc, "Cover\nkinds.");
    CU_ASSERT_PTR_NOT_NULL_FATAL(find_decl(m, "Shot")->doc);
    /* an empty doc line is kept, as a paragraph break */
    CU_ASSERT_STRING_EQUAL(find_decl(m, "Shot")->doc, "Results.\n\nA new paragraph.");
    CU_ASSERT_PTR_NOT_NULL_FATAL(find_decl(m, "turn")->doc);
    CU_ASSERT_STRING_EQUAL(find_decl(m, "turn")->doc, "The turn.");
    CU_ASSERT_PTR_NOT_NULL_FATAL(find_decl(m, "e")->doc);
    CU_ASSERT_STRING_EQUAL(find_decl(m, "e")->doc, "An example.");
}

static void test_source_citations(void)
{
    const char *src = "proc fire(n: int) -> int source \"Fire, step 6\" { return n }\n"
                      "table t(c: Cover) -> int source \"Table 2\" {\n  none: 1\n}\n"
                      "bands b(x: int) -> int source \"Chart\" {\n  ..0 => 1\n  1.. => 2\n}\n"
                      "modifiers m(x: bool) source \"Modifiers, p. 3\" { x : +1 \"a\" }\n"
                      "enum Cover source \"Cover\" { none }\n"
                      "outcome Shot(removed: bool = false) source \"Results\" { hit }\n"
                      "record Unit source \"Units\" { melee: int }\n"
                      "choice Crit \"Pick\" source \"Criticals\" { a, b } default a\n"
                      "sequence turn source \"The turn\" { step \"x\" }\n"
                      "example \"e\" source \"Example 1\" { expect true }\n"
                      "proc uncited() -> int { return 1 }\n";
    Module *m = parse(src);
    CU_ASSERT_EQUAL_FATAL(last_errors, 0);
    CU_ASSERT_EQUAL_FATAL(m->n, 11);
    static const struct { const char *decl, *cite; } want[] = {
        { "fire", "Fire, step 6" }, { "t", "Table 2" }, { "b", "Chart" }, { "m", "Modifiers, p. 3" },
        { "Cover", "Cover" }, { "Shot", "Results" }, { "Unit", "Units" }, { "Crit", "Criticals" },
        { "turn", "The turn" }, { "e", "Example 1" },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const Decl *d = find_decl(m, want[i].decl);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d);
        CU_ASSERT_PTR_NOT_NULL_FATAL(d->cite);
        CU_ASSERT_STRING_EQUAL(d->cite, want[i].cite);
        /* the span is the string, quotes included */
        char quoted[64];
        snprintf(quoted, sizeof quoted, "\"%s\"", want[i].cite);
        const char *at = strstr(src, quoted);
        CU_ASSERT_EQUAL(d->cite_span.begin, (uint32_t)(at - src));
        CU_ASSERT_EQUAL(d->cite_span.end, (uint32_t)(at - src + strlen(quoted)));
    }
    CU_ASSERT_PTR_NULL(find_decl(m, "uncited")->cite);
    /* the word must be 'source' */
    parse("proc f() -> int sauce \"x\" { return 1 }");
    CU_ASSERT_EQUAL(last_errors, 1);
    CU_ASSERT(contains(last_messages, "test.muster:1:17: error: expected 'source' here (a reference into the "
                                      "rules text), not 'sauce'"));
}

static void test_table_rows(void)
{
    Module *m = parse("table moves(f: Formation, c: Cover) -> int {\n"
                      "  columns none light, 3\n"
                      "  line: 6 -2 ?\n"
                      "  column, skirmish: - +1 1/4\n"
                      "}\n"
                      "bands b(total: int in 1..6) -> Shot {\n"
                      "  ..2, 4 => miss \"Miss\"\n"
                      "  3 => hit\n"
                      "  -1..+1 => hit\n"
                      "  5.. => kill\n"
                      "}\n");
    CU_ASSERT_EQUAL_FATAL(last_errors, 0);
    CU_ASSERT_EQUAL_FATAL(m->n, 2);
    const Decl *t = m->decls[0];
    CU_ASSERT_EQUAL(t->kind, DECL_TABLE);
    CU_ASSERT_STRING_EQUAL(t->name, "moves");
    CU_ASSERT_EQUAL_FATAL(t->params.n, 2);
    CU_ASSERT_EQUAL_FATAL(t->as.table.columns.n, 3);
    CU_ASSERT_EQUAL(t->as.table.columns.items[0].kind, KEY_NAME);
    CU_ASSERT_STRING_EQUAL(t->as.table.columns.items[1].name, "light");
    CU_ASSERT_EQUAL(t->as.table.columns.items[2].kind, KEY_INT);
    CU_ASSERT_EQUAL(t->as.table.columns.items[2].lo, 3);
    CU_ASSERT_EQUAL_FATAL(t->as.table.nrows, 2);
    const Row *r0 = &t->as.table.rows[0], *r1 = &t->as.table.rows[1];
    CU_ASSERT_EQUAL_FATAL(r0->keys.n, 1);
    CU_ASSERT_STRING_EQUAL(r0->keys.items[0].name, "line");
    CU_ASSERT_EQUAL_FATAL(r0->cells.n, 3);
    CU_ASSERT_STRING_EQUAL(cell_text(r0->cells.items[0]), "6");
    CU_ASSERT_STRING_EQUAL(cell_text(r0->cells.items[1]), "-2");
    CU_ASSERT_EQUAL(r0->cells.items[1]->kind, EX_INT);
    CU_ASSERT_EQUAL(r0->cells.items[2]->kind, EX_UNKNOWN);
    CU_ASSERT_PTR_NULL(r0->text);
    /* a row may have several keys; '-' is a cell of its own, +1 a number */
    CU_ASSERT_EQUAL_FATAL(r1->keys.n, 2);
    CU_ASSERT_STRING_EQUAL(r1->keys.items[1].name, "skirmish");
    CU_ASSERT_EQUAL_FATAL(r1->cells.n, 3);
    CU_ASSERT_EQUAL(r1->cells.items[0]->kind, EX_NA);
    CU_ASSERT_STRING_EQUAL(cell_text(r1->cells.items[1]), "1");
    CU_ASSERT_STRING_EQUAL(cell_text(r1->cells.items[2]), "(/ 1 4)");
    /* the span of a cell is what is written */
    CU_ASSERT_EQUAL(r1->cells.items[2]->span.end - r1->cells.items[2]->span.begin, 3);

    const Decl *b = m->decls[1];
    CU_ASSERT_EQUAL(b->kind, DECL_BANDS);
    CU_ASSERT(b->params.items[0].has_range);
    CU_ASSERT_EQUAL(b->params.items[0].lo, 1);
    CU_ASSERT_EQUAL(b->params.items[0].hi, 6);
    CU_ASSERT_FALSE(b->params.items[0].lo_open || b->params.items[0].hi_open);
    CU_ASSERT_EQUAL_FATAL(b->as.table.nrows, 4);
    const Row *rows = b->as.table.rows;
    CU_ASSERT_EQUAL_FATAL(rows[0].keys.n, 2);
    CU_ASSERT_EQUAL(rows[0].keys.items[0].kind, KEY_RANGE);
    CU_ASSERT(rows[0].keys.items[0].lo_open);
    CU_ASSERT_FALSE(rows[0].keys.items[0].hi_open);
    CU_ASSERT_EQUAL(rows[0].keys.items[0].hi, 2);
    CU_ASSERT_EQUAL(rows[0].keys.items[1].kind, KEY_INT);
    CU_ASSERT_EQUAL(rows[0].keys.items[1].lo, 4);
    CU_ASSERT_EQUAL(rows[0].keys.items[1].hi, 4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rows[0].text);
    CU_ASSERT_STRING_EQUAL(rows[0].text, "Miss");
    CU_ASSERT_STRING_EQUAL(cell_text(rows[0].cells.items[0]), "miss");
    CU_ASSERT_EQUAL(rows[1].keys.items[0].kind, KEY_INT);
    CU_ASSERT_PTR_NULL(rows[1].text);
    CU_ASSERT_EQUAL(rows[2].keys.items[0].kind, KEY_RANGE);
    CU_ASSERT_EQUAL(rows[2].keys.items[0].lo, -1);
    CU_ASSERT_EQUAL(rows[2].keys.items[0].hi, 1);
    CU_ASSERT(rows[3].keys.items[0].hi_open);
    CU_ASSERT_FALSE(rows[3].keys.items[0].lo_open);
    CU_ASSERT_EQUAL(rows[3].keys.items[0].lo, 5);
}

static void test_table_syntax_errors(void)
{
    /* a '?' is a value (the compiler says where it may stand), not a name */
    parse("proc f() -> int { return ? }");
    CU_ASSERT_EQUAL(last_errors, 0);
    parse("proc f() -> int { let ? = 1 return 1 }");
    CU_ASSERT_EQUAL(last_errors, 1);
    CU_ASSERT(contains(last_messages, "test.muster:1:23: error: unexpected '?'"));
    CU_ASSERT(contains(last_messages, "'?' stands for a value the rules text does not give"));
    /* a row is one line: two rows on a line do not parse */
    parse("table t(f: F) -> int {\n  a: 1 b: 2\n}\nproc g() -> int { return 1 }");
    CU_ASSERT_EQUAL(last_errors, 1);
    CU_ASSERT(contains(last_messages, "test.muster:2:9: error: unexpected ':'"));
    /* the heading line must say 'columns' */
    parse("table t(f: F, g: G) -> int {\n  colums a b\n  x: 1 2\n}");
    CU_ASSERT_EQUAL(last_errors, 1);
    CU_ASSERT(contains(last_messages, "test.muster:2:3: error: expected 'columns' here (the column headings), not 'colums'"));
    /* the range of a bands parameter is written with 'in' */
    parse("bands b(x: int within 1..6) -> int {\n  1.. => 1\n}");
    CU_ASSERT_EQUAL(last_errors, 1);
    CU_ASSERT(contains(last_messages, "test.muster:1:16: error: expected 'in' here (the values this parameter covers), not 'within'"));
}

static void test_modifier_items(void)
{
    Module *m = parse("modifiers fire(cover: Cover, n: int, tired: bool) {\n"
                      "  start at 2 \"base\"\n"
                      "  one of {\n"
                      "    cover == light : -1 \"Light\"\n"
                      "    cover == heavy : * 1/2 \"Heavy\"\n"
                      "  }\n"
                      "  each n : +1 \"per unit\"\n"
                      "  cap -6.. \"floor\"\n"
                      "  cap ..+3 \"ceiling\"\n"
                      "  tired : * 1/2 \"Tired\"\n"
                      "}\n");
    CU_ASSERT_EQUAL_FATAL(last_errors, 0);
    const Decl *d = m->decls[0];
    CU_ASSERT_EQUAL(d->kind, DECL_MODIFIERS);
    const ModList *items = &d->as.mods.items;
    CU_ASSERT_EQUAL_FATAL(items->n, 6);
    CU_ASSERT_EQUAL(items->items[0].kind, MOD_BASE);
    CU_ASSERT_STRING_EQUAL(cell_text(items->items[0].value), "2");
    CU_ASSERT_STRING_EQUAL(items->items[0].label, "base");
    CU_ASSERT_EQUAL(items->items[1].kind, MOD_ONEOF);
    CU_ASSERT_EQUAL_FATAL(items->items[1].group.n, 2);
    CU_ASSERT_EQUAL(items->items[1].group.items[0].kind, MOD_ADD);
    CU_ASSERT_STRING_EQUAL(cell_text(items->items[1].group.items[0].cond), "(== cover light)");
    CU_ASSERT_STRING_EQUAL(cell_text(items->items[1].group.items[0].value), "(neg 1)");
    CU_ASSERT_EQUAL(items->items[1].group.items[1].kind, MOD_MUL);
    CU_ASSERT_STRING_EQUAL(cell_text(items->items[1].group.items[1].value), "(/ 1 2)");
    CU_ASSERT_EQUAL(items->items[2].kind, MOD_EACH);
    CU_ASSERT_STRING_EQUAL(cell_text(items->items[2].cond), "n");
    CU_ASSERT_STRING_EQUAL(items->items[2].label, "per unit");
    CU_ASSERT_EQUAL(items->items[3].kind, MOD_CAP);
    CU_ASSERT_EQUAL(items->items[3].range.kind, KEY_RANGE);
    CU_ASSERT_EQUAL(items->items[3].range.lo, -6);
    CU_ASSERT(items->items[3].range.hi_open);
    CU_ASSERT_EQUAL(items->items[4].range.hi, 3);
    CU_ASSERT(items->items[4].range.lo_open);
    CU_ASSERT_EQUAL(items->items[5].kind, MOD_MUL);
    CU_ASSERT_STRING_EQUAL(items->items[5].label, "Tired");
    /* a modifier needs its label */
    parse("modifiers m(x: bool) {\n  x : +1\n}");
    CU_ASSERT_EQUAL(last_errors, 1);
    CU_ASSERT(contains(last_messages, "test.muster:3:1: error: unexpected '}'"));
}

static void test_enum_like_declarations(void)
{
    Module *m = parse("ladder State { good_order, disordered, routing }\n"
                      "outcome Shot(removed: bool = false) {\n"
                      "  destroyed \"Target Destroyed\" (removed: true)\n"
                      "  pinned \"Target Pinned\"\n"
                      "  missed\n"
                      "}\n"
                      "choice Critical \"Any 6: choose one\" { extra_hit \"+1 hit\", disorder } default disorder\n"
                      "record Unit { melee: int, state: State = good_order }\n");
    CU_ASSERT_EQUAL_FATAL(last_errors, 0);
    CU_ASSERT_EQUAL_FATAL(m->n, 4);
    const Decl *l = m->decls[0], *o = m->decls[1], *c = m->decls[2], *r = m->decls[3];
    CU_ASSERT_EQUAL(l->kind, DECL_ENUM);
    CU_ASSERT_EQUAL(l->as.enm.flavour, ENUM_LADDER);
    CU_ASSERT_EQUAL(l->as.enm.n, 3);
    CU_ASSERT_EQUAL(o->as.enm.flavour, ENUM_OUTCOME);
    CU_ASSERT_EQUAL_FATAL(o->params.n, 1);
    CU_ASSERT_EQUAL_FATAL(o->as.enm.n, 3);
    CU_ASSERT_STRING_EQUAL(o->as.enm.items[0].text, "Target Destroyed");
    CU_ASSERT_EQUAL_FATAL(o->as.enm.items[0].fields.n, 1);
    CU_ASSERT_STRING_EQUAL(o->as.enm.items[0].fields.items[0].name, "removed");
    CU_ASSERT_EQUAL(o->as.enm.items[1].fields.n, 0);
    CU_ASSERT_PTR_NULL(o->as.enm.items[2].text);
    CU_ASSERT_EQUAL(c->as.enm.flavour, ENUM_CHOICE);
    CU_ASSERT_STRING_EQUAL(c->as.enm.prompt, "Any 6: choose one");
    CU_ASSERT_STRING_EQUAL(c->as.enm.deflt, "disorder");
    CU_ASSERT_STRING_EQUAL(c->as.enm.items[0].text, "+1 hit");
    CU_ASSERT_EQUAL(r->kind, DECL_RECORD);
    CU_ASSERT_EQUAL_FATAL(r->params.n, 2);
    CU_ASSERT_STRING_EQUAL(r->params.items[1].type.name, "State");
    CU_ASSERT_PTR_NOT_NULL(r->params.items[1].deflt);
}

static void test_example_statements(void)
{
    Module *m = parse("example \"Column fire\" {\n"
                      "  dice 6, 3\n"
                      "  choose Critical = disorder\n"
                      "  let x = f(1)\n"
                      "  dice 4\n"
                      "  expect x == 1; expect g()\n"
                      "}\n");
    CU_ASSERT_EQUAL_FATAL(last_errors, 0);
    const Decl *d = m->decls[0];
    CU_ASSERT_EQUAL(d->kind, DECL_EXAMPLE);
    CU_ASSERT_STRING_EQUAL(d->name, "Column fire");
    const StmtList *b = &d->as.proc.body;
    CU_ASSERT_EQUAL_FATAL(b->n, 6);
    CU_ASSERT_EQUAL(b->items[0]->kind, ST_DICE);
    CU_ASSERT_EQUAL_FATAL(b->items[0]->as.dice.list.n, 2);
    CU_ASSERT_EQUAL(b->items[0]->as.dice.list.items[0], 6);
    CU_ASSERT_EQUAL(b->items[0]->as.dice.list.items[1], 3);
    CU_ASSERT_EQUAL(b->items[1]->kind, ST_CHOOSE);
    CU_ASSERT_STRING_EQUAL(b->items[1]->as.choose.choice, "Critical");
    CU_ASSERT_STRING_EQUAL(b->items[1]->as.choose.option, "disorder");
    CU_ASSERT_EQUAL(b->items[2]->kind, ST_LET);
    CU_ASSERT_EQUAL(b->items[3]->kind, ST_DICE);
    CU_ASSERT_EQUAL(b->items[4]->kind, ST_EXPECT);
    CU_ASSERT_STRING_EQUAL(cell_text(b->items[4]->as.ret), "(== x 1)");
    CU_ASSERT_STRING_EQUAL(cell_text(b->items[5]->as.ret), "(call g)");
    /* the other words an example knows */
    parse("example \"e\" {\n  chose Critical = disorder\n  expect true\n}");
    CU_ASSERT_EQUAL(last_errors, 1);
    CU_ASSERT(contains(last_messages, "test.muster:2:3: error: expected 'choose' here (the option taken at a choice), not 'chose'"));
}

static void test_sequences_rulesets_imports(void)
{
    Module *m = parse("ruleset \"Test Rules\" {\n  source \"rules.txt\"\n  units inches\n}\n"
                      "import \"dice\"\n"
                      "sequence turn {\n"
                      "  phase \"Initiative\" {\n"
                      "    step \"each side rolls 1d6\"\n"
                      "    step initiative \"roll-off\"\n"
                      "  }\n"
                      "  step \"End\"\n"
                      "}\n");
    CU_ASSERT_EQUAL_FATAL(last_errors, 0);
    CU_ASSERT_EQUAL_FATAL(m->n, 3);
    const Decl *r = m->decls[0], *i = m->decls[1], *s = m->decls[2];
    CU_ASSERT_EQUAL(r->kind, DECL_RULESET);
    CU_ASSERT_STRING_EQUAL(r->name, "Test Rules");
    CU_ASSERT_EQUAL_FATAL(r->as.ruleset.n, 2);
    CU_ASSERT_STRING_EQUAL(r->as.ruleset.items[0].key, "source");
    CU_ASSERT_STRING_EQUAL(r->as.ruleset.items[0].value, "rules.txt");
    CU_ASSERT_STRING_EQUAL(r->as.ruleset.items[1].key, "units");
    CU_ASSERT_STRING_EQUAL(r->as.ruleset.items[1].value, "inches");
    CU_ASSERT_EQUAL(i->kind, DECL_IMPORT);
    CU_ASSERT_STRING_EQUAL(i->as.import.path, "dice");
    CU_ASSERT_EQUAL(s->kind, DECL_SEQUENCE);
    CU_ASSERT_EQUAL_FATAL(s->as.seq.items.n, 2);
    const SeqItem *phase = &s->as.seq.items.items[0];
    CU_ASSERT(phase->phase);
    CU_ASSERT_STRING_EQUAL(phase->text, "Initiative");
    CU_ASSERT_EQUAL_FATAL(phase->children.n, 2);
    CU_ASSERT_PTR_NULL(phase->children.items[0].proc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(phase->children.items[1].proc);
    CU_ASSERT_STRING_EQUAL(phase->children.items[1].proc, "initiative");
    CU_ASSERT_STRING_EQUAL(phase->children.items[1].text, "roll-off");
    CU_ASSERT_FALSE(s->as.seq.items.items[1].phase);
}

/* ---- text typed at a prompt ---- */

static void test_entry_kinds(void)
{
    static const struct { const char *text; EntryKind kind; } cases[] = {
        { "", ENTRY_EMPTY },
        { "   \n\t", ENTRY_EMPTY },
        { "# only a comment", ENTRY_EMPTY },
        { "proc f() -> int { return 1 }", ENTRY_DECLARATIONS },
        { "  enum X { a, b }", ENTRY_DECLARATIONS },
        { "## a doc comment\ntable t(x: int) -> int {", ENTRY_DECLARATIONS },
        { "import \"dice\"", ENTRY_DECLARATIONS },
        { "section \"Fire\"", ENTRY_DECLARATIONS },
        { "odds hit() \"Hit\" { chance roll d6 > 3 }", ENTRY_DECLARATIONS },
        { "let x = 3", ENTRY_STATEMENT },
        { "return 1", ENTRY_STATEMENT },
        { "if true { }", ENTRY_STATEMENT },
        { "sum(roll 2d6)", ENTRY_EXPRESSION },
        { "roll 3d6", ENTRY_EXPRESSION },
        { "(1 + 2) * 3", ENTRY_EXPRESSION },
        { "hits(card: 6)", ENTRY_EXPRESSION },
        { "procs + 1", ENTRY_EXPRESSION },
        { "@ 1", ENTRY_EXPRESSION },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        EntryKind got = parse_entry_kind(test_source(cases[i].text));
        CU_ASSERT_EQUAL(got, cases[i].kind);
        if (got != cases[i].kind)
            fprintf(stderr, "'%s': kind %d, not %d\n", cases[i].text, (int)got, (int)cases[i].kind);
    }
}

static void test_stops_short(void)
{
    /* more lines could finish these */
    static const char *const short_decls[] = {
        "proc f(n: int) -> int {",
        "proc f(n: int) -> int {\n  if n > 1 {\n    return 1\n  }",
        "proc f(n: int,",
        "proc f(n: int) -> int",
        "enum X {",
        "enum X { a, b } table t(x: X) -> int {\n  a: 1",
        "table t(x: int) -> int {\n  1: 2\n",
        "record R {",
    };
    for (size_t i = 0; i < sizeof short_decls / sizeof short_decls[0]; i++) {
        bool got = parse_stops_short(test_source(short_decls[i]), false);
        CU_ASSERT(got);
        if (!got)
            fprintf(stderr, "'%s' should want more\n", short_decls[i]);
    }
    static const char *const short_exprs[] = { "hits(card: 6,", "1 +", "(1 + 2", "roll", "sum(roll 2d6" };
    for (size_t i = 0; i < sizeof short_exprs / sizeof short_exprs[0]; i++) {
        bool got = parse_stops_short(test_source(short_exprs[i]), true);
        CU_ASSERT(got);
        if (!got)
            fprintf(stderr, "'%s' should want more\n", short_exprs[i]);
    }
    /* finished, or wrong before their end: no more lines */
    static const char *const whole_decls[] = {
        "proc f(n: int) -> int { return n }",
        "enum X { a, b }",
        "proc f(n: int) -> int { return n + }",
        "proc f(n: int) -> int { retrun n",
        "proc f(n: int) -> int { return \"open",
        "}",
    };
    for (size_t i = 0; i < sizeof whole_decls / sizeof whole_decls[0]; i++) {
        bool got = parse_stops_short(test_source(whole_decls[i]), false);
        CU_ASSERT(!got);
        if (got)
            fprintf(stderr, "'%s' should not want more\n", whole_decls[i]);
    }
    static const char *const whole_exprs[] = { "1 + 2", "hits(card: 6)", "1 + * ", "(1))", "roll 2d6 roll (" };
    for (size_t i = 0; i < sizeof whole_exprs / sizeof whole_exprs[0]; i++) {
        bool got = parse_stops_short(test_source(whole_exprs[i]), true);
        CU_ASSERT(!got);
        if (got)
            fprintf(stderr, "'%s' should not want more\n", whole_exprs[i]);
    }
}

/* An expression typed at a prompt: a message about what follows it speaks
 * of the prompt. */
static void test_prompt_expression(void)
{
    Capture cap;
    capture_open(&cap);
    CU_ASSERT_PTR_NOT_NULL(parse_prompt_expression(test_source("1 + 2"), &cap.diag));
    CU_ASSERT_PTR_NULL(parse_prompt_expression(test_source("1 2"), &cap.diag));
    CU_ASSERT(contains(capture_text(&cap), "a line takes one expression, or declarations"));
    CU_ASSERT(!contains(capture_text(&cap), "-e"));
    capture_close(&cap);
}

/* A Source whose lines are numbered from further on. */
static void test_line_offset(void)
{
    Capture cap;
    capture_open(&cap);
    Source *src = test_source("\n  1 2");
    src->line_offset = 40;
    parse_prompt_expression(src, &cap.diag);
    CU_ASSERT(contains(capture_text(&cap), "test.muster:42:5: error"));
    CU_ASSERT(contains(capture_text(&cap), "    42 |   1 2"));
    capture_close(&cap);
}

void register_tests(void)
{
    static const TestDef expressions[] = {
        { "arithmetic precedence", test_arithmetic_precedence },
        { "unary minus", test_unary_minus },
        { "not, and, or and comparisons", test_logic_precedence },
        { "comparisons do not chain", test_comparisons_do_not_chain },
        { "primaries", test_primaries },
        { "call arguments", test_call_arguments },
        { "call argument spans", test_call_argument_spans },
        { "roll forms", test_roll_forms },
        { "roll spans", test_roll_spans },
        { "bad roll forms", test_bad_roll_forms },
        { NULL, NULL },
    };
    static const TestDef declarations[] = {
        { "statements", test_statements },
        { "if / else if / else chains", test_if_chains },
        { "if needs braces", test_if_needs_braces },
        { "procedure declarations", test_proc_declarations },
        { "enum members with and without commas", test_enum_members },
        { "many enum members", test_many_enum_members },
        { NULL, NULL },
    };
    static const TestDef errors[] = {
        { "syntax error messages", test_syntax_error_messages },
        { "unclosed brackets", test_unclosed_bracket },
        { "recovery reports several errors", test_recovery_reports_several_errors },
        { "recovery inside a nested block", test_recovery_inside_nested_block },
        { "lexer errors during a parse", test_lexer_errors_reach_the_parse },
        { "error limit", test_error_limit },
        { NULL, NULL },
    };
    static const TestDef limits[] = {
        { "deep parentheses", test_deep_parentheses },
        { "long unary chains", test_long_unary_chains },
        { "long binary chains", test_long_binary_chains },
        { "deep calls and rolls", test_deep_calls_and_rolls },
        { "deep blocks", test_deep_blocks },
        { NULL, NULL },
    };
    add_suite("parser: expressions", expressions);
    add_suite("parser: declarations", declarations);
    add_suite("parser: errors", errors);
    add_suite("parser: depth limits", limits);
    static const TestDef rules[] = {
        { "doc comments", test_doc_comments },
        { "source citations", test_source_citations },
        { "table and bands rows", test_table_rows },
        { "table syntax errors", test_table_syntax_errors },
        { "modifier items", test_modifier_items },
        { "ladders, outcomes, choices and records", test_enum_like_declarations },
        { "example statements", test_example_statements },
        { "sequences, rulesets and imports", test_sequences_rulesets_imports },
        { NULL, NULL },
    };
    add_suite("parser: rules constructs", rules);
    static const TestDef prompt[] = {
        { "what an entry begins with", test_entry_kinds },
        { "an entry that stops short", test_stops_short },
        { "an expression at the prompt", test_prompt_expression },
        { "lines numbered from further on", test_line_offset },
        { NULL, NULL },
    };
    add_suite("parser: text typed at a prompt", prompt);
}
