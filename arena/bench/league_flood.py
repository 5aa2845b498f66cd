"""`arena bench league`'s flood phase, on the loopback only: FLOOD_READERS readers of the
plain leaderboard while the league plays, then as long again with hostile clients in a
process of their own, from other loopback addresses (127.0.1.N, 127.0.0.2 and .3):
FLOOD_ASKERS askers of custom leaderboards without a token (each query another, one every
ASK_EVERY_S at most), FLOOD_SLOW connections whose headers never finish (a header line now
and then) and FLOOD_IDLE connections that say nothing, each reopened when the server closes
it (at most FLOOD_OPENS_PER_S a second of each kind). The command is in `league.py`.
"""

from __future__ import annotations

import contextlib
import http.client
import multiprocessing
import selectors
import socket
import statistics
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.league.league import League

FLOOD_READERS = 5
READ_EVERY_S = 0.05
FLOOD_ASKERS = 40
ASK_EVERY_S = 0.1
FLOOD_SLOW = 3000
FLOOD_IDLE = 2000
FLOOD_OPENS_PER_S = 100
DRIP_EVERY_S = 2.0


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
