"""Re-run the holdout's opening 1 at its recorded commit; confirm the stored result (make verify-holdout).

Usage::

    python tools/verify_holdout.py            # check: exit 0 when everything matches, 1 otherwise
    python tools/verify_holdout.py --write    # store opening 1's results from the re-run, and the record
                                              # with its record_sha256 (nothing else is written)

What it does, learning nothing new (the opening is the one already counted, with the same design):

1. reads ``data/holdout_openings.json`` (a :mod:`ragmath.seal` record) and checks that the sealed hashes
   of ``questions.jsonl`` and ``qrels.csv`` are those of the files in the sealing commit;
2. checks out opening 1's recorded commit in a temporary git worktree, gives it the record as it stood at
   the opening (so the code of that commit finds the opening on record and reproduces it, instead of
   recording one), and runs that commit's own opening of the frozen design there, in a subprocess;
3. confirms that commit computed the recorded design hash, that the tables it built (the summary and the
   per-type table) are what this code rebuilds from the per-question rows (``stored_result``), and that
   the per-question rows written as ``ragmath.seal`` writes them have the recorded SHA-256 (or, with
   ``--write``, stores them and their hash in the record: done once, to move the opening to the seal);
4. checks the record's ``record_sha256`` (``ragmath.seal`` refuses a record without it; ``--write``
   writes the record with it, after the checks above pass);
5. removes the worktree.

It needs git and the repository's history; it takes a few minutes. It is not part of ``make test``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ragmath.lab.holdout import OPENINGS_FILE, design_of, stored_result  # noqa: E402
from ragmath.seal import content_sha256, write_results  # noqa: E402

# Run inside the worktree, with that commit's code: its own opening (reproduced, not recorded).
AT_THE_COMMIT = """
import pickle, sys
try:
    from ragmath.lab.holdout import design_fingerprint, frozen_design, open_holdout
except ImportError:  # the layout before ragmath.lab
    from ragmath.holdout import design_fingerprint, frozen_design, open_holdout
run = open_holdout(frozen_design())
frames = {"per_question": run.result.per_question, "table": run.result.table, "by_type": run.result.by_type}
with open(sys.argv[1], "wb") as handle:
    pickle.dump({"fingerprint": design_fingerprint(frozen_design()), "times_opened": run.times_opened,
                 **frames}, handle)
"""


def _git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true",
                        help="store opening 1's results and the record with its record_sha256")
    args = parser.parse_args(argv)
    record_path = ROOT / "data" / OPENINGS_FILE
    record = json.loads(record_path.read_text(encoding="utf-8"))
    stored_record_sha256 = record.pop("record_sha256", None)
    sealed, opening = record["sealed"], record["openings"][0]
    problems = []
    for name, file in (("questions", "questions.jsonl"), ("labels", "qrels.csv")):
        at_seal = _sha(subprocess.run(["git", "show", f"{sealed['commit']}:data/{file}"], cwd=ROOT,
                                      check=True, capture_output=True).stdout)
        if sealed.get(f"{name}_sha256") != at_seal:
            problems.append(f"sealed {name}_sha256 is not the hash of data/{file} in the sealing commit")
    with tempfile.TemporaryDirectory(prefix="verify-holdout-") as tmp:
        tree, out = Path(tmp) / "tree", Path(tmp) / "frames.pkl"
        _git("worktree", "add", "--detach", str(tree), opening["commit"])
        try:
            then = {k: opening[k] for k in ("number", "opened_at", "commit", "design_sha256")}
            as_opened = {"sealed": {k: sealed[k] for k in ("commit", "date", "subject")},
                         "openings": [then | {"design": opening["design"]["design"]}]}
            (tree / "data" / OPENINGS_FILE).write_text(json.dumps(as_opened, indent=2) + "\n",
                                                      encoding="utf-8")
            env = {**os.environ, "PYTHONPATH": str(tree), "MPLBACKEND": "Agg"}
            subprocess.run([sys.executable, "-c", AT_THE_COMMIT, str(out)], cwd=tree, env=env, check=True)
            with out.open("rb") as handle:
                frames = pickle.load(handle)
        finally:
            _git("worktree", "remove", "--force", str(tree))
        if frames["fingerprint"] != opening["design_sha256"] or frames["times_opened"] != 1:
            problems.append("the commit's design hash or opening count differs from the record")
        rebuilt = stored_result(frames["per_question"], design_of(opening))  # the design of then
        for name in ("table", "by_type"):
            try:
                pd.testing.assert_frame_equal(getattr(rebuilt, name), frames[name])
            except AssertionError as exc:
                problems.append(f"the {name} rebuilt from the per-question rows differs: {exc}")
        results_file = opening.get("results_file") or f"{record_path.stem}.opening-1.jsonl"
        digest = write_results(frames["per_question"], Path(tmp) / results_file)
        written = []
        if args.write and not problems and opening.get("results_sha256") is None:  # once: onto the seal
            write_results(frames["per_question"], record_path.with_name(results_file))
            opening.update(results_file=results_file, results_sha256=digest)
            written.append(f"data/{results_file}")
        if digest != opening.get("results_sha256"):
            problems.append(f"the re-run's per-question results hash {digest[:12]}, the record says "
                            f"{str(opening.get('results_sha256'))[:12]}")
        elif _sha(record_path.with_name(results_file).read_bytes()) != digest:
            problems.append(f"data/{results_file} does not have the recorded hash")
        record_sha256 = content_sha256(record)
        if stored_record_sha256 != record_sha256 and args.write and not problems:
            record["record_sha256"] = record_sha256  # as ragmath.seal writes it: last, of all the rest
            record_path.write_text(json.dumps(record, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
            written.append(f"data/{OPENINGS_FILE} (record_sha256 {record_sha256[:12]})")
        elif stored_record_sha256 != record_sha256:
            problems.append(f"data/{OPENINGS_FILE} has no record_sha256 or a stale one, and ragmath.seal "
                            "refuses it: restore it (git checkout), or add it with --write")
    for problem in problems:
        print(f"verify-holdout: {problem}", file=sys.stderr)
    if not problems:
        print(f"verify-holdout: opening 1 re-run at {opening['commit'][:12]} reproduces the stored result "
              f"(design {opening['design_sha256'][:12]}, results {digest[:12]}, record {record_sha256[:12]})"
              + (f"; written: {', '.join(written)}" if written else ""))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
