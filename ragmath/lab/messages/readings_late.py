"""Messages of the readings_late (see ragmath.lab.messages)."""

MESSAGES: dict[str, dict[str, str]] = {}
