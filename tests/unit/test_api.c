/* test_api.c — the value-level interface of muster.h, used as an embedding
 * program uses it (through muster.h alone): listing a program's procedures
 * and choices, calls with typed arguments and their values, distributions
 * as data, errors as objects (out of memory included), and the handles kept
 * in malloc'ed memory across collections.
 *
 * The heap limit is 16 MiB (harness_max_heap), the least MUSTER_MAX_HEAP allows, so
 * that running out of memory can be tested; every other test here is small.
 */
#include "config.h"
#include "harness.h"
#include "muster.h"

#ifndef MUSTER_PLAIN_ALLOC
#include <gc.h>
#endif
#include <stdlib.h>
#include <string.h>

static const char *const script =
    "enum Cover { none, light, heavy }\n"
    "choice Rounding \"Round halves up or down?\" {\n"
    "  up\n"
    "  down\n"
    "} default down\n"
    "record Shot {\n"
    "  hits: int\n"
    "  share: rat\n"
    "  cover: Cover\n"
    "}\n"
    "proc two_dice() -> int { return sum(roll 2d6) }\n"
    "proc shot(n: int, cover: Cover = none, close: bool = false) -> Shot {\n"
    "  let h = count(roll n d6 >= 4)\n"
    "  if close { h = h + 1 }\n"
    "  return Shot(hits: h, share: h / 3, cover: cover)\n"
    "}\n"
    "proc dice(n: int) -> pool { return roll n d6 }\n"
    "proc halve(x: rat) -> rat { return x / 2 }\n"
    "proc rounding() -> Rounding { return choose(Rounding) }\n"
    "proc broken(n: int) -> int { return floor(10 / (n - n)) }\n"
    "table Morale(d: int) -> int {\n"
    "  1: 0\n"
    "  2: 0\n"
    "  3: 1\n"
    "  4: 1\n"
    "  5: ?\n"
    "  6: 2\n"
    "}\n"
    "proc morale() -> int { return Morale(roll d6) }\n"
    "proc deep(k: int) -> int {\n"
    "  if k == 0 { return 0 }\n"
    "  let ones = count(roll 1000000d64 == 1)\n"
    "  return ones + deep(k - 1)\n"
    "}\n"
    "proc grow(s: str, k: int) -> str {\n"
    "  if k == 0 { return s }\n"
    "  return grow(s + s, k - 1)\n"
    "}\n"
    "proc big(k: int) -> int {\n"
    "  let s = grow(\"abcdefgh\", k)\n"
    "  return sum(roll 1d6)\n"
    "}\n";

static muster_ctx *quiet_ctx(void)
{
    muster_ctx *ctx = muster_new(NULL, NULL, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ctx);
    return ctx;
}

/* The script, or a failed test with the reason. */
static muster_program *load_script(muster_ctx *ctx)
{
    muster_program *p = muster_load_string(ctx, "api.muster", script, strlen(script));
    if (!p) {
        muster_error *e = muster_last_error(ctx);
        fprintf(stderr, "%s", e && e->text ? e->text : "(no error)\n");
        muster_error_free(e);
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    return p;
}

static void test_lists(void)
{
    muster_ctx *ctx = quiet_ctx();
    muster_program *p = load_script(ctx);
    CU_ASSERT(muster_proc_count(p) >= 9);
    const muster_proc *shot = muster_proc_find(p, "shot");
    CU_ASSERT_PTR_NOT_NULL_FATAL(shot);
    CU_ASSERT_STRING_EQUAL(shot->what, "proc");
    CU_ASSERT_STRING_EQUAL(shot->returns, "Shot");
    CU_ASSERT_EQUAL_FATAL(shot->nparams, 3);
    CU_ASSERT_STRING_EQUAL(shot->params[0].name, "n");
    CU_ASSERT_EQUAL(shot->params[0].kind, MUSTER_INT);
    CU_ASSERT_PTR_NULL(shot->params[0].default_text);
    CU_ASSERT_STRING_EQUAL(shot->params[1].type, "Cover");
    CU_ASSERT_EQUAL(shot->params[1].kind, MUSTER_ENUM);
    CU_ASSERT_STRING_EQUAL(shot->params[1].default_text, "none");
    CU_ASSERT_EQUAL_FATAL(shot->params[1].nvalues, 3);
    CU_ASSERT_STRING_EQUAL(shot->params[1].values[2], "heavy");
    CU_ASSERT_EQUAL(shot->params[2].kind, MUSTER_BOOL);
    CU_ASSERT_EQUAL(shot->params[2].nvalues, 2);
    const muster_proc *morale = muster_proc_find(p, "Morale");
    CU_ASSERT_PTR_NOT_NULL_FATAL(morale);
    CU_ASSERT_STRING_EQUAL(morale->what, "table");
    CU_ASSERT_PTR_NULL(muster_proc_find(p, "nothing"));
    CU_ASSERT_PTR_NULL(muster_proc_at(p, muster_proc_count(p)));
    CU_ASSERT_EQUAL_FATAL(muster_choice_count(p), 1);
    const muster_choice *ch = muster_choice_at(p, 0);
    CU_ASSERT_STRING_EQUAL(ch->name, "Rounding");
    CU_ASSERT_STRING_EQUAL(ch->question, "Round halves up or down?");
    CU_ASSERT_EQUAL(ch->noptions, 2);
    CU_ASSERT_STRING_EQUAL(ch->options[ch->default_option], "down");
    muster_program_free(p);
    muster_free(ctx);
}

static void test_call_values(void)
{
    muster_ctx *ctx = quiet_ctx();
    muster_program *p = load_script(ctx);
    muster_call_opts dice = { .dice = "6,4,1" };
    muster_arg args[] = { muster_arg_int("n", 3), muster_arg_enum("cover", "light"), muster_arg_bool("close", 1) };
    muster_value *v = muster_call(ctx, p, "shot", 3, args, &dice);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_EQUAL(v->kind, MUSTER_RECORD);
    CU_ASSERT_STRING_EQUAL(v->type, "Shot");
    CU_ASSERT_EQUAL_FATAL(v->n, 3);
    CU_ASSERT_STRING_EQUAL(v->field_names[0], "hits");
    CU_ASSERT_EQUAL(v->fields[0].kind, MUSTER_INT);
    CU_ASSERT_EQUAL(v->fields[0].i, 3);   /* 6 and 4 hit, and one for close */
    CU_ASSERT_EQUAL(v->fields[1].kind, MUSTER_RATIONAL);
    CU_ASSERT_EQUAL(v->fields[1].num, 1);
    CU_ASSERT_EQUAL(v->fields[1].den, 1);
    CU_ASSERT_EQUAL(v->fields[2].kind, MUSTER_ENUM);
    CU_ASSERT_STRING_EQUAL(v->fields[2].text, "light");
    CU_ASSERT_EQUAL(v->fields[2].i, 1);
    CU_ASSERT_STRING_EQUAL(v->shown, "Shot(hits: 3, share: 1, cover: light)");
    muster_value_free(v);

    muster_arg half[] = { muster_arg_rational("x", 3, 4) };
    v = muster_call(ctx, p, "halve", 1, half, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_EQUAL(v->kind, MUSTER_RATIONAL);
    CU_ASSERT_EQUAL(v->num, 3);
    CU_ASSERT_EQUAL(v->den, 8);
    muster_value_free(v);
    /* an int where a rat is asked, and text read as the command line reads it */
    muster_arg whole[] = { muster_arg_int("x", 5) };
    v = muster_call(ctx, p, "halve", 1, whole, NULL);
    CU_ASSERT(v && v->num == 5 && v->den == 2);
    muster_value_free(v);
    muster_arg typed[] = { muster_arg_text("x", "1.5") };
    v = muster_call(ctx, p, "halve", 1, typed, NULL);
    CU_ASSERT(v && v->num == 3 && v->den == 4);
    muster_value_free(v);

    muster_arg four[] = { muster_arg_int("n", 4) };
    muster_call_opts pool_dice = { .dice = "5,2,6,2" };
    v = muster_call(ctx, p, "dice", 1, four, &pool_dice);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_EQUAL(v->kind, MUSTER_POOL);
    CU_ASSERT_EQUAL(v->sides, 6);
    CU_ASSERT_EQUAL_FATAL(v->n, 4);
    CU_ASSERT(v->faces[0] == 2 && v->faces[1] == 2 && v->faces[2] == 5 && v->faces[3] == 6);
    muster_value_free(v);

    /* seeded dice repeat themselves */
    muster_call_opts seeded = { .have_seed = 1, .seed = 42 };
    muster_value *a = muster_call(ctx, p, "two_dice", 0, NULL, &seeded);
    muster_value *b = muster_call(ctx, p, "two_dice", 0, NULL, &seeded);
    CU_ASSERT(a && b && a->i == b->i && a->i >= 2 && a->i <= 12);
    muster_value_free(a);
    muster_value_free(b);

    /* a choice, its default and chosen */
    v = muster_call(ctx, p, "rounding", 0, NULL, NULL);
    CU_ASSERT(v && v->kind == MUSTER_ENUM && !strcmp(v->text, "down") && !strcmp(v->type, "Rounding"));
    muster_value_free(v);
    char *up[] = { "Rounding=up" };
    muster_call_opts choose = { .choices = up, .nchoices = 1 };
    v = muster_call(ctx, p, "rounding", 0, NULL, &choose);
    CU_ASSERT(v && !strcmp(v->text, "up"));
    muster_value_free(v);
    CU_ASSERT_PTR_NULL(muster_last_error(ctx));
    muster_program_free(p);
    muster_free(ctx);
}

/* A call that fails returns NULL, and the error says why and where. */
static void expect_error(muster_ctx *ctx, int status, const char *file, int line, const char *message)
{
    muster_error *e = muster_last_error(ctx);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_EQUAL(e->status, status);
    if (file) {
        CU_ASSERT(e->file && !strcmp(e->file, file));
        CU_ASSERT_EQUAL(e->line, line);
        CU_ASSERT(e->column > 0);
    } else {
        CU_ASSERT_PTR_NULL(e->file);
    }
    CU_ASSERT(e->message && strstr(e->message, message));
    if (!e->message || !strstr(e->message, message))
        fprintf(stderr, "message: %s\n", e->message ? e->message : "(none)");
    CU_ASSERT(e->text && strstr(e->text, message));
    muster_error_free(e);
}

static void test_errors(void)
{
    muster_ctx *ctx = quiet_ctx();
    muster_program *p = load_script(ctx);
    muster_arg n3[] = { muster_arg_int("n", 3) };
    CU_ASSERT_PTR_NULL(muster_call(ctx, p, "shoot", 1, n3, NULL));
    expect_error(ctx, MUSTER_USAGE, NULL, 0, "has no procedure 'shoot'");
    muster_arg wrong[] = { muster_arg_bool("n", 1) };
    CU_ASSERT_PTR_NULL(muster_call(ctx, p, "shot", 1, wrong, NULL));
    expect_error(ctx, MUSTER_USAGE, NULL, 0, "parameter 'n' of 'shot' is an int; the argument given is a bool");
    muster_arg member[] = { muster_arg_int("n", 2), muster_arg_enum("cover", "rear") };
    CU_ASSERT_PTR_NULL(muster_call(ctx, p, "shot", 2, member, NULL));
    expect_error(ctx, MUSTER_USAGE, NULL, 0, "'rear' is not a valid Cover for parameter 'cover'");
    CU_ASSERT_PTR_NULL(muster_call(ctx, p, "shot", 0, NULL, NULL));
    expect_error(ctx, MUSTER_USAGE, NULL, 0, "missing argument n=int");
    CU_ASSERT_PTR_NULL(muster_call(ctx, p, "broken", 1, n3, NULL));
    expect_error(ctx, MUSTER_ERROR, "api.muster", 20, "division by zero");
    muster_call_opts few = { .dice = "6" };
    CU_ASSERT_PTR_NULL(muster_call(ctx, p, "shot", 1, n3, &few));
    expect_error(ctx, MUSTER_ERROR, "api.muster", 13, "ran out of scripted dice");
    /* a call that succeeds leaves the last error as it was */
    CU_ASSERT_PTR_NOT_NULL(muster_call(ctx, p, "two_dice", 0, NULL, NULL) );
    expect_error(ctx, MUSTER_ERROR, "api.muster", 13, "ran out of scripted dice");

    const char *bad = "proc f() -> int {\n  return 1 + true\n}\n";
    CU_ASSERT_PTR_NULL(muster_load_string(ctx, "bad.muster", bad, strlen(bad)));
    muster_error *e = muster_last_error(ctx);
    CU_ASSERT_PTR_NOT_NULL_FATAL(e);
    CU_ASSERT_EQUAL(e->status, MUSTER_ERROR);
    CU_ASSERT(e->file && !strcmp(e->file, "bad.muster"));
    CU_ASSERT_EQUAL(e->line, 2);
    CU_ASSERT_EQUAL(e->column, 14);
    /* the text is the diagnostic as printed, with its line and caret */
    CU_ASSERT(e->text && strstr(e->text, "bad.muster:2:14: error: ") && strstr(e->text, "  return 1 + true")
              && strstr(e->text, "^"));
    muster_error_free(e);
    CU_ASSERT_PTR_NULL(muster_load(ctx, "no/such/file.muster"));
    expect_error(ctx, MUSTER_ERROR, NULL, 0, "no/such/file.muster");
    muster_program_free(p);
    muster_free(ctx);
}

/* With streams of the caller's, the diagnostics go there and the error
 * object has no text. */
static void test_error_streams(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *err = open_memstream(&buf, &len);
    muster_ctx *ctx = muster_new(stdout, err, 0);
    CU_ASSERT_PTR_NULL(muster_load_expression(ctx, "1 +"));
    fflush(err);
    CU_ASSERT(buf && strstr(buf, "-e:1:"));
    muster_error *e = muster_last_error(ctx);
    CU_ASSERT(e && e->status == MUSTER_ERROR && e->text == NULL && e->line == 1 && e->file && !strcmp(e->file, "-e"));
    muster_error_free(e);
    muster_free(ctx);
    fclose(err);
    free(buf);
}

static void test_distribution(void)
{
    muster_ctx *ctx = quiet_ctx();
    muster_program *p = load_script(ctx);
    muster_distribution *d = muster_distribution_of(ctx, p, "two_dice", 0, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(d->exact, 1);
    CU_ASSERT_EQUAL_FATAL(d->n, 11);
    CU_ASSERT_EQUAL(d->outcomes[0].value->i, 2);
    CU_ASSERT_STRING_EQUAL(d->outcomes[0].fraction, "1/36");
    CU_ASSERT_STRING_EQUAL(d->outcomes[5].fraction, "1/6");
    CU_ASSERT_DOUBLE_EQUAL(d->outcomes[5].probability, 1.0 / 6, 1e-12);
    CU_ASSERT(d->numeric);
    CU_ASSERT_DOUBLE_EQUAL(d->mean, 7, 1e-12);
    CU_ASSERT_STRING_EQUAL(d->mean_fraction, "7");
    CU_ASSERT_DOUBLE_EQUAL(d->sd, 2.41522945769824, 1e-9);
    CU_ASSERT_EQUAL(d->not_given, 0);
    CU_ASSERT_PTR_NULL(d->not_given_fraction);
    CU_ASSERT_PTR_NULL(d->note);
    muster_distribution_free(d);

    /* a '?' cell: its share is given apart from the outcomes */
    d = muster_distribution_of(ctx, p, "morale", 0, NULL, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(d->n, 3);
    CU_ASSERT(d->not_given_fraction && !strcmp(d->not_given_fraction, "1/6"));
    CU_ASSERT_STRING_EQUAL(d->outcomes[0].fraction, "1/3");
    muster_distribution_free(d);

    /* simulated, asked for: counts, intervals, the seed, and a record's values */
    muster_prob_opts sim = { .trials = 20000, .have_seed = 1, .seed = 7, .threads = 2 };
    muster_arg args[] = { muster_arg_int("n", 2) };
    d = muster_distribution_of(ctx, p, "shot", 1, args, &sim);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT_EQUAL(d->exact, 0);
    CU_ASSERT_EQUAL(d->runs, 20000);
    CU_ASSERT_EQUAL(d->seed, 7);
    CU_ASSERT_EQUAL_FATAL(d->n, 3);
    uint64_t total = 0;
    for (size_t i = 0; i < d->n; i++) {
        total += d->outcomes[i].count;
        CU_ASSERT_PTR_NULL(d->outcomes[i].fraction);
        CU_ASSERT(d->outcomes[i].low <= d->outcomes[i].probability && d->outcomes[i].probability <= d->outcomes[i].high);
        CU_ASSERT_EQUAL(d->outcomes[i].value->kind, MUSTER_RECORD);
    }
    CU_ASSERT_EQUAL(total, 20000);
    CU_ASSERT_FALSE(d->numeric);
    CU_ASSERT_PTR_NULL(d->note);
    muster_distribution_free(d);
    muster_program_free(p);
    muster_free(ctx);
}

/* What muster_prob_opts.progress is told: shares that never go back, up to
 * all of the work, with words; and nothing for a small simulation, which
 * draws no progress line either. */
typedef struct Told {
    int calls;
    double last;
    int backwards;
    int words;
} Told;

static void told(double share, const char *words, void *data)
{
    Told *t = data;
    if (share < t->last || share < 0 || share > 1)
        t->backwards++;
    if (words && strstr(words, "trials"))
        t->words++;
    t->last = share;
    t->calls++;
}

static void test_progress(void)
{
    muster_ctx *ctx = quiet_ctx();
    muster_program *p = load_script(ctx);
    Told t = { 0 };
    muster_prob_opts sim = { .trials = 400000, .have_seed = 1, .seed = 3, .threads = 2, .progress = told,
                             .progress_data = &t };
    muster_distribution *d = muster_distribution_of(ctx, p, "two_dice", 0, NULL, &sim);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT(t.calls >= 2);
    CU_ASSERT_EQUAL(t.backwards, 0);
    CU_ASSERT_EQUAL(t.words, t.calls);
    CU_ASSERT_DOUBLE_EQUAL(t.last, 1.0, 1e-12);
    muster_distribution_free(d);

    Told none = { 0 };
    sim.trials = 1000;
    sim.progress_data = &none;
    d = muster_distribution_of(ctx, p, "two_dice", 0, NULL, &sim);
    CU_ASSERT_PTR_NOT_NULL(d);
    CU_ASSERT_EQUAL(none.calls, 0);
    muster_distribution_free(d);
    muster_program_free(p);
    muster_free(ctx);
}

/* Running out of memory is an error of the call; the context and the
 * program go on working after it, in the exact engine and in a simulation
 * on several threads alike. */
static void test_out_of_memory(void)
{
    muster_ctx *ctx = quiet_ctx();
    muster_program *p = load_script(ctx);
    /* the exact engine's fractions (GMP's numbers) */
    muster_arg deep[] = { muster_arg_int("k", 20) };
    muster_prob_opts exact = { .exact = 1 };
    CU_ASSERT_PTR_NULL(muster_distribution_of(ctx, p, "deep", 1, deep, &exact));
    expect_error(ctx, MUSTER_NOMEM, NULL, 0, "out of memory");
    /* the language's own objects: a string that doubles forty times */
    muster_arg forty[] = { muster_arg_int("k", 40) };
    for (int round = 0; round < 2; round++) {
        CU_ASSERT_PTR_NULL(muster_call(ctx, p, "big", 1, forty, NULL));
        expect_error(ctx, MUSTER_NOMEM, NULL, 0, "out of memory");
    }
    /* ... in a simulation on two threads */
    muster_prob_opts sim = { .trials = 100, .have_seed = 1, .seed = 1, .threads = 2 };
    CU_ASSERT_PTR_NULL(muster_distribution_of(ctx, p, "big", 1, forty, &sim));
    expect_error(ctx, MUSTER_NOMEM, NULL, 0, "out of memory");
    muster_arg three[] = { muster_arg_int("k", 3) };
    muster_value *v = muster_call(ctx, p, "big", 1, three, NULL);
    CU_ASSERT(v && v->kind == MUSTER_INT && v->i >= 1 && v->i <= 6);
    muster_value_free(v);
    muster_distribution *d = muster_distribution_of(ctx, p, "big", 1, three, &sim);
    CU_ASSERT(d && !d->exact && d->n == 6);
    muster_distribution_free(d);
    d = muster_distribution_of(ctx, p, "two_dice", 0, NULL, NULL);
    CU_ASSERT(d && d->exact && d->n == 11);
    muster_distribution_free(d);
    muster_program_free(p);
    muster_free(ctx);
}

/* Handles kept only in malloc'ed memory survive collections; a program
 * outlives the context it was loaded in. */
static void test_handles(void)
{
    struct { muster_ctx *ctx; muster_program *prog; } *held = malloc(sizeof *held);
    CU_ASSERT_PTR_NOT_NULL_FATAL(held);
    held->ctx = quiet_ctx();
    held->prog = load_script(held->ctx);
    muster_free(held->ctx);
#ifndef MUSTER_PLAIN_ALLOC
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 200; k++)
            GC_MALLOC(4096);
        GC_gcollect();
    }
#endif
    held->ctx = quiet_ctx();
    muster_call_opts dice = { .dice = "3,4" };
    muster_value *v = muster_call(held->ctx, held->prog, "two_dice", 0, NULL, &dice);
    CU_ASSERT(v && v->i == 7);
    muster_value_free(v);
    CU_ASSERT_STRING_EQUAL(muster_proc_find(held->prog, "shot")->params[1].values[0], "none");
    muster_program_free(held->prog);
    muster_free(held->ctx);
    free(held);
    /* the free functions take NULL */
    muster_free(NULL);
    muster_program_free(NULL);
    muster_value_free(NULL);
    muster_distribution_free(NULL);
    muster_error_free(NULL);
}

/* A session kept in malloc'ed memory survives collections, keeps its own
 * copy of the choices, and goes on after running out of memory. */
static void test_session(void)
{
    char *printed = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&printed, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    muster_ctx *ctx = muster_new(out, NULL, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ctx);
    char choice[] = "Rounding=up";
    char *choices[] = { choice };
    muster_run_opts opts = { .choices = choices, .nchoices = 1, .dice = "2,5" };
    muster_session **held = malloc(sizeof *held);
    CU_ASSERT_PTR_NOT_NULL_FATAL(held);
    *held = muster_session_new(ctx, "<repl>", &opts);
    CU_ASSERT_PTR_NOT_NULL_FATAL(*held);
    memset(choice, 'x', sizeof choice - 1);
    const char *decls = "choice Rounding \"Up or down?\" {\n  up\n  down\n} default down\n"
                        "proc pick() -> Rounding { return choose(Rounding) }\n"
                        "proc grow(s: str, k: int) -> str {\n  if k == 0 { return s }\n  return grow(s + s, k - 1)\n}\n";
    CU_ASSERT_EQUAL(muster_session_eval(*held, decls, 1, 1, MUSTER_EVAL_RUN, NULL), MUSTER_OK);
#ifndef MUSTER_PLAIN_ALLOC
    for (int i = 0; i < 3; i++)
        GC_gcollect();
#endif
    CU_ASSERT_EQUAL(muster_session_eval(*held, "pick()", 20, 1, MUSTER_EVAL_RUN, NULL), MUSTER_OK);
    CU_ASSERT_EQUAL(muster_session_eval(*held, "grow(\"abcdefgh\", 40) == \"\"", 21, 1, MUSTER_EVAL_RUN, NULL),
                    MUSTER_NOMEM);
    expect_error(ctx, MUSTER_NOMEM, NULL, 0, "out of memory");
    CU_ASSERT_EQUAL(muster_session_eval(*held, "sum(roll 2d6)", 22, 1, MUSTER_EVAL_RUN, NULL), MUSTER_OK);
    CU_ASSERT_EQUAL(muster_session_incomplete("proc f() -> int {"), 1);
    CU_ASSERT_EQUAL(muster_session_incomplete("sum(roll 2d6)"), 0);
    fflush(out);
    CU_ASSERT_STRING_EQUAL(printed, "up\n7\n");
    muster_session_free(*held);
    muster_session_free(NULL);
    free(held);
    muster_free(ctx);
    fclose(out);
    free(printed);
}

/* the least heap muster allows (MUSTER_MAX_HEAP), so that running out is quick */
size_t harness_max_heap = (size_t)16 << 20;

void register_tests(void)
{
    static const TestDef tests[] = {
        { "lists of procedures, parameters and choices", test_lists },
        { "calls with typed arguments return values", test_call_values },
        { "errors as objects, with file, line and column", test_errors },
        { "diagnostics to the caller's stream", test_error_streams },
        { "distributions as data", test_distribution },
        { "progress told to the caller", test_progress },
        { "out of memory is an error, and the context goes on", test_out_of_memory },
        { "handles in malloc'ed memory survive collections", test_handles },
        { "sessions: kept anywhere, and going on after running out of memory", test_session },
    };
    static TestDef all[sizeof tests / sizeof tests[0] + 1];
    memcpy(all, tests, sizeof tests);
    add_suite("api", all);
}
