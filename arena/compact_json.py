"""Compact JSON text for what the referee sends a bot every decision (views, moves).

orjson (a Rust encoder, well kept and on PyPI for every platform we run on) writes the same
bytes as `json.dumps(value, separators=(",", ":"))` for everything a view or a message
holds, ten times faster: 3.2 µs against 31 µs for a Takenoko view of 3.8 kB, and msgspec
4.0 µs (measured for issue 22). Differences that do not arise here: non-ASCII text is
written as UTF-8 rather than escaped (the protocol is UTF-8), and NaN becomes null. What
orjson refuses (an integer beyond 64 bits, say `--game-option turn_limit=10**30`, or text
that is not valid UTF-8) goes through the standard library instead, ASCII-escaped, so
nothing the arena could send before fails now.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS
_standard = json.JSONEncoder(separators=(",", ":")).encode  # ASCII: even lone surrogates


def dumps_bytes(value: Any) -> bytes:
    """`value` as compact JSON, UTF-8 bytes (keys that are not strings become strings)."""
    try:
        return orjson.dumps(value, option=_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError: beyond what orjson writes
        return _standard(value).encode()


def dumps(value: Any) -> str:
    """`dumps_bytes(value)` as text."""
    return dumps_bytes(value).decode()
