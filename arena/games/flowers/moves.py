"""Flowers' moves as JSON-friendly data: parsing with exact error sentences, and descriptions.

{"action": "play", "mandala": 0, "colour": "red", "count": 2}    F8
{"action": "take", "colour": "green"}                            F17
"""

from __future__ import annotations

from typing import Any

from arena.errors import IllegalMoveError, MoveFormatError
from arena.games.base import Move
from arena.games.flowers.components import (
    COLOUR_INDEX,
    COLOURS,
    MANDALAS,
    MOST_PLAYED,
    PLAY,
    TAKE,
    TAKE_BASE,
    TILE_NAMES,
    decode_play,
    play_action,
    take_action,
    tile_colour,
)
from arena.games.flowers.table import FlowersTable
from arena.games.move_fields import cards, int_field, move_object, name_field

ACTIONS = (PLAY, TAKE)
_FIELDS = {PLAY: ("mandala", "colour", "count"), TAKE: ("colour",)}


def _parse(move: Any) -> tuple[str, int, int, int]:
    """(action, mandala, colour, count) of a well-formed move, or MoveFormatError."""
    move = move_object(move)
    action = name_field(move.get("action"), "action", ACTIONS)
    if "color" in move and "colour" not in move:
        move = {**move, "colour": move["color"]}
    missing = [key for key in _FIELDS[action] if key not in move]
    if missing:
        raise MoveFormatError(f"A {action} move needs {', '.join(repr(k) for k in missing)}.")
    colour = COLOUR_INDEX[name_field(move["colour"], "colour", COLOURS)]
    if action == TAKE:
        return action, -1, colour, 0
    mandala = int_field(move["mandala"], "mandala", 0, MANDALAS - 1)
    count = int_field(move["count"], "count", 1, MOST_PLAYED)
    return action, mandala, colour, count


def action_from_move(state: FlowersTable, move: Any) -> int:
    """Check a move against the rules in `state`; return its action code or say what is wrong."""
    action, mandala, colour, count = _parse(move)
    name = COLOURS[colour]
    if state.over:
        raise IllegalMoveError("The game is over; no move can be played.")
    if state.choosing:
        where = state.destroying
        tiles = state.tiles[where]
        if action != TAKE:
            raise IllegalMoveError(
                f"Mandala {where} is being destroyed: the move must take one of its tiles "
                f"({' or '.join(TILE_NAMES[t] for t in tiles)}), not {action}."
            )
        if colour not in [tile_colour(tile) for tile in tiles]:
            raise IllegalMoveError(
                f"Mandala {where} has no {name} tile; its tiles are "
                f"{' and '.join(TILE_NAMES[t] for t in tiles)} (F17)."
            )
        return take_action(colour)
    if action == TAKE:
        raise IllegalMoveError("No Mandala is being destroyed, so there is no tile to take.")
    seat = state.current
    held = state.hands[seat][colour]
    if held < count:
        have = "no" if held == 0 else f"only {held}"
        raise IllegalMoveError(f"You have {have} {name} card{'s' if held != 1 else ''} in hand.")
    size = state.hand_sizes[seat]
    if count == size and count > 1:
        raise IllegalMoveError(
            f"Playing all {size} cards of your hand would leave it empty; play at most "
            f"{size - 1} (F8)."
        )
    if count == size and not state.can_play(seat):
        raise IllegalMoveError(
            "Your last card cannot be played: the deck and the discard pile are empty, so "
            "the draw could not refill your hand (F8)."
        )
    return play_action(mandala, colour, count)


def move_of(action: int) -> Move:
    """The JSON move of an action code (the same move in every state)."""
    if action >= TAKE_BASE:
        return {"action": TAKE, "colour": COLOURS[action - TAKE_BASE]}
    mandala, colour, count = decode_play(action)
    return {"action": PLAY, "mandala": mandala, "colour": COLOURS[colour], "count": count}


def describe(move: Move) -> str:
    """A move in words, e.g. 'plays 2 red cards into Mandala 1'."""
    action = move.get("action")
    colour = move.get("colour", move.get("color"))
    if action == PLAY:
        count = move.get("count", 1)
        return f"plays {cards(count, colour)} into Mandala {move.get('mandala')}"
    if action == TAKE:
        return f"takes the {colour} tile"
    return "makes a move the rules do not know"
