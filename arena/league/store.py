"""The league's database: authors, bots and their versions, games recorded once.

SQLite by default (one file, WAL mode: readers never wait for the writer), or PostgreSQL,
both through arena/league/database.py, which the SQL here is written for once. The schema
is versioned (schema.py): `MIGRATIONS[n]` takes a database from version n to n + 1, and opening a
database runs the ones it has not had, in one transaction each, so an old league file
opens in a new arena. A game is stored with its games-log line (`GameLine.to_json`) under
its game id, which is unique: recording a game twice is a no-op, so a league killed at any
moment and restarted neither loses a finished game nor counts one twice (the games' reads
and writes are in stored_games.py).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

from arena.errors import ArenaError
from arena.league import accounts
from arena.league import audit as audit_log
from arena.league.database import Database, DatabaseError, open_database
from arena.league.schema import MIGRATIONS
from arena.league.stored_games import StoredGames
from arena.names import name_key, name_problem

STATUSES = ("building", "checking", "active", "failed", "retired", "removed")
"""A bot version's life: built, checked by conformance games, then playing, or failed; an
active bot can be retired (kept on the leaderboard with its games, but no longer matched)
and a retired one made active again by the admin (unretired), any checked one removed (off
the leaderboards and lists; its games stay for the others)."""


CUT_SHORT = "the league stopped during its check; submit it again"
"""The message of a version whose check a stopped league cut short: submitting the same
sources again is no "no change" (the check was never the bot's)."""


class StoreError(ArenaError):
    """A league database that cannot be used, or a request it refuses; one sentence."""


@dataclass(frozen=True)
class Author:
    id: int
    name: str
    admin: bool


@dataclass(frozen=True)
class Bot:
    id: int
    name: str
    version: int
    author: str
    folder: str
    """Its folder, relative to the league's folder."""
    status: str
    message: str

    @property
    def label(self) -> str:
        """The name the league plays it under: `name` for version 1, else `name.vN` (a
        bot name, as bot.toml allows)."""
        return label(self.name, self.version)


_VERSIONED = re.compile(r"\.v[0-9]+\Z", re.IGNORECASE)


def label(name: str, version: int) -> str:
    """The name a bot version plays under: `name` for version 1, else `name.vN`."""
    return name if version == 1 else f"{name}.v{version}"


class Store(StoredGames):
    """One league database: a SQLite file's path (created if missing) or a
    `postgresql://` URL (database.py)."""

    def __init__(self, where: str | Path, *, db: Database | None = None) -> None:
        """`db`: a connection to `where` already open (a `Database.reader`), used as it is."""
        if db is not None:
            self.db, self.where = db, db.where
            return
        try:
            self.db = open_database(where)
        except DatabaseError as error:
            raise StoreError(str(error)) from None
        self.where = self.db.where
        try:
            self._migrate()
        except StoreError:
            self.db.close()
            raise
        except Exception as error:  # sqlite3 or psycopg: a database that is not ours
            self.db.close()
            raise StoreError(
                f"{self.where} is not a league database this arena can use ({error})."
            ) from None

    def close(self) -> None:
        self.db.close()

    @property
    def version(self) -> int:
        return self.db.schema_version()

    def _migrate(self) -> None:
        if self.version > len(MIGRATIONS):
            raise StoreError(
                f"{self.where} was made by a newer arena (schema {self.version}); upgrade."
            )
        for number in range(self.version, len(MIGRATIONS)):
            with self.db.transaction():
                self.db.lock_for_migration()
                if self.db.schema_version() != number:  # another league migrated it first
                    continue
                for statement in MIGRATIONS[number].format(**self.db.types).split(";"):
                    if statement.strip():
                        self.db.execute(statement)
                self.db.set_schema_version(number + 1)

    # --- settings ---

    def setting(self, key: str, default: str = "") -> str:
        row = self.db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return default if row is None else str(row[0])

    def set_setting(self, key: str, value: str) -> None:
        self.db.execute(
            "INSERT INTO settings (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    # --- authors ---

    def add_author(self, name: str, admin: bool = False, *, who: str | None = None) -> str:
        """A new author; returns their token (shown once: only its hash is kept). `who`:
        the admin who made them, for the audit log (None: not logged: tests, the bench)."""
        with self.db.transaction():
            token = self._insert_author(name, admin)[1]
            if who is not None:
                self.audit(who, f"added author {name}" + (" (admin)" if admin else ""))
        return token

    def _insert_author(self, name: str, admin: bool) -> tuple[int, str]:
        """A new author's id and token; one sentence for a bad or taken name (taken: the
        same but for case or Unicode form, `names.name_key`; the unique key is the check
        against another process making it meanwhile)."""
        accounts.author_name(name)
        key = name_key(name)
        taken = self.db.execute("SELECT name FROM authors WHERE name_key = ?", (key,)).fetchone()
        token = accounts.new_token()
        try:
            if taken is None:
                rows = self.db.execute(
                    "INSERT INTO authors (name, name_key, token_hash, admin, created) "
                    "VALUES (?, ?, ?, ?, ?) RETURNING id",
                    (name, key, accounts.token_hash(token), int(admin), time.time()),
                ).fetchall()
                return int(rows[0][0]), token
        except self.db.already_there:
            taken = (name,)
        raise StoreError(f"There is already an author called {taken[0]}; choose another name.")

    def author_of(self, token: str) -> Author | None:
        """The author whose token this is, or None."""
        try:
            digest = accounts.token_hash(token)
        except accounts.AccountError:
            return None
        row = self.db.execute(
            "SELECT id, name, admin, token_hash FROM authors "
            "WHERE token_hash = ? AND revoked IS NULL",
            (digest,),
        ).fetchone()
        if row is None or not accounts.same_token(token, row[3]):
            return None
        return Author(int(row[0]), str(row[1]), bool(row[2]))

    def revoke(self, name: str, who: str) -> Author:
        """The author `name`'s token made to stop working at once (its hash replaced by a
        mark no token hashes to, the moment kept); their bots and games stay as they are.
        `who`: the admin, for the audit log."""
        with self.db.transaction():
            author = self._author_named(name)
            self.db.execute(
                "UPDATE authors SET token_hash = ?, revoked = ? WHERE id = ?",
                (accounts.revoked_mark(), time.time(), author.id),
            )
            self.audit(who, f"revoked {author.name}'s token")
        return author

    def reissue(self, name: str, who: str) -> tuple[Author, str]:
        """The author `name` and a new token of theirs (shown once: only its hash is kept);
        the old one, or a revocation, ends. `who`: the admin, for the audit log."""
        token = accounts.new_token()
        with self.db.transaction():
            author = self._author_named(name)
            self.db.execute(
                "UPDATE authors SET token_hash = ?, revoked = NULL WHERE id = ?",
                (accounts.token_hash(token), author.id),
            )
            self.audit(who, f"reissued {author.name}'s token")
        return author, token

    def _author_named(self, name: str) -> Author:
        """The author called `name` (whatever its case); one sentence when there is none."""
        accounts.author_name(name)
        row = self.db.execute(
            "SELECT id, name, admin FROM authors WHERE name_key = ?", (name_key(name),)
        ).fetchone()
        if row is None:
            raise StoreError(
                f"There is no author called {name} in this league; check the name "
                "(`arena serve --audit` lists who was added)."
            )
        return Author(int(row[0]), str(row[1]), bool(row[2]))

    def add_invite(self, days: float = accounts.INVITE_DAYS, *, who: str | None = None) -> str:
        """A new invite code, good for one author within `days` (shown once: only its hash
        is kept). `who`: the admin who made it, for the audit log (None: not logged)."""
        code = accounts.new_invite()
        now = time.time()
        with self.db.transaction():
            self.db.execute(
                "INSERT INTO invites (code_hash, created, expires) VALUES (?, ?, ?)",
                (accounts.token_hash(code), now, now + days * 86400.0),
            )
            if who is not None:
                self.audit(who, "made an invite link")
        return code

    # --- the audit log (audit.py) ---

    def audit(self, who: str, what: str) -> None:
        """A line in the audit log: `who` did `what`, now. Call it inside the act's own
        transaction (`self.db.transaction()`)."""
        audit_log.append(self.db, who, what)

    def audit_lines(self, newest: int = audit_log.KEEP) -> list[audit_log.AuditLine]:
        """The audit log's latest `newest` lines, oldest first."""
        return audit_log.lines(self.db, newest)

    def join(self, code: str, name: str) -> str:
        """The author `name` made with an invite code, which is then used up; their token.
        A code unknown, used or expired, or a name taken, is one sentence (and a name taken
        leaves the code unused)."""
        accounts.author_name(name)
        refused = StoreError(
            "That invite is not valid (mistyped, used or expired); ask the league's admin "
            "for another."
        )
        try:
            digest = accounts.token_hash(code)
        except accounts.AccountError:
            raise refused from None
        with self.db.transaction():
            author, token = self._insert_author(name, admin=False)
            # used up in the same statement that checks it: two joins racing with one code
            # cannot both succeed (the loser's author is rolled back with its transaction)
            used = self.db.execute(
                "UPDATE invites SET used_by = ? WHERE code_hash = ? AND used_by IS NULL "
                "AND expires > ? RETURNING code_hash",
                (author, digest, time.time()),
            ).fetchall()
            if not used or not accounts.same_token(code, used[0][0]):
                raise refused
        return token

    # --- bots ---

    def add_bot(self, name: str, author: Author, source_hash: str | None = None) -> Bot:
        """A new version of bot `name` (version 1 if new), status `building`, its folder
        `bots/<label>` (in the league's folder). Only its author may add versions. The name
        follows the one rule (arena/names.py) and is unique by its key: `Greedy` beside
        `greedy` is refused. `source_hash` (`bot_files.bot_hash`) the same as an earlier
        version's is refused: "no change since v2"."""
        problem = name_problem(name, "A bot's name")
        if problem is not None:
            raise StoreError(problem)
        if _VERSIONED.search(name):
            raise StoreError(
                f"A bot's name may not end in .v and a number ({name}): the league names "
                "versions so; rename it in its bot.toml."
            )
        key = name_key(name)
        db = self.db
        with db.transaction():
            known = db.execute(
                "SELECT b.name, a.name FROM bots b JOIN authors a ON a.id = b.author_id "
                "WHERE b.name_key = ? LIMIT 1",
                (key,),
            ).fetchone()
            if known is not None and known[0] != name:
                raise StoreError(
                    f"There is already a bot {known[0]}; a name differing only in case is the "
                    "same name, so choose another in your bot.toml."
                )
            if known is not None and known[1] != author.name:
                raise StoreError(f"The bot {name} belongs to {known[1]}; choose another name.")
            same = None
            if source_hash is not None:  # only a version with its hash stored (schema 4)
                same = db.execute(
                    "SELECT version, status FROM bots WHERE name_key = ? AND source_hash = ? "
                    "AND NOT (status = 'failed' AND message = ?) ORDER BY version DESC LIMIT 1",
                    (key, source_hash, CUT_SHORT),
                ).fetchone()
            if same is not None:
                raise StoreError(
                    f"No change since v{same[0]}: these sources are those of "
                    f"{label(name, same[0])} ({same[1]}); change the bot before submitting it."
                )
            version = db.execute(
                "SELECT COALESCE(MAX(version), 0) + 1 FROM bots WHERE name_key = ?", (key,)
            ).fetchone()[0]
            folder = f"bots/{label(name, version)}"
            try:
                bot_id = db.execute(
                    "INSERT INTO bots (name, name_key, version, author_id, folder, status, "
                    "created, source_hash) VALUES (?, ?, ?, ?, ?, 'building', ?, ?) RETURNING id",
                    (name, key, version, author.id, folder, time.time(), source_hash),
                ).fetchall()[0][0]  # fetchall: SQLite keeps a statement open until read out
            except db.already_there:
                raise StoreError(
                    f"Another version of {name} was stored at the same moment; submit again."
                ) from None
        bot = self.bot_by_id(int(bot_id))
        assert bot is not None
        return bot

    _BOT_COLUMNS = (
        "SELECT b.id, b.name, b.version, a.name, b.folder, b.status, b.message "
        "FROM bots b JOIN authors a ON a.id = b.author_id "
    )

    def bot_by_id(self, bot_id: int) -> Bot | None:
        row = self.db.execute(self._BOT_COLUMNS + "WHERE b.id = ?", (bot_id,)).fetchone()
        return None if row is None else Bot(*row)

    def bots(self, status: str | None = None) -> list[Bot]:
        """Every bot version (of one status), oldest first."""
        if status is None:
            rows = self.db.execute(self._BOT_COLUMNS + "ORDER BY b.id").fetchall()
        else:
            rows = self.db.execute(
                self._BOT_COLUMNS + "WHERE b.status = ? ORDER BY b.id", (status,)
            ).fetchall()
        return [Bot(*row) for row in rows]

    def bot(self, label: str) -> Bot | None:
        """The bot version played under `label` (`name` or `name.vN`)."""
        return next((bot for bot in self.bots() if bot.label == label), None)

    def set_status(self, bot: Bot, status: str, message: str = "") -> Bot:
        if status not in STATUSES:
            raise StoreError(f"{status!r} is not a bot status ({', '.join(STATUSES)}).")
        self.db.execute(
            "UPDATE bots SET status = ?, message = ? WHERE id = ?", (status, message, bot.id)
        )
        updated = self.bot_by_id(bot.id)
        assert updated is not None
        return updated
