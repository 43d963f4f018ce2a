"""Messages of the notebooks' own code cells (see ragmath.lab.messages).

Every sentence, label, chart title and table word a code cell of ``notebooks/*.ipynb`` or
``notebooks/solutions/*.ipynb`` prints, draws or displays itself; key ``cells.NN.what`` for notebook
NN, ``cells.sNN.what`` for its solutions, ``cells.word.what`` for a word several notebooks use alike.
Padding in an English label (``"run:   "``) lines up the English output and is kept as it was.
"""

MESSAGES = {
    # words several notebooks' cells use alike
    "cells.word.top3": {"en": "top 3", "zh": "前 3 名"},
    "cells.word.run": {"en": "run:", "zh": "运行结果："},
    "cells.word.meaning": {"en": "meaning", "zh": "含义"},
    "cells.word.mean": {"en": "mean", "zh": "均值"},
    "cells.word.count": {"en": "count", "zh": "数量"},
    "cells.word.relevant": {"en": "relevant:", "zh": "相关："},
    "cells.word.ranking_padded": {"en": "ranking: ", "zh": "排序："},
    "cells.word.ranking": {"en": "ranking:", "zh": "排序："},
    "cells.word.labels": {"en": "labels:", "zh": "标注："},
    "cells.word.run_padded": {"en": "run:   ", "zh": "运行结果："},
    "cells.word.axb_run": {"en": "A X B (the run)", "zh": "A X B（本次运行结果）"},
    "cells.word.ideal_order": {"en": "ideal order:", "zh": "理想排序："},
    "cells.word.sum": {"en": "sum", "zh": "总和"},
    "cells.word.chunk": {"en": "chunk", "zh": "片段"},
    "cells.word.low": {"en": "low", "zh": "下限"},
    "cells.word.high": {"en": "high", "zh": "上限"},
    "cells.word.width": {"en": "width", "zh": "宽度"},
    # ------------------------------------------------------------------ 01 unit of evaluation
    "cells.01.corpus_size": {
        "en": "{chunks} chunks in {documents} documents",
        "zh": "{documents} 份文档，共 {chunks} 个片段",
    },
    "cells.01.policy_split": {
        "en": "TRV-2026 ({title}) is split into {chunks} chunks",
        "zh": "TRV-2026（{title}）切成了 {chunks} 个片段",
    },
    "cells.01.top3_as_documents": {"en": "top 3 as documents:", "zh": "前 3 名换算成文档："},
    "cells.01.document_level_hit": {
        "en": "document level: Hit@3 = {value}",
        "zh": "文档级：Hit@3 = {value}",
    },
    "cells.01.chunks_about_42": {
        "en": "chunks about clause 4.2 (local transport) in the top 3: {count}",
        "zh": "前 3 名中讲条款 4.2（市内交通）的片段：{count}",
    },
    "cells.01.chunk_labels": {"en": "chunk labels (grade > 0):", "zh": "片段级标注（等级 > 0）："},
    "cells.01.chunk_level_hit": {"en": "chunk level: Hit@3 = {value}", "zh": "片段级：Hit@3 = {value}"},
    "cells.01.narrow_label_hit": {
        "en": "chunk level, label 4.2-a only: Hit@3 = {value}",
        "zh": "片段级，只标注 4.2-a：Hit@3 = {value}",
    },
    "cells.01.what_42b_says": {"en": "what 4.2-b says:", "zh": "4.2-b 的内容："},
    "cells.01.run_at_clause": {"en": "run at clause level:   ", "zh": "条款级的运行结果："},
    "cells.01.labels_at_clause": {"en": "labels at clause level:", "zh": "条款级的标注：    "},
    "cells.01.clause_level_hit": {"en": "clause level: Hit@3 = {value}", "zh": "条款级：Hit@3 = {value}"},
    "cells.01.q07_labels_hit": {
        "en": "chunk level, Q07's labels (4.2-b graded too): Hit@3 = {value}",
        "zh": "片段级，用 Q07 的标注（4.2-b 也有等级）：Hit@3 = {value}",
    },
    "cells.01.score_axis": {"en": "score 得分", "zh": "得分"},
    "cells.01.levels_title": {
        "en": "同一次检索，三种口径 · the same run for Q07 at three levels",
        "zh": "同一次检索，三种口径（Q07）",
    },
    "cells.01.metric": {"en": "metric", "zh": "指标"},
    "cells.01.q09_chunk_labels": {
        "en": "Q09 chunk labels (grade > 0):",
        "zh": "Q09 的片段级标注（等级 > 0）：",
    },
    "cells.01.relevant_documents": {"en": "relevant documents:", "zh": "相关文档："},
    "cells.01.row_top3_no_dedupe": {
        "en": "top 3 as documents (no dedupe)",
        "zh": "前 3 名换算成文档（未去重）",
    },
    "cells.01.row_per_chunk_recall": {"en": "per-chunk 'Recall'", "zh": "按片段计的“召回率”"},
    "cells.01.row_chunk_recall": {"en": "chunk-level Recall@3", "zh": "片段级 Recall@3"},
    "cells.01.row_top3_dedupe": {"en": "top 3 after dedupe", "zh": "去重后的前 3 名"},
    "cells.01.row_document_recall": {
        "en": "document Recall@3 after dedupe",
        "zh": "去重后的文档级 Recall@3",
    },
    "cells.01.s1": {"en": "S1: three XBR chunks first", "zh": "S1：三个 XBR 片段排在最前"},
    "cells.01.s2": {"en": "S2: both documents early", "zh": "S2：两份文档都排得靠前"},
    "cells.01.edition_line": {
        "en": "{chunk}: {edition} edition, in force {start} to {end}: {yuan} yuan per trip",
        "zh": "{chunk}：{edition} 版，有效期 {start} 至 {end}：每次 {yuan} 元",
    },
    "cells.01.open_ended": {"en": "open", "zh": "今"},
    "cells.01.col_clause_in_force": {"en": "clause 4.2-a in force", "zh": "生效的条款 4.2-a"},
    "cells.01.col_yuan_per_trip": {"en": "yuan per trip", "zh": "每次金额（元）"},
    "cells.01.col_chunks_in_index": {"en": "chunks in the index", "zh": "索引中的片段数"},
    "cells.01.index_built_on": {"en": "index built on", "zh": "索引构建日期"},
    "cells.01.labels_snapshot_date": {"en": "labels' snapshot date", "zh": "标注的快照日期"},
    "cells.01.corpus_hash": {"en": "corpus hash", "zh": "语料哈希"},
    "cells.01.q21_labels": {"en": "Q21 labels", "zh": "Q21 的标注"},
    "cells.01.value": {"en": "value", "zh": "值"},
    "cells.01.index_keeps": {"en": "index keeps", "zh": "索引收录方式"},
    "cells.01.may_read": {"en": "may read (chunks)", "zh": "可读片段数"},
    "cells.01.evidence": {"en": "evidence", "zh": "证据"},
    "cells.01.no_evidence": {"en": "(none: no answer)", "zh": "（无：无答案问题）"},
    "cells.01.no_answer": {"en": "no answer", "zh": "无答案"},
    "cells.01.unfiltered_top3": {"en": "unfiltered top 3:", "zh": "未过滤的前 3 名："},
    "cells.01.claimed_hit": {
        "en": "scored before filtering, the P6 run would claim Hit@3 = {value}",
        "zh": "如果在权限过滤之前打分，P6 的运行结果会声称 Hit@3 = {value}",
    },
    "cells.01.p6_sees": {
        "en": "what the P6 employee may actually see of it:",
        "zh": "其中 P6 员工实际能看到的：",
    },
    "cells.01.run_padded": {"en": "run:        ", "zh": "运行结果："},
    "cells.01.index_date": {"en": "index date:", "zh": "索引日期："},
    "cells.01.question": {"en": " question:", "zh": " 问题："},
    "cells.01.unfiltered_run": {"en": "unfiltered run:", "zh": "未过滤的运行结果："},
    "cells.01.extra_label": {"en": "extra label:", "zh": "新增标注："},
    # ------------------------------------------------------------------ 02 Recall vs Hit
    "cells.02.grade_for_q07": {"en": "grade for Q07", "zh": "对 Q07 的等级"},
    "cells.02.title": {"en": "title", "zh": "标题"},
    "cells.02.article": {"en": "article", "zh": "文中记号"},
    "cells.02.all_evidence": {"en": "all labelled evidence", "zh": "所有标注为相关的证据"},
    "cells.02.top_k_returned": {"en": "top K returned (after dedup)", "zh": "返回的前 K 个（去重后）"},
    "cells.02.returned_relevant": {"en": "returned and relevant", "zh": "既被返回又相关"},
    "cells.02.sizes": {"en": "sizes", "zh": "集合大小"},
    "cells.02.indicator": {"en": "indicator", "zh": "指示函数"},
    "cells.02.symbol": {"en": "symbol", "zh": "符号"},
    "cells.02.in_example": {"en": "in the example", "zh": "本例中"},
    "cells.02.recall_agrees": {"en": "recall agrees:", "zh": "Recall 一致："},
    "cells.02.hit_agrees": {"en": "hit agrees:   ", "zh": "Hit 一致：   "},
    "cells.02.relevant_r": {"en": "relevant R", "zh": "相关集合 R"},
    "cells.02.mean_recall": {
        "en": "mean Recall@3 = {value} ≈ {approx:.2f}",
        "zh": "平均 Recall@3 = {value} ≈ {approx:.2f}",
    },
    "cells.02.mean_hit": {
        "en": "mean Hit@3    = {value} ≈ {approx:.2f}   (Hit Rate = {approx:.0%})",
        "zh": "平均 Hit@3    = {value} ≈ {approx:.2f}（命中率 = {approx:.0%}）",
    },
    "cells.02.mean_recall_line": {"en": "mean Recall@3", "zh": "平均 Recall@3"},
    "cells.02.mean_hit_line": {"en": "mean Hit@3", "zh": "平均 Hit@3"},
    "cells.02.score": {"en": "score", "zh": "得分"},
    "cells.02.per_question_title": {
        "en": "每题的 Recall@3 与 Hit@3 · per question (q3 scores 0 on both)",
        "zh": "每题的 Recall@3 与 Hit@3（q3 两项都是 0）",
    },
    "cells.02.disagreements": {
        "en": "|R| = {size}: Recall@3 != Hit@3 for {differ} of {total} possible top-3 lists",
        "zh": "|R| = {size}：在 {total} 种可能的前 3 名列表中，有 {differ} 种 Recall@3 != Hit@3",
    },
    "cells.02.no_answer_questions": {"en": "no-answer questions:", "zh": "无答案问题："},
    "cells.02.means_unchanged": {"en": "means unchanged by q4:", "zh": "加入 q4 后均值不变："},
    "cells.02.correct_refusals": {"en": "correct refusals (正确拒答)", "zh": "正确拒答"},
    "cells.02.wrong_answers": {"en": "wrong answers (错误作答)", "zh": "错误作答"},
    "cells.02.n_no_answer": {"en": "{n} no-answer questions", "zh": "{n} 个无答案问题"},
    "cells.02.changed_labels": {"en": "changed labels:", "zh": "改动后的标注："},
    # ------------------------------------------------------------------ 03 MRR
    "cells.03.first_relevant_at": {
        "en": "first relevant item at rank {rank}",
        "zh": "第一个相关项排在第 {rank} 位",
    },
    "cells.03.none_in_top": {"en": "no relevant item in the top {k}", "zh": "前 {k} 名中没有相关项"},
    "cells.03.rank_axis": {"en": "rank of the first relevant item", "zh": "第一个相关项的名次"},
    "cells.03.rr_axis": {"en": "reciprocal rank", "zh": "倒数排名"},
    "cells.03.rr_title": {
        "en": "1 / rank: the score one question adds to MRR",
        "zh": "1 / 名次：一个问题为 MRR 贡献的分数",
    },
    "cells.03.rr_by_rank": {"en": "RR by rank:", "zh": "各名次的 RR："},
    "cells.03.q2_but": {
        "en": "q2: Recall@3 = {recall}, Hit@3 = {hit}, but RR@3 = {rr}",
        "zh": "q2：Recall@3 = {recall}，Hit@3 = {hit}，但 RR@3 = {rr}",
    },
    "cells.03.rr_of": {"en": "RR@{k:<2} of {ranking} = {value}", "zh": "{ranking} 的 RR@{k:<2} = {value}"},
    "cells.03.variant_complete": {"en": "A B C (complete)", "zh": "A B C（全部找到）"},
    "cells.03.variant_only_a": {"en": "A X Y (only A)", "zh": "A X Y（只有 A）"},
    "cells.03.checked": {"en": "rankings × cut-offs checked", "zh": "检查过的排序 × 截断"},
    "cells.03.agree": {"en": "agree", "zh": "一致"},
    "cells.03.empty": {"en": "(empty)", "zh": "（空）"},
    "cells.03.ranking_column": {"en": "ranking", "zh": "排序"},
    "cells.03.mine": {"en": "mine", "zh": "我的实现"},
    # ------------------------------------------------------------------ 04 nDCG
    "cells.04.answers_directly": {"en": "answers directly", "zh": "能直接回答"},
    "cells.04.helps": {"en": "helps", "zh": "有帮助"},
    "cells.04.irrelevant": {"en": "irrelevant", "zh": "无关"},
    "cells.04.gain_column": {"en": "gain 2^grade - 1", "zh": "增益 2^等级 - 1"},
    "cells.04.single_item": {"en": "single item at rank 1: dcg_at_k", "zh": "单个条目排第 1：dcg_at_k"},
    "cells.04.grade": {"en": "grade", "zh": "等级"},
    "cells.04.weight_column": {"en": "weight 1/log2(i+1)", "zh": "权重 1/log2(i+1)"},
    "cells.04.rank_i": {"en": "rank i", "zh": "名次 i"},
    "cells.04.ndcg_weight_line": {"en": "nDCG weight 1/log2(i+1)", "zh": "nDCG 权重 1/log2(i+1)"},
    "cells.04.mrr_weight_line": {"en": "MRR weight 1/i (notebook 03)", "zh": "MRR 权重 1/i（第 03 本）"},
    "cells.04.weight": {"en": "weight", "zh": "权重"},
    "cells.04.discount_title": {"en": "Position discount", "zh": "位置折扣"},
    "cells.04.rank": {"en": "rank", "zh": "名次"},
    "cells.04.item": {"en": "item", "zh": "条目"},
    "cells.04.gain": {"en": "gain", "zh": "增益"},
    "cells.04.running_dcg": {"en": "running DCG", "zh": "累计 DCG"},
    "cells.04.dcg_from_ragmath": {
        "en": "DCG@3 from ragmath: {value:g}",
        "zh": "ragmath 算出的 DCG@3：{value:g}",
    },
    "cells.04.sum_of_table": {"en": "sum of the table:   {value:g}", "zh": "表中各项之和：      {value:g}"},
    "cells.04.rank2_term": {
        "en": "rank-2 term: {gain} / {discount:.3f} = {term:.3f}",
        "zh": "第 2 名一项：{gain} / {discount:.3f} = {term:.3f}",
    },
    "cells.04.actual_item": {"en": "actual item", "zh": "实际条目"},
    "cells.04.actual_term": {"en": "actual term", "zh": "实际贡献"},
    "cells.04.ideal_item": {"en": "ideal item", "zh": "理想条目"},
    "cells.04.ideal_term": {"en": "ideal term", "zh": "理想贡献"},
    "cells.04.lost": {"en": "lost", "zh": "损失"},
    "cells.04.change_vs_run": {"en": "change vs run", "zh": "相对本次运行结果的变化"},
    "cells.04.cf_x_down": {
        "en": "A B X (X moved down, C still missing)",
        "zh": "A B X（X 下移，C 仍缺失）",
    },
    "cells.04.cf_c_found": {
        "en": "A X C (C found, X still at rank 2)",
        "zh": "A X C（找到 C，X 仍在第 2 名）",
    },
    "cells.04.cf_c_at_2": {
        "en": "A C X (C found at rank 2, X at rank 3)",
        "zh": "A C X（C 在第 2 名，X 在第 3 名）",
    },
    "cells.04.cf_ideal": {"en": "A C B (ideal)", "zh": "A C B（理想排序）"},
    "cells.04.relabelled": {"en": "relabelled grades:", "zh": "重新标注后的等级："},
    "cells.04.linear_vs_exp": {
        "en": "linear nDCG@3 on relabelled grades = {linear:.4f}; exponential nDCG@3 = {exponential:.4f}",
        "zh": "重新标注后的线性增益 nDCG@3 = {linear:.4f}；指数增益 nDCG@3 = {exponential:.4f}",
    },
    "cells.04.undefined": {
        "en": "nDCG undefined for: {undefined}   (also listed as no-answer: {no_answer} )",
        "zh": "nDCG 无定义的问题：{undefined}（也列为无答案问题：{no_answer}）",
    },
    "cells.04.single_hop": {"en": "single-hop", "zh": "单跳"},
    "cells.04.multi_hop": {"en": "multi-hop", "zh": "多跳"},
    "cells.04.type": {"en": "type", "zh": "类型"},
    "cells.04.plain_mean": {
        "en": "plain mean over {n} questions:   {value:.3f}",
        "zh": "{n} 个问题的简单平均：  {value:.3f}",
    },
    "cells.04.mean_of_means": {
        "en": "mean of the {n} per-type means:  {value:.3f}",
        "zh": "{n} 个类型均值的平均：{value:.3f}",
    },
    "cells.04.level": {"en": "level", "zh": "评估单位"},
    "cells.04.grades_padded": {"en": "grades: ", "zh": "等级："},
    "cells.04.types_padded": {"en": "types: ", "zh": "类型："},
    "cells.04.type_weights": {"en": "type weights:", "zh": "类型权重："},
    # ------------------------------------------------------------------ 05 RRF
    "cells.05.cosine": {"en": "cosine", "zh": "余弦"},
    "cells.05.bm25_share": {"en": "BM25 share of sum", "zh": "BM25 占总和的比例"},
    "cells.05.sum_order": {"en": "order by summed score:", "zh": "按分数之和排序："},
    "cells.05.bm25_order": {"en": "BM25's order         :", "zh": "BM25 的顺序：    "},
    "cells.05.sum_keeps_order": {
        "en": "the sum keeps BM25's order: {value}",
        "zh": "相加后仍是 BM25 的顺序：{value}",
    },
    "cells.05.cosine_vs_gap": {
        "en": "largest cosine {cosine:.2f} < smallest gap between BM25 scores {gap:.1f}: {value}",
        "zh": "最大的余弦 {cosine:.2f} < BM25 分数之间的最小差距 {gap:.1f}：{value}",
    },
    "cells.05.vector_best": {
        "en": "{item}, the vector search's best hit, ends at position {position} of {total}",
        "zh": "向量召回的第一名 {item} 最终排在 {total} 个中的第 {position} 位",
    },
    "cells.05.bm25_score": {"en": "BM25 score", "zh": "BM25 分数"},
    "cells.05.raw_sum_axis": {"en": "raw score added up", "zh": "原始分数相加"},
    "cells.05.raw_sum_title": {
        "en": "Adding raw scores: the cosine part is a sliver",
        "zh": "直接相加原始分数：余弦那部分只剩薄薄一条",
    },
    "cells.05.list_rank": {"en": "{name} rank", "zh": "{name} 名次"},
    "cells.05.rrf_sum": {"en": "Σ 1/(k + rank)", "zh": "Σ 1/(k + 名次)"},
    "cells.05.four_decimals": {
        "en": "at 4 decimals both read {a} and {b}; they first differ in decimal place {place}",
        "zh": "保留 4 位小数时两者分别显示为 {a} 和 {b}；直到小数点后第 {place} 位才不同",
    },
    "cells.05.difference": {"en": "difference: {value:.2e}", "zh": "差值：{value:.2e}"},
    "cells.05.s61": {
        "en": "6.1 (rank 2 in both lists): {score}",
        "zh": "6.1（在两个列表中都排第 2）：{score}",
    },
    "cells.05.s53": {
        "en": "5.3 (rank 1 in one list)  : {score}",
        "zh": "5.3（只在一个列表中排第 1）：{score}",
    },
    "cells.05.winner": {"en": "-> {winner} ranks higher at k = 60", "zh": "-> k = 60 时 {winner} 排得更高"},
    "cells.05.k_order": {
        "en": "k = {k:>2}: order {order}; 5.3 (first in one list) gets {share_53:.0%} of the leader's "
              "score, 3.5 (third in one list) {share_35:.0%}",
        "zh": "k = {k:>2}：顺序 {order}；5.3（在一个列表中排第一）得到第一名分数的 "
              "{share_53:.0%}，3.5（在一个列表中排第三）得到 {share_35:.0%}",
    },
    "cells.05.rows_per_clause": {"en": "rows per clause:", "zh": "每个条款的行数："},
    "cells.05.clause": {"en": "clause", "zh": "条款"},
    "cells.05.aligned_lists": {"en": "aligned lists:", "zh": "对齐后的列表："},
    "cells.05.unaligned_rows": {
        "en": "unaligned, clause 4.2 fills {n} rows (fused ranks {ranks}), each with one list's share;",
        "zh": "未对齐时，条款 4.2 占了 {n} 行（融合名次 {ranks}），每行只有一个列表的贡献；",
    },
    "cells.05.aligned_row": {
        "en": "aligned, it is one row at fused rank {rank} with both shares added: {score}",
        "zh": "对齐后，它是融合名次第 {rank} 的一行，两份贡献相加：{score}",
    },
    "cells.05.mapped_not_dedup": {"en": "mapped, not deduplicated:", "zh": "映射后、未去重："},
    "cells.05.mapped_dedup": {"en": "mapped and deduplicated :", "zh": "映射并去重：  "},
    "cells.05.rrf_refuses": {"en": "rrf refuses the duplicate:", "zh": "rrf 拒绝重复项："},
    "cells.05.fused_score": {"en": "fused score", "zh": "融合分数"},
    "cells.05.fused_score_title": {"en": "{title}: fused score", "zh": "{title}：融合分数"},
    "cells.05.relative_axis": {"en": "score ÷ leader's score", "zh": "分数 ÷ 第一名的分数"},
    "cells.05.relative_title": {"en": "{title}: relative to the leader", "zh": "{title}：相对第一名"},
    "cells.05.article_lists": {"en": "article lists", "zh": "文中的两个列表"},
    "cells.05.lead_changes": {"en": "lead changes over k = 1…200:", "zh": "k = 1…200 范围内第一名的变化："},
    "cells.05.three_lists": {"en": "three lists", "zh": "三个列表"},
    "cells.05.lists": {"en": "lists:", "zh": "列表："},
    "cells.05.window": {"en": " window =", "zh": " 窗口 ="},
    "cells.05.vector": {"en": "vector:", "zh": "向量："},
    "cells.05.table": {"en": "table: ", "zh": "映射表："},
    # ------------------------------------------------------------------ 05b tools for the ablation
    "cells.05b.group": {"en": "group", "zh": "组"},
    "cells.05b.random_fold": {"en": "random fold", "zh": "随机分折"},
    "cells.05b.grouped_fold": {"en": "grouped fold", "zh": "按组分折"},
    "cells.05b.groups_split": {"en": "groups split across folds", "zh": "被拆到不同折的组数"},
    "cells.05b.random": {"en": "random", "zh": "随机"},
    "cells.05b.grouped": {"en": "grouped", "zh": "按组"},
    "cells.05b.fold": {"en": "fold", "zh": "折"},
    "cells.05b.questions": {"en": "questions", "zh": "问题数"},
    "cells.05b.groups": {"en": "groups", "zh": "组数"},
    "cells.05b.groups_elsewhere": {"en": "groups also in another fold", "zh": "也出现在其他折的组数"},
    "cells.05b.label": {"en": "label", "zh": "标注"},
    "cells.05b.score_by_hand": {"en": "score (by hand)", "zh": "分数（手算）"},
    "cells.05b.score_model": {"en": "score (LinearReranker)", "zh": "分数（LinearReranker）"},
    "cells.05b.p_relevant": {"en": "P(relevant)", "zh": "P(相关)"},
    "cells.05b.ngrams": {
        "en": "{ngrams} distinct n-grams; vectors of {dim} numbers",
        "zh": "{ngrams} 个不同的 n-gram；每个向量 {dim} 个数",
    },
    "cells.05b.by_hand": {"en": "by hand", "zh": "手算"},
    "cells.05b.hist_axis": {
        "en": "mean nDCG@5 of a resample of the questions",
        "zh": "一次问题重抽样的平均 nDCG@5",
    },
    "cells.05b.hist_title": {
        "en": "10,000 resampled means of D's dev nDCG@5; dashed: the 95 % interval",
        "zh": "D 在开发集上 nDCG@5 的 10,000 个重抽样均值；虚线：95 % 区间",
    },
    "cells.05b.mean_diff": {"en": "mean diff", "zh": "平均差值"},
    "cells.05b.p_bootstrap": {"en": "p (bootstrap)", "zh": "p（自助法）"},
    "cells.05b.p_sign_flip": {"en": "p (sign-flip)", "zh": "p（符号翻转）"},
    "cells.05b.excludes_zero": {"en": "excludes 0", "zh": "不含 0"},
    "cells.05b.as_far": {"en": "as far from 0", "zh": "离 0 一样远或更远"},
    "cells.05b.test": {"en": "test", "zh": "检验"},
    "cells.05b.wins": {"en": "wins", "zh": "胜"},
    "cells.05b.ties": {"en": "ties", "zh": "平"},
    "cells.05b.losses": {"en": "losses", "zh": "负"},
    # ------------------------------------------------------------------ 06 ablation
    "cells.06.dataset": {
        "en": "snapshot {date}; {chunks} chunks; {questions} dev questions in {groups} groups; holdout "
              "included: {holdout}",
        "zh": "快照 {date}；{chunks} 个片段；开发集 {questions} 个问题，分成 {groups} "
              "组；包含保留集：{holdout}",
    },
    "cells.06.total": {"en": "total", "zh": "合计"},
    "cells.06.what_it_does": {"en": "what it does", "zh": "作用"},
    "cells.06.tokenizer": {"en": "tokenizer", "zh": "分词器"},
    "cells.06.sentence_inv102": {
        "en": "INV-102 能报多少 (how much can INV-102 claim?)",
        "zh": "INV-102 能报多少",
    },
    "cells.06.sentence_taxi": {
        "en": "打车超出额度了咋办 (my taxi went over the allowance)",
        "zh": "打车超出额度了咋办",
    },
    "cells.06.sentence_local": {
        "en": "市内交通费用超出标准 (local transport over the standard)",
        "zh": "市内交通费用超出标准",
    },
    "cells.06.sentence_clause": {"en": "clause TRV26-4.2-a", "zh": "条款 TRV26-4.2-a"},
    "cells.06.text_alone": {"en": "text alone", "zh": "仅条款正文"},
    "cells.06.as_indexed": {"en": "as indexed", "zh": "索引时的文本"},
    "cells.06.tokens_shared_with": {"en": "tokens shared with", "zh": "共享的词元"},
    "cells.06.characters": {"en": "characters", "zh": "字符数"},
    "cells.06.grid_tried": {
        "en": "{n} settings tried; chosen: k = {k}, W = {window}, M = {depth}",
        "zh": "试了 {n} 组设置；选中：k = {k}，W = {window}，M = {depth}",
    },
    "cells.06.m20_all": {"en": "M = 20, all dev questions", "zh": "M = 20，全部开发集问题"},
    "cells.06.frozen_vs_tuned": {
        "en": "frozen: k = {k}, W = {window}, M = {depth} (chosen on dev: {tuned}); equal to today's "
              "tuning: {same}",
        "zh": "冻结的设计：k = {k}，W = {window}，M = "
              "{depth}（在开发集上选定：{tuned}）；与今天的调参结果相同：{same}",
    },
    "cells.06.cd_answers": {
        "en": "C and D hand the generator the same set of passages for {same} of {total} questions (M = "
              "{depth}, {read} passages read), only in another order; their answers differ in correctness "
              "on {changed} question(s). A better order moves MRR@5 and nDCG@5; our extractive answerer "
              "picks the best-covering passage whatever its rank.",
        "zh": "在 {total} 个问题中，有 {same} 个问题 C 和 D 交给生成模型的段落集合相同（M = {depth}，读取 "
              "{read} 段），只是顺序不同；两者答案的对错在 {changed} 个问题上不同。更好的顺序会提高 MRR@5 "
              "和 nDCG@5；而我们的抽取式回答器不看名次，总是挑覆盖最好的段落。",
    },
    "cells.06.dev_chart_title": {
        "en": "dev: retrieval and answers by version (开发集)",
        "zh": "开发集：各版本的召回与回答",
    },
    "cells.06.question": {"en": "question", "zh": "问题"},
    "cells.06.clause42_moves": {
        "en": "Clause 4.2 moves up under D for {up} of its {total} questions and down for {down}; {recall} "
              "is the same for C and D (asserted above): the reranker reorders, it adds nothing.",
        "zh": "在条款 4.2 的 {total} 个问题中，D 让它上移的有 {up} 个、下移的有 {down} 个；C 和 D 的 "
              "{recall} 相同（上面已断言）：重排模型只改变顺序，不带来新的片段。",
    },
    "cells.06.answer": {"en": "answer", "zh": "回答"},
    "cells.06.number": {"en": "number", "zh": "数值"},
    "cells.06.gold": {"en": "gold", "zh": "标准答案"},
    "cells.06.correct": {"en": "correct", "zh": "正确"},
    "cells.06.oracle_evidence": {"en": "Oracle evidence:", "zh": "Oracle 的证据："},
    "cells.06.extractive": {"en": "extractive", "zh": "抽取式"},
    "cells.06.misread_limit": {"en": "misread limit", "zh": "误读限额"},
    "cells.06.none": {"en": "none", "zh": "无"},
    "cells.06.oracle_faulty": {
        "en": "With the gold evidence the Oracle answers {ours}/{n} with our generator and {faulty}/{n} "
              "with the faulty one. It loses {lost} ({lost_ids}), of which {excess} ask how much a spend "
              "exceeds a limit: a generation fault, caught by the Oracle row, that no retrieval change "
              "fixes.",
        "zh": "给定标准证据时，Oracle 用我们的生成模型答对 {ours}/{n}，用有缺陷的生成模型答对 "
              "{faulty}/{n}。它丢掉了 {lost} 个（{lost_ids}），其中 {excess} "
              "个问的是花费超出限额多少：这是生成环节的错误，Oracle "
              "这一行能发现它，而召回上的任何改动都修不好。",
    },
    "cells.06.oracle_misses": {
        "en": "Even our generator misses {misses} answerable dev questions with the gold evidence in hand "
              "(types: {types}): it judges evidence by character overlap and does no date or range "
              "arithmetic.",
        "zh": "即使手握标准证据，我们的生成模型仍答错 {misses} "
              "个有答案的开发集问题（类型：{types}）：它按字符重合来判断证据，也不做日期或区间的计算。",
    },
    "cells.06.context_cost": {
        "en": "The Oracle sends {oracle:.0f} characters per question (only the gold chunks); A–D send the "
              "top {top} passages, {low:.0f}–{high:.0f} characters: the retrieval versions pay for the "
              "passages the generator must wade through.",
        "zh": "Oracle 每个问题只发送 {oracle:.0f} 个字符（只有标准片段）；A–D 发送前 {top} "
              "段，{low:.0f}–{high:.0f} 个字符：召回版本要为生成模型必须通读的这些段落付出代价。",
    },
    # ------------------------------------------------------------------ 07 honest numbers
    "cells.07.frozen_design": {"en": "frozen design", "zh": "冻结的设计"},
    "cells.07.sealed_by": {
        "en": "sealed by commit {commit} on {date} ({source})",
        "zh": "由提交 {commit} 于 {date} 封存（{source}）",
    },
    "cells.07.openings_so_far": {"en": "openings recorded so far: {n}", "zh": "目前记录的启封次数：{n}"},
    "cells.07.wilson_by_hand": {
        "en": "by hand: {low_hand:.1%} – {high_hand:.1%}; wilson_interval: {low:.1%} – {high:.1%}",
        "zh": "手算：{low_hand:.1%} – {high_hand:.1%}；wilson_interval：{low:.1%} – {high:.1%}",
    },
    "cells.07.every_answer": {"en": "every answer a sample (wrong)", "zh": "每个回答算一个样本（错误）"},
    "cells.07.questions_resampled": {"en": "questions resampled (right)", "zh": "按问题重抽样（正确）"},
    "cells.07.samples": {"en": "samples", "zh": "样本数"},
    "cells.07.holdout_sealed": {
        "en": "holdout sealed by {commit} on {date}",
        "zh": "保留集由 {commit} 于 {date} 封存",
    },
    "cells.07.opened": {
        "en": "opened {times} time(s); this opening: {at} at commit {commit}, design {design}",
        "zh": "已启封 {times} 次；本次启封：{at}，提交 {commit}，设计 {design}",
    },
    # ------------------------------------------------------------------ solutions
    "cells.s01.clause_top3": {"en": "clause-level top 3:", "zh": "条款级前 3 名："},
    "cells.s01.relevant_clauses": {"en": "relevant clauses:  ", "zh": "相关条款：     "},
    "cells.s01.readable": {"en": "readable, in order:", "zh": "可读的片段（按顺序）："},
    "cells.s01.top5": {"en": "top 5:", "zh": "前 5 名："},
    "cells.s01.labels_graded": {"en": "labels with grade > 0:", "zh": "等级 > 0 的标注："},
    "cells.s02.found_top3": {"en": "found in top 3:", "zh": "前 3 名中找到的："},
    "cells.s02.hit_rate": {"en": "Hit Rate =", "zh": "命中率 ="},
    "cells.s02.no_answer": {"en": "no-answer:", "zh": "无答案问题："},
    "cells.s02.mean_answerable": {
        "en": "mean Recall@3 over answerable questions = {value} ≈ {approx:.3f}",
        "zh": "有答案问题上的平均 Recall@3 = {value} ≈ {approx:.3f}",
    },
    "cells.s02.scored_zero": {
        "en": "with no-answer questions scored 0: {value} ≈ {approx:.3f}",
        "zh": "把无答案问题记为 0 时：{value} ≈ {approx:.3f}",
    },
    "cells.s02.before": {"en": "before", "zh": "之前"},
    "cells.s02.after": {"en": "after", "zh": "之后"},
    "cells.s02.change": {"en": "change", "zh": "变化"},
    "cells.s02.mean_recall": {"en": "mean Recall@3 =", "zh": "平均 Recall@3 ="},
    "cells.s03.first_at_rank": {"en": "first relevant item at rank", "zh": "第一个相关项的名次："},
    "cells.s03.answer": {"en": "answer:", "zh": "答案："},
    "cells.s03.mrr_change": {
        "en": "MRR@3 of section 2 = {at_3}, MRR@5 here = {at_5} ≈ {approx:.2f}, change = {change}",
        "zh": "第 2 节的 MRR@3 = {at_3}，这里的 MRR@5 = {at_5} ≈ {approx:.2f}，变化 = {change}",
    },
    "cells.s04.rank_term": {
        "en": "rank {rank}: {item} grade {grade} -> ({gain}) / {discount:.3f}",
        "zh": "第 {rank} 名：{item}，等级 {grade} -> ({gain}) / {discount:.3f}",
    },
    "cells.s04.linear": {
        "en": "linear: DCG@3 = {dcg:.4f}, IDCG@3 = {idcg:.4f}, nDCG@3 = {ndcg:.4f}",
        "zh": "线性增益：DCG@3 = {dcg:.4f}，IDCG@3 = {idcg:.4f}，nDCG@3 = {ndcg:.4f}",
    },
    "cells.s04.weighted": {
        "en": "weighted mean = {weighted:.4f}   (plain mean = {plain:.4f})",
        "zh": "加权平均 = {weighted:.4f}（简单平均 = {plain:.4f}）",
    },
    "cells.s04.graded_vs_binary": {
        "en": "graded labels: nDCG@3 = {graded:.3f};  binary labels: nDCG@3 = {binary:.3f}",
        "zh": "分级标注：nDCG@3 = {graded:.3f}；二元标注：nDCG@3 = {binary:.3f}",
    },
    "cells.s05.by_hand": {
        "en": "by hand: {hand:.4f}   rrf: {rrf:.4f}",
        "zh": "手算：{hand:.4f}   rrf：{rrf:.4f}",
    },
    "cells.s05.crossing": {
        "en": "crossing point by hand: k = {crossing:.2f} -> first integer k after it: {k}",
        "zh": "手算的交点：k = {crossing:.2f} -> 其后的第一个整数 k：{k}",
    },
    "cells.s05.before_aligning": {"en": "before aligning:", "zh": "对齐之前："},
    "cells.s05.leader": {
        "en": "k = {k}: leader {leader}, margin {margin:.5f}",
        "zh": "k = {k}：第一名 {leader}，领先 {margin:.5f}",
    },
    "cells.s05b.groups_split": {
        "en": "{split} of {groups} groups split ({multi} groups have more than one question)",
        "zh": "{groups} 个组中有 {split} 个被拆开（{multi} 个组不止一个问题）",
    },
    "cells.s05b.widths": {
        "en": "width on ten questions {ten:.3f}; on all {n}: {every:.3f}",
        "zh": "十个问题时区间宽度 {ten:.3f}；全部 {n} 个问题时：{every:.3f}",
    },
    "cells.s05b.share": {
        "en": "share <= 0: {share:.4f}; twice that: {twice:.4f}; paired_bootstrap's p: {p:.4f}",
        "zh": "<= 0 的比例：{share:.4f}；它的两倍：{twice:.4f}；paired_bootstrap 的 p：{p:.4f}",
    },
    "cells.s06.deeper": {
        "en": "M = {depth}: D − C on Recall@5 = {difference:+.3f}; on Recall@{depth}: {deep:+.3f}",
        "zh": "M = {depth}：Recall@5 上 D − C = {difference:+.3f}；Recall@{depth} 上：{deep:+.3f}",
    },
    "cells.s06.exact_first": {
        "en": "exact-ID questions: {n}; A ranks the evidence first for {first}",
        "zh": "精确 ID 问题：{n} 个；A 把证据排在第一位的有 {first} 个",
    },
    "cells.s06.holding": {
        "en": "chunks holding the token {token} under plain jieba: {chunks}",
        "zh": "用 plain jieba 分词时含有词元 {token} 的片段：{chunks}",
    },
    "cells.s06.oracle_faulty": {
        "en": "Oracle with the faulty generator: {right}/{n}",
        "zh": "用有缺陷的生成模型时，Oracle 答对：{right}/{n}",
    },
    "cells.s07.wilson": {
        "en": "{x}/{n} = {rate:.3f}: 95 % Wilson interval [{low:.3f}, {high:.3f}]",
        "zh": "{x}/{n} = {rate:.3f}：95 % Wilson 区间 [{low:.3f}, {high:.3f}]",
    },
    "cells.s07.narrower": {"en": "narrower than {width}", "zh": "比 {width} 窄"},
    "cells.s07.straddling": {
        "en": "{n} groups on both sides: {groups}",
        "zh": "{n} 个组横跨两边：{groups}",
    },
    "cells.s08.service_down": {"en": "permission service unavailable", "zh": "权限服务不可用"},
    # phrases the cells pass to the readings, which put them inside their sentences
    "cells.04.fault_x_at_2": {"en": "X at rank 2", "zh": "第 2 名的 X"},
    "cells.04.fault_missing_c": {"en": "the missing C", "zh": "缺失的 C"},
    "cells.06.where_clause_alone": {"en": "the clause's text alone", "zh": "只看条款原文"},
    "cells.06.where_chunk_indexed": {"en": "the chunk as indexed", "zh": "按索引中的片段"},
    "cells.06.what_clause_42": {"en": "Clause 4.2", "zh": "第 4.2 条"},
    "cells.06.what_exact_id_evidence": {"en": "Exact-ID evidence", "zh": "精确 ID 类证据"},
    "cells.06.what_exact_id_questions": {"en": "exact-ID questions", "zh": "精确 ID 类问题"},
    "cells.06.what_paraphrase_questions": {"en": "paraphrase questions", "zh": "改写类问题"},
    "cells.07.label_dev_optimistic": {"en": "dev (optimistic)", "zh": "开发集（偏乐观）"},
    "cells.07.label_holdout": {"en": "holdout", "zh": "保留集"},
    "cells.07.seal_subject": {"en": "  {subject}", "zh": "  封存提交的说明（原文）：“{subject}”"},
}
