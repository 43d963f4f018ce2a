"""Seal a holdout before anything runs on it, open it once, and show the stored result afterwards.

A seal is a JSON record, ``{"sealed": {"questions_sha256", "labels_sha256", "date", "commit", "note"},
"openings": [{"number", "opened_at", "commit", "design", "design_sha256", "results_file",
"results_sha256", "files"}], "record_sha256"}``, with each opening's per-question results in a JSON-lines
file beside it, named after the whole record name (``hold.json`` -> ``hold.json.opening-1.jsonl``), and
any other file the opening wrote (``files``: name -> SHA-256, e.g. ``hold.json.opening-1.e5.npy``). An opening
is on record, under the seal's lock (:func:`ragmath.io.writers.locked`), before its design runs, so every
run counts; one that stored no result says why in its ``state``. ``record_sha256`` (SHA-256 of the rest)
detects an accidental edit of the record; it does not stop a deliberate one, which can recompute it. A
record without it is refused (else removing its openings and its hash would open it again as opening 1),
and a folder holds one record: a second seal beside it, or opening either of two, is refused.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import math
import os
import re
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ragmath.io.writers import atomic_write, locked

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["seal", "open_seal", "show_seal", "Opening", "content_sha256", "write_results", "read_results",
           "git_output", "opening_files", "read_record"]


def content_sha256(source: Any) -> str:
    """SHA-256 (hex) of a file's bytes (a path), or of a value's canonical JSON (sorted keys).

    sha = SHA-256(json.dumps(plain(source), sort_keys=True))

    where plain(v) is v itself for plain JSON (text, numbers, lists, dicts: hashed exactly as before),
    a set's values sorted, a numpy value as its number, a date or Timestamp as ISO 8601 text, and a pandas
    or polars DataFrame as ``{"columns", "rows"}`` (a named or non-default index as columns): the values,
    never the printed text.

    >>> content_sha256({"k": 1}) == content_sha256({"k": 1}) != content_sha256({"k": 2})
    True

    Raises ``TypeError`` for a value with no such form (an arbitrary object).
    """
    if isinstance(source, (str, os.PathLike)):
        return hashlib.sha256(Path(source).read_bytes()).hexdigest()
    return hashlib.sha256(_json(_plain(source)).encode("utf-8")).hexdigest()


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, (str, int, float)):
        return value
    if isinstance(value, Mapping):
        return {(k.item() if isinstance(k, np.generic) else k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((_plain(v) for v in value), key=_json)
    if isinstance(value, np.generic):
        return _plain(value.item())
    if hasattr(value, "isoformat"):  # datetime, date, pandas Timestamp
        return value.isoformat()
    pandas, polars = sys.modules.get("pandas"), sys.modules.get("polars")
    if pandas is not None and value is pandas.NA:
        return None
    if pandas is not None and isinstance(value, pandas.DataFrame):
        plain_index = value.index.equals(pandas.RangeIndex(len(value))) and value.index.name is None
        frame = value if plain_index else value.reset_index()
        rows = list(frame.itertuples(index=False, name=None))
        return {"columns": [str(c) for c in frame.columns], "rows": _plain(rows)}
    if polars is not None and isinstance(value, polars.DataFrame):
        return {"columns": value.columns, "rows": _plain(value.rows())}
    raise TypeError(f"cannot hash a {type(value).__name__} by its values ({value!r:.60}); give plain JSON "
                    "(text, numbers, lists, dicts), sets, numpy values, dates or a DataFrame, or a file path")


def git_output(folder: str | os.PathLike, *args: str, timeout: float = 20) -> str | None:
    """The output of ``git -C folder ARGS``, or None without git, outside a repository or when it fails.

    The one place in ragmath that runs git (a test holds it). Gives up after ``timeout`` seconds (None).

    >>> git_output("/nonexistent", "rev-parse", "HEAD") is None
    True
    """
    try:
        out = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True,
                             timeout=timeout, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout if out.returncode == 0 else None


def _stamp(path: Path) -> dict:
    """The date (UTC) and the commit checked out where ``path`` lives."""
    commit = (git_output(path.resolve().parent, "rev-parse", "HEAD") or "").strip() or "unknown (no git)"
    return {"date": _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(), "commit": commit}


#: How a seal record's text begins: a JSON object whose first key is "sealed" (or "openings").
_RECORD_START = re.compile(rb'\A\s*\{\s*"(sealed|openings)"\s*:')


def _other_records(path: Path) -> list[Path]:
    """The seal records in ``path``'s folder other than ``path`` (known by their first 64 bytes), sorted."""
    others = []
    for entry in sorted(path.parent.iterdir()):
        if entry.name != path.name and entry.is_file():
            with entry.open("rb") as handle:
                if _RECORD_START.match(handle.read(64)):
                    others.append(entry)
    return others


def _read(path: Path) -> dict:
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no seal here; seal the questions and labels first (seal())")
    try:
        record = json.loads(path.read_bytes().decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:  # cut short, or not a seal at all
        raise ValueError(f"{path}: not a readable seal record ({error}); it was cut short or replaced: "
                         "restore it (git checkout)") from None
    if not (isinstance(record, dict) and isinstance(record.get("openings"), list) and record.get("sealed")):
        raise ValueError(f"{path}: not a seal record (needs 'sealed' and an 'openings' list)")
    others = _other_records(path)
    if others:
        names = ", ".join(sorted([path.name, *(other.name for other in others)]))
        raise ValueError(f"{path.parent}: more than one seal record ({names}); a folder holds one, else an "
                         "opening of one is not counted by the other. Keep the record the folder was sealed "
                         "with first (its 'sealed' date, git log) and remove the others")
    stored = record.pop("record_sha256", None)
    if stored is None:
        raise ValueError(f"{path}: the record has no record_sha256, so a record whose openings were removed "
                         "cannot be told from one never opened; restore it (git checkout). A record written "
                         "before record_sha256 existed: check it against its history, then add "
                         "record_sha256 = content_sha256(the record without it)")
    if stored != content_sha256(record):
        raise ValueError(f"{path}: the record was edited after it was written (its record_sha256 differs); "
                         "restore it (git checkout)")
    return record


def read_record(path: str | os.PathLike) -> dict:
    """The seal record at ``path`` (without its ``record_sha256``), after the checks every opening makes.

    Raises ``FileNotFoundError`` if there is none, ``ValueError`` if it is not a record, lacks its
    ``record_sha256`` or was edited, or its folder holds a second record.
    """
    return _read(Path(path))


def _write(path: Path, record: dict) -> None:
    record["record_sha256"] = content_sha256(record)
    atomic_write(path, (json.dumps(record, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    del record["record_sha256"]


def seal(path: str | os.PathLike, *, questions: Any, labels: Any, note: str = "") -> dict:
    """Write a seal record at ``path``: the questions' and labels' hashes, the date and the commit.

    ``questions`` and ``labels`` are files (hashed by their bytes) or values (:func:`content_sha256`).
    Do it before anything runs on them. Raises ``FileExistsError`` if ``path`` already holds a seal,
    also when two calls seal it at once (the lock lets one write), or if its folder holds another seal
    record (a folder holds one record: an opening of a second would not be counted by the first).
    """
    target = Path(path)
    hashes = {"questions_sha256": content_sha256(questions), "labels_sha256": content_sha256(labels)}
    if not target.parent.is_dir():  # else the error would name the lock file beside the seal
        raise FileNotFoundError(f"{target.parent}: no such folder; create it first (the seal {target.name} "
                                "is written there)")
    with locked(target):
        if target.exists():
            raise FileExistsError(f"{target}: already sealed; a seal is written once (choose another path)")
        others = _other_records(target)
        if others:
            raise FileExistsError(f"{target.parent} already holds the seal record {others[0].name}; a folder "
                                  "holds one record, so an opening of a second is not counted by the first. "
                                  f"Open {others[0].name}, or seal a new set in a folder of its own")
        sealed = {**hashes, **_stamp(target), "note": note}
        _write(target, {"sealed": sealed, "openings": []})
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
                f"design {self.record['design_sha256'][:12]}): {done}; openings so far: {self.times_opened}")


def write_results(frame: pd.DataFrame, path: str | os.PathLike) -> str:
    """Write a per-question table as JSON lines (a header, then one row a line); returns its SHA-256.

    Column names that are text or whole numbers are kept as they are (others as their text); a missing
    value is null, and :func:`read_results` gives each column its dtype back (``Int64`` keeps its ``<NA>``).
    Raises ``ValueError`` when a name is given twice (two columns, or a column and an index level).
    """
    import pandas as pd

    names = [*frame.index.names, *frame.columns]
    twice = [name for position, name in enumerate(names) if name is not None and name in names[:position]]
    if twice:  # pandas would raise its own error (or an AttributeError), which names no file
        raise ValueError(f"{os.fspath(path)}: the results name {sorted(map(str, set(twice)))} more than "
                         "once (columns and index levels together); give each column one name")
    flat = frame.reset_index()
    header = {"index": [_label(n) for n in flat.columns[:frame.index.nlevels]],
              "columns": [_label(c) for c in frame.columns],
              "dtypes": [str(flat[c].dtype) for c in flat.columns]}

    def plain(value: Any) -> Any:
        if value is pd.NA:  # a nullable column's missing value (Int64, boolean, string): null
            return None
        value = value.item() if hasattr(value, "item") else value
        if hasattr(value, "isoformat"):  # a Timestamp, NaT as null
            return None if value != value else value.isoformat()
        return None if isinstance(value, float) and math.isnan(value) else value

    lines = [json.dumps(header, ensure_ascii=False)]
    lines += [json.dumps([plain(v) for v in row], ensure_ascii=False) for row in flat.itertuples(index=False)]
    atomic_write(path, ("\n".join(lines) + "\n").encode("utf-8"))
    return content_sha256(path)


def _label(name: Any) -> str | int:
    """A column's name as JSON: text, or a whole number kept a number (so 0 comes back 0, not '0')."""
    name = name.item() if isinstance(name, np.generic) else name
    return name if isinstance(name, (str, int)) and not isinstance(name, bool) else str(name)


def read_results(path: str | os.PathLike, sha256: str) -> pd.DataFrame:
    """Read a table :func:`write_results` wrote, after checking its SHA-256; ``ValueError`` if it differs."""
    import pandas as pd

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


def opening_files(path: str | os.PathLike, number: int, suffixes: Any) -> dict[str, Path]:
    """The paths of the files opening ``number`` of the seal at ``path`` writes: {suffix: path}.

    >>> opening_files("hold/seal.json", 1, [".e5.npy"])[".e5.npy"].name
    'seal.json.opening-1.e5.npy'
    """
    target = Path(path)
    return {suffix: target.with_name(f"{target.name}.opening-{number}{suffix}") for suffix in suffixes}


def _opening(path: Path, entry: dict, times: int, ran: bool) -> Opening:
    if "state" in entry:
        raise ValueError(f"{path}: opening {entry['number']} stored no result ({entry['state']})")
    for name, sha256 in entry.get("files", {}).items():
        found = content_sha256(path.with_name(name)) if path.with_name(name).is_file() else "missing"
        if found != sha256:
            raise ValueError(f"{path.with_name(name)}: SHA-256 {found[:12]} differs from the recorded "
                             f"{sha256[:12]}; a file of opening {entry['number']} was changed or removed. "
                             "Restore it (git checkout)")
    results = read_results(path.with_name(entry["results_file"]), entry["results_sha256"])
    return Opening(entry["number"], results, entry, times, ran)


def show_seal(path: str | os.PathLike, number: int | None = None) -> Opening:
    """The stored result of opening ``number`` (default: the latest), hash-checked; nothing runs.

    Raises ``ValueError`` if the seal was never opened, the opening does not exist or stored no result,
    the stored results' hash differs from the record, or the record was edited.
    """
    target = Path(path)
    entries = _read(target)["openings"]
    if not entries:
        raise ValueError(f"{target}: sealed and never opened; there is no result to show")
    chosen = [e for e in entries if number is None or e["number"] == number]
    if not chosen:
        raise ValueError(f"{target}: no opening number {number}; openings: {[e['number'] for e in entries]}")
    return _opening(target, chosen[-1], len(entries), ran=False)


def _stored(target: Path, fingerprint: str) -> Opening | None:
    entries = _read(target)["openings"]
    done = [e for e in entries if e["design_sha256"] == fingerprint and "state" not in e]
    return _opening(target, done[0], len(entries), ran=False) if done else None


def _in_progress(target: Path) -> str:
    running = [e for e in _read(target)["openings"] if e.get("state") == "running"]
    what = (f"opening {running[-1]['number']} (design {running[-1]['design_sha256'][:12]}, started "
            f"{running[-1]['opened_at']})" if running else "another call")
    return (f"{target}: {what} is in progress and holds the seal's lock; wait for it to end, then call "
            "again (its design's result is then shown, not re-run)")


def open_seal(path: str | os.PathLike, run: Callable[..., pd.DataFrame], design: Mapping[str, Any], *,
              questions: Any, labels: Any, new_opening: bool = False, files: Any = ()) -> Opening:
    """Open the seal: record the opening, run ``run(design)`` once and store its results, or show them.

    design_sha256 = :func:`content_sha256` (design)

    If an opening with this design stored its result, that result is returned (hash checked, nothing
    re-run, nothing counted). Otherwise the questions and labels must still have their sealed hashes;
    the opening is recorded under the seal's lock, then the design runs and its per-question results are
    stored; a run that raises stays on record, counted, with its error as its ``state``. After a first
    opening, another (a different design, or a failed one again) is refused (``RuntimeError``) unless
    ``new_opening=True``, which records a second, counted opening. ``run`` must return a pandas
    DataFrame, one row per question (and version, if any). ``files``: suffixes of further files the run
    writes beside the record (``opening_files``); ``run`` is then called as ``run(design, paths)`` with
    ``paths`` = {suffix: path}, and each file's SHA-256 goes into the opening's ``files``, checked
    whenever the opening is shown (a missing file fails the opening).

    >>> import tempfile, pandas as pd
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = seal(folder / "seal.json", questions={"q1": "?"}, labels={"q1": {"d1": 1}})
    >>> first = open_seal(folder / "seal.json", lambda d: pd.DataFrame({"score": [d["k"]]}), {"k": 1.0},
    ...                   questions={"q1": "?"}, labels={"q1": {"d1": 1}})
    >>> again = open_seal(folder / "seal.json", lambda d: 1 / 0, {"k": 1.0},
    ...                   questions={"q1": "?"}, labels={"q1": {"d1": 1}})
    >>> first.ran, again.ran, again.times_opened, float(again.results["score"].iloc[0])
    (True, False, 1, 1.0)

    Raises ``TypeError`` before anything runs for a design that cannot be recorded, ``BlockingIOError``
    naming the opening in progress when another call holds the seal, and as :func:`show_seal`.
    """
    import pandas as pd

    target, plain = Path(path), _plain(design)
    fingerprint = hashlib.sha256(_json(plain).encode("utf-8")).hexdigest()
    shown = _stored(target, fingerprint)  # without the lock: the record is replaced whole, never half written
    if shown:
        return shown
    with locked(target, wait=0, busy=lambda: _in_progress(target)):
        shown = _stored(target, fingerprint)  # stored by another call in between
        if shown:
            return shown
        record = _read(target)
        entries = record["openings"]
        same = [e for e in entries if e["design_sha256"] == fingerprint]  # none stored a result
        for name, given in (("questions", questions), ("labels", labels)):
            if content_sha256(given) != record["sealed"][f"{name}_sha256"]:
                raise ValueError(f"{target}: the {name} differ from the sealed ones (SHA-256); a seal "
                                 "covers exactly what was sealed. Restore them, or seal the new set as a new "
                                 "holdout")
        if same and not new_opening:
            last = same[-1]
            state = "was interrupted" if last["state"] == "running" else last["state"]
            raise RuntimeError(f"{target}: opening {last['number']} of this design ({last['opened_at']}) "
                               f"{state} and stored no result; it counts. Pass new_opening=True to run it "
                               "again as a new, counted opening, and report both")
        if entries and not new_opening:
            first = entries[0]
            raise RuntimeError(
                f"{target}: opened on {first['opened_at']} with design {first['design_sha256'][:12]}; "
                f"this design ({fingerprint[:12]}) differs. Opening it again makes the holdout a second dev "
                "set: pass new_opening=True to record a second, counted opening, and report both")
        number, stamp = len(entries) + 1, _stamp(target)
        entry = {"number": number, "opened_at": stamp["date"], "commit": stamp["commit"], "design": plain,
                 "design_sha256": fingerprint, "results_file": f"{target.name}.opening-{number}.jsonl",
                 "results_sha256": None, "state": "running"}
        entries.append(entry)
        _write(target, record)
        try:
            paths = opening_files(target, number, files)
            results = run(design, paths) if paths else run(design)
            if not isinstance(results, pd.DataFrame):
                raise TypeError(f"run(design) must return a pandas DataFrame of per-question results, "
                                f"got {type(results).__name__}")
            entry["results_sha256"] = write_results(results, target.with_name(entry["results_file"]))
            missing = [str(p) for p in paths.values() if not p.is_file()]
            if missing:
                raise FileNotFoundError(f"the run did not write {missing}, which files= says it writes")
            if paths:
                entry["files"] = {p.name: content_sha256(p) for p in paths.values()}
            del entry["state"]
        except BaseException as error:
            entry["state"] = f"failed: {type(error).__name__}: {error}"
            raise
        finally:
            _write(target, record)
    return _opening(target, entry, number, ran=True)
