"""Issue 36 in a real browser: a whole game of each game against `random`, played by clicking
only (the board's cards, Mandalas, tiles and hexes where a move can be chosen there, the
list otherwise), to its end and its replay; and a closed page that loses the game.

Each game leaves screenshots in results/screenshots/ (human-GAME-*.png).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_support import SCREENSHOTS, chromium, needs_chromium, until
from tests.human_support import human_game

pytestmark = needs_chromium

NOW = """
const legal = document.getElementById("legal");
if (legal) return ["asked", legal.getAttribute("data-request"), document.body.getAttribute("data-sent")];
if (document.getElementById("replay-link")) return ["over"];
return null;
"""

FIND = """
return [...document.querySelectorAll("#board .clickable")]
  .filter((node) => node.getAttribute("data-target") === arguments[0]);
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


def _asked(browser: Any, request: str) -> bool:
    now = browser.execute_script(NOW)
    return bool(now) and now[0] == "asked" and now[1] == request and now[2] != request


def _click_board(browser: Any, targets: list[str], request: str, kinds: Counter[str]) -> int:
    """Click the move's targets on the board while its decision is still asked (`kinds`
    counts the kinds clicked: hand, mountain, hex, edge, action...)."""
    from selenium.common.exceptions import WebDriverException

    clicks = 0
    for target in targets:
        found = browser.execute_script(FIND, target)
        if not found or not _asked(browser, request):
            break
        try:
            found[0].click()
            clicks += 1
            kinds[target.split(":")[0]] += 1
        except WebDriverException:  # covered by another element: the list is there
            break
    return clicks


def _play_by_clicking(browser: Any, game: str, seed: int, kinds: Counter[str]) -> dict[str, int]:
    from selenium.webdriver.common.by import By

    chooser, counts = random.Random(seed), {"decisions": 0, "board": 0, "list": 0, "shot": 0}
    while True:
        now = until(lambda: browser.execute_script(NOW), 60)
        if now[0] == "over":
            return counts
        request = now[1]
        if now[2] == request:  # sent; the next state has not come yet
            until(
                lambda r=request, n=now: not _asked(browser, r) and browser.execute_script(NOW) != n
            )
            continue
        items = browser.find_elements(By.CSS_SELECTOR, "#legal li")
        if not counts["shot"] and (
            browser.find_elements(By.CSS_SELECTOR, "#board .spot")  # Takenoko: a plot to place
            or (game != "takenoko" and counts["decisions"] == 6)
        ):
            browser.save_screenshot(str(SCREENSHOTS / f"human-{game}-playing.png"))
            counts["shot"] = 1
        choice = chooser.randrange(len(items))
        targets = (items[choice].get_attribute("data-targets") or "").split()
        counts["board"] += _click_board(browser, targets, request, kinds)
        if _asked(browser, request):
            browser.find_elements(By.CSS_SELECTOR, "#legal li")[choice].click()
            counts["list"] += 1
        counts["decisions"] += 1
        until(lambda n=now: browser.execute_script(NOW) != n, 60)


@pytest.mark.parametrize(("game", "seats"), [("mandala", 2), ("flowers", 3), ("takenoko", 3)])
def test_a_whole_game_by_clicking_only(browser: Any, game: str, seats: int, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with human_game(game, seats, tmp_path, seat=1, seed=21) as running:
        browser.get(running.url)
        assert "#key=" not in browser.current_url  # the key leaves the address bar
        kinds: Counter[str] = Counter()
        counts = _play_by_clicking(browser, game, seed=4, kinds=kinds)
        browser.save_screenshot(str(SCREENSHOTS / f"human-{game}-over.png"))
        assert "Game over" in browser.find_element(By.ID, "asked").text
        browser.find_element(By.ID, "replay-link").click()
        until(lambda: browser.find_elements(By.ID, "replay-data"), 30)
        browser.save_screenshot(str(SCREENSHOTS / f"human-{game}-replay.png"))
        report, path = running.finished(60)
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert not [e for e in errors if "/api/move" not in e["message"]], errors  # CSP, scripts
    record = json.loads(path.read_text())
    assert record["players"][1] == "human:ann"
    assert record["outcome"]["termination"] in ("normal", "turn_limit")
    assert report.decisions[1] == counts["decisions"] > 0
    assert counts["board"] > 0  # moves were chosen on the board, not only in the list
    board = {"mandala": {"hand", "mountain"}, "flowers": {"hand", "mandala"},
             "takenoko": {"hex", "action", "plot"}}[game]  # fmt: skip
    assert board <= set(kinds), kinds


def test_a_closed_page_opened_again_rejoins_and_resigns(browser: Any, tmp_path: Path) -> None:
    """Only the clock decides (issue 43): a page closed for longer than `gone_s` and opened
    again at its address finds its decision; Resign (clicked twice) gives the game up."""
    from selenium.webdriver.common.by import By

    with human_game("takenoko", 2, tmp_path, seat=0, gone_s=1, move_s=60) as running:
        browser.get(running.url)
        first = until(lambda: browser.execute_script(NOW), 60)
        browser.get("about:blank")  # the human closes the page
        until(lambda: running.call("/api/state")[1]["asked"], 30)  # still asked, not lost
        browser.get(running.base + "/")  # the same tab again: its key is kept by the browser
        assert until(lambda: browser.execute_script(NOW), 60)[:2] == first[:2]
        resign = browser.find_element(By.ID, "resign")
        resign.click()
        until(lambda: "again within 5 seconds" in browser.find_element(By.ID, "status").text)
        resign.click()
        report, path = running.finished(60)
    assert report.outcome.faulty_seat == 0 and report.outcome.termination.value == "crash"
    assert "the human resigned" in report.outcome.reason
    assert json.loads(path.read_text())["outcome"]["reason"] == report.outcome.reason
