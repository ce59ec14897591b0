#!/bin/bash
# golden.sh — golden tests of the muster command line.
#
# Each case is tests/golden/NAME.cmd, one line: the arguments to muster,
# word-split by the shell (quotes work).  The command runs with the current
# directory tests/golden, so file names in the output are relative, NO_COLOR
# set and no terminal on any stream.  Its transcript
#
#     $ muster ARGS
#     <stdout>
#     --- stderr
#     <stderr>
#     --- exit N
#
# must equal tests/golden/NAME.expected byte for byte.  When there is a
# tests/golden/NAME.stdin, it is the command's standard input (the first
# line of the transcript then ends in `< NAME.stdin`); else the input is
# empty.  A stream whose last
# line has no newline gets the line "\ no newline at end" after it.  A crash,
# a sanitizer report or a hang fails a case whatever its transcript.
#
# Cases that pass --seed run twice: both runs must print the same.  A last
# check (when no case is named) runs without NO_COLOR: with stderr not a
# terminal the diagnostics must still carry no escape sequences.
#
# A `prob` case with --seed is also run on three threads and with
# --no-specialize: the counts must not depend on either, so all three runs
# must print the same.
#
#   bash tests/golden.sh [NAME...]                         compare (all cases, or the named)
#   MUSTER_TEST_UPDATE=1 bash tests/golden.sh [NAME...]    rewrite the .expected files

. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

GOLDEN=$top_srcdir/tests/golden
# the source tree's stdlib/ as muster --version names it (a path without links)
STDLIB_REAL=$(cd "$top_srcdir/stdlib" && pwd -P)

# append_stream FILE: the stream's text, marking a missing final newline.
append_stream()
{
    # the standard library of a muster not installed is the source tree's: where that is differs
    sed "s|$STDLIB_REAL|<source>/stdlib|g" "$1"
    if [ -s "$1" ] && [ "$(tail -c 1 "$1" | wc -l)" -eq 0 ]; then
        printf '\n\\ no newline at end\n'
    fi
}

# transcript LINE: run muster with the words of LINE and print the transcript.
transcript()
{
    local line=$1
    local -a args
    eval "args=($line)"
    run_muster ${args[@]+"${args[@]}"}
    printf '$ muster%s%s\n' "${line:+ $line}" "${RUN_STDIN:+ < $(basename "$RUN_STDIN")}"
    append_stream "$RUN_OUT"
    echo '--- stderr'
    append_stream "$RUN_ERR"
    echo "--- exit $RUN_STATUS"
}

# same_as_first CASE FIRST OTHER WHAT LABEL: the run that wrote OTHER (the
# last run_muster) must not crash and must print what FIRST holds.
same_as_first()
{
    local crash
    crash=$(crash_reason)
    if [ -n "$crash" ]; then
        fail "$1" "$crash"
    elif cmp -s "$2" "$3"; then
        pass "$1"
    else
        fail "$1" "$4 printed something else:" \
            "$(diff -u --label "first run" --label "$5" "$2" "$3")"
    fi
}

cd "$GOLDEN" || { echo "no directory $GOLDEN" >&2; exit 1; }

if [ $# -gt 0 ]; then
    cases=()
    for name in "$@"; do
        cases+=("$GOLDEN/${name%.cmd}.cmd")
    done
else
    cases=("$GOLDEN"/*.cmd)
fi

for cmdfile in "${cases[@]}"; do
    name=$(basename "$cmdfile" .cmd)
    expected=$GOLDEN/$name.expected
    if [ ! -f "$cmdfile" ]; then
        fail "$name" "no file $cmdfile"
        continue
    fi
    IFS= read -r line <"$cmdfile" || true
    RUN_STDIN=
    [ -f "$GOLDEN/$name.stdin" ] && RUN_STDIN=$GOLDEN/$name.stdin
    actual=$TEST_TMP/$name.actual
    transcript "$line" >"$actual"
    crash=$(crash_reason)
    if [ -n "$crash" ]; then
        fail "$name" "$crash" "--- stderr:" "$(show_file "$RUN_ERR")"
        continue
    fi
    if [ -n "$UPDATE_MODE" ] && ! { [ -f "$expected" ] && cmp -s "$expected" "$actual"; }; then
        cp "$actual" "$expected"
        rewritten "$name"
    elif [ ! -f "$expected" ]; then
        fail "$name" "no file $name.expected (MUSTER_TEST_UPDATE=1 bash tests/golden.sh $name writes it)" "$(cat "$actual")"
        continue
    elif cmp -s "$expected" "$actual"; then
        pass "$name"
    else
        fail "$name" "$(diff -u --label "$name.expected" --label "$name (actual)" "$expected" "$actual")"
        continue
    fi
    # the same seed must give the same output every time
    case " $line " in
        *" --seed"*)
            again=$TEST_TMP/$name.again
            transcript "$line" >"$again"
            same_as_first "$name:rerun" "$actual" "$again" "a second run with the same seed" "second run"
            ;;
    esac
    # neither the number of threads nor specializing may change the counts
    case "$line " in
        "prob "*" --seed"*)
            for variant in "--threads=3" "--no-specialize"; do
                other=$TEST_TMP/$name.variant
                transcript "$line $variant" >"$other"   # (not in a pipe: RUN_STATUS must survive)
                sed -i '1s/ '"$variant"'$//' "$other"
                same_as_first "$name:${variant#--}" "$actual" "$other" "with $variant it" "with $variant"
            done
            ;;
    esac
done

RUN_STDIN=

# Without NO_COLOR, diagnostics are still plain when stderr is not a terminal.
if [ $# -eq 0 ]; then
    (unset NO_COLOR; run_muster check errors.muster)
    crash=$(crash_reason)
    if [ -n "$crash" ]; then
        fail no_colour_without_terminal "$crash"
    elif grep -q "$(printf '\033')" "$RUN_ERR"; then
        fail no_colour_without_terminal "escape sequences on stderr although it is a file:" "$(show_file "$RUN_ERR" | cat -v)"
    elif ! grep -q '^errors\.muster:7:10: error: ' "$RUN_ERR"; then
        fail no_colour_without_terminal "no diagnostic on stderr:" "$(show_file "$RUN_ERR")"
    else
        pass no_colour_without_terminal
    fi
fi

finish
