"""Issue 33, item 3: replays by decision. A bot that times out leaves the request it did not
answer in the record, and `arena replay` (text, --at, --json) and the viewer reach it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli.main import main
from arena.html.replay_page import replay_data
from tests.referee_support import fake_bot

SLOW_MACHINE = ["--time-limit", "3000"]
"""Time per decision: the good bot answers on a loaded machine; the hanging one times out."""


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def play_one(tmp_path: Path, fault: str) -> tuple[Path, dict[str, Any]]:
    """One Mandala game of a bot that fails (`fault`) at its 3rd decision; its record."""
    root = tmp_path / "bots"
    fake_bot(root, "failing", f"--{fault}", "--after", "3", "--echo-requests")
    fake_bot(root, "steady")
    out = tmp_path / "out"
    code, output = run(
        "play", str(root / "failing"), str(root / "steady"), "-n", "1", "--seed", "5",
        "--out", str(out), *SLOW_MACHINE,
    )  # fmt: skip
    assert code == 0, output
    path = next(out.glob("g*.json"))
    return path, json.loads(path.read_text())


@pytest.fixture(scope="module")
def timed_out(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    return play_one(tmp_path_factory.mktemp("timeout"), "hang")


def test_the_record_keeps_the_request_that_timed_out(
    timed_out: tuple[Path, dict[str, Any]],
) -> None:
    path, record = timed_out
    assert record["outcome"]["termination"] == "timeout"
    kept = record["unanswered"]
    assert kept["seat"] == 0 and kept["reason"] == "timeout"
    request = json.loads(kept["request"])
    assert request["type"] == "decide" and request["request"] == len(record["moves"]) + 1
    # the bot's 3rd decision, and exactly the line it received (it echoed each to stderr)
    echoed = (path.parent / "logs" / "failing.stderr.log").read_text()
    assert echoed.count('"type": "decide"') == 3 or echoed.count('"type":"decide"') == 3
    assert kept["request"] + "\n" in echoed


def test_replay_at_the_unanswered_decision_prints_its_request(
    timed_out: tuple[Path, dict[str, Any]],
) -> None:
    path, record = timed_out
    number = len(record["moves"]) + 1
    code, line = run("replay", str(path), "--at", str(number), "--json")
    assert code == 0, line
    assert line == record["unanswered"]["request"] + "\n"
    echoed = (path.parent / "logs" / "failing.stderr.log").read_text()
    assert line in echoed  # byte for byte what the bot was sent
    code, text = run("replay", str(path), "--at", str(number))
    assert code == 0, text
    assert f"Decision {number} of {number}" in text
    assert "Not answered: seat 0 did not answer in time (timeout)" in text
    code, text = run("replay", str(path), "--at", str(number + 1))
    assert code == 1 and f"The record has decisions 1 to {number}, not {number + 1}." in text


def test_replay_text_numbers_every_decision(timed_out: tuple[Path, dict[str, Any]]) -> None:
    path, record = timed_out
    code, text = run("replay", str(path))
    assert code == 0, text
    numbers = [int(n) for n in re.findall(r"^#(\d+) ", text, re.MULTILINE)]
    count = len(record["moves"]) + 1
    assert numbers == list(range(1, count + 1))
    assert re.search(r"^#1 +turn +1: seat 0 \(failing\) ", text, re.MULTILINE)
    last = [line for line in text.splitlines() if line.startswith(f"#{count} ")]
    assert last and "seat 0 (failing) was asked" in last[0]
    assert last[0].endswith("did not answer in time (timeout)")


def test_the_viewer_has_the_unanswered_decision_as_its_last_step(
    timed_out: tuple[Path, dict[str, Any]],
) -> None:
    _, record = timed_out
    data = replay_data(record)
    assert len(data["steps"]) == len(record["moves"]) + 1
    last = data["steps"][-1]
    assert last["seat"] == 0 and last["unanswered"] == "timeout" and last["chosen"] == -1
    assert "did not answer in time (timeout)" in last["text"] and last["legal"]
    assert last["view"]  # what seat 0 was sent


def test_an_illegal_reply_is_kept_too(tmp_path: Path) -> None:
    path, record = play_one(tmp_path, "illegal")
    assert record["unanswered"]["reason"] == "illegal_move"
    number = len(record["moves"]) + 1
    code, line = run("replay", str(path), "--at", str(number), "--json")
    assert code == 0 and json.loads(line)["request"] == number


def test_a_record_without_it_reads_as_before(
    timed_out: tuple[Path, dict[str, Any]], tmp_path: Path
) -> None:
    _, record = timed_out
    old = {key: value for key, value in record.items() if key != "unanswered"}
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    count = len(old["moves"])
    code, text = run("replay", str(path), "--at", str(count + 1), "--json")
    assert code == 1 and f"The record has decisions 1 to {count}, not {count + 1}." in text
    code, text = run("replay", str(path))
    assert code == 0 and f"\n#{count} " in text and f"\n#{count + 1} " not in text
    assert len(replay_data(old)["steps"]) == count
