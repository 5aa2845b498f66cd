"""The league's audit log: a line per admin action, who did what and when.

Kept in the league's database beside its authors and bots (the `audit` table, schema step
5 of store.py), so it lives wherever the league's store does, SQLite or PostgreSQL alike,
is backed up with it, and is written in the same transaction as the act it tells of. It is
append-only (no line is ever changed) and bounded: each line's words are cut to
`MAX_WHAT_CHARS`, and only the latest `KEEP` lines are kept, older ones dropped as new
ones come. The admin reads it with `arena serve --audit` or `GET /api/audit`.

Who: an admin's author name for an act over the API, `console (user NAME)` for one at
the machine's command line (`arena serve --add-author`, `--invite`, `--revoke`,
`--reissue`), whose user is the system's.
"""

from __future__ import annotations

import getpass
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from arena.league.database import Database

KEEP = 10_000
"""The most lines kept; older ones are dropped as new ones are written."""
MAX_WHO_CHARS = 80
MAX_WHAT_CHARS = 300
SHOWN = 1_000
"""The most lines `GET /api/audit` answers with (the newest)."""


@dataclass(frozen=True)
class AuditLine:
    at: float
    """When, in seconds since the epoch."""
    who: str
    what: str

    def to_json(self) -> dict[str, Any]:
        return {"at": when(self.at), "who": self.who, "what": self.what}

    def __str__(self) -> str:
        return f"{when(self.at)} {self.who}: {self.what}"


def when(at: float) -> str:
    """A moment as ISO 8601 in UTC, to the second: `2026-11-28T08:07:49Z`."""
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def console() -> str:
    """Who acts at the machine's command line: `console (user NAME)`."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no name for this uid (a bare container)
        user = "unknown"
    return f"console (user {user})"


def _plain(text: str, cap: int) -> str:
    """`text` on one line of printable characters, at most `cap` of them."""
    flat = "".join(c if c.isprintable() else " " for c in text)
    return flat if len(flat) <= cap else flat[: cap - 1] + "…"


def append(db: Database, who: str, what: str) -> None:
    """Write a line (call it inside the transaction of the act it tells of) and drop the
    lines beyond the latest `KEEP`."""
    rows = db.execute(
        "INSERT INTO audit (at, who, what) VALUES (?, ?, ?) RETURNING id",
        (time.time(), _plain(who, MAX_WHO_CHARS), _plain(what, MAX_WHAT_CHARS)),
    ).fetchall()  # fetchall: SQLite keeps a statement open until read out
    db.execute("DELETE FROM audit WHERE id <= ?", (int(rows[0][0]) - KEEP,))


def lines(db: Database, newest: int = KEEP) -> list[AuditLine]:
    """The latest `newest` lines, oldest first."""
    rows = db.execute(
        "SELECT at, who, what FROM audit ORDER BY id DESC LIMIT ?", (newest,)
    ).fetchall()
    return [AuditLine(float(at), str(who), str(what)) for at, who, what in reversed(rows)]
