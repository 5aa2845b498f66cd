"""Issue 46, point 1: after Ctrl-C, `arena run` says that the results of the games logged
are being written, and shows each step as it goes (a large run's take minutes on a busy
machine: the terminal said nothing meanwhile); a finished run shows the same steps."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from arena import tournament
from arena.cli.run import _written
from arena.players.manifest import load_manifest
from tests.referee_support import fake_bot


@pytest.fixture
def played(tmp_path: Path) -> tuple[Path, tournament.RunSummary]:
    bots = [load_manifest(fake_bot(tmp_path / "bots", name).folder) for name in ("ann", "bob")]
    out = tmp_path / "run"
    config = tournament.create_run(out, bots, rounds=1, seed=1, limits={})
    return out, tournament.play(out, config, workers=0)


def test_after_ctrl_c_the_writing_of_the_results_is_said_and_shown_step_by_step(
    played: tuple[Path, tournament.RunSummary], capsys: pytest.CaptureFixture[str]
) -> None:
    out, summary = played
    stopped = dataclasses.replace(summary, total=10, interrupted=True)
    report = _written(out, stopped, charts=False)  # (drawing the charts is one step more)
    err = capsys.readouterr().err
    assert err.startswith(
        f"Interrupted: 2 of 10 games are logged. Writing their results to {out} (Ctrl-C again "
        f"to skip; `arena report {out}` writes them later):\n"
    )
    steps = re.findall(r"^  (\S+) \.\.\. \d+\.\d s$", err, re.MULTILINE)
    assert steps == ["ratings", "leaderboard.md", "report.html"]
    assert report.html is not None and report.html.exists()


def test_a_finished_run_shows_the_same_steps(
    played: tuple[Path, tournament.RunSummary], capsys: pytest.CaptureFixture[str]
) -> None:
    out, summary = played
    _written(out, summary, charts=False)
    err = capsys.readouterr().err
    assert err.startswith(f"Writing the results to {out}:\n")
    assert re.findall(r"^  (\S+) \.\.\.", err, re.MULTILINE) == [
        "ratings", "leaderboard.md", "report.html",
    ]  # fmt: skip


def test_the_readme_states_the_default_run_the_makefile_plays() -> None:
    """The README's measured figure is for the run `make run` plays: its rounds and games."""
    from arena.players.manifest import default_bots_dir, discover_bots, plays
    from arena.schedule import total_games

    root = Path(__file__).resolve().parent.parent
    rounds = int(re.search(r"^ROUNDS \?= (\d+)$", (root / "Makefile").read_text(), re.M)[1])  # type: ignore[index]
    field = [
        bot for bot in discover_bots(default_bots_dir()) if bot.default and plays(bot, "mandala")
    ]
    games = total_games(len(field), rounds, 2)
    readme = " ".join((root / "README.md").read_text(encoding="utf-8").split())
    assert f"for {rounds} rounds: {games:,} games." in readme
    assert f"make run # a {rounds}-round tournament" in readme
