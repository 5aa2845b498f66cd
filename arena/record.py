"""Game records: the JSON account of one game, and replaying it to its final state."""

from __future__ import annotations

from typing import Any

from arena.errors import GameError
from arena.games import GameState, get_game

RECORD_VERSION = 1


def replay(record: dict[str, Any]) -> GameState:
    """The state after re-playing every move of `record` from its seed and configuration.

    A game is fully determined by (game name, configuration, seed, moves), so the result is
    the identical final state. Raises GameError when the record does not replay.
    """
    try:
        game = get_game(record["game"])
        state = game.new_state(record["seed"], record.get("config") or None)
        moves = record["moves"]
    except KeyError as missing:
        raise GameError(f"The game record has no {missing} field; is it a game record?") from None
    for number, entry in enumerate(moves, start=1):
        decision = state.decision()
        if decision is None:
            raise GameError(f"The record's move {number} comes after the end of the game.")
        if not isinstance(entry, dict) or "move" not in entry:
            raise GameError(f"The record's move {number} has no move: {entry!r}.")
        if "seat" in entry and entry["seat"] != decision.seat:
            raise GameError(
                f"The record's move {number} is by seat {entry['seat']}, "
                f"but seat {decision.seat} was to decide."
            )
        try:
            state.apply_move(entry["move"])
        except GameError as error:
            raise GameError(f"The record's move {number} does not replay: {error}") from None
    return state
