"""Two bots at tables of k seats: which finished ahead, the SPRT on it, and its simulation.

At a table of more than two seats, each game says of two bots which one finished ahead
(the better rank), or that they finished level: a win, a draw or a loss of the first
(trinomial), as the league's candidate test counts them (arena/league/candidates.py). The
SPRT on these counts is the arena's (`stats.sprt.Sprt.llr_games`). Its Elo is the Elo of
"finished ahead": a bot ahead 64% of the time is +100.

`simulate` plays the test on made-up games of known strength, to show how often it errs:
each seat's performance is its strength plus a Gumbel draw (the Plackett-Luce model), so
the first bot finishes ahead of the second with the logistic chance of their difference,
whoever else sits at the table; no game is level.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from arena.stats.elo import NELO_SCALE
from arena.stats.sprt import CONTINUE, Sprt


@dataclass(frozen=True)
class Ahead:
    """How often the first bot finished ahead of, level with, or behind the second."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def add(self, ranks: Sequence[int], first: int, second: int) -> Ahead:
        """These counts after one game: `first` and `second` are the two bots' seats."""
        mine, theirs = ranks[first], ranks[second]
        if mine < theirs:
            return Ahead(self.wins + 1, self.draws, self.losses)
        if mine == theirs:
            return Ahead(self.wins, self.draws + 1, self.losses)
        return Ahead(self.wins, self.draws, self.losses + 1)

    def llr(self, test: Sprt) -> float:
        return test.llr_games(self.wins, self.draws, self.losses)


def elo_of_share(share: float) -> float | None:
    """The logistic Elo of finishing ahead `share` of the time (None at 0% or 100%)."""
    if not 0.0 < share < 1.0:
        return None
    return -400.0 * math.log10(1.0 / share - 1.0)


def share_of_elo(elo: float, model: str) -> float:
    """The chance of finishing ahead (no level games) that is `elo` in the test's model."""
    if model == "logistic":
        return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))
    t = elo / NELO_SCALE  # normalised: (s - 1/2) / sqrt(s (1 - s)) = t
    return 0.5 + 0.5 * t / math.sqrt(1.0 + t * t)


@dataclass(frozen=True)
class Run:
    """One simulated test: its verdict and the games it took."""

    verdict: str
    games: int


def simulate(test: Sprt, elo: float, seats: int, max_games: int, rng: random.Random) -> Run:
    """The test on simulated games of `seats` seats where the first bot is `elo` stronger
    (in the test's model) than the second and the others; checked after every deal of
    `seats` games, as `arena play` does."""
    share = share_of_elo(elo, test.model)
    strength = math.log(share / (1.0 - share))  # the first bot's, the others' is 0
    counts = Ahead()
    ranks = list(range(seats))
    while counts.games < max_games:
        for _ in range(seats):
            draws = [
                (strength if seat == 0 else 0.0) - math.log(rng.expovariate(1.0) or 1e-300)
                for seat in range(seats)
            ]  # a Gumbel draw each: minus the log of an exponential one
            order = sorted(range(seats), key=lambda seat: -draws[seat])
            for place, seat in enumerate(order):
                ranks[seat] = place
            counts = counts.add(ranks, 0, 1)
        verdict = test.verdict(counts.llr(test))
        if verdict != CONTINUE:
            return Run(verdict, counts.games)
    return Run(CONTINUE, counts.games)
