"""What the league shows everyone: a bot's stderr is its author's alone, and no message
names the server's own paths; `PublicAnswers`, the gate every answer of its web side passes.

A bot's stderr reaches the league in three ways: its log (`logs/`, `checks/LABEL/logs/`),
which only its author reads (`GET /api/bots/LABEL/stderr`); each decision's lines in a game
record, which `record` takes out before a replay page is made; and the quotes of it in a
crash's sentence ("... Its stderr: ...", a build's "Its output: ..."), which `message`
cuts off. `message` also turns the league's folder into `LEAGUE/`, a bot's folder into its
label, and any other absolute path (the checkout, the virtual environment, /tmp) into `…`.

`PublicAnswers` applies `message` to every answer on its way out (issue 42: a human table's
outcome and a refused upload named the league's folder and quoted a bot's stderr though
each list and replay was cleaned): every string of a JSON answer or of an event stream's
JSON, and the league's folder in any other text (a page). Only the answers of a handler
marked `private` (a bot's stderr, for its author) pass as they are; a binary answer (a
download of games, made from `record`s) too.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from starlette.types import ASGIApp, Message, Receive, Scope, Send

QUOTES = re.compile(r"\s*\b(?:Its stderr|Its output):.*", re.DOTALL)
"""A quote of a bot's stderr (a crash, BotProcess.explain) or its build's output (build_bot):
always the end of the sentence, which it runs to."""
MESSAGE_BYTES = 64 << 10
"""The most of a check's whole message kept for its author in the check's stderr log."""
_ABSOLUTE = re.compile(r"(?<![\w.:/~\\-])/[^\s'\"`()\[\]{}<>,;|]+")
"""An absolute path: a slash not inside a word, a number, a URL or a relative path."""


def api_path(path: str) -> bool:
    """Whether an absolute path is one of the league's API paths (not the server's)."""
    return path.startswith("/api/")


def message(
    text: str, folder: Path | None = None, label: str = "", ours: Callable[[str], bool] = api_path
) -> str:
    """`text` fit for a public page: its stderr or build-output quote cut off (`label`, when
    given, names where the author reads it), the league's `folder` written `LEAGUE/` (a
    bot's folder in it, `bots/NAME/`, written `NAME/`), other absolute paths `…` but those
    that are the league's own (`ours`: its API's by default)."""
    text, cut = QUOTES.subn("", text)
    if cut:
        where = f" (GET /api/bots/{label}/stderr)" if label else ""
        text = text.rstrip(".: ") + f". What it wrote is for its author{where}."
    if folder is not None:
        for where in {str(folder.resolve()), str(folder.absolute())}:
            if where != "/":
                text = re.sub(re.escape(where) + r"/bots/", "", text)
                text = text.replace(where + "/", "LEAGUE/").replace(where, "LEAGUE")
    return _ABSOLUTE.sub(lambda found: found[0] if ours(found[0]) else "…", text)


def check_message(text: str, folder: Path, label: str) -> str:
    """The public `message` of bot `label`'s check; the whole of `text` (its stderr quotes,
    its build's output, the paths) is added to the check's stderr log, which only the author
    reads, so nothing of what they need to mend their bot is lost."""
    log = folder / "checks" / label / "logs" / f"{label}.stderr.log"
    try:
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("ab") as file:
            whole = text.encode("utf-8", "replace")[:MESSAGE_BYTES]
            file.write(b"\n== the league's check said:\n" + whole + b"\n")
    except OSError:
        pass  # the author's copy only; the public message stands
    return message(text, folder, label)


def record(data: Mapping[str, Any], folder: Path | None = None) -> dict[str, Any]:
    """A copy of a game record as everyone may see it: no decision's stderr, and its
    outcome's reason made public (`message`)."""
    shown = {key: value for key, value in data.items() if key not in ("moves", "outcome")}
    moves = data.get("moves")
    if isinstance(moves, list):
        shown["moves"] = [
            {k: v for k, v in move.items() if k != "stderr"} if isinstance(move, dict) else move
            for move in moves
        ]
    outcome = data.get("outcome")
    if isinstance(outcome, dict):
        shown["outcome"] = copy.copy(outcome)
        if isinstance(outcome.get("reason"), str):
            shown["outcome"]["reason"] = message(outcome["reason"], folder)
    elif "outcome" in data:
        shown["outcome"] = outcome
    return shown


Handler = TypeVar("Handler", bound=Callable[..., Any])


def private(handler: Handler) -> Handler:
    """Mark a route's handler whose answers are a bot's author's own (its stderr, which the
    handler gives only to them): `PublicAnswers` lets them pass as they are."""
    handler.private_answer = True  # type: ignore[attr-defined]
    return handler


class PublicAnswers:
    """The gate every answer of the league's web application `app` passes on its way out (a
    pure ASGI middleware): `message` (the league's `folder`; `ours`, the application's own
    paths, kept) applied to every string of a JSON answer, to the JSON of each event of an
    event stream, and the folder written `LEAGUE` in any other text. A whole answer is held
    until complete and its length set again; an event stream is cleaned event by event; a
    binary answer, and a `private` handler's, pass untouched."""

    def __init__(self, app: ASGIApp, folder: Path, ours: Callable[[str], bool]) -> None:
        self.app, self.folder = app, folder
        self.ours = lambda path: api_path(path) or ours(path)
        forms = {str(folder.resolve()), str(folder.absolute())} - {"/"}
        self.folders = sorted((form.encode() for form in forms), key=len, reverse=True)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") == "HEAD":  # HEAD: no body to clean
            await self.app(scope, receive, send)
            return
        kind, held = "", []
        start: Message = {}

        async def gated(sent: Message) -> None:
            nonlocal kind, start
            if sent["type"] == "http.response.start":
                private = getattr(scope.get("endpoint"), "private_answer", False)
                kind = "" if private else _kind(sent.get("headers", []))
                if kind in ("json", "text"):
                    start = sent  # sent with the whole body, its length set again
                    return
            elif sent["type"] == "http.response.body" and kind in ("json", "text"):
                held.append(sent.get("body", b""))
                if sent.get("more_body", False):
                    return
                body = self.whole(b"".join(held), kind)
                headers = [(k, v) for k, v in start.get("headers", []) if k != b"content-length"]
                headers.append((b"content-length", str(len(body)).encode()))
                await send({**start, "headers": headers})
                sent = {"type": "http.response.body", "body": body}
            elif sent["type"] == "http.response.body" and kind == "events":
                sent = {**sent, "body": self.events(sent.get("body", b""))}
            await send(sent)

        await self.app(scope, receive, gated)

    def text(self, text: str) -> str:
        """One string of an answer, made public."""
        if "/" not in text and "Its " not in text:
            return text  # nothing to cut (the usual case: a name, a number's text)
        return message(text, self.folder, ours=self.ours)

    def value(self, value: Any) -> Any:
        """A JSON value with every string (keys too) made public."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.value(item) for item in value]
        if isinstance(value, dict):
            return {self.text(key): self.value(item) for key, item in value.items()}
        return value

    def json(self, body: bytes) -> bytes | None:
        """A JSON text made public (the same bytes when nothing changed); None if not JSON."""
        if b"/" not in body and b"Its " not in body:  # as `text`: read no further (JSON
            return body  # as json.dumps writes it never escapes a slash)
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            return None
        shown = self.value(data)
        if shown == data:
            return body
        return json.dumps(shown, ensure_ascii=False, separators=(",", ":")).encode()

    def whole(self, body: bytes, kind: str) -> bytes:
        cleaned = self.json(body) if kind == "json" else None
        return cleaned if cleaned is not None else self.paths(body)

    def events(self, chunk: bytes) -> bytes:
        """An event stream's chunk, each `data:` line's JSON made public."""
        lines = []
        for line in chunk.split(b"\n"):
            if line.startswith(b"data: "):
                cleaned = self.json(line[6:])
                line = b"data: " + cleaned if cleaned is not None else self.paths(line)
            lines.append(line)
        return b"\n".join(lines)

    def paths(self, body: bytes) -> bytes:
        """A text with the league's folder written LEAGUE."""
        for form in self.folders:
            body = body.replace(form, b"LEAGUE")
        return body


def _kind(headers: Iterable[tuple[bytes, bytes]]) -> str:
    """How an answer is cleaned, by its type: json, events, text, or "" (binary: as it is)."""
    kind = next((v for k, v in headers if k.lower() == b"content-type"), b"").lower()
    if kind.startswith(b"application/json"):
        return "json"
    if kind.startswith(b"text/event-stream"):
        return "events"
    return "text" if kind.startswith(b"text/") else ""
