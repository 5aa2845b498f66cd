"""What the league shows the network, checked: strict headers on every response, the
leaderboard's query read by one bounded reader, and the warning for a server that listens
beyond this machine.

The headers (`StrictHeaders`, a pure ASGI middleware around the whole application, so a 404,
a refusal, the event stream and even an unforeseen error's 500 carry them):

- `Content-Security-Policy`: nothing by default; scripts and styles only the pages' own
  inline ones, named by their SHA-256 hashes (no 'unsafe-inline': a script that text from
  a bot smuggled into a page would not run); images from the league or `data:`; requests
  (fetch, the event stream) to the league only; no framing, no `<base>`, forms to the
  league only;
- `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer` (a replay's address
  never leaves with a click), `X-Frame-Options: DENY` (older browsers' frame-ancestors);
- `Cache-Control: no-store` unless the response set its own: the API's JSON (a join's
  token, an author's stderr) is never kept by a browser or a shared cache;
- `Strict-Transport-Security` only on a request that came over https. The league itself
  serves plain HTTP; uvicorn takes the scheme from `X-Forwarded-Proto` only when the
  connection comes from a trusted proxy (127.0.0.1 unless `FORWARDED_ALLOW_IPS` says
  otherwise), so it is sent exactly when a TLS reverse proxy on the machine forwarded the
  request (docs/reverse-proxy.md). Anyone else on the loopback who claims https gains
  nothing: browsers ignore the header over plain HTTP.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import re
import socket
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from arena.errors import ArenaError
from arena.html.embed import asset
from arena.league.pages import JOIN_SCRIPT, JOIN_STYLE, PAGE_SCRIPT, PAGE_STYLE

HSTS_SECONDS = 365 * 24 * 3600
MAX_SEATS_DIGITS = 2
MAX_TIME_CHARS = 40
MAX_AMONG = 100
"""At most this many bots in a custom leaderboard's `bots=`."""
MAX_LABEL_CHARS = 80


def _hashes(texts: Iterable[str]) -> str:
    return " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"
        for text in texts
    )


def content_security_policy() -> str:
    """The policy of every response: the league's pages', the replay viewer's, the human
    seat's and its spectators' inline scripts and styles are allowed by hash, and nothing
    else."""
    scripts = _hashes(
        (PAGE_SCRIPT, JOIN_SCRIPT, asset("viewer.js"), asset("seat.js"), asset("watch.js"))
    )
    styles = _hashes((PAGE_STYLE, JOIN_STYLE, asset("viewer.css"), asset("seat.css")))
    return (
        f"default-src 'none'; script-src {scripts}; style-src {styles}; "
        "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
        "base-uri 'none'; form-action 'self'"
    )


class StrictHeaders:
    """Puts the strict headers (the module's docstring) on every response of `app`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        policy = content_security_policy()
        self.always = [
            (b"content-security-policy", policy.encode()),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"),
            (b"x-frame-options", b"DENY"),
        ]
        self.hsts = (b"strict-transport-security", f"max-age={HSTS_SECONDS}".encode())
        self.ours = {name for name, _ in self.always} | {self.hsts[0]}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        https = scope.get("scheme") == "https"

        async def send_strictly(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (k, v) for k, v in message.get("headers", []) if k.lower() not in self.ours
                ]
                headers += self.always
                if https:
                    headers.append(self.hsts)
                if not any(name.lower() == b"cache-control" for name, _ in headers):
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_strictly)


class QueryError(ArenaError):
    """A query parameter that is not what the route takes; the text says what it takes."""


@dataclass(frozen=True)
class BoardQuery:
    """A custom leaderboard's filters, read: `since` and `until` as UTC ISO times in the
    games' own `finished_at` form (so they compare as text), or empty."""

    since: str = ""
    until: str = ""
    among: frozenset[str] = frozenset()
    seats: int | None = None

    @property
    def custom(self) -> bool:
        return bool(self.since or self.until or self.among) or self.seats is not None


def board_query(query: Mapping[str, str], label: re.Pattern[str]) -> BoardQuery:
    """The leaderboard's query (`seats=K`, `since=ISO`, `until=ISO`, `bots=A,B`), each
    parameter bounded and typed; `label` is the pattern of a bot's label. QueryError with one
    sentence for anything else: `²` is a digit to `str.isdigit` but no table size, and a
    5,000-digit number is refused before `int` sees it."""
    size = query.get("seats", "")
    digits = len(size) <= MAX_SEATS_DIGITS and size.isascii() and size.isdigit()
    if size and not (digits and 1 <= int(size) <= 99):  # int() only of ASCII digits
        raise QueryError("seats= is a table size from 1 to 99, e.g. seats=3.")
    seats = int(size) if size else None
    listed = query.get("bots", "")
    names = [name for name in listed.split(",") if name] if listed else []
    if len(listed) > MAX_AMONG * (MAX_LABEL_CHARS + 1) or len(names) > MAX_AMONG:
        raise QueryError(f"bots= lists at most {MAX_AMONG} bots, e.g. bots=alpha,beta.v2.")
    for name in names:
        if not label.fullmatch(name):
            raise QueryError(
                "bots= is bot labels separated by commas (letters, digits, '_', '.', '+', '-'), "
                "e.g. bots=alpha,beta.v2."
            )
    return BoardQuery(_when(query, "since"), _when(query, "until"), frozenset(names), seats)


def _when(query: Mapping[str, str], name: str) -> str:
    text = query.get(name, "")
    if not text:
        return ""
    refusal = f"{name}= is an ISO date or time, e.g. {name}=2026-11-25 or {name}=2026-11-25T12:00Z."
    if len(text) > MAX_TIME_CHARS or not text.isascii():
        raise QueryError(refusal)
    try:
        moment = datetime.fromisoformat(text)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)  # the league's times are UTC
        return moment.astimezone(UTC).isoformat(timespec="milliseconds")
    except (ValueError, OverflowError):  # not ISO; a zone before year 1 or after 9999
        raise QueryError(refusal) from None


def loopback(host: str) -> bool:
    """Whether `host` (an address or a name) means this machine only."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        pass
    try:
        found = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return False
    return bool(found) and all(
        ipaddress.ip_address(str(address[4][0]).split("%")[0]).is_loopback for address in found
    )


def plain_http_warning(host: str, public_url: str | None) -> str | None:
    """The warning `arena serve` prints when tokens may cross a network in plain HTTP: it
    listens beyond this machine, or its public address is http://; None when neither."""
    if not loopback(host):
        return (
            f"Warning: --host {host} serves the league beyond this machine over plain HTTP, "
            "so authors' tokens cross the network readable by anyone on the way; put the league "
            "behind a TLS reverse proxy (docs/reverse-proxy.md) and keep --host 127.0.0.1."
        )
    if public_url is not None and urlsplit(public_url).scheme == "http":
        hostname = urlsplit(public_url).hostname or ""
        if not loopback(hostname):
            return (
                f"Warning: --public-url {public_url} is plain HTTP, so authors' tokens cross "
                "the network readable by anyone on the way; serve it over https "
                "(docs/reverse-proxy.md)."
            )
    return None


def public_url(text: str) -> str:
    """`--public-url`, checked: an http(s) address with a host and nothing after its path,
    without its trailing slash (ArenaError with one sentence otherwise)."""
    parts = urlsplit(text)
    if (
        parts.scheme not in ("https", "http")
        or not parts.hostname
        or parts.query
        or parts.fragment
        or not text.isascii()
        or len(text) > 200
    ):
        raise ArenaError(
            f"{text[:80]} is not a web address; give the league's address as "
            "people reach it, e.g. --public-url https://league.example.org."
        )
    return text.rstrip("/")
