"""Notebook 06 (the ablation): the readings of its user-dictionary, three-chunk, knob and Oracle tables."""

# ruff: noqa: E501 - the sentences stand as the notebooks write them (Chinese characters count double)

from __future__ import annotations

import functools

from claims import Claim, Shown, dataset, dev_ablation, dev_full, fmt

THREE = ["TRV26-4.2-a", "TRV26-4.3", "INV-110"]
QUERY_3 = "市内交通超出标准"
TOKENIZERS = ["jieba_plain", "jieba_search", "jieba", "bigram"]


def check_userdict(shown: Shown) -> dict[str, str]:
    """"Of the n entries, c change how jieba cuts at least one chunk or question (…); the other r change nothing
    here (…)"."""
    from ragmath.lab.workbook import userdict_table

    ds = dataset()
    entries = userdict_table(list(ds.corpus["text"]) + list(ds.questions["text"]))
    changes = entries["texts where the entry changes the cut"] > 0
    changing, idle = list(entries.index[changes]), list(entries.index[~changes])
    sep = ", " if shown.language == "en" else "、"
    return {"n": f"{len(entries)} ", "changing": f"{len(changing)} ", "idle": f"{len(idle)} ",
            "changing words": sep.join(changing), "idle words": sep.join(idle)}


def check_three_chunk_ranks(shown: Shown) -> dict[str, str]:
    """BM25's rank of TRV26-4.2-a among the three chunks under each tokenizer: lowest under the ones named,
    first under jieba."""
    from ragmath.lab.workbook import BM25Retriever

    texts = dataset().corpus.set_index("chunk_id").loc[THREE, "text"]
    chunks = [{"chunk_id": c, "text": texts[c]} for c in THREE]
    ranks = {}
    for t in TOKENIZERS:
        scores = shown.over("7d43391e", BM25Retriever(chunks, t).score_ids(QUERY_3, THREE), index="chunk")
        ranks[t] = 1 + sum(scores[c] > scores["TRV26-4.2-a"] for c in scores)
    assert [t for t, r in ranks.items() if r == len(THREE)] == ["jieba_plain", "jieba_search"], ranks
    assert [t for t, r in ranks.items() if r == 1] == ["jieba"], ranks
    en = shown.language == "en"
    values = {"n": f"{len(THREE)} chunks" if en else f"{len(THREE)} 个片段", "chunk": "TRV26-4.2-a"}
    for t, r in ranks.items():
        values[t] = f"{r} under {t}" if en else f"在 {t} 下排第 {r}"
    return values


@functools.cache
def _faulty():
    from ragmath.lab.ablation import run_ablation
    from ragmath.lab.holdout import frozen_design
    from ragmath.lab.workbook import MisreadLimitAnswerer

    return run_ablation(frozen_design(), generator=MisreadLimitAnswerer)


def check_oracle_faulty(shown: Shown) -> dict[str, str]:
    """"With the gold evidence the Oracle answers o/n with our generator and f/n with the faulty one: here the
    Oracle row catches the fault. The question it loses is Q08 … Q08's support is s and neither generator refuses
    it". Under design 2 the refusal threshold refused Q08 first and the row caught nothing."""
    from ragmath.lab.workbook import asks_for_excess

    dev, faulty = dev_full(), _faulty()
    n = int(dev.table.loc["Oracle", "answerable"])
    ours, theirs = int(dev.table.loc["Oracle", "answers correct"]), int(faulty.table.loc["Oracle", "answers correct"])
    q = dataset().questions.set_index("question_id")
    lost = [x for x in dev.runs["A"] if dev.per_question.loc[("Oracle", x), "correct"]
            and not faulty.per_question.loc[("Oracle", x), "correct"]]
    taxi = next(x for x in dev.runs["A"] if "118.5" in q.loc[x, "text"])
    assert theirs == ours - 1 and lost == [taxi], (ours, theirs, lost)
    assert asks_for_excess(q.loc[taxi, "text"])
    refused = [bool(r.per_question.loc[("Oracle", taxi), "refused"]) for r in (dev, faulty)]
    assert refused == [False, False], refused
    support = dev.answers["Oracle"][taxi].support
    shown.shows("758d4a79", f"support {support:.3f}" if shown.language == "en" else f"覆盖度 {support:.3f}", taxi)
    return {"ours": f"{ours}/{n}", "faulty": f"{theirs}/{n}", "taxi": taxi, "support": f"{support:.3f}"}


def check_oracle_misses(shown: Shown) -> dict[str, str]:
    """"Even our generator misses m answerable dev questions with the gold evidence in hand (types: …)"."""
    from ragmath.lab.messages.values import WORDS

    misses = dev_full().per_question.loc["Oracle"]
    misses = misses[misses["answerable"] & ~misses["correct"]]
    types = sorted(set(misses["type"]))
    return {"misses": f"{len(misses)} ", "types": ", ".join(types) if shown.language == "en"
            else "、".join(WORDS[t] for t in types)}


@functools.cache
def _knob(knob: str):
    from ragmath.lab.holdout import frozen_design
    from ragmath.lab.workbook import knob_against_default

    return knob_against_default(frozen_design(), knob, dataset=dataset())


def _num(x: float) -> str:
    return f"{x:g}"


KNOB_TABLES = {"k": "a5575167", "M": "3a9afcbb"}


def check_knob(knob: str, column: str, frozen_value: float):
    def check(shown: Shown) -> dict[str, str]:
        """"knob: across values the dev D nDCG@5 moves by s; the best, knob = b (v), minus the default knob = d
        is +x [lo, hi] over n questions (w better, l worse; sign-flip p, Holm over c comparisons h): the
        interval holds / leaves out 0, so the rule keeps the default / leaves it. The frozen design has …"."""
        from ragmath.lab.workbook import keep_default_rule

        table = _knob(knob)
        values = list(table[column])
        scores = table["D nDCG@5"]
        best = table.loc[scores.idxmax()]
        shown_best = shown.leaders(KNOB_TABLES[knob], {str(i): float(x) for i, x in enumerate(scores)}, index=None)
        assert str(list(table.index).index(scores.idxmax())) in shown_best, shown_best
        default = table[table["default"]].iloc[0]
        holds_zero = best["low"] <= 0 <= best["high"]
        kept = keep_default_rule(table)
        assert (kept == default[column]) == holds_zero, (kept, holds_zero)
        en = shown.language == "en"
        sep = ", " if en else "、"
        out = {"values": sep.join(_num(v) for v in values), "spread": fmt(scores.max() - scores.min()),
               "best": f"{knob} = {_num(best[column])} ({fmt(best['D nDCG@5'])})" if en else f"{knob} = {_num(best[column])}（{fmt(best['D nDCG@5'])}）",
               "default": f"{knob} = {_num(default[column])}", "metric": "nDCG@5",
               "diff": f"{best['diff vs default']:+.3f} [{best['low']:+.3f}, {best['high']:+.3f}]",
               "n": f"{int(best['questions'])} ", "wins": f"{int(best['wins'])} ", "losses": f"{int(best['losses'])} ",
               "p": f"p = {best['p (sign-flip)']:.3f}", "holm": fmt(best["p (sign-flip, Holm)"]),
               "comparisons": f"{len(table) - 1} ", "zero": ("holds 0" if en else "包含 0") if holds_zero else ("leaves out 0" if en else "不含 0"),
               "frozen": f"{knob} = {_num(frozen_value)}", "kept": f"{knob} = {_num(kept)}"}
        return out
    return check


def check_k_tie(shown: Shown) -> dict[str, str]:
    """"k = 10 and k = 240 score exactly as the default k = 60 on every dev question here (n ties each)": each
    per-question D nDCG@5 equal, and the k table (a5575167) shows their ties."""
    from ragmath import evaluate

    table = _knob("k")
    tied = [10, 240]
    scores = {k: evaluate(r.runs["D"], r.qrels, ["nDCG@5"]).per_question["nDCG@5"]
              for k, r in {k: dev_ablation(k=k) for k in (60, *tied)}.items()}
    assert all(scores[k].equals(scores[60]) for k in tied)
    n = int(table["questions"].iloc[0])
    assert all(int(table.loc[table["k"] == k, "ties"].iloc[0]) == n for k in tied)
    en = shown.language == "en"
    return {"tied": "k = 10 and k = 240" if en else "k = 10 和 k = 240", "default": "k = 60", "n": f"{n} "}


def check_k_spreads(shown: Shown) -> dict[str, str]:
    """"this table holds W and M at the frozen 5 and 5, while k's profile in section 2 takes, at each k, the best
    over every W and M of the grid. Here they show the same six values (…), so both spreads are s": the k table's
    D nDCG@5 (a5575167) and the grid profile of k (a9acf2fc), value by value at 3 decimals."""
    from ragmath.lab.holdout import frozen_design

    frozen = frozen_design()
    grid, edges = _grid()
    table = _knob("k")
    in_table = [fmt(x) for x in table["D nDCG@5"]]
    profile = str(edges.loc["k", "best D nDCG@5 at each value"]).split(", ")
    assert in_table == profile, (in_table, profile)
    at_frozen = grid[(grid["W"] == frozen.window) & (grid["M"] == frozen.rerank_depth)].set_index("k")["D nDCG@5"]
    assert all(abs(at_frozen[k] - grid.loc[grid["k"] == k, "D nDCG@5"].max()) < 1e-12 for k in at_frozen.index)
    spread = fmt(table["D nDCG@5"].max() - table["D nDCG@5"].min())
    shown.shows("a9acf2fc", ", ".join(profile))
    en = shown.language == "en"
    return {"frozen": f"{frozen.window} and {frozen.rerank_depth}" if en else f"{frozen.window} 和 {frozen.rerank_depth}",
            "values": (", " if en else "、").join(profile), "spread": spread, "count": "six" if en else "六",
            "section": "section 2" if en else "第 2 节"}


def check_rule_against_frozen(shown: Shown) -> dict[str, str]:
    """"The rule chooses differently from the frozen design on k: k = r (frozen: f) … the rule's design (k = r,
    M = m)"."""
    from ragmath.lab.holdout import frozen_design
    from ragmath.lab.workbook import keep_default_rule

    frozen = frozen_design()
    rule_k, rule_m = keep_default_rule(_knob("k")), keep_default_rule(_knob("M"))
    assert rule_k != frozen.k and rule_m == frozen.rerank_depth
    en = shown.language == "en"
    return {"k": f"k = {_num(rule_k)} (frozen: {_num(frozen.k)})" if en else f"k = {_num(rule_k)}（冻结值：{_num(frozen.k)}）"}


CLAIMS = [
    Claim("userdict", "0fb6973d",
          en="Of the 22 entries, 8 change how jieba cuts at least one chunk or question of this corpus (市内交通, 住宿标准, 伙食补助, 一线城市, 二线城市, 审批权限, 报销单, 打车); the other 14 change nothing here (城市间交通, 差旅费, 住宿费, 交通补助, 三线城市, 跨境, 境外, 超标, 发票, 增值税专用发票, 出租车, 网约车, 汇率, 外币)",
          zh="在 22 个词条中，有 8 个改变了 jieba 对本语料中至少一个片段或问题的切分（市内交通、住宿标准、伙食补助、一线城市、二线城市、审批权限、报销单、打车）；其余 14 个在这里什么也没改变（城市间交通、差旅费、住宿费、交通补助、三线城市、跨境、境外、超标、发票、增值税专用发票、出租车、网约车、汇率、外币）",
          check=check_userdict),
    Claim("three_chunk_ranks", "b608b93d-reading",
          en="For 「市内交通超出标准」 over these 3 chunks, BM25 ranks TRV26-4.2-a 3 under jieba_plain, 3 under jieba_search, 1 under jieba, 2 under bigram: lowest under jieba_plain and jieba_search, first under jieba. Here the tokenizer decides.",
          zh="对查询“市内交通超出标准”，在这 3 个片段中，BM25 对 TRV26-4.2-a 的名次：在 jieba_plain 下排第 3、在 jieba_search 下排第 3、在 jieba 下排第 1、在 bigram 下排第 2；在 jieba_plain 和 jieba_search 下垫底，在 jieba 下排第一。这里由分词器决定。",
          check=check_three_chunk_ranks,
          over="7d43391e"),
    Claim("oracle_faulty", "758d4a79-reading",
          en="With the gold evidence the Oracle answers 27/43 with our generator and 26/43 with the faulty one: here the Oracle row catches the fault. The question it loses is Q08, the one the faulty generator gets wrong above: with the gold evidence Q08's support is 0.333 and neither generator refuses it",
          zh="给定标准证据时，Oracle 用我们的生成器答对 27/43，用故意出错的生成器答对 26/43：这里 Oracle 这一行揪出了这个错误。它丢掉的那道题是 Q08，也就是上面那个故意出错的生成器答错的问题：给定标准证据时 Q08 的覆盖度是 0.333，两个生成器都没有拒答它",
          check=check_oracle_faulty),
    Claim("oracle_misses", "758d4a79-reading",
          en='Even our generator misses 16 answerable dev questions with the gold evidence in hand (types: multi-hop, paraphrase, single-hop, table)',
          zh='即使手握标准证据，我们的生成器仍答错 16 个有答案的开发集问题（题型：多跳、同义改写题、单跳、表格题）',
          check=check_oracle_misses),
    Claim("knob_k", "1a49a5ba",
          en='k: across 0.5, 1, 3, 10, 60, 240 the dev D nDCG@5 moves by 0.014; the best, k = 1 (0.797), minus the default k = 60 is +0.014 [-0.003, +0.038] over 43 questions (2 better, 1 worse; sign-flip p = 0.500, Holm over the 5 comparisons 1.000): the interval holds 0, so the rule keeps the default k = 60. The frozen design has k = 1: the rule chooses differently.',
          zh='k：在 0.5、1、3、10、60、240 这些取值上，开发集 D nDCG@5 的变化幅度为 0.014；最佳的 k = 1（0.797）减去默认的 k = 60，差值为 +0.014 [-0.003, +0.038]，共 43 个问题（2 个变好，1 个变差；符号翻转检验 p = 0.500，对 5 个比较做 Holm 校正后为 1.000）：区间包含 0，所以规则保留默认值 k = 60。冻结的设计用的是 k = 1：规则的选择与之不同。',
          check=check_knob("k", "k", 1),
          over="a5575167", derived={"0.014": "0.797 - 0.783"}),
    Claim("knob_m", "2ac01393-reading",
          en='M: across 5, 10, 20 the dev D nDCG@5 moves by 0.023; the best, M = 5 (0.797), minus the default M = 10 is +0.023 [+0.003, +0.048] over 43 questions (7 better, 1 worse; sign-flip p = 0.039, Holm over the 2 comparisons 0.078): the interval leaves out 0, so the rule leaves the default for M = 5. The frozen design has M = 5: the same.',
          zh='M：在 5、10、20 这些取值上，开发集 D nDCG@5 的变化幅度为 0.023；最佳的 M = 5（0.797）减去默认的 M = 10，差值为 +0.023 [+0.003, +0.048]，共 43 个问题（7 个变好，1 个变差；符号翻转检验 p = 0.039，对 2 个比较做 Holm 校正后为 0.078）：区间不含 0，所以规则放弃默认值，改用 M = 5。冻结的设计用的是 M = 5：两者相同。',
          check=check_knob("M", "M", 5),
          over="3a9afcbb", derived={"0.023": "0.797 - 0.774"}),
    Claim("rule_against_frozen", "2ac01393-reading",
          en='The rule chooses differently from the frozen design on k: k = 60 (frozen: 1).',
          zh='规则在 k 上的选择与冻结的设计不同：k = 60（冻结值：1）。',
          check=check_rule_against_frozen),
]


@functools.cache
def _grid():
    from ragmath.lab.ablation import AblationConfig
    from ragmath.lab.workbook import grid_edges, tune

    grid, chosen = tune(AblationConfig(editions="live"), dataset())
    return grid, grid_edges(grid, chosen, "D nDCG@5")


def check_grid_knob(knob: str, position: str):
    def check(shown: Shown) -> dict[str, str]:
        """"knob = v is inside the grid (or on its lowest edge); across its values the best D nDCG@5 moves by s"."""
        _, edges = _grid()
        row = edges.loc[knob]
        assert row["position"].split()[0] == position, row["position"]
        position_words = {"inside": ("is inside the grid", "位于网格内部"),
                          "lowest": ("is on the grid's lowest edge", "位于网格的最低边缘")}[position]
        profile = [float(x) for x in str(row["best D nDCG@5 at each value"]).split(", ")]
        return {"chosen": f"{knob} = {row['chosen']}",
                "spread": f"{max(profile) - min(profile):.3f}", "metric": "nDCG@5",
                "position": position_words[0] if shown.language == "en" else position_words[1]}
    return check


def check_grid_best(shown: Shown) -> dict[str, str]:
    """"b of n settings reach the best dev D nDCG@5 of v; … (the best of n tries on the same questions)"."""
    grid, _ = _grid()
    best = grid["D nDCG@5"].max()
    n_best = int((grid["D nDCG@5"].round(9) == round(best, 9)).sum())
    en = shown.language == "en"
    shown.shows("53e16cb9", f"({fmt(best)}): {n_best}" if en else f"（{fmt(best)}）的设置：{n_best} 组")
    return {"n_best": f"{n_best} of {len(grid)}" if en else f"{len(grid)} 组设置中有 {n_best} 组",
            "best": fmt(best), "tries": f"best of {len(grid)} tries" if en else f"试了 {len(grid)} 次", "metric": "nDCG@5"}


CLAIMS += [
    Claim("grid_k", "4eefa17f",
          en="k = 1 is inside the grid; across its values the best D nDCG@5 moves by 0.014.",
          zh='k = 1 位于网格内部；在它的各个取值上，最佳 D nDCG@5 的变化幅度为 0.014。',
          check=check_grid_knob("k", "inside"),
          scope="'the best D nDCG@5' reads the column of grid_edges (a9acf2fc) that holds the best over the grid at each value", derived={"0.014": "0.797 - 0.783"}),
    Claim("grid_w", "4eefa17f",
          en="W = 5 is on the grid's lowest edge: the best may lie beyond it; across its values the best D nDCG@5 moves by 0.020.",
          zh='W = 5 位于网格的最低边缘：最佳值可能在网格之外；在它的各个取值上，最佳 D nDCG@5 的变化幅度为 0.020。',
          check=check_grid_knob("W", "lowest"),
          scope="'the best D nDCG@5' reads the column of grid_edges (a9acf2fc) that holds the best over the grid at each value", derived={"0.020": "0.797 - 0.777"}),
    Claim("grid_m", "4eefa17f",
          en="M = 5 is on the grid's lowest edge: the best may lie beyond it, or the knob cannot go further (M cannot be below K); across its values the best D nDCG@5 moves by 0.013.",
          zh="M = 5 位于网格的最低边缘：最佳值可能在网格之外，也可能这个参数已经无法再往外取（M 不能小于 K）；在它的各个取值上，最佳 D nDCG@5 的变化幅度为 0.013。",
          check=check_grid_knob("M", "lowest"),
          scope="'the best D nDCG@5' reads the column of grid_edges (a9acf2fc) that holds the best over the grid at each value", derived={"0.013": "0.797 - 0.784"}),
    Claim("grid_best", "4eefa17f",
          en='1 of 90 settings reaches the best dev D nDCG@5 of 0.797; the chosen one is optimistic by construction (the best of 90 tries on the same questions).',
          zh='90 组设置中有 1 组达到开发集上最佳的 D nDCG@5（0.797）；选出的那组天然偏乐观（它是在同一批问题上试了 90 次之后的最好结果）。',
          check=check_grid_best,
          scope="the 90 settings of the grid, which 53e16cb9 counts ('90 settings tried') and whose settings at the best it prints"),
]


@functools.cache
def _tokenizer_ranks():
    """Section 3.3's table: A's best rank of the evidence under each tokenizer, for clause 4.2's questions and
    the exact-ID questions, and A's dev means by tokenizer."""
    from ragmath.lab.ablation import tokenizer_ranks
    from ragmath.lab.holdout import frozen_design

    ds = dataset()
    q = ds.questions.set_index("question_id")
    clause_42 = [x for x in q.index if q.loc[x, "group"] == "TRV-2026§4.2"]
    exact_ids = [x for x in q.index if q.loc[x, "type"] == "exact-id"]
    evidence = ds.qrels[ds.qrels["grade"] > 0].groupby("question_id")["chunk_id"].apply(list).to_dict()
    chunks_read = {x: ["TRV26-4.2-a", "TRV26-4.2-b"] for x in clause_42} | {x: evidence[x] for x in exact_ids}
    ranks, means = tokenizer_ranks(frozen_design(), TOKENIZERS, clause_42 + exact_ids, chunks_read, ds)
    return ranks, means, clause_42, exact_ids


def check_tokenizer_ranks(which: str):
    def check(shown: Shown) -> dict[str, str]:
        """"the best rank under A is the same under every tokenizer for (ids); it moves for (id): t r, …"."""
        ranks, _, clause_42, exact_ids = _tokenizer_ranks()
        part = ranks.loc[clause_42 if which == "clause" else exact_ids]
        same = [x for x in part.index if part.loc[x].nunique() == 1]
        moves = [x for x in part.index if part.loc[x].nunique() > 1]
        assert len(moves) == 1
        en = shown.language == "en"
        sep = ", " if en else "、"
        values = {x: x for x in same} | {"moves": moves[0]}
        values["ranks"] = sep.join(f"{t} {int(part.loc[moves[0], t])}" for t in TOKENIZERS)
        if which == "clause":
            values["clause"] = "4.2"
        return values
    return check


def check_tokenizer_means(shown: Shown) -> dict[str, str]:
    """"A's dev nDCG@5 by tokenizer: t m, … (spread s)"."""
    _, means, _, _ = _tokenizer_ranks()
    values = means["nDCG@5"]
    sep = ", " if shown.language == "en" else "、"
    return {"metric": "nDCG@5", "means": sep.join(f"{t} {fmt(values[t])}" for t in TOKENIZERS),
            "spread": fmt(values.max() - values.min())}


CLAIMS += [
    Claim("tokenizer_clause_42", "6c2d3038",
          en='Clause 4.2: the best rank under A is the same under every tokenizer for Q07, Q08, Q21 and Q48; it moves for Q49: jieba_plain 1, jieba_search 1, jieba 1, bigram 2.',
          zh='第 4.2 条：对 Q07、Q08、Q21 和 Q48，A 下的最佳名次在每个分词器下都一样；名次有变化的是 Q49：jieba_plain 1、jieba_search 1、jieba 1、bigram 2。',
          check=check_tokenizer_ranks("clause"),
          scope="'every tokenizer': the four tokenizers, the columns of the rank table (32378de8); 'best rank': each question's best rank of its evidence, that table's values"),
    Claim("tokenizer_means", "6c2d3038",
          en="A's dev nDCG@5 by tokenizer: jieba_plain 0.664, jieba_search 0.670, jieba 0.647, bigram 0.688 (spread 0.041).",
          zh='A 在开发集上按分词器的 nDCG@5：jieba_plain 0.664、jieba_search 0.670、jieba 0.647、bigram 0.688（极差 0.041）。',
          check=check_tokenizer_means,
          derived={"0.041": "0.688 - 0.647"}),
    Claim("tokenizer_exact_ids", "6c2d3038",
          en="Exact-ID evidence: the best rank under A is the same under every tokenizer for Q42, Q44, Q45, Q46 and Q47; it moves for Q43: jieba_plain 1, jieba_search 1, jieba 1, bigram 2.",
          zh="编号题的证据：对 Q42、Q44、Q45、Q46 和 Q47，A 下的最佳名次在每个分词器下都一样；名次有变化的是 Q43：jieba_plain 1、jieba_search 1、jieba 1、bigram 2。",
          check=check_tokenizer_ranks("exact"),
          scope="'every tokenizer': the four tokenizers, the columns of the rank table (32378de8); 'best rank': each question's best rank of its evidence, that table's values"),
]


def check_m_spreads(shown: Shown) -> dict[str, str]:
    """"its profile in section 2 moves by p and this table by t, because at M = 10 and M = 20 the profile's best (b)
    comes with k = 0.5 and a wider W, while this table holds the frozen k = 1 and W = 5 (v)"."""
    from ragmath.lab.holdout import frozen_design

    frozen = frozen_design()
    grid, edges = _grid()
    table = _knob("M").set_index("M")["D nDCG@5"]
    profile = [float(x) for x in str(edges.loc["M", "best D nDCG@5 at each value"]).split(", ")]
    deeper = [m for m in table.index if m != frozen.rerank_depth]
    assert deeper == [10, 20], deeper
    bests = {m: grid[grid["M"] == m].sort_values("D nDCG@5", ascending=False, kind="mergesort").iloc[0] for m in deeper}
    assert all(b["k"] == 0.5 and b["W"] > frozen.window for b in bests.values()), bests
    assert len({fmt(b["D nDCG@5"]) for b in bests.values()}) == 1 and len({fmt(table[m]) for m in deeper}) == 1
    assert all(b["D nDCG@5"] > table[m] for m, b in bests.items())
    en = shown.language == "en"
    return {"section": "section 2" if en else "第 2 节", "profile": fmt(max(profile) - min(profile)),
            "table": fmt(table.max() - table.min()), "deeper": "M = 10 and M = 20" if en else "M = 10 和 M = 20",
            "best": fmt(bests[10]["D nDCG@5"]), "k": "k = 0.5", "frozen k": f"k = {frozen.k}",
            "frozen W": f"W = {frozen.window}", "held": fmt(table[10])}


CLAIMS += [
    Claim("m_spreads", "2ac01393-reading",
          en="its profile in section 2 moves by 0.013 and this table by 0.023, because at M = 10 and M = 20 the profile's best (0.784) comes with k = 0.5 and a wider W, while this table holds the frozen k = 1 and W = 5 (0.774)",
          zh="第 2 节里它的剖面变化幅度为 0.013，这张表为 0.023，因为在 M = 10 和 M = 20 上，剖面的最好值（0.784）来自 k = 0.5 和更宽的 W，而这张表固定在冻结的 k = 1 和 W = 5（0.774）",
          check=check_m_spreads,
          scope="'the profile's best' is grid_edges' profile of M (a9acf2fc), the best of the grid's settings at each M; the check finds each one's k and W in the grid and compares it with the M table (3a9afcbb)",
          derived={"0.013": "0.797 - 0.784", "0.023": "0.797 - 0.774"}),
    Claim("knob_k_tie", "1a49a5ba",
          en="k = 10 and k = 240 score exactly as the default k = 60 on every dev question here (43 ties each)",
          zh="在这里，k = 10 和 k = 240 在每个开发集问题上的得分都和默认的 k = 60 完全一样（各有 43 道题持平）",
          check=check_k_tie,
          scope="every dev question, compared one by one by the check; the k table (a5575167) shows 43 ties for k = 10 and k = 240"),
    Claim("k_spreads", "1a49a5ba",
          en="this table holds W and M at the frozen 5 and 5, while k's profile in section 2 takes, at each k, the best over every W and M of the grid. Here they show the same six values (0.792, 0.797, 0.792, 0.783, 0.783, 0.783), so both spreads are 0.014",
          zh="这张表把 W 和 M 固定在冻结的 5 和 5，而第 2 节里 k 的剖面在每个 k 上取网格中所有 W 和 M 的最好值。这里两者显示的六个值相同（0.792、0.797、0.792、0.783、0.783、0.783），所以两个变化幅度都是 0.014",
          check=check_k_spreads,
          scope="'the best over every W and M' is grid_edges' profile (a9acf2fc), each value the best of the grid's settings at that k; the check compares it with the k table (a5575167) value by value",
          derived={"0.014": "0.797 - 0.783"}),
]
