"""Copy the blocks the two READMEs share from ``README.md`` into ``README.zh.md``.

A shared block sits between ``<!-- shared: NAME -->`` and ``<!-- /shared: NAME -->`` in both files: the
two commands, the glossary (already bilingual), the conventions table and the metric table (which a test
checks against ``ragmath.METRICS``). The English README is where they are edited; this tool writes them
into the Chinese one, and ``tests/test_project.py`` fails when the copies differ.

Usage: ``python tools/readme_shared.py`` (rewrites README.zh.md in place; exit 1 if a block is missing).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENGLISH, CHINESE = ROOT / "README.md", ROOT / "README.zh.md"
_BLOCK = re.compile(r"<!-- shared: (?P<name>[\w-]+) -->\n(?P<body>.*?)<!-- /shared: (?P=name) -->", re.S)


def shared_blocks(text: str) -> dict[str, str]:
    """NAME -> body of every shared block in ``text``.

    >>> shared_blocks("a\\n<!-- shared: x -->\\nbody\\n<!-- /shared: x -->\\nb")
    {'x': 'body\\n'}
    """
    return {m["name"]: m["body"] for m in _BLOCK.finditer(text)}


def with_blocks(text: str, blocks: dict[str, str]) -> str:
    """``text`` with each of its shared blocks' bodies replaced by ``blocks[NAME]``.

    Raises ``KeyError`` naming a block of ``text`` that ``blocks`` lacks.
    """
    def replace(match: re.Match) -> str:
        name = match["name"]
        if name not in blocks:
            raise KeyError(f"README.md has no shared block {name!r}")
        return f"<!-- shared: {name} -->\n{blocks[name]}<!-- /shared: {name} -->"

    return _BLOCK.sub(replace, text)


def main() -> int:
    blocks = shared_blocks(ENGLISH.read_text(encoding="utf-8"))
    chinese = CHINESE.read_text(encoding="utf-8")
    missing = sorted(set(blocks) - set(shared_blocks(chinese)))
    if missing:
        print(f"README.zh.md lacks the shared blocks {', '.join(missing)}: add their markers",
              file=sys.stderr)
        return 1
    CHINESE.write_text(with_blocks(chinese, blocks), encoding="utf-8")
    print(f"README.zh.md: {len(blocks)} shared blocks written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
