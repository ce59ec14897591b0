#!/usr/bin/env bash
# man.sh — the manual pages, man/muster.1 and man/muster-lang.7:
#   - both render with groff (-ww: every warning on) and with man -l, with
#     nothing on standard error;
#   - both pass mandoc's linter, at its style level (the level above it only
#     adds the conventions of the OpenBSD base system), with the pages
#     indexed in a scratch manual tree so that each one's reference to the
#     other is checked too;
#   - muster.1 describes every command and every option `muster --help`
#     lists, and no option that it does not;
#   - muster.1's ENVIRONMENT describes every variable the C sources read
#     with getenv;
#   - muster-lang.7 names every keyword of lang/lexer.re;
#   - the commands under EXAMPLES in muster.1 run, and the script under
#     EXAMPLES in muster-lang.7 passes `muster check`, as do its commands.
# groff, man and mandoc are installed by scripts/setup.sh.
#
#   bash tests/man.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

CMD_PAGE=$top_srcdir/man/muster.1
LANG_PAGE=$top_srcdir/man/muster-lang.7
PAGES=("$CMD_PAGE" "$LANG_PAGE")

# section FILE NAME: the lines of the section .Sh NAME of an mdoc page.
section()
{
    awk -v name="$2" '/^\.Sh / { inside = ($0 == ".Sh " name); next } inside' "$1"
}

# ic_words FILE: every argument of an Ic macro, one a line (the words after
# Ic up to the next macro; punctuation and quotes dropped).
ic_words()
{
    awk '/^\./ {
        ic = 0
        for (i = 1; i <= NF; i++) {
            w = $i
            sub(/^\./, "", w)
            if (w == "Ic") { ic = 1; continue }
            if (w ~ /^[A-Z][a-z][a-z]?$/) { ic = 0; continue }
            if (ic) { gsub(/["]/, "", w); if (w ~ /^[a-z:]/) print w }
        }
    }' "$1"
}

# ---- rendering ----
for page in "${PAGES[@]}"; do
    name=$(basename "$page")
    if groff -ww -mdoc -Tutf8 -z "$page" >"$TEST_TMP/groff.out" 2>"$TEST_TMP/groff.err" && ! [ -s "$TEST_TMP/groff.err" ]; then
        pass "$name renders with groff -ww"
    else
        fail "$name renders with groff -ww" "$(show_file "$TEST_TMP/groff.err")"
    fi
    if MANWIDTH=80 man -l "$page" >"$TEST_TMP/man.out" 2>"$TEST_TMP/man.err" && ! [ -s "$TEST_TMP/man.err" ] \
        && grep -q '^NAME' "$TEST_TMP/man.out" && grep -q '^DESCRIPTION' "$TEST_TMP/man.out"; then
        pass "$name renders with man -l"
    else
        fail "$name renders with man -l" "$(show_file "$TEST_TMP/man.err")" "$(head -n 5 "$TEST_TMP/man.out")"
    fi
done

# ---- lint: both pages in a manual tree of their own, indexed ----
tree=$TEST_TMP/mantree
mkdir -p "$tree/man1" "$tree/man7"
cp "$CMD_PAGE" "$tree/man1/" && cp "$LANG_PAGE" "$tree/man7/"
makewhatis=$(command -v makewhatis || echo /usr/sbin/makewhatis)
if ! "$makewhatis" "$tree" >"$TEST_TMP/makewhatis.out" 2>&1; then
    fail "makewhatis indexes the pages" "$(show_file "$TEST_TMP/makewhatis.out")"
fi
for page in "${PAGES[@]}"; do
    name=$(basename "$page")
    if mandoc -Tlint -W style -M "$tree" "$page" >"$TEST_TMP/lint.out" 2>&1 && ! [ -s "$TEST_TMP/lint.out" ]; then
        pass "$name passes mandoc -Tlint"
    else
        fail "$name passes mandoc -Tlint" "$(show_file "$TEST_TMP/lint.out")"
    fi
done

# ---- the commands and options of --help ----
run_muster --help
if [ "$RUN_STATUS" != 0 ]; then
    fail "muster --help" "exit status $RUN_STATUS" "$(show_file "$RUN_ERR")"
fi
HELP=$RUN_OUT
mapfile -t commands < <(awk '/^Commands:/ { inside = 1; next } inside && /^$/ { exit }
                             inside && /^  [a-z]/ { print $1 }' "$HELP" | sort -u)
mapfile -t longs < <(grep -oE -- '--[a-z][a-z-]*[a-z]' "$HELP" | sort -u)
mapfile -t shorts < <(grep -oE -- '(^|[ ,(|])-[a-zA-Z]\b' "$HELP" | sed 's/^.*-//' | sort -u)
if [ ${#commands[@]} -lt 8 ] || [ ${#longs[@]} -lt 20 ] || [ ${#shorts[@]} -lt 3 ]; then
    fail "the help text can be read" \
        "found ${#commands[@]} commands (${commands[*]}), ${#longs[@]} long options and ${#shorts[@]} short ones;" \
        "expected at least 8, 20 and 3: has the layout of 'muster --help' changed?"
else
    pass "the help text can be read: ${#commands[@]} commands, ${#longs[@]} long options, ${#shorts[@]} short ones"
fi
synopsis=$(section "$CMD_PAGE" SYNOPSIS)
for c in "${commands[@]}"; do
    if ! grep -qx "\.Cm $c" <<<"$synopsis"; then
        fail "command $c in muster.1" "the SYNOPSIS has no line '.Cm $c'"
    elif ! grep -qx "\.Ss $c" "$CMD_PAGE"; then
        fail "command $c in muster.1" "there is no subsection '.Ss $c'"
    else
        pass "command $c in muster.1"
    fi
done
# an option is described by an item of a list: .It Fl \-name, or .It Fl x
documented=$(grep -E '^\.It (.* )?Fl ' "$CMD_PAGE")
for o in "${longs[@]}"; do
    escaped=$(sed 's/-/\\\\-/g' <<<"${o#--}")
    if grep -qE "Fl \\\\-$escaped( |$)" <<<"$documented"; then
        pass "option $o in muster.1"
    else
        fail "option $o in muster.1" "no item '.It Fl \\-$(sed 's/-/\\-/g' <<<"${o#--}")'"
    fi
done
for o in "${shorts[@]}"; do
    if grep -qE "Fl $o( |$)" <<<"$documented"; then
        pass "option -$o in muster.1"
    else
        fail "option -$o in muster.1" "no item '.It Fl $o'"
    fi
done
# and the other way: each option described is one the program has
while read -r o; do
    if printf '%s\n' "${longs[@]}" | grep -qx -- "--$o"; then
        pass "muster.1 describes --$o, which --help lists"
    else
        fail "muster.1 describes --$o, which --help lists" "'muster --help' has no --$o"
    fi
done < <(grep -oE 'Fl \\-[a-z\\-]*[a-z]' <<<"$documented" | sed 's/^Fl \\-//; s/\\-/-/g' | sort -u)

# ---- the environment ----
mapfile -t sources < <(find "$top_srcdir" -mindepth 1 \
    \( -type d \( -name tests -o -name bench -o -name '.*' -o -name '_*' \) -prune \) -o \
    \( -type f \( -name '*.c' -o -name '*.h' -o -name '*.re' -o -name '*.y' \) -print \) | sort)
mapfile -t variables < <(cat "${sources[@]}" | grep -oE '\b(secure_)?getenv\("[A-Za-z_][A-Za-z0-9_]*"\)' \
    | sed 's/^.*("//; s/")$//' | sort -u)
unnamed=$(grep -nE '\b(secure_)?getenv\([^"]' "${sources[@]}" /dev/null)
if [ -n "$unnamed" ]; then
    fail "every getenv names its variable" "name the variable as a string, so that this test sees it:" "$unnamed"
fi
if [ ${#sources[@]} -lt 10 ] || [ ${#variables[@]} -lt 3 ]; then
    fail "the sources' environment can be read" \
        "found ${#sources[@]} source files and ${#variables[@]} variables (${variables[*]}); expected at least 10 and 3"
else
    pass "the sources' environment can be read: ${variables[*]}"
fi
environment=$(section "$CMD_PAGE" ENVIRONMENT)
for v in "${variables[@]}"; do
    if grep -qx "\.It Ev $v" <<<"$environment"; then
        pass "$v in muster.1's ENVIRONMENT"
    else
        fail "$v in muster.1's ENVIRONMENT" "the sources read it with getenv; add '.It Ev $v' to ENVIRONMENT"
    fi
done

# ---- the keywords of the lexer ----
# the words of its keyword table ({ "ruleset", RULESET, ...) and the words
# its re2c rules match whole ("proc" { ...), the phrases ("one" | "start")
# ... ("of" | "at") included; not the die ("d" digit+)
lexer=$top_srcdir/lang/lexer.re
mapfile -t keywords < <({
    grep -oE '\{ "[a-z]+", [A-Z_]+,' "$lexer" | sed 's/^{ "//; s/".*//'
    awk '/\/\*!re2c/ { inside = 1; next } inside && /^[[:space:]]*\*\/[[:space:]]*$/ { inside = 0 } inside' "$lexer" \
        | grep -E '^[[:space:]]*[("].*\{' | grep -oE '"[a-z]+"[[:space:]]*[{|)]' | grep -oE '[a-z]+'
} | sort -u)
if [ ${#keywords[@]} -lt 30 ]; then
    fail "the lexer's keywords can be read" "found ${#keywords[@]} (${keywords[*]}); expected at least 30: has lang/lexer.re changed its layout?"
else
    pass "the lexer's keywords can be read: ${#keywords[@]} words"
fi
named=$(ic_words "$LANG_PAGE" | sort -u)
for k in "${keywords[@]}"; do
    if grep -qx -- "$k" <<<"$named"; then
        pass "keyword $k in muster-lang.7"
    else
        fail "keyword $k in muster-lang.7" "no '.Ic $k' (or '.Ic ... $k') in the page"
    fi
done

# ---- the examples ----
# literal FILE: the lines of the .Bd -literal blocks of FILE's EXAMPLES, as
# typed: escapes undone and lines ending in a backslash joined to the next;
# a line "--" ends each block.
literal()
{
    section "$1" EXAMPLES | awk '/^\.Bd -literal/ { inside = 1; next } /^\.Ed/ { inside = 0; print "--" } inside' \
        | sed -e 's/^\\&//' -e 's/\\-/-/g' -e 's/\\(dq/"/g' -e 's/\\e/\\/g' \
        | sed -e ':a' -e '/\\$/N; s/\\\n[[:space:]]*/ /; ta'
}

# run_examples PAGE DIR: each `muster ...` line of PAGE's examples, run in DIR.
run_examples()
{
    local name count=0 cmd
    name=$(basename "$1")
    while IFS= read -r cmd; do
        case $cmd in muster\ *) ;; *) continue ;; esac
        count=$((count + 1))
        (cd "$2" && timeout -k 5 "$TEST_TIMEOUT" bash -c "\"\$MUSTER\" ${cmd#muster }" \
            </dev/null >"$TEST_TMP/example.out" 2>"$TEST_TMP/example.err")
        local status=$?
        if [ $status = 0 ]; then
            pass "$name example: $cmd"
        else
            fail "$name example: $cmd" "exit status $status" "$(show_file "$TEST_TMP/example.err")"
        fi
    done < <(literal "$1")
    if [ $count = 0 ]; then
        fail "$name has examples" "no 'muster ...' line in a literal block of its EXAMPLES"
    fi
}

work=$TEST_TMP/examples
mkdir -p "$work"
ln -s "$top_srcdir/examples" "$work/examples"
ln -s "$top_srcdir/docs" "$work/docs"
run_examples "$CMD_PAGE" "$work"

# muster-lang.7: its first block is a script, the rest commands that use it
script_dir=$TEST_TMP/lang
mkdir -p "$script_dir"
literal "$LANG_PAGE" | awk '/^--$/ { exit } { print }' >"$script_dir/skirmish.muster"
if grep -q '^example ' "$script_dir/skirmish.muster"; then
    run_muster check "$script_dir/skirmish.muster"
    if [ "$RUN_STATUS" = 0 ] && grep -q 'ok (.* pass)' "$RUN_OUT"; then
        pass "muster-lang.7's example script passes muster check"
    else
        fail "muster-lang.7's example script passes muster check" "exit status $RUN_STATUS" \
            "$(show_file "$RUN_OUT")" "$(show_file "$RUN_ERR")"
    fi
else
    fail "muster-lang.7's example script" "the first literal block of EXAMPLES is not a script with examples"
fi
run_examples "$LANG_PAGE" "$script_dir"

finish
