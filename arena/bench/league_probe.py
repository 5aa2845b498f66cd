"""What a league server costs once its games are stored: the league opened as `arena serve`
opens it, in a process of its own (`python -m arena.bench.league_probe FOLDER [DB]`), then
its plain leaderboard, a bot's page served over HTTP on the loopback, the order-free fit
and matchmaking's choice of a table among its bots; printed as one JSON object. `league_synthetic.py` runs it at each checkpoint of its growth.

The process holds only what a server holds, so its resident memory is the server's: no
generator of synthetic games, no growing league beside it.
"""

from __future__ import annotations

import contextlib
import json
import random
import statistics
import sys
import time
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.league.league import League

PAGE_READS = 7
"""A bot's page is read this many times after a first read; the median is printed."""
TABLE_READS = 5
"""Tables chosen by matchmaking, timed; the median is printed."""


def rss_mib() -> tuple[float, float]:
    """This process's resident memory and its peak, in MiB (Linux: /proc/self/status)."""
    found = {}
    with contextlib.suppress(OSError):
        for text in Path("/proc/self/status").read_text().splitlines():
            key, _, value = text.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0]) / 1024
    return round(found.get("VmRSS", 0.0), 1), round(found.get("VmHWM", 0.0), 1)


def _median_ms(url: str) -> tuple[float, float]:
    """The first read of `url` and the median of PAGE_READS more, in ms."""
    took = []
    for _ in range(PAGE_READS + 1):
        start = time.perf_counter()
        with urllib.request.urlopen(url, timeout=120) as answer:
            answer.read()
        took.append((time.perf_counter() - start) * 1000)
    return round(took[0], 1), round(statistics.median(took[1:]), 1)


def _next_table_ms(league: League) -> float:
    """The median time matchmaking takes to choose a table among the active bots (of
    TABLE_READS), in ms, as the league chooses one (League._next_task)."""
    from arena.league.matchmaking import next_table

    labels = [bot.label for bot in league.store.bots("active")]
    played = {label: league.state.games_of(label) for label in labels}
    took = []
    for n in range(TABLE_READS):
        start = time.perf_counter()
        with league.lock:
            next_table(labels, played, league.ratings, league.seats, random.Random(n),
                       league.state.met())  # fmt: skip
        took.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(took), 1)


def probe(folder: Path, db: str | None) -> dict[str, Any]:
    """The league in `folder` (its store `db`, else its SQLite file) opened, served, fitted,
    in a process set up as `arena serve` sets up its own (`arena.allocator`)."""
    from arena.allocator import return_large_blocks
    from arena.league.league import League
    from arena.league.web import serving

    return_large_blocks()
    start = time.perf_counter()
    league = League(folder, workers=0, db=db)
    figures: dict[str, Any] = {"reopen_s": round(time.perf_counter() - start, 2)}
    figures["rss_open_mib"] = rss_mib()[0]
    try:
        start = time.perf_counter()
        rows = league.standings.rows()
        figures["board_ms"] = round((time.perf_counter() - start) * 1000, 2)
        figures["bots"] = len(rows)
        label = rows[len(rows) // 2]["bot"] if rows else ""
        fit = league.standings.fit()
        figures["fit_s"] = round(fit.seconds, 2)
        figures["table_ms"] = _next_table_ms(league)
        with serving(league) as url:
            figures["page_first_ms"], figures["page_ms"] = _median_ms(f"{url}/api/bots/{label}")
            figures["games_page_first_ms"], figures["games_page_ms"] = _median_ms(
                f"{url}/api/bots/{label}/games?page=2"
            )
            _median_ms(f"{url}/api/leaderboard")
        figures["rss_mib"], figures["rss_peak_mib"] = rss_mib()
    finally:
        league.close()
    return figures


if __name__ == "__main__":
    print(json.dumps(probe(Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else None)))
