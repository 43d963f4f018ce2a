"""Notebook 05 (RRF): the sentences that read its fused tables and curves."""

# ruff: noqa: E501 - the sentences stand as the notebooks write them (Chinese characters count double)

from __future__ import annotations

import ast

from claims import Claim, Shown

THREE_LISTS = {"BM25": ["4.2", "6.1"], "vector": ["4.2", "3.5", "6.1"], "title": ["5.3", "7.2", "6.1"]}


def _scores(k: float, lists=None) -> dict[str, float]:
    from ragmath import rrf
    from ragmath.lab.notebook.widgets import ARTICLE_LISTS

    table = rrf(ARTICLE_LISTS if lists is None else lists, k=k)
    return dict(zip(table["id"], table["rrf_score"], strict=True))


def _ranks() -> dict[str, dict[str, int]]:
    from ragmath.lab.notebook.widgets import ARTICLE_LISTS

    return {name: {item: i + 1 for i, item in enumerate(ranking)} for name, ranking in ARTICLE_LISTS.items()}


def check_both_lists_beat_first(shown: Shown) -> dict[str, str]:
    """"6.1 is second in both lists; 5.3 is first, but only in the vector list" — and being found by both
    beats being first in one: 6.1's fused score at k = 60 is above 5.3's."""
    ranks = _ranks()
    assert all(r.get("6.1") == 2 for r in ranks.values()), ranks
    assert [name for name, r in ranks.items() if "5.3" in r] == ["vector"] and ranks["vector"]["5.3"] == 1
    s60 = _scores(60)
    assert s60["6.1"] > s60["5.3"]
    return {"6.1": "6.1", "5.3": "5.3"}


def _first_different_place(a: float, b: float) -> int:
    x, y = f"{a:.10f}", f"{b:.10f}"
    return next(i for i, (p, q) in enumerate(zip(x[2:], y[2:], strict=True), start=1) if p != q)


def check_same_at_4_decimals(shown: Shown) -> dict[str, str]:
    """"4.2 and 6.1 print the same score at 4 decimals. They are not equal"."""
    s60 = _scores(60)
    assert round(s60["4.2"], 4) == round(s60["6.1"], 4) and s60["4.2"] != s60["6.1"]
    return {"4.2": "4.2", "6.1": "6.1", "4": "4 decimals" if shown.language == "en" else "4 位小数"}


def check_shares_move(shown: Shown) -> dict[str, str]:
    """At k = 1 and k = 60 the order is the same; at k = 1 first place in a list is worth twice the third; as
    k grows, 5.3 and 3.5 (found once) move towards half the score of an item found twice (4.2)."""
    s1, s60, s200 = _scores(1), _scores(60), _scores(200)

    def order(scores):
        return sorted(scores, key=lambda i: (-scores[i], i))

    assert order(s1) == order(s60)
    assert (1 / (1 + 1)) / (1 / (1 + 3)) == 2
    for item in ("5.3", "3.5"):
        gaps = [abs(s[item] / s["4.2"] - 0.5) for s in (s1, s60, s200)]
        assert gaps[0] > gaps[1] > gaps[2], (item, gaps)
    return {"5.3": "5.3", "3.5": "3.5", "1/k": "1/k"}


def check_leader_never_changes(shown: Shown) -> dict[str, str]:
    """"With the article's two lists the leader never changes" (k = 1 … 200), and in the three lists "4.2 is
    first in two lists, 6.1 is second or third in all three"."""
    from ragmath.lab.notebook.widgets import ARTICLE_LISTS, lead_changes

    assert lead_changes(ARTICLE_LISTS, range(1, 201)) == []
    assert sum(ranking[0] == "4.2" for ranking in THREE_LISTS.values()) == 2
    assert all(ranking.index("6.1") + 1 in (2, 3) for ranking in THREE_LISTS.values())
    shown.shows("f8390f90", "lead changes over k = 1…200" if shown.language == "en" else "1…200")
    return {"4.2": "4.2", "6.1": "6.1", "5.3": "5.3", "3.5": "3.5"}


def check_small_and_large_k(shown: Shown) -> dict[str, str]:
    """"Small k favours the item that is first somewhere (4.2); large k favours the item every list found (6.1)"."""
    small, large = _scores(1, THREE_LISTS), _scores(200, THREE_LISTS)
    assert max(small, key=small.get) == "4.2" and max(large, key=large.get) == "6.1"
    return {"4.2": "4.2", "6.1": "6.1"}


def _raw_scores(shown: Shown) -> tuple[dict[str, float], dict[str, float]]:
    """The illustrative scores, read from the cell that defines them (section 2)."""
    found = {}
    for node in ast.parse(shown.source("63524ddd")).body:
        target = node.targets[0] if isinstance(node, ast.Assign) else None
        if isinstance(target, ast.Name) and target.id in ("bm25_scores", "cosine_scores"):
            found[target.id] = ast.literal_eval(node.value)
    return found["bm25_scores"], found["cosine_scores"]


def check_cosine_below_bm25(shown: Shown) -> dict[str, str]:
    """"(here 0.83 < 6.4)": the largest cosine is below the lowest BM25 score."""
    bm25, cosine = _raw_scores(shown)
    assert max(cosine.values()) < min(bm25.values())
    return {"largest cosine": f"{max(cosine.values()):.2f}", "lowest bm25": f"{min(bm25.values()):.1f}"}


def check_recap_decimal_place(shown: Shown) -> dict[str, str]:
    """At k = 60, 4.2 and 6.1 first differ in the fifth decimal place ("far behind the decimal point")."""
    s60 = _scores(60)
    place = _first_different_place(s60["4.2"], s60["6.1"])
    assert place >= 5
    values = {"k": "k = 60", "4.2": "4.2", "6.1": "6.1"}
    if shown.language == "zh":
        assert place == 5
        values["place"] = "第五位"
    return values


CLAIMS = [
    Claim("both_lists_beat_first", "545e7c98",
          en="6.1 is second in both lists; 5.3 is first, but only in the vector list.",
          zh="6.1 在两个列表里都排第二；5.3 排第一，但只出现在向量列表里。",
          check=check_both_lists_beat_first),
    Claim("same_at_4_decimals", "c16d373c",
          en="4.2 and 6.1 print the same score at 4 decimals. They are not equal",
          zh="4.2 和 6.1 保留 4 位小数时显示的得分一样。它们并不相等",
          check=check_same_at_4_decimals),
    Claim("shares_move", "33f73a68",
          en="the order is the same here, but the *shares* move. With a small k, the position inside\na list matters a lot (first place in one list is worth twice the third place). With a large k every\ncontribution is close to 1/k, so the score mostly **counts how many lists found the item**: 5.3 and 3.5,\neach found once, drift towards half the score of an item found twice.",
          zh="这里的顺序没有变，但各项得分*占第一名的比例*变了。k 小的时候，在列表里的名次非常重要（在一个列表里排第一，分量是排第三的两倍）。k 大的时候，每份贡献都接近 1/k，所以得分主要是在**数有几个列表找到了这个结果**：5.3 和 3.5 各只被找到一次，得分逐渐接近被找到两次的结果的一半。",
          check=check_shares_move,
          scope="'every contribution': each item's contribution from each of the article's two lists"),
    Claim("leader_never_changes", "e577b3f5",
          en="With the article's two lists the leader never changes; what k changes is the *shape*: look at the right\npanel, where the single-list items 5.3 and 3.5 converge as k grows. The lead can change when lists disagree\nmore. Below, a third searcher (a title match) joins: 4.2 is first in two lists, 6.1 is second or third in all\nthree.",
          zh="在文章的两个列表上，第一名始终不变；k 改变的是曲线的*形状*：看右图，只出现在一个列表里的 5.3 和 3.5 随着 k 增大而逐渐靠拢。列表之间分歧更大时，第一名就可能易主。下面加入第三个检索器（标题匹配）：4.2 在两个列表里排第一，6.1 在全部三个列表里排第二或第三。",
          check=check_leader_never_changes,
          scope="'the leader': the item RRF ranks first, at every k of the chart's grid, over all fused items"),
    Claim("small_and_large_k", "979aac53",
          en="Small k favours the item that is *first* somewhere (4.2); large k favours the item that *every* list found\n(6.1).",
          zh="k 小时，*在某个列表里排第一*的结果（4.2）占优；k 大时，*每个列表都找到了*的结果（6.1）占优。",
          check=check_small_and_large_k,
          scope="'every list': the three lists of the example, all of them"),
    Claim("cosine_below_bm25", "82a47522",
          en="(here 0.83 < 6.4)",
          zh="（这里 0.83 < 6.4）",
          check=check_cosine_below_bm25),
    Claim("recap_decimal_place", "9fe66af7",
          en="At k = 60 the article's 4.2 and 6.1 are separated only far behind the decimal point",
          zh="k = 60 时，文章里 4.2 和 6.1 的得分要到小数点后第五位才分得开",
          check=check_recap_decimal_place),
]
