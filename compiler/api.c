/* api.c — libmuster's public functions: load, run, prob, list, dis.
 *
 * The glue between the pipeline stages: it reads and parses a script
 * (lang/), compiles it (compiler/), turns command-line `name=value` text
 * into typed arguments, runs procedures on the VM (vm/) and prints what
 * they produce — including runtime errors mapped back to file:line:col.
 */
#include "config.h"
#include "muster.h"

#include "ast.h"

#include "compiler.h"
#include "sheet.h"
#include "specialize.h"
#include "dice.h"
#include "exact.h"
#include "mem.h"
#include "opcodes.h"
#include "parse.h"
#include "vm.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>

struct muster_ctx {
    FILE *out, *err;
    Diag diag;
    VmLimits limits;
};

struct muster_program {
    Compiled *compiled;
};

/* The collector's heap stops growing here: a runaway script gets a clear
 * "out of memory" instead of taking the machine down.  MUSTER_MAX_HEAP
 * (bytes) overrides it. */
#define DEFAULT_MAX_HEAP ((size_t)2 << 30)

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
    muster_ctx *ctx = mem_alloc(sizeof *ctx);
    ctx->out = out;
    ctx->err = err;
    diag_init(&ctx->diag, err, color);
    ctx->limits = vm_default_limits;
    return ctx;
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

/* ---- imports ---- */

#define MAX_IMPORT_DEPTH 32

typedef struct Loaded {
    char **paths;            /* real paths of the files read so far */
    int n, cap;
} Loaded;

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
static char *find_import(const char *from, const char *name, char **loop)
{
    size_t nl = strlen(name);
    bool has_ext = nl > 7 && !strcmp(name + nl - 7, ".muster");
    char file[4096];
    snprintf(file, sizeof file, "%s%s", name, has_ext ? "" : ".muster");
    char buf[8192];
    if (file[0] == '/')
        return readable(file, loop) ? mem_strdup(file) : NULL;
    const char *slash = strrchr(from, '/');
    snprintf(buf, sizeof buf, "%.*s%s", slash ? (int)(slash - from + 1) : 0, from, file);
    if (readable(buf, loop))
        return mem_strdup(buf);
    const char *path = getenv("MUSTER_PATH");
    while (path && *path) {
        const char *end = strchr(path, ':');
        size_t len = end ? (size_t)(end - path) : strlen(path);
        if (len) {
            snprintf(buf, sizeof buf, "%.*s/%s", (int)len, path, file);
            if (readable(buf, loop))
                return mem_strdup(buf);
        }
        path = end ? end + 1 : NULL;
    }
    static const char *const libs[] = { MUSTER_DATADIR, MUSTER_SOURCE_STDLIB };
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
        snprintf(buf, sizeof buf, "%s/%s", libs[i], file);
        if (readable(buf, loop))
            return mem_strdup(buf);
    }
    return NULL;
}

/* Parse the files a module imports (and theirs) and add their declarations. */
static void load_imports(muster_ctx *ctx, Module *into, const Module *m, Loaded *seen, int depth)
{
    for (int i = 0; i < m->n; i++) {
        const Decl *d = m->decls[i];
        if (d->kind != DECL_IMPORT)
            continue;
        char *loop = NULL;
        char *path = find_import(d->src->path, d->as.import.path, &loop);
        if (!path && loop) {
            diag_report(&ctx->diag, DIAG_ERROR, d->src, d->name_span,
                        "import cycle: '%s' goes round a loop of symbolic links", loop);
            continue;
        }
        if (!path) {
            diag_report(&ctx->diag, DIAG_ERROR, d->src, d->name_span,
                        "cannot find '%s' beside this file, in MUSTER_PATH or in %s", d->as.import.path,
                        MUSTER_DATADIR);
            continue;
        }
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

static muster_program *load_source(muster_ctx *ctx, const Source *src)
{
    int before = ctx->diag.errors;
    Module *m = parse_module(src, &ctx->diag);
    if (ctx->diag.errors > before)
        return NULL;
    Loaded seen = { 0 };
    already_loaded(&seen, src->path);
    Module *all = mem_alloc(sizeof *all);
    all->src = src;
    for (int k = 0; k < m->n; k++)
        ast_module_push(all, m->decls[k]);
    load_imports(ctx, all, m, &seen, 0);
    if (ctx->diag.errors > before)
        return NULL;
    m = all;
    Compiled *c = compiler_compile(m, &ctx->diag);
    if (!c)
        return NULL;
    muster_program *p = mem_alloc(sizeof *p);
    p->compiled = c;
    return p;
}

muster_program *muster_load(muster_ctx *ctx, const char *path)
{
    char err[512];
    Source *src = source_read(path, err, sizeof err);
    if (!src) {
        diag_report(&ctx->diag, DIAG_ERROR, NULL, (Span){ 0, 0 }, "%s", err);
        return NULL;
    }
    return load_source(ctx, src);
}

muster_program *muster_load_expression(muster_ctx *ctx, const char *expression)
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
    Compiled *c = compiler_compile(m, &ctx->diag);
    if (!c)
        return NULL;
    c->expression = mem_strdup(expression);
    muster_program *p = mem_alloc(sizeof *p);
    p->compiled = c;
    return p;
}

muster_program *muster_load_string(muster_ctx *ctx, const char *name, const char *text, size_t len)
{
    char *copy = mem_strndup(text, len);
    return load_source(ctx, source_new(mem_strdup(name), copy, len));
}

/* ---- arguments from text ---- */

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
static void err_printf(muster_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err_vprintf(ctx, fmt, ap);
    va_end(ap);
}

__attribute__((format(printf, 2, 3)))
static int usage_error(muster_ctx *ctx, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("muster: error: ", ctx->err);
    err_vprintf(ctx, fmt, ap);
    fputc('\n', ctx->err);
    va_end(ap);
    return MUSTER_USAGE;
}

static void print_signature(FILE *out, const Compiled *c, const ProcSig *sig)
{
    fprintf(out, "%s(", sig->name);
    for (int i = 0; i < sig->nparams; i++) {
        fprintf(out, "%s%s: %s", i ? ", " : "", sig->pnames[i], compiler_type_name(c, sig->ptypes[i]));
        if (sig->pdefault[i] >= 0)
            fprintf(out, " = %s", sig->pdeftext[i] ? sig->pdeftext[i] : "...");
    }
    fprintf(out, ") -> %s", compiler_type_name(c, sig->ret));
}

static void print_choices(FILE *out, const Compiled *c, Type t)
{
    if (t.kind == TY_ENUM) {
        const EnumDesc *e = &c->prog->enums[t.enum_id];
        fputs(" (one of:", out);
        for (int i = 0; i < e->nmembers; i++)
            fprintf(out, " %s", e->members[i]);
        fputc(')', out);
    } else if (t.kind == TY_BOOL) {
        fputs(" (true or false)", out);
    } else if (t.kind == TY_RAT) {
        fputs(" (a whole number, a fraction like 3/2 or a decimal like 1.5)", out);
    } else if (t.kind == TY_INT) {
        fputs(" (a whole number)", out);
    }
}

static bool parse_i64(const char *s, int64_t *out)
{
    if (!*s || isspace((unsigned char)*s))
        return false;
    errno = 0;
    char *end;
    long long v = strtoll(s, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

static bool parse_value(const Compiled *c, Type t, const char *text, Value *out)
{
    switch (t.kind) {
    case TY_INT: {
        int64_t i;
        if (!parse_i64(text, &i))
            return false;
        *out = val_int(i);
        return true;
    }
    case TY_RAT: {
        const char *slash = strchr(text, '/');
        const char *dot = strchr(text, '.');
        int64_t n, d = 1;
        if (dot && !slash) {
            /* a decimal, exactly: 1.5 is 3/2 */
            const char *digits = dot + 1;
            size_t places = strlen(digits);
            if (places == 0 || places > 18 || strspn(digits, "0123456789") != places)
                return false;
            char *whole = mem_strndup(text, (size_t)(dot - text));
            int64_t w, f;
            if (!parse_i64(whole, &w) || !parse_i64(digits, &f))
                return false;
            int64_t scale = 1;
            for (size_t i = 0; i < places; i++)
                scale *= 10;
            bool negative = text[0] == '-';
            if (w > INT64_MAX / scale || w < -(INT64_MAX / scale))
                return false;
            n = w * scale + (negative ? -f : f);
            return val_make_rat(n, scale, out);
        }
        if (slash) {
            char *num = mem_strndup(text, (size_t)(slash - text));
            if (!parse_i64(num, &n) || !parse_i64(slash + 1, &d) || d == 0)
                return false;
        } else if (!parse_i64(text, &n)) {
            return false;
        }
        return val_make_rat(n, d, out);
    }
    case TY_BOOL:
        if (!strcmp(text, "true") || !strcmp(text, "false")) {
            *out = val_bool(text[0] == 't');
            return true;
        }
        return false;
    case TY_STR:
        *out = val_str(val_new_str(text, strlen(text)));
        return true;
    case TY_ENUM: {
        const EnumDesc *e = &c->prog->enums[t.enum_id];
        size_t nl = strlen(e->name);
        if (!strncmp(text, e->name, nl) && text[nl] == '.')
            text += nl + 1;
        for (int i = 0; i < e->nmembers; i++)
            if (!strcmp(text, e->members[i])) {
                *out = val_enum(t.enum_id, i);
                return true;
            }
        return false;
    }
    case TY_POOL:
    case TY_RECORD:
    case TY_ERROR:
        break;
    }
    return false;
}

/* Is text a well-formed [+-]digits[/digits] numeral with a non-zero
 * denominator, so that failing to read it can only mean it is too big? */
static bool numeral_out_of_range(const char *text)
{
    const char *p = text + (*text == '-' || *text == '+');
    size_t whole = strspn(p, "0123456789");
    if (!whole)
        return false;
    p += whole;
    if (*p == '/') {
        p++;
        size_t den = strspn(p, "0123456789");
        if (!den || strspn(p, "0") == den)
            return false;
        p += den;
    }
    return *p == '\0';
}

/* Report a runtime error at the failing expression, with the call chain. */
static void report_runtime(muster_ctx *ctx, const Compiled *c, const Vm *vm)
{
    Span at = { vm->error_offset, vm->error_offset + 1 };
    diag_report(&ctx->diag, DIAG_ERROR, compiler_source_of(c, vm->error_proto), at, "%s (in '%s')", vm->error,
                vm->error_proto ? vm->error_proto->name : "?");
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
        uint32_t off = f->proto->offsets[ip - f->proto->code - 1];
        const Source *fsrc = compiler_source_of(c, f->proto);
        if (run > 1)
            diag_report(&ctx->diag, DIAG_NOTE, fsrc, (Span){ off, off + 1 }, "called from '%s' (%d times over)",
                        f->proto->name, run);
        else
            diag_report(&ctx->diag, DIAG_NOTE, fsrc, (Span){ off, off + 1 }, "called from '%s'", f->proto->name);
        shown++;
        d -= run;
    }
}

/* Build the argument vector for sig from "name=value" strings, running
 * default-value procedures for what is not given. */
static int build_args(muster_ctx *ctx, const Compiled *c, const ProcSig *sig, int nargs,
                      char *const *args, Vm *vm, Value *out, bool *given)
{
    memset(given, 0, sizeof(bool) * (size_t)sig->nparams);
    for (int i = 0; i < nargs; i++) {
        const char *eq = strchr(args[i], '=');
        if (!eq) {
            usage_error(ctx, "argument '%s' should be name=value", args[i]);
            fputs("usage: ", ctx->err);
            print_signature(ctx->err, c, sig);
            fputc('\n', ctx->err);
            return MUSTER_USAGE;
        }
        size_t nl = (size_t)(eq - args[i]);
        int p;
        for (p = 0; p < sig->nparams; p++)
            if (strlen(sig->pnames[p]) == nl && !strncmp(sig->pnames[p], args[i], nl))
                break;
        if (p == sig->nparams) {
            usage_error(ctx, "'%s' has no parameter named '%.*s'", sig->name, (int)nl, args[i]);
            fputs("usage: ", ctx->err);
            print_signature(ctx->err, c, sig);
            fputc('\n', ctx->err);
            return MUSTER_USAGE;
        }
        if (given[p])
            return usage_error(ctx, "parameter '%s' is given twice", sig->pnames[p]);
        Type t = sig->ptypes[p];
        if (t.kind == TY_POOL || t.kind == TY_RECORD)
            return usage_error(ctx, "parameter '%s' is a %s; that cannot be given on the command line",
                               sig->pnames[p], t.kind == TY_POOL ? "pool" : "record");
        if (!parse_value(c, t, eq + 1, &out[p])) {
            if ((t.kind == TY_INT || t.kind == TY_RAT) && numeral_out_of_range(eq + 1))
                return usage_error(ctx, "'%s' is out of range for parameter '%s': muster's integers are "
                                   "64-bit (-9223372036854775808 to 9223372036854775807)", eq + 1, sig->pnames[p]);
            err_printf(ctx, "muster: error: '%s' is not a valid %s for parameter '%s'", eq + 1,
                    compiler_type_name(c, t), sig->pnames[p]);
            print_choices(ctx->err, c, t);
            fputc('\n', ctx->err);
            return MUSTER_USAGE;
        }
        given[p] = true;
    }
    for (int p = 0; p < sig->nparams; p++) {
        if (given[p])
            continue;
        if (sig->pdefault[p] < 0 && (sig->ptypes[p].kind == TY_RECORD || sig->ptypes[p].kind == TY_POOL))
            return usage_error(ctx, "'%s' needs '%s' (a %s), which cannot be given on the command line; "
                               "run a procedure that makes it", sig->name, sig->pnames[p],
                               compiler_type_name(c, sig->ptypes[p]));
        if (sig->pdefault[p] < 0) {
            err_printf(ctx, "muster: error: missing argument %s=%s", sig->pnames[p],
                    compiler_type_name(c, sig->ptypes[p]));
            print_choices(ctx->err, c, sig->ptypes[p]);
            fputs("\nusage: ", ctx->err);
            print_signature(ctx->err, c, sig);
            fputc('\n', ctx->err);
            return MUSTER_USAGE;
        }
    }
    return MUSTER_OK;
}

/* Work out the parameters not given; a default is evaluated afresh for
 * every call (it may roll dice), as it is when a script calls the proc. */
static int fill_defaults(const ProcSig *sig, const bool *given, Vm *vm, Value *out)
{
    for (int p = 0; p < sig->nparams; p++)
        if (!given[p] && vm_call(vm, sig->pdefault[p], NULL, 0, &out[p]))
            return -1;
    return 0;
}

/* For a procedure run many times (odds): the defaults that roll no dice
 * are the same every time, so work them out once into args and return
 * which parameters fill_defaults still has to do per run (`given`, plus
 * those).  A default that fails is left to fail in the first run. */
static const bool *fix_pure_defaults(const ProcSig *sig, const bool *given, Vm *vm, Value *args)
{
    bool *fixed = mem_alloc_atomic(sizeof(bool) * (size_t)(sig->nparams + 1));
    for (int p = 0; p < sig->nparams; p++) {
        fixed[p] = given[p];
        Value v;
        if (!given[p] && vm->prog->protos[sig->pdefault[p]]->pure && vm_call(vm, sig->pdefault[p], NULL, 0, &v) == 0) {
            args[p] = vm_keep(v);
            fixed[p] = true;
        }
    }
    return fixed;
}

static const ProcSig *find_proc_or_complain(muster_ctx *ctx, const Compiled *c, const char *proc)
{
    const ProcSig *sig = compiler_find_proc(c, proc);
    if (!sig) {
        err_printf(ctx, "muster: error: %s has no procedure '%s'", c->src->path, proc);
        if (!c->nprocs)
            fputs("; it has no procedures at all", ctx->err);
        else {
            fputs("; it has:", ctx->err);
            for (int i = 0; i < c->nprocs; i++)
                err_printf(ctx, " %s", c->procs[i].name);
        }
        fputc('\n', ctx->err);
    }
    return sig;
}

/* "Choice=option" strings into the per-enum overrides the VM reads. */
static int parse_choices(muster_ctx *ctx, const Compiled *c, char *const *texts, int n, int **out)
{
    *out = NULL;
    if (n == 0)
        return MUSTER_OK;
    int *pick = mem_alloc_atomic(sizeof(int) * (size_t)(c->prog->nenums + 1));
    for (int i = 0; i < c->prog->nenums; i++)
        pick[i] = -1;
    for (int i = 0; i < n; i++) {
        const char *eq = strchr(texts[i], '=');
        int id = -1;
        if (eq)
            for (int k = 0; k < c->prog->nenums; k++)
                if (c->prog->enums[k].flavour == FLAVOUR_CHOICE && strlen(c->prog->enums[k].name) == (size_t)(eq - texts[i])
                    && !strncmp(c->prog->enums[k].name, texts[i], (size_t)(eq - texts[i])))
                    id = k;
        if (id < 0) {
            int nchoice = 0;
            for (int k = 0; k < c->prog->nenums; k++)
                nchoice += c->prog->enums[k].flavour == FLAVOUR_CHOICE;
            if (!nchoice) {
                err_printf(ctx, "muster: error: --choose %s: %s has no choices\n", texts[i], c->src->path);
                return MUSTER_USAGE;
            }
            err_printf(ctx, "muster: error: --choose wants CHOICE=OPTION, where CHOICE is one of the script's choices:");
            for (int k = 0; k < c->prog->nenums; k++)
                if (c->prog->enums[k].flavour == FLAVOUR_CHOICE)
                    err_printf(ctx, " %s", c->prog->enums[k].name);
            fputc('\n', ctx->err);
            return MUSTER_USAGE;
        }
        const EnumDesc *e = &c->prog->enums[id];
        int k;
        for (k = 0; k < e->nmembers && strcmp(e->members[k], eq + 1); k++)
            ;
        pick[id] = k < e->nmembers ? k : -1;
        if (pick[id] < 0) {
            err_printf(ctx, "muster: error: '%s' is not an option of %s (one of:", eq + 1, e->name);
            for (int k = 0; k < e->nmembers; k++)
                err_printf(ctx, " %s", e->members[k]);
            fputs(")\n", ctx->err);
            return MUSTER_USAGE;
        }
    }
    *out = pick;
    return MUSTER_OK;
}

/* ---- the log of a run ---- */

enum { LOG_ROLL, LOG_REROLL, LOG_CALL, LOG_RETURN, LOG_NOTE, LOG_CHOICE, LOG_ROW };

typedef struct LogEntry {
    int kind;
    const Proto *proto;
    uint32_t offset;
    int32_t sides;
    int64_t n;
    const Pool *pool;
    int64_t face;
    int depth;               /* calls and returns */
    Value *args;             /* calls: a copy of the arguments */
    Value result;            /* returns; notes: the value reported */
    const MuStr *label;      /* notes */
    int note;                /* notes: a NoteKind */
} LogEntry;

typedef struct Log {
    LogEntry *items;
    size_t n, cap;
} Log;

static void log_push(Log *log, LogEntry e)
{
    if (log->n == log->cap) {
        size_t cap = log->cap ? log->cap * 2 : 16;
        log->items = mem_realloc(log->items, sizeof(LogEntry) * log->cap, sizeof(LogEntry) * cap, 0);
        log->cap = cap;
    }
    log->items[log->n++] = e;
}

static void on_roll(void *ud, const Proto *p, uint32_t offset, int32_t sides, int64_t n, const Pool *pool,
                    int64_t face)
{
    log_push(ud, (LogEntry){ .kind = LOG_ROLL, .proto = p, .offset = offset, .sides = sides, .n = n,
                             .pool = pool, .face = face });
}

static void on_reroll(void *ud, const Proto *p, uint32_t offset)
{
    log_push(ud, (LogEntry){ .kind = LOG_REROLL, .proto = p, .offset = offset });
}

static void on_call(void *ud, const Proto *p, const Value *args, int depth)
{
    Value *copy = mem_alloc(sizeof(Value) * (size_t)(p->nparams + 1));
    memcpy(copy, args, sizeof(Value) * (size_t)p->nparams);
    log_push(ud, (LogEntry){ .kind = LOG_CALL, .proto = p, .offset = p->decl_offset, .depth = depth,
                             .args = copy });
}

static void on_return(void *ud, const Proto *p, Value result, int depth)
{
    log_push(ud, (LogEntry){ .kind = LOG_RETURN, .proto = p, .offset = p->decl_offset, .depth = depth,
                             .result = result });
}

static void on_note(void *ud, const Proto *p, uint32_t offset, const MuStr *label, int kind, Value value)
{
    log_push(ud, (LogEntry){ .kind = LOG_NOTE, .proto = p, .offset = offset, .label = label, .note = kind,
                             .result = value });
}

static void on_row(void *ud, const Proto *p, uint32_t offset, int table, int row)
{
    log_push(ud, (LogEntry){ .kind = LOG_ROW, .proto = p, .offset = offset, .sides = table, .n = row });
}

static void on_choose(void *ud, const Proto *p, uint32_t offset, int enum_id, int index, bool overridden)
{
    log_push(ud, (LogEntry){ .kind = LOG_CHOICE, .proto = p, .offset = offset, .result = val_enum(enum_id, index),
                             .note = overridden });
}

/* A value, with the sheet's words for it when it has some:
 * routs ("Target Routs"). */
static void print_explained(FILE *out, Value v, const Program *prog)
{
    val_print(out, v, prog);
    if (v.tag == VAL_ENUM && prog->enums[v.enum_id].texts && prog->enums[v.enum_id].texts[v.as.i]) {
        fprintf(out, " (\"%s\")", prog->enums[v.enum_id].texts[v.as.i]);
    }
}

static void print_signed(FILE *out, Value v, const Program *prog)
{
    bool negative = v.tag == VAL_INT ? v.as.i < 0 : v.tag == VAL_RAT ? v.as.q.num < 0 : false;
    if (!negative && (v.tag == VAL_INT || v.tag == VAL_RAT))
        fputc('+', out);
    val_print(out, v, prog);
}

static void print_proto_call(FILE *out, const Program *prog, const Proto *p, const Value *args)
{
    fprintf(out, "%s(", p->name);
    for (int i = 0; i < p->nparams; i++) {
        fprintf(out, "%s%s: ", i ? ", " : "", p->param_names[i]);
        val_print(out, args[i], prog);
    }
    fputc(')', out);
}

static void print_dice(FILE *out, const LogEntry *e)
{
    if (e->pool) {
        fputc('[', out);
        for (int64_t i = 0; i < e->pool->n; i++)
            fprintf(out, i ? ", %d" : "%d", (int)e->pool->face[i]);
        fputc(']', out);
    } else {
        fprintf(out, "%lld", (long long)e->face);
    }
}

/* "line 5", or "dice.muster line 5" for a line in an imported file */
static void print_where(FILE *out, const Compiled *c, const LogEntry *e)
{
    const Source *src = compiler_source_of(c, e->proto);
    int line, col;
    source_linecol(src, e->offset, &line, &col);
    if (src != c->src) {
        const char *base = strrchr(src->path, '/');
        diag_put_text(out, base ? base + 1 : src->path);
        fprintf(out, " line %d", line);
    } else {
        fprintf(out, "line %d", line);
    }
}

static void print_log_text(FILE *out, const Compiled *c, const Log *log)
{
    int depth = 0;
    for (size_t i = 0; i < log->n; i++) {
        const LogEntry *e = &log->items[i];
        int line, col;
        source_linecol(compiler_source_of(c, e->proto), e->offset, &line, &col);
        int indent = 2 + 2 * depth;
        switch (e->kind) {
        case LOG_REROLL:
            fprintf(out, "%*s", indent, "");
            print_where(out, c, e);
            fprintf(out, ": reroll: %s starts again\n", e->proto->name);
            break;
        case LOG_ROLL:
            fprintf(out, "%*s", indent, "");
            print_where(out, c, e);
            if (e->pool)
                fprintf(out, ": roll %lldd%d -> ", (long long)e->n, (int)e->sides);
            else
                fprintf(out, ": roll d%d -> ", (int)e->sides);
            print_dice(out, e);
            fputc('\n', out);
            break;
        case LOG_NOTE:
            fprintf(out, "%*s", indent, "");
            switch (e->note) {
            case NOTE_ADD: print_signed(out, e->result, c->prog); break;
            case NOTE_MUL: fputs("x ", out); val_print(out, e->result, c->prog); break;
            case NOTE_CAP: fputs("capped at ", out); val_print(out, e->result, c->prog); break;
            case NOTE_BASE: fputs("start at ", out); val_print(out, e->result, c->prog); break;
            }
            if (e->label && e->label->len)
                fprintf(out, "  %s", e->label->bytes);
            fputc('\n', out);
            break;
        case LOG_ROW: {
            const Table *t = c->prog->tables[e->sides];
            fprintf(out, "%*sband %s: %s\n", indent, "", t->dim[0].labels ? t->dim[0].labels[e->n] : "?",
                    t->row_texts[e->n]);
            break;
        }
        case LOG_CHOICE: {
            const EnumDesc *en = &c->prog->enums[e->result.enum_id];
            fprintf(out, "%*s", indent, "");
            print_where(out, c, e);
            fprintf(out, ": choice %s", en->name);
            if (en->prompt)
                fprintf(out, " (%s)", en->prompt);
            fputs(": ", out);
            print_explained(out, e->result, c->prog);
            fputs(e->note ? ", as chosen\n" : ", the default\n", out);
            break;
        }
        case LOG_CALL:
            fprintf(out, "%*s", indent, "");
            print_proto_call(out, c->prog, e->proto, e->args);
            if (i + 1 < log->n && log->items[i + 1].kind == LOG_RETURN) {
                /* nothing happened inside: one line */
                fputs(" = ", out);
                print_explained(out, log->items[i + 1].result, c->prog);
                fputc('\n', out);
                i++;
            } else {
                fputc('\n', out);
                depth++;
            }
            break;
        case LOG_RETURN:
            if (depth > 0)
                depth--;
            fprintf(out, "%*s%s = ", 2 + 2 * depth, "", e->proto->name);
            print_explained(out, e->result, c->prog);
            fputc('\n', out);
            break;
        }
    }
}

static void print_log_json(FILE *out, const Compiled *c, const Log *log, const RngDice *rng)
{
    fputc('[', out);
    bool first = true;
    if (rng) {
        fprintf(out, "{\"event\": \"seed\", \"seed\": %llu}", (unsigned long long)rng->seed);
        first = false;
    }
    for (size_t i = 0; i < log->n; i++) {
        const LogEntry *e = &log->items[i];
        int line, col;
        source_linecol(compiler_source_of(c, e->proto), e->offset, &line, &col);
        fputs(first ? "" : ", ", out);
        first = false;
        static const char *const kinds[] = { "roll", "reroll", "call", "return", "modifier", "choice", "band" };
        fprintf(out, "{\"event\": \"%s\", \"proc\": ", kinds[e->kind]);
        val_json_string(out, e->proto->name, strlen(e->proto->name));
        const Source *esrc = compiler_source_of(c, e->proto);
        if (esrc != c->src) {
            fputs(", \"file\": ", out);
            val_json_string(out, esrc->path, strlen(esrc->path));
        }
        fprintf(out, ", \"line\": %d", line);
        if (e->kind == LOG_CALL) {
            fprintf(out, ", \"depth\": %d, \"args\": {", e->depth);
            for (int k = 0; k < e->proto->nparams; k++) {
                fputs(k ? ", " : "", out);
                val_json_string(out, e->proto->param_names[k], strlen(e->proto->param_names[k]));
                fputs(": ", out);
                val_print_json(out, e->args[k], c->prog);
            }
            fputc('}', out);
        } else if (e->kind == LOG_ROW) {
            const Table *t = c->prog->tables[e->sides];
            const char *label = t->dim[0].labels ? t->dim[0].labels[e->n] : "?";
            fputs(", \"band\": ", out);
            val_json_string(out, label, strlen(label));
            fputs(", \"text\": ", out);
            val_json_string(out, t->row_texts[e->n], strlen(t->row_texts[e->n]));
        } else if (e->kind == LOG_CHOICE) {
            const char *name = c->prog->enums[e->result.enum_id].name;
            fputs(", \"choice\": ", out);
            val_json_string(out, name, strlen(name));
            fputs(", \"option\": ", out);
            val_print_json(out, e->result, c->prog);
            fprintf(out, ", \"default\": %s", e->note ? "false" : "true");
        } else if (e->kind == LOG_NOTE) {
            static const char *const notes[] = { "add", "factor", "cap", "base" };
            fprintf(out, ", \"kind\": \"%s\", \"label\": ", notes[e->note]);
            val_json_string(out, e->label->bytes, e->label->len);
            fputs(", \"value\": ", out);
            val_print_json(out, e->result, c->prog);
        } else if (e->kind == LOG_RETURN) {
            fprintf(out, ", \"depth\": %d, \"value\": ", e->depth);
            val_print_json(out, e->result, c->prog);
        } else if (e->kind == LOG_ROLL) {
            if (e->pool)
                fprintf(out, ", \"dice\": \"%lldd%d\", \"faces\": ", (long long)e->n, (int)e->sides);
            else
                fprintf(out, ", \"dice\": \"d%d\", \"faces\": [", (int)e->sides);
            print_dice(out, e);
            if (!e->pool)
                fputc(']', out);
        }
        fputc('}', out);
    }
    fputc(']', out);
}

/* The call being explained or counted; with `given`, a parameter left to
 * its default shows the default as written (`cover: none`, `b: roll d6`):
 * a default is worked out afresh each run. */
static void print_call_given(FILE *out, const Compiled *c, const ProcSig *sig, const Value *args, const bool *given)
{
    if (c->expression) {
        fputs(c->expression, out);
        return;
    }
    fprintf(out, "%s(", sig->name);
    for (int i = 0; i < sig->nparams; i++) {
        fprintf(out, "%s%s: ", i ? ", " : "", sig->pnames[i]);
        if (given && !given[i])
            fputs(sig->pdeftext[i] ? sig->pdeftext[i] : "default", out);
        else
            val_print(out, args[i], c->prog);
    }
    fputc(')', out);
}

static void print_call(FILE *out, const Compiled *c, const ProcSig *sig, const Value *args)
{
    print_call_given(out, c, sig, args, NULL);
}

/* A procedure made ready to call from command-line text: its signature, a
 * machine on the given dice with the choices applied, and the arguments
 * (defaults still to be filled, per call, by fill_defaults). */
typedef struct Call {
    const ProcSig *sig;
    Vm vm;
    Value argv[65];
    bool given[65];
} Call;

static int prepare_call(muster_ctx *ctx, const Compiled *c, const char *proc, int nargs, char *const *args,
                        char *const *choice_texts, int nchoices, DiceSource *dice, const VmTrace *trace, Call *call)
{
    call->sig = find_proc_or_complain(ctx, c, proc);
    if (!call->sig)
        return MUSTER_USAGE;
    vm_init(&call->vm, c->prog, dice);
    call->vm.limits = ctx->limits;
    call->vm.trace = trace;
    int *choices;
    int st = parse_choices(ctx, c, choice_texts, nchoices, &choices);
    if (st != MUSTER_OK)
        return st;
    call->vm.choices = choices;
    return build_args(ctx, c, call->sig, nargs, args, &call->vm, call->argv, call->given);
}

int muster_run(muster_ctx *ctx, const muster_program *prog, const char *proc, int nargs, char *const *args,
               const muster_run_opts *opts)
{
    const Compiled *c = prog->compiled;
    RngDice rng;
    ScriptDice script;
    DiceSource *dice;
    if (opts->dice) {
        int64_t *faces;
        char err[256];
        long n = dice_parse_list(opts->dice, &faces, err, sizeof err);
        if (n < 0)
            return usage_error(ctx, "--dice: %s", err);
        dice_script_init(&script, faces, (size_t)n);
        dice = &script.base;
    } else {
        dice_rng_init(&rng, opts->have_seed ? opts->seed : rng_fresh_seed());
        dice = &rng.base;
    }

    Log log = { 0 };
    VmTrace trace = { &log, on_roll, on_reroll, on_call, on_return, on_note, on_row, on_choose, NULL };
    Call *call = mem_alloc(sizeof *call);
    int st = prepare_call(ctx, c, proc, nargs, args, opts->choices, opts->nchoices, dice, &trace, call);
    if (st != MUSTER_OK)
        return st;
    const ProcSig *sig = call->sig;
    Vm *vm = &call->vm;
    Value *argv = call->argv;

    Value result;
    int failed = fill_defaults(sig, call->given, vm, argv) || vm_call(vm, sig->proto, argv, sig->nparams, &result);

    if (opts->explain && !opts->json) {
        print_call(ctx->out, c, sig, argv);
        if (!opts->dice)
            fprintf(ctx->out, " with seed %llu", (unsigned long long)rng.seed);
        else
            fputs(" with scripted dice", ctx->out);
        fputc('\n', ctx->out);
        print_log_text(ctx->out, c, &log);
    }
    if (failed) {
        fflush(ctx->out);
        report_runtime(ctx, c, vm);
        return MUSTER_ERROR;
    }
    if (opts->dice && script.next < script.n)
        err_printf(ctx, "muster: warning: %zu of the %zu scripted dice were not used\n",
                script.n - script.next, script.n);
    if (opts->json) {
        fputs("{\"result\": ", ctx->out);
        val_print_json(ctx->out, result, c->prog);
        fputs(", \"log\": ", ctx->out);
        print_log_json(ctx->out, c, &log, opts->dice ? NULL : &rng);
        fputs("}\n", ctx->out);
    } else {
        if (opts->explain)
            fputs("result: ", ctx->out);
        if (opts->explain)
            print_explained(ctx->out, result, c->prog);
        else
            val_print(ctx->out, result, c->prog);
        fputc('\n', ctx->out);
    }
    return MUSTER_OK;
}

/* ---- odds by simulation ---- */

typedef struct Tally {
    Value value;
    uint64_t count;
} Tally;

/* Counts of results, sorted by value.  Small ints, members and bools (the
 * usual results) are first counted straight into an array indexed by value,
 * and folded into the sorted list by tally_flush. */
#define TALLY_DIRECT_LO (-1024)
#define TALLY_DIRECT_N 8192

typedef struct Tallies {
    Tally *items;
    size_t n, cap;
    uint64_t *direct;        /* TALLY_DIRECT_N counts, for values of one tag (and enum) */
    ValTag direct_tag;
    int32_t direct_enum;
} Tallies;

static void tally_n(Tallies *t, Value v, uint64_t n);

static inline void tally(Tallies *t, const Value *vp)
{
    ValTag tag = vp->tag;
    if ((tag == VAL_INT || tag == VAL_ENUM) && t->direct && tag == t->direct_tag && vp->enum_id == t->direct_enum) {
        /* the usual case, first and short */
        uint64_t k = (uint64_t)vp->as.i - (uint64_t)TALLY_DIRECT_LO;   /* (unsigned: no overflow) */
        if (k < TALLY_DIRECT_N) {
            t->direct[k]++;
            return;
        }
    }
    Value v = *vp;
    if (v.tag == VAL_INT || v.tag == VAL_ENUM || v.tag == VAL_BOOL) {
        uint64_t k = (uint64_t)(v.tag == VAL_BOOL ? (int64_t)v.as.b : v.as.i) - (uint64_t)TALLY_DIRECT_LO;
        if (!t->direct) {
            t->direct = mem_alloc_atomic(sizeof(uint64_t) * TALLY_DIRECT_N);
            memset(t->direct, 0, sizeof(uint64_t) * TALLY_DIRECT_N);
            t->direct_tag = v.tag;
            t->direct_enum = v.enum_id;
        }
        if (k < TALLY_DIRECT_N && v.tag == t->direct_tag && v.enum_id == t->direct_enum) {
            t->direct[k]++;
            return;
        }
    }
    tally_n(t, v, 1);
}

static void tally_flush(Tallies *t)
{
    if (!t->direct)
        return;
    for (int64_t k = 0; k < TALLY_DIRECT_N; k++)
        if (t->direct[k]) {
            Value v = { .tag = t->direct_tag, .enum_id = t->direct_enum };
            if (v.tag == VAL_BOOL)
                v.as.b = k + TALLY_DIRECT_LO != 0;
            else
                v.as.i = k + TALLY_DIRECT_LO;
            tally_n(t, v, t->direct[k]);
            t->direct[k] = 0;
        }
}

static void tally_n(Tallies *t, Value v, uint64_t n)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = val_order(t->items[mid].value, v);
        if (c == 0) {
            t->items[mid].count += n;
            return;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 32;
        t->items = mem_realloc(t->items, sizeof(Tally) * t->cap, sizeof(Tally) * cap, 0);
        t->cap = cap;
    }
    memmove(&t->items[lo + 1], &t->items[lo], sizeof(Tally) * (t->n - lo));
    t->items[lo] = (Tally){ vm_keep(v), n };   /* a pool result outlives the trial's arena */
    t->n++;
}

/* Wilson score interval at 95%. */
static void wilson(uint64_t k, uint64_t n, double *lo, double *hi)
{
    const double z = 1.959963984540054;
    double p = (double)k / (double)n, nn = (double)n;
    double denom = 1 + z * z / nn;
    double centre = (p + z * z / (2 * nn)) / denom;
    double half = z * sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / denom;
    *lo = centre - half < 0 ? 0 : centre - half;
    *hi = centre + half > 1 ? 1 : centre + half;
}

typedef struct Shown {
    Value v;
    const Program *prog;
} Shown;

static void print_shown(FILE *out, const void *what)
{
    const Shown *s = what;
    val_print(out, s->v, s->prog);
}

/* A value's text form as a string (GC memory). */
static char *value_text(Value v, const Program *prog)
{
    if (v.tag == VAL_INT) {
        /* the common case, without a stream (a die of a million sides has a million rows) */
        char buf[24];
        snprintf(buf, sizeof buf, "%lld", (long long)v.as.i);
        return mem_strdup(buf);
    }
    Shown s = { v, prog };
    return mem_printed(print_shown, &s);
}

/* The value column of an odds table: each value as text, cut at 40
 * characters; *width grows to the widest. */
static char **value_column(const Value *vals, int n, const Program *prog, int *width)
{
    char **texts = mem_alloc(sizeof(char *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        texts[i] = value_text(vals[i], prog);
        int w = (int)strlen(texts[i]);
        if (w > 40) {
            strcpy(texts[i] + 37, "...");
            w = 40;
        }
        if (w > *width)
            *width = w;
    }
    return texts;
}

/* A CSV field: quoted (with doubled quotes) when it holds a comma, quote or newline. */
static void csv_field(FILE *out, const char *text)
{
    if (!strpbrk(text, ",\"\n\r")) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *p = text; *p; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}

static double as_double(Value v)
{
    return v.tag == VAL_RAT ? (double)v.as.q.num / (double)v.as.q.den : (double)v.as.i;
}

/* The --choose options in force, each choice once (the last given wins). */
static void print_choosing(FILE *out, const muster_prob_opts *opts)
{
    bool first = true;
    for (int i = 0; i < opts->nchoices; i++) {
        const char *eq = strchr(opts->choices[i], '=');
        size_t name = eq ? (size_t)(eq - opts->choices[i]) : strlen(opts->choices[i]);
        bool later = false;
        for (int j = i + 1; j < opts->nchoices; j++)
            later |= !strncmp(opts->choices[j], opts->choices[i], name) && opts->choices[j][name] == '=';
        if (later)
            continue;
        fprintf(out, "%s%s", first ? " choosing " : ", ", opts->choices[i]);
        first = false;
    }
}

/* ---- exact odds ---- */

typedef struct ExactCall {
    const ProcSig *sig;
    const bool *given;
    Value *argv;
    int field;
} ExactCall;

/* One run for the exact engine: the defaults (they may roll), then the call,
 * whose reroll keeps them (exact_call). */
static int exact_run(void *ud, Vm *vm, Value *result)
{
    ExactCall *x = ud;
    if (fill_defaults(x->sig, x->given, vm, x->argv) || exact_call(vm, x->sig->proto, x->argv, x->sig->nparams, result))
        return -1;
    if (x->field >= 0)
        *result = result->as.r->field[x->field];
    return 0;
}

static void print_mpq(FILE *out, const mpq_t q)
{
    mpz_out_str(out, 10, mpq_numref(q));
    if (mpz_cmp_ui(mpq_denref(q), 1) != 0) {
        fputc('/', out);
        mpz_out_str(out, 10, mpq_denref(q));
    }
}

static char *mem_printed_double(double d)
{
    char buf[32];
    snprintf(buf, sizeof buf, "~%.3g", d);
    return mem_strdup(buf);
}

static char *mpq_text(const mpq_t q)
{
    if (mpz_sizeinbase(mpq_numref(q), 10) + mpz_sizeinbase(mpq_denref(q), 10) + 3 <= 64) {
        /* the common case, in place (a die of a million sides has a million rows) */
        char buf[64];
        return mem_strdup(mpq_get_str(buf, 10, q));
    }
    char *s = mpq_get_str(NULL, 10, q);
    char *copy = mem_strdup(s);
    void (*freefunc)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &freefunc);
    freefunc(s, strlen(s) + 1);
    return copy;
}

/* x as printf's "%.<digits>f" would write it (digits 1..10), without the
 * cost of printf's general conversion: x's exact binary value times
 * 10^digits, rounded half to even, in 128-bit integers.  Numbers it cannot
 * do that way (huge, infinite, not a number) go to snprintf.  buf holds at
 * least 48 bytes; the length is returned. */
static int fixed_text(char *buf, double x, int digits)
{
    static const uint64_t pow10[] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000,
                                      1000000000, 10000000000ULL };
    int e;
    double f = frexp(fabs(x), &e);          /* |x| = f 2^e, f in [0.5, 1) */
    if (!isfinite(x) || e > 20 || digits < 1 || digits > 10)
        return snprintf(buf, 48, "%.*f", digits, x);
    int len = 0;
    if (signbit(x))
        buf[len++] = '-';
    unsigned __int128 q = 0;
    if (f != 0) {
        /* |x| = m 2^(e-53), m a whole number of 53 bits */
        uint64_t m = (uint64_t)ldexp(f, 53);
        int sh = 53 - e;                     /* > 32 */
        unsigned __int128 n = (unsigned __int128)m * pow10[digits];
        if (sh < 128) {
            q = n >> sh;
            unsigned __int128 rem = n & ((((unsigned __int128)1) << sh) - 1), half = ((unsigned __int128)1) << (sh - 1);
            if (rem > half || (rem == half && (q & 1)))
                q++;
        }
    }
    uint64_t whole = (uint64_t)(q / pow10[digits]), frac = (uint64_t)(q % pow10[digits]);
    char digits_of_whole[24];
    int w = 0;
    do {
        digits_of_whole[w++] = (char)('0' + whole % 10);
        whole /= 10;
    } while (whole);
    while (w)
        buf[len++] = digits_of_whole[--w];
    buf[len++] = '.';
    for (int k = digits - 1; k >= 0; k--) {
        buf[len + k] = (char)('0' + frac % 10);
        frac /= 10;
    }
    len += digits;
    buf[len] = '\0';
    return len;
}

/* text in a column of `width`, right-aligned (or left, for `left`) */
static void put_column(FILE *out, const char *text, int width, bool left)
{
    int pad = width - (int)strlen(text);
    if (left)
        fputs(text, out);
    for (; pad > 0; pad--)
        putc(' ', out);
    if (!left)
        fputs(text, out);
}

/* ends an odds row with a bar of '#', one per 2.5% of probability */
static void end_with_bar(FILE *out, double p)
{
    int bar = (int)(p * 40 + 0.5);
    if (bar)
        fputs("  ", out);
    for (int k = 0; k < bar; k++)
        fputc('#', out);
    fputc('\n', out);
}

/* Print an exact distribution in the chosen format; MUSTER_OK. */
static int print_exact(muster_ctx *ctx, const Compiled *c, const ProcSig *sig, const Value *argv, const bool *given,
                       const muster_prob_opts *opts, const char *field, const ExactResult *r)
{
    FILE *out = ctx->out;
    bool numeric = r->n > 0 && (r->outcomes[0].value.tag == VAL_INT || r->outcomes[0].value.tag == VAL_RAT);
    /* mean and spread over the outcomes with a value */
    mpq_t mean, sq;
    mpq_inits(mean, sq, NULL);
    if (numeric)
        exact_moments(r, mean, sq);
    if (opts->json) {
        fputs("{\"exact\": true, \"trials\": null, \"outcomes\": [", out);
        for (int i = 0; i < r->n; i++) {
            fputs(i ? ", {\"value\": " : "{\"value\": ", out);
            val_print_json(out, r->outcomes[i].value, c->prog);
            fputs(", \"p\": \"", out);
            print_mpq(out, r->outcomes[i].p);
            fprintf(out, "\", \"probability\": %.10g}", mpq_get_d(r->outcomes[i].p));
        }
        if (mpq_sgn(r->not_given) > 0) {
            fputs(r->n ? ", " : "", out);
            fputs("{\"value\": null, \"not_given\": true, \"p\": \"", out);
            print_mpq(out, r->not_given);
            fprintf(out, "\", \"probability\": %.10g}", mpq_get_d(r->not_given));
        }
        fputs("]", out);
        if (mpq_sgn(r->dropped) > 0) {
            fputs(", \"dropped\": \"", out);
            print_mpq(out, r->dropped);
            fputc('"', out);
        }
        if (numeric)
            fprintf(out, ", \"mean\": %.10g, \"sd\": %.10g", mpq_get_d(mean), sqrt(mpq_get_d(sq)));
        fputs("}\n", out);
    } else if (opts->csv) {
        fputs("value,p,probability\n", out);
        for (int i = 0; i < r->n; i++) {
            char p[48];
            fixed_text(p, mpq_get_d(r->outcomes[i].p), 10);
            csv_field(out, value_text(r->outcomes[i].value, c->prog));
            fputc(',', out);
            print_mpq(out, r->outcomes[i].p);
            fprintf(out, ",%s\n", p);
        }
        if (mpq_sgn(r->not_given) > 0) {
            fputs("not given in source,", out);
            print_mpq(out, r->not_given);
            fprintf(out, ",%.10f\n", mpq_get_d(r->not_given));
        }
        if (mpq_sgn(r->dropped) > 0) {
            fputs("cut off,", out);
            print_mpq(out, r->dropped);
            fprintf(out, ",%.10f\n", mpq_get_d(r->dropped));
        }
    } else {
        print_call_given(out, c, sig, argv, given);
        if (field)
            fprintf(out, ".%s", field);
        print_choosing(out, opts);
        fprintf(out, ": exact (%llu run%s)\n", (unsigned long long)r->runs, r->runs == 1 ? "" : "s");
        int width = mpq_sgn(r->not_given) > 0 ? 19 : 5, pw = 1;
        Value *vals = mem_alloc(sizeof(Value) * (size_t)(r->n + 1));
        for (int i = 0; i < r->n; i++)
            vals[i] = r->outcomes[i].value;
        char **texts = value_column(vals, r->n, c->prog, &width);
        char **ps = mem_alloc(sizeof(char *) * (size_t)(r->n + 2));
        for (int i = 0; i < r->n; i++) {
            ps[i] = mpq_text(r->outcomes[i].p);
            if (strlen(ps[i]) > 30) {
                /* a fraction too long to read: its size instead (JSON keeps it whole) */
                char approx[32];
                snprintf(approx, sizeof approx, "~%.3g", mpq_get_d(r->outcomes[i].p));
                ps[i] = mem_strdup(approx);
            }
            if ((int)strlen(ps[i]) > pw)
                pw = (int)strlen(ps[i]);
        }
        if (pw > 30)
            pw = 30;
        fprintf(out, "%*s  %-*s  %11s  %9s  %9s\n", width, "value", pw, "p", "probability", "at least", "at most");
        double below = 0, valued = 1 - mpq_get_d(r->not_given) - mpq_get_d(r->dropped);
        for (int i = 0; i < r->n; i++) {
            double p = mpq_get_d(r->outcomes[i].p);
            double at_least = valued - below;   /* as in a simulation: of the runs with a value */
            if (r->n > 60 && i >= 40 && at_least < 1e-4) {
                /* a long tail (an exploding die): one line for what is left; --json has it all */
                fprintf(out, "%*s  %-*s  %11.5f  %9.5f  %9.5f\n", width, "more", pw, "", at_least, at_least, valued);
                fprintf(out, "(%d more values, from ", r->n - i);
                val_print(out, r->outcomes[i].value, c->prog);
                fputs(" to ", out);
                val_print(out, r->outcomes[r->n - 1].value, c->prog);
                fputs(", each rarer than shown; --json or --csv lists them)\n", out);
                break;
            }
            below += p;
            char pt[48], lt[48], mt[48];
            fixed_text(pt, p, 5);
            fixed_text(lt, at_least, 5);
            fixed_text(mt, below, 5);
            /* (as "%*s  %-*s  %11.5f  %9.5f  %9.5f", without printf's cost per row) */
            put_column(out, texts[i], width, false);
            fputs("  ", out);
            put_column(out, ps[i], pw, true);
            fputs("  ", out);
            put_column(out, pt, 11, false);
            fputs("  ", out);
            put_column(out, lt, 9, false);
            fputs("  ", out);
            put_column(out, mt, 9, false);
            end_with_bar(out, p);
        }
        if (mpq_sgn(r->not_given) > 0) {
            char *p = mpq_text(r->not_given);
            fprintf(out, "%*s  %-*s  %11.5f\n", width, "not given in source", pw, p, mpq_get_d(r->not_given));
        }
        if (mpq_sgn(r->dropped) > 0) {
            char *p = mpq_text(r->dropped);
            fprintf(out, "cut off: an open-ended roll went on past the depth limit with probability %s; "
                    "that is in no row above\n", strlen(p) <= 30 ? p : mem_printed_double(mpq_get_d(r->dropped)));
        }
        if (numeric) {
            char *m = mpq_text(mean);
            fprintf(out, "mean %.4f", mpq_get_d(mean));
            if (strlen(m) <= 30 && mpz_cmp_ui(mpq_denref(mean), 1) != 0)
                fprintf(out, " (%s)", m);
            fprintf(out, ", standard deviation %.4f%s\n", sqrt(mpq_get_d(sq)),
                    mpq_sgn(r->not_given) > 0 ? " (of the outcomes with a value)" : "");
        }
    }
    mpq_clears(mean, sq, NULL);
    return MUSTER_OK;
}

/* ---- simulation ---- */

#define SIM_BLOCK 4096       /* trials a block; each block has a stream of its own */

typedef struct Sim {
    muster_ctx *ctx;
    const Compiled *c;
    const ProcSig *sig;
    const Value *argv;
    const bool *given;
    int *choices;
    int field;
    uint64_t seed, trials, nblocks;
    uint64_t next_block, blocks_done;    /* under lock */
    pthread_mutex_t lock;
    bool progress;
    uint64_t failed_trial;               /* the first trial that failed, UINT64_MAX if none */
    Vm failed_vm;                        /* its machine, to report the error from */
    uint64_t unknown_first;
    int spec;                            /* the call specialized for its arguments, or -1 */
} Sim;

typedef struct Worker {
    Sim *sim;
    pthread_t thread;
    Tallies t;
    uint64_t unknown, unknown_first;
    const Proto *unknown_at;
    uint32_t unknown_offset;
} Worker;

/* The stream of block b: the run's seed and the block number mixed. */
static uint64_t block_seed(uint64_t seed, uint64_t b)
{
    uint64_t z = seed ^ (b * 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void *simulate(void *arg)
{
    Worker *w = arg;
    Sim *sim = w->sim;
    const ProcSig *sig = sim->sig;
    RngDice rng;
    dice_rng_init(&rng, 0);
    /* each worker's machine on cache lines of its own: two threads writing
     * next to each other would slow both (false sharing) */
    struct { char before[128]; Vm vm; char after[128]; } *own = mem_alloc(sizeof *own);
    Vm *vm = &own->vm;
    vm_init(vm, sim->c->prog, &rng.base);
    vm->limits = sim->ctx->limits;
    vm->choices = sim->choices;
    vm->memo = true;
    vm->quiet_unknown = true;
    Value *argv = mem_alloc(sizeof(Value) * (size_t)(sig->nparams + 1));
    memcpy(argv, sim->argv, sizeof(Value) * (size_t)sig->nparams);
    Arena arena = { 0 };     /* the trial's pools: no allocation per trial once it has grown */
    vm->scratch = &arena;
    Value *results = mem_alloc(sizeof(Value) * SIM_BLOCK);   /* a block's results, before they are counted */
    bool defaults = false;   /* any left to work out per trial? */
    for (int p = 0; p < sig->nparams; p++)
        defaults |= !sim->given[p];
    for (;;) {
        pthread_mutex_lock(&sim->lock);
        uint64_t b = sim->next_block++;
        bool stop = b >= sim->nblocks || sim->failed_trial != UINT64_MAX;
        pthread_mutex_unlock(&sim->lock);
        if (stop)
            break;
        rng_seed(&rng.rng, block_seed(sim->seed, b));
        uint64_t from = b * SIM_BLOCK, to = from + SIM_BLOCK < sim->trials ? from + SIM_BLOCK : sim->trials;
        for (uint64_t i = from; i < to; i++) {
            Value r;
            arena_reset(&arena);
            if (sim->spec >= 0) {
                /* the specialized call (its result is already the field asked
                 * for), the rest of the block in one go */
                uint64_t done, unknown;
                /* once this worker knows where its first '?' is, the later
                 * ones are only counted, without leaving the interpreter */
                vm->skip_unknown = w->unknown > 0;
                int rc = vm_call_many(vm, sim->spec, to - i, results, &done, &unknown);
                for (uint64_t k = 0; k < done; k++)
                    tally(&w->t, &results[k]);
                w->unknown += unknown;
                i += done + unknown;
                if (rc == 0) {
                    i--;            /* (the loop's i++ moves past the last) */
                    continue;
                }
                /* It rolled what the original rolls up to the error, so the
                 * dice are in step; a '?' after the first is only counted. */
                if (vm->error_unknown && w->unknown && i > w->unknown_first) {
                    w->unknown++;
                    continue;
                }
                /* Otherwise the same trial again with the original, which
                 * says where the error is: back to the dice this trial
                 * started with, by replaying the block up to it. */
                rng_seed(&rng.rng, block_seed(sim->seed, b));
                for (uint64_t k = from; k < i; k++) {
                    Value ignored;
                    arena_reset(&arena);
                    (void)vm_call(vm, sim->spec, NULL, 0, &ignored);
                }
                arena_reset(&arena);
            }
            if ((defaults && fill_defaults(sig, sim->given, vm, argv)) || vm_call(vm, sig->proto, argv, sig->nparams, &r)) {
                if (vm->error_unknown) {
                    /* the odds of reaching a gap in the rules are part of the answer */
                    if (!w->unknown || i < w->unknown_first) {
                        w->unknown_first = i;
                        w->unknown_at = vm->error_proto;
                        w->unknown_offset = vm->error_offset;
                    }
                    w->unknown++;
                    continue;
                }
                pthread_mutex_lock(&sim->lock);
                if (i < sim->failed_trial) {
                    sim->failed_trial = i;
                    sim->failed_vm = *vm;
                }
                pthread_mutex_unlock(&sim->lock);
                break;
            }
            tally(&w->t, sim->field >= 0 ? &r.as.r->field[sim->field] : &r);
        }
        if (sim->progress) {
            pthread_mutex_lock(&sim->lock);
            uint64_t done = ++sim->blocks_done;
            if (done * 100 / sim->nblocks != (done - 1) * 100 / sim->nblocks) {
                int pct = (int)(done * 100 / sim->nblocks);
                fprintf(stderr, "\r[%-40.*s] %3d%%", pct * 40 / 100, "########################################", pct);
            }
            pthread_mutex_unlock(&sim->lock);
        }
    }
    tally_flush(&w->t);
    return NULL;
}

/* --field NAME of a procedure's record result: its index in *field. */
static int find_field(muster_ctx *ctx, const Compiled *c, const ProcSig *sig, const char *name, int *field)
{
    if (sig->ret.kind != TY_RECORD)
        return usage_error(ctx, "--field %s: '%s' returns %s, not a record", name, sig->name,
                           compiler_type_name(c, sig->ret));
    const RecordDesc *r = &c->prog->records[sig->ret.enum_id];
    for (int i = 0; i < r->nfields; i++)
        if (!strcmp(r->fields[i], name))
            *field = i;
    if (*field < 0) {
        err_printf(ctx, "muster: error: --field %s: %s has no such field (it has:", name, r->name);
        for (int i = 0; i < r->nfields; i++)
            err_printf(ctx, " %s", r->fields[i]);
        fputs(")\n", ctx->err);
        return MUSTER_USAGE;
    }
    return MUSTER_OK;
}

/* The odds of a procedure's results: exact, or simulated. */
typedef struct Odds {
    const ProcSig *sig;
    Value *argv;
    const bool *given;       /* which arguments were given (the rest are defaults) */
    bool exact;
    ExactResult er;          /* exact */
    Tallies t;               /* simulated: results and their counts */
    uint64_t trials, seed;
    uint64_t unknown;        /* trials that reached a value the rules text does not give */
    const Proto *unknown_at;
    uint32_t unknown_offset;
} Odds;

static int compute_odds(muster_ctx *ctx, const Compiled *c, const char *proc, int nargs, char *const *args,
                        const muster_prob_opts *opts, uint64_t seed, Odds *o)
{
    memset(o, 0, sizeof *o);
    uint64_t trials = opts->trials ? opts->trials : 100000;
    RngDice rng;
    dice_rng_init(&rng, seed);
    o->seed = seed;
    Call *call = mem_alloc(sizeof *call);
    int st = prepare_call(ctx, c, proc, nargs, args, opts->choices, opts->nchoices, &rng.base, NULL, call);
    if (st != MUSTER_OK)
        return st;
    const ProcSig *sig = call->sig;
    Vm *vm = &call->vm;
    Value *argv = call->argv;
    bool *given = call->given;
    o->sig = sig;
    o->argv = argv;
    o->given = given;
    /* the same procedure, run many times: remember pure calls' results, and
     * work the fixed defaults out once */
    vm->memo = true;
    vm->quiet_unknown = true;
    const bool *per_run = fix_pure_defaults(sig, given, vm, argv);

    /* --field: the odds of one field of a record result */
    int field = -1;
    if (opts->field && (st = find_field(ctx, c, sig, opts->field, &field)) != MUSTER_OK)
        return st;
    if (!opts->trials) {
        /* exact where the dice allow it */
        ExactCall x = { sig, per_run, argv, field };
        ExactOptions eo = { .budget = opts->budget };
        ExactResult er;
        exact_distribution(vm, sig->proto, argv, sig->nparams, exact_run, &x, &eo, &er);
        if (er.failed) {
            report_runtime(ctx, c, vm);
            exact_clear(&er);
            return MUSTER_ERROR;
        }
        if (!er.over_budget) {
            o->exact = true;
            o->er = er;
            return MUSTER_OK;
        }
        exact_clear(&er);
        if (opts->exact) {
            if (er.needed > 0)
                err_printf(ctx, "muster: error: the exact odds of '%s' need at least %.0f runs of it (one pool "
                        "alone has that many outcomes), more than the budget of %llu; raise --budget or "
                        "simulate with --trials\n", sig->name, er.needed,
                        (unsigned long long)(opts->budget ? opts->budget : EXACT_DEFAULT_BUDGET));
            else
                err_printf(ctx, "muster: error: the exact odds of '%s' need more than %llu runs of it; "
                        "raise --budget or simulate with --trials\n", sig->name,
                        (unsigned long long)(opts->budget ? opts->budget : EXACT_DEFAULT_BUDGET));
            return MUSTER_ERROR;
        }
        err_printf(ctx, "muster: note: too many outcomes to count exactly (more than %llu runs); simulating\n",
                (unsigned long long)(opts->budget ? opts->budget : EXACT_DEFAULT_BUDGET));
        vm->dice = &rng.base;
    }
    /* simulate in blocks with a stream each, shared out among threads: the
     * counts are the same whatever the number of threads */
    int nthreads = opts->threads > 0 ? opts->threads : 1;
    uint64_t nblocks = (trials + SIM_BLOCK - 1) / SIM_BLOCK;
    if ((uint64_t)nthreads > nblocks)
        nthreads = (int)nblocks;
    Sim sim = { .ctx = ctx, .c = c, .sig = sig, .argv = argv, .given = per_run, .choices = vm->choices,
                .field = field, .seed = seed, .trials = trials, .nblocks = nblocks, .failed_trial = UINT64_MAX,
                .spec = -1 };
    /* every argument fixed: compile the call once more for them (see specialize.h) */
    bool all_fixed = true;
    for (int p = 0; p < sig->nparams; p++)
        all_fixed &= per_run[p];
    if (all_fixed && !opts->no_specialize)
        sim.spec = specialize_call(vm, sig->proto, argv, sig->nparams, field);
    sim.progress = ctx->err == stderr && isatty(2) && trials >= 200000;
    pthread_mutex_init(&sim.lock, NULL);
    Worker *w = mem_alloc(sizeof(Worker) * (size_t)nthreads);
    for (int k = 0; k < nthreads; k++) {
        w[k].sim = &sim;
        if (k > 0 && mem_thread_create(&w[k].thread, simulate, &w[k]) != 0) {
            nthreads = k;   /* fewer threads than asked for: the rest is done by those running */
            break;
        }
    }
    simulate(&w[0]);
    for (int k = 1; k < nthreads; k++)
        mem_thread_join(w[k].thread);
    pthread_mutex_destroy(&sim.lock);
    if (sim.progress)
        fputs("\r\033[K", stderr);
    if (sim.failed_trial != UINT64_MAX) {
        report_runtime(ctx, c, &sim.failed_vm);
        diag_report(&ctx->diag, DIAG_NOTE, NULL, (Span){ 0, 0 },
                    "this happened in trial %llu of the simulation with seed %llu; "
                    "--seed %llu --trials %llu repeats it",
                    (unsigned long long)sim.failed_trial + 1, (unsigned long long)seed, (unsigned long long)seed,
                    (unsigned long long)sim.failed_trial + 1);
        return MUSTER_ERROR;
    }
    /* merge the threads' counts */
    Tallies t = { 0 };
    for (int k = 0; k < nthreads; k++) {
        for (size_t i = 0; i < w[k].t.n; i++)
            tally_n(&t, w[k].t.items[i].value, w[k].t.items[i].count);
        o->unknown += w[k].unknown;
        if (w[k].unknown && (!o->unknown_at || w[k].unknown_first < sim.unknown_first)) {
            sim.unknown_first = w[k].unknown_first;
            o->unknown_at = w[k].unknown_at;
            o->unknown_offset = w[k].unknown_offset;
        }
    }
    o->t = t;
    o->trials = trials;
    return MUSTER_OK;
}

/* Print simulated odds in the chosen format. */
static int print_simulated(muster_ctx *ctx, const Compiled *c, const muster_prob_opts *opts, const Odds *o)
{
    const ProcSig *sig = o->sig;
    const Value *argv = o->argv;
    const Tallies t = o->t;
    uint64_t trials = o->trials, unknown = o->unknown;
    const Proto *unknown_at = o->unknown_at;
    uint32_t unknown_offset = o->unknown_offset;
    int field = opts->field ? 0 : -1;
    struct { uint64_t seed; } rng = { o->seed };

    bool numeric = t.n > 0 && (t.items[0].value.tag == VAL_INT || t.items[0].value.tag == VAL_RAT);
    double mean = 0, var = 0;
    uint64_t known = trials - unknown;   /* mean and spread are of the trials with a value */
    if (numeric) {
        for (size_t i = 0; i < t.n; i++)
            mean += as_double(t.items[i].value) * (double)t.items[i].count;
        mean /= (double)known;
        for (size_t i = 0; i < t.n; i++) {
            double d = as_double(t.items[i].value) - mean;
            var += d * d * (double)t.items[i].count;
        }
        var /= (double)known;
    }
    double p_unknown = (double)unknown / (double)trials, u_lo = 0, u_hi = 0;
    if (unknown)
        wilson(unknown, trials, &u_lo, &u_hi);
    FILE *out = ctx->out;
    if (opts->json) {
        fprintf(out, "{\"exact\": false, \"trials\": %llu, \"seed\": %llu, \"outcomes\": [",
                (unsigned long long)trials, (unsigned long long)rng.seed);
        for (size_t i = 0; i < t.n; i++) {
            double p = (double)t.items[i].count / (double)trials, lo, hi;
            wilson(t.items[i].count, trials, &lo, &hi);
            fputs(i ? ", " : "", out);
            fputs("{\"value\": ", out);
            val_print_json(out, t.items[i].value, c->prog);
            fprintf(out, ", \"p\": %.6g, \"probability\": %.6g, \"low\": %.6g, \"high\": %.6g}", p, p, lo, hi);
        }
        if (unknown)
            fprintf(out, "%s{\"value\": null, \"not_given\": true, \"p\": %.6g, \"probability\": %.6g, "
                    "\"low\": %.6g, \"high\": %.6g}", t.n ? ", " : "", p_unknown, p_unknown, u_lo, u_hi);
        fputs("]", out);
        if (numeric)
            fprintf(out, ", \"mean\": %.6g, \"sd\": %.6g", mean, sqrt(var));
        fputs("}\n", out);
        return MUSTER_OK;
    }
    if (opts->csv) {
        fputs("value,probability,low,high,count\n", out);
        for (size_t i = 0; i < t.n; i++) {
            double lo, hi;
            wilson(t.items[i].count, trials, &lo, &hi);
            csv_field(out, value_text(t.items[i].value, c->prog));
            fprintf(out, ",%.6f,%.6f,%.6f,%llu\n", (double)t.items[i].count / (double)trials, lo, hi,
                    (unsigned long long)t.items[i].count);
        }
        if (unknown)
            fprintf(out, "not given in source,%.6f,%.6f,%.6f,%llu\n", p_unknown, u_lo, u_hi,
                    (unsigned long long)unknown);
        return MUSTER_OK;
    }
    print_call_given(out, c, sig, argv, o->given);
    if (field >= 0)
        fprintf(out, ".%s", opts->field);
    print_choosing(out, opts);
    fprintf(out, ": %llu trials, seed %llu (simulated; 95%% intervals)\n", (unsigned long long)trials,
            (unsigned long long)rng.seed);
    /* the value column is as wide as the widest value (up to a point) */
    int width = unknown ? 19 : 5;
    Value *vals = mem_alloc(sizeof(Value) * (t.n + 1));
    for (size_t i = 0; i < t.n; i++)
        vals[i] = t.items[i].value;
    char **texts = value_column(vals, (int)t.n, c->prog, &width);
    fprintf(out, "%*s  %9s  %19s  %9s  %9s\n", width, "value", "p", "95% interval", "at least", "at most");
    uint64_t below = 0;
    for (size_t i = 0; i < t.n; i++) {
        double p = (double)t.items[i].count / (double)trials, lo, hi;
        wilson(t.items[i].count, trials, &lo, &hi);
        double at_least = (double)(trials - unknown - below) / (double)trials;
        below += t.items[i].count;
        double at_most = (double)below / (double)trials;
        fprintf(out, "%*s  %9.5f  [%7.5f, %7.5f]  %9.5f  %9.5f", width, texts[i], p, lo, hi, at_least, at_most);
        end_with_bar(out, p);
    }
    if (unknown) {
        fprintf(out, "%*s  %9.5f  [%7.5f, %7.5f]\n", width, "not given in source", p_unknown, u_lo, u_hi);
        int line, col;
        source_linecol(compiler_source_of(c, unknown_at), unknown_offset, &line, &col);
        fprintf(out, "(%llu trials reached a value the rules text does not give, such as %s line %d)\n",
                (unsigned long long)unknown, compiler_source_of(c, unknown_at)->path, line);
    }
    if (numeric)
        fprintf(out, "mean %.4f, standard deviation %.4f%s\n", mean, sqrt(var),
                unknown ? " (of the trials with a value)" : "");
    return MUSTER_OK;
}

/* One side of a comparison: each value with its probability (and the exact
 * fraction when there is one). */
typedef struct Side {
    int n;
    Value *v;
    char **text;             /* values as text: two scripts' enums compare by name */
    double *p;
    char **exact;
    double mean;
    bool numeric;
} Side;

static void side_of(const Odds *o, const Program *prog, Side *s)
{
    memset(s, 0, sizeof *s);
    int n = o->exact ? o->er.n : (int)o->t.n;
    s->n = n;
    s->v = mem_alloc(sizeof(Value) * (size_t)(n + 1));
    s->p = mem_alloc_atomic(sizeof(double) * (size_t)(n + 1));
    s->text = mem_alloc(sizeof(char *) * (size_t)(n + 1));
    s->exact = mem_alloc(sizeof(char *) * (size_t)(n + 1));
    double total = 0;
    for (int i = 0; i < n; i++) {
        if (o->exact) {
            s->v[i] = o->er.outcomes[i].value;
            s->p[i] = mpq_get_d(o->er.outcomes[i].p);
            s->exact[i] = mpq_text(o->er.outcomes[i].p);
        } else {
            s->v[i] = o->t.items[i].value;
            s->p[i] = (double)o->t.items[i].count / (double)o->trials;
        }
        s->text[i] = value_text(s->v[i], prog);
        total += s->p[i];
    }
    s->numeric = n > 0 && (s->v[0].tag == VAL_INT || s->v[0].tag == VAL_RAT);
    for (int i = 0; s->numeric && i < n; i++)
        s->mean += as_double(s->v[i]) * s->p[i];
    if (s->numeric && total > 0)
        s->mean /= total;
}

static double p_of(const Side *s, const char *text)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->text[i], text))
            return s->p[i];
    return 0;
}

/* The share of runs that reached a value the rules text does not give. */
static double not_given_share(const Odds *o)
{
    if (o->exact)
        return mpq_get_d(o->er.not_given);
    return o->trials ? (double)o->unknown / (double)o->trials : 0;
}

/* --vs: the odds under the rules and under a house rule, side by side. */
static int compare_odds(muster_ctx *ctx, const Compiled *c, const char *proc, int nargs, char *const *args,
                        const muster_prob_opts *opts, uint64_t seed, const Odds *base)
{
    muster_program *variant = muster_load(ctx, opts->vs);
    if (!variant)
        return MUSTER_ERROR;
    Odds other;
    int st = compute_odds(ctx, variant->compiled, proc, nargs, args, opts, seed, &other);
    if (st != MUSTER_OK)
        return st;
    Side a, b;
    side_of(base, c->prog, &a);
    side_of(&other, variant->compiled->prog, &b);
    /* every value either side gives: the rules' in order, then any only the variant gives */
    char **all = mem_alloc(sizeof(char *) * (size_t)(a.n + b.n + 1));
    Value *vals = mem_alloc(sizeof(Value) * (size_t)(a.n + b.n + 1));
    const Program **progs = mem_alloc(sizeof(Program *) * (size_t)(a.n + b.n + 1));
    int n = 0;
    for (int k = 0; k < 2; k++) {
        const Side *sd = k ? &b : &a;
        for (int i = 0; i < sd->n; i++) {
            int j;
            for (j = 0; j < n && strcmp(all[j], sd->text[i]); j++)
                ;
            if (j == n) {
                all[n] = sd->text[i];
                vals[n] = sd->v[i];
                progs[n++] = k ? variant->compiled->prog : c->prog;
            }
        }
    }
    /* numbers sort the same in both scripts: put them in order */
    bool numbers = true;
    for (int i = 0; i < n; i++)
        numbers &= vals[i].tag == VAL_INT || vals[i].tag == VAL_RAT;
    for (int i = 1; numbers && i < n; i++)
        for (int j = i; j > 0 && val_num_cmp(vals[j - 1], vals[j]) > 0; j--) {
            Value tv = vals[j];
            vals[j] = vals[j - 1];
            vals[j - 1] = tv;
            char *tt = all[j];
            all[j] = all[j - 1];
            all[j - 1] = tt;
        }
    bool exact = base->exact && other.exact;
    FILE *out = ctx->out;
    if (opts->json) {
        fprintf(out, "{\"exact\": %s, \"base\": ", exact ? "true" : "false");
        val_json_string(out, c->src->path, strlen(c->src->path));
        fputs(", \"variant\": ", out);
        val_json_string(out, opts->vs, strlen(opts->vs));
        fputs(", \"outcomes\": [", out);
        for (int i = 0; i < n; i++) {
            double pa = p_of(&a, all[i]), pb = p_of(&b, all[i]);
            fputs(i ? ", {\"value\": " : "{\"value\": ", out);
            val_print_json(out, vals[i], progs[i]);
            fprintf(out, ", \"base\": %.10g, \"variant\": %.10g, \"change\": %.10g}", pa, pb, pb - pa);
        }
        fputs("]", out);
        if (a.numeric && b.numeric)
            fprintf(out, ", \"base_mean\": %.10g, \"variant_mean\": %.10g, \"mean_change\": %.10g", a.mean, b.mean,
                    b.mean - a.mean);
        fputs("}\n", out);
        return MUSTER_OK;
    }
    print_call_given(out, c, base->sig, base->argv, base->given);
    if (opts->field)
        fprintf(out, ".%s", opts->field);
    print_choosing(out, opts);
    /* the file names as diag_put_text writes them: no raw control character */
    bool mixed = !exact && (base->exact || other.exact);   /* one side past the budget */
    char sim[64];
    snprintf(sim, sizeof sim, " (simulated, seed %llu)", (unsigned long long)seed);
    fputs(": ", out);
    diag_put_text(out, c->src->path);
    if (mixed)
        fputs(base->exact ? " (exact)" : sim, out);
    fputs(" against ", out);
    diag_put_text(out, opts->vs);
    if (mixed)
        fputs(other.exact ? " (exact)" : sim, out);
    else if (exact)
        fputs(", exact", out);
    else
        fprintf(out, ", simulated on the same dice, seed %llu", (unsigned long long)seed);
    fputc('\n', out);
    int width = not_given_share(base) > 0 || not_given_share(&other) > 0 ? 19 : 5;
    char **texts = mem_alloc(sizeof(char *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        texts[i] = mem_strdup(all[i]);
        if (strlen(texts[i]) > 40)
            strcpy(texts[i] + 37, "...");
        if ((int)strlen(texts[i]) > width)
            width = (int)strlen(texts[i]);
    }
    fprintf(out, "%*s  %9s  %9s  %9s\n", width, "value", "rules", "variant", "change");
    for (int i = 0; i < n; i++) {
        double pa = p_of(&a, all[i]), pb = p_of(&b, all[i]);
        fprintf(out, "%*s  %9.5f  %9.5f  %+9.5f\n", width, texts[i], pa, pb, pb - pa);
    }
    double ua = not_given_share(base), ub = not_given_share(&other);
    if (ua > 0 || ub > 0)
        fprintf(out, "%*s  %9.5f  %9.5f  %+9.5f\n", width, "not given in source", ua, ub, ub - ua);
    if (a.numeric && b.numeric)
        fprintf(out, "%*s  %9.4f  %9.4f  %+9.4f\n", width, "mean", a.mean, b.mean, b.mean - a.mean);
    if (base->exact)
        exact_clear((ExactResult *)&base->er);
    if (other.exact)
        exact_clear(&other.er);
    return MUSTER_OK;
}

int muster_prob(muster_ctx *ctx, const muster_program *prog, const char *proc, int nargs, char *const *args,
                const muster_prob_opts *opts)
{
    const Compiled *c = prog->compiled;
    uint64_t seed = opts->have_seed ? opts->seed : rng_fresh_seed();
    Odds o;
    int st = compute_odds(ctx, c, proc, nargs, args, opts, seed, &o);
    if (st != MUSTER_OK)
        return st;
    if (opts->vs)
        return compare_odds(ctx, c, proc, nargs, args, opts, seed, &o);
    if (o.exact) {
        st = print_exact(ctx, c, o.sig, o.argv, o.given, opts, opts->field, &o.er);
        exact_clear(&o.er);
        return st;
    }
    return print_simulated(ctx, c, opts, &o);
}

/* ---- examples ---- */

typedef struct ExampleRun {
    muster_ctx *ctx;
    const Compiled *c;
    const Example *ex;
    int failures;
} ExampleRun;

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
    fprintf(m, "example \"%s\" fails: ", ex->name);
    if (op < 0) {
        fputs("expected this to be true, but it is false", m);
    } else if (op == OPR_APPROX) {
        fputs("expected ", m);
        print_explained(m, right, prog);
        fprintf(m, " within %s, got ", ex->tolerances[index]);
        print_explained(m, left, prog);
        if (left.tag == VAL_RAT && left.as.q.den != 1)
            fprintf(m, " (%.6g)", (double)left.as.q.num / (double)left.as.q.den);
    } else if (op == OPR_EQ) {
        fputs("expected ", m);
        print_explained(m, right, prog);
        fputs(", got ", m);
        print_explained(m, left, prog);
    } else {
        fprintf(m, "expected a value %s ", ast_operator_text[op]);
        print_explained(m, right, prog);
        fputs(", got ", m);
        print_explained(m, left, prog);
    }
    fclose(m);
    diag_report(&run->ctx->diag, DIAG_ERROR, ex->src, ex->expects[index], "%s", msg);
    free(msg);
}

/* Run one example; true if it passed.  Failures are reported as diagnostics. */
static bool run_example(muster_ctx *ctx, const Compiled *c, const Example *ex)
{
    ScriptDice dice;
    dice_script_init(&dice, ex->dice, (size_t)ex->ndice);
    Vm vm;
    vm_init(&vm, c->prog, &dice.base);
    vm.limits = ctx->limits;
    /* the example's `choose` lines set these as it runs */
    vm.choices = mem_alloc_atomic(sizeof(int) * (size_t)(c->prog->nenums + 1));
    memcpy(vm.choices, ex->choices, sizeof(int) * (size_t)c->prog->nenums);
    ExampleRun run = { ctx, c, ex, 0 };
    VmTrace trace = { .ud = &run, .on_expect = on_expect };
    vm.trace = &trace;
    Value result;
    if (vm_call(&vm, ex->proto, NULL, 0, &result)) {
        report_runtime(ctx, c, &vm);
        diag_report(&ctx->diag, DIAG_NOTE, ex->src, ex->decl->name_span, "while running example \"%s\"", ex->name);
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

int muster_check(muster_ctx *ctx, const muster_program *prog, int *passed, int *failed)
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
        err_printf(ctx, ": %d values are not given in the rules text (marked '?')\n", c->nunknowns);
    }
    int status = MUSTER_OK;
    for (int i = 0; i < c->nexamples; i++) {
        if (run_example(ctx, c, &c->examples[i]))
            ++*passed;
        else {
            ++*failed;
            status = MUSTER_ERROR;
        }
    }
    return status;
}

int muster_test(muster_ctx *ctx, const muster_program *prog, int *passed, int *failed)
{
    const Compiled *c = prog->compiled;
    int status = MUSTER_OK;
    for (int i = 0; i < c->nexamples; i++) {
        const Example *ex = &c->examples[i];
        fflush(ctx->out);
        bool ok = run_example(ctx, c, ex);
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
    return status;
}

/* ---- the turn sequence ---- */

static void print_steps(FILE *out, const SeqList *items, const char *prefix, int indent)
{
    for (int i = 0; i < items->n; i++) {
        const SeqItem *it = &items->items[i];
        char number[64];
        snprintf(number, sizeof number, "%s%d.", prefix, i + 1);
        fprintf(out, "%*s%s %s", indent, "", number, it->text);
        if (it->proc)
            fprintf(out, "  [muster run ... %s]", it->proc);
        fputc('\n', out);
        if (it->phase) {
            char sub[64];
            snprintf(sub, sizeof sub, "%s%d.", prefix, i + 1);
            print_steps(out, &it->children, sub, indent + 3);
        }
    }
}

int muster_turn(muster_ctx *ctx, const muster_program *prog)
{
    const Compiled *c = prog->compiled;
    if (c->nsequences == 0) {
        err_printf(ctx, "muster: error: %s declares no turn sequence (a 'sequence' block)\n", c->src->path);
        return MUSTER_ERROR;
    }
    for (int i = 0; i < c->nsequences; i++) {
        const Decl *d = c->sequences[i];
        if (i)
            fputc('\n', ctx->out);
        if (c->ruleset)
            fprintf(ctx->out, "%s: %s", c->ruleset->name, d->name);
        else
            fprintf(ctx->out, "%s", d->name);
        if (d->cite)
            fprintf(ctx->out, " (%s)", d->cite);
        fputc('\n', ctx->out);
        if (d->doc)
            fprintf(ctx->out, "%s\n", d->doc);
        print_steps(ctx->out, &d->as.seq.items, "", 0);
    }
    return MUSTER_OK;
}

int muster_sheet(muster_ctx *ctx, const muster_program *prog, int html)
{
    return sheet_render(ctx->out, prog->compiled, html != 0) ? MUSTER_ERROR : MUSTER_OK;
}

int muster_list(muster_ctx *ctx, const muster_program *prog)
{
    const Compiled *c = prog->compiled;
    for (int i = 0; i < c->nprocs; i++) {
        print_signature(ctx->out, c, &c->procs[i]);
        fputc('\n', ctx->out);
    }
    return MUSTER_OK;
}

int muster_disassemble(muster_ctx *ctx, const muster_program *prog)
{
    chunk_disassemble_program(ctx->out, prog->compiled->prog);
    return MUSTER_OK;
}

int muster_disassemble_call(muster_ctx *ctx, const muster_program *prog, const char *proc, int nargs,
                            char *const *args, char *const *choices, int nchoices, const char *field_name)
{
    const Compiled *c = prog->compiled;
    Call *call = mem_alloc(sizeof *call);
    int st = prepare_call(ctx, c, proc, nargs, args, choices, nchoices, NULL, NULL, call);
    if (st != MUSTER_OK)
        return st;
    const ProcSig *sig = call->sig;
    int field = -1;
    if (field_name && (st = find_field(ctx, c, sig, field_name, &field)) != MUSTER_OK)
        return st;
    const bool *fixed = fix_pure_defaults(sig, call->given, &call->vm, call->argv);
    bool all_fixed = true;
    for (int p = 0; p < sig->nparams; p++)
        all_fixed &= fixed[p];
    int spec = all_fixed ? specialize_call(&call->vm, sig->proto, call->argv, sig->nparams, field) : -1;
    if (spec < 0) {
        err_printf(ctx, "muster: note: %s; 'muster prob' runs '%s' as written:\n",
                all_fixed ? "this call cannot be specialized (it asks for odds or grows too big)"
                          : "a default rolls dice, so the arguments are not fixed", sig->name);
        chunk_disassemble(ctx->out, c->prog, c->prog->protos[sig->proto]);
        return MUSTER_OK;
    }
    fputs("; ", ctx->out);
    print_call(ctx->out, c, sig, call->argv);
    if (field >= 0)
        fprintf(ctx->out, ".%s", field_name);
    fputs(", as 'muster prob' simulates it\n", ctx->out);
    chunk_disassemble(ctx->out, c->prog, c->prog->protos[spec]);
    return MUSTER_OK;
}
