"""The words of the tables' values: a value the code uses that a reader reads as a word, and its Chinese.

A key is ``values.`` + the value exactly as the code spells it (its English text is that value); a
Chinese table shows the word in its place (:func:`ragmath.lab.messages.reader_value`, applied to every
cell and row label by the display hook). A value that is a name the reader may type into code (a level,
an index mode, a gain) keeps that name after the word, in the brackets the headers use: 片段（chunk）. A
value may be a template: ``{flips}`` stands for a part that is data (``exact: all 8 sign flips of 3
non-zero differences``, the test column of ``ragmath.compare``).

The names of the worked examples' ranked lists are here too (``lists.vector``: 向量), and booleans
(``values.True``, ``values.False``: 是, 否). Values that are data stay as they are: IDs, version
letters, metric names, identities, roles, feature names (bm25, cosine, exact_id).
"""

#: A value that is also a name in code: the word, then the name (as a header reads).
NAMED = "{word}（{name}）"

_NAMED_WORDS = {
    # the three levels of units.at_level (notebooks 01, 04)
    "chunk": "片段",
    "clause": "条款",
    "document": "文档",
    # the index modes of ragmath.lab.index.in_index (notebook 01)
    "published": "已发布的各版",
    "live": "当日生效的版本",
    # the gains of ndcg_at_k (notebook 04)
    "exp": "指数增益",
    "linear": "线性增益",
    # the row of LinearReranker.weights_table as a one-row table (notebook 05b)
    "weight": "权重",
    # question types (notebook 04)
    "single-hop": "单跳",
    "multi-hop": "多跳",
}

#: The names of ranked lists in the worked examples (``lists.NAME``): a list's name is a word the reader
#: reads in every table, chart and explorer that shows the list (:func:`ragmath.lab.messages.reader_lists`).
_LIST_NAMES = {
    "vector": "向量",
    "title": "标题",
}

MESSAGES: dict[str, dict[str, str]] = {
    **{f"lists.{name}": {"en": name, "zh": word} for name, word in _LIST_NAMES.items()},
    "values.True": {"en": "True", "zh": "是"},
    "values.False": {"en": "False", "zh": "否"},
    **{f"values.{name}": {"en": name, "zh": NAMED.format(word=word, name=name)}
       for name, word in _NAMED_WORDS.items()},
    # the test column of ragmath.compare and ragmath.stats.sign_flip_p (notebook 05b)
    "values.exact: all {flips} sign flips of {nonzero} non-zero differences": {
        "en": "exact: all {flips} sign flips of {nonzero} non-zero differences",
        "zh": "精确：{nonzero} 个非零差值的全部 {flips} 种符号翻转",
    },
    "values.{resamples} random sign flips (seed {seed})": {
        "en": "{resamples} random sign flips (seed {seed})",
        "zh": "{resamples} 次随机符号翻转（随机种子 {seed}）",
    },
    # the identities' descriptions (data/identities.csv, notebook 01)
    "values.A P6 staff member: reads the staff policies and the claims ledger of the own department "
    "(INV-101 to INV-124 and INV-131 to INV-140)": {
        "en": "A P6 staff member: reads the staff policies and the claims ledger of the own department "
              "(INV-101 to INV-124 and INV-131 to INV-140)",
        "zh": "P6 员工：可读员工制度和本部门的报销台账（INV-101 至 INV-124、INV-131 至 INV-140）",
    },
    "values.A finance officer: everything an employee reads plus the finance approval authority table "
    "and all claim records": {
        "en": "A finance officer: everything an employee reads plus the finance approval authority table "
              "and all claim records",
        "zh": "财务人员：员工能读的全部，加上财务审批权限表和全部报销记录",
    },
}
