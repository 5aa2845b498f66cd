"""Issue 36: a human seat, played through its page's API (the browser's own tests are in
test_human_browser.py): whole games at every table size, the page's data is exactly the
seat's view (never a hidden card), a closed page or a run-out clock loses with a recorded
reason, bad requests get one sentence, and the command itself."""

from __future__ import annotations

import json
import random
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena import protocol
from arena.cli.main import main
from arena.game_sources import get_game
from arena.html.replay_page import replay_data
from arena.human.narration import move_words
from arena.human.seat import asked_of
from arena.human.server import MAX_CONNECTIONS, MOVE_REFUSAL
from arena.players.limits import Limits
from arena.record import start, walk
from tests.human_support import RunningGame, human_game
from tests.referee_support import fake_bot
from tests.waiting import until

TABLES = [("mandala", 2), ("flowers", 2), ("flowers", 3), ("flowers", 4),
          ("takenoko", 2), ("takenoko", 3), ("takenoko", 4)]  # fmt: skip
SNAPSHOT_KEYS = {"game", "players", "seat", "clock_ms", "view", "last", "told", "narration",
                 "lines", "over", "asked"}  # fmt: skip
SPECTATOR_ONLY = ("hands", "cups", "deck", "met_cards")
"""The keys of a spectator's view (every hand, the deck's order) that no seat's view has."""


def play_randomly(running: RunningGame, seed: int = 1) -> list[dict[str, Any]]:
    """Answer every decision with a random legal move; every snapshot the page was sent."""
    chooser, seen = random.Random(seed), []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        status, snapshot = running.call("/api/state")
        assert status == 200, snapshot
        seen.append(snapshot)
        if snapshot["over"]:
            return seen
        asked = snapshot["asked"]
        if asked is None:
            time.sleep(0.01)
            continue
        move = {"request": asked["request"], "move": chooser.randrange(len(asked["legal"]))}
        status, answer = running.call("/api/move", move)
        assert status == 200, answer
    raise AssertionError("the game did not end in time")


def open_replay(running: RunningGame) -> None:
    """Open the whole game's replay, as the end screen's link does (it ends nothing)."""
    until(lambda: running.call("/api/state")[1].get("replay"))
    # made once asked: a whole game's page, seconds of work on a loaded machine
    with urllib.request.urlopen(running.base + "/replay", timeout=120) as page:
        assert b'id="replay-data"' in page.read()


def open_replay_then_done(running: RunningGame) -> None:
    """Open the replay, then click the end screen's Done: the game's server ends."""
    open_replay(running)
    assert running.call("/api/done", {}) == (200, {"ok": True})


@pytest.mark.parametrize(("game", "seats"), TABLES)
def test_a_whole_game_at_every_table_size_ends_with_an_ordinary_record(
    game: str, seats: int, tmp_path: Path
) -> None:
    seat = seats - 1  # the human sits last: the seats before it are bots
    with human_game(game, seats, tmp_path, seat=seat) as running:
        snapshots = play_randomly(running)
        final = until(lambda: (s := running.call("/api/state")[1])["replay"] and s)
        assert set(SPECTATOR_ONLY) & set(final["view"])  # over: every hand shown on the board
        open_replay_then_done(running)
        report, path = running.finished()
    record = json.loads(path.read_text())
    assert record["players"][seat] == "human:ann"
    assert record["outcome"]["termination"] in ("normal", "turn_limit")
    assert report.decisions[seat] > 0 and len(record["moves"]) == sum(report.decisions)
    assert replay_data(record)["steps"]  # it replays, like any record
    assert path.with_suffix(".html").read_text().startswith("<!DOCTYPE html>")
    told = snapshots[-1]["narration"]
    assert any(line.startswith("Turn ") and ", you, " in line for line in told)
    assert any("seat 0 (random" in line for line in told)


@pytest.mark.parametrize(("game", "seats"), [("mandala", 2), ("flowers", 3), ("takenoko", 4)])
def test_the_page_never_receives_a_hidden_card(game: str, seats: int, tmp_path: Path) -> None:
    """Every snapshot's view and legal moves are those the referee sent the seat (R14, F27:
    the view a bot gets), nothing spectator-only is in it, no card of another seat's hand
    is named anywhere in it (Takenoko: no id of another hand, even in the narration), and
    the whole replay is served only once the game is over."""
    seat = 1
    with human_game(game, seats, tmp_path, seat=seat, seed=11) as running:
        status, _ = running.call("/replay")
        assert status == 404
        snapshots = play_randomly(running, seed=3)
        open_replay_then_done(running)
        _, path = running.finished()
    record = json.loads(path.read_text())
    state = start(record)
    positions, views = {}, set()
    for step in walk(record, state):
        position = step.state
        hands = getattr(position, "hands", None)
        others = (
            [] if game != "takenoko" else [c for s, h in enumerate(hands) if s != seat for c in h]
        )
        views.add(json.dumps(position.view(seat)))  # the board follows every seat's move
        positions[step.number] = (position.view(seat) if step.decision.seat == seat else None,
                                  position.legal_moves(), others)  # fmt: skip
    views.add(json.dumps(state.view(seat)))  # after the last move
    assert any(snapshot["asked"] for snapshot in snapshots)
    assert any(s["last"] and s["last"]["seat"] != seat for s in snapshots)  # a bot's, shown
    for snapshot in snapshots:
        assert set(snapshot) - {"outcome", "replay"} == SNAPSHOT_KEYS
        if snapshot["over"]:
            continue
        text = json.dumps(snapshot)
        assert snapshot["view"] is None or json.dumps(snapshot["view"]) in views
        assert not set(SPECTATOR_ONLY) & set(snapshot["view"] or {})
        if snapshot["asked"]:
            view, legal, others = positions[snapshot["asked"]["request"]]
            assert snapshot["asked"]["view"] == view
            assert [entry["move"] for entry in snapshot["asked"]["legal"]] == legal
            for card in others:
                assert not re.search(rf"\b{card}\b", text), card


@pytest.mark.parametrize(("game", "seats"), [("mandala", 2), ("flowers", 3), ("takenoko", 4)])
def test_positions_differing_only_in_hidden_cards_give_the_page_the_same_data(
    game: str, seats: int
) -> None:
    """As the views are tested (R14, F27): a position and another dealt again where the
    deciding seat cannot see (its determinization) give the page the same decision data."""
    rules = get_game(game)
    config = rules.config({})
    determinizer = rules.determinizer()
    assert determinizer is not None
    codec = protocol.MoveCodec(cached=rules.stable_action_codes)
    words = rules.new_state(0, config, num_players=seats)
    state, chooser, checked = rules.new_state(13, config, num_players=seats), random.Random(5), 0
    while (decision := state.decision()) is not None:
        if chooser.random() < 0.25:
            seat = decision.seat
            other = determinizer.determinize(state.view(seat), chooser, config)
            pages = [
                asked_of(json.loads(protocol.encode_request(
                    position, seat, decision.kind, position.legal_actions(), codec, "g1", 1, 1000, "i"
                )), words)
                for position in (state, other)
            ]  # fmt: skip
            assert pages[0] == pages[1]
            checked += state.spectator_view() != other.spectator_view()  # hidden cards differ
        state.apply_action(chooser.choice(state.legal_actions()))
    assert checked > 5


def test_another_seats_hidden_choice_is_told_without_it() -> None:
    """T9, T15, T19: the plots put back, the card kept from the Cabin, a baby's swapped card
    are named to their mover only."""
    state = get_game("takenoko").new_state(1, get_game("takenoko").config({}), num_players=3)
    keep = {"action": "keep", "card": "PA03"}  # two green sections
    assert "panda objective (two green" in move_words("takenoko", state, keep, 0, 0)
    assert "panda" not in move_words("takenoko", state, keep, 0, 1)
    put_back = {"action": "return", "order": ["PY01", "PG02"]}
    assert "a yellow plot, then a green plot" in move_words("takenoko", state, put_back, 2, 2)
    assert "yellow" not in move_words("takenoko", state, put_back, 2, 1)
    swap = {"action": "baby_swap", "card": "GA01"}  # green bamboo with a fertilizer
    assert "gardener objective" in move_words("takenoko", state, swap, 2, 2)
    assert "gardener" not in move_words("takenoko", state, swap, 2, 0)
    place = {"action": "place", "plot": "PG06", "to": [-1, 0], "chip": None}
    assert "a green plot at -1,0" in move_words("takenoko", state, place, 2, 0)  # public


def test_a_silent_page_keeps_its_seat_until_its_clock_runs_out_then_loses_with_its_reason(
    tmp_path: Path,
) -> None:
    """Only the clock decides (issue 43): a page that stops asking (a closed or frozen tab)
    loses when the decision's clock runs out, the reason saying the page was silent."""
    with human_game("flowers", 3, tmp_path, seat=1, move_s=6, gone_s=1) as running:
        until(lambda: running.call("/api/state")[1]["asked"])  # the human is asked, then leaves
        report, path = running.finished(60)
        with pytest.raises(urllib.error.URLError):  # the seat's server is gone
            urllib.request.urlopen(running.base + "/", timeout=5)
    outcome = report.outcome
    assert outcome.termination.value == "timeout" and outcome.faulty_seat == 1
    assert "the human's clock ran out (its page had not asked for news for" in outcome.reason
    assert outcome.ranks[1] == 2  # the faulty seat is last
    record = json.loads(path.read_text())
    assert record["fault"]["seat"] == 1 and record["unanswered"]["seat"] == 1


def test_a_page_that_comes_back_within_its_clock_plays_on(tmp_path: Path) -> None:
    """A tab frozen or closed for longer than the old 20 s and opened again at its address
    (its key) finds its decision still asked and finishes the game."""
    with human_game("mandala", 2, tmp_path, seat=0, move_s=30, gone_s=1) as running:
        asked = until(lambda: running.call("/api/state")[1]["asked"])
        time.sleep(2.5)  # the page is away: longer than `gone_s`, within the clock
        status, again = running.call("/api/state")
        assert status == 200 and again["asked"]["request"] == asked["request"]
        play_randomly(running)
        open_replay_then_done(running)
        report, _ = running.finished()
    assert report.outcome.termination.value in ("normal", "turn_limit")


def test_the_human_may_resign(tmp_path: Path) -> None:
    with human_game("takenoko", 2, tmp_path, seat=1, move_s=60, gone_s=1) as running:
        until(lambda: running.call("/api/state")[1]["asked"])
        assert running.call("/api/resign", {}) == (200, {"ok": True})
        report, _ = running.finished(30)
    assert report.outcome.faulty_seat == 1 and "the human resigned" in report.outcome.reason


def test_the_board_follows_every_move_and_the_narration_comes_in_parts(tmp_path: Path) -> None:
    """After the human's move the view is the position after it at once (before the next
    decision), and a bot's move shows as the last move; `told=N` sends the lines from N. The
    bot takes 3 s a move, so the human's own move is read before the bot's reply, however
    loaded the machine (a quick bot replied first there)."""
    slow = fake_bot(tmp_path, "slow", "--slow", "3000", "--random", "5")
    patient = Limits(move_ms=20_000)
    with human_game(
        "mandala", 2, tmp_path, seat=0, seed=5, bot=slow, limits=patient, gone_s=1
    ) as running:
        asked = until(lambda: running.call("/api/state")[1]["asked"])
        hand = asked["view"]["hand"]
        move = asked["legal"][0]["move"]
        assert running.call("/api/move", {"request": asked["request"], "move": 0})[0] == 200
        after = until(lambda: (s := running.call("/api/state")[1])["last"] and s)
        assert after["last"]["seat"] == 0 and after["last"]["move"] == move
        assert after["view"]["hand"] != hand or move["action"] == "claim"  # the card left it
        later = until(lambda: (s := running.call("/api/state")[1])["last"]["seat"] == 1 and s)
        assert later["last"]["move"] is not None and later["last"]["text"]
        lines = later["lines"]
        status, part = running.call(f"/api/state?told={lines}")
        assert status == 200 and part["told"] == lines and len(part["narration"]) <= 1
        assert running.call("/api/state?told=99999999999")[0] == 200  # bounded, not an error
        assert running.call("/api/resign", {})[0] == 200
        running.finished(30)


def test_the_clock_running_out_loses_the_game(tmp_path: Path) -> None:
    with human_game("mandala", 2, tmp_path, seat=0, move_s=1.0, gone_s=2) as running:
        until(lambda: running.call("/api/state")[1]["asked"])
        until(lambda: running.call("/api/state")[1]["over"], 30)  # the page is open, idle
        report, _ = running.finished(60)
    assert report.outcome.termination.value == "timeout"
    assert "the human's clock ran out" in report.outcome.reason


def test_a_page_never_opened_loses_before_the_first_move(tmp_path: Path) -> None:
    with human_game("takenoko", 3, tmp_path, seat=2, open_s=1, gone_s=1) as running:
        report, path = running.finished(60)
    assert report.outcome.termination.value == "startup_failure"
    assert report.outcome.faulty_seat == 2 and report.moves == []
    assert (
        "Seat 2 (human:ann) failed to start: its page was not opened in time."
        in (json.loads(path.read_text())["outcome"]["reason"])
    )


def test_bad_requests_get_one_sentence(tmp_path: Path) -> None:
    with human_game("mandala", 2, tmp_path, seat=0, gone_s=3) as running:
        asked = until(lambda: running.call("/api/state")[1]["asked"])
        assert running.call("/api/state", key="wrong")[0] == 403
        assert running.call("/api/move", {"move": 0})[0] == 400
        assert running.call("/api/move", {"request": asked["request"], "move": True})[0] == 400
        status, said = running.call("/api/move", {"request": asked["request"], "move": 999})
        assert status == 400 and said["error"].startswith("There is no move 999")
        status, said = running.call("/api/move", {"request": 0, "move": 0})
        assert status == 400 and "no longer asked" in said["error"]
        assert running.call("/nothing")[0] == 404
        status, said = running.call("/api/done", {})  # Done is for the end screen
        assert status == 409 and said["error"].startswith("The game is not over: Resign")
        big = urllib.request.Request(running.base + "/api/move", data=b"{" * 5000,
                                     headers={"X-Seat-Key": running.key})  # fmt: skip
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(big, timeout=60)
        assert refused.value.code == 400
        rebinding = urllib.request.Request(running.base + "/", headers={"Host": "evil.test"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(rebinding, timeout=60)
        assert refused.value.code == 421
        with urllib.request.urlopen(running.base + "/", timeout=60) as page:
            policy = page.headers["Content-Security-Policy"]
            assert "'unsafe-inline'" not in policy and "script-src 'sha256-" in policy
            assert running.key not in page.read().decode()  # the key stays in the # only
        assert running.call("/api/resign", {})[0] == 200
        running.finished(60)


def test_a_move_nested_too_deeply_gets_its_sentence_not_a_traceback(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """A body of 1,000 `[` (within the 1 KiB a move may have) made json.loads raise
    RecursionError: no answer, and the server's traceback on the human's terminal."""
    with human_game("mandala", 2, tmp_path, seat=0, gone_s=3) as running:
        until(lambda: running.call("/api/state")[1]["asked"])
        deep = urllib.request.Request(running.base + "/api/move", data=b"[" * 1000,
                                      headers={"X-Seat-Key": running.key})  # fmt: skip
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(deep, timeout=60)
        assert refused.value.code == 400
        assert json.loads(refused.value.read()) == {"error": MOVE_REFUSAL}
        assert running.call("/api/resign", {})[0] == 200
        running.finished(60)
    assert "Traceback" not in capfd.readouterr().err


def _closed_by_the_server(connection: socket.socket) -> bool:
    connection.setblocking(False)
    try:
        return connection.recv(1) == b""
    except BlockingIOError:  # open, and nothing said
        return False
    except OSError:  # reset
        return True


def _serving() -> int:
    """The threads of this process serving a connection to a page (socketserver's)."""
    return sum("process_request_thread" in thread.name for thread in threading.enumerate())


def test_connections_past_the_cap_are_closed_and_take_no_thread(tmp_path: Path) -> None:
    """Each connection to the seat's page had a thread, and a visitor that opens many and
    says nothing made threads without bound: past MAX_CONNECTIONS they are closed at once,
    and the page answers again once they are gone."""
    with human_game("mandala", 2, tmp_path, seat=0, gone_s=3) as running:
        until(lambda: running.call("/api/state")[1]["asked"])
        port = int(running.base.rsplit(":", 1)[1])
        held = [
            socket.create_connection(("127.0.0.1", port), timeout=60)
            for _ in range(2 * MAX_CONNECTIONS)
        ]

        def served_once_all_are_seen() -> int | None:
            """The threads serving, once each connection has one or was closed."""
            threads, closed = _serving(), sum(map(_closed_by_the_server, held))
            return threads if threads + closed >= len(held) else None

        try:
            served = until(served_once_all_are_seen, 60, what="every connection served or closed")
            assert served <= MAX_CONNECTIONS
        finally:
            for connection in held:
                connection.close()
        assert until(lambda: running.call("/api/resign", {})[0] == 200, 60, retry=(OSError,))
        running.finished(60)


def test_the_command_prints_the_address_and_the_result(tmp_path: Path) -> None:
    command = [sys.executable, "-c", "from arena.cli.main import main; main()", "play", "human:ann", "random",
               "--game", "mandala", "--no-open", "--seed", "3", "--out", str(tmp_path / "out")]  # fmt: skip
    (tmp_path / "out").mkdir()  # empty: a folder holding files is refused (test_bad_input)
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as process:
        assert process.stdout is not None
        first = process.stdout.readline()
        url = re.search(r"http://127\.0\.0\.1:\d+/#key=\S+", first)
        assert url, first
        running = RunningGame(url=url.group(0))
        play_randomly(running)
        open_replay_then_done(running)
        rest = process.stdout.read()
        assert process.wait(60) == 0
    assert "human:ann" in rest and "record: " in rest
    assert json.loads((tmp_path / "out" / "g0001.json").read_text())["players"][0] == "human:ann"


def test_the_command_prints_the_result_at_once_and_ends_when_the_player_is_done(
    tmp_path: Path,
) -> None:
    """Issue 46, point 6: the result is printed while the page may still open the replay.
    Issue 43: opening the replay ends nothing (the player may come back to the end screen);
    the end screen's Done ends the command (or its silence: see the silent page's test)."""
    command = [sys.executable, "-c", "from arena.cli.main import main; main()", "play", "human",
               "random", "--game", "mandala", "--no-open", "--seed", "5", "--gone-after", "30",
               "--out", str(tmp_path / "out")]  # fmt: skip
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as process:
        assert process.stdout is not None
        url = re.search(r"http://127\.0\.0\.1:\d+/#key=\S+", process.stdout.readline())
        assert url
        running = RunningGame(url=url.group(0))
        play_randomly(running)  # the page is open and asked for news a moment ago
        said = [process.stdout.readline() for _ in range(3)]
        assert process.poll() is None  # the page lingers, and the result is out already
        open_replay(running)
        with pytest.raises(subprocess.TimeoutExpired):  # the replay ended the command before
            process.wait(2)
        status, end = running.call("/api/state")  # the player comes back to the end screen
        assert status == 200 and end["over"] and end["replay"]
        assert running.call("/api/done", {}) == (200, {"ok": True})
        assert process.wait(60) == 0
    assert "human:you" in said[0]
    assert said[1].startswith("record: ") and said[1].rstrip().endswith(".json --html)")
    assert said[2].startswith("The page stays open for the game's replay")


def test_one_human_per_table() -> None:
    result = CliRunner().invoke(
        main, ["play", "human:ann", "human:bob", "random", "--game", "flowers"]
    )
    assert result.exit_code == 2
    assert "One human per table" in result.output


def test_a_humans_name_follows_the_rule_of_names() -> None:
    result = CliRunner().invoke(main, ["play", "human:</b>", "random"])
    assert result.exit_code == 2
    assert "The NAME of human:NAME must be a string of 1 to 40 ASCII letters" in result.output
