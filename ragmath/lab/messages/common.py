"""Messages shared by every part of the workbook: numbers not available, lists of names."""

MESSAGES = {
    "common.not_available": {"en": "n/a", "zh": "无"},
    "common.of": {"en": "{part} of {whole}", "zh": "{whole} 个中有 {part} 个"},
    "common.list_separator": {"en": ", ", "zh": "、"},
    "common.join_names": {"en": "{head} and {last}", "zh": "{head} 和 {last}"},
}
