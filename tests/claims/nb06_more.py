"""Notebook 06 (the ablation): the readings after its tables (the sentences the ablation table, the first-rank
tables, the reranker's entries, the cost table and the term-match table support)."""

# ruff: noqa: E501 - the sentences stand as the notebooks write them (Chinese characters count double)

from __future__ import annotations

import functools

from claims import Claim, Shown, dataset, dev_ablation, dev_full, fmt, table_columns, top

VERSIONS = ("A", "B", "C", "D")
ROWS = ("A", "B", "C", "D", "E")  # the ablation table's retrieval rows (E: score fusion instead of RRF)


def _means(metric: str, versions) -> dict[str, float]:
    table = dev_ablation().table
    return {v: float(table.loc[v, metric]) for v in versions}


#: The code cells that display the dev ablation table: its retrieval columns and its answer columns (06a).
RETRIEVAL_TABLE, ANSWER_TABLE = "872161ec", "24160860"


def _column(metric: str) -> dict[str, float]:
    """One column of the ablation table, every row the notebook displays (the Oracle's — is NaN)."""
    import pandas as pd

    return pd.to_numeric(dev_full().table[metric], errors="coerce").astype(float).to_dict()


def _leads(shown: Shown, cell: str, metric: str, versions, leader: list[str]) -> dict[str, str]:
    """The leaders of a column over every row of the table cell ``cell`` displays (unless the sentence names the
    rows) must be ``leader``; the values of ``versions`` as the sentence lists them."""
    values = _column(metric)
    found = shown.leaders(cell, values)
    assert found == leader, f"over the rows of the table (cell {cell}) {found} lead(s) on {metric}, not {leader}: {values}"
    return {"metric": metric, **{v: f"{v} {fmt(values[v])}" for v in versions}}


def check_recall_leader(shown: Shown) -> dict[str, str]:
    """"On Recall@5, C and D tie for the lead (A …, E …)" (over every row of the table: the Oracle's — takes no
    part). Design 2's sentence said "C leads" while D tied with it."""
    return _leads(shown, RETRIEVAL_TABLE, "Recall@5", ROWS, ["C", "D"])


def check_mrr_close(cell: str):
    def check(shown: Shown) -> dict[str, str]:
        """"On MRR@5, C is ahead of D by d (C …, D …)": the article expects D to lead, and here it does not (over
        every row of the table cell ``cell`` displays)."""
        values = _means("MRR@5", "CD")
        assert values["C"] > values["D"], values
        assert "D" not in shown.leaders(cell, _column("MRR@5"))
        return {"metric": "MRR@5", "by": f"by {fmt(values['C'] - values['D'])}" if shown.language == "en"
                else f"高 {fmt(values['C'] - values['D'])}", **{v: f"{v} {fmt(x)}" for v, x in values.items()}}
    return check


def check_mrr_b_leads(cell: str, *, d_over_c: bool = False):
    def check(shown: Shown) -> dict[str, str]:
        """"On MRR@5, B leads (A …, E …)" over every row of the table cell ``cell`` displays (the article expects
        D); with ``d_over_c`` also "D is ahead of C by d"."""
        out = _leads(shown, cell, "MRR@5", ROWS, ["B"])
        if d_over_c:
            values = _means("MRR@5", "CD")
            assert values["D"] > values["C"], values
            out["by"] = f"by {fmt(values['D'] - values['C'])}" if shown.language == "en" else \
                f"高 {fmt(values['D'] - values['C'])}"
        return out
    return check


def check_ndcg_leader(shown: Shown) -> dict[str, str]:
    """"On nDCG@5, B leads (A …, E …); the article expects D to lead: here it does not"."""
    out = _leads(shown, RETRIEVAL_TABLE, "nDCG@5", ROWS, ["B"])
    return out


def check_recall_equal(shown: Shown) -> dict[str, str]:
    """"Recall@5 is x for C and x for D: equal" (the reranker reorders the top M = 5 only)."""
    values = _means("Recall@5", "CD")
    assert values["C"] == values["D"], values
    return {"C": fmt(values["C"]), "metric": "Recall@5", "K": top(5, shown.language)}


def check_oracle_leads(metric: str):
    def check(shown: Shown) -> dict[str, str]:
        """"On <metric> the Oracle leads (Oracle x)", over every row of the answer table."""
        values = _column(metric)
        found = shown.leaders(ANSWER_TABLE, values)
        assert found == ["Oracle"], (found, values)
        return {"Oracle": f"Oracle {fmt(values['Oracle'])}"}
    return check


def check_answer_accuracy(shown: Shown) -> dict[str, str]:
    """"among A–E, C and D tie for the lead (…): A a/n, … correct. The five versions are s questions apart out
    of n; one question weighs w points" (the Oracle leads the whole table: its own claim)."""
    table = dev_full().table
    accuracy = {v: float(table.loc[v, "answer accuracy"]) for v in ROWS}
    found = shown.leaders(ANSWER_TABLE, _column("answer accuracy"))
    assert found == ["C", "D"], (f"among the rows the sentence names (cell {ANSWER_TABLE}) {found} lead(s) on answer "
                                 f"accuracy, not C and D: {_column('answer accuracy')}")
    correct = {v: int(table.loc[v, "answers correct"]) for v in ROWS}
    n = int(table.loc["D", "answerable"])
    spread = max(correct.values()) - min(correct.values())
    return {**{f"{v} accuracy": f"{v} {fmt(x)}" for v, x in accuracy.items()},
            **{f"{v} correct": f"{v} {c}/{n}" for v, c in correct.items()},
            "spread": f"{spread} " if shown.language == "en" else f"相差 {spread} 道", "weight": f"{100 / n:.1f}",
            "n": f"{n}"}


def check_citation_support(shown: Shown) -> dict[str, str]:
    """"among A–E, C, D and E tie for the lead (…)" on citation support (the Oracle leads the whole table)."""
    table = dev_full().table
    support = {v: float(table.loc[v, "citation support"]) for v in ROWS}
    found = shown.leaders(ANSWER_TABLE, _column("citation support"))
    assert found == ["C", "D", "E"], (f"among the rows the sentence names (cell {ANSWER_TABLE}) {found} lead(s) on "
                                      f"citation support, not C, D and E: {_column('citation support')}")
    return {v: f"{v} {fmt(x)}" for v, x in support.items()}


def check_oracle_headroom(shown: Shown) -> dict[str, str]:
    """"The Oracle answers o/n, D d/n: better retrieval could win at most o − d more, and the other n − o are
    lost by the generator itself"."""
    table = dev_full().table
    oracle, d, n = (int(table.loc["Oracle", "answers correct"]), int(table.loc["D", "answers correct"]),
                    int(table.loc["D", "answerable"]))
    assert oracle >= d
    return {"oracle": f"{oracle}/{n}", "d": f"{d}/{n}", "headroom": f"{oracle - d} ", "lost": f"{n - oracle} "}


def _first_rank_table(qids) -> dict[str, dict[str, float]]:
    pq = dev_ablation().per_question
    return {v: {x: float(pq.loc[(v, x), "first relevant rank"]) for x in qids} for v in VERSIONS}


def _questions(kind: str) -> list[str]:
    q = dataset().questions.set_index("question_id")
    return [x for x in dev_ablation().runs["A"] if q.loc[x, "type"] == kind]


def _counts(kind: str, limit: int) -> dict[str, int]:
    ranks = _first_rank_table(_questions(kind))
    return {v: sum(r <= limit for r in ranks[v].values()) for v in VERSIONS}


#: The first-rank tables of 06b (versions as columns): the exact-ID questions' and the paraphrases'.
FIRST_RANK_TABLES = {"exact-id": "060179e8", "paraphrase": "dc58e085"}


def _displayed_table(shown: Shown, cell: str) -> str:
    """The plain text of the table a code cell displays (its last output: the cell prints the counts first)."""
    from outputs import plain_texts

    return plain_texts(next(c for c in shown.nb.cells if c.get("id") == cell))[-1]


def _counts_check(shown: Shown, kind: str, limit: int, expected_leaders: list[str]) -> dict[str, str]:
    counts = _counts(kind, limit)
    n = len(_questions(kind))
    cell = FIRST_RANK_TABLES[kind]
    found = shown.leaders(cell, {v: float(c) for v, c in counts.items()},
                          displayed=table_columns(_displayed_table(shown, cell)))
    assert found == expected_leaders, counts
    language = shown.language
    where = ("rank 1" if language == "en" else "第 1 名") if limit == 1 else top(limit, language)
    return {"n": f"{n} ", "where": where, **{v: f"{v} {c}/{n}" for v, c in counts.items()}}


def check_exact_rank1(shown: Shown) -> dict[str, str]:
    return _counts_check(shown, "exact-id", 1, ["A", "B", "C", "D"])


def check_para_rank1(shown: Shown) -> dict[str, str]:
    return _counts_check(shown, "paraphrase", 1, ["B"])


def check_para_top5(shown: Shown) -> dict[str, str]:
    return _counts_check(shown, "paraphrase", 5, ["B", "C", "D"])


def _kept_and_lost(kind: str, source: str) -> tuple[list[str], list[str], list[str]]:
    ranks = _first_rank_table(_questions(kind))
    firsts = [x for x, r in ranks[source].items() if r == 1]
    kept = [x for x in firsts if ranks["C"][x] == 1]
    return firsts, kept, [x for x in firsts if ranks["C"][x] != 1]


def check_exact_a_hits_kept(shown: Shown) -> dict[str, str]:
    """"A ranks a relevant chunk first for f of the n exact-ID questions; C keeps k of them" (and loses none)."""
    firsts, kept, lost = _kept_and_lost("exact-id", "A")
    assert firsts and not lost, lost
    n = len(_questions("exact-id"))
    return {"firsts": f"{len(firsts)} of the {n}" if shown.language == "en" else f"{n} 个编号题中，A 有 {len(firsts)} 个",
            "kept": f"{len(kept)} ", "rank": "第 1 名" if shown.language == "zh" else ""}


def check_para_a_hits_kept(shown: Shown) -> dict[str, str]:
    """"A ranks a relevant chunk first for f of the n paraphrase questions; C keeps k of them" (and loses none)."""
    firsts, kept, lost = _kept_and_lost("paraphrase", "A")
    assert firsts and not lost
    n = len(_questions("paraphrase"))
    return {"firsts": f"{len(firsts)} of the {n}" if shown.language == "en" else f"{n} 个同义改写题中，A 有 {len(firsts)} 个",
            "kept": f"{len(kept)} ", "rank": "第 1 名" if shown.language == "zh" else ""}


def check_para_b_hits_kept(shown: Shown) -> dict[str, str]:
    """"B ranks a relevant chunk first for f of the n paraphrase questions; C keeps k of them and loses (ids)"."""
    firsts, kept, lost = _kept_and_lost("paraphrase", "B")
    assert lost
    n = len(_questions("paraphrase"))
    return {"firsts": f"{len(firsts)} of the {n}" if shown.language == "en" else f"{n} 个同义改写题中，B 有 {len(firsts)} 个",
            "kept": f"{len(kept)} ", "rank": "第 1 名" if shown.language == "zh" else "", **{x: x for x in lost}}


def check_para_vector_finds(shown: Shown) -> dict[str, str]:
    """"k paraphrases where BM25 finds nothing in its top 5 (ids): B finds each of them, at ranks b1, …, and C keeps
    each in its top 5"."""
    ranks = _first_rank_table(_questions("paraphrase"))
    found = [x for x in ranks["A"] if not ranks["A"][x] <= 5]
    assert found and all(ranks["B"][x] <= 5 and ranks["C"][x] <= 5 for x in found), ranks
    en = shown.language == "en"
    sep = ", " if en else "、"
    b = [str(int(ranks["B"][x])) for x in found]
    return {"count": f"{len(found)} ", "K": top(5, shown.language), "ids": sep.join(found),
            "ranks": f"{sep.join(b[:-1])} and {b[-1]}" if en else f"{sep.join(b[:-1])} 和 {b[-1]}"}


def check_clause42_moves(shown: Shown) -> dict[str, str]:
    """"Clause 4.2 moves up under D for u of its n questions and down for d"."""
    dev = dev_ablation()
    q = dataset().questions.set_index("question_id")
    clause = [x for x in dev.runs["C"] if q.loc[x, "group"] == "TRV-2026§4.2"]

    def best(run):
        found = [run.index(c) + 1 for c in ("TRV26-4.2-a", "TRV26-4.2-b") if c in run]
        return min(found) if found else float("inf")

    up = sum(best(dev.runs["D"][x]) < best(dev.runs["C"][x]) for x in clause)
    down = sum(best(dev.runs["D"][x]) > best(dev.runs["C"][x]) for x in clause)
    assert all(sorted(dev.runs["C"][x]) == sorted(dev.runs["D"][x]) for x in dev.runs["C"])
    return {"clause": "4.2", "up": f"{up} ", "n": f"{len(clause)} ", "down": f"down for {down};" if shown.language == "en" else f"下移的有 {down} 个"}


def check_same_passages(shown: Shown) -> dict[str, str]:
    """"C and D hand the generator the same set of passages for s of n questions …; their answers differ in
    correctness on c questions"."""
    dev = dev_full()
    pq = dev.per_question
    questions = list(dev.runs["C"])
    same = sum(sorted(dev.generator_input["C"][x]) == sorted(dev.generator_input["D"][x]) for x in questions)
    changed = sum(pq.loc[("C", x), "correct"] != pq.loc[("D", x), "correct"] for x in questions)
    shown.shows("6912de00", f"{same} of {len(questions)}" if shown.language == "en" else f"{same} / {len(questions)}")
    from ragmath.lab.holdout import frozen_design

    design = frozen_design()
    en = shown.language == "en"
    return {"same": f"{same} ", "n": f"{len(questions)} ", "changed": f"{changed} ",
            "M": f"M = {design.rerank_depth}", "read": f"{design.context_k} passages read" if en else f"读取 {design.context_k} 个片段"}


def check_context_cost(shown: Shown) -> dict[str, str]:
    """"The Oracle sends o characters per question; A–D send the top 5 passages, low–high characters"."""
    table = dev_full().table
    chars = {v: float(table.loc[v, "context chars/q"]) for v in (*ROWS, "Oracle")}
    low, high = min(chars[v] for v in ROWS), max(chars[v] for v in ROWS)
    assert chars["Oracle"] < low
    from ragmath.lab.holdout import frozen_design

    k = frozen_design().context_k
    return {"oracle": f"{chars['Oracle']:.0f} ", "range": f"{low:.0f}–{high:.0f}",
            "top": f"top {k} passages" if shown.language == "en" else f"前 {k} 个片段"}


@functools.cache
def _entries_20():
    from dataclasses import replace

    from ragmath.lab.ablation import rerank_entries, run_ablation
    from ragmath.lab.holdout import frozen_design

    frozen = frozen_design()
    deep = run_ablation(replace(frozen, rerank_depth=20), dataset(), answers=False)
    return rerank_entries(deep.runs["C"], deep.runs["D"], deep.qrels, frozen.top_k), len(deep.runs["C"])


@functools.cache
def _deep_c():
    """C's lists under the frozen design at M = 20 (with W = 5, the fused list holds at most 2W chunks)."""
    from dataclasses import replace

    from ragmath.lab.ablation import run_ablation
    from ragmath.lab.holdout import frozen_design

    return run_ablation(replace(frozen_design(), rerank_depth=20), dataset(), answers=False).runs["C"]


def check_rerank_entries(shown: Shown) -> dict[str, str]:
    """"With M = 20, the reranker brings e chunks from ranks 6–20 into the top 5 (q of n questions); r of them
    are relevant. The e it pushes out include p relevant one(s). … nothing it promoted was evidence"."""
    entries, n = _entries_20()
    totals = entries.sum()
    brought, relevant_in = int(totals["entered"]), int(totals["entered relevant"])
    pushed, relevant_out = int(totals["pushed out"]), int(totals["pushed out relevant"])
    asked = int((entries["entered"] > 0).sum())
    assert relevant_out > relevant_in, "going deeper brought in as much evidence as it lost"
    assert pushed == brought
    longest = max(len(ranking) for ranking in _deep_c().values())
    shown.shows("f772e1d8", str(brought), str(relevant_out), f"{asked} ", f"{n}", f"{longest} ")
    en = shown.language == "en"
    return {"M": "M = 20", "from": f"ranks 6–{longest}" if en else f"第 6–{longest} 名", "K": top(5, language=shown.language),
            "brought": f"{brought} ", "asked": f"{asked} ", "n": f"{n} ", "relevant in": f"{relevant_in} ",
            "relevant out": f"{relevant_out} "}


def check_term_match(which: str):
    def check(shown: Shown) -> dict[str, str]:
        """Under which tokenizers 市内 is inside a token the query shares with the clause's text (or the chunk
        as indexed)."""
        from ragmath.lab.workbook import chunk_text, shared_tokens

        row = dataset().corpus.set_index("chunk_id").loc["TRV26-4.2-a"]
        text = row["text"] if which == "alone" else chunk_text(row.to_dict())
        names = ["jieba_plain", "jieba_search", "jieba", "bigram"]
        match = [t for t in names if any("市内" in token for token in shared_tokens("市内交通费用超出标准", text, t))]
        values = {t: t for t in match}
        if which == "alone":
            assert match == ["jieba_search", "jieba", "bigram"], match
        else:
            assert match == names, match
        return values
    return check


CLAIMS = [
    Claim("ablation_recall_leader", "7ff24bbf",
          en='On Recall@5, C and D tie for the lead (A 0.686, B 0.810, C 0.833, D 0.833, E 0.822)',
          zh='Recall@5：C 和 D 并列领先（A 0.686、B 0.810、C 0.833、D 0.833、E 0.822）',
          check=check_recall_leader,
          over=RETRIEVAL_TABLE),
    Claim("ablation_mrr_leader", "7ff24bbf",
          en='On MRR@5, B leads (A 0.694, B 0.873, C 0.837, D 0.839, E 0.864); the article expects D to lead: here it does not.',
          zh='MRR@5：B 领先（A 0.694、B 0.873、C 0.837、D 0.839、E 0.864）；文章预期 D 领先，这里并没有。',
          check=check_mrr_b_leads(RETRIEVAL_TABLE), over=RETRIEVAL_TABLE),
    Claim("ablation_ndcg_leader", "7ff24bbf",
          en='On nDCG@5, B leads (A 0.647, B 0.809, C 0.796, D 0.797, E 0.798); the article expects D to lead: here it does not.',
          zh='nDCG@5：B 领先（A 0.647、B 0.809、C 0.796、D 0.797、E 0.798）；文章预期 D 领先，这里并没有。',
          check=check_ndcg_leader,
          over=RETRIEVAL_TABLE),
    Claim("ablation_recall_equal", "7ff24bbf",
          en='Recall@5 is 0.833 for C and 0.833 for D: equal, as it must be, since the reranker only reorders the top 5.',
          zh='C 的 Recall@5 为 0.833，D 为 0.833：两者相等，本该如此，因为重排模型只对前 5 名重新排序。',
          check=check_recall_equal),
    Claim("oracle_accuracy_leads", "7ff24bbf",
          en='On answer accuracy the Oracle leads (Oracle 0.628)',
          zh='答案准确率：Oracle 领先（Oracle 0.628）',
          check=check_oracle_leads("answer accuracy"), over=ANSWER_TABLE),
    Claim("ablation_answer_accuracy", "7ff24bbf",
          en='among A–E, C and D tie for the lead (A 0.535, B 0.535, C 0.558, D 0.558, E 0.535): A 23/43, B 23/43, C 24/43, D 24/43, E 23/43 correct. The five versions are 1 question apart out of 43; one question weighs 2.3 points',
          zh='A–E 中，C 和 D 并列领先（A 0.535、B 0.535、C 0.558、D 0.558、E 0.535），答对的题数为 A 23/43、B 23/43、C 24/43、D 24/43、E 23/43。五个版本之间最多相差 1 道题（共 43 道）；一道题就占 2.3 个百分点',
          check=check_answer_accuracy,
          over=ANSWER_TABLE, derived={"2.3": "100 / 43"}),
    Claim("oracle_support_leads", "7ff24bbf",
          en='On citation support the Oracle leads (Oracle 1.000)',
          zh='引用支持率：Oracle 领先（Oracle 1.000）',
          check=check_oracle_leads("citation support"), over=ANSWER_TABLE),
    Claim("ablation_citation_support", "7ff24bbf",
          en='among A–E, C, D and E tie for the lead (A 0.667, B 0.667, C 0.694, D 0.694, E 0.694).',
          zh='A–E 中，C、D 和 E 并列领先（A 0.667、B 0.667、C 0.694、D 0.694、E 0.694）。',
          check=check_citation_support,
          over=ANSWER_TABLE),
    Claim("ablation_oracle_headroom", "7ff24bbf",
          en='The Oracle answers 27/43 with the gold evidence in hand, D 24/43: better retrieval could win at most 3 more here, and the other 16 are lost by the generator itself',
          zh='Oracle（给定标准证据）答对 27/43，D 答对 24/43：更好的召回在这里最多还能多答对 3 道，其余 16 道是生成器自己答错的',
          check=check_oracle_headroom,
          scope="'at most 3 more' bounds what better retrieval could win (the Oracle's correct answers minus D's): it ranges over no rows",
          derived={"3": "27 - 24", "16": "43 - 27"}),
    Claim("exact_rank1", "93fe0bbb",
          en="Relevant chunk at rank 1 for the 6 exact-ID questions: A 6/6, B 6/6, C 6/6, D 6/6; A, B, C and D lead(s)",
          zh="6 个编号题中相关片段排在第 1 名的数目：A 6/6、B 6/6、C 6/6、D 6/6；A、B、C 和 D 领先",
          check=check_exact_rank1,
          over=FIRST_RANK_TABLES["exact-id"]),
    Claim("exact_a_hits_kept", "93fe0bbb",
          en="A ranks a relevant chunk first for 6 of the 6 exact-ID questions; C keeps 6 of them.",
          zh="在 6 个编号题中，A 有 6 个把相关片段排在第 1 名；C 保留了其中 6 个。",
          check=check_exact_a_hits_kept),
    Claim("para_vector_finds", "2ced1236",
          en="5 paraphrases where BM25 finds nothing in its top 5 (Q50, Q51, Q52, Q53, Q54): B finds each of them, at ranks 2, 1, 1, 1 and 1, and C keeps each in its top 5.",
          zh="有 5 道同义改写题，BM25 在前 5 名里什么也没找到（Q50、Q51、Q52、Q53、Q54）：B 把它们都找到了，名次分别是 2、1、1、1 和 1，C 也都把它们留在前 5 名里。",
          check=check_para_vector_finds),
    Claim("para_rank1", "2ced1236",
          en='Relevant chunk at rank 1 for the 7 paraphrase questions: A 1/7, B 6/7, C 3/7, D 4/7; B lead(s)',
          zh='7 个同义改写题中相关片段排在第 1 名的数目：A 1/7、B 6/7、C 3/7、D 4/7；B 领先',
          check=check_para_rank1,
          over=FIRST_RANK_TABLES["paraphrase"]),
    Claim("para_top5", "2ced1236",
          en="Relevant chunk at top 5 for the 7 paraphrase questions: A 2/7, B 7/7, C 7/7, D 7/7; B, C and D lead(s)",
          zh="7 个同义改写题中相关片段排在前 5 名的数目：A 2/7、B 7/7、C 7/7、D 7/7；B、C 和 D 领先",
          check=check_para_top5,
          over=FIRST_RANK_TABLES["paraphrase"]),
    Claim("para_a_hits_kept", "2ced1236",
          en='A ranks a relevant chunk first for 1 of the 7 paraphrase questions; C keeps 1 of them.',
          zh='在 7 个同义改写题中，A 有 1 个把相关片段排在第 1 名；C 保留了其中 1 个。',
          check=check_para_a_hits_kept),
    Claim("para_b_hits_kept", "2ced1236",
          en='B ranks a relevant chunk first for 6 of the 7 paraphrase questions; C keeps 3 of them and loses Q48, Q51, Q53',
          zh='在 7 个同义改写题中，B 有 6 个把相关片段排在第 1 名；C 保留了其中 3 个，丢掉了 Q48、Q51、Q53',
          check=check_para_b_hits_kept),
    Claim("rerank_mrr_leader", "1133e995-reading",
          en='On MRR@5, B leads (A 0.694, B 0.873, C 0.837, D 0.839, E 0.864); D is ahead of C by 0.002',
          zh='MRR@5：B 领先（A 0.694、B 0.873、C 0.837、D 0.839、E 0.864）；D 比 C 高 0.002',
          check=check_mrr_b_leads("c6bsetuprun", d_over_c=True), over="c6bsetuprun", derived={"0.002": "0.839 - 0.837"}),
    Claim("clause42_moves", "1133e995-reading",
          en='Clause 4.2 moves up under D for 1 of its 5 questions and down for 0; Recall@5 is the same for C and D',
          zh='在第 4.2 条的 5 个问题中，D 让它上移的有 1 个、下移的有 0 个；C 和 D 的 Recall@5 相同',
          check=check_clause42_moves),
    Claim("same_passages", "6912de00-reading",
          en="C and D hand the generator the same set of passages for 54 of 54 questions (M = 5, 5 passages read), only in another order; their answers differ in correctness on 0 questions.",
          zh="在 54 个问题中，有 54 个问题 C 和 D 交给生成器的片段集合相同（M = 5，读取 5 个片段），只是顺序不同；两者答案的对错在 0 个问题上不同。",
          check=check_same_passages),
    Claim("context_cost", "9b0ed4df",
          en='The Oracle sends 95 characters per question (only the gold chunks); A–E send the top 5 passages, 301–329 characters',
          zh='Oracle 每个问题只发送 95 个字符（只有标准片段）；A–E 发送前 5 个片段，301–329 个字符',
          check=check_context_cost,
          derived={"95": "94.593", "301": "300.667", "329": "329.407"}),
    Claim("rerank_entries_20", "8787ef37",
          en='With M = 20, the reranker brings 43 chunks from ranks 6–10 into the top 5 (37 of 54 questions); 1 of them is relevant. The 43 it pushes out include 2 relevant one(s). Going deeper lost more evidence from the top 5 than it brought in on dev.',
          zh='M = 20 时，重排模型把第 6–10 名中的 43 个片段带进了前 5 名（54 个问题中的 37 个）；其中 1 个是相关的。被它挤出去的 43 个里有 2 个相关的。在开发集上，重排得更深，从前 5 名里丢掉的证据比带进来的还多。',
          check=check_rerank_entries,
          derived={"6": "5 + 1"}),
    Claim("term_match_alone", "f0c89c9e",
          en="Against the clause's text alone, 市内 matches (a shared token contains it) under jieba_search, jieba and bigram; it does not under jieba_plain.",
          zh="对照只看条款原文，“市内”在 jieba_search、jieba 和 bigram 下能匹配上（有一个共有的词包含它）；在 jieba_plain 下则不能。",
          check=check_term_match("alone")),
    Claim("term_match_indexed", "f0c89c9e",
          en="Against the chunk as indexed, 市内 matches (a shared token contains it) under jieba_plain, jieba_search, jieba and bigram.",
          zh="对照按索引中的片段，“市内”在 jieba_plain、jieba_search、jieba 和 bigram 下能匹配上（有一个共有的词包含它）。",
          check=check_term_match("indexed")),
]


# ---- design 2's new readings: one question first, the paired rows, the snapshot, the shared characters -------

def check_q48_top5(shown: Shown) -> dict[str, str]:
    """"Q48: A, C, D and E rank ATT25-6 (graded 0) first and TRV26-4.2-b (graded 2) second; B ranks TRV26-4.2-b
    first"."""
    dev, qid = dev_ablation(), "Q48"
    runs, grade = {v: dev.runs[v][qid] for v in ROWS}, dev.qrels[qid]
    assert all(runs[v][:2] == ["ATT25-6", "TRV26-4.2-b"] for v in "ACDE"), runs
    assert runs["B"][0] == "TRV26-4.2-b", runs
    assert grade["ATT25-6"] == 0 and grade["TRV26-4.2-b"] == 2
    shown.shows("c6q48run", "ATT25-6 (0)", "TRV26-4.2-b (2)")
    en = shown.language == "en"
    return {"qid": qid, "graded 0": "graded 0" if en else "等级 0", "graded 2": "graded 2" if en else "等级 2",
            "b": "TRV26-4.2-b", "att": "ATT25-6",
            **({} if en else {"first": "第 1 名", "second": "第 2 名"})}


@functools.cache
def _pairs():
    from ragmath.lab.ablation import paired_table

    return paired_table(dev_ablation(), [("A", "B"), ("C", "B"), ("C", "D"), ("C", "E")],
                        "nDCG@5").set_index("comparison")


def _pair_values(row, language: str) -> dict[str, str]:
    en = language == "en"
    return {"diff": f"{row['mean diff']:+.3f} [{row['low']:+.3f}, {row['high']:+.3f}]",
            "n": f"{int(row['questions'])} questions" if en else f"共 {int(row['questions'])} 个问题",
            "wins": f"{int(row['wins'])} better" if en else f"{int(row['wins'])} 个变好",
            "losses": f"{int(row['losses'])} worse" if en else f"{int(row['losses'])} 个变差",
            "p": f"p = {row['p (sign-flip)']:.3f}",
            "zero": ("the interval holds 0" if en else "区间包含 0") if row["low"] <= 0 <= row["high"]
            else ("the interval leaves out 0" if en else "区间不含 0")}


def check_pair(comparison: str):
    def check(shown: Shown) -> dict[str, str]:
        """"b − a: d [lo, hi] over n questions (w better, l worse; sign-flip p): the interval holds 0"."""
        row = _pairs().loc[comparison]
        shown.shows("c6pairsrun", comparison)
        return {"comparison": comparison, **_pair_values(row, shown.language)}
    return check


def check_pairs_only_b_a(shown: Shown) -> dict[str, str]:
    """"Of the four differences, only B − A can be told from noise on these n questions": over every row of the
    paired table, only B − A's interval leaves out 0."""
    pairs = _pairs()
    leaves = {str(i): float(not row["low"] <= 0 <= row["high"]) for i, (_, row) in enumerate(pairs.iterrows())}
    leaves = shown.over("c6pairsrun", leaves, index=None)
    assert [pairs.index[int(i)] for i, x in leaves.items() if x] == ["B − A"], pairs
    n = int(pairs["questions"].iloc[0])
    return {"n": f"{n} ", "four": "four" if shown.language == "en" else "四"}


@functools.cache
def _snapshot():
    from ragmath.lab.ablation import paired_table

    published = dev_ablation(editions="published")
    return (paired_table(published, [("C", "D")], "nDCG@5").iloc[0],
            paired_table(dev_ablation(), [("C", "D")], "nDCG@5").iloc[0], published)


def check_snapshot_pairs(shown: Shown) -> dict[str, str]:
    """"On the published index D − C is … ; on the live index …"."""
    published, live, _ = _snapshot()
    assert published["low"] > 0 and live["low"] <= 0 <= live["high"]
    en = shown.language == "en"
    p, q = _pair_values(published, shown.language), _pair_values(live, shown.language)
    return {"published": p["diff"], "live": q["diff"], "n": p["n"], "pw": p["wins"], "pl": p["losses"],
            "lw": q["wins"], "ll": q["losses"], "D − C": "D − C" if en else "D − C"}


def check_snapshot_weights(shown: Shown) -> dict[str, str]:
    """"The reranker's largest weight on the published index is its live feature (w); on the live index … 0.00"."""
    _, _, published = _snapshot()
    weights_published = published.reranker.weights_table()
    weights_live = dev_ablation().reranker.weights_table()
    assert shown.leaders("c6snapweights", weights_published.to_dict(), index="feature") == ["live"], weights_published
    assert weights_live["live"] == 0
    shown.shows("c6snapweights", f"{weights_published['live']:.2f}")
    return {"published": f"({weights_published['live']:.2f})" if shown.language == "en"
            else f"（{weights_published['live']:.2f}）", "live": f"{weights_live['live']:.2f}"}


def check_snapshot_most(shown: Shown) -> dict[str, str]:
    """"Of D − C's sum on the published index, s% comes from the q questions where D pushes down a chunk not
    in force": the share of the published index's D − C (nDCG@5) sum from the dev questions where D ranks lower
    than C a chunk of C's top 5 that is not in the live index, as the cell c6snapshare prints it (design 2's
    sentence, "most of what D added … was pushing the 2025 chunks down", rested on one coefficient)."""
    from ragmath import evaluate
    from ragmath.lab.workbook import in_index

    _, _, published = _snapshot()
    ds = dataset()
    live = set(ds.corpus.loc[in_index(ds.corpus, ds.config["snapshot_date"], "live"), "chunk_id"])
    scores = {v: evaluate(published.runs[v], published.qrels, ["nDCG@5"]).per_question["nDCG@5"] for v in "CD"}
    diff = (scores["D"] - scores["C"]).dropna()
    top = 5

    def lower(x: str, chunk: str) -> bool:  # D ranks a chunk of C's top 5 lower than C does
        c, d = published.runs["C"][x], published.runs["D"][x]
        return chunk in c[:top] and (chunk not in d[:top] or d.index(chunk) > c.index(chunk))

    pushed = [x for x in diff.index if any(lower(x, chunk) for chunk in published.runs["C"][x][:top]
                                           if chunk not in live)]
    share = float(diff[pushed].sum() / diff.sum())
    assert share > 0.5, f"only {share:.0%} of D − C's sum on the published index comes from such questions"
    shown.shows("c6snapshare", "D − C", f"{diff.sum():.3f}", f"{diff[pushed].sum():.3f}", f"{share:.0%}",
                f" {len(pushed)} ")
    return {"share": f"{share:.0%}", "n": f"{len(pushed)} "}


def _shared_characters() -> dict[str, set[str]]:
    """Each dev paraphrase's characters shared with the text of its evidence (chunks graded 1 or 2)."""
    ds, dev = dataset(), dev_ablation()
    text = ds.corpus.set_index("chunk_id")["text"]
    q = ds.questions.set_index("question_id")
    out = {}
    for x in _questions("paraphrase"):
        evidence = "".join(text[c] for c, g in dev.qrels[x].items() if g > 0)
        out[x] = set(q.loc[x, "text"]) & set(evidence) - set("，。？！、：；（）“” ")
    return out


def check_shared_characters_b_first(shown: Shown) -> dict[str, str]:
    """"B ranks a relevant chunk first for Q52, which shares 3 characters with its evidence (…), as it does for Q49,
    which shares 10": the fewest and the most characters shared among the paraphrases B ranks first."""
    ranks = _first_rank_table(_questions("paraphrase"))["B"]
    shared = _shared_characters()
    firsts = [x for x, r in ranks.items() if r == 1]
    fewest = min(firsts, key=lambda x: len(shared[x]))
    most = max(firsts, key=lambda x: len(shared[x]))
    assert fewest == "Q52" and most == "Q49", (fewest, most)
    shown.shows("c8chars", " ".join(sorted(shared[fewest])))
    en = shown.language == "en"
    chars = " ".join(sorted(shared[fewest]))
    return {"fewest": fewest, "few": f"{len(shared[fewest])} ", "chars": f"({chars})" if en else f"（{chars}）",
            "most": most, "many": f"{len(shared[most])}", **({} if en else {"first": "第 1 名"})}


CLAIMS += [
    Claim("q48_top5", "c6q48read",
          en="Q48 “打车超出额度了咋办”: A, C, D and E rank ATT25-6 (the overtime-taxi rule, graded 0) first and TRV26-4.2-b (graded 2) second; B ranks TRV26-4.2-b first.",
          zh="Q48“打车超出额度了咋办”：A、C、D 和 E 把 ATT25-6（加班打车的规定，等级 0）排在第 1 名，把 TRV26-4.2-b（等级 2）排在第 2 名；B 把 TRV26-4.2-b 排在第 1 名。",
          check=check_q48_top5),
    Claim("pair_b_a", "c6pairsread",
          en="B − A: +0.162 [+0.055, +0.275] over 43 questions (17 better, 6 worse; sign-flip p = 0.005): the interval leaves out 0.",
          zh="B − A：+0.162 [+0.055, +0.275]，共 43 个问题（17 个变好，6 个变差；符号翻转检验 p = 0.005）：区间不含 0。",
          check=check_pair("B − A")),
    Claim("pair_b_c", "c6pairsread",
          en="B − C: +0.013 [-0.038, +0.064] over 43 questions (9 better, 7 worse; sign-flip p = 0.631): the interval holds 0.",
          zh="B − C：+0.013 [-0.038, +0.064]，共 43 个问题（9 个变好，7 个变差；符号翻转检验 p = 0.631）：区间包含 0。",
          check=check_pair("B − C")),
    Claim("pair_d_c", "c6pairsread",
          en="D − C: +0.001 [-0.028, +0.029] over 43 questions (8 better, 3 worse; sign-flip p = 0.942): the interval holds 0.",
          zh="D − C：+0.001 [-0.028, +0.029]，共 43 个问题（8 个变好，3 个变差；符号翻转检验 p = 0.942）：区间包含 0。",
          check=check_pair("D − C")),
    Claim("pair_e_c", "c6pairsread",
          en="E − C: +0.003 [-0.023, +0.033] over 43 questions (4 better, 5 worse; sign-flip p = 0.895): the interval holds 0.",
          zh="E − C：+0.003 [-0.023, +0.033]，共 43 个问题（4 个变好，5 个变差；符号翻转检验 p = 0.895）：区间包含 0。",
          check=check_pair("E − C")),
    Claim("pairs_only_b_a", "c6pairsread",
          en="Of the four differences, only B − A can be told from noise on these 43 questions",
          zh="在这 43 个问题上，四个差值里只有 B − A 能和噪声区分开",
          check=check_pairs_only_b_a,
          over="c6pairsrun"),
    Claim("snapshot_pairs", "c6snapread",
          en="On the published index D − C is +0.056 [+0.025, +0.092] over 43 questions (13 better, 0 worse); on the live index +0.001 [-0.028, +0.029] (8 better, 3 worse).",
          zh="在已发布版本索引上，D − C 为 +0.056 [+0.025, +0.092]，共 43 个问题（13 个变好，0 个变差）；在现行版本索引上为 +0.001 [-0.028, +0.029]（8 个变好，3 个变差）。",
          check=check_snapshot_pairs),
    Claim("snapshot_weights", "c6snapread",
          en="The reranker's largest weight on the published index is its `live` feature (1.53); on the live index every chunk is live and that weight is 0.00.",
          zh="在已发布版本索引上，重排模型权重最大的是 `live` 特征（1.53）；在现行版本索引上，每个片段都是现行的，这个权重为 0.00。",
          check=check_snapshot_weights,
          over="c6snapweights"),
    Claim("shared_characters_wins", "c8charsread",
          en="B ranks a relevant chunk first for Q52, which shares 3 characters with its evidence (出 天 差), as it does for Q49, which shares 10.",
          zh="B 把 Q52 的相关片段排在第 1 名，而它与证据只有 3 个共有的字（出 天 差）；Q49 与证据有 10 个共有的字，B 也把它排在第 1 名。",
          check=check_shared_characters_b_first),
    Claim("snapshot_most", "c6snapread",
          en="Of D − C's sum on the published index, 97% comes from the 22 questions where D pushes down a chunk not in force on the snapshot date",
          zh="已发布版本索引上 D − C 的总和中，97% 来自 D 把已失效片段往下压的那 22 个问题",
          check=check_snapshot_most),
]
