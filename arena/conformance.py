"""The conformance check a bot author runs before a tournament (`arena check BOT`).

Each step is one `CheckResult`: what was checked, whether it passed, what was seen, and
for a failure exactly what to fix. The games carry unknown fields in every message, and an
unknown message type is sent, because bots must ignore both (protocol version 2).

A check judges what the bot controls (issue 32): a game the machine may have spoilt (a late
reply within the CPU limit) is played again with `retries` before the bot fails, and the
step says so; a game the opponent lost never fails the bot: it is played again, and after
`retries` it is not counted. A check checks the bot, not its opponents (issue 33): after the
requested games, a game is played from a position for each kind of decision the bot has not
met (how both are done: `arena.check_games`); a kind found but never brought to the bot (its
opponent failed) leaves the check incomplete, a failure.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.check_games import (
    _MACHINE,
    _OPPONENT,
    _STARVED,
    RETRY_PAUSE_S,
    _ClockedPlayer,
    _cpu_limit,
    _cpu_text,
    _play_fairly,
    _positions,
    _Prelude,
    _Seat,
    _Table,
    starved_text,
)
from arena.errors import BotFaultError, BotTimeoutError
from arena.game_sources import get_game
from arena.games import DEFAULT_GAME
from arena.outcome import Termination
from arena.players.limits import Limits
from arena.players.manifest import BotManifest
from arena.players.player import Player
from arena.players.ready import make_ready
from arena.referee import GameReport
from arena.schedule import seatings

PASS, WARN, FAIL = "PASS", "WARN", "FAIL"
UNKNOWN_FIELDS = {"x_check": {"note": "an unknown field: bots must ignore it", "n": [1, 2]}}
UNKNOWN_MESSAGE = {"type": "x_check_unknown", "note": "an unknown message type: ignore it"}
QUIET_MS = 300
"""How long the bot is watched for a (wrong) answer to the unknown message."""
MAX_EXTRA_GAMES = 20
"""Games played beyond the requested ones while some were not counted (the opponent's fault)."""

_FIXES = {
    Termination.TIMEOUT: "answer every decide within its time_ms, and flush stdout after "
    "each line (see the bot's stderr log for what it was doing)",
    Termination.CRASH: "read the bot's stderr log for the error; the bot must keep running "
    "until goodbye or the end of its input",
    Termination.ILLEGAL_MOVE: "choose one of legal_moves; the simplest is to reply with its index",
    Termination.MALFORMED_REPLY: "reply to each decide with exactly one line such as "
    '{"move": 0, "id": "<the request\'s id>"}',
    Termination.OVERSIZED_OUTPUT: "write short lines; a reply needs only the move",
    Termination.STARTUP_FAILURE: "run the bot's command by hand in its folder and fix the "
    'error; it must answer {"type": "hello"} with {"type": "hello", "name": ...}',
}


@dataclass(frozen=True)
class CheckResult:
    """One step of the check."""

    name: str
    status: str
    """PASS, WARN (allowed, but worth a look) or FAIL."""
    detail: str
    fix: str = ""
    note: str = ""
    """What the check did beyond its plan: games played again or not counted, and why."""
    incomplete: bool = False
    """A failure that is not the bot's: a kind of decision never came to it."""

    @property
    def failed(self) -> bool:
        return self.status == FAIL


def check_bot(
    bot: BotManifest,
    opponent: BotManifest,
    limits: Limits,
    out_dir: Path,
    games: int = 4,
    seed: int = 1,
    on_result: Callable[[CheckResult], None] | None = None,
    *,
    game: str = DEFAULT_GAME,
    game_config: Mapping[str, Any] | None = None,
    seats: int = 2,
    retries: int = 0,
    retry_pause_s: float = RETRY_PAUSE_S,
) -> list[CheckResult]:
    """Run every step against `opponent` (in every other seat); stops at the first failure
    that makes later steps moot. `retries`: times a game is played again when the machine
    may be the cause of a late reply, or the opponent failed (module docstring).

    Raises BotBuildError when the opponent cannot be built, OSError when `out_dir` cannot be
    written.
    """
    results: list[CheckResult] = []
    table = _Table(
        get_game(game).decision_kinds, game, dict(game_config or {}), seats, retries, retry_pause_s
    )

    def report(result: CheckResult) -> bool:
        results.append(result)
        if on_result is not None:
            on_result(result)
        return not result.failed

    if not report(_check_build(bot)):
        return results
    make_ready(opponent)  # the opponent's problem (BotBuildError...), not a step of this check
    out_dir.mkdir(parents=True, exist_ok=True)
    limits = limits.hiding(out_dir, bot.folder, opponent.folder)  # records, logs, each other
    player = _ClockedPlayer(bot, limits, out_dir / "logs", extra_fields=UNKNOWN_FIELDS)
    others = [
        _Seat(opponent, limits, out_dir / "logs", log_name=f"opponent{n}-{opponent.name}")
        for n in range(1, seats)
    ]
    try:
        if not report(_check_handshake(player, table)):
            return results
        if not report(_check_unknown_message(player)):
            return results
        reports, game_result = _check_games(player, others, table, games, seed, out_dir)
        if not report(game_result):
            return results
        report(_check_timing(reports, player, limits))
        player.close()
        report(_check_goodbye(player, limits))
    finally:
        player.close()
        for other in others:
            other.close()
    return results


def _check_build(bot: BotManifest) -> CheckResult:
    shown = " ".join(bot.command)
    if bot.build is None:
        try:
            make_ready(bot)  # its toolchain and its program, found
        except Exception as error:  # BotManifestError, BotBuildError
            return CheckResult("manifest", FAIL, str(error), f"fix {bot.manifest_path}")
        return CheckResult("manifest", PASS, f"{bot.manifest_path}: runs `{shown}`")
    try:
        make_ready(bot, force_build=True)
    except Exception as error:  # BotBuildError, or anything the build command did
        return CheckResult("build", FAIL, str(error), f"fix the build of {bot.manifest_path}")
    return CheckResult("build", PASS, f"`{' '.join(bot.build)}` succeeded; runs `{shown}`")


def _check_handshake(player: Player, table: _Table) -> CheckResult:
    started = time.monotonic()
    try:
        player.ensure_started(table.game, table.seats)
    except BotFaultError as error:
        return CheckResult(
            "handshake", FAIL, str(error), _FIXES[Termination.STARTUP_FAILURE] + _log(player)
        )
    took = (time.monotonic() - started) * 1000
    hello = player.hello
    said = "" if hello is None else f" (name {hello.name!r}, version {hello.version!r})"
    status = PASS if took < player.limits.startup_ms / 2 else WARN
    return CheckResult("handshake", status, f"answered hello in {took:.0f} ms{said}")


def _check_unknown_message(player: Player) -> CheckResult:
    process = player.process
    assert process is not None
    fix = "ignore messages whose type you do not know, and unknown fields in every message"
    try:
        player.send(dict(UNKNOWN_MESSAGE), time.monotonic() + 1)
        line = process.read_line(time.monotonic() + QUIET_MS / 1000)
    except BotTimeoutError:
        return CheckResult("unknown message", PASS, "ignored a message of an unknown type")
    except BotFaultError as error:
        player.kill()
        return CheckResult(
            "unknown message",
            FAIL,
            f"after a message of an unknown type, {player.explain(error)}",
            fix,
        )
    player.kill()  # it is out of step now; the games start a fresh process
    shown = line.decode("utf-8", "replace")[:80]
    return CheckResult(
        "unknown message", FAIL, f"it answered a message of an unknown type with {shown!r}", fix
    )


def _check_games(
    player: _ClockedPlayer,
    others: list[_Seat],
    table: _Table,
    games: int,
    seed: int,
    out_dir: Path,
) -> tuple[list[tuple[int, GameReport]], CheckResult]:
    """Games with the seats rotated on each deal until `games` are counted (at most
    `MAX_EXTRA_GAMES` more played), then one from a position for each kind of decision the
    bot has not met (module docstring). A game the machine or the opponent may have spoilt
    is played again (`_play_fairly`); one the opponent spoilt every time is not counted."""
    run = _CheckGames(player, seatings([player, *others]), table, seed, out_dir)
    while run.counted < games and run.index < games + MAX_EXTRA_GAMES:
        if failed := run.play(run.rotations[run.index % table.seats], None):
            return run.reports, failed
    found: dict[str, _Prelude] = {}
    searched = 0
    if run.counted and run.missing():
        found, searched = _positions(table, run.missing(), seed + games)
    reached: list[str] = []
    for kind, prelude in found.items():
        if run.kinds[kind]:  # an earlier game from a position brought it too
            continue
        before = run.counted
        if failed := run.play(run.rotations[(table.seats - prelude.seat) % table.seats], prelude):
            return run.reports, failed
        if run.counted > before:
            reached.append(kind)
    return run.reports, run.result(found, searched, reached)


@dataclass
class _CheckGames:
    """The games of a check so far: the bot's reports (with its seat), the kinds of decision
    it met, what the check did beyond its plan (`notes`), games played and counted."""

    player: _ClockedPlayer
    rotations: list[tuple[_Seat, ...]]
    table: _Table
    seed: int
    out_dir: Path
    reports: list[tuple[int, GameReport]] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)
    index: int = 0
    counted: int = 0

    def missing(self) -> list[str]:
        return [kind for kind in self.table.kinds if not self.kinds[kind]]

    def play(self, by_seat: Sequence[_Seat], prelude: _Prelude | None) -> CheckResult | None:
        """One check game, counted or noted; the failure it makes the bot's, if any."""
        player = self.player
        seat = by_seat.index(player)
        report, path, fault, spoilt = _play_fairly(
            player, by_seat, self.table, self.index, self.seed, self.out_dir, prelude
        )
        self.index += 1
        index, tries = self.index, len(spoilt) + 1
        if fault == _OPPONENT:
            each = f" in each of its {tries} tries" if tries > 1 else ""
            self.notes.append(
                f"game {index} was not counted: the opponent failed{each} "
                f"({report.outcome.reason.rstrip('.')})"
            )
            return None
        if spoilt:
            note = f"game {index} was played again after {', '.join(spoilt)}"
            if any(text.startswith("a late reply") for text in spoilt):
                note += f": within the {_cpu_limit(player):,} ms limit, so the machine was busy"
            self.notes.append(note)
        if fault == _STARVED:  # late in every try, kept from a CPU: the machine was busy
            self.notes.append(
                f"game {index} was not counted: the bot was late in each of its {tries} tries "
                f"and {starved_text(player)}: the machine was busy, not the bot"
            )
            return None
        if fault is not None:
            return self.failure(report, path, fault, tries, prelude)
        if prelude is not None:  # the decisions the check made are not the bot's
            report = dataclasses.replace(report, moves=report.moves[len(prelude.choices) :])
        self.reports.append((seat, report))
        self.kinds.update(move["kind"] for move in report.moves if move["seat"] == seat)
        self.counted += 1
        return None

    def failure(
        self, report: GameReport, path: Path, fault: str, tries: int, prelude: _Prelude | None
    ) -> CheckResult:
        """The games step failed by the bot's fault in game `index`."""
        outcome = report.outcome
        where = "" if prelude is None else f", from a position where {prelude.words()}"
        said = f"game {self.index} ({path}{where}): {outcome.reason}"
        if fault == _MACHINE and tries > 1:
            said = said.rstrip(".") + (
                f"; late in each of its {tries} tries, with "
                f"{_cpu_text(self.player)}: the bot waits for something, or the machine "
                "was busy throughout"
            )
        fix = _FIXES[outcome.termination] + _log(self.player)
        return CheckResult("games", FAIL, said, fix, "; ".join(self.notes))

    def result(self, found: dict[str, _Prelude], searched: int, reached: list[str]) -> CheckResult:
        """The games step once every game is played: what the bot was asked, and what not."""
        note = "; ".join(self.notes)
        if not self.counted:
            return CheckResult(
                "opponent",
                FAIL,
                f"the bot could not be checked, through no fault of its own: {note}",
                "submit it again later (its opponent, the arena's own bot, failed, or the machine "
                "was busy)",
                note,
            )
        played = ", ".join(f"{count} {kind}" for kind, count in sorted(self.kinds.items()))
        from_positions = ""
        if reached:
            games_word = "1 of them" if len(reached) == 1 else f"{len(reached)} of them"
            where = " or ".join(f"a {kind}" for kind in reached)
            from_positions = (
                f" ({games_word} from a position where {where} decision arises, reached by the "
                "check's own random moves)"
            )
        detail = (
            f"{self.counted} game{'s' if self.counted > 1 else ''} played{from_positions}, every message carrying extra fields a bot "
            f"must ignore: {played} decisions, all legal"
        )
        if note:
            detail += f"; {note}"
        absent = [kind for kind in self.missing() if kind not in found]
        if absent:
            detail += (
                f"; {_and(absent)} decisions never arose in {searched:,} decisions played at "
                "random at this configuration, so none was asked of the bot"
            )
        unmet = [kind for kind in self.missing() if kind in found]
        if unmet:
            detail = f"incomplete: no {' or '.join(unmet)} decision came to the bot; {detail}"
            fix = "run the check again: the opponent failed in the game from that position"
            return CheckResult("games", FAIL, detail, fix, note, incomplete=True)
        return CheckResult("games", WARN if note else PASS, detail, "", note)


def _and(words: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _check_timing(
    reports: list[tuple[int, GameReport]], player: Player, limits: Limits
) -> CheckResult:
    times = [
        move["think_ms"]
        for seat, report in reports
        for move in report.moves
        if move["seat"] == seat
    ]
    if not times:
        return CheckResult("timing", WARN, "no decisions were timed")
    slowest, mean = max(times), sum(times) / len(times)
    p95 = sorted(times)[max(0, math.ceil(0.95 * len(times)) - 1)]
    cpu = [report.cpu_ms[seat] for seat, report in reports if seat < len(report.cpu_ms)]
    cpu_text = ""
    if cpu and all(ms is not None for ms in cpu):
        cpu_text = f", {sum(ms or 0.0 for ms in cpu) / len(times):.2f} ms of CPU"
    detail = (
        f"{mean:.2f} ms per decision on average{cpu_text}, p95 {p95:.2f} ms, "
        f"slowest {slowest:.1f} ms "
        f"(limit {limits.move_ms} ms)"
    )
    if slowest > limits.move_ms / 2:
        return CheckResult(
            "timing", WARN, detail, "the slowest reply used over half the limit; leave a margin"
        )
    return CheckResult("timing", PASS, detail)


def _check_goodbye(player: Player, limits: Limits) -> CheckResult:
    if player.last_exit_clean:
        return CheckResult("goodbye", PASS, f"exited within {limits.grace_ms} ms of goodbye")
    return CheckResult(
        "goodbye",
        FAIL,
        f"it was still running {limits.grace_ms} ms after goodbye, so it was killed",
        'exit when you read {"type": "goodbye"} (and when stdin ends)',
    )


def _log(player: Player) -> str:
    path = player.log.path
    return f"; its stderr log is {path}" if path is not None else ""
