"""`arena bench league`'s synthetic league grown in bulk, on both cores.

A process of its own (`python -m arena.bench.league_grow`, pickles over its stdin and stdout:
it is ours) makes each batch's games (synthetic_games.synthetic_lines: the same games from
the same arguments), stores them on a connection of its own in one transaction
(Store.insert_new_games: COPY on PostgreSQL, executemany on SQLite, no lookup of each game
id first) and rates them (TrueSkill and each bot's trail, by league_state.rate from the
ratings and trails sent with the batch: the code and the figures of a game recorded
alone). Meanwhile the league makes the same games and counts their standings and SPRT
sums; then it takes the batch's ratings and saves its state, once a batch
(League.count_stored). The process keeps no state between batches, and one batch is in
flight at a time: the next is sent once the state of the last is saved, so the two
connections never wait for each other. It runs in a session of its own: Linux's scheduler
(autogroup) shares the CPU between sessions, so on a busy machine a process in the league's
session would halve the league's share rather than add one (measured: 85 and 113 µs a game
in a session of its own, 220 and 194 in the league's, alternating, under load).
"""

from __future__ import annotations

import pickle
import subprocess
import sys
import time
from typing import IO, TYPE_CHECKING, Any

from arena.bench.synthetic_games import synthetic_lines
from arena.errors import ArenaError

if TYPE_CHECKING:
    from arena.league.league import League
    from arena.league.league_state import Rated

BULK_TABLES = 25_000
"""Tables grown at a time: one transaction of their games, the state saved once."""
GROW_CACHE_MIB = 512
"""SQLite's page cache of each connection writing while the league grows (its default:
2 MiB), so that the indexes written at random places (each bot's games, each pair's row)
stay in it."""


class Grower:
    """The league's games made and stored in bulk by a process of its own; `close` ends it."""

    def __init__(self, league: League) -> None:
        self.league = league
        self._process = subprocess.Popen(
            [sys.executable, "-m", "arena.bench.league_grow"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            start_new_session=True,  # a share of the CPU of its own (autogroup)
        )
        self._send(str(league.address))  # a URL's password never on a command line
        self.cpu_s = 0.0
        """The CPU time the process used so far (as of its last batch)."""

    def grow(self, games: int, seats: int, bots: int) -> None:
        """Synthetic games of `bots` bots until the league has `games`, BULK_TABLES tables
        at a time."""
        league = self.league
        grown = league.standings.count
        while grown < games:
            tables = min(BULK_TABLES, max(1, (games - grown) // seats))
            start = grown // seats
            state = league.state
            self._send((tables, bots, seats, start, dict(state.ratings), dict(state.trails)))
            league.count_stored(synthetic_lines(tables, bots, seats, start=start), self._rated)
            grown = league.standings.count

    def _send(self, value: Any) -> None:
        assert self._process.stdin is not None
        pickle.dump(value, self._process.stdin, protocol=pickle.HIGHEST_PROTOCOL)
        self._process.stdin.flush()

    def _rated(self) -> Rated:
        assert self._process.stdout is not None
        try:
            rated: Rated
            rated, self.cpu_s = pickle.load(self._process.stdout)
        except EOFError:
            raise ArenaError(
                f"The process storing the synthetic games ended (exit status "
                f"{self._process.wait()}); its error is above."
            ) from None
        return rated

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        try:
            self._process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        if self._process.stdout is not None:
            self._process.stdout.close()

    def __enter__(self) -> Grower:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def serve(source: IO[bytes], sink: IO[bytes]) -> None:
    """The grower's process: the store named first, then each batch stored and rated."""
    from arena.league.database import is_postgres
    from arena.league.league_state import rate
    from arena.league.store import Store
    from arena.results.ratings import environment

    where = pickle.load(source)
    store = Store(where)
    db = store.db
    if is_postgres(where):
        db.execute("SET synchronous_commit = off")  # its disk is not what is measured
    else:
        db.execute("PRAGMA synchronous=OFF")
        db.execute(f"PRAGMA cache_size = {-GROW_CACHE_MIB * 1024}")
    env = environment()
    try:
        while True:
            try:
                tables, bots, seats, start, ratings, trails = pickle.load(source)
            except EOFError:
                return
            lines = synthetic_lines(tables, bots, seats, start=start)
            with db.transaction():
                store.insert_new_games(lines)
            kept: set[str] = set()
            for line in lines:
                rate(env, ratings, trails, kept, line)
            played = {name for line in lines for name in line.players}
            rated = (
                {name: ratings[name] for name in played if name in ratings},
                {name: trails[name] for name in played if name in trails},
                kept,
            )
            pickle.dump((rated, time.process_time()), sink, protocol=pickle.HIGHEST_PROTOCOL)
            sink.flush()
    finally:
        store.close()


if __name__ == "__main__":
    serve(sys.stdin.buffer, sys.stdout.buffer)
