"""The pipeline diagram as Chromium draws it: no "you are here" label overlaps a box, a word or another label.

The SVG is drawn in Debian's Chromium (through playwright, the page loads nothing) and every ``<rect>``
and ``<text>`` is measured with ``getBBox()``, in the drawing's own units. Checked for every highlight set
the notebooks pass to ``pipeline_diagram(`` (read from the notebooks, both languages) and for each single
stage, in English and in Chinese. Two extents may meet only when one holds the other as it should: a
word or a box inside its own box, anything inside the hybrid-recall frame. A "you are here" label must
also keep clear of the arrows and stay inside the drawing.

Without Chromium (or playwright) the test skips with the reason, except on CI (``CI=true``), where it
fails, as in tests/test_browser.py.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from browser_support import headless_chromium

from ragmath.lab.messages import use_language
from ragmath.lab.notebook.diagram import STAGES, pipeline_diagram

pytestmark = [pytest.mark.browser]

ROOT = Path(__file__).resolve().parent.parent

# Every element's extent, its stage (the nearest <g data-stage>), and for a line its end points.
MEASURE = """() => [...document.querySelectorAll('svg rect, svg text, svg line')].map((el, i) => {
    const b = el.getBBox();
    const group = el.closest('g[data-stage]');
    return {i, tag: el.tagName, text: el.textContent, label: el.classList.contains('you-are-here'),
            stage: group ? group.dataset.stage : null, x: b.x, y: b.y, w: b.width, h: b.height,
            line: el.tagName === 'line' ? ['x1', 'y1', 'x2', 'y2'].map(a => +el.getAttribute(a)) : null};
})"""


def notebook_highlights() -> list[tuple[str, ...]]:
    """Every ``highlight=[...]`` the notebooks (English and Chinese) pass to ``pipeline_diagram(``."""
    found = set()
    for path in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        for match in re.finditer(r"pipeline_diagram\(highlight=(\[[^\]]*\]|\"[^\"]*\")",
                                 path.read_text(encoding="utf-8").replace('\\"', '"')):
            value = ast.literal_eval(match.group(1))
            found.add((value,) if isinstance(value, str) else tuple(value))
    return sorted(found)


HIGHLIGHTS = notebook_highlights() + [(stage,) for stage in STAGES]


def test_the_notebooks_highlight_sets_are_found():
    # 01, 05 and 06a draw the diagram; a regex that found nothing would make the layout test vacuous
    assert ("bm25", "vector", "rrf", "rerank", "generate") in HIGHLIGHTS
    assert ("bm25", "vector", "rrf") in HIGHLIGHTS and ("chunk", "index", "permission") in HIGHLIGHTS


@pytest.fixture(scope="module")
def svg_page():
    """A Chromium page that draws an SVG string and returns its measured elements."""
    with headless_chromium() as chromium:
        context = chromium.new_context(viewport={"width": 1200, "height": 500})
        context.route("**/*", lambda route: route.abort())
        page = context.new_page()

        def measure(svg: str) -> list[dict]:
            page.set_content(f"<!doctype html><html><body style='margin:0'>{svg}</body></html>")
            page.locator("svg text").first.wait_for()
            return page.evaluate(MEASURE)

        yield measure


def _box(element: dict) -> tuple[float, float, float, float]:
    return element["x"], element["y"], element["x"] + element["w"], element["y"] + element["h"]


def _overlap(a: dict, b: dict) -> bool:
    ax0, ay0, ax1, ay1 = _box(a)
    bx0, by0, bx1, by1 = _box(b)
    return ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1


def _inside(inner: dict, outer: dict) -> bool:
    ix0, iy0, ix1, iy1 = _box(inner)
    ox0, oy0, ox1, oy1 = _box(outer)
    return ox0 <= ix0 and oy0 <= iy0 and ix1 <= ox1 and iy1 <= oy1


def _may_hold(outer: dict, inner: dict) -> bool:
    """A box may hold its own words, and the hybrid-recall frame whatever lies inside it."""
    if outer["tag"] != "rect" or not _inside(inner, outer):
        return False
    return outer["stage"] == "recall" or (inner["stage"] == outer["stage"] and not inner["label"])


def _segment_meets_box(line: list[float], box: tuple[float, float, float, float], pad: float) -> bool:
    """Whether the segment comes within ``pad`` of the box (sampled every half unit: exact enough)."""
    x1, y1, x2, y2 = line
    x0, y0, bx1, by1 = box
    steps = max(1, int(2 * max(abs(x2 - x1), abs(y2 - y1))))
    return any(x0 - pad <= x1 + (x2 - x1) * s / steps <= bx1 + pad
               and y0 - pad <= y1 + (y2 - y1) * s / steps <= by1 + pad for s in range(steps + 1))


def collisions(elements: list[dict]) -> list[str]:
    """Every pair of measured extents that overlap without one holding the other, and every label
    that meets an arrow (with its head, 4 units either side of the line) or leaves the drawing."""
    canvas = elements[0]  # the white background
    shapes = [e for e in elements[1:] if e["tag"] in ("rect", "text")]
    found = []
    for n, a in enumerate(shapes):
        for b in shapes[n + 1:]:
            if _overlap(a, b) and not (_may_hold(a, b) or _may_hold(b, a)):
                found.append(f"{a['text'] or a['stage']!r} overlaps {b['text'] or b['stage']!r}")
    for label in (e for e in shapes if e["label"]):
        if not _inside(label, canvas):
            found.append(f"{label['text']!r} leaves the drawing: {_box(label)}")
        for line in (e["line"] for e in elements if e["line"]):
            if _segment_meets_box(line, _box(label), pad=4):
                found.append(f"{label['text']!r} at {_box(label)} meets the arrow {line}")
    return found


def test_the_collision_check_sees_the_overlaps_it_exists_for():
    def rect(stage, x, y, w, h):
        return {"tag": "rect", "text": "", "label": False, "stage": stage, "x": x, "y": y, "w": w, "h": h,
                "line": None}

    def label(x, y):
        return {"tag": "text", "text": "here", "label": True, "stage": None, "x": x, "y": y, "w": 60,
                "h": 15, "line": None}

    canvas, frame = rect(None, 0, 0, 500, 300), rect("recall", 100, 100, 200, 100)
    box = rect("vector", 110, 120, 80, 40)
    assert collisions([canvas, frame, box, label(120, 165)]) == []  # inside the frame, under its box
    assert collisions([canvas, frame, box, label(120, 190)]) != []  # across the frame's edge
    assert collisions([canvas, frame, box, label(120, 150)]) != []  # on the box
    assert collisions([canvas, label(10, 10), label(60, 20)]) != []  # on another label
    assert collisions([canvas, label(470, 10)]) != []  # out of the drawing


@pytest.mark.parametrize("language", ["en", "zh"])
def test_no_label_overlaps_a_box_a_word_or_another_label(svg_page, language):
    use_language(language)
    problems = {}
    for highlight in HIGHLIGHTS:
        elements = svg_page(pipeline_diagram(highlight=list(highlight)).svg)
        assert sum(e["label"] for e in elements) == len(highlight)
        found = collisions(elements)
        if found:
            problems[highlight] = found
    assert not problems, "\n".join(f"{list(h)}: {found}" for h, found in problems.items())
