"""Self-checks accept an answer rounded to the precision the question states and refuse a wrong one.

Expected values are worked out by hand in the comments; the registry computes its own with ragmath.
"""

from fractions import Fraction

import pytest

from ragmath.lab.messages import use_language
from ragmath.lab.notebook import selfcheck
from ragmath.lab.notebook.selfcheck import check, register


@pytest.fixture
def scratch():
    """Register throw-away exercises under '99.x' and remove them afterwards."""
    added = []

    def add(exercise_id, value, **options):
        register(exercise_id, lambda: value, **options)
        added.append(exercise_id)

    yield add
    for exercise_id in added:
        selfcheck.REGISTRY.pop(exercise_id, None)


# 02.4: Recall@3 of q1 = 3/3, q2 = 1/1, q3 = 1/2; q4, q5 have no answer -> (1 + 1 + 1/2) / 3 = 5/6 = 0.8333…
# 03.2: RR@3 of q1 = 1, q2 = 1 (D moved to rank 1), q3 = 0 -> 2/3 = 0.6667…
# 03.3: RR@5 of a = 1, b = 1/3, c = 0 (S at rank 6), d = 1/2 -> (11/6) / 4 = 11/24 = 0.4583…
ROUNDED = [("02.4", 0.83), ("03.2", 0.67), ("03.3", 0.46)]
EXACT = [("02.4", Fraction(5, 6)), ("03.2", Fraction(2, 3)), ("03.3", Fraction(11, 24))]
WRONG = [("02.4", 0.5), ("02.4", 0.84), ("03.2", 0.44), ("03.3", 0.25), ("03.3", 0.47)]


@pytest.mark.parametrize(("exercise_id", "answer"), ROUNDED + EXACT)
def test_rounded_or_exact_answer_is_accepted(exercise_id, answer, capsys):
    assert check(exercise_id, answer) is True
    assert "Correct" in capsys.readouterr().out


@pytest.mark.parametrize(("exercise_id", "answer"), WRONG)
def test_wrong_answer_is_refused(exercise_id, answer, capsys):
    assert check(exercise_id, answer) is False
    assert "Not yet" in capsys.readouterr().out


@pytest.mark.parametrize(("exercise_id", "answer"), [("02.4", 0.8), ("03.3", 0.45), ("03.2", 0.6)])
def test_rounding_slip_is_refused_without_blaming_the_method(exercise_id, answer, capsys):
    # 0.8 = 5/6 at 1 decimal; 0.45 = 11/24 cut off (not rounded) at 2 decimals; 0.6 = 2/3 cut at 1 decimal
    assert check(exercise_id, answer) is False
    out = capsys.readouterr().out
    assert "Almost" in out and "2 decimals" in out and "Hint" not in out


def test_every_numeric_exercise_of_01_to_05_states_its_precision():
    for notebook in ("01", "02", "03", "04", "05"):
        selfcheck._load(f"{notebook}.1")
    numeric = {eid: ex for eid, ex in selfcheck.REGISTRY.items() if ex.kind == "close" and eid < "06"}
    assert numeric, "no numeric exercises registered for notebooks 01-05"
    assert all(ex.decimals is not None for ex in numeric.values()), sorted(
        eid for eid, ex in numeric.items() if ex.decimals is None
    )


def test_precision_band_is_half_a_unit_of_the_last_decimal(scratch):
    scratch("99.1", 0.125, decimals=2)  # 0.125 lies exactly on the rounding boundary: 0.12 and 0.13 both fine
    assert check("99.1", 0.13) and check("99.1", 0.12) and check("99.1", 0.125)
    assert not check("99.1", 0.14)
    assert not check("99.1", 0.1)


def test_without_decimals_the_old_tolerance_holds(scratch):
    scratch("99.2", 1 / 3)
    assert check("99.2", Fraction(1, 3))
    assert not check("99.2", 0.33)  # no precision stated: rounding is not accepted


@pytest.mark.parametrize("answer", [True, "about 0.83", None, float("nan")])
def test_non_numbers_are_refused(scratch, answer):
    scratch("99.3", 0.83, decimals=2)
    assert check("99.3", answer) is False


def test_none_is_told_to_be_replaced(scratch, capsys):
    scratch("99.4", 1, kind="exact")
    check("99.4", None)
    assert "replace None" in capsys.readouterr().out


def test_an_unanswered_exercise_reads_not_answered_yet_in_grey_and_a_wrong_one_stays_red(scratch, capsys):
    """After Run All every exercise still holds None: that is "not answered yet" in a neutral grey, with
    its own mark; only an answer given and wrong gets the red ✗."""
    scratch("99.5", 1, kind="exact")
    assert check("99.5", None) is False
    unanswered = capsys.readouterr().out.strip()
    assert unanswered == "\x1b[90m○ Not answered yet (99.5): replace None with your answer.\x1b[0m"
    assert check("99.5", 2) is False
    wrong = capsys.readouterr().out.strip()
    assert wrong.startswith("\x1b[31m✗ Not yet (99.5)")
    use_language("zh")
    check("99.5", None)
    assert capsys.readouterr().out.strip() == "\x1b[90m○ 尚未作答（99.5）：请把 None 换成你的答案。\x1b[0m"


@pytest.mark.parametrize(
    ("options", "message"),
    [({"decimals": -1}, "non-negative integer"), ({"decimals": 1.5}, "non-negative integer"),
     ({"decimals": 2, "kind": "exact"}, "only applies to kind='close'")],
)
def test_bad_precision_is_refused_at_registration(options, message):
    with pytest.raises(ValueError, match=message):
        register("99.9", lambda: 0, **options)
    assert "99.9" not in selfcheck.REGISTRY


def test_expected_value_is_never_printed(capsys):
    check("02.4", 0.5)
    out = capsys.readouterr().out
    assert "0.83" not in out and "5/6" not in out


@pytest.mark.parametrize(("exercise_id", "answer"), [("02.4", "5/6"), ("03.2", " 2 / 3 "), ("03.3", "0.46")])
def test_a_string_that_spells_the_number_counts_as_that_number(exercise_id, answer, capsys):
    # 02.4 = 5/6, 03.2 = 2/3, 03.3 = 11/24 = 0.458… (0.46 at the 2 decimals it asks for)
    assert check(exercise_id, answer) is True
    assert "Correct" in capsys.readouterr().out


def test_a_wrong_fraction_string_gets_the_maths_hint(capsys):
    assert check("02.4", "1/4") is False
    out = capsys.readouterr().out
    assert "Not yet" in out and "Hint" in out and "give a number" not in out


def test_text_that_is_no_number_is_asked_for_a_number_not_given_a_hint(capsys):
    assert check("02.4", "five sixths") is False
    out = capsys.readouterr().out
    assert "give a number" in out and "'five sixths'" in out and "Hint" not in out


def test_an_id_answer_is_never_read_as_a_number(capsys):
    # 05.2 expects the chunk ID "6.1", a string: "6.1" must stay text, and 6.1 the float is wrong
    assert check("05.2", "6.1") is True
    assert check("05.2", 6.1) is False


def test_verdict_marks_draw_in_dejavu_without_an_emoji_font(capsys):
    """Debian's Chromium has no emoji font: every mark must be a glyph DejaVu Sans (Mono) has."""
    import os

    import matplotlib
    from matplotlib import ft2font

    fonts = os.path.join(matplotlib.get_data_path(), "fonts", "ttf")
    charmaps = [ft2font.FT2Font(os.path.join(fonts, name)).get_charmap()
                for name in ("DejaVuSans.ttf", "DejaVuSansMono.ttf")]
    check("02.4", 0.83)
    check("02.4", 0.8)
    check("02.4", 0.5)
    check("02.4", None)
    out = capsys.readouterr().out
    for mark in selfcheck.MARKS.values():
        assert mark in out
    drawn = {ch for ch in out if ord(ch) > 127}
    assert drawn, "no mark printed"
    for charmap in charmaps:
        missing = sorted(ch for ch in drawn if ord(ch) not in charmap)
        assert missing == [], f"DejaVu has no glyph for {missing}"
