"""The league's running standings: each stored game counted once, the plain leaderboard made
from them in O(bots²), never from every game again.

`Standings.add` (called by `League.record` with the league's lock held, after the game's
TrueSkill update) updates each bot's tallies: games, wins, draws and losses, places, scores,
failures by kind, TrueSkill; the pairwise tallies (finished ahead, level, behind); and what
the intervals need, as counts of the tables' shares (`share_interval` and `mean_interval`
of arena/stats/intervals.py, computed from those counts: a table's share is one of a few
values). The games of one table (deal) arrive together, so only the tables still open are
kept (the last OPEN_TABLES); a game of a table closed since counts as a table of its own.

`rows` is the plain leaderboard as `tables.leaderboard` makes it over the same games (the
same columns and types; the same figures up to float rounding in the means), except the
order-free Elo: a fit of every game at once with an interval over the tables, made by `fit`
in the background from sums per pair and per bot (arena/results/pair_fit.py) and stamped on
each row with the games it covers (`elo_games`). For now those sums are made at each fit
from every meeting, kept compact (its table, its pair, its points: three arrays); the league
is to keep the sums themselves (issue 45). TrueSkill is the league's own (`League.ratings`, which
matchmaking reads): games rated as they are stored, and in schedule order when the league
is opened again; the batch rates in schedule order, so with tables finishing out of order
the two differ a little until the next start.
"""

from __future__ import annotations

import math
import threading
from array import array
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from arena.results import pair_fit
from arena.results.log import GameLine
from arena.stats.intervals import MIN_TABLES_MEAN, MIN_TABLES_SHARE, t975, wilson

OPEN_TABLES = 4096
"""Tables whose per-table sums are kept for a game of theirs still to come."""

Counts = dict[tuple[int, int], int]
"""Tables by (sum, games): a table's value is sum / games (ranks, or points counted twice)."""


@dataclass(frozen=True)
class Fit:
    """The order-free Elo of every bot over the first `games` games."""

    games: int
    elo: dict[str, pair_fit.EloRating]
    seconds: float = 0.0


@dataclass
class Tally:
    """One bot's figures over its games (each seat it took counts)."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    rank_sum: int = 0
    score_sum: float = 0.0
    share_sum: float = 0.0
    places: dict[int, int] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=dict)
    rank_tables: Counts = field(default_factory=dict)
    """Its tables by (sum of its ranks there, seats it took there)."""
    meetings: int = 0
    """Two seats of one game it sat in."""


@dataclass
class Pair:
    """A bot against another: finished ahead, level, behind; and, at tables of two seats,
    its tables by (points counted twice, games)."""

    ahead: int = 0
    level: int = 0
    behind: int = 0
    tables: Counts = field(default_factory=dict)


def _move(counts: Counts, old: tuple[int, int], new: tuple[int, int]) -> None:
    """A table's value changed from `old` to `new` (old (0, 0): the table is new)."""
    if old[1]:
        left = counts[old] - 1
        if left:
            counts[old] = left
        else:
            del counts[old]
    counts[new] = counts.get(new, 0) + 1


def share_interval(strata: list[Counts], games: int) -> tuple[float, float] | None:
    """`intervals.share_interval` over counted tables: a table's share is points / 2 / games."""
    count = sum(n for counts in strata for n in counts.values())
    if count < MIN_TABLES_SHARE:
        return None
    values = [[(p / 2 / g, n) for (p, g), n in counts.items()] for counts in strata]
    share = sum(v * n for pairs in values for v, n in pairs) / count
    free = count - len(strata)
    if free >= 2:
        squares = 0.0
        for pairs in values:
            if len(pairs) > 1:  # one value: no spread (no rounding either)
                mean = sum(v * n for v, n in pairs) / sum(n for _, n in pairs)
                squares += sum(n * (v - mean) ** 2 for v, n in pairs)
        spread = squares / free
    else:
        distinct = {v for pairs in values for v, _ in pairs}
        spread = (
            0.0
            if len(distinct) == 1
            else sum(n * (v - share) ** 2 for pairs in values for v, n in pairs) / (count - 1)
        )
    coin = share * (1 - share)
    if coin <= 0:
        effective = float(count)
    elif spread <= 0:
        effective = float(games)
    else:
        effective = count * coin / spread
    return wilson(share * effective, effective, t975(count - 1))


def mean_interval(counts: Counts, games: int, high: float) -> tuple[float, float] | None:
    """`intervals.mean_interval` of the mean place (1 to `high`) over counted tables: a
    table's mean place is its ranks' sum / games + 1."""
    count = sum(counts.values())
    if count < MIN_TABLES_MEAN:
        return None
    pairs = [(s / g + 1, n) for (s, g), n in counts.items()]
    mean = sum(v * n for v, n in pairs) / count
    if len({v for v, _ in pairs}) == 1:
        share = (mean - 1.0) / (high - 1.0)
        extreme = share in (0.0, 1.0)
        lo, hi = wilson(share * (count if extreme else games), count if extreme else games)
        return (1.0 + lo * (high - 1.0), 1.0 + hi * (high - 1.0))
    spread = math.sqrt(sum(n * (v - mean) ** 2 for v, n in pairs) / (count - 1))
    half = t975(count - 1) * spread / math.sqrt(count)
    return (max(1.0, mean - half), min(high, mean + half))


class Standings:
    """The running tallies of a league's games; `lock` guards them (held briefly)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.count = 0
        """Games counted."""
        self.seats = 0
        """The largest table seen."""
        self.bots: dict[str, Tally] = {}
        self.pairs: dict[str, dict[str, Pair]] = {}
        """Each bot's tallies against each bot it met."""
        self.ratings: dict[str, tuple[float, float]] = {}
        """TrueSkill (mu, sigma) of each bot rated so far."""
        self.open: OrderedDict[tuple[int, int], dict[Any, list[int]]] = OrderedDict()
        """The last OPEN_TABLES tables: their index, and each bot's and pair's running sums."""
        # the order-free fit's tables (round, number) and meetings: table index, pair index
        # and points (x2) of each
        self.rounds = array("q")
        self.numbers = array("q")
        self.keys: dict[tuple[str, str], int] = {}
        self.points: list[float] = []
        """Points of each pair (by `keys`), summed over every game."""
        self.at = array("i")
        self.pair = array("i")
        self.twice = array("b")
        self.last_fit: Fit | None = None

    def add(self, line: GameLine, ratings: Mapping[str, Any]) -> None:
        """Count one stored game; `ratings`: the league's TrueSkill, this game included."""
        players, ranks = line.players, line.ranks
        size = len(players)
        if size != len(ranks):
            return  # as the batch tables, which could not seat it either
        with self.lock:
            self.count += 1
            self.seats = max(self.seats, size)
            table = self._table(line)
            for seat, name in enumerate(players):
                tally = self.bots.get(name)
                if tally is None:
                    tally = self.bots[name] = Tally()
                    self.pairs[name] = {}
                _count_result(tally, line, seat)
                rank = ranks[seat]
                sums = table.setdefault(name, [0, 0])
                _move(tally.rank_tables, (sums[0], sums[1]), (sums[0] + rank, sums[1] + 1))
                sums[0] += rank
                sums[1] += 1
                for other, (opponent, theirs) in enumerate(zip(players, ranks, strict=True)):
                    if other != seat:
                        self._meet(table, name, opponent, rank, theirs, size)
            for name in players:
                rating = ratings.get(name)
                if rating is not None:
                    self.ratings[name] = (float(rating.mu), float(rating.sigma))

    def _table(self, line: GameLine) -> dict[Any, list[int]]:
        """The running sums of `line`'s table (its index under None), opened if it is new;
        the oldest open table is closed beyond OPEN_TABLES."""
        deal = (line.round, line.table)
        table = self.open.get(deal)
        if table is None:
            table = self.open[deal] = {None: [len(self.rounds)]}
            self.rounds.append(line.round)
            self.numbers.append(line.table)
            if len(self.open) > OPEN_TABLES:
                self.open.popitem(last=False)
        else:
            self.open.move_to_end(deal)
        return table

    def _meet(
        self,
        table: dict[Any, list[int]],
        name: str,
        opponent: str,
        rank: int,
        theirs: int,
        size: int,
    ) -> None:
        """Count that `name` (at `rank`) met `opponent` (at `theirs`) at `table`."""
        met = self.pairs[name]
        pair = met.get(opponent)
        if pair is None:
            pair = met[opponent] = Pair()
        twice = 2 if rank < theirs else 1 if rank == theirs else 0
        if twice == 2:
            pair.ahead += 1
        elif twice == 1:
            pair.level += 1
        else:
            pair.behind += 1
        if size == 2:  # the win rate's strata: the opponent
            sums = table.setdefault((name, opponent), [0, 0])
            old = (sums[0], sums[1])
            sums[0] += twice
            sums[1] += 1
            _move(pair.tables, old, (sums[0], sums[1]))
        if name != opponent:
            key = self.keys.get((name, opponent))
            if key is None:
                key = self.keys[name, opponent] = len(self.points)
                self.points.append(0.0)
            self.points[key] += twice / 2
            self.at.append(table[None][0])
            self.pair.append(key)
            self.twice.append(twice)

    def against(self, label: str) -> list[dict[str, Any]]:
        """How `label` fared against each bot it met: finished ahead of it, level, behind."""
        with self.lock:
            met = list(self.pairs.get(label, {}).items())
        return [
            {"bot": name, "games": p.ahead + p.level + p.behind, "ahead": p.ahead,
             "level": p.level, "behind": p.behind}
            for name, p in sorted(met, key=lambda item: item[0])
        ]  # fmt: skip

    def rows(self) -> list[dict[str, Any]]:
        """The plain leaderboard of every game counted, as `tables.leaderboard` makes it (NaN
        as None), with the last fit's Elo and its stamp `elo_games` (None before any fit)."""
        with self.lock:
            return self._rows()

    def _rows(self) -> list[dict[str, Any]]:
        if not self.count:
            return []
        size = self.seats
        fit = self.last_fit
        elo = fit.elo if fit is not None else {}
        rows: list[dict[str, Any]] = []
        for name, tally in self.bots.items():
            mu, sigma = self.ratings.get(name, (25.0, 25.0 / 3.0))
            n = tally.games
            rating = elo.get(name)
            row: dict[str, Any] = {
                "rank": 0,
                "bot": name,
                "mu": mu,
                "sigma": sigma,
                "conservative": mu - 3 * sigma,
                "elo": None if rating is None else rating.elo,
                "elo_lo": None if rating is None else _number(rating.low),
                "elo_hi": None if rating is None else _number(rating.high),
                "games": n,
            }
            if size > 2:
                interval = mean_interval(tally.rank_tables, n, float(size))
                row["mean_rank"] = tally.rank_sum / n + 1
                row["mean_rank_lo"], row["mean_rank_hi"] = interval or (None, None)
                for place in range(1, size + 1):
                    row[f"place_{place}"] = tally.places.get(place - 1, 0)
                row["mean_score"] = tally.score_sum / n
                row["points_share"] = tally.share_sum / n
            else:
                strata = [pair.tables for pair in self.pairs[name].values() if pair.tables]
                lo_hi = share_interval(strata, n)
                row.update(
                    wins=tally.wins,
                    draws=tally.draws,
                    losses=tally.losses,
                    win_rate=(tally.wins + tally.draws / 2) / n,
                    win_rate_lo=None if lo_hi is None else lo_hi[0],
                    win_rate_hi=None if lo_hi is None else lo_hi[1],
                    mean_score=tally.score_sum / n,
                )
            row["failures"] = ", ".join(
                f"{kind} {tally.failures[kind]}" for kind in sorted(tally.failures)
            )
            row["elo_games"] = None if fit is None else fit.games
            rows.append(row)
        rows.sort(key=lambda r: (-r["conservative"], -r["mu"], r["bot"]))
        for place, row in enumerate(rows, start=1):
            row["rank"] = place
        return rows

    def fit(self, seed: int = 0) -> Fit:
        """The order-free Elo of every game counted now (`order_free.rate`'s figures, from the
        compact meetings), kept as `last_fit`; run it outside any lock (it takes a while).
        `seed` is kept for callers: the fit draws nothing."""
        import time

        del seed
        start = time.monotonic()
        with self.lock:  # a snapshot: the arrays are copied, then only read
            games = self.count
            names = sorted(self.bots)
            keys = list(self.keys)
            at, pair, twice = self.at[:], self.pair[:], self.twice[:]
        elo = _order_free(names, keys, at, pair, twice)
        made = Fit(games, elo, time.monotonic() - start)
        with self.lock:
            if self.last_fit is None or self.last_fit.games <= games:
                self.last_fit = made
        return made


def _number(value: float) -> float | None:
    return None if math.isnan(value) else value


def _order_free(
    names: list[str],
    keys: list[tuple[str, str]],
    at: array[int],
    pair: array[int],
    twice: array[int],
) -> dict[str, pair_fit.EloRating]:
    """`order_free.rate` over meetings kept as arrays (each twice, once from each side):
    their sums per pair and per bot (pair_fit.py), then the fit.

    A stopgap (issue 45): the league is to keep those sums running (`pair_fit.table_sums`
    of each table, added as it is stored) instead of these arrays of every meeting."""
    index = {name: i for i, name in enumerate(names)}
    mine = np.array([index[a] for a, _ in keys], dtype=np.int64).reshape(-1)
    theirs = np.array([index[b] for _, b in keys], dtype=np.int64).reshape(-1)
    which = np.frombuffer(pair, dtype=np.int32)
    once = mine[which] < theirs[which]  # each meeting from its first bot's side
    return pair_fit.fit(
        names,
        *pair_fit.meeting_sums(
            len(names),
            np.frombuffer(at, dtype=np.int32).astype(np.int64)[once],
            mine[which[once]],
            theirs[which[once]],
            np.frombuffer(twice, dtype=np.int8)[once] / 2.0,
        ),
    )


def _count_result(tally: Tally, line: GameLine, seat: int) -> None:
    """Count `seat`'s result in `line` on its bot's tally: its place, points and share."""
    ranks, size = line.ranks, len(line.ranks)
    rank = ranks[seat]
    total = float(sum(line.scores))
    tally.games += 1
    tally.meetings += size - 1
    if rank != 0:
        tally.losses += 1
    elif sum(1 for place in ranks if place == 0) > 1:
        tally.draws += 1
    else:
        tally.wins += 1
    tally.rank_sum += rank
    tally.score_sum += line.scores[seat]
    tally.share_sum += line.scores[seat] / total if total else 1.0 / size
    tally.places[rank] = tally.places.get(rank, 0) + 1
    if line.faulty_seat == seat:
        tally.failures[line.termination] = tally.failures.get(line.termination, 0) + 1
