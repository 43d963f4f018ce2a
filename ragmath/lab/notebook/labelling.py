"""A labelling widget for JupyterLab: grade a pool's chunks 0, 1, 2 by keyboard, each judgement saved at once.

One pool item at a time: the question, the chunk's text, keys ``0`` ``1`` ``2`` (grades), ``s`` skip, ``b``
back, ``n`` "no answer in the pool" (the question's unjudged items get 0), and a progress bar. Each judgement
rewrites the qrels CSV (:class:`~ragmath.lab.notebook.judgements.JudgementFile`); a new widget on the same
file resumes at the first item not yet judged.

The keys are caught by the widget's script (``static/labelling.js``, an anywidget ES module) on the window
in the capture phase, and the widget carries ``data-lm-suppress-shortcuts``: no plain key reaches
JupyterLab, where 0, 0 restarts the kernel (``tests/test_labelling_browser.py``). A keypress names its item;
the kernel ignores one that arrives after the item changed. The widget's words come from the catalogue
(``notebook.labelling.*``, :data:`MESSAGES`), handed to the script as the ``text`` trait.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from ragmath.lab.messages import CATALOGUE, LANGUAGES, message
from ragmath.lab.messages import language as chosen_language
from ragmath.lab.notebook.judgements import GRADES, JudgementFile, pool_items

__all__ = ["LabellingWidget", "MESSAGES"]

STATIC = Path(__file__).resolve().parent / "static"

#: The script's names for the widget's words; each is the catalogue's ``notebook.labelling.<name>``.
_WORDS = ("progress", "grade0", "grade1", "grade2", "skip", "back", "none", "current", "unlabelled", "hint",
          "done", "none_refused")

#: The widget's words, per language; ``{name}`` fields are filled in by the widget's script.
MESSAGES: dict[str, dict[str, str]] = {
    lang: {name: CATALOGUE["notebook.labelling." + name][lang] for name in _WORDS} for lang in LANGUAGES
}


class LabellingWidget(anywidget.AnyWidget):
    """Grade the items of ``pool`` into the qrels CSV ``path`` (see the module's docstring).

    ``pool``: a table with columns ``question`` and ``id`` (pandas or polars), in the order to label;
    ``questions``: question ID -> text; ``texts``: chunk ID -> text; ``language``: the words' language
    (default: the notebook's, :func:`ragmath.lab.messages.use_language`). Raises ``ValueError`` for an
    empty pool, a pool item whose question or chunk has no text, or an unknown language.

    >>> import tempfile, polars as pl
    >>> path = Path(tempfile.mkdtemp()) / "labels.csv"
    >>> pool = pl.DataFrame({"question": ["q1", "q1"], "id": ["a", "b"]})
    >>> w = LabellingWidget(pool, path, questions={"q1": "taxi?"}, texts={"a": "80 yuan", "b": "hotel"})
    >>> w.grade(2); w.state["id"], w.state["labelled"]
    ('b', 1)
    >>> print(path.read_text(), end="")
    question,id,grade
    q1,a,2
    """

    _esm = STATIC / "labelling.js"
    _css = STATIC / "labelling.css"
    state = traitlets.Dict().tag(sync=True)
    text = traitlets.Dict().tag(sync=True)

    def __init__(self, pool: Any, path: Any, *, questions: Mapping[str, str], texts: Mapping[str, str],
                 language: str | None = None) -> None:
        super().__init__()
        language = chosen_language() if language is None else language
        if language not in MESSAGES:
            raise ValueError(message("notebook.labelling.bad_language", given=repr(language),
                                     known=sorted(MESSAGES)))
        self.items = pool_items(pool)
        if not self.items:
            raise ValueError(message("notebook.labelling.empty_pool"))
        self.questions, self.texts = dict(questions), dict(texts)
        for question, item in self.items:
            if question not in self.questions:
                raise ValueError(message("notebook.labelling.no_question_text", question=repr(question)))
            if item not in self.texts:
                raise ValueError(message("notebook.labelling.no_chunk_text", chunk=repr(item)))
        self.store = JudgementFile(path)
        self.text = dict(MESSAGES[language])
        unjudged = self._unjudged()
        self.position = unjudged[0] if unjudged else 0
        self._message = ""
        self.on_msg(self._on_message)
        self._show()

    # ----------------------------------------------------------------- what a person can do
    def grade(self, grade: int) -> None:
        """Give the current item ``grade`` (0, 1 or 2), save, and move to the next item not yet judged."""
        self.store.set(*self.items[self.position], grade)
        self._advance()

    def skip(self) -> None:
        """Leave the current item unjudged and show the next one."""
        self.position = (self.position + 1) % len(self.items)
        self._show()

    def back(self) -> None:
        """Show the previous item (its grade can be changed)."""
        self.position = (self.position - 1) % len(self.items)
        self._show()

    def no_answer(self) -> None:
        """Grade 0 every item of the current question not yet judged: it has no answer in the pool.

        Refused (a message in the widget) when an item of the question is graded above 0 in the file as
        it is now, by this widget or another.
        """
        question = self.items[self.position][0]
        pairs = [p for p in self.items if p[0] == question]
        if not self.store.set_unjudged(pairs, 0):  # decided on the file as it is now, under its lock
            self._message = self.text["none_refused"]
            self._show()
            return
        self._advance()

    # ----------------------------------------------------------------- state
    @property
    def judged(self) -> int:
        """How many pool items have a grade."""
        return sum(p in self.store.grades for p in self.items)

    def _unjudged(self) -> list[int]:
        return [i for i, p in enumerate(self.items) if p not in self.store.grades]

    def _advance(self) -> None:
        unjudged = self._unjudged()
        later = [i for i in unjudged if i > self.position]
        if later or unjudged:
            self.position = (later or unjudged)[0]
        self._message = ""
        self._show()

    def _show(self) -> None:
        question, item = self.items[self.position]
        self.state = {
            "question": question, "id": item, "position": self.position, "total": len(self.items),
            "question_text": self.questions[question], "chunk_text": self.texts[item],
            "grade": self.store.grades.get((question, item)), "labelled": self.judged,
            "done": self.judged == len(self.items), "message": self._message,
        }
        self._message = ""

    def _on_message(self, _widget: Any, content: Mapping[str, Any], _buffers: Any) -> None:
        """An action from the page; one meant for another item than the one shown is ignored."""
        if (content.get("question"), content.get("id")) != self.items[self.position]:
            return
        action = content.get("action")
        if action == "grade" and content.get("grade") in GRADES:
            self.grade(int(content["grade"]))
        elif action == "skip":
            self.skip()
        elif action == "back":
            self.back()
        elif action == "none":
            self.no_answer()
