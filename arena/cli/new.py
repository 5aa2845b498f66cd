"""`arena new LANG FOLDER`: a bot author's working folder, made from a bundled starter."""

from __future__ import annotations

from pathlib import Path

import click

from arena.errors import ArenaError
from arena.players.bot_files import MANIFEST, source_files
from arena.players.bundled import guide
from arena.players.starters import bundled_starters, new_bot


@click.command()
@click.argument("language", metavar="LANG", required=False)
@click.argument("folder", type=click.Path(path_type=Path), required=False)
@click.option("--list", "listing", is_flag=True, help="List the starters' languages and stop.")
def new(language: str | None, folder: Path | None, listing: bool) -> None:
    """Make FOLDER a new bot in language LANG, copied from the bundled starter
    (`starter-LANG`) and named after the folder: `arena new c mine`, or `arena new js
    bots/mine` in a clone. Without LANG (or with --list): the starters there are."""
    try:
        if listing or language is None:
            _list()
            return
        if folder is None:
            raise click.UsageError("Give the bot's folder too: arena new LANG FOLDER.")
        starter, bot = new_bot(language, folder)
        where = guide()
    except ArenaError as error:
        raise click.ClickException(str(error)) from None
    sources = ", ".join(name for name in source_files(folder) if name != MANIFEST)
    click.echo(f"Made {folder} from the {starter.word} starter: a bot named {bot.name!r}.")
    click.echo(f"Next: make it smarter (its files: {sources}), then")
    for step in (f"check {folder}", f"play {folder} greedy", f"run --add {folder}"):
        click.echo(f"  arena {step}")
    click.echo(f"The guide for bot authors: {where}")


def _list() -> None:
    starters = bundled_starters()
    click.echo("Starters (arena new LANG FOLDER):")
    width = max((len(starter.word) for starter in starters), default=0)
    for starter in starters:
        language = starter.bot.language or starter.word
        also = "" if language.casefold() == starter.word.casefold() else f"({language}) "
        click.echo(f"  {starter.word:<{width}}  {also}{starter.bot.description}")
    click.echo(f"The guide for bot authors: {guide()}")
