"""Issue 33, item 5: comparing bots at tables of 3 and 4 seats.

A gauntlet's table of its candidate against each opponent is printed at the end of `arena
run --gauntlet`, by `arena leaderboard` and in report.html, at 2 seats and at 3; `arena play
--seats 3 --sprt` runs a sequential test on which bot finished ahead and stops with a
verdict; `arena bench stats` simulates that test. Real bundled bots play Flowers here.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.bench.stats import table_rows
from arena.cli.main import main
from arena.stats.ahead import Ahead, elo_of_share, share_of_elo

BUNDLED = Path(__file__).resolve().parent.parent / "bots"
SLOW = ["--time-limit", "20000"]  # other work loads the machine: never lose on time here


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture
def field(tmp_path: Path) -> Path:
    """greedy-flowers, random and a second random named random-b, in a bots folder."""
    root = tmp_path / "bots"
    shutil.copytree(BUNDLED / "greedy-flowers", root / "greedy-flowers")
    shutil.copytree(BUNDLED / "random", root / "random")
    shutil.copytree(BUNDLED / "random", root / "random-b")
    toml = root / "random-b" / "bot.toml"
    toml.write_text(toml.read_text().replace('name = "random"', 'name = "random-b"'))
    return root


@pytest.mark.parametrize("seats", [2, 3])
def test_a_gauntlet_prints_its_table_per_opponent_at_the_end_in_leaderboard_and_html(
    field: Path, tmp_path: Path, seats: int
) -> None:
    out = tmp_path / "run"
    code, output = run(
        "run", "--bots", str(field), "--game", "flowers", "--seats", str(seats),
        "--gauntlet", "greedy-flowers", "--rounds", "2", "--workers", "0", "--seed", "4",
        "--out", str(out), "--no-charts", *SLOW,
    )  # fmt: skip
    assert code == 0, output
    title = "## Gauntlet: greedy-flowers against each opponent"
    header = "finished ahead (95%) | Elo (95%)" if seats > 2 else "Elo from pairs (95%)"
    end_of_run = output[output.index(title) :]
    assert header in end_of_run
    assert "| random |" in end_of_run and "| random-b |" in end_of_run
    code, board = run("leaderboard", str(out))
    assert code == 0, board
    assert title in board and header in board and "| random-b |" in board
    written = (out / "leaderboard.md").read_text()
    assert title in written and header in written and "| random-b |" in written
    page = (out / "report.html").read_text()
    assert 'id="gauntlet-table"' in page
    table = page[page.index('id="gauntlet-table"') :]
    assert "<td>random</td>" in table and "<td>random-b</td>" in table
    assert ("finished ahead (95%)" if seats > 2 else "Elo from pairs (95%)") in table


def test_play_at_three_seats_runs_the_sprt_on_finishing_ahead_to_a_verdict(
    tmp_path: Path,
) -> None:
    code, output = run(
        "play", "greedy-flowers", "random", "--seats", "3", "--game", "flowers",
        "--sprt", "0,400", "--elo-model", "logistic", "--alpha", "0.2", "--beta", "0.2",
        "--max-games", "90", "--seed", "1", "--out", str(tmp_path / "out"), "-q", *SLOW,
    )  # fmt: skip
    assert code == 0, output
    assert "needs a table of 2 seats" not in output
    assert "SPRT games " in output  # the LLR after each deal
    verdict = output.strip().splitlines()[-1]
    assert verdict.startswith("SPRT [0, 400] Elo on finishing ahead, alpha 0.2, beta 0.2:")
    assert "H1 accepted: greedy-flowers finishes ahead of random#1" in verdict


def test_play_sprt_bounds_are_still_checked_at_three_seats(tmp_path: Path) -> None:
    code, output = run(
        "play", "greedy-flowers", "random", "--seats", "3", "--game", "flowers",
        "--sprt", "0,10", "--alpha", "0.6", "--beta", "0.6", "--out", str(tmp_path / "out"),
    )  # fmt: skip
    assert code != 0
    assert "--sprt: alpha + beta must be less than 1." in output
    assert "Traceback" not in output


def test_finishing_ahead_counts_and_its_elo() -> None:
    counts = Ahead().add([0, 2, 1], 0, 1).add([1, 1, 0], 0, 1).add([2, 0, 1], 0, 1)
    assert (counts.wins, counts.draws, counts.losses) == (1, 1, 1)
    assert round(elo_of_share(0.64) or 0.0) == 100
    assert elo_of_share(1.0) is None
    assert share_of_elo(0.0, "normalized") == 0.5
    assert round(share_of_elo(100.0, "logistic"), 2) == 0.64


def test_the_bench_simulates_the_k_seat_sprt_at_3_and_4_seats() -> None:
    rows = table_rows(sims=3)
    assert [(row.seats, row.elo) for row in rows] == [(3, 0.0), (3, 40.0), (4, 0.0), (4, 40.0)]
    assert all(row.sims == 3 and 0 <= row.wrong <= 3 and row.mean_games > 0 for row in rows)
    result = CliRunner().invoke(main, ["bench", "stats", "--sims", "2"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "SPRT at tables of k seats" in result.output
    assert "true nElo" in result.output
