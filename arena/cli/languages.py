"""`arena languages`: each language a bot may be written in, its toolchain on this machine."""

from __future__ import annotations

from pathlib import Path

import click

from arena.players.language_check import test_build
from arena.players.languages import LANGUAGES, Language
from arena.players.manifest import default_bots_dir
from arena.players.toolchains import find_toolchain, toolchain_version


@click.command()
@click.option(
    "--test",
    "test",
    is_flag=True,
    help="Also build each found language's starter (bots/starter-LANG) in the sandbox.",
)
@click.option(
    "--bots-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Where the starters are (default: bots/).",
)
@click.option(
    "--missing",
    is_flag=True,
    help="Print only the Debian packages of the starters' languages missing here "
    "(for `apt-get install`; `make install` uses it).",
)
def languages(test: bool, bots_dir: Path | None, missing: bool) -> None:
    """List the languages bots may be written in: found or not here, version, toolchain
    folder, and for a missing one the command that installs it."""
    folder = bots_dir or default_bots_dir()
    if missing:
        packages = [
            language.debian
            for language in LANGUAGES
            if (folder / language.starter / "bot.toml").is_file()
            and find_toolchain(language.key).program is None
        ]
        click.echo(" ".join(packages))
        return
    for language in LANGUAGES:
        toolchain = find_toolchain(language.key)
        head = f"{language.key} ({language.name})"
        if toolchain.program is None:
            click.echo(f"{head}: missing; install: {language.install}")
            continue
        if not toolchain.found:
            click.echo(f"{head}: found, but {toolchain.failure}")
            continue
        version = toolchain_version(language.key)
        via = "" if toolchain.via in ("PATH", "") else f", via {toolchain.via}"
        shown = ", ".join(toolchain.shown) or "under the system folders"
        click.echo(f"{head}: {version}")
        click.echo(f"  toolchain: {toolchain.folder}{via}; the sandbox shows: {shown}")
        build = " ".join(language.build) if language.build else "none"
        click.echo(f"  build: {build}; run: {' '.join(language.command)}")
        if test:
            click.echo(f"  test build: {_tried(language, folder)}")


def _tried(language: Language, folder: Path) -> str:
    result = test_build(language, folder)
    if result is None:
        return f"no starter bots/{language.starter or 'starter-' + language.key}"
    verdict = "works" if result.passed else "FAILS"
    return f"{verdict} ({result.said}, {result.seconds:.1f} s, {language.starter})"
