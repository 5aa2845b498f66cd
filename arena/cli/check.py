"""`arena check BOT`: the conformance check to run before entering a tournament."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from arena.cli.options import bot_game_options, limit_options
from arena.conformance import CheckResult, check_bot
from arena.errors import ArenaError
from arena.game_sources import get_game, ready_table
from arena.games import DEFAULT_GAME
from arena.players.limits import Limits
from arena.players.manifest import (
    FAMILY,
    BotManifest,
    common_games,
    game_refusal,
    plays,
    resolve_bot,
    written_for,
)
from arena.results.folders import new_results_folder, unused_out


@click.command()
@click.argument("bot")
@click.option(
    "--games",
    "-n",
    type=click.IntRange(min=1),
    default=4,
    show_default=True,
    help="Games against the opponent; then, for each kind of decision the game asks that "
    "the bot has not met, one game from a position where the bot is asked it.",
)
@click.option(
    "--opponent",
    default="random",
    show_default=True,
    help="The bot to play against (a folder, or a name: a bot in bots/ here, else a bundled one).",
)
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first deal.")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder for records and logs [default: results/check-<bot>-<timestamp>/].",
)
@bot_game_options
@click.option(
    "--seats",
    type=click.IntRange(min=1),
    default=None,
    help="Seats at the table [the game's default]; the opponent fills every other seat.",
)
@limit_options
def check(
    bot: str,
    games: int,
    opponent: str,
    seed: int,
    out_dir: Path | None,
    game: str,
    game_options: dict[str, Any],
    seats: int | None,
    move_ms: int,
    time_bank_ms: int,
    cpu_ms: int | None,
) -> None:
    """Check that BOT speaks protocol version 2 correctly; exit 1 if anything must be fixed,
    or if a kind of decision the game asks never came to BOT (the check is incomplete).

    The game is --game, else the first game of the bot's `games` (bot.toml), else Mandala."""
    given = click.get_current_context().get_parameter_source("game") != ParameterSource.DEFAULT
    try:
        manifest = resolve_bot(bot)
        game, why = _game_of(manifest, game if given else None)
        rules = get_game(game)
        rival = resolve_bot(opponent)
        if not plays(rival, game):
            raise ArenaError(_opponent_refusal(rival, game))
        seats = ready_table(rules, game_options, seats)
    except ArenaError as error:
        raise click.ClickException(str(error)) from None
    if out_dir is not None and (refusal := unused_out(out_dir)):
        raise click.ClickException(refusal)  # its records would overwrite theirs
    if out_dir is None:
        out_dir = new_results_folder(f"check-{manifest.name}")
    limits = Limits(move_ms=move_ms, time_bank_ms=time_bank_ms, cpu_ms=cpu_ms)
    click.echo(
        f"Checking {manifest.name} ({manifest.folder}) against {rival.name} at {game} "
        f"({seats} seats), {move_ms} ms per decision"
    )
    if why:
        click.echo(why)
    results = _checked(
        manifest, rival, limits, out_dir, games, seed, game=game, options=game_options, seats=seats
    )
    _conclude(results, manifest, game, out_dir)


def _checked(
    manifest: BotManifest,
    rival: BotManifest,
    limits: Limits,
    out_dir: Path,
    games: int,
    seed: int,
    *,
    game: str,
    options: dict[str, Any],
    seats: int,
) -> list[CheckResult]:
    """The check's steps, each shown as it ends; a problem outside the bot in one sentence."""
    try:
        return check_bot(
            manifest,
            rival,
            limits,
            out_dir,
            games,
            seed,
            on_result=_show,
            game=game,
            game_config=options,
            seats=seats,
        )
    except ArenaError as error:
        raise click.ClickException(str(error)) from None
    except OSError as error:  # e.g. --out cannot be made
        raise click.ClickException(
            f"Cannot write {error.filename or out_dir}: {error.strerror or error}; "
            "choose another --out."
        ) from None


def _conclude(results: list[CheckResult], manifest: BotManifest, game: str, out_dir: Path) -> None:
    """The check's last line; exit 1 when it failed or was incomplete."""
    failed = [result for result in results if result.failed]
    if failed and all(result.incomplete for result in failed):
        click.echo("The check is incomplete; run `arena check` again.")
        click.echo(f"Records and logs: {out_dir}")
        raise SystemExit(1)
    if failed:
        click.echo(f"{len(failed)} check(s) failed; fix them and run `arena check` again.")
        click.echo(f"Records and logs: {out_dir}")
        raise SystemExit(1)
    click.echo(
        f"All {len(results)} checks passed at {game}: {manifest.name} is ready for a tournament."
    )


def _game_of(manifest: BotManifest, asked: str | None) -> tuple[str, str]:
    """The game to check `manifest` at (`asked`, else the first it says it plays, else
    Mandala) and a sentence saying why when not asked; ArenaError for a game it says it does
    not play."""
    if asked is not None:
        if manifest.games is not None and not written_for(manifest, asked):
            raise ArenaError(game_refusal(manifest, asked))
        return asked, ""
    if manifest.games is None:
        return DEFAULT_GAME, (
            f"{manifest.name}'s bot.toml names no games, so it is checked at {DEFAULT_GAME}; "
            "--game checks another, and a league admits it only once games = [...] names "
            "the league's game."
        )
    games = common_games([manifest])  # a family is not one game
    if not games:
        raise ArenaError(
            f"{manifest.name}'s bot.toml names every OpenSpiel game ({FAMILY}) and no other; "
            "choose one with --game openspiel:NAME."
        )
    first = games[0]
    others = f" (of {', '.join(manifest.games)})" if len(manifest.games) > 1 else ""
    return first, (
        f"{first} is the first game in {manifest.name}'s bot.toml{others}; --game checks another."
    )


def _opponent_refusal(rival: BotManifest, game: str) -> str:
    """The sentence refusing `rival` as the opponent at `game`, which its bot.toml does not
    list (`plays`): not the bot under check, so no advice to edit its bot.toml."""
    listed = ", ".join(rival.games or ())
    return (
        f"The opponent {rival.name} plays {listed} (its bot.toml's games), not {game}: give "
        f"--opponent a bot that plays {game} (random plays every game)."
    )


def _show(result: CheckResult) -> None:
    click.echo(f"  {result.status}  {result.name}: {result.detail}")
    if result.fix:
        click.echo(f"        fix: {result.fix}")
