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
import sys
from pathlib import Path

import pandas as pd

from ragmath.lab.corpus import split_manifest, split_problems
from ragmath.lab.holdout import added_with_holdout


def main(argv: list[str] | None = None) -> int:
    """Print (or with --check, verify) the stored split; return the process exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the split breaks its rule")
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parent)
    args = parser.parse_args(argv)
    manifest = split_manifest(args.data, with_answerable=False)
    problems = split_problems(manifest)
    holdout = set(manifest.loc[manifest["split"] == "holdout", "question_id"])
    added = (added_with_holdout("questions.jsonl", "question_id", args.data)
             if args.data.resolve() == Path(__file__).resolve().parent else None)
    sealed = None if added is None else set(added)
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
