"""What an executed notebook's cells show, read the way a reader sees them: the one place tests read outputs.

A kernel sends what a cell prints as stream messages, and how it cuts them depends on timing: on a busy
machine one ``print()`` can arrive as two messages (``'…answer.\\x1b[0m'``, then ``'\\n'``), cut at any
point. JupyterLab shows consecutive messages of one stream as one text, and so must every test: a test
reads a cell's outputs through :func:`cell_outputs` (or a whole notebook through :func:`joined`), never
``cell.outputs`` one by one.

:func:`as_a_busy_kernel_sends` cuts every stream message in two or three at seeded points, as a loaded
machine may; with ``RAGMATH_SPLIT_STREAMS=1`` in the environment, the ``executed`` fixture
(``tests/conftest.py``) hands every test its notebook cut that way, so a run of the notebook tests shows
that no test depends on where the kernel cut its messages (``tools/busy_runs.py`` does the same under load).
"""

from __future__ import annotations

import copy
import itertools
import os
import random
import re
import unicodedata

import nbformat
from nbconvert.preprocessors import CoalesceStreamsPreprocessor

#: Set to 1 to have the ``executed`` fixture cut every stream message as a busy kernel may.
SPLIT_STREAMS_ENV = "RAGMATH_SPLIT_STREAMS"


def cell_outputs(cell) -> list:
    """A code cell's outputs, each run of consecutive messages of one stream (stdout or stderr) joined into
    one stream output; other outputs as they are, in their order. The cell itself is not changed. (nbconvert's
    ``CoalesceStreamsPreprocessor`` does the joining, as it does for the ``make html`` pages; like a terminal,
    it also drops a line's text that a ``\\r`` overwrites.)

    >>> from nbformat.v4 import new_code_cell, new_output
    >>> cell = new_code_cell(outputs=[new_output("stream", name="stdout", text="0.7"),
    ...                               new_output("stream", name="stdout", text="50\\n"),
    ...                               new_output("display_data", data={"text/plain": "table"}),
    ...                               new_output("stream", name="stdout", text="end\\n")])
    >>> [out.get("text", out.get("data")) for out in cell_outputs(cell)]
    ['0.750\\n', {'text/plain': 'table'}, 'end\\n']
    """
    merged = copy.deepcopy(nbformat.from_dict(dict(cell)))
    merged.setdefault("outputs", [])
    CoalesceStreamsPreprocessor().preprocess_cell(merged, {}, 0)
    return merged["outputs"]


def joined(nb):
    """A copy of an executed notebook whose every cell holds :func:`cell_outputs` (for readers, such as the
    glossary tool, that take a whole notebook)."""
    result = copy.deepcopy(nb)
    for cell in result.get("cells", []):
        if "outputs" in cell:
            cell["outputs"] = cell_outputs(cell)
    return result


def printed(cell) -> str:
    """Everything a code cell printed (its streams' text, stdout and stderr in order), as one string."""
    return "".join(_text(out) for out in cell_outputs(cell) if out.get("output_type") == "stream")


def wide(char: str) -> bool:
    """Whether a character takes two columns in a monospaced font (a Chinese one does)."""
    return unicodedata.east_asian_width(char) in "WF"


def unwrapped(text: str) -> str:
    """A printed text with its continuation lines joined back: notebooks 08 and 09 break a long reading
    into a line and continuation lines indented by two spaces (a detail under a line is indented by four).
    The break stood for a space between two narrow characters, and for nothing next to a wide (Chinese)
    one, since the Chinese lines break after their punctuation.

    >>> unwrapped("a − b: +0.2 [0.1, 0.3], the interval excludes 0;\\n  Holm p 0.03\\n    detail")
    'a − b: +0.2 [0.1, 0.3], the interval excludes 0; Holm p 0.03\\n    detail'
    >>> unwrapped("区间不包含 0；\\n  Holm 校正后的 p")
    '区间不包含 0；Holm 校正后的 p'
    """
    def joined_line(match: re.Match) -> str:
        before, after = match[1], match[2]
        return before + ("" if wide(before) or wide(after) else " ")

    return re.sub(r"(.)\n  (?=(\S))", joined_line, text)


def plain_texts(cell) -> list[str]:
    """One text per output of a code cell: a stream's joined text, a display's ``text/plain``; errors and
    outputs with no plain text give no entry."""
    texts = []
    for out in cell_outputs(cell):
        if out.get("output_type") == "stream":
            texts.append(_text(out))
        elif out.get("output_type") in ("execute_result", "display_data"):
            texts.append(_join(out.get("data", {}).get("text/plain", "")))
    return texts


def as_a_busy_kernel_sends(nb, seed: int = 0):
    """A copy of ``nb`` with every stream message cut as a loaded kernel may send it: before its last
    newline (so a line's text and its ``'\\n'`` arrive apart) and at one seeded point inside."""
    rng = random.Random(seed)
    result = copy.deepcopy(nb)
    for cell in result.get("cells", []):
        cut: list = []
        for out in cell.get("outputs", []):
            text = _text(out) if out.get("output_type") == "stream" else ""
            if len(text) < 2:
                cut.append(out)
                continue
            points = {rng.randrange(1, len(text))}
            last_newline = len(text.rstrip("\n"))
            if 0 < last_newline < len(text):
                points.add(last_newline)
            bounds = [0, *sorted(points), len(text)]
            cut += [nbformat.v4.new_output("stream", name=out["name"], text=text[a:b])
                    for a, b in itertools.pairwise(bounds)]
        if "outputs" in cell:
            cell["outputs"] = cut
    return result


def split_streams_requested() -> bool:
    """Whether ``RAGMATH_SPLIT_STREAMS=1`` asks the fixtures to cut stream messages."""
    return os.environ.get(SPLIT_STREAMS_ENV, "") == "1"


def _text(out) -> str:
    return _join(out.get("text", ""))


def _join(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)
