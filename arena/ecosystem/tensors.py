"""A seat's view as a flat vector of numbers, for learners (OpenSpiel tensors, PettingZoo).

The vector holds the whole view, nothing more (no hidden card is ever in it), in a layout
that depends on the game and the table size only: `size(game, players)` numbers. Counts are
as they are (not scaled); a choice is one-hot (all zeros for "none"); a set of named things
(cards, tiles, babies) is one slot per name in the game's own fixed list; a list whose order
matters (a River, the cards put back under a deck) gives each name its place (1, 2, ... or
0 when absent). Seats are absolute (`seat` says which is this one).

Each game keeps its layout with its rules, behind the game interface (`Game.learning`,
arena/games/learning.py; the layouts are in arena/games/<game>/tensor.py): this module
names no game.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from arena.game_sources import get_game
from arena.games.learning import Learning

View = Mapping[str, Any]


@cache
def learning(game: str) -> Learning | None:
    """The game's coding for learners, None for a game without one."""
    return get_game(game).learning()


def encode(game: str, view: View) -> list[float]:
    """The view as numbers; ValueError for a game without a vector."""
    coding = learning(game)
    if coding is None:
        raise ValueError(f"{game} has no observation vector; use its view's JSON.")
    return coding.encode(view, len(view["players"]))


@cache
def size(game: str, players: int) -> int:
    """The length of `encode`'s vector for `game` at `players` seats; 0 when it has none."""
    if learning(game) is None:
        return 0
    return len(encode(game, get_game(game).new_state(0, None, players).view(0)))
