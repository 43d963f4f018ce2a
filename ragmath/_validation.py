"""Argument checks shared by every module: one place, one wording for each mistake."""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Hashable, Iterable, Mapping
from typing import Any

#: The largest cut-off K (and RRF window W) accepted: deeper than any ranked list ragmath reads, so a
#: larger value is a typo; refusing it keeps every array sized by the data, never by K.
MAX_K = 1_000_000


def check_k(k: Any, name: str = "k") -> int:
    """Return ``k`` if it is a whole number from 1 to :data:`MAX_K`, else raise naming the value and the fix.

    >>> check_k(10)
    10
    """
    example = f"pass e.g. {name}=3" if name.isidentifier() else "e.g. 3"
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise TypeError(
            f"{name} must be a positive int (the cut-off K of top-K), got {k!r} of type "
            f"{type(k).__name__}; {example}"
        )
    if k <= 0:
        raise ValueError(f"{name} must be a positive int (1, 2, 3, ...), got {k!r}; {example}")
    if k > MAX_K:
        raise ValueError(
            f"{name} = {k} is larger than {MAX_K:,}, deeper than any ranking ragmath reads; "
            + (f"pass e.g. {name}=10" if name.isidentifier() else "e.g. 10")
        )
    return int(k)


def check_ranking(ranking: Any, name: str = "ranking") -> list[Hashable]:
    """Return ``ranking`` as a new list of IDs, best first, refusing strings, sets and duplicates."""
    if isinstance(ranking, (str, bytes)):
        raise TypeError(
            f"{name} must be a sequence of IDs, best first, got the string {ranking!r}; "
            f"wrap a single ID in a list: [{ranking!r}]"
        )
    if isinstance(ranking, (set, frozenset, Mapping)):
        raise TypeError(
            f"{name} must be an ordered sequence of IDs (list or tuple), best first, got a "
            f"{type(ranking).__name__}, which has no order; for scores use evaluate(), which sorts them"
        )
    if not isinstance(ranking, Iterable):
        raise TypeError(f"{name} must be a sequence of IDs, best first, got {ranking!r}")
    items = list(ranking)
    seen: set[Hashable] = set()
    for position, item in enumerate(items, start=1):
        if not isinstance(item, Hashable) or isinstance(item, (list, dict, set)):
            raise TypeError(f"{name} holds an unhashable ID {item!r} at rank {position}; IDs are str or int")
        if item in seen:
            raise ValueError(
                f"{name} holds the ID {item!r} twice (again at rank {position}); a ranking lists each "
                f"ID once. If several chunks map to one unit, use ragmath.units.dedupe (or "
                f"units.to_units) first, which keeps the first occurrence"
            )
        seen.add(item)
    return items


def check_grade(grade: Any, item: Hashable, name: str = "grades") -> float:
    """Return ``grade`` as a number if it is finite and non-negative, else raise naming the ID."""
    if isinstance(grade, bool) or not isinstance(grade, numbers.Real):
        raise TypeError(
            f"{name}[{item!r}] must be a non-negative number (2 answers, 1 helps, 0 irrelevant), "
            f"got {grade!r} of type {type(grade).__name__}"
        )
    if math.isnan(grade) or math.isinf(grade):
        raise ValueError(f"{name}[{item!r}] is {grade!r}; grades must be finite numbers such as 0, 1, 2")
    if grade < 0:
        raise ValueError(
            f"{name}[{item!r}] is {grade!r}, a negative grade; use 0 for 'checked and irrelevant' "
            f"(trec_eval and ranx silently treat negatives as 0, ragmath refuses them)"
        )
    return grade


def check_grades(grades: Any, name: str = "grades") -> dict[Hashable, float]:
    """Return a new dict ID -> grade after checking every grade."""
    if not isinstance(grades, Mapping):
        raise TypeError(
            f"{name} must be a mapping ID -> grade, e.g. {{'A': 2, 'B': 1}}, got {type(grades).__name__}"
        )
    return {item: check_grade(grade, item, name) for item, grade in grades.items()}


def relevant_set(relevant: Any, name: str = "relevant") -> set[Hashable]:
    """Return the set of relevant IDs: a collection of IDs, or the IDs with grade > 0 in a mapping."""
    if isinstance(relevant, Mapping):
        return {item for item, grade in check_grades(relevant, name).items() if grade > 0}
    if isinstance(relevant, (str, bytes)):
        raise TypeError(
            f"{name} must be a set of IDs or a mapping ID -> grade, got the string {relevant!r}; "
            f"wrap a single ID: {{{relevant!r}}}"
        )
    if not isinstance(relevant, Iterable):
        raise TypeError(f"{name} must be a set of IDs or a mapping ID -> grade, got {relevant!r}")
    return set(relevant)


def require_some_relevant(relevant: set[Hashable], function: str) -> None:
    """Refuse a no-answer question: it has no place inside a retrieval mean."""
    if not relevant:
        raise ValueError(
            f"{function}: relevant is empty (no ID with grade > 0). This is a no-answer question: it "
            f"cannot enter Recall, Hit or MRR (there is nothing to find). Count it apart as a correct "
            f"refusal or a wrong answer; ragmath.evaluate lists such questions in .no_answer"
        )



#: Above this many (question, ID) rows of a mapping, ``engine="auto"`` in ``evaluate`` and ``fuse_runs``
#: takes the vectorised engine of ``ragmath.engine``.
FAST_THRESHOLD = 20_000

#: The engines of ``evaluate`` and ``fuse_runs``: ``auto`` picks by size.
ENGINES = ("auto", "reference", "fast")


def check_engine(engine: Any) -> str:
    """Return ``engine`` if it is one of :data:`ENGINES`, else raise naming the choices."""
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}; 'auto' picks by size")
    return engine


def run_rows(run: Any) -> int:
    """How many (question, ID) rows a run holds; a file path counts as large (read it fast)."""
    if isinstance(run, (str, os.PathLike)):
        return FAST_THRESHOLD + 1
    if hasattr(run, "columns") and hasattr(run, "__len__"):  # a DataFrame: one row per (question, ID)
        return len(run)
    return sum(len(ranking) if hasattr(ranking, "__len__") else 0 for ranking in run.values())
