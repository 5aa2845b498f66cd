"""Order-free ratings: a Bradley–Terry fit on every game at once, Elo-scaled, with 95%
intervals that count tables.

TrueSkill rates games one after another, so its ratings depend on their order; this fit
does not. Each game of k seats counts as its k(k-1)/2 meetings of two seats: the better
rank wins, a tie counts half to each (for k = 2 this is exactly Bradley–Terry; for k > 2 it
is the pairwise composite likelihood of Plackett–Luce, whose maximum is a consistent
estimate). One drawn game between every two bots of the field is added as a weak prior,
so a bot that won or lost everything still has a finite rating. The fit and its interval
(a sandwich over the tables) are made from sums per pair of bots and per bot: pair_fit.py,
which the league's running fit uses too.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from arena.results import pair_fit
from arena.results.log import GameLine
from arena.results.pair_fit import MIN_MEETINGS, PRIOR_DRAWS, EloRating

__all__ = ["MIN_MEETINGS", "PRIOR_DRAWS", "EloRating", "Meetings", "fit", "meetings", "rate"]

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


def fit(points: Meetings, bots: Sequence[str]) -> dict[str, float]:
    """The Bradley–Terry Elo of each bot (mean 0) from `points`, with the prior added."""
    names = sorted(bots)
    rows: dict[tuple[str, str], list[float]] = {}
    for (a, b), won in points.items():
        key, mine = ((a, b), 0) if a < b else ((b, a), 1)
        row = rows.setdefault(key, [0.0, 0.0])
        row[mine] += won
    zeros = [0.0] * (len(pair_fit.PAIR_FIELDS) - 3)
    sums = pair_fit.PairSums.collect(
        names, {pair: [0.0, a + b, a, *zeros] for pair, (a, b) in rows.items()}
    )
    return pair_fit.elo(names, sums)


def rate(
    games: Iterable[GameLine], bots: Iterable[str] = (), seed: int = 0
) -> dict[str, EloRating]:
    """Order-free Elo with 95% intervals that count tables (the games of one table, one
    deal, share its luck). `seed` is kept for callers: nothing is drawn."""
    del seed
    games = list(games)
    names = sorted({*bots, *(name for line in games for name in line.players)})
    return pair_fit.fit(names, *pair_fit.pair_sums(games, names))
