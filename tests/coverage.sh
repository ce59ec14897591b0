#!/usr/bin/env bash
# coverage.sh — simulated odds against exact ones.  For each procedure below
# (the bench's cases and a few small ones) `muster prob` works the exact odds
# out, then simulates them on eight seeds, with the call specialized and
# without; the exact probability of each outcome of 1% or more must fall
# inside the simulation's 95% interval about 95% of the time.  The seeds are fixed, so the result is
# the same every run: what is checked is that the intervals cover what they
# claim to, for every procedure taken together (at most 10% of the checks
# may miss, where 5% are expected to), and for each procedure alone (at most
# a third of its checks).
source "$(dirname "$0")/lib.sh"

cd "$top_srcdir" || exit 1
cases=(
    "rules/rebs.muster fire_hits card=8 band=c"
    "rules/2x2.muster melee attacker=heavy_cavalry defender=line_infantry"
    "rules/fire-and-fury.muster musketry_effect weapon=rm range=close stands=4"
    "rules/for-reign-or-ruin.muster shoot sht=6 def=4"
    "rules/republic.muster maneuver_roll division_commander=energetic proficient_within_2=1"
    "rules/republic.muster assault_round table=pitched_battle attacker_grade=veteran defender_grade=average --field defender_panic"
    "tests/golden/odds.muster hits n=7"
    "tests/golden/odds.muster two_dice"
    "tests/golden/odds.muster roll_off"
    "tests/golden/odds.muster pick"
    "tests/golden/when.muster kept"
    "tests/golden/when.muster kept_pool"
)
all_checks=0
all_misses=0
for c in "${cases[@]}"; do
    # shellcheck disable=SC2086
    run_muster prob $c --csv
    if [ "$RUN_STATUS" -ne 0 ]; then
        fail "exact odds of $c" "exit $RUN_STATUS" "$(show_file "$RUN_ERR")"
        continue
    fi
    cp "$RUN_OUT" "$TEST_TMP/exact.csv"
    checks=0
    misses=0
    for seed in 1 2 3 4 5 6 7 8; do
        for extra in "" "--no-specialize"; do
            # shellcheck disable=SC2086
            run_muster prob $c --csv --trials 4000 --seed "$seed" --threads 2 $extra
            if [ "$RUN_STATUS" -ne 0 ]; then
                fail "simulated odds of $c (seed $seed $extra)" "exit $RUN_STATUS" "$(show_file "$RUN_ERR")"
                continue 2
            fi
            # exact: value,p,probability; simulated: value,probability,low,high,count.
            # Outcomes of 1% or more; one the simulation never met has an
            # interval from 0.
            read -r n m < <(awk -F, '
                NR == FNR { if (FNR > 1) exact[$1] = $3; next }
                FNR > 1 { low[$1] = $3; high[$1] = $4 }
                END {
                    n = 0; m = 0
                    for (v in exact) {
                        if (exact[v] < 0.01) continue
                        n++
                        if (!(v in low)) { m++; continue }
                        if (exact[v] < low[v] || exact[v] > high[v]) m++
                    }
                    print n, m
                }' "$TEST_TMP/exact.csv" "$RUN_OUT")
            checks=$((checks + n))
            misses=$((misses + m))
        done
    done
    all_checks=$((all_checks + checks))
    all_misses=$((all_misses + misses))
    if [ "$checks" -gt 0 ] && [ $((misses * 3)) -le "$checks" ]; then
        pass "intervals of $c: $misses of $checks miss"
    else
        fail "intervals of $c" "$misses of $checks miss"
    fi
done
if [ "$all_checks" -gt 0 ] && [ $((all_misses * 10)) -le "$all_checks" ]; then
    pass "intervals overall: $all_misses of $all_checks miss (about 5% expected)"
else
    fail "intervals overall" "$all_misses of $all_checks miss (about 5% expected)"
fi
finish
