"""Playing a league bot in the browser (issue 36, "In the league"): an author's table over
the league's HTTP API on the loopback (arena/league/routes/human.py, human_tables.py). Every
request loop here is bounded by a deadline."""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.html.embed import asset
from arena.human.game import HumanClock
from arena.league import human_tables
from arena.league.pages import PAGE, PAGE_SCRIPT
from arena.league.routes import human as human_routes
from arena.record import load_record
from tests import waiting
from tests.browser_support import chromium, needs_chromium, until
from tests.league_support import Site, bot_archive, served

CLOCK = HumanClock(move_s=8.0, open_s=3.0, gone_s=2.0, linger_s=0.0)
"""Short times: a page not opened in 3 s has left; a silent one loses when its 8 s run out."""


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Site]:
    monkeypatch.setattr(human_tables, "CLOCK", CLOCK)
    with served(tmp_path) as running:
        status, _ = running.call(
            "POST", "/api/bots", running.ada, bot_archive(tmp_path, "random", "alpha").read_bytes()
        )
        assert status == 202
        running.wait_status("alpha", "active")
        yield running


def seat_call(
    site: Site, path: str, key: str | None, body: Any = None, raw: bytes | None = None
) -> tuple[int, Any]:
    """(status, JSON) of one request of the seat's page, its key in the header."""
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    headers = {} if key is None else {"X-Seat-Key": key}
    request = urllib.request.Request(site.url + path, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def start(site: Site, token: str, bot: str = "alpha") -> tuple[int, Any]:
    return site.call("POST", "/api/play", token, json.dumps({"bot": bot}).encode())


def finished(site: Site, game_id: str, seconds: float = 60) -> dict[str, Any]:
    """The kept line of human game `game_id`, once it ended."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        lines = site.call("GET", "/api/play/games")[1]
        found: list[dict[str, Any]] = [line for line in lines if line["game_id"] == game_id]
        if found:
            return found[0]
        time.sleep(0.2)
    raise AssertionError(f"{game_id} did not end within {seconds} s")


def play_to_the_end(site: Site, game: dict[str, Any]) -> dict[str, Any]:
    """Poll the seat's state as its page does and take the first legal move each time."""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        status, state = seat_call(site, game["page"] + "/api/state", game["key"])
        assert status == 200, state
        if state["over"]:
            return dict(state)
        asked = state["asked"]
        if asked:
            status, answer = seat_call(
                site,
                game["page"] + "/api/move",
                game["key"],
                {"request": asked["request"], "move": 0},
            )
            assert status == 200 or "no longer asked" in answer["error"], answer
        else:
            time.sleep(0.05)
    raise AssertionError("the human game did not end in time")


def test_an_author_plays_a_bot_to_its_end_unrated_one_game_at_a_time(
    site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=human_tables.__name__)
    board = site.call("GET", "/api/leaderboard")[1]
    status, game = start(site, site.ada)
    assert status == 201 and game["page"] == f"/play/{game['game']}" and game["seat"] == 0
    assert game["key"] not in game["page"] and site.ada not in json.dumps(game)
    # one game at a time per author: the second is refused in one sentence
    status, again = start(site, site.ada)
    assert status == 409 and "one game at a time" in again["error"]
    assert again["error"].count(". ") == 0 and game["game"] in again["error"]
    # a second author takes the league's other table; a third finds them all taken
    status, bobs = start(site, site.bob)
    assert status == 201 and bobs["key"] != game["key"]
    status, full = start(site, site.admin)
    assert status == 503 and "at most 2 human games" in full["error"]
    state = play_to_the_end(site, game)
    assert state["outcome"]["termination"] == "normal"
    # the record is written after the end is told: the page's replay link comes with it
    until(lambda: seat_call(site, game["page"] + "/api/state", game["key"])[1]["replay"])
    line = finished(site, game["game"])
    assert line["author"] == "ada" and line["bot"] == "alpha" and line["human_seat"] == 0
    assert line["players"] == ["human:ada", "alpha"]  # a human is a named player
    # kept and linked: an ordinary record, its replay, and the bot's own list of them
    record = load_record(site.league.folder / "human" / "records" / f"{game['game']}.json.gz")
    assert record["players"] == ["human:ada", "alpha"] and record["outcome"]["scores"]
    status, replay = site.call("GET", line["replay"])
    assert status == 200 and "replay-data" in replay
    # (bob's game, not opened, may end before or after it: the list is newest first)
    assert game["game"] in [g["game_id"] for g in site.call("GET", "/api/play/games?bot=alpha")[1]]
    # not rated: nothing in the league's store, ratings or leaderboard
    assert site.league.store.game_count() == 0 and site.league.standings.count == 0
    assert site.call("GET", "/api/leaderboard")[1] == board
    assert site.call("GET", "/api/bots/alpha")[1]["games"] == []
    # bob never opened his page: he lost with the reason, and his slot is free again
    bobs_line = finished(site, bobs["game"])
    assert "page was not opened" in bobs_line["reason"]
    assert bobs_line["termination"] == "startup_failure"
    said = [r.getMessage() for r in caplog.records if r.name == human_tables.__name__]
    assert f"human game {game['game']}: ada plays alpha" in said  # the server's log, each game
    assert any(m.startswith(f"human game {game['game']} over: ada place ") for m in said), said


def test_a_page_that_stops_asking_loses_on_its_clock_with_its_reason_and_frees_the_seat(
    site: Site,
) -> None:
    status, game = start(site, site.ada)
    assert status == 201
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # the page opens and is asked a decision, then closes
        state = seat_call(site, game["page"] + "/api/state", game["key"])[1]
        if state["asked"]:
            break
        time.sleep(0.1)
    assert state["asked"], state
    line = finished(site, game["game"])  # nobody asks again: lost when the 8 s run out
    assert "the human's clock ran out (its page had not asked for news for" in line["reason"]
    assert line["termination"] == "timeout" and line["ranks"][0] == 1  # the human lost
    status, answer = seat_call(site, game["page"] + "/api/state", game["key"])
    assert status == 200 and answer["over"] and "clock ran out" in answer["outcome"]["reason"]
    status, next_game = start(site, site.ada)  # the author's slot is free
    assert status == 201
    assert "page was not opened" in finished(site, next_game["game"])["reason"]


def test_a_league_that_stops_ends_its_human_tables_at_once(site: Site) -> None:
    status, game = start(site, site.ada)
    assert status == 201
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # the page keeps asking, as an open page does
        state = seat_call(site, game["page"] + "/api/state", game["key"])[1]
        if state["asked"]:
            break
        time.sleep(0.1)
    site.league.stop.set()
    begun = time.monotonic()  # the page keeps asking (never gone) within its move clock
    while time.monotonic() - begun < CLOCK.move_s / 2 and not state["over"]:
        state = seat_call(site, game["page"] + "/api/state", game["key"])[1]
        time.sleep(0.1)
    assert state["over"]  # not left to time out: no clock of the human's ran out
    assert "the table was stopped: the league stopped" in finished(site, game["game"])["reason"]
    status, refused = start(site, site.bob)
    assert status == 503 and "stopping" in refused["error"]


def test_refusals_keys_and_the_page_never_carries_a_token(site: Site) -> None:
    assert start(site, "")[0] == 401  # no token
    status, wrong = start(site, "arena_not-a-token")
    assert status == 401 and "not one of this league's" in wrong["error"]
    assert start(site, site.ada, "nobody")[0] == 404
    status, bad = site.call("POST", "/api/play", site.ada, b"[1, 2")
    assert status == 400 and '{"bot"' in bad["error"]
    status, game = start(site, site.ada)
    assert status == 201
    state_path = game["page"] + "/api/state"
    assert seat_call(site, state_path, None)[0] == 403
    assert seat_call(site, state_path, "guess")[0] == 403
    assert seat_call(site, "/play/H9999999/api/state", game["key"])[0] == 404
    with pytest.raises(urllib.error.HTTPError) as unknown:  # a browser gets a page, not JSON
        urllib.request.urlopen(site.url + "/play/H9999999", timeout=30)
    assert unknown.value.code == 404 and "no such human game" in unknown.value.read().decode()
    status, moved = seat_call(site, game["page"] + "/api/move", game["key"], raw=b'{"move": "x"}')
    assert status == 400 and "two whole numbers" in moved["error"]
    # the seat's page: served under the league's policy, which allows its scripts by hash
    request = urllib.request.Request(site.url + game["page"])
    with urllib.request.urlopen(request, timeout=30) as answer:
        page, policy = answer.read().decode(), answer.headers["Content-Security-Policy"]
    for script in re.findall(r"<script>(.*?)</script>", page, re.S):
        digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in policy
    assert '"base":"/play/' in page.replace(" ", "") and game["key"] not in page
    # the token goes in a header only; the seat's key through sessionStorage, in no address
    before = [
        PAGE_SCRIPT[: found.start()].rsplit("\n", 1)[-1]
        for found in re.finditer(r'\$\("token"\)\.value', PAGE_SCRIPT)
    ]
    assert len(before) == 4 and all(
        text.endswith(('"Authorization": "Bearer " + ', "const token = ")) for text in before
    ), before
    assert 'Bearer " + token}' in PAGE_SCRIPT  # `token`'s one use: a header
    addresses = re.findall(r"fetch\(([^,)]*)|location\.assign\(([^)]*)|href = ([^;]*)", PAGE_SCRIPT)
    assert len(addresses) > 8 and not any("token" in "".join(found) for found in addresses)
    assert 'sessionStorage.setItem("arena-seat-key", answer.key)' in PAGE_SCRIPT
    assert "location.assign(answer.page)" in PAGE_SCRIPT and 'id="play"' in PAGE
    assert "Authorization" not in asset("seat.js") and "token" not in asset("seat.js")
    assert "page was not opened" in finished(site, game["game"])["reason"]


CLICK_BOT = """
const name = [...document.querySelectorAll("#bots span.bot")]
  .find((node) => node.textContent.startsWith(arguments[0] + " "));
if (name) name.click();
return Boolean(name) && document.getElementById("play-box").hidden === false;
"""

NOW = """
if (document.getElementById("replay-link")) return ["over"];
const legal = document.getElementById("legal");
if (legal && legal.getAttribute("data-request") !== document.body.getAttribute("data-sent"))
  return ["asked", legal.getAttribute("data-request")];
return null;
"""


@needs_chromium
def test_the_play_button_in_chromium_plays_a_whole_game_by_clicking(site: Site) -> None:
    from selenium.webdriver.common.by import By

    with chromium() as browser:
        browser.get(site.url + "/")
        assert not browser.find_element(By.ID, "play-box").is_displayed()  # not signed in
        browser.find_element(By.ID, "token").send_keys(site.ada + "\t")
        until(lambda: "You are ada" in browser.find_element(By.ID, "who").text, 30)
        # the bot's page, from the list of bots (with no game yet it is on no leaderboard)
        until(lambda: browser.execute_script(CLICK_BOT, "alpha"), 30)
        until(lambda: browser.find_element(By.ID, "play-box").is_displayed(), 30)
        assert "(no game yet, 0 failures" in browser.find_element(By.ID, "detail-title").text
        browser.find_element(By.ID, "play").click()
        until(lambda: "/play/H" in browser.current_url, 30)
        addresses = [browser.current_url]
        decisions, key = 0, None
        while True:
            now = until(lambda: browser.execute_script(NOW), 60)
            addresses.append(browser.current_url)
            if now[0] == "over":
                break
            if decisions == 3:  # the tab is closed; a new one at the address rejoins (issue 43)
                key = browser.execute_script('return sessionStorage.getItem("arena-seat-key")')
                address = browser.current_url
                browser.switch_to.new_window("tab")
                old, browser_tab = browser.window_handles[0], browser.current_window_handle
                browser.switch_to.window(old)
                browser.close()
                browser.switch_to.window(browser_tab)
                browser.get(address)
                now = until(lambda: browser.execute_script(NOW), 60)
                assert now[0] == "asked", now
            browser.find_element(By.CSS_SELECTOR, "#legal li").click()
            decisions += 1
        assert decisions > 5
        game_id = addresses[0].rsplit("/", 1)[1]
        assert not browser.execute_script(
            'return localStorage.getItem("arena-seat-key:" + location.pathname)'
        )  # forgotten once the game is over
        assert key and all(key not in a and site.ada not in a and "#" not in a for a in addresses)
        browser.find_element(By.ID, "replay-link").click()
        until(lambda: browser.find_elements(By.ID, "replay-data"), 30)
        assert browser.current_url.endswith(f"/play/{game_id}/replay")
        errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors  # a script or style the policy refused would be one
        line = finished(site, game_id)
        browser.get(site.url + "/")  # the bot's page lists the game with its result

        def listed() -> str:  # (signed out now: the bot's page has no play button)
            browser.execute_script(CLICK_BOT, "alpha")
            return str(browser.find_element(By.ID, "human-games").text)

        listed = until(listed, 30)
        won = "the human won" if line["ranks"][0] == 0 else "the bot won"
        assert f"{game_id} ada: " in listed and ("shared first" in listed or won in listed)
    assert line["players"] == ["human:ada", "alpha"] and site.league.store.game_count() == 0


def test_a_table_longer_than_its_cap_is_stopped_and_the_human_loses(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 42, item 5: a human table's whole length is bounded (TABLE_S), beside the clock
    of each decision: a page that keeps asking but never moves loses when it runs out."""
    monkeypatch.setattr(human_tables, "TABLE_S", 2.0)  # the clock of a decision: 30 s
    status, game = start(site, site.ada)
    assert status == 201
    begun, state = time.monotonic(), {"over": False}
    while time.monotonic() - begun < 30 and not state["over"]:  # an open page, never moving
        state = seat_call(site, game["page"] + "/api/state", game["key"])[1]
        time.sleep(0.1)
    assert state["over"] and time.monotonic() - begun < CLOCK.move_s  # not the decision's clock
    line = finished(site, game["game"])
    assert line["reason"].endswith(
        "the table was stopped: its time ran out (a human table lasts at most 2 s)."
    ), line
    assert line["termination"] == "crash" and line["ranks"][0] == 1  # the human lost
    assert start(site, site.ada)[0] == 201  # the author's slot is free again


def test_a_visitor_watches_a_human_game_its_public_view_only(site: Site) -> None:
    """Issue 43: /play/GID of someone else's game sends a visitor to its spectators' page,
    which shows the game's public view (never a seat's: the human's setup Cup unseen) and the
    moves; bounded like the rest of the league (a rate per address)."""
    status, game = start(site, site.ada)
    assert status == 201
    page = game["page"]
    with urllib.request.urlopen(site.url + page, timeout=30) as answer:  # no key: the seat's
        assert f'"watch":"{page}/watch"' in answer.read().decode()  # page sends it on
    with urllib.request.urlopen(site.url + page + "/watch", timeout=30) as answer:
        html, policy = answer.read().decode(), answer.headers["Content-Security-Policy"]
    assert "watch-data" in html and game["key"] not in html
    for script in re.findall(r"<script>(.*?)</script>", html, re.S):
        digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in policy
    watched: list[dict[str, Any]] = []
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        status, state = seat_call(site, page + "/api/state", game["key"])
        if state["over"]:
            break
        if not state["asked"]:
            time.sleep(0.05)
            continue
        status, seen = seat_call(site, page + "/api/watch", None)  # once a decision: its rate
        assert status == 200, seen
        watched.append(seen)
        view, public = state["asked"]["view"], seen["view"]
        assert public is not None and not {"seat", "hand", "cup"} & set(public)
        assert public["players"][0]["cup_unknown"] > 0 == view["players"][0]["cup_unknown"]
        request = {"request": state["asked"]["request"], "move": 0}
        seat_call(site, page + "/api/move", game["key"], request)
    assert state["over"] and len(watched) > 5

    # the record is written after the end is told: the replay link comes with it (asked once
    # a second: the looks from one address are rated)
    def replayed() -> dict[str, Any] | None:
        status, seen = seat_call(site, page + "/api/watch?told=0", None)
        return seen if status == 200 and seen["replay"] else None

    seen = waiting.until(replayed, 120, what="the replay link", every=1.0)
    assert seen["over"] and seen["outcome"]["scores"]
    assert (
        seen["lines"] == len(seen["narration"]) > 5 and "seat 0 (human:ada)" in seen["narration"][0]
    )
    assert seat_call(site, "/play/H9999999/api/watch", None)[0] == 404
    with pytest.raises(urllib.error.HTTPError) as unknown:
        urllib.request.urlopen(site.url + "/play/H9999999/watch", timeout=30)
    assert unknown.value.code == 404
    for _ in range(human_routes.WATCHES_PER_MINUTE + 1):  # bounded: a rate per address
        status, refused = seat_call(site, page + "/api/watch", None)
        if status == 429:
            break
    assert status == 429 and "a minute from one address" in refused["error"]


@needs_chromium
def test_the_spectators_page_in_chromium_follows_the_game_without_a_hand(site: Site) -> None:
    """A visitor's tab at /play/GID (no key) lands on the spectators' page, which draws the
    board with every hand face down, narrates the moves, and ends on the result."""
    from selenium.webdriver.common.by import By

    with chromium() as browser:  # up before the game starts: its clocks are short here
        status, game = start(site, site.ada)
        assert status == 201
        assert seat_call(site, game["page"] + "/api/state", game["key"])[0] == 200  # opened
        browser.get(site.url + game["page"])
        until(lambda: browser.current_url.endswith(game["page"] + "/watch"), 30)
        deadline, followed = time.monotonic() + 180, 0
        while time.monotonic() < deadline:
            state = seat_call(site, game["page"] + "/api/state", game["key"])[1]
            if state["over"]:
                break
            if state["asked"]:
                if followed < 4:  # the page catches up with the game as it waits on the human
                    lines = seat_call(site, game["page"] + "/api/watch", None)[1]["lines"]

                    def caught_up(lines: int = lines) -> bool:
                        told = browser.find_elements(By.CSS_SELECTOR, "#narration li")
                        hands = browser.find_elements(By.CSS_SELECTOR, "#board .hand .hidden-hand")
                        return len(told) == lines and len(hands) == 2  # both face down

                    until(caught_up, 30)
                    followed += 1
                request = {"request": state["asked"]["request"], "move": 0}
                seat_call(site, game["page"] + "/api/move", game["key"], request)
            time.sleep(0.05)
        until(lambda: "Game over" in browser.find_element(By.ID, "asked").text, 30)
        until(lambda: browser.find_elements(By.CSS_SELECTOR, "#asked a.replay"), 30)
        assert followed == 4
        errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert not errors, errors  # a script or style the policy refused would be one
