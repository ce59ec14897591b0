/* fuzz_args.c — fuzz target: the command line's `name=value` arguments (and
 * `--choose C=O`) given to a procedure, for run, prob and dis.
 *
 * The input is lines: the first names the procedure (one of those below; any
 * other line picks one by its first byte), each later line is an argument
 * as the shell would pass it, and a line starting with "choose " is a
 * --choose.  Built like fuzz_compile.c: libFuzzer, AFL++, or with replay.c
 * for `make check` (tests/fuzz/regressions/args/).
 */
#include "muster.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every kind of parameter the command line takes, and the two it refuses. */
static const char script[] =
    "enum Cover { none, light \"Light cover\", heavy }\n"
    "ladder Morale { steady, shaken, routed }\n"
    "outcome Shot(lost: int = 0) { hit (lost: 1), miss }\n"
    "choice Pick \"Which?\" { left, right } default left\n"
    "record Unit { name: str, melee: int = 3 }\n"
    "proc every(i: int, r: rat, b: bool, s: str, c: Cover, m: Morale, o: Shot, p: Pick) -> str {\n"
    "  if b and c >= light and r > i and m != routed and o == hit and p == left { return s + \"!\" }\n"
    "  return s\n"
    "}\n"
    "proc defaults(i: int = roll d6, r: rat = 1/2, c: Cover = light) -> rat {\n"
    "  if choose(Pick) == right { return i - r }\n"
    "  return i + r\n"
    "}\n"
    "proc with_pool(p: pool) -> int { return count(p) }\n"
    "proc with_unit(u: Unit) -> int { return u.melee }\n"
    "proc odds(n: int = 2, c: Cover = none) -> int { return count(roll clamp(n, 0, 3) d6 >= 4) }\n"
    "table tab(c: Cover, b: bool) -> int {\n"
    "  columns true false\n"
    "  none:  1 2\n"
    "  light: ? 3\n"
    "  heavy: - 4\n"
    "}\n"
    "bands bnd(total: int in 1..6) -> Shot { ..3 => miss\n 4.. => hit }\n"
    "modifiers mods(c: Cover, n: int) { c == light : -1 \"Light\"\n each n : +1 \"Each\" }\n";

static const char *procs[] = { "every", "defaults", "with_pool", "with_unit", "odds", "tab", "bnd", "mods", "Unit" };
#define NPROCS (int)(sizeof procs / sizeof procs[0])
#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    static muster_ctx *ctx;
    static muster_program *prog;
    if (size > 4096)
        return 0;
    if (!prog) {
        if (!(sink = fopen("/dev/null", "w")))
            return 0;
        ctx = muster_new(sink, sink, 0);
        muster_set_limits(ctx, 100000, 100);
        prog = muster_load_string(ctx, "args.muster", script, sizeof script - 1);
        if (!prog) {
            fputs("fuzz_args: the built-in script does not compile\n", stderr);
            abort();
        }
    }
    /* split into lines (a copy: the arguments are NUL-terminated strings) */
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    char *lines[MAX_ARGS + 1];
    int nlines = 0;
    for (char *p = text; nlines <= MAX_ARGS;) {
        lines[nlines++] = p;
        char *nl = memchr(p, '\n', (size_t)(text + size - p));
        if (!nl)
            break;
        *nl = 0;
        p = nl + 1;
    }
    const char *proc = procs[(unsigned char)lines[0][0] % NPROCS];
    for (int i = 0; i < NPROCS; i++)
        if (!strcmp(lines[0], procs[i]))
            proc = procs[i];
    char *args[MAX_ARGS], *choices[MAX_ARGS];
    int nargs = 0, nchoices = 0;
    for (int i = 1; i < nlines; i++) {
        if (!strncmp(lines[i], "choose ", 7))
            choices[nchoices++] = lines[i] + 7;
        else
            args[nargs++] = lines[i];
    }

    muster_run_opts run = { .have_seed = 1, .seed = 1, .choices = choices, .nchoices = nchoices };
    muster_run(ctx, prog, proc, nargs, args, &run);
    run.json = 1;
    run.explain = 1;
    run.dice = "6,1,3";
    muster_run(ctx, prog, proc, nargs, args, &run);
    muster_prob_opts prob = { .have_seed = 1, .seed = 1, .choices = choices, .nchoices = nchoices, .threads = 1 };
    muster_prob(ctx, prog, proc, nargs, args, &prob);
    prob.trials = 100;
    prob.json = 1;
    muster_prob(ctx, prog, proc, nargs, args, &prob);
    muster_disassemble_call(ctx, prog, proc, nargs, args, choices, nchoices, NULL);
    free(text);
    return 0;
}
