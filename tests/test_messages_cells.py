"""The notebooks' own code cells speak through messages/cells.py: every key they use exists, every key
there is used, and in Chinese each one is Chinese (only metric names, IDs and identifiers stay Latin)."""

from __future__ import annotations

import ast
import re
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest

from ragmath.lab.messages import CATALOGUE, fields_of, message, use_language

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted([*(ROOT / "notebooks").glob("*.ipynb"),
                    *(ROOT / "notebooks" / "solutions").glob("*.ipynb")])
CELL_KEYS = sorted(k for k in CATALOGUE if k.startswith("cells."))

#: Latin words a Chinese cell message may keep: metric names, tool and function names, ID prefixes.
KEPT_LATIN = {"Recall", "Hit", "MRR", "nDCG", "DCG", "IDCG", "RRF", "rrf", "BM25", "Oracle", "Wilson",
              "LinearReranker", "ragmath", "dcg_at_k", "paired_bootstrap", "wilson_interval", "jieba",
              "plain", "gram", "log", "TRV", "INV", "XBR"}


def _message_calls(source: str) -> list[ast.Call]:
    lines = [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
    tree = ast.parse("\n".join(lines))
    return [node for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "message"]


def _keys_in_notebooks() -> dict[str, str]:
    found = {}
    for path in NOTEBOOKS:
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code":
                for call in _message_calls(cell.source):
                    assert call.args and isinstance(call.args[0], ast.Constant), (
                        f"{path.name} cell {cell.id}: message() needs a literal key")
                    found[call.args[0].value] = path.name
    return found


def _filled(key: str) -> str:
    return message(key, **{name: 1 for name in fields_of(CATALOGUE[key]["en"])})


def test_every_key_a_notebook_cell_asks_for_is_in_the_catalogue():
    unknown = {key: where for key, where in _keys_in_notebooks().items() if key not in CATALOGUE}
    assert unknown == {}


def test_every_cell_message_is_used_by_a_notebook():
    assert CELL_KEYS and sorted(set(CELL_KEYS) - set(_keys_in_notebooks())) == []


def test_the_first_code_cell_keeps_only_the_language_line():
    for path in NOTEBOOKS:
        first = next(c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code")
        assert not _message_calls(first.source), f"{path.name}: the first code cell calls message()"


@pytest.mark.parametrize("key", CELL_KEYS)
def test_cell_message_is_chinese_in_chinese(key):
    use_language("zh")
    text = _filled(key)
    assert re.search(r"[\u4e00-\u9fff]", text), f"{key}: {text!r} has no Chinese"
    assert set(re.findall(r"[A-Za-z_]{3,}", text)) <= KEPT_LATIN, f"{key}: English left in {text!r}"


def test_english_cell_messages_read_as_the_cells_printed_them():
    # the f-strings the cells held before the catalogue, evaluated by hand for these values
    assert message("cells.02.mean_hit", value=Fraction(2, 3), approx=2 / 3) == \
        "mean Hit@3    = 2/3 ≈ 0.67   (Hit Rate = 67%)"
    assert message("cells.04.undefined", undefined=["q7"], no_answer=["q7"]) == \
        "nDCG undefined for: ['q7']   (also listed as no-answer: ['q7'] )"
    shares = {"share_53": 0.5 / 0.75, "share_35": 0.25 / 0.75}
    assert message("cells.05.k_order", k=1, order=["4.2", "6.1"], **shares) == \
        ("k =  1: order ['4.2', '6.1']; 5.3 (first in one list) gets 67% of the leader's score, "
         "3.5 (third in one list) 33%")
    assert message("cells.07.wilson_by_hand", low_hand=0.627, high_hand=0.905, low=0.627, high=0.905) == \
        "by hand: 62.7% – 90.5%; wilson_interval: 62.7% – 90.5%"


def test_chinese_cell_messages_keep_the_numbers():
    use_language("zh")
    assert message("cells.02.mean_hit", value=Fraction(2, 3), approx=2 / 3) == \
        "平均 Hit@3    = 2/3 ≈ 0.67（命中率 = 67%）"
    assert message("cells.01.edition_line", chunk="TRV26-4.2-a", edition=2026, start="2026-01-01",
                   end=message("cells.01.open_ended"), yuan=80) == \
        "TRV26-4.2-a：2026 版，有效期 2026-01-01 至 今：每次 80 元"
