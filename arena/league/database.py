"""The two databases a league can keep its store in, behind one small interface.

SQLite (a file: one `league.sqlite`, WAL mode so readers never wait for the writer) is the
default; PostgreSQL (`--db postgresql://USER@HOST/NAME`, through psycopg) is for a league
whose database lives on a server. The store (arena/league/store.py) writes its SQL once, in
the part both speak: `?` placeholders (turned into psycopg's `%s` here), `ON CONFLICT`,
`RETURNING`, and two type names that differ, `{serial}` and `{float}`, filled in per
dialect in the schema. What differs otherwise lives here: connecting, transactions, the
schema's version number, and which errors mean "already there".
"""

from __future__ import annotations

import fcntl
import re
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

from arena.errors import ArenaError

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
_PASSWORD = re.compile(r"(://[^:/@]*):[^@/]*@")
_PASSWORD_PARAMETER = re.compile(r"(password=)[^&\s\"']*", re.IGNORECASE)


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
    """The dialect's words for `{serial}` (an id assigned on insert) and `{float}`."""
    already_there: tuple[type[Exception], ...]
    """The errors a unique constraint raises."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Rows: ...

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

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


def is_postgres(where: str) -> bool:
    return where.startswith(POSTGRES_SCHEMES)


def open_database(where: str | Path) -> Database:
    """The database at `where`: a `postgresql://` URL, else the path of a SQLite file."""
    if isinstance(where, str) and is_postgres(where):
        return PostgresDatabase(where)
    return SqliteDatabase(Path(where))


class SqliteDatabase:
    types = {"serial": "INTEGER PRIMARY KEY", "float": "REAL"}
    already_there: tuple[type[Exception], ...] = (sqlite3.IntegrityError,)

    def __init__(self, path: Path) -> None:
        self.where = str(path)
        try:
            # one connection shared by the league's threads, each use under the league's lock
            self.db = sqlite3.connect(
                path, timeout=30, isolation_level=None, check_same_thread=False
            )
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA foreign_keys=ON")
        except sqlite3.DatabaseError as error:
            raise DatabaseError(
                f"{path} is not a league database this arena can use ({error})."
            ) from None

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        return self.db.execute(sql, params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.db.executemany(sql, rows)

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

    def close(self) -> None:
        self.db.close()


class PostgresDatabase:
    types = {"serial": "INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", "float": "DOUBLE PRECISION"}  # fmt: skip
    MIGRATION_LOCK = 0x4D414E44  # an advisory lock: two leagues starting at once migrate in turn
    PLAY_LOCK = 0x4D414E45  # held by the one process playing the league (`claim`)

    def __init__(self, url: str) -> None:
        self.where = shown(url)
        try:
            import psycopg
        except ImportError:
            raise DatabaseError(
                "A PostgreSQL league needs psycopg: pip install 'mandala-arena[postgresql]' "
                "(or `make install`)."
            ) from None
        self.already_there: tuple[type[Exception], ...] = (psycopg.IntegrityError,)
        self._url = url
        self._in_transaction = False
        self.db = self._connect()
        self.db.execute("CREATE TABLE IF NOT EXISTS arena_schema (version INTEGER NOT NULL)")

    def _connect(self) -> Any:
        import psycopg

        try:
            return psycopg.connect(self._url, autocommit=True, connect_timeout=10)
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

    def close(self) -> None:
        self.db.close()
