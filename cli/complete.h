/* complete.h — `muster complete`: the candidates for one word of a muster
 * command line, for the shell completion scripts (completions/).
 *
 * complete.c knows how to complete a word; what the commands and options
 * are, it asks main.c, whose tables (commands and option_table) stay the
 * one place that says so.  The contract of the verb is in docs/cli.md
 * (Shell completion).
 */
#ifndef MUSTER_CLI_COMPLETE_H
#define MUSTER_CLI_COMPLETE_H

/* What an option's value is, for completing it. */
typedef enum cli_value {
    CLI_VALUE_NONE,         /* nothing to offer: a number, dice, a name... */
    CLI_VALUE_WORDS,        /* one of a fixed list of words */
    CLI_VALUE_SCRIPT,       /* a .muster file */
    CLI_VALUE_FILE,         /* any file (one that is written) */
    CLI_VALUE_CHOICE,       /* CHOICE=OPTION, from the script's choices */
    CLI_VALUE_EXPRESSION,   /* an expression, which stands for FILE and PROC */
} cli_value;

typedef struct cli_option {
    const char *name;           /* the long name, without "--", or NULL */
    char letter;                /* the short name, or 0 */
    int takes_value;
    int repeats;                /* may be given more than once */
    cli_value value;
    const char *const *words;   /* CLI_VALUE_WORDS: the words, NULL-terminated */
} cli_option;

/* What a command takes after its options. */
typedef enum cli_operands {
    CLI_NO_OPERANDS,        /* nothing muster complete knows how to offer */
    CLI_SCRIPTS,            /* FILE|DIR... */
    CLI_SCRIPT,             /* FILE */
    CLI_SCRIPT_AND_NAMES,   /* FILE [NAME...] */
    CLI_SCRIPT_AND_CALL,    /* FILE [PROC [NAME=VALUE]...] */
    CLI_TWO_SCRIPTS_AND_CALL, /* BASE VARIANT [PROC [NAME=VALUE]...] */
} cli_operands;

/* ---- from main.c ---- */

/* The name of the i-th command (0, 1, ...), or NULL past the last. */
const char *cli_command_name(int i);
/* What the command named takes after its options (CLI_NO_OPERANDS when
 * there is no such command); *commas: whether a NAME=VALUE may list
 * values, NAME=A,B (prob). */
cli_operands cli_command_operands(const char *command, int *commas);
/* The i-th option (0, 1, ...) into *out, and in *goes whether it goes with
 * the command named; 0 past the last. */
int cli_option_at(int i, const char *command, cli_option *out, int *goes);

/* ---- complete.c ---- */

/* muster complete CWORD -- WORD0 WORD1 ...: argv holds what follows
 * "complete".  Prints the candidates for word CWORD, one a line; exit
 * status 0, or 2 when the verb itself is called wrongly. */
int cli_complete(int argc, char **argv);

#endif
