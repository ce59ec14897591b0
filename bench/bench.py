#!/usr/bin/env python3
"""muster benchmark: simulate every case in cases.txt with muster (1 and 2 threads)
and with the C, Lua, Python and dicelab peers, check every distribution against
muster's exact one, and print ns/trial with the ratio to C.
usage: bench.py MUSTER CBIN_DIR   (run from the source tree's top directory)"""
import json
import math
import os
import subprocess
import sys
import time
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
PEERS = os.path.join(HERE, "peers")
N_FAST = int(os.environ.get("BENCH_N", "1000000"))   # C
N_MUSTER = 30 * N_FAST    # muster: long enough that a run on two threads is not mostly start-up or noise
N_UNSPEC = 3 * N_FAST     # muster --no-specialize (ten times slower)
N_LUA = N_FAST * 3 // 10
N_PY = N_FAST // 10
N_DICELAB = N_FAST
SEED = 12345
ZMAX = 4.5
DICELAB_TIMEOUT = int(os.environ.get("BENCH_DICELAB_TIMEOUT", "60"))


def key(v):
    """An outcome's text as the peers print it: a record is its field values in
    order, joined by commas (REBS's ReorgResult(result: passed, state: disordered,
    fall_back: 0, rally_fails_this_turn: false) is "passed,disordered,0,false")."""
    if v is None:
        return "not_given"
    if isinstance(v, dict):
        return ",".join(key(x) for x in v.values())
    return str(v).lower()


ONLY = [x for x in os.environ.get("BENCH_CASES", "").split(",") if x]   # only these cases, if given


def cases():
    out = []
    with open(os.path.join(HERE, "cases.txt")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, file, proc, args, desc = [x.strip() for x in line.split("|")]
                if ONLY and name not in ONLY:
                    continue
                out.append((name, file, proc, args.split(), desc))
    return out


def timed(cmd, **kw):
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"bench: {' '.join(cmd)} failed:\n{r.stderr}")
    return r, dt


def muster_exact(muster, file, proc, args):
    r, dt = timed([muster, "prob", file, proc, *args, "--json"])
    j = json.loads(r.stdout)
    if j["exact"]:
        return {key(o["value"]): Fraction(o["p"]) for o in j["outcomes"]}, dt, True
    # not exact: muster's own large simulation is the reference
    r, _ = timed([muster, "prob", file, proc, *args, "--json", "--trials", str(20 * N_FAST), "--seed", "7"])
    return {key(o["value"]): o["p"] for o in json.loads(r.stdout)["outcomes"]}, dt, False


REPEAT = 5   # each timing: the best of this many runs (the machine may be shared)


def best_of(cmd):
    best = math.inf
    for _ in range(REPEAT):
        r, dt = timed(cmd)
        best = min(best, dt)
    return r, best


SIM_BLOCK = 4096   # trials per block (compiler/api.c); a run of fewer blocks than threads starts fewer threads


def muster_sim(muster, file, proc, args, n, threads, extra=()):
    """Counts and ns/trial of the simulation loop: the marginal cost of a
    trial, (T(n) - T(n0)) / (n - n0), where the short run of n0 trials (one
    block per thread) has the same start-up: process start, compiling the
    ruleset, specializing the call, starting the threads."""
    cmd = [muster, "prob", file, proc, *args, "--json", "--seed", str(SEED), "--threads", str(threads), *extra]
    n0 = SIM_BLOCK * threads
    _, start = best_of(cmd + ["--trials", str(n0)])
    r, dt = best_of(cmd + ["--trials", str(n)])
    j = json.loads(r.stdout)
    if threads == 1 and not extra:
        _, STARTUP[(file, proc)] = best_of(cmd + ["--trials", "1"])
    return {key(o["value"]): round(o["p"] * n) for o in j["outcomes"]}, (dt - start) * 1e9 / (n - n0)


STARTUP = {}
SCALING = {}   # (file, proc) -> the median over rounds of 1-thread ns / 2-thread ns


def muster_threads(muster, file, proc, args, n):
    """muster_sim on 1 and on 2 threads, their runs interleaved round by
    round: ns/trial is the best round of each, and the scaling is the median
    over rounds of the two in one round, so that a slow spell of the
    (shared) machine falls on both sides of a ratio alike."""
    cmds = {t: [muster, "prob", file, proc, *args, "--json", "--seed", str(SEED), "--threads", str(t)] for t in (1, 2)}
    rounds = []
    last = {}
    for _ in range(REPEAT):
        ns = {}
        for t in (1, 2):
            _, start = timed(cmds[t] + ["--trials", str(SIM_BLOCK * t)])
            r, dt = timed(cmds[t] + ["--trials", str(n)])
            ns[t] = (dt - start) * 1e9 / (n - SIM_BLOCK * t)
            last[t] = r
        rounds.append(ns)
    _, STARTUP[(file, proc)] = best_of(cmds[1] + ["--trials", "1"])
    SCALING[(file, proc)] = sorted(r[1] / r[2] for r in rounds)[len(rounds) // 2]
    out = []
    for t in (1, 2):
        j = json.loads(last[t].stdout)
        counts = {key(o["value"]): round(o["p"] * n) for o in j["outcomes"]}
        out.append((counts, min(r[t] for r in rounds)))
    return out


def peer_sim(cmd, n):
    """Counts and ns/trial as the peer times its own loop (best of REPEAT)."""
    best = math.inf
    for _ in range(REPEAT):
        r, _ = timed(cmd + [str(n), str(SEED)])
        best = min(best, float(r.stderr.strip().split()[-1]))
    counts = {}
    for line in r.stdout.split("\n"):
        if line.strip():
            v, c = line.rsplit(None, 1)
            counts[key(v)] = int(c)
    return counts, best


def dicelab_sim(path, n):
    r, dt = timed(["dicelab", "-e", "-n", str(n), "-f", path])
    counts = {}
    for line in r.stdout.split("\n"):
        if line.strip():
            v, p = line.split()[:2]
            counts[key(v)] = round(float(p) * n)
    return counts, dt * 1e9 / n


def check(counts, ref):
    """Largest |z| over all outcomes; inf if an impossible outcome appears."""
    n = sum(counts.values())
    worst = 0.0
    for v in set(counts) | set(ref):
        p = float(ref.get(v, 0))
        obs = counts.get(v, 0)
        if p == 0:
            if obs:
                return math.inf
            continue
        sd = math.sqrt(n * p * (1 - p)) or 1.0
        worst = max(worst, abs(obs - n * p) / sd)
    return worst


# ---- exact odds at scale, checked against independent computations ----

def sums_of(n, sides):
    """The ways of each total of n dice of `sides` faces, as a list from the
    total n: each die added by a sliding window over the previous counts."""
    ways = [1]
    for _ in range(n):
        nxt, window = [], 0
        for s in range(len(ways) + sides - 1):
            window += ways[s] if s < len(ways) else 0
            window -= ways[s - sides] if s - sides >= 0 else 0
            nxt.append(window)
        ways = nxt
    return ways


def exact_sum(n, sides):
    total = sides ** n
    return {str(n + i): Fraction(w, total) for i, w in enumerate(sums_of(n, sides)) if w}


def exact_highest_sum(keep, n, sides):
    """The total of the highest `keep` of n dice, by the faces from the top:
    how many dice show each face (a binomial choice of the dice left), with
    the state (dice left, dice kept, their total)."""
    states = {(n, 0, 0): 1}
    for face in range(sides, 0, -1):
        nxt = {}
        for (left, kept, total), ways in states.items():
            counts = [left] if face == 1 else range(left + 1)
            for k in counts:
                taken = min(k, keep - kept)
                st = (left - k, kept + taken, total + taken * face)
                nxt[st] = nxt.get(st, 0) + ways * math.comb(left, k)
        states = nxt
    out = {}
    for (_, _, total), ways in states.items():
        out[str(total)] = out.get(str(total), 0) + Fraction(ways, sides ** n)
    return out


def exact_opposed(n, sides, at_least):
    """count(roll n dS >= t) - count(roll n dS >= t): two binomials."""
    hit = sides - at_least + 1
    b = [Fraction(math.comb(n, k) * hit ** k * (sides - hit) ** (n - k), sides ** n) for k in range(n + 1)]
    out = {}
    for i, pi in enumerate(b):
        for j, pj in enumerate(b):
            out[str(i - j)] = out.get(str(i - j), 0) + pi * pj
    return out


def exact_at_scale(muster):
    """Exact distributions of large pools (muster prob -e, wall time incl.
    process start, best of REPEAT), each checked outcome by outcome against
    an independent exact computation, with the target and, where it can
    answer in time, dicelab -c (which works in floating point)."""
    cases = [("sum(roll 60d6)", lambda: exact_sum(60, 6), 0.020, "sum 60#d6"),
             ("sum(highest(3, roll 60d6))", lambda: exact_highest_sum(3, 60, 6), 0.020, "sum (high 3 60#d6)"),
             ("sum(roll 500d6)", lambda: exact_sum(500, 6), 1.0, "sum 500#d6"),
             ("count(roll 40d10 >= 7) - count(roll 40d10 >= 7)", lambda: exact_opposed(40, 10, 7), 0.020,
              "(count >=7 40#d10) - (count >=7 40#d10)")]
    failures = []
    print(f"exact odds at scale (muster prob -e, wall time incl. process start; best of {REPEAT}, and the spread)")
    for expr, reference, target, dl in cases:
        times = []
        for _ in range(REPEAT):
            r, dt = timed([muster, "prob", "-e", expr, "--json"])
            times.append(dt)
        j = json.loads(r.stdout)
        got = {key(o["value"]): Fraction(o["p"]) for o in j["outcomes"]}
        want = reference()
        agrees = j["exact"] and got == want
        if not agrees:
            failures.append(f"{expr}: muster's exact odds differ from the independent computation")
        best, worst = min(times), max(times)
        met = "met" if best < target else "missed"
        with open(os.path.join(os.environ.get("TMPDIR", "/tmp"), "muster-bench.dl"), "w") as f:
            f.write(dl + "\n")
        try:
            _, ddt = timed(["dicelab", "-c", "-f", f.name], timeout=min(DICELAB_TIMEOUT, 20))
            dtxt = f"dicelab -c {ddt * 1e3:8.1f} ms"
        except subprocess.TimeoutExpired:
            dtxt = f"dicelab -c >{min(DICELAB_TIMEOUT, 20)} s (timeout)"
        print(f"  {expr:48} {best * 1e3:7.1f} ms (to {worst * 1e3:6.1f})  target < {target * 1e3:4.0f} ms "
              f"({met})  {len(got):5} outcomes {'agree' if agrees else 'DISAGREE'}   {dtxt}")
    print()
    return failures


# ---- exact odds of the engine's hard shapes, checked against independent computations ----

SHAPES = os.path.relpath(os.path.join(HERE, "shapes.muster"))   # as the messages name it
HARD_TIMEOUT = 60   # seconds allowed to each run; a run past it is "not exact", not a failure


def exact_hits_total(n, sides, at):
    """shapes.muster hits_total: k of n dice at `at` or more (a binomial), then
    the total of those k on at..sides and of the rest on 1..at-1, each a sum
    of uniform dice shifted, convolved; the value k * 10000 + total."""
    out = {}
    high, low = sides - at + 1, at - 1
    for k in range(n + 1):
        a, b = sums_of(k, high), sums_of(n - k, low)
        base = k * at + (n - k)
        for i, wa in enumerate(a):
            for j, wb in enumerate(b):
                if wa and wb:
                    v = str(k * 10000 + base + i + j)
                    out[v] = out.get(v, 0) + Fraction(math.comb(n, k) * wa * wb, sides ** n)
    return out


def binomial(n, p):
    """P(k successes of n), p a Fraction."""
    return {k: math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)}


def exact_chain(attacks):
    """shapes.muster attack_chain: hit on 3+ (2/3), wound on 4+ (1/2), unsaved on
    1-4 (2/3), damage stands on 1-4 (2/3), each step a binomial of the last."""
    dist = {attacks: Fraction(1)}
    for p in (Fraction(2, 3), Fraction(1, 2), Fraction(2, 3), Fraction(2, 3)):
        nxt = {}
        for n, pn in dist.items():
            for k, pk in binomial(n, p).items():
                nxt[k] = nxt.get(k, 0) + pn * pk
        dist = nxt
    # a check of the reference itself: a chain of binomials is one binomial of the product
    assert dist == binomial(attacks, Fraction(2, 3) * Fraction(1, 2) * Fraction(2, 3) * Fraction(2, 3))
    return {str(k): p for k, p in dist.items() if p}


def convolve_ways(a, b):
    """The ways of each total of two independent parts, as lists from their least totals."""
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def exact_pool_sums(pools):
    """The sum of several pools of dice, (count, sides) each: their ways convolved."""
    ways, low, total = [1], 0, 1
    for n, sides in pools:
        ways = convolve_ways(ways, sums_of(n, sides))
        low += n
        total *= sides ** n
    return {str(low + i): Fraction(w, total) for i, w in enumerate(ways) if w}


def exact_exploding_sum(dice, upto):
    """The sum of `dice` exploding d6 (a 6 is rolled again and added), exact and
    uncut, for every total up to `upto`: one die shows 6k + r (r of 1..5) with
    probability 1/6^(k+1), and no die of a total <= upto shows more than upto, so
    dice cut at upto give those totals exactly. Weights over 6^top."""
    top = upto // 6 + 1
    one = [0] * (upto + 1)
    for v in range(1, upto + 1):
        if v % 6:
            one[v] = 6 ** (top - (v // 6 + 1))
    ways = [1]
    for _ in range(dice):
        ways = convolve_ways(ways, one)[:upto + 1]
    return {str(v): Fraction(w, 6 ** (top * dice)) for v, w in enumerate(ways) if w}


def exact_pursuit(gap, escape, closes):
    """shapes.muster pursuit: a walk of one step a turn, down with probability
    `closes`, up otherwise, caught at 0, escaped at `escape`: the gambler's ruin,
    P(escape from gap) = (1 - r^gap) / (1 - r^escape) with r = closes / (1 - closes)."""
    r = closes / (1 - closes)
    p = gap * Fraction(1, escape) if r == 1 else (1 - r ** gap) / (1 - r ** escape)
    return {"true": p, "false": 1 - p}


def exact_melee(attacker, defender, sides=6):
    """shapes.muster melee: a DP over the strength points left. A drawn round is
    fought again, so the round that counts is the first one not drawn: its odds
    are the round's odds given that it is not a draw (an exact geometric sum)."""
    wins = sum(1 for x in range(1, sides + 1) for y in range(1, sides + 1) if x > y)
    losses = sum(1 for x in range(1, sides + 1) for y in range(1, sides + 1) if x < y)
    w = Fraction(wins, wins + losses)
    f = {}
    for a in range(attacker + 1):
        for d in range(defender + 1):
            if d == 0:
                f[a, d] = Fraction(1) if a > 0 else Fraction(0)
            elif a == 0:
                f[a, d] = Fraction(0)
            else:
                f[a, d] = w * f[a, d - 1] + (1 - w) * f[a - 1, d]
    p = f[attacker, defender]
    return {"true": p, "false": 1 - p}


def exact_hand(cards, k):
    """The sum of k distinct cards of 1..cards: a DP over the cards, each taken
    or not, counting the hands of each size and total; over C(cards, k)."""
    ways = [[0] * (k * cards + 1) for _ in range(k + 1)]
    ways[0][0] = 1
    for c in range(1, cards + 1):
        for n in range(k, 0, -1):
            row, prev = ways[n], ways[n - 1]
            for s in range(k * cards, c - 1, -1):
                row[s] += prev[s - c]
    total = math.comb(cards, k)
    return {str(s): Fraction(w, total) for s, w in enumerate(ways[k]) if w}


def exact_hand_high(cards, k):
    """The highest of k distinct cards of 1..cards: it is m when the other k-1
    are any of the m-1 below it, C(m-1, k-1) hands of C(cards, k)."""
    total = math.comb(cards, k)
    return {str(m): Fraction(math.comb(m - 1, k - 1), total) for m in range(k, cards + 1)}


def run_exact(cmd):
    """One run of `muster prob ... --exact --json`: (json or None, seconds, why not exact)."""
    t0 = time.perf_counter()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=HARD_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - t0, f"no answer in {HARD_TIMEOUT} s (timeout)"
    dt = time.perf_counter() - t0
    if r.returncode != 0:
        return None, dt, (r.stderr.strip() or f"exit status {r.returncode}").splitlines()[0]
    j = json.loads(r.stdout)
    if not j["exact"]:
        return None, dt, "answered by simulation"
    return j, dt, None


def compare_within(got, want, tail, dropped):
    """Whether muster's odds `got` are the exact odds `want` (with `tail`, the
    exact probability of the values `want` leaves out) less at most the share
    muster reports as cut off: every value within `dropped` of the exact one,
    the values left out less than `dropped` together, and muster's outcomes
    and the cut-off share adding up to 1. With nothing cut off this is
    equality, value for value."""
    if sum(got.values()) + dropped != 1 or tail > dropped:
        return False
    return all(abs(got.get(v, 0) - want.get(v, 0)) <= dropped for v in set(got) | set(want))


def exact_hard_shapes(muster):
    """Exact odds of shapes that are hard for the exact engine: chains of
    pools whose size is rolled, sums of many mixed pools, open-ended and
    self-repeating recursions, a draw from a big bag. Each is asked with
    `muster prob ... --exact --json` (wall time incl. process start, best of
    REPEAT) and checked outcome by outcome against an independent exact
    computation. Exact odds that differ are a failure; a case muster refuses,
    or does not answer exactly within HARD_TIMEOUT, is only reported as not
    exact (the engine does not count all of them exactly yet)."""
    def finite(reference):
        return lambda got: (reference(), 0)

    def exploding(got):
        # One exploding die cut exactly as muster cuts it is hard to mirror, so
        # the reference is the uncut (infinite) answer: each total muster lists
        # must be within the share muster reports as cut off of the exact one,
        # and the exact probability of the totals past its highest below it.
        upto = max([int(v) for v in got] + [5])
        want = exact_exploding_sum(5, upto)
        return want, 1 - sum(want.values())

    cases = [
        ("attack_chain attacks=20", [SHAPES, "attack_chain", "attacks=20"], finite(lambda: exact_chain(20)), 0.020),
        ("attack_chain attacks=60", [SHAPES, "attack_chain", "attacks=60"], finite(lambda: exact_chain(60)), 0.200),
        ("sum(roll 5d6) + sum(roll 5d8) + sum(roll 5d10) + sum(roll 5d12)",
         ["-e", "sum(roll 5d6) + sum(roll 5d8) + sum(roll 5d10) + sum(roll 5d12)"],
         finite(lambda: exact_pool_sums([(5, 6), (5, 8), (5, 10), (5, 12)])), 0.010),
        ("five_exploding", [SHAPES, "five_exploding"], exploding, 0.010),
        # the pursuit and the melee go on for ever on some paths (the walk back
        # and forth, the drawn rounds): the references are the exact, uncut
        # answers, and a cut-off share muster reports is compared as for the
        # exploding dice, each outcome within it
        ("pursuit gap=50", [SHAPES, "pursuit", "gap=50"], finite(lambda: exact_pursuit(50, 100, Fraction(51, 100))),
         0.050),
        ("melee attacker=6 defender=5", [SHAPES, "melee", "attacker=6", "defender=5"],
         finite(lambda: exact_melee(6, 5)), 0.050),
        ("hand (sum(draw 5 from Cards), 1..52)", [SHAPES, "hand"], finite(lambda: exact_hand(52, 5)), 0.050),
        ("hand_high (highest(draw 5 from Cards), 1..52)", [SHAPES, "hand_high"],
         finite(lambda: exact_hand_high(52, 5)), 0.050),
        ("sum(roll 10d100)", ["-e", "sum(roll 10d100)"], finite(lambda: exact_sum(10, 100)), 0.010),
        ("count(roll 10d100 >= 90)", ["-e", "count(roll 10d100 >= 90)"],
         finite(lambda: {str(k): p for k, p in binomial(10, Fraction(11, 100)).items()}), 0.010),
        ("highest(roll 6d100)", ["-e", "highest(roll 6d100)"],
         finite(lambda: {str(m): Fraction(m ** 6 - (m - 1) ** 6, 100 ** 6) for m in range(1, 101)}), 0.050),
        ("hits_total (count(p >= 90), then sum(p), of 10d100)", [SHAPES, "hits_total"],
         finite(lambda: exact_hits_total(10, 100, 90)), 0.050),
        ("doubles(roll 10d100)", ["-e", "doubles(roll 10d100)"],
         finite(lambda: {"false": Fraction(math.perm(100, 10), 100 ** 10),
                         "true": 1 - Fraction(math.perm(100, 10), 100 ** 10)}), 0.010),
    ]
    failures = []
    print(f"exact odds of the engine's hard shapes (muster prob ... --exact, wall time incl. process start; "
          f"best of {REPEAT})")
    for label, args, reference, target in cases:
        cmd = [muster, "prob", *args, "--exact", "--json"]
        j, best, why = run_exact(cmd)
        for _ in range(REPEAT - 1):
            if j is None or best > 2.0:   # a refusal, or a run too slow to repeat
                break
            j2, dt, why2 = run_exact(cmd)
            if j2 is None:
                j, why = None, why2
                break
            best = min(best, dt)
        head = f"  {label:64} {best * 1e3:8.1f} ms  target < {target * 1e3:4.0f} ms"
        if j is None:
            print(f"{head} (missed)  not exact: {why}")
            continue
        got = {key(o["value"]): Fraction(o["p"]) for o in j["outcomes"]}
        dropped = Fraction(j.get("dropped", "0"))
        want, tail = reference(got)
        agrees = compare_within(got, want, tail, dropped)
        if not agrees:
            failures.append(f"{' '.join(cmd[1:])}: muster's exact odds differ from the independent computation")
        met = "met" if agrees and best < target else "missed"
        cut = f"  cut off {float(dropped):.3g} (compared within it)" if dropped else ""
        print(f"{head} ({met})  {len(got):5} outcomes {'agree' if agrees else 'DISAGREE'}{cut}")
    print()
    return failures


def main():
    muster, cbin = sys.argv[1], sys.argv[2]
    failures = []
    if os.environ.get("BENCH_ONLY_EXACT"):   # the two sections of exact odds only, no simulations
        failures += exact_at_scale(muster)
        failures += exact_hard_shapes(muster)
        if failures:
            print("DISAGREEMENTS:\n  " + "\n  ".join(failures))
            return 1
        print("muster's exact odds agree with the independent computations")
        return 0
    print(f"trials: muster {N_MUSTER} ({N_UNSPEC} unspecialized), C {N_FAST}, Lua {N_LUA}, Python {N_PY}, "
          f"dicelab -e {N_DICELAB}; "
          f"agreement: every outcome within {ZMAX} standard errors of muster's exact odds\n")
    hdr = f"{'case':18} {'implementation':16} {'trials':>8} {'ns/trial':>9} {'x C':>7} {'max |z|':>8}  ok"
    print(hdr)
    print("-" * len(hdr))
    exact_times = []
    results = {}
    for name, file, proc, args, desc in cases():
        ref, exact_dt, is_exact = muster_exact(muster, file, proc, args)
        exact_times.append((name, exact_dt, is_exact))
        one, two = muster_threads(muster, file, proc, args, N_MUSTER)
        runs = [
            ("C -O2", *peer_sim([os.path.join(cbin, name)], N_FAST), N_FAST),
            ("muster 1 thread", *one, N_MUSTER),
            ("muster 2 threads", *two, N_MUSTER),
            ("muster unspec.", *muster_sim(muster, file, proc, args, N_UNSPEC, 1, ["--no-specialize"]), N_UNSPEC),
            ("Lua 5.4", *peer_sim(["lua5.4", os.path.join(PEERS, "lua", name + ".lua")], N_LUA), N_LUA),
            ("Python 3", *peer_sim(["python3", os.path.join(PEERS, "python", name + ".py")], N_PY), N_PY),
        ]
        dl = os.path.join(PEERS, "dicelab", name + ".dl")
        if os.path.exists(dl):
            runs.append(("dicelab -e", *dicelab_sim(dl, N_DICELAB), N_DICELAB))
        c_ns = runs[0][2]
        results[name] = {impl: ns for impl, _, ns, _ in runs}
        for impl, counts, ns, n in runs:
            z = check(counts, ref)
            ok = z <= ZMAX
            if not ok:
                failures.append(f"{name}: {impl} disagrees (max |z| = {z:.2f}): {sorted(counts.items())}")
            print(f"{name:18} {impl:16} {n:>8} {ns:>9.1f} {ns / c_ns:>7.2f} {z:>8.2f}  {'ok' if ok else 'FAIL'}")
        print()

    print("muster start-up (the same command with --trials 1: process start, compiling, specializing)")
    print(f"(ns/trial above is the marginal cost of a trial: the time of {N_MUSTER} trials less that of one")
    print(f" block of {SIM_BLOCK} per thread, over the difference, so start-up and starting threads are left out)")
    for name, file, proc, args, desc in cases():
        print(f"  {name:18} {STARTUP[(file, proc)] * 1e3:8.1f} ms")
    print()

    print("targets (simulation, ns/trial of the loop; 2 threads: the median of the rounds' ratios)")
    for name, file, proc, args, desc in cases():
        r = results[name]
        m1, lua, c = r["muster 1 thread"], r["Lua 5.4"], r["C -O2"]
        vs_lua = lua / m1
        scale = SCALING[(file, proc)]
        line = (f"  {name:18} Lua/muster {vs_lua:5.2f} ({'met' if vs_lua >= 3 else 'missed'})"
                f"   muster/C {m1 / c:6.2f} ({'met' if m1 / c <= 3 else 'missed'})"
                f"   2 threads {scale:4.2f}x ({'met' if scale >= 1.8 else 'missed'})")
        print(line)
    print()

    print("exact odds (muster prob without --trials, wall time incl. process start)")
    for name, dt, is_exact in exact_times:
        print(f"  {name:18} {dt * 1e3:8.1f} ms  {'exact' if is_exact else 'NOT exact (simulated reference)'}")
    print()

    print("exact distributions: muster vs dicelab -c (wall time)")
    exprs = [("count(roll 9d6 >= 4)", ["-e", "count(roll 9d6 >= 4)"], "volley9.dl"),
             ("REBS volley (rebs_volley.dl)", ["rules/rebs.muster", "fire_hits", "card=8", "band=c"],
              "rebs_volley.dl"),
             ("count(roll 6d10 > 4) (forr_shoot.dl)", ["-e", "count(roll 6d10 > 4)"], "forr_shoot.dl")]
    for label, margs, dl in exprs:
        _, mdt = timed([muster, "prob", *margs, "--json"])
        try:
            _, ddt = timed(["dicelab", "-c", "-f", os.path.join(PEERS, "dicelab", dl)], timeout=DICELAB_TIMEOUT)
            dtxt = f"{ddt * 1e3:10.1f} ms"
            ratio = f"{ddt / mdt:.0f}x"
        except subprocess.TimeoutExpired:
            dtxt = f"  >{DICELAB_TIMEOUT} s (timeout)"
            ratio = f">{DICELAB_TIMEOUT / mdt:.0f}x"
        print(f"  {label:36} muster {mdt * 1e3:7.1f} ms   dicelab -c {dtxt}   muster faster by {ratio}")
    print()

    print(f"exact 60-die volleys (wall time incl. process start; best of {REPEAT})")
    # each with the same command on one die, whose time is mostly start-up and compiling
    volleys = [("count(roll 60d6 >= 4)", ["-e", "count(roll 60d6 >= 4)"], ["-e", "count(roll 1d6 >= 4)"]),
               ("REBS fire_hits card=60", ["rules/rebs.muster", "fire_hits", "card=60", "band=c"],
                ["rules/rebs.muster", "fire_hits", "card=1", "band=c"]),
               ("REBS fire_loss_steps card=60", ["rules/rebs.muster", "fire_loss_steps", "card=60", "band=c"],
                ["rules/rebs.muster", "fire_loss_steps", "card=1", "band=c"])]
    for label, margs, one in volleys:
        _, base = best_of([muster, "prob", *one, "--json"])
        best = math.inf
        for _ in range(REPEAT):
            t0 = time.perf_counter()
            r = subprocess.run([muster, "prob", *margs, "--json"], capture_output=True, text=True)
            best = min(best, time.perf_counter() - t0)
        if r.returncode == 0 and json.loads(r.stdout).get("exact"):
            print(f"  {label:30} exact in {best * 1e3:7.1f} ms (engine about {(best - base) * 1e3:.1f} ms "
                  f"beyond a one-die run's {base * 1e3:.1f} ms)")
        else:
            msg = (r.stderr.strip() or "answered by simulation, not exact").splitlines()
            print(f"  {label:30} not exact by default ({best * 1e3:.1f} ms): {msg[0]}")
    print()

    failures += exact_at_scale(muster)
    failures += exact_hard_shapes(muster)

    if failures:
        print("DISAGREEMENTS:\n  " + "\n  ".join(failures))
        return 1
    print("all implementations agree with muster's exact odds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
