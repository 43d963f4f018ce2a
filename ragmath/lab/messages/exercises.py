"""Messages of the exercises (see ragmath.lab.messages)."""

MESSAGES: dict[str, dict[str, str]] = {}
