"""The leaderboard: plain or custom (a time range, some bots, a table size), and the live
event stream that sends it each time it changes."""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from arena.league import server
from arena.league.boards import Boards, Busy
from arena.league.bot_games import empty_board, refused_query, typed_rows
from arena.league.exposure import QueryError, board_query
from arena.league.routes.site import LABEL, RouteGroup, Site, error
from arena.league.server import RateLimit, client_of

EVENT_SECONDS = 1.0
EVENTS_MAX_SECONDS = 600.0
"""A live page's event stream ends after this (the page opens a new one), or within
EVENT_SECONDS of the league stopping (its server stops: web.LeagueServer)."""


class CountedStream(StreamingResponse):
    """An event stream that calls `release` once it ends, however it ends."""

    def __init__(self, content: Any, release: Callable[[], None]) -> None:
        super().__init__(content, media_type="text/event-stream")
        self.release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.release()


class Leaderboard(RouteGroup):
    """GET /api/leaderboard, /api/events."""

    def __init__(self, site: Site) -> None:
        super().__init__(site)
        self.boards = Boards(self.league)
        self.customs = RateLimit(server.CUSTOM_BOARDS_PER_MINUTE)
        self.streams: Counter[str | None] = Counter()
        """Event streams open, by client (None: a trusted proxy's own); on the event loop."""

    def routes(self) -> list[Route]:
        return [
            Route("/api/leaderboard", self.api_leaderboard),
            Route("/api/events", self.events),
        ]

    async def api_leaderboard(self, request: Request) -> Response:
        league = self.league
        try:
            asked = board_query(request.query_params, LABEL)
        except QueryError as refused:
            return error(400, str(refused))
        if asked.custom:  # a query that can hold no game: one sentence, not []
            with league.standings.lock:
                sizes = set(league.standings.sizes)
            refusal = refused_query(asked, sizes, league.seats)
            if refusal is not None:
                return error(*refusal)
        try:
            if asked.custom:
                if not self.customs.allow(client_of(request)):
                    return error(429, f"At most {server.CUSTOM_BOARDS_PER_MINUTE} custom "
                                 "leaderboards a minute from one address; wait, or read the "
                                 "plain leaderboard.")  # fmt: skip
                rows = await self.boards.custom(asked.since, asked.until, asked.among, asked.seats)
                if not rows:
                    return error(404, empty_board(asked))
            else:
                rows = await self.boards.served_plain()  # no thread, no lock: never waits on custom
        except Busy as busy:
            return error(503, str(busy))
        return JSONResponse(typed_rows(rows))  # one JSON type per field

    async def events(self, request: Request) -> Response:
        boards, limits, streams = self.boards, self.site.limits, self.streams
        stop = self.league.stop
        client = limits.client(request.client.host if request.client else None)
        if streams.total() >= limits.event_streams:
            return error(503, f"The league serves {limits.event_streams} live leaderboards at "
                         "once and all are taken; reload the page in a minute.")  # fmt: skip
        if client is not None and streams[client] >= limits.client_streams:
            return error(429, f"At most {limits.client_streams} live leaderboards at once from "
                         "one address; close some pages.")  # fmt: skip
        streams[client] += 1

        def release() -> None:
            streams[client] -= 1
            if streams[client] <= 0:
                del streams[client]

        async def stream() -> Any:  # ends when the league stops: the server waits for it
            last, started = None, time.monotonic()
            while time.monotonic() - started < EVENTS_MAX_SECONDS and not stop.is_set():
                if await request.is_disconnected():
                    return
                rows = await asyncio.to_thread(boards.plain)
                if rows is not last:
                    last = rows
                    yield f"data: {json.dumps(typed_rows(rows))}\n\n"
                await asyncio.sleep(EVENT_SECONDS)

        return CountedStream(stream(), release)
