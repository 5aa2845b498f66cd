"""The `arena` command: each subcommand lives in its own module and is imported on use."""

from __future__ import annotations

import click

from arena import __version__
from arena.cli.lazy import LazyGroup

# Each command module registers here with one line: name -> "module:attribute".
COMMANDS: dict[str, str] = {
    "bench": "arena.cli.bench:bench",
    "run": "arena.cli.run:run",
    "leaderboard": "arena.cli.leaderboard:leaderboard",
    "report": "arena.cli.report:report",
    "check": "arena.cli.check:check",
    "play": "arena.cli.play:play",
    "replay": "arena.cli.replay:replay",
    "games": "arena.cli.games:games",
    "languages": "arena.cli.languages:languages",
    "serve": "arena.cli.serve:serve",
    "submit": "arena.cli.serve:submit",
    "new": "arena.cli.new:new",
}


@click.group(cls=LazyGroup, lazy=COMMANDS)
@click.version_option(__version__, prog_name="arena")
def main() -> None:
    """Mandala Arena: play bots against each other, run tournaments, read ratings."""
