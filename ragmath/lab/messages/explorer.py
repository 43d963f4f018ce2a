"""Messages of the RRF k explorer, ``ragmath.lab.notebook.widgets`` (see ragmath.lab.messages).

Keys: ``explorer.error.*`` (bad input), ``explorer.lead.*`` (the lead line), ``explorer.table.*``
(the fused table's headers and cells), ``explorer.control.*`` and ``explorer.help`` (the controls),
``explorer.note.*`` and ``explorer.chart.*`` (the chart's titles, axes, legend and notes),
``explorer.page.*`` (the static page of ``make explorer`` only; tools/build_explorer.py copies every
``explorer.*`` entry into that page).
"""

MESSAGES: dict[str, dict[str, str]] = {
    # ------------------------------------------------------------------ errors in the typed lists
    "explorer.error.not_text": {"en": "list {name!r}: expected text such as '4.2, 6.1, 3.5', "
                                      "got {kind} {value!r}; pass the IDs as one comma-separated string",
                                "zh": "列表 {name!r}：应为 '4.2, 6.1, 3.5' 这样的文本，"
                                      "实际是 {kind} {value!r}；请把 ID 写成一个用逗号分隔的字符串"},
    "explorer.error.empty_list": {"en": "list {name!r} is empty: type at least one ID, best first, "
                                        "e.g. '4.2, 6.1, 3.5'",
                                  "zh": "列表 {name!r} 是空的：请至少输入一个 ID，按名次从前到后排列，"
                                        "例如 '4.2, 6.1, 3.5'"},
    "explorer.error.empty_entry": {"en": "list {name!r}: entry {position} is empty "
                                         "(two commas with nothing between); remove the extra comma",
                                   "zh": "列表 {name!r}：第 {position} 项是空的（两个逗号之间什么也没有）；"
                                         "请删掉多余的逗号"},
    "explorer.error.duplicate": {"en": "list {name!r}: ID {item!r} appears twice "
                                       "(positions {first} and {second}); a ranked list names each ID once, "
                                       "so remove one of them",
                                 "zh": "列表 {name!r}：ID {item!r} 出现了两次（第 {first} 位和第 {second} "
                                       "位）；排序列表里每个 ID 只能出现一次，请删掉其中一个"},
    "explorer.error.texts_not_mapping": {"en": "texts: expected a mapping list name -> text, got {kind}; "
                                               "pass e.g. {{'BM25': '4.2, 6.1'}}",
                                         "zh": "texts：应为“列表名 -> 文本”的映射，实际是 {kind}；"
                                               "例如传入 {{'BM25': '4.2, 6.1'}}"},
    "explorer.error.no_texts": {"en": "texts is empty: give at least one list, e.g. {{'BM25': '4.2, 6.1'}}",
                                "zh": "texts 是空的：请至少给出一个列表，例如 {{'BM25': '4.2, 6.1'}}"},
    "explorer.error.ks_not_iterable": {"en": "ks must be an iterable of integers, got {value!r}; "
                                             "use e.g. range(1, 201)",
                                       "zh": "ks 应为可迭代的整数序列，实际是 {value!r}；"
                                             "例如用 range(1, 201)"},
    "explorer.error.ks_empty": {"en": "ks is empty: give the k values to scan, e.g. range(1, 201)",
                                "zh": "ks 是空的：请给出要扫描的 k 值，例如 range(1, 201)"},
    # {error}: ragmath's own check of k, in English like the core
    "explorer.error.bad_k_in_ks": {"en": "ks: {error}; use e.g. range(1, 201)",
                                   "zh": "ks 中有无效的 k（{error}）；例如用 range(1, 201)"},
    "explorer.error.too_many_ids": {
        "en": "the lists name {distinct:,} distinct IDs; the explorer shows at most {max_ids:,} "
              "(every edit rescans k = {k_min}…{k_max} for each ID, "
              "and past {max_ids:,} that takes seconds). Keep each list's top part (e.g. the top 100), "
              "or fuse the full lists in a notebook cell with ragmath.rrf(lists, k=60)",
        "zh": "这些列表共有 {distinct:,} 个不同的 ID；RRF k 探索器最多显示 {max_ids:,} "
              "个（每次修改都要为每个 ID 重新扫描 k = {k_min}…{k_max}，超过 {max_ids:,} 个就要花上几秒）。"
              "请只保留每个列表的前一部分（例如前 100 个），或者在笔记本的代码单元格里用 "
              "ragmath.rrf(lists, k=60) 融合完整的列表",
    },
    "explorer.error.no_item": {"en": "the lists hold no item, so no item leads; "
                                     "give at least one ID in some list",
                               "zh": "这些列表里一项也没有，谈不上谁领先；请至少在一个列表里给出一个 ID"},
    "explorer.error.bad_k": {"en": "k must be an integer from {k_min} to {k_max}, got {value!r}; e.g. k=60",
                             "zh": "k 必须是 {k_min} 到 {k_max} 之间的整数，实际是 {value!r}；例如 k=60"},
    "explorer.error.bad_window": {"en": "window must be None (all) or an integer from 1 to {longest}, "
                                        "got {value!r}",
                                  "zh": "window 必须是 None（全部）或 1 到 {longest} 之间的整数，"
                                        "实际是 {value!r}"},
    "explorer.error.unshowable_id": {"en": "list {name!r}: ID {item!r} contains a comma or starts or ends "
                                           "with a space, which the text box cannot show; rename it",
                                     "zh": "列表 {name!r}：ID {item!r} 含有逗号，或以空格开头或结尾，"
                                           "文本框无法显示；请给它改个名字"},
    "explorer.error.fix_input": {"en": "Fix the input above to see the fused table.",
                                 "zh": "改正上面的输入后，这里会显示融合结果表。"},
    # -------------------------------------------------------------------------- the lead line
    "explorer.lead.only": {"en": "At k = {k}, {leader} is the only item ({score:.4f}).",
                           "zh": "k = {k} 时只有 {leader} 一项（{score:.4f}）。"},
    "explorer.lead.tie": {"en": "At k = {k}, {leader} and {runner_up} tie at {score:.4f}; "
                                "{leader} is listed first (smaller ID).",
                          "zh": "k = {k} 时 {leader} 和 {runner_up} 并列，都是 {score:.4f}；"
                                "{leader} 排在前面（ID 较小）。"},
    "explorer.lead.leads": {"en": "At k = {k}, {leader} leads with {score:.4f} "
                                  "({margin} ahead of {runner_up}).",
                            "zh": "k = {k} 时 {leader} 领先，得分 {score:.4f}（比 {runner_up} "
                                  "高 {margin}）。"},
    "explorer.lead.never_changes": {"en": "Over k = {k_lo}…{k_hi} the lead never changes.",
                                    "zh": "在 k = {k_lo}…{k_hi} 范围内，第一名始终不变。"},
    "explorer.lead.changes": {"en": "Over k = {k_lo}…{k_hi} the lead changes at {changes}.",
                              "zh": "在 k = {k_lo}…{k_hi} 范围内，第一名在 {changes}处易主。"},
    "explorer.lead.change": {"en": "k = {k} ({previous} → {leader})",
                             "zh": "k = {k}（{previous} → {leader}）"},
    # the two sentences above, joined as each language joins sentences
    "explorer.lead.sentence": {"en": "{now} {span}", "zh": "{now}{span}"},
    # ------------------------------------------------------------------------ the fused table
    "explorer.table.place": {"en": "place", "zh": "名次"},
    "explorer.table.rank": {"en": "{name} rank", "zh": "{name} 名次"},
    "explorer.table.contribution": {"en": "{name}: 1/(k+rank)", "zh": "{name}：1/(k+名次)"},
    "explorer.table.score": {"en": "RRF score", "zh": "融合得分"},
    "explorer.table.gap": {"en": "ahead of next by", "zh": "领先下一名"},
    "explorer.table.tied_place": {"en": "{place} (tied)", "zh": "{place}（并列）"},
    "explorer.table.tied": {"en": "tied", "zh": "并列"},
    # ---------------------------------------------------------------------------- the controls
    "explorer.control.window": {"en": "window", "zh": "召回窗口"},
    "explorer.control.all": {"en": "all", "zh": "全部"},
    "explorer.control.top": {"en": "top {n}", "zh": "前 {n} 名"},
    "explorer.control.placeholder": {"en": "IDs best first, e.g. 4.2, 6.1, 3.5",
                                     "zh": "按名次先后写 ID，例如 4.2, 6.1, 3.5"},
    "explorer.help": {"en": "Edit a list and press Enter (IDs best first, separated by commas; "
                            "a space is part of an ID; at most {max_ids:,} IDs in all). Move k with the "
                            "mouse or the arrow keys; the window keeps each list's top n. The chart draws "
                            "the top {top} items, the table lists all.",
                      "zh": "修改列表后按回车（ID 按名次先后排列，用逗号分隔；空格算作 ID 的一部分；"
                            "总共最多 {max_ids:,} 个 ID）。用鼠标或方向键调整 k；"
                            "召回窗口只保留每个列表的前 n 名。图中画出前 {top} 项，表格列出全部。"},
    # name and item come quoted and HTML-escaped
    "explorer.note.space": {"en": "Note: list {name} has the ID {item} with a space in it; "
                                  "IDs are separated by commas only, so it is one ID.",
                            "zh": "注意：列表 {name} 中的 ID {item} 含有空格；ID 只用逗号分隔，"
                                  "所以它算作一个 ID。"},
    # ------------------------------------------------------------------------------- the chart
    "explorer.chart.bars_title": {"en": "contributions at k = {k}", "zh": "k = {k} 时各列表的贡献"},
    "explorer.chart.bars_xlabel": {"en": "fused score = Σ 1/(k + rank)", "zh": "融合得分 = Σ 1/(k + 名次)"},
    "explorer.chart.tied": {"en": " tied", "zh": " 并列"},
    "explorer.chart.curves_title": {"en": "each item ÷ the leader (black line: current k)",
                                    "zh": "各项得分 ÷ 第一名的得分（黑线：当前 k）"},
    "explorer.chart.curves_xlabel": {"en": "k (log scale)", "zh": "k（对数坐标）"},
    "explorer.chart.curves_ylabel": {"en": "score ÷ leader's score", "zh": "得分 ÷ 第一名的得分"},
    "explorer.chart.items": {"en": "items", "zh": "各项"},
    "explorer.chart.drawn": {"en": "Drawn: the top {top} of {total} items "
                                   "(bars: at this k; lines: those that reach the top {top} at some k). The "
                                   "table lists all {total}.",
                             "zh": "图中只画出 {total} 项中的前 {top} 项（条形：当前 k 下的前 {top} 项；"
                                   "曲线：在某个 k 下进入过前 {top} 的项）。表格列出全部 {total} 项。"},
    # ---------------------------------------------------- the static page (make explorer) only
    "explorer.page.title": {"en": "RRF k explorer", "zh": "RRF k 探索器"},
    "explorer.page.intro": {"en": "Reciprocal Rank Fusion (RRF) gives each item the fused score Σ "
                                  "1/(k + rank), summed over the lists that contain it. Move k and watch "
                                  "the order change. This page computes everything itself: "
                                  "it needs no server and no network.",
                            "zh": "倒数排名融合（RRF）给每一项的融合得分是 Σ 1/(k + 名次)，"
                                  "对包含它的各个列表求和。调整 k，看排序怎样变化。"
                                  "所有计算都在本页面里完成：不需要服务器，也不需要联网。"},
    "explorer.page.language": {"en": "Language", "zh": "语言"},
    "explorer.page.add_list": {"en": "Add a list", "zh": "添加一个列表"},
    "explorer.page.remove_list": {"en": "Remove list {name}", "zh": "删除列表 {name}"},
    "explorer.page.lists": {"en": "Ranked lists", "zh": "排序列表"},
    "explorer.page.table": {"en": "Fused table", "zh": "融合结果表"},
    # shown only when the fused table is wider than the screen
    "explorer.page.table_scrolls": {"en": "↔ Swipe the table sideways for each list's rank; "
                                          "the RRF score stays at the right.",
                                    "zh": "↔ 左右滑动表格可看各列表的名次；融合得分固定在右侧。"},
    "explorer.page.noscript": {"en": "This page computes RRF with JavaScript: turn JavaScript on to use it.",
                               "zh": "本页面用 JavaScript 计算 RRF：请启用 JavaScript 后再使用。"},
}
