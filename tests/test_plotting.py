"""Chinese glyphs in matplotlib charts come from the packaged font, on any machine."""

from __future__ import annotations

import subprocess
import sys
import warnings

import matplotlib
import pytest
from matplotlib import font_manager, ft2font
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ragmath.lab.notebook.plotting import FONT_PACKAGE, cjk_font_path, use_cjk_font

# 费 报 销 are simplified forms that Japanese-only CJK fonts lack.
CHINESE = "差旅费报销"


def _draw(text: str) -> list[str]:
    """Draw text as a title, an axis label and a tick label; return the warnings raised."""
    figure = Figure(figsize=(3, 2))
    FigureCanvasAgg(figure)
    ax = figure.add_subplot()
    ax.bar([0, 1], [1, -1], tick_label=[text, "−1"])
    ax.set_title(text)
    ax.set_ylabel(text)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        figure.canvas.draw()
    return [str(w.message) for w in caught]


def test_chinese_labels_draw_without_missing_glyph_warnings():
    assert use_cjk_font() is None  # a set-up cell that ends with it shows no Out[]
    assert matplotlib.rcParams["font.sans-serif"][0] == "Noto Sans SC"
    messages = _draw(CHINESE)
    assert not [m for m in messages if "Glyph" in m and "missing" in m], messages


def test_without_the_font_chinese_labels_do_warn():
    """The check above can fail: matplotlib's default font has no Chinese glyphs and says so."""
    with matplotlib.rc_context({"font.family": ["DejaVu Sans"]}):
        messages = _draw(CHINESE)
    assert any("Glyph" in m and "missing" in m for m in messages), messages


def test_the_font_matplotlib_picks_covers_the_characters():
    use_cjk_font()
    sans = font_manager.FontProperties(family=["sans-serif"])
    chosen = font_manager.findfont(sans, fallback_to_default=False)
    assert chosen == str(cjk_font_path())
    charmap = ft2font.FT2Font(chosen).get_charmap()
    missing = [ch for ch in CHINESE + "0123456789.-÷→…" if ord(ch) not in charmap]
    assert missing == []


def test_calling_twice_registers_the_font_once():
    use_cjk_font()
    use_cjk_font()
    path = str(cjk_font_path().resolve())
    entries = [e for e in font_manager.fontManager.ttflist if str(e.fname) == path]
    assert len(entries) == 1
    assert matplotlib.rcParams["font.sans-serif"].count("Noto Sans SC") == 1
    assert matplotlib.rcParams["axes.unicode_minus"] is False


def test_missing_font_package_names_the_package_to_install():
    code = (
        "import sys; sys.modules['pylopdf_fonts_zh_cn'] = None\n"
        "from ragmath.lab.notebook.plotting import use_cjk_font\n"
        "try:\n    use_cjk_font()\nexcept RuntimeError as exc:\n    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert FONT_PACKAGE in out and "pip install" in out


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_chinese_figure_saves(tmp_path, fmt):
    use_cjk_font()
    figure = Figure(figsize=(2, 1))
    figure.text(0.1, 0.5, CHINESE)
    target = tmp_path / f"chart.{fmt}"
    figure.savefig(target)
    assert target.stat().st_size > 0
