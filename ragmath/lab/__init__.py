"""The workbook's toy pipeline (notebooks 01-07): corpus and data, tokenizers, the index, retrievers,
the reranker, the generator, the ablation, the sealed holdout and the tables read aloud.

It needs the ``[lab]`` extra (jieba, rank-bm25): ``pip install 'ragmath[lab]'``. It imports the core
(``ragmath``); the core never imports it.
"""

from ragmath._extra import require_lab_extra

require_lab_extra("ragmath.lab", ("jieba", "rank_bm25"))
