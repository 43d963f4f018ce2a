"""The Chinese edition (notebooks/zh/) mirrors the English notebooks, and the catalogue speaks both.

The notebooks' execution (the Chinese ones run top to bottom like the English ones) is in
tests/test_notebooks.py; this file checks the edition's shape without running anything.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import shutil
from pathlib import Path

import nbformat
import pytest

from ragmath.lab import messages
from ragmath.lab.messages import CATALOGUE, LANGUAGES, fields_of, message, use_language

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("zh_notebooks", ROOT / "tools" / "zh_notebooks.py")
zh_notebooks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(zh_notebooks)

ENGLISH = zh_notebooks.english_notebooks()


# ------------------------------------------------------------------------------------ the notebooks
def test_every_english_notebook_has_a_chinese_mirror_and_no_other():
    mirrored = {zh_notebooks.mirror(p) for p in ENGLISH}
    zh = ROOT / "notebooks" / "zh"
    found = {*zh.glob("*.ipynb"), *(zh / "solutions").glob("*.ipynb")}
    assert len(ENGLISH) >= 19
    assert found == mirrored


@pytest.mark.parametrize("english", ENGLISH, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_chinese_notebook_is_current(english):
    """Same cells, code of the English syntax tree (strings masked), every markdown cell translating today's
    English."""
    assert zh_notebooks.problems(english) == []


@pytest.mark.parametrize("english", ENGLISH, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_english_notebook_chooses_english_once(english):
    code = [c.source for c in nbformat.read(english, as_version=4).cells if c.cell_type == "code"]
    assert sum(s.count(zh_notebooks.LANGUAGE_LINE["en"]) for s in code) == 1
    assert "use_language(" in code[0], "the language is chosen in the first code cell"


def _copy_pair(tmp_path: Path, name: str) -> Path:
    """A folder with one English notebook and a complete stand-in translation of it ("译文 <id>")."""
    notebooks = tmp_path / "notebooks"
    notebooks.mkdir()
    english = shutil.copy(next(p for p in ENGLISH if p.name == name), notebooks / name)
    zh_notebooks.sync(Path(english), notebooks)
    cells = [c for c in nbformat.read(english, as_version=4).cells if c.cell_type == "markdown"]
    sheet = tmp_path / f"{Path(name).stem}.zh.md"
    sheet.write_text("\n".join(f"<!-- cell {c.id} -->\n译文 {c.id}\n" for c in cells), encoding="utf-8")
    zh_notebooks.import_sheet(sheet, notebooks)
    return notebooks


def test_editing_an_english_markdown_cell_alone_makes_its_translation_stale(tmp_path):
    notebooks = _copy_pair(tmp_path, "03_mrr.ipynb")
    english = notebooks / "03_mrr.ipynb"
    assert zh_notebooks.problems(english, notebooks) == []
    nb = nbformat.read(english, as_version=4)
    cell = next(c for c in nb.cells if c.cell_type == "markdown" and len(c.source) > 200)
    cell.source += "\n\nOne more sentence in English."
    nbformat.write(nb, english)
    found = zh_notebooks.problems(english, notebooks)
    assert found == [f"03_mrr.ipynb cell {nb.cells.index(cell)} ({cell.id}): stale, the English cell changed "
                     "since it was translated"]


def test_editing_an_english_code_cell_alone_is_caught_and_sync_repairs_it(tmp_path):
    notebooks = _copy_pair(tmp_path, "03_mrr.ipynb")
    english = notebooks / "03_mrr.ipynb"
    nb = nbformat.read(english, as_version=4)
    cell = [c for c in nb.cells if c.cell_type == "code"][2]
    cell.source += "\nprint('changed')"
    nbformat.write(nb, english)
    assert any("the code differs" in line for line in zh_notebooks.problems(english, notebooks))
    zh_notebooks.sync(english, notebooks)
    assert zh_notebooks.problems(english, notebooks) == []


def test_a_markdown_cell_left_in_english_is_reported(tmp_path):
    notebooks = _copy_pair(tmp_path, "03_mrr.ipynb")
    english, chinese = notebooks / "03_mrr.ipynb", notebooks / "zh" / "03_mrr.ipynb"
    en, zh = nbformat.read(english, as_version=4), nbformat.read(chinese, as_version=4)
    number = next(i for i, c in enumerate(en.cells)
                  if c.cell_type == "markdown" and zh_notebooks._has_prose(c.source))
    zh.cells[number].source = en.cells[number].source
    nbformat.write(zh, chinese)
    assert zh_notebooks.problems(english, notebooks) == [
        f"03_mrr.ipynb cell {number} ({en.cells[number].id}): still in English"]


def test_a_sheet_round_trips_through_export_and_import(tmp_path):
    notebooks = _copy_pair(tmp_path, "03_mrr.ipynb")
    english = notebooks / "03_mrr.ipynb"
    sheets = zh_notebooks.export(english, tmp_path / "sheets", notebooks)
    chinese_sheet = next(s for s in sheets if s.name.endswith(".zh.md"))
    before = nbformat.read(notebooks / "zh" / "03_mrr.ipynb", as_version=4)
    zh_notebooks.import_sheet(chinese_sheet, notebooks)
    after = nbformat.read(notebooks / "zh" / "03_mrr.ipynb", as_version=4)
    assert [c.source for c in after.cells] == [c.source for c in before.cells]


def test_a_sheet_with_an_unknown_cell_is_refused(tmp_path):
    notebooks = _copy_pair(tmp_path, "03_mrr.ipynb")
    sheet = tmp_path / "03_mrr.zh.md"
    sheet.write_text("<!-- cell nope -->\n文字\n", encoding="utf-8")
    with pytest.raises(ValueError, match="nope is not a markdown cell of 03_mrr.ipynb"):
        zh_notebooks.import_sheet(sheet, notebooks)


# ------------------------------------------------------------------------------------ the catalogue
def test_every_message_has_every_language():
    missing = [(key, lang) for key, texts in CATALOGUE.items() for lang in LANGUAGES
               if not str(texts.get(lang, "")).strip()]
    assert missing == []


def test_every_message_fills_the_same_fields_in_every_language():
    differ = {key: {lang: sorted(fields_of(texts[lang])) for lang in LANGUAGES}
              for key, texts in CATALOGUE.items()
              if len({fields_of(texts[lang]) for lang in LANGUAGES}) > 1}
    assert differ == {}


def test_chinese_messages_are_chinese():
    """A Chinese text that is the English one, with letters to translate, was never translated."""
    same = [key for key, texts in CATALOGUE.items()
            if texts["zh"] == texts["en"]
            and re.search(r"[A-Za-z]{3,}", re.sub(r"\{[^}]*\}", "", texts["en"]))]
    assert same == []


def _literal_keys() -> dict[str, str]:
    """Every literal key passed to ``message(...)`` in the workbook's modules: key -> file."""
    found = {}
    for path in (ROOT / "ragmath" / "lab").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None))
                    == "message" and node.args and isinstance(node.args[0], ast.Constant)):
                found[node.args[0].value] = str(path.relative_to(ROOT))
    return found


def test_every_key_the_code_asks_for_is_in_the_catalogue():
    unknown = {key: where for key, where in _literal_keys().items() if key not in CATALOGUE}
    assert unknown == {}


def test_an_unknown_key_names_itself():
    with pytest.raises(KeyError, match="no message 'nope.nothing'"):
        message("nope.nothing")


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="language must be one of en, zh, got 'fr'"):
        use_language("fr")


def test_the_core_never_imports_the_catalogue():
    core = [p for p in (ROOT / "ragmath").rglob("*.py") if "lab" not in p.relative_to(ROOT / "ragmath").parts]
    assert core and not [str(p) for p in core if "messages" in p.read_text(encoding="utf-8")
                         and "ragmath.lab.messages" in p.read_text(encoding="utf-8")]
    assert messages.__name__ == "ragmath.lab.messages"
