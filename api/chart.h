/* chart.h — the odds of prob drawn as an SVG bar chart (--svg, --html).
 *
 * A renderer like odds_print.c and vs_print.c: it draws the OddsTable of
 * odds.c, or the OddsVs of odds_vs.c, and computes no odds of its own.
 * One bar per value in the table's order (a group of bars, one per side,
 * under --vs), then the share "not given in source" apart, hatched; the y
 * axis in percent.  The layout is worked out from the number and length of
 * the labels (labels thin out or turn when they would overlap), and the
 * output is the same bytes for the same table: no clock, no randomness,
 * coordinates rounded to two decimals.  The SVG is self-contained (no
 * script, no external reference) and printable in black and white: greys,
 * hatching and outlines, no colour that carries meaning alone.
 */
#ifndef MUSTER_API_CHART_H
#define MUSTER_API_CHART_H

#include "api/internal.h"

#include <stdio.h>

void chart_odds_svg(FILE *out, const OddsTable *t);
void chart_vs_svg(FILE *out, const OddsVs *vs);

/* Text for XML (SVG or HTML): & < > " ' escaped, a control character
 * written as \xNN, a byte that is not UTF-8 as U+FFFD; at most `max`
 * characters (max < 0: all), the last of them an ellipsis when cut.
 * Returns whether it was cut. */
bool chart_xml_text(FILE *out, const char *text, int max);

#endif
