"""Games found by name, from every source the arena plays them from.

The sources, in the order a name is looked up:
- `openspiel:NAME`: OpenSpiel's game NAME, through arena/ecosystem/openspiel_in_arena.py
  (the ecosystem extra);
- the built-in games (`BUILT_IN`: mandala, flowers, takenoko, their rules in arena/games/);
- games from outside the arena, registered with `register_game` by the modules the
  environment variable ARENA_GAME_MODULES names (e.g. the tests' own `highcard`).

This module sits above the games and the OpenSpiel adaptor: the games know nothing of it,
and every caller that may be given any game's name (commands, the referee, records, the
league) asks here.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from arena.errors import GameError
from arena.games import Game

__all__ = [
    "BUILT_IN",
    "GAME_MODULES",
    "OPENSPIEL",
    "game_names",
    "game_notes",
    "games_for_seats",
    "get_game",
    "ready_table",
    "register_game",
    "table_seats",
]

OPENSPIEL = "openspiel:"
"""`openspiel:NAME` is OpenSpiel's game NAME (arena/ecosystem/openspiel_in_arena.py)."""

GAME_MODULES = "ARENA_GAME_MODULES"
"""An environment variable naming modules (comma-separated) that register more games with
`register_game` when imported: games from outside the arena, e.g. the tests' own."""


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

_REGISTRY: dict[str, Callable[[], Game]] = dict(BUILT_IN)
_plugins_loaded = False


def register_game(name: str, factory: Callable[[], Game]) -> None:
    """Make `get_game(name)` return `factory()` (a later registration replaces an earlier)."""
    _REGISTRY[name] = factory


def _load_plugins() -> None:
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for module in filter(None, (m.strip() for m in os.environ.get(GAME_MODULES, "").split(","))):
        try:
            importlib.import_module(module)
        except ImportError as error:
            raise GameError(
                f"{GAME_MODULES} names {module!r}, which cannot be imported ({error})."
            ) from None


def _openspiel(name: str) -> Game:
    try:
        from arena.ecosystem.openspiel_in_arena import make
    except ImportError:
        raise GameError(
            f"{name} is an OpenSpiel game, and OpenSpiel is not installed: "
            "pip install -e '.[ecosystem]' (make install does it)."
        ) from None
    return make(name)


def game_names() -> list[str]:
    """The names of the built-in and registered games (OpenSpiel's are not listed)."""
    _load_plugins()
    return sorted(_REGISTRY)


def get_game(name: str) -> Game:
    """The game called `name`; raises GameError naming the known games otherwise."""
    _load_plugins()
    if name.startswith(OPENSPIEL):
        return _openspiel(name)
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise GameError(
            f"Unknown game {name!r}; the known games are: {', '.join(game_names())}, and "
            f"any sequential OpenSpiel game as {OPENSPIEL}NAME (e.g. {OPENSPIEL}kuhn_poker)."
        ) from None
    return factory()


def game_notes(name: str, config: Mapping[str, Any] | None) -> list[str]:
    """`Game.config_notes` of the game called `name` ([] for a game not known here)."""
    try:
        game = get_game(name)
    except GameError:
        return []
    return game.config_notes(config or {})


def table_seats(game: Game, seats: int | None, others: Sequence[str] | None = None) -> int:
    """`seats` (default: the game's own table size) when `game` is played by that many;
    GameError with the allowed range otherwise, naming the games of `others` (default: every
    game known here) that are played by that many."""
    low, high = game.min_players, game.max_players
    seats = (game.default_players or low) if seats is None else seats
    if not low <= seats <= high:
        allowed = str(low) if low == high else f"{low} to {high}"
        fitting = [name for name in games_for_seats(seats, others) if name != game.name]
        either = (
            ", ".join(fitting[:-1]) + " or " + fitting[-1] if len(fitting) > 1 else "".join(fitting)
        )
        hint = f"; at {seats} seats play {either} (--game {fitting[0]})" if fitting else ""
        raise GameError(f"{game.name} is played by {allowed} players, not --seats {seats}{hint}.")
    return seats


def games_for_seats(seats: int, names: Sequence[str] | None = None) -> list[str]:
    """The games of `names` (default: the built-in and registered ones) played by `seats`
    players; a name that is no game here is left out."""
    fitting = []
    for name in game_names() if names is None else names:
        try:
            game = get_game(name)
        except GameError:
            continue
        if game.min_players <= seats <= game.max_players:
            fitting.append(name)
    return fitting


def ready_table(
    game: Game, options: Mapping[str, Any], seats: int | None, others: Sequence[str] | None = None
) -> int:
    """`table_seats`, and the options checked by dealing one game with them: an option the
    game does not have, or a value it refuses (turn_limit=0), is a GameError here, before
    anything is played."""
    seats = table_seats(game, seats, others)
    game.new_state(0, options, seats)
    return seats
