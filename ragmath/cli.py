"""Command line: ``python -m ragmath evaluate RUN QRELS``, ``compare BASELINE RUN ...``, ``fuse RUN ...``,
``gate BASELINE CANDIDATE``."""

from __future__ import annotations

import argparse
import contextlib
import io as _stdio
import json
import os
import re
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from ragmath.io import check_paths
from ragmath.io.writers import write_stdout
from ragmath.registry import METRICS, known_names
from ragmath.validation import parse_argument

__all__ = ["main", "build_parser", "CONVENTIONS", "DEFAULT_METRICS"]

DEFAULT_METRICS = ("Recall@10", "Hit@10", "MRR@10", "nDCG@10")

CONVENTIONS = """\
conventions (the workbook's, stated once):
  files     TREC run: qid Q0 docid rank score tag; TREC qrels: qid 0 docid grade;
            .csv / .jsonl: columns question,id,score (or rank) / question,id,grade.
            # starts a comment; a malformed line is refused, naming file, line and field.
            A TREC run line with more than six fields is refused (trec_eval ignores fields
            after the run tag); remove them. '-' reads standard input, once.
  output    UTF-8. -o FILE replaces a file (or a symlink's target) whole once complete,
            from a temporary .FILE.ragmath-tmp-* beside it; a named pipe or a device is
            written into; an input is never an output.
  order     a run is ordered by score, descending; ties by ID ascending (trec_eval: ID
            descending). The rank column is checked (an integer) but not used, as in trec_eval.
  metrics   (relevant = grade > 0; --gain linear for trec_eval's nDCG)
{metrics}
  questions labelled with no relevant item: no-answer, outside every mean but Judged@K's;
            labelled but absent from the run: missing, scored 0 and in the means; in the run
            but not labelled: unjudged, not scored. Each group is listed (stderr for csv/json).
  fuse      RRF score = sum over runs of 1/(k + rank) (w/(k + rank) with --weights), ranks from 1
            as ordered above; a run lacking an item adds nothing; ties by ID ascending.
exit status: 0 done; 2 bad input or usage, or output that cannot be written (a message,
  no traceback); 1 an internal error (one line; please report it); 141 the output pipe
  closed early (| head)."""
CONVENTIONS = CONVENTIONS.format(metrics="\n".join(
    textwrap.fill(metric.description, 104, initial_indent=f"    {metric.name + '@K':<9} ",
                  subsequent_indent=" " * 14) for metric in METRICS.values()))


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so main() can return the status."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(f"{self.prog}: error: {message}")


class _UsageError(Exception):
    pass


def _argument(name: str):
    """An argparse type for argument ``name``: its one check (:func:`ragmath.validation.parse_argument`)."""
    def parse(text: str):
        try:
            return parse_argument(name, text)
        except (TypeError, ValueError) as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    return parse


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m ragmath`` (subcommands evaluate, compare and fuse).

    >>> build_parser().parse_args(["fuse", "a.trec", "b.trec", "--k", "10"]).k
    10.0
    """
    raw = argparse.RawDescriptionHelpFormatter
    parser = _Parser(prog="python -m ragmath", epilog=CONVENTIONS, formatter_class=raw,
                     description="Score a RAG retriever's run against labels, or fuse runs with RRF.")
    sub = parser.add_subparsers(dest="command", metavar="{evaluate,compare,fuse,gate}", parser_class=_Parser)

    def command(name: str, summary: str, example: str, epilog: str = CONVENTIONS) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=summary, description=example, epilog=epilog, formatter_class=raw)

    ev = command("evaluate", "means and per-question values of Recall/Hit/MRR/nDCG@K",
                 "Score RUN against QRELS. Example: python -m ragmath evaluate run.trec "
                 "qrels.trec -m Recall@10 -m nDCG@10")
    ev.add_argument("run", metavar="RUN", help="run file (TREC, .csv or .jsonl; - for standard input)")
    ev.add_argument("qrels", metavar="QRELS", help="labels file (TREC qrels, .csv or .jsonl; - for stdin)")
    ev.add_argument("--per-question", action="store_true",
                    help="also print one row per question (csv: a 'row' column, question or mean)")
    _add_scoring(ev, ("table", "csv", "json"))

    co = command("compare",
                 "versions against a baseline: means, paired differences, p-values (Holm), Judged@K",
                 "Compare RUNs with BASELINE on the same questions. Example: python -m ragmath compare "
                 "bm25.trec hybrid.trec rerank=v3/run.trec --qrels qrels.trec -m nDCG@10 -m Recall@10",
                 COMPARE_NOTES + "\n\n" + CONVENTIONS)
    co.add_argument("baseline", metavar="BASELINE", help="the baseline run file (or NAME=PATH)")
    co.add_argument("runs", metavar="RUN", nargs="+", help="run files to compare with it (or NAME=PATH)")
    co.add_argument("--qrels", required=True, metavar="QRELS", help="labels file (TREC qrels, .csv, .jsonl)")
    co.add_argument("--seed", type=int, default=0,
                    help="seed of the bootstrap and of random sign flips (default 0)")
    co.add_argument("--resamples", type=int, default=10_000,
                    help="bootstrap resamples and random sign flips (default 10000)")
    _add_scoring(co, ("table", "csv", "json", "markdown"))

    fu = command("fuse", "fuse runs (RRF, or --norm scores), written as a run",
                 "Fuse RUN files with RRF, or with --norm by a weighted sum of normalised scores. "
                 "Examples: python -m ragmath fuse bm25.trec dense.trec --k 60 -o fused.trec; "
                 "python -m ragmath fuse bm25.trec dense.trec --norm min-max --weights 0.3,0.7")
    fu.add_argument("runs", metavar="RUN", nargs="+", help="run files (TREC, .csv or .jsonl)")
    fu.add_argument("--k", type=_argument("k"), default=None, help="RRF constant k > 0 (default 60)")
    fu.add_argument("--norm", choices=("min-max", "z-score", "l2"), default=None,
                    help="fuse scores, not ranks: normalise each run's scores per question (min-max, "
                         "z-score with the population sd, or l2), then add them with --weights")
    fu.add_argument("--weights", type=_weights, default=None, metavar="W1,W2,...",
                    help="one weight per run, in the order given (default: each 1); with RRF, weighted RRF")
    fu.add_argument("--window", type=_argument("window"), default=None,
                    help="use only each run's top N per question before fusing")
    fu.add_argument("-o", "--output", metavar="OUT",
                    help="output file (default: standard output); .csv/.jsonl by extension")
    fu.add_argument("--tag", default=None,
                    help="run tag written in the TREC file (default: rrf, or the --norm used)")
    fu.add_argument("--format", choices=("trec", "csv", "jsonl"), default=None,
                    help="output format (default: from OUT's extension, else trec)")
    _add_gate(command("gate", "non-inferiority release gate: PASS (0) or FAIL (1)",
                      "Non-inferiority of CANDIDATE to BASELINE: PASS (exit 0) or FAIL (exit 1), and why. "
                      "Example: python -m ragmath gate bm25.trec hybrid.trec --qrels qrels.trec "
                      "--metric nDCG@10 --margin 0.02", GATE_NOTES + "\n\n" + CONVENTIONS))
    return parser


def _add_gate(ga: argparse.ArgumentParser) -> None:
    """gate's options: compare's, with one metric, a margin and alpha."""
    ga.add_argument("baseline", metavar="BASELINE", help="the baseline run file (or NAME=PATH)")
    ga.add_argument("candidate", metavar="CANDIDATE", help="the candidate run file (or NAME=PATH)")
    ga.add_argument("--qrels", required=True, metavar="QRELS", help="labels file (TREC qrels, .csv, .jsonl)")
    ga.add_argument("--margin", required=True, type=_number("margin"), metavar="DELTA",
                    help="the loss allowed, in the metric's units (0 < DELTA < 1), e.g. 0.02")
    ga.add_argument("--alpha", type=_number("alpha"), default=0.05,
                    help="the interval is two-sided 1 - alpha (default 0.05: 95%%, as compare reports)")
    ga.add_argument("--seed", type=int, default=0, help="seed of the bootstrap (default 0)")
    ga.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    _add_scoring(ga, ("table", "json", "markdown"))
    for action in ga._actions:  # one metric here, and no default: a gate states what it decides on
        if action.dest == "metrics":
            action.help, action.required = f"the one metric decided on, one of {known_names()}", True


def _number(name: str):
    """An argparse type: a decimal number (its range is checked by :func:`ragmath.release_gate.gate`)."""
    def parse(text: str) -> float:
        from ragmath.validation import DECIMAL

        if not re.fullmatch(DECIMAL, text.strip()):
            raise argparse.ArgumentTypeError(f"--{name} must be a number such as 0.02, got {text!r}")
        return float(text)
    return parse


def _weights(text: str) -> list[float]:
    """``--weights 0.3,0.7`` as numbers (checked against the number of runs by the fusion)."""
    from ragmath.validation import DECIMAL

    parts = text.split(",")
    if not all(re.fullmatch(DECIMAL, part.strip()) for part in parts):
        raise argparse.ArgumentTypeError(f"give numbers separated by commas, such as 0.3,0.7; got {text!r}")
    return [float(part) for part in parts]


def _add_scoring(parser: argparse.ArgumentParser, formats: tuple[str, ...]) -> None:
    """The options evaluate and compare share: metrics, gain, output format, units and groups."""
    parser.add_argument("-m", "--metric", action="append", dest="metrics", metavar="NAME@K",
                        help=f"one of {known_names()}; repeat for several "
                             f"(default: {' '.join(DEFAULT_METRICS)})")
    parser.add_argument("--gain", choices=("exp", "linear"), default="exp",
                        help="nDCG gain: exp = 2^g-1 (default, the article), linear = g (trec_eval)")
    parser.add_argument("--format", choices=formats, default="table", help="output format (default: table)")
    parser.add_argument("--unit-map", metavar="FILE",
                        help="CSV with columns id,unit: score units (documents, clauses) instead of IDs; "
                             "each ranking keeps a unit's first position, a unit takes its best label")
    parser.add_argument("--groups", metavar="FILE",
                        help="CSV with columns question,group: also a per-group breakdown with each "
                             "group's question count (a warning below 10)")


COMPARE_NOTES = """what compare reports (questions are the unit of sampling):
  mean [ci]     each version's mean with a 95% percentile bootstrap interval over questions
  diff [ci]     mean paired difference RUN - BASELINE, percentile bootstrap interval over questions
  p             two-sided paired randomization (sign-flip) test; exact enumeration when at most 20
                differences are non-zero (zeros flip to themselves), else --resamples seeded flips
  p_holm        Holm's adjustment over every comparison in the table (all runs and metrics)
  W/T/L         questions where RUN is above / equal to / below BASELINE
  effect        diff / standard deviation of the per-question differences
  Judged@K      labelled share of each top K (no-answer questions included); a warning when a
                run's is below 0.9 x the baseline's: its score rests on unlabelled items
  labelled      "n of N": questions of the run with labels, of the N it holds; the means and
                Judged@K are over those n only, and a note names the others (unjudged, not scored)
  Runs are named by their file stem; two equal stems are refused (name them NAME=PATH)."""


GATE_NOTES = """how gate decides (questions are the unit of sampling; the interval is compare's diff [ci]):
  PASS    (exit 0) the two-sided 1 - alpha percentile bootstrap interval of CANDIDATE - BASELINE has
          its lower end above -margin: a one-sided non-inferiority test at level alpha/2
  FAIL    (exit 1) worse by more than the margin: the mean difference, or the whole interval, lies
          below -margin; or too few questions to tell: the interval straddles -margin, and the
          report gives n = ceil(((z_{1-alpha/2} + z_0.8) * sd_d / (margin + diff))^2), the
          questions a pilot like this one needs (power 0.8); also on fewer than ceil(log2(2 / alpha))
          questions (6 at alpha 0.05), where no paired test can decide
  An internal error also exits 1, with one line on standard error and no report."""


def _read_pairs(path: str, key: str, value: str) -> dict[str, str]:
    """A two-column CSV (header naming ``key`` and ``value``) as a dict; a repeated key and a row with
    more fields than the header are refused."""
    return {k: v for k, (v, _line) in _read_rows(path, key, value).items()}


def _read_rows(path: str, key: str, value: str) -> dict[str, tuple[str, int]]:
    """As :func:`_read_pairs`, with the line of the file each key is on: key -> (value, line)."""
    import csv

    rows: dict[str, tuple[str, int]] = {}
    with open(path, encoding="utf-8-sig", newline="") as handle:
        reader = csv.DictReader(handle)
        if not {key, value} <= set(reader.fieldnames or ()):
            raise ValueError(f"{path}: needs a header with the columns {key},{value}; "
                             f"got {reader.fieldnames}")
        for row in reader:
            line = reader.line_num  # the file's line (blank lines skipped by csv are counted)
            if None in row:  # csv puts the fields beyond the header's under None
                raise ValueError(f"{path} line {line}: {len(reader.fieldnames) + len(row[None])} fields "
                                 f"where the header has {len(reader.fieldnames)}; give one {value} per row "
                                 f"(extra: {', '.join(row[None])})")
            k, v = (row[key] or "").strip(), (row[value] or "").strip()
            if not k or not v:
                raise ValueError(f"{path} line {line}: empty {key if not k else value}; every row needs both")
            if k in rows:
                raise ValueError(f"{path} line {line}: {key} {k!r} appears twice; "
                                 f"give each {key} one {value}")
            rows[k] = (v, line)
    return rows


def _score(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """evaluate and compare: read, map to units (--unit-map), score, break down (--groups), print."""
    from ragmath.comparison import compare, markdown, name_runs
    from ragmath.evaluation import evaluate, json_numbers

    comparing = args.command == "compare"
    if comparing and args.resamples < 10_000:
        raise ValueError(f"--resamples must be at least 10000 (got {args.resamples}): fewer make p loose")
    named = name_runs([args.baseline, *args.runs]) if comparing else {"run": args.run}
    check_paths([*named.values(), args.qrels])
    if comparing and ("-" in named.values() or args.qrels == "-"):
        raise ValueError("compare reads every file more than once; give files, not '-' (standard input)")
    runs, qrels = {name: Path(path) for name, path in named.items()}, Path(args.qrels)
    if args.unit_map:
        runs, qrels = _at_units(args.unit_map, runs, qrels)
    metrics = args.metrics or DEFAULT_METRICS
    if comparing:
        result = compare(runs, qrels, metrics, baseline=next(iter(named)), seed=args.seed,
                         n_resamples=args.resamples, gain=args.gain)
        notes = "\n".join(result.notes())
    else:
        result = evaluate(runs["run"], qrels, metrics, gain=args.gain)
        notes = result.groups_text()
    per_question = not comparing and args.per_question
    groups = _groups(args, result, err)
    if args.format == "csv" or (args.format == "json" and not comparing):  # compare's json holds its notes
        err.write(notes + "\n")
    if args.format == "json":
        if comparing:
            payload = {**result.to_dict(), "notes": result.notes(), "seed": args.seed,
                       "resamples": args.resamples}
        else:
            payload = result.to_dict(per_question=per_question)
        if groups is not None:
            payload["groups"] = {str(g): json_numbers(row) for g, row in groups.to_dict("index").items()}
        _emit(out, json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
    elif args.format == "markdown":
        _emit(out, result.to_markdown() + ("" if groups is None else "\n" + markdown(groups.reset_index())))
    elif args.format == "csv":
        if groups is not None:
            table = groups.reset_index()
        elif per_question:
            table = _per_question_rows(result)
        else:
            table = result.table() if comparing else result.table().reset_index()
        _emit(out, table.to_csv(index=False))
    else:
        text = (result.summary().to_string(index=False) + "\n\n" + notes if comparing else result.report())
        text += "\n" + (_text_table("per question", result.per_question) if per_question else "")
        _emit(out, text + ("" if groups is None else _text_table("per group", groups)))
    return 0


def _per_question_rows(result):
    """One row per question, then the means; the first column says which, so a mean is not a question."""
    import pandas as pd

    rows = result.per_question.reset_index()
    rows.insert(0, "row", "question")
    means = {"row": "mean", rows.columns[1]: ""} | {m: float(result.means[m]) for m in result.metrics}
    return pd.concat([rows, pd.DataFrame([means])], ignore_index=True)


def _text_table(title: str, table) -> str:
    return f"\n{title}:\n" + table.to_string(float_format=lambda v: f"{v:.4f}") + "\n"


def _emit(out: TextIO | None, text: str) -> None:
    """``text`` onto the command's output: standard output as UTF-8, every byte checked."""
    if out is None or out is sys.stdout:
        write_stdout(text.encode("utf-8"))
    else:
        out.write(text)


def _gate(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """gate: read as compare does (--unit-map, --groups), decide (:func:`ragmath.release_gate.gate`)."""
    from ragmath.comparison import markdown, name_runs
    from ragmath.evaluation import json_numbers
    from ragmath.release_gate import gate

    if args.resamples < 10_000:
        raise ValueError(f"--resamples must be at least 10000 (got {args.resamples}): fewer make the "
                         "interval's ends loose")
    if args.metrics and len(args.metrics) > 1:
        raise ValueError(f"gate decides on one metric, got {len(args.metrics)} ({', '.join(args.metrics)}); "
                         "give --metric once and run gate once per metric")
    named = name_runs([args.baseline, args.candidate])
    check_paths([*named.values(), args.qrels])
    if "-" in named.values() or args.qrels == "-":
        raise ValueError("gate reads every file more than once; give files, not '-' (standard input)")
    runs, qrels = {name: Path(path) for name, path in named.items()}, Path(args.qrels)
    if args.unit_map:
        runs, qrels = _at_units(args.unit_map, runs, qrels)
    base, cand = named
    result = gate(runs[base], runs[cand], qrels, args.metrics[0], args.margin, alpha=args.alpha,
                  seed=args.seed, n_resamples=args.resamples, gain=args.gain, names=(base, cand))
    groups = _groups(args, result, err)
    if args.format == "json":
        payload = result.to_dict()
        if groups is not None:
            payload["groups"] = {str(g): json_numbers(row) for g, row in groups.to_dict("index").items()}
        _emit(out, json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
    elif args.format == "markdown":
        _emit(out, result.to_markdown() + ("" if groups is None else "\n" + markdown(groups.reset_index())))
    else:
        _emit(out, result.report() + ("" if groups is None else _text_table("per group", groups)))
    return result.exit_status


def _fuse(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from ragmath import fuse_runs
    from ragmath.io import write_run

    check_paths(args.runs, args.output)
    named = {}
    for path in args.runs:
        name = path if path not in named else f"{path}#{len(named) + 1}"
        named[name] = Path(path)
    if args.norm and args.k is not None:
        raise ValueError("--k is RRF's constant; --norm fuses scores, which have none: drop --k or --norm")
    frame = fuse_runs(named, k=args.k, window=args.window, weights=args.weights, norm=args.norm,
                      as_frame="polars")
    target = args.output if args.output and args.output != "-" else out
    write_run(frame, "-" if target is None or target is sys.stdout else target, format=args.format,
              tag=args.tag or args.norm or "rrf")
    window = f", window {args.window}" if args.window else ""
    how = f"{args.norm} scores" if args.norm else f"RRF k={60 if args.k is None else args.k:g}"
    weights = f", weights {','.join(f'{w:g}' for w in args.weights)}" if args.weights else ""
    err.write(f"fused by {how}{weights}{window}; runs: {len(args.runs)}; {frame['question'].n_unique()} "
              f"questions, {len(frame)} results -> {args.output or 'standard output'}\n")
    return 0


def _at_units(unit_map: str, runs: dict[str, Path], qrels: Path) -> tuple[dict[str, Any], Any]:
    """``--unit-map``: the runs and labels mapped to units (a chain in the map refused, naming its lines)."""
    from ragmath.comparison import at_units
    from ragmath.io import read_qrels
    from ragmath.units import check_unit_map

    rows, labels = _read_rows(unit_map, "id", "unit"), read_qrels(qrels)
    unit_of = {item: unit for item, (unit, _line) in rows.items()}
    check_unit_map(unit_of, unit_map, lines={item: line for item, (_unit, line) in rows.items()})
    mapped = {name: at_units(run, labels, unit_of)[0] for name, run in runs.items()}
    return mapped, at_units({}, labels, unit_of)[1]


def _groups(args: argparse.Namespace, result: Any, err: TextIO) -> Any:
    """The per-group table of ``--groups`` (None without it), warning about groups of fewer than 10."""
    if not args.groups:
        return None
    groups = result.by_group(_read_pairs(args.groups, "question", "group"))
    small = [str(g) for g, n in groups["questions"].items() if n < 10]
    if small:
        err.write("warning: fewer than 10 questions in these groups, so their means are loose: "
                  f"{', '.join(small)}\n")
    return groups


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    """Run the command line; returns the exit status (0 done, 2 bad input or usage, 141 closed pipe).

    Output goes to ``stdout`` (default: standard output, written as UTF-8 with every byte
    checked, so that a full disk is exit 2, never a quiet truncated file); inputs are checked
    with :func:`ragmath.io._sources.check_paths` before anything is read.

    >>> import io
    >>> main(["--help"], stdout=io.StringIO()), main(["fuse", "--help"], stdout=io.StringIO())
    (0, 0)
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
        if args.command == "gate":
            return _gate(args, out, err)
        return _fuse(args, out, err) if args.command == "fuse" else _score(args, out, err)
    except BrokenPipeError:  # the reader of our output went away (| head): stop quietly, as Unix tools do
        with contextlib.suppress(OSError, ValueError):  # further writes and the final flush must not fail
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except (ValueError, OSError) as exc:  # bad input: a file, a line, a number, a name; a failed write
        err.write(f"ragmath {command}: error: {_one_line(exc)}\n")
        return 2
    except KeyboardInterrupt:
        err.write("interrupted\n")
        return 130
    except Exception as exc:  # a bug, not bad input: one line, exit 1
        err.write(f"ragmath {command}: internal error ({type(exc).__name__}: {_one_line(exc)}); "
                  "please report it with the command you ran\n")
        return 1


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= 400 else text[:400] + " ..."
