"""The workbook's toy pipeline (notebooks 01-07): corpus and data, tokenizers, the index, retrievers,
the reranker, the generator, the ablation, the sealed holdout and the tables read aloud.

It needs the ``[lab]`` extra (jieba, rank-bm25): ``pip install 'ragmath[lab]'``. It imports the core
(``ragmath``); the core never imports it.
"""

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


require_lab_extra("ragmath.lab", ("jieba", "rank_bm25"))
