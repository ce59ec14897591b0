/* sheet.h — a compiled script rendered back as a quick reference sheet.
 *
 * Markdown for reading beside the source, or one self-contained HTML page
 * (CSS only) laid out for printing on A4.  Built from the main file's
 * declarations as written (the syntax tree, not the bytecode); see sheet.c
 * for the order of sections.  A variant's sheet is its base's, patched,
 * with what each house rule changed marked.
 */
#ifndef MUSTER_API_SHEET_H
#define MUSTER_API_SHEET_H

#include "compiler/compiler.h"
#include "muster.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct SheetOptions {
    bool html;               /* one HTML page (else Markdown) */
    bool review;             /* the document for checking a port against its text (else the table sheet) */
    bool letter;             /* the table sheet's page: US Letter (else A4); landscape either way */
    muster_ctx *ctx;         /* for the odds tables' numbers and their errors */
    const char *const *only; /* only these declarations and sections, by name or title (none: all) */
    int nonly;
} SheetOptions;

/* Whether the script's main module has a declaration named, or a section
 * titled, `name`. */
bool sheet_has_part(const Compiled *c, const char *name);

int sheet_render(FILE *out, const Compiled *c, const SheetOptions *o);

#endif
