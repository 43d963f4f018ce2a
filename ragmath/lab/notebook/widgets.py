"""The RRF k explorer: plain, testable functions plus an ipywidgets builder.

Everything the explorer shows is computed by :func:`ragmath.rrf`; the functions here only parse
input, arrange :func:`ragmath.rrf` results for display and draw them. The builder renders one
matplotlib figure (never registered with pyplot) to PNG bytes in an ``ipywidgets.Image``, so each
move of the k slider updates the same figure in place, in JupyterLab. For a classroom, the same
explorer is a static page that computes in the browser: ``explorer/`` (``make explorer``, docs/classroom.md).

Lead rule: at a given k the *leader* is the first row of ``rrf(lists, k, window)``, so ties in the
fused score go to the smaller ID (compared as strings), exactly as in :func:`ragmath.rrf`.
"""

from __future__ import annotations

import html
import io
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
import polars as pl
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.transforms import blended_transform_factory

from ragmath.fusion import fuse, fused_scores, rrf, rrf_score
from ragmath.lab.messages import message
from ragmath.lab.notebook.plotting import PALETTE, item_colours
from ragmath.validation import check_rrf_k, check_window, named_lists

__all__ = [
    "ARTICLE_LISTS",
    "K_MAX",
    "K_MIN",
    "MAX_IDS",
    "TOP_DRAWN",
    "Explorer",
    "LeadChange",
    "build_explorer",
    "check_size",
    "describe_lead",
    "drawn_items",
    "format_list",
    "fused_table",
    "PALETTE",
    "item_colours",
    "lead_changes",
    "leader_by_k",
    "parse_list",
    "parse_lists",
    "render_table_html",
    "score_curves",
    "tie_places",
]

#: The article's worked example: BM25 and vector search results, best first.
ARTICLE_LISTS: dict[str, list[str]] = {
    "BM25": ["4.2", "6.1", "3.5"],
    "vector": ["5.3", "6.1", "4.2"],
}

#: The range of the k slider.
K_MIN: int = 1
K_MAX: int = 200

#: Largest recall window offered by the window control (``0`` in the control means "all").
WINDOW_MAX: int = 20

# IDs are separated by commas only (ASCII "," or full-width "，"); spaces belong to the ID.
_SEPARATORS = re.compile(r"[,，]")

#: At most this many distinct IDs across the lists: beyond it an edit takes seconds (bench/bench_explorer.py).
MAX_IDS: int = 1000

#: The chart draws at most this many items; the table always lists them all.
TOP_DRAWN: int = 12

# The lists' shares in the stacked bars: greys, so they are never mistaken for an item's colour.
LIST_SHADES: tuple[str, ...] = ("#4d4d4d", "#a6a6a6", "#7a7a7a", "#cfcfcf", "#262626", "#e5e5e5")


# --------------------------------------------------------------------------------------- parsing
def parse_list(text: str, name: str = "list") -> list[str]:
    """Parse one ranked list typed as text ("4.2, 6.1, 3.5") into a list of IDs, best first.

    IDs are separated by commas (``,`` or the full-width ``，``) and nothing else: a space inside an
    ID is part of it ("doc 1" is one ID); spaces around an ID are trimmed. One trailing comma is
    ignored. Raises ``TypeError`` if ``text`` is not a string, ``ValueError`` if the list is empty,
    has an empty entry between two commas, or names an ID twice (the message names the list, the
    ID and both positions).

    >>> parse_list("4.2, 6.1,3.5，doc 7")
    ['4.2', '6.1', '3.5', 'doc 7']
    >>> parse_list("4.2, 6.1, 4.2", name="BM25")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: list 'BM25': ID '4.2' appears twice (positions 1 and 3); ... remove one of them
    """
    if not isinstance(text, str):
        raise TypeError(message("explorer.error.not_text", name=name, kind=type(text).__name__, value=text))
    parts = [part.strip() for part in _SEPARATORS.split(text)]
    if len(parts) > 1 and parts[-1] == "":
        parts.pop()  # "4.2, 6.1," : a trailing comma
    if parts == [""]:
        raise ValueError(message("explorer.error.empty_list", name=name))
    first_seen: dict[str, int] = {}
    for position, item in enumerate(parts, start=1):
        if item == "":
            raise ValueError(message("explorer.error.empty_entry", name=name, position=position))
        if item in first_seen:
            raise ValueError(message("explorer.error.duplicate", name=name, item=item,
                                     first=first_seen[item], second=position))
        first_seen[item] = position
    return parts


def parse_lists(texts: Mapping[str, str]) -> dict[str, list[str]]:
    """Parse several named text lists (name -> "4.2, 6.1") with :func:`parse_list`.

    Raises ``ValueError`` if there are no lists, or as :func:`parse_list` for the first bad one.

    >>> parse_lists({"BM25": "4.2, 6.1", "vector": "5.3, 6.1"})
    {'BM25': ['4.2', '6.1'], 'vector': ['5.3', '6.1']}
    """
    if not isinstance(texts, Mapping):
        raise TypeError(message("explorer.error.texts_not_mapping", kind=type(texts).__name__))
    if not texts:
        raise ValueError(message("explorer.error.no_texts"))
    return {str(name): parse_list(text, name=str(name)) for name, text in texts.items()}


def format_list(ids: Iterable[str]) -> str:
    """Write a ranked list as the text :func:`parse_list` reads back.

    >>> format_list(["4.2", "6.1", "3.5"])
    '4.2, 6.1, 3.5'
    """
    return ", ".join(str(i) for i in ids)


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
def fused_table(
    lists: Mapping[str, Sequence[str]] | Sequence[Sequence[str]],
    k: int = 60,
    window: int | None = None,
) -> pd.DataFrame:
    """Fuse ranked lists with :func:`ragmath.rrf` and return its table (best first).

    Columns: ``id``, ``rrf_rank``, ``rrf_score``, then ``rank[NAME]`` and ``contrib[NAME]`` for each
    list. Errors are those of :func:`ragmath.rrf` (bad k, bad window, duplicate IDs, ...).

    >>> t = fused_table({"BM25": ["4.2", "6.1", "3.5"], "vector": ["5.3", "6.1", "4.2"]}, k=1)
    >>> [(row.id, round(row.rrf_score, 4)) for row in t.itertuples()]
    [('4.2', 0.75), ('6.1', 0.6667), ('5.3', 0.5), ('3.5', 0.25)]
    """
    return rrf(named_lists(lists), k=k, window=window)


def check_size(lists: Mapping[str, Sequence[str]] | Sequence[Sequence[str]]) -> int:
    """Return the number of distinct IDs in ``lists``; raise if it is above :data:`MAX_IDS`.

    The explorer rescans k = 1…200 for every item on each edit; past :data:`MAX_IDS` items an edit
    takes seconds (measured by ``bench/bench_explorer.py``), so it refuses with a message saying so.

    >>> check_size({"BM25": ["4.2", "6.1"], "vector": ["6.1"]})
    2
    """
    distinct = len({item for ranking in named_lists(lists).values() for item in ranking})
    if distinct > MAX_IDS:
        raise ValueError(message("explorer.error.too_many_ids", distinct=distinct, max_ids=MAX_IDS,
                                 k_min=K_MIN, k_max=K_MAX))
    return distinct


def _rank_matrix(
    lists: Mapping[str, Sequence[str]] | Sequence[Sequence[str]], window: int | None
) -> tuple[list[Any], list[str], np.ndarray]:
    """Every item's rank in every list, each list cut to its top ``window``: (items, names, ranks).

    ``ranks`` is an integer array items × lists with 0 where a list lacks the item, as
    :func:`ragmath.fusion.fuse` takes it. Items are in first-appearance order (within the window).
    The lists are checked by :func:`ragmath.rrf` first (same errors).
    """
    named = named_lists(lists)
    rrf(named, k=60, window=window)  # validation only: duplicates, empty input, bad window
    position: dict[Any, int] = {}
    for ranking in named.values():
        for item in ranking[:window]:
            position.setdefault(item, len(position))
    ranks = np.zeros((len(position), len(named)), dtype=np.int64)
    for j, ranking in enumerate(named.values()):
        for rank, item in enumerate(ranking[:window], start=1):
            ranks[position[item], j] = rank
    return list(position), list(named), ranks


def score_curves(
    lists: Mapping[str, Sequence[str]] | Sequence[Sequence[str]],
    ks: Iterable[int] = range(K_MIN, K_MAX + 1),
    window: int | None = None,
) -> pd.DataFrame:
    """Fused RRF score of every item at every k: index ``k`` (sorted), one column per item ID.

    The scores are :func:`ragmath.fusion.fused_scores`' (the one computation of RRF); columns are
    sorted by ID (as strings). Raises ``ValueError`` for an empty ``ks`` or a k that is not an
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


def leader_by_k(
    lists: Mapping[str, Sequence[str]] | Sequence[Sequence[str]],
    ks: Iterable[int] = range(K_MIN, K_MAX + 1),
    window: int | None = None,
) -> pd.DataFrame:
    """Which item leads the fused ranking at each k, by how much, and over which runner-up.

    One row per k (sorted, unique): ``k``, ``leader``, ``score``, ``runner_up`` (None with a single
    item), ``margin`` (leader's score minus runner-up's) and ``tied`` (exactly equal scores, decided
    by the rrf rule: smaller ID first). Each k is fused by :func:`ragmath.fusion.fuse`, the function
    behind :func:`ragmath.rrf`, so the leader at k is ``rrf(lists, k, window)``'s first row.
    Raises ``ValueError`` for an empty ``ks``, a bad k, bad lists (as :func:`ragmath.rrf`), or
    lists that hold no item at all.

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

    Equal fused scores (:func:`ragmath.fusion.fused_scores` of the table's ranks, as
    :func:`ragmath.rrf` decides them) share one place, the best of the group ("1, 1, 3": competition
    ranking); ``tied[i]`` is true when row i shares its score with another row. ``k`` must be the k
    the table was fused with.

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


def drawn_items(
    lists: Mapping[str, Sequence[str]] | Sequence[Sequence[str]],
    ks: Iterable[int] = range(K_MIN, K_MAX + 1),
    window: int | None = None,
    top: int = TOP_DRAWN,
) -> list[Any]:
    """The items whose score curves the chart draws: at most ``top``, best place first.

    Items are ordered by the best place they reach at any scanned k (then by first appearance)
    and the first ``top`` are kept; with ``top`` items or fewer, all are drawn.

    >>> drawn_items({"L1": ["A", "B", "C"], "L2": ["C", "D", "B"]}, range(1, 11), top=2)
    ['C', 'B']
    """
    items, _names, ranks = _rank_matrix(lists, window)
    if len(items) <= top:
        return items
    scores = np.array([fused_scores(ranks, k)[1] for k in _check_ks(ks)]).reshape(-1, len(items))
    order = np.argsort(-scores, axis=1, kind="stable")
    places = np.empty_like(order)
    rows = np.arange(order.shape[0])[:, None]
    places[rows, order] = np.arange(order.shape[1])[None, :]
    best = places.min(axis=0)
    chosen = sorted(range(len(items)), key=lambda i: (best[i], i))[:top]
    return [items[i] for i in chosen]


class LeadChange(NamedTuple):
    """The lead passes from ``previous`` (leader at the previous scanned k) to ``leader`` at ``k``."""

    k: int
    previous: str
    leader: str


def lead_changes(
    lists: Mapping[str, Sequence[str]] | Sequence[Sequence[str]],
    ks: Iterable[int] = range(K_MIN, K_MAX + 1),
    window: int | None = None,
) -> list[LeadChange]:
    """The k values (among ``ks``, scanned in increasing order) at which the leader changes.

    A change is reported at ``ks[i]`` when the leader there differs from the leader at ``ks[i-1]``
    (leaders as in :func:`leader_by_k`). An empty result means one item leads at every scanned k.

    >>> lead_changes({"L1": ["A", "B"], "L2": ["A", "X", "B"], "L3": ["Y", "Z", "B"]}, range(1, 11))
    [LeadChange(k=3, previous='A', leader='B')]
    """
    return _changes_from(leader_by_k(lists, ks, window))


def _changes_from(leaders: pd.DataFrame) -> list[LeadChange]:
    """Lead changes read off a :func:`leader_by_k` table (rows in increasing k)."""
    changes: list[LeadChange] = []
    previous = None
    for k, leader in zip(leaders["k"], leaders["leader"], strict=True):
        if previous is not None and leader != previous:
            changes.append(LeadChange(int(k), previous, leader))
        previous = leader
    return changes


def describe_lead(
    lists: Mapping[str, Sequence[str]] | Sequence[Sequence[str]],
    k: int,
    window: int | None = None,
    ks: Iterable[int] = range(K_MIN, K_MAX + 1),
) -> str:
    """One sentence, in plain text: who leads at ``k`` and where the lead changes over ``ks``.

    Raises ``ValueError`` as :func:`leader_by_k`.

    >>> print(describe_lead({"L1": ["A", "B"], "L2": ["A", "X", "B"], "L3": ["Y", "Z", "B"]}, 2,
    ...                     ks=range(1, 11)))
    At k = 2, A leads with 0.6667 (0.0167 ahead of B). Over k = 1…10 the lead changes at k = 3 (A → B).
    """
    scan = _check_ks(ks)
    now = leader_by_k(lists, [k], window).iloc[0]
    return _lead_text(now, k, lead_changes(lists, scan, window), scan[0], scan[-1])


def _lead_text(row: Any, k: int, changes: list[LeadChange], k_lo: int, k_hi: int) -> str:
    """Format a leader_by_k row and the lead changes over k_lo..k_hi as one sentence."""
    leader, runner_up, score = row["leader"], row["runner_up"], row["score"]
    if runner_up is None:
        now = message("explorer.lead.only", k=k, leader=leader, score=score)
    elif row["tied"]:
        now = message("explorer.lead.tie", k=k, leader=leader, runner_up=runner_up, score=score)
    else:
        now = message("explorer.lead.leads", k=k, leader=leader, score=score,
                      margin=_fmt_margin(row["margin"]), runner_up=runner_up)
    if not changes:
        span = message("explorer.lead.never_changes", k_lo=k_lo, k_hi=k_hi)
    else:
        parts = message("common.list_separator").join(
            message("explorer.lead.change", k=c.k, previous=c.previous, leader=c.leader) for c in changes)
        span = message("explorer.lead.changes", k_lo=k_lo, k_hi=k_hi, changes=parts)
    return message("explorer.lead.sentence", now=now, span=span)


def _fmt_margin(margin: float) -> str:
    """Write a score gap with enough decimals to show its first significant digit."""
    if margin == 0 or not math.isfinite(margin):
        return f"{margin:.4f}"
    decimals = max(4, -math.floor(math.log10(abs(margin))) + 1)
    return f"{margin:.{decimals}f}"


# ------------------------------------------------------------------------------------ rendering
def render_table_html(table: pd.DataFrame, k: int, window: int | None = None) -> str:
    """The fused table as HTML: place, ID, each list's rank and contribution 1/(k + rank), score.

    The outer ``div`` carries ``data-k`` and ``data-window`` attributes so a browser test can wait
    for the render of a given k. Contributions and scores show 4 decimals. Exactly tied items
    (:func:`tie_places`) share one place, marked "(tied)", and the last column says "tied"; else it
    gives each item's lead over the next one, with enough decimals to see it. IDs are HTML-escaped.
    More than 25 rows scroll inside a box.

    >>> t = fused_table({"BM25": ["4.2"], "vector": ["4.2"]}, k=1)
    >>> 'data-k="1"' in render_table_html(t, k=1) and "1/2 = 0.5000" in render_table_html(t, k=1)
    True
    """
    names = [c[len("rank[") : -1] for c in table.columns if c.startswith("rank[")]
    win = "all" if window is None else str(window)  # an attribute for tests: not translated
    head = "".join(
        f"<th>{html.escape(message('explorer.table.rank', name=n))}</th>"
        f"<th>{html.escape(message('explorer.table.contribution', name=n))}</th>"
        for n in names
    )
    tied_word = message("explorer.table.tied")
    cell = "padding:2px 8px;text-align:right;border-bottom:1px solid #ddd"
    places, tied = tie_places(table, k)
    scores = table["rrf_score"].tolist()
    ids = [str(i) for i in table["id"]]
    rank_cols = [table[f"rank[{n}]"].tolist() for n in names]
    contrib_cols = [table[f"contrib[{n}]"].tolist() for n in names]
    rows = []
    for pos, item in enumerate(ids):
        place = message("explorer.table.tied_place", place=places[pos]) if tied[pos] else str(places[pos])
        cells = [f"<td>{place}</td>", f"<td><b>{html.escape(item)}</b></td>"]
        for ranks, contribs in zip(rank_cols, contrib_cols, strict=True):
            rank = ranks[pos]
            if pd.isna(rank):
                cells.append("<td>—</td><td>0</td>")
            else:
                cells.append(f"<td>{int(rank)}</td><td>1/{k + int(rank)} = {contribs[pos]:.4f}</td>")
        cells.append(f"<td><b>{scores[pos]:.4f}</b></td>")
        if pos + 1 < len(scores) and places[pos + 1] == places[pos]:
            cells.append(f"<td>{tied_word}</td>")
        elif pos + 1 < len(scores):
            cells.append(f"<td>{_fmt_margin(scores[pos] - scores[pos + 1])}</td>")
        else:
            cells.append("<td></td>")
        rows.append(f'<tr data-id="{html.escape(item, quote=True)}">' + "".join(cells) + "</tr>")
    style = f"<style>.rrf-table td,.rrf-table th{{{cell}}}</style>"
    scroll = ' style="max-height:420px;overflow-y:auto"' if len(rows) > 25 else ""
    return (
        f'{style}<div class="rrf-table" data-k="{k}" data-window="{win}"{scroll}>'
        f"<table><thead><tr><th>{message('explorer.table.place')}</th><th>ID</th>{head}"
        f"<th>{message('explorer.table.score')}</th><th>{message('explorer.table.gap')}</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


_ASCII_FONT = "DejaVu Sans"


def _font_for(text: str) -> str:
    """DejaVu Sans for ASCII text (laid out faster), else the default family (with the CJK font)."""
    return _ASCII_FONT if text.isascii() else "sans-serif"


def _short(label: str, limit: int = 24) -> str:
    """An ID as the chart shows it: at most ``limit`` characters, an ellipsis marking a cut."""
    return label if len(label) <= limit else label[: limit - 1] + "…"


class _Chart:
    """One matplotlib Figure (not registered with pyplot), redrawn in place and rendered to PNG.

    Left: stacked bars of each list's share of the fused score for the top :data:`TOP_DRAWN` items
    at the current k. Right: the fused score of the :func:`drawn_items` divided by the leader's,
    against k, with a vertical line at the current k and dotted lines where the lead changes. Each
    item keeps its colour (:func:`item_colours`); items whose curves coincide at every k (the same
    ranks) are drawn dashed over each other and named together. All text is plain (no mathtext:
    ``$x$`` in an ID draws as typed). A change of k only moves artists; a change of lists or window
    rebuilds them.
    """

    def __init__(self, width: float = 10.0, height: float = 3.4, dpi: int = 80) -> None:
        from ragmath.lab.notebook.plotting import use_cjk_font

        use_cjk_font()
        self.figure = Figure(figsize=(width, height), dpi=dpi)
        FigureCanvasAgg(self.figure)
        self.ax_bars, self.ax_curves = self.figure.subplots(1, 2, width_ratios=[1, 1.1])
        self._key: tuple | None = None
        self._bars: dict[str, Any] = {}
        self._labels: list[Any] = []
        self._names: list[Any] = []
        self._vline: Any = None
        self._dots: Any = None
        self._relative: pd.DataFrame | None = None
        self._background: Any = None
        self._legends: list[Any] = []
        self._note: Any = None
        self._colours: dict[str, str] = {}
        self.drawn: list[Any] = []
        self.draw_count = 0

    def _rebuild(
        self,
        lists: Mapping[str, Sequence[str]],
        window: int | None,
        curves: pd.DataFrame,
        names: list[str],
        changes: list[LeadChange],
    ) -> None:
        ax, axc = self.ax_bars, self.ax_curves
        if self._key is not None:  # new axes are clear already (clearing them costs 15 ms per kernel)
            ax.clear()
            axc.clear()
        for artist in [*self._legends, self._note]:
            if artist is not None:
                artist.remove()
        self._legends, self._note = [], None
        self._colours = item_colours(lists)
        total = curves.shape[1]
        rows = min(total, TOP_DRAWN)
        self.figure.set_size_inches(10.0, max(3.4, 1.3 + 0.24 * rows))
        shades = [LIST_SHADES[j % len(LIST_SHADES)] for j in range(len(names))]
        self._bars = {
            name: ax.barh(range(rows), [0.0] * rows, color=shades[j], edgecolor="white", label=name)
            for j, name in enumerate(names)
        }
        # Numbers redrawn on every move of k: DejaVu Sans lays them out faster than the CJK font.
        self._labels = [
            ax.text(0, i, "", va="center", fontsize=8, parse_math=False, fontfamily=_ASCII_FONT)
            for i in range(rows)
        ]
        # Item names as plain text artists beside the axis: cheaper to relabel on every move of k
        # than tick labels, which matplotlib rebuilds.
        ax.set_yticks(range(rows), [""] * rows)
        names_at = blended_transform_factory(ax.transAxes, ax.transData)
        self._names = [
            ax.text(-0.015, i, "", transform=names_at, ha="right", va="center", fontsize=10,
                    parse_math=False)
            for i in range(rows)
        ]
        ax.set_ylim(rows - 0.5, -0.5)
        ax.set_xlabel(message("explorer.chart.bars_xlabel"))
        # No x ticks: each bar carries its value, and ticks would be laid out anew for every k.
        ax.set_xticks([])
        self.drawn = drawn_items(lists, curves.index, window)
        relative = curves[self.drawn].div(curves.max(axis=1), axis=0)
        self._relative = relative
        # Items with the same ranks have the same curve at every k: draw later ones dashed on top.
        first_with: dict[tuple, str] = {}
        rank_cols = [f"rank[{n}]" for n in names]
        table = fused_table(lists, k=60, window=window).set_index("id")
        handles, labels = [], []
        for item in self.drawn:
            signature = tuple(sorted(table.loc[item, rank_cols].fillna(math.inf).tolist()))
            twin = first_with.setdefault(signature, item)
            style = "-" if twin == item else (0, (4, 4))
            (line,) = axc.plot(relative.index, relative[item], color=self._colours[str(item)],
                               linestyle=style, linewidth=1.8)
            handles.append(line)
            shown = _short(str(item))
            labels.append(shown if twin == item else f"{shown} (= {_short(str(twin))})")
        axc.set_xscale("log")
        axc.set_xlim(relative.index.min(), relative.index.max())
        ticks = [t for t in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000) if t in relative.index]
        axc.set_xticks(ticks, [str(t) for t in ticks])
        axc.minorticks_off()
        low = float(relative.to_numpy().min()) if len(self.drawn) else 0.0
        axc.set_ylim(max(0.0, low - 0.05), 1.04)
        axc.set_xlabel(message("explorer.chart.curves_xlabel"))
        axc.set_ylabel(message("explorer.chart.curves_ylabel"))
        for c in changes:
            axc.axvline(c.k, color="grey", linestyle=":", linewidth=1)
        self._vline = axc.axvline(relative.index.min(), color="black", linewidth=1)
        self._dots = axc.scatter([0] * len(self.drawn), [1.0] * len(self.drawn), s=14, color="black",
                                 zorder=3)
        axc.set_title(message("explorer.chart.curves_title"), fontsize=10)
        # The title sits above the lists' legend (pad in points), both above the bars.
        ax.set_title(message("explorer.chart.bars_title", k="000"), fontsize=10, loc="left", pad=16)
        # A fixed layout (no layout engine, which would lay out again on every draw): the left
        # margin grows with the longest ID shown, the right one holds the items' legend.
        longest = max([len(_short(str(i))) for i in curves.columns] + [3])
        left = min(0.3, 0.03 + 0.0085 * longest)
        longest_label = max([len(label) for label in labels] + [4])
        right = 1 - min(0.3, 0.05 + 0.0085 * longest_label)
        height_px = self.figure.get_size_inches()[1] * self.figure.dpi
        top = 1 - 48 / height_px  # room for the title and the lists' legend
        bottom = (40 + (18 if total > TOP_DRAWN else 0)) / height_px  # the x labels (and the note)
        self.figure.subplots_adjust(left=left, right=right, bottom=bottom, top=top, wspace=0.22)
        items_legend = axc.legend(handles, labels, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                                  borderaxespad=0, title=message("explorer.chart.items"),
                                  title_fontsize=8)
        box = ax.get_position()
        lists_legend = self.figure.legend(
            [bars[0] for bars in self._bars.values()] if rows else [],
            names,
            loc="lower left",
            bbox_to_anchor=(box.x0, box.y1),
            ncol=len(names),
            fontsize=8,
            frameon=False,
            borderaxespad=0.2,
        )
        self._legends = [lists_legend]
        for legend in (items_legend, lists_legend):
            for text in legend.get_texts():
                text.set_parse_math(False)
        if total > TOP_DRAWN:
            self._note = self.figure.text(
                0.01, 0.01,
                message("explorer.chart.drawn", top=TOP_DRAWN, total=total),
                fontsize=9, color="#444444", parse_math=False,
            )
        # Keep a picture of everything that does not depend on k (the right panel without its
        # marker); each move of k restores it and draws only the left panel and the marker.
        moving = [ax, self._vline, self._dots]
        for artist in moving:
            artist.set_visible(False)
        self.figure.canvas.draw()
        self._background = self.figure.canvas.copy_from_bbox(self.figure.bbox)
        for artist in moving:
            artist.set_visible(True)

    def draw(
        self,
        lists: Mapping[str, Sequence[str]],
        window: int | None,
        table: pd.DataFrame,
        k: int,
        curves: pd.DataFrame,
        changes: list[LeadChange],
        key: tuple,
    ) -> bytes:
        """Update the figure for this k (rebuilding it when ``key`` changed) and return PNG bytes."""
        names = [c[len("rank[") : -1] for c in table.columns if c.startswith("rank[")]
        if key != self._key:
            self._rebuild(lists, window, curves, names, changes)
            self._key = key
        ax = self.ax_bars
        top = table.head(TOP_DRAWN)
        items = [str(i) for i in top["id"]]
        tied = tie_places(table, k)[1][: len(items)]
        lefts = [0.0] * len(items)
        for name in names:
            contribs = top[f"contrib[{name}]"].astype(float).tolist()
            for i, patch in enumerate(self._bars[name]):
                patch.set_x(lefts[i])
                patch.set_width(contribs[i])
                lefts[i] += contribs[i]
        highest = max(lefts) if lefts else 1.0
        tied_word = message("explorer.chart.tied")
        for i, label in enumerate(self._labels):
            label.set_position((lefts[i] + highest * 0.01, i))
            text = f"{lefts[i]:.4f}" + (tied_word if tied[i] else "")
            label.set_text(text)
            label.set_fontfamily(_font_for(text))
        for name_text, item in zip(self._names, items, strict=True):
            name_text.set_text(_short(item))
            name_text.set_fontfamily(_font_for(item))
            name_text.set_color(self._colours.get(item, "black"))
        ax.set_xlim(0, highest * 1.3 if highest > 0 else 1.0)
        title = message("explorer.chart.bars_title", k=k)
        ax.set_title(title, fontsize=10, loc="left", fontfamily=_font_for(title), pad=16)
        self._vline.set_xdata([k, k])
        relative = self._relative
        if relative is not None and k in relative.index:
            ys = relative.loc[k].tolist()
            self._dots.set_offsets([(k, y) for y in ys])
        canvas = self.figure.canvas
        canvas.restore_region(self._background)
        renderer = canvas.get_renderer()
        ax.draw(renderer)
        self.ax_curves.draw_artist(self._vline)
        self.ax_curves.draw_artist(self._dots)
        self.draw_count += 1
        return self.png()

    def png(self) -> bytes:
        """The canvas as it was last drawn, encoded as PNG (fast, lightly compressed)."""
        from PIL import Image

        canvas = self.figure.canvas
        width, height = canvas.get_width_height(physical=True)
        picture = Image.frombuffer("RGBA", (width, height), canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
        buffer = io.BytesIO()
        picture.save(buffer, format="PNG", compress_level=1)
        return buffer.getvalue()


# -------------------------------------------------------------------------------------- builder
def _window_options(lists: Mapping[str, Sequence[str]], window: int | None) -> list[tuple[str, int]]:
    """The window control's choices: all, top 1…20, then round sizes up to the longest list."""
    longest = max(len(v) for v in lists.values())
    sizes = set(range(1, WINDOW_MAX + 1))
    sizes |= {n for n in (25, 30, 40, 50, 75, 100, 150, 200, 300, 500, 1000) if n < longest}
    if window is not None:
        sizes.add(window)
    return [(message("explorer.control.all"), 0)] + [
        (message("explorer.control.top", n=n), n) for n in sorted(sizes)]


def _space_note(lists: Mapping[str, Sequence[str]]) -> str:
    """A note (not an error) when an ID contains a space: IDs are separated by commas only."""
    for name, ranking in lists.items():
        for item in ranking:
            if any(ch.isspace() for ch in item):
                note = message("explorer.note.space", name=html.escape(repr(name)),
                               item=html.escape(repr(item)))
                return f'<div class="rrf-note" style="color:#555">{note}</div>'
    return ""


class Explorer:
    """The widgets of the k explorer and the state they show; build it with :func:`build_explorer`.

    Attributes: ``k_slider`` (IntSlider), ``window`` (Dropdown; 0 = all), ``texts`` (name -> Text,
    one per input list), ``message`` (HTML: input errors), ``leader_html`` (HTML: who leads and
    where the lead changes), ``table_html`` (HTML: the fused table, with ``data-k``; also reachable
    as ``table_out``), ``image`` (Image: the chart, hidden while the input has an error),
    ``figure`` (the one matplotlib Figure), ``widget`` (the container to display), and after each
    :meth:`update`: ``lists``, ``table`` (the rrf DataFrame), ``error`` (message or None).
    """

    def __init__(self, lists: Mapping[str, Sequence[str]], k: int, window: int | None) -> None:
        import ipywidgets as w

        self._chart = _Chart()
        self.figure = self._chart.figure
        self.k_slider = w.IntSlider(
            value=k,
            min=K_MIN,
            max=K_MAX,
            step=1,
            description="k",
            continuous_update=False,
            layout=w.Layout(width="520px"),
        )
        self.window = w.Dropdown(
            options=_window_options(lists, window),
            value=0 if window is None else window,
            description=message("explorer.control.window"),
            layout=w.Layout(width="180px"),
        )
        self.texts = {
            name: w.Text(
                value=format_list(ranking),
                description=name,
                continuous_update=False,
                placeholder=message("explorer.control.placeholder"),
                layout=w.Layout(width="520px"),
            )
            for name, ranking in lists.items()
        }
        self.message = w.HTML(value="")
        self.leader_html = w.HTML(value="")
        self.table_html = w.HTML(value="")
        self.image = w.Image(format="png", layout=w.Layout(width="800px"))
        help_text = w.HTML(f"<small>{message('explorer.help', max_ids=MAX_IDS, top=TOP_DRAWN)}</small>")
        self.widget = w.VBox(
            [
                w.HBox([self.k_slider, self.window]),
                *self.texts.values(),
                help_text,
                self.message,
                self.leader_html,
                self.table_html,
                self.image,
            ]
        )
        self.lists: dict[str, list[str]] = {}
        self.table: pd.DataFrame | None = None
        self.error: str | None = None
        self._cache_key: tuple | None = None
        self._curves: pd.DataFrame | None = None
        self._changes: list[LeadChange] = []
        self._leaders: pd.DataFrame | None = None
        self.k_slider.observe(self._on_change, names="value")
        self.window.observe(self._on_change, names="value")
        for text in self.texts.values():
            text.observe(self._on_change, names="value")
        self.update()

    def _on_change(self, _change: Any) -> None:
        self.update()

    @property
    def table_out(self) -> Any:
        """The HTML widget holding the fused table (the same object as ``table_html``)."""
        return self.table_html

    @property
    def window_value(self) -> int | None:
        """The window the control selects: None for all, else n."""
        return self.window.value or None

    def update(self) -> None:
        """Recompute the fused table, the lead line and the chart for the controls' values."""
        k = int(self.k_slider.value)
        window = self.window_value
        try:
            lists = parse_lists({name: t.value for name, t in self.texts.items()})
            check_size(lists)
            key = (tuple((n, tuple(v)) for n, v in lists.items()), window)
            if key != self._cache_key:
                ks = range(self.k_slider.min, self.k_slider.max + 1)
                self._curves = score_curves(lists, ks, window)
                self._leaders = leader_by_k(lists, ks, window)
                self._changes = _changes_from(self._leaders)
                self._cache_key = key
            table = fused_table(lists, k=k, window=window)
        except (TypeError, ValueError) as exc:
            self.error = str(exc)
            self.table = None
            self.message.value = (
                f'<div class="rrf-error" style="color:#b00020">⚠ {html.escape(str(exc))}</div>'
            )
            self.table_html.value = (
                f'<div class="rrf-table" data-k="{k}" data-error="1">'
                f"<i>{message('explorer.error.fix_input')}</i></div>"
            )
            self.leader_html.value = ""
            self.image.layout.visibility = "hidden"  # the last chart would be stale
            return
        self.error = None
        self.lists = lists
        self.table = table
        self.message.value = _space_note(lists)
        self.leader_html.value = f"<p class='rrf-leader'>{html.escape(self._lead_sentence(k))}</p>"
        self.table_html.value = render_table_html(table, k, window)
        self.image.value = self._chart.draw(
            lists, window, table, k, self._curves, self._changes, self._cache_key
        )
        self.image.layout.visibility = "visible"

    def _lead_sentence(self, k: int) -> str:
        """The lead line from the cached scan (same wording as :func:`describe_lead`)."""
        leaders = self._leaders
        row = leaders.loc[leaders["k"] == k].iloc[0]
        return _lead_text(row, k, self._changes, int(leaders["k"].min()), int(leaders["k"].max()))

    def _ipython_display_(self) -> None:  # pragma: no cover - exercised in notebooks
        from IPython.display import display

        display(self.widget)


def build_explorer(
    lists: Mapping[str, Sequence[str]] | Sequence[Sequence[str]] = ARTICLE_LISTS,
    k: int = 60,
    window: int | None = None,
) -> Explorer:
    """Build the RRF k explorer for ``lists`` (default: the article's BM25 and vector lists).

    Returns an :class:`Explorer`; display ``explorer.widget`` (or the explorer itself). Raises
    ``ValueError`` if ``k`` is outside 1..200, ``window`` is not None or 1..n, a list is empty or
    repeats an ID, an ID contains a comma, or the lists name more than :data:`MAX_IDS` IDs. The
    inputs are copied, never modified.

    >>> ex = build_explorer(k=1)
    >>> ex.table["rrf_score"].round(4).tolist()
    [0.75, 0.6667, 0.5, 0.25]
    >>> ex.k_slider.value = 60
    >>> ex.table["id"].tolist()[:2], 'data-k="60"' in ex.table_html.value
    (['4.2', '6.1'], True)
    """
    named = named_lists(lists)
    try:  # the one check of k and of the window, then the slider's and the menu's ranges
        check_rrf_k(k)
        if not (isinstance(k, int) and K_MIN <= k <= K_MAX):
            raise ValueError("outside the slider")
    except (TypeError, ValueError):
        raise ValueError(message("explorer.error.bad_k", k_min=K_MIN, k_max=K_MAX, value=k)) from None
    longest = max([len(v) for v in named.values()] + [WINDOW_MAX])
    try:
        if check_window(window) is not None and window > longest:
            raise ValueError("longer than every list")
    except (TypeError, ValueError):
        raise ValueError(message("explorer.error.bad_window", longest=longest, value=window)) from None
    for name, ranking in named.items():
        for item in ranking:
            if _SEPARATORS.search(str(item)) or str(item) != str(item).strip():
                raise ValueError(message("explorer.error.unshowable_id", name=name, item=item))
        parse_list(format_list(ranking), name=name)  # same checks as typed input
    check_size(named)
    return Explorer(named, k, window)
