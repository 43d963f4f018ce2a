"""``python -m ragmath`` (and the ``ragmath`` console script): :func:`ragmath.cli.main`."""

import sys

from ragmath.cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
