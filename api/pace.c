/* pace.c — whether an exact count is worth waiting for (see pace.h). */
#include "config.h"
#include "api/pace.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>

PaceEstimate pace_judge(const PaceSample *from, const PaceSample *now, uint64_t budget)
{
    PaceEstimate e = { PACE_WAIT, INFINITY, INFINITY };
    double covered = now->done - from->done, took = now->elapsed - from->elapsed;
    double ran = (double)now->runs - (double)from->runs;
    if (covered > 0) {
        double left = now->done < 1 ? 1 - now->done : 0;
        e.seconds = now->elapsed + left * (took / covered);
        e.runs = (double)now->runs + left * (ran / covered);
    }
    if (now->elapsed < PACE_FIRST_LOOK || ran <= 0)
        return e;
    /* the count ends when it has covered everything or used its budget,
     * whichever comes first: if either is near, wait for it */
    double runs_left = now->runs < budget ? (double)(budget - now->runs) : 0;
    double to_budget = now->elapsed + runs_left * (took / ran);
    if (e.seconds <= PACE_PATIENCE || to_budget <= PACE_PATIENCE)
        return e;
    e.verdict = e.runs > (double)budget ? PACE_OVER_BUDGET : PACE_TOO_SLOW;
    return e;
}

void pace_start(Pace *p, uint64_t budget)
{
    *p = (Pace){ .budget = budget, .from_seconds = INFINITY, .next_seconds = INFINITY };
}

PaceEstimate pace_look(Pace *p, const PaceSample *now)
{
    /* the stretch moves on each time the elapsed time doubles: it then
     * starts where the last one ended, half the time ago */
    bool moved = now->elapsed >= 2 * p->next.elapsed;
    if (moved) {
        p->from = p->next;
        p->from_seconds = p->next_seconds;
        p->next = *now;
    }
    PaceEstimate e = pace_judge(&p->from, now, p->budget);
    if (moved)
        p->next_seconds = e.seconds;
    if (e.verdict != PACE_WAIT && now->elapsed < PACE_PATIENCE && e.seconds < p->from_seconds / 2)
        e.verdict = PACE_WAIT;   /* speeding up */
    return e;
}

double pace_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double pace_work_now(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return pace_now() / PACE_BUILD_SLOWDOWN;
    return ((double)ts.tv_sec + (double)ts.tv_nsec * 1e-9) / PACE_BUILD_SLOWDOWN;
}

void pace_duration_text(double s, char *buf, size_t size)
{
    if (!(s < 365.25 * 86400))   /* (infinity too) */
        snprintf(buf, size, "more than a year");
    else if (s < 90)
        snprintf(buf, size, "%.0f s", s < 1 ? 1 : s);
    else if (s < 90 * 60)
        snprintf(buf, size, "%.0f min", s / 60);
    else if (s < 48 * 3600)
        snprintf(buf, size, "%.0f h", s / 3600);
    else
        snprintf(buf, size, "%.0f days", s / 86400);
}

void pace_runs_text(double runs, char *buf, size_t size)
{
    if (!isfinite(runs)) {
        snprintf(buf, size, "more than can be counted");
        return;
    }
    if (runs < 100) {
        snprintf(buf, size, "%.0f", runs);
        return;
    }
    /* two significant figures: the projection is no better than that, and
     * rounding keeps the note the same when it is made a little earlier or
     * later */
    int e = (int)floor(log10(runs));
    double m = round(runs / pow(10, e) * 10) / 10;
    if (m >= 10) {           /* 9.96 rounded up */
        m /= 10;
        e++;
    }
    if (e < 15)
        snprintf(buf, size, "%.0f", m * pow(10, e));
    else
        snprintf(buf, size, "%.1fe%d", m, e);
}

void pace_share_text(double share, char *buf, size_t size)
{
    double pct = share * 100;
    if (pct < 0.1)
        snprintf(buf, size, "less than 0.1%%");
    else if (pct < 10)
        snprintf(buf, size, "%.1f%%", floor(pct * 10) / 10);
    else
        snprintf(buf, size, "%.0f%%", floor(pct));
}
