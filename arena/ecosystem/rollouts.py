"""Random rollouts for OpenSpiel's MCTS and ISMCTS bots, drawn by Python's `random` (issue 44).

    from open_spiel.python.algorithms import ismcts
    from arena.ecosystem.rollouts import RandomRollouts, seeded_resampler
    bot = ismcts.ISMCTSBot(game, RandomRollouts(seed=7), 2.0, 1000,
                           random_state=np.random.RandomState(7))
    bot.set_resampler(seeded_resampler(7))  # else each search samples differently

`RandomRollouts` is OpenSpiel's `RandomRolloutEvaluator` (the same `prior`; `evaluate`:
the mean returns of `n_rollouts` playouts to the end, each chance outcome by its
probabilities, each decision uniform among the legal actions) with two differences that
change its cost, not what it computes:

- it draws with a `random.Random` made from `seed` (OpenSpiel's evaluator calls
  `numpy.random.choice` at every step of a rollout, about 20 us a call: alone more than
  2 s a move at 1,000 simulations of a Mandala game); the same seed replays the same
  rollouts;
- on our games' states (openspiel_games.ArenaState) at a whole step, it plays the rollout
  on a copy of the engine's position itself, each draw a chance node drawn in place by
  its probabilities (arena/games/chance.py), instead of stepping a clone through pyspiel
  node by node: the same game and chance model, without a state's history, records and
  round trips, which a rollout never reads. It draws its random numbers in the same order
  as a rollout stepped through the OpenSpiel API (a decision's action, then each chance
  node's outcome), so from one seed the two play the very same rollout (tested). Any
  other state (another game's, or ours in the middle of a step) is stepped through the
  OpenSpiel API.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts

from arena.ecosystem.returns import rank_returns
from arena.games import GameState
from arena.games.chance import ChanceNode, Draws, by_probability, drawing


class RandomRollouts(mcts.Evaluator):  # type: ignore[misc]
    """OpenSpiel's random-rollout evaluator, drawn by Python's `random` (the module says)."""

    def __init__(self, n_rollouts: int = 1, seed: int = 0) -> None:
        self.n_rollouts = n_rollouts
        self.rng = random.Random(seed)
        self.draws = DrawnInPlace(self.rng)

    def evaluate(self, state: Any) -> np.ndarray:
        total = np.zeros(state.num_players())
        for _ in range(self.n_rollouts):
            position = _whole_step(state)
            returns = self._spiel(state) if position is None else self._engine(position)
            total += returns
        return total / self.n_rollouts

    def prior(self, state: Any) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        actions = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(actions)) for action in actions]

    def _engine(self, start: GameState) -> list[float]:
        """A rollout on a copy of `start`, its draws in place."""
        position = start.copy()
        uniform = self.rng.random
        legal, act = position.legal_actions, position.apply_action
        with drawing(self.draws):
            while not position.is_over():
                actions = sorted(legal())  # in the order the state API gives them
                act(actions[int(uniform() * len(actions))])
        return rank_returns(position.outcome().ranks)

    def _spiel(self, state: Any) -> list[float]:
        """A rollout of a clone of `state`, stepped through the OpenSpiel API."""
        uniform = self.rng.random
        working = state.clone()
        while not working.is_terminal():
            if working.is_chance_node():
                working.apply_action(by_probability(working.chance_outcomes(), uniform()))
            else:
                actions = working.legal_actions()
                working.apply_action(actions[int(uniform() * len(actions))])
        return list(working.returns())


class DrawnInPlace(Draws):
    """Chance drawn in place: each node's outcome by its probabilities, at once."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.rng = rng

    def wait(self, node: ChanceNode) -> int:
        return by_probability(node.outcomes, self.rng.random())


def seeded_resampler(seed: int) -> Callable[[Any, int], Any]:
    """A resampler for `ISMCTSBot.set_resampler`: the state's own `resample_from_infostate`,
    its random numbers drawn from `seed`. OpenSpiel's ISMCTS otherwise gives every resample
    a new `pyspiel.UniformProbabilitySampler`, seeded from the system's entropy, so that
    its searches never replay from the bot's seed."""
    uniform = random.Random(seed).random

    def resample(state: Any, player: int) -> Any:
        return state.resample_from_infostate(player, uniform)

    return resample


def _whole_step(state: Any) -> GameState | None:
    """The engine's position when `state` is one of ours at a whole step, else None."""
    whole_step = getattr(state, "whole_step", None)
    return None if whole_step is None else whole_step()
