"""Seal a holdout before anything runs on it, open it once, and show the stored result afterwards.

A seal is a JSON record, ``{"sealed": {"questions_sha256", "labels_sha256", "date", "commit", "note"},
"openings": [{"number", "opened_at", "commit", "design", "design_sha256", "results_file",
"results_sha256"}]}``, with each opening's per-question results in a JSON-lines file beside it.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import math
import os
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ragmath.io.writers import atomic_write

__all__ = ["seal", "open_seal", "show_seal", "Opening", "content_sha256", "write_results", "read_results"]

def content_sha256(source: Any) -> str:
    """SHA-256 (hex) of a file's bytes (a path), or of an object's canonical JSON (sorted keys).

    >>> content_sha256({"k": 1}) == content_sha256({"k": 1}) != content_sha256({"k": 2})
    True
    """
    if isinstance(source, (str, os.PathLike)):
        return hashlib.sha256(Path(source).read_bytes()).hexdigest()
    return hashlib.sha256(json.dumps(source, sort_keys=True, default=str).encode("utf-8")).hexdigest()


def _stamp(path: Path) -> dict:
    """The date (UTC) and the commit checked out where ``path`` lives."""
    try:
        out = subprocess.run(["git", "-C", str(path.resolve().parent), "rev-parse", "HEAD"],
                             capture_output=True, text=True, timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        out = None
    commit = out.stdout.strip() if out and out.returncode == 0 else "unknown (no git)"
    return {"date": _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(), "commit": commit}


def _read(path: Path) -> dict:
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no seal here; seal the questions and labels first (seal())")
    record = json.loads(path.read_text(encoding="utf-8"))
    if not (isinstance(record, dict) and isinstance(record.get("openings"), list) and record.get("sealed")):
        raise ValueError(f"{path}: not a seal record (needs 'sealed' and an 'openings' list)")
    return record


def seal(path: str | os.PathLike, *, questions: Any, labels: Any, note: str = "") -> dict:
    """Write a seal record at ``path``: the questions' and labels' hashes, the date and the commit.

    ``questions`` and ``labels`` are files (hashed by their bytes) or JSON-able objects. Do it before
    anything runs on them. Raises ``FileExistsError`` if ``path`` already holds a seal.
    """
    target = Path(path)
    if target.exists():
        raise FileExistsError(f"{target}: already sealed; a seal is written once (choose another path)")
    sealed = {"questions_sha256": content_sha256(questions), "labels_sha256": content_sha256(labels),
              **_stamp(target), "note": note}
    atomic_write(target, (json.dumps({"sealed": sealed, "openings": []}, ensure_ascii=False, indent=2)
                           + "\n").encode("utf-8"))
    return sealed


@dataclass(frozen=True)
class Opening:
    """An opening of a seal: its stored per-question results and its record."""

    number: int
    results: pd.DataFrame
    record: dict
    times_opened: int
    ran: bool  # True only for the call that ran the design; False when the stored result is shown

    def __str__(self) -> str:
        done = "ran the design now" if self.ran else "stored result shown, nothing re-run"
        return (f"opening {self.number} ({self.record['opened_at']}, commit {self.record['commit'][:12]}, "
                f"design {self.record['design_sha256'][:12]}): {done}; opened {self.times_opened} time(s)")


def write_results(frame: pd.DataFrame, path: str | os.PathLike) -> str:
    """Write a per-question table as JSON lines (a header, then one row a line); returns its SHA-256."""
    flat = frame.reset_index()
    header = {"index": [str(n) for n in flat.columns[:frame.index.nlevels]],
              "columns": [str(c) for c in frame.columns],
              "dtypes": [str(flat[c].dtype) for c in flat.columns]}

    def plain(value: Any) -> Any:
        value = value.item() if hasattr(value, "item") else value
        return None if isinstance(value, float) and math.isnan(value) else value

    lines = [json.dumps(header, ensure_ascii=False)]
    lines += [json.dumps([plain(v) for v in row], ensure_ascii=False) for row in flat.itertuples(index=False)]
    atomic_write(path, ("\n".join(lines) + "\n").encode("utf-8"))
    return content_sha256(path)


def read_results(path: str | os.PathLike, sha256: str) -> pd.DataFrame:
    """Read a table :func:`write_results` wrote, after checking its SHA-256; ``ValueError`` if it differs."""
    found = content_sha256(path)
    if found != sha256:
        raise ValueError(f"{path}: SHA-256 {found[:12]} differs from the recorded {sha256[:12]}; the stored "
                         "result was changed after its opening. Restore it (git checkout) or re-verify it")
    header, *rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines()]
    names = header["index"] + header["columns"]
    flat = pd.DataFrame(rows, columns=names)
    flat = flat.astype({n: (float if d.startswith("float") else d) for n, d in zip(names, header["dtypes"],
                                                                                   strict=True)})
    return flat.set_index(header["index"])


def _opening(path: Path, entry: dict, times: int, ran: bool) -> Opening:
    results = read_results(path.with_name(entry["results_file"]), entry["results_sha256"])
    return Opening(entry["number"], results, entry, times, ran)


def show_seal(path: str | os.PathLike, number: int | None = None) -> Opening:
    """The stored result of opening ``number`` (default: the latest), hash-checked; nothing runs.

    Raises ``ValueError`` if the seal was never opened, the opening does not exist or the stored
    results' hash differs from the record.
    """
    target = Path(path)
    entries = _read(target)["openings"]
    if not entries:
        raise ValueError(f"{target}: sealed and never opened; there is no result to show")
    chosen = [e for e in entries if number is None or e["number"] == number]
    if not chosen:
        raise ValueError(f"{target}: no opening number {number}; openings: {[e['number'] for e in entries]}")
    return _opening(target, chosen[-1], len(entries), ran=False)


def open_seal(path: str | os.PathLike, run: Callable[[Any], pd.DataFrame], design: Mapping[str, Any], *,
              questions: Any, labels: Any, new_opening: bool = False) -> Opening:
    """Open the seal: run ``run(design)`` once and store its per-question results, or show them.

    design_sha256 = SHA-256 of the design's canonical JSON (sorted keys; :func:`content_sha256`)

    If an opening with this design is on record, its stored result is returned (hash checked, nothing
    re-run, nothing counted). Otherwise the questions and labels must still have their sealed hashes;
    the first opening runs the design, and a different design after it is refused (``RuntimeError``)
    unless ``new_opening=True``, which runs it and records a second, counted opening.
    ``run`` must return a pandas DataFrame, one row per question (and version, if any).

    >>> import tempfile, pandas as pd
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = seal(folder / "seal.json", questions={"q1": "?"}, labels={"q1": {"d1": 1}})
    >>> first = open_seal(folder / "seal.json", lambda d: pd.DataFrame({"score": [d["k"]]}), {"k": 1.0},
    ...                   questions={"q1": "?"}, labels={"q1": {"d1": 1}})
    >>> again = open_seal(folder / "seal.json", lambda d: 1 / 0, {"k": 1.0},
    ...                   questions={"q1": "?"}, labels={"q1": {"d1": 1}})
    >>> first.ran, again.ran, again.times_opened, float(again.results["score"].iloc[0])
    (True, False, 1, 1.0)
    """
    target = Path(path)
    record = _read(target)
    fingerprint = content_sha256(design)
    entries = record["openings"]
    same = [e for e in entries if e["design_sha256"] == fingerprint]
    if same:
        return _opening(target, same[0], len(entries), ran=False)
    for name, given in (("questions", questions), ("labels", labels)):
        if content_sha256(given) != record["sealed"][f"{name}_sha256"]:
            raise ValueError(f"{target}: the {name} differ from the sealed ones (SHA-256); a seal covers "
                             f"exactly what was sealed. Restore them, or seal the new set as a new holdout")
    if entries and not new_opening:
        raise RuntimeError(
            f"{target}: opened on {entries[0]['opened_at']} with design {entries[0]['design_sha256'][:12]}; "
            f"this design ({fingerprint[:12]}) differs. Opening it again makes the holdout a second dev set: "
            "pass new_opening=True to record a second, counted opening, and report both")
    results = run(design)
    if not isinstance(results, pd.DataFrame):
        raise TypeError(f"run(design) must return a pandas DataFrame of per-question results, "
                        f"got {type(results).__name__}")
    number = len(entries) + 1
    results_file = f"{target.stem}.opening-{number}.jsonl"
    stamp = _stamp(target)
    entry = {"number": number, "opened_at": stamp["date"], "commit": stamp["commit"], "design": dict(design),
             "design_sha256": fingerprint, "results_file": results_file,
             "results_sha256": write_results(results, target.with_name(results_file))}
    record["openings"].append(entry)
    atomic_write(target, (json.dumps(record, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    return _opening(target, entry, number, ran=True)
