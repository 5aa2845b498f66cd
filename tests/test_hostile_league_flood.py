"""Issue 31, item 5: nobody can slow the league's server to a crawl (arena/league/server.py,
boards.py). Real servers on the loopback, raw sockets for the clients a library would not
be; short timeouts and small caps set through the server's own settings. Every loop here
is bounded."""

from __future__ import annotations

import json
import logging
import re
import resource
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli.main import main
from arena.errors import ArenaError
from arena.league import boards, server, web
from arena.league.league import League
from arena.league.server import RateLimit, ServerLimits
from tests.league_support import Site
from tests.waiting import Clock, until


@contextmanager
def guarded(tmp_path: Path, **limits: Any) -> Iterator[Site]:
    """A league served with these ServerLimits, and its Site."""
    league = League(tmp_path / "league", workers=0)
    try:
        with web.serving(league, ServerLimits(**limits)) as url:
            yield Site(league, int(url.rsplit(":", 1)[1]))
    finally:
        league.close()


def connect(site: Site) -> socket.socket:
    host, port = site.url.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=30)


def until_closed(connection: socket.socket, seconds: float = 30.0) -> tuple[bytes, float]:
    """What the server sent until it closed the connection, and how long that took; a
    connection still open after `seconds` fails the test."""
    start, answer = time.monotonic(), b""
    connection.settimeout(seconds)
    try:
        while chunk := connection.recv(65536):
            answer += chunk
    except TimeoutError:
        raise AssertionError(f"still open after {seconds} s; received {answer[:200]!r}") from None
    except ConnectionResetError:
        pass
    return answer, time.monotonic() - start


def error_of(answer: bytes) -> str:
    sentence = json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"]
    assert isinstance(sentence, str) and sentence.endswith(".")
    return sentence


def test_a_connection_whose_headers_never_finish_is_closed_within_the_timeout(
    tmp_path: Path,
) -> None:
    with guarded(tmp_path, header_timeout=1.0) as site:
        silent = connect(site)  # opens and says nothing
        slow = connect(site)
        slow.sendall(b"GET /api/leaderboard HTTP/1.1\r\nHost: league\r\n")
        for _ in range(3):  # a header line now and then, never the blank line
            time.sleep(0.3)
            slow.sendall(b"X-Slow: 1\r\n")
        endless = connect(site)  # a header block that never ends: h11's cap, 16 KiB
        endless.sendall(b"GET / HTTP/1.1\r\n" + b"X-Pad: " + b"a" * (32 << 10))
        for connection in (silent, slow):
            answer, _ = until_closed(connection)
            assert answer.startswith(b"HTTP/1.1 408 ")
            assert "too slowly" in error_of(answer)
        answer, _ = until_closed(endless)
        assert answer.startswith(b"HTTP/1.1 400 ")
        kept = connect(site)  # a request that finishes is answered, and kept alive
        kept.sendall(b"GET /api/leaderboard HTTP/1.1\r\nHost: league\r\n\r\n")
        assert kept.recv(65536).startswith(b"HTTP/1.1 200 ")
        for connection in (silent, slow, endless, kept):
            connection.close()


def test_a_slow_body_is_cut_off(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    with guarded(tmp_path, body_chunk_timeout=1.0, body_total_timeout=3.0) as site:
        stalled = connect(site)  # a part of its body, then nothing
        stalled.sendall(b"POST /api/join HTTP/1.1\r\nHost: league\r\nContent-Length: 200\r\n"
                        b'\r\n{"invite": ')  # fmt: skip
        answer, _ = until_closed(stalled)
        assert answer.startswith(b"HTTP/1.1 408 ") and "too slowly" in error_of(answer)
        dripping = connect(site)  # a byte every 0.4 s: never idle 1 s, over 3 s in all
        dripping.sendall(b"POST /api/bots HTTP/1.1\r\nHost: league\r\nContent-Length: 100\r\n"
                         + f"Authorization: Bearer {site.ada}\r\n\r\n".encode())  # fmt: skip
        answer, sent = b"", 0
        deadline = time.monotonic() + 30
        dripping.settimeout(0.4)
        while time.monotonic() < deadline and sent < 100:
            try:
                dripping.sendall(b"x")
                sent += 1
                answer = dripping.recv(65536)
                break  # answered, or closed (b"")
            except TimeoutError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                break
        assert sent < 100, "the whole body was taken in, a byte at a time"
        rest, _ = until_closed(dripping)
        assert (answer + rest).startswith(b"HTTP/1.1 408 ")
        for connection in (stalled, dripping):
            connection.close()
        assert site.call("GET", "/api/leaderboard") == (200, [])  # the server is fine
    assert "Exception in ASGI application" not in caplog.text  # a sentence, not a traceback


def test_custom_leaderboards_beyond_the_rate_are_429_while_the_plain_one_answers(
    tmp_path: Path,
) -> None:
    with guarded(tmp_path) as site:
        statuses = [site.call("GET", f"/api/leaderboard?seats=2&n={n}")[0]
                    for n in range(server.CUSTOM_BOARDS_PER_MINUTE)]  # fmt: skip
        assert statuses == [404] * server.CUSTOM_BOARDS_PER_MINUTE  # no game yet: a sentence
        status, answer = site.call("GET", "/api/leaderboard?since=2026-01-01")
        assert status == 429 and answer["error"] == (
            "At most 30 custom leaderboards a minute from one address; wait, or read the "
            "plain leaderboard."
        )
        assert site.call("GET", "/api/leaderboard") == (200, [])
        joins = [site.call("POST", "/api/join", None, b"{}")[0]
                 for _ in range(server.JOINS_PER_MINUTE + 1)]  # fmt: skip
        assert joins == [400] * server.JOINS_PER_MINUTE + [429]
        per_address = server.SUBMISSIONS_PER_ADDRESS_PER_MINUTE
        submits = [site.call("POST", "/api/bots", None, b"x")[0] for _ in range(per_address + 1)]
        assert submits == [401] * per_address + [429]  # no token: counted by address


def test_the_plain_leaderboard_never_waits_on_custom_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(boards, "CUSTOM_AT_ONCE", 0)  # every custom board waits its full time
    monkeypatch.setattr(boards, "CUSTOM_WAIT_S", 10.0)
    asked: list[Any] = []
    custom = boards.Boards.custom

    async def counted(self: boards.Boards, *query: Any) -> Any:
        asked.append(query)
        return await custom(self, *query)

    monkeypatch.setattr(boards.Boards, "custom", counted)
    with guarded(tmp_path) as site, ThreadPoolExecutor(12) as pool:
        waiting = [pool.submit(site.call, "GET", f"/api/leaderboard?seats=2&n={n}")
                   for n in range(12)]  # fmt: skip
        until(lambda: len(asked) == 12, 30, what="the 12 custom boards asked")
        assert site.call("GET", "/api/leaderboard") == (200, [])
        assert not any(custom.done() for custom in waiting)  # answered while they all wait
        for custom in waiting:
            status, answer = custom.result()
            assert status == 503 and "busy with other custom leaderboards" in answer["error"]


def test_the_connection_caps_answer_503(tmp_path: Path) -> None:
    with guarded(tmp_path, max_connections=4, open_connections=6) as site, ExitStack() as held:
        idle = [held.enter_context(connect(site)) for _ in range(4)]
        # the last one's request is read after the others were accepted (in order)
        idle[-1].sendall(b"GET /api/leaderboard HTTP/1.1\r\nHost: league\r\n\r\n")
        answer, _ = until_closed(idle[-1])  # four open: uvicorn's limit_concurrency
        assert answer.startswith(b"HTTP/1.1 503 ")
        more = [held.enter_context(connect(site)) for _ in range(4)]
        answer, _ = until_closed(more[-1])  # the seventh open: closed unread
        assert answer.startswith(b"HTTP/1.1 503 ") and "too many connections" in error_of(answer)
    with guarded(tmp_path / "b", per_address=3, trusted_proxies=()) as site, ExitStack() as held:
        mine = [held.enter_context(connect(site)) for _ in range(4)]
        answer, _ = until_closed(mine[-1])
        assert answer.startswith(b"HTTP/1.1 503 ")
        assert "Too many connections from your address" in error_of(answer)
        mine[0].sendall(b"GET /api/leaderboard HTTP/1.1\r\nHost: league\r\n\r\n")
        assert mine[0].recv(65536).startswith(b"HTTP/1.1 200 ")  # the first three are served


def test_the_open_files_limit_is_raised_to_the_hard_limit(tmp_path: Path) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    lowered = min(soft, hard, 512)
    if lowered == hard:
        pytest.skip("the hard limit is too low to lower the soft one under it")
    resource.setrlimit(resource.RLIMIT_NOFILE, (lowered, hard))
    try:
        with guarded(tmp_path) as site:
            assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == hard
            assert site.call("GET", "/api/leaderboard") == (200, [])
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_rate_limit_forgets_idle_clients_and_stays_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = Clock()
    monkeypatch.setattr(server, "time", clock)
    limit = RateLimit(2, window_s=0.2, keys=3)
    assert [limit.allow("a") for _ in range(3)] == [True, True, False]
    clock.advance(0.3)
    assert limit.allow("a")  # the window slid on
    for client in "bcde":
        assert limit.allow(client)
    assert len(limit.recent) == 3 and "a" not in limit.recent  # the least recently seen


def ask(site: Site, path: str, source: str = "127.0.0.1", forwarded: str = "") -> socket.socket:
    """A GET of `path` from the loopback address `source`, claiming to be for `forwarded`
    (X-Forwarded-For, as a proxy passes it) when given; the open connection."""
    host, port = site.url.removeprefix("http://").split(":")
    connection = socket.create_connection((host, int(port)), 30, source_address=(source, 0))
    claim = f"X-Forwarded-For: {forwarded}\r\n" if forwarded else ""
    connection.sendall(f"GET {path} HTTP/1.1\r\nHost: league\r\n{claim}\r\n".encode())
    return connection


def status_of(connection: socket.socket) -> tuple[int, bytes]:
    """The status of the answer on `connection`, and the answer (a refusal's body whole)."""
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = connection.recv(65536)
        assert chunk, answer
        answer += chunk
    head, body = answer.split(b"\r\n\r\n", 1)
    length = re.search(rb"(?i)\r\ncontent-length: (\d+)", head)
    while length and len(body) < int(length[1]) and (chunk := connection.recv(65536)):
        body += chunk
    return int(answer.split(b" ", 2)[1]), head + b"\r\n\r\n" + body


def test_a_client_behind_a_trusted_proxy_is_capped_by_the_address_it_passes(
    tmp_path: Path,
) -> None:
    """Issue 42, item 2: behind a proxy on the loopback (trusted by default), each client is
    counted by the X-Forwarded-For the proxy passes; a peer that is not a trusted proxy is
    counted by its own address whatever it claims."""
    with guarded(tmp_path, client_streams=2, event_streams=4) as site, ExitStack() as held:
        mine = [held.enter_context(ask(site, "/api/events", forwarded="127.0.0.9")) for _ in "ab"]
        assert [status_of(stream)[0] for stream in mine] == [200, 200]
        status, answer = status_of(
            held.enter_context(ask(site, "/api/events", forwarded="127.0.0.9"))
        )
        assert status == 429 and "At most 2 live leaderboards at once" in answer.decode()
        other = held.enter_context(ask(site, "/api/events", forwarded="127.0.0.10"))
        assert status_of(other)[0] == 200  # another client behind the same proxy
        claimed = held.enter_context(ask(site, "/api/events", "127.0.0.2", forwarded="127.0.0.10"))
        assert status_of(claimed)[0] == 200  # counted as 127.0.0.2: its claim is not believed
        status, answer = status_of(held.enter_context(ask(site, "/api/events", "127.0.0.3")))
        assert status == 503 and "live leaderboards at once and all are taken" in answer.decode()
        mine[0].close()  # its stream ends once the league sees it gone (within a second)
        deadline = time.monotonic() + 30
        while True:
            again = held.enter_context(ask(site, "/api/events", forwarded="127.0.0.9"))
            if status_of(again)[0] == 200:
                break
            assert time.monotonic() < deadline, "a closed stream was never released"
            time.sleep(0.1)


def test_requests_at_once_are_capped_per_client(tmp_path: Path) -> None:
    with guarded(tmp_path, client_requests=2) as site, ExitStack() as held:
        for _ in "ab":  # two requests that last: event streams
            assert status_of(held.enter_context(ask(site, "/api/events", "127.0.0.2")))[0] == 200
        status, answer = status_of(held.enter_context(ask(site, "/api/leaderboard", "127.0.0.2")))
        assert status == 503 and server.TOO_MANY_AT_ONCE in answer.decode()
        assert b"x-content-type-options: nosniff" in answer  # the strict headers, as every answer
        assert status_of(held.enter_context(ask(site, "/api/leaderboard", "127.0.0.3")))[0] == 200
        through = ask(site, "/api/leaderboard", forwarded="127.0.0.2")  # the same client, proxied
        assert status_of(held.enter_context(through))[0] == 503
        assert (
            status_of(held.enter_context(ask(site, "/api/leaderboard")))[0] == 200
        )  # the proxy's own


def test_trusted_proxies_are_addresses() -> None:
    assert ServerLimits(trusted_proxies=("10.0.0.0/24", "::1")).client("10.0.0.7") is None
    assert ServerLimits(trusted_proxies=()).client("127.0.0.1") == "127.0.0.1"
    with pytest.raises(ArenaError, match="not an address or network"):
        ServerLimits(trusted_proxies=("*",))
    result = CliRunner().invoke(main, ["serve", "--trusted-proxy", "proxy.example"])
    assert result.exit_code == 2 and "--trusted-proxy 127.0.0.1" in result.output, result.output
