"""Read and write runs and relevance labels: TREC files, CSV, JSONL and DataFrames.

A **run** is what a retriever returned: question -> ranked IDs (best first), or question ->
{ID: score}. **Qrels** are the labels: question -> {ID: grade}, grades integers 0 to
:data:`MAX_GRADE`. Every format is read into one **table** (a polars DataFrame) and written from one:

- run table: ``question`` (text), ``id`` (text), ``score`` (float, null where only ranks are
  given), ``rank`` (integer, null where the source gives none); one row per line, in file order.
- qrels table: ``question``, ``id``, ``grade`` (integer).

Formats
-------
- TREC run, one result a line: ``qid Q0 docid rank score tag`` (six fields). The rank must be an
  integer but, as in trec_eval, the order comes from the score.
- TREC qrels, one label a line: ``qid 0 docid grade`` (four fields; the second is ignored).
- CSV (header row) or JSONL (one object a line) with ``question``, ``id`` and, for a run,
  ``score`` and/or ``rank``; for qrels, ``grade``. Other columns are ignored.
- DataFrames (pandas or polars) with the same columns, and mappings (:func:`run_table`).

In TREC files fields are separated by spaces or tabs (any number); blank lines are skipped, and so
is a **comment line**, whose first non-blank character is ``#``. Files are UTF-8; a byte-order mark
at the start is skipped. A source is a path, a named pipe, or ``"-"`` for standard input, which is
read once: a second read of it (``"-"`` again, ``/dev/stdin``) is refused, never an empty run.

How a file is read
------------------
polars parses the file (:func:`polars.read_csv`); ragmath then checks the table in bulk. A file the
fast read refuses or finds odd (a bad number, a missing field, a forbidden character...) is read
again line by line, only to name the file, line and field of the first mistake. A TREC file with a
tab, a run of spaces or a comment line, which polars' one-byte separator cannot split, goes through
a second bulk read that splits each line on ``[ \\t]+``; no ID is ever cut short.
:func:`read_run_head` (what :func:`ragmath.evaluate` uses for a run file) reads a TREC run 16 MiB
at a time and keeps each question's top K, so its memory does not grow with the file.

Refused input (``ValueError`` naming file, line and field; a line is quoted up to 200 characters)
----------------------------------------------------------------------------------------------------
Too few or too many fields; a score that is not a finite decimal number written with ASCII
digits; a rank or grade that is not an ASCII integer, or does not fit (ranks: 64-bit, grades: 0 to
:data:`MAX_GRADE`); an ID that is empty or holds whitespace or a control character (NUL, CR, tab,
no-break space...); a duplicate (question, id) pair; in a table with ranks only, a rank used twice
in a question; a question with a score on some rows and none on others (a question is scored on
every row or ranked on every row); a CSV header naming a column twice; bytes that are not UTF-8.
An ID with a line break inside a quoted CSV field is refused (the line break is whitespace), in
the bulk read and the line reader alike. A JSONL line must be a JSON object with the fields of the
first line, none null (a run is scored on every line or ranked on every line); a key given twice
in one object, a value nested too deeply to read and an integer of over 4,300 digits are refused.
Nothing is skipped silently.

DataFrames: integer ``question`` and ``id`` columns become their decimal text; boolean columns,
float ID columns and missing scores (NaN, or pandas' None) are refused, naming the column (and
row); a null score in a polars run table marks a question given as a ranked list.

Writing
-------
Writers (:func:`write_run`, :func:`write_qrels`) write IDs exactly as read and scores at round-trip
precision, so a written file reads back to the same table. A scored run is written in the tie
rule's order (:mod:`ragmath.ranking`); a table that already holds both scores and ranks is written
row for row. A run given as ranked lists is written with scores n, n-1, ..., 1.

A path is written atomically: a temporary file ``.NAME.ragmath-tmp-XXXXXXXX`` beside the target
(hidden, and never ending in ``.trec``/``.csv``/``.jsonl``, so never taken for an output), locked
while written and renamed over the target when complete; the target keeps its permissions (a
file with other hard links gets a new inode: the other names keep the old content). A killed
write leaves at most that temporary file, which the next write to the same target removes. A
symlink is written through to its target; a named pipe or character device is written into, as
``>`` does; a folder is refused. ``"-"`` writes standard output, every byte checked (a short
write goes on, a failed one raises ``OSError``; a closed pipe raises ``BrokenPipeError``).
"""

from __future__ import annotations

from ragmath.io._bulk import read_qrels_table, read_run_head, read_run_table
from ragmath.io._checks import MAX_GRADE
from ragmath.io.frames import (
    qrels_mapping,
    qrels_table,
    read_qrels,
    read_qrels_frame,
    read_run,
    read_run_frame,
    run_mapping,
    run_table,
)
from ragmath.io.writers import write_qrels, write_run

__all__ = [
    "MAX_GRADE",
    "read_run_table",
    "read_qrels_table",
    "read_run_head",
    "run_table",
    "qrels_table",
    "run_mapping",
    "qrels_mapping",
    "read_run",
    "read_qrels",
    "write_run",
    "write_qrels",
    "read_run_frame",
    "read_qrels_frame",
]
