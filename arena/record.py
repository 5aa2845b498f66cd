"""Game records: the JSON account of one game, and the one walk that replays it step by step.

Replay, narration (arena/narration.py), the replay viewer and the tests all go through `walk`.
A record whose last decision went unanswered (the bot timed out, crashed or replied
illegally) keeps that request as `unanswered` (`{"seat", "kind", "request", "reason"}`, the
request as the exact line sent); `unanswered` reads it, and records written before it was
kept read as before.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena import bounded
from arena.errors import GameError
from arena.game_sources import get_game
from arena.games import Decision, GameState, Move

RECORD_VERSION = 1
MAX_RECORD_FILE = 16 << 20
"""The largest record file read (a long Takenoko game's is about 100 KiB compressed)."""
MAX_RECORD = 64 << 20
"""The most a record may unpack to."""


def load_record(path: Path) -> dict[str, Any]:
    """A game record from a `.json` or `.json.gz` file, read within bounds (size, unpacked
    size, nesting); GameError with one sentence naming the file when it is not one."""
    try:
        data = bounded.read_capped(path, MAX_RECORD_FILE, "game record")
        record = bounded.loads(bounded.gunzip_capped(data, MAX_RECORD, str(path)), str(path))
    except bounded.BoundedReadError as error:
        raise GameError(str(error)) from None
    if not isinstance(record, dict):
        raise GameError(f"{path} is not a game record (not a JSON object).")
    return record


@dataclass(frozen=True)
class Step:
    """One recorded decision, with the state it was taken in (before its move is applied)."""

    number: int
    """The decision's place in the record, from 1."""
    entry: Mapping[str, Any]
    """The record's entry: seat, kind, move, think_ms (no move for the unanswered one)."""
    decision: Decision
    """Who decided, and the kind of decision, as the state says."""
    state: GameState
    """The state before the move; it moves on once the walk goes on (copy it to keep it)."""

    @property
    def answered(self) -> bool:
        """False for the record's unanswered decision (its entry has no move)."""
        return "move" in self.entry

    @property
    def move(self) -> Move:
        move: Move = self.entry["move"]  # walk checked it is a JSON object
        return move


def start(record: Mapping[str, Any]) -> GameState:
    """The state a record starts from: its game, configuration, seed and number of seats."""
    try:
        name = record["game"]
        if not isinstance(name, str):
            raise ValueError("its game must be a name")
        game = get_game(name)
        players = record.get("players")
        seats = (
            game.min_players
            if players is None
            else len(bounded.text_list(players, game.min_players, game.max_players, "its players"))
        )
        seed = bounded.whole(record["seed"], 0, 2**64 - 1, "its seed")
        config = record.get("config") or None
        if config is not None and not isinstance(config, dict):
            raise ValueError("its config must be an object")
        return game.new_state(seed, config, num_players=seats)
    except KeyError as missing:
        raise GameError(f"The game record has no {missing} field; is it a game record?") from None
    except (TypeError, ValueError) as error:
        raise GameError(f"This is not a game record this arena reads ({error}).") from None


def walk(record: Mapping[str, Any], state: GameState) -> Iterator[Step]:
    """Each move of `record` as a Step, applied to `state` when the walk goes on.

    Raises GameError where the record does not replay (a move after the end, by the wrong
    seat, or one the rules refuse).
    """
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise GameError("The game record has no list of moves; is it a game record?")
    for number, entry in enumerate(moves, start=1):
        decision = state.decision()
        if decision is None:
            raise GameError(f"The record's move {number} comes after the end of the game.")
        if not isinstance(entry, dict) or not isinstance(entry.get("move"), dict):
            raise GameError(f"The record's move {number} has no move object: {entry!r}.")
        if "seat" in entry and entry["seat"] != decision.seat:
            raise GameError(
                f"The record's move {number} is by seat {entry['seat']}, "
                f"but seat {decision.seat} was to decide."
            )
        yield Step(number, entry, decision, state)
        try:
            state.apply_move(entry["move"])
        except GameError as error:
            raise GameError(f"The record's move {number} does not replay: {error}") from None


MAX_UNANSWERED_REQUEST = 4 << 20
"""The longest unanswered request read from a record."""


def unanswered(record: Mapping[str, Any], state: GameState) -> Step | None:
    """The decision that went unanswered after the record's moves, as a Step in `state`
    (the state after every move), or None when the record keeps none (an old record, or a
    game that ended by its rules). Its entry holds seat, kind, request and reason; it has
    no move. GameError when the entry does not fit the replayed game."""
    entry = record.get("unanswered")
    if entry is None:
        return None
    moves = record.get("moves")
    number = (len(moves) if isinstance(moves, list) else 0) + 1
    decision = state.decision()
    if not isinstance(entry, dict) or decision is None:
        raise GameError(f"The record's unanswered decision {number} does not fit its game.")
    request = entry.get("request")
    if not isinstance(request, str) or len(request) > MAX_UNANSWERED_REQUEST:
        raise GameError(f"The record's unanswered decision {number} has no request line.")
    if entry.get("seat") != decision.seat:
        raise GameError(
            f"The record's unanswered decision {number} is by seat {entry.get('seat')!r}, "
            f"but seat {decision.seat} was to decide."
        )
    return Step(number, entry, decision, state)


_FAILURES = {"timeout": "did not answer in time", "crash": "crashed before answering"}


def unanswered_words(entry: Mapping[str, Any]) -> str:
    """What became of an unanswered decision, in words: "did not answer in time (timeout)"."""
    reason = str(entry.get("reason", "?"))
    return f"{_FAILURES.get(reason, 'replied with what the referee refused')} ({reason})"


def decision_count(record: Mapping[str, Any]) -> int:
    """How many decisions the record has: its moves, and the unanswered one if kept."""
    moves = record.get("moves")
    count = len(moves) if isinstance(moves, list) else 0
    return count + (1 if isinstance(record.get("unanswered"), dict) else 0)


def replay(record: Mapping[str, Any]) -> GameState:
    """The state after re-playing every move of `record` from its seed and configuration.

    A game is fully determined by (game name, configuration, seed, moves), so the result is
    the identical final state. Raises GameError when the record does not replay.
    """
    state = start(record)
    for _ in walk(record, state):
        pass
    return state


def request_at(record: Mapping[str, Any], number: int) -> tuple[Step, bytes]:
    """Decision `number` (from 1) of `record` and the exact `decide` line its seat was sent.

    The line is rebuilt by the referee's own encoders from the replayed state; `time_ms` is
    the record's (the seat's time per decision, or the move's own when a bank raised it).
    The unanswered decision (the last) is the line the record kept; its Step has no move.
    GameError when there is no such decision or the record does not replay.
    """
    from arena import protocol

    count = decision_count(record)
    if not 1 <= number <= count:
        raise GameError(f"The record has decisions 1 to {count}, not {number}.")
    state = start(record)
    if number == count and "unanswered" in record:
        for _ in walk(record, state):
            pass
        last = unanswered(record, state)
        if last is not None:
            return last, (str(last.entry["request"]) + "\n").encode()
    for step in walk(record, state):
        if step.number == number:
            seat = step.decision.seat
            move_ms = record.get("move_ms") or []
            time_ms = step.entry.get("time_ms", move_ms[seat] if seat < len(move_ms) else 1000)
            codec = protocol.MoveCodec(cached=False)
            line = protocol.encode_request(
                state, seat, step.decision.kind, state.legal_actions(), codec,
                str(record.get("game_id", "")), number, int(time_ms),
                str(step.entry.get("id", f"{number:08x}")),  # the id it was sent
            )  # fmt: skip
            return step, line
    raise GameError(f"The record has no decision {number}.")  # pragma: no cover
