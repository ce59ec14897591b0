# muster.bash: completion of the muster command for bash.
#
# From a source tree:   source completions/muster.bash
# `make install` puts this file where bash-completion loads it from, as
# `muster` (see docs/cli.md, Shell completion).
#
# The candidates come from `muster complete CWORD -- WORD0 WORD1 ...`, which
# knows the commands, their options and the procedures, parameters and
# choices of the script on the line.  When it answers with the mark
# `:files EXT [PREFIX]`, bash's own file completion does the rest.
#
# The words are read here from COMP_LINE up to the cursor, as the shell
# would read them (quotes and backslashes taken off), so that `--paper=a4`,
# `cover=light` or `--choose=Critical=rout` stay one word whatever
# COMP_WORDBREAKS holds; each candidate is then cut to the part of the word
# that bash replaces (after the last character of COMP_WORDBREAKS in it).

# _muster_split TEXT: the words of TEXT into _muster_words, the last one
# being the word the text ends in (empty after a blank), and into
# _muster_break how many of that word's characters bash does not replace.
_muster_split()
{
    local text=$1 word='' quote='' c i have=0 brk=0 qstart=0
    local breaks=${COMP_WORDBREAKS-$' \t\n"\'><=;|&(:'}
    _muster_words=()
    for ((i = 0; i < ${#text}; i++)); do
        c=${text:i:1}
        if [[ $quote == "'" ]]; then
            if [[ $c == "'" ]]; then quote=''; else word+=$c; fi
        elif [[ $quote == '"' ]]; then
            if [[ $c == '"' ]]; then
                quote=''
            elif [[ $c == '\' && ${text:i+1:1} == [\$\`\"\\] ]]; then
                word+=${text:i+1:1}
                i=$((i + 1))
            else
                word+=$c
            fi
        elif [[ $c == '\' ]]; then
            word+=${text:i+1:1}
            i=$((i + 1))
            have=1
        elif [[ $c == [\'\"] ]]; then
            quote=$c
            qstart=${#word}
            have=1
        elif [[ $c == [[:space:]] ]]; then
            ((have)) && _muster_words+=("$word")
            word='' have=0 brk=0
        else
            word+=$c
            have=1
            [[ $breaks == *"$c"* ]] && brk=${#word}
        fi
    done
    # inside an open quote, bash's word starts after the quote
    [[ -n $quote ]] && brk=$qstart
    _muster_words+=("$word")
    _muster_break=$brk
}

_muster()
{
    local text
    if [[ -n ${COMP_LINE+set} ]]; then
        text=${COMP_LINE:0:${COMP_POINT:-${#COMP_LINE}}}
    else
        text="${COMP_WORDS[*]:0:COMP_CWORD+1}"
    fi
    local _muster_words _muster_break
    _muster_split "$text"
    local -a words=("${_muster_words[@]}")
    # assignments before the command (NO_COLOR=1 muster ...) are not its words
    while ((${#words[@]} > 1)) && [[ ${words[0]} =~ ^[A-Za-z_][A-Za-z0-9_]*= ]]; do
        words=("${words[@]:1}")
    done
    local cword=$((${#words[@]} - 1))
    local cur=${words[cword]}
    # ./muster, or another path typed for it, is the muster asked
    local muster=muster
    [[ ${words[0]} == */* && -x ${words[0]} && ! -d ${words[0]} ]] && muster=${words[0]}

    local -a found
    mapfile -t found < <("$muster" complete "$cword" -- "${words[@]}" 2>/dev/null)
    COMPREPLY=()
    local mark ext prefix
    if [[ ${found[0]-} == :files* ]]; then
        read -r mark ext prefix <<<"${found[0]}"
        local part=${cur:${#prefix}}
        local -a files
        if [[ $ext == '*' ]]; then
            mapfile -t files < <(compgen -f -- "$part")
        else
            mapfile -t files < <(compgen -d -- "$part"; compgen -f -X "!*$ext" -- "$part")
        fi
        compopt -o filenames 2>/dev/null
        found=()
        local f
        for f in "${files[@]}"; do
            found+=("$prefix$f")
        done
    fi
    local candidate
    for candidate in "${found[@]}"; do
        COMPREPLY+=("${candidate:_muster_break}")
    done
    # name=, --seed=, Critical=: the value follows without a space
    if ((${#found[@]} == 1)) && [[ ${found[0]} == *= ]]; then
        compopt -o nospace 2>/dev/null
    fi
    return 0
}

complete -F _muster muster
