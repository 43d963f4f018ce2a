"""A real browser drives the notebooks' RRF k explorer in JupyterLab (notebook 05) and `make html`'s page.

Debian's Chromium (``/usr/bin/chromium``) is driven through the ``playwright`` package, never a browser
that playwright downloads. Each test starts its own server on 127.0.0.1 (free port, random token,
temporary HOME and JUPYTER_* directories, a temporary copy of the notebooks, so nothing in the work
tree is written), blocks every request that does not go to 127.0.0.1, moves the k slider with the
keyboard and asserts that the table shows the values for the new k, worked out by hand from the RRF
formula. Screenshots go to ``build/screenshots/``. Servers are stopped even when a test fails. The
static classroom page (``make explorer``) has its own tests: tests/test_explorer_page.py.

Without Chromium (or playwright) the tests skip with the reason, except on CI (``CI=true``), where
they fail: CI must never pass silently without running them.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from urllib.parse import urlparse

import pytest
from browser_support import CHROMIUM, CHROMIUM_FLAGS, unavailable

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
SCREENSHOTS = ROOT / "build" / "screenshots"
VIEWPORT = {"width": 1280, "height": 1100}
#: The longest a test waits for the page, the server or the kernel: a bound for a busy machine, not a
#: measurement (each wait ends as soon as what it waits for is there).
WAIT_MS = 300_000

# The article's lists (BM25 4.2, 6.1, 3.5; vector 5.3, 6.1, 4.2) as (BM25 rank, vector rank).
RANKS = {"4.2": (1, 3), "6.1": (2, 2), "5.3": (None, 1), "3.5": (3, None)}


def expected_rows(k: int) -> list[list[str]]:
    """[ID, score with 4 decimals] best first, from RRF = Σ 1/(k + rank) in exact fractions."""
    scores = {
        item: sum(Fraction(1, k + r) for r in pair if r is not None) for item, pair in RANKS.items()
    }
    order = sorted(scores, key=lambda item: (-scores[item], item))
    return [[item, f"{float(scores[item]):.4f}"] for item in order]


def test_expected_rows_match_the_article():
    assert expected_rows(1) == [["4.2", "0.7500"], ["6.1", "0.6667"], ["5.3", "0.5000"], ["3.5", "0.2500"]]
    assert [score for _, score in expected_rows(60)] == ["0.0323", "0.0323", "0.0164", "0.0159"]


# ------------------------------------------------------------------------------------ fixtures
def test_a_missing_browser_fails_on_ci_and_skips_elsewhere(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI=true but the browser tests cannot run: x"):
        unavailable("x")
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="x"):
        unavailable("x")


@pytest.fixture(scope="module")
def playwright_api():
    """playwright's sync API, or skip (fail on CI) when it or Debian's Chromium is missing."""
    if not CHROMIUM.is_file():
        unavailable(
            f"{CHROMIUM} not found; install Debian's chromium (apt-get install -y chromium) "
            "or run `make browser-deps`"
        )
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("the python package playwright is not installed; pip install -e '.[test]'")
    with sync_playwright() as api:
        yield api


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for_port(port: int, proc: subprocess.Popen, log: Path, timeout: float = WAIT_MS / 1000) -> None:
    """Wait until something listens on the port (no HTTP GET, which would wait for the whole app)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.25)
    raise TimeoutError(f"nothing listens on 127.0.0.1:{port} after {timeout}s:\n{log.read_text()[-3000:]}")


def _makefile_value(name: str) -> str:
    """The value of ``NAME := value`` in the repository's Makefile (so the tests start what make does)."""
    for line in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines():
        if line.startswith(f"{name} :="):
            return line.split(":=", 1)[1].strip()
    raise AssertionError(f"the Makefile defines no {name}")


def _isolated_env(home: Path, *, news_settings: bool = True) -> dict[str, str]:
    """The environment for a server: every Jupyter, IPython and matplotlib directory under ``home``.

    As ``make lab`` does in the venv, the announcements plugin (the news pop-up) is disabled in the
    page config; ``news_settings=False`` leaves out the user setting that also turns the news off,
    as on a fresh machine."""
    env = dict(os.environ)
    dirs = {
        "HOME": home,
        "JUPYTER_CONFIG_DIR": home / "jupyter-config",
        "JUPYTER_DATA_DIR": home / "jupyter-data",
        "JUPYTER_RUNTIME_DIR": home / "jupyter-runtime",
        "IPYTHONDIR": home / "ipython",
        "MPLCONFIGDIR": home / "matplotlib",
    }
    for name, path in dirs.items():
        path.mkdir(parents=True, exist_ok=True)
        env[name] = str(path)
    env.pop("JUPYTER_TOKEN", None)
    labconfig = dirs["JUPYTER_CONFIG_DIR"] / "labconfig"
    labconfig.mkdir(parents=True, exist_ok=True)
    (labconfig / "page_config.json").write_text(  # what `jupyter labextension disable` writes
        json.dumps({"disabledExtensions": {_makefile_value("ANNOUNCEMENTS"): True}}), encoding="utf-8")
    settings = dirs["JUPYTER_CONFIG_DIR"] / "lab" / "user-settings" / "@jupyterlab"
    files = {"notebook-extension/tracker.jupyterlab-settings": {"autoStartDefaultKernel": True}}
    if news_settings:
        files["apputils-extension/notification.jupyterlab-settings"] = {
            "fetchNews": "false",
            "checkForUpdates": False,
        }
    for rel, content in files.items():
        (settings / rel).parent.mkdir(parents=True, exist_ok=True)
        (settings / rel).write_text(json.dumps(content), encoding="utf-8")
    return env


#: How many free ports a test tries before it gives up: between the moment a port is found free and the
#: moment the server binds it, another process may take it; the server then exits and the next port is tried.
PORT_TRIES = 5


@contextlib.contextmanager
def _server(cmd_for_port, env: dict[str, str], log: Path) -> Iterator[int]:
    """Run ``cmd_for_port(port)`` on a free port in its own process group and yield the port; stop the group
    (SIGTERM, then SIGKILL). A server that exits because its port was taken meanwhile is started again on
    another port, up to ``PORT_TRIES`` times."""
    for attempt in range(1, PORT_TRIES + 1):
        port = _free_port()
        out = log.open("w")
        proc = subprocess.Popen(
            cmd_for_port(port), env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            _wait_for_port(port, proc, log)
            break
        except RuntimeError:
            out.close()
            if attempt < PORT_TRIES and "already in use" in log.read_text(errors="replace"):
                continue
            raise
    try:
        yield port
    finally:
        kernels = _kernel_processes(proc.pid)  # kernels run in sessions of their own
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        for pid in kernels:  # any kernel the server did not shut down itself
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        out.close()


@contextlib.contextmanager
def _browser_page(api, profile: Path):
    """A fresh Chromium context that only talks to 127.0.0.1; closed on exit."""
    context = api.chromium.launch_persistent_context(
        str(profile),
        executable_path=str(CHROMIUM),
        headless=True,
        args=CHROMIUM_FLAGS,
        viewport=VIEWPORT,
    )
    try:
        def only_local(route):
            if urlparse(route.request.url).hostname == "127.0.0.1":
                route.continue_()
            else:
                route.abort()

        context.route("**/*", only_local)
        page = context.pages[0] if context.pages else context.new_page()
        yield page
    finally:
        context.close()


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """A temporary copy of the notebooks the tests open (the server may save into it)."""
    target = tmp_path / "notebooks"
    target.mkdir()
    for name in ("05_rrf.ipynb", "rrf_explorer.ipynb"):
        shutil.copy(NOTEBOOKS / name, target / name)
    return target


@pytest.fixture
def zh_workdir(tmp_path: Path) -> Path:
    """A temporary copy of the Chinese edition's notebooks 05 and the explorer (notebooks/zh/)."""
    target = tmp_path / "notebooks-zh"
    target.mkdir()
    for name in ("05_rrf.ipynb", "rrf_explorer.ipynb"):
        shutil.copy(NOTEBOOKS / "zh" / name, target / name)
    return target


# The Chinese explorer at k = 1 (ragmath/lab/messages/explorer.py): its lead line and table headers.
ZH_LEAD_AT_1 = "k = 1 时 4.2 领先，得分 0.7500"
ZH_HEADERS = ["名次", "ID", "BM25 名次", "BM25：1/(k+名次)", "向量 名次", "向量：1/(k+名次)",
              "融合得分", "领先下一名"]


# ------------------------------------------------------------------------------------- helpers
def _headers(page, k: int) -> list[str]:
    """The column headers of the explorer table rendered for this k."""
    return page.evaluate(
        """k => Array.from(document.querySelectorAll(`.rrf-table[data-k="${k}"] thead th`))
                 .map(th => th.textContent.trim())""",
        k,
    )


def _table_rows(page, k: int) -> list[list[str]]:
    """[ID, shown RRF score] for each row of the explorer table rendered for this k."""
    return page.evaluate(
        """k => Array.from(document.querySelectorAll(`.rrf-table[data-k="${k}"] tbody tr`))
                 .map(tr => [tr.dataset.id, tr.children[tr.children.length - 2].textContent.trim()])""",
        k,
    )


def _scroll_explorer_to_top(page) -> None:
    """Scroll so the explorer (slider, table and chart) fills the viewport for a screenshot."""
    page.evaluate("document.querySelector('.widget-slider').scrollIntoView({block: 'start'})")
    page.wait_for_timeout(300)


def _move_and_check(page, prefix: str, lead_at_1: str = "At k = 1, 4.2 leads with 0.7500") -> list[Path]:
    """From k = 60: ArrowRight (k = 61), then type 1 into the readout; check the table each time.

    ``lead_at_1`` is how the lead line starts at k = 1 (the explorer's language decides it)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shots = []
    page.locator('.rrf-table[data-k="60"]').wait_for(timeout=WAIT_MS)
    assert _table_rows(page, 60) == expected_rows(60)

    handle = page.locator(".widget-slider .noUi-handle").first
    handle.scroll_into_view_if_needed()
    handle.focus()
    page.keyboard.press("ArrowRight")
    page.locator('.rrf-table[data-k="61"]').wait_for(timeout=WAIT_MS)
    assert _table_rows(page, 61) == expected_rows(61)
    _scroll_explorer_to_top(page)
    shots.append(SCREENSHOTS / f"{prefix}_k61.png")
    page.screenshot(path=str(shots[-1]))

    readout = page.locator(".widget-slider .widget-readout").first
    readout.click()
    page.keyboard.press("Control+A")
    page.keyboard.type("1")
    page.keyboard.press("Enter")
    page.locator('.rrf-table[data-k="1"]').wait_for(timeout=WAIT_MS)
    assert _table_rows(page, 1) == expected_rows(1)
    leader = page.locator(".rrf-leader").first.text_content()
    assert leader.startswith(lead_at_1), leader
    _scroll_explorer_to_top(page)
    shots.append(SCREENSHOTS / f"{prefix}_k1.png")
    page.screenshot(path=str(shots[-1]))
    return shots


def _wait_for_idle_kernel(page) -> None:
    """Wait until the kernel is idle with no dialog open (a cold start may ask to select a kernel)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        dialog = page.locator(".jp-Dialog")
        if dialog.count():
            select = dialog.get_by_role("button", name="Select")
            if select.count():
                select.first.click()
        elif page.get_by_text("| Idle").count():
            return
        page.wait_for_timeout(500)
    raise TimeoutError(f"the notebook's kernel did not become idle within {WAIT_MS / 1000:.0f} s")


def _jupyterlab_cmd(port: int, token: str, root_dir) -> list[str]:
    """JupyterLab on 127.0.0.1 with no news, update check or extension manager (nothing fetched)."""
    return [
        sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root",
        "--ip=127.0.0.1", f"--port={port}", "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root_dir}",
        *_makefile_value("LAB_QUIET").split(),  # the flags `make lab` passes
        "--LabApp.extension_manager=readonly",
    ]


# --------------------------------------------------------------------------------------- tests
def test_a_server_whose_port_was_taken_meanwhile_is_started_again_on_another(tmp_path):
    """The race between finding a free port and binding it: the first start reports the port in use and
    exits (as JupyterLab with port_retries=0 does); the second listens, and its port is the one yielded."""
    tried = []

    def cmd_for_port(port: int) -> list[str]:
        tried.append(port)
        if len(tried) == 1:
            return [sys.executable, "-c", f"print('The port {port} is already in use.'); raise SystemExit(1)"]
        return [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"]

    with _server(cmd_for_port, dict(os.environ), tmp_path / "server.log") as port:
        with socket.create_connection(("127.0.0.1", port), 30):
            pass
    assert len(tried) == 2 and port == tried[1]


def test_a_server_that_fails_for_another_reason_is_not_retried(tmp_path):
    tried = []

    def cmd_for_port(port: int) -> list[str]:
        tried.append(port)
        return [sys.executable, "-c", "print('no such option'); raise SystemExit(2)"]

    with pytest.raises(RuntimeError, match="no such option"), _server(cmd_for_port, dict(os.environ),
                                                                       tmp_path / "server.log"):
        pass
    assert len(tried) == 1


def test_jupyterlab_runs_notebook_05_and_the_k_slider_updates_the_table(
    playwright_api, workdir, tmp_path
):
    token = secrets.token_hex(16)
    env = _isolated_env(tmp_path / "home")
    cmd = functools.partial(_jupyterlab_cmd, token=token, root_dir=workdir)
    with _server(cmd, env, tmp_path / "jupyterlab.log") as port, _browser_page(
        playwright_api, tmp_path / "chromium"
    ) as page:
        page.goto(f"http://127.0.0.1:{port}/lab/tree/05_rrf.ipynb?reset&token={token}")
        page.locator(".jp-Notebook").first.wait_for(timeout=WAIT_MS)
        _wait_for_idle_kernel(page)
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        page.locator(".widget-slider").first.wait_for(timeout=WAIT_MS)
        shots = _move_and_check(page, "jupyterlab")
    assert all(p.stat().st_size > 10_000 for p in shots)


# ------------------------------------------------------------------------------ the Chinese edition
def test_jupyterlab_runs_the_chinese_notebook_05_and_the_k_slider_updates_the_table(
    playwright_api, zh_workdir, tmp_path
):
    """notebooks/zh/05_rrf.ipynb, driven as the English notebook 05 is: the same table, 0.7500 at k = 1."""
    token = secrets.token_hex(16)
    env = _isolated_env(tmp_path / "home")
    cmd = functools.partial(_jupyterlab_cmd, token=token, root_dir=zh_workdir)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with _server(cmd, env, tmp_path / "jupyterlab.log") as port, _browser_page(
        playwright_api, tmp_path / "chromium"
    ) as page:
        page.goto(f"http://127.0.0.1:{port}/lab/tree/05_rrf.ipynb?reset&token={token}")
        page.locator(".jp-Notebook .jp-RenderedMarkdown h1").first.wait_for(timeout=WAIT_MS)
        _wait_for_idle_kernel(page)
        opening = SCREENSHOTS / "zh_05_opening.png"
        page.screenshot(path=str(opening))
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        page.locator(".widget-slider").first.wait_for(timeout=WAIT_MS)
        shots = [opening, *_move_and_check(page, "zh_05", lead_at_1=ZH_LEAD_AT_1)]
        headers = _headers(page, 1)
    assert headers == ZH_HEADERS
    assert all(p.stat().st_size > 10_000 for p in shots)


# ------------------------------------------------------------------------------ kernels
def _kernel_processes(server_pid: int) -> list[int]:
    """PIDs of the ipykernel processes the server started (its children running ipykernel)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = (entry / "stat").read_text()
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            cmdline = (entry / "cmdline").read_bytes()
            if parent == server_pid and b"ipykernel" in cmdline:
                found.append(int(entry.name))
    return found


# ------------------------------------------------------------------------------ offline make html
def _load_build_html():
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_html", ROOT / "tools" / "build_html.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_make_html_page_works_offline_formulas_and_explorer_snapshot(playwright_api, tmp_path):
    """Notebook 05 built as `make html` builds it, opened from disk with every network request blocked."""
    build_html = _load_build_html()
    out = tmp_path / "html"
    failures = build_html.build([NOTEBOOKS / "05_rrf.ipynb"], out)
    assert failures == []
    page_path = out / "05_rrf.html"
    attempted = []
    with _browser_page(playwright_api, tmp_path / "chromium") as page:
        def file_only(route):
            if route.request.url.startswith("file:"):
                route.continue_()
            else:
                attempted.append(route.request.url)
                route.abort()

        page.context.unroute("**/*")
        page.context.route("**/*", file_only)
        missing_files = []  # e.g. a MathJax font file the bundle lacks
        page.on("requestfailed",
                lambda r: missing_files.append(r.url) if r.url.startswith("file:") else None)
        page.goto(page_path.as_uri(), wait_until="load")
        # MathJax 2 marks its output with .MathJax (inline) and .MathJax_Display (display maths)
        page.wait_for_function("document.querySelectorAll('.MathJax, .MathJax_Display').length > 0",
                               timeout=WAIT_MS)
        page.wait_for_function("!window.MathJax || !MathJax.Hub || MathJax.Hub.queue.running === 0 && "
                               "MathJax.Hub.queue.pending === 0", timeout=WAIT_MS)
        rendered = page.evaluate("document.querySelectorAll('.MathJax, .MathJax_Display').length")
        visible_text = page.evaluate("document.body.innerText")
        snapshot = page.locator(".widget-snapshot").first
        snapshot.scroll_into_view_if_needed()
        image_ok = page.evaluate(
            "() => { const i = document.querySelector('.widget-snapshot img.snapshot-image');"
            " return !!i && i.complete && i.naturalWidth > 100 && i.getBoundingClientRect().height > 50; }"
        )
        table_rows = page.locator('.widget-snapshot .rrf-table[data-k="60"] tbody tr').count()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "offline_html_explorer_snapshot.png"))
        page.evaluate("document.querySelector('.MathJax_Display, .MathJax')"
                      ".scrollIntoView({block: 'center'})")
        page.screenshot(path=str(SCREENSHOTS / "offline_html_formulas.png"))
        # the snapshot's note links the live explorer page, shipped beside the notebooks' pages
        link = page.locator(".widget-snapshot a.explorer-link").first
        link.click()
        page.locator('.rrf-table[data-k="60"] tbody tr').first.wait_for(timeout=WAIT_MS)
        live_rows = page.locator(".rrf-table tbody tr").count()
    assert attempted == [], f"the page asked the network for: {attempted}"
    assert missing_files == [], f"files the page needs but the build lacks: {missing_files}"
    assert rendered > 0
    assert "$$" not in visible_text and "\\frac" not in visible_text
    assert image_ok, "the explorer's chart snapshot is not shown"
    assert table_rows == 4  # the article's four items at k = 60
    assert live_rows == 4 and (out / "explorer" / "index.html").is_file()


# ------------------------------------------------------------------------------ screenshots
def test_jupyterlab_screenshots_of_every_notebooks_opening(playwright_api, tmp_path):
    """Open each numbered notebook (glob 0*.ipynb) in JupyterLab and photograph its first screen."""
    notebooks = sorted(NOTEBOOKS.glob("0*.ipynb"))
    assert notebooks, "no numbered notebooks found"
    workdir = tmp_path / "notebooks"
    workdir.mkdir()
    for path in notebooks:  # these files only: the notebook runner may be writing beside them meanwhile
        shutil.copy2(path, workdir / path.name)
    token = secrets.token_hex(16)
    env = _isolated_env(tmp_path / "home")
    cmd = functools.partial(_jupyterlab_cmd, token=token, root_dir=workdir)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shots = []
    with _server(cmd, env, tmp_path / "jupyterlab.log") as port, _browser_page(
        playwright_api, tmp_path / "chromium"
    ) as page:
        for path in notebooks:
            page.goto(f"http://127.0.0.1:{port}/lab/tree/{path.name}?reset&token={token}")
            page.locator(".jp-Notebook .jp-MarkdownCell .jp-RenderedMarkdown h1").first.wait_for(
                timeout=WAIT_MS
            )
            title = page.locator(".jp-Notebook .jp-RenderedMarkdown h1").first.text_content()
            page.wait_for_timeout(500)
            shots.append(SCREENSHOTS / f"opening_{path.stem}.png")
            page.screenshot(path=str(shots[-1]))
            assert title.strip(), f"{path.name}: the first heading is empty"
    assert len(shots) == len(notebooks)
    assert all(p.stat().st_size > 20_000 for p in shots)


# ------------------------------------------------------------------------------ classroom items
def _classroom_notebook(path: Path) -> None:
    """A notebook of the items a class saw go wrong: the diagram, self-check marks, 05's section-6
    chart (notebook 05's own import and plot_curves cells) and the explorer on the same lists."""
    nb05 = json.loads((NOTEBOOKS / "05_rrf.ipynb").read_text(encoding="utf-8"))
    code = ["".join(c["source"]) for c in nb05["cells"] if c["cell_type"] == "code"]
    imports = next(src for src in code if "from ragmath.lab.notebook.widgets import" in src)
    curves = next(src for src in code if src.startswith("def plot_curves"))
    cells = [
        "from ragmath.lab.notebook.diagram import pipeline_diagram\n"
        "pipeline_diagram(highlight=['bm25', 'vector', 'rrf'])",
        "from ragmath.lab.notebook.selfcheck import check\n"
        "check('02.4', 0.83); check('02.4', 0.8); check('02.4', None); check('02.4', '1/4');",
        imports, curves, "build_explorer(ARTICLE_LISTS, k=60).widget",
    ]
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                     "source": src} for src in cells],
          "nbformat": 4, "nbformat_minor": 5,
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}}
    path.write_text(json.dumps(nb), encoding="utf-8")


def test_classroom_items_in_jupyterlab_as_make_lab_starts_it(playwright_api, tmp_path):
    """Fresh settings (no news setting): no news pop-up; with the file browser open at 1280 px the
    diagram fits its cell; the self-check marks are text glyphs; 05's chart and the explorer."""
    workdir = tmp_path / "notebooks"
    workdir.mkdir()
    _classroom_notebook(workdir / "classroom.ipynb")
    token = secrets.token_hex(16)
    env = _isolated_env(tmp_path / "home", news_settings=False)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with _server(functools.partial(_jupyterlab_cmd, token=token, root_dir=workdir), env,
                 tmp_path / "jupyterlab.log") as port, \
            _browser_page(playwright_api, tmp_path / "chromium") as page:
        page.goto(f"http://127.0.0.1:{port}/lab/tree/classroom.ipynb?reset&token={token}")
        page.locator(".jp-Notebook").first.wait_for(timeout=WAIT_MS)
        _wait_for_idle_kernel(page)
        if not page.locator(".jp-FileBrowser").first.is_visible():
            page.locator('.jp-SideBar [data-id="filebrowser"]').first.click()
        page.get_by_role("menuitem", name="Run", exact=True).click()
        page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
        page.locator('.rrf-table[data-k="60"]').wait_for(timeout=WAIT_MS)
        # No wait for a news prompt: the plugin that shows it would have shown it as the app was restored,
        # before the kernel ran a cell; the page config below says the plugin is not even loaded.
        toasts = page.locator(".Toastify__toast").all_text_contents()
        disabled = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data')"
                                 ".textContent).disabledExtensions")
        browser_open = page.locator(".jp-FileBrowser").first.is_visible()
        diagram = page.locator(".jp-OutputArea-output").filter(
            has=page.locator("svg, img")).first
        diagram.scroll_into_view_if_needed()
        fit = page.evaluate("""el => { const cell = el.getBoundingClientRect();
                                       const pic = el.querySelector('svg, img').getBoundingClientRect();
                                       return [pic.right <= cell.right + 1, pic.width, cell.width]; }""",
                            diagram.element_handle())
        page.screenshot(path=str(SCREENSHOTS / "diagram_1280_file_browser_open.png"))
        marks = page.locator(".jp-OutputArea-output").filter(has_text="Not yet (02.4)").first
        marks.scroll_into_view_if_needed()
        marks_text = marks.text_content()
        page.screenshot(path=str(SCREENSHOTS / "selfcheck_marks.png"))
        chart = page.locator('.jp-OutputArea-output img[src^="data:image/png"]').first
        chart.scroll_into_view_if_needed()
        page.screenshot(path=str(SCREENSHOTS / "nb05_chart_colours.png"))
        _scroll_explorer_to_top(page)
        page.screenshot(path=str(SCREENSHOTS / "explorer_colours.png"))
    assert not [t for t in toasts if "news" in t.lower()], toasts
    assert _makefile_value("ANNOUNCEMENTS") in disabled
    assert browser_open, "the file browser should be open for this screenshot"
    assert fit[0] and fit[1] < 1060, f"the diagram is cut or not scaled: {fit}"
    assert "✓ Correct (02.4)" in marks_text and "≈ Almost (02.4)" in marks_text
    assert "✗ Not yet (02.4)" in marks_text and "❌" not in marks_text
