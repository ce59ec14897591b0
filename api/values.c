/* values.c — the value-level interface of muster.h: what a program offers
 * (its procedures with their parameters, its choices), a procedure run with
 * typed arguments and its result returned as a muster_value, and the odds
 * of its results as a muster_distribution.
 *
 * What the program offers is listed once, when the program is made, in
 * collected memory the program's handle keeps alive (so the lists are the
 * program's, valid as long as it is).  What a call returns is the caller's:
 * ordinary malloc'ed memory, copied out of the machine's values, so that
 * nothing the caller holds depends on the collector.
 */
#include "config.h"
#include "api/internal.h"
#include "vm/pool.h"
#include "vm/rng.h"

#include <stdlib.h>
#include <string.h>

struct ApiCatalog {
    muster_proc *procs;
    size_t nprocs;
    muster_choice *choices;
    size_t nchoices;
};

static muster_kind kind_of_type(Type t)
{
    switch (t.kind) {
    case TY_RAT: return MUSTER_RATIONAL;
    case TY_BOOL: return MUSTER_BOOL;
    case TY_STR: return MUSTER_STRING;
    case TY_ENUM: return MUSTER_ENUM;
    case TY_POOL: return MUSTER_POOL;
    case TY_RECORD: return MUSTER_RECORD;
    case TY_INT:
    case TY_ERROR:
        break;
    }
    return MUSTER_INT;
}

static const char *const bool_values[] = { "true", "false" };

static void list_param(const Compiled *c, const ProcSig *sig, int p, muster_param *out)
{
    Type t = sig->ptypes[p];
    out->name = sig->pnames[p];
    out->type = compiler_type_name(c, t);
    out->kind = kind_of_type(t);
    out->default_text = sig->pdefault[p] >= 0 ? (sig->pdeftext[p] ? sig->pdeftext[p] : "...") : NULL;
    if (t.kind == TY_ENUM) {
        const EnumDesc *e = &c->prog->enums[t.enum_id];
        out->nvalues = (size_t)e->nmembers;
        out->values = e->members;
    } else if (t.kind == TY_BOOL) {
        out->nvalues = 2;
        out->values = bool_values;
    }
}

ApiCatalog *api_catalog(const Compiled *c)
{
    static const char *const what[] = {
        [SIG_PROC] = "proc", [SIG_TABLE] = "table", [SIG_BANDS] = "bands",
        [SIG_MODIFIERS] = "modifiers", [SIG_RECORD] = "record",
    };
    ApiCatalog *cat = mem_alloc(sizeof *cat);
    cat->nprocs = (size_t)c->nprocs;
    cat->procs = mem_alloc(sizeof *cat->procs * (cat->nprocs + 1));
    for (int i = 0; i < c->nprocs; i++) {
        const ProcSig *sig = &c->procs[i];
        muster_proc *p = &cat->procs[i];
        p->name = sig->name;
        p->what = what[sig->kind];
        p->returns = compiler_type_name(c, sig->ret);
        p->nparams = (size_t)sig->nparams;
        muster_param *params = mem_alloc(sizeof *params * (p->nparams + 1));
        for (int k = 0; k < sig->nparams; k++)
            list_param(c, sig, k, &params[k]);
        p->params = params;
    }
    const Program *prog = c->prog;
    for (int i = 0; i < prog->nenums; i++)
        cat->nchoices += prog->enums[i].flavour == FLAVOUR_CHOICE;
    cat->choices = mem_alloc(sizeof *cat->choices * (cat->nchoices + 1));
    size_t n = 0;
    for (int i = 0; i < prog->nenums; i++) {
        const EnumDesc *e = &prog->enums[i];
        if (e->flavour != FLAVOUR_CHOICE)
            continue;
        cat->choices[n++] = (muster_choice){
            .name = e->name, .question = e->prompt, .noptions = (size_t)e->nmembers,
            .options = e->members, .default_option = e->deflt >= 0 ? (size_t)e->deflt : 0,
        };
    }
    return cat;
}

size_t muster_proc_count(const muster_program *prog) { return prog->catalog->nprocs; }

const muster_proc *muster_proc_at(const muster_program *prog, size_t i)
{
    return i < prog->catalog->nprocs ? &prog->catalog->procs[i] : NULL;
}

const muster_proc *muster_proc_find(const muster_program *prog, const char *name)
{
    for (size_t i = 0; i < prog->catalog->nprocs; i++)
        if (!strcmp(prog->catalog->procs[i].name, name))
            return &prog->catalog->procs[i];
    return NULL;
}

size_t muster_choice_count(const muster_program *prog) { return prog->catalog->nchoices; }

const muster_choice *muster_choice_at(const muster_program *prog, size_t i)
{
    return i < prog->catalog->nchoices ? &prog->catalog->choices[i] : NULL;
}

/* ---- arguments ---- */

muster_arg muster_arg_int(const char *name, int64_t i)
{
    return (muster_arg){ .name = name, .kind = MUSTER_INT, .i = i };
}

muster_arg muster_arg_rational(const char *name, int64_t num, int64_t den)
{
    return (muster_arg){ .name = name, .kind = MUSTER_RATIONAL, .num = num, .den = den };
}

muster_arg muster_arg_bool(const char *name, int b)
{
    return (muster_arg){ .name = name, .kind = MUSTER_BOOL, .i = b != 0 };
}

muster_arg muster_arg_enum(const char *name, const char *member)
{
    return (muster_arg){ .name = name, .kind = MUSTER_ENUM, .text = member };
}

muster_arg muster_arg_text(const char *name, const char *text)
{
    return (muster_arg){ .name = name, .kind = MUSTER_STRING, .text = text };
}

static const char *kind_word(muster_kind k)
{
    static const char *const words[] = {
        [MUSTER_INT] = "an int", [MUSTER_RATIONAL] = "a rational", [MUSTER_BOOL] = "a bool",
        [MUSTER_STRING] = "a string", [MUSTER_ENUM] = "an enum member", [MUSTER_POOL] = "a pool",
        [MUSTER_RECORD] = "a record", [MUSTER_UNKNOWN] = "'?'",
    };
    return (unsigned)k <= MUSTER_UNKNOWN ? words[k] : "a value of no kind";
}

/* Typed arguments as the `name=value` text of the command line, which the
 * procedure's signature then reads (so a typed argument and a typed-in one
 * are checked alike); a kind that does not fit the parameter's type is a
 * usage error here.  NULL after reporting one. */
static char **args_as_text(muster_ctx *ctx, const Compiled *c, const char *proc, size_t nargs, const muster_arg *args)
{
    const ProcSig *sig = compiler_find_proc(c, proc);
    char **texts = mem_alloc(sizeof(char *) * (nargs + 1));
    for (size_t i = 0; i < nargs; i++) {
        const muster_arg *a = &args[i];
        if (!a->name || strchr(a->name, '=')) {
            api_usage_error(ctx, "argument %zu has no parameter name", i + 1);
            return NULL;
        }
        Type t = { TY_ERROR, 0 };
        if (sig)
            for (int p = 0; p < sig->nparams; p++)
                if (!strcmp(sig->pnames[p], a->name))
                    t = sig->ptypes[p];
        bool fits = true;
        char value[48];
        const char *text = value;
        switch (a->kind) {
        case MUSTER_INT:
            fits = t.kind == TY_INT || t.kind == TY_RAT;
            snprintf(value, sizeof value, "%lld", (long long)a->i);
            break;
        case MUSTER_RATIONAL:
            fits = t.kind == TY_RAT || (t.kind == TY_INT && a->den == 1);
            snprintf(value, sizeof value, "%lld/%lld", (long long)a->num, (long long)a->den);
            break;
        case MUSTER_BOOL:
            fits = t.kind == TY_BOOL;
            text = a->i ? "true" : "false";
            break;
        case MUSTER_ENUM:
            fits = t.kind == TY_ENUM;
            text = a->text ? a->text : "";
            break;
        case MUSTER_STRING:
            text = a->text ? a->text : "";
            break;
        default:
            fits = false;
            break;
        }
        /* a name the procedure does not have is left to the signature's reading, which says so */
        if (!fits && t.kind != TY_ERROR) {
            api_usage_error(ctx, "parameter '%s' of '%s' is %s %s; the argument given is %s", a->name, proc,
                            t.kind == TY_INT || t.kind == TY_ENUM ? "an" : "a", compiler_type_name(c, t),
                            kind_word(a->kind));
            return NULL;
        }
        size_t nl = strlen(a->name), vl = strlen(text);
        texts[i] = mem_alloc_atomic(nl + vl + 2);
        memcpy(texts[i], a->name, nl);
        texts[i][nl] = '=';
        memcpy(texts[i] + nl + 1, text, vl + 1);
    }
    return texts;
}

/* ---- values out ---- */

static char *copied(const char *s)
{
    return s ? strdup(s) : NULL;
}

static void value_clear(muster_value *v)
{
    free((char *)v->type);
    free((char *)v->text);
    free((char *)v->shown);
    free(v->faces);
    for (size_t i = 0; v->field_names && i < v->n; i++)
        free((char *)v->field_names[i]);
    free(v->field_names);
    for (size_t i = 0; v->fields && i < v->n; i++)
        value_clear(&v->fields[i]);
    free(v->fields);
}

void muster_value_free(muster_value *v)
{
    if (!v)
        return;
    value_clear(v);
    free(v);
}

/* v as a muster_value in *out (zeroed); false when malloc fails (what was
 * copied is left for value_clear). */
static bool copy_value(muster_value *out, Value v, const Program *prog)
{
    out->den = 1;
    out->shown = copied(api_value_text(v, prog));
    const char *type = "?";
    switch (v.tag) {
    case VAL_INT:
        out->kind = MUSTER_INT;
        type = "int";
        out->i = out->num = v.as.i;
        break;
    case VAL_RAT:
        out->kind = MUSTER_RATIONAL;
        type = "rat";
        out->num = v.as.q.num;
        out->den = v.as.q.den;
        break;
    case VAL_BOOL:
        out->kind = MUSTER_BOOL;
        type = "bool";
        out->i = v.as.b;
        break;
    case VAL_STR:
        out->kind = MUSTER_STRING;
        type = "str";
        if (!(out->text = copied(v.as.s->bytes)))
            return false;
        break;
    case VAL_ENUM: {
        const EnumDesc *e = &prog->enums[v.enum_id];
        out->kind = MUSTER_ENUM;
        type = e->name;
        out->i = v.as.i;
        if (!(out->text = copied(e->members[v.as.i])))
            return false;
        break;
    }
    case VAL_POOL: {
        const Pool *p = pool_order(pool_plain(v.as.p));
        out->kind = MUSTER_POOL;
        type = "pool";
        out->sides = p->sides;
        out->n = (size_t)p->n;
        if (!(out->faces = malloc(sizeof *out->faces * (out->n + 1))))
            return false;
        for (size_t i = 0; i < out->n; i++)
            out->faces[i] = p->face[i];
        break;
    }
    case VAL_RECORD: {
        const Record *r = v.as.r;
        const RecordDesc *d = &prog->records[r->type];
        out->kind = MUSTER_RECORD;
        type = d->name;
        if (!(out->field_names = calloc((size_t)r->n + 1, sizeof *out->field_names))
            || !(out->fields = calloc((size_t)r->n + 1, sizeof *out->fields)))
            return false;
        out->n = (size_t)r->n;
        for (int32_t i = 0; i < r->n; i++)
            if (!(out->field_names[i] = copied(d->fields[i])) || !copy_value(&out->fields[i], r->field[i], prog))
                return false;
        break;
    }
    case VAL_UNKNOWN: case VAL_DIST:   /* (the second never leaves the exact engine) */
        out->kind = MUSTER_UNKNOWN;
        break;
    }
    return (out->type = copied(type)) != NULL && out->shown != NULL;
}

/* A new muster_value of v, or NULL (out of memory, reported). */
static muster_value *new_value(muster_ctx *ctx, Value v, const Program *prog)
{
    muster_value *out = calloc(1, sizeof *out);
    if (out && copy_value(out, v, prog))
        return out;
    muster_value_free(out);
    api_usage_error(ctx, "out of memory");
    return NULL;
}

/* ---- one run ---- */

static int call_value(muster_ctx *ctx, const Compiled *c, const char *proc, size_t nargs, const muster_arg *args,
                      const muster_call_opts *opts, muster_value **out)
{
    char **texts = args_as_text(ctx, c, proc, nargs, args);
    if (!texts)
        return MUSTER_USAGE;
    muster_call_opts none = { 0 };
    if (!opts)
        opts = &none;
    RngDice rng;
    ScriptDice script;
    DiceSource *dice;
    int st = api_dice_for(ctx, opts->dice, opts->have_seed, opts->seed, &rng, &script, &dice);
    if (st != MUSTER_OK)
        return st;
    Call *call = mem_alloc(sizeof *call);
    st = api_prepare_call(ctx, c, proc, (int)nargs, texts, opts->choices, opts->nchoices, dice, NULL, call);
    if (st != MUSTER_OK)
        return st;
    Value result;
    if (api_fill_defaults(call->sig, call->given, &call->vm, call->argv)
        || vm_call(&call->vm, call->sig->proto, call->argv, call->sig->nparams, &result)) {
        api_report_runtime(ctx, c, &call->vm);
        return MUSTER_ERROR;
    }
    *out = new_value(ctx, result, c->prog);
    return *out ? MUSTER_OK : MUSTER_NOMEM;
}

muster_value *muster_call(muster_ctx *ctx, const muster_program *prog, const char *proc, size_t nargs,
                          const muster_arg *args, const muster_call_opts *opts)
{
    MemCatch mc;
    API_TRY(ctx, mc, return NULL);
    muster_value *v = NULL;
    int st = call_value(ctx, prog->compiled, proc, nargs, args, opts, &v);
    API_DONE(ctx, mc, st);
    return v;
}

/* ---- odds ---- */

static void outcome_clear(muster_outcome *o)
{
    muster_value_free(o->value);
    free(o->fraction);
}

void muster_distribution_free(muster_distribution *d)
{
    if (!d)
        return;
    for (size_t i = 0; d->outcomes && i < d->n; i++)
        outcome_clear(&d->outcomes[i]);
    free(d->outcomes);
    free(d->mean_fraction);
    free(d->not_given_fraction);
    free(d->cut_fraction);
    free(d->note);
    free(d);
}

static const char *fallback_note(OddsFallback f)
{
    switch (f) {
    case ODDS_PAST_BUDGET:
        return "simulated: counting every way the dice can fall would take more runs than the exact budget";
    case ODDS_TOO_SLOW:
        return "simulated: counting every way the dice can fall would take too long";
    case ODDS_SLOW_PAST_BUDGET:
        return "simulated: counting every way the dice can fall would take more runs than the budget, and too long";
    case ODDS_NO_FALLBACK:
        break;
    }
    return NULL;
}

/* The table's numbers copied out; false when malloc fails. */
static bool copy_table(muster_distribution *d, const OddsTable *t, const Odds *o, const Program *prog)
{
    d->exact = t->exact;
    d->runs = t->exact ? t->runs : t->trials;
    d->seed = t->exact ? 0 : t->seed;
    if (!(d->outcomes = calloc((size_t)t->n + 1, sizeof *d->outcomes)))
        return false;
    d->n = (size_t)t->n;
    for (int i = 0; i < t->n; i++) {
        const OddsRow *r = &t->rows[i];
        muster_outcome *out = &d->outcomes[i];
        out->probability = r->p;
        out->count = t->exact ? 0 : r->count;
        out->low = t->exact ? r->p : r->lo;
        out->high = t->exact ? r->p : r->hi;
        if (!(out->value = calloc(1, sizeof *out->value)) || !copy_value(out->value, r->value, prog))
            return false;
        if (r->q && !(out->fraction = copied(api_mpq_text(r->q))))
            return false;
    }
    d->numeric = t->numeric;
    d->mean = t->numeric ? t->mean : 0;
    d->sd = t->numeric ? t->sd : 0;
    if (t->exact && t->numeric && t->valued > 0 && !(d->mean_fraction = copied(api_mpq_text(t->mean_q))))
        return false;
    if (t->has_not_given) {
        d->not_given = t->not_given.p;
        if (t->not_given.q && !(d->not_given_fraction = copied(api_mpq_text(t->not_given.q))))
            return false;
    }
    if (t->has_cut) {
        d->cut = t->cut;
        if (!(d->cut_fraction = copied(api_mpq_text(t->cut_q))))
            return false;
    }
    const char *note = t->exact ? NULL : fallback_note(o->fallback);
    return !note || (d->note = copied(note)) != NULL;
}

static int distribution(muster_ctx *ctx, const Compiled *c, const char *proc, size_t nargs, const muster_arg *args,
                        const muster_prob_opts *opts, muster_distribution **out)
{
    char **texts = args_as_text(ctx, c, proc, nargs, args);
    if (!texts)
        return MUSTER_USAGE;
    muster_prob_opts defaults = { 0 };
    if (!opts)
        opts = &defaults;
    uint64_t seed = opts->have_seed ? opts->seed : rng_fresh_seed();
    Odds o;
    int st = api_compute_odds(ctx, c, proc, (int)nargs, texts, opts, seed, &o);
    if (st != MUSTER_OK)
        return st;
    OddsTable t;
    api_odds_table(c, opts, &o, &t);
    muster_distribution *d = calloc(1, sizeof *d);
    if (!d || !copy_table(d, &t, &o, c->prog)) {
        muster_distribution_free(d);
        d = NULL;
    }
    if (o.exact)
        exact_clear(&o.er);
    if (!d) {
        api_usage_error(ctx, "out of memory");
        return MUSTER_NOMEM;
    }
    *out = d;
    return MUSTER_OK;
}

muster_distribution *muster_distribution_of(muster_ctx *ctx, const muster_program *prog, const char *proc,
                                            size_t nargs, const muster_arg *args, const muster_prob_opts *opts)
{
    MemCatch mc;
    API_TRY(ctx, mc, return NULL);
    muster_distribution *d = NULL;
    int st = distribution(ctx, prog->compiled, proc, nargs, args, opts, &d);
    API_DONE(ctx, mc, st);
    return d;
}
