"""Issues 36 and 43 in a real browser: a whole game of each game (Mandala, Flowers, Takenoko
with Chibis) played on the board alone (its cards, Mandalas, tiles, hexes, buttons and the
prompt's Confirm or choices, never the list) against a bot that moves only once the board
shows the move before it, every move checked on the board; the end screen, its replay in a
tab of its own and Done; the your-turn signal and its sound; a closed page that comes back,
and Resign; a visitor without the key. The keyboard game with a frozen tab is in
test_human_browser_frozen.py (its 60 s run beside these).

The games leave screenshots in results/screenshots/ (human-GAME-*.png); `make screenshots`
copies the docs' ones to docs/.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.players.limits import Limits
from tests.browser_support import chromium, click, needs_chromium, screenshot, until
from tests.human_support import RunningGame, human_game
from tests.seat_page_support import NOW, Pace, decisions, paced_bot

pytestmark = needs_chromium

FIND = """
const legal = document.getElementById("legal");
if (!legal || legal.getAttribute("data-request") !== arguments[1]
    || document.body.getAttribute("data-sent") === arguments[1]) return null;
return document.querySelector(`#board .clickable[data-target="${CSS.escape(arguments[0])}"]`);
"""
"""The board's element for target arguments[0] while request arguments[1] is asked, else null."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


REACHABLE = """
const clickable = new Set([...document.querySelectorAll("#board .clickable")].map((n) => n.getAttribute("data-target")));
return [...document.querySelectorAll("#legal li")].map((li) => {
  const targets = (li.getAttribute("data-targets") || "").split(" ").filter((t) => t);
  return targets.length && targets.every((t) => clickable.has(t)) ? targets : null;
});
"""


def _choose_on_the_board(browser: Any, request: str, chooser: random.Random) -> bool:
    """Choose a random move the board can reach, by its clicks and the prompt's Confirm or
    choice button (never the list); False when no move of this decision is on the board."""
    from selenium.webdriver.common.by import By

    reachable = browser.execute_script(REACHABLE)
    choices = [i for i, targets in enumerate(reachable) if targets]
    if not choices:
        return False
    index = chooser.choice(choices)
    for target in reachable[index]:
        found = browser.execute_script(FIND, target, request)
        if not found:
            return True  # the state moved on under the clicks: the caller looks again
        found.click()
    prompt = browser.find_element(By.ID, "prompt")
    confirm = prompt.find_elements(By.CSS_SELECTOR, "button.confirm")
    pick = prompt.find_elements(By.CSS_SELECTOR, f'button.choice[data-move="{index}"]')
    assert confirm or pick, prompt.text  # one move left waits for Confirm; several are buttons
    (confirm or pick)[0].click()
    return True


SHORTER = {
    "mandala": {"turn_limit": 30},  # R12
    "flowers": {"turn_limit": 45},  # F24
    "takenoko": {"chibis": True, "max_rounds": 8},  # T14: the decision kinds come early
}
"""Each game cut short by its own turn limit: the clicking, its end and its replay are the
same in a short game, and a whole one takes minutes of clicking on a busy machine
(random players seldom meet Takenoko's objectives: 100 rounds)."""

PATIENT = Limits(move_ms=60_000)
"""The bots' limits: a minute a move (a paced bot waits for the page, on a loaded machine)."""

MARKED = {
    "mandala": lambda move: move["action"] == "build_mountain",  # the Mountain built on
    "flowers": lambda move: move["action"] == "play",  # the Mandala played on
    "takenoko": lambda move: isinstance(move.get("to"), list),  # the hex placed or moved to
}
"""Which moves of a bot the board marks (orange) where they were made."""


def _check_every_move_shown(pace: Pace, record: dict[str, Any], human: int) -> int:
    """Each move of the record was shown on the board as the last move, its words the
    narration's, a bot's marked on the board where it was made: the bot moves checked."""
    game, checked = record["game"], 0
    for number, made in enumerate(record["moves"], 1):
        assert number in pace.shown, f"move {number} of {len(record['moves'])} was never shown"
        line, last, marked = pace.shown[number]
        if made["seat"] == human:
            assert line.split(", ")[1] == "you", line
            continue
        mover, rest = line.split(", ", 1)[1].split(", ", 1)
        assert last == f"Last move: {mover}, {rest.split(': ', 1)[1]}", (last, line)
        assert marked or not MARKED[game](made["move"]), (number, made, last)
        checked += 1
    return checked


@pytest.mark.parametrize(("game", "seats", "seat"), [("mandala", 2, 0), ("flowers", 3, 1),
                                                     ("takenoko", 3, 0)])  # fmt: skip
def test_a_whole_game_on_the_board_shows_every_move_of_a_bot_that_waits_for_it(
    browser: Any, game: str, seats: int, seat: int, tmp_path: Path
) -> None:
    """Issue 43's done means: every decision made on the board (Takenoko with Chibis: each
    kind of decision it meets, four at least), every bot move shown on the board as it is
    made; then the end screen says who won, the replay
    opens in a tab of its own, the end screen is still there, and Done ends the game's server."""
    from selenium.webdriver.common.by import By

    bot, pace = paced_bot(tmp_path, "--random", "5")
    with human_game(game, seats, tmp_path, seat=seat, seed=8, bot=bot, config=SHORTER[game],
                    limits=PATIENT) as running:  # fmt: skip
        browser.get(running.url)
        assert "#key=" not in browser.current_url  # the key leaves the address bar
        chooser, kinds, shot = random.Random(2), Counter[str](), False
        name = "human-" + game + ("-chibis" if SHORTER[game].get("chibis") else "")
        for request in decisions(browser, pace):
            kind = browser.execute_script(KIND).split(" ")[1]
            made = sum(kinds.values())
            if not shot and made >= 8 and (game != "takenoko" or browser.execute_script(NOW)[4]):
                shot = bool(screenshot(browser, f"{name}-playing"))  # a plot to place, in Takenoko
            assert _choose_on_the_board(browser, request, chooser), (
                f"a {kind} move only in the list"
            )
            kinds[kind] += 1
        assert shot, "no mid-game screenshot"
        until(lambda: browser.find_elements(By.ID, "done"), 60)
        screenshot(browser, f"{name}-over")
        verdict = browser.find_element(By.CSS_SELECTOR, "#asked h2").text
        assert verdict.startswith(("Game over: you won", "Game over: you lost; ",
                                   "Game over: you share first place")), verdict  # fmt: skip
        _open_the_replay_and_come_back(browser, running, name)
        browser.find_element(By.ID, "done").click()
        until(lambda: "Done: `arena play` has ended" in browser.find_element(By.ID, "status").text)
        report, path = running.finished(60)
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert not [e for e in errors if "/api/move" not in e["message"]], errors  # CSP, scripts
    record = json.loads(path.read_text())
    assert record["players"][seat] == "human:ann"
    assert record["outcome"]["termination"] in ("normal", "turn_limit")
    assert report.decisions[seat] == sum(kinds.values()) > 5
    assert _check_every_move_shown(pace, record, seat) > 5
    made = {m["kind"] for m in record["moves"] if m["seat"] == seat}
    assert set(kinds) == made, (kinds, made)
    if game == "takenoko":
        assert len(made) >= 4, made


def _open_the_replay_and_come_back(browser: Any, running: RunningGame, name: str) -> None:
    """The end screen's link opens the replay in a tab of its own; the end screen stays,
    its server too (issue 43: the replay no longer ends `arena play`)."""
    from selenium.webdriver.common.by import By

    page = browser.current_window_handle
    browser.find_element(By.ID, "replay-link").click()
    until(lambda: len(browser.window_handles) == 2, 30)
    browser.switch_to.window(next(h for h in browser.window_handles if h != page))
    until(lambda: browser.find_elements(By.ID, "replay-data"), 60)
    screenshot(browser, f"{name}-replay")
    browser.close()
    browser.switch_to.window(page)
    assert running.call("/api/state")[1]["over"]  # still served
    assert browser.find_element(By.ID, "replay-link").is_displayed()


KIND = 'const h = document.querySelector("#asked h2"); return h ? h.textContent : "";'


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
        click(lambda: browser.find_element(By.ID, "done"), 60)
        report, path = running.finished(60)
    assert report.outcome.faulty_seat == 0 and report.outcome.termination.value == "crash"
    assert "the human resigned" in report.outcome.reason
    assert json.loads(path.read_text())["outcome"]["reason"] == report.outcome.reason


SIGNAL = """return [document.title, document.body.classList.contains("your-turn"),
  document.body.getAttribute("data-sound"), document.body.getAttribute("data-beeps"),
  localStorage.getItem("arena-seat-sound"), document.getElementById("sound").textContent];"""
"""The your-turn signal as the page shows it: the title, the green header, the sound (on,
off, locked until the first click), the beeps played, the sound kept, the button's words."""


def test_the_your_turn_signal_and_its_sound(browser: Any, tmp_path: Path) -> None:
    """The title and the header say the turn has come; a beep too, made by the page, only
    after the player's first click (browsers' rule), not when muted; the mute is kept by the
    browser. (The beeps are counted by the page: the test hears nothing.)"""
    from selenium.webdriver.common.by import By

    bot, pace = paced_bot(tmp_path)  # it plays its first legal move
    with human_game("mandala", 2, tmp_path, seat=1, gone_s=1, bot=bot, limits=PATIENT) as running:
        browser.get(running.url)
        browser.execute_script('localStorage.removeItem("arena-seat-sound")')
        browser.refresh()  # the sound as a new player finds it
        title, turn, sound, beeps, _, words = until(lambda: browser.execute_script(SIGNAL))
        assert (turn, sound, beeps, words) == (
            False,
            "locked",
            None,
            "Sound: on at your first click",
        )
        assert not title.startswith("(Your move)")  # the bot plays first, and waits
        browser.find_element(By.ID, "sound").click()  # the first click: the player mutes
        assert browser.execute_script(SIGNAL)[2:] == ["off", None, "off", "Sound: off"]
        requests = decisions(browser, pace)
        first = next(requests)  # the bot's move is let through: the turn has come, silently
        title, turn, sound, beeps, _, _ = browser.execute_script(SIGNAL)
        assert title.startswith("(Your move) ") and turn and (sound, beeps) == ("off", None)
        assert browser.find_element(By.ID, "status").text.startswith("Your turn has come")
        browser.refresh()  # the mute is kept; a reloaded page is locked again until a click
        until(lambda: browser.execute_script(SIGNAL)[1])
        assert browser.execute_script(SIGNAL)[2:5] == ["off", None, "off"]
        browser.find_element(By.ID, "sound").click()
        assert browser.execute_script(SIGNAL)[2:5] == ["on", None, "on"]
        browser.find_elements(By.CSS_SELECTOR, "#legal li")[0].click()  # a move, then the bot's
        second = next(requests)
        assert second != first
        title, turn, sound, beeps, _, _ = browser.execute_script(SIGNAL)
        assert title.startswith("(Your move) ") and turn and (sound, beeps) == ("on", "1")
        assert running.call("/api/resign", {})[0] == 200
        click(lambda: browser.find_element(By.ID, "done"), 60)
        running.finished(60)


def test_a_visitor_without_the_key_is_told_whose_page_it_is(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    with human_game("mandala", 2, tmp_path, seat=0, gone_s=1) as running:
        browser.get(running.base + "/")  # the address without its #key, in a new origin
        until(lambda: "A game in progress" in browser.find_element(By.ID, "asked").text, 30)
        assert "only they see its board" in browser.find_element(By.ID, "status").text
        assert not browser.find_elements(By.CSS_SELECTOR, "#board *")  # nothing of the seat
        until(lambda: running.call("/api/state")[1]["asked"])  # the player's own page, then
        assert running.call("/api/resign", {})[0] == 200
        running.finished(60)
