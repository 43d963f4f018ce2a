"""The RRF k explorer widget (``build_explorer``) and its input. Used by notebook 05 and rrf_explorer.

What the explorer computes is in ``explorer_scan.py`` (all of it by :func:`ragmath.rrf`), what it draws in
``explorer_render.py``; every name is importable from here. The builder draws one matplotlib figure to PNG
bytes in an ``ipywidgets.Image``, updated in place on each move of the k slider. For a classroom, the same
explorer is a static page that computes in the browser: ``explorer/`` (``make explorer``, docs/classroom.md).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd

from ragmath.lab.messages import message
from ragmath.lab.notebook.explorer_render import LIST_SHADES, ExplorerChart, render_table_html
from ragmath.lab.notebook.explorer_scan import (
    K_MAX,
    K_MIN,
    TOP_DRAWN,
    LeadChange,
    Lists,
    changes_from,
    describe_lead,
    drawn_items,
    fused_table,
    lead_changes,
    lead_text,
    leader_by_k,
    score_curves,
    tie_places,
)
from ragmath.lab.notebook.plotting import PALETTE, item_colours
from ragmath.validation import check_rrf_k, check_window, named_lists

__all__ = ["ARTICLE_LISTS", "K_MAX", "K_MIN", "MAX_IDS", "TOP_DRAWN", "Explorer", "LeadChange",
           "build_explorer", "check_size", "describe_lead", "drawn_items", "format_list", "fused_table",
           "PALETTE", "item_colours", "lead_changes", "leader_by_k", "parse_list", "parse_lists",
           "render_table_html", "score_curves", "tie_places", "LIST_SHADES"]

#: The article's worked example: BM25 and vector search results, best first.
ARTICLE_LISTS: dict[str, list[str]] = {"BM25": ["4.2", "6.1", "3.5"], "vector": ["5.3", "6.1", "4.2"]}

#: Largest recall window offered by the window control (``0`` in the control means "all").
WINDOW_MAX: int = 20

# IDs are separated by commas only (ASCII "," or full-width "，"); spaces belong to the ID.
_SEPARATORS = re.compile(r"[,，]")

#: At most this many distinct IDs across the lists: beyond it an edit takes seconds (bench/bench_explorer.py).
MAX_IDS: int = 1000


# --------------------------------------------------------------------------------------- parsing
def parse_list(text: str, name: str = "list") -> list[str]:
    """Parse one ranked list typed as text ("4.2, 6.1, 3.5") into a list of IDs, best first.

    IDs are separated by commas (``,`` or ``，``) only: "doc 1" is one ID; spaces around an ID are trimmed
    and one trailing comma is ignored. Raises ``TypeError`` if ``text`` is not a string, ``ValueError`` if
    the list is empty, has an empty entry between two commas, or names an ID twice (the message names the
    list, the ID and both positions).

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


def check_size(lists: Lists) -> int:
    """Return the number of distinct IDs in ``lists``; raise if it is above :data:`MAX_IDS`.

    The explorer rescans k = 1…200 for every item on each edit: past :data:`MAX_IDS` an edit takes seconds.

    >>> check_size({"BM25": ["4.2", "6.1"], "vector": ["6.1"]})
    2
    """
    distinct = len({item for ranking in named_lists(lists).values() for item in ranking})
    if distinct > MAX_IDS:
        raise ValueError(message("explorer.error.too_many_ids", distinct=distinct, max_ids=MAX_IDS,
                                 k_min=K_MIN, k_max=K_MAX))
    return distinct


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
    where the lead changes), ``table_html`` (HTML: the fused table, with ``data-k``), ``image`` (Image:
    the chart, hidden while the input has an error), ``figure`` (the one matplotlib Figure), ``widget``
    (the container to display), and after each :meth:`update`: ``lists``, ``table`` (the rrf
    DataFrame), ``error`` (message or None).
    """

    def __init__(self, lists: Mapping[str, Sequence[str]], k: int, window: int | None) -> None:
        import ipywidgets as w

        self._chart = ExplorerChart()
        self.figure = self._chart.figure
        self.k_slider = w.IntSlider(value=k, min=K_MIN, max=K_MAX, step=1, description="k",
                                    continuous_update=False, layout=w.Layout(width="520px"))
        self.window = w.Dropdown(options=_window_options(lists, window), value=window if window else 0,
                                 description=message("explorer.control.window"),
                                 layout=w.Layout(width="180px"))
        self.texts = {name: w.Text(value=format_list(ranking), description=name, continuous_update=False,
                                   placeholder=message("explorer.control.placeholder"),
                                   layout=w.Layout(width="520px"))
                      for name, ranking in lists.items()}
        self.message, self.leader_html, self.table_html = w.HTML(value=""), w.HTML(value=""), w.HTML(value="")
        self.image = w.Image(format="png", layout=w.Layout(width="800px"))
        help_text = w.HTML(f"<small>{message('explorer.help', max_ids=MAX_IDS, top=TOP_DRAWN)}</small>")
        self.widget = w.VBox([w.HBox([self.k_slider, self.window]), *self.texts.values(), help_text,
                              self.message, self.leader_html, self.table_html, self.image])
        self.lists: dict[str, list[str]] = {}
        self.table: pd.DataFrame | None = None
        self.error: str | None = None
        self._cache_key: tuple | None = None
        self._curves: pd.DataFrame | None = None
        self._changes: list[LeadChange] = []
        self._leaders: pd.DataFrame | None = None
        for control in (self.k_slider, self.window, *self.texts.values()):
            control.observe(self._on_change, names="value")
        self.update()

    def _on_change(self, _change: Any) -> None:
        self.update()

    def update(self) -> None:
        """Recompute the fused table, the lead line and the chart for the controls' values."""
        k = int(self.k_slider.value)
        window = self.window.value or None  # 0 in the control means all
        try:
            lists = parse_lists({name: t.value for name, t in self.texts.items()})
            check_size(lists)
            key = (tuple((n, tuple(v)) for n, v in lists.items()), window)
            if key != self._cache_key:
                ks = range(self.k_slider.min, self.k_slider.max + 1)
                self._curves = score_curves(lists, ks, window)
                self._leaders = leader_by_k(lists, ks, window)
                self._changes = changes_from(self._leaders)
                self._cache_key = key
            table = fused_table(lists, k=k, window=window)
        except (TypeError, ValueError) as exc:
            self.error, self.table = str(exc), None
            self.message.value = (f'<div class="rrf-error" style="color:#b00020">⚠ '
                                  f"{html.escape(str(exc))}</div>")
            self.table_html.value = (f'<div class="rrf-table" data-k="{k}" data-error="1">'
                                     f"<i>{message('explorer.error.fix_input')}</i></div>")
            self.leader_html.value = ""
            self.image.layout.visibility = "hidden"  # the last chart would be stale
            return
        self.error, self.lists, self.table = None, lists, table
        self.message.value = _space_note(lists)
        self.leader_html.value = f"<p class='rrf-leader'>{html.escape(self._lead_sentence(k))}</p>"
        self.table_html.value = render_table_html(table, k, window)
        self.image.value = self._chart.draw(lists, window, table, k, self._curves, self._changes,
                                            self._cache_key)
        self.image.layout.visibility = "visible"

    def _lead_sentence(self, k: int) -> str:
        """The lead line from the cached scan (same wording as :func:`describe_lead`)."""
        leaders = self._leaders
        row = leaders.loc[leaders["k"] == k].iloc[0]
        return lead_text(row, k, self._changes, int(leaders["k"].min()), int(leaders["k"].max()))

    def _ipython_display_(self) -> None:  # pragma: no cover - exercised in notebooks
        from IPython.display import display

        display(self.widget)


def build_explorer(lists: Lists = ARTICLE_LISTS, k: int = 60, window: int | None = None) -> Explorer:
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
