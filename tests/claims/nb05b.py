"""Notebook 05b (the tools of the ablation): the sentences that read its tables."""

from __future__ import annotations

from claims import Claim, Shown

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


def check_captures_shared_characters(shown: Shown) -> dict[str, str]:
    """"It captures shared characters (超标, 住宿)": for each query, a text that shares one of those words
    with it scores above every text that shares no character with it."""
    cos = toy_cosines(shown_dim(shown))
    for qi, query in enumerate(QUERIES):
        sharing = [ti for ti, t in enumerate(TEXTS) if any(w in query and w in t for w in ("超标", "住宿"))]
        none = [ti for ti, t in enumerate(TEXTS) if not set(query) & set(t)]
        for s in sharing:
            for n in none:
                assert cos[qi, s] > cos[qi, n], (
                    f"{query}: {TEXTS[s]} (shares a word) {cos[qi, s]:.3f} <= {TEXTS[n]} "
                    f"(shares no character) {cos[qi, n]:.3f}")
    return {}


CLAIMS = [
    Claim("toy_shared_characters", "6ee8ca18",
          en="It captures shared characters (超标, 住宿) and their co-occurrence in *this* corpus;",
          zh="它能捕捉共有的字（超标、住宿）以及它们在*这个*语料库里的共现；",
          check=check_captures_shared_characters),
]
