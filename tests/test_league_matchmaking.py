"""Matchmaking (arena/league/matchmaking.py, issue 24)."""

from __future__ import annotations

import random
from collections import Counter

import trueskill

from arena.league.matchmaking import next_table


def test_too_few_bots_make_no_table() -> None:
    assert next_table(["a"], {}, {}, 2, random.Random(1)) is None
    assert next_table(["a", "b"], {}, {}, 3, random.Random(1)) is None


def test_the_bot_with_fewest_games_sits_first() -> None:
    games = {"a": 40, "b": 41, "c": 3, "d": 39}
    table = next_table(list(games), games, {}, 2, random.Random(2))
    assert table is not None and table[0] == "c"


def test_opponents_are_the_closest_match_among_the_neediest() -> None:
    ratings = {"new": trueskill.Rating(30, 8), "strong": trueskill.Rating(40, 1),
               "close": trueskill.Rating(30, 2), "weak": trueskill.Rating(5, 1)}  # fmt: skip
    games = {"new": 0, "strong": 10, "close": 10, "weak": 10}
    assert next_table(list(games), games, ratings, 2, random.Random(3)) == ("new", "close")


def test_every_bot_keeps_playing_as_games_accumulate() -> None:
    bots = [f"b{i}" for i in range(7)]
    games: Counter[str] = Counter()
    rng = random.Random(4)
    for _ in range(300):
        table = next_table(bots, games, {}, 3, rng)
        assert table is not None and len(set(table)) == 3
        games.update({bot: 3 for bot in table})  # a deal, seats rotated: 3 games each
    assert max(games.values()) - min(games.values()) <= 9
