#!/usr/bin/env bash
# examples.sh — every example written in the scripts of stdlib/, rules/,
# examples/ and docs/ must pass (`muster test`), each script must have at
# least one, and each must pass `muster check` (which also lists the cells
# the rules text leaves out).
# The Markdown sheet of each ruleset kept in docs/sheets/ must be what
# `muster sheet rules/NAME.muster` prints now, and every sheet there must
# have its ruleset.
source "$(dirname "$0")/lib.sh"

cd "$top_srcdir" || exit 1
for dir in stdlib rules rules/variants examples docs; do
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
        if [ "$RUN_STATUS" -eq 0 ] && [ -z "$why" ] && [[ $summary =~ ^[1-9][0-9]*\ passed,\ 0\ failed$ ]]; then
            pass "test $f: $summary"
        elif [ "$RUN_STATUS" -eq 0 ] && [ -z "$why" ] && [ "$summary" = "0 passed, 0 failed" ]; then
            fail "test $f" "it has no examples: every script here carries the worked examples that pin it"
        else
            fail "test $f" "exit $RUN_STATUS $why" "$(show_file "$RUN_OUT")" "$(show_file "$RUN_ERR")"
        fi
    done
done

# The committed sheets: one per ruleset, each as `muster sheet` renders it.
regen='for f in rules/*.muster; do ./muster sheet "$f" > "docs/sheets/$(basename "$f" .muster).md"; done'
for f in rules/*.muster; do
    [ -f "$f" ] || continue
    sheet=docs/sheets/$(basename "$f" .muster).md
    run_muster sheet "$f"
    why=$(crash_reason)
    if [ "$RUN_STATUS" -ne 0 ] || [ -n "$why" ]; then
        fail "sheet $f" "exit $RUN_STATUS $why" "$(show_file "$RUN_ERR")"
    elif [ ! -f "$sheet" ]; then
        fail "sheet $f" "$sheet is missing; write the sheets with:" "$regen"
    elif cmp -s "$RUN_OUT" "$sheet"; then
        pass "sheet $f is $sheet"
    else
        fail "sheet $f" "$sheet is not what 'muster sheet $f' prints now; write the sheets again with:" "$regen" \
            "$(diff -u "$sheet" "$RUN_OUT" | head -n 20 | cut -c 1-200)"
    fi
done
for sheet in docs/sheets/*.md; do
    [ -f "$sheet" ] || continue
    name=$(basename "$sheet" .md)
    [ "$name" = README ] && continue
    if [ -f "rules/$name.muster" ]; then
        pass "$sheet has its ruleset rules/$name.muster"
    else
        fail "$sheet" "there is no rules/$name.muster for it; remove it or add the ruleset"
    fi
done
finish
