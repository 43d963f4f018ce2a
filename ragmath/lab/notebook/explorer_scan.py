"""What the RRF k explorer computes, all by :func:`ragmath.rrf` and :func:`ragmath.fusion.fuse`.

The fused table, each item's score against k, who leads at each k and where the lead changes, ties and the
items the chart draws. Lead rule: the *leader* at k is the first row of ``rrf(lists, k, window)``, so a tie
in the fused score goes to the smaller ID (compared as strings), exactly as in :func:`ragmath.rrf`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
import polars as pl

from ragmath.fusion import fuse, fused_scores, rrf, rrf_score
from ragmath.lab.messages import message
from ragmath.validation import check_rrf_k, named_lists

#: The range of the k slider.
K_MIN: int = 1
K_MAX: int = 200

#: The chart draws at most this many items; the table always lists them all.
TOP_DRAWN: int = 12

#: Ranked lists, best first: name -> IDs, or a list of lists (named L1, L2, ...).
Lists = Mapping[str, Sequence[str]] | Sequence[Sequence[str]]
_ALL_K = range(K_MIN, K_MAX + 1)  # every k of the slider: the default scan


def _check_ks(ks: Iterable[int]) -> list[int]:
    """Return the k values sorted and unique; each is checked as RRF's k (one check: ``check_rrf_k``)."""
    if isinstance(ks, (str, bytes)) or not isinstance(ks, Iterable):
        raise TypeError(message("explorer.error.ks_not_iterable", value=ks))
    values = list(ks)
    if not values:
        raise ValueError(message("explorer.error.ks_empty"))
    for k in values:
        try:
            check_rrf_k(k)
        except (TypeError, ValueError) as exc:
            raise ValueError(message("explorer.error.bad_k_in_ks", error=exc)) from None
    return sorted(set(values))


# ------------------------------------------------------------------------------- computations
def fused_table(lists: Lists, k: int = 60, window: int | None = None) -> pd.DataFrame:
    """Fuse ranked lists with :func:`ragmath.rrf` and return its table (best first).

    Columns: ``id``, ``rrf_rank``, ``rrf_score``, then ``rank[NAME]`` and ``contrib[NAME]`` for each
    list. Errors are those of :func:`ragmath.rrf` (bad k, bad window, duplicate IDs, ...).

    >>> t = fused_table({"BM25": ["4.2", "6.1", "3.5"], "vector": ["5.3", "6.1", "4.2"]}, k=1)
    >>> [(row.id, round(row.rrf_score, 4)) for row in t.itertuples()]
    [('4.2', 0.75), ('6.1', 0.6667), ('5.3', 0.5), ('3.5', 0.25)]
    """
    return rrf(named_lists(lists), k=k, window=window)


def _rank_matrix(lists: Lists, window: int | None) -> tuple[list[Any], list[str], np.ndarray]:
    """Every item's rank in every list, each list cut to its top ``window``: (items, names, ranks).

    ``ranks`` is items × lists, 0 where a list lacks the item (as :func:`ragmath.fusion.fuse` takes it);
    items in first-appearance order. The lists are checked by :func:`ragmath.rrf` first (same errors).
    """
    named = named_lists(lists)
    rrf(named, k=60, window=window)  # validation only: duplicates, empty input, bad window
    items = dict.fromkeys(item for ranking in named.values() for item in ranking[:window])
    position = {item: row for row, item in enumerate(items)}
    ranks = np.zeros((len(position), len(named)), dtype=np.int64)
    for j, ranking in enumerate(named.values()):
        for rank, item in enumerate(ranking[:window], start=1):
            ranks[position[item], j] = rank
    return list(position), list(named), ranks


def score_curves(lists: Lists, ks: Iterable[int] = _ALL_K, window: int | None = None) -> pd.DataFrame:
    """Fused RRF score of every item at every k: index ``k`` (sorted), one column per item ID.

    Columns are sorted by ID (as strings). Raises ``ValueError`` for an empty ``ks`` or a k that is not an
    integer >= 1, and as :func:`ragmath.rrf` for bad lists.

    >>> c = score_curves({"BM25": ["4.2", "6.1", "3.5"], "vector": ["5.3", "6.1", "4.2"]}, [1, 60])
    >>> c.round(4).loc[1].to_dict()
    {'3.5': 0.25, '4.2': 0.75, '5.3': 0.5, '6.1': 0.6667}
    """
    ks_sorted = _check_ks(ks)
    items, _names, ranks = _rank_matrix(lists, window)
    scores = np.array([fused_scores(ranks, k)[1] for k in ks_sorted]).reshape(len(ks_sorted), len(items))
    frame = pd.DataFrame(scores, index=pd.Index(ks_sorted, name="k"), columns=items)
    frame = frame[sorted(items, key=str)]
    frame.columns.name = "id"
    return frame


def leader_by_k(lists: Lists, ks: Iterable[int] = _ALL_K, window: int | None = None) -> pd.DataFrame:
    """Which item leads the fused ranking at each k, by how much, and over which runner-up.

    One row per k (sorted, unique): ``k``, ``leader``, ``score``, ``runner_up`` (None with a single
    item), ``margin`` (leader's score minus runner-up's) and ``tied`` (exactly equal scores). Raises
    ``ValueError`` for an empty ``ks``, a bad k, bad lists (as :func:`ragmath.rrf`), or no item at all.

    >>> lists = {"BM25": ["4.2", "6.1", "3.5"], "vector": ["5.3", "6.1", "4.2"]}
    >>> leader_by_k(lists, [1, 60])[["k", "leader", "runner_up"]].values.tolist()
    [[1, '4.2', '6.1'], [60, '4.2', '6.1']]
    """
    ks_sorted = _check_ks(ks)
    items, _names, ranks = _rank_matrix(lists, window)
    if not items:
        raise ValueError(message("explorer.error.no_item"))
    ids = pl.Series([str(item) for item in items], dtype=pl.String)
    rows: list[dict[str, Any]] = []
    for k in ks_sorted:
        order, tier, score = fuse(ranks, ids, k)
        best = order[0]
        second = order[1] if len(order) > 1 else None
        rows.append({
            "k": k,
            "leader": items[best],
            "score": float(score[best]),
            "runner_up": items[second] if second is not None else None,
            "margin": float(rrf_score(ranks[best], k) - rrf_score(ranks[second], k))
            if second is not None else math.inf,
            "tied": second is not None and bool(tier[best] == tier[second]),
        })
    return pd.DataFrame(rows, columns=["k", "leader", "score", "runner_up", "margin", "tied"])


def tie_places(table: pd.DataFrame, k: int) -> tuple[list[int], list[bool]]:
    """Place of each row of an rrf table and whether it is tied, with ties decided exactly.

    Exactly equal fused scores share the group's best place ("1, 1, 3"); ``tied[i]`` is true when row i
    shares its score with another row. ``k`` must be the k the table was fused with.

    >>> t = fused_table({"L1": ["a", "b"], "L2": ["b", "a"], "L3": ["c"]}, k=1)
    >>> tie_places(t, 1)
    ([1, 1, 3], [True, True, False])
    """
    rank_columns = [c for c in table.columns if c.startswith("rank[")]
    ranks = table[rank_columns].fillna(0).to_numpy(dtype=np.int64)
    tier = fused_scores(ranks, k)[0] if len(table) else np.zeros(0, dtype=np.int64)
    n = len(table)
    places, tied = list(range(1, n + 1)), [False] * n
    for i in range(1, n):
        if tier[i] == tier[i - 1]:
            places[i] = places[i - 1]
            tied[i] = tied[i - 1] = True
    return places, tied


def drawn_items(lists: Lists, ks: Iterable[int] = _ALL_K, window: int | None = None,
                top: int = TOP_DRAWN) -> list[Any]:
    """The items whose score curves the chart draws: at most ``top``, best place first.

    Ordered by the best place they reach at any scanned k, then by first appearance.

    >>> drawn_items({"L1": ["A", "B", "C"], "L2": ["C", "D", "B"]}, range(1, 11), top=2)
    ['C', 'B']
    """
    items, _names, ranks = _rank_matrix(lists, window)
    if len(items) <= top:
        return items
    scores = np.array([fused_scores(ranks, k)[1] for k in _check_ks(ks)]).reshape(-1, len(items))
    places = np.argsort(-scores, axis=1, kind="stable").argsort(axis=1)  # each item's place at each k
    chosen = np.argsort(places.min(axis=0), kind="stable")[:top]  # by best place, then first appearance
    return [items[i] for i in chosen]


class LeadChange(NamedTuple):
    """The lead passes from ``previous`` (leader at the previous scanned k) to ``leader`` at ``k``."""

    k: int
    previous: str
    leader: str


def lead_changes(lists: Lists, ks: Iterable[int] = _ALL_K, window: int | None = None) -> list[LeadChange]:
    """The k values (among ``ks``, scanned in increasing order) at which the leader changes.

    A change is reported at ``ks[i]`` when the leader there differs from the leader at ``ks[i-1]``.

    >>> lead_changes({"L1": ["A", "B"], "L2": ["A", "X", "B"], "L3": ["Y", "Z", "B"]}, range(1, 11))
    [LeadChange(k=3, previous='A', leader='B')]
    """
    return changes_from(leader_by_k(lists, ks, window))


def changes_from(leaders: pd.DataFrame) -> list[LeadChange]:
    """Lead changes read off a :func:`leader_by_k` table (rows in increasing k)."""
    rows = zip(leaders["k"], leaders["leader"], strict=True)
    return [LeadChange(int(k), previous, leader)
            for (_, previous), (k, leader) in itertools.pairwise(rows) if leader != previous]


def describe_lead(lists: Lists, k: int, window: int | None = None, ks: Iterable[int] = _ALL_K) -> str:
    """One sentence, in plain text: who leads at ``k`` and where the lead changes over ``ks``.

    Raises ``ValueError`` as :func:`leader_by_k`.

    >>> print(describe_lead({"L1": ["A", "B"], "L2": ["A", "X", "B"], "L3": ["Y", "Z", "B"]}, 2,
    ...                     ks=range(1, 11)))
    At k = 2, A leads with 0.6667 (0.0167 ahead of B). Over k = 1…10 the lead changes at k = 3 (A → B).
    """
    scan = _check_ks(ks)
    now = leader_by_k(lists, [k], window).iloc[0]
    return lead_text(now, k, lead_changes(lists, scan, window), scan[0], scan[-1])


def lead_text(row: Any, k: int, changes: list[LeadChange], k_lo: int, k_hi: int) -> str:
    """Format a leader_by_k row and the lead changes over k_lo..k_hi as one sentence."""
    leader, runner_up, score = row["leader"], row["runner_up"], row["score"]
    if runner_up is None:
        now = message("explorer.lead.only", k=k, leader=leader, score=score)
    elif row["tied"]:
        now = message("explorer.lead.tie", k=k, leader=leader, runner_up=runner_up, score=score)
    else:
        now = message("explorer.lead.leads", k=k, leader=leader, score=score,
                      margin=fmt_margin(row["margin"]), runner_up=runner_up)
    if not changes:
        span = message("explorer.lead.never_changes", k_lo=k_lo, k_hi=k_hi)
    else:
        parts = message("common.list_separator").join(
            message("explorer.lead.change", k=c.k, previous=c.previous, leader=c.leader) for c in changes)
        span = message("explorer.lead.changes", k_lo=k_lo, k_hi=k_hi, changes=parts)
    return message("explorer.lead.sentence", now=now, span=span)


def fmt_margin(margin: float) -> str:
    """Write a score gap with enough decimals to show its first significant digit."""
    if margin == 0 or not math.isfinite(margin):
        return f"{margin:.4f}"
    decimals = max(4, -math.floor(math.log10(abs(margin))) + 1)
    return f"{margin:.{decimals}f}"
