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

from arena.bench import league_grow
from arena.bench.league_synthetic import _grow
from arena.bench.synthetic_games import synthetic_lines
from arena.execution import TableResult
from arena.league import league_state
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


def _played(league: League) -> None:
    """A league where b.v2 beats b until its SPRT says H1, c.v2 and c play two deals (their
    test open, half a deal pending), and others play around them: tables of one deal or
    many."""
    store = league.store
    ada = store.author_of(store.add_author("ada"))
    assert ada is not None
    for name, versions in (("b", 2), ("c", 2), ("x", 1)):
        for version in range(versions):
            with league.lock:
                store.set_status(store.add_bot(name, ada, f"{name}{version}"), "active")
    rng = random.Random(5)
    number = 0
    for _ in range(40):
        lines = _deal(number, "b.v2", "b", a_wins=True)
        if number < 6:  # two deals, one each: too few for a verdict
            lines += _deal(number + 1, "c.v2", "c", a_wins=number == 0)
        lines += _deal(number + 2, rng.choice(["b", "c", "b.v2"]), "x", rng.random() < 0.5)
        league.record(TableResult(lines))
        number += 3
    league.record(TableResult(_deal(number, "c.v2", "c", a_wins=True)[:1]))  # half a deal
    league.record(TableResult(synthetic_lines(50, bots=5, start=number + 1)))


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


def _grown(league: League) -> dict[str, Any]:
    with league.lock:
        return {
            **league.state.snapshot(),
            "met": dict(league.state.met()),
            "games": league.store.games(),
            "pages": {f"bot{n:02d}": league.store.bot_games(f"bot{n:02d}", 0, 200) for n in (0, 5)},
        }


def test_a_league_grown_in_bulk_has_the_state_its_games_recorded_one_by_one_give(
    tmp_path: Path, league_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The synthetic bench's bulk growth (league_grow.py: the games stored, and rated, by a
    process of its own, the standings counted beside) gives the league, and the store, that
    `record` gives a table at a time; and once reopened. Games recorded between batches
    too. A game stored already is refused by the bulk insert, and nothing of its batch
    stored."""
    monkeypatch.setattr(league_grow, "BULK_TABLES", 300)  # batches of 600 games
    recorded = League(tmp_path / "recorded", workers=0, test=WIDE)
    try:  # the same games (made per batch: the grower's 300 tables, _grow's the rest)
        batches = [(0, 300), (300, 200), (500, 200), (700, 300), (1000, 300)]
        for start, tables in batches:
            lines = synthetic_lines(tables, bots=6, start=start)
            for at in range(0, len(lines), 100):
                recorded.record(TableResult(lines[at : at + 100]))
        live = _grown(recorded)
    finally:
        recorded.close()
    assert live["histories"]["bot00"][-1]["games"] > 2 * HISTORY_POINTS  # trails thinned
    grown = League(tmp_path / "grown", workers=0, test=WIDE, db=league_db)
    try:
        with league_grow.Grower(grown) as grower:
            grower.grow(1000, seats=2, bots=6)
            _grow(grown, 1400, seats=2, bots=6)  # League.record, as a game played is
            grower.grow(2600, seats=2, bots=6)
        assert _grown(grown) == live
    finally:
        grown.close()
    again = League(tmp_path / "grown", workers=0, test=WIDE, db=league_db)
    try:
        assert _grown(again) == live
        store, stored = again.store, live["games"]
        twice = synthetic_lines(2, bots=6, start=10**6) + stored[-1:]
        with pytest.raises(store.db.already_there), store.db.transaction():
            store.insert_new_games(twice)
        assert store.game_count() == len(stored)
    finally:
        again.close()


def test_a_league_stopped_reads_its_pairs_snapshot_and_one_that_played_on_its_rows(
    tmp_path: Path,
    league_db: str,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Schema step 8: the pairs' arrays written whole when the league stops are what the
    next start reads (the rows are gone here, and the state is the same); once a game is
    stored after it, or with a part of it missing, the rows are read again. Each part is
    read a few bytes at a time here (SNAPSHOT_READ), so its pieces join across their
    bounds as a large league's do."""
    monkeypatch.setattr(league_state, "SNAPSHOT_READ", 7)
    league = League(tmp_path / "league", workers=0, test=WIDE, db=league_db)
    try:
        _played(league)
        league.write_snapshot()
        live = _state(league)
        with league.lock, league.store.db.transaction():
            rows = league.store.db.execute("SELECT * FROM pair_state").fetchall()
            league.store.db.execute("DELETE FROM pair_state")
    finally:
        league.close()
    again = League(tmp_path / "league", workers=0, test=WIDE, db=league_db)
    try:
        assert _state(again) == live  # from the snapshot alone
        marks = ", ".join("?" * len(rows[0]))
        with again.lock, again.store.db.transaction():
            again.store.db.executemany(f"INSERT INTO pair_state VALUES ({marks})", rows)
        again.record(TableResult(_deal(10_000, "b", "x", a_wins=True)))
        live = _state(again)
    finally:
        again.close()
    for step in ("played on", "a part missing"):
        reopened = League(tmp_path / "league", workers=0, test=WIDE, db=league_db)
        try:
            assert _state(reopened) == live, step  # from the rows
            reopened.write_snapshot()
            with reopened.lock:
                reopened.store.db.execute("DELETE FROM pair_snapshot WHERE part = 'games'")
        finally:
            reopened.close()
    assert "the pairs' snapshot cannot be read ('games')" in caplog.text


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
