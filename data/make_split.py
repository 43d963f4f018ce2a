"""Check the dev/holdout split of data/questions.jsonl against its rule; print its counts.

Usage (from the repository root):
    .venv/bin/python data/make_split.py          # print the counts per side and type
    .venv/bin/python data/make_split.py --check  # exit 1 if the stored split breaks the rule

The rule (config.json, ``split_rule``): the questions written while the workbook was built are
dev; the holdout is a separate set written blind and committed in one sealing commit (message
``holdout: sealed ...``) before any code ran on it. So the split is not recomputed from a seed:
it is fixed by authorship. What can be checked: every question is dev or holdout, both sides
exist, and no group (where an answer lives) has questions on both sides. With git at hand,
``--check`` also compares the holdout with the questions the sealing commit added.

This script reads the split's envelope only (IDs, types, groups, sides: no text, no labels).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd

from ragmath.lab.corpus import split_manifest, split_problems


def _sealed_ids(data: Path) -> set[str] | None:
    """Question IDs the sealing commit added to questions.jsonl, or None without git."""
    def git(*args: str) -> str | None:
        try:
            out = subprocess.run(["git", "-C", str(data), *args], capture_output=True, text=True,
                                 timeout=20, check=False)
        except (OSError, subprocess.SubprocessError):
            return None
        return out.stdout if out.returncode == 0 else None

    found = git("log", "-n", "1", "--format=%H", "--grep=^holdout: sealed", "--", "questions.jsonl")
    commit = (found or "").strip()
    if not commit:
        return None
    ids = {}
    for rev in (f"{commit}^", commit):
        text = git("show", f"{rev}:data/questions.jsonl")
        if text is None:
            return None
        ids[rev] = {json.loads(line)["question_id"] for line in text.splitlines() if line.strip()}
    return ids[commit] - ids[f"{commit}^"]


def main(argv: list[str] | None = None) -> int:
    """Print (or with --check, verify) the stored split; return the process exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the split breaks its rule")
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parent)
    args = parser.parse_args(argv)
    manifest = split_manifest(args.data, with_answerable=False)
    problems = split_problems(manifest)
    holdout = set(manifest.loc[manifest["split"] == "holdout", "question_id"])
    sealed = _sealed_ids(args.data) if args.data.resolve() == Path(__file__).resolve().parent else None
    if sealed is not None and sealed != holdout:
        problems.append(f"the holdout differs from the questions the sealing commit added: "
                        f"{sorted(holdout ^ sealed)[:5]}")
    counts = pd.crosstab(manifest["type"], manifest["split"], margins=True, margins_name="total")
    print(counts.to_string())
    if problems:
        for problem in problems:
            print(f"split problem: {problem}", file=sys.stderr)
        return 1 if args.check else 0
    print("the split follows its rule" + ("" if sealed is None else
                                          " (holdout = the questions the sealing commit added)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
