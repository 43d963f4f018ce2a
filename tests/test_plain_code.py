"""The notebooks' code is plain Python a student can copy, and the Chinese code is the English code.

A code cell prints its own words (literals and f-strings in its notebook's language): no cell asks the
message catalogue (``message(...)``) for them, and no cell has a sentence generated for it. A Chinese
code cell is its English cell with the string literals (and comments) translated: the two have the same
syntax tree once every string literal is masked, an f-string masked whole but keeping its expressions
(compared as a multiset, since a translation may put them in another order). Nothing is executed here.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("zh_notebooks", ROOT / "tools" / "zh_notebooks.py")
zh_notebooks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(zh_notebooks)

ENGLISH = zh_notebooks.english_notebooks()
EVERY = sorted([*ENGLISH, *(zh_notebooks.mirror(p) for p in ENGLISH)])


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT / "notebooks"))


def _code_cells(path: Path) -> list:
    return [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]


def catalogue_calls(source: str) -> list[str]:
    """The calls of a cell that ask the catalogue or a reading generator for words: ``message(...)``,
    ``say(...)``, anything imported from ``ragmath.lab.readings`` or ``ragmath.lab.messages``'s
    ``message``, as ``line: text``."""
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "ragmath.lab.readings":
            found.append(f"{node.lineno}: import from ragmath.lab.readings")
        elif isinstance(node, ast.ImportFrom) and node.module == "ragmath.lab.messages":
            found += [f"{node.lineno}: imports message" for a in node.names if a.name == "message"]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and (
                node.func.id in ("message", "say", "as_markdown") or node.func.id.startswith("read_")
                and node.func.id not in ("read_run", "read_qrels", "read_labels")):
            found.append(f"{node.lineno}: {ast.unparse(node)[:80]}")
    return found


def test_the_finder_finds_what_it_looks_for():
    source = ('from ragmath.lab.messages import message, use_language\n'
              'print(message("cells.01.x", n=1))\nsay(read_grid(edges))\nrun = read_run("a.trec")\n')
    assert sorted(catalogue_calls(source)) == ["1: imports message", "2: message('cells.01.x', n=1)",
                                               "3: read_grid(edges)", "3: say(read_grid(edges))"]


@pytest.mark.parametrize("path", EVERY, ids=_name)
def test_no_code_cell_asks_the_catalogue_or_a_reading_generator_for_its_words(path):
    found = [f"cell {cell.get('id')} line {line}" for cell in _code_cells(path)
             for line in catalogue_calls(cell.source)]
    assert found == []


# ------------------------------------------------------------------------ the syntax-tree comparison
@pytest.mark.parametrize(("english", "chinese"), [
    ('print(f"{n} of {total} questions")', 'print(f"{total} 个问题中的 {n} 个")'),
    ('ax.set_title("three levels")  # chart', 'ax.set_title("三种口径")  # 图'),
    ('x = {"a": 1,\n     "b": 2}', 'x = {"甲": 1, "乙": 2}'),
    ('print(f"{x:.3f}")', 'print(f"值：{x:.3f}")'),
])
def test_a_translation_of_strings_and_comments_keeps_the_shape(english, chinese):
    assert zh_notebooks.code_shape(english) == zh_notebooks.code_shape(chinese)


@pytest.mark.parametrize(("english", "chinese"), [
    ('print(f"{n} of {total}")', 'print(f"{n} 中的 {n}")'),  # another expression
    ('print(f"{x:.3f}")', 'print(f"{x:.2f}")'),  # another format
    ('print("a")', 'print("a")\nprint("b")'),  # a statement more
    ('x = "1"', "x = 1"),  # a string became a number
    ('print(f"{n}")', 'print("n")'),  # an f-string became a literal
    ('f(a, b)', 'f(b, a)'),  # arguments in another order
])
def test_a_change_beyond_the_strings_changes_the_shape(english, chinese):
    assert zh_notebooks.code_shape(english) != zh_notebooks.code_shape(chinese)


@pytest.mark.parametrize("english", ENGLISH, ids=_name)
def test_chinese_code_cells_have_the_english_syntax_tree_with_strings_masked(english):
    """Replaces the old rule (the Chinese code equal to the English but for the language line)."""
    en, zh = _code_cells(english), _code_cells(zh_notebooks.mirror(english))
    assert [c.get("id") for c in zh] == [c.get("id") for c in en]
    differ = [c.get("id") for c, z in zip(en, zh, strict=True)
              if zh_notebooks.code_shape(c.source) != zh_notebooks.code_shape(z.source)]
    assert differ == []


# ------------------------------------------------------------------------ no rename that renames nothing
def identity_mappings(source: str) -> list[str]:
    """The dict literals of a cell that map every key to itself, as ``line: text``: at least one key, and
    every key a constant equal to its value (``{"meaning": "meaning"}``), a rename that renames nothing."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict) and node.keys and all(
                isinstance(key, ast.Constant) and isinstance(value, ast.Constant)
                and type(key.value) is type(value.value) and key.value == value.value
                for key, value in zip(node.keys, node.values, strict=True)):
            found.append(f"{node.lineno}: {ast.unparse(node)[:80]}")
    return found


def test_the_identity_finder_finds_what_it_looks_for():
    source = ('t.rename(columns={"meaning": "meaning", "in the example": "in the example"})\n'
              'u = {"a": "a", "b": "B"}\nv = {}\nw = {**u}\nx = {"n": n}\ny = {1: True}\n'
              'z = f({"k": {"K": "K"}})\n')
    assert identity_mappings(source) == [
        "1: {'meaning': 'meaning', 'in the example': 'in the example'}", "7: {'K': 'K'}"]


@pytest.mark.parametrize("path", ENGLISH, ids=_name)
def test_no_english_code_cell_maps_names_to_themselves(path):
    """A table is built with the names it shows (in Chinese, the Chinese names), not renamed to itself
    so that the Chinese cell, which renames, keeps the English cell's syntax tree."""
    found = [f"cell {cell.get('id')} line {line}" for cell in _code_cells(path)
             for line in identity_mappings(cell.source)]
    assert found == []
