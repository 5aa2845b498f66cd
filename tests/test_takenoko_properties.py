"""Property-based tests of the Takenoko engine (hypothesis): random seeds, tables, options
and choices."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.errors import IllegalMoveError, MoveFormatError
from arena.game_sources import get_game
from arena.games.takenoko.state import TakenokoState
from tests.game_properties import assert_copies_are_independent, play_on

seeds = st.integers(min_value=0, max_value=2**31)
tables = st.integers(min_value=2, max_value=4)
options = st.fixed_dictionaries({"chibis": st.booleans(), "redraw_met_objectives": st.booleans()})
choices = st.lists(st.integers(min_value=0, max_value=10_000), min_size=0, max_size=400)


def _walk(seed: int, players: int, config: dict[str, Any], picks: list[int]) -> TakenokoState:
    """The state reached from `seed`, choosing by index from `picks`."""
    state = get_game("takenoko").new_state(seed, config, num_players=players)
    assert isinstance(state, TakenokoState)
    play_on(state, picks)
    return state


@settings(max_examples=40, deadline=None)
@given(seed=seeds, players=tables, config=options, picks=choices)
def test_every_legal_move_as_json_reads_back_as_its_code_and_others_are_refused(
    seed: int, players: int, config: dict[str, Any], picks: list[int]
) -> None:
    state = _walk(seed, players, config, picks)
    if state.is_over():
        return
    legal = state.legal_moves()
    for code, move in enumerate(legal):
        assert state.move_to_action(json.loads(json.dumps(move))) == code
        if "edge" in move:  # an edge's two cells in either order
            turned = {**move, "edge": list(reversed(move["edge"]))}
            assert state.move_to_action(turned) == code
    assert len({json.dumps(m, sort_keys=True) for m in legal}) == len(legal)
    for bad in ({"action": "place", "plot": "PG01", "to": [40, 40]}, {"action": "fly"}, {"to": 1}):
        if bad not in legal:
            with pytest.raises((IllegalMoveError, MoveFormatError)):
                state.move_to_action(bad)


@settings(max_examples=40, deadline=None)
@given(seed=seeds, players=tables, config=options, picks=choices, more=choices)
def test_copy_is_independent_of_the_original_chance_included(
    seed: int, players: int, config: dict[str, Any], picks: list[int], more: list[int]
) -> None:
    assert_copies_are_independent(_walk(seed, players, config, picks), more)  # dice, babies


@settings(max_examples=20, deadline=None)
@given(seed=seeds, players=tables, config=options, picks=choices)
def test_same_seed_options_and_choices_give_the_same_game(
    seed: int, players: int, config: dict[str, Any], picks: list[int]
) -> None:
    a = _walk(seed, players, config, picks)
    b = _walk(seed, players, config, picks)
    assert a.spectator_view() == b.spectator_view()
