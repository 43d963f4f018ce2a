"""Every number of a Chinese markdown cell appears in its English twin (the cell with the same id).

A translation that says 0.12 where the English says 0.04 (solutions/05a, exercise 05a.3) is wrong in one
of the two languages; this test finds such cells. A number counts as found in the English when the English
cell has it in digits (thousands separators dropped: 30,000 = 30000), or as a word ("six", "first").

The legitimate differences, each with its reason:

- **the article's words:** the Chinese quotes the (Chinese) article, “…”, where the English paraphrases it,
  so numbers inside Chinese double quotes holding Chinese words are the article's, not the translation's
  (11 cells on 2026-12-04: 第 4.2 条, 60 元 and 80 元, “3 道题有 2 道”…);
- **units:** 3 万 is 30,000 (``_WAN``), and a percentage 67% may be 0.67 in the English;
- **cells listed in** ``DIFFERENT``: a number the Chinese says for a reason given there.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
ZH = ROOT / "notebooks" / "zh"

_NUMBER = re.compile(r"(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?")
_WAN = re.compile(r"(\d+(?:\.\d+)?)\s*万")
_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*%")
_ARTICLE_QUOTE = re.compile(r"“[^”]*?[\u4e00-\u9fff][^”]*?[\u4e00-\u9fff][^”]*”")
_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "twenty": 20, "thirty": 30, "hundred": 100,
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "tenth": 10,
}

#: (notebook under notebooks/zh, cell id) -> {number the Chinese says and the English does not: why}.
DIFFERENT = {
    ("01_unit_of_evaluation.ipynb", "1caad1d3"): {
        "2026": "the Chinese explains the English error printed below (`XBR-2026` twice); the English reader "
                "reads the error itself"},
    ("02_recall_vs_hit.ipynb", "ab1661c6"): {
        "0": "q3 'finds neither' in English; the Chinese adds what the chart shows, both metrics are 0"},
    ("07_honest_numbers.ipynb", "bfe71c6d"): {
        "05": "the Chinese names notebook 05b, which the English calls 'the short explanations before it'",
        "6400": "the reading time counts 6,400 Chinese characters where the English counts 4,200 words"},
}


def numbers(text: str) -> set[str]:
    """The numbers written in digits in ``text``, thousands separators dropped.

    >>> sorted(numbers("30,000 元, 0.12, Hit@3 and 4.2-a"))
    ['0.12', '3', '30000', '4.2']
    """
    return {m.group().replace(",", "") for m in _NUMBER.finditer(text)}


def _canonical(number: str) -> str:
    value = float(number)
    return str(int(value)) if value == int(value) else repr(value)


def english_numbers(text: str) -> set[str]:
    """The numbers of an English cell: in digits, and as words ("six" is 6, "first" is 1), canonical form."""
    found = {_canonical(n) for n in numbers(text)}
    found |= {str(v) for w, v in _WORDS.items() if re.search(rf"\b{w}\b", text, re.IGNORECASE)}
    return found


def missing_numbers(chinese: str, english: str) -> list[str]:
    """The numbers of a Chinese cell that its English twin does not have (article quotes and units aside).

    >>> missing_numbers("在 α = 0.12 时", "at α = 0.04")
    ['0.12']
    >>> missing_numbers("文章说：“第 1 名和第 10 名”，共 3 万元（67%）", "first; 30,000 yuan (0.67)")
    []
    """
    text = _ARTICLE_QUOTE.sub("", chinese)
    have = english_numbers(english)
    missing = []
    for number in sorted(numbers(text)):
        wan = any(_canonical(str(float(m.group(1)) * 10_000)) in have
                  for m in _WAN.finditer(text) if m.group(1) == number)
        percent = any(_canonical(str(float(m.group(1)) / 100)) in have
                      for m in _PERCENT.finditer(text) if m.group(1) == number)
        if _canonical(number) not in have and not wan and not percent:
            missing.append(number)
    return missing


def _pairs():
    pairs = []
    for path in sorted(ZH.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in path.parts:
            continue
        name = str(path.relative_to(ZH))
        english = {c.id: c for c in nbformat.read(ROOT / "notebooks" / name, as_version=4).cells}
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "markdown" and cell.id in english:
                pairs.append((name, cell.id, cell.source, english[cell.id].source))
    return pairs


PAIRS = _pairs()


def test_the_pairs_are_found():
    assert len(PAIRS) > 300
    assert len({name for name, *_ in PAIRS}) >= 20


@pytest.mark.parametrize("name,cell_id,chinese,english", PAIRS, ids=[f"{n}:{c}" for n, c, *_ in PAIRS])
def test_every_number_of_a_chinese_cell_is_in_its_english_twin(name, cell_id, chinese, english):
    allowed = DIFFERENT.get((name, cell_id), {})
    missing = [n for n in missing_numbers(chinese, english) if n not in allowed]
    assert missing == [], f"{name} cell {cell_id}: the Chinese says {missing}, the English does not"


def test_every_listed_difference_is_still_there():
    """A listed difference that the texts no longer have is dropped from the list."""
    pairs = {(name, cell_id): (zh, en) for name, cell_id, zh, en in PAIRS}
    for key, allowed in DIFFERENT.items():
        assert key in pairs, key
        assert set(allowed) <= set(missing_numbers(*pairs[key])), key
