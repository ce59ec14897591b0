/* harness.h — the shared main() of the unit tests and the functions they share.
 *
 * Each test program defines register_tests(), which adds its suites to the
 * CUnit registry; main() (harness.c) runs them verbosely and exits 1 if
 * any test, assertion or suite set-up failed.
 *
 * These functions turn muster source text into a syntax tree or a compiled
 * program with the diagnostics captured in memory, and call a procedure by
 * name on the VM with scripted or seeded dice.  Objects come from the
 * collector, so tests keep them in locals (on the stack), never in
 * malloc'ed memory.
 */
#ifndef MUSTER_TESTS_HARNESS_H
#define MUSTER_TESTS_HARNESS_H

#include <CUnit/CUnit.h>

#include "lang/ast.h"
#include "compiler/compiler.h"
#include "vm/dice.h"
#include "lang/source.h"
#include "vm/value.h"
#include "vm/vm.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Defined by each test program. */
void register_tests(void);
/* A test program may define it: the collector's heap limit (bytes) for all its tests. */
extern size_t harness_max_heap;

/* Add a suite with its tests, as { "name", fn } pairs ending in { NULL, NULL }.
 * A registry error fails the whole program (main checks CU_get_error()). */
typedef struct TestDef {
    const char *name;
    CU_TestFunc fn;
} TestDef;
void add_suite(const char *name, const TestDef *tests);

/* ---- diagnostics captured in memory ---- */

typedef struct Capture {
    FILE *f;
    char *buf;
    size_t len;
    Diag diag;
} Capture;

void capture_open(Capture *c);
/* Everything reported so far (valid until the next call or capture_close). */
const char *capture_text(Capture *c);
void capture_close(Capture *c);

/* A Source named "test.muster" holding a copy of text (strlen(text) bytes). */
Source *test_source(const char *text);
/* The same with an explicit length, for text with NUL bytes. */
Source *test_source_n(const char *text, size_t len);

/* ---- front end ---- */

/* Parse text; the diagnostics go to *cap (opened here, closed by the caller). */
Module *parse_text(const char *text, Capture *cap);

/* The expression of the first `return` in the first procedure of m. */
const Expr *first_return(const Module *m);

/* Compile text.  Returns NULL if parsing or compiling reported an error.
 * The diagnostics, if messages is not NULL, are copied into it (a static
 * buffer, overwritten by the next call; "" when there were none); *errors
 * (if not NULL) is the number of errors. */
Compiled *compile_text(const char *text, const char **messages, int *errors);

/* Compile text that is expected to fail; returns the diagnostics ("" if it
 * compiled, so an assertion on the text fails). */
const char *compile_errors(const char *text);

/* Does haystack contain needle?  (NULL haystack: no.) */
bool contains(const char *haystack, const char *needle);
/* How many times does needle occur in haystack? */
int occurrences(const char *haystack, const char *needle);

/* ---- running ---- */

typedef struct Run {
    Vm vm;
    ScriptDice script;
    RngDice rng;
    const Compiled *compiled;
    Value result;
    int status;              /* vm_call's: 0 or -1 */
} Run;

/* Prepare a run of compiled with scripted dice, given as "6,3,4" (NULL or
 * "" for none), or with seeded dice. */
void run_scripted(Run *r, const Compiled *c, const char *dice);
void run_seeded(Run *r, const Compiled *c, uint64_t seed);
/* Call a procedure by name with the first nargs arguments given; the rest
 * take their defaults.  Returns r->status. */
int run_call(Run *r, const char *proc, const Value *args, int nargs);
/* How many scripted dice the run has used. */
size_t dice_used(const Run *r);

/* Compile text (asserting that it compiles), run proc with scripted dice
 * and return the status; the result is in r->result. */
int run_text(Run *r, const char *text, const char *proc, const Value *args, int nargs,
             const char *dice);

/* Text of a value as val_print writes it (an enum by member name when the
 * program is known).  Kept in a small ring of static buffers, so a few may
 * be used in one expression. */
const char *show(const Run *r, Value v);
const char *show_value(Value v);

/* Rational value num/den (reduced), for arguments. */
Value rat(int64_t num, int64_t den);

#endif
