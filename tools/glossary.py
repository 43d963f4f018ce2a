"""The glossary: one file of terms (``docs/glossary.csv``), the tables drawn from it, the checks on zh text.

``docs/glossary.csv`` holds one term a row: ``zh`` (the word the Chinese edition uses: the article's own
where it names the idea, else the workbook's), ``en``, ``variants`` (the words it replaces, separated by
``、``), ``source`` (``article`` or ``workbook``), ``readme`` (1: also in README.zh.md's short table),
``meaning_zh`` and ``meaning_en`` (one line each).

Its tables sit in generated blocks, between ``<!-- generated: NAME -->`` and ``<!-- /generated: NAME -->``:
``glossary-zh`` (docs/glossary.zh.md), ``glossary-en`` (docs/glossary.md) and ``glossary-readme``
(README.zh.md). ``python tools/glossary.py`` rewrites them; ``--check`` only says which are stale (exit 1).

:func:`variants_in` finds the listed variants in a text, whole terms only: 改写类 inside 同义改写类 is
reported once, as 同义改写类, and a variant inside a longer accepted term is not reported at all.
:func:`style_problems` finds the punctuation and number style the article does not use (「」, "95 %",
ASCII punctuation against Chinese text). :func:`markdown_prose` and :func:`notebook_prose` give the text a
reader reads, so the same checks can take notebooks as well as Markdown pages; :func:`notebook_outputs`
gives what an executed notebook shows (printed text, tables as HTML, drawings' words, widgets).
"""

from __future__ import annotations

import csv
import html
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "docs" / "glossary.csv"
SOURCES = {"article": ("文章", "article"), "workbook": ("练习册", "workbook")}
_BLOCK = re.compile(r"(<!-- generated: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- /generated: (?P=name) -->)",
                    re.S)
_CJK = "\u3400-\u9fff\uf900-\ufaff"


@dataclass(frozen=True)
class Term:
    zh: str
    en: str
    variants: tuple[str, ...]
    source: str
    readme: bool
    meaning_zh: str
    meaning_en: str


def load(path: Path = GLOSSARY) -> list[Term]:
    """The glossary's terms, in file order; a row with an unknown source or an empty field is an error."""
    terms = []
    with open(path, encoding="utf-8", newline="") as handle:
        for line, row in enumerate(csv.DictReader(handle), start=2):
            filled = all(row[f] for f in ("zh", "en", "meaning_zh", "meaning_en"))
            if row["source"] not in SOURCES or not filled:
                raise ValueError(f"{path.name}, line {line}: needs zh, en, both meanings and a known source")
            variants = tuple(v.strip() for v in row["variants"].split("、") if v.strip())
            terms.append(Term(row["zh"], row["en"], variants, row["source"], row["readme"] == "1",
                              row["meaning_zh"], row["meaning_en"]))
    return terms


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def table(terms: list[Term], which: str) -> str:
    """A Markdown table of ``terms``: ``zh`` or ``en`` (every column) or ``readme`` (short, in Chinese).

    The article's terms come first, in the file's order, then the workbook's own.
    """
    terms = sorted(terms, key=lambda t: t.source != "article")
    if which == "readme":
        rows = ["| 术语 | English | 含义 |", "|---|---|---|"]
        rows += [f"| {t.zh} | {_cell(t.en)} | {_cell(t.meaning_zh)} |" for t in terms if t.readme]
    elif which == "zh":
        rows = ["| 术语 | English | 不再使用的说法 | 出处 | 含义 |", "|---|---|---|---|---|"]
        rows += [f"| {t.zh} | {_cell(t.en)} | {'、'.join(t.variants) or '—'} | {SOURCES[t.source][0]} | "
                 f"{_cell(t.meaning_zh)} |" for t in terms]
    elif which == "en":
        rows = ["| 中文 | English | replaces | from | meaning |", "|---|---|---|---|---|"]
        rows += [f"| {t.zh} | {_cell(t.en)} | {'、'.join(t.variants) or '—'} | {SOURCES[t.source][1]} | "
                 f"{_cell(t.meaning_en)} |" for t in terms]
    else:
        raise ValueError(f"no glossary table {which!r}")
    return "\n".join(rows) + "\n"


#: generated block name -> (file, table kind)
BLOCKS = {
    "glossary-zh": (ROOT / "docs" / "glossary.zh.md", "zh"),
    "glossary-en": (ROOT / "docs" / "glossary.md", "en"),
    "glossary-readme": (ROOT / "README.zh.md", "readme"),
}


def generated_blocks(text: str) -> dict[str, str]:
    """NAME -> body of every generated block in ``text``."""
    return {m["name"]: m["body"] for m in _BLOCK.finditer(text)}


def with_block(text: str, name: str, body: str) -> str:
    """``text`` with the body of its generated block ``name`` replaced; ``KeyError`` if it has none."""
    if name not in generated_blocks(text):
        raise KeyError(name)
    return _BLOCK.sub(lambda m: m.group(1) + body + m.group(4) if m["name"] == name else m.group(0), text)


def variants_in(text: str, terms: list[Term]) -> list[tuple[str, str]]:
    """``(variant, accepted term)`` for each listed variant found in ``text`` as a whole term, in text order.

    An occurrence inside a longer listed word (an accepted term or another variant) is that longer word's:

    >>> terms = [Term("同义改写题", "paraphrase", ("同义改写类", "改写类"), "article", False, "-", "-")]
    >>> variants_in("改写类和同义改写类，同义改写题", terms)
    [('改写类', '同义改写题'), ('同义改写类', '同义改写题')]
    """
    words = {t.zh for t in terms} | {v for t in terms for v in t.variants}
    found = []
    for term in terms:
        for variant in term.variants:
            longer = [w for w in words if len(w) > len(variant) and variant in w]
            for match in re.finditer(re.escape(variant), text):
                start = match.start()
                if not any(text[start - offset:start - offset + len(word)] == word
                           for word in longer for offset in _offsets(word, variant) if start >= offset):
                    found.append((start, variant, term.zh))
    return [(variant, zh) for _, variant, zh in sorted(found)]


def _offsets(word: str, part: str) -> list[int]:
    return [m.start() for m in re.finditer(f"(?={re.escape(part)})", word)]


_STYLE = [
    (re.compile("[「」『』]"), "「」 where the article writes “”"),
    (re.compile(r"\d\s+[%％]"), "a space before %: the article writes 95%"),
    (re.compile("％"), "full-width ％: the article writes 95%"),
    (re.compile('"'), 'a straight " in Chinese prose: the article quotes with “”'),
    (re.compile(f"[{_CJK}][,;:?!]|[,;:?!][{_CJK}]"), "ASCII , ; : ? ! against Chinese text: use ，；：？！"),
    (re.compile(f"[{_CJK}]\\(|\\)[{_CJK}]"), "ASCII ( ) against Chinese text: use （）"),
]


def style_problems(text: str) -> list[tuple[str, str]]:
    """``(where, why)`` for each place ``text`` departs from the article's punctuation and numbers."""
    problems = []
    for line in text.splitlines():
        for pattern, why in _STYLE:
            problems += [(line.strip()[:80], why) for _ in pattern.finditer(line)]
    return problems


def markdown_prose(text: str) -> str:
    """``text`` without inline code, link targets and HTML comments; code blocks keep only their comments.

    Code is data and names (``"zh"``, ``--k``); a reader reads the prose and the comments.
    """
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    out, in_code = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            out.append(line.split("#", 1)[1] if "#" in line else "")
        else:
            out.append(line)
    prose = "\n".join(out)
    prose = re.sub(r"`[^`\n]*`", "", prose)
    return re.sub(r"\]\([^)\s]*\)", "]", prose)


def notebook_prose(path: Path) -> str:
    """The markdown cells of a notebook and the text outputs of its code cells (printed text, the plain
    text of what they display), as one text to check; :func:`notebook_outputs` reads what a reader sees."""
    cells = json.loads(Path(path).read_text(encoding="utf-8"))["cells"]
    parts = []
    for cell in cells:
        if cell["cell_type"] == "markdown":
            parts.append(markdown_prose("".join(cell["source"])))
        for output in cell.get("outputs", []):
            parts.append("".join(output.get("text", "")))
            parts.append("".join(output.get("data", {}).get("text/plain", "")))
    return "\n".join(parts)


_WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
_WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
#: The widget model fields that hold words a reader reads (a label, a text, a menu's entries).
_WIDGET_WORDS = ("description", "value", "placeholder", "tooltip", "_options_labels")


def html_text(markup: str) -> str:
    """The text a browser shows for ``markup``: style and script blocks dropped, tags become spaces, entities
    decoded.

    >>> html_text("<style>td {x: 1}</style><td>是&amp;否</td><td>4.2</td>")
    ' 是&否  4.2 '
    """
    markup = re.sub(r"<(style|script)\b.*?</\1>", "", markup, flags=re.S | re.I)
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def output_texts(output: dict) -> list[str]:
    """The texts a reader reads in one output, each as one string: what a stream prints, an error's line,
    and of a display the richest form a notebook shows (a widget, HTML, an SVG drawing's words); its plain
    text only when it has none of those and no image (a figure's ``<Figure size ...>`` is never seen)."""
    if output.get("output_type") == "stream":
        return ["".join(output.get("text", ""))]
    if output.get("output_type") == "error":
        return [f"{output.get('ename', '')}: {output.get('evalue', '')}"]
    data = output.get("data", {})
    if _WIDGET_VIEW in data:
        return []  # read from the notebook's widget state (notebook_outputs)
    if "text/html" in data:
        return [html_text("".join(data["text/html"]))]
    if "image/svg+xml" in data:
        return [html_text("".join(data["image/svg+xml"]))]
    if any(kind.startswith("image/") for kind in data):
        return []
    return ["".join(data.get("text/plain", ""))]


def notebook_outputs(nb: dict) -> str:
    """Every text an executed notebook shows a reader, one output a block: :func:`output_texts` of each code
    cell's outputs, then the words of its widgets (the RRF k explorer's labels, lead line and table, as
    the notebook saved their state)."""
    parts = [text for cell in nb["cells"]
             for output in cell.get("outputs", []) for text in output_texts(output)]
    models = nb.get("metadata", {}).get("widgets", {}).get(_WIDGET_STATE, {}).get("state", {})
    for model in models.values():
        state = model.get("state", {})
        for field in _WIDGET_WORDS:
            value = state.get(field)
            if isinstance(value, list):
                parts.append("\n".join(str(v) for v in value))
            elif isinstance(value, str):
                parts.append(html_text(value))
    return "\n".join(parts)


def main(argv: list[str]) -> int:
    terms = load()
    texts = {name: path.read_text(encoding="utf-8") for name, (path, _) in BLOCKS.items()}
    missing = [f"{BLOCKS[name][0].relative_to(ROOT)}: <!-- generated: {name} -->"
               for name, text in texts.items() if name not in generated_blocks(text)]
    if missing:
        print(f"no generated block in {'; '.join(missing)}", file=sys.stderr)
        return 1
    stale = []
    for name, (path, kind) in BLOCKS.items():
        text = texts[name]
        new = with_block(text, name, table(terms, kind))
        if new != text:
            stale.append(str(path.relative_to(ROOT)))
            if "--check" not in argv:
                path.write_text(new, encoding="utf-8")
    verb = "stale" if "--check" in argv else "rewritten"
    print(f"glossary tables {verb}: {', '.join(stale) or 'none'}")
    return 1 if stale and "--check" in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
