#!/usr/bin/env bash
# test.sh — set muster up and run the whole test suite:
#   1. make check on the normal build, with warnings as errors: the unit
#      tests, the differential check, the layering and export checks, the
#      golden, bad-input, examples and coverage tests, the docs' transcripts,
#      the fuzzers' regressions, and muster in the browser (make web, the
#      JavaScript package against the command, the page in headless Chromium);
#      then make install into _build/stage (DESTDIR) and make installcheck
#      there (tests/installcheck.sh);
#   2. the same suite, built from the release tarball, in an AddressSanitizer
#      + UndefinedBehaviorSanitizer build with the garbage collector, and
#      again with plain allocation (--enable-plain-alloc) so ASan can see the
#      language's own objects;
#   3. make sheets: every ruleset's sheet, with a screenshot that must not
#      be blank and a PDF that must keep within the ruleset's page budget,
#      and the charts (Chromium is installed for it);
#   4. make distcheck: the release tarball builds and passes without re2c/Bison.
# Each step runs only if those before it passed; --quick runs only step 1.
# The last line counts the test cases of every build: "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
# the browser build's tools too: make check builds muster for the browser and tests its page
bash scripts/setup.sh --web

summary() {
    # count test cases, not programs: CUnit's "tests" row and the script
    # suites' closing "N passed, N failed" line, in every build directory given
    local pass=0 fail=0 dir f p x
    for dir in "$@"; do
        for f in "$dir"/tests/unit/*.log; do
            [ -f "$f" ] || continue
            read -r p x < <(awk '$1 == "tests" { print $4, $5 }' "$f") || true   # (no such row: none counted)
            pass=$((pass + ${p:-0})); fail=$((fail + ${x:-0}))
        done
        for f in "$dir"/tests/*.log "$dir"/tests/differential/*.log "$dir"/tests/fuzz/*.log; do
            [ -f "$f" ] || continue
            read -r p x < <(sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$f" | tail -1) || true   # (a skipped suite prints no totals)
            pass=$((pass + ${p:-0})); fail=$((fail + ${x:-0}))
        done
    done
    echo "$pass $fail"
}

logs=()
status=0
# CI builds with warnings as errors, and shows what the compiler says
if ! grep -q -- '--enable-werror' config.status 2>/dev/null; then
    echo "== configure --enable-werror"
    ./configure -q --enable-werror
    make -s clean >/dev/null   # what was built without -Werror is built again with it
fi
echo "== make check"
if ! make -s -j"$(nproc)" check >/dev/null; then
    status=1
    cat test-suite.log >&2 || true
fi
logs+=("$top")
grep -E '^# (TOTAL|PASS|FAIL|ERROR)' test-suite.log || true

if [ $status -eq 0 ]; then
    echo "== make install DESTDIR=_build/stage && make installcheck DESTDIR=_build/stage"
    rm -rf "$top/_build/stage" && mkdir -p "$top/_build"
    if make -s install DESTDIR="$top/_build/stage" >/dev/null \
        && make -s installcheck DESTDIR="$top/_build/stage" >"$top/_build/installcheck.log" 2>&1; then
        tail -1 "$top/_build/installcheck.log"
    else
        status=1
        cat "$top/_build/installcheck.log" >&2 || true
    fi
fi

if [ "${1:-}" != "--quick" ] && [ $status -eq 0 ]; then
    echo "== make dist"
    rm -f muster-*.tar.gz
    make -s dist >/dev/null
    tarball=$(ls muster-*.tar.gz)
    # the browser suite (tests/web.sh) ran in step 1: once is enough
    export MUSTER_WEB_TESTS=0
    san="-g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer --param asan-use-after-return=0"
    export ASAN_OPTIONS=detect_stack_use_after_return=0:detect_leaks=0:abort_on_error=0
    export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
    for variant in gc plain; do
        dir="$top/_build/asan-$variant"
        echo "== sanitizer build ($variant allocation) in _build/asan-$variant"
        rm -rf "$dir" && mkdir -p "$dir"
        tar -xzf "$tarball" -C "$dir" --strip-components=1
        extra=()
        [ $variant = plain ] && extra=(--enable-plain-alloc)
        (cd "$dir" && ./configure -q --enable-werror "${extra[@]}" CFLAGS="$san" >/dev/null \
            && make -s -j"$(nproc)" >/dev/null \
            && make -s -j"$(nproc)" check >/dev/null) || { status=1; cat "$dir/test-suite.log" >&2 || true; }
        logs+=("$dir")
        grep -E '^# (TOTAL|PASS|FAIL|ERROR)' "$dir/test-suite.log" || true
    done
    if [ $status -eq 0 ]; then
        echo "== make sheets (each ruleset's sheet as Markdown, HTML, a headless-browser screenshot and a PDF within its page budget)"
        bash scripts/setup.sh --sheets >/dev/null
        if make -s sheets; then
            for f in rules/*.muster; do
                b=$(basename "$f" .muster)
                if [ "$(stat -c %s "sheets/$b.png" 2>/dev/null || echo 0)" -lt 20000 ]; then
                    echo "sheets/$b.png is missing or blank" >&2
                    status=1
                fi
            done
        else
            status=1
        fi
    fi
    if [ $status -eq 0 ]; then
        echo "== make distcheck"
        make -s distcheck >/dev/null 2>&1 || { status=1; echo "distcheck failed" >&2; make distcheck 2>&1 | tail -40 >&2; }
    fi
fi

read -r pass fail < <(summary "${logs[@]}")
[ $status -ne 0 ] && [ "$fail" -eq 0 ] && fail=1
echo "$pass passed, $fail failed"
exit $status
