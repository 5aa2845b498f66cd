"""A new version of a bot is a candidate: an SPRT against its previous version decides it.

The test is the arena's (`stats.sprt`, fastchess's GSPRT), H0: the new version is `elo0`
nElo stronger than the previous one, H1: `elo1`, alpha = beta = 5%. Its evidence is the
league's games where both versions sat at the same table, from the new version's side: at
2 seats the deal's two games with the seats swapped make one pentanomial pair (the
statistic fastchess recommends); at more seats each game is a win, draw or loss by which of
the two ranked better (trinomial). While a candidate's test continues, matchmaking seats it
with its previous version at every other table. A verdict is final when reached: the test
stops there, its figures (LLR, games, wins, draws, losses) those of that moment whatever
the two versions play later (`CandidateTests`). The verdict is shown, not acted on: the
author retires whichever version they choose.

The previous version (`opponent`) is the author's latest earlier version that is active,
never one that failed its check (issue 32: a test against a failed v1 never played, and
said "continue" for ever). One the candidate already met and that has since been retired
or removed stays its opponent (the test ran against it). With none, the version is
`untested`; a test neither side of which still plays is `stopped`, never "continue".
"""

from __future__ import annotations

import dataclasses
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.league.pair_tallies import ordered
from arena.league.store import Bot
from arena.results.log import GameLine
from arena.stats.elo import Pentanomial, game_points
from arena.stats.sprt import CONTINUE, H0, H1, Sprt

DEFAULT_TEST = Sprt(elo0=0.0, elo1=10.0)
UNTESTED = "untested"
"""A new version with no active earlier one to be tested against (or that failed its check)."""
STOPPED = "stopped"
"""A test left undecided: the candidate or its opponent no longer plays."""
PLAYING = ("building", "checking", "active")


@dataclass(frozen=True)
class Verdict:
    candidate: str
    previous: str | None
    """The label of the version it is tested against; None when untested."""
    llr: float
    lower: float
    upper: float
    games: int
    verdict: str
    """H1 (the new version is stronger), H0 (it is not), continue, untested or stopped."""
    error: float = 0.05
    """The test's error rate (alpha), said in words."""
    why: str = ""
    """Why a version is untested or its test stopped."""
    wins: int = 0
    draws: int = 0
    losses: int = 0
    """The candidate's games against its previous version counted: ranked better, level,
    worse."""

    @property
    def decided(self) -> bool:
        """No more games are wanted for it (decided, untested or stopped)."""
        return self.verdict != CONTINUE

    @property
    def words(self) -> str:
        """The verdict as a sentence: "v3 is better than v2 (SPRT, 5% error)"."""
        mine, theirs = _short(self.candidate), _short(self.previous or "")
        error = f"SPRT, {self.error:.0%} error"
        if self.verdict == H1:
            return f"{mine} is better than {theirs} ({error})"
        if self.verdict == H0:
            return f"{mine} is no better than {theirs} ({error})"
        if self.verdict == UNTESTED:
            return f"{mine} is untested: {self.why}"
        if self.verdict == STOPPED:
            return (
                f"{mine} against {theirs}: stopped undecided after {self.games} games ({self.why})"
            )
        return f"{mine} against {theirs}: still testing, {self.games} games"

    def to_json(self) -> dict[str, object]:
        return {
            "candidate": self.candidate,
            "against": self.previous,
            "llr": round(self.llr, 4),
            "lower": round(self.lower, 4),
            "upper": round(self.upper, 4),
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "verdict": self.verdict,
            "words": self.words,
        }


def _short(bot_label: str) -> str:
    """`v3` for `name.v3`, `v1` for `name` (a bot's name never ends in .vN: store.add_bot)."""
    found = re.search(r"\.(v[0-9]+)\Z", bot_label)
    return found.group(1) if found else "v1"


def _versus(line: GameLine, candidate: str, previous: str) -> float:
    """The candidate's score against its previous version in one game (1, 0.5 or 0)."""
    mine, theirs = (
        line.ranks[line.players.index(candidate)],
        line.ranks[line.players.index(previous)],
    )
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


@dataclass
class Running:
    """One test as its games arrive: its evidence so far, and its verdict once reached."""

    both: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    pairs: Pentanomial = dataclasses.field(default_factory=Pentanomial)
    halves: dict[int, float] = dataclasses.field(default_factory=dict)
    """At 2 seats: a table's first game's points for the candidate, until its second."""
    llr: float = 0.0
    verdict: str = CONTINUE

    def to_json(self) -> dict[str, Any]:
        return {
            "both": self.both, "wins": self.wins, "draws": self.draws, "losses": self.losses,
            "pairs": list(dataclasses.astuple(self.pairs)),
            "halves": [[table, points] for table, points in self.halves.items()],
            "llr": self.llr, "verdict": self.verdict,
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Running:
        return cls(
            int(data["both"]), int(data["wins"]), int(data["draws"]), int(data["losses"]),
            Pentanomial(*(int(n) for n in data["pairs"])),
            {int(table): float(points) for table, points in data["halves"]},
            float(data["llr"]), str(data["verdict"]),
        )  # fmt: skip


_VERSION = re.compile(r"(.+)\.v([0-9]+)\Z")


def _version(bot_label: str) -> tuple[str, int]:
    """A label's bot name and version (`name.v3`: 3; `name`: 1)."""
    found = _VERSION.match(bot_label)
    return (found.group(1), int(found.group(2))) if found else (bot_label, 1)


class CandidateTests:
    """The SPRT of each candidate against each earlier version it sat with, counted as their
    games arrive (`add`, each game once, in the order stored: whichever earlier version
    turns out to be its opponent, that test is up to date) and final once decided: the games
    after a verdict change neither the verdict nor its figures (issue 42: an LLR of -2.97
    at 732 games, H0, went on to -3.38 at 888 on the page while the log kept the
    verdict's). Persisted with the games (league_state.py: `dirty`). Safe to share between
    threads."""

    def __init__(self, test: Sprt = DEFAULT_TEST, seats: int = 2) -> None:
        self.test, self.seats = test, seats
        self.running: dict[tuple[str, str], Running] = {}
        self.dirty: set[tuple[str, str]] = set()
        self.lock = threading.Lock()

    def add(self, line: GameLine) -> None:
        """Count a stored game for each two versions of one bot at its table (the later the
        candidate), unless their test is decided."""
        if len(line.players) < 2:
            return
        versions = [(_version(name), name) for name in line.players]
        if len({name for (name, _), _ in versions}) == len(versions):
            return  # no two versions of one bot at this table: the usual case
        with self.lock:
            for (name, version), candidate in versions:
                for (other, earlier), previous in versions:
                    if other == name and earlier < version:
                        run = self.running.setdefault((candidate, previous), Running())
                        if run.verdict == CONTINUE:
                            self._count(run, line, candidate, previous)
                            self.dirty.add((candidate, previous))

    def verdict(self, candidate: str, previous: str) -> Verdict:
        """The test of `candidate` against `previous` after the games stored so far."""
        with self.lock:
            run = self.running.get((candidate, previous)) or Running()
            test = self.test
            return Verdict(
                candidate, previous, run.llr, test.lower, test.upper, run.both, run.verdict,
                test.alpha, wins=run.wins, draws=run.draws, losses=run.losses,
            )  # fmt: skip

    def _count(self, run: Running, line: GameLine, candidate: str, previous: str) -> None:
        """One game with both versions: its result, and the verdict it may bring."""
        score = _versus(line, candidate, previous)
        run.both += 1
        run.wins, run.draws, run.losses = (
            run.wins + (score == 1.0), run.draws + (score == 0.5), run.losses + (score == 0.0)
        )  # fmt: skip
        if self.seats == 2:  # the deal's two games with the seats swapped make one pair
            points = game_points(line.ranks, line.players.index(candidate))
            first = run.halves.pop(line.table, None)
            if first is None:
                run.halves[line.table] = points
                return
            run.pairs = run.pairs.add(first, points)
            run.llr = self.test.llr(run.pairs)
        else:
            run.llr = self.test.llr_games(run.wins, run.draws, run.losses)
        run.verdict = self.test.verdict(run.llr)


def judge(
    candidate: str, previous: str, games: Sequence[GameLine], seats: int, test: Sprt = DEFAULT_TEST
) -> Verdict:
    """The candidate's test after `games` (those of its tables with both versions count),
    final at its verdict (`CandidateTests`)."""
    tests = CandidateTests(test, seats)
    for line in games:
        tests.add(line)
    return tests.verdict(candidate, previous)


def opponent(bot: Bot, bots: Sequence[Bot], met: Mapping[tuple[str, str], int]) -> Bot | None:
    """The version `bot` is tested against: its author's latest earlier version that is
    active, or a later-retired or removed one it already met (`met`: the games each pair
    met, by its sorted labels); None if there is none."""
    earlier = sorted(
        (b for b in bots if b.name == bot.name and b.version < bot.version),
        key=lambda b: b.version,
        reverse=True,
    )
    for other in earlier:
        if other.status == "active":
            return other
        if other.status in ("retired", "removed") and met.get(ordered(bot.label, other.label), 0):
            return other
    return None


def verdict_for(
    bot: Bot,
    bots: Sequence[Bot],
    met: Mapping[tuple[str, str], int],
    tests: CandidateTests,
) -> Verdict | None:
    """The test of version `bot` (None for a first version): against its `opponent`,
    untested without one, stopped when undecided and a side no longer plays; `tests`: the
    league's running tests, `met`: the games each pair met."""
    if bot.version < 2:
        return None
    test = tests.test
    against = opponent(bot, bots, met) if bot.status != "failed" else None
    if against is None:
        why = "it failed its check" if bot.status == "failed" else "no earlier version is active"
        return Verdict(bot.label, None, 0.0, test.lower, test.upper, 0, UNTESTED, test.alpha, why)
    verdict = tests.verdict(bot.label, against.label)
    if not verdict.decided:
        gone = [b for b in (bot, against) if b.status not in PLAYING]
        if gone:
            why = f"{_short(gone[0].label)} is {gone[0].status}"
            return dataclasses.replace(verdict, verdict=STOPPED, why=why)
    return verdict


def versions(
    bot: Bot,
    bots: Sequence[Bot],
    verdict_of: Callable[[Bot], Verdict | None],
    games_of: Callable[[str], int],
) -> list[dict[str, Any]]:
    """Every version of `bot`'s name, oldest first: its status, games and test (`verdict_of`)."""
    shown = []
    for version in sorted((b for b in bots if b.name == bot.name), key=lambda b: b.version):
        verdict = verdict_of(version)
        shown.append(
            {
                "bot": version.label,
                "version": version.version,
                "status": version.status,
                "games": games_of(version.label),
                "sprt": None if verdict is None else verdict.to_json(),
            }
        )
    return shown
