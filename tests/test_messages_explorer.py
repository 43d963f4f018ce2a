"""The RRF k explorer in Chinese: chosen with use_language("zh") before build_explorer().

The numbers must be the English explorer's (worked by hand from RRF = Σ 1/(k + rank) with exact
fractions, the article's k = 1 table: 4.2 = 1/2 + 1/4, 6.1 = 1/3 + 1/3, 5.3 = 1/2, 3.5 = 1/4); only
the words change, and no English word is left but the names the reader typed or must type
(IDs, list names, Python names such as ``range`` or ``ragmath.rrf``).
"""

from __future__ import annotations

import html
import re
import warnings
from fractions import Fraction
from pathlib import Path

import pytest
from outputs import printed

from ragmath.lab.messages import use_language
from ragmath.lab.notebook.widgets import (
    ARTICLE_LISTS,
    MAX_IDS,
    TOP_DRAWN,
    build_explorer,
    check_size,
    describe_lead,
    fused_table,
    parse_list,
    parse_lists,
    render_table_html,
    score_curves,
)

ROOT = Path(__file__).resolve().parent.parent

ARTICLE_K1 = {"4.2": Fraction(3, 4), "6.1": Fraction(2, 3), "5.3": Fraction(1, 2), "3.5": Fraction(1, 4)}
# A = 2/(k+1); B = 1/(k+2) + 2/(k+3): A leads at k = 1, 2, B from k = 3 (A = B at k = √5).
CROSSING = {"L1": ["A", "B"], "L2": ["A", "X", "B"], "L3": ["Y", "Z", "B"]}
# Y, Z = 1/2 + 1/3 each; A = B = 1/2 at k = 1.
TIED_AT_1 = {"L1": ["A", "X"], "L2": ["Y", "Z", "B"], "L3": ["Z", "Y", "B"]}


@pytest.fixture
def zh():
    use_language("zh")
    yield
    use_language("en")


def _text(markup: str) -> str:
    """What a reader sees of an HTML fragment: tags and style blocks removed, entities decoded."""
    markup = re.sub(r"<style>.*?</style>", " ", markup, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def _english_words(text: str, allowed: set[str] = frozenset()) -> list[str]:
    """Latin words of 2+ letters in ``text``, less metric names, IDs and the given allowed words."""
    keep = {"RRF", "ID", "BM25", "vector", *allowed}
    return [w for w in re.findall(r"[A-Za-z][A-Za-z0-9_.]+", text) if w not in keep]


def _rows(table_html: str) -> list[tuple[str, str]]:
    """(ID, shown RRF score) for each row of the explorer's HTML table, top to bottom."""
    rows = []
    for item, body in re.findall(r'<tr data-id="([^"]*)">(.*?)</tr>', table_html, flags=re.S):
        cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td>(.*?)</td>", body, flags=re.S)]
        rows.append((item, cells[-2]))
    return rows


def _headers(table_html: str) -> list[str]:
    return [html.unescape(h) for h in re.findall(r"<th>(.*?)</th>", table_html)]


# ------------------------------------------------------------------------------------ the table
def test_chinese_table_has_the_article_k1_numbers_and_chinese_headers(zh):
    explorer = build_explorer(k=1)
    out = explorer.table_html.value
    hand = sorted(ARTICLE_K1, key=lambda i: -ARTICLE_K1[i])
    assert _rows(out) == [(i, f"{float(ARTICLE_K1[i]):.4f}") for i in hand]
    assert 'data-k="1"' in out and 'data-window="all"' in out
    assert _headers(out) == ["名次", "ID", "BM25 名次", "BM25：1/(k+名次)", "vector 名次",
                             "vector：1/(k+名次)", "融合得分", "领先下一名"]
    assert "1/2 = 0.5000" in out  # 4.2's BM25 share: rank 1 at k = 1
    assert _english_words(_text(out)) == []


def test_chinese_and_english_explorers_hold_the_same_data():
    english = build_explorer(k=1)
    use_language("zh")
    try:
        chinese = build_explorer(k=1)
    finally:
        use_language("en")
    assert chinese.table.equals(english.table)  # the DataFrame's columns stay language-free
    assert _rows(chinese.table_html.value) == _rows(english.table_html.value)
    assert list(chinese.table.columns) == ["id", "rrf_rank", "rrf_score", "rank[BM25]", "contrib[BM25]",
                                           "rank[vector]", "contrib[vector]"]


def test_chinese_table_marks_ties(zh):
    table = fused_table(TIED_AT_1, k=1)
    out = render_table_html(table, k=1)
    rows = []
    for item, body in re.findall(r'<tr data-id="([^"]*)">(.*?)</tr>', out, flags=re.S):
        cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td>(.*?)</td>", body, flags=re.S)]
        rows.append((cells[0], item, cells[-1]))
    # Y = Z = 5/6 share place 1; A = B = 1/2 share place 3; Z leads A by 5/6 - 1/2 = 1/3
    assert rows[:4] == [("1（并列）", "Y", "并列"), ("1（并列）", "Z", "0.3333"),
                        ("3（并列）", "A", "并列"), ("3（并列）", "B", "0.1667")]


# ------------------------------------------------------------------------------- the lead line
def test_chinese_lead_line_names_the_leader_and_its_margin(zh):
    explorer = build_explorer(k=1)
    # 4.2 = 3/4 leads 6.1 = 2/3 by 1/12 = 0.0833; 4.2 leads at every k (1/x is convex)
    assert _text(explorer.leader_html.value).strip() == (
        "k = 1 时 4.2 领先，得分 0.7500（比 6.1 高 0.0833）。在 k = 1…200 范围内，第一名始终不变。")


def test_chinese_describe_lead_gives_the_hand_computed_change(zh):
    # at k = 2: A = 2/3, B = 1/4 + 2/5 = 13/20, margin 1/60 = 0.0167; B leads from k = 3
    assert describe_lead(CROSSING, 2, ks=range(1, 11)) == (
        "k = 2 时 A 领先，得分 0.6667（比 B 高 0.0167）。在 k = 1…10 范围内，第一名在 k = 3（A → B）处易主。")


def test_chinese_lead_line_for_a_tie_and_a_single_item(zh):
    # at k = 1, a and b are each first in one list: 1/2 each; the smaller ID is listed first
    assert describe_lead({"L1": ["b"], "L2": ["a"]}, 1, ks=[1]).startswith(
        "k = 1 时 a 和 b 并列，都是 0.5000；a 排在前面（ID 较小）。")
    assert describe_lead({"L1": ["x"]}, 3, ks=[3]) == (
        "k = 3 时只有 x 一项（0.2500）。在 k = 3…3 范围内，第一名始终不变。")


# ----------------------------------------------------------------------------- the controls
def test_chinese_controls_and_help(zh):
    explorer = build_explorer(window=2)
    assert explorer.window.description == "召回窗口"
    assert explorer.window.options[:3] == (("全部", 0), ("前 1 名", 1), ("前 2 名", 2))
    assert explorer.window.value == 2 and 'data-window="2"' in explorer.table_html.value
    box = explorer.texts["BM25"]
    assert box.description == "BM25" and box.placeholder == "按名次先后写 ID，例如 4.2, 6.1, 3.5"
    shown = " ".join(_text(child.value) for child in explorer.widget.children if hasattr(child, "value")
                     and isinstance(child.value, str) and child not in explorer.texts.values())
    assert f"{MAX_IDS:,} 个 ID" in shown and f"前 {TOP_DRAWN} 项" in shown
    assert _english_words(shown) == []


# ------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "text, expected",
    [
        ("4.2, 6.1, 4.2", "列表 'BM25'：ID '4.2' 出现了两次（第 1 位和第 3 位）；"),
        ("a,,b", "列表 'BM25'：第 2 项是空的（两个逗号之间什么也没有）；请删掉多余的逗号"),
        ("  ", "列表 'BM25' 是空的：请至少输入一个 ID"),
    ],
)
def test_chinese_errors_for_typed_lists(zh, text, expected):
    with pytest.raises(ValueError) as raised:
        parse_list(text, name="BM25")
    assert str(raised.value).startswith(expected)
    quoted = re.sub(r"'[^']*'", "", str(raised.value))  # the IDs and examples the reader typed
    assert _english_words(quoted) == []


def test_a_typed_duplicate_shows_a_chinese_message_in_the_explorer(zh):
    explorer = build_explorer()
    explorer.texts["BM25"].value = "4.2, 6.1, 4.2"
    assert "ID &#x27;4.2&#x27; 出现了两次（第 1 位和第 3 位）" in explorer.message.value
    assert 'data-error="1"' in explorer.table_html.value
    assert _text(explorer.table_html.value).strip() == "改正上面的输入后，这里会显示融合结果表。"
    explorer.texts["BM25"].value = "4.2 6.1, 3.5"
    assert explorer.error is None
    assert "注意：列表 'BM25' 中的 ID '4.2 6.1' 含有空格" in _text(explorer.message.value)


def test_chinese_errors_of_the_builder_and_the_size_cap(zh):
    with pytest.raises(ValueError, match=r"^k 必须是 1 到 200 之间的整数，实际是 0；例如 k=60$"):
        build_explorer(k=0)
    with pytest.raises(ValueError, match=r"^window 必须是 None（全部）或 1 到 20 之间的整数，实际是 0$"):
        build_explorer(window=0)
    with pytest.raises(ValueError, match=r"^列表 'L1'：ID 'a,b' 含有逗号"):
        build_explorer({"L1": ["a,b"]})
    too_many = {"L1": [str(i) for i in range(MAX_IDS)], "L2": ["extra"]}
    with pytest.raises(ValueError, match=rf"^这些列表共有 {MAX_IDS + 1:,} 个不同的 ID") as raised:
        check_size(too_many)
    assert _english_words(str(raised.value), {"notebook", "ragmath.rrf", "lists"}) == []
    with pytest.raises(TypeError, match="^列表 'L1'：应为 '4.2, 6.1, 3.5' 这样的文本，实际是 list"):
        parse_list(["4.2"], name="L1")
    with pytest.raises(ValueError, match="^texts 是空的"):
        parse_lists({})
    with pytest.raises(ValueError, match="^ks 是空的"):
        score_curves(ARTICLE_LISTS, [])


# -------------------------------------------------------------------------------- the chart
def _chart_texts(explorer) -> list[str]:
    chart = explorer._chart
    found = [chart.ax_bars.get_title(loc="left"), chart.ax_bars.get_xlabel(), chart.ax_curves.get_title(),
             chart.ax_curves.get_xlabel(), chart.ax_curves.get_ylabel(),
             chart.ax_curves.get_legend().get_title().get_text()]
    return found + ([chart._note.get_text()] if chart._note is not None else [])


def test_chinese_chart_titles_axes_and_legend(zh):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        explorer = build_explorer(k=1)
        explorer.k_slider.value = 7
    assert _chart_texts(explorer) == ["k = 7 时各列表的贡献", "融合得分 = Σ 1/(k + 名次)",
                                      "各项得分 ÷ 第一名的得分（黑线：当前 k）", "k（对数坐标）",
                                      "得分 ÷ 第一名的得分", "各项"]
    assert not [str(w.message) for w in caught if "missing from font" in str(w.message)]


def test_chinese_chart_marks_ties_and_notes_a_long_list(zh):
    # P = (1, 3) and Q = (3, 1): both 1/6 + 1/8 at k = 5
    explorer = build_explorer({"L1": ["P", "R", "Q"], "L2": ["Q", "R", "P"]}, k=5)
    labels = [t.get_text() for t in explorer._chart._labels]
    assert labels[0].endswith(" 并列") and labels[1].endswith(" 并列") and not labels[2].endswith("并列")
    ids = [f"d{i:03d}" for i in range(300)]
    long = build_explorer({"BM25": ids, "vector": ids[::-1]}, k=60)
    note = long._chart._note.get_text()
    assert note.startswith(f"图中只画出 300 项中的前 {TOP_DRAWN} 项") and "表格列出全部 300 项" in note
    assert _english_words(note) == []


def test_the_language_chosen_before_building_is_the_one_shown():
    use_language("zh")
    try:
        chinese = build_explorer()
    finally:
        use_language("en")
    english = build_explorer()
    assert "领先" in chinese.leader_html.value and "召回窗口" == chinese.window.description
    assert "4.2 leads" in english.leader_html.value and english.window.description == "window"
    assert _headers(english.table_html.value)[0] == "place"


# ---------------------------------------------------------------------------- in a real kernel
@pytest.mark.notebooks
@pytest.mark.slow
def test_the_chinese_explorer_notebook_shows_chinese_and_the_same_numbers():
    import nbformat
    from nbclient import NotebookClient

    path = ROOT / "notebooks" / "zh" / "rrf_explorer.ipynb"
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(
        'explorer.k_slider.set_state({"value": 1})\nprint(explorer.table_html.value)\n'
        "print(explorer.leader_html.value)"))
    NotebookClient(nb, timeout=180, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    text = printed(nb.cells[-1])
    hand = sorted(ARTICLE_K1, key=lambda i: -ARTICLE_K1[i])
    assert _rows(text) == [(i, f"{float(ARTICLE_K1[i]):.4f}") for i in hand]
    assert "<th>融合得分</th>" in text and "k = 1 时 4.2 领先，得分 0.7500" in text
