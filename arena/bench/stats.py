"""`arena bench stats`: how often each 95% interval the arena prints holds the truth.

Simulated tournaments of bots of known strengths (arena/stats/coverage.py) at 2, 3 and 4
seats and from one round to many: an honest 95% interval holds the truth in 93-97% of
them. A figure outside that band is printed with a mark, a refused interval ("too few
games") is counted apart.
"""

from __future__ import annotations

import json

import click

from arena.stats.coverage import METHODS, Coverage, coverage

ROUNDS = (1, 2, 5, 20, 60)
"""Tournament lengths simulated, in rounds of the round robin of 4 bots."""
SEATS = {"win rate": (2,), "mean rank": (3, 4), "Elo (pairs)": (2,), "Elo (games)": (2,)}
"""Where the arena prints each (two seats show a win rate, more seats a mean rank)."""
SLOW = {"order-free Elo": 4}
"""Methods whose simulations cost more (a fit per resample): a quarter as many."""


def rows(sims: int, rounds: tuple[int, ...] = ROUNDS) -> list[Coverage]:
    """Every method at every table size it applies to, at every length."""
    found = []
    for method in METHODS:
        for seats in SEATS.get(method, (2, 3, 4)):
            for length in rounds:
                found.append(coverage(method, seats, length, max(2, sims // SLOW.get(method, 1))))
    return found


@click.command("stats")
@click.option("--sims", default=100, show_default=True, help="Tournaments simulated a row.")
@click.option("--json", "as_json", is_flag=True, help="Print the rows as JSON, a row a line.")
def stats_bench(sims: int, as_json: bool) -> None:
    """Coverage of every 95% interval the arena prints, by table size and tournament length."""
    table = rows(sims)
    if as_json:
        for row in table:
            click.echo(json.dumps({**row.__dict__, "coverage": row.rate}))
        return
    click.echo(
        f"coverage of the 95% intervals: {sims} simulated tournaments a row (a quarter for "
        "the slow ones), 4 bots of random strengths; honest is 93-97%"
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
