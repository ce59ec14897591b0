/* run.c — muster_run and the log behind --explain and --json.
 *
 * One call on seeded or scripted dice.  A VmTrace records each roll,
 * reroll, call, return, modifier item, bands row and choice into a Log,
 * printed afterwards as text (--explain) or as JSON, so the VM itself never
 * prints anything.
 */
#include "config.h"
#include "api/internal.h"
#include "vm/opcodes.h"

#include <string.h>

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
void api_print_explained(FILE *out, Value v, const Program *prog)
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

/* The faces a roll showed: [2, 5, 6], or one die's face. */
static void print_dice(FILE *out, const Compiled *c, const LogEntry *e, bool json)
{
    if (e->pool) {
        if (json)
            val_print_json(out, val_pool(e->pool), c->prog);
        else
            val_print(out, val_pool(e->pool), c->prog);
        return;
    }
    const DieDesc *d = e->sides < 0 ? &c->prog->dies[-e->sides - 1] : NULL;
    Value v = d && d->symbols ? val_enum(d->symbols - 1, e->face) : val_int(e->face);
    if (json)
        val_print_json(out, v, c->prog);
    else
        val_print(out, v, c->prog);
}

/* The dice rolled: "3d6", "d8", "3 Average", "Attack". */
static void print_roll(FILE *out, const Compiled *c, const LogEntry *e)
{
    if (e->sides < 0) {
        const char *name = c->prog->dies[-e->sides - 1].die.name;
        if (e->pool)
            fprintf(out, "%lld %s", (long long)e->n, name);
        else
            fputs(name, out);
    } else if (e->pool) {
        fprintf(out, "%lldd%d", (long long)e->n, (int)e->sides);
    } else {
        fprintf(out, "d%d", (int)e->sides);
    }
}

/* "line 5", or "dice.muster line 5" for a line in an imported file */
static void print_where(FILE *out, const Compiled *c, const LogEntry *e)
{
    uint32_t off;
    const Source *src = compiler_locate(c, e->offset, &off);
    int line, col;
    source_linecol(src, off, &line, &col);
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
        uint32_t off;
        source_linecol(compiler_locate(c, e->offset, &off), off, &line, &col);
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
            fputs(": roll ", out);
            print_roll(out, c, e);
            fputs(" -> ", out);
            print_dice(out, c, e, false);
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
            api_print_explained(out, e->result, c->prog);
            fputs(e->note ? ", as chosen\n" : ", the default\n", out);
            break;
        }
        case LOG_CALL:
            fprintf(out, "%*s", indent, "");
            print_proto_call(out, c->prog, e->proto, e->args);
            if (i + 1 < log->n && log->items[i + 1].kind == LOG_RETURN) {
                /* nothing happened inside: one line */
                fputs(" = ", out);
                api_print_explained(out, log->items[i + 1].result, c->prog);
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
            api_print_explained(out, e->result, c->prog);
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
        uint32_t off;
        const Source *esrc = compiler_locate(c, e->offset, &off);
        source_linecol(esrc, off, &line, &col);
        fputs(first ? "" : ", ", out);
        first = false;
        static const char *const kinds[] = { "roll", "reroll", "call", "return", "modifier", "choice", "band" };
        fprintf(out, "{\"event\": \"%s\", \"proc\": ", kinds[e->kind]);
        val_json_string(out, e->proto->name, strlen(e->proto->name));
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
            fputs(", \"dice\": \"", out);
            print_roll(out, c, e);
            fputs(e->pool ? "\", \"faces\": " : "\", \"faces\": [", out);
            print_dice(out, c, e, true);
            if (!e->pool)
                fputc(']', out);
        }
        fputc('}', out);
    }
    fputc(']', out);
}

/* A note for each value the rules text does not give in the fields of
 * record v (the result is `path`, "" at the top): which field, and the '?'
 * it comes from. */
static void note_unknowns(muster_ctx *ctx, const Compiled *c, Value v, const char *path)
{
    if (v.tag != VAL_RECORD)
        return;
    const RecordDesc *d = &c->prog->records[v.as.r->type];
    for (int32_t i = 0; i < v.as.r->n; i++) {
        Value f = v.as.r->field[i];
        char *name = mem_alloc_atomic(strlen(path) + strlen(d->fields[i]) + 2);
        sprintf(name, "%s%s%s", path, *path ? "." : "", d->fields[i]);
        if (f.tag == VAL_UNKNOWN) {
            char why[320];
            vm_unknown_text(c->prog, f, why, sizeof why);
            uint32_t off;
            const Source *src = compiler_locate(c, vm_unknown_offset(c->prog, f), &off);
            diag_report(&ctx->diag, DIAG_NOTE, src, (Span){ off, off + 1 }, "'%s' is not known: %s", name, why);
        }
        note_unknowns(ctx, c, f, name);
    }
}

int api_dice_for(muster_ctx *ctx, const char *scripted, int have_seed, uint64_t seed, RngDice *rng,
                 ScriptDice *script, DiceSource **dice)
{
    if (scripted) {
        int64_t *faces;
        const char **words;
        char err[256];
        long n = dice_parse_list(scripted, &faces, &words, err, sizeof err);
        if (n < 0)
            return api_usage_error(ctx, "--dice: %s", err);
        dice_script_init(script, faces, words, (size_t)n);
        *dice = &script->base;
    } else {
        dice_rng_init(rng, have_seed ? seed : rng_fresh_seed());
        *dice = &rng->base;
    }
    return MUSTER_OK;
}

static int run_printing(muster_ctx *ctx, const muster_program *prog, const char *proc, int nargs, char *const *args,
               const muster_run_opts *opts)
{
    return api_run(ctx, prog->compiled, proc, nargs, args, opts, NULL);
}

int api_run(muster_ctx *ctx, const Compiled *c, const char *proc, int nargs, char *const *args,
            const muster_run_opts *opts, ScriptDice *kept)
{
    RngDice rng;
    ScriptDice script;
    DiceSource *dice;
    int st = MUSTER_OK;
    if (kept)
        dice = &kept->base;
    else
        st = api_dice_for(ctx, opts->dice, opts->have_seed, opts->seed, &rng, &script, &dice);
    if (st != MUSTER_OK)
        return st;

    Log log = { 0 };
    VmTrace trace = { &log, on_roll, on_reroll, on_call, on_return, on_note, on_row, on_choose, NULL };
    Call *call = mem_alloc(sizeof *call);
    st = api_prepare_call(ctx, c, proc, nargs, args, opts->choices, opts->nchoices, dice, &trace, call);
    if (st != MUSTER_OK)
        return st;
    const ProcSig *sig = call->sig;
    Vm *vm = &call->vm;
    Value *argv = call->argv;

    Value result;
    int failed = api_fill_defaults(sig, call->given, vm, argv) || vm_call(vm, sig->proto, argv, sig->nparams, &result);
    if (!failed && result.tag == VAL_UNKNOWN) {
        /* the result asked about is one the rules text does not give (a
         * record that holds some is printed, with a note for each) */
        vm_unknown_error(vm, result, c->prog->protos[sig->proto]);
        failed = 1;
    }

    if (opts->explain && !opts->json) {
        api_print_call(ctx->out, c, sig, argv);
        if (!opts->dice && !kept)
            fprintf(ctx->out, " with seed %llu", (unsigned long long)rng.seed);
        else
            fputs(" with scripted dice", ctx->out);
        fputc('\n', ctx->out);
        print_log_text(ctx->out, c, &log);
    }
    if (failed) {
        fflush(ctx->out);
        api_report_runtime(ctx, c, vm);
        return MUSTER_ERROR;
    }
    if (opts->dice && !kept && script.next < script.n)
        api_err_printf(ctx, "muster: warning: %zu of the %zu scripted dice were not used\n",
                script.n - script.next, script.n);
    if (opts->json) {
        fputs("{\"result\": ", ctx->out);
        val_print_json(ctx->out, result, c->prog);
        fputs(", \"log\": ", ctx->out);
        print_log_json(ctx->out, c, &log, opts->dice || kept ? NULL : &rng);
        fputs("}\n", ctx->out);
    } else {
        if (opts->explain)
            fputs("result: ", ctx->out);
        if (opts->explain)
            api_print_explained(ctx->out, result, c->prog);
        else
            val_print(ctx->out, result, c->prog);
        fputc('\n', ctx->out);
    }
    fflush(ctx->out);
    note_unknowns(ctx, c, result, "");
    return MUSTER_OK;
}

int muster_run(muster_ctx *ctx, const muster_program *prog, const char *proc, int nargs, char *const *args,
               const muster_run_opts *opts)
{
    MemCatch mc;
    API_TRY(ctx, mc, return MUSTER_NOMEM);
    int st = run_printing(ctx, prog, proc, nargs, args, opts);
    return API_DONE(ctx, mc, st);
}
