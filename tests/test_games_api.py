"""The generic game test (as OpenSpiel's): random games of every registered game, played only
through the `GameState` interface, checking the interface's invariants."""

from __future__ import annotations

import json
import random

import pytest

from arena.errors import GameError
from arena.game_sources import game_names, get_game
from arena.games import Decision, GameState
from arena.narration import narrate
from arena.outcome import Outcome
from arena.record import replay

GAMES_PER_NAME = 25
DECISIONS_PER_TABLE = 4000
"""Fewer games of a long game: a table size stops after 3 games once it has checked this
many decisions (Takenoko's random games take some 700)."""


def _check_state(state: GameState) -> None:
    decision = state.decision()
    over = state.is_over()
    assert (decision is None) == over, "decision() is None exactly when the game is over"
    for seat in range(state.num_players):
        view = state.view(seat)
        assert json.loads(json.dumps(view)) == view, "the view is JSON-serialisable"
    spectator = state.spectator_view()
    assert json.loads(json.dumps(spectator)) == spectator, "the spectator view is JSON"
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


OPENSPIEL_SAMPLE = [
    "openspiel:tic_tac_toe",  # perfect information, no chance
    "openspiel:kuhn_poker",  # chance, hidden cards
    "openspiel:leduc_poker",  # chance mid-game (the public card)
    "openspiel:liars_dice",  # dice, bids
    "openspiel:goofspiel(num_cards=4)",  # simultaneous moves, played turn-based
    "openspiel:hearts",  # 4 seats, a passing phase
    "openspiel:python_kuhn_poker",  # OpenSpiel's Python games (issue 34)
    "openspiel:python_liars_poker",
]
"""OpenSpiel's games played through the same interface (issue 25), when it is installed."""


def _names() -> list[str]:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return game_names()
    return game_names() + OPENSPIEL_SAMPLE


def _tables() -> list[tuple[str, int]]:
    return [
        (name, seats)
        for name in _names()
        for seats in range(get_game(name).min_players, get_game(name).max_players + 1)
    ]


@pytest.mark.parametrize(("name", "seats"), _tables())
def test_random_games_keep_the_interface_invariants(name: str, seats: int) -> None:
    game = get_game(name)
    assert game.name == name
    assert game.min_players <= (game.default_players or game.min_players) <= game.max_players
    assert set(game.option_help) <= set(game.default_config)
    checked = 0
    for seed in range(GAMES_PER_NAME):
        if checked >= DECISIONS_PER_TABLE and seed >= 3:
            break
        state = game.new_state(seed, num_players=seats)
        assert state.num_players == seats
        rng = random.Random(seed)
        turns = state.turn
        moves_played: list[dict[str, object]] = []
        codes: dict[int, object] = {}
        with pytest.raises(GameError):
            state.outcome()
        while not state.is_over():
            _check_state(state)
            if game.stable_action_codes:  # the contract the referee's cache relies on
                for action in state.legal_actions():
                    move = state.action_to_move(action)
                    assert codes.setdefault(action, move) == move, "a code changed its move"
            if rng.random() < 0.05:  # a copy plays on independently
                twin = state.copy()
                twin.apply_action(rng.choice(twin.legal_actions()))
            decision = state.decision()
            assert decision is not None
            move = rng.choice(state.legal_moves())
            checked += 1
            moves_played.append({"seat": decision.seat, "kind": decision.kind, "move": move})
            state.apply_move(move)
            assert state.turn >= turns
            turns = state.turn
        _check_state(state)
        outcome = state.outcome()
        assert isinstance(outcome, Outcome)
        assert outcome.termination.is_normal and outcome.faulty_seat is None
        assert len(outcome.scores) == len(outcome.ranks) == state.num_players
        assert Outcome.from_json(json.loads(json.dumps(outcome.to_json()))) == outcome
        record = {
            "game": name,
            "seed": seed,
            "config": {},
            "players": [f"bot{n}" for n in range(seats)],
            "moves": moves_played,
            "outcome": outcome.to_json(),
        }
        again = replay(record)  # the one replay walk
        assert again.spectator_view() == state.spectator_view()
        lines = narrate(game, record)
        assert len(lines) > len(moves_played) and "Scores:" in lines[-2]


@pytest.mark.parametrize("name", _names())
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
