"""The RRF k explorer: its plain functions, the builder in-process, and its callback in a kernel.

Expected values come from the RRF formula worked by hand with exact fractions (the article's
k = 60 and k = 1 tables), never from what the code printed.
"""

from __future__ import annotations

import copy
import math
import re
from fractions import Fraction
from pathlib import Path

import matplotlib.pyplot as plt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from outputs import printed

from ragmath import rrf
from ragmath.lab.notebook.widgets import (
    ARTICLE_LISTS,
    LeadChange,
    build_explorer,
    describe_lead,
    format_list,
    fused_table,
    lead_changes,
    leader_by_k,
    parse_list,
    parse_lists,
    render_table_html,
    score_curves,
)

ROOT = Path(__file__).resolve().parent.parent

# The article's worked example (digest section 4), by hand: rank 1 -> 1/(k+1), etc.
ARTICLE_K60 = {
    "4.2": Fraction(1, 61) + Fraction(1, 63),
    "6.1": Fraction(1, 62) + Fraction(1, 62),
    "5.3": Fraction(1, 61),
    "3.5": Fraction(1, 63),
}
ARTICLE_K1 = {"4.2": Fraction(3, 4), "6.1": Fraction(2, 3), "5.3": Fraction(1, 2), "3.5": Fraction(1, 4)}

# A lead change worked by hand: A = 2/(k+1) (first in two lists), B = 1/(k+2) + 2/(k+3)
# (second in one list, third in two). A = B at k^2 = 5, k ≈ 2.24: A leads at k = 1, 2; B from k = 3.
CROSSING = {"L1": ["A", "B"], "L2": ["A", "X", "B"], "L3": ["Y", "Z", "B"]}


def _rows(table_html: str) -> list[tuple[str, str]]:
    """(ID, shown RRF score) for each row of the explorer's HTML table, top to bottom."""
    rows = []
    for item, body in re.findall(r'<tr data-id="([^"]*)">(.*?)</tr>', table_html, flags=re.S):
        cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td>(.*?)</td>", body, flags=re.S)]
        rows.append((item, cells[-2]))
    return rows


def _shown(values: dict[str, Fraction]) -> list[tuple[str, str]]:
    """Hand values as the table shows them: sorted by score (ties by ID), 4 decimals."""
    order = sorted(values, key=lambda i: (-values[i], i))
    return [(i, f"{float(values[i]):.4f}") for i in order]


# ------------------------------------------------------------------------------------ parsing
def test_parse_list_splits_on_commas_only_and_trims_the_ends():
    assert parse_list(" 4.2, 6.1，3.5  7.2;1.1 ") == ["4.2", "6.1", "3.5  7.2;1.1"]
    assert parse_list("doc 1,doc 2") == ["doc 1", "doc 2"]


def test_parse_list_ignores_one_trailing_comma():
    assert parse_list("a, b,") == ["a", "b"]


def test_parse_list_rejects_an_empty_entry_between_commas():
    with pytest.raises(ValueError, match=r"list 'L1': entry 2 is empty"):
        parse_list("a,,b", name="L1")


def test_parse_list_rejects_a_duplicate_naming_list_id_and_positions():
    with pytest.raises(ValueError, match=r"list 'BM25': ID '6\.1' appears twice \(positions 2 and 4\)"):
        parse_list("4.2, 6.1, 3.5, 6.1", name="BM25")


@pytest.mark.parametrize("text", ["", "   ", " ,"])
def test_parse_list_rejects_an_empty_list(text):
    with pytest.raises(ValueError, match=r"list 'vector' is empty"):
        parse_list(text, name="vector")


def test_parse_list_rejects_a_non_string():
    with pytest.raises(TypeError, match=r"list 'L1'.*got list"):
        parse_list(["4.2"], name="L1")


def test_parse_lists_rejects_no_lists():
    with pytest.raises(ValueError, match="texts is empty"):
        parse_lists({})


def test_format_list_round_trips_through_parse_list():
    assert parse_list(format_list(ARTICLE_LISTS["vector"])) == ARTICLE_LISTS["vector"]


# --------------------------------------------------------------------------------- fused table
@pytest.mark.parametrize("k, expected", [(60, ARTICLE_K60), (1, ARTICLE_K1)])
def test_fused_table_gives_the_article_values(k, expected):
    table = fused_table(ARTICLE_LISTS, k=k)
    assert list(table["id"]) == ["4.2", "6.1", "5.3", "3.5"]
    for item, score in zip(table["id"], table["rrf_score"], strict=True):
        assert score == pytest.approx(float(expected[item]), abs=1e-12)


def test_fused_table_keeps_each_lists_rank_and_contribution():
    table = fused_table(ARTICLE_LISTS, k=60).set_index("id")
    assert table.loc["4.2", "rank[BM25]"] == 1 and table.loc["4.2", "rank[vector]"] == 3
    assert table.loc["4.2", "contrib[vector]"] == pytest.approx(1 / 63)
    assert math.isnan(table.loc["5.3", "rank[BM25]"]) and table.loc["5.3", "contrib[BM25]"] == 0.0


def test_article_k60_leaders_differ_only_in_the_fifth_decimal():
    table = fused_table(ARTICLE_LISTS, k=60).set_index("id")
    a, b = table.loc["4.2", "rrf_score"], table.loc["6.1", "rrf_score"]
    assert f"{a:.4f}" == f"{b:.4f}" == "0.0323"
    assert a - b == pytest.approx(float(ARTICLE_K60["4.2"] - ARTICLE_K60["6.1"]), rel=1e-6)
    assert 1e-6 < a - b < 1e-5


def test_fused_table_does_not_mutate_its_input():
    lists = copy.deepcopy(ARTICLE_LISTS)
    fused_table(lists, k=5, window=2)
    assert lists == ARTICLE_LISTS


def test_window_keeps_only_each_lists_top_n():
    # window 2: BM25 keeps 4.2, 6.1; vector keeps 5.3, 6.1 -> 6.1 = 2/62, 4.2 = 5.3 = 1/61 (tie: 4.2 first)
    table = fused_table(ARTICLE_LISTS, k=60, window=2)
    assert list(table["id"]) == ["6.1", "4.2", "5.3"]
    assert table["rrf_score"].tolist() == pytest.approx([2 / 62, 1 / 61, 1 / 61])


def test_unnamed_lists_are_named_l1_l2():
    table = fused_table([["a", "b"], ["b"]], k=1)
    assert {"rank[L1]", "rank[L2]"} <= set(table.columns)


# ------------------------------------------------------------------------------ curves, leaders
def test_score_curves_follow_the_formula():
    ranks = {"4.2": (1, 3), "6.1": (2, 2), "5.3": (None, 1), "3.5": (3, None)}
    curves = score_curves(ARTICLE_LISTS, [1, 7, 60, 200])
    for k in (1, 7, 60, 200):
        for item, pair in ranks.items():
            expected = sum(Fraction(1, k + r) for r in pair if r is not None)
            assert curves.at[k, item] == pytest.approx(float(expected), abs=1e-12)


def test_article_lists_have_the_same_leader_at_every_k():
    # 1/(k+1) + 1/(k+3) > 2/(k+2) for every k > 0 (1/x is convex), so 4.2 always leads.
    leaders = leader_by_k(ARTICLE_LISTS, range(1, 201))
    assert set(leaders["leader"]) == {"4.2"}
    assert lead_changes(ARTICLE_LISTS, range(1, 201)) == []


def test_lead_changes_where_the_hand_computed_crossing_lies():
    leaders = leader_by_k(CROSSING, range(1, 6))
    assert leaders["leader"].tolist() == ["A", "A", "B", "B", "B"]
    assert leaders.loc[leaders["k"] == 2, "margin"].item() == pytest.approx(2 / 3 - (1 / 4 + 2 / 5))
    assert lead_changes(CROSSING, range(1, 201)) == [LeadChange(3, "A", "B")]


def test_lead_changes_are_reported_at_the_scanned_k_values():
    assert lead_changes(CROSSING, [10, 1]) == [LeadChange(10, "A", "B")]
    assert lead_changes(CROSSING, [1, 2]) == []


def test_exercise_05_4_crossing_matches_the_quadratic():
    from ragmath.lab.notebook.exercises import nb05

    # 2/(k+1) = 1/(k+4) + 2/(k+5)  <=>  k^2 - 2k - 27 = 0  <=>  k = 1 + sqrt(28) ≈ 6.29
    assert lead_changes(nb05.EX4_LISTS, range(1, 201)) == [
        LeadChange(math.ceil(1 + math.sqrt(28)), "7.1", "6.1")
    ]


def test_a_tie_goes_to_the_smaller_id_as_rrf_does():
    leaders = leader_by_k({"L1": ["b"], "L2": ["a"]}, [1, 60])
    assert leaders["leader"].tolist() == ["a", "a"]
    assert leaders["tied"].all() and (leaders["margin"] == 0).all()


def test_a_single_item_leads_with_no_runner_up():
    leaders = leader_by_k({"L1": ["only"]}, [1])
    assert leaders.loc[0, "leader"] == "only" and leaders.loc[0, "runner_up"] is None


@pytest.mark.parametrize("ks", [[], [0], [math.inf], [True], [-3]])
def test_bad_k_values_are_refused(ks):
    with pytest.raises(ValueError, match="ks"):
        leader_by_k(ARTICLE_LISTS, ks)


def test_ks_must_be_an_iterable():
    with pytest.raises(TypeError, match="ks must be an iterable"):
        lead_changes(ARTICLE_LISTS, 60)


@settings(max_examples=60, deadline=None)
@given(
    lists=st.lists(
        st.lists(st.sampled_from(list("abcdefg")), min_size=1, max_size=6, unique=True),
        min_size=1,
        max_size=4,
    ),
    k=st.integers(min_value=1, max_value=300),
    window=st.one_of(st.none(), st.integers(min_value=1, max_value=6)),
)
def test_leader_is_rrfs_first_row(lists, k, window):
    leaders = leader_by_k(lists, [k], window)
    table = rrf(lists, k=k, window=window)
    assert leaders.loc[0, "leader"] == table["id"].iloc[0]
    assert leaders.loc[0, "score"] == pytest.approx(table["rrf_score"].iloc[0], abs=1e-15)
    if len(table) > 1:
        first, second = table["id"].iloc[0], table["id"].iloc[1]
        exact = {
            item: sum(
                (Fraction(1, k + r.index(item) + 1) for r in lists if item in r[:window]),
                Fraction(0),
            )
            for item in (first, second)
        }
        assert leaders.loc[0, "runner_up"] == second
        assert leaders.loc[0, "tied"] == (exact[first] == exact[second])


def test_describe_lead_names_the_leader_and_the_change():
    text = describe_lead(CROSSING, k=1, ks=range(1, 11))
    assert text.startswith("At k = 1, A leads with 1.0000")
    assert "the lead changes at k = 3 (A → B)" in text


# ---------------------------------------------------------------------------------- rendering
def test_table_html_carries_k_and_escapes_ids():
    table = fused_table({"L1": ["<b>x</b>", "y"]}, k=3)
    out = render_table_html(table, k=3, window=None)
    assert 'data-k="3"' in out and 'data-window="all"' in out
    assert "<b>x</b></b>" not in out and "&lt;b&gt;x&lt;/b&gt;" in out
    assert "1/4 = 0.2500" in out  # rank 1 at k = 3


# ------------------------------------------------------------------------------------ builder
def test_explorer_starts_with_the_article_k60_table():
    explorer = build_explorer()
    assert explorer.k_slider.value == 60 and explorer.k_slider.min == 1 and explorer.k_slider.max >= 200
    assert explorer.k_slider.continuous_update is False
    assert 'data-k="60"' in explorer.table_html.value
    assert _rows(explorer.table_html.value) == _shown(ARTICLE_K60)
    assert "4.2 leads" in explorer.leader_html.value and "never changes" in explorer.leader_html.value


def test_moving_k_to_1_shows_the_article_k1_values():
    explorer = build_explorer()
    explorer.k_slider.value = 1
    assert 'data-k="1"' in explorer.table_html.value
    assert _rows(explorer.table_html.value) == [
        ("4.2", "0.7500"),
        ("6.1", "0.6667"),
        ("5.3", "0.5000"),
        ("3.5", "0.2500"),
    ]
    assert "1/2 = 0.5000" in explorer.table_html.value  # 4.2's BM25 share, rank 1 at k = 1


def test_twenty_moves_update_one_figure_in_place():
    explorer = build_explorer()
    figures_before = plt.get_fignums()
    figure, draws = explorer.figure, explorer._chart.draw_count
    pictures = set()
    for step in range(20):
        explorer.k_slider.value = 1 + (step * 11) % 200
        pictures.add(explorer.image.value)
    assert plt.get_fignums() == figures_before
    assert explorer.figure is figure
    assert explorer._chart.draw_count == draws + 20
    assert len(pictures) > 1, "the chart did not change with k"
    assert explorer.image.value[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_duplicate_id_is_shown_as_a_message_not_raised():
    explorer = build_explorer()
    explorer.texts["BM25"].value = "4.2, 6.1, 4.2"
    assert explorer.error is not None and explorer.table is None
    assert "appears twice" in explorer.message.value and "BM25" in explorer.message.value
    assert 'data-error="1"' in explorer.table_html.value
    assert explorer.image.layout.visibility == "hidden"
    explorer.texts["BM25"].value = "4.2, 6.1, 3.5"
    assert explorer.error is None and explorer.message.value == ""
    assert explorer.image.layout.visibility == "visible"
    assert _rows(explorer.table_html.value) == _shown(ARTICLE_K60)


def test_an_empty_list_is_shown_as_a_message():
    explorer = build_explorer()
    explorer.texts["vector"].value = "  "
    assert "list &#x27;vector&#x27; is empty" in explorer.message.value


def test_editing_a_list_recomputes_table_and_lead():
    explorer = build_explorer(k=1)
    explorer.texts["vector"].value = "6.1, 5.3, 4.2"
    # 6.1: 1/3 + 1/2 = 5/6; 4.2: 1/2 + 1/4 = 3/4; 3.5: 1/4; 5.3: 1/3
    assert _rows(explorer.table_html.value) == _shown(
        {"6.1": Fraction(5, 6), "4.2": Fraction(3, 4), "5.3": Fraction(1, 3), "3.5": Fraction(1, 4)}
    )
    assert "At k = 1, 6.1 leads" in explorer.leader_html.value


def test_window_control_cuts_the_lists():
    explorer = build_explorer()
    explorer.window.value = 2
    assert 'data-window="2"' in explorer.table_html.value
    assert [item for item, _ in _rows(explorer.table_html.value)] == ["6.1", "4.2", "5.3"]
    explorer.window.value = 0  # "all"
    assert [item for item, _ in _rows(explorer.table_html.value)] == ["4.2", "6.1", "5.3", "3.5"]


def test_lead_line_lists_the_lead_changes():
    explorer = build_explorer(CROSSING, k=2)
    assert "At k = 2, A leads" in explorer.leader_html.value
    assert "k = 3 (A → B)" in explorer.leader_html.value


@pytest.mark.parametrize("k", [0, 201, 2.5, "60"])
def test_build_explorer_refuses_a_bad_k(k):
    with pytest.raises(ValueError, match="k must be an integer from 1 to 200"):
        build_explorer(k=k)


def test_build_explorer_refuses_a_bad_window():
    with pytest.raises(ValueError, match="window must be None"):
        build_explorer(window=0)


def test_build_explorer_refuses_duplicates_and_ids_with_separators():
    with pytest.raises(ValueError, match="appears twice"):
        build_explorer({"L1": ["a", "a"]})
    with pytest.raises(ValueError, match="contains a comma"):
        build_explorer({"L1": ["a,b"]})
    with pytest.raises(ValueError, match="starts or ends with a space"):
        build_explorer({"L1": [" a"]})
    assert build_explorer({"L1": ["a b"]}).table["id"].tolist() == ["a b"]


def test_build_explorer_does_not_mutate_its_input():
    lists = copy.deepcopy(ARTICLE_LISTS)
    explorer = build_explorer(lists)
    explorer.texts["BM25"].value = "9.9"
    assert lists == ARTICLE_LISTS


# ---------------------------------------------------------------------------- in a real kernel
KERNEL_CHECK = '''
import re as _re
_before = explorer.table_html.value
# set_state is the path a browser's slider message takes into the kernel
explorer.k_slider.set_state({"value": 1})
_after = explorer.table_html.value
print("BEFORE", _re.findall(r'data-k="\\d+"', _before), _re.findall(r"<td><b>(0\\.\\d{4})</b></td>", _before))
print("AFTER", _re.findall(r'data-k="\\d+"', _after), _re.findall(r"<td><b>(0\\.\\d{4})</b></td>", _after))
'''


@pytest.mark.notebooks
@pytest.mark.slow
def test_slider_callback_in_a_kernel_moves_k_from_60_to_1():
    import nbformat
    from nbclient import NotebookClient

    path = ROOT / "notebooks" / "rrf_explorer.ipynb"
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(KERNEL_CHECK))
    NotebookClient(
        nb,
        timeout=180,
        kernel_name="python3",
        store_widget_state=True,
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    text = printed(nb.cells[-1])
    before = re.search(r"^BEFORE (.*)$", text, flags=re.M).group(1)
    after = re.search(r"^AFTER (.*)$", text, flags=re.M).group(1)
    k60 = [s for _, s in _shown(ARTICLE_K60)]
    assert before == f"""['data-k="60"'] {k60}"""
    assert after == """['data-k="1"'] ['0.7500', '0.6667', '0.5000', '0.2500']"""
    # the widget state saved with the notebook holds the new slider value
    states = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    sliders = [s["state"] for s in states.values() if s["model_name"] == "IntSliderModel"]
    assert [s["value"] for s in sliders] == [1]


# ------------------------------------------------------------------------- exercises of nb05
@pytest.mark.parametrize(
    "exercise, right, wrong",
    [
        ("05.1", 2 / 22, 2 / 21),  # 6.1 is second in both lists: 1/(20+2) + 1/(20+2)
        ("05.2", "6.1", "4.2"),  # window 2: 6.1 = 2/62 beats 4.2 = 5.3 = 1/61
        # 6.1 = 1/62 + 1/62 + 1/61; 4.2 = 5.3 = 1/61 + 1/63 (tie: smaller ID); 3.5 = 1/63 + 1/62
        ("05.3", ["6.1", "4.2", "5.3", "3.5"], ["6.1", "5.3", "4.2", "3.5"]),
        ("05.4", 7, 6),  # 2/(k+1) = 1/(k+4) + 2/(k+5) at k = 1 + sqrt(28) ≈ 6.29
        ("05.5", "4.2", "6.1"),  # aligned: 4.2 = 1/62 + 1/61 > 3.5 = 2/63 > 6.1 = 1/61
    ],
)
def test_exercise_self_checks_accept_the_hand_answer_only(exercise, right, wrong, capsys):
    from ragmath.lab.notebook.selfcheck import MARKS, check

    assert check(exercise, right) is True
    assert check(exercise, wrong) is False
    assert check(exercise, None) is False
    out = capsys.readouterr().out
    assert out.count(MARKS["right"]) == 1 and out.count(MARKS["wrong"]) == 1  # None: not answered yet, not ✗
    assert out.count(MARKS["unanswered"]) == 1
    assert repr(right) not in out.replace(repr(wrong), "")
