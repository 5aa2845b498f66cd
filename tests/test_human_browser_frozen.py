"""Issue 43 in a real browser: a game by keyboard alone whose tab is frozen for a minute in
its middle (DevTools' lifecycle state "frozen", as a browser freezes a background tab or a
phone an app it left) and then comes back and finishes the game.

A module of its own (its own browser): under `make test` its minute of waiting runs on one
worker beside the other tests, not after test_human_browser.py's games on theirs.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_support import chromium, needs_chromium, until
from tests.human_support import human_game
from tests.seat_page_support import decisions

pytestmark = needs_chromium

FROZEN_S = 60
"""How long the tab is frozen: issue 43's minute."""

COUNT_REQUESTS = """
window.asked = [];
const fetchOf = window.fetch;
window.fetch = (...args) => { window.asked.push(Date.now()); return fetchOf(...args); };
"""
"""Notes when the page asks the table (each fetch), to see that the frozen tab was silent."""

LONGEST_SILENCE = """
const times = window.asked;
return Math.max(...times.slice(1).map((t, i) => t - times[i])) / 1000;
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


def test_a_game_by_keyboard_alone_with_a_tab_frozen_for_a_minute(
    browser: Any, tmp_path: Path
) -> None:
    """Tab and arrows to a move, Enter to play it. The tab is frozen for FROZEN_S in the
    middle of the game, far longer than `gone_s`: it loses nothing, since only the clock
    decides (FROZEN_S + 120 s a decision here, so that a loaded machine does not run it out),
    and once thawed it finishes the game."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    short = {"turn_limit": 45}  # F24: the keys and the freeze are the same in a short game
    move_s = FROZEN_S + 120
    with human_game(
        "flowers", 2, tmp_path, seat=1, seed=3, gone_s=1, move_s=move_s, config=short
    ) as running:
        browser.get(running.url)
        chooser, made = random.Random(7), 0
        for request in decisions(browser):
            if made == 3:
                browser.execute_script(COUNT_REQUESTS)
                until(lambda: browser.execute_script("return window.asked.length") > 0, 30)
                browser.execute_cdp_cmd("Page.setWebLifecycleState", {"state": "frozen"})
                time.sleep(FROZEN_S)  # the behaviour under test: a minute away
                status, now = running.call("/api/state")
                assert status == 200 and now["asked"]["request"] == int(request), now
                assert now["asked"]["ms_left"] < (move_s - FROZEN_S) * 1000  # the clock ran
                browser.execute_cdp_cmd("Page.setWebLifecycleState", {"state": "active"})
                until(lambda: browser.execute_script("return window.asked.length") > 1)
                assert browser.execute_script(LONGEST_SILENCE) >= FROZEN_S - 1  # it was silent
            moves = len(browser.find_elements("css selector", "#legal li"))
            focused = browser.switch_to.active_element
            assert focused.tag_name == "li", focused.tag_name  # the list has the focus
            keys = ActionChains(browser)
            for _ in range(chooser.randrange(moves)):
                keys.send_keys(Keys.ARROW_DOWN)
            keys.send_keys(Keys.ENTER).perform()
            made += 1
        assert running.call("/api/done", {})[0] == 200
        report, _ = running.finished(60)
    assert report.decisions[1] == made > 5
    assert report.outcome.termination.value in ("normal", "turn_limit")
