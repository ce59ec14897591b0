#!/bin/sh
# Benchmark suite: `make bench`, or bench/run.sh [MUSTER] from anywhere.
# BENCH_N sets the trials of muster and C (Lua gets 3/10, Python 1/10);
# BENCH_DICELAB_TIMEOUT the seconds allowed to each `dicelab -c` (default 60).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
muster=${1:-$top/muster}
case $muster in /*) ;; *) muster=$(pwd)/$muster ;; esac
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for src in "$top"/bench/peers/c/*.c; do
  ${CC:-cc} -O2 -o "$out/$(basename "$src" .c)" "$src"
done
cd "$top"
python3 "$top/bench/bench.py" "$muster" "$out"
