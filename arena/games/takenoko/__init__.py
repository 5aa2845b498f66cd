"""Takenoko for 2-4 players: ../shared/rules/TAKENOKO.md with the rulings T1..T22.

components.py holds the components as data, cards.py the objective cards by id and deck,
hexes.py the geometry, objectives.py the cards' conditions, board.py the board's mechanics
(§5, §8), state.py the turn (§4, §6), legal.py each decision's legal moves (§9), chibis.py
the expansion's turn rules (§8), scoring.py the end and the result (§7), moves.py the moves'
JSON and words, views.py what each seat sees, determinize.py sampling for search bots.
Options: `chibis` (the expansion's mechanics with the base objectives, §8, T20) and
`redraw_met_objectives` (BGA's redraw rule, T11).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from arena.errors import GameError
from arena.games.base import Determinizer, Game, GameState, Move
from arena.games.learning import Learning
from arena.games.takenoko.legal import DECISION_KINDS
from arena.games.takenoko.state import TakenokoState

__all__ = ["TakenokoGame", "TakenokoState"]


class TakenokoGame(Game):
    """Takenoko for 2 to 4 players; configuration: `max_rounds` (T14), `chibis` (§8),
    `redraw_met_objectives` (T11)."""

    name: ClassVar[str] = "takenoko"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int | None] = 3
    default_config: ClassVar[Mapping[str, Any]] = {
        "max_rounds": 100,
        "chibis": False,
        "redraw_met_objectives": False,
    }
    option_help: ClassVar[Mapping[str, str]] = {
        "max_rounds": "full rounds after which the game ends as it stands (T14)",
        "chibis": "the Chibis expansion: Miss Panda, babies and 6 special tiles, with the "
        "base game's objectives (T20)",
        "redraw_met_objectives": "BGA's rule: a drawn plot or gardener card that already "
        "holds goes back and the action is refunded (T11)",
    }
    stable_action_codes: ClassVar[bool] = False
    decision_kinds: ClassVar[tuple[str, ...]] = DECISION_KINDS

    def config_notes(self, config: Mapping[str, Any]) -> list[str]:
        """§8: a Chibis game says it plays the base game's objectives."""
        from arena.games.takenoko.scoring import CHIBIS_NOTE

        return [CHIBIS_NOTE] if config.get("chibis") else []

    def determinizer(self) -> Determinizer:
        from arena.games.takenoko.determinize import TakenokoDeterminizer

        return TakenokoDeterminizer()

    def learning(self) -> Learning:
        from arena.games.takenoko.learning import TakenokoLearning

        return TakenokoLearning()

    def card_meanings(self) -> Mapping[str, Any]:
        from arena.games.takenoko.card_words import card_table

        return card_table()

    def narrate_after(
        self, state: GameState, move: Move, turn_before: int, who: Callable[[int], str]
    ) -> list[str]:
        """The weather die's face after a roll."""
        from arena.games.takenoko.words import rolled

        assert isinstance(state, TakenokoState)
        return rolled(state, move)

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
        return TakenokoState(
            num_players,
            int(seed),
            settings["max_rounds"],
            chibis=settings["chibis"],
            redraw_met_objectives=settings["redraw_met_objectives"],
        )
