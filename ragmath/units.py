"""Evaluation units: score chunks, clauses or documents, with labels and results at one level.

The levels, finest first, are ``chunk`` < ``clause`` < ``document``. A chunk ranking maps up
(deduplicated, first occurrence kept) and chunk labels lift up (a unit takes its chunks' highest
grade); never down: a document label cannot say which chunk answers (:func:`check_levels`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from ragmath.validation import check_grades, check_ranking

__all__ = ["LEVELS", "dedupe", "to_units", "lift_labels", "check_levels", "to_level", "at_level",
           "check_unit_map"]

#: Evaluation levels, finest first.
LEVELS = ("chunk", "clause", "document")

#: The corpus column that names each level's unit.
LEVEL_COLUMNS = {"chunk": "chunk_id", "clause": "clause_id", "document": "doc_id"}


def dedupe(ranking: Iterable[Hashable]) -> list[Hashable]:
    """Drop repeated IDs, keeping each ID at its first (best) position; returns a new list.

    >>> dedupe(["TRV", "TRV", "HR", "TRV"])
    ['TRV', 'HR']

    Raises ``TypeError`` for a string instead of a sequence of IDs.
    """
    if isinstance(ranking, (str, bytes)):
        raise TypeError(f"dedupe needs a sequence of IDs, got the string {ranking!r}")
    return list(dict.fromkeys(ranking))  # a dict keeps the first insertion of each key, in order


def check_unit_map(unit_of: Mapping[Hashable, Hashable], name: str = "unit map",
                   lines: Mapping[Hashable, int] | None = None) -> None:
    """Refuse a unit map with a chain: an ID mapped to a unit that is itself mapped on to another one.

    IDs are mapped once, so in ``{"a1": "A", "A": "Z"}`` a1 would score as A and A's label would be
    lifted to Z: the same clause as two units, and a silent 0. The message follows the chain to its
    final unit and gives the rows that fix it (each ID mapped straight to that unit); ``lines`` (ID ->
    its line in the file read) names the lines. A loop (``A,B`` and ``B,A``) has no final unit and is
    refused as a loop. A unit mapped to itself is no chain.

    >>> check_unit_map({"a1": "A", "A": "Z"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unit map: a chain a1 -> A -> Z: 'a1' maps to 'A' and 'A' maps to 'Z'. ... a1,Z; A,Z ...
    """
    def mapped_on(item: Any) -> bool:
        """Whether ``item`` is an ID that the map sends to another unit (a link of a chain)."""
        return isinstance(item, Hashable) and item in unit_of and unit_of[item] != item

    heads = [item for item in unit_of if mapped_on(item) and mapped_on(unit_of[item])]
    if not heads:
        return
    units = set(unit_of.values())
    start = next((item for item in heads if item not in units), heads[0])  # where the chain begins
    path = [start]  # follow the chain to its final unit, or until it comes back (a loop)
    while mapped_on(path[-1]) and unit_of[path[-1]] not in path:
        path.append(unit_of[path[-1]])

    def said(items: list[Hashable]) -> str:
        rows = [f"line {lines[i]} maps {i!r} to {unit_of[i]!r}" if lines is not None and i in lines
                else f"{i!r} maps to {unit_of[i]!r}" for i in items]
        return rows[0] if len(rows) == 1 else ", ".join(rows[:-1]) + " and " + rows[-1]

    if mapped_on(path[-1]):  # it came back: a loop, which has no final unit
        loop = path[path.index(unit_of[path[-1]]):]
        shown = " -> ".join(str(item) for item in [*loop, loop[0]])
        raise ValueError(f"{name}: a loop {shown}: {said(loop)}, so there is no final unit; map each of "
                         f"these IDs to a unit that is not itself mapped")
    final, shown = path[-1], " -> ".join(str(item) for item in path)
    fixes = "; ".join((f"line {lines[i]}: " if lines is not None and i in lines else "") + f"{i},{final}"
                      for i in path[:-1])
    raise ValueError(f"{name}: a chain {shown}: {said(path[:-1])}. A unit map is applied once, so "
                     f"{start} would score as {path[1]} while {path[1]}'s label lifts to {path[2]}. Map "
                     f"each ID straight to its final unit: {fixes} (or give the unit {path[1]} a name no "
                     f"ID has)")


def to_units(
    ranking: Sequence[Hashable], mapping: Mapping[Hashable, Hashable], *, deduplicate: bool = True
) -> list[Hashable]:
    """Map a ranking of chunk IDs to unit IDs through ``mapping``, deduplicated by default.

    >>> to_units(["4.2-a", "4.2-b", "6.1"], {"4.2-a": "4.2", "4.2-b": "4.2", "6.1": "6.1"})
    ['4.2', '6.1']

    Raises ``ValueError`` naming the first chunk ID that ``mapping`` does not know.
    """
    chunks = check_ranking(ranking)
    unknown = [item for item in chunks if item not in mapping]
    if unknown:
        raise ValueError(
            f"to_units: IDs of the ranking not in the unit table: {len(unknown)}, first {unknown[0]!r}; "
            f"add them to the mapping (every retrievable chunk needs its clause and document)"
        )
    units = [mapping[item] for item in chunks]
    return dedupe(units) if deduplicate else units


def lift_labels(
    grades: Mapping[Hashable, float], mapping: Mapping[Hashable, Hashable]
) -> dict[Hashable, float]:
    """Labels at the units of ``mapping``: a chunk's label lifts to its unit (the unit takes the highest
    grade of its labelled chunks), and a label already on a unit stays as it is.

    >>> lift_labels({"4.2-a": 2, "4.2-b": 1, "6.1": 0}, {"4.2-a": "4.2", "4.2-b": "4.2", "6.1": "6"})
    {'4.2': 2, '6': 0}
    >>> lift_labels({"TRV": 2}, {"TRV-1": "TRV", "TRV-2": "TRV"})  # the annotator labelled the document
    {'TRV': 2}

    A labelled ID that ``mapping`` maps to itself (a row ``d1,d1``) is both, with the same result.
    Raises ``ValueError`` for a labelled ID that is neither mapped nor a unit, for one question whose
    labels mix the two levels (naming which IDs are which), and for a negative or NaN grade.
    """
    checked = check_grades(grades)
    units = set(mapping.values())
    unknown = [item for item in checked if item not in mapping and item not in units]
    if unknown:
        raise ValueError(f"lift_labels: labelled ID {unknown[0]!r} is neither in the unit table nor one of "
                         f"its units; add it")
    on_units = [item for item in checked if item not in mapping]
    on_chunks = [item for item in checked if item in mapping and mapping[item] != item]
    if on_units and on_chunks:
        raise ValueError(
            f"lift_labels: the labels mix two levels: {on_units!r} are units of the unit table, "
            f"{on_chunks!r} are IDs it maps to units; label one question at one level")
    lifted: dict[Hashable, float] = {}
    for item, grade in checked.items():
        unit = mapping.get(item, item)
        lifted[unit] = max(grade, lifted.get(unit, grade))
    return lifted


def check_levels(level: str, label_level: str) -> None:
    """Refuse to score at a level finer than the labels, explaining why.

    >>> check_levels("document", "chunk")
    >>> check_levels("chunk", "document")
    Traceback (most recent call last):
    ...
    ValueError: cannot score at chunk level with document-level labels: ...
    """
    for name, value in (("level", level), ("label_level", label_level)):
        if value not in LEVELS:
            raise ValueError(f"unknown unit {name} {value!r}; choose one of {LEVELS}")
    if LEVELS.index(level) < LEVELS.index(label_level):
        raise ValueError(
            f"cannot score at {level} level with {label_level}-level labels: a {label_level} label does "
            f"not say which {level} answers (a label on the whole Travel Expense Policy cannot tell "
            f"chunk 4.2-a, the 80-yuan limit, from chunk 1.1). Label at {level} level, or score at "
            f"{label_level} level or coarser"
        )


def to_level(ranking: Sequence[Hashable], level: str, corpus: Any) -> list[Hashable]:
    """Map a ranking of chunk IDs to ``level`` ("chunk", "clause" or "document"), deduplicated.

    ``corpus`` is a table with the columns ``chunk_id``, ``clause_id`` and ``doc_id`` (the rows of
    ``load_corpus()``); each unit keeps its first (best) rank.

    >>> import pandas as pd
    >>> corpus = pd.DataFrame({"chunk_id": ["4.2-a", "4.2-b", "6.1"], "clause_id": ["4.2", "4.2", "6.1"],
    ...                        "doc_id": ["TRV", "TRV", "TRV"]})
    >>> to_level(["4.2-b", "4.2-a", "6.1"], "clause", corpus)
    ['4.2', '6.1']

    Raises ``ValueError`` for an unknown level, a missing column, a chunk listed twice in the corpus
    or a chunk ID it lacks.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of {LEVELS}")
    column = LEVEL_COLUMNS[level]
    missing = [name for name in ("chunk_id", column) if name not in getattr(corpus, "columns", ())]
    if missing:
        raise ValueError(f"the corpus table has no column {missing[0]!r}; pass the rows of load_corpus()")
    mapping = dict(zip(corpus["chunk_id"], corpus[column], strict=True))
    if len(mapping) != len(corpus):
        twice = next(c for c, n in Counter(corpus["chunk_id"]).items() if n > 1)
        raise ValueError(f"chunk ID {twice!r} appears twice in the corpus table; list each chunk once")
    return to_units(ranking, mapping)


def at_level(
    ranking: Sequence[Hashable],
    grades: Mapping[Hashable, float],
    level: str,
    corpus: Any,
    *,
    label_level: str = "chunk",
) -> tuple[list[Hashable], dict[Hashable, float]]:
    """Put a chunk ranking and its labels at one evaluation ``level``: ``(ranking, grades)``.

    The ranking is mapped and deduplicated (:func:`to_level`); labels given at ``label_level`` are
    lifted, each unit taking the highest grade of what it contains (:func:`lift_labels`).

    >>> import pandas as pd
    >>> corpus = pd.DataFrame({"chunk_id": ["4.2-a", "4.2-b", "6.1"], "clause_id": ["4.2", "4.2", "6.1"],
    ...                        "doc_id": ["TRV", "TRV", "TRV"]})
    >>> at_level(["4.2-b", "6.1"], {"4.2-a": 2}, "clause", corpus)
    (['4.2', '6.1'], {'4.2': 2})

    Raises ``ValueError`` when ``level`` is finer than ``label_level`` (a document label cannot say
    which chunk answers; see :func:`check_levels`), and as :func:`to_level` does.
    """
    check_levels(level, label_level)
    mapped = to_level(ranking, level, corpus)
    if label_level == level:
        return mapped, check_grades(grades)
    up = dict(zip(corpus[LEVEL_COLUMNS[label_level]], corpus[LEVEL_COLUMNS[level]], strict=True))
    return mapped, lift_labels(grades, up)
