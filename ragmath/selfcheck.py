"""Self-checks for the notebooks' exercises: say whether an answer is right, never what is right.

Exercise definitions live in ``ragmath.exercises.nbNN`` (``NN`` = the notebook number); each registers
a function that *computes* the expected answer with ragmath on the workbook's data. ``check("02.1", x)``
imports the module for notebook 02 on first use.
"""

from __future__ import annotations

import importlib
import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = ["register", "check", "known_exercises"]

KINDS = ("close", "exact", "set")


@dataclass(frozen=True)
class _Exercise:
    expected: Callable[[], Any]
    kind: str
    tol: float
    hint: str


_REGISTRY: dict[str, _Exercise] = {}


def register(
    exercise_id: str,
    expected: Callable[[], Any],
    *,
    kind: str = "close",
    tol: float = 1e-6,
    hint: str = "",
) -> None:
    """Register an exercise: ``expected`` computes the right answer when a reader checks one.

    ``kind``: ``"close"`` (numbers within ``tol``), ``"exact"`` (equality, e.g. a Fraction or an ID
    list in order) or ``"set"`` (same members, any order).
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    if not callable(expected):
        raise TypeError("expected must be a function computing the answer, not the answer itself")
    _REGISTRY[exercise_id] = _Exercise(expected, kind, tol, hint)


def _load(exercise_id: str) -> _Exercise:
    if not isinstance(exercise_id, str) or "." not in exercise_id:
        raise ValueError(f"exercise ids look like '02.1' (notebook.number), got {exercise_id!r}")
    if exercise_id not in _REGISTRY:
        notebook = exercise_id.split(".", 1)[0]
        try:
            importlib.import_module(f"ragmath.exercises.nb{notebook}")
        except ModuleNotFoundError:
            pass
    if exercise_id not in _REGISTRY:
        raise ValueError(f"no exercise {exercise_id!r}; known: {', '.join(known_exercises()) or 'none'}")
    return _REGISTRY[exercise_id]


def known_exercises() -> list[str]:
    """The ids of the exercises registered so far."""
    return sorted(_REGISTRY)


def _matches(exercise: _Exercise, answer: Any, expected: Any) -> bool:
    if exercise.kind == "close":
        if isinstance(answer, bool) or not isinstance(answer, (numbers.Real, Fraction)):
            return False
        return math.isclose(float(answer), float(expected), rel_tol=0, abs_tol=exercise.tol)
    if exercise.kind == "set":
        try:
            return set(answer) == set(expected)
        except TypeError:
            return False
    return answer == expected


def check(exercise_id: str, answer: Any) -> bool:
    """Print whether ``answer`` is right for exercise ``exercise_id`` and return it as a bool.

    The expected value is computed, compared and never printed.

    Raises ``ValueError`` for an unknown exercise id.
    """
    exercise = _load(exercise_id)
    right = _matches(exercise, answer, exercise.expected())
    if right:
        print(f"✅ Correct ({exercise_id}).")
    else:
        print(f"❌ Not yet ({exercise_id})." + (f" Hint: {exercise.hint}" if exercise.hint else ""))
    return right
