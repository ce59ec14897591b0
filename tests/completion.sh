#!/usr/bin/env bash
# completion.sh — shell completion, in three parts:
#   1. `muster complete CWORD -- WORD...` itself: the commands, each
#      command's options (--name= for one with a value), the values of
#      --paper and --choose, the mark for file names, the procedures of a
#      script, its parameters as name= and the values of an enum or a bool
#      after name= (after the last comma for prob); a script that does not
#      compile, a missing file, a folder, a pipe: nothing, status 0; never a
#      word on standard error;
#   2. completions/muster.bash as bash calls it: _muster with COMP_LINE,
#      COMP_POINT, COMP_WORDS and COMP_CWORD set, on its own and with
#      bash-completion loaded, with the usual COMP_WORDBREAKS and with one
#      without '=' and ':';
#   3. both scripts in a real interactive shell, bash and zsh, on a
#      pseudo-terminal made with zsh's zpty: a line is typed with a TAB,
#      and the line the shell's editor holds after it is compared (which
#      covers the quoting of file names, '/' after a folder and no space
#      after name=).
# bash-completion and zsh are installed by scripts/setup.sh.
#
#   bash tests/completion.sh
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

VOLLEY=$top_srcdir/examples/volley.muster
REPUBLIC=$top_srcdir/rules/republic.muster
BASH_COMPLETION=/usr/share/bash-completion/bash_completion

# a folder to complete file names in, and muster on PATH by that name
WORK=$TEST_TMP/work
mkdir -p "$WORK/my dir" "$WORK/sub" "$TEST_TMP/bin"
cp "$VOLLEY" "$WORK/my dir/fire team.muster"
cp "$VOLLEY" "$WORK/volley.muster"
cp "$REPUBLIC" "$WORK/republic.muster"
: > "$WORK/notes.txt"
printf 'proc broken( -> int {\n' > "$WORK/broken.muster"
mkfifo "$WORK/pipe.muster"
ln -s "$MUSTER" "$TEST_TMP/bin/muster"
cd "$WORK" || exit 1

lines() { printf '%s\n' "$@"; }

# check NAME WANT: the last run printed exactly WANT (lines) on standard
# output, nothing on standard error, and exited 0.
check()
{
    local name=$1 want=$2 why
    why=$(crash_reason)
    if [ -n "$why" ]; then
        fail "$name" "$why"
    elif [ "$RUN_STATUS" != 0 ] || [ -s "$RUN_ERR" ]; then
        fail "$name" "exit status $RUN_STATUS; standard error:" "$(show_file "$RUN_ERR")"
    elif [ "$(cat "$RUN_OUT")" != "$want" ]; then
        fail "$name" "expected:" "$want" "got:" "$(show_file "$RUN_OUT")"
    else
        pass "$name"
    fi
}

# complete NAME WANT CWORD WORD...: muster complete CWORD -- muster WORD...
complete_is()
{
    local name=$1 want=$2
    shift 2
    local cword=$1
    shift
    run_muster complete "$cword" -- muster "$@"
    check "complete: $name" "$want"
}

# ---- 1. muster complete ----

# the commands are those of the help text (in their table's order)
run_muster --help
help_commands=$(awk '/^Commands:/ { inside = 1; next } inside && /^$/ { exit }
                     inside && /^  [a-z]/ { print $1 }' "$RUN_OUT" | sort -u)
run_muster complete 1 -- muster ''
if [ "$(sort "$RUN_OUT")" = "$help_commands" ] && [ -n "$help_commands" ] && ! [ -s "$RUN_ERR" ]; then
    pass "complete: the commands are those of --help"
else
    fail "complete: the commands are those of --help" "--help: $(echo $help_commands)" "got: $(echo $(cat "$RUN_OUT"))"
fi
if grep -qw complete "$RUN_OUT" || { run_muster --help; grep -qw complete "$RUN_OUT"; }; then
    fail "complete: the verb is hidden" "'complete' is offered or in --help"
else
    pass "complete: the verb is hidden"
fi
complete_is "a command begun" "prob" 1 pr
complete_is "--help and --version in the command's place" "$(lines --help --version)" 1 -
complete_is "nothing for word 0" "" 0 mus

complete_is "run's options" \
    "$(lines --seed= --dice= --explain --json --choose= -e --max-steps= --max-depth= --help --version)" 2 run -
complete_is "sheet's options" \
    "$(lines --md --html --review --paper= --pdf= --max-steps= --max-depth= --help --version)" 2 sheet --
run_muster complete 2 -- muster prob --
if grep -qx -- --vs= "$RUN_OUT" && grep -qx -- --no-specialize "$RUN_OUT" && grep -qx -- --trials= "$RUN_OUT" \
    && ! grep -qx -- --dice= "$RUN_OUT" && ! grep -qx -- --md "$RUN_OUT"; then
    pass "complete: prob's options"
else
    fail "complete: prob's options" "$(show_file "$RUN_OUT")"
fi
complete_is "an option given is not offered again, --choose is" \
    "$(lines --dice= --json --choose= --max-steps= --max-depth= --help --version)" 4 run --explain --seed=3 --
complete_is "options after the operands" "--explain" 5 run "$VOLLEY" hits card=3 --ex
complete_is "an option begun" "--exact" 2 prob --exa
complete_is "nothing after --" "" 4 run volley.muster -- --
complete_is "--paper=" "$(lines --paper=a4 --paper=letter)" 3 sheet volley.muster --paper=
complete_is "--paper=, abbreviated" "--pap=letter" 2 sheet --pap=l
complete_is "--paper VALUE" "letter" 3 sheet --paper l
complete_is "a number has nothing to offer" "" 2 prob --trials=
complete_is "--vs=: .muster files" ":files .muster --vs=" 2 prob --vs=ho
complete_is "--vs VALUE: .muster files" ":files .muster" 3 prob --vs ''
complete_is "--svg=: any file" ":files * --svg=" 2 prob --svg=
complete_is "--pdf=: any file" ":files * --pdf=" 2 sheet --pdf=

complete_is "a script to run" ":files .muster" 2 run ''
complete_is "scripts to check" ":files .muster" 4 check a.muster b.muster ''
complete_is "a script to turn, and no more" "" 3 turn volley.muster ''
complete_is "the procedures" "$(lines fire_value hits loss_steps initiative)" 3 run "$VOLLEY" ''
complete_is "a procedure begun" "hits" 3 prob "$VOLLEY" h
complete_is "dis's procedures" "initiative" 3 dis "$VOLLEY" i
complete_is "the parameters" "$(lines card= formation= cover=)" 4 run "$VOLLEY" hits ''
complete_is "a parameter given is not offered again" "$(lines formation= cover=)" 5 run "$VOLLEY" hits card=6 ''
complete_is "a parameter begun" "cover=" 4 run "$VOLLEY" hits co
complete_is "an enum's members" "$(lines cover=none cover=light cover=heavy cover=works)" 4 run "$VOLLEY" hits cover=
complete_is "an enum's member begun" "cover=light" 4 run "$VOLLEY" hits cover=li
complete_is "true and false" "$(lines enfilade=true enfilade=false)" 4 run "$VOLLEY" fire_value enfilade=
complete_is "an int has nothing to offer" "" 4 run "$VOLLEY" hits card=
complete_is "prob: after a comma, the members not listed" \
    "$(lines cover=light,heavy,none cover=light,heavy,works)" 5 prob "$VOLLEY" hits card=3 cover=light,heavy,
complete_is "prob: a member begun after a comma" "formation=line,column" 4 prob "$VOLLEY" hits formation=line,co
complete_is "run takes no lists" "" 4 run "$VOLLEY" hits cover=light,
complete_is "options before the script" "$(lines formation= cover=)" 8 prob --seed 1 --json "$VOLLEY" hits card=3 ''
complete_is "diff: two scripts" ":files .muster" 3 diff "$VOLLEY" ''
complete_is "diff: the base's procedures" "loss_steps" 4 diff "$VOLLEY" volley.muster lo
complete_is "diff: the parameters" "$(lines formation= cover=)" 6 diff "$VOLLEY" volley.muster hits card=2 ''

complete_is "--choose=: the choices" "$(lines --choose=RallyDistance= --choose=NaturalLoser=)" 3 run republic.muster --choose=
complete_is "--choose=: a choice's options" \
    "$(lines --choose=RallyDistance=whole_fours --choose=RallyDistance=fours_beyond)" 4 prob --trials 9 --choose=RallyDistance= republic.muster
complete_is "--choose VALUE, the script after it" "NaturalLoser=" 3 run --choose N republic.muster
complete_is "--choose: a choice chosen is not offered again" "--choose=NaturalLoser=" 5 run republic.muster --choose RallyDistance=whole_fours --choose=
complete_is "--choose: a script without choices" "" 3 run volley.muster --choose=
complete_is "-e: no script, no procedures" "" 4 prob -e 'roll d6' ''

complete_is "a script that does not compile" "" 3 run broken.muster ''
complete_is "a script that does not compile: --choose" "" 3 run broken.muster --choose=
complete_is "a missing script" "" 3 run missing.muster ''
complete_is "a folder" "" 3 run sub ''
complete_is "a pipe is not read" "" 3 run pipe.muster ''
complete_is "standard input is not read" "" 3 run - ''
complete_is "not a command" "" 2 frobnicate ''
run_muster complete 5 -- muster run
if [ "$RUN_STATUS" = 2 ] && [ -s "$RUN_ERR" ] && ! [ -s "$RUN_OUT" ]; then
    pass "complete: called wrongly, a usage error"
else
    fail "complete: called wrongly, a usage error" "exit status $RUN_STATUS" "$(show_file "$RUN_ERR")"
fi

# ---- 2. _muster, as bash calls it ----

# bash_complete LINE: COMPREPLY, one a line, of _muster for LINE with the
# cursor at its end; COMP_WORDS is LINE split as bash splits it (at blanks,
# and at each character of COMP_WORDBREAKS, which count as words).  First
# runs $PRELUDE (bash-completion loaded, another COMP_WORDBREAKS...), then
# sources completions/muster.bash unless SOURCE=no, and runs $AFTER just
# before _muster.  Standard error is kept in $TEST_TMP/bash.err.
PRELUDE= SOURCE=yes AFTER=
bash_complete()
{
    PATH=$TEST_TMP/bin:$PATH timeout "$TEST_TIMEOUT" bash --norc --noprofile -c '
        eval "$PRELUDE"
        [[ $SOURCE == no ]] || source "$1/completions/muster.bash"
        COMP_LINE=$2
        COMP_POINT=${#2}
        COMP_WORDS=()
        word=
        for ((i = 0; i < ${#2}; i++)); do
            c=${2:i:1}
            if [[ $c == [[:blank:]] ]]; then
                [[ -n $word ]] && COMP_WORDS+=("$word")
                word=
            elif [[ $COMP_WORDBREAKS == *"$c"* ]]; then
                [[ -n $word ]] && COMP_WORDS+=("$word")
                COMP_WORDS+=("$c")
                word=
            else
                word+=$c
            fi
        done
        COMP_WORDS+=("$word")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        eval "$AFTER"
        _muster
        printf "%s\n" ${COMPREPLY[@]+"${COMPREPLY[@]}"}' \
        _ "$top_srcdir" "$1" 2>"$TEST_TMP/bash.err"
}
export PRELUDE SOURCE AFTER

# the file names compgen finds come in the order of its two calls, folders
# first; bash sorts them for showing
sort_files()
{
    case $1 in files:*) sort ;; *) cat ;; esac
}

# bash_is NAME WANT LINE
bash_is()
{
    local name=$1 want=$2 got
    got=$(bash_complete "$3" | sort_files "$1")
    if [ -s "$TEST_TMP/bash.err" ]; then
        fail "bash: $name" "standard error:" "$(show_file "$TEST_TMP/bash.err")"
    elif [ "$got" != "$want" ]; then
        fail "bash: $name" "expected:" "$want" "got:" "$got"
    else
        pass "bash: $name"
    fi
}

bash_cases()
{
    local how=$1
    bash_is "a command$how" "run" "muster ru"
    bash_is "a command: repl$how" "repl" "muster rep"
    bash_is "an option$how" "--explain" "muster run --ex"
    bash_is "the procedures$how" "$(lines fire_value hits loss_steps initiative)" "muster run volley.muster "
    bash_is "a procedure$how" "hits" "muster run volley.muster h"
    bash_is "parameters$how" "$(lines card= formation= cover=)" "muster run volley.muster hits "
    bash_is "after name=$how" "$(lines none light heavy works)" "muster run volley.muster hits cover="
    bash_is "after name=, begun$how" "light" "muster run volley.muster hits card=3 cover=l"
    bash_is "prob: after a comma$how" "$(lines light,heavy,none light,heavy,works)" "muster prob volley.muster hits cover=light,heavy,"
    bash_is "--paper=$how" "$(lines a4 letter)" "muster sheet volley.muster --paper="
    bash_is "--choose=CHOICE=$how" "whole_fours" "muster run republic.muster --choose=RallyDistance=w"
    bash_is "files: .muster files and folders$how" \
        "$(lines 'my dir' sub broken.muster pipe.muster republic.muster volley.muster | sort)" "muster check "
    bash_is "files: a folder with a space$how" "my dir" "muster run my"
    bash_is "files: in a folder with a space, escaped$how" "my dir/fire team.muster" 'muster run my\ dir/'
    bash_is "files: in a folder with a space, quoted$how" "my dir/fire team.muster" 'muster run "my dir/f'
    bash_is "files: the procedures of a quoted script$how" "initiative" "muster run 'my dir/fire team.muster' i"
    bash_is "files: --vs=$how" "my dir" "muster prob volley.muster hits --vs=my"
    bash_is "files: --svg= takes any file$how" "notes.txt" "muster prob volley.muster hits --svg=no"
    bash_is "a broken script$how" "" "muster run broken.muster "
}
bash_cases ""
if [ -r "$BASH_COMPLETION" ]; then
    PRELUDE="source $BASH_COMPLETION"
    bash_cases " (bash-completion loaded)"
    # as installed: found by bash-completion in a completions folder, by the command's name
    mkdir -p "$TEST_TMP/user/completions"
    cp "$top_srcdir/completions/muster.bash" "$TEST_TMP/user/completions/muster"
    PRELUDE="BASH_COMPLETION_USER_DIR=$TEST_TMP/user; source $BASH_COMPLETION; _completion_loader muster"
    SOURCE=no
    bash_is "loaded by bash-completion from its folder" "hits" "muster run volley.muster h"
    PRELUDE= SOURCE=yes
else
    fail "bash-completion is installed" "no $BASH_COMPLETION: run scripts/setup.sh"
fi
PRELUDE="COMP_WORDBREAKS=\$' \\t\\n\"><;|&('"
bash_is "name= when '=' does not break words" "$(lines cover=none cover=light cover=heavy cover=works)" \
    "muster run volley.muster hits cover="
bash_is "--vs= when '=' does not break words" "--vs=my dir" "muster prob volley.muster hits --vs=my"
bash_is "--choose= when '=' does not break words" "--choose=RallyDistance=" "muster run republic.muster --choose=R"
PRELUDE="touch 'a:b=c.muster'"
bash_is "a file name with ':' and '='" "b=c.muster" "muster run a:b"
rm -f 'a:b=c.muster'
PRELUDE= AFTER="unset COMP_LINE COMP_POINT"
bash_is "COMP_WORDS alone" "hits" "muster run volley.muster h"
PRELUDE="PATH=/nonexistent" AFTER=
bash_is "no muster on PATH: nothing, quietly" "" "muster run volley.muster h"
PRELUDE="ln -sf $MUSTER ./muster; PATH=/nonexistent"
bash_is "./muster is the one asked" "hits" "./muster run volley.muster h"
rm -f ./muster
PRELUDE=
bash_is "an assignment before the command" "hits" "NO_COLOR=1 muster run volley.muster h"

# ---- 3. bash and zsh on a terminal ----

if ! command -v zsh >/dev/null 2>&1; then
    fail "zsh is installed" "no zsh to make a pseudo-terminal with: run scripts/setup.sh"
    finish
fi

# on_terminal SHELL SETUP LINE...: in SHELL, started interactive on a
# pseudo-terminal, run SETUP, which binds Ctrl-X to print the editor's line
# as <<LINE>> and empty it; then type each LINE with a TAB and a Ctrl-X.
# Prints what each line became, one a line.
cat > "$TEST_TMP/terminal.zsh" <<'EOF'
zmodload zsh/zpty || exit 1
shell=$1 setup=$2
shift 2
zpty term $shell
zpty -w term "$setup; echo RE''ADY"
zpty -r -m term junk '*READY*' || exit 1
for line in "$@"; do
    zpty -w -n term "$line"$'\t\x18'
    zpty -r -m term out '*<<*>>*' || exit 1
    out=${out##*<<}
    print -r -- "${out%%>>*}"
done
zpty -d term
EOF
on_terminal()
{
    PATH=$TEST_TMP/bin:$PATH TERM=dumb HOME=$TEST_TMP timeout 60 zsh -f "$TEST_TMP/terminal.zsh" "$@" 2>"$TEST_TMP/terminal.err"
}

# terminal_cases SHELL SETUP: the cases, typed in SHELL
terminal_cases()
{
    local shell=$1 setup=$2 got
    local -a typed=(
        "muster ru"
        "muster run volley.muster hits cov"
        "muster run volley.muster hits cover=l"
        "muster prob volley.muster hits cover=light,he"
        "muster sheet volley.muster --pap"
        "muster run my"
        'muster run my\ dir/f'
        'muster run "my dir/f'
        "muster prob volley.muster hits --vs=my"
        "muster run republic.muster --choose=Nat"
    )
    local -a want=(
        "muster run "
        "muster run volley.muster hits cover="
        "muster run volley.muster hits cover=light "
        "muster prob volley.muster hits cover=light,heavy "
        "muster sheet volley.muster --paper="
        'muster run my\ dir/'
        'muster run my\ dir/fire\ team.muster '
        'muster run "my dir/fire team.muster" '
        'muster prob volley.muster hits --vs=my\ dir/'
        "muster run republic.muster --choose=NaturalLoser="
    )
    got=$(on_terminal "$shell" "$setup" "${typed[@]}")
    local i line
    for i in "${!typed[@]}"; do
        line=$(sed -n "$((i + 1))p" <<<"$got")
        if [ "$line" = "${want[i]}" ]; then
            pass "${shell%% *} on a terminal: '${typed[i]}' TAB"
        else
            fail "${shell%% *} on a terminal: '${typed[i]}' TAB" "expected: '${want[i]}'" "got:      '$line'" \
                "$(show_file "$TEST_TMP/terminal.err")"
        fi
    done
}

terminal_cases "bash --norc --noprofile -i" \
    "PS1='> '; bind 'set bell-style none'; bind 'set enable-bracketed-paste off'; source $top_srcdir/completions/muster.bash; bind -x '\"\\C-x\": printf \"<<%s>>\\n\" \"\$READLINE_LINE\"; READLINE_LINE='"
terminal_cases "zsh -f -i" \
    "PS1='> '; unsetopt beep; fpath=($top_srcdir/completions \$fpath); autoload -U compinit; compinit -u -D; show() { print -r -- \"<<\$BUFFER>>\"; BUFFER=''; }; zle -N show; bindkey '^X' show"

finish
