"""`arena play human BOT...`: one game with you in a seat, on a page in your browser; the
other seats are bots in their sandbox, the referee the same as theirs (arena/human/)."""

from __future__ import annotations

import functools
import webbrowser
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import click

from arena.cli.game_line import game_line
from arena.human.game import HumanClock, HumanTable, play_human_game
from arena.human.seat import human_name
from arena.names import name_problem
from arena.players.limits import Limits
from arena.players.manifest import BotManifest, game_refusal, plays, resolve_bot
from arena.referee import GameReport

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class HumanOptions:
    """The human seat's options of `arena play`."""

    clock_s: float
    open_page: bool
    port: int
    gone_s: float


_OPTIONS = (
    click.option(
        "--clock",
        "clock_s",
        type=click.FloatRange(min=5),
        default=600.0,
        show_default=True,
        help="With a human seat: the seconds the human has for each decision (a clock on the page).",
    ),
    click.option(
        "--open/--no-open",
        "open_page",
        default=True,
        show_default=True,
        help="With a human seat: open the page in the browser (otherwise only print its address).",
    ),
    click.option(
        "--port",
        type=click.IntRange(0, 65535),
        default=0,
        help="With a human seat: the page's port on 127.0.0.1 [default: any free port].",
    ),
    click.option(
        "--gone-after",
        "gone_s",
        type=click.FloatRange(min=1),
        default=120.0,
        show_default=True,
        help="With a human seat: after the game, an end screen silent this many seconds was "
        "closed and the command ends (it also ends at the page's Done). During the game only "
        "the clock decides: a closed page may be opened again at its address until it runs out.",
    ),
)


def human_options(command: F) -> F:
    """The options above, given to `command` as one `human: HumanOptions`."""

    @functools.wraps(command)
    def wrapper(
        *args: Any, clock_s: float, open_page: bool, port: int, gone_s: float, **kwargs: Any
    ) -> Any:
        return command(*args, human=HumanOptions(clock_s, open_page, port, gone_s), **kwargs)

    for option in reversed(_OPTIONS):
        wrapper = option(wrapper)
    return wrapper  # type: ignore[return-value]


def _seats(bots: tuple[str, ...], seats: int, game: str) -> list[BotManifest | str]:
    chosen: list[BotManifest | str] = []
    for bot in bots:
        name = human_name(bot)
        if name is not None:
            if problem := name_problem(name.partition(":")[2], "The NAME of human:NAME"):
                raise click.UsageError(problem)
            chosen.append(name)
            continue
        manifest = resolve_bot(bot)
        if not plays(manifest, game):
            raise click.ClickException(game_refusal(manifest, game))
        chosen.append(manifest)
    chosen += [chosen[-1]] * (seats - len(chosen))
    if sum(isinstance(who, str) for who in chosen) != 1:
        raise click.UsageError(
            "One human per table: give `human` (or `human:NAME`) once, and a bot last "
            "(the last BOT fills the seats left over)."
        )
    return chosen


def play_human(
    bots: tuple[str, ...],
    seats: int,
    game: str,
    game_options: dict[str, Any],
    seed: int,
    out_dir: Path,
    limits: Limits,
    human: HumanOptions,
) -> None:
    """Play one game with the human's seat on the page; print its result and its record as
    soon as it is over, then serve the end screen and the replay until the player is done."""
    table = HumanTable(
        seats=_seats(bots, seats, game),
        game=game,
        config=game_options,
        seed=seed,
        limits=limits,
        clock=HumanClock(move_s=human.clock_s, gone_s=human.gone_s),
        port=human.port,
    )

    def on_open(url: str) -> None:
        click.echo(f"Your seat's page (keep it to yourself, it holds your seat's key): {url}")
        if human.open_page and not webbrowser.open(url):
            click.echo("No browser could be opened: open the address above yourself.")

    ended: list[Path] = []

    def on_end(report: GameReport, path: Path) -> None:
        ended.append(path)
        click.echo(game_line(0, report))
        click.echo(f"record: {path} (replay: arena replay {path} --html)")
        if table.clock.linger_s > 0:
            click.echo(
                f"The page stays open for the game's replay: this ends at the page's Done, "
                f"once the page has been closed for {table.clock.gone_s:g} s (at most "
                f"{table.clock.linger_s / 60:g} minutes), or at Ctrl-C."
            )

    try:
        play_human_game(table, out_dir, on_open, on_end)
    except KeyboardInterrupt:
        if not ended:  # during the game: stopped, as any command
            raise
