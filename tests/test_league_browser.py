"""The league's page in a real browser (Debian's chromium through Selenium; issue 24): a bot
submitted through the page appears on the live leaderboard, clicked it is highlighted with
its results against the others, one of its replays opens, an author cannot retire another
author's bot, the admin unretires one, no text from a bot runs as script, and an invite link
gives a token."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.league.uploads import archive_folder
from tests.browser_support import SCREENSHOTS, chromium, click, needs_chromium, table_rows, until
from tests.league_support import Site, bot_archive, served

pytestmark = needs_chromium


@pytest.fixture
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


DATA_BOT = "return [...document.querySelectorAll(arguments[0])].map((node) => node.dataset.bot);"


def _bots_of(browser: Any, selector: str) -> list[str]:
    """The bots the `selector` finds are of (their data-bot), in one reading of the page:
    its leaderboard and bots' list are redrawn as games finish."""
    return list(browser.execute_script(DATA_BOT, selector))


def _board_once_alpha_played(browser: Any) -> list[list[str]] | None:
    """The leaderboard (one rendering of it) once alpha has played 4 games, else None."""
    board = table_rows(browser, "#board tr")
    return board if any(row[1] == "alpha" and int(row[4]) >= 4 for row in board) else None


def test_submit_watch_it_rise_open_a_replay_and_stay_in_ones_lane(
    browser: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    with served(tmp_path) as site:
        _run(browser, site, tmp_path, By)


def _run(browser: Any, site: Site, tmp_path: Path, by: Any) -> None:
    # bob's bot arrives from a script; a hostile one prints markup to stderr and fails
    assert (
        site.call(
            "POST", "/api/bots", site.bob, bot_archive(tmp_path, "greedy", "beta").read_bytes()
        )[0]
        == 202
    )
    evil = tmp_path / "src" / "evil"
    evil.mkdir(parents=True)
    (evil / "bot.toml").write_text(
        'name = "evil"\ncommand = ["python3", "bot.py"]\ngames = ["mandala"]\n'
    )
    (evil / "bot.py").write_text(
        "import sys\nsys.stderr.write('<img src=x onerror=\"window.hacked=1\"><script>window.hacked=2</script>')\nsys.exit(1)\n"
    )
    site.call("POST", "/api/bots", site.bob, archive_folder(evil, tmp_path).read_bytes())
    site.wait_status("beta", "active")
    site.wait_status("evil", "failed")
    site.league.start()
    browser.get(site.url + "/")
    # ada submits through the page
    browser.find_element(by.ID, "token").send_keys(site.ada)
    archive = bot_archive(tmp_path, "random", "alpha")
    browser.find_element(by.ID, "archive").send_keys(str(archive))
    browser.find_element(by.ID, "send").click()
    until(lambda: "Submitted alpha" in browser.find_element(by.ID, "error").text)
    # the live leaderboard shows it playing, without a reload
    board = until(lambda: _board_once_alpha_played(browser))
    assert any(row[1] == "beta" for row in board)
    # nothing a bot wrote ran: the failed bot's message is shown as text
    until(lambda: "evil" in browser.find_element(by.ID, "bots").text)
    assert browser.execute_script("return window.hacked === undefined")
    # a replay of alpha's opens in the viewer
    click(lambda: browser.find_element(by.CSS_SELECTOR, '#board tr[data-bot="alpha"]'))
    # it is highlighted, with every other bot's result against it and its seats
    assert until(lambda: _bots_of(browser, "#board tr.chosen")) == ["alpha"]
    against = until(lambda: browser.find_element(by.ID, "against").text)
    assert "beta" in against and browser.find_element(by.ID, "seats").text
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.set_window_size(1280, 1100)
    browser.save_screenshot(str(SCREENSHOTS / "league.png"))
    # its games a table (a page of them), its rating as a chart, its version's verdict in words
    assert until(lambda: browser.find_elements(by.CSS_SELECTOR, "#games tr"))
    assert "page 1 of" in browser.find_element(by.ID, "page").text
    assert browser.find_elements(by.CSS_SELECTOR, "#chart polyline")
    assert "first version" in browser.find_element(by.ID, "verdict").text
    click(lambda: browser.find_element(by.CSS_SELECTOR, "#detail a"))
    until(lambda: browser.find_elements(by.ID, "replay-data"))
    assert "Move 1" in until(lambda: browser.find_element(by.ID, "counter").text)
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors
    # a wrong token is called wrong; ada is shown retire and remove on her bots alone
    browser.get(site.url + "/")
    browser.find_element(by.ID, "token").send_keys("arena_wrong\t")
    until(lambda: "not one of this league's" in browser.find_element(by.ID, "who").text)
    assert browser.find_elements(by.CSS_SELECTOR, "button.retire") == []
    browser.find_element(by.ID, "token").clear()
    browser.find_element(by.ID, "token").send_keys(site.ada + "\t")
    until(lambda: "You are ada" in browser.find_element(by.ID, "who").text)
    assert until(lambda: _bots_of(browser, "button.retire")) == ["alpha"]
    assert site.call("POST", "/api/bots/beta/retire", site.ada)[0] == 403  # the server checks
    assert site.call("GET", "/api/bots/beta")[1]["status"] == "active"
    # ada retires alpha; the admin is shown unretire on it (ada is not), and it plays again
    assert site.call("POST", "/api/bots/alpha/retire", site.ada)[0] == 200
    browser.find_element(by.ID, "token").clear()
    browser.find_element(by.ID, "token").send_keys(site.admin + "\t")
    until(lambda: "You are admin (admin)" in browser.find_element(by.ID, "who").text)
    assert until(lambda: _bots_of(browser, "button.unretire")) == ["alpha"]
    click(lambda: browser.find_element(by.CSS_SELECTOR, "button.unretire"))
    until(lambda: site.call("GET", "/api/bots/alpha")[1]["status"] == "active")


def test_an_invite_link_opened_in_the_browser_gives_a_token(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    with served(tmp_path) as site:
        link = site.call("POST", "/api/invites", site.admin)[1]["link"]
        browser.get(link)
        browser.find_element(By.ID, "name").send_keys("carol")
        browser.find_element(By.ID, "join").click()
        token = until(lambda: browser.find_element(By.ID, "token").text)
        assert "Welcome, carol" in browser.find_element(By.ID, "answer").text
        author = site.league.store.author_of(token)
        assert author is not None and author.name == "carol"
        browser.get(link)  # the same link again: used up
        browser.find_element(By.ID, "name").send_keys("dave")
        browser.find_element(By.ID, "join").click()
        until(lambda: "not valid" in browser.find_element(By.ID, "answer").text)
