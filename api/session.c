/* session.c — interactive sessions, behind `muster repl`: a script (or
 * none) and the declarations typed since, compiled together as one program
 * after each entry, and expressions compiled in that program's scope.
 *
 * Nothing is compiled apart.  The script is read once per :load or :reload
 * (its module kept, imports and a variant's base included); each entry of
 * declarations is parsed once and kept as a module of its own, with its own
 * Source.  The session's program is the script's declarations followed by
 * every entry's, a typed declaration taking the place of an earlier one of
 * the same name (build); it is compiled again whenever it changes, and an
 * expression is compiled with it as one more procedure.  So diagnostics
 * point at what was typed, at the line and column the caller gives (each
 * entry's Source has its line_offset, and is padded with blanks to its
 * column), and a declaration that does not compile with the rest, or a
 * script that does not compile with the declarations typed, leaves the
 * session as it was.
 *
 * Dice last as long as the session: seeded ones by handing each expression
 * run the next seed (N, N+1, ...: `muster run -e EXPR --seed N` replays
 * one), scripted ones by one ScriptDice that every run draws from in turn.
 */
#include "config.h"
#include "api/internal.h"
#include "lang/ast.h"
#include "lang/parse.h"

#include <stdlib.h>
#include <string.h>

/* The longest padding put before an entry for its column. */
#define MAX_COLUMN 4096

struct muster_session {
    muster_ctx *ctx;
    const char *name;        /* of typed text in diagnostics */
    const Source *blank;     /* the session's main "file" when no script is loaded */
    int error_limit;         /* the context's limit, counted afresh for each entry */
    /* the script: its path, its module (imports and base included) and the files it read */
    const char *path;
    Module *file;
    Loaded file_seen;
    /* one module per entry of declarations, in the order typed */
    Module **typed;
    int ntyped;
    /* the session as last compiled: the script's and the typed declarations */
    Module *all;
    Compiled *compiled;
    muster_program program;
    /* dice, and the choices of --choose */
    bool scripted;
    ScriptDice script;
    uint64_t next_seed;
    char *const *choices;
    int nchoices;
    const char **names;      /* muster_session_names, until the session changes */
};

/* Each entry may report as many errors as a whole file. */
static void begin_entry(muster_session *s)
{
    Diag *d = &s->ctx->diag;
    if (s->error_limit)
        d->max_errors = d->errors + s->error_limit;
}

static Loaded copy_loaded(const Loaded *from)
{
    Loaded l = { NULL, from->n, from->n };
    if (from->n) {
        l.paths = mem_alloc(sizeof(char *) * (size_t)from->n);
        memcpy(l.paths, from->paths, sizeof(char *) * (size_t)from->n);
    }
    return l;
}

/* What a declaration's name stands for: two declarations are the same
 * thing, the later replacing the earlier, when they share a bit and a name
 * (any two ruleset headers). */
enum { SLOT_CALLABLE = 1, SLOT_TYPE = 2, SLOT_SEQUENCE = 4, SLOT_HEADER = 8 };

static int slot_of(const Decl *d)
{
    switch (d->kind) {
    case DECL_PROC: case DECL_TABLE: case DECL_BANDS: case DECL_MODIFIERS: return SLOT_CALLABLE;
    case DECL_ENUM: return SLOT_TYPE;
    case DECL_RECORD: return SLOT_TYPE | SLOT_CALLABLE;
    case DECL_SEQUENCE: return SLOT_SEQUENCE;
    case DECL_RULESET: return SLOT_HEADER;
    default: return 0;
    }
}

static const char *kind_word(const Decl *d)
{
    switch (d->kind) {
    case DECL_PROC: return d->as.proc.odds != ODDS_NONE ? "odds" : "procedure";
    case DECL_ENUM: {
        static const char *const flavours[] = { "enum", "ladder", "outcome", "choice" };
        return flavours[d->as.enm.flavour];
    }
    case DECL_RECORD: return "record";
    case DECL_TABLE: return "table";
    case DECL_BANDS: return "bands";
    case DECL_MODIFIERS: return "modifiers";
    case DECL_SEQUENCE: return "sequence";
    case DECL_RULESET: return "ruleset header";
    default: return "declaration";
    }
}

/* Take out of all the declarations, of another entry or the script, that d
 * takes the place of; with note, say so. */
static void replace_earlier(muster_session *s, Module *all, const Decl *d, bool note)
{
    int slot = slot_of(d), kept = 0;
    for (int i = 0; i < all->n; i++) {
        const Decl *e = all->decls[i];
        bool same = slot && (slot_of(e) & slot) && e->src != d->src
                    && (d->kind == DECL_RULESET || (e->name && d->name && !strcmp(e->name, d->name)));
        if (!same) {
            all->decls[kept++] = all->decls[i];
            continue;
        }
        if (note) {
            int line = 0, col = 0;
            if (e->src)
                source_linecol(e->src, e->name_span.begin, &line, &col);
            if (d->kind == DECL_RULESET)
                diag_brief(&s->ctx->diag, DIAG_NOTE, d->src, d->name_span,
                           "this ruleset header replaces the one at %s:%d", e->src ? e->src->path : "?", line);
            else
                diag_brief(&s->ctx->diag, DIAG_NOTE, d->src, d->name_span, "%s '%s' replaces the %s declared at %s:%d",
                           kind_word(d), d->name, kind_word(e), e->src ? e->src->path : "?", line);
        }
    }
    all->n = kept;
}

/* The session's declarations: the script's (file, which read the files in
 * file_seen), then each typed entry's and what it imports, each replacing
 * the earlier declaration of its name.  NULL after reporting errors. */
static Module *build(muster_session *s, Module *file, const Loaded *file_seen, Module *const *typed, int ntyped,
                     bool note_last)
{
    muster_ctx *ctx = s->ctx;
    int before = ctx->diag.errors;
    Module *all = mem_alloc(sizeof *all);
    all->src = file ? file->src : s->blank;
    for (int i = 0; file && i < file->n; i++)
        ast_module_push(all, file->decls[i]);
    Loaded seen = copy_loaded(file_seen);
    for (int k = 0; k < ntyped; k++) {
        const Module *m = typed[k];
        for (int i = 0; i < m->n; i++) {
            replace_earlier(s, all, m->decls[i], note_last && k == ntyped - 1);
            ast_module_push(all, m->decls[i]);
        }
        api_load_imports(ctx, all, m, &seen);
    }
    return ctx->diag.errors > before ? NULL : all;
}

static void commit(muster_session *s, Module *all, Compiled *c)
{
    s->all = all;
    s->compiled = c;
    s->program.compiled = c;
    s->program.catalog = api_catalog(c);
    s->names = NULL;
}

static int session_dice(muster_session *s, const muster_run_opts *opts);

static muster_session *session_new(muster_ctx *ctx, const char *name, const muster_run_opts *opts, int *status)
{
    *status = MUSTER_ERROR;
    muster_session *s = mem_alloc_root(sizeof *s);
    s->ctx = ctx;
    s->name = mem_strdup(name);
    s->blank = source_new(s->name, "", 0);
    s->error_limit = ctx->diag.max_errors;
    s->next_seed = rng_fresh_seed();
    if (opts) {
        if (opts->nchoices > 0) {
            char **choices = mem_alloc(sizeof(char *) * (size_t)opts->nchoices);
            for (int i = 0; i < opts->nchoices; i++)
                choices[i] = mem_strdup(opts->choices[i]);
            s->choices = choices;
            s->nchoices = opts->nchoices;
        }
        if ((opts->have_seed || opts->dice) && (*status = session_dice(s, opts)) != MUSTER_OK) {
            mem_free_root(s);
            return NULL;
        }
    }
    begin_entry(s);
    Module *all = build(s, NULL, &s->file_seen, NULL, 0, false);
    Compiled *c = all ? api_compile(ctx, all) : NULL;
    if (!c) {
        mem_free_root(s);
        return NULL;
    }
    commit(s, all, c);
    *status = MUSTER_OK;
    return s;
}

muster_session *muster_session_new(muster_ctx *ctx, const char *name, const muster_run_opts *opts)
{
    MemCatch mc;
    API_TRY(ctx, mc, return NULL);
    int st;
    muster_session *s = session_new(ctx, name, opts, &st);
    API_DONE(ctx, mc, st);
    return s;
}

void muster_session_free(muster_session *s)
{
    if (s)
        mem_free_root(s);
}

static int session_load(muster_session *s, const char *path, int keep_typed)
{
    muster_ctx *ctx = s->ctx;
    begin_entry(s);
    char err[512];
    Source *src = source_read(path, err, sizeof err);
    if (!src) {
        diag_report(&ctx->diag, DIAG_ERROR, NULL, (Span){ 0, 0 }, "%s", err);
        return MUSTER_ERROR;
    }
    Loaded seen = { 0 };
    Module *file = api_load_module(ctx, src, &seen);
    if (!file)
        return MUSTER_ERROR;
    int ntyped = keep_typed ? s->ntyped : 0;
    Module *all = build(s, file, &seen, s->typed, ntyped, false);
    Compiled *c = all ? api_compile(ctx, all) : NULL;
    if (!c)
        return MUSTER_ERROR;
    s->path = mem_strdup(path);
    s->file = file;
    s->file_seen = seen;
    s->ntyped = ntyped;
    commit(s, all, c);
    return MUSTER_OK;
}

/* The Source of an entry typed at line:column of the session. */
static Source *entry_source(const muster_session *s, const char *text, int line, int column)
{
    size_t pad = column > 1 ? (size_t)(column > MAX_COLUMN ? MAX_COLUMN : column) - 1 : 0;
    size_t n = strlen(text);
    char *buf = mem_alloc_atomic(pad + n + 1);
    memset(buf, ' ', pad);
    memcpy(buf + pad, text, n + 1);
    Source *src = source_new(s->name, buf, pad + n);
    src->line_offset = line > 1 ? line - 1 : 0;
    return src;
}

int muster_session_load(muster_session *s, const char *path, int keep_typed)
{
    MemCatch mc;
    API_TRY(s->ctx, mc, return MUSTER_NOMEM);
    return API_DONE(s->ctx, mc, session_load(s, path, keep_typed));
}

static int entry_incomplete(const char *text);

int muster_session_incomplete(const char *text)
{
    /* no context to record an error in: out of memory, the entry is
     * taken as finished, and evaluating it says what happened */
    MemCatch mc;
    mem_catch_push(&mc);
    if (setjmp(mc.jump))
        return 0;
    int r = entry_incomplete(text);
    mem_catch_pop(&mc);
    return r;
}

static int entry_incomplete(const char *text)
{
    Source *src = source_new("", mem_strdup(text), strlen(text));
    switch (parse_entry_kind(src)) {
    case ENTRY_DECLARATIONS: return parse_stops_short(src, false);
    case ENTRY_EXPRESSION: return parse_stops_short(src, true);
    default: return 0;
    }
}

/* The first declaration that has no place at a prompt, or NULL: a variant
 * is a file of its own, changes and all, and an example is run by `muster
 * test` from the script it is written in. */
static const Decl *out_of_place(const Module *m)
{
    for (int i = 0; i < m->n; i++) {
        const Decl *d = m->decls[i];
        if (d->change || (d->kind == DECL_RULESET && d->as.ruleset.base) || d->kind == DECL_EXAMPLE)
            return d;
    }
    return NULL;
}

static int add_declarations(muster_session *s, Source *src)
{
    muster_ctx *ctx = s->ctx;
    int before = ctx->diag.errors;
    Module *m = parse_module(src, &ctx->diag);
    if (ctx->diag.errors > before)
        return MUSTER_ERROR;
    const Decl *bad = out_of_place(m);
    if (bad) {
        if (bad->change)
            diag_report(&ctx->diag, DIAG_ERROR, src, bad->change_span,
                        "'change' belongs in a variant; here a declaration simply replaces the one of its name");
        else if (bad->kind == DECL_EXAMPLE)
            diag_report(&ctx->diag, DIAG_ERROR, src, bad->span,
                        "an example belongs in a script, where 'muster test' runs it; here, type what it "
                        "expects as an expression (hits(card: 6) == 4)");
        else
            diag_report(&ctx->diag, DIAG_ERROR, src, bad->name_span,
                        "a variant is a file of its own, loaded as the session's script");
        return MUSTER_ERROR;
    }
    Module **typed = mem_alloc(sizeof(Module *) * (size_t)(s->ntyped + 1));
    if (s->ntyped)
        memcpy(typed, s->typed, sizeof(Module *) * (size_t)s->ntyped);
    typed[s->ntyped] = m;
    Module *all = build(s, s->file, &s->file_seen, typed, s->ntyped + 1, true);
    Compiled *c = all ? api_compile(ctx, all) : NULL;
    if (!c)
        return MUSTER_ERROR;
    s->typed = typed;
    s->ntyped++;
    commit(s, all, c);
    return MUSTER_OK;
}

/* The expression's text as headings show it: its lines, trimmed. */
static char *shown_text(const char *text)
{
    while (*text == ' ' || *text == '\t' || *text == '\n' || *text == '\r')
        text++;
    size_t n = strlen(text);
    while (n && (text[n - 1] == ' ' || text[n - 1] == '\t' || text[n - 1] == '\n' || text[n - 1] == '\r'))
        n--;
    return mem_strndup(text, n);
}

static int run_expression(muster_session *s, Source *src, const char *text, int how, const muster_prob_opts *prob)
{
    muster_ctx *ctx = s->ctx;
    Expr *e = parse_prompt_expression(src, &ctx->diag);
    if (!e)
        return MUSTER_ERROR;
    /* a procedure of no arguments returning the expression, named as no
     * procedure of the session is */
    char name[48];
    snprintf(name, sizeof name, "%s", COMPILER_EXPRESSION_PROC);
    for (int k = 2; compiler_find_proc(s->compiled, name); k++)
        snprintf(name, sizeof name, "%s%d", COMPILER_EXPRESSION_PROC, k);
    Span all = { e->span.begin, e->span.end };
    Decl *d = ast_decl(DECL_PROC, mem_strdup(name), all, all);
    d->src = src;
    d->ret.name = COMPILER_INFERRED_TYPE;
    Stmt *ret = ast_stmt(ST_RETURN, all);
    ret->as.ret = e;
    ast_stmt_push(&d->as.proc.body, ret);
    d->as.proc.body_end = (Span){ all.end, all.end };
    Module *m = mem_alloc(sizeof *m);
    m->src = s->all->src;
    for (int i = 0; i < s->all->n; i++)
        ast_module_push(m, s->all->decls[i]);
    ast_module_push(m, d);
    Compiled *c = api_compile(ctx, m);
    if (!c)
        return MUSTER_ERROR;
    c->expression = shown_text(text);
    if (how == MUSTER_EVAL_PROB) {
        muster_prob_opts o = *prob;
        if (!o.nchoices) {
            o.choices = s->choices;
            o.nchoices = s->nchoices;
        }
        if (!o.have_seed) {
            o.have_seed = 1;
            o.seed = s->next_seed++;
        }
        muster_program p = { c, api_catalog(c) };
        return api_prob(ctx, &p, name, 0, NULL, &o);
    }
    muster_run_opts o = { .explain = how == MUSTER_EVAL_EXPLAIN, .choices = s->choices, .nchoices = s->nchoices };
    if (!s->scripted) {
        o.have_seed = 1;
        o.seed = s->next_seed++;
        return api_run(ctx, c, name, 0, NULL, &o, NULL);
    }
    size_t used = s->script.next;
    int st = api_run(ctx, c, name, 0, NULL, &o, &s->script);
    if (st == MUSTER_OK && used < s->script.n && s->script.next == s->script.n)
        api_err_printf(ctx, "muster: note: that was the last of the scripted dice; the next roll needs more\n");
    return st;
}

static int session_eval(muster_session *s, const char *text, int line, int column, int how,
                        const muster_prob_opts *prob)
{
    muster_ctx *ctx = s->ctx;
    begin_entry(s);
    Source *src = entry_source(s, text, line, column);
    muster_prob_opts none = { 0 };
    switch (parse_entry_kind(src)) {
    case ENTRY_EMPTY:
        return MUSTER_OK;
    case ENTRY_DECLARATIONS:
        if (how != MUSTER_EVAL_RUN) {
            Span at = { (uint32_t)strspn(src->text, " \t\r\n"), (uint32_t)strspn(src->text, " \t\r\n") + 1 };
            diag_report(&ctx->diag, DIAG_ERROR, src, at, "%s",
                        how == MUSTER_EVAL_PROB ? "odds are worked out for an expression, not for declarations"
                                                : "an account is given of an expression, not of declarations");
            return MUSTER_ERROR;
        }
        return add_declarations(s, src);
    case ENTRY_STATEMENT: {
        uint32_t b = (uint32_t)strspn(src->text, " \t\r\n"), e = b;
        while (e < src->len && src->text[e] >= 'a' && src->text[e] <= 'z')
            e++;
        diag_report(&ctx->diag, DIAG_ERROR, src, (Span){ b, e },
                    "'%.*s' begins a statement, which belongs in a procedure's body; type an expression "
                    "(sum(roll 2d6)) or a declaration (proc f() -> int { ... })", (int)(e - b), src->text + b);
        return MUSTER_ERROR;
    }
    case ENTRY_EXPRESSION:
        break;
    }
    return run_expression(s, src, text, how, prob ? prob : &none);
}

int muster_session_eval(muster_session *s, const char *text, int line, int column, int how,
                        const muster_prob_opts *prob)
{
    MemCatch mc;
    API_TRY(s->ctx, mc, return MUSTER_NOMEM);
    return API_DONE(s->ctx, mc, session_eval(s, text, line, column, how, prob));
}

int muster_session_dice(muster_session *s, const muster_run_opts *opts)
{
    MemCatch mc;
    API_TRY(s->ctx, mc, return MUSTER_NOMEM);
    return API_DONE(s->ctx, mc, session_dice(s, opts));
}

static int session_dice(muster_session *s, const muster_run_opts *opts)
{
    muster_ctx *ctx = s->ctx;
    if (!opts) {
        if (!s->scripted) {
            fprintf(ctx->out, "seeded dice: the next expression takes seed %llu\n", (unsigned long long)s->next_seed);
        } else if (s->script.next == s->script.n) {
            fprintf(ctx->out, "scripted dice: all %zu used\n", s->script.n);
        } else {
            fprintf(ctx->out, "scripted dice: %zu of %zu left (", s->script.n - s->script.next, s->script.n);
            for (size_t i = s->script.next; i < s->script.n; i++)
                fprintf(ctx->out, i > s->script.next ? ", %lld" : "%lld", (long long)s->script.faces[i]);
            fputs(")\n", ctx->out);
        }
        fflush(ctx->out);
        return MUSTER_OK;
    }
    if (opts->dice) {
        int64_t *faces;
        const char **words;
        char err[256];
        long n = dice_parse_list(opts->dice, &faces, &words, err, sizeof err);
        if (n < 0)
            return api_usage_error(ctx, "scripted dice: %s", err);
        dice_script_init(&s->script, faces, words, (size_t)n);
        s->scripted = true;
    } else if (opts->have_seed) {
        s->scripted = false;
    }
    if (opts->have_seed)
        s->next_seed = opts->seed;   /* (with dice too: for :prob, and for seeded dice later) */
    return MUSTER_OK;
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool is_name(const char *s)
{
    if (!s || !*s || (*s >= '0' && *s <= '9'))
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

typedef struct Names {
    const char **items;
    int n, cap;
} Names;

static void add_name(Names *l, const char *name)
{
    if (!is_name(name))
        return;
    l->items = ast_grow(l->items, l->n, &l->cap, sizeof *l->items);
    l->items[l->n++] = name;
}

static const char *const *session_names(muster_session *s);

const char *const *muster_session_names(muster_session *s)
{
    MemCatch mc;
    API_TRY(s->ctx, mc, return NULL);
    const char *const *names = session_names(s);
    API_DONE(s->ctx, mc, MUSTER_OK);
    return names;
}

static const char *const *session_names(muster_session *s)
{
    if (s->names)
        return s->names;
    Names l = { 0 };
    const Compiled *c = s->compiled;
    for (int i = 0; i < c->nprocs; i++)
        add_name(&l, c->procs[i].name);
    for (int i = 0; i < c->prog->nenums; i++) {
        add_name(&l, c->prog->enums[i].name);
        for (int k = 0; k < c->prog->enums[i].nmembers; k++)
            add_name(&l, c->prog->enums[i].members[k]);
    }
    for (int i = 0; i < c->prog->nrecords; i++)
        add_name(&l, c->prog->records[i].name);
    for (int i = 0; compiler_builtin_name(i); i++)
        add_name(&l, compiler_builtin_name(i));
    static const char *const types[] = { "int", "rat", "bool", "str", "pool" };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        add_name(&l, types[i]);
    for (const char *const *w = lang_keywords; *w; w++)
        add_name(&l, *w);
    if (l.n > 1)
        qsort(l.items, (size_t)l.n, sizeof *l.items, by_text);
    const char **names = mem_alloc(sizeof(char *) * (size_t)(l.n + 1));
    int n = 0;
    for (int i = 0; i < l.n; i++)
        if (n == 0 || strcmp(names[n - 1], l.items[i]))
            names[n++] = l.items[i];
    names[n] = NULL;
    s->names = names;
    return names;
}

const muster_program *muster_session_program(const muster_session *s)
{
    return &s->program;
}
