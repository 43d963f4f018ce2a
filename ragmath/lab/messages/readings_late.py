"""Messages of the late readings: notebook 07's (teach7) and notebook 08's (nb08), in ragmath.lab.readings.

Sentences are whole where English grammar allows; a sentence that varies is one key per variant, or a
template whose ``{field}`` takes a smaller message (its variants listed right after it).
"""

MESSAGES: dict[str, dict[str, str]] = {
    # ------------------------------------------------------------------------------- shared by 07 and 08
    "readings.07.semicolon": {"en": "; ", "zh": "；"},

    # ------------------------------------------------------------------------- notebook 07: chart words
    "readings.07.chart.dev_intervals": {
        "en": "dev: 95 % Wilson intervals (开发集)",
        "zh": "开发集：95 % Wilson 区间",
    },
    "readings.07.chart.holdout_intervals": {
        "en": "holdout, opened once: 95 % Wilson intervals (保留集)",
        "zh": "保留集（只启封一次）：95 % Wilson 区间",
    },
    "readings.07.chart.leak": {
        "en": "{leak}: leaky − clean, nDCG@5 per seed (95 % interval over its test questions)",
        "zh": "{leak}：泄漏 − 干净，每个随机种子的 nDCG@5（其测试问题上的 95 % 区间）",
    },
    "readings.07.chart.leak_y": {"en": "difference (泄漏 − 干净)", "zh": "差值（泄漏 − 干净）"},
    "readings.07.chart.seed": {"en": "seed", "zh": "随机种子"},

    # ------------------------------------------------------------------------ notebook 07: the readings
    "readings.07.generations": {
        "en": "The {generations} generations of a question all agree for {agree:.0%} of the {questions} "
              "questions; counting each of the {answers} answers as a sample gives an interval {naive:.3f} "
              "wide, resampling questions one {by_question:.3f} wide: {verdict}",
        "zh": "一个问题的 {generations} 次生成完全一致的，占 {questions} 个问题的 {agree:.0%}；把 {answers} "
              "个回答各当作一个样本，得到的区间宽 {naive:.3f}，按问题重抽样得到的区间宽 {by_question:.3f}："
              "{verdict}",
    },
    "readings.07.generations.too_precise": {
        "en": "the first claims a precision the {questions} questions do not have.",
        "zh": "前者声称的精度是这 {questions} 个问题撑不起的。",
    },
    "readings.07.generations.not_narrower": {
        "en": "here the two widths do not differ in that direction.",
        "zh": "这里两个宽度并没有朝这个方向拉开。",
    },
    "readings.07.fixed_leak": {
        "en": "Leak through {leak}: on the same {test_questions:.0f} test questions per seed, the leaky "
              "estimate of {metric} is higher in {higher} of {seeds} seeds, by {mean:+.3f} on average (per "
              "seed from {low:+.3f} to {high:+.3f}); {above} of the {seeds} per-seed 95 % intervals lie "
              "above 0 and {below} below.",
        "zh": "经由 {leak} 的泄漏：每个随机种子都在同样的 {test_questions:.0f} 个测试问题上比较，有泄漏的一"
              "组对 {metric} 的估计在 {seeds} 个种子中有 {higher} 个更高，平均高 {mean:+.3f}（各种子从 "
              "{low:+.3f} 到 {high:+.3f}）；{seeds} 个逐种子的 95 % 区间中，{above} 个整体高于 0，{below} 个"
              "整体低于 0。",
    },
    "readings.07.fixed_leak.tuning": {
        "en": " Picking the setting on the test questions themselves can never score lower on them than an "
              "honest pick, so this leak is 0 or more by construction; the lesson is its size.",
        "zh": "直接在测试问题上挑选设置，在这些问题上的得分不可能低于诚实挑选的设置，所以这种泄漏按构造就不"
              "小于 0；要看的是它有多大。",
    },
    "readings.07.fixed_leak.seeds": {
        "en": "On average {with_twin:.1f} of the {test_questions:.0f} test questions have a near-duplicate "
              "in the fitting part ({twins:.1f} such twins, which the clean arms leave out). The {seeds} "
              "seeds reuse the same dev questions, so they are not independent evidence: read each seed's "
              "interval, not the average as if it were that precise.",
        "zh": "平均而言，{test_questions:.0f} 个测试问题中有 {with_twin:.1f} 个在拟合部分有近似重复的问题（"
              "共 {twins:.1f} 个这样的孪生问题，干净的一组把它们排除在外）。这 {seeds} 个随机种子复用同一批"
              "开发集问题，所以不是相互独立的证据：逐个看每个种子的区间，不要把平均值当成有那么精确。",
    },
    "readings.07.frozen_choice": {
        "en": "On dev, D's nDCG@5 at {knob} = {frozen:g} minus at {knob} = {default:g} ({fixed}) is "
              "{mean:+.3f} [{low:+.3f}, {high:+.3f}] over {questions} questions (sign-flip p = {p:.3f}): "
              "the interval {verdict}",
        "zh": "在开发集上，D 在 {knob} = {frozen:g} 时的 nDCG@5 减去 {knob} = {default:g}（{fixed}）时的，在"
              " {questions} 个问题上为 {mean:+.3f} [{low:+.3f}, {high:+.3f}]（符号翻转检验 p = {p:.3f}）：区"
              "间{verdict}",
    },
    "readings.07.frozen_choice.picks_frozen": {
        "en": "leaves out 0, so the rule (keep the default unless the paired interval excludes 0) also "
              "picks {knob} = {frozen:g}.",
        "zh": "不含 0，所以规则（除非配对区间不含 0，否则保留默认值）同样选 {knob} = {frozen:g}。",
    },
    "readings.07.frozen_choice.keeps_default": {
        "en": "holds 0, so the rule (keep the default unless the paired interval excludes 0) keeps {knob} = "
              "{default:g}, not the frozen {knob} = {frozen:g}.",
        "zh": "包含 0，所以规则（除非配对区间不含 0，否则保留默认值）保留 {knob} = {default:g}，而不是冻结的"
              " {knob} = {frozen:g}。",
    },
    "readings.07.frozen_choice.stands": {
        "en": "The rule was written after seeing this grid, so it cannot undo the choice: the frozen design "
              "({knob} = {frozen:g}) and data/config.json stay as they are, and the holdout result below "
              "stands for the design it was opened with. A fresh holdout, written blind like this one, "
              "would test the rule's design ({knob} = {default:g}, {fixed}) against the frozen one, on "
              "questions neither was chosen on.",
        "zh": "这条规则是看过这张网格之后才写下的，所以不能用它推翻已做的选择：冻结的设计（{knob} = "
              "{frozen:g}）和 data/config.json 保持不变，下面的保留集结果代表启封时所用的设计。要拿规则给出"
              "的设计（{knob} = {default:g}，{fixed}）与冻结的设计比较，需要一个像这个一样盲写的新保留集，在"
              "两者都没有参与选择的问题上检验。",
    },
    "readings.07.overlap.shared": {
        "en": "{shared} of the holdout's {total} positive labels point to chunks that are also evidence of "
              "a dev question ({pairs}): the reranker's memory feature, fitted on dev, credits those chunks "
              "from the dev questions that label them, so these holdout questions may be easier than new "
              "ones.",
        "zh": "保留集的 {total} 条正标注中，有 {shared} 条指向同时也是某个开发集问题证据的片段（{pairs}）："
              "重排模型的记忆特征在开发集上拟合，会因为标注这些片段的开发集问题而给它们加分，所以这些保留集"
              "问题可能比全新的问题更容易。",
    },
    "readings.07.overlap.no_history": {
        "en": "Without the repository's git history the chunks added with the holdout cannot be listed from "
              "the data; the sealing record above names the commit that added them.",
        "zh": "没有仓库的 git 历史，就无法从数据中列出随保留集加入的片段；上面的封存记录写明了加入它们的提交"
              "。",
    },
    "readings.07.overlap.added": {
        "en": "The sealing commit added {added} chunks to the corpus (now {corpus}). Dev tuning ran over "
              "{seen} of them: the dev corpus holds them and {labels}. The design was not fitted on their "
              "labels, but k, W and M were chosen with them competing for ranks.",
        "zh": "封存的那次提交向语料加入了 {added} 个片段（现共 {corpus} 个）。开发集调参时其中 {seen} 个已在"
              "场：开发集语料包含它们，{labels}。设计没有拟合它们的标注，但 k、W 和 M 是在它们参与排名竞争时"
              "选出的。",
    },
    "readings.07.overlap.added.unlabelled": {
        "en": "no dev question labels any of them, so they were distractors",
        "zh": "但没有任何开发集问题标注它们，所以它们是干扰项",
    },
    "readings.07.overlap.added.labelled": {
        "en": "dev questions label them {labelled} time(s)",
        "zh": "开发集问题对它们共有 {labelled} 次标注",
    },
    "readings.07.types.sizes": {
        "en": "Answerable questions per type: {listing}; one question moves a type's mean by up to 1/N, "
              "{move_most:.2f} at N = {most} and {move_fewest:.2f} at N = {fewest}.",
        "zh": "各类型的有答案问题数：{listing}；一个问题最多能让一个类型的均值变动 1/N，N = {most} 时为 "
              "{move_most:.2f}，N = {fewest} 时为 {move_fewest:.2f}。",
    },
    "readings.07.types.paraphrase": {
        "en": "On paraphrases (N = {n}) {metric} goes {order}{leader}{lost}{separation}",
        "zh": "在改写类问题（paraphrase，N = {n}）上，{metric} 依次为 {order}{leader}{lost}{separation}",
    },
    "readings.07.types.paraphrase.vector_leads": {
        "en": ": the vector list leads, as the article expects for rewordings BM25 misses",
        "zh": "：向量召回领先，与文章对 BM25 漏掉的改写问题的预期一致",
    },
    "readings.07.types.paraphrase.other_leads": {
        "en": ": {leader} leads, not the vector list the article expects",
        "zh": "：领先的是 {leader}，而不是文章预期的向量召回",
    },
    "readings.07.types.paraphrase.lost": {
        "en": ", and fusion and the reranker lose part of it (C {c:.3f}, D {d:.3f})",
        "zh": "，而融合和重排丢掉了其中一部分（C {c:.3f}，D {d:.3f}）",
    },
    "readings.07.types.paraphrase.together": {
        "en": "; every interval overlaps the leader's, so this is a direction, not a finding.",
        "zh": "；每个区间都与领先者的区间重叠，所以这只是一个方向，不是结论。",
    },
    "readings.07.types.paraphrase.clears": {
        "en": "; the leader's interval clears some others'.",
        "zh": "；领先者的区间与其中一些区间不重叠。",
    },
    "readings.07.types.exact.below": {
        "en": "On exact-ID questions (N = {n}) {c} is below {a}: the article's warning that fusion can push "
              "exact hits down (revisit k or W).",
        "zh": "在精确 ID 类问题（N = {n}）上，{c} 低于 {a}：这正是文章的警告，融合可能把精确命中往下推（需重"
              "新考虑 k 或 W）。",
    },
    "readings.07.types.exact.below_overlapping": {
        "en": "On exact-ID questions (N = {n}) {c} is below {a}: the article's warning that fusion can push "
              "exact hits down (revisit k or W); the intervals overlap, so N = {n} questions cannot tell "
              "how large the loss is.",
        "zh": "在精确 ID 类问题（N = {n}）上，{c} 低于 {a}：这正是文章的警告，融合可能把精确命中往下推（需重"
              "新考虑 k 或 W）；区间相互重叠，所以 N = {n} 个问题说不清损失有多大。",
    },
    "readings.07.types.exact.not_below": {
        "en": "On exact-ID questions (N = {n}) {c} is not below {a}: fusion kept BM25's exact hits, as the "
              "article hopes.",
        "zh": "在精确 ID 类问题（N = {n}）上，{c} 不低于 {a}：融合保住了 BM25 的精确命中，正如文章所希望的。",
    },
    "readings.07.types.separated": {
        "en": "In {separated} of {types} types the leading version's interval clears every other version's"
              "{which}. Groups this small can show a direction worth a look and a failure large enough to "
              "clear the intervals; they cannot rank versions within a type, and a per-type difference "
              "inside overlapping intervals is not a finding (reading all types at once also multiplies the "
              "chances of a fluke).",
        "zh": "{types} 个类型中，有 {separated} 个类型里领先版本的区间与其他每个版本的区间都不重叠{which}。"
              "这么小的分组能显示值得一看的方向，也能显示大到越过区间的失败；它们无法在一个类型内给版本排序"
              "，落在相互重叠的区间内的逐类型差异也不是结论（一次看所有类型，还会成倍增加碰上偶然结果的机会"
              "）。",
    },
    "readings.07.types.separated.which": {"en": " ({names})", "zh": "（{names}）"},
    "readings.07.closing.holdout": {
        "en": "On the {questions} sealed holdout questions ({answerable} answerable), opened {opened} "
              "time(s), the frozen design scores D nDCG@5 = {mean:.3f} [{low:.3f}, {high:.3f}] (dev, "
              "optimistic: {dev:.3f}) and D answer accuracy {x}/{n} = {accuracy:.3f} [{accuracy_low:.3f}, "
              "{accuracy_high:.3f}] (Oracle {oracle_x}/{oracle_n} [{oracle_low:.3f}, {oracle_high:.3f}]).",
        "zh": "在 {questions} 个封存的保留集问题（其中 {answerable} 个有答案）上，保留集共启封 {opened} 次，"
              "冻结的设计得到 D 的 nDCG@5 = {mean:.3f} [{low:.3f}, {high:.3f}]（开发集上的值偏乐观："
              "{dev:.3f}），D 的答案准确率 {x}/{n} = {accuracy:.3f} [{accuracy_low:.3f}, {accuracy_high:.3f}"
              "]（Oracle {oracle_x}/{oracle_n} [{oracle_low:.3f}, {oracle_high:.3f}]）。",
    },
    "readings.07.closing.pair_excludes": {
        "en": "{comparison} on nDCG@5 is {mean:+.3f} [{low:+.3f}, {high:+.3f}] (excludes 0; sign-flip p = "
              "{p:.3f}, Holm {holm:.3f})",
        "zh": "{comparison} 在 nDCG@5 上为 {mean:+.3f} [{low:+.3f}, {high:+.3f}]（不含 0；符号翻转检验 p = "
              "{p:.3f}，Holm {holm:.3f}）",
    },
    "readings.07.closing.pair_includes": {
        "en": "{comparison} on nDCG@5 is {mean:+.3f} [{low:+.3f}, {high:+.3f}] (includes 0; sign-flip p = "
              "{p:.3f}, Holm {holm:.3f})",
        "zh": "{comparison} 在 nDCG@5 上为 {mean:+.3f} [{low:+.3f}, {high:+.3f}]（包含 0；符号翻转检验 p = "
              "{p:.3f}，Holm {holm:.3f}）",
    },
    "readings.07.closing.none": {"en": "none of the compared differences", "zh": "所比较的差值中一个也没有"},
    "readings.07.closing.supports": {
        "en": "It supports statements whose interval excludes 0 and whose Holm-adjusted p is below 0.05: "
              "{settled}. It does not separate the others: {unseparated}.",
        "zh": "它支持区间不含 0、且 Holm 校正后的 p 低于 0.05 的结论：{settled}。其余的它区分不开："
              "{unseparated}。",
    },
    "readings.07.closing.edge_item": {
        "en": "{comparison}'s interval leaves out 0, but its Holm-adjusted sign-flip p is {holm:.3f}, above "
              "0.05, and only {changed} of its {questions} questions change",
        "zh": "{comparison} 的区间不含 0，但它经 Holm 校正的符号翻转检验 p 为 {holm:.3f}，高于 0.05，而且它"
              "的 {questions} 个问题中只有 {changed} 个有变化",
    },
    "readings.07.closing.edge": {
        "en": "{items}: tested with the table's other comparisons, the gain is not settled at the 5 % "
              "level; read it as a direction for fresh questions to confirm.",
        "zh": "{items}：与表中其他比较一起检验时，这个提升在 5 % 水平上并不确定；把它当作一个方向，留给新的"
              "问题去确认。",
    },
    "readings.07.closing.holdout_higher": {
        "en": "The holdout's D nDCG@5 is higher than dev's. The two sets hold different questions in "
              "different groups, so this compares question sets as much as systems: it does not show that "
              "the dev estimate was pessimistic by {gap:.3f}.",
        "zh": "保留集上 D 的 nDCG@5 高于开发集。两个集合装的是不同分组里的不同问题，所以这既是在比较系统，也"
              "是在比较问题集：它并不说明开发集的估计偏悲观了 {gap:.3f}。",
    },
    "readings.07.closing.holdout_lower": {
        "en": "The holdout's D nDCG@5 is lower than dev's. The two sets hold different questions in "
              "different groups, so this compares question sets as much as systems: it does not show that "
              "the dev estimate was optimistic by {gap:.3f}.",
        "zh": "保留集上 D 的 nDCG@5 低于开发集。两个集合装的是不同分组里的不同问题，所以这既是在比较系统，也"
              "是在比较问题集：它并不说明开发集的估计偏乐观了 {gap:.3f}。",
    },
    "readings.07.closing.does_not_support": {
        "en": "It does not support: differences inside the intervals, per-type rankings (as few as "
              "{smallest} answerable questions in a type), anything about other corpora or a real LLM, or "
              "choosing a new design from these numbers (that would make the holdout a second dev set and "
              "need a new, counted opening).",
        "zh": "它不支持：落在区间之内的差异；逐类型的排名（一个类型里少则只有 {smallest} 个有答案的问题）；"
              "关于其他语料或真实 LLM 的任何结论；以及根据这些数字选择新的设计（那会让保留集变成第二个开发集"
              "，并需要一次新的、计入次数的启封）。",
    },

    # ----------------------------------------------------------------- notebook 08: its tables' words
    "readings.08.word.version": {"en": "version", "zh": "版本"},
    "readings.08.word.questions": {"en": "questions", "zh": "问题数"},
    "readings.08.word.median_ms": {"en": "median ms", "zh": "中位数 ms"},
    "readings.08.word.p95_ms": {"en": "p95 ms", "zh": "95 分位数 ms"},
    "readings.08.word.failures": {"en": "failures", "zh": "失败数"},
    "readings.08.word.labels": {"en": "labels", "zh": "标注"},
    "readings.08.word.minus": {"en": "{metric} − {baseline}", "zh": "{metric} − {baseline}"},
    "readings.08.word.pool_of": {"en": "pool of {names}", "zh": "{names} 的池"},
    "readings.08.word.complete": {"en": "complete labels (the workbook's)", "zh": "完整标注（本工作簿的）"},
    "readings.08.word.pilot_questions": {"en": "pilot questions", "zh": "试点问题数"},
    "readings.08.word.mean_difference": {"en": "mean difference", "zh": "平均差值"},
    "readings.08.word.sd_of_differences": {"en": "sd of differences", "zh": "差值的标准差"},
    "readings.08.word.questions_for_d": {"en": "questions to detect {d}", "zh": "检出 {d} 所需问题数"},
    "readings.08.word.questions_for_observed": {
        "en": "questions to detect the observed difference",
        "zh": "检出观测差值所需问题数",
    },
    "readings.08.word.detectable_with_n": {
        "en": "smallest difference {n} questions detect",
        "zh": "{n} 个问题能检出的最小差值",
    },

    # --------------------------------------------------------------------- notebook 08: the readings
    "readings.08.split": {
        "en": "Your holdout: {holdout} of the {total} dev questions, in {held} of {groups} groups ({shared} "
              "groups on both sides), sealed on {date} at commit {commit} (questions {questions_sha}, "
              "labels {labels_sha}). Everything below runs on the other {working} questions; section 8 "
              "opens the holdout once.",
        "zh": "你的保留集：{total} 个开发集问题中的 {holdout} 个，分属 {groups} 个分组中的 {held} 个（"
              "{shared} 个分组两边都有），于 {date} 在提交 {commit} 封存（问题 {questions_sha}，标注 "
              "{labels_sha}）。下面的一切都只在其余 {working} 个问题上运行；第 8 节只启封一次保留集。",
    },
    "readings.08.latency": {
        "en": "{versions} versions asked {asked} questions each, {failures}. Median latency runs from "
              "{fastest:.1f} ms ({fast}) to {slowest:.1f} ms ({slow}); the 95th percentile reaches {p95:.1f}"
              " ms ({p95_version}). Each question's time and error are in the latency CSV beside its run.",
        "zh": "{versions} 个版本各回答了 {asked} 个问题，{failures}。延迟中位数从 {fastest:.1f} ms（{fast}）"
              "到 {slowest:.1f} ms（{slow}）；95 分位数最高达 {p95:.1f} ms（{p95_version}）。每个问题的耗时"
              "和错误都在其运行结果旁边的延迟 CSV 里。",
    },
    "readings.08.latency.no_failures": {"en": "no question failed", "zh": "没有问题失败"},
    "readings.08.latency.failures": {"en": "failures: {listing}", "zh": "失败：{listing}"},
    "readings.08.pool": {
        "en": "The pool of {names}'s top {depth}: {items} items to label for {questions} questions ({fewest}"
              " to {most} a question). Items only one version ranked there: {listing}; label them too, or "
              "that version's finds count as irrelevant.",
        "zh": "{names} 各自前 {depth} 名组成的池：{questions} 个问题共有 {items} 个条目要标注（每个问题 "
              "{fewest} 到 {most} 个）。只有一个版本排进前 {depth} 名的条目：{listing}；这些也要标注，否则那"
              "个版本找到的结果会被算作不相关。",
    },
    "readings.08.labelling": {
        "en": "{who} come from the prepared judgements ({file}: each pool item's grade in the dev labels, 0 "
              "where they have none). Judge more in the widget and run again: yours replace the prepared "
              "ones.",
        "zh": "{who}来自预先准备的判断（{file}：每个池条目在开发集标注中的等级，没有标注的记为 0）。在控件里"
              "多判断一些再运行一次：你的判断会替换预先准备的判断。",
    },
    "readings.08.labelling.by_hand": {
        "en": "You judged {hand} item(s) in the widget; the other {filled}",
        "zh": "你在控件里判断了 {hand} 个条目；其余 {filled} 个",
    },
    "readings.08.labelling.nobody": {
        "en": "Nobody judged in the widget (the notebook ran top to bottom without a person), so all "
              "{filled}",
        "zh": "没有人在控件里做判断（笔记本在无人操作时从头运行到尾），所以全部 {filled} 个",
    },
    "readings.08.pooling.score": {
        "en": "{version} {partial_value:.3f} under {partial}, {full_value:.3f} under {full} (bias {bias})",
        "zh": "{version} 在“{partial}”下为 {partial_value:.3f}，在“{full}”下为 {full_value:.3f}（偏差 {bias}"
              "）",
    },
    "readings.08.pooling.bias": {
        "en": "On {metric}: {scores}. Judged@{k} under {partial} and then {full}: {judged}; {warning}"
              "{outcome}",
        "zh": "在 {metric} 上：{scores}。Judged@{k} 先在“{partial}”下、再在“{full}”下：{judged}；{warning}"
              "{outcome}",
    },
    "readings.08.pooling.warned": {
        "en": "{names} below 0.9 × {baseline}'s {judged:.3f} = {threshold:.3f}, so compare warns that the "
              "score rests on unlabelled items. ",
        "zh": "{names} 低于 0.9 × {baseline} 的 {judged:.3f} = {threshold:.3f}，所以 compare 会警告：这个分"
              "数建立在未标注的条目上。",
    },
    "readings.08.pooling.moved": {
        "en": "Labelling the rest of the pool moved these scores: a version's finds outside the labelled "
              "pools counted as irrelevant.",
        "zh": "把池的其余部分也标注之后，这些分数变了：一个版本在已标注的池之外找到的结果，原先被算作不相关"
              "。",
    },
    "readings.08.pooling.not_moved": {
        "en": "Labelling the rest of the pool moved no score here (every item it added that reaches the top "
              "{k} is irrelevant): the warning marks a risk, which this time did not turn into a loss.",
        "zh": "在这里，把池的其余部分也标注并没有改变任何分数（新增条目中进入前 {k} 名的都不相关）：警告标出"
              "的是一种风险，这一次没有变成损失。",
    },
    "readings.08.pooling.single": {
        "en": "Label only {single} and every difference from {baseline} is read against labels {baseline} "
              "chose: {column} under {single} (under {full}): {listing}. {verdict}",
        "zh": "只标注“{single}”时，与 {baseline} 的每个差值都是用 {baseline} 挑出的标注来衡量的：{column} 在"
              "“{single}”下（括号内在“{full}”下）：{listing}。{verdict}",
    },
    "readings.08.pooling.flattered": {
        "en": "Each is lower: the version whose pool was labelled is flattered, the others pay.",
        "zh": "每一个都更低：池被标注的那个版本被抬高了，其他版本为此吃亏。",
    },
    "readings.08.pooling.not_flattered": {
        "en": "Not every one is lower here: read them one by one.",
        "zh": "这里并非每一个都更低：请逐个来看。",
    },
    "readings.08.pooling.complete": {
        "en": "Against {complete}, {metric} under {full} is {direction} ({pairs}): a relevant chunk that no "
              "version ranks in the pooled top is in no pool, so pooled labels flatter every version's "
              "absolute score, while the differences from {baseline} move by at most {gap:.3f}. Pooled "
              "labels compare the pooled versions; they do not count the evidence that exists.",
        "zh": "与“{complete}”相比，“{full}”下的 {metric} {direction}（{pairs}）：没有任何版本排进池化深度的"
              "相关片段不在任何池里，所以池化标注会抬高每个版本的绝对分数，而与 {baseline} 的差值最多只变动 "
              "{gap:.3f}。池化标注能比较参与池化的版本，却清点不了实际存在的证据。",
    },
    "readings.08.pooling.higher": {"en": "higher for every version", "zh": "对每个版本都更高"},
    "readings.08.pooling.not_higher": {"en": "not higher for every version", "zh": "并非对每个版本都更高"},
    "readings.08.comparison": {
        "en": "On {metric} against {baseline}: {listing}. {verdict}",
        "zh": "在 {metric} 上与 {baseline} 相比：{listing}。{verdict}",
    },
    "readings.08.comparison.row": {
        "en": "{version} {diff} [{low}, {high}], p = {p:.3f}, Holm {holm:.3f}, {wins}/{ties}/{losses} "
              "wins/ties/losses",
        "zh": "{version} {diff} [{low}, {high}]，p = {p:.3f}，Holm {holm:.3f}，胜/平/负 {wins}/{ties}/"
              "{losses}",
    },
    "readings.08.comparison.one_better": {
        "en": "{names} is better than {baseline} after Holm's correction at {level}.",
        "zh": "经 Holm 校正（水平 {level}）后，{names} 优于 {baseline}。",
    },
    "readings.08.comparison.many_better": {
        "en": "{names} are better than {baseline} after Holm's correction at {level}.",
        "zh": "经 Holm 校正（水平 {level}）后，{names} 优于 {baseline}。",
    },
    "readings.08.comparison.none_better": {
        "en": "No version is better than {baseline} after Holm's correction at {level}.",
        "zh": "经 Holm 校正（水平 {level}）后，没有版本优于 {baseline}。",
    },
    "readings.08.comparison.candidate": {
        "en": "The rule written before this table: the version with the largest mean difference on {metric} "
              "goes to the holdout against {baseline}. That is {candidate} ({diff}); the holdout will say "
              "whether it holds on questions that chose nothing.",
        "zh": "在这张表之前写下的规则：在 {metric} 上平均差值最大的版本进入保留集，与 {baseline} 对比。那就"
              "是 {candidate}（{diff}）；它在没有参与任何选择的问题上是否依然成立，由保留集来回答。",
    },
    "readings.08.report": {
        "en": "The comparison as Markdown, {rows} table rows and {notes} notes on what it rests on, is in "
              "{path}: paste it into a review. `python -m ragmath compare` with `--format markdown` writes "
              "the same from the run files and the labels.",
        "zh": "Markdown 格式的比较结果（{rows} 行表格，外加 {notes} 条关于其依据的说明）在 {path}：可以直接"
              "贴进评审。`python -m ragmath compare` 加上 `--format markdown`，也能从运行结果文件和标注写出"
              "同样的内容。",
    },
    "readings.08.plan": {
        "en": "{questions} questions are only a start: with the spread of {version}'s per-question "
              "differences on {metric} (sd {sd:.3f} over {pilot} pilot questions), detecting a difference "
              "of {d} with {power:.0%} power (two-sided α = 0.05) needs {need} answerable questions, and "
              "{questions} questions detect only differences of {smallest:.3f} or more. {observed} Check by "
              "resampling the pilot: {draws:,} draws of {need} questions, shifted to a true difference of "
              "{d}, reject in {resampled:.1%} of the draws (the formula's {power:.0%}).",
        "zh": "{questions} 个问题只是起点：按 {version} 在 {metric} 上逐问题差值的离散程度（{pilot} 个试点问"
              "题上的标准差为 {sd:.3f}），要以 {power:.0%} 的功效（双侧 α = 0.05）检出 {d} 的差值，需要 "
              "{need} 个有答案的问题，而 {questions} 个问题只能检出 {smallest:.3f} 或更大的差值。{observed}"
              "用重抽样试点来核对：抽 {draws:,} 次、每次 {need} 个问题，平移到真实差值 {d}，在 "
              "{resampled:.1%} 的抽样中拒绝原假设（公式给出的是 {power:.0%}）。",
    },
    "readings.08.plan.observed": {
        "en": "The observed difference ({diff}) would need {observed} questions.",
        "zh": "观测到的差值（{diff}）需要 {observed} 个问题。",
    },
    "readings.08.plan.observed_never": {
        "en": "The observed difference ({diff}) would need no finite number of questions.",
        "zh": "观测到的差值（{diff}）用再多的问题也检不出来。",
    },
    "readings.08.opening": {
        "en": "Opening {number} of your holdout on {opened_at} at commit {commit}, design {design}: {done}; "
              "opened {times} time(s) in all.",
        "zh": "你的保留集第 {number} 次启封，时间 {opened_at}，提交 {commit}，设计 {design}：{done}；总共启"
              "封 {times} 次。",
    },
    "readings.08.opening.ran": {"en": "this run ran the design", "zh": "这次运行执行了该设计"},
    "readings.08.opening.shown": {
        "en": "this run showed the stored result and re-ran nothing",
        "zh": "这次运行展示的是存储的结果，没有重新运行任何东西",
    },
    "readings.08.opening.supports": {
        "en": "On its {n} answerable questions, {metric}: {scores}. {candidate} − {baseline} = {mean} [{low}"
              ", {high}] (dev: {dev}); the interval excludes 0, so the holdout supports a difference. "
              "Report this number as it is: choosing again from it would make the holdout a second dev set.",
        "zh": "在它的 {n} 个有答案的问题上，{metric}：{scores}。{candidate} − {baseline} = {mean} [{low}, "
              "{high}]（开发集：{dev}）；区间不含 0，所以保留集支持存在差异。如实报告这个数字：根据它再做选"
              "择，会让保留集变成第二个开发集。",
    },
    "readings.08.opening.not_supported": {
        "en": "On its {n} answerable questions, {metric}: {scores}. {candidate} − {baseline} = {mean} [{low}"
              ", {high}] (dev: {dev}); the interval includes 0, so the holdout does not support a "
              "difference. Report this number as it is: choosing again from it would make the holdout a "
              "second dev set.",
        "zh": "在它的 {n} 个有答案的问题上，{metric}：{scores}。{candidate} − {baseline} = {mean} [{low}, "
              "{high}]（开发集：{dev}）；区间包含 0，所以保留集不支持存在差异。如实报告这个数字：根据它再做"
              "选择，会让保留集变成第二个开发集。",
    },
}
