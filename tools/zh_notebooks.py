"""Keep the Chinese edition (``notebooks/zh/``) in step with the English notebooks.

The Chinese notebooks mirror the English ones file for file and cell for cell (same cell ids, same
order). Their code cells are the English cells with the string literals (and comments) translated:
:func:`code_shape` reads a cell's syntax tree with every string literal masked, an f-string masked whole
but keeping its expressions (as a multiset: a translation may put them in another order), and a Chinese
code cell must have its English cell's shape (``use_language("zh")`` for ``use_language("en")`` is one
such string). ``sync`` keeps a Chinese code cell of that shape and copies the English cell (language line
switched) over one that has drifted, for its strings to be translated again. Their markdown cells are
translations: each records, in its metadata (``ragmath.translates``), a hash of the English source it
translates, and :func:`problems` reports a cell whose English source has changed since.

Usage::

    python tools/zh_notebooks.py status              # what is missing, untranslated or stale
    python tools/zh_notebooks.py sync                # copy code cells and the cell layout from English
    python tools/zh_notebooks.py export 03_mrr DIR   # DIR/03_mrr.en.md (+ .zh.md): one block per cell
    python tools/zh_notebooks.py import DIR/03_mrr.zh.md

A sheet holds markdown cells as blocks, each headed by its own line ``<!-- cell ID -->``; importing a
sheet sets those cells' Chinese text and records the hash of their current English source. Exit
status of ``status``: 0 when the edition is complete and current, 1 otherwise.
"""

from __future__ import annotations

import argparse
import ast
import copy
import hashlib
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
ZH_DIR = NOTEBOOK_DIR / "zh"
LANGUAGE_LINE = {"en": 'use_language("en")', "zh": 'use_language("zh")'}
_BLOCK = re.compile(r"^<!-- cell (\S+) -->\n", re.MULTILINE)


def english_notebooks(notebook_dir: Path = NOTEBOOK_DIR) -> list[Path]:
    """The English notebooks: ``notebooks/*.ipynb`` and ``notebooks/solutions/*.ipynb``, sorted."""
    found = [*notebook_dir.glob("*.ipynb"), *(notebook_dir / "solutions").glob("*.ipynb")]
    return sorted(p for p in found if ".ipynb_checkpoints" not in p.parts)


def mirror(english: Path, notebook_dir: Path = NOTEBOOK_DIR) -> Path:
    """The Chinese notebook that mirrors ``english`` (same relative path under ``zh/``)."""
    return notebook_dir / "zh" / english.relative_to(notebook_dir)


def source_hash(source: str) -> str:
    """The hash a translation records of the English source it translates (16 hex digits).

    >>> source_hash("a") == hashlib.sha256(b"a").hexdigest()[:16]
    True
    """
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:16]


def to_chinese_code(source: str) -> str:
    """An English code cell as the Chinese notebook has it: the language line switched to ``"zh"``."""
    return source.replace(LANGUAGE_LINE["en"], LANGUAGE_LINE["zh"])


class _MaskStrings(ast.NodeTransformer):
    """Every string literal becomes ``"?"``; an f-string becomes ``__fstring__(e1, e2, ...)`` with its
    expressions (conversion and format spec kept) sorted by their dump, so their order does not count."""

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        return ast.Constant("?") if isinstance(node.value, str) else node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        pieces = []
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                spec = "" if value.format_spec is None else ast.unparse(value.format_spec)
                pieces.append((ast.dump(self.visit(value.value)), value.conversion, spec))
        args = [ast.Tuple([ast.Constant(dump), ast.Constant(conversion), ast.Constant(spec)], ast.Load())
                for dump, conversion, spec in sorted(pieces)]
        return ast.Call(ast.Name("__fstring__", ast.Load()), args, [])


def code_shape(source: str) -> str:
    """A code cell's syntax tree with its string literals masked (f-strings whole, their expressions
    kept as a multiset), as text: two cells have the same shape when they differ only in the words of
    their strings, the order of an f-string's expressions, their comments and their layout. A cell
    that does not parse (an IPython ``%magic``) is its own text.

    >>> code_shape('print(f"{a} of {b}")') == code_shape('print(f"{b} 中的 {a}")  # 中文')
    True
    >>> code_shape('print(f"{a} of {b}")') == code_shape('print(f"{a} of {a}")')
    False
    >>> code_shape('x = "a"') == code_shape('x = 1')
    False
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    return ast.dump(_MaskStrings().visit(tree))


def _translates(cell) -> str | None:
    return cell.get("metadata", {}).get("ragmath", {}).get("translates")


def _has_prose(text: str) -> bool:
    """Whether a markdown cell has English words to translate (outside code spans and formulas)."""
    bare = re.sub(r"```.*?```|`[^`]*`|\$\$.*?\$\$|\$[^$]*\$|<[^>]+>|https?://\S+", " ", text, flags=re.S)
    return len(re.findall(r"[A-Za-z]{3,}", bare)) >= 3


def _has_chinese(text: str) -> bool:
    return re.search(r"[\u4e00-\u9fff]", text) is not None


def problems(english: Path, notebook_dir: Path = NOTEBOOK_DIR) -> list[str]:
    """What keeps the Chinese mirror of ``english`` from being a current, complete translation.

    One line per problem: a missing mirror, cells out of step with the English ones, a code cell that
    is not the English cell, a markdown cell with no translation, a translation of an older English
    source (stale), or one left in English. An empty list: the mirror is current.
    """
    target = mirror(english, notebook_dir)
    name = str(english.relative_to(notebook_dir))
    if not target.is_file():
        return [f"{name}: no Chinese notebook at {target.relative_to(notebook_dir)}; run sync"]
    en, zh = nbformat.read(english, as_version=4), nbformat.read(target, as_version=4)
    en_layout = [(c.get("id"), c.cell_type) for c in en.cells]
    zh_layout = [(c.get("id"), c.cell_type) for c in zh.cells]
    if en_layout != zh_layout:
        return [f"{name}: the cells (ids and types) differ from the English notebook's; run sync"]
    found = []
    for number, (en_cell, zh_cell) in enumerate(zip(en.cells, zh.cells, strict=True)):
        where = f"{name} cell {number} ({en_cell.get('id')})"
        if en_cell.cell_type == "code":
            if code_shape(zh_cell.source) != code_shape(en_cell.source):
                found.append(f"{where}: the code differs from the English cell (string literals aside); "
                             "run sync and translate its strings")
        elif en_cell.cell_type == "markdown":
            recorded = _translates(zh_cell)
            if recorded is None:
                found.append(f"{where}: not translated yet")
            elif recorded != source_hash(en_cell.source):
                found.append(f"{where}: stale, the English cell changed since it was translated")
            elif _has_prose(en_cell.source) and (zh_cell.source == en_cell.source
                                                 or not _has_chinese(zh_cell.source)):
                found.append(f"{where}: still in English")
    if LANGUAGE_LINE["zh"] not in "".join(c.source for c in zh.cells if c.cell_type == "code"):
        found.append(f"{name}: no code cell chooses the language ({LANGUAGE_LINE['en']} in the English)")
    return found


def sync(english: Path, notebook_dir: Path = NOTEBOOK_DIR) -> Path:
    """Write the Chinese mirror of ``english``: English layout and code, the existing translations kept.

    A Chinese code cell of the English cell's :func:`code_shape` is kept; any other code cell becomes
    the English cell with its language line switched (its strings to be translated again). A markdown
    cell with no Chinese cell of the same id yet gets the English text and no hash (so
    :func:`problems` reports it as not translated). Outputs are not kept (the notebooks are committed
    without them). Returns the path written.
    """
    target = mirror(english, notebook_dir)
    en = nbformat.read(english, as_version=4)
    existing = {}
    if target.is_file():
        existing = {c.get("id"): c for c in nbformat.read(target, as_version=4).cells}
    out = copy.deepcopy(en)
    for cell in out.cells:
        if cell.cell_type == "code":
            old = existing.get(cell.get("id"))
            same_shape = old is not None and code_shape(old.source) == code_shape(cell.source)
            if same_shape and old.cell_type == "code":
                cell.source = old.source
            else:
                cell.source = to_chinese_code(cell.source)
            cell.outputs, cell.execution_count = [], None
        elif cell.cell_type == "markdown" and cell.get("id") in existing:
            old = existing[cell.get("id")]
            if old.cell_type == "markdown" and _translates(old) is not None:
                cell.source = old.source
                cell.metadata = copy.deepcopy(old.metadata)
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(out, target)
    return target


def _find(name: str, notebook_dir: Path = NOTEBOOK_DIR) -> Path:
    matches = [p for p in english_notebooks(notebook_dir) if p.stem == name or p.name == name]
    if len(matches) != 1:
        raise SystemExit(f"no single English notebook named {name!r}; names: "
                         + ", ".join(p.stem for p in english_notebooks(notebook_dir)))
    return matches[0]


def export(english: Path, out_dir: Path, notebook_dir: Path = NOTEBOOK_DIR) -> list[Path]:
    """Write the markdown cells of ``english`` (and of its mirror, if any) as sheets in ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    sources = [("en", english), ("zh", mirror(english, notebook_dir))]
    for lang, path in sources:
        if not path.is_file():
            continue
        nb = nbformat.read(path, as_version=4)
        blocks = [f"<!-- cell {c.get('id')} -->\n{c.source.rstrip()}\n"
                  for c in nb.cells if c.cell_type == "markdown"]
        sheet = out_dir / f"{english.stem}.{lang}.md"
        sheet.write_text("\n".join(blocks), encoding="utf-8")
        written.append(sheet)
    return written


def read_sheet(text: str) -> dict[str, str]:
    """cell id -> text of a sheet (blocks headed ``<!-- cell ID -->``; the blank line between blocks
    is not part of a cell).

    >>> read_sheet("<!-- cell a1 -->\\n# 一\\n\\n<!-- cell b2 -->\\n二\\n")
    {'a1': '# 一', 'b2': '二'}
    """
    parts = _BLOCK.split(text)
    if parts[0].strip():
        raise ValueError("a sheet starts with a line '<!-- cell ID -->'; text was found before the first")
    cells = {}
    for cell_id, body in zip(parts[1::2], parts[2::2], strict=True):
        if cell_id in cells:
            raise ValueError(f"cell {cell_id} appears twice in the sheet")
        cells[cell_id] = body.strip("\n")
    return cells


def import_sheet(sheet: Path, notebook_dir: Path = NOTEBOOK_DIR) -> list[str]:
    """Set the Chinese text of the cells in ``sheet`` (``NAME.zh.md``) and record their English hash.

    Raises ``ValueError`` for a cell id that is not a markdown cell of the English notebook. Returns
    the ids set.
    """
    name = sheet.name.removesuffix(".zh.md")
    if name == sheet.name:
        raise ValueError(f"{sheet}: a Chinese sheet is named NAME.zh.md")
    english = _find(name, notebook_dir)
    target = mirror(english, notebook_dir)
    if not target.is_file():
        sync(english, notebook_dir)
    en_cells = {c.get("id"): c for c in nbformat.read(english, as_version=4).cells}
    zh = nbformat.read(target, as_version=4)
    texts = read_sheet(sheet.read_text(encoding="utf-8"))
    for cell_id in texts:
        if cell_id not in en_cells or en_cells[cell_id].cell_type != "markdown":
            raise ValueError(f"{sheet.name}: {cell_id} is not a markdown cell of {english.name}")
    for cell in zh.cells:
        if cell.get("id") in texts:
            cell.source = texts[cell.get("id")]
            english_source = en_cells[cell.get("id")].source
            cell.metadata.setdefault("ragmath", {})["translates"] = source_hash(english_source)
    nbformat.write(zh, target)
    return list(texts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("status", help="list what is missing, untranslated or stale")
    sync_parser = sub.add_parser("sync", help="copy the code and the cell layout from the English notebooks")
    sync_parser.add_argument("names", nargs="*", help="notebook names (default: all)")
    export_parser = sub.add_parser("export", help="write a notebook's markdown cells as sheets")
    export_parser.add_argument("name")
    export_parser.add_argument("out_dir", type=Path)
    import_parser = sub.add_parser("import", help="set translations from a NAME.zh.md sheet")
    import_parser.add_argument("sheet", type=Path)
    args = parser.parse_args(argv)
    if args.command == "status":
        found = [line for path in english_notebooks() for line in problems(path)]
        print("\n".join(found) if found else "the Chinese edition is complete and current")
        return 1 if found else 0
    if args.command == "sync":
        paths = [_find(n) for n in args.names] if args.names else english_notebooks()
        for path in paths:
            print(sync(path).relative_to(ROOT))
        return 0
    if args.command == "export":
        for sheet in export(_find(args.name), args.out_dir):
            print(sheet)
        return 0
    ids = import_sheet(args.sheet)
    print(f"{args.sheet.name}: {len(ids)} cells set")
    return 0


if __name__ == "__main__":
    sys.exit(main())
