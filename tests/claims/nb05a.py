"""Notebook 05a (scores or ranks): the sentences that read its normalised scores and fused orders."""

# ruff: noqa: E501 - the sentences stand as the notebooks write them (Chinese characters count double)

from __future__ import annotations

import ast
from fractions import Fraction

from claims import Claim, Shown

SECTION_5 = {"BM25": {"a": 20.0, "b": 6.0, "c": 5.5, "d": 5.0},
             "vector": {"b": 0.82, "c": 0.815, "a": 0.81, "d": 0.60}}


def _article(shown: Shown) -> tuple[dict[str, float], dict[str, float]]:
    """The scores the notebook uses, read from the cell that defines them (section 1)."""
    found = {}
    for node in ast.parse(shown.source("c04")).body:
        target = node.targets[0] if isinstance(node, ast.Assign) else None
        if isinstance(target, ast.Name) and target.id in ("bm25_scores", "cosine_scores"):
            found[target.id] = ast.literal_eval(node.value)
    return found["bm25_scores"], found["cosine_scores"]


def _outlier(shown: Shown) -> dict[str, float]:
    for node in ast.parse(shown.source("c11")).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "with_outlier":
            bm25, _ = _article(shown)
            extra = {ast.literal_eval(k): ast.literal_eval(v) for k, v in zip(node.value.keys, node.value.values, strict=True)
                     if k is not None}
            return {**extra, **bm25}
    raise AssertionError("cell c11 defines no with_outlier")


def _normalised(scores, norm):
    from ragmath.score_fusion import fuse_scores

    table = fuse_scores({"list": scores}, norm)
    return dict(zip(table["id"], table["fused_score"], strict=True))


def _order(lists, norm="min-max", weights=(0.5, 0.5)):
    from ragmath.score_fusion import fuse_scores

    return fuse_scores(lists, norm, weights=list(weights))["id"].tolist()


def _rrf_scores(lists, k=60):
    from ragmath import rrf

    ranked = {name: sorted(scores, key=scores.get, reverse=True) for name, scores in lists.items()}
    table = rrf(ranked, k=k)
    return dict(zip(table["id"], table["rrf_score"], strict=True)), table["id"].tolist(), ranked


def check_raw_dwarf(shown: Shown) -> dict[str, str]:
    """"the BM25 bars dwarf the cosines: 12.7 against 0.83" — the largest of each list."""
    bm25, cosine = _article(shown)
    assert max(bm25.values()) > 10 * max(cosine.values())
    return {"bm25": f"{max(bm25.values())}", "cosine": f"{max(cosine.values())}"}


def check_three_scales(shown: Shown) -> dict[str, str]:
    """After min-max each list's best is 1 and its worst 0; after z-score each list is centred on 0; after l2
    every score of both lists is below 1."""
    for scores in _article(shown):
        mm, z, l2 = (_normalised(scores, norm) for norm in ("min-max", "z-score", "l2"))
        assert max(mm.values()) == 1 and min(mm.values()) == 0
        assert abs(sum(z.values())) < 1e-12
        assert all(v < 1 for v in l2.values())
    if shown.language == "en":
        return {"best": "best is 1", "worst": "worst 0", "z": "centred on 0", "l2": "below 1"}
    return {"best": "最高分是 1", "worst": "最低分是 0", "z": "以 0 为中心", "l2": "都小于 1"}


def check_outlier_squeezes(shown: Shown) -> dict[str, str]:
    """The outlier squeezes 4.2, 6.1 and 3.5 below 0.19 under min-max, and 6.1 overtakes 4.2 in the fused order."""
    bm25, cosine = _article(shown)
    mm = _normalised(_outlier(shown), "min-max")
    assert max(mm[item] for item in bm25) < 0.19
    before, after = _order({"BM25": bm25, "vector": cosine}), _order({"BM25": _outlier(shown), "vector": cosine})
    assert before.index("4.2") < before.index("6.1") and after.index("6.1") < after.index("4.2")
    values = ", ".join(f"{bm25[item]}" for item in ("4.2", "6.1", "3.5"))
    return {"scores": values if shown.language == "en" else values.replace(", ", "、"), "limit": "0.19",
            "6.1": "6.1", "4.2": "4.2", "3.5": "3.5"}


def _terms(ranks: list[int], k: int = 60) -> str:
    """An item's RRF terms as the notebook's rrf_terms writes them: "1/62 + 1/63" for ranks 2 and 3 at k = 60."""
    return " + ".join(f"1/{k + rank}" for rank in ranks)


def check_rrf_exact_tie(shown: Shown) -> dict[str, str]:
    """With the outlier, RRF scores 4.2 and 6.1 exactly the same, 1/62 + 1/63, and keeps 4.2 first; cell c14
    shows each one's terms (ranks 2 and 3, 3 and 2) under its order at k = 60."""
    from ragmath.fusion import rrf_score

    _, cosine = _article(shown)
    _, order, ranked = _rrf_scores({"BM25": _outlier(shown), "vector": cosine})
    ranks = {item: [r.index(item) + 1 for r in ranked.values()] for item in ("4.2", "6.1")}
    assert sorted(ranks["4.2"]) == sorted(ranks["6.1"]) == [2, 3], ranks
    assert rrf_score(ranks["4.2"], 60) == rrf_score(ranks["6.1"], 60) == Fraction(1, 62) + Fraction(1, 63)
    assert order.index("4.2") < order.index("6.1")
    shown.shows("c14", "k = 60", *(f"{item} = {_terms(r)}" for item, r in ranks.items()))
    return {"sum": _terms(sorted(ranks["4.2"])), "4.2": "4.2", "6.1": "6.1"}


def check_fifth_decimal_to_tie(shown: Shown) -> dict[str, str]:
    """Without the outlier 4.2 leads 6.1 in the fifth decimal; with it they tie exactly."""
    bm25, cosine = _article(shown)
    before, _, _ = _rrf_scores({"BM25": bm25, "vector": cosine})
    after, _, _ = _rrf_scores({"BM25": _outlier(shown), "vector": cosine})
    gap = before["4.2"] - before["6.1"]
    assert 1e-6 <= gap < 1e-4 and f"{before['4.2']:.4f}" == f"{before['6.1']:.4f}"
    assert after["4.2"] == after["6.1"]
    return {"fifth": "fifth decimal" if shown.language == "en" else "第五位小数"}


def _leaders(lists):
    return {step / 100: _order(lists, weights=(step / 100, 1 - step / 100))[0] for step in range(101)}


def check_alpha_leaders(shown: Shown) -> dict[str, str]:
    """Below α = 0.5 5.3 leads, from 0.5 on 4.2; 6.1 never leads; min-max gives 6.1 0.30 and 0.5."""
    bm25, cosine = _article(shown)
    leaders = _leaders({"BM25": bm25, "vector": cosine})
    assert all(leader == "5.3" for alpha, leader in leaders.items() if alpha < 0.5)
    assert all(leader == "4.2" for alpha, leader in leaders.items() if alpha >= 0.5)
    assert "6.1" not in leaders.values()
    assert f"{_normalised(bm25, 'min-max')['6.1']:.2f}" == "0.30" and round(_normalised(cosine, "min-max")["6.1"], 9) == 0.5
    shown.shows("c17", "0.50")
    return {"alpha": "0.5", "5.3": "5.3", "4.2": "4.2"}


def check_six_one_never_leads(shown: Shown) -> dict[str, str]:
    """6.1, found by both lists, never leads for any α; min-max gives it 0.30 in BM25 and 0.5 in the vector list."""
    bm25, cosine = _article(shown)
    assert "6.1" not in _leaders({"BM25": bm25, "vector": cosine}).values()
    assert f"{_normalised(bm25, 'min-max')['6.1']:.2f}" == "0.30" and round(_normalised(cosine, "min-max")["6.1"], 9) == 0.5
    return {"6.1": "6.1", "bm25": "0.30", "vector": "0.5"}


def check_rrf_fifth_decimal(shown: Shown) -> dict[str, str]:
    """"Under RRF at k = 60, 6.1 trails 4.2 only in the fifth decimal"."""
    bm25, cosine = _article(shown)
    scores, order, _ = _rrf_scores({"BM25": bm25, "vector": cosine}, k=60)
    assert order[:2] == ["4.2", "6.1"] and 1e-6 <= scores["4.2"] - scores["6.1"] < 1e-4
    shown.shows("c14", "k = 60")  # the k of the orders section 3 prints
    return {"k": "k = 60", "6.1": "6.1", "4.2": "4.2"}


def check_rrf_b_convex_a(shown: Shown) -> dict[str, str]:
    """RRF puts b first (ranks 2 and 1 against a's 1 and 3); the convex combination puts a first. Cell c21
    shows both fused orders and the terms of a and b (1/61 + 1/63, 1/62 + 1/61)."""
    _, rrf_order, ranked = _rrf_scores(SECTION_5)
    ranks = {item: [r.index(item) + 1 for r in ranked.values()] for item in ("a", "b")}
    assert ranks == {"a": [1, 3], "b": [2, 1]}, ranks
    assert rrf_order[0] == "b" and _order(SECTION_5)[0] == "a"
    shown.shows("c21", *(f"{item} = {_terms(r)}" for item, r in ranks.items()))
    return {"2": "2", "1": "1", "3": "3"}


def check_disagree(shown: Shown) -> dict[str, str]:
    """RRF puts b first, the convex combination a; a's 20 against 6 survives min-max as 1 against 0.067; its
    shortfall 0.81 against 0.82 costs it only 0.045 of the vector list's scale (0.955 against 1). Cell c22
    shows each list's raw scores above its min-max scores."""
    from claims import fmt

    _, rrf_order, _ = _rrf_scores(SECTION_5)
    assert rrf_order[0] == "b" and _order(SECTION_5)[0] == "a"
    raw = SECTION_5["BM25"]["a"], SECTION_5["BM25"]["b"], SECTION_5["vector"]["a"], SECTION_5["vector"]["b"]
    bm25, vector = (_normalised(SECTION_5[name], "min-max") for name in ("BM25", "vector"))
    assert bm25["a"] == vector["b"] == 1
    shown.shows("c22", *(f"{item}: {score}" for item, score in zip("abab", raw, strict=True)),
                f"a: {fmt(bm25['a'])}", f"b: {fmt(bm25['b'])}", f"a: {fmt(vector['a'])}", f"b: {fmt(vector['b'])}")
    said = [f"{x:g}" for x in raw]
    return {"20": said[0], "6": said[1], "0.81": said[2], "0.82": said[3], "1": f"{bm25['a']:g}",
            "0.067": fmt(bm25["b"]), "0.955": fmt(vector["a"]), "0.045": fmt(vector["b"] - vector["a"])}


CLAIMS = [
    Claim("raw_dwarf", "c09",
          en="Raw, the BM25 bars dwarf the cosines: 12.7 against 0.83.",
          zh="原始分数下，BM25 的柱子把余弦压得几乎看不见：12.7 对 0.83。",
          check=check_raw_dwarf),
    Claim("three_scales", "c09",
          en="After min-max each list's best is 1 and its worst 0;\nafter z-score each list is centred on 0; after l2 the BM25 and cosine scores are both below 1.",
          zh="min-max 之后，每个列表的最高分是 1、最低分是 0；z-score 之后，每个列表以 0 为中心；l2 之后，BM25 和余弦的分数都小于 1。",
          check=check_three_scales,
          scope="'best' and 'worst': each list's highest and lowest score, over all its items"),
    Claim("outlier_squeezes", "c13",
          en="4.2, 6.1 and 3.5 (12.7, 8.3, 6.4) are\nsqueezed below 0.19. Fused half and half with the vector list, 6.1 now comes before 4.2",
          zh="4.2、6.1 和 3.5（12.7、8.3、6.4）被压到 0.19 以下。和向量列表各占一半融合后，6.1 排到了 4.2 前面",
          check=check_outlier_squeezes),
    Claim("rrf_exact_tie", "c15",
          en="4.2 and 6.1 score exactly the same (1/62 + 1/63 each) and the tie rule keeps 4.2, the\nsmaller ID, first",
          zh="4.2 和 6.1 的得分完全相同（都是 1/62 + 1/63），同分规则让 ID 较小的 4.2 仍排第一",
          check=check_rrf_exact_tie),
    Claim("fifth_decimal_to_tie", "c15",
          en="from a lead in the fifth decimal to an exact tie",
          zh="从第五位小数上的领先变成完全同分",
          check=check_fifth_decimal_to_tie,
          scope="'a lead': the top item of the fused list, over all its items"),
    Claim("alpha_leaders", "c18",
          en="Below α = 0.5 the vector list's best, 5.3, leads; from α = 0.5 on, BM25's best, 4.2",
          zh="α 小于 0.5 时，向量列表的第一名 5.3 领先；从 α = 0.5 起，BM25 的第一名 4.2 领先",
          check=check_alpha_leaders,
          scope="'best' and 'leads': each list's top item and the fused list's top item, over all items, at each α of the sweep"),
    Claim("six_one_never_leads", "c18",
          en="6.1, the one chunk both lists found, never leads: min-max\ngives it 0.30 in BM25 and 0.5 in the vector list",
          zh="6.1 是两个列表都找到的唯一片段，却从不领先：min-max 在 BM25 里给它 0.30，在向量列表里给它 0.5",
          check=check_six_one_never_leads,
          scope="'never leads': the fused list's top item at every α of the sweep, over all items"),
    Claim("rrf_fifth_decimal", "c18",
          en="Under RRF at k = 60, 6.1 trails 4.2 only in the fifth decimal",
          zh="而在 k = 60 的 RRF 下，6.1 只在第五位小数上落后于 4.2",
          check=check_rrf_fifth_decimal),
    Claim("rrf_b_convex_a", "c23",
          en="RRF puts b first: ranks 2 and 1 beat ranks 1 and 3, whatever the\nscores were. The convex combination puts a first",
          zh="RRF 把 b 排第一：名次 2 和 1 胜过名次 1 和 3，不管分数是多少。凸组合把 a 排第一",
          check=check_rrf_b_convex_a),
    Claim("disagree", "c23",
          en="a's lead in BM25 (20 against 6) survives min-max as 1 against\n0.067, while its shortfall in the vector list (0.81 against 0.82) costs it only 0.045 of that list's scale\n(0.955 against 1).",
          zh="a 在 BM25 里的领先（20 对 6）经过 min-max 变成 1 对 0.067，而它在向量列表里的落后（0.81 对 0.82）只让它损失那个列表尺度的 0.045（0.955 对 1）。",
          check=check_disagree, derived={"0.045": "1.000 - 0.955"},
          scope="'a's lead': a's score against b's in BM25, the two items the sentence names"),
]
