# lib.sh — shared helpers for the command-line test scripts (bash).
#
# Source it from a test script:   . "${top_srcdir:-...}/tests/lib.sh"
#
# It provides
#   MUSTER, top_srcdir   absolute paths of the binary and the source tree
#   TEST_TMP             a scratch directory, removed on exit
#   TEST_TIMEOUT         seconds a single run may take (default 20)
#   pass NAME / fail NAME [DETAIL...]   count and print one result line
#   run_muster ARG...    run $MUSTER with a time limit; sets RUN_STATUS and
#                        leaves stdout in $RUN_OUT and stderr in $RUN_ERR
#   crash_reason         prints why the last run counts as a crash (empty if not)
#   show_file FILE       a file's first lines, for a failure's details
#   UPDATE_MODE, rewritten NAME   MUSTER_TEST_UPDATE's rewriting of expected files
#   finish               prints "N passed, N failed" and exits 0 or 1
#
# It also exports LC_ALL=C and NO_COLOR=1 for every run.
#
# The environment of `make check` exports MUSTER and top_srcdir; run by hand,
# the script looks for the source tree above itself and the binary in the
# current directory or the source tree.

set -u
export LC_ALL=C
export NO_COLOR=1

_lib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

if [ -z "${top_srcdir:-}" ]; then
    top_srcdir=$(cd "$_lib_dir/.." && pwd)
else
    top_srcdir=$(cd "$top_srcdir" && pwd) || { echo "top_srcdir '$top_srcdir' is not a directory" >&2; exit 1; }
fi

if [ -z "${MUSTER:-}" ]; then
    for _m in "$PWD/muster" "$top_srcdir/muster" "$top_srcdir/_build/muster" "$top_srcdir/build/muster"; do
        if [ -x "$_m" ] && [ ! -d "$_m" ]; then
            MUSTER=$_m
            break
        fi
    done
fi
if [ -z "${MUSTER:-}" ]; then
    echo "cannot find the muster binary; build it or set MUSTER=/path/to/muster" >&2
    exit 1
fi
case $MUSTER in
    /*) ;;
    *) MUSTER=$(cd "$(dirname "$MUSTER")" && pwd)/$(basename "$MUSTER") ;;
esac
if [ ! -x "$MUSTER" ]; then
    echo "MUSTER=$MUSTER is not an executable file" >&2
    exit 1
fi
export MUSTER top_srcdir

TEST_TIMEOUT=${TEST_TIMEOUT:-20}

TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/muster-test.XXXXXX") || { echo "cannot make a temporary directory" >&2; exit 1; }
trap 'rm -rf "$TEST_TMP"' EXIT
trap 'exit 1' HUP INT TERM

RUN_OUT=$TEST_TMP/run.out
RUN_ERR=$TEST_TMP/run.err
RUN_STATUS=0

PASSED=0
FAILED=0
REWRITTEN=0

# MUSTER_TEST_UPDATE=1 makes golden.sh and bad.sh write what muster prints
# now as the expected output, instead of comparing.  `make check` clears it
# (AM_TESTS_ENVIRONMENT), so the suite cannot be made to pass by setting it.
UPDATE_MODE=${MUSTER_TEST_UPDATE:-}

pass()
{
    PASSED=$((PASSED + 1))
    echo "PASS $1"
}

# fail NAME [DETAIL...]: each DETAIL line is printed indented under the result.
fail()
{
    FAILED=$((FAILED + 1))
    echo "FAIL $1"
    shift
    local line
    for line in "$@"; do
        printf '%s\n' "$line" | sed 's/^/    /'
    done
}

if command -v timeout >/dev/null 2>&1; then
    _have_timeout=1
else
    _have_timeout=0
fi

# run_muster ARG...: run the binary in the current directory with no
# terminal on any stream and a time limit.  A run that is still going after
# TEST_TIMEOUT seconds is killed and gets RUN_STATUS 124 (see crash_reason).
run_muster()
{
    if [ "$_have_timeout" = 1 ]; then
        # (the subshell keeps bash's "Segmentation fault" notice off the report)
        (timeout -k 5 "$TEST_TIMEOUT" "$MUSTER" "$@" <"${RUN_STDIN:-/dev/null}" >"$RUN_OUT" 2>"$RUN_ERR"; exit $?) 2>/dev/null
    else
        ("$MUSTER" "$@" <"${RUN_STDIN:-/dev/null}" >"$RUN_OUT" 2>"$RUN_ERR"; exit $?) 2>/dev/null
    fi
    RUN_STATUS=$?
}

# crash_reason: why the last run_muster is a failure whatever was expected —
# a hang, death by a signal, or a sanitizer's report.  Prints nothing if none.
crash_reason()
{
    if [ "$_have_timeout" = 1 ] && [ "$RUN_STATUS" = 124 ]; then
        echo "hang: still running after ${TEST_TIMEOUT}s (killed)"
    elif [ "$_have_timeout" = 1 ] && [ "$RUN_STATUS" = 137 ]; then
        echo "hang or kill: exit status 137 (SIGKILL; a run over ${TEST_TIMEOUT}s is killed)"
    elif [ "$RUN_STATUS" -ge 128 ]; then
        echo "crash: exit status $RUN_STATUS (signal $((RUN_STATUS - 128)))"
    elif grep -Eq 'ERROR: (Address|Leak|Memory|Thread|UndefinedBehavior)Sanitizer|WARNING: (Memory|Thread)Sanitizer|runtime error:|Sanitizer:DEADLYSIGNAL' "$RUN_ERR"; then
        echo "sanitizer report on stderr:"
        grep -E -m 5 'Sanitizer|runtime error:' "$RUN_ERR"
    fi
}

# show_file FILE: a file's first lines, for failure details.
show_file()
{
    head -n 20 "$1" | cut -c 1-200
}

# rewritten NAME: in update mode, an expected file was written anew.  Such a
# case was not checked, so it counts as neither passed nor failed.
rewritten()
{
    REWRITTEN=$((REWRITTEN + 1))
    echo "REWRITTEN $1"
}

finish()
{
    if [ "$REWRITTEN" -gt 0 ]; then
        echo "$REWRITTEN expected files rewritten (MUSTER_TEST_UPDATE is set): read them before committing"
    fi
    echo "$PASSED passed, $FAILED failed"
    if [ "$FAILED" -eq 0 ]; then
        exit 0
    fi
    exit 1
}
