"""bots/protocol.schema.json: a valid JSON Schema that accepts every protocol-v2 message."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from arena.game_sources import get_game
from arena.outcome import Termination

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "bots" / "protocol.schema.json"
SCHEMA = json.loads(SCHEMA_PATH.read_text())
VALIDATOR = Draft202012Validator(SCHEMA)
COLOURS = ["black", "green", "orange", "purple", "red", "yellow"]


def part(name: str) -> Draft202012Validator:
    """A validator for one `$defs` entry of the schema."""
    return Draft202012Validator({"$ref": f"#/$defs/{name}", "$defs": SCHEMA["$defs"]})


def errors(message: Any, name: str | None = None) -> list[str]:
    validator = part(name) if name else VALIDATOR
    return [error.message for error in validator.iter_errors(message)]


def sample_decides(seed: int) -> list[dict[str, Any]]:
    """`decide` messages of one random game, as the referee would send them."""
    state = get_game("mandala").new_state(seed)
    rng = random.Random(seed)
    messages = []
    while not state.is_over():
        decision = state.decision()
        assert decision is not None
        moves = state.legal_moves()
        messages.append(
            {
                "type": "decide",
                "id": f"{len(messages):08x}",
                "game_id": f"s{seed}",
                "request": len(messages),
                "decision": decision.kind,
                "view": state.view(decision.seat),
                "legal_moves": moves,
                "time_ms": 1000,
            }
        )
        state.apply_move(rng.choice(moves))
    messages.append(
        {"type": "game_over", "game_id": f"s{seed}", "seat": 0, "result": state.outcome().to_json()}
    )
    return messages


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(SCHEMA)


def test_every_message_has_its_own_definition() -> None:
    for name in ("hello", "new_game", "decide", "game_over", "goodbye", "bot_hello", "move_reply"):
        assert name in SCHEMA["$defs"]
    assert "oneOf" in SCHEMA


def test_termination_values_match_the_outcome_enum() -> None:
    schema_values = SCHEMA["$defs"]["result"]["properties"]["termination"]["enum"]
    assert schema_values == [t.value for t in Termination]


REFEREE_SAMPLES = [
    {"type": "hello", "protocol": 2, "game": "mandala", "players": 2},
    {
        "type": "new_game",
        "game": "mandala",
        "game_id": "r0001-p003-g1",
        "seat": 0,
        "players": 2,
        "seed": 1804289383,
        "config": {"turn_limit": 1000},
        "limits": {"move_ms": 1000, "time_bank_ms": 0},
    },
    {"type": "goodbye"},
    {"type": "goodbye", "reason": "tournament over"},  # unknown fields are allowed
]
BOT_SAMPLES = [
    {"type": "hello", "name": "greedy", "version": "1.0"},
    {"type": "hello", "name": "mine"},
    {"type": "move", "move": 3, "id": "0a1b2c3d"},
    {"move": 0, "id": "0a1b2c3d"},
    {
        "type": "move",
        "move": {"action": "claim", "colour": "red"},
        "id": "0a1b2c3d",
        "comment": "biggest pile",
    },
    {
        "type": "move",
        "move": {"action": "build_mountain", "mandala": 0, "colour": "red"},
        "id": "1",
    },
    {"move": {"action": "grow_field", "mandala": 1, "colour": "green", "count": 2}, "id": "1"},
    {"move": {"action": "discard_redraw", "colour": "black", "count": 3}, "id": "1"},
]


@pytest.mark.parametrize("message", REFEREE_SAMPLES)
def test_referee_samples_validate(message: dict[str, Any]) -> None:
    assert errors(message) == []
    assert errors(message, "referee_message") == []
    assert errors(message, message["type"]) == []


@pytest.mark.parametrize("message", BOT_SAMPLES)
def test_bot_samples_validate(message: dict[str, Any]) -> None:
    assert errors(message) == []
    assert errors(message, "bot_message") == []


def test_engine_views_and_moves_validate() -> None:
    kinds = set()
    for seed in range(3):
        for message in sample_decides(seed):
            assert errors(message) == [], message.get("request")
            kinds.add(message.get("decision"))
    assert {"turn", "claim"} <= kinds


def test_readme_examples_validate() -> None:
    """Every JSON example line in bots/README.md that has a `type` validates."""
    readme = SCHEMA_PATH.parent / "README.md"
    if not readme.exists():
        pytest.skip("bots/README.md not written yet")
    checked = 0
    for line in readme.read_text().splitlines():
        line = line.strip()
        if not line.startswith("{") or '"move"' not in line and '"type"' not in line:
            continue
        try:
            message = json.loads(line)
        except ValueError:
            continue  # an abbreviated example
        assert errors(message) == [], line
        checked += 1
    assert checked >= 5


BAD_SAMPLES = [
    ({"type": "hello", "protocol": 2, "game": "mandala"}, None),  # no players
    ({"type": "hello"}, None),  # neither a referee's nor a bot's hello
    ({"type": "move"}, None),  # no move
    ({"type": "move", "move": 0}, None),  # no id (protocol 2)
    ({"type": "move", "move": -1}, None),
    ({"type": "move", "move": {"action": "claim", "colour": "pink"}}, None),
    (
        {
            "type": "move",
            "move": {"action": "grow_field", "mandala": 2, "colour": "red", "count": 1},
        },
        None,
    ),
    ({"type": "move", "move": {"action": "discard_redraw", "colour": "red", "count": 0}}, None),
    ({"type": "move", "move": {"action": "build_mountain", "colour": "red"}}, None),
    ({"type": "decide", "game_id": "g", "request": 0, "decision": "turn"}, None),
    ({"black": 1, "green": 0, "orange": 0, "purple": 0, "red": 0}, "pile"),  # yellow missing
    ({"black": -1, "green": 0, "orange": 0, "purple": 0, "red": 0, "yellow": 0}, "pile"),
]


@pytest.mark.parametrize(("message", "name"), BAD_SAMPLES)
def test_bad_messages_are_rejected(message: dict[str, Any], name: str | None) -> None:
    assert errors(message, name) != []


def test_decide_with_a_broken_view_is_rejected() -> None:
    message = sample_decides(5)[0]
    del message["view"]["hand"]["red"]
    assert errors(message) != []
    message = sample_decides(5)[0]
    message["view"]["players"][0]["river"] = ["red", "red"]
    assert errors(message) != []
    message = sample_decides(5)[0]
    message["legal_moves"] = []
    assert errors(message) != []
