"""The one check that the workbook's sub-packages make before they import: is the ``[lab]`` extra there?"""

from __future__ import annotations

import importlib.util


def require_lab_extra(package: str, modules: tuple[str, ...]) -> None:
    """Raise ``ImportError`` naming the missing packages and the install command, if any is missing.

    >>> require_lab_extra("ragmath.lab", ("math",))  # present: nothing happens
    """
    missing = [name for name in modules if importlib.util.find_spec(name) is None]
    if missing:
        raise ImportError(
            f"{package} is the workbook, not the core: it needs {', '.join(missing)}, which come with the "
            "lab extra. Install them with: pip install 'ragmath[lab]'  (the core, ragmath itself, works "
            "without them)")
