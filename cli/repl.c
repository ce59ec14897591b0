/* repl.c — `muster repl [FILE]`: a prompt at which one types expressions,
 * declarations and commands (`:prob`, `:load`...) against a script.
 *
 * The session itself (compiling what is typed with the script, the dice
 * that last from one line to the next) is the library's, muster_session_ in
 * muster.h; this file reads the lines and the commands.  Typed at a terminal
 * (standard input, and standard output or error) it reads with libedit,
 * showing the line on the output (or on the error stream when only that is
 * a terminal): the prompt `muster> `,
 * `   ...> ` while an entry is unfinished, history kept in $MUSTER_HISTORY
 * (or ~/.muster_history), Tab completing names, commands and, after :load,
 * file names, and Ctrl-C clearing the line or stopping a :prob.  Otherwise
 * it reads plain lines, with no prompt, so that it can be scripted.
 */
#include "config.h"
#include "muster.h"
#include "cli/repl.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <histedit.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>

#define PROMPT "muster> "
#define MORE_PROMPT "   ...> "
#define HISTORY_SIZE 1000

static const char help_text[] =
    "Type an expression to roll it (sum(roll 2d6), hits(card: 6)), or declarations\n"
    "(enum, proc, table...) to add them to the session; a declaration replaces the one\n"
    "of its name.  An entry goes on over several lines while a bracket is open.\n"
    "\n"
    "  :prob EXPR      the odds of EXPR, as 'muster prob' gives them (Ctrl-C stops)\n"
    "  :explain EXPR   roll EXPR with an account of every roll\n"
    "  :seed [N]       seeded dice from seed N (each expression takes the next seed);\n"
    "                  without N, say which dice are used\n"
    "  :dice [6,3,4]   scripted dice, used in order; without a list, say which are left\n"
    "  :load FILE      start over with FILE (the declarations typed so far are dropped)\n"
    "  :reload         read the script again; the declarations typed are kept, and\n"
    "                  replace the script's of the same name\n"
    "  :list           the procedures, tables and records of the session\n"
    "  :help           this text\n"
    "  :quit           leave (or Ctrl-D)\n";

/* The commands, as completion offers them. */
static const char *const command_names[] = {
    ":dice", ":explain", ":help", ":list", ":load", ":prob", ":quit", ":reload", ":seed", NULL,
};

/* Set by SIGINT: clears the line being typed, or stops a :prob. */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
    (void)sig;
    interrupted = 1;
}

typedef struct Repl {
    muster_ctx *ctx;
    muster_session *s;
    muster_prob_opts prob;
    char *path;              /* the script :reload reads again, or NULL */
    bool interactive;
    FILE *term;              /* where the prompt and the line being edited are shown: the
                                output, or the error stream when only that is a terminal */
    EditLine *el;
    History *hist;
    char *hist_file;         /* NULL: history not kept */
    const char *prompt;
    int line;                /* lines read so far: the line number of the last */
    int status;              /* MUSTER_ERROR once something failed */
    bool quit;
    /* the entry being read: its text, where it starts, and what to do with it */
    char *text;
    size_t len, cap;
    int first_line, column, how;
} Repl;

/* The session for the completion callback (one REPL per process). */
static Repl *the_repl;

static void append(Repl *r, const char *s, size_t n)
{
    if (r->len + n + 1 > r->cap) {
        r->cap = (r->len + n + 1) * 2;
        r->text = realloc(r->text, r->cap);
        if (!r->text) {
            fputs("muster: error: out of memory\n", stderr);
            exit(MUSTER_ERROR);
        }
    }
    memcpy(r->text + r->len, s, n);
    r->len += n;
    r->text[r->len] = '\0';
}

static void clear_entry(Repl *r)
{
    r->len = 0;
    if (r->text)
        r->text[0] = '\0';
}

static bool blank(const char *s)
{
    return s[strspn(s, " \t\r\n")] == '\0';
}

/* ---- reading lines ---- */

enum { GOT_LINE, GOT_END, GOT_CANCEL };

static const char *prompt_of(EditLine *el)
{
    (void)el;
    return the_repl->prompt;
}

/* libedit's read of one character, made to give way to Ctrl-C.  SIGINT is
 * blocked except while waiting for input (ppoll unblocks it as it waits),
 * so a Ctrl-C that comes just before the wait is not lost: once interrupted
 * is set the read fails with EINTR, and el_gets returns. */
static int read_char(EditLine *el, wchar_t *out)
{
    (void)el;
    char bytes[MB_LEN_MAX];
    size_t n = 0;
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    for (;;) {
        sigprocmask(SIG_BLOCK, &block, &old);
        if (interrupted) {
            sigprocmask(SIG_SETMASK, &old, NULL);
            errno = EINTR;
            return -1;
        }
        struct pollfd p = { STDIN_FILENO, POLLIN, 0 };
        int ready = ppoll(&p, 1, NULL, &old);
        sigprocmask(SIG_SETMASK, &old, NULL);
        if (ready < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        ssize_t got = read(STDIN_FILENO, bytes + n, 1);
        if (got == 0)
            return 0;
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        n++;
        mbstate_t state;
        memset(&state, 0, sizeof state);
        size_t k = mbrtowc(out, bytes, n, &state);
        if (k == (size_t)-2 && n < sizeof bytes)
            continue;          /* a character of several bytes, not all here yet */
        if (k == (size_t)-1 || k == (size_t)-2) {
            n = 0;             /* not a character: dropped */
            continue;
        }
        if (k == 0)
            *out = L'\0';
        return 1;
    }
}

/* The next line, without its line break, in *line (the caller frees it). */
static int read_line(Repl *r, char **line)
{
    *line = NULL;
    if (!r->interactive) {
        size_t cap = 0;
        ssize_t n = getline(line, &cap, stdin);
        if (n < 0) {
            free(*line);
            *line = NULL;
            return GOT_END;
        }
        while (n > 0 && ((*line)[n - 1] == '\n' || (*line)[n - 1] == '\r'))
            (*line)[--n] = '\0';
        return GOT_LINE;
    }
    interrupted = 0;
    int count = 0;
    errno = 0;
    /* The terminal stays in libedit's edit mode (no echo, no line
     * discipline, but Ctrl-C still a signal) from one line to the next, also
     * while an entry is worked out: what is typed ahead is read as keys
     * once the prompt is back, never echoed or taken as an end of file by
     * the terminal itself.  el_gets sets the terminal back when it returns. */
    el_set(r->el, EL_PREP_TERM, 1);
    const char *got = el_gets(r->el, &count);
    el_set(r->el, EL_PREP_TERM, 1);
    if (!got || count <= 0) {
        if (interrupted || (count < 0 && errno == EINTR)) {
            /* Ctrl-C: the line (and the entry) is dropped */
            fputc('\n', r->term);
            fflush(r->term);
            return GOT_CANCEL;
        }
        return GOT_END;
    }
    size_t n = strlen(got);
    while (n > 0 && (got[n - 1] == '\n' || got[n - 1] == '\r'))
        n--;
    *line = strndup(got, n);
    return GOT_LINE;
}

static void remember(Repl *r, const char *line)
{
    if (!r->hist || blank(line))
        return;
    HistEvent ev;
    history(r->hist, &ev, H_ENTER, line);
    if (r->hist_file)
        history(r->hist, &ev, H_SAVE, r->hist_file);   /* a history that cannot be written is not kept */
}

/* ---- completion ---- */

typedef struct Matches {
    char **items;
    int n, cap;
} Matches;

static void add_match(Matches *m, const char *s)
{
    for (int i = 0; i < m->n; i++)
        if (!strcmp(m->items[i], s))
            return;
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 32;
        m->items = realloc(m->items, sizeof *m->items * (size_t)m->cap);
    }
    m->items[m->n++] = strdup(s);
}

static void free_matches(Matches *m)
{
    for (int i = 0; i < m->n; i++)
        free(m->items[i]);
    free(m->items);
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files (and folders, with a '/') whose path starts with word. */
static void file_matches(const char *word, Matches *m)
{
    const char *slash = strrchr(word, '/');
    size_t dirlen = slash ? (size_t)(slash - word) + 1 : 0;
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", (int)dirlen, word);
    const char *base = word + dirlen;
    DIR *d = opendir(dirlen ? dir : ".");
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (e->d_name[0] == '.' && base[0] != '.')
            continue;
        if (strncmp(e->d_name, base, strlen(base)))
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s%s", dir, e->d_name);
        struct stat st;
        bool folder = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
        if (folder)
            strcat(path, "/");
        add_match(m, path);
    }
    closedir(d);
    if (m->n > 1)
        qsort(m->items, (size_t)m->n, sizeof *m->items, by_text);
}

/* The candidates below the line, in columns as wide as the terminal. */
static void list_matches(FILE *out, const Matches *m)
{
    size_t width = 0;
    for (int i = 0; i < m->n; i++)
        if (strlen(m->items[i]) > width)
            width = strlen(m->items[i]);
    width += 2;
    struct winsize ws;
    size_t cols = ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col ? ws.ws_col : 80;
    size_t per_line = cols / width ? cols / width : 1;
    size_t rows = ((size_t)m->n + per_line - 1) / per_line;
    fputc('\n', out);
    for (size_t row = 0; row < rows; row++) {
        for (size_t col = 0; col < per_line; col++) {
            size_t i = col * rows + row;
            if (i >= (size_t)m->n)
                break;
            bool last = col + 1 == per_line || (col + 1) * rows + row >= (size_t)m->n;
            if (last)
                fputs(m->items[i], out);
            else
                fprintf(out, "%-*s", (int)width, m->items[i]);
        }
        fputc('\n', out);
    }
    fflush(out);
}

/* Complete word (the text before the cursor that is being typed) from the
 * matches: the rest of the one match (and `after` it), or what all the
 * matches share, or else a list of them. */
static unsigned char offer(EditLine *el, const char *word, Matches *m, const char *after)
{
    size_t wlen = strlen(word);
    if (m->n == 0)
        return CC_REFRESH_BEEP;
    size_t common = strlen(m->items[0]);
    for (int i = 1; i < m->n; i++) {
        size_t k = 0;
        while (k < common && m->items[i][k] == m->items[0][k])
            k++;
        common = k;
    }
    if (m->n == 1) {
        const char *one = m->items[0];
        el_insertstr(el, one + wlen);
        size_t n = strlen(one);
        if (after && n && one[n - 1] != '/')
            el_insertstr(el, after);
        return CC_REFRESH;
    }
    if (common > wlen) {
        char *more = strndup(m->items[0] + wlen, common - wlen);
        el_insertstr(el, more);
        free(more);
        return CC_REFRESH;
    }
    list_matches(the_repl->term, m);
    return CC_REDISPLAY;
}

static bool name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static unsigned char complete(EditLine *el, int ch)
{
    (void)ch;
    Repl *r = the_repl;
    const LineInfo *li = el_line(el);
    size_t cursor = (size_t)(li->cursor - li->buffer);
    char *line = strndup(li->buffer, cursor);
    Matches m = { 0 };
    unsigned char result;
    size_t lead = strspn(line, " \t");
    if (r->len == 0 && line[lead] == ':' && !strpbrk(line + lead, " \t")) {
        /* a command's name */
        for (int i = 0; command_names[i]; i++)
            if (!strncmp(command_names[i], line + lead, strlen(line + lead)))
                add_match(&m, command_names[i]);
        result = offer(el, line + lead, &m, " ");
    } else if (r->len == 0 && !strncmp(line + lead, ":load", 5) && (line[lead + 5] == ' ' || line[lead + 5] == '\t')) {
        /* :load FILE: a file name */
        const char *word = line + lead + 5;
        word += strspn(word, " \t");
        file_matches(word, &m);
        result = offer(el, word, &m, NULL);
    } else {
        size_t start = cursor;
        while (start > 0 && name_char(line[start - 1]))
            start--;
        const char *word = line + start;
        if (!*word) {
            el_insertstr(el, "\t");   /* Tab with no name begun is a Tab (to indent a body) */
            result = CC_REFRESH;
        } else if (isdigit((unsigned char)*word)) {
            result = CC_REFRESH_BEEP;
        } else {
            for (const char *const *n = muster_session_names(r->s); *n; n++)
                if (!strncmp(*n, word, strlen(word)))
                    add_match(&m, *n);
            result = offer(el, word, &m, NULL);
        }
    }
    free_matches(&m);
    free(line);
    return result;
}

/* ---- commands ---- */

/* "~/x" is x in the home folder. */
static char *expand_home(const char *path)
{
    const char *home = getenv("HOME");
    if (path[0] == '~' && (path[1] == '/' || !path[1]) && home && *home) {
        size_t n = strlen(home) + strlen(path);
        char *out = malloc(n);
        snprintf(out, n, "%s%s", home, path + 1);
        return out;
    }
    return strdup(path);
}

static void failed(Repl *r)
{
    r->status = MUSTER_ERROR;
}

static void say_error(Repl *r, const char *fmt, const char *arg)
{
    fflush(stdout);
    fputs("muster: error: ", stderr);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    failed(r);
}

static void load(Repl *r, const char *arg, bool again)
{
    if (again && !r->path) {
        say_error(r, "%snothing to reload: no script was loaded (:load FILE loads one)", "");
        return;
    }
    char *path = again ? strdup(r->path) : expand_home(arg);
    if (!*path) {
        free(path);
        say_error(r, "%s:load needs a FILE", "");
        return;
    }
    fflush(stdout);
    if (muster_session_load(r->s, path, again) != MUSTER_OK) {
        fflush(stderr);
        /* a script that never loaded is the one :reload tries again */
        if (!r->path)
            r->path = path;
        else
            free(path);
        if (again)
            fputs("muster: the session is as it was before :reload\n", stderr);
        else if (r->line)
            fputs("muster: the session is as it was before :load\n", stderr);
        failed(r);
        return;
    }
    if (again)
        printf("reloaded %s (the declarations typed at the prompt are kept)\n", path);
    else
        printf("loaded %s\n", path);
    if (r->path != path)
        free(r->path);
    r->path = path;
}

static bool parse_seed(const char *s, uint64_t *out)
{
    if (!*s || !isdigit((unsigned char)*s))
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

static void start_entry(Repl *r, const char *text, int column, int how);

/* A line starting with ':'. */
static void command(Repl *r, const char *line)
{
    const char *p = line + strspn(line, " \t") + 1;
    size_t n = strcspn(p, " \t");
    const char *arg = p + n + strspn(p + n, " \t");
    char name[32];
    snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), p);
    char *trimmed = strdup(arg);
    size_t tl = strlen(trimmed);
    while (tl && (trimmed[tl - 1] == ' ' || trimmed[tl - 1] == '\t'))
        trimmed[--tl] = '\0';
    int column = (int)(arg - line) + 1;
    if (!strcmp(name, "quit") || !strcmp(name, "q") || !strcmp(name, "exit")) {
        r->quit = true;
    } else if (!strcmp(name, "help") || !strcmp(name, "h") || !strcmp(name, "?")) {
        fputs(help_text, stdout);
    } else if (!strcmp(name, "load")) {
        load(r, trimmed, false);
    } else if (!strcmp(name, "reload")) {
        if (*trimmed)
            say_error(r, ":reload takes nothing after it (:load %s loads another script)", trimmed);
        else
            load(r, NULL, true);
    } else if (!strcmp(name, "prob") || !strcmp(name, "explain")) {
        if (blank(trimmed))
            say_error(r, !strcmp(name, "prob") ? ":prob needs an expression, as in :prob sum(roll 2d6)"
                                               : ":explain needs an expression, as in :explain sum(roll 2d6)", "");
        else
            start_entry(r, arg, column, !strcmp(name, "prob") ? MUSTER_EVAL_PROB : MUSTER_EVAL_EXPLAIN);
    } else if (!strcmp(name, "seed")) {
        uint64_t seed;
        if (!*trimmed) {
            muster_session_dice(r->s, NULL);
        } else if (!parse_seed(trimmed, &seed)) {
            say_error(r, ":seed needs a whole number, not '%s'", trimmed);
        } else {
            muster_run_opts o = { .have_seed = 1, .seed = seed };
            muster_session_dice(r->s, &o);
            muster_session_dice(r->s, NULL);
        }
    } else if (!strcmp(name, "dice")) {
        if (!*trimmed) {
            muster_session_dice(r->s, NULL);
        } else {
            muster_run_opts o = { .dice = trimmed };
            fflush(stdout);
            if (muster_session_dice(r->s, &o) != MUSTER_OK)
                failed(r);
            else
                muster_session_dice(r->s, NULL);
        }
    } else if (!strcmp(name, "list")) {
        muster_list(r->ctx, muster_session_program(r->s));
    } else {
        char shown[64];
        snprintf(shown, sizeof shown, "%.*s", (int)(n < 40 ? n : 40), p);
        say_error(r, "unknown command ':%s'; :help lists the commands", shown);
    }
    free(trimmed);
    fflush(stdout);
}

/* ---- entries ---- */

static void start_entry(Repl *r, const char *text, int column, int how)
{
    clear_entry(r);
    append(r, text, strlen(text));
    r->first_line = r->line;
    r->column = column;
    r->how = how;
}

static void evaluate(Repl *r)
{
    interrupted = 0;
    r->prob.interrupt = r->interactive ? &interrupted : NULL;
    int st = muster_session_eval(r->s, r->text, r->first_line, r->column, r->how, &r->prob);
    r->prob.interrupt = NULL;
    if (st != MUSTER_OK && st != MUSTER_INTERRUPTED)   /* stopping a :prob is no error */
        failed(r);
    clear_entry(r);
    fflush(stdout);
    fflush(stderr);
}

/* ---- the terminal ---- */

static char *history_path(void)
{
    const char *env = getenv("MUSTER_HISTORY");
    if (env)
        return *env ? strdup(env) : NULL;
    const char *home = getenv("HOME");
    if (!home || !*home)
        return NULL;
    size_t n = strlen(home) + sizeof "/.muster_history";
    char *path = malloc(n);
    snprintf(path, n, "%s/.muster_history", home);
    return path;
}

static void open_terminal(Repl *r)
{
    r->el = el_init("muster", stdin, r->term, stderr);
    if (!r->el) {
        r->interactive = false;
        return;
    }
    el_set(r->el, EL_EDITOR, "emacs");
    el_set(r->el, EL_PROMPT, prompt_of);
    el_set(r->el, EL_GETCFN, read_char);
    r->hist = history_init();
    if (r->hist) {
        HistEvent ev;
        history(r->hist, &ev, H_SETSIZE, HISTORY_SIZE);
        history(r->hist, &ev, H_SETUNIQUE, 1);
        r->hist_file = history_path();
        if (r->hist_file)
            history(r->hist, &ev, H_LOAD, r->hist_file);   /* none yet is no history */
        el_set(r->el, EL_HIST, history, r->hist);
    }
    el_set(r->el, EL_ADDFN, "muster-complete", "complete a name, a command or a file name", complete);
    el_set(r->el, EL_BIND, "^I", "muster-complete", NULL);
    el_source(r->el, NULL);   /* the user's ~/.editrc */
    /* Ctrl-C while reading (read_char) or while working (a :prob) */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
}

static void close_terminal(Repl *r)
{
    if (r->el)
        el_set(r->el, EL_PREP_TERM, 0);
    if (r->hist) {
        HistEvent ev;
        if (r->hist_file)
            history(r->hist, &ev, H_SAVE, r->hist_file);
        history_end(r->hist);
    }
    if (r->el)
        el_end(r->el);
    free(r->hist_file);
}

int repl_main(muster_ctx *ctx, const ReplOptions *o, const char *path)
{
    Repl r = { .ctx = ctx, .prob = o->prob, .status = MUSTER_OK, .prompt = PROMPT };
    the_repl = &r;
    r.s = muster_session_new(ctx, "<repl>", &o->run);
    if (!r.s) {
        muster_error *e = muster_last_error(ctx);
        int st = e ? e->status : MUSTER_USAGE;
        muster_error_free(e);
        return st;
    }
    /* typed at a terminal: edited there, with the prompt on the output or,
     * when that goes to a file or a pipe, on the error stream */
    r.term = isatty(STDOUT_FILENO) ? stdout : isatty(STDERR_FILENO) ? stderr : NULL;
    r.interactive = isatty(STDIN_FILENO) && r.term;
    if (r.interactive) {
        setlocale(LC_CTYPE, "");   /* the terminal's characters, for libedit */
        open_terminal(&r);
    }
    if (r.interactive) {
        fprintf(r.term, "muster %s: type an expression or a declaration; :help for the commands, Ctrl-D to leave\n",
                muster_version());
        fflush(r.term);
    }
    if (path)
        load(&r, path, false);
    while (!r.quit) {
        r.prompt = r.len ? MORE_PROMPT : PROMPT;
        char *line;
        int got = read_line(&r, &line);
        if (got == GOT_CANCEL) {
            clear_entry(&r);
            continue;
        }
        if (got == GOT_END) {
            if (r.len)
                evaluate(&r);   /* an unfinished entry says what it lacks */
            if (r.interactive)
                fputc('\n', r.term);
            break;
        }
        r.line++;
        remember(&r, line);
        if (r.len == 0) {
            const char *first = line + strspn(line, " \t");
            if (!*first) {
                free(line);
                continue;
            }
            if (*first == ':')
                command(&r, line);
            else
                start_entry(&r, line, 1, MUSTER_EVAL_RUN);
        } else {
            append(&r, "\n", 1);
            append(&r, line, strlen(line));
        }
        free(line);
        if (r.len && !muster_session_incomplete(r.text))
            evaluate(&r);
    }
    if (r.interactive)
        close_terminal(&r);
    muster_session_free(r.s);
    free(r.text);
    free(r.path);
    fflush(stdout);
    return r.status;
}
