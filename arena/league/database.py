"""The two databases a league can keep its store in, behind one small interface.

SQLite (a file: one `league.sqlite`, WAL mode so readers never wait for the writer) is the
default; PostgreSQL (`--db postgresql://USER@HOST/NAME`, through psycopg) is for a league
whose database lives on a server. The store (arena/league/store.py) writes its SQL once, in
the part both speak: `?` placeholders (turned into psycopg's `%s` here), `ON CONFLICT`,
`RETURNING`, and three type names that differ, `{serial}`, `{float}` and `{bytes}`,
filled in per dialect in the schema. What differs otherwise lives here: connecting, transactions, the
schema's version number, and which errors mean "already there".

A database the league cannot run on is one sentence when it is opened, saying what to do: a
SQLite file that is damaged (`PRAGMA quick_check`, about 0.15 s for 100,000 games: a file of up
to WHOLE_CHECK_BYTES whole; a larger one's tables other than the games at once, and its
games in the background, a damage found there logged as an error) or not a database, a file or folder that cannot be written, a PostgreSQL database that is read-only.
`reader` is a second connection, for reading only, which the web side uses with a lock of
its own, so a reader never queues behind a writer waiting for the database's write lock
(another process holding it). A database that keeps failing is told in the log by
`outage.Outage`.
"""

from __future__ import annotations

import fcntl
import logging
import re
import sqlite3
import threading
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

from arena.errors import ArenaError

log = logging.getLogger(__name__)

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
_PASSWORD = re.compile(r"(://[^:/@]*):[^@/]*@")
_PASSWORD_PARAMETER = re.compile(r"(password=)[^&\s\"']*", re.IGNORECASE)
BUSY_MS = 30_000
"""How long a write waits for the database's write lock held by another process."""
CHECKED_PROBLEMS = 3
"""How many of a damaged file's problems `PRAGMA quick_check` is asked for (one is shown)."""
WHOLE_CHECK_BYTES = 256 << 20
"""A SQLite file up to this size is checked whole when opened (quick_check reads all of it);
a larger one (a league of millions of games) is opened in the time it takes to check what a
restart reads, and its games are checked in a thread (`_check_games`)."""
GAME_TABLES = ("games", "game_bots")
GAMES_CHECK_AFTER_S = 60.0
"""A large file's games are checked this long after it was opened: not while the league
reads its state and starts (the check reads the whole file)."""


class DatabaseError(ArenaError):
    """A database that cannot be opened or used; one sentence."""


class Rows(Protocol):
    """What an executed statement gives back (a DB-API cursor)."""

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Database(Protocol):
    """One connection, used by one thread at a time (the league holds its lock)."""

    where: str
    """Where it is, for messages (a path, or a URL without its password)."""
    types: dict[str, str]
    """The dialect's words for `{serial}` (an id assigned on insert), `{float}` and
    `{bytes}`."""
    already_there: tuple[type[Exception], ...]
    """The errors a unique constraint raises."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Rows: ...

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    def copy(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        """Insert `rows` (of `columns`) into `table` in bulk: PostgreSQL's COPY, SQLite's
        executemany (inside the caller's transaction)."""
        ...

    def transaction(self) -> Any:
        """A context manager: everything inside commits together, or none of it."""
        ...

    def schema_version(self) -> int: ...

    def set_schema_version(self, version: int) -> None:
        """Inside the migration's transaction."""
        ...

    def lock_for_migration(self) -> None:
        """Inside the migration's transaction: one league migrates at a time."""
        ...

    def claim(self) -> Callable[[], None] | None:
        """Claim the database for one playing league: a function that releases it, or None
        when another process holds it."""
        ...

    def reader(self) -> Database:
        """A second connection to the same database, for reading only (made once, closed
        with this one); its user keeps a lock of its own for it."""
        ...

    def close(self) -> None: ...


def lock_file(path: Path) -> Callable[[], None] | None:
    """An exclusive lock on the file `path` (made if missing), held by this process until the
    returned function is called or the process ends; None when another holds it."""
    file = path.open("a")
    try:
        fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        file.close()
        return None
    return file.close  # the lock goes with the descriptor


def shown(where: str) -> str:
    """A database address fit for a message: a URL's password blanked (`user:PASSWORD@`
    or `?password=PASSWORD`)."""
    return _PASSWORD_PARAMETER.sub(r"\1***", _PASSWORD.sub(r"\1:***@", where))


def said(error: BaseException) -> str:
    """An error's text on one line, short, a password in it blanked."""
    return shown(" ".join(str(error).split()))[:300]


def is_postgres(where: str) -> bool:
    return where.startswith(POSTGRES_SCHEMES)


def open_database(where: str | Path, *, reading: bool = False) -> Database:
    """The database at `where`: a `postgresql://` URL, else the path of a SQLite file;
    `reading`: for reading only (another process's, beside the league's)."""
    if isinstance(where, str) and is_postgres(where):
        return PostgresDatabase(where, reading=reading)
    return SqliteDatabase(Path(where), reading=reading)


class SqliteDatabase:
    types = {"serial": "INTEGER PRIMARY KEY", "float": "REAL", "bytes": "BLOB"}
    already_there: tuple[type[Exception], ...] = (sqlite3.IntegrityError,)

    def __init__(self, path: Path, *, reading: bool = False) -> None:
        self.where = str(path)
        self._reader: SqliteDatabase | None = None
        try:
            # one connection shared by the league's threads, each use under the league's lock
            self.db = sqlite3.connect(
                f"file:{urllib.parse.quote(str(path))}?mode=ro" if reading else path,
                timeout=BUSY_MS / 1000,
                isolation_level=None,
                check_same_thread=False,
                uri=reading,
            )
            if reading:
                return
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            whole = path.stat().st_size <= WHOLE_CHECK_BYTES if path.exists() else True
            if whole:
                _quick_check(self.db, f"quick_check({CHECKED_PROBLEMS})")
            else:
                tables = self.db.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'"
                ).fetchall()
                for (table,) in tables:
                    if table not in GAME_TABLES:
                        _quick_check(self.db, f'quick_check("{table}")')
            self._check_writable()
            if not whole:
                later = threading.Timer(GAMES_CHECK_AFTER_S, _check_games, (path,))
                later.daemon, later.name = True, "league-db-check"
                later.start()
        except sqlite3.DatabaseError as error:
            self.db.close()
            raise DatabaseError(_sqlite_sentence(path, error)) from None

    def _check_writable(self) -> None:
        """SQLITE_READONLY now rather than at the first write: a write in a transaction rolled
        back (a transaction alone does not tell, in WAL mode). A write lock another process
        holds does not make the file read-only: the league waits for it when it writes."""
        self.db.execute("PRAGMA busy_timeout = 0")
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY:
                raise
        else:
            try:
                self.db.execute(f"PRAGMA user_version = {self.schema_version()}")
            finally:
                self.db.execute("ROLLBACK")
        finally:
            self.db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        return self.db.execute(sql, params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.db.executemany(sql, rows)

    def copy(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        marks = ", ".join("?" * len(columns))
        self.db.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        self.db.execute("BEGIN IMMEDIATE")  # the write lock now: no upgrade deadlock later
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def schema_version(self) -> int:
        return int(self.db.execute("PRAGMA user_version").fetchone()[0])

    def set_schema_version(self, version: int) -> None:
        self.db.execute(f"PRAGMA user_version = {int(version)}")

    def lock_for_migration(self) -> None:
        pass  # BEGIN IMMEDIATE holds the file's write lock already

    def claim(self) -> Callable[[], None] | None:
        return lock_file(Path(self.where + ".lock"))

    def reader(self) -> Database:
        if self._reader is None:
            self._reader = SqliteDatabase(Path(self.where), reading=True)
        return self._reader

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
        self.db.close()


def _quick_check(db: sqlite3.Connection, pragma: str) -> None:
    """sqlite3.DatabaseError with the first problem `PRAGMA pragma` finds, if any."""
    problems = db.execute(f"PRAGMA {pragma}").fetchall()
    if [row[0] for row in problems] != ["ok"]:
        raise sqlite3.DatabaseError(" ".join(str(problems[0][0]).split()))


def _check_games(path: Path) -> None:
    """The games' tables of the large SQLite file `path` checked on a read-only connection of
    their own; a damage is logged as an error, in the sentence an opening would give."""
    try:
        db = sqlite3.connect(f"file:{urllib.parse.quote(str(path))}?mode=ro", uri=True)
        try:
            for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
                if table in GAME_TABLES:
                    _quick_check(db, f'quick_check("{table}")')
        finally:
            db.close()
    except sqlite3.DatabaseError as error:
        log.error("%s", _sqlite_sentence(path, error))


def _sqlite_sentence(path: Path, error: sqlite3.DatabaseError) -> str:
    """What is wrong with the SQLite file `path` and what to do, in one sentence."""
    code = getattr(error, "sqlite_errorcode", sqlite3.SQLITE_CORRUPT) & 0xFF
    if code == sqlite3.SQLITE_NOTADB:
        return (
            f"{path} is not a league database this arena can use ({error}); give --db the "
            "league's own file, or move this one away to start a new league there."
        )
    if code == sqlite3.SQLITE_READONLY:
        return (
            f"The league's database {path} cannot be written ({error}); make the file and its "
            "folder writable for the user running arena serve, or copy the league to a "
            "folder that is."
        )
    if code == sqlite3.SQLITE_CANTOPEN:
        return (
            f"The league's database {path} cannot be opened ({error}); its folder must exist "
            "and be writable for the user running arena serve (SQLite keeps its -wal and -shm "
            "files beside it)."
        )
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return (
            f"The league's database {path} stayed locked by another program for "
            f"{BUSY_MS // 1000} s ({error}); stop what holds it (an sqlite3 shell in a "
            "transaction?) and start again."
        )
    if code in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_IOERR):
        saved = path.with_name(path.stem + "-recovered.sqlite")
        return (
            f"The league's database {path} is damaged ({str(error)[:200]}); restore it from a "
            f"backup, or save what it still holds with `sqlite3 {path} .recover | sqlite3 "
            f"{saved}` and start the league with --db {saved}."
        )
    return f"{path} is not a league database this arena can use ({error})."


class PostgresDatabase:
    types = {"serial": "INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", "float": "DOUBLE PRECISION", "bytes": "BYTEA"}  # fmt: skip
    MIGRATION_LOCK = 0x4D414E44  # an advisory lock: two leagues starting at once migrate in turn
    PLAY_LOCK = 0x4D414E45  # held by the one process playing the league (`claim`)

    def __init__(self, url: str, *, reading: bool = False) -> None:
        self.where = shown(url)
        self._reader: PostgresDatabase | None = None
        try:
            import psycopg
        except ImportError:
            raise DatabaseError(
                "A PostgreSQL league needs psycopg: pip install 'mandala-arena[postgresql]' "
                "(or `make install`)."
            ) from None
        self.already_there: tuple[type[Exception], ...] = (psycopg.IntegrityError,)
        self._url = url
        self._reading = reading
        self._in_transaction = False
        self.db = self._connect()
        if reading:
            return
        try:
            self.db.execute("CREATE TABLE IF NOT EXISTS arena_schema (version INTEGER NOT NULL)")
            with self.db.transaction():  # a write, undone: a read-only database is told now
                self.db.execute("UPDATE arena_schema SET version = version")
                raise psycopg.Rollback()
        except psycopg.Error as error:
            self.db.close()
            raise DatabaseError(
                f"The PostgreSQL database {self.where} cannot be written ({said(error)}); give "
                "the league's user the right to write it, on a server that is not read-only."
            ) from None

    def _connect(self) -> Any:
        import psycopg

        try:
            connection = psycopg.connect(self._url, autocommit=True, connect_timeout=10)
            connection.execute(f"SET lock_timeout = {BUSY_MS}")  # as SQLite's: never forever
            if self._reading:
                connection.execute("SET default_transaction_read_only = on")
            return connection
        except (psycopg.Error, ValueError) as error:
            reason = " ".join(str(error).split())[:300]
            raise DatabaseError(
                f"Cannot open the PostgreSQL database {self.where} ({shown(reason)}); check "
                "the URL (postgresql://USER[:PASSWORD]@HOST[:PORT]/NAME) and that the server runs."
            ) from None

    def _connection(self) -> Any:
        """The connection, made again if the server dropped it (a restart, a failover)."""
        if self.db.broken:
            self.db = self._connect()
        return self.db

    @staticmethod
    def _sql(sql: str) -> str:
        return sql.replace("?", "%s")  # the store's SQL has no literal question mark

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        """Run one statement. A read outside a transaction that finds the connection lost
        runs again on a new one; a write, or anything in a transaction, fails (it may have
        been done: the caller decides)."""
        import psycopg

        connection = self._connection()
        try:
            return connection.execute(self._sql(sql), tuple(params))  # type: ignore[no-any-return]
        except psycopg.OperationalError:
            if not connection.broken or self._in_transaction or not sql.startswith("SELECT"):
                raise
            return self._connection().execute(self._sql(sql), tuple(params))  # type: ignore[no-any-return]

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self.db.cursor() as cursor:
            cursor.executemany(self._sql(sql), rows)

    def copy(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        with (
            self.db.cursor() as cursor,
            cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copying,
        ):
            for row in rows:
                copying.write_row(row)

    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self._connection().transaction():
            self._in_transaction = True
            try:
                yield
            finally:
                self._in_transaction = False

    def schema_version(self) -> int:
        row = self.db.execute("SELECT MAX(version) FROM arena_schema").fetchone()
        return 0 if row is None or row[0] is None else int(row[0])

    def set_schema_version(self, version: int) -> None:
        self.db.execute("DELETE FROM arena_schema")
        self.db.execute("INSERT INTO arena_schema (version) VALUES (%s)", (int(version),))

    def lock_for_migration(self) -> None:
        self.db.execute("SELECT pg_advisory_xact_lock(%s)", (self.MIGRATION_LOCK,))

    def claim(self) -> Callable[[], None] | None:
        holder = self._connect()  # a connection of its own: the lock lives as long as it
        if not holder.execute("SELECT pg_try_advisory_lock(%s)", (self.PLAY_LOCK,)).fetchone()[0]:
            holder.close()
            return None
        return holder.close  # type: ignore[no-any-return]

    def reader(self) -> Database:
        if self._reader is None:
            self._reader = PostgresDatabase(self._url, reading=True)
        return self._reader

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
        self.db.close()
