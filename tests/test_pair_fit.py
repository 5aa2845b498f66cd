"""Issue 45: the order-free Elo from pair sums (arena/results/pair_fit.py): the same maximum as
Hunter's MM iteration on every meeting, an interval that holds a known truth, the edges of a
field (one bot, two, a clean sweep, draws only, two groups that never met), and sums built
from a whole log equal to sums kept table by table."""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
from dataclasses import astuple
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from arena.bench.fit import hunter_mm
from arena.results import order_free, pair_fit
from arena.results.log import GameLine
from arena.results.pair_fit import (
    BOT_FIELDS,
    PAIR_FIELDS,
    BotSums,
    PairSums,
    fit,
    pair_sums,
    table_sums,
)
from arena.stats.coverage import World, play, random_world


def _game(table: int, players: tuple[str, ...], ranks: tuple[int, ...], game: int = 1) -> GameLine:
    return GameLine(
        seq=table * 10 + game, game_id=f"t{table}-g{game}", players=players,
        scores=tuple(0.0 for _ in players), ranks=ranks, termination="normal",
        table=table, game=game,
    )  # fmt: skip


def _rated(games: list[GameLine]) -> dict[str, pair_fit.EloRating]:
    return order_free.rate(games)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_fit_finds_the_maximum_the_mm_iteration_finds(seats: int) -> None:
    rng = random.Random(seats)
    for rounds in (1, 3, 10):
        world = random_world(rng, seats, bots=5)
        lines = play(world, rounds, rng)
        old = hunter_mm(order_free.meetings(lines), world.bots, 100_000, tolerance=1e-14)
        new = order_free.rate(lines)
        assert set(new) == set(old)
        for name, rating in new.items():
            assert rating.elo == pytest.approx(old[name], abs=1e-6)
        assert sum(rating.elo for rating in new.values()) == pytest.approx(0.0, abs=1e-9)


def test_the_interval_holds_known_strengths() -> None:
    """Two seats, three bots of known strengths, 600 tables of one game: each interval holds
    its bot's strength (seeded: the same games every run), and is a few dozen Elo wide."""
    strength = {"a": 200.0, "b": 0.0, "c": -200.0}
    rng = random.Random(3)
    games = []
    for table in range(600):
        first, second = rng.sample(sorted(strength), 2)
        won = rng.random() < 1 / (1 + 10 ** ((strength[second] - strength[first]) / 400))
        games.append(_game(table, (first, second), (0, 1) if won else (1, 0)))
    rated = _rated(games)
    for name, truth in strength.items():
        assert rated[name].low <= truth <= rated[name].high, (name, rated[name])
        assert 20 < rated[name].high - rated[name].low < 120


def test_a_bot_that_won_every_meeting_has_a_finite_rating_inside_its_interval() -> None:
    games = [_game(t, ("best", other), (0, 1)) for t in range(150) for other in ("x", "y")]
    games += [_game(1000 + t, ("x", "y"), (t % 2, 1 - t % 2)) for t in range(150)]
    rated = _rated(games)
    assert all(math.isfinite(r.elo) and r.low <= r.elo <= r.high for r in rated.values())
    assert rated["best"].elo > rated["x"].elo + 400  # far ahead, yet finite


def test_fields_that_never_met_are_held_together_by_the_prior() -> None:
    games = [_game(t, ("a", "b"), (0, 1) if t % 4 else (1, 0)) for t in range(200)]
    games += [_game(500 + t, ("c", "d"), (1, 0) if t % 4 else (0, 1)) for t in range(200)]
    rated = _rated(games)
    assert all(math.isfinite(r.low) and math.isfinite(r.high) for r in rated.values())
    assert rated["a"].elo > rated["b"].elo and rated["d"].elo > rated["c"].elo
    assert rated["a"].elo - rated["b"].elo == pytest.approx(rated["d"].elo - rated["c"].elo)
    assert sum(r.elo for r in rated.values()) == pytest.approx(0.0, abs=1e-9)


def test_one_bot_two_bots_and_draws_only() -> None:
    assert _rated([_game(0, ("solo", "solo"), (0, 1))]) == {
        "solo": pair_fit.EloRating(0.0, 0.0, 0.0)
    }
    assert order_free.rate([], ["only"]) == {"only": pair_fit.EloRating(0.0, 0.0, 0.0)}
    two = _rated([_game(t, ("a", "b"), (0, 1) if t % 3 else (1, 0)) for t in range(120)])
    assert two["a"].elo == pytest.approx(-two["b"].elo)
    assert two["a"].low < two["a"].elo < two["a"].high  # 80 of 120: a is ahead, with a spread
    assert two["a"].high - two["a"].elo == pytest.approx(two["b"].high - two["b"].elo)
    few = _rated([_game(t, ("a", "b"), (0, 1)) for t in range(99)])  # under MIN_MEETINGS
    assert math.isnan(few["a"].low) and math.isnan(few["b"].high) and few["a"].elo > 0
    drawn = _rated([_game(t, ("a", "b", "c"), (0, 0, 0)) for t in range(60)])
    assert drawn == dict.fromkeys("abc", pair_fit.EloRating(0.0, 0.0, 0.0))


def test_a_tables_sums_are_counted_by_hand() -> None:
    """A deal of two games with the seats swapped: `ant` lost both to `bee`."""
    pairs, bots = table_sums(
        [_game(0, ("ant", "bee"), (1, 0)), _game(0, ("bee", "ant"), (0, 1), 2)]
    )
    assert PAIR_FIELDS[:6] == ("tables", "games", "points", "points2", "games2", "cross")
    # tables, games 2, ant's points 0 (and squared, and times games), games2 4; then each
    # bot's points at the table times the pair's games (ant 0, bee 2 * 2) and its games too
    assert pairs == {("ant", "bee"): (1.0, 2.0, 0.0, 0.0, 4.0, 0.0, 0.0, 4.0, 4.0, 4.0)}
    assert BOT_FIELDS == ("tables", "points2", "cross")
    assert bots == {"ant": (1.0, 0.0, 0.0), "bee": (1.0, 4.0, 4.0)}


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_sums_of_a_log_are_the_sums_kept_table_by_table(seats: int) -> None:
    world = World(seats, {"ant": 100.0, "bee": 0.0, "cat": -50.0, "dog": 20.0, "eel": 0.0},
                  draw=0.1, favoured=2.0)  # fmt: skip
    lines = play(world, 20, random.Random(seats))
    names = ["eel", "cat", "ant", "dog", "bee"]  # not sorted: pairs are turned as they are kept
    pair_rows: dict[tuple[str, str], np.ndarray] = {}
    bot_rows: dict[str, np.ndarray] = {}
    for number in sorted({line.table for line in lines}):
        pairs, bots = table_sums(line for line in lines if line.table == number)
        for key, row in pairs.items():
            pair_rows[key] = pair_rows.get(key, 0) + np.array(row)
        for name, row in bots.items():
            bot_rows[name] = bot_rows.get(name, 0) + np.array(row)
    kept = PairSums.collect(names, pair_rows), BotSums.collect(names, bot_rows)
    whole = pair_sums(lines, names)
    for mine, theirs in zip(kept, whole, strict=True):
        for column, value in vars(theirs).items():
            assert np.allclose(getattr(mine, column), value), column
    assert all(whole[0].first < whole[0].second)
    mine, theirs = fit(names, *kept), fit(names, *whole)
    assert all(math.isfinite(rating.low) for rating in theirs.values())  # intervals given
    for name, rating in theirs.items():
        assert np.allclose(astuple(mine[name]), astuple(rating), rtol=0, atol=1e-9)


def test_a_table_counted_game_by_game_gives_the_same_sums() -> None:
    """As a league stores games: each adds its table's sums with it, less those without it."""
    world = World(3, {"ant": 100.0, "bee": 0.0, "cat": -50.0, "dog": 20.0}, draw=0.2)
    lines = play(world, 10, random.Random(7))
    rows: dict[Any, np.ndarray] = {}
    for n, line in enumerate(lines):
        before = [seen for seen in lines[:n] if seen.table == line.table]
        for sign, games in ((1.0, [*before, line]), (-1.0, before)):
            for added in table_sums(games):
                for key, row in added.items():
                    rows[key] = rows.get(key, 0) + sign * np.array(row)
    names = world.bots
    kept = (
        PairSums.collect(names, {key: row for key, row in rows.items() if isinstance(key, tuple)}),
        BotSums.collect(names, {key: row for key, row in rows.items() if isinstance(key, str)}),
    )
    for mine, theirs in zip(kept, pair_sums(lines, names), strict=True):
        for column, value in vars(theirs).items():
            assert np.allclose(getattr(mine, column), value), column


_SERVE_THEN_FIT = """
import os, sys
from click.testing import CliRunner
from arena.cli.main import main
assert "numpy" not in sys.modules
if sys.argv[2] == "serve":  # the serve command's body runs (and exits: a console act)
    result = CliRunner().invoke(main, ["serve", "--league", sys.argv[1], "--add-author", "ada"])
    assert result.exit_code == 0, result.output
import numpy as np
matrix = np.ones((300, 300))
matrix @ matrix
print(len(os.listdir("/proc/self/task")))
"""


def test_arena_serve_gives_the_pair_fit_one_blas_thread(tmp_path: Path) -> None:
    """OpenBLAS (numpy's) ran the league's fit on a thread per core, competing with the
    server's threads: `arena serve` sets OPENBLAS_NUM_THREADS=1 before numpy loads. Counted
    as the threads of a fresh process after a product of matrices, beside one not served."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENBLAS", "OMP_"))}

    def threads(path: str) -> int:
        done = subprocess.run(
            [sys.executable, "-c", _SERVE_THEN_FIT, str(tmp_path / "league"), path],
            capture_output=True, text=True, timeout=120, env=env, check=True,
        )  # fmt: skip
        return int(done.stdout.split()[-1])

    assert threads("serve") == 1
    if len(os.sched_getaffinity(0)) > 1:  # the count tells them apart
        assert threads("plain") > 1
