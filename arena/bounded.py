"""Bounded reading of the files the arena reads back: sizes, decompression, nesting, numbers.

Issue 20: a 3 MB gzip bomb took 6.3 GB to replay, 100,000 nested brackets raised
RecursionError, a 5,000-digit or NaN seed and wrong types gave tracebacks. Every reader of a
record, a games log line or a configuration goes through these: the bytes read are capped,
decompression stops at a cap, nesting is counted before parsing, NaN and Infinity are
refused, and each failure is a `BoundedReadError` whose text names the file and what is
wrong. The typed checks of each format's fields live with the format (results/log.py,
run_config.py, record.py) and use `whole`, `number` and `text_list` from here.

`visible` makes a bot's own text (its stderr, its comment) safe to print on a terminal.
"""

from __future__ import annotations

import json
import math
import unicodedata
import zlib
from pathlib import Path
from typing import Any

from arena.errors import ArenaError

MAX_DEPTH = 64
"""The deepest nesting of arrays and objects accepted (records nest about 8 deep)."""
MAX_SEATS = 16
"""The most seats a table read back may have (the games have at most 4)."""
MAX_COUNT = 10**9
"""The largest count read back: a seq, round, table, game, turn or decision count."""


def visible(text: str) -> str:
    """`text` with its control and format characters written out as escapes (`\\x1b`,
    `\\u202e`), tabs kept: a bot's stderr or comment quoted on a terminal can then neither
    drive it (set its title, clear it, write the clipboard with OSC 52) nor reorder what it
    shows (bidirectional overrides)."""
    if text.isprintable():
        return text
    return "".join(
        c
        if c == "\t" or unicodedata.category(c) not in ("Cc", "Cf")
        else c.encode("unicode_escape").decode("ascii")
        for c in text
    )


class BoundedReadError(ArenaError):
    """A file the arena wrote is unreadable or not what it should be; the text says which."""


def read_capped(path: Path, cap: int, what: str) -> bytes:
    """The bytes of `path`, at most `cap` of them; BoundedReadError when it is bigger or
    cannot be read."""
    try:
        with path.open("rb") as file:
            data = file.read(cap + 1)
    except FileNotFoundError:
        raise BoundedReadError(f"{path} does not exist.") from None
    except OSError as error:
        raise BoundedReadError(f"Cannot read {path}: {error.strerror or error}.") from None
    if len(data) > cap:
        raise BoundedReadError(f"{path} is larger than a {what} can be ({cap >> 20} MiB).")
    return data


def gunzip_capped(data: bytes, cap: int, where: str) -> bytes:
    """`data` gunzipped (or as it is, when not gzip), at most `cap` bytes out."""
    if not data.startswith(b"\x1f\x8b"):
        return data
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = inflater.decompress(data, cap + 1)
    except zlib.error as error:
        raise BoundedReadError(f"{where} is a damaged gzip file ({error}).") from None
    if len(out) > cap:
        raise BoundedReadError(
            f"{where} unpacks to more than {cap >> 20} MiB, more than any record; "
            "it is not a record this arena wrote."
        )
    if not inflater.eof:
        raise BoundedReadError(f"{where} is a damaged gzip file (it ends too soon).")
    return out


def loads(data: bytes | str, where: str, max_depth: int = MAX_DEPTH) -> Any:
    """JSON from `data`: nesting at most `max_depth`, no NaN or Infinity, numbers of at most
    4,300 digits (Python's own cap); BoundedReadError naming `where` otherwise. Pass
    `max_depth=0` to skip the walk where the caller checks every field's type itself."""
    try:
        value = json.loads(data, parse_constant=_refuse_constant)
    except UnicodeDecodeError:
        raise BoundedReadError(f"{where} is not UTF-8 text.") from None
    except json.JSONDecodeError as error:
        raise BoundedReadError(f"{where} is not valid JSON ({error.msg}).") from None
    except RecursionError:
        raise BoundedReadError(
            f"{where} nests too deeply to read; it is not a file this arena wrote."
        ) from None
    except ValueError as error:
        raise BoundedReadError(f"{where} cannot be read as JSON ({error}).") from None
    if max_depth:
        _check_depth(value, where, max_depth)
    return value


def whole(value: Any, low: int, high: int, what: str) -> int:
    """`value` as an int within [low, high]; ValueError naming `what` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(
            f"{what} must be a whole number from {low:,} to {high:,}, not {_shown(value)}"
        )
    return value


def number(value: Any, bound: float, what: str) -> float:
    """`value` as a finite number within ±`bound`; ValueError naming `what` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{what} must be a number, not {_shown(value)}")
    if not math.isfinite(value) or abs(value) > bound:
        raise ValueError(f"{what} must be a finite number within ±{bound:g}, not {_shown(value)}")
    return float(value) if isinstance(value, float) else value


def text_list(value: Any, low: int, high: int, what: str) -> tuple[str, ...]:
    """`value` as a list of `low` to `high` strings; ValueError naming `what` otherwise."""
    if not isinstance(value, list) or not low <= len(value) <= high:
        raise ValueError(f"{what} must be a list of {low} to {high} names")
    if not all(isinstance(item, str) for item in value):
        raise ValueError(f"{what} must hold only names (strings)")
    return tuple(value)


def _check_depth(value: Any, where: str, max_depth: int) -> None:
    """BoundedReadError when arrays and objects nest deeper than `max_depth` (walked without
    recursion, so no depth can overflow the stack)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        )
        if not children:
            continue
        if depth > max_depth:
            raise BoundedReadError(
                f"{where} nests deeper than {max_depth} levels; it is not a file this arena wrote."
            )
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
