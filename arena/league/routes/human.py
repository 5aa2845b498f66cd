"""Playing a league bot in the browser (issue 36; the tables: arena/league/human_tables.py).

    POST /api/play                 {"bot": LABEL} with the author's Bearer token: a new table,
                                   the author's human seat and LABEL's bot; answers the
                                   game's id, its page's path and the seat's key (a key of
                                   this game alone, never the author's token)
    GET  /api/play/games           the kept human games, newest first (?bot=LABEL: its own)
    GET  /play/GID                 the seat's page (arena/html/seat_page.py); a visitor
                                   without the seat's key is sent to its spectators' page
    GET  /play/GID/watch           the spectators' page (arena/html/watch_page.py)
    GET  /play/GID/api/watch       what it shows: the game's public view, never a seat's, and
                                   the moves as a seat of none hears them (no key; at most
                                   WATCHES_PER_MINUTE a minute from one address)
    GET  /play/GID/api/state       what the seat's page shows, with `X-Seat-Key: KEY`
    POST /play/GID/api/move        {"request": N, "move": I}, with `X-Seat-Key: KEY`
    POST /play/GID/api/resign      the human gives the game up, with `X-Seat-Key: KEY`
    GET  /play/GID/replay          the game's replay, once it is over

The author's token travels only in the POST's header; the page keeps the seat's key in its
tab's sessionStorage and sends it in a header, so neither is in any address, log or Referer.
"""

from __future__ import annotations

import asyncio
import html
import json
import re

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from arena.html.seat_page import seat_html
from arena.html.watch_page import watch_html
from arena.human.server import KEY_HEADER, MAX_BODY, MOVE_REFUSAL, move_fields, told_from
from arena.league.human_tables import HumanGame, HumanTables, Refused
from arena.league.routes.site import NO_SUCH_BOT, RouteGroup, Site, error, replay
from arena.league.server import BodyRefused, RateLimit, client_of, read_body

GAME_ID = re.compile(r"H[0-9]{7}")
STARTS_PER_MINUTE = 6
"""Tables an address may ask for a minute (one plays at a time per author anyway)."""
LISTED = 50
"""At most this many human games in one answer of /api/play/games."""
NO_SUCH_GAME = "There is no such human game in this league (or it ended long ago)."
WATCHES_PER_MINUTE = 240
"""A spectator's page asks once a second (ten times while it catches up on the moves): an
address may ask this often a minute, for a few pages at once."""


def _no_such_game_page() -> str:
    """The page a browser gets for /play/GID of no game: a sentence and the way back."""
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>No such game</title>'
        f'</head><body><p>{html.escape(NO_SUCH_GAME)}</p><p><a href="/">The league</a></p>'
        "</body></html>"
    )


class Human(RouteGroup):
    """POST /api/play, /play/GID/api/move; GET /api/play/games, /play/GID, its state, replay."""

    def __init__(self, site: Site) -> None:
        super().__init__(site)
        self.tables = HumanTables(self.league)
        self.starts = RateLimit(STARTS_PER_MINUTE)
        self.watches = RateLimit(WATCHES_PER_MINUTE)

    def routes(self) -> list[Route]:
        return [
            Route("/api/play", self.play, methods=["POST"]),
            Route("/api/play/games", self.games),
            Route("/play/{game_id}", self.page),
            Route("/play/{game_id}/watch", self.watch_page),
            Route("/play/{game_id}/api/state", self.state),
            Route("/play/{game_id}/api/watch", self.watch),
            Route("/play/{game_id}/api/move", self.move, methods=["POST"]),
            Route("/play/{game_id}/api/resign", self.resign, methods=["POST"]),
            Route("/play/{game_id}/replay", self.replay),
        ]

    async def play(self, request: Request) -> Response:
        author = await asyncio.to_thread(self.site.author_of, request)
        if author is None:
            return self.site.unknown(request, "Playing a bot")
        if not self.starts.allow(client_of(request)):
            return error(429, f"At most {STARTS_PER_MINUTE} games a minute from one address; wait.")
        try:
            body = await read_body(request, MAX_BODY, 'Send {"bot": "LABEL"}, a small JSON object.')
            label = json.loads(body)["bot"]
            if not isinstance(label, str):
                raise TypeError
        except BodyRefused as refused:
            return error(refused.status, str(refused))
        except (ValueError, KeyError, TypeError, RecursionError):
            return error(400, 'Send JSON: {"bot": "the label of the bot to play"}.')
        bot = await asyncio.to_thread(self.site.find, label)
        if bot is None or bot.status == "removed":
            return error(404, NO_SUCH_BOT)
        if bot.status != "active":
            return error(409, f"{bot.label} is {bot.status}; only an active bot can be played.")
        try:
            game = await asyncio.to_thread(self.tables.start, author.name, bot)
        except Refused as refused:
            return error(refused.status, str(refused))
        page = f"/play/{game.game_id}"
        answer = {"game": game.game_id, "page": page, "key": game.key, "seat": game.desk.seat}
        return JSONResponse({**answer, "bot": bot.label, "replay": page + "/replay"}, 201)

    def games(self, request: Request) -> Response:
        bot = request.query_params.get("bot")
        lines = self.tables.games(bot)[-LISTED:]
        return JSONResponse(lines[::-1])

    def page(self, request: Request) -> Response:
        game = self._table(request)
        if isinstance(game, Response):
            return game
        desk, base = game.desk, f"/play/{game.game_id}"
        return HTMLResponse(
            seat_html(desk.game, desk.players, desk.seat, base, watch=base + "/watch")
        )

    def watch_page(self, request: Request) -> Response:
        game = self._table(request)
        if isinstance(game, Response):
            return game
        desk = game.desk
        return HTMLResponse(watch_html(desk.game, desk.players, desk.seat, f"/play/{game.game_id}"))

    def watch(self, request: Request) -> Response:
        if not self.watches.allow(client_of(request)):
            return error(
                429, f"At most {WATCHES_PER_MINUTE} looks a minute from one address; wait."
            )
        game_id = request.path_params["game_id"]
        game = self.tables.game(game_id) if GAME_ID.fullmatch(game_id) else None
        if game is None:
            return error(404, NO_SUCH_GAME)
        return JSONResponse(game.desk.watch(told_from(request.url.query)))

    def _table(self, request: Request) -> HumanGame | Response:
        """The table a page's address names; else the replay of a game over long ago, or a
        page that says there is no such game."""
        game_id = request.path_params["game_id"]
        game = self.tables.game(game_id) if GAME_ID.fullmatch(game_id) else None
        if game is not None:
            return game
        if GAME_ID.fullmatch(game_id) and self.tables.record_path(game_id).is_file():
            return RedirectResponse(f"/play/{game_id}/replay", 303)
        return HTMLResponse(_no_such_game_page(), 404)

    def state(self, request: Request) -> Response:
        game = self._seated(request)
        if isinstance(game, Response):
            return game
        game.desk.seen()
        return JSONResponse(game.desk.snapshot(told_from(request.url.query)))

    async def move(self, request: Request) -> Response:
        game = self._seated(request)
        if isinstance(game, Response):
            return game
        try:
            fields = move_fields(await read_body(request, MAX_BODY, MOVE_REFUSAL))
        except BodyRefused as refused:
            return error(refused.status, str(refused))
        if fields is None:
            return error(400, MOVE_REFUSAL)
        problem = game.desk.answer(fields["request"], fields["move"])
        game.desk.seen()
        return error(400, problem) if problem else JSONResponse({"ok": True})

    def resign(self, request: Request) -> Response:
        game = self._seated(request)
        if isinstance(game, Response):
            return game
        game.desk.resign()
        return JSONResponse({"ok": True})

    async def replay(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        path = self.tables.record_path(game_id)
        if not GAME_ID.fullmatch(game_id) or not path.is_file():
            return error(404, "There is no such game over (its replay is shown once it is over).")
        return await replay(path, game_id, self.league.folder)

    def _seated(self, request: Request) -> HumanGame | Response:
        """The table a seat's request names, its key checked; else the refusal."""
        game_id = request.path_params["game_id"]
        game = self.tables.game(game_id) if GAME_ID.fullmatch(game_id) else None
        if game is None:
            return error(404, NO_SUCH_GAME)
        if not game.key_ok(request.headers.get(KEY_HEADER, "")):
            return error(403, "This seat's key is missing or wrong: start the game from the "
                         "bot's page, in this tab.")  # fmt: skip
        return game
