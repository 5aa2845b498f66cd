"""`arena bench fit`: the order-free Elo's fit from pair sums (arena/results/pair_fit.py) at
50, 200 and 1,000 bots, beside its target (1,000 bots within 10 s, issue 45) and beside the
fit it replaced at 50 bots, timed in the same run.

The sums are synthetic: every two bots met at `TABLES` tables of two seats, each a deal
played twice with the seats swapped (20 meetings a pair), by bots of strengths from -400 to
+400 Elo. The fit before issue 45 was Hunter's MM iteration in pure Python (500 steps at
most) and 200 bootstrap refits of 200 steps; it is timed on the point fit and `OLD_REFITS`
refits, scaled to 200.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence

import click
import numpy as np

from arena.results.pair_fit import PRIOR_DRAWS, BotSums, PairSums, fit

TARGET_SECONDS = 10.0
"""The fit of 1,000 bots, interval included, within this many seconds (issue 45)."""
FIELDS = (50, 200, 1000)
TABLES = 10
"""Tables (deals of two games) each two bots met at."""
OLD_RESAMPLES = 200
OLD_REFITS = 10
"""Bootstrap refits the old fit is timed on (scaled to OLD_RESAMPLES)."""


def synthetic(size: int, seed: int = 0) -> tuple[list[str], PairSums, BotSums]:
    """Every two of `size` bots met at TABLES two-seat tables of 2 games (seats swapped)."""
    rng = np.random.default_rng(seed)
    names = [f"bot{i:04d}" for i in range(size)]
    elo = rng.uniform(-400.0, 400.0, size)
    first, second = np.triu_indices(size, k=1)
    chance = 1.0 / (1.0 + 10.0 ** ((elo[second] - elo[first]) / 400.0))
    won = rng.binomial(2, chance[:, None], (len(first), TABLES)).astype(np.float64)
    games = np.full_like(won, 2.0)  # p_t and g_t of each table
    sums = {
        "points": won.sum(axis=1), "games": games.sum(axis=1), "points2": (won**2).sum(axis=1),
        "games2": (games**2).sum(axis=1), "cross": (won * games).sum(axis=1),
    }  # fmt: skip
    # two seats: a table's points and meetings of a bot are the pair's
    pairs = PairSums(
        first.astype(np.int64), second.astype(np.int64), np.full(len(first), float(TABLES)),
        sums["games"], sums["points"], sums["points2"], sums["games2"], sums["cross"],
        first_table_points=sums["cross"], second_table_points=sums["games2"] - sums["cross"],
        first_table_games=sums["games2"], second_table_games=sums["games2"],
    )  # fmt: skip

    def per_bot(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
        return np.bincount(first, mine, size) + np.bincount(second, theirs, size)

    turned2 = sums["games2"] - 2 * sums["cross"] + sums["points2"]
    bots = BotSums(
        per_bot(pairs.tables, pairs.tables),
        per_bot(sums["points2"], turned2),
        per_bot(sums["cross"], sums["games2"] - sums["cross"]),
    )
    return names, pairs, bots


def hunter_mm(
    points: dict[tuple[str, str], float],
    names: Sequence[str],
    iterations: int = 500,
    tolerance: float = 1e-9,
) -> dict[str, float]:
    """The fit before issue 45, kept to compare (bench and tests): Hunter's MM iteration in
    pure Python over every two bots, with the same prior, until no strength moves by
    `tolerance` (in log); Elo, mean 0."""
    wins = dict(points)
    for a in names:
        for b in names:
            if a != b:
                wins[a, b] = wins.get((a, b), 0.0) + PRIOR_DRAWS / 2
    strength = dict.fromkeys(names, 1.0)
    for _ in range(iterations):
        changed = 0.0
        for a in names:
            won = sum(wins[a, b] for b in names if b != a)
            weight = sum(
                (wins[a, b] + wins[b, a]) / (strength[a] + strength[b]) for b in names if b != a
            )
            new = won / weight
            changed = max(changed, abs(math.log(new / strength[a])))
            strength[a] = new
        mean = sum(math.log(s) for s in strength.values()) / len(names)
        strength = {name: math.exp(math.log(s) - mean) for name, s in strength.items()}
        if changed < tolerance:
            break
    return {name: 400.0 * math.log10(s) for name, s in strength.items()}


def _old_seconds(names: list[str], pairs: PairSums) -> tuple[float, float]:
    """The old fit's time on the same sums, wall and CPU: its point fit and OLD_REFITS
    refits, the refits scaled to OLD_RESAMPLES."""
    points: dict[tuple[str, str], float] = {}
    for i, j, p, g in zip(pairs.first, pairs.second, pairs.points, pairs.games, strict=True):
        points[names[i], names[j]] = float(p)
        points[names[j], names[i]] = float(g - p)
    start, cpu = time.perf_counter(), time.process_time()
    hunter_mm(points, names)
    point = time.perf_counter() - start, time.process_time() - cpu
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(OLD_REFITS):
        hunter_mm(points, names, iterations=200)
    refits = time.perf_counter() - start, time.process_time() - cpu
    scale = OLD_RESAMPLES / OLD_REFITS
    return point[0] + refits[0] * scale, point[1] + refits[1] * scale


@click.command("fit")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
def fit_bench(as_json: bool) -> None:
    """Time the order-free Elo's fit (with its intervals) at 50, 200 and 1,000 bots."""
    rows = []
    old = (math.nan, math.nan)
    for size in FIELDS:
        names, pairs, bots = synthetic(size)
        start, cpu = time.perf_counter(), time.process_time()
        rated = fit(names, pairs, bots)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        assert len(rated) == size
        if size == FIELDS[0]:
            old = _old_seconds(names, pairs)
        rows.append({"bots": size, "pairs": len(pairs.first), "seconds": seconds, "cpu": cpu})
    if as_json:
        click.echo(
            json.dumps(
                {
                    "fits": rows,
                    "old_bots": FIELDS[0],
                    "old_seconds": old[0],
                    "old_cpu": old[1],
                    "target": TARGET_SECONDS,
                }
            )
        )
        return
    click.echo(
        f"order-free Elo from pair sums, interval included (every two bots met at {TABLES} "
        f"two-seat tables, 20 meetings); target: 1,000 bots within {TARGET_SECONDS:g} s"
    )
    click.echo(f"  {'bots':>6}{'pairs':>10}{'seconds':>10}{'CPU s':>10}")
    for row in rows:
        met = "met" if row["seconds"] <= TARGET_SECONDS else "MISSED"
        mark = f"  target {TARGET_SECONDS:g} s: {met}" if row["bots"] == 1000 else ""
        click.echo(
            f"  {row['bots']:>6}{row['pairs']:>10}{row['seconds']:>10.3f}{row['cpu']:>10.3f}{mark}"
        )
    click.echo(
        f"  the fit before issue 45 at {FIELDS[0]} bots (MM in pure Python, {OLD_RESAMPLES} bootstrap "
        f"refits, scaled from {OLD_REFITS}): {old[0]:.1f} s, CPU {old[1]:.1f} s "
        f"({old[0] / rows[0]['seconds']:.0f}x and {old[1] / max(rows[0]['cpu'], 1e-6):.0f}x the new)"
    )
