"""What a league serves, kept as its games are stored and persisted with them: a restart
reads this, never the games.

`LeagueState` holds each bot's TrueSkill and its thinned rating history (bot_games.Trail),
the running standings (standings.py: each bot's tallies, each pair's in flat arrays), and
each candidate's SPRT (candidates.CandidateTests); `add` counts one stored game in all of
them (in the order stored). `save` writes what changed since the last save (schema step 6:
`bot_state`, `pair_state`, `candidate_state`, and the games counted and table sizes among
the settings) and is called inside the transaction that stores the games (League.record),
so what is persisted always matches the games stored, whatever kills the process. `load`
reads it back; `build` makes it from the stored games once, for a league whose games were
stored before the state was (an older arena): read in batches of BUILD_BATCH, so its memory
is that of the state, not of the games.

Nothing here grows with the games: O(bots + pairs that met), the pairs with no object each.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from array import array
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import trueskill

from arena.league.bot_games import Trail
from arena.league.candidates import CandidateTests, Running
from arena.league.database import Database
from arena.league.pair_tallies import MetView, PairTallies
from arena.league.standings import Standings, Tally
from arena.results.log import GameLine
from arena.results.ratings import environment, rate_game
from arena.stats.sprt import Sprt

log = logging.getLogger(__name__)

COUNTED = "state_games"
"""The setting of the games the persisted state counts; absent: no state yet (`build`)."""
SNAPSHOT = "pair_snapshot_games"
"""The setting of the games the pairs' snapshot counts (`save_snapshot`)."""
SNAPSHOT_READ = 1 << 20
"""Bytes of a snapshot's part read at a time: PostgreSQL's client library keeps a buffer as
large as the largest answer it had, for as long as its connection (read whole, the parts of
499,500 pairs, the largest 16 MiB, left the server 27 MiB larger at 10,000,000 games)."""
SIZES = "state_table_sizes"
"""The setting of the table sizes the league's games were played at (JSON)."""
BUILD_BATCH = 10_000
"""Games read at a time when the state is built from them."""
_PAIR_COLUMNS = (
    "first, second, ahead, level, behind, odd_strata, tables, games, points, points2, games2, "
    "points_games, first_points, second_points, first_games, second_games, strata_1_0, "
    "strata_1_1, strata_1_2, strata_2_0, strata_2_1, strata_2_2, strata_2_3, strata_2_4"
)
"""A pair's row (pair_tallies.PairTallies.row)."""
_PAIR_UPDATES = ", ".join(
    f"{column} = excluded.{column}" for column in _PAIR_COLUMNS.split(", ")[2:]
)
_LITTLE = sys.byteorder == "little"
Rated = tuple[dict[str, Any], dict[str, Trail], set[str]]
"""Games' TrueSkill computed elsewhere (`add_rated`): their players' ratings and trails after
them, and the bots whose trail kept a point."""


class LeagueState:
    """Ratings, their histories, standings and SPRT sums of one league."""

    def __init__(self, test: Sprt, seats: int) -> None:
        self.env = environment()
        self.ratings: dict[str, Any] = {}
        """TrueSkill by bot, each game rated as it was stored."""
        self.standings = Standings()
        self.trails: dict[str, Trail] = {}
        self.tests = CandidateTests(test, seats)
        self.kept: set[str] = set()
        """The bots whose trail kept a point since the last save."""
        self.sizes_saved: set[int] | None = None
        """The table sizes last saved (None: never)."""

    def add(self, line: GameLine) -> None:
        """Count one stored game (hold the league's lock)."""
        rate(self.env, self.ratings, self.trails, self.kept, line)
        self.standings.add(line, self.ratings)
        self.tests.add(line)

    def add_rated(self, lines: Sequence[GameLine], rated: Callable[[], Rated]) -> None:
        """Count stored games whose TrueSkill is computed elsewhere meanwhile (the synthetic
        bench's bulk growth, league_grow.py, by `rate`: the same figures): their standings
        and SPRT sums here, in order, then from `rated()` their players' ratings and trails
        after them and the bots whose trail kept a point; the standings' copy of each bot's
        rating is then its last (hold the league's lock)."""
        for line in lines:
            self.standings.add(line, self.ratings)
            self.tests.add(line)
        ratings, trails, kept = rated()
        self.ratings.update(ratings)
        self.trails.update(trails)
        self.kept |= kept
        with self.standings.lock:
            for name, rating in ratings.items():
                self.standings.ratings[name] = (float(rating.mu), float(rating.sigma))

    def met(self) -> MetView:
        """The games each pair met, by its sorted labels (matchmaking, `opponent`)."""
        return MetView(self.standings.pairs)

    def games_of(self, label: str) -> int:
        """The games `label` played (each seat it took)."""
        tally = self.standings.bots.get(label)
        return 0 if tally is None else tally.games

    # --- persisted ---

    def save(self, db: Database) -> None:
        """Write what changed since the last save; call it inside the transaction that
        stored the games."""
        standings, pairs, tests = self.standings, self.standings.pairs, self.tests
        trail_rows, plain_rows = [], []
        for name in sorted(standings.dirty | self.kept):
            tally = standings.bots.get(name)
            rating = self.ratings.get(name)
            trail = self.trails.get(name)
            data = _tally_json(tally or Tally(), 0 if trail is None else trail.games)
            mu, sigma = (None, None) if rating is None else (float(rating.mu), float(rating.sigma))
            if name in self.kept and trail is not None:
                trail_rows.append((name, data, mu, sigma, trail.stride, _bytes(trail.points)))
            else:
                plain_rows.append((name, data, mu, sigma, 1, b""))
        upsert = (
            "INSERT INTO bot_state (bot, tally, mu, sigma, stride, trail) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (bot) DO UPDATE SET tally = excluded.tally, "
            "mu = excluded.mu, sigma = excluded.sigma"
        )
        if trail_rows:
            db.executemany(
                upsert + ", stride = excluded.stride, trail = excluded.trail", trail_rows
            )
        if plain_rows:
            db.executemany(upsert, plain_rows)  # the trail stored before stays
        if pairs.dirty:
            db.executemany(
                f"INSERT INTO pair_state ({_PAIR_COLUMNS}) VALUES ({', '.join('?' * 24)}) "
                f"ON CONFLICT (first, second) DO UPDATE SET {_PAIR_UPDATES}",
                [pairs.row(pair) for pair in sorted(pairs.dirty)],
            )
        if tests.dirty:
            with tests.lock:
                rows = [(c, p, json.dumps(tests.running[c, p].to_json())) for c, p in tests.dirty]
            db.executemany(
                "INSERT INTO candidate_state (candidate, previous, state) VALUES (?, ?, ?) "
                "ON CONFLICT (candidate, previous) DO UPDATE SET state = excluded.state",
                sorted(rows),
            )
        _set(db, COUNTED, str(standings.count))
        if standings.sizes != self.sizes_saved:  # a new table size: rare
            _set(db, SIZES, json.dumps(sorted(standings.sizes)))
            self.sizes_saved = set(standings.sizes)
        standings.dirty.clear()
        pairs.dirty.clear()
        tests.dirty.clear()
        self.kept.clear()

    @classmethod
    def load(cls, db: Database, test: Sprt, seats: int) -> LeagueState | None:
        """The state persisted in `db`; None when it has none yet (`build` it)."""
        counted = db.execute("SELECT value FROM settings WHERE key = ?", (COUNTED,)).fetchone()
        if counted is None:
            return None
        state = cls(test, seats)
        standings = state.standings
        standings.count = int(counted[0])
        sizes = db.execute("SELECT value FROM settings WHERE key = ?", (SIZES,)).fetchone()
        standings.sizes = set(json.loads(sizes[0])) if sizes is not None else set()
        state.sizes_saved = set(standings.sizes) if sizes is not None else None
        for name, data, mu, sigma, stride, trail in db.execute(
            "SELECT bot, tally, mu, sigma, stride, trail FROM bot_state ORDER BY bot"
        ).fetchall():
            tally, rated = _tally_from_json(json.loads(data))
            standings.bots[name] = tally
            made = Trail()
            made.stride, made.points = int(stride), _doubles(bytes(trail))
            made.games = rated
            if mu is not None:
                state.ratings[name] = trueskill.Rating(float(mu), float(sigma))
                standings.ratings[name] = (float(mu), float(sigma))
                if rated:
                    made.last = (rated, float(mu), float(sigma))
            state.trails[name] = made
        snapshot = _snapshot(db, standings.count)
        if snapshot is not None:
            standings.pairs = snapshot
        else:  # stopped without one (killed), or games stored since: the rows
            pairs = standings.pairs
            select = f"SELECT {_PAIR_COLUMNS} FROM pair_state"
            for rows in _batches(db, select, ("first", "second")):
                pairs.load(rows)
            pairs.dirty.clear()
        for candidate, previous, data in db.execute(
            "SELECT candidate, previous, state FROM candidate_state"
        ).fetchall():
            state.tests.running[candidate, previous] = Running.from_json(json.loads(data))
        return state

    def save_snapshot(self, db: Database) -> None:
        """The pairs' flat arrays written whole (`pair_snapshot`, schema step 8), stamped
        with the games counted: the league stopping (League.close), so that the next start
        reads them in one go; a game stored later makes it stale (its rows are read then)."""
        with db.transaction():
            db.execute("DELETE FROM pair_snapshot")
            db.executemany(
                "INSERT INTO pair_snapshot (part, data) VALUES (?, ?)",
                sorted(self.standings.pairs.parts().items()),
            )
            _set(db, SNAPSHOT, str(self.standings.count))

    @classmethod
    def replayed(cls, db: Database, test: Sprt, seats: int) -> LeagueState:
        """The state made from the games stored in `db`, in the order stored, BUILD_BATCH
        at a time (not saved)."""
        state = cls(test, seats)
        last = 0
        while True:
            rows = db.execute(
                "SELECT id, line FROM games WHERE id > ? ORDER BY id LIMIT ?", (last, BUILD_BATCH)
            ).fetchall()
            if not rows:
                return state
            for _, line in rows:
                state.add(GameLine.from_json(json.loads(line)))
            last = int(rows[-1][0])

    @classmethod
    def build(cls, db: Database, test: Sprt, seats: int) -> LeagueState:
        """`replayed`, and saved: once, for a league whose games were stored before their
        state was; one log line when there were games."""
        start = time.monotonic()
        state = cls.replayed(db, test, seats)
        with db.transaction():
            state.save(db)
        if state.standings.count:
            log.info(
                "the league's standings, ratings, histories and tests were built once from its "
                "%d stored games in %.1f s; from now on they are kept with each game",
                state.standings.count,
                time.monotonic() - start,
            )
        return state

    def snapshot(self) -> dict[str, Any]:
        """Everything the state holds, comparable (tests: a league reopened, rebuilt)."""
        standings, pairs = self.standings, self.standings.pairs
        return {
            "count": standings.count,
            "sizes": sorted(standings.sizes),
            "rows": standings.rows(),
            "tallies": {name: _tally_json(t, 0) for name, t in sorted(standings.bots.items())},
            "ratings": {n: (float(r.mu), float(r.sigma)) for n, r in sorted(self.ratings.items())},
            "histories": {name: trail.shown() for name, trail in sorted(self.trails.items())},
            "pairs": sorted(pairs.row(pair) for pair in range(len(pairs))),
            "tests": {key: run.to_json() for key, run in sorted(self.tests.running.items())},
        }


def rate(
    env: trueskill.TrueSkill,
    ratings: dict[str, Any],
    trails: dict[str, Trail],
    kept: set[str],
    line: GameLine,
) -> None:
    """One game's TrueSkill update of `ratings`, each player's rating added to its trail
    (`kept`: the bots whose trail kept a point)."""
    if rate_game(env, ratings, line):
        for name in line.players:
            rating = ratings[name]
            trail = trails.get(name)
            if trail is None:
                trail = trails[name] = Trail()
            if trail.add(float(rating.mu), float(rating.sigma)):
                kept.add(name)


def _bytes(points: array[float]) -> bytes:
    """A trail's points as little-endian doubles."""
    if _LITTLE:
        return points.tobytes()
    turned = array("d", points)
    turned.byteswap()
    return turned.tobytes()


def _doubles(data: bytes) -> array[float]:
    points = array("d", data)
    if not _LITTLE:
        points.byteswap()
    return points


def _snapshot(db: Database, counted: int) -> PairTallies | None:
    """The pairs of the snapshot stamped with `counted` games; None without one (or a
    snapshot that cannot be read: logged, and the rows read instead)."""
    stamp = db.execute("SELECT value FROM settings WHERE key = ?", (SNAPSHOT,)).fetchone()
    if stamp is None or stamp[0] != str(counted):
        return None

    def part(name: str) -> bytes:
        found = db.execute("SELECT length(data) FROM pair_snapshot WHERE part = ?", (name,))
        size = found.fetchone()
        if size is None:
            raise KeyError(name)
        data = bytearray()
        for start in range(0, int(size[0]), SNAPSHOT_READ):
            piece = db.execute(
                "SELECT substr(data, CAST(? AS INTEGER), CAST(? AS INTEGER)) FROM pair_snapshot "
                "WHERE part = ?",
                (start + 1, SNAPSHOT_READ, name),
            ).fetchone()
            data += bytes(piece[0])
        return bytes(data)

    try:
        return PairTallies.from_parts(part)
    except (KeyError, ValueError, TypeError) as error:
        log.warning("the pairs' snapshot cannot be read (%s); their rows are read instead", error)
        return None


def _set(db: Database, key: str, value: str) -> None:
    db.execute(
        "INSERT INTO settings (key, value) VALUES (?, ?) "
        "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, value),
    )


def _batches(db: Database, select: str, keys: tuple[str, str]) -> Iterator[list[Any]]:
    """The rows of `select`, BUILD_BATCH at a time in the order of `keys` (its primary
    key): a league's hundreds of thousands of pairs never in one result at once."""
    order = f" ORDER BY {keys[0]}, {keys[1]} LIMIT {BUILD_BATCH}"
    rows = db.execute(select + order).fetchall()
    while rows:
        yield rows
        after = (rows[-1][0], rows[-1][1])
        rows = db.execute(
            select + f" WHERE ({keys[0]}, {keys[1]}) > (?, ?)" + order, after
        ).fetchall()


def _tally_json(tally: Tally, rated: int) -> str:
    """A bot's tallies as its `bot_state.tally` (and `rated`: its games TrueSkill rated)."""
    return json.dumps(
        {
            "games": tally.games, "wins": tally.wins, "draws": tally.draws,
            "losses": tally.losses, "rank_sum": tally.rank_sum, "score_sum": tally.score_sum,
            "share_sum": tally.share_sum, "places": list(tally.places.items()),
            "failures": tally.failures, "meetings": tally.meetings,
            "rank_tables": [[s, g, n] for (s, g), n in tally.rank_tables.items()],
            "deals": tally.deals, "deal_points2": tally.deal_points2,
            "deal_cross": tally.deal_cross, "rated": rated,
        },
        separators=(",", ":"),
    )  # fmt: skip


def _tally_from_json(data: dict[str, Any]) -> tuple[Tally, int]:
    tally = Tally(
        games=int(data["games"]), wins=int(data["wins"]), draws=int(data["draws"]),
        losses=int(data["losses"]), rank_sum=int(data["rank_sum"]),
        score_sum=float(data["score_sum"]), share_sum=float(data["share_sum"]),
        places={int(rank): int(n) for rank, n in data["places"]},
        failures={str(kind): int(n) for kind, n in data["failures"].items()},
        rank_tables={(int(s), int(g)): int(n) for s, g, n in data["rank_tables"]},
        meetings=int(data["meetings"]), deals=int(data["deals"]),
        deal_points2=float(data["deal_points2"]), deal_cross=float(data["deal_cross"]),
    )  # fmt: skip
    return tally, int(data["rated"])
