"""Where ragmath finds the workbook's data files."""

from __future__ import annotations

import os
from pathlib import Path

#: The toy corpus, questions and labels. Override with the ``RAGMATH_DATA`` environment variable.
DATA_DIR: Path = Path(os.environ.get("RAGMATH_DATA", Path(__file__).resolve().parent.parent / "data"))
