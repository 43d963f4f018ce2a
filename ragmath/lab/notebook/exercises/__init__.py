"""Exercise definitions, one module per notebook (``nb02`` for notebook 02), and their registry.

Each ``nbNN`` registers its exercises here with :func:`register`; ``ragmath.lab.notebook.selfcheck``
imports every ``nbNN`` and checks answers against this registry (the exercises never import
``selfcheck``, so the import graph has no loop). An exercise's hint is the message
``exercises.<id>.hint`` of the catalogue (``ragmath/lab/messages/exercises.py``), in the notebook's language.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["register", "register_prediction", "known_exercises", "row_as_read", "KINDS", "Exercise",
           "REGISTRY", "PREDICTIONS", "FLOAT_SLACK"]

KINDS = ("close", "exact", "set")

#: Room for binary floating point: 0.835 rounds to 0.83 or 0.84 depending on its last bit.
FLOAT_SLACK = 1e-9


@dataclass(frozen=True)
class Exercise:
    """One registered exercise: how its answer is computed and compared (kind, tolerance, decimals)."""

    expected: Callable[[], Any]
    kind: str
    tol: float
    decimals: int | None = None

    @property
    def tolerance(self) -> float:
        """The accepted distance: ``tol``, widened to half a unit of the stated last decimal."""
        if self.decimals is None:
            return self.tol
        return max(self.tol, 0.5 * 10.0 ** -self.decimals + FLOAT_SLACK)


REGISTRY: dict[str, Exercise] = {}

#: Exercise id -> the slack within which a prediction written before the run counts as near the computed
#: value (:func:`ragmath.lab.notebook.selfcheck.check_prediction`).
PREDICTIONS: dict[str, float] = {}


def register(exercise_id: str, expected: Callable[[], Any], *, kind: str = "close", tol: float = 1e-6,
             decimals: int | None = None) -> None:
    """Register an exercise: ``expected`` computes the right answer when a reader checks one.

    ``kind``: ``"close"`` (numbers within ``tol``), ``"exact"`` (equality, e.g. a Fraction or an ID
    list in order) or ``"set"`` (same members, any order). ``decimals`` (``"close"`` only): the
    precision the question asks for; an answer rounded to it is accepted.

    Raises ``ValueError`` for an unknown kind or a ``decimals`` that is not a non-negative integer or
    is given for a non-numeric kind, ``TypeError`` when ``expected`` is not a function.
    """
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    if not callable(expected):
        raise TypeError("expected must be a function computing the answer, not the answer itself")
    if decimals is not None:
        if kind != "close":
            raise ValueError(f"decimals only applies to kind='close', not {kind!r}")
        if isinstance(decimals, bool) or not isinstance(decimals, int) or decimals < 0:
            raise ValueError(f"decimals must be a non-negative integer (e.g. 2), got {decimals!r}")
    REGISTRY[exercise_id] = Exercise(expected, kind, tol, decimals)


def register_prediction(exercise_id: str, slack: float) -> None:
    """Let ``check_prediction(exercise_id, prediction)`` call a prediction near when within ``slack``.

    Raises ``ValueError`` for a slack that is not a positive number.
    """
    if isinstance(slack, bool) or not isinstance(slack, (int, float)) or not slack > 0:
        raise ValueError(f"slack must be a positive number, got {slack!r}")
    PREDICTIONS[exercise_id] = float(slack)


def known_exercises() -> list[str]:
    """The ids of the exercises registered so far."""
    return sorted(REGISTRY)


def row_as_read(row: Any, difference: str) -> tuple:
    """A comparison table's row as a reader reads it aloud: (difference, low, high, wins, losses),
    the numbers to 3 decimals as the table shows them; ``difference`` names the difference's column."""
    return (round(float(row[difference]), 3), round(float(row["low"]), 3), round(float(row["high"]), 3),
            int(row["wins"]), int(row["losses"]))
