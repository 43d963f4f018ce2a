"""Messages of the readings (see ragmath.lab.messages): the top of ragmath/lab/readings.py and its
section for notebooks 03, 04, 05b and 06."""

MESSAGES: dict[str, dict[str, str]] = {
    # ---- pieces shared by the readings
    "readings.sentence_end": {"en": "{text}.", "zh": "{text}。"},
    "readings.two_sentences": {"en": "{first} {second}", "zh": "{first}{second}"},
    "readings.list_semicolon": {"en": "; ", "zh": "；"},
    "readings.what.questions": {"en": "questions", "zh": "问题"},
    "readings.noun.chunk": {"en": "chunk", "zh": "个片段"},
    "readings.noun.chunks": {"en": "chunks", "zh": "个片段"},
    "readings.noun.paraphrase": {"en": "paraphrase", "zh": "条口语化改写的问题"},
    "readings.noun.paraphrases": {"en": "paraphrases", "zh": "条口语化改写的问题"},
    # metric names that are words, shown in the reader's language (the tables keep the English column)
    "readings.metric.answer_accuracy": {"en": "answer accuracy", "zh": "答案准确率"},
    "readings.metric.citation_support": {"en": "citation support", "zh": "引用支撑"},
    "readings.metric.correct_refusals": {"en": "correct refusals", "zh": "正确拒答"},
    # split names shown in a paired reading (the table keeps "dev" / "holdout")
    "readings.split.dev": {"en": "dev", "zh": "开发集"},
    "readings.split.holdout": {"en": "holdout", "zh": "保留集"},

    # ---- compare
    "readings.compare.leads": {"en": "On {metric}, {names} leads ({listing})",
                               "zh": "{metric}：{names} 领先（{listing}）"},
    "readings.compare.tie": {"en": "On {metric}, {names} tie for the lead ({listing})",
                             "zh": "{metric}：{names} 并列领先（{listing}）"},
    "readings.compare.no_values": {
        "en": "cannot compare {names} on {metric}: no version has a value (all NaN); check the metric "
              "was computed for them",
        "zh": "无法在 {metric} 上比较 {names}：没有一个版本有数值（全是 NaN）；请检查是否为它们算过这个指标"},
    "readings.compare.expected_match": {"en": "{text}; the article expects {expected} to lead: this matches",
                                        "zh": "{text}；文章预期 {expected} 领先，结果相符"},
    "readings.compare.expected_mismatch": {
        "en": "{text}; the article expects {expected} to lead: this does not match",
        "zh": "{text}；文章预期 {expected} 领先，结果不符"},

    # ---- read_ablation
    "readings.ablation.fusion_kept": {
        "en": "Fusion keeps what either list found, as the article expects.",
        "zh": "融合保留了两路召回各自找到的结果，与文章的预期一致。"},
    "readings.ablation.fusion_no_gain": {
        "en": "Fusion did not add recall here: one list already holds what the other finds, or "
              "RRF pushed a relevant chunk below the cut-off.",
        "zh": "融合在这里没有提高召回率：要么一路结果已经包含了另一路找到的内容，要么 RRF 把某个相关片段"
              "挤到了截断位置之下。"},
    "readings.ablation.rerank_up": {
        "en": "The reranker moves relevant chunks up, as the article expects.",
        "zh": "重排模型把相关片段往前提了，与文章的预期一致。"},
    "readings.ablation.rerank_not_up": {
        "en": "The reranker did not move relevant chunks up on average on these questions.",
        "zh": "在这些问题上，重排模型平均而言没有把相关片段往前提。"},
    "readings.ablation.recall_m_equal": {
        "en": "{metric} is {c} for C and {d} for D: equal, as it must be, since the reranker only "
              "reorders the top {depth}.",
        "zh": "C 的 {metric} 为 {c}，D 为 {d}：两者相等，本该如此，因为重排模型只对前 {depth} 名重新排序。"},
    "readings.ablation.recall_m_differ": {
        "en": "{metric} is {c} for C and {d} for D: they differ, which a reranker over the top M cannot "
              "cause: a bug.",
        "zh": "C 的 {metric} 为 {c}，D 为 {d}：两者不同，而只在前 M 名内重排的重排模型不可能造成这种差异，"
              "这说明代码有错误。"},
    "readings.ablation.correct_item": {"en": "{version} {correct}/{n}", "zh": "{version} {correct}/{n}"},
    "readings.ablation.accuracy": {
        "en": "{reading}: {correct} correct. The four versions are {spread} question(s) apart out of {n}; "
              "one question weighs {weight:.1f} points, so read it with its interval (notebook 07).",
        "zh": "{reading}，答对的题数为 {correct}。四个版本之间最多相差 {spread} 道题（共 {n} 道）；"
              "一道题就占 {weight:.1f} 个百分点，所以要结合它的区间来读（笔记本 07）。"},
    "readings.ablation.oracle": {
        "en": "The Oracle answers {oracle}/{n} with the gold evidence in hand, D {d}/{n}: better retrieval "
              "could win at most {headroom} more here, and the other {losses} are lost by the generator "
              "itself (no retrieval can fix those).",
        "zh": "Oracle（给定标准证据）答对 {oracle}/{n}，D 答对 {d}/{n}：更好的召回在这里最多还能多答对 "
              "{headroom} 道，其余 {losses} 道是生成模型自己答错的（召回再好也救不回来）。"},

    # ---- read_first_ranks
    "readings.first_ranks.rank_1": {"en": "rank 1", "zh": "第 1 名"},
    "readings.first_ranks.top_5": {"en": "top 5", "zh": "前 5 名"},
    "readings.first_ranks.counts": {
        "en": "Relevant chunk at {label} for the {n} {what}: {listing}; {names} lead(s)",
        "zh": "{n} 个{what}中相关片段排在{label}的数目：{listing}；{names} 领先"},
    "readings.first_ranks.expected_match": {"en": "{text}; the article expects {expected}: this matches",
                                            "zh": "{text}；文章预期 {expected} 领先，结果相符"},
    "readings.first_ranks.expected_mismatch": {
        "en": "{text}; the article expects {expected}: this does not match",
        "zh": "{text}；文章预期 {expected} 领先，结果不符"},

    # ---- read_grid
    "readings.grid.side_lowest": {"en": "lowest", "zh": "最低"},
    "readings.grid.side_highest": {"en": "highest", "zh": "最高"},
    "readings.grid.side_only": {"en": "only", "zh": "唯一"},
    "readings.grid.inside": {"en": "inside the grid", "zh": "位于网格内部"},
    "readings.grid.edge_flat": {"en": "on the grid's {side} edge, but the profile is flat",
                                "zh": "位于网格的{side}边缘，但曲线是平的"},
    "readings.grid.edge": {
        "en": "on the grid's {side} edge: the best may lie beyond it, or the knob cannot go further "
              "(M cannot be below K)",
        "zh": "位于网格的{side}边缘：最佳值可能在网格之外，也可能这个参数已经无法再往外取（M 不能小于 K）"},
    "readings.grid.position": {
        "en": "{knob} = {chosen:g} is {tail}; across its values the best {metric} moves by {spread:.3f}",
        "zh": "{knob} = {chosen:g} {tail}；在它的各个取值上，最佳 {metric} 的变化幅度为 {spread:.3f}"},
    "readings.grid.flat_end": {"en": "{text} (it does not matter here).", "zh": "{text}（这里它无关紧要）。"},
    "readings.grid.best": {
        "en": "{n_best} of {total} settings reach the best dev {metric} of {best:.3f}; the chosen one is "
              "optimistic by construction (the best of {total} tries on the same questions).",
        "zh": "{total} 组设置中有 {n_best} 组达到开发集上最佳的 {metric}（{best:.3f}）；选出的那组天然偏乐观"
              "（它是在同一批问题上试了 {total} 次之后的最好结果）。"},

    # ---- p-values (read_paired, read_knob)
    "readings.p.sign_flip": {"en": "sign-flip p = {p:.3f}", "zh": "符号翻转检验 p = {p:.3f}"},
    "readings.p.with_holm": {"en": "{text}, Holm over the {family} comparisons {holm:.3f}",
                             "zh": "{text}，对 {family} 个比较做 Holm 校正后为 {holm:.3f}"},

    # ---- read_paired
    "readings.paired.holm_p": {"en": "Holm's p", "zh": "Holm 校正后的 p"},
    "readings.paired.the_p": {"en": "the p", "zh": "p"},
    "readings.paired.where": {"en": " ({split})", "zh": "（{split}）"},
    "readings.paired.row": {
        "en": "{comparison}{where}: {mean:+.3f} [{low:+.3f}, {high:+.3f}] over {n} questions ({wins} better, "
              "{ties} tied, {losses} worse; {p}): {verdict}",
        "zh": "{comparison}{where}：{mean:+.3f} [{low:+.3f}, {high:+.3f}]，共 {n} 个问题（{wins} 个更好，"
              "{ties} 个持平，{losses} 个更差；{p}）：{verdict}"},
    "readings.paired.apart": {
        "en": "the interval leaves out 0 and {p_name} is below 0.05, the two can be told apart.",
        "zh": "区间不含 0，且 {p_name} 低于 0.05，两者可以区分开。"},
    "readings.paired.apart_not_low": {
        "en": "the interval leaves out 0 but {p_name} is not below 0.05: interval and p disagree at the "
              "edge, so the difference is not settled at the 5 % level.",
        "zh": "区间不含 0，但 {p_name} 不低于 0.05：区间和 p 在边界上不一致，所以在 5 % 水平上"
              "这个差异还没有定论。"},
    "readings.paired.low_not_apart": {
        "en": "the interval holds 0 but {p_name} is below 0.05: interval and p disagree at the edge, "
              "so the difference is not settled at the 5 % level.",
        "zh": "区间包含 0，但 {p_name} 低于 0.05：区间和 p 在边界上不一致，所以在 5 % 水平上"
              "这个差异还没有定论。"},
    "readings.paired.not_apart": {"en": "the interval holds 0, the two cannot be told apart.",
                                  "zh": "区间包含 0，两者无法区分。"},
    "readings.paired.stored": {
        "en": "These rows are recomputed from the per-question scores stored at the holdout's one opening; "
              "nothing is re-run. Their p is the sign-flip p of the dev table above; the opening itself "
              "showed paired-bootstrap p-values, another test with other values.",
        "zh": "这些行是由保留集唯一一次启封时存下的逐题分数重新算出的，没有重新运行任何东西。"
              "这里的 p 是上面开发集表格所用的符号翻转检验 p；启封时显示的是配对 bootstrap（自助法）"
              "的 p 值，那是另一种检验，数值也不同。"},

    # ---- read_leakage
    "readings.leakage.sentence": {
        "en": "Over {seeds} seeds the random split estimates {metric} at {random:.3f} on average and the "
              "grouped split at {grouped:.3f}: the random split is higher by {mean:+.3f} on average, and "
              "higher in {higher} of {seeds} seeds. On average {twins:.1f} test questions have a "
              "near-duplicate (a question of the same group) among the questions the reranker was fitted "
              "on, and the reranker's memory feature uses those.",
        "zh": "在 {seeds} 个随机种子上，随机划分估计的 {metric} 平均为 {random:.3f}，"
              "分组划分为 {grouped:.3f}：随机划分平均高出 {mean:+.3f}，{seeds} 个种子中有 {higher} 个"
              "更高。平均有 {twins:.1f} 个测试问题在重排模型拟合所用的问题里有近似重复（同一组的问题），"
              "而重排模型的记忆特征正好用上了它们。"},
    "readings.leakage.sentence_of_total": {
        "en": "Over {seeds} seeds the random split estimates {metric} at {random:.3f} on average and the "
              "grouped split at {grouped:.3f}: the random split is higher by {mean:+.3f} on average, and "
              "higher in {higher} of {seeds} seeds. On average {twins:.1f} of its {total:.0f} test questions "
              "have a near-duplicate (a question of the same group) among the questions the reranker was "
              "fitted on, and the reranker's memory feature uses those.",
        "zh": "在 {seeds} 个随机种子上，随机划分估计的 {metric} 平均为 {random:.3f}，"
              "分组划分为 {grouped:.3f}：随机划分平均高出 {mean:+.3f}，{seeds} 个种子中有 {higher} 个"
              "更高。随机划分的 {total:.0f} 个测试问题中，平均有 {twins:.1f} 个在重排模型拟合所用的"
              "问题里有近似重复（同一组的问题），"
              "而重排模型的记忆特征正好用上了它们。"},

    # ---- read_intervals
    "readings.intervals.sentence": {
        "en": "{rate}: {names} lead(s) at {value:.3f} [{low:.3f}, {high:.3f}]; {overlap}; the widest "
              "interval spans {widest:.3f}.",
        "zh": "{rate}：{names} 领先，为 {value:.3f} [{low:.3f}, {high:.3f}]；{overlap}；最宽的区间跨度为 "
              "{widest:.3f}。"},
    "readings.intervals.overlap": {"en": "the intervals of {names} overlap it",
                                   "zh": "{names} 的区间与它重叠"},
    "readings.intervals.no_overlap": {"en": "no other version's interval overlaps it",
                                      "zh": "没有其他版本的区间与它重叠"},

    # ---- read_rank_one_changes
    "readings.rank_one.none": {
        "en": "{src} ranks no relevant chunk first for any of the {n} {what}, so {into} has no rank-1 hit "
              "of {src} to keep or lose.",
        "zh": "在 {n} 个{what}中，{src} 没有把任何相关片段排在第 1 名，所以 {into} 没有 {src} 的第 1 名命中"
              "可保留或丢失。"},
    "readings.rank_one.all_kept": {
        "en": "{src} ranks a relevant chunk first for {hits} of the {n} {what}; {into} keeps all {hits}: "
              "fusion did not push {src}'s top hits down.",
        "zh": "在 {n} 个{what}中，{src} 有 {hits} 个把相关片段排在第 1 名；{into} 全部保留了这 {hits} 个："
              "融合没有把 {src} 排在最前的命中往下压。"},
    "readings.rank_one.some_lost": {
        "en": "{src} ranks a relevant chunk first for {hits} of the {n} {what}; {into} keeps {kept} of them "
              "and loses {lost}: fusion pushed {src}'s top hit down there.",
        "zh": "在 {n} 个{what}中，{src} 有 {hits} 个把相关片段排在第 1 名；{into} 保留了其中 {kept} 个，"
              "丢掉了 {lost}：在这些问题上，融合把 {src} 排第 1 的命中压了下去。"},

    # ---- read_repairs
    "readings.repairs.ratio": {"en": ", about {ratio:.1f} times as much as {small}",
                               "zh": "，约为「{small}」的 {ratio:.1f} 倍"},
    "readings.repairs.sentence": {
        "en": "Repaired alone (the other fault left in place), {big} is worth {big_value:.3f} of {metric} "
              "and {small} {small_value:.3f}: {big} costs more{ratio}.",
        "zh": "单独修复一处、另一处保持不变时，修复「{big}」让 {metric} 提高 {big_value:.3f}，修复「{small}」"
              "提高 {small_value:.3f}：「{big}」的代价更大{ratio}。"},

    # ---- read_rerank_entries
    "readings.rerank.entries_one": {
        "en": "With M = {depth}, the reranker brings {count} from ranks {first}–{depth} into the top {k} "
              "({moved} of {total} questions); {good} of them is relevant. The {out} it pushes out include "
              "{lost} relevant one(s). {verdict}",
        "zh": "M = {depth} 时，重排模型把第 {first}–{depth} 名中的 {count}带进了前 {k} 名"
              "（{total} 个问题中的 {moved} 个）；其中 {good} 个是相关的。被它挤出去的 {out} 个里"
              "有 {lost} 个相关的。{verdict}"},
    "readings.rerank.entries_many": {
        "en": "With M = {depth}, the reranker brings {count} from ranks {first}–{depth} into the top {k} "
              "({moved} of {total} questions); {good} of them are relevant. The {out} it pushes out include "
              "{lost} relevant one(s). {verdict}",
        "zh": "M = {depth} 时，重排模型把第 {first}–{depth} 名中的 {count}带进了前 {k} 名"
              "（{total} 个问题中的 {moved} 个）；其中 {good} 个是相关的。被它挤出去的 {out} 个里"
              "有 {lost} 个相关的。{verdict}"},
    "readings.rerank.only_wrong": {
        "en": "Going deeper only brought in wrong chunks on dev: nothing it promoted was evidence.",
        "zh": "在开发集上，重排得更深只带进了错误的片段：它提上来的没有一个是证据。"},
    "readings.rerank.found_more": {
        "en": "It found more evidence below the top 5 than it pushed out.",
        "zh": "它在前 5 名之外找到的证据比它挤出去的多。"},
    "readings.rerank.pushed_out_more": {
        "en": "It pushed out at least as much evidence as it brought in.",
        "zh": "它挤出去的证据至少和带进来的一样多。"},

    # ---- read_paraphrase_cases
    "readings.paraphrase.article_easy": {
        "en": "The article's query 「{text}」 is easy for BM25 here: A ranks a relevant chunk at {a} "
              "(B {b}, C {c}, D {d}).",
        "zh": "文章里的查询「{text}」在这里对 BM25 来说很容易：A 的第一个相关片段排在 {a}（B {b}，C {c}，"
              "D {d}）。"},
    "readings.paraphrase.article_hard": {
        "en": "The article's query 「{text}」 is hard for BM25 here: A ranks a relevant chunk at {a} "
              "(B {b}, C {c}, D {d}).",
        "zh": "文章里的查询「{text}」在这里对 BM25 来说很难：A 的第一个相关片段排在 {a}（B {b}，C {c}，"
              "D {d}）。"},
    "readings.paraphrase.case": {"en": "「{text}」 (B at rank {b}, C {c})",
                                 "zh": "「{text}」（B 排在 {b}，C {c}）"},
    "readings.paraphrase.only_b": {
        "en": "{count} where BM25 finds nothing in its top {depth} but the vector retriever does.",
        "zh": "有 {count}，BM25 在前 {depth} 名里什么也没找到，向量召回却找到了。"},
    "readings.paraphrase.only_b_listing": {
        "en": "{count} where BM25 finds nothing in its top {depth} but the vector retriever does: {listing}.",
        "zh": "有 {count}，BM25 在前 {depth} 名里什么也没找到，向量召回却找到了：{listing}。"},
    "readings.paraphrase.none": {
        "en": "{count} no version finds in its top {depth}: these need a real embedding model or query "
              "rewriting, not a better k.",
        "zh": "有 {count}在前 {depth} 名里哪个版本都没找到：这些需要真正的向量（嵌入）模型或查询改写，"
              "而不是更好的 k。"},

    # ---- read_knob
    "readings.knob.holds_0": {"en": "holds 0", "zh": "包含 0"},
    "readings.knob.reaches_0": {"en": "reaches 0 at its end", "zh": "的一端正好落在 0 上"},
    "readings.knob.leaves_out_0": {"en": "leaves out 0", "zh": "不含 0"},
    "readings.knob.keeps_default": {"en": "keeps the default {knob} = {chosen:g}.",
                                    "zh": "保留默认值 {knob} = {chosen:g}。"},
    "readings.knob.leaves_default": {"en": "leaves the default for {knob} = {chosen:g}.",
                                     "zh": "放弃默认值，改用 {knob} = {chosen:g}。"},
    "readings.knob.sentence": {
        "en": "{knob}: across {values} the dev {metric} moves by {spread:.3f}; the best, {knob} = {best:g} "
              "({best_value:.3f}), minus the default {knob} = {default:g} is {diff:+.3f} [{low:+.3f}, "
              "{high:+.3f}] over {n} questions ({wins} better, {losses} worse; {p}): the interval {where}, "
              "so the rule {choice}",
        "zh": "{knob}：在 {values} 这些取值上，开发集 {metric} 的变化幅度为 {spread:.3f}；最佳的 {knob} = "
              "{best:g}（{best_value:.3f}）减去默认的 {knob} = {default:g}，差值为 {diff:+.3f} "
              "[{low:+.3f}, {high:+.3f}]，共 {n} 个问题（{wins} 个更好，{losses} 个更差；{p}）："
              "区间{where}，所以规则{choice}"},
    "readings.knob.frozen_same": {"en": "{text} The frozen design has {knob} = {frozen:g}: the same.",
                                  "zh": "{text}冻结的设计用的是 {knob} = {frozen:g}：两者相同。"},
    "readings.knob.frozen_differs": {
        "en": "{text} The frozen design has {knob} = {frozen:g}: the rule chooses differently.",
        "zh": "{text}冻结的设计用的是 {knob} = {frozen:g}：规则的选择与之不同。"},

    # ---- read_rule_against_frozen
    "readings.rule.same": {"en": "The rule chooses the frozen design on every knob.",
                           "zh": "在每个参数上，规则选的都和冻结的设计一样。"},
    "readings.rule.item": {"en": "{knob} = {chosen:g} (frozen: {frozen:g})",
                           "zh": "{knob} = {chosen:g}（冻结值：{frozen:g}）"},
    "readings.rule.setting": {"en": "{knob} = {value:g}", "zh": "{knob} = {value:g}"},
    "readings.rule.differs": {
        "en": "The rule chooses differently from the frozen design on {names}: {listing}. The frozen design "
              "and data/config.json stay as they are: the holdout was opened once with it, and its result "
              "stands for that design only. A fresh holdout, written blind like the first, would test the "
              "rule's design ({design}) against the frozen one on questions neither was chosen on.",
        "zh": "规则在 {names} 上的选择与冻结的设计不同：{listing}。冻结的设计和 data/config.json 保持不变："
              "保留集已经用它启封过一次，那次的结果只代表这个设计。要拿规则选出的设计（{design}）和冻结的设计"
              "比较，需要一份像第一份那样盲写的新保留集，用两者都没有参与挑选的问题来检验。"},

    # ---- read_term_match
    "readings.term.the_text": {"en": "the text", "zh": "文本"},
    "readings.term.matches": {"en": "Against {where}, {term} matches (a shared token contains it) "
                                    "under {yes}",
                              "zh": "对照{where}，「{term}」在 {yes} 下能匹配上（有一个共有的词包含它）"},
    "readings.term.matches_none": {
        "en": "Against {where}, {term} matches (a shared token contains it) under no tokenizer",
        "zh": "对照{where}，「{term}」在哪个分词器下都匹配不上（没有一个共有的词包含它）"},
    "readings.term.not_under": {"en": "{text}; it does not under {names}",
                                "zh": "{text}；在 {names} 下则不能"},

    # ---- read_tokenizer_ranks
    "readings.tokenizer.rank": {"en": "{tokenizer} {rank}", "zh": "{tokenizer} {rank}"},
    "readings.tokenizer.question": {"en": "{question}: {ranks}", "zh": "{question}：{ranks}"},
    "readings.tokenizer.same": {
        "en": "{what}: the best rank under A is the same under every tokenizer for {names}",
        "zh": "{what}：对 {names}，A 下的最佳名次在每个分词器下都一样"},
    "readings.tokenizer.same_none": {
        "en": "{what}: the best rank under A is the same under every tokenizer for no question",
        "zh": "{what}：没有哪个问题在每个分词器下 A 的最佳名次都一样"},
    "readings.tokenizer.moved": {"en": "{text}; it moves for {detail}.",
                                 "zh": "{text}；名次有变化的是 {detail}。"},
    "readings.tokenizer.means": {"en": "A's dev {metric} by tokenizer: {listing} (spread {spread:.3f}).",
                                 "zh": "A 在开发集上按分词器的 {metric}：{listing}（极差 {spread:.3f}）。"},

    # ---- read_three_chunks
    "readings.three.place": {"en": "{rank} under {tokenizer}", "zh": "在 {tokenizer} 下排第 {rank}"},
    "readings.three.lowest": {"en": "lowest under {names}", "zh": "在 {names} 下垫底"},
    "readings.three.never_lowest": {"en": "never lowest", "zh": "从未垫底"},
    "readings.three.first": {"en": ", first under {names}", "zh": "，在 {names} 下排第一"},
    "readings.three.ranks": {
        "en": "For 「{query}」 over these {n} chunks, BM25 ranks {target} {places}: {lowest}{first}.",
        "zh": "对查询「{query}」，在这 {n} 个片段中，BM25 对 {target} 的名次：{places}；{lowest}{first}。"},
    "readings.three.decides": {"en": "Here the tokenizer decides.", "zh": "这里由分词器决定。"},
    "readings.three.no_change": {"en": "The tokenizer does not change its place here.",
                                 "zh": "这里分词器不改变它的位置。"},

    # ---- read_userdict
    "readings.userdict.sentence": {
        "en": "Of the {n} entries, {changing} change how jieba cuts at least one chunk or question of this "
              "corpus ({changes}); the other {inert} change nothing here",
        "zh": "在 {n} 个词条中，有 {changing} 个改变了 jieba 对本语料中至少一个片段或问题的切分"
              "（{changes}）；其余 {inert} 个在这里什么也没改变"},
    "readings.userdict.inert": {
        "en": "{text} ({names}): plain jieba already cuts those texts the same way, or no text holds "
              "the word",
        "zh": "{text}（{names}）：不带用户词典的 jieba 本来就这样切分这些文本，或者没有文本含有这个词"},

    # ---- read_same_mrr
    "readings.same_mrr.gap": {"en": "{gap:.3f} on {metric}", "zh": "{metric} 相差 {gap:.3f}"},
    "readings.same_mrr.same": {
        "en": "{names} have the same {mrr} ({value:.3f}), yet differ by {gaps}: MRR sees only the first "
              "relevant item of each question and misses the rest.",
        "zh": "{names} 的 {mrr} 相同（{value:.3f}），但 {gaps}：MRR 只看每个问题的第一条相关结果，"
              "看不到其余的。"},
    "readings.same_mrr.different": {"en": "{names} have different {mrr}, yet differ by {gaps}.",
                                    "zh": "{names} 的 {mrr} 不同，并且 {gaps}。"},
}
