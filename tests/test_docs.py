"""The front door and the reference pages: every relative link resolves, and each page's twin in the other
language has the same tables, code and commands."""

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", ROOT / "README.zh.md", *(ROOT / "docs").glob("*.md")])
#: Written on another branch (the classroom page); a link to them may come before they do.
CLASSROOM = {ROOT / "docs" / "classroom.md", ROOT / "docs" / "classroom.zh.md"}
_LINK = re.compile(r"!?\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]+)\)")


def _without_code(text):
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def links(path):
    """``(link text, target)`` of every Markdown link and image in ``path``, outside code."""
    return [(m["text"], m["target"]) for m in _LINK.finditer(_without_code(path.read_text(encoding="utf-8")))]


def slug(heading):
    """GitHub's anchor for a heading: lower case, punctuation dropped (letters of any script kept), spaces
    to hyphens.

    >>> slug("Dev and the sealed holdout"), slug("和基线比较各个版本"), slug("Glossary — 术语表")
    ('dev-and-the-sealed-holdout', '和基线比较各个版本', 'glossary--术语表')
    """
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return kept.replace(" ", "-")


def anchors(path):
    headings = re.findall(r"^#{1,6} (.+)$", _without_code(path.read_text(encoding="utf-8")), flags=re.M)
    seen, result = {}, set()
    for heading in headings:
        base = slug(heading)
        count = seen.get(base, 0)
        result.add(base if count == 0 else f"{base}-{count}")
        seen[base] = count + 1
    return result


def broken_links(path):
    problems = []
    for _, target in links(path):
        if re.match(r"[a-z]+:", target):
            continue
        file_part, _, anchor = target.partition("#")
        resolved = (path.parent / file_part).resolve() if file_part else path
        if not resolved.exists():
            problems.append(f"{target}: no such file")
            continue
        if anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            problems.append(f"{target}: no heading with the anchor #{anchor}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves_to_a_file_and_heading(page):
    assert broken_links(page) == []


def test_the_link_check_finds_a_missing_file_and_a_missing_anchor(tmp_path):
    (tmp_path / "b.md").write_text("# Real heading\n", encoding="utf-8")
    page = tmp_path / "a.md"
    page.write_text("[ok](b.md#real-heading) [no](c.md) [gone](b.md#nowhere) `[code](x.md)`\n",
                    encoding="utf-8")
    assert broken_links(page) == ["c.md: no such file", "b.md#nowhere: no heading with the anchor #nowhere"]


def test_the_classroom_pages_exist_and_are_linked():
    assert all(page.exists() for page in CLASSROOM)
    linked = {(page.parent / t.partition("#")[0]).resolve() for page in PAGES for _, t in links(page)}
    assert CLASSROOM <= linked, "README and the workbook page link the classroom pages"


# ---------------------------------------------------------------- the two languages


def _twin(page):
    """The other language's page: X.md <-> X.zh.md (None for the English-only design notes)."""
    name = page.name
    twin = page.with_name(name.replace(".zh.md", ".md")) if name.endswith(".zh.md") else \
        page.with_name(name[:-3] + ".zh.md")
    return twin if twin.exists() else None


ENGLISH = [p for p in PAGES if not p.name.endswith(".zh.md")]
CHINESE = [p for p in PAGES if p.name.endswith(".zh.md")]


def test_every_reference_page_but_the_design_notes_exists_in_both_languages():
    assert [p.name for p in ENGLISH if _twin(p) is None] == ["design-notes.md"]
    assert all(_twin(p) is not None for p in CHINESE)
    for name in ("conventions", "metrics", "command-line", "own-system", "file-formats", "performance",
                 "workbook", "glossary"):
        assert (ROOT / "docs" / f"{name}.md").exists() and (ROOT / "docs" / f"{name}.zh.md").exists(), name


def test_the_design_notes_say_they_are_english_only():
    head = (ROOT / "docs" / "design-notes.md").read_text(encoding="utf-8")[:400]
    assert "English only" in head and "只有英文" in head


def _tables(text):
    """Each Markdown table of ``text`` (outside code): its rows' inline-code spans, minus header and rule."""
    tables, current = [], None
    for line in re.sub(r"^```.*?^```", "", text, flags=re.S | re.M).splitlines():
        if line.startswith("|"):
            if current is None:
                current = []
                tables.append(current)
            current.append(sorted(re.findall(r"`[^`]+`", line)))
        else:
            current = None
    return [rows[2:] for rows in tables]


def _commands(text):
    """The lines of every fenced bash or python block, comments dropped: what a reader types."""
    blocks = re.findall(r"^```(?:bash|python)\n(.*?)^```", text, flags=re.S | re.M)
    return [re.sub(r"\s+#.*$", "", line).rstrip() for block in blocks for line in block.splitlines()
            if not line.lstrip().startswith("#")]


@pytest.mark.parametrize("page", [p for p in ENGLISH if _twin(p)], ids=lambda p: p.name)
def test_a_page_and_its_chinese_twin_have_the_same_tables_and_commands(page):
    english = page.read_text(encoding="utf-8")
    chinese = _twin(page).read_text(encoding="utf-8")
    if page.name == "README.md":  # the Chinese README adds the short glossary table
        chinese = re.sub(r"<!-- generated: glossary-readme -->.*?<!-- /generated: glossary-readme -->", "",
                         chinese, flags=re.S)
    assert _commands(chinese) == _commands(english)
    assert _tables(chinese) == _tables(english)


def test_the_chinese_pages_link_chinese_pages_wherever_one_exists():
    """A Chinese page sends its reader to the Chinese twin, except the one link that switches language."""
    wrong = []
    for page in CHINESE:
        for text, target in links(page):
            file_part = target.partition("#")[0]
            resolved = (page.parent / file_part).resolve()
            if resolved.suffix == ".md" and not resolved.name.endswith(".zh.md") and _twin(resolved) \
                    and not text.startswith("English"):
                wrong.append(f"{page.name}: [{text}]({target})")
    assert wrong == []


def test_the_notebooks_links_into_the_readmes_and_docs_resolve():
    """The notebooks end with a link back to the notebook map; the headings they name must stay."""
    import json

    wrong = []
    for notebook in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        for target in (m["target"] for m in _LINK.finditer(_without_code(text))):
            file_part, _, anchor = target.partition("#")
            resolved = (notebook.parent / file_part).resolve()
            ours = resolved.name.startswith("README") or resolved.parent.name == "docs"
            if resolved.suffix != ".md" or not ours:
                continue
            if not resolved.exists() or (anchor and anchor not in anchors(resolved)):
                wrong.append(f"{notebook.relative_to(ROOT)}: {target}")
    assert wrong == []


# ---------------------------------------------------------------- the front door, for a newcomer

README = ROOT / "README.md"
README_ZH = ROOT / "README.zh.md"
#: At most this many English words in README.md: a front door, the rest is in docs/.
README_WORDS = 900
#: A table row of either README longer than this no longer reads as one line.
ROW_CHARS = 120


def words(text):
    """The words a reader reads in Markdown ``text``: fenced code blocks and HTML comments dropped, a link
    counted by its text (not its target), table rules and other punctuation-only tokens not counted.

    >>> words("Run `make lab` [now](docs/x.md).\\n\\n```bash\\nmake lab\\n```\\n| a | b |\\n|---|---|\\n")
    6
    """
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    text = re.sub(r"\]\([^)\s]*\)", "]", text)
    return sum(1 for token in text.split() if re.search(r"\w", token))


def test_the_english_readme_has_at_most_900_words_outside_code():
    count = words(README.read_text(encoding="utf-8"))
    assert count <= README_WORDS, f"README.md has {count} words outside code blocks (at most {README_WORDS})"


def _cjk(char):
    """An ideograph or full-width punctuation mark, or the quotes Chinese prose uses (“” ‘’)."""
    return unicodedata.east_asian_width(char) in "WF" or char in "“”‘’"


def cjk_line_breaks(text):
    """The lines of ``text`` that end in a CJK character when the paragraph goes on, on the next line, with
    another: a browser shows that break as a space inside Chinese text. Code blocks and HTML comments are
    left out; a table row, heading, list item, quote or blank line starts a new block.

    >>> cjk_line_breaks("一行\\n接着\\n\\n- 列表，\\n  续行\\n| 表 |\\n| 格 |\\nEnglish\\n字")
    ['一行', '- 列表，']
    """
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    lines = text.splitlines()
    new_block = re.compile(r"\s*(?:$|[|#>]|[-*+] |\d+\. )")
    return [line for line, after in zip(lines, lines[1:], strict=False)
            if line.strip() and not line.lstrip().startswith(("|", "#")) and not new_block.match(after)
            and _cjk(line.rstrip()[-1]) and _cjk(after.lstrip()[0])]


@pytest.mark.parametrize("page", [README_ZH, *sorted((ROOT / "docs").glob("*.zh.md"))], ids=lambda p: p.name)
def test_no_chinese_page_breaks_a_line_between_two_cjk_characters(page):
    assert cjk_line_breaks(page.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("page", [README, README_ZH], ids=lambda p: p.name)
def test_every_table_row_of_the_readmes_fits_one_line(page):
    long = [line[:60] + "…" for line in page.read_text(encoding="utf-8").splitlines()
            if line.startswith("|") and len(line) > ROW_CHARS]
    assert long == [], f"rows over {ROW_CHARS} characters"


def _stated_minutes(notebook):
    """The time a notebook's header states: "**Time:** about N minutes" in English, "**用时：** 约 N 分钟" in
    Chinese."""
    import json

    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    header = "".join("".join(c["source"]) for c in cells[:3] if c["cell_type"] == "markdown")
    found = re.search(r"\*\*Time:\*\* about (\d+) minutes|\*\*用时：\*\* 约 (\d+) 分钟", header)
    return int(found[1] or found[2]) if found else None


@pytest.mark.parametrize(("page", "folder", "row_time", "total"), [
    (README, "notebooks", "| {} min |", "{} minutes in all"),
    (README_ZH, "notebooks/zh", "| 约 {} 分钟 |", "共 {} 分钟"),
], ids=["README.md", "README.zh.md"])
def test_the_notebook_map_gives_each_notebooks_stated_time_and_their_total(page, folder, row_time, total):
    text = page.read_text(encoding="utf-8")
    minutes = {}
    for notebook in sorted((ROOT / folder).glob("0*.ipynb")):
        minutes[notebook.name] = _stated_minutes(notebook)
        assert minutes[notebook.name], f"{notebook.name} states no time in its header"
        row = next(line for line in text.splitlines() if f"({folder}/{notebook.name})" in line)
        assert row_time.format(minutes[notebook.name]) in row, (notebook.name, minutes[notebook.name])
    assert total.format(sum(minutes.values())) in text, sum(minutes.values())


def test_the_variables_the_readmes_say_can_be_set_can_be_set():
    """A variable the README's table offers (`NAME` in its first column) is `?=` in the Makefile: set on the
    command line or in the environment, it wins."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    settable = set(re.findall(r"^([A-Z_]+)\s*\?=", makefile, flags=re.M))
    for page in (README, README_ZH):
        offered = set(re.findall(r"^\| `([A-Z_]+)` \|", page.read_text(encoding="utf-8"), flags=re.M))
        assert {"PYTHON", "VENV", "PORT"} <= offered <= settable, (page.name, offered, settable)
