"""The sealed holdout: when it was sealed, the frozen design, and the one counted opening.

The holdout questions were written blind and committed in one sealing commit (its message starts
``holdout: sealed``) before any code ran on them. Every loader in ``ragmath.lab.corpus`` leaves them
out unless told ``include_holdout=True``, and only :func:`open_holdout` says so. Opening runs the
frozen design once and writes a record, ``data/holdout_openings.json``::

    {"sealed": {"commit": ..., "date": ..., "subject": ...},
     "openings": [{"number": 1, "opened_at": ..., "commit": ..., "design_sha256": ..., "design": {...}}]}

Running the same frozen design again (a notebook re-executed) reproduces that opening and counts
nothing new. A different design is refused unless ``new_opening=True``, which records a second,
counted opening: the holdout has then served as a second dev set, and the record says so.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import subprocess
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

import pandas as pd

from ragmath.lab.ablation import AblationConfig, AblationResult, run_ablation
from ragmath.lab.corpus import corpus_hash, data_dir, load_config, load_dataset, split_manifest

__all__ = [
    "OPENINGS_FILE",
    "HoldoutRun",
    "sealing_record",
    "frozen_design",
    "design_fingerprint",
    "openings",
    "open_holdout",
    "holdout_counts",
]

OPENINGS_FILE = "holdout_openings.json"
SEAL_PREFIX = "holdout: sealed"


def _folder(data: Any) -> Path:
    return data_dir() if data is None else Path(data)


def _read_record(folder: Path) -> dict:
    path = folder / OPENINGS_FILE
    if not path.is_file():
        return {"sealed": None, "openings": []}
    record = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(record, dict) or not isinstance(record.get("openings"), list):
        raise ValueError(f"{OPENINGS_FILE}: must be a JSON object with an 'openings' list")
    return record


def _git(folder: Path, *args: str) -> str | None:
    try:
        out = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True,
                             timeout=20, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else None


def sealing_record(data: Any = None) -> dict | None:
    """The sealing commit: ``{"commit", "date", "subject", "source"}``, or None if none is known.

    From git when the data directory is the repository's own and git is available (the newest
    commit whose message starts ``holdout: sealed``), else from the openings record.

    >>> record = sealing_record("/nonexistent")
    >>> record is None
    True
    """
    folder = _folder(data)
    if folder.resolve() == data_dir().resolve():
        line = _git(folder, "log", "-n", "1", "--format=%H%x1f%cI%x1f%s",
                    f"--grep=^{SEAL_PREFIX}", "--", ".")
        if line:
            commit, date, subject = line.split("\x1f")
            return {"commit": commit, "date": date, "subject": subject, "source": "git"}
    if not folder.is_dir():
        return None
    sealed = _read_record(folder).get("sealed")
    return None if sealed is None else {**sealed, "source": OPENINGS_FILE}


def frozen_design(data: Any = None) -> AblationConfig:
    """The design frozen on dev before the holdout was opened (``config.json``, ``frozen_design``).

    Raises ValueError if it is missing or names a field AblationConfig does not have.
    """
    config = load_config(_folder(data))
    design = config.get("frozen_design")
    if design is None:
        raise ValueError("config.json has no frozen_design: tune on dev (notebook 06), then write the "
                         "chosen k, window and rerank_depth there before opening the holdout")
    known = {f.name for f in fields(AblationConfig)}
    unknown = sorted(set(design) - known - {"frozen_on", "note"})
    if unknown:
        raise ValueError(f"config.json frozen_design: unknown field(s) {unknown}; known: {sorted(known)}")
    values = {k: v for k, v in design.items() if k in known}
    if "tuned" in values:
        values["tuned"] = tuple(values["tuned"])
    return AblationConfig(**values)


def design_fingerprint(config: AblationConfig, data: Any = None) -> str:
    """SHA-256 of the design (every AblationConfig field, split set to holdout) and the data files.

    >>> a = design_fingerprint(AblationConfig(k=10))
    >>> a == design_fingerprint(AblationConfig(k=10)), a == design_fingerprint(AblationConfig(k=60))
    (True, False)
    """
    design = asdict(replace(config, split="holdout"))
    blob = json.dumps({"design": design, "data": corpus_hash(_folder(data))}, sort_keys=True,
                      default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def openings(data: Any = None) -> list[dict]:
    """The recorded openings of the holdout, oldest first (empty while it is still sealed)."""
    return list(_read_record(_folder(data))["openings"])


def holdout_counts(data: Any = None) -> pd.DataFrame:
    """Questions per type on each side, and answerable / no-answer, from the split manifest only.

    Reads IDs, types, groups and sides (``ragmath.lab.corpus.split_manifest``): no question text,
    answer or label of the holdout.
    """
    manifest = split_manifest(_folder(data))
    manifest["kind"] = manifest["answerable"].map({True: "answerable questions",
                                                   False: "questions without an answer"})
    table = pd.crosstab(manifest["type"], [manifest["split"]], margins=True, margins_name="total")
    kinds = pd.crosstab(manifest["kind"], manifest["split"], margins=True, margins_name="total")
    groups = manifest.groupby("split")["group"].nunique()
    groups["total"] = manifest["group"].nunique()
    extra = pd.concat([kinds.drop(index="total"), groups.to_frame("groups").T])
    return pd.concat([table, extra])


@dataclass
class HoldoutRun:
    """The result of opening the holdout: the ablation on it, and the opening's record."""

    result: AblationResult
    opening: dict
    times_opened: int
    sealed: dict | None
    design: AblationConfig


def open_holdout(config: AblationConfig, *, data: Any = None, new_opening: bool = False) -> HoldoutRun:
    """Run the frozen design on the holdout, once; record the opening.

    The reranker and the refusal threshold are fitted on all dev questions; the holdout is only
    scored. If an opening with the same design fingerprint is on record, this reproduces it (no
    new opening is counted). If another design was recorded, this refuses with a RuntimeError
    unless ``new_opening=True``, which records a new, counted opening.

    Raises TypeError for a config that is not an AblationConfig, RuntimeError for a changed design
    without ``new_opening``, and ValueError if the data hold no holdout question.
    """
    if not isinstance(config, AblationConfig):
        raise TypeError(f"config must be the frozen AblationConfig, got {type(config).__name__}")
    folder = _folder(data)
    record = _read_record(folder)
    fingerprint = design_fingerprint(config, folder)
    same = [o for o in record["openings"] if o["design_sha256"] == fingerprint]
    sealed = sealing_record(folder)
    if same:
        opening = same[0]
    else:
        if record["openings"] and not new_opening:
            first = record["openings"][0]
            raise RuntimeError(
                f"the holdout was opened on {first['opened_at']} with design {first['design_sha256'][:12]}; "
                f"this design ({fingerprint[:12]}) differs (or the data files changed). Opening it "
                "again makes it a second dev set: pass new_opening=True to record a second, counted "
                "opening, and report both."
            )
        opening = {
            "number": len(record["openings"]) + 1,
            "opened_at": _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
            "commit": _git(folder, "rev-parse", "HEAD") or "unknown (no git)",
            "design_sha256": fingerprint,
            "design": {k: (list(v) if isinstance(v, tuple) else v)
                       for k, v in asdict(replace(config, split="holdout")).items()},
        }
        if record.get("sealed") is None and sealed is not None:
            record["sealed"] = {k: sealed[k] for k in ("commit", "date", "subject")}
        record["openings"].append(opening)
        (folder / OPENINGS_FILE).write_text(json.dumps(record, ensure_ascii=False, indent=2) + "\n",
                                            encoding="utf-8")
    dataset = load_dataset(folder, include_holdout=True)
    result = run_ablation(replace(config, split="holdout"), dataset)
    return HoldoutRun(result, opening, len(record["openings"]), sealed, config)
