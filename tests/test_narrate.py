"""`arena replay`'s account names what the engine did by itself: forced claims (R8) and passes (R11)."""

from __future__ import annotations

import random
from typing import Any

from arena import narration
from arena.game_sources import get_game
from arena.record import RECORD_VERSION


def narrate(record: dict[str, Any]) -> list[str]:
    return narration.narrate(get_game(record["game"]), record)


def random_record(seed: int) -> dict[str, Any]:
    state = get_game("mandala").new_state(seed)
    rng = random.Random(seed)
    moves = []
    while (decision := state.decision()) is not None:
        action = rng.choice(state.legal_actions())
        moves.append(
            {"seat": decision.seat, "kind": decision.kind, "move": state.action_to_move(action)}
        )
        state.apply_action(action)
    return {
        "record_version": RECORD_VERSION,
        "game": "mandala",
        "config": {},
        "seed": seed,
        "players": ["a", "b"],
        "moves": moves,
        "outcome": state.outcome().to_json(),
    }


def test_the_last_colour_of_a_mountain_is_told_as_a_claim_without_choice() -> None:
    forced = [
        line for seed in range(20) for line in narrate(random_record(seed)) if "no choice" in line
    ]
    assert forced, "twenty random games always have a forced last claim"
    assert all(line.lstrip().startswith("claim from Mandala") for line in forced)


def test_every_recorded_claim_is_told_once_and_forced_ones_are_marked() -> None:
    record = random_record(3)
    lines = narrate(record)
    chosen = [line for line in lines if "claim from" in line and "no choice" not in line]
    assert len(chosen) == sum(1 for move in record["moves"] if move["kind"] == "claim")


def test_the_narration_shows_the_scores_as_they_change() -> None:
    """Issue 13: a line with every seat's score after each move that changed one."""
    state = get_game("flowers").new_state(3, num_players=3)
    rng = random.Random(3)
    moves = []
    while (decision := state.decision()) is not None:
        action = rng.choice(state.legal_actions())
        moves.append({"seat": decision.seat, "kind": decision.kind,
                      "move": state.action_to_move(action)})  # fmt: skip
        state.apply_action(action)
    record = {"game": "flowers", "seed": 3, "players": ["a", "b", "c"], "moves": moves,
              "outcome": state.outcome().to_json(), "game_id": "n1"}  # fmt: skip
    lines = narrate(record)
    told = [line for line in lines if "scores now:" in line]
    assert told and told[-1].endswith(" / ".join(map(str, state.scores())))
