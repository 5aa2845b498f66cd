"""The league's pages: the page itself, the join page, a game's replay viewer."""

from __future__ import annotations

import asyncio
import re

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from arena.errors import ArenaError
from arena.league import public
from arena.league.pages import JOIN_PAGE, PAGE
from arena.league.routes.site import RouteGroup, error

GAME_ID = re.compile(r"L[0-9]{7}-g[0-9]{1,2}")
"""A league game's id, as its record is named."""


class Pages(RouteGroup):
    """GET /, /join, /replay/GAME_ID, /favicon.ico."""

    def routes(self) -> list[Route]:
        return [
            Route("/", self.page),
            Route("/join", self.join_page),
            Route("/replay/{game_id}", self.replay),
            Route("/favicon.ico", lambda request: Response(status_code=204)),
        ]

    async def page(self, request: Request) -> Response:
        league = self.league
        return HTMLResponse(PAGE.replace("__GAME__", f"{league.game}, {league.seats} seats"))

    async def join_page(self, request: Request) -> Response:
        return HTMLResponse(JOIN_PAGE)

    async def replay(self, request: Request) -> Response:
        from arena.html.replay_page import replay_html
        from arena.record import load_record

        game_id = request.path_params["game_id"]
        folder = self.league.folder
        path = folder / "records" / f"{game_id}.json.gz"
        if not GAME_ID.fullmatch(game_id) or not path.is_file():
            return error(404, "There is no such game in this league.")

        def made() -> str:  # no bot's stderr: that is its author's (public.record)
            return replay_html(public.record(load_record(path), folder))

        try:
            return HTMLResponse(await asyncio.to_thread(made))
        except ArenaError as refused:  # a damaged record: no traceback, no server path
            shown = public.message(f"Game {game_id} cannot be shown: {refused}", folder)
            return error(404, shown)
