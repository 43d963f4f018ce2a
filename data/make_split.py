"""Recompute the grouped dev/holdout split of data/questions.jsonl and store it in the `split` field.

Usage (from the repository root):
    .venv/bin/python data/make_split.py          # rewrite questions.jsonl with the recomputed split
    .venv/bin/python data/make_split.py --check  # exit 1 if the stored split differs

The split is ragmath.grouped_split over each question's `group` (where its answer lives), with the
seed and holdout fraction of data/config.json, so near-duplicate questions land on the same side.
Only the `split` field is rewritten; every other field and the line order are kept.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

from ragmath.corpus import load_config, recompute_split


def main(argv: list[str] | None = None) -> int:
    """Rewrite (or with --check, verify) the stored split; return the process exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare, do not write")
    parser.add_argument("--data", type=Path, default=Path(__file__).resolve().parent)
    args = parser.parse_args(argv)
    path = args.data / "questions.jsonl"
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    frame = pd.DataFrame({"question_id": [r["question_id"] for r in records],
                          "group": [r["group"] for r in records]})
    split = recompute_split(frame, load_config(args.data))
    changed = [r["question_id"] for r in records if r.get("split") != split[r["question_id"]]]
    if args.check:
        if changed:
            print(f"stored split differs from the recomputed one for {changed}", file=sys.stderr)
            return 1
        print("stored split equals the recomputed split")
        return 0
    for record in records:
        record["split"] = split[record["question_id"]]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records),
                    encoding="utf-8")
    counts = pd.Series(split).value_counts()
    print(f"wrote {path.name}: {counts.get('dev', 0)} dev, {counts.get('holdout', 0)} holdout "
          f"({len(changed)} changed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
