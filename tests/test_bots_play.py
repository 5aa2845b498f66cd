"""The bundled bots, each run as a real subprocess, speak protocol v1 and play legal moves.

The conversation is scripted here (not through the referee) so that these tests only
depend on the engine and on the bots themselves. No test depends on timing: waits are
generous and exist only so that a broken bot fails the test instead of hanging it.
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bot_conversation import WAIT_S, BotConversation

from arena.game_sources import get_game

BOTS = Path(__file__).resolve().parent.parent / "bots"


def start(folder: Path) -> Iterator[BotConversation]:
    bot = BotConversation(folder)
    try:
        yield bot
    finally:
        bot.kill()


def handshake(bot: BotConversation) -> None:
    bot.send({"type": "hello", "protocol": 1, "game": "mandala", "players": 2})
    reply = bot.receive()
    assert reply["type"] == "hello"
    assert isinstance(reply["name"], str) and reply["name"]


def scripted_choice(moves: list[dict[str, Any]]) -> int:
    """The other seat's policy: grow a Field when it can, so that Mandalas get claimed."""
    for index, move in enumerate(moves):
        if move["action"] == "grow_field":
            return index
    return 0


def play_game(bot: BotConversation, seed: int, seat: int, game_id: str) -> tuple[int, set[str]]:
    """Play one whole game, `bot` in `seat`; return its decisions and their kinds."""
    state = get_game("mandala").new_state(seed)
    limits = {"move_ms": 1000, "time_bank_ms": 0}
    bot.send(
        {
            "type": "new_game",
            "game_id": game_id,
            "seat": seat,
            "players": 2,
            "config": {"turn_limit": 1000},
            "limits": limits,
            "future_field": [1],
        }
    )
    decisions, kinds = 0, set()
    while not state.is_over():
        decision = state.decision()
        assert decision is not None
        moves = state.legal_moves()
        if decision.seat != seat:
            state.apply_move(moves[scripted_choice(moves)])
            continue
        bot.send(
            {
                "type": "decide",
                "id": f"{decisions:08x}",
                "game_id": game_id,
                "request": decisions,
                "decision": decision.kind,
                "view": state.view(seat),
                "legal_moves": moves,
                "time_ms": 1000,
            }
        )
        reply = bot.receive()
        assert reply.get("type", "move") == "move"
        assert reply["id"] == f"{decisions:08x}", "the reply must echo the request's id"
        move = reply["move"]
        if isinstance(move, int) and not isinstance(move, bool):
            assert 0 <= move < len(moves), f"{bot.name} chose index {move} of {len(moves)}"
            state.apply_move(moves[move])
        else:
            state.apply_move(move)  # raises if the move is malformed or illegal
        decisions += 1
        kinds.add(decision.kind)
    bot.send(
        {"type": "game_over", "game_id": game_id, "seat": seat, "result": state.outcome().to_json()}
    )
    bot.send({"type": "some_future_message", "payload": {}})  # must be ignored
    return decisions, kinds


def prepare(folder: Path, tmp_path: Path) -> Path:
    """A copy of the bot folder, built if its manifest says so."""
    copy = tmp_path / folder.name
    shutil.copytree(folder, copy, ignore=shutil.ignore_patterns("bot", "__pycache__"))
    manifest = tomllib.loads((copy / "bot.toml").read_text())
    build = manifest.get("build")
    if build:
        argv = shlex.split(build) if isinstance(build, str) else list(build)
        if shutil.which(argv[0]) is None:
            pytest.skip(f"{argv[0]} is not installed")
        done = subprocess.run(argv, cwd=copy, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    argv0 = manifest["command"][0] if isinstance(manifest["command"], list) else ""
    if argv0 == "node" and shutil.which("node") is None:
        pytest.skip("node is not installed")
    return copy


BUNDLED = ["random", "greedy", "starter-js", "starter-c"]


@pytest.mark.parametrize("name", BUNDLED)
def test_bot_plays_legal_moves_over_the_protocol(name: str, tmp_path: Path) -> None:
    folder = prepare(BOTS / name, tmp_path)
    for bot in start(folder):
        handshake(bot)
        total, kinds = 0, set()
        for game in range(4):  # several games in one process, as in a tournament
            decisions, seen = play_game(bot, 100 + game, game % 2, f"test-g{game}")
            total += decisions
            kinds |= seen
        assert total > 20
        assert kinds == {"turn", "claim"}
        assert bot.goodbye() == 0


@pytest.mark.parametrize("name", BUNDLED)
def test_bot_manifest(name: str) -> None:
    manifest = tomllib.loads((BOTS / name / "bot.toml").read_text())
    assert manifest["name"] == name
    assert manifest["description"]
    assert manifest["command"]


def test_random_bot_seed_makes_it_reproducible(tmp_path: Path) -> None:
    chosen: list[list[int]] = []
    for _ in range(2):
        proc = subprocess.run(
            [sys.executable, "bot.py", "--seed", "7"],
            cwd=BOTS / "random",
            input="".join(
                json.dumps({"type": "decide", "id": "1", "legal_moves": [{}] * 50}) + "\n"
                for _ in range(20)
            ),
            capture_output=True,
            text=True,
            timeout=WAIT_S,
        )
        chosen.append([json.loads(line)["move"] for line in proc.stdout.splitlines()])
    assert chosen[0] == chosen[1]
    assert len(chosen[0]) == 20 and len(set(chosen[0])) > 1


def test_c_starter_reads_arbitrarily_long_lines(tmp_path: Path) -> None:
    if shutil.which("cc") is None:
        pytest.skip("cc is not installed")
    folder = prepare(BOTS / "starter-c", tmp_path)
    for bot in start(folder):
        handshake(bot)
        padding = "x" * 300_000  # far beyond any fixed buffer
        moves = [{"action": "discard_redraw", "colour": "red", "count": 1}] * 40
        moves.append({"action": "build_mountain", "mandala": 0, "colour": "green"})
        bot.send(
            {
                "type": "decide",
                "id": "0123abcd",
                "decision": "turn",
                "padding": padding,
                "view": {"hand": {"green": 1, "red": 1}},
                "legal_moves": moves,
            }
        )
        assert bot.receive() == {"type": "move", "move": 40, "id": "0123abcd"}
        assert bot.goodbye() == 0


def test_gitignore_keeps_the_c_binary_out() -> None:
    assert "starter-c/bot" in (BOTS / ".gitignore").read_text().split()
