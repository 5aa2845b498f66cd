"""Games, found by name in a registry."""

from __future__ import annotations

from collections.abc import Callable

from arena.errors import GameError
from arena.games.base import Decision, Game, GameState, Move, View

__all__ = [
    "DEFAULT_GAME",
    "Decision",
    "Game",
    "GameState",
    "Move",
    "View",
    "game_names",
    "get_game",
    "table_seats",
]

DEFAULT_GAME = "mandala"
"""The game played when a command or a configuration names none."""


def _mandala() -> Game:
    from arena.games.mandala import MandalaGame

    return MandalaGame()


_REGISTRY: dict[str, Callable[[], Game]] = {"mandala": _mandala}


def game_names() -> list[str]:
    """The names of every registered game."""
    return sorted(_REGISTRY)


def get_game(name: str) -> Game:
    """The game registered under `name`; raises GameError naming the known games otherwise."""
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise GameError(
            f"Unknown game {name!r}; the known games are: {', '.join(game_names())}."
        ) from None
    return factory()


def table_seats(game: Game, seats: int | None) -> int:
    """`seats` (default: the game's own table size) when `game` is played by that many;
    GameError with the allowed range otherwise."""
    low, high = game.min_players, game.max_players
    seats = int(getattr(game, "default_players", low)) if seats is None else seats
    if not low <= seats <= high:
        allowed = str(low) if low == high else f"{low} to {high}"
        raise GameError(f"{game.name} is played by {allowed} players, not --seats {seats}.")
    return seats
