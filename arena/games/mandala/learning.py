"""Mandala's coding for learners (`MandalaGame.learning`): its action codes, its vector."""

from __future__ import annotations

from arena.games.learning import Learning, View
from arena.games.mandala import tensor
from arena.games.mandala.cards import NUM_ACTIONS


class MandalaLearning(Learning):
    num_actions = NUM_ACTIONS

    def encode(self, view: View, players: int) -> list[float]:
        return tensor.encode(view, players)
