"""Exercises for notebooks 06a (the ablation table) and 06b (tuning, the rows question by question).

Every expected value is computed by ragmath on data.
"""

from __future__ import annotations

from dataclasses import replace

from ragmath.lab.notebook.exercises import register, register_prediction, row_as_read

# 06a.1 — predict, then run: D's Recall@5 minus C's with the frozen design but a deeper rerank.
EX1_DEPTH = 20
# 06a.2 — change the data: the over-limit amount for the 118.5 元 fare from an index built in mid-2025,
# which holds the 2025 edition's clause 4.2-a (60 元 per trip) instead of the 2026 one (80 元).
EX2_QUESTION = "上海打车一次花了 118.5 元，超出标准多少？"
EX2_CHUNK = "TRV25-4.2-a"
EX2_AS_OF = "2025-06-30"
# 06a.3 — with the plain jieba tokenizer A still ranks the exact-ID evidence first: does the cut decide,
# or do other tokens carry the match? How many chunks of the corpus hold the token "102" under plain jieba?
EX3_TOKENIZER = "jieba_plain"
EX3_TOKEN = "102"
# 06b.1 — predict, then run: the Oracle with a generator that remembers a 60 元 limit: answerable dev
# questions right.
EX4_REMEMBERED_LIMIT = 60.0
# 06b.2 — the rule "keep the default unless the paired interval excludes 0" applied to W (default 20).
EX5_KNOB = "W"
# 06a.1's prediction counts as near within this much; 06b.1's within one question.
EX1_SLACK = 0.02
EX4_SLACK = 1
# 06a.4 — read the paired table aloud: E − C on nDCG@5, its interval, wins and losses.
EX6_PAIR, EX6_METRIC = ("C", "E"), "nDCG@5"
# 06b.3 — read the M table aloud: M = 20 against the default M = 10 on D's nDCG@5.
EX7_KNOB, EX7_VALUE = "M", 20


def _frozen():
    from ragmath.lab.holdout import frozen_design

    return frozen_design()


def _ex1() -> float:
    from ragmath.lab.ablation import run_ablation

    table = run_ablation(replace(_frozen(), rerank_depth=EX1_DEPTH), answers=False).table
    return float(table.loc["D", "Recall@5"] - table.loc["C", "Recall@5"])


def _ex2() -> float:
    from ragmath.lab.corpus import load_corpus
    from ragmath.lab.workbook import ExtractiveAnswerer

    corpus = load_corpus()
    chunk = corpus[corpus["chunk_id"] == EX2_CHUNK].to_dict("records")
    answer = ExtractiveAnswerer(refuse_below=0.0, as_of=EX2_AS_OF)(EX2_QUESTION, chunk)
    if answer.number is None:
        raise AssertionError("exercise 06a.2 data: the answerer found no amount")
    return answer.number


def _ex3() -> int:
    from ragmath.lab.corpus import load_corpus
    from ragmath.lab.workbook import chunk_text, get_tokenizer

    tokenizer = get_tokenizer(EX3_TOKENIZER)
    return sum(EX3_TOKEN in tokenizer(chunk_text(r)) for r in load_corpus().to_dict("records"))


def _ex4() -> int:
    from functools import partial

    from ragmath.lab.ablation import run_ablation
    from ragmath.lab.workbook import MisreadLimitAnswerer

    generator = partial(MisreadLimitAnswerer, remembered_limit=EX4_REMEMBERED_LIMIT)
    return int(run_ablation(_frozen(), generator=generator).table.loc["Oracle", "answers correct"])


def _ex5() -> int:
    from ragmath.lab.workbook import keep_default_rule, knob_against_default

    return int(keep_default_rule(knob_against_default(_frozen(), EX5_KNOB)))


def _ex6() -> tuple:
    from ragmath.lab.ablation import paired_table, run_ablation

    row = paired_table(run_ablation(_frozen(), answers=False), [EX6_PAIR], EX6_METRIC).iloc[0]
    return row_as_read(row, "mean diff")


def _ex7() -> tuple:
    from ragmath.lab.workbook import knob_against_default

    table = knob_against_default(_frozen(), EX7_KNOB)
    return row_as_read(table[table[EX7_KNOB] == EX7_VALUE].iloc[0], "diff vs default")


register("06a.1", _ex1, decimals=3)
register_prediction("06a.1", EX1_SLACK)
register("06a.2", _ex2, decimals=2)
register("06a.3", _ex3, kind="exact")
register("06a.4", _ex6, kind="exact")
register("06b.1", _ex4, kind="exact")
register_prediction("06b.1", EX4_SLACK)
register("06b.2", _ex5, kind="exact")
register("06b.3", _ex7, kind="exact")
