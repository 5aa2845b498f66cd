"""The referee: plays one game between bot processes and returns what happened, with a reason.

It knows the game only through the generic `GameState` interface and the bots only through
`Player` (arena/players/player.py). A bot's fault never raises out of `play_game`: it ends the game with a
`Termination`, a sentence, and that bot last; the bot is killed and restarted next game.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
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
from arena.game_sources import get_game
from arena.games import DEFAULT_GAME, GameState
from arena.outcome import Outcome, Termination
from arena.players.player import Player
from arena.record import RECORD_VERSION


@dataclass(frozen=True)
class GameSpec:
    """Which game to play: the deal is a function of (game, config, seed) alone."""

    game_id: str
    """A name unique in its tournament, sent to bots and used for the record's file name."""
    seed: int
    """The seed of the deal; a seat-swapped pair of games shares it."""
    game: str = DEFAULT_GAME
    """The game's name in the registry."""
    config: Mapping[str, Any] = field(default_factory=dict)
    """Overrides of the game's default configuration (e.g. {"turn_limit": 1000})."""


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
    cpu_ms: list[float | None] = field(default_factory=list)
    """CPU time each seat's bot used during the game (its cgroup's), None where unknown."""
    move_ms: list[int] = field(default_factory=list)
    """Each seat's time per decision (the `time_ms` of its requests, unless a bank added)."""
    unanswered: dict[str, Any] | None = None
    """For a bot's fault in a decision: its seat, kind, the request it was sent, the reason."""

    def record(self) -> dict[str, Any]:
        """The JSON game record (bots/README.md, "Game records")."""
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
        if self.move_ms:
            record["move_ms"] = self.move_ms
        if self.fault is not None:
            record["fault"] = self.fault
        if self.unanswered is not None:
            record["unanswered"] = self.unanswered
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
    if isinstance(error, BotFaultError) and player.out_of_memory():
        error = _out_of_memory(player, f" ({error})")
    for kind, termination, verb in _TERMINATIONS:
        if isinstance(error, kind):
            text = player.explain(error) if isinstance(error, BotFaultError) else str(error)
            reason = f"Seat {seat} ({player.name}) {verb}{' ' + when if when else ''}: {text}"
            return _SeatFault(seat, termination, reason, reply)
    raise error


def _out_of_memory(player: Player, detail: str = "") -> BotCrashError:
    limit = player.limits.sandbox.memory_mb
    return BotCrashError(
        f"out of memory: its processes passed the memory limit of {limit} MiB and the kernel "
        f"killed one{detail}."
    )


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
        self.reply_ids = protocol.ReplyIds()
        self.codec = _codec(spec.game)
        self.pending: dict[str, Any] | None = None
        """The decision asked and not yet answered: seat, kind, request (the line sent)."""

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
                self.spec.game,
                self.spec.game_id,
                seat,
                len(self.players),
                self.config,
                limits.move_ms,
                limits.time_bank_ms,
                protocol.bot_seed(self.spec.seed, self.spec.game_id, seat),
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
        reply_id = self.reply_ids.next()
        data = protocol.encode_request(
            state, seat, kind, actions, self.codec,
            self.spec.game_id, self.requests, allowed_ms, reply_id, player.extra_fields,
        )  # fmt: skip
        self.pending = {"seat": seat, "kind": kind, "request": data.decode().rstrip("\n")}
        cpu_limit = player.limits.cpu_ms
        cpu_before = None if cpu_limit is None else player.cpu_usec()
        player.log.begin_decision(self.spec.game_id, self.requests)
        sent = time.monotonic()
        try:
            line = player.request(data, sent + allowed_ms / 1000)
        except BotTimeoutError as error:
            late = _late_reply(player, sent, allowed_ms)
            raise _fault(
                seat, player, late or _timed_out(error, allowed_ms), self._when(kind)
            ) from None
        except BotFaultError as error:
            raise _fault(seat, player, error, self._when(kind)) from None
        think_ms = (time.monotonic() - sent) * 1000
        if cpu_limit is not None and cpu_before is not None:
            cpu_after = player.cpu_usec()
            used_ms = 0.0 if cpu_after is None else (cpu_after - cpu_before) / 1000
            if used_ms > cpu_limit:
                over = BotTimeoutError(
                    f"it used {used_ms:,.0f} ms of CPU time; the limit is {cpu_limit:,} ms."
                )
                raise _fault(seat, player, over, self._when(kind), line)
        self.think_ms[seat] += think_ms
        self.decisions[seat] += 1
        if think_ms > move_ms:
            self.bank_ms[seat] -= think_ms - move_ms
            if self.bank_ms[seat] < 0:
                late = _timed_out(BotTimeoutError("the reply came too late."), allowed_ms)
                raise _fault(seat, player, late, self._when(kind), line)
        try:
            action = protocol.parse_move(line, state, actions, reply_id)
        except (MalformedReplyError, GameError) as error:
            raise _fault(seat, player, error, self._when(kind), line) from None
        move = self.codec.move(state, action)
        state.apply_action(action)
        self.pending = None
        entry = {"seat": seat, "kind": kind, "move": move, "think_ms": round(think_ms, 3)}
        entry["id"] = reply_id  # so `arena replay --at N --json` rebuilds the very line
        if allowed_ms != move_ms:
            entry["time_ms"] = allowed_ms  # the request's time_ms, when a bank added to it
        if b'"comment"' in line and (comment := protocol.reply_comment(line)):
            entry["comment"] = comment
        self.moves.append(entry)

    def attach_stderr(self) -> None:
        """Give each move the stderr its bot wrote during that decision (request = index + 1)."""
        for seat, player in enumerate(self.players):
            for request, text in player.log.take_decisions(self.spec.game_id).items():
                if 0 < request <= len(self.moves) and self.moves[request - 1]["seat"] == seat:
                    self.moves[request - 1]["stderr"] = text

    def _when(self, kind: str) -> str:
        return f"at turn {self.state.turn} ({kind} decision, request {self.requests})"

    # Step 4: a bot whose processes passed their memory limit (a child the kernel killed,
    # unseen by the referee) loses the game all the same.
    def check_memory(self) -> None:
        for seat, player in enumerate(self.players):
            if player.out_of_memory():
                raise _fault(seat, player, _out_of_memory(player), "during the game")

    # Step 5: each bot still in good standing hears the result.
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
        codec = _CODECS[game] = protocol.MoveCodec(cached=get_game(game).stable_action_codes)
    return codec


LATE_GRACE_S = 1.0
"""After a timeout, how long the referee still listens, to tell a slow bot from a silent one."""


def _late_reply(player: Player, sent: float, allowed_ms: int) -> BotTimeoutError | None:
    """A timeout that says when the reply came, if it comes within LATE_GRACE_S after all
    (the game is lost either way); None when the bot stays silent."""
    if player.process is None:
        return None
    try:
        player.read_late(time.monotonic() + min(LATE_GRACE_S, allowed_ms / 1000))
    except BotFaultError:
        return None
    took = (time.monotonic() - sent) * 1000
    return BotTimeoutError(f"it answered after {took:,.0f} ms; the limit was {allowed_ms:,} ms.")


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
    cpu_before: list[int | None] = [None] * len(players)
    try:
        game.start_players()
        cpu_before = [player.cpu_usec() for player in players]
        game.announce()
        while (decision := game.state.decision()) is not None:
            game.decide(decision.seat, decision.kind)
        game.check_memory()
        outcome = game.state.outcome()
    except _SeatFault as error:
        fault = error
        players[error.seat].kill()  # never trust its next line: a fresh process next game
        outcome = fault_outcome(game.state, error.seat, error.termination, error.reason)
    cpu_after = [player.cpu_usec() for player in players]
    game.tell_result(outcome, None if fault is None else fault.seat)
    game.attach_stderr()
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
        cpu_ms=_cpu_ms(cpu_before, cpu_after),
        move_ms=[player.limits.move_ms for player in players],
        unanswered=_unanswered(game.pending, fault),
    )


def _cpu_ms(before: Sequence[int | None], after: Sequence[int | None]) -> list[float | None]:
    return [
        None if a is None or b is None or b < a else round((b - a) / 1000, 3)
        for a, b in zip(before, after, strict=True)
    ]


def _unanswered(pending: dict[str, Any] | None, fault: _SeatFault | None) -> dict[str, Any] | None:
    """The request the faulty seat did not answer (for the record), None after a clean game."""
    if pending is None or fault is None or pending["seat"] != fault.seat:
        return None
    return {**pending, "reason": fault.termination.value}


def _fault_entry(fault: _SeatFault) -> dict[str, Any]:
    reply = fault.reply.decode("utf-8", "replace")
    return {
        "seat": fault.seat,
        "termination": fault.termination.value,
        "reply": reply if len(reply) <= 200 else reply[:200] + "...",
    }
