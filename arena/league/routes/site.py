"""What every route group of the league's web side shares (`Site`): the league, who a
request's token is, and the one-sentence JSON errors; `RouteGroup`, the shape of a group."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from arena.errors import ArenaError
from arena.league import public
from arena.league.league import League
from arena.league.server import ServerLimits
from arena.league.store import Author, Bot
from arena.names import is_label

LABEL = re.compile(r"[A-Za-z0-9_.+-]{1,80}")
"""The characters and length of a bot's label in a path or a query."""
WRONG_TOKEN = "That token is not one of this league's; check it or ask the admin."
NO_SUCH_BOT = "There is no such bot in this league."


def error(status: int, sentence: str) -> JSONResponse:
    """A refusal: `{"error": sentence}` with `status`."""
    return JSONResponse({"error": sentence}, status_code=status)


async def replay(record: Path, game_id: str, folder: Path) -> Response:
    """The replay page of game `game_id` from its `record` (a league's or a human table's,
    in the league's `folder`): no bot's stderr, that is its author's (`public.record`); a
    damaged record is 404 with one sentence, no traceback, no server path."""
    from arena.html.replay_page import replay_html
    from arena.record import load_record

    def made() -> str:
        return replay_html(public.record(load_record(record), folder))

    try:
        return HTMLResponse(await asyncio.to_thread(made))
    except ArenaError as refused:
        return error(404, public.message(f"Game {game_id} cannot be shown: {refused}", folder))


class Site:
    """The league a web application serves, and what its handlers ask of it alike."""

    def __init__(self, league: League, limits: ServerLimits | None = None) -> None:
        self.league = league
        self.limits = limits or ServerLimits()
        """What one client may take of the server (its caps per client)."""

    def author_of(self, request: Request) -> Author | None:
        """The author whose token the request carries, if any."""
        header = request.headers.get("authorization", "")
        if not header.startswith("Bearer "):
            return None
        with self.league.lock:
            return self.league.store.author_of(header.removeprefix("Bearer ").strip())

    def unknown(self, request: Request, needs: str) -> JSONResponse:
        """401 for a request whose token is missing (`needs` says what needs one) or wrong."""
        if request.headers.get("authorization", "").startswith("Bearer "):
            return error(401, WRONG_TOKEN)
        return error(401, f"{needs} needs an author's token: Authorization: Bearer TOKEN.")

    def locked(self, act: Callable[..., Any], *args: Any) -> Any:
        """`act(*args)` under the league's lock."""
        with self.league.lock:
            return act(*args)

    def find(self, label: str) -> Bot | None:
        """The bot of `label` in the league's store, removed ones included."""
        if not LABEL.fullmatch(label) or not is_label(label):  # names' rule, and `.vN`
            return None
        with self.league.lock:
            return self.league.store.bot(label)

    def shown_bot(self, request: Request) -> Bot | None:
        """The bot a path names, if it is in the league and not removed."""
        bot = self.find(request.path_params["label"])
        return None if bot is None or bot.status == "removed" else bot


class RouteGroup:
    """Some routes of one concern, their handlers methods of the group. Made once per
    application, so what a group keeps (rate limits, caches) is the application's."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.league = site.league

    def routes(self) -> list[Route]:
        """The group's routes."""
        raise NotImplementedError
