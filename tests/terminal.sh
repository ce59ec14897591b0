#!/usr/bin/env bash
# terminal.sh — `muster prob` on a terminal and under Ctrl-C, and the note
# of an exact count stopped because it would be slow.
#
# The golden tests run muster with no terminal and cannot type Ctrl-C.
# These run it on a pseudo-terminal, through `script` (util-linux, part of
# every Debian system), and type Ctrl-C once muster has shown that it is
# counting (its progress line), so nothing here depends on how fast the
# machine is: the counts are ones no machine finishes (10^18 paths), and
# every wait is for something muster prints, bounded by TEST_TIMEOUT.
#
#   bash tests/terminal.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

if ! command -v script >/dev/null 2>&1 || ! script --version 2>/dev/null | grep -q util-linux; then
    echo "SKIP terminal.sh: no util-linux 'script' to make a pseudo-terminal with"
    exit 77
fi

HUGE="roll d1000 + roll d1000 + roll d1000 + roll d1000 + roll d1000 + roll d1000 > 3000"
ESC=$(printf '\033')

# on_terminal WAIT COMMAND: run COMMAND (a shell command line) on a
# pseudo-terminal; once its output matches the extended regex WAIT, type
# Ctrl-C.  The terminal's output (stdout and stderr together, with the
# terminal's \r\n) is left in $RUN_OUT, the status in RUN_STATUS (script
# gives 128 + N for a command ended by signal N).
on_terminal()
{
    local wait=$1 command=$2
    : >"$RUN_OUT"
    {
        local i
        for ((i = 0; i < TEST_TIMEOUT * 10; i++)); do
            grep -Eq "$wait" "$RUN_OUT" && break
            sleep 0.1
        done
        printf '\003'
        # keep the terminal's input open until the command has ended
        for ((i = 0; i < TEST_TIMEOUT * 10; i++)); do
            grep -q 'interrupted' "$RUN_OUT" && break
            sleep 0.1
        done
        sleep 0.5
    } | SHELL=/bin/bash timeout -k 5 $((TEST_TIMEOUT * 3)) script -qfec "$command" /dev/null >"$RUN_OUT" 2>&1
    RUN_STATUS=${PIPESTATUS[1]}
}

# expect NAME WHAT PATTERN: the last run's output matches the extended regex.
expect()
{
    if tr -d '\r' <"$RUN_OUT" | grep -Eq "$3"; then
        pass "$1: $2"
    else
        fail "$1: $2" "no match for /$3/ in:" "$(tr '\r' '\n' <"$RUN_OUT" | cat -v | tail -n 8)"
    fi
}

expect_status()
{
    if [ "$RUN_STATUS" = "$2" ]; then
        pass "$1: exit status $2"
    else
        fail "$1: exit status $2" "exit status $RUN_STATUS; output:" "$(tr '\r' '\n' <"$RUN_OUT" | cat -v | tail -n 8)"
    fi
}

# --exact waits: after a second it shows how far it has got, and Ctrl-C
# stops it, erasing the progress line, with a message and status 130.
on_terminal '% covered, [0-9]+ runs' "'$MUSTER' prob -e '$HUGE' --exact --budget 1000000000000000"
expect exact_progress "a progress line" '\[#* *\] +[0-9]+% covered, [0-9]+ runs, [0-9]+ s'
expect exact_interrupt "the line erased, then the message" \
    "${ESC}\[Kmuster: interrupted: the exact count of expression had covered (less than )?[0-9.]+% of the probability after [0-9]+ runs\$"
expect_status exact_interrupt 130

# A simulation of many trials: its progress bar, and Ctrl-C between blocks.
on_terminal '\] +[0-9]+%' "'$MUSTER' prob -e '$HUGE' --trials 1000000000000 --threads 2"
expect trials_progress "a progress bar" '\[#* *\] +[0-9]+%'
expect trials_interrupt "the bar erased, then the message" \
    "${ESC}\[Kmuster: interrupted: the simulation of expression had run [0-9]+ of 1000000000000 trials\$"
expect_status trials_interrupt 130
if tr -d '\r' <"$RUN_OUT" | grep -q 'trials, seed'; then
    fail "trials_interrupt: no table" "a table was printed:" "$(tr '\r' '\n' <"$RUN_OUT" | cat -v | tail -n 8)"
else
    pass "trials_interrupt: no table"
fi

# Without --exact, a count that would take long is not waited for: a note
# says why (here in seconds: it would fit the raised budget) and prob
# simulates.  No terminal is needed for that.
run_muster prob -e '(roll d1000 * roll d1000 + roll d1000) % 10' --budget 1000000000000 --seed 1
note='^muster: note: expression: counting every outcome exactly would take about ([0-9]+ (s|min|h|days)|more than a year) \((less than )?[0-9.]+% of the probability covered in [0-9.]+ s\); simulating 100000 trials instead; --exact waits for the exact odds$'
if [ "$RUN_STATUS" = 0 ] && grep -Eq "$note" "$RUN_ERR" && [ "$(wc -l <"$RUN_ERR")" = 1 ] \
   && grep -q '100000 trials, seed 1 (simulated' "$RUN_OUT" && ! grep -q "$ESC" "$RUN_ERR"; then
    pass "slow_note: one note in seconds, then the simulation"
else
    fail "slow_note: one note in seconds, then the simulation" "exit status $RUN_STATUS; stderr:" \
        "$(show_file "$RUN_ERR" | cat -v)"
fi

finish
