"""Which table the league plays next: every bot keeps playing, and tables are informative.

The bot with the fewest games sits first (ties broken at random), so a newcomer catches up
and no one is left out. Its opponents are chosen among the bots with the fewest games (a
pool of a few more than the table needs), as the table of that pool with the best TrueSkill
match quality (the chance of a draw: the result tells most when it is least certain). The
deal is then played with the seats rotated, as `arena run` does (`schedule.seatings`).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence

import trueskill

from arena.results.ratings import environment

POOL_EXTRA = 4
"""How many bots beyond the table's size the opponents are chosen from."""
MAX_CANDIDATES = 200
"""Tables whose quality is compared, at most (a pool's combinations are sampled beyond)."""


def next_table(
    bots: Sequence[str],
    games: Mapping[str, int],
    ratings: Mapping[str, trueskill.Rating],
    seats: int,
    rng: random.Random,
) -> tuple[str, ...] | None:
    """The bots of the next table (the neediest first), or None with fewer than `seats` bots."""
    if len(set(bots)) < seats:
        return None
    order = sorted(set(bots), key=lambda bot: (games.get(bot, 0), rng.random()))
    first, rest = order[0], order[1:]
    pool = rest[: seats - 1 + POOL_EXTRA]
    candidates = list(itertools.combinations(pool, seats - 1))
    if len(candidates) > MAX_CANDIDATES:
        candidates = rng.sample(candidates, MAX_CANDIDATES)
    env = environment()

    def quality(others: tuple[str, ...]) -> float:
        table = [(ratings.get(bot, env.create_rating()),) for bot in (first, *others)]
        return float(env.quality(table))

    best = max(candidates, key=lambda others: (quality(others), rng.random()))
    return (first, *best)
