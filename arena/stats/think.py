"""Think times per decision kept as small log-scale histograms, so a games log can give each
bot's p95 over a whole tournament without storing every decision.

Bucket b holds the times in (0.01 ms × 1.25^(b-1), 0.01 ms × 1.25^b]; a percentile read from
the histogram is the upper edge of its bucket, so it is at most 25% above the exact one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

RATIO = 1.25
FLOOR_MS = 0.01

Histogram = dict[str, int]
"""Bucket number (as text, for JSON) → how many decisions."""


def bucket(ms: float) -> int:
    return 0 if ms <= FLOOR_MS else math.ceil(math.log(ms / FLOOR_MS, RATIO) - 1e-12)


def histogram(times: Iterable[float]) -> Histogram:
    out: Histogram = {}
    for ms in times:
        key = str(bucket(ms))
        out[key] = out.get(key, 0) + 1
    return out


def merge(histograms: Iterable[Mapping[str, int]]) -> Histogram:
    out: Histogram = {}
    for part in histograms:
        for key, count in part.items():
            out[key] = out.get(key, 0) + int(count)
    return out


def percentile(hist: Mapping[str, int], share: float) -> float | None:
    """The time under which `share` of the decisions stayed (a bucket's upper edge)."""
    total = sum(hist.values())
    if not total:
        return None
    seen = 0
    for key in sorted(hist, key=int):
        seen += hist[key]
        if seen >= share * total:
            return FLOOR_MS * RATIO ** int(key)
    return None
