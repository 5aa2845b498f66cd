"""Flowers: A Mandala Game for 2-4 players: the rulebook with the rulings F1..F28."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from arena.errors import GameError
from arena.games.base import Decision, Determinizer, Game, GameState, Move
from arena.games.flowers import narrate
from arena.games.flowers.components import COLOURS, TILE, TURN
from arena.games.flowers.state import FlowersState
from arena.games.learning import Learning

__all__ = ["COLOURS", "FlowersGame", "FlowersState"]


class FlowersGame(Game):
    """Flowers for 2 to 4 players; configuration: `turn_limit` (F24's safety cap)."""

    name: ClassVar[str] = "flowers"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_config: ClassVar[Mapping[str, Any]] = {"turn_limit": 10_000}
    default_players: ClassVar[int | None] = 4
    option_help: ClassVar[Mapping[str, str]] = {
        "turn_limit": "turns after which the game ends and is scored as it stands (F24)"
    }
    decision_kinds: ClassVar[tuple[str, ...]] = (TURN, TILE)

    def determinizer(self) -> Determinizer:
        from arena.games.flowers.determinize import FlowersDeterminizer

        return FlowersDeterminizer()

    def learning(self) -> Learning:
        from arena.games.flowers.learning import FlowersLearning

        return FlowersLearning()

    def narrate_step(
        self, state: GameState, decision: Decision, move: Move, who: Callable[[int], str]
    ) -> list[str]:
        return narrate.step(state, decision, move, who)

    def narrate_after(
        self, state: GameState, move: Move, turn_before: int, who: Callable[[int], str]
    ) -> list[str]:
        return narrate.after(state, move, turn_before, who)

    def narrate_end(self, state: GameState, names: list[str]) -> list[str]:
        return narrate.end(state, names)

    def new_state(
        self, seed: int, config: Mapping[str, Any] | None = None, num_players: int = 4
    ) -> FlowersState:
        settings = self.config(config)
        if not self.min_players <= num_players <= self.max_players:
            raise GameError(f"Flowers is a game for 2 to 4 players, not {num_players}.")
        limit = settings["turn_limit"]
        if limit < 1:
            raise GameError(f"turn_limit must be a whole number of at least 1, not {limit!r}.")
        return FlowersState.deal(int(seed), num_players, turn_limit=limit)
