"""95% intervals that hold at small samples (issue 23), checked by the coverage simulations
of arena/stats/coverage.py (`arena bench stats` prints them).

The games of one table share a deal, and its luck reaches every one of them, so they are
not independent: a mean over games is judged by its tables.

- A mean place is a Student t interval over the tables' mean places, kept within 1..seats
  (a bot that finished in the same place at every table gets Wilson's width, not none).
- A share (a win rate, the points of a head to head) is Wilson's interval with the number
  of tables its spread is worth (the design effect of survey statistics) and Student's t
  for the quantile: draws and seat-swapped deals make a table's share steadier than a coin
  (a Wilson interval over games was 97-98.5% wide), and the spread is measured within
  strata (the opponent; the other seats of the table) that a round robin fills equally.

Below `MIN_TABLES_MEAN` or `MIN_TABLES_SHARE` tables no interval is honest: None, which
the tables print as "too few games".
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from arena.stats.elo import Z95

MIN_TABLES_MEAN = 6
"""Fewest tables for a mean place's interval: with fewer, the simulated coverage falls
below 93% (3 seats: 91% at 3 tables; 4 seats: 84% at 2)."""
MIN_TABLES_SHARE = 6
"""Fewest tables for a share's interval: with fewer, it is too wide to be honest (98-99.5%
at 3 to 5 tables)."""

_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
         2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
         2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)  # fmt: skip
"""Student's t, 97.5% quantile, for 1 to 30 degrees of freedom."""


def t975(df: int) -> float:
    """Student's t 97.5% quantile for `df` degrees of freedom (Cornish–Fisher beyond 30)."""
    if df < 1:
        return math.inf
    if df <= len(_T975):
        return _T975[df - 1]
    z = Z95
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion of `successes` in `n` trials ((0, 1) if n = 0)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(max(p * (1 - p) / n + z2 / (4 * n * n), 0.0)) / (1 + z2 / n)
    lo = 0.0 if successes <= 0 else max(0.0, centre - half)
    hi = 1.0 if successes >= n else min(1.0, centre + half)
    return (lo, hi)


def mean_interval(
    tables: Sequence[float], games: int, low: float, high: float
) -> tuple[float, float] | None:
    """The 95% interval of a mean place (from `low` to `high`) from each table's mean over
    `games` games in all; None below `MIN_TABLES_MEAN` tables."""
    count = len(tables)
    if count < MIN_TABLES_MEAN:
        return None
    mean = sum(tables) / count
    spread = statistics.stdev(tables)
    if spread <= 0:  # the same place at every table: Wilson's width on the scaled mean
        share = (mean - low) / (high - low)
        extreme = share in (0.0, 1.0)
        lo, hi = wilson(share * (count if extreme else games), count if extreme else games)
        return (low + lo * (high - low), low + hi * (high - low))
    half = t975(count - 1) * spread / math.sqrt(count)
    return (max(low, mean - half), min(high, mean + half))


def share_interval(strata: Mapping[Any, Sequence[float]], games: int) -> tuple[float, float] | None:
    """The 95% interval of a share (0 to 1) from each table's share, grouped in strata (the
    opponent, the table's other seats), and the `games` behind them; None below
    `MIN_TABLES_SHARE` tables."""
    tables = [share for shares in strata.values() for share in shares]
    count = len(tables)
    if count < MIN_TABLES_SHARE:
        return None
    share = sum(tables) / count
    free = count - len(strata)
    if free >= 2:  # the spread within strata: a round robin fills each one equally
        squares = sum(
            (value - sum(shares) / len(shares)) ** 2
            for shares in strata.values()
            for value in shares
        )
        spread = squares / free
    else:
        spread = statistics.variance(tables)
    coin = share * (1 - share)
    if coin <= 0:
        effective = float(count)  # every table the same extreme: as many coins as tables
    elif spread <= 0:
        effective = float(games)  # every table the same share: no more than the games
    else:
        effective = count * coin / spread
    return wilson(share * effective, effective, t975(count - 1))
