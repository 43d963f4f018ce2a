"""Shared fixtures: every notebook executed once per run, in a child process beside the other tests.

When the selected tests ask for the ``executed`` fixture, a child process (``tests/notebook_runner.py``)
starts at the beginning of the run and executes the notebooks those tests need, one after another,
while the rest of the suite runs; ``executed(path)`` waits for that notebook's result and returns a
fresh copy of it (so a test may change what it gets). A notebook whose tests' parameters do not name it
is executed in the test's own process the first time it is asked for, and shared from then on.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hypothesis import HealthCheck, settings  # noqa: E402
from notebook_runner import result_key  # noqa: E402
from outputs import as_a_busy_kernel_sends, split_streams_requested  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RUNNER = Path(__file__).resolve().parent / "notebook_runner.py"
#: The longest a test waits while the child process finishes no notebook at all (a bound for a busy
#: machine: a test waiting for a notebook far down the queue waits as long as the child makes progress,
#: up to the 900 s that pytest-timeout gives any test, pyproject.toml).
WAIT_S = 840

# A busy machine must not fail a property test: no time limit per example, and no health check that times
# the generation of examples (a test's own @settings inherit both unless they name them).
settings.register_profile("busy-machine", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("busy-machine")

_queued: list[Path] = []
_state: dict = {}


def _notebook_params(item) -> list[Path]:
    params = getattr(getattr(item, "callspec", None), "params", {})
    return [Path(v).resolve() for v in params.values() if isinstance(v, Path) and v.suffix == ".ipynb"]


@pytest.hookimpl(trylast=True)  # after -k and -m have deselected what will not run
def pytest_collection_modifyitems(session, config, items):
    """Queue the notebooks the selected tests name, in the order the tests come, and start the runner."""
    for item in items:
        if "executed" in getattr(item, "fixturenames", ()):
            for path in _notebook_params(item):
                if path not in _queued:
                    _queued.append(path)
    if _queued and not config.option.collectonly:
        _start_runner()


def pytest_sessionfinish(session, exitstatus):
    """Stop the runner if tests ended before it did (SIGINT first, so its kernel is shut down)."""
    process = _state.get("process")
    if process is None:
        return
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    _state["log"].close()
    shutil.rmtree(_state["out"], ignore_errors=True)


def _start_runner() -> None:
    out = Path(tempfile.mkdtemp(prefix="ragmath-notebooks-"))
    log = open(out / "runner.log", "w")  # noqa: SIM115 - closed at the end of the session
    process = subprocess.Popen([sys.executable, str(RUNNER), str(out), *map(str, _queued)],
                               stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    _state.update(out=out, process=process, log=log)


def _wait_for(path: Path) -> Path:
    out, process = _state["out"], _state["process"]
    key = result_key(path)
    finished, deadline = -1, 0.0
    while True:
        for suffix in (".ipynb", ".error"):
            if (out / f"{key}{suffix}").is_file():
                return out / f"{key}{suffix}"
        if process.poll() is not None:
            log = (out / "runner.log").read_text(encoding="utf-8", errors="replace")[-2000:]
            raise RuntimeError(f"the notebook runner stopped (exit {process.returncode}) before "
                               f"{path.name}:\n{log}")
        now_finished = len([p for p in out.iterdir() if p.suffix in (".ipynb", ".error")])
        if now_finished != finished:  # the child finished another notebook: it is making progress
            finished, deadline = now_finished, time.monotonic() + WAIT_S
        if time.monotonic() > deadline:
            raise TimeoutError(f"{path.name} was not executed: the notebook runner finished no notebook "
                               f"in {WAIT_S} s")
        time.sleep(0.5)


def _back_to_english() -> None:
    messages = sys.modules.get("ragmath.lab.messages")  # not imported here: the core's tests need none
    if messages is not None:
        messages.use_language("en")


@pytest.fixture(autouse=True)
def _english_around_each_test():
    """Every test starts and ends in English: the message catalogue's language is one setting for the
    whole process, so a test that chooses Chinese must not leave it chosen for the next."""
    _back_to_english()
    yield
    _back_to_english()


@pytest.fixture(scope="session")
def executed():
    """``executed(path)``: the notebook at ``path`` run top to bottom in a fresh kernel (a fresh copy
    per call). Raises the notebook's error (as ``RuntimeError`` with its text) if a cell failed.

    With ``RAGMATH_SPLIT_STREAMS=1`` the copy's stream messages are cut as a busy kernel may cut them
    (``tests/outputs.py``): every test must read the same outputs either way."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_html", ROOT / "tools" / "build_html.py")
    build_html = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_html)
    own: dict[Path, object] = {}

    def get(path: Path):
        nb = _get(path)
        return as_a_busy_kernel_sends(nb, seed=len(nb.cells)) if split_streams_requested() else nb

    def _get(path: Path):
        path = Path(path).resolve()
        if path in _queued:
            result = _wait_for(path)
            if result.suffix == ".error":
                raise RuntimeError(f"{path.name} failed to run:\n{result.read_text(encoding='utf-8')}")
            return nbformat.read(result, as_version=4)
        if path not in own:
            try:
                own[path] = build_html.execute_notebook(path)
            except Exception as exc:  # noqa: BLE001 - stored, re-raised for every caller
                own[path] = exc
        if isinstance(own[path], Exception):
            raise own[path]
        return nbformat.reads(nbformat.writes(own[path]), as_version=4)

    return get
