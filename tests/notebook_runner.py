"""Execute notebooks one after another, writing each executed copy (or its error) into a folder.

The test suite starts this in a child process at the beginning of a run (``tests/conftest.py``), so
the notebooks run on one core while the other tests run on the other; each notebook is executed once
per run and every test that reads it gets a copy.

Usage: ``python tests/notebook_runner.py OUT_DIR NOTEBOOK [NOTEBOOK ...]``. For each notebook it writes
``OUT_DIR/<key>.ipynb`` when it ran, or ``OUT_DIR/<key>.error`` with the error's text, where ``<key>`` is
:func:`result_key` of the notebook's path; each file appears whole (written aside, then renamed).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import traceback
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent


def result_key(path: Path) -> str:
    """The file stem under which a notebook's result is written (its resolved path, hashed)."""
    return hashlib.sha256(str(Path(path).resolve()).encode("utf-8")).hexdigest()[:16]


def _write_whole(target: Path, write) -> None:
    aside = target.with_name(target.name + ".partial")
    write(aside)
    os.replace(aside, target)


def main(argv: list[str]) -> int:
    spec = importlib.util.spec_from_file_location("build_html", ROOT / "tools" / "build_html.py")
    build_html = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_html)
    out, notebooks = Path(argv[0]), [Path(p) for p in argv[1:]]
    for path in notebooks:
        key = result_key(path)
        try:
            nb = build_html.execute_notebook(path)
        except Exception:  # noqa: BLE001 - written for the test that reads this notebook
            text = traceback.format_exc()
            _write_whole(out / f"{key}.error", lambda p, text=text: p.write_text(text, encoding="utf-8"))
        else:
            _write_whole(out / f"{key}.ipynb", lambda p, nb=nb: nbformat.write(nb, p))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
