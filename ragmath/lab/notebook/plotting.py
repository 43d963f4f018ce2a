"""Chinese text in matplotlib charts, on any machine (:func:`use_cjk_font`), and the items' colours.

matplotlib's own fonts have no Chinese glyphs, so RAG Lab uses the Noto Sans SC font shipped in the PyPI
package ``pylopdf-fonts-zh-cn`` (SIL Open Font License 1.1), which the ``lab`` extra installs. Notebook
05's charts and the RRF k explorer colour an item with :func:`item_colours`, so it looks the same in both.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib as mpl
from matplotlib import font_manager

from ragmath.lab.messages import message

__all__ = ["FONT_PACKAGE", "PALETTE", "cjk_font_path", "item_colours", "use_cjk_font"]

#: The PyPI package that ships the Simplified Chinese font (install name, as pip spells it).
FONT_PACKAGE: str = "pylopdf-fonts-zh-cn"

#: Item colours: tab10, then ten darker tones; an item keeps its colour whatever k and the window are.
PALETTE: tuple[str, ...] = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
    "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173",
    "#3182bd", "#e6550d", "#31a354", "#756bb1", "#636363",
)  # fmt: skip

#: Used when a glyph is missing from the Chinese font (matplotlib falls back glyph by glyph).
_FALLBACK_FAMILY = "DejaVu Sans"


def cjk_font_path() -> Path:
    """Path of the Simplified Chinese font file shipped by :data:`FONT_PACKAGE`.

    Raises ``RuntimeError`` naming the package to install if it is missing or its font file is gone.

    >>> cjk_font_path().suffix
    '.otf'
    """
    try:
        import pylopdf_fonts_zh_cn
    except ImportError as exc:
        raise RuntimeError(message("notebook.plotting.no_font_package", package=FONT_PACKAGE)) from exc
    path = Path(pylopdf_fonts_zh_cn.sans_path())
    if not path.is_file():
        raise RuntimeError(message("notebook.plotting.no_font_file", file=path.name, package=FONT_PACKAGE))
    return path


def use_cjk_font() -> None:
    """Make matplotlib draw Chinese: register the packaged Noto Sans SC font and make it the default.

    Its family goes first in ``font.sans-serif`` (DejaVu Sans second, for the few glyphs it lacks), and
    ``axes.unicode_minus = False`` draws the ASCII hyphen-minus. Calling it again changes nothing further.
    Raises ``RuntimeError`` naming the package to install if the font package is missing.

    >>> use_cjk_font()
    >>> import matplotlib
    >>> matplotlib.rcParams["font.sans-serif"][0], matplotlib.rcParams["axes.unicode_minus"]
    ('Noto Sans SC', False)
    """
    path = cjk_font_path().resolve()
    if not _entries_of(path):
        font_manager.fontManager.addfont(str(path))
    family = _entries_of(path)[0].name  # the file's family name, read once by addfont (15 ms a read)
    others = [name for name in mpl.rcParams["font.sans-serif"] if name not in (family, _FALLBACK_FAMILY)]
    mpl.rcParams["font.sans-serif"] = [family, _FALLBACK_FAMILY, *others]
    mpl.rcParams["font.family"] = ["sans-serif"]
    mpl.rcParams["axes.unicode_minus"] = False


def _entries_of(path: Path) -> list[font_manager.FontEntry]:
    """The font manager's entries for a font file (its first face's family first), [] if not added."""
    return [entry for entry in font_manager.fontManager.ttflist if Path(entry.fname).resolve() == path]


def item_colours(lists: Mapping[str, Sequence[str]] | Sequence[Sequence[str]]) -> dict[str, str]:
    """A colour for every item, by its first appearance across the lists (first list first).

    The colour depends only on the lists, never on k or the window; colours cycle through :data:`PALETTE`.

    >>> item_colours({"BM25": ["4.2", "6.1"], "vector": ["5.3", "4.2"]})
    {'4.2': '#1f77b4', '6.1': '#ff7f0e', '5.3': '#2ca02c'}

    Raises TypeError for lists that are neither a mapping name -> IDs nor a list of lists.
    """
    if isinstance(lists, Mapping):
        rankings = list(lists.values())
    elif isinstance(lists, (str, bytes)) or not isinstance(lists, Sequence):
        raise TypeError(message("notebook.plotting.bad_lists", kind=type(lists).__name__))
    else:
        rankings = list(lists)
    order = dict.fromkeys(str(item) for ranking in rankings for item in ranking)  # first appearances
    return {item: PALETTE[i % len(PALETTE)] for i, item in enumerate(order)}
