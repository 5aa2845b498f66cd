"""`arena bench protocol` prints every figure of issue 22 beside its target, for any game."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from arena.cli.main import main


def test_bench_protocol_prints_each_figure_beside_its_target() -> None:
    args = ["bench", "protocol", "--rounds", "300", "--games", "4", "--python-games", "4"]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "game: mandala, 2 seats" in result.output
    for target in ("target <= 10 µs:", "target <= 2x:", "target >= 50%:", "no more than without"):
        assert target in result.output, result.output
    result = CliRunner().invoke(main, [*args, "--game", "takenoko"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "game: takenoko, 3 seats" in result.output
    assert "target <= 10 µs" not in result.output  # that target is Mandala's


def test_bench_engine_prints_takenokos_target_and_ismcts_playouts() -> None:
    args = ["bench", "engine", "--game", "takenoko", "--games", "3"]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "target: takenoko >= 60,000 decisions/s at every table size:" in result.output
    assert "ismcts on takenoko (3 seats):" in result.output and "playouts/s" in result.output


def test_bench_stats_prints_the_coverage_of_every_interval() -> None:
    result = CliRunner().invoke(main, ["bench", "stats", "--sims", "4"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "honest is 93-97%" in result.output
    for interval in ("mean rank", "win rate", "head-to-head", "order-free Elo"):
        assert f"  {interval}" in result.output


def test_the_fit_bench_prints_its_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.bench import fit as bench

    monkeypatch.setattr(bench, "FIELDS", (20, 30))
    monkeypatch.setattr(bench, "OLD_REFITS", 1)
    result = CliRunner().invoke(main, ["bench", "fit", "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert [row["bots"] for row in figures["fits"]] == [20, 30]
    assert [row["pairs"] for row in figures["fits"]] == [190, 435]
    assert figures["old_bots"] == 20 and figures["old_seconds"] > 0 and figures["target"] == 10.0
    text = CliRunner().invoke(main, ["bench", "fit"], catch_exceptions=False).output
    assert "target 10 s" not in text  # only a field of 1,000 is held to it
    assert "the fit before issue 45 at 20 bots" in text


def test_bench_league_prints_its_share_of_a_batch_run_and_the_load_test() -> None:
    # the flood's two readings 1 s each, not 15; the synthetic league has its own test
    # (test_league_standings.py)
    args = ["bench", "league", "--games", "20", "--reads", "2", "--flood-seconds", "1"]
    args += ["--synthetic-games", "0"]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "league/batch" in result.output and "(target >= 0.9)" in result.output
    assert " errors; leaderboard median " in result.output  # the figures, not a verdict on them
    assert "stored once: True" in result.output
    assert "1 s without then 1 s with" in result.output and "the flood got: " in result.output


def test_bench_openspiel_prints_each_figure_beside_its_target() -> None:
    """Issue 44: random play through pyspiel against the engine (3x), beside the chance
    engine drawing in place and pyspiel's floor (the best ratio reachable), resample times
    (1 ms), OpenSpiel's ISMCTS on Mandala (2 s at 1,000 simulations, scaled from fewer),
    with OpenSpiel's rollouts and with ours (arena.ecosystem.rollouts)."""
    args = ["bench", "openspiel", "--game", "mandala", "--games", "3", "--resample-games", "1"]
    args += ["--samples", "2", "--simulations", "2", "--moves", "1"]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == 4 and all("target <=" in line for line in lines), result.output
    assert lines[0].startswith("random play  mandala  2 seats: engine")
    assert "(target <= 3x:" in lines[0] and "(target <= 1 ms:" in lines[1]
    assert "the chance engine drawing in place " in lines[0] and "pyspiel's floor " in lines[0]
    assert lines[0].split("best reachable ")[1].endswith("x")
    for line, rollouts in zip(lines[2:], ("openspiel-rollouts", "our-rollouts"), strict=True):
        assert "s a move at 1,000 simulations (scaled from 2), 1 moves" in line
        assert f", {rollouts} (target <= 2 s:" in line
    result = CliRunner().invoke(main, ["bench", "openspiel", "--game", "chess"])
    assert result.exit_code != 0 and "No game 'chess': mandala, flowers or takenoko." in (
        result.output
    )


def test_pyspiels_floor_replays_the_recorded_games_step_for_step() -> None:
    """The floor (arena/bench/spiel_floor.py) steps through pyspiel exactly the decisions
    and chance nodes of the games it recorded, whatever actions its loop draws."""
    from arena.bench.spiel_floor import floor_random_play, recorded_games

    records = recorded_games("flowers", 3, games=2, seed=1)
    decisions = sum(1 for steps in records for player, _, _ in steps if player >= 0)
    chance = sum(1 for steps in records for player, _, _ in steps if player < 0)
    assert decisions > 50 and chance > 20
    for seed in (4, 5):
        assert floor_random_play(records, seed=seed)["decisions"] == decisions
