"""Compact JSON text for what the referee sends a bot every decision (views, moves).

orjson (a Rust encoder, well kept and on PyPI for every platform we run on) writes the same
bytes as `json.dumps(value, separators=(",", ":"))` for everything a view or a message
holds, ten times faster: 3.2 µs against 31 µs for a Takenoko view of 3.8 kB, and msgspec
4.0 µs (measured for issue 22). Differences that do not arise here: non-ASCII text is
written as UTF-8 rather than escaped (the protocol is UTF-8), and NaN becomes null.
"""

from __future__ import annotations

from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value: Any) -> str:
    """`value` as compact JSON text (keys that are not strings are written as strings)."""
    return orjson.dumps(value, option=_OPTIONS).decode()


def dumps_bytes(value: Any) -> bytes:
    """`dumps(value)` as UTF-8 bytes, with no decoding step."""
    return orjson.dumps(value, option=_OPTIONS)
