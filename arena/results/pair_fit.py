"""The order-free Elo from sums: a Bradley–Terry fit of every meeting at once, made from a
few sums per pair of bots that met and per bot, never from the games themselves.

Each game of k seats counts as its k(k-1)/2 meetings of two seats: the better rank scores 1,
a tie 0.5 each (order_free.py says why). The fit and its interval need only `PairSums` and
`BotSums`, so their cost grows with the pairs that met, not with the games, and a league keeps
the sums running: `table_sums` gives what one table (deal) adds to them.

The maximum is found by Newton's method on the log-likelihood, with one drawn game between
every two bots as a weak prior: the maximum Hunter's MM iteration finds, to 1e-6 Elo, in a
dozen steps rather than hundreds. Only the pairs' points are held as a dense n×n array (8 n²
bytes), every other sum per pair; with the algebra's own arrays, about eight n×n ones at the
peak: 61 MiB at 1,000 bots (measured; 107 MiB when every sum was dense), 1.5 GiB at 5,000.

The 95% interval is a sandwich (cluster-robust) one, the unit being the table: the
curvature of the fit, and the spread of the score over the tables. A pair's spread is a
ratio estimator's, Σ_t (p_t − r g_t)² (r its fitted chance). At tables of more than two
seats a bot's meetings at one table move together (the bot that came first beat everyone),
which per pair sums cannot see: `BotSums` and the tables' points of each bot in `PairSums`
give that part, Σ_t Σ_{j≠l} (p_tj − ρ g_tj)(p_tl − r_l g_tl) over the bot's opponents j, l
(ρ: its score over all its meetings; unbiased whatever ρ is, and steady because the
opponents' chances average to it). Each bot's part of the spread is scaled by it (never
down), and its interval is Student's t with (tables it sat at − 1) degrees of freedom.

choix's dense ILSR takes the half points too and finds the same maximum (to 1e-9 Elo:
tests/test_cross_check.py), with half the CPU time at 1,000 bots (0.31 s against 0.60); it is
not used, because importing it (scipy) took 1.9 s here, where a usual field's fit takes a few
milliseconds, and the interval needs the curvature, which it does not give.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields

import numpy as np

from arena.results.log import GameLine
from arena.stats.intervals import t975

PRIOR_DRAWS = 1.0
"""Drawn games added between every two bots (a weak prior that keeps ratings finite)."""
MIN_MEETINGS = 100
"""Fewest meetings (two seats of one game) a bot needs for its interval; with fewer, its
interval is NaN, which the tables print as "too few games" (issue 23). From it the sandwich
held the truth in 93-97% of simulated tournaments (`arena bench stats`, 200 a row; 92.9% and
97.9% in two rows of one seed, 94.4-96.3% at two others). Below it, with this gate off, it
was never short (93.8-100%) but too wide at the fewest tables: 99.9% at 3 three-seat tables
a bot, 100% at 2 four-seat tables."""
SCALE = 400.0 / math.log(10.0)
"""Elo per unit of natural log-strength."""


@dataclass(frozen=True)
class EloRating:
    """One bot's order-free Elo (the field's mean is 0) and its 95% interval (NaN below
    `MIN_MEETINGS` meetings or 2 tables)."""

    elo: float
    low: float
    high: float


@dataclass(frozen=True)
class PairSums:
    """One entry per unordered pair of bots that met (first < second, indexes into names).
    The sums run over the tables t (deals) where the two met: p_t and g_t are the first's
    points and the two's meetings there, P_t and G_t a bot's points and meetings there
    against every bot."""

    first: np.ndarray
    """int64 bot index."""
    second: np.ndarray
    """int64 bot index."""
    tables: np.ndarray
    """float64: tables (deals) where both sat at least once together."""
    games: np.ndarray
    """float64: Σ_t g_t, meetings of the two (a game of k seats: each two seats meet once)."""
    points: np.ndarray
    """float64: Σ_t p_t, first's points in those meetings (1 better rank, 0.5 same, 0 worse)."""
    points2: np.ndarray
    """float64: Σ_t p_t²."""
    games2: np.ndarray
    """float64: Σ_t g_t²."""
    cross: np.ndarray
    """float64: Σ_t p_t·g_t."""
    first_table_points: np.ndarray
    """float64: Σ_t P_t(first)·g_t."""
    second_table_points: np.ndarray
    """float64: Σ_t P_t(second)·g_t."""
    first_table_games: np.ndarray
    """float64: Σ_t G_t(first)·g_t."""
    second_table_games: np.ndarray
    """float64: Σ_t G_t(second)·g_t."""

    @classmethod
    def collect(
        cls, names: Sequence[str], rows: Mapping[tuple[str, str], Sequence[float]]
    ) -> PairSums:
        """The sums from rows of `PAIR_FIELDS` by pair of names in sorted order (as
        `table_sums` gives them); `names` needs not be sorted."""
        index = {name: i for i, name in enumerate(names)}
        pairs, values = [], []
        for (a, b), row in rows.items():
            i, j = index[a], index[b]
            pairs.append((i, j) if i < j else (j, i))
            values.append(list(row) if i < j else _turned(row))
        ends = np.array(pairs, dtype=np.int64).reshape(-1, 2)
        order = np.lexsort((ends[:, 1], ends[:, 0]))
        ends = ends[order]
        columns = np.array(values, dtype=np.float64).reshape(-1, len(PAIR_FIELDS))[order]
        return cls(ends[:, 0], ends[:, 1], *columns.T)


PAIR_FIELDS = tuple(field.name for field in fields(PairSums))[2:]
"""The sums a pair keeps, in the order `table_sums` gives them."""


def _turned(row: Sequence[float]) -> list[float]:
    """A pair's row of `PAIR_FIELDS` seen from its second bot."""
    tables, games, points, points2, games2, cross, first_p, second_p, first_g, second_g = row
    return [
        tables, games, games - points, games2 - 2 * cross + points2, games2, games2 - cross,
        second_p, first_p, second_g, first_g,
    ]  # fmt: skip


@dataclass(frozen=True)
class BotSums:
    """One entry per bot (by index into names): sums over the tables t it sat at, P_t and G_t
    being its points and meetings there against every bot."""

    tables: np.ndarray
    """float64: tables (deals) it sat at."""
    points2: np.ndarray
    """float64: Σ_t P_t²."""
    cross: np.ndarray
    """float64: Σ_t P_t·G_t."""

    @classmethod
    def collect(cls, names: Sequence[str], rows: Mapping[str, Sequence[float]]) -> BotSums:
        """The sums from rows of `BOT_FIELDS` by name (a bot without one never played)."""
        empty = (0.0,) * len(BOT_FIELDS)
        columns = np.array([rows.get(name, empty) for name in names], dtype=np.float64)
        return cls(*columns.reshape(-1, len(BOT_FIELDS)).T)


BOT_FIELDS = tuple(field.name for field in fields(BotSums))
"""The sums a bot keeps, in the order `table_sums` gives them."""

TableSums = tuple[dict[tuple[str, str], tuple[float, ...]], dict[str, tuple[float, ...]]]
"""What one table adds to each pair's sums (`PAIR_FIELDS`, names in sorted order) and to each
bot's (`BOT_FIELDS`)."""


def table_sums(games: Iterable[GameLine]) -> TableSums:
    """What the games of one table (deal) add to the sums: add each figure to the pair's or
    the bot's running sum. Games of a table that arrive one by one: add the table's sums
    with the new game, less its sums without it (each sum is one table's figure)."""
    games = list(games)
    names = sorted({name for line in games for name in line.players})
    pairs, bots = meeting_sums(len(names), *_meetings(games, names, lambda line: 0))
    pair_rows = {
        (names[i], names[j]): tuple(float(getattr(pairs, column)[k]) for column in PAIR_FIELDS)
        for k, (i, j) in enumerate(zip(pairs.first.tolist(), pairs.second.tolist(), strict=True))
    }
    bot_rows = {
        name: tuple(float(getattr(bots, column)[i]) for column in BOT_FIELDS)
        for i, name in enumerate(names)
        if bots.tables[i]
    }
    return pair_rows, bot_rows


def pair_sums(games: Iterable[GameLine], names: Sequence[str]) -> tuple[PairSums, BotSums]:
    """The sums of every pair and every bot over `games`, tables grouped by (round, table);
    `names` holds every player."""
    games = list(games)
    deals = {deal: i for i, deal in enumerate(sorted({(g.round, g.table) for g in games}))}
    return meeting_sums(len(names), *_meetings(games, names, lambda g: deals[g.round, g.table]))


def _meetings(
    games: list[GameLine], names: Sequence[str], table: Callable[[GameLine], int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every two seats of every game as a meeting, for `meeting_sums`: the better rank
    scores 1, a tie 0.5 each (a bot seated twice does not meet itself)."""
    index = {name: i for i, name in enumerate(names)}
    found: list[tuple[int, int, int, float]] = []
    for line in games:
        number, players, ranks = table(line), line.players, line.ranks
        for i in range(len(players)):
            for j in range(i + 1, len(players)):
                a, b = index[players[i]], index[players[j]]
                if a == b:
                    continue
                mine = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
                found.append((number, a, b, mine) if a < b else (number, b, a, 1.0 - mine))
    tables, first, second = (np.array([row[k] for row in found], dtype=np.int64) for k in range(3))
    return tables, first, second, np.array([row[3] for row in found], dtype=np.float64)


def meeting_sums(
    size: int, table: np.ndarray, first: np.ndarray, second: np.ndarray, points: np.ndarray
) -> tuple[PairSums, BotSums]:
    """The sums of a field of `size` bots from its meetings, each counted once: the table
    (deal) it was at (a number from 0), its two bots (first < second) and first's points."""
    square = size * size
    at_pair = table.astype(np.int64) * square + first * size + second
    groups, which = np.unique(at_pair, return_inverse=True)  # (table, pair): p_t, g_t
    p = np.bincount(which, points, len(groups))
    g = np.bincount(which, minlength=len(groups)).astype(np.float64)
    deal, pair = groups // square, groups % square
    a, b = pair // size, pair % size
    seats = np.concatenate([table * size + first, table * size + second])
    seated, where = np.unique(seats, return_inverse=True)  # (table, bot): P_t, G_t
    mine = np.bincount(where, np.concatenate([points, 1.0 - points]), len(seated))
    met = np.bincount(where, minlength=len(seated)).astype(np.float64)
    at_a = np.searchsorted(seated, deal * size + a)
    at_b = np.searchsorted(seated, deal * size + b)
    pairs, each = np.unique(pair, return_inverse=True)

    def total(values: np.ndarray) -> np.ndarray:
        return np.bincount(each, values, len(pairs))

    pair_sums = PairSums(
        pairs // size, pairs % size, total(np.ones_like(g)), total(g), total(p), total(p * p),
        total(g * g), total(p * g), total(mine[at_a] * g), total(mine[at_b] * g),
        total(met[at_a] * g), total(met[at_b] * g),
    )  # fmt: skip
    bot = seated % size
    bot_sums = BotSums(
        np.bincount(bot, minlength=size).astype(np.float64),
        np.bincount(bot, mine * mine, size),
        np.bincount(bot, mine * met, size),
    )
    return pair_sums, bot_sums


def fit(names: Sequence[str], pairs: PairSums, bots: BotSums) -> dict[str, EloRating]:
    """The order-free Elo of each bot (mean 0) with its 95% interval."""
    size = len(names)
    if size < 2:
        return {name: EloRating(0.0, 0.0, 0.0) for name in names}
    field = _Field(size, pairs)
    strength, inverse = field.maximum()
    elo = SCALE * strength
    met = field.row_sums(pairs.games, pairs.games)
    given = (met >= MIN_MEETINGS) & (bots.tables >= 2)
    half = np.full(size, math.nan)
    if given.any():
        variance = field.variance(strength, inverse, bots)
        tables = np.where(given, bots.tables, 2.0)
        quantile = np.array([t975(int(n) - 1) for n in tables])
        half = np.where(given, SCALE * quantile * np.sqrt(variance * tables / (tables - 1)), half)
    return {
        name: EloRating(float(elo[i]), float(elo[i] - half[i]), float(elo[i] + half[i]))
        for i, name in enumerate(names)
    }


def elo(names: Sequence[str], pairs: PairSums) -> dict[str, float]:
    """The order-free Elo of each bot (mean 0), without intervals."""
    if len(names) < 2:
        return dict.fromkeys(names, 0.0)
    strength, _ = _Field(len(names), pairs).maximum()
    return {name: float(SCALE * value) for name, value in zip(names, strength, strict=True)}


class _Field:
    """The pairs' points as a dense n×n array, each row seen from its bot ([i, j] is i's
    points against j); every other sum is kept per pair and gathered by bot when needed, so
    the fit's n×n arrays are those its algebra needs, no more."""

    def __init__(self, size: int, pairs: PairSums) -> None:
        self.size = size
        self.pairs = pairs
        self.points = self.square(pairs.points, pairs.games - pairs.points)

    def square(self, mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
        """A per pair figure as an n×n array: the first's at [first, second], the second's
        at [second, first]."""
        out = np.zeros((self.size, self.size))
        out[self.pairs.first, self.pairs.second] = mine
        out[self.pairs.second, self.pairs.first] = theirs
        return out

    def row_sums(self, mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
        """`square(mine, theirs).sum(axis=1)`, without the square."""
        first, second, size = self.pairs.first, self.pairs.second, self.size
        return np.bincount(first, mine, size) + np.bincount(second, theirs, size)

    def maximum(self) -> tuple[np.ndarray, np.ndarray]:
        """The log-strengths (mean 0) at the maximum, and the pseudo-inverse of the
        curvature there (strengths are free up to a constant)."""
        won = self.points + PRIOR_DRAWS / 2
        np.fill_diagonal(won, 0.0)
        met = won + won.T
        strength = np.zeros(self.size)
        gauge = np.full((self.size, self.size), 1.0 / self.size)
        chance = _chance(strength)
        likelihood = _likelihood(won, chance)
        for _ in range(100):
            slope = (won - met * chance).sum(axis=1)
            step = _newton_step(met * chance * (1.0 - chance), slope)
            for _ in range(60):  # Newton's step, halved while it does not climb
                tried = strength + step
                tried_chance = _chance(tried)
                better = _likelihood(won, tried_chance)
                if better >= likelihood - 1e-12 * abs(likelihood):
                    break
                step /= 2
            strength, chance, likelihood = tried - tried.mean(), tried_chance, better
            if np.abs(step).max() < 1e-11:
                break
        curvature = _laplacian(met * chance * (1.0 - chance))
        return strength, np.linalg.inv(curvature + gauge) - gauge

    def variance(self, strength: np.ndarray, inverse: np.ndarray, bots: BotSums) -> np.ndarray:
        """The sandwich variance of each log-strength: inverse·B·inverse, B the spread of
        the score over the tables (each pair's, each bot's part scaled by its tables' own
        spread)."""
        pairs = self.pairs
        first, second = pairs.first, pairs.second
        chance = _chance(strength)
        mine, theirs = chance[first, second], chance[second, first]  # each seen from its bot
        g2, pg, p2 = pairs.games2, pairs.cross, pairs.points2
        points2 = (p2, g2 - 2 * pg + p2)
        cross = (pg, g2 - pg)
        meat = _laplacian(
            np.maximum(
                self.square(
                    points2[0] - 2.0 * mine * cross[0] + mine**2 * g2,
                    points2[1] - 2.0 * theirs * cross[1] + theirs**2 * g2,
                ),
                0.0,
            )
        )
        alone = np.diag(meat).copy()
        games = self.row_sums(pairs.games, pairs.games)
        points = self.row_sums(pairs.points, pairs.games - pairs.points)
        rate = np.divide(points, games, out=np.zeros(self.size), where=games > 0)
        centred = (
            bots.points2
            - rate * bots.cross
            - self.row_sums(mine * pairs.first_table_points, theirs * pairs.second_table_points)
            + rate
            * self.row_sums(mine * pairs.first_table_games, theirs * pairs.second_table_games)
        )
        rate_f, rate_s = rate[first], rate[second]
        own = self.row_sums(
            points2[0] - (rate_f + mine) * cross[0] + rate_f * mine * g2,
            points2[1] - (rate_s + theirs) * cross[1] + rate_s * theirs * g2,
        )
        together = centred - own  # the bot's meetings of one table moving together
        scale = np.ones(self.size)
        np.divide(alone + together, alone, out=scale, where=alone > 0)
        root = np.sqrt(np.maximum(scale, 1.0))
        meat *= root[:, None] * root[None, :]
        variance: np.ndarray = np.maximum(((inverse @ meat) * inverse).sum(axis=1), 0.0)
        return variance


def _newton_step(weight: np.ndarray, slope: np.ndarray) -> np.ndarray:
    """x with _laplacian(weight) x = slope and mean 0, by conjugate gradients preconditioned
    by the diagonal: a product by the n×n matrix a step, where a solve costs n³ (a field
    whose groups barely met converges slowly: then the solve)."""
    degree = weight.sum(axis=1) - np.diag(weight)
    scale = np.abs(slope).max()
    x = np.zeros_like(slope)
    if scale == 0:
        return x
    left = slope.copy()
    along = left / degree
    agreed = left @ along
    for _ in range(200):
        moved = degree * along - weight @ along + np.diag(weight) * along + along.mean()
        length = agreed / (along @ moved)
        x += length * along
        left -= length * moved
        if np.abs(left).max() < 1e-13 * scale:
            centred: np.ndarray = x - x.mean()
            return centred
        turned = left / degree
        agreed, before = left @ turned, agreed
        along = turned + agreed / before * along
    gauge = np.full(weight.shape, 1.0 / len(slope))
    solved: np.ndarray = np.linalg.solve(_laplacian(weight) + gauge, slope)
    return solved


def _chance(strength: np.ndarray) -> np.ndarray:
    """chance[i, j]: i's expected points against j."""
    chance: np.ndarray = strength[None, :] - strength[:, None]  # one n×n array, in place
    np.exp(chance, out=chance)
    chance += 1.0
    np.reciprocal(chance, out=chance)
    return chance


def _likelihood(won: np.ndarray, chance: np.ndarray) -> float:
    """The log-likelihood of the points `won` (the prior's included) at `chance`."""
    with np.errstate(divide="ignore"):  # log 0 on the diagonal, where nothing was won
        logs = np.log(chance)
    np.fill_diagonal(logs, 0.0)
    logs *= won
    return float(logs.sum())


def _laplacian(weight: np.ndarray) -> np.ndarray:
    """Σ_{i<j} w_ij (e_i − e_j)(e_i − e_j)ᵀ of a symmetric weight matrix (diagonal ignored)."""
    out = -weight
    out[np.diag_indices_from(out)] = weight.sum(axis=1) - np.diag(weight)
    return out
