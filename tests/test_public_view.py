"""Issue 43: a game's public view (`GameState.public_view`, what a spectator of a game in
progress sees) holds what every seat sees and nothing a seat alone sees.

Two states that differ only in what is hidden (the hands, the decks' order, a setup Cup, the
plots drawn: the game's own determinizer deals them again from one seat's view) have the same
public view, for every seat's hidden part in turn; and it names no hidden pile.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from arena.game_sources import get_game

TABLES = [
    ("mandala", {}, 2),
    ("flowers", {}, 3),
    ("takenoko", {}, 3),
    ("takenoko", {"chibis": True}, 4),
]
HIDDEN_KEYS = {"hand", "hands", "cup", "cups", "deck", "decks", "drawn", "cabin", "seat"}


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


@pytest.mark.parametrize(("game", "options", "players"), TABLES)
def test_the_public_view_does_not_change_with_what_is_hidden(
    game: str, options: dict[str, Any], players: int
) -> None:
    rules = get_game(game)
    config = rules.config(options)
    determinizer = rules.determinizer()
    assert determinizer is not None
    rng = random.Random(5)
    differed = 0
    for seed in range(3):
        state = rules.new_state(seed, config, num_players=players)
        for step in range(200):
            if state.is_over():
                break
            if step % 7 == 0:
                public = state.public_view()
                assert public is not None
                assert not _keys(public) & HIDDEN_KEYS, _keys(public) & HIDDEN_KEYS
                decision = state.decision()
                assert decision is not None
                for seat in range(players):
                    try:
                        other = determinizer.determinize(state.view(seat), rng, config)
                    except ValueError:  # Takenoko's deals only for the seat to decide when
                        assert seat != decision.seat  # another seat holds drawn plots
                        continue
                    differed += other.spectator_view() != state.spectator_view()
                    assert other.public_view() == public, (seed, step, seat)
            state.apply_action(rng.choice(state.legal_actions()))
    assert differed > 10  # the hidden part was dealt again: the test can fail


def test_a_game_that_says_nothing_has_no_public_view() -> None:
    """The interface's default: a game without one shows its spectators nothing."""
    rules = get_game("highcard")
    assert rules.new_state(1, rules.config({}), num_players=2).public_view() is None
