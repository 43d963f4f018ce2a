"""Where a table comes from: a path, a named pipe or standard input, and its format."""

from __future__ import annotations

import io as _stdio
import os
import stat
import sys
import weakref
from collections.abc import Iterator, Sequence
from typing import Any, BinaryIO

from ragmath.io._checks import FORMATS, _Where


class _Source:
    """A file to read: its name for messages (``name``, else the path) and its data (a path, or the
    bytes of a pipe, of standard input or of ``source`` itself when it is bytes)."""

    def __init__(self, source: Any, name: str | None = None) -> None:
        if isinstance(source, (bytes, bytearray)):
            self.name, self.data = name or "<bytes>", bytes(source)
            return
        if not isinstance(source, (str, os.PathLike)):
            raise TypeError(f"source must be a path or '-', got {type(source).__name__}")
        path = os.fspath(source)
        self.name = name or ("<stdin>" if path == "-" else path)
        if path == "-":
            self.data = _read_stdin(None)
            return
        info = os.stat(path)  # FileNotFoundError names the path
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(f"{path}: is a folder, not a file")
        if stat.S_ISREG(info.st_mode):
            self.data = path
        elif _identity(info) == _identity(_stdin_stat()):  # /dev/stdin, /proc/self/fd/0 on a pipe or terminal
            self.data = _read_stdin(path)
        else:  # a named pipe can be read only once: keep its bytes for a second pass
            with open(path, "rb") as handle:
                self.data = handle.read()

    def _open(self) -> BinaryIO:
        return open(self.data, "rb") if isinstance(self.data, str) else _stdio.BytesIO(self.data)

    def polars_input(self) -> Any:
        return self.data if isinstance(self.data, str) else _stdio.BytesIO(self.data)

    def slices(self, size: int) -> Iterator[bytes]:
        """The data in pieces of about ``size`` bytes, each ending at a line end (the last may not)."""
        with self._open() as handle:
            while block := handle.read(size):
                yield block if block.endswith(b"\n") else block + handle.readline()

    def has_tab(self) -> bool:
        """True if the data holds a tab anywhere (searched 16 MiB at a time; plain reads, as
        :meth:`slices` costs a copy per slice: docs/design-notes.md)."""
        with self._open() as handle:
            while chunk := handle.read(1 << 24):
                if b"\t" in chunk:
                    return True
        return False

    def is_empty(self) -> bool:
        return (os.path.getsize(self.data) if isinstance(self.data, str) else len(self.data)) == 0

    def lines(self, keep_ends: bool = False) -> Iterator[tuple[int, str]]:
        """(line number, text) for each line, decoded as UTF-8, without its ``\\n`` unless ``keep_ends``."""
        with self._open() as handle:
            for number, raw in enumerate(handle, start=1):
                if number == 1 and raw.startswith(b"\xef\xbb\xbf"):
                    raw = raw[3:]
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise _Where(self.name, "line", number).fail(
                        None, f"not UTF-8 text ({exc.reason} at byte {exc.start}); save the file as UTF-8"
                    ) from None
                yield number, text[:-1] if text.endswith("\n") and not keep_ends else text


#: The standard-input streams already read to the end: a second read would find nothing.
_STDIN_READ: weakref.WeakSet = weakref.WeakSet()


def _read_stdin(path: str | None) -> bytes:
    """All of standard input (``"-"``, or ``path`` naming it), once: a second read is refused."""
    stream, name = sys.stdin, "'-'" if path is None else path
    if stream is None:
        raise ValueError(f"{name}: standard input is closed; pipe or redirect a file into it")
    if stream in _STDIN_READ:
        raise ValueError(f"{name}: standard input was read already and can be read once; "
                         "save it to a file and name the file")
    _STDIN_READ.add(stream)
    return stream.buffer.read() if hasattr(stream, "buffer") else stream.read().encode("utf-8")


def _identity(info: os.stat_result | None) -> tuple[int, int] | None:
    return None if info is None else (info.st_dev, info.st_ino)


def _stdin_stat() -> os.stat_result | None:
    """``os.fstat`` of standard input; None if it has no file descriptor (closed, a stand-in)."""
    try:
        return os.fstat(sys.stdin.fileno())
    except (AttributeError, OSError, ValueError):
        return None


def check_paths(inputs: Sequence[Any], output: Any = None) -> None:
    """Refuse an input that can be read once given twice, and an output that is an input.

    Standard input (``"-"``, ``/dev/stdin``, ...) and a named pipe can be read once (a regular file
    behind ``<`` can be named twice, but not beside ``"-"``). Files are compared by ``os.stat``
    (device and inode), so a symlink or a hard link to an input, or the file behind ``-``, is that
    input. Raises ``ValueError`` naming them.

    >>> check_paths(["a.trec", "b.trec"], "fused.trec")
    >>> check_paths(["-", "-"])
    Traceback (most recent call last):
    ...
    ValueError: standard input is given 2 times ('-', '-'); it can be read once: save it to a file ...
    """
    stdin = _stdin_stat()
    names: dict[Any, list[str]] = {}  # identity -> the inputs naming it
    for source in inputs:
        name = os.fspath(source)
        try:
            info = stdin if name == "-" else os.stat(name)
        except OSError:  # the reader names a missing file
            continue
        key = _identity(info) or "-"  # "-" with no file descriptor (a stand-in stream)
        names.setdefault(key, []).append(name)
    for key, given in names.items():
        if len(given) > 1 and ("-" in given or not os.path.isfile(given[0])):
            what = "standard input" if "-" in given or key == _identity(stdin) else f"{given[0]} (a pipe)"
            raise ValueError(f"{what} is given {len(given)} times ({', '.join(map(repr, given))}); it can "
                             "be read once: save it to a file and name the file")
    if output is None or os.fspath(output) == "-":
        return
    try:
        given = names.get(_identity(os.stat(output)))
    except OSError:  # not there yet: no input can be it
        return
    if given:
        what = "standard input" if "-" in given else given[0]
        raise ValueError(f"output {os.fspath(output)} is also an input ({what}); write to a new file "
                         "(e.g. -o fused.trec)")


def _format_of(source: Any, format: str | None) -> str:
    if format is not None:
        fmt = str(format).lower()
        if fmt not in FORMATS:
            raise ValueError(f"format {format!r} is unknown; use one of {', '.join(FORMATS)}")
        return fmt
    suffix = os.path.splitext(os.fspath(source))[1].lower() if isinstance(source, (str, os.PathLike)) else ""
    return {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}.get(suffix, "trec")
