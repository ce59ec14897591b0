#!/usr/bin/env bash
# embedding.sh — the complete example of docs/embedding.md, compiled and run
# as the page says: its ```c file=odds.c block is built with what
# `pkg-config --cflags --libs muster` says and nothing else, run, and its
# output must be the page's ```text output=odds block; then the same
# program linked with the static library.
#
#   bash tests/embedding.sh                 the build tree (muster-uninstalled.pc), from make check
#   bash tests/embedding.sh installed D P PC   the library installed under prefix P, staged in D
#                     (DESTDIR; may be empty), its muster.pc in the folder PC, from make installcheck
source "$(dirname "$0")/lib.sh"

doc=$top_srcdir/docs/embedding.md
build=${top_builddir:-$PWD}
CC=${CC:-cc}

# block INFO: the lines of the fenced block of doc whose info string is INFO
block() {
    awk -v info="$1" '$0 == "```" info { on = 1; next } on && /^```/ { exit } on { print }' "$doc"
}

block "c file=odds.c" > "$TEST_TMP/odds.c"
block "text output=odds" > "$TEST_TMP/odds.expected"
if [ ! -s "$TEST_TMP/odds.c" ] || [ ! -s "$TEST_TMP/odds.expected" ]; then
    fail "docs/embedding.md" "no \`\`\`c file=odds.c block or no \`\`\`text output=odds block"
    finish
fi

if [ "${1:-}" = installed ]; then
    destdir=$2 prefix=$3
    # muster.pc names its folders from ${prefix}: staged, they are under DESTDIR
    export PKG_CONFIG_PATH=$4
    pc=(pkg-config --define-variable=prefix="$destdir$prefix")
    libdir=$("${pc[@]}" --variable=libdir muster)
    where="the installed library"
else
    export PKG_CONFIG_PATH=$build
    pc=(pkg-config)
    libdir=$build/.libs
    where="the build tree"
fi

flags=$("${pc[@]}" --cflags --libs muster 2>"$TEST_TMP/pc.err")
if [ $? -ne 0 ] || [ -z "$flags" ]; then
    fail "pkg-config muster ($where)" "$(cat "$TEST_TMP/pc.err")"
    finish
fi
pass "pkg-config --cflags --libs muster ($where): $flags"

# build NAME FLAGS...: compile odds.c into NAME, run it, compare with the page
build_and_run() {
    local name=$1
    shift
    # CFLAGS: the build's own (a sanitizer build's library needs its runtime linked in)
    # shellcheck disable=SC2086
    if ! $CC ${CFLAGS:-} -o "$TEST_TMP/$name" "$TEST_TMP/odds.c" "$@" >"$TEST_TMP/cc.out" 2>&1; then
        fail "$name: odds.c compiles ($where)" "$(cat "$TEST_TMP/cc.out")"
        return
    fi
    pass "$name: odds.c compiles and links ($where)"
    if ! LD_LIBRARY_PATH=$libdir timeout "$TEST_TIMEOUT" "$TEST_TMP/$name" >"$TEST_TMP/$name.out" 2>"$TEST_TMP/$name.err"; then
        fail "$name: odds runs ($where)" "$(cat "$TEST_TMP/$name.err")"
    elif diff -u "$TEST_TMP/odds.expected" "$TEST_TMP/$name.out" >"$TEST_TMP/diff" && [ ! -s "$TEST_TMP/$name.err" ]; then
        pass "$name: odds prints what docs/embedding.md shows ($where)"
    else
        fail "$name: odds prints what docs/embedding.md shows ($where)" "$(cat "$TEST_TMP/diff" "$TEST_TMP/$name.err")"
    fi
}

# shellcheck disable=SC2086  # the flags are words
build_and_run odds-shared $flags
if [ -n "$(ldd "$TEST_TMP/odds-shared" 2>/dev/null | grep libmuster)" ]; then
    pass "odds-shared uses the shared libmuster"
else
    fail "odds-shared uses the shared libmuster" "ldd lists no libmuster"
fi
static_lib=$libdir/libmuster.a
[ "${1:-}" = installed ] || static_lib=$build/libmuster-installed.a
static_flags=$("${pc[@]}" --libs --static muster | sed 's/-lmuster //')
# shellcheck disable=SC2086
build_and_run odds-static $("${pc[@]}" --cflags muster) "$static_lib" $static_flags
if [ -z "$(ldd "$TEST_TMP/odds-static" 2>/dev/null | grep libmuster)" ]; then
    pass "odds-static has libmuster inside"
else
    fail "odds-static has libmuster inside" "ldd lists libmuster"
fi

finish
