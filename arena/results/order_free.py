"""Order-free ratings: a Bradley–Terry fit on every game at once, Elo-scaled, with bootstrap
95% intervals that resample whole tables.

TrueSkill rates games one after another, so its ratings depend on their order; this fit
does not. Each game of k seats counts as its k(k-1)/2 meetings of two seats: the better
rank wins, a tie counts half to each (for k = 2 this is exactly Bradley–Terry; for k > 2 it
is the pairwise composite likelihood of Plackett–Luce, whose maximum is a consistent
estimate). One drawn game between every two bots of the field is added as a weak prior,
so a bot that won or lost everything still has a finite rating. The maximum is found by
Hunter's MM iteration (2004). No library was used: `choix`, the well-kept one, takes
whole wins only, not the half points of draws and ties; the MM update is a few lines.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from arena.results.log import GameLine

RESAMPLES = 200
"""Bootstrap resamples of the tables; the interval is their 2.5th to 97.5th percentile."""
PRIOR_DRAWS = 1.0
"""Drawn games added between every two bots (a weak prior that keeps ratings finite)."""
MIN_MEETINGS = 100
"""Fewest meetings (two seats of one game) a bot needs for its interval: with fewer, the
bootstrap held the truth in under 93% of simulated tournaments (`arena bench stats`: 75%
at 3 two-seat tables a bot, 87% at 6 three-seat tables); its interval is then NaN, which
the tables print as "too few games" (issue 23)."""


@dataclass(frozen=True)
class EloRating:
    """One bot's order-free Elo (the field's mean is 0) and its 95% bootstrap interval (NaN
    below `MIN_MEETINGS` meetings)."""

    elo: float
    low: float
    high: float


Meetings = dict[tuple[str, str], float]
"""Points of the first bot against the second, summed over their meetings."""


def meetings(games: Iterable[GameLine]) -> Meetings:
    """Every two seats of every game as a meeting: the better rank scores 1, a tie 0.5 each."""
    points: Meetings = defaultdict(float)
    for line in games:
        players, ranks = line.players, line.ranks
        for i in range(len(players)):
            for j in range(len(players)):
                if i != j and players[i] != players[j]:
                    points[players[i], players[j]] += (
                        1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
                    )
    return points


def fit(points: Meetings, bots: Sequence[str], iterations: int = 500) -> dict[str, float]:
    """The Bradley–Terry Elo of each bot (mean 0) from `points`, with the prior added."""
    names = sorted(bots)
    wins: Meetings = defaultdict(float, points)
    for a in names:
        for b in names:
            if a != b:
                wins[a, b] += PRIOR_DRAWS / 2
    strength = dict.fromkeys(names, 1.0)
    for _ in range(iterations):
        changed = 0.0
        for a in names:
            won = sum(wins[a, b] for b in names if b != a)
            weight = sum(
                (wins[a, b] + wins[b, a]) / (strength[a] + strength[b]) for b in names if b != a
            )
            new = won / weight if weight else strength[a]
            changed = max(changed, abs(math.log(new / strength[a])))
            strength[a] = new
        mean = sum(math.log(s) for s in strength.values()) / len(names)
        strength = {name: math.exp(math.log(s) - mean) for name, s in strength.items()}
        if changed < 1e-9:
            break
    return {name: 400.0 * math.log10(s) for name, s in strength.items()}


def rate(
    games: Iterable[GameLine], bots: Iterable[str] = (), seed: int = 0
) -> dict[str, EloRating]:
    """Order-free Elo with 95% intervals from resampling tables (seeded: same log, same
    figures). Games of one table (one deal) stay together in a resample."""
    games = list(games)
    names = sorted({*bots, *(name for line in games for name in line.players)})
    if len(names) < 2:
        return {name: EloRating(0.0, 0.0, 0.0) for name in names}
    tables: dict[tuple[int, int], list[GameLine]] = defaultdict(list)
    for line in games:
        tables[line.round, line.table].append(line)
    groups = [meetings(group) for _, group in sorted(tables.items())]
    keys = sorted({key for group in groups for key in group})
    matrix = np.array([[group.get(key, 0.0) for key in keys] for group in groups]).reshape(
        len(groups), len(keys)
    )
    best = fit(dict(zip(keys, matrix.sum(axis=0).tolist(), strict=True)), names)
    seen: dict[str, int] = defaultdict(int)  # meetings, to know which intervals to give
    for line in games:
        for name in line.players:
            seen[name] += len(line.players) - 1
    wanted = groups and any(seen[name] >= MIN_MEETINGS for name in names)
    rng = np.random.default_rng(seed)
    samples: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(RESAMPLES if wanted else 0):  # no resampling when every bot has too few
        counts = np.bincount(rng.integers(0, len(groups), len(groups)), minlength=len(groups))
        drawn = dict(zip(keys, (counts @ matrix).tolist(), strict=True))
        for name, elo in fit(drawn, names, iterations=200).items():
            samples[name].append(elo)
    out = {}
    for name in names:
        if seen[name] < MIN_MEETINGS:
            out[name] = EloRating(best[name], math.nan, math.nan)
            continue
        values = sorted(samples[name]) or [best[name]]
        # A bot at the edge (it won every meeting) can fit above all of its resamples: the
        # interval is widened to hold the estimate, so it never excludes its own figure.
        low = min(values[int(0.025 * (len(values) - 1))], best[name])
        high = max(values[int(math.ceil(0.975 * (len(values) - 1)))], best[name])
        out[name] = EloRating(best[name], low, high)
    return out
