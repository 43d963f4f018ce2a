"""The index as of a date, and the permission filter applied before any ranking.

Two questions decide which chunks a retriever may ever see:

1. **Which editions are in the index on the snapshot date?** ``editions="live"`` keeps the chunks
   in force that day (``effective_from <= as_of < effective_to``; an open ``effective_to`` never
   ends). ``editions="published"`` keeps every chunk published by that day
   (``published_on <= as_of``), superseded or not yet in force — what a messy real index holds,
   e.g. the 2025 and the 2026 travel policy side by side.
2. **Who is asking?** A chunk is readable by an identity when one of the chunk's ``readers`` is
   among the identity's roles (``identities.csv``). :meth:`Snapshot.for_identity` removes every
   other chunk, so a retriever built on the result never holds a chunk the identity may not read.

>>> from ragmath.lab.corpus import load_corpus
>>> snap = build_index(load_corpus(), as_of="2026-06-30", editions="live")
>>> "TRV25-4.2-a" in snap.chunk_ids, "TRV26-4.2-a" in snap.chunk_ids
(False, True)
>>> view = snap.for_identity("p6_employee")
>>> "APR26-2" in snap.chunk_ids, "APR26-2" in view.chunk_ids
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import pandas as pd

from ragmath.lab.corpus import load_config, load_corpus, load_identities, parse_date

__all__ = [
    "EDITION_MODES",
    "Snapshot",
    "build_index",
    "can_read",
    "in_index",
    "permission_filter",
    "readable_by",
    "roles_of",
]

#: ``live``: in force on the date; ``published``: every edition published by the date.
EDITION_MODES: tuple[str, ...] = ("live", "published")

Identity = str | Iterable[str]


def roles_of(
    identity: Identity, identities: pd.DataFrame | Mapping[str, Any] | None = None
) -> frozenset[str]:
    """Return the roles of ``identity``: an identity name, or an explicit collection of roles.

    >>> sorted(roles_of("finance_officer"))
    ['employee', 'finance']
    >>> sorted(roles_of({"employee"}))
    ['employee']

    ``identities`` defaults to ``identities.csv`` (a DataFrame from ``load_identities`` or a
    mapping name -> roles also works). Raises ``ValueError`` for an unknown name or no roles.
    """
    if isinstance(identity, str):
        if identities is None:
            identities = load_identities()
        if isinstance(identities, pd.DataFrame):
            table = identities["roles"].to_dict()
        elif isinstance(identities, Mapping):
            table = {name: tuple(roles) for name, roles in identities.items()}
        else:
            raise TypeError("identities must be load_identities()'s DataFrame or a mapping name -> roles, "
                            f"got {type(identities).__name__}")
        if identity not in table:
            raise ValueError(f"identity {identity!r} is unknown; known identities: {sorted(table)} (or pass "
                             "the roles themselves, e.g. {'employee'})")
        return frozenset(table[identity])
    if not isinstance(identity, Iterable):
        raise TypeError("identity must be an identity name (str) or a collection of role names, got "
                        f"{type(identity).__name__}")
    roles = frozenset(identity)
    if not roles or not all(isinstance(r, str) and r for r in roles):
        raise ValueError(f"identity: a collection of roles must hold role names, got {identity!r}")
    return roles


def can_read(readers: Iterable[str], roles: Iterable[str]) -> bool:
    """Return True when any of a chunk's ``readers`` is one of ``roles``.

    >>> can_read(("finance",), {"employee"}), can_read(("employee",), {"employee", "finance"})
    (False, True)
    """
    return not set(readers).isdisjoint(roles)


def in_index(corpus: pd.DataFrame, as_of: date | str, editions: str = "live") -> pd.Series:
    """Return a boolean Series: which corpus rows are in the index on ``as_of``.

    >>> corpus = pd.DataFrame({"chunk_id": ["old", "new", "future"],
    ...                        "effective_from": ["2025-01-01", "2026-01-01", "2026-07-01"],
    ...                        "effective_to": ["2026-01-01", None, None],
    ...                        "published_on": ["2024-12-01", "2025-12-01", "2026-06-20"]})
    >>> in_index(corpus, "2026-06-30").tolist(), in_index(corpus, "2026-06-30", "published").tolist()
    ([False, True, False], [True, True, True])

    Raises ``ValueError`` for an unknown ``editions`` mode or a bad date.
    """
    day = parse_date(as_of, "as_of")
    if editions not in EDITION_MODES:
        raise ValueError(f"editions must be one of {list(EDITION_MODES)}, got {editions!r}")
    for column in ("effective_from", "effective_to"):
        if column not in corpus.columns:
            raise ValueError(f"corpus has no {column!r} column; pass the rows of load_corpus()")
    start = corpus["effective_from"].map(lambda d: parse_date(d, "effective_from"))
    if editions == "published":
        published = corpus["published_on"] if "published_on" in corpus.columns else start
        published = published.where(published.notna(), start)
        return published.map(lambda d: parse_date(d, "published_on") <= day).astype(bool)
    end = corpus["effective_to"].map(
        lambda d: None if d is None or (isinstance(d, float) and d != d) else parse_date(d, "effective_to")
    )
    started = start.map(lambda d: d <= day)
    not_ended = end.map(lambda d: d is None or day < d)
    return (started & not_ended).astype(bool)


@dataclass(frozen=True)
class Snapshot:
    """The chunks in the index on one date, optionally restricted to what one identity may read.

    ``chunks`` returns a copy in corpus order; build retrievers on :meth:`for_identity`'s chunks.
    """

    as_of: date
    editions: str
    _chunks: pd.DataFrame = field(repr=False)
    identity: str | None = None
    roles: frozenset[str] | None = None

    @property
    def chunks(self) -> pd.DataFrame:
        """The chunks in this snapshot (a fresh copy, corpus order, index 0..n-1)."""
        return self._chunks.copy()

    @property
    def chunk_ids(self) -> tuple[str, ...]:
        """The chunk IDs in this snapshot, corpus order."""
        return tuple(self._chunks["chunk_id"])

    def __len__(self) -> int:
        return len(self._chunks)

    def __contains__(self, chunk_id: object) -> bool:
        return chunk_id in set(self._chunks["chunk_id"])

    def for_identity(
        self, identity: Identity, identities: pd.DataFrame | Mapping[str, Any] | None = None
    ) -> Snapshot:
        """Return the snapshot restricted to chunks ``identity`` may read (the permission filter).

        >>> corpus = load_corpus()
        >>> snap = build_index(corpus, "2026-06-30")
        >>> live = in_index(corpus, "2026-06-30")
        >>> finance_only = int((live & corpus["readers"].map(lambda r: "employee" not in r)).sum())
        >>> len(snap.for_identity("finance_officer")) - len(snap.for_identity("p6_employee")) == finance_only
        True

        Raises ``ValueError`` if this snapshot is already filtered for an identity.
        """
        if self.roles is not None:
            raise ValueError(f"this snapshot is already filtered for {self.identity or sorted(self.roles)}; "
                             "call for_identity on the unfiltered snapshot from build_index")
        roles = roles_of(identity, identities)
        kept = _filter_frame(self._chunks, roles)
        name = identity if isinstance(identity, str) else None
        return Snapshot(self.as_of, self.editions, kept, name, roles)

    def describe(self) -> dict[str, Any]:
        """Return the snapshot's configuration for a run record (date, mode, identity, sizes).

        >>> corpus = load_corpus()
        >>> snap = build_index(corpus, "2026-06-30")
        >>> snap.describe()["n_chunks"] == int(in_index(corpus, "2026-06-30").sum())
        True
        """
        return {
            "as_of": self.as_of.isoformat(),
            "editions": self.editions,
            "identity": self.identity,
            "roles": sorted(self.roles) if self.roles is not None else None,
            "n_chunks": len(self._chunks),
            "documents": sorted(set(self._chunks["doc_id"])),
        }


def build_index(
    corpus: pd.DataFrame | None = None,
    as_of: date | str | None = None,
    editions: str = "live",
) -> Snapshot:
    """Return the :class:`Snapshot` of ``corpus`` on ``as_of`` (default: config's snapshot_date).

    >>> snap = build_index(load_corpus(), "2026-06-30", editions="published")
    >>> "TRV25-4.2-a" in snap and "MTG26-2" in snap
    True

    The corpus is not modified. Raises ``ValueError`` for a bad date or editions mode, or when no
    chunk is in the index on that date.
    """
    corpus = load_corpus() if corpus is None else corpus
    day = parse_date(load_config()["snapshot_date"] if as_of is None else as_of, "as_of")
    mask = in_index(corpus, day, editions)
    if not mask.any():
        raise ValueError(f"no chunk is in the index on {day.isoformat()} with editions={editions!r}; the "
                         f"corpus starts on {min(corpus['effective_from']).isoformat()}")
    return Snapshot(day, editions, corpus.loc[mask].reset_index(drop=True).copy())


def _filter_frame(chunks: pd.DataFrame, roles: frozenset[str]) -> pd.DataFrame:
    if "readers" not in chunks.columns:
        raise ValueError("chunks has no 'readers' column; pass rows of load_corpus()")
    mask = chunks["readers"].map(lambda readers: can_read(readers, roles)).astype(bool)
    return chunks.loc[mask].reset_index(drop=True).copy()


def readable_by(
    identity: Identity,
    corpus: pd.DataFrame | None = None,
    *,
    identities: pd.DataFrame | Mapping[str, Any] | None = None,
) -> frozenset[str]:
    """Return the IDs of the chunks in ``corpus`` (default: the whole corpus) ``identity`` may read.

    >>> ids = readable_by("p6_employee")
    >>> "INV-124" in ids, "INV-125" in ids
    (True, False)
    """
    corpus = load_corpus() if corpus is None else corpus
    roles = roles_of(identity, identities)
    return frozenset(_filter_frame(corpus, roles)["chunk_id"])


def permission_filter(
    chunks: pd.DataFrame | Iterable[str],
    identity: Identity,
    *,
    corpus: pd.DataFrame | None = None,
    identities: pd.DataFrame | Mapping[str, Any] | None = None,
) -> pd.DataFrame | list[str]:
    """Drop what ``identity`` may not read: DataFrame rows, or chunk IDs (order kept).

    >>> permission_filter(["INV-126", "INV-102", "APR26-2"], "p6_employee")
    ['INV-102']

    For IDs, readers are looked up in ``corpus`` (default: the whole corpus); an ID the corpus
    lacks raises ``ValueError``. Inputs are not modified.
    """
    roles = roles_of(identity, identities)
    if isinstance(chunks, pd.DataFrame):
        return _filter_frame(chunks, roles)
    if isinstance(chunks, str):
        raise TypeError(f"chunks must be a DataFrame or a list of chunk IDs, got the string {chunks!r}")
    corpus = load_corpus() if corpus is None else corpus
    readers = dict(zip(corpus["chunk_id"], corpus["readers"], strict=True))
    ids = list(chunks)
    for chunk_id in ids:
        if chunk_id not in readers:
            raise ValueError(f"chunks: unknown chunk ID {chunk_id!r}; it is not in the corpus")
    return [chunk_id for chunk_id in ids if can_read(readers[chunk_id], roles)]
