"""`arena bench stats`: how often each 95% interval the arena prints holds the truth.

Simulated tournaments of bots of known strengths (arena/stats/coverage.py) at 2, 3 and 4
seats and from one round to many: an honest 95% interval holds the truth in 93-97% of
them. A figure outside that band is printed with a mark, a refused interval ("too few
games") is counted apart.

Then the SPRT of `arena play --seats 3|4 --sprt` (on which of two bots finished ahead,
arena/stats/ahead.py), simulated with the first bot ELO0 and ELO1 stronger: how often it
accepts the wrong hypothesis (at most about alpha, beta = 5%) and its mean length.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import click

from arena.stats.ahead import simulate
from arena.stats.coverage import METHODS, Coverage, coverage
from arena.stats.sprt import H0, H1, Sprt

ROUNDS = (1, 2, 5, 20, 60)
"""Tournament lengths simulated, in rounds of the round robin of 4 bots."""
SEATS = {"win rate": (2,), "mean rank": (3, 4), "Elo (pairs)": (2,), "Elo (games)": (2,)}
"""Where the arena prints each (two seats show a win rate, more seats a mean rank)."""


def rows(sims: int, rounds: tuple[int, ...] = ROUNDS) -> list[Coverage]:
    """Every method at every table size it applies to, at every length."""
    found = []
    for method in METHODS:
        for seats in SEATS.get(method, (2, 3, 4)):
            for length in rounds:
                found.append(coverage(method, seats, length, sims))
    return found


TABLE_TEST = Sprt(0.0, 40.0)
"""The k-seat SPRT simulated: [0, 40] nElo, alpha = beta = 5% (wider bounds than a real
test's 0,10 keep the bench quick; the error rates are the test's, not the bounds')."""
TABLE_SEATS = (3, 4)
MAX_GAMES = 20000


@dataclass(frozen=True)
class TableRun:
    """The k-seat SPRT simulated `sims` times at one table size and one true Elo."""

    seats: int
    elo: float
    sims: int
    wrong: int
    """Runs that accepted the hypothesis that is false (H1 at ELO0, H0 at ELO1)."""
    undecided: int
    mean_games: float

    @property
    def rate(self) -> float:
        return self.wrong / self.sims


def table_rows(sims: int, test: Sprt = TABLE_TEST, seed: int = 1) -> list[TableRun]:
    """The k-seat SPRT at 3 and 4 seats, with the first bot ELO0 then ELO1 stronger."""
    rng = random.Random(seed)
    found = []
    for seats in TABLE_SEATS:
        for elo, false in ((test.elo0, H1), (test.elo1, H0)):
            runs = [simulate(test, elo, seats, MAX_GAMES, rng) for _ in range(sims)]
            found.append(
                TableRun(
                    seats,
                    elo,
                    sims,
                    sum(run.verdict == false for run in runs),
                    sum(run.verdict not in (H0, H1) for run in runs),
                    sum(run.games for run in runs) / sims,
                )
            )
    return found


@click.command("stats")
@click.option("--sims", default=100, show_default=True, help="Tournaments simulated a row.")
@click.option("--json", "as_json", is_flag=True, help="Print the rows as JSON, a row a line.")
def stats_bench(sims: int, as_json: bool) -> None:
    """Coverage of every 95% interval the arena prints, by table size and tournament length."""
    table = rows(sims)
    tests = table_rows(sims)
    if as_json:
        for row in table:
            click.echo(json.dumps({**row.__dict__, "coverage": row.rate}))
        for run in tests:
            click.echo(json.dumps({"test": "k-seat SPRT", **run.__dict__, "error": run.rate}))
        return
    click.echo(
        f"coverage of the 95% intervals: {sims} simulated tournaments a row, 4 bots of random "
        "strengths; honest is 93-97%"
    )
    click.echo(
        f"  {'interval':<16}{'method':<42}{'seats':>6}{'rounds':>7}{'tables':>7}"
        f"{'coverage':>10}{'refused':>9}"
    )
    for row in table:
        figure = "-" if row.given == 0 else f"{row.rate:.1%}"
        mark = "" if row.given == 0 or 0.93 <= row.rate <= 0.97 else "  <- outside 93-97%"
        click.echo(
            f"  {row.method:<16}{METHODS[row.method][0]:<42}{row.seats:>6}{row.rounds:>7}"
            f"{row.tables:>7}{figure:>10}{row.refused:>9}{mark}"
        )
    test = TABLE_TEST
    click.echo(
        f"SPRT at tables of k seats (arena play --seats k --sprt, on finishing ahead): "
        f"[{test.elo0:g}, {test.elo1:g}] nElo, alpha {test.alpha:g}, beta {test.beta:g}, "
        f"{sims} simulated tests a row; the wrong verdict should come at most about 5%"
    )
    click.echo(
        f"  {'seats':>6}{'true nElo':>11}{'tests':>7}{'wrong':>8}{'undecided':>11}{'games':>9}"
    )
    for run in tests:
        click.echo(
            f"  {run.seats:>6}{run.elo:>11g}{run.sims:>7}{run.rate:>8.1%}{run.undecided:>11}"
            f"{run.mean_games:>9.0f}"
        )
