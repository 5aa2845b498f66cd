"""The languages this league builds, with their versions (issue 41): GET /api/languages and
the page /languages. Only what its machine has is listed; never a toolchain's folder (a
path of the server's)."""

from __future__ import annotations

import asyncio
import html
import threading
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from arena.league.routes.site import RouteGroup
from arena.players.languages import LANGUAGES
from arena.players.toolchains import find_toolchain, toolchain_version


class Languages(RouteGroup):
    """GET /api/languages, /languages."""

    _lock = threading.Lock()  # the versions are asked once per process, by one request

    def routes(self) -> list[Route]:
        return [
            Route("/api/languages", self.api_languages),
            Route("/languages", self.page),
        ]

    async def api_languages(self, request: Request) -> Response:
        return JSONResponse(await asyncio.to_thread(self.listed))

    async def page(self, request: Request) -> Response:
        rows = "".join(
            "<tr>"
            + "".join(f"<td>{html.escape(str(row[key]))}</td>" for key in ("name", "version"))
            + f"<td><code>{html.escape(row['build'] or '-')}</code></td>"
            + f"<td><code>{html.escape(row['command'])}</code></td></tr>"
            for row in await asyncio.to_thread(self.listed)
        )
        return HTMLResponse(
            '<!doctype html><html lang="en"><head><meta charset="utf-8">'
            "<title>Languages of this league</title></head><body>"
            "<h1>Languages this league builds</h1><p>A bot.toml that names one of these "
            '(<code>language = "rust"</code>) and nothing else is built and run with the '
            "commands below (bots/README.md, the table of languages).</p><table><thead><tr>"
            "<th>language</th><th>version</th><th>build</th><th>run</th></tr></thead>"
            f'<tbody>{rows}</tbody></table><p><a href="/">the league</a></p></body></html>'
        )

    def listed(self) -> list[dict[str, Any]]:
        """Each language found on this machine: its key, name, version and commands."""
        with self._lock:
            return [
                {
                    "language": language.key,
                    "name": language.name,
                    "version": toolchain_version(language.key),
                    "build": " ".join(language.build) if language.build else None,
                    "command": " ".join(language.command),
                }
                for language in LANGUAGES
                if find_toolchain(language.key).found
            ]
