"""The generic game test (as OpenSpiel's): random games of every registered game, played only
through the `GameState` interface, checking the interface's invariants."""

from __future__ import annotations

import json
import random

import pytest

from arena.errors import GameError
from arena.games import Decision, GameState, game_names, get_game
from arena.outcome import Outcome

GAMES_PER_NAME = 25


def _check_state(state: GameState) -> None:
    decision = state.decision()
    over = state.is_over()
    assert (decision is None) == over, "decision() is None exactly when the game is over"
    for seat in range(state.num_players):
        view = state.view(seat)
        assert json.loads(json.dumps(view)) == view, "the view is JSON-serialisable"
    if over:
        assert state.legal_actions() == [] and state.legal_moves() == []
        return
    assert isinstance(decision, Decision)
    assert 0 <= decision.seat < state.num_players
    assert isinstance(decision.kind, str) and decision.kind
    actions = state.legal_actions()
    assert actions and len(actions) == len(set(actions))
    moves = state.legal_moves()
    assert len(moves) == len(actions)
    for action, move in zip(actions, moves, strict=True):
        assert move == state.action_to_move(action)
        assert state.move_to_action(json.loads(json.dumps(move))) == action
        assert isinstance(state.describe_move(move), str)


@pytest.mark.parametrize("name", game_names())
def test_random_games_keep_the_interface_invariants(name: str) -> None:
    game = get_game(name)
    assert game.name == name
    assert game.min_players <= game.max_players
    for seed in range(GAMES_PER_NAME):
        state = game.new_state(seed)
        rng = random.Random(seed)
        turns = state.turn
        with pytest.raises(GameError):
            state.outcome()
        while not state.is_over():
            _check_state(state)
            if rng.random() < 0.05:  # a copy plays on independently
                twin = state.copy()
                twin.apply_action(rng.choice(twin.legal_actions()))
            moves = state.legal_moves()
            state.apply_move(rng.choice(moves))
            assert state.turn >= turns
            turns = state.turn
        _check_state(state)
        outcome = state.outcome()
        assert isinstance(outcome, Outcome)
        assert outcome.termination.is_normal and outcome.faulty_seat is None
        assert len(outcome.scores) == len(outcome.ranks) == state.num_players
        assert Outcome.from_json(json.loads(json.dumps(outcome.to_json()))) == outcome


@pytest.mark.parametrize("name", game_names())
def test_the_deal_depends_on_the_seed_only(name: str) -> None:
    game = get_game(name)
    for seed in (0, 1, 12345):
        a, b = game.new_state(seed), game.new_state(seed)
        for seat in range(a.num_players):
            assert a.view(seat) == b.view(seat)
        assert a.legal_actions() == b.legal_actions()


def test_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(GameError) as error:
        get_game("chess")
    assert "mandala" in str(error.value)
