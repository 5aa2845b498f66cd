"""Property-based tests of the Flowers engine (hypothesis): random seeds, tables and choices."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.errors import IllegalMoveError
from arena.game_sources import get_game
from arena.games.flowers.components import NUM_ACTIONS
from arena.games.flowers.state import FlowersState
from tests.game_properties import assert_copies_are_independent

ALL_MOVES = [(code, FlowersState.empty(2).action_to_move(code)) for code in range(NUM_ACTIONS)]
"""Every one of the 276 action codes with its JSON move."""

seeds = st.integers(min_value=0, max_value=2**31)
tables = st.integers(min_value=2, max_value=4)
choices = st.lists(st.integers(min_value=0, max_value=10_000), min_size=0, max_size=200)


def _walk(seed: int, players: int, picks: list[int]) -> list[FlowersState]:
    """The states along a game from `seed`, choosing by index from `picks`."""
    state = get_game("flowers").new_state(seed, num_players=players)
    assert isinstance(state, FlowersState)
    states = [state.copy()]
    for pick in picks:
        if state.is_over():
            break
        actions = state.legal_actions()
        state.apply_action(actions[pick % len(actions)])
        states.append(state.copy())
    return states


@settings(max_examples=60, deadline=None)
@given(seed=seeds, players=tables, picks=choices, every=st.integers(min_value=1, max_value=15))
def test_legal_actions_are_exactly_the_codes_whose_moves_move_to_action_accepts(
    seed: int, players: int, picks: list[int], every: int
) -> None:
    states = _walk(seed, players, picks)
    for state in states[::every] + states[-1:]:
        accepted = []
        for code, move in ALL_MOVES:
            try:
                got = state.move_to_action(json.loads(json.dumps(move)))
            except IllegalMoveError:
                continue
            assert got == code
            accepted.append(code)
        legal = state.legal_actions()
        assert len(legal) == len(set(legal))
        assert sorted(legal) == accepted
        assert [state.move_to_action(m) for m in state.legal_moves()] == legal


@settings(max_examples=60, deadline=None)
@given(seed=seeds, players=tables, picks=choices, more=choices)
def test_copy_is_independent_of_the_original_chance_included(
    seed: int, players: int, picks: list[int], more: list[int]
) -> None:
    assert_copies_are_independent(_walk(seed, players, picks)[-1], more)


@settings(max_examples=25, deadline=None)
@given(seed=seeds, players=tables, picks=st.lists(st.integers(0, 10_000), max_size=400))
def test_same_seed_and_same_choices_give_the_same_game(
    seed: int, players: int, picks: list[int]
) -> None:
    a, b = _walk(seed, players, picks)[-1], _walk(seed, players, picks)[-1]
    assert a.spectator_view() == b.spectator_view()
