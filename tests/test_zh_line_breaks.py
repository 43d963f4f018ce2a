"""No line break between two Chinese characters in the Chinese edition's markdown.

Markdown turns a line break inside a paragraph (a soft break) into a space, and Chinese text has no spaces:
"a 在 BM25 里的\\n领先" renders as "a 在 BM25 里的 领先". So in every markdown cell of notebooks/zh/**
(solutions and the explorer included), README.zh.md and docs/*.zh.md, a paragraph line that ends with a
CJK character (an ideograph or full-width punctuation) is not continued on the next line by another one.

What is not a soft break is not checked: code blocks, table rows, headings, a line ending in a hard break
(two spaces or a backslash), and a next line that starts a block of its own (a list item, a heading, a
quote, a fence, a table row, HTML). The emphasis marks around a character (``**保留集**``) and the bracket
of a link (``[口径]``) do not hide it: the space still shows between the two words.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Ideographs (CJK unified, extension A, compatibility) and full-width punctuation (CJK symbols, forms).
CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_STARTS_BLOCK = re.compile(r"^ {0,3}([-*+] |\d+[.)] |#{1,6}( |$)|>|\||<|```|~~~)")
_QUOTE = re.compile(r"^ {0,3}> ?")


def _visible_end(line: str) -> str:
    """The last character a reader sees on ``line``: emphasis marks after it do not count."""
    return line.rstrip().rstrip("*_")[-1:]


def _visible_start(line: str) -> str:
    """The first character a reader sees on ``line``: indentation, emphasis and a link's bracket skipped."""
    return line.lstrip().lstrip("*_[")[:1]


def cjk_breaks(text: str) -> list[str]:
    """The soft line breaks of markdown ``text`` that fall between two CJK characters, shown in context.

    >>> cjk_breaks("a 在 BM25 里的\\n领先")
    ['…a 在 BM25 里的⏎领先…']
    >>> cjk_breaks("## 标题\\n正文。\\n\\n- 一项\\n- 二项\\n\\n| 表 |\\n| 格 |\\n```\\n代码\\n行\\n```")
    []
    >>> cjk_breaks("- 一项，\\n  接着写")
    ['…- 一项，⏎接着写…']
    """
    found = []
    lines = text.split("\n")
    in_code = False
    for line, after in zip(lines, [*lines[1:], ""], strict=True):
        if _FENCE.match(line):
            in_code = not in_code
            continue
        if in_code or not line.strip() or not after.strip():
            continue
        if _QUOTE.match(line) and _QUOTE.match(after):
            line, after = _QUOTE.sub("", line, count=1), _QUOTE.sub("", after, count=1)
        if (line.endswith(("  ", "\\")) or re.match(r"^ {0,3}(#|\|)", line) or _STARTS_BLOCK.match(after)
                or re.fullmatch(r" {0,3}([-*_=]\s*){3,}", after)):
            continue
        if CJK.match(_visible_end(line)) and CJK.match(_visible_start(after)):
            found.append(f"…{line.strip()[-12:]}⏎{after.strip()[:12]}…")
    return found


def _markdown_sources() -> list[tuple[str, str]]:
    """(where, markdown text) for every markdown cell of the Chinese notebooks and every Chinese page."""
    sources = []
    for path in sorted((ROOT / "notebooks" / "zh").rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        for index, cell in enumerate(nbformat.read(path, as_version=4).cells):
            if cell.cell_type == "markdown":
                sources.append((f"{path.relative_to(ROOT)} cell {index} ({cell.id})", cell.source))
    for path in [ROOT / "README.zh.md", *sorted((ROOT / "docs").glob("*.zh.md"))]:
        sources.append((str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")))
    return sources


SOURCES = _markdown_sources()


def test_the_sources_are_found():
    where = {w.split(" cell ")[0] for w, _ in SOURCES}
    assert "README.zh.md" in where and "notebooks/zh/05a_score_fusion.ipynb" in where
    assert "notebooks/zh/solutions/05a_score_fusion_solutions.ipynb" in where
    assert sum(w.startswith("docs/") for w in where) >= 10


@pytest.mark.parametrize("where,text", SOURCES, ids=[w for w, _ in SOURCES])
def test_no_line_break_between_two_chinese_characters(where, text):
    assert cjk_breaks(text) == [], f"{where}: join these lines (a line break renders as a space)"


def test_the_check_sees_through_emphasis_links_and_list_items():
    assert cjk_breaks("都返回它们。**保留集**\n是在没看过") != []
    assert cjk_breaks("各列的含义见\n[你自己的系统](own-system.zh.md)") != []
    assert cjk_breaks("第一行以两个空格结尾  \n第二行") == []
    assert cjk_breaks("> 引文的第一行，\n> 引文的第二行") != []
    assert cjk_breaks("中文\nEnglish") == []
