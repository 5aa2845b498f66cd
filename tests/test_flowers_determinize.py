"""Flowers' determinization (F27): a state built from a view shows that seat the same view,
samples what the seat cannot see, and keeps the cards known to be in other hands."""

from __future__ import annotations

import random

import pytest

from arena.game_sources import get_game
from arena.games.flowers.determinize import determinize, redeal
from arena.games.flowers.state import FlowersState


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_determinized_state_gives_the_same_view_and_legal_moves(players: int) -> None:
    game = get_game("flowers")
    determinizer = game.determinizer()
    assert determinizer is not None
    for seed in range(40):
        state = game.new_state(seed, num_players=players)
        rng = random.Random(seed)
        while not state.is_over():
            decision = state.decision()
            assert decision is not None
            view = state.view(decision.seat)
            sample = determinizer.determinize(view, rng, game.config())
            assert sample.view(decision.seat) == view
            assert sample.legal_actions() == state.legal_actions()
            again = sample.copy()
            determinizer.redeal(again, decision.seat, rng)
            assert again.view(decision.seat) == view
            state.apply_action(rng.choice(state.legal_actions()))


def test_samples_differ_in_what_is_hidden_and_keep_known_cards() -> None:
    state = FlowersState.deal(3, 3)
    state.hands[1][2] += 2  # seat 1 holds 2 red cards everyone saw return (F19, F27)
    state.hand_sizes[1] += 2
    state.known[1][2] = 2
    state.deck = state.deck[:-2]
    view = state.view(0)
    rng = random.Random(1)
    hands = set()
    for _ in range(30):
        sample = determinize(view, rng)
        assert sample.hands[0] == state.hands[0]
        assert sample.hands[1][2] >= 2
        redeal(sample, 0, rng)
        assert sample.hands[1][2] >= 2
        hands.add(tuple(sample.hands[1]))
    assert len(hands) > 10


def test_a_view_that_does_not_add_up_is_a_value_error() -> None:
    view = FlowersState.deal(3, 2).view(0)
    view["deck_size"] += 1
    with pytest.raises(ValueError, match="90 cards"):
        determinize(view, random.Random(0))
    view = FlowersState.deal(3, 2).view(0)
    view["stacks"]["dark"] -= 1
    with pytest.raises(ValueError, match="36 tiles"):
        determinize(view, random.Random(0))


def test_samples_get_their_own_chance() -> None:
    state = FlowersState.deal(5, 2)
    sample = determinize(state.view(0), random.Random(9))
    assert sample.rng.getstate() != state.rng.getstate()
