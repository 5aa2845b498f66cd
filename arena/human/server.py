"""The human seat's page, served on the loopback by the standard library's ThreadingHTTPServer.

Every request is input: the Host must be this server's own address (no DNS rebinding), the
API needs the seat's key (sent by the page in a header, read from its address's `#`, which
browsers never send to a server nor in a Referer), a move's body is small JSON of two whole
numbers, and anything else gets one sentence. Strict headers on every response.
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from arena import bounded
from arena.html.seat_page import content_security_policy, seat_html
from arena.human.desk import Desk

MAX_BODY = 1024
"""The most a move's body may hold (it needs some 30 bytes)."""
MAX_CONNECTIONS = 32
"""Connections served at once, each by a thread (the page needs a few: its state, a move,
the replay in a tab); one more is closed unanswered, so no visitor makes threads without
bound."""
KEY_HEADER = "X-Seat-Key"
MOVE_REFUSAL = 'A move is {"request": N, "move": I}, two whole numbers.'


def move_fields(data: bytes) -> dict[str, int] | None:
    """A move's body, {"request": N, "move": I} of two whole numbers, or None."""
    try:
        fields = bounded.loads(data, "A move", max_depth=0)  # [[[[... raised RecursionError
    except bounded.BoundedReadError:
        return None
    if not isinstance(fields, dict) or set(fields) != {"request", "move"}:
        return None
    if not all(type(value) is int for value in fields.values()):
        return None
    return fields


def told_from(query: str) -> int:
    """The `told=N` of a state request's query (the narrated lines the page has), else 0."""
    for field in query.split("&")[:8]:
        name, _, value = field.partition("=")
        if name == "told" and value.isdigit() and len(value) <= 9:
            return int(value)
    return 0


class SeatServer(ThreadingHTTPServer):
    """One seat's page and API on 127.0.0.1; `url` holds the key after its `#`."""

    daemon_threads = True

    def __init__(self, desk: Desk, port: int = 0) -> None:
        super().__init__(("127.0.0.1", port), _Handler)
        self.desk = desk
        self.key = secrets.token_urlsafe(24)
        self.policy = content_security_policy()
        self.page = seat_html(desk.game, desk.players, desk.seat, done=True).encode()
        self.done = threading.Event()
        """Set when the page's Done was clicked after the game: the command may end."""
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self._replay: bytes | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/#key={self.key}"

    def hosts(self) -> set[str]:
        port = self.server_address[1]
        return {f"127.0.0.1:{port}", f"localhost:{port}"}

    def replay_page(self) -> bytes | None:
        """The whole game's replay, every seat's view: only once the game is over."""
        record = self.desk.record
        if record is None:
            return None
        if self._replay is None:
            from arena.html.replay_page import replay_html

            self._replay = replay_html(record).encode()
        return self._replay

    def process_request(self, request: Any, client_address: Any) -> None:
        """A thread for the connection while fewer than MAX_CONNECTIONS are open."""
        if not self._slots.acquire(blocking=False):
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:  # no thread started: its slot is free again
            self._slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def start(self) -> None:
        self._thread = threading.Thread(target=self.serve_forever, args=(0.2,), daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
        if self._thread is not None:
            self._thread.join(5)


class _Handler(BaseHTTPRequestHandler):
    server: SeatServer
    timeout = 15  # a client that sends nothing for this long is dropped
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass  # the terminal is the human's; nothing to log per request

    def do_GET(self) -> None:  # noqa: N802
        if not self._host_ok():
            return
        path, _, query = self.path.partition("?")
        if path == "/":
            self._send(200, self.server.page, "text/html; charset=utf-8")
        elif path == "/api/state" and self._key_ok():
            self.server.desk.seen()
            self._json(200, self.server.desk.snapshot(told_from(query)))
        elif path == "/favicon.ico":  # the replay page has no icon: nothing, not an error
            self._send(204, b"", "image/x-icon")
        elif path == "/replay":
            page = self.server.replay_page()
            if page is None:
                self._json(404, {"error": "The replay is shown once the game is over."})
                return
            self.server.desk.seen()  # the player is still about
            self._send(200, page, "text/html; charset=utf-8")
        elif path != "/api/state":
            self._json(404, {"error": f"There is no page {path[:80]!r} here."})

    def do_POST(self) -> None:  # noqa: N802
        if not self._host_ok() or not self._key_ok():
            return
        if self.path == "/api/resign":
            self.server.desk.resign()
            self._json(200, {"ok": True})
            return
        if self.path == "/api/done":
            self._done()
            return
        if self.path != "/api/move":
            self._json(404, {"error": "Moves are sent to /api/move."})
            return
        body = self._body()
        if body is None:
            return
        problem = self.server.desk.answer(body["request"], body["move"])
        self.server.desk.seen()
        self._json(400 if problem else 200, {"error": problem} if problem else {"ok": True})

    def _done(self) -> None:
        """The player is done with the game's page: the command serving it may end (only
        once the game is over; before, Resign gives the game up)."""
        if self.server.desk.record is None:
            self._json(409, {"error": "The game is not over: Resign gives it up (click it twice)."})
            return
        self._json(200, {"ok": True})  # answered before the server is told to end
        self.server.done.set()

    def _body(self) -> dict[str, int] | None:
        """The move's JSON body {"request": N, "move": I}, or None after saying why not."""
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            length = -1
        if not 0 <= length <= MAX_BODY:
            self.close_connection = True
            self._json(400, {"error": f"A move is a JSON body of at most {MAX_BODY} bytes."})
            return None
        fields = move_fields(self.rfile.read(length))
        if fields is None:
            self._json(400, {"error": MOVE_REFUSAL})
        return fields

    def _host_ok(self) -> bool:
        if self.headers.get("Host", "") in self.server.hosts():
            return True
        self._json(421, {"error": "This page answers only at its own address (127.0.0.1)."})
        return False

    def _key_ok(self) -> bool:
        given = self.headers.get(KEY_HEADER, "")
        if hmac.compare_digest(given.encode(), self.server.key.encode()):
            return True
        self._json(403, {"error": "This seat's key is missing or wrong: open the address printed."})
        return False

    def _json(self, status: int, data: Mapping[str, Any]) -> None:
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        self._send(status, text.encode(), "application/json")

    def _send(self, status: int, body: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Content-Security-Policy", self.server.policy)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)
