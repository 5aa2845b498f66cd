"""Flowers' coding for learners (`FlowersGame.learning`): its action codes, its vector."""

from __future__ import annotations

from arena.games.flowers import tensor
from arena.games.flowers.components import NUM_ACTIONS
from arena.games.learning import Learning, View


class FlowersLearning(Learning):
    num_actions = NUM_ACTIONS

    def encode(self, view: View, players: int) -> list[float]:
        return tensor.encode(view, players)
