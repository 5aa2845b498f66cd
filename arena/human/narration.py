"""The moves of a game told to one seat in words, never saying what that seat may not know.

A move's words come from the game's own `describe_move`. Most moves are public (a card
played on a Mandala, a plot placed, the panda moved); the few that name something only their
mover sees are told without it when another seat made them, and always to a spectator (a seat
of none, `seat.NO_SEAT`):

- Takenoko: the plots a seat puts back under the plot deck and their order (only the drawer
  sees them, T9), the objective card kept from the Cabin (T15, T19), and the card a baby
  panda swaps for the top of its deck (a hand is hidden).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.games import GameState

PRIVATE_WORDS: Mapping[str, Mapping[str, str]] = {
    "takenoko": {
        "return": "puts the plots it did not place back under the plot deck",
        "keep": "keeps a card from the Cabin",
        "baby_swap": "swaps a card of its hand for the top of its deck",
    },
}
"""By game, the moves that name a hidden thing, in the words told to the other seats."""


def is_private(game: str, move: Mapping[str, Any], mover: int, seat: int) -> bool:
    """Whether `move` names a thing seat `seat` may not know (another seat's hidden choice)."""
    return mover != seat and str(move.get("action")) in PRIVATE_WORDS.get(game, {})


def move_words(game: str, words: GameState, move: Mapping[str, Any], mover: int, seat: int) -> str:
    """`move` made by seat `mover`, in the words seat `seat` may hear (`words` is any state of
    the game: its `describe_move` reads only the move)."""
    if is_private(game, move, mover, seat):
        return PRIVATE_WORDS[game][str(move.get("action"))]
    return words.describe_move(dict(move))


def who(players: list[str], seat: int, you: int) -> str:
    """How the page names a seat: 'you' for the human's own."""
    name = players[seat] if 0 <= seat < len(players) else "?"
    return "you" if seat == you else f"seat {seat} ({name})"


def line(turn: int, mover: str, kind: str, words: str) -> str:
    """One narrated line: 'Turn 3, seat 1 (random), claim: claims red'."""
    return f"Turn {turn + 1}, {mover}, {kind}: {words}"
