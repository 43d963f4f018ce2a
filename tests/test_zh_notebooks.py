"""The Chinese notebooks have the workbook's shape in Chinese, run, and speak Chinese in what they show.

Their code is the English code (tests/test_zh_edition.py), so every number the English tests assert is
computed by the same cells; here the Chinese edition is held to the same checks where language matters:
its headings (numbered sections ending in 小结 and 练习, the same exercises in the same order, a link to
the next notebook), the article's numbers in its executed output, no answer shown before its exercise,
and readings and self-check verdicts that come out in Chinese. Each notebook is executed once per run
(the ``executed`` fixture of tests/conftest.py), the English ones too.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from outputs import cell_outputs, joined
from outputs import printed as printed_by
from test_notebooks import DIGEST_NUMBERS, _num, _text_output, answers_shown_early

ROOT = Path(__file__).resolve().parent.parent
EN_DIR, ZH_DIR = ROOT / "notebooks", ROOT / "notebooks" / "zh"
NUMBERED = sorted(ZH_DIR.glob("0*.ipynb"))
ALL_ZH = sorted([*ZH_DIR.glob("*.ipynb"), *(ZH_DIR / "solutions").glob("*.ipynb")])

EN_EXERCISE = re.compile(r"^### Exercise (\d\d[a-z]?\.\d+) — ", re.M)
ZH_EXERCISE = re.compile(r"^### 练习 (\d\d[a-z]?\.\d+)：\S", re.M)

#: The digest's checks whose pattern holds English words (the English output's), in Chinese. Written by
#: hand from the digest, like the English ones; a check not listed here is language-free (numbers).
ZH_PATTERNS: dict[str, str] = {
    "the 2026 policy is split into 40 chunks": _num("40") + r"\s*(?:个)?片段",
    "2026 edition: 80 yuan": r"2026\s*(?:年)?版[^\n]*?" + _num("80") + r"\s*元",
    "2025 edition: 60 yuan": r"2025\s*(?:年)?版[^\n]*?" + _num("60") + r"\s*元",
    "finance officer": r"财务人员|(?i:finance)",  # an identity reads 财务人员 in a Chinese table
}


def _cells(path: Path):
    return nbformat.read(path, as_version=4).cells


def _english(path: Path) -> Path:
    return EN_DIR / path.relative_to(ZH_DIR)


def _id(path: Path) -> str:
    return str(path.relative_to(ZH_DIR))


# -------------------------------------------------------------------------------- shape, unexecuted
@pytest.mark.parametrize("path", NUMBERED, ids=_id)
def test_sections_are_numbered_in_order_and_end_with_recap_and_exercises_in_chinese(path):
    headings = [m for c in _cells(path) if c.cell_type == "markdown"
                for m in re.findall(r"^## (\d+)\. (.+)$", c.source, re.M)]
    numbers = [int(n) for n, _ in headings]
    assert numbers == list(range(1, len(numbers) + 1)), f"{path.name}: sections numbered {numbers}"
    assert "小结" in headings[-2][1], f"{path.name}: second-to-last section is {headings[-2][1]!r}"
    assert "练习" in headings[-1][1], f"{path.name}: last section is {headings[-1][1]!r}"


@pytest.mark.parametrize("path", NUMBERED, ids=_id)
def test_the_same_exercises_in_the_same_order_as_the_english(path):
    english = [eid for c in _cells(_english(path)) if c.cell_type == "markdown"
               for eid in EN_EXERCISE.findall(c.source)]
    chinese = [eid for c in _cells(path) if c.cell_type == "markdown"
               for eid in ZH_EXERCISE.findall(c.source)]
    assert english and chinese == english, f"{path.name}: exercise headings {chinese}, not {english}"


@pytest.mark.parametrize("path", NUMBERED, ids=_id)
def test_last_cell_links_the_next_chinese_notebook(path):
    last = _cells(path)[-1]
    links = re.findall(r"\]\(([^)]+)\)", last.source)
    assert last.cell_type == "markdown" and links, f"{path.name}: the last cell has no link"
    assert all((path.parent / link.split("#")[0]).is_file() for link in links), links


# ------------------------------------------------------------------------------------- executed
@pytest.mark.notebooks
@pytest.mark.slow
@pytest.mark.parametrize("path", [ZH_DIR / name for name in sorted(DIGEST_NUMBERS)], ids=_id)
def test_chinese_notebook_shows_digest_numbers(path, executed):
    text = _text_output(executed(path)) + _readings(executed(path))
    missing = [what for what, pattern in DIGEST_NUMBERS[path.name]
               if not re.search(ZH_PATTERNS.get(what, pattern), text)]
    assert not missing, f"zh/{path.name}: the executed output does not show: {missing}"


def _markdown_output(nb) -> str:
    """Any Markdown a code cell displays (the readings are markdown cells now: tools/zh_notebooks.py checks
    that each is translated)."""
    return "\n".join(str(out.get("data", {}).get("text/markdown", ""))
                     for cell in nb.cells if cell.cell_type == "code" for out in cell_outputs(cell))


def _readings(nb) -> str:
    """The markdown cells' prose (where the readings after the tables stand) and any displayed Markdown."""
    prose = [cell.source for cell in nb.cells if cell.cell_type == "markdown"]
    return "\n".join([_markdown_output(nb), *prose])


@pytest.mark.notebooks
@pytest.mark.slow
@pytest.mark.parametrize("path", NUMBERED, ids=_id)
def test_no_answer_is_printed_before_its_exercise_in_chinese(path, executed):
    shown = answers_shown_early(executed(path), ZH_EXERCISE)
    assert not shown, f"zh/{path.name}: answers printed before their exercise: {shown}"


#: Four or more English words in a row: a sentence, not a column name or an identifier.
ENGLISH_RUN = re.compile(r"(?<![\w/.-])(?:[A-Za-z]{2,}[,;:]? ){3,}[A-Za-z]{2,}")
#: Printed lines that are not prose: the versions cell, file paths.
NOT_PROSE = re.compile(r"^(?:python|ragmath|numpy|pandas|polars|matplotlib|anywidget|jieba|rank-bm25|scipy)"
                       r"\s+\S+$")


#: A printed error of ragmath's core, shown on purpose (the core speaks English; the markdown glosses it).
CORE_ERROR = re.compile(r"(?:\w+\.)*\w+(?:Error|Exception): ")


def _english_runs(text: str) -> list[str]:
    """Runs of English words, outside code spans and Chinese quotation marks (“…”: data quoted as it is,
    such as a commit message), on lines that are not a printed core error or the versions cell."""
    found = []
    for line in text.splitlines():
        if NOT_PROSE.match(line.strip()) or CORE_ERROR.match(line.strip()):
            continue
        found += ENGLISH_RUN.findall(re.sub(r"`[^`]*`|“[^”]*”", "", line))
    return found


def test_english_runs_are_found_in_a_sentence_and_not_in_ids():
    assert _english_runs("On nDCG@5, D leads (C 0.700, D 0.800) as the article expects.")
    assert not _english_runs("在 nDCG@5 上，D 领先（C 0.700，D 0.800）。")
    assert not _english_runs("ragmath    0.2.0\nown_system_work/labels.csv")
    assert not _english_runs("ValueError: a ranking lists each ID once, not twice")
    assert not _english_runs("封存提交的说明（原文）：“holdout: sealed 53 new questions in 46 groups”")


@pytest.mark.notebooks
@pytest.mark.slow
@pytest.mark.parametrize("path", ALL_ZH, ids=_id)
def test_chinese_notebook_prints_and_reads_in_chinese(path, executed):
    """What the cells print and the readings they display as Markdown hold no English sentence, and
    every self-check verdict is a Chinese one. Tables are not read here: their headers keep the code's
    English name beside the Chinese word by design, and tests/test_messages_columns.py checks them."""
    nb = executed(path)
    printed = [printed_by(c) for c in nb.cells if c.cell_type == "code"]
    english = _english_runs("\n".join(printed) + "\n" + _markdown_output(nb))
    assert not english, f"zh/{_id(path)}: English in what it shows: {english[:5]}"
    verdicts = [line for text in printed for line in text.splitlines() if re.match(r"\x1b\[\d+m[✓≈✗○]", line)]
    assert all(re.search(r"[\u4e00-\u9fff]", line) for line in verdicts), verdicts[:3]


# ------------------------------------------------------------------- notebook 08, word by word
#: What may stay in Latin letters in zh 08's outputs: names, not words. The code's names (headers show
#: them in brackets beside the Chinese word, removed before this check), the versions, metrics and terms
#: the glossary keeps (Holm, bootstrap, Judged@K), IDs, single letters (K, p, the widget's keys), paths
#: and hashes, the self-check's code names (None, my_prediction), the unit ms, and the plain-text
#: stand-ins of a chart and a widget (their image and widget are what a reader sees).
ZH08_NAMES = re.compile(
    r"^(?:bm25(?:-bigram)?|vector|rrf-k60|Recall|nDCG|Judged|Holm|bootstrap|None|my_prediction|jieba|BM25|RRF"
    r"|[A-Za-z]|[\w-]*\d[\w-]*|[A-Z]{2,}|own_system_work|workbook|files|runs|trec|compare_report|md|csv|p_holm|version|ms"
    r"|MY_FILES|template)$")  # MY_FILES: the code's variable; template: the file template.csv
ZH08_FALLBACKS = re.compile(r"<Figure size \d+x\d+ with \d+ Axes>|<ragmath\.lab\.notebook\.labelling\."
                            r"LabellingWidget object at 0x[0-9a-f]+>")


def _latin_words(text: str) -> list[str]:
    text = "\n".join(line for line in text.splitlines() if not NOT_PROSE.match(line.strip()))  # versions cell
    text = ZH08_FALLBACKS.sub(" ", text)
    text = re.sub(r"（[^）]*）", " ", text)  # "均值（mean）": the code's name beside the Chinese word
    text = re.sub(r"[\w./-]*own_system_work[\w./-]*", " ", text)  # paths
    text = re.sub(r"\b[0-9a-f]{12,}\b", " ", text)  # hashes and commits
    text = re.sub(r"\{\w+\}", " ", text)  # a widget's {fields}, filled in by its script
    words = re.findall(r"[A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9]+)*", text)
    return sorted({w for w in words if not ZH08_NAMES.match(w)})


def test_the_latin_word_finder_keeps_names_and_finds_words():
    assert _latin_words("均值及区间（mean [CI]）：bm25-bigram 0.643；Holm 校正") == []
    assert _latin_words("bm25 baseline") == ["baseline"]


# ------------------------------------------------------------------------ English words in the outputs
def _load_glossary_tool():
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("tools_glossary", ROOT / "tools" / "glossary.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


#: The Chinese notebooks whose every shown word is Chinese: 01–05b, the explorer notebook, their solutions.
READ_IN_CHINESE = sorted([*ZH_DIR.glob("0[1-5]*.ipynb"), ZH_DIR / "rrf_explorer.ipynb",
                          *(ZH_DIR / "solutions").glob("0[1-5]*.ipynb")])

#: A word: letters, maybe joined by - or . to more (single-hop, ragmath.compare, rank-bm25).
WORD = re.compile(r"[A-Za-z][A-Za-z0-9_@]*(?:[-.][A-Za-z0-9_@]+)*")

#: The English words a Chinese output may show, because they are code or names, not English:
CODE_NAMES = {
    # metrics and methods, as the article and the tools write them
    "Recall", "Hit", "nDCG", "DCG", "IDCG", "MRR", "RR", "RRF", "BM25", "RAG", "Oracle",
    "min-max", "z-score", "l2", "n-gram",
    # the versions cell: packages and the font
    "python", "ragmath", "numpy", "pandas", "matplotlib", "ipywidgets", "jieba", "rank-bm25",
    "Noto", "Sans", "SC",
    # functions the reader types (rrf; names with an underscore or a dot are code anyway)
    "rrf",
    # the reranker's features, the identities' roles (data/identities.csv): names in code and data
    "bm25", "cosine", "live", "memory", "employee", "finance",
    # Python's own words in a verdict ("请把 None 换成你的答案") and in the core's printed errors
    "None", "ValueError",
}

#: Code names in the headers' form: a Chinese word, then the code's name in full-width brackets.
NAME_IN_BRACKETS = re.compile(r"（[\x21-\x7e ]+?）")
#: An error of ragmath's core, printed on purpose: its text stays English, with a Chinese line before it.
CORE_ERROR_LINE = re.compile(r"^(?:\w+\.)*\w+(?:Error|Exception): ")


def _is_code_name(word: str) -> bool:
    """IDs and symbols (a digit, an underscore, all capitals, one letter), dotted paths, the listed names."""
    return (word in CODE_NAMES or len(word) == 1 or word.isupper() or any(ch.isdigit() for ch in word)
            or "_" in word or "." in word or "@" in word)


def english_words(text: str) -> list[str]:
    """The English words in ``text`` that are no code name, outside the brackets of a header's name and the
    core's printed errors; a printed core error that has no Chinese line right before it is reported whole.

    >>> english_words("第一名（leader）：是\\nrrf 拒绝重复项：\\nValueError: list each ID once")
    []
    >>> english_words("lead changes: [LeadChange(k=3, previous='4.2')] False\\nValueError: no")
    ['lead', 'changes', 'LeadChange', 'previous', 'False', 'ValueError: no']
    """
    found = []
    previous = ""
    for line in text.splitlines():
        if CORE_ERROR_LINE.match(line.strip()):
            if not re.search(r"[\u4e00-\u9fff]", previous):
                found.append(line.strip()[:60])
            continue
        if line.strip():
            previous = line
        found += [w for w in WORD.findall(NAME_IN_BRACKETS.sub("", line)) if not _is_code_name(w)]
    return found


def _without_the_drawings_english_terms(text: str) -> str:
    """The pipeline diagram shows each stage's Chinese word with the code's English term beneath it (as a
    header shows its name in brackets): the pair counts as the Chinese word."""
    from ragmath.lab.messages import CATALOGUE

    for key, texts in CATALOGUE.items():
        if key.startswith("notebook.diagram.stage."):
            pair = re.escape(texts["zh"]) + r"\s+" + re.escape(texts["en"]) + r"(?![\w-])"
            text = re.sub(pair, texts["zh"], text)
    return text


@pytest.mark.notebooks
@pytest.mark.slow
def test_chinese_08_shows_no_english_word(executed):
    """Tables (values and headers), printed lines, the chart's plain text, the compare report 08 writes and
    the labelling widget's words: Chinese, besides names."""
    from ragmath.lab.notebook.labelling import MESSAGES

    nb = executed(ZH_DIR / "08_your_own_system.ipynb")
    shown = []
    for cell in nb.cells:
        for out in cell_outputs(cell) if cell.cell_type == "code" else []:
            shown.append(out.get("text", ""))
            shown.append(str(out.get("data", {}).get("text/plain", "")))
    report = (ZH_DIR / "own_system_work" / "workbook" / "compare_report.md").read_text(encoding="utf-8")
    assert _latin_words("\n".join(shown)) == []
    assert _latin_words(report) == []
    assert _latin_words("\n".join(MESSAGES["zh"].values())) == []


@pytest.mark.notebooks
@pytest.mark.slow
@pytest.mark.parametrize("name", ["09_release_gate.ipynb", "solutions/09_release_gate_solutions.ipynb"])
def test_chinese_09_shows_no_english_word(name, executed):
    """Tables (values and headers) and printed lines of zh 09 and its solutions: Chinese, besides names
    (the gate's reports are the notebook's own table, in Chinese; the core's English report is not shown)."""
    nb = executed(ZH_DIR / name)
    shown = []
    for cell in nb.cells:
        for out in cell_outputs(cell) if cell.cell_type == "code" else []:
            shown.append(out.get("text", ""))
            shown.append(str(out.get("data", {}).get("text/plain", "")))
    assert _latin_words("\n".join(shown)) == []


@pytest.mark.notebooks
@pytest.mark.slow
@pytest.mark.parametrize("path", READ_IN_CHINESE, ids=_id)
def test_what_the_chinese_notebook_shows_holds_no_english_word(path, executed):
    """Every output a reader sees (printed text, tables' HTML, drawings, the explorer widget's words; a
    table's plain text only where it has no HTML) holds no English word but the code names above."""
    glossary = _load_glossary_tool()
    shown = glossary.notebook_outputs(joined(executed(path)))
    words = sorted(set(english_words(_without_the_drawings_english_terms(shown))))
    assert not words, f"zh/{_id(path)}: English words in what it shows: {words}"


def test_english_words_are_found_in_sentences_and_reprs_not_in_code_names():
    assert english_words("k = 60 时 4.2 领先；第一名（leader）：是；TRV26-4.2-b、Q07、nDCG@5") == []
    assert english_words("p6_employee、finance_officer、ragmath.compare、rank-bm25") == []
    assert english_words("rrf 拒绝重复项：\nValueError: list each ID once") == []
    assert english_words("ValueError: list each ID once") == ["ValueError: list each ID once"]
    assert english_words("[LeadChange(k=3, previous='4.2')] False one_of vector") == [
        "LeadChange", "previous", "False", "vector"]
