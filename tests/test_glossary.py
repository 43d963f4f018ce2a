"""One word per idea in the Chinese edition: the glossary (docs/glossary.csv) is the one source, its
tables are drawn from it, and no variant it replaces appears in the Chinese pages; punctuation and numbers
follow the article.

The files checked are listed in ``ZH_SOURCES`` (a glob and how to read it): the Chinese pages (README.zh.md
without its generated glossary table, which quotes the article's words and is checked against the CSV, and
docs/*.zh.md), and the Chinese notebooks 01–08, the explorer notebook and their solutions
(``ZH_NOTEBOOKS_HELD``), read with ``glossary.notebook_prose`` (their markdown) and, for the variants, the
strings and comments of their code. What those notebooks show when executed (``glossary.notebook_outputs``:
printed text, tables, drawings, the explorer widget's words) is checked too, as are the message
catalogue's Chinese texts (what the package says: widgets, charts, headers, values, errors) and the
strings of the static explorer page. The Chinese notebooks 06 and 07 (``ZH_NOTEBOOKS``) are also read with
``glossary.notebook_prose`` with their plain-text outputs once executed; their prose also follows the
article's punctuation.
"""
import ast
import doctest
import importlib.util
import sys
from pathlib import Path

import pytest
from outputs import joined

ROOT = Path(__file__).resolve().parent.parent


def _load_tool(name="glossary"):
    spec = importlib.util.spec_from_file_location(f"tools_{name}", ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


glossary = _load_tool()
TERMS = glossary.load()

#: The Chinese notebooks held to the glossary: 01–07, the explorer notebook, and their solutions (08 below).
ZH_NOTEBOOK_GLOBS = ("notebooks/zh/0[1-7]*.ipynb", "notebooks/zh/rrf_explorer.ipynb",
                     "notebooks/zh/solutions/0[1-7]*.ipynb")
ZH_NOTEBOOKS_HELD = sorted({path for pattern in (*ZH_NOTEBOOK_GLOBS, "notebooks/zh/08_*.ipynb",
                                                 "notebooks/zh/solutions/08_*.ipynb")
                            for path in ROOT.glob(pattern)})


def _page(path: Path) -> str:
    """A Chinese page's prose, its generated glossary tables left out (they list and quote the variants on
    purpose, and test_the_generated_tables_are_the_glossary_file holds them to the CSV)."""
    text = path.read_text(encoding="utf-8")
    for name, body in glossary.generated_blocks(text).items():
        if name.startswith("glossary-"):
            text = text.replace(body, "")
    return glossary.markdown_prose(text)


#: glob -> reader. The glossary's own pages list the variants on purpose, and are checked against the CSV.
ZH_SOURCES = {
    "README.zh.md": _page,
    "docs/*.zh.md": _page,
    "notebooks/zh/08_your_own_system.ipynb": glossary.notebook_prose,
    "notebooks/zh/solutions/08_your_own_system_solutions.ipynb": glossary.notebook_prose,
    "notebooks/zh/09_release_gate.ipynb": glossary.notebook_prose,
    "notebooks/zh/solutions/09_release_gate_solutions.ipynb": glossary.notebook_prose,
    **{pattern: glossary.notebook_prose for pattern in ZH_NOTEBOOK_GLOBS},
}
EXEMPT_FROM_VARIANTS = {"docs/glossary.zh.md"}
#: Words quoted as someone else's, kept as they were written though they hold a variant: the article's
#: sentence on the fused score (05) and its summary of Lewis et al. (07), where 生成模型 is the paper's
#: parametric generation model.
QUOTED = ("“融合后的分数只用来排序，不代表答案正确的概率”", "“参数化的生成模型”",
          "参数化的生成模型和非参数化的检索记忆结合起来：先用一个稠密检索器从维基百科段落里找出相关段落，"
          "再让序列到序列的生成模型以这些段落为条件生成答案")


def _unquoted(text: str) -> str:
    for quote in QUOTED:
        text = text.replace(quote, "")
    return text
#: In what a notebook shows (code's reprs, IDs, 'YYYY-MM-DD'), only these style rules apply: straight
#: quotes and ASCII punctuation are the code's; corner quotes and "95 %" are a Chinese sentence's.
OUTPUT_STYLE = ("「」", "95%")


def code_words(path: Path) -> str:
    """The string literals and comments of a notebook's code cells: the words its code prints or says."""
    import nbformat

    parts = []
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "code":
            continue
        parts += [line.split("#", 1)[1] for line in cell.source.splitlines() if "#" in line]
        parts += [node.value for node in ast.walk(ast.parse(cell.source))
                  if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    return "\n".join(parts)


#: The Chinese notebooks whose prose and outputs are checked for variants.
ZH_NOTEBOOKS = [ROOT / "notebooks" / "zh" / name
                for name in ("06a_ablation_table.ipynb", "06b_tuning_and_rows.ipynb",
                             "07_honest_numbers.ipynb")]


def zh_files():
    return sorted({path for pattern in ZH_SOURCES for path in ROOT.glob(pattern)})


def _read(path):
    for pattern, reader in ZH_SOURCES.items():
        if path in ROOT.glob(pattern):
            return reader(path)
    raise KeyError(path)


def _name(path):
    return str(path.relative_to(ROOT))


def test_the_tools_doctests_pass():
    assert doctest.testmod(glossary).failed == 0


def test_each_term_and_variant_is_listed_once_and_no_variant_is_an_accepted_term():
    accepted = [t.zh for t in TERMS]
    variants = [v for t in TERMS for v in t.variants]
    assert len(set(accepted)) == len(accepted)
    assert len(set(variants)) == len(variants)
    assert not set(variants) & set(accepted)


def test_the_issues_drifting_pairs_are_settled():
    """The pairs seen drifting in the zh notebooks, the catalogue and README.zh.md: one word each."""
    chosen = {t.zh: set(t.variants) for t in TERMS}
    pairs = [("练习册", "工作簿"), ("无答案题", "无答案问题"), ("近重复", "近似重复"),
             ("引用支持率", "引用支撑率"), ("延迟", "时延"), ("费用", "成本"), ("流程", "流水线"),
             ("编号题", "精确编号类"), ("编号题", "精确 ID 类"), ("同义改写题", "改写类"),
             ("同义改写题", "同义改写类"), ("向量模型", "嵌入模型"), ("融合得分", "融合分数"),
             ("第一名", "领先者"), ("前置知识", "预备知识"), ("用时", "时长"), ("位置折扣", "折损曲线"),
             # issue 37
             ("片段", "切片"), ("自查", "自检"), ("生成器", "生成模型"), ("条款", "条款 4.2"),
             ("z-score", "z 分数"), ("同义改写题", "改写题"), ("同义改写题", "口语化的问题"),
             ("融合得分", "融合后的分数"), ("现行版本", "正在生效"), ("现行版本", "快照日期当天有效"),
             ("已发布版本", "快照日期前发布的各版"), ("数据文件哈希", "语料哈希"),
             ("原生 jieba", "普通 jieba"), ("原生 jieba", "不带用户词典的 jieba"),
             ("共有的词元", "共同的词元"), ("共有的词元", "共享的词元"), ("共有的字", "共同的字"),
             ("变好/持平/变差", "胜/平/负"), ("变好/持平/变差", "个更好"), ("变好/持平/变差", "个更差"),
             # issue 37, a second reading
             ("变好/持平/变差", "胜（wins）"), ("重抽样", "重采样"), ("设计", "冻结的方案"),
             ("融合得分", "RRF 得分"), ("融合名次", "RRF 名次"), ("已标注", "尚未判断"),
             ("单元格", "这一格"), ("下限", "下端"), ("版本", "版次"),
             ("近重复", "孪生问题"), ("向量模型", "嵌入器"), ("种子", "随机种子"),
             ("标注员", "评审员"), ("控件", "小部件"), ("功效", "检验力"),
             ("发布门槛", "发布关卡"), ("下一本", "接下来："), ("无答案题", "没有答案的问题")]
    for accepted, variant in pairs:
        assert variant in chosen[accepted], (accepted, variant)
    assert "下一步" not in {v for t in TERMS for v in t.variants}, "an ordinary word, not a term"


def test_the_generated_tables_are_the_glossary_file():
    for name, (path, kind) in glossary.BLOCKS.items():
        blocks = glossary.generated_blocks(path.read_text(encoding="utf-8"))
        assert blocks.get(name) == glossary.table(TERMS, kind), f"run python tools/glossary.py ({path.name})"


def test_the_chinese_readme_shows_the_article_terms_it_needs():
    readme = glossary.generated_blocks((ROOT / "README.zh.md").read_text(encoding="utf-8"))["glossary-readme"]
    for term in ("无答案题", "近重复", "引用支持率", "延迟", "费用", "流程", "编号题", "位置折扣",
                 "融合得分"):
        assert f"| {term} |" in readme, term


@pytest.mark.parametrize("path", [p for p in zh_files() if _name(p) not in EXEMPT_FROM_VARIANTS], ids=_name)
def test_no_replaced_variant_in_the_chinese_pages(path):
    assert glossary.variants_in(_unquoted(_read(path)), TERMS) == []


@pytest.mark.parametrize("path", ZH_NOTEBOOKS, ids=_name)
def test_no_replaced_variant_in_the_chinese_notebooks_prose(path):
    assert glossary.variants_in(_unquoted(glossary.notebook_prose(path)), TERMS) == []


@pytest.mark.parametrize("path", ZH_NOTEBOOKS, ids=_name)
def test_the_chinese_notebooks_prose_follows_the_articles_punctuation(path):
    """Their prose only: an output prints data (a list of tokens is a Python list, commas and all)."""
    assert glossary.style_problems(glossary.notebook_prose(path)) == []


@pytest.mark.notebooks
@pytest.mark.slow
@pytest.mark.parametrize("path", ZH_NOTEBOOKS, ids=_name)
def test_no_replaced_variant_in_the_chinese_notebooks_outputs(path, executed, tmp_path):
    import nbformat

    ran = tmp_path / path.name
    nbformat.write(joined(executed(path)), ran)
    assert glossary.variants_in(_unquoted(glossary.notebook_prose(ran)), TERMS) == []


@pytest.mark.parametrize("path", zh_files(), ids=_name)
def test_punctuation_and_numbers_follow_the_article(path):
    assert glossary.style_problems(_read(path)) == []


@pytest.mark.parametrize("path", ZH_NOTEBOOKS_HELD, ids=_name)
def test_no_replaced_variant_in_the_chinese_notebooks_code_strings_and_comments(path):
    assert glossary.variants_in(code_words(path), TERMS) == []


def _output_style(text):
    return [(where, why) for where, why in glossary.style_problems(text)
            if any(rule in why for rule in OUTPUT_STYLE)]


@pytest.mark.notebooks
@pytest.mark.slow
@pytest.mark.parametrize("path", ZH_NOTEBOOKS_HELD, ids=_name)
def test_no_replaced_variant_in_what_the_chinese_notebooks_show(path, executed):
    """The executed notebook's outputs: printed text, tables (HTML), drawings, the explorer widget."""
    shown = _without_the_data(glossary.notebook_outputs(joined(executed(path))))
    assert glossary.variants_in(shown, TERMS) == []
    assert _output_style(shown) == []


def _without_the_data(text):
    """``text`` without the toy corpus's policy texts and the questions, quoted as they are (the policies
    say 差旅成本; the glossary's 费用 is the workbook's word, not theirs)."""
    from ragmath.lab.corpus import load_corpus, load_questions

    quoted = {*load_corpus()["text"], *load_questions()["text"]}
    for data in sorted(quoted, key=len, reverse=True):
        text = text.replace(data, "")
    return text


def test_no_replaced_variant_in_the_catalogues_chinese():
    """Every Chinese text of the message catalogue (widgets, charts, headers, values, errors, verdicts)."""
    from ragmath.lab.messages import CATALOGUE

    found = {key: glossary.variants_in(texts["zh"], TERMS) for key, texts in CATALOGUE.items()}
    assert {key: variants for key, variants in found.items() if variants} == {}
    styled = {key: _output_style(texts["zh"]) for key, texts in CATALOGUE.items()}
    assert {key: problems for key, problems in styled.items() if problems} == {}


def test_no_replaced_variant_in_the_explorer_pages_strings():
    """The static explorer page: its sources and the catalogue's words it is built with (page-data.js)."""
    build_explorer = _load_tool("build_explorer")
    page = "\n".join([build_explorer.data_script(),
                      *((ROOT / "explorer" / name).read_text(encoding="utf-8")
                        for name in ("index.html", "explorer.js", "explorer.css"))])
    assert glossary.variants_in(page, TERMS) == []
    assert _output_style(page) == []


def test_the_checks_find_what_they_look_for():
    text = "这本工作簿里，同义改写类和改写类都有；无答案问题不进平均。「引号」，95 % 的区间,还有(括号)。"
    assert glossary.variants_in(text, TERMS) == [("工作簿", "练习册"), ("同义改写类", "同义改写题"),
                                                  ("改写类", "同义改写题"), ("无答案问题", "无答案题")]
    whys = [why for _, why in glossary.style_problems(text)]
    assert len(whys) == 5 and sum("「」" in why for why in whys) == 2
    assert glossary.variants_in("同义改写题、无答案题、下一步", TERMS) == []
    page = '正文\n```bash\nmake lab  # 打开 JupyterLab\n```\n`use_language("zh")` 后'
    prose = glossary.markdown_prose(page)
    assert "打开 JupyterLab" in prose and "make lab" not in prose and '"zh"' not in prose
    figure = {"output_type": "display_data", "data": {"image/png": "…", "text/plain": "<Figure size 9x3>"}}
    table = {"output_type": "execute_result", "data": {"text/html": "<style>x</style><td>领先者</td>",
                                                         "text/plain": "leader"}}
    widget = {"output_type": "display_data", "data": {"application/vnd.jupyter.widget-view+json": {}}}
    nb = {"cells": [{"cell_type": "code", "outputs": [figure, table, widget]}],
          "metadata": {"widgets": {"application/vnd.jupyter.widget-state+json": {"state": {
              "m": {"state": {"description": "vector", "value": "<p>在 95 % 的题上</p>"}}}}}}}
    shown = glossary.notebook_outputs(nb)
    assert "Figure" not in shown and "leader" not in shown and "x" not in shown
    assert glossary.variants_in(shown, TERMS) == [("领先者", "第一名")]
    assert "vector" in shown and len(_output_style(shown)) == 1
