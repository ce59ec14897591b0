/* muster.h — the public interface of libmuster.
 *
 * muster is a small language for tabletop wargame rules.  This library
 * compiles a .muster script to bytecode and runs its procedures with dice
 * that are seeded, scripted or simulated in bulk.  Everything a program
 * embedding muster needs is declared here, with the prefix muster_; the
 * library's other headers are internal.
 *
 * Results and diagnostics are written to the streams given to muster_new,
 * in the formats the `muster` command documents (text or JSON).  Functions
 * that act return an exit status: MUSTER_OK, MUSTER_ERROR for a rules error
 * (compile error, failed run), MUSTER_USAGE for bad arguments, or
 * MUSTER_INTERRUPTED when the caller asked odds being worked out to stop
 * (muster_prob_opts.interrupt).
 *
 * The library installs no signal handlers and never touches the process's
 * signals: a program that wants Ctrl-C to stop a long muster_prob catches
 * SIGINT itself and sets the flag it gave in interrupt (the `muster`
 * command does so while it works out odds).
 */
#ifndef MUSTER_H
#define MUSTER_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with every symbol hidden but these: MUSTER_API
 * marks what it exports (all of it named muster_). */
#if defined __GNUC__
#define MUSTER_API __attribute__((visibility("default")))
#else
#define MUSTER_API
#endif

/* MUSTER_INTERRUPTED is 130, the status a shell gives a command ended by
 * Ctrl-C (128 + SIGINT), so that a program may exit with it as it is. */
enum { MUSTER_OK = 0, MUSTER_ERROR = 1, MUSTER_USAGE = 2, MUSTER_INTERRUPTED = 130 };

typedef struct muster_ctx muster_ctx;
typedef struct muster_program muster_program;

/* A context: where output and diagnostics go, and the limits of a run. */
MUSTER_API muster_ctx *muster_new(FILE *out, FILE *err, int color);
MUSTER_API void muster_set_limits(muster_ctx *ctx, uint64_t max_steps, int max_depth);
/* Errors reported through this context so far. */
MUSTER_API int muster_error_count(const muster_ctx *ctx);

/* Compile a script; NULL (after printing diagnostics) if it has errors. */
MUSTER_API muster_program *muster_load(muster_ctx *ctx, const char *path);
MUSTER_API muster_program *muster_load_string(muster_ctx *ctx, const char *name, const char *text, size_t len);
/* A one-off expression, as a program with one procedure "expression" of no
 * arguments (for `muster prob -e 'count(roll 6d6 >= 4)'`). */
MUSTER_API muster_program *muster_load_expression(muster_ctx *ctx, const char *expression);

typedef struct muster_run_opts {
    int have_seed;
    uint64_t seed;
    const char *dice;        /* scripted dice, "6,3,4"; NULL for seeded dice */
    int explain;             /* a referee's account of every roll */
    int json;                /* {"result": ..., "log": [...]} */
    char *const *choices;    /* "Choice=option": what to take at a choice instead of its default */
    int nchoices;
} muster_run_opts;

/* Run a procedure; args are "name=value" strings. */
MUSTER_API int muster_run(muster_ctx *ctx, const muster_program *prog, const char *proc,
               int nargs, char *const *args, const muster_run_opts *opts);

typedef struct muster_prob_opts {
    uint64_t trials;         /* 0: the default (100000) */
    int have_seed;
    uint64_t seed;
    int json, csv;
    char *const *choices;    /* as for muster_run */
    int nchoices;
    const char *field;       /* when the result is a record: the odds of this field of it */
    int exact;               /* 1: exact odds, however long they take, or an error past the budget;
                                0: exact when the count fits the budget and ends within about a second
                                (judged as it goes, from its pace), else simulated */
    uint64_t budget;         /* most runs the exact engine may take (0: its default) */
    int no_specialize;       /* 1: simulate the procedure as written, not compiled for its fixed arguments */
    char *const *vs;         /* house rules' scripts: the odds under each beside these, with the */
    int nvs;                 /* change against them (0: no comparison); all simulated on one seed */
    int threads;             /* simulation threads (the counts are the same for any number) */
    const char *svg;         /* a bar chart of the odds (SVG) written to this file, before the usual
                                output; "-": the chart on the output stream instead (NULL: none) */
    int html;                /* 1: one HTML page (the table and the chart) instead of text, JSON or CSV */
    const volatile sig_atomic_t *interrupt;
                             /* NULL, or a flag read while odds are worked out (every few hundred runs
                                of an exact count, every block of trials of a simulation): once it is
                                non-zero, the work stops, a message on the error stream says how far
                                it had got, nothing is printed on the output stream, and the call
                                returns MUSTER_INTERRUPTED.  Set it from a signal handler of your own
                                or from another thread; the library never clears it. */
    void (*progress)(double share, const char *words, void *data);
                             /* NULL, or told how far long work has got, wherever a terminal would
                                show the progress line (an exact count past its first second, a
                                simulation of many trials), on a terminal or not: the share done,
                                0 to 1, a few words ("covered, 81920 runs, 2 s"), and progress_data.
                                Called on the thread that works out the odds (a simulation's
                                threads take turns under a lock); it must not call the library. */
    void *progress_data;
} muster_prob_opts;

/* The distribution of a procedure's results: exact when counting every way
 * the dice can fall fits the budget (opts->budget) and, unless opts->exact,
 * takes no more than about a second; else simulated, with a note on the
 * error stream saying why.  Where the error stream is a terminal, long work
 * shows its progress there.  An
 * argument whose value holds commas ("facing=front,side,rear") lists several
 * values: the odds of every combination of the values listed are worked out,
 * each on its own, and printed one row per combination (at most 1000; not
 * with opts->vs).  So a string holding a comma cannot be given here. */
MUSTER_API int muster_prob(muster_ctx *ctx, const muster_program *prog, const char *proc,
                int nargs, char *const *args, const muster_prob_opts *opts);

/* Check a compiled script further: report the values its tables leave out
 * (warnings) and run its examples; MUSTER_ERROR if an example fails.  The
 * counts of examples that passed and failed are added to *passed and *failed. */
/* What a house rule changes: the declarations of `variant` that differ
 * from `base`'s, the base's examples it changes, and the odds of the call
 * named (or of every procedure both run without arguments) where they
 * differ; opts as for muster_prob (seed 1 unless given; not json/csv/vs). */
MUSTER_API int muster_diff(muster_ctx *ctx, const muster_program *base, const muster_program *variant,
                           const char *proc, int nargs, char *const *args, const muster_prob_opts *opts);

MUSTER_API int muster_check(muster_ctx *ctx, const muster_program *prog, int *passed, int *failed);
/* Run the examples, printing a line for each ("PASS ..." / "FAIL ..."). */
MUSTER_API int muster_test(muster_ctx *ctx, const muster_program *prog, int *passed, int *failed);
/* How muster_sheet renders. */
typedef struct muster_sheet_opts {
    int html;                /* one self-contained HTML page (else Markdown) */
    int review;              /* the review document: every declaration as written, grouped by kind, for
                                checking a port against its text (else the table sheet a player prints) */
    int letter;              /* the table sheet's paper: US Letter (else A4); landscape either way */
    const char *const *only; /* the table sheet of these declarations and sections (by name or title) */
    int nonly;               /* how many; 0: the whole sheet */
} muster_sheet_opts;

/* Render the script as a quick reference sheet. */
MUSTER_API int muster_sheet(muster_ctx *ctx, const muster_program *prog, const muster_sheet_opts *opts);
/* Print the turn sequence(s) as a numbered checklist. */
MUSTER_API int muster_turn(muster_ctx *ctx, const muster_program *prog);

/* List the procedures with their parameters ("what can I run?"). */
MUSTER_API int muster_list(muster_ctx *ctx, const muster_program *prog);
/* The bytecode listing. */
MUSTER_API int muster_disassemble(muster_ctx *ctx, const muster_program *prog);
/* The bytecode of one call as `muster prob` simulates it: the procedure
 * compiled once more for these arguments (and choices), and for one field
 * of its record result when `field` is not NULL. */
MUSTER_API int muster_disassemble_call(muster_ctx *ctx, const muster_program *prog, const char *proc, int nargs,
                            char *const *args, char *const *choices, int nchoices, const char *field);

/* ---- interactive sessions (`muster repl`) ----
 *
 * A session is a script (or none) and the declarations typed since, compiled
 * together as one program each time something is typed; an expression typed
 * is compiled in that program's scope, as a procedure of its own, and run.
 * Typed text is named `name` in diagnostics ("<repl>"), at the line and
 * column the caller gives, so that a message points at what was typed.
 * Diagnostics go to the context's error stream, results to its output stream;
 * an error never ends the session, and the error limit counts each entry's
 * errors afresh. */
typedef struct muster_session muster_session;

/* A session with no script yet.  opts gives its dice (seeded from opts->seed
 * when have_seed, scripted when opts->dice, else seeded from a fresh seed)
 * and its choices (--choose); the rest of opts is not used.  NULL if
 * opts->dice is not a list of faces (after printing why).  The session is
 * the caller's to keep anywhere until muster_session_free; it keeps copies
 * of the choices, and uses ctx, which must outlive it. */
MUSTER_API muster_session *muster_session_new(muster_ctx *ctx, const char *name, const muster_run_opts *opts);
MUSTER_API void muster_session_free(muster_session *s);
/* Read a script (its imports, and for a variant its base) into the session.
 * With keep_typed, the declarations typed so far are applied again on top of
 * it (each replacing the script's declaration of its name); else they are
 * dropped.  On any error the session stays as it was. */
MUSTER_API int muster_session_load(muster_session *s, const char *path, int keep_typed);
/* 1 when text, the lines of one entry so far, stops before what it began is
 * finished (a bracket still open, a declaration without its body, an
 * operator with nothing after it): another line is wanted.  Else 0. */
MUSTER_API int muster_session_incomplete(const char *text);

/* What muster_session_eval does with an expression. */
enum { MUSTER_EVAL_RUN = 0, MUSTER_EVAL_EXPLAIN = 1, MUSTER_EVAL_PROB = 2 };
/* One entry, whose first character is at line:column of the session.
 * Declarations join the session (a declaration of a name declared before
 * replaces that one, with a note saying so; the session is unchanged if they
 * do not compile).  An expression is run on the session's dice and its value
 * printed as `muster run -e` prints it (MUSTER_EVAL_RUN), or with the
 * referee's account of --explain (MUSTER_EVAL_EXPLAIN), or its odds are
 * printed as `muster prob -e` prints them, with prob's options
 * (MUSTER_EVAL_PROB; the choices and, unless prob->have_seed, the seed are
 * the session's).  Every expression run takes the session's next seed. */
MUSTER_API int muster_session_eval(muster_session *s, const char *text, int line, int column, int how,
                                   const muster_prob_opts *prob);
/* Switch the dice: to seeded dice from opts->seed (have_seed) or to scripted
 * dice, used up in order across the expressions that follow (opts->dice).
 * With opts NULL, print which dice the session uses on the output stream. */
MUSTER_API int muster_session_dice(muster_session *s, const muster_run_opts *opts);
/* Out of memory, these return MUSTER_NOMEM (NULL for muster_session_names)
 * and the session stays as it was (see "Errors" below); for
 * muster_session_incomplete, which has no context, the entry counts as
 * finished, and evaluating it reports the error. */
/* The names the session knows, for completion: its procedures, tables,
 * enums and their members, records, the built-in functions, type names and
 * keywords; sorted, each once, NULL-terminated.  Valid until the session
 * changes. */
MUSTER_API const char *const *muster_session_names(muster_session *s);
/* The session as a program, for muster_list and the like: the script and
 * the declarations typed (none at first). */
MUSTER_API const muster_program *muster_session_program(const muster_session *s);
/* ---- end of interactive sessions ---- */

MUSTER_API const char *muster_version(void);
/* The folder the standard library (`import "dice"`) is read from: where it
 * was installed, or ../share/muster beside the running program, or the
 * source tree of a muster not yet installed, as a path without "." or ".."
 * parts or links; NULL if none holds it. */
MUSTER_API const char *muster_stdlib_dir(void);

/* ==== Values: procedures, results and odds as data ====
 *
 * The functions above print; these return what they find as data for a
 * program to use.  Everything they return is the caller's, in ordinary
 * malloc'ed memory, and is given back with the free function named beside
 * it (each accepts NULL).  A context made with muster_new(NULL, NULL, 0)
 * prints nothing: diagnostics are kept for muster_last_error.
 *
 * Errors: a function that fails returns NULL (or a status other than
 * MUSTER_OK), and muster_last_error then says why, as data.  Running out
 * of memory is such an error (status MUSTER_NOMEM) on the calling thread:
 * the library does not exit.  A context and a program stay valid after
 * any error. */

/* Out of memory: the heap limit (MUSTER_MAX_HEAP bytes, default 2 GiB) was
 * reached or the system refused.  What the call had built is dropped. */
enum { MUSTER_NOMEM = 3 };

typedef struct muster_error {
    int status;              /* MUSTER_ERROR, MUSTER_USAGE, MUSTER_NOMEM or MUSTER_INTERRUPTED */
    char *file;              /* the file the first error is in, or NULL when it has no place */
    int line, column;        /* where in it (1-based), or 0 */
    char *message;           /* the first error's message, one line, without file:line:col */
    char *text;              /* every diagnostic of the call as the command would print them (with
                                the source line and the caret) when the context prints nothing;
                                else NULL (they went to the context's error stream) */
} muster_error;

/* Why the last call on ctx that failed did so (NULL if none has).  A call
 * that succeeds leaves the last error as it was. */
MUSTER_API muster_error *muster_last_error(const muster_ctx *ctx);
MUSTER_API void muster_error_free(muster_error *e);

/* A context and a program are the caller's to keep anywhere (in malloc'ed
 * memory too) until they are freed; a program may outlive its context. */
MUSTER_API void muster_free(muster_ctx *ctx);
MUSTER_API void muster_program_free(muster_program *prog);

/* The kinds of value a procedure takes and returns. */
typedef enum muster_kind {
    MUSTER_INT,              /* i */
    MUSTER_RATIONAL,         /* num / den, in lowest terms, den > 0 */
    MUSTER_BOOL,             /* i: 0 or 1 */
    MUSTER_STRING,           /* text */
    MUSTER_ENUM,             /* text: the member's name; i: its index; type: the enum */
    MUSTER_POOL,             /* n dice of `sides` sides each; faces[]: what each shows, in order */
    MUSTER_RECORD,           /* n fields: field_names[] and fields[]; type: the record */
    MUSTER_UNKNOWN,          /* `?`: a value the rules text does not give */
} muster_kind;

typedef struct muster_value {
    muster_kind kind;
    const char *type;        /* "int", "rat", "bool", "str", "pool", "?", or the enum's or record's name */
    int64_t i;               /* INT, BOOL, ENUM (see muster_kind) */
    int64_t num, den;        /* RATIONAL; an INT is i/1 here too */
    const char *text;        /* STRING, ENUM */
    int64_t sides;           /* POOL */
    size_t n;                /* POOL: dice; RECORD: fields */
    int64_t *faces;          /* POOL: the faces shown, ascending */
    const char **field_names;   /* RECORD */
    struct muster_value *fields;
    const char *shown;       /* the value as `muster run` prints it */
} muster_value;

MUSTER_API void muster_value_free(muster_value *v);

/* ---- what a program offers ---- */

typedef struct muster_param {
    const char *name;
    const char *type;        /* as the script writes it: "int", "rat", "Cover", ... */
    muster_kind kind;
    const char *default_text;  /* the default as written, or NULL when the argument must be given */
    size_t nvalues;          /* an enum parameter: its members (bool: true, false); else 0 */
    const char *const *values;
} muster_param;

typedef struct muster_proc {
    const char *name;
    const char *what;        /* "proc", "table", "bands", "modifiers" or "record" */
    const char *returns;     /* its result's type */
    size_t nparams;
    const muster_param *params;
} muster_proc;

typedef struct muster_choice {
    const char *name;        /* as --choose and muster_call_opts.choices name it */
    const char *question;    /* the rules' question, or NULL */
    size_t noptions;
    const char *const *options;
    size_t default_option;   /* index in options */
} muster_choice;

/* Everything callable in declaration order, and the rules' choices.  The
 * lists belong to the program (valid until muster_program_free). */
MUSTER_API size_t muster_proc_count(const muster_program *prog);
MUSTER_API const muster_proc *muster_proc_at(const muster_program *prog, size_t i);
/* NULL when the program has no such name. */
MUSTER_API const muster_proc *muster_proc_find(const muster_program *prog, const char *name);
MUSTER_API size_t muster_choice_count(const muster_program *prog);
MUSTER_API const muster_choice *muster_choice_at(const muster_program *prog, size_t i);

/* ---- calling with typed arguments ---- */

/* One argument: its parameter's name and a value of the parameter's kind
 * (an int is taken where a rat is asked).  MUSTER_STRING with text also
 * fits any parameter: the text is read as `name=text` is on the command
 * line ("3/2", "true", "rear"). */
typedef struct muster_arg {
    const char *name;
    muster_kind kind;        /* MUSTER_INT, MUSTER_RATIONAL, MUSTER_BOOL, MUSTER_ENUM or MUSTER_STRING */
    int64_t i;               /* INT, BOOL */
    int64_t num, den;        /* RATIONAL */
    const char *text;        /* ENUM: the member's name; STRING */
} muster_arg;

MUSTER_API muster_arg muster_arg_int(const char *name, int64_t i);
MUSTER_API muster_arg muster_arg_rational(const char *name, int64_t num, int64_t den);
MUSTER_API muster_arg muster_arg_bool(const char *name, int b);
MUSTER_API muster_arg muster_arg_enum(const char *name, const char *member);
MUSTER_API muster_arg muster_arg_text(const char *name, const char *text);

typedef struct muster_call_opts {
    int have_seed;
    uint64_t seed;
    const char *dice;        /* scripted dice, "6,3,4"; NULL: seeded (have_seed) or random */
    char *const *choices;    /* "Choice=option", as for muster_run */
    int nchoices;
} muster_call_opts;

/* Run a procedure once; its result, or NULL (muster_last_error says why).
 * opts may be NULL (random dice, the default choices). */
MUSTER_API muster_value *muster_call(muster_ctx *ctx, const muster_program *prog, const char *proc,
                                     size_t nargs, const muster_arg *args, const muster_call_opts *opts);

/* ---- odds as data ---- */

typedef struct muster_outcome {
    muster_value *value;
    double probability;
    char *fraction;          /* exact: the probability in lowest terms, "7/36"; NULL when simulated */
    uint64_t count;          /* simulated: the trials that gave it; exact: 0 */
    double low, high;        /* simulated: its 95% interval; exact: both the probability */
} muster_outcome;

typedef struct muster_distribution {
    int exact;               /* 1: counted over every way the dice fall; 0: simulated */
    uint64_t runs;           /* exact: runs of the procedure it took; simulated: the trials */
    uint64_t seed;           /* simulated: the seed */
    size_t n;
    muster_outcome *outcomes;   /* in the order of the values */
    int numeric;             /* the values are numbers: mean and sd are set */
    double mean, sd;         /* of the outcomes with a value */
    char *mean_fraction;     /* exact and numeric: the mean in lowest terms ("7/2", or "4") */
    double not_given;        /* the share of runs that reach a value the rules do not give (`?`) */
    char *not_given_fraction;   /* ... exact: as a fraction, when not 0; else NULL */
    double cut;              /* exact: the share of runs an open-ended roll (one that may reroll for ever)
                                was cut short at, in no outcome */
    char *cut_fraction;      /* ... as a fraction, when not 0; else NULL */
    char *note;              /* simulated though not asked to be: why; else NULL */
} muster_distribution;

/* The odds of a procedure's results, as muster_prob works them out (opts
 * as for it, NULL for the defaults; its output fields, vs and svg are not
 * used).  NULL on error. */
MUSTER_API muster_distribution *muster_distribution_of(muster_ctx *ctx, const muster_program *prog, const char *proc,
                                                       size_t nargs, const muster_arg *args,
                                                       const muster_prob_opts *opts);
MUSTER_API void muster_distribution_free(muster_distribution *d);

#ifdef __cplusplus
}
#endif

#endif
