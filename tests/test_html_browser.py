"""Issue 13 in a real browser: the report and the replays, opened headless in Debian's
chromium through Selenium and chromium-driver (installed by the Makefile, like bubblewrap).

Each test leaves a screenshot in results/screenshots/ to look at.
"""

from __future__ import annotations

import csv
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli.main import main
from arena.game_sources import get_game
from arena.games.takenoko.state import TakenokoState
from arena.html.replay_page import replay_html
from tests.browser_support import SCREENSHOTS, chromium, needs_chromium
from tests.tournament_support import make_bots

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as driver:
        yield driver


def _open(browser: Any, path: Path, fragment: str = "") -> None:
    browser.get(path.resolve().as_uri() + fragment)
    browser.get_log("browser")  # what an earlier page logged is not this page's


def _errors(browser: Any) -> list[str]:
    return [entry["message"] for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]


def _shot(browser: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small real tournament: three fake bots, one of them crashing once."""
    root = tmp_path_factory.mktemp("html")
    bots = make_bots(
        root / "bots",
        {"alpha": ["--strategy", "seeded"], "beta": ["--strategy", "first"],
         "crashy": ["--strategy", "last", "--crash-at", "5"]},
    )  # fmt: skip
    out = root / "run"
    result = CliRunner().invoke(
        main,
        ["run", "--bots", str(bots), "--rounds", "2", "--seed", "3", "--workers", "2",
         "--out", str(out)],
        catch_exceptions=False,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert f"Report: {out / 'report.html'}" in result.output
    return out


def test_the_report_shows_the_leaderboard_of_ratings_csv(browser: Any, run_dir: Path) -> None:
    from selenium.webdriver.common.by import By

    _open(browser, run_dir / "report.html")
    assert _errors(browser) == []
    rows = browser.find_elements(By.CSS_SELECTOR, "#leaderboard-table tbody tr")
    with (run_dir / "ratings.csv").open() as file:
        ratings = list(csv.DictReader(file))
    assert [row.get_attribute("data-bot") for row in rows] == [r["bot"] for r in ratings]
    for row, rating in zip(rows, ratings, strict=True):
        cells = row.find_elements(By.TAG_NAME, "td")
        assert cells[2].text == f"{float(rating['mu']):.2f}"
    _shot(browser, "report")
    # Sorting: a click on "games" then on "bot" orders the rows by name.
    header = browser.find_element(By.XPATH, "//table[@id='leaderboard-table']//th[text()='bot']")
    header.click()
    names = [row.get_attribute("data-bot") for row in rows[0].find_elements(By.XPATH, "../tr")]
    assert names == sorted(names)
    header.click()
    names = [row.get_attribute("data-bot") for row in rows[0].find_elements(By.XPATH, "../tr")]
    assert names == sorted(names, reverse=True)
    # The failure is listed, and its game links to a replay that exists.
    failed = browser.find_elements(By.CSS_SELECTOR, "table.failed tbody a")
    assert failed and all("crashy" in link.find_element(By.XPATH, "../..").text for link in failed)
    target = run_dir / failed[0].get_attribute("href").split("/run/", 1)[1]
    assert target.is_file()
    assert len((run_dir / "report.html").read_bytes()) < 2_000_000


def test_a_replay_steps_through_the_game_and_hides_what_a_seat_could_not_see(
    browser: Any, run_dir: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    page = next((run_dir / "replays").glob("*.html"))
    _open(browser, page)
    counter = browser.find_element(By.ID, "counter")
    total = int(counter.text.split("/")[1])
    assert counter.text == f"Move 1 / {total}"
    board = browser.find_element(By.ID, "board").get_attribute("innerHTML")
    browser.find_element(By.ID, "next").click()
    assert counter.text == f"Move 2 / {total}"
    assert browser.find_element(By.ID, "board").get_attribute("innerHTML") != board
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    assert counter.text == f"Move 3 / {total}"
    browser.find_element(By.ID, "last").click()
    assert counter.text.startswith("End")
    browser.find_element(By.ID, "first").click()

    def cards_in_hand(seat: int) -> int:
        selector = f'.player[data-seat="{seat}"] .hand .card'
        return len(browser.find_elements(By.CSS_SELECTOR, selector))

    assert cards_in_hand(0) > 0 and cards_in_hand(1) > 0  # the spectator sees both hands
    Select(browser.find_element(By.ID, "seat")).select_by_value("0")
    assert cards_in_hand(0) > 0 and cards_in_hand(1) == 0
    assert browser.find_elements(By.CSS_SELECTOR, '.player[data-seat="1"] .hidden-hand')
    info = browser.find_element(By.ID, "info").text
    assert "legal moves" in info and "Chose:" in info
    assert _errors(browser) == []
    _shot(browser, "replay-mandala")


def _flowers_record(players: list[str], seed: int, comment: str = "") -> dict[str, Any]:
    """A record of a random 3-seat Flowers game played in-process."""
    state = get_game("flowers").new_state(seed, num_players=len(players))
    rng = random.Random(seed)
    moves = []
    while (decision := state.decision()) is not None:
        action = rng.choice(state.legal_actions())
        moves.append(
            {"seat": decision.seat, "kind": decision.kind, "move": state.action_to_move(action),
             "think_ms": 0.5, "comment": comment, "stderr": comment}
        )  # fmt: skip
        state.apply_action(action)
    return {
        "record_version": 1, "game": "flowers", "config": {}, "seed": seed,
        "game_id": f"flowers-{seed}", "players": players, "moves": moves,
        "outcome": state.outcome().to_json(),
    }  # fmt: skip


def test_a_flowers_replay_draws_three_mandalas(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    page = tmp_path / "flowers.html"
    page.write_text(replay_html(_flowers_record(["ann", "bob", "cid"], 4, "a comment")))
    _open(browser, page, "#move=30")
    assert browser.find_element(By.ID, "counter").text.startswith("Move 30 /")
    assert len(browser.find_elements(By.CSS_SELECTOR, ".mandala")) == 3
    assert browser.find_elements(By.CSS_SELECTOR, ".mandala .tile")
    hands = [len(browser.find_elements(By.CSS_SELECTOR, f'.player[data-seat="{s}"] .hand .card'))
             for s in range(3)]  # fmt: skip
    assert all(hands)
    Select(browser.find_element(By.ID, "seat")).select_by_value("2")
    hidden = [len(browser.find_elements(By.CSS_SELECTOR, f'.player[data-seat="{s}"] .hand .card'))
              for s in range(3)]  # fmt: skip
    assert hidden[0] == hidden[1] == 0 and hidden[2] > 0
    assert "Comment: a comment" in browser.find_element(By.ID, "info").text
    assert _errors(browser) == []
    _shot(browser, "replay-flowers")


def test_a_hostile_name_or_comment_cannot_break_or_script_the_page(
    browser: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By

    names = ["</script><script>window.pwned=1</script>", "<img src=x onerror=window.pwned=2>",
             "a&amp;b"]  # fmt: skip
    record = _flowers_record(names, 5, "</script><script>window.pwned=3</script>")
    page = tmp_path / "hostile.html"
    page.write_text(replay_html(record))
    _open(browser, page)
    assert browser.execute_script("return window.pwned === undefined")
    assert browser.find_element(By.TAG_NAME, "h1").text.endswith(" vs ".join(names))
    browser.find_element(By.ID, "next").click()
    assert browser.find_element(By.ID, "counter").text.startswith("Move 2 /")
    info = browser.find_element(By.ID, "info").text
    assert "</script><script>window.pwned=3</script>" in info
    assert names[0] in browser.find_element(By.ID, "board").text
    assert browser.execute_script("return window.pwned === undefined")
    assert _errors(browser) == []
    _shot(browser, "replay-hostile")
    embedded = page.read_text()
    assert "</script><script>window.pwned" not in embedded.split('id="replay-data">', 1)[1][:20000]
    assert (
        json.loads(
            browser.execute_script("return document.getElementById('replay-data').textContent")
        )["players"]
        == names
    )


def test_a_game_without_a_drawing_is_shown_as_a_tree(browser: Any, tmp_path: Path) -> None:
    """The viewer's generic fallback: the tests' own highcard game has no board drawing."""
    from selenium.webdriver.common.by import By

    state = get_game("highcard").new_state(2, num_players=3)
    moves = []
    while (decision := state.decision()) is not None:
        action = state.legal_actions()[0]
        moves.append({"seat": decision.seat, "kind": decision.kind,
                      "move": state.action_to_move(action), "think_ms": 1.0})  # fmt: skip
        state.apply_action(action)
    record = {"record_version": 1, "game": "highcard", "config": {}, "seed": 2, "game_id": "h1",
              "players": ["x", "y", "z"], "moves": moves,
              "outcome": state.outcome().to_json()}  # fmt: skip
    page = tmp_path / "highcard.html"
    page.write_text(replay_html(record))
    _open(browser, page)
    assert browser.find_elements(By.CSS_SELECTOR, "#board details.tree")
    assert "hands" in browser.find_element(By.ID, "board").text
    browser.find_element(By.ID, "next").click()
    assert browser.find_element(By.ID, "counter").text == f"Move 2 / {len(moves)}"
    assert _errors(browser) == []
    _shot(browser, "replay-generic")


@pytest.mark.parametrize("config", [{}, {"chibis": True}])
def test_a_takenoko_replay_draws_the_hex_board(
    browser: Any, tmp_path: Path, config: dict[str, Any]
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    state = get_game("takenoko").new_state(3, config, num_players=3)
    assert isinstance(state, TakenokoState)
    rng = random.Random(3)
    moves = []
    while (decision := state.decision()) is not None and len(moves) < 300:
        move = rng.choice(state.legal_moves())
        moves.append({"seat": decision.seat, "kind": decision.kind, "move": move})
        state.apply_move(move)
    record = {"record_version": 1, "game": "takenoko", "config": config, "seed": 3, "game_id": "t1",
              "players": ["ann", "bob", "cid"], "moves": moves,
              "outcome": {"scores": [0, 0, 0], "ranks": [0, 0, 0], "termination": "normal",
                          "end": None, "reason": "cut short for the test"}}  # fmt: skip
    page = tmp_path / "takenoko.html"
    page.write_text(replay_html(record))
    _open(browser, page, f"#move={len(moves) + 1}")  # the position after the last move
    tiles = len(state.board.tiles)
    assert len(browser.find_elements(By.CSS_SELECTOR, "svg.hexes polygon")) == tiles
    figures = 2 if state.board.miss_panda is None else 3  # Miss Panda with Chibis (§8)
    assert len(browser.find_elements(By.CSS_SELECTOR, "svg.hexes circle.figure")) == figures
    kinds = {t.kind for t in state.board.tiles.values()}
    for kind in kinds:
        assert browser.find_elements(By.CSS_SELECTOR, f'svg.hexes polygon[data-kind="{kind}"]')
    Select(browser.find_element(By.ID, "seat")).select_by_value("0")
    hidden = browser.find_elements(By.CSS_SELECTOR, ".player .hidden-hand")
    assert len(hidden) == 2  # the two other hands show only their size
    assert _errors(browser) == []
    _shot(browser, "replay-takenoko" + ("-chibis" if config else ""))


def _takenoko_record(seed: int, config: dict[str, Any], limit: int) -> tuple[Any, dict[str, Any]]:
    """A random 3-seat Takenoko game of at most `limit` moves, and the state it ends in."""
    state = get_game("takenoko").new_state(seed, config, num_players=3)
    assert isinstance(state, TakenokoState)
    rng = random.Random(seed)
    moves = []
    while (decision := state.decision()) is not None and len(moves) < limit:
        move = rng.choice(state.legal_moves())
        moves.append({"seat": decision.seat, "kind": decision.kind, "move": move})
        state.apply_move(move)
    record = {"record_version": 1, "game": "takenoko", "config": config, "seed": seed,
              "game_id": "t2", "players": ["ann", "bob", "cid"], "moves": moves,
              "outcome": {"scores": [0, 0, 0], "ranks": [0, 0, 0], "termination": "normal",
                          "end": None, "reason": "cut short for the test"}}  # fmt: skip
    return state, record


def test_a_takenoko_hexs_tooltip_names_it_as_its_label_does(browser: Any, tmp_path: Path) -> None:
    """A hex's tooltip said "(1, -1)" where its label (and the moves' words) say "1,-1"."""
    from selenium.webdriver.common.by import By

    state, record = _takenoko_record(7, {}, 200)
    page = tmp_path / "takenoko-tooltips.html"
    page.write_text(replay_html(record))
    _open(browser, page, f"#move={len(record['moves']) + 1}")
    hexes = browser.find_elements(By.CSS_SELECTOR, "svg.hexes polygon[data-target^='hex:']")
    assert len(hexes) >= len(state.board.tiles)
    for hex_ in hexes:
        label = hex_.get_attribute("data-target").removeprefix("hex:")
        title = hex_.find_element(By.TAG_NAME, "title").get_attribute("textContent")
        assert title.split()[0] == label and "(" not in title, (label, title)
    assert _errors(browser) == []


def test_a_takenoko_replay_shows_what_cards_mean_and_names_hexes_as_moves_do(
    browser: Any, tmp_path: Path
) -> None:
    """Issue 33, item 2: cards by their meaning (shape, points, met or not), each hex's
    coordinates, improvements in the game's words, the reserve without a stray comma, and a
    number in every stomach box."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    from arena.games.takenoko.card_words import card_table

    state, record = _takenoko_record(7, {}, 200)
    assert any(tile.improvement for tile in state.board.tiles.values())
    assert any(any(n == 1 for n in stomach.values()) for stomach in state.stomachs)
    assert any(state.done[seat] for seat in range(3))
    page = tmp_path / "takenoko-cards.html"
    page.write_text(replay_html(record))
    _open(browser, page, f"#move={len(record['moves']) + 1}")
    table = card_table()
    for seat, hand in enumerate(state.hands):
        box = f'.player[data-seat="{seat}"]'
        for card in hand:
            shown = browser.find_element(By.CSS_SELECTOR, f'{box} .hand [data-card="{card}"]')
            assert table[card]["text"] in shown.text
            assert f"{table[card]['points']} pts" in shown.text
            assert shown.find_elements(By.CSS_SELECTOR, "svg.card-shape polygon, svg circle")
            assert ("not met" not in shown.text) == state.met(card, seat), (card, shown.text)
        for card in state.done[seat]:
            shown = browser.find_element(By.CSS_SELECTOR, f'{box} [data-card="{card}"]')
            assert table[card]["text"] in shown.text
        stomach = browser.find_elements(By.XPATH, f"//*[@data-seat='{seat}']//div[span='stomach']"
                                        "//span[contains(@class, 'card')]")  # fmt: skip
        assert [int(c.text) for c in stomach] == [n for n in state.stomachs[seat].values() if n]
        reserve = browser.find_element(By.CSS_SELECTOR, f"{box} .reserve").text
        assert not reserve.rstrip().endswith(",") and "channel" in reserve
    shape = table["PL13"]["cells"]  # a duo: two cells of each colour
    assert sorted(colour for _, _, colour in shape) == ["G", "G", "Y", "Y"]
    coordinates = [t.text for t in browser.find_elements(By.CSS_SELECTOR, "svg.hexes .coordinates")]
    assert sorted(coordinates) == sorted(f"{q},{r}" for q, r in state.board.tiles)
    words = [t.text for t in browser.find_elements(By.CSS_SELECTOR, "svg.hexes .improvement")]
    improved = [tile.improvement for tile in state.board.tiles.values() if tile.improvement]
    assert sorted(words) == sorted(improved)
    assert set(words) <= {"watershed", "fertilizer", "enclosure"}
    _shot(browser, "replay-takenoko-cards")
    _open(browser, page, "#move=72")  # seat 1 has eaten what PA06 and PA07 ask for
    browser.refresh()  # a new fragment alone does not load the page again
    for card in ("PA06", "PA07"):
        selector = f'.player[data-seat="1"] .met[data-card="{card}"]'
        shown = browser.find_element(By.CSS_SELECTOR, selector)
        assert "met" in shown.text and "not met" not in shown.text
    Select(browser.find_element(By.ID, "seat")).select_by_value("1")
    mine = browser.find_elements(By.CSS_SELECTOR, '.player[data-seat="1"] .hand [data-card]')
    assert mine and all("met" in card.text for card in mine)
    assert not browser.find_elements(By.CSS_SELECTOR, '.player[data-seat="0"] .hand [data-card]')
    assert _errors(browser) == []
    _shot(browser, "replay-takenoko-cards-seat-1")
