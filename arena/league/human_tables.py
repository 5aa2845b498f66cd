"""The league's human tables (issue 36): a signed-in author plays a league bot in the browser.

Where a table runs: in the league server's process, each in a thread of its own, at most
`MAX_TABLES` at once and one per author. The bot is launched in its sandbox exactly as the
league's workers launch it for a rated table (the version its check already built, the
league's `Limits` with the league's folder hidden: step 5 of arena/players/ready.py); the
human's seat is arena/human's `HumanSeat` on a `Desk` that the league's HTTP routes
(arena/league/routes/human.py) feed instead of `arena play`'s own server. A relay to the
league's worker processes would put a person's minutes-long decisions on a worker slot
meant for bot games; a thread here costs no worker and is bounded by the caps below.

Not rated: a human game never enters the league's store, ratings or standings. Its record is
an ordinary game record (gzip JSON, `arena replay`/`arena report` read it) kept in
`human/records/` of the league's folder with one line per game in `human/games.jsonl`, the
latest `KEPT_GAMES` of them (the oldest go first: a visitor never costs unbounded disk).

Only the clock decides a seat's loss: a page that stops asking for news (a frozen or closed
tab) may come back with its key until the decision's clock runs out; then the human loses with
that reason (the seat's fault, as a bot's timeout) and the author's slot is free. A human who
wants to stop resigns from the page (the same, at once). A table lasts at most `TABLE_S` in
all: past it, the human loses with that reason as the table is stopped (issue 42). When the
league stops, every table playing ends at once with that reason (its bots' processes closed;
`League.close` waits STOP_S for them). A finished table stays in memory `KEPT_S` seconds (its
page shows the outcome), then only its record remains.
"""

from __future__ import annotations

import hmac
import json
import logging
import secrets
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.execution import record_bytes, write_record
from arena.human.desk import Desk
from arena.human.game import HumanClock, HumanTable, play_at_desk, table_desk
from arena.human.seat import HUMAN
from arena.league import public
from arena.league.league import League
from arena.league.store import Bot

log = logging.getLogger(__name__)

MAX_TABLES = 2
"""Human tables playing at once, in the whole league."""
KEPT_GAMES = 500
"""Human games whose records the league keeps (the oldest go first)."""
KEPT_S = 600.0
"""A finished table's desk is kept this long, for its page to show the outcome."""
CLOCK = HumanClock(move_s=300.0, open_s=60.0, gone_s=20.0, linger_s=0.0)
"""The human seat's times in the league: five minutes a decision (a silent page loses when
it runs out)."""
TABLE_S = 2700.0
"""A human table's whole length, from its start (the page's opening included): 45 minutes,
time for a slow game of Takenoko. Then the table is stopped and the human loses (the bot's
turn under way ends first, within the league's time per move); two authors cannot keep the
league's tables for hours."""
STOP_S = 3.0
"""When the league stops, its tables get this long to end (their bots' processes closed)."""
FOLDER = "human"
INDEX = "games.jsonl"


class Refused(ArenaError):
    """A human table that cannot be started now; `status` is the HTTP status to answer."""

    def __init__(self, status: int, sentence: str) -> None:
        super().__init__(sentence)
        self.status = status


@dataclass
class HumanGame:
    """One human table: its id, who plays it, the seat's key (the page's, never the token)."""

    game_id: str
    author: str
    bot: str
    key: str
    desk: Desk
    finished: float | None = None
    """When it finished (monotonic), else None while it plays."""
    summary: dict[str, Any] = field(default_factory=dict)
    thread: threading.Thread | None = None
    """The thread playing it."""

    def key_ok(self, given: str) -> bool:
        return hmac.compare_digest(given.encode(), self.key.encode())


class HumanTables:
    """The league's human tables: started, looked up by id, recorded, bounded."""

    def __init__(
        self, league: League, clock: HumanClock | None = None, tables: int | None = None
    ) -> None:
        self.league = league
        self.clock = clock or CLOCK
        self.tables = tables or MAX_TABLES
        self.folder = league.folder / FOLDER
        (self.folder / "records").mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._games: dict[str, HumanGame] = {}
        self._next = 1 + max((_number(line["game_id"]) for line in self.games()), default=0)
        stopper = threading.Thread(target=self._stop_with_league, daemon=True, name="human-stop")
        stopper.start()
        league.threads.append(stopper)  # League.close waits for it: the tables ended

    def start(self, author: str, bot: Bot) -> HumanGame:
        """A new table: the author's human seat (0) and `bot` at every other seat; Refused
        with one sentence when the author plays already or the league's tables are full."""
        if self.league.stop.is_set():
            raise Refused(503, "The league is stopping; try again once it is back.")
        with self._lock:
            self._forget_old()
            playing = [game for game in self._games.values() if game.finished is None]
            mine = [game.game_id for game in playing if game.author == author]
            if mine:
                raise Refused(409, f"You are playing game {mine[0]} already: one game at a time "
                              "(finish it, or resign it from its page).")  # fmt: skip
            if len(playing) >= self.tables:
                raise Refused(503, f"The league seats at most {self.tables} human games at once "
                              "and all are taken; try again in a few minutes.")  # fmt: skip
            try:
                manifest = self.league.manifest(bot)
            except ArenaError:  # its folder gone or damaged since its check
                raise Refused(409, f"{bot.label} cannot be started now; try another bot.") from None
            game_id = f"H{self._next:07d}"
            self._next += 1
            seats: list[Any] = [f"{HUMAN}:{author}"] + [manifest] * (self.league.seats - 1)
            table = HumanTable(
                seats, self.league.game, dict(self.league.game_options),
                seed=secrets.randbelow(1 << 62), clock=self.clock,
                limits=self.league.limits.hiding(self.league.folder),
            )  # fmt: skip
            game = HumanGame(
                game_id, author, bot.label, secrets.token_urlsafe(24), table_desk(table)
            )
            self._games[game_id] = game
        game.thread = threading.Thread(
            target=self._play, args=(game, table), daemon=True, name=f"human-{game_id}"
        )
        game.thread.start()
        return game

    def game(self, game_id: str) -> HumanGame | None:
        """The table `game_id` while it plays or was finished lately."""
        with self._lock:
            self._forget_old()
            return self._games.get(game_id)

    def record_path(self, game_id: str) -> Path:
        return self.folder / "records" / f"{game_id}.json.gz"

    def games(self, bot: str | None = None) -> list[dict[str, Any]]:
        """The kept human games' lines, oldest first (only `bot`'s when given)."""
        try:
            text = (self.folder / INDEX).read_text(encoding="utf-8")
        except FileNotFoundError:
            return []
        lines = []
        for row in text.splitlines():
            try:
                line = json.loads(row)
            except ValueError:
                continue  # a line cut short by a crash: that game's record alone is lost
            if isinstance(line, dict) and (bot is None or line.get("bot") == bot):
                lines.append(line)
        return lines

    def _play(self, game: HumanGame, table: HumanTable) -> None:
        log.info("human game %s: %s plays %s", game.game_id, game.author, game.bot)
        minutes = f"{TABLE_S / 60:g} minutes" if TABLE_S >= 60 else f"{TABLE_S:g} s"
        limit = threading.Timer(
            TABLE_S, game.desk.stop, (f"its time ran out (a human table lasts at most {minutes})",)
        )
        limit.daemon = True
        limit.start()
        try:
            _, record = play_at_desk(table, game.desk, game.game_id, self.folder)
            write_record(self.folder / "records", game.game_id, record_bytes(record))
            summary = _summary(game, record, self.league.folder)
            with self._lock:
                game.summary = summary
                self._keep(summary)
            log.info("human game %s over: %s place %s (%s)", game.game_id, game.author,
                     _place(summary), summary["termination"])  # fmt: skip
        except Exception as failed:  # an arena fault: the page is told, the slot freed
            log.exception("human table %s failed", game.game_id)
            game.desk.finish({"reason": f"The table failed: {failed}"})
        finally:
            limit.cancel()
            with self._lock:
                game.finished = time.monotonic()

    def _stop_with_league(self) -> None:
        """When the league stops, every table playing ends now (its bots' processes with it),
        with that reason, rather than wait for its human's clock."""
        self.league.stop.wait()
        with self._lock:
            playing = [game for game in self._games.values() if game.finished is None]
        for game in playing:
            game.desk.stop("the league stopped")
        deadline = time.monotonic() + STOP_S
        for game in playing:  # each records its game and closes its bot's process
            if game.thread is not None:
                game.thread.join(max(0.0, deadline - time.monotonic()))

    def _keep(self, summary: dict[str, Any]) -> None:
        """Add a game's line to the index; the oldest records beyond KEPT_GAMES go."""
        lines = [*self.games(), summary]
        for old in lines[:-KEPT_GAMES]:
            self.record_path(str(old["game_id"])).unlink(missing_ok=True)
        kept = "".join(json.dumps(line) + "\n" for line in lines[-KEPT_GAMES:])
        scratch = self.folder / (INDEX + ".new")
        scratch.write_text(kept, encoding="utf-8")
        scratch.replace(self.folder / INDEX)

    def _forget_old(self) -> None:
        now = time.monotonic()
        for game_id, game in list(self._games.items()):
            if game.finished is not None and now - game.finished > KEPT_S:
                del self._games[game_id]


def _summary(game: HumanGame, record: dict[str, Any], folder: Path) -> dict[str, Any]:
    outcome = record.get("outcome") or {}
    return {
        "game_id": game.game_id,
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "author": game.author,
        "bot": game.bot,
        "players": record.get("players"),
        "human_seat": game.desk.seat,
        "scores": outcome.get("scores"),
        "ranks": outcome.get("ranks"),
        "termination": outcome.get("termination"),
        "reason": public.message(str(outcome.get("reason", "")), folder),
        "replay": f"/play/{game.game_id}/replay",
    }


def _place(summary: dict[str, Any]) -> str:
    """The human's place (1 = first) in a game's line, or '?'."""
    ranks = summary.get("ranks")
    seat = summary.get("human_seat")
    if isinstance(ranks, list) and isinstance(seat, int) and 0 <= seat < len(ranks):
        return str(ranks[seat] + 1)
    return "?"


def _number(game_id: object) -> int:
    text = str(game_id)
    return int(text[1:]) if text[:1] == "H" and text[1:].isdigit() and len(text) < 12 else 0
