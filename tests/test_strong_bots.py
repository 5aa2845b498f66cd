"""The heuristic and ismcts bots, run as real subprocesses, answer protocol v1 with legal moves.

The ismcts bot gets a tiny fixed budget (`--iterations 8`) so the test does not depend on
the machine's speed; waits exist only so that a hung bot fails instead of hanging.
"""

from __future__ import annotations

import importlib.util
import random
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from bot_conversation import BotConversation

from arena.game_sources import get_game
from arena.games.mandala.state import MandalaState

BOTS = Path(__file__).resolve().parent.parent / "bots"
COMMANDS = {
    "heuristic": [sys.executable, "bot.py"],
    "ismcts": [sys.executable, "bot.py", "--iterations", "8", "--seed", "1"],
}


def _action(state: MandalaState, actions: list[int], reply: dict[str, Any]) -> int:
    move = reply["move"]
    if isinstance(move, int):
        assert 0 <= move < len(actions)
        return actions[move]
    action = state.move_to_action(move)  # raises on an illegal or malformed move
    assert action in actions
    return action


def _play(names: tuple[str, str], seed: int) -> MandalaState:
    bots = [BotConversation(BOTS / name, COMMANDS[name]) for name in names]
    try:
        for bot in bots:
            bot.send({"type": "hello", "protocol": 1, "game": "mandala", "players": 2})
            hello = bot.receive()
            assert hello["type"] == "hello" and hello["name"] == bot.name
        for seat, bot in enumerate(bots):
            bot.send(
                {
                    "type": "new_game",
                    "game_id": "t1",
                    "seat": seat,
                    "players": 2,
                    "config": {"turn_limit": 1000},
                    "limits": {"move_ms": 1000, "time_bank_ms": 0},
                    "unknown_field": True,  # must be ignored
                }
            )
            bot.send({"type": "some_future_message"})  # needs no reply: ignored
        state = MandalaState.deal(seed)
        request = 0
        while (decision := state.decision()) is not None:
            actions = state.legal_actions()
            bots[decision.seat].send(
                {
                    "type": "decide",
                    "id": f"{request:08x}",
                    "game_id": "t1",
                    "request": request,
                    "decision": decision.kind,
                    "view": state.view(decision.seat),
                    "legal_moves": [state.action_to_move(a) for a in actions],
                    "time_ms": 1000,
                }
            )
            request += 1
            state.apply_action(_action(state, actions, bots[decision.seat].receive()))
        for bot in bots:
            bot.send({"type": "game_over", "game_id": "t1", "seat": 0, "result": {}})
        for bot in bots:
            assert bot.goodbye() == 0
        return state
    finally:
        for bot in bots:
            bot.kill()


def test_heuristic_and_ismcts_play_a_whole_game_with_legal_moves() -> None:
    state = _play(("heuristic", "ismcts"), seed=5)
    assert state.is_over()


def test_ismcts_plays_seat_zero_and_heuristic_seat_one() -> None:
    state = _play(("ismcts", "heuristic"), seed=6)
    assert state.is_over()


@pytest.mark.parametrize("name", ["heuristic", "ismcts"])
def test_manifest(name: str) -> None:
    manifest = tomllib.loads((BOTS / name / "bot.toml").read_text())
    assert manifest["name"] == name
    assert manifest["command"][:2] == ["python3", "bot.py"]
    if name == "ismcts":
        assert manifest["default"] is False  # opt-in: 80 ms a decision is too slow for make run


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bot_{name}", BOTS / name / "bot.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _messages(games: int, seed: int) -> list[tuple[MandalaState, dict[str, Any]]]:
    """Decide messages from random games, claims included."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        state = MandalaState.deal(rng.randrange(1 << 30))
        while (decision := state.decision()) is not None:
            actions = state.legal_actions()
            message = {
                "decision": decision.kind,
                "view": state.view(decision.seat),
                "legal_moves": [state.action_to_move(a) for a in actions],
                "time_ms": 1000,
            }
            found.append((state.copy(), message))
            state.apply_action(rng.choice(actions))
    return found


def test_heuristic_decide_picks_a_legal_index_everywhere() -> None:
    heuristic = _load("heuristic")
    messages = _messages(8, seed=21)
    assert any(m["decision"] == "claim" for _, m in messages)
    for _, message in messages:
        index = heuristic.decide(message)
        assert 0 <= index < len(message["legal_moves"])


def test_ismcts_search_returns_a_legal_action() -> None:
    ismcts = _load("ismcts")
    rng = random.Random(3)
    for state, message in _messages(2, seed=22)[::7]:
        action = ismcts.search(message["view"], 0.0, 6, rng)
        assert action in state.legal_actions()


@pytest.mark.parametrize("players", [3, 4])
def test_ismcts_searches_flowers_through_its_determinizer(players: int) -> None:
    """Issue 11: ismcts is game-neutral; every Flowers decision, tile choices included."""
    ismcts = _load("ismcts")
    game = get_game("flowers")
    rng = random.Random(players)
    kinds = set()
    for seed in range(3):
        state = game.new_state(seed, num_players=players)
        while (decision := state.decision()) is not None:
            actions = state.legal_actions()
            if len(actions) > 1 and rng.random() < 0.1 or decision.kind == "tile":
                view = state.view(decision.seat)
                action = ismcts.search(view, 0.0, 4, rng, "flowers", {})
                assert action in actions
                kinds.add(decision.kind)
            state.apply_action(rng.choice(actions))
    assert kinds == {"turn", "tile"}
