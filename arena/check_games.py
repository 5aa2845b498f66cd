"""A check's games (`arena check`): from positions where the bot is asked a kind of decision
it has not met, and played again when the machine or the opponent is at fault.

A check judges what the bot controls (issue 32). A game the bot lost by a late reply whose
CPU time (its cgroup's) was within the limit, or where the CPU time cannot be measured, may
be the busy machine's fault: with `retries`, it is played again after a pause (doubled each
time) before the bot fails (`_play_fairly`, `_fault_of`). A game the opponent lost (crashed,
late) never fails the bot: it is played again.

A check checks the bot, not its opponents (issue 33): each kind of decision the game asks at
the configuration checked must come to the bot under test. For each kind the bot has not
met, `_positions` finds a position where it arises (games played at random in this process),
and a game is played from there: the check makes the first decisions of every seat (its
`_Prelude`), then the bot decides in the seat that position asks, and the game goes on as
any other. A kind that arose in none of `SEARCH_GAMES` games at random does not arise at
this configuration (Takenoko's Chibis kinds in the base game).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.atomic import atomic_file
from arena.game_sources import get_game
from arena.outcome import Termination
from arena.players.player import Player
from arena.referee import GameReport, GameSpec, play_game

SEARCH_GAMES = 50
"""Games played at random (in this process, no bot) to find a position where each kind of
decision the bot has not met arises; about a second for Takenoko."""
SEARCH_DECISIONS = 200_000
"""The most decisions those games make in all (fewer games for a game of long ones)."""
RETRY_PAUSE_S = 2.0
"""The pause before a game is played again for the machine's or the opponent's fault,
doubled at each further try (2, 4, 8 s: a burst of load passes)."""


@dataclass(frozen=True)
class _Table:
    """The game the check plays, and the kinds of decision the bot must meet."""

    kinds: tuple[str, ...]
    game: str
    config: dict[str, Any]
    seats: int
    retries: int = 0
    retry_pause_s: float = RETRY_PAUSE_S


class _Prelude:
    """The first decisions of a check game, made by the check for every seat so that the
    game reaches a position where a kind of decision arises: indices into each request's
    legal moves, found by `_positions`."""

    def __init__(self, kind: str, seat: int, seed: int, choices: Sequence[int]) -> None:
        self.kind = kind
        self.seat = seat
        self.seed = seed
        self.choices = tuple(choices)
        self.made = 0

    def words(self) -> str:
        """Where it leads, in words: 'seat 2 is asked for a cabin decision'."""
        return f"seat {self.seat} is asked for a {self.kind} decision"

    def reply(self, data: bytes) -> bytes | None:
        """The check's reply to the request `data`, None once the prelude is over."""
        if self.made >= len(self.choices):
            return None
        choice = self.choices[self.made]
        self.made += 1
        reply_id = json.loads(data)["id"]
        return json.dumps({"move": choice, "id": reply_id}).encode()


class _Seat(Player):
    """A seat of a check game: its bot answers each request, except those of the prelude."""

    prelude: _Prelude | None = None

    def request(self, data: bytes, deadline: float) -> bytes:
        line = None if self.prelude is None else self.prelude.reply(data)
        return super().request(data, deadline) if line is None else line


class _ClockedPlayer(_Seat):
    """The bot under test, with its latest decision's time, CPU time (its cgroup's; None when
    not measured) and time waiting for a CPU (run_queue.py; None when not measured): up to
    the reply, or to the deadline when none came."""

    decision_ms: float = 0.0
    decision_cpu_ms: float | None = None
    decision_waited_ms: float | None = None
    _began: tuple[int | None, int | None, float] = (None, None, 0.0)

    def request(self, data: bytes, deadline: float) -> bytes:
        if self.prelude is not None and (line := self.prelude.reply(data)) is not None:
            return line
        self._began = (self.cpu_usec(), self.waited_usec(), time.monotonic())
        try:
            return super().request(data, deadline)
        finally:
            self._clock()

    def read_late(self, deadline: float) -> bytes:
        """The late reply, awaited up to LATE_LISTEN_S after the request (the referee's own
        grace is shorter), the decision's clocks read again once it came: its CPU time is then
        the whole decision's (a bot kept from a CPU had used little of it at the deadline,
        whatever it needed), and a wait for a CPU counts once it is over."""
        try:
            return super().read_late(max(deadline, self._began[2] + LATE_LISTEN_S))
        finally:
            self._clock()

    def _clock(self) -> None:
        before, waited, start = self._began
        self.decision_ms = (time.monotonic() - start) * 1000
        self.decision_cpu_ms = _spent(before, self.cpu_usec())
        self.decision_waited_ms = _spent(waited, self.waited_usec())


def _spent(before: int | None, after: int | None) -> float | None:
    """The ms between two readings in µs, or None when either is missing."""
    return None if before is None or after is None else (after - before) / 1000


def _positions(table: _Table, wanted: Sequence[str], seed: int) -> tuple[dict[str, _Prelude], int]:
    """For each kind in `wanted`, a position where it arises: the deal's seed, the seat
    asked and the decisions that reach it, found in up to `SEARCH_GAMES` games played at
    random in this process (none for a kind that arose in none of them); and how many
    decisions those games made."""
    rules = get_game(table.game)
    config = rules.config(table.config)
    found: dict[str, _Prelude] = {}
    made = 0
    for n in range(SEARCH_GAMES):
        state = rules.new_state(seed + n, config, num_players=table.seats)
        chooser = random.Random(seed + n)
        choices: list[int] = []
        while (decision := state.decision()) is not None:
            if decision.kind in wanted and decision.kind not in found:
                found[decision.kind] = _Prelude(decision.kind, decision.seat, seed + n, choices)
                if len(found) == len(wanted):
                    return found, made
            if made >= SEARCH_DECISIONS:
                return found, made
            actions = state.legal_actions()
            choices.append(chooser.randrange(len(actions)))
            state.apply_action(actions[choices[-1]])
            made += 1
    return found, made


_BOT, _MACHINE, _OPPONENT, _STARVED = "bot", "machine", "opponent", "starved"
LATE_LISTEN_S = 3.0
"""How long after a request a check still listens for its late reply, to weigh the whole
decision (the game is lost either way)."""
RUNNABLE_SHARE = 0.75
"""A late decision during which the bot ran or waited for a CPU (run_queue.py) at least this
share of the time was slowed by the machine, not the bot: a bot that sleeps or reads leaves
gaps (measured here at load 10: under 0.54 for a sleeper; 0.88 to 0.99 for a bot kept from
a CPU, less where it still waited when the referee stopped listening, since a wait counts
once it is over)."""
"""Whose fault a check game's early end was (`_fault_of`)."""


def _play_fairly(
    player: _ClockedPlayer,
    by_seat: Sequence[_Seat],
    table: _Table,
    index: int,
    seed: int,
    out_dir: Path,
    prelude: _Prelude | None = None,
) -> tuple[GameReport, Path, str | None, list[str]]:
    """Check game `index`, played again (after a pause) while the machine or the opponent
    may have spoilt it, at most `table.retries` times: its last report, its record's path,
    whose fault its end was (None: it finished) and what spoilt each earlier try. With a
    `prelude`, the game is its deal, and the check makes its first decisions; the record
    says how many (`check.prelude`)."""
    seat = by_seat.index(player)
    spoilt: list[str] = []
    while True:
        tries = len(spoilt) + 1
        spec = GameSpec(
            game_id=f"check-{index + 1:03d}" + (f"-try{tries}" if tries > 1 else ""),
            seed=seed + index // table.seats if prelude is None else prelude.seed,
            game=table.game,
            config=table.config,
        )
        for each in by_seat:
            each.prelude = prelude
        if prelude is not None:
            prelude.made = 0
        try:
            report = play_game(spec, by_seat)
        finally:
            for each in by_seat:
                each.prelude = None
        record = report.record()
        if prelude is not None:
            record["check"] = {
                "prelude": len(prelude.choices),
                "note": f"the check made the first {len(prelude.choices)} decisions (at "
                f"random) to reach a position where {prelude.words()}",
            }
        path = out_dir / f"{spec.game_id}.json"
        with atomic_file(path) as file:  # a reader (the league's check page) sees it whole
            file.write(json.dumps(record, indent=1).encode("utf-8"))
        fault = _fault_of(report, seat, player)
        if fault == _MACHINE and tries > table.retries and _starved(player):
            return report, path, _STARVED, spoilt
        if fault in (None, _BOT) or tries > table.retries:
            return report, path, fault, spoilt
        used = player.decision_cpu_ms
        late = "its CPU time not measured" if used is None else f"{used:,.0f} ms of CPU time"
        spoilt.append("the opponent failed" if fault == _OPPONENT else f"a late reply ({late})")
        time.sleep(table.retry_pause_s * 2 ** (tries - 1))


def _fault_of(report: GameReport, seat: int, player: _ClockedPlayer) -> str | None:
    """Whose fault the game's early end was: the opponent's (any other seat), the machine's
    (the bot was late, but its CPU time for that decision was within the limit, or could
    not be measured), else the bot's; None when the game finished."""
    faulty = report.outcome.faulty_seat
    if faulty is None:
        return None
    if faulty != seat:
        return _OPPONENT
    if report.outcome.termination != Termination.TIMEOUT:
        return _BOT
    used = player.decision_cpu_ms
    return _MACHINE if used is None or used <= _cpu_limit(player) else _BOT


def _starved(player: _ClockedPlayer) -> bool:
    """True when the bot's late decision was all running and waiting for a CPU (a bot that
    sleeps or reads does neither meanwhile): not the bot's fault."""
    waited, used = player.decision_waited_ms, player.decision_cpu_ms
    if waited is None:
        return False
    return waited + (used or 0.0) >= RUNNABLE_SHARE * player.decision_ms


def starved_text(player: _ClockedPlayer) -> str:
    """How long the late decision waited for a CPU, in words."""
    return (
        f"in its last late decision it waited {player.decision_waited_ms or 0:,.0f} ms of "
        f"{player.decision_ms:,.0f} for a CPU and ran {player.decision_cpu_ms or 0:,.0f} ms"
    )


def _cpu_limit(player: Player) -> int:
    """The CPU time a decision may use: --cpu-limit-ms, else the time limit itself."""
    limits = player.limits
    return limits.cpu_ms if limits.cpu_ms is not None else limits.move_ms


def _cpu_text(player: _ClockedPlayer) -> str:
    used = player.decision_cpu_ms
    if used is None:
        return "its CPU time not measured here"
    return f"{used:,.0f} ms of CPU time for that decision (the limit is {_cpu_limit(player):,} ms)"
