"""Every sentence that reads a computed table, chart or output is a claim, tested in both languages.

The claims live in tests/claims/ (one module per notebook). For each claim, its sentence must stand in
its markdown cell, in the English and in the Chinese notebook; and its check, run on each language's
executed notebook (the run the suite makes once, tests/conftest.py), must hold and find its numbers in
that language's sentence. A check recomputes the claim from ragmath on the notebook's data.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from claims import (  # noqa: E402
    Shown,
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
    nb08,
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
    "08_your_own_system.ipynb": nb08.CLAIMS,
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
    shown.sentence = sentence
    values = claim.check(shown)
    missing = {what: value for what, value in values.items() if value not in sentence}
    assert not missing, f"{claim.id} ({language}): the sentence does not show {missing}"
    left = unaccounted_numbers(sentence, values.values())
    assert not left, f"{claim.id} ({language}): numbers of the sentence that no check computed: {left}"
    cell = next(c for c in nb.cells if c.get("id") == claim.cell)
    assert sentence in cell.source
