/* progress.h — the progress line `muster prob` draws on a terminal.
 *
 * A simulation of many trials and an exact count that takes more than a
 * second show how far they have got on standard error, as one line redrawn
 * in place: a bar, a percentage and, for a count, its runs.  The line is
 * drawn only when the context's error stream is the process's standard
 * error and that is a terminal (never into a file or a pipe), and it is
 * erased before anything else is written there and when the work ends, so
 * that no message or result lands beside it.
 *
 * The functions do no locking: a caller drawing from several threads (the
 * simulation) holds its own lock around them.
 */
#ifndef MUSTER_API_PROGRESS_H
#define MUSTER_API_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

typedef struct Progress {
    FILE *to;                /* the terminal drawn on; NULL: nothing is drawn */
    bool drawn;              /* a line is showing */
    void (*hook)(double share, const char *words, void *data);   /* the caller's, or NULL */
    void *hook_data;
} Progress;

/* A progress line for a context whose error stream is err. */
void progress_init(Progress *p, FILE *err);
/* Tell hook (when not NULL) of the progress too, as progress_draw is called. */
void progress_hook(Progress *p, void (*hook)(double share, const char *words, void *data), void *data);
/* Draw (or redraw) the line: the share done, 0 to 1, and a few words
 * after the percentage (NULL: none); keep it under 40 characters, so
 * that the line fits 80 columns. */
void progress_draw(Progress *p, double share, const char *words);
/* Erase the line, if one is showing. */
void progress_clear(Progress *p);

#endif
