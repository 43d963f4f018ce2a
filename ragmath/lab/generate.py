"""Generation: ``(question, passages) -> Answer`` with citations, or a refusal.

The default ``ExtractiveAnswerer`` runs offline and is deliberately simple, so that its failures
are easy to read: it scores each passage by how much of the question it covers (character bigrams),
picks the best one, prefers the newest edition that is live on the snapshot date, reads an amount
from the evidence (a table cell when the passage is a table), and computes an over-limit amount when
the question states a spend (118.5 元 against a limit of 80 元 -> 38.5 元). It refuses when the best
coverage is below ``refuse_below``.

A real LLM plugs into the same interface: see ``LLMGeneratorAdapter`` (an adapter example that
raises ``NotImplementedError`` with instructions; it is not a working client).
"""

from __future__ import annotations

import datetime as _dt
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from ragmath.lab.workbook import ID_PATTERN, find_ids

__all__ = [
    "Answer",
    "Generator",
    "ExtractiveAnswerer",
    "MisreadLimitAnswerer",
    "LLMGeneratorAdapter",
    "support",
    "question_bigrams",
    "amounts",
    "quantities",
    "is_live",
    "answer_is_correct",
    "asks_for_excess",
]

#: Question words that carry no evidence: removed before coverage is measured.
QUESTION_WORDS = (
    "请问", "能报多少", "多少钱", "多少", "怎么办", "怎么报", "怎么", "咋办", "如何", "什么", "哪些", "哪个",
    "是否", "可以", "能否", "需要", "应该", "我的", "我们", "我", "吗", "呢", "吧", "了", "的", "是",
    "有", "要", "能",
)

_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")
_AMOUNT = re.compile(r"(\d+(?:,\d{3})*(?:\.\d+)?)\s*(?:元|yuan|CNY|RMB)", re.IGNORECASE)
#: "how much over": 超出标准多少, 超标多少, 超了多少 (a question that only mentions an excess does not match)
_ASKS_EXCESS = re.compile(r"(?:超|多出)[^，。,.;；？?!！]{0,6}?多少")


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def asks_for_excess(question: str) -> bool:
    """Whether a question states a spend and asks how much it exceeds a limit.

    >>> asks_for_excess("打车花了 118.5 元，超出标准多少？"), asks_for_excess("打车超标怎么报")
    (True, False)
    """
    return bool(amounts(question)) and bool(_ASKS_EXCESS.search(_norm(question)))


def question_bigrams(question: str) -> set[str]:
    """Return the evidence-bearing bigrams of a question: CJK bigrams (question words removed),
    IDs and ASCII words; bare numbers are left out (they are the asker's data, not evidence).

    >>> sorted(question_bigrams("INV-102 能报多少"))
    ['INV-102']
    >>> sorted(question_bigrams("住宿标准是多少"))
    ['住宿', '宿标', '标准']
    """
    if not isinstance(question, str):
        raise TypeError(f"question must be a str, got {type(question).__name__}")
    text = _norm(question)
    out: set[str] = set(find_ids(text))
    text = ID_PATTERN.sub(" ", text)
    for word in QUESTION_WORDS:
        text = text.replace(word, " ")
    for run in _CJK_RUN.findall(text):
        if len(run) == 1:
            out.add(run)
        out.update(run[i : i + 2] for i in range(len(run) - 1))
    out.update(w.lower() for w in re.findall(r"[A-Za-z][A-Za-z0-9]*", text))
    return out


def support(question: str, passage_text: str) -> float:
    """Share of the question's evidence bigrams found in the passage; 0 if a question ID is absent.

    >>> support("住宿标准是多少", "一线城市住宿标准 500 元")
    1.0
    >>> support("INV-102 能报多少", "INV-103 金额 80 元")
    0.0
    """
    grams = question_bigrams(question)
    if not grams:
        return 0.0
    text = _norm(passage_text)
    ids = set(find_ids(question))
    if ids and not ids & set(find_ids(text)):
        return 0.0
    low = text.lower()
    found = sum(1 for g in grams if (g in text if not g.isascii() or "-" in g else g in low))
    return found / len(grams)


def amounts(text: str) -> list[float]:
    """Return the amounts in yuan written in ``text``, in order (``80 元``, ``1,200元``).

    >>> amounts("上海市内交通每次 80 元, 超出 18.5 元")
    [80.0, 18.5]
    """
    return [float(m.group(1).replace(",", "")) for m in _AMOUNT.finditer(_norm(text))]


def _as_date(value: Any) -> _dt.date | None:
    if value is None or (isinstance(value, float) and value != value):
        return None
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    if hasattr(value, "date") and callable(value.date):  # pandas Timestamp
        return value.date()
    return _dt.date.fromisoformat(str(value)[:10])


def is_live(passage: Mapping[str, Any], as_of: Any) -> bool:
    """Whether a chunk is in force on ``as_of``: effective_from <= as_of < effective_to (None = open).

    A passage without effective dates counts as live.

    >>> is_live({"effective_from": "2025-01-01", "effective_to": "2026-01-01"}, "2026-06-30")
    False
    """
    day = _as_date(as_of)
    start, end = _as_date(passage.get("effective_from")), _as_date(passage.get("effective_to"))
    if day is None:
        return end is None
    return (start is None or start <= day) and (end is None or day < end)


@dataclass(frozen=True)
class Answer:
    """A generator's output: answer text, the number (if any), cited chunk IDs, refusal flag."""

    text: str
    number: float | None
    citations: tuple[str, ...]
    refused: bool
    support: float = 0.0
    note: str = ""


@runtime_checkable
class Generator(Protocol):
    """Anything that answers a question from passages (mappings with chunk_id and text)."""

    def __call__(self, question: str, passages: Sequence[Mapping[str, Any]]) -> Answer:
        """Answer ``question`` from ``passages``, citing chunk IDs, or refuse."""
        ...


def _check_passages(passages: Any) -> list[Mapping[str, Any]]:
    if isinstance(passages, (str, bytes, Mapping)) or not isinstance(passages, Sequence):
        raise TypeError("passages must be a list of mappings with chunk_id and text, got "
                        f"{type(passages).__name__}")
    for i, p in enumerate(passages):
        if not isinstance(p, Mapping) or not isinstance(p.get("chunk_id"), str) or not isinstance(
            p.get("text"), str
        ):
            raise ValueError(f"passages[{i}] must be a mapping with string chunk_id and text, got {p!r}")
    return list(passages)


def _table_rows(text: str) -> list[list[str]]:
    rows = []
    for line in text.splitlines():
        if "|" not in line:
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if all(set(c) <= set("-: ") for c in cells):
            continue
        rows.append(cells)
    return rows


def _table_cell(question: str, text: str) -> tuple[float, str] | None:
    """Find the cell whose row label and column header both appear in the question."""
    rows = _table_rows(text)
    if len(rows) < 2:
        return None
    header, body = rows[0], rows[1:]
    q = _norm(question)

    def hits(label: str) -> int:
        label = _norm(label)
        parts = re.split(r"[\s/、,，()（）:：;；\-–—~]+|如|及以下|及以上", label)
        return max((len(p) for p in parts if p and p in q), default=0)

    best = None
    for row in body:
        row_score = max((hits(c) for c in row[:1]), default=0)
        if not row_score:
            continue
        for j, cell in enumerate(row[1:], start=1):
            col_score = hits(header[j]) if j < len(header) else 0
            nums = re.findall(r"\d+(?:\.\d+)?", cell)
            if col_score and nums:
                key = (row_score + col_score, -j)
                if best is None or key > best[0]:
                    best = (key, float(nums[0]), f"{row[0]} / {header[j]}: {cell}")
    return None if best is None else (best[1], best[2])


@dataclass
class ExtractiveAnswerer:
    """Offline extractive answerer: best-covering passage, newest live edition, arithmetic on amounts.

    ``refuse_below``: refuse when the best passage covers less than this share of the question's
    evidence bigrams (see ``support``). ``as_of``: snapshot date used to prefer live editions.
    ``max_passages``: read only the first passages given (the context window).

    >>> gen = ExtractiveAnswerer(refuse_below=0.2)
    >>> a = gen("打车 118.5 元, 超标多少?",
    ...         [{"chunk_id": "TRV26-4.2-a", "text": "上海市内交通(含打车)每次 80 元"}])
    >>> a.number, a.citations, a.refused
    (38.5, ('TRV26-4.2-a',), False)
    """

    refuse_below: float = 0.25
    as_of: Any = None
    max_passages: int | None = None
    name: str = field(default="extractive", init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.refuse_below, (int, float)) or not 0 <= self.refuse_below <= 1:
            raise ValueError(f"refuse_below must be a share in [0, 1], got {self.refuse_below!r}")
        if self.max_passages is not None and (
            not isinstance(self.max_passages, int) or self.max_passages < 1
        ):
            raise ValueError(f"max_passages must be a positive int or None, got {self.max_passages!r}")

    def _rank(self, question: str, passages: list[Mapping[str, Any]]):
        scored = []
        for i, p in enumerate(passages):
            s = support(question, _passage_text(p))
            live = is_live(p, self.as_of)
            start = _as_date(p.get("effective_from")) or _dt.date.min
            scored.append((s, live, start, -i, p))
        # coverage first; among equal coverage a live, newer edition; then the retriever's order
        scored.sort(key=lambda t: (round(t[0], 9), t[1], t[2], t[3]), reverse=True)
        return scored

    def _prefer_live(self, best: Mapping[str, Any], passages: list[Mapping[str, Any]]):
        """Swap a superseded chunk for the live edition of the same clause, if it was retrieved."""
        if is_live(best, self.as_of):
            return best
        key = (best.get("doc_title"), best.get("clause_no"), _part(best["chunk_id"]))
        for p in passages:
            if (p.get("doc_title"), p.get("clause_no"), _part(p["chunk_id"])) == key and is_live(
                p, self.as_of
            ):
                return p
        return best

    def __call__(self, question: str, passages: Sequence[Mapping[str, Any]]) -> Answer:
        """Answer from the passages or refuse; never reads beyond ``max_passages``."""
        if not isinstance(question, str):
            raise TypeError(f"question must be a str, got {type(question).__name__}")
        passages = _check_passages(passages)
        if self.max_passages is not None:
            passages = passages[: self.max_passages]
        if not passages:
            return Answer("无可用证据, 无法回答 (no evidence: refused)", None, (), True, 0.0, "empty")
        ranked = self._rank(question, passages)
        top_support = ranked[0][0]
        if top_support < self.refuse_below:
            return Answer(
                "证据不足, 无法回答 (evidence too weak: refused)", None, (), True, top_support,
                f"best coverage {top_support:.2f} < {self.refuse_below:.2f}",
            )
        best = self._prefer_live(ranked[0][4], passages)
        citations = [best["chunk_id"]]
        text = best["text"]
        number: float | None = None
        q_amounts = amounts(question)
        asks_excess = bool(q_amounts) and bool(_ASKS_EXCESS.search(_norm(question)))
        if asks_excess:
            spent = q_amounts[0]
            for _s, _live, _start, _i, p in ranked:  # best-covering passage with a limit first
                p = self._prefer_live(p, passages)
                limits = [a for a in amounts(p["text"]) if a < spent]
                if limits:
                    limit = limits[0]
                    number = round(spent - limit, 2)
                    if p["chunk_id"] not in citations:
                        citations.insert(0, p["chunk_id"])
                    text = f"超出 {number:g} 元 ({spent:g} − {limit:g}); 依据: {p['text']}"
                    break
        if number is None and not asks_excess:
            cell = _table_cell(question, best["text"]) if best.get("kind") == "table" else None
            if cell is not None:
                number, text = cell
            else:
                picked = _pick_amount(question, best["text"])
                if picked is not None:
                    number = picked
        return Answer(text, number, tuple(citations), False, top_support, "")


@dataclass
class MisreadLimitAnswerer(ExtractiveAnswerer):
    """A deliberately faulty generator, for the Oracle lesson: it ignores the limit in the evidence.

    It answers as ``ExtractiveAnswerer`` does, except that an over-limit amount is computed against
    a limit it "remembers" (``remembered_limit``, 100 元 by default) instead of the one the cited
    clause states: 118.5 元 becomes "over by 18.5 元" even with clause 4.2 (80 元) in hand. That
    is a generation fault; the Oracle row, which hands over the gold evidence, exposes it.

    >>> bad = MisreadLimitAnswerer(refuse_below=0.2)
    >>> bad("打车 118.5 元, 超标多少?", [{"chunk_id": "4.2-a", "text": "市内交通每次 80 元"}]).number
    18.5
    """

    remembered_limit: float = 100.0

    def __post_init__(self) -> None:
        super().__post_init__()
        self.name = f"misread limit ({self.remembered_limit:g} 元)"

    def __call__(self, question: str, passages: Sequence[Mapping[str, Any]]) -> Answer:
        """Answer as ExtractiveAnswerer, but compute an excess against the remembered limit."""
        answer = super().__call__(question, passages)
        spent = amounts(question)
        if answer.refused or not asks_for_excess(question):
            return answer
        number = round(spent[0] - self.remembered_limit, 2)
        text = f"超出 {number:g} 元 ({spent[0]:g} − {self.remembered_limit:g})"
        return Answer(text, number, answer.citations, False, answer.support, "misread limit")


_QUANTITY = re.compile(
    r"(?<![\w.-])(\d+(?:,\d{3})*(?:\.\d+)?)\s*(元|天|日|次|小时|个月|月|年|楼|公里|晚|人|位|%)"
)


def quantities(text: str) -> list[tuple[float, str]]:
    """Return ``(value, unit)`` for every number written with a unit (元, 天, 次, 楼, ...).

    >>> quantities("每 90 天更换一次, 每月补卡 3 次, 每次 80 元")
    [(90.0, '天'), (3.0, '次'), (80.0, '元')]
    """
    return [(float(m.group(1).replace(",", "")), m.group(2)) for m in _QUANTITY.finditer(_norm(text))]


def _pick_amount(question: str, text: str, window: int = 8) -> float | None:
    """The quantity the question asks for: its unit named in the question (几天 -> 天, 多少钱 -> 元)
    counts 5, each question character among the 8 characters before it counts 1; first on ties."""
    q = _norm(question)
    qchars = set("".join(_CJK_RUN.findall(q))) - set("的了是吗呢多少几")
    wants = {u for u in ("天", "日", "次", "小时", "月", "年", "楼", "公里", "晚", "人") if u in q}
    if "钱" in q or "金额" in q or "报多少" in q or "元" in q:
        wants.add("元")
    if "多久" in q:
        wants.update({"天", "日", "小时", "月", "年"})
    best: tuple[int, float] | None = None
    norm = _norm(text)
    for m in _QUANTITY.finditer(norm):
        before = norm[max(0, m.start() - window) : m.start()]
        score = len(qchars & set(before)) + (5 if m.group(2) in wants else 0)
        if best is None or score > best[0]:
            best = (score, float(m.group(1).replace(",", "")))
    return None if best is None else best[1]


def _passage_text(p: Mapping[str, Any]) -> str:
    return "\n".join(str(p[k]) for k in ("title", "text") if isinstance(p.get(k), str))


def _part(chunk_id: str) -> str:
    """The edition-independent tail of a chunk ID: 'TRV26-4.2-a' -> '4.2-a'."""
    head, _, tail = chunk_id.partition("-")
    return tail or head


class LLMGeneratorAdapter:
    """ADAPTER EXAMPLE, NOT IMPLEMENTED: how a real LLM client would satisfy ``Generator``.

    To plug one in, subclass and implement ``complete(prompt) -> str`` with your client, e.g. a
    function that sends ``prompt`` to your model and returns its text. ``__call__`` then builds a
    prompt that numbers each passage with its chunk ID, asks for an answer citing ``[chunk_id]`` or
    the word REFUSE, and parses the reply into an ``Answer``. Pin the model name, temperature and the
    prompt text in the run configuration; three generations of one question are still one sample.
    Nothing here contacts a network, and the workbook never calls it.
    """

    def __init__(self, model: str = "your-model-name") -> None:
        self.model = model
        self.name = f"llm:{model}"

    def prompt(self, question: str, passages: Sequence[Mapping[str, Any]]) -> str:
        """Build the prompt: numbered passages with chunk IDs, then the question and the rules."""
        lines = ["Answer from the passages only. Cite [chunk_id]. If they do not answer, say REFUSE."]
        for p in _check_passages(passages):
            lines.append(f"[{p['chunk_id']}] {p['text']}")
        lines.append(f"Question: {question}")
        return "\n".join(lines)

    def complete(self, prompt: str) -> str:
        """Send ``prompt`` to the model; to be implemented by the reader's subclass."""
        raise NotImplementedError("LLMGeneratorAdapter is an adapter example, not a client: subclass it and "
                                  "implement complete(prompt) -> str with your LLM SDK (model, temperature "
                                  "and prompt pinned in the run configuration). The workbook's default "
                                  "generator is ExtractiveAnswerer.")

    def __call__(self, question: str, passages: Sequence[Mapping[str, Any]]) -> Answer:
        """Ask the model and parse ``[chunk_id]`` citations, a number and REFUSE from its reply."""
        reply = self.complete(self.prompt(question, passages))
        known = {p["chunk_id"] for p in passages}
        cited = tuple(c for c in re.findall(r"\[([^\]]+)\]", reply) if c in known)
        refused = "REFUSE" in reply.upper()
        nums = amounts(reply)
        return Answer(reply, None if refused or not nums else nums[0], cited, refused)


def answer_is_correct(
    answer: Answer,
    *,
    gold_number: float | None,
    grades: Mapping[str, int],
    tol: float = 0.01,
) -> bool:
    """Judge an answer to an answerable question.

    With a gold number: not refused and ``|number - gold| <= tol``. Without one: not refused and
    the first citation is labelled 2 (answers the question). A no-answer question is judged
    elsewhere (a refusal is the correct outcome).

    >>> answer_is_correct(Answer("", 38.5, ("a",), False), gold_number=38.5, grades={"a": 2})
    True
    >>> answer_is_correct(Answer("", 18.5, ("a",), False), gold_number=38.5, grades={"a": 2})
    False
    """
    if answer.refused:
        return False
    if gold_number is not None and gold_number == gold_number:
        return answer.number is not None and abs(answer.number - float(gold_number)) <= tol
    return bool(answer.citations) and grades.get(answer.citations[0], 0) >= 2
