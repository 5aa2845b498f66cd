"""The league's database schema, one step per version: `MIGRATIONS[n]` takes a database
from version n to n + 1 (arena/league/store.py runs the steps a database has not had)."""

from __future__ import annotations

from collections.abc import Sequence

MIGRATIONS: Sequence[str] = (
    """
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE authors (
        id {serial},
        name TEXT NOT NULL UNIQUE,
        token_hash TEXT NOT NULL UNIQUE,
        admin INTEGER NOT NULL DEFAULT 0,
        created {float} NOT NULL
    );
    CREATE TABLE bots (
        id {serial},
        name TEXT NOT NULL,
        version INTEGER NOT NULL,
        author_id INTEGER NOT NULL REFERENCES authors(id),
        folder TEXT NOT NULL,
        status TEXT NOT NULL,
        message TEXT NOT NULL DEFAULT '',
        created {float} NOT NULL,
        UNIQUE (name, version)
    );
    CREATE TABLE games (
        id {serial},
        game_id TEXT NOT NULL UNIQUE,
        line TEXT NOT NULL,
        created {float} NOT NULL
    );
    CREATE TABLE game_bots (
        game INTEGER NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL,
        bot TEXT NOT NULL,
        PRIMARY KEY (game, seat)
    );
    CREATE INDEX game_bots_by_bot ON game_bots (bot);
    """,
    """
    CREATE TABLE invites (
        id {serial},
        code_hash TEXT NOT NULL UNIQUE,
        created {float} NOT NULL,
        expires {float} NOT NULL,
        used_by INTEGER REFERENCES authors(id)
    );
    """,
    """
    ALTER TABLE authors ADD COLUMN name_key TEXT;
    UPDATE authors SET name_key = lower(name)
        WHERE id IN (SELECT MIN(id) FROM authors GROUP BY lower(name));
    CREATE UNIQUE INDEX authors_by_key ON authors (name_key);
    ALTER TABLE bots ADD COLUMN name_key TEXT;
    UPDATE bots SET name_key = lower(name) WHERE name IN (
        SELECT name FROM bots WHERE id IN (SELECT MIN(id) FROM bots GROUP BY lower(name))
    );
    CREATE UNIQUE INDEX bots_by_key ON bots (name_key, version);
    """,
    """
    ALTER TABLE bots ADD COLUMN source_hash TEXT;
    """,
    """
    ALTER TABLE authors ADD COLUMN revoked {float};
    CREATE TABLE audit (
        id {serial},
        at {float} NOT NULL,
        who TEXT NOT NULL,
        what TEXT NOT NULL
    );
    """,
)
"""The schema, one step per version (version 0 is an empty database); `{serial}` and
`{float}` are the dialect's words (database.py). Step 3 keys names (`names.name_key`) so
that two differing only in case or Unicode form cannot both be stored, even by two
processes at once: the names an older arena stored are ASCII, whose key is `lower`; of
names it let in twice so (`Greedy` beside `greedy`), the first keeps the key and the
others none (they stay, but no new name or version can take theirs). Step 4 keeps each
version's source hash (`bot_files.bot_hash`, before its build): an upload identical to an
earlier version is refused; versions stored before it have none (never called identical).
Step 5 marks an author whose token the admin revoked (when; `revoke`, `reissue`) and keeps
the audit log of admin actions (audit.py)."""
