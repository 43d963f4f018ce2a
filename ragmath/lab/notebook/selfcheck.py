"""Self-checks for the notebooks' exercises: say whether an answer is right, never what is right.

Exercise definitions live in ``ragmath.lab.notebook.exercises.nbNN`` (``NN`` = the notebook number);
each registers (``ragmath.lab.notebook.exercises.register``) a function that *computes* the expected
answer with ragmath on the workbook's data. This module imports every ``nbNN`` (plain imports: the
exercises never import this module back), so ``check("02.1", x)`` finds them all.

A numeric exercise may state a precision: ``register("02.4", f, decimals=2)`` accepts any answer that
rounds to the expected value at 2 decimals, i.e. ``|answer - expected| <= 0.5 * 10**-2`` (plus a
hair for floating point), and the question must say "to 2 decimals". An exact fraction is always
accepted. An answer that is the expected value rounded to fewer decimals, or cut off (truncated)
instead of rounded, is told that only its rounding differs, not that its method is wrong. Where the
answer is a number, a string that spells one exactly ("1/4", "0.25") counts as that number; any other
string is asked to be given as a number, without a maths hint.

The verdicts start with a mark from :data:`MARKS` (✓, ≈, ✗, ○: glyphs DejaVu Sans and Noto CJK draw, so
no emoji font is needed), coloured with ANSI codes, which JupyterLab, Voila and terminals show in colour.
An exercise still holding its ``None`` is not answered yet, not wrong: after Run All it reads "○ Not
answered yet" in grey, and only an answer given and wrong gets the red ✗.
Their words come from the message catalogue (``notebook.selfcheck.*``), an exercise's hint from
``exercises.<id>.hint``, in the language the notebook chose (:func:`ragmath.lab.messages.use_language`).
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
    register,
)

#: The verdict marks: plain text symbols drawn by DejaVu Sans (Debian's default), not emoji.
MARKS = {"right": "✓", "almost": "≈", "wrong": "✗", "unanswered": "○"}
_COLOURS = {"right": "32", "almost": "33", "wrong": "31", "unanswered": "90"}  # ANSI green, yellow, red, grey


def _verdict(kind: str, text: str) -> str:
    """The mark of ``kind`` in its colour, then ``text`` (bold-free, so any font draws it)."""
    return f"\x1b[{_COLOURS[kind]}m{MARKS[kind]} {text}\x1b[0m"

__all__ = ["MARKS", "register", "check", "check_prediction", "hint_key", "known_exercises", "KINDS"]

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
    """Print whether ``answer`` is right for exercise ``exercise_id`` and return it as a bool.

    The expected value is computed, compared and never printed. When the expected value is a
    number, a string that spells a number exactly ("1/4") is read as that number; another string
    is told to be a number.

    Raises ``ValueError`` for an unknown exercise id.
    """
    exercise = _load(exercise_id)
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
    elif answer is None:
        print(_verdict("unanswered", message("notebook.selfcheck.replace_none", exercise=exercise_id)))
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
