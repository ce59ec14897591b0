/* bind.c — muster for JavaScript (see bind.h): a request of key/value
 * pairs in, the command's status and what it printed out.
 *
 * The commands are the `muster` command's, over the same library calls, so
 * that the page prints what the command line prints, fraction for
 * fraction; procs, call and dist answer with the values API (muster_call,
 * muster_distribution_of) as one JSON object.  Only the WebAssembly build
 * (web/build.sh) compiles this file; it includes nothing but muster.h.
 */
#include "web/bind.h"

#include "muster.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
/* Long work's progress, to the JavaScript side's Module.onProgress. */
EM_JS(void, mw_progress_js, (double share, const char *words), {
    if (Module["onProgress"])
        Module["onProgress"](share, words ? UTF8ToString(words) : "");
});
#else
static void mw_progress_js(double share, const char *words)
{
    (void)share;
    (void)words;
}
#endif

/* ---- the request ---- */

typedef struct List {
    char **items;
    int n;
} List;

typedef struct Request {
    const char *cmd, *expr, *proc, *dice, *seed, *trials, *budget, *field, *svg, *paper, *max_steps, *max_depth;
    int exact, json, csv, explain, html, review, no_specialize;
    List files, args, choices, vs, only;
} Request;

static void list_add(List *l, const char *s)
{
    char **grown = realloc(l->items, sizeof *grown * (size_t)(l->n + 2));
    if (!grown)
        return;
    l->items = grown;
    l->items[l->n++] = (char *)s;
    l->items[l->n] = NULL;
}

static void request_free(Request *r)
{
    free(r->files.items);
    free(r->args.items);
    free(r->choices.items);
    free(r->vs.items);
    free(r->only.items);
}

/* One pair into r; 0 if the key is not one of bind.h's. */
static int request_set(Request *r, const char *key, const char *value)
{
    static const struct { const char *key; size_t at; } texts[] = {
        { "cmd", offsetof(Request, cmd) },       { "expr", offsetof(Request, expr) },
        { "proc", offsetof(Request, proc) },     { "dice", offsetof(Request, dice) },
        { "seed", offsetof(Request, seed) },     { "trials", offsetof(Request, trials) },
        { "budget", offsetof(Request, budget) }, { "field", offsetof(Request, field) },
        { "svg", offsetof(Request, svg) },       { "paper", offsetof(Request, paper) },
        { "max_steps", offsetof(Request, max_steps) }, { "max_depth", offsetof(Request, max_depth) },
    };
    static const struct { const char *key; size_t at; } flags[] = {
        { "exact", offsetof(Request, exact) },     { "json", offsetof(Request, json) },
        { "csv", offsetof(Request, csv) },         { "explain", offsetof(Request, explain) },
        { "html", offsetof(Request, html) },       { "review", offsetof(Request, review) },
        { "no_specialize", offsetof(Request, no_specialize) },
    };
    static const struct { const char *key; size_t at; } lists[] = {
        { "file", offsetof(Request, files) }, { "arg", offsetof(Request, args) },
        { "choose", offsetof(Request, choices) }, { "vs", offsetof(Request, vs) },
        { "only", offsetof(Request, only) },
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (!strcmp(key, texts[i].key)) {
            *(const char **)((char *)r + texts[i].at) = value;
            return 1;
        }
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (!strcmp(key, flags[i].key)) {
            *(int *)((char *)r + flags[i].at) = strcmp(value, "0") != 0 && *value;
            return 1;
        }
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        if (!strcmp(key, lists[i].key)) {
            list_add((List *)((char *)r + lists[i].at), value);
            return 1;
        }
    return 0;
}

/* ---- JSON ---- */

static void json_str(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p == '\t')
            fputs("\\t", f);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

/* An integer: a JSON number where JavaScript holds it exactly, else a string. */
static void json_int(FILE *f, int64_t i)
{
    const int64_t safe = ((int64_t)1 << 53) - 1;
    if (i >= -safe && i <= safe)
        fprintf(f, "%lld", (long long)i);
    else
        fprintf(f, "\"%lld\"", (long long)i);
}

static void json_num(FILE *f, double d)
{
    if (d != d || d > 1e308 || d < -1e308)
        fputs("null", f);
    else
        fprintf(f, "%.17g", d);
}

/* ,"key":value */
static void json_field_str(FILE *f, const char *key, const char *s)
{
    fprintf(f, ",\"%s\":", key);
    json_str(f, s);
}

static void json_field_num(FILE *f, const char *key, double d)
{
    fprintf(f, ",\"%s\":", key);
    json_num(f, d);
}

static const char *const kind_names[] = {
    [MUSTER_INT] = "int",   [MUSTER_RATIONAL] = "rational", [MUSTER_BOOL] = "bool",   [MUSTER_STRING] = "string",
    [MUSTER_ENUM] = "enum", [MUSTER_POOL] = "pool",         [MUSTER_RECORD] = "record", [MUSTER_UNKNOWN] = "unknown",
};

static void json_value(FILE *f, const muster_value *v)
{
    fprintf(f, "{\"kind\":\"%s\",\"type\":", kind_names[v->kind]);
    json_str(f, v->type);
    json_field_str(f, "shown", v->shown);
    switch (v->kind) {
    case MUSTER_INT:
        fputs(",\"value\":", f);
        json_int(f, v->i);
        break;
    case MUSTER_RATIONAL:
        fputs(",\"num\":", f);
        json_int(f, v->num);
        fputs(",\"den\":", f);
        json_int(f, v->den);
        break;
    case MUSTER_BOOL:
        fprintf(f, ",\"value\":%s", v->i ? "true" : "false");
        break;
    case MUSTER_STRING:
        json_field_str(f, "value", v->text);
        break;
    case MUSTER_ENUM:
        json_field_str(f, "value", v->text);
        fprintf(f, ",\"index\":%lld", (long long)v->i);
        break;
    case MUSTER_POOL:
        fprintf(f, ",\"sides\":%lld,\"faces\":[", (long long)v->sides);
        for (size_t k = 0; k < v->n; k++) {
            fputs(k ? "," : "", f);
            json_int(f, v->faces[k]);
        }
        fputc(']', f);
        break;
    case MUSTER_RECORD:
        fputs(",\"fields\":{", f);
        for (size_t k = 0; k < v->n; k++) {
            fputs(k ? "," : "", f);
            json_str(f, v->field_names[k]);
            fputc(':', f);
            json_value(f, &v->fields[k]);
        }
        fputc('}', f);
        break;
    case MUSTER_UNKNOWN:
        break;
    }
    fputc('}', f);
}

static void json_error(FILE *f, const muster_ctx *ctx)
{
    muster_error *e = muster_last_error(ctx);
    if (!e) {
        fputs("{\"error\":{\"status\":1,\"message\":\"failed\"}}", f);
        return;
    }
    fprintf(f, "{\"error\":{\"status\":%d,\"file\":", e->status);
    json_str(f, e->file);
    fprintf(f, ",\"line\":%d,\"column\":%d,\"message\":", e->line, e->column);
    json_str(f, e->message);
    json_field_str(f, "text", e->text);
    fputs("}}", f);
    muster_error_free(e);
}

static void json_procs(FILE *f, const muster_program *prog)
{
    fputs("{\"procs\":[", f);
    for (size_t i = 0; i < muster_proc_count(prog); i++) {
        const muster_proc *p = muster_proc_at(prog, i);
        fputs(i ? "," : "", f);
        fputs("{\"name\":", f);
        json_str(f, p->name);
        json_field_str(f, "what", p->what);
        json_field_str(f, "returns", p->returns);
        fputs(",\"params\":[", f);
        for (size_t k = 0; k < p->nparams; k++) {
            const muster_param *q = &p->params[k];
            fputs(k ? ",{\"name\":" : "{\"name\":", f);
            json_str(f, q->name);
            json_field_str(f, "type", q->type);
            fprintf(f, ",\"kind\":\"%s\",\"default\":", kind_names[q->kind]);
            json_str(f, q->default_text);
            fputs(",\"values\":[", f);
            for (size_t m = 0; m < q->nvalues; m++) {
                fputs(m ? "," : "", f);
                json_str(f, q->values[m]);
            }
            fputs("]}", f);
        }
        fputs("]}", f);
    }
    fputs("],\"choices\":[", f);
    for (size_t i = 0; i < muster_choice_count(prog); i++) {
        const muster_choice *c = muster_choice_at(prog, i);
        fputs(i ? ",{\"name\":" : "{\"name\":", f);
        json_str(f, c->name);
        json_field_str(f, "question", c->question);
        fputs(",\"options\":[", f);
        for (size_t m = 0; m < c->noptions; m++) {
            fputs(m ? "," : "", f);
            json_str(f, c->options[m]);
        }
        fputs("],\"default\":", f);
        json_str(f, c->options[c->default_option]);
        fputc('}', f);
    }
    fputs("]}", f);
}

static void json_distribution(FILE *f, const muster_distribution *d)
{
    fprintf(f, "{\"exact\":%s,\"runs\":%llu,\"seed\":", d->exact ? "true" : "false", (unsigned long long)d->runs);
    if (d->exact)
        fputs("null", f);
    else
        fprintf(f, "\"%llu\"", (unsigned long long)d->seed);
    fprintf(f, ",\"numeric\":%s,\"mean\":", d->numeric ? "true" : "false");
    json_num(f, d->numeric ? d->mean : 0.0 / 0.0);
    json_field_num(f, "sd", d->numeric ? d->sd : 0.0 / 0.0);
    json_field_str(f, "mean_fraction", d->mean_fraction);
    json_field_num(f, "not_given", d->not_given);
    json_field_str(f, "not_given_fraction", d->not_given_fraction);
    json_field_num(f, "cut", d->cut);
    json_field_str(f, "cut_fraction", d->cut_fraction);
    json_field_str(f, "note", d->note);
    fputs(",\"outcomes\":[", f);
    for (size_t i = 0; i < d->n; i++) {
        const muster_outcome *o = &d->outcomes[i];
        fputs(i ? ",{\"value\":" : "{\"value\":", f);
        json_value(f, o->value);
        json_field_num(f, "probability", o->probability);
        json_field_str(f, "fraction", o->fraction);
        fprintf(f, ",\"count\":%llu,\"low\":", (unsigned long long)o->count);
        json_num(f, o->low);
        json_field_num(f, "high", o->high);
        fputc('}', f);
    }
    fputs("]}", f);
}

/* ---- the commands ---- */

typedef struct Job {
    muster_ctx *ctx;
    FILE *out, *err;
    const Request *r;
} Job;

static int usage(Job *j, const char *what, const char *typed)
{
    fprintf(j->err, "muster: ");
    fprintf(j->err, what, typed);
    fputc('\n', j->err);
    return MUSTER_USAGE;
}

/* A number option: 0 when it is not given, or 1 with *v set; -1 (after
 * saying so) when it is not a number. */
static int number(Job *j, const char *name, const char *text, uint64_t *v)
{
    if (!text)
        return 0;
    char *end;
    unsigned long long n = strtoull(text, &end, 10);
    if (!*text || *end || *text == '-') {
        fprintf(j->err, "muster: --%s needs a whole number, not '%s'\n", name, text);
        return -1;
    }
    *v = n;
    return 1;
}

/* The program the request names: its one file, or its expression. */
static muster_program *program(Job *j)
{
    if (j->r->expr)
        return muster_load_expression(j->ctx, j->r->expr);
    if (j->r->files.n != 1) {
        usage(j, "%sone FILE is wanted", j->r->files.n ? "only " : "");
        return NULL;
    }
    return muster_load(j->ctx, j->r->files.items[0]);
}

static const char *proc_of(const Request *r)
{
    return r->expr ? "expression" : r->proc;
}

static int missing_proc(Job *j, const muster_program *prog)
{
    fprintf(j->err, "muster: %s needs a procedure; %s has:\n", j->r->cmd, j->r->files.items[0]);
    muster_ctx *list = muster_new(j->err, j->err, 0);
    muster_list(list, prog);
    muster_free(list);
    return MUSTER_USAGE;
}

static int cmd_check(Job *j)
{
    int status = MUSTER_OK;
    if (j->r->files.n == 0)
        return usage(j, "%scheck needs at least one FILE", "");
    for (int i = 0; i < j->r->files.n; i++) {
        const char *path = j->r->files.items[i];
        muster_program *prog = muster_load(j->ctx, path);
        int passed = 0, failed = 0;
        if (!prog || muster_check(j->ctx, prog, &passed, &failed) != MUSTER_OK) {
            status = MUSTER_ERROR;
            muster_program_free(prog);
            continue;
        }
        if (passed)
            fprintf(j->out, "%s: ok (%d example%s pass)\n", path, passed, passed == 1 ? "" : "s");
        else
            fprintf(j->out, "%s: ok\n", path);
        muster_program_free(prog);
    }
    return status;
}

static int cmd_test(Job *j)
{
    int passed = 0, failed = 0;
    if (j->r->files.n == 0)
        return usage(j, "%stest needs at least one FILE", "");
    for (int i = 0; i < j->r->files.n; i++) {
        muster_program *prog = muster_load(j->ctx, j->r->files.items[i]);
        if (!prog) {
            fprintf(j->out, "FAIL %s: does not compile\n", j->r->files.items[i]);
            failed++;
            continue;
        }
        muster_test(j->ctx, prog, &passed, &failed);
        muster_program_free(prog);
    }
    fprintf(j->out, "%d passed, %d failed\n", passed, failed);
    return failed ? MUSTER_ERROR : MUSTER_OK;
}

static void progress(double share, const char *words, void *data)
{
    (void)data;
    mw_progress_js(share, words);
}

/* prob's options (dist's too); -1 on a bad number. */
static int prob_options(Job *j, muster_prob_opts *o)
{
    const Request *r = j->r;
    memset(o, 0, sizeof *o);
    if (number(j, "trials", r->trials, &o->trials) < 0 || number(j, "budget", r->budget, &o->budget) < 0)
        return -1;
    int seeded = number(j, "seed", r->seed, &o->seed);
    if (seeded < 0)
        return -1;
    o->have_seed = seeded;
    o->json = r->json;
    o->csv = r->csv;
    o->html = r->html;
    o->exact = r->exact;
    o->no_specialize = r->no_specialize;
    o->field = r->field;
    o->choices = r->choices.items;
    o->nchoices = r->choices.n;
    o->vs = r->vs.items;
    o->nvs = r->vs.n;
    o->svg = r->svg;
    o->threads = 1;
    o->progress = progress;
    return 0;
}

/* call and dist: the values API, with arguments as text ("cover=light"). */
static int cmd_values(Job *j, const muster_program *prog, const char *proc, const muster_prob_opts *po)
{
    const Request *r = j->r;
    muster_arg *args = calloc((size_t)r->args.n + 1, sizeof *args);
    char **names = calloc((size_t)r->args.n + 1, sizeof *names);
    int status = MUSTER_OK;
    for (int i = 0; i < r->args.n; i++) {
        const char *eq = strchr(r->args.items[i], '=');
        size_t len = eq ? (size_t)(eq - r->args.items[i]) : strlen(r->args.items[i]);
        names[i] = strndup(r->args.items[i], len);
        args[i] = muster_arg_text(names[i], eq ? eq + 1 : "");
    }
    if (!strcmp(r->cmd, "call")) {
        muster_call_opts co = { .have_seed = po->have_seed, .seed = po->seed, .dice = r->dice,
                                .choices = r->choices.items, .nchoices = r->choices.n };
        muster_value *v = muster_call(j->ctx, prog, proc, (size_t)r->args.n, args, &co);
        if (v) {
            fputs("{\"value\":", j->out);
            json_value(j->out, v);
            fputs("}", j->out);
        } else {
            json_error(j->out, j->ctx);
            status = MUSTER_ERROR;
        }
        muster_value_free(v);
    } else {
        muster_distribution *d = muster_distribution_of(j->ctx, prog, proc, (size_t)r->args.n, args, po);
        if (d) {
            fputs("{\"distribution\":", j->out);
            json_distribution(j->out, d);
            fputs("}", j->out);
        } else {
            json_error(j->out, j->ctx);
            status = MUSTER_ERROR;
        }
        muster_distribution_free(d);
    }
    for (int i = 0; i < r->args.n; i++)
        free(names[i]);
    free(names);
    free(args);
    return status;
}

/* run, prob, dis, list, turn, sheet, procs, call, dist: one program. */
static int cmd_program(Job *j)
{
    const Request *r = j->r;
    const char *cmd = r->cmd;
    int needs_proc = !strcmp(cmd, "run") || !strcmp(cmd, "prob") || !strcmp(cmd, "call") || !strcmp(cmd, "dist");
    muster_prob_opts po;
    if (prob_options(j, &po) < 0)
        return MUSTER_USAGE;
    muster_program *prog = program(j);
    if (!prog) {
        if (!strcmp(cmd, "procs") || !strcmp(cmd, "call") || !strcmp(cmd, "dist"))
            json_error(j->out, j->ctx);
        return muster_error_count(j->ctx) ? MUSTER_ERROR : MUSTER_USAGE;
    }
    const char *proc = proc_of(r);
    int status = MUSTER_OK;
    if (needs_proc && !proc)
        status = missing_proc(j, prog);
    else if (!strcmp(cmd, "run")) {
        /* the seed as prob_options read it */
        muster_run_opts ro = { .have_seed = po.have_seed, .seed = po.seed, .dice = r->dice, .explain = r->explain,
                               .json = r->json, .choices = r->choices.items, .nchoices = r->choices.n };
        status = muster_run(j->ctx, prog, proc, r->args.n, r->args.items, &ro);
    } else if (!strcmp(cmd, "prob"))
        status = muster_prob(j->ctx, prog, proc, r->args.n, r->args.items, &po);
    else if (!strcmp(cmd, "dis"))
        status = proc ? muster_disassemble_call(j->ctx, prog, proc, r->args.n, r->args.items, r->choices.items,
                                                r->choices.n, r->field)
                      : muster_disassemble(j->ctx, prog);
    else if (!strcmp(cmd, "list"))
        status = muster_list(j->ctx, prog);
    else if (!strcmp(cmd, "turn"))
        status = muster_turn(j->ctx, prog);
    else if (!strcmp(cmd, "sheet")) {
        muster_sheet_opts so = { .html = r->html, .review = r->review, .only = (const char *const *)r->only.items,
                                 .nonly = r->only.n };
        if (r->paper && strcmp(r->paper, "a4") && strcmp(r->paper, "letter"))
            status = usage(j, "--paper is a4 or letter, not '%s'", r->paper);
        else {
            so.letter = r->paper && !strcmp(r->paper, "letter");
            status = muster_sheet(j->ctx, prog, &so);
        }
    } else if (!strcmp(cmd, "procs"))
        json_procs(j->out, prog);
    else
        status = cmd_values(j, prog, proc, &po);
    muster_program_free(prog);
    return status;
}

static int cmd_diff(Job *j)
{
    const Request *r = j->r;
    if (r->files.n != 2)
        return usage(j, "%sdiff needs the rules and the house rule: two files", "");
    muster_prob_opts po;
    if (prob_options(j, &po) < 0)
        return MUSTER_USAGE;
    muster_program *base = muster_load(j->ctx, r->files.items[0]);
    muster_program *variant = base ? muster_load(j->ctx, r->files.items[1]) : NULL;
    int status = variant ? muster_diff(j->ctx, base, variant, r->proc, r->args.n, r->args.items, &po) : MUSTER_ERROR;
    muster_program_free(variant);
    muster_program_free(base);
    return status;
}

/* ---- in and out ---- */

static char *buffers[3];
static size_t lengths[3];

static int dispatch(Job *j)
{
    const char *cmd = j->r->cmd;
    static const char *const one_program[] = { "run", "prob", "dis", "list", "turn", "sheet",
                                               "procs", "call", "dist", NULL };
    if (!strcmp(cmd, "check"))
        return cmd_check(j);
    if (!strcmp(cmd, "test"))
        return cmd_test(j);
    if (!strcmp(cmd, "diff"))
        return cmd_diff(j);
    if (!strcmp(cmd, "version")) {
        fprintf(j->out, "muster %s\n", muster_version());
        return MUSTER_OK;
    }
    for (int i = 0; one_program[i]; i++)
        if (!strcmp(cmd, one_program[i]))
            return cmd_program(j);
    return usage(j, "unknown command '%s'", cmd);
}

int mw_command(const char *request, size_t len)
{
    Request r = { 0 };
    for (int k = 1; k <= 2; k++) {
        free(buffers[k]);
        buffers[k] = NULL;
        lengths[k] = 0;
    }
    FILE *out = open_memstream(&buffers[1], &lengths[1]);
    FILE *err = open_memstream(&buffers[2], &lengths[2]);
    if (!out || !err) {
        if (out)
            fclose(out);
        if (err)
            fclose(err);
        return MUSTER_NOMEM;
    }
    Job j = { NULL, out, err, &r };
    int status = MUSTER_USAGE;
    size_t at = 0;
    while (at < len) {
        const char *key = request + at;
        size_t klen = strnlen(key, len - at);
        if (at + klen + 1 >= len) {
            fprintf(err, "muster: the request ends after the key '%s'\n", key);
            goto done;
        }
        const char *value = key + klen + 1;
        size_t vlen = strnlen(value, len - at - klen - 1);
        if (!request_set(&r, key, value)) {
            fprintf(err, "muster: the request has an unknown key '%s'\n", key);
            goto done;
        }
        at += klen + 1 + vlen + 1;
    }
    if (!r.cmd) {
        fputs("muster: the request names no command\n", err);
        goto done;
    }
    /* the values API keeps its diagnostics for muster_last_error */
    int values = !strcmp(r.cmd, "procs") || !strcmp(r.cmd, "call") || !strcmp(r.cmd, "dist");
    j.ctx = values ? muster_new(NULL, NULL, 0) : muster_new(out, err, 0);
    uint64_t steps = 0, depth = 0;
    if (!j.ctx)
        status = MUSTER_NOMEM;
    else if (number(&j, "max-steps", r.max_steps, &steps) < 0 || number(&j, "max-depth", r.max_depth, &depth) < 0)
        status = MUSTER_USAGE;
    else if (depth > 100000)
        status = usage(&j, "--max-depth is at most 100000, not %s", r.max_depth);
    else {
        muster_set_limits(j.ctx, steps, (int)depth);
        status = dispatch(&j);
    }
    muster_free(j.ctx);
done:
    request_free(&r);
    fclose(out);
    fclose(err);
    return status;
}

const char *mw_output(int stream)
{
    return stream == 1 || stream == 2 ? (buffers[stream] ? buffers[stream] : "") : "";
}

size_t mw_output_len(int stream)
{
    return stream == 1 || stream == 2 ? lengths[stream] : 0;
}
