"""The games: the game interface and the built-in games' rules (mandala, flowers, takenoko).

Games are found by name in arena/game_sources.py, which sits above them: the built-in ones,
OpenSpiel's, and those registered from outside the arena.
"""

from __future__ import annotations

from arena.games.base import Decision, Determinizer, Game, GameState, Move, View

__all__ = [
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
