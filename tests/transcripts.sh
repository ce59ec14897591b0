#!/usr/bin/env bash
# transcripts.sh — every console transcript in README.md and docs/*.md runs
# as a test against the built muster.
#
# In the Markdown, a transcript is a fenced block whose info string starts
# with `console`.  A line starting with `$ ` is a command (a line ending in
# `\` goes on to the next); the lines under it, up to the next command, are
# what it prints, standard output and standard error together, as a terminal
# shows them.  Each command runs with bash in a scratch folder of its own
# document, where `muster` (on PATH) and `./muster` are the built binary and
# `rules/`, `examples/`, `docs/` and `stdlib/` are the source tree's, so a
# command reads as a reader types it at the top of a clone.  NO_COLOR is set
# and no stream is a terminal.  Blocks run in the order of the document and
# share its folder: what one command writes, a later one may read.
#
# A fenced block whose info string is `muster file=NAME` (or any other
# language with file=NAME) is written to NAME in that folder before the
# blocks after it run: that is how a transcript's script is the one printed
# just above it.  `append=NAME` adds the block to the end of NAME instead,
# after a blank line, for a script the text builds up piece by piece.  Both
# are invisible in rendered Markdown.
#
# A line `<!-- transcript: COMMAND -->` (an HTML comment, so not shown when
# the Markdown is rendered) runs COMMAND with bash in the folder at that
# point, and must succeed: it makes a change the text describes in words
# ("had the last row been mistyped as ..4"), or undoes it.
#
# Output that legitimately differs between runs is marked, never skipped:
#   - a line `...` alone in the expected output matches any lines (none too);
#   - `console varies="WHY"` on the fence: the commands run and must neither
#     crash nor hang, and the output is not compared; the reason is printed
#     with the result, so a reader of the test log sees every such block.
#
#   bash tests/transcripts.sh [FILE.md...]   (default: README.md docs/*.md)
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

TEST_TIMEOUT=${TEST_TIMEOUT:-120}
VARIED=0

# setup_scratch DOC: a fresh folder for the document DOC; prints its path.
setup_scratch()
{
    local dir=$TEST_TMP/$(basename "$1" .md)
    rm -rf "$dir"
    mkdir -p "$dir/.bin"
    ln -s "$MUSTER" "$dir/.bin/muster"
    ln -s "$MUSTER" "$dir/muster"
    local d
    for d in rules examples docs stdlib; do
        ln -s "$top_srcdir/$d" "$dir/$d"
    done
    printf '%s\n' "$dir"
}

# matches EXPECTED ACTUAL: whether the actual output (a file) matches the
# expected lines (a file), where a line `...` matches any run of lines.
matches()
{
    awk -v efile="$1" '
        BEGIN { n = 0; while ((getline l < efile) > 0) e[++n] = l }
        { a[++m] = $0 }
        END {
            # backtracking match of e[1..n] against a[1..m]
            exit !(match_from(1, 1))
        }
        function match_from(i, j,    k) {
            if (i > n) return j > m
            if (e[i] == "...") {
                for (k = j; k <= m + 1; k++)
                    if (match_from(i + 1, k)) return 1
                return 0
            }
            if (j > m || e[i] != a[j]) return 0
            return match_from(i + 1, j + 1)
        }' "$2"
}

# run_command DIR COMMAND OUT: run one transcript command; sets RUN_STATUS.
run_command()
{
    (cd "$1" && PATH="$1/.bin:$PATH" timeout -k 5 "$TEST_TIMEOUT" bash -c "$2" </dev/null >"$3" 2>&1; exit $?) 2>/dev/null
    RUN_STATUS=$?
}

# check_command DOC LINE DIR COMMAND EXPECTED VARIES
check_command()
{
    local doc=$1 line=$2 dir=$3 cmd=$4 expected=$5 varies=$6
    local out=$TEST_TMP/actual name="$doc:$line: \$ ${cmd%%$'\n'*}"
    run_command "$dir" "$cmd" "$out"
    # a stream whose last line has no newline: mark it, as the docs cannot show it
    if [ -s "$out" ] && [ "$(tail -c 1 "$out" | wc -l)" -eq 0 ]; then
        printf '\n\\ no newline at end\n' >>"$out"
    fi
    if [ "$RUN_STATUS" = 124 ] || [ "$RUN_STATUS" = 137 ]; then
        fail "$name" "hang: still running after ${TEST_TIMEOUT}s (killed)"
    elif [ "$RUN_STATUS" -ge 128 ] || grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$out"; then
        fail "$name" "crash: exit status $RUN_STATUS" "$(show_file "$out")"
    elif [ -n "$varies" ]; then
        VARIED=$((VARIED + 1))
        pass "$name (output not compared: $varies)"
    elif matches "$expected" "$out"; then
        pass "$name"
    else
        fail "$name" "$(diff -u --label expected --label actual "$expected" "$out" | head -n 40)"
    fi
}

# run_doc DOC: every transcript of one document, in order.
run_doc()
{
    local doc=$1 rel=${1#"$top_srcdir"/}
    local dir lineno=0 line info="" fence="" file="" varies="" cmd="" cmd_line=0 expected=$TEST_TMP/expected
    local indent="" in_block=0 kind="" append=0 cont=0 body=$TEST_TMP/body fence_line=0 unmarked=0
    dir=$(setup_scratch "$doc")
    while IFS= read -r line || [ -n "$line" ]; do
        lineno=$((lineno + 1))
        if [ $in_block = 0 ]; then
            if [[ $line =~ ^\<!--\ transcript:\ (.*)\ --\>$ ]]; then
                run_command "$dir" "${BASH_REMATCH[1]}" "$TEST_TMP/setup.out"
                [ "$RUN_STATUS" = 0 ] || fail "$rel:$lineno: transcript command failed (exit $RUN_STATUS)" \
                    "$(show_file "$TEST_TMP/setup.out")"
                continue
            fi
            if [[ $line =~ ^([ ]*)(\`\`\`+)(.*)$ ]]; then
                indent=${BASH_REMATCH[1]}
                fence=$indent${BASH_REMATCH[2]}
                fence_line=$lineno
                info=${BASH_REMATCH[3]}
                in_block=1
                file="" varies="" kind=other append=0
                if [[ $info =~ (^|[[:space:]])(file|append)=([^[:space:]]+) ]]; then
                    file=${BASH_REMATCH[3]}
                    [ "${BASH_REMATCH[2]}" = append ] && append=1
                    kind=file
                    : >"$body"
                fi
                if [[ $info =~ ^console([[:space:]]|$) ]]; then
                    kind=console
                    if [[ $info =~ varies=\"([^\"]*)\" ]]; then
                        varies=${BASH_REMATCH[1]}
                    fi
                    cmd="" cont=0
                fi
            fi
            continue
        fi
        line=${line#"$indent"}   # a block inside a list item is indented
        if [ $kind != console ] && [[ $line == '$ '* ]] && [ "$unmarked" != "$fence_line" ]; then
            unmarked=$fence_line
            fail "$rel:$fence_line: a transcript in a block not marked console (\`\`\`console)"
        fi
        if [ "$indent$line" = "$fence" ]; then
            in_block=0
            if [ $kind = file ]; then
                mkdir -p "$(dirname "$dir/$file")"
                if [ $append = 1 ]; then
                    [ -f "$dir/$file" ] || fail "$rel:$fence_line: append=$file, but no block made $file before"
                    { echo; cat "$body"; } >>"$dir/$file"
                else
                    cp "$body" "$dir/$file"
                fi
            elif [ $kind = console ] && [ -n "$cmd" ]; then
                check_command "$rel" "$cmd_line" "$dir" "$cmd" "$expected" "$varies"
            fi
            continue
        fi
        case $kind in
        file)
            printf '%s\n' "$line" >>"$body"
            ;;
        console)
            if [ $cont = 1 ]; then
                cmd+=$'\n'"$line"
                [[ $line == *\\ ]] || cont=0
            elif [[ $line == '$ '* ]]; then
                [ -n "$cmd" ] && check_command "$rel" "$cmd_line" "$dir" "$cmd" "$expected" "$varies"
                cmd=${line#'$ '}
                cmd_line=$lineno
                : >"$expected"
                [[ $line == *\\ ]] && cont=1
            elif [ -n "$cmd" ]; then
                printf '%s\n' "$line" >>"$expected"
            fi
            ;;
        esac
    done <"$doc"
}

if [ $# -gt 0 ]; then
    docs=("$@")
else
    docs=("$top_srcdir/README.md" "$top_srcdir"/docs/*.md)
fi
for doc in "${docs[@]}"; do
    case $doc in /*) ;; *) doc=$PWD/$doc ;; esac
    run_doc "$doc"
done
echo "$VARIED transcripts ran with their output not compared (marked varies)"
finish
