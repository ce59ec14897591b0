#!/usr/bin/env bash
# symbols.sh — libmuster exports the public interface and nothing else.
#
# An embedder links libmuster beside code of their own, so every global
# symbol the library defines is a name that could clash with one of theirs.
# The build hides all but the functions muster.h marks MUSTER_API (see
# Makefile.am).  This lists with nm what the two installed forms define as
# global, the static library (libmuster-installed.a, installed as
# libmuster.a) and the shared one (.libs/libmuster.so, its dynamic
# symbols), and fails on
#   - a defined global symbol not named muster_ (a hidden name let out), and
#   - a MUSTER_API function of muster.h the library does not export, or a
#     muster_ symbol it exports that muster.h does not declare.
# Symbols whose names begin with "__" are the compiler's (a sanitizer's
# instrumentation) and are not counted.
source "$(dirname "$0")/lib.sh"

nm_tool=${NM:-nm}   # libtool's NM may carry an option ("nm -B"): used unquoted
header=$top_srcdir/include/muster.h
build=${top_builddir:-$PWD}

declared=$(grep -o '^MUSTER_API [^(]*(' "$header" | grep -o 'muster_[a-z_0-9]*($' | tr -d '(' | LC_ALL=C sort -u)
if [ -z "$declared" ]; then
    fail "muster.h declares" "no MUSTER_API function found in $header"
    finish
fi

# check NAME FILE NM-OPTION...: what nm lists as defined globals of FILE
check() {
    local name=$1 lib=$2
    shift 2
    if [ ! -f "$lib" ]; then
        fail "$name" "not found at $lib (run make first)"
        return
    fi
    local exported
    exported=$($nm_tool "$@" --defined-only "$lib" 2>/dev/null | awk 'NF == 3 { print $3 }' | sed 's/@.*//' \
               | grep -v '^__' | LC_ALL=C sort -u)
    if [ -z "$exported" ]; then
        fail "$name exports" "nm lists no defined global symbols in $lib"
        return
    fi
    local stray
    stray=$(grep -v '^muster_' <<<"$exported" || true)
    if [ -z "$stray" ]; then
        pass "$name exports only muster_ names ($(wc -l <<<"$exported") symbols)"
    else
        fail "$name exports only muster_ names" "$(wc -l <<<"$stray") other global symbols, the first:" \
             "$(head -n 10 <<<"$stray")"
    fi
    local missing extra
    missing=$(LC_ALL=C comm -23 <(echo "$declared") <(echo "$exported"))
    extra=$(grep '^muster_' <<<"$exported" | LC_ALL=C comm -13 <(echo "$declared") -)
    if [ -z "$missing" ] && [ -z "$extra" ]; then
        pass "$name exports what muster.h declares ($(wc -l <<<"$declared") functions)"
    else
        fail "$name exports what muster.h declares" \
             ${missing:+"declared, not exported: $(echo $missing)"} ${extra:+"exported, not declared: $(echo $extra)"}
    fi
}

check "libmuster.a (static)" "$build/libmuster-installed.a" -g
check "libmuster.so (shared)" "$build/.libs/libmuster.so" -D

finish
