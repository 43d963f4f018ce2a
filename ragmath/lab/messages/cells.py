"""Messages of the cells (see ragmath.lab.messages)."""

MESSAGES: dict[str, dict[str, str]] = {}
