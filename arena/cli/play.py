"""`arena play BOT_A BOT_B`: a match of seat-swapped pairs, a summary, one record per game."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from arena.cli.bot_game import game_of_bots
from arena.cli.game_line import game_line
from arena.cli.match_stats import format_elo, format_sprt, parse_sprt, sprt_stop, sprt_test
from arena.cli.options import bot_game_options, limit_options
from arena.cli.play_human import HumanOptions, human_options, play_human
from arena.errors import ArenaError
from arena.game_sources import get_game, ready_table
from arena.human.seat import human_name
from arena.match import BotTally, MatchSummary, play_match, seat_labels
from arena.players.limits import Limits
from arena.players.manifest import BotManifest, common_games, game_refusal, plays, resolve_bot
from arena.referee import GameReport
from arena.results.folders import new_results_folder, unused_out
from arena.stats.ahead import Ahead
from arena.stats.sprt import CONTINUE, MODELS, Sprt


@click.command()
@click.argument("bots", metavar="BOT... ", nargs=-1, required=True)
@click.option(
    "--games",
    "-n",
    type=click.IntRange(min=1),
    default=None,
    help="How many games [default: one deal, once per rotation of the seats]; each deal is "
    "played once per rotation (2 seats: games 2k and 2k+1 share a deal, seats swapped).",
)
@click.option(
    "--seats",
    type=click.IntRange(min=1),
    default=None,
    help="Seats at the table [the number of BOTs given, at least the game's smallest table]; "
    "the last BOT fills the seats left over.",
)
@bot_game_options
@click.option("--seed", type=int, default=None, help="Seed of the first deal (default: random).")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder for the game records [default: results/play-<timestamp>/].",
)
@click.option("--quiet", "-q", is_flag=True, help="Print only the summary, not each game.")
@click.option(
    "--sprt",
    callback=parse_sprt,
    metavar="ELO0,ELO1",
    help="Two bots: play until the SPRT accepts H0 (Elo difference ELO0) or H1 (ELO1), e.g. "
    "--sprt 0,10; at 2 seats on seat-swapped pairs, at more on which of the first two BOTs "
    "finished ahead in each game.",
)
@click.option(
    "--alpha",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="SPRT: the chance of accepting H1 when H0 holds.",
)
@click.option(
    "--beta",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="SPRT: the chance of accepting H0 when H1 holds.",
)
@click.option(
    "--elo-model",
    type=click.Choice(MODELS),
    default="normalized",
    show_default=True,
    help="SPRT: the Elo of ELO0,ELO1 (normalized Elo, or logistic Elo).",
)
@click.option(
    "--max-games",
    type=click.IntRange(min=2),
    default=20000,
    show_default=True,
    help="SPRT: stop without a verdict after this many games.",
)
@limit_options
@human_options
def play(
    bots: tuple[str, ...],
    games: int | None,
    seats: int | None,
    game: str,
    game_options: dict[str, Any],
    seed: int | None,
    out_dir: Path | None,
    quiet: bool,
    sprt: tuple[float, float] | None,
    alpha: float,
    beta: float,
    elo_model: str,
    max_games: int,
    move_ms: int,
    time_bank_ms: int,
    cpu_ms: int | None,
    human: HumanOptions,
) -> None:
    """Play BOTs against each other at one table (each a bot's folder, or its name: a bot in
    bots/ here, else a bundled one).

    `arena play mine greedy` plays a seat-swapped pair; `arena play mine random --seats 4
    --game NAME` seats mine against three copies of random. The same bot may sit twice
    (labelled name#1, name#2). `human` (or `human:NAME`) as a BOT seats you: `arena play
    human mine` plays one game against mine on a page in your browser.
    """
    table = _Table(
        bots, game, game_options, random.randrange(1_000_000) if seed is None else seed,
        Limits(move_ms=move_ms, time_bank_ms=time_bank_ms, cpu_ms=cpu_ms), out_dir,
    )  # fmt: skip
    try:
        table.game, shared = _game(bots, game, seats)
        rules = get_game(table.game)
        wanted = seats or max(len(bots), rules.min_players)
        table.seats = ready_table(rules, game_options, wanted, shared)
        if len(bots) > table.seats:
            raise click.UsageError(
                f"{len(bots)} bots were given for a table of {table.seats} seats."
            )
        if table.out_dir is not None and (refusal := unused_out(table.out_dir)):
            raise click.ClickException(refusal)  # its records would overwrite theirs
        if any(human_name(bot) for bot in bots):
            table.out_dir = table.out_dir or new_results_folder("human")
            play_human(bots, table.seats, table.game, game_options, table.seed, table.out_dir,
                       table.limits, human)  # fmt: skip
        else:
            _play_bots(table, games, quiet, _SprtOptions(sprt, alpha, beta, elo_model, max_games))
    except ArenaError as error:
        raise click.ClickException(str(error)) from None
    except OSError as error:  # e.g. --out cannot be made
        raise click.ClickException(
            f"Cannot write {error.filename or table.out_dir}: {error.strerror or error}; "
            "choose another --out."
        ) from None


def _game(bots: tuple[str, ...], game: str, seats: int | None) -> tuple[str, list[str] | None]:
    """The game to play (--game, else the first game the bots named have in common that
    seats them, said in a line) and the games they have in common (None: no bot lists any)."""
    manifests = [resolve_bot(bot) for bot in bots if human_name(bot) is None]
    if click.get_current_context().get_parameter_source("game") != ParameterSource.DEFAULT:
        return game, common_games(manifests)
    chosen, shared, why = game_of_bots(manifests, seats, len(bots))
    if why:  # a note on stderr: the output (a human seat's page address first) stays as it was
        click.echo(why, err=True)
    return chosen, shared


@dataclass
class _Table:
    """What `arena play` was asked to seat and with which limits."""

    bots: tuple[str, ...]
    game: str
    game_options: dict[str, Any]
    seed: int
    limits: Limits
    out_dir: Path | None
    seats: int = 2


@dataclass(frozen=True)
class _SprtOptions:
    sprt: tuple[float, float] | None
    alpha: float
    beta: float
    elo_model: str
    max_games: int


def _manifests(table: _Table) -> list[BotManifest]:
    """The bot of each seat (the last fills the seats left over); a bot refuses a game its
    bot.toml does not list."""
    manifests = [resolve_bot(bot) for bot in table.bots]
    for manifest in manifests:
        if not plays(manifest, table.game):  # a bot plays the games its bot.toml lists
            raise click.ClickException(game_refusal(manifest, table.game))
    return manifests + [manifests[-1]] * (table.seats - len(manifests))


def _play_bots(table: _Table, games: int | None, quiet: bool, options: _SprtOptions) -> None:
    """The match, its summary and the SPRT's verdict when one was asked."""
    manifests = _manifests(table)
    labels = seat_labels(manifests)
    ahead = [Ahead()]  # seats > 2: the first bot against the second, game by game

    def show(index: int, report: GameReport) -> None:
        if len(report.players) > 2:
            ahead[0] = ahead[0].add(report.outcome.ranks, *_first_two(report.players, labels))
        if not quiet:
            click.echo(game_line(index, report))

    sprt, seats = options.sprt, table.seats
    if seats == 2:
        test = sprt_test(sprt, options.alpha, options.beta, options.elo_model, seats)
        stop = None if test is None else sprt_stop(test, quiet)
    else:
        test = _table_test(sprt, options.alpha, options.beta, options.elo_model, seats)
        stop = None if test is None else _table_stop(test, ahead, quiet)
    table.out_dir = table.out_dir or new_results_folder("play")
    summary = play_match(
        manifests,
        games if games is not None else (options.max_games if test else seats),
        table.seed,
        table.limits,
        table.out_dir,
        show,
        game=table.game,
        game_config=table.game_options,
        stop=stop,
    )
    click.echo(format_summary(summary, table.seed))
    if test is not None and seats == 2:
        click.echo(format_sprt(test, summary))
    elif test is not None:
        click.echo(format_table_sprt(test, ahead[0], labels))


def _first_two(players: list[str], labels: list[str]) -> tuple[int, int]:
    """The seats of the first and the second bot given (their labels) in one game."""
    return players.index(labels[0]), players.index(labels[1])


def _table_test(
    sprt: tuple[float, float] | None, alpha: float, beta: float, model: str, seats: int
) -> Sprt | None:
    """Tables of more than 2 seats: the SPRT on which of the first two bots finished ahead."""
    if sprt is None:
        return None
    try:
        return Sprt(sprt[0], sprt[1], alpha, beta, model)
    except ValueError as error:
        raise click.UsageError(f"--sprt: {error}.") from None


def _table_stop(test: Sprt, ahead: list[Ahead], quiet: bool) -> Callable[[MatchSummary], bool]:
    """After each deal: the LLR of the games so far (every deal, or every 10th if quiet)."""
    deals = [0]

    def stop(summary: MatchSummary) -> bool:
        counts = ahead[0]
        llr = counts.llr(test)
        verdict = test.verdict(llr)
        deals[0] += 1
        if not quiet or deals[0] % 10 == 0 or verdict != CONTINUE:
            click.echo(
                f"SPRT games {counts.games:>5}: LLR {llr:+.2f} "
                f"(bounds {test.lower:+.2f}, {test.upper:+.2f})"
            )
        return verdict != CONTINUE

    return stop


def format_table_sprt(test: Sprt, counts: Ahead, labels: list[str]) -> str:
    """The verdict of the test at more than 2 seats in one line, with its counts."""
    llr = counts.llr(test)
    verdict = test.verdict(llr)
    kind = "nElo" if test.model == "normalized" else "Elo"
    first, second = labels[0], labels[1]
    said = {
        "H1": f"H1 accepted: {first} finishes ahead of {second} more often "
        f"(nearer {test.elo1:g} than {test.elo0:g} {kind})",
        "H0": f"H0 accepted: {first} does not finish ahead of {second} by {test.elo1:g} "
        f"{kind} (nearer {test.elo0:g})",
    }.get(verdict, "no verdict within --max-games")
    return (
        f"SPRT [{test.elo0:g}, {test.elo1:g}] {kind} on finishing ahead, alpha {test.alpha:g}, "
        f"beta {test.beta:g}: LLR {llr:+.2f} (bounds {test.lower:+.2f}, {test.upper:+.2f}) "
        f"after {counts.games} games ({first} ahead {counts.wins}, level {counts.draws}, "
        f"behind {counts.losses}): {said}."
    )


def _cpu(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def overloaded(tallies: list[BotTally]) -> bool:
    """True when every bot thought at least 2 ms a decision and its wall time was more than
    twice its CPU time: the bots waited for the machine, not the other way round."""
    return all(
        t.cpu_ms_per_decision is not None
        and t.mean_think_ms >= 2.0
        and t.mean_think_ms > 2 * t.cpu_ms_per_decision
        for t in tallies
    )


def format_summary(summary: MatchSummary, seed: int) -> str:
    """The match summary as a small table, one column per bot."""
    tallies = summary.tallies
    width = max(*(len(t.name) for t in tallies), 8)
    rows: list[tuple[str, list[str]]] = [("wins", [str(t.wins) for t in tallies])]
    if len(tallies) == 2:
        rows.append(("losses", [str(t.losses) for t in tallies]))
    else:
        rows.append(("mean place", [f"{t.mean_place:.2f}" for t in tallies]))
    rows += [
        ("mean score", [f"{summary.mean_score(i):.2f}" for i in range(len(tallies))]),
        ("ms/decision", [f"{t.mean_think_ms:.3f}" for t in tallies]),
        ("p95 ms", [f"{t.think_percentile(0.95):.3f}" for t in tallies]),
        ("max ms", [f"{max(t.thinks, default=0.0):.3f}" for t in tallies]),
        ("CPU ms/dec.", [_cpu(t.cpu_ms_per_decision) for t in tallies]),
        ("decisions", [str(t.decisions) for t in tallies]),
    ]
    seating = "seats swapped in pairs" if len(tallies) == 2 else "seats rotated on each deal"
    lines = [
        f"{' vs '.join(t.name for t in tallies)}: {summary.games} games, {summary.draws} draws "
        f"(seeds from {seed}, {seating})",
        f"{'':<12} " + " ".join(f"{t.name:>{width}}" for t in tallies),
    ]
    lines += [f"{label:<12} " + " ".join(f"{v:>{width}}" for v in values) for label, values in rows]
    ends = ", ".join(f"{name} {count}" for name, count in sorted(summary.terminations.items()))
    lines.append(f"game ends: {ends}")
    for tally in tallies:
        if tally.failures:
            faults = ", ".join(f"{name} {count}" for name, count in sorted(tally.failures.items()))
            lines.append(f"failures of {tally.name}: {faults}")
    if not any(tally.failures for tally in tallies):
        lines.append("failures: none")
    if overloaded(tallies):
        lines.append(
            "note: every bot's think time is far above its CPU time: this machine is busy, so "
            "time losses may be the machine's fault, not the bots'."
        )
    if len(tallies) == 2:
        lines += format_elo(summary)
    lines.append(f"records: {summary.out_dir}")
    return "\n".join(lines)
