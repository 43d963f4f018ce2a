"""What the browser tests share: the rule for a missing browser (skip here, fail under CI=true)."""

from __future__ import annotations

import os

import pytest


def unavailable(reason: str) -> None:
    """Skip with ``reason``, or fail when ``CI=true`` (CI must not pass without a browser)."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true but the browser tests cannot run: {reason}")
    pytest.skip(reason)
