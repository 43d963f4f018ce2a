"""Messages of the notebook helpers (see ragmath.lab.messages): the self-check's verdicts, the charts' and
the diagram's words, the labelling widget's, and the errors a reader can meet in ``ragmath.lab.notebook``."""

MESSAGES: dict[str, dict[str, str]] = {
    # ------------------------------------------------------------------ selfcheck.py
    "notebook.selfcheck.correct": {"en": "Correct ({exercise}).", "zh": "正确（{exercise}）。"},
    "notebook.selfcheck.not_yet": {"en": "Not yet ({exercise}).", "zh": "还不对（{exercise}）。"},
    "notebook.selfcheck.not_yet_hint": {
        "en": "Not yet ({exercise}). Hint: {hint}",
        "zh": "还不对（{exercise}）。提示：{hint}",
    },
    "notebook.selfcheck.replace_none": {
        "en": "Not yet ({exercise}): replace None with your answer.",
        "zh": "还不对（{exercise}）：请把 None 换成你的答案。",
    },
    "notebook.selfcheck.give_a_number": {
        "en": "Not yet ({exercise}): give a number (e.g. 0.25, 1/4 or Fraction(1, 4)), not the text {text}.",
        "zh": "还不对（{exercise}）：请给出一个数（例如 0.25、1/4 或 Fraction(1, 4)），而不是文本 {text}。",
    },
    "notebook.selfcheck.almost": {
        "en": "Almost ({exercise}): your number is close, so the method looks right, but it is not rounded "
              "to {decimals} decimals. Round (do not cut off) to {decimals} decimals.",
        "zh": "差一点（{exercise}）：你的数很接近，方法看来是对的，但没有四舍五入到 {decimals} 位小数。"
              "请四舍五入（不要直接截断）到 {decimals} 位小数。",
    },
    "notebook.selfcheck.bad_id": {
        "en": "exercise ids look like '02.1' (notebook.number), got {given}",
        "zh": "练习编号形如 '02.1'（笔记本编号.题号），收到的是 {given}",
    },
    "notebook.selfcheck.unknown_id": {
        "en": "no exercise {given}; known: {known}",
        "zh": "没有练习 {given}；已有的练习：{known}",
    },
    "notebook.selfcheck.none_known": {"en": "none", "zh": "无"},
    # ------------------------------------------------------------------ labelling.py (the widget's words)
    "notebook.labelling.progress": {
        "en": "{labelled} of {total} judged · item {item} of {total}",
        "zh": "已判断 {labelled} / {total} · 第 {item} 项，共 {total} 项",
    },
    "notebook.labelling.grade0": {"en": "0 irrelevant", "zh": "0 不相关"},
    "notebook.labelling.grade1": {"en": "1 helps", "zh": "1 有帮助"},
    "notebook.labelling.grade2": {"en": "2 answers it", "zh": "2 直接回答"},
    "notebook.labelling.skip": {"en": "skip (s)", "zh": "跳过 (s)"},
    "notebook.labelling.back": {"en": "back (b)", "zh": "返回 (b)"},
    "notebook.labelling.none": {"en": "no answer in the pool (n)", "zh": "池中没有答案 (n)"},
    "notebook.labelling.current": {"en": "your grade: {grade}", "zh": "你给的等级：{grade}"},
    "notebook.labelling.unlabelled": {"en": "not judged yet", "zh": "尚未判断"},
    "notebook.labelling.hint": {
        "en": "Click the widget, then keys 0 1 2 grade · s skip · b back · n no answer in the pool.",
        "zh": "先点击本控件，再按键：0 1 2 给等级 · s 跳过 · b 返回 · n 池中没有答案。",
    },
    "notebook.labelling.done": {
        "en": "Every item of the pool is judged. Go back (b) to change one.",
        "zh": "池中每一项都已判断。按 b 返回，可以修改某一项。",
    },
    "notebook.labelling.none_refused": {
        "en": "This question already has a chunk graded above 0: go back and change it to 0 first.",
        "zh": "这个问题已有片段的等级高于 0：请先返回，把它改为 0。",
    },
    "notebook.labelling.bad_language": {
        "en": "no messages for language {given}; known: {known}",
        "zh": "没有语言 {given} 的文字；已有：{known}",
    },
    "notebook.labelling.empty_pool": {
        "en": "the pool is empty: nothing to label",
        "zh": "池是空的：没有要标注的项",
    },
    "notebook.labelling.no_question_text": {
        "en": "no text for question {question}; give questions={{ID: text}} for every question of the pool",
        "zh": "问题 {question} 没有文本；请为池中的每个问题给出 questions={{ID: 文本}}",
    },
    "notebook.labelling.no_chunk_text": {
        "en": "no text for chunk {chunk}; give texts={{ID: text}} for every chunk of the pool",
        "zh": "片段 {chunk} 没有文本；请为池中的每个片段给出 texts={{ID: 文本}}",
    },
    # ------------------------------------------------------------------ judgements.py
    "notebook.judgements.bad_grade": {
        "en": "a grade is 0, 1 or 2, got {grade}",
        "zh": "等级只能是 0、1 或 2，收到的是 {grade}",
    },
    "notebook.judgements.pool_columns": {
        "en": "the pool needs columns 'question' and 'id'; it lacks {missing} (columns: {columns})",
        "zh": "池需要 'question' 和 'id' 两列；缺少 {missing}（现有列：{columns}）",
    },
    "notebook.judgements.pair_twice": {
        "en": "the pool lists question {question}, id {item} twice; list each pair once",
        "zh": "池中问题 {question}、id {item} 出现了两次；每对只能列一次",
    },
}
