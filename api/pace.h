/* pace.h — whether an exact count is worth waiting for.
 *
 * `muster prob` counts every outcome exactly when it can, and simulates when
 * it cannot.  The budget of runs says "cannot" for counts that are too big,
 * but a count may be small in runs and still slow (each run long), or need
 * far more runs than the budget and spend many seconds getting there.  So
 * while the count goes, its driver (api/odds.c) asks pace_judge now and
 * then, from how far the count has got, whether it will end soon enough:
 * if not, it stops the count and simulates.
 *
 * The engine says how many runs it has made and which share of the
 * probability the paths run so far cover (ExactProgress).  From these and
 * the time taken come two projections, both at the pace of the latest
 * stretch of the count (its last half or so, see Pace):
 *
 *   - the time and the runs to cover it all: what is left of the
 *     probability, at the rate the stretch covered it;
 *   - the time to reach the budget, when the count stops whether it has
 *     covered everything or not: the runs left, at the stretch's rate.
 *
 * The share covered is a rough guide: paths are run in order, and the
 * first ones may carry little probability (a pool's rare multisets come
 * first), or a branch may be deep and slow and the share stop growing for
 * a long time (a procedure that calls itself, each path deeper and less
 * likely); the latest stretch follows such changes sooner than the average
 * since the start, and a count whose projection keeps falling fast is let
 * be.  So no verdict is given before PACE_FIRST_LOOK seconds, and a count
 * is stopped only when neither projection ends within PACE_PATIENCE
 * seconds (and, before that, when it is not speeding up).  Both
 * projections are at least the time already taken, so a count that has
 * not ended after PACE_PATIENCE seconds is always stopped.
 *
 * Whether a count is stopped depends on the processor time it takes (its
 * thread's, see pace_work_now), so on the machine but not on its load; how
 * big the count is (its runs) does not.  The note that says why it was
 * stopped is therefore worded in runs when the count would need more runs
 * than the budget (the same on any machine, for a count whose share grows
 * steadily), and in seconds only when it would fit the budget but be slow.
 */
#ifndef MUSTER_API_PACE_H
#define MUSTER_API_PACE_H

#include <stddef.h>
#include <stdint.h>

#define PACE_FIRST_LOOK 0.25     /* seconds of counting before any verdict */
#define PACE_PATIENCE 1.5        /* seconds a count may be projected to take */
#define PACE_SHOW 1.0            /* seconds before a count draws its progress on a terminal */

/* How far a count has got. */
typedef struct PaceSample {
    double elapsed;              /* seconds since it started */
    uint64_t runs;               /* runs so far */
    double done;                 /* the share of the probability covered, 0 to 1 */
} PaceSample;

typedef enum PaceVerdict {
    PACE_WAIT,                   /* too early to tell, or it will end soon enough: go on */
    PACE_TOO_SLOW,               /* it would fit the budget, but take too long: stop */
    PACE_OVER_BUDGET,            /* it would need more runs than the budget, and reaching the
                                    budget would take too long: stop */
} PaceVerdict;

typedef struct PaceEstimate {
    PaceVerdict verdict;
    double seconds;              /* the projected time to cover it all (INFINITY: the share covered
                                    did not grow over the stretch) */
    double runs;                 /* the projected runs to cover it all (INFINITY likewise) */
} PaceEstimate;

/* The verdict on a count that has got as far as `now`, at the pace it had
 * since `from` (an earlier sample, or all zero: since the start). */
PaceEstimate pace_judge(const PaceSample *from, const PaceSample *now, uint64_t budget);

/* A count's pace as it goes: the samples that start its latest stretch,
 * and the time projected when each was taken. */
typedef struct Pace {
    uint64_t budget;
    PaceSample from;             /* the start of the stretch judged */
    PaceSample next;             /* the start of the next one */
    double from_seconds, next_seconds;
} Pace;

void pace_start(Pace *p, uint64_t budget);
/* Take a sample and judge the count by it.  The stretch judged starts
 * between a quarter and a half of the elapsed time ago (at the start, for
 * the first looks).  A count speeding up — its projected time less than
 * half what it was at the start of the stretch — is given until
 * PACE_PATIENCE: its first paths carried little of the probability, and
 * its projection is still falling. */
PaceEstimate pace_look(Pace *p, const PaceSample *now);

/* Seconds on a clock that only goes forward (for elapsed times). */
double pace_now(void);

/* Seconds of processor time the calling thread has used, for the verdicts:
 * the count's own work, however busy the machine is with other things, so
 * that the same count gets the same verdict on an idle machine and a loaded
 * one.  In a sanitizer build, whose code runs several times slower, scaled
 * down to about what a release build takes (PACE_BUILD_SLOWDOWN). */
double pace_work_now(void);

#if defined(__SANITIZE_ADDRESS__)
#define PACE_BUILD_SLOWDOWN 6.0
#else
#define PACE_BUILD_SLOWDOWN 1.0
#endif

/* Texts for the notes: a duration ("40 s", "3 min", "more than a year"), a
 * projected number of runs rounded to two figures ("37000000", "4.9e46"),
 * and a share of the probability ("37%", "0.4%", "less than 0.1%"). */
void pace_duration_text(double seconds, char *buf, size_t size);
void pace_runs_text(double runs, char *buf, size_t size);
void pace_share_text(double share, char *buf, size_t size);

#endif
