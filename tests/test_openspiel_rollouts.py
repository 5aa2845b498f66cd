"""arena.ecosystem.rollouts (issue 44): our random-rollout evaluator for OpenSpiel's ISMCTS.

On our states it plays the rollout on the engine's position instead of stepping a clone
through pyspiel; both draw Python's `random` in the same order, so from one seed they must
play the very same rollout: the fast path is the slow one, only cheaper."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (the ecosystem extra)")

from open_spiel.python.algorithms import ismcts  # noqa: E402

import arena.ecosystem.openspiel_games  # noqa: E402, F401
from arena.ecosystem.rollouts import RandomRollouts, seeded_resampler  # noqa: E402
from arena.games.chance import by_probability  # noqa: E402

TABLES = [("mandala", 2), ("flowers", 3), ("takenoko", 2)]


class Opaque:
    """A state seen only through the OpenSpiel API (no `whole_step`): the evaluator steps
    its clone through pyspiel, as it does for any other game's state."""

    def __init__(self, state: Any) -> None:
        self.state = state

    def num_players(self) -> int:
        return int(self.state.num_players())

    def clone(self) -> Any:
        return self.state.clone()


def _decisions(game: Any, seed: int, every: int) -> list[Any]:
    """Clones of a random game's state at every `every`-th decision."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    found, decisions = [], 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(by_probability(state.chance_outcomes(), rng.random()))
            continue
        if decisions % every == 0:
            found.append(state.clone())
        decisions += 1
        actions = state.legal_actions()
        state.apply_action(rng.choice(actions))
    return found


@pytest.mark.parametrize(("name", "seats"), TABLES)
def test_a_rollout_on_the_engine_is_the_rollout_stepped_through_pyspiel(
    name: str, seats: int
) -> None:
    game = pyspiel.load_game(f"arena_{name}", {"players": seats})
    states = _decisions(game, seed=3, every=40 if name == "takenoko" else 12)[:6]
    assert len(states) >= 3
    for index, state in enumerate(states):
        before = state.history()
        for seed in range(3):
            fast = RandomRollouts(n_rollouts=2, seed=100 * index + seed).evaluate(state)
            slow = RandomRollouts(n_rollouts=2, seed=100 * index + seed).evaluate(Opaque(state))
            assert list(fast) == list(slow)
            assert sum(fast) == pytest.approx(0.0)
        assert state.history() == before  # the state itself is untouched


def test_rollouts_differ_by_seed_and_replay_by_seed() -> None:
    game = pyspiel.load_game("arena_mandala")
    state = _decisions(game, seed=5, every=10)[1]
    first = [RandomRollouts(seed=seed).evaluate(state)[0] for seed in range(20)]
    again = [RandomRollouts(seed=seed).evaluate(state)[0] for seed in range(20)]
    assert first == again
    assert len(set(first)) > 1


def test_the_prior_is_openspiels() -> None:
    game = pyspiel.load_game("arena_flowers", {"players": 2})
    root = game.new_initial_state()
    assert RandomRollouts().prior(root) == root.chance_outcomes()
    decision = _decisions(game, seed=1, every=5)[0]
    actions = decision.legal_actions()
    assert RandomRollouts().prior(decision) == [(a, 1.0 / len(actions)) for a in actions]


def test_ismcts_with_our_rollouts_replays_from_its_seeds() -> None:
    """OpenSpiel's ISMCTSBot with a fixed number of simulations, RandomRollouts and the
    seeded resampler, as the bundled bot makes it: the same seed searches to the same
    moves, another seed to others."""
    game = pyspiel.load_game("arena_mandala")
    states = _decisions(game, seed=9, every=15)[:3]

    def moves(seed: int) -> list[int]:
        import numpy as np

        rng = np.random.RandomState(seed)
        bot = ismcts.ISMCTSBot(game, RandomRollouts(seed=seed), 2.0, 40, random_state=rng)
        bot.set_resampler(seeded_resampler(seed))
        return [int(bot.step(state)) for state in states]

    assert moves(7) == moves(7)
    assert any(moves(seed) != moves(7) for seed in range(8, 12))
