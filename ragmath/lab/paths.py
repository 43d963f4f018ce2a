"""Where ragmath finds the workbook's data files (the toy corpus, questions and labels).

The data lives in the repository's ``data/`` folder, next to the ``ragmath/`` package: a checkout
(or an editable install, ``make lab``) finds it there. A wheel (``pip install ragmath``) carries the
metrics, the file formats and the command line, not the workbook's data; point ragmath at a copy
of the folder with the ``RAGMATH_DATA`` environment variable.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["DATA_DIR", "data_dir"]

#: The data folder: ``$RAGMATH_DATA`` if set, else ``data/`` beside the ``ragmath/`` package.
DATA_DIR: Path = Path(os.environ.get("RAGMATH_DATA") or Path(__file__).resolve().parents[2] / "data")


def data_dir() -> Path:
    """Return :data:`DATA_DIR` if it holds the corpus, else raise saying where it is expected.

    >>> (data_dir() / "corpus.jsonl").is_file()
    True

    Raises ``FileNotFoundError`` naming the folder looked at and the two ways to fix it.
    """
    if not (DATA_DIR / "corpus.jsonl").is_file():
        raise FileNotFoundError("the workbook's data (corpus.jsonl, questions.jsonl, qrels.csv, ...) was "
                                f"not found in {DATA_DIR}. It ships with the repository, not with the "
                                "ragmath package: run from a checkout of RAG Lab (make lab installs ragmath "
                                "from it), or set RAGMATH_DATA to the folder that holds corpus.jsonl")
    return DATA_DIR
