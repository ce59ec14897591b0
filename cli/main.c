/* main.c — the `muster` command: parses options and calls libmuster.
 *
 * It includes only the public muster.h and holds no language logic.  One
 * table, option_table, says for every option its kind, the commands it goes
 * with and the values it allows; getopt_long's tables and the usage errors
 * (exit 2) are made from it, and every option is checked, conflicts
 * included, before any file is read.  Also here: the help text, the default
 * thread count (one per core, at most 64), colour on a terminal unless
 * NO_COLOR is set, the search for .muster files under a directory for
 * `muster test`, and Ctrl-C while prob or diff works out odds (the library
 * only reads a flag; the signal handler is the command's).
 */
#include "config.h"
#include "muster.h"
#include "cli/complete.h"
#include "cli/repl.h"

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <dirent.h>
#include <getopt.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <spawn.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <signal.h>

extern char **environ;

static const char usage_text[] =
    "Usage: muster COMMAND [OPTION]... FILE [PROC] [NAME=VALUE]...\n"
    "Compile and run wargame rules written in the muster language.\n"
    "\n"
    "Commands:\n"
    "  check FILE...             compile each script, report any error, run its examples\n"
    "  run FILE PROC [NAME=VALUE]...\n"
    "                            run a procedure and print its result\n"
    "  prob FILE PROC [NAME=VALUE]...\n"
    "                            the odds of each result of a procedure (exact, or simulated);\n"
    "                            NAME=A,B,C lists values: one row of odds per combination\n"
    "  prob -e EXPRESSION        the odds of a one-off expression, as in -e 'count(roll 6d6 >= 4)'\n"
    "  run -e EXPRESSION         roll a one-off expression once\n"
    "  test FILE|DIR...          run the examples of each script (DIR: every .muster in it)\n"
    "  turn FILE                 print the turn sequence as a checklist\n"
    "  sheet FILE [NAME...] [--md|--html|--pdf=F] [--review]\n"
    "                            the script as a quick reference sheet (Markdown by default);\n"
    "                            NAMEs: only those declarations and sections\n"
    "  diff BASE VARIANT [PROC [NAME=VALUE]...]\n"
    "                            what a house rule changes: declarations, the rules' examples,\n"
    "                            and the odds of PROC (or of every procedure without arguments)\n"
    "  dis FILE                  print the compiled bytecode\n"
    "  dis FILE PROC [ARG=VALUE...]  the bytecode 'prob' simulates for these arguments (--choose, --field)\n"
    "  repl [FILE]               an interactive prompt: expressions, declarations, :prob, :explain...\n"
    "                            (--seed, --dice, --choose; --trials, --budget, --threads for :prob)\n"
    "\n"
    "Options for run:\n"
    "      --seed=N              seed the dice (the same seed gives the same rolls)\n"
    "      --dice=6,3,4          use these dice, in order, instead of random ones\n"
    "      --explain             show every roll on the way to the result\n"
    "      --json                print {\"result\": ..., \"log\": [...]}\n"
    "      --choose=CHOICE=OPTION  take OPTION at CHOICE instead of its default (run and prob;\n"
    "                            may be repeated)\n"
    "Options for sheet:\n"
    "      --md, --html          Markdown (the default), or one self-contained HTML page\n"
    "      --review              every declaration as written, grouped by kind, for checking a port\n"
    "                            against its text (the default is the table sheet a player prints)\n"
    "      --paper=a4|letter     the table sheet's paper, landscape (default a4)\n"
    "      --pdf=FILE            print the HTML sheet to FILE with headless Chromium\n"
    "Options for prob (exact odds when counting them is quick, else a simulation):\n"
    "      --exact               exact odds however long they take, or an error past the budget\n"
    "      --budget=N            runs the exact count may take (default 2000000)\n"
    "      --trials=N            simulate N runs instead (default 100000 when simulating)\n"
    "      --seed=N              seed the simulation\n"
    "      --threads=T           simulate on T threads (default: every core); the result is the same for any T\n"
    "      --json, --csv         machine-readable output\n"
    "      --svg=FILE            also write a bar chart of the odds to FILE (SVG); '-': the chart\n"
    "                            instead of the text\n"
    "      --html                one HTML page: the odds table and the chart\n"
    "      --vs=VARIANT.muster   the same procedure under a house rule, beside these odds;\n"
    "                            may be repeated\n"
    "      --field=NAME          when PROC returns a record, the odds of that field of it\n"
    "      --no-specialize       simulate PROC as written, not compiled for its fixed arguments\n"
    "                            (slower; the same counts)\n"
    "Limits (run, prob and repl):\n"
    "      --max-steps=N         instructions per run before giving up (default 100000000)\n"
    "      --max-depth=N         nested calls before giving up (default 1000)\n"
    "\n"
    "  -h, --help                show this help and exit\n"
    "  -V, --version             show the version and exit\n"
    "\n"
    "Exit status: 0 success, 1 an error in the rules (compile or run), 2 a usage error,\n"
    "130 interrupted (Ctrl-C).\n"
    "Diagnostics are coloured on a terminal unless NO_COLOR is set.\n"
    "Report bugs at " PACKAGE_BUGREPORT "\n";

static int print_version(void)
{
    printf("muster %s\n"
           "Copyright (c) 2026 The muster authors.\n"
           "License MIT: the terms are in the LICENSE file of the source.\n"
           "This is free software: you are free to change and redistribute it.\n"
           "There is NO WARRANTY, to the extent permitted by law.\n", muster_version());
    const char *stdlib = muster_stdlib_dir();
    printf("Standard library: %s\n", stdlib ? stdlib : "not found (reinstall muster, or set MUSTER_PATH)");
    return 0;
}

/* A path as text for a terminal: its control characters (a file name may
 * hold any byte but '/') written as \x1b, never raw. */
static void put_path(FILE *out, const char *path)
{
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            fprintf(out, "\\x%02x", *p);
        else
            fputc(*p, out);
    }
}

/* The script at path, or for "-" the script on standard input (read
 * once: a second "-" gets the same text), named <stdin> in diagnostics
 * and found imports beside the current folder. */
static muster_program *load_script(muster_ctx *ctx, const char *path)
{
    if (strcmp(path, "-"))
        return muster_load(ctx, path);
    static char *text;
    static size_t len;
    static bool read_already;
    enum { MAX_SCRIPT = 64 << 20 };   /* as for a file */
    if (!read_already) {
        read_already = true;
        size_t cap = 0;
        for (;;) {
            if (len == cap) {
                cap = cap ? cap * 2 : 65536;
                text = realloc(text, cap + 1);
            }
            size_t got = fread(text + len, 1, cap - len, stdin);
            len += got;
            if (len > MAX_SCRIPT) {
                fprintf(stderr, "muster: error: the script on standard input is too big (over %d MiB)\n",
                        MAX_SCRIPT >> 20);
                free(text);
                text = NULL;
                return NULL;
            }
            if (got == 0)
                break;
        }
        if (ferror(stdin)) {
            fprintf(stderr, "muster: error: cannot read the script from standard input: %s\n", strerror(errno));
            free(text);
            text = NULL;
            return NULL;
        }
    }
    if (!text)
        return NULL;
    return muster_load_string(ctx, "<stdin>", text, len);
}

static int usage_error(const char *fmt, const char *arg)
{
    char text[1024];
    snprintf(text, sizeof text, fmt, arg);   /* arg is what was typed: written as text */
    fputs("muster: error: ", stderr);
    put_path(stderr, text);
    fputs("\nTry 'muster --help' for more information.\n", stderr);
    return MUSTER_USAGE;
}

static int parse_u64(const char *s, uint64_t *out)
{
    if (!*s || *s == '-')
        return 0;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end)
        return 0;
    *out = v;
    return 1;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files and folders a walk has been through, by device and inode: a
 * folder reached again through a link (`up -> ..`) is not walked again,
 * and a script reached by two names is tested once. */
typedef struct Seen {
    struct { dev_t dev; ino_t ino; } *ids;
    int n, cap;
} Seen;

/* True if st's file was seen before; else it is now. */
static int seen_before(Seen *seen, const struct stat *st)
{
    for (int i = 0; i < seen->n; i++)
        if (seen->ids[i].dev == st->st_dev && seen->ids[i].ino == st->st_ino)
            return 1;
    if (seen->n == seen->cap) {
        seen->cap = seen->cap ? seen->cap * 2 : 64;
        seen->ids = realloc(seen->ids, sizeof *seen->ids * (size_t)seen->cap);
    }
    seen->ids[seen->n].dev = st->st_dev;
    seen->ids[seen->n].ino = st->st_ino;
    seen->n++;
    return 0;
}

static void add_file(char ***files, int *n, int *cap, char *path)
{
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        *files = realloc(*files, sizeof **files * (size_t)*cap);
    }
    (*files)[(*n)++] = path;
}

/* Every .muster file below dir (a folder not seen before), in name order,
 * appended to *files; each real file and folder once. */
static void find_scripts(const char *dir, Seen *seen, char ***files, int *n, int *cap)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char **here = NULL;
    int nhere = 0, caphere = 0;
    /* "rules/" and "rules//" give "rules/x.muster", as "rules" does */
    int dlen = (int)strlen(dir);
    while (dlen > 1 && dir[dlen - 1] == '/')
        dlen--;
    const char *sep = dir[dlen - 1] == '/' ? "" : "/";
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        size_t len = (size_t)dlen + strlen(e->d_name) + 2;
        char *path = malloc(len);
        snprintf(path, len, "%.*s%s%s", dlen, dir, sep, e->d_name);
        if (nhere == caphere) {
            caphere = caphere ? caphere * 2 : 16;
            here = realloc(here, sizeof *here * (size_t)caphere);
        }
        here[nhere++] = path;
    }
    closedir(d);
    if (nhere > 1)
        qsort(here, (size_t)nhere, sizeof *here, by_name);
    for (int i = 0; i < nhere; i++) {
        struct stat st;
        if (stat(here[i], &st) != 0)
            continue;
        size_t len = strlen(here[i]);
        if (S_ISDIR(st.st_mode)) {
            if (!seen_before(seen, &st))
                find_scripts(here[i], seen, files, n, cap);
        } else if (len > 7 && !strcmp(here[i] + len - 7, ".muster") && !seen_before(seen, &st)) {
            add_file(files, n, cap, here[i]);
        }
    }
    free(here);
}

/* The commands, one bit each: an option lists the commands it goes with. */
enum {
    CMD_CHECK = 1 << 0, CMD_TEST = 1 << 1, CMD_TURN = 1 << 2, CMD_SHEET = 1 << 3,
    CMD_DIS = 1 << 4, CMD_RUN = 1 << 5, CMD_PROB = 1 << 6, CMD_DIFF = 1 << 7, CMD_REPL = 1 << 8,
    CMD_ALL = (1 << 9) - 1,
    CMD_RUN_PROB = CMD_RUN | CMD_PROB,
};

typedef struct Strings {
    char **items;
    int n;
} Strings;

/* Everything the options say; each field is named by one row of option_table. */
typedef struct Options {
    muster_run_opts run;        /* --dice, --explain */
    muster_prob_opts prob;      /* --csv, --trials, --field, --exact, --budget, --vs, --no-specialize, --svg */
    uint64_t seed, threads, max_steps, max_depth;
    int json, md, html, review;
    const char *paper;          /* --paper: a4 or letter */
    const char *pdf;            /* --pdf FILE */
    const char *expression;     /* -e */
    Strings choices;            /* --choose, in the order given */
    Strings vs;                 /* --vs, in the order given */
    unsigned long given;        /* bit i: the option of option_table[i] was given */
} Options;

/* The options, in the order check_options looks at them (so run's and
 * prob's come before the others) and the usage errors list them. */
enum {
    O_SEED, O_DICE, O_EXPLAIN, O_JSON, O_CHOOSE, O_CSV, O_TRIALS, O_FIELD, O_EXACT, O_BUDGET,
    O_VS, O_THREADS, O_NO_SPECIALIZE, O_SVG, O_EXPRESSION, O_MD, O_HTML, O_REVIEW, O_PAPER, O_PDF,
    O_MAX_STEPS, O_MAX_DEPTH,
    NOPTIONS
};

enum Kind {
    FLAG,      /* sets an int to 1 */
    TEXT,      /* a const char *: the value as typed */
    LIST,      /* appends the value to a Strings */
    NUMBER,    /* a uint64_t from min to max */
};

typedef struct OptionSpec {
    const char *name;       /* --name, or NULL for a short option only */
    char letter;            /* -letter, or 0 */
    enum Kind kind;
    unsigned commands;      /* the commands it goes with (CMD_...) */
    size_t field;           /* where its value goes, as an offset in Options */
    uint64_t min, max;      /* NUMBER: the values allowed */
    cli_value value;        /* what its value is, for `muster complete` */
    const char *const *words;   /* CLI_VALUE_WORDS: the values allowed */
} OptionSpec;

/* getopt_long gives a long option's row as ID_BASE + its index, past any letter. */
enum { ID_BASE = 256 };

/* offsetof, as a builtin: this file does without <stddef.h> */
#define FIELD(member) offsetof(Options, member)

static const char *const paper_sizes[] = { "a4", "letter", NULL };

static const OptionSpec option_table[NOPTIONS] = {
    [O_SEED] = { "seed", 0, NUMBER, CMD_RUN_PROB | CMD_DIFF | CMD_REPL, FIELD(seed), 0, UINT64_MAX },
    [O_DICE] = { "dice", 0, TEXT, CMD_RUN | CMD_REPL, FIELD(run.dice), 0, 0 },
    [O_EXPLAIN] = { "explain", 0, FLAG, CMD_RUN, FIELD(run.explain), 0, 0 },
    [O_JSON] = { "json", 0, FLAG, CMD_RUN_PROB, FIELD(json), 0, 0 },
    [O_CHOOSE] = { "choose", 0, LIST, CMD_RUN_PROB | CMD_DIS | CMD_DIFF | CMD_REPL, FIELD(choices), 0, 0, CLI_VALUE_CHOICE },
    [O_CSV] = { "csv", 0, FLAG, CMD_PROB, FIELD(prob.csv), 0, 0 },
    [O_TRIALS] = { "trials", 0, NUMBER, CMD_PROB | CMD_DIFF | CMD_REPL, FIELD(prob.trials), 1, UINT64_MAX },
    [O_FIELD] = { "field", 0, TEXT, CMD_PROB | CMD_DIS | CMD_DIFF, FIELD(prob.field), 0, 0 },
    [O_EXACT] = { "exact", 0, FLAG, CMD_PROB, FIELD(prob.exact), 0, 0 },
    [O_BUDGET] = { "budget", 0, NUMBER, CMD_PROB | CMD_DIFF | CMD_REPL, FIELD(prob.budget), 1, UINT64_MAX },
    [O_VS] = { "vs", 0, LIST, CMD_PROB, FIELD(vs), 0, 0, CLI_VALUE_SCRIPT },
    [O_THREADS] = { "threads", 0, NUMBER, CMD_PROB | CMD_DIFF | CMD_REPL, FIELD(threads), 1, 256 },
    [O_NO_SPECIALIZE] = { "no-specialize", 0, FLAG, CMD_PROB, FIELD(prob.no_specialize), 0, 0 },
    [O_SVG] = { "svg", 0, TEXT, CMD_PROB, FIELD(prob.svg), 0, 0, CLI_VALUE_FILE },
    [O_EXPRESSION] = { NULL, 'e', TEXT, CMD_RUN_PROB, FIELD(expression), 0, 0, CLI_VALUE_EXPRESSION },
    [O_MD] = { "md", 0, FLAG, CMD_SHEET, FIELD(md), 0, 0 },
    [O_HTML] = { "html", 0, FLAG, CMD_SHEET | CMD_PROB, FIELD(html), 0, 0 },
    [O_REVIEW] = { "review", 0, FLAG, CMD_SHEET, FIELD(review), 0, 0 },
    [O_PAPER] = { "paper", 0, TEXT, CMD_SHEET, FIELD(paper), 0, 0, CLI_VALUE_WORDS, paper_sizes },
    [O_PDF] = { "pdf", 0, TEXT, CMD_SHEET, FIELD(pdf), 0, 0, CLI_VALUE_FILE },
    [O_MAX_STEPS] = { "max-steps", 0, NUMBER, CMD_ALL, FIELD(max_steps), 1, UINT64_MAX },
    [O_MAX_DEPTH] = { "max-depth", 0, NUMBER, CMD_ALL, FIELD(max_depth), 1, 100000 },
};

/* Two options that cannot be given together, for these commands.  Each is
 * checked as check_options reaches option row `before` (NOPTIONS: after
 * them all), which sets which of several errors is reported. */
typedef struct Conflict {
    int a, b;
    unsigned commands;
    int before;
    const char *message;    /* NULL: "choose one of A and B" */
    int dash;               /* only when a's value is "-" (standard output) */
} Conflict;

static const Conflict conflicts[] = {
    { O_EXACT, O_TRIALS, CMD_ALL & ~CMD_RUN, 0, NULL, 0 },   /* run: they go with prob, said first */
    { O_JSON, O_CSV, CMD_PROB, O_MD, NULL, 0 },
    { O_JSON, O_HTML, CMD_PROB, O_MD, NULL, 0 },
    { O_CSV, O_HTML, CMD_PROB, O_MD, NULL, 0 },
    { O_SVG, O_JSON, CMD_PROB, O_MD, "--svg - writes the chart instead of the odds; it does not go with --json", 1 },
    { O_SVG, O_CSV, CMD_PROB, O_MD, "--svg - writes the chart instead of the odds; it does not go with --csv", 1 },
    { O_SVG, O_HTML, CMD_PROB, O_MD, "--svg - writes the chart instead of the odds; --html has it already", 1 },
    { O_MD, O_HTML, CMD_SHEET, NOPTIONS, NULL, 0 },
    { O_PDF, O_MD, CMD_SHEET, NOPTIONS, "--pdf prints the HTML sheet; it does not go with --md", 0 },
    { O_VS, O_EXPRESSION, CMD_PROB, NOPTIONS, "--vs compares scripts; it does not go with -e", 0 },
};

/* What a command works on: the operands after the options and, for a
 * command that loads one script, the program, the procedure and its
 * NAME=VALUE arguments. */
typedef struct Target {
    char **pos;
    int npos;
    muster_program *prog;
    const char *proc;           /* NULL: none named */
    char *const *args;
    int nargs;
} Target;

typedef int command_fn(muster_ctx *ctx, Options *o, const Target *t);

/* muster test: the examples of every script named or found; one line each,
 * then the totals. */
static int cmd_test(muster_ctx *ctx, Options *o, const Target *t)
{
    char **pos = t->pos;
    int npos = t->npos;
    if (npos == 0)
        return usage_error("%stest needs at least one FILE or DIR", "");
    char **files = NULL;
    int n = 0, cap = 0;
    Seen seen = { 0 };
    for (int i = 0; i < npos; i++) {
        struct stat st;
        if (stat(pos[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            int before = n;
            if (!seen_before(&seen, &st))
                find_scripts(pos[i], &seen, &files, &n, &cap);
            if (n == before) {
                fputs("muster: warning: no .muster files in ", stderr);
                put_path(stderr, pos[i]);
                fputc('\n', stderr);
            }
            continue;
        }
        /* a file named is tested as named (a missing one is reported);
         * a folder's walk does not test it again */
        if (stat(pos[i], &st) == 0)
            seen_before(&seen, &st);
        add_file(&files, &n, &cap, pos[i]);
    }
    free(seen.ids);
    int passed = 0, failed = 0;
    for (int i = 0; i < n; i++) {
        muster_program *prog = load_script(ctx, files[i]);
        if (!prog) {
            fputs("FAIL ", stdout);
            put_path(stdout, files[i]);
            fputs(": does not compile\n", stdout);
            failed++;
            continue;
        }
        muster_test(ctx, prog, &passed, &failed);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? MUSTER_ERROR : MUSTER_OK;
}


/* muster check: compile each script and run its examples; "ok" for each
 * that passes. */
static int cmd_check(muster_ctx *ctx, Options *o, const Target *t)
{
    if (t->npos == 0)
        return usage_error("%scheck needs at least one FILE", "");
    int status = MUSTER_OK;
    for (int i = 0; i < t->npos; i++) {
        muster_program *prog = load_script(ctx, t->pos[i]);
        int passed = 0, failed = 0;
        if (!prog || muster_check(ctx, prog, &passed, &failed) != MUSTER_OK) {
            status = MUSTER_ERROR;
            continue;
        }
        put_path(stdout, t->pos[i]);
        if (passed)
            printf(": ok (%d example%s pass)\n", passed, passed == 1 ? "" : "s");
        else
            fputs(": ok\n", stdout);
    }
    return status;
}

static int cmd_turn(muster_ctx *ctx, Options *o, const Target *t)
{
    return muster_turn(ctx, t->prog);
}

/* ---- running a browser for --pdf ---- */

static bool on_path(const char *name)
{
    if (strchr(name, '/'))
        return access(name, X_OK) == 0;
    const char *path = getenv("PATH");
    if (!path)
        return false;
    char buf[4096];
    for (const char *p = path; *p;) {
        const char *end = strchr(p, ':');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, name);
        if (n && access(buf, X_OK) == 0)
            return true;
        p += n + (end ? 1 : 0);
    }
    return false;
}

/* Run argv with its output thrown away; its exit status, or -1. */
static int run_quietly(char *const argv[])
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int st = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (st != 0)
        return -1;
    int status;
    if (waitpid(pid, &status, 0) < 0)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static long long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/* Remove a folder this process made, and what is in it. */
static void remove_tree(const char *dir)
{
    char *argv[] = { "rm", "-rf", (char *)dir, NULL };
    run_quietly(argv);
}

/* --pdf FILE: the HTML sheet printed by headless Chromium. */
static int sheet_pdf(muster_ctx *ctx, Options *o, const Target *t, muster_sheet_opts *so)
{
    const char *browsers[] = { getenv("MUSTER_CHROMIUM"), "chromium", "chromium-browser", "google-chrome", NULL };
    const char *browser = NULL;
    for (int i = 0; !browser && i < 4; i++)
        if (browsers[i] && *browsers[i] && on_path(browsers[i]))
            browser = browsers[i];
    if (!browser) {
        fputs("muster: error: --pdf prints the sheet with headless Chromium, and none was found (chromium, "
              "chromium-browser or google-chrome on PATH, or MUSTER_CHROMIUM); write the page with --html and "
              "print it from a browser\n", stderr);
        return MUSTER_USAGE;
    }
    char dir[] = "/tmp/muster-pdf-XXXXXX";
    if (!mkdtemp(dir)) {
        fprintf(stderr, "muster: error: cannot make a folder for the page: %s\n", strerror(errno));
        return MUSTER_ERROR;
    }
    char page[64], profile[64];
    snprintf(page, sizeof page, "%s/sheet.html", dir);
    snprintf(profile, sizeof profile, "%s/profile", dir);
    FILE *f = fopen(page, "w");
    int st = MUSTER_ERROR;
    if (f) {
        muster_ctx *to_file = muster_new(f, stderr, 0);
        so->html = 1;
        st = muster_sheet(to_file, t->prog, so);
        fclose(f);
    }
    if (st == MUSTER_OK) {
        char *out = realpath(".", NULL);
        char target[4096];
        if (o->pdf[0] == '/' || !out)
            snprintf(target, sizeof target, "%s", o->pdf);
        else
            snprintf(target, sizeof target, "%s/%s", out, o->pdf);
        free(out);
        char print_to[4200], url[128], user[128];
        snprintf(print_to, sizeof print_to, "--print-to-pdf=%s", target);
        snprintf(url, sizeof url, "file://%s", page);
        snprintf(user, sizeof user, "--user-data-dir=%s", profile);
        char *argv[] = { (char *)browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                         "--disable-background-networking", "--disable-component-update", "--disable-sync",
                         "--no-pdf-header-footer", user, print_to, url, NULL };
        st = run_quietly(argv) == 0 && file_size(target) > 0 ? MUSTER_OK : MUSTER_ERROR;
        if (st != MUSTER_OK) {
            fputs("muster: error: ", stderr);
            put_path(stderr, browser);
            fputs(" did not write ", stderr);
            put_path(stderr, o->pdf);
            fputc('\n', stderr);
        }
    }
    remove_tree(dir);
    (void)ctx;
    return st;
}

static int cmd_sheet(muster_ctx *ctx, Options *o, const Target *t)
{
    muster_sheet_opts so = { .html = o->html, .review = o->review, .only = (const char *const *)t->pos + 1,
                             .nonly = t->npos - 1 };
    if (o->paper) {
        if (!strcmp(o->paper, "letter"))
            so.letter = 1;
        else if (strcmp(o->paper, "a4") != 0)
            return usage_error("--paper is a4 or letter, not '%s'", o->paper);
    }
    if (o->pdf)
        return sheet_pdf(ctx, o, t, &so);
    return muster_sheet(ctx, t->prog, &so);
}

static int cmd_dis(muster_ctx *ctx, Options *o, const Target *t)
{
    if (!t->proc)
        return muster_disassemble(ctx, t->prog);
    return muster_disassemble_call(ctx, t->prog, t->proc, t->nargs, t->args, o->choices.items, o->choices.n,
                                   o->prob.field);
}

static int cmd_run(muster_ctx *ctx, Options *o, const Target *t)
{
    o->run.have_seed = (o->given >> O_SEED) & 1;
    o->run.seed = o->seed;
    o->run.json = o->json;
    o->run.choices = o->choices.items;
    o->run.nchoices = o->choices.n;
    return muster_run(ctx, t->prog, t->proc, t->nargs, t->args, &o->run);
}

/* Ctrl-C while odds are worked out.  The library never touches signals:
 * it reads the flag given in muster_prob_opts.interrupt, stops, says how
 * far it had got and returns MUSTER_INTERRUPTED, with nothing half-printed.
 * The handler is installed only around that work, and the one before it
 * put back after.  A second Ctrl-C ends muster at once (SA_RESETHAND), in
 * case a single run goes on for long.  When SIGINT was ignored (muster run
 * in the background by a shell without job control), it stays ignored. */
static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
    (void)sig;
    interrupted = 1;
}

typedef struct Interrupt {
    struct sigaction before;
    bool caught;
} Interrupt;

static void catch_interrupt(Interrupt *in, muster_prob_opts *opts)
{
    in->caught = false;
    interrupted = 0;
    if (sigaction(SIGINT, NULL, &in->before) != 0 || in->before.sa_handler == SIG_IGN)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_RESTART;
    if (sigaction(SIGINT, &sa, NULL) != 0)
        return;
    in->caught = true;
    opts->interrupt = &interrupted;
}

/* The handler of before back; when the work was interrupted, muster ends
 * by SIGINT, as an interrupted program should (a shell running it in a
 * script then stops too, and reports status 130). */
static int release_interrupt(Interrupt *in, muster_prob_opts *opts, int status)
{
    opts->interrupt = NULL;
    if (!in->caught)
        return status;
    sigaction(SIGINT, &in->before, NULL);
    if (status == MUSTER_INTERRUPTED && in->before.sa_handler == SIG_DFL) {
        fflush(stdout);
        fflush(stderr);
        raise(SIGINT);
    }
    return status;
}

/* The odds options prob and diff share: the seed, the choices, the threads
 * (every core unless told). */
static void odds_options(Options *o)
{
    o->prob.have_seed = (o->given >> O_SEED) & 1;
    o->prob.seed = o->seed;
    o->prob.choices = o->choices.items;
    o->prob.nchoices = o->choices.n;
    o->prob.threads = (int)o->threads;
    if (!o->prob.threads) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        o->prob.threads = cores > 0 ? (int)(cores < 64 ? cores : 64) : 1;
    }
}

static int cmd_prob(muster_ctx *ctx, Options *o, const Target *t)
{
    odds_options(o);
    o->prob.json = o->json;
    o->prob.vs = o->vs.items;
    o->prob.nvs = o->vs.n;
    o->prob.html = o->html;
    Interrupt in;
    catch_interrupt(&in, &o->prob);
    int status = muster_prob(ctx, t->prog, t->proc, t->nargs, t->args, &o->prob);
    return release_interrupt(&in, &o->prob, status);
}

/* muster diff BASE VARIANT [PROC [NAME=VALUE]...]: what a house rule
 * changes, and the odds it changes. */
static int cmd_diff(muster_ctx *ctx, Options *o, const Target *t)
{
    if (t->npos < 2)
        return usage_error("%sdiff needs the rules and the house rule: muster diff BASE VARIANT [PROC [NAME=VALUE]...]",
                           "");
    muster_program *base = load_script(ctx, t->pos[0]);
    muster_program *variant = base ? load_script(ctx, t->pos[1]) : NULL;
    if (!variant)
        return MUSTER_ERROR;
    odds_options(o);
    const char *proc = t->npos > 2 ? t->pos[2] : NULL;
    Interrupt in;
    catch_interrupt(&in, &o->prob);
    int status = muster_diff(ctx, base, variant, proc, t->npos > 3 ? t->npos - 3 : 0, t->pos + 3, &o->prob);
    return release_interrupt(&in, &o->prob, status);
}

/* muster repl [FILE]: the interactive mode (cli/repl.c). */
static int cmd_repl(muster_ctx *ctx, Options *o, const Target *t)
{
    if (t->npos > 1)
        return usage_error("repl takes one FILE at most, not '%s' after it", t->pos[1]);
    if (t->npos == 1 && !strcmp(t->pos[0], "-"))
        return usage_error("%srepl reads what is typed from standard input: its FILE cannot be '-'", "");
    odds_options(o);
    ReplOptions ro = { .run = o->run, .prob = o->prob };
    ro.run.have_seed = (o->given >> O_SEED) & 1;
    ro.run.seed = o->seed;
    ro.run.choices = o->choices.items;
    ro.run.nchoices = o->choices.n;
    ro.prob.have_seed = 0;   /* :prob takes the session's next seed */
    return repl_main(ctx, &ro, t->npos ? t->pos[0] : NULL);
}

/* What a command's operands are. */
enum Operands {
    FILES,          /* FILE...: the command loads them itself */
    ONE_FILE,       /* FILE */
    FILE_AND_CALL,  /* FILE [PROC [NAME=VALUE]...] */
    FILE_AND_NAMES, /* FILE [NAME...] */
    CALL,           /* FILE PROC [NAME=VALUE]..., or -e EXPRESSION */
    TWO_FILES_AND_CALL,  /* BASE VARIANT [PROC [NAME=VALUE]...]: the command loads them itself */
};

typedef struct Command {
    const char *name;
    unsigned bit;           /* CMD_... */
    enum Operands operands;
    const char *proc_for;   /* CALL: "needs a procedure to ..." */
    command_fn *run;
} Command;

static const Command commands[] = {
    { "check", CMD_CHECK, FILES, NULL, cmd_check },
    { "test", CMD_TEST, FILES, NULL, cmd_test },
    { "turn", CMD_TURN, ONE_FILE, NULL, cmd_turn },
    { "sheet", CMD_SHEET, FILE_AND_NAMES, NULL, cmd_sheet },
    { "run", CMD_RUN, CALL, "run", cmd_run },
    { "prob", CMD_PROB, CALL, "simulate", cmd_prob },
    { "dis", CMD_DIS, FILE_AND_CALL, NULL, cmd_dis },
    { "diff", CMD_DIFF, TWO_FILES_AND_CALL, NULL, cmd_diff },
    { "repl", CMD_REPL, FILES, NULL, cmd_repl },
};
enum { NCOMMANDS = sizeof commands / sizeof commands[0] };

static const Command *command_named(const char *name)
{
    for (int i = 0; i < NCOMMANDS; i++)
        if (!strcmp(commands[i].name, name))
            return &commands[i];
    return NULL;
}

static const Command *command_of(unsigned bit)
{
    int i = 0;
    while (commands[i].bit != bit)
        i++;
    return &commands[i];
}

/* ---- the tables, as `muster complete` (cli/complete.c) asks for them ---- */

const char *cli_command_name(int i)
{
    return i >= 0 && i < NCOMMANDS ? commands[i].name : NULL;
}

cli_operands cli_command_operands(const char *command, int *commas)
{
    const Command *c = command_named(command);
    *commas = c && c->bit == CMD_PROB;
    if (!c)
        return CLI_NO_OPERANDS;
    switch (c->operands) {
    case FILES: return CLI_SCRIPTS;
    case ONE_FILE: return CLI_SCRIPT;
    case FILE_AND_NAMES: return CLI_SCRIPT_AND_NAMES;
    case FILE_AND_CALL: case CALL: return CLI_SCRIPT_AND_CALL;
    case TWO_FILES_AND_CALL: return CLI_TWO_SCRIPTS_AND_CALL;
    default: return CLI_NO_OPERANDS;
    }
}

int cli_option_at(int i, const char *command, cli_option *out, int *goes)
{
    if (i < 0 || i >= NOPTIONS)
        return 0;
    const OptionSpec *spec = &option_table[i];
    const Command *c = command_named(command);
    *out = (cli_option){ spec->name, spec->letter, spec->kind != FLAG, spec->kind == LIST, spec->value, spec->words };
    *goes = c && (spec->commands & c->bit);
    return 1;
}

static int print_help(void)
{
    fputs(usage_text, stdout);
    return 0;
}

/* The options' getopt_long tables, from option_table: the long options
 * (then --help and --version), and the short ones after ":hV". */
static void getopt_tables(struct option *longs, char *shorts)
{
    int n = 0;
    char *s = shorts + strlen(strcpy(shorts, ":hV"));
    for (int i = 0; i < NOPTIONS; i++) {
        const OptionSpec *spec = &option_table[i];
        int has_arg = spec->kind == FLAG ? no_argument : required_argument;
        if (spec->name)
            longs[n++] = (struct option){ spec->name, has_arg, NULL, ID_BASE + i };
        if (spec->letter) {
            *s++ = spec->letter;
            if (has_arg)
                *s++ = ':';
        }
    }
    longs[n++] = (struct option){ "help", no_argument, NULL, 'h' };
    longs[n++] = (struct option){ "version", no_argument, NULL, 'V' };
    longs[n] = (struct option){ NULL, 0, NULL, 0 };
    *s = '\0';
}

/* The usage error for an option getopt_long did not take: typed is the
 * argument it stopped at. */
static int bad_option(const char *typed)
{
    if (optopt > 0 && optopt < ID_BASE) {
        char shown[3] = { '-', (char)optopt, '\0' };
        return usage_error("unknown option '%s'", shown);
    }
    if (optopt >= ID_BASE && optopt < ID_BASE + NOPTIONS) {
        const OptionSpec *spec = &option_table[optopt - ID_BASE];
        return usage_error(spec->kind == FLAG ? "option '--%s' takes no value" : "option '--%s' needs a value",
                           spec->name);
    }
    return usage_error("unknown or ambiguous option '%s'", typed);
}

static int bad_number(const OptionSpec *spec, const char *value)
{
    char fmt[160];
    if (spec->max == UINT64_MAX)
        snprintf(fmt, sizeof fmt, "--%s needs a%s whole number, not '%%s'", spec->name, spec->min ? " positive" : "");
    else
        snprintf(fmt, sizeof fmt, "--%s needs a whole number from %llu to %llu, not '%%s'", spec->name,
                 (unsigned long long)spec->min, (unsigned long long)spec->max);
    return usage_error(fmt, value);
}

enum { GO_ON = -1 };   /* not an exit status: parsing and checking went well */

/* Puts the value of option i where its row says. */
static int set_option(Options *o, int i, char *value)
{
    const OptionSpec *spec = &option_table[i];
    void *field = (char *)o + spec->field;
    o->given |= 1ul << i;
    switch (spec->kind) {
    case FLAG:
        *(int *)field = 1;
        break;
    case TEXT:
        *(const char **)field = value;
        break;
    case LIST: {
        Strings *list = field;
        list->items = realloc(list->items, sizeof *list->items * (size_t)(list->n + 1));
        list->items[list->n++] = value;
        break;
    }
    case NUMBER: {
        uint64_t v;
        if (!parse_u64(value, &v) || v < spec->min || v > spec->max)
            return bad_number(spec, value);
        *(uint64_t *)field = v;
        break;
    }
    }
    return GO_ON;
}

/* Reads the options of a command's argv (argv[0] is the command) into *o;
 * GO_ON, or the exit status after --help, --version or a usage error.  The
 * operands left start at argv[optind]. */
static int parse_options(int argc, char **argv, Options *o)
{
    struct option longs[NOPTIONS + 3];
    char shorts[4 + 2 * NOPTIONS];
    getopt_tables(longs, shorts);
    optind = 1;
    opterr = 0;
    /* GNU getopt permutes: options may come anywhere, even after NAME=VALUE */
    int id, status = GO_ON;
    while (status == GO_ON && (id = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        if (id == 'h')
            return print_help();
        if (id == 'V')
            return print_version();
        if (id == ':')
            return usage_error("option '%s' needs a value", argv[optind - 1]);
        if (id == '?')
            return bad_option(argv[optind - 1]);
        int i = id - ID_BASE;
        if (id < ID_BASE)
            for (i = 0; option_table[i].letter != id; i++)
                ;
        status = set_option(o, i, optarg);
    }
    return status;
}

static int is_given(const Options *o, int i)
{
    return (o->given >> i) & 1;
}

/* Option i as typed: --name, or -letter. */
static const char *option_name(char buf[32], int i)
{
    const OptionSpec *spec = &option_table[i];
    if (spec->name)
        snprintf(buf, 32, "--%s", spec->name);
    else
        snprintf(buf, 32, "-%c", spec->letter);
    return buf;
}

/* names[0..n) as "a", "a and b" or "a, b and c", after what buf holds. */
static void join(char *buf, size_t size, const char *const *names, int n)
{
    for (int k = 0; k < n; k++) {
        size_t len = strlen(buf);
        snprintf(buf + len, size - len, "%s%s", k == 0 ? "" : k == n - 1 ? " and " : ", ", names[k]);
    }
}

/* Lists, in buf, the options (but those every command takes) that go with
 * all the commands of `all`, none of `none` and, if `any`, one of `any`;
 * returns how many. */
static int list_options(char *buf, size_t size, unsigned all, unsigned none, unsigned any)
{
    char text[NOPTIONS][32];
    const char *names[NOPTIONS];
    int n = 0;
    for (int i = 0; i < NOPTIONS; i++) {
        unsigned c = option_table[i].commands;
        if (c == CMD_ALL || (c & all) != all || (c & none) || (any && !(c & any)))
            continue;
        names[n] = option_name(text[n], i);
        n++;
    }
    join(buf, size, names, n);
    return n;
}

/* Lists, in buf, the commands of the set, quoted: "'a' and 'b'". */
static void list_commands(char *buf, size_t size, unsigned set)
{
    char quoted[NCOMMANDS][16];
    const char *names[NCOMMANDS];
    int n = 0;
    for (int k = 0; k < NCOMMANDS; k++)
        if (set & commands[k].bit) {
            snprintf(quoted[n], sizeof quoted[n], "'%s'", commands[k].name);
            names[n] = quoted[n];
            n++;
        }
    join(buf, size, names, n);
}

/* The usage error for option i given to command c, which it does not go
 * with: run and prob each name the options of the other; the other
 * commands take none of theirs; any other option names its commands. */
static int wrong_command(const Command *c, int i)
{
    unsigned goes = option_table[i].commands;
    char list[256] = "", where[128] = "", text[512];
    if (c->bit == CMD_REPL) {
        char name[32];
        list_options(list, sizeof list, CMD_REPL, 0, 0);
        snprintf(text, sizeof text, "'repl' takes %s, not %s", list, option_name(name, i));
    } else if ((c->bit & CMD_RUN_PROB) && (goes & CMD_RUN_PROB)) {
        const Command *other = command_of(CMD_RUN_PROB & ~c->bit);
        int n = list_options(list, sizeof list, other->bit, c->bit, 0);
        snprintf(text, sizeof text, "%s go%s with '%s', not '%s'", list, n == 1 ? "es" : "", other->name, c->name);
    } else if (goes & CMD_RUN_PROB) {
        int n = list_options(list, sizeof list, c->bit, 0, CMD_RUN_PROB);
        snprintf(text, sizeof text, "'%s' takes no run or prob options%s%s", c->name, n ? " but " : "", list);
    } else {
        int n = list_options(list, sizeof list, goes, CMD_ALL & ~goes, 0);
        list_commands(where, sizeof where, goes);
        snprintf(text, sizeof text, "%s go%s with %s", list, n == 1 ? "es" : "", where);
    }
    return usage_error("%s", text);
}

/* The first conflict checked before option row `before` (for command c)
 * that the options given run into, as a usage error; else GO_ON. */
static int check_conflicts(const Command *c, const Options *o, int before)
{
    for (size_t k = 0; k < sizeof conflicts / sizeof conflicts[0]; k++) {
        const Conflict *x = &conflicts[k];
        if (x->before != before || !(x->commands & c->bit) || !is_given(o, x->a) || !is_given(o, x->b))
            continue;
        if (x->dash && strcmp(*(const char *const *)((const char *)o + option_table[x->a].field), "-") != 0)
            continue;
        if (x->message)
            return usage_error("%s", x->message);
        char a[32], b[32], text[128];
        snprintf(text, sizeof text, "choose one of %s and %s", option_name(a, x->a), option_name(b, x->b));
        return usage_error("%s", text);
    }
    return GO_ON;
}

/* Whether the options go with command c and with each other: GO_ON, or the
 * first usage error, options in the order of option_table. */
static int check_options(const Command *c, const Options *o)
{
    int status = GO_ON;
    for (int i = 0; i <= NOPTIONS && status == GO_ON; i++) {
        status = check_conflicts(c, o, i);
        if (status == GO_ON && i < NOPTIONS && is_given(o, i) && !(option_table[i].commands & c->bit))
            status = wrong_command(c, i);
    }
    if (status == GO_ON && is_given(o, O_SVG) && !*o->prob.svg)
        status = usage_error("%s--svg needs a file name, or - for standard output", "");
    return status;
}

/* run or prob -e: the expression is the program. */
static int run_expression(const Command *c, muster_ctx *ctx, Options *o, Target *t)
{
    static char *const none[1] = { NULL };
    if (t->npos)
        return usage_error("with -e, '%s' is not wanted (the expression is all there is)", t->pos[0]);
    if (strspn(o->expression, " \t\r\n") == strlen(o->expression))
        return usage_error("%s-e needs an expression, as in -e 'sum(roll 2d6)'", "");
    t->prog = muster_load_expression(ctx, o->expression);
    if (!t->prog)
        return MUSTER_ERROR;
    t->proc = "expression";
    t->args = none;
    return c->run(ctx, o, t);
}

/* run or prob with a FILE but no PROC: say which procedures it has. */
static int missing_procedure(const Command *c, const Target *t)
{
    fprintf(stderr, "muster: %s needs a procedure to %s; ", c->name, c->proc_for);
    put_path(stderr, t->pos[0]);
    fputs(" has:\n", stderr);
    muster_ctx *list = muster_new(stderr, stderr, 0);
    muster_list(list, t->prog);
    return MUSTER_USAGE;
}

/* Command c on its operands: loads what its operands say, then runs it. */
static int run_command(const Command *c, muster_ctx *ctx, Options *o, char **pos, int npos)
{
    Target t = { pos, npos, NULL, NULL, NULL, 0 };
    if (c->operands == FILES || c->operands == TWO_FILES_AND_CALL)
        return c->run(ctx, o, &t);
    if (o->expression)
        return run_expression(c, ctx, o, &t);
    if (npos == 0)
        return usage_error("%s needs a FILE", c->name);
    t.prog = load_script(ctx, pos[0]);
    if (!t.prog)
        return MUSTER_ERROR;
    if (npos > 1 && c->operands == ONE_FILE) {
        char fmt[64];
        snprintf(fmt, sizeof fmt, "%s takes one FILE, not '%%s' after it", c->name);
        return usage_error(fmt, pos[1]);
    }
    if (npos < 2 && c->operands == CALL)
        return missing_procedure(c, &t);
    if (npos > 1) {
        t.proc = pos[1];
        t.args = pos + 2;
        t.nargs = npos - 2;
    }
    return c->run(ctx, o, &t);
}

static muster_ctx *new_context(const Options *o)
{
    const char *no_color = getenv("NO_COLOR");   /* any non-empty value turns colour off */
    int color = isatty(2) && !(no_color && *no_color);
    muster_ctx *ctx = muster_new(stdout, stderr, color);
    muster_set_limits(ctx, o->max_steps, (int)o->max_depth);
    return ctx;
}

int main(int argc, char **argv)
{
    /* Results go to stdout, diagnostics and warnings to stderr: with stdout
     * line-buffered, a warning printed between two lines of a result stays
     * between them when both streams go to one file or pipe (2>&1), as on a
     * terminal. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2)
        return usage_error("%smissing command", "");
    const char *name = argv[1];
    if (!strcmp(name, "--help") || !strcmp(name, "-h"))
        return print_help();
    if (!strcmp(name, "--version") || !strcmp(name, "-V"))
        return print_version();
    /* not in the help: the verb the shell completion scripts call */
    if (!strcmp(name, "complete"))
        return cli_complete(argc - 2, argv + 2);
    const Command *c = command_named(name);
    if (!c)
        return usage_error("unknown command '%s'", name);
    Options o = { 0 };
    /* the command's own argv: its argv[0] is the command's name */
    int status = parse_options(argc - 1, argv + 1, &o);
    if (status == GO_ON)
        status = check_options(c, &o);
    if (status != GO_ON)
        return status;
    status = run_command(c, new_context(&o), &o, argv + 1 + optind, argc - 1 - optind);
    /* running out of memory is an error of the rules (a runaway script), as the exit status says */
    return status == MUSTER_NOMEM ? MUSTER_ERROR : status;
}
