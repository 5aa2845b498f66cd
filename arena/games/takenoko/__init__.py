"""Takenoko for 2-4 players: ../shared/rules/TAKENOKO.md with the rulings T1..T22.

components.py holds the components as data, hexes.py the geometry, objectives.py the
cards' conditions, board.py the board's mechanics (§5), state.py the turn (§4, §6, §7).
The base game is played; the Chibis option is not built yet (issue 15 goes on).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from arena.errors import GameError
from arena.games.base import Determinizer, Game
from arena.games.takenoko.state import TakenokoState

__all__ = ["TakenokoGame", "TakenokoState"]


class TakenokoGame(Game):
    """Takenoko for 2 to 4 players; configuration: `max_rounds` (T14)."""

    name: ClassVar[str] = "takenoko"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int | None] = 3
    default_config: ClassVar[Mapping[str, Any]] = {"max_rounds": 100}
    option_help: ClassVar[Mapping[str, str]] = {
        "max_rounds": "full rounds after which the game ends as it stands (T14)"
    }
    stable_action_codes: ClassVar[bool] = False
    decision_kinds: ClassVar[tuple[str, ...]] = (
        "turn", "weather", "rain", "storm", "clouds", "plot", "return", "gardener", "panda",
        "objective",
    )  # fmt: skip

    def determinizer(self) -> Determinizer:
        from arena.games.takenoko.determinize import TakenokoDeterminizer

        return TakenokoDeterminizer()

    def new_state(
        self, seed: int, config: Mapping[str, Any] | None = None, num_players: int = 3
    ) -> TakenokoState:
        settings = self.config(config)
        if not self.min_players <= num_players <= self.max_players:
            raise GameError(f"Takenoko is a game for 2 to 4 players, not {num_players}.")
        if settings["max_rounds"] < 1:
            raise GameError(
                f"max_rounds must be a whole number of at least 1, not {settings['max_rounds']!r}."
            )
        return TakenokoState(num_players, int(seed), settings["max_rounds"])
