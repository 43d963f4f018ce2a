"""Notebook 01 (the unit of evaluation): the sentences that read its tables."""

# ruff: noqa: E501 - the sentences stand as the notebooks write them (Chinese characters count double)

from __future__ import annotations

from claims import Claim, Shown

RUN_Q07 = ["TRV26-4.2-b", "TRV26-4.2-a", "TRV25-4.2-a", "TRV26-4.3", "TRV26-7.4", "ATT25-6"]
USELESS_TOP3 = ["TRV26-1.1", "TRV26-6.3", "TRV26-7.2"]


def check_levels(shown: Shown) -> dict[str, str]:
    """Section 5's table (Q07's run at three levels): at chunk level 4.2-a and 4.2-b are two of the three
    labelled chunks; at clause level they are one unit and the missed 7.4 is half of the evidence (Recall@3
    = 0.5); at document level the evidence is one document (Recall@3 = 1); Hit@3 is 1 at every level."""
    from ragmath import hit_at_k, recall_at_k, units
    from ragmath.lab.corpus import load_corpus, qrels_for

    corpus = load_corpus()
    q07 = qrels_for(["Q07"])["Q07"]
    labelled = sorted(c for c, g in q07.items() if g > 0)
    assert labelled == ["TRV26-4.2-a", "TRV26-4.2-b", "TRV26-7.4"], labelled
    ranking, grades = units.at_level(RUN_Q07, q07, "clause", corpus)
    clauses = sorted(c for c, g in grades.items() if g > 0)
    assert len(clauses) == 2 and any(c.endswith("§7.4") for c in clauses), clauses
    assert not any(c.endswith("§7.4") for c in ranking[:3]) and recall_at_k(ranking, grades, 3) == 0.5
    ranking, grades = units.at_level(RUN_Q07, q07, "document", corpus)
    assert len([d for d, g in grades.items() if g > 0]) == 1 and recall_at_k(ranking, grades, 3) == 1
    for level in ("chunk", "clause", "document"):
        ranking, grades = units.at_level(RUN_Q07, q07, level, corpus)
        assert hit_at_k(ranking, grades, 3) == 1, level
    en = shown.language == "en"
    return {"4.2": "4.2", "7.4": "7.4", "Hit@3": "Hit@3", "one": "it is 1 at every level" if en else "它在每一级都是 1"}


def check_document_hit(shown: Shown) -> dict[str, str]:
    """"Document-level scoring calls this a hit, yet none of the three chunks says anything about local
    transport": Hit@3 = 1 at document level, and no chunk of the top 3 is clause 4.2 or mentions 市内交通."""
    from ragmath import hit_at_k, units
    from ragmath.lab.corpus import load_corpus

    corpus = load_corpus()
    as_documents = units.to_level(USELESS_TOP3, "document", corpus)
    assert hit_at_k(as_documents, {"TRV-2026": 1}, 3, exact=True) == 1
    rows = corpus.set_index("chunk_id").loc[USELESS_TOP3]
    assert not any(str(c).endswith("4.2") for c in rows["clause_id"]), list(rows["clause_id"])
    assert not any("市内交通" in t for t in rows["text"])
    shown.shows("63e43917", "Hit@3 = 1")
    assert shown.output("63e43917").rstrip().endswith("0"), "the cell counts chunks about clause 4.2: not 0"
    return {"Hit@3 = 1": "Hit@3 = 1"} if shown.language == "zh" else {}


CLAIMS = [
    Claim("levels_reading", "b1380766",
          en="At chunk level the two halves of clause 4.2 are two of the three labelled\nchunks; at clause level they are one unit, and the missed clause 7.4 is half of the evidence; at document\nlevel all the evidence lives in one document, so finding any chunk of it is \"everything\". Hit@3 cannot see\nany of this: it is 1 at every level.",
          zh="在片段级，第 4.2 条的两半是三条标注片段中的两条；在条款级，它们合成一个单位，漏掉的第 7.4 条就占了证据的一半；在文档级，所有证据都在同一份文档里，找到其中任何一个片段就算“全找到了”。Hit@3 对这些全都看不出来：它在每一级都是 1。",
          check=check_levels,
          scope="'all the evidence': every labelled chunk of the question, at each of the three levels the sentence names"),
    Claim("document_hit", "8384bda8",
          en="Document-level scoring calls this a hit, yet none of the three chunks says anything about local transport.",
          zh="“按文档级口径算 Hit@3 = 1，可三条里没有一条讲市内交通。”",
          check=check_document_hit,
          scope="'none of the three chunks': the three chunks of the run the sentence reads, every one"),
]
