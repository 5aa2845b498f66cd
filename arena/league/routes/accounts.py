"""Who a token is, the admin's invites and the joining they allow, the admin's pause and
resume of matchmaking, the admin's audit log."""

from __future__ import annotations

import asyncio
import json

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from arena.errors import ArenaError
from arena.league import accounts, audit, server
from arena.league.routes.site import RouteGroup, Site, error
from arena.league.server import BodyRefused, RateLimit, client_of, read_body

JOIN_BODY_BYTES = 4096


class Accounts(RouteGroup):
    """GET /api/me, /api/audit; POST /api/invites, /api/join, /api/pause, /api/resume."""

    def __init__(self, site: Site) -> None:
        super().__init__(site)
        self.joins = RateLimit(server.JOINS_PER_MINUTE)

    def routes(self) -> list[Route]:
        return [
            Route("/api/me", self.me),
            Route("/api/pause", self.set_paused, methods=["POST"]),
            Route("/api/resume", self.set_paused, methods=["POST"]),
            Route("/api/invites", self.invite, methods=["POST"]),
            Route("/api/join", self.join, methods=["POST"]),
            Route("/api/audit", self.audit),
        ]

    def me(self, request: Request) -> Response:
        author = self.site.author_of(request)
        if author is None:
            return self.site.unknown(request, "Knowing who you are")
        return JSONResponse({"author": author.name, "admin": author.admin})

    def set_paused(self, request: Request) -> Response:
        author = self.site.author_of(request)
        if author is None:
            return self.site.unknown(request, "Pausing or resuming the league")
        if not author.admin:
            return error(403, "Only the league's admin may pause or resume it.")
        self.league.set_paused(request.url.path.endswith("pause"), by=author)
        return JSONResponse({"paused": self.league.paused()})

    def invite(self, request: Request) -> Response:
        author = self.site.author_of(request)
        if author is None:
            return self.site.unknown(request, "Making an invite link")
        if not author.admin:
            return error(403, "Only the league's admin may make invite links.")
        who = author.name
        code = self.site.locked(lambda: self.league.store.add_invite(who=who))
        link = f"{str(request.base_url).rstrip('/')}/join#{code}"
        return JSONResponse({"invite": code, "link": link, "days": accounts.INVITE_DAYS}, 201)

    def audit(self, request: Request) -> Response:
        """The admin's audit log, newest first (the latest `audit.SHOWN` lines)."""
        author = self.site.author_of(request)
        if author is None:
            return self.site.unknown(request, "Reading the audit log")
        if not author.admin:
            return error(403, "Only the league's admin may read the audit log.")
        with self.league.reading:  # a connection of its own: never behind a write waiting
            lines = self.league.reader.audit_lines(audit.SHOWN)
        return JSONResponse([line.to_json() for line in reversed(lines)])

    async def join(self, request: Request) -> Response:
        if not self.joins.allow(client_of(request)):
            return error(429, f"At most {server.JOINS_PER_MINUTE} joins a minute from one "
                         "address; wait.")  # fmt: skip
        try:
            body = await read_body(
                request, JOIN_BODY_BYTES, "A join request is a small JSON object."
            )
        except BodyRefused as refused:
            return error(refused.status, str(refused))
        try:
            asked = json.loads(body)
            code, name = asked["invite"], asked["name"]
            if not isinstance(code, str) or not isinstance(name, str):
                raise TypeError
        except (ValueError, KeyError, TypeError, RecursionError):  # [[[[... nests too deep
            return error(400, 'Send JSON: {"invite": "the code from your link", "name": "you"}.')
        try:
            token = await asyncio.to_thread(self.site.locked, self.league.store.join, code, name)
        except ArenaError as refused:
            return error(400, str(refused))
        return JSONResponse({"author": name, "token": token}, status_code=201)
