"""Self-checks for the notebooks' exercises: say whether an answer is right, never what is right.

Each ``ragmath.lab.notebook.exercises.nbNN`` registers a function that *computes* an exercise's answer
with ragmath on the workbook's data; this module imports them all, so ``check("02.1", x)`` finds each.
An exercise registered with ``decimals=2`` accepts any answer within half a unit of the second decimal
(the question says "to 2 decimals"), and an exact fraction; an answer rounded to fewer decimals, or cut
off instead of rounded, is told that only its rounding differs. Where the answer is a number, a string
that spells one exactly ("1/4", "0.25") counts as that number; another string is asked for a number.

A verdict starts with a mark of :data:`MARKS` (text glyphs DejaVu Sans and Noto CJK draw, no emoji
font needed) in an ANSI colour. An exercise still holding its ``None`` is not answered yet, not wrong:
it reads "○ Not answered yet" in grey. The words come from the catalogue (``notebook.selfcheck.*``,
the hint from ``exercises.<id>.hint``) in the notebook's language.
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from typing import Any

from ragmath.lab.messages import CATALOGUE, message
from ragmath.lab.notebook.exercises import (  # noqa: F401 - importing nbNN registers its exercises
    FLOAT_SLACK,
    KINDS,
    PREDICTIONS,
    REGISTRY,
    Exercise,
    known_exercises,
    nb01,
    nb02,
    nb03,
    nb04,
    nb05,
    nb05a,
    nb05b,
    nb06,
    nb07,
    nb08,
    nb09,
    register,
)

#: The verdict marks: plain text symbols drawn by DejaVu Sans (Debian's default), not emoji.
MARKS = {"right": "✓", "almost": "≈", "wrong": "✗", "unanswered": "○"}
_COLOURS = {"right": "32", "almost": "33", "wrong": "31", "unanswered": "90"}  # ANSI green, yellow, red, grey

__all__ = ["MARKS", "register", "check", "check_prediction", "hint_key", "known_exercises", "KINDS"]


def _verdict(kind: str, text: str) -> str:
    """The mark of ``kind`` in its colour, then ``text`` (bold-free, so any font draws it)."""
    return f"\x1b[{_COLOURS[kind]}m{MARKS[kind]} {text}\x1b[0m"


def _load(exercise_id: str) -> Exercise:
    if not isinstance(exercise_id, str) or "." not in exercise_id:
        raise ValueError(message("notebook.selfcheck.bad_id", given=repr(exercise_id)))
    if exercise_id not in REGISTRY:
        known = ", ".join(known_exercises()) or message("notebook.selfcheck.none_known")
        raise ValueError(message("notebook.selfcheck.unknown_id", given=repr(exercise_id), known=known))
    return REGISTRY[exercise_id]


def _is_number(answer: Any) -> bool:
    return not isinstance(answer, bool) and isinstance(answer, (numbers.Real, Fraction))


def _matches(exercise: Exercise, answer: Any, expected: Any) -> bool:
    if exercise.kind == "close":
        if not _is_number(answer) or math.isnan(float(answer)):
            return False
        return abs(float(answer) - float(expected)) <= exercise.tolerance
    if exercise.kind == "set":
        try:
            return set(answer) == set(expected)
        except TypeError:
            return False
    return answer == expected


def _as_number(answer: str) -> Fraction | None:
    """The exact number a string spells ("1/4", " 0.25 ", "3"), or None if it spells none.

    >>> _as_number("1/4"), _as_number("0.25"), _as_number("a quarter")
    (Fraction(1, 4), Fraction(1, 4), None)
    """
    try:
        return Fraction(answer.replace(" ", ""))
    except (ValueError, ZeroDivisionError):
        return None


def check(exercise_id: str, answer: Any) -> bool:
    """Print whether ``answer`` is right for exercise ``exercise_id`` and return it as a bool; the
    expected value is computed, compared and never printed (not computed at all while ``answer`` is None).

    Raises ``ValueError`` for an unknown exercise id.
    """
    exercise = _load(exercise_id)
    if answer is None:  # nothing to compare: the expected value (and the data it reads) is not computed
        print(_verdict("unanswered", message("notebook.selfcheck.replace_none", exercise=exercise_id)))
        return False
    expected = exercise.expected()
    if isinstance(answer, str) and _is_number(expected):
        number = _as_number(answer)
        if number is None:
            print(_verdict("wrong", message("notebook.selfcheck.give_a_number", exercise=exercise_id,
                                            text=repr(answer))))
            return False
        answer = number
    right = _matches(exercise, answer, expected)
    if right:
        print(_verdict("right", message("notebook.selfcheck.correct", exercise=exercise_id)))
    elif _only_rounding_differs(exercise, answer, expected):
        print(_verdict("almost", message("notebook.selfcheck.almost", exercise=exercise_id,
                                         decimals=exercise.decimals)))
    elif hint_key(exercise_id) in CATALOGUE:
        print(_verdict("wrong", message("notebook.selfcheck.not_yet_hint", exercise=exercise_id,
                                        hint=message(hint_key(exercise_id)))))
    else:
        print(_verdict("wrong", message("notebook.selfcheck.not_yet", exercise=exercise_id)))
    return right


def check_prediction(exercise_id: str, prediction: Any) -> bool:
    """Compare a prediction written before the run with the exercise's computed value, after the run.

    Near (✓) when within the exercise's stated slack
    (:func:`~ragmath.lab.notebook.exercises.register_prediction`); otherwise off (≈, not wrong: a
    prediction is for learning), told whether the result came out higher or lower than predicted, never
    by how much. A prediction still ``None`` is told to be written first.
    Returns whether it was near.

    Raises ``ValueError`` for an exercise without a prediction.
    """
    _load(exercise_id)
    if exercise_id not in PREDICTIONS:
        raise ValueError(message("notebook.selfcheck.no_prediction", exercise=exercise_id))
    slack = PREDICTIONS[exercise_id]
    if isinstance(prediction, str):
        prediction = _as_number(prediction)
    if prediction is None or not _is_number(prediction) or math.isnan(float(prediction)):
        print(_verdict("unanswered", message("notebook.selfcheck.prediction_missing", exercise=exercise_id)))
        return False
    expected = float(REGISTRY[exercise_id].expected())
    off = float(prediction) - expected
    if abs(off) <= slack + FLOAT_SLACK:
        print(_verdict("right", message("notebook.selfcheck.prediction_near", exercise=exercise_id,
                                        slack=slack)))
        return True
    key = "notebook.selfcheck.prediction_low" if off < 0 else "notebook.selfcheck.prediction_high"
    print(_verdict("almost", message(key, exercise=exercise_id, slack=slack)))
    return False


def hint_key(exercise_id: str) -> str:
    """The catalogue key of an exercise's hint (``ragmath/lab/messages/exercises.py``).

    >>> hint_key("03.1")
    'exercises.03.1.hint'
    """
    return f"exercises.{exercise_id}.hint"


def _only_rounding_differs(exercise: Exercise, answer: Any, expected: Any) -> bool:
    """The expected value rounded to fewer decimals, or truncated to at most ``decimals``: a rounding slip.

    >>> slip = Exercise(lambda: 0, "close", 1e-6, decimals=2)
    >>> _only_rounding_differs(slip, 0.8, 5 / 6), _only_rounding_differs(slip, 0.83, 5 / 6)
    (True, True)
    >>> _only_rounding_differs(slip, 0.7, 5 / 6)
    False
    """
    if exercise.kind != "close" or exercise.decimals is None or not _is_number(answer):
        return False
    value, given = float(expected), float(answer)
    for places in range(exercise.decimals + 1):
        scale = 10**places
        rounded, truncated = round(value, places), math.trunc(value * scale) / scale
        if min(abs(given - rounded), abs(given - truncated)) <= FLOAT_SLACK:
            return True
    return False
