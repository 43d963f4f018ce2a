"""Tables in the Chinese edition show Chinese headers beside the names the code uses; English is untouched.

The words live in ``ragmath/lab/messages/columns.py``; ``reader_headers`` applies them, and
``use_language`` has IPython display every DataFrame and Styler through it. Here: the function on small
tables (expected headers written by hand from the catalogue's words), the display hook in an IPython
shell, and the executed Chinese notebooks' HTML tables, whose header labels are read from ``<thead>``.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
from outputs import cell_outputs

from ragmath.lab.messages import CATALOGUE, fields_of, reader_headers, use_language

ROOT = Path(__file__).resolve().parent.parent
ZH_DIR = ROOT / "notebooks" / "zh"
ALL_ZH = sorted([*ZH_DIR.glob("*.ipynb"), *(ZH_DIR / "solutions").glob("*.ipynb")])
CJK = re.compile(r"[\u4e00-\u9fff]")


def _zh(table):
    use_language("zh")
    try:
        return reader_headers(table)
    finally:
        use_language("en")


# -------------------------------------------------------------------------------- the function
def test_english_tables_are_returned_as_they_are():
    table = pd.DataFrame({"mean": [0.5]}, index=pd.Index(["A"], name="version"))
    styled = table.style.format("{:.2f}")
    assert reader_headers(table) is table
    assert reader_headers(styled) is styled


def test_known_headers_show_their_chinese_word_then_the_code_name():
    table = pd.DataFrame([[0.5, 0.4, 0.6, 30, 0.01, 0.02, "3/1/2"]],
                         columns=["mean", "low", "high", "questions", "p", "p_holm", "W/T/L"])
    assert list(_zh(table).columns) == ["均值（mean）", "下限（low）", "上限（high）", "问题数（questions）",
                                        "p 值（p）", "Holm 校正后 p 值（p_holm）", "变好/持平/变差（W/T/L）"]


def test_every_column_word_of_the_catalogue_is_shown_with_its_name():
    words = {key.removeprefix("columns."): texts["zh"] for key, texts in CATALOGUE.items()
             if key.startswith("columns.") and not fields_of(texts["en"])}
    shown = list(_zh(pd.DataFrame(columns=list(words))).columns)
    assert len(words) > 80
    assert shown == [f"{word}（{name}）" for name, word in words.items()]
    assert all(CJK.search(word) for word in words.values())


def test_a_header_template_keeps_its_data_part():
    table = pd.DataFrame(columns=["best D nDCG@5 at each value", "clean: nDCG@5", "leaky: MRR@5"])
    assert list(_zh(table).columns) == ["每个取值下最好的 D nDCG@5（best D nDCG@5 at each value）",
                                        "无泄漏：nDCG@5（clean: nDCG@5）", "有泄漏：MRR@5（leaky: MRR@5）"]


def test_data_and_unknown_headers_are_left_as_they_are():
    names = ["Recall@5", "Judged@K", "A", "Oracle", "BM25", "jieba_plain", "k", 3, "BM25 名次", "means"]
    table = pd.DataFrame([list(range(len(names)))], columns=names, index=pd.Index(["Q07"], name="q"))
    shown = _zh(table)
    assert list(shown.columns) == names and shown.index.name == "q"


def test_row_labels_are_data_and_stay():
    table = pd.DataFrame({"mean": [1.0, 2.0]}, index=["mean", "questions"])
    assert list(_zh(table).index) == ["mean", "questions"]


def test_multiindex_levels_and_both_axes_names_are_shown_in_chinese():
    columns = pd.MultiIndex.from_tuples([("mean", "MRR@5"), ("low", "MRR@5")], names=[None, "metric"])
    index = pd.MultiIndex.from_tuples([("conflict", "A")], names=["type", "version"])
    shown = _zh(pd.DataFrame([[0.5, 0.4]], columns=columns, index=index))
    assert list(shown.columns) == [("均值（mean）", "MRR@5"), ("下限（low）", "MRR@5")]
    assert list(shown.columns.names) == [None, "指标（metric）"]
    assert list(shown.index.names) == ["题型（type）", "版本（version）"]
    assert list(shown.index) == [("conflict", "A")]


def test_the_table_given_is_not_changed():
    table = pd.DataFrame({"mean": [0.5]}, index=pd.Index(["A"], name="version"))
    styled = table.style.format("{:.3f}")
    _zh(table)
    _zh(styled)
    assert list(table.columns) == ["mean"] and table.index.name == "version"
    assert "均值" not in styled.to_html()


def test_a_styler_keeps_its_formats_and_styles_and_shows_chinese_headers():
    table = pd.DataFrame({"chunk_id": ["TRV26-4.2-a"], "mean": [0.5]}, index=pd.Index([0], name="rank"))
    styled = table.style.format({"mean": "{:.3f}"}).set_properties(**{"text-align": "left"})
    html = _zh(styled).to_html()
    assert "片段 ID（chunk_id）" in html and "均值（mean）" in html and "名次（rank）" in html
    assert "0.500" in html and "text-align: left" in html and "TRV26-4.2-a" in html


def test_anything_but_a_table_is_refused():
    with pytest.raises(TypeError, match="reader_headers takes a pandas DataFrame or Styler, got Series"):
        reader_headers(pd.Series([1.0], name="mean"))


# ------------------------------------------------------------------------------ IPython's display
@pytest.fixture
def shell():
    """An IPython shell for this test only (``get_ipython()`` finds it), cleared afterwards."""
    from IPython.core.interactiveshell import InteractiveShell

    yield InteractiveShell.instance()
    use_language("en")
    InteractiveShell.clear_instance()


def test_choosing_chinese_displays_tables_with_chinese_headers_and_english_restores_pandas(shell):
    table = pd.DataFrame({"mean": [0.5], "Recall@5": [0.4]}, index=pd.Index(["A"], name="version"))
    styled = table.style.format("{:.2f}")
    before = [shell.display_formatter.format(t)[0] for t in (table, styled)]
    use_language("zh")
    frame_html, styler_html = (shell.display_formatter.format(t)[0]["text/html"] for t in (table, styled))
    frame_text = shell.display_formatter.format(table)[0]["text/plain"]
    assert _header_labels(frame_html) == ["均值（mean）", "Recall@5", "版本（version）"]
    assert _header_labels(styler_html) == ["均值（mean）", "Recall@5", "版本（version）"]
    assert "均值（mean）" in frame_text and "版本（version）" in frame_text
    use_language("en")
    assert [shell.display_formatter.format(t)[0] for t in (table, styled)] == before


# ---------------------------------------------------------------------------- executed notebooks
class _Headers(HTMLParser):
    """The text of every ``<th>`` inside a ``<thead>``: column headers and index names (not row labels)."""

    def __init__(self) -> None:
        super().__init__()
        self.labels: list[str] = []
        self._in_head = self._in_th = False

    def handle_starttag(self, tag, attrs):
        if tag == "thead":
            self._in_head = True
        elif tag == "th" and self._in_head:
            self._in_th, self._text = True, ""

    def handle_endtag(self, tag):
        if tag == "thead":
            self._in_head = False
        elif tag == "th" and self._in_th:
            self._in_th = False
            if self._text.strip():
                self.labels.append(self._text.strip())

    def handle_data(self, data):
        if self._in_th:
            self._text += data


def _header_labels(html: str) -> list[str]:
    parser = _Headers()
    parser.feed(html)
    return parser.labels


def _table_headers(nb) -> list[str]:
    """Every header label of the tables a notebook's outputs show, in order."""
    return [label for cell in nb.cells if cell.cell_type == "code" for out in cell_outputs(cell)
            for label in _header_labels(str(out.get("data", {}).get("text/html", "")))
            if "<table" in str(out.get("data", {}).get("text/html", ""))]


#: Header labels that are data, kept as they are in Chinese: metric names (with a version before them
#: or a baseline after them: "D nDCG@5", "nDCG@5 − A"), versions, lists, tokenizers, the reranker's
#: features, identities, question IDs, split and gain names, function names, formulas, one-letter symbols.
DATA_HEADERS = re.compile(r"""(?x)^(?:
    (?:[A-E]\ )?\w+@\w+(?:\ −\ (?:[A-E]|bm25))? | [A-E] | Oracle | BM25 | RRF | vector
    | rrf-k60 | bm25-bigram
    | jieba(?:_plain|_search)?(?::\ \S+)? | bigram
    | bm25 | cosine | rrf | exact_id | title_overlap | text_overlap | live | memory
    | finance_officer | p6_employee | q\d+ | dev | holdout | exp | linear
    | ragmath(?:\.compare)? | bootstrap_interval | (?:gain/)?log2\(i\+1\) | [kKMNWxq]
    | \d+  # a grade: the rows and columns of 08's confusion matrix
)$""")


def test_data_headers_are_told_apart_from_words():
    assert all(DATA_HEADERS.match(h) for h in ["nDCG@5", "D Recall@M", "C", "jieba: TRV26-4.2-a", "q4", "k"])
    assert all(DATA_HEADERS.match(h) for h in ["nDCG@5 − A", "Judged@K", "log2(i+1)", "bm25", "Oracle"])
    assert all(DATA_HEADERS.match(h) for h in ["nDCG@5 − bm25", "rrf-k60", "bm25-bigram"])  # notebook 08's
    assert all(DATA_HEADERS.match(h) for h in ["0", "1", "2"])  # grades: 08's confusion matrix
    assert not any(DATA_HEADERS.match(h) for h in ["mean", "caveat", "questions", "answers correct", "Ab",
                                                  "best D nDCG@5 at each value", "clean: nDCG@5"])


def _english_headers(labels: list[str]) -> list[str]:
    """The labels with no Chinese in them that are not data: headers a Chinese reader sees in English."""
    return sorted({label for label in labels if not CJK.search(label) and not DATA_HEADERS.match(label)})


def test_english_headers_are_found_among_chinese_and_data():
    assert _english_headers(["均值（mean）", "Recall@5", "A", "mean", "caveat", "k"]) == ["caveat", "mean"]


@pytest.mark.notebooks
@pytest.mark.slow
@pytest.mark.parametrize("path", ALL_ZH, ids=lambda p: str(p.relative_to(ZH_DIR)))
def test_no_chinese_table_shows_an_english_header_word(path, executed):
    """Every header of every table a Chinese notebook shows is Chinese or data (DATA_HEADERS): a column
    name the catalogue lacks shows up here, by name, rather than staying English unnoticed."""
    assert _english_headers(_table_headers(executed(path))) == []


#: Headers the Chinese notebooks 06a, 06b and 08 show, written by hand from the catalogue's words.
EXPECTED_HEADERS = {
    "06a_ablation_table.ipynb": [
        "注意事项（caveat）", "答对数（answers correct）", "答案准确率（answer accuracy）", "版本（version）",
        "问题数（questions）", "下限（low）", "上限（high）", "符号翻转 p 值（p (sign-flip)）",
        "Holm 校正后 p 值（p (sign-flip, Holm)）"],
    "06b_tuning_and_rows.ipynb": [
        "答案准确率（answer accuracy）", "下限（low）", "上限（high）",
        "符号翻转 p 值（p (sign-flip)）", "Holm 校正后 p 值（p (sign-flip, Holm)）",
        "每个取值下最好的 D nDCG@5（best D nDCG@5 at each value）"],
    "08_your_own_system.ipynb": [
        "均值及区间（mean [CI]）", "配对差值及区间（diff [CI]）", "p 值（p）", "Holm 校正后 p 值（p_holm）",
        "变好/持平/变差（W/T/L）", "效应量（effect）", "版本（system）", "指标（metric）", "问题（question）",
        "最好名次（best rank）", "已标注（labelled）"],
}


@pytest.mark.notebooks
@pytest.mark.slow
@pytest.mark.parametrize("path", [ZH_DIR / name for name in EXPECTED_HEADERS], ids=lambda p: p.name)
def test_executed_chinese_tables_carry_chinese_headers(path, executed):
    headers = _table_headers(executed(path))
    missing = [h for h in EXPECTED_HEADERS[path.name] if h not in headers]
    assert not missing, f"zh/{path.name}: tables do not show {missing}"
    assert "Recall@5" in headers  # metric names stay as they are
