/* test_parser.c — the Bison grammar: trees, precedence, errors, limits. */
#include "config.h"
#include "harness.h"

#include "parse.h"

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
    CU_ASSERT(contains(last_messages, "test.muster:1:33: error: unexpected '}'; expected die"));

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
}
