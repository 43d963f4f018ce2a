"""What the browser tests share: the rule for a missing browser (skip here, fail under CI=true), and a
headless Chromium launched the one way that works offline here."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

#: Debian's Chromium (``make browser-deps`` installs it); the tests never use a downloaded browser.
CHROMIUM = Path("/usr/bin/chromium")
#: No sandbox (root in containers) and no background fetching (this machine reaches no other host).
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def unavailable(reason: str) -> None:
    """Skip with ``reason``, or fail when ``CI=true`` (CI must not pass without a browser)."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true but the browser tests cannot run: {reason}")
    pytest.skip(reason)


@contextlib.contextmanager
def headless_chromium() -> Iterator:
    """A headless Chromium (Playwright's ``Browser``), closed on exit; skipped, or failed under CI=true,
    when Chromium or Playwright is missing."""
    if not CHROMIUM.is_file():
        unavailable(f"{CHROMIUM} not found; install Debian's chromium (apt-get install -y chromium) "
                    "or run `make browser-deps`")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("the python package playwright is not installed; pip install -e '.[test]'")
    with sync_playwright() as api:
        chromium = api.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_FLAGS)
        try:
            yield chromium
        finally:
            chromium.close()
