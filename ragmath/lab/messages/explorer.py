"""Messages of the explorer (see ragmath.lab.messages)."""

MESSAGES: dict[str, dict[str, str]] = {}
