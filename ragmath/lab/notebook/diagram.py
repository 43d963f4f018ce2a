"""The two-stage RAG pipeline as a small SVG drawing, with the stage a notebook studies marked.

Offline, documents are parsed, cut into chunks and indexed. Online, a question is answered in five
steps: permission filter, hybrid recall (BM25 and vector lists fused by RRF), rerank, generation and a
citation check. The drawing is plain SVG text built here, so it needs no font or plotting library at
build time; the browser draws the Chinese labels.

Every word comes from the message catalogue (``notebook.diagram.*``). In the English edition each box
shows its stage's Chinese term with the English one beneath (the English terms are the ones the code
uses); in the Chinese edition a box shows the Chinese term alone, with the name of its method beneath where
it has one (BM25, RRF). The headings, the "you are here" note, the accessible name and the text form
(``repr``: the marked stages) follow the notebook's language.

>>> svg = pipeline_diagram(highlight="rerank").svg
>>> 'data-stage="rerank" class="stage highlight"' in svg
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from ragmath.lab.messages import CATALOGUE, language, message

__all__ = ["STAGES", "PipelineDiagram", "pipeline_diagram"]

#: Every stage that can be highlighted -> the catalogue key of its label (an English and a Chinese term).
_STAGE_KEYS = {
    "parse": "notebook.diagram.stage.parse",
    "chunk": "notebook.diagram.stage.chunk",
    "index": "notebook.diagram.stage.index",
    "question": "notebook.diagram.stage.question",
    "permission": "notebook.diagram.stage.permission",
    "bm25": "notebook.diagram.stage.bm25",
    "vector": "notebook.diagram.stage.vector",
    "rrf": "notebook.diagram.stage.rrf",
    "recall": "notebook.diagram.stage.recall",
    "rerank": "notebook.diagram.stage.rerank",
    "generate": "notebook.diagram.stage.generate",
    "cite": "notebook.diagram.stage.cite",
}

#: Every stage that can be highlighted: key -> (English label, Chinese label).
STAGES: dict[str, tuple[str, str]] = {
    stage: (CATALOGUE[key]["en"], CATALOGUE[key]["zh"]) for stage, key in _STAGE_KEYS.items()
}

#: The line under a box in the Chinese edition: the name of the stage's method, where it has one.
_NAMES_UNDER = {"bm25": "BM25", "rrf": "RRF"}

_WIDTH, _HEIGHT = 1060, 330
_BOX_H = 46
_NORMAL = {"fill": "#f4f6f8", "stroke": "#7a8894", "width": "1.5"}
_MARKED = {"fill": "#fff1d6", "stroke": "#d9822b", "width": "4"}

# (key, x, y, width): the boxes; "recall" is the frame around bm25, vector and rrf.
_BOXES = [
    ("parse", 150, 52, 130),
    ("chunk", 330, 52, 130),
    ("index", 510, 52, 130),
    ("question", 20, 220, 100),
    ("permission", 150, 220, 140),
    ("bm25", 340, 180, 120),
    ("vector", 340, 256, 120),
    ("rrf", 500, 218, 130),
    ("rerank", 690, 220, 100),
    ("generate", 820, 220, 100),
    ("cite", 950, 220, 100),
]
_RECALL_FRAME = (325, 166, 320, 148)  # x, y, width, height


@dataclass(frozen=True)
class PipelineDiagram:
    """An SVG drawing of the pipeline; shows itself in Jupyter and can be saved to a file.

    >>> PipelineDiagram("<svg/>").svg
    '<svg/>'
    """

    svg: str

    def _repr_svg_(self) -> str:
        return self.svg

    def __repr__(self) -> str:
        marked = re.findall(r'data-stage="([^"]+)" class="stage highlight"', self.svg)
        if language() != "en":
            marked = [message(_STAGE_KEYS[stage]) for stage in marked]
        return message("notebook.diagram.repr",
                       marked=message("common.list_separator").join(marked)
                       or message("notebook.diagram.nothing"))

    def save(self, path: str | Path) -> Path:
        """Write the SVG text to ``path`` (UTF-8) and return the path; the parent folder must exist."""
        target = Path(path)
        if not target.parent.is_dir():
            raise FileNotFoundError(message("notebook.diagram.no_folder", folder=target.parent))
        target.write_text(self.svg, encoding="utf-8")
        return target


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
    return (
        f'<g data-stage="{key}" class="{css}">'
        f'<rect x="{x}" y="{y}" width="{width}" height="{height}" rx="{rx}" '
        f'fill="{style["fill"]}" stroke="{style["stroke"]}" stroke-width="{style["width"]}"/>'
    )


def _box(key: str, x: float, y: float, width: float, marked: bool) -> str:
    english, chinese = STAGES[key]
    under = english if language() == "en" else _NAMES_UNDER.get(key)
    centre = x + width / 2
    if under is None:  # one line, in the middle of the box
        return (_rect(key, x, y, width, _BOX_H, marked)
                + f'<text x="{centre}" y="{y + 28}" text-anchor="middle" font-size="15">{escape(chinese)}'
                + "</text></g>")
    return (
        _rect(key, x, y, width, _BOX_H, marked)
        + f'<text x="{centre}" y="{y + 19}" text-anchor="middle" font-size="15">{escape(chinese)}</text>'
        + f'<text x="{centre}" y="{y + 37}" text-anchor="middle" font-size="12" fill="#44505a">'
        + f"{escape(under)}</text></g>"
    )


def _arrow(x1: float, y1: float, x2: float, y2: float) -> str:
    return (
        f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#44505a" stroke-width="1.6" '
        'marker-end="url(#arrowhead)"/>'
    )


def pipeline_diagram(
    highlight: str | Iterable[str] | None = None, *, title: str | None = None
) -> PipelineDiagram:
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
    parts = [
        # width 100 % of the cell and no fixed height: the viewBox keeps the proportions, so the
        # drawing shrinks with a narrow cell (file browser open) instead of being cut at the right
        f'<svg xmlns="http://www.w3.org/2000/svg" width="100%" viewBox="0 0 {_WIDTH} {_HEIGHT}" '
        f'preserveAspectRatio="xMinYMin meet" style="max-width: {_WIDTH}px; height: auto" '
        f'font-family="sans-serif" role="img" aria-label="{escape(message("notebook.diagram.aria"))}">',
        '<defs><marker id="arrowhead" markerWidth="10" markerHeight="8" refX="9" refY="4" orient="auto">'
        '<path d="M0,0 L10,4 L0,8 z" fill="#44505a"/></marker></defs>',
        f'<rect x="0" y="0" width="{_WIDTH}" height="{_HEIGHT}" fill="white"/>',
    ]
    if title:
        parts.append(
            f'<text x="{_WIDTH / 2}" y="20" text-anchor="middle" font-size="15">{escape(title)}</text>'
        )
    parts.append('<text x="20" y="80" font-size="14" font-weight="bold">'
                 f'{escape(message("notebook.diagram.offline"))}</text>')
    parts.append('<text x="20" y="160" font-size="14" font-weight="bold">'
                 f'{escape(message("notebook.diagram.online"))}</text>')
    frame_x, frame_y, frame_w, frame_h = _RECALL_FRAME
    parts.append(_rect("recall", frame_x, frame_y, frame_w, frame_h, "recall" in marked, rx=12))
    parts.append(
        f'<text x="{frame_x + 8}" y="{frame_y - 6}" font-size="12" fill="#44505a">'
        f'{escape(message("notebook.diagram.recall_frame"))}</text></g>'
    )
    positions = {}
    for key, x, y, width in _BOXES:
        parts.append(_box(key, x, y, width, key in marked))
        positions[key] = (x, y, width)
    parse_x, parse_y, parse_w = positions["parse"]
    mid = parse_y + _BOX_H / 2
    parts.append(_arrow(parse_x + parse_w, mid, positions["chunk"][0] - 2, mid))
    parts.append(_arrow(positions["chunk"][0] + parse_w, mid, positions["index"][0] - 2, mid))
    index_x, _, index_w = positions["index"]
    # the index feeds both retrievers of the online stage
    parts.append(_arrow(index_x + index_w / 2, parse_y + _BOX_H, index_x + index_w / 2, frame_y - 20))
    online_mid = 220 + _BOX_H / 2
    parts.append(_arrow(120, online_mid, 148, online_mid))
    parts.append(_arrow(290, online_mid, 338, 180 + _BOX_H / 2))
    parts.append(_arrow(290, online_mid, 338, 256 + _BOX_H / 2))
    parts.append(_arrow(460, 180 + _BOX_H / 2, 498, online_mid - 6))
    parts.append(_arrow(460, 256 + _BOX_H / 2, 498, online_mid + 6))
    parts.append(_arrow(645, online_mid, 688, online_mid))
    parts.append(_arrow(790, online_mid, 818, online_mid))
    parts.append(_arrow(920, online_mid, 948, online_mid))
    for key, x, y, width in _BOXES:
        if key in marked:
            parts.append(_you_are_here(x + width / 2, y + _BOX_H + 16))
    if "recall" in marked:
        parts.append(_you_are_here(frame_x + frame_w / 2, frame_y + frame_h + 14))
    parts.append("</svg>")
    return PipelineDiagram("".join(parts))


def _you_are_here(x: float, y: float) -> str:
    return (
        f'<text x="{x}" y="{y}" text-anchor="middle" font-size="12" font-weight="bold" fill="#b3641a" '
        f'class="you-are-here">{escape(message("notebook.diagram.you_are_here"))}</text>'
    )
