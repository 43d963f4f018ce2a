"""Messages of the pipeline (see ragmath.lab.messages)."""

MESSAGES: dict[str, dict[str, str]] = {}
