/* harness.c — main() for the unit tests, and the shared functions of harness.h. */
#include "config.h"
#include "tests/unit/harness.h"

#include <CUnit/Basic.h>

#include "base/mem.h"
#include "lang/parse.h"

#include <stdlib.h>
#include <string.h>

/* The heap limit of a test program: none, unless it defines its own. */
__attribute__((weak)) size_t harness_max_heap = 0;   /* not const: a const weak one may be folded */

int main(void)
{
    mem_init(harness_max_heap);
    if (CU_initialize_registry() != CUE_SUCCESS) {
        fprintf(stderr, "cannot initialise the CUnit registry: %s\n", CU_get_error_msg());
        return 1;
    }
    register_tests();
    if (CU_get_error() != CUE_SUCCESS) {
        fprintf(stderr, "cannot register the tests: %s\n", CU_get_error_msg());
        CU_cleanup_registry();
        return 1;
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_ErrorCode rc = CU_basic_run_tests();
    /* read the counts before CU_cleanup_registry(), which resets them */
    unsigned tests_run = CU_get_number_of_tests_run();
    unsigned tests_failed = CU_get_number_of_tests_failed();
    unsigned asserts_failed = CU_get_number_of_failures();
    unsigned suites_failed = CU_get_number_of_suites_failed();
    CU_cleanup_registry();
    printf("\n");
    if (rc != CUE_SUCCESS) {
        fprintf(stderr, "CUnit reported an error running the tests\n");
        return 1;
    }
    if (tests_run == 0) {
        fprintf(stderr, "no tests were run\n");
        return 1;
    }
    return tests_failed || asserts_failed || suites_failed ? 1 : 0;
}

void add_suite(const char *name, const TestDef *tests)
{
    CU_pSuite s = CU_add_suite(name, NULL, NULL);
    if (!s)
        return;
    for (const TestDef *t = tests; t->name; t++)
        if (!CU_add_test(s, t->name, t->fn))
            return;
}

/* ---- diagnostics ---- */

void capture_open(Capture *c)
{
    c->buf = NULL;
    c->len = 0;
    c->f = open_memstream(&c->buf, &c->len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c->f);
    diag_init(&c->diag, c->f, 0);
}

const char *capture_text(Capture *c)
{
    fflush(c->f);
    return c->buf ? c->buf : "";
}

void capture_close(Capture *c)
{
    if (c->f)
        fclose(c->f);
    free(c->buf);
    c->f = NULL;
    c->buf = NULL;
    c->len = 0;
}

Source *test_source_n(const char *text, size_t len)
{
    char *copy = mem_alloc_atomic(len + 1);
    memcpy(copy, text, len);
    copy[len] = '\0';
    return source_new("test.muster", copy, len);
}

Source *test_source(const char *text)
{
    return test_source_n(text, strlen(text));
}

/* ---- front end ---- */

Module *parse_text(const char *text, Capture *cap)
{
    capture_open(cap);
    return parse_module(test_source(text), &cap->diag);
}

const Expr *first_return(const Module *m)
{
    CU_ASSERT_FATAL(m != NULL && m->n > 0);
    const Decl *d = m->decls[0];
    CU_ASSERT_FATAL(d->kind == DECL_PROC);
    for (int i = 0; i < d->as.proc.body.n; i++)
        if (d->as.proc.body.items[i]->kind == ST_RETURN)
            return d->as.proc.body.items[i]->as.ret;
    CU_FAIL_FATAL("the first procedure has no return statement");
    return NULL;
}

static char messages_buf[16384];

Compiled *compile_text(const char *text, const char **messages, int *errors)
{
    Capture cap;
    capture_open(&cap);
    const Source *src = test_source(text);
    Module *m = parse_module(src, &cap.diag);
    Compiled *c = NULL;
    if (cap.diag.errors == 0)
        c = compiler_compile(m, &cap.diag);
    snprintf(messages_buf, sizeof messages_buf, "%s", capture_text(&cap));
    if (messages)
        *messages = messages_buf;
    if (errors)
        *errors = cap.diag.errors;
    bool failed = cap.diag.errors > 0;
    capture_close(&cap);
    return failed ? NULL : c;
}

const char *compile_errors(const char *text)
{
    const char *msg;
    int errors;
    Compiled *c = compile_text(text, &msg, &errors);
    if (c || errors == 0)
        return "";
    return msg;
}

bool contains(const char *haystack, const char *needle)
{
    return haystack && strstr(haystack, needle) != NULL;
}

int occurrences(const char *haystack, const char *needle)
{
    int n = 0;
    size_t len = strlen(needle);
    if (!haystack || len == 0)
        return 0;
    for (const char *p = strstr(haystack, needle); p; p = strstr(p + len, needle))
        n++;
    return n;
}

/* ---- running ---- */

void run_scripted(Run *r, const Compiled *c, const char *dice)
{
    memset(r, 0, sizeof *r);
    r->compiled = c;
    int64_t *faces = NULL;
    const char **words = NULL;
    long n = 0;
    if (dice && *dice) {
        char err[256];
        n = dice_parse_list(dice, &faces, &words, err, sizeof err);
        if (n < 0)
            fprintf(stderr, "bad dice list in a test: %s\n", err);
        CU_ASSERT_FATAL(n >= 0);
    }
    dice_script_init(&r->script, faces, words, (size_t)n);
    vm_init(&r->vm, c->prog, &r->script.base);
}

void run_seeded(Run *r, const Compiled *c, uint64_t seed)
{
    memset(r, 0, sizeof *r);
    r->compiled = c;
    dice_rng_init(&r->rng, seed);
    vm_init(&r->vm, c->prog, &r->rng.base);
}

int run_call(Run *r, const char *proc, const Value *args, int nargs)
{
    const ProcSig *sig = compiler_find_proc(r->compiled, proc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sig);
    CU_ASSERT_FATAL(nargs <= sig->nparams);
    Value argv[65];
    for (int i = 0; i < sig->nparams; i++) {
        if (i < nargs) {
            argv[i] = args[i];
            continue;
        }
        CU_ASSERT_FATAL(sig->pdefault[i] >= 0);
        /* a default takes no arguments (argv is only a non-NULL pointer;
         * test_vm.c checks NULL separately) */
        r->status = vm_call(&r->vm, sig->pdefault[i], argv, 0, &argv[i]);
        if (r->status)
            return r->status;
    }
    r->status = vm_call(&r->vm, sig->proto, argv, sig->nparams, &r->result);
    return r->status;
}

size_t dice_used(const Run *r)
{
    return r->script.next;
}

int run_text(Run *r, const char *text, const char *proc, const Value *args, int nargs, const char *dice)
{
    const char *msg;
    Compiled *c = compile_text(text, &msg, NULL);
    if (!c)
        fprintf(stderr, "test program does not compile:\n%s", msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    run_scripted(r, c, dice);
    return run_call(r, proc, args, nargs);
}

static const char *show_enums(Value v, const Program *prog)
{
    static char ring[8][256];
    static int next;
    char *buf = ring[next++ % 8];
    FILE *f = fmemopen(buf, sizeof ring[0], "w");
    if (!f)
        return "?";
    val_print(f, v, prog);
    fclose(f);
    return buf;
}

const char *show(const Run *r, Value v)
{
    return show_enums(v, r->compiled ? r->compiled->prog : NULL);
}

const char *show_value(Value v)
{
    return show_enums(v, NULL);
}

Value rat(int64_t num, int64_t den)
{
    Value v;
    CU_ASSERT_FATAL(val_make_rat(num, den, &v));
    return v;
}
