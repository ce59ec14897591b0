#!/usr/bin/env bash
# symbols.sh — libmuster.a exports the public interface and nothing else.
#
# An embedder links libmuster.a beside code of their own, so every global
# symbol the library defines is a name that could clash with one of theirs.
# The build hides all but the functions muster.h marks MUSTER_API (see
# Makefile.am); this lists with nm what libmuster.a defines as global and
# fails on
#   - a defined global symbol not named muster_ (a hidden name let out), and
#   - a MUSTER_API function of muster.h the library does not export, or a
#     muster_ symbol it exports that muster.h does not declare.
# Symbols whose names begin with "__" are the compiler's (a sanitizer's
# instrumentation) and are not counted.
source "$(dirname "$0")/lib.sh"

lib=${top_builddir:-$PWD}/libmuster.a
nm_tool=${NM:-nm}
header=$top_srcdir/include/muster.h

if [ ! -f "$lib" ]; then
    fail "libmuster.a" "not found at $lib (run make first)"
    finish
fi

# defined (not undefined, not local) symbols: "ADDRESS TYPE NAME"
exported=$("$nm_tool" -g --defined-only "$lib" 2>/dev/null | awk 'NF == 3 { print $3 }' | grep -v '^__' | LC_ALL=C sort -u)
if [ -z "$exported" ]; then
    fail "libmuster.a exports" "nm lists no defined global symbols in $lib"
    finish
fi

stray=$(grep -v '^muster_' <<<"$exported" || true)
if [ -z "$stray" ]; then
    pass "libmuster.a exports only muster_ names ($(wc -l <<<"$exported") symbols)"
else
    fail "libmuster.a exports only muster_ names" "$(wc -l <<<"$stray") other global symbols, the first:" \
         "$(head -n 10 <<<"$stray")"
fi

declared=$(grep -o '^MUSTER_API [^(]*(' "$header" | grep -o 'muster_[a-z_0-9]*($' | tr -d '(' | LC_ALL=C sort -u)
if [ -z "$declared" ]; then
    fail "muster.h declares" "no MUSTER_API function found in $header"
    finish
fi
missing=$(LC_ALL=C comm -23 <(echo "$declared") <(echo "$exported"))
extra=$(grep '^muster_' <<<"$exported" | LC_ALL=C comm -13 <(echo "$declared") -)
if [ -z "$missing" ] && [ -z "$extra" ]; then
    pass "libmuster.a exports what muster.h declares ($(wc -l <<<"$declared") functions)"
else
    fail "libmuster.a exports what muster.h declares" \
         ${missing:+"declared, not exported: $(echo $missing)"} ${extra:+"exported, not declared: $(echo $extra)"}
fi

finish
