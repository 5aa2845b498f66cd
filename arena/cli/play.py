"""`arena play BOT_A BOT_B`: a match of seat-swapped pairs, a summary, one record per game."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from arena.errors import ArenaError
from arena.match import MatchSummary, play_match
from arena.players.manifest import resolve_bot
from arena.referee import GameReport, Limits

F = TypeVar("F", bound=Callable[..., Any])


def limit_options(command: F) -> F:
    """The time options shared by `play` and `check`."""
    command = click.option(
        "--time-bank",
        "time_bank_ms",
        type=click.IntRange(min=0),
        default=0,
        show_default=True,
        help="Extra time per game in ms; time over the limit is taken from it.",
    )(command)
    return click.option(
        "--time-limit",
        "move_ms",
        type=click.IntRange(min=1),
        default=1000,
        show_default=True,
        help="Time per decision in ms, from the request to the reply's newline.",
    )(command)


@click.command()
@click.argument("bot_a")
@click.argument("bot_b")
@click.option(
    "--games",
    "-n",
    type=click.IntRange(min=1),
    default=2,
    show_default=True,
    help="How many games; games 2k and 2k+1 share a deal with seats swapped.",
)
@click.option("--seed", type=int, default=None, help="Seed of the first pair (default: random).")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder for the game records [default: results/play-<timestamp>/].",
)
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary, not each game.")
@limit_options
def play(
    bot_a: str,
    bot_b: str,
    games: int,
    seed: int | None,
    out_dir: Path | None,
    quiet: bool,
    move_ms: int,
    time_bank_ms: int,
) -> None:
    """Play BOT_A against BOT_B (a bot folder, or a bot's name in bots/)."""
    if seed is None:
        seed = random.randrange(1_000_000)
    if out_dir is None:
        out_dir = Path("results") / f"play-{time.strftime('%Y%m%d-%H%M%S')}"
    limits = Limits(move_ms=move_ms, time_bank_ms=time_bank_ms)

    def show(index: int, report: GameReport) -> None:
        if not quiet:
            click.echo(game_line(index, report))

    try:
        manifest_a, manifest_b = resolve_bot(bot_a), resolve_bot(bot_b)
        summary = play_match(manifest_a, manifest_b, games, seed, limits, out_dir, show)
    except ArenaError as error:
        raise click.ClickException(str(error)) from None
    except OSError as error:  # e.g. --out cannot be made
        raise click.ClickException(
            f"Cannot write {error.filename or out_dir}: {error.strerror or error}; "
            "choose another --out."
        ) from None
    click.echo(format_summary(summary, seed))


def game_line(index: int, report: GameReport) -> str:
    """One game in one line: who sat where, the scores, how it ended."""
    outcome = report.outcome
    names = report.players
    result = "draw" if outcome.is_draw else f"{names[outcome.winners[0]]} wins"
    line = (
        f"game {index + 1:>3} (seed {report.spec.seed}): {names[0]} {outcome.scores[0]} - "
        f"{outcome.scores[1]} {names[1]}  {result}, {outcome.termination.value}"
    )
    if outcome.faulty_seat is not None:
        line += f"\n    {outcome.reason}"
    return line


def format_summary(summary: MatchSummary, seed: int) -> str:
    """The match summary as a small table."""
    a, b = summary.tallies
    width = max(len(a.name), len(b.name), 8)
    rows = [
        ("wins", str(a.wins), str(b.wins)),
        ("losses", str(a.losses), str(b.losses)),
        ("mean score", f"{summary.mean_score(0):.2f}", f"{summary.mean_score(1):.2f}"),
        ("ms/decision", f"{a.mean_think_ms:.3f}", f"{b.mean_think_ms:.3f}"),
        ("decisions", str(a.decisions), str(b.decisions)),
    ]
    lines = [
        f"{a.name} vs {b.name}: {summary.games} games, {summary.draws} draws "
        f"(seeds from {seed}, seats swapped in pairs)",
        f"{'':<12} {a.name:>{width}} {b.name:>{width}}",
    ]
    lines += [f"{label:<12} {x:>{width}} {y:>{width}}" for label, x, y in rows]
    ends = ", ".join(f"{name} {count}" for name, count in sorted(summary.terminations.items()))
    lines.append(f"game ends: {ends}")
    for tally in (a, b):
        if tally.failures:
            faults = ", ".join(f"{name} {count}" for name, count in sorted(tally.failures.items()))
            lines.append(f"failures of {tally.name}: {faults}")
    if not a.failures and not b.failures:
        lines.append("failures: none")
    lines.append(f"records: {summary.out_dir}")
    return "\n".join(lines)
