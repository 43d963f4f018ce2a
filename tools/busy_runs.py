"""Run the notebook and browser tests several times in a row on a machine kept busy, and report each run.

A test that passes on a quiet machine may fail on a loaded one (a kernel cuts a printed line into two
messages, a server starts late, a port is taken meanwhile). This script makes the load itself: it starts
``--spinners`` background processes that spin on the CPU (``python -c 'while True: pass'``, their output
sent to /dev/null so nothing waits on them), runs ``pytest -m "notebooks or browser"`` ``--runs`` times,
one after another, then stops the spinners by their PIDs (also when a run is interrupted).

Usage (from the repository, with the test extra installed, as ``make busy-runs`` does)::

    python tools/busy_runs.py [--runs 5] [--spinners 2] [--split-streams] [--report build/busy_runs.md]

``--split-streams`` also sets ``RAGMATH_SPLIT_STREAMS=1``, so every test reads its notebooks with each
printed message cut as a busy kernel may cut it (tests/outputs.py). Exit 0 when every run passed, 1 if
any failed. The report (Markdown) lists each run's exit code, its pytest summary line and its time.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SELECTION = "notebooks or browser"
SPIN = "while True: pass"


def start_spinners(count: int) -> list[subprocess.Popen]:
    """``count`` processes that keep one core each busy until stopped."""
    quiet = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    return [subprocess.Popen([sys.executable, "-c", SPIN], start_new_session=True, **quiet)
            for _ in range(count)]


def stop_spinners(spinners: list[subprocess.Popen]) -> None:
    """Stop each spinner by its PID and wait for it (a spinner already gone is fine)."""
    for spinner in spinners:
        try:
            os.kill(spinner.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        spinner.wait()


def run_once(extra_env: dict[str, str], pytest_args: list[str]) -> dict:
    """One pytest run of the selection: its exit code, summary line, time and the names of failed tests."""
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", SELECTION,
                           "-rf", *pytest_args],
                          cwd=ROOT, env={**os.environ, **extra_env}, capture_output=True, text=True)
    seconds = time.monotonic() - started
    lines = done.stdout.strip().splitlines()
    summary = next((line.strip("= ") for line in reversed(lines) if re.search(r"\d+ (passed|failed)", line)),
                   "(no pytest summary)")
    failed = [line.split()[1] for line in lines if line.startswith(("FAILED ", "ERROR "))]
    return {"returncode": done.returncode, "summary": summary, "seconds": seconds, "failed": failed,
            "tail": "\n".join(lines[-30:])}


def report(results: list[dict], spinners: int, split: bool) -> str:
    """The runs as a Markdown table, with the machine and the load they ran under."""
    head = [f"# {len(results)} runs of `pytest -m \"{SELECTION}\"` on a busy machine", "",
            f"- machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
            f"- load: {spinners} processes spinning on the CPU for the whole time",
            "- stream messages cut as a busy kernel may cut them (RAGMATH_SPLIT_STREAMS=1): "
            + ("yes" if split else "no"),
            "", "| run | exit code | pytest summary | time |", "|---|---|---|---|"]
    rows = [f"| {n} | {r['returncode']} | {r['summary']} | {r['seconds'] / 60:.1f} min |"
            for n, r in enumerate(results, start=1)]
    failures = [f"- run {n}: {', '.join(r['failed']) or r['tail']}" for n, r in enumerate(results, start=1)
                if r["returncode"] != 0]
    return "\n".join([*head, *rows, *(["", "Failures:", *failures] if failures else []), ""])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="how many runs, one after another (default 5)")
    parser.add_argument("--spinners", type=int, default=2, help="processes spinning on the CPU (default 2)")
    parser.add_argument("--split-streams", action="store_true",
                        help="also cut every printed message as a busy kernel may (RAGMATH_SPLIT_STREAMS=1)")
    parser.add_argument("--report", type=Path, default=ROOT / "build" / "busy_runs.md",
                        help="where the Markdown report goes (default build/busy_runs.md)")
    parser.add_argument("pytest_args", nargs="*", help="more arguments for pytest (after --)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.spinners < 0:
        parser.error("--runs must be at least 1 and --spinners at least 0")
    extra_env = {"RAGMATH_SPLIT_STREAMS": "1"} if args.split_streams else {}
    results = []
    spinners = start_spinners(args.spinners)
    try:
        for n in range(1, args.runs + 1):
            print(f"run {n} of {args.runs} (spinners: {', '.join(str(s.pid) for s in spinners) or 'none'})",
                  flush=True)
            results.append(run_once(extra_env, args.pytest_args))
            print(f"  exit {results[-1]['returncode']}: {results[-1]['summary']} "
                  f"({results[-1]['seconds'] / 60:.1f} min)", flush=True)
    finally:
        stop_spinners(spinners)
    text = report(results, args.spinners, args.split_streams)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(text, encoding="utf-8")
    print(text)
    return 0 if all(r["returncode"] == 0 for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
