"""Issue 23: the same seed plays the same games, bit for bit, however the run is carried out.

Every seat gets a seed of its own in `new_game` (derived from the deal seed, the game id
and the seat); the bundled bots draw their random choices from it. So a tournament of
`random`, `greedy` and `starter-c` gives the same games on the pool with 2 workers or 1, on
a Dask cluster, and when stopped and resumed.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from arena import protocol
from arena.cli.main import main

FIELD = ("random", "greedy", "starter-c")


def run(*args: str) -> None:
    result = CliRunner().invoke(main, ["run", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output


def games(folder: Path) -> list[tuple[object, ...]]:
    """What each game was: who sat where, the scores, the ranks and how it ended."""
    lines = [json.loads(line) for line in (folder / "games.jsonl").read_text().splitlines()]
    return sorted(
        (g["game_id"], tuple(g["players"]), tuple(g["scores"]), tuple(g["ranks"]),
         g["termination"], g["end"], g["turns"], tuple(g["decisions"]))
        for g in lines
    )  # fmt: skip


def test_a_bots_seed_is_fixed_by_the_deal_the_game_and_the_seat() -> None:
    seed = protocol.bot_seed(123, "r0001-p000000-g1", 0)
    assert seed == protocol.bot_seed(123, "r0001-p000000-g1", 0)
    assert 0 <= seed < 2**31
    others = {
        protocol.bot_seed(124, "r0001-p000000-g1", 0),
        protocol.bot_seed(123, "r0001-p000000-g2", 0),
        protocol.bot_seed(123, "r0001-p000000-g1", 1),
    }
    assert seed not in others and len(others) == 3


def test_the_same_seed_gives_the_same_games_on_any_workers_cluster_and_resume(
    tmp_path: Path,
) -> None:
    """(20 s a move: no move lost on time on a loaded machine makes two runs differ.)"""
    common = [*FIELD, "--rounds", "3", "--seed", "9", "--no-charts", "--time-limit", "20000"]
    run(*common, "--workers", "2", "--out", str(tmp_path / "two"))
    run(*common, "--workers", "1", "--out", str(tmp_path / "one"))
    run(*common, "--cluster", "local:2", "--out", str(tmp_path / "dask"))
    resumed = tmp_path / "resumed"
    run(*FIELD, "--rounds", "1", "--seed", "9", "--no-charts", "--workers", "1",
        "--time-limit", "20000", "--out", str(resumed))  # fmt: skip
    run("--resume", "--rounds", "3", "--workers", "2", "--no-charts", "--out", str(resumed))
    expected = games(tmp_path / "two")
    assert len(expected) == 18
    assert any(line[0] != other[0] and line[1:3] != other[1:3]
               for line, other in zip(expected, expected[1:], strict=False))  # fmt: skip
    ratings = (tmp_path / "two" / "ratings.csv").read_text()
    for way in ("one", "dask", "resumed"):
        assert games(tmp_path / way) == expected, way
        assert (tmp_path / way / "ratings.csv").read_text() == ratings, way
