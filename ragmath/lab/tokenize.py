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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "ID_PATTERN",
    "Tokenizer",
    "TOKENIZERS",
    "available_tokenizers",
    "get_tokenizer",
    "userdict_path",
    "find_ids",
    "segment_table",
    "shared_tokens",
    "userdict_entries",
    "userdict_table",
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
                    raise FileNotFoundError(f"jieba user dictionary not found at {path}; it ships in the "
                                            "repository's data/ folder (set RAGMATH_DATA to the folder that "
                                            "holds it)")
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
            raise TypeError(f"text must be a str, got {type(text).__name__}: {text!r}; join lists first")
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
        raise ValueError(f"unknown tokenizer {name!r}; choose one of {sorted(TOKENIZERS)}") from None


# ---- the tokenizers side by side (notebook 06a, section 3: Chinese tokenization) ---------------

def segment_table(texts: Sequence[str] | Mapping[str, str],
                  tokenizers: Sequence[str] = ("jieba_plain", "jieba_search", "jieba", "bigram")) -> Any:
    """How each tokenizer cuts each text: a DataFrame (rows: texts, columns: tokenizers), tokens
    joined by " / ". ``texts`` may map a label to each text.

    >>> segment_table(["市内交通"], ["jieba", "bigram"]).iloc[0].tolist()
    ['市内交通', '市内 / 内交 / 交通']
    """
    import pandas as pd

    labelled = dict(texts) if isinstance(texts, Mapping) else {t: t for t in texts}
    rows = {label: {name: " / ".join(get_tokenizer(name)(text)) for name in tokenizers}
            for label, text in labelled.items()}
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "text"
    return table


def shared_tokens(query: str, text: str, tokenizer: str | Tokenizer = "jieba") -> list[str]:
    """The tokens ``query`` and ``text`` share under ``tokenizer``, in the query's order (once each).

    These are the only terms BM25 can match on.

    >>> shared_tokens("市内交通费用超出标准", "上海市内交通每次 80 元", "jieba_plain")
    ['交通']
    >>> shared_tokens("市内交通费用超出标准", "上海市内交通每次 80 元", "jieba")
    ['市内交通']
    """
    tk = get_tokenizer(tokenizer)
    in_text = set(tk(text))
    out: list[str] = []
    for token in tk(query):
        if token in in_text and token not in out:
            out.append(token)
    return out


def userdict_entries(path: str | Path | None = None) -> list[tuple[str, int, str]]:
    """The user dictionary's entries as (word, frequency, part-of-speech tag), in file order.

    >>> userdict_entries()[0]
    ('市内交通', 20000, 'n')

    Raises ValueError naming the line of an entry that is not ``word [freq] [tag]``.
    """
    path = Path(path) if path is not None else userdict_path()
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) > 3 or (len(parts) >= 2 and not parts[1].isdigit()):
            raise ValueError(f"{path.name} line {number}: expected 'word [freq] [tag]', got {line!r}")
        out.append((parts[0], int(parts[1]) if len(parts) >= 2 else 0,
                    parts[2] if len(parts) == 3 else ""))
    return out


def _plain_cut_around(text: str, word: str) -> str:
    """Plain jieba's tokens that overlap the first occurrence of ``word`` in ``text``."""
    start = text.index(word)
    end = start + len(word)
    pieces = [w for w, s, e in _jieba(False).tokenize(text) if s < end and e > start]
    return " / ".join(pieces)


def userdict_table(texts: Sequence[str]) -> Any:
    """Every user-dictionary entry with what it does on ``texts`` (e.g. the chunks and questions).

    Columns: ``freq``, ``tag``; ``texts holding it``; ``texts where the entry changes the cut``
    (the word is a token of jieba with the dictionary but not of plain jieba on the same text);
    ``plain jieba cuts it as``: plain jieba's tokens over the word, in the first text where the
    entry changes the cut (else in the word alone).
    """
    import pandas as pd

    texts = [_normalise(t) for t in texts]
    user, plain = _jieba(True), _jieba(False)
    rows = {}
    for word, freq, tag in userdict_entries():
        holding = [t for t in texts if word in t]
        changed = [t for t in holding if word in user.lcut(t) and word not in plain.lcut(t)]
        where = changed[0] if changed else word
        rows[word] = {"freq": freq, "tag": tag, "texts holding it": len(holding),
                      "texts where the entry changes the cut": len(changed),
                      "plain jieba cuts it as": _plain_cut_around(where, word)}
    table = pd.DataFrame.from_dict(rows, orient="index")
    table.index.name = "entry"
    return table
