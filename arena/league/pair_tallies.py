"""Each pair of bots that met, kept compactly: a row of numbers a pair in flat arrays, no
Python object per pair (a league of 1,000 bots has up to 500,000 pairs).

A pair is unordered, its first bot the lesser label; every figure is the first's. Kept:

- `ahead`, `level`, `behind`: the games (meetings: two seats of one game) the first finished
  ahead of the second, level with it, behind it (the bot page's results against each
  other bot; their sum is the games the two met, which matchmaking balances);
- `strata`: at tables of two seats, the pair's tables by (the first's points counted twice,
  games), the strata of the win rate's interval (`standings.share_interval`), as STRATA
  counts for the usual values (a deal of one or two games) and `extra` for any other;
- the sums the order-free fit needs (arena/results/pair_fit.py), over the tables (deals)
  where both sat: `tables`, and with g the table's meetings of the two, p the first's
  points there (1 ahead, 0.5 level), P and G a bot's points and meetings there against
  every bot: `games` Σg, `points` Σp, `points2` Σp², `games2` Σg², `points_games` Σp·g,
  and Σ P(first)·g, Σ P(second)·g, Σ G(first)·g, Σ G(second)·g.

A table's figures change as its games arrive (`moved`, `seated`: from its old sums to its
new ones), so each sum is kept exact without keeping the tables. `dirty` lists the pairs changed since
the state was last written (league_state.py).
"""

from __future__ import annotations

import json
import sys
from array import array
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import numpy as np

from arena.league.pair_index import PairIndex
from arena.results.pair_fit import PairSums

Counts = dict[tuple[int, int], int]
"""Tables by (sum, games): a table's value is sum / games (ranks, or points counted twice)."""

STRATA = ((0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2), (3, 2), (4, 2))
"""The values a table of two seats usually has: one game or a deal of two."""
_SLOT = {value: slot for slot, value in enumerate(STRATA)}
_WIDTH = len(STRATA)
_BITS = 32
_LITTLE = sys.byteorder == "little"
"""A pair's key in `keys`: the first's number shifted by this, or'd with the second's."""


def ordered(a: str, b: str) -> tuple[str, str]:
    """The key of two bots' pair (in sorted order)."""
    return (a, b) if a <= b else (b, a)


class PairTallies:
    """The pairs that met, their figures in arrays indexed by pair number."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.number: dict[str, int] = {}
        """Each bot's number (the order it first met another)."""
        self.keys = PairIndex()
        """Pair number by (first's number << _BITS | second's)."""
        self.first, self.second = array("i"), array("i")
        self.ahead, self.level, self.behind = array("q"), array("q"), array("q")
        self.strata = array("i")
        self.extra: dict[int, Counts] = {}
        self.tables, self.games = array("q"), array("q")
        self.points, self.points2 = array("d"), array("d")
        self.games2, self.cross = array("d"), array("d")
        self.table_points = (array("d"), array("d"))
        """Σ P(first)·g and Σ P(second)·g."""
        self.table_games = (array("d"), array("d"))
        """Σ G(first)·g and Σ G(second)·g."""
        self.of_bot: list[array[int]] = []
        """The pairs each bot (by number) is in."""
        self.dirty: set[int] = set()
        self._order: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.first)

    def _bot(self, name: str) -> int:
        number = self.number.get(name)
        if number is None:
            number = len(self.names)
            self.names.append(name)
            self.of_bot.append(array("i"))
            self.number[name] = number  # last: a reader finds it whole
        return number

    def pair(self, first: str, second: str) -> int:
        """The number of the pair `first` < `second`, made if they never met."""
        a, b = self._bot(first), self._bot(second)
        key = a << _BITS | b
        found = self.keys.get(key)
        if found is not None:
            return found
        found = len(self.first)  # its figures first, then its key: a reader without the
        self.first.append(a)  # lock (matchmaking's view, a verdict) finds all or nothing
        self.second.append(b)
        for column in (self.ahead, self.level, self.behind, self.tables, self.games):
            column.append(0)
        for floats in (self.points, self.points2, self.games2, self.cross, *self.table_points,
                       *self.table_games):  # fmt: skip
            floats.append(0.0)
        self.strata.extend([0] * _WIDTH)
        self.of_bot[a].append(found)
        self.of_bot[b].append(found)
        self.keys.put(key, found)
        return found

    def find(self, first: str, second: str) -> int | None:
        """The number of the pair `first` < `second`; None if they never met."""
        a, b = self.number.get(first), self.number.get(second)
        if a is None or b is None:
            return None
        return self.keys.get(a << _BITS | b)

    def met(self, a: str, b: str) -> int:
        """Games `a` and `b` met (either order)."""
        found = self.find(*ordered(a, b))
        if found is None:
            return 0
        return self.ahead[found] + self.level[found] + self.behind[found]

    def count(self, pair: int, twice: int) -> None:
        """One meeting of `pair`: the first's points counted twice (2 ahead, 1 level, 0)."""
        column = self.ahead if twice == 2 else self.level if twice == 1 else self.behind
        column[pair] += 1
        self.dirty.add(pair)

    def moved(self, pair: int, old: tuple[int, int], new: tuple[int, int], two_seats: bool) -> None:
        """A table of `pair` went from `old` to `new` (the first's points counted twice,
        meetings; old (0, 0): the table is new); at `two_seats`, its strata too."""
        (p2_old, g_old), (p2_new, g_new) = old, new
        p_old, p_new = p2_old / 2, p2_new / 2
        if not g_old:
            self.tables[pair] += 1
        self.games[pair] += g_new - g_old
        self.points[pair] += p_new - p_old
        self.points2[pair] += p_new * p_new - p_old * p_old
        self.games2[pair] += g_new * g_new - g_old * g_old
        self.cross[pair] += p_new * g_new - p_old * g_old
        if two_seats:
            if g_old:
                self._stratum(pair, old, -1)
            self._stratum(pair, new, 1)

    def seated(
        self, pair: int, side: int, old: tuple[float, float, int], new: tuple[float, float, int]
    ) -> None:
        """At a table of `pair`, its first's (`side` 0) or second's (1) points and meetings
        against every bot, and the pair's meetings, went from `old` (P, G, g) to `new`."""
        (p_old, m_old, g_old), (p_new, m_new, g_new) = old, new
        self.table_points[side][pair] += p_new * g_new - p_old * g_old
        self.table_games[side][pair] += m_new * g_new - m_old * g_old
        self.dirty.add(pair)

    def _stratum(self, pair: int, value: tuple[int, int], change: int) -> None:
        slot = _SLOT.get(value)
        if slot is not None:
            self.strata[pair * _WIDTH + slot] += change
            return
        counts = self.extra.setdefault(pair, {})
        left = counts.get(value, 0) + change
        if left:
            counts[value] = left
        else:
            counts.pop(value, None)

    def _strata_of(self, pair: int) -> Counts:
        """The pair's tables by value, the first's view."""
        at = pair * _WIDTH
        counts = {
            value: n for value, n in zip(STRATA, self.strata[at : at + _WIDTH], strict=True) if n
        }
        counts.update(sorted(self.extra.get(pair, {}).items()))
        return counts

    def views(self, name: str) -> Iterator[tuple[str, int, bool]]:
        """Each pair `name` is in: the other bot, the pair's number, and whether `name` is
        its second (whose view is the first's turned round)."""
        number = self.number.get(name)
        if number is None:
            return
        for pair in self.of_bot[number]:
            mine = self.first[pair] == number
            other = self.names[self.second[pair] if mine else self.first[pair]]
            yield other, pair, not mine

    def against(self, name: str) -> list[tuple[str, int, int, int]]:
        """`name`'s results against each bot it met: (bot, ahead, level, behind)."""
        out = []
        for other, pair, turned in self.views(name):
            ahead, level, behind = self.ahead[pair], self.level[pair], self.behind[pair]
            out.append((other, *((behind, level, ahead) if turned else (ahead, level, behind))))
        return out

    def strata_of(self, name: str) -> list[Counts]:
        """`name`'s tables of two seats by value against each bot it met there: a table
        of (p, g) for the first is (2g - p, g) for the second. In the order of the other
        bots' labels, so the interval's sums are made in one order, after a restart too."""
        out = []
        for _, pair, turned in sorted(self.views(name)):
            counts = self._strata_of(pair)
            if counts:
                out.append(
                    {(2 * g - p, g): n for (p, g), n in counts.items()} if turned else counts
                )
        return out

    def share_sums(self) -> dict[str, tuple[int, float, int, float]]:
        """For each bot whose strata are all of the usual values (STRATA), in one pass over
        the pairs: its tables of two seats, the sum of their shares (points / 2 / games), its
        strata (opponents with a table) and the squares of the shares about each stratum's
        mean (none for a stratum of one value). `standings.share_interval` of the others."""
        if not len(self):
            return {}
        order = self._by_labels()  # the sums made in one order, after a restart too
        counts = np.array(self.strata, dtype=np.float64).reshape(-1, _WIDTH)[order]
        value = np.array([p / 2 / g for p, g in STRATA])
        tables = counts.sum(axis=1)
        shares = counts @ value
        spread = np.where(
            (counts > 0).sum(axis=1) > 1,
            counts @ (value * value) - shares * shares / np.maximum(tables, 1),
            0.0,
        )  # the same for the second bot, whose shares are 1 - the first's
        bots = len(self.names)
        ends = (
            np.array(self.first, dtype=np.int64)[order],
            np.array(self.second, dtype=np.int64)[order],
        )
        had = tables > 0
        out = {}
        totals = [np.bincount(end, weights, bots) for end in ends for weights in
                  (tables, had.astype(np.float64), spread)]  # fmt: skip
        first_shares = np.bincount(ends[0], shares, bots)
        second_shares = np.bincount(ends[1], tables - shares, bots)
        odd = {self.first[pair] for pair in self.extra} | {self.second[pair] for pair in self.extra}
        for number, name in enumerate(self.names):
            if number not in odd:
                out[name] = (
                    int(totals[0][number] + totals[3][number]),
                    float(first_shares[number] + second_shares[number]),
                    int(totals[1][number] + totals[4][number]),
                    float(totals[2][number] + totals[5][number]),
                )
        return out

    def _by_labels(self) -> np.ndarray:
        """The pairs in the order of their bots' labels (not of their first meetings, which
        a league reopened does not know), made again only when pairs were added."""
        if self._order is None or len(self._order) != len(self):
            place = np.argsort(np.argsort(np.array(self.names)))  # a bot's label's place
            first = place[np.array(self.first, dtype=np.int64)]
            second = place[np.array(self.second, dtype=np.int64)]
            self._order = np.lexsort((second, first))
        return self._order

    def sums(self, names: list[str]) -> PairSums:
        """The fit's input, copied: each pair's bots as indices into `names` (sorted as the
        labels are, so a pair's first has the lesser index; holding every bot that met
        another), the pairs in the order of those indices. Each column is read in place and
        copied once, in that order (hold the lock: a column read in place cannot grow)."""
        place = {name: n for n, name in enumerate(names)}
        where = np.array([place[name] for name in self.names], dtype=np.int64)
        first = where[np.frombuffer(self.first, np.int32)]
        second = where[np.frombuffer(self.second, np.int32)]
        order = np.lexsort((second, first))

        def ordered(column: array[Any]) -> np.ndarray:
            in_place = np.frombuffer(column, column.typecode)
            return in_place[order].astype(np.float64, copy=False)

        floats = [
            ordered(column)
            for column in (self.tables, self.games, self.points, self.points2, self.games2,
                           self.cross, *self.table_points, *self.table_games)
        ]  # fmt: skip
        return PairSums(first[order], second[order], *floats)

    # --- rows, as league_state.py writes and reads them ---

    def row(self, pair: int) -> tuple[Any, ...]:
        """The pair's row: first, second, ahead, level, behind, its tables of any other
        value than STRATA's (JSON), tables, games, points, points2, games2, points_games,
        first_points, second_points, first_games, second_games, and its tables of each value
        of STRATA."""
        extra = sorted(self.extra.get(pair, {}).items())
        odd = "[" + ",".join(f"[{p},{g},{n}]" for (p, g), n in extra) + "]"
        at = pair * _WIDTH
        return (
            self.names[self.first[pair]], self.names[self.second[pair]],
            self.ahead[pair], self.level[pair], self.behind[pair], odd,
            self.tables[pair], self.games[pair], self.points[pair], self.points2[pair],
            self.games2[pair], self.cross[pair], self.table_points[0][pair],
            self.table_points[1][pair], self.table_games[0][pair], self.table_games[1][pair],
            *self.strata[at : at + _WIDTH],
        )  # fmt: skip

    def load(self, rows: list[tuple[Any, ...]]) -> None:
        """Pairs read back, `row`'s columns each, a batch at a time: each column moved into
        its array at once, the keys and each bot's pairs made with numpy (a league's
        500,000 pairs in about a second)."""
        if not rows:
            return
        start = len(self.first)
        columns = list(zip(*rows, strict=True))
        for name in dict.fromkeys((*columns[0], *columns[1])):  # in the order met here
            self._bot(str(name))
        number = self.number
        firsts = np.array([number[str(name)] for name in columns[0]], dtype=np.int64)
        seconds = np.array([number[str(name)] for name in columns[1]], dtype=np.int64)
        numbers = (self.ahead, self.level, self.behind, None, self.tables, self.games,
                   self.points, self.points2, self.games2, self.cross, *self.table_points,
                   *self.table_games)  # fmt: skip
        for at, column in enumerate(numbers, 2):
            if column is not None:
                column.extend(columns[at])
        strata = np.array(columns[16 : 16 + _WIDTH], dtype=np.int32).T  # a row a pair
        self.strata.frombytes(np.ascontiguousarray(strata).tobytes())
        self.first.frombytes(firsts.astype(np.int32).tobytes())  # the figures first, then
        self.second.frombytes(seconds.astype(np.int32).tobytes())  # the ways to find them
        self._index(firsts, seconds, start)
        for at, odd in enumerate(columns[5]):
            if odd != "[]":  # a value of another kind: rare
                for p, g, n in json.loads(odd):
                    self._stratum(start + at, (p, g), n)

    # --- a snapshot, as league_state.py writes and reads it ---

    def parts(self) -> dict[str, bytes]:
        """Every figure as a part of a snapshot: each column's little-endian bytes, the
        bots' names and the odd strata as JSON (`from_parts` reads them back)."""
        parts = {name: _little(column) for name, column in self._columns().items()}
        parts["names"] = json.dumps(self.names).encode()
        odd = [[pair, [[p, g, n] for (p, g), n in sorted(counts.items())]]
               for pair, counts in sorted(self.extra.items())]  # fmt: skip
        parts["odd"] = json.dumps(odd).encode()
        return parts

    @classmethod
    def from_parts(cls, part: Callable[[str], bytes]) -> PairTallies:
        """The tallies a snapshot holds, `part` giving each part by name (one at a time:
        never the whole snapshot in memory beside the arrays); KeyError, ValueError or
        TypeError if one is missing, of the wrong size or kind (then the rows are read)."""
        made = cls()
        for name in json.loads(part("names")):
            made._bot(str(name))
        columns = made._columns()
        for name, column in columns.items():
            column.frombytes(_native(part(name), column.typecode))
        count = len(made.first)
        if any(len(c) != count * (_WIDTH if n == "strata" else 1) for n, c in columns.items()):
            raise ValueError("a snapshot's columns differ in length")
        firsts = np.array(made.first, dtype=np.int64)
        seconds = np.array(made.second, dtype=np.int64)
        made._index(firsts, seconds, 0)
        for pair, counts in json.loads(part("odd")):
            made.extra[int(pair)] = {(int(p), int(g)): int(n) for p, g, n in counts}
        return made

    def _columns(self) -> dict[str, array[Any]]:
        return {
            "first": self.first, "second": self.second, "ahead": self.ahead,
            "level": self.level, "behind": self.behind, "strata": self.strata,
            "tables": self.tables, "games": self.games, "points": self.points,
            "points2": self.points2, "games2": self.games2, "cross": self.cross,
            "first_points": self.table_points[0], "second_points": self.table_points[1],
            "first_games": self.table_games[0], "second_games": self.table_games[1],
        }  # fmt: skip

    def _index(self, firsts: np.ndarray, seconds: np.ndarray, start: int) -> None:
        """Each bot's pairs and every pair's key, for the pairs numbered from `start` whose
        bots are `firsts` and `seconds` (their figures in place)."""
        pairs = np.arange(start, start + len(firsts), dtype=np.int64)
        ends, each = np.concatenate((firsts, seconds)), np.concatenate((pairs, pairs))
        order = np.lexsort((each, ends))  # each bot's pairs in the order of their numbers
        ends, each = ends[order], each[order].astype(np.int32)
        bounds = np.searchsorted(ends, np.arange(len(self.names) + 1))
        for bot in np.unique(ends).tolist():
            self.of_bot[bot].frombytes(each[bounds[bot] : bounds[bot + 1]].tobytes())
        self.keys.update(firsts << _BITS | seconds, pairs)


def _little(column: array[Any]) -> bytes:
    """A column's numbers as little-endian bytes."""
    if _LITTLE:
        return column.tobytes()
    turned = array(column.typecode, column)
    turned.byteswap()
    return turned.tobytes()


def _native(data: bytes, typecode: str) -> bytes:
    """Little-endian bytes of numbers of `typecode`, in this machine's order."""
    if _LITTLE:
        return data
    turned = array(typecode, data)
    turned.byteswap()
    return turned.tobytes()


class MetView(Mapping[tuple[str, str], int]):
    """Games each pair met, by its sorted key (matchmaking's `met`), read from the tallies."""

    def __init__(self, tallies: PairTallies) -> None:
        self.tallies = tallies

    def __getitem__(self, key: tuple[str, str]) -> int:
        found = self.tallies.find(*key)
        if found is None:
            raise KeyError(key)
        return self.tallies.met(*key)

    def get(self, key: tuple[str, str], default: Any = None) -> Any:
        """The games the pair `key` (in sorted order, as matchmaking asks) met; lean: at a
        thousand bots matchmaking asks 500,000 times a table."""
        tallies = self.tallies
        number = tallies.number
        a, b = number.get(key[0]), number.get(key[1])
        found = None if a is None or b is None else tallies.keys.get(a << _BITS | b)
        if found is None:
            return default
        return tallies.ahead[found] + tallies.level[found] + tallies.behind[found]

    def arrays(self, where: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each pair's bots, as `where` places each bot number (its first's and second's
        place), and the games it met, copied (matchmaking, holding the league's lock)."""
        tallies = self.tallies
        place = np.array(where, dtype=np.int64)
        first = place[np.array(tallies.first, dtype=np.int64)]
        second = place[np.array(tallies.second, dtype=np.int64)]
        games = np.array(tallies.ahead, dtype=np.int64)
        games += np.array(tallies.level, dtype=np.int64)
        games += np.array(tallies.behind, dtype=np.int64)
        return first, second, games

    def __iter__(self) -> Iterator[tuple[str, str]]:
        names = self.tallies.names
        for a, b in zip(self.tallies.first, self.tallies.second, strict=True):
            yield names[a], names[b]

    def __len__(self) -> int:
        return len(self.tallies)
