/* context.c — the library's context and loading: muster_new, the limits
 * and the Monte Carlo policy, reading a script with its imports (and, for
 * a variant, its base, loaded the same way and patched by
 * compiler/variant.c) and compiling it, the error stream.
 *
 * Everything the other api/ files share about one context lives here: the
 * context's streams and diagnostics, usage errors (which may quote the
 * command line, so they never write its control characters raw), and
 * report_runtime, which maps a VM error (a proto and a byte offset) back to
 * file:line:col in the right Source, since the VM knows no source text.
 */
#include "config.h"
#include "api/internal.h"
#include "compiler/variant.h"
#include "lang/ast.h"
#include "lang/parse.h"

#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The collector's heap stops growing here: a runaway script gets a clear
 * "out of memory" instead of taking the machine down.  MUSTER_MAX_HEAP
 * (bytes) overrides it. */
#define DEFAULT_MAX_HEAP ((size_t)2 << 30)

/* The Monte Carlo policy, the one place its numbers are set.  Past the
 * exact budget muster simulates, and says so:
 *
 * - `muster prob` runs the procedure prob_trials times (100000; --trials N
 *   sets it, and also skips the exact count) on --seed or a fresh seed, and
 *   prints each share with its 95% interval: the error is shown, and a user
 *   who wants less of it asks for more trials.
 * - A prob() claim is one number a rule goes on to use (compared, added,
 *   tested with `~ within`) with no interval shown, so it takes twice the
 *   trials (200000: a standard error of at most 0.0011 rather than 0.0016),
 *   and always the seed 1, never --seed, so that its value is the same on
 *   every path, in every trial, and in run, check, test and prob alike;
 *   neither --trials nor --seed changes it.  Its estimate is the number of
 *   trials that come out true over the number of trials (vm/exact.c,
 *   exact_claim, reads the trials and the seed from VmLimits.claim_fallback).
 *
 * The outputs documented and tested (docs/, tests/golden) depend on all
 * three numbers. */
const MonteCarlo api_monte_carlo = {
    .prob_trials = 100000,
    .claim = { .trials = 200000, .seed = 1 },
};

muster_ctx *muster_new(FILE *out, FILE *err, int color)
{
    size_t heap = DEFAULT_MAX_HEAP;
    const char *env = getenv("MUSTER_MAX_HEAP");
    if (env && *env) {
        char *end;
        unsigned long long v = strtoull(env, &end, 10);
        if (!*end && v >= ((size_t)16 << 20))
            heap = (size_t)v;
    }
    mem_init(heap);
    muster_ctx *ctx = mem_alloc_root(sizeof *ctx);
    if (!out) {
        out = fopen("/dev/null", "w");
        ctx->own_out = true;
    }
    if (!err) {
        err = open_memstream(&ctx->kept, &ctx->kept_len);
        ctx->own_err = true;
        color = 0;
    }
    if (!out || !err) {
        if (ctx->own_out && out)
            fclose(out);
        if (ctx->own_err && err)
            fclose(err);
        free(ctx->kept);
        mem_free_root(ctx);
        return NULL;
    }
    ctx->out = out;
    ctx->err = err;
    diag_init(&ctx->diag, err, color);
    ctx->limits = vm_default_limits;
    /* every machine of this context copies its limits, so every claim,
     * whatever the command, is estimated the same way */
    ctx->limits.claim_fallback = &api_monte_carlo.claim;
    return ctx;
}

void muster_free(muster_ctx *ctx)
{
    if (!ctx)
        return;
    if (ctx->own_out)
        fclose(ctx->out);
    if (ctx->own_err) {
        fclose(ctx->err);
        free(ctx->kept);
    }
    mem_free_root(ctx);
}

muster_program *api_new_program(Compiled *c)
{
    muster_program *p = mem_alloc_root(sizeof *p);
    p->compiled = c;
    p->catalog = api_catalog(c);
    return p;
}

void muster_program_free(muster_program *prog)
{
    if (prog)
        mem_free_root(prog);
}

/* ---- failures as data (muster_last_error) ---- */

void api_begin(muster_ctx *ctx)
{
    diag_forget_first(&ctx->diag);
    if (ctx->own_err) {
        fflush(ctx->err);
        rewind(ctx->err);
    }
}

int api_end(muster_ctx *ctx, int status)
{
    if (status == MUSTER_OK)
        return status;
    const Diag *d = &ctx->diag;
    ctx->failed = true;
    ctx->fail_status = status;
    ctx->fail_file = d->has_first && d->first_file ? mem_strdup(d->first_file) : NULL;
    ctx->fail_line = d->has_first ? d->first_line : 0;
    ctx->fail_col = d->has_first ? d->first_col : 0;
    ctx->fail_message = mem_strdup(d->has_first ? d->first_message
                                   : status == MUSTER_INTERRUPTED ? "interrupted" : "failed");
    ctx->fail_text = NULL;
    if (ctx->own_err) {
        fflush(ctx->err);
        long len = ftell(ctx->err);
        ctx->fail_text = mem_strndup(ctx->kept ? ctx->kept : "", len > 0 ? (size_t)len : 0);
    }
    return status;
}

int api_nomem(muster_ctx *ctx)
{
    /* what the call had built is garbage now: the collector takes it back
     * on the next allocation, so the message can be written */
    diag_forget_first(&ctx->diag);
    if (mem_heap_limit())
        api_usage_error(ctx, "out of memory (asked for %zu more bytes; the limit is %zu MiB, set by MUSTER_MAX_HEAP)",
                        mem_oom_asked(), mem_heap_limit() >> 20);
    else
        api_usage_error(ctx, "out of memory");
    return MUSTER_NOMEM;
}

static char *copied(const char *s)
{
    return s ? strdup(s) : NULL;
}

muster_error *muster_last_error(const muster_ctx *ctx)
{
    if (!ctx || !ctx->failed)
        return NULL;
    muster_error *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->status = ctx->fail_status;
    e->file = copied(ctx->fail_file);
    e->line = ctx->fail_line;
    e->column = ctx->fail_col;
    e->message = copied(ctx->fail_message);
    e->text = copied(ctx->fail_text);
    return e;
}

void muster_error_free(muster_error *e)
{
    if (!e)
        return;
    free(e->file);
    free(e->message);
    free(e->text);
    free(e);
}

void muster_set_limits(muster_ctx *ctx, uint64_t max_steps, int max_depth)
{
    if (max_steps)
        ctx->limits.max_steps = max_steps;
    if (max_depth > 0)
        ctx->limits.max_depth = max_depth;
}

int muster_error_count(const muster_ctx *ctx) { return ctx->diag.errors; }

const char *muster_version(void) { return PACKAGE_VERSION; }

#define MAX_IMPORT_DEPTH 32

static bool already_loaded(Loaded *seen, const char *path)
{
    char *real = realpath(path, NULL);
    if (!real)
        return false;
    for (int i = 0; i < seen->n; i++)
        if (!strcmp(seen->paths[i], real)) {
            free(real);
            return true;
        }
    seen->paths = ast_grow(seen->paths, seen->n, &seen->cap, sizeof(char *));
    seen->paths[seen->n++] = mem_strdup(real);
    free(real);
    return false;
}

/* Can path be read?  A path that goes round a loop of symbolic links is
 * kept in *loop (the first such), to be reported as what it is. */
static bool readable(const char *path, char **loop)
{
    FILE *f = fopen(path, "rb");
    if (f)
        fclose(f);
    else if (errno == ELOOP && !*loop)
        *loop = mem_strdup(path);
    return f != NULL;
}

/* Where `import "name"` finds its file: beside the importing file, then in
 * each folder of MUSTER_PATH, then in the installed library.  NULL if
 * nowhere; *loop is then set if some place had a loop of links instead. */
static char *find_import_in(const char *from, const char *name, char **loop, char **shadowed);

/* The folders the standard library is looked for in, in order: where it was
 * installed (MUSTER_DATADIR); ../share/muster beside the running program's
 * folder (an installation moved elsewhere as a whole, or staged with
 * `make install DESTDIR=...`); the source tree (a muster run from its build
 * tree, before it is installed). */
enum { NSTDLIB_DIRS = 3 };
static const char *stdlib_dir_list[NSTDLIB_DIRS];
static pthread_once_t stdlib_dirs_once = PTHREAD_ONCE_INIT;

static void find_stdlib_dirs(void)
{
    static char beside[4200];   /* room for the longest link and the suffix */
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    int k = 0;
    stdlib_dir_list[k++] = MUSTER_DATADIR;
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            snprintf(beside, sizeof beside, "%s/../share/" PACKAGE, exe);
            stdlib_dir_list[k++] = beside;
        }
    }
    stdlib_dir_list[k++] = MUSTER_SOURCE_STDLIB;
    while (k < NSTDLIB_DIRS)
        stdlib_dir_list[k++] = NULL;
}

static const char *const *stdlib_dirs(void)
{
    pthread_once(&stdlib_dirs_once, find_stdlib_dirs);
    return stdlib_dir_list;
}

const char *muster_stdlib_dir(void)
{
    const char *const *dirs = stdlib_dirs();
    char buf[4200];
    for (int i = 0; i < NSTDLIB_DIRS && dirs[i]; i++) {
        snprintf(buf, sizeof buf, "%s/dice.muster", dirs[i]);
        if (access(buf, R_OK) != 0)
            continue;
        /* as a plain path ("/usr/local/bin/../share/muster" is /usr/local/share/muster) */
        static __thread char real[PATH_MAX];
        return realpath(dirs[i], real) ? real : dirs[i];
    }
    return NULL;
}

/* The module of the standard library that a file found for `import
 * "name"` elsewhere hides, if there is one and it is another file. */
static char *stdlib_shadowed(const char *file, const char *found)
{
    const char *const *libs = stdlib_dirs();
    char buf[8192];
    for (size_t i = 0; i < NSTDLIB_DIRS && libs[i]; i++) {
        snprintf(buf, sizeof buf, "%s/%s", libs[i], file);
        char *lib = realpath(buf, NULL);
        if (!lib)
            continue;
        char *here = realpath(found, NULL);
        bool other = here && strcmp(here, lib);
        free(here);
        free(lib);
        return other ? mem_strdup(buf) : NULL;
    }
    return NULL;
}

static char *find_import(const char *from, const char *name, char **loop, char **shadowed)
{
    *shadowed = NULL;
    return find_import_in(from, name, loop, shadowed);
}

static char *find_import_in(const char *from, const char *name, char **loop, char **shadowed)
{
    size_t nl = strlen(name);
    bool has_ext = nl > 7 && !strcmp(name + nl - 7, ".muster");
    char file[4096];
    snprintf(file, sizeof file, "%s%s", name, has_ext ? "" : ".muster");
    char buf[8192];
    if (file[0] == '/')
        return readable(file, loop) ? mem_strdup(file) : NULL;
    const char *slash = strrchr(from, '/');
    int dir = slash ? (int)(slash - from + 1) : 0;
    const char *rest = file;
    /* "../x" beside "a/b/f.muster" is shown as "a/x", when that is the same file */
    while (!strncmp(rest, "../", 3) && dir > 0 && !(dir >= 3 && !strncmp(from + dir - 3, "../", 3))) {
        int up = dir - 1;
        while (up > 0 && from[up - 1] != '/')
            up--;
        if (!strncmp(from + up, "./", 2))
            break;
        dir = up;
        rest += 3;
    }
    snprintf(buf, sizeof buf, "%.*s%s", dir, from, rest);
    if (rest != file) {
        char raw[8192];
        snprintf(raw, sizeof raw, "%.*s%s", slash ? (int)(slash - from + 1) : 0, from, file);
        char *a = realpath(buf, NULL), *b = realpath(raw, NULL);
        bool same = a && b && !strcmp(a, b);
        free(a);
        free(b);
        if (!same)
            snprintf(buf, sizeof buf, "%s", raw);
    }
    if (readable(buf, loop)) {
        *shadowed = stdlib_shadowed(file, buf);
        return mem_strdup(buf);
    }
    const char *path = getenv("MUSTER_PATH");
    while (path && *path) {
        const char *end = strchr(path, ':');
        size_t len = end ? (size_t)(end - path) : strlen(path);
        if (len) {
            snprintf(buf, sizeof buf, "%.*s/%s", (int)len, path, file);
            if (readable(buf, loop)) {
                *shadowed = stdlib_shadowed(file, buf);
                return mem_strdup(buf);
            }
        }
        path = end ? end + 1 : NULL;
    }
    const char *const *libs = stdlib_dirs();
    for (size_t i = 0; i < NSTDLIB_DIRS && libs[i]; i++) {
        snprintf(buf, sizeof buf, "%s/%s", libs[i], file);
        if (readable(buf, loop))
            return mem_strdup(buf);
    }
    return NULL;
}

/* The file `name` that a declaration of `from` at `at` asks for (an import,
 * or a variant's base: `kind`), found as find_import finds it; NULL after
 * reporting that it is nowhere or behind a loop of links.  `what` is put
 * before the name in the report ("the base "). */
static char *locate(muster_ctx *ctx, const Source *from, Span at, const char *name, const char *kind,
                    const char *what)
{
    char *loop = NULL, *shadowed = NULL;
    char *path = find_import(from->path, name, &loop, &shadowed);
    if (path && shadowed)
        diag_report(&ctx->diag, DIAG_WARNING, from, at,
                    "%s'%s' is %s, which hides the standard library's module '%s'; rename that file "
                    "if the standard one is meant", what, name, path, name);
    if (!path && loop)
        diag_report(&ctx->diag, DIAG_ERROR, from, at, "%s cycle: '%s' goes round a loop of symbolic links", kind,
                    loop);
    else if (!path)
        diag_report(&ctx->diag, DIAG_ERROR, from, at, "cannot find %s'%s' beside this file, in MUSTER_PATH or in %s",
                    what, name, MUSTER_DATADIR);
    return path;
}

/* Parse the files a module imports (and theirs) and add their declarations. */
static void load_imports(muster_ctx *ctx, Module *into, const Module *m, Loaded *seen, int depth);

void api_load_imports(muster_ctx *ctx, Module *into, const Module *m, Loaded *seen)
{
    load_imports(ctx, into, m, seen, 0);
}

static void load_imports(muster_ctx *ctx, Module *into, const Module *m, Loaded *seen, int depth)
{
    for (int i = 0; i < m->n; i++) {
        const Decl *d = m->decls[i];
        if (d->kind != DECL_IMPORT)
            continue;
        char *path = locate(ctx, d->src, d->name_span, d->as.import.path, "import", "");
        if (!path)
            continue;
        if (already_loaded(seen, path))
            continue;
        if (depth >= MAX_IMPORT_DEPTH) {
            diag_report(&ctx->diag, DIAG_ERROR, d->src, d->name_span, "imports nest more than %d deep",
                        MAX_IMPORT_DEPTH);
            continue;
        }
        char err[512];
        Source *src = source_read(path, err, sizeof err);
        if (!src) {
            diag_report(&ctx->diag, DIAG_ERROR, d->src, d->name_span, "%s", err);
            continue;
        }
        Module *sub = parse_module(src, &ctx->diag);
        for (int k = 0; k < sub->n; k++)
            ast_module_push(into, sub->decls[k]);
        load_imports(ctx, into, sub, seen, depth + 1);
    }
}

/* The variants being loaded, innermost last: a base that is one of them
 * is a cycle. */
typedef struct Chain {
    const char *paths[MAX_IMPORT_DEPTH + 1];
    int n;
} Chain;

/* The variant header of a module (`variant "T" of "BASE"`), or NULL. */
static Decl *variant_header(const Module *m)
{
    for (int i = 0; i < m->n; i++)
        if (m->decls[i]->kind == DECL_RULESET && m->decls[i]->as.ruleset.base)
            return m->decls[i];
    return NULL;
}

static Module *load_module(muster_ctx *ctx, const Source *src, Loaded *seen, Chain *chain);

/* A variant's base, loaded (and patched, when it is a variant itself) into
 * all; false after reporting why it could not be. */
static bool load_base(muster_ctx *ctx, Module *all, const Decl *header, Loaded *seen, Chain *chain,
                      const Source **base_src)
{
    char *path = locate(ctx, header->src, header->as.ruleset.base_span, header->as.ruleset.base, "variant",
                        "the base ");
    if (!path)
        return false;
    char *real = realpath(path, NULL);
    for (int i = 0; real && i < chain->n; i++)
        if (!strcmp(chain->paths[i], real)) {
            free(real);
            diag_report(&ctx->diag, DIAG_ERROR, header->src, header->as.ruleset.base_span,
                        "variant cycle: '%s' is, through its bases, a variant of this file itself",
                        header->as.ruleset.base);
            return false;
        }
    free(real);
    if (chain->n >= MAX_IMPORT_DEPTH) {
        diag_report(&ctx->diag, DIAG_ERROR, header->src, header->as.ruleset.base_span,
                    "variants of variants nest more than %d deep", MAX_IMPORT_DEPTH);
        return false;
    }
    char err[512];
    Source *src = source_read(path, err, sizeof err);
    if (!src) {
        diag_report(&ctx->diag, DIAG_ERROR, header->src, header->as.ruleset.base_span, "%s", err);
        return false;
    }
    Module *base = load_module(ctx, src, seen, chain);
    if (!base)
        return false;
    for (int k = 0; k < base->n; k++) {
        Decl *d = base->decls[k];
        /* the base's examples (its own and its bases') are run against the variant */
        if (d->kind == DECL_EXAMPLE && (d->src == src || d->of_base))
            d->of_base = true;
        ast_module_push(all, d);
    }
    *base_src = src;
    return true;
}

/* A file with its imports and, for a variant, its base: one module, the
 * variant's changes applied; NULL after reporting errors. */
static Module *load_module(muster_ctx *ctx, const Source *src, Loaded *seen, Chain *chain)
{
    int before = ctx->diag.errors;
    Module *m = parse_module(src, &ctx->diag);
    if (ctx->diag.errors > before)
        return NULL;
    already_loaded(seen, src->path);
    Module *all = mem_alloc(sizeof *all);
    all->src = src;
    Decl *header = variant_header(m);
    int nbase = 0;
    const Source *base_src = NULL;
    if (header) {
        char *real = realpath(src->path, NULL);
        chain->paths[chain->n++] = mem_strdup(real ? real : src->path);
        free(real);
        bool ok = load_base(ctx, all, header, seen, chain, &base_src);
        chain->n--;
        if (!ok)
            return NULL;
        nbase = all->n;
    }
    for (int k = 0; k < m->n; k++)
        ast_module_push(all, m->decls[k]);
    load_imports(ctx, all, m, seen, 0);
    for (int k = nbase; k < all->n; k++) {
        const Decl *d = all->decls[k];
        if (d->change && (!header || d->src != src))
            diag_report(&ctx->diag, DIAG_ERROR, d->src, d->change_span,
                        "'change' belongs in a variant, a file headed: variant \"TITLE\" of \"BASE\"");
    }
    if (ctx->diag.errors > before)
        return NULL;
    if (header && !variant_apply(all, nbase, base_src, header, &ctx->diag))
        return NULL;
    return all;
}

/* The procedures of the standard library, read the first time one is
 * asked for: each module's name and what it declares. */
typedef struct StdlibProc {
    const char *name, *module;
} StdlibProc;

static StdlibProc *stdlib_procs;
static int stdlib_nprocs = -1;
static pthread_mutex_t stdlib_lock = PTHREAD_MUTEX_INITIALIZER;

static void read_stdlib(void)
{
    int cap = 0;
    stdlib_nprocs = 0;
    const char *const *libs = stdlib_dirs();
    for (size_t l = 0; l < NSTDLIB_DIRS && libs[l]; l++) {
        DIR *dir = opendir(libs[l]);
        if (!dir)
            continue;
        struct dirent *e;
        while ((e = readdir(dir))) {
            size_t len = strlen(e->d_name);
            if (len <= 7 || e->d_name[0] == '.' || strcmp(e->d_name + len - 7, ".muster"))
                continue;
            char *module = mem_strndup(e->d_name, len - 7);
            bool known = false;   /* the installed module comes first */
            for (int i = 0; i < stdlib_nprocs && !known; i++)
                known = !strcmp(stdlib_procs[i].module, module);
            if (known)
                continue;
            char path[8192], err[256];
            snprintf(path, sizeof path, "%s/%s", libs[l], e->d_name);
            Source *src = source_read(path, err, sizeof err);
            if (!src)
                continue;
            FILE *null = fopen("/dev/null", "w");
            if (!null)
                continue;
            Diag quiet;
            diag_init(&quiet, null, 0);
            Module *m = parse_module(src, &quiet);
            fclose(null);
            for (int i = 0; m && i < m->n; i++) {
                DeclKind k = m->decls[i]->kind;
                if (k != DECL_PROC && k != DECL_TABLE && k != DECL_BANDS && k != DECL_MODIFIERS)
                    continue;
                stdlib_procs = ast_grow(stdlib_procs, stdlib_nprocs, &cap, sizeof *stdlib_procs);
                stdlib_procs[stdlib_nprocs++] = (StdlibProc){ m->decls[i]->name, module };
            }
        }
        closedir(dir);
    }
}

static const char *stdlib_module_of(const char *name)
{
    pthread_mutex_lock(&stdlib_lock);
    if (stdlib_nprocs < 0)
        read_stdlib();
    pthread_mutex_unlock(&stdlib_lock);
    for (int i = 0; i < stdlib_nprocs; i++)
        if (!strcmp(stdlib_procs[i].name, name))
            return stdlib_procs[i].module;
    return NULL;
}

Module *api_load_module(muster_ctx *ctx, const Source *src, Loaded *seen)
{
    Chain chain = { .n = 0 };
    return load_module(ctx, src, seen, &chain);
}

Compiled *api_compile(muster_ctx *ctx, const Module *m)
{
    return compiler_compile_with(m, &ctx->diag, stdlib_module_of);
}

static Compiled *load_source(muster_ctx *ctx, const Source *src)
{
    Loaded seen = { 0 };
    Module *m = api_load_module(ctx, src, &seen);
    if (!m)
        return NULL;
    return api_compile(ctx, m);
}

static Compiled *load_file(muster_ctx *ctx, const char *path)
{
    char err[512];
    Source *src = source_read(path, err, sizeof err);
    if (!src) {
        diag_report(&ctx->diag, DIAG_ERROR, NULL, (Span){ 0, 0 }, "%s", err);
        return NULL;
    }
    return load_source(ctx, src);
}

static Compiled *load_expression(muster_ctx *ctx, const char *expression)
{
    /* The source is the expression alone, so a diagnostic shows just what
     * the user wrote, at their columns on line 1; it is parsed as one
     * expression and made the body of a procedure of no arguments, whose
     * result type is whatever the expression's is (a type name no script
     * can write). */
    size_t n = strlen(expression);
    if (strspn(expression, " \t\r\n") == n) {
        diag_report(&ctx->diag, DIAG_ERROR, NULL, (Span){ 0, 0 }, "-e needs an expression, such as 'sum(roll 2d6)'");
        return NULL;
    }
    Source *src = source_new("-e", mem_strndup(expression, n), n);
    Expr *e = parse_expression(src, &ctx->diag);
    if (!e)
        return NULL;
    Span all = { 0, (uint32_t)n };
    Module *m = mem_alloc(sizeof *m);
    m->src = src;
    Decl *d = ast_decl(DECL_PROC, COMPILER_EXPRESSION_PROC, all, all);
    d->src = src;
    d->ret.name = COMPILER_INFERRED_TYPE;
    Stmt *ret = ast_stmt(ST_RETURN, all);
    ret->as.ret = e;
    ast_stmt_push(&d->as.proc.body, ret);
    d->as.proc.body_end = (Span){ (uint32_t)n, (uint32_t)n };
    ast_module_push(m, d);
    Compiled *c = api_compile(ctx, m);
    if (c)
        c->expression = mem_strdup(expression);
    return c;
}

/* The three loaders' frame: a program for the caller to keep, or NULL
 * with the reason kept for muster_last_error (out of memory included). */
muster_program *muster_load(muster_ctx *ctx, const char *path)
{
    MemCatch mc;
    API_TRY(ctx, mc, return NULL);
    Compiled *c = load_file(ctx, path);
    API_DONE(ctx, mc, c ? MUSTER_OK : MUSTER_ERROR);
    return c ? api_new_program(c) : NULL;
}

muster_program *muster_load_expression(muster_ctx *ctx, const char *expression)
{
    MemCatch mc;
    API_TRY(ctx, mc, return NULL);
    Compiled *c = load_expression(ctx, expression);
    API_DONE(ctx, mc, c ? MUSTER_OK : MUSTER_ERROR);
    return c ? api_new_program(c) : NULL;
}

muster_program *muster_load_string(muster_ctx *ctx, const char *name, const char *text, size_t len)
{
    MemCatch mc;
    API_TRY(ctx, mc, return NULL);
    Compiled *c = load_source(ctx, source_new(mem_strdup(name), mem_strndup(text, len), len));
    API_DONE(ctx, mc, c ? MUSTER_OK : MUSTER_ERROR);
    return c ? api_new_program(c) : NULL;
}

/* A usage error's message, as the first error of the call when none is
 * recorded yet (muster_last_error), up to the end of its line. */
static void note_first(muster_ctx *ctx, const char *message)
{
    if (ctx->diag.has_first)
        return;
    ctx->diag.has_first = true;
    ctx->diag.first_message = mem_strndup(message, strcspn(message, "\n"));
}

/* A message to the error stream.  It may quote the command line (an
 * argument, a procedure's name as typed): its control characters are
 * written as \x1b, as a diagnostic's are, never raw. */
static void err_vprintf(muster_ctx *ctx, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    int len = vsnprintf(NULL, 0, fmt, again);
    va_end(again);
    if (len < 0)
        return;
    char *text = mem_alloc_atomic((size_t)len + 1);
    vsnprintf(text, (size_t)len + 1, fmt, ap);
    if (!strncmp(text, "muster: error: ", 15))
        note_first(ctx, text + 15);
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        diag_put_text(ctx->err, mem_strndup(line, n));
        if (!nl)
            break;
        fputc('\n', ctx->err);
        line = nl + 1;
    }
}

__attribute__((format(printf, 2, 3)))
void api_err_printf(muster_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err_vprintf(ctx, fmt, ap);
    va_end(ap);
}

__attribute__((format(printf, 2, 3)))
int api_usage_error(muster_ctx *ctx, const char *fmt, ...)
{
    va_list ap, again;
    va_start(ap, fmt);
    va_copy(again, ap);
    int len = vsnprintf(NULL, 0, fmt, again);
    va_end(again);
    char *message = mem_alloc_atomic(len > 0 ? (size_t)len + 1 : 1);
    message[0] = '\0';
    if (len > 0)
        vsnprintf(message, (size_t)len + 1, fmt, ap);
    va_end(ap);
    api_err_printf(ctx, "muster: error: %s\n", message);
    return MUSTER_USAGE;
}

/* Report a runtime error at the failing expression, with the call chain. */
void api_report_runtime(muster_ctx *ctx, const Compiled *c, const Vm *vm)
{
    uint32_t off;
    const Source *src = compiler_locate(c, vm->error_offset, &off);
    Span at = { off, off + 1 };
    diag_report(&ctx->diag, DIAG_ERROR, src, at, "%s (in '%s')", vm->error,
                vm->error_proto ? vm->error_proto->name : "?");
    if (vm->error_unknown && vm->error_needed) {
        /* the error points at the '?'; this is what needed its value */
        uint32_t noff;
        const Source *nsrc = compiler_locate(c, vm->error_needed_offset, &noff);
        diag_report(&ctx->diag, DIAG_NOTE, nsrc, (Span){ noff, noff + 1 }, "its value is needed here");
    }
    /* the callers, innermost first; a run of identical recursive calls is one note */
    int shown = 0;
    for (int d = vm->error_depth - 1; d >= 0;) {
        const Frame *f = &vm->frames[d];
        const uint8_t *ip = f->ip;
        int run = 1;
        while (d - run >= 0 && vm->frames[d - run].proto == f->proto && vm->frames[d - run].ip == ip)
            run++;
        if (shown == 4) {
            diag_report(&ctx->diag, DIAG_NOTE, NULL, at, "... and %d more call%s", d + 1, d ? "s" : "");
            break;
        }
        const Source *fsrc = compiler_locate(c, f->proto->offsets[ip - f->proto->code - 1], &off);
        if (run > 1)
            diag_report(&ctx->diag, DIAG_NOTE, fsrc, (Span){ off, off + 1 }, "called from '%s' (%d times over)",
                        f->proto->name, run);
        else
            diag_report(&ctx->diag, DIAG_NOTE, fsrc, (Span){ off, off + 1 }, "called from '%s'", f->proto->name);
        shown++;
        d -= run;
    }
}

char *api_folded_text(const Source *src, Span at)
{
    char *out = mem_alloc_atomic(at.end - at.begin + 4);
    size_t n = 0;
    bool space = false;
    for (uint32_t i = at.begin; i < at.end && i < src->len; i++) {
        char ch = src->text[i];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
            space = n > 0;
            continue;
        }
        if (space)
            out[n++] = ' ';
        space = false;
        out[n++] = ch;
    }
    out[n] = 0;
    return out;
}
