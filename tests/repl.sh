#!/usr/bin/env bash
# repl.sh — `muster repl` at a terminal, driven key by key.
#
# The golden cases repl_*.cmd run the REPL with its input piped; this runs
# the interactive mode itself, on a pseudo-terminal made by
# tests/repl/pty_drive (a program of the test suite, built by make check):
# it types what a player types — Tab to complete, a procedure over several
# lines, a line with an error, Ctrl-C, :prob, :explain, :dice, :reload, the
# up arrow — and waits, each time, for what muster must print next, most
# often the prompt that says it is done.  Nothing here is timed: every wait
# is for something muster prints, and TEST_TIMEOUT only bounds a wait that
# would fail anyway.  Each session is one case; afterwards its transcript,
# the terminal's escape sequences taken out, is checked for crashes and
# sanitizer reports.
#
#   bash tests/repl.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

DRIVE=${top_builddir:-$top_srcdir}/tests/repl/pty_drive
if [ ! -x "$DRIVE" ]; then
    echo "no $DRIVE: 'make check' builds it (or 'make tests/repl/pty_drive')" >&2
    exit 1
fi

WORK=$TEST_TMP/work
mkdir -p "$WORK" "$TEST_TMP/home"
cp "$top_srcdir/examples/volley.muster" "$WORK/volley.muster"
export HOME=$TEST_TMP/home
export MUSTER_HISTORY=$TEST_TMP/history

# session NAME [ARG]...: muster repl ARGS on a terminal, in $WORK, with the
# steps on standard input; one PASS or FAIL.
session()
{
    local name=$1
    shift
    local steps=$TEST_TMP/$name.steps log=$TEST_TMP/$name.log
    cat >"$steps"
    # (pty_drive bounds each step itself; timeout is a last resort around it)
    local bound=()
    [ "$_have_timeout" = 1 ] && bound=(timeout -k 5 $((TEST_TIMEOUT * 10)))
    if (cd "$WORK" && "${bound[@]}" "$DRIVE" -t "$TEST_TIMEOUT" -o "$TEST_TMP/$name.out" -- "$MUSTER" repl "$@" \
            <"$steps" >"$log" 2>&1); then
        if grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error:|Sanitizer:DEADLYSIGNAL' "$TEST_TMP/$name.out.clean"; then
            fail "$name" "a sanitizer report:" "$(grep -E -m 5 'Sanitizer|runtime error:' "$TEST_TMP/$name.out.clean")"
        else
            pass "$name"
        fi
    else
        fail "$name" "$(tail -n 40 "$log")"
    fi
}

# A session on volley.muster: completion, a procedure over several lines,
# errors, Ctrl-C, :prob, :explain, :dice, :seed, the up arrow, :reload.
# Lines typed: 1 hits(...), 2-4 proc double, 5 double(21), 6 the error.
session play volley.muster --seed 1 <<'EOF'
wait loaded volley.muster
wait muster> 
# Tab completes a procedure's name
send hit\t
wait hits
send (card: 6)\r
wait \n4\n
wait muster> 
# a procedure over several lines, then used
send proc double(n: int) -> int {\r
wait    ...> 
send   return 2 * n\r
wait    ...> 
send }\r
wait muster> 
send double(21)\r
wait \n42\n
wait muster> 
# an error names the line typed, and the session goes on
send roll 2d6 + 1\r
wait <repl>:6:1: error: '+' needs numbers, not pool
wait ^~~~~~~~
wait muster> 
# Ctrl-C drops the line being typed
send 2 +
wait 2 +
send \x03
wait muster> 
send 1/3 + 1/6\r
wait \n1/2\n
wait muster> 
# several names begin so: Tab lists them, and the line is as it was
send c\t
wait clamp
wait count
wait muster> c
send \x03
wait muster> 
# the odds, exact
send :prob sum(roll 2d6)\r
wait sum(roll 2d6): exact (1 run)
wait mean 7.0000, standard deviation 2.4152
wait muster> 
# the referee's account, on the seed after the three expressions run so far
send :explain double(roll d6)\r
wait double(roll d6) with seed 5
wait <repl> line 9: roll d6 -> 
wait result: 
wait muster> 
# scripted dice, used up in order across lines
send :dice 6,3,4\r
wait scripted dice: 3 of 3 left (6, 3, 4)
wait muster> 
send roll 2d6\r
wait \n[3, 6]\n
wait muster> 
send :dice\r
wait scripted dice: 1 of 3 left (4)
wait muster> 
send roll 2d6\r
wait ran out of scripted dice: 3 given, a pool of 2 d6 needs 1 more
wait muster> 
send :seed 3\r
wait seeded dice: the next expression takes seed 3
wait muster> 
# a runaway recursion stops at the depth limit
send proc loop(n: int) -> int { return loop(n + 1) }\r
wait muster> 
send loop(1)\r
wait error: recursion limit reached
wait muster> 
# a script that is not there
send :load nowhere.muster\r
wait cannot open 'nowhere.muster'
wait muster> 
# the up arrow brings the last line back
send double(5)\r
wait \n10\n
wait muster> 
send \e[A
wait double(5)
send \r
wait \n10\n
wait muster> 
# :reload reads the script again and keeps what was typed
shell printf '\nproc bonus() -> int { return 7 }\n' >> volley.muster
send :reload\r
wait reloaded volley.muster (the declarations typed at the prompt are kept)
wait muster> 
send bonus() + double(1)\r
wait \n9\n
wait muster> 
send :quit\r
end 1
EOF

# Ctrl-C stops a long :prob, and the session goes on; :load completes file
# names; Ctrl-D leaves, with status 0 when nothing failed.
session interrupt --seed 1 --trials 1000000000000 --threads 2 <<'EOF'
wait muster> 
send :prob roll d1000 + roll d1000 > 1999\r
wait % of 1000000000000 trials
send \x03
wait muster: interrupted: the simulation of expression had run 
wait muster> 
send :lo\t
wait :load 
send vol\t
wait volley.muster
send \r
wait loaded volley.muster
wait muster> 
send hits(card: 3) >= 0\r
wait \ntrue\n
wait muster> 
send \x04
end 0
EOF

# History is kept across sessions, in $MUSTER_HISTORY.
rm -f "$MUSTER_HISTORY"
session history_write --seed 1 <<'EOF'
wait muster> 
send sum(roll 2d6)\r
wait \n9\n
wait muster> 
send :quit\r
end 0
EOF
if grep -q 'sum(roll' "$MUSTER_HISTORY" 2>/dev/null; then
    pass "history_file: the lines typed are in \$MUSTER_HISTORY"
else
    fail "history_file: the lines typed are in \$MUSTER_HISTORY" "$(cat "$MUSTER_HISTORY" 2>&1)"
fi
session history_read --seed 1 <<'EOF'
wait muster> 
send \e[A
wait :quit
send \e[A
wait sum(roll 2d6)
send \r
wait \n9\n
wait muster> 
send \x04
end 0
EOF

# A history that cannot be written is not kept, and nothing fails.
MUSTER_HISTORY=$TEST_TMP/no/such/folder/history session history_unwritable --seed 1 <<'EOF'
wait muster> 
send 1 + 1\r
wait \n2\n
wait muster> 
send \x04
end 0
EOF
if grep -qi 'error\|warning' "$TEST_TMP/history_unwritable.out.clean"; then
    fail "history_unwritable: says nothing about it" "$(cat "$TEST_TMP/history_unwritable.out.clean")"
else
    pass "history_unwritable: says nothing about it"
fi

finish
