"""Record a run: ask your retriever every question and write what it returned as a run file.

A system is any callable question -> ranked list, best first (IDs, or ``(id, score)`` pairs). :func:`record`
asks it once per question, keeps the top ``depth``, writes the run with :func:`ragmath.io.write_run` (the
format from the file's extension) and a latency CSV beside it (``bm25.trec`` -> ``bm25.latency.csv``), one
row per question: ``question``, ``latency_ms`` (wall-clock, ``time.perf_counter``), ``results`` (how many
were kept; 0 when the call failed) and ``error`` (empty, or the exception's type and message when the call
raised or returned no ranking). A failed question is left out of the run (``evaluate`` then scores it 0) and
the other questions are still asked.
"""

from __future__ import annotations

import math
import numbers
import os
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import polars as pl

from ragmath.io import run_table, write_run
from ragmath.io.writers import atomic_write
from ragmath.lab.messages import message

__all__ = ["record", "latency_path_for"]

_LATENCY_SCHEMA = {"question": pl.String, "latency_ms": pl.Float64, "results": pl.Int64, "error": pl.String}
LATENCY_COLUMNS = tuple(_LATENCY_SCHEMA)


def latency_path_for(run_path: Any) -> Path:
    """The latency CSV beside a run file: the run's name without its extension, plus ``.latency.csv``.

    >>> latency_path_for("runs/bm25.trec").as_posix()
    'runs/bm25.latency.csv'
    """
    path = Path(os.fspath(run_path))
    return path.with_name(path.stem + ".latency.csv")


def _ranking(answer: Any, depth: int | None) -> tuple[list[str], list[float] | None]:
    """(IDs, scores or None) of one answer, best first, cut at ``depth``; an error if it is no ranking."""
    if isinstance(answer, (str, bytes)) or not isinstance(answer, Sequence):
        raise TypeError(message("notebook.record.not_a_ranking", kind=type(answer).__name__))
    items = list(answer)[:depth]
    pairs = [isinstance(item, (tuple, list)) for item in items]
    if any(pairs) and not all(pairs):
        raise ValueError(message("notebook.record.mixed"))
    if not all(pairs) or not items:
        return [_id(item) for item in items], None
    if any(len(item) != 2 for item in items):
        raise ValueError(message("notebook.record.pair_size"))
    ids = [_id(item[0]) for item in items]
    scores = []
    for item_id, score in items:
        if isinstance(score, bool) or not isinstance(score, numbers.Real) or not math.isfinite(score):
            raise ValueError(message("notebook.record.bad_score", item=repr(item_id), score=repr(score)))
        scores.append(float(score))
    rising = next((i for i in range(1, len(scores)) if scores[i] > scores[i - 1]), None)
    if rising is not None:
        raise ValueError(message("notebook.record.rising", rank=rising, before=repr(scores[rising - 1]),
                                 next_rank=rising + 1, after=repr(scores[rising])))
    return ids, scores


def _id(item: Any) -> str:
    if isinstance(item, bool) or not isinstance(item, (str, numbers.Integral)):
        raise TypeError(message("notebook.record.bad_id", kind=type(item).__name__, item=repr(item)))
    return str(item)


def _name(target: Any) -> str:
    return getattr(target, "name", "a stream") if hasattr(target, "write") else os.fspath(target)


def _same_output(one: Any, other: Any) -> bool:
    """Whether two outputs are one: the same stream, both ``"-"``, or paths to the same file."""
    if hasattr(one, "write") or hasattr(other, "write"):
        return one is other
    one, other = os.fspath(one), os.fspath(other)
    return one == other if "-" in (one, other) else os.path.realpath(one) == os.path.realpath(other)


def record(system: Callable[[Any], Any], questions: Mapping[str, Any], path: Any, *,
           depth: int | None = 100, format: str | None = None, tag: str = "ragmath",
           latency_path: Any = None) -> pd.DataFrame:
    """Ask ``system`` every question of ``questions`` (ID -> what the system takes, usually the text) and
    write the run to ``path`` and the per-question latency to ``latency_path`` (default: beside the run).

    Returns the latency table, one row per question in the order given. A ranking of IDs is written with
    ranks (and scores n, ..., 1 in a TREC file), a ranking of ``(id, score)`` pairs with its scores.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> def system(text):
    ...     if text == "boom":
    ...         raise RuntimeError("index offline")
    ...     return [("b", 0.9), ("a", 0.4)]
    >>> table = record(system, {"q1": "taxi fare", "q2": "boom"}, folder / "demo.trec", tag="demo")
    >>> print((folder / "demo.trec").read_text(), end="")
    q1 Q0 b 1 0.9 demo
    q1 Q0 a 2 0.4 demo
    >>> table[["question", "results", "error"]].values.tolist()
    [['q1', 2, ''], ['q2', 0, 'RuntimeError: index offline']]

    Raises ``TypeError`` when ``system`` is not callable or ``questions`` is not a mapping with text IDs,
    ``ValueError`` for a ``depth`` below 1, no question, a ``latency_path`` that is the run's own path
    (before any question is asked), or when every question failed (the latency CSV, naming each failure,
    is written first).
    """
    _check_record_arguments(system, questions, depth)
    latency_path = latency_path_for(path) if latency_path is None else latency_path
    if _same_output(path, latency_path):
        raise ValueError(message("notebook.record.same_path", path=_name(path),
                                 other=_name(latency_path_for(_name(path)))))
    rows, parts = [], []
    for qid, question in questions.items():
        row, part = _ask(system, qid, question, depth)
        if part is not None:
            parts.append(part)
        rows.append(row)
    table = pd.DataFrame(rows, columns=list(LATENCY_COLUMNS))
    _write_latency(rows, latency_path)
    written = [p for p in parts if p.height]
    if not written:
        raise _nothing_to_write(table, latency_path)
    write_run(pl.concat(written, how="vertical"), path, format, tag=tag)
    return table


def _check_record_arguments(system: Any, questions: Any, depth: Any) -> None:
    """Refuse an uncallable system, questions that are no non-empty mapping with text IDs, a bad depth."""
    if not callable(system):
        raise TypeError(message("notebook.record.system_not_callable", kind=type(system).__name__))
    if not isinstance(questions, Mapping):
        raise TypeError(message("notebook.record.questions_not_mapping", kind=type(questions).__name__))
    if not questions:
        raise ValueError(message("notebook.record.no_questions"))
    bad = next((q for q in questions if not isinstance(q, str) or not q), None)
    if bad is not None:
        raise TypeError(message("notebook.record.bad_question_id", given=repr(bad)))
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise ValueError(message("notebook.record.bad_depth", given=repr(depth)))


def _ask(system: Callable[[Any], Any], qid: str, question: Any,
         depth: int | None) -> tuple[tuple[str, float, int, str], pl.DataFrame | None]:
    """Ask one question: its latency row, and its part of the run (None when the call failed)."""
    started = time.perf_counter()
    error, kept, part = "", 0, None
    try:
        answer = system(question)
        elapsed = (time.perf_counter() - started) * 1000
        ids, scores = _ranking(answer, depth)
        part = run_table({qid: ids})  # checks the IDs as a run file's are checked
        if scores is not None:
            part = part.with_columns(pl.Series("score", scores, dtype=pl.Float64))
        kept = len(ids)
    except Exception as exc:  # noqa: BLE001 - one question's failure is recorded, not fatal
        elapsed = (time.perf_counter() - started) * 1000
        error = f"{type(exc).__name__}: {exc}"
        part = None
    return (qid, elapsed, kept, error), part


def _write_latency(rows: list[tuple[str, float, int, str]], latency_path: Any) -> None:
    """Write the latency rows as CSV to ``latency_path``."""
    latency = pl.DataFrame(rows, schema=_LATENCY_SCHEMA, orient="row").write_csv(quote_style="necessary")
    atomic_write(latency_path, latency.encode("utf-8"))


def _nothing_to_write(table: pd.DataFrame, latency_path: Any) -> ValueError:
    """The error for a run with no result to write, naming how many questions failed and the first failure."""
    failed = table[table["error"] != ""]
    first = message("notebook.record.first_failure", question=failed["question"].iloc[0],
                    error=failed["error"].iloc[0]) if len(failed) else ""
    return ValueError(message("notebook.record.nothing_to_write", failed=len(failed), first=first,
                              path=os.fspath(latency_path)))
