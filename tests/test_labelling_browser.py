"""The labelling widget in a real JupyterLab: five chunks graded by keyboard land in the qrels file, and the
keys never reach JupyterLab's own shortcuts (0, 0 would restart the kernel, 1 and 2 make a cell a heading).

Started and driven as in ``test_browser.py`` (Debian's Chromium through playwright, a server on 127.0.0.1
with a temporary HOME, every other request blocked). Without Chromium the test skips, except under
``CI=true``, where it fails. The screenshot goes to ``build/screenshots/labelling_widget.png``.
"""

from __future__ import annotations

import functools
import json
import secrets

import pytest
from test_browser import (  # noqa: F401 - playwright_api is a fixture used by name
    SCREENSHOTS,
    WAIT_MS,
    _browser_page,
    _isolated_env,
    _jupyterlab_cmd,
    _server,
    _wait_for_idle_kernel,
    playwright_api,
)

from ragmath.io import read_qrels

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: The widget's cell: six pool items of two dev questions, with their texts from the workbook's corpus.
WIDGET_CELL = """\
import polars as pl
from ragmath.lab.corpus import load_dataset
from ragmath.lab.notebook.labelling import LabellingWidget

ds = load_dataset()
labels = ds.qrels[ds.qrels["question_id"].isin(["Q01", "Q02"])].head(6)
pool = pl.DataFrame({"question": list(labels["question_id"]), "id": list(labels["chunk_id"])})
widget = LabellingWidget(pool, "judgements.csv",
                         questions=dict(zip(ds.questions["question_id"], ds.questions["text"])),
                         texts=dict(zip(ds.corpus["chunk_id"], ds.corpus["text"])))
widget
"""

#: The grades typed, one key per chunk: "0" twice in a row is JupyterLab's restart-the-kernel shortcut.
KEYS = ["2", "0", "0", "1", "2"]


def _notebook(path) -> None:
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": "Label the pool below."},
        {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": WIDGET_CELL},
        {"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": "1 + 1"},
    ]
    nb = {"cells": cells, "nbformat": 4, "nbformat_minor": 5,
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}}
    path.write_text(json.dumps(nb), encoding="utf-8")


def _cell_types(page) -> list[str]:
    return page.evaluate("""() => Array.from(document.querySelectorAll('.jp-Notebook .jp-Cell'))
        .map(c => c.classList.contains('jp-MarkdownCell') ? 'markdown' : 'code')""")


def _pool_order() -> list[tuple[str, str]]:
    """The pool's (question, id) pairs as the widget's cell builds them, computed here without a kernel."""
    from ragmath.lab.corpus import load_dataset

    ds = load_dataset()
    labels = ds.qrels[ds.qrels["question_id"].isin(["Q01", "Q02"])].head(6)
    return list(zip(labels["question_id"], labels["chunk_id"], strict=True))


def test_five_chunks_graded_by_keyboard_reach_the_file_and_not_jupyterlab(playwright_api, tmp_path):  # noqa: F811
    workdir = tmp_path / "notebooks"
    workdir.mkdir()
    _notebook(workdir / "label.ipynb")
    pool = _pool_order()
    token = secrets.token_hex(16)
    env = _isolated_env(tmp_path / "home")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / "labelling_widget.png"
    cmd = functools.partial(_jupyterlab_cmd, token=token, root_dir=workdir)
    with _server(cmd, env, tmp_path / "jupyterlab.log") as port, _browser_page(
        playwright_api, tmp_path / "chromium"
    ) as page:
        page.goto(f"http://127.0.0.1:{port}/lab/tree/label.ipynb?reset&token={token}")
        page.locator(".jp-Notebook").first.wait_for(timeout=WAIT_MS)
        _wait_for_idle_kernel(page)
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        widget = page.locator(".ragmath-label").first
        widget.wait_for(timeout=WAIT_MS)
        page.locator('.ragmath-label[data-labelled="0"]').wait_for(timeout=WAIT_MS)
        types_before = _cell_types(page)
        assert types_before == ["markdown", "code", "code"]
        widget.locator(".ragmath-label-question").click()  # focus the widget; the notebook is in command mode
        assert page.locator(".jp-Notebook.jp-mod-commandMode").count() == 1
        # JupyterLab's shortcuts listen for keys on the document: count what reaches it (key events are
        # dispatched at once, so after the presses the count is final; no wait needed)
        page.evaluate("() => { window.keysThatReachedTheDocument = 0; document.addEventListener("
                      "'keydown', () => { window.keysThatReachedTheDocument += 1; }, true); }")
        shown = []
        for n, key in enumerate(KEYS, start=1):
            shown.append((widget.get_attribute("data-question"), widget.get_attribute("data-id")))
            page.keyboard.press(key)
            page.locator(f'.ragmath-label[data-labelled="{n}"]').wait_for(timeout=WAIT_MS)
            assert page.locator(".jp-Dialog").count() == 0, f"a dialog opened after key {key!r}"
        assert page.evaluate("window.keysThatReachedTheDocument") == 0
        # the counter counts: a key outside the widget reaches the document
        page.evaluate("document.body.dispatchEvent("
                      "new KeyboardEvent('keydown', {key: 'Shift', bubbles: true}))")
        assert page.evaluate("window.keysThatReachedTheDocument") == 1
        widget.scroll_into_view_if_needed()
        page.screenshot(path=str(shot))
        assert page.locator(".jp-Dialog").count() == 0
        assert _cell_types(page) == types_before
        assert page.locator(".jp-Notebook .jp-MarkdownCell h1, .jp-Notebook .jp-MarkdownCell h2").count() == 0
        assert page.get_by_text("| Idle").count() >= 1
        progress = widget.locator(".ragmath-label-progress").text_content()
    assert shown == pool[:5]
    expected: dict[str, dict[str, int]] = {}
    for (question, item), key in zip(pool[:5], KEYS, strict=True):
        expected.setdefault(question, {})[item] = int(key)
    assert read_qrels(workdir / "judgements.csv") == expected
    assert progress.startswith("5 of 6 judged")
    assert shot.stat().st_size > 20_000
