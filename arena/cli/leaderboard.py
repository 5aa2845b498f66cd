"""`arena leaderboard`: the leaderboard of a finished or running tournament."""

from __future__ import annotations

from pathlib import Path

import click

from arena.errors import ArenaError


@click.command()
@click.argument("run_dir", required=False, type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--results",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("results"),
    show_default=True,
    help="Where to look for the newest run when RUN_DIR is not given.",
)
def leaderboard(run_dir: Path | None, results: Path) -> None:
    """Print the leaderboard of the tournament in RUN_DIR (default: the newest run in results/).

    Works while the tournament is still running: it reads the games logged so far. A
    gauntlet's run adds its candidate against each opponent, at every table size.
    """
    from arena.results.log import LOG_NAME, read_games
    from arena.results.report import leaderboard_text, load_config, newest_run
    from arena.results.tables import gauntlet_lines

    try:
        chosen = run_dir if run_dir is not None else newest_run(results)
        text = leaderboard_text(chosen)
        candidate = load_config(chosen).get("gauntlet")
        if candidate:
            lines = gauntlet_lines(read_games(chosen / LOG_NAME), str(candidate))
            text += "\n" + "\n".join(lines) + "\n"
    except ArenaError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"{chosen}: " + text, nl=False)
