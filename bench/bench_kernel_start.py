"""Benchmark: the CPU one kernel spends starting and running the RRF k explorer notebook.

Voila starts one kernel per page load; on a 2-core server the class's slowest wait is roughly the
sum of these kernels' CPU over the cores (``bench_classroom.py`` measures that wait). Here kernels
start one after the other, each fresh, and run the code cells of ``notebooks/rrf_explorer.ipynb``
(or the Chinese one) as Voila does; for each the kernel process's CPU time (user + system, read
from ``/proc``) is taken when the last cell has replied, split into the start (until the kernel
answers ``kernel_info``) and the notebook. It also times the explorer's imports alone in a fresh
``python -c`` (``from ragmath.lab.notebook.widgets import build_explorer``). Medians over the
repeats are printed, with the load average (the machines are shared).

Matplotlib's font list is built first (``config/voila.py`` does the same before the first page), so
the figures are the code's own; ``--cold-fonts`` gives each kernel a fresh ``MPLCONFIGDIR`` instead,
as on a machine where no list was built yet.

``--checkout DIR`` (repeatable) puts a checkout first on ``PYTHONPATH`` (the kernels inherit it);
with two, their kernels take turns, so a change is compared with its parent in one run on a machine
whose speed drifts. A benchmark, not a test: it never fails on time.

Usage: ``python bench/bench_kernel_start.py [--repeats 7] [--lang en|zh] [--cold-fonts]
[--checkout OLD --checkout NEW]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from jupyter_client.manager import KernelManager

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = {"en": ROOT / "notebooks" / "rrf_explorer.ipynb",
             "zh": ROOT / "notebooks" / "zh" / "rrf_explorer.ipynb"}
IMPORT = "from ragmath.lab.notebook.widgets import build_explorer"


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds used so far by one process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def code_cells(notebook: Path) -> list[str]:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]


def one_kernel(cells: list[str], env: dict[str, str]) -> dict[str, float]:
    """Start a kernel, run the cells, return its CPU at ready and at the end, and the wall time."""
    manager = KernelManager(kernel_name="python3")
    began = time.perf_counter()
    manager.start_kernel(env=env, cwd=str(ROOT / "notebooks"))
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=120)
        pid = manager.provisioner.pid
        ready = cpu_seconds(pid)
        for source in cells:
            reply = client.execute_interactive(source, store_history=False, timeout=120,
                                               output_hook=lambda _msg: None)
            if reply["content"]["status"] != "ok":
                raise RuntimeError(f"a cell failed: {reply['content'].get('evalue')}")
        return {"start": ready, "total": cpu_seconds(pid), "wall": time.perf_counter() - began}
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def import_cpu(env: dict[str, str]) -> float:
    """CPU seconds of a fresh interpreter that imports the explorer (children included)."""
    before = os.times()
    subprocess.run([sys.executable, "-c", IMPORT], env=env, check=True)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def report(runs: list[dict[str, float]], imports: list[float]) -> list[str]:
    totals = [r["total"] for r in runs]
    return [
        f"  explorer imports alone (python -c)  median CPU {statistics.median(imports):.2f} s   "
        f"(runs {', '.join(f'{x:.2f}' for x in imports)})",
        f"  kernel start (to kernel_info)       median CPU "
        f"{statistics.median(r['start'] for r in runs):.2f} s",
        f"  notebook cells                      median CPU "
        f"{statistics.median(r['total'] - r['start'] for r in runs):.2f} s",
        f"  kernel total                        median CPU {statistics.median(totals):.2f} s   "
        f"(runs {', '.join(f'{x:.2f}' for x in totals)}); median wall "
        f"{statistics.median(r['wall'] for r in runs):.2f} s",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="kernels started per checkout (7)")
    parser.add_argument("--lang", choices=sorted(NOTEBOOKS), default="en", help="which explorer (en)")
    parser.add_argument("--cold-fonts", action="store_true", help="a fresh MPLCONFIGDIR for each kernel")
    parser.add_argument("--checkout", action="append", type=Path, default=[],
                        help="a checkout whose ragmath runs (put first on PYTHONPATH); repeat it to "
                        "compare, one kernel of each in turn (default: the ragmath on PYTHONPATH)")
    args = parser.parse_args(argv)
    cells = code_cells(NOTEBOOKS[args.lang])
    checkouts = [path.resolve() for path in args.checkout] or [None]
    print(f"{args.lang} explorer; {args.repeats} kernels per checkout, taking turns; fonts "
          f"{'cold' if args.cold_fonts else 'listed first'}; load average {os.getloadavg()[0]:.1f}")
    runs = {path: [] for path in checkouts}
    imports = {path: [] for path in checkouts}
    with tempfile.TemporaryDirectory(prefix="bench-kernel-") as tmp:
        base = dict(os.environ, MPLCONFIGDIR=str(Path(tmp) / "mpl"))
        subprocess.run([sys.executable, "-c", "import matplotlib.font_manager"], env=base, check=True)
        for i in range(args.repeats):
            for j, path in enumerate(checkouts):
                env = dict(base)
                if path is not None:
                    env["PYTHONPATH"] = os.pathsep.join([str(path), *filter(None, [base.get("PYTHONPATH")])])
                if args.cold_fonts:
                    env["MPLCONFIGDIR"] = str(Path(tmp) / f"mpl-{i}-{j}-import")
                imports[path].append(import_cpu(env))
                if args.cold_fonts:
                    env["MPLCONFIGDIR"] = str(Path(tmp) / f"mpl-{i}-{j}-kernel")
                runs[path].append(one_kernel(cells, env))
    for path in checkouts:
        print(f"ragmath from {path or 'PYTHONPATH'}")
        print("\n".join(report(runs[path], imports[path])))
    print(f"load average after {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
