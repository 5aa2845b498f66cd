"""Mandala for 2 players: the rulebook with the rulings R1..R14."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from arena.errors import GameError
from arena.games.base import Decision, Determinizer, Game, GameState, Move
from arena.games.learning import Learning
from arena.games.mandala import narrate
from arena.games.mandala.cards import COLOURS
from arena.games.mandala.state import MandalaState

__all__ = ["COLOURS", "MandalaGame", "MandalaState"]


class MandalaGame(Game):
    """2-player Mandala; configuration: `turn_limit` (R12)."""

    name: ClassVar[str] = "mandala"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_config: ClassVar[Mapping[str, Any]] = {"turn_limit": 1000}
    default_players: ClassVar[int | None] = 2
    option_help: ClassVar[Mapping[str, str]] = {
        "turn_limit": "turns after which the game ends and is scored as it stands (R12)"
    }
    decision_kinds: ClassVar[tuple[str, ...]] = ("turn", "claim")

    def determinizer(self) -> Determinizer:
        from arena.games.mandala.determinize import MandalaDeterminizer

        return MandalaDeterminizer()

    def learning(self) -> Learning:
        from arena.games.mandala.learning import MandalaLearning

        return MandalaLearning()

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
        self, seed: int, config: Mapping[str, Any] | None = None, num_players: int = 2
    ) -> MandalaState:
        settings = self.config(config)
        if num_players != 2:
            raise GameError(f"Mandala is a game for 2 players, not {num_players}.")
        limit = settings["turn_limit"]
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise GameError(f"turn_limit must be a whole number of at least 1, not {limit!r}.")
        return MandalaState.deal(int(seed), turn_limit=limit)
