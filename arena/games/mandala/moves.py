"""Moves as JSON-friendly data: parsing with exact error sentences, and descriptions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.errors import IllegalMoveError, MoveFormatError
from arena.games.base import Move
from arena.games.mandala.cards import (
    BUILD_MOUNTAIN,
    CLAIM,
    COLOUR_INDEX,
    COLOURS,
    DISCARD_REDRAW,
    GROW_FIELD,
    build_action,
    claim_action,
    decode,
    discard_action,
    grow_action,
)
from arena.games.mandala.position import Position
from arena.games.move_fields import cards, int_field, move_object, name_field

ACTIONS = (BUILD_MOUNTAIN, GROW_FIELD, DISCARD_REDRAW, CLAIM)
_FIELDS = {
    BUILD_MOUNTAIN: ("mandala", "colour"),
    GROW_FIELD: ("mandala", "colour", "count"),
    DISCARD_REDRAW: ("colour", "count"),
    CLAIM: ("colour",),
}


def _colour(move: Mapping[str, Any]) -> int:
    return COLOUR_INDEX[name_field(move.get("colour", move.get("color")), "colour", COLOURS)]


def _parse(move: Any) -> tuple[str, int, int, int]:
    """(action, mandala, colour, count) of a well-formed move, or MoveFormatError."""
    move = move_object(move)
    action = name_field(move.get("action"), "action", ACTIONS)
    wanted = _FIELDS[action]
    missing = [
        key for key in wanted if key not in move and not (key == "colour" and "color" in move)
    ]
    if missing:
        raise MoveFormatError(f"A {action} move needs {', '.join(repr(k) for k in missing)}.")
    colour = _colour(move)
    mandala = int_field(move.get("mandala"), "mandala", 0, 1) if "mandala" in wanted else -1
    count = int_field(move.get("count"), "count", 1, 8) if "count" in wanted else 1
    return action, mandala, colour, count


def action_from_move(state: Position, move: Any) -> int:
    """Check a move against the rules in `state`; return its action code or say what is wrong."""
    action, mandala, colour, count = _parse(move)
    name = COLOURS[colour]
    if state.over:
        raise IllegalMoveError("The game is over; no move can be played.")
    if state.destroying >= 0:
        if action != CLAIM:
            raise IllegalMoveError(
                f"Mandala {state.destroying} is being destroyed: the move must be a claim, "
                f"not {action}."
            )
        if not state.mountains[state.destroying][colour]:
            raise IllegalMoveError(
                f"The Mountain of Mandala {state.destroying} has no {name} to claim."
            )
        return claim_action(colour)
    if action == CLAIM:
        raise IllegalMoveError("No Mandala is being destroyed, so there is nothing to claim.")
    seat = state.current
    held = state.hands[seat][colour]
    if held < count:
        have = "no" if held == 0 else f"only {held}"
        raise IllegalMoveError(f"You have {have} {name} card{'s' if held != 1 else ''} in hand.")
    if action == DISCARD_REDRAW:
        return discard_action(colour, count)
    fields = state.fields[mandala]
    if action == BUILD_MOUNTAIN:
        for owner in (seat, 1 - seat):
            if fields[owner][colour]:
                whose = "your" if owner == seat else "your opponent's"
                raise IllegalMoveError(
                    f"Mandala {mandala} already has {name} in {whose} Field, so {name} cannot "
                    f"go into its Mountain (Rule of Color)."
                )
        return build_action(mandala, colour)
    if state.mountains[mandala][colour]:
        raise IllegalMoveError(
            f"Mandala {mandala} already has {name} in the Mountain (Rule of Color)."
        )
    if fields[1 - seat][colour]:
        raise IllegalMoveError(
            f"Mandala {mandala} already has {name} in your opponent's Field (Rule of Color)."
        )
    if count >= state.hand_sizes[seat]:
        raise IllegalMoveError(
            f"Grow Field must leave at least 1 card in your hand; you hold "
            f"{state.hand_sizes[seat]} and would play {count} (R5)."
        )
    return grow_action(mandala, colour, count)


def move_of(action: int) -> Move:
    """The JSON move of an action code (the same move in every state)."""
    kind, mandala, colour, count = decode(action)
    if kind == BUILD_MOUNTAIN:
        return {"action": kind, "mandala": mandala, "colour": COLOURS[colour]}
    if kind == GROW_FIELD:
        return {"action": kind, "mandala": mandala, "colour": COLOURS[colour], "count": count}
    if kind == DISCARD_REDRAW:
        return {"action": kind, "colour": COLOURS[colour], "count": count}
    return {"action": kind, "colour": COLOURS[colour]}


def describe(move: dict[str, Any]) -> str:
    """A move in words, e.g. 'grows 2 green cards in their Field of Mandala 1'."""
    action = move.get("action")
    colour = move.get("colour", move.get("color"))
    count = move.get("count", 1)
    if action == BUILD_MOUNTAIN:
        return f"builds a {colour} card into the Mountain of Mandala {move.get('mandala')}"
    if action == GROW_FIELD:
        return f"grows {cards(count, colour)} in their Field of Mandala {move.get('mandala')}"
    if action == DISCARD_REDRAW:
        return f"discards {cards(count, colour)} and redraws"
    if action == CLAIM:
        return f"claims {colour}"
    return "makes a move the rules do not know"
