"""Benchmark: the frozen design's ablation with row B on stored e5 vectors, against the n-gram SVD.

Issue #35's target: an ablation run with stored vectors takes at most 1.2 x the run it replaced (the same
design with ``embedder="char-ngram"``, the n-gram SVD fitted per identity). Each round runs both, in an
order that alternates between rounds, each in a fresh process (imports and the data loaded before the
clock starts; the indexes built inside it), dev questions, answers included, as notebook 06a runs it.
Prints every round's times and ratio, and the median ratio against the target, with the load average (the
machines are shared). A benchmark, not a test: it never fails on time.

Usage: ``python bench/bench_ablation.py [--repeats 5]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

TARGET = 1.2

ONE_RUN = """
import sys, time
from dataclasses import replace
from ragmath.lab.ablation import run_ablation
from ragmath.lab.corpus import load_dataset
from ragmath.lab.holdout import frozen_design
design, data = replace(frozen_design(), embedder=sys.argv[1]), load_dataset()
start = time.perf_counter()
run_ablation(design, data)
print(time.perf_counter() - start)
"""


def seconds(embedder: str) -> float:
    """One ablation run's wall-clock seconds, in a fresh process."""
    out = subprocess.run([sys.executable, "-c", ONE_RUN, embedder], check=True, capture_output=True,
                         text=True, env={**os.environ, "MPLBACKEND": "Agg"})
    return float(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="rounds (each runs both embedders once)")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    ratios = []
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for round_number in range(args.repeats):
        order = ("e5", "char-ngram") if round_number % 2 == 0 else ("char-ngram", "e5")
        times = {embedder: seconds(embedder) for embedder in order}
        ratios.append(times["e5"] / times["char-ngram"])
        print(f"round {round_number + 1}: e5 {times['e5']:.2f} s, char-ngram {times['char-ngram']:.2f} s, "
              f"ratio {ratios[-1]:.2f}")
    median = statistics.median(ratios)
    verdict = "met" if median <= TARGET else "not met"
    print(f"median ratio e5 / char-ngram: {median:.2f} (target <= {TARGET}: {verdict}); "
          f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
