"""Putting data and assets into a page safely."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def script_json(data: Any, element_id: str) -> str:
    """`data` as a `<script type="application/json">` block that no text inside it can end
    or turn into markup: `<`, `>` and `&` are written as JSON escapes (a bot named
    `</script><script>alert(1)</script>` stays a string)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    text = text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    return f'<script type="application/json" id="{element_id}">{text}</script>'


def asset(name: str) -> str:
    """The text of one of the pages' assets (arena/html/assets/NAME)."""
    return resources.files("arena.html").joinpath("assets", name).read_text(encoding="utf-8")
