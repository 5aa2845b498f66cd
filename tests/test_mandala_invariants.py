"""Invariants of the Mandala engine over thousands of seeded random games.

After every move: all 108 cards are somewhere (R1), no hand above 8 (R5), no colour in two
areas of one Mandala (Rule of Color), River colours distinct and at most 6. Every game ends
with one of the game's own terminations, and its record replays to the identical state.
"""

from __future__ import annotations

import json
import random
from typing import Any

from arena.game_sources import get_game
from arena.games.mandala.state import MandalaState
from arena.outcome import Termination
from arena.record import replay

GAMES = 2000
SHORT_LIMIT_EVERY = 10  # every 10th game runs with a small turn limit (R12)
ENDS = {
    (Termination.NORMAL, "deck_exhausted"),
    (Termination.NORMAL, "sixth_river_colour"),
    (Termination.NORMAL, "stalled"),  # R15, R16: rare
    (Termination.TURN_LIMIT, None),
}


def check_invariants(state: MandalaState) -> None:
    """The state invariants; cheap enough to run after every move."""
    deck = state.deck
    total = [state.discard[c] + deck.count(c) for c in range(6)]
    for seat in (0, 1):
        hand = state.hands[seat]
        size = sum(hand)
        assert size == state.hand_sizes[seat] <= 8, (seat, hand, state.hand_sizes)
        assert min(hand) >= 0
        river = state.rivers[seat]
        assert len(river) == len(set(river)) <= 6, river
        for c in river:
            total[c] += 1
        setup, claimed = state.cup_setup[seat], state.cup_claimed[seat]
        for c in range(6):
            total[c] += hand[c] + setup[c] + claimed[c]
    for m in (0, 1):
        mountain, (field0, field1) = state.mountains[m], state.fields[m]
        for c in range(6):
            areas = (mountain[c] > 0) + (field0[c] > 0) + (field1[c] > 0)
            assert areas <= 1, f"colour {c} in {areas} areas of Mandala {m}"
            total[c] += mountain[c] + field0[c] + field1[c]
    assert total == [18] * 6, total
    assert min(state.discard) >= 0
    assert state.turns <= state.turn_limit
    assert (state.decision() is None) == state.over


def play_random_game(seed: int) -> tuple[MandalaState, dict[str, Any]]:
    """A uniformly random game from `seed`, invariants checked after every move."""
    config = {"turn_limit": 60} if seed % SHORT_LIMIT_EVERY == 0 else {}
    state = get_game("mandala").new_state(seed, config)
    assert isinstance(state, MandalaState)
    rng = random.Random(seed ^ 0x5EED)
    moves = []
    check_invariants(state)
    while not state.over:
        decision = state.decision()
        assert decision is not None
        actions = state.legal_actions()
        assert actions, "a decision is only asked for when there is a legal action (R11)"
        action = actions[rng.randrange(len(actions))]
        moves.append(
            {"seat": decision.seat, "kind": decision.kind, "move": state.action_to_move(action)}
        )
        state.apply_action(action)
        check_invariants(state)
    record = {
        "record_version": 1,
        "game": "mandala",
        "config": config,
        "seed": seed,
        "game_id": f"inv{seed}",
        "players": ["random", "random"],
        "moves": moves,
        "outcome": state.outcome().to_json(),
    }
    return state, record


def test_invariants_hold_in_2000_random_games_and_every_record_replays() -> None:
    seen: dict[tuple[Termination, str | None], int] = {}
    for seed in range(GAMES):
        final, record = play_random_game(seed)
        outcome = final.outcome()
        end = (outcome.termination, outcome.end)
        assert end in ENDS
        seen[end] = seen.get(end, 0) + 1
        if seed % SHORT_LIMIT_EVERY:
            assert outcome.termination is not Termination.TURN_LIMIT
        if seed % 4 == 0:  # a JSON round trip on a share of them; all of them replay
            record = json.loads(json.dumps(record))
        again = replay(record)
        assert again.is_over()
        assert again.view(0) == final.view(0) and again.view(1) == final.view(1)
        assert again.outcome() == outcome
        assert again.outcome().to_json() == record["outcome"]
    assert set(seen) >= ENDS - {(Termination.NORMAL, "stalled")}, seen  # each end happens
