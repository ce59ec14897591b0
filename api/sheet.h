/* sheet.h — a compiled script rendered back as a quick reference sheet.
 *
 * Markdown for reading beside the source, or one self-contained HTML page
 * (CSS only) that prints on A4/Letter.  Built from the main file's
 * declarations; see sheet.c for the order of sections.
 */
#ifndef MUSTER_API_SHEET_H
#define MUSTER_API_SHEET_H

#include "compiler/compiler.h"

#include <stdbool.h>
#include <stdio.h>

int sheet_render(FILE *out, const Compiled *c, bool html);

#endif
