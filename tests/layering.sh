#!/usr/bin/env bash
# layering.sh — the folders include only what lies below them.
#
# Project headers are included by their path from the top ("vm/value.h"), so
# each #include "..." line is an edge from one folder to another.  This reads
# every such line of the library, the driver and the fuzz targets and fails
# on any edge outside these rules (docs/architecture.md#dependency-rules):
#
#   base/      base
#   lang/      base, lang
#   vm/        base, vm
#   compiler/  base, lang, vm, compiler
#   api/       base, lang, vm, compiler, api, include
#   cli/       include (the public muster.h), and cli's own headers
#   web/       include (the public muster.h), and web's own headers
#   tests/fuzz/          include only: the targets use the public API
#   tests/differential/  nothing: difftest.c shares no code with libmuster
#
# and nothing includes cli/ or web/.  Some headers are private to their folder even
# where the folder itself may be included: compiler/internal.h,
# api/internal.h and lang/parser_state.h (the Parser struct).
#
# "config.h" (made by configure, at the top of the build tree) may be
# included anywhere; "muster.h" is include/muster.h, by its installed name.
# Any other include without a folder fails: it would hide its edge.
# lang/'s generated files are not read; their sources (lexer.re, parser.y) are.
# One PASS or FAIL line per folder, each forbidden edge under its FAIL.
source "$(dirname "$0")/lib.sh"

cd "$top_srcdir" || exit 1

allowed_of() {
    case $1 in
        base) echo "base" ;;
        lang) echo "base lang" ;;
        vm) echo "base vm" ;;
        compiler) echo "base lang vm compiler" ;;
        api) echo "base lang vm compiler api include" ;;
        cli) echo "include cli" ;;
        web) echo "include web" ;;
        tests/fuzz) echo "include" ;;
        tests/differential) echo "" ;;
    esac
}

# headers no other folder may include, whatever the folder rules say
private_headers="compiler/internal.h api/internal.h lang/parser_state.h"

for dir in base lang vm compiler api cli web tests/fuzz tests/differential; do
    allowed=$(allowed_of "$dir")
    files=$(find "$dir" -type f \( -name '*.c' -o -name '*.h' -o -name '*.y' -o -name '*.re' -o -name '*.def' \) \
                 ! -path lang/lexer.c ! -path lang/parser.c ! -path lang/parser.h ! -path "web/node_modules/*" ! -path "web/dist/*" | LC_ALL=C sort)
    if [ -z "$files" ]; then
        fail "$dir/" "no source files found in $top_srcdir/$dir"
        continue
    fi
    bad=()
    edges=""
    while IFS=: read -r file line target; do
        [ -n "$file" ] || continue
        case $target in
            config.h) continue ;;
            muster.h) to=include ;;
            */*) to=${target%/*} ;;
            *) bad+=("$file:$line: \"$target\" is not included by its path from the top"); continue ;;
        esac
        case " $private_headers " in
            *" $target "*)
                if [ "$to" != "$dir" ]; then
                    bad+=("$file:$line: \"$target\" is private to $to/")
                    continue
                fi ;;
        esac
        case " $allowed " in
            *" $to "*) case " $edges " in *" $to "*) ;; *) edges="$edges $to" ;; esac ;;
            *) bad+=("$file:$line: \"$target\": $dir/ may include only ${allowed:-nothing of muster}") ;;
        esac
    done < <(
        # shellcheck disable=SC2086
        grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' $files |
            sed -E 's/^([^:]*):([0-9]*):[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*)".*/\1:\2:\3/'
    )
    shown=""
    for to in base lang vm compiler api include cli web; do
        case " $edges " in *" $to "*) shown="$shown $to" ;; esac
    done
    if [ "${#bad[@]}" -eq 0 ]; then
        pass "$dir/ includes${shown:- nothing of muster}"
    else
        fail "$dir/" "${bad[@]}"
    fi
done
finish
