"""The workbook's message catalogue: every sentence it says to a reader, in English and in Chinese.

One small mapping per message key, ``{"en": ..., "zh": ...}``, kept in one module per part of the
workbook (``readings``, ``notebook``, ``explorer``, ...) and merged here. A mapping, not the standard
library's ``gettext``: the two languages sit side by side where a reviewer reads them, nothing is
compiled (gettext needs ``.mo`` files built by ``msgfmt`` or Babel), and a test can check each key at
import time (both languages present, the same ``{fields}`` in each).

The language is chosen once per notebook, in its first code cell (``use_language("zh")``); English is
the default. The core (``ragmath``) never imports this package: its errors and the command line stay
English.

>>> use_language("zh"); message("common.not_available")
'无'
>>> use_language("en"); message("common.not_available")
'n/a'
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping

from ragmath.lab.messages import (
    cells,
    common,
    exercises,
    explorer,
    notebook,
    pipeline,
    readings,
    readings_late,
)

__all__ = ["LANGUAGES", "CATALOGUE", "use_language", "language", "message", "join_names", "reader_columns",
           "fields_of"]

#: The languages every key must have; the first is the default.
LANGUAGES = ("en", "zh")

_language = LANGUAGES[0]


def fields_of(template: str) -> frozenset[str]:
    """The names of the ``{fields}`` a template fills (format specs and conversions left out).

    >>> sorted(fields_of("{n} of {total:.1f}"))
    ['n', 'total']
    """
    return frozenset(name.split(".")[0].split("[")[0]
                     for _, name, _, _ in string.Formatter().parse(template) if name)


def _merge(*parts) -> dict[str, Mapping[str, str]]:
    merged: dict[str, Mapping[str, str]] = {}
    for part in parts:
        for key, texts in part.MESSAGES.items():
            if key in merged:
                raise ValueError(f"message key {key!r} is defined twice (again in {part.__name__})")
            merged[key] = texts
    return merged


#: Every message: key -> {language: template}, from the catalogue's parts (one module each).
CATALOGUE: dict[str, Mapping[str, str]] = _merge(
    common, readings, readings_late, notebook, exercises, explorer, pipeline, cells)


def use_language(code: str) -> None:
    """Choose the language of everything the workbook says from now on (``"en"`` or ``"zh"``).

    Raises ``ValueError`` for any other code.
    """
    global _language
    if code not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {code!r}")
    _language = code


def language() -> str:
    """The language chosen by :func:`use_language` (``"en"`` until one is chosen)."""
    return _language


def message(key: str, /, **fields: object) -> str:
    """The message ``key`` in the chosen language, its ``{fields}`` filled from ``fields``.

    Raises ``KeyError`` naming the key when the catalogue has no such message, and ``KeyError``
    naming the field when a field the template needs is not given.

    >>> use_language("en"); message("common.of", part=3, whole=7)
    '3 of 7'
    """
    try:
        texts = CATALOGUE[key]
    except KeyError:
        raise KeyError(f"no message {key!r} in ragmath.lab.messages; add it to the part it belongs to")\
            from None
    return texts[_language].format(**fields)


def join_names(names: Iterable[object]) -> str:
    """Names joined as a sentence lists them: "A, B and C" in English, "A、B 和 C" in Chinese.

    >>> use_language("en"); join_names(["A", "B", "C"])
    'A, B and C'
    >>> use_language("zh"); join_names(["A", "B", "C"]); use_language("en")
    'A、B 和 C'
    """
    names = [str(name) for name in names]
    if len(names) <= 1:
        return "".join(names)
    head = message("common.list_separator").join(names[:-1])
    return message("common.join_names", head=head, last=names[-1])


def reader_columns(*columns: str) -> list[str]:
    """The data columns to show a reader: the corpus's ``gloss`` (an English gloss of the Chinese text) is for
    English readers; in Chinese the text itself stands in for it, or the gloss is left out beside it.

    >>> use_language("en"); reader_columns("chunk_id", "text", "gloss"), reader_columns("gloss")
    (['chunk_id', 'text', 'gloss'], ['gloss'])
    >>> use_language("zh"); reader_columns("chunk_id", "text", "gloss"), reader_columns("gloss")
    (['chunk_id', 'text'], ['text'])
    >>> use_language("en")
    """
    if _language == "en":
        return list(columns)
    shown: list[str] = []
    for column in columns:
        column = "text" if column == "gloss" else column
        if column not in shown:
            shown.append(column)
    return shown
