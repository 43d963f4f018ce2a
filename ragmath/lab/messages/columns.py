"""The words of the tables' headers: each column or index name the code uses, and its Chinese word.

A key is ``columns.`` + the name exactly as the code spells it (its English text is that name); a
Chinese table shows the word and, after it, the name in full-width brackets (:data:`HEADER`), so a reader
who types the name into code still finds it. A name may be a template: ``{metric}`` stands for the part
of the header that is data (a metric, maybe with its version: ``best D nDCG@5 at each value``).

Names that are data are not here and stay as they are: version names (A–D, Oracle), metric names
(Recall@5, nDCG@5, Judged@K), list, tokenizer and feature names (BM25, vector, jieba, bigram, bm25,
cosine), identities, question and chunk IDs, functions (ragmath.compare) and symbols (k, K, M, W, N, x, q).
"""

#: How a Chinese header reads: the word first, as a Chinese reader reads, then the code's name in the
#: brackets the glossary uses for an original term (片段（chunk）); one line, so the same form serves the
#: HTML table and its plain-text copy. English headers are the code's names themselves.
HEADER = "{word}（{name}）"

#: Each name the code uses -> its Chinese word.
WORDS = {
    # ------------------------------------------------------------------- means, intervals, comparisons
    "mean": "均值",
    "low": "下限",
    "high": "上限",
    "questions": "问题数",
    "metric": "指标",
    "mean [CI]": "均值及区间",
    "diff [CI]": "配对差值及区间",
    "p": "p 值",
    "p_holm": "Holm 校正后 p 值",
    "W/T/L": "胜/平/负",
    "effect": "效应量",
    "system": "系统",
    "comparison": "比较",
    "split": "划分",
    "mean diff": "平均差值",
    "difference": "差值",
    "p (sign-flip)": "符号翻转 p 值",
    "p (sign-flip, Holm)": "Holm 校正后 p 值",
    "wins": "胜",
    "ties": "平",
    "losses": "负",
    "excludes 0": "不含 0",
    "test": "检验",
    "rate": "比率",
    "value": "值",
    "total": "合计",
    # ------------------------------------------------------------------------- questions and corpus
    "question": "问题",
    "question_id": "问题 ID",
    "question_text": "问题文本",
    "text": "文本",
    "type": "题型",
    "identity": "身份",
    "roles": "角色",
    "description": "说明",
    "chunk_id": "片段 ID",
    "clause_id": "条款 ID",
    "title": "标题",
    "edition": "版次",
    "published_on": "发布日期",
    "effective_from": "生效日期",
    "grade": "等级",
    "gain": "增益",
    "exp": "指数增益",
    "linear": "线性增益",
    "gain/log2(i+1)": "增益 ÷ 位置折扣",
    # ----------------------------------------------------------------------- rankings, pools, runs
    "id": "条目 ID",
    "rank": "名次",
    "best rank": "最好名次",
    "version": "版本",
    "versions": "排入它的版本",
    "rrf_rank": "RRF 名次",
    "rrf_score": "RRF 得分",
    "leader": "第一名",
    "score": "得分",
    "runner_up": "第二名",
    "margin": "领先幅度",
    "tied": "是否并列",
    "latency_ms": "延迟 ms",
    "results": "结果数",
    "error": "错误信息",
    # ----------------------------------------------------------------------------------- tokenizers
    "tokenizer": "分词器",
    "entry": "词条",
    "freq": "词频",
    "tag": "词性",
    "texts holding it": "含该词的文本数",
    "texts where the entry changes the cut": "因该词条改变切分的文本数",
    "plain jieba cuts it as": "原生 jieba 的切法",
    # -------------------------------------------------------------------------- the ablation (06, 07)
    "caveat": "注意事项",
    "answer accuracy": "答案准确率",
    "answers correct": "答对数",
    "answerable": "有答案的问题数",
    "citation support": "引用支持率",
    "supported answers": "有引用支持的回答数",
    "answers given": "给出的回答数",
    "correct refusals": "正确拒答数",
    "no-answer": "无答案题数",
    "context chars/q": "每题上下文字数",
    "bm25 ms": "BM25 用时 ms",
    "vector ms": "向量召回用时 ms",
    "fusion ms": "融合用时 ms",
    "rerank ms": "重排用时 ms",
    "score fusion ms": "分数融合用时 ms",
    "generate ms": "生成用时 ms",
    "total ms": "总用时 ms",
    "knob": "参数",
    "grid": "网格取值",
    "chosen": "选中的值",
    "position": "在网格中的位置",
    "best {metric} at each value": "每个取值下最好的 {metric}",
    "default": "默认值",
    "diff vs default": "与默认值的差值",
    "entered": "进入前 K 名",
    "entered relevant": "进入前 K 名的相关片段",
    "pushed out": "被挤出前 K 名",
    "pushed out relevant": "被挤出前 K 名的相关片段",
    # ------------------------------------------------------------------------------- leakage (07)
    "leak": "泄漏方式",
    "seed": "随机种子",
    "test questions": "测试问题数",
    "test questions with a twin in fitting": "拟合部分含其近重复问题的测试问题数",
    "twins in fitting": "拟合部分中的近重复问题数",
    "clean: {metric}": "无泄漏：{metric}",
    "leaky: {metric}": "有泄漏：{metric}",
    "seeds": "随机种子数",
    "seeds higher": "有泄漏更高的种子数",
    "smallest difference": "最小差值",
    "largest difference": "最大差值",
    "intervals above 0": "整体高于 0 的区间数",
    "intervals below 0": "整体低于 0 的区间数",
}

#: The words as catalogue entries: ``columns.NAME`` -> {"en": NAME, "zh": word}.
MESSAGES = {f"columns.{name}": {"en": name, "zh": word} for name, word in WORDS.items()}
