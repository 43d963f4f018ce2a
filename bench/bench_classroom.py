"""Benchmark: how long the slowest of 30 students waits for the RRF k explorer served by Voila.

A class loads the page at the same moment. Each "student" here is a thread that fetches the page over
HTTP (the server starts a kernel and runs the notebook while it streams the page) and then, like the
page's own script, opens the kernel's websocket and waits for the reply to a ``kernel_info_request``:
from then on the student's k slider talks to a live kernel. No browser runs, so the figures are the
server's work alone (in a classroom the browsers run on the students' machines, not on the server).

Each setting is measured in the same run on a fresh server with the repository's ``config/voila.py``;
with ``--rounds 2`` or more, the settings take turns and every other round runs them in reverse order
(the shared machine drifts within minutes):

* ``make explorer``: the committed configuration with the preheated kernels ``make explorer``
  switches on (a pool as large as the cap, both the class size here); the bench waits until the
  pool's kernels have run the notebook (and prints how long that took), then the class arrives;
* ``make explorer, class during the fill``: the same, but the class arrives ``--early`` seconds (5)
  after the server opens its port, while the pool's kernels are still starting and running;
* ``preheat off (before)``: the settings before the pool: ``config/voila.py`` alone (as ``make
  explorer EXPLORER_POOL=0``) with Voila's own 60 s kernel startup timeout: a kernel starts when its
  page is requested;
* ``committed cap``: ``make explorer``'s settings unchanged (its ``EXPLORER_POOL``, the config's
  ``max_kernels``), one student more than the cap, after the pool is filled: every student but one
  gets the explorer, the last the "explorer is full" page (the bench exits 1 otherwise). This is the
  load the test suite leaves to the bench.

It prints, per setting, the median and the slowest wait for the page and for the live kernel, the
page loads that failed, the kernels alive once the class is in and their memory (proportional set
size, PSS: shared pages split between the processes that share them), and the load average (the
machines are shared). A benchmark, not a test: it never fails on time. It exits 1 if any student got
something other than the explorer (or, past the cap, the full page).

Usage: ``python bench/bench_classroom.py [--students 30] [--rounds 1] [--early 5]``
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import websocket  # websocket-client

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "notebooks" / "rrf_explorer.ipynb"
CONFIG_DIR = ROOT / "config"
KERNEL_ID = re.compile(rb'"kernelId": "([0-9a-f-]{36})"')
EXPLORER_MARK = b"application/vnd.jupyter.widget-view+json"
FULL_MARK = b"the explorer is full"  # the 503 page of config/voila.py


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def voila(overrides: list[str], home: Path):
    """A Voila server on 127.0.0.1 with config/voila.py; yields (host:port, token, log path, PID)."""
    port, token = free_port(), secrets.token_hex(16)
    env = dict(os.environ)
    for name in ("HOME", "JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR",
                 "MPLCONFIGDIR"):
        (home / name).mkdir(parents=True, exist_ok=True)
        env[name] = str(home / name)
    env.pop("JUPYTER_TOKEN", None)
    work = home / "notebooks"
    work.mkdir(exist_ok=True)
    shutil.copy(NOTEBOOK, work / NOTEBOOK.name)
    cmd = [
        sys.executable, "-m", "voila", str(work / NOTEBOOK.name), "--no-browser",
        "--Voila.ip=127.0.0.1", f"--Voila.port={port}", "--Voila.port_retries=0",
        f"--Voila.token={token}", f"--Voila.connection_dir_root={work}",
        f"--Voila.config_file_paths={CONFIG_DIR}", *overrides,
    ]
    log = home / "voila.log"
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while True:  # wait for the port, not a GET (a GET starts a kernel)
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"Voila did not start:\n{log.read_text()[-2000:]}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
                break
            time.sleep(0.25)
        yield f"127.0.0.1:{port}", token, log, proc.pid
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


def kernel_info(host: str, token: str, kernel_id: str, timeout: float = 120) -> None:
    """Open the kernel's websocket and wait for the reply to a kernel_info_request."""
    ws = websocket.create_connection(
        f"ws://{host}/api/kernels/{kernel_id}/channels?token={token}", timeout=timeout
    )
    try:
        msg_id = uuid.uuid4().hex
        ws.send(json.dumps({
            "header": {"msg_id": msg_id, "username": "bench", "session": uuid.uuid4().hex,
                       "msg_type": "kernel_info_request", "version": "5.3", "date": ""},
            "parent_header": {}, "metadata": {}, "content": {}, "channel": "shell", "buffers": [],
        }))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            reply = json.loads(ws.recv())
            if reply.get("parent_header", {}).get("msg_id") == msg_id and \
                    reply["header"]["msg_type"] == "kernel_info_reply":
                return
        raise TimeoutError(f"no kernel_info_reply from {kernel_id} in {timeout} s")
    finally:
        ws.close()


def one_student(host: str, token: str, start: threading.Barrier, out: dict) -> None:
    start.wait()
    began = time.perf_counter()
    try:
        with urllib.request.urlopen(f"http://{host}/?token={token}", timeout=300) as reply:
            body = reply.read()
        out["page"] = time.perf_counter() - began
        found = KERNEL_ID.search(body)
        if EXPLORER_MARK not in body or not found:
            out["error"] = "page without the explorer"
            return
        kernel_info(host, token, found.group(1).decode())
        out["ready"] = time.perf_counter() - began
    except urllib.error.HTTPError as error:
        if error.code == 503 and FULL_MARK in error.read():
            out["full"] = True
        else:
            out["error"] = f"HTTP {error.code}"
    except Exception as error:  # noqa: BLE001 - reported per student
        out["error"] = f"{type(error).__name__}: {error}"


def committed_cap() -> int:
    """``ClassroomKernelManager.max_kernels`` in the repository's ``config/voila.py``."""
    from traitlets.config.loader import PyFileConfigLoader

    config = PyFileConfigLoader("voila.py", path=str(CONFIG_DIR)).load_config()
    return config.ClassroomKernelManager.max_kernels


def make_explorer_pool() -> int:
    """``EXPLORER_POOL`` in the repository's Makefile: the pool ``make explorer`` preheats."""
    for line in (ROOT / "Makefile").read_text(encoding="utf-8").splitlines():
        if line.startswith("EXPLORER_POOL ?="):
            return int(line.split("=", 1)[1])
    raise SystemExit("the Makefile sets no EXPLORER_POOL")


def preheat_flags(pool: int) -> list[str]:
    """What ``make explorer`` adds to the command line for a pool of ``pool`` kernels (none for 0)."""
    if pool == 0:
        return []
    return ["--VoilaConfiguration.preheat_kernel=True", f"--VoilaConfiguration.default_pool_size={pool}"]


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) used so far by a process and its children (the kernels)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(entry.name) == pid or int(fields[1]) == pid:
                total += int(fields[11]) + int(fields[12])
    return total / tick


def wait_for_pool(log: Path, pid: int, timeout: float = 600) -> float:
    """Seconds until Voila logs that the pool is filled and its kernels have finished the notebook.

    "Filled" is logged once the kernels are started; they then run the notebook, so the wait goes
    on until the server and its kernels use less than 0.1 s of CPU in 2 s.
    """
    began = time.monotonic()
    while "is filled with" not in log.read_text():
        if time.monotonic() - began > timeout:
            raise TimeoutError(f"the kernel pool was not filled in {timeout} s")
        time.sleep(0.5)
    used = tree_cpu_seconds(pid)
    while time.monotonic() - began < timeout:
        time.sleep(2)
        now = tree_cpu_seconds(pid)
        if now - used < 0.1:
            return time.monotonic() - began
        used = now
    raise TimeoutError(f"the pooled kernels were still busy after {timeout} s")


def kernel_memory(server_pid: int) -> tuple[int, float]:
    """(number, total PSS in GB) of the server's kernel processes (its children running ipykernel)."""
    count, kib = 0, 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if parent != server_pid or b"ipykernel" not in (entry / "cmdline").read_bytes():
                continue
            for line in (entry / "smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    count, kib = count + 1, kib + int(line.split()[1])
    return count, kib / 2**20


def measure(name: str, overrides: list[str], students: int, preheat: bool,
            early: float | None = None) -> dict:
    """One class on a fresh server: after the pool is filled (``preheat``), or ``early`` s after start."""
    with tempfile.TemporaryDirectory(prefix="bench-classroom-") as tmp, \
            voila(overrides, Path(tmp)) as (host, token, log, pid):
        fill = None
        if early is not None:
            time.sleep(early)
        else:
            fill = wait_for_pool(log, pid) if preheat else None
            time.sleep(2)  # let the server settle after filling
        start = threading.Barrier(students)
        results = [{} for _ in range(students)]
        threads = [threading.Thread(target=one_student, args=(host, token, start, r)) for r in results]
        load = os.getloadavg()[0]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=600)
        kernels, memory = kernel_memory(pid)
        return {"name": name, "results": results, "fill": fill, "load": load, "kernels": kernels,
                "memory": memory}


def report(m: dict) -> list[str]:
    errors = [r["error"] for r in m["results"] if "error" in r]
    page = [r["page"] for r in m["results"] if "page" in r]
    ready = [r["ready"] for r in m["results"] if "ready" in r]
    fill = f", pool filled in {m['fill']:.0f} s before the class" if m["fill"] is not None else ""
    lines = [f"{m['name']:<12} load average {m['load']:.1f}{fill}"]
    if page:
        lines.append(f"  page       median {statistics.median(page):6.1f} s   slowest {max(page):6.1f} s")
    if ready:
        lines.append(f"  live kernel median {statistics.median(ready):6.1f} s   slowest {max(ready):6.1f} s")
    full = sum(1 for r in m["results"] if r.get("full"))
    lines.append(f"  full page  {full} of {len(m['results'])}")
    lines.append(f"  failed     {len(errors)} of {len(m['results'])}" + (f": {errors[:3]}" if errors else ""))
    lines.append(f"  kernels    {m['kernels']} alive after the class, {m['memory']:.2f} GB (PSS)")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30, help="page loads at the same moment (30)")
    parser.add_argument("--rounds", type=int, default=1, help="times each setting is measured (1)")
    parser.add_argument("--early", type=float, default=5,
                        help="seconds after start at which the class arrives during the fill (5)")
    args = parser.parse_args(argv)
    n = args.students
    cap_n = f"--ClassroomKernelManager.max_kernels={n}"
    settings = [
        ("make explorer", [cap_n, *preheat_flags(n)], True, None),
        (f"make explorer, class {args.early:g} s after start", [cap_n, *preheat_flags(n)], True, args.early),
        ("preheat off (before)", [cap_n, "--VoilaExecutor.startup_timeout=60"], False, None),
    ]
    cap, pool = committed_cap(), make_explorer_pool()
    print(f"{n} students load the explorer at once; {os.cpu_count()} cores; server work only, no browser")
    failed = False
    for round_ in range(1, args.rounds + 1):
        print(f"round {round_}")
        m = measure(f"committed cap ({cap + 1} students, cap {cap}, pool {pool})", preheat_flags(pool),
                    cap + 1, pool > 0)
        full = sum(1 for r in m["results"] if r.get("full"))
        failed |= full != 1 or any("error" in r for r in m["results"])
        print("\n".join(report(m)), flush=True)
        for name, overrides, preheat, early in settings if round_ % 2 else settings[::-1]:
            m = measure(name, overrides, n, preheat, early)
            failed |= any("error" in r or r.get("full") for r in m["results"])
            print("\n".join(report(m)), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
