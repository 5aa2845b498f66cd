"""The human seat's page: the viewer's drawing (viewer.js) and the seat's own script
(seat.js), both inline and allowed by their hashes in a strict Content-Security-Policy."""

from __future__ import annotations

import base64
import hashlib
import html
from typing import Any

from arena.game_sources import get_game
from arena.html.embed import asset, script_json

SCRIPTS = ("viewer.js", "seat.js")
STYLES = ("viewer.css", "seat.css")


def _hashes(names: tuple[str, ...]) -> str:
    return " ".join(
        "'sha256-" + base64.b64encode(hashlib.sha256(asset(n).encode()).digest()).decode() + "'"
        for n in names
    )


def content_security_policy() -> str:
    """Nothing but the page's own scripts and styles (by hash) and requests to itself."""
    return (
        f"default-src 'none'; script-src {_hashes(SCRIPTS)}; style-src {_hashes(STYLES)}; "
        "img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; "
        "base-uri 'none'; form-action 'none'"
    )


def table_top(game: str, title: str, styles: tuple[str, ...], data: dict[str, Any]) -> str:
    """A table's page up to its status line (its `title`, the `styles` inlined), shared by the
    seat's page and the spectators' (watch_page.py); `data` gains the game's card meanings
    (the box's contents, no secret) where the game has them."""
    if (cards := get_game(game).card_meanings()) is not None:
        data["cards"] = cards
    inlined = "".join(f"<style>{asset(name)}</style>" for name in styles)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>{title}</title>
{inlined}
</head><body>
<header><h1>{title}</h1>
<div class="sub" id="status">Connecting to the table...</div></header>"""


def seat_html(
    game: str,
    players: list[str],
    seat: int,
    base: str = "",
    *,
    done: bool = False,
    watch: str = "",
) -> str:
    """The page (it learns the rest from BASE/api/state, with the key of its address's #
    or its tab's sessionStorage); `base` is the table's path on a server of many tables;
    `done`: the end screen has a Done button (BASE/api/done) that ends the server, which
    serves this table alone (`arena play`'s), and opens the replay in a tab of its own;
    `watch`: the spectators' page a visitor without the key is sent to (none: told whose
    page it is)."""
    title = html.escape(f"{game}: you are seat {seat} ({players[seat]})")
    scripts = "".join(f"<script>{asset(name)}</script>" for name in SCRIPTS)
    data: dict[str, Any] = {"game": game, "players": players, "seat": seat, "base": base,
                            "done": done}  # fmt: skip
    if watch:
        data["watch"] = watch
    return f"""{table_top(game, title, STYLES, data)}
<div id="controls"><span id="clock" class="clock"></span><span id="prompt"></span>
<button id="sound" class="sound" type="button" title="A beep when your turn comes (kept by this browser)">Sound</button>
<button id="resign" class="resign" title="Give the game up (click twice)">Resign</button></div>
<main><section id="board"></section><aside id="info" class="box">
<div id="asked"></div><h2>Moves so far</h2><ol id="narration"></ol></aside></main>
{script_json(data, "seat-data")}
{scripts}
</body></html>
"""
