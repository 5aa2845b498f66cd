"""The league's games in its store (store.py's `Store` holds these methods): each stored once
under its game id, with its games-log line (`GameLine.to_json`, compact) and each seat's bot
(`game_bots`, indexed by bot in the order stored: schema step 7), read a page or a batch at
a time, never all at once but in tests and small leagues.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence

from arena import compact_json
from arena.league.database import Database
from arena.results.log import GameLine

_IN_LIST = 500
"""Game ids asked at once whether they are stored (`insert_games`)."""


def game_text(line: GameLine) -> str:
    """A game as stored: its games-log line's JSON object, compact (orjson)."""
    return compact_json.dumps(line.to_json())


class StoredGames:
    """The games' part of the store (`db`: its connection)."""

    db: Database

    def record_game(self, line: GameLine) -> bool:
        """Store a finished game once, in a transaction of its own; False when its game id
        was stored already."""
        with self.db.transaction():
            return self.insert_game(line)

    def insert_game(self, line: GameLine) -> bool:
        """`record_game` inside the caller's transaction."""
        return bool(self.insert_games([line]))

    def insert_games(self, lines: Sequence[GameLine]) -> list[GameLine]:
        """Store finished games once each, inside the caller's transaction (League.record:
        with the state they change), a statement for all of them; those that were new, in
        the order given. One process writes a league's games (League.start)."""
        db = self.db
        known: set[str] = set()
        ids = [line.game_id for line in lines]
        for at in range(0, len(ids), _IN_LIST):
            chunk = ids[at : at + _IN_LIST]
            marks = ", ".join("?" * len(chunk))
            rows = db.execute(f"SELECT game_id FROM games WHERE game_id IN ({marks})", chunk)
            known.update(str(row[0]) for row in rows.fetchall())
        new = []
        for line in lines:
            if line.game_id not in known:
                known.add(line.game_id)
                new.append(line)
        if new:
            now = time.time()
            db.executemany(
                "INSERT INTO games (game_id, line, created) VALUES (?, ?, ?)",
                [(line.game_id, game_text(line), now) for line in new],
            )
            db.executemany(
                "INSERT INTO game_bots (game, seat, bot) SELECT id, ?, ? FROM games "
                "WHERE game_id = ?",
                [
                    (seat, bot, line.game_id)
                    for line in new
                    for seat, bot in enumerate(line.players)
                ],
            )
        return new

    def insert_new_games(self, lines: Sequence[GameLine]) -> None:
        """Store games none of which is stored yet, in bulk, inside the caller's transaction
        (the synthetic bench's growth: `League.record(..., new=True)`): COPY on PostgreSQL,
        executemany on SQLite, no lookup of each game id first; a game id stored already
        fails the whole transaction (the games' ids are unique)."""
        db, now = self.db, time.time()
        last = self.last_game()
        db.copy("games", ("game_id", "line", "created"),
                [(line.game_id, game_text(line), now) for line in lines])  # fmt: skip
        number = {
            str(game_id): int(game)
            for game, game_id in db.execute(
                "SELECT id, game_id FROM games WHERE id > ?", (last,)
            ).fetchall()
        }
        db.copy(
            "game_bots",
            ("game", "seat", "bot"),
            [
                (number[line.game_id], seat, bot)
                for line in lines
                for seat, bot in enumerate(line.players)
            ],
        )

    def bot_games(self, bot: str, offset: int = 0, limit: int = 50) -> list[GameLine]:
        """Bot `bot`'s games newest first, `limit` from `offset` (by the index of schema 7:
        never a scan of every game)."""
        rows = self.db.execute(
            "SELECT g.line FROM game_bots p JOIN games g ON g.id = p.game WHERE p.bot = ? "
            "ORDER BY p.game DESC LIMIT ? OFFSET ?",
            (bot, limit, offset),
        ).fetchall()
        return [GameLine.from_json(json.loads(row[0])) for row in rows]

    def games_after(self, last: int, limit: int) -> list[tuple[int, GameLine]]:
        """The games stored after the one numbered `last` (0: from the first), at most
        `limit`, in the order stored, with their numbers: every game read a batch at a time."""
        rows = self.db.execute(
            "SELECT id, line FROM games WHERE id > ? ORDER BY id LIMIT ?", (last, limit)
        ).fetchall()
        return [(int(row[0]), GameLine.from_json(json.loads(row[1]))) for row in rows]

    def last_game(self) -> int:
        """The number of the game stored last (0: none yet), for `games_after`."""
        return int(self.db.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0])

    def games(self, bot: str | None = None) -> list[GameLine]:
        """Every game (of one bot label), in the order they were recorded: for tests and
        small leagues; the league reads them a page or a batch at a time (`bot_games`,
        `games_after`)."""
        if bot is None:
            rows = self.db.execute("SELECT line FROM games ORDER BY id").fetchall()
        else:
            rows = self.db.execute(
                "SELECT g.line FROM games g JOIN game_bots p ON p.game = g.id "
                "WHERE p.bot = ? ORDER BY g.id",
                (bot,),
            ).fetchall()
        return [GameLine.from_json(json.loads(row[0])) for row in rows]

    def game_count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def games_per_bot(self) -> dict[str, int]:
        rows = self.db.execute("SELECT bot, COUNT(*) FROM game_bots GROUP BY bot").fetchall()
        return {str(bot): int(count) for bot, count in rows}
