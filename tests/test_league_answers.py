"""Every answer of the league's web side passes one gate (issue 42, point 1;
arena/league/public.py's `PublicAnswers`): no answer to a visitor, a player or an author
carries another bot's stderr or the server's paths.

A real league on the loopback, with a bot that writes a secret to stderr at every decision
and, in league games, crashes (its stderr quoted), sends an illegal move or lets its clock
run out by turns, and crashes at a human table too; a bot whose build writes the secret and
fails; uploads refused for their manifest (names `.` and `..`, a deep or oversized one).
Then every route of the application's route table (so a new route is covered without a
word here) is asked with every method, every path parameter the league knows, as a
visitor, as another author and as the human player: no answer holds the secret or the
league's folder, while the records and the author's own stderr still hold the secret."""

from __future__ import annotations

import asyncio
import http.client
import json
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse, StreamingResponse
from starlette.routing import Route

from arena.league import human_tables, public, web
from arena.league.league import League
from arena.league.uploads import archive_folder
from arena.players.limits import Limits
from tests.league_support import Site, bot_archive
from tests.test_league_human import CLOCK, seat_call

MISCHIEF = """
import json, sys, time

SECRET = {secret!r}
turns = {{}}
for line in sys.stdin:
    message = json.loads(line)
    kind = message.get("type")
    if kind == "hello":
        print(SECRET, "says hello from", __file__, file=sys.stderr, flush=True)
        print(json.dumps({{"type": "hello", "name": "mischief"}}), flush=True)
    elif kind == "decide":
        game = str(message.get("game_id"))
        turns[game] = turns.get(game, 0) + 1
        print(SECRET, "thinks about", game, "in", __file__, file=sys.stderr, flush=True)
        move = 0
        if turns[game] == 2 and game[:1] in "LH":  # a league or a human game, not the check's
            trick = int(game[1:8]) % 3 if game[0] == "L" else 0
            if trick == 0:
                print(SECRET, "dies in", __file__, file=sys.stderr, flush=True)
                sys.exit(3)
            if trick == 1:
                move = 10**6  # no such move
            else:
                time.sleep(60)  # past its clock
        print(json.dumps({{"type": "move", "move": move, "id": message["id"]}}), flush=True)
    elif kind == "goodbye":
        break
"""

KINDS = {"crash", "illegal_move", "timeout"}
"""The ways mischief's league games end."""


def _folder(tmp_path: Path, name: str, manifest: str, files: dict[str, str]) -> bytes:
    folder = tmp_path / "src" / name
    folder.mkdir(parents=True)
    (folder / "bot.toml").write_text(manifest)
    for file, text in files.items():
        (folder / file).write_text(text)
    (tmp_path / "archives" / name).mkdir(parents=True)
    return archive_folder(folder, tmp_path / "archives" / name).read_bytes()


def _bots(tmp_path: Path, secret: str) -> dict[str, bytes]:
    """The archives: mischief, broken (its build fails) and the refused uploads."""
    python = '\ncommand = ["python3", "bot.py"]\ngames = ["mandala"]\n'
    build = '\nbuild = ["sh", "build.sh"]\n'
    return {
        "mischief": _folder(tmp_path, "mischief", 'name = "mischief"' + python,
                            {"bot.py": MISCHIEF.format(secret=secret)}),
        "broken": _folder(tmp_path, "broken", 'name = "broken"' + python + build,
                          {"bot.py": "", "build.sh": f"echo {secret} in $PWD; exit 1\n"}),
        "dot": _folder(tmp_path, "dot", 'name = "."' + python, {}),
        "dots": _folder(tmp_path, "dots", 'name = ".."' + python, {}),
        "deep": _folder(tmp_path, "deep", 'name = "deep"' + python + "x = " + "[" * 40 + "]" * 40, {}),
        "big": _folder(tmp_path, "big", 'name = "big"' + python + "# " + "x" * (70 << 10), {}),
    }  # fmt: skip


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Site]:
    """A league whose moves have a short clock (a timeout costs little), served."""
    monkeypatch.setattr(human_tables, "CLOCK", CLOCK)
    limits = Limits(move_ms=1000, startup_ms=20_000)
    league = League(tmp_path / "league", workers=0, limits=limits)
    try:
        with web.serving(league) as url:
            yield Site(league, int(url.rsplit(":", 1)[1]))
    finally:
        league.close()


def route_table(league: League) -> list[Route]:
    """The routes of the league's web application, as it serves them."""
    app: Any = web.create_app(league)
    while not isinstance(app, Starlette):  # inside its middlewares
        app = app.app
    return [route for route in app.routes if isinstance(route, Route)]


def _ask(site: Site, method: str, path: str, headers: dict[str, str], body: bytes | None) -> str:
    """One answer's status line and body as text; an event stream's first event only."""
    connection = http.client.HTTPConnection(site.url.removeprefix("http://"), timeout=60)
    try:
        connection.request(method, path, body, headers)
        answer = connection.getresponse()
        if answer.getheader("content-type", "").startswith("text/event-stream"):
            raw = b"".join(answer.readline() for _ in range(2))
        else:
            raw = answer.read()
        return f"{answer.status} {raw.decode('utf-8', 'replace')}"
    finally:
        connection.close()


def _wait_for_outcomes(site: Site) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ends = {line.termination for line in site.league.store.games("mischief")}
        if ends >= KINDS:
            return
        time.sleep(0.2)
    raise AssertionError(f"mischief's games ended only as {ends}")


def _human_crash(site: Site) -> dict[str, Any]:
    """Bob plays ada's mischief in the browser's way until it crashes: the seat's game."""
    status, game = site.call("POST", "/api/play", site.bob, b'{"bot": "mischief"}')
    assert status == 201, game
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        status, state = seat_call(site, game["page"] + "/api/state", game["key"])
        assert status == 200, state
        if state["over"]:
            assert "crashed" in state["outcome"]["reason"], state["outcome"]
            return dict(game)
        if state["asked"]:
            body = {"request": state["asked"]["request"], "move": 0}
            seat_call(site, game["page"] + "/api/move", game["key"], body)
        time.sleep(0.05)
    raise AssertionError("the human game did not end")


def test_no_answer_of_any_route_carries_a_bots_stderr_or_the_servers_paths(
    site: Site, tmp_path: Path
) -> None:
    secret = f"SECRET-{uuid.uuid4().hex}"
    archives = _bots(tmp_path, secret)
    alpha = bot_archive(tmp_path, "random", "alpha").read_bytes()
    assert site.call("POST", "/api/bots", site.ada, archives["mischief"])[0] == 202
    assert site.call("POST", "/api/bots", site.bob, alpha)[0] == 202
    assert site.call("POST", "/api/bots", site.ada, archives["broken"])[0] == 202
    site.wait_status("broken", "failed")
    site.wait_status("mischief", "active")
    site.wait_status("alpha", "active")
    site.league.start()
    _wait_for_outcomes(site)
    site.league.set_paused(True)  # no more league games: the answers below stay put
    human = _human_crash(site)
    folder = site.league.folder
    # the secret is there to leak: in the records, the human table's and the build's messages
    league_games = {line.termination: line.game_id for line in site.league.store.games()}
    crash_record = folder / "human" / "records" / f"{human['game']}.json.gz"
    assert crash_record.is_file() and (folder / "checks" / "broken" / "logs").is_dir()
    author_logs = site.call("GET", "/api/bots/mischief/stderr", site.ada)[1]["stderr"]
    assert secret in author_logs and str(folder) in author_logs  # its author's own: whole
    assert secret in site.call("GET", "/api/bots/broken/stderr", site.ada)[1]["stderr"]

    values = {
        "label": ["mischief", "broken", "alpha", "..", "nobody"],
        "game_id": [*league_games.values(), human["game"], "L9999999-g1"],
    }
    bodies = {
        "/api/bots": [archives[name] for name in ("dot", "dots", "deep", "big")],
        "/api/play": [b'{"bot": "mischief"}', b"{}"],
        "/api/join": [b'{"invite": "x", "name": "eve"}'],
    }
    routes = route_table(site.league)
    asked: dict[str, int] = {}
    answers: list[tuple[str, str]] = []
    for route in sorted(routes, key=lambda route: "POST" in (route.methods or ())):
        paths = [route.path]
        for name in route.param_convertors:
            paths = [p.replace("{" + name + "}", v) for p in paths for v in values[name]]
        for method in sorted((route.methods or {"GET"}) - {"HEAD"}):
            for path in paths:
                for who in (None, site.bob):
                    headers = {"X-Seat-Key": human["key"]} if path.startswith("/play/") else {}
                    if who is not None:
                        headers["Authorization"] = f"Bearer {who}"
                    for body in bodies.get(route.path, [b"{}"]) if method == "POST" else [None]:
                        answer = _ask(site, method, path, headers, body)
                        asker = "bob" if who else "player" if "X-Seat-Key" in headers else "visitor"
                        answers.append((f"{method} {path} ({asker})", answer))
                        asked[route.path] = asked.get(route.path, 0) + 1
    assert set(asked) == {route.path for route in routes}  # every route, each asked
    forms = {str(folder), str(folder.resolve()), str(tmp_path), str(tmp_path.resolve())}
    own = "GET /api/bots/alpha/stderr (bob)"  # bob's bot's stderr, to bob: his own, whole
    assert dict(answers)[own].startswith("200 ")
    for where, answer in answers:
        if where == own:
            continue
        assert secret not in answer, (where, answer)
        assert not any(form in answer for form in forms), (where, answer)
    # what the answers say is still told: the crash at the human table, the refusals
    said = dict(answers)
    state = json.loads(said[f"GET /play/{human['game']}/api/state (player)"].split(" ", 1)[1])
    assert (
        "crashed" in state["outcome"]["reason"] and "for its author" in state["outcome"]["reason"]
    )
    refusals = [answer for where, answer in answers if where.startswith("POST /api/bots (bob)")]
    assert len(refusals) == 4 and all(answer.startswith("400 ") for answer in refusals), refusals
    assert all("LEAGUE" not in answer and "…" not in answer for answer in refusals), refusals
    assert "bot.toml is larger than" in refusals[-1], refusals[-1]


def _asgi_get(app: Any, path: str) -> tuple[dict[str, str], list[bytes]]:
    """One GET of an ASGI application in this process: its headers and body messages."""
    sent: list[Any] = []
    asked: list[bool] = []

    async def receive() -> dict[str, Any]:
        if asked:  # the client stays: a stream listens for it to go until the stream ends
            await asyncio.Event().wait()
        asked.append(True)
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {
        "type": "http", "method": "GET", "path": path, "raw_path": path.encode(),
        "root_path": "", "scheme": "http", "query_string": b"", "headers": [],
        "http_version": "1.1", "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 1),
    }  # fmt: skip
    asyncio.run(app(scope, receive, send))
    headers = {k.decode(): v.decode() for k, v in sent[0]["headers"]}
    return headers, [m["body"] for m in sent[1:] if m.get("body")]


def test_the_gate_cleans_json_events_and_pages_and_lets_an_authors_own_pass(
    tmp_path: Path,
) -> None:
    """The gate alone (public.PublicAnswers) on a small application: each kind of answer."""
    folder = tmp_path / "league"
    said = f"crashed. Its stderr: SECRET in {folder}/bots/x/bot.py"

    async def events() -> AsyncIterator[str]:
        for n in range(2):
            yield f"data: {json.dumps({'n': n, 'reason': said})}\n\n"

    @public.private
    def own(request: Any) -> JSONResponse:
        return JSONResponse({"stderr": said})

    routes = [
        Route("/json", lambda r: JSONResponse({"reason": said, "page": "/play/H0000001"})),
        Route("/events", lambda r: StreamingResponse(events(), media_type="text/event-stream")),
        Route("/page", lambda r: HTMLResponse(f"<p>{folder}/records</p>")),
        Route("/own", own),
        Route("/play/{game_id}", lambda r: JSONResponse({})),
    ]
    app = public.PublicAnswers(Starlette(routes=routes), folder, lambda p: p.startswith("/play/"))
    headers, body = _asgi_get(app, "/json")
    shown = json.loads(b"".join(body))
    assert shown == {
        "reason": "crashed. What it wrote is for its author.",
        "page": "/play/H0000001",
    }
    assert int(headers["content-length"]) == len(b"".join(body))
    _, chunks = _asgi_get(app, "/events")
    assert len(chunks) == 2 and all(b"SECRET" not in chunk for chunk in chunks)
    assert json.loads(chunks[1].removeprefix(b"data: "))["n"] == 1
    _, page = _asgi_get(app, "/page")
    assert page == [b"<p>LEAGUE/records</p>"]
    _, mine = _asgi_get(app, "/own")
    assert json.loads(b"".join(mine)) == {"stderr": said}  # its author's own: as it is
