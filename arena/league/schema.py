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
    """
    CREATE TABLE bot_state (
        bot TEXT PRIMARY KEY,
        tally TEXT NOT NULL,
        mu {float},
        sigma {float},
        stride INTEGER NOT NULL,
        trail {bytes} NOT NULL
    );
    CREATE TABLE pair_state (
        first TEXT NOT NULL,
        second TEXT NOT NULL,
        ahead INTEGER NOT NULL,
        level INTEGER NOT NULL,
        behind INTEGER NOT NULL,
        odd_strata TEXT NOT NULL,
        tables INTEGER NOT NULL,
        games INTEGER NOT NULL,
        points {float} NOT NULL,
        points2 {float} NOT NULL,
        games2 {float} NOT NULL,
        points_games {float} NOT NULL,
        first_points {float} NOT NULL,
        second_points {float} NOT NULL,
        first_games {float} NOT NULL,
        second_games {float} NOT NULL,
        strata_1_0 INTEGER NOT NULL,
        strata_1_1 INTEGER NOT NULL,
        strata_1_2 INTEGER NOT NULL,
        strata_2_0 INTEGER NOT NULL,
        strata_2_1 INTEGER NOT NULL,
        strata_2_2 INTEGER NOT NULL,
        strata_2_3 INTEGER NOT NULL,
        strata_2_4 INTEGER NOT NULL,
        PRIMARY KEY (first, second)
    );
    CREATE TABLE candidate_state (
        candidate TEXT NOT NULL,
        previous TEXT NOT NULL,
        state TEXT NOT NULL,
        PRIMARY KEY (candidate, previous)
    );
    """,
    """
    CREATE INDEX game_bots_by_bot_game ON game_bots (bot, game);
    DROP INDEX game_bots_by_bot;
    """,
    """
    CREATE TABLE pair_snapshot (
        part TEXT PRIMARY KEY,
        data {bytes} NOT NULL
    );
    """,
)
"""The schema, one step per version (version 0 is an empty database); `{serial}` and
`{float}` (and `{bytes}`) are the dialect's words (database.py). Step 3 keys names (`names.name_key`) so
that two differing only in case or Unicode form cannot both be stored, even by two
processes at once: the names an older arena stored are ASCII, whose key is `lower`; of
names it let in twice so (`Greedy` beside `greedy`), the first keeps the key and the
others none (they stay, but no new name or version can take theirs). Step 4 keeps each
version's source hash (`bot_files.bot_hash`, before its build): an upload identical to an
earlier version is refused; versions stored before it have none (never called identical).
Step 5 marks an author whose token the admin revoked (when; `revoke`, `reissue`) and keeps
the audit log of admin actions (audit.py).

Step 6 keeps what the league serves, updated in the transaction that stores each game, so a
restart reads it instead of the games (arena/league/league_state.py): each bot's tallies
(`bot_state.tally`, JSON: a dozen figures and a few small counts by place, failure kind and
table value, read and written whole), its TrueSkill and its thinned rating history (`trail`:
its points' games, mu and sigma as little-endian doubles, and their `stride`; written only
when a point is kept, as bytes: no float is formatted); each pair of bots that met (`pair_state`, first <
second by label), in columns, since there are up to a pair per two bots (500,000 at 1,000
bots) read in bulk at a start and summed by the order-free fit: the first's results against
the second, its tables of two seats by value (`strata_G_P`: of G games, P points counted
twice; `odd_strata`, JSON, any other: rare), and the per-table sums the fit needs; each candidate's SPRT (`candidate_state`, JSON). A league
whose games were stored before step 6 has its state built from them once, at its next start.
Step 7 indexes each bot's games in the order stored, so a page of them is read by the index
(newest first, with LIMIT), never by scanning every game.
Step 8 keeps a snapshot of the pairs' flat arrays (`pair_snapshot`: a part a column, as
little-endian bytes; pair_tallies.PairTallies.parts), written when the league stops playing
and stamped with the games it counts: a league reopened with that many games reads it in
one go rather than `pair_state` row by row (league_state.py)."""
