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
}
