"""The referee with real processes: normal games, every failure kind, sessions, teardown."""

from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path

import pytest

from arena.outcome import Termination
from arena.players.limits import Limits
from arena.players.player import Player
from arena.record import replay
from arena.referee import GameReport, GameSpec, play_game
from tests.referee_support import GENEROUS, SHORT, fake_bot


@pytest.fixture
def first(tmp_path: Path) -> Player:
    player = Player(fake_bot(tmp_path, "first"), GENEROUS, tmp_path / "logs")
    yield player
    player.close()


def test_a_normal_game_is_recorded_and_replays(tmp_path: Path, first: Player) -> None:
    other = Player(fake_bot(tmp_path, "objects", "--move-object"), GENEROUS, tmp_path / "logs")
    with other:
        report = play_game(GameSpec("g1", seed=7), [first, other])
    outcome = report.outcome
    assert outcome.termination.is_normal
    assert outcome.faulty_seat is None
    record = report.record()
    assert record["players"] == ["first", "objects"]
    assert record["seed"] == 7 and record["game_id"] == "g1"
    assert len(record["moves"]) == sum(report.decisions)
    assert {move["kind"] for move in record["moves"]} <= {"turn", "claim"}
    final = replay(record)
    assert final.is_over()
    assert final.outcome().scores == outcome.scores
    assert final.outcome().ranks == outcome.ranks


def test_the_record_keeps_each_decisions_comment_and_stderr(tmp_path: Path, first: Player) -> None:
    """Issue 13: a reply's `comment` and the stderr written during a decision are kept per
    move, and the bot's log marks each decision's lines."""
    talker = Player(fake_bot(tmp_path, "talker", "--think-aloud"), GENEROUS, tmp_path / "logs")
    with talker:
        report = play_game(GameSpec("g9", seed=5), [first, talker])
    moves = report.record()["moves"]
    assert all(move["comment"] == "first legal move" for move in moves)
    talked = [(n, move) for n, move in enumerate(moves, start=1) if move["seat"] == 1]
    assert talked and all("stderr" not in move for move in moves if move["seat"] == 0)
    heard = [move.get("stderr") for _, move in talked]
    # The referee takes what is in the stderr pipe before each request and at the end.
    assert heard == [f"thinking about request {n}\n" for n, _ in talked]
    log = (tmp_path / "logs" / "talker.stderr.log").read_text()
    n = talked[0][0]
    assert f"[arena] game g9, decision {n}\nthinking about request {n}\n" in log


def test_one_process_plays_many_games_in_both_seats(tmp_path: Path, first: Player) -> None:
    other = Player(fake_bot(tmp_path, "second"), GENEROUS, tmp_path / "logs")
    with other:
        reports = [
            play_game(GameSpec("g1", seed=3), [first, other]),
            play_game(GameSpec("g2", seed=3), [other, first]),
            play_game(GameSpec("g3", seed=4), [first, other]),
        ]
    assert [r.players for r in reports] == [
        ["first", "second"],
        ["second", "first"],
        ["first", "second"],
    ]
    assert all(r.outcome.termination.is_normal for r in reports)
    assert first.starts == 1 and other.starts == 1

    # Same deal, both bots play move 0: the swapped game is the same game.
    def moves(report: GameReport) -> list[object]:
        return [(m["seat"], m["move"]) for m in report.record()["moves"]]

    assert moves(reports[0]) == moves(reports[1])


FAULTS = [
    pytest.param(
        ["--hang"], SHORT, Termination.TIMEOUT, "no complete reply within 200 ms", id="hang"
    ),
    pytest.param(["--slow", "1000"], SHORT, Termination.TIMEOUT, "within 200 ms", id="slow"),
    pytest.param(
        ["--crash", "--after", "3"],
        GENEROUS,
        Termination.CRASH,
        "segmentation fault (pretend)",
        id="crash-mid-game",
    ),
    pytest.param(
        ["--garbage"],
        GENEROUS,
        Termination.MALFORMED_REPLY,
        "the reply is not valid JSON",
        id="garbage",
    ),
    pytest.param(
        ["--wrong-shape"],
        GENEROUS,
        Termination.MALFORMED_REPLY,
        'the reply has no "move" field',
        id="wrong-shape",
    ),
    pytest.param(
        ["--illegal"],
        GENEROUS,
        Termination.ILLEGAL_MOVE,
        "No Mandala is being destroyed, so there is nothing to claim.",
        id="illegal",
    ),
    pytest.param(
        ["--oversized"],
        GENEROUS,
        Termination.OVERSIZED_OUTPUT,
        "longer than the line cap of 1 MiB",
        id="oversized",
    ),
    pytest.param(
        ["--no-newline"],
        SHORT,
        Termination.TIMEOUT,
        "11 bytes without ending the line",
        id="no-newline",
    ),
    pytest.param(
        ["--fail-start"],
        GENEROUS,
        Termination.STARTUP_FAILURE,
        "cannot load my model file weights.bin",
        id="fails-to-start",
    ),
    pytest.param(
        ["--no-hello"],
        replace(SHORT, startup_ms=1000),
        Termination.STARTUP_FAILURE,
        "did not answer hello within 1000 ms",
        id="no-hello",
    ),
]


@pytest.mark.parametrize(("flags", "limits", "termination", "words"), FAULTS)
def test_each_fault_ends_the_game_and_the_next_game_is_played(
    tmp_path: Path,
    first: Player,
    flags: list[str],
    limits: Limits,
    termination: Termination,
    words: str,
) -> None:
    bad = Player(fake_bot(tmp_path, "bad", *flags), limits, tmp_path / "logs")
    with bad:
        report = play_game(GameSpec("g1", seed=1), [first, bad])
        again = play_game(GameSpec("g2", seed=1), [bad, first])
    outcome = report.outcome
    assert outcome.termination == termination
    assert outcome.faulty_seat == 1
    assert outcome.ranks == (0, 1)
    assert outcome.reason.startswith("Seat 1 (bad) ")
    assert words in outcome.reason
    assert report.record()["outcome"]["termination"] == termination.value
    # The next game is played with a fresh process of the faulty bot; the other one persists.
    assert again.outcome.termination == termination
    assert again.outcome.faulty_seat == 0
    assert bad.starts == 2
    assert first.starts == 1


def test_a_bot_that_closes_stdout_loses(tmp_path: Path, first: Player) -> None:
    bad = Player(fake_bot(tmp_path, "bad", "--close-stdout"), SHORT, tmp_path / "logs")
    with bad:
        report = play_game(GameSpec("g1", seed=1), [bad, first])
    # A crash where EOF reaches the referee; under bubblewrap its own processes keep the
    # pipe open, so the same bot shows up as a timeout (notes/sandbox-facts.md).
    assert report.outcome.termination in (Termination.CRASH, Termination.TIMEOUT)
    assert report.outcome.faulty_seat == 0


def test_the_time_bank_pays_for_slow_replies_until_it_is_spent(
    tmp_path: Path, first: Player
) -> None:
    limits = Limits(move_ms=200, time_bank_ms=1500, startup_ms=20_000, grace_ms=300)
    slow = Player(fake_bot(tmp_path, "slow", "--slow", "400"), limits, tmp_path / "logs")
    with slow:
        report = play_game(GameSpec("g1", seed=1), [slow, first])
    assert report.outcome.termination == Termination.TIMEOUT
    assert report.decisions[0] >= 1  # at least one reply over the limit was paid from the bank
    assert report.think_ms[0] > 200


def test_stderr_goes_to_a_capped_log_file(tmp_path: Path, first: Player) -> None:
    limits = replace(GENEROUS, stderr_cap=5000)
    noisy = Player(
        fake_bot(tmp_path, "noisy", "--stderr-spam", "100000"), limits, tmp_path / "logs"
    )
    with noisy:
        report = play_game(GameSpec("g1", seed=1), [noisy, first])
    assert report.outcome.termination.is_normal
    log = tmp_path / "logs" / "noisy.stderr.log"
    text = log.read_text()
    assert "xxxx" in text
    assert "log cap reached" in text
    assert log.stat().st_size < 5000 + 200


def _processes_with(marker: bytes) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


def test_teardown_kills_every_process_the_bot_started(tmp_path: Path, first: Player) -> None:
    seconds = f"61.{os.getpid()}"
    parent = Player(fake_bot(tmp_path, "parent", "--spawn-child", seconds), GENEROUS, tmp_path)
    play_game(GameSpec("g1", seed=1), [parent, first])
    assert _processes_with(seconds.encode())
    parent.close()
    deadline = time.monotonic() + 30
    while _processes_with(seconds.encode()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _processes_with(seconds.encode())


def test_a_bot_that_ignores_goodbye_is_killed_and_close_is_idempotent(tmp_path: Path) -> None:
    stubborn = Player(fake_bot(tmp_path, "stubborn", "--ignore-goodbye"), SHORT, tmp_path)
    stubborn.ensure_started("mandala", 2)
    assert stubborn.running
    stubborn.close()
    assert stubborn.last_exit_clean is False
    stubborn.close()
    assert not stubborn.running


def test_a_well_behaved_bot_exits_after_goodbye(first: Player) -> None:
    first.ensure_started("mandala", 2)
    first.close()
    assert first.last_exit_clean is True


def test_a_missing_program_is_a_startup_failure(tmp_path: Path, first: Player) -> None:
    folder = tmp_path / "ghost"
    folder.mkdir()
    (folder / "bot.toml").write_text('name = "ghost"\ncommand = ["./no-such-program"]\n')
    from arena.players.manifest import load_manifest

    with Player(load_manifest(folder), GENEROUS) as ghost:
        report = play_game(GameSpec("g1", seed=1), [first, ghost])
    assert report.outcome.termination == Termination.STARTUP_FAILURE
    assert report.outcome.faulty_seat == 1


def test_one_player_cannot_take_both_seats(first: Player) -> None:
    with pytest.raises(ValueError, match="its own Player"):
        play_game(GameSpec("g1", seed=1), [first, first])
