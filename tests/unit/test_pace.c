/* test_pace.c — unit tests for api/pace.c: whether an exact count is worth
 * waiting for, judged from how far it has got, and the texts of the notes.
 * The samples are made up: nothing here reads the clock.
 */
#include "config.h"
#include "tests/unit/harness.h"

#include "api/pace.h"

#include <math.h>
#include <string.h>

static const PaceSample start = { 0, 0, 0 };

static PaceEstimate judge(double elapsed, uint64_t runs, double done, uint64_t budget)
{
    PaceSample now = { elapsed, runs, done };
    return pace_judge(&start, &now, budget);
}

/* Before the first look, no verdict, however hopeless the count looks. */
static void test_pace_first_look(void)
{
    PaceEstimate e = judge(PACE_FIRST_LOOK / 2, 1000, 1e-9, 2000000);
    CU_ASSERT_EQUAL(e.verdict, PACE_WAIT);
    CU_ASSERT_DOUBLE_EQUAL(e.runs, 1e12, 1);
    e = judge(PACE_FIRST_LOOK / 2, 1000, 0, 2000000);
    CU_ASSERT_EQUAL(e.verdict, PACE_WAIT);
    CU_ASSERT(isinf(e.seconds) && isinf(e.runs));
}

/* A count whose share grows steadily: the projections are its totals. */
static void test_pace_steady(void)
{
    /* half done in half a second: a second in all */
    PaceEstimate e = judge(0.5, 500000, 0.5, 2000000);
    CU_ASSERT_EQUAL(e.verdict, PACE_WAIT);
    CU_ASSERT_DOUBLE_EQUAL(e.seconds, 1.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(e.runs, 1000000, 1e-3);
    /* 10% in 0.3 s, 300000 of 2000000 runs: 3 s and 3000000 runs, so the
     * budget would stop it, but not before 2 s: over budget */
    e = judge(0.3, 300000, 0.1, 2000000);
    CU_ASSERT_EQUAL(e.verdict, PACE_OVER_BUDGET);
    CU_ASSERT_DOUBLE_EQUAL(e.seconds, 3.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(e.runs, 3000000, 1e-3);
    /* the same with a bigger budget: it fits, but is slow */
    e = judge(0.3, 300000, 0.1, 10000000);
    CU_ASSERT_EQUAL(e.verdict, PACE_TOO_SLOW);
    /* a count of a billion runs, a millionth done: over any budget below */
    e = judge(0.3, 1000, 1e-6, 100000000);
    CU_ASSERT_EQUAL(e.verdict, PACE_OVER_BUDGET);
    CU_ASSERT_DOUBLE_EQUAL(e.runs, 1e9, 1);
}

/* Near either end, the count goes on: it will stop soon by itself. */
static void test_pace_near_an_end(void)
{
    /* far from covering it all, but the budget is reached in 2/3 s */
    PaceEstimate e = judge(0.5, 1500000, 0.001, 2000000);
    CU_ASSERT_EQUAL(e.verdict, PACE_WAIT);
    /* slow runs, but nearly all covered */
    e = judge(1.2, 100, 0.9, 2000000);
    CU_ASSERT_EQUAL(e.verdict, PACE_WAIT);
    CU_ASSERT(e.seconds <= PACE_PATIENCE);
}

/* Past the patience, a count is stopped whatever it projects: no count
 * runs on for long unless asked to (--exact). */
static void test_pace_patience_bounds(void)
{
    PaceEstimate e = judge(PACE_PATIENCE + 0.1, 1900000, 0.9999, 2000000);
    CU_ASSERT_NOT_EQUAL(e.verdict, PACE_WAIT);
    CU_ASSERT(e.seconds > PACE_PATIENCE);
    e = judge(PACE_PATIENCE + 0.1, 1000, 0.9999, 2000000);
    CU_ASSERT_EQUAL(e.verdict, PACE_TOO_SLOW);
}

/* A count whose share stopped growing (a deep branch of a procedure that
 * calls itself): judged by its latest stretch, it would never end, so it
 * runs into the budget. */
static void test_pace_stalled(void)
{
    Pace p;
    pace_start(&p, 2000000);
    PaceEstimate e = { 0 };
    /* 10% in the first 10 ms, then nothing more */
    for (int i = 1; i <= 300; i++) {
        PaceSample s = { i * 0.001, (uint64_t)i * 100, i < 10 ? i * 0.01 : 0.1 };
        e = pace_look(&p, &s);
    }
    CU_ASSERT_EQUAL(e.verdict, PACE_OVER_BUDGET);
    CU_ASSERT(isinf(e.runs) && isinf(e.seconds));
    /* judged from the start instead, it would seem to need 3 s */
    PaceSample now = { 0.3, 30000, 0.1 };
    e = pace_judge(&start, &now, 2000000);
    CU_ASSERT_DOUBLE_EQUAL(e.seconds, 3.0, 1e-9);
}

/* A count whose first paths carry little probability (a pool's rare
 * multisets) speeds up: the latest stretch sees it sooner than the average. */
static void test_pace_speeding_up(void)
{
    Pace p;
    pace_start(&p, 2000000);
    PaceEstimate e = { 0 };
    /* 1% covered in the first 0.2 s, then 30% a tenth of a second */
    for (int i = 1; i <= 30; i++) {
        double t = i * 0.01;
        PaceSample s = { t, (uint64_t)i * 1000, t <= 0.2 ? t * 0.05 : 0.01 + (t - 0.2) * 3 };
        e = pace_look(&p, &s);
    }
    CU_ASSERT_EQUAL(e.verdict, PACE_WAIT);
    CU_ASSERT(e.seconds < 1.0);
    /* on the average since the start: 0.3 s for 31%, about 1 s */
    PaceSample now = { 0.3, 30000, 0.31 };
    CU_ASSERT(pace_judge(&start, &now, 2000000).seconds > e.seconds);
}

/* A pool's multisets: the share covered grows slowly, then fast.  While
 * its projection keeps falling (to less than half of what it was at the
 * start of the stretch) it is given until the patience runs out, though
 * the projection is still past it; after that, it is stopped. */
static void test_pace_falling_projection(void)
{
    Pace p;
    pace_start(&p, 100000000);
    PaceEstimate e = { 0 };
    double t = 0;
    /* the share grows as t^4: the projection falls as the count goes */
    for (int i = 1; t < 0.6; i++) {
        t = i * 0.01;
        PaceSample s = { t, (uint64_t)i * 10000, pow(t / 3, 4) };
        e = pace_look(&p, &s);
        CU_ASSERT_EQUAL(e.verdict, PACE_WAIT);
    }
    CU_ASSERT(e.seconds > PACE_PATIENCE);
    /* judged on the stretch alone, it would have been stopped */
    CU_ASSERT_NOT_EQUAL(pace_judge(&p.from, &(PaceSample){ t, 600000, pow(t / 3, 4) }, 100000000).verdict,
                        PACE_WAIT);
    /* still falling, but past the patience: stopped */
    for (int i = 61; t < PACE_PATIENCE + 0.05; i++) {
        t = i * 0.01;
        PaceSample s = { t, (uint64_t)i * 10000, pow(t / 3, 4) };
        e = pace_look(&p, &s);
    }
    CU_ASSERT_NOT_EQUAL(e.verdict, PACE_WAIT);
}

/* The texts of the notes. */
static void test_pace_texts(void)
{
    char b[64];
    pace_runs_text(1e9 - 0.3, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "1000000000");
    pace_runs_text(37.2e6, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "37000000");
    pace_runs_text(9.96e6, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "10000000");
    pace_runs_text(4.93e46, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "4.9e46");
    pace_runs_text(9.97e35, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "1.0e36");
    pace_runs_text(42, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "42");
    pace_share_text(0.371, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "37%");
    pace_share_text(0.99999, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "99%");
    pace_share_text(0.0042, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "0.4%");
    pace_share_text(0.00001, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "less than 0.1%");
    pace_duration_text(0.4, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "1 s");
    pace_duration_text(40.2, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "40 s");
    pace_duration_text(200, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "3 min");
    pace_duration_text(5 * 3600, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "5 h");
    pace_duration_text(10 * 86400, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "10 days");
    pace_duration_text(1e12, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "more than a year");
    pace_duration_text(INFINITY, b, sizeof b);
    CU_ASSERT_STRING_EQUAL(b, "more than a year");
}

void register_tests(void)
{
    static const TestDef pace[] = {
        { "no verdict before the first look", test_pace_first_look },
        { "a steady count: slow, or over budget", test_pace_steady },
        { "near the end or the budget, wait", test_pace_near_an_end },
        { "past the patience, always stopped", test_pace_patience_bounds },
        { "a stalled count runs into the budget", test_pace_stalled },
        { "a count speeding up is judged by its latest stretch", test_pace_speeding_up },
        { "a falling projection is given until the patience", test_pace_falling_projection },
        { "the texts of the notes", test_pace_texts },
        { NULL, NULL },
    };
    add_suite("pace of an exact count", pace);
}
