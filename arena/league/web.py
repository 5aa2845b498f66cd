"""The league's web page and HTTP API (Starlette on uvicorn), bound to 127.0.0.1 by default.

Why Starlette: a small, well-kept ASGI toolkit (the base of FastAPI) that needs no build
step and streams server-sent events out of the box; uvicorn is its usual server.

    GET  /                          the page: the live leaderboard, bots, submitting
    GET  /api/leaderboard           JSON rows, best first: bot, author, version, status,
                                    games, mu, sigma, conservative (mu - 3 sigma), elo with
                                    elo_lo/elo_hi, win_rate with its interval, failures...;
                                    ?since=ISO&until=ISO&bots=a,b&seats=K for a custom
                                    leaderboard (finished in a time range, among some
                                    bots, at tables of K seats)
    GET  /api/bots                  every bot version with its status and message
    GET  /api/bots/LABEL            one version: its games, failures, think and CPU time per
                                    decision, its results against each other bot and from
                                    each seat and, for a new version, its SPRT against the
                                    previous one (LLR, bounds, verdict)
    GET  /api/bots/LABEL/games      its games newest first, ?page=N (or ?offset=&limit=):
                                    each seat's bot, place and score, how the game ended
    GET  /api/bots/LABEL/games.zip  its latest games as a run folder for `arena report`
    GET  /api/me                    who a token is: {"author": NAME, "admin": BOOL}
    GET  /api/events                server-sent events: the leaderboard each time it changes
    GET  /replay/GAME_ID            the replay viewer of one league game
    POST /api/bots                  submit: the body is a .zip or .tar.gz of a bot folder
    POST /api/bots/LABEL/retire     stop matching your bot (its games stay)
    POST /api/bots/LABEL/remove     take your bot out: off the leaderboards and lists (its
                                    games stay for the others; its folder goes at restart)
    GET  /api/bots/LABEL/stderr     your bot's stderr log (the end of it)
    POST /api/pause, /api/resume    the admin stops and restarts matchmaking
    POST /api/invites               the admin makes an invite link (one author, 7 days)
    GET  /join#CODE                 the invite's page: choose a name, get a token
    POST /api/join                  {"invite": CODE, "name": NAME}: a new author and token

Handlers that read the store are plain functions, which Starlette runs in its thread pool,
so a slow database (PostgreSQL over a network) never holds up the event loop; the two that
stream a body hand their store work to a thread. Acting needs `Authorization: Bearer TOKEN`
(the token an admin made with `arena serve --add-author`, or one an invite gave); reading
does not. An invite's code travels in the link's fragment (`#CODE`), which browsers never
send to a server, so it is in no log. The page sends the token itself from a field the author
fills in, never in a cookie, so another site cannot make a browser act for an author (no
cross-site request forgery to defend against). Every text from a bot (its name, its check's
message, its stderr) reaches the page as JSON and is put in with `textContent`, never as
HTML. An upload is read up to `uploads.MAX_UPLOAD_BYTES` and refused beyond, closing the
connection; an author may submit `UPLOADS_PER_MINUTE` times a minute. What a visitor may cost
is bounded below the application by `server.py` (header and body timeouts, connection caps)
and in it by per-address rate limits (`server.RateLimit`: custom leaderboards, joins,
submissions, downloads); every response carries `exposure.StrictHeaders`' headers, no public
page or message carries a bot's stderr or a server path (`public.py`), and a path built from
a bot's name is proven inside the league's folder first (`paths.py`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route
from starlette.types import ASGIApp

from arena.errors import ArenaError
from arena.league import accounts, public, server, uploads
from arena.league.boards import Boards, Busy, bot_json, bot_report
from arena.league.bot_games import (
    RatingHistory,
    TableSizes,
    empty_board,
    games_page,
    page_query,
    refused_query,
    typed_rows,
    verdict_words,
)
from arena.league.candidates import versions
from arena.league.export import bot_download
from arena.league.exposure import QueryError, StrictHeaders, board_query
from arena.league.league import League
from arena.league.pages import JOIN_PAGE, PAGE
from arena.league.paths import PathError, bot_folders, inside
from arena.league.server import (
    BodyRefused,
    RateLimit,
    ServerLimits,
    client_of,
    read_body,
    server_config,
)
from arena.league.store import Author, Bot
from arena.names import is_label

log = logging.getLogger(__name__)

UPLOADS_PER_MINUTE = 10
STDERR_TAIL = 64 << 10
EVENT_SECONDS = 1.0
EVENTS_MAX_SECONDS = 600.0
"""A live page's event stream ends after this; the page opens a new one."""
_LABEL = re.compile(r"[A-Za-z0-9_.+-]{1,80}")
_GAME_ID = re.compile(r"L[0-9]{7}-g[0-9]{1,2}")
JOIN_BODY_BYTES = 4096
DOWNLOADS_PER_MINUTE = 10
DOWNLOAD_PREFIX = "arena-league-download-"
HISTORY_WAIT_S = 0.5
"""A bot's page waits this long for its rating history, else shows it later (null)."""
"""Downloads of a bot's games (each made in a temporary file, one at a time) per address."""
WRONG_TOKEN = "That token is not one of this league's; check it or ask the admin."


def _error(status: int, sentence: str) -> JSONResponse:
    return JSONResponse({"error": sentence}, status_code=status)


@contextmanager
def serving(league: League, limits: ServerLimits | None = None) -> Iterator[str]:
    """`league`'s web side served by uvicorn in a thread of this process, on a free port of
    the loopback, for as long as the block lasts, with `arena serve`'s settings (`limits`:
    server.py's unless given); its address. Logging is left as it is (uvicorn's own set-up
    would replace the process's handlers)."""
    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = server_config(
        create_app(league), limits, host="127.0.0.1", port=port, log_level="error",
        log_config=None,
    )  # fmt: skip
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True, name="league-web")
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def create_app(league: League) -> ASGIApp:
    """The web application of `league`, every response of it (an unforeseen error's 500 too)
    with the strict headers of `arena.league.exposure`."""
    by_author = RateLimit(UPLOADS_PER_MINUTE)  # submissions, and per address below
    by_address = RateLimit(server.SUBMISSIONS_PER_ADDRESS_PER_MINUTE)
    customs, joins = RateLimit(server.CUSTOM_BOARDS_PER_MINUTE), RateLimit(server.JOINS_PER_MINUTE)
    boards = Boards(league)
    history, sizes = RatingHistory(), TableSizes()
    threading.Thread(  # every game stored so far rated once, before a page asks
        target=history.of,
        args=("", league.played, -1, league.opened_with),
        daemon=True,
        name="league-history",
    ).start()
    downloads = RateLimit(DOWNLOADS_PER_MINUTE)
    download_slot = asyncio.Semaphore(1)

    def author_of(request: Request) -> Author | None:
        header = request.headers.get("authorization", "")
        if not header.startswith("Bearer "):
            return None
        with league.lock:
            return league.store.author_of(header.removeprefix("Bearer ").strip())

    def unknown(request: Request, needs: str) -> JSONResponse:
        """401 for a request whose token is missing (`needs` says what needs one) or wrong."""
        if request.headers.get("authorization", "").startswith("Bearer "):
            return _error(401, WRONG_TOKEN)
        return _error(401, f"{needs} needs an author's token: Authorization: Bearer TOKEN.")

    def locked(act: Callable[..., Any], *args: Any) -> Any:
        with league.lock:
            return act(*args)

    def find(label: str) -> Bot | None:
        if not _LABEL.fullmatch(label) or not is_label(label):  # names' rule, and `.vN`
            return None
        with league.lock:
            return league.store.bot(label)

    async def page(request: Request) -> Response:
        return HTMLResponse(PAGE.replace("__GAME__", f"{league.game}, {league.seats} seats"))

    async def api_leaderboard(request: Request) -> Response:
        try:
            asked = board_query(request.query_params, _LABEL)
        except QueryError as error:
            return _error(400, str(error))
        if asked.custom:  # a query that can hold no game: one sentence, not []
            refusal = refused_query(asked, sizes.of(league.played), league.seats)
            if refusal is not None:
                return _error(*refusal)
        try:
            if asked.custom:
                if not customs.allow(client_of(request)):
                    return _error(429, f"At most {server.CUSTOM_BOARDS_PER_MINUTE} custom "
                                  "leaderboards a minute from one address; wait, or read the "
                                  "plain leaderboard.")  # fmt: skip
                rows = await boards.custom(asked.since, asked.until, asked.among, asked.seats)
                if not rows:
                    return _error(404, empty_board(asked))
            else:
                rows = await boards.served_plain()  # no thread, no lock: never waits on custom
        except Busy as error:
            return _error(503, str(error))
        return JSONResponse(typed_rows(rows))  # one JSON type per field

    def api_bots(request: Request) -> Response:
        with league.reading:  # a connection of its own: never behind a write waiting for the db
            bots = league.reader.bots()
        shown = [bot_json(bot, league.folder) for bot in bots if bot.status != "removed"]
        return JSONResponse(shown)

    def api_bot(request: Request) -> Response:
        label = request.path_params["label"]
        with league.reading:  # a connection of its own: never behind a write waiting for the db
            bots = league.reader.bots()
        bot = next((bot for bot in bots if bot.label == label), None)
        if bot is None:
            return _error(404, "There is no such bot in this league.")
        # the league's lists, read without its lock (the play thread only appends to them)
        games = list(league.games_by_bot.get(bot.label, []))
        verdict = league.verdict(bot, bots)
        shown = bot_json(bot, league.folder)
        shown["sprt"] = None if verdict is None else verdict.to_json()
        shown["verdict"] = (  # untested or stopped: the reason is the verdict's (candidates)
            verdict.words
            if verdict is not None and verdict.why
            else verdict_words(bot.version, verdict, league.test)
        )
        shown["versions"] = versions(  # every version of its name: status, games, test
            bot,
            bots,
            lambda version: league.verdict(version, bots),
            lambda label: len(league.games_by_bot.get(label, [])),
        )
        shown.update(bot_report(bot.label, games, league.folder))
        shown["history"] = history.of(
            bot.label, league.played, HISTORY_WAIT_S, league.opened_with
        )  # or None
        return JSONResponse(shown)

    def shown_bot(request: Request) -> Bot | None:
        """The bot a path names, if it is in the league and not removed."""
        bot = find(request.path_params["label"])
        return None if bot is None or bot.status == "removed" else bot

    def api_bot_games(request: Request) -> Response:
        try:
            offset, limit = page_query(request.query_params)
        except QueryError as error:
            return _error(400, str(error))
        bot = shown_bot(request)
        if bot is None:
            return _error(404, "There is no such bot in this league.")
        games = league.games_by_bot.get(bot.label, [])  # only appended to: read without a lock
        return JSONResponse(games_page(bot.label, games, offset, limit, league.folder))

    async def api_bot_download(request: Request) -> Response:
        if not downloads.allow(client_of(request)):
            return _error(429, f"At most {DOWNLOADS_PER_MINUTE} downloads of games a minute "
                          "from one address; wait.")  # fmt: skip
        bot = await asyncio.to_thread(shown_bot, request)
        if bot is None:
            return _error(404, "There is no such bot in this league.")
        games = list(league.games_by_bot.get(bot.label, []))
        if not games:
            return _error(404, f"{bot.label} has played no game yet; there is nothing to download.")
        scratch = Path(tempfile.mkdtemp(prefix=DOWNLOAD_PREFIX))  # public data only: the system's
        try:
            async with download_slot:  # one archive made at a time
                archive = await asyncio.to_thread(bot_download, league, bot.label, games, scratch)
        except (ArenaError, OSError) as error:
            shutil.rmtree(scratch, ignore_errors=True)
            log.warning("a download of %s's games failed: %s", bot.label, error)
            return _error(503, "The league could not make that download now; try again soon.")
        return FileResponse(
            archive,
            media_type="application/zip",
            filename=archive.name,
            background=BackgroundTask(shutil.rmtree, scratch, ignore_errors=True),
        )

    def me(request: Request) -> Response:
        author = author_of(request)
        if author is None:
            return unknown(request, "Knowing who you are")
        return JSONResponse({"author": author.name, "admin": author.admin})

    async def submit(request: Request) -> Response:
        def unread(status: int, sentence: str) -> Response:
            """A refusal that closes the connection: the rest of the body is never read."""
            answer = _error(status, sentence)
            answer.headers["Connection"] = "close"
            return answer

        if not by_address.allow(client_of(request)):
            return unread(429, f"At most {server.SUBMISSIONS_PER_ADDRESS_PER_MINUTE} "
                          "submissions a minute from one address; wait.")  # fmt: skip
        author = await asyncio.to_thread(author_of, request)  # before a byte of the body
        if author is None:
            refusal = unknown(request, "Submitting")
            refusal.headers["Connection"] = "close"  # the rest of the body is never read
            return refusal
        if not by_author.allow(author.name):
            return unread(429, f"At most {UPLOADS_PER_MINUTE} submissions a minute; wait.")
        too_large = f"A bot archive may be at most {uploads.MAX_UPLOAD_BYTES >> 20} MiB."
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > uploads.MAX_UPLOAD_BYTES:
            return unread(413, too_large)
        with tempfile.NamedTemporaryFile(dir=league.folder / "uploads", suffix=".upload") as file:
            try:
                async for chunk in server.body_chunks(request, uploads.MAX_UPLOAD_BYTES, too_large):
                    file.write(chunk)
            except BodyRefused as error:  # at the cap: stop reading, close the connection
                return unread(error.status, str(error))
            file.flush()
            try:
                bot = await asyncio.to_thread(league.submit, author, Path(file.name))
            except ArenaError as error:
                return _error(400, str(error))
        return JSONResponse(bot_json(bot), status_code=202)

    def retire_or_remove(request: Request) -> Response:
        author = author_of(request)
        if author is None:
            return unknown(request, "Retiring or removing a bot")
        act = league.remove if request.url.path.endswith("/remove") else league.retire
        try:
            bot = act(author, request.path_params["label"])
        except ArenaError as error:
            return _error(403, str(error))
        return JSONResponse(bot_json(bot))

    def stderr(request: Request) -> Response:
        author = author_of(request)
        if author is None:
            return unknown(request, "Reading a bot's stderr")
        bot = find(request.path_params["label"])
        if bot is None or (bot.author != author.name and not author.admin):
            return _error(403, "Only a bot's author may read its stderr.")
        text, log_name = "", f"{bot.label}.stderr.log"
        try:  # proven inside the league's folder (an older arena's store may hold `..`)
            paths = (
                inside(bot_folders(league.folder, bot)[1], f"logs/{log_name}"),
                inside(league.folder, f"logs/{log_name}", "logs"),
            )
        except PathError as error:
            return _error(404, str(error))
        for path in paths:
            if path.is_file():
                with path.open("rb") as file:
                    file.seek(max(0, path.stat().st_size - STDERR_TAIL))
                    text += f"== {path.parent.name}\n" + file.read().decode("utf-8", "replace")
        return JSONResponse({"bot": bot.label, "stderr": text})

    def set_paused(request: Request) -> Response:
        author = author_of(request)
        if author is None:
            return unknown(request, "Pausing or resuming the league")
        if not author.admin:
            return _error(403, "Only the league's admin may pause or resume it.")
        league.set_paused(request.url.path.endswith("pause"))
        return JSONResponse({"paused": league.paused()})

    def invite(request: Request) -> Response:
        author = author_of(request)
        if author is None:
            return unknown(request, "Making an invite link")
        if not author.admin:
            return _error(403, "Only the league's admin may make invite links.")
        code = locked(league.store.add_invite)
        link = f"{str(request.base_url).rstrip('/')}/join#{code}"
        return JSONResponse({"invite": code, "link": link, "days": accounts.INVITE_DAYS}, 201)

    async def join(request: Request) -> Response:
        if not joins.allow(client_of(request)):
            return _error(429, f"At most {server.JOINS_PER_MINUTE} joins a minute from one "
                          "address; wait.")  # fmt: skip
        try:
            body = await read_body(
                request, JOIN_BODY_BYTES, "A join request is a small JSON object."
            )
        except BodyRefused as error:
            return _error(error.status, str(error))
        try:
            asked = json.loads(body)
            code, name = asked["invite"], asked["name"]
            if not isinstance(code, str) or not isinstance(name, str):
                raise TypeError
        except (ValueError, KeyError, TypeError, RecursionError):  # [[[[... nests too deep
            return _error(400, 'Send JSON: {"invite": "the code from your link", "name": "you"}.')
        try:
            token = await asyncio.to_thread(locked, league.store.join, code, name)
        except ArenaError as error:
            return _error(400, str(error))
        return JSONResponse({"author": name, "token": token}, status_code=201)

    async def join_page(request: Request) -> Response:
        return HTMLResponse(JOIN_PAGE)

    async def events(request: Request) -> Response:
        async def stream() -> Any:
            last, started = None, time.monotonic()
            while time.monotonic() - started < EVENTS_MAX_SECONDS:
                if await request.is_disconnected():
                    return
                rows = await asyncio.to_thread(boards.plain)
                if rows is not last:
                    last = rows
                    yield f"data: {json.dumps(typed_rows(rows))}\n\n"
                await asyncio.sleep(EVENT_SECONDS)

        return StreamingResponse(stream(), media_type="text/event-stream")

    async def replay(request: Request) -> Response:
        from arena.html.replay_page import replay_html
        from arena.record import load_record

        game_id = request.path_params["game_id"]
        path = league.folder / "records" / f"{game_id}.json.gz"
        if not _GAME_ID.fullmatch(game_id) or not path.is_file():
            return _error(404, "There is no such game in this league.")

        def made() -> str:  # no bot's stderr: that is its author's (public.record)
            return replay_html(public.record(load_record(path), league.folder))

        try:
            return HTMLResponse(await asyncio.to_thread(made))
        except ArenaError as error:  # a damaged record: no traceback, no server path
            shown = public.message(f"Game {game_id} cannot be shown: {error}", league.folder)
            return _error(404, shown)

    application = Starlette(
        routes=[
            Route("/", page),
            Route("/api/leaderboard", api_leaderboard),
            Route("/api/bots", api_bots),
            Route("/api/bots", submit, methods=["POST"]),
            Route("/api/bots/{label}", api_bot),
            Route("/api/bots/{label}/retire", retire_or_remove, methods=["POST"]),
            Route("/api/bots/{label}/remove", retire_or_remove, methods=["POST"]),
            Route("/api/bots/{label}/stderr", stderr),
            Route("/api/bots/{label}/games", api_bot_games),
            Route("/api/bots/{label}/games.zip", api_bot_download),
            Route("/api/me", me),
            Route("/api/pause", set_paused, methods=["POST"]),
            Route("/api/resume", set_paused, methods=["POST"]),
            Route("/api/invites", invite, methods=["POST"]),
            Route("/api/join", join, methods=["POST"]),
            Route("/join", join_page),
            Route("/api/events", events),
            Route("/replay/{game_id}", replay),
            Route("/favicon.ico", lambda request: Response(status_code=204)),
        ]
    )
    return StrictHeaders(application)
