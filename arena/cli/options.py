"""Options shared by the commands: the time limits, the game and its options."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

import click

from arena.games import DEFAULT_GAME

F = TypeVar("F", bound=Callable[..., Any])


def limit_options(command: F) -> F:
    """The time options shared by `play` and `check`."""
    command = cpu_limit_option(command)
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


def cpu_limit_option(command: F) -> F:
    """`--cpu-limit-ms N`: CPU time per decision, measured by the bot's cgroup."""
    return click.option(
        "--cpu-limit-ms",
        "cpu_ms",
        type=click.IntRange(min=1),
        default=None,
        help="CPU time per decision in ms (all the bot's processes, from its cgroup): fair on "
        "a loaded machine. The --time-limit still holds: set it generously beside this.",
    )(command)


def _parse_game_options(
    context: click.Context, parameter: click.Parameter, values: tuple[str, ...]
) -> dict[str, Any]:
    """`key=value` pairs as a dict; a value is read as JSON if it can be (500, true, "x")."""
    options: dict[str, Any] = {}
    for text in values:
        key, equals, value = text.partition("=")
        if not equals or not key:
            raise click.BadParameter(f"{text!r} is not key=value (e.g. turn_limit=500).")
        try:
            options[key] = json.loads(value)
        except ValueError:
            options[key] = value
    return options


def game_options(command: F) -> F:
    """`--game NAME` and `--game-option KEY=VALUE` (repeatable), checked later by the game."""
    return _game_options(command, "The game to play (`arena games` lists them).", True)


def league_game_options(command: F) -> F:
    """`game_options` for a league, whose store keeps its game (`arena serve`)."""
    return _game_options(
        command,
        f"The game to play (`arena games` lists them) [as the league played it, else "
        f"{DEFAULT_GAME}].",
        False,
    )


def bot_game_options(command: F) -> F:
    """`game_options` for a command that plays the bots' own game unasked (`arena check`,
    `arena play`)."""
    return _game_options(
        command,
        f"The game to play (`arena games` lists them) [the first game in the BOT's bot.toml "
        f"(every BOT's, when several are named), else {DEFAULT_GAME}].",
        False,
    )


def _game_options(command: F, game_help: str, show_default: bool) -> F:
    command = click.option(
        "--game-option",
        "game_options",
        multiple=True,
        callback=_parse_game_options,
        metavar="KEY=VALUE",
        help="An option of the game, checked by the game (repeatable), e.g. turn_limit=500.",
    )(command)
    return click.option(
        "--game", default=DEFAULT_GAME, show_default=show_default, help=game_help, callback=_known
    )(command)


def _known(context: click.Context, parameter: click.Parameter, name: str) -> str:
    """--game as given, once it names a game of this arena (a name no game has was taken for
    a game the bots' bot.toml did not list)."""
    from arena.errors import GameError
    from arena.game_sources import get_game

    try:
        get_game(name)
    except GameError as error:
        raise click.ClickException(str(error)) from None  # one sentence, as the game says
    return name


def cluster_options(command: F) -> F:
    """`--cluster local:N` and `--scheduler tcp://HOST:PORT`, shared by `run` and `serve`."""
    command = click.option(
        "--scheduler",
        metavar="tcp://HOST:PORT",
        help="Play on a running Dask cluster (`dask scheduler`, `dask worker`); see README.",
    )(command)
    return click.option(
        "--cluster",
        metavar="local:N",
        help="Play on a Dask LocalCluster of N worker processes on this machine.",
    )(command)


def cluster_executor(cluster: str | None, scheduler: str | None) -> Any:
    """The Dask executor `--cluster` or `--scheduler` asks for (None: the local pool),
    connected before anything is written; a usage error when both are given."""
    if cluster is not None and scheduler is not None:
        raise click.UsageError("Give --cluster local:N or --scheduler tcp://HOST:PORT, not both.")
    if cluster is None and scheduler is None:
        return None
    from arena.cluster import DaskExecutor, local_workers

    if cluster is not None:
        n = local_workers(cluster)
        click.echo(f"Starting a Dask LocalCluster of {n} workers.", err=True)
        return DaskExecutor(local=n)
    click.echo(f"Connecting to the Dask scheduler at {scheduler}.", err=True)
    return DaskExecutor(address=scheduler)
