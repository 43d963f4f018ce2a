"""Every sentence that reads a computed table, chart or output is a claim, tested in both languages.

The claims live in tests/claims/ (one module per notebook). For each claim, its sentence must stand in
its markdown cell, in the English and in the Chinese notebook; and its check, run on each language's
executed notebook (the run the suite makes once, tests/conftest.py), must hold and find its numbers in
that language's sentence. A check recomputes the claim from ragmath on the notebook's data.

Two rules make a sentence say no more than its notebook shows (issue 35, item 5):

- A quantifier ranges over every row of its table unless the sentence names the rows. A sentence with a
  leader, "every", "no", "best", "highest" or "lowest" word (``claims.QUANTIFIER``) declares ``over``: the
  code cell above it whose displayed table the quantifier ranges over; its check reads the rows through
  ``Shown.over`` or ``Shown.leaders``, which take every displayed row (the Oracle's included) unless the
  sentence names a subset ("among A–E", "the best of A, B and C", "A–E 中"), and the test asserts that it
  did. A set no version table carries (questions, k values) must stand whole in one output above
  (``over=ABOVE``, ``Shown.one_output_above``). A word that ranges over no displayed rows ("at most 3
  more") declares ``scope``.
- Every number a sentence cites (and every question id) appears in the plain-text output of a code cell
  above its cell, at the sentence's rounding, or follows by a ``derived`` expression from numbers that do.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from claims import (  # noqa: E402
    ABOVE,
    QUANTIFIER,
    Shown,
    evaluate_derived,
    in_scope,
    leaders,
    named_rows,
    nb01,
    nb02,
    nb03,
    nb04,
    nb05,
    nb05a,
    nb05b,
    nb06,
    nb06_late,
    nb06_more,
    nb07,
    nb07_more,
    numbers_not_above,
    split_by_notebook,
)

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
BY_NOTEBOOK = {
    "01_unit_of_evaluation.ipynb": nb01.CLAIMS,
    "02_recall_vs_hit.ipynb": nb02.CLAIMS,
    "03_mrr.ipynb": nb03.CLAIMS,
    "04_ndcg.ipynb": nb04.CLAIMS,
    "05_rrf.ipynb": nb05.CLAIMS,
    "05a_score_fusion.ipynb": nb05a.CLAIMS,
    "05b_tools_for_the_ablation.ipynb": nb05b.CLAIMS,
    **split_by_notebook(nb06.CLAIMS + nb06_more.CLAIMS + nb06_late.CLAIMS,
                        ["06a_ablation_table.ipynb", "06b_tuning_and_rows.ipynb"], NOTEBOOKS),
    "07_honest_numbers.ipynb": nb07.CLAIMS + nb07_more.CLAIMS,
}
LANGUAGES = {"en": NOTEBOOKS, "zh": NOTEBOOKS / "zh"}
CASES = [(name, claim) for name, claims in BY_NOTEBOOK.items() for claim in claims]
EXECUTED = [(LANGUAGES[language] / name, language, claim)
            for name, claim in CASES for language in LANGUAGES]

#: The seven sentences issue 24 found saying more than their tables (ids of their claims).
ISSUE_24 = {"units_recap", "units_move_ndcg_not_mrr", "toy_shared_characters",
            "three_chunks_shared_everywhere", "fusion_keeps", "fusion_keeps_holdout",
            "article_query_easy_for_bm25", "paraphrases_need_a_model", "same_mrr_evidence"}


def unaccounted_numbers(sentence: str, values) -> list[str]:
    """The numbers a sentence says that its check did not compute: the sentence with every value the check
    returned taken out (longest first), then any number left (digits that end a name, BM25 or Q45, are part of
    the name). A claim's every number is recomputed."""
    rest = sentence
    for value in sorted(values, key=len, reverse=True):
        rest = rest.replace(value, " ")
    return re.findall(r"(?<![A-Za-z\d.])\d+(?:\.\d+)?", rest)


def test_a_number_the_check_did_not_compute_is_found():
    said = "C leads (A 0.663, C 0.752) on Recall@5 for BM25"
    assert unaccounted_numbers(said, ["A 0.663", "C 0.752", "Recall@5"]) == []
    assert unaccounted_numbers("C keeps 5 of the 6", ["5 "]) == ["6"]


#: The twelve sentences issue 35 (item 5) found saying more than their tables: (cell, claim id).
ISSUE_35 = {("7ff24bbf", "ablation_answer_accuracy"), ("7ff24bbf", "ablation_citation_support"),
            ("6e0db134", "holdout_accuracy_leader"), ("6e0db134", "holdout_support_leader"),
            ("6e0db134", "rerank_moves_up"), ("c6snapread", "snapshot_most"),
            ("42b8a359", "type_paraphrase_order"), ("4eefa17f", "grid_best"),
            ("8787ef37", "rerank_entries_20"), ("417b6094", "generations"),
            ("2ced1236", "paraphrases_need_a_model"), ("7ff24bbf", "fusion_keeps")}


def test_a_leader_ranges_over_every_row_unless_the_sentence_names_the_rows():
    table = {"A": 0.535, "B": 0.465, "C": 0.535, "D": 0.535, "E": 0.512, "Oracle": 0.605}
    rows = list(table)
    said = "On answer accuracy, A, C and D tie for the lead (A 0.535, B 0.465, C 0.535, D 0.535, E 0.512)"
    assert leaders(in_scope(table, rows, said)) == ["Oracle"]  # the values it lists name no scope
    among = said.replace("tie for the lead", "tie for the lead among A–E")
    assert leaders(in_scope(table, rows, among)) == ["A", "C", "D"]
    assert leaders(in_scope(table, rows, "答案准确率：A–E 中 A、C 和 D 并列领先")) == [
        "A", "C", "D"]
    assert named_rows("the best of A, B and C") == ["A", "B", "C"]
    assert named_rows("C's Recall@5 is below A's or B's") == []
    assert named_rows("C is ahead of D; the intervals of A and B overlap it") == []
    with pytest.raises(AssertionError, match="does not show"):
        in_scope(table, ["A", "B", "C", "D"], "C leads among A–E")  # the table shows no E
    # a column that does not apply to a row (the Oracle's retrieval columns, shown as —) takes no part
    assert leaders({"C": 0.775, "D": 0.775, "Oracle": float("nan")}) == ["C", "D"]


def test_a_check_must_take_every_row_the_table_displays():
    import nbformat.v4 as v4

    table = "        Recall@5\nversion         \nA          0.686\nC          0.775\nOracle         —\n"
    output = v4.new_output("execute_result", data={"text/plain": table}, execution_count=1)
    nb = v4.new_notebook(cells=[v4.new_code_cell("t", id="t", outputs=[output]),
                                v4.new_markdown_cell("s", id="s")])
    shown = Shown(nb)
    shown.sentence, shown.cell = "C leads (A 0.686, C 0.775)", "s"
    assert shown.leaders("t", {"A": 0.686, "C": 0.775, "Oracle": float("nan")}) == ["C"]
    assert shown.scoped == ["t"]
    with pytest.raises(AssertionError, match="leaves out rows"):
        shown.leaders("t", {"A": 0.686, "C": 0.775})
    with pytest.raises(AssertionError, match="no output above"):
        shown.one_output_above("the k grid", "Q50", "240")


def test_a_number_not_above_the_sentence_is_found_and_a_derived_one_passes():
    above = ["        answer accuracy  answers correct\nversion\nA     0.535   23\nOracle   0.605   26\n",
             "36 of the questions\n"]
    assert numbers_not_above("A 0.535, Oracle 0.605 (26/43)", above) == ["43"]
    assert numbers_not_above("A 0.5351 and 0.53 and 0.54", above) == ["0.5351", "0.53"]  # rounding as said
    assert numbers_not_above("A 0.5350", above) == []  # 0.535 with a zero more is the same number
    assert numbers_not_above("36 of 54 questions, Q12", above) == ["54", "Q12"]
    # a table's row labels (0, 1, 2 of a default index) are not numbers it shows
    assert numbers_not_above("6 of 90", ["   k  nDCG\n6  0.5  0.725\n9  1.0  0.725\n"]) == ["6", "90"]
    assert numbers_not_above("by 0.070, 3 more", above, {"0.070": "0.605 - 0.535", "3": "26 - 23"}) == []
    assert numbers_not_above("by 0.080", above, {"0.080": "0.605 - 0.535"}) == ["0.080"]  # wrong arithmetic
    # rounded operands: 0.185 / 0.024 lies between 0.1845 / 0.0245 = 7.5 and 0.1855 / 0.0235 = 7.9
    assert numbers_not_above("7.6 times", ["0.185  0.024\n"], {"7.6": "0.185 / 0.024"}) == []
    assert numbers_not_above("8.1 times", ["0.185  0.024\n"], {"8.1": "0.185 / 0.024"}) == ["8.1"]
    assert numbers_not_above("0.750 and 4,000 draws", ["MRR 0.75, 4,000 draws\n"]) == []
    assert numbers_not_above("2.3 points", above, {"2.3": "100 / 43"}) == ["2.3"]  # 43 is not above
    assert numbers_not_above("2.3 points", [*above, "of 43"], {"2.3": "100 / 43"}) == []
    # names with digits cite no number: metrics, chunk ids, the workbook's places, interval levels
    said = ("nDCG@5 of TRV26-4.2-a in notebook 07 (section 4.2, 第 4.2 节, 第 5 节, sections 6 to 8), "
            "95 % intervals, p below 0.05")
    assert numbers_not_above(said, []) == []
    assert evaluate_derived("(26 - 23) / 43")[1] == ["26", "23", "43"]
    with pytest.raises(ValueError):
        evaluate_derived("__import__('os')")


def test_every_quantified_sentence_declares_what_it_ranges_over():
    """A claim whose English sentence has a quantifier word declares ``over`` (a code cell above its
    sentence, in both languages, or ABOVE) or, for a word that ranges over no rows, ``scope``; a derived
    number is one the sentences cite."""
    undeclared = [claim.id for _, claim in CASES
                  if QUANTIFIER.search(claim.en) and not (claim.over or claim.scope)]
    assert not undeclared, f"quantified sentences that declare neither over nor scope: {undeclared}"
    for name, claim in CASES:
        if claim.over and claim.over != ABOVE:
            for language, folder in LANGUAGES.items():
                cells = nbformat.read(folder / name, as_version=4).cells
                ids = [c.get("id") for c in cells]
                assert claim.over in ids, (language, claim.id)
                assert ids.index(claim.over) < ids.index(claim.cell), (language, claim.id)
                assert cells[ids.index(claim.over)].cell_type == "code", (language, claim.id)
        for number, expression in claim.derived.items():
            evaluate_derived(expression)
            assert any(number in claim.sentence(language) for language in LANGUAGES), (claim.id, number)


def test_the_twelve_sentences_of_issue_35_are_claims():
    cells = {(claim.cell, claim.id) for _, claim in CASES}
    assert ISSUE_35 <= cells, ISSUE_35 - cells


def test_the_claims_have_distinct_ids_and_cover_the_seven_sentences_of_issue_24():
    ids = [claim.id for _, claim in CASES]
    assert len(ids) == len(set(ids))
    assert ISSUE_24 <= set(ids)


@pytest.mark.parametrize(("name", "claim"), CASES, ids=[f"{n.split('_')[0]}-{c.id}" for n, c in CASES])
def test_the_sentence_stands_in_its_cell_in_both_languages(name, claim):
    for language, folder in LANGUAGES.items():
        cells = {c.get("id"): c for c in nbformat.read(folder / name, as_version=4).cells}
        assert claim.cell in cells and cells[claim.cell].cell_type == "markdown", (language, claim.cell)
        assert claim.sentence(language) in cells[claim.cell].source, (language, claim.id)


@pytest.mark.notebooks
@pytest.mark.parametrize(("path", "language", "claim"), EXECUTED,
                         ids=[f"{lang}-{path.name.split('_')[0]}-{c.id}" for path, lang, c in EXECUTED])
def test_the_claim_holds_in_the_executed_notebook(path, language, claim, executed):
    nb = executed(path)
    sentence = claim.sentence(language)
    shown = Shown(nb, language)
    shown.sentence, shown.cell = sentence, claim.cell
    values = claim.check(shown)
    missing = {what: value for what, value in values.items() if value not in sentence}
    assert not missing, f"{claim.id} ({language}): the sentence does not show {missing}"
    left = unaccounted_numbers(sentence, values.values())
    assert not left, f"{claim.id} ({language}): numbers of the sentence that no check computed: {left}"
    cell = next(c for c in nb.cells if c.get("id") == claim.cell)
    assert sentence in cell.source
    if claim.over:
        assert claim.over in shown.scoped, (f"{claim.id} ({language}): the check did not range over "
                                            f"{claim.over} (Shown.over, Shown.leaders, one_output_above)")
    not_above = numbers_not_above(sentence, shown.above(claim.cell), claim.derived)
    assert not not_above, (f"{claim.id} ({language}): numbers of the sentence that no output above it shows, "
                           f"nor derives: {not_above}")
