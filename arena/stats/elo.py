"""Elo from game results (W/D/L) and from seat-swapped pairs (pentanomial), with 95% intervals.

A pair is the two games of one deal with the seats swapped; its result for bot A is the sum
of its two game scores (0, 0.5, 1, 1.5 or 2 points): LL, LD, DD or WL, WD, WW. Counting
pairs instead of games removes the deal's luck from the variance, so the pair-based
interval is narrower when deals matter (fastchess's "pentanomial" statistics).

Degenerate samples have no finite estimate: no games, or every game won or lost (score 0 or
1), or no variance at all. Those fields are None, never inf or NaN. Below `MIN_PAIRS`
seat-swapped pairs (or twice as many games) the estimate stands but its interval is None:
"too few games" (issue 23; `arena bench stats`: 91% at 3 pairs, 94.2-96.4% from 10).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The 97.5% quantile of the standard normal: a two-sided 95% interval."""
NELO_SCALE = 800.0 / math.log(10.0)
MIN_PAIRS = 10
"""Fewest seat-swapped pairs (deals) for an interval; games count half a pair each."""


def game_points(ranks: Sequence[int], seat: int) -> float:
    """A game's score for `seat` against the rest of its table: 1 ahead of every other seat,
    0.5 level with the best of them, 0 behind."""
    best_other = min(rank for other, rank in enumerate(ranks) if other != seat)
    return 1.0 if ranks[seat] < best_other else 0.5 if ranks[seat] == best_other else 0.0


@dataclass(frozen=True)
class Pentanomial:
    """Counts of seat-swapped pair results from bot A's side."""

    ll: int = 0
    ld: int = 0
    wl: int = 0
    """One win and one loss (a point, like DD)."""
    dd: int = 0
    wd: int = 0
    ww: int = 0

    @property
    def pairs(self) -> int:
        return self.ll + self.ld + self.wl + self.dd + self.wd + self.ww

    def add(self, first: float, second: float) -> Pentanomial:
        """These counts with one more pair whose game scores (1, 0.5, 0) are given."""
        points = first + second
        if points == 1.0:
            key = "wl" if first != 0.5 else "dd"
        else:
            key = {0.0: "ll", 0.5: "ld", 1.5: "wd", 2.0: "ww"}[points]
        return Pentanomial(**{**self.__dict__, key: getattr(self, key) + 1})


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference with its 95% interval, as fastchess computes it."""

    units: int
    """Games (W/D/L) or pairs (pentanomial) the estimate stands on."""
    score: float | None
    """Mean score per game of bot A, from 0 to 1."""
    elo: float | None
    """Logistic Elo difference (A minus B)."""
    error: float | None
    """Half the width of the 95% interval of `elo`."""
    nelo: float | None
    """Normalised Elo: the score's distance from 0.5 in standard deviations, scaled."""
    nelo_error: float | None
    los: float | None
    """Likelihood of superiority: the probability that A is the stronger, 0 to 1."""


def score_elo(score: float) -> float | None:
    """The logistic Elo difference of a mean score (0 to 1); None at 0 or 1."""
    return None if not 0.0 < score < 1.0 else -400.0 * math.log10(1.0 / score - 1.0)


def _estimate(
    units: int, values: Sequence[float], weights: Sequence[int], spread: float
) -> EloEstimate:
    """From outcomes `values` (per game score of each kind) counted by `weights`.

    `spread` is 1 for games and 2 for pairs: normalised Elo divides by the standard deviation
    of one game, and a pair is two games.
    """
    if units == 0:
        return EloEstimate(0, None, None, None, None, None, None)
    shares = [w / units for w in weights]
    score = sum(v * p for v, p in zip(values, shares, strict=True))
    variance = sum(p * (v - score) ** 2 for v, p in zip(values, shares, strict=True))
    per_unit = variance / units
    if per_unit == 0.0:
        los = 0.5 if score == 0.5 else float(score > 0.5)
        return EloEstimate(units, score, score_elo(score), None, None, None, los)
    half = Z95 * math.sqrt(per_unit)
    low, high = score_elo(score - half), score_elo(score + half)
    elo = score_elo(score)
    error = None if low is None or high is None else (high - low) / 2.0
    scale = NELO_SCALE / math.sqrt(spread * variance)
    los = (1.0 - math.erf(-(score - 0.5) / math.sqrt(2.0 * per_unit))) / 2.0
    if units * spread < 2 * MIN_PAIRS:  # too few deals for the normal approximation
        return EloEstimate(units, score, elo, None, (score - 0.5) * scale, None, los)
    return EloEstimate(units, score, elo, error, (score - 0.5) * scale, half * scale, los)


def from_games(wins: int, draws: int, losses: int) -> EloEstimate:
    """Elo from game results (trinomial), as fastchess's EloWDL."""
    return _estimate(wins + draws + losses, (1.0, 0.5, 0.0), (wins, draws, losses), 1.0)


def from_pairs(counts: Pentanomial) -> EloEstimate:
    """Elo from seat-swapped pairs (pentanomial), as fastchess's EloPentanomial."""
    values = (0.0, 0.25, 0.5, 0.75, 1.0)
    weights = (counts.ll, counts.ld, counts.wl + counts.dd, counts.wd, counts.ww)
    return _estimate(counts.pairs, values, weights, 2.0)
