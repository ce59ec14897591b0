/* variant.h — a variant's `change` declarations applied to its base.
 *
 * A variant file (headed `variant "TITLE" of "BASE"`) is its base ruleset
 * with a few declarations changed.  The loader puts the base's declarations
 * (the base itself patched already, when it is a variant too) first in one
 * Module and the variant's after them; variant_apply then replaces each
 * base declaration a `change` names with the changed one, in its place, and
 * drops the `change` declarations, so the compiler sees one ordinary
 * module and checks the result as it checks any script (a changed band
 * table is proved to cover its range again, a changed procedure is typed).
 *
 * What a `change` may do (docs/language.md#variants-house-rules):
 *   - change proc NAME(PARAMS) -> T { BODY }: a new body, same parameters
 *     (names and types; defaults may differ) and result; `(x = V, ...)`
 *     keeps the base's parameters with new defaults for those named, and
 *     no body keeps the base's;
 *   - change table / bands NAME { ROWS }: rows that replace the base's rows
 *     of the same keys (with a `columns` line, only some cells); `add`
 *     rows for new keys; a number or range that is no key of the base is
 *     laid over its rows;
 *   - change modifiers NAME { ... }: lines named by label replace the
 *     base's; `remove "LABEL"`; `add [before|after "LABEL"] LINE`;
 *   - change enum / outcome / choice NAME { ... } [default X]: members
 *     written again take new words and field values; `add` new ones (not
 *     in a ladder); a choice may get a new default.
 * Whatever a change brings carries the variant's file (Row.src, cell_src,
 * Key.src, ModItem.src, Member.src, Param.src) and the patched declaration
 * points at the base's (Decl.was): messages then point at the variant, and
 * a sheet can mark what changed.
 * A change that names what the base does not have, or whose parameters do
 * not fit, is an error at the variant's line naming the base's file.  The
 * base's declarations are never written to: a changed one is a copy.
 */
#ifndef MUSTER_COMPILER_VARIANT_H
#define MUSTER_COMPILER_VARIANT_H

#include "lang/ast.h"
#include "lang/source.h"

/* all->decls[0, nbase) are the base's, read from base_src (and what it
 * imports); the rest are the variant's, whose header is `header`.  Applies
 * the changes, merges the base's header into the variant's (the settings
 * the variant does not give are the base's) and returns false if any
 * change was refused (after reporting it). */
bool variant_apply(Module *all, int nbase, const Source *base_src, Decl *header, Diag *diag);

#endif
