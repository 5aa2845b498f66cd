"""Protocol v2: the referee's messages match bots/protocol.schema.json; replies parse exactly."""

from __future__ import annotations

import contextlib
import json
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from arena import protocol
from arena.errors import BotStartupError, IllegalMoveError, MalformedReplyError, MoveFormatError
from arena.game_sources import get_game
from arena.games import GameState
from arena.outcome import Outcome, Termination
from arena.players.launch import LaunchSpec
from arena.players.manifest import load_manifest
from arena.players.process import BotProcess
from arena.players.stderr_log import StderrLog

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_PATH = ROOT / "bots" / "protocol.schema.json"


def validator(part: str) -> Draft202012Validator:
    if not SCHEMA_PATH.exists():
        pytest.skip("bots/protocol.schema.json is not written yet")
    schema = json.loads(SCHEMA_PATH.read_text())
    return Draft202012Validator({"$ref": f"#/$defs/{part}", "$defs": schema["$defs"]})


def states_with_claims(every: int = 1) -> list[GameState]:
    """Positions from a few games: every claim decision, and every `every`-th position."""
    found: list[GameState] = []
    choose = random.Random(5).choice
    for seed in range(3):
        state = get_game("mandala").new_state(seed)
        while state.decision() is not None:
            found.append(state.copy())
            state.apply_action(choose(state.legal_actions()))
    claims = [s for s in found if s.decision().kind == "claim"]  # type: ignore[union-attr]
    assert claims
    return found[::every] + claims


ID = "0000abcd"
"""The request id of the tests' decides."""


def with_id(line: bytes) -> bytes:
    """A JSON object reply with the request's id first (protocol 2)."""
    return (
        line.replace(b"{", b'{"id":"' + ID.encode() + b'",', 1) if line.startswith(b"{") else line
    )


def decide_bytes(state: GameState, request: int, extra: dict[str, Any] | None = None) -> bytes:
    decision = state.decision()
    assert decision is not None
    actions = state.legal_actions()
    return protocol.encode_request(
        state, decision.seat, decision.kind, actions, protocol.MoveCodec(), "g1", request,
        1000, ID, extra,
    )  # fmt: skip


def test_every_referee_message_matches_the_schema() -> None:
    check = validator("referee_message")
    outcome = Outcome((12, 7), (0, 1), Termination.TIMEOUT, "Seat 1 (x) timed out.", 1)
    messages = [
        protocol.hello("mandala", 2),
        protocol.new_game("mandala", "g1", 0, 2, {"turn_limit": 1000}, 1000, 0, 7),
        protocol.game_over("g1", 1, outcome.to_json()),
        protocol.goodbye(),
    ]
    for index, state in enumerate(states_with_claims(3)):
        messages.append(json.loads(decide_bytes(state, index)))
    for message in messages:
        check.validate(message)
        assert protocol.encode(message).endswith(b"\n")
        assert protocol.encode(message).count(b"\n") == 1


def test_the_fast_decide_encoding_equals_the_builder() -> None:
    for state in states_with_claims(4):
        decision = state.decision()
        assert decision is not None
        moves = state.legal_moves()
        built = protocol.decide("g1", 5, decision.kind, state.view(decision.seat), moves, 1000, ID)
        assert json.loads(decide_bytes(state, 5)) == built
        extra = {"x_unknown": [1, {"a": None}]}
        assert json.loads(decide_bytes(state, 5, extra)) == {**built, **extra}


def test_messages_carry_unknown_fields_when_asked() -> None:
    message = protocol.hello("mandala", 2, x_future={"a": 1})
    assert message["x_future"] == {"a": 1}
    validator("referee_message").validate(message)


@pytest.fixture
def turn_state() -> GameState:
    return get_game("mandala").new_state(1)


def test_a_move_by_index_or_by_the_move_itself(turn_state: GameState) -> None:
    actions = turn_state.legal_actions()

    def parse(line: bytes) -> int:
        return protocol.parse_move(line, turn_state, actions, ID)

    assert parse(b'{"type":"move","move":2,"id":"0000abcd"}') == actions[2]
    assert parse(b'{"move":0,"id":"0000abcd","comment":"hi"}') == actions[0]
    move = json.dumps({"move": turn_state.action_to_move(actions[3]), "id": ID}).encode()
    assert parse(move) == actions[3]


def test_a_reply_must_echo_its_requests_id(turn_state: GameState) -> None:
    """Issue 20.5: a reply that does not carry the request's id answers no request."""
    actions = turn_state.legal_actions()
    with pytest.raises(MalformedReplyError, match='the reply has no "id".*echo'):
        protocol.parse_move(b'{"move":0}', turn_state, actions, ID)
    for line in (b'{"move":0,"id":"0000abce"}', b'{"id":"0000abce","move":0}'):
        with pytest.raises(MalformedReplyError, match="does not answer this request"):
            protocol.parse_move(line, turn_state, actions, ID)
    assert protocol.parse_move(b'{"id":"0000abcd","move":1}', turn_state, actions, ID) == actions[1]


def test_request_ids_differ_and_are_not_the_games_seed() -> None:
    first, second = protocol.ReplyIds(), protocol.ReplyIds()
    ids = [first.next() for _ in range(1000)]
    assert len(set(ids)) > 990 and all(len(i) == 8 for i in ids)
    assert ids[:20] != [second.next() for _ in range(20)]


BAD_REPLIES = [
    (
        b"not json",
        MalformedReplyError,
        "the reply is not valid JSON (Expecting value at column 1): 'not json'; send "
        '{"move": <index into legal_moves>, "id": <the request\'s id>} or '
        '{"move": {...a legal move...}, "id": ...} on one line.',
    ),
    (b"\xff\xfe", MalformedReplyError, "the reply is not valid UTF-8"),
    (b"[" * 100_000, MalformedReplyError, "the reply cannot be read as JSON"),
    (b'{"move":' + b"1" * 5000 + b"}", MalformedReplyError, "the reply cannot be read as JSON"),
    (b"[0]", MalformedReplyError, "the reply is a JSON array, not an object: '[0]'"),
    (b'{"type":"move"}', MalformedReplyError, 'the reply has no "move" field'),
    (
        b'{"type":"hello","move":0}',
        MalformedReplyError,
        'the reply has type "hello", expected "move"',
    ),
    (b'{"move":true}', MalformedReplyError, 'the "move" is a boolean, not an index'),
    (b'{"move":"0"}', MalformedReplyError, 'the "move" is a string, not an index'),
    (b'{"move":1.0}', MalformedReplyError, 'the "move" is a number, not an index'),
    (b'{"move":[0]}', MalformedReplyError, 'the "move" is an array, not an index'),
    (b'{"move":-1}', IllegalMoveError, "move index -1 is out of range: there are"),
    (b'{"move":{"action":"fly"}}', MoveFormatError, "'action' must be one of"),
    (
        b'{"move":{"action":"claim","colour":"red"}}',
        IllegalMoveError,
        "No Mandala is being destroyed, so there is nothing to claim.",
    ),
]


@pytest.mark.parametrize(("line", "error", "words"), BAD_REPLIES)
def test_a_bad_reply_is_refused_with_a_sentence(
    turn_state: GameState, line: bytes, error: type[Exception], words: str
) -> None:
    with pytest.raises(error) as raised:
        protocol.parse_move(with_id(line), turn_state, turn_state.legal_actions(), ID)
    assert words in str(raised.value)


def test_an_index_past_the_end_names_the_range(turn_state: GameState) -> None:
    actions = turn_state.legal_actions()
    with pytest.raises(IllegalMoveError) as raised:
        protocol.parse_move(b'{"move":%d,"id":"0000abcd"}' % len(actions), turn_state, actions, ID)
    assert str(raised.value) == (
        f"move index {len(actions)} is out of range: there are {len(actions)} legal moves, "
        f"numbered 0 to {len(actions) - 1}."
    )


def test_hello_replies() -> None:
    assert protocol.parse_hello(b'{"type":"hello","name":"x","version":"2"}') == protocol.Hello(
        "x", "2"
    )
    assert protocol.parse_hello(b'{"type":"hello"}') == protocol.Hello(None, None)
    with pytest.raises(MalformedReplyError, match='has type "move", expected "hello"'):
        protocol.parse_hello(b'{"type":"move","move":0}')
    with pytest.raises(MalformedReplyError, match='"name" in "hello" is a number'):
        protocol.parse_hello(b'{"type":"hello","name":3}')
    with pytest.raises(MalformedReplyError, match='"version" in "hello" is an object, not'):
        protocol.parse_hello(b'{"type":"hello","version":{}}')


def test_a_hellos_name_and_version_are_kept_short() -> None:
    """`arena check` printed a 900 kB name from a bot's hello, whole."""
    long = "n" * 900_000
    hello = protocol.parse_hello(
        json.dumps({"type": "hello", "name": long, "version": long}).encode()
    )
    assert hello == protocol.Hello("n" * protocol.HELLO_CHARS, "n" * protocol.HELLO_CHARS)


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_the_bundled_bots_replies_match_the_schema(bot: str, tmp_path: Path) -> None:
    folder = ROOT / "bots" / bot
    if not (folder / "bot.toml").exists():
        pytest.skip(f"bots/{bot} is not written yet")
    manifest = load_manifest(folder)
    spec = LaunchSpec(argv=manifest.argv, cwd=manifest.folder, env={"PATH": "/usr/bin:/bin"})
    process = BotProcess(spec, StderrLog(tmp_path / "err.log", 1 << 20), 1 << 20)
    check = validator("bot_message")
    try:
        deadline = time.monotonic() + 30
        hello = process.handshake("mandala", 2, deadline, 30_000)
        assert hello.name
        process.send(
            protocol.encode(protocol.new_game("mandala", "g1", 0, 2, {}, 1000, 0, 7)), deadline
        )
        for index, state in enumerate(states_with_claims(2)):
            process.send(decide_bytes(state, index), deadline)
            reply = json.loads(process.read_line(deadline))
            check.validate(reply)
            protocol.parse_move(json.dumps(reply).encode(), state, state.legal_actions(), ID)
    finally:
        process.close(2.0)
    assert process.exited_by_itself


@pytest.mark.parametrize(
    "line",
    [
        b'{"move":2,"id":"0000abcd"}',
        b'{"type": "move", "move": 2, "id": "0000abcd"}',
        b' {"move" : 2 , "id" : "0000abcd" } ',
        b'{"move":2,"id":"0000abcd","comment":"x"}',
        b'{"move":99,"id":"0000abcd"}',
        b'{"move":-1,"id":"0000abcd"}',
        b'{"move":02,"id":"0000abcd"}',
        b'{"move":2,"id":"0000abce"}',
        b'{"move":2}',
    ],
)
def test_the_fast_index_path_agrees_with_the_json_parse(line: bytes) -> None:
    """parse_move reads `{"move": N, "id": ...}` without json.loads; it must decide exactly
    as JSON would."""
    state = get_game("mandala").new_state(3)
    actions = state.legal_actions()
    data = None
    with contextlib.suppress(ValueError):
        data = json.loads(line)
    expected: object
    if (
        isinstance(data, dict)
        and isinstance(data.get("move"), int)
        and 0 <= data["move"] < len(actions)
        and data.get("id") == ID
    ):
        expected = actions[data["move"]]
    else:
        expected = Exception
    try:
        got: object = protocol.parse_move(line, state, actions, ID)
    except Exception:
        got = Exception
    assert got == expected


def test_a_launch_hook_that_fails_leaves_no_process_behind(tmp_path: Path) -> None:
    started: list[int] = []

    def refuse(pid: int) -> None:
        started.append(pid)
        raise PermissionError(13, "Permission denied")

    spec = LaunchSpec(argv=["/bin/sleep", "60"], cwd=tmp_path, env={}, after_start=[refuse])
    with pytest.raises(BotStartupError, match="Permission denied"):
        BotProcess(spec, StderrLog(None, 1 << 20), 1 << 20)
    assert started
    with pytest.raises(ChildProcessError):  # killed and reaped: not a zombie, not running
        os.waitpid(started[0], os.WNOHANG)


def test_a_message_orjson_refuses_is_still_sent() -> None:
    """compact_json: an integer beyond 64 bits (a game option may be one) or a lone
    surrogate falls back to the standard library instead of failing the game."""
    from arena import compact_json

    value = {"turn_limit": 10**30, "name": "é"}
    assert json.loads(compact_json.dumps(value)) == value
    assert json.loads(compact_json.dumps({"name": "\udcff"})) == {"name": "\udcff"}
    assert json.loads(protocol.encode({"type": "new_game", "config": value})) == {
        "type": "new_game",
        "config": value,
    }


def test_a_comment_nested_past_the_parsers_depth_is_no_comment() -> None:
    line = b'{"move":0,"id":"0000abcd","comment":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    assert protocol.reply_comment(line) is None  # RecursionError before, had it been reached
