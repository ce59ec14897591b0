/* fuzz_compile.c — fuzz target: a script's text through what `muster check`
 * does (compile, report, run the examples).
 *
 * Built three ways: with libFuzzer (`make fuzz`: clang -fsanitize=fuzzer,address),
 * with AFL++ (afl-clang-fast -fsanitize=fuzzer, when installed), and with
 * replay.c as an ordinary program that `make check` uses to replay the inputs
 * in tests/fuzz/regressions/compile/.  Only the public API of muster.h is used.
 * Any input is fine; what must never happen is a crash, a sanitizer report or
 * a hang: every error is a diagnostic.
 */
#include "muster.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (size > 1 << 16)
        return 0;   /* long inputs find nothing short ones do not, and are slow */
    if (!sink && !(sink = fopen("/dev/null", "w")))
        return 0;
    muster_ctx *ctx = muster_new(sink, sink, 0);
    /* small limits, so that a runaway example fails quickly */
    muster_set_limits(ctx, 200000, 200);
    muster_program *prog = muster_load_string(ctx, "fuzz.muster", (const char *)data, size);
    if (prog) {
        int passed = 0, failed = 0;
        muster_check(ctx, prog, &passed, &failed);
    }
    return 0;
}
