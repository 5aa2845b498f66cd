"""The league's web page and HTTP API (Starlette on uvicorn), bound to 127.0.0.1 by default.

Why Starlette: a small, well-kept ASGI toolkit (the base of FastAPI) that needs no build
step and streams server-sent events out of the box; uvicorn is its usual server.

    GET  /                          the page: the live leaderboard, bots, submitting
    GET  /api/leaderboard           JSON rows, best first: bot, author, version, status,
                                    games, mu, sigma, conservative (mu - 3 sigma), elo with
                                    elo_lo/elo_hi, win_rate with its interval, failures...;
                                    ?since=ISO&until=ISO&bots=a,b&seats=K for a custom
                                    leaderboard (finished in a time range, among some
                                    bots, at tables of K seats)
    GET  /api/bots                  every bot version with its status and message
    GET  /api/bots/LABEL            one version: its games, failures, think and CPU time per
                                    decision, its results against each other bot and from
                                    each seat and, for a new version, its SPRT against the
                                    previous one (LLR, bounds, verdict)
    GET  /api/events                server-sent events: the leaderboard each time it changes
    GET  /replay/GAME_ID            the replay viewer of one league game
    POST /api/bots                  submit: the body is a .zip or .tar.gz of a bot folder
    POST /api/bots/LABEL/retire     stop matching your bot (its games stay)
    POST /api/bots/LABEL/remove     take your bot out: off the leaderboards and lists (its
                                    games stay for the others; its folder goes at restart)
    GET  /api/bots/LABEL/stderr     your bot's stderr log (the end of it)
    POST /api/pause, /api/resume    the admin stops and restarts matchmaking
    POST /api/invites               the admin makes an invite link (one author, 7 days)
    GET  /join#CODE                 the invite's page: choose a name, get a token
    POST /api/join                  {"invite": CODE, "name": NAME}: a new author and token

Handlers that read the store are plain functions, which Starlette runs in its thread pool,
so a slow database (PostgreSQL over a network) never holds up the event loop; the two that
stream a body hand their store work to a thread. Acting needs `Authorization: Bearer TOKEN`
(the token an admin made with `arena serve --add-author`, or one an invite gave); reading
does not. An invite's code travels in the link's fragment (`#CODE`), which browsers never
send to a server, so it is in no log. The page sends the token itself from a field the author
fills in, never in a cookie, so another site cannot make a browser act for an author (no
cross-site request forgery to defend against). Every text from a bot (its name, its check's
message, its stderr) reaches the page as JSON and is put in with `textContent`, never as
HTML. An upload is read up to `uploads.MAX_UPLOAD_BYTES` and refused beyond; an author may
submit `UPLOADS_PER_MINUTE` times a minute.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
import socket
import tempfile
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from arena.errors import ArenaError
from arena.league import accounts, uploads
from arena.league.league import League
from arena.league.store import Author, Bot
from arena.results.log import GameLine
from arena.results.ratings import rate_games

log = logging.getLogger(__name__)

UPLOADS_PER_MINUTE = 10
STDERR_TAIL = 64 << 10
EVENT_SECONDS = 1.0
BOARD_SECONDS = 1.0
"""The plain leaderboard is remade at most this often (in the background)..."""
BOARD_CPU_SHARE = 0.1
"""...and, as a long league makes it slower to compute (about 30 µs a game), at most this
share of one core's time: the games keep the rest."""
CUSTOM_AT_ONCE = 2
CUSTOM_WAIT_S = 30.0
"""Custom leaderboards (computed per request) are made by at most CUSTOM_AT_ONCE threads at
once; a request that waits longer than CUSTOM_WAIT_S for one is refused (503)."""
EVENTS_MAX_SECONDS = 600.0
"""A live page's event stream ends after this; the page opens a new one."""
_LABEL = re.compile(r"[A-Za-z0-9_.+-]{1,80}")
_GAME_ID = re.compile(r"L[0-9]{7}-g[0-9]{1,2}")
JOIN_BODY_BYTES = 4096


def leaderboard(
    league: League,
    since: str = "",
    until: str = "",
    among: frozenset[str] = frozenset(),
    seats: int | None = None,
) -> list[dict[str, Any]]:
    """The leaderboard as `arena run` makes it (TrueSkill, the order-free Elo and the win rate
    with their 95% intervals, games, failures), each row with its bot's author, version and
    status. A custom leaderboard counts only the games finished from `since` to `until` (ISO
    times, either may be empty), with `among` only the games among those bots, and with
    `seats` only the tables of that size (a league's table size may change between starts)."""
    from arena.results import tables

    with league.lock:
        bots = {bot.label: bot for bot in league.store.bots()}
        games = list(league.played)  # the league's own copy: the store is not read again
    games = [
        line
        for line in games
        if (not since or line.finished_at >= since)
        and (not until or line.finished_at <= until)
        and (not among or set(line.players) <= among)
        and (seats is None or len(line.players) == seats)
    ]
    if not games:
        return []
    board = tables.leaderboard(games, rate_games(games), [], seats)
    rows = []
    for record in board.to_dict("records"):
        row = {
            str(k): (None if isinstance(v, float) and math.isnan(v) else v)
            for k, v in record.items()
        }
        bot = bots.get(str(row["bot"]))
        if bot is not None:
            if bot.status == "removed":
                continue  # its games still count for the others
            row.update(name=bot.name, version=bot.version, author=bot.author, status=bot.status)
        rows.append(row)
    return rows


def _bot_json(bot: Bot) -> dict[str, Any]:
    return {
        "bot": bot.label,
        "name": bot.name,
        "version": bot.version,
        "author": bot.author,
        "status": bot.status,
        "message": bot.message,
    }


def _meetings(label: str, games: list[GameLine]) -> dict[str, Any]:
    """How a bot fared against each other bot it met (finished ahead of it, level, behind:
    ranks at their table) and from each seat (games, mean place, first places)."""
    against: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    seats: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0])
    for line in games:
        seat = line.players.index(label)
        mine = line.ranks[seat]
        for other, (name, rank) in enumerate(zip(line.players, line.ranks, strict=True)):
            if other != seat:
                against[name][0 if mine < rank else 1 if mine == rank else 2] += 1
        place = seats[seat]
        place[0] += 1
        place[1] += mine + 1
        place[2] += mine == 0
    return {
        "against": [
            {"bot": name, "games": sum(tally), "ahead": tally[0], "level": tally[1],
             "behind": tally[2]}
            for name, tally in sorted(against.items())
        ],
        "by_seat": [
            {"seat": seat, "games": n, "mean_place": round(total / n, 3), "first": first}
            for seat, (n, total, first) in sorted(seats.items())
        ],
    }  # fmt: skip


def _timing(label: str, games: list[GameLine]) -> dict[str, Any]:
    """A bot's think time and CPU time per decision over its games, and its failures."""
    think = cpu = 0.0
    decisions = cpu_decisions = 0
    failures = []
    for line in games:
        seat = line.players.index(label)
        think += line.think_ms[seat]
        decisions += line.decisions[seat]
        if line.cpu_ms[seat] is not None:
            cpu += float(line.cpu_ms[seat] or 0.0)
            cpu_decisions += line.decisions[seat]
        if line.faulty_seat == seat:
            failures.append({"game_id": line.game_id, "termination": line.termination,
                             "reason": line.reason})  # fmt: skip
    return {
        "think_ms_per_decision": round(think / decisions, 3) if decisions else None,
        "cpu_ms_per_decision": round(cpu / cpu_decisions, 3) if cpu_decisions else None,
        "failures": failures[-100:],
    }


class Busy(ArenaError):
    """Too many custom leaderboards asked at once; one sentence."""


def _error(status: int, sentence: str) -> JSONResponse:
    return JSONResponse({"error": sentence}, status_code=status)


@contextmanager
def serving(league: League) -> Iterator[str]:
    """`league`'s web side served by uvicorn in a thread of this process, on a free port of
    the loopback, for as long as the block lasts; its address. Logging is left as it is
    (uvicorn's own set-up would replace the process's handlers)."""
    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(
        create_app(league), host="127.0.0.1", port=port, log_level="error", log_config=None
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True, name="league-web")
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def create_app(league: League) -> Starlette:
    """The web application of `league`."""
    recent: dict[str, deque[float]] = defaultdict(deque)
    cached: dict[str, Any] = {"key": None, "rows": [], "made": 0.0, "took": 0.0}
    making = threading.Lock()
    custom = threading.BoundedSemaphore(CUSTOM_AT_ONCE)

    def remake(key: Any) -> None:
        start = time.monotonic()
        try:
            cached["rows"], cached["key"] = leaderboard(league), key
        except Exception:  # the league closed meanwhile: the last board stays
            log.debug("the leaderboard could not be remade", exc_info=True)
        finally:
            cached["made"] = time.monotonic()
            cached["took"] = cached["made"] - start
            making.release()

    def board(
        since: str = "",
        until: str = "",
        among: frozenset[str] = frozenset(),
        seats: int | None = None,
    ) -> Any:
        """The leaderboard. The plain one is kept made: when games or bots changed, a reader
        gets the last one at once and one background thread makes the next, so fifty readers
        of a league playing hundreds of games a second share one computation a second at
        most, and never more than BOARD_CPU_SHARE of a core (a change shows a moment later,
        on a later read or event). A custom one waits for one of CUSTOM_AT_ONCE threads."""
        if since or until or among or seats is not None:
            if not custom.acquire(timeout=CUSTOM_WAIT_S):
                raise Busy("The league is busy with other custom leaderboards; try again soon.")
            try:
                return leaderboard(league, since, until, among, seats)
            finally:
                custom.release()
        with league.lock:
            bots = tuple((b.label, b.status) for b in league.store.bots())
            key = (len(league.played), bots)
        if cached["key"] == key:
            return cached["rows"]
        if cached["key"] is None:
            making.acquire()
            remake(key)
        elif time.monotonic() - cached["made"] >= max(
            BOARD_SECONDS, cached["took"] / BOARD_CPU_SHARE
        ) and making.acquire(False):
            threading.Thread(target=remake, args=(key,), daemon=True).start()
        return cached["rows"]

    def author_of(request: Request) -> Author | None:
        header = request.headers.get("authorization", "")
        if not header.startswith("Bearer "):
            return None
        with league.lock:
            return league.store.author_of(header.removeprefix("Bearer ").strip())

    def locked(act: Callable[..., Any], *args: Any) -> Any:
        with league.lock:
            return act(*args)

    def find(label: str) -> Bot | None:
        if not _LABEL.fullmatch(label):
            return None
        with league.lock:
            return league.store.bot(label)

    async def page(request: Request) -> Response:
        return HTMLResponse(_PAGE.replace("__GAME__", f"{league.game}, {league.seats} seats"))

    async def api_leaderboard(request: Request) -> Response:
        query = request.query_params
        since, until = query.get("since", "")[:40], query.get("until", "")[:40]
        among = frozenset(filter(None, query.get("bots", "")[:4000].split(",")))
        size = query.get("seats", "")
        if size and not (size.isdigit() and 1 <= int(size) <= 99):
            return _error(400, "seats= is a table size, e.g. seats=3.")
        try:
            rows = await asyncio.to_thread(board, since, until, among, int(size) if size else None)
        except Busy as error:
            return _error(503, str(error))
        return JSONResponse(rows)

    def api_bots(request: Request) -> Response:
        with league.lock:
            bots = league.store.bots()
        return JSONResponse([_bot_json(bot) for bot in bots if bot.status != "removed"])

    def api_bot(request: Request) -> Response:
        bot = find(request.path_params["label"])
        if bot is None:
            return _error(404, "There is no such bot in this league.")
        with league.lock:
            games = [line for line in league.played if bot.label in line.players]
            verdict = league.verdict(bot)
        shown = _bot_json(bot)
        shown["sprt"] = None if verdict is None else verdict.to_json()
        shown.update(_timing(bot.label, games))
        shown.update(_meetings(bot.label, games))
        shown["games"] = [
            {"game_id": g.game_id, "players": list(g.players), "ranks": list(g.ranks),
             "termination": g.termination, "reason": g.reason}
            for g in games[-200:]
        ]  # fmt: skip
        return JSONResponse(shown)

    async def submit(request: Request) -> Response:
        author = await asyncio.to_thread(author_of, request)
        if author is None:
            return _error(401, "Submitting needs an author's token: Authorization: Bearer TOKEN.")
        times = recent[author.name]
        now = time.monotonic()
        while times and now - times[0] > 60:
            times.popleft()
        if len(times) >= UPLOADS_PER_MINUTE:
            return _error(429, f"At most {UPLOADS_PER_MINUTE} submissions a minute; wait.")
        times.append(now)
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > uploads.MAX_UPLOAD_BYTES:
            return _error(
                413, f"A bot archive may be at most {uploads.MAX_UPLOAD_BYTES >> 20} MiB."
            )
        with tempfile.NamedTemporaryFile(dir=league.folder / "uploads", suffix=".upload") as file:
            size = 0
            async for chunk in request.stream():
                size += len(chunk)
                if size > uploads.MAX_UPLOAD_BYTES:
                    return _error(
                        413, f"A bot archive may be at most {uploads.MAX_UPLOAD_BYTES >> 20} MiB."
                    )
                file.write(chunk)
            file.flush()
            try:
                bot = await asyncio.to_thread(league.submit, author, Path(file.name))
            except ArenaError as error:
                return _error(400, str(error))
        return JSONResponse(_bot_json(bot), status_code=202)

    def retire_or_remove(request: Request) -> Response:
        author = author_of(request)
        if author is None:
            return _error(401, "Retiring or removing a bot needs its author's token.")
        act = league.remove if request.url.path.endswith("/remove") else league.retire
        try:
            bot = act(author, request.path_params["label"])
        except ArenaError as error:
            return _error(403, str(error))
        return JSONResponse(_bot_json(bot))

    def stderr(request: Request) -> Response:
        author = author_of(request)
        bot = find(request.path_params["label"])
        if author is None or bot is None or (bot.author != author.name and not author.admin):
            return _error(403, "Only a bot's author may read its stderr.")
        text = ""
        for log in (
            league.folder / "checks" / bot.label / "logs" / f"{bot.label}.stderr.log",
            league.folder / "logs" / f"{bot.label}.stderr.log",
        ):
            if log.is_file():
                with log.open("rb") as file:
                    file.seek(max(0, log.stat().st_size - STDERR_TAIL))
                    text += f"== {log.parent.name}\n" + file.read().decode("utf-8", "replace")
        return JSONResponse({"bot": bot.label, "stderr": text})

    def set_paused(request: Request) -> Response:
        author = author_of(request)
        if author is None or not author.admin:
            return _error(403, "Only the league's admin may pause or resume it.")
        league.set_paused(request.url.path.endswith("pause"))
        return JSONResponse({"paused": league.paused()})

    def invite(request: Request) -> Response:
        author = author_of(request)
        if author is None or not author.admin:
            return _error(403, "Only the league's admin may make invite links.")
        with league.lock:
            code = league.store.add_invite()
        link = f"{str(request.base_url).rstrip('/')}/join#{code}"
        return JSONResponse({"invite": code, "link": link, "days": accounts.INVITE_DAYS}, 201)

    async def join(request: Request) -> Response:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > JOIN_BODY_BYTES:
                return _error(413, "A join request is a small JSON object.")
        try:
            asked = json.loads(body)
            code, name = asked["invite"], asked["name"]
            if not isinstance(code, str) or not isinstance(name, str):
                raise TypeError
        except (ValueError, KeyError, TypeError, RecursionError):  # [[[[... nests too deep
            return _error(400, 'Send JSON: {"invite": "the code from your link", "name": "you"}.')
        try:
            token = await asyncio.to_thread(locked, league.store.join, code, name)
        except ArenaError as error:
            return _error(400, str(error))
        return JSONResponse({"author": name, "token": token}, status_code=201)

    async def join_page(request: Request) -> Response:
        return HTMLResponse(_JOIN_PAGE)

    async def events(request: Request) -> Response:
        async def stream() -> Any:
            last, started = None, time.monotonic()
            while time.monotonic() - started < EVENTS_MAX_SECONDS:
                if await request.is_disconnected():
                    return
                rows = await asyncio.to_thread(board)
                if rows is not last:
                    last = rows
                    yield f"data: {json.dumps(rows)}\n\n"
                await asyncio.sleep(EVENT_SECONDS)

        return StreamingResponse(stream(), media_type="text/event-stream")

    async def replay(request: Request) -> Response:
        from arena.html.replay_page import replay_html
        from arena.record import load_record

        game_id = request.path_params["game_id"]
        path = league.folder / "records" / f"{game_id}.json.gz"
        if not _GAME_ID.fullmatch(game_id) or not path.is_file():
            return _error(404, "There is no such game in this league.")
        try:
            record = await asyncio.to_thread(load_record, path)
        except ArenaError as error:
            return _error(500, str(error))
        return HTMLResponse(replay_html(record))

    return Starlette(
        routes=[
            Route("/", page),
            Route("/api/leaderboard", api_leaderboard),
            Route("/api/bots", api_bots),
            Route("/api/bots", submit, methods=["POST"]),
            Route("/api/bots/{label}", api_bot),
            Route("/api/bots/{label}/retire", retire_or_remove, methods=["POST"]),
            Route("/api/bots/{label}/remove", retire_or_remove, methods=["POST"]),
            Route("/api/bots/{label}/stderr", stderr),
            Route("/api/pause", set_paused, methods=["POST"]),
            Route("/api/resume", set_paused, methods=["POST"]),
            Route("/api/invites", invite, methods=["POST"]),
            Route("/api/join", join, methods=["POST"]),
            Route("/join", join_page),
            Route("/api/events", events),
            Route("/replay/{game_id}", replay),
            Route("/favicon.ico", lambda request: Response(status_code=204)),
        ]
    )


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Mandala Arena league</title>
<style>
body{font-family:system-ui,sans-serif;margin:2em;max-width:70em}
table{border-collapse:collapse}td,th{padding:.3em .7em;border-bottom:1px solid #ddd;text-align:left}
tr{cursor:pointer}#error{color:#036}tr.chosen{background:#fff3c4}
</style></head><body>
<h1>League: __GAME__</h1>
<p>The leaderboard updates by itself as games finish. Click a bot to highlight it and see
how it fared against each other bot, from each seat, and its games.</p>
<table><thead><tr><th>#</th><th>bot</th><th>author</th><th>status</th><th>games</th>
<th>Elo (95%)</th><th>failures</th><th>mu</th><th>sigma</th><th>mu − 3σ</th></tr></thead>
<tbody id="board"></tbody></table>
<h2 id="detail-title"></h2>
<table id="against-table" hidden><thead><tr><th>against</th><th>games</th><th>ahead of it</th>
<th>level</th><th>behind it</th></tr></thead><tbody id="against"></tbody></table>
<table id="seats-table" hidden><thead><tr><th>seat</th><th>games</th><th>mean place</th>
<th>first</th></tr></thead><tbody id="seats"></tbody></table>
<ul id="detail"></ul>
<h2>Submit a bot</h2>
<p>A .zip or .tar.gz of your bot's folder (with its bot.toml). Your token stays in this page.</p>
<p><input id="token" type="password" placeholder="your token (to submit, retire or remove)" size="50">
<input id="archive" type="file" accept=".zip,.tar.gz,.tgz"> <button id="send">Submit</button></p>
<p id="error"></p><h2>Bots</h2><ul id="bots"></ul>
<p>The same from scripts: <code>curl http://HOST:PORT/api/leaderboard</code>; README, "A live league".</p>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
function cell(row, text) { const td = document.createElement("td"); td.textContent = String(text); row.append(td); }
function draw(rows) {
  const body = $("board"); body.replaceChildren();
  rows.forEach((r, i) => {
    const tr = document.createElement("tr");
    const f = (x) => (x === null || x === undefined) ? "-" : Number(x).toFixed(1);
    const elo = r.elo === null ? "-" : f(r.elo) + (r.elo_lo === null ? " (too few games)"
      : " (" + f(r.elo_lo) + " to " + f(r.elo_hi) + ")");
    [i + 1, r.bot, r.author, r.status, r.games, elo, r.failures || "-", f(r.mu), f(r.sigma), f(r.conservative)]
      .forEach((v) => cell(tr, v));
    tr.dataset.bot = r.bot;
    if (r.bot === chosen) tr.className = "chosen";
    tr.addEventListener("click", () => show(r.bot));
    body.append(tr);
  });
  fetch("/api/bots").then((r) => r.json()).then((bots) => {
    const list = $("bots"); list.replaceChildren();
    bots.forEach((b) => { const li = document.createElement("li");
      li.textContent = b.bot + " (" + b.author + "): " + b.status + (b.message ? ", " + b.message : "") + " ";
      const verbs = b.status === "active" ? ["retire", "remove"]
        : (b.status === "retired" || b.status === "failed") ? ["remove"] : [];
      verbs.forEach((verb) => {
        const button = document.createElement("button"); button.textContent = verb;
        button.className = verb; button.dataset.bot = b.bot;
        button.addEventListener("click", () => act("/api/bots/" + encodeURIComponent(b.bot) + "/" + verb));
        li.append(button, " ");
      });
      list.append(li); });
  });
}
let chosen = null;
function fill(id, rows) {
  const body = $(id); body.replaceChildren();
  rows.forEach((values) => { const tr = document.createElement("tr");
    values.forEach((v) => cell(tr, v)); body.append(tr); });
  $(id + "-table").hidden = rows.length === 0;
}
function show(label) {
  chosen = label;
  document.querySelectorAll("#board tr").forEach((tr) => {
    tr.className = tr.dataset.bot === label ? "chosen" : ""; });
  fetch("/api/bots/" + encodeURIComponent(label)).then((r) => r.json()).then((bot) => {
    fill("against", (bot.against || []).map((a) => [a.bot, a.games, a.ahead, a.level, a.behind]));
    fill("seats", (bot.by_seat || []).map((s) => [s.seat + 1, s.games, s.mean_place, s.first]));
    const t = bot.sprt;
    $("detail-title").textContent = "Games of " + bot.bot + " (" + bot.think_ms_per_decision +
      " ms a decision, " + bot.failures.length + " failures)" + (t ? "; SPRT against " +
      t.against + ": LLR " + t.llr + " in [" + t.lower + ", " + t.upper + "], " + t.verdict : "");
    const list = $("detail"); list.replaceChildren();
    (bot.games || []).slice(-50).reverse().forEach((g) => {
      const li = document.createElement("li"); const a = document.createElement("a");
      a.href = "/replay/" + encodeURIComponent(g.game_id); a.textContent = g.game_id;
      li.append(a, " " + g.players.join(" v ") + ": " + g.reason); list.append(li);
    });
  });
}
function act(path) {
  fetch(path, {method: "POST", headers: {"Authorization": "Bearer " + $("token").value}})
    .then((r) => r.json()).then((answer) => {
      $("error").textContent = answer.error || (answer.bot + ": " + answer.status);
      fetch("/api/leaderboard").then((r) => r.json()).then(draw);
    });
}
$("send").addEventListener("click", () => {
  const file = $("archive").files[0];
  if (!file) { $("error").textContent = "Choose an archive first."; return; }
  fetch("/api/bots", {method: "POST", body: file,
    headers: {"Authorization": "Bearer " + $("token").value}})
    .then((r) => r.json()).then((answer) => {
      $("error").textContent = answer.error || ("Submitted " + answer.bot + ": " + answer.status);
    });
});
fetch("/api/leaderboard").then((r) => r.json()).then(draw);
new EventSource("/api/events").onmessage = (event) => draw(JSON.parse(event.data));
</script></body></html>
"""

_JOIN_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Join the league</title>
<style>body{font-family:system-ui,sans-serif;margin:2em;max-width:50em}#answer{color:#036}</style>
</head><body>
<h1>Join the league</h1>
<p>Choose your author's name (letters, digits, '_', '.', '-'). You get a token: keep it, it is
shown once. Give it to <code>arena submit</code> (<code>--token</code> or <code>$ARENA_TOKEN</code>)
or paste it in the <a href="/">league's page</a> to submit bots.</p>
<p><input id="name" placeholder="your name" size="30"> <button id="join">Join</button></p>
<p id="answer"></p><p><code id="token"></code></p>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
$("join").addEventListener("click", () => {
  fetch("/api/join", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({invite: location.hash.slice(1), name: $("name").value})})
    .then((r) => r.json()).then((answer) => {
      if (answer.error) { $("answer").textContent = answer.error; return; }
      $("answer").textContent = "Welcome, " + answer.author + ". Your token (shown once):";
      $("token").textContent = answer.token;
    });
});
</script></body></html>
"""
