"""`arena play`, `arena check` and `arena replay` through click's CliRunner."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli.main import main
from arena.errors import GameError
from arena.record import replay
from tests.referee_support import fake_bot

FAST = ["--time-limit", "10000"]


@pytest.fixture
def bots(tmp_path: Path) -> Path:
    root = tmp_path / "bots"
    fake_bot(root, "first")
    fake_bot(root, "objects", "--move-object", "--random", "3")
    fake_bot(root, "chatty", "--chatty")
    fake_bot(root, "crashy", "--crash", "--after", "3")
    fake_bot(root, "stubborn", "--ignore-goodbye")
    return root


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def test_play_writes_seat_swapped_records_and_a_summary(bots: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, output = run(
        "play",
        str(bots / "first"),
        str(bots / "objects"),
        "--games",
        "4",
        "--seed",
        "11",
        "--out",
        str(out),
        *FAST,
    )
    assert code == 0, output
    assert "first vs objects: 4 games" in output
    assert "failures: none" in output
    records = [json.loads((out / f"g000{i}.json").read_text()) for i in range(1, 5)]
    assert [r["seed"] for r in records] == [11, 11, 12, 12]
    assert [r["players"] for r in records] == [["first", "objects"], ["objects", "first"]] * 2
    for record in records:
        assert replay(record).outcome().scores == tuple(record["outcome"]["scores"])
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 4
    assert (out / "logs" / "first.stderr.log").exists()


def test_play_reports_failures_by_reason(bots: Path, tmp_path: Path) -> None:
    code, output = run(
        "play",
        str(bots / "first"),
        str(bots / "crashy"),
        "-n",
        "2",
        "--out",
        str(tmp_path / "o"),
        *FAST,
    )
    assert code == 0, output
    assert "failures of crashy: crash 2" in output
    assert "Seat 1 (crashy) crashed at turn" in output


def test_play_with_an_unknown_bot_is_one_sentence(tmp_path: Path) -> None:
    code, output = run("play", str(tmp_path / "nothing-here"), "random")
    assert code == 1
    assert output.startswith("Error: No bot ")


def test_replay_tells_the_game(bots: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert (
        run(
            "play", str(bots / "first"), str(bots / "objects"), "-n", "1", "--out", str(out), *FAST
        )[0]
        == 0
    )
    code, output = run("replay", str(out / "g0001.json"))
    assert code == 0, output
    assert "#1    turn   1: seat 0 (first) " in output  # numbered by decision (issue 33)
    assert "River of seat 0 (first):" in output
    assert "Scores: seat 0 (first) " in output
    assert "Warning" not in output


def test_replay_reads_a_gzipped_record_as_the_tournament_writes_them(
    bots: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    play = ("play", str(bots / "first"), str(bots / "objects"), "-n", "1", "--out", str(out))
    assert run(*play, *FAST)[0] == 0
    gzipped = tmp_path / "g0001.json.gz"
    gzipped.write_bytes(gzip.compress((out / "g0001.json").read_bytes()))
    code, output = run("replay", str(gzipped))
    assert code == 0, output
    assert output == run("replay", str(out / "g0001.json"))[1]


def test_replay_of_a_binary_file_is_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(b"\xff\xfe\x00")
    code, output = run("replay", str(path))
    assert code == 1 and "x.json is not UTF-8 text." in output


@pytest.mark.parametrize("entry", [{"seat": 0}, {"move": "build"}, 3])
def test_replay_of_a_record_with_a_broken_move_is_one_sentence(
    bots: Path, tmp_path: Path, entry: object
) -> None:
    out = tmp_path / "out"
    play = ("play", str(bots / "first"), str(bots / "objects"), "-n", "1", "--out", str(out))
    assert run(*play, *FAST)[0] == 0
    record = json.loads((out / "g0001.json").read_text())
    record["moves"][2] = entry
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(record))
    code, output = run("replay", str(path))
    assert code == 1 and "Error: " in output and "move 3 has no move" in output
    with pytest.raises(GameError, match="record's move 3"):
        replay(record)


def test_replay_refuses_what_is_not_a_record(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("[1, 2]")
    code, output = run("replay", str(path))
    assert code == 1 and "is not a game record" in output


def test_check_passes_a_conforming_bot(bots: Path, tmp_path: Path) -> None:
    code, output = run(
        "check",
        str(bots / "first"),
        "--opponent",
        str(bots / "objects"),
        "--out",
        str(tmp_path / "c"),
        "-n",
        "2",
        *FAST,
    )
    assert code == 0, output
    for step in ("manifest", "handshake", "unknown message", "games", "timing", "goodbye"):
        assert f"PASS  {step}:" in output
    assert "claim" in output  # claim decisions were exercised
    assert "is ready for a tournament" in output


def test_check_builds_the_opponent_first(bots: Path, tmp_path: Path) -> None:
    manifest = bots / "objects" / "bot.toml"
    built = bots / "objects" / "built.txt"
    build = ["python3", "-c", "open('built.txt', 'w').close()"]
    manifest.write_text(manifest.read_text() + f"build = {json.dumps(build)}\n")
    code, output = run(
        "check", str(bots / "first"), "--opponent", str(bots / "objects"),
        "--out", str(tmp_path / "c"), "-n", "2", *FAST,
    )  # fmt: skip
    assert code == 0, output
    assert built.exists()


def test_check_with_an_unwritable_out_is_one_sentence(bots: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, output = run(
        "check", str(bots / "first"), "--opponent", str(bots / "objects"),
        "--out", str(blocker / "c"), "-n", "2", *FAST,
    )  # fmt: skip
    assert code == 1
    assert "Error: Cannot write" in output and "choose another --out" in output


@pytest.mark.parametrize(
    ("bot", "failure"),
    [
        ("chatty", "FAIL  unknown message: it answered a message of an unknown type"),
        ("crashy", "FAIL  games: game 1"),
        ("stubborn", "FAIL  goodbye: it was still running"),
    ],
)
def test_check_says_exactly_what_to_fix(bots: Path, tmp_path: Path, bot: str, failure: str) -> None:
    code, output = run(
        "check",
        str(bots / bot),
        "--opponent",
        str(bots / "first"),
        "--out",
        str(tmp_path / "c"),
        "-n",
        "2",
        *FAST,
    )
    assert code == 1
    assert failure in output
    assert "fix: " in output


@pytest.mark.parametrize("command", ["play", "check", "replay"])
def test_every_command_has_help(command: str) -> None:
    code, output = run(command, "--help")
    assert code == 0
    assert len(output.splitlines()) > 3


def test_play_with_the_same_bot_twice_labels_the_seats(bots: Path, tmp_path: Path) -> None:
    """Issue 10: `arena play A A` says which copy sat where, in the output and the records."""
    out = tmp_path / "out"
    code, output = run(
        "play", str(bots / "first"), str(bots / "first"), "--seed", "3", "--out", str(out), *FAST
    )
    assert code == 0, output
    assert "first#1 vs first#2: 2 games" in output
    records = [json.loads((out / f"g000{i}.json").read_text()) for i in (1, 2)]
    assert [r["players"] for r in records] == [["first#1", "first#2"], ["first#2", "first#1"]]
    assert sorted(p.name for p in (out / "logs").iterdir()) == [
        "first#1.stderr.log",
        "first#2.stderr.log",
    ]


def test_play_refuses_a_table_the_game_does_not_have(bots: Path, tmp_path: Path) -> None:
    code, output = run("play", str(bots / "first"), str(bots / "first"), "--seats", "3")
    assert code == 1
    assert output == (  # issue 46: the games that seat 3 are named
        "Error: mandala is played by 2 players, not --seats 3; at 3 seats play flowers, "
        "highcard or takenoko (--game flowers).\n"
    )
    code, output = run("play", str(bots / "first"), "--game", "chess")
    assert code == 1
    assert output.startswith("Error: Unknown game 'chess'; the known games are: ")


def test_two_commands_in_the_same_second_get_their_own_folders(tmp_path: Path) -> None:
    """Issue 10: result folders never collide, however fast commands start."""
    from arena.results.folders import new_results_folder

    made = [new_results_folder("play", tmp_path) for _ in range(5)]
    assert len(set(made)) == 5
    assert all(folder.is_dir() and not any(folder.iterdir()) for folder in made)


def test_games_lists_every_game_with_its_seats_and_options() -> None:
    """Issue 10: `arena games` (highcard is the tests' own game, registered by conftest)."""
    code, output = run("games")
    assert code == 0
    assert "mandala: 2 players (default 2)\n" in output
    assert "--game-option turn_limit=1000" in output and "(R12)" in output
    assert "highcard: 2 to 4 players (default 3)\n" in output


def test_a_game_option_of_the_wrong_type_is_one_sentence(bots: Path) -> None:
    code, output = run(
        "play", str(bots / "first"), str(bots / "first"), "--game-option", "turn_limit=x"
    )
    assert code == 1
    assert output == "Error: mandala's option turn_limit takes a whole number, not 'x'.\n"


def test_play_reports_elo_from_games_and_from_pairs(bots: Path, tmp_path: Path) -> None:
    """Issue 14: Elo with its interval, nElo, LOS, draws, and the pentanomial pair counts."""
    out = tmp_path / "out"
    code, output = run(
        "play", str(bots / "objects"), str(bots / "first"), "-n", "8", "-q", "--seed", "2",
        "--out", str(out), *FAST,
    )  # fmt: skip
    assert code == 0, output
    assert "Elo of objects (games): " in output and "LOS " in output and "draw ratio" in output
    assert "Elo of objects (pairs): " in output and "pairs LL " in output
    summary = json.loads((out / "summary.json").read_text())
    assert sum(summary["pentanomial"].values()) == 4
    assert summary["elo_games"]["units"] == 8 and summary["elo_pairs"]["units"] == 4


def test_play_sprt_plays_pairs_until_a_verdict(bots: Path, tmp_path: Path) -> None:
    """Issue 14: --sprt prints the LLR against its bounds as it goes, and the verdict.
    `objects` plays at random; `first` always plays its first move, which loses heavily."""
    code, output = run(
        "play", str(bots / "objects"), str(bots / "first"), "--sprt", "0,50",
        "--max-games", "400", "--out", str(tmp_path / "out"), "-q", *FAST,
    )  # fmt: skip
    assert code == 0, output
    assert "SPRT pairs " in output and "(bounds -2.94, +2.94)" in output
    assert "SPRT [0, 50] nElo, alpha 0.05, beta 0.05: LLR " in output
    assert "accepted" in output or "no verdict" in output


@pytest.mark.parametrize(
    ("args", "sentence"),
    [
        (["--sprt", "10"], "'10' is not ELO0,ELO1 (e.g. 0,10)."),
        (["--sprt", "10,0"], "ELO0 must be less than ELO1, not 10,0."),
        (["--sprt", "0,10", "--alpha", "2"], "Invalid value for '--alpha'"),
        (["--sprt", "0,10", "--alpha", "0.6", "--beta", "0.6"], "alpha + beta must be less than 1"),
    ],
)
def test_play_refuses_an_sprt_that_cannot_run(bots: Path, args: list[str], sentence: str) -> None:
    code, output = run("play", str(bots / "first"), str(bots / "objects"), *args)
    assert code == 2 and sentence in output, output


def test_play_reports_think_time_percentiles_and_cpu_time(bots: Path, tmp_path: Path) -> None:
    """Issue 14: mean, p95 and max think time per decision, and CPU time beside it."""
    from arena.players import sandbox

    out = tmp_path / "out"
    code, output = run(
        "play", str(bots / "first"), str(bots / "objects"), "-q", "--out", str(out), *FAST
    )
    assert code == 0, output
    assert "p95 ms" in output and "max ms" in output and "CPU ms/dec." in output
    bot = json.loads((out / "summary.json").read_text())["bots"][0]
    assert bot["think_ms_max"] >= bot["think_ms_p95"] >= 0
    if sandbox.probe().cgroup_v2 is not None:
        assert bot["cpu_ms_per_decision"] is not None and bot["cpu_ms_per_decision"] >= 0


def test_a_busy_machine_is_named_when_every_bot_waited_for_it() -> None:
    from arena.cli.play import overloaded
    from arena.match import BotTally

    def tally(wall: float, cpu: float) -> BotTally:
        return BotTally("x", think_ms=wall * 10, decisions=10, cpu_ms=cpu * 10)

    assert overloaded([tally(10.0, 2.0), tally(8.0, 3.0)])
    assert not overloaded([tally(10.0, 2.0), tally(8.0, 7.0)])  # one bot really computed
    assert not overloaded([tally(0.5, 0.1), tally(0.5, 0.1)])  # too fast to tell


def test_replay_at_json_prints_the_exact_request_the_seat_received(tmp_path: Path) -> None:
    """Issue 13: the bot echoes every request to stderr; the record keeps it per decision,
    and `arena replay --at N --json` rebuilds the very same line."""
    root = tmp_path / "bots"
    fake_bot(root, "echo", "--echo-requests", "--random", "4")
    fake_bot(root, "other", "--random", "5")
    code, output = run(
        "play", str(root / "echo"), str(root / "other"), "-n", "1", "--seed", "3",
        "--out", str(tmp_path / "p"), *FAST,
    )  # fmt: skip
    assert code == 0, output
    path = next((tmp_path / "p").glob("g*.json"))
    record = json.loads(path.read_text())
    moves = enumerate(record["moves"], start=1)
    # whole lines only: a record keeps 32 KiB of a bot's stderr per game
    echoed = [(n, m) for n, m in moves if m.get("stderr", "").endswith("\n")]
    assert len(echoed) >= 8
    for number, move in echoed[:: max(1, len(echoed) // 6)]:
        code, line = run("replay", str(path), "--at", str(number), "--json")
        assert code == 0, line
        assert line == move["stderr"]  # byte for byte, newline included
    number, move = echoed[0]
    code, text = run("replay", str(path), "--at", str(number), "--seat", str(move["seat"]))
    assert code == 0 and f"Decision {number} of" in text and "<- chosen" in text
    assert "Comment: first legal move" in text and "Seat 0's view:" in text
    code, text = run("replay", str(path), "--at", str(number), "--seat", "1", "--json")
    assert code == 1 and "seat 1 was sent no request then" in text
    code, text = run("replay", str(path), "--json")
    assert code == 2 and "--json and --seat go with --at N" in text


@pytest.mark.parametrize("command", ["play", "check", "submit", "run"])
def test_the_help_says_a_bot_may_be_a_bundled_ones_name(command: str) -> None:
    """The help said "a name in bots/" where a bundled bot's name is taken too (no bots/
    here, or one without that bot): `arena check mine --opponent greedy` in any folder."""
    said = " ".join(CliRunner().invoke(main, [command, "--help"]).output.split())
    assert "name in bots/" not in said and "the bots folder)" not in said
    assert "else a bundled one" in said or "else bundled ones" in said, said


_ESCAPING_BOT = r"""
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "esc"}), flush=True)
    elif message["type"] == "decide":
        sys.stderr.write("\x1b]0;PWNED\x07\x1b]52;c;Y3VybCB4|sh\x07\u202eevil\n")
        sys.stderr.flush()
        reply = {"move": 0, "id": message["id"], "comment": "\x1b[2J\x1b]0;T\x07"}
        print(json.dumps(reply), flush=True)
        if message["request"] >= 3:
            sys.exit(3)
"""


def test_a_bots_stderr_and_comment_cannot_drive_the_terminal(tmp_path: Path) -> None:
    """A bot's stderr is quoted in a crash's reason and its comment and stderr in `arena
    replay`: written raw, an escape sequence set the terminal's title, wrote its clipboard
    (OSC 52) or cleared it, and a bidirectional override reordered the line. They are
    printed as escapes now."""
    folder = tmp_path / "esc"
    folder.mkdir()
    (folder / "bot.toml").write_text('name = "esc"\ncommand = ["python3", "bot.py"]\n')
    (folder / "bot.py").write_text(_ESCAPING_BOT)
    out = tmp_path / "out"
    code, said = run("play", str(folder), "random", "--games", "1", "--out", str(out), *FAST)
    assert code == 0, said
    assert "Its stderr: \\x1b]0;PWNED\\x07\\x1b]52;c;Y3VybCB4|sh\\x07\\u202eevil" in said
    code, told = run("replay", str(out / "g0001.json"))
    code_at, position = run("replay", str(out / "g0001.json"), "--at", "1")
    assert code == code_at == 0, told + position
    assert "Comment: \\x1b[2J\\x1b]0;T\\x07" in position and "  \\x1b]0;PWNED" in position
    for text in (said, told, position):
        assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
