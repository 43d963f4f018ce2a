"""Argument checks shared by every module: one place, one wording for each mistake.

Each argument a user tunes (``K``, RRF's ``k``, the RRF ``window``) has one check, listed in
:data:`ARGUMENTS`; the command line parses their text with :func:`parse_argument`.
"""

from __future__ import annotations

import math
import numbers
import os
import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any

#: The largest K (and RRF window) accepted: deeper than any ranking ragmath reads, so a typo;
#: refusing it keeps every array sized by the data, never by K.
MAX_K = 1_000_000


def check_k(k: Any, name: str = "k") -> int:
    """Return ``k`` if it is a whole number from 1 to :data:`MAX_K`, else raise naming the value and a fix.

    >>> check_k(10)
    10
    """
    example = f"pass e.g. {name}=" if name.isidentifier() else "e.g. "
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise TypeError(
            f"{name} must be a positive int (the cut-off K of top-K), got {k!r} of type "
            f"{type(k).__name__}; {example}3"
        )
    if k <= 0:
        raise ValueError(f"{name} must be a positive int (1, 2, 3, ...), got {k!r}; {example}3")
    if k > MAX_K:
        raise ValueError(f"{name} = {k} is larger than {MAX_K:,}, deeper than any ranking ragmath reads; "
                         f"{example}10")
    return int(k)


#: A lone surrogate: Python text may hold one, UTF-8 (files, polars) cannot.
_SURROGATE = re.compile("[\ud800-\udfff]")


def surrogate_problem(text: str) -> str | None:
    """Why ``text`` cannot be an ID because it holds a lone surrogate, or None when it holds none.

    >>> surrogate_problem("a\\ud800")[:48]
    'holds U+D800, a lone surrogate, at position 2: h'
    >>> surrogate_problem("4.2") is None
    True
    """
    lone = None if text.isascii() else _SURROGATE.search(text)
    if lone is None:
        return None
    return (f"holds U+{ord(lone.group()):04X}, a lone surrogate, at position {lone.start() + 1}: half of a "
            "UTF-16 pair, which no UTF-8 file can hold (text decoded with errors='surrogateescape' keeps "
            "undecodable bytes so); decode the source as UTF-8, or drop the character")


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
        problem = surrogate_problem(item) if isinstance(item, str) else None
        if problem:
            raise ValueError(f"{name}: the ID {item!r} at rank {position} {problem}")
        if item in seen:
            raise ValueError(
                f"{name} holds the ID {item!r} twice (again at rank {position}); list each ID once, e.g. "
                f"with ragmath.units.dedupe (or units.to_units), which keeps the first occurrence"
            )
        seen.add(item)
    return items


def check_grades(grades: Any, name: str = "grades") -> dict[Hashable, float]:
    """Return a new dict ID -> grade, refusing a grade that is not a finite number >= 0 (naming its ID)."""
    if not isinstance(grades, Mapping):
        raise TypeError(
            f"{name} must be a mapping ID -> grade, e.g. {{'A': 2, 'B': 1}}, got {type(grades).__name__}"
        )
    for item, grade in grades.items():
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
    return dict(grades)


def relevant_set(relevant: Any, function: str) -> set[Hashable]:
    """The relevant IDs (a collection, or a mapping's IDs with grade > 0), refusing a no-answer question."""
    if isinstance(relevant, Mapping):
        wanted = {item for item, grade in check_grades(relevant, "relevant").items() if grade > 0}
    elif isinstance(relevant, (str, bytes)):
        raise TypeError(
            f"relevant must be a set of IDs or a mapping ID -> grade, got the string {relevant!r}; "
            f"wrap a single ID: {{{relevant!r}}}"
        )
    elif isinstance(relevant, Iterable):
        wanted = set(relevant)
    else:
        raise TypeError(f"relevant must be a set of IDs or a mapping ID -> grade, got {relevant!r}")
    if not wanted:  # a no-answer question has no place inside a retrieval mean
        raise ValueError(
            f"{function}: relevant is empty (no ID with grade > 0). This is a no-answer question: it "
            f"cannot enter Recall, Hit or MRR (there is nothing to find). Count it apart as a correct "
            f"refusal or a wrong answer; ragmath.evaluate lists such questions in .no_answer"
        )
    return wanted


def check_rrf_k(k: Any) -> float:
    """Return RRF's ``k`` as a float if it is a finite number above 0, else raise with the reason.

    >>> check_rrf_k(60)
    60.0
    """
    if isinstance(k, bool) or not isinstance(k, numbers.Real):
        raise TypeError(f"k must be a positive number (the RRF smoothing constant, 60 by default), got {k!r}")
    if math.isnan(k) or math.isinf(k):
        raise ValueError(f"k must be a finite positive number, got {k!r}")
    if k <= 0:
        raise ValueError(
            f"k must be > 0, got {k!r}: k is RRF's smoothing constant (k = 0 makes a first place in one "
            f"list equal second places in two; k < 0 divides by zero or flips signs). Use k = 60 (common "
            f"default) or tune k on a dev set"
        )
    return float(k)


def check_window(window: Any) -> int | None:
    """Return the RRF ``window`` (each list's top W is fused): None for whole lists, else as :func:`check_k`.

    >>> check_window(None), check_window(20)
    (None, 20)
    """
    return None if window is None else check_k(window, "window")


def check_weights(weights: Any, n_lists: int) -> tuple[float, ...] | None:
    """Return fusion weights as a tuple of floats, one per list in the order of the lists (None: all 1).

    Each weight is a finite number >= 0 and at least one is above 0; they need not sum to 1 (scaling
    every weight by one factor changes no order).

    >>> check_weights([0.3, 0.7], 2)
    (0.3, 0.7)

    Raises ``ValueError`` for a count other than ``n_lists``, a negative, NaN or infinite weight, or
    all weights 0; ``TypeError`` for a weight that is not a number.
    """
    if weights is None:
        return None
    if isinstance(weights, (str, bytes)) or not isinstance(weights, Iterable):
        raise TypeError(f"weights must be a list of numbers, one per list, e.g. [0.5, 0.5]; got {weights!r}")
    values = list(weights)
    if len(values) != n_lists:
        raise ValueError(f"{len(values)} weights for {n_lists} lists; give one weight per list, in order")
    for position, weight in enumerate(values, start=1):
        if isinstance(weight, bool) or not isinstance(weight, numbers.Real):
            raise TypeError(f"weight {position} must be a number, got {weight!r}")
        if not math.isfinite(weight) or weight < 0:
            raise ValueError(f"weight {position} is {weight!r}; weights are finite numbers >= 0")
    if not any(values):
        raise ValueError("every weight is 0, so nothing would be fused; give at least one list a weight > 0")
    return tuple(float(weight) for weight in values)


def named_lists(rankings: Any, what: str = "rankings") -> dict[str, Any]:
    """Ranked lists (or ``what="runs"``, runs) as name -> list: a mapping keeps its names, a list is
    named L1, L2, ...

    >>> named_lists([["a", "b"], ["b"]])
    {'L1': ['a', 'b'], 'L2': ['b']}

    Raises ``TypeError`` for a string, ranked lists given as a list holding something else than lists,
    or a name that is not a string; ``ValueError`` for none at all. Each list is checked where it is
    used (:func:`rrf`, or the run readers of :mod:`ragmath.io`, naming it).
    """
    shape = "name -> ranked IDs or a list of lists" if what == "rankings" else "name -> run or a list of runs"
    if isinstance(rankings, Mapping):
        named = dict(rankings)
    elif isinstance(rankings, Sequence) and not isinstance(rankings, (str, bytes)):
        if what == "rankings" and not all(isinstance(r, Sequence) and not isinstance(r, (str, bytes))
                                          for r in rankings):
            raise TypeError("rankings given as a list must be a list of ranked ID lists, e.g. "
                            "[['4.2', '6.1'], ['5.3', '6.1']]; for one list write [ranking]")
        named = {f"L{i}": ranking for i, ranking in enumerate(rankings, start=1)}
    else:
        raise TypeError(f"{what} must be a mapping {shape}, got {type(rankings).__name__}")
    if not named:
        raise ValueError(f"{what} is empty; give at least one to fuse")
    for name in named:
        if not isinstance(name, str):
            raise TypeError(f"{what[:-1]} names must be strings, got {name!r}")
    return named


#: The tunable arguments, each with its one check.
ARGUMENTS: dict[str, Callable[[Any], Any]] = {"K": check_k, "k": check_rrf_k, "window": check_window}

#: A decimal number in ASCII digits, the one pattern of every number read from text (arguments here,
#: scores in files: :mod:`ragmath.io._checks`); one way to match, so linear time.
DECIMAL = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"


def parse_argument(name: str, text: str) -> Any:
    """Parse the text of argument ``name`` (written with ASCII digits) and check it as :data:`ARGUMENTS` says.

    >>> parse_argument("k", "60"), parse_argument("window", "20")
    (60.0, 20)

    Raises ``ValueError`` naming the argument for text that is not a number (or, for ``K`` and
    ``window``, not a whole number) and as the argument's check does.
    """
    whole = name != "k"
    if not (re.fullmatch(r"[0-9]+", text) if whole else re.fullmatch(DECIMAL, text)):
        kind = "a whole number such as 20" if whole else "a finite number > 0 such as 60"
        raise ValueError(f"{name} must be {kind}, got {text!r}")
    return ARGUMENTS[name](int(text) if whole else float(text))


def is_source(value: Any) -> bool:
    """True for what names a file to read: a path (``str`` or ``os.PathLike``) or ``"-"`` (standard input)."""
    return isinstance(value, (str, os.PathLike))
