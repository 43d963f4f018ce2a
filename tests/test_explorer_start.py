"""What a kernel of the RRF k explorer imports at its start, and the lazy public names of ``ragmath``.

Voila starts one kernel per student; each imports the explorer (bench/bench_kernel_start.py measures
the CPU). The explorer needs the RRF definition, not the evaluation, the file formats or polars.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap


def _modules_after(code: str) -> set[str]:
    """The modules loaded in a fresh interpreter after running ``code``."""
    probe = textwrap.dedent(code) + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stdout.splitlines()[-1]))


def test_the_explorer_start_loads_neither_polars_nor_the_evaluation_nor_the_pipeline():
    loaded = _modules_after("""
        from ragmath.lab.messages import use_language
        use_language("zh")
        from ragmath.lab.notebook.widgets import build_explorer
        build_explorer()
    """)
    assert "ragmath.fusion" in loaded and "matplotlib" in loaded  # the probe saw the explorer's imports
    unwanted = {"polars", "ragmath.evaluation", "ragmath.comparison", "ragmath.io", "ragmath.engine",
                "ragmath.lab.corpus", "ragmath.lab.retrieval", "jieba", "rank_bm25"}
    assert not unwanted & loaded, sorted(unwanted & loaded)


def test_import_ragmath_alone_defers_the_public_names_modules():
    loaded = _modules_after("import ragmath")
    assert not {"polars", "ragmath.evaluation", "ragmath.io"} & loaded


def test_every_public_name_is_its_modules_object():
    import ragmath.comparison
    import ragmath.evaluation
    import ragmath.fusion
    import ragmath.metrics
    import ragmath.registry
    import ragmath.run_fusion
    import ragmath.stats
    import ragmath.units

    homes = [ragmath.comparison, ragmath.evaluation, ragmath.fusion, ragmath.metrics, ragmath.registry,
             ragmath.run_fusion, ragmath.stats]
    for name in ragmath.__all__:
        value = getattr(ragmath, name)
        if name == "units":
            assert value is ragmath.units
        else:
            assert any(getattr(home, name, None) is value for home in homes), name
    assert set(ragmath.__all__) <= set(dir(ragmath))


def test_public_names_in_a_fresh_interpreter():
    result = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        from ragmath import *
        from ragmath import evaluate as first
        import ragmath
        assert first is ragmath.evaluate and rrf is ragmath.fusion.rrf and units is ragmath.units
        assert METRICS["mrr"].name == "MRR"
        try:
            ragmath.no_such_name
        except AttributeError as error:
            assert "no_such_name" in str(error)
        else:
            raise SystemExit("no AttributeError")
    """)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
