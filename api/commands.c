/* commands.c — the commands that print a compiled script: turn, sheet,
 * list and dis.
 *
 * They read the Compiled program (its sequences, signatures, syntax tree
 * and bytecode) and run nothing, except dis of a call, which specializes
 * the procedure for its arguments first, as prob does, and shows the code
 * as written (with a note saying why) when it cannot.
 */
#include "config.h"
#include "api/internal.h"
#include "api/sheet.h"
#include "compiler/specialize.h"

#include <string.h>

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

static int turn_printing(muster_ctx *ctx, const muster_program *prog)
{
    const Compiled *c = prog->compiled;
    if (c->nsequences == 0) {
        api_err_printf(ctx, "muster: error: %s declares no turn sequence (a 'sequence' block)\n", c->src->path);
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

static int sheet_printing(muster_ctx *ctx, const muster_program *prog, const muster_sheet_opts *opts)
{
    SheetOptions o = { .html = opts->html != 0, .review = opts->review != 0, .letter = opts->letter != 0, .ctx = ctx,
                       .only = opts->only, .nonly = opts->nonly };
    if (o.nonly && o.review)
        return api_usage_error(ctx, "sheet: naming parts is for the table sheet; --review shows the whole script");
    for (int i = 0; i < o.nonly; i++)
        if (!sheet_has_part(prog->compiled, o.only[i]))
            return api_usage_error(ctx, "sheet: %s has no declaration or section '%s'", prog->compiled->src->path,
                                   o.only[i]);
    int errors = ctx->diag.errors;
    if (sheet_render(ctx->out, prog->compiled, &o))
        return MUSTER_ERROR;
    return ctx->diag.errors > errors ? MUSTER_ERROR : MUSTER_OK;
}

int muster_list(muster_ctx *ctx, const muster_program *prog)
{
    const Compiled *c = prog->compiled;
    for (int i = 0; i < c->nprocs; i++) {
        api_print_signature(ctx->out, c, &c->procs[i]);
        fputc('\n', ctx->out);
    }
    return MUSTER_OK;
}

int muster_disassemble(muster_ctx *ctx, const muster_program *prog)
{
    chunk_disassemble_program(ctx->out, prog->compiled->prog);
    return MUSTER_OK;
}

/* What the codes of a record result stand for, one line per path: its
 * codes, and its record with each varying field as its range. */
static void print_codes(FILE *out, const Program *prog, const SpecCodes *codes)
{
    if (codes->n == 0)
        return;
    fputs("; the record is returned as a code, counted as an int and read back:\n", out);
    for (int s = 0; s < codes->n; s++) {
        const SpecShape *sh = &codes->shapes[s];
        const Record *r = sh->record.as.r;
        const RecordDesc *d = &prog->records[r->type];
        if (sh->size == 1)
            fprintf(out, ";   %lld: %s(", (long long)sh->base, d->name);
        else
            fprintf(out, ";   %lld..%lld: %s(", (long long)sh->base, (long long)(sh->base + sh->size - 1), d->name);
        for (int i = 0; i < r->n; i++) {
            fprintf(out, "%s%s: ", i ? ", " : "", d->fields[i]);
            int k = 0;
            while (k < sh->nvar && sh->field[k] != i)
                k++;
            if (k == sh->nvar)
                val_print(out, r->field[i], prog);
            else if (sh->is_bool[k])
                fputs("false..true", out);
            else
                fprintf(out, "%lld..%lld", (long long)sh->lo[k], (long long)(sh->lo[k] + sh->count[k] - 1));
        }
        fputs(")\n", out);
    }
}

static int disassemble_call_printing(muster_ctx *ctx, const muster_program *prog, const char *proc, int nargs,
                            char *const *args, char *const *choices, int nchoices, const char *field_name)
{
    const Compiled *c = prog->compiled;
    Call *call = mem_alloc(sizeof *call);
    int st = api_prepare_call(ctx, c, proc, nargs, args, choices, nchoices, NULL, NULL, call);
    if (st != MUSTER_OK)
        return st;
    const ProcSig *sig = call->sig;
    int field = -1;
    if (field_name && (st = api_find_field(ctx, c, sig, field_name, &field)) != MUSTER_OK)
        return st;
    const bool *fixed = api_fix_pure_defaults(sig, call->given, &call->vm, call->argv);
    bool all_fixed = true;
    for (int p = 0; p < sig->nparams; p++)
        all_fixed &= fixed[p];
    int spec = -1;
    SpecCodes codes = { 0 };
    const Program *sp = !all_fixed ? NULL
                      : field < 0 ? specialize_call_coded(&call->vm, sig->proto, call->argv, sig->nparams, &spec, &codes)
                                  : specialize_call(&call->vm, sig->proto, call->argv, sig->nparams, field, &spec);
    if (!sp) {
        api_err_printf(ctx, "muster: note: %s; 'muster prob' runs '%s' as written:\n",
                all_fixed ? "this call cannot be specialized (it asks for odds, or grows too big)"
                          : "a default rolls dice, so the arguments are not fixed", sig->name);
        chunk_disassemble(ctx->out, c->prog, c->prog->protos[sig->proto]);
        return MUSTER_OK;
    }
    fputs("; ", ctx->out);
    api_print_call(ctx->out, c, sig, call->argv);
    if (field >= 0)
        fprintf(ctx->out, ".%s", field_name);
    fputs(", as 'muster prob' simulates it\n", ctx->out);
    print_codes(ctx->out, sp, &codes);
    chunk_disassemble(ctx->out, sp, sp->protos[spec]);
    return MUSTER_OK;
}

int muster_turn(muster_ctx *ctx, const muster_program *prog)
{
    MemCatch mc;
    API_TRY(ctx, mc, return MUSTER_NOMEM);
    int st = turn_printing(ctx, prog);
    return API_DONE(ctx, mc, st);
}

int muster_sheet(muster_ctx *ctx, const muster_program *prog, const muster_sheet_opts *opts)
{
    MemCatch mc;
    API_TRY(ctx, mc, return MUSTER_NOMEM);
    int st = sheet_printing(ctx, prog, opts);
    return API_DONE(ctx, mc, st);
}

int muster_disassemble_call(muster_ctx *ctx, const muster_program *prog, const char *proc, int nargs,
                            char *const *args, char *const *choices, int nchoices, const char *field)
{
    MemCatch mc;
    API_TRY(ctx, mc, return MUSTER_NOMEM);
    int st = disassemble_call_printing(ctx, prog, proc, nargs, args, choices, nchoices, field);
    return API_DONE(ctx, mc, st);
}
