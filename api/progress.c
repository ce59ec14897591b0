/* progress.c — the progress line `muster prob` draws on a terminal (see progress.h). */
#include "config.h"
#include "api/progress.h"

#include <unistd.h>

#define PROGRESS_BAR 32      /* characters of the bar, between its brackets */

void progress_init(Progress *p, FILE *err)
{
    p->to = err == stderr && isatty(fileno(stderr)) ? stderr : NULL;
    p->drawn = false;
    p->hook = NULL;
    p->hook_data = NULL;
}

void progress_hook(Progress *p, void (*hook)(double share, const char *words, void *data), void *data)
{
    p->hook = hook;
    p->hook_data = data;
}

void progress_draw(Progress *p, double share, const char *words)
{
    if (p->hook)
        p->hook(share <= 0 ? 0 : share >= 1 ? 1 : share, words, p->hook_data);
    if (!p->to)
        return;
    int pct = share <= 0 ? 0 : share >= 1 ? 100 : (int)(share * 100);
    static const char full[PROGRESS_BAR + 1] = "################################";
    /* back to the start of the line, the line, then clear what a longer
     * line drawn before may have left */
    fprintf(p->to, "\r[%-*.*s] %3d%%%s%s\033[K", PROGRESS_BAR, pct * PROGRESS_BAR / 100, full, pct,
            words ? " " : "", words ? words : "");
    fflush(p->to);
    p->drawn = true;
}

void progress_clear(Progress *p)
{
    if (!p->drawn)
        return;
    fputs("\r\033[K", p->to);
    fflush(p->to);
    p->drawn = false;
}
