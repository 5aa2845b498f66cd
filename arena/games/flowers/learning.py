"""Flowers' coding for learners (`FlowersGame.learning`): its action codes, its vector."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.games.chance import ChanceRules
from arena.games.flowers import tensor
from arena.games.flowers.components import NUM_ACTIONS
from arena.games.learning import Learning, View


class FlowersLearning(Learning):
    num_actions = NUM_ACTIONS

    def encode(self, view: View, players: int) -> list[float]:
        return tensor.encode(view, players)

    def max_length(self, config: Mapping[str, Any], players: int) -> int:
        return 2 * int(config["turn_limit"])  # a turn, then at most a tile choice (F24)

    def chance(self) -> ChanceRules:
        from arena.games.flowers.chance import FlowersChance

        return FlowersChance()
