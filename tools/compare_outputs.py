"""Compare two sets of executed notebooks cell by cell: did a change of form move any number?

Execute the notebooks before a change and after it (``python tests/notebook_runner.py DIR NOTEBOOK ...``
writes executed copies), then::

    python tools/compare_outputs.py BEFORE_DIR AFTER_DIR [--skip CELL_ID ...]

Notebooks are matched by their title and language, cells by their id; a cell only the after-run has is
new and not compared. Each code cell's outputs are compared as text: streams (consecutive messages of
one stream joined, as nbconvert's ``CoalesceStreamsPreprocessor`` joins them), ``text/plain``,
``text/html``, errors, and whether a chart is there. What differs from run to run by design is masked:
durations (``12.3 ms``), hex digests of 12 or more digits, memory addresses, pandas Styler's random table
ids (``T_1a2b3``) and ISO time stamps; ``--skip`` names cells whose whole output is a timing. Exit 0 when
nothing else differs, 1 otherwise (each difference printed).
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from pathlib import Path

import nbformat
from nbconvert.preprocessors import CoalesceStreamsPreprocessor

VARYING = re.compile(r"\d+(\.\d+)?\s*(ms|s)\b|[0-9a-f]{12,64}|0x[0-9a-f]+|T_[0-9a-f]{5}|"
                     r"\d{4}-\d\d-\d\dT[0-9:+]+")


def cell_texts(nb: nbformat.NotebookNode) -> dict[str, list[tuple[str, str]]]:
    """Each code cell's outputs as (kind, text) pairs, by cell id, with run-to-run noise masked."""
    nb, _ = CoalesceStreamsPreprocessor().preprocess(nb, {})
    texts = {}
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        parts = []
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream":
                parts.append(("stream", out.get("text", "")))
            elif out.get("output_type") == "error":
                parts.append(("error", out.get("ename", "")))
            else:
                data = out.get("data", {})
                parts += [(kind, data[kind]) for kind in ("text/plain", "text/html") if kind in data]
                parts += [("image", "png")] if "image/png" in data else []
        texts[cell.get("id", "")] = [(kind, VARYING.sub("#", "".join(text))) for kind, text in parts]
    return texts


def notebooks(folder: Path) -> dict[tuple[str, str], nbformat.NotebookNode]:
    """The executed notebooks of a folder, by (title line, language)."""
    found = {}
    for path in sorted(folder.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        code = [c.source for c in nb.cells if c.cell_type == "code"]
        language = "zh" if any('use_language("zh")' in source for source in code) else "en"
        found[nb.cells[0].source.split("\n")[0], language] = nb
    return found


def differences(before: Path, after: Path, skip: set[str]) -> tuple[int, list[str]]:
    """How many cells were compared, and a report of each one that differs."""
    old, new = notebooks(before), notebooks(after)
    compared, report = 0, []
    for key, nb in old.items():
        if key not in new:
            report.append(f"{key}: not in {after}")
            continue
        was, now = cell_texts(nb), cell_texts(new[key])
        for cell_id, parts in was.items():
            if cell_id in skip:
                continue
            if cell_id not in now:
                report.append(f"{key[0]} ({key[1]}), cell {cell_id}: gone")
                continue
            compared += 1
            if parts != now[cell_id]:
                lines = difflib.unified_diff([f"{k}: {t}" for k, t in parts],
                                             [f"{k}: {t}" for k, t in now[cell_id]], lineterm="", n=0)
                report.append(f"{key[0]} ({key[1]}), cell {cell_id}:\n" + "\n".join(list(lines)[:12]))
    return compared, report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--skip", nargs="*", default=[], help="ids of cells whose output is a timing")
    args = parser.parse_args(argv)
    compared, report = differences(args.before, args.after, set(args.skip))
    print("\n".join(report))
    print(f"{compared} cells compared, {len(report)} differ")
    return 1 if report else 0


if __name__ == "__main__":
    sys.exit(main())
