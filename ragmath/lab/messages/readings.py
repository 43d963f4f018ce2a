"""Messages of the readings (see ragmath.lab.messages)."""

MESSAGES: dict[str, dict[str, str]] = {}
