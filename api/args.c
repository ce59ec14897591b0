/* args.c — a procedure made ready to call from command-line text.
 *
 * `name=value` text becomes typed arguments by the parameter's type (with a
 * usage error for anything unknown, repeated, malformed or out of range),
 * `--choose` text becomes the VM's per-enum overrides, and the defaults left
 * out are worked out per call, since a default may roll dice.  Also how a
 * call and a signature are printed, for the headings of run and prob.
 */
#include "config.h"
#include "api/internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

void api_print_signature(FILE *out, const Compiled *c, const ProcSig *sig)
{
    fprintf(out, "%s(", sig->name);
    for (int i = 0; i < sig->nparams; i++) {
        fprintf(out, "%s%s: %s", i ? ", " : "", sig->pnames[i], compiler_type_name(c, sig->ptypes[i]));
        if (sig->pdefault[i] >= 0)
            fprintf(out, " = %s", sig->pdeftext[i] ? sig->pdeftext[i] : "...");
    }
    fprintf(out, ") -> %s", compiler_type_name(c, sig->ret));
}

/* "; did you mean 'rear'?" after a value of an enum that is not one of
 * its members but is close to one */
static void print_near(muster_ctx *ctx, const Compiled *c, Type t, const char *text)
{
    if (t.kind != TY_ENUM)
        return;
    const EnumDesc *e = &c->prog->enums[t.enum_id];
    const char *near = compiler_closest(text, e->members, e->nmembers);
    if (near)
        api_err_printf(ctx, "; did you mean '%s'?", near);
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

/* Build the argument vector for sig from "name=value" strings, running
 * default-value procedures for what is not given. */
static int build_args(muster_ctx *ctx, const Compiled *c, const ProcSig *sig, int nargs,
                      char *const *args, Vm *vm, Value *out, bool *given)
{
    memset(given, 0, sizeof(bool) * (size_t)sig->nparams);
    for (int i = 0; i < nargs; i++) {
        const char *eq = strchr(args[i], '=');
        if (!eq) {
            api_usage_error(ctx, "argument '%s' should be name=value", args[i]);
            fputs("usage: ", ctx->err);
            api_print_signature(ctx->err, c, sig);
            fputc('\n', ctx->err);
            return MUSTER_USAGE;
        }
        size_t nl = (size_t)(eq - args[i]);
        int p;
        for (p = 0; p < sig->nparams; p++)
            if (strlen(sig->pnames[p]) == nl && !strncmp(sig->pnames[p], args[i], nl))
                break;
        if (p == sig->nparams) {
            char *name = mem_strndup(args[i], nl);
            const char *near = compiler_closest(name, sig->pnames, sig->nparams);
            if (near)
                api_usage_error(ctx, "'%s' has no parameter named '%s'; did you mean '%s'?", sig->name, name, near);
            else
                api_usage_error(ctx, "'%s' has no parameter named '%s'", sig->name, name);
            fputs("usage: ", ctx->err);
            api_print_signature(ctx->err, c, sig);
            fputc('\n', ctx->err);
            return MUSTER_USAGE;
        }
        if (given[p])
            return api_usage_error(ctx, "parameter '%s' is given twice", sig->pnames[p]);
        Type t = sig->ptypes[p];
        if (t.kind == TY_POOL || t.kind == TY_RECORD)
            return api_usage_error(ctx, "parameter '%s' is a %s; that cannot be given on the command line",
                               sig->pnames[p], t.kind == TY_POOL ? "pool" : "record");
        if (!parse_value(c, t, eq + 1, &out[p])) {
            if ((t.kind == TY_INT || t.kind == TY_RAT) && numeral_out_of_range(eq + 1))
                return api_usage_error(ctx, "'%s' is out of range for parameter '%s': muster's integers are "
                                   "64-bit (-9223372036854775808 to 9223372036854775807)", eq + 1, sig->pnames[p]);
            api_err_printf(ctx, "muster: error: '%s' is not a valid %s for parameter '%s'", eq + 1,
                    compiler_type_name(c, t), sig->pnames[p]);
            print_choices(ctx->err, c, t);
            print_near(ctx, c, t, eq + 1);
            fputc('\n', ctx->err);
            return MUSTER_USAGE;
        }
        given[p] = true;
    }
    for (int p = 0; p < sig->nparams; p++) {
        if (given[p])
            continue;
        if (sig->pdefault[p] < 0 && (sig->ptypes[p].kind == TY_RECORD || sig->ptypes[p].kind == TY_POOL))
            return api_usage_error(ctx, "'%s' needs '%s' (a %s), which cannot be given on the command line; "
                               "run a procedure that makes it", sig->name, sig->pnames[p],
                               compiler_type_name(c, sig->ptypes[p]));
        if (sig->pdefault[p] < 0) {
            api_err_printf(ctx, "muster: error: missing argument %s=%s", sig->pnames[p],
                    compiler_type_name(c, sig->ptypes[p]));
            print_choices(ctx->err, c, sig->ptypes[p]);
            fputs("\nusage: ", ctx->err);
            api_print_signature(ctx->err, c, sig);
            fputc('\n', ctx->err);
            return MUSTER_USAGE;
        }
    }
    return MUSTER_OK;
}

/* Work out the parameters not given; a default is evaluated afresh for
 * every call (it may roll dice), as it is when a script calls the proc. */
int api_fill_defaults(const ProcSig *sig, const bool *given, Vm *vm, Value *out)
{
    for (int p = 0; p < sig->nparams; p++)
        if (!given[p] && vm_call(vm, sig->pdefault[p], NULL, 0, &out[p]))
            return -1;
    return 0;
}

/* For a procedure run many times (odds): the defaults that roll no dice
 * are the same every time, so work them out once into args and return
 * which parameters api_fill_defaults still has to do per run (`given`, plus
 * those).  A default that fails is left to fail in the first run. */
const bool *api_fix_pure_defaults(const ProcSig *sig, const bool *given, Vm *vm, Value *args)
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
        api_err_printf(ctx, "muster: error: %s has no procedure '%s'", c->src->path, proc);
        if (!c->nprocs)
            fputs("; it has no procedures at all", ctx->err);
        else {
            fputs("; it has:", ctx->err);
            for (int i = 0; i < c->nprocs; i++)
                api_err_printf(ctx, " %s", c->procs[i].name);
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
                api_err_printf(ctx, "muster: error: --choose %s: %s has no choices\n", texts[i], c->src->path);
                return MUSTER_USAGE;
            }
            api_err_printf(ctx, "muster: error: --choose wants CHOICE=OPTION, where CHOICE is one of the script's choices:");
            for (int k = 0; k < c->prog->nenums; k++)
                if (c->prog->enums[k].flavour == FLAVOUR_CHOICE)
                    api_err_printf(ctx, " %s", c->prog->enums[k].name);
            fputc('\n', ctx->err);
            return MUSTER_USAGE;
        }
        const EnumDesc *e = &c->prog->enums[id];
        int k;
        for (k = 0; k < e->nmembers && strcmp(e->members[k], eq + 1); k++)
            ;
        pick[id] = k < e->nmembers ? k : -1;
        if (pick[id] < 0) {
            api_err_printf(ctx, "muster: error: '%s' is not an option of %s (one of:", eq + 1, e->name);
            for (int k = 0; k < e->nmembers; k++)
                api_err_printf(ctx, " %s", e->members[k]);
            fputs(")", ctx->err);
            print_near(ctx, c, (Type){ .kind = TY_ENUM, .enum_id = id }, eq + 1);
            fputc('\n', ctx->err);
            return MUSTER_USAGE;
        }
    }
    *out = pick;
    return MUSTER_OK;
}

/* The call being explained or counted; with `given`, a parameter left to
 * its default shows the default as written (`cover: none`, `b: roll d6`):
 * a default is worked out afresh each run. */
void api_print_call_given(FILE *out, const Compiled *c, const ProcSig *sig, const Value *args, const bool *given)
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

void api_print_call(FILE *out, const Compiled *c, const ProcSig *sig, const Value *args)
{
    api_print_call_given(out, c, sig, args, NULL);
}

int api_prepare_call(muster_ctx *ctx, const Compiled *c, const char *proc, int nargs, char *const *args,
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
