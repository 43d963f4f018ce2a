"""The exercises' hints (see ragmath.lab.messages): one per exercise, ``exercises.<id>.hint``.

The self-check (``ragmath.lab.notebook.selfcheck.check``) shows an exercise's hint after a wrong answer;
tests/test_messages_notebook.py checks that every registered exercise has one and every hint has an exercise.
"""

#: Exercise id -> its hint in English, then in Chinese.
HINTS: dict[str, tuple[str, str]] = {
    "01.1": ("map the run to clause IDs (4.2-a and 4.2-b become one clause), lift the labels, then count",
             "把运行结果映射到条款 ID（4.2-a 和 4.2-b 合成一个条款），把标注也提升到条款级，再计数"),
    "01.2": ("map each of the first 5 chunks to its doc_id and count the different ones",
             "把前 5 个片段各自映射到它的 doc_id，数一数有几个不同的"),
    "01.3": ("'published' keeps every chunk with published_on <= date, in force or not: count both editions",
             "'published' 保留所有 published_on <= 该日期的片段，不论是否生效：两个版本都要数"),
    "01.4": ("remove every chunk the identity may not read, THEN take the first 3 "
             "(K counts after the filter)",
             "先去掉该身份无权阅读的所有片段，然后再取前 3 个（K 在过滤之后才计）"),
    "01.5": ("build the index with in_index(corpus, date, 'live'), retrieve, "
             "then compare the top 3 with Q21's labels: which edition do the labels name?",
             "用 in_index(corpus, date, 'live') 建索引并检索，再把前 3 个与 Q21 的标注比较："
             "标注指的是哪个版本？"),
    "01.6": ("add the label to Q07's labels, lift them to clauses with units.at_level, then Recall@3",
             "把这条标注加进 Q07 的标注，用 units.at_level 提升到条款级，再算 Recall@3"),
    "02.1": ("count the relevant IDs among the first 3 results, divide by the number of relevant IDs",
             "数一数前 3 个结果中有几个相关 ID，再除以相关 ID 的总数"),
    "02.2": ("Hit@3 is 1 if any relevant ID is in the first 3 results, else 0; then average over questions",
             "前 3 个结果中只要有一个相关 ID，Hit@3 就是 1，否则是 0；再对所有问题取平均"),
    "02.3": ("increase K one step at a time until every relevant ID is inside the top K",
             "把 K 每次加 1，直到所有相关 ID 都落在前 K 个之内"),
    "02.4": ("leave out the questions with no relevant ID, then average Recall@3 over the rest",
             "去掉没有相关 ID 的问题，再对其余问题的 Recall@3 取平均"),
    "02.5": ("only q3 changes: one of its two relevant IDs is now in the top 3; average the three Recall@3",
             "只有 q3 变了：它的两个相关 ID 中有一个现在进了前 3；对三个 Recall@3 取平均"),
    "02.6": ("q1 now has four relevant IDs, and X is one of them; recompute q1's Recall@3, then the mean",
             "q1 现在有四个相关 ID，X 是其中之一；重新计算 q1 的 Recall@3，再求平均"),
    "03.1": ("find the rank of the FIRST relevant ID within the top 5; the answer is 1 / that rank",
             "找出前 5 个中第一个相关 ID 的名次；答案是 1 / 该名次"),
    "03.2": ("q1 and q3 keep their reciprocal ranks; q2 now has its relevant item at rank 1",
             "q1 和 q3 的倒数排名不变；q2 的相关结果现在排在第 1 名"),
    "03.3": ("a question whose first relevant ID is below rank 5 scores 0 in MRR@5",
             "第一个相关 ID 排在第 5 名之后的问题，MRR@5 记 0 分"),
    "03.4": ("RR@3 only looks at the first relevant item: which rankings start with a relevant ID?",
             "RR@3 只看第一条相关结果：哪些排序以相关 ID 开头？"),
    "03.5": ("q1 and q2 keep their reciprocal ranks; q3's first relevant ID is now inside the top 5",
             "q1 和 q2 的倒数排名不变；q3 的第一个相关 ID 现在进了前 5"),
    "04.1": ("sum (2**grade - 1) / log2(rank + 1) over ranks 1..3",
             "对第 1..3 名求 (2**grade - 1) / log2(rank + 1) 之和"),
    "04.2": ("sort ALL labelled items by grade, best first, and take the DCG@3 of that order",
             "把所有已标注的项按等级从高到低排序，取这个顺序的 DCG@3"),
    "04.3": ("use the grade itself as the gain (not 2**grade - 1), for both DCG and IDCG",
             "DCG 和 IDCG 都直接用等级本身作为增益（不是 2**grade - 1）"),
    "04.4": ("average nDCG@3 within each type first, then combine the two type means with weights 1 and 2",
             "先在每种题型内对 nDCG@3 取平均，再以权重 1 和 2 合并两种题型的均值"),
    "04.5": ("with grades 0/1 every relevant item gains 1; IDCG puts the three relevant items at ranks 1-3",
             "等级只有 0/1 时，每条相关结果的增益都是 1；IDCG 把三条相关结果放在第 1-3 名"),
    "04.6": ("DCG over ranks 1-5 (C now adds 3 / log2(6)); IDCG@5 of the labels still has only three gains",
             "DCG 计算第 1-5 名（C 现在加上 3 / log2(6)）；标注的 IDCG@5 仍然只有三个增益"),
    "05.1": ("add 1/(k + rank) over the lists that contain the item; ranks start at 1",
             "对包含该项的每个列表累加 1/(k + rank)；名次从 1 开始"),
    "05.2": ("cut each list to its first 2 IDs, then fuse; give the ID as a string, e.g. '4.2'",
             "把每个列表截到前 2 个 ID，再融合；ID 以字符串给出，例如 '4.2'"),
    "05.3": ("fuse the three lists at k = 60 and list every ID, best first, as strings",
             "在 k = 60 下融合三个列表，按从好到差列出所有 ID（字符串）"),
    "05.4": ("find the leader at k = 1, 2, 3, ... and give the first k whose leader differs",
             "依次找出 k = 1, 2, 3, ... 时的第一名，给出第一名发生变化的第一个 k"),
    "05.5": ("map both lists to clause IDs with units.to_units first, then fuse; answer e.g. '6.1'",
             "先用 units.to_units 把两个列表都映射到条款 ID，再融合；答案形如 '6.1'"),
    "05.6": ("add 1/(60 + rank) per list for 4.2 and for 6.1 and compare; give the ID as a string",
             "分别对 4.2 和 6.1 逐个列表累加 1/(60 + rank) 并比较；ID 以字符串给出"),
    "05a.1": ("mean of the four scores, then the population standard deviation (divide by 4), "
              "then (12.7 - mean) / sd",
              "先求四个分数的均值，再求总体标准差（除以 4），最后算 (12.7 - 均值) / 标准差"),
    "05a.2": ("min-max each list, then 0.3 x BM25 + 0.7 x vector; a list that lacks an item adds 0",
              "每一路先做 min-max，再算 0.3 x BM25 + 0.7 x 向量；某一路没有的项加 0"),
    "05a.3": ('fuse_scores(lists, "min-max", weights=[alpha, 1 - alpha]) for alpha = 0.00, 0.01, ...; '
              "the first alpha at which a comes first",
              '对 alpha = 0.00、0.01、… 调用 fuse_scores(lists, "min-max", weights=[alpha, 1 - alpha])；'
              "找 a 第一次排第一的 alpha"),
    "05a.4": ("z-score each list; an item a list lacks adds 0 there, which is that list's mean, "
              "not its worst",
              "每一路做 z-score；某一路没有的项在那一路加 0，也就是那一路的均值，而不是最低分"),
    "05b.1": ("deal rerank_stage.dev with random_folds, then count the groups (rerank_stage.group) whose "
              "questions sit in two or more folds (an int)",
              "用 random_folds 把 rerank_stage.dev 分到各折，再数一数有几个组（rerank_stage.group）"
              "的问题落在两个或更多折里（整数）"),
    "05b.2": ("bootstrap_interval(values.iloc[:10], n_resamples=10_000, seed=0) returns (mean, low, high); "
              "give high − low",
              "bootstrap_interval(values.iloc[:10], n_resamples=10_000, seed=0) 返回 (mean, low, high)；"
              "给出 high − low"),
    "05b.3": ("draw the picks as paired_bootstrap does, default_rng(0).integers(0, n, size=(10_000, n)), "
              "over the differences D − C, then give the share of row means <= 0",
              "像 paired_bootstrap 那样抽样，default_rng(0).integers(0, n, size=(10_000, n))，"
              "作用在配对差值 D − C 上，再给出行均值 <= 0 的比例"),
    "05b.4": ("the first ten questions' D − C (nDCG@5), the non-zero ones only, "
              "every sign vector from itertools.product([1, -1], repeat=m): "
              "the share whose |flipped sum| >= |observed sum|",
              "取前十个问题的 D − C（nDCG@5），只留非零的，遍历 itertools.product([1, -1], repeat=m) "
              "的每个符号向量：|翻转后的和| >= |观测到的和| 所占的比例"),
    "06a.1": ("with M = 20 the reranker may bring chunks from ranks 6-20 into the top 5; give D − C",
              "M = 20 时，重排模型可能把第 6-20 名的片段提进前 5；给出 D − C"),
    "06a.2": ("read the limit in the chunk you were given (the 2025 clause), not the one in force today",
              "读你拿到的那个片段里的限额（2025 年的条款），而不是现在生效的那一条"),
    "06a.3": ("tokenize chunk_text(record) of every corpus record with plain jieba and count the chunks "
              "whose tokens include '102' (an int)",
              "用原生 jieba（jieba_plain，不加用户词典）对语料中每条记录的 chunk_text(record) 分词，"
              "数一数分词结果含 '102' 的片段有几个（整数）"),
    "06b.1": ("read table.loc['Oracle', 'answers correct'] of the run with the faulty generator (an int)",
              "读出使用故意出错的生成器那次运行的 table.loc['Oracle', 'answers correct']（整数）"),
    "06b.2": ("a value replaces the default only if its interval's lower end is above 0; "
              "the W the rule keeps is an int from the grid",
              "只有区间下限大于 0 时，一个取值才替换默认值；规则保留的 W 是网格中的一个整数"),
    "06a.4": ("the E − C row of the paired table: (difference, low, high, wins, losses), "
              "the numbers as the table shows them (3 decimals)",
              "配对表中 E − C 那一行：(difference, low, high, wins, losses)，数字照表上显示的写（3 位小数）"),
    "06b.3": ("the M = 20 row of the M table: (diff vs default, low, high, wins, losses), "
              "the numbers as the table shows them (3 decimals)",
              "M 表中 M = 20 那一行：(diff vs default, low, high, wins, losses)，"
              "数字照表上显示的写（3 位小数）"),
    "07.5": ("the C − A row of the dev paired table: (difference, low, high, wins, losses), "
             "the numbers as the table shows them (3 decimals)",
             "开发集配对表中 C − A 那一行：(difference, low, high, wins, losses)，"
             "数字照表上显示的写（3 位小数）"),
    "07.1": ("wilson_interval(x, N) returns (low, high); give low to 3 decimals",
             "wilson_interval(x, N) 返回 (low, high)；给出 low，保留 3 位小数"),
    "07.2": ("scan N = 5, 10, 15, ... (0.8 × N must be whole) and compare high − low with 0.2",
             "依次试 N = 5, 10, 15, ...（0.8 × N 须为整数），把 high − low 与 0.2 比较"),
    "07.3": ("collect the groups on each side and count the groups found on both (an int)",
             "分别收集两边的组，数一数两边都出现的组（整数）"),
    "07.4": ("keep the rows 'memory (M = 10)' and count those whose 'difference' is above 0 (an int)",
             "保留 'memory (M = 10)' 这些行，数一数其中 'difference' 大于 0 的行（整数）"),
    "08.1": ("pool({'rrf-k60': work_runs['rrf-k60']}, 10), labels_within(work_labels, that pool), "
             "compare(..., baseline='bm25'), rrf-k60's 'diff'",
             "pool({'rrf-k60': work_runs['rrf-k60']}, 10)，labels_within(work_labels, 这个池)，"
             "compare(..., baseline='bm25')，取 rrf-k60 的 'diff'"),
    "08.2": ("len(pool(work_runs, 5)): one row per item to label, working questions only (an int)",
             "len(pool(work_runs, 5))：每个待标注项占一行，只算工作集问题（整数）"),
    "08.3": ("raise in finance_down, record it, then count the latency rows whose 'error' is "
             "not empty (an int)",
             "让 finance_down 抛出异常，记录它，再数一数延迟表中 'error' 不为空的行（整数）"),
    "08.4": ("plan_questions(the pilot of section 8: candidate − bm25 on nDCG@5, per question, "
             "0.03) (an int)",
             "plan_questions(第 8 节的试点：nDCG@5 上候选版本 − bm25 的逐题差值, 0.03)（整数）"),
    "08.5": ("the rrf-k60 row of the nDCG@5 table: (difference, low, high, wins, losses), "
             "the numbers as the table shows them (3 decimals)",
             "nDCG@5 表中 rrf-k60 那一行：(difference, low, high, wins, losses)，"
             "数字照表上显示的写（3 位小数）"),
    "09.1": ("gate(work_runs['bm25'], work_runs['bm25-bigram'], work_labels, 'nDCG@10', 0.02, "
             "names=('bm25', 'bm25-bigram'), alpha=0.1), then -result.low",
             "gate(work_runs['bm25'], work_runs['bm25-bigram'], work_labels, 'nDCG@10', 0.02, "
             "names=('bm25', 'bm25-bigram'), alpha=0.1)，再取 -result.low"),
    "09.2": ("loop k = 6, 7, ...: runs_for and labels_for on answerable[:k], gate best against bm25, "
             "stop at the first result.passed (an int)",
             "对 k = 6, 7, ... 循环：对 answerable[:k] 用 runs_for 和 labels_for，把 best 与 bm25 过门槛，"
             "第一次 result.passed 时停下（整数）"),
    "09.3": ("false_stops(diffs, 20, 1): every look from 20 to 200, as a fraction",
             "false_stops(diffs, 20, 1)：从 20 到 200 每道题都看一次，写成小数"),
    "09.4": ("detectable(100, gates['rrf-k60'].sd_diff): (z(0.975) + z(0.8)) · σ_d / √100",
             "detectable(100, gates['rrf-k60'].sd_diff)：(z(0.975) + z(0.8)) · σ_d / √100"),
}

#: The hints as catalogue entries: ``exercises.ID.hint`` -> {"en": ..., "zh": ...}.
MESSAGES = {f"exercises.{exercise}.hint": {"en": en, "zh": zh} for exercise, (en, zh) in HINTS.items()}
