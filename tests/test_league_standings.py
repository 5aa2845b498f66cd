"""The league's running standings (issue 32, item 5): the plain leaderboard made from tallies
kept as each game is stored, equal to the batch leaderboard of the same games, and every
stored game on it at once. Synthetic games (`arena bench league`'s) stored through
`League.record`, a real league store, the board read over real HTTP on the loopback."""

from __future__ import annotations

import dataclasses
import math
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.bench import league_synthetic as bench
from arena.bench.synthetic_games import synthetic_lines
from arena.cli.main import main
from arena.execution import TableResult
from arena.league.boards import board_of
from arena.league.league import League
from arena.league.standings import Standings
from arena.results.log import GameLine
from arena.results.ratings import environment, in_schedule_order, rate_game
from tests.league_support import served

COUNTED = {"rank", "bot", "games", "wins", "draws", "losses", "failures", "mean_rank"}
COUNTED |= {f"place_{n}" for n in range(1, 5)}
TRUESKILL = {"mu", "sigma", "conservative"}


def _standings(lines: list[GameLine]) -> Standings:
    standings, ratings, env = Standings(), {}, environment()  # type: ignore[var-annotated]
    for line in in_schedule_order(lines):
        rate_game(env, ratings, line)
        standings.add(line, ratings)
    return standings


def _same(running: list[dict[str, Any]], batch: list[dict[str, Any]]) -> None:
    assert [row["bot"] for row in running] == [row["bot"] for row in batch]
    for mine, theirs in zip(running, batch, strict=True):
        assert set(mine) == set(theirs)  # elo_games too: the games the Elo covers
        for key, value in theirs.items():
            if key in COUNTED or key in TRUESKILL or value is None:
                assert mine[key] == value and type(mine[key]) is type(value), (key, mine, theirs)
            else:  # means and intervals: the same sums in another order
                assert mine[key] == pytest.approx(value, rel=1e-9, abs=1e-9), (key, mine, theirs)


@pytest.mark.parametrize(("seats", "tables"), [(2, 1500), (3, 300)])
def test_the_running_standings_make_the_batch_leaderboard(seats: int, tables: int) -> None:
    lines = synthetic_lines(tables, bots=7, seats=seats)
    lines[5] = dataclasses.replace(lines[5], ranks=(0,) * seats)  # a tie
    assert any(line.faulty_seat is not None for line in lines)  # failures by kind counted
    standings = _standings(lines)
    batch = board_of(lines, {})
    before = standings.rows()
    assert {(row["elo"], row["elo_games"]) for row in before} == {(None, None)}  # no fit yet
    fit = standings.fit()
    assert fit.games == len(lines)
    rows = standings.rows()
    assert {row["elo_games"] for row in rows} == {len(lines)}
    _same(rows, batch)  # the Elo too: the same sums of the tables, the same fit
    assert "timeout" in "".join(row["failures"] for row in rows)


def test_the_fit_is_stamped_with_the_games_it_covers(tmp_path: Path) -> None:
    standings = _standings(synthetic_lines(200, bots=5))
    standings.fit()
    more, ratings = synthetic_lines(10, bots=5, start=200), {}  # type: ignore[var-annotated]
    for line in more:
        rate_game(environment(), ratings, line)
        standings.add(line, ratings)
    rows = standings.rows()
    assert sum(row["games"] for row in rows) == 2 * 420  # the games: current
    assert {row["elo_games"] for row in rows} == {400}  # the Elo: of the first 400, and says so


def test_a_game_stored_is_on_the_plain_leaderboard_at_once(tmp_path: Path) -> None:
    with served(tmp_path) as site:
        league = site.league
        league.record(TableResult(synthetic_lines(30, bots=4)))
        status, rows = site.call("GET", "/api/leaderboard")
        assert status == 200 and sum(row["games"] for row in rows) == 2 * 60
        for n in range(30, 35):  # each table read back at once: no remake to wait for
            assert league.record(TableResult(synthetic_lines(1, bots=4, start=n))) == 2
            status, rows = site.call("GET", "/api/leaderboard")
            assert sum(row["games"] for row in rows) == 2 * (2 * n + 2)
        board = {row["bot"]: row for row in rows}
        with league.lock:
            played = league.store.games()
        for row in board_of(played, {}):  # counts and TrueSkill exactly the batch's
            for key in (COUNTED - {"failures"}) & set(row) | TRUESKILL:  # the API types it
                assert board[row["bot"]][key] == row[key], key
        for row in rows:
            assert row["elo_games"] is None or row["elo_games"] <= 70
            assert row["win_rate"] is None or not math.isnan(row["win_rate"])


def test_a_league_opened_again_counts_its_stored_games_as_before(tmp_path: Path) -> None:
    league = League(tmp_path / "league", workers=0)
    try:
        for n in range(40):
            league.record(TableResult(synthetic_lines(1, bots=5, start=n)))
        live = league.standings.rows()
    finally:
        league.close()
    again = League(tmp_path / "league", workers=0)
    try:
        assert again.standings.rows() == live
        assert again.standings.count == 80
    finally:
        again.close()


def test_the_background_fit_reaches_the_board_stamped_with_its_games(tmp_path: Path) -> None:
    with served(tmp_path) as site:
        site.league.record(TableResult(synthetic_lines(60, bots=4)))
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            status, rows = site.call("GET", "/api/leaderboard")
            if rows and rows[0]["elo_games"] == 120:
                break
            time.sleep(0.2)
        assert {row["elo_games"] for row in rows} == {120}
        batch = {row["bot"]: row for row in board_of(site.league.store.games(), {})}
        for row in rows:
            assert row["elo"] == pytest.approx(batch[row["bot"]]["elo"], rel=1e-9, abs=1e-9)


def test_arena_bench_league_times_the_board_of_a_synthetic_league(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bench, "ARRIVE_S", 1.0)
    args = ["bench", "league", "--synthetic-only", "--synthetic-games", "2000", "--bots", "5"]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "synthetic league on sqlite: 2,000 games of 5 bots" in result.output
    assert "--synthetic-games N --bots B" in result.output  # how to ask for more
    for figure in ("µs a game", "a game on it after median", "reopen s", "RSS MiB", "targets:"):
        assert figure in result.output, figure
    row = next(line.split() for line in result.output.splitlines() if "2,000 " in line[:16])
    assert float(row[1]) > 0 and float(row[2]) > 0  # reopened, and its memory measured


def test_a_custom_leaderboard_counts_the_latest_games_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the custom boards' process holds CUSTOM_GAMES games, whatever the league's size: its
    # first read starts that far from the end, and later games push the oldest out
    from arena.league import boards

    monkeypatch.setattr(boards, "CUSTOM_GAMES", 40)
    monkeypatch.setattr(boards, "_READ", [None, 0, None])
    league = League(tmp_path / "league", workers=0)
    try:
        league.record(TableResult(synthetic_lines(50, bots=4)))  # 100 games
        rows = boards._custom_board(league.address, {}, ("", "", frozenset(), None))
        assert {row["elo_games"] for row in rows} == {40}
        assert sum(row["games"] for row in rows) == 80  # 40 games of 2 seats
        league.record(TableResult(synthetic_lines(5, bots=4, start=50)))
        rows = boards._custom_board(league.address, {}, ("", "", frozenset(), None))
        assert {row["elo_games"] for row in rows} == {40}
        assert len(boards._READ[2]) == 40 and boards._READ[2][-1].game_id == "L0000054-g2"
    finally:
        if boards._READ[0] is not None:
            boards._READ[0].close()
        league.close()
