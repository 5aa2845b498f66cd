"""Issue 45: what a league serves (standings, ratings, rating histories, pair meetings, SPRT
sums) is kept with each stored game and persisted in the same transaction, so a league
opened again reads it, never its games, and has the same state as the one that played;
a league stored before the state was builds it once from its games. Both databases."""

from __future__ import annotations

import logging
import random
from pathlib import Path
from typing import Any

import pytest

from arena.bench.league_synthetic import synthetic_lines
from arena.execution import TableResult
from arena.league import store as store_module
from arena.league.bot_games import HISTORY_POINTS
from arena.league.league import League
from arena.league.league_state import COUNTED, LeagueState
from arena.league.schema import MIGRATIONS
from arena.league.store import Store
from arena.results.log import GameLine
from arena.stats.sprt import CONTINUE, H1, Sprt

WIDE = Sprt(0.0, 200.0)
"""A wide test: decided in a few deals."""


def _deal(number: int, a: str, b: str, a_wins: bool) -> list[GameLine]:
    """Table `number`'s two games, `a` and `b` with the seats swapped, won by `a` or `b`."""
    lines = []
    for game, players in enumerate(((a, b), (b, a)), 1):
        ranks = (0, 1) if (players[0] == a) == a_wins else (1, 0)
        lines.append(
            GameLine(
                seq=number * 2 + game, game_id=f"L{number:07d}-g{game}", players=players,
                scores=tuple(float(10 - 5 * rank) for rank in ranks), ranks=ranks,
                termination="normal", table=number, game=game, end="deck_exhausted",
                decisions=(5, 5), think_ms=(1.0, 1.0), cpu_ms=(1.0, 1.0),
                finished_at=f"2026-11-26T10:{number % 60:02d}:00.000+00:00",
            )
        )  # fmt: skip
    return lines


def _played(league: League, *, bulk: bool = False) -> None:
    """A league where b.v2 beats b until its SPRT says H1, c.v2 and c play two deals (their
    test open, half a deal pending), and others play around them: tables of one deal or
    many; then bots of long histories (their trails thinned). `bulk`: the same games grown
    in bulk (`record(..., new=True)`), a few large batches rather than a table's at a time."""
    store = league.store
    ada = store.author_of(store.add_author("ada"))
    assert ada is not None
    for name, versions in (("b", 2), ("c", 2), ("x", 1)):
        for version in range(versions):
            with league.lock:
                store.set_status(store.add_bot(name, ada, f"{name}{version}"), "active")
    rng = random.Random(5)
    number = 0
    tables: list[list[GameLine]] = []
    for _ in range(40):
        lines = _deal(number, "b.v2", "b", a_wins=True)
        if number < 6:  # two deals, one each: too few for a verdict
            lines += _deal(number + 1, "c.v2", "c", a_wins=number == 0)
        lines += _deal(number + 2, rng.choice(["b", "c", "b.v2"]), "x", rng.random() < 0.5)
        tables.append(lines)
        number += 3
    tables.append(_deal(number, "c.v2", "c", a_wins=True)[:1])  # half a deal
    tables.append(synthetic_lines(50, bots=5, start=number + 1))
    tables += [synthetic_lines(100, bots=4, start=number + 51 + 100 * n) for n in range(6)]
    if not bulk:
        for lines in tables:
            league.record(TableResult(lines))
        return
    every = [line for lines in tables for line in lines]
    for at in range(0, len(every), 1000):
        league.record(TableResult(every[at : at + 1000]), new=True)


def _state(league: League) -> dict[str, Any]:
    with league.lock:
        bots = league.store.bots()
        verdicts = {bot.label: league.verdict(bot, bots) for bot in bots}
        return {
            **league.state.snapshot(),
            "verdicts": verdicts,
            "met": dict(league.state.met()),
            "pages": {label: league.history(label) for label in ("b", "b.v2", "bot03")},
        }


def test_a_league_opened_again_has_the_state_of_the_one_that_played(
    tmp_path: Path, league_db: str
) -> None:
    league = League(tmp_path / "league", workers=0, test=WIDE, db=league_db)
    try:
        _played(league)
        live = _state(league)
    finally:
        league.close()
    verdicts = live["verdicts"]
    assert verdicts["b.v2"].verdict == H1 and verdicts["c.v2"].verdict == CONTINUE
    assert live["tests"]["c.v2", "c"]["halves"]  # the half deal pending is kept
    assert live["met"]["b", "b.v2"] == 2 * 40 and len(live["pages"]["b"]) > 2
    again = League(tmp_path / "league", workers=0, test=WIDE, db=league_db)
    try:
        assert _state(again) == live
        replayed = LeagueState.replayed(again.store.db, WIDE, again.seats)  # from the games
        assert replayed.snapshot() == again.state.snapshot()
        again.record(TableResult(_deal(10_000, "c.v2", "c", a_wins=True)))  # plays on
        assert again.standings.count == live["count"] + 2
    finally:
        again.close()


def test_games_grown_in_bulk_make_the_state_their_recording_makes(
    tmp_path: Path, league_db: str
) -> None:
    """The synthetic bench's bulk growth (`record(..., new=True)`): the same games, stored
    and counted as `record` stores and counts them a table at a time; reopened, the same;
    a batch with a game stored already is refused whole, the state left as stored."""
    recorded = League(tmp_path / "recorded", workers=0, test=WIDE)
    try:
        _played(recorded)
        live, games = _state(recorded), recorded.store.games()
        pages = {label: recorded.store.bot_games(label, 0, 200) for label in ("b", "bot03")}
    finally:
        recorded.close()
    assert live["histories"]["bot00"][-1]["games"] > 2 * HISTORY_POINTS  # thinned
    grown = League(tmp_path / "grown", workers=0, test=WIDE, db=league_db)
    try:
        _played(grown, bulk=True)
        assert _state(grown) == live
        assert grown.store.games() == games
        assert {label: grown.store.bot_games(label, 0, 200) for label in pages} == pages
    finally:
        grown.close()
    again = League(tmp_path / "grown", workers=0, test=WIDE, db=league_db)
    try:
        assert _state(again) == live
        stored_twice = synthetic_lines(2, bots=5, start=10**6) + games[-1:]
        with pytest.raises(again.store.db.already_there):
            again.record(TableResult(stored_twice), new=True)
        assert _state(again) == live and again.store.game_count() == len(games)
    finally:
        again.close()


def test_a_league_stored_before_its_state_builds_it_once_from_its_games(
    tmp_path: Path,
    league_db: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    played = League(tmp_path / "played", workers=0, test=WIDE)  # the same games, played
    try:
        _played(played)
        live = _state(played)
        games = played.store.games()
        bots = played.store.bots()
    finally:
        played.close()
    monkeypatch.setattr(store_module, "MIGRATIONS", MIGRATIONS[:5])  # an older arena's store
    old = Store(league_db)
    assert old.version == 5
    ada = old.author_of(old.add_author("ada"))
    assert ada is not None
    for bot in bots:
        old.set_status(old.add_bot(bot.name, ada, bot.name + str(bot.version)), bot.status)
    for line in games:
        assert old.record_game(line)
    old.close()
    monkeypatch.setattr(store_module, "MIGRATIONS", MIGRATIONS)
    caplog.set_level(logging.INFO, logger="arena.league")
    league = League(tmp_path / "league", workers=0, test=WIDE, db=league_db)
    try:
        assert league.store.version == len(MIGRATIONS)
        built = [r.getMessage() for r in caplog.records if "built once" in r.getMessage()]
        assert built == [built[0]] and f"from its {len(games)} stored games" in built[0]
        assert _state(league) == live
    finally:
        league.close()
    caplog.clear()
    again = League(tmp_path / "league", workers=0, test=WIDE, db=league_db)  # never again
    try:
        assert not [r for r in caplog.records if "built once" in r.getMessage()]
        assert _state(again) == live
        assert again.store.setting(COUNTED) == str(len(games))
    finally:
        again.close()
