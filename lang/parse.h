/* parse.h — turning a Source into a Module (syntax tree).
 *
 * The parser is Bison-generated (parser.y, pure and reentrant) and reads
 * tokens from an re2c lexer (lexer.re) over the in-memory source text.  All
 * state lives in a Parser struct passed to both, so parses can run in
 * parallel.  Syntax errors are reported through the Diag with the span of
 * the offending token; after an error the parser skips to the end of the
 * block it is in and goes on, so one run can show several mistakes.
 *
 * This header is what the rest of muster sees of the parser: the two entry
 * points.  The Parser struct and the lexer's functions are lang/'s own, in
 * parser_state.h.
 */
#ifndef MUSTER_LANG_PARSE_H
#define MUSTER_LANG_PARSE_H

#include "lang/ast.h"
#include "lang/source.h"

/* Parse a whole source.  Always returns a module (possibly partial);
 * check diag->errors to know whether it is complete. */
Module *parse_module(const Source *src, Diag *diag);

/* Parse a source that must be exactly one expression (`muster -e`).
 * NULL, with the errors reported, when it is not. */
Expr *parse_expression(const Source *src, Diag *diag);

/* ---- text typed at a prompt (`muster repl`) ---- */

/* parse_expression for a line typed at the prompt: a message about text
 * after the expression speaks of the prompt, not of -e. */
Expr *parse_prompt_expression(const Source *src, Diag *diag);

/* What a piece of typed text begins with, by its first token: nothing (white
 * space and comments), a declaration (proc, enum, table...), a statement
 * that belongs in a procedure's body (let, return, if...), or else an
 * expression.  Nothing is reported. */
typedef enum { ENTRY_EMPTY, ENTRY_DECLARATIONS, ENTRY_STATEMENT, ENTRY_EXPRESSION } EntryKind;
EntryKind parse_entry_kind(const Source *src);

/* Whether src, parsed as a module (or, with expression, as one
 * expression), stops before what it began is finished: its first error is
 * the end of the text (a bracket still open, a declaration without its
 * body, an operator with nothing after it), so more lines could mend it.
 * Nothing is reported. */
bool parse_stops_short(const Source *src, bool expression);

/* The keywords one types at a prompt (declarations, statements, the words
 * of expressions), NULL-terminated: for completing names. */
extern const char *const lang_keywords[];

#endif
