"""Messages of the pipeline (see ragmath.lab.messages): the errors a notebook reader can meet in the
workbook's toy pipeline (``ragmath/lab/*.py``)."""

MESSAGES: dict[str, dict[str, str]] = {
    # ------------------------------------------------------------------ paths.py
    "pipeline.paths.no_data": {
        "en": "the workbook's data (corpus.jsonl, questions.jsonl, qrels.csv, ...) was not found in "
              "{folder}. It ships with the repository, not with the ragmath package: run from a "
              "checkout of RAG Lab (make lab installs ragmath from it), or set RAGMATH_DATA to the "
              "folder that holds corpus.jsonl",
        "zh": "在 {folder} 中找不到练习册的数据（corpus.jsonl、questions.jsonl、qrels.csv 等）。"
              "数据随仓库提供，不随 ragmath 包提供：请在 RAG Lab 的检出目录中运行"
              "（make lab 会从那里安装 ragmath），或把 RAGMATH_DATA 设为包含 corpus.jsonl 的文件夹",
    },
    # ------------------------------------------------------------------ holdout.py
    "pipeline.holdout.bad_openings": {
        "en": "{file}: must be a JSON object with an 'openings' list",
        "zh": "{file}：必须是一个含有 'openings' 列表的 JSON 对象",
    },
    "pipeline.holdout.no_frozen_design": {
        "en": "config.json has no frozen_design: tune on dev (notebook 06b), then write the chosen k, window "
              "and rerank_depth there before opening the holdout",
        "zh": "config.json 里没有 frozen_design：请先在开发集上调参（笔记本 06b），把选定的 k、window 和 "
              "rerank_depth 写进去，再启封保留集",
    },
    "pipeline.holdout.unknown_fields": {
        "en": "config.json frozen_design: unknown field(s) {unknown}; known: {known}",
        "zh": "config.json 的 frozen_design：未知字段 {unknown}；已知字段：{known}",
    },
    "pipeline.holdout.no_record": {
        "en": "{path}: no holdout record here; a holdout is sealed (seal_holdout) before it can be opened "
              "or shown",
        "zh": "{path}：这里没有保留集的记录；保留集要先封存（seal_holdout），才能启封或查看",
    },
    "pipeline.holdout.no_opening": {
        "en": "no opening number {number} on record; openings: {numbers}",
        "zh": "记录里没有第 {number} 次启封；已有的启封：{numbers}",
    },
    "pipeline.holdout.not_a_config": {
        "en": "config must be the frozen AblationConfig, got {kind}",
        "zh": "config 必须是冻结的 AblationConfig，收到的是 {kind}",
    },
    # ------------------------------------------------------------------ tokenize.py
    "pipeline.tokenize.not_text": {
        "en": "text must be a str, got {kind}: {text}",
        "zh": "text 必须是 str，收到的是 {kind}：{text}",
    },
    "pipeline.tokenize.not_text_join": {
        "en": "text must be a str, got {kind}: {text}; join lists first",
        "zh": "text 必须是 str，收到的是 {kind}：{text}；列表请先拼接成字符串",
    },
    "pipeline.tokenize.no_user_dictionary": {
        "en": "jieba user dictionary not found at {path}; it ships in the repository's data/ folder (set "
              "RAGMATH_DATA to the folder that holds it)",
        "zh": "在 {path} 找不到 jieba 用户词典；它随仓库的 data/ 文件夹提供"
              "（请把 RAGMATH_DATA 设为包含它的文件夹）",
    },
    "pipeline.tokenize.bad_tokenizer": {
        "en": "tokenizer must be a name (str) or a Tokenizer, got {kind}",
        "zh": "tokenizer 必须是一个名称（str）或 Tokenizer，收到的是 {kind}",
    },
    "pipeline.tokenize.unknown_tokenizer": {
        "en": "unknown tokenizer {name}; choose one of {known}",
        "zh": "没有分词器 {name}；可选：{known}",
    },
    "pipeline.tokenize.bad_dictionary_line": {
        "en": "{file} line {number}: expected 'word [freq] [tag]', got {line}",
        "zh": "{file} 第 {number} 行：应为 'word [freq] [tag]'（词 [词频] [词性]），收到的是 {line}",
    },
    # ------------------------------------------------------------------ corpus.py
    # where a mistake in a data file is: "<file>, line <n>, field '<name>': <problem>"
    "pipeline.corpus.at_file": {
        "en": "{file}: {problem}",
        "zh": "{file}：{problem}",
    },
    "pipeline.corpus.at_file_field": {
        "en": "{file}, field {field}: {problem}",
        "zh": "{file}，字段 {field}：{problem}",
    },
    "pipeline.corpus.at_line": {
        "en": "{file}, line {line}: {problem}",
        "zh": "{file} 第 {line} 行：{problem}",
    },
    "pipeline.corpus.at_line_field": {
        "en": "{file}, line {line}, field {field}: {problem}",
        "zh": "{file} 第 {line} 行，字段 {field}：{problem}",
    },
    "pipeline.corpus.bad_path": {
        "en": "path must be a str or os.PathLike pointing to {filename} (or its directory), got {kind}",
        "zh": "path 必须是指向 {filename}（或其所在文件夹）的 str 或 os.PathLike，收到的是 {kind}",
    },
    "pipeline.corpus.no_file": {
        "en": "{path}: no such file; expected the workbook's {filename}",
        "zh": "{path}：没有这个文件；这里应是练习册的 {filename}",
    },
    "pipeline.corpus.bad_date_text": {
        "en": "{name} must be a date written YYYY-MM-DD, e.g. '2026-06-30', got {value}",
        "zh": "{name} 必须是写成 YYYY-MM-DD 的日期，例如 '2026-06-30'，收到的是 {value}",
    },
    "pipeline.corpus.bad_date_type": {
        "en": "{name} must be a datetime.date or a string 'YYYY-MM-DD', got {kind} {value}",
        "zh": "{name} 必须是 datetime.date 或字符串 'YYYY-MM-DD'，收到的是 {kind} {value}",
    },
    "pipeline.corpus.not_a_date": {
        "en": "{value} is not a date; write a string 'YYYY-MM-DD', e.g. \"2026-01-01\"",
        "zh": "{value} 不是日期；请写成字符串 'YYYY-MM-DD'，例如 \"2026-01-01\"",
    },
    "pipeline.corpus.not_a_date_or_null": {
        "en": "{value} is not a date; write null or a string 'YYYY-MM-DD', e.g. \"2026-01-01\"",
        "zh": "{value} 不是日期；请写 null 或字符串 'YYYY-MM-DD'，例如 \"2026-01-01\"",
    },
    "pipeline.corpus.invalid_date": {
        "en": "{value} is not a valid date; write YYYY-MM-DD, e.g. \"2026-01-01\"",
        "zh": "{value} 不是有效日期；请写成 YYYY-MM-DD，例如 \"2026-01-01\"",
    },
    "pipeline.corpus.missing_field": {
        "en": "missing; every row needs it",
        "zh": "缺失；每一行都需要这个字段",
    },
    "pipeline.corpus.empty_text": {
        "en": "must be a non-empty string, got {value}",
        "zh": "必须是非空字符串，收到的是 {value}",
    },
    "pipeline.corpus.whitespace": {
        "en": "{value} has leading or trailing whitespace; remove it",
        "zh": "{value} 首尾有空白字符；请删掉",
    },
    "pipeline.corpus.empty_csv": {
        "en": "empty file; expected the header {header}",
        "zh": "文件是空的；应有表头 {header}",
    },
    "pipeline.corpus.header_missing": {
        "en": "missing from the header {header}; expected {expected}",
        "zh": "表头 {header} 中没有这一列；应为 {expected}",
    },
    "pipeline.corpus.cell_count": {
        "en": "has {cells} cells, the header has {columns}; quote cells that contain commas",
        "zh": "这一行有 {cells} 个单元格，表头有 {columns} 列；含逗号的单元格请加引号",
    },
    "pipeline.corpus.not_utf8": {
        "en": "{file}: not UTF-8 ({error}); save the file as UTF-8",
        "zh": "{file}：不是 UTF-8 编码（{error}）；请把文件存为 UTF-8",
    },
    "pipeline.corpus.bad_include_holdout": {
        "en": "include_holdout must be True or False, got {value}",
        "zh": "include_holdout 必须是 True 或 False，收到的是 {value}",
    },
    "pipeline.corpus.duplicate_chunk": {
        "en": "duplicate chunk ID {chunk} (first on line {first}); chunk IDs must be unique",
        "zh": "片段（chunk）ID {chunk} 重复（首次出现在第 {first} 行）；片段 ID 必须唯一",
    },
    "pipeline.corpus.not_one_of": {
        "en": "{value} is not one of {allowed}",
        "zh": "{value} 不在 {allowed} 之中",
    },
    "pipeline.corpus.bad_readers": {
        "en": "must be a non-empty list of role names, e.g. [\"employee\"], got {value}",
        "zh": "必须是非空的角色名列表，例如 [\"employee\"]，收到的是 {value}",
    },
    "pipeline.corpus.no_effective_from": {
        "en": "missing; every chunk needs the date it takes effect",
        "zh": "缺失；每个片段都需要生效日期",
    },
    "pipeline.corpus.no_effective_to": {
        "en": "missing; write null when the chunk is still in force",
        "zh": "缺失；片段仍然有效时请写 null",
    },
    "pipeline.corpus.dates_out_of_order": {
        "en": "{end} is not after effective_from {start} (effective_to is exclusive); fix one of the dates",
        "zh": "{end} 不晚于 effective_from {start}（effective_to 当天已不生效）；请改正其中一个日期",
    },
    "pipeline.corpus.clause_two_documents": {
        "en": "{clause} already belongs to document {doc} (line {line}); clause IDs are unique across "
              "documents",
        "zh": "{clause} 已属于文档 {doc}（第 {line} 行）；条款 ID 在所有文档中必须唯一",
    },
    "pipeline.corpus.document_two_meta": {
        "en": "document {doc} has {field} {value} on line {line}; one document has one title and one "
              "edition",
        "zh": "文档 {doc} 在第 {line} 行的 {field} 是 {value}；一个文档只有一个标题和一个版本",
    },
    "pipeline.corpus.no_chunks": {
        "en": "no chunks; the corpus needs at least one line",
        "zh": "没有片段；语料至少需要一行",
    },
    "pipeline.corpus.bad_identity_name": {
        "en": "{name} must be a non-empty name without spaces",
        "zh": "{name} 必须是不含空格的非空名称",
    },
    "pipeline.corpus.duplicate_identity": {
        "en": "duplicate identity {name} (first on line {first})",
        "zh": "身份 {name} 重复（首次出现在第 {first} 行）",
    },
    "pipeline.corpus.bad_roles": {
        "en": "{roles}: list one or more roles separated by ';', e.g. employee;finance",
        "zh": "{roles}：请列出一个或多个角色，用 ';' 分隔，例如 employee;finance",
    },
    "pipeline.corpus.no_identities": {
        "en": "no identities; add at least one row",
        "zh": "没有身份；请至少加一行",
    },
    "pipeline.corpus.bad_identities": {
        "en": "identities must be the DataFrame of load_identities() or a mapping identity -> roles, got "
              "{kind}",
        "zh": "identities 必须是 load_identities() 返回的 DataFrame，或 身份 -> 角色 的映射，收到的是 {kind}",
    },
    "pipeline.corpus.duplicate_question": {
        "en": "duplicate question ID {question} (first on line {first})",
        "zh": "问题 ID {question} 重复（首次出现在第 {first} 行）",
    },
    "pipeline.corpus.unknown_identity": {
        "en": "unknown identity {name}; known: {known} (add it to identities.csv)",
        "zh": "没有身份 {name}；已知身份：{known}（请把它加到 identities.csv）",
    },
    "pipeline.corpus.no_answer_number": {
        "en": "missing; write null when the answer is not a number",
        "zh": "缺失；答案不是数字时请写 null",
    },
    "pipeline.corpus.bad_answer_number": {
        "en": "{value} must be a finite number or null",
        "zh": "{value} 必须是有限的数字或 null",
    },
    "pipeline.corpus.bad_split": {
        "en": "{value} is not one of {allowed}; run data/make_split.py",
        "zh": "{value} 不在 {allowed} 之中；请运行 data/make_split.py",
    },
    "pipeline.corpus.no_questions": {
        "en": "no questions; add at least one line",
        "zh": "没有问题；请至少加一行",
    },
    "pipeline.corpus.label_unknown_question": {
        "en": "unknown question {question}; it is not in questions.jsonl",
        "zh": "没有问题 {question}；它不在 questions.jsonl 中",
    },
    "pipeline.corpus.label_missing_chunk": {
        "en": "label points to a missing chunk {chunk}; it is not in corpus.jsonl",
        "zh": "标注指向不存在的片段 {chunk}；它不在 corpus.jsonl 中",
    },
    "pipeline.corpus.bad_grade": {
        "en": "{value} is not a grade; use the integers 2 (answers), 1 (helps) or 0 (checked, irrelevant)",
        "zh": "{value} 不是相关等级；请用整数 2（给出答案）、1（有帮助）或 0（已检查，不相关）",
    },
    "pipeline.corpus.labelled_twice": {
        "en": "({question}, {chunk}) is labelled twice (first on line {first})",
        "zh": "({question}, {chunk}) 被标注了两次（首次在第 {first} 行）",
    },
    "pipeline.corpus.unreadable_label": {
        "en": "{question} is asked as {identity}, who cannot read {chunk} (readers {readers}); label it 0 "
              "or drop the row: for this identity the question has no answer",
        "zh": "{question} 以身份 {identity} 提问，而该身份无权读取 {chunk}（可读角色 {readers}）；"
              "请把它标为 0 或删掉这一行：对这个身份而言，这是无答案题",
    },
    "pipeline.corpus.config_not_json": {
        "en": "not valid JSON ({error})",
        "zh": "不是有效的 JSON（{error}）",
    },
    "pipeline.corpus.config_not_object": {
        "en": "must be a JSON object with snapshot_date (and split_rule, frozen_design)",
        "zh": "必须是含有 snapshot_date（以及 split_rule、frozen_design）的 JSON 对象",
    },
    "pipeline.corpus.no_snapshot_date": {
        "en": "missing; the date of the index evaluated, e.g. \"2026-06-30\"",
        "zh": "缺失；应为被评估索引的日期，例如 \"2026-06-30\"",
    },
    "pipeline.corpus.bad_frozen_design": {
        "en": "must be a JSON object of AblationConfig fields, got {value}",
        "zh": "必须是由 AblationConfig 字段组成的 JSON 对象，收到的是 {value}",
    },
    "pipeline.corpus.ids_not_list": {
        "en": "question_ids must be a list of IDs, got the string {value}; write [{value}]",
        "zh": "question_ids 必须是 ID 列表，收到的是字符串 {value}；请写成 [{value}]",
    },
    # {opener} is the function's name, passed in: tests/test_holdout.py scans files for its call
    "pipeline.corpus.sealed_question": {
        "en": "question_ids: {question} is a sealed holdout question; its labels are read only by "
              "{opener} (the one final run)",
        "zh": "question_ids：{question} 是封存的保留集问题；它的标注只由 {opener}（唯一一次最终运行）读取",
    },
    "pipeline.corpus.unknown_question": {
        "en": "question_ids: unknown question {question}; known IDs look like {example}",
        "zh": "question_ids：没有问题 {question}；已知 ID 形如 {example}",
    },
    "pipeline.corpus.hash_missing_file": {
        "en": "{file}: missing; corpus_hash reads {files}",
        "zh": "{file}：缺失；corpus_hash 读取的文件是 {files}",
    },
    # ------------------------------------------------------------------ index.py
    "pipeline.index.bad_identities": {
        "en": "identities must be load_identities()'s DataFrame or a mapping name -> roles, got {kind}",
        "zh": "identities 必须是 load_identities() 返回的 DataFrame，或 名称 -> 角色 的映射，收到的是 {kind}",
    },
    "pipeline.index.unknown_identity": {
        "en": "identity {name} is unknown; known identities: {known} (or pass the roles themselves, "
              "e.g. {{'employee'}})",
        "zh": "没有身份 {name}；已知身份：{known}（也可以直接传入角色，例如 {{'employee'}}）",
    },
    "pipeline.index.bad_identity": {
        "en": "identity must be an identity name (str) or a collection of role names, got {kind}",
        "zh": "identity 必须是身份名称（str）或角色名的集合，收到的是 {kind}",
    },
    "pipeline.index.bad_roles": {
        "en": "identity: a collection of roles must hold role names, got {value}",
        "zh": "identity：角色集合里必须是角色名，收到的是 {value}",
    },
    "pipeline.index.bad_editions": {
        "en": "editions must be one of {allowed}, got {value}",
        "zh": "editions 必须是 {allowed} 之一，收到的是 {value}",
    },
    "pipeline.index.no_column": {
        "en": "corpus has no {column} column; pass the rows of load_corpus()",
        "zh": "corpus 没有 {column} 列；请传入 load_corpus() 的行",
    },
    "pipeline.index.already_filtered": {
        "en": "this snapshot is already filtered for {who}; call for_identity on the unfiltered snapshot "
              "from build_index",
        "zh": "这个版本快照已经按 {who} 做过权限过滤；请对 build_index 得到的未过滤快照调用 for_identity",
    },
    "pipeline.index.empty_snapshot": {
        "en": "no chunk is in the index on {day} with editions={editions}; the corpus starts on {start}",
        "zh": "{day} 在 editions={editions} 下索引中没有任何片段；语料从 {start} 开始",
    },
    "pipeline.index.no_readers": {
        "en": "chunks has no 'readers' column; pass rows of load_corpus()",
        "zh": "chunks 没有 'readers' 列；请传入 load_corpus() 的行",
    },
    "pipeline.index.chunks_is_a_string": {
        "en": "chunks must be a DataFrame or a list of chunk IDs, got the string {value}",
        "zh": "chunks 必须是 DataFrame 或片段 ID 列表，收到的是字符串 {value}",
    },
    "pipeline.index.unknown_chunk": {
        "en": "chunks: unknown chunk ID {chunk}; it is not in the corpus",
        "zh": "chunks：没有片段 ID {chunk}；它不在语料中",
    },
    # ------------------------------------------------------------------ retrieval.py
    "pipeline.retrieval.bad_chunks": {
        "en": "{argument} must be a DataFrame or an iterable of mappings with chunk_id and text, got {kind}",
        "zh": "{argument} 必须是 DataFrame，或由含 chunk_id 和 text 的映射组成的可迭代对象，收到的是 {kind}",
    },
    "pipeline.retrieval.chunk_not_mapping": {
        "en": "{argument}[{i}] must be a mapping, got {kind}",
        "zh": "{argument}[{i}] 必须是映射（mapping），收到的是 {kind}",
    },
    "pipeline.retrieval.chunk_needs_field": {
        "en": "{argument}[{i}] needs a string field {field}; got {value}",
        "zh": "{argument}[{i}] 需要字符串字段 {field}；收到的是 {value}",
    },
    "pipeline.retrieval.duplicate_chunk": {
        "en": "{argument}: duplicate chunk_id {chunk}; chunk IDs must be unique",
        "zh": "{argument}：chunk_id {chunk} 重复；片段 ID 必须唯一",
    },
    "pipeline.retrieval.bad_depth": {
        "en": "depth must be a positive int or None, got {value}",
        "zh": "depth 必须是正整数或 None，收到的是 {value}",
    },
    "pipeline.retrieval.bad_query": {
        "en": "query must be a str, got {kind}: {value}",
        "zh": "query 必须是 str，收到的是 {kind}：{value}",
    },
    "pipeline.retrieval.bm25_no_chunks": {
        "en": "chunks is empty: BM25 needs at least one chunk to index",
        "zh": "chunks 是空的：BM25 至少需要一个片段来建索引",
    },
    "pipeline.retrieval.not_in_index": {
        "en": "chunk_id {chunk} is not in this index",
        "zh": "chunk_id {chunk} 不在这个索引中",
    },
    "pipeline.retrieval.bad_ngram_range": {
        "en": "ngram_range must be (lo, hi) with 1 <= lo <= hi, got {value}",
        "zh": "ngram_range 必须是满足 1 <= lo <= hi 的 (lo, hi)，收到的是 {value}",
    },
    "pipeline.retrieval.bad_dim": {
        "en": "dim must be a positive int, got {value}",
        "zh": "dim 必须是正整数，收到的是 {value}",
    },
    "pipeline.retrieval.fit_no_texts": {
        "en": "texts is empty: fit needs at least one text",
        "zh": "texts 是空的：fit 至少需要一段文本",
    },
    "pipeline.retrieval.not_fitted": {
        "en": "CharNgramSVDEmbedder is not fitted: call .fit(corpus_texts) first",
        "zh": "CharNgramSVDEmbedder 还没有拟合：请先调用 .fit(corpus_texts)",
    },
    "pipeline.retrieval.bad_texts": {
        "en": "texts must be a list of str, got {kind}",
        "zh": "texts 必须是 str 的列表，收到的是 {kind}",
    },
    "pipeline.retrieval.text_not_str": {
        "en": "texts[{i}] must be a str, got {kind}",
        "zh": "texts[{i}] 必须是 str，收到的是 {kind}",
    },
    "pipeline.retrieval.vector_no_chunks": {
        "en": "chunks is empty: the vector retriever needs at least one chunk",
        "zh": "chunks 是空的：向量召回至少需要一个片段",
    },
    "pipeline.retrieval.embedder_not_callable": {
        "en": "embedder must be callable (list[str] -> ndarray), got {value}",
        "zh": "embedder 必须可调用（list[str] -> ndarray），收到的是 {value}",
    },
    "pipeline.retrieval.bad_embedding_shape": {
        "en": "embedder must return a 2-D array with {rows} rows, got {shape}",
        "zh": "embedder 必须返回 {rows} 行的二维数组，收到的形状是 {shape}",
    },
    "pipeline.retrieval.no_retrievers": {
        "en": "retrievers must be a non-empty mapping name -> Retriever",
        "zh": "retrievers 必须是非空的 名称 -> Retriever 映射",
    },
    "pipeline.retrieval.not_a_retriever": {
        "en": "retrievers[{name}] has no retrieve(query, depth) method",
        "zh": "retrievers[{name}] 没有 retrieve(query, depth) 方法",
    },
    "pipeline.retrieval.bad_window": {
        "en": "window must be a positive int (each retriever's top results fused), got {value}",
        "zh": "window 必须是正整数（融合每个检索器的前若干条结果），收到的是 {value}",
    },
    # ------------------------------------------------------------------ rerank.py
    "pipeline.rerank.retriever_outside_chunks": {
        "en": "{name} retriever holds chunks outside chunks: {extra}",
        "zh": "{name} 召回器里有不在 chunks 中的片段：{extra}",
    },
    "pipeline.rerank.unknown_candidates": {
        "en": "candidates not in this identity's index: {unknown}",
        "zh": "这些候选不在该身份的索引中：{unknown}",
    },
    "pipeline.rerank.memory_length": {
        "en": "memory has {values} values for {candidates} candidates",
        "zh": "memory 有 {values} 个值，而候选有 {candidates} 个",
    },
    "pipeline.rerank.unknown_features": {
        "en": "unknown feature(s) {unknown}; features are {features}",
        "zh": "未知特征 {unknown}；可用特征为 {features}",
    },
    "pipeline.rerank.missing_features": {
        "en": "features lacks column(s) {missing}; build them with FeatureExtractor",
        "zh": "features 缺少列 {missing}；请用 FeatureExtractor 构造",
    },
    "pipeline.rerank.duplicate_candidates": {
        "en": "features has duplicate chunk IDs; dedupe candidates first",
        "zh": "features 中有重复的片段 ID；请先对候选去重",
    },
    "pipeline.rerank.no_questions": {
        "en": "questions is empty: fit the reranker on the dev questions",
        "zh": "questions 是空的：请在开发集问题上拟合重排模型",
    },
    "pipeline.rerank.not_dev": {
        "en": "question {question} has split={split}: the reranker is fitted on the dev split only; pass "
              "only questions with split == 'dev'",
        "zh": "问题 {question} 的 split={split}：重排模型只在开发集上拟合；请只传入 split == 'dev' 的问题",
    },
    "pipeline.rerank.no_features_for": {
        "en": "features has no entry for question {question}",
        "zh": "features 里没有问题 {question} 的条目",
    },
    "pipeline.rerank.bad_shapes": {
        "en": "x must be (rows, {columns}) and y one label per row",
        "zh": "x 的形状必须是 (rows, {columns})，y 必须每行一个标签",
    },
    "pipeline.rerank.nothing_relevant": {
        "en": "no relevant candidate among the dev features: nothing to learn from",
        "zh": "开发集特征中没有相关候选：没有可学习的东西",
    },
    # ------------------------------------------------------------------ generate.py
    "pipeline.generate.question_not_str": {
        "en": "question must be a str, got {kind}",
        "zh": "question 必须是 str，收到的是 {kind}",
    },
    "pipeline.generate.bad_passages": {
        "en": "passages must be a list of mappings with chunk_id and text, got {kind}",
        "zh": "passages 必须是含 chunk_id 和 text 的映射列表，收到的是 {kind}",
    },
    "pipeline.generate.bad_passage": {
        "en": "passages[{i}] must be a mapping with string chunk_id and text, got {value}",
        "zh": "passages[{i}] 必须是含字符串 chunk_id 和 text 的映射，收到的是 {value}",
    },
    "pipeline.generate.bad_refuse_below": {
        "en": "refuse_below must be a share in [0, 1], got {value}",
        "zh": "refuse_below 必须是 [0, 1] 之间的比例，收到的是 {value}",
    },
    "pipeline.generate.bad_max_passages": {
        "en": "max_passages must be a positive int or None, got {value}",
        "zh": "max_passages 必须是正整数或 None，收到的是 {value}",
    },
    "pipeline.generate.adapter_not_a_client": {
        "en": "LLMGeneratorAdapter is an adapter example, not a client: subclass it and implement "
              "complete(prompt) -> str with your LLM SDK (model, temperature and prompt pinned in the "
              "run configuration). The workbook's default generator is ExtractiveAnswerer.",
        "zh": "LLMGeneratorAdapter 只是适配器示例，不是客户端：请继承它，用你的 LLM SDK 实现 "
              "complete(prompt) -> str（在运行配置中固定模型、temperature 和提示词）。"
              "练习册默认的生成模型是 ExtractiveAnswerer。",
    },
    # ------------------------------------------------------------------ ablation/
    "pipeline.ablation.not_positive": {
        "en": "{name} must be a positive int, got {value}",
        "zh": "{name} 必须是正整数，收到的是 {value}",
    },
    "pipeline.ablation.depth_below_top_k": {
        "en": "rerank_depth={depth} is smaller than top_k={top_k}: keep at least top_k candidates",
        "zh": "rerank_depth={depth} 小于 top_k={top_k}：至少要保留 top_k 个候选",
    },
    "pipeline.ablation.bad_k": {
        "en": "k must be a number > 0 (RRF constant), got {value}",
        "zh": "k 必须是 > 0 的数（RRF 常数），收到的是 {value}",
    },
    "pipeline.ablation.bad_split": {
        "en": "split must be one of {allowed}, got {value}",
        "zh": "split 必须是 {allowed} 之一，收到的是 {value}",
    },
    "pipeline.ablation.bad_editions": {
        "en": "editions must be 'live' or 'published', got {value}",
        "zh": "editions 必须是 'live' 或 'published'，收到的是 {value}",
    },
    "pipeline.ablation.bad_refuse_below": {
        "en": "refuse_below must be in [0, 1] or None, got {value}",
        "zh": "refuse_below 必须在 [0, 1] 之间或为 None，收到的是 {value}",
    },
    "pipeline.ablation.unknown_knobs": {
        "en": "tuned names unknown knobs {unknown}; knobs: {knobs}",
        "zh": "tuned 中有未知的参数 {unknown}；可调参数：{knobs}",
    },
    "pipeline.ablation.not_a_dataset": {
        "en": "dataset must have a {name} attribute (see ragmath.lab.corpus.load_dataset)",
        "zh": "dataset 必须有 {name} 属性（见 ragmath.lab.corpus.load_dataset）",
    },
    "pipeline.ablation.dev_only": {
        "en": "{what} works on dev questions only, but the dataset holds holdout question(s) {held}; pass "
              "ragmath.lab.corpus.load_dataset() (dev only)",
        "zh": "{what} 只用于开发集问题，但数据集中有保留集问题 {held}；"
              "请传入 ragmath.lab.corpus.load_dataset()（只含开发集）",
    },
    "pipeline.ablation.unknown_identity": {
        "en": "unknown identity {name}; known: {known}",
        "zh": "没有身份 {name}；已知身份：{known}",
    },
    "pipeline.ablation.no_rows": {
        "en": "rows is empty: fit the refusal threshold on the dev questions",
        "zh": "rows 是空的：请在开发集问题上拟合拒答阈值",
    },
    "pipeline.ablation.threshold_not_dev": {
        "en": "row {question} has split={split}: the refusal threshold is fitted on dev questions only",
        "zh": "行 {question} 的 split={split}：拒答阈值只在开发集问题上拟合",
    },
    "pipeline.ablation.reranker_not_dev": {
        "en": "the reranker is fitted on dev questions only; got {questions}",
        "zh": "重排模型只在开发集问题上拟合；收到的是 {questions}",
    },
    "pipeline.ablation.not_a_config": {
        "en": "config must be an AblationConfig, got {kind}",
        "zh": "config 必须是 AblationConfig，收到的是 {kind}",
    },
    "pipeline.ablation.question_without_split": {
        "en": "questions: {question} has split={split}; every question needs split 'dev' or 'holdout' (see "
              "data/README.md, 'The split')",
        "zh": "questions：{question} 的 split={split}；每个问题的 split 都必须是 'dev' 或 'holdout'"
              "（见 data/README.md 的 'The split' 一节）",
    },
    "pipeline.ablation.holdout_sealed": {
        "en": "no holdout question in this dataset: the holdout is sealed; ragmath.lab.holdout.open_holdout, "
              "given the frozen config, runs the frozen design on it once",
        "zh": "这个数据集中没有保留集问题：保留集已封存；ragmath.lab.holdout.open_holdout 会用冻结的配置，"
              "在保留集上把冻结的设计运行一次",
    },
    "pipeline.ablation.no_question_in_split": {
        "en": "no question has split {split}",
        "zh": "没有 split 为 {split} 的问题",
    },
    "pipeline.ablation.no_dev_question": {
        "en": "no dev question: the reranker and the refusal threshold are fitted on dev",
        "zh": "没有开发集问题：重排模型和拒答阈值都要在开发集上拟合",
    },
    "pipeline.ablation.empty_grid": {
        "en": "ks, windows and depths must each hold at least one value",
        "zh": "ks、windows 和 depths 都必须至少有一个值",
    },
    "pipeline.ablation.bad_test_fraction": {
        "en": "test_fraction must be strictly between 0 and 1, got {value}",
        "zh": "test_fraction 必须严格介于 0 和 1 之间，收到的是 {value}",
    },
    "pipeline.ablation.grid_knob_empty": {
        "en": "grid needs at least one value for each of {knobs}, got {grid}",
        "zh": "grid 中 {knobs} 每一项都至少需要一个值，收到的是 {grid}",
    },
    "pipeline.ablation.unknown_knob": {
        "en": "knob must be one of {allowed}, got {value}",
        "zh": "knob 必须是 {allowed} 之一，收到的是 {value}",
    },
    "pipeline.ablation.bad_score_fusion": {
        "en": "score_fusion (add row E) must be True or False, got {value}",
        "zh": "score_fusion（是否加上 E 行）必须是 True 或 False，收到的是 {value}",
    },
    "pipeline.ablation.bad_alpha": {
        "en": "alpha (row E's weight on BM25) must be None (chosen on dev by the rule) or a number in "
              "[0, 1], got {value}",
        "zh": "alpha（E 行中 BM25 的权重）必须是 None（按规则在开发集上选）或 [0, 1] 之间的数，"
              "收到的是 {value}",
    },
    "pipeline.ablation.default_not_run": {
        "en": "the default {default} must be one of the values compared, got {values}",
        "zh": "默认值 {default} 必须在比较的取值之中，收到的是 {values}",
    },
    "pipeline.ablation.one_default_row": {
        "en": "the table needs exactly one default row, got {count}",
        "zh": "表中必须恰好有一行 default，收到的是 {count} 行",
    },
}
