"""The tests read what a cell shows the same however the kernel cut its stream messages (tests/outputs.py).

The case that failed a CI run on a busy machine: 06a's self-check line reached the test as two stream
messages (``'…answer.\\x1b[0m'``, then ``'\\n'``), and the test that runs 06a twice compared the messages one
by one. Each reader below gets a notebook as the kernel sent it whole and as a busy kernel cut it.
"""

from __future__ import annotations

import nbformat
import pytest
from claims import Shown
from outputs import as_a_busy_kernel_sends, cell_outputs, joined, plain_texts, printed
from test_notebooks import _text_output
from test_notebooks_0607 import _tables
from test_zh_outputs_english import output_texts

VERDICT = "\x1b[32m✓ Right: 2 of 3 questions, as the table shows; a good answer.\x1b[0m\n"


def _notebook(*cells_outputs: list) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    for index, outputs in enumerate(cells_outputs):
        cell = nbformat.v4.new_code_cell(f"cell_{index}()")
        cell.id = f"c{index}"
        cell.outputs = [nbformat.from_dict(o) for o in outputs]
        nb.cells.append(cell)
    return nb


def _stream(text: str, name: str = "stdout") -> dict:
    return nbformat.v4.new_output("stream", name=name, text=text)


def _table(plain: str) -> dict:
    return nbformat.v4.new_output("display_data",
                                  data={"text/plain": plain, "text/html": f"<table>{plain}</table>"})


WHOLE = _notebook(
    [_stream("Versions in use: ragmath 0.2.0\n")],
    [_stream("nDCG@5 of C: 0.716 [0.650, 0.780]\n"), _table("   A  0.647\n   C  0.716"), _stream("after\n")],
    [_stream(VERDICT)],
    [_stream("a warning\n", "stderr"), _stream("printed\n")],
)
#: 06a.3's line as it reached the test in the failed CI run: the text, then its newline.
AS_IN_THE_FAILED_RUN = _notebook(
    [_stream("Versions in use: ragmath 0.2.0\n")],
    [_stream("nDCG@5 of C: 0.716 [0.650, 0.780]\n"), _table("   A  0.647\n   C  0.716"), _stream("after\n")],
    [_stream(VERDICT[:-1]), _stream("\n")],
    [_stream("a warning\n", "stderr"), _stream("printed\n")],
)

READERS = {
    "06a twice (test_notebooks_0607._tables)": _tables,
    "claims (Shown.output)": lambda nb: [Shown(nb).output(c.id) for c in nb.cells],
    "digest numbers (test_notebooks._text_output)": _text_output,
    "zh outputs (test_zh_outputs_english.output_texts)": output_texts,
    "printed": lambda nb: [printed(c) for c in nb.cells],
    "plain_texts": lambda nb: [plain_texts(c) for c in nb.cells],
}


@pytest.mark.parametrize("read", READERS.values(), ids=READERS.keys())
def test_a_line_sent_as_text_then_newline_reads_as_one_line(read):
    assert read(AS_IN_THE_FAILED_RUN) == read(WHOLE)


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("read", READERS.values(), ids=READERS.keys())
def test_every_reader_reads_the_same_wherever_the_kernel_cuts(read, seed):
    cut = as_a_busy_kernel_sends(WHOLE, seed=seed)
    assert sum(len(c.outputs) for c in cut.cells) > sum(len(c.outputs) for c in WHOLE.cells)
    assert read(cut) == read(WHOLE)


def test_the_cut_notebook_prints_the_same_text_and_keeps_the_display_between():
    cut = as_a_busy_kernel_sends(WHOLE, seed=3)
    kinds = [o.output_type for o in cell_outputs(cut.cells[1])]
    assert kinds == ["stream", "display_data", "stream"]
    assert [printed(c) for c in cut.cells] == [printed(c) for c in WHOLE.cells]
    assert cut.cells[2].outputs[0].text + cut.cells[2].outputs[-1].text != VERDICT  # cut, at least in two


def test_stdout_and_stderr_are_not_joined_into_each_other():
    outputs = cell_outputs(WHOLE.cells[3])
    assert [(o.name, o.text) for o in outputs] == [("stderr", "a warning\n"), ("stdout", "printed\n")]


def test_reading_leaves_the_notebook_as_it_was():
    cut = as_a_busy_kernel_sends(WHOLE, seed=5)
    before = nbformat.writes(cut)
    joined(cut), [cell_outputs(c) for c in cut.cells]
    assert nbformat.writes(cut) == before
    assert nbformat.writes(joined(cut)) != before
