"""`arena bench league`'s synthetic league: synthetic games of SYNTHETIC_BOTS bots stored
through `League.record`, no processes; then, while ARRIVE_PER_S games a second keep
arriving, a reader of the plain leaderboard; the cost of a game, how late a game is on the
board, the background Elo fit, the memory and a restart. The command is in `league.py`.
"""

from __future__ import annotations

import contextlib
import gc
import math
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from arena.league.league import League
    from arena.results.log import GameLine

SYNTHETIC_BOTS = 12
SYNTHETIC_GAMES = 100_000
GROW_TABLES = 1000
ARRIVE_S = 10.0
ARRIVE_PER_S = 200
READ_PLAIN_S = 0.05
UPDATE_SAMPLE = 100_000


def synthetic_lines(
    tables: int, bots: int = SYNTHETIC_BOTS, seats: int = 2, start: int = 0, seed: int = 1
) -> list[GameLine]:
    """The games of `tables` tables of a league of `bots` bots of spread strengths, as the
    league numbers them (table `start` on; each deal played once per rotation of the seats)
    and with every field a played game has (times, a histogram, a worker, a moment)."""
    from arena.results.log import GameLine

    rng = random.Random(seed + start)
    names = [f"bot{n:02d}" for n in range(bots)]
    lines = []
    for number in range(start, start + tables):
        table = rng.sample(names, seats)
        strength = {name: int(name[3:]) + rng.gauss(0, 4) for name in table}
        for n in range(seats):
            players = tuple(table[n:] + table[:n])
            scores = tuple(float(round(strength[name] * 3 + rng.gauss(20, 8))) for name in players)
            ranks = tuple(sorted(scores, reverse=True).index(score) for score in scores)
            faulty = n if rng.random() < 0.002 else None
            lines.append(
                GameLine(
                    seq=number * seats + n, game_id=f"L{number:07d}-g{n + 1}", players=players,
                    scores=scores, ranks=ranks,
                    termination="timeout" if faulty is not None else "normal", round=1,
                    table=number, game=n + 1, seed=rng.randrange(1 << 62),
                    winner=ranks.index(0) if ranks.count(0) == 1 else None,
                    end="deck_exhausted", reason="", faulty_seat=faulty, turns=rng.randrange(20, 60),
                    decisions=(20,) * seats, think_ms=tuple(rng.uniform(5, 50) for _ in players),
                    cpu_ms=tuple(rng.uniform(5, 50) for _ in players),
                    think_max_ms=tuple(rng.uniform(5, 90) for _ in players),
                    think_hist=tuple({"8": 12, "16": 6, "32": 2} for _ in players),
                    duration_ms=rng.uniform(100, 900), worker="local-1",
                    finished_at=f"2026-11-26T12:{number // 60 % 60:02d}:{number % 60:02d}.000000",
                )
            )  # fmt: skip
    return lines


def _rss_mib() -> tuple[float, float]:
    """This process's resident memory and its peak, in MiB (Linux: /proc/self/status)."""
    found = {}
    with contextlib.suppress(OSError):
        for text in Path("/proc/self/status").read_text().splitlines():
            key, _, value = text.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0]) / 1024
    return round(found.get("VmRSS", 0.0), 1), round(found.get("VmHWM", 0.0), 1)


def _grow(league: League, games: int, seats: int) -> float:
    """`games` synthetic games stored through `League.record`, a table at a time; the
    seconds it took."""
    from arena.execution import TableResult

    start, grown = time.perf_counter(), league.standings.count
    while grown < games:
        tables = min(GROW_TABLES, max(1, (games - grown) // seats))
        for number in range(0, tables):
            lines = synthetic_lines(1, seats=seats, start=grown // seats + number)
            league.record(TableResult(lines))
        grown = league.standings.count
    return time.perf_counter() - start


def synthetic(games: int, arrive_s: float = ARRIVE_S, seats: int = 2) -> dict[str, Any]:
    """A league grown to `games` synthetic games (SYNTHETIC_BOTS bots), recorded by
    `League.record` as played ones are (its SQLite store on a temporary folder, without
    fsync: its disk is not what is measured); then, while ARRIVE_PER_S games a second keep
    arriving for `arrive_s` s, a reader of the plain leaderboard every READ_PLAIN_S: how
    long each game took to be on it, and the background Elo fit; then the league opened
    again, as a restart does."""
    from arena.league.league import League

    with tempfile.TemporaryDirectory(prefix="arena-bench-synthetic-") as temporary:
        folder = Path(temporary) / "league"
        league = League(folder, seats=seats, workers=0)
        try:
            league.store.db.db.execute("PRAGMA synchronous=OFF")  # type: ignore[attr-defined]
            before = _rss_mib()[0]
            grew = _grow(league, games, seats)
            figures = {
                "games": league.standings.count,
                "bots": SYNTHETIC_BOTS,
                "seats": seats,
                "grow_s": round(grew, 1),
                "record_us_per_game": round(grew / max(1, league.standings.count) * 1e6, 1),
                **_watched(league, seats, arrive_s),
                **_update_cost(league),
                "rss_before_mib": before,
            }
            figures["rss_mib"], figures["rss_peak_mib"] = _rss_mib()
        finally:
            league.close()
        del league
        gc.collect()
        start = time.perf_counter()
        again = League(folder, workers=0)  # as a restart reads it
        figures["reopen_s"] = round(time.perf_counter() - start, 1)
        figures["reopen_rss_mib"] = _rss_mib()[0]
        again.close()
    return figures


def _watched(league: League, seats: int, arrive_s: float) -> dict[str, Any]:
    """The plain leaderboard while games keep arriving: how late each is on it."""
    from arena.league.boards import Boards

    grown = league.standings.count
    boards = Boards(league)
    first = time.perf_counter()
    boards.plain()
    first_s = time.perf_counter() - first
    board_s = _timed_rows(league, 20)
    stored: list[tuple[int, float]] = []
    seen: list[tuple[float, int]] = []
    stop = threading.Event()

    def reader() -> None:
        while not stop.is_set():
            rows = boards.plain()
            seen.append((time.perf_counter(), sum(r["games"] for r in rows) // seats))
            stop.wait(READ_PLAIN_S)

    watching = threading.Thread(target=reader, daemon=True)
    watching.start()
    until = time.perf_counter() + arrive_s
    while time.perf_counter() < until:
        due = time.perf_counter() + seats / ARRIVE_PER_S
        _grow(league, league.standings.count + seats, seats)
        stored.append((league.standings.count, time.perf_counter()))
        time.sleep(max(0.0, due - time.perf_counter()))
    time.sleep(2 * READ_PLAIN_S)
    stop.set()
    watching.join(timeout=60)
    late = _staleness(stored, seen)
    fit, total = league.standings.last_fit, league.standings.count
    return {
        "first_board_s": round(first_s, 4),
        "board_ms": round(board_s * 1000, 2),
        "arrived": total - grown,
        "arrive_per_s": ARRIVE_PER_S,
        "stale_median_ms": late[0],
        "stale_p95_ms": late[1],
        "stale_max_ms": late[2],
        "fit_s": None if fit is None else round(fit.seconds, 2),
        "fit_games": None if fit is None else fit.games,
        "fit_behind": None if fit is None else total - fit.games,
    }


def _update_cost(league: League) -> dict[str, float]:
    """The standings' update, and TrueSkill's, a game: the league's first UPDATE_SAMPLE games
    counted again by standings of their own."""
    from arena.league.standings import Standings
    from arena.results.ratings import environment, rate_game

    with league.lock:  # its first UPDATE_SAMPLE games, read from the store
        sample = [line for _, line in league.store.games_after(0, UPDATE_SAMPLE)]
    alone, ratings, env = Standings(), {}, environment()  # type: ignore[var-annotated]
    start = time.perf_counter()
    for line in sample:
        rate_game(env, ratings, line)
    rated = time.perf_counter() - start
    start = time.perf_counter()
    for line in sample:
        alone.add(line, ratings)
    counted = time.perf_counter() - start
    return {
        "standings_us_per_game": round(counted / max(1, len(sample)) * 1e6, 1),
        "trueskill_us_per_game": round(rated / max(1, len(sample)) * 1e6, 1),
    }


def _timed_rows(league: League, times: int) -> float:
    """The median time to make the plain board's rows from the standings."""
    took = []
    for _ in range(times):
        start = time.perf_counter()
        league.standings.rows()
        took.append(time.perf_counter() - start)
    return statistics.median(took)


def _staleness(stored: list[tuple[int, float]], seen: list[tuple[float, int]]) -> list[float]:
    """Median, p95 and largest time (ms) from a game stored to its being on the plain board."""
    late, at = [], 0
    for count, when in stored:
        while at < len(seen) and (seen[at][1] < count or seen[at][0] < when):
            at += 1
        if at == len(seen):
            break
        late.append(seen[at][0] - when)
    if not late:
        return [math.nan] * 3
    late.sort()
    return [round(late[len(late) // 2] * 1000, 1), round(late[int(0.95 * (len(late) - 1))] * 1000, 1),
            round(late[-1] * 1000, 1)]  # fmt: skip


def _print_synthetic(grown: dict[str, Any]) -> None:
    click.echo(
        f"synthetic league: {grown['games']:,} games of {grown['bots']} bots, tables of "
        f"{grown['seats']} (1,000,000: --synthetic-games 1000000), stored by League.record in "
        f"{grown['grow_s']} s: {grown['record_us_per_game']} µs a game (store, TrueSkill, "
        f"standings); the standings' own update {grown['standings_us_per_game']} µs a game "
        f"(TrueSkill {grown['trueskill_us_per_game']} µs)"
    )
    click.echo(
        f"  plain leaderboard: made from the standings in {grown['board_ms']} ms (the first, "
        f"with reading the bots, {grown['first_board_s']} s); {grown['arrived']} games arriving "
        f"at {grown['arrive_per_s']}/s, read every {READ_PLAIN_S * 1000:g} ms: a game on it "
        f"after median {grown['stale_median_ms']} ms, p95 {grown['stale_p95_ms']} ms, at most "
        f"{grown['stale_max_ms']} ms"
    )
    click.echo(
        f"  the Elo fit in the background: {grown['fit_s']} s, covering {grown['fit_games']} "
        f"games ({grown['fit_behind']} behind at the end)"
    )
    click.echo(
        f"  memory (RSS): {grown['rss_before_mib']} MiB before growing, {grown['rss_mib']} MiB "
        f"at {grown['games']:,} games (peak {grown['rss_peak_mib']} MiB); the league opened "
        f"again, as a restart does, in {grown['reopen_s']} s ({grown['reopen_rss_mib']} MiB)"
    )
