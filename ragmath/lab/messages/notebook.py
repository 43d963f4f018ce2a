"""Messages of the notebook (see ragmath.lab.messages)."""

MESSAGES: dict[str, dict[str, str]] = {}
