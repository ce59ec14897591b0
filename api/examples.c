/* examples.c — muster check and muster test: the examples of a script run.
 *
 * Each example is a hidden procedure, run on its own scripted dice (every
 * one of which it must use), whose EXPECT instructions report through the
 * VM's trace; a failed claim becomes a diagnostic at its line.  A variant's
 * base's examples run after its own and are not failures when they fail:
 * test lists each as holding or changed (with what it gives now), check
 * counts them.  check also prints the compiler's warnings and the `?`
 * values left open.
 */
#include "config.h"
#include "api/internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct ExampleRun {
    muster_ctx *ctx;
    const Compiled *c;
    const Example *ex;
    int failures;
    char *change;            /* a base example against a variant: what it gives now, the first that differs */
} ExampleRun;

/* An expectation as written, on one line and cut at 80 characters. */
static void put_expectation(FILE *m, const Source *src, Span at)
{
    char *text = api_folded_text(src, at);
    if (strlen(text) > 80)
        strcpy(text + 80, "...");
    fputs(text, m);
}

/* What a base example's expectation gives against the variant:
 * "expected v.hits == 3, now 1 (line 855)". */
static void put_change(FILE *m, const Example *ex, int index, int op, Value left, const Program *prog)
{
    fputs("expected ", m);
    put_expectation(m, ex->src, ex->expects[index]);
    fputs(", now ", m);
    if (op < 0)
        fputs("false", m);
    else
        fputs(api_value_text(left, prog), m);   /* a member by its name: its words can run long */
    if (ex->nexpects > 1) {
        int line, col;
        source_linecol(ex->src, ex->expects[index].begin, &line, &col);
        fprintf(m, " (line %d)", line);
    }
}

/* A failed expectation: an error, or for a base example run against a
 * variant, the first change it shows. */
static void on_expect(void *ud, const Proto *p, uint32_t offset, int index, bool ok, Value left, Value right)
{
    (void)p;
    (void)offset;
    ExampleRun *run = ud;
    if (ok)
        return;
    run->failures++;
    const Example *ex = run->ex;
    const Program *prog = run->c->prog;
    int op = ex->expect_ops[index];
    char *msg = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&msg, &len);
    if (!m)
        return;
    if (ex->of_base) {
        if (!run->change)
            put_change(m, ex, index, op, left, prog);
        fclose(m);
        if (!run->change)
            run->change = mem_strdup(msg);
        free(msg);
        return;
    }
    const char *got = ", got ";
    fprintf(m, "example \"%s\" fails: ", ex->name);
    if (op < 0) {
        fputs("expected this to be true, but it is false", m);
    } else if (op == OPR_APPROX) {
        fputs("expected ", m);
        api_print_explained(m, right, prog);
        fprintf(m, " within %s%s", ex->tolerances[index], got);
        api_print_explained(m, left, prog);
        if (left.tag == VAL_RAT && left.as.q.den != 1)
            fprintf(m, " (%.6g)", (double)left.as.q.num / (double)left.as.q.den);
    } else if (op == OPR_EQ) {
        fputs("expected ", m);
        api_print_explained(m, right, prog);
        fputs(got, m);
        api_print_explained(m, left, prog);
    } else {
        fprintf(m, "expected a value %s ", ast_operator_text[op]);
        api_print_explained(m, right, prog);
        fputs(got, m);
        api_print_explained(m, left, prog);
    }
    fclose(m);
    diag_report(&run->ctx->diag, DIAG_ERROR, ex->src, ex->expects[index], "%s", msg);
    free(msg);
}

/* Run one example; true if it passed.  Failures are reported as
 * diagnostics, except a base example's against a variant: then *change
 * (when not NULL) is what the variant gives now, in words. */
static bool run_example(muster_ctx *ctx, const Compiled *c, const Example *ex, char **change)
{
    ScriptDice dice;
    dice_script_init(&dice, ex->dice, ex->dice_words, (size_t)ex->ndice);
    Vm vm;
    vm_init(&vm, c->prog, &dice.base);
    vm.limits = ctx->limits;
    /* the example's `choose` lines set these as it runs */
    vm.choices = mem_alloc_atomic(sizeof(int) * (size_t)(c->prog->nenums + 1));
    memcpy(vm.choices, ex->choices, sizeof(int) * (size_t)c->prog->nenums);
    ExampleRun run = { ctx, c, ex, 0, NULL };
    VmTrace trace = { .ud = &run, .on_expect = on_expect };
    vm.trace = &trace;
    Value result;
    if (vm_call(&vm, ex->proto, NULL, 0, &result)) {
        if (ex->of_base) {
            size_t n = strlen(vm.error) + 32;
            *change = mem_alloc_atomic(n);
            snprintf(*change, n, "now an error: %s", vm.error);
            return false;
        }
        api_report_runtime(ctx, c, &vm);
        diag_report(&ctx->diag, DIAG_NOTE, ex->src, ex->decl->name_span, "while running example \"%s\"", ex->name);
        return false;
    }
    if (ex->of_base && run.failures) {
        *change = run.change;
        return false;
    }
    if (dice.next < dice.n && ex->of_base) {
        size_t n = 96;
        *change = mem_alloc_atomic(n);
        snprintf(*change, n, "now uses %zu of its %zu dice", dice.next, dice.n);
        return false;
    }
    if (dice.next < dice.n) {
        diag_report(&ctx->diag, DIAG_ERROR, ex->src, ex->decl->name_span,
                    "example \"%s\" gives %zu dice but uses only %zu of them", ex->name, dice.n, dice.next);
        return false;
    }
    return run.failures == 0;
}

static int lint_order(const void *a, const void *b)
{
    const Lint *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    return (x->span.begin > y->span.begin) - (x->span.begin < y->span.begin);
}

/* The choices the rules leave to the players (a reading of the text they
 * may disagree on, or a house option): each with its question, its
 * options and its default, and how to pick one. */
static void list_choices(muster_ctx *ctx, const Compiled *c)
{
    int n = 0;
    for (int i = 0; i < c->module->n; i++) {
        const Decl *d = c->module->decls[i];
        if (d->kind != DECL_ENUM || d->as.enm.flavour != ENUM_CHOICE)
            continue;
        char options[512] = "";
        size_t at = 0;
        for (int k = 0; k < d->as.enm.n && at < sizeof options; k++) {
            const char *name = d->as.enm.items[k].name;
            bool deflt = d->as.enm.deflt ? !strcmp(d->as.enm.deflt, name) : k == 0;
            at += (size_t)snprintf(options + at, sizeof options - at, "%s%s%s", k ? ", " : "", name,
                                   deflt ? " (default)" : "");
        }
        diag_brief(&ctx->diag, DIAG_NOTE, d->src, d->name_span, "choice %s, \"%s\": %s; pick one with --choose %s=OPTION",
                   d->name, d->as.enm.prompt ? d->as.enm.prompt : d->name, options, d->name);
        n++;
    }
    if (n) {
        diag_put_text(ctx->err, c->src->path);
        api_err_printf(ctx, ": %d %s left to the players (marked 'choice')\n", n, n == 1 ? "choice is" : "choices are");
    }
}

static int check_printing(muster_ctx *ctx, const muster_program *prog, int *passed, int *failed)
{
    const Compiled *c = prog->compiled;
    if (c->nlints > 1)
        qsort(c->lints, (size_t)c->nlints, sizeof(Lint), lint_order);
    for (int i = 0; i < c->nlints; i++)
        diag_report(&ctx->diag, DIAG_WARNING, c->lints[i].src, c->lints[i].span, "%s", c->lints[i].message);
    for (int i = 0; i < c->nunknowns; i++)
        diag_brief(&ctx->diag, DIAG_WARNING, c->unknowns[i].src, c->unknowns[i].span,
                   "not given in the rules text: %s", c->unknowns[i].what);
    if (c->nunknowns > 1) {
        diag_put_text(ctx->err, c->src->path);
        api_err_printf(ctx, ": %d values are not given in the rules text (marked '?')\n", c->nunknowns);
    }
    list_choices(ctx, c);
    int status = MUSTER_OK;
    int held = 0, changed = 0;
    for (int i = 0; i < c->nexamples; i++) {
        char *change = NULL;
        bool ok = run_example(ctx, c, &c->examples[i], &change);
        if (c->examples[i].of_base)
            ++*(ok ? &held : &changed);
        else if (ok)
            ++*passed;
        else {
            ++*failed;
            status = MUSTER_ERROR;
        }
    }
    if (held + changed) {
        diag_put_text(ctx->out, c->src->path);
        const char *base = "its base";
        for (int i = 0; i < c->nexamples; i++)
            if (c->examples[i].of_base)
                base = c->examples[i].src->path;   /* as the loader found it, like muster test */
        if (changed)
            fprintf(ctx->out, ": the variant changes %d of the %d examples of %s (muster test lists them)\n", changed,
                    held + changed, base);
        else if (held == 1)
            fprintf(ctx->out, ": the variant does not change the one example of %s\n", base);
        else
            fprintf(ctx->out, ": the variant changes none of the %d examples of %s\n", held, base);
    }
    return status;
}

/* A variant's run of its base's examples: each that holds (unless
 * changed_only) and each it changes, with what it gives now, and a total.
 * Returns how many it changes. */
int api_base_examples(muster_ctx *ctx, const Compiled *c, bool changed_only)
{
    int held = 0, changed = 0;
    for (int i = 0; i < c->nexamples; i++) {
        const Example *ex = &c->examples[i];
        if (!ex->of_base)
            continue;
        char *change = NULL;
        bool ok = run_example(ctx, c, ex, &change);
        ++*(ok ? &held : &changed);
        if (ok && changed_only)
            continue;
        int line, col;
        source_linecol(ex->src, ex->decl->name_span.begin, &line, &col);
        if (!changed_only && held + changed == 1) {
            fputs("the base's examples, against ", ctx->out);
            diag_put_text(ctx->out, c->src->path);
            fputs(":\n", ctx->out);
        }
        fputs(ok ? "  holds   " : "  CHANGED ", ctx->out);
        diag_put_text(ctx->out, ex->src->path);
        fprintf(ctx->out, ":%d: ", line);
        diag_put_text(ctx->out, ex->name);
        if (!ok) {
            fputs(" — ", ctx->out);
            diag_put_text(ctx->out, change ? change : "it no longer holds");
        }
        fputc('\n', ctx->out);
    }
    if (changed)
        fprintf(ctx->out, "the variant changes %d of the base's %d examples; %d hold%s as before\n", changed,
                held + changed, held, held == 1 ? "s" : "");
    else if (held == 1)
        fputs("the variant does not change the base's one example; it holds as before\n", ctx->out);
    else if (held)
        fprintf(ctx->out, "the variant changes none of the base's %d examples; all hold as before\n", held);
    fflush(ctx->out);
    return changed;
}

static int test_printing(muster_ctx *ctx, const muster_program *prog, int *passed, int *failed)
{
    const Compiled *c = prog->compiled;
    int status = MUSTER_OK;
    /* a variant's own examples, then its base's, which it may change */
    for (int i = 0; i < c->nexamples; i++) {
        const Example *ex = &c->examples[i];
        if (ex->of_base)
            continue;
        fflush(ctx->out);
        bool ok = run_example(ctx, c, ex, NULL);
        int line, col;
        source_linecol(ex->src, ex->decl->name_span.begin, &line, &col);
        /* (the path may come from a folder's listing: written as text, never raw) */
        fputs(ok ? "PASS " : "FAIL ", ctx->out);
        diag_put_text(ctx->out, ex->src->path);
        fprintf(ctx->out, ":%d: ", line);
        diag_put_text(ctx->out, ex->name);
        fputc('\n', ctx->out);
        fflush(ctx->out);
        if (ok)
            ++*passed;
        else {
            ++*failed;
            status = MUSTER_ERROR;
        }
    }
    api_base_examples(ctx, c, false);
    fflush(ctx->out);
    return status;
}

int muster_check(muster_ctx *ctx, const muster_program *prog, int *passed, int *failed)
{
    MemCatch mc;
    API_TRY(ctx, mc, return MUSTER_NOMEM);
    int st = check_printing(ctx, prog, passed, failed);
    return API_DONE(ctx, mc, st);
}

int muster_test(muster_ctx *ctx, const muster_program *prog, int *passed, int *failed)
{
    MemCatch mc;
    API_TRY(ctx, mc, return MUSTER_NOMEM);
    int st = test_printing(ctx, prog, passed, failed);
    return API_DONE(ctx, mc, st);
}
