"""A spectator's page of a league's human game: the viewer's drawing (viewer.js) and its own
small script (watch.js), which asks BASE/api/watch for the game's public view, never a
seat's. Its scripts and styles are allowed by hash in the league's Content-Security-Policy
(arena/league/exposure.py)."""

from __future__ import annotations

import html
from typing import Any

from arena.html.embed import asset, script_json
from arena.html.seat_page import table_top

SCRIPTS = ("viewer.js", "watch.js")
STYLES = ("viewer.css", "seat.css")


def watch_html(game: str, players: list[str], human: int, base: str) -> str:
    """The page of the table at `base` (its path on the league), where seat `human` is the
    person; it learns the rest from BASE/api/watch."""
    title = html.escape(f"{game}: watching {players[human]} play")
    scripts = "".join(f"<script>{asset(name)}</script>" for name in SCRIPTS)
    data: dict[str, Any] = {"game": game, "players": players, "human": human, "base": base}
    return f"""{table_top(game, title, STYLES, data)}
<main><section id="board"></section><aside id="info" class="box">
<div id="asked"></div><h2>Moves so far</h2><ol id="narration"></ol></aside></main>
{script_json(data, "watch-data")}
{scripts}
</body></html>
"""
