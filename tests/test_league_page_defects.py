"""The league page's small defects (issue 42, point 7): a bot new on the leaderboard showed
`null` author and status for a moment; "Submitted …: building" stayed after the bot was
active; the bot page numbered seats from 1 where every other page numbers them from 0."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.execution import TableResult
from arena.league.boards import Boards
from arena.league.league import League
from arena.league.pages import LIVE_SCRIPT, PAGE_SCRIPT
from tests.browser_support import chromium, needs_chromium, until
from tests.league_support import bot_archive, served
from tests.test_league_candidates import _game


def test_a_bot_new_on_the_leaderboard_has_its_author_and_status_at_once(tmp_path: Path) -> None:
    league = League(tmp_path / "league", workers=0)
    try:
        ada = league.store.author_of(league.store.add_author("ada"))
        assert ada is not None
        with league.lock:
            for name in ("a", "b"):
                league.store.set_status(league.store.add_bot(name, ada), "active")
        league.record(TableResult([_game(1, ("a", "b"), (0, 1))]))
        boards = Boards(league)
        assert [row["author"] for row in boards.plain()] == ["ada", "ada"]
        with boards.making:  # the background refresh the first board started is done
            pass
        with league.lock:  # a bot arrives and plays at once, before the next refresh
            league.store.set_status(league.store.add_bot("c", ada), "active")
        league.record(TableResult([_game(2, ("a", "c"), (1, 0))]))
        rows = {row["bot"]: row for row in boards.plain()}
        assert (rows["c"]["author"], rows["c"]["status"]) == ("ada", "active")
    finally:
        league.close()


@pytest.fixture
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


@needs_chromium
def test_the_submitted_message_follows_the_check_and_seats_count_from_0(
    browser: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    with served(tmp_path) as site:
        beta = bot_archive(tmp_path, "random", "beta").read_bytes()
        assert site.call("POST", "/api/bots", site.bob, beta)[0] == 202
        site.wait_status("beta", "active")
        browser.get(site.url + "/")
        browser.find_element(By.ID, "token").send_keys(site.ada)
        archive = bot_archive(tmp_path, "random", "alpha")
        browser.find_element(By.ID, "archive").send_keys(str(archive))
        browser.find_element(By.ID, "send").click()
        told = until(lambda: browser.find_element(By.ID, "error").text.startswith("Submitted"))
        assert told
        # no longer "building" once its check is done: the page follows it
        until(lambda: "Submitted alpha: active" in browser.find_element(By.ID, "error").text)
        site.league.start()
        row = until(
            lambda: [
                r for r in browser.find_elements(By.CSS_SELECTOR, "#board tr") if "alpha" in r.text
            ]
        )
        assert "null" not in browser.find_element(By.ID, "board").text
        row[0].click()
        seats = until(lambda: browser.find_elements(By.CSS_SELECTOR, "#seats tr"))
        numbers = sorted(r.find_elements(By.TAG_NAME, "td")[0].text for r in seats)
        assert numbers == ["0", "1"], numbers  # two seats: 0 and 1, as the API and replays say
        games = until(lambda: browser.find_elements(By.CSS_SELECTOR, "#games tr"))
        shown = {r.find_elements(By.TAG_NAME, "td")[2].text for r in games}
        assert shown <= {"0", "1"}, shown


_LIVE_DRIVER = """
class EventSource {
  constructor(url) { this.url = url; this.readyState = 0; this.closed = false; sources.push(this); }
  close() { this.closed = true; }
}
EventSource.CLOSED = 2;
const sources = [], waits = [], drawn = [];
let pending = null;
const later = (fn, ms) => { waits.push(ms); pending = fn; };
live("/api/events", (rows) => drawn.push(rows), later);
const refuse = () => { const s = sources.at(-1); s.readyState = 2; s.onerror(); };
refuse(); pending(); refuse(); pending(); refuse(); pending();  // a 503 three times
const s = sources.at(-1);
s.readyState = 1; s.onopen(); s.onmessage({data: '[{"bot": "a"}]'});
s.readyState = 0; s.onerror();  // a stream that ended: the browser's own retry, none of ours
refuse(); pending();
console.log(JSON.stringify({waits, drawn, count: sources.length, urls: sources.map((x) => x.url),
  closed: sources.slice(0, -1).every((x) => x.closed)}));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="no node to run the page's script")
def test_the_live_leaderboard_comes_back_after_a_refused_stream() -> None:
    """A browser gives up for good on an event stream answered 429 or 503 (the league full,
    restarting): the page then stayed frozen. It opens the stream again, waiting 1, 2, 4 s
    (a quarter more at random), and from 1 s again once one was open."""
    ran = subprocess.run(
        ["node", "-e", LIVE_SCRIPT + _LIVE_DRIVER],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    said = json.loads(ran.stdout)
    bounds = [(1000, 1250), (2000, 2500), (4000, 5000), (1000, 1250)]
    assert len(said["waits"]) == len(bounds)
    assert all(low <= wait <= high for wait, (low, high) in zip(said["waits"], bounds, strict=True))
    assert said["drawn"] == [[{"bot": "a"}]]
    assert said["count"] == 5 and set(said["urls"]) == {"/api/events"} and said["closed"]


def test_the_page_runs_the_live_leaderboard() -> None:
    assert LIVE_SCRIPT in PAGE_SCRIPT and 'live("/api/events", draw, setTimeout);' in PAGE_SCRIPT
    assert "new EventSource" not in PAGE_SCRIPT.replace(LIVE_SCRIPT, "")
