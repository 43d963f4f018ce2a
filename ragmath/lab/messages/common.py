"""Messages shared by every part of the workbook: how a list of names is separated."""

MESSAGES = {
    "common.list_separator": {"en": ", ", "zh": "、"},
}
