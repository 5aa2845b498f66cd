"""`arena report`: rebuild a run's report.html (and the replays it links to)."""

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
def report(run_dir: Path | None, results: Path) -> None:
    """Write RUN_DIR/report.html (default: the newest run in results/): one page to open in
    a browser, offline, with the leaderboard, head to head, failures, charts and replays."""
    from arena.results.report import make_report, newest_run

    try:
        chosen = run_dir if run_dir is not None else newest_run(results)
        made = make_report(chosen, html=True)
    except ArenaError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"Report: {made.html}")
