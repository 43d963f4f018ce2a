"""The k explorer's hard cases: stable colours, exact ties, long lists, IDs as plain text, the size cap.

Expected values are worked by hand from RRF = Σ 1/(k + rank) with exact fractions.
"""

from __future__ import annotations

import re
import warnings

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ragmath.lab.notebook.widgets import (
    MAX_IDS,
    PALETTE,
    TOP_DRAWN,
    build_explorer,
    check_size,
    drawn_items,
    format_list,
    fused_table,
    item_colours,
    render_table_html,
    tie_places,
)


def _places_and_gaps(table_html: str) -> list[tuple[str, str, str]]:
    """(place, ID, last column) for each row of the explorer's HTML table."""
    rows = []
    for item, body in re.findall(r'<tr data-id="([^"]*)">(.*?)</tr>', table_html, flags=re.S):
        cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td>(.*?)</td>", body, flags=re.S)]
        rows.append((cells[0], item, cells[-1]))
    return rows


def _name_colours(explorer) -> dict[str, str]:
    """ID -> colour of its name beside the bars, as drawn now."""
    return {t.get_text(): t.get_color() for t in explorer._chart._names}


# ----------------------------------------------------------------------------------- colours
def test_colours_follow_first_appearance_across_the_lists():
    colours = item_colours({"L1": ["b", "a"], "L2": ["c", "a", "d"]})
    assert colours == {"b": PALETTE[0], "a": PALETTE[1], "c": PALETTE[2], "d": PALETTE[3]}


def test_an_items_colour_does_not_change_with_the_window_or_k():
    explorer = build_explorer({"BM25": ["4.2", "6.1", "3.5"], "vector": ["5.3", "6.1", "4.2"]})
    before = _name_colours(explorer)
    explorer.window.value = 1  # only 4.2 and 5.3 are left
    explorer.k_slider.value = 1
    after = _name_colours(explorer)
    assert set(after) == {"4.2", "5.3"}
    assert all(after[item] == before[item] for item in after)
    # by first appearance: 4.2, 6.1, 3.5 (BM25), then 5.3 (vector)
    assert before == {"4.2": PALETTE[0], "6.1": PALETTE[1], "3.5": PALETTE[2], "5.3": PALETTE[3]}


# -------------------------------------------------------------------------------------- ties
# A is first in L1 only: 1/(k+1). B is third in L2 and in L3: 2/(k+3). At k = 1 both are 1/2;
# at k = 2, A = 1/3 and B = 2/5.
TIED_AT_1 = {"L1": ["A", "X"], "L2": ["Y", "Z", "B"], "L3": ["Z", "Y", "B"]}


def test_equal_scores_share_a_place_and_say_tied():
    table = fused_table(TIED_AT_1, k=1)
    # Y and Z: 1/2 + 1/3 = 5/6 each; A = B = 1/2; X = 1/3
    assert tie_places(table, 1) == ([1, 1, 3, 3, 5], [True, True, True, True, False])
    rows = _places_and_gaps(render_table_html(table, k=1))
    assert rows[:4] == [("1 (tied)", "Y", "tied"), ("1 (tied)", "Z", "0.3333"),
                        ("3 (tied)", "A", "tied"), ("3 (tied)", "B", "0.1667")]
    assert rows[4][:2] == ("5", "X")
    assert "0.0000" not in render_table_html(table, k=1)


def test_a_gap_in_the_fifth_decimal_is_not_a_tie():
    # the article at k = 60: 4.2 = 1/61 + 1/63, 6.1 = 2/62; they differ by about 5e-6
    table = fused_table({"BM25": ["4.2", "6.1", "3.5"], "vector": ["5.3", "6.1", "4.2"]}, k=60)
    places, tied = tie_places(table, 60)
    assert places[:2] == [1, 2] and tied[:2] == [False, False]
    first = _places_and_gaps(render_table_html(table, k=60))[0]
    assert first[0] == "1" and first[2].startswith("0.00000")


def test_the_chart_marks_tied_bars_and_draws_coinciding_curves_apart():
    # P = (1, 3) and Q = (3, 1): the same ranks, so the same score at every k
    explorer = build_explorer({"L1": ["P", "R", "Q"], "L2": ["Q", "R", "P"]}, k=5)
    labels = [t.get_text() for t in explorer._chart._labels]
    assert labels[0].endswith(" tied") and labels[1].endswith(" tied") and not labels[2].endswith("tied")
    lines = explorer._chart.ax_curves.get_lines()[: len(explorer._chart.drawn)]
    styles = {line.get_color(): line.get_linestyle() for line in lines}
    assert sorted(styles.values()) == ["-", "-", "--"]
    legend = [t.get_text() for t in explorer._chart.ax_curves.get_legend().get_texts()]
    assert "Q (= P)" in legend


# ------------------------------------------------------------------------------- long lists
def test_a_long_list_draws_the_top_items_and_tables_them_all():
    ids = [f"d{i:03d}" for i in range(300)]
    explorer = build_explorer({"BM25": ids, "vector": ids[::-1]}, k=60)
    chart = explorer._chart
    assert len(chart._names) == TOP_DRAWN and len(chart.drawn) == TOP_DRAWN
    assert chart._note is not None and f"top {TOP_DRAWN} of 300 items" in chart._note.get_text()
    assert len(re.findall(r"<tr data-id=", explorer.table_html.value)) == 300
    assert "overflow-y:auto" in explorer.table_html.value


def test_drawn_items_are_those_reaching_the_best_places():
    # at k = 1: C = 1/4 + 1/2 = 3/4 leads, B = 1/3 + 1/4 = 7/12 is second
    assert drawn_items({"L1": ["A", "B", "C"], "L2": ["C", "D", "B"]}, [1], top=2) == ["C", "B"]


# --------------------------------------------------------------------------------- plain text
@pytest.mark.parametrize("item", ["$x^$", r"$\frac{1}{2}$"])
def test_ids_with_dollar_signs_draw_as_typed(item):
    explorer = build_explorer({"L1": [item, "b"], "L2": ["b"]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        explorer.k_slider.value = 7  # a mathtext parse of "$x^$" would raise here
    names = {t.get_text(): t for t in explorer._chart._names}
    assert item in names
    legend = [t.get_text() for t in explorer._chart.ax_curves.get_legend().get_texts()]
    assert item in legend
    # drawn literally: as wide as the same string, same font, drawn with mathtext switched off
    shown = names[item]
    figure = Figure(dpi=shown.figure.dpi)
    renderer = FigureCanvasAgg(figure).get_renderer()
    same_font = shown.get_fontproperties()
    literal = figure.text(0, 0, item, fontproperties=same_font, parse_math=False)
    width = shown.get_window_extent(explorer._chart.figure.canvas.get_renderer()).width
    assert width == pytest.approx(literal.get_window_extent(renderer).width, rel=0.02)


def test_mathtext_would_have_drawn_the_fraction_narrower():
    """The width check above can fail: mathtext draws $\\frac{1}{2}$ much narrower than the text."""
    figure = Figure()
    renderer = FigureCanvasAgg(figure).get_renderer()
    literal = figure.text(0, 0, r"$\frac{1}{2}$", parse_math=False).get_window_extent(renderer).width
    maths = figure.text(0, 0, r"$\frac{1}{2}$").get_window_extent(renderer).width
    assert maths < literal / 2


# -------------------------------------------------------------------------------------- cap
def test_check_size_counts_distinct_ids_and_refuses_past_the_cap():
    assert check_size({"L1": ["a", "b"], "L2": ["b", "c"]}) == 3
    too_many = {"L1": [str(i) for i in range(MAX_IDS)], "L2": ["extra"]}
    with pytest.raises(ValueError, match=rf"name {MAX_IDS + 1:,} distinct IDs.*at most {MAX_IDS:,}"):
        check_size(too_many)
    with pytest.raises(ValueError, match="at most"):
        build_explorer(too_many)


def test_typing_a_list_past_the_cap_shows_a_message():
    explorer = build_explorer()
    explorer.texts["BM25"].value = format_list(f"d{i}" for i in range(MAX_IDS + 5))
    assert explorer.error is not None and "ragmath.rrf" in explorer.message.value
    assert explorer.image.layout.visibility == "hidden"
    assert 'data-error="1"' in explorer.table_html.value


def test_an_id_with_a_space_gets_a_note_not_an_error():
    explorer = build_explorer()
    explorer.texts["BM25"].value = "4.2 6.1, 3.5"
    assert explorer.error is None
    assert explorer.table["id"].tolist()[0] in {"4.2 6.1", "5.3", "3.5", "4.2", "6.1"}
    assert "with a space in it" in explorer.message.value and "4.2 6.1" in explorer.message.value


def test_notebook_05_charts_and_the_explorer_give_an_item_one_colour(monkeypatch):
    """Run notebook 05 up to its section-6 chart (Agg, no display) and compare line colours."""
    import json
    from pathlib import Path

    import matplotlib
    import matplotlib.pyplot as plt

    from ragmath.lab.notebook import plotting, widgets

    assert widgets.item_colours is plotting.item_colours  # one rule, not two copies
    matplotlib.use("Agg")
    monkeypatch.setattr(plt, "show", lambda *a, **k: None)
    nb = json.loads((Path(__file__).resolve().parent.parent / "notebooks" / "05_rrf.ipynb")
                    .read_text(encoding="utf-8"))
    code = [("".join(c["source"])) for c in nb["cells"] if c["cell_type"] == "code"]
    upto = next(i for i, src in enumerate(code) if src.startswith("def plot_curves"))
    namespace = {"display": lambda *a, **k: None}
    plt.close("all")
    for src in code[1:upto + 1]:
        exec(compile(src, "05_rrf.ipynb", "exec"), namespace)  # noqa: S102 - the notebook's own cells
    figure = plt.gcf()
    notebook = {line.get_label(): matplotlib.colors.to_hex(line.get_color())
                for ax in figure.axes for line in ax.get_lines() if not line.get_label().startswith("_")}
    plt.close("all")
    explorer = build_explorer(widgets.ARTICLE_LISTS, k=60)
    chart = explorer._chart
    drawn = {str(item): matplotlib.colors.to_hex(line.get_color())
             for item, line in zip(chart.drawn, chart.ax_curves.get_lines(), strict=False)}
    assert set(notebook) == {"4.2", "6.1", "3.5", "5.3"}
    assert {item: notebook[item] for item in drawn} == drawn
