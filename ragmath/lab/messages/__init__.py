"""The workbook's message catalogue: every sentence it says to a reader, in English and in Chinese.

One mapping ``{"en": ..., "zh": ...}`` per message key, kept in one module per part of the workbook
(``notebook``, ``explorer``, ``columns``, ...) and merged here: what the package itself shows (widgets,
charts, table headers, the notebook helpers' errors and verdicts); a notebook's code cells print their own
words. A mapping, not ``gettext``: the two languages sit side by side where a reviewer reads them, nothing
is compiled (no ``.mo`` files), and a test checks each key (both languages, the same ``{fields}`` in each).

The language is chosen once per notebook, in its first code cell (``use_language("zh")``); English is
the default. The core (``ragmath``) never imports this package: its errors and the command line stay
English, as do the errors of the toy pipeline (``ragmath/lab/*.py``, ``ragmath/lab/ablation/``). The
core's tables keep their English column names in code; in a notebook that chose Chinese, every table is
displayed with Chinese headers beside those names (:func:`reader_headers`, words in ``columns``).

>>> use_language("zh"); message("explorer.table.tied")
'并列'
>>> use_language("en"); message("explorer.table.tied")
'tied'
"""

from __future__ import annotations

import copy
import re
import string
import sys
from collections.abc import Mapping

import numpy as np
import pandas as pd

from ragmath.lab.messages import (
    columns,
    common,
    exercises,
    explorer,
    notebook,
    values,
)

__all__ = ["LANGUAGES", "CATALOGUE", "use_language", "language", "message", "reader_columns",
           "reader_headers", "reader_value", "reader_values", "reader_lists", "fields_of"]

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
    common, notebook, exercises, explorer, columns, values)


def use_language(code: str) -> None:
    """Choose the language of everything the workbook says from now on (``"en"`` or ``"zh"``).

    Raises ``ValueError`` for any other code.
    """
    global _language
    if code not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {code!r}")
    _language = code
    _display_tables_in(code)


def language() -> str:
    """The language chosen by :func:`use_language` (``"en"`` until one is chosen)."""
    return _language


def message(key: str, /, **fields: object) -> str:
    """The message ``key`` in the chosen language, its ``{fields}`` filled from ``fields``.

    Raises ``KeyError`` naming the key when the catalogue has no such message, and ``KeyError``
    naming the field when a field the template needs is not given.

    >>> use_language("en"); message("explorer.table.rank", name="BM25")
    'BM25 rank'
    """
    try:
        texts = CATALOGUE[key]
    except KeyError:
        raise KeyError(f"no message {key!r} in ragmath.lab.messages; add it to the part it belongs to")\
            from None
    return texts[_language].format(**fields)


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


def _template_pattern(template: str) -> re.Pattern[str]:
    """A header template (``best {metric} at each value``) as a pattern whose groups are its fields."""
    parts = [re.escape(literal) + (f"(?P<{name}>.+?)" if name else "")
             for literal, name, _, _ in string.Formatter().parse(template)]
    return re.compile("".join(parts))


def _templates(part: str) -> list[tuple[re.Pattern[str], str]]:
    """The words of a part (``columns`` or ``values``) that are templates, as (pattern, key), longest first
    (a longer one is tried before a shorter it contains)."""
    keys = [key for key in CATALOGUE if key.startswith(part + ".") and fields_of(CATALOGUE[key]["en"])]
    keys.sort(key=lambda key: -len(CATALOGUE[key]["en"]))
    return [(_template_pattern(CATALOGUE[key]["en"]), key) for key in keys]


_TEMPLATES = {part: _templates(part) for part in ("columns", "values")}


def _word_key(part: str, text: str) -> tuple[str, dict[str, str]] | None:
    """The key of the word of ``text`` in ``part`` and the fields the text fills, or None when it has none."""
    key = f"{part}.{text}"
    if key in CATALOGUE and not fields_of(CATALOGUE[key]["en"]):
        return key, {}
    for pattern, key in _TEMPLATES[part]:
        found = pattern.fullmatch(text)
        if found:
            return key, found.groupdict()
    return None


def _value_word(value: str) -> str | None:
    """The Chinese word of a value of the ``values`` part, or None when it has none."""
    found = _word_key("values", value)
    if found is None:
        return None
    key, fields = found
    separator = message("common.list_separator")
    fields = {name: text.replace(", ", separator) if name in values.LIST_FIELDS else text
              for name, text in fields.items()}
    return CATALOGUE[key]["zh"].format(**fields)


def _header(label: object) -> object:
    """The header a reader sees for one label: in Chinese, the word and the label (``columns.HEADER``),
    when the catalogue has a word for it (a column word, or a value's word for the values that head a
    crosstab's columns: identities, splits, question types); otherwise the label itself."""
    if _language == "en" or not isinstance(label, str):
        return label
    found = _word_key("columns", label)
    if found is not None:
        return columns.HEADER.format(word=message(found[0], **found[1]), name=label)
    if label in values.AS_HEADERS:
        return columns.HEADER.format(word=_value_word(label), name=label)
    return label


def reader_value(value: object) -> object:
    """A value as a reader reads it: in Chinese, a boolean is 是 or 否 and a value the ``values`` part
    has a word for (a question type, an identity, a caveat, a rate...) is that word; anything else, and
    everything in English, is returned as it is.

    >>> reader_value("conflict"), reader_value(True), reader_value("Recall@5")
    ('conflict', True, 'Recall@5')
    >>> use_language("zh"); [reader_value(v) for v in ("conflict", True, "memory (M = 5)", "Recall@5")]
    ['冲突题', '是', '记忆特征（M = 5）', 'Recall@5']
    >>> use_language("en")
    """
    if _language == "en":
        return value
    if isinstance(value, (bool, np.bool_)):
        return message("values.bool.true") if value else message("values.bool.false")
    if isinstance(value, str):
        word = _value_word(value)
        return value if word is None else word
    return value


def reader_lists(lists: Mapping[str, object]) -> Mapping[str, object]:
    """Named ranked lists with their names in the reader's language: in English ``lists`` itself; in
    Chinese a new dict (same order, same lists) whose names the catalogue has a word for (``lists.NAME``)
    read that word. BM25 and other names stay as they are.

    >>> lists = {"BM25": ["4.2"], "vector": ["5.3"]}
    >>> reader_lists(lists) is lists
    True
    >>> use_language("zh"); reader_lists(lists)
    {'BM25': ['4.2'], '向量': ['5.3']}
    >>> use_language("en")
    """
    if _language == "en":
        return lists
    return {(message(f"lists.{name}") if f"lists.{name}" in CATALOGUE else name): ranked
            for name, ranked in lists.items()}


def _is_styler(table: object) -> bool:
    """Whether ``table`` is a pandas Styler (which exists only once pandas.io.formats.style, needing jinja2,
    is imported: looked up, not imported)."""
    styler = getattr(sys.modules.get("pandas.io.formats.style"), "Styler", None)
    return styler is not None and isinstance(table, styler)


def _is_text(column: pd.Series) -> bool:
    return column.dtype == object or pd.api.types.is_string_dtype(column.dtype)


def reader_values(table):
    """A table as a Chinese reader reads its data: a copy whose cells and row labels go through
    :func:`reader_value` (booleans 是/否, the data's codes and the package's phrases in Chinese);
    numbers, names and IDs stay. A ``Styler`` is copied with those words as the formats of the columns
    (and row labels) that hold any, its other formats kept. In English, the table itself.

    >>> table = pd.DataFrame({"type": ["conflict"], "default": [True]}, index=["inside"])
    >>> use_language("zh"); shown = reader_values(table); use_language("en")
    >>> shown.to_dict("split")["data"], list(shown.index), table.loc["inside", "type"]
    ([['冲突题', '是']], ['在网格内部'], 'conflict')
    """
    if _language == "en":
        return table
    if not isinstance(table, pd.DataFrame):
        return _styler_values(table)
    parts = [table.iloc[:, position] for position in range(table.shape[1])]
    parts = [part.astype(object).map(reader_value) if part.dtype == bool or _is_text(part) else part
             for part in parts]
    shown = pd.concat(parts, axis=1) if parts else table.copy()
    shown.columns = table.columns
    if isinstance(shown.index, pd.MultiIndex):
        shown.index = pd.MultiIndex.from_tuples([tuple(reader_value(v) for v in row) for row in shown.index],
                                                names=shown.index.names)
    elif shown.index.name not in values.NAMES_AS_LABELS:
        shown.index = pd.Index([reader_value(v) for v in shown.index], name=shown.index.name)
    return shown


def _is_word(value: object) -> bool:
    return isinstance(value, (bool, np.bool_)) or (isinstance(value, str) and reader_value(value) != value)


def _styler_values(table):
    """A Styler's copy whose columns and row labels holding words show them through :func:`reader_value`."""
    if not _is_styler(table):
        return table
    data = table.data
    worded = [column for column in data.columns if any(_is_word(v) for v in data[column])]
    labels = any(_is_word(v) for v in data.index)
    if not worded and not labels:
        return table
    shown = copy.deepcopy(table)  # its styles and formats; the data shared, not changed
    if worded:
        shown = shown.format(reader_value, subset=worded)
    if labels:
        shown = shown.format_index(reader_value, axis=0)
    return shown


def reader_headers(table):
    """A table (a pandas ``DataFrame`` or its ``Styler``) as a reader sees it: in English the table itself;
    in Chinese a copy whose column headers and index names (every level) read "中文（name）", the name
    being the one the code uses. Labels the catalogue has no word for, and row labels (data), are left as
    they are; the table given is not changed.

    >>> table = pd.DataFrame({"mean": [0.5], "Recall@5": [0.4]}, index=pd.Index(["A"], name="version"))
    >>> reader_headers(table) is table
    True
    >>> use_language("zh"); shown = reader_headers(table); use_language("en")
    >>> list(shown.columns), shown.index.name, list(table.columns)
    (['均值（mean）', 'Recall@5'], '版本（version）', ['mean', 'Recall@5'])

    Raises ``TypeError`` for anything but a DataFrame or a Styler.
    """
    if not isinstance(table, pd.DataFrame) and not _is_styler(table):
        raise TypeError(f"reader_headers takes a pandas DataFrame or Styler, got {type(table).__name__}")
    if _language == "en":
        return table
    if isinstance(table, pd.DataFrame):
        return table.rename(columns=_header).rename_axis(index=_header, columns=_header)
    # a Styler formats its headers when it is rendered: the words are looked up now, in this language
    data = table.data
    labels = {*(part for label in data.columns for part in (label if isinstance(label, tuple) else (label,))),
              *data.index.names, *data.columns.names}
    words = {label: _header(label) for label in labels if isinstance(label, str)}

    def shown_as(label: object) -> object:
        return words.get(label, label) if isinstance(label, str) else label

    shown = copy.deepcopy(table)  # the Styler's own styles and formats, its data shared (not changed)
    return (shown.format_index(shown_as, axis=1).format_index_names(shown_as, axis=0)
            .format_index_names(shown_as, axis=1))


def _display_tables_in(code: str) -> None:
    """In a notebook (an IPython shell), display every DataFrame and Styler through :func:`reader_headers`
    when ``code`` is Chinese, and as pandas does when it is English; outside IPython, do nothing."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return
    html = shell.display_formatter.formatters["text/html"]
    plain = shell.display_formatter.formatters["text/plain"]
    if code == "en":
        for formatter in (html, plain):
            formatter.pop(pd.DataFrame, None)
            formatter.pop("pandas.io.formats.style.Styler", None)
        return
    def as_html(table) -> str | None:
        return reader_headers(reader_values(table))._repr_html_()

    html.for_type(pd.DataFrame, as_html)
    html.for_type_by_name("pandas.io.formats.style", "Styler", as_html)
    def as_text(table, printer, cycle) -> None:
        with pd.option_context("display.unicode.east_asian_width", True):  # Chinese glyphs are two wide
            printer.text(repr(reader_headers(reader_values(table))))

    plain.for_type(pd.DataFrame, as_text)
