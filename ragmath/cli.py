"""Command line: ``python -m ragmath evaluate RUN QRELS ...`` and ``python -m ragmath fuse RUN ...``."""

from __future__ import annotations

import argparse
import contextlib
import io as _stdio
import json
import math
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from ragmath._validation import check_k
from ragmath.io._sources import check_paths
from ragmath.io.writers import write_stdout

__all__ = ["main", "build_parser", "CONVENTIONS", "DEFAULT_METRICS"]

DEFAULT_METRICS = ("Recall@10", "Hit@10", "MRR@10", "nDCG@10")

CONVENTIONS = """\
conventions (the workbook's, stated once):
  files     TREC run: qid Q0 docid rank score tag; TREC qrels: qid 0 docid grade;
            .csv / .jsonl: columns question,id,score (or rank) / question,id,grade.
            A line starting with # is a comment. A malformed line is refused, naming
            file, line and field; nothing is skipped. '-' reads standard input, once.
  output    UTF-8. -o FILE replaces a file (or a symlink's target) whole once complete,
            from a temporary .FILE.ragmath-tmp-* beside it; a named pipe or a device is
            written into; an input is never an output.
  order     a run is ordered by score, descending; ties by ID ascending (trec_eval: ID
            descending). The rank column is checked (an integer) but not used, as in trec_eval.
  metrics   Recall@K = found relevant / all relevant (not min(K, |R|)); Hit@K = any relevant
            in the top K (trec_eval success); MRR@K = 1/rank of the first relevant within K,
            else 0; nDCG@K gain 2^g-1 (--gain linear: g, as trec_eval's ndcg_cut), IDCG from
            all labels. Relevant = grade > 0.
  questions labelled with no relevant item: no-answer, outside every mean; labelled but
            absent from the run: missing, scored 0 and in the means; in the run but not
            labelled: unjudged, not scored. Each group is listed (stderr for csv/json).
  fuse      RRF score = sum over runs of 1/(k + rank), rank from 1 after ordering each run as
            above; a run lacking an item adds nothing; ties by ID ascending.
exit status: 0 done; 2 bad input or usage, or output that cannot be written (a message,
  no traceback); 1 an internal error (one line; please report it); 141 the output pipe
  closed early (| head)."""


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so main() can return the status."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(f"{self.prog}: error: {message}")


class _UsageError(Exception):
    pass


_DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_METRIC = re.compile(r"[A-Za-z]+@[0-9]+")


def _rrf_k(text: str) -> float:
    """``--k``: a finite number > 0 written with ASCII digits."""
    value = float(text) if _DECIMAL.fullmatch(text) else math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"k must be > 0, a finite number such as 60; got {text!r}")
    return value


def _window(text: str) -> int:
    """``--window``: a whole number from 1 to MAX_K written with ASCII digits."""
    if not re.fullmatch(r"[0-9]+", text):
        raise argparse.ArgumentTypeError(f"window must be a whole number such as 20, got {text!r}")
    try:
        return check_k(int(text), "window")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _check_metrics(names: Sequence[str]) -> list[str]:
    """Metric names ``Name@K`` with an ASCII K from 1 to MAX_K (the library parses the name)."""
    for name in names:
        if not _METRIC.fullmatch(name):
            raise ValueError(f"cannot parse metric {name!r}: write Name@K with digits 0-9, e.g. nDCG@10")
        check_k(int(name.split("@")[1]), f"K in {name}")
    return list(names)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m ragmath`` (subcommands evaluate and fuse).

    >>> build_parser().parse_args(["fuse", "a.trec", "b.trec", "--k", "10"]).k
    10.0
    """
    parser = _Parser(
        prog="python -m ragmath",
        description="Score a RAG retriever's run against labels, or fuse runs with RRF.",
        epilog=CONVENTIONS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="{evaluate,fuse}", parser_class=_Parser)

    ev = sub.add_parser(
        "evaluate",
        help="means (and per-question values) of Recall/Hit/MRR/nDCG@K",
        description="Score RUN against QRELS. Example: python -m ragmath evaluate run.trec "
        "qrels.trec -m Recall@10 -m nDCG@10",
        epilog=CONVENTIONS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ev.add_argument("run", metavar="RUN", help="run file (TREC, .csv or .jsonl; - for standard input)")
    ev.add_argument("qrels", metavar="QRELS", help="labels file (TREC qrels, .csv or .jsonl; - for stdin)")
    ev.add_argument("-m", "--metric", action="append", dest="metrics", metavar="NAME@K",
                    help="Recall@K, Hit@K, MRR@K or nDCG@K; repeat for several "
                         f"(default: {' '.join(DEFAULT_METRICS)})")
    ev.add_argument("--gain", choices=("exp", "linear"), default="exp",
                    help="nDCG gain: exp = 2^g-1 (default, the article), linear = g (trec_eval)")
    ev.add_argument("--per-question", action="store_true", help="also print one row per question")
    ev.add_argument("--format", choices=("table", "csv", "json"), default="table",
                    help="output format (default: table)")

    fu = sub.add_parser(
        "fuse",
        help="Reciprocal Rank Fusion of several runs, written as a run",
        description="Fuse RUN files with RRF. Example: python -m ragmath fuse bm25.trec "
        "dense.trec --k 60 -o fused.trec",
        epilog=CONVENTIONS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    fu.add_argument("runs", metavar="RUN", nargs="+", help="run files (TREC, .csv or .jsonl)")
    fu.add_argument("--k", type=_rrf_k, default=60.0, help="RRF constant k > 0 (default 60)")
    fu.add_argument("--window", type=_window, default=None,
                    help="use only each run's top N per question before fusing")
    fu.add_argument("-o", "--output", metavar="OUT",
                    help="output file (default: standard output); .csv/.jsonl by extension")
    fu.add_argument("--tag", default="rrf", help="run tag written in the TREC file (default rrf)")
    fu.add_argument("--format", choices=("trec", "csv", "jsonl"), default=None,
                    help="output format (default: from OUT's extension, else trec)")
    return parser


def _format_value(value: float) -> str:
    return "n/a" if isinstance(value, float) and math.isnan(value) else f"{value:.4f}"


def _groups(result) -> dict[str, list]:
    groups = {
        "missing": list(result.missing),
        "no_answer": list(result.no_answer),
        "unjudged": list(result.unjudged),
    }
    if any(m.startswith("nDCG") for m in result.metrics):
        groups["ndcg_undefined"] = list(result.ndcg_undefined)
    return groups


def _json_value(value):
    if isinstance(value, float) and math.isnan(value):
        return None
    return value


def _evaluate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ragmath.evaluation import evaluate

    metrics = _check_metrics(args.metrics or DEFAULT_METRICS)
    check_paths([args.run, args.qrels])
    result = evaluate(Path(args.run), Path(args.qrels), metrics, gain=args.gain)
    if args.format == "table":
        text = result.report() + "\n"
        if args.per_question:
            table = result.per_question.copy()
            text += "\nper question:\n" + table.to_string(float_format=lambda v: f"{v:.4f}") + "\n"
        _emit(out, text)
        return 0
    # Machine-readable output on stdout; the groups kept apart go to stderr as well.
    err.write(_groups_text(result) + "\n")
    if args.format == "csv":
        if args.per_question:
            _emit(out, result.per_question.to_csv())
        else:
            _emit(out, result.table().reset_index().to_csv(index=False))
        return 0
    payload = {
        "metrics": list(result.metrics),
        "gain": result.gain,
        "questions_in_means": result.n_scored,
        "means": {m: _json_value(float(result.means[m])) for m in result.metrics},
        **_groups(result),
    }
    if args.per_question:
        payload["per_question"] = {
            str(q): {m: _json_value(float(v)) for m, v in row.items()}
            for q, row in result.per_question.iterrows()
        }
    _emit(out, json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
    return 0


def _emit(out: TextIO | None, text: str) -> None:
    """``text`` onto the command's output: standard output as UTF-8, every byte checked."""
    if out is None or out is sys.stdout:
        write_stdout(text.encode("utf-8"))
    else:
        out.write(text)


def _groups_text(result) -> str:
    lines = []
    names = {
        "missing": "missing from the run (scored 0, in the means)",
        "no_answer": "no-answer (no relevant item; outside every mean)",
        "unjudged": "unjudged (in the run, not labelled; not scored)",
        "ndcg_undefined": "nDCG undefined (IDCG = 0; outside the nDCG mean)",
    }
    for key, members in _groups(result).items():
        shown = ", ".join(map(str, members[:20])) + (" ..." if len(members) > 20 else "")
        lines.append(f"{names[key]}: {len(members)}" + (f" [{shown}]" if members else ""))
    return "\n".join(lines)


def _fuse(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ragmath import fuse_runs
    from ragmath.io import write_run

    check_paths(args.runs, args.output)
    named = {}
    for path in args.runs:
        name = path if path not in named else f"{path}#{len(named) + 1}"
        named[name] = Path(path)
    frame = fuse_runs(named, k=args.k, window=args.window, as_frame="polars")
    if args.output and args.output != "-":
        write_run(frame, args.output, format=args.format, tag=args.tag)
    else:
        write_run(frame, "-" if out is None or out is sys.stdout else out, format=args.format or "trec",
                  tag=args.tag)
    n_questions = frame["question"].n_unique()
    where = args.output if args.output else "standard output"
    err.write(
        f"fused {len(args.runs)} run(s) with k={args.k:g}"
        + (f", window {args.window}" if args.window else "")
        + f": {n_questions} questions, {len(frame)} results -> {where}\n"
    )
    return 0


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    """Run the command line; returns the exit status (0 done, 2 bad input or usage, 141 closed pipe).

    Output goes to ``stdout`` (default: standard output, written as UTF-8 with every byte
    checked, so that a full disk is exit 2, never a quiet truncated file); inputs are checked
    with :func:`ragmath.io._sources.check_paths` before anything is read.

    >>> import io
    >>> main(["--help"], stdout=io.StringIO())
    0
    """
    out = stdout if stdout is not None else sys.stdout  # None: standard output is closed
    err = stderr if stderr is not None else (sys.stderr or _stdio.StringIO())
    parser = build_parser()
    command = "command line"
    try:
        printed = _stdio.StringIO()  # argparse prints --help on sys.stdout: checked when emitted
        try:
            with contextlib.redirect_stdout(printed):
                args = parser.parse_args(list(argv) if argv is not None else None)
        except _UsageError as exc:
            err.write(f"{exc}\n(see python -m ragmath --help)\n")
            return 2
        except SystemExit as exc:  # --help / --version printed by argparse
            _emit(out, printed.getvalue())
            return int(exc.code or 0)
        if args.command is None:
            _emit(out, parser.format_help())
            return 2
        command = args.command
        if args.command == "evaluate":
            return _evaluate(args, out, err)
        return _fuse(args, out, err)
    except BrokenPipeError:
        return _closed_pipe()
    except (ValueError, OSError) as exc:  # bad input: a file, a line, a number, a name; a failed write
        err.write(f"ragmath {command}: error: {_one_line(exc)}\n")
        return 2
    except KeyboardInterrupt:
        err.write("interrupted\n")
        return 130
    except Exception as exc:  # a bug, not bad input: one line, exit 1
        err.write(
            f"ragmath {command}: internal error ({type(exc).__name__}: {_one_line(exc)}); "
            "please report it with the command you ran\n"
        )
        return 1


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= 400 else text[:400] + " ..."


def _closed_pipe() -> int:
    """The reader of our output went away (``| head``): stop quietly, as Unix tools do."""
    try:  # further writes (and the interpreter's final flush) must not fail again
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 141
