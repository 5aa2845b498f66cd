"""The league's web API and page over a real server on the loopback (arena/league/web.py,
`arena serve`, `arena submit`; issue 24). Every request loop here is bounded."""

from __future__ import annotations

import http.client
import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.main import main
from arena.league import boards, web
from tests.league_support import Site, bot_archive, served


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    with served(tmp_path) as running:
        yield running


def test_bots_submitted_over_http_and_the_cli_play_and_rise(site: Site, tmp_path: Path) -> None:
    status, page = site.call("GET", "/")
    assert status == 200 and "League: mandala, 2 seats" in page
    assert site.call("GET", "/api/leaderboard") == (200, [])
    status, bot = site.call(
        "POST", "/api/bots", site.ada, bot_archive(tmp_path, "random", "alpha").read_bytes()
    )
    assert status == 202 and bot["bot"] == "alpha" and bot["author"] == "ada"
    folder = tmp_path / "src" / "beta"
    bot_archive(tmp_path, "greedy", "beta")  # makes the folder
    result = CliRunner().invoke(
        main, ["submit", str(folder), "--to", site.url, "--token", site.bob]
    )
    assert result.exit_code == 0 and "Submitted beta" in result.output, result.output
    site.wait_status("alpha", "active")
    site.wait_status("beta", "active")
    site.league.start()
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        status, rows = site.call("GET", "/api/leaderboard")
        if rows and min(row["games"] for row in rows) >= 4:
            break
        time.sleep(0.3)
    assert [row["bot"] for row in rows] == ["beta", "alpha"]  # greedy above random
    assert set(rows[0]) >= {"bot", "games", "mu", "sigma", "conservative", "author"}
    # custom leaderboards: a date range, the games among some bots only
    assert site.call("GET", "/api/leaderboard?since=2100-01-01")[0] == 404  # a sentence, not []
    assert site.call("GET", "/api/leaderboard?bots=alpha")[0] == 404
    assert site.call("GET", "/api/leaderboard?seats=3")[0] == 404  # tables of 3: none
    assert [row["bot"] for row in site.call("GET", "/api/leaderboard?seats=2")[1]] == [
        "beta",
        "alpha",
    ]
    status, answer = site.call("GET", "/api/leaderboard?seats=many")
    assert status == 400 and "table size" in answer["error"]
    status, among = site.call("GET", "/api/leaderboard?bots=alpha,beta&until=2100-01-01")
    assert [row["bot"] for row in among] == ["beta", "alpha"]
    status, detail = site.call("GET", "/api/bots/beta")
    assert detail["think_ms_per_decision"] > 0 and detail["failures"] == []
    assert detail["sprt"] is None  # a first version has nothing to be tested against
    (met,) = detail["against"]  # every other bot's result against it
    assert met["bot"] == "alpha" and met["games"] >= 4
    assert met["ahead"] + met["level"] + met["behind"] == met["games"]
    assert [seat["seat"] for seat in detail["by_seat"]] == [0, 1]
    assert sum(seat["games"] for seat in detail["by_seat"]) == met["games"]
    game_id = detail["games"][0]["game_id"]
    status, replay = site.call("GET", f"/replay/{game_id}")
    assert status == 200 and "replay-data" in replay
    assert site.call("GET", "/replay/../../etc/passwd")[0] == 404
    # the live stream: its first event is the leaderboard
    with urllib.request.urlopen(site.url + "/api/events", timeout=30) as stream:
        first = stream.readline().decode()
    assert first.startswith("data: ") and json.loads(first[6:])[0]["bot"] in ("alpha", "beta")
    # alpha removed: off the leaderboards and the list, its games still beta's
    assert site.call("POST", "/api/bots/alpha/remove", site.bob)[0] == 403
    status, gone = site.call("POST", "/api/bots/alpha/remove", site.ada)
    assert status == 200 and gone["status"] == "removed"
    site.league.stop.set()
    rows = site.call("GET", "/api/leaderboard?bots=alpha,beta")[1]
    assert [row["bot"] for row in rows] == ["beta"] and rows[0]["games"] >= 4
    assert "alpha" not in [bot["bot"] for bot in site.call("GET", "/api/bots")[1]]
    status, again = site.call("POST", "/api/bots/alpha/retire", site.ada)
    assert status == 403 and "no bot alpha" in again["error"]


def test_what_a_token_does_not_allow_is_refused(site: Site, tmp_path: Path) -> None:
    archive = bot_archive(tmp_path, "random", "alpha").read_bytes()
    assert site.call("POST", "/api/bots", None, archive)[0] == 401
    assert site.call("POST", "/api/bots", "arena_forged", archive)[0] == 401
    assert site.call("POST", "/api/bots", site.ada, archive)[0] == 202
    site.wait_status("alpha", "active")
    status, answer = site.call("POST", "/api/bots", site.bob, archive)
    assert status == 400 and "belongs to ada" in answer["error"]
    assert site.call("POST", "/api/bots/alpha/retire", site.bob)[0] == 403
    assert site.call("GET", "/api/bots/alpha/stderr", site.bob)[0] == 403
    status, logs = site.call("GET", "/api/bots/alpha/stderr", site.ada)
    assert status == 200 and logs["bot"] == "alpha"
    assert site.call("POST", "/api/pause", site.ada)[0] == 403
    assert site.call("POST", "/api/pause", site.admin) == (200, {"paused": True})
    assert site.call("POST", "/api/resume", site.admin) == (200, {"paused": False})
    status, bot = site.call("POST", "/api/bots/alpha/retire", site.ada)
    assert status == 200 and bot["status"] == "retired"


def test_bad_uploads_are_one_sentence_and_rate_limited(site: Site, tmp_path: Path) -> None:
    status, answer = site.call("POST", "/api/bots", site.ada, b"not an archive")
    assert status == 400 and answer["error"] == (
        "The upload is neither a .zip nor a .tar.gz archive."
    )
    # a 10 GB upload: refused from its headers, before a byte of it is read
    connection = http.client.HTTPConnection(site.url.removeprefix("http://"), timeout=30)
    connection.putrequest("POST", "/api/bots")
    connection.putheader("Authorization", f"Bearer {site.ada}")
    connection.putheader("Content-Length", str(10 << 30))
    connection.endheaders()
    answer = connection.getresponse()
    assert answer.status == 413 and b"at most 32 MiB" in answer.read()
    connection.close()
    statuses = [site.call("POST", "/api/bots", site.ada, b"x")[0] for _ in range(12)]
    assert 429 in statuses and statuses.count(400) <= web.UPLOADS_PER_MINUTE
    assert list((site.league.folder / "bots").iterdir()) == []
    assert list((site.league.folder / "uploads").iterdir()) == []


def test_arena_serve_adds_an_author_and_prints_the_token_once(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["serve", "--league", str(tmp_path / "l"), "--add-author", "ada", "--admin"]
    )
    assert result.exit_code == 0 and "arena_" in result.output
    again = CliRunner().invoke(
        main, ["serve", "--league", str(tmp_path / "l"), "--add-author", "ada"]
    )
    assert again.exit_code == 1 and "already an author called ada" in again.output


def test_arena_serve_keeps_the_leagues_game(tmp_path: Path) -> None:
    league = ["serve", "--league", str(tmp_path / "l")]
    made = CliRunner().invoke(main, [*league, "--game", "takenoko", "--game-option",
                                     "chibis=true", "--add-author", "ada"])  # fmt: skip
    assert made.exit_code == 0, made.output
    other = CliRunner().invoke(main, [*league, "--game", "flowers", "--add-author", "bob"])
    assert (
        other.exit_code == 1
        and "This league plays takenoko with --game-option chibis=true; start it with --game takenoko --game-option chibis=true"
        in other.output
    )
    same = CliRunner().invoke(main, [*league, "--add-author", "bob"])  # its own game, unsaid
    assert same.exit_code == 0, same.output
    bad = CliRunner().invoke(main, ["serve", "--league", str(tmp_path / "m"), "--game",
                                    "flowers", "--game-option", "colours=9", "--invite"])  # fmt: skip
    assert bad.exit_code == 1 and "colours" in bad.output and "Traceback" not in bad.output


def test_arena_serve_refuses_a_bad_sprt_or_port_in_one_sentence(tmp_path: Path) -> None:
    league = str(tmp_path / "l")
    bad = CliRunner().invoke(main, ["serve", "--league", league, "--sprt", "5,1"])
    assert bad.exit_code == 2 and "ELO0 must be less than ELO1" in bad.output
    port = CliRunner().invoke(main, ["serve", "--league", league, "--port", "65536"])
    assert port.exit_code == 2 and "--port" in port.output


def test_an_invite_link_makes_one_author_who_can_submit(site: Site, tmp_path: Path) -> None:
    assert site.call("POST", "/api/invites", site.ada)[0] == 403  # the admin's only
    status, made = site.call("POST", "/api/invites", site.admin)
    assert status == 201 and made["link"] == f"{site.url}/join#{made['invite']}"
    status, page = site.call("GET", "/join")
    assert status == 200 and "Join the league" in page
    ask = json.dumps({"invite": made["invite"], "name": "carol"}).encode()
    status, joined = site.call("POST", "/api/join", None, ask)
    assert status == 201 and joined["author"] == "carol"
    archive = bot_archive(tmp_path, "random", "gamma").read_bytes()
    assert site.call("POST", "/api/bots", joined["token"], archive)[0] == 202
    status, again = site.call("POST", "/api/join", None, ask.replace(b"carol", b"dave"))
    assert status == 400 and "invite is not valid" in again["error"]
    for junk in (b"", b"[]", b'"x"', b'{"invite": 1, "name": "x"}', b"[" * 4000, b"{" * 5000):
        status, answer = site.call("POST", "/api/join", None, junk)
        assert status in (400, 413) and answer["error"].endswith("."), junk[:20]


def test_arena_serve_prints_an_invite_link(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["serve", "--league", str(tmp_path / "l"), "--port", "8123", "--invite"]
    )
    assert result.exit_code == 0, result.output
    assert "http://127.0.0.1:8123/join#invite_" in result.output


def test_arena_serve_on_a_port_in_use_is_one_sentence(tmp_path: Path) -> None:
    import socket

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        result = CliRunner().invoke(
            main, ["serve", "--league", str(tmp_path / "l"), "--port", str(port)]
        )
    assert result.exit_code == 1 and f"Cannot listen on 127.0.0.1:{port}" in result.output


def test_a_second_server_on_one_league_folder_is_refused(tmp_path: Path) -> None:
    from arena.league.league import League
    from arena.league.store import StoreError

    first = League(tmp_path / "l", workers=0)
    first.start()
    second = League(tmp_path / "l", workers=0)
    try:
        with pytest.raises(StoreError, match="Another arena serve is playing the league"):
            second.start()
    finally:
        second.close()
        first.close()
    again = League(tmp_path / "l", workers=0)  # the lock went with the first
    again.start()
    again.close()


def test_custom_leaderboards_beyond_the_threads_for_them_wait_then_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(boards, "CUSTOM_AT_ONCE", 0)  # as if both threads were busy
    monkeypatch.setattr(boards, "CUSTOM_WAIT_S", 0.2)
    with served(tmp_path) as site:
        status, answer = site.call("GET", "/api/leaderboard?seats=2")
        assert status == 503 and "busy with other custom leaderboards" in answer["error"]
        assert site.call("GET", "/api/leaderboard") == (200, [])  # the plain one is kept made


def test_commands_beside_a_playing_league_leave_its_checks_alone(tmp_path: Path) -> None:
    """--add-author, --invite and --export run beside a playing `arena serve`: a bot it is
    checking stays so (only the process that plays a league puts a stopped one right)."""
    from arena.league.league import League

    league = League(tmp_path / "l", workers=0)
    ada = league.store.author_of(league.store.add_author("ada"))
    assert ada is not None
    checking = league.store.set_status(league.store.add_bot("beta", ada), "checking")
    for extra in (["--add-author", "bob"], ["--invite"], ["--export", str(tmp_path / "out")]):
        result = CliRunner().invoke(main, ["serve", "--league", str(tmp_path / "l"), *extra])
        assert result.exit_code == 0, result.output
    assert league.store.bot_by_id(checking.id).status == "checking"  # type: ignore[union-attr]
    league.close()
