"""`make html` pages load nothing from the network: formulas and widget snapshots come from disk."""

from __future__ import annotations

import base64
import importlib.util
import re
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("build_html", ROOT / "tools" / "build_html.py")
build_html = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(build_html)

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\nfake").decode("ascii")


def _executed_notebook_with_a_widget() -> nbformat.NotebookNode:
    """A notebook as nbclient leaves it: one formula cell, one widget output, the widget state."""
    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_markdown_cell(r"$$\mathrm{RRF}(d) = \sum_j \frac{1}{k + r_j}$$"))
    cell = nbformat.v4.new_code_cell("explorer.widget")
    cell.outputs = [nbformat.v4.new_output(
        "display_data",
        data={"text/plain": "VBox(...)",
              build_html.WIDGET_VIEW: {"model_id": "box", "version_major": 2, "version_minor": 0}},
    )]
    nb.cells.append(cell)
    state = {
        "box": {"model_name": "VBoxModel", "state": {"children": ["IPY_MODEL_k", "IPY_MODEL_table",
                                                                  "IPY_MODEL_chart", "IPY_MODEL_gone"]}},
        "k": {"model_name": "IntSliderModel",
              "state": {"description": "k", "value": 60, "min": 1, "max": 200}},
        "table": {"model_name": "HTMLModel",
                  "state": {"value": '<div class="rrf-table" data-k="60">t</div>'}},
        "chart": {"model_name": "ImageModel", "state": {"format": "png", "layout": "IPY_MODEL_shown"},
                  "buffers": [{"path": ["value"], "data": PNG, "encoding": "base64"}]},
        "shown": {"model_name": "LayoutModel", "state": {"width": "800px"}},
        "gone": {"model_name": "HTMLModel", "state": {"value": "stale", "layout": "IPY_MODEL_hidden"}},
        "hidden": {"model_name": "LayoutModel", "state": {"visibility": "hidden"}},
    }
    nb.metadata["widgets"] = {build_html.WIDGET_STATE: {"state": state, "version_major": 2}}
    return nb


def test_widget_outputs_become_static_snapshots_of_their_state():
    nb = _executed_notebook_with_a_widget()
    snap = build_html.snapshot_widgets(nb)
    html = snap.cells[1].outputs[0]["data"]["text/html"]
    assert build_html.WIDGET_VIEW not in snap.cells[1].outputs[0]["data"]
    assert "widgets" not in snap.metadata and "widgets" in nb.metadata  # the input is not changed
    assert '<div class="rrf-table" data-k="60">t</div>' in html
    assert f"data:image/png;base64,{PNG}" in html and "width:800px" in html
    assert "value='60'" in html and "stale" not in html  # hidden widgets are left out
    assert "snapshot" in html


def test_the_page_loads_scripts_from_static_files_only(tmp_path):
    static = build_html.copy_static(tmp_path)
    assert (static / "mathjax" / "MathJax.js").is_file()
    assert (static / "mathjax" / "config" / "TeX-AMS-MML_HTMLorMML-full.js").is_file()
    page = build_html.to_html(_executed_notebook_with_a_widget(), "../_static")
    sources = re.findall(r'<script[^>]*\ssrc="([^"]*)"', page)
    assert sources and all(s.startswith("../_static/mathjax/") for s in sources), sources
    assert "require" not in " ".join(sources)  # no widget manager, so no require.js
    assert "embed-amd.js" not in page and "cdn.jsdelivr" not in page
    # The one CDN address left is nbconvert's Mermaid loader, which runs only on a page with a
    # Mermaid diagram; no notebook has one.
    remote = set(re.findall(r"https://cdnjs[^\"' ]+", page))
    assert all("mermaid" in url for url in remote), remote
    notebooks = [*ROOT.glob("notebooks/*.ipynb"), *ROOT.glob("notebooks/solutions/*.ipynb")]
    assert not [p.name for p in notebooks if "```mermaid" in p.read_text(encoding="utf-8")]


def test_the_explorer_snapshot_links_the_static_page_shipped_beside_it(tmp_path):
    page = build_html.to_html(_executed_notebook_with_a_widget(), "_static", "explorer/index.html?lang=zh")
    assert '<a class="explorer-link" href="explorer/index.html?lang=zh">' in page
    assert "make explorer" not in page  # the note no longer sends readers to a server
    index = build_html.build_explorer_page(tmp_path)
    assert index == tmp_path / "explorer" / "index.html" and index.is_file()
    shipped = {p.name for p in index.parent.iterdir()}
    assert shipped == {"index.html", "explorer.js", "explorer.css", "page-data.js"}


def test_a_line_the_kernel_sent_in_two_messages_is_one_text_on_the_page():
    """A busy kernel may cut one printed line anywhere; the page shows it whole, and text printed after a
    display stays after it (only consecutive messages of one stream are joined)."""
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("check('06a.3', answer)")
    cell.outputs = [
        nbformat.v4.new_output("stream", name="stdout", text="\x1b[32m✓ 对了 Right"),
        nbformat.v4.new_output("stream", name="stdout", text=" answer.\x1b[0m"),
        nbformat.v4.new_output("stream", name="stdout", text="\n"),
        nbformat.v4.new_output("display_data", data={"text/html": "<b>the table</b>", "text/plain": "t"}),
        nbformat.v4.new_output("stream", name="stdout", text="after the table\n"),
    ]
    nb.cells.append(cell)
    page = build_html.to_html(nb)
    blocks = [re.sub(r"<[^>]+>", "", b) for b in re.findall(r"<pre>(.*?)</pre>", page, flags=re.S)]
    printed = [b for b in blocks if "Right" in b or "after the table" in b]
    assert printed == ["✓ 对了 Right answer.\n", "after the table\n"]
    assert page.index("Right answer.") < page.index("<b>the table</b>") < page.index("after the table")
    assert len(cell.outputs) == 5  # the notebook given is not changed
