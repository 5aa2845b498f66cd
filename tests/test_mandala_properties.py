"""Property-based tests of the Mandala engine (hypothesis): random seeds, random choices."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from mandala_positions import snapshot

from arena.errors import IllegalMoveError
from arena.game_sources import get_game
from arena.games.mandala.cards import NUM_ACTIONS
from arena.games.mandala.state import MandalaState

ALL_MOVES = [(code, MandalaState.empty().action_to_move(code)) for code in range(NUM_ACTIONS)]
"""Every one of the 162 action codes with its JSON move."""


def _walk(seed: int, choices: list[int]) -> list[MandalaState]:
    """The states along a game from `seed`, choosing by index from `choices`."""
    state = get_game("mandala").new_state(seed)
    assert isinstance(state, MandalaState)
    states = [state.copy()]
    for choice in choices:
        if state.is_over():
            break
        actions = state.legal_actions()
        state.apply_action(actions[choice % len(actions)])
        states.append(state.copy())
    return states


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**31),
    choices=st.lists(st.integers(min_value=0, max_value=10_000), min_size=0, max_size=120),
    every=st.integers(min_value=1, max_value=12),
)
def test_legal_actions_are_exactly_the_codes_whose_moves_move_to_action_accepts(
    seed: int, choices: list[int], every: int
) -> None:
    states = _walk(seed, choices)
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


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**31),
    choices=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=150),
    more=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=20),
)
def test_copy_is_independent_of_the_original(
    seed: int, choices: list[int], more: list[int]
) -> None:
    state = _walk(seed, choices)[-1]
    before = snapshot(state)
    views = (state.view(0), state.view(1))
    other = state.copy()
    assert snapshot(other) == before
    for choice in more:
        if other.is_over():
            break
        actions = other.legal_actions()
        other.apply_action(actions[choice % len(actions)])
    assert snapshot(state) == before
    assert (state.view(0), state.view(1)) == views


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**31),
    choices=st.lists(st.integers(min_value=0, max_value=10_000), min_size=0, max_size=300),
)
def test_same_seed_and_same_choices_give_the_same_game(seed: int, choices: list[int]) -> None:
    a, b = _walk(seed, choices)[-1], _walk(seed, choices)[-1]
    assert snapshot(a) == snapshot(b)
