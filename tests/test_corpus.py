"""Data checks for the toy corpus, questions and labels, and the loaders' refusals of bad data.

The data checks read the files with the standard library (json, csv) where they can, so that a
loader bug cannot hide a data bug; the loader tests then check the loaders against bad files.
"""

from __future__ import annotations

import csv
import hashlib
import importlib.util
import json
import re
import shutil
from collections import Counter, defaultdict
from datetime import date
from pathlib import Path

import pandas as pd
import pytest

from ragmath import evaluate, units
from ragmath.lab.corpus import (
    CANONICAL_FILES,
    QUESTION_TYPES,
    chunk_to_clause,
    chunk_to_document,
    corpus_hash,
    load_config,
    load_corpus,
    load_dataset,
    load_identities,
    load_qrels,
    load_questions,
    qrels_for,
    split_manifest,
    split_problems,
)
from ragmath.lab.paths import DATA_DIR
from ragmath.lab.workbook import in_index, permission_filter, readable_by, roles_of

DATA = Path(DATA_DIR)


# ------------------------------------------------------------------ raw views (stdlib only)


def raw_jsonl(name: str) -> list[dict]:
    text = (DATA / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def raw_qrels() -> list[dict]:
    with (DATA / "qrels.csv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def raw_roles() -> dict[str, set[str]]:
    with (DATA / "identities.csv").open(encoding="utf-8", newline="") as handle:
        return {row["identity"]: set(row["roles"].split(";")) for row in csv.DictReader(handle)}


CHUNKS = {c["chunk_id"]: c for c in raw_jsonl("corpus.jsonl")}
QUESTIONS = {q["question_id"]: q for q in raw_jsonl("questions.jsonl")}
LABELS = raw_qrels()
POSITIVE = defaultdict(dict)
for _row in LABELS:
    if int(_row["grade"]) > 0:
        POSITIVE[_row["question_id"]][_row["chunk_id"]] = int(_row["grade"])


def question_with_text(text: str) -> dict:
    found = [q for q in QUESTIONS.values() if q["text"] == text]
    assert len(found) >= 1, f"no question with text {text!r}"
    return found[0]


# ------------------------------------------------------------------ data checks


def test_every_label_points_to_an_existing_chunk_and_question():
    assert LABELS, "qrels.csv is empty"
    for row in LABELS:
        assert row["chunk_id"] in CHUNKS, row
        assert row["question_id"] in QUESTIONS, row
        assert row["grade"] in {"0", "1", "2"}, row


def test_chunk_ids_unique_and_clause_ids_unique_across_documents():
    ids = [c["chunk_id"] for c in raw_jsonl("corpus.jsonl")]
    assert len(ids) == len(set(ids))
    owner: dict[str, set[str]] = defaultdict(set)
    for chunk in CHUNKS.values():
        owner[chunk["clause_id"]].add(chunk["doc_id"])
    assert all(len(docs) == 1 for docs in owner.values())


def test_corpus_size_and_contents_follow_the_issue():
    per_doc = Counter(c["doc_id"] for c in CHUNKS.values())
    assert 120 <= len(CHUNKS) <= 220  # 145 written with dev; the sealed holdout added its own
    assert 38 <= per_doc["TRV-2026"] <= 42
    assert per_doc["TRV-2025"] >= 5
    records = [c for c in CHUNKS.values() if c["kind"] == "record"]
    ids = {c["chunk_id"] for c in records}
    assert {f"INV-{n}" for n in range(101, 131)} <= ids and all(i.startswith("INV-") for i in ids)
    approval = [c for c in CHUNKS.values() if c["doc_id"] == "APR-2026"]
    assert approval and all(c["readers"] == ["finance"] for c in approval)
    assert any(c["kind"] == "table" for c in approval)
    lodging = CHUNKS["TRV26-5.2"]
    assert lodging["kind"] == "table" and lodging["text"].count("|") >= 20
    assert per_doc["XBR-2026"] >= 3
    others = {d for d in per_doc if not d.startswith(("TRV", "APR", "CLM", "XBR"))}
    assert len(others) >= 4  # unrelated HR/admin documents make retrieval non-trivial


def test_clause_4_2_is_split_in_two_chunks_as_in_the_article():
    a, b = CHUNKS["TRV26-4.2-a"], CHUNKS["TRV26-4.2-b"]
    assert a["clause_id"] == b["clause_id"] == "TRV-2026§4.2"
    assert "上海市内交通每次 80 元" in a["text"]
    assert "超出部分须主管审批" in b["text"]
    assert "上海市内交通每次 60 元" in CHUNKS["TRV25-4.2-a"]["text"]
    assert CHUNKS["TRV25-4.2-a"]["effective_to"] == "2026-01-01"


def test_every_chunk_is_readable_by_some_identity_and_has_every_field():
    roles = set().union(*raw_roles().values())
    fields = {"chunk_id", "doc_id", "doc_title", "clause_id", "clause_no", "edition",
              "effective_from", "effective_to", "readers", "kind", "title", "text", "gloss"}
    for chunk in CHUNKS.values():
        assert fields <= set(chunk), chunk["chunk_id"]
        assert set(chunk["readers"]) & roles, chunk["chunk_id"]
        assert chunk["gloss"].isascii(), chunk["chunk_id"]  # the gloss is English


def test_counts_per_type():
    counts = Counter(q["type"] for q in QUESTIONS.values())
    assert set(counts) == set(QUESTION_TYPES)
    assert all(counts[t] >= 4 for t in QUESTION_TYPES), counts
    assert sum(counts.values()) >= 40


def test_no_group_straddles_dev_and_holdout():
    sides: dict[str, set[str]] = defaultdict(set)
    for q in QUESTIONS.values():
        sides[q["group"]].add(q["split"])
    straddling = [g for g, s in sides.items() if len(s) > 1]
    assert straddling == []
    assert {q["split"] for q in QUESTIONS.values()} == {"dev", "holdout"}


def test_near_duplicate_variants_share_a_group():
    """Several groups hold more than one question, so a random split would leak."""
    sizes = Counter(q["group"] for q in QUESTIONS.values())
    assert sum(1 for n in sizes.values() if n >= 2) >= 5
    article_pair = {question_with_text("打车超标怎么报")["group"],
                    question_with_text("出租车费用超过标准了怎么报销")["group"]}
    assert article_pair == {"TRV-2026§4.2"}


def test_no_question_is_labelled_with_a_chunk_its_identity_cannot_read():
    roles = raw_roles()
    for qid, grades in POSITIVE.items():
        who = roles[QUESTIONS[qid]["identity"]]
        for chunk_id in grades:
            assert set(CHUNKS[chunk_id]["readers"]) & who, (qid, chunk_id)


def test_relevant_labels_point_to_chunks_live_on_the_snapshot_date():
    """Labels follow the evaluated version: no relevant chunk is superseded or not yet in force."""
    day = load_config()["snapshot_date"].isoformat()
    for qid, grades in POSITIVE.items():
        for chunk_id in grades:
            chunk = CHUNKS[chunk_id]
            assert chunk["effective_from"] <= day, (qid, chunk_id)
            assert chunk["effective_to"] is None or day < chunk["effective_to"], (qid, chunk_id)


def test_no_answer_questions_have_no_relevant_label_and_others_have_a_grade_2():
    for qid, q in QUESTIONS.items():
        if q["type"] == "no-answer":
            assert qid not in POSITIVE and q["answer_number"] is None, qid
        elif qid in POSITIVE:
            assert 2 in POSITIVE[qid].values(), qid


def test_cross_permission_holds_both_kinds():
    roles = raw_roles()
    cross = [q for q in QUESTIONS.values() if q["type"] == "cross-permission"]
    refused = [q for q in cross if q["identity"] == "p6_employee" and q["question_id"] not in POSITIVE]
    answered = [q for q in cross if q["identity"] == "finance_officer" and q["question_id"] in POSITIVE]
    assert len(refused) >= 2 and len(answered) >= 2
    for q in answered:  # the finance answer rests on a chunk the P6 employee cannot read
        assert any(not set(CHUNKS[c]["readers"]) & roles["p6_employee"]
                   for c in POSITIVE[q["question_id"]])
    paired = {q["text"] for q in refused} & {q["text"] for q in answered}
    assert len(paired) >= 2  # the same question asked as both identities
    for q in cross:  # the pair shares a group, so it cannot straddle the split
        twins = [t for t in cross if t["text"] == q["text"]]
        assert len({t["group"] for t in twins}) == 1


def test_the_articles_questions_are_present():
    q = question_with_text("打车超标怎么报")
    assert q["type"] == "multi-hop" and q["identity"] == "p6_employee"
    assert POSITIVE[q["question_id"]] == {"TRV26-4.2-a": 2, "TRV26-4.2-b": 1, "TRV26-7.4": 2}
    assert "审批" in CHUNKS["TRV26-7.4"]["title"]  # C, the approval authority

    q = question_with_text("INV-102 能报多少")
    assert q["type"] == "exact-id" and POSITIVE[q["question_id"]] == {"INV-102": 2}
    claimable = re.search(r"可报销金额：([\d.]+) 元", CHUNKS["INV-102"]["text"]).group(1)
    assert q["answer_number"] == float(claimable)

    q = question_with_text("打车超出额度了咋办")
    assert q["type"] == "paraphrase" and POSITIVE[q["question_id"]]["TRV26-4.2-b"] == 2
    assert "市内交通费用超出标准" in CHUNKS["TRV26-4.2-b"]["text"]

    lodging = [q for q in QUESTIONS.values() if q["type"] == "table"
               and POSITIVE.get(q["question_id"], {}).get("TRV26-5.2") == 2]
    assert lodging and any(q["source"] == "article" for q in lodging)

    cross_border = question_with_text("跨境出差的费用怎么报销？")
    border = [c for c, g in POSITIVE[cross_border["question_id"]].items() if g == 2]
    assert len(border) == 2 and all(CHUNKS[c]["doc_id"] == "XBR-2026" for c in border)

    taxi = [q for q in QUESTIONS.values() if "118.5" in q["text"]]
    assert len(taxi) == 1
    limit = float(re.search(r"每次 (\d+) 元", CHUNKS["TRV26-4.2-a"]["text"]).group(1))
    assert taxi[0]["answer_number"] == pytest.approx(118.5 - limit) == 38.5
    assert POSITIVE[taxi[0]["question_id"]]["TRV26-4.2-a"] == 2


def test_conflict_questions_label_the_other_edition_as_irrelevant():
    conflict = [q for q in QUESTIONS.values() if q["type"] == "conflict"]
    for q in conflict:
        zero = [r["chunk_id"] for r in LABELS
                if r["question_id"] == q["question_id"] and r["grade"] == "0"]
        relevant_docs = {CHUNKS[c]["doc_id"].split("-")[0] for c in POSITIVE[q["question_id"]]}
        other_edition = [c for c in zero if CHUNKS[c]["doc_id"].split("-")[0] in relevant_docs
                         and CHUNKS[c]["edition"] != CHUNKS[next(iter(POSITIVE[q["question_id"]]))]
                         ["edition"]]
        assert other_edition, q["question_id"]


def test_exact_id_questions_label_neighbouring_invoices_as_irrelevant():
    for q in (q for q in QUESTIONS.values() if q["type"] == "exact-id"):
        zero = [r["chunk_id"] for r in LABELS
                if r["question_id"] == q["question_id"] and r["grade"] == "0"]
        assert sum(c.startswith("INV-") for c in zero) >= 2, q["question_id"]


# ------------------------------------------------------------------ split


DEV = {qid: q for qid, q in QUESTIONS.items() if q["split"] == "dev"}
DEV_LABELS = [r for r in LABELS if r["question_id"] in DEV]


def _make_split():
    spec = importlib.util.spec_from_file_location("make_split", DATA / "make_split.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_split_manifest_lists_sides_without_text_or_labels():
    manifest = split_manifest()
    assert list(manifest["question_id"]) == list(QUESTIONS)
    assert not {"text", "gloss", "answer_text", "answer_number"} & set(manifest.columns)
    assert dict(zip(manifest["question_id"], manifest["split"], strict=True)) == {
        q: v["split"] for q, v in QUESTIONS.items()}
    assert set(manifest.loc[manifest["answerable"], "question_id"]) == set(POSITIVE)


def test_the_stored_split_has_no_problem():
    assert split_problems() == []


def test_split_problems_names_a_group_on_both_sides():
    manifest = pd.DataFrame({"question_id": ["a", "b", "c"], "group": ["g", "g", "h"],
                             "split": ["dev", "holdout", "holdout"]})
    assert split_problems(manifest) == [
        "group 'g' has questions on both sides: dev ['a'], holdout ['b']"]
    assert split_problems(manifest.assign(split="dev")) == ["no question has split 'holdout'"]


def test_make_split_check_mode_agrees():
    assert _make_split().main(["--check", "--data", str(DATA)]) == 0


def test_make_split_check_mode_detects_a_group_on_both_sides(tmp_path):
    copy = copy_data(tmp_path)
    lines = (copy / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    holdout_group = next(r["group"] for r in records if r["split"] == "holdout")
    first_dev = next(i for i, r in enumerate(records) if r["split"] == "dev")
    records[first_dev]["group"] = holdout_group
    write_lines(copy / "questions.jsonl", [json.dumps(r, ensure_ascii=False) for r in records])
    assert _make_split().main(["--check", "--data", str(copy)]) == 1


def test_loaders_leave_the_holdout_out_unless_told():
    questions = load_questions()
    assert set(questions["question_id"]) == set(DEV)
    assert set(load_qrels()["question_id"]) <= set(DEV)
    assert len(load_qrels()) == len(DEV_LABELS)
    ds = load_dataset()
    assert not ds.holdout_included and set(ds.questions["split"]) == {"dev"}
    with pytest.raises(TypeError, match="include_holdout must be True or False"):
        load_questions(include_holdout="yes")


def test_qrels_for_names_a_sealed_holdout_question():
    sealed = next(q for q, v in QUESTIONS.items() if v["split"] == "holdout")
    with pytest.raises(ValueError, match="sealed holdout question"):
        qrels_for([sealed])


# ------------------------------------------------------------------ loaders on the real data


def test_loaders_return_the_files_contents():
    ds = load_dataset()
    assert list(ds.corpus["chunk_id"]) == list(CHUNKS)
    assert list(ds.questions["question_id"]) == list(DEV)
    assert len(ds.qrels) == len(DEV_LABELS)
    assert ds.corpus.set_index("chunk_id").loc["TRV26-4.2-a", "readers"] == ("employee",)
    assert ds.corpus.set_index("chunk_id").loc["TRV26-1.1", "effective_to"] is None
    assert ds.config["snapshot_date"] == date(2026, 6, 30)
    assert ds.identities.loc["p6_employee", "roles"] == ("employee",)
    assert ds.questions.set_index("question_id")["answer_number"].map(type).isin(
        [float, type(None)]).all()


def test_loaders_accept_a_directory_or_a_file(tmp_path):
    copy = copy_data(tmp_path)
    by_dir = load_corpus(copy)
    by_file = load_corpus(copy / "corpus.jsonl")
    assert by_dir.equals(by_file)


def test_load_qrels_does_not_mutate_its_inputs():
    corpus, questions, identities = load_corpus(), load_questions(), load_identities()
    before = (corpus.copy(deep=True), questions.copy(deep=True), identities.copy(deep=True))
    load_qrels(corpus=corpus, questions=questions, identities=identities)
    assert corpus.equals(before[0]) and questions.equals(before[1]) and identities.equals(before[2])


def test_qrels_for_gives_every_question_in_evaluate_shape():
    labels = qrels_for()
    assert list(labels) == list(DEV)
    no_answer = [q for q, grades in labels.items() if not any(g > 0 for g in grades.values())]
    assert set(no_answer) == {q for q in DEV if q not in POSITIVE}
    assert labels[question_with_text("INV-102 能报多少")["question_id"]]["INV-103"] == 0
    # one perfect run: each answerable question ranks its relevant chunks first
    run = {q: sorted(g, key=lambda c: -g[c]) for q, g in labels.items() if q in POSITIVE}
    result = evaluate(run, labels, metrics=("Recall@5",))
    assert set(result.no_answer) == set(no_answer)
    assert result.means["Recall@5"] == 1.0


def test_qrels_for_refuses_a_bare_string_and_unknown_questions():
    with pytest.raises(TypeError, match="list"):
        qrels_for("Q01")
    with pytest.raises(ValueError, match="Q999"):
        qrels_for(["Q999"])


def test_unit_mappings_cover_every_chunk_and_work_with_units():
    clause, document = chunk_to_clause(), chunk_to_document()
    assert set(clause) == set(document) == set(CHUNKS)
    ranking = ["TRV26-4.2-a", "TRV26-4.2-b", "TRV26-5.2", "TRV25-4.2-a"]
    assert units.to_units(ranking, clause) == ["TRV-2026§4.2", "TRV-2026§5.2", "TRV-2025§4.2"]
    assert units.to_units(ranking, document) == ["TRV-2026", "TRV-2025"]


# ------------------------------------------------------------------ corpus hash


def copy_data(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    target.mkdir()
    for name in CANONICAL_FILES:
        shutil.copyfile(DATA / name, target / name)
    return target


def test_corpus_hash_is_deterministic_and_follows_the_documented_scheme(tmp_path):
    copy = copy_data(tmp_path)
    assert corpus_hash() == corpus_hash() == corpus_hash(copy)
    digest = hashlib.sha256()
    for name in CANONICAL_FILES:
        content = (DATA / name).read_bytes()
        digest.update(name.encode() + b"\0" + str(len(content)).encode() + b"\0" + content)
    assert corpus_hash() == digest.hexdigest()


def test_corpus_hash_changes_when_one_byte_changes(tmp_path):
    copy = copy_data(tmp_path)
    before = corpus_hash(copy)
    path = copy / "qrels.csv"
    path.write_bytes(path.read_bytes().replace(b",2\n", b",1\n", 1))
    assert corpus_hash(copy) != before


# ------------------------------------------------------------------ bad data is refused


def write_lines(path: Path, lines: list[str]) -> None:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def edit_jsonl(copy: Path, name: str, index: int, **changes) -> int:
    """Change fields of the record on line index+1 and return that line number."""
    lines = (copy / name).read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[index])
    record.update(changes)
    lines[index] = json.dumps(record, ensure_ascii=False)
    write_lines(copy / name, lines)
    return index + 1


def edit_csv(copy: Path, name: str, index: int, row: list[str]) -> int:
    """Replace data row ``index`` (0-based, after the header) and return its line number."""
    lines = (copy / name).read_text(encoding="utf-8").splitlines()
    lines[index + 1] = ",".join(row)
    write_lines(copy / name, lines)
    return index + 2


def first_label_index(copy: Path, grade: str) -> tuple[int, list[str]]:
    rows = list(csv.reader((copy / "qrels.csv").open(encoding="utf-8")))[1:]
    index = next(i for i, r in enumerate(rows) if r[2] == grade)
    return index, rows[index]


def expect(call, file: str, line: int | None, field: str):
    with pytest.raises(ValueError) as caught:
        call()
    message = str(caught.value)
    assert file in message, message
    if line is not None:
        assert f"line {line}," in message, message
    assert f"field '{field}'" in message, message
    return message


def test_label_pointing_to_a_missing_chunk_is_refused(tmp_path):
    copy = copy_data(tmp_path)
    index, row = first_label_index(copy, "2")
    line = edit_csv(copy, "qrels.csv", index, [row[0], "INV-999", "2"])
    message = expect(lambda: load_qrels(copy), "qrels.csv", line, "chunk_id")
    assert "INV-999" in message


def test_label_of_an_unknown_question_is_refused(tmp_path):
    copy = copy_data(tmp_path)
    line = edit_csv(copy, "qrels.csv", 3, ["Q999", "INV-102", "2"])
    expect(lambda: load_qrels(copy), "qrels.csv", line, "question_id")


@pytest.mark.parametrize("grade", ["3", "-1", "1.5", "two", ""])
def test_grade_outside_0_to_2_or_not_an_integer_is_refused(tmp_path, grade):
    copy = copy_data(tmp_path)
    index, row = first_label_index(copy, "1")
    line = edit_csv(copy, "qrels.csv", index, [row[0], row[1], grade])
    expect(lambda: load_qrels(copy), "qrels.csv", line, "grade")


def test_duplicate_label_is_refused(tmp_path):
    copy = copy_data(tmp_path)
    rows = (copy / "qrels.csv").read_text(encoding="utf-8").splitlines()
    write_lines(copy / "qrels.csv", rows + [rows[1]])
    expect(lambda: load_qrels(copy), "qrels.csv", len(rows) + 1, "chunk_id")


def test_relevant_label_unreadable_by_the_identity_is_refused(tmp_path):
    copy = copy_data(tmp_path)
    asked_as_p6 = next(q for q in QUESTIONS.values() if q["identity"] == "p6_employee")
    rows = (copy / "qrels.csv").read_text(encoding="utf-8").splitlines()
    write_lines(copy / "qrels.csv", rows + [f"{asked_as_p6['question_id']},APR26-2,1"])
    message = expect(lambda: load_qrels(copy), "qrels.csv", len(rows) + 1, "chunk_id")
    assert "p6_employee" in message and "APR26-2" in message


def test_unknown_identity_is_refused(tmp_path):
    copy = copy_data(tmp_path)
    line = edit_jsonl(copy, "questions.jsonl", 4, identity="ceo")
    message = expect(lambda: load_questions(copy), "questions.jsonl", line, "identity")
    assert "'ceo'" in message


def test_bad_question_type_is_refused(tmp_path):
    copy = copy_data(tmp_path)
    line = edit_jsonl(copy, "questions.jsonl", 2, type="multihop")
    expect(lambda: load_questions(copy), "questions.jsonl", line, "type")


@pytest.mark.parametrize("field, value", [("split", "test"), ("answer_number", "38.5"),
                                          ("answer_number", True), ("question_id", "")])
def test_bad_question_fields_are_refused(tmp_path, field, value):
    copy = copy_data(tmp_path)
    line = edit_jsonl(copy, "questions.jsonl", 7, **{field: value})
    expect(lambda: load_questions(copy), "questions.jsonl", line, field)


def test_duplicate_chunk_id_is_refused(tmp_path):
    copy = copy_data(tmp_path)
    line = edit_jsonl(copy, "corpus.jsonl", 9, chunk_id="TRV26-1.1")
    message = expect(lambda: load_corpus(copy), "corpus.jsonl", line, "chunk_id")
    assert "line 1" in message  # where the first one is


@pytest.mark.parametrize("field, value", [
    ("effective_from", "2026-13-01"),
    ("effective_from", "2026/01/01"),
    ("effective_from", None),
    ("effective_to", "2025-06-01"),   # before effective_from
    ("effective_to", "someday"),
    ("published_on", "2025-02-30"),
])
def test_bad_dates_are_refused(tmp_path, field, value):
    copy = copy_data(tmp_path)
    line = edit_jsonl(copy, "corpus.jsonl", 14, **{field: value})
    expect(lambda: load_corpus(copy), "corpus.jsonl", line, field)


@pytest.mark.parametrize("field, value", [("kind", "image"), ("readers", []), ("readers", "employee"),
                                          ("text", ""), ("title", " 目的")])
def test_bad_chunk_fields_are_refused(tmp_path, field, value):
    copy = copy_data(tmp_path)
    line = edit_jsonl(copy, "corpus.jsonl", 20, **{field: value})
    expect(lambda: load_corpus(copy), "corpus.jsonl", line, field)


def test_clause_id_shared_by_two_documents_is_refused(tmp_path):
    copy = copy_data(tmp_path)
    index = list(CHUNKS).index("APR26-1")
    line = edit_jsonl(copy, "corpus.jsonl", index, clause_id="TRV-2026§1.1")
    message = expect(lambda: load_corpus(copy), "corpus.jsonl", line, "clause_id")
    assert "TRV-2026" in message


def test_invalid_json_line_is_refused_with_its_line(tmp_path):
    copy = copy_data(tmp_path)
    lines = (copy / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    lines[5] = lines[5][:-1]
    write_lines(copy / "corpus.jsonl", lines)
    with pytest.raises(ValueError, match=r"corpus\.jsonl, line 6: not valid JSON"):
        load_corpus(copy)


def test_bad_identities_are_refused(tmp_path):
    copy = copy_data(tmp_path)
    rows = (copy / "identities.csv").read_text(encoding="utf-8").splitlines()
    write_lines(copy / "identities.csv", rows + ["p6_employee,employee,again"])
    expect(lambda: load_identities(copy), "identities.csv", len(rows) + 1, "identity")
    write_lines(copy / "identities.csv", rows + ["auditor,,no roles"])
    expect(lambda: load_identities(copy), "identities.csv", len(rows) + 1, "roles")


@pytest.mark.parametrize("field, value", [("snapshot_date", "30/06/2026"), ("snapshot_date", None),
                                          ("frozen_design", [1, 2])])
def test_bad_config_is_refused(tmp_path, field, value):
    copy = copy_data(tmp_path)
    config = json.loads((copy / "config.json").read_text(encoding="utf-8"))
    config[field] = value
    (copy / "config.json").write_text(json.dumps(config), encoding="utf-8")
    expect(lambda: load_config(copy), "config.json", None, field)


# ------------------------------------------------------------------ index as of a date, permissions


def _ids_in_index(corpus, day, editions="live") -> list[str]:
    return list(corpus.loc[in_index(corpus, day, editions), "chunk_id"])


def test_live_index_holds_only_editions_in_force():
    corpus = load_corpus()
    live = _ids_in_index(corpus, "2026-06-30", "live")
    published = _ids_in_index(corpus, "2026-06-30", "published")
    assert "TRV26-4.2-a" in live and "TRV25-4.2-a" not in live
    assert "TRV25-4.2-a" in published and "TRV26-4.2-a" in published
    # MTG-2026 is published on 2026-06-20 but takes effect on 2026-07-01
    assert "MTG26-2" in published and "MTG26-2" not in live and "MTG24-2" in live
    in_force_by_hand = [
        c for c, chunk in CHUNKS.items()
        if chunk["effective_from"] <= "2026-06-30"
        and (chunk["effective_to"] is None or "2026-06-30" < chunk["effective_to"])
    ]
    assert live == in_force_by_hand
    assert published == [c for c, ch in CHUNKS.items()
                         if ch.get("published_on", ch["effective_from"]) <= "2026-06-30"]


def test_effective_to_is_exclusive():
    corpus = load_corpus()
    assert "TRV25-4.2-a" in _ids_in_index(corpus, "2025-12-31")
    assert "TRV26-4.2-a" not in _ids_in_index(corpus, "2025-12-31")
    assert "TRV25-4.2-a" not in _ids_in_index(corpus, date(2026, 1, 1))
    assert "TRV26-4.2-a" in _ids_in_index(corpus, date(2026, 1, 1))
    on_july_first = _ids_in_index(corpus, "2026-07-01")
    assert "MTG26-2" in on_july_first and "MTG24-2" not in on_july_first


def test_in_index_leaves_the_corpus_alone():
    corpus = load_corpus()
    before = corpus.copy(deep=True)
    in_index(corpus, "2026-06-30", "published")
    assert corpus.equals(before)


def test_in_index_refuses_bad_arguments():
    corpus = load_corpus()
    with pytest.raises(ValueError, match="editions"):
        in_index(corpus, "2026-06-30", editions="latest")
    with pytest.raises(ValueError, match="as_of"):
        in_index(corpus, "June 30")
    with pytest.raises(ValueError, match="effective_to"):
        in_index(corpus.drop(columns="effective_to"), "2026-06-30")


def test_permission_view_holds_no_chunk_the_identity_cannot_read():
    corpus = load_corpus()
    live = corpus[in_index(corpus, "2026-06-30")]
    roles = raw_roles()
    for identity, own in roles.items():
        view = list(permission_filter(live, identity)["chunk_id"])
        for chunk_id in view:
            assert set(CHUNKS[chunk_id]["readers"]) & own, (identity, chunk_id)
        # and nothing readable is dropped
        assert view == [c for c in live["chunk_id"] if set(CHUNKS[c]["readers"]) & own]
    p6 = list(permission_filter(live, "p6_employee")["chunk_id"])
    assert "APR26-2" not in p6 and "INV-126" not in p6 and "INV-102" in p6


def test_permission_filter_refuses_unknown_identities():
    with pytest.raises(ValueError, match="known identities"):
        permission_filter(load_corpus(), "ceo")


def test_permission_filter_on_ids_keeps_order_and_on_frames_keeps_rows():
    ids = ["INV-126", "TRV26-4.2-b", "APR26-3", "INV-101"]
    assert permission_filter(ids, "p6_employee") == ["TRV26-4.2-b", "INV-101"]
    assert permission_filter(ids, "finance_officer") == ids
    assert permission_filter(ids, {"finance"}) == ["INV-126", "APR26-3"]
    corpus = load_corpus()
    frame = permission_filter(corpus, "p6_employee")
    assert isinstance(frame, pd.DataFrame) and len(frame) == len(readable_by("p6_employee"))
    with pytest.raises(ValueError, match="INV-999"):
        permission_filter(["INV-999"], "p6_employee")


def test_roles_of_names_and_role_sets():
    assert roles_of("p6_employee") == frozenset({"employee"})
    assert roles_of(["employee", "finance"]) == frozenset({"employee", "finance"})
    with pytest.raises(ValueError, match="unknown"):
        roles_of("intern")


def test_index_accepts_a_hand_made_corpus_with_string_dates():
    corpus = pd.DataFrame({
        "chunk_id": ["old", "new", "future"],
        "doc_id": ["D-1", "D-2", "D-3"],
        "readers": [("employee",)] * 3,
        "effective_from": ["2025-01-01", "2026-01-01", "2026-07-01"],
        "effective_to": ["2026-01-01", None, None],
        "published_on": [None, "2025-12-01", "2026-06-20"],
    })
    assert _ids_in_index(corpus, "2026-06-30") == ["new"]
    assert _ids_in_index(corpus, "2026-06-30", "published") == ["old", "new", "future"]
    assert _ids_in_index(corpus, "2025-06-30", "published") == ["old"]
