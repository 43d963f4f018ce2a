"""The RRF k explorer: plain, testable functions plus an ipywidgets builder.

Everything the explorer shows is computed by :func:`ragmath.rrf`; the functions here only parse
input, arrange :func:`ragmath.rrf` results for display and draw them. The builder renders one
matplotlib figure (never registered with pyplot) to PNG bytes in an ``ipywidgets.Image``, so each
move of the k slider updates the same figure in place, in JupyterLab and in Voila alike.

Lead rule: at a given k the *leader* is the first row of ``rrf(lists, k, window)``, so ties in the
fused score go to the smaller ID (compared as strings), exactly as in :func:`ragmath.rrf`.
"""

from __future__ import annotations

import html
import io
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.transforms import blended_transform_factory

from ragmath.fusion import rrf

__all__ = [
    "ARTICLE_LISTS",
    "K_MAX",
    "K_MIN",
    "Explorer",
    "LeadChange",
    "build_explorer",
    "describe_lead",
    "format_list",
    "fused_table",
    "lead_changes",
    "leader_by_k",
    "parse_list",
    "parse_lists",
    "render_table_html",
    "score_curves",
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

# IDs are separated by commas (ASCII or full-width), semicolons, the Chinese enumeration comma,
# or whitespace. IDs themselves therefore contain none of these characters.
_SEPARATORS = re.compile(r"[,\s，;；、]+")


# --------------------------------------------------------------------------------------- parsing
def parse_list(text: str, name: str = "list") -> list[str]:
    """Parse one ranked list typed as text ("4.2, 6.1, 3.5") into a list of IDs, best first.

    IDs are separated by commas, semicolons or whitespace. Raises ``TypeError`` if ``text`` is not
    a string, ``ValueError`` if the list is empty or names an ID twice (the message names the list,
    the ID and both positions).

    >>> parse_list("4.2, 6.1,3.5")
    ['4.2', '6.1', '3.5']
    >>> parse_list("4.2, 6.1, 4.2", name="BM25")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: list 'BM25': ID '4.2' appears twice (positions 1 and 3); ... remove one of them
    """
    if not isinstance(text, str):
        raise TypeError(
            f"list {name!r}: expected text such as '4.2, 6.1, 3.5', got {type(text).__name__} "
            f"{text!r}; pass the IDs as one comma-separated string"
        )
    ids = [part for part in _SEPARATORS.split(text.strip()) if part]
    if not ids:
        raise ValueError(
            f"list {name!r} is empty: type at least one ID, best first, e.g. '4.2, 6.1, 3.5'"
        )
    first_seen: dict[str, int] = {}
    for position, item in enumerate(ids, start=1):
        if item in first_seen:
            raise ValueError(
                f"list {name!r}: ID {item!r} appears twice (positions {first_seen[item]} and "
                f"{position}); a ranked list names each ID once, so remove one of them"
            )
        first_seen[item] = position
    return ids


def parse_lists(texts: Mapping[str, str]) -> dict[str, list[str]]:
    """Parse several named text lists (name -> "4.2, 6.1") with :func:`parse_list`.

    Raises ``ValueError`` if there are no lists, or as :func:`parse_list` for the first bad one.

    >>> parse_lists({"BM25": "4.2 6.1", "vector": "5.3, 6.1"})
    {'BM25': ['4.2', '6.1'], 'vector': ['5.3', '6.1']}
    """
    if not isinstance(texts, Mapping):
        raise TypeError(
            f"texts: expected a mapping list name -> text, got {type(texts).__name__}; "
            "pass e.g. {'BM25': '4.2, 6.1'}"
        )
    if not texts:
        raise ValueError("texts is empty: give at least one list, e.g. {'BM25': '4.2, 6.1'}")
    return {str(name): parse_list(text, name=str(name)) for name, text in texts.items()}


def format_list(ids: Iterable[str]) -> str:
    """Write a ranked list as the text :func:`parse_list` reads back.

    >>> format_list(["4.2", "6.1", "3.5"])
    '4.2, 6.1, 3.5'
    """
    return ", ".join(str(i) for i in ids)


def _named_lists(lists: Mapping[str, Sequence[str]] | Sequence[Sequence[str]]) -> dict[str, list]:
    """Return lists as a name -> list dict, naming unnamed lists L1, L2, ... as rrf does."""
    if isinstance(lists, Mapping):
        return {str(name): list(ranking) for name, ranking in lists.items()}
    if isinstance(lists, (str, bytes)) or not isinstance(lists, Sequence):
        raise TypeError(
            f"lists: expected a mapping name -> ranked IDs or a list of ranked lists, got "
            f"{type(lists).__name__}; pass e.g. {{'BM25': ['4.2', '6.1']}}"
        )
    return {f"L{i}": list(ranking) for i, ranking in enumerate(lists, start=1)}


def _check_ks(ks: Iterable[int]) -> list[int]:
    """Return the k values sorted and unique; raise if one is not an integer >= 1 or none given."""
    if isinstance(ks, (str, bytes)) or not isinstance(ks, Iterable):
        raise TypeError(f"ks must be an iterable of integers, got {ks!r}; use e.g. range(1, 201)")
    values = list(ks)
    if not values:
        raise ValueError("ks is empty: give the k values to scan, e.g. range(1, 201)")
    for k in values:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"ks: every k must be an integer >= 1, got {k!r}; use e.g. range(1, 201)")
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
    return rrf(_named_lists(lists), k=k, window=window)


def _rank_matrix(
    lists: Mapping[str, Sequence[str]] | Sequence[Sequence[str]], window: int | None
) -> tuple[list[Any], list[str], list[list[int | None]]]:
    """Ask rrf for every item's rank in every list; return (item IDs, list names, ranks).

    Items are sorted by ID as strings, which is rrf's tie order. Absent ranks are None.
    """
    table = fused_table(lists, k=60, window=window)
    names = [c[len("rank[") : -1] for c in table.columns if c.startswith("rank[")]
    rows = []
    for pos in range(len(table)):
        ranks = [table[f"rank[{n}]"].iloc[pos] for n in names]
        ranks = [None if pd.isna(r) else int(r) for r in ranks]
        if any(r is not None for r in ranks):  # items past the window add nothing: leave them out
            rows.append((table["id"].iloc[pos], ranks))
    rows.sort(key=lambda pair: str(pair[0]))
    return [r[0] for r in rows], names, [r[1] for r in rows]


def _scores_at(ranks: list[list[int | None]], k: int) -> list[Fraction]:
    """Exact fused scores Σ 1/(k + rank), as rrf computes them (None ranks add nothing)."""
    return [sum((Fraction(1, k + r) for r in row if r is not None), Fraction(0)) for row in ranks]


def score_curves(
    lists: Mapping[str, Sequence[str]] | Sequence[Sequence[str]],
    ks: Iterable[int] = range(K_MIN, K_MAX + 1),
    window: int | None = None,
) -> pd.DataFrame:
    """Fused RRF score of every item at every k: index ``k`` (sorted), one column per item ID.

    The ranks come from :func:`ragmath.rrf`; the score at each k is Σ 1/(k + rank) over the lists
    that contain the item, summed exactly as :func:`ragmath.rrf` does, then given as a float.
    Columns are sorted by ID (as strings).
    Raises ``ValueError`` for an empty ``ks`` or a k that is not an integer >= 1.

    >>> c = score_curves({"BM25": ["4.2", "6.1", "3.5"], "vector": ["5.3", "6.1", "4.2"]}, [1, 60])
    >>> c.round(4).loc[1].to_dict()
    {'3.5': 0.25, '4.2': 0.75, '5.3': 0.5, '6.1': 0.6667}
    """
    ks_sorted = _check_ks(ks)
    items, _names, ranks = _rank_matrix(lists, window)
    data = [[float(x) for x in _scores_at(ranks, k)] for k in ks_sorted]
    frame = pd.DataFrame(data, index=pd.Index(ks_sorted, name="k"), columns=items)
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
    by the rrf rule: smaller ID first). Scores are compared exactly (as fractions), like
    :func:`ragmath.rrf`, so the leader at k is ``rrf(lists, k, window)``'s first row.
    Raises ``ValueError`` for an empty ``ks``, a bad k, or bad lists (as :func:`ragmath.rrf`).

    >>> lists = {"BM25": ["4.2", "6.1", "3.5"], "vector": ["5.3", "6.1", "4.2"]}
    >>> leader_by_k(lists, [1, 60])[["k", "leader", "runner_up"]].values.tolist()
    [[1, '4.2', '6.1'], [60, '4.2', '6.1']]
    """
    ks_sorted = _check_ks(ks)
    items, _names, ranks = _rank_matrix(lists, window)
    rows: list[dict[str, Any]] = []
    for k in ks_sorted:
        scores = _scores_at(ranks, k)
        # items are in ID order, so a stable sort by exact score descending keeps rrf's tie rule.
        order = sorted(range(len(items)), key=lambda i: -scores[i])
        best = order[0]
        second = order[1] if len(order) > 1 else None
        exact_margin = scores[best] - scores[second] if second is not None else None
        rows.append(
            {
                "k": k,
                "leader": items[best],
                "score": float(scores[best]),
                "runner_up": items[second] if second is not None else None,
                "margin": float(exact_margin) if exact_margin is not None else math.inf,
                "tied": exact_margin == 0,
            }
        )
    return pd.DataFrame(rows, columns=["k", "leader", "score", "runner_up", "margin", "tied"])


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
    if row["runner_up"] is None:
        now = f"At k = {k}, {row['leader']} is the only item ({row['score']:.4f})."
    elif row["tied"]:
        now = (
            f"At k = {k}, {row['leader']} and {row['runner_up']} tie at {row['score']:.4f}; "
            f"{row['leader']} is listed first (smaller ID)."
        )
    else:
        now = (
            f"At k = {k}, {row['leader']} leads with {row['score']:.4f} "
            f"({_fmt_margin(row['margin'])} ahead of {row['runner_up']})."
        )
    span = f"k = {k_lo}…{k_hi}"
    if not changes:
        return f"{now} Over {span} the lead never changes."
    parts = ", ".join(f"k = {c.k} ({c.previous} → {c.leader})" for c in changes)
    return f"{now} Over {span} the lead changes at {parts}."


def _fmt_margin(margin: float) -> str:
    """Write a score gap with enough decimals to show its first significant digit."""
    if margin == 0 or not math.isfinite(margin):
        return f"{margin:.4f}"
    decimals = max(4, -math.floor(math.log10(abs(margin))) + 1)
    return f"{margin:.{decimals}f}"


# ------------------------------------------------------------------------------------ rendering
def render_table_html(table: pd.DataFrame, k: int, window: int | None = None) -> str:
    """The fused table as HTML: rank, ID, each list's rank and contribution 1/(k + rank), score.

    The outer ``div`` carries ``data-k`` and ``data-window`` attributes so a browser test can wait
    for the render of a given k. Contributions and scores show 4 decimals; the last column gives
    each item's lead over the next one, with enough decimals to see it. IDs are HTML-escaped.

    >>> t = fused_table({"BM25": ["4.2"], "vector": ["4.2"]}, k=1)
    >>> 'data-k="1"' in render_table_html(t, k=1) and "1/2 = 0.5000" in render_table_html(t, k=1)
    True
    """
    names = [c[len("rank[") : -1] for c in table.columns if c.startswith("rank[")]
    win = "all" if window is None else str(window)
    head = "".join(
        f"<th>{html.escape(n)} rank</th><th>{html.escape(n)}: 1/(k+rank)</th>" for n in names
    )
    cell = "padding:2px 8px;text-align:right;border-bottom:1px solid #ddd"
    rows = []
    scores = table["rrf_score"].tolist()
    for pos in range(len(table)):
        row = table.iloc[pos]
        cells = [f"<td>{int(row['rrf_rank'])}</td>", f"<td><b>{html.escape(str(row['id']))}</b></td>"]
        for n in names:
            rank = row[f"rank[{n}]"]
            contrib = float(row[f"contrib[{n}]"])
            if pd.isna(rank):
                cells.append("<td>—</td><td>0</td>")
            else:
                cells.append(f"<td>{int(rank)}</td><td>1/{k + int(rank)} = {contrib:.4f}</td>")
        cells.append(f"<td><b>{scores[pos]:.4f}</b></td>")
        if pos + 1 < len(scores):
            cells.append(f"<td>{_fmt_margin(scores[pos] - scores[pos + 1])}</td>")
        else:
            cells.append("<td></td>")
        rows.append(f'<tr data-id="{html.escape(str(row["id"]), quote=True)}">' + "".join(cells) + "</tr>")
    style = f"<style>.rrf-table td,.rrf-table th{{{cell}}}</style>"
    return (
        f'{style}<div class="rrf-table" data-k="{k}" data-window="{win}">'
        f"<table><thead><tr><th>#</th><th>ID</th>{head}<th>RRF score</th>"
        f"<th>ahead of next by</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


class _Chart:
    """One matplotlib Figure (not registered with pyplot), redrawn in place and rendered to PNG.

    Left: stacked bars of each list's contribution per item at the current k. Right: every item's
    fused score divided by the leader's, against k, with a vertical line at the current k and
    dotted lines where the lead changes. A change of k only moves artists; a change of lists or
    window rebuilds them.
    """

    def __init__(self, width: float = 10.0, height: float = 3.4, dpi: int = 80) -> None:
        self.figure = Figure(figsize=(width, height), dpi=dpi)
        FigureCanvasAgg(self.figure)
        self.ax_bars, self.ax_curves = self.figure.subplots(1, 2, width_ratios=[1, 1.25])
        self._key: tuple | None = None
        self._bars: dict[str, Any] = {}
        self._labels: list[Any] = []
        self._names: list[Any] = []
        self._vline: Any = None
        self._dots: Any = None
        self._relative: pd.DataFrame | None = None
        self._background: Any = None
        self._legend: Any = None
        self.draw_count = 0

    def _rebuild(
        self, table: pd.DataFrame, curves: pd.DataFrame, names: list[str], changes: list[LeadChange]
    ) -> None:
        ax, axc = self.ax_bars, self.ax_curves
        ax.clear()
        axc.clear()
        n = curves.shape[1]
        self._bars = {
            name: ax.barh(range(n), [0.0] * n, color=f"C{j}", label=name)
            for j, name in enumerate(names)
        }
        self._labels = [ax.text(0, i, "", va="center", fontsize=8) for i in range(n)]
        # Item names as plain text artists beside the axis: cheaper to relabel on every move of k
        # than tick labels, which matplotlib rebuilds.
        ax.set_yticks(range(n), [""] * n)
        names_at = blended_transform_factory(ax.transAxes, ax.transData)
        self._names = [
            ax.text(-0.015, i, "", transform=names_at, ha="right", va="center", fontsize=10)
            for i in range(n)
        ]
        ax.set_ylim(n - 0.5, -0.5)
        ax.set_xlabel("fused score = Σ 1/(k + rank)")
        # No x ticks: each bar carries its value, and ticks would be laid out anew for every k.
        ax.set_xticks([])
        relative = curves.div(curves.max(axis=1), axis=0)
        self._relative = relative
        for j, item in enumerate(relative.columns):
            axc.plot(relative.index, relative[item], color=f"C{(j + len(names)) % 10}", label=item)
        axc.set_xscale("log")
        axc.set_xlim(relative.index.min(), relative.index.max())
        ticks = [t for t in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000) if t in relative.index]
        axc.set_xticks(ticks, [str(t) for t in ticks])
        axc.minorticks_off()
        low = float(relative.to_numpy().min()) if n else 0.0
        axc.set_ylim(max(0.0, low - 0.05), 1.04)
        axc.set_xlabel("k (log scale)")
        axc.set_ylabel("score ÷ leader's score")
        for c in changes:
            axc.axvline(c.k, color="grey", linestyle=":", linewidth=1)
        self._vline = axc.axvline(relative.index.min(), color="black", linewidth=1)
        self._dots = axc.scatter([0] * n, [1.0] * n, s=14, color="black", zorder=3)
        axc.legend(fontsize=8, ncol=2 if n > 6 else 1, loc="center right")
        axc.set_title("each item relative to the leader (line: current k)", fontsize=10)
        ax.set_title("contributions at k = 000", fontsize=10)
        # A fixed layout (no layout engine, which would lay out again on every draw): the left
        # margin grows with the longest ID shown as a tick label.
        longest = max([len(str(i)) for i in table["id"]] + [3])
        left = min(0.3, 0.03 + 0.0075 * longest)
        self.figure.subplots_adjust(left=left, right=0.985, bottom=0.15, top=0.9, wspace=0.22)
        # The list legend belongs to the static picture: a figure legend over the left panel's
        # lower right corner, visible through the panel (its background patch is not drawn).
        if self._legend is not None:
            self._legend.remove()
        box = ax.get_position()
        self._legend = self.figure.legend(
            [bars[0] for bars in self._bars.values()],
            names,
            loc="lower right",
            bbox_to_anchor=(box.x1, box.y0),
            fontsize=8,
        )
        ax.patch.set_visible(False)
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
        table: pd.DataFrame,
        k: int,
        curves: pd.DataFrame,
        changes: list[LeadChange],
        key: tuple,
    ) -> bytes:
        """Update the figure for this k (rebuilding it when ``key`` changed) and return PNG bytes."""
        names = [c[len("rank[") : -1] for c in table.columns if c.startswith("rank[")]
        if key != self._key:
            self._rebuild(table, curves, names, changes)
            self._key = key
        ax = self.ax_bars
        items = [str(i) for i in table["id"]]
        lefts = [0.0] * len(items)
        for name in names:
            contribs = table[f"contrib[{name}]"].astype(float).tolist()
            for i, patch in enumerate(self._bars[name]):
                patch.set_x(lefts[i])
                patch.set_width(contribs[i])
                lefts[i] += contribs[i]
        top = max(lefts) if lefts else 1.0
        for i, label in enumerate(self._labels):
            label.set_position((lefts[i] + top * 0.01, i))
            label.set_text(f"{lefts[i]:.4f}")
        for name_text, item in zip(self._names, items, strict=True):
            name_text.set_text(item)
        ax.set_xlim(0, top * 1.25 if top > 0 else 1.0)
        ax.set_title(f"contributions at k = {k}", fontsize=10)
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
        longest = max([len(v) for v in lists.values()] + [WINDOW_MAX])
        self.window = w.Dropdown(
            options=[("all", 0)] + [(f"top {n}", n) for n in range(1, longest + 1)],
            value=0 if window is None else window,
            description="window",
            layout=w.Layout(width="180px"),
        )
        self.texts = {
            name: w.Text(
                value=format_list(ranking),
                description=name,
                continuous_update=False,
                placeholder="IDs best first, e.g. 4.2, 6.1, 3.5",
                layout=w.Layout(width="520px"),
            )
            for name, ranking in lists.items()
        }
        self.message = w.HTML(value="")
        self.leader_html = w.HTML(value="")
        self.table_html = w.HTML(value="")
        self.image = w.Image(format="png", layout=w.Layout(width="800px"))
        help_text = w.HTML(
            "<small>Edit a list and press Enter (IDs best first, separated by commas). "
            "Move k with the mouse or the arrow keys; the window keeps each list's top n.</small>"
        )
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
                "<i>Fix the input above to see the fused table.</i></div>"
            )
            self.leader_html.value = ""
            self.image.layout.visibility = "hidden"  # the last chart would be stale
            return
        self.error = None
        self.lists = lists
        self.table = table
        self.message.value = ""
        self.leader_html.value = f"<p class='rrf-leader'>{html.escape(self._lead_sentence(k))}</p>"
        self.table_html.value = render_table_html(table, k, window)
        self.image.value = self._chart.draw(table, k, self._curves, self._changes, self._cache_key)
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
    ``ValueError`` if ``k`` is outside 1..200, ``window`` is not None or 1..n, or a list is empty
    or repeats an ID. The inputs are copied, never modified.

    >>> ex = build_explorer(k=1)
    >>> ex.table["rrf_score"].round(4).tolist()
    [0.75, 0.6667, 0.5, 0.25]
    >>> ex.k_slider.value = 60
    >>> ex.table["id"].tolist()[:2], 'data-k="60"' in ex.table_html.value
    (['4.2', '6.1'], True)
    """
    named = _named_lists(lists)
    if isinstance(k, bool) or not isinstance(k, int) or not K_MIN <= k <= K_MAX:
        raise ValueError(f"k must be an integer from {K_MIN} to {K_MAX}, got {k!r}; e.g. k=60")
    longest = max([len(v) for v in named.values()] + [WINDOW_MAX])
    if window is not None and (
        isinstance(window, bool) or not isinstance(window, int) or not 1 <= window <= longest
    ):
        raise ValueError(
            f"window must be None (all) or an integer from 1 to {longest}, got {window!r}"
        )
    for name, ranking in named.items():
        parse_list(format_list(ranking), name=name)  # same checks as typed input
        for item in ranking:
            if _SEPARATORS.search(str(item)):
                raise ValueError(
                    f"list {name!r}: ID {item!r} contains a separator (comma, semicolon or space), "
                    "which the text box cannot show; rename it"
                )
    return Explorer(named, k, window)
