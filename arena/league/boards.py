"""The league's leaderboards and a bot's report, as the web page and API show them.

`leaderboard` makes one as `arena run` does, from the league's games read from its store. `Boards`
serves them to many readers, and no reader of custom boards can slow the plain board or
the games:

- the plain leaderboard is made from the league's standings (arena/league/standings.py:
  each stored game counted once, as it is stored), in O(bots²), when a game, a bot or the
  Elo fit changed (with hundreds of bots, at most ROWS_CPU_SHARE of the time): every
  stored game is on it at once, at any size; from `served_plain` without a thread. Its
  bots are read again, and its order-free Elo fitted again (stamped `elo_games`: the games
  it covers), by one background refresh at a time, at most every BOARD_SECONDS, the fit
  at most BOARD_CPU_SHARE of a core. The bots are read on the web side's own connection
  (`League.reader`), never behind a waiting write;
- custom ones (filtered games) are made in a process of their own at a lower priority
  (CUSTOM_NICE), one at a time, kept CUSTOM_CACHE_S by their query (the same query asked
  meanwhile waits for the same board); the process reads the games from the store itself,
  a batch at a time on a connection of its own, only the new ones each time, keeps the
  latest CUSTOM_GAMES (a custom board counts those), and stops after CUSTOM_IDLE_S unused
  (the server holds no game). At most CUSTOM_AT_ONCE
  are asked of it at once; a request waiting longer than CUSTOM_WAIT_S is refused (Busy).
  They run on the event loop's side as awaits, so waiting holds no thread.
"""

from __future__ import annotations

import asyncio
import logging
import math
import multiprocessing
import os
import threading
import time
import weakref
from collections import OrderedDict, defaultdict, deque
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.league import public
from arena.league.league import League
from arena.league.store import Bot
from arena.results.log import GameLine
from arena.results.ratings import rate_games

log = logging.getLogger(__name__)

BOARD_SECONDS = 1.0
BOARD_CPU_SHARE = 0.1
ROWS_FREE_S = 0.002
ROWS_CPU_SHARE = 0.1
"""The plain board's rows, when they take ROWS_FREE_S of CPU or more to make (a league of
hundreds of bots: a dozen take 0.5 ms), are made again at most this share of the time."""
CUSTOM_AT_ONCE = 2
CUSTOM_WAIT_S = 30.0
"""A request that waits longer than this for its custom board: refused."""
CUSTOM_CACHE_S = 5.0
CUSTOM_CACHED = 256
CUSTOM_IDLE_S = 60.0
CUSTOM_NICE = 10
RECENT_GAMES = 200
RECENT_FAILURES = 100

Rows = list[dict[str, Any]]


def leaderboard(
    league: League,
    since: str = "",
    until: str = "",
    among: frozenset[str] = frozenset(),
    seats: int | None = None,
) -> Rows:
    """The leaderboard as `arena run` makes it (TrueSkill, the order-free Elo and the win rate
    with their 95% intervals, games, failures), each row with its bot's author, version and
    status, and `elo_games`, the games its Elo covers (all of them here). A custom leaderboard
    counts only the games finished from `since` to `until` (ISO times, either may be empty),
    with `among` only the games among those bots, and with `seats` only the tables of that
    size (a league's table size may change between starts)."""
    from arena.league.export import stored

    with league.lock:
        bots = {bot.label: bot for bot in league.store.bots()}
    return board_of(stored(league), bots, since, until, among, seats)


def board_of(
    games: Iterable[GameLine],
    bots: dict[str, Bot],
    since: str = "",
    until: str = "",
    among: frozenset[str] = frozenset(),
    seats: int | None = None,
) -> Rows:
    """`leaderboard` of these games and bots."""
    from arena.results import tables

    chosen = [
        line
        for line in games
        if (not since or line.finished_at >= since)
        and (not until or line.finished_at <= until)
        and (not among or set(line.players) <= among)
        and (seats is None or len(line.players) == seats)
    ]
    if not chosen:
        return []
    board = tables.leaderboard(chosen, rate_games(chosen), [], seats)
    rows = [
        {str(k): (None if isinstance(v, float) and math.isnan(v) else v) for k, v in record.items()}
        | {"elo_games": len(chosen)}  # fitted now, over every game chosen
        for record in board.to_dict("records")
    ]
    return shown(rows, bots)


def shown(rows: Rows, bots: dict[str, Bot]) -> Rows:
    """`rows` with each bot's name, version, author and status; a removed bot's row left out
    (its games still count for the others)."""
    out = []
    for row in rows:
        bot = bots.get(str(row["bot"]))
        if bot is not None:
            if bot.status == "removed":
                continue  # its games still count for the others
            row.update(name=bot.name, version=bot.version, author=bot.author, status=bot.status)
        out.append(row)
    return out


class Busy(ArenaError):
    """Too many custom leaderboards asked at once; one sentence."""


CUSTOM_GAMES = 200_000
"""The latest games a custom leaderboard counts at most (its filters choose among them): what
the custom boards' process holds, whatever the league's size (a GameLine is about 2 KiB)."""
_READ: list[Any] = [None, 0, deque()]
"""In the custom boards' process: its store (a connection for reading), the number of the
last game it read and its copy of the league's latest CUSTOM_GAMES games."""
CUSTOM_BATCH = 10_000
"""Games the custom boards' process reads from the store at a time."""


def _start_custom_process() -> None:
    os.nice(CUSTOM_NICE)  # the games and the plain board go first


def _custom_board(
    address: str | Path,
    bots: dict[str, Bot],
    query: tuple[str, str, frozenset[str], int | None],
) -> Rows:
    """In the custom boards' process: its games brought up to date from the store at
    `address` (those stored since it last read, CUSTOM_BATCH at a time, on a connection
    of its own for reading), and the custom board of `query`."""
    from arena.league.database import open_database
    from arena.league.store import Store

    store = _READ[0]
    if store is None:
        store = _READ[0] = Store(str(address), db=open_database(address, reading=True))
        _READ[1] = max(0, store.last_game() - CUSTOM_GAMES)  # the latest only
        _READ[2] = deque(maxlen=CUSTOM_GAMES)
    games = _READ[2]
    while batch := store.games_after(_READ[1], CUSTOM_BATCH):
        games.extend(line for _, line in batch)
        _READ[1] = batch[-1][0]
    return board_of(games, bots, *query)


class Boards:
    """The leaderboards of one league, shared by every reader of its web side."""

    def __init__(self, league: League) -> None:
        self.league = league
        self.rows: Rows | None = None
        self.key: Any = None
        self.bots: dict[str, Bot] | None = None
        self.made = self.took = self.fitted = self.rows_made = self.rows_took = 0.0
        self.known_at = -1
        """The games stored when every bot on the board was last known to `bots`."""
        self.making = threading.Lock()
        # custom boards: used on the event loop only
        self.pool: ProcessPoolExecutor | None = None
        self.slots: asyncio.Semaphore | None = None
        self.cached: OrderedDict[Any, tuple[float, asyncio.Future[Rows]]] = OrderedDict()
        self.idle: asyncio.TimerHandle | None = None
        self.asked = 0

    # --- the plain board ---

    def plain(self) -> Rows:
        """The leaderboard of every game stored, made from the league's standings (O(bots²))
        when a game, a bot or the Elo fit changed: a game is on it as soon as it is stored.
        The bots are read again, and the Elo refitted, in the background (`_refresh`); the
        first bots are read now."""
        standings = self.league.standings
        if self.bots is None or self._newcomer():
            with self.making:
                if self.bots is None or self._newcomer():
                    self._refresh(fit=False)  # the fit next, in the background
                    self.known_at = standings.count  # whatever the store said
        assert self.bots is not None
        key = (standings.count, standings.last_fit, self.bots)
        now = time.monotonic()
        cheap = self.rows_took < ROWS_FREE_S  # a dozen bots: made again at every change
        rested = now - self.rows_made >= self.rows_took / ROWS_CPU_SHARE
        if self.rows is None or (key != self.key and (cheap or rested)):
            cpu = time.thread_time()
            self.rows, self.key = shown(standings.rows(), self.bots), key
            self.rows_made, self.rows_took = now, time.thread_time() - cpu
        if now - self.made >= BOARD_SECONDS and self.making.acquire(False):
            threading.Thread(target=self._refresh_and_release, daemon=True).start()
        return self.rows

    async def served_plain(self) -> Rows:
        """`plain` for a handler on the event loop: at once, in no thread, once the bots
        were first read (and when a bot came on the board since: `_newcomer`)."""
        if self.bots is None or self._newcomer():
            return await asyncio.to_thread(self.plain)
        return self.plain()

    def _newcomer(self) -> bool:
        """Whether a bot on the board came after the bots were last read (its row would
        show no author nor status until the background refresh: issue 42): then they are
        read again at once. Looked for once per stored game count."""
        standings, bots = self.league.standings, self.bots
        if bots is None or standings.count == self.known_at:
            return False
        count = standings.count
        if any(name not in bots for name in list(standings.bots)):
            return True
        self.known_at = count
        return False

    def _refresh_and_release(self) -> None:
        try:
            self._refresh()
        finally:
            self.making.release()

    def _refresh(self, fit: bool = True) -> None:
        """The bots read again; the Elo refitted when games came since the last fit and the
        fit has rested long enough (at most BOARD_CPU_SHARE of a core)."""
        try:
            self.bots = self._read_bots()
        except Exception:  # the league closed meanwhile: the last bots stay
            log.debug("the leaderboard's bots could not be read", exc_info=True)
            if self.bots is None:
                self.bots = {}
        if not fit:
            return  # `made` left as it was: the background refresh is due at once
        self.made = time.monotonic()
        standings = self.league.standings
        last = standings.last_fit
        if (last is None or last.games != standings.count) and (
            self.made - self.fitted >= self.took / BOARD_CPU_SHARE
        ):
            try:
                self.took = standings.fit().seconds
            except Exception:
                log.warning("the leaderboard's Elo could not be fitted", exc_info=True)
            self.fitted = time.monotonic()

    # --- custom boards ---

    async def custom(
        self, since: str, until: str, among: frozenset[str], seats: int | None
    ) -> Rows:
        """A custom leaderboard (`leaderboard`'s filters), at most CUSTOM_CACHE_S old; Busy
        after CUSTOM_WAIT_S waiting."""
        query = (since, until, among, seats)
        now = time.monotonic()
        while self.cached:  # the stale ones, oldest first
            made, _ = next(iter(self.cached.values()))
            if now - made <= CUSTOM_CACHE_S and len(self.cached) <= CUSTOM_CACHED:
                break
            self.cached.popitem(last=False)
        if query not in self.cached:
            board = asyncio.ensure_future(self._make(query))
            self.cached[query] = (now, board)
            board.add_done_callback(lambda done: self._forget_failed(query, done))
        return await asyncio.shield(self.cached[query][1])

    def _forget_failed(self, query: Any, board: asyncio.Future[Rows]) -> None:
        if board.cancelled() or board.exception() is not None:
            entry = self.cached.get(query)
            if entry is not None and entry[1] is board:
                del self.cached[query]

    async def _make(self, query: tuple[str, str, frozenset[str], int | None]) -> Rows:
        if self.slots is None:
            self.slots = asyncio.Semaphore(CUSTOM_AT_ONCE)
        try:
            await asyncio.wait_for(self.slots.acquire(), CUSTOM_WAIT_S)
        except TimeoutError:
            raise Busy(
                "The league is busy with other custom leaderboards; try again soon."
            ) from None
        self.asked += 1
        try:
            bots = await asyncio.to_thread(self._read_bots)  # a bot just removed: not shown
            for attempt in (1, 2):
                try:
                    return await asyncio.wrap_future(self._submit(bots, query))
                except (BrokenProcessPool, OSError, RuntimeError):  # killed, or not started
                    log.warning("the custom leaderboards' process failed", exc_info=True)
                    self._stop_process()  # a new one next, reading every game
                    if attempt == 2:
                        raise Busy(
                            "The league could not make custom leaderboards; try again soon."
                        ) from None
            raise AssertionError("unreachable")
        finally:
            self.asked -= 1
            self.slots.release()
            self._stop_when_idle()

    def _read_bots(self) -> dict[str, Bot]:
        """The bots, read on the web side's connection: never behind a write that waits."""
        with self.league.reading:
            return {bot.label: bot for bot in self.league.reader.bots()}

    def _submit(
        self, bots: dict[str, Bot], query: tuple[str, str, frozenset[str], int | None]
    ) -> Any:
        if self.pool is None:
            self.pool = ProcessPoolExecutor(
                1,
                mp_context=multiprocessing.get_context("spawn"),  # no fork of a threaded process
                initializer=_start_custom_process,
            )
            weakref.finalize(self, self.pool.shutdown, wait=False, cancel_futures=True)
        return self.pool.submit(_custom_board, self.league.address, bots, query)

    def _stop_when_idle(self) -> None:
        if self.idle is not None:
            self.idle.cancel()
        self.idle = asyncio.get_running_loop().call_later(CUSTOM_IDLE_S, self._idle)

    def _idle(self) -> None:
        self.idle = None
        if self.asked == 0:
            self._stop_process()

    def _stop_process(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None


def bot_json(bot: Bot, folder: Path | None = None) -> dict[str, Any]:
    """A bot version as everyone sees it: its message made public (no stderr, no server
    paths; `folder`, the league's, is written LEAGUE/)."""
    return {
        "bot": bot.label,
        "name": bot.name,
        "version": bot.version,
        "author": bot.author,
        "status": bot.status,
        "message": public.message(bot.message, folder, bot.label),
    }


def bot_report(label: str, games: list[GameLine], folder: Path | None = None) -> dict[str, Any]:
    """Over a bot's games, in one pass: its think and CPU time per decision, its failures,
    how it fared against each other bot it met (finished ahead of it, level, behind: ranks
    at their table), its places from each seat, its latest games, and its time losses: how
    many, and in how many the machine was loaded (each other seat that was measured took
    over twice its CPU time, waiting 1 ms a decision at least: the bundled `random` waits
    about 0.02 ms on a quiet machine, 1.4 ms beside 24 busy processes on 2 cores; a loss for
    passing --cpu-limit-ms is never the machine's). The reasons are made public
    (`public.message`: a crash's stderr quote is its bot's author's alone)."""

    think = cpu = 0.0
    decisions = cpu_decisions = time_losses = machine_loaded = 0
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
                             "reason": public.message(line.reason, folder)})  # fmt: skip
            if line.termination == "timeout":
                time_losses += 1
                machine_loaded += _machine_loaded(line, seat)
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
        "time_losses": {"total": time_losses, "machine_loaded": machine_loaded},
        "against": [
            {"bot": name, "games": sum(tally), "ahead": tally[0], "level": tally[1],
             "behind": tally[2]}
            for name, tally in sorted(against.items())
        ],
        "by_seat": [
            {"seat": seat, "games": n, "mean_place": round(total / n, 3), "first": first}
            for seat, (n, total, first) in sorted(seats.items())
        ],
        "games": _recent_games(games, folder),
    }  # fmt: skip


def _machine_loaded(line: GameLine, seat: int) -> bool:
    """Whether `seat`'s time loss in `line` may be the machine's: every other seat that was
    measured took over twice its CPU time, waiting 1 ms a decision at least (never for a
    loss for passing --cpu-limit-ms)."""
    if "of CPU time; the limit is" in line.reason:
        return False
    others = [
        (line.think_ms[s], float(line.cpu_ms[s] or 0.0), line.decisions[s])
        for s in range(line.seats)
        if s != seat and s < len(line.cpu_ms) and line.cpu_ms[s] is not None
    ]
    return bool(others) and all(
        n > 0 and think - cpu >= 1.0 * n and think > 2 * cpu for think, cpu, n in others
    )


def _recent_games(games: list[GameLine], folder: Path | None) -> list[dict[str, Any]]:
    """The latest RECENT_GAMES of `games`: players, ranks, how each ended (made public)."""
    return [
        {"game_id": g.game_id, "players": list(g.players), "ranks": list(g.ranks),
         "termination": g.termination, "reason": public.message(g.reason, folder)}
        for g in games[-RECENT_GAMES:]
    ]  # fmt: skip
