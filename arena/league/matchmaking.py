"""Which table the league plays next: every pair of bots meets about as often as any other.

The rule (issue 32: one bot met `greedy` 1,260 times and `starter-c` 46 times, so its win
rates beside each other could not be compared): the next table seats the pair of active bots
that have met least (in games: the league's pair tallies, pair_tallies.py), the bot of the two with fewer games first; ties
go to the pair whose neediest bot has the fewest games, then to the best TrueSkill match
quality (the chance of a draw: the result tells most when it is least certain), then to
chance. A larger table is filled one seat at a time with the bot that has met those seated
least (then fewest games, then quality). A new version's pairs have met 0 times, so it plays
every table until it has caught up: it is brought up to speed first.

What this promises: among bots that all play, every pair's count of games met stays within
`FACTOR` (2x) of every other pair's once each pair has met `WARM_UP` games (at 2 seats the
counts differ by at most one deal; `tests/test_league_matchmaking.py` simulates it at 2, 3
and 4 seats). Left out of it: a new version while it catches up (its pairs start at 0 and it
sits at the tables until they have met as often as the others'), and a candidate with the
version it is tested against while the test continues: the league seats them together at
every other table (`candidates`), and those extra games are the test's. The deal is played
with the seats rotated, as `arena run` does (`schedule.seatings`): a table of k seats is k
games for each pair at it.

How: the field's meetings as a matrix (from the pair tallies' flat arrays, pair_tallies.py,
in a few numpy operations), each pair's key (met, then need) one number, the least found
and its ties listed in the order of `itertools.combinations` over the sorted field, so the
choice, and the draws from `rng`, are those of a loop over every pair; at 1,000 bots a
table takes milliseconds of array work over the 500,000 pairs (a dictionary lookup each
took about a second; `arena bench league` prints it), never a Python step per pair.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

import numpy as np
import trueskill

from arena.league.pair_tallies import MetView
from arena.results.ratings import environment

FACTOR = 2.0
"""Every pair's games met are within this factor of every other pair's (after `WARM_UP`)."""
WARM_UP = 30
"""Games each pair has met before `FACTOR` holds (a few deals of the largest table)."""
MAX_CANDIDATES = 20
"""Tables whose quality is compared, at most (sampled beyond)."""

Pair = tuple[str, str]


def pair(a: str, b: str) -> Pair:
    """The key of two bots' meetings (in sorted order)."""
    return (a, b) if a <= b else (b, a)


def next_table(
    bots: Sequence[str],
    games: Mapping[str, int],
    ratings: Mapping[str, trueskill.Rating],
    seats: int,
    rng: random.Random,
    met: Mapping[Pair, int] | None = None,
    seated: Sequence[str] = (),
) -> tuple[str, ...] | None:
    """The bots of the next table (the neediest first), or None with fewer than `seats` bots.
    `met`: games each pair met (pair_tallies.MetView; none known if not given); `seated`: bots the
    table must hold (a candidate and its opponent), its other seats chosen by the same rule."""
    field = sorted(set(bots))
    if len(field) < seats or len(set(seated)) > seats or not set(seated) <= set(field):
        return None
    env = environment()
    place = {bot: n for n, bot in enumerate(field)}
    counts = _met_matrix(field, place, met or {})
    need = np.array([games.get(bot, 0) for bot in field], dtype=np.int64)

    def best(met: np.ndarray, needs: np.ndarray, option: Callable[[int], list[str]]) -> list[str]:
        """The option of the least key (games met, then the need), numbered as `met` and
        `needs` list them (`option`: its bots); among those tied, in that order, the table
        of best quality."""
        at = np.flatnonzero(met == met.min())
        at = at[needs[at] == needs[at].min()]
        if len(at) > MAX_CANDIDATES:
            at = at[rng.sample(range(len(at)), MAX_CANDIDATES)]
        tied = [option(n) for n in at.tolist()]

        def quality(adding: list[str]) -> float:
            table = [*table_so_far, *adding]
            return float(env.quality([(ratings.get(bot, env.create_rating()),) for bot in table]))

        return max(tied, key=lambda adding: (quality(adding), rng.random()))

    size = len(field)
    table_so_far: list[str] = list(dict.fromkeys(seated))
    if len(table_so_far) == 1:  # its pairs, in the order of combinations: by the other bot
        mine = place[table_so_far[0]]
        others = np.delete(np.arange(size), mine)
        a, b = best(counts[mine, others], np.minimum(need[others], need[mine]),
                    lambda n: sorted((field[mine], field[int(others[n])])))  # fmt: skip
    elif not table_so_far:  # the pairs that met least, in the order of combinations
        np.fill_diagonal(counts, np.iinfo(counts.dtype).max)
        least = np.flatnonzero(np.triu(counts == counts.min(), 1))
        first, second = np.divmod(least, size)
        a, b = best(np.zeros(len(least), dtype=np.int8), np.minimum(need[first], need[second]),
                    lambda n: [field[int(first[n])], field[int(second[n])]])  # fmt: skip
    if len(table_so_far) < 2:
        table_so_far = [a, b] if games.get(a, 0) <= games.get(b, 0) else [b, a]
        if seated and seated[0] != table_so_far[0]:
            table_so_far.reverse()
    while len(table_so_far) < seats:
        sitting = np.array([place[bot] for bot in table_so_far], dtype=np.int64)
        free = np.setdiff1d(np.arange(size), sitting)
        met_here = counts[np.ix_(free, sitting)].sum(axis=1, dtype=np.int64)
        table_so_far += best(met_here, need[free], _filling(field, free))
    return tuple(table_so_far)


def _filling(field: list[str], free: np.ndarray) -> Callable[[int], list[str]]:
    """The option numbered `n` of the bots free to take a seat: that bot."""
    return lambda n: [field[int(free[n])]]


def _met_matrix(field: list[str], place: dict[str, int], met: Mapping[Pair, int]) -> np.ndarray:
    """The games each two bots of `field` met, as a symmetric matrix in the field's order:
    from the league's pair tallies in a few array operations (a thousand bots' 500,000
    pairs in milliseconds), else from the mapping's items."""
    counts = np.zeros((len(field), len(field)), dtype=np.int32)  # 4 MB at 1,000 bots
    if isinstance(met, MetView):
        first, second, games = met.arrays([place.get(name, -1) for name in met.tallies.names])
    else:
        known = [(place[a], place[b], n) for (a, b), n in met.items() if a in place and b in place]
        first, second, games = (
            (np.array(column, dtype=np.int64) for column in zip(*known, strict=True))
            if known
            else (np.zeros(0, np.int64),) * 3
        )
    inside = (first >= 0) & (second >= 0)
    counts[first[inside], second[inside]] = games[inside]
    counts[second[inside], first[inside]] = games[inside]
    return counts
