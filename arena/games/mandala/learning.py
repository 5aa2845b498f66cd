"""Mandala's coding for learners (`MandalaGame.learning`): its action codes, its vector."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.games.chance import ChanceRules
from arena.games.learning import Learning, View
from arena.games.mandala import tensor
from arena.games.mandala.cards import NUM_ACTIONS


class MandalaLearning(Learning):
    num_actions = NUM_ACTIONS

    def encode(self, view: View, players: int) -> list[float]:
        return tensor.encode(view, players)

    def max_length(self, config: Mapping[str, Any], players: int) -> int:
        return 7 * int(config["turn_limit"])  # a turn, then at most six claims (R12)

    def chance(self) -> ChanceRules:
        from arena.games.mandala.chance import MandalaChance

        return MandalaChance()
