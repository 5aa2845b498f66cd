"""`arena run`: a round-robin tournament of bots, with a progress bar, a leaderboard and resume."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

import click

from arena.cli.match_stats import parse_sprt
from arena.cli.options import cluster_executor, cluster_options, cpu_limit_option, game_options
from arena.cli.progress import Progress, Steps
from arena.errors import ArenaError
from arena.games import DEFAULT_GAME

if TYPE_CHECKING:
    from arena.cluster import DaskExecutor
    from arena.results.report import Report
    from arena.run_config import TournamentConfig
    from arena.tournament import RunSummary

MANY_GAMES_PER_ROUND = 2000
"""Above this many games in one round, `run` points to --tables-per-round before starting."""


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _field(
    bots_dir: Path | None,
    names: tuple[str, ...],
    added: tuple[str, ...],
    game: str,
    seats: int | None = None,
) -> list[Any]:
    """The bots of a new tournament: those named, or the default field of the bots folder
    (the bots written for `game`), and the bots of --add."""
    from arena.players.manifest import (
        default_bots_dir,
        discover_bots,
        game_refusal,
        plays,
        resolve_bot,
    )

    directory = bots_dir or default_bots_dir()
    extra = [resolve_bot(name, directory) for name in added]
    if names:
        field = [resolve_bot(name, directory) for name in names]
        for bot in field + extra:
            if not plays(bot, game):  # a bot plays the games its bot.toml lists
                refusal = game_refusal(bot, game) + _game_they_play(field + extra, seats)
                raise click.ClickException(refusal)
    else:
        field = [bot for bot in discover_bots(directory) if bot.default and plays(bot, game)]
    field += [bot for bot in extra if bot.folder not in {known.folder for known in field}]
    if len(field) < 2:
        raise click.ClickException(
            f"{directory} has {len(field)} bot(s) in its default field for {game}; a tournament "
            "needs two (name bots on the command line, bundled ones too, e.g. `arena run "
            f"{' '.join(dict.fromkeys([*(b.name for b in field), 'random', 'starter-c']))}`; add "
            "one with --add PATH, or use --bots DIR)."
        )
    return field


def _game_they_play(bots: list[Any], seats: int | None) -> str:
    """When --game was not given (so the game is Mandala): a sentence naming the first game
    the bots' bot.toml files all list that seats the table, as `arena play` would choose."""
    from click.core import ParameterSource

    from arena.cli.bot_game import game_of_bots

    context = click.get_current_context(silent=True)
    if context is None or context.get_parameter_source("game") is not ParameterSource.DEFAULT:
        return ""
    try:
        game, _, _ = game_of_bots(bots, seats, len(bots))
    except ArenaError:
        return ""
    if game == DEFAULT_GAME:
        return ""
    return (
        f" Without --game, arena run plays {DEFAULT_GAME}; these bots all play {game}: "
        f"add --game {game}."
    )


def _gauntlet_name(gauntlet: str | None, bots_dir: Path | None) -> str | None:
    """The candidate's bot name (`--gauntlet` may name a folder)."""
    if gauntlet is None:
        return None
    from arena.players.manifest import default_bots_dir, resolve_bot

    return resolve_bot(gauntlet, bots_dir or default_bots_dir()).name


def _round_size_note(config: TournamentConfig) -> str | None:
    """A sentence on a round too large to play whole, offering --tables-per-round."""
    from arena.schedule import games_per_table, round_size

    seats = config.seats
    tables = round_size(len(config.bots), seats, gauntlet=config.gauntlet is not None)
    sample = config.tables_per_round
    if sample is not None and sample < tables:
        return (
            f"Each round plays a seeded, balanced sample of {sample} of its {tables} tables "
            f"of {seats} seats."
        )
    games = tables * games_per_table(seats, config.all_seatings)
    if games <= MANY_GAMES_PER_ROUND:
        return None
    return (
        f"One round is {tables} tables of {seats} seats ({games} games); "
        "--tables-per-round N plays a seeded, balanced sample of N tables a round instead."
    )


@click.command()
@click.argument("bot", nargs=-1)
@click.option(
    "--bots",
    "bots_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder of bots; the field is every bot in it except those with default = false "
    "[bots/ here, else the bundled bots].",
)
@click.option(
    "--add",
    "added",
    multiple=True,
    metavar="BOT",
    help="A bot to play besides the field (a folder or a name; repeatable): "
    "`--add bots/mine` plays the default field and mine.",
)
@click.option(
    "--gauntlet",
    metavar="BOT",
    help="Play only the tables of this candidate (a name or a folder; added to the field if "
    "needed): it meets every other bot, the others do not meet each other.",
)
@click.option(
    "--until-decided",
    callback=parse_sprt,
    metavar="ELO0,ELO1",
    help="Two seats: stop playing a pairing once its SPRT (nElo, 5% error rates) accepts "
    "ELO0 or ELO1; --rounds is then the most.",
)
@click.option("--rounds", type=click.IntRange(min=1), help="Rounds of the round robin [1].")
@click.option(
    "--workers",
    type=click.IntRange(min=0),
    help="Games played at once, one process each [number of cores]; 0 plays in this process.",
)
@cluster_options
@click.option("--seed", type=int, help="Seed of the deals [drawn at random, saved].")
@click.option(
    "--time-limit",
    "move_ms",
    type=click.IntRange(min=1),
    help="Milliseconds a bot has for one decision [1000].",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Results folder [results/run-<timestamp>].",
)
@click.option(
    "--resume",
    is_flag=True,
    help="Continue the tournament in --out (default: the newest run) where it stopped.",
)
@game_options
@click.option(
    "--seats",
    type=click.IntRange(min=1),
    help="Seats at every table [the game's default table size].",
)
@click.option(
    "--all-seatings",
    is_flag=True,
    help="Play every table's deal in all k! seatings instead of the k rotations.",
)
@click.option(
    "--tables-per-round",
    type=click.IntRange(min=1),
    help="Play a seeded, balanced sample of N tables each round instead of every table.",
)
@cpu_limit_option
@click.option(
    "--max-bot-mb",
    type=click.IntRange(min=1),
    help="The most a bot's source files may total, in MiB [256]; a bigger bot is refused.",
)
@click.option("--charts/--no-charts", default=True, help="Draw the PNG charts at the end.")
def run(**options: Any) -> None:
    """Run a round-robin tournament of BOTs (folders, or names: bots in --bots, else bundled
    ones; default: the field of --bots, which is bots/ here, else the bundled bots).

    Every round, every k bots (k = --seats) sit at a table and play one deal k times with
    the seats rotated; for two seats, every pair plays two games with the seats swapped.
    Results go to a folder with the games log, game records, ratings.csv, leaderboard.md,
    charts and run.log. Ctrl-C stops cleanly; --resume continues without replaying a game.
    """
    asked = Asked(**options)
    workers = (os.cpu_count() or 1) if asked.workers is None else asked.workers
    executor: DaskExecutor | None = None
    handed_over = False  # tournament.play stops the executor once it has it
    try:
        executor = cluster_executor(asked.cluster, asked.scheduler)
        if executor is not None:
            workers = executor.workers
        run_dir, config = _resumed(asked) if asked.resume else _created(asked)
        _announce(run_dir, config, workers, executor)
        handed_over = True
        summary = _played(run_dir, config, workers, executor)
        report = _written(run_dir, summary, asked.charts)
    except ArenaError as error:
        raise click.ClickException(str(error)) from None
    finally:
        if executor is not None and not handed_over:
            executor.shutdown()
    _show(run_dir, config, summary, report)


@dataclass(frozen=True)
class Asked:
    """The options of `arena run`, as click parses them."""

    bot: tuple[str, ...]
    bots_dir: Path | None
    added: tuple[str, ...]
    gauntlet: str | None
    until_decided: tuple[float, float] | None
    rounds: int | None
    workers: int | None
    cluster: str | None
    scheduler: str | None
    seed: int | None
    move_ms: int | None
    out: Path | None
    resume: bool
    game: str
    seats: int | None
    game_options: dict[str, Any]
    all_seatings: bool
    tables_per_round: int | None
    cpu_ms: int | None
    max_bot_mb: int | None
    charts: bool


def _resumed(asked: Asked) -> tuple[Path, TournamentConfig]:
    """The run to continue (--out, else the newest), checked against the options given."""
    from arena import tournament
    from arena.results.folders import RESULTS
    from arena.results.report import newest_run

    run_dir = asked.out if asked.out is not None else newest_run(RESULTS)
    given: dict[str, Any] = {
        "rounds": asked.rounds,
        "seed": asked.seed,
        "move_ms": asked.move_ms,
        "seats": asked.seats,
        "all_seatings": asked.all_seatings,
        "tables_per_round": asked.tables_per_round,
        "gauntlet": _gauntlet_name(asked.gauntlet, asked.bots_dir),
    }
    if asked.bot or asked.added or asked.bots_dir is not None:
        field = _field(asked.bots_dir, asked.bot, asked.added, asked.game, asked.seats)
        given["bots"] = [b.name for b in field]
    config, warnings = tournament.resume_run(run_dir, given)
    for warning in warnings:
        click.echo(f"warning: {warning}", err=True)
    click.echo(f"Resuming {run_dir}", err=True)
    return run_dir, config


def _created(asked: Asked) -> tuple[Path, TournamentConfig]:
    """A new run in --out (else a new folder of results/); bad input writes nothing."""
    from arena import tournament
    from arena.results.folders import new_results_folder

    run_dir = asked.out if asked.out is not None else new_results_folder("run")
    limits: dict[str, Any] = {} if asked.move_ms is None else {"move_ms": asked.move_ms}
    if asked.cpu_ms is not None:
        limits["cpu_ms"] = asked.cpu_ms
    if asked.max_bot_mb is not None:
        limits["bot_size_mb"] = asked.max_bot_mb
    added = asked.added + ((asked.gauntlet,) if asked.gauntlet else ())
    try:
        config = tournament.create_run(
            run_dir,
            _field(asked.bots_dir, asked.bot, added, asked.game, asked.seats),
            rounds=asked.rounds if asked.rounds is not None else 1,
            seed=asked.seed,
            limits=limits,
            game=asked.game,
            game_config=asked.game_options,
            seats=asked.seats,
            all_seatings=asked.all_seatings,
            tables_per_round=asked.tables_per_round,
            gauntlet=_gauntlet_name(asked.gauntlet, asked.bots_dir),
            until_decided=asked.until_decided,
        )
    except ArenaError:
        if asked.out is None:  # bad input writes nothing, not even an empty folder
            with contextlib.suppress(OSError):
                run_dir.rmdir()
        raise
    return run_dir, config


def _announce(
    run_dir: Path, config: TournamentConfig, workers: int, executor: DaskExecutor | None
) -> None:
    """What is about to be played, on stderr; a Dask cluster's workers readied for it."""
    table = config.seats
    click.echo(
        f"{len(config.bots)} bots ({', '.join(config.names)}), "
        + (f"tables of {table} seats, " if table != 2 else "")
        + f"{config.rounds} rounds, "
        f"seed {config.seed}, {workers} workers: {config.total_games} games.",
        err=True,
    )
    note = _round_size_note(config)
    if note is not None:
        click.echo(note, err=True)
    if executor is not None:
        from arena.run_setup import load_bots, record_workers

        warnings = executor.prepare(run_dir, config.limits, load_bots(config))
        written = record_workers(run_dir, executor.sandboxes)
        for warning in [*warnings, *([written] if written else [])]:
            click.echo(f"warning: {warning}", err=True)


def _played(
    run_dir: Path, config: TournamentConfig, workers: int, executor: DaskExecutor | None
) -> RunSummary:
    """The tournament played (SIGTERM stops it as Ctrl-C does), with its progress shown."""
    from arena import tournament

    progress = Progress(config.total_games)
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        summary = tournament.play(
            run_dir,
            config,
            workers=workers,
            executor=executor,
            progress=progress.update,
            warn=progress.note,
        )
    finally:
        signal.signal(signal.SIGTERM, previous)
        progress.close()
    if summary.repaired:
        click.echo(f"warning: {summary.repaired}", err=True)
    if summary.changed:
        click.echo(
            f"warning: {', '.join(summary.changed)} changed during the run (see above and "
            f"{run_dir / 'run.log'}): their results mix two versions.",
            err=True,
        )
    return summary


def _written(run_dir: Path, summary: RunSummary, charts: bool) -> Report:
    """The run's results written (ratings, charts, leaderboard, report.html), each step shown
    as it goes; after Ctrl-C, said first, since a large run's results take a while; a second
    Ctrl-C stops the writing (`arena report` writes them later)."""
    from arena.results.report import make_report

    logged = f"{summary.done} of {summary.total} games" if summary.interrupted else ""
    click.echo(
        f"Interrupted: {logged} are logged. Writing their results to {run_dir} (Ctrl-C again "
        f"to skip; `arena report {run_dir}` writes them later):"
        if summary.interrupted
        else f"Writing the results to {run_dir}:",
        err=True,
    )
    steps = Steps()
    try:
        return make_report(run_dir, charts=charts, html=True, step=steps)
    except KeyboardInterrupt:
        steps.close()
        click.echo(
            f"Stopped before the results were all written: `arena report {run_dir}` writes "
            f"them; `arena run --resume --out {run_dir}` continues the run.",
            err=True,
        )
        sys.exit(130)
    finally:
        steps.close()


def _show(run_dir: Path, config: TournamentConfig, summary: RunSummary, report: Report) -> None:
    """The leaderboard, where the results are, and how to continue an interrupted run."""
    click.echo(report.text(), nl=False)
    if config.gauntlet is not None:
        from arena.results.log import LOG_NAME, read_games
        from arena.results.tables import gauntlet_lines

        games = read_games(run_dir / LOG_NAME)
        click.echo("\n" + "\n".join(gauntlet_lines(games, config.gauntlet)))
    click.echo(f"\nResults: {run_dir}")
    if report.html is not None:
        click.echo(f"Report: {report.html} (open it in a browser)")
    if summary.interrupted:
        click.echo(
            f"Interrupted: {summary.done} of {summary.total} games are logged. "
            f"Continue with: arena run --resume --out {run_dir}",
            err=True,
        )
        sys.exit(130)
