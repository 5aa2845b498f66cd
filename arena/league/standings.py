"""The league's running standings: each stored game counted once, the plain leaderboard made
from them in O(bots + pairs), never from every game again.

`Standings.add` (called with the league's lock held, after the game's TrueSkill update:
league_state.py) updates each bot's tallies: games, wins, draws and losses, places, scores,
failures by kind, TrueSkill; each pair's (pair_tallies.py: finished ahead, level, behind,
and the sums the order-free fit needs, in flat arrays, no object per pair); and what the
intervals need, as counts of the tables' shares (`share_interval` and `mean_interval` of
arena/stats/intervals.py, computed from those counts: a table's share is one of a few
values). The games of one table (deal) arrive together, so only the tables still open are
kept (the last OPEN_TABLES); a game of a table closed since counts as a table of its own.
Nothing here grows with the games: a league of a thousand bots holds the same at a million
games as at ten million. The tallies are persisted with each game (league_state.py), so a
restart reads them rather than the games.

`rows` is the plain leaderboard as `tables.leaderboard` makes it over the same games (the
same columns and types; the same figures up to float rounding in the means), except the
order-free Elo, made by `fit` in the background from each pair's sums (so its cost grows
with the pairs that met, not the games) and stamped on each row with the games it covers
(`elo_games`). TrueSkill is the league's own (its ratings, which matchmaking reads): games
rated in the order they were stored, and kept so across restarts; the batch rates in
schedule order, so with tables finishing out of order the two differ a little.
"""

from __future__ import annotations

import dataclasses
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from arena.league.pair_tallies import Counts, PairTallies, ordered
from arena.results import pair_fit
from arena.results.log import GameLine
from arena.results.pair_fit import PairSums
from arena.stats.intervals import MIN_TABLES_MEAN, MIN_TABLES_SHARE, t975, wilson

OPEN_TABLES = 4096
"""Tables whose per-table sums are kept for a game of theirs still to come."""


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
    """Two seats of one game it sat in (pair_fit.MIN_MEETINGS)."""
    deals: int = 0
    deal_points2: float = 0.0
    deal_cross: float = 0.0
    """The fit's sums over the tables (deals) it sat at, P and G its points and meetings
    there against every bot: tables, Σ P², Σ P·G (pair_fit.BotSums)."""


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
    values = [[(p / 2 / g, n) for (p, g), n in counts.items()] for counts in strata]
    squares = 0.0
    for pairs in values:
        if len(pairs) > 1:  # one value: no spread (no rounding either)
            mean = sum(v * n for v, n in pairs) / sum(n for _, n in pairs)
            squares += sum(n * (v - mean) ** 2 for v, n in pairs)
    total = sum(v * n for pairs in values for v, n in pairs)
    return _share_interval(count, total, len(strata), squares, games, lambda: values)


def _share_interval(
    count: int,
    total: float,
    strata: int,
    squares: float,
    games: int,
    values: Callable[[], list[list[tuple[float, int]]]],
) -> tuple[float, float] | None:
    """`share_interval` from its sums: `count` tables, their shares' `total`, in `strata`
    strata, the `squares` about each stratum's mean; `values` (each stratum's shares and
    their counts) only when too few tables are left beside the strata."""
    if count < MIN_TABLES_SHARE:
        return None
    share = total / count
    free = count - strata
    if free >= 2:
        spread = squares / free
    else:
        shares = values()
        distinct = {v for pairs in shares for v, _ in pairs}
        spread = (
            0.0
            if len(distinct) == 1
            else sum(n * (v - share) ** 2 for pairs in shares for v, n in pairs) / (count - 1)
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
        self.sizes: set[int] = set()
        """The table sizes seen."""
        self.bots: dict[str, Tally] = {}
        self.pairs = PairTallies()
        """Each pair of bots that met: results and the fit's sums."""
        self.ratings: dict[str, tuple[float, float]] = {}
        """TrueSkill (mu, sigma) of each bot rated so far."""
        self.open: OrderedDict[tuple[int, int], dict[Any, list[int]]] = OrderedDict()
        """The last OPEN_TABLES tables: each bot's and pair's running sums there."""
        self.dirty: set[str] = set()
        """The bots whose tallies changed since the state was last written."""
        self.last_fit: Fit | None = None

    @property
    def seats(self) -> int:
        """The largest table seen."""
        return max(self.sizes, default=0)

    def add(self, line: GameLine, ratings: Mapping[str, Any]) -> None:
        """Count one stored game; `ratings`: the league's TrueSkill, this game included."""
        players, ranks = line.players, line.ranks
        size = len(players)
        if size != len(ranks):
            return  # as the batch tables, which could not seat it either
        with self.lock:
            self.count += 1
            self.sizes.add(size)
            table = self._table(line)
            for seat, name in enumerate(players):
                tally = self.bots.get(name)
                if tally is None:
                    tally = self.bots[name] = Tally()
                self.dirty.add(name)
                _count_result(tally, line, seat)
                rank = ranks[seat]
                sums = table.setdefault(name, [0, 0])
                _move(tally.rank_tables, (sums[0], sums[1]), (sums[0] + rank, sums[1] + 1))
                sums[0] += rank
                sums[1] += 1
            self._meetings(table, line)
            for name in players:
                rating = ratings.get(name)
                if rating is not None:
                    self.ratings[name] = (float(rating.mu), float(rating.sigma))

    def _table(self, line: GameLine) -> dict[Any, list[int]]:
        """The running sums of `line`'s table, opened if it is new; the oldest open table is
        closed beyond OPEN_TABLES."""
        deal = (line.round, line.table)
        table = self.open.get(deal)
        if table is None:
            table = self.open[deal] = {}
            if len(self.open) > OPEN_TABLES:
                self.open.popitem(last=False)
        else:
            self.open.move_to_end(deal)
        return table

    def _meetings(self, table: dict[Any, Any], line: GameLine) -> None:
        """Count every two seats of `line` as a meeting at `table`: each pair's results and
        sums, each bot's points and meetings there (P, G) and the sums they enter."""
        players, ranks, size = line.players, line.ranks, len(line.players)
        seated: dict[str, list[int]] = table.setdefault(("seated",), {})  # bot: [P twice, G]
        before = {name: tuple(seated.get(name, (0, 0))) for name in players}
        here: dict[int, tuple[str, str]] = table.setdefault(("pairs",), {})  # its pairs
        met: dict[int, int] = {}  # the pairs of this game: their meetings before it
        for seat in range(size):
            for other in range(seat + 1, size):
                a, b = players[seat], players[other]
                if a == b:
                    continue
                first, second = ordered(a, b)
                mine, theirs = (ranks[seat], ranks[other])[:: 1 if first == a else -1]
                twice = 2 if mine < theirs else 1 if mine == theirs else 0
                pair = self.pairs.pair(first, second)
                here[pair] = (first, second)
                self.pairs.count(pair, twice)
                sums = table.setdefault(pair, [0, 0])
                met.setdefault(pair, sums[1])
                old = (sums[0], sums[1])
                sums[0] += twice
                sums[1] += 1
                self.pairs.moved(pair, old, (sums[0], sums[1]), size == 2)
                for name, points in ((first, twice), (second, 2 - twice)):
                    mine_here = seated.setdefault(name, [0, 0])
                    mine_here[0] += points
                    mine_here[1] += 1
        for name, (p_old, g_old) in before.items():
            p_new, g_new = seated.get(name, (0, 0))
            if g_new == g_old:
                continue
            tally = self.bots[name]
            tally.deals += g_old == 0
            tally.deal_points2 += (p_new * p_new - p_old * p_old) / 4
            tally.deal_cross += (p_new * g_new - p_old * g_old) / 2
        for pair, ends in here.items():
            g_new = table[pair][1]
            g_old = met.get(pair, g_new)
            for side, name in enumerate(ends):
                if name in before:
                    (p_old, m_old), (p_new, m_new) = before[name], seated[name]
                    self.pairs.seated(
                        pair, side, (p_old / 2, m_old, g_old), (p_new / 2, m_new, g_new)
                    )
                elif g_new != g_old:
                    p, m = seated[name]
                    self.pairs.seated(pair, side, (p / 2, m, g_old), (p / 2, m, g_new))

    def against(self, label: str) -> list[dict[str, Any]]:
        """How `label` fared against each bot it met: finished ahead of it, level, behind."""
        with self.lock:
            met = self.pairs.against(label)
        return [
            {"bot": name, "games": ahead + level + behind, "ahead": ahead, "level": level,
             "behind": behind}
            for name, ahead, level, behind in sorted(met)
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
        shares = self.pairs.share_sums() if size <= 2 else {}  # every bot's at once
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
                lo_hi = self._share_interval(name, shares.get(name), n)
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

    def _share_interval(
        self, name: str, sums: tuple[int, float, int, float] | None, games: int
    ) -> tuple[float, float] | None:
        """`name`'s win rate interval from its pairs' sums (None: from its strata)."""
        if sums is None:
            return share_interval(self.pairs.strata_of(name), games)

        def values() -> list[list[tuple[float, int]]]:
            strata = self.pairs.strata_of(name)
            return [[(p / 2 / g, n) for (p, g), n in counts.items()] for counts in strata]

        return _share_interval(*sums, games, values)

    def fit(self, seed: int = 0) -> Fit:
        """The order-free Elo of every game counted now, from each pair's and each bot's
        sums (pair_fit: `order_free.rate`'s figures), kept as `last_fit`; run it outside any
        lock (it takes a while). `seed` is kept for callers: the fit draws nothing."""
        import time

        start = time.monotonic()
        del seed  # the fit draws nothing
        with self.lock:  # a snapshot: the sums are copied, then only read
            games = self.count
            names = sorted(self.bots)
            bots = {name: dataclasses.replace(tally) for name, tally in self.bots.items()}
            sums = self.pairs.sums(names)
        elo = _order_free(names, bots, sums)
        made = Fit(games, elo, time.monotonic() - start)
        with self.lock:
            if self.last_fit is None or self.last_fit.games <= games:
                self.last_fit = made
        return made


def _number(value: float) -> float | None:
    return None if math.isnan(value) else value


def _order_free(
    names: list[str], bots: dict[str, Tally], sums: PairSums
) -> dict[str, pair_fit.EloRating]:
    """The order-free Elo and its interval from the pairs' and the bots' sums (pair_fit)."""
    empty = Tally()
    chosen = [bots.get(name, empty) for name in names]
    each = pair_fit.BotSums(
        np.array([t.deals for t in chosen], dtype=np.float64),
        np.array([t.deal_points2 for t in chosen], dtype=np.float64),
        np.array([t.deal_cross for t in chosen], dtype=np.float64),
    )
    return pair_fit.fit(names, sums, each)


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
