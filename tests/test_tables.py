"""Tables of more than two seats: the fault outcome, the typed games log and its old lines,
results of 3- and 4-seat games from hand-made logs, resume of old 2-seat runs, the run options.
"""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from tournament_support import config_json, make_bots

from arena.cli.main import main
from arena.errors import TournamentError
from arena.outcome import Termination
from arena.referee import fault_outcome
from arena.results.log import LOG_VERSION, GameLine, GamesLog, completed_ids, read_games
from arena.results.ratings import environment, rate_games
from arena.results.report import make_report
from arena.results.tables import ends, format_markdown, leaderboard, pairwise
from arena.schedule import schedule

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def game(seq: int, players: list[str], scores: list[int], **extra: Any) -> GameLine:
    """A games-log line of any number of seats; ranks follow the scores unless given."""
    ranks = extra.pop("ranks", [sum(1 for o in scores if o > mine) for mine in scores])
    termination = extra.pop("termination", "normal")
    return GameLine(
        seq=seq,
        game_id=f"r0001-t{seq:06d}-g1",
        players=tuple(players),
        scores=tuple(scores),
        ranks=tuple(ranks),
        termination=termination,
        end=extra.pop("end", "highest_card" if termination == "normal" else None),
        turns=extra.pop("turns", 3),
        **extra,
    )


# --- the fault outcome -----------------------------------------------------------------------


class Position:
    """A game position as the fault outcome sees it: its seats and their scores."""

    def __init__(self, scores: tuple[int, ...]) -> None:
        self.num_players = len(scores)
        self._scores = scores

    def scores(self) -> tuple[int, ...]:
        return self._scores


@pytest.mark.parametrize(
    ("scores", "seat", "ranks"),
    [
        ((5, 9), 1, (0, 1)),  # two seats: as before, the faulty seat loses
        ((5, 9, 7, 1), 0, (3, 0, 1, 2)),  # the others ranked by score, the faulty seat last
        ((4, 4, 9), 2, (0, 0, 2)),  # equal scores share a rank
        ((2, 8, 8, 8), 3, (2, 0, 0, 3)),
    ],
)
def test_a_faulty_seat_ranks_last_and_the_others_by_score(
    scores: tuple[int, ...], seat: int, ranks: tuple[int, ...]
) -> None:
    outcome = fault_outcome(Position(scores), seat, Termination.TIMEOUT, "slow")  # type: ignore[arg-type]
    assert outcome.ranks == ranks and outcome.scores == scores and outcome.faulty_seat == seat


# --- the typed games-log line ----------------------------------------------------------------


OLD_LINE = {
    "seq": 3,
    "game_id": "r0001-p000001-g2",
    "round": 1,
    "pair": 1,
    "game": 2,
    "seed": 42,
    "players": ["b", "a"],
    "scores": [7, 3],
    "ranks": [0, 1],
    "winner": 0,
    "termination": "sixth_river_colour",
    "reason": "seat 0 added a sixth colour",
    "faulty_seat": None,
    "turns": 40,
    "decisions": [20, 20],
    "think_ms": [1.5, 2.5],
    "duration_ms": 90.0,
    "worker": "host:1",
    "finished_at": "2026-01-01T00:00:00.000+00:00",
}


def test_a_line_round_trips_through_json() -> None:
    line = game(4, ["a", "b", "c"], [3, 9, 3], faulty_seat=None, decisions=(5, 5, 5))
    data = line.to_json()
    assert data["version"] == LOG_VERSION and list(data)[:3] == ["version", "seq", "game_id"]
    assert GameLine.from_json(json.loads(json.dumps(data))) == line


def test_a_line_of_an_old_log_is_mapped() -> None:
    line = GameLine.from_json(OLD_LINE)
    assert (line.table, line.game, line.seed) == (1, 2, 42)
    assert (line.termination, line.end) == ("normal", "sixth_river_colour")
    assert line.version == LOG_VERSION
    faulty = GameLine.from_json({**OLD_LINE, "termination": "timeout", "faulty_seat": 1})
    assert (faulty.termination, faulty.end) == ("timeout", None)


def test_a_line_of_a_newer_log_is_refused_in_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps({**OLD_LINE, "version": 99}) + "\n")
    with pytest.raises(TournamentError, match=r"line 1, .*version 99.*versions 1 to 2\.$"):
        list(read_games(path))
    path.write_text(json.dumps({k: v for k, v in OLD_LINE.items() if k != "ranks"}) + "\n")
    with pytest.raises(TournamentError, match="line 1, .* no 'ranks'"):
        list(read_games(path))


# --- results of 3- and 4-seat games ----------------------------------------------------------

THREE = [
    game(0, ["a", "b", "c"], [9, 5, 1]),
    game(1, ["b", "c", "a"], [5, 1, 9]),
    game(2, ["c", "a", "b"], [4, 4, 0]),  # a and c tie for first
    game(3, ["a", "b", "c"], [0, 6, 2], ranks=[2, 0, 1], termination="timeout", faulty_seat=0),
]


def test_the_leaderboard_of_three_seats() -> None:
    board = leaderboard(THREE, rate_games(THREE)).set_index("bot")
    assert "wins" not in board.columns  # W/D/L is for two seats
    assert board.loc["a", "games"] == 4
    assert board.loc["a", ["place_1", "place_2", "place_3"]].tolist() == [3, 0, 1]
    assert board.loc["b", ["place_1", "place_2", "place_3"]].tolist() == [1, 2, 1]
    assert board.loc["a", "mean_rank"] == pytest.approx((1 + 1 + 1 + 3) / 4)
    assert board.loc["c", "mean_rank"] == pytest.approx((3 + 3 + 1 + 2) / 4)
    # one table (one deal) is too few for an interval (issue 23): none, and the table says so
    assert math.isnan(board.loc["c", "mean_rank_lo"]) and math.isnan(board.loc["c", "mean_rank_hi"])
    assert "| 2.25 (too few games) |" in format_markdown(board.reset_index())
    assert board.loc["b", "mean_score"] == pytest.approx(16 / 4)
    assert board.loc["a", "points_share"] == pytest.approx((9 / 15 + 9 / 15 + 4 / 8 + 0) / 4)
    assert board.loc["a", "failures"] == "timeout 1" and board.loc["b", "failures"] == ""


def test_a_mean_rank_interval_counts_tables_not_games() -> None:
    """Issue 23: the games of a table share a deal; the interval is Student's t over the
    tables' mean ranks, and a bot first at every table still gets a width."""
    lines = []
    for table in range(8):
        for turn in range(3):  # the deal played once per rotation of the seats
            players = ["a", "b", "c"][turn:] + ["a", "b", "c"][:turn]
            scores = [9, 5, 1] if table % 2 else [9, 1, 5]  # a always first; b, c alternate
            order = {"a": 9, "b": scores[1], "c": scores[2]}
            lines.append(game(len(lines), players, [order[p] for p in players], table=table))
    board = leaderboard(lines, rate_games(lines)).set_index("bot")
    assert board.loc["b", "mean_rank"] == pytest.approx(2.5)
    per_table = [2.0, 3.0] * 4  # b's mean rank at each table
    half = 2.365 * statistics.stdev(per_table) / math.sqrt(8)  # t, 7 degrees of freedom
    assert board.loc["b", "mean_rank_lo"] == pytest.approx(2.5 - half)
    assert board.loc["b", "mean_rank_hi"] == pytest.approx(min(3.0, 2.5 + half))
    lo, hi = board.loc["a", ["mean_rank_lo", "mean_rank_hi"]]
    z2 = 1.959964**2  # first at all 8 tables: Wilson's upper bound for 0 of 8, scaled to 1..3
    assert lo == 1.0 and hi == pytest.approx(1 + 2 * z2 / (8 + z2), abs=1e-5)


def test_head_to_head_counts_every_two_seats_of_a_table() -> None:
    table = pairwise(THREE).set_index(["bot", "opponent"])
    assert table.loc[("a", "c"), ["games", "wins", "draws", "losses"]].tolist() == [4, 2, 1, 1]
    assert table.loc[("c", "a"), ["wins", "draws", "losses"]].tolist() == [1, 1, 2]
    assert table.loc[("a", "c"), "win_rate"] == pytest.approx(2.5 / 4)
    lo, hi = table.loc[("a", "c"), ["win_rate_lo", "win_rate_hi"]]
    assert math.isnan(lo) and math.isnan(hi)  # one table: too few games (issue 23)


def test_a_head_to_head_interval_counts_tables() -> None:
    """Issue 23: b and c meet at 8 tables (deals), each played once per rotation; b's share
    of the meetings is 1 at half of them and 1/3 at the others."""
    lines = []
    for table in range(8):
        for turn in range(3):
            players = ["a", "b", "c"][turn:] + ["a", "b", "c"][:turn]
            b_first = table % 2 == 0 or turn == 0  # b ahead of c in 1 or 3 of the 3 games
            order = {"a": 9, "b": 5 if b_first else 1, "c": 1 if b_first else 5}
            lines.append(game(len(lines), players, [order[p] for p in players], table=table))
    table = pairwise(lines).set_index(["bot", "opponent"])
    share = (4 * 1 + 4 * (1 / 3)) / 8
    assert table.loc[("b", "c"), "win_rate"] == pytest.approx(share)
    lo, hi = table.loc[("b", "c"), ["win_rate_lo", "win_rate_hi"]]
    assert 0 < lo < share < hi < 1
    lo, hi = table.loc[("a", "b"), ["win_rate_lo", "win_rate_hi"]]
    assert 0.5 < lo < hi == 1.0  # a ahead at every meeting: Wilson over 8 tables


def test_four_seat_ratings_are_trueskills_free_for_all_in_schedule_order() -> None:
    games = [game(i, ["a", "b", "c", "d"][i % 4 :] + ["a", "b", "c", "d"][: i % 4], [4, 3, 2, 1])
             for i in range(8)]  # fmt: skip
    env, current = environment(), {}
    for line in games:
        before = [current.get(name, env.create_rating()) for name in line.players]
        after = env.rate([(r,) for r in before], ranks=list(line.ranks))
        current.update({name: group[0] for name, group in zip(line.players, after, strict=True)})
    rated = rate_games(list(reversed(games)))
    for name, rating in current.items():
        assert rated.bots[name].mu == pytest.approx(rating.mu, abs=1e-12)
        assert rated.bots[name].sigma == pytest.approx(rating.sigma, abs=1e-12)
    board = leaderboard(games, rated, seats=4)
    assert [c for c in board.columns if c.startswith("place_")] == [
        f"place_{i}" for i in (1, 2, 3, 4)
    ]
    assert board["games"].tolist() == [8, 8, 8, 8] and board["mean_rank"].mean() == 2.5


def test_how_games_ended_counts_the_games_own_ends() -> None:
    assert ends(THREE) == {"highest_card": 3, "timeout": 1}


def test_report_of_a_four_seat_run(tmp_path: Path) -> None:
    import matplotlib.pyplot as plt

    bots = ["ant", "bee", "cat", "dog", "eel"]
    lines = []
    for task in schedule(bots, 2, seed=3, seats=4):
        for slot in task.games:
            scores = [len(name) + slot.players.index(name) for name in slot.players]
            if "cat" in slot.players:
                scores[slot.players.index("cat")] = 20
            lines.append(game(slot.seq, list(slot.players), scores, table=slot.table))
    (tmp_path / "config.json").write_text(config_json(bots, seats=4, total_games=40))
    with GamesLog(tmp_path / "games.jsonl", fsync=False) as log:
        for line in lines:
            log.append(line)
    report = make_report(tmp_path)
    names = {path.name for path in report.files}
    assert {"places_by_seat.png", "pairwise.png", "ratings.png"} <= names
    assert "seat_advantage.png" not in names
    for path in report.files:
        if path.suffix == ".png":
            assert path.read_bytes()[:8] == PNG_MAGIC and plt.imread(path).shape[0] > 100
    csv = (tmp_path / "ratings.csv").read_text().splitlines()
    assert csv[0].startswith(
        "rank,bot,mu,sigma,conservative,elo,elo_lo,elo_hi,games,mean_rank,mean_rank_lo,"
        "mean_rank_hi,place_1,place_2"
    )
    assert csv[1].startswith("1,cat,")
    text = (tmp_path / "leaderboard.md").read_text()
    assert "Tables of 4 seats" in text and "| mean rank (95%) | 1st | 2nd | 3rd | 4th |" in text
    assert "Games ended: highest_card 40." in text
    assert "40 of 40 games played" in report.text()
    assert report.text().endswith("\nGames ended: highest_card 40.\n")


# --- old 2-seat runs resume without replaying a game -----------------------------------------


def test_an_old_two_seat_run_resumes_without_replaying(tmp_path: Path) -> None:
    from arena.execution import InlineExecutor
    from arena.players.manifest import discover_bots
    from arena.tournament import create_run, play, resume_run

    folder = make_bots(tmp_path / "bots", {"alpha": ["--strategy", "first"],
                                            "beta": ["--strategy", "last"]})  # fmt: skip
    run = tmp_path / "run"
    saved = create_run(run, discover_bots(folder), rounds=2, seed=9, limits={}).to_json()
    del saved["seats"], saved["all_seatings"], saved["tables_per_round"], saved["version"]
    (run / "config.json").write_text(json.dumps({**saved, "format": 1}))  # as old runs wrote it
    config, _ = resume_run(run, {})
    first = next(iter(schedule(["alpha", "beta"], 2, 9))).games
    with (run / "games.jsonl").open("w") as file:  # the first pair, as an old arena logged it
        for slot in first:
            old = {**OLD_LINE, "seq": slot.seq, "game_id": slot.game_id, "pair": slot.table}
            file.write(json.dumps({**old, "players": list(slot.players)}) + "\n")
    summary = play(run, config, workers=0, executor=InlineExecutor())
    assert (summary.done_before, summary.played, summary.total) == (2, 2, 4)
    assert completed_ids(run / "games.jsonl") == {
        "r0001-p000000-g1", "r0001-p000000-g2", "r0002-p000001-g1", "r0002-p000001-g2",
    }  # fmt: skip
    assert make_report(run, charts=False).games_played == 4


# --- the run command's table options ---------------------------------------------------------


def _run(tmp_path: Path, *args: str) -> tuple[int, str]:
    folder = make_bots(tmp_path / "bots", {"alpha": [], "beta": [], "gamma": []})
    result = CliRunner().invoke(
        main, ["run", "--bots", str(folder), "--out", str(tmp_path / "run"), *args]
    )
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("args", "sentence"),
    [
        (
            ["--seats", "3"],
            (  # issue 46: and the games that seat 3
                "Error: mandala is played by 2 players, not --seats 3; at 3 seats play flowers, "
                "highcard or takenoko (--game flowers).\n"
            ),
        ),
        (
            ["--game", "chess"],
            "Error: Unknown game 'chess'; the known games are: flowers, highcard, mandala, "
            "takenoko, and any sequential OpenSpiel game as openspiel:NAME (e.g. "
            "openspiel:kuhn_poker).\n",
        ),
        (["--game-option", "colours=7"], "Error: mandala has no option 'colours'; known options"),
        (["--game-option", "turn_limit"], "'turn_limit' is not key=value (e.g. turn_limit=500)."),
        (
            ["--game", "flowers", "--game-option", "turn_limit=0"],
            "Error: turn_limit must be a whole number of at least 1, not 0.\n",
        ),
        (
            ["--game", "flowers", "--seats", "5"],
            "flowers is played by 2 to 4 players, not --seats 5",
        ),
    ],
)
def test_run_refuses_a_table_the_game_cannot_seat(
    tmp_path: Path, args: list[str], sentence: str
) -> None:
    code, output = _run(tmp_path, *args)
    assert code != 0 and sentence in output, output
    assert not (tmp_path / "run" / "config.json").exists()


def test_run_refuses_more_seats_than_bots(tmp_path: Path) -> None:
    code, output = _run(tmp_path, "--game", "flowers", "--seats", "4")
    assert code != 0
    assert output.endswith("Error: A table of 4 seats needs at least 4 bots; the field has 3.\n")


def test_run_saves_the_table_options(tmp_path: Path) -> None:
    code, output = _run(tmp_path, "--rounds", "1", "--seed", "1", "--game-option",
                        "turn_limit=300", "--tables-per-round", "2", "--no-charts")  # fmt: skip
    assert code == 0, output
    config = json.loads((tmp_path / "run" / "config.json").read_text())
    assert config["game_config"] == {"turn_limit": 300}
    assert (config["seats"], config["all_seatings"], config["tables_per_round"]) == (2, False, 2)
    assert config["total_games"] == 4
    assert "balanced sample of 2 of its 3 tables of 2 seats" in output
    assert len(list(read_games(tmp_path / "run" / "games.jsonl"))) == 4
