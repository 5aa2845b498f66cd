"""A league database the league cannot run on is one sentence and exit 1; one that fails
while the league plays is told once, not a traceback a second; and another process holding
the write lock never stops the web side answering (issue 31, item 7; arena/league/database.py).
`arena serve` runs through click's CliRunner, in a thread so that a server that starts when it
should not is a failure rather than a hang."""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from arena.cli.main import main
from arena.league import database, web
from arena.league import outage as outage_module
from arena.league.league import League
from arena.league.outage import Outage
from arena.league.store import Store, StoreError
from arena.players.limits import Limits
from arena.results.log import GameLine
from tests.league_support import Site, bot_archive, served
from tests.waiting import Clock, until

SERVE_WAIT_S = 120


def _line(number: int) -> GameLine:
    return GameLine.from_json(
        {
            "seq": number, "game_id": f"L{number:07d}-g1", "round": 1, "table": number,
            "game": 1, "seed": 5, "players": ["a", "b"], "scores": [3, 1], "ranks": [0, 1],
            "winner": 0, "termination": "normal", "end": "sixth_river_colour", "reason": "r",
            "faulty_seat": None, "turns": 9, "decisions": [5, 4], "think_ms": [1.0, 1.0],
            "cpu_ms": [None, None], "think_max_ms": [0.5, 0.5], "think_hist": [{}, {}],
            "duration_ms": 3.0, "worker": "w", "finished_at": "2026-11-25T00:00:00.000+00:00",
        }
    )  # fmt: skip


def _league_file(folder: Path, games: int = 1500) -> Path:
    """A league folder whose store holds `games` games (a file of a few hundred pages)."""
    folder.mkdir(parents=True)
    store = Store(folder / "league.sqlite")
    for number in range(games):
        store.record_game(_line(number))
    store.close()
    return folder / "league.sqlite"


def _serve(folder: Path, *more: str) -> Result:
    """`arena serve --league folder ...more`, which must stop by itself."""
    args = ["serve", "--league", str(folder), "--port", "0", "--workers", "0", *more]
    done: list[Result] = []
    thread = threading.Thread(
        target=lambda: done.append(CliRunner().invoke(main, args)), daemon=True
    )
    thread.start()
    thread.join(SERVE_WAIT_S)
    assert done, "arena serve started serving a league it cannot run"
    return done[0]


def _one_sentence(result: Result, *words: str) -> str:
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit), result.exception  # no traceback
    (line,) = result.output.splitlines()
    assert line.startswith("Error: ") and line.endswith("."), line
    for word in words:
        assert word in line, line
    return line


@contextlib.contextmanager
def _read_only(path: Path) -> Iterator[None]:
    """`path` (a file or folder) made read-only for this process: `chmod` for a user,
    the immutable attribute for root (whom modes do not stop)."""
    if os.geteuid() != 0:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)
        return
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(path)]).returncode != 0:
        pytest.skip("running as root, and this file system has no immutable attribute")
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(path)], check=True)


@pytest.mark.parametrize("where", [0.5, 0.9])
def test_a_damaged_league_file_is_one_sentence(tmp_path: Path, where: float) -> None:
    path = _league_file(tmp_path / "league")
    data = bytearray(path.read_bytes())
    page = int(len(data) // 4096 * where)
    data[page * 4096 : (page + 1) * 4096] = b"\xde\xad" * 2048  # junk over one page
    path.write_bytes(data)
    _one_sentence(_serve(tmp_path / "league"), "is damaged", "backup", ".recover")


def _damage_table(path: Path, table: str) -> None:
    """Junk over the first page of `table` in the SQLite file `path`."""
    db = sqlite3.connect(path)
    size = db.execute("PRAGMA page_size").fetchone()[0]
    root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
    db.close()
    data = bytearray(path.read_bytes())
    data[(root - 1) * size : root * size] = b"\xde\xad" * (size // 2)
    path.write_bytes(data)


def test_a_large_file_opens_at_once_and_its_damaged_games_are_logged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # a file over WHOLE_CHECK_BYTES (a league of millions of games): what a restart reads is
    # checked at once, the games in a thread, which logs the damage in the opening's sentence
    monkeypatch.setattr(database, "WHOLE_CHECK_BYTES", 0)
    monkeypatch.setattr(database, "GAMES_CHECK_AFTER_S", 0.0)
    checked_in: list[str] = []  # the thread the games were checked in (it may end at once)
    check_games = database._check_games

    def check_noted(path: Path) -> None:
        checked_in.append(threading.current_thread().name)
        check_games(path)

    monkeypatch.setattr(database, "_check_games", check_noted)
    path = _league_file(tmp_path / "league")
    _damage_table(path, "games")
    with caplog.at_level(logging.ERROR, logger="arena.league.database"):
        store = Store(path)
        try:
            said = until(
                lambda: [r.getMessage() for r in caplog.records if "is damaged" in r.getMessage()],
                60, what="the games' check logging the damage",
            )  # fmt: skip
        finally:
            store.close()
    assert checked_in and set(checked_in) == {"league-db-check"}  # never where it opens
    assert any("backup" in text for text in said), said


def test_a_large_file_whose_bots_are_damaged_is_one_sentence_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(database, "WHOLE_CHECK_BYTES", 0)
    path = _league_file(tmp_path / "league")
    _damage_table(path, "bots")
    with pytest.raises(StoreError, match="is damaged"):
        Store(path)


def test_a_file_that_is_no_database_is_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "league").mkdir()
    (tmp_path / "league" / "league.sqlite").write_bytes(b"not a database at all\n" * 500)
    _one_sentence(_serve(tmp_path / "league"), "is not a league database", "move this one")


def test_a_read_only_league_file_or_folder_is_one_sentence(tmp_path: Path) -> None:
    path = _league_file(tmp_path / "league", games=10)
    with _read_only(path):
        _one_sentence(_serve(tmp_path / "league"), "cannot be written", "writable")
    folder = _league_file(tmp_path / "other", games=10).parent  # closed: no -wal beside it
    for sub in ("bots", "checks", "records", "logs", "uploads"):
        (folder / sub).mkdir()
    with _read_only(folder):
        _one_sentence(_serve(folder), "cannot be", "writable")


def test_a_read_only_postgresql_database_is_one_sentence(tmp_path: Path, postgres_url: str) -> None:
    import psycopg

    from tests.postgres_support import fresh_database

    url = fresh_database(postgres_url)
    Store(url).close()  # a league's database, then turned read-only
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(
            f"ALTER DATABASE {url.rsplit('/', 1)[1]} SET default_transaction_read_only = on"
        )
    _one_sentence(_serve(tmp_path / "league", "--db", url), "cannot be written")


def test_a_failing_database_is_told_once_then_once_a_minute(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.ERROR, logger="outage")
    clock = Clock()
    monkeypatch.setattr(outage_module, "time", clock)
    outage = Outage(logging.getLogger("outage"), every_s=2.0)
    for _ in range(3):
        outage.failed("the league cannot store its games", OSError("disk full"))
    clock.advance(2.2)
    outage.failed("the league cannot store its games", OSError("disk\nfull"))
    clock.advance(4.5)  # quiet for twice the period: a new outage
    outage.failed("the league could not hand out a table", OSError("gone"))
    assert [record.getMessage() for record in caplog.records] == [
        "the league cannot store its games: disk full; the league goes on and tries again",
        "the league's database still fails (for 2 s, 3 tries): the league cannot store its "
        "games: disk full",
        "the league could not hand out a table: gone; the league goes on and tries again",
    ]
    assert all(record.exc_info is None for record in caplog.records)


@contextlib.contextmanager
def _served_on(tmp_path: Path, db: str) -> Iterator[Site]:
    """`served`, on the database `db`."""
    limits = Limits(move_ms=5000, startup_ms=20_000)
    league = League(tmp_path / "league", workers=0, limits=limits, db=db)
    try:
        with web.serving(league) as url:
            yield Site(league, int(url.rsplit(":", 1)[1]))
    finally:
        league.close()


@contextlib.contextmanager
def _write_lock_held(db: str) -> Iterator[None]:
    """Another process's connection holding the write lock (SQLite) or a lock on the games
    table that stops every write to it (PostgreSQL) for as long as the block lasts."""
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db) as holder:  # a transaction, ended by the rollback
            holder.execute("LOCK TABLE games IN EXCLUSIVE MODE")  # reads still go on
            try:
                yield
            finally:
                holder.rollback()
        return
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    holder.execute("INSERT INTO settings (key, value) VALUES ('held', 'by a test')")
    try:
        yield
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def _playing(site: Site, tmp_path: Path) -> int:
    """Two bots playing in `site`'s league; the games stored so far (some)."""
    for author, name in ((site.ada, "alpha"), (site.bob, "beta")):
        archive = bot_archive(tmp_path, "random", name).read_bytes()
        assert site.call("POST", "/api/bots", author, archive)[0] == 202
        site.wait_status(name, "active")
    site.league.start()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # the page's leaderboard is read as the league plays
        rows = site.call("GET", "/api/leaderboard")[1]
        if rows and sum(row["games"] for row in rows) >= 8:
            break
        time.sleep(0.2)
    return site.league.game_count()


def _wait_for_more_games(site: Site, than: int) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        rows = site.call("GET", "/api/leaderboard")[1]
        if rows and sum(row["games"] for row in rows) > 2 * than:
            return
        time.sleep(0.3)
    raise AssertionError("the league did not go on storing games")


def _writing(league: League) -> bool:
    """The league's play thread is inside a write to its database (a transaction, or any
    statement but a SELECT), so waits there on the lock another connection holds."""
    frames = sys._current_frames()
    for thread in league.threads:
        frame = frames.get(thread.ident or -1)
        while frame is not None:
            name = frame.f_code.co_name
            if name == "transaction" and frame.f_code.co_filename.endswith("database.py"):
                return True  # SQLite's BEGIN IMMEDIATE waits for the write lock here
            sql = frame.f_locals.get("sql") if name.startswith("execute") else None
            if isinstance(sql, str) and not sql.lstrip().upper().startswith("SELECT"):
                return True
            frame = frame.f_back
    return False


def test_readers_answer_while_another_process_holds_the_write_lock(
    tmp_path: Path, league_db: str
) -> None:
    with _served_on(tmp_path, league_db) as site:
        before = _playing(site, tmp_path)
        with _write_lock_held(league_db):  # held until the reads came back
            until(lambda: _writing(site.league), 120, what="the league writing to its database")
            answers = {}
            for path in ("/api/leaderboard", "/api/bots", "/api/bots/alpha"):
                # 20 s: well within the 30 s a blocked write waits, far above a read
                with urllib.request.urlopen(site.url + path, timeout=20) as answer:
                    answers[path] = answer.status
            assert set(answers.values()) == {200}, answers
        _wait_for_more_games(site, before)  # the waiting tables stored, the league goes on


def test_a_database_failing_while_the_league_plays_is_told_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with served(tmp_path) as site:
        before = _playing(site, tmp_path)
        wal = tmp_path / "league" / "league.sqlite-wal"
        caplog.set_level(logging.ERROR, logger="arena.league.league")
        with _read_only(wal):  # the disk turned read-only under the running league
            tries = site.league.outage.tries  # the play loop tries again every second or so
            until(lambda: site.league.outage.tries >= tries + 3, 120, what="three more tries")
        told = [r for r in caplog.records if r.name == "arena.league.league"]
        assert told, "the failing database was never told"
        assert len(told) == 1 and told[0].exc_info is None, [r.getMessage() for r in told]
        assert "tries again" in told[0].getMessage()
        _wait_for_more_games(site, before)
