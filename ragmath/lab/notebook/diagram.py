"""The two-stage RAG pipeline as a small SVG drawing, with the stage a notebook studies marked.

Offline: parse, chunk, index. Online: permission filter, hybrid recall (BM25 and vector lists fused by
RRF), rerank, generation and a citation check. The drawing is plain SVG text, so it needs no font at build
time. The "you are here" notes are placed from a generous estimate of their width (:func:`_text_width`),
each where it meets no box, word, arrow or other note (tests/test_diagram_layout.py measures it in
Chromium). Every word comes from the catalogue (``notebook.diagram.*``): in English a box shows its Chinese
term with the English one beneath; in Chinese, the Chinese term with its method's name beneath (BM25, RRF).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from xml.sax.saxutils import escape

from ragmath.lab.messages import CATALOGUE, language, message

__all__ = ["STAGES", "PipelineDiagram", "pipeline_diagram"]

_STAGE = "notebook.diagram.stage."  # a stage's label is the catalogue's _STAGE + its key

#: Every stage that can be highlighted: key -> (English label, Chinese label).
STAGES: dict[str, tuple[str, str]] = {
    stage: (CATALOGUE[_STAGE + stage]["en"], CATALOGUE[_STAGE + stage]["zh"])
    for stage in ("parse", "chunk", "index", "question", "permission", "bm25", "vector", "rrf", "recall",
                  "rerank", "generate", "cite")
}

#: The line under a box in the Chinese edition: the name of the stage's method, where it has one.
_NAMES_UNDER = {"bm25": "BM25", "rrf": "RRF"}

_WIDTH, _HEIGHT = 1060, 330
_BOX_H = 46
_NORMAL = {"fill": "#f4f6f8", "stroke": "#7a8894", "width": "1.5"}
_MARKED = {"fill": "#fff1d6", "stroke": "#d9822b", "width": "4"}

# (key, x, y, width): the boxes, offline then online; "recall" is the frame around bm25, vector and rrf.
_BOXES = [
    ("parse", 150, 52, 130), ("chunk", 330, 52, 130), ("index", 510, 52, 130),
    ("question", 20, 220, 100), ("permission", 150, 220, 140), ("bm25", 340, 180, 120),
    ("vector", 340, 256, 120), ("rrf", 500, 218, 130), ("rerank", 690, 220, 100),
    ("generate", 820, 220, 100), ("cite", 950, 220, 100),
]
_RECALL_FRAME = (312, 166, 343, 148)  # x, y, width, height; the frame grows down to hold its notes
_INSIDE_FRAME = ("bm25", "vector", "rrf")  # the boxes the hybrid-recall frame holds
_LABEL_SIZE = 12  # font size of the "you are here" note
_GAP = 4  # between a box and its note, between two notes, and around an arrow

Extent = tuple[float, float, float, float]  # left, top, right, bottom


def _text_width(text: str, size: float, bold: bool = False) -> float:
    """A width no common sans-serif font exceeds: a Chinese character (and ▲) is one em wide, a Latin
    letter 0.62 em bold on average (DejaVu Sans Bold, the widest of the usual fonts, sets the note's
    Latin part at 0.61 em, Arial and Helvetica near 0.55).

    >>> _text_width("本节位置", 12)
    48.0
    """
    em = 0.0
    for char in text:
        if unicodedata.east_asian_width(char) in "WFA" and char != "\u00b7":
            em += 1.0
        elif char == " ":
            em += 0.35
        elif char == "\u00b7":  # the middle dot
            em += 0.4
        elif char.isupper() or char.isdigit():
            em += 0.78 if bold else 0.72
        else:
            em += 0.62 if bold else 0.58
    return em * size


def _text_extent(text: str, x: float, baseline: float, size: float, *, bold: bool = False,
                 anchor: str = "start") -> Extent:
    """The box a line of text can fill: 1.1 em above the baseline, 0.3 em below (CJK fonts reach lower
    and higher than Latin ones)."""
    width = _text_width(text, size, bold)
    left = x - width / 2 if anchor == "middle" else x
    return left, baseline - 1.1 * size, left + width, baseline + 0.3 * size


def _overlaps(a: Extent, b: Extent, pad: float = 0.0) -> bool:
    return a[0] < b[2] + pad and b[0] < a[2] + pad and a[1] < b[3] + pad and b[1] < a[3] + pad


def _meets_segment(extent: Extent, segment: tuple[float, float, float, float], pad: float) -> bool:
    """Whether the segment passes within ``pad`` of the extent (sampled every half unit)."""
    x1, y1, x2, y2 = segment
    steps = max(1, int(2 * max(abs(x2 - x1), abs(y2 - y1))))
    left, top, right, bottom = extent
    return any(left - pad <= x1 + (x2 - x1) * i / steps <= right + pad
               and top - pad <= y1 + (y2 - y1) * i / steps <= bottom + pad for i in range(steps + 1))


def _place_note(box: Extent, width: float, taken: list[Extent], arrows: list, bounds: Extent) -> Extent:
    """The extent of a note ``width`` wide under ``box``: the first place, row by row downwards and from
    the centre outwards, that stays inside ``bounds``, clear of every extent in ``taken`` and every
    arrow, and still reaches at least 40 % of the narrower of note and box across the box's width.
    A note goes to a lower row only where nothing stands between it and its box, unless no such place
    is free."""
    height = 1.4 * _LABEL_SIZE
    reach = 0.4 * min(width, box[2] - box[0])
    limit = (width + box[2] - box[0]) / 2 - reach
    shifts = [0.0] + [sign * step for step in range(2, int(limit) + 1, 2) for sign in (-1, 1)]
    for direct in (True, False):
        for row in range(6):
            top = box[3] + _GAP + row * (height + _GAP)
            for shift in shifts:
                left = (box[0] + box[2] - width) / 2 + shift
                note = (left, top, left + width, top + height)
                # the note and, when it must stand directly under the box, the way up to the box
                clear = (left, box[3] + _GAP, left + width, top + height) if direct else note
                if (bounds[0] <= note[0] and note[2] <= bounds[2] and bounds[1] <= note[1]
                        and note[3] <= bounds[3]
                        and not any(_overlaps(clear, other, _GAP / 2) for other in taken)
                        and not any(_meets_segment(note, arrow, _GAP) for arrow in arrows)):
                    return note
    # nowhere free (a drawing this module does not make): centred under the box
    left = (box[0] + box[2] - width) / 2
    return left, box[3] + _GAP, left + width, box[3] + _GAP + height


@dataclass(frozen=True)
class PipelineDiagram:
    """An SVG drawing of the pipeline (its text: ``svg``); shows itself in Jupyter."""

    svg: str

    def _repr_svg_(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        marked = re.findall(r'data-stage="([^"]+)" class="stage highlight"', self.svg)
        if language() != "en":
            marked = [message(_STAGE + stage) for stage in marked]
        return message("notebook.diagram.repr",
                       marked=message("common.list_separator").join(marked)
                       or message("notebook.diagram.nothing"))


def _check_highlight(highlight: str | Iterable[str] | None) -> frozenset[str]:
    if highlight is None:
        return frozenset()
    names = [highlight] if isinstance(highlight, str) else list(highlight)
    unknown = [name for name in names if name not in STAGES]
    if unknown:
        raise ValueError(message("notebook.diagram.unknown_stage", stage=repr(unknown[0]),
                                 known=", ".join(STAGES)))
    return frozenset(names)


def _rect(key: str, x: float, y: float, width: float, height: float, marked: bool, rx: int = 8) -> str:
    style = _MARKED if marked else _NORMAL
    css = "stage highlight" if marked else "stage"
    return (f'<g data-stage="{key}" class="{css}"><rect x="{x}" y="{y}" width="{width}" height="{height}" '
            f'rx="{rx}" fill="{style["fill"]}" stroke="{style["stroke"]}" stroke-width="{style["width"]}"/>')


def _box(key: str, x: float, y: float, width: float, marked: bool) -> str:
    english, chinese = STAGES[key]
    under = english if language() == "en" else _NAMES_UNDER.get(key)
    centre = x + width / 2
    text = (f'<text x="{centre}" y="{y + (28 if under is None else 19)}" text-anchor="middle" font-size="15">'
            f"{escape(chinese)}</text>")
    if under is not None:  # else one line, in the middle of the box
        text += (f'<text x="{centre}" y="{y + 37}" text-anchor="middle" font-size="12" fill="#44505a">'
                 f"{escape(under)}</text>")
    return _rect(key, x, y, width, _BOX_H, marked) + text + "</g>"


def _arrow(x1: float, y1: float, x2: float, y2: float) -> str:
    return (f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#44505a" stroke-width="1.6" '
            'marker-end="url(#arrowhead)"/>')


def pipeline_diagram(highlight: str | Iterable[str] | None = None, *,
                     title: str | None = None) -> PipelineDiagram:
    """Draw the article's two-stage RAG pipeline, marking the stage(s) in ``highlight``.

    >>> diagram = pipeline_diagram(highlight=["bm25", "vector", "rrf"])
    >>> diagram.svg.count('class="stage highlight"')
    3

    where ``highlight`` names stages of :data:`STAGES` (``"recall"`` marks the whole hybrid-recall
    frame); a marked stage gets an orange frame and the note "you are here · 本节位置" (in Chinese alone
    under ``use_language("zh")``).
    Raises ``ValueError`` naming an unknown stage and listing the known ones.
    """
    marked = _check_highlight(highlight)
    arrows = _arrows()
    notes, frame_h = _place_notes(marked, _heading_extents(title), arrows)
    frame_bottom = _RECALL_FRAME[1] + frame_h
    height = max(_HEIGHT, frame_bottom + 2 * _GAP, *(note[3] + _GAP for note in notes))
    height = math.ceil(height)
    return PipelineDiagram(_svg(marked, title, height, frame_h, arrows, notes))


def _arrows() -> list[tuple[float, float, float, float]]:
    """The arrows as (x1, y1, x2, y2): along the offline row, down from the index, along the online row."""
    frame_x, frame_y, frame_w, _ = _RECALL_FRAME
    positions = {key: (x, y, width) for key, x, y, width in _BOXES}
    parse_x, parse_y, parse_w = positions["parse"]
    mid = parse_y + _BOX_H / 2
    index_x, _, index_w = positions["index"]
    online_mid = 220 + _BOX_H / 2
    return [
        (parse_x + parse_w, mid, positions["chunk"][0] - 2, mid),
        (positions["chunk"][0] + parse_w, mid, positions["index"][0] - 2, mid),
        # the index feeds both retrievers of the online stage
        (index_x + index_w / 2, parse_y + _BOX_H, index_x + index_w / 2, frame_y - 20),
        (120, online_mid, 148, online_mid),
        (290, online_mid, 338, 180 + _BOX_H / 2),
        (290, online_mid, 338, 256 + _BOX_H / 2),
        (460, 180 + _BOX_H / 2, 498, online_mid - 6),
        (460, 256 + _BOX_H / 2, 498, online_mid + 6),
        (frame_x + frame_w, online_mid, 688, online_mid),
        (790, online_mid, 818, online_mid),
        (920, online_mid, 948, online_mid),
    ]


def _heading_extents(title: str | None) -> list[Extent]:
    """The extents of the headings (offline, online, the recall frame's) and of the title, if any."""
    frame_x, frame_y, _, _ = _RECALL_FRAME
    headings = [  # (text, x, baseline, size, bold, anchor)
        (message("notebook.diagram.offline"), 20, 80, 14, True, "start"),
        (message("notebook.diagram.online"), 20, 160, 14, True, "start"),
        (message("notebook.diagram.recall_frame"), frame_x + 8, frame_y - 6, 12, False, "start"),
    ]
    if title:
        headings.append((title, _WIDTH / 2, 20, 15, False, "middle"))
    return [_text_extent(text, x, y, size, bold=bold, anchor=anchor)
            for text, x, y, size, bold, anchor in headings]


def _place_notes(marked: frozenset[str], taken: list[Extent], arrows: list) -> tuple[list[Extent], float]:
    """The extents of the marked stages' notes, and the height of the recall frame that holds its own."""
    frame_x, frame_y, frame_w, frame_h = _RECALL_FRAME
    boxes = {key: (x, y, x + width, y + _BOX_H) for key, x, y, width in _BOXES}
    note_width = _text_width(message("notebook.diagram.you_are_here"), _LABEL_SIZE, bold=True)
    notes: list[Extent] = []
    # the notes of the boxes in the frame first, inside it; the frame then grows down to hold them
    for key in (k for k in _INSIDE_FRAME if k in marked):
        notes.append(_place_note(boxes[key], note_width, taken + list(boxes.values()) + notes, arrows,
                                 (frame_x + 2, frame_y + 2, frame_x + frame_w - 2, float("inf"))))
    frame_h = max(frame_h, max((note[3] for note in notes), default=0) + _GAP - frame_y)
    frame = (frame_x, frame_y, frame_x + frame_w, frame_y + frame_h)
    outside = [frame] + [box for key, box in boxes.items() if key not in _INSIDE_FRAME]
    for key in (k for k in boxes if k in marked and k not in _INSIDE_FRAME):
        notes.append(_place_note(boxes[key], note_width, taken + outside + notes, arrows,
                                 (2, 2, _WIDTH - 2, float("inf"))))
    if "recall" in marked:
        notes.append(_place_note(frame, note_width, taken + outside + notes, arrows,
                                 (2, 2, _WIDTH - 2, float("inf"))))
    return notes, frame_h


def _svg(marked: frozenset[str], title: str | None, height: int, frame_h: float, arrows: list,
         notes: list[Extent]) -> str:
    """The SVG text: background, title, headings, the recall frame, the boxes, arrows and notes."""
    frame_x, frame_y, frame_w, _ = _RECALL_FRAME
    parts = [
        # width 100 % of the cell and no fixed height: the viewBox keeps the proportions, so the
        # drawing shrinks with a narrow cell (file browser open) instead of being cut at the right
        f'<svg xmlns="http://www.w3.org/2000/svg" width="100%" viewBox="0 0 {_WIDTH} {height}" '
        f'preserveAspectRatio="xMinYMin meet" style="max-width: {_WIDTH}px; height: auto" '
        f'font-family="sans-serif" role="img" aria-label="{escape(message("notebook.diagram.aria"))}">',
        '<defs><marker id="arrowhead" markerWidth="10" markerHeight="8" refX="9" refY="4" orient="auto">'
        '<path d="M0,0 L10,4 L0,8 z" fill="#44505a"/></marker></defs>',
        f'<rect x="0" y="0" width="{_WIDTH}" height="{height}" fill="white"/>',
    ]
    if title:
        parts.append(f'<text x="{_WIDTH / 2}" y="20" text-anchor="middle" font-size="15">'
                     f"{escape(title)}</text>")
    parts.append('<text x="20" y="80" font-size="14" font-weight="bold">'
                 f'{escape(message("notebook.diagram.offline"))}</text>')
    parts.append('<text x="20" y="160" font-size="14" font-weight="bold">'
                 f'{escape(message("notebook.diagram.online"))}</text>')
    parts.append(_rect("recall", frame_x, frame_y, frame_w, _number(frame_h), "recall" in marked, rx=12))
    parts.append(f'<text x="{frame_x + 8}" y="{frame_y - 6}" font-size="12" fill="#44505a">'
                 f'{escape(message("notebook.diagram.recall_frame"))}</text></g>')
    for key, x, y, width in _BOXES:
        parts.append(_box(key, x, y, width, key in marked))
    parts.extend(_arrow(*arrow) for arrow in arrows)
    parts.extend(_you_are_here(note) for note in notes)
    parts.append("</svg>")
    return "".join(parts)


def _number(value: float) -> str:
    """``value`` as SVG writes it: 148 rather than 148.0, at most one decimal."""
    return f"{round(value, 1):g}"


def _you_are_here(note: Extent) -> str:
    """The note, centred in the extent :func:`_place_note` chose for it (baseline 1.1 em below its top)."""
    left, top, right, _ = note
    return (f'<text x="{_number((left + right) / 2)}" y="{_number(top + 1.1 * _LABEL_SIZE)}" '
            'text-anchor="middle" font-size="12" font-weight="bold" fill="#b3641a" '
            f'class="you-are-here">{escape(message("notebook.diagram.you_are_here"))}</text>')
