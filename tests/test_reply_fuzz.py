"""Fuzzing the reply path: whatever a bot writes, the referee ends in a move or a documented fault.

Issue 9: `{"move": {"action": {"x": 1}}}` once raised `TypeError: unhashable type` out of the
Mandala move parser and stopped a tournament. Here Hypothesis feeds arbitrary JSON values,
move objects with one field swapped for arbitrary JSON, and arbitrary bytes through
`protocol.parse_move` (the referee's own reply path) in positions of every registered game.
Only `MalformedReplyError`, `IllegalMoveError` and `MoveFormatError` may come out, and a
move that is accepted is one of the legal actions.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena import protocol
from arena.errors import IllegalMoveError, MalformedReplyError, MoveFormatError
from arena.game_sources import game_names, get_game
from arena.games import GameState

FAULTS = (MalformedReplyError, IllegalMoveError, MoveFormatError)
SETTINGS = settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _positions(name: str, count: int = 6) -> list[GameState]:
    """States of game `name` along a seeded random game, each with a decision to make."""
    game = get_game(name)
    rng = random.Random(name)
    states: list[GameState] = []
    state = game.new_state(rng.randrange(2**31), num_players=game.min_players)
    while state.decision() is not None and len(states) < count:
        states.append(state.copy())
        for _ in range(rng.randrange(1, 12)):
            if state.decision() is None:
                break
            state.apply_action(rng.choice(state.legal_actions()))
    return states


POSITIONS = {name: _positions(name) for name in game_names()}


ID = "0000abcd"


def _with_id(line: bytes) -> bytes:
    """The line with the request's id first inside its outer braces, when it has them, so a
    fuzzed move gets past the id check (protocol 2) to the move's own checks."""
    start = line.find(b"{")
    return (
        line
        if start < 0
        else line[: start + 1] + b'"id":"' + ID.encode() + b'",' + line[start + 1 :]
    )


def _reply_path(state: GameState, line: bytes) -> None:
    """The referee's handling of one reply line, as sent and with the request's id: a legal
    action or a documented fault."""
    actions = state.legal_actions()
    for reply in (line, _with_id(line)):
        try:
            action = protocol.parse_move(reply, state, actions, ID)
        except FAULTS:
            continue
        assert action in actions


def _line(value: Any) -> bytes:
    return json.dumps(value).encode()


@pytest.mark.parametrize("name", game_names())
@SETTINGS
@given(data=st.data(), value=json_values)
def test_any_json_reply_is_a_move_or_a_fault(name: str, data: st.DataObject, value: Any) -> None:
    state = data.draw(st.sampled_from(POSITIONS[name]))
    _reply_path(state, _line(value))
    _reply_path(state, _line({"move": value}))
    _reply_path(state, _line({"type": value, "move": 0}))


@pytest.mark.parametrize("name", game_names())
@SETTINGS
@given(data=st.data(), value=json_values)
def test_a_legal_move_with_one_field_of_any_json_is_a_move_or_a_fault(
    name: str, data: st.DataObject, value: Any
) -> None:
    """The dangerous case: a well-formed move object whose field holds a list or an object."""
    state = data.draw(st.sampled_from(POSITIONS[name]))
    move = dict(data.draw(st.sampled_from(state.legal_moves())))
    key = data.draw(st.sampled_from([*move, "colour", "color", "extra"]))
    move[key] = value
    _reply_path(state, _line({"move": move}))
    _reply_path(state, _line({"type": "move", "move": move}))


@pytest.mark.parametrize("name", game_names())
@SETTINGS
@given(data=st.data(), raw=st.binary(max_size=200))
def test_any_bytes_are_a_move_or_a_fault(name: str, data: st.DataObject, raw: bytes) -> None:
    state = data.draw(st.sampled_from(POSITIONS[name]))
    _reply_path(state, raw)
    _reply_path(state, b'{"move": ' + raw + b"}")


@pytest.mark.parametrize(
    "reply",
    [
        b'{"move": {"action": {"x": 1}}}',
        b'{"move": {"action": ["build_mountain"]}}',
        b'{"move": {"action": "claim", "colour": {"a": 1}}}',
        b'{"move": {"action": "build_mountain", "mandala": 0, "colour": ["red"]}}',
        b'{"move": {"action": "discard_redraw", "color": [], "count": 1}}',
        b'{"move": {"action": "grow_field", "mandala": [0], "colour": "red", "count": {}}}',
        b'{"type": {"move": 1}, "move": 0}',
        b'{"type": ["move"], "move": 0}',
    ],
)
def test_the_replies_that_crashed_the_referee_are_faults(reply: bytes) -> None:
    for state in POSITIONS["mandala"]:
        with pytest.raises(FAULTS):
            protocol.parse_move(_with_id(reply), state, state.legal_actions(), ID)
