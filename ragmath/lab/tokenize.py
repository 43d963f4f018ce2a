"""Tokenizers for Chinese policy text, kept in a named registry so every run records its choice.

BM25 (``rank-bm25``) does no tokenization of its own: whatever list of tokens it is given is what
it matches. Plain ``jieba.cut`` splits ``INV-102`` into ``INV`` / ``-`` / ``102`` (so ``102`` then
matches any text that contains the number) and cuts ``上海市内交通`` as ``上海市`` / ``内`` / ``交通``
(so the query word ``市内`` never matches). The registry below makes that visible:

====================  =======================================================================
name                  what it does
====================  =======================================================================
``jieba``             (default) ID-preserving pre-tokenizer, then ``jieba.cut`` with the
                      workbook's user dictionary (``data/userdict.txt``) of domain terms
``jieba_search``      the same, but ``jieba.cut_for_search`` (also emits the sub-words of long
                      words: ``市内交通`` -> ``市内``, ``交通``, ``市内交通``)
``jieba_plain``       ``jieba.cut`` with no user dictionary and no ID protection (the pitfall)
``bigram``            overlapping character bigrams of each Chinese run; IDs and ASCII words whole
====================  =======================================================================

Every tokenizer lower-cases ASCII, applies NFKC (full-width -> half-width) and drops tokens made only
of whitespace or punctuation. jieba is initialised once per process, quietly, from the dictionary
that ships inside the jieba package; its cache lives in the system temp directory (never in the
repository) and nothing is downloaded.
"""

from __future__ import annotations

import logging
import re
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "ID_PATTERN",
    "Tokenizer",
    "TOKENIZERS",
    "available_tokenizers",
    "get_tokenizer",
    "userdict_path",
    "find_ids",
]

#: An identifier kept as one token: letters, optional digits, then ``-`` and a number, then more
#: ``-``/``.``-joined parts. Matches ``INV-102``, ``TRV26-4.2-a``; not ``4.2`` or ``P6``.
ID_PATTERN = re.compile(r"[A-Za-z]{2,}\d*-\d+(?:[.-][A-Za-z0-9]+)*")

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_ASCII_WORD = re.compile(r"[A-Za-z0-9]+(?:\.[0-9]+)?")

_LOCK = threading.Lock()
_JIEBA: dict[str, object] = {}


def userdict_path() -> Path:
    """Return the path of the workbook's jieba user dictionary (``data/userdict.txt``).

    >>> userdict_path().name
    'userdict.txt'
    """
    from ragmath.lab.paths import DATA_DIR

    return Path(DATA_DIR) / "userdict.txt"


def _normalise(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def _keep(token: str) -> bool:
    return any(ch.isalnum() for ch in token)


def find_ids(text: str) -> list[str]:
    """Return the identifiers (upper-cased) in ``text``, in order of appearance.

    >>> find_ids("INV-102 和 inv-103 能报多少, 见第 4.2 条")
    ['INV-102', 'INV-103']
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}: {text!r}")
    return [m.group(0).upper() for m in ID_PATTERN.finditer(_normalise(text))]


def _jieba(with_userdict: bool):
    """One jieba.Tokenizer per configuration, initialised quietly and only once per process."""
    key = "user" if with_userdict else "plain"
    with _LOCK:
        tk = _JIEBA.get(key)
        if tk is not None:
            return tk
        import jieba

        logger = logging.getLogger("jieba")
        old_level = logger.level
        logger.setLevel(logging.ERROR)  # jieba reports cache loading on stderr at DEBUG/INFO
        try:
            tk = jieba.Tokenizer()  # our own instance: the global jieba stays untouched
            tk.initialize()
            if with_userdict:
                path = userdict_path()
                if not path.is_file():
                    raise FileNotFoundError(
                        f"jieba user dictionary not found at {path}; it ships in the repository's "
                        "data/ folder (set RAGMATH_DATA to the folder that holds it)"
                    )
                tk.load_userdict(str(path))
        finally:
            logger.setLevel(old_level)
        _JIEBA[key] = tk
        return tk


def _split_ids(text: str, protect_ids: bool) -> list[tuple[str, bool]]:
    """Split text into (piece, is_id) parts; IDs become their own pieces."""
    if not protect_ids:
        return [(text, False)]
    parts: list[tuple[str, bool]] = []
    pos = 0
    for m in ID_PATTERN.finditer(text):
        if m.start() > pos:
            parts.append((text[pos : m.start()], False))
        parts.append((m.group(0), True))
        pos = m.end()
    if pos < len(text):
        parts.append((text[pos:], False))
    return parts


def _bigrams(piece: str) -> list[str]:
    out: list[str] = []
    pos = 0
    for m in _CJK.finditer(piece):
        out.extend(_ASCII_WORD.findall(piece[pos : m.start()]))
        run = m.group(0)
        if len(run) == 1:
            out.append(run)
        else:
            out.extend(run[i : i + 2] for i in range(len(run) - 1))
        pos = m.end()
    out.extend(_ASCII_WORD.findall(piece[pos:]))
    return out


@dataclass(frozen=True)
class Tokenizer:
    """A named tokenizer: ``tokenizer(text) -> list[str]``; ``name`` is what a run records."""

    name: str
    description: str
    _cut: Callable[[str], list[str]]
    protect_ids: bool = True

    def __call__(self, text: str) -> list[str]:
        """Tokenize ``text``; raises TypeError for a non-string.

        >>> get_tokenizer("jieba")("INV-102 能报多少")
        ['inv-102', '能报', '多少']
        """
        if not isinstance(text, str):
            raise TypeError(
                f"text must be a str, got {type(text).__name__}: {text!r}; join lists first"
            )
        tokens: list[str] = []
        for piece, is_id in _split_ids(_normalise(text), self.protect_ids):
            if is_id:
                tokens.append(piece.lower())
            else:
                tokens.extend(t.lower() for t in self._cut(piece) if _keep(t))
        return tokens


def _jieba_cut(piece: str) -> list[str]:
    return list(_jieba(True).cut(piece))


def _jieba_search(piece: str) -> list[str]:
    return list(_jieba(True).cut_for_search(piece))


def _jieba_plain(piece: str) -> list[str]:
    return list(_jieba(False).cut(piece))


#: The registry: name -> tokenizer. The description is meant to be printed beside results.
TOKENIZERS: dict[str, Tokenizer] = {
    "jieba": Tokenizer(
        "jieba", "jieba.cut + user dictionary (data/userdict.txt) + IDs kept whole", _jieba_cut
    ),
    "jieba_search": Tokenizer(
        "jieba_search",
        "jieba.cut_for_search + user dictionary + IDs kept whole (long words also as sub-words)",
        _jieba_search,
    ),
    "jieba_plain": Tokenizer(
        "jieba_plain", "jieba.cut, no user dictionary, IDs not protected (the pitfall)",
        _jieba_plain, protect_ids=False,
    ),
    "bigram": Tokenizer(
        "bigram", "overlapping character bigrams of Chinese runs; IDs and ASCII words whole",
        _bigrams,
    ),
}


def available_tokenizers() -> dict[str, str]:
    """Return ``{name: description}`` for every registered tokenizer.

    >>> sorted(available_tokenizers())
    ['bigram', 'jieba', 'jieba_plain', 'jieba_search']
    """
    return {name: tk.description for name, tk in TOKENIZERS.items()}


def get_tokenizer(name: str | Tokenizer = "jieba") -> Tokenizer:
    """Return the registered tokenizer called ``name`` (a Tokenizer passes through).

    Raises ValueError naming the unknown name and listing the known ones.

    >>> get_tokenizer("bigram")("市内交通超标")
    ['市内', '内交', '交通', '通超', '超标']
    """
    if isinstance(name, Tokenizer):
        return name
    if not isinstance(name, str):
        raise TypeError(f"tokenizer must be a name (str) or a Tokenizer, got {type(name).__name__}")
    try:
        return TOKENIZERS[name]
    except KeyError:
        raise ValueError(
            f"unknown tokenizer {name!r}; choose one of {sorted(TOKENIZERS)}"
        ) from None
