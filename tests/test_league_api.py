"""What a user expects from the league's page and API (issue 32, item 7), over a real server
on the loopback: a bot's games paged with each seat's place and score, a download of them
that `arena report` reads, `GET /api/me` for the page's author-only buttons, a wrong token
called wrong, one JSON type per field, a sentence for a query that can hold no game, log
lines without tokens, a rating history, a version's verdict in words, and `--invite`
printing the address the league really listens on. Every wait here is bounded."""

from __future__ import annotations

import dataclasses
import io
import logging
import os
import re
import select
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli.main import main
from arena.execution import TableResult
from arena.game_sources import GAME_MODULES
from arena.league import bot_games, downloads, export
from arena.results.log import GameLine
from tests.league_support import LISTENING, Site, bot_archive, served

WRONG = "not one of this league's"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A league where alpha (random, ada's) and beta (greedy, bob's) played 12 games or more,
    then paused: nothing moves while the tests read it."""
    tmp_path = tmp_path_factory.mktemp("api")
    with served(tmp_path) as running:
        for source, name, token in (
            ("random", "alpha", running.ada),
            ("greedy", "beta", running.bob),
        ):
            archive = bot_archive(tmp_path, source, name)
            assert running.call("POST", "/api/bots", token, archive.read_bytes())[0] == 202
        running.wait_status("alpha", "active")
        running.wait_status("beta", "active")
        running.league.start()
        deadline = time.monotonic() + 300
        while running.league.standings.count < 12 and time.monotonic() < deadline:
            time.sleep(0.3)
        running.league.set_paused(True)
        running.league.stop.set()  # the play thread ends once its tables in flight are stored
        for thread in running.league.threads:
            thread.join(60)
            assert not thread.is_alive(), "the league's tables in flight never finished"
        assert running.league.standings.count >= 12
        yield running


def _line(number: int, players: tuple[str, ...], ranks: tuple[int, ...], **more: Any) -> GameLine:
    """A finished game as the league stores it, at table `number` (game ids the league's)."""
    game = more.pop("game", 1)
    return GameLine(
        seq=number * 10 + game, game_id=f"L{number:07d}-g{game}", players=players,
        scores=tuple(float(10 - 5 * rank) for rank in ranks), ranks=ranks, termination="normal",
        table=number, game=game, end="deck_exhausted", decisions=(5,) * len(players),
        think_ms=(1.0,) * len(players), cpu_ms=(1.0,) * len(players),
        finished_at=f"2026-11-26T10:{number % 60:02d}:00.000+00:00", **more,
    )  # fmt: skip


def test_a_bots_games_come_newest_first_a_page_at_a_time_with_each_seats_place_and_score(
    site: Site,
) -> None:
    mine = site.league.store.games("alpha")
    status, first = site.call("GET", "/api/bots/alpha/games?limit=5")
    assert status == 200, first
    assert first["total"] == len(mine) and first["pages"] == -(-len(mine) // 5)
    assert [g["game_id"] for g in first["games"]] == [g.game_id for g in mine[::-1][:5]]
    for game, line in zip(first["games"], mine[::-1], strict=False):
        assert game["seats"] == 2 and game["players"][game["seat"]]["bot"] == "alpha"
        assert [p["place"] for p in game["players"]] == [rank + 1 for rank in line.ranks]
        assert [p["score"] for p in game["players"]] == list(line.scores)
        assert game["place"] == line.ranks[game["seat"]] + 1 and game["end"] and game["finished_at"]
    status, second = site.call("GET", "/api/bots/alpha/games?offset=5&limit=5")
    assert [g["game_id"] for g in second["games"]] == [g.game_id for g in mine[::-1][5:10]]
    status, paged = site.call("GET", "/api/bots/alpha/games?page=1")
    assert paged["limit"] == bot_games.PAGE_GAMES and len(paged["games"]) == min(50, len(mine))
    status, beyond = site.call("GET", "/api/bots/alpha/games?page=99")
    assert status == 200 and beyond["games"] == [] and beyond["total"] == len(mine)
    for query in ("page=0", "limit=100000", "offset=-1", "page=1&limit=5", "page=%C2%B2"):
        status, answer = site.call("GET", f"/api/bots/alpha/games?{query}")
        assert status == 400 and answer["error"].endswith("."), (query, answer)
    status, answer = site.call("GET", "/api/bots/nobody/games")
    assert status == 404 and "no such bot" in answer["error"]


def test_a_download_of_a_bots_games_is_a_run_folder_that_arena_report_reads(
    site: Site, tmp_path: Path
) -> None:
    request = f"{site.url}/api/bots/beta/games.zip"
    with urllib.request.urlopen(request, timeout=120) as answer:
        assert answer.headers["Content-Type"] == "application/zip"
        assert "beta-games.zip" in answer.headers["Content-Disposition"]
        data = answer.read()
    with zipfile.ZipFile(io.BytesIO(data)) as packed:
        names = packed.namelist()
        packed.extractall(tmp_path)
    run = tmp_path / "beta-games"
    games = site.league.state.games_of("beta")
    assert "beta-games/games.jsonl" in names and "beta-games/config.json" in names
    assert len((run / "games.jsonl").read_text().splitlines()) == games
    assert len(list((run / "records").iterdir())) == games
    config = (run / "config.json").read_text()
    assert str(site.league.folder.resolve()) not in config and "/tmp" not in config
    assert list(tmp_path.iterdir()) == [run]  # nothing but the folder
    result = CliRunner().invoke(main, ["report", str(run)])
    assert result.exit_code == 0, result.output
    assert (run / "report.html").is_file() or any(run.rglob("*.html")), result.output
    # on the server, only the archive kept for the next asker (no scratch folder, nothing in
    # the system's temporary folder); a bot with no game: refused
    kept = site.league.folder / downloads.FOLDER
    assert [path.suffix for path in kept.iterdir()] == [".zip"]
    assert site.call("GET", "/api/bots/nobody/games.zip")[0] == 404


def test_the_download_is_capped_and_rate_limited(site: Site, tmp_path: Path) -> None:
    league = site.league
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    many = [_line(9_000_000 + n, ("alpha", "beta"), (0, 1)) for n in range(30)]
    old, export.MAX_DOWNLOAD_GAMES = export.MAX_DOWNLOAD_GAMES, 7
    try:
        archive = export.bot_download(league, "alpha", many, scratch)
    finally:
        export.MAX_DOWNLOAD_GAMES = old
    with zipfile.ZipFile(archive) as packed:
        log = packed.read("alpha-games/games.jsonl").decode().splitlines()
    assert len(log) == 7 and '"L9000029-g1"' in log[-1]  # the latest
    statuses = [_download_status(site, "alpha") for _ in range(12)]
    assert 429 in statuses and statuses[0] in (200, 429)
    status, answer = site.call("GET", "/api/bots/alpha/games.zip")
    assert status == 429 and "downloads" in answer["error"]


def _download_status(site: Site, label: str) -> int:
    try:
        with urllib.request.urlopen(f"{site.url}/api/bots/{label}/games.zip", timeout=120) as got:
            got.read()
            return int(got.status)
    except urllib.error.HTTPError as error:
        return error.code


def test_api_me_says_whose_token_it_is_and_a_wrong_token_is_called_wrong(site: Site) -> None:
    assert site.call("GET", "/api/me", site.ada) == (200, {"author": "ada", "admin": False})
    assert site.call("GET", "/api/me", site.admin) == (200, {"author": "admin", "admin": True})
    status, answer = site.call("GET", "/api/me")
    assert status == 401 and "needs an author's token" in answer["error"]
    forged = "arena_" + "x" * 40
    for method, path in (
        ("GET", "/api/me"),
        ("POST", "/api/bots"),
        ("POST", "/api/bots/alpha/retire"),
        ("POST", "/api/bots/alpha/remove"),
        ("GET", "/api/bots/alpha/stderr"),
        ("POST", "/api/pause"),
        ("POST", "/api/invites"),
        ("POST", "/api/bots/alpha/unretire"),
        ("GET", "/api/audit"),
    ):
        status, answer = site.call(method, path, forged, b"" if method == "POST" else None)
        assert status == 401 and WRONG in answer["error"], (path, answer)
        assert "needs" not in answer["error"]
        status, answer = site.call(method, path, None, b"" if method == "POST" else None)
        assert status == 401 and "needs an author's token" in answer["error"], (path, answer)
    # a right token that may not act is still 403, and says why
    status, answer = site.call("POST", "/api/bots/beta/retire", site.ada, b"")
    assert status == 403 and "belongs to bob" in answer["error"]


def _types(rows: list[dict[str, Any]], where: str, found: dict[str, set[str]]) -> None:
    """Every field's JSON types (null apart), nested lists of objects walked too."""
    for row in rows:
        for key, value in row.items():
            if value is None:
                continue
            kind = {bool: "bool", int: "number", float: "number", str: "string"}.get(
                type(value), type(value).__name__
            )
            found[f"{where}.{key}"].add(kind)
            if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                _types(value, f"{where}.{key}", found)
            if isinstance(value, dict):
                _types([value], f"{where}.{key}", found)


def test_every_field_of_the_api_has_one_type_across_rows(site: Site) -> None:
    league = site.league
    # a crash of beta's, so one row has failures and the other none
    crash = _line(8_000_000, ("alpha", "beta"), (0, 1), faulty_seat=1, reason="beta crashed")
    crash = dataclasses.replace(crash, termination="crash", end=None)
    league.record(TableResult([crash]))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # the plain board is remade in the background
        rows = site.call("GET", "/api/leaderboard")[1]
        if sum(row["games"] for row in rows) == 2 * league.standings.count:
            break
        time.sleep(0.3)
    found: dict[str, set[str]] = defaultdict(set)
    _types(rows, "leaderboard", found)
    _types(site.call("GET", "/api/leaderboard?seats=2")[1], "leaderboard", found)
    _types(site.call("GET", "/api/bots")[1], "bots", found)
    _types([site.call("GET", f"/api/bots/{label}")[1] for label in ("alpha", "beta")], "bot", found)
    for label in ("alpha", "beta"):
        _types([site.call("GET", f"/api/bots/{label}/games")[1]], "games", found)
    mixed = {field: kinds for field, kinds in found.items() if len(kinds) > 1}
    assert mixed == {}, mixed
    by_bot = {row["bot"]: row for row in rows}
    assert by_bot["beta"]["failures"] == 1 and by_bot["beta"]["failure_kinds"] == {"crash": 1}
    assert by_bot["alpha"]["failures"] == 0 and by_bot["alpha"]["failure_kinds"] == {}
    assert all(set(row) == set(rows[0]) for row in rows)  # no field missing from a row


def test_a_query_that_can_hold_no_game_is_answered_with_a_sentence(site: Site) -> None:
    status, answer = site.call("GET", "/api/leaderboard?seats=3")
    assert status == 404
    assert answer["error"] == "This league has no tables of 3 seats (it plays 2)."
    status, answer = site.call("GET", "/api/leaderboard?since=2100-01-01")
    assert status == 404 and answer["error"].startswith("No game of this league finished since")
    status, answer = site.call("GET", "/api/leaderboard?since=garbage")
    assert status == 400 and "ISO date" in answer["error"]
    status, answer = site.call("GET", "/api/leaderboard?since=2026-12-01&until=2026-11-01")
    assert status == 400 and "since= is after until=" in answer["error"]
    status, answer = site.call("GET", "/api/leaderboard?bots=alpha")
    assert status == 404 and "among alpha alone" in answer["error"]
    status, rows = site.call("GET", "/api/leaderboard?seats=2&since=2000-01-01")
    assert status == 200 and {row["bot"] for row in rows} == {"alpha", "beta"}


def test_a_bots_page_has_its_rating_history_and_its_verdict_in_words(site: Site) -> None:
    status, bot = site.call("GET", "/api/bots/beta")
    history = bot["history"]
    assert history[0] == {"games": 0, "mu": 25.0, "sigma": 8.333}
    assert history[-1]["games"] == site.league.state.games_of("beta")
    assert [p["games"] for p in history] == sorted({p["games"] for p in history})
    rating = site.league.ratings["beta"]
    assert (
        abs(history[-1]["mu"] - rating.mu) < 1e-3
        and abs(history[-1]["sigma"] - rating.sigma) < 1e-3
    )
    assert bot["verdict"] == "a first version: nothing to test it against" and bot["sprt"] is None
    # a long career is thinned to at most HISTORY_POINTS (+ its start and its last game)
    trail = bot_games.Trail()
    for n in range(5_000):
        trail.add(25.0 + n % 7, 8.0 - n / 1000)
    points = trail.shown()
    assert len(points) <= bot_games.HISTORY_POINTS + 2 and points[-1]["games"] == 5_000
    assert points[0]["games"] == 0 and len(trail.points) < 3 * 2 * bot_games.HISTORY_POINTS
    assert points[-1] == {"games": 5_000, "mu": 25.0 + 4_999 % 7, "sigma": round(8.0 - 4.999, 3)}


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def test_submissions_checks_and_verdicts_are_logged_without_tokens(tmp_path: Path) -> None:
    lines = _Lines()
    league_log = logging.getLogger("arena.league")
    league_log.addHandler(lines)
    level, league_log.level = league_log.level, logging.INFO
    try:
        with served(tmp_path) as site:
            for version, source in ((1, "random"), (2, "greedy")):  # not the same code
                archive = bot_archive(tmp_path / f"v{version}", source, "alpha")
                assert site.call("POST", "/api/bots", site.ada, archive.read_bytes())[0] == 202
            site.wait_status("alpha", "active")
            site.wait_status("alpha.v2", "active")
            # the new version loses every game to its previous one, at tables of two games
            games = [
                _line(7_000 + table, players, ranks, game=game)
                for table in range(100)
                for game, (players, ranks) in enumerate(
                    ((("alpha.v2", "alpha"), (1, 0)), (("alpha", "alpha.v2"), (0, 1))), 1
                )
            ]
            site.league.record(TableResult(games))
            status, bot = site.call("GET", "/api/bots/alpha.v2")
            assert bot["sprt"]["verdict"] == "H0"
            assert bot["verdict"] == "alpha.v2 is no better than alpha (SPRT, 5% error)"
            assert bot["sprt"]["llr"] <= bot["sprt"]["lower"]
            tokens = (site.ada, site.bob, site.admin)
    finally:
        league_log.removeHandler(lines)
        league_log.setLevel(level)
    text = "\n".join(lines.lines)
    assert "submission: alpha by ada (version 1)" in text
    assert "submission: alpha.v2 by ada (version 2)" in text
    assert "check of alpha: active" in text and "check of alpha.v2: active" in text
    told = [line for line in lines.lines if line.startswith("SPRT of alpha.v2")]
    assert len(told) == 1 and "against alpha: H0" in told[0], text
    assert not any(token in text for token in tokens)


def test_invite_prints_the_address_the_running_league_listens_on(tmp_path: Path) -> None:
    folder = tmp_path / "league"
    runner = CliRunner()
    made = runner.invoke(main, ["serve", "--league", str(folder), "--add-author", "ada"])
    assert made.exit_code == 0, made.output
    token = re.findall(r"arena_[A-Za-z0-9_-]+", made.output)[-1]
    given = runner.invoke(main, ["serve", "--league", str(folder), "--invite", "--port", "8123"])
    assert "http://127.0.0.1:8123/join#" in given.output, given.output
    arena = [sys.executable, "-c", "from arena.cli.main import main; main()"]  # this checkout's
    server = subprocess.Popen(
        [*arena, "serve", "--league", str(folder), "--port", "0", "--workers", "0"],
        cwd=Path(__file__).resolve().parents[1],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        env={k: v for k, v in os.environ.items() if k != GAME_MODULES},  # a user's environment
    )  # fmt: skip
    try:
        assert server.stdout is not None
        assert select.select([server.stdout], [], [], 120)[0], "the server never said where"
        first = server.stdout.readline()  # printed once it listens, on any free port
        said = LISTENING.match(first)
        assert said, first or server.communicate(timeout=60)
        port = int(said.group(1))
        invited = runner.invoke(main, ["serve", "--league", str(folder), "--invite"])
        assert invited.exit_code == 0, invited.output
        assert f"http://127.0.0.1:{port}/join#" in invited.output, invited.output
        bot = tmp_path / "src" / "gamma"
        bot_archive(tmp_path, "random", "gamma")
        sent = runner.invoke(
            main, ["submit", str(bot), "--to", f"http://127.0.0.1:{port}", "--token", token]
        )
        assert sent.exit_code == 0, sent.output
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGINT)
        try:
            _, errors = server.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            _, errors = server.communicate(timeout=30)
    assert "submission: gamma by ada (version 1)" in errors, errors
    assert token not in errors
