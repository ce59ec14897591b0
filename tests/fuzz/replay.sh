#!/usr/bin/env bash
# replay.sh — replay what the fuzzers found: every file in
# tests/fuzz/regressions/compile/ through the compile target, every file in
# tests/fuzz/regressions/args/ through the name=value target, each with the
# standalone driver (tests/fuzz/replay_compile, replay_args) built with the
# ordinary compiler.  A replay passes when it ends normally: no crash, no
# sanitizer report (in the sanitizer builds of scripts/test.sh), no hang.
. "${top_srcdir:-$(dirname "$0")/../..}/tests/lib.sh"

builddir=$(dirname "$MUSTER")
TEST_TIMEOUT=${TEST_TIMEOUT:-60}
for kind in compile args; do
    bin=$builddir/tests/fuzz/replay_$kind
    if [ ! -x "$bin" ]; then
        fail "replay_$kind" "$bin is not built (make check builds it)"
        continue
    fi
    for f in "$top_srcdir/tests/fuzz/regressions/$kind"/*; do
        [ -f "$f" ] || continue
        name=$kind/$(basename "$f")
        MUSTER=$bin run_muster "$f"
        why=$(crash_reason)
        if [ -n "$why" ]; then
            fail "$name" "$why"
        elif [ "$RUN_STATUS" != 0 ]; then
            fail "$name" "exit status $RUN_STATUS" "$(show_file "$RUN_ERR")"
        else
            pass "$name"
        fi
    done
done
finish
