"""Issue 11 end to end: Flowers tournaments and checks with the bundled bots as real processes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.main import main
from tests.bundled_bots import FIELDS, bundled_folder

ROOT = Path(__file__).resolve().parents[1]
BOTS = ROOT / "bots"
FIELD = ("random", "greedy-flowers", "starter-js", "starter-c")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_a_four_seat_flowers_tournament_of_the_bundled_bots(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, output = run(
        "run", *FIELD, "--game", "flowers", "--seats", "4", "--rounds", "2", "--seed", "5",
        "--workers", "2", "--no-charts", "--out", str(out),
    )  # fmt: skip
    assert code == 0, output
    lines = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert json.loads((out / "config.json").read_text())["game"] == "flowers"
    assert len(lines) == 2 * 4  # a table of the whole field per round, its seats rotated
    assert len({line["game_id"] for line in lines}) == 8
    for line in lines:
        assert len(line["players"]) == 4
        assert line["termination"] == "normal", line["reason"]
        assert line["end"] in ("third_flower", "no_tiles", "stalled")
    for table in ({line["seed"] for line in lines if line["table"] == t} for t in (0, 1)):
        assert len(table) == 1  # one deal per table, played once per rotation
    ratings = (out / "ratings.csv").read_text().splitlines()
    assert "mean_rank_lo" in ratings[0] and len(ratings) == 5
    board = (out / "leaderboard.md").read_text()
    assert "Tables of 4 seats" in board and all(name in board for name in FIELD)
    record = next((out / "records").iterdir())
    code, told = run("replay", str(record))
    assert code == 0 and "takes the claim marker" in told and "Scores:" in told
    assert "is complete and is destroyed" in told and "final destruction of Mandala" in told


def test_bench_engine_measures_every_table_size_beside_mandala() -> None:
    code, output = run("bench", "engine", "--game", "flowers", "--games", "6")
    assert code == 0, output
    rows = [line.split() for line in output.splitlines() if line.startswith("  ")]
    assert [row[:2] for row in rows[1:5]] == [
        ["mandala", "2"],
        ["flowers", "2"],
        ["flowers", "3"],
        ["flowers", "4"],
    ]
    assert "target: flowers decisions/s >= Mandala's at every table size:" in output


def test_the_default_field_of_flowers_leaves_out_the_mandala_only_bots(tmp_path: Path) -> None:
    out = tmp_path / "run"
    code, output = run(
        "run", "--bots", str(bundled_folder(tmp_path)), "--game", "flowers", "--seats", "3",
        "--rounds", "1", "--seed", "2", "--no-charts", "--out", str(out),
    )  # fmt: skip
    assert code == 0, output
    bots = json.loads((out / "config.json").read_text())["bots"]
    names = {bot["name"] for bot in bots}
    assert names == set(FIELDS["flowers"])
    assert "greedy" not in names and "heuristic" not in names  # games = ["mandala"]


@pytest.mark.parametrize("bot", ["greedy-flowers", "starter-c", "starter-js"])
def test_check_passes_the_flowers_bots(bot: str, tmp_path: Path) -> None:
    code, output = run(
        "check", "--game", "flowers", str(BOTS / bot), "-n", "2", "--out", str(tmp_path / "c")
    )
    assert code == 0, output
    assert "tile" in output and "turn decisions, all legal" in output
    assert "is ready for a tournament" in output
