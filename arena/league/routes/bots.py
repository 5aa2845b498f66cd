"""Reading the bots: the list, one bot's page (its games, results, test and rating history),
its games page by page, and its latest games as a run folder for `arena report`: each read
from the league's state or from the store a page at a time, never every game."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Iterator
from typing import BinaryIO

from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from arena.errors import ArenaError
from arena.league.boards import bot_json, bot_report
from arena.league.bot_games import games_page, page_query, verdict_words
from arena.league.candidates import versions
from arena.league.downloads import Busy, Downloads
from arena.league.exposure import QueryError
from arena.league.routes.site import NO_SUCH_BOT, RouteGroup, Site, error
from arena.league.server import RateLimit, client_of

log = logging.getLogger("arena.league.web")  # the web side's log, as it always was

DOWNLOADS_PER_MINUTE = 10
"""Downloads of a bot's games per address (made a few at a time and kept: downloads.py)."""
REPORT_GAMES = 1000
"""A bot's page reports on its latest games, at most this many (read by the store's index:
within 200 ms however long it has played); its results against each other bot and its
rating history cover every game (the league's state)."""


class Bots(RouteGroup):
    """GET /api/bots, /api/bots/LABEL, /api/bots/LABEL/games, /api/bots/LABEL/games.zip."""

    def __init__(self, site: Site) -> None:
        super().__init__(site)
        self.downloads = RateLimit(DOWNLOADS_PER_MINUTE)
        self.archives = Downloads(self.league)

    def routes(self) -> list[Route]:
        return [
            Route("/api/bots", self.api_bots),
            Route("/api/bots/{label}", self.api_bot),
            Route("/api/bots/{label}/games", self.api_bot_games),
            Route("/api/bots/{label}/games.zip", self.api_bot_download),
        ]

    def api_bots(self, request: Request) -> Response:
        league = self.league
        with league.reading:  # a connection of its own: never behind a write waiting for the db
            bots = league.reader.bots()
        shown = [bot_json(bot, league.folder) for bot in bots if bot.status != "removed"]
        return JSONResponse(shown)

    def api_bot(self, request: Request) -> Response:
        league = self.league
        label = request.path_params["label"]
        with league.reading:  # a connection of its own: never behind a write waiting for the db
            bots = league.reader.bots()
        bot = next((bot for bot in bots if bot.label == label), None)
        if bot is None:
            return error(404, NO_SUCH_BOT)
        with league.reading:  # its latest games, by the store's index
            games = league.reader.bot_games(bot.label, 0, REPORT_GAMES)[::-1]
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
            league.state.games_of,
        )
        shown.update(bot_report(bot.label, games, league.folder))
        shown["report_games"] = len(games)  # the report's games: its latest
        shown["against"] = league.standings.against(bot.label)  # over every game
        shown["history"] = league.history(bot.label)
        return JSONResponse(shown)

    def api_bot_games(self, request: Request) -> Response:
        try:
            offset, limit = page_query(request.query_params)
        except QueryError as refused:
            return error(400, str(refused))
        bot = self.site.shown_bot(request)
        if bot is None:
            return error(404, NO_SUCH_BOT)
        league = self.league
        with league.reading:  # a page, by the store's index: never every game
            page = league.reader.bot_games(bot.label, offset, limit)
        total = league.state.games_of(bot.label)
        return JSONResponse(games_page(bot.label, page, total, offset, limit, league.folder))

    async def api_bot_download(self, request: Request) -> Response:
        if not self.downloads.allow(client_of(request)):
            return error(429, f"At most {DOWNLOADS_PER_MINUTE} downloads of games a minute "
                         "from one address; wait.")  # fmt: skip
        bot = await asyncio.to_thread(self.site.shown_bot, request)
        if bot is None:
            return error(404, NO_SUCH_BOT)
        played = self.league.state.games_of(bot.label)
        if not played:
            return error(404, f"{bot.label} has played no game yet; there is nothing to download.")
        try:
            archive = await self.archives.archive(bot.label, played)
        except Busy as busy:
            return error(503, str(busy))
        except (ArenaError, OSError) as failed:
            log.warning("a download of %s's games failed: %s", bot.label, failed)
            return error(503, "The league could not make that download now; try again soon.")
        size = os.fstat(archive.fileno()).st_size
        return StreamingResponse(
            _chunks(archive),
            media_type="application/zip",
            headers={
                "content-disposition": f'attachment; filename="{bot.label}-games.zip"',
                "content-length": str(size),
            },
        )


def _chunks(archive: BinaryIO) -> Iterator[bytes]:
    """The open archive's bytes, a piece at a time (read in Starlette's threads); closed at
    the end, or when the response is dropped."""
    with archive:
        while chunk := archive.read(1 << 16):
            yield chunk
