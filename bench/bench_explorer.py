"""Benchmark: the RRF k explorer's recompute-and-redraw time per change of k.

Builds the explorer in-process with matplotlib's non-interactive Agg backend, then moves the k slider
``--changes`` times (default 50) through a fixed, shuffled sequence of k values. Each timing covers
``k_slider.value = v`` end to end: the rrf table, the HTML table, the lead line, the chart update
and its PNG encoding. Prints the median, p90 and the ratio of the median to the 50 ms target
(ratio < 1 means under target), for wall-clock time and for this process's CPU time, with the
load average (the machines are shared). A benchmark, not a test: it never fails on time.

With ``--sizes`` (default 10 100 300 1000) it also times one edit of a list (the whole rescan and
redraw after the text box changes) and one change of k for lists of that many distinct IDs: the
numbers behind ``ragmath.lab.notebook.widgets.MAX_IDS``. The cap is lifted for these runs, so sizes
past it are timed too (e.g. ``--sizes 3000 10000``).

Usage: ``python bench/bench_explorer.py [--changes 50] [--seed 0] [--sizes 10 100 300 1000]``
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time

import matplotlib

matplotlib.use("Agg")

import ragmath.lab.notebook.widgets as widgets  # noqa: E402
from ragmath.lab.notebook.widgets import K_MAX, K_MIN, build_explorer, format_list  # noqa: E402

TARGET_MS = 50.0


def measure(changes: int = 50, seed: int = 0) -> tuple[list[float], list[float]]:
    """(wall-clock ms, CPU ms of this process) per k change, for ``changes`` changes of the slider.

    CPU time is reported beside wall time because the machines are shared: wall time includes
    waiting for a core, CPU time does not.
    """
    if changes < 2:
        raise ValueError(f"changes must be at least 2, got {changes!r}; use e.g. --changes 50")
    explorer = build_explorer()
    rng = random.Random(seed)
    values = [v for v in range(K_MIN, K_MAX + 1) if v != explorer.k_slider.value]
    rng.shuffle(values)
    # warm-up: first draw of each glyph and font lookups happen here, not in the timed loop
    explorer.k_slider.value = values[-1]
    explorer.k_slider.value = values[-2]
    wall, cpu = [], []
    for value in (values * (changes // len(values) + 1))[:changes]:
        start, start_cpu = time.perf_counter(), time.process_time()
        explorer.k_slider.value = value
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    assert explorer.k_slider.value == value and f'data-k="{value}"' in explorer.table_html.value
    return wall, cpu


def measure_sizes(sizes: list[int], seed: int = 0) -> list[tuple[int, float, float]]:
    """(size, seconds for one list edit, seconds for one change of k) per list size.

    Two lists of ``size`` IDs each (the same IDs, the second shuffled); the edit replaces the
    second list's text. The explorer's MAX_IDS cap is lifted while measuring.
    """
    cap = widgets.MAX_IDS
    widgets.MAX_IDS = max([cap, *sizes])
    try:
        rng = random.Random(seed)
        results = []
        for size in sizes:
            ids = [f"d{i}" for i in range(size)]
            shuffled = ids[:]
            rng.shuffle(shuffled)
            explorer = build_explorer({"BM25": ids, "vector": ids}, k=60)
            start = time.perf_counter()
            explorer.texts["vector"].value = format_list(shuffled)
            edit = time.perf_counter() - start
            start = time.perf_counter()
            explorer.k_slider.value = 61
            move = time.perf_counter() - start
            assert explorer.error is None and 'data-k="61"' in explorer.table_html.value
            results.append((size, edit, move))
        return results
    finally:
        widgets.MAX_IDS = cap


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sizes", type=int, nargs="*", default=[10, 100, 300, 1000])
    args = parser.parse_args(argv)
    wall, cpu = measure(args.changes, args.seed)
    print(f"RRF k explorer, {len(wall)} changes of k (python {platform.python_version()}, Agg, "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)")
    for label, timings in (("wall", wall), ("cpu ", cpu)):
        median = statistics.median(timings)
        p90 = statistics.quantiles(timings, n=10, method="inclusive")[-1]
        print(f"{label}: median {median:.1f} ms   p90 {p90:.1f} ms   min {min(timings):.1f} ms   "
              f"max {max(timings):.1f} ms   median / target ({TARGET_MS:.0f} ms) = "
              f"{median / TARGET_MS:.2f} ({'under' if median < TARGET_MS else 'over'} target)")
    if args.sizes:
        print(f"\nList size (distinct IDs; the explorer's cap is {widgets.MAX_IDS:,}):")
        results = measure_sizes(args.sizes, args.seed)
        smallest_edit = results[0][1]
        for size, edit, move in results:
            print(f"{size:>7,} IDs: one list edit {edit:6.2f} s ({edit / smallest_edit:5.1f}x the "
                  f"{results[0][0]}-ID edit)   one change of k {move * 1000:7.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
