"""The league's database and accounts (arena/league/store.py, accounts.py; issue 24)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from arena.league import accounts
from arena.league.store import MIGRATIONS, Store, StoreError
from arena.results.log import GameLine
from tests.postgres_support import fresh_database


def _line(game_id: str, players: tuple[str, ...] = ("a", "b")) -> GameLine:
    return GameLine.from_json(
        {
            "seq": 0, "game_id": game_id, "round": 1, "table": 0, "game": 1, "seed": 5,
            "players": list(players), "scores": [3, 1], "ranks": [0, 1], "winner": 0,
            "termination": "normal", "end": "sixth_river_colour", "reason": "r",
            "faulty_seat": None, "turns": 9, "decisions": [5, 4], "think_ms": [1.0, 1.0],
            "cpu_ms": [None, None], "think_max_ms": [0.5, 0.5], "think_hist": [{}, {}],
            "duration_ms": 3.0, "worker": "w", "finished_at": "2026-11-25T00:00:00.000+00:00",
        }
    )  # fmt: skip


def test_a_new_database_is_migrated(league_db: str) -> None:
    store = Store(league_db)
    assert store.version == len(MIGRATIONS)
    store.close()
    again = Store(league_db)  # reopening runs nothing twice
    assert again.version == len(MIGRATIONS)
    again.close()


def test_a_sqlite_league_is_in_wal_mode(tmp_path: Path) -> None:
    store = Store(tmp_path / "league.sqlite")
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_postgresql_league_made_by_a_newer_arena_is_refused(postgres_url: str) -> None:
    where = fresh_database(postgres_url)
    Store(where).close()
    import psycopg

    with psycopg.connect(where, autocommit=True) as db:
        db.execute("UPDATE arena_schema SET version = %s", (len(MIGRATIONS) + 1,))
    with pytest.raises(StoreError, match="newer arena"):
        Store(where)


def test_an_unreachable_postgresql_server_is_one_sentence() -> None:
    pytest.importorskip("psycopg")
    with pytest.raises(
        StoreError, match=r"Cannot open the PostgreSQL database .*:\*\*\*@"
    ) as error:
        Store("postgresql://ada:secret@127.0.0.1:1/league")
    assert "secret" not in str(error.value) and "\n" not in str(error.value)
    with pytest.raises(StoreError, match=r"password=\*\*\*") as error:
        Store("postgresql://ada@127.0.0.1:1/league?password=secret&sslmode=disable")
    assert "secret" not in str(error.value)


def test_a_newer_or_foreign_database_is_one_sentence(tmp_path: Path) -> None:
    newer = tmp_path / "newer.sqlite"
    sqlite3.connect(newer).execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    with pytest.raises(StoreError, match="newer arena"):
        Store(newer)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="not a league database"):
        Store(junk)


def test_tokens_are_stored_hashed_and_find_their_author(league_db: str) -> None:
    store = Store(league_db)
    token = store.add_author("ada", admin=True)
    assert token.startswith(accounts.TOKEN_PREFIX) and len(token) > 40
    stored = store.db.execute("SELECT token_hash FROM authors").fetchone()[0]
    assert token not in stored and stored == accounts.token_hash(token)
    author = store.author_of(token)
    assert author is not None and author.name == "ada" and author.admin
    assert store.author_of(token + "x") is None
    assert store.author_of("x" * 10_000) is None
    with pytest.raises(StoreError, match="already an author"):
        store.add_author("ada")
    with pytest.raises(accounts.AccountError, match="author's name"):
        store.add_author("<script>")


def test_versions_of_a_bot_belong_to_its_author(league_db: str) -> None:
    store = Store(league_db)
    ada = store.author_of(store.add_author("ada"))
    bob = store.author_of(store.add_author("bob"))
    assert ada is not None and bob is not None
    first = store.add_bot("mine", ada)
    second = store.add_bot("mine", ada)
    assert (first.version, first.label, second.version, second.label) == (1, "mine", 2, "mine.v2")
    assert first.status == "building" and second.folder == "bots/mine.v2"
    with pytest.raises(StoreError, match="belongs to ada"):
        store.add_bot("mine", bob)
    active = store.set_status(first, "active")
    assert [bot.label for bot in store.bots("active")] == ["mine"] and active.status == "active"
    with pytest.raises(StoreError, match="may not end in .v and a number"):
        store.add_bot("mine.v3", bob)  # it would take the label of ada's third version
    with pytest.raises(StoreError, match="not a bot status"):
        store.set_status(first, "king")


def test_a_game_is_recorded_once(league_db: str) -> None:
    store = Store(league_db)
    assert store.record_game(_line("g1"))
    assert not store.record_game(_line("g1"))  # after a restart, the same game again
    assert store.record_game(_line("g2", ("b", "c")))
    assert store.game_count() == 2
    assert [game.game_id for game in store.games("b")] == ["g1", "g2"]
    assert store.games_per_bot() == {"a": 1, "b": 2, "c": 1}
    assert store.games()[0] == _line("g1")


def test_an_invite_makes_one_author_once(league_db: str) -> None:
    store = Store(league_db)
    store.add_author("ada")
    code = store.add_invite()
    assert code.startswith(accounts.INVITE_PREFIX)
    assert code not in str(store.db.execute("SELECT code_hash FROM invites").fetchall())
    with pytest.raises(StoreError, match="already an author called ada"):
        store.join(code, "ada")  # the code is not used up by a refusal
    with pytest.raises(accounts.AccountError, match="author's name"):
        store.join(code, "<b>")
    token = store.join(code, "carol")
    author = store.author_of(token)
    assert author is not None and author.name == "carol" and not author.admin
    with pytest.raises(StoreError, match="invite is not valid"):
        store.join(code, "dave")  # once only
    with pytest.raises(StoreError, match="invite is not valid"):
        store.join(store.add_invite(days=-1), "dave")  # expired
    for junk in ("", "invite_nonsense", "x" * 10_000):
        with pytest.raises(StoreError, match="invite is not valid"):
            store.join(junk, "dave")
    store.close()


def test_a_league_file_of_schema_1_is_migrated_and_keeps_its_authors(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    old = sqlite3.connect(path, isolation_level=None)
    for statement in MIGRATIONS[0].format(serial="INTEGER PRIMARY KEY", float="REAL").split(";"):
        old.execute(statement)
    old.execute("PRAGMA user_version = 1")
    old.execute(
        "INSERT INTO authors (name, token_hash, admin, created) VALUES ('ada', ?, 1, 0)",
        (accounts.token_hash("arena_old"),),
    )
    old.close()
    store = Store(path)
    assert store.version == len(MIGRATIONS) >= 2
    author = store.author_of("arena_old")
    assert author is not None and author.admin
    assert store.author_of(store.join(store.add_invite(), "bob")) is not None
