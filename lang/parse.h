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

#endif
