"""Takenoko's determinization (§7, T27), and ismcts playing Takenoko through it."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from arena.game_sources import get_game
from arena.games.takenoko.determinize import determinize, redeal
from arena.games.takenoko.state import TakenokoState

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("config", [{}, {"chibis": True, "redraw_met_objectives": True}])
def test_a_sampled_state_shows_the_seat_its_view_and_legal_moves(
    players: int, config: dict[str, bool]
) -> None:
    game = get_game("takenoko")
    for seed in range(2):
        state = game.new_state(seed, config, num_players=players)
        rng = random.Random(seed)
        steps = 0
        while (decision := state.decision()) is not None:
            if steps % 11 == 0:
                view = state.view(decision.seat)
                sample = determinize(view, rng)
                assert sample.view(decision.seat) == view
                assert sample.legal_moves() == state.legal_moves()
                again = sample.copy()
                redeal(again, decision.seat, rng)
                assert again.view(decision.seat) == view
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1


def test_samples_deal_the_other_hands_from_what_the_seat_has_not_seen() -> None:
    state = get_game("takenoko").new_state(7, num_players=3)
    assert isinstance(state, TakenokoState)
    view = state.view(0)
    rng = random.Random(1)
    hands = set()
    for _ in range(20):
        sample = determinize(view, rng)
        assert sample.hands[0] == state.hands[0]
        assert [len(h) for h in sample.hands] == [len(h) for h in state.hands]
        assert {deck: len(cards) for deck, cards in sample.decks.items()} == {
            deck: len(cards) for deck, cards in state.decks.items()
        }
        hands.add(tuple(sample.hands[1]))
    assert len(hands) > 5


def test_ismcts_searches_takenoko_positions() -> None:
    spec = importlib.util.spec_from_file_location("bot_ismcts", ROOT / "bots" / "ismcts" / "bot.py")
    assert spec is not None and spec.loader is not None
    ismcts = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ismcts)
    state = get_game("takenoko").new_state(3, num_players=3)
    rng = random.Random(5)
    for _ in range(60):
        decision = state.decision()
        assert decision is not None
        actions = state.legal_actions()
        if len(actions) > 1:
            action = ismcts.search(state.view(decision.seat), 0.0, 3, rng, "takenoko", {})
            assert action in actions
        state.apply_action(rng.choice(actions))
