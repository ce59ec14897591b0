#!/usr/bin/env bash
# demo.sh — set muster up and show its main job on the bundled rulesets:
# check the scripts and their examples, resolve a roll with a referee's
# explanation, show the odds, print a turn sequence.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

run() {
    echo
    echo "\$ $*"
    "$@"
}

run ./muster check rules/2x2.muster rules/rebs.muster
run ./muster test rules/
run ./muster turn rules/2x2.muster
run ./muster run rules/rebs.muster fire card=8 band=c cover=light formation=double_column enfilade=true \
    --dice 2,5,6,6 --explain
run ./muster run rules/2x2.muster shoot firer=line_infantry distance=1 target=heavy_cavalry --dice 5 --explain
run ./muster prob rules/rebs.muster fire_hits card=6 band=c --seed 1
run ./muster run examples/volley.muster hits card=6 cover=light --dice 6,4,4,2,1 --explain
