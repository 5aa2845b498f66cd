"""The bot protocol, version 2: JSON lines on stdin/stdout (bots/README.md, "The messages").

Builders make the referee's messages as plain dicts; `encode` turns one into the bytes of
one line (serialised once). `parse_hello` and `parse_move` read a bot's reply line and raise
with an exact sentence when it breaks the protocol: `MalformedReplyError` for a reply of the
wrong shape, the game's `IllegalMoveError`/`MoveFormatError` for a move the rules refuse.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena import compact_json
from arena.errors import IllegalMoveError, MalformedReplyError
from arena.games.base import GameState, Move, View

PROTOCOL_VERSION = 2
"""The version sent in `hello`; bumped only for changes an older bot could not ignore.
2: every `decide` carries an `id` that its reply must echo (issue 20: a bot that never read
its input had its moves accepted)."""

_SNIPPET = 80
"""How many characters of a bad reply are quoted in an error sentence."""

# Small values (ids, a move): the standard library's C encoder, faster than orjson's call
# and decode for a few bytes; whole messages and views go through compact_json (orjson).
_dumps = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def encode(message: Mapping[str, Any]) -> bytes:
    """One message as the UTF-8 bytes of one line, newline included."""
    return compact_json.dumps_bytes(message) + b"\n"


def hello(game: str, players: int, **extra: Any) -> dict[str, Any]:
    """The referee's greeting; the bot answers with its own `hello`."""
    return {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "game": game,
        "players": players,
        **extra,
    }


BOT_SEED_BITS = 31
"""A bot's seed fits a signed 32-bit integer: every language can hold it exactly."""


def bot_seed(deal_seed: int, game_id: str, seat: int) -> int:
    """The seed of a seat's own randomness in one game (issue 23): a hash of the deal seed
    (itself a hash of the run's seed and the table), the game's id and the seat. It depends
    on nothing a run's workers, executor or resume could change, so a bot that draws its
    random choices from it plays the same game wherever and whenever the game is played."""
    digest = hashlib.sha256(f"mandala-arena-bot:{deal_seed}:{game_id}:{seat}".encode()).digest()
    return int.from_bytes(digest[:4], "big") >> (32 - BOT_SEED_BITS)


def new_game(
    game: str,
    game_id: str,
    seat: int,
    players: int,
    config: Mapping[str, Any],
    move_ms: int,
    time_bank_ms: int,
    seed: int,
    **extra: Any,
) -> dict[str, Any]:
    """A game starts and the bot plays `seat` (no reply); `seed` seeds its own randomness."""
    return {
        "type": "new_game",
        "game": game,
        "game_id": game_id,
        "seat": seat,
        "players": players,
        "seed": seed,
        "config": dict(config),
        "limits": {"move_ms": move_ms, "time_bank_ms": time_bank_ms},
        **extra,
    }


def decide(
    game_id: str,
    request: int,
    decision: str,
    view: View,
    legal_moves: Sequence[Move],
    time_ms: int,
    reply_id: str,
    **extra: Any,
) -> dict[str, Any]:
    """A decision request: the seat's whole view and the legal moves; the bot answers `move`
    with the request's `id`."""
    return {
        "type": "decide",
        "id": reply_id,
        "game_id": game_id,
        "request": request,
        "decision": decision,
        "view": view,
        "legal_moves": legal_moves,
        "time_ms": time_ms,
        **extra,
    }


class MoveCodec:
    """Each action code's move and its JSON, made once: the legal moves of a request are
    then joined from ready-made text instead of being rebuilt and re-serialised every time.

    With `cached=False` (a game whose `stable_action_codes` is False: the contract is in
    arena/games/base.py) nothing is kept: every code is converted in its own state.
    """

    def __init__(self, cached: bool = True) -> None:
        self.cached = cached
        self._moves: dict[int, Move] = {}
        self._json: dict[int, str] = {}
        self._lists: dict[tuple[int, ...], str] = {}

    def move(self, state: GameState, action: int) -> Move:
        """The move of `action` (shared: do not modify it)."""
        if not self.cached:
            return state.action_to_move(action)
        move = self._moves.get(action)
        if move is None:
            move = self._moves[action] = state.action_to_move(action)
            self._json[action] = _dumps(move)
        return move

    def moves_json(self, state: GameState, actions: Sequence[int]) -> str:
        """The JSON array of the moves of `actions`, in order (memoised: lists recur)."""
        if not self.cached:
            return "[" + ",".join(_dumps(state.action_to_move(a)) for a in actions) + "]"
        key = tuple(actions)
        text = self._lists.get(key)
        if text is not None:
            return text
        known = self._json
        for action in actions:
            if action not in known:
                self.move(state, action)
        if len(self._lists) > 50_000:
            self._lists.clear()
        text = self._lists[key] = "[" + ",".join([known[action] for action in actions]) + "]"
        return text


class ReplyIds:
    """The `id` of each request: 8 hex digits a bot cannot guess without reading the request
    (seeded from the system's entropy, never from the game's seed)."""

    def __init__(self) -> None:
        self._random = random.Random(os.urandom(16))
        self._hex = ""
        self._at = 0

    def next(self) -> str:
        at = self._at
        if at >= len(self._hex):  # 512 ids made at once: one call instead of one each
            self._hex, at = self._random.randbytes(2048).hex(), 0
        self._at = at + 8
        return self._hex[at : at + 8]


def encode_decide(
    game_id: str,
    request: int,
    decision: str,
    view_json: str,
    legal_moves_json: str,
    time_ms: int,
    reply_id: str,
    extra: Mapping[str, Any] | None = None,
) -> bytes:
    """The bytes of `decide(...)` with the view and the legal moves already encoded
    (`GameState.view_json`, MoveCodec). Equal, once parsed, to `encode(decide(...))`.
    """
    tail = "}\n" if not extra else "," + _dumps(dict(extra))[1:] + "\n"
    return (
        f'{{"type":"decide","id":{_dumps(reply_id)},"game_id":{_dumps(game_id)},'
        f'"request":{request},"decision":{_dumps(decision)},"view":{view_json},'
        f'"legal_moves":{legal_moves_json},"time_ms":{time_ms}{tail}'
    ).encode()


def encode_request(
    state: GameState,
    seat: int,
    decision: str,
    actions: Sequence[int],
    codec: MoveCodec,
    game_id: str,
    request: int,
    time_ms: int,
    reply_id: str,
    extra: Mapping[str, Any] | None = None,
) -> bytes:
    """The `decide` line asking `seat` of `state` for one of `actions`: its view and the
    moves made by `codec` (the referee's request, a record's, the bench's are all this)."""
    return encode_decide(
        game_id,
        request,
        decision,
        state.view_json(seat),
        codec.moves_json(state, actions),
        time_ms,
        reply_id,
        extra,
    )


def game_over(game_id: str, seat: int, result: Mapping[str, Any], **extra: Any) -> dict[str, Any]:
    """The game has ended; `result` is `Outcome.to_json()` (no reply)."""
    return {"type": "game_over", "game_id": game_id, "seat": seat, "result": dict(result), **extra}


def goodbye(**extra: Any) -> dict[str, Any]:
    """The session is over: the bot should exit."""
    return {"type": "goodbye", **extra}


@dataclass(frozen=True)
class Hello:
    """What a bot says about itself in its `hello` reply."""

    name: str | None
    """The name the bot gives itself (informative; the manifest's name is authoritative)."""
    version: str | None
    """The bot's own version string, if it sent one."""


def _snippet(line: bytes | str) -> str:
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    return repr(text if len(text) <= _SNIPPET else text[:_SNIPPET] + "...")


def _load_object(line: bytes, expected: str) -> dict[str, Any]:
    """The reply line as a JSON object, or MalformedReplyError saying what is wrong with it."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise MalformedReplyError(
            f"the reply is not valid UTF-8: {_snippet(line)}; send {expected}."
        ) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise MalformedReplyError(
            f"the reply is not valid JSON ({error.msg} at column {error.colno}): "
            f"{_snippet(text)}; send {expected} on one line."
        ) from None
    except (ValueError, RecursionError):  # a number of thousands of digits, or deep nesting
        raise MalformedReplyError(
            "the reply cannot be read as JSON (nested too deeply or a number too long): "
            f"{_snippet(text)}; send {expected}."
        ) from None
    if not isinstance(data, dict):
        raise MalformedReplyError(
            f"the reply is a JSON {_json_type(data)}, not an object: {_snippet(text)}; "
            f"send {expected}."
        )
    return data


def _quoted(value: Any) -> str:
    """A JSON scalar as JSON text (shortened), a container by its type: safe for any reply."""
    if isinstance(value, dict | list):
        return f"a JSON {_json_type(value)}"
    text = json.dumps(value)
    return text if len(text) <= _SNIPPET else text[:_SNIPPET] + "..."


def _a(word: str) -> str:
    """`word` with its indefinite article: "an object", "a string"."""
    return ("an " if word[0] in "aeiou" else "a ") + word


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


_INDEX_REPLY = re.compile(
    rb'[ \t]*\{[ \t]*(?:"type"[ \t]*:[ \t]*"move"[ \t]*,[ \t]*)?'
    rb'"move"[ \t]*:[ \t]*(0|[1-9][0-9]{0,8})[ \t]*,[ \t]*"id"[ \t]*:[ \t]*"([0-9a-f]{8})"[ \t]*\}[ \t]*'
).fullmatch
"""The common reply `{"move": N, "id": "..."}` (optionally with `"type": "move"` first), for
a fast path."""

_HELLO_SHAPE = '{"type": "hello", "name": "..."}'
_MOVE_SHAPE = (
    '{"move": <index into legal_moves>, "id": <the request\'s id>} '
    'or {"move": {...a legal move...}, "id": ...}'
)


HELLO_CHARS = 100
"""How much of the `name` and `version` of a bot's `hello` is kept (they are only shown)."""


def parse_hello(line: bytes) -> Hello:
    """A bot's `hello` reply; MalformedReplyError when it is not one."""
    data = _load_object(line, _HELLO_SHAPE)
    if data.get("type") != "hello":
        raise MalformedReplyError(
            f'the reply to "hello" has type {_quoted(data.get("type"))}, expected "hello": '
            f"{_snippet(line)}; send {_HELLO_SHAPE}."
        )
    name, version = data.get("name"), data.get("version")
    if name is not None and not isinstance(name, str):
        raise MalformedReplyError(f'the "name" in "hello" is {_a(_json_type(name))}, not a string.')
    if version is not None and not isinstance(version, str | int | float):
        raise MalformedReplyError(
            f'the "version" in "hello" is {_a(_json_type(version))}, not a string.'
        )
    return Hello(  # shortened: a bot's words, shown by `arena check`
        name=None if name is None else name[:HELLO_CHARS],
        version=None if version is None else str(version)[:HELLO_CHARS],
    )


def _check_id(data: Mapping[str, Any], reply_id: str, line: bytes) -> None:
    """MalformedReplyError unless the reply echoes the request's id (protocol 2)."""
    given = data.get("id")
    if given == reply_id:
        return
    if given is None:
        raise MalformedReplyError(
            f'the reply has no "id": {_snippet(line)}; protocol 2 asks each reply to echo '
            f'the "id" of the request it answers (here "{reply_id}"), see bots/README.md.'
        )
    raise MalformedReplyError(
        f'the reply\'s "id" is {_quoted(given)}, not the request\'s "{reply_id}": it does not '
        "answer this request (read each request before replying to it)."
    )


COMMENT_CHARS = 500
"""How much of a reply's `comment` a game record keeps."""


def reply_comment(line: bytes) -> str | None:
    """The `comment` a bot may add to its move reply (kept in the record, shortened), or
    None when there is none or it is not text."""
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):  # a move parse refuses these first: never trust it
        return None
    comment = data.get("comment") if isinstance(data, dict) else None
    return comment[:COMMENT_CHARS] if isinstance(comment, str) and comment else None


def parse_move(line: bytes, state: GameState, legal_actions: Sequence[int], reply_id: str) -> int:
    """The action a bot's `move` reply chooses among `legal_actions` (the request's order).

    The move is an index into `legal_moves` or the move itself; the reply's `id` must be the
    request's `reply_id` (a reply written without reading its request cannot know it).
    Raises MalformedReplyError for a reply of the wrong shape or id, IllegalMoveError for an
    index out of range, and whatever `state.move_to_action` raises (IllegalMoveError,
    MoveFormatError) for a move object.
    """
    quick = _INDEX_REPLY(line)
    if quick is not None and quick.group(2).decode() == reply_id:  # read without a parse
        index = int(quick.group(1))
        if index < len(legal_actions):
            return legal_actions[index]
    data = _load_object(line, _MOVE_SHAPE)
    kind = data.get("type", "move")
    if kind != "move":
        raise MalformedReplyError(
            f'the reply has type {_quoted(kind)}, expected "move": {_snippet(line)}; '
            f"send {_MOVE_SHAPE}."
        )
    if "move" not in data:
        raise MalformedReplyError(
            f'the reply has no "move" field: {_snippet(line)}; send {_MOVE_SHAPE}.'
        )
    move = data["move"]
    if isinstance(move, bool) or not isinstance(move, int | dict):
        raise MalformedReplyError(
            f'the "move" is {_a(_json_type(move))}, not an index or a move object: '
            f"{_snippet(line)}; send {_MOVE_SHAPE}."
        )
    _check_id(data, reply_id, line)
    if isinstance(move, int):
        if not 0 <= move < len(legal_actions):
            raise IllegalMoveError(
                f"move index {move} is out of range: there are {len(legal_actions)} legal "
                f"moves, numbered 0 to {len(legal_actions) - 1}."
            )
        return legal_actions[move]
    return state.move_to_action(move)
