"""`arena bench league`: a league's games per second beside a batch run's, load tests, and
its plain leaderboard at a million games.

1. The same two bots (default: greedy and random) play `--games` games as a batch
   (`arena run`, 2 workers) and then in a league (`arena serve`'s engine, 2 workers, both
   submitted and checked first), side by side in one run. Target: the league at least 90%
   of the batch's games per second.
2. The load test, on the loopback only: while the league plays, 50 readers each fetch the
   leaderboard `--reads` times and 5 authors submit a bot each; every request is timed.
   Printed: requests, errors, the median and p95 time of a leaderboard read, and whether
   every game the league finished is stored once.
3. The flood, on the loopback only: FLOOD_READERS readers of the plain leaderboard for
   `--flood-seconds` while the league plays, then as long again with hostile clients in a
   process of their own, from other loopback addresses (127.0.1.N, 127.0.0.2 and .3):
   FLOOD_ASKERS askers of custom leaderboards without a token (each query another, one
   every ASK_EVERY_S at most), FLOOD_SLOW connections whose headers never finish (a header
   line now and then) and FLOOD_IDLE connections that say nothing, each reopened when the
   server closes it (at most FLOOD_OPENS_PER_S a second of each kind). Printed: the plain
   leaderboard's median and p95 and the games per second without and with the flood, their
   ratios, and what the flood got.
4. The synthetic league (`--synthetic-games`, SYNTHETIC_GAMES unless told; 1,000,000 is
   `--synthetic-games 1000000`; `--synthetic-only` plays no bots): synthetic games of
   SYNTHETIC_BOTS bots stored through `League.record`, no processes; then, while
   ARRIVE_PER_S games a second keep arriving, a reader of the plain leaderboard. Printed:
   the cost of one game (recorded, and the standings' own update), how long after being
   stored a game is on the plain leaderboard, the background Elo fit's time and how far it
   is behind, the process's memory (RSS), and the league opened again as a restart does.
"""

from __future__ import annotations

import contextlib
import gc
import http.client
import json
import math
import multiprocessing
import random
import selectors
import socket
import statistics
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from arena.league.league import League
    from arena.results.log import GameLine

LEAGUE_TARGET = 0.90
READERS = 50
SUBMITTERS = 5
FLOOD_READERS = 5
READ_EVERY_S = 0.05
FLOOD_ASKERS = 40
ASK_EVERY_S = 0.1
FLOOD_SLOW = 3000
FLOOD_IDLE = 2000
FLOOD_OPENS_PER_S = 100
DRIP_EVERY_S = 2.0
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


def _batch(root: Path, names: tuple[str, ...], games: int) -> float:
    from arena import tournament
    from arena.players.manifest import default_bots_dir, resolve_bot

    bots = [resolve_bot(name, default_bots_dir()) for name in names]
    rounds = max(1, games // (len(bots) * (len(bots) - 1)))
    config = tournament.create_run(root / "batch", bots, rounds=rounds, seed=1, limits={})
    return float(tournament.play(root / "batch", config, workers=2).games_per_second)


def _league(root: Path, names: tuple[str, ...], db: str | None) -> League:
    """A league of `names`, each submitted by an author of its own and checked; not started."""
    from arena.league.league import League
    from arena.league.uploads import archive_folder
    from arena.players.manifest import default_bots_dir

    league = League(root / "league", workers=2, db=db)
    for name in names:
        token = league.store.add_author(f"author-{name}")
        author = league.store.author_of(token)
        assert author is not None
        archive = archive_folder(default_bots_dir() / name, root)
        bot = league.submit(author, archive, wait=True)
        if bot.status != "active":
            raise click.ClickException(f"{name} failed its check in the league: {bot.message}")
    return league


def _league_rate(league: League, games: int) -> float:
    league.start()
    deadline = time.monotonic() + 600
    while league.game_count() < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    start, first = time.perf_counter(), league.game_count()
    while league.game_count() < first + games and time.monotonic() < deadline:
        time.sleep(0.01)
    return (league.game_count() - first) / (time.perf_counter() - start)


def _timed(request: urllib.request.Request) -> tuple[float, int]:
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            answer.read()
            status = answer.status
    except urllib.error.HTTPError as error:
        status = error.code
    except (urllib.error.URLError, OSError):
        status = 0
    return time.perf_counter() - start, status


def _load(league: League, root: Path, reads: int) -> dict[str, Any]:
    from arena.league.uploads import archive_folder
    from arena.league.web import serving
    from arena.players.manifest import default_bots_dir

    archives = []
    for n in range(SUBMITTERS):
        folder = root / "load" / f"load{n}"
        folder.parent.mkdir(parents=True, exist_ok=True)
        source = default_bots_dir() / "random"
        folder.mkdir()
        (folder / "bot.py").write_bytes((source / "bot.py").read_bytes())
        (folder / "bot.toml").write_text(f'name = "load{n}"\ncommand = ["python3", "bot.py"]\n')
        with league.lock:  # the league is playing: its store is shared
            token = league.store.add_author(f"loader{n}")
        archives.append((archive_folder(folder, root).read_bytes(), token))
    before = league.game_count()

    def reader(url: str) -> list[tuple[float, int]]:
        return [_timed(urllib.request.Request(url + "/api/leaderboard")) for _ in range(reads)]

    def submitter(url: str, item: tuple[bytes, str]) -> tuple[float, int]:
        body, token = item
        headers = {"Authorization": f"Bearer {token}"}
        return _timed(urllib.request.Request(url + "/api/bots", body, headers, method="POST"))

    with serving(league) as url, ThreadPoolExecutor(READERS + SUBMITTERS) as pool:
        sent = [pool.submit(submitter, url, item) for item in archives]
        read = list(pool.map(reader, [url] * READERS))
        submits = [future.result() for future in sent]
    times = sorted(t for rows in read for t, _ in rows)
    statuses = [s for rows in read for _, s in rows] + [s for _, s in submits]
    with league.lock:
        ids = [line.game_id for line in league.store.games()]
    return {
        "requests": len(statuses),
        "errors": sum(s not in (200, 202) for s in statuses),
        "read_median_ms": round(statistics.median(times) * 1000, 1),
        "read_p95_ms": round(times[int(0.95 * (len(times) - 1))] * 1000, 1),
        "games_during_load": len(ids) - before,
        "games_stored_once": len(ids) == len(set(ids)),
    }


def _reads(league: League, url: str, seconds: float) -> dict[str, Any]:
    """FLOOD_READERS readers of the plain leaderboard for `seconds`, and the games played."""
    until = time.monotonic() + seconds

    def reader() -> list[tuple[float, int]]:
        done = []
        while time.monotonic() < until:
            done.append(_timed(urllib.request.Request(url + "/api/leaderboard")))
            time.sleep(READ_EVERY_S)
        return done

    first, start = league.game_count(), time.perf_counter()
    with ThreadPoolExecutor(FLOOD_READERS) as pool:
        read = [t for rows in pool.map(lambda _: reader(), range(FLOOD_READERS)) for t in rows]
    rate = (league.game_count() - first) / (time.perf_counter() - start)
    times = sorted(t for t, _ in read)
    return {
        "reads": len(read),
        "errors": sum(status != 200 for _, status in read),
        "read_median_ms": round(statistics.median(times) * 1000, 1),
        "read_p95_ms": round(times[int(0.95 * (len(times) - 1))] * 1000, 1),
        "games_per_second": round(rate, 2),
    }


def _ask(port: int, stop: Any, tally: Counter[str], lock: threading.Lock, n: int) -> None:
    """One asker of custom leaderboards, from 127.0.1.N, each query another."""
    source, connection, asked = (f"127.0.1.{n + 1}", 0), None, 0
    while not stop.is_set():
        sent = time.monotonic()
        asked += 1
        try:
            if connection is None:
                connection = http.client.HTTPConnection(
                    "127.0.0.1", port, timeout=60, source_address=source
                )
            since = f"2000-01-01T{asked // 3600 % 24:02d}:{asked // 60 % 60:02d}:{asked % 60:02d}"
            connection.request("GET", f"/api/leaderboard?seats=2&since={since}.{n:06d}")
            answer = connection.getresponse()
            said = answer.read(1 << 20)
            status = answer.status
            if status not in (200, 429):
                status = f"{status} {said[:60]!r}"  # type: ignore[assignment]
            if answer.will_close:
                connection.close()
                connection = None
        except (OSError, http.client.HTTPException):
            status = 0
            if connection is not None:
                connection.close()
            connection = None
        with lock:
            tally[f"custom {status}"] += 1
        time.sleep(max(0.0, sent + ASK_EVERY_S - time.monotonic()))
    if connection is not None:
        connection.close()


def _hold(
    port: int, stop: Any, tally: Counter[str], lock: threading.Lock, kind: str, count: int
) -> None:
    """`count` connections from 127.0.0.2 whose headers never finish ("slow"), or from
    127.0.0.3 that say nothing ("idle"), each reopened when closed."""
    address = "127.0.0.2" if kind == "slow" else "127.0.0.3"
    held: dict[socket.socket, float] = {}
    watch = selectors.DefaultSelector()
    second, opened = time.monotonic(), 0
    seen: Counter[str] = Counter()
    while not stop.is_set():
        now = time.monotonic()
        if now - second >= 1:
            second, opened = now, 0
        while len(held) < count and opened < FLOOD_OPENS_PER_S:
            opened += 1
            link = socket.socket()
            try:
                link.bind((address, 0))
                link.settimeout(5)
                link.connect(("127.0.0.1", port))
                if kind == "slow":
                    link.sendall(b"GET /api/leaderboard HTTP/1.1\r\nHost: league\r\n")
                link.setblocking(False)
            except OSError:
                link.close()
                seen[f"{kind} could not connect"] += 1
                break
            held[link] = now
            watch.register(link, selectors.EVENT_READ)
            seen[f"{kind} opened"] += 1
        for key, _ in watch.select(timeout=0.05):
            link = key.fileobj  # type: ignore[assignment]
            try:
                answer = link.recv(256)
            except OSError:
                answer = b""
            seen[f"{kind} closed, {answer[9:12].decode(errors='replace') or 'unanswered'}"] += 1
            watch.unregister(link)
            link.close()
            del held[link]
        if kind == "slow":
            for link, dripped in list(held.items()):
                if now - dripped >= DRIP_EVERY_S:
                    held[link] = now
                    with contextlib.suppress(OSError):  # closed meanwhile: seen next round
                        link.send(b"X-Slow: 1\r\n")
    for link in held:
        link.close()
    with lock:
        tally.update(seen)


def _flood(port: int, sizes: tuple[int, int, int], stop: Any, ready: Any, out: Connection) -> None:
    """The hostile clients (`sizes`: askers, slow and idle connections), in a process of
    their own, until `stop` is set; their tally sent through `out`."""
    tally: Counter[str] = Counter()
    lock = threading.Lock()
    askers, slow, idle = sizes
    threads = [
        threading.Thread(target=_ask, args=(port, stop, tally, lock, n), daemon=True)
        for n in range(askers)
    ] + [
        threading.Thread(target=_hold, args=(port, stop, tally, lock, kind, count), daemon=True)
        for kind, count in (("slow", slow), ("idle", idle))
    ]
    for thread in threads:
        thread.start()
    ready.set()
    for thread in threads:
        thread.join(timeout=120)
    out.send(dict(tally))


def _under_flood(
    league: League, seconds: float, sizes: tuple[int, int, int] = (FLOOD_ASKERS, FLOOD_SLOW,
                                                                   FLOOD_IDLE)
) -> dict[str, Any]:  # fmt: skip
    """The plain leaderboard's reads and the games per second without, then with, the
    hostile clients of `_flood`."""
    from arena.league.web import serving

    context = multiprocessing.get_context("spawn")  # this process has threads: no fork
    stop, ready = context.Event(), context.Event()
    receiving, sending = context.Pipe(duplex=False)
    with serving(league) as url:
        quiet = _reads(league, url, seconds)
        port = int(url.rsplit(":", 1)[1])
        flood = context.Process(
            target=_flood, args=(port, sizes, stop, ready, sending), daemon=True
        )
        flood.start()
        try:
            ready.wait(timeout=60)
            time.sleep(min(2.0, seconds / 4))  # its connections opened
            hostile = _reads(league, url, seconds)
        finally:
            stop.set()
            got = receiving.recv() if receiving.poll(180) else {}
            flood.join(timeout=30)
            if flood.is_alive():
                flood.kill()

    def ratio(key: str) -> float | None:
        return round(hostile[key] / quiet[key], 2) if quiet[key] else None

    return {
        "seconds": seconds,
        "quiet": quiet,
        "flood": hostile,
        "median_ratio": ratio("read_median_ms"),
        "p95_ratio": ratio("read_p95_ms"),
        "games_ratio": ratio("games_per_second"),
        "hostile": dict(sorted(got.items())),
    }


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
    """The standings' update, and TrueSkill's, a game: the league's last UPDATE_SAMPLE games
    counted again by standings of their own."""
    from arena.league.standings import Standings
    from arena.results.ratings import environment, rate_game

    sample = league.played[-min(len(league.played), UPDATE_SAMPLE) :]
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


def measure(
    names: tuple[str, ...], games: int, reads: int, db: str | None = None, flood_s: float = 15.0
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="arena-bench-league-") as temporary:
        root = Path(temporary)
        batch = _batch(root, names, games)
        league = _league(root, names, db)
        try:
            rate = _league_rate(league, games)
            load = _load(league, root, reads)
            flood = _under_flood(league, flood_s)
        finally:
            league.close()
    return {
        "bots": list(names),
        "games": games,
        "database": "sqlite" if db is None else "postgresql",
        "batch_games_per_second": round(batch, 2),
        "league_games_per_second": round(rate, 2),
        "league_share": round(rate / batch, 3) if batch else None,
        "league_target": LEAGUE_TARGET,
        "load": load,
        "flood": flood,
    }


@click.command()
@click.argument("bot", nargs=-1)
@click.option("--games", type=click.IntRange(min=10), default=400, show_default=True)
@click.option(
    "--reads",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="Leaderboard reads by each of the 50 readers of the load test.",
)
@click.option(
    "--db",
    default=None,
    metavar="URL",
    help="The league's store on this empty database (postgresql://...) [a SQLite file].",
)
@click.option(
    "--flood-seconds",
    "flood_s",
    type=click.FloatRange(min=1),
    default=15.0,
    show_default=True,
    help="The flood test's reading without, and then with, the hostile clients.",
)
@click.option(
    "--synthetic-games",
    "synthetic_games",
    type=click.IntRange(min=0),
    default=SYNTHETIC_GAMES,
    show_default=True,
    help="Grow a synthetic league to this many games (1,000,000: --synthetic-games 1000000) "
    "and time its plain leaderboard; 0 skips it.",
)
@click.option(
    "--synthetic-only", is_flag=True, help="Only the synthetic league (no bots are played)."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def league_bench(
    bot: tuple[str, ...],
    games: int,
    reads: int,
    db: str | None,
    flood_s: float,
    synthetic_games: int,
    synthetic_only: bool,
    as_json: bool,
) -> None:
    """A league's games per second beside a batch run's, a load test of its web side, and
    its plain leaderboard in a league grown to many games.

    BOTs are names in bots/ (default: greedy and random)."""
    from arena.errors import ArenaError

    try:
        figures = (
            {}
            if synthetic_only
            else measure(bot or ("greedy", "random"), games, reads, db, flood_s)
        )
        if synthetic_games:
            figures["synthetic"] = synthetic(synthetic_games)
    except ArenaError as error:
        raise click.ClickException(str(error)) from None
    if as_json:
        click.echo(json.dumps(figures))
        return
    if not synthetic_only:
        _print_played(figures, games, reads, flood_s)
    if synthetic_games:
        _print_synthetic(figures["synthetic"])


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


def _print_played(figures: dict[str, Any], games: int, reads: int, flood_s: float) -> None:
    load = figures["load"]
    click.echo(
        f"league benchmark: {', '.join(figures['bots'])}; {games} games each way, 2 workers; "
        f"the league's store on {figures['database']}"
    )
    click.echo(
        f"  games per second    batch {figures['batch_games_per_second']:>8.1f}    league "
        f"{figures['league_games_per_second']:>8.1f}    league/batch {figures['league_share']}"
        f" (target >= {LEAGUE_TARGET})"
    )
    click.echo(
        f"  load test  {READERS} readers x {reads} leaderboard reads + {SUBMITTERS} submissions"
        f" while games ran: {load['requests']} requests, {load['errors']} errors; leaderboard "
        f"median {load['read_median_ms']} ms, p95 {load['read_p95_ms']} ms; "
        f"{load['games_during_load']} games meanwhile, stored once: {load['games_stored_once']}"
    )
    flood, quiet, hostile = figures["flood"], figures["flood"]["quiet"], figures["flood"]["flood"]
    click.echo(
        f"  flood test  {FLOOD_READERS} readers of the plain leaderboard, {flood_s:g} s without"
        f" then {flood_s:g} s with {FLOOD_ASKERS} askers of custom leaderboards, {FLOOD_SLOW}"
        f" connections whose headers never finish and {FLOOD_IDLE} idle ones:"
    )
    click.echo(
        f"    plain leaderboard median {quiet['read_median_ms']} -> {hostile['read_median_ms']}"
        f" ms (x{flood['median_ratio']}), p95 {quiet['read_p95_ms']} -> "
        f"{hostile['read_p95_ms']} ms (x{flood['p95_ratio']}); errors {quiet['errors']} -> "
        f"{hostile['errors']}; games per second {quiet['games_per_second']:.1f} -> "
        f"{hostile['games_per_second']:.1f} (x{flood['games_ratio']})"
    )
    got = ", ".join(f"{what} {count}" for what, count in flood["hostile"].items())
    click.echo(f"    the flood got: {got}")
