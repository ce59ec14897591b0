#!/bin/bash
# web.sh — muster in the browser (docs/web.md): builds web/dist with
# `make web` when it is not up to date, then
#   tests/web/node.mjs     the JavaScript package against this muster on every
#                          golden case it can take: status, output and error
#                          stream the same, byte for byte;
#   tests/web/browser.mjs  the page from the built folder in Debian's Chromium,
#                          headless, driven by puppeteer-core (screenshots in
#                          web/dist/screenshots).
# Skipped (exit 77) where emscripten is not installed (scripts/setup.sh --web
# installs it), except under CI, which must run it; and when MUSTER_WEB_TESTS=0
# (scripts/test.sh sets it for its sanitizer and distcheck builds, so that the
# browser suite runs once).
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

if [ "${MUSTER_WEB_TESTS:-1}" = 0 ]; then
    echo "SKIP: MUSTER_WEB_TESTS=0"
    exit 77
fi
missing=
command -v emcc >/dev/null 2>&1 || missing="emscripten"
command -v node >/dev/null 2>&1 || missing="$missing node"
[ -x "$top_srcdir/web/node_modules/.bin/esbuild" ] || missing="$missing web/node_modules (npm ci in web/)"
if [ -n "$missing" ]; then
    if [ "${CI:-}" = true ]; then
        fail "the browser build's tools are there" "missing: $missing (scripts/setup.sh --web installs them)"
        finish
    fi
    echo "SKIP: missing$missing (scripts/setup.sh --web installs them)"
    exit 77
fi

builddir=${top_builddir:-$(dirname "$MUSTER")}
if make -s -C "$builddir" web >"$TEST_TMP/build.log" 2>&1; then
    pass "make web"
else
    fail "make web" "$(tail -20 "$TEST_TMP/build.log")"
    finish
fi
dist=$builddir/web/dist

# run_suite NAME COMMAND...: one of the node suites; its last line counts
run_suite()
{
    local name=$1
    shift
    "$@" >"$TEST_TMP/$name.log" 2>&1
    local status=$?
    grep '^FAIL' "$TEST_TMP/$name.log" | head -40
    local counts p f
    counts=$(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed.*/\1 \2/p' "$TEST_TMP/$name.log" | tail -1)
    read -r p f <<<"$counts"
    PASSED=$((PASSED + ${p:-0}))
    FAILED=$((FAILED + ${f:-0}))
    echo "$name: $(tail -1 "$TEST_TMP/$name.log")"
    if [ $status -ne 0 ] && [ "${f:-0}" -eq 0 ]; then
        fail "$name" "$(tail -20 "$TEST_TMP/$name.log")"
    fi
}

export MUSTER top_srcdir
run_suite node node "$top_srcdir/tests/web/node.mjs" "$dist"
if [ -f "$top_srcdir/tests/web/browser.mjs" ]; then
    if command -v chromium >/dev/null 2>&1; then
        mkdir -p "$dist/screenshots"
        run_suite browser node "$top_srcdir/tests/web/browser.mjs" "$dist" "$dist/screenshots"
    elif [ "${CI:-}" = true ]; then
        fail "chromium is there for the browser test" "scripts/setup.sh --web installs it"
    else
        echo "browser: skipped, no chromium (scripts/setup.sh --web installs it)"
    fi
fi
finish
