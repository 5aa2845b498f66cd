"""The referee: plays one game between bot processes and returns what happened, with a reason.

It knows the game only through the generic `GameState` interface and the bots only through
`Player`. A bot's fault never raises out of `play_game`: it ends the game with a
`Termination`, a sentence, and that bot last; the bot is killed and restarted next game.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena import protocol
from arena.errors import (
    BotCrashError,
    BotFaultError,
    BotOversizedOutputError,
    BotStartupError,
    BotTimeoutError,
    GameError,
    IllegalMoveError,
    MalformedReplyError,
    MoveFormatError,
)
from arena.games import GameState, get_game
from arena.outcome import Outcome, Termination
from arena.players.launch import launch_spec
from arena.players.limits import SandboxLimits
from arena.players.manifest import BotManifest
from arena.players.process import BotProcess
from arena.players.stderr_log import StderrLog
from arena.record import RECORD_VERSION


@dataclass(frozen=True)
class Limits:
    """The limits a bot plays under."""

    move_ms: int = 1000
    """Time for one decision, from sending the request until the reply's newline arrives."""
    time_bank_ms: int = 0
    """Extra time per game; time over `move_ms` is taken from it until it is spent."""
    startup_ms: int = 10000
    """Time to start the process and answer `hello`."""
    line_cap: int = 1 << 20
    """The longest line a bot may write, in bytes; longer is `oversized_output`."""
    grace_ms: int = 1000
    """After `goodbye`, how long the bot may take to exit before its process group is killed."""
    stderr_cap: int = 1 << 20
    """The most a bot's stderr log file receives over the player's life, in bytes."""
    sandbox: SandboxLimits = field(default_factory=SandboxLimits)
    """Resource limits (the ceiling a bot.toml may lower) and isolation: players/limits.py."""


@dataclass(frozen=True)
class GameSpec:
    """Which game to play: the deal is a function of (game, config, seed) alone."""

    game_id: str
    """A name unique in its tournament, sent to bots and used for the record's file name."""
    seed: int
    """The seed of the deal; a seat-swapped pair of games shares it."""
    game: str = "mandala"
    """The game's name in the registry."""
    config: Mapping[str, Any] = field(default_factory=dict)
    """Overrides of the game's default configuration (e.g. {"turn_limit": 1000})."""


class Player:
    """A bot as a player: its process starts lazily, persists across games, restarts after a fault."""

    def __init__(
        self,
        manifest: BotManifest,
        limits: Limits | None = None,
        log_dir: Path | None = None,
        *,
        log_name: str | None = None,
        extra_fields: Mapping[str, Any] | None = None,
    ) -> None:
        self.manifest = manifest
        self.limits = limits or Limits()
        name = log_name or manifest.name
        self.log = StderrLog(
            None if log_dir is None else Path(log_dir) / f"{name}.stderr.log",
            self.limits.stderr_cap,
        )
        self.extra_fields: dict[str, Any] = dict(extra_fields or {})
        """Added to every message sent (`arena check` uses it to test tolerance)."""
        self.process: BotProcess | None = None
        self.hello: protocol.Hello | None = None
        self.starts = 0
        """How many processes have been started (1 + restarts)."""
        self.stray_bytes = 0
        """Output that arrived when no reply was expected (discarded)."""
        self.last_exit_clean: bool | None = None
        """After close(): True if the process exited by itself within the grace period."""
        self._game: str | None = None
        self._closed = False

    @property
    def name(self) -> str:
        return self.manifest.name

    @property
    def running(self) -> bool:
        return self.process is not None and not self.process.closed

    def spawn(self) -> None:
        """Start a process if none is running (no handshake yet); BotStartupError if it can't."""
        if self.running:
            return
        self._closed = False
        self.starts += 1
        self.hello = None
        self.process = BotProcess(
            launch_spec(self.manifest, self.limits), self.log, self.limits.line_cap
        )

    def handshake(self, game: str, players: int, started: float) -> None:
        """Complete `hello` within the start-up deadline counted from `started`."""
        assert self.process is not None
        deadline = started + self.limits.startup_ms / 1000
        try:
            self.hello = self.process.handshake(
                game, players, deadline, self.limits.startup_ms, **self.extra_fields
            )
        except BotStartupError as error:
            explained = BotStartupError(self.process.explain(error))
            self.kill()
            raise explained from None
        self._game = game

    def ready_for(self, game: str) -> bool:
        """True when a running process has completed the handshake for `game`."""
        return self.running and self.hello is not None and self._game == game

    def ensure_started(self, game: str, players: int) -> None:
        """A running, greeted process for `game`; BotStartupError otherwise."""
        if self.ready_for(game):
            return
        self.kill()
        started = time.monotonic()
        self.spawn()
        self.handshake(game, players, started)

    def send(self, message: dict[str, Any], deadline: float) -> None:
        """Send one message (with `extra_fields`); raises the bot's fault."""
        assert self.process is not None
        if self.extra_fields:
            message = {**message, **self.extra_fields}
        self.process.send(protocol.encode(message), deadline)

    def request(self, data: bytes, deadline: float) -> bytes:
        """Send an encoded request and return the reply line; raises the bot's fault."""
        process = self.process
        assert process is not None
        if process.reader.pending:
            self.stray_bytes += process.reader.discard_pending()
        process.send(data, deadline)
        return process.read_line(deadline)

    def explain(self, error: BotFaultError) -> str:
        """The fault's sentence, with the exit code and stderr tail where they help."""
        return error.args[0] if self.process is None else self.process.explain(error)

    def kill(self) -> None:
        """Kill the process now (after a fault); the next game starts a fresh one."""
        if self.process is not None:
            self.process.kill()
            self.process = None

    def close(self) -> None:
        """Say goodbye, let the bot exit, kill its process group. Idempotent."""
        if self.process is not None:
            self.process.close(self.limits.grace_ms / 1000)
            self.last_exit_clean = self.process.exited_by_itself
        self.process = None
        if not self._closed:
            self._closed = True
            self.log.close()

    def __enter__(self) -> Player:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@dataclass
class GameReport:
    """What happened in one game."""

    spec: GameSpec
    config: dict[str, Any]
    """The complete configuration played (defaults included)."""
    players: list[str]
    """Bot names by seat."""
    outcome: Outcome
    moves: list[dict[str, Any]]
    """One entry per decision: seat, kind, move, think_ms."""
    think_ms: list[float]
    """Total think time per seat."""
    decisions: list[int]
    """Decisions per seat."""
    turns: int
    duration_s: float
    """Wall time of the whole game, start-ups included."""
    fault: dict[str, Any] | None = None
    """For a bot's fault: its seat and the reply that caused it (quoted, shortened)."""

    def record(self) -> dict[str, Any]:
        """The JSON game record (SPEC.md, "Game record")."""
        record: dict[str, Any] = {
            "record_version": RECORD_VERSION,
            "game": self.spec.game,
            "config": self.config,
            "seed": self.spec.seed,
            "game_id": self.spec.game_id,
            "players": self.players,
            "moves": self.moves,
            "outcome": self.outcome.to_json(),
            "think_ms": [round(ms, 3) for ms in self.think_ms],
            "decisions": self.decisions,
            "turns": self.turns,
        }
        if self.fault is not None:
            record["fault"] = self.fault
        return record


class _SeatFault(Exception):
    """Internal: the bot in `seat` ended the game."""

    def __init__(self, seat: int, termination: Termination, reason: str, reply: bytes = b""):
        super().__init__(reason)
        self.seat = seat
        self.termination = termination
        self.reason = reason
        self.reply = reply


_TERMINATIONS: list[tuple[type[Exception], Termination, str]] = [
    (BotStartupError, Termination.STARTUP_FAILURE, "failed to start"),
    (BotTimeoutError, Termination.TIMEOUT, "timed out"),
    (BotCrashError, Termination.CRASH, "crashed"),
    (BotOversizedOutputError, Termination.OVERSIZED_OUTPUT, "wrote oversized output"),
    (MalformedReplyError, Termination.MALFORMED_REPLY, "sent a malformed reply"),
    (MoveFormatError, Termination.MALFORMED_REPLY, "sent a malformed move"),
    (IllegalMoveError, Termination.ILLEGAL_MOVE, "played an illegal move"),
]


def _fault(
    seat: int, player: Player, error: Exception, when: str, reply: bytes = b""
) -> _SeatFault:
    for kind, termination, verb in _TERMINATIONS:
        if isinstance(error, kind):
            text = player.explain(error) if isinstance(error, BotFaultError) else str(error)
            reason = f"Seat {seat} ({player.name}) {verb}{' ' + when if when else ''}: {text}"
            return _SeatFault(seat, termination, reason, reply)
    raise error


class _Game:
    """The bookkeeping of one game in progress."""

    def __init__(self, spec: GameSpec, players: Sequence[Player]) -> None:
        game = get_game(spec.game)
        self.spec = spec
        self.players = players
        self.config = game.config(spec.config)
        self.state: GameState = game.new_state(spec.seed, self.config, num_players=len(players))
        self.moves: list[dict[str, Any]] = []
        self.think_ms = [0.0] * len(players)
        self.decisions = [0] * len(players)
        self.bank_ms = [float(p.limits.time_bank_ms) for p in players]
        self.requests = 0
        self.codec = _codec(spec.game)

    # Step 1: every bot running and greeted (processes start in parallel).
    def start_players(self) -> None:
        waiting: list[tuple[int, float]] = []
        for seat, player in enumerate(self.players):
            if player.ready_for(self.spec.game):
                continue
            player.kill()
            started = time.monotonic()
            try:
                player.spawn()
            except BotStartupError as error:
                raise _fault(seat, player, error, "") from None
            waiting.append((seat, started))
        for seat, started in waiting:
            player = self.players[seat]
            try:
                player.handshake(self.spec.game, len(self.players), started)
            except BotStartupError as error:
                raise _fault(seat, player, error, "") from None

    # Step 2: each seat learns the game, its seat and its limits.
    def announce(self) -> None:
        for seat, player in enumerate(self.players):
            limits = player.limits
            message = protocol.new_game(
                self.spec.game_id,
                seat,
                len(self.players),
                self.config,
                limits.move_ms,
                limits.time_bank_ms,
            )
            try:
                player.send(message, time.monotonic() + limits.move_ms / 1000)
            except BotFaultError as error:
                raise _fault(seat, player, error, "at the start of the game") from None

    # Step 3, repeated: one decision, asked of the seat that must decide.
    def decide(self, seat: int, kind: str) -> None:
        state, player = self.state, self.players[seat]
        move_ms = player.limits.move_ms
        allowed_ms = move_ms + int(self.bank_ms[seat])
        actions = state.legal_actions()
        self.requests += 1
        data = protocol.encode_decide(
            self.spec.game_id,
            self.requests,
            kind,
            state.view_json(seat),
            self.codec.moves_json(state, actions),
            allowed_ms,
            player.extra_fields,
        )
        sent = time.monotonic()
        try:
            line = player.request(data, sent + allowed_ms / 1000)
        except BotTimeoutError as error:
            raise _fault(seat, player, _timed_out(error, allowed_ms), self._when(kind)) from None
        except BotFaultError as error:
            raise _fault(seat, player, error, self._when(kind)) from None
        think_ms = (time.monotonic() - sent) * 1000
        self.think_ms[seat] += think_ms
        self.decisions[seat] += 1
        if think_ms > move_ms:
            self.bank_ms[seat] -= think_ms - move_ms
            if self.bank_ms[seat] < 0:
                late = _timed_out(BotTimeoutError("the reply came too late."), allowed_ms)
                raise _fault(seat, player, late, self._when(kind), line)
        try:
            action = protocol.parse_move(line, state, actions)
        except (MalformedReplyError, GameError) as error:
            raise _fault(seat, player, error, self._when(kind), line) from None
        move = self.codec.move(state, action)
        state.apply_action(action)
        self.moves.append(
            {"seat": seat, "kind": kind, "move": move, "think_ms": round(think_ms, 3)}
        )

    def _when(self, kind: str) -> str:
        return f"at turn {self.state.turn} ({kind} decision, request {self.requests})"

    # Step 4: each bot still in good standing hears the result.
    def tell_result(self, outcome: Outcome, faulty: int | None) -> None:
        result = outcome.to_json()
        for seat, player in enumerate(self.players):
            if seat == faulty or not player.running:
                continue
            message = protocol.game_over(self.spec.game_id, seat, result)
            try:
                player.send(message, time.monotonic() + player.limits.move_ms / 1000)
            except BotFaultError:
                player.kill()  # the result stands; the bot restarts next game


_CODECS: dict[str, protocol.MoveCodec] = {}


def _codec(game: str) -> protocol.MoveCodec:
    """One move codec per game name, shared by every game played in this process."""
    codec = _CODECS.get(game)
    if codec is None:
        codec = _CODECS[game] = protocol.MoveCodec()
    return codec


def _timed_out(error: BotTimeoutError, allowed_ms: int) -> BotTimeoutError:
    return BotTimeoutError(f"no complete reply within {allowed_ms} ms: {error}")


def fault_outcome(state: GameState, seat: int, termination: Termination, reason: str) -> Outcome:
    """The result of a game a bot ended: the scores on the table, the faulty seat last.

    The other seats are ranked by their scores as the position stands (equal scores share a
    rank); the faulty seat is ranked behind all of them, whatever its score.
    """
    scores = state.scores()
    others = [score for s, score in enumerate(scores) if s != seat]
    return Outcome(
        scores=scores,
        ranks=tuple(
            len(others) if s == seat else sum(1 for other in others if other > score)
            for s, score in enumerate(scores)
        ),
        termination=termination,
        reason=reason,
        faulty_seat=seat,
    )


def play_game(spec: GameSpec, players: Sequence[Player]) -> GameReport:
    """Play one game; a bot's fault ends it (never raises for a bot's fault)."""
    if len({id(player) for player in players}) != len(players):
        raise ValueError("Each seat needs its own Player (make two Players for self-play).")
    started = time.monotonic()
    game = _Game(spec, players)
    fault: _SeatFault | None = None
    try:
        game.start_players()
        game.announce()
        while (decision := game.state.decision()) is not None:
            game.decide(decision.seat, decision.kind)
        outcome = game.state.outcome()
    except _SeatFault as error:
        fault = error
        players[error.seat].kill()  # never trust its next line: a fresh process next game
        outcome = fault_outcome(game.state, error.seat, error.termination, error.reason)
    game.tell_result(outcome, None if fault is None else fault.seat)
    return GameReport(
        spec=spec,
        config=game.config,
        players=[player.name for player in players],
        outcome=outcome,
        moves=game.moves,
        think_ms=game.think_ms,
        decisions=game.decisions,
        turns=game.state.turn,
        duration_s=time.monotonic() - started,
        fault=None if fault is None else _fault_entry(fault),
    )


def _fault_entry(fault: _SeatFault) -> dict[str, Any]:
    reply = fault.reply.decode("utf-8", "replace")
    return {
        "seat": fault.seat,
        "termination": fault.termination.value,
        "reply": reply if len(reply) <= 200 else reply[:200] + "...",
    }
