"""Execute every notebook and write an HTML copy of each under ``build/html/`` (``make html``).

Usage::

    python tools/build_html.py                 # all notebooks and solutions, English and Chinese
    python tools/build_html.py --only 02 04    # notebooks whose file name contains "02" or "04"
    python tools/build_html.py --edition zh    # the Chinese edition only (en: the English only)
    python tools/build_html.py --out /tmp/html

Each notebook runs top to bottom in a fresh ``python3`` kernel with its own directory as the working
directory, exactly as ``tests/test_notebooks.py`` runs it. The committed notebooks are not modified.
Exit status: 0 when every notebook ran, 1 when any raised (its HTML is still written, error included).

The pages work offline: nothing is fetched from the network when they are opened.

- Formulas: MathJax 2.7 from the installed package ``jupyter-server-mathjax`` is copied to
  ``<out>/_static/mathjax/`` and the pages load it from there (relative URL), not from a CDN, with
  the STIX-Web fonts that package ships.
- Widgets (the RRF k explorer): the executed notebook keeps its widget state, and each widget
  output is written as a static HTML snapshot of that state (the table and the chart as they were
  when the notebook ran, the controls shown but inactive), with a line saying it is a snapshot. No
  widget-manager script is loaded, so nothing comes from a CDN. The explorer's snapshot links the
  live page: the static RRF k explorer (``tools/build_explorer.py``) is built into ``<out>/explorer/``.
- No require.js: nbconvert's template asks for it for widget managers, which these pages do not load,
  so its script tag is left out.
"""

from __future__ import annotations

import argparse
import base64
import html
import importlib.util
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
DEFAULT_OUT = ROOT / "build" / "html"
KERNEL_NAME = "python3"
TIMEOUT_S = 600
STATIC = "_static"
EXPLORER = "explorer"  # the static k explorer's folder under the output folder
# nbconvert's lab template always writes a require.js script tag; this address marks it for removal.
NO_REQUIRE_JS = "require-js-not-used.js"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
# jupyter-server-mathjax ships MathJax's STIX-Web fonts only (not its default TeX fonts): say so.
MATHJAX_FONTS = """<script type="text/x-mathjax-config">
MathJax.Hub.Config({
  "HTML-CSS": {availableFonts: [], preferredFont: null, webFont: "STIX-Web", imageFont: null},
  SVG: {font: "STIX-Web"}
});
</script>
"""


def notebook_paths(notebook_dir: Path = NOTEBOOK_DIR) -> list[Path]:
    """All notebooks under ``notebook_dir`` and its ``solutions/`` folder, then the Chinese edition's
    (``zh/`` and ``zh/solutions/``), each group sorted by path.

    >>> [p.name for p in notebook_paths(Path("/nonexistent"))]
    []
    """
    def under(folder: Path) -> list[Path]:
        found = [*folder.glob("*.ipynb"), *(folder / "solutions").glob("*.ipynb")]
        return sorted(p for p in found if ".ipynb_checkpoints" not in p.parts)

    return under(notebook_dir) + under(notebook_dir / "zh")


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
        store_widget_state=True,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    return nb


def copy_static(out_dir: Path) -> Path:
    """Copy MathJax from its installed package to ``out_dir/_static``; return that folder.

    Raises ``RuntimeError`` naming the package to install when one is missing.
    """
    try:
        import jupyter_server_mathjax
    except ImportError as exc:
        raise RuntimeError(
            "make html needs the package jupyter-server-mathjax (MathJax for offline pages): "
            "pip install -e '.[test]'"
        ) from exc
    static = out_dir / STATIC
    mathjax = Path(jupyter_server_mathjax.__file__).parent / "static"
    shutil.copytree(mathjax, static / "mathjax", dirs_exist_ok=True)
    return static


def build_explorer_page(out_dir: Path) -> Path:
    """Build the static RRF k explorer (build_explorer.py) into ``out_dir/explorer/``; return its index."""
    source = Path(__file__).with_name("build_explorer.py")
    spec = importlib.util.spec_from_file_location("build_explorer", source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.build(out_dir / EXPLORER)


def _widget_states(nb: nbformat.NotebookNode) -> dict[str, dict[str, Any]]:
    """model_id -> saved widget model (``model_name``, ``state``, ``buffers``) of an executed notebook."""
    saved = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {})
    return dict(saved.get("state", {}))


def _model_id(reference: Any) -> str | None:
    """'IPY_MODEL_abc' -> 'abc' (how a widget refers to its children and layout)."""
    if isinstance(reference, str) and reference.startswith("IPY_MODEL_"):
        return reference[len("IPY_MODEL_"):]
    return None


def widget_snapshot(model_id: str, states: dict[str, dict[str, Any]]) -> str:
    """Static HTML for a saved widget and its children, as they were when the notebook ran.

    Boxes become flex rows or columns, HTML widgets their HTML, an Image an ``<img>`` with its
    bytes inline, sliders, text boxes and drop-downs disabled controls showing their value.
    Widgets laid out as hidden are left out; an unknown widget becomes a short note.

    >>> states = {"a": {"model_name": "HTMLModel", "state": {"value": "<b>hi</b>"}}}
    >>> widget_snapshot("a", states)
    '<div class="snapshot-html"><b>hi</b></div>'
    """
    model = states.get(model_id)
    if model is None:
        return ""
    name, state = model.get("model_name", ""), model.get("state", {})
    layout = states.get(_model_id(state.get("layout")) or "", {}).get("state", {})
    if layout.get("visibility") == "hidden" or layout.get("display") == "none":
        return ""
    label = html.escape(str(state.get("description", "")))
    label_html = f"<label style='min-width:6em;display:inline-block'>{label}</label> " if label else ""
    if name in ("VBoxModel", "HBoxModel", "BoxModel"):
        direction = "row" if name == "HBoxModel" else "column"
        children = "".join(widget_snapshot(_model_id(c) or "", states) for c in state.get("children", []))
        return f'<div style="display:flex;flex-direction:{direction};gap:4px">{children}</div>'
    if name in ("HTMLModel", "HTMLMathModel", "LabelModel"):
        return f'<div class="snapshot-html">{label_html}{state.get("value", "")}</div>'
    if name == "ImageModel":
        data = ""
        for buffer in model.get("buffers", []):
            if buffer.get("path") == ["value"]:
                data = buffer.get("data", "")
        if not data and isinstance(state.get("value"), bytes):
            data = base64.b64encode(state["value"]).decode("ascii")
        width = layout.get("width") or ""
        style = f' style="width:{html.escape(width)};max-width:100%"' if width else ' style="max-width:100%"'
        kind = html.escape(str(state.get("format", "png")))
        return f'<img class="snapshot-image" alt="chart" src="data:image/{kind};base64,{data}"{style}>'
    if name in ("IntSliderModel", "FloatSliderModel"):
        value = html.escape(str(state.get("value", "")))
        low, high = html.escape(str(state.get("min", ""))), html.escape(str(state.get("max", "")))
        return (f"<div>{label_html}<input type='range' disabled min='{low}' max='{high}' value='{value}'>"
                f" <b>{value}</b></div>")
    if name in ("TextModel", "TextareaModel"):
        value = html.escape(str(state.get("value", "")), quote=True)
        return f"<div>{label_html}<input type='text' readonly value=\"{value}\" style='width:32em'></div>"
    if name == "DropdownModel":
        labels = state.get("_options_labels", [])
        index = state.get("index")
        shown = labels[index] if isinstance(index, int) and 0 <= index < len(labels) else ""
        return f"<div>{label_html}<select disabled><option>{html.escape(str(shown))}</option></select></div>"
    return f"<div><i>[{html.escape(name)}: live in JupyterLab]</i></div>"


def snapshot_widgets(nb: nbformat.NotebookNode, explorer_url: str | None = None) -> nbformat.NotebookNode:
    """A copy of an executed notebook whose widget outputs are static HTML snapshots (see module doc).

    The widget state is removed from the copy's metadata, so the page template loads no widget
    script. The note above a snapshot of the RRF k explorer (its ``rrf-table``) links ``explorer_url``,
    the live static page, when given. The notebook passed in is not changed.
    """
    import copy

    states = _widget_states(nb)
    result = copy.deepcopy(nb)
    result.metadata.pop("widgets", None)
    for cell in result.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            view = data.get(WIDGET_VIEW)
            if not view:
                continue
            body = widget_snapshot(view.get("model_id", ""), states)
            if not body:
                continue
            live = ""
            if explorer_url and 'class="rrf-table"' in body:
                live = (f", or move k on <a class='explorer-link' href=\"{html.escape(explorer_url)}\">the "
                        "explorer page</a>, which computes in your browser")
            note = ("<p class='snapshot-note' style='color:#555;font-size:90%'>A snapshot of the "
                    "interactive widget as the notebook left it: open the notebook in JupyterLab "
                    f"(<code>make lab</code>) to move it{live}.</p>")
            data.pop(WIDGET_VIEW)
            data["text/html"] = f'<div class="widget-snapshot">{note}{body}</div>'
    return result


def to_html(nb: nbformat.NotebookNode, static_url: str = STATIC, explorer_url: str | None = None) -> str:
    """Render an (executed) notebook as a standalone HTML page that needs no network.

    ``static_url`` is the relative URL of the folder :func:`copy_static` filled (``_static`` for a
    page beside it, ``../_static`` one folder down); ``explorer_url`` the live explorer page's, for
    the note above the explorer's snapshot.
    """
    from nbconvert import HTMLExporter  # imported here: slow to import, and only this step needs it
    from traitlets.config import Config

    exporter = HTMLExporter(
        # a busy kernel may send one printed line as several stream messages: the page shows them as one
        # text, as JupyterLab does (consecutive messages only, so text stays between the displays it was
        # printed between; nbclient's coalesce_streams would move it all to the cell's first stream)
        config=Config({"CoalesceStreamsPreprocessor": {"enabled": True}}),
        template_name="lab",
        mathjax_url=f"{static_url}/mathjax/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full,Safe",
        require_js_url=NO_REQUIRE_JS,
    )
    body, _ = exporter.from_notebook_node(snapshot_widgets(nb, explorer_url))
    require_tag = f'<script src="{NO_REQUIRE_JS}"></script>'
    if require_tag not in body:
        raise RuntimeError("nbconvert's lab template changed: no require.js script tag to leave out")
    body = body.replace(require_tag, "", 1)
    marker = "<!-- Load mathjax -->"
    if marker not in body:
        raise RuntimeError("nbconvert's lab template changed: no MathJax block to configure")
    return body.replace(marker, MATHJAX_FONTS + marker, 1)


def build(paths: list[Path], out_dir: Path, notebook_dir: Path = NOTEBOOK_DIR) -> list[Path]:
    """Execute each notebook in ``paths`` and write ``out_dir/<relative path>.html``; return failures."""
    failures: list[Path] = []
    copy_static(out_dir)
    build_explorer_page(out_dir)
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
        relative = path.relative_to(notebook_dir)
        up = "../" * (len(relative.parts) - 1)
        explorer_url = f"{up}{EXPLORER}/index.html" + ("?lang=zh" if relative.parts[0] == "zh" else "")
        target.write_text(to_html(nb, up + STATIC, explorer_url), encoding="utf-8")
        took = time.perf_counter() - start
        print(f"{status:<6}{took:6.1f} s  {target.relative_to(out_dir)}")
    return failures


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (build/html)")
    parser.add_argument("--only", nargs="*", default=None,
                        help="only notebooks whose file name contains one of these strings")
    parser.add_argument("--edition", choices=("en", "zh", "both"), default="both",
                        help="the English notebooks, the Chinese edition (notebooks/zh/) or both (both)")
    args = parser.parse_args(argv)
    paths = notebook_paths()
    if args.edition != "both":
        paths = [p for p in paths if (p.relative_to(NOTEBOOK_DIR).parts[0] == "zh") == (args.edition == "zh")]
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
