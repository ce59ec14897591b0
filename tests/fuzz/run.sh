#!/usr/bin/env bash
# run.sh SRCDIR BUILDDIR — what `make fuzz` does.
#
#  1. Builds the two fuzz targets (fuzz_compile.c: a script through
#     `muster check`; fuzz_args.c: name=value arguments through run, prob
#     and dis) with libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer
#     (clang, installed with scripts/need.sh when missing), in BUILDDIR/fuzz-build.
#     With AFL++ installed (afl-clang-fast), builds AFL++ versions too
#     (fuzz-build/afl_compile, afl_args), which are not run here.
#  2. Runs each for FUZZ_TIME seconds (60), starting from the scripts of
#     rules/, examples/, docs/, stdlib/ and tests/golden/ and the inputs of
#     tests/fuzz/regressions/, with tests/fuzz/muster.dict.  Inputs that crash,
#     hang or run out of memory are copied to tests/fuzz/regressions/KIND/,
#     which `make check` replays (tests/fuzz/replay.sh).
#  3. Runs the differential check on DIFF_COUNT programs (3000) from
#     DIFF_SEED (by default one picked from the clock, and printed).
#
# Exits 1 if a fuzzer found something or a program disagreed.
set -uo pipefail
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
FUZZ_TIME=${FUZZ_TIME:-60}
DIFF_COUNT=${DIFF_COUNT:-3000}
DIFF_SEED=${DIFF_SEED:-}
[ -n "$DIFF_SEED" ] || DIFF_SEED=$(( $(date +%s) % 100000 * 10000 + 1000 ))

if ! command -v clang >/dev/null 2>&1; then
    bash "$src/scripts/need.sh" clang || exit 1
fi

out=$build/fuzz-build
mkdir -p "$out/obj" "$out/artifacts" "$out/corpus/compile" "$out/corpus/args" "$out/seeds/compile" "$out/seeds/args"

cppflags=(-DHAVE_CONFIG_H -I"$src" -I"$build" -I"$src/include"
          "-DMUSTER_DATADIR=\"$src/stdlib\"" "-DMUSTER_SOURCE_STDLIB=\"$src/stdlib\"")
sanitize=(-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined)
# the library: every source of libmuster, the parser from the build tree
sources=()
for f in "$src"/base/*.c "$src"/lang/*.c "$src"/compiler/*.c "$src"/vm/*.c "$src"/api/*.c; do
    [ "$(basename "$f")" = parser.c ] || sources+=("$f")
done
sources+=("$build/lang/parser.c")
echo "fuzz: building the library with libFuzzer and sanitizers in $out"
newest_h=$(ls -t "$src"/include/*.h "$src"/base/*.h "$src"/lang/*.h "$src"/compiler/*.h "$src"/vm/*.h "$src"/vm/*.def "$src"/api/*.h | head -1)
cc=(clang -std=gnu11 "${sanitize[@]}" -fsanitize=fuzzer-no-link "${cppflags[@]}")
jobs_running=0
for f in "${sources[@]}"; do
    o=$out/obj/$(basename "$f" .c).o
    if [ "$o" -nt "$f" ] && [ "$o" -nt "$newest_h" ]; then
        continue
    fi
    "${cc[@]}" -c "$f" -o "$o" &
    jobs_running=$((jobs_running + 1))
    if [ "$jobs_running" -ge 2 ]; then
        wait -n || exit 1
        jobs_running=$((jobs_running - 1))
    fi
done
while [ "$jobs_running" -gt 0 ]; do
    wait -n || exit 1
    jobs_running=$((jobs_running - 1))
done
libs=(${GC_LIBS:--lgc -lpthread -ldl} ${GMP_LIBS:--lgmp} ${LIBS:--lm})
for t in compile args; do
    clang -std=gnu11 "${sanitize[@]}" -fsanitize=fuzzer -I"$src/include" -o "$out/fuzz_$t" \
        "$src/tests/fuzz/fuzz_$t.c" "$out"/obj/*.o "${libs[@]}" || exit 1
done
if command -v afl-clang-fast >/dev/null 2>&1; then
    # AFL++ takes a libFuzzer target as it is: afl-fuzz -i SEEDS -o OUT -- fuzz-build/afl_compile
    for t in compile args; do
        AFL_QUIET=1 afl-clang-fast -std=gnu11 -g -O1 -fsanitize=fuzzer "${cppflags[@]}" -o "$out/afl_$t" \
            "$src/tests/fuzz/fuzz_$t.c" "${sources[@]}" "${libs[@]}" >/dev/null 2>&1 \
            && echo "fuzz: built $out/afl_$t for AFL++" || echo "fuzz: could not build $out/afl_$t for AFL++ (skipped)"
    done
fi

# seeds: every script the tree has, the committed regressions, a few argument lines
for f in "$src"/rules/*.muster "$src"/examples/*.muster "$src"/docs/*.muster "$src"/stdlib/*.muster \
         "$src"/tests/golden/*.muster "$src"/tests/bad/*.muster "$src"/tests/fuzz/regressions/compile/*; do
    [ -f "$f" ] && cp "$f" "$out/seeds/compile/$(basename "$f")"
done
for f in "$src"/tests/fuzz/seeds/args/* "$src"/tests/fuzz/regressions/args/*; do
    [ -f "$f" ] && cp "$f" "$out/seeds/args/$(basename "$f")"
done

status=0
for t in compile args; do
    echo "fuzz: fuzz_$t for ${FUZZ_TIME}s"
    log=$out/fuzz_$t.log
    # -fork keeps going after a crash; each crash, hang or OOM is written to artifacts/
    (cd "$out" && ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
        "./fuzz_$t" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -max_total_time="$FUZZ_TIME" -timeout=20 -rss_limit_mb=2560 -max_len=4096 \
        -dict="$src/tests/fuzz/muster.dict" -artifact_prefix="$out/artifacts/$t-" \
        "corpus/$t" "seeds/$t" >"$log" 2>&1)
    execs=$(grep -Eo '^#[0-9]+' "$log" | tail -1 | tr -d '#')
    echo "fuzz: fuzz_$t: ${execs:-0} executions (log: $log)"
    found=0
    for a in "$out/artifacts/$t-"*; do
        [ -f "$a" ] || continue
        dest=$src/tests/fuzz/regressions/$t/$(basename "$a" | sed "s/^$t-//")
        if [ ! -f "$dest" ]; then
            cp "$a" "$dest"
            echo "fuzz: NEW $dest"
            found=$((found + 1))
        fi
    done
    if [ "$found" -gt 0 ]; then
        echo "fuzz: fuzz_$t found $found new input(s); replay one with $build/tests/fuzz/replay_$t FILE"
        status=1
    fi
done

echo "fuzz: the differential check on $DIFF_COUNT programs from seed $DIFF_SEED"
MUSTER=$build/muster top_srcdir=$src "$build/tests/differential/difftest" \
    --seed "$DIFF_SEED" --count "$DIFF_COUNT" --quiet --save "$build/difftest-failures" \
    | grep -v '^  \|^    ' || status=1
exit $status
