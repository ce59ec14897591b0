"""Shared driver: run trial() n times, print "value count" lines, ns/trial on stderr."""
import random
import sys
import time
from collections import Counter


def run(trial):
    n = int(sys.argv[1])
    random.seed(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    t0 = time.perf_counter_ns()
    counts = Counter(trial() for _ in range(n))
    print(f"{(time.perf_counter_ns() - t0) / n:.2f}", file=sys.stderr)
    for v, c in counts.items():
        print(v, c)
