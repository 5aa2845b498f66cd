"""The league's HTTP server settings, in one place for `arena serve` and `web.serving`, and
the guards no single client may get past.

uvicorn closes a keep-alive connection that stays idle, but has no deadline for a request
whose headers never finish, nor for a body sent a byte at a time, and accepts connections
until the process runs out of file descriptors. `server_config` makes a `uvicorn.Config`
whose HTTP protocol (`guarded_protocol`, uvicorn's h11 protocol with timers) closes:

- a connection whose request headers are not complete HEADER_TIMEOUT_S after its first byte
  (or after it opened), answered 408 first;
- a request whose body stops arriving for BODY_CHUNK_TIMEOUT_S (counted only while the
  server is reading it: not while its reading is paused, nor while a client that asked
  `Expect: 100-continue` waits to be told to go on) or is not complete BODY_TOTAL_TIMEOUT_S
  after its headers, 408 too;
- a new connection beyond OPEN_CONNECTIONS, or beyond PER_ADDRESS_CONNECTIONS from one
  client address (an IPv6 address counts by its /64), answered 503 and closed unread. A
  trusted proxy's connections are not capped per address: it speaks for everyone.

Behind a reverse proxy every connection comes from the proxy, so a client is known by the
address the proxy passes (`X-Forwarded-For`, set by docs/nginx-league.conf), believed only
from `ServerLimits.trusted_proxies` (`arena serve --trusted-proxy`; the loopback's 127.0.0.1
and ::1 by default, never a peer that is not listed): uvicorn's proxy-headers middleware puts
it in the request's `client`, and `ClientRequests` holds each client to CLIENT_REQUESTS
requests at once (an event stream is one for as long as it lasts; the league's own cap on
streams is CLIENT_STREAMS per client, routes/leaderboard.py). Idle connections from one
client through the proxy never reach the league: the proxy holds them (and its own per-client
`limit_conn`/`limit_req` hold the rest, docs/nginx-league.conf).

Beyond MAX_CONNECTIONS open connections or running requests, uvicorn answers requests 503
(`limit_concurrency`); a connection idle after a response closes after KEEP_ALIVE_S; a header
block over HEADER_BYTES is answered 400 by h11. The process's file-descriptor soft limit is
raised to its hard limit at start, and the caps lowered if descriptors would run out first.

`RateLimit` counts one kind of request per client (custom leaderboards, joins and
submissions per address; submissions per author), and `read_body` reads a request's body
up to a cap, a client that went away (or was cut off) being one sentence.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import ipaddress
import json
import logging
import resource
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import AsyncIterator
from typing import Any, ClassVar

import h11
import uvicorn
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Send
from starlette.types import Scope as StarletteScope
from uvicorn._types import ASGI3Application, ASGIReceiveCallable, ASGISendCallable, Scope
from uvicorn.protocols.http.h11_impl import H11Protocol

from arena.errors import ArenaError

log = logging.getLogger(__name__)

HEADER_TIMEOUT_S = 10.0
BODY_CHUNK_TIMEOUT_S = 10.0
BODY_TOTAL_TIMEOUT_S = 60.0
KEEP_ALIVE_S = 5
MAX_CONNECTIONS = 1000
"""Above this many open connections (or running requests) a request is answered 503."""
OPEN_CONNECTIONS = 2000
"""Above this many a new connection is answered 503 and closed before it is read."""
PER_ADDRESS_CONNECTIONS = 100
HEADER_BYTES = 16 << 10
STOP_GRACE_S = 3
"""When the server stops, what still runs (a request, a download) is cancelled after this."""
SPARE_DESCRIPTORS = 256
"""File descriptors kept for the store, the bots' pipes and the logs, beside connections."""
TRUSTED_PROXIES = ("127.0.0.1", "::1")
"""Where a reverse proxy may connect from (addresses or networks): the address it passes is
believed, and its own connections are not capped per address (it speaks for everyone)."""
CLIENT_REQUESTS = 32
"""Requests of one client (by the address a trusted proxy passes, else its own) at once."""
CLIENT_STREAMS = 8
"""Live leaderboards (event streams) of one client at once: tabs, or people behind one NAT."""
EVENT_STREAMS = 400
"""Live leaderboards at once in all, well under MAX_CONNECTIONS: others' requests find room."""

CUSTOM_BOARDS_PER_MINUTE = 30
JOINS_PER_MINUTE = 10
SUBMISSIONS_PER_ADDRESS_PER_MINUTE = 20
RATE_KEYS = 10_000
"""Clients a rate limit remembers at most (the least recently seen are forgotten first)."""


@dataclasses.dataclass(frozen=True)
class ServerLimits:
    """What one client may take of the server (the defaults are the module's constants)."""

    header_timeout: float = HEADER_TIMEOUT_S
    body_chunk_timeout: float = BODY_CHUNK_TIMEOUT_S
    body_total_timeout: float = BODY_TOTAL_TIMEOUT_S
    keep_alive: int = KEEP_ALIVE_S
    max_connections: int = MAX_CONNECTIONS
    open_connections: int = OPEN_CONNECTIONS
    per_address: int = PER_ADDRESS_CONNECTIONS
    trusted_proxies: tuple[str, ...] = TRUSTED_PROXIES
    client_requests: int = CLIENT_REQUESTS
    client_streams: int = CLIENT_STREAMS
    event_streams: int = EVENT_STREAMS

    def __post_init__(self) -> None:
        for proxy in self.trusted_proxies:
            networks(proxy)  # ArenaError with a sentence for anything but an address

    def client(self, host: str | None) -> str | None:
        """The key a client at `host` is counted by, or None for a trusted proxy itself (a
        request it sent with no client's address: the machine's own tools)."""
        if not host or trusted(host, self.trusted_proxies):
            return None
        return address_key(host)


def networks(proxy: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    """A trusted proxy's address or network, read; ArenaError with one sentence otherwise."""
    try:
        return ipaddress.ip_network(proxy, strict=False)
    except ValueError:
        raise ArenaError(
            f"{proxy[:80]} is not an address or network; name a trusted proxy by its address, "
            "e.g. --trusted-proxy 127.0.0.1 or --trusted-proxy 10.0.0.0/24."
        ) from None


@functools.lru_cache(maxsize=4096)
def trusted(host: str, proxies: tuple[str, ...]) -> bool:
    """Whether a peer at `host` is one of the trusted `proxies` (addresses or networks)."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in networks(proxy) for proxy in proxies)


def raise_file_limit() -> int:
    """The process's soft limit of open files raised to its hard limit; the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return soft
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    except (ValueError, OSError):  # a hard limit the kernel caps lower (nr_open)
        log.warning("the open-files limit stays at %d", soft)
        return soft
    return wanted


def server_config(app: Any, limits: ServerLimits | None = None, **options: Any) -> uvicorn.Config:
    """uvicorn's settings for the league's web application `app` (`options` as
    uvicorn.Config takes them: host, port, log_level...), with `limits` enforced; the
    file-descriptor limit is raised first, and the caps fit under it."""
    limits = limits or ServerLimits()
    room = max(16, raise_file_limit() - SPARE_DESCRIPTORS)
    if limits.open_connections > room:
        log.warning("at most %d connections: the open-files limit is low", room)
        limits = dataclasses.replace(
            limits, open_connections=room, max_connections=min(limits.max_connections, room)
        )
    return uvicorn.Config(
        app,
        http=guarded_protocol(limits),
        forwarded_allow_ips=list(limits.trusted_proxies),  # not FORWARDED_ALLOW_IPS's
        limit_concurrency=limits.max_connections,
        timeout_keep_alive=limits.keep_alive,
        h11_max_incomplete_event_size=HEADER_BYTES,
        timeout_graceful_shutdown=STOP_GRACE_S,
        **options,
    )


def address_key(host: str) -> str:
    """The key a client is counted by: its address, or an IPv6 address's /64 network (one
    machine may hold all of it)."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:100]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(address), 64), strict=False))
    return str(address)


def _refusal(status: int, reason: str, sentence: str) -> bytes:
    body = json.dumps({"error": sentence}).encode()
    return (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    ).encode() + body


TOO_MANY = _refusal(
    503, "Service Unavailable", "The league's server has too many connections; try again soon."
)
TOO_MANY_FROM_YOU = _refusal(
    503,
    "Service Unavailable",
    "Too many connections from your address; close some and try again.",
)
TOO_SLOW = _refusal(
    408, "Request Timeout", "The request arrived too slowly; send it again, all at once."
)


def guarded_protocol(limits: ServerLimits) -> type[H11Protocol]:
    """uvicorn's h11 protocol with `limits`' timers and connection caps (a class per server:
    it counts that server's connections by address)."""
    attributes = {"limits": limits, "by_address": Counter()}
    return type("GuardedProtocol", (GuardedProtocol,), attributes)


class GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol with timers and connection caps: a subclass per server
    (`guarded_protocol`) holds that server's `limits` and its connections by address."""

    limits: ClassVar[ServerLimits]
    by_address: ClassVar[Counter[str]]
    header_timer: asyncio.TimerHandle | None = None
    body_timer: asyncio.TimerHandle | None = None
    body_deadline: float | None = None
    address: str | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.app = quiet_when_gone(self.app)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.address = self.limits.client(self.client[0] if self.client else "")
        if self.address is not None:
            self.by_address[self.address] += 1
        if len(self.connections) > self.limits.open_connections:
            self.refuse(TOO_MANY)
        elif self.address is not None and self.by_address[self.address] > self.limits.per_address:
            self.refuse(TOO_MANY_FROM_YOU)
        else:
            self.arm_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self.stop_timers()
        if self.address is not None:
            self.by_address[self.address] -= 1
            if self.by_address[self.address] <= 0:
                del self.by_address[self.address]
            self.address = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.header_timer is None and self.conn.their_state is h11.IDLE:
            self.arm_header_timer()  # a new request's first bytes
        super().data_received(data)

    def handle_events(self) -> None:
        super().handle_events()
        if self.transport.is_closing():
            return
        state = self.conn.their_state
        if state is not h11.IDLE and self.header_timer is not None:
            self.header_timer.cancel()  # the headers are complete
            self.header_timer = None
        if state is h11.SEND_BODY:
            if self.body_deadline is None:
                self.body_deadline = self.loop.time() + self.limits.body_total_timeout
            self.arm_body_timer()
        elif self.body_timer is not None:
            self.body_timer.cancel()
            self.body_timer, self.body_deadline = None, None

    def arm_header_timer(self) -> None:
        self.header_timer = self.loop.call_later(self.limits.header_timeout, self.too_slow)

    def arm_body_timer(self) -> None:
        if self.body_timer is not None:
            self.body_timer.cancel()
        assert self.body_deadline is not None
        left = self.body_deadline - self.loop.time()
        self.body_timer = self.loop.call_later(
            max(0.0, min(self.limits.body_chunk_timeout, left)), self.body_late
        )

    def body_late(self) -> None:
        self.body_timer = None
        if self.conn.their_state is not h11.SEND_BODY or self.transport.is_closing():
            return
        assert self.body_deadline is not None
        unread = self.flow.read_paused or self.cycle.waiting_for_100_continue
        if unread and self.loop.time() < self.body_deadline:
            self.arm_body_timer()  # the server did not ask for more: not the client's delay
            return
        self.too_slow()

    def too_slow(self) -> None:
        """Answer 408 if no answer was begun, and close the connection."""
        self.header_timer = None
        if self.transport.is_closing():
            return
        waiting = self.cycle is None or self.conn.their_state is h11.IDLE  # for headers
        self.refuse(TOO_SLOW if waiting or not self.cycle.response_started else b"")

    def refuse(self, answer: bytes) -> None:
        self.stop_timers()
        if answer:
            self.transport.write(answer)
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True  # the application's answer goes nowhere now
            self.cycle.message_event.set()
        self.transport.close()

    def stop_timers(self) -> None:
        for timer in (self.header_timer, self.body_timer):
            if timer is not None:
                timer.cancel()
        self.header_timer = self.body_timer = None
        self._unset_keepalive_if_required()


def quiet_when_gone(app: ASGI3Application) -> ASGI3Application:
    """`app`, a request whose client went away (or was cut off as too slow) while its body
    was read ending there: there is nobody to answer, and it is no error to log."""

    async def quiet(scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
        try:
            await app(scope, receive, send)
        except ClientDisconnect:
            log.debug("a client went away while its request's body was read")

    return quiet


TOO_MANY_AT_ONCE = (
    "Too many requests from your address at once; wait for those running, then try again."
)


class ClientRequests:
    """ASGI middleware: at most `limits.client_requests` requests of one client running at
    once (`ServerLimits.client`: the address a trusted proxy passed, else the peer's), past
    it 503 with a sentence. Counted on the event loop alone: no lock."""

    def __init__(self, app: ASGIApp, limits: ServerLimits) -> None:
        self.app, self.limits = app, limits
        self.running: Counter[str] = Counter()

    async def __call__(self, scope: StarletteScope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        key = self.limits.client(client[0] if client else None) if scope["type"] == "http" else None
        if key is None:
            await self.app(scope, receive, send)
            return
        if self.running[key] >= self.limits.client_requests:
            refusal = JSONResponse({"error": TOO_MANY_AT_ONCE}, status_code=503)
            await refusal(scope, receive, send)
            return
        self.running[key] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.running[key] -= 1
            if self.running[key] <= 0:
                del self.running[key]


class RateLimit:
    """At most `per_minute` events per client in any 60 seconds (a sliding window kept in
    memory). Bounded: a client idle for a minute is forgotten, and beyond RATE_KEYS clients
    the least recently seen are. Safe to share between threads."""

    def __init__(self, per_minute: int, window_s: float = 60.0, keys: int = RATE_KEYS) -> None:
        self.per_minute, self.window_s, self.keys = per_minute, window_s, keys
        self.recent: OrderedDict[str, deque[float]] = OrderedDict()
        self.lock = threading.Lock()

    def allow(self, client: str) -> bool:
        """Whether `client` may act now (then it is counted)."""
        now = time.monotonic()
        with self.lock:
            while self.recent:  # forget the clients idle for a window (oldest first)
                oldest = next(iter(self.recent.values()))
                if oldest and now - oldest[-1] <= self.window_s:
                    break
                self.recent.popitem(last=False)
            times = self.recent.get(client)
            if times is None:
                if len(self.recent) >= self.keys:
                    self.recent.popitem(last=False)
                times = self.recent[client] = deque(maxlen=max(1, self.per_minute))
            while times and now - times[0] > self.window_s:
                times.popleft()
            if len(times) >= self.per_minute:
                return False
            times.append(now)
            self.recent.move_to_end(client)
            return True


def client_of(request: Request) -> str:
    """The key a request's client is counted by in a RateLimit (see `address_key`)."""
    return address_key(request.client.host if request.client else "")


class BodyRefused(ArenaError):
    """A request's body over its cap, or one that stopped arriving; one sentence."""

    def __init__(self, status: int, sentence: str) -> None:
        super().__init__(sentence)
        self.status = status


async def body_chunks(request: Request, cap: int, too_large: str) -> AsyncIterator[bytes]:
    """The body of `request` as it arrives, BodyRefused (413, `too_large`) past `cap` bytes;
    a client that went away, or that the server cut off as too slow, is BodyRefused (400)."""
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > cap:
                raise BodyRefused(413, too_large)
            yield chunk
    except ClientDisconnect:
        raise BodyRefused(
            400, "The request's body stopped arriving (too slow, or cut off); send it again."
        ) from None


async def read_body(request: Request, cap: int, too_large: str) -> bytes:
    """The whole body of `request` in memory, as `body_chunks` reads it."""
    return b"".join([chunk async for chunk in body_chunks(request, cap, too_large)])
