#!/bin/bash
# bad.sh — `muster check` on scripts that are wrong.
#
# Part 1: each tests/bad/NAME.muster is a malformed or ill-typed script.
# `muster check NAME.muster`, run inside tests/bad, must exit 1, print
# nothing on stdout, and print exactly tests/bad/NAME.err on stderr (at least
# one line of it a `file:line:col: error: ` diagnostic).
#
# Part 2: large and hostile inputs are generated in a scratch directory at
# run time (never committed): binary garbage, megabyte lines, deep nesting,
# invalid UTF-8 and more.  Each must be refused with exit 1 and a located
# error, without a crash, a sanitizer report or a hang, and without flooding
# stderr.
#
#   bash tests/bad.sh              run everything
#   MUSTER_TEST_UPDATE=1 bash tests/bad.sh     rewrite the .err files of part 1

. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

BAD=$top_srcdir/tests/bad
ERROR_LINE='^[^:]+:[0-9]+:[0-9]+: error: '
MAX_STDERR=65536         # bytes; diagnostics stop after 20 errors

# ---- part 1: the committed cases ----

cd "$BAD" || { echo "no directory $BAD" >&2; exit 1; }

for script in *.muster; do
    name=${script%.muster}
    expected=$name.err
    run_muster check "$script"
    crash=$(crash_reason)
    if [ -n "$crash" ]; then
        fail "$name" "$crash" "--- stderr:" "$(show_file "$RUN_ERR")"
        continue
    fi
    problems=()
    [ "$RUN_STATUS" = 1 ] || problems+=("exit status $RUN_STATUS, expected 1")
    [ -s "$RUN_OUT" ] && problems+=("unexpected stdout:" "$(show_file "$RUN_OUT")")
    grep -Eq "$ERROR_LINE" "$RUN_ERR" || problems+=("no 'file:line:col: error: ' line on stderr")
    if [ ${#problems[@]} -gt 0 ]; then
        fail "$name" "${problems[@]}" "--- stderr:" "$(show_file "$RUN_ERR")"
        continue
    fi
    if [ -n "$UPDATE_MODE" ] && ! { [ -f "$expected" ] && cmp -s "$expected" "$RUN_ERR"; }; then
        cp "$RUN_ERR" "$expected"
        rewritten "$name"
    elif [ ! -f "$expected" ]; then
        fail "$name" "no file $expected (MUSTER_TEST_UPDATE=1 bash tests/bad.sh writes it)" "$(cat "$RUN_ERR")"
    elif cmp -s "$expected" "$RUN_ERR"; then
        pass "$name"
    else
        fail "$name" "$(diff -u --label "$expected" --label "$name (actual stderr)" "$expected" "$RUN_ERR")"
    fi
done

# a .err without its script is a leftover
for err in *.err; do
    [ -e "$err" ] || continue
    [ -f "${err%.err}.muster" ] || fail "${err%.err}" "$err has no ${err%.err}.muster"
done

# ---- part 2: generated inputs ----

GEN=$TEST_TMP/gen
mkdir -p "$GEN"
cd "$GEN" || exit 1

# repeat N TEXT: TEXT written N times, no newline.
repeat()
{
    awk -v n="$1" -v s="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'
}

# random_bytes SEED COUNT LOW HIGH: COUNT bytes in LOW..HIGH from a fixed-seed
# generator (Park-Miller; exact in awk's doubles), the same on every machine.
random_bytes()
{
    printf '%b' "$(awk -v x="$1" -v n="$2" -v lo="$3" -v hi="$4" 'BEGIN {
        for (i = 0; i < n; i++) {
            x = (x * 16807) % 2147483647
            printf "\\0%03o", lo + x % (hi - lo + 1)
        }
    }')"
}

# random_words SEED COUNT: COUNT lower-case words of 1 to 8 letters on one line.
random_words()
{
    awk -v x="$1" -v n="$2" 'BEGIN {
        for (i = 0; i < n; i++) {
            x = (x * 16807) % 2147483647
            len = 1 + x % 8
            w = ""
            for (j = 0; j < len; j++) {
                x = (x * 16807) % 2147483647
                w = w sprintf("%c", 97 + x % 26)
            }
            printf "%s ", w
        }
        printf "\n"
    }'
}

# expect_error NAME FILE [ERE]: `check FILE` must fail cleanly with a located
# error; if ERE is given, some line of stderr must match it too.
expect_error()
{
    local name=$1 file=$2 pattern=${3:-}
    run_muster check "$file"
    local crash
    crash=$(crash_reason)
    if [ -n "$crash" ]; then
        fail "$name" "$crash" "--- stderr:" "$(show_file "$RUN_ERR")"
        return
    fi
    local problems=()
    [ "$RUN_STATUS" = 1 ] || problems+=("exit status $RUN_STATUS, expected 1")
    [ -s "$RUN_OUT" ] && problems+=("unexpected stdout:" "$(show_file "$RUN_OUT")")
    grep -Eq "$ERROR_LINE" "$RUN_ERR" || problems+=("no 'file:line:col: error: ' line on stderr")
    if [ -n "$pattern" ] && ! grep -Eq "$pattern" "$RUN_ERR"; then
        problems+=("no line of stderr matches /$pattern/")
    fi
    local size
    size=$(wc -c <"$RUN_ERR")
    [ "$size" -le "$MAX_STDERR" ] || problems+=("stderr is $size bytes; the report should stop after a screenful")
    if [ ${#problems[@]} -gt 0 ]; then
        fail "$name" "${problems[@]}" "--- stderr:" "$(show_file "$RUN_ERR")"
    else
        pass "$name"
    fi
}

# binary garbage, with and without NUL bytes, and printable garbage
random_bytes 12345 4096 0 255 >garbage.muster
expect_error gen:binary_garbage garbage.muster 'NUL byte'
random_bytes 777 4096 1 255 >garbage_no_nul.muster
expect_error gen:binary_garbage_no_nul garbage_no_nul.muster
random_bytes 4242 4096 32 126 >garbage_ascii.muster
expect_error gen:printable_garbage garbage_ascii.muster
{ printf 'proc f() -> int {\n  return 1\n}\n'; random_bytes 99 2048 1 255; } >garbage_after_proc.muster
expect_error gen:garbage_after_valid_proc garbage_after_proc.muster

# a file that is only a NUL byte; a NUL inside an otherwise good script
printf '\0' >nul.muster
expect_error gen:only_nul nul.muster '^nul\.muster:1:1: error: .*NUL byte'
printf 'proc f() -> int {\n  return 1\0\n}\n' >nul_inside.muster
expect_error gen:nul_inside nul_inside.muster '^nul_inside\.muster:2:11: error: .*NUL byte'

# one line of 1 MB: a sum far deeper than the nesting limit
{ printf 'proc f() -> int { return 1'; repeat 500000 '+1'; printf ' }\n'; } >long_sum.muster
expect_error gen:megabyte_sum_line long_sum.muster 'nested more than [0-9]+ deep'
# one line of 1 MB of garbage letters and names
random_words 2024 180000 >long_words.muster
expect_error gen:megabyte_word_line long_words.muster
# one line of 1 MB inside a procedure: names separated by operators
{ printf 'proc f() -> int {\n  return '; random_words 31 150000 | tr ' ' '*'; printf '\n}\n'; } >long_names.muster
expect_error gen:megabyte_name_product long_names.muster

# deep nesting
{ printf 'proc f() -> int {\n  return '; repeat 10000 '('; printf 1; repeat 10000 ')'; printf '\n}\n'; } >parens.muster
expect_error gen:10000_nested_parens parens.muster 'nested more than [0-9]+ deep'
{ printf 'proc f() -> int {\n  return '; repeat 10000 '('; printf 1; printf '\n}\n'; } >parens_open.muster
expect_error gen:10000_unclosed_parens parens_open.muster 'nested more than [0-9]+ deep'
{ printf 'proc f() -> int {\n  return '; repeat 100000 '-'; printf '1\n}\n'; } >minus.muster
expect_error gen:100000_unary_minus minus.muster 'nested|deep'
{ printf 'proc f() -> bool {\n  return '; repeat 100000 'not '; printf 'true\n}\n'; } >nots.muster
expect_error gen:100000_not nots.muster 'nested|deep'
{ printf 'proc f() -> int {\n'; repeat 3000 'if true {\n'; printf 'return 1\n'; repeat 3000 '}\n'; printf '}\n'; } >ifs.muster
expect_error gen:3000_nested_ifs ifs.muster 'nested more than [0-9]+ deep'
{ printf 'proc f() -> int {\n  return 1'; repeat 49999 ' + 1'; printf '\n}\n'; } >sum.muster
expect_error gen:50000_term_sum sum.muster 'nested more than [0-9]+ deep'
{ printf 'proc f(x: int) -> int {\n  return '; repeat 5000 'f('; printf 1; repeat 5000 ')'; printf '\n}\n'; } >calls.muster
expect_error gen:5000_nested_calls calls.muster 'nested more than [0-9]+ deep'
{ printf 'proc f() -> int {\n  return '; repeat 5000 'roll '; printf 'd6\n}\n'; } >rolls.muster
expect_error gen:5000_nested_rolls rolls.muster

# many errors: the report stops after the first twenty
{ printf 'proc f() -> int {\n'; repeat 100000 '  x = 1\n'; printf '  return 0\n}\n'; } >many_errors.muster
expect_error gen:100000_errors many_errors.muster 'too many errors; stopping'
awk 'BEGIN { for (i = 0; i < 10000; i++) printf "proc p%d() -> int { return x }\n", i }' >many_procs.muster
expect_error gen:10000_procedures many_procs.muster 'too many errors; stopping'
{ repeat 20000 '@ '; printf '\n'; } >many_bad_chars.muster
expect_error gen:20000_bad_characters many_bad_chars.muster 'too many errors; stopping'

# invalid UTF-8 outside strings: a lone continuation byte, a truncated
# sequence, an overlong encoding and 0xff
printf 'proc f() -> int {\n  let x = \200\n  return \303( + \340\200\n}\n\377\n' >bad_utf8.muster
expect_error gen:invalid_utf8 bad_utf8.muster '^bad_utf8\.muster:2:11: error: unexpected byte 0x80'
printf 'proc f() -> str {\n  return "caf\303\251" + caf\303\251\n}\n' >utf8_name.muster
expect_error gen:utf8_outside_string utf8_name.muster '^utf8_name\.muster:2:22: error: unexpected byte 0xc3'

# huge integer literals and die sizes
{ printf 'proc f() -> int {\n  return '; repeat 5000 9; printf '\n}\n'; } >huge_int.muster
expect_error gen:huge_integer_literal huge_int.muster 'number too large'
printf 'proc f() -> int {\n  return 9223372036854775808\n}\n' >int_max_plus_one.muster
expect_error gen:int64_max_plus_one int_max_plus_one.muster '^int_max_plus_one\.muster:2:10: error: number too large'
{ printf 'proc f() -> int {\n  return roll d'; repeat 3000 9; printf '\n}\n'; } >huge_die.muster
expect_error gen:huge_die huge_die.muster 'a die has at most'

# a very long unterminated string and a very long name
{ printf 'proc f() -> str {\n  return "'; repeat 100000 'abc'; printf '\n}\n'; } >long_string.muster
expect_error gen:long_unterminated_string long_string.muster 'unterminated string'
{ printf 'proc f() -> int {\n  return '; repeat 10000 'x'; printf '\n}\n'; } >long_name.muster
expect_error gen:10000_letter_name long_name.muster 'longer than 64 characters'

# the empty file is a valid script with nothing in it
: >empty.muster
run_muster check empty.muster
crash=$(crash_reason)
if [ -n "$crash" ]; then
    fail gen:empty_file "$crash"
elif [ "$RUN_STATUS" = 0 ] && [ "$(cat "$RUN_OUT")" = "empty.muster: ok" ] && [ ! -s "$RUN_ERR" ]; then
    pass gen:empty_file
else
    fail gen:empty_file "expected exit 0, 'empty.muster: ok' and no stderr; got exit $RUN_STATUS" \
        "--- stdout:" "$(show_file "$RUN_OUT")" "--- stderr:" "$(show_file "$RUN_ERR")"
fi
printf '\n\n   \n# only a comment\n' >blank.muster
run_muster check blank.muster
if [ -z "$(crash_reason)" ] && [ "$RUN_STATUS" = 0 ] && [ ! -s "$RUN_ERR" ]; then
    pass gen:blank_lines_and_comment
else
    fail gen:blank_lines_and_comment "expected exit 0; got exit $RUN_STATUS" "$(show_file "$RUN_ERR")"
fi

# files that cannot be read as scripts
# expect_unreadable NAME FILE ERE: exit 1 and a `muster: error:` line matching ERE.
expect_unreadable()
{
    local name=$1 file=$2 pattern=$3
    run_muster check "$file"
    local crash
    crash=$(crash_reason)
    if [ -n "$crash" ]; then
        fail "$name" "$crash"
    elif [ "$RUN_STATUS" = 1 ] && [ ! -s "$RUN_OUT" ] && grep -Eq "$pattern" "$RUN_ERR"; then
        pass "$name"
    else
        fail "$name" "expected exit 1 and a message matching /$pattern/; got exit $RUN_STATUS" \
            "--- stderr:" "$(show_file "$RUN_ERR")"
    fi
}
expect_unreadable gen:missing_file no-such-file.muster "^muster: error: cannot open 'no-such-file\.muster'"
mkdir -p a_directory.muster
expect_unreadable gen:directory a_directory.muster "^muster: error: .*'a_directory\.muster'.*[Dd]irectory"
# over the size limit: a sparse file costs no disk
if truncate -s 65M too_big.muster 2>/dev/null; then
    expect_unreadable gen:65_mib_file too_big.muster "^muster: error: 'too_big\.muster' is larger than 64 MiB"
fi
rm -f too_big.muster

# check goes on after a bad file and still reports the good ones
printf 'proc ok() -> int { return 1 }\n' >good.muster
run_muster check garbage.muster good.muster no-such-file.muster good.muster
if [ -z "$(crash_reason)" ] && [ "$RUN_STATUS" = 1 ] \
    && [ "$(cat "$RUN_OUT")" = "$(printf 'good.muster: ok\ngood.muster: ok')" ] \
    && grep -q "cannot open 'no-such-file.muster'" "$RUN_ERR"; then
    pass gen:check_several_files
else
    fail gen:check_several_files "expected exit 1 and 'good.muster: ok' twice; got exit $RUN_STATUS" \
        "--- stdout:" "$(show_file "$RUN_OUT")" "--- stderr:" "$(show_file "$RUN_ERR")"
fi

# links: `muster test DIR` visits each real folder and file once, however
# many names the links give them (a folder holding `up -> ..` was walked
# until its paths were too long)
mkdir -p walk/sub
printf 'proc one() -> int {\n  return 1\n}\n\nexample "one is one" {\n  expect one() == 1\n}\n' >walk/a.muster
cp walk/a.muster walk/sub/b.muster
ln -s .. walk/sub/up
ln -s a.muster walk/also_a.muster
run_muster test walk
if [ -z "$(crash_reason)" ] && [ "$RUN_STATUS" = 0 ] && [ ! -s "$RUN_ERR" ] \
    && [ "$(cat "$RUN_OUT")" = "$(printf 'PASS walk/a.muster:5: one is one\nPASS walk/sub/b.muster:5: one is one\n2 passed, 0 failed')" ]; then
    pass gen:test_folder_with_link_loop
else
    fail gen:test_folder_with_link_loop "expected each script once, 2 passed; got exit $RUN_STATUS $(crash_reason)" \
        "--- stdout:" "$(show_file "$RUN_OUT")" "--- stderr:" "$(show_file "$RUN_ERR")"
fi
# a file name may hold control characters: `muster test` shows them as
# \x1b, never raw (an escape sequence would take over the terminal)
mkdir -p oddnames
cp walk/a.muster "oddnames/red$(printf '\033')[31m.muster"
run_muster test oddnames
if [ -z "$(crash_reason)" ] && [ "$RUN_STATUS" = 0 ] && ! grep -q "$(printf '\033')" "$RUN_OUT" "$RUN_ERR" \
    && [ "$(head -n 1 "$RUN_OUT")" = 'PASS oddnames/red\x1b[31m.muster:5: one is one' ]; then
    pass gen:test_file_name_with_escape
else
    fail gen:test_file_name_with_escape "expected the name written with \\x1b; got exit $RUN_STATUS" \
        "--- stdout:" "$(show_file "$RUN_OUT" | cat -v)" "--- stderr:" "$(show_file "$RUN_ERR" | cat -v)"
fi
# imports nest at most 32 deep
mkdir -p deep_imports
for i in $(seq 0 33); do
    printf 'import "level%d"\n' $((i + 1)) >"deep_imports/level$i.muster"
done
printf 'proc bottom() -> int {\n  return 1\n}\n' >deep_imports/level34.muster
expect_error gen:imports_33_deep deep_imports/level0.muster '^deep_imports/level32\.muster:1:8: error: imports nest more than 32 deep$'

# an import that goes round a loop of links is an import cycle, not a missing file
ln -s loop_b.muster loop_a.muster
ln -s loop_a.muster loop_b.muster
printf 'import "loop_a"\n\nproc f() -> int {\n  return 1\n}\n' >imports_loop.muster
expect_error gen:import_link_loop imports_loop.muster \
    "^imports_loop\.muster:1:8: error: import cycle: 'loop_a\.muster' goes round a loop of symbolic links$"

# ---- part 3: limits at run time ----
#
# Scripts that run into one of muster's limits (docs/reliability.md) must
# stop with that limit's message and exit 1, whatever the build; those of
# the heap run with MUSTER_MAX_HEAP at its least, 16 MiB.

HEAP=16777216
OOM='^muster: error: out of memory \(asked for [0-9]+ more bytes; the limit is 16 MiB, set by MUSTER_MAX_HEAP\)$'

# expect_limit NAME STATUS ERE ARG...: `muster ARG...` must exit with STATUS,
# print nothing on stdout and a line matching ERE on stderr.
expect_limit()
{
    local name=$1 status=$2 pattern=$3
    shift 3
    run_muster "$@"
    local crash
    crash=$(crash_reason)
    if [ -n "$crash" ]; then
        fail "$name" "$crash" "--- stderr:" "$(show_file "$RUN_ERR")"
    elif [ "$RUN_STATUS" = "$status" ] && [ ! -s "$RUN_OUT" ] && grep -Eq "$pattern" "$RUN_ERR"; then
        pass "$name"
    else
        fail "$name" "expected exit $status, no stdout and a line matching /$pattern/; got exit $RUN_STATUS" \
            "--- stdout:" "$(show_file "$RUN_OUT")" "--- stderr:" "$(show_file "$RUN_ERR")"
    fi
}

# The exact engine's numbers are GMP's, and they come out of the same heap:
# each level's split weighs (1/64)^1000000, so the path's weight grows by
# six million bits a level, and the odds of each count are as big.
cat >big_fractions.muster <<'EOF'
proc deep(k: int) -> int {
  if k == 0 { return 0 }
  let ones = count(roll 1000000d64 == 1)
  return ones + deep(k - 1)
}
EOF
MUSTER_MAX_HEAP=$HEAP expect_limit limit:heap_big_fractions 1 "$OOM" prob big_fractions.muster deep k=20 --exact

# A die's choices cost memory in its dice, not in its sides: three dice of a
# million sides on one path fit in 16 MiB (the count is then over budget).
MUSTER_MAX_HEAP=$HEAP expect_limit limit:heap_big_dice 1 \
    "^muster: error: the exact odds of 'expression' need more than 2000000 runs of it" \
    prob -e 'roll d1000000 > 0 and roll d1000000 > 0 and roll d1000000 > 0' --exact

# A reroll drops its attempt's pools: a million attempts of a hundred dice
# end at the reroll limit, on one thread or two, not out of memory.
cat >reroll_forever.muster <<'EOF'
proc never() -> int {
  let dice = roll 100d6
  if count(dice >= 1) == 100 { reroll }
  return 1
}
EOF
for threads in 1 2; do
    MUSTER_MAX_HEAP=$HEAP expect_limit "limit:reroll_limit_threads_$threads" 1 \
        '^reroll_forever\.muster:3:32: error: reroll limit reached: rerolled 1000000 times without a result' \
        prob reroll_forever.muster never --trials 8 --seed 1 --threads "$threads"
done

finish
