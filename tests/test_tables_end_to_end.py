"""Issue 10 end to end: tournaments at tables of 3 and 4 seats, with real bot processes.

The game is the tests' own `highcard` (tests/games/highcard.py, 2 to 4 seats); the bots
are the scripted fake bots of the tournament tests, each its own process in the sandbox.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from math import comb
from pathlib import Path

import pytest

from arena.players.manifest import load_manifest
from arena.results.report import make_report
from arena.tournament import create_run, play
from tests.tournament_support import make_bots, read_lines

ROOT = Path(__file__).resolve().parents[1]
ARENA = [sys.executable, "-c", "from arena.cli.main import main; main()"]
NAMES = ("alpha", "beta", "gamma", "delta")


def _field(tmp_path: Path, delay_ms: int = 0) -> Path:
    extra = ["--delay-ms", str(delay_ms)] if delay_ms else []
    strategies = {"alpha": "last", "beta": "first", "gamma": "seeded", "delta": "seeded"}
    return make_bots(
        tmp_path / "bots",
        {name: ["--strategy", strategies[name], *extra] for name in NAMES},
    )


@pytest.mark.parametrize("seats", [3, 4])
def test_a_tournament_at_tables_of_k_seats_logs_every_game_once(tmp_path: Path, seats: int) -> None:
    bots = [load_manifest(folder) for folder in sorted(_field(tmp_path).iterdir())]
    run_dir, rounds = tmp_path / "run", 2
    config = create_run(
        run_dir, bots, rounds=rounds, seed=11, limits={}, game="highcard", seats=seats
    )
    summary = play(run_dir, config, workers=2)
    lines = read_lines(run_dir / "games.jsonl")
    assert summary.played == len(lines) == rounds * comb(4, seats) * seats
    assert len({line["game_id"] for line in lines}) == len(lines)
    for line in lines:
        assert len(line["players"]) == seats and len(set(line["players"])) == seats
        assert line["termination"] == "normal", line["reason"]
        assert line["end"] == "hands_played"
    # each table plays one deal once per rotation of its seats
    by_table: dict[int, list[dict[str, object]]] = {}
    for line in lines:
        by_table.setdefault(int(line["table"]), []).append(line)  # type: ignore[call-overload]
    for games in by_table.values():
        assert len({line["seed"] for line in games}) == 1
        firsts = {line["players"][0] for line in games}  # type: ignore[index]
        assert len(firsts) == seats
    report = make_report(run_dir, charts=False)
    ratings = (run_dir / "ratings.csv").read_text()
    assert all(name in ratings for name in NAMES)
    board = (run_dir / "leaderboard.md").read_text()
    assert "mean" in board and "rank" in board.lower()
    assert report.text()


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_a_three_seat_tournament_resumes_after_kill_9(tmp_path: Path) -> None:
    field, out = _field(tmp_path, delay_ms=20), tmp_path / "run"
    env = {**os.environ, "ARENA_GAME_MODULES": "tests.games.highcard"}
    args = ["run", "--bots", str(field), "--game", "highcard", "--seats", "3", "--rounds", "6"]
    args += ["--seed", "3", "--workers", "2", "--no-charts", "--out", str(out)]
    process = subprocess.Popen(
        [*ARENA, *args], env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 60
    log = out / "games.jsonl"
    while time.monotonic() < deadline and (not log.exists() or log.read_bytes().count(b"\n") < 5):
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    done_before = log.read_bytes().count(b"\n")
    assert done_before >= 5
    resumed = subprocess.run(
        [*ARENA, "run", "--resume", "--out", str(out), "--workers", "2", "--no-charts"],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    lines = read_lines(log)
    config = json.loads((out / "config.json").read_text())
    assert config["total_games"] == 6 * comb(4, 3) * 3
    assert len(lines) == len({line["game_id"] for line in lines}) == config["total_games"]
