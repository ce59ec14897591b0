#!/bin/sh
# Benchmark suite: `make bench`, or bench/run.sh [MUSTER] from anywhere.
# Builds the C peers (bench/peers/c/*.c), then bench/bench.py runs the cases.
# BENCH_N sets the trials of C and dicelab (default 1000000); muster gets 30
# times as many (3 times with --no-specialize), Lua 3/10, Python 1/10;
# BENCH_DICELAB_TIMEOUT the seconds allowed to each `dicelab -c` (default 60);
# BENCH_CASES=name,name runs only those cases of bench/cases.txt.
# BENCH_ONLY_EXACT=1 runs only the exact odds: at scale, and of the engine's
# hard shapes (bench/shapes.muster's chains, walks, melee and bag); no simulations.
# The peers need a C compiler, python3, lua5.4 and dicelab: missing ones are
# installed from Debian's packages (as root or through sudo), or named.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
muster=${1:-$top/muster}
case $muster in /*) ;; *) muster=$(pwd)/$muster ;; esac
missing=
for tool in python3 lua5.4 dicelab ${CC:-cc}; do
  command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
if [ -n "$missing" ]; then
  echo "bench: needs$missing"
  bash "$top/scripts/need.sh" gcc python3 lua5.4 dicelab || {
    echo "bench: cannot run without$missing (Debian packages: gcc python3 lua5.4 dicelab)" >&2
    exit 1
  }
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for src in "$top"/bench/peers/c/*.c; do
  ${CC:-cc} -O2 -o "$out/$(basename "$src" .c)" "$src"
done
cd "$top"
python3 "$top/bench/bench.py" "$muster" "$out"
