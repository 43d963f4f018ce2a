"""Notebook 05b (the tools of the ablation): the sentences that read its tables."""

# ruff: noqa: E501 - the sentences stand as the notebooks write them (Chinese characters count double)

from __future__ import annotations

from claims import Claim, Shown, fmt

TEXTS = ["市内交通每次 80 元", "出租车、网约车凭发票报销", "住宿标准每晚 650 元", "住宿超标部分自理"]
QUERIES = ["打车超标怎么报", "住宿费超标怎么办"]


def toy_cosines(dim: int):
    """The toy embedder's cosines (queries x texts), as section 3's cell computes them."""
    import numpy as np

    from ragmath.lab.retrieval import CharNgramSVDEmbedder

    emb = CharNgramSVDEmbedder(ngram_range=(1, 3), dim=dim).fit(TEXTS)

    def unit(m):
        return m / np.linalg.norm(m, axis=1, keepdims=True)

    return unit(emb(QUERIES)) @ unit(emb(TEXTS)).T


def shown_dim(shown: Shown) -> int:
    """The number of dimensions the notebook's toy used, read from what the cell prints."""
    import re

    found = re.search(r"vectors of (\d+) numbers|每个向量 (\d+) 个数", shown.output("08a95077"))
    assert found, "the toy's cell does not say its dimensions"
    return int(next(g for g in found.groups() if g))


def check_toy_misses_shared_characters(shown: Shown) -> dict[str, str]:
    """At the notebook's dimension, the first query scores lowest on the one text sharing 超标 with it and
    highest on a text sharing no character with it; the second scores highest on the text sharing 住宿 and
    超标. Today's notebooks said "it captures shared characters (超标, 住宿)", which the first row refutes."""
    dim = shown_dim(shown)
    assert dim == 2, f"the toy uses {dim} dimensions, the sentence says two"
    cos = toy_cosines(dim)
    first, second = cos[0], cos[1]
    lowest, highest = int(first.argmin()), int(first.argmax())
    assert "超标" in TEXTS[lowest] and [t for t in TEXTS if "超标" in t] == [TEXTS[lowest]]
    assert not set(QUERIES[0]) & set(TEXTS[highest]), f"{TEXTS[highest]} shares a character with the query"
    best_second = int(second.argmax())
    assert "住宿" in TEXTS[best_second] and "超标" in TEXTS[best_second]
    values = {"lowest": fmt(first[lowest]), "highest": fmt(first[highest]), "second": fmt(second[best_second]),
              "lowest text": TEXTS[lowest], "highest text": TEXTS[highest]}
    shown.shows("08a95077", values["lowest"], values["highest"], values["second"])
    return values


CLAIMS = [
    Claim("toy_shared_characters", "6ee8ca18",
          en="At two dimensions the toy does not capture shared characters for the first query: 打车超标怎么报 "
             "scores\nlowest (0.396) on 住宿超标部分自理, the one text that shares 超标 with it, and highest (0.767) "
             "on 市内交通每次 80 元,\nwhich shares no character with it. The second query, 住宿费超标怎么办, does "
             "score highest (0.996) on\n住宿超标部分自理, the text that shares both 住宿 and 超标 with it.",
          zh="只有两个维度时，这个玩具例子对第一个查询没能体现共有的字：“打车超标怎么报”与“住宿超标部分自理”"
             "——唯一和它共有“超标”的文本——的余弦最低（0.396），与一个字都不共有的“市内交通每次 80 元”反而最高"
             "（0.767）。第二个查询“住宿费超标怎么办”倒是与“住宿超标部分自理”最接近（0.996），两者共有“住宿”和“超标”。",
          check=check_toy_misses_shared_characters),
]
