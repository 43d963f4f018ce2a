"""``python -m ragmath`` (and the ``ragmath`` console script): evaluate and fuse runs."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ragmath.cli import main as _cli_main

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status.

    >>> import contextlib, io
    >>> with contextlib.redirect_stdout(io.StringIO()):
    ...     status = main(["fuse", "--help"])
    >>> status
    0
    """
    return _cli_main(argv)


if __name__ == "__main__":
    sys.exit(main())
