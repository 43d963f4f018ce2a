"""Execute every notebook and write an HTML copy of each under ``build/html/`` (``make html``).

Usage::

    python tools/build_html.py                 # all notebooks and solutions
    python tools/build_html.py --only 02 04    # notebooks whose file name contains "02" or "04"
    python tools/build_html.py --out /tmp/html

Each notebook runs top to bottom in a fresh ``python3`` kernel with its own directory as the working
directory, exactly as ``tests/test_notebooks.py`` runs it. The committed notebooks are not modified.
Exit status: 0 when every notebook ran, 1 when any raised (its HTML is still written, error included).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
DEFAULT_OUT = ROOT / "build" / "html"
KERNEL_NAME = "python3"
TIMEOUT_S = 600


def notebook_paths(notebook_dir: Path = NOTEBOOK_DIR) -> list[Path]:
    """All notebooks under ``notebook_dir`` and its ``solutions/`` folder, sorted by path.

    >>> [p.name for p in notebook_paths(Path("/nonexistent"))]
    []
    """
    found = [*notebook_dir.glob("*.ipynb"), *(notebook_dir / "solutions").glob("*.ipynb")]
    return sorted(p for p in found if ".ipynb_checkpoints" not in p.parts)


def execute_notebook(
    path: Path, *, timeout: int = TIMEOUT_S, allow_errors: bool = False
) -> nbformat.NotebookNode:
    """Run the notebook at ``path`` in a fresh kernel (cwd = its folder) and return the executed copy.

    Raises ``nbclient.exceptions.CellExecutionError`` on the first failing cell unless
    ``allow_errors`` is true; raises ``FileNotFoundError`` if ``path`` does not exist.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"path={str(path)!r}: no such notebook; pass an existing .ipynb file")
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name=KERNEL_NAME,
        allow_errors=allow_errors,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    return nb


def to_html(nb: nbformat.NotebookNode) -> str:
    """Render an (executed) notebook as a standalone HTML page."""
    from nbconvert import HTMLExporter  # imported here: slow to import, and only this step needs it

    body, _ = HTMLExporter(template_name="lab").from_notebook_node(nb)
    return body


def build(paths: list[Path], out_dir: Path, notebook_dir: Path = NOTEBOOK_DIR) -> list[Path]:
    """Execute each notebook in ``paths`` and write ``out_dir/<relative path>.html``; return failures."""
    failures: list[Path] = []
    for path in paths:
        start = time.perf_counter()
        try:
            nb = execute_notebook(path)
            status = "ok"
        except CellExecutionError:
            nb = execute_notebook(path, allow_errors=True)
            failures.append(path)
            status = "ERROR"
        target = out_dir / path.relative_to(notebook_dir).with_suffix(".html")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(to_html(nb), encoding="utf-8")
        took = time.perf_counter() - start
        print(f"{status:<6}{took:6.1f} s  {target.relative_to(out_dir)}")
    return failures


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (build/html)")
    parser.add_argument("--only", nargs="*", default=None,
                        help="only notebooks whose file name contains one of these strings")
    args = parser.parse_args(argv)
    paths = notebook_paths()
    if args.only:
        paths = [p for p in paths if any(s in p.name for s in args.only)]
    if not paths:
        print(f"no notebooks matched under {NOTEBOOK_DIR}", file=sys.stderr)
        return 1
    failures = build(paths, args.out)
    print(f"{len(paths) - len(failures)} of {len(paths)} notebooks written to {args.out}")
    for path in failures:
        print(f"failed: {path.relative_to(NOTEBOOK_DIR)}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
