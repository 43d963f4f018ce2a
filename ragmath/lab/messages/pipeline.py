"""Messages of the pipeline (see ragmath.lab.messages): the errors a notebook reader can meet in the
workbook's toy pipeline (``ragmath/lab/*.py``)."""

MESSAGES: dict[str, dict[str, str]] = {
    # ------------------------------------------------------------------ paths.py
    "pipeline.paths.no_data": {
        "en": "the workbook's data (corpus.jsonl, questions.jsonl, qrels.csv, ...) was not found in "
              "{folder}. It ships with the repository, not with the ragmath package: run from a "
              "checkout of RAG Lab (make lab installs ragmath from it), or set RAGMATH_DATA to the "
              "folder that holds corpus.jsonl",
        "zh": "在 {folder} 中找不到工作簿的数据（corpus.jsonl、questions.jsonl、qrels.csv 等）。"
              "数据随仓库提供，不随 ragmath 包提供：请在 RAG Lab 的检出目录中运行"
              "（make lab 会从那里安装 ragmath），或把 RAGMATH_DATA 设为包含 corpus.jsonl 的文件夹",
    },
    # ------------------------------------------------------------------ holdout.py
    "pipeline.holdout.bad_openings": {
        "en": "{file}: must be a JSON object with an 'openings' list",
        "zh": "{file}：必须是一个含有 'openings' 列表的 JSON 对象",
    },
    "pipeline.holdout.no_frozen_design": {
        "en": "config.json has no frozen_design: tune on dev (notebook 06), then write the chosen k, window "
              "and rerank_depth there before opening the holdout",
        "zh": "config.json 里没有 frozen_design：请先在开发集上调参（笔记本 06），把选定的 k、window 和 "
              "rerank_depth 写进去，再启封保留集",
    },
    "pipeline.holdout.unknown_fields": {
        "en": "config.json frozen_design: unknown field(s) {unknown}; known: {known}",
        "zh": "config.json 的 frozen_design：未知字段 {unknown}；已知字段：{known}",
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
}
