"""Reading the fields of a move a bot sent: every type is checked before anything is looked up.

A bot's move is arbitrary JSON. A game's move parser reads its fields through these helpers,
so an object where a name belongs, or a list where a number belongs, is a `MoveFormatError`
with a sentence, never a `TypeError` out of a dict lookup (issue 9, tests/test_reply_fuzz.py).
"""

from __future__ import annotations

import reprlib
from collections.abc import Collection, Mapping
from typing import Any

from arena.errors import MoveFormatError

_shown = reprlib.Repr()
_shown.maxlevel = 2
_shown.maxstring = 40
_shown.maxother = 40


def shown(value: Any) -> str:
    """A short repr of a value a bot sent (bounded in length and nesting depth)."""
    return _shown.repr(value)


def move_object(move: Any) -> Mapping[str, Any]:
    """`move` when it is a JSON object; MoveFormatError otherwise."""
    if not isinstance(move, dict):
        raise MoveFormatError(f"A move must be a JSON object, not {shown(move)}.")
    return move


def name_field(value: Any, key: str, names: Collection[str]) -> str:
    """`value` when it is one of `names` (a string); MoveFormatError naming the choices."""
    if not isinstance(value, str) or value not in names:
        raise MoveFormatError(f"'{key}' must be one of {', '.join(names)}, not {shown(value)}.")
    return value


def int_field(value: Any, key: str, low: int, high: int) -> int:
    """`value` when it is a whole number from `low` to `high`; MoveFormatError otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise MoveFormatError(
            f"'{key}' must be a whole number from {low} to {high}, not {shown(value)}."
        )
    return value


def cards(count: Any, colour: Any) -> str:
    """Cards of one colour in a move's words: 'a red card', '2 green cards'."""
    return f"a {colour} card" if count == 1 else f"{count} {colour} cards"
