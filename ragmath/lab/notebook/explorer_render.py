"""What the RRF k explorer shows: the fused table as HTML and the chart. Used by notebook 05, rrf_explorer.

``render_table_html`` writes the table (``data-k`` for the browser tests); ``ExplorerChart`` is the
one matplotlib figure (never registered with pyplot), redrawn in place for each k and encoded to
PNG bytes for the builder's ``ipywidgets.Image`` (``widgets.py``).
"""

from __future__ import annotations

import html
import io
import math
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.transforms import blended_transform_factory

from ragmath.lab.messages import message
from ragmath.lab.notebook.explorer_scan import (
    TOP_DRAWN,
    LeadChange,
    drawn_items,
    fmt_margin,
    fused_table,
    tie_places,
)
from ragmath.lab.notebook.plotting import item_colours

# The lists' shares in the stacked bars: greys, so they are never mistaken for an item's colour.
LIST_SHADES: tuple[str, ...] = ("#4d4d4d", "#a6a6a6", "#7a7a7a", "#cfcfcf", "#262626", "#e5e5e5")


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
    head = "".join(f"<th>{html.escape(message('explorer.table.rank', name=n))}</th>"
                   f"<th>{html.escape(message('explorer.table.contribution', name=n))}</th>" for n in names)
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
            cells.append(f"<td>{fmt_margin(scores[pos] - scores[pos + 1])}</td>")
        else:
            cells.append("<td></td>")
        rows.append(f'<tr data-id="{html.escape(item, quote=True)}">' + "".join(cells) + "</tr>")
    style = f"<style>.rrf-table td,.rrf-table th{{{cell}}}</style>"
    scroll = ' style="max-height:420px;overflow-y:auto"' if len(rows) > 25 else ""
    return (f'{style}<div class="rrf-table" data-k="{k}" data-window="{win}"{scroll}>'
            f"<table><thead><tr><th>{message('explorer.table.place')}</th><th>ID</th>{head}"
            f"<th>{message('explorer.table.score')}</th><th>{message('explorer.table.gap')}</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>")


_ASCII_FONT = "DejaVu Sans"


def _font_for(text: str) -> str:
    """DejaVu Sans for ASCII text (laid out faster), else the default family (with the CJK font)."""
    return _ASCII_FONT if text.isascii() else "sans-serif"


def _short(label: str, limit: int = 24) -> str:
    """An ID as the chart shows it: at most ``limit`` characters, an ellipsis marking a cut."""
    return label if len(label) <= limit else label[: limit - 1] + "…"


class ExplorerChart:
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

    def _rebuild(self, lists: Mapping[str, Sequence[str]], window: int | None, curves: pd.DataFrame,
                 names: list[str], changes: list[LeadChange]) -> None:
        """Build every artist anew for new lists or window, then keep the background that k never moves."""
        self._clear()
        self._colours = item_colours(lists)
        total = curves.shape[1]
        rows = min(total, TOP_DRAWN)
        self.figure.set_size_inches(10.0, max(3.4, 1.3 + 0.24 * rows))
        self._build_bars(names, rows)
        handles, labels = self._plot_curves(lists, window, curves, names)
        self._style_curves(changes)
        self._fix_layout(curves, labels, total)
        self._add_legends(handles, labels, names, rows)
        self._add_note(total)
        self._keep_background()

    def _clear(self) -> None:
        """Empty both panels and remove the figure's legends and note from the last build."""
        if self._key is not None:  # new axes are clear already (clearing them costs 15 ms per kernel)
            self.ax_bars.clear()
            self.ax_curves.clear()
        for artist in [*self._legends, self._note]:
            if artist is not None:
                artist.remove()
        self._legends, self._note = [], None

    def _build_bars(self, names: list[str], rows: int) -> None:
        """The left panel's empty bars, value labels and item names, which each move of k fills in."""
        ax = self.ax_bars
        shades = [LIST_SHADES[j % len(LIST_SHADES)] for j in range(len(names))]
        self._bars = {name: ax.barh(range(rows), [0.0] * rows, color=shades[j], edgecolor="white", label=name)
                      for j, name in enumerate(names)}
        # Numbers redrawn on every move of k: DejaVu Sans lays them out faster than the CJK font.
        self._labels = [ax.text(0, i, "", va="center", fontsize=8, parse_math=False, fontfamily=_ASCII_FONT)
                        for i in range(rows)]
        # Item names as plain text artists beside the axis: cheaper to relabel on every move of k
        # than tick labels, which matplotlib rebuilds.
        ax.set_yticks(range(rows), [""] * rows)
        names_at = blended_transform_factory(ax.transAxes, ax.transData)
        self._names = [ax.text(-0.015, i, "", transform=names_at, ha="right", va="center", fontsize=10,
                               parse_math=False) for i in range(rows)]
        ax.set_ylim(rows - 0.5, -0.5)
        ax.set_xlabel(message("explorer.chart.bars_xlabel"))
        # No x ticks: each bar carries its value, and ticks would be laid out anew for every k.
        ax.set_xticks([])

    def _plot_curves(self, lists: Mapping[str, Sequence[str]], window: int | None, curves: pd.DataFrame,
                     names: list[str]) -> tuple[list[Any], list[str]]:
        """Plot each drawn item's score relative to the leader's against k; return legend handles, labels."""
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
            (line,) = self.ax_curves.plot(relative.index, relative[item], color=self._colours[str(item)],
                                          linestyle=style, linewidth=1.8)
            handles.append(line)
            shown = _short(str(item))
            labels.append(shown if twin == item else f"{shown} (= {_short(str(twin))})")
        return handles, labels

    def _style_curves(self, changes: list[LeadChange]) -> None:
        """The right panel's scales, ticks and labels, the lead changes, the k marker; both titles."""
        axc, relative = self.ax_curves, self._relative
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
        self.ax_bars.set_title(message("explorer.chart.bars_title", k="000"), fontsize=10, loc="left", pad=16)

    def _fix_layout(self, curves: pd.DataFrame, labels: list[str], total: int) -> None:
        """Set the figure's margins from the longest ID and legend label, and room for title and note."""
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

    def _add_legends(self, handles: list[Any], labels: list[str], names: list[str], rows: int) -> None:
        """The items' legend right of the curves and the lists' legend above the bars, in plain text."""
        items_legend = self.ax_curves.legend(handles, labels, fontsize=8, loc="upper left",
                                             bbox_to_anchor=(1.01, 1.0), borderaxespad=0,
                                             title=message("explorer.chart.items"), title_fontsize=8)
        box = self.ax_bars.get_position()
        lists_legend = self.figure.legend([bars[0] for bars in self._bars.values()] if rows else [], names,
                                          loc="lower left", bbox_to_anchor=(box.x0, box.y1), ncol=len(names),
                                          fontsize=8, frameon=False, borderaxespad=0.2)
        self._legends = [lists_legend]
        for legend in (items_legend, lists_legend):
            for text in legend.get_texts():
                text.set_parse_math(False)

    def _add_note(self, total: int) -> None:
        """Under the chart, when it draws only the top items: how many of how many."""
        if total > TOP_DRAWN:
            note = message("explorer.chart.drawn", top=TOP_DRAWN, total=total)
            self._note = self.figure.text(0.01, 0.01, note, fontsize=9, color="#444444", parse_math=False)

    def _keep_background(self) -> None:
        """Draw the figure without what k moves and keep that picture for each move of k to restore."""
        # Keep a picture of everything that does not depend on k (the right panel without its
        # marker); each move of k restores it and draws only the left panel and the marker.
        moving = [self.ax_bars, self._vline, self._dots]
        for artist in moving:
            artist.set_visible(False)
        self.figure.canvas.draw()
        self._background = self.figure.canvas.copy_from_bbox(self.figure.bbox)
        for artist in moving:
            artist.set_visible(True)

    def draw(self, lists: Mapping[str, Sequence[str]], window: int | None, table: pd.DataFrame, k: int,
             curves: pd.DataFrame, changes: list[LeadChange], key: tuple) -> bytes:
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
        if self._relative is not None and k in self._relative.index:
            self._dots.set_offsets([(k, y) for y in self._relative.loc[k].tolist()])
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
