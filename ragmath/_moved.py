"""The workbook's modules that moved in 0.2.0: their old import paths keep working, with a warning.

``import ragmath.corpus`` (and every other name in :data:`MOVED`) still works in 0.2.x: it imports the
module from its new place, binds it under the old name too, and emits a ``DeprecationWarning`` saying
where it lives now. The old names go in 0.3.0.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings

#: Old module name -> new module name (the toy pipeline to ``ragmath.lab``, the notebook helpers to
#: ``ragmath.lab.notebook``).
MOVED = {
    **{f"ragmath.{name}": f"ragmath.lab.{name}" for name in (
        "ablation", "corpus", "generate", "holdout", "index", "paths", "readings", "rerank", "retrieval",
        "tokenize")},
    **{f"ragmath.{name}": f"ragmath.lab.notebook.{name}" for name in (
        "diagram", "exercises", "plotting", "selfcheck", "widgets")},
}


class _MovedModuleLoader(importlib.abc.Loader):
    def create_module(self, spec):
        new_name = MOVED[spec.name]
        warnings.warn(f"{spec.name} moved to {new_name} in ragmath 0.2.0; import it from there "
                      "(the old name goes in 0.3.0)", DeprecationWarning, stacklevel=4)
        return importlib.import_module(new_name)

    def exec_module(self, module):  # the module is the new one, already executed
        pass


class _MovedModuleFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, _MovedModuleLoader())


def install() -> None:
    """Put the finder for the old names on ``sys.meta_path`` (once)."""
    if not any(isinstance(finder, _MovedModuleFinder) for finder in sys.meta_path):
        sys.meta_path.append(_MovedModuleFinder())
