"""The synthetic league's games (`arena bench league`, league_synthetic.py and league_grow.py;
the league's tests): tables of bots of spread strengths, each with every field a played
game has, the same games from the same arguments."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from arena.results.log import GameLine

SYNTHETIC_BOTS = 12
HISTOGRAM = {"8": 12, "16": 6, "32": 2}
"""Every synthetic seat's think-time histogram (arena/stats/think.py)."""


def synthetic_names(bots: int) -> list[str]:
    """The synthetic bots' names: bot00, bot01, ... (bot000 ... from 101 bots on)."""
    width = max(2, len(str(bots - 1)))
    return [f"bot{n:0{width}d}" for n in range(bots)]


def synthetic_lines(
    tables: int, bots: int = SYNTHETIC_BOTS, seats: int = 2, start: int = 0, seed: int = 1
) -> list[GameLine]:
    """The games of `tables` tables of a league of `bots` bots of spread strengths, as the
    league numbers them (table `start` on; each deal played once per rotation of the seats)
    and with every field a played game has (times, a histogram, a worker, a moment). The
    same arguments give the same games. Drawn with numpy a batch at a time (the bulk growth
    makes 10,000,000 of them, twice: league_grow.py)."""
    from arena.results.log import GameLine

    rng = np.random.default_rng([seed, start])
    names = synthetic_names(bots)
    table = _seated(rng, tables, bots, seats)
    strength = table + rng.normal(0.0, 4.0, (tables, seats))
    deals = rng.integers(0, 1 << 62, tables).tolist()
    turned = np.stack([np.roll(table, -n, axis=1) for n in range(seats)], axis=1)
    levels = np.stack([np.roll(strength, -n, axis=1) for n in range(seats)], axis=1)
    scores = np.round(levels * 3 + 20 + rng.normal(0.0, 8.0, (tables, seats, seats)))
    ranks = (scores[:, :, None, :] > scores[:, :, :, None]).sum(axis=3)  # scores above
    faulty = (rng.random((tables, seats)) < 0.002).tolist()
    think = (5 + 45 * rng.random((tables, seats))).tolist()
    duration = (100 + 800 * rng.random((tables, seats))).tolist()
    seated, scored, ranked = turned.tolist(), scores.tolist(), ranks.tolist()
    hist, decisions = (HISTOGRAM,) * seats, (20,) * seats
    lines = []
    for at, number in enumerate(range(start, start + tables)):
        moment = f"2026-11-26T12:{number // 60 % 60:02d}:{number % 60:02d}.000000"
        for n in range(seats):
            places, wait = tuple(ranked[at][n]), think[at][n]
            lines.append(
                GameLine(
                    seq=number * seats + n, game_id=f"L{number:07d}-g{n + 1}",
                    players=tuple([names[bot] for bot in seated[at][n]]),
                    scores=tuple(scored[at][n]), ranks=places,
                    termination="timeout" if faulty[at][n] else "normal", round=1,
                    table=number, game=n + 1, seed=deals[at],
                    winner=places.index(0) if places.count(0) == 1 else None,
                    end="deck_exhausted", reason="", faulty_seat=n if faulty[at][n] else None,
                    turns=20 + (number + n) % 40, decisions=decisions,
                    think_ms=(wait,) * seats, cpu_ms=(wait * 0.9,) * seats,
                    think_max_ms=(wait * 2,) * seats, think_hist=hist,
                    duration_ms=duration[at][n], worker="local-1", finished_at=moment,
                )
            )  # fmt: skip
    return lines


def _seated(rng: np.random.Generator, tables: int, bots: int, seats: int) -> np.ndarray:
    """Each table's `seats` bots, distinct, drawn at random."""
    if bots <= 4 * seats:  # a few bots: the first seats of each table's shuffle
        return rng.random((tables, bots)).argsort(axis=1)[:, :seats]
    table = rng.integers(0, bots, (tables, seats))
    while True:  # a table that drew a bot twice draws again (rare among many bots)
        ordered = np.sort(table, axis=1)
        again = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
        if not again.any():
            return table
        table[again] = rng.integers(0, bots, (int(again.sum()), seats))
