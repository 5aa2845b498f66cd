"""How a league counts its games (League holds these methods): `record` stores a table's
finished games (or many tables') in one transaction with the state they change
(league_state.py), which it keeps in memory and never rebuilds from the games: opened
again, the league reads it back (`_read_state`; an older league's is built once from its
games). `count_stored` counts games another connection stored (the synthetic bench's bulk
growth), `write_snapshot` writes the pairs' snapshot a reopening reads in one go.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from arena.execution import TableResult, write_record
from arena.league.candidates import Verdict
from arena.league.database import said
from arena.league.league_state import LeagueState, Rated
from arena.league.store import Bot, Store
from arena.results.log import GameLine
from arena.stats.sprt import H0, H1, Sprt

log = logging.getLogger("arena.league.league")


class Recording:
    """The league's recording of games (league.py's `League`)."""

    folder: Path
    lock: threading.Lock
    store: Store
    state: LeagueState
    test: Sprt
    seats: int
    _stale: bool
    _told: set[str]

    def verdict(self, bot: Bot, bots: list[Bot] | None = None) -> Verdict | None:
        raise NotImplementedError  # League's

    def _read_state(self) -> LeagueState:
        """The state persisted with the games, or built from them once (an older arena's);
        hold `lock`."""
        db = self.store.db
        state = LeagueState.load(db, self.test, self.seats)
        return state or LeagueState.build(db, self.test, self.seats)

    def record(self, result: TableResult) -> int:
        """Store a table's finished games (or many tables': one transaction), and the state
        they change with them; how many were new. Should the transaction fail, the state is
        read back as stored (the games are then stored again, and counted, by a retry)."""
        for game_id, data in result.records.items():  # carried back by remote workers
            write_record(self.folder / "records", game_id, data)
        stored: list[GameLine] = []
        with self.lock:
            if self._stale:
                self.state, self._stale = self._read_state(), False
            try:
                with self.store.db.transaction():
                    stored = self.store.insert_games(result.lines)
                    for line in stored:
                        self.state.add(line)  # on the plain leaderboard at once
                    self.state.save(self.store.db)
            except BaseException:
                self._restore()
                raise
            for line in stored:
                self._tell_verdict(line)
        return len(stored)

    def count_stored(self, lines: Sequence[GameLine], rated: Callable[[], Rated]) -> None:
        """Games another connection stored (the synthetic bench's bulk growth: league_grow.py)
        counted in the state, their TrueSkill and its trails from `rated` (computed there
        meanwhile: LeagueState.add_rated), and the state saved once."""
        with self.lock:
            try:
                self.state.add_rated(lines, rated)
                with self.store.db.transaction():
                    self.state.save(self.store.db)
            except BaseException:
                self._restore()
                raise

    def _restore(self) -> None:
        """The state read back as stored, after a transaction that failed (holding `lock`);
        if the database cannot be read either, at the next `record`."""
        try:
            self.state = self._read_state()
        except Exception:
            log.debug("the league's state could not be read back", exc_info=True)
            self._stale = True

    def _tell_verdict(self, line: GameLine) -> None:
        """A log line when this game decides a new version's SPRT (holding `lock`)."""
        names = {name.rsplit(".v", 1)[0] for name in line.players}
        if len(names) == len(line.players):
            return  # no two versions of one bot at this table
        for name in line.players:
            bot = self.store.bot(name) if name not in self._told else None
            verdict = None if bot is None else self.verdict(bot)
            if verdict is not None and verdict.verdict in (H0, H1):  # told once a process
                self._told.add(name)
                log.info("SPRT of %s against %s: %s after %d games (LLR %.2f)", verdict.candidate,
                         verdict.previous, verdict.verdict, verdict.games, verdict.llr)  # fmt: skip

    def write_snapshot(self) -> None:
        """The pairs' snapshot written (LeagueState.save_snapshot), as the league playing
        does when it stops: the next start reads it in one go. Skipped, with a log line,
        if the database fails (the rows are read then)."""
        with self.lock:
            if self._stale:
                return
            try:
                self.state.save_snapshot(self.store.db)
            except Exception as error:
                log.warning("the pairs' snapshot was not written: %s", said(error))
