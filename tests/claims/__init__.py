"""The sentences of the notebooks that read a computed table, chart or output, each with its claim.

One module per notebook (``nb03``, ``nb06``, ...), each with ``CLAIMS``: a list of :class:`Claim`. A claim
names the markdown cell that holds its sentence, the sentence as the English and the Chinese notebook
write it, and ``check``: a function of the executed notebook (:class:`Shown`) that recomputes what the
sentence says from ragmath on the notebook's data, asserts it (quantifiers included: "every", "keeps",
"lowest", "no k"), ties it to what the notebook shows where the number is displayed, and returns the
numbers (as the sentence writes them) that both sentences must contain. tests/test_claims.py runs them.

A check never copies a printed number into an expected value: it computes the number and looks for it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import nbformat
from outputs import plain_texts


@dataclass(frozen=True)
class Claim:
    id: str
    cell: str  # the id of the markdown cell that holds the sentence
    en: str
    zh: str
    check: Callable[[Shown], Mapping[str, str]]

    def sentence(self, language: str) -> str:
        return self.en if language == "en" else self.zh


class Shown:
    """What an executed notebook shows, cell by cell (by cell id)."""

    def __init__(self, nb: nbformat.NotebookNode, language: str = "en") -> None:
        self.nb = nb
        self.language = language  # "en" or "zh": the notebook's
        self.sentence = ""  # the claim's sentence in that language (a check may read its verdict words)
        self._cells = {cell.get("id"): cell for cell in nb.cells}

    def source(self, cell_id: str) -> str:
        return self._cells[cell_id].source

    def output(self, cell_id: str) -> str:
        """The text a code cell shows: what it prints and the plain-text form of what it displays."""
        return "\n".join(plain_texts(self._cells[cell_id]))

    def section_of(self, cell_id: str) -> int:
        """The number of the section (``## N.`` heading) a cell stands in."""
        import re

        number = None
        for cell in self.nb.cells:
            if cell.cell_type == "markdown":
                for found in re.finditer(r"^## (\d+)\.", cell.source, re.MULTILINE):
                    number = int(found.group(1))
            if cell.get("id") == cell_id:
                assert number is not None, f"cell {cell_id} stands before any numbered section"
                return number
        raise KeyError(cell_id)

    def shows(self, cell_id: str, *texts: str) -> None:
        """Assert that the code cell ``cell_id`` shows every one of ``texts``."""
        shown = self.output(cell_id)
        missing = [t for t in texts if t not in shown]
        assert not missing, f"cell {cell_id} does not show {missing}"


def split_by_notebook(claims: list[Claim], names: list[str], notebook_dir) -> dict[str, list[Claim]]:
    """The claims of a notebook that became several (06 into 06a and 06b), each filed under the notebook
    whose cells hold its sentence's cell; a claim whose cell none of them holds raises ``KeyError``."""
    from pathlib import Path

    cells = {name: {c.get("id") for c in nbformat.read(Path(notebook_dir) / name, as_version=4).cells}
             for name in names}
    filed: dict[str, list[Claim]] = {name: [] for name in names}
    for claim in claims:
        holders = [name for name in names if claim.cell in cells[name]]
        if len(holders) != 1:
            raise KeyError(f"claim {claim.id}: cell {claim.cell} is in {holders or 'none'} of {names}")
        filed[holders[0]].append(claim)
    return filed


def fmt(value: float, digits: int = 3) -> str:
    """A number as the notebooks' tables show it (``display.precision`` 3)."""
    return f"{value:.{digits}f}"


@functools.cache
def dev_ablation(**changes):
    """The frozen design's ablation on the dev questions (retrieval only), as notebooks 06 and 07 run it;
    ``changes`` replace fields of the design (``k=60``)."""
    from dataclasses import replace

    from ragmath.lab.ablation import run_ablation
    from ragmath.lab.corpus import load_dataset
    from ragmath.lab.holdout import frozen_design

    return run_ablation(replace(frozen_design(), **changes), load_dataset(), answers=False)


@functools.cache
def dataset():
    from ragmath.lab.corpus import load_dataset

    return load_dataset()


@functools.cache
def dev_full():
    """The frozen design's ablation on the dev questions with its answers, as notebook 06 runs it."""
    from ragmath.lab.ablation import run_ablation
    from ragmath.lab.holdout import frozen_design

    return run_ablation(frozen_design())


@functools.cache
def design_1_full():
    """Design 1 (the design the holdout was opened with, read from its record) on the dev questions with its
    answers, as notebook 07 runs it."""
    from ragmath.lab.ablation import run_ablation
    from ragmath.lab.holdout import opened_design

    return run_ablation(opened_design(1))


def listing(values: Mapping[str, float], language: str, digits: int = 3) -> str:
    """"A 0.663, B 0.632" (en) or "A 0.663、B 0.632" (zh): versions and values as the readings list them."""
    return ("、" if language == "zh" else ", ").join(f"{v} {fmt(x, digits)}" for v, x in values.items())


def leaders(values: Mapping[str, float]) -> list[str]:
    best = max(values.values())
    return [v for v, x in values.items() if round(x, 12) == round(best, 12)]


def top(k: int, language: str) -> str:
    """"top 5" as each language's readings write it."""
    return f"top {k}" if language == "en" else f"前 {k} 名"


#: The readings' Chinese words for the rates and metrics they name (the English is the name itself).
ZH_WORDS = {"answer accuracy": "答案准确率", "citation support": "引用支持率", "correct refusals": "正确拒答"}


def word(name: str, language: str) -> str:
    return ZH_WORDS.get(name, name) if language == "zh" else name
