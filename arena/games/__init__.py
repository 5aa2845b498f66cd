"""The games: the game interface and the built-in games, rules only.

Games are found by name in arena/game_sources.py, which sits above them and adds the other
sources (OpenSpiel's games, games registered from outside the arena).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from arena.games.base import Decision, Determinizer, Game, GameState, Move, View

__all__ = [
    "BUILT_IN",
    "DEFAULT_GAME",
    "Decision",
    "Determinizer",
    "Game",
    "GameState",
    "Move",
    "View",
]

DEFAULT_GAME = "mandala"
"""The game played when a command or a configuration names none."""


def _mandala() -> Game:
    from arena.games.mandala import MandalaGame

    return MandalaGame()


def _flowers() -> Game:
    from arena.games.flowers import FlowersGame

    return FlowersGame()


def _takenoko() -> Game:
    from arena.games.takenoko import TakenokoGame

    return TakenokoGame()


BUILT_IN: Mapping[str, Callable[[], Game]] = {
    "mandala": _mandala,
    "flowers": _flowers,
    "takenoko": _takenoko,
}
"""The built-in games by name, each made by its factory (its rules imported on first use)."""
