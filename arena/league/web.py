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
                                    decision and results from each seat over its latest
                                    1,000 games (`report_games`), its results against each
                                    other bot and its rating history over all of them and,
                                    for a new version, its SPRT against the previous one
                                    (LLR, bounds, verdict)
    GET  /api/bots/LABEL/games      its games newest first, ?page=N (or ?offset=&limit=):
                                    each seat's bot, place and score, how the game ended
    GET  /api/bots/LABEL/games.zip  its latest games as a run folder for `arena report`
                                    (made a few at a time, kept until it plays again:
                                    downloads.py)
    GET  /api/me                    who a token is: {"author": NAME, "admin": BOOL}
    GET  /api/events                server-sent events: the leaderboard each time it changes
    GET  /replay/GAME_ID            the replay viewer of one league game
    POST /api/bots                  submit: the body is a .zip or .tar.gz of a bot folder
    POST /api/bots/LABEL/retire     stop matching your bot (its games stay); the admin: any
    POST /api/bots/LABEL/remove     take your bot out: off the leaderboards and lists (its
                                    games stay for the others; its folder goes at restart);
                                    the admin: any
    POST /api/bots/LABEL/unretire   the admin matches a retired bot again
    GET  /api/bots/LABEL/stderr     your bot's stderr log (the end of it); the admin: any
    POST /api/pause, /api/resume    the admin stops and restarts matchmaking
    POST /api/invites               the admin makes an invite link (one author, 7 days)
    GET  /api/audit                 the admin's audit log, newest first (audit.py)
    GET  /join#CODE                 the invite's page: choose a name, get a token
    POST /api/join                  {"invite": CODE, "name": NAME}: a new author and token
    POST /api/play, GET /play/GID   an author plays a bot in the browser, not rated
                                    (arena/league/routes/human.py)

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
and in it by per-client caps (`server.ClientRequests`: requests at once; live leaderboards)
and rate limits (`server.RateLimit`: custom leaderboards, joins, submissions, downloads), a
client known behind a trusted proxy by the address it passes; every response carries
`exposure.StrictHeaders`' headers, no answer carries a bot's stderr or a server path
(`public.PublicAnswers`, the gate every answer passes; only a bot's stderr route is its
author's), and a path built from
a bot's name is proven inside the league's folder first (`paths.py`).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.types import ASGIApp

from arena.league.exposure import StrictHeaders
from arena.league.league import League
from arena.league.public import PublicAnswers
from arena.league.routes.accounts import Accounts
from arena.league.routes.bots import Bots
from arena.league.routes.human import Human
from arena.league.routes.languages import Languages
from arena.league.routes.leaderboard import Leaderboard
from arena.league.routes.pages import Pages
from arena.league.routes.site import RouteGroup, Site
from arena.league.routes.submissions import UPLOADS_PER_MINUTE, Submissions
from arena.league.server import ClientRequests, ServerLimits, server_config

__all__ = [
    "ROUTE_GROUPS",
    "UPLOADS_PER_MINUTE",
    "LeagueServer",
    "create_app",
    "league_server",
    "serving",
]

ROUTE_GROUPS: tuple[Callable[[Site], RouteGroup], ...] = (
    Pages,
    Leaderboard,
    Bots,
    Submissions,
    Accounts,
    Human,
    Languages,
)
"""Every group of routes the application serves (arena/league/routes/), in the order their
routes are matched; a new group is one more line here."""


class LeagueServer(uvicorn.Server):
    """uvicorn's server of a league's web side that, told to stop (SIGINT or SIGTERM, or
    `should_exit`), first stops the league (`stopping`: its play, its human tables, its event
    streams, which uvicorn would otherwise wait for as long as a visitor holds one), and gives
    what still runs `server.STOP_GRACE_S` before it is cancelled."""

    def __init__(self, config: uvicorn.Config, stopping: Callable[[], None]) -> None:
        super().__init__(config)
        self.stopping = stopping

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.stopping()
        await super().shutdown(sockets)


def league_server(
    league: League, limits: ServerLimits | None = None, **options: Any
) -> LeagueServer:
    """The server of `league`'s web side with `arena serve`'s settings (`limits`: server.py's
    unless given; `options` as uvicorn.Config takes them), which stops the league first."""
    config = server_config(create_app(league, limits), limits, **options)
    return LeagueServer(config, league.stop.set)


@contextmanager
def serving(league: League, limits: ServerLimits | None = None) -> Iterator[str]:
    """`league`'s web side served by uvicorn in a thread of this process, on a free port of
    the loopback, for as long as the block lasts, with `arena serve`'s settings (`limits`:
    server.py's unless given); its address. Logging is left as it is (uvicorn's own set-up
    would replace the process's handlers). At the end the league is stopped, as by
    `arena serve`'s stop. The socket is bound here, to port 0, and handed to the server (a
    port found free and bound later may be taken meanwhile by another process)."""
    listening = socket.create_server(("127.0.0.1", 0), backlog=2048)
    port = listening.getsockname()[1]
    server = league_server(
        league, limits, host="127.0.0.1", port=port, log_level="error", log_config=None
    )
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [listening]}, daemon=True, name="league-web"
    )
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        listening.close()


def create_app(league: League, limits: ServerLimits | None = None) -> ASGIApp:
    """The web application of `league`, every response of it (an unforeseen error's 500 too)
    with the strict headers of `arena.league.exposure`, each client held to `limits`'
    requests at once (server.py's unless given; the same as `server_config`'s), and through
    the gate that keeps bots' stderr and the server's paths out of it
    (`public.PublicAnswers`)."""
    limits = limits or ServerLimits()
    site = Site(league, limits)
    routes = [route for group in ROUTE_GROUPS for route in group(site).routes()]

    def ours(path: str) -> bool:  # a path the application serves is not the server's
        return any(route.path_regex.match(path) for route in routes)

    gated = PublicAnswers(Starlette(routes=routes), league.folder, ours)
    return StrictHeaders(ClientRequests(gated, limits))
