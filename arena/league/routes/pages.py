"""The league's pages: the page itself, the join page, a game's replay viewer."""

from __future__ import annotations

import re

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from arena.league.pages import JOIN_PAGE, PAGE
from arena.league.routes.site import RouteGroup, error, replay

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
        game_id = request.path_params["game_id"]
        path = self.league.folder / "records" / f"{game_id}.json.gz"
        if not GAME_ID.fullmatch(game_id) or not path.is_file():
            return error(404, "There is no such game in this league.")
        return await replay(path, game_id, self.league.folder)
