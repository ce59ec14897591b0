/* repl.h — `muster repl [FILE]`, the interactive mode (cli/repl.c). */
#ifndef MUSTER_CLI_REPL_H
#define MUSTER_CLI_REPL_H

#include "muster.h"

/* What the command line gives the session. */
typedef struct ReplOptions {
    muster_run_opts run;     /* --seed, --dice, --choose: the session's dice and choices */
    muster_prob_opts prob;   /* --trials, --budget, --threads: how :prob works out odds */
} ReplOptions;

/* Read entries from standard input until :quit or its end, with line
 * editing, history and completion on a terminal, and without prompts
 * otherwise; FILE (or NULL) is loaded first.  The exit status: MUSTER_OK,
 * or MUSTER_ERROR when some entry failed. */
int repl_main(muster_ctx *ctx, const ReplOptions *o, const char *path);

#endif
