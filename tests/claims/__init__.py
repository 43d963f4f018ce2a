"""The sentences of the notebooks that read a computed table, chart or output, each with its claim.

One module per notebook (``nb03``, ``nb06``, ...), each with ``CLAIMS``: a list of :class:`Claim`. A claim
names the markdown cell that holds its sentence, the sentence as the English and the Chinese notebook
write it, and ``check``: a function of the executed notebook (:class:`Shown`) that recomputes what the
sentence says from ragmath on the notebook's data, asserts it (quantifiers included: "every", "keeps",
"lowest", "no k"), ties it to what the notebook shows where the number is displayed, and returns the
numbers (as the sentence writes them) that both sentences must contain. tests/test_claims.py runs them.

A check never copies a printed number into an expected value: it computes the number and looks for it.

A sentence says no more than the notebook shows above it (issue 35, item 5). A quantifier ("leads", "every",
"no", "best", ...: :data:`QUANTIFIER`) ranges over every row of the table its claim names in ``over``, the
Oracle's included, unless the sentence names the rows ("among A–E"): the check reads that table's rows
through :meth:`Shown.over` or :meth:`Shown.leaders`, which refuse a check that leaves a displayed row out. And
every number the sentence cites stands in an output above it, at the sentence's rounding, or follows from
such numbers by the claim's ``derived`` arithmetic (:func:`numbers_not_above`).
"""

from __future__ import annotations

import ast
import functools
import math
import operator
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import nbformat
from outputs import plain_texts


@dataclass(frozen=True)
class Claim:
    id: str
    cell: str  # the id of the markdown cell that holds the sentence
    en: str
    zh: str
    check: Callable[[Shown], Mapping[str, str]]
    #: A sentence with a quantifier word (:data:`QUANTIFIER`: a leader, "every", "no", "best", ...) names
    #: what it ranges over: ``over``, the id of the code cell whose displayed table it ranges over (every row
    #: unless the sentence names the rows), which the check reads through :meth:`Shown.over` or
    #: :meth:`Shown.leaders`, or :data:`ABOVE` (the check calls :meth:`Shown.one_output_above`); or, for a
    #: word that ranges over no displayed rows ("at most 3 more": a bound), ``scope``, in words.
    over: str = ""
    scope: str = ""
    #: Numbers of the sentence that no output above shows but that follow by arithmetic from numbers that
    #: do: the number as the sentence writes it -> the expression (``"26 - 23"``), whose every operand must
    #: stand in an output above the sentence and whose value must round to the number.
    derived: Mapping[str, str] = field(default_factory=dict, compare=False)

    def sentence(self, language: str) -> str:
        return self.en if language == "en" else self.zh


class Shown:
    """What an executed notebook shows, cell by cell (by cell id)."""

    def __init__(self, nb: nbformat.NotebookNode, language: str = "en") -> None:
        self.nb = nb
        self.language = language  # "en" or "zh": the notebook's
        self.sentence = ""  # the claim's sentence in that language (a check may read its verdict words)
        self.cell = ""  # the id of the markdown cell that holds it (set by the test, as the sentence is)
        self._cells = {cell.get("id"): cell for cell in nb.cells}
        self.scoped: list[str] = []  # the tables the check's quantifiers ranged over (:meth:`over`)

    def source(self, cell_id: str) -> str:
        return self._cells[cell_id].source

    def output(self, cell_id: str) -> str:
        """The text a code cell shows: what it prints and the plain-text form of what it displays."""
        return "\n".join(plain_texts(self._cells[cell_id]))

    def above(self, cell_id: str) -> list[str]:
        """The plain-text outputs of every code cell above the cell ``cell_id``, one text per output."""
        texts = []
        for cell in self.nb.cells:
            if cell.get("id") == cell_id:
                return texts
            if cell.cell_type == "code":
                texts += plain_texts(cell)
        raise KeyError(cell_id)

    def over(self, cell_id: str, values: Mapping[str, float], index: str | None = "version",
             displayed: list[str] | None = None) -> dict[str, float]:
        """The values a sentence's quantifier ranges over: one per row of the table the code cell ``cell_id``
        displays (:func:`table_rows` under its ``index`` heading; ``index=None``: a table without one, whose
        rows start on its second line; or the ``displayed`` rows, as the check reads them from that cell),
        unless the sentence names the rows (:func:`named_rows`). ``values`` must hold every displayed row, NaN
        where the column does not apply to the row (the Oracle's retrieval columns, shown as —)."""
        above = [c.get("id") for c in self.nb.cells[:self._position(self.cell)] if c.cell_type == "code"]
        assert cell_id in above, f"cell {cell_id} is not a code cell above the sentence's cell {self.cell}"
        if displayed is None:
            displayed = table_rows(self.output(cell_id), index)
        assert displayed, f"cell {cell_id} displays no table with an index {index!r}"
        if self.language == "zh":  # the Chinese tables show the catalogue's words for some labels (live)
            words = {self.word(key): key for key in values}
            displayed = [words.get(row, row) for row in displayed]
        left_out = [row for row in displayed if row not in values]
        assert not left_out, f"the check leaves out rows the table of cell {cell_id} shows: {left_out}"
        self.scoped.append(cell_id)
        return in_scope(values, displayed, self.sentence)

    def leaders(self, cell_id: str, values: Mapping[str, float], index: str | None = "version",
                displayed: list[str] | None = None) -> list[str]:
        """The rows that lead among the rows the sentence's quantifier ranges over (:meth:`over`)."""
        return leaders(self.over(cell_id, values, index, displayed))

    def word(self, value: str) -> str:
        """A label as this notebook's tables show it: the message catalogue's word in a Chinese notebook."""
        if self.language != "zh":
            return value
        from ragmath.lab.messages import reader_value, use_language

        use_language("zh")
        try:
            return reader_value(value)
        finally:
            use_language("en")

    def _position(self, cell_id: str) -> int:
        return next(i for i, cell in enumerate(self.nb.cells) if cell.get("id") == cell_id)

    def one_output_above(self, what: str, *texts: str) -> None:
        """Assert that one output of a code cell above the sentence's cell shows every one of ``texts``: the
        members of the set a quantifier ranges over (questions, k values) that no version table carries, so a
        reader sees the whole set at once. ``what`` says in words what that output must show."""
        self.scoped.append(ABOVE)
        found = [t for t in self.above(self.cell) if all(x in t for x in texts)]
        assert found, f"no output above the sentence shows {what} ({', '.join(texts)})"

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
    """The keys of the largest value (ties included); NaN values (does not apply) take no part."""
    values = {v: x for v, x in values.items() if not (isinstance(x, float) and math.isnan(x))}
    best = max(values.values())
    return [v for v, x in values.items() if round(x, 12) == round(best, 12)]


#: ``Claim.over`` of a claim whose quantifier ranges over a set one output above shows
#: (:meth:`Shown.one_output_above`).
ABOVE = "one output above"

# ---- the scope of a quantifier -------------------------------------------------------------------------

#: The words of an English sentence that quantify over rows (a leader, "every", "no", "best", ...): a claim
#: whose sentence has one declares ``over`` (and its check ranges over that table through :meth:`Shown.over`)
#: or ``scope``.
QUANTIFIER = re.compile(r"\b(?:leads?|leader|lead\(s\)|tie for the lead|every|none|no(?![-\w])|best|highest|"
                        r"lowest|largest|smallest|widest|most)\b", re.IGNORECASE)

_ROW = r"(?:[A-E]|Oracle)"
_ROW_OR_RANGE = rf"{_ROW}(?:\s*[–-]\s*{_ROW})?"
_ROW_LIST = rf"{_ROW_OR_RANGE}(?:(?:, | and |, and |、| 和 |和){_ROW_OR_RANGE})*"
#: How a sentence names the rows its quantifier ranges over: "among A–E", "the best of A, B and C",
#: "between C and D" (not "the intervals of A and B": "of" names a scope after a leader word only);
#: "A–E 中", "在 A、B 和 C 中", "A、B 和 C 之间".
SCOPE_PHRASES = [re.compile(rf"\b(?:among|between|(?:best|highest|lowest|leads?|leader|most|largest|smallest)"
                            rf" of) (?P<rows>{_ROW_LIST})\b(?![-\w@'’])"),
                 re.compile(rf"(?P<rows>{_ROW_LIST}) ?(?:中|之中|之间|当中)")]


def named_rows(sentence: str) -> list[str]:
    """The rows a sentence names as its quantifier's scope ("among A–E" -> A, B, C, D, E), in order; [] when
    it names none (a list of values in brackets names no scope: "C leads (A 0.7, C 0.8)" ranges over the
    table)."""
    rows: list[str] = []
    for phrase in SCOPE_PHRASES:
        for found in phrase.finditer(sentence):
            for part in re.split(r", and |, | and |、| 和 |和", found.group("rows")):
                ends = [e.strip() for e in re.split(r"[–-]", part)]
                if len(ends) == 2 and all(len(e) == 1 for e in ends):
                    rows += [chr(c) for c in range(ord(ends[0]), ord(ends[1]) + 1)]
                else:
                    rows.append(part.strip())
    return list(dict.fromkeys(rows))


def in_scope(values: Mapping[str, float], displayed: list[str], sentence: str) -> dict[str, float]:
    """The values a sentence's quantifier ranges over: the rows it names (each must be displayed), or else
    every displayed row."""
    named = named_rows(sentence)
    unknown = [row for row in named if row not in displayed]
    assert not unknown, f"the sentence names rows the table does not show: {unknown}"
    return {row: values[row] for row in (named or displayed)}


#: The Chinese tables' words for the index headings (shown alone or as 版本（version）).
INDEX_WORDS = {"version": "版本", "chunk": "片段", "question": "问题", "type": "题型", "feature": "特征"}


def table_rows(text: str, index: str | None = "version") -> list[str]:
    """The row labels of a pandas table as its plain text shows it: the first word of each line under a line
    that starts with the ``index`` heading (``None``: under the table's first line, for a table whose index
    has no name), down to the next blank line (a wide table's every block, once each)."""
    rows: list[str] = []
    headings = {index, f"{INDEX_WORDS.get(index, '')}（{index}）", INDEX_WORDS.get(index)} - {None, ""}
    under, first = False, True
    for line in text.splitlines():
        if not line.strip():
            under, first = False, True
        elif under:
            rows.append(line.split()[0])
        elif line.split()[0] in headings or (index is None and first):
            under = True
        first = False
    return list(dict.fromkeys(rows))


def table_columns(text: str) -> list[str]:
    """The versions (A–E, Oracle) a pandas table shows as its columns, read from its heading lines (the
    lines above its first row), once each."""
    found: list[str] = []
    for line in text.splitlines():
        if line[:1].strip() and line.split()[0] not in ("version", "版本（version）"):
            break
        found += [word for word in line.split() if re.fullmatch(_ROW, word)]
    return list(dict.fromkeys(found))


# ---- the numbers a sentence cites ----------------------------------------------------------------------

#: A number as a sentence or an output writes it (digits that end a name, BM25 or Q45, are part of the name;
#: 10,000 is one number).
NUMBER = re.compile(r"(?<![A-Za-z\d.,])\d{1,3}(?:,\d{3})+(?![\d.])|(?<![A-Za-z\d.])\d+(?:\.\d+)?")
#: Names with digits in them, which cite no number: metrics (nDCG@5, Recall@M), chunk ids (TRV26-4.2-a,
#: INV-110), the level of an interval or a test (95 % intervals, below 0.05, the 5 % level), question ids
#: (checked apart: :data:`QUESTION`), the workbook's own places (notebook 07, section 4.2, design 1, clause
#: 4.2, exercise 06a.1; 第 4.2 节, 笔记本 07, 设计 1, 第 4.2 条, 条款 4.2), an edition's year (the 2025
#: chunks).
NAMES = re.compile(r"[A-Za-z]+@\w+|95 ?% (?:intervals?|区间)|(?:below|above|低于|高于) 0\.05"
                   r"|5 ?% (?:level|水平)"
                   r"|\b[A-Z]{2,}\d*(?:-[\dA-Za-z.]+)+|\bQ\d+\b"
                   r"|\b(?:[Nn]otebooks?|[Ss]ections?|[Dd]esigns?|[Cc]lauses?|[Ee]xercises?) \d[\w.]*"
                   r"(?: (?:to|and) \d[\w.]*)?"
                   r"|(?:笔记本|设计|条款|练习) ?\d[\w.]*|第 ?\d+(?:\.\d+)*(?: ?到 ?\d+)? ?[节条]"
                   r"|\b20\d\d(?= chunks| editions?| ?年的)")
QUESTION = re.compile(r"\bQ\d+\b")


def cited_numbers(sentence: str) -> list[str]:
    """The numbers a sentence cites, as it writes them (names with digits left out: :data:`NAMES`)."""
    return NUMBER.findall(NAMES.sub(" ", sentence))


def output_numbers(texts: list[str]) -> set[str]:
    """Every number the outputs show, as they write them. In a table (a text of several lines with columns
    apart by two spaces) the first word of a line that starts at the margin is a row label, as 0, 1, 2 of a
    default index, not a number, and is left out."""
    found: set[str] = set()
    for text in texts:
        table = text.count("\n") > 1 and "  " in text
        for line in text.splitlines():
            if table and line[:1].strip():
                line = line.split(None, 1)[1] if len(line.split(None, 1)) > 1 else ""
            found.update(NUMBER.findall(line))
    return found


def _value(number: str) -> float:
    return float(number.replace(",", ""))


def _decimals(number: str) -> int:
    return len(number.partition(".")[2])


def same_number(said: str, shown: str) -> bool:
    """Whether a number an output shows, rounded as the sentence rounds it, is the sentence's number: an
    integer only as itself (4,000 as 4000, 26.0 as 26); a number shown with fewer decimals only when the
    sentence's extra decimals are zeros (0.75 as 0.750)."""
    decimals = _decimals(said)
    if _decimals(shown) < decimals:
        return _value(shown) == _value(said)
    if decimals == 0:
        return _value(shown) == _value(said)
    return f"{_value(shown):.{decimals}f}" == said


_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


def evaluate_derived(expression: str) -> tuple[float, list[str]]:
    """The value of a tiny arithmetic expression (numbers, + - * /, brackets) and its operands as written."""
    def value(node):
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            return _OPERATORS[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -value(node.operand)
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return node.value
        raise ValueError(f"not a tiny arithmetic expression: {expression!r}")

    return value(ast.parse(expression, mode="eval").body), re.findall(r"\d+(?:\.\d+)?", expression)


#: Operands a derived number may use without an output showing them: 100 turns a share into a percentage.
UNITS = {"100"}


def _half_unit(number: str) -> float:
    """Half a unit of a number's last written digit: how far the value it rounds may lie from it."""
    return 0.5 * 10 ** -_decimals(number)


def follows(said: str, expression: str, shown: set[str]) -> bool:
    """Whether ``said`` follows by ``expression`` from numbers the outputs show: every operand is shown (at
    its own rounding; 100, a percentage, needs no output), and the expression, evaluated with each operand
    anywhere it may have been before rounding (an operand with decimals within half its last digit; a count
    exact), can reach a value that rounds to ``said``."""
    import itertools

    _, operands = evaluate_derived(expression)
    if not all(o in UNITS or any(same_number(o, x) for x in shown) for o in operands):
        return False
    spans = [(_value(o) - _half_unit(o), _value(o) + _half_unit(o)) if "." in o else (_value(o),)
             for o in operands]
    pieces = re.split(r"\d+(?:\.\d+)?", expression)  # the expression around its operands
    results = []
    for corner in itertools.product(*spans):  # + − × / are monotone in each operand: the ends are at corners
        filled = "".join(piece + (repr(x) if i < len(corner) else "")
                         for i, (piece, x) in enumerate(itertools.zip_longest(pieces, corner)))
        try:
            results.append(evaluate_derived(filled)[0])
        except ZeroDivisionError:
            return False
    return min(results) - _half_unit(said) <= _value(said) <= max(results) + _half_unit(said)


def numbers_not_above(sentence: str, outputs: list[str],
                      derived: Mapping[str, str] | None = None) -> list[str]:
    """The numbers (and question ids) a sentence cites that no output in ``outputs`` shows at the sentence's
    rounding and that do not follow, by a ``derived`` expression, from numbers the outputs show."""
    shown = output_numbers(outputs)
    joined = "\n".join(outputs)
    derived = derived or {}
    missing = [said for said in cited_numbers(sentence)
               if not any(same_number(said, x) for x in shown)
               and not (said in derived and follows(said, derived[said], shown))]
    missing += [q for q in QUESTION.findall(sentence) if not re.search(rf"\b{q}\b", joined)]
    return list(dict.fromkeys(missing))


def top(k: int, language: str) -> str:
    """"top 5" as each language's readings write it."""
    return f"top {k}" if language == "en" else f"前 {k} 名"


#: The readings' Chinese words for the rates and metrics they name (the English is the name itself).
ZH_WORDS = {"answer accuracy": "答案准确率", "citation support": "引用支持率", "correct refusals": "正确拒答"}


def word(name: str, language: str) -> str:
    return ZH_WORDS.get(name, name) if language == "zh" else name
