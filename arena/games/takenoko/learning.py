"""Takenoko's coding for learners (`TakenokoGame.learning`): its action codes, its vector."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.games.chance import ChanceRules
from arena.games.learning import Learning, View
from arena.games.takenoko import tensor

NUM_ACTIONS = 1024
"""Takenoko's codes index the legal moves of a position (under 200 in every position we
have measured); a position with more is refused by the ecosystem, never wrapped."""


class TakenokoLearning(Learning):
    num_actions = NUM_ACTIONS

    def encode(self, view: View, players: int) -> list[float]:
        return tensor.encode(view, players)

    def max_length(self, config: Mapping[str, Any], players: int) -> int:
        return 64 * players * int(config["max_rounds"])  # a turn's steps, generously (T14)

    def chance(self) -> ChanceRules:
        from arena.games.takenoko.chance import TakenokoChance

        return TakenokoChance()
