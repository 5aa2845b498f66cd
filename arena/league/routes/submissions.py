"""An author's acts on their bots: submit an archive, retire or remove a bot, read its
stderr; the admin's unretire. Each needs the author's token."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from arena.errors import ArenaError
from arena.league import public, server, uploads
from arena.league.boards import bot_json
from arena.league.paths import PathError, bot_folders, inside
from arena.league.routes.site import RouteGroup, Site, error
from arena.league.server import BodyRefused, RateLimit, client_of

UPLOADS_PER_MINUTE = 10
STDERR_TAIL = 64 << 10


def unread(status: int, sentence: str) -> Response:
    """A refusal that closes the connection: the rest of the body is never read."""
    answer = error(status, sentence)
    answer.headers["Connection"] = "close"
    return answer


class Submissions(RouteGroup):
    """POST /api/bots, /api/bots/LABEL/retire, /api/bots/LABEL/remove,
    /api/bots/LABEL/unretire (the admin's); GET /api/bots/LABEL/stderr."""

    def __init__(self, site: Site) -> None:
        super().__init__(site)
        self.by_author = RateLimit(UPLOADS_PER_MINUTE)
        self.by_address = RateLimit(server.SUBMISSIONS_PER_ADDRESS_PER_MINUTE)

    def routes(self) -> list[Route]:
        return [
            Route("/api/bots", self.submit, methods=["POST"]),
            Route("/api/bots/{label}/retire", self.act_on_bot, methods=["POST"]),
            Route("/api/bots/{label}/remove", self.act_on_bot, methods=["POST"]),
            Route("/api/bots/{label}/unretire", self.act_on_bot, methods=["POST"]),
            Route("/api/bots/{label}/stderr", self.stderr),
        ]

    async def submit(self, request: Request) -> Response:
        if not self.by_address.allow(client_of(request)):
            return unread(429, f"At most {server.SUBMISSIONS_PER_ADDRESS_PER_MINUTE} "
                          "submissions a minute from one address; wait.")  # fmt: skip
        author = await asyncio.to_thread(self.site.author_of, request)  # before the body
        if author is None:
            refusal = self.site.unknown(request, "Submitting")
            refusal.headers["Connection"] = "close"  # the rest of the body is never read
            return refusal
        if not self.by_author.allow(author.name):
            return unread(429, f"At most {UPLOADS_PER_MINUTE} submissions a minute; wait.")
        too_large = f"A bot archive may be at most {uploads.MAX_UPLOAD_BYTES >> 20} MiB."
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > uploads.MAX_UPLOAD_BYTES:
            return unread(413, too_large)
        folder = self.league.folder / "uploads"
        with tempfile.NamedTemporaryFile(dir=folder, suffix=".upload") as file:
            try:
                async for chunk in server.body_chunks(request, uploads.MAX_UPLOAD_BYTES, too_large):
                    file.write(chunk)
            except BodyRefused as refused:  # at the cap: stop reading, close the connection
                return unread(refused.status, str(refused))
            file.flush()
            try:
                bot = await asyncio.to_thread(self.league.submit, author, Path(file.name))
            except ArenaError as failed:
                return error(400, str(failed))
        return JSONResponse(bot_json(bot), status_code=202)

    def act_on_bot(self, request: Request) -> Response:
        """Retire, remove or unretire the bot the path names, as the token's author may."""
        author = self.site.author_of(request)
        if author is None:
            return self.site.unknown(request, "Retiring, removing or unretiring a bot")
        league = self.league
        acts = {"retire": league.retire, "remove": league.remove, "unretire": league.unretire}
        act = acts[request.url.path.rsplit("/", 1)[1]]
        try:
            bot = act(author, request.path_params["label"])
        except ArenaError as refused:
            return error(403, str(refused))
        return JSONResponse(bot_json(bot))

    @public.private  # its author's (or the admin's) alone: checked below
    def stderr(self, request: Request) -> Response:
        author = self.site.author_of(request)
        if author is None:
            return self.site.unknown(request, "Reading a bot's stderr")
        bot = self.site.find(request.path_params["label"])
        if bot is None or (bot.author != author.name and not author.admin):
            return error(403, "Only a bot's author may read its stderr.")
        text, log_name, folder = "", f"{bot.label}.stderr.log", self.league.folder
        try:  # proven inside the league's folder (an older arena's store may hold `..`)
            paths = (
                inside(bot_folders(folder, bot)[1], f"logs/{log_name}"),
                inside(folder, f"logs/{log_name}", "logs"),
            )
        except PathError as refused:
            return error(404, str(refused))
        for path in paths:
            if path.is_file():
                with path.open("rb") as file:
                    file.seek(max(0, path.stat().st_size - STDERR_TAIL))
                    text += f"== {path.parent.name}\n" + file.read().decode("utf-8", "replace")
        return JSONResponse({"bot": bot.label, "stderr": text})
