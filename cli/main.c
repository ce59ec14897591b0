/* main.c — the `muster` command: parses options and calls libmuster. */
#include "config.h"
#include "muster.h"

#include <errno.h>
#include <dirent.h>
#include <getopt.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] =
    "Usage: muster COMMAND [OPTION]... FILE [PROC] [NAME=VALUE]...\n"
    "Compile and run wargame rules written in the muster language.\n"
    "\n"
    "Commands:\n"
    "  check FILE...             compile each script, report any error, run its examples\n"
    "  run FILE PROC [NAME=VALUE]...\n"
    "                            run a procedure and print its result\n"
    "  prob FILE PROC [NAME=VALUE]...\n"
    "                            the odds of each result of a procedure (exact, or simulated)\n"
    "  prob -e EXPRESSION        the odds of a one-off expression, as in -e 'count(roll 6d6 >= 4)'\n"
    "  run -e EXPRESSION         roll a one-off expression once\n"
    "  test FILE|DIR...          run the examples of each script (DIR: every .muster in it)\n"
    "  turn FILE                 print the turn sequence as a checklist\n"
    "  sheet FILE [--md|--html]  render the script as a quick reference sheet (Markdown by default)\n"
    "  dis FILE                  print the compiled bytecode\n"
    "  dis FILE PROC [ARG=VALUE...]  the bytecode 'prob' simulates for these arguments (--choose, --field)\n"
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
    "Options for prob (exact odds when the dice allow, else a simulation):\n"
    "      --exact               exact odds, or an error if there are too many outcomes to count\n"
    "      --budget=N            runs the exact count may take (default 2000000)\n"
    "      --trials=N            simulate N runs instead (default 100000 when simulating)\n"
    "      --seed=N              seed the simulation\n"
    "      --threads=T           simulate on T threads (default: every core); the result is the same for any T\n"
    "      --json, --csv         machine-readable output\n"
    "      --vs=VARIANT.muster   the same procedure under a house rule, beside these odds\n"
    "      --field=NAME          when PROC returns a record, the odds of that field of it\n"
    "      --no-specialize       simulate PROC as written, not compiled for its fixed arguments\n"
    "                            (slower; the same counts)\n"
    "Limits (run and prob):\n"
    "      --max-steps=N         instructions per run before giving up (default 100000000)\n"
    "      --max-depth=N         nested calls before giving up (default 1000)\n"
    "\n"
    "  -h, --help                show this help and exit\n"
    "  -V, --version             show the version and exit\n"
    "\n"
    "Exit status: 0 success, 1 an error in the rules (compile or run), 2 a usage error.\n"
    "Diagnostics are coloured on a terminal unless NO_COLOR is set.\n"
    "Report bugs at " PACKAGE_BUGREPORT "\n";

static int print_version(void)
{
    printf("muster %s\n"
           "Copyright (c) 2026 The muster authors.\n"
           "License MIT: the terms are in the LICENSE file of the source.\n"
           "This is free software: you are free to change and redistribute it.\n"
           "There is NO WARRANTY, to the extent permitted by law.\n", muster_version());
    return 0;
}

enum { OPT_SEED = 256, OPT_DICE, OPT_EXPLAIN, OPT_JSON, OPT_CSV, OPT_TRIALS, OPT_MAX_STEPS, OPT_MAX_DEPTH, OPT_CHOOSE,
       OPT_MD, OPT_HTML, OPT_FIELD, OPT_EXACT, OPT_BUDGET, OPT_VS, OPT_THREADS, OPT_NO_SPECIALIZE };

static const struct option long_options[] = {
    { "seed", required_argument, NULL, OPT_SEED },
    { "dice", required_argument, NULL, OPT_DICE },
    { "explain", no_argument, NULL, OPT_EXPLAIN },
    { "json", no_argument, NULL, OPT_JSON },
    { "csv", no_argument, NULL, OPT_CSV },
    { "trials", required_argument, NULL, OPT_TRIALS },
    { "max-steps", required_argument, NULL, OPT_MAX_STEPS },
    { "max-depth", required_argument, NULL, OPT_MAX_DEPTH },
    { "choose", required_argument, NULL, OPT_CHOOSE },
    { "md", no_argument, NULL, OPT_MD },
    { "html", no_argument, NULL, OPT_HTML },
    { "field", required_argument, NULL, OPT_FIELD },
    { "exact", no_argument, NULL, OPT_EXACT },
    { "budget", required_argument, NULL, OPT_BUDGET },
    { "vs", required_argument, NULL, OPT_VS },
    { "threads", required_argument, NULL, OPT_THREADS },
    { "no-specialize", no_argument, NULL, OPT_NO_SPECIALIZE },
    { "help", no_argument, NULL, 'h' },
    { "version", no_argument, NULL, 'V' },
    { NULL, 0, NULL, 0 },
};

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
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(len);
        snprintf(path, len, "%s/%s", dir, e->d_name);
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

/* muster test: the examples of every script named or found; one line each,
 * then the totals. */
static int run_tests(muster_ctx *ctx, char **pos, int npos)
{
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
        muster_program *prog = muster_load(ctx, files[i]);
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

int main(int argc, char **argv)
{
    /* Results go to stdout, diagnostics and warnings to stderr: with stdout
     * line-buffered, a warning printed between two lines of a result stays
     * between them when both streams go to one file or pipe (2>&1), as on a
     * terminal. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2)
        return usage_error("%smissing command", "");
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V"))
        return print_version();
    enum Mode { CHECK, RUN, PROB, DIS, TEST, TURN, SHEET } mode;
    static const struct { const char *name; enum Mode mode; } commands[] = {
        { "check", CHECK }, { "test", TEST }, { "turn", TURN }, { "sheet", SHEET },
        { "run", RUN }, { "prob", PROB }, { "dis", DIS },
    };
    size_t c = 0, ncommands = sizeof commands / sizeof commands[0];
    while (c < ncommands && strcmp(cmd, commands[c].name))
        c++;
    if (c == ncommands)
        return usage_error("unknown command '%s'", cmd);
    mode = commands[c].mode;

    muster_run_opts run = { 0 };
    muster_prob_opts prob = { 0 };
    uint64_t max_steps = 0, max_depth = 0, seed = 0;
    int have_seed = 0, json = 0, md = 0, html = 0;
    char **choices = calloc((size_t)argc, sizeof *choices);
    int nchoices = 0;
    int opt;
    int sub_argc = argc - 1;
    char **sub_argv = argv + 1;   /* argv[0] of the sub-command is the command name */
    optind = 1;
    opterr = 0;
    /* GNU getopt permutes: options may come anywhere, even after NAME=VALUE */
    const char *expression = NULL;
    while ((opt = getopt_long(sub_argc, sub_argv, ":hVe:", long_options, NULL)) != -1) {
        switch (opt) {
        case 'h': fputs(usage_text, stdout); return 0;
        case 'V': return print_version();
        case 'e': expression = optarg; break;
        case OPT_SEED:
            if (!parse_u64(optarg, &seed))
                return usage_error("--seed needs a whole number, not '%s'", optarg);
            have_seed = 1;
            break;
        case OPT_DICE: run.dice = optarg; break;
        case OPT_CHOOSE: choices[nchoices++] = optarg; break;
        case OPT_MD: md = 1; break;
        case OPT_HTML: html = 1; break;
        case OPT_FIELD: prob.field = optarg; break;
        case OPT_EXACT: prob.exact = 1; break;
        case OPT_NO_SPECIALIZE: prob.no_specialize = 1; break;
        case OPT_VS: prob.vs = optarg; break;
        case OPT_THREADS: {
            uint64_t t;
            if (!parse_u64(optarg, &t) || t == 0 || t > 256)
                return usage_error("--threads needs a whole number from 1 to 256, not '%s'", optarg);
            prob.threads = (int)t;
            break;
        }
        case OPT_BUDGET:
            if (!parse_u64(optarg, &prob.budget) || prob.budget == 0)
                return usage_error("--budget needs a positive whole number, not '%s'", optarg);
            break;
        case OPT_EXPLAIN: run.explain = 1; break;
        case OPT_JSON: json = 1; break;
        case OPT_CSV: prob.csv = 1; break;
        case OPT_TRIALS:
            if (!parse_u64(optarg, &prob.trials) || prob.trials == 0)
                return usage_error("--trials needs a positive whole number, not '%s'", optarg);
            break;
        case OPT_MAX_STEPS:
            if (!parse_u64(optarg, &max_steps) || max_steps == 0)
                return usage_error("--max-steps needs a positive whole number, not '%s'", optarg);
            break;
        case OPT_MAX_DEPTH:
            if (!parse_u64(optarg, &max_depth) || max_depth == 0 || max_depth > 100000)
                return usage_error("--max-depth needs a whole number from 1 to 100000, not '%s'", optarg);
            break;
        case ':': return usage_error("option '%s' needs a value", sub_argv[optind - 1]);
        case '?':
            if (optopt && optopt < 256) {
                char shown[3] = { '-', (char)optopt, '\0' };
                return usage_error("unknown option '%s'", shown);
            }
            if (optopt >= 256)
                for (const struct option *o = long_options; o->name; o++)
                    if (o->val == optopt)
                        return usage_error(o->has_arg == no_argument ? "option '--%s' takes no value"
                                                                     : "option '--%s' needs a value", o->name);
            return usage_error("unknown or ambiguous option '%s'", sub_argv[optind - 1]);
        }
    }
    if (mode == PROB && prob.vs && prob.csv)
        return usage_error("%s--vs prints a table or --json, not --csv", "");
    if (mode == RUN && (prob.csv || prob.trials || prob.field || prob.exact || prob.budget || prob.vs || prob.threads
                        || prob.no_specialize))
        return usage_error("%s--csv, --trials, --field, --exact, --budget, --vs, --threads and --no-specialize go "
                           "with 'prob', not 'run'", "");
    if (prob.exact && prob.trials)
        return usage_error("%schoose one of --exact and --trials", "");
    if (mode == PROB && (run.dice || run.explain))
        return usage_error("%s--dice and --explain go with 'run', not 'prob'", "");
    if (mode == PROB && json && prob.csv)
        return usage_error("%schoose one of --json and --csv", "");
    if ((mode == CHECK || mode == DIS || mode == TEST || mode == TURN || mode == SHEET)
        && (run.dice || run.explain || json || prob.csv || prob.trials || have_seed || (nchoices && mode != DIS) || (prob.field && mode != DIS)
            || prob.exact || prob.budget || prob.vs || prob.threads || prob.no_specialize || expression))
        return usage_error(mode == DIS ? "'%s' takes no run or prob options but --choose and --field"
                                       : "'%s' takes no run or prob options", cmd);
    if ((md || html) && mode != SHEET)
        return usage_error("%s--md and --html go with 'sheet'", "");
    if (md && html)
        return usage_error("%schoose one of --md and --html", "");

    if (!prob.threads) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        prob.threads = cores > 0 ? (int)(cores < 64 ? cores : 64) : 1;
    }
    char **pos = sub_argv + optind;
    int npos = sub_argc - optind;

    const char *no_color = getenv("NO_COLOR");   /* any non-empty value turns colour off */
    int color = isatty(2) && !(no_color && *no_color);
    muster_ctx *ctx = muster_new(stdout, stderr, color);
    muster_set_limits(ctx, max_steps, (int)max_depth);

    if (mode == CHECK) {
        if (npos == 0)
            return usage_error("%scheck needs at least one FILE", "");
        int status = MUSTER_OK;
        for (int i = 0; i < npos; i++) {
            muster_program *prog = muster_load(ctx, pos[i]);
            int passed = 0, failed = 0;
            if (!prog || muster_check(ctx, prog, &passed, &failed) != MUSTER_OK) {
                status = MUSTER_ERROR;
                continue;
            }
            put_path(stdout, pos[i]);
            if (passed)
                printf(": ok (%d example%s pass)\n", passed, passed == 1 ? "" : "s");
            else
                fputs(": ok\n", stdout);
        }
        return status;
    }
    if (mode == TEST)
        return run_tests(ctx, pos, npos);
    if (expression) {
        if (mode != RUN && mode != PROB)
            return usage_error("%s-e goes with 'run' and 'prob'", "");
        if (prob.vs)
            return usage_error("%s--vs compares two scripts; it does not go with -e", "");
        if (npos)
            return usage_error("with -e, '%s' is not wanted (the expression is all there is)", pos[0]);
        if (strspn(expression, " \t\r\n") == strlen(expression))
            return usage_error("%s-e needs an expression, as in -e 'sum(roll 2d6)'", "");
        muster_program *prog = muster_load_expression(ctx, expression);
        if (!prog)
            return MUSTER_ERROR;
        char *none[1] = { NULL };
        if (mode == RUN) {
            run.have_seed = have_seed;
            run.seed = seed;
            run.json = json;
            run.choices = choices;
            run.nchoices = nchoices;
            return muster_run(ctx, prog, "expression", 0, none, &run);
        }
        prob.have_seed = have_seed;
        prob.seed = seed;
        prob.json = json;
        prob.choices = choices;
        prob.nchoices = nchoices;
        return muster_prob(ctx, prog, "expression", 0, none, &prob);
    }
    if (npos == 0)
        return usage_error("%s needs a FILE", cmd);
    muster_program *prog = muster_load(ctx, pos[0]);
    if (!prog)
        return MUSTER_ERROR;
    if (mode == DIS && npos > 1)
        return muster_disassemble_call(ctx, prog, pos[1], npos - 2, pos + 2, choices, nchoices, prob.field);
    if (mode == DIS || mode == TURN || mode == SHEET) {
        if (npos > 1)
            return usage_error(mode == TURN ? "turn takes one FILE, not '%s' after it" : "sheet takes one FILE, not '%s' after it",
                               pos[1]);
        return mode == DIS ? muster_disassemble(ctx, prog) : mode == TURN ? muster_turn(ctx, prog) : muster_sheet(ctx, prog, html);
    }
    if (npos < 2) {
        fprintf(stderr, "muster: %s needs a procedure to %s; ", cmd, mode == RUN ? "run" : "simulate");
        put_path(stderr, pos[0]);
        fputs(" has:\n", stderr);
        muster_ctx *list = muster_new(stderr, stderr, 0);
        muster_list(list, prog);
        return MUSTER_USAGE;
    }
    if (mode == RUN) {
        run.have_seed = have_seed;
        run.seed = seed;
        run.json = json;
        run.choices = choices;
        run.nchoices = nchoices;
        return muster_run(ctx, prog, pos[1], npos - 2, pos + 2, &run);
    }
    prob.have_seed = have_seed;
    prob.seed = seed;
    prob.json = json;
    prob.choices = choices;
    prob.nchoices = nchoices;
    return muster_prob(ctx, prog, pos[1], npos - 2, pos + 2, &prob);
}
