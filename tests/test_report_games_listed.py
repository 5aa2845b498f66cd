"""Issue 46, point 5: the report's "Games to look at" says why each game is listed: whose
worst game it is (with its place and score), whose failure, or the first table's."""

from __future__ import annotations

import re
from dataclasses import replace

from arena.html.report_page import _games, _games_to_show
from arena.results.log import GameLine


def line(seq: int, players: tuple[str, ...], scores: tuple[float, ...], ranks: tuple[int, ...],
         faulty: int | None = None) -> GameLine:  # fmt: skip
    return GameLine(
        seq=seq, game_id=f"g{seq}", players=players, scores=scores, ranks=ranks,
        termination="timeout" if faulty is not None else "normal", faulty_seat=faulty,
    )  # fmt: skip


GAMES = [
    line(0, ("ann", "bob"), (30, 10), (0, 1)),
    line(1, ("bob", "ann"), (25, 20), (0, 1)),
    line(2, ("ann", "bob"), (5, 40), (1, 0)),
    line(3, ("bob", "ann"), (0, 12), (1, 0), faulty=0),
    line(4, ("ann", "bob"), (22, 21), (0, 1)),
]


def test_each_listed_game_says_whose_worst_it_is_or_whose_failure() -> None:
    why = _games_to_show(GAMES, ["ann", "bob"], 2)
    assert list(why) == ["g3", "g2", "g1", "g4", "g0"]
    assert why["g3"] == "bob failed (timeout)"
    assert why["g2"] == "one of ann's 3 worst (place 2 of 2, 5 points)"
    assert why["g1"] == (
        "one of ann's 3 worst (place 2 of 2, 20 points); one of bob's 3 worst (place 1 of 2, "
        "25 points); the first table"
    )
    assert why["g4"] == (
        "one of ann's 3 worst (place 1 of 2, 22 points); one of bob's 3 worst (place 2 of 2, "
        "21 points)"
    )
    assert why["g0"] == "one of bob's 3 worst (place 2 of 2, 10 points); the first table"


def test_the_table_of_games_to_look_at_has_a_listed_as_column() -> None:
    why = _games_to_show(GAMES, ["ann", "bob"], 2)
    page = _games(GAMES, {game_id: f"replays/{game_id}.html" for game_id in why}, why)
    assert '<th class="name">listed as</th>' in page
    rows = re.findall(r"<tr><td.*?</tr>", page)
    assert len(rows) == 5
    assert "one of ann&#x27;s 3 worst (place 2 of 2, 5 points)" in rows[1]


def test_the_league_bot_pages_columns_say_which_bot_finished_ahead() -> None:
    """The bot page's table against each other bot: `ahead` counts the games the chosen bot
    finished ahead of the other, and the column says so (it read "ahead of it")."""
    from arena.league.boards import bot_report
    from arena.league.pages import PAGE, PAGE_SCRIPT

    table = PAGE[PAGE.index('<table id="against-table"') :]
    headers = re.findall(r"<th>(.*?)</th>", table[: table.index("</thead>")])
    assert headers == [
        "other bot", "score (of games met)", "games this bot finished ahead", "level",
        "games the other bot finished ahead",
    ]  # fmt: skip
    assert "[a.bot, share(a), a.ahead, a.level, a.behind]" in PAGE_SCRIPT
    games = [replace(game, cpu_ms=(None, None), think_ms=(0.0, 0.0), decisions=(1, 1))
             for game in GAMES if game.faulty_seat is None]  # fmt: skip
    (against,) = bot_report("ann", games)["against"]
    assert (against["bot"], against["ahead"], against["level"], against["behind"]) == (
        "bob", 2, 0, 2,  # ann first in g0 and g4, bob in g1 and g2
    )  # fmt: skip
