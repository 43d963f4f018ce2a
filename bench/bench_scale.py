"""ragmath at scale vs pytrec_eval and ranx: evaluation and RRF of large TREC runs.

Builds, with a fixed seed, N questions x 100 results (1-10 relevant per question, grades 1-3),
writes them as TREC files in a temporary folder, then times, in rounds (--repeats, default 3):
each round runs every tool once, one after the other, each in its own process, so a ratio is
taken between neighbouring runs and the host's drift in speed mostly cancels; a time ratio is the
median of the rounds' ratios (the ratio of the median times is printed too).

(a) files on disk -> the four means at K=10 (Recall, Hit, MRR, nDCG):
    ragmath   evaluate(run_path, qrels_path, ..., gain="linear") (phases: io.run_table(path, top=K),
              which reads the run a slice at a time and keeps each question's top K, +
              io.qrels_table, then the grade matrix and the four metrics); also evaluate() on pandas
              DataFrames already in memory (io.run_table / qrels_table as pandas, not timed)
    pytrec_eval  parse_run + parse_qrel + cut the run to its top K (so trec_eval's recip_rank,
              which ignores cut-offs, is MRR@10) + RelevanceEvaluator(recall.10, success.10,
              recip_rank, ndcg_cut.10).evaluate
    ranx      Qrels.from_file + Run.from_file (dict based, not from_df) + evaluate(recall@10,
              hit_rate@10, mrr@10, ndcg@10); numba compiled first on a small input, compile
              time reported apart.
    nDCG here is linear-gain (trec_eval's ndcg_cut and ranx's ndcg), so all three compute the
    same quantity; the article's exponential gain is ragmath's default elsewhere.
(b) RRF (k=60) of two such runs: ragmath fuse_runs(..., as_frame="polars") vs
    ranx.fuse(method="rrf", norm=None); each gives the fused run in memory.

Each tool runs in its own process (python bench_scale.py --worker ...), which reports its
times and its peak resident memory (VmHWM, imports included). The scores are
tie-free, so every tool orders each ranking the same way and all must agree on the means (and
the fused scores); the script checks it and prints the largest difference.

Usage: python bench/bench_scale.py [--questions 30000 100000] [--repeats 3]   (make bench runs it)
Prints every figure at each size, then a summary with a met / not met verdict per target.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from statistics import median

import numpy as np

METRICS = ["Recall@10", "Hit@10", "MRR@10", "nDCG@10"]
K = 10
RRF_K = 60
RESULTS = 100
CORPUS = 1 << 21  # doc IDs d0 .. d2097151; a power of two, so odd strides visit distinct docs


# --------------------------------------------------------------------------- data


def _write_lines(path: str, lines_iter) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        for chunk in lines_iter:
            handle.write(chunk)


def build_data(folder: str, questions: int, seed: int) -> dict:
    """Write run1.trec, run2.trec and qrels.trec for ``questions`` questions; return their paths."""
    rng = np.random.default_rng(seed)
    n, r = questions, RESULTS
    base = rng.integers(0, CORPUS, size=n)
    stride = rng.integers(0, CORPUS // 2, size=n) * 2 + 1

    def docs(offsets: np.ndarray) -> np.ndarray:  # offsets: (n, m) positions in each sequence
        return (base[:, None] + offsets * stride[:, None]) % CORPUS

    run1 = docs(np.broadcast_to(np.arange(r), (n, r)))
    # Run 2 keeps 50 of run 1's documents and adds 50 of its own, in a new order.
    keep = np.argsort(rng.random((n, r)), axis=1)[:, : r // 2]
    fresh = docs(np.broadcast_to(np.arange(r + 20, r + 20 + r // 2), (n, r // 2)))
    run2 = np.concatenate([np.take_along_axis(run1, keep, axis=1), fresh], axis=1)
    run2 = np.take_along_axis(run2, np.argsort(rng.random((n, r)), axis=1), axis=1)

    def scores() -> np.ndarray:
        s = -np.sort(-rng.random((n, r)), axis=1)
        if (np.diff(s, axis=1) == 0).any():
            raise RuntimeError("tied scores drawn; change the seed")
        return s

    s1, s2 = scores(), scores()
    # Labels: 1-10 relevant per question, grades 1-3; most sit in run 1 (near the top more
    # often), about one in five is a document run 1 never retrieved.
    n_rel = rng.integers(1, 11, size=n)
    priority = rng.exponential(size=(n, r)) * (1.0 + np.arange(r) / 10.0)
    position = np.argsort(priority, axis=1)[:, :10]
    labelled = np.take_along_axis(run1, position, axis=1)
    unseen = docs(np.broadcast_to(np.arange(r, r + 10), (n, 10)))
    labelled = np.where(rng.random((n, 10)) < 0.2, unseen, labelled)
    grades = rng.integers(1, 4, size=(n, 10))

    paths = {name: os.path.join(folder, f"{name}.trec") for name in ("run1", "run2", "qrels")}
    qnames = [f"q{i}" for i in range(n)]
    step = 5000

    def run_lines(doc_ids: np.ndarray, score: np.ndarray, tag: str):
        for lo in range(0, n, step):
            hi = min(lo + step, n)
            d = doc_ids[lo:hi].tolist()
            s = score[lo:hi].tolist()
            yield "".join(
                f"{qnames[lo + i]} Q0 d{d[i][j]} {j + 1} {s[i][j]!r} {tag}\n"
                for i in range(hi - lo)
                for j in range(r)
            )

    def qrels_lines():
        for lo in range(0, n, step):
            hi = min(lo + step, n)
            d = labelled[lo:hi].tolist()
            g = grades[lo:hi].tolist()
            yield "".join(
                f"{qnames[lo + i]} 0 d{d[i][j]} {g[i][j]}\n"
                for i in range(hi - lo)
                for j in range(int(n_rel[lo + i]))
            )

    _write_lines(paths["run1"], run_lines(run1, s1, "run1"))
    _write_lines(paths["run2"], run_lines(run2, s2, "run2"))
    _write_lines(paths["qrels"], qrels_lines())
    return paths


# --------------------------------------------------------------------------- workers


class _Clock:
    """Wall and CPU (this process, all threads) time since creation."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def lap(self) -> tuple[float, float]:
        return time.perf_counter() - self.wall, time.process_time() - self.cpu


def _rss_mb() -> float:
    """Peak resident memory of this process so far, MiB.

    /proc's VmHWM belongs to this program's own memory map; getrusage's ru_maxrss would also count
    what the parent (the driver, which built the data) held when it started the worker.
    """
    try:
        with open("/proc/self/status") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _ranx_warmup(folder: str) -> float:
    """Compile ranx's numba functions on a small copy of the data's own format.

    numba compiles one version per doc-ID array dtype (``<U{longest ID}``), so the warm-up uses IDs
    as long as the data's; it uses 20 questions, since evaluate() on fewer than 10 questions drops
    numba to one thread for the rest of the process.
    """
    from ranx import Qrels, Run, evaluate, fuse

    t0 = time.perf_counter()
    width = len(str(CORPUS - 1))
    paths = {}
    for name, line in (("run1", "w{i} Q0 d{d} {r} {s!r} w\n"), ("run2", "w{i} Q0 d{d} {r} {s!r} w\n"),
                       ("qrels", "w{i} 0 d{d} {g}\n")):
        path = os.path.join(folder, f"warmup_{name}.trec")
        with open(path, "w") as handle:
            for i in range(20):
                for r in range(1, 13):
                    d = str(r + (7 if name == "run2" else 0)).rjust(width, "1")
                    handle.write(line.format(i=i, d=d, r=r, s=1.0 / r, g=1 + r % 3))
        paths[name] = path
    qrels = Qrels.from_file(paths["qrels"], kind="trec")
    run = Run.from_file(paths["run1"], kind="trec")
    run2 = Run.from_file(paths["run2"], kind="trec")
    evaluate(qrels, run, ["recall@10", "hit_rate@10", "mrr@10", "ndcg@10"])
    fuse(runs=[run, run2], method="rrf", norm=None, params={"k": RRF_K})
    return time.perf_counter() - t0




def _fused_summary(count: int, scores, sample: dict) -> dict:
    """What the driver compares: pair count, exact sum of all fused scores, sampled questions."""
    return {"pairs": int(count), "score_sum": math.fsum(scores), "sample": sample}


def _timed(function, repeats: int) -> tuple[dict, object]:
    """Run ``function`` ``repeats`` times; wall and CPU seconds of each, and the last result."""
    walls, cpus, result = [], [], None
    for _ in range(repeats):
        result = None
        gc.collect()
        clock = _Clock()
        result = function()
        wall, cpu = clock.lap()
        walls.append(wall)
        cpus.append(cpu)
    return {"total_s": walls, "total_cpu_s": cpus}, result


def worker_ragmath(task: str, paths: dict, repeats: int, sample: list) -> dict:
    from ragmath import evaluate, fuse_runs, io
    from ragmath.evaluation import grade_matrix
    from ragmath.fusion import _fuse_tables  # the compute step of fuse_runs, timed apart
    from ragmath.ranking import order_run_table
    from ragmath.registry import METRICS as REGISTRY
    from ragmath.registry import parse_metric

    out: dict = {"import_rss_mb": _rss_mb()}
    if task == "evaluate":
        times, result = _timed(
            lambda: evaluate(paths["run1"], paths["qrels"], METRICS, gain="linear"), repeats
        )
        out.update(times)
        out["means"] = {m: float(result.means[m]) for m in METRICS}
        out["groups"] = {"questions": int(result.n_scored), "missing": len(result.missing),
                         "no_answer": len(result.no_answer), "unjudged": len(result.unjudged)}
        del result

        def split():  # the same calls evaluate() makes for files, timed in two phases
            clock = _Clock()
            run = io.run_table(paths["run1"], top=K)
            qrels = io.qrels_table(paths["qrels"])
            load = clock.lap()
            top = order_run_table(run, top=K)
            grades = grade_matrix(top, qrels, qrels["question"].unique(maintain_order=True).to_list(), K)
            for name, cutoff in (parse_metric(m) for m in METRICS):
                REGISTRY[name.lower()].compute(grades, cutoff, "linear")
            return load, clock.lap()
    else:
        times, fused = _timed(
            lambda: fuse_runs([paths["run1"], paths["run2"]], k=RRF_K, as_frame="polars"), repeats
        )
        out.update(times)
        out["peak_rss_mb"] = _rss_mb()  # before the checks below allocate anything
        picked = fused.filter(fused["question"].is_in(sample))
        sample_out: dict = {}
        for q, d, v in zip(picked["question"].to_list(), picked["id"].to_list(),
                           picked["score"].to_list(), strict=True):
            sample_out.setdefault(q, {})[d] = v
        out["fused"] = _fused_summary(len(fused), fused["score"].to_numpy(), sample_out)
        del fused, picked

        def split():  # the same calls fuse_runs() makes for files, timed in two phases
            clock = _Clock()
            tables = [io.run_table(paths["run1"]), io.run_table(paths["run2"])]
            load = clock.lap()
            _fuse_tables(tables, float(RRF_K), None)
            return load, clock.lap()

    # The phase split is timed apart from the repeats above (median of as many runs).
    laps = []
    for _ in range(repeats):
        gc.collect()
        laps.append(split())
    out["phases"] = {
        "load_s": median(load[0] for load, _ in laps),
        "load_cpu_s": median(load[1] for load, _ in laps),
        "compute_s": median(done[0] - load[0] for load, done in laps),
        "compute_cpu_s": median(done[1] - load[1] for load, done in laps),
    }
    out.setdefault("peak_rss_mb", _rss_mb())
    if task == "evaluate":  # a reader who already holds pandas DataFrames (loaded before timing)
        import pandas as pd

        run_frame = pd.DataFrame(io.run_table(paths["run1"]).to_dict(as_series=False))
        qrels_frame = pd.DataFrame(io.qrels_table(paths["qrels"]).to_dict(as_series=False))
        frame_times, result = _timed(
            lambda: evaluate(run_frame, qrels_frame, METRICS, gain="linear"), repeats
        )
        out["frames_s"] = frame_times["total_s"]
        out["frames_means"] = {m: float(result.means[m]) for m in METRICS}
    return out


def worker_pytrec_eval(task: str, paths: dict, repeats: int, sample: list) -> dict:
    import pytrec_eval

    measures = {f"recall.{K}", f"success.{K}", "recip_rank", f"ndcg_cut.{K}"}
    names = {f"recall_{K}": "Recall@10", f"success_{K}": "Hit@10", "recip_rank": "MRR@10",
             f"ndcg_cut_{K}": "nDCG@10"}
    phases: dict = {key: [] for key in ("load_s", "load_cpu_s", "cut_s", "cut_cpu_s",
                                        "compute_s", "compute_cpu_s")}

    def once():
        clock = _Clock()
        with open(paths["run1"]) as handle:
            run = pytrec_eval.parse_run(handle)
        with open(paths["qrels"]) as handle:
            qrels = pytrec_eval.parse_qrel(handle)
        load = clock.lap()
        # trec_eval's recip_rank ignores cut-offs: cut the run to its top K first (by score; the
        # data has no tied scores, so trec_eval's own tie rule, docid descending, never applies).
        cut = {
            q: dict(sorted(docs.items(), key=lambda item: item[1], reverse=True)[:K])
            for q, docs in run.items()
        }
        del run
        cut_done = clock.lap()
        per_question = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(cut)
        means = {
            names[m]: math.fsum(v[m] for v in per_question.values()) / len(per_question)
            for m in names
        }
        done = clock.lap()
        steps = (("load", load), ("cut", (cut_done[0] - load[0], cut_done[1] - load[1])),
                 ("compute", (done[0] - cut_done[0], done[1] - cut_done[1])))
        for key, (wall, cpu) in steps:
            phases[f"{key}_s"].append(wall)
            phases[f"{key}_cpu_s"].append(cpu)
        return means, len(per_question)

    out: dict = {"import_rss_mb": _rss_mb()}
    times, (means, n) = _timed(once, repeats)
    out.update(times)
    out["phases"] = {key: median(values) for key, values in phases.items()}
    out["means"] = means
    out["groups"] = {"questions": n}
    out["peak_rss_mb"] = _rss_mb()
    return out


def worker_ranx(task: str, paths: dict, repeats: int, sample: list) -> dict:
    from ranx import Qrels, Run, evaluate, fuse

    out: dict = {"import_rss_mb": _rss_mb()}
    out["compile_s"] = _ranx_warmup(os.path.dirname(paths["run1"]))
    names = {"recall@10": "Recall@10", "hit_rate@10": "Hit@10", "mrr@10": "MRR@10",
             "ndcg@10": "nDCG@10"}
    phases: dict = {key: [] for key in ("load_s", "load_cpu_s", "compute_s", "compute_cpu_s")}

    def once():
        clock = _Clock()
        if task == "evaluate":
            qrels = Qrels.from_file(paths["qrels"], kind="trec")
            run = Run.from_file(paths["run1"], kind="trec")
            load = clock.lap()
            scores = evaluate(qrels, run, list(names))
            result = {names[m]: float(v) for m, v in scores.items()}
        else:
            a = Run.from_file(paths["run1"], kind="trec")
            b = Run.from_file(paths["run2"], kind="trec")
            load = clock.lap()
            result = fuse(runs=[a, b], method="rrf", norm=None, params={"k": RRF_K})
        done = clock.lap()
        phases["load_s"].append(load[0])
        phases["load_cpu_s"].append(load[1])
        phases["compute_s"].append(done[0] - load[0])
        phases["compute_cpu_s"].append(done[1] - load[1])
        return result

    times, result = _timed(once, repeats)
    out.update(times)
    out["phases"] = {key: median(values) for key, values in phases.items()}
    out["peak_rss_mb"] = _rss_mb()
    if task == "evaluate":
        out["means"] = result
    else:
        fused = result.run
        count = sum(len(fused[q]) for q in fused)
        scores = (float(v) for q in fused for v in fused[q].values())
        sample_out = {q: {d: float(v) for d, v in fused[q].items()} for q in sample if q in fused}
        out["fused"] = _fused_summary(count, scores, sample_out)
    return out


WORKERS = {"ragmath": worker_ragmath, "pytrec_eval": worker_pytrec_eval, "ranx": worker_ranx}


# --------------------------------------------------------------------------- driver


def _run_worker(tool: str, task: str, paths: dict, repeats: int, sample: list) -> dict:
    command = [sys.executable, os.path.abspath(__file__), "--worker", tool, "--task", task,
               "--paths", json.dumps(paths), "--repeats", str(repeats),
               "--sample", json.dumps(sample)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{tool} {task} worker failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _machine() -> dict:
    import pandas as pd

    model = platform.processor() or "unknown"
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        for line in lscpu.splitlines():
            if line.startswith("Model name:"):
                model = line.split(":", 1)[1].strip()
    except OSError:
        pass
    versions = {"python": platform.python_version(), "numpy": np.__version__,
                "pandas": pd.__version__}
    for name in ("pytrec_eval", "ranx", "numba"):
        try:
            from importlib.metadata import version

            versions[name] = version("pytrec-eval-terrier" if name == "pytrec_eval" else name)
        except Exception:  # noqa: BLE001 - report what is there
            versions[name] = "not installed"
    mem_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return {"cpu": model, "cores": os.cpu_count(), "memory_gib": round(mem_gib, 1), **versions}




def _fmt(seconds: float) -> str:
    return f"{seconds:6.2f} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, nargs="+", default=[30_000, 100_000],
                        help="one or more data sizes, in questions (default: 30000 100000)")
    parser.add_argument("--repeats", type=int, default=3,
                        help="rounds: each runs every tool once (medians shown)")
    parser.add_argument("--tasks", nargs="+", choices=("evaluate", "fuse"), default=["evaluate", "fuse"],
                        help="which comparisons to run (default: both; a task left out is not judged)")
    parser.add_argument("--seed", type=int, default=20260101, help="data seed")
    parser.add_argument("--json", help="also write the figures to this JSON file")
    parser.add_argument("--keep", help="write the data here and keep it (default: a temp folder)")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--task", help=argparse.SUPPRESS)
    parser.add_argument("--paths", help=argparse.SUPPRESS)
    parser.add_argument("--sample", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.worker:
        result = WORKERS[args.worker](args.task, json.loads(args.paths), args.repeats,
                                      json.loads(args.sample))
        print(json.dumps(result))
        return 0

    status, summary = 0, []
    for questions in args.questions:
        folder = os.path.join(args.keep, str(questions)) if args.keep else tempfile.mkdtemp(
            prefix="ragmath-bench-")
        os.makedirs(folder, exist_ok=True)
        try:
            code, lines = _drive(args, folder, questions)
        finally:
            if not args.keep:
                shutil.rmtree(folder, ignore_errors=True)
        status = max(status, code)
        summary += [f"{questions:,} questions x {RESULTS}:"] + lines
    print("== summary (targets apply at 100,000 x 100, and RRF time also at 30,000 x 100)")
    print("\n".join(summary))
    return status


def _merge(rounds: list[dict]) -> dict:
    """One tool's figures over its rounds (one process each): every time kept, phases as medians,
    peak memory the largest; ``same_answers`` says whether every round gave the same means (and
    fused run)."""
    out = dict(rounds[0])
    for key in ("total_s", "total_cpu_s", "frames_s"):
        if key in out:
            out[key] = [value for res in rounds for value in res[key]]
    out["phases"] = {key: median(res["phases"][key] for res in rounds) for key in out["phases"]}
    out["peak_rss_mb"] = max(res["peak_rss_mb"] for res in rounds)
    out["import_rss_mb"] = median(res["import_rss_mb"] for res in rounds)
    if "compile_s" in out:
        out["compile_s"] = median(res["compile_s"] for res in rounds)
    out["same_answers"] = all(res[key] == out[key] for res in rounds
                              for key in ("means", "fused", "frames_means") if key in out)
    return out


def _line(tool: str, res: dict) -> str:
    ph = res["phases"]
    text = (f"  {tool:<11} total {_fmt(median(res['total_s']))} (CPU {_fmt(median(res['total_cpu_s']))})"
            f"   load {_fmt(ph['load_s'])}  compute {_fmt(ph['compute_s'])}")
    if "cut_s" in ph:
        text += f" + cut to K {_fmt(ph['cut_s'])}"
    text += f"   peak RSS {res['peak_rss_mb']:6.0f} MiB"
    if "compile_s" in res:
        text += f"   (numba warm-up {res['compile_s']:.1f} s, not timed)"
    text += f"   [after imports {res['import_rss_mb']:.0f} MiB]"
    return text + ("" if res["same_answers"] else "   (ANSWERS DIFFER BETWEEN ROUNDS)")


def _drive(args, folder: str, questions: int) -> tuple[int, list[str]]:
    machine = _machine()
    print("machine:", ", ".join(f"{k} {v}" for k, v in machine.items()))
    clock = _Clock()
    kept = {name: os.path.join(folder, f"{name}.trec") for name in ("run1", "run2", "qrels")}
    if args.keep and all(os.path.exists(p) for p in kept.values()):
        paths = kept  # built earlier with --keep (same size and seed: the folder is named by size)
    else:
        paths = build_data(folder, questions, args.seed)
    sizes = {k: os.path.getsize(p) / 2**20 for k, p in paths.items()}
    print(f"data: {questions} questions x {RESULTS} results (1-10 relevant, grades 1-3), seed "
          f"{args.seed}, built in {clock.lap()[0]:.0f} s; files (MiB): "
          + ", ".join(f"{k} {v:.0f}" for k, v in sizes.items()))
    print(f"{args.repeats} rounds; in each round every tool runs once, in its own process, one after "
          "the other, so each ratio is taken between neighbouring runs (the host's speed drifts); "
          "times are medians over the rounds; CPU = process time (all threads); load/compute: "
          "medians of as many separately timed runs; peak memory: the largest of the rounds\n")
    rng = np.random.default_rng(args.seed + 1)
    sample = [f"q{i}" for i in sorted(rng.choice(questions, min(1000, questions),
                                                  replace=False).tolist())]

    figures: dict = {"machine": machine, "questions": questions, "results": RESULTS,
                     "seed": args.seed, "repeats": args.repeats, "evaluate": {}, "fuse": {}}
    ok = True
    plan = [(task, tools) for task, tools in (("evaluate", ("ragmath", "pytrec_eval", "ranx")),
                                              ("fuse", ("ragmath", "ranx"))) if task in args.tasks]
    for task, tools in plan:
        title = ("(a) files -> Recall/Hit/MRR/nDCG@10 means" if task == "evaluate"
                 else f"(b) RRF (k={RRF_K}) of two runs, files -> fused run in memory")
        print(f"== {title}")
        rounds: dict = {tool: [] for tool in tools}
        for _ in range(args.repeats):
            for tool in tools:
                rounds[tool].append(_run_worker(tool, task, paths, 1, sample))
        for tool in tools:
            figures[task][tool] = _merge(rounds[tool])
            ok &= figures[task][tool]["same_answers"]
            print(_line(tool, figures[task][tool]))
        ours = figures[task]["ragmath"]
        for tool in tools[1:]:
            other = figures[task][tool]
            per_round = [a / b for a, b in zip(ours["total_s"], other["total_s"], strict=True)]
            ratios = {
                "time": median(per_round),
                "time_rounds": per_round,
                "time_of_medians": median(ours["total_s"]) / median(other["total_s"]),
                "cpu_time": median(ours["total_cpu_s"]) / median(other["total_cpu_s"]),
                "compute_time": ours["phases"]["compute_s"] / other["phases"]["compute_s"],
                "memory": ours["peak_rss_mb"] / other["peak_rss_mb"],
            }
            figures[task][f"ratio_vs_{tool}"] = ratios
            print(f"  ragmath / {tool}: time {ratios['time']:.3f} (median of the rounds: "
                  + ", ".join(f"{r:.3f}" for r in per_round)
                  + f"; ratio of the medians {ratios['time_of_medians']:.3f}; CPU {ratios['cpu_time']:.3f}; "
                  f"compute step alone {ratios['compute_time']:.3f}), peak memory {ratios['memory']:.3f}")
        if task == "evaluate":
            for tool in tools[1:]:
                diff = max(abs(ours["means"][m] - figures[task][tool]["means"][m]) for m in METRICS)
                agree = diff <= 1e-9
                ok &= agree
                print(f"  means ragmath vs {tool}: max |diff| {diff:.1e} "
                      f"{'(agree)' if agree else '(DISAGREE)'}")
            print("  means: " + ", ".join(f"{m} {ours['means'][m]:.6f}" for m in METRICS)
                  + f" over {ours['groups']['questions']} questions")
            frames_s = median(ours["frames_s"])
            diff = max(abs(ours["means"][m] - ours["frames_means"][m]) for m in METRICS)
            ok &= diff <= 1e-12
            print(f"  ragmath evaluate(pandas DataFrames already in memory): {_fmt(frames_s)} "
                  f"(files: {_fmt(median(ours['total_s']))}); means max |diff| vs files {diff:.1e}")
        else:
            mine, theirs = ours["fused"], figures[task]["ranx"]["fused"]
            worst = 0.0
            same = mine["pairs"] == theirs["pairs"] and set(mine["sample"]) == set(theirs["sample"])
            for q, items in mine["sample"].items():
                other_items = theirs["sample"].get(q, {})
                same &= set(items) == set(other_items)
                worst = max([worst] + [abs(v - other_items.get(d, math.inf)) for d, v in items.items()])
            sum_diff = abs(mine["score_sum"] - theirs["score_sum"])
            agree = same and worst <= 1e-12 and sum_diff <= 1e-6
            ok &= agree
            print(f"  fused pairs {mine['pairs']} vs {theirs['pairs']}; {len(mine['sample'])} sampled "
                  f"questions: same items {same}, max |score diff| {worst:.1e}; |sum of all scores "
                  f"diff| {sum_diff:.1e} {'(agree)' if agree else '(DISAGREE)'}")
        print()

    ev, fu = figures["evaluate"], figures["fuse"]
    targets = [] if questions != 30_000 or not fu else [
        ("(b) RRF at 30,000 x 100: ragmath time <= 0.25 x ranx", fu["ratio_vs_ranx"]["time"], 0.25),
    ]
    targets += [] if questions != 100_000 or not ev else [
        ("(a) files -> means: ragmath time <= 0.25 x pytrec_eval", ev["ratio_vs_pytrec_eval"]["time"], 0.25),
        ("(a) files -> means: ragmath peak memory <= 0.5 x pytrec_eval",
         ev["ratio_vs_pytrec_eval"]["memory"], 0.5),
        ("(a) DataFrames in memory no slower than files (time ratio <= 1)",
         median(ev["ragmath"]["frames_s"]) / median(ev["ragmath"]["total_s"]), 1.0),
    ]
    targets += [] if questions != 100_000 or not fu else [
        ("(b) RRF: ragmath time <= 0.2 x ranx", fu["ratio_vs_ranx"]["time"], 0.2),
        ("(b) RRF: ragmath peak memory <= 0.15 x ranx", fu["ratio_vs_ranx"]["memory"], 0.15),
    ]
    lines = [] if targets else ["  (no target at this size: the figures above show where start-up counts)"]
    for label, value, limit in targets:
        verdict = "met" if value <= limit else f"not met (by {value / limit - 1:.0%})"
        lines.append(f"  {label}: {value:.3f} {verdict}")
    print("targets:")
    print("\n".join(lines) + "\n")
    figures["targets"] = {label: {"ratio": v, "limit": lim} for label, v, lim in targets}
    if args.json:
        name = args.json if len(args.questions) == 1 else args.json.replace(".json", f"-{questions}.json")
        with open(name, "w") as handle:
            json.dump(figures, handle, indent=2)
    return (0 if ok else 1), lines


if __name__ == "__main__":
    sys.exit(main())
