#!/usr/bin/env bash
# examples.sh — every example written in the rulesets, the standard library
# and the bundled examples must pass (`muster test`), and each script must
# pass `muster check` (which also lists the cells the rules text leaves out).
source "$(dirname "$0")/lib.sh"

cd "$top_srcdir" || exit 1
for dir in stdlib rules examples docs; do
    [ -d "$dir" ] || continue
    for f in "$dir"/*.muster; do
        [ -f "$f" ] || continue
        run_muster check "$f"
        why=$(crash_reason)
        if [ "$RUN_STATUS" -eq 0 ] && [ -z "$why" ]; then
            pass "check $f"
        else
            fail "check $f" "exit $RUN_STATUS $why" "$(show_file "$RUN_ERR")"
        fi
        run_muster test "$f"
        why=$(crash_reason)
        summary=$(tail -n 1 "$RUN_OUT")
        if [ "$RUN_STATUS" -eq 0 ] && [ -z "$why" ] && [[ $summary =~ ^[0-9]+\ passed,\ 0\ failed$ ]]; then
            pass "test $f: $summary"
        else
            fail "test $f" "exit $RUN_STATUS $why" "$(show_file "$RUN_OUT")" "$(show_file "$RUN_ERR")"
        fi
    done
done
finish
