"""Read and write runs and relevance labels: TREC files, CSV, JSONL and DataFrames.

A **run** is what a retriever returned: question -> ranked IDs (best first), or question ->
{ID: score}. **Qrels** are the labels: question -> {ID: grade}, grades integers 0 to
:data:`MAX_GRADE`. Every format is read into one **table** (a polars DataFrame) and written from one:

- run table: ``question`` (text), ``id`` (text), ``score`` (float, null where only ranks are
  given), ``rank`` (integer, null where the source gives none); one row per line, in file order.
- qrels table: ``question``, ``id``, ``grade`` (integer).

Two readers for each, taking a file, a DataFrame or a mapping alike: :func:`run_table` /
:func:`qrels_table` give the table (``run_table(path, top=K)``: each question's top K in the tie
rule's order, a file read a slice at a time), :func:`read_run` / :func:`read_qrels` the mapping (a run
in the tie rule's order). For pandas: ``pandas.DataFrame(table.to_dict(as_series=False))``.

Formats: a TREC run ``qid Q0 docid rank score tag`` (the rank must be an integer but, as in
trec_eval, the order comes from the score); TREC qrels ``qid 0 docid grade``; CSV (header row) or
JSONL (one object a line) with the table's columns (others ignored); pandas or polars DataFrames;
mappings. TREC fields are split on spaces or tabs; blank lines and ``#`` comment lines are skipped.
A TREC run line with more than six fields is refused (trec_eval ignores fields after the run tag;
ragmath will not guess that the extra field is not a mistake): remove them. Files are UTF-8. A
source is a path, a named pipe or ``"-"`` (standard input, read once).

A CSV labels file is one a person may edit in a spreadsheet: a question or ID that begins with ``=``,
``+``, ``-`` or ``@`` (which a spreadsheet would run as a formula) is written with an apostrophe in front,
and reading takes one such apostrophe off (:func:`escape_formula`, :func:`unescape_formula`), so
``'=x`` in the file is the ID ``=x`` and the ID ``'=x`` is written ``''=x``.

A labels row whose grade is blank (CSV: an empty cell, or spaces and tabs; JSONL: ``null`` or ``""``) is a
pair not judged yet, as in a half-filled spreadsheet template: its question and ID are checked like any
other (a pair appears once), and the row is left out.

Refused input is a ``ValueError`` naming file, line and field (the list: docs/design-notes.md,
"Reading and writing files"); nothing else is skipped. Writers write IDs exactly as read and
scores at round-trip precision, so a written file reads back to the same table. Writes are atomic:
a temporary file beside the target, renamed over it when complete; ``"-"`` writes standard output.
"""

from __future__ import annotations

from ragmath.io._checks import MAX_GRADE, escape_formula, unescape_formula
from ragmath.io._lines import read_jsonl
from ragmath.io._sources import check_paths
from ragmath.io.frames import qrels_table, read_qrels, read_run, run_table
from ragmath.io.writers import write_qrels, write_run

__all__ = [
    "MAX_GRADE",
    "run_table", "qrels_table",  # files, DataFrames and mappings -> tables (polars)
    "read_run", "read_qrels",  # files, DataFrames and mappings -> mappings
    "write_run", "write_qrels",  # -> files
    "read_jsonl", "check_paths",  # any JSONL file; inputs and outputs of one command
    "escape_formula", "unescape_formula",  # a labels CSV cell as a spreadsheet keeps it text, and back
]
