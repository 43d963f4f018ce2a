"""Writers: runs and qrels to TREC, CSV or JSONL files, atomically."""

from __future__ import annotations

import contextlib
import errno
import functools
import io as _stdio
import os
import re
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import Any

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
_flock = getattr(fcntl, "flock", None)


#: A temporary file is named ``.NAME.ragmath-tmp-XXXXXXXX`` beside its target ``NAME``: hidden, and
#: never ending in ``.trec``, ``.csv`` or ``.jsonl``, so that nothing takes it for an output.
_TEMP_MARK = ".ragmath-tmp-"


def _write_all(write: Callable[[memoryview], int | None], data: bytes) -> None:
    """Write every byte of ``data`` with ``write`` (``os.write`` on a descriptor, a binary stream's
    ``write``); a short write goes on from where it stopped (a pipe after a signal, a write over
    2 GiB), and the write that cannot go on raises ``OSError``."""
    view = memoryview(data)
    while view:
        written = write(view)
        if not written:
            raise OSError(errno.EIO, "the output took no bytes")
        view = view[written:]


def _write_stream(stream: Any, data: bytes) -> None:
    """``data`` into an open stream: decoded for a text stream, every byte for a binary one."""
    if isinstance(stream, _stdio.TextIOBase):
        stream.write(data.decode("utf-8"))
    else:
        _write_all(stream.write, data)
    stream.flush()


def write_stdout(data: bytes) -> None:
    """Write ``data`` (UTF-8 bytes) to standard output, every byte, or raise ``OSError``
    (``BrokenPipeError`` for a closed pipe): through its file descriptor (why: docs/design-notes.md),
    or a stand-in's (a notebook's, a test's) ``write``."""
    stream = sys.stdout
    if stream is None:
        raise OSError(errno.EBADF, "standard output is closed; redirect it to a file")
    if stream is not sys.__stdout__:
        _write_stream(stream, data)
        return
    stream.flush()
    try:
        _write_all(functools.partial(os.write, stream.fileno()), data)
    except BrokenPipeError:
        raise
    except OSError as exc:
        problem = f"cannot write standard output ({exc.strerror}); the output is incomplete"
        raise OSError(exc.errno, problem) from None


def atomic_write(target: Any, data: bytes) -> None:
    """Write ``data`` whole or not at all to a path, ``"-"`` (standard output) or an open stream.

    A file is written to a locked temporary file beside it, flushed and renamed over it (a reader sees
    the old file or the new one), keeping its permissions; a named pipe or a device is written into, as
    ``>`` does (docs/design-notes.md). Raises ``OSError`` (``IsADirectoryError``, ``FileNotFoundError``
    for a missing folder, ...) with the old file left whole and no temporary file.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "note.txt"
    >>> atomic_write(p, b"whole"); p.read_bytes()
    b'whole'
    """
    if hasattr(target, "write"):
        _write_stream(target, data)
        return
    path = os.fspath(target)
    if path == "-":
        write_stdout(data)
        return
    try:
        mode = os.stat(path).st_mode  # through symlinks
    except FileNotFoundError:
        mode = None
    if path.endswith(os.sep) or (mode is not None and stat.S_ISDIR(mode)):
        example = os.path.join(path, "out.trec")
        raise IsADirectoryError(f"{path}: is a folder; give a file name, e.g. {example}")
    if mode is None or stat.S_ISREG(mode):
        _replace(os.path.realpath(path), data)
    elif stat.S_ISFIFO(mode) or stat.S_ISCHR(mode):  # a named pipe or a device: write into it, as `>` does
        with open(os.open(path, os.O_WRONLY), "wb", buffering=0) as out:
            _write_all(out.write, data)
    else:
        raise ValueError(f"{path}: is neither a file, a named pipe nor a character device; write to a file")


@contextlib.contextmanager
def locked(path: Any, *, wait: float = 30.0, busy: Callable[[], str] | None = None) -> Iterator[None]:
    """Hold the lock of ``path`` for a ``with`` block (a read-modify-write): one holder at a time.

    The lock is an ``flock`` (Windows: ``msvcrt.locking``) on ``.NAME.lock`` beside ``path``, made once
    and left in place; threads and processes wait for it, and a holder's death frees it. Raises
    ``BlockingIOError`` (message ``busy()``, if given) when it is held for over ``wait`` seconds.

    >>> import tempfile, pathlib
    >>> with locked(pathlib.Path(tempfile.mkdtemp()) / "labels.csv"):
    ...     pass
    """
    folder, name = os.path.split(os.path.realpath(os.fspath(path)))
    fd = os.open(os.path.join(folder, f".{name}.lock"), os.O_RDWR | os.O_CREAT, 0o666)
    deadline = time.monotonic() + wait
    try:
        while True:
            try:
                if _flock is None:  # Windows
                    import msvcrt

                    msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
                else:
                    _flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError:
                if time.monotonic() >= deadline:
                    raise BlockingIOError(busy() if busy else f"{path}: another writer holds its lock "
                                          f"(.{name}.lock); try again when it is done") from None
                time.sleep(0.005)
        yield
    finally:
        os.close(fd)


def _replace(path: str, data: bytes) -> None:
    """Write a regular file atomically: a temporary file beside it, locked until it is renamed over
    the target; a temporary file of this target that nobody holds was left by a killed write."""
    folder, name = os.path.split(path)
    if not os.path.isdir(folder):
        raise FileNotFoundError(f"{folder}: no such folder; create it first or write elsewhere")
    prefix = f".{name}{_TEMP_MARK}"
    _remove_stale(folder, prefix)
    while True:  # Linux cannot create and lock in one call: a cleanup may remove the file in between
        try:
            fd, temp = tempfile.mkstemp(dir=folder, prefix=prefix)
        except PermissionError:
            raise PermissionError(f"{folder}: cannot create a file in this folder (the output is written "
                                  "to a temporary file beside it, then renamed); write elsewhere") from None
        if _flock is None:
            break
        _flock(fd, fcntl.LOCK_EX)  # waits while a cleanup holds it, then checks the file is still ours
        with contextlib.suppress(FileNotFoundError):
            if os.path.samestat(os.fstat(fd), os.stat(temp)):
                break
        os.close(fd)
    try:
        _write_all(functools.partial(os.write, fd), data)
        os.fsync(fd)
        if os.path.exists(path):
            os.chmod(temp, stat.S_IMODE(os.stat(path).st_mode))
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temp, 0o666 & ~umask)
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise
    finally:
        os.close(fd)


def _remove_stale(folder: str, prefix: str) -> None:
    """Remove this target's temporary files (``prefix`` + 8 characters) whose writer is gone."""
    if _flock is None:  # no fcntl (Windows): a killed write's file stays
        return
    pattern = re.compile(re.escape(prefix) + r"[a-z0-9_]{8}")
    for entry in os.scandir(folder):
        if not pattern.fullmatch(entry.name) or not entry.is_file(follow_symlinks=False):
            continue
        try:
            fd = os.open(entry.path, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            _flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held: a write in progress, left alone
            os.unlink(entry.path)
        except OSError:
            pass
        finally:
            os.close(fd)


def _ordered_for_writing(table: Any) -> Any:
    """(question, id, rank, score) rows as written: a table with scores and ranks row for row,
    else in the tie rule's order with ranks 1..n; ranked lists get scores n, n-1, ..., 1."""
    import polars as pl

    from ragmath.ranking import order_run_table
    if table.height and table["score"].null_count() == 0 and table["rank"].null_count() == 0:
        return table.select("question", "id", "rank", "score")
    ordered = order_run_table(table).join(
        table.select("question", "id", "score"), on=["question", "id"], how="left", maintain_order="left"
    )
    size = pl.len().over("question")
    return ordered.select(
        "question", "id", pl.col("position").alias("rank"),
        pl.col("score").fill_null((size - pl.col("position") + 1).cast(pl.Float64)),
    )


def _table_bytes(rows: Any, fmt: str) -> bytes:
    """``rows`` as written: TREC fields separated by one space, CSV with a header, or JSONL."""
    import polars as pl

    from ragmath.io._checks import _quote
    if fmt == "trec":
        hashed = rows.filter(pl.col("question").str.starts_with("#"))["question"]
        if len(hashed):
            raise ValueError(f"question {_quote(hashed[0])} starts with '#', which a TREC file reads as a "
                             "comment line; rename it or write CSV/JSONL")
        return rows.write_csv(separator=" ", include_header=False, quote_style="never").encode("utf-8")
    if fmt == "jsonl":
        return rows.write_ndjson().encode("utf-8")
    return rows.write_csv(quote_style="necessary").encode("utf-8")


def write_run(run: Any, path: Any, format: str | None = None, tag: str = "ragmath") -> None:
    """Write a run (mapping, DataFrame or run table) as TREC, CSV or JSONL, atomically.

    ``path`` may be a file path (format from its extension unless given), ``"-"`` for standard
    output, or an open stream (TREC unless ``format`` says otherwise). Raises ``ValueError`` or
    ``TypeError`` on a bad run before anything is written.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "run.trec"
    >>> write_run({"q1": {"a": 0.25, "b": 0.5}, "q2": ["x"]}, p, tag="demo")
    >>> print(p.read_text(), end="")
    q1 Q0 b 1 0.5 demo
    q1 Q0 a 2 0.25 demo
    q2 Q0 x 1 1.0 demo
    """
    import polars as pl

    from ragmath.io._checks import _FORBIDDEN_RE
    from ragmath.io._sources import _format_of
    from ragmath.io.frames import run_table

    fmt = _format_of(path if not hasattr(path, "write") else "", format)
    table = run_table(run)
    rows = _ordered_for_writing(table)
    if fmt == "trec":
        if not isinstance(tag, str) or tag == "" or _FORBIDDEN_RE.search(tag) or tag.startswith("#"):
            raise ValueError(f"tag {tag!r} must be non-empty text without whitespace, e.g. 'rrf'")
        rows = rows.select("question", pl.lit("Q0").alias("q0"), "id", "rank", "score",
                           pl.lit(tag).alias("tag"))
    elif table.height and table["score"].null_count() == table.height:  # ranked lists read back as such
        rows = rows.drop("score")
    atomic_write(path, _table_bytes(rows, fmt))


def write_qrels(qrels: Any, path: Any, format: str | None = None) -> None:
    """Write labels (mapping, DataFrame or qrels table) as TREC qrels, CSV or JSONL, atomically.

    In CSV, a question or ID that a spreadsheet would run as a formula (it begins with ``=``, ``+``, ``-``
    or ``@``) is written with an apostrophe in front (:func:`escape_formula`); the CSV reader takes it off.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "qrels.csv"
    >>> write_qrels({"q1": {"d1": 2}}, p)
    >>> print(p.read_text(), end="")
    question,id,grade
    q1,d1,2
    """
    import polars as pl

    from ragmath.io._checks import formulas_escaped
    from ragmath.io._sources import _format_of
    from ragmath.io.frames import qrels_table

    fmt = _format_of(path if not hasattr(path, "write") else "", format)
    table = qrels_table(qrels)
    if fmt == "trec":
        table = table.select("question", pl.lit("0").alias("iteration"), "id", "grade")
    elif fmt == "csv":  # labels are opened in spreadsheets: no question or ID may run as a formula there
        table = formulas_escaped(table)
    atomic_write(path, _table_bytes(table, fmt))

