"""A new version of a bot is a candidate: an SPRT against its previous version decides it.

The test is the arena's (`stats.sprt`, fastchess's GSPRT), H0: the new version is `elo0`
nElo stronger than the previous one, H1: `elo1`, alpha = beta = 5%. Its evidence is the
league's games where both versions sat at the same table, from the new version's side: at
2 seats the deal's two games with the seats swapped make one pentanomial pair (the
statistic fastchess recommends); at more seats each game is a win, draw or loss by which of
the two ranked better (trinomial). While a candidate's test continues, matchmaking seats it
with its previous version at every other table. The verdict is shown, not acted on: the
author retires whichever version they choose.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from arena.league.store import label
from arena.results.log import GameLine
from arena.stats.elo import Pentanomial, game_points
from arena.stats.sprt import CONTINUE, Sprt

DEFAULT_TEST = Sprt(elo0=0.0, elo1=10.0)


@dataclass(frozen=True)
class Verdict:
    candidate: str
    previous: str
    llr: float
    lower: float
    upper: float
    games: int
    verdict: str
    """H1 (the new version is stronger), H0 (it is not), or continue."""

    @property
    def decided(self) -> bool:
        return self.verdict != CONTINUE

    def to_json(self) -> dict[str, object]:
        return {
            "candidate": self.candidate,
            "against": self.previous,
            "llr": round(self.llr, 4),
            "lower": round(self.lower, 4),
            "upper": round(self.upper, 4),
            "games": self.games,
            "verdict": self.verdict,
        }


def _versus(line: GameLine, candidate: str, previous: str) -> float:
    """The candidate's score against its previous version in one game (1, 0.5 or 0)."""
    mine, theirs = (
        line.ranks[line.players.index(candidate)],
        line.ranks[line.players.index(previous)],
    )
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def judge(
    candidate: str, previous: str, games: Iterable[GameLine], seats: int, test: Sprt = DEFAULT_TEST
) -> Verdict:
    """The candidate's test after `games` (those of its tables with both versions count)."""
    both = [g for g in games if candidate in g.players and previous in g.players]
    if seats == 2:
        by_table: dict[int, list[GameLine]] = {}
        for line in both:
            by_table.setdefault(line.table, []).append(line)
        counts = Pentanomial()
        for pair in by_table.values():
            if len(pair) == 2:
                first, second = (game_points(g.ranks, g.players.index(candidate)) for g in pair)
                counts = counts.add(first, second)
        llr = test.llr(counts)
    else:
        scores = [_versus(line, candidate, previous) for line in both]
        llr = test.llr_games(scores.count(1.0), scores.count(0.5), scores.count(0.0))
    return Verdict(candidate, previous, llr, test.lower, test.upper, len(both), test.verdict(llr))


def previous_label(name: str, version: int, labels: Sequence[str]) -> str | None:
    """The label of the latest earlier version among `labels` (`name` is version 1)."""
    for earlier in range(version - 1, 0, -1):
        if label(name, earlier) in labels:
            return label(name, earlier)
    return None
