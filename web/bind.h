/* bind.h — muster for JavaScript: the library's commands and values, asked
 * and answered as text (web/bind.c, built only for WebAssembly).
 *
 * A request is a list of key/value pairs, each key and each value ended by
 * a NUL byte, in `len` bytes:
 *
 *     cmd\0prob\0file\0rules/rebs.muster\0proc\0melee\0arg\0attacker_melee=4\0json\01\0
 *
 * The keys (repeatable ones take one value each time they are given):
 *
 *     cmd      check, test, run, prob, sheet, turn, list, diff, dis, version
 *              (as the `muster` command's, printing what it prints), or
 *              procs, call, dist (the values API, printing one JSON object)
 *     file     the script (repeatable: check and test take several, diff two)
 *     expr     a one-off expression instead of a file (run, prob, call, dist)
 *     proc, arg (repeatable "name=value"), choose (repeatable "Choice=option")
 *     dice, seed, trials, budget, exact, field, json, csv, explain, vs
 *     (repeatable), svg (a file to write prob's chart to), no_specialize, html, review,
 *     paper (a4 or letter), only (repeatable), max_steps, max_depth (the
 *     limits of a run, as --max-steps and --max-depth set them)
 *
 * mw_command answers with the command's exit status (MUSTER_OK, ...); what
 * it printed on its output and error streams is then at mw_output(1) and
 * mw_output(2), mw_output_len(...) bytes each (valid until the next call).
 * Files are read from the virtual file system the JavaScript side fills.
 */
#ifndef MUSTER_WEB_BIND_H
#define MUSTER_WEB_BIND_H

#include <stddef.h>

int mw_command(const char *request, size_t len);
const char *mw_output(int stream);
size_t mw_output_len(int stream);

#endif
