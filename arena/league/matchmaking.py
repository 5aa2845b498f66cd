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
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence

import trueskill

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
    met = met or {}
    env = environment()

    def need(bot: str) -> int:
        return games.get(bot, 0)

    def best(options: dict[tuple[str, ...], tuple[int, int]]) -> tuple[str, ...]:
        """The option of the least key; among those tied, the table of best quality."""
        least = min(options.values())
        tied = [option for option, key in options.items() if key == least]
        if len(tied) > MAX_CANDIDATES:
            tied = rng.sample(tied, MAX_CANDIDATES)

        def quality(option: tuple[str, ...]) -> float:
            table = [*table_so_far, *option]
            return float(env.quality([(ratings.get(bot, env.create_rating()),) for bot in table]))

        return max(tied, key=lambda option: (quality(option), rng.random()))

    table_so_far: list[str] = list(dict.fromkeys(seated))
    if len(table_so_far) < 2:
        pairs: dict[tuple[str, ...], tuple[int, int]] = {
            (a, b): (met.get((a, b), 0), min(need(a), need(b)))
            for a, b in itertools.combinations(field, 2)
            if not table_so_far or table_so_far[0] in (a, b)
        }
        a, b = best(pairs)
        table_so_far = [a, b] if need(a) <= need(b) else [b, a]
        if seated and seated[0] != table_so_far[0]:
            table_so_far.reverse()
    while len(table_so_far) < seats:
        fills: dict[tuple[str, ...], tuple[int, int]] = {
            (bot,): (sum(met.get(pair(bot, sitting), 0) for sitting in table_so_far), need(bot))
            for bot in field
            if bot not in table_so_far
        }
        table_so_far.append(best(fills)[0])
    return tuple(table_so_far)
