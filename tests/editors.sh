#!/usr/bin/env bash
# editors.sh — the editor support in editors/ against the language.
#
# The words.  The keywords are read out of lang/lexer.re (the thirteen words
# of every place, the words of keyword(), which are keywords only where
# they stand, and the phrases "one of" and "start at"), the words the
# parser takes in one position out of lang/parser.y (want_word and
# strcmp), the built-in functions and types out of compiler/compiler.c.
# Each list must come out non-empty and hold words it is known to hold,
# and tests/editors/lexwords (the real lexer) must read no keyword in the
# files below that the lexer.re list lacks.  The Vim syntax file (as Vim
# lists its syntax items) and the VS Code grammar (its patterns) must name
# every one of these words and no other; the words docs/language.md gives
# in its Keywords and Contextual keywords sections must be among them.
#
# Both grammars are then run: Vim headless on the files, and the VS Code
# grammar through tests/editors/tmtok, a TextMate tokenizer with Oniguruma
# (the regular expressions VS Code uses; every pattern must compile).
#   - chosen tokens of rules/rebs.muster and tests/editors/words.muster get
#     the expected Vim group and TextMate scope;
#   - in every script of rules/, examples/, docs/, stdlib/, tests/editors/
#     and every muster block of the docs, each word the lexer reads as a
#     keyword (lexwords) is highlighted as one, and a keyword's word that
#     the lexer reads as a name there is not;
#   - in tests/editors/words*.muster, which use every word of the language
#     where it is one (and pass `muster check`), each word the parser takes
#     in one position is highlighted as a keyword, each built-in function
#     before '(' as one, each built-in type as a type.
# Vim also: *.muster is filetype muster, and `gg=G` leaves every script of
# rules/, rules/variants/, examples/, docs/ and stdlib/ as it is.  Then,
# with the indentation of those scripts taken away, `gg=G` puts it back
# but on the continuation lines that the house style lines up by hand (a
# `source "..."` line under a declaration's head, an outcome member's
# `(FIELDS)` under its words), which the indent script leaves as they are
# (see editors/vim/indent/muster.vim): only those may differ.
# The VS Code extension's JSON files must be valid, and package.json must
# name the grammar, its scope and the version configure.ac gives.
# The page's editor (web/page/muster-lang.js, CodeMirror) must list as its
# KEYWORDS, TYPES and BUILTINS exactly the lexer's keywords, the built-in
# types and the built-in functions.
source "$(dirname "$0")/lib.sh"

cd "$top_srcdir" || exit 1
builddir=${top_builddir:-$top_srcdir}
TMTOK=$builddir/tests/editors/tmtok
LEXWORDS=$builddir/tests/editors/lexwords
GRAMMAR=editors/vscode/syntaxes/muster.tmLanguage.json
VIM_TIMEOUT=300

for tool in "$TMTOK" "$LEXWORDS"; do
    if [ ! -x "$tool" ]; then
        echo "$tool is not built: run this test with make check" >&2
        exit 1
    fi
done
for cmd in vim jq; do
    if ! command -v "$cmd" >/dev/null 2>&1; then
        echo "$cmd is missing: scripts/setup.sh installs it" >&2
        exit 1
    fi
done
if ! vim --version | grep -q '+syntax'; then
    echo "this vim has no syntax highlighting (vim-tiny?): scripts/setup.sh installs the vim package" >&2
    exit 1
fi

words_line() { tr '\n' ' ' | sed 's/ *$//'; }

# ---- the words of the language ----

lexer=lang/lexer.re
parser=lang/parser.y
compiler=compiler/compiler.c
# "proc"   { TOKEN_SPAN(loc, ps); return PROC; }
always=$(sed -n 's/^ *"\([a-z][a-z]*\)" *{ *TOKEN_SPAN(loc, ps); return [A-Z_]*; }.*/\1/p' "$lexer" | sort -u)
# { "ruleset", RULESET, 0, 0 }, inside keyword()
context=$(sed -n '/^static int keyword(/,/^}/p' "$lexer" | grep -o '{ *"[a-z][a-z]*", *[A-Z_][A-Z_]*,' |
          sed 's/{ *"\([a-z]*\)".*/\1/' | sort -u)
# ("one" | "start") [ \t\r\n]+ ("of" | "at"): the first words with the second, in order
phrase_rule=$(grep -E '^ *\("[a-z]+"( \| "[a-z]+")*\) \[[^]]*\]\+ \("[a-z]+"( \| "[a-z]+")*\)' "$lexer")
read -r -a firsts <<<"$(printf '%s\n' "$phrase_rule" | sed 's/).*//' | grep -o '"[a-z]*"' | tr -d '"' | words_line)"
read -r -a seconds <<<"$(printf '%s\n' "$phrase_rule" | sed 's/^[^)]*)//; s/{.*//' | grep -o '"[a-z]*"' | tr -d '"' | words_line)"
phrases=""
if [ "${#firsts[@]}" -eq "${#seconds[@]}" ]; then
    for i in "${!firsts[@]}"; do
        phrases+="${firsts[$i]} ${seconds[$i]}"$'\n'
    done
fi
# want_word(ps, $9, @9, "chance", ...) and !strcmp($9, "mean")
positional=$( { grep -o 'want_word(ps, \$[0-9]*, @[0-9]*, "[a-z][a-z]*"' "$parser";
                grep -o 'strcmp(\$[0-9]*, "[a-z][a-z]*")' "$parser"; } | sed 's/.*"\([a-z]*\)".*/\1/' | sort -u)
# { "floor",   1, 1, ... } in the builtins table; { "int", TY_INT } in comp_resolve_type
builtins=$(sed -n '/^static const Builtin builtins\[\] = {/,/^};/p' "$compiler" | grep -o '^ *{ *"[a-z][a-z]*",' |
           tr -cd 'a-z\n' | sort -u)
types=$(sed -n '/^bool comp_resolve_type(/,/^}/p' "$compiler" | grep -o '{ *"[a-z][a-z]*", *TY_[A-Z]* *}' |
        sed 's/{ *"\([a-z]*\)".*/\1/' | sort -u)

# has LIST WORD...: whether every WORD is a line of LIST
has() {
    local list=$1 w
    shift
    for w in "$@"; do
        grep -qx -- "$w" <<<"$list" || return 1
    done
}
count() { grep -c . <<<"$1"; }

extraction_ok=1
check_list() {
    local what=$1 list=$2 min=$3
    shift 3
    if [ "$(count "$list")" -ge "$min" ] && has "$list" "$@"; then
        pass "words: $(count "$list") $what: $(words_line <<<"$list")"
    else
        extraction_ok=0
        fail "words: $what" "expected at least $min, among them: $*" "read: $(words_line <<<"$list")" \
             "has the source changed its form? the extraction in tests/editors.sh must follow it"
    fi
}
check_list "keywords of every place (lang/lexer.re)" "$always" 10 proc enum let return if else roll reroll true false and or not
check_list "keywords where they stand (keyword() in lang/lexer.re)" "$context" 15 ruleset table bands modifiers outcome each cap expect section odds add remove
check_list "phrases (lang/lexer.re)" "$phrases" 2 "one of" "start at"
check_list "words of one position (lang/parser.y)" "$positional" 10 source in default columns column step phase within dice choose of chance mean before after
check_list "built-in functions (compiler/compiler.c)" "$builtins" 10 floor ceil round abs min max sum count highest lowest
check_list "built-in types (compiler/compiler.c)" "$types" 4 int rat bool str pool
if [ $extraction_ok = 0 ]; then
    finish
fi

lexer_words=$(printf '%s\n%s\n' "$always" "$context" | sort -u)
phrase_words=$(tr ' ' '\n' <<<"$phrases" | grep . | sort -u)
phrase_firsts=$(printf '%s\n' "${firsts[@]}")
known=$(printf '%s\n%s\n%s\n%s\n%s\n%s\n' "$always" "$context" "$phrase_words" "$positional" "$builtins" "$types" | grep . | sort -u)

# ---- the files both grammars run on ----

mkdir -p "$TEST_TMP/blocks"
# every ```muster block of the docs, as a script of its own
for doc in README.md docs/*.md; do
    awk -v dir="$TEST_TMP/blocks" -v name="$(basename "$doc" .md)" '
        /^```/ && !on && $0 ~ /^```muster/ { on = 1; n++; file = sprintf("%s/%s-%03d.muster", dir, name, n); printf "" > file; next }
        /^```/ && on { on = 0; close(file); next }
        on { print > file }' "$doc"
done
files=()
for f in rules/*.muster rules/variants/*.muster examples/*.muster docs/*.muster stdlib/*.muster \
         tests/editors/*.muster "$TEST_TMP"/blocks/*.muster; do
    [ -f "$f" ] && files+=("$f")
done
if [ "${#files[@]}" -lt 20 ]; then
    fail "files" "only ${#files[@]} scripts and doc blocks found"
    finish
fi
probes=(tests/editors/words.muster tests/editors/words-variant.muster)
for f in "${probes[@]}"; do
    run_muster check "$f"
    if [ "$RUN_STATUS" -eq 0 ]; then
        pass "$f is a valid script (muster check)"
    else
        fail "$f is a valid script (muster check)" "$(show_file "$RUN_ERR")"
    fi
done

# where the lexer reads a keyword: FILE LINE COL WORD
"$LEXWORDS" "${files[@]}" >"$TEST_TMP/lexwords" 2>"$TEST_TMP/lexwords.err" ||
    fail "lexwords" "$(show_file "$TEST_TMP/lexwords.err")"
lexed=$(cut -f 4 "$TEST_TMP/lexwords" | sort -u)
# (a word of one position the lexer reads as a token there, `of` in `pool of Face`, is one of those)
unknown=$(comm -23 <(grep . <<<"$lexed") <(printf '%s\n%s\n%s\n' "$lexer_words" "$phrases" "$positional" | grep . | sort -u))
if [ "$(count "$lexed")" -ge 20 ] && [ -z "$unknown" ]; then
    pass "words: the lexer reads $(count "$lexed") keywords in ${#files[@]} scripts, all in lexer.re's lists"
else
    fail "words: the keywords the lexer reads are in lexer.re's lists" "read, not in the lists: $(words_line <<<"$unknown")" \
         "keywords read: $(count "$lexed")"
fi

# code_words FILE WORDS: FILE LINE COL WORD for each word of WORDS in FILE's
# code (strings and comments skipped), with "(" after it when a '(' follows
code_words() {
    awk -v file="$1" -v list="$2" '
        BEGIN { n = split(list, w, " "); for (i = 1; i <= n; i++) want[w[i]] = 1 }
        {
            line = $0; code = ""; instr = 0
            for (i = 1; i <= length(line); i++) {
                c = substr(line, i, 1)
                if (instr) { if (c == "\\") { code = code "  "; i++; continue } if (c == "\"") instr = 0; code = code " "; continue }
                if (c == "\"") { instr = 1; code = code " "; continue }
                if (c == "#") break
                code = code c
            }
            at = 0
            while (match(substr(code, at + 1), /[A-Za-z_][A-Za-z0-9_]*/)) {
                start = at + RSTART; word = substr(code, start, RLENGTH); at = start + RLENGTH - 1
                if (word in want) {
                    rest = substr(code, at + 1); call = rest ~ /^[ \t]*\(/ ? "(" : ""
                    printf "%s\t%d\t%d\t%s%s\n", file, NR, start, word, call
                }
            }
        }' "$1"
}

# ---- the words each grammar names ----

# The Vim scripts find the source tree and the scratch folder in
# $EDITORS_TOP and $EDITORS_TMP; each starts by sourcing common.vim.
vim_run() {
    EDITORS_TOP=$top_srcdir EDITORS_TMP=$TEST_TMP \
        timeout -k 5 "$VIM_TIMEOUT" vim -N -u NONE -i NONE -es -S "$1" </dev/null >"$TEST_TMP/vim.out" 2>&1
}

cat >"$TEST_TMP/common.vim" <<'EOF'
set encoding=utf-8 noswapfile nobackup nowritebackup
let &runtimepath = $EDITORS_TOP . '/editors/vim,' . &runtimepath
filetype plugin indent on
syntax on
EOF

cat >"$TEST_TMP/list.vim" <<'EOF'
execute 'source ' . fnameescape($EDITORS_TMP . '/common.vim')
execute 'edit ' . fnameescape($EDITORS_TOP . '/tests/editors/words.muster')
redir => s:list
silent syntax list
redir END
call writefile(split(s:list, "\n"), $EDITORS_TMP . '/syntax-list')
qall!
EOF
vim_run "$TEST_TMP/list.vim"
if [ ! -s "$TEST_TMP/syntax-list" ] || ! grep -q '^muster' "$TEST_TMP/syntax-list"; then
    fail "vim: lists the syntax items of a .muster file" "$(show_file "$TEST_TMP/vim.out")"
    finish
fi

# pattern_words: the lowercase words (2 letters or more) of regular
# expressions and keyword lists, their escapes and bracket expressions
# taken out
pattern_words() {
    sed -e 's/\\z[se]/ /g; s/\\%[[(]/ /g; s/\\@<\{0,1\}[=!]/ /g; s/\\./ /g' \
        -e 's/\[\(\[:[a-z]*:\]\|[^]]\)*\]/ /g' | grep -o '[a-z][a-z_]*' | grep '..' | sort -u
}
# Vim's listing: drop the group names, "links to", the options and flags,
# and the words that start a pattern (match /.../, start=, skip=, end=)
vim_words=$(grep -E '^(muster[A-Za-z]* +xxx| )' "$TEST_TMP/syntax-list" | grep -v '^ *links to ' |
    sed -E 's/^[A-Za-z]+ +xxx//; s/\<(nextgroup|contains|containedin|matchgroup|cluster|add|remove)=[^ ]*//g;
            s/\<(contained|skipwhite|skipnl|skipempty|transparent|oneline|keepend|extend|excludenl|display|fold|concealends|conceal)\>//g;
            s/\<match +//g; s/\<(start|skip|end)=//g' | pattern_words)
tm_words=$(jq -r '.. | objects | (.match, .begin, .end) | strings' "$GRAMMAR" | pattern_words)

check_words() {
    local who=$1 list=$2 missing extra
    missing=$(comm -23 <(grep . <<<"$known") <(grep . <<<"$list"))
    extra=$(comm -13 <(grep . <<<"$known") <(grep . <<<"$list"))
    if [ -z "$missing" ]; then
        pass "$who names every word of the language ($(count "$known"))"
    else
        fail "$who names every word of the language" "missing: $(words_line <<<"$missing")"
    fi
    if [ -z "$extra" ] && [ "$(count "$list")" -ge 20 ]; then
        pass "$who names no other word"
    else
        fail "$who names no other word" "not words of the lexer, the parser or the built-ins: $(words_line <<<"$extra")"
    fi
}
check_words "vim: editors/vim/syntax/muster.vim" "$vim_words"
check_words "vscode: $GRAMMAR" "$tm_words"

# the page's editor: its lists, word for word
CM_LANG=web/page/muster-lang.js
cm_list() {
    awk -v name="$1" '$0 ~ "^export const " name " = \\[" { on = 1 } on { print } on && /\];/ { exit }' "$CM_LANG" |
        sed 's|//.*||' | grep -o "'[a-z_]*'" | tr -d "'" | sort -u
}
for pair in "KEYWORDS:$lexer_words" "TYPES:$types" "BUILTINS:$builtins"; do
    name=${pair%%:*}
    want=$(grep . <<<"${pair#*:}" | sort -u)
    got=$(cm_list "$name")
    if [ -n "$got" ] && [ "$got" = "$want" ]; then
        pass "page: $CM_LANG $name are the language's ($(count "$got"))"
    else
        fail "page: $CM_LANG $name are the language's" \
             "missing: $(comm -23 <(echo "$want") <(echo "$got") | words_line)" \
             "not the language's: $(comm -13 <(echo "$want") <(echo "$got") | words_line)"
    fi
done

# the words docs/language.md gives in its sections on keywords
doc_words=$(awk '/^```/ { fence = !fence; next } fence { next }
                 /^#+ / { on = ($0 == "### Keywords" || $0 == "### Contextual keywords"); next }
                 on' docs/language.md | grep -o '`[a-z][a-z]*\( [a-z][a-z]*\)\{0,1\}`' | tr -d '`' | sort -u)
if [ "$(count "$doc_words")" -lt 20 ]; then
    fail "docs: the words of language.md's Keywords sections" "found only: $(words_line <<<"$doc_words")"
else
    bad=()
    while read -r w; do
        for part in $w; do
            has "$known" "$part" || bad+=("'$w' is not a word the lexer, the parser or the compiler knows")
            has "$vim_words" "$part" || bad+=("'$w' is not in the Vim syntax file")
            has "$tm_words" "$part" || bad+=("'$w' is not in the VS Code grammar")
        done
        if [[ $w == *" "* ]] && ! has "$phrases" "$w"; then
            bad+=("'$w' is not a phrase of the lexer")
        fi
    done <<<"$doc_words"
    if [ "${#bad[@]}" -eq 0 ]; then
        pass "docs: the $(count "$doc_words") words of language.md's Keywords sections are known to both grammars"
    else
        fail "docs: the words of language.md's Keywords sections" "${bad[@]}"
    fi
fi

# ---- the queries: FILE LINE COL WORD, answered with a Vim group and a scope ----

# chosen tokens: FILE, a text that picks the first line holding it, the
# token (searched from where the text starts), the Vim group, the scope
chosen=$(cat <<'EOF'
rules/rebs.muster	# rebs.muster	#	musterComment	comment.line.number-sign.muster
rules/rebs.muster	## The range bands	##	musterDocComment	comment.line.double-number-sign.documentation.muster
rules/rebs.muster	ruleset "REBS	ruleset	musterDeclaration	storage.type.muster
rules/rebs.muster	  units inches	units	musterSetting	variable.other.property.muster
rules/rebs.muster	enum Band source	enum	musterDeclaration	storage.type.muster
rules/rebs.muster	enum Band source	Band	musterTypeName	entity.name.type.muster
rules/rebs.muster	enum Band source	source	musterWord	keyword.other.muster
rules/rebs.muster	enum Band source	"Fire	musterString	string.quoted.double.muster
rules/rebs.muster	artillery_shift "Unlimbered	\"	musterEscape	constant.character.escape.muster
rules/rebs.muster	section "Global Conventions"	section	musterDeclaration	storage.type.muster
rules/rebs.muster	proc initiative(	proc	musterDeclaration	storage.type.muster
rules/rebs.muster	proc initiative(	initiative	musterFuncName	entity.name.function.muster
rules/rebs.muster	proc initiative(	->	musterOperator	keyword.operator.muster
rules/rebs.muster	proc initiative(	Initiative	musterReturnType	entity.name.type.muster
rules/rebs.muster	proc initiative(	false	musterBoolean	constant.language.boolean.muster
rules/rebs.muster	let first = roll d6	let	musterStatement	keyword.other.let.muster
rules/rebs.muster	let first = roll d6	roll	musterRoll	keyword.other.roll.muster
rules/rebs.muster	let first = roll d6	d6	musterDice	constant.numeric.dice.muster
rules/rebs.muster	let dice = roll fv d6	d6	musterDice	constant.numeric.dice.muster
rules/rebs.muster	if first == second { reroll }	if	musterConditional	keyword.control.conditional.muster
rules/rebs.muster	if first == second { reroll }	==	musterOperator	keyword.operator.muster
rules/rebs.muster	if first == second { reroll }	reroll	musterStatement	keyword.control.muster
rules/rebs.muster	if not target_in_arc_and_los	not	musterLogical	keyword.operator.logical.muster
rules/rebs.muster	return max(1, floor(x))	return	musterStatement	keyword.control.muster
rules/rebs.muster	return max(1, floor(x))	max	musterBuiltin	support.function.builtin.muster
rules/rebs.muster	return max(1, floor(x))	floor	musterBuiltin	support.function.builtin.muster
rules/rebs.muster	return max(1, floor(x))	1	musterNumber	constant.numeric.integer.muster
rules/rebs.muster	sequence turn source	sequence	musterDeclaration	storage.type.muster
rules/rebs.muster	phase "Side A"	phase	musterWord	keyword.other.muster
rules/rebs.muster	step initiative "each side	step	musterWord	keyword.other.muster
rules/rebs.muster	table legal_formation(	table	musterDeclaration	storage.type.muster
rules/rebs.muster	table legal_formation(	legal_formation	musterFuncName	entity.name.function.muster
rules/rebs.muster	table legal_formation(	bool	musterType	support.type.muster
rules/rebs.muster	columns             line	columns	musterWord	keyword.other.muster
rules/rebs.muster	cavalry_mounted:    false	false	musterBoolean	constant.language.boolean.muster
rules/rebs.muster	column: 1/4	1/4	musterFraction	constant.numeric.fraction.muster
rules/rebs.muster	unlimbered: ?	?	musterUnknown	constant.language.unknown.muster
rules/rebs.muster	skirmish: -	-	musterOperator	keyword.operator.muster
rules/rebs.muster	modifiers fire_mods(	modifiers	musterDeclaration	storage.type.muster
rules/rebs.muster	modifiers fire_mods(	int	musterType	support.type.muster
rules/rebs.muster	start at card	start	musterBlockWord	keyword.other.muster
rules/rebs.muster	one of {	one	musterBlockWord	keyword.other.muster
rules/rebs.muster	enfilade : +1 "Enfilade"	1	musterNumber	constant.numeric.integer.muster
rules/rebs.muster	enfilade : +1 "Enfilade"	"Enfilade"	musterString	string.quoted.double.muster
rules/rebs.muster	record Volley source	record	musterDeclaration	storage.type.muster
rules/rebs.muster	record Volley source	Volley	musterTypeName	entity.name.type.muster
rules/rebs.muster	choice FireCritical "	choice	musterDeclaration	storage.type.muster
rules/rebs.muster	} default extra_hit	default	musterWord	keyword.other.muster
rules/rebs.muster	outcome Initiative source	outcome	musterDeclaration	storage.type.muster
rules/rebs.muster	odds volley_hits(card: int in 1..8	in	musterWord	keyword.other.muster
rules/rebs.muster	odds volley_hits(card: int in 1..8	..	musterOperator	keyword.operator.muster
rules/rebs.muster	odds volley_hits(card: int in 1..8	8	musterNumber	constant.numeric.integer.muster
rules/rebs.muster	odds volley_hits(card: int in 1..8	volley_hits	musterFuncName	entity.name.function.muster
rules/rebs.muster	  chance fire_loss_steps	chance	musterWord	keyword.other.muster
rules/rebs.muster	  mean fire_hits	mean	musterWord	keyword.other.muster
rules/rebs.muster	example "Column fire is quartered	example	musterDeclaration	storage.type.muster
rules/rebs.muster	expect fire_value(card: 6, formation: column) == 1	expect	musterBlockWord	keyword.other.muster
rules/rebs.muster	return enemy_distance <= 1 or at_obstacle	or	musterLogical	keyword.operator.logical.muster
tests/editors/words.muster	ruleset "Editor words"	"Editor words"	musterString	string.quoted.double.muster
tests/editors/words.muster	  note "Not a real ruleset"	note	musterSetting	variable.other.property.muster
tests/editors/words.muster	import "dice"	import	musterDeclaration	storage.type.muster
tests/editors/words.muster	ladder Morale	Morale	musterTypeName	entity.name.type.muster
tests/editors/words.muster	bands result(	result	musterFuncName	entity.name.function.muster
tests/editors/words.muster	  column true	column	musterWord	keyword.other.muster
tests/editors/words.muster	  7..  => struck	=>	musterOperator	keyword.operator.muster
tests/editors/words.muster	  ..6  => miss "a miss"	"a miss"	musterString	string.quoted.double.muster
tests/editors/words.muster	  each extra : +1	each	musterBlockWord	keyword.other.muster
tests/editors/words.muster	  cap -2..6	cap	musterBlockWord	keyword.other.muster
tests/editors/words.muster	  note "?" "Lost line"	note	musterBlockWord	keyword.other.muster
tests/editors/words.muster	  note "?" "Lost line"	"?"	musterString	string.quoted.double.muster
tests/editors/words.muster	  let rolled: pool = roll n d6	pool	musterType	support.type.muster
tests/editors/words.muster	roll d(sides)	d	musterDice	constant.numeric.dice.muster
tests/editors/words.muster	sum(roll 2d6)	2d6	musterDice	constant.numeric.dice.muster
tests/editors/words.muster	let q: rat = 0.5	0.5	musterDecimal	constant.numeric.decimal.muster
tests/editors/words.muster	let q: rat = 0.5	1/3	musterFraction	constant.numeric.fraction.muster
tests/editors/words.muster	} else if choose(Critical)	else	musterConditional	keyword.control.conditional.muster
tests/editors/words.muster	} else if choose(Critical)	choose	musterBuiltin	support.function.builtin.muster
tests/editors/words.muster	  heavy: ? -	?	musterUnknown	constant.language.unknown.muster
tests/editors/words.muster	  dice 6	dice	musterWord	keyword.other.muster
tests/editors/words.muster	  choose Critical = none_more	choose	musterWord	keyword.other.muster
tests/editors/words.muster	~ 0.3 within 1	~	musterOperator	keyword.operator.muster
tests/editors/words.muster	~ 0.3 within 1	within	musterWord	keyword.other.muster
tests/editors/words-variant.muster	variant "Editor words	variant	musterDeclaration	storage.type.muster
tests/editors/words-variant.muster	variant "Editor words	of	musterHeaderOf	keyword.other.muster
tests/editors/words-variant.muster	change table to_hit	change	musterDeclaration	storage.modifier.muster
tests/editors/words-variant.muster	change table to_hit	table	musterChangedKind	storage.type.muster
tests/editors/words-variant.muster	change table to_hit	to_hit	musterFuncName	entity.name.function.muster
tests/editors/words-variant.muster	  add rough: 6 6	add	musterBlockWord	keyword.other.muster
tests/editors/words-variant.muster	  remove "Each extra"	remove	musterBlockWord	keyword.other.muster
tests/editors/words-variant.muster	  add before "Shaken"	before	musterWord	keyword.other.muster
tests/editors/words-variant.muster	  add after "Shaken"	after	musterWord	keyword.other.muster
tests/editors/words-variant.muster	change enum Cover	enum	musterDeclaration	storage.type.muster
tests/editors/words-variant.muster	change proc fire(n = 3, ...)	...	musterOperator	keyword.operator.muster
EOF
)

queries=$TEST_TMP/queries
: >"$queries"
: >"$TEST_TMP/chosen"
bad_chosen=()
while IFS=$'\t' read -r file text token group scope; do
    [ -n "$file" ] || continue
    # the line and byte column of the token: LC_ALL=C makes awk count bytes
    # (the token as a whole word, if it starts or ends with a letter)
    where=$(TEXT=$text TOKEN=$token awk '
        function word(c) { return c ~ /[A-Za-z0-9_]/ }
        {
            text = ENVIRON["TEXT"]; token = ENVIRON["TOKEN"]
            at = index($0, text)
            if (!at) next
            for (from = at; (col = index(substr($0, from), token)); from += col) {
                start = from + col - 1; end = start + length(token)
                if (!(word(substr(token, 1, 1)) && start > 1 && word(substr($0, start - 1, 1))) &&
                    !(word(substr(token, length(token), 1)) && word(substr($0, end, 1)))) {
                    print NR "\t" start
                    exit
                }
            }
            exit
        }' "$file")
    if [ -z "$where" ]; then
        bad_chosen+=("$file: no line holds '$text' with '$token' in it")
        continue
    fi
    printf '%s\t%s\t%s\tchosen\n' "$file" "$where" "$token" >>"$queries"
    printf '%s\t%s\t%s\t%s\t%s\n' "$file" "$where" "$token" "$group" "$scope" >>"$TEST_TMP/chosen"
done <<<"$chosen"
if [ "${#bad_chosen[@]}" -gt 0 ]; then
    fail "chosen tokens: found in their files" "${bad_chosen[@]}"
fi

# the lexer's keywords, and the words of keywords everywhere in the code
awk -F'\t' '{ print $1 "\t" $2 "\t" $3 "\t" $4 "\tlexed" }' "$TEST_TMP/lexwords" >>"$queries"
for f in "${files[@]}"; do
    code_words "$f" "$(printf '%s\n%s\n' "$lexer_words" "$phrase_firsts" | words_line)" | sed 's/$/\tword/'
done >>"$queries"
# the words of one position, the built-ins and the types, in the probes
for f in "${probes[@]}"; do
    code_words "$f" "$(printf '%s\n%s\n%s\n' "$positional" "$builtins" "$types" | words_line)" | sed 's/$/\tprobe/'
done >>"$queries"

sort -s -t "$(printf '\t')" -k 1,1 "$queries" >"$queries.sorted" && mv "$queries.sorted" "$queries"

# Vim's answers: the query and the syntax group at its first byte
cat >"$TEST_TMP/query.vim" <<'EOF'
execute 'source ' . fnameescape($EDITORS_TMP . '/common.vim')
let s:out = []
let s:cur = ''
for s:q in readfile($EDITORS_TMP . '/queries')
  let s:f = split(s:q, "\t", 1)
  if s:f[0] !=# s:cur
    execute 'edit! ' . fnameescape(s:f[0])
    let s:cur = s:f[0]
    call add(s:out, "#file\t" . s:f[0] . "\t" . &filetype . "\t" . &commentstring . "\t" . get(b:, 'current_syntax', ''))
  endif
  call add(s:out, s:q . "\t" . synIDattr(synID(str2nr(s:f[1]), str2nr(s:f[2]), 1), 'name'))
endfor
call writefile(s:out, $EDITORS_TMP . '/vim-answers')
qall!
EOF
vim_run "$TEST_TMP/query.vim"
if [ ! -s "$TEST_TMP/vim-answers" ]; then
    fail "vim: highlights the files" "$(show_file "$TEST_TMP/vim.out")"
    finish
fi

# ftdetect and the filetype plugin, on every file Vim opened
bad_ft=$(awk -F'\t' '$1 == "#file" && ($3 != "muster" || $4 != "# %s" || $5 != "muster") { print $2 ": filetype " $3 ", commentstring " $4 ", syntax " $5 }' \
         "$TEST_TMP/vim-answers")
if [ -z "$bad_ft" ] && grep -q '^#file' "$TEST_TMP/vim-answers"; then
    pass "vim: *.muster is filetype muster, with its syntax and commentstring '# %s' ($(grep -c '^#file' "$TEST_TMP/vim-answers") files)"
else
    fail "vim: *.muster is filetype muster" "$bad_ft"
fi

# The VS Code grammar's answers: tmtok on each file, the innermost scope at
# the query's byte.  tmtok fails on a pattern that does not compile.
: >"$TEST_TMP/tm-answers"
tm_ok=1
for f in $(cut -f 1 "$queries" | sort -u); do
    if ! "$TMTOK" "$GRAMMAR" "$f" >"$TEST_TMP/tokens" 2>"$TEST_TMP/tmtok.err"; then
        tm_ok=0
        fail "vscode: tmtok tokenizes $f" "$(show_file "$TEST_TMP/tmtok.err")"
        continue
    fi
    awk -F'\t' -v file="$f" '
        FNR == NR { n[$1]++; c[$1, n[$1]] = $2; l[$1, n[$1]] = $3; s[$1, n[$1]] = $4; next }
        $1 == file {
            scope = ""
            for (i = 1; i <= n[$2]; i++)
                if (c[$2, i] <= $3 && $3 < c[$2, i] + l[$2, i]) { scope = s[$2, i]; break }
            k = split(scope, parts, " ")
            print $0 "\t" (k ? parts[k] : "")
        }' "$TEST_TMP/tokens" "$queries" >>"$TEST_TMP/tm-answers"
done
if [ $tm_ok = 1 ]; then
    pass "vscode: every pattern of the grammar compiles in Oniguruma, and tmtok tokenizes the $(cut -f 1 "$queries" | sort -u | grep -c .) files"
fi

# judge GRAMMAR ANSWERS KEYWORD-CLASS BUILTIN-CLASS TYPE-CLASS
judge() {
    local who=$1 answers=$2 kw=$3 fn=$4 ty=$5 out
    # chosen tokens: exactly the group or scope expected
    local col=5
    [ "$who" = vscode ] && col=6
    out=$(awk -F'\t' -v col="$col" '
        FNR == NR { want[$1, $2, $3] = $(col); next }
        $5 == "chosen" && (($1, $2, $3) in want) {
            if ($6 == want[$1, $2, $3]) ok++
            else { bad++; print "BAD " $1 ":" $2 ":" $3 ": \x27" $4 "\x27 is " ($6 == "" ? "not highlighted" : $6) ", not " want[$1, $2, $3] }
        }
        END { print "OK " ok + 0 }' "$TEST_TMP/chosen" "$answers")
    if ! grep -q '^BAD' <<<"$out"; then
        pass "$who: $(sed -n 's/^OK //p' <<<"$out") chosen tokens of rules/rebs.muster and tests/editors/words*.muster"
    else
        fail "$who: chosen tokens" "$(grep '^BAD' <<<"$out" | sed 's/^BAD //')"
    fi
    # the lexer's keywords, per file: highlighted as keywords, and no other
    # word of a keyword highlighted as one
    # (the doc blocks are reported by document, a block by its number)
    out=$(awk -F'\t' -v kw="$kw" -v blocks="$TEST_TMP/blocks/" '
        function doc(f,   d) {
            d = substr(f, length(blocks) + 1); sub(/-[0-9]+\.muster$/, "", d)
            return d == "README" ? "README.md" : "docs/" d ".md"
        }
        function label(f) { return index(f, blocks) == 1 ? "the muster blocks of " doc(f) : f }
        function place(f,   b) {
            if (index(f, blocks) != 1) return f
            b = f; sub(/\.muster$/, "", b); sub(/^.*-/, "", b)
            return doc(f) " block " b + 0
        }
        $1 == "#file" { next }
        $5 == "lexed" { lexed[$1, $2, $3] = 1; files[label($1)] = 1; n[label($1)]++
                        if ($6 !~ kw) print "BAD\t" label($1) "\t" place($1) ":" $2 ":" $3 ": the keyword \x27" $4 "\x27 is " ($6 == "" ? "not highlighted" : $6) }
        $5 == "word" { files[label($1)] = 1; if ($6 ~ kw) shown[$1, $2, $3] = $4 }
        END {
            for (k in shown) if (!(k in lexed)) { split(k, p, SUBSEP); print "BAD\t" label(p[1]) "\t" place(p[1]) ":" p[2] ":" p[3] ": \x27" shown[k] "\x27 is highlighted as a keyword where the lexer reads a name" }
            for (f in files) print "FILE\t" f "\t" n[f] + 0
        }' "$answers" | sort)
    local f k bad
    while IFS=$'\t' read -r _ f k; do
        bad=$(awk -F'\t' -v f="$f" '$1 == "BAD" && $2 == f { print $3 }' <<<"$out" | head -n 12)
        if [ -z "$bad" ]; then
            pass "$who: $f: its $k keywords highlighted as the lexer reads them"
        else
            fail "$who: $f: keywords highlighted as the lexer reads them" "$bad"
        fi
    done < <(grep '^FILE' <<<"$out")
    # the probes: the words of one position, built-ins and types
    out=$(awk -F'\t' -v kw="$kw" -v fn="$fn" -v ty="$ty" -v builtins=" $(words_line <<<"$builtins") " \
                  -v types=" $(words_line <<<"$types") " '
        $5 != "probe" { next }
        {
            word = $4; call = sub(/\($/, "", word); seen[word] = 1
            if (index(types, " " word " ")) { want = ty; what = "a type" }
            else if (call && index(builtins, " " word " ")) { want = fn; what = "a built-in function" }
            else { want = kw; what = "a keyword" }
            if ($6 !~ want) print "BAD " $1 ":" $2 ":" $3 ": \x27" word "\x27 is " ($6 == "" ? "not highlighted" : $6) ", not " what
            else ok++
        }
        END { for (w in seen) print "SEEN " w; print "OK " ok + 0 }' "$answers")
    local unseen
    unseen=$(comm -23 <(printf '%s\n%s\n%s\n' "$positional" "$builtins" "$types" | sort -u) <(sed -n 's/^SEEN //p' <<<"$out" | sort -u))
    if [ -n "$unseen" ]; then
        fail "$who: the probes use every word of one position, built-in and type" "not in tests/editors/words*.muster: $(words_line <<<"$unseen")"
    elif grep -q '^BAD' <<<"$out"; then
        fail "$who: the words of one position, built-ins and types in the probes" "$(grep '^BAD' <<<"$out" | sed 's/^BAD //' | head -n 20)"
    else
        pass "$who: the $(sed -n 's/^OK //p' <<<"$out") words of one position, built-ins and types in the probes"
    fi
}
judge vim "$TEST_TMP/vim-answers" \
    '^muster(Conditional|Statement|Roll|Logical|Boolean|Declaration|ChangedKind|BlockWord|Word|HeaderOf)$' \
    '^musterBuiltin$' '^musterType$'
judge vscode "$TEST_TMP/tm-answers" '^(keyword|storage)\.|^constant\.language\.boolean\.' '^support\.function\.' '^support\.type\.'

# ---- Vim's indentation ----

indent_files=()
for f in rules/*.muster rules/variants/*.muster examples/*.muster docs/*.muster stdlib/*.muster; do
    [ -f "$f" ] && indent_files+=("$f")
done
printf '%s\n' "${indent_files[@]}" >"$TEST_TMP/indent-files"
cat >"$TEST_TMP/indent.vim" <<'EOF'
execute 'source ' . fnameescape($EDITORS_TMP . '/common.vim')
let s:out = []
for s:f in readfile($EDITORS_TMP . '/indent-files')
  execute 'edit! ' . fnameescape(s:f)
  let s:before = getline(1, '$')
  silent normal! gg=G
  let s:n = 0
  for s:i in range(len(s:before))
    if getline(s:i + 1) !=# s:before[s:i]
      let s:n += 1
      call add(s:out, "same\t" . s:f . "\t" . (s:i + 1) . "\t" . getline(s:i + 1))
    endif
  endfor
  call add(s:out, "file\t" . s:f . "\t" . &shiftwidth . "\t" . &indentexpr)
  silent %s/^\s\+//e
  silent normal! gg=G
  for s:i in range(len(s:before))
    if getline(s:i + 1) !=# s:before[s:i]
      call add(s:out, "flat\t" . s:f . "\t" . (s:i + 1) . "\t" . getline(s:i + 1))
    endif
  endfor
endfor
call writefile(s:out, $EDITORS_TMP . '/indent-out')
qall!
EOF
vim_run "$TEST_TMP/indent.vim"
if [ ! -s "$TEST_TMP/indent-out" ]; then
    fail "vim: indents" "$(show_file "$TEST_TMP/vim.out")"
else
    for f in "${indent_files[@]}"; do
        setup=$(awk -F'\t' -v f="$f" '$1 == "file" && $2 == f { print $3 " " $4 }' "$TEST_TMP/indent-out")
        changed=$(awk -F'\t' -v f="$f" '$1 == "same" && $2 == f { print $2 ":" $3 ": " $4 }' "$TEST_TMP/indent-out")
        if [ "$setup" != "2 MusterIndent()" ]; then
            fail "vim: $f: gg=G leaves it as it is" "shiftwidth and indentexpr: $setup"
        elif [ -z "$changed" ]; then
            pass "vim: $f: gg=G leaves it as it is"
        else
            fail "vim: $f: gg=G leaves it as it is" "$(head -n 12 <<<"$changed")"
        fi
        # from no indentation at all: all back but the lines aligned by hand
        flat=$(awk -F'\t' -v f="$f" '$1 == "flat" && $2 == f { print $2 ":" $3 ": " $4 }' "$TEST_TMP/indent-out")
        by_hand=$(grep -c -E '^[^:]*:[0-9]*: +(source "|\()' <<<"$flat")
        other=$(grep -v -E '^[^:]*:[0-9]*: +(source "|\()' <<<"$flat" | grep .)
        if [ -z "$other" ]; then
            pass "vim: $f: gg=G indents it from nothing (all but $by_hand lines lined up by hand)"
        else
            fail "vim: $f: gg=G indents it from nothing" "$(head -n 12 <<<"$other")"
        fi
    done
fi

# ---- the VS Code extension's files ----

json_ok=1
for j in editors/vscode/package.json editors/vscode/language-configuration.json "$GRAMMAR"; do
    if ! jq -e . "$j" >/dev/null 2>"$TEST_TMP/jq.err"; then
        json_ok=0
        fail "vscode: $j is valid JSON" "$(show_file "$TEST_TMP/jq.err")"
    fi
done
if [ $json_ok = 1 ]; then
    pass "vscode: package.json, language-configuration.json and the grammar are valid JSON"
    problems=()
    pkg=editors/vscode/package.json
    path=$(jq -r '.contributes.grammars[0].path' "$pkg")
    conf=$(jq -r '.contributes.languages[0].configuration' "$pkg")
    [ -f "editors/vscode/$path" ] && [ "editors/vscode/${path#./}" = "$GRAMMAR" ] ||
        problems+=("the grammar's path is $path, not ./${GRAMMAR#editors/vscode/}")
    [ -f "editors/vscode/$conf" ] || problems+=("no language configuration at $conf")
    [ "$(jq -r '.contributes.grammars[0].scopeName' "$pkg")" = "$(jq -r '.scopeName' "$GRAMMAR")" ] ||
        problems+=("package.json and the grammar give different scope names")
    [ "$(jq -r '.contributes.grammars[0].language' "$pkg")" = "$(jq -r '.contributes.languages[0].id' "$pkg")" ] ||
        problems+=("the grammar is not for the language package.json declares")
    jq -e '.contributes.languages[0].extensions | index(".muster")' "$pkg" >/dev/null ||
        problems+=("the language does not claim .muster files")
    [ "$(jq -r '.comments.lineComment' editors/vscode/language-configuration.json)" = "#" ] ||
        problems+=("the line comment is not '#'")
    version=$(sed -n 's/^AC_INIT(\[muster\], \[\([^]]*\)\].*/\1/p' configure.ac)
    [ -n "$version" ] && [ "$(jq -r '.version' "$pkg")" = "$version" ] ||
        problems+=("package.json's version is $(jq -r '.version' "$pkg"), configure.ac's '$version'")
    if [ "${#problems[@]}" -eq 0 ]; then
        pass "vscode: package.json names the grammar, its scope, the configuration and muster's version $version"
    else
        fail "vscode: package.json" "${problems[@]}"
    fi
fi

# tmtok refuses what it does not implement, rather than get it wrong
printf '{ "scopeName": "source.x", "patterns": [ { "begin": "a", "while": "b" } ] }\n' >"$TEST_TMP/while.json"
printf '{ "scopeName": "source.x", "patterns": [ { "match": "(a" } ] }\n' >"$TEST_TMP/broken.json"
printf '{ "scopeName": "source.x", "patterns": [ { "begin": "(\\\\w)", "end": "\\\\1" } ] }\n' >"$TEST_TMP/backref.json"
refused=0
for g in while broken backref; do
    "$TMTOK" "$TEST_TMP/$g.json" tests/editors/words.muster >/dev/null 2>&1
    [ $? -eq 2 ] && refused=$((refused + 1))
done
if [ $refused -eq 3 ]; then
    pass "vscode: tmtok refuses a rule key, a pattern and a back-reference it cannot handle"
else
    fail "vscode: tmtok refuses what it cannot handle" "refused $refused of 3"
fi

finish
