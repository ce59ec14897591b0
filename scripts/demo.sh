#!/usr/bin/env bash
# demo.sh — set muster up and show its main job on the bundled example:
# check a script, resolve a roll with an explanation, and show the odds.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

run() {
    echo
    echo "\$ $*"
    "$@"
}

run ./muster check examples/volley.muster
run ./muster run examples/volley.muster fire_value card=6 formation=column cover=none
run ./muster run examples/volley.muster hits card=6 cover=light --dice 6,4,4,2,1 --explain
run ./muster run examples/volley.muster hits card=6 --seed 42 --json
run ./muster prob examples/volley.muster hits card=6 --seed 1 --trials 200000
