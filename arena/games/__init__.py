"""Games, found by name in a registry."""

from __future__ import annotations

from collections.abc import Callable

from arena.errors import GameError
from arena.games.base import Decision, Game, GameState, Move, View

__all__ = ["Decision", "Game", "GameState", "Move", "View", "get_game", "game_names"]


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
