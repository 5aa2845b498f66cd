"""The league's leaderboards and a bot's report, as the web page and API show them.

`leaderboard` makes one as `arena run` does, from the league's in-memory games. `Boards`
serves them to many readers: the plain leaderboard is kept made (one background remake at
a time, at most every BOARD_SECONDS and at most BOARD_CPU_SHARE of a core, since a long
league makes it slower to compute: about 30 µs a game), and custom ones (filtered games,
computed per request) are made by at most CUSTOM_AT_ONCE threads at once.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import defaultdict
from typing import Any

from arena.errors import ArenaError
from arena.league.league import League
from arena.league.store import Bot
from arena.results.log import GameLine
from arena.results.ratings import rate_games

log = logging.getLogger(__name__)

BOARD_SECONDS = 1.0
BOARD_CPU_SHARE = 0.1
CUSTOM_AT_ONCE = 2
CUSTOM_WAIT_S = 30.0
"""A request that waits longer than this for a thread to make its custom board: refused."""
RECENT_GAMES = 200
RECENT_FAILURES = 100


def leaderboard(
    league: League,
    since: str = "",
    until: str = "",
    among: frozenset[str] = frozenset(),
    seats: int | None = None,
) -> list[dict[str, Any]]:
    """The leaderboard as `arena run` makes it (TrueSkill, the order-free Elo and the win rate
    with their 95% intervals, games, failures), each row with its bot's author, version and
    status. A custom leaderboard counts only the games finished from `since` to `until` (ISO
    times, either may be empty), with `among` only the games among those bots, and with
    `seats` only the tables of that size (a league's table size may change between starts)."""
    from arena.results import tables

    with league.lock:
        bots = {bot.label: bot for bot in league.store.bots()}
        games = list(league.played)  # the league's own copy: the store is not read again
    games = [
        line
        for line in games
        if (not since or line.finished_at >= since)
        and (not until or line.finished_at <= until)
        and (not among or set(line.players) <= among)
        and (seats is None or len(line.players) == seats)
    ]
    if not games:
        return []
    board = tables.leaderboard(games, rate_games(games), [], seats)
    rows = []
    for record in board.to_dict("records"):
        row = {
            str(k): (None if isinstance(v, float) and math.isnan(v) else v)
            for k, v in record.items()
        }
        bot = bots.get(str(row["bot"]))
        if bot is not None:
            if bot.status == "removed":
                continue  # its games still count for the others
            row.update(name=bot.name, version=bot.version, author=bot.author, status=bot.status)
        rows.append(row)
    return rows


class Busy(ArenaError):
    """Too many custom leaderboards asked at once; one sentence."""


class Boards:
    """The leaderboards of one league, shared by every reader of its web side."""

    def __init__(self, league: League) -> None:
        self.league = league
        self.rows: list[dict[str, Any]] = []
        self.key: Any = None
        self.made = self.took = 0.0
        self.making = threading.Lock()
        self.custom_slots = threading.BoundedSemaphore(CUSTOM_AT_ONCE)

    def plain(self) -> list[dict[str, Any]]:
        """The leaderboard of every game. When games or bots changed, a reader gets the last
        one at once and one background thread makes the next, so fifty readers of a league
        playing hundreds of games a second share one computation (a change shows a moment
        later, on a later read or event)."""
        league = self.league
        with league.lock:
            key = (len(league.played), tuple((b.label, b.status) for b in league.store.bots()))
        if self.key == key:
            return self.rows
        if self.key is None:
            self.making.acquire()
            self._remake(key)
        elif time.monotonic() - self.made >= max(
            BOARD_SECONDS, self.took / BOARD_CPU_SHARE
        ) and self.making.acquire(False):
            threading.Thread(target=self._remake, args=(key,), daemon=True).start()
        return self.rows

    def custom(
        self, since: str, until: str, among: frozenset[str], seats: int | None
    ) -> list[dict[str, Any]]:
        """A custom leaderboard (`leaderboard`'s filters); Busy after CUSTOM_WAIT_S waiting."""
        if not self.custom_slots.acquire(timeout=CUSTOM_WAIT_S):
            raise Busy("The league is busy with other custom leaderboards; try again soon.")
        try:
            return leaderboard(self.league, since, until, among, seats)
        finally:
            self.custom_slots.release()

    def _remake(self, key: Any) -> None:
        start = time.monotonic()
        try:
            self.rows, self.key = leaderboard(self.league), key
        except Exception:  # the league closed meanwhile: the last board stays
            log.debug("the leaderboard could not be remade", exc_info=True)
        finally:
            self.made = time.monotonic()
            self.took = self.made - start
            self.making.release()


def bot_json(bot: Bot) -> dict[str, Any]:
    return {
        "bot": bot.label,
        "name": bot.name,
        "version": bot.version,
        "author": bot.author,
        "status": bot.status,
        "message": bot.message,
    }


def bot_report(label: str, games: list[GameLine]) -> dict[str, Any]:
    """Over a bot's games, in one pass: its think and CPU time per decision, its failures,
    how it fared against each other bot it met (finished ahead of it, level, behind: ranks
    at their table), its places from each seat, and its latest games."""
    think = cpu = 0.0
    decisions = cpu_decisions = 0
    failures = []
    against: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    seats: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for line in games:
        seat = line.players.index(label)
        think += line.think_ms[seat]
        decisions += line.decisions[seat]
        if line.cpu_ms[seat] is not None:
            cpu += float(line.cpu_ms[seat] or 0.0)
            cpu_decisions += line.decisions[seat]
        if line.faulty_seat == seat:
            failures.append({"game_id": line.game_id, "termination": line.termination,
                             "reason": line.reason})  # fmt: skip
        mine = line.ranks[seat]
        for other, (name, rank) in enumerate(zip(line.players, line.ranks, strict=True)):
            if other != seat:
                against[name][0 if mine < rank else 1 if mine == rank else 2] += 1
        place = seats[seat]
        place[0] += 1
        place[1] += mine + 1
        place[2] += mine == 0
    return {
        "think_ms_per_decision": round(think / decisions, 3) if decisions else None,
        "cpu_ms_per_decision": round(cpu / cpu_decisions, 3) if cpu_decisions else None,
        "failures": failures[-RECENT_FAILURES:],
        "against": [
            {"bot": name, "games": sum(tally), "ahead": tally[0], "level": tally[1],
             "behind": tally[2]}
            for name, tally in sorted(against.items())
        ],
        "by_seat": [
            {"seat": seat, "games": n, "mean_place": round(total / n, 3), "first": first}
            for seat, (n, total, first) in sorted(seats.items())
        ],
        "games": [
            {"game_id": g.game_id, "players": list(g.players), "ranks": list(g.ranks),
             "termination": g.termination, "reason": g.reason}
            for g in games[-RECENT_GAMES:]
        ],
    }  # fmt: skip
