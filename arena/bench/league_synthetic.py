"""`arena bench league`'s synthetic league: synthetic games of `--bots` bots (SYNTHETIC_BOTS
unless told; synthetic_games.py) grown in bulk (league_grow.py), no bot processes, on SQLite
or PostgreSQL (`--db`). At each checkpoint (`checkpoints`: 100,000, 1,000,000, 10,000,000
... and the last) the league writes its pairs' snapshot as a league stopping does, and a
server process of its own opens it as a restart does and reports what it cost
(league_probe.py: reopening, its memory, the board, a bot's page, the order-free fit,
matchmaking); then RECORD_SAMPLE games recorded by `League.record`, as played games are
(its cost beside the bulk's), and while ARRIVE_PER_S games a second keep arriving, a reader
of the plain leaderboard: how late a game is on it. Printed beside issue 45's targets. The
command is in `league.py`.
"""

from __future__ import annotations

import contextlib
import json
import math
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from arena.bench.league_grow import BULK_TABLES, GROW_CACHE_MIB
from arena.bench.synthetic_games import SYNTHETIC_BOTS, synthetic_lines, synthetic_names
from arena.errors import ArenaError

if TYPE_CHECKING:
    from arena.league.league import League

SYNTHETIC_GAMES = 100_000
GROW_TABLES = 1000
RECORD_SAMPLE = 20_000
"""Games recorded by `League.record`, GROW_TABLES tables a call, once the league is grown:
its cost a game beside the bulk growth's."""
ARRIVE_S = 10.0
ARRIVE_PER_S = 200
READ_PLAIN_S = 0.05
UPDATE_SAMPLE = 100_000
RSS_TARGET_MIB = 300
REOPEN_TARGET_S = 5
PAGE_TARGET_MS = 200
FIT_TARGET_S = 10
STALE_TARGET_S = 2
"""Issue 45's targets at 10,000,000 games of 1,000 bots: the server's memory, reopening,
a bot's page, the order-free fit, a stored game on the plain board."""


def _grow(league: League, games: int, seats: int, bots: int) -> float:
    """Synthetic games stored through `League.record` until the league has `games`,
    GROW_TABLES tables a call; the seconds it took."""
    from arena.execution import TableResult

    start, grown = time.perf_counter(), league.standings.count
    while grown < games:
        tables = min(GROW_TABLES, max(1, (games - grown) // seats))
        league.record(TableResult(synthetic_lines(tables, bots, seats, start=grown // seats)))
        grown = league.standings.count
    return time.perf_counter() - start


def _enter(league: League, bots: int) -> None:
    """The synthetic bots entered in the league's store as active versions of one author,
    so that their pages are served (their folders stay empty: nothing plays them)."""
    store = league.store
    author = store.author_of(store.add_author("synthetic"))
    assert author is not None
    for name in synthetic_names(bots):
        store.set_status(store.add_bot(name, author), "active")


def checkpoints(games: int) -> list[int]:
    """Where the server is measured while the league grows to `games`: every power of ten
    from 100,000 below it, and `games` itself."""
    marks, mark = [], 100_000
    while mark < games:
        marks.append(mark)
        mark *= 10
    return [*marks, games]


def _server(folder: Path, db: str | None) -> dict[str, Any]:
    """The league opened, served and fitted by a process of its own (league_probe.py)."""
    command = [sys.executable, "-m", "arena.bench.league_probe", str(folder)]
    done = subprocess.run(
        command + ([db] if db else []), capture_output=True, text=True, timeout=3600, check=False
    )
    if done.returncode != 0:
        raise ArenaError(f"The league could not be opened again: {done.stderr.strip()[-400:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


@contextlib.contextmanager
def _quick_writes(league: League) -> Iterator[None]:
    """Commits that do not wait for the disk while the league grows (its disk is not what
    is measured), and SQLite's page cache of GROW_CACHE_MIB (each pair's row is written at a
    random place); as the league writes them (waiting, its own cache) again after."""
    from arena.league.database import is_postgres

    db = league.store.db
    if is_postgres(str(league.store.where)):
        db.execute("SET synchronous_commit = off")
    else:
        cache = db.execute("PRAGMA cache_size").fetchone()[0]
        db.execute("PRAGMA synchronous=OFF")
        db.execute(f"PRAGMA cache_size = {-GROW_CACHE_MIB * 1024}")
    try:
        yield
    finally:
        if is_postgres(str(league.store.where)):
            db.execute("SET synchronous_commit = on")
        else:
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute(f"PRAGMA cache_size = {int(cache)}")


def synthetic(
    games: int,
    arrive_s: float = ARRIVE_S,
    seats: int = 2,
    bots: int = SYNTHETIC_BOTS,
    db: str | None = None,
) -> dict[str, Any]:
    """A league of `bots` bots grown in bulk to `games` synthetic games (its store: a SQLite
    file in a temporary folder, or the empty PostgreSQL database `db`); at each checkpoint
    the league opened by a server process of its own (`_server`: reopening, memory, the
    board, a bot's page, the fit, matchmaking); then RECORD_SAMPLE games recorded by
    `League.record` as played ones are, and while ARRIVE_PER_S games a second keep arriving
    for `arrive_s` s, a reader of the plain leaderboard: how long each game took to be on
    it."""
    from arena.league.league import League

    with tempfile.TemporaryDirectory(prefix="arena-bench-synthetic-") as temporary:
        folder = Path(temporary) / "league"
        league = League(folder, seats=seats, workers=0, db=db)
        try:
            _enter(league, bots)
            grown = _grown(league, folder, db, games, seats, bots)
            count = league.standings.count
            cpu = time.process_time()
            with _quick_writes(league):
                recorded = _grow(league, count + RECORD_SAMPLE, seats, bots)
            record_cpu = time.process_time() - cpu
            sample, grew = league.standings.count - count, grown["grow_s"]
            figures = {
                "games": count,
                "bots": bots,
                "seats": seats,
                "database": "postgresql" if db else "sqlite",
                **grown,
                "grow_us_per_game": round(grew / max(1, count) * 1e6, 1),
                "record_cpu_us_per_game": round(record_cpu / max(1, sample) * 1e6, 1),
                "record_games": sample,
                "record_us_per_game": round(recorded / max(1, sample) * 1e6, 1),
                "record_per_grow": round(recorded / max(1, sample) / (grew / count), 2)
                if grew and count
                else None,
                **_watched(league, seats, arrive_s, bots),
                **_update_cost(bots, seats),
            }
        finally:
            league.close()
    return figures


def _grown(
    league: League, folder: Path, db: str | None, games: int, seats: int, bots: int
) -> dict[str, Any]:
    """The league grown in bulk to `games`, measured at each checkpoint (`_server`, after
    the pairs' snapshot is written as a league stopping writes it): the seconds it took,
    the CPU time a game in each of the two processes, and the checkpoints' figures."""
    from arena.bench.league_grow import Grower

    measured: list[dict[str, Any]] = []
    grew = league_cpu = 0.0
    with Grower(league) as grower:
        for mark in checkpoints(games):
            began, cpu = time.perf_counter(), time.process_time()
            with _quick_writes(league):
                grower.grow(mark, seats, bots)
            grew += time.perf_counter() - began
            league_cpu += time.process_time() - cpu
            league.write_snapshot()  # as the league does when it stops
            measured.append({"games": league.standings.count, **_server(folder, db)})
    count = max(1, league.standings.count)
    return {
        "grow_s": round(grew, 1),
        "grow_cpu_us_per_game": round(league_cpu / count * 1e6, 1),
        "grower_cpu_us_per_game": round(grower.cpu_s / count * 1e6, 1),
        "checkpoints": measured,
    }


def _watched(league: League, seats: int, arrive_s: float, bots: int) -> dict[str, Any]:
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
        _grow(league, league.standings.count + seats, seats, bots)
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


def _update_cost(bots: int, seats: int) -> dict[str, float]:
    """The standings' update, and TrueSkill's, a game: UPDATE_SAMPLE synthetic games of the
    same bots counted by standings of their own."""
    from arena.league.standings import Standings
    from arena.results.ratings import environment, rate_game

    sample = synthetic_lines(UPDATE_SAMPLE // seats, bots, seats, seed=2)
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
        f"synthetic league on {grown['database']}: {grown['games']:,} games of {grown['bots']} "
        f"bots, tables of {grown['seats']} (--synthetic-games N --bots B), grown in bulk in "
        f"{grown['grow_s']} s: {grown['grow_us_per_game']} µs a game (made, stored, TrueSkill, "
        f"standings; {BULK_TABLES:,} tables a transaction, by two processes); League.record "
        f"{grown['record_us_per_game']} µs a game ({grown['record_games']:,} games, "
        f"{GROW_TABLES:,} tables a call; x{grown['record_per_grow']} the bulk's); CPU a game: "
        f"bulk {grown['grow_cpu_us_per_game']} µs in the league's process + "
        f"{grown['grower_cpu_us_per_game']} µs in the grower's, League.record "
        f"{grown['record_cpu_us_per_game']} µs (on a busy machine the times above wait for it)"
        f"; the standings' own update {grown['standings_us_per_game']} µs a game "
        f"(TrueSkill {grown['trueskill_us_per_game']} µs)"
    )
    click.echo(
        f"  {'games':>12} {'reopen s':>9} {'opened MiB':>11} {'RSS MiB':>8} {'peak MiB':>9} "
        f"{'board ms':>9} {'bot page ms':>12} {'its games ms':>13} {'fit s':>7} {'table ms':>9}"
    )
    for mark in grown["checkpoints"]:
        click.echo(
            f"  {mark['games']:>12,} {mark['reopen_s']:>9} {mark['rss_open_mib']:>11} "
            f"{mark['rss_mib']:>8} {mark['rss_peak_mib']:>9} {mark['board_ms']:>9} {mark['page_ms']:>12} "
            f"{mark['games_page_ms']:>13} {mark['fit_s']:>7} {mark['table_ms']:>9}"
        )
    last = grown["checkpoints"][-1]
    first = grown["checkpoints"][0]
    click.echo(
        f"  targets: reopen <= {REOPEN_TARGET_S} s ({last['reopen_s']} s), server RSS <= "
        f"{RSS_TARGET_MIB} MiB ({last['rss_mib']} MiB; x{last['rss_mib'] / first['rss_mib']:.2f} "
        f"of {first['games']:,} games'), bot page <= {PAGE_TARGET_MS} ms ({last['page_ms']} ms, "
        f"the first read {last['page_first_ms']} ms), fit <= {FIT_TARGET_S} s ({last['fit_s']} s)"
    )
    click.echo(
        f"  plain leaderboard: {grown['arrived']} games arriving at {grown['arrive_per_s']}/s, "
        f"read every {READ_PLAIN_S * 1000:g} ms: a game on it after median "
        f"{grown['stale_median_ms']} ms, p95 {grown['stale_p95_ms']} ms, at most "
        f"{grown['stale_max_ms']} ms (target <= {STALE_TARGET_S * 1000:g} ms); made from the "
        f"standings in {grown['board_ms']} ms"
    )
