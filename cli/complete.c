/* complete.c — `muster complete CWORD -- WORD0 WORD1 ...`: the candidates
 * for word CWORD of the command line WORD0 WORD1 ... (WORD0 is "muster"),
 * one a line, for the shell completion scripts in completions/.
 *
 * It offers the commands; the options of the command at hand (as
 * main.c's option_table says), --name= for one that takes a value; the
 * values of an option that has a fixed set of them, and CHOICE=OPTION of
 * the script's choices for --choose; the procedures of the script named on
 * the line; their parameters as name= (those not given yet) and, after
 * name=, the members of an enum or true and false (for prob, after the
 * last comma of a list).  Every candidate is a whole word that begins with
 * the word as typed so far.  Where a file name is wanted, the one line
 * printed is a mark the script turns into its shell's own file completion:
 *
 *     :files .muster [PREFIX]     a .muster file (or a folder on the way)
 *     :files * [PREFIX]           any file
 *
 * PREFIX, when there, is the part of the word before the file name
 * (--vs=).  A script is compiled with a context that prints nothing, and
 * standard error is closed off, so a script that does not compile, a
 * missing file or anything odd gives no candidates and no message; the
 * exit status is 0 whenever the verb itself was called rightly.
 */
#include "config.h"
#include "muster.h"
#include "cli/complete.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The command line as far as completing its word goes. */
typedef struct Line {
    char **words;
    int n;                  /* words, the one completed included */
    int cw;                 /* the word completed */
    const char *cur;        /* words[cw] */
    const char *command;    /* words[1], a command's name, or NULL */
    cli_operands operands;
    int commas;             /* NAME=A,B lists values */
    const char **ops;       /* the operands but the current word, in order */
    int nops;
    int before;             /* how many of them come before the current word */
    bool expression;        /* -e was given: no FILE, no PROC */
    const char **chosen;    /* the values of the --choose given */
    int nchosen;
    unsigned long given;    /* bit i: option i was given */
} Line;

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Prints prefix word suffix, one word, if it begins with what was typed. */
static void offer(const Line *l, const char *prefix, const char *word, const char *suffix)
{
    size_t np = strlen(prefix), nw = strlen(word), ns = strlen(suffix);
    char *full = malloc(np + nw + ns + 1);
    if (!full)
        return;
    memcpy(full, prefix, np);
    memcpy(full + np, word, nw);
    memcpy(full + np + nw, suffix, ns + 1);
    if (starts_with(full, l->cur))
        puts(full);
    free(full);
}

/* The mark for a file name: ext ".muster" or "*"; prefix: what comes
 * before the name in the word ("" for nothing). */
static void offer_files(const char *ext, const char *prefix)
{
    printf(":files %s%s%s\n", ext, *prefix ? " " : "", prefix);
}

/* The option whose long name is name[0..len), or is begun by it and by no
 * other (as getopt_long takes it); -1 if none. */
static int long_option(const char *command, const char *name, size_t len, cli_option *out)
{
    cli_option o;
    int goes, found = -1, matches = 0;
    for (int i = 0; cli_option_at(i, command, &o, &goes); i++) {
        if (!o.name || strncmp(o.name, name, len) != 0)
            continue;
        if (strlen(o.name) == len) {
            *out = o;
            return i;
        }
        matches++;
        found = i;
        *out = o;
    }
    return matches == 1 ? found : -1;
}

static int short_option(const char *command, char letter, cli_option *out)
{
    int goes;
    for (int i = 0; cli_option_at(i, command, out, &goes); i++)
        if (out->letter == letter)
            return i;
    return -1;
}

/* An option given (not the word completed): noted in l; its index when it
 * waits for its value in the next word, else -1. */
static int option_word(Line *l, const char *w)
{
    cli_option o;
    if (w[1] == '-') {
        const char *eq = strchr(w + 2, '=');
        size_t len = eq ? (size_t)(eq - w - 2) : strlen(w + 2);
        int i = long_option(l->command, w + 2, len, &o);
        if (i < 0)
            return -1;
        l->given |= 1ul << i;
        if (o.value == CLI_VALUE_EXPRESSION)
            l->expression = true;
        if (!o.takes_value)
            return -1;
        if (!eq)
            return i;
        if (o.value == CLI_VALUE_CHOICE)
            l->chosen[l->nchosen++] = eq + 1;
        return -1;
    }
    for (const char *p = w + 1; *p; p++) {
        int i = short_option(l->command, *p, &o);
        if (i < 0)
            continue;
        l->given |= 1ul << i;
        if (o.value == CLI_VALUE_EXPRESSION)
            l->expression = true;
        if (o.takes_value) {
            if (p[1]) {
                if (o.value == CLI_VALUE_CHOICE)
                    l->chosen[l->nchosen++] = p + 1;
                return -1;
            }
            return i;
        }
    }
    return -1;
}

/* The script of the line (its first operand), compiled once; NULL when
 * there is none or it does not compile.  Only a regular file is read: not
 * standard input ("-"), a pipe or a device, which could keep the shell
 * waiting. */
static muster_program *script(const Line *l)
{
    static bool tried;
    static muster_program *prog;
    if (tried)
        return prog;
    tried = true;
    if (l->expression || l->nops == 0)
        return NULL;
    const char *path = l->ops[0];
    struct stat st;
    if (!strcmp(path, "-") || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return NULL;
    muster_ctx *ctx = muster_new(NULL, NULL, 0);
    if (ctx)
        prog = muster_load(ctx, path);
    return prog;
}

/* --choose's value: CHOICE= for the choices not chosen yet, or after
 * CHOICE=, its options. */
static void offer_choices(const Line *l, const char *prefix, const char *value)
{
    muster_program *prog = script(l);
    if (!prog)
        return;
    const char *eq = strchr(value, '=');
    for (size_t i = 0; i < muster_choice_count(prog); i++) {
        const muster_choice *c = muster_choice_at(prog, i);
        size_t len = strlen(c->name);
        if (eq) {
            if ((size_t)(eq - value) != len || strncmp(value, c->name, len) != 0)
                continue;
            size_t np = strlen(prefix);
            char *before = malloc(np + len + 2);
            if (!before)
                return;
            snprintf(before, np + len + 2, "%s%s=", prefix, c->name);
            for (size_t k = 0; k < c->noptions; k++)
                offer(l, before, c->options[k], "");
            free(before);
            continue;
        }
        bool chosen = false;
        for (int k = 0; k < l->nchosen && !chosen; k++)
            chosen = starts_with(l->chosen[k], c->name) && l->chosen[k][len] == '=';
        if (!chosen)
            offer(l, prefix, c->name, "=");
    }
}

/* The value of option i, the word being prefix value. */
static void offer_value(const Line *l, int i, const char *prefix, const char *value)
{
    cli_option o;
    int goes;
    if (!cli_option_at(i, l->command, &o, &goes) || !goes)
        return;
    switch (o.value) {
    case CLI_VALUE_WORDS:
        for (const char *const *w = o.words; w && *w; w++)
            offer(l, prefix, *w, "");
        break;
    case CLI_VALUE_SCRIPT:
        offer_files(".muster", prefix);
        break;
    case CLI_VALUE_FILE:
        offer_files("*", prefix);
        break;
    case CLI_VALUE_CHOICE:
        offer_choices(l, prefix, value);
        break;
    case CLI_VALUE_NONE:
    case CLI_VALUE_EXPRESSION:
        break;
    }
}

/* The word begins with '-': the options of the command, or the value of
 * one written --name=value. */
static void offer_options(const Line *l)
{
    const char *cur = l->cur;
    const char *eq = cur[1] == '-' ? strchr(cur, '=') : NULL;
    if (eq) {
        cli_option o;
        int i = long_option(l->command, cur + 2, (size_t)(eq - cur - 2), &o);
        if (i < 0)
            return;
        size_t len = (size_t)(eq - cur) + 1;
        char *prefix = malloc(len + 1);
        if (!prefix)
            return;
        memcpy(prefix, cur, len);
        prefix[len] = '\0';
        offer_value(l, i, prefix, eq + 1);
        free(prefix);
        return;
    }
    cli_option o;
    int goes;
    for (int i = 0; cli_option_at(i, l->command, &o, &goes); i++) {
        if (!goes || (((l->given >> i) & 1) && !o.repeats))
            continue;
        if (o.name) {
            offer(l, "--", o.name, o.takes_value ? "=" : "");
        } else {
            char letter[2] = { o.letter, '\0' };
            offer(l, "-", letter, "");
        }
    }
    offer(l, "--", "help", "");
    offer(l, "--", "version", "");
}

/* A NAME=VALUE argument of proc: name= for the parameters not given yet,
 * or after name=, the values of an enum or a bool. */
static void offer_arguments(const Line *l, const muster_proc *proc, int first)
{
    const char *cur = l->cur;
    const char *eq = strchr(cur, '=');
    for (size_t i = 0; i < proc->nparams; i++) {
        const muster_param *p = &proc->params[i];
        size_t len = strlen(p->name);
        if (p->kind == MUSTER_POOL || p->kind == MUSTER_RECORD)
            continue;   /* cannot be given on the command line */
        if (eq) {
            if ((size_t)(eq - cur) != len || strncmp(cur, p->name, len) != 0)
                continue;
            /* prob: name=a,b,c lists values; the one typed is after the last comma */
            const char *last = l->commas ? strrchr(eq, ',') : NULL;
            const char *start = last ? last + 1 : eq + 1;
            char *prefix = malloc((size_t)(start - cur) + 1);
            if (!prefix)
                return;
            memcpy(prefix, cur, (size_t)(start - cur));
            prefix[start - cur] = '\0';
            for (size_t k = 0; k < p->nvalues; k++) {
                /* a value listed already is not offered again */
                size_t vlen = strlen(p->values[k]);
                bool listed = false;
                for (const char *v = eq + 1; v < start && !listed; v = strchr(v, ',') + 1)
                    listed = !strncmp(v, p->values[k], vlen) && (v[vlen] == ',');
                if (!listed)
                    offer(l, prefix, p->values[k], "");
            }
            free(prefix);
            continue;
        }
        bool given = false;
        for (int k = first; k < l->nops && !given; k++)
            given = starts_with(l->ops[k], p->name) && l->ops[k][len] == '=';
        if (!given)
            offer(l, "", p->name, "=");
    }
}

/* The word is an operand, the l->before-th. */
static void offer_operand(const Line *l)
{
    int files;
    switch (l->operands) {
    case CLI_SCRIPTS:
        offer_files(".muster", "");
        return;
    case CLI_SCRIPT:
    case CLI_SCRIPT_AND_NAMES:
        if (l->before == 0)
            offer_files(".muster", "");
        return;
    case CLI_SCRIPT_AND_CALL:
        files = 1;
        break;
    case CLI_TWO_SCRIPTS_AND_CALL:
        files = 2;
        break;
    default:
        return;
    }
    if (l->expression)
        return;
    if (l->before < files) {
        offer_files(".muster", "");
        return;
    }
    muster_program *prog = script(l);
    if (!prog)
        return;
    if (l->before == files) {
        for (size_t i = 0; i < muster_proc_count(prog); i++)
            offer(l, "", muster_proc_at(prog, i)->name, "");
        return;
    }
    const muster_proc *proc = muster_proc_find(prog, l->ops[files]);
    if (proc)
        offer_arguments(l, proc, files + 1);
}

static void complete_line(Line *l)
{
    const char *cur = l->cur;
    if (l->cw == 1) {
        if (cur[0] == '-') {
            offer(l, "--", "help", "");
            offer(l, "--", "version", "");
            return;
        }
        for (int i = 0; cli_command_name(i); i++)
            offer(l, "", cli_command_name(i), "");
        return;
    }
    l->command = l->words[1];
    bool known = false;
    for (int i = 0; cli_command_name(i) && !known; i++)
        known = !strcmp(cli_command_name(i), l->command);
    if (!known)
        return;
    l->operands = cli_command_operands(l->command, &l->commas);
    /* every word but the current one, in order: options, their values, operands */
    int pending = -1, value_of = -1;
    bool dashdash = false, is_option = false;
    for (int i = 2; i < l->n; i++) {
        const char *w = l->words[i];
        if (i == l->cw) {
            if (pending >= 0)
                value_of = pending;
            else
                is_option = !dashdash && w[0] == '-';
            pending = -1;
            l->before = l->nops;
            continue;
        }
        if (pending >= 0) {
            cli_option o;
            int goes;
            if (cli_option_at(pending, l->command, &o, &goes) && o.value == CLI_VALUE_CHOICE)
                l->chosen[l->nchosen++] = w;
            pending = -1;
        } else if (!dashdash && !strcmp(w, "--")) {
            dashdash = true;
        } else if (!dashdash && w[0] == '-' && w[1]) {
            pending = option_word(l, w);
        } else {
            l->ops[l->nops++] = w;
        }
    }
    if (value_of >= 0)
        offer_value(l, value_of, "", cur);
    else if (is_option)
        offer_options(l);
    else
        offer_operand(l);
}

int cli_complete(int argc, char **argv)
{
    char *end = NULL;
    long cw = argc >= 2 ? strtol(argv[0], &end, 10) : -1;
    if (argc < 2 || !*argv[0] || *end || strcmp(argv[1], "--") != 0 || cw < 0 || cw > argc - 2) {
        fputs("muster: error: complete wants CWORD -- WORD0 WORD1 ..., with CWORD from 0 to the number of "
              "words\n", stderr);
        return MUSTER_USAGE;
    }
    /* nothing of what follows may reach the terminal the shell is drawing on */
    if (!freopen("/dev/null", "w", stderr))
        fclose(stderr);
    int n = argc - 2;
    Line l = { 0 };
    /* the word completed is past the last: an empty one */
    l.words = calloc((size_t)n + 2, sizeof *l.words);
    l.ops = calloc((size_t)n + 1, sizeof *l.ops);
    l.chosen = calloc((size_t)n + 1, sizeof *l.chosen);
    if (!l.words || !l.ops || !l.chosen)
        return MUSTER_OK;
    memcpy(l.words, argv + 2, sizeof *l.words * (size_t)n);
    if (cw == n)
        l.words[n++] = "";
    l.n = n;
    l.cw = (int)cw;
    l.cur = l.words[cw];
    if (cw > 0)
        complete_line(&l);
    fflush(stdout);
    return MUSTER_OK;
}
