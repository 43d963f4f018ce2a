"""Messages of the notebook helpers (see ragmath.lab.messages): the self-check's verdicts, the charts' and
the diagram's words, the labelling widget's, and the errors a reader can meet in ``ragmath.lab.notebook``."""

MESSAGES: dict[str, dict[str, str]] = {
    # ------------------------------------------------------------------ selfcheck.py
    "notebook.selfcheck.correct": {"en": "Correct ({exercise}).", "zh": "正确（{exercise}）。"},
    "notebook.selfcheck.not_yet": {"en": "Not yet ({exercise}).", "zh": "还不对（{exercise}）。"},
    "notebook.selfcheck.not_yet_hint": {"en": "Not yet ({exercise}). Hint: {hint}",
                                        "zh": "还不对（{exercise}）。提示：{hint}"},
    "notebook.selfcheck.replace_none": {"en": "Not answered yet ({exercise}): replace None with your answer.",
                                        "zh": "尚未作答（{exercise}）：请把 None 换成你的答案。"},
    "notebook.selfcheck.give_a_number": {"en": "Not yet ({exercise}): give a number "
                                               "(e.g. 0.25, 1/4 or Fraction(1, 4)), not the text {text}.",
                                         "zh": "还不对（{exercise}）：请给出一个数（例如 0.25、"
                                               "1/4 或 Fraction(1, 4)），而不是文本 {text}。"},
    "notebook.selfcheck.almost": {"en": "Almost ({exercise}): your number is close, "
                                        "so the method looks right, but it is not rounded to {decimals} "
                                        "decimals. Round (do not cut off) to {decimals} decimals.",
                                  "zh": "差一点（{exercise}）：你的数很接近，方法看来是对的，"
                                        "但没有四舍五入到 {decimals} 位小数。"
                                        "请四舍五入（不要直接截断）到 {decimals} 位小数。"},
    "notebook.selfcheck.bad_id": {"en": "exercise ids look like '02.1' (notebook.number), got {given}",
                                  "zh": "练习编号形如 '02.1'（笔记本编号.题号），收到的是 {given}"},
    "notebook.selfcheck.unknown_id": {"en": "no exercise {given}; known: {known}",
                                      "zh": "没有练习 {given}；已有的练习：{known}"},
    "notebook.selfcheck.no_prediction": {"en": "exercise {exercise} asks for no prediction",
                                         "zh": "练习 {exercise} 不要求预测"},
    "notebook.selfcheck.prediction_missing": {"en": "No prediction yet ({exercise}): "
                                                    "write my_prediction before you run, then check it.",
                                              "zh": "还没有预测（{exercise}）：先在运行之前写下 "
                                                    "my_prediction，再来核对。"},
    "notebook.selfcheck.prediction_near": {"en": "Your prediction was near the result, "
                                                 "within {slack} ({exercise}).",
                                           "zh": "你的预测接近结果，差距在 {slack} 以内（{exercise}）。"},
    "notebook.selfcheck.prediction_low": {"en": "Your prediction was off by more than {slack} ({exercise}): "
                                                "the result is higher than you predicted. Write down what "
                                                "you expected and what the run shows instead.",
                                          "zh": "你的预测偏差超过 {slack}（{exercise}）：结果比你预测的高。"
                                                "写下你原先的预期，以及运行结果说明了什么。"},
    "notebook.selfcheck.prediction_high": {"en": "Your prediction was off by more than {slack} "
                                                 "({exercise}): the result is lower than you predicted. "
                                                 "Write down what you expected and what the "
                                                 "run shows instead.",
                                           "zh": "你的预测偏差超过 {slack}（{exercise}）："
                                                 "结果比你预测的低。写下你原先的预期，"
                                                 "以及运行结果说明了什么。"},
    "notebook.selfcheck.none_known": {"en": "none", "zh": "无"},
    # ------------------------------------------------------------------ own_system.py: its tables' words
    "notebook.own_system.word.version": {"en": "version", "zh": "版本"},
    "notebook.own_system.word.questions": {"en": "questions", "zh": "问题数"},
    "notebook.own_system.word.median_ms": {"en": "median ms", "zh": "中位数 ms"},
    "notebook.own_system.word.p95_ms": {"en": "p95 ms", "zh": "95 分位数 ms"},
    "notebook.own_system.word.failures": {"en": "failures", "zh": "失败数"},
    "notebook.own_system.word.labels": {"en": "labels", "zh": "标注"},
    "notebook.own_system.word.minus": {"en": "{metric} − {baseline}", "zh": "{metric} − {baseline}"},
    "notebook.own_system.word.pilot_questions": {"en": "pilot questions", "zh": "试点问题数"},
    "notebook.own_system.word.questions_labelled": {"en": "questions labelled", "zh": "已标注的问题"},
    "notebook.own_system.word.mean_difference": {"en": "mean difference", "zh": "平均差值"},
    "notebook.own_system.word.sd_of_differences": {"en": "sd of differences", "zh": "差值的标准差"},
    "notebook.own_system.word.questions_for_d": {"en": "questions to detect {d}",
                                                 "zh": "检出 {d} 所需问题数"},
    "notebook.own_system.word.questions_for_observed": {"en": "questions to detect the observed difference",
                                                        "zh": "检出观测差值所需问题数"},
    "notebook.own_system.word.detectable_with_n": {"en": "smallest difference {n} questions detect",
                                                   "zh": "{n} 个问题能检出的最小差值"},
    # ------------------------------------------------------------------ labelling.py (the widget's words)
    "notebook.labelling.progress": {"en": "{labelled} of {total} judged · item {item} of {total}",
                                    "zh": "已标注 {labelled} / {total} · 第 {item} 项，共 {total} 项"},
    "notebook.labelling.grade0": {"en": "0 irrelevant", "zh": "0 无关"},
    "notebook.labelling.grade1": {"en": "1 helps", "zh": "1 有帮助"},
    "notebook.labelling.grade2": {"en": "2 answers it", "zh": "2 能直接回答"},
    "notebook.labelling.skip": {"en": "skip (s)", "zh": "跳过 (s)"},
    "notebook.labelling.back": {"en": "back (b)", "zh": "返回 (b)"},
    "notebook.labelling.none": {"en": "no answer in the pool (n)", "zh": "池中没有答案 (n)"},
    "notebook.labelling.current": {"en": "your grade: {grade}", "zh": "你给的等级：{grade}"},
    "notebook.labelling.unlabelled": {"en": "not judged yet", "zh": "尚未标注"},
    "notebook.labelling.hint": {"en": "Click the widget, then keys 0 1 2 grade · s skip · b back · n no "
                                      "answer in the pool.",
                                "zh": "先点击本控件，再按键：0 1 2 给等级 · s 跳过 · b 返回 · "
                                      "n 池中没有答案。"},
    "notebook.labelling.done": {"en": "Every item of the pool is judged. Go back (b) to change one.",
                                "zh": "池中每一项都已标注。按 b 返回，可以修改某一项。"},
    "notebook.labelling.none_refused": {"en": "This question already has a chunk graded above 0: "
                                              "go back and change it to 0 first.",
                                        "zh": "这个问题已有片段的等级高于 0：请先返回，把它改为 0。"},
    "notebook.labelling.bad_language": {"en": "no messages for language {given}; known: {known}",
                                        "zh": "没有语言 {given} 的文字；已有：{known}"},
    "notebook.labelling.empty_pool": {"en": "the pool is empty: nothing to label",
                                      "zh": "池是空的：没有要标注的项"},
    "notebook.labelling.no_question_text": {
        "en": "no text for question {question}; give questions={{ID: text}} for every question of the pool",
        "zh": "问题 {question} 没有文本；请为池中的每个问题给出 questions={{ID: 文本}}",
    },
    "notebook.labelling.no_chunk_text": {"en": "no text for chunk {chunk}; give texts={{ID: text}} for "
                                               "every chunk of the pool",
                                         "zh": "片段 {chunk} 没有文本；请为池中的每个片段给出 "
                                               "texts={{ID: 文本}}"},
    # ------------------------------------------------------------------ judgements.py
    "notebook.judgements.bad_grade": {"en": "a grade is 0, 1 or 2, got {grade}",
                                      "zh": "等级只能是 0、1 或 2，收到的是 {grade}"},
    "notebook.judgements.pool_columns": {"en": "the pool needs columns 'question' and 'id'; "
                                               "it lacks {missing} (columns: {columns})",
                                         "zh": "池需要 'question' 和 'id' 两列；"
                                               "缺少 {missing}（现有列：{columns}）"},
    "notebook.judgements.pair_twice": {"en": "the pool lists question {question}, id {item} twice; "
                                             "list each pair once",
                                       "zh": "池中问题 {question}、id {item} 出现了两次；每对只能列一次"},
    "notebook.judgements.not_encodable": {"en": "row {row} of the pool (line {line} of the template), column "
                                                "{column}: {cell} {problem}",
                                          "zh": "池的第 {row} 行（模板第 {line} 行），列 {column}："
                                                "{cell} {problem}"},
    "notebook.judgements.column_name": {"en": "pool column {column} (the template's header): {problem}",
                                        "zh": "池的列 {column}（模板的表头）：{problem}"},
    "notebook.judgements.not_a_template": {"en": "{path}: not a template, its header is {header}; a "
                                                 "template's header names question, id and grade. Nothing "
                                                 "was written: give another path, or move this file away",
                                           "zh": "{path}：不是模板，它的表头是 {header}；模板的表头须有 "
                                                 "question、id 和 grade。没有写入任何内容：请换一个路径，"
                                                 "或把这个文件移走"},
    "notebook.judgements.merge": {"en": "labels {name}: {error}", "zh": "标注 {name}：{error}"},
    # ------------------------------------------------------------------ diagram.py
    # a stage's label is a pair of terms: each box draws the Chinese one above the English one, in both
    # editions (the English terms are those the code and highlight= use)
    "notebook.diagram.stage.parse": {"en": "parse", "zh": "解析"},
    "notebook.diagram.stage.chunk": {"en": "chunk", "zh": "切块"},
    "notebook.diagram.stage.index": {"en": "index", "zh": "索引"},
    "notebook.diagram.stage.question": {"en": "question", "zh": "问题"},
    "notebook.diagram.stage.permission": {"en": "permission filter", "zh": "权限过滤"},
    "notebook.diagram.stage.bm25": {"en": "BM25", "zh": "关键词召回"},
    "notebook.diagram.stage.vector": {"en": "vector", "zh": "向量召回"},
    "notebook.diagram.stage.rrf": {"en": "RRF fusion", "zh": "倒数排名融合"},
    "notebook.diagram.stage.recall": {"en": "hybrid recall", "zh": "混合召回"},
    "notebook.diagram.stage.rerank": {"en": "rerank", "zh": "重排"},
    "notebook.diagram.stage.generate": {"en": "generate", "zh": "生成"},
    "notebook.diagram.stage.cite": {"en": "citation check", "zh": "引用校验"},
    "notebook.diagram.offline": {"en": "离线 offline", "zh": "离线"},
    "notebook.diagram.online": {"en": "在线 online", "zh": "在线"},
    "notebook.diagram.recall_frame": {"en": "混合召回 hybrid recall", "zh": "混合召回"},
    "notebook.diagram.you_are_here": {"en": "▲ you are here · 本节位置", "zh": "▲ 本节位置"},
    "notebook.diagram.aria": {"en": "Two-stage RAG pipeline", "zh": "两阶段 RAG 流程"},
    "notebook.diagram.repr": {"en": "<RAG pipeline diagram; marked: {marked}>",
                              "zh": "<RAG 流程图；标出的环节：{marked}>"},
    "notebook.diagram.nothing": {"en": "nothing", "zh": "无"},
    "notebook.diagram.unknown_stage": {"en": "pipeline_diagram: unknown stage {stage}; choose from {known}",
                                       "zh": "pipeline_diagram：没有环节 {stage}；可选：{known}"},
    # ------------------------------------------------------------------ comparing.py (display words only:
    # under English the table's columns and outcomes are the words code indexes by, as before)
    "notebook.comparing.win": {"en": "win", "zh": "变好"},
    "notebook.comparing.tie": {"en": "tie", "zh": "持平"},
    "notebook.comparing.loss": {"en": "loss", "zh": "变差"},
    "notebook.comparing.missing": {"en": "missing from a run, scored 0",
                                   "zh": "某个运行结果（run）中缺失，记 0 分"},
    "notebook.comparing.report.baseline": {"en": "baseline", "zh": "基线"},
    "notebook.comparing.report.labelled.of": {"en": "{labelled} of {asked}",
                                              "zh": "{asked} 题中 {labelled} 题"},
    "notebook.comparing.report.note.baseline": {"en": "baseline {baseline}; {n} questions in every mean",
                                                "zh": "基线 {baseline}；每个均值都基于 {n} 个问题"},
    "notebook.comparing.report.note.test": {"en": "p: two-sided paired sign-flip test ({tests}); p_holm: p "
                                                  "adjusted by Holm's method across this table's comparisons "
                                                  "({comparisons})",
                                            "zh": "p：双侧配对符号翻转检验（{tests}）；p_holm："
                                                  "对本表的 {comparisons} 个比较做 Holm 校正"},
    "notebook.comparing.report.note.missing": {"en": "{name}: missing from the run, so scored 0 ({n}): "
                                                     "{questions}",
                                               "zh": "{name}：运行结果缺少 {n} 个问题，记 0 分：{questions}"},
    "notebook.comparing.report.note.columns": {
        "en": "columns: mean [CI] is the mean over questions with its 95% bootstrap interval; Judged@K the"
              " labelled share of each top K; labelled how many of the questions asked have labels; diff "
              "[CI] the mean of the per-question differences from the baseline, with its interval; p the "
              "two-sided paired sign-flip test's; p_holm that p adjusted by Holm's method for every "
              "comparison in the table; W/T/L the questions where the version is above, equal to and below"
              " the baseline; effect the mean difference over the standard deviation of the differences "
              "(Cohen's d_z)",
        "zh": "各列：均值及区间是各题的均值及其 95% bootstrap 区间；Judged@K 是每个前 K 名中已标注的比例；"
              "已标注是所问的题中有标注的题数；配对差值及区间是与基线逐题差值的均值及其区间；p 值来自双侧配对"
              "符号翻转检验；Holm 校正后 p 值是对表中每个比较用 Holm 方法校正后的 p；"
              "变好/持平/变差是该版本高于、等于、低于基线的题数；"
              "效应量是平均差值除以差值的标准差（Cohen 的 d_z）"},
    "notebook.comparing.report.note.no_answer": {"en": "no relevant label, so outside every mean; Judged@K "
                                                       "counts them ({n}): {questions}",
                                                 "zh": "{n} 道无答案题不进任何均值（Judged@K 计入它们）："
                                                       "{questions}"},
    "notebook.comparing.report.note.labelled": {"en": "{names}: {labelled} of {asked} questions labelled; "
                                                      "the means and Judged@K are over the labelled "
                                                      "questions only; {unlabelled} not labelled "
                                                      "(unjudged, not scored): {questions}",
                                                "zh": "{names}：{asked} 个问题中有 {labelled} 个已标注；"
                                                      "均值和 Judged@K 只基于已标注的问题；"
                                                      "{unlabelled} 个没有标注（不打分）：{questions}"},
    "notebook.comparing.report.note.warning": {"en": "warning: {system} Judged@{k} = {judged:.3f} is below "
                                                     "0.9 x the baseline's {baseline:.3f}: "
                                                     "its score rests on unlabelled items (label its pool)",
                                               "zh": "警告：{system} 的 Judged@{k} = {judged:.3f}，"
                                                     "低于基线的 0.9 倍（{baseline:.3f}）："
                                                     "它的分数建立在未标注的条目上（请标注它的池）"},
    "notebook.comparing.report.test.exact": {"en": "exact: all {total} sign flips of {n} "
                                                   "non-zero differences",
                                             "zh": "精确计算：{n} 个非零差值的全部 {total} 种符号翻转"},
    "notebook.comparing.report.test.separator": {"en": "; ", "zh": "；"},
    "notebook.comparing.report.test.random": {"en": "{resamples} random sign flips (seed {seed})",
                                              "zh": "{resamples} 次随机符号翻转（种子 {seed}）"},
    "notebook.comparing.change": {"en": "change", "zh": "变化"},
    "notebook.comparing.outcome": {"en": "outcome", "zh": "结果"},
    "notebook.comparing.note": {"en": "note", "zh": "备注"},
    "notebook.comparing.interval": {"en": "95 % bootstrap interval", "zh": "95% bootstrap 区间"},
    "notebook.comparing.mean": {"en": "mean {diff:+.3f}", "zh": "均值 {diff:+.3f}"},
    "notebook.comparing.xlabel": {"en": "questions, sorted ({wins} wins / {ties} ties / {losses} losses)",
                                  "zh": "问题（已排序；{wins} 个变好 / {ties} 个持平 / {losses} 个变差）"},
    "notebook.comparing.ylabel": {"en": "{metric}: {system} − {baseline}",
                                  "zh": "{metric}：{system} − {baseline}"},
    # ------------------------------------------------------------------ record.py
    "notebook.record.not_a_ranking": {"en": "the system returned {kind}; return a list of IDs or of "
                                            "(id, score) pairs, best first",
                                      "zh": "系统返回的是 {kind}；请返回一个 ID 列表或 (id, score) "
                                            "对的列表，最好的排在最前"},
    "notebook.record.mixed": {"en": "the system returned a list mixing IDs and (id, score) pairs; "
                                    "return one kind",
                              "zh": "系统返回的列表混用了 ID 和 (id, score) 对；请只用其中一种"},
    "notebook.record.pair_size": {"en": "each (id, score) pair must have exactly two items",
                                  "zh": "每个 (id, score) 对必须恰好有两项"},
    "notebook.record.bad_score": {"en": "the score of {item} is {score}; scores are finite numbers",
                                  "zh": "{item} 的分数是 {score}；分数必须是有限的数"},
    "notebook.record.rising": {"en": "scores rise from rank {rank} ({before}) to rank {next_rank} "
                                     "({after}); return the list best first (a run file is read by score)",
                               "zh": "分数从第 {rank} 位（{before}）升到第 {next_rank} 位（{after}）；"
                                     "请按从好到差返回列表（运行结果文件按分数读取）"},
    "notebook.record.bad_id": {"en": "an ID must be text (or an integer), got {kind} {item}",
                               "zh": "ID 必须是文本（或整数），收到的是 {kind} {item}"},
    "notebook.record.system_not_callable": {"en": "system must be a callable question -> ranked list, "
                                                  "got {kind}",
                                            "zh": "system 必须是一个可调用对象：问题 -> 排好序的列表，"
                                                  "收到的是 {kind}"},
    "notebook.record.questions_not_mapping": {"en": "questions must be a mapping question ID -> question, "
                                                    "got {kind}",
                                              "zh": "questions 必须是一个映射：问题 ID -> 问题，"
                                                    "收到的是 {kind}"},
    "notebook.record.same_path": {"en": "the run and the latency table would both be written to {path}; "
                                        "give latency_path another file, e.g. {other}",
                                  "zh": "运行结果和延迟表会写进同一个文件 {path}；"
                                        "请给 latency_path 另一个文件，比如 {other}"},
    "notebook.record.no_questions": {"en": "questions is empty; give at least one question ID -> question",
                                     "zh": "questions 是空的；请至少给出一个 问题 ID -> 问题"},
    "notebook.record.bad_question_id": {"en": "question IDs must be non-empty text, got {given}",
                                        "zh": "问题 ID 必须是非空文本，收到的是 {given}"},
    "notebook.record.bad_depth": {"en": "depth must be a positive int (or None for everything), got {given}",
                                  "zh": "depth 必须是正整数（或 None，表示全部保留），收到的是 {given}"},
    "notebook.record.first_failure": {"en": "; the first: {question}: {error}",
                                      "zh": "；第一个：{question}：{error}"},
    "notebook.record.nothing_to_write": {"en": "no question got a result, so there is no run to write "
                                               "({failed} failed{first}); see {path}",
                                         "zh": "没有一个问题得到结果，因此没有运行结果可写（{failed} "
                                               "个失败{first}）；详见 {path}"},
    # ------------------------------------------------------------------ own_system.py
    "notebook.own_system.version.bm25": {"en": "BM25 (jieba)", "zh": "BM25（jieba 分词）"},
    "notebook.own_system.version.vector": {"en": "vector search (multilingual-e5-small)",
                                           "zh": "向量检索（multilingual-e5-small）"},
    "notebook.own_system.version.rrf_k60": {"en": "RRF of bm25 and vector, k = 60",
                                            "zh": "bm25 与 vector 的倒数排名融合，k = 60"},
    "notebook.own_system.version.bm25_bigram": {"en": "BM25 (character bigrams)", "zh": "BM25（字符二元组）"},
    "notebook.own_system.files_keys": {"en": "MY_FILES needs the keys 'questions' and 'runs' "
                                             "(and may have 'chunks', 'labels'); missing: {missing}, "
                                             "unknown: {unknown}",
                                       "zh": "MY_FILES 需要键 'questions' 和 "
                                             "'runs'（可以再有 'chunks'、'labels'）；缺少：{missing}，"
                                             "不认识：{unknown}"},
    "notebook.own_system.two_runs": {"en": "MY_FILES['runs'] names too few run files ({given}); "
                                           "comparing needs two or more (the first is the baseline)",
                                     "zh": "MY_FILES['runs'] 只列出 {given} 个运行结果文件；"
                                           "比较至少需要两个（第一个是基线）"},
    "notebook.own_system.no_file": {"en": "no file at {path}", "zh": "找不到文件 {path}"},
    "notebook.own_system.columns": {"en": "{path}: needs the columns {missing}; it has {columns}",
                                    "zh": "{path}：需要列 {missing}；它只有 {columns}"},
    # ------------------------------------------------------------------ plotting.py
    "notebook.plotting.no_font_package": {"en": "Chinese labels need the font package {package!r}, "
                                                "which is not installed: run `pip install {package}` "
                                                "(or `pip install -e '.[lab]'`, which `make lab` does)",
                                          "zh": "中文标签需要字体包 {package!r}，但它没有安装："
                                                "请运行 `pip install {package}`（或 `pip install -e "
                                                "'.[lab]'`，`make lab` 就是这样做的）"},
    "notebook.plotting.no_font_file": {"en": "the font file {file} of {package!r} is missing; "
                                             "reinstall it with `pip install --force-reinstall {package}`",
                                       "zh": "{package!r} 的字体文件 {file} 不见了；"
                                             "请用 `pip install --force-reinstall {package}` 重新安装"},
    "notebook.plotting.bad_lists": {"en": "lists: expected a mapping name -> ranked IDs or a list of ranked "
                                          "lists, got {kind}; pass e.g. {{'BM25': ['4.2', '6.1']}}",
                                    "zh": "lists：应当是 名称 -> 排好序的 ID 的映射，"
                                          "或由排好序的列表组成的列表，收到的是 {kind}；"
                                          "例如传入 {{'BM25': ['4.2', '6.1']}}"},
}
