"""Invariants of the Flowers engine over thousands of seeded random games, 2 to 4 seats.

After every move: all 90 cards (F2) and all 36 tiles (F3) are somewhere, exactly once; no
hand is empty (F10) and known cards are in it (F27); each colour is
face up at most once per Mandala (F9); the marker holder has a face-up card and at least
as many cards as any other qualified player there (F13); a seat's view holds nothing it may
not see: dealing its hidden cards again changes nothing in it (F27). Every game ends with
one of its own ends, and its record replays to the identical state.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from flowers_positions import card_total, tile_total

from arena.game_sources import get_game
from arena.games.flowers.determinize import redeal
from arena.games.flowers.state import FlowersState
from arena.outcome import Termination
from arena.record import replay

GAMES = 700
"""Games per table size: 2,100 in all."""
ENDS = {"third_flower", "no_tiles", "stalled"}


def check_invariants(state: FlowersState) -> None:
    """The state invariants; cheap enough to run after every move."""
    assert card_total(state) == [15] * 6
    assert tile_total(state) == list(range(36))
    n = state.num_players
    for seat in range(n):
        assert state.hand_sizes[seat] == sum(state.hands[seat]) >= 1
        assert all(0 <= k <= h for k, h in zip(state.known[seat], state.hands[seat], strict=True))
        assert len(state.flowers[seat]) <= 9
    for m in range(3):
        base = m * n
        holder = state.marker[m]
        colours_up = [0] * 6
        for seat in range(n):
            side = (base + seat) * 6
            for c in range(6):
                colours_up[c] += state.up[side + c] > 0
            assert state.ups[base + seat] == sum(state.up[side : side + 6])
        assert max(colours_up) <= 1  # F9: one side, one batch per colour
        if holder >= 0:
            assert state.ups[base + holder] > 0
            mine = state.counts[base + holder]
            assert all(state.counts[base + s] <= mine for s in range(n) if state.ups[base + s])
    assert state.turns <= state.turn_limit
    assert (state.decision() is None) == state.over


def play_random_game(seed: int, players: int) -> tuple[FlowersState, dict[str, Any]]:
    """A uniformly random game from `seed`, invariants checked after every move."""
    state = get_game("flowers").new_state(seed, num_players=players)
    rng = random.Random(seed ^ 0x5EED)
    moves = []
    check_invariants(state)
    while not state.over:
        decision = state.decision()
        assert decision is not None
        actions = state.legal_actions()
        assert actions, "a decision is only asked for when there is a legal action (F10)"
        if seed % 50 == 0:  # F27: a view must not change when the hidden cards are dealt again
            view = state.view(decision.seat)
            other = state.copy()
            redeal(other, decision.seat, rng)
            assert other.view(decision.seat) == view
        action = actions[rng.randrange(len(actions))]
        moves.append(
            {"seat": decision.seat, "kind": decision.kind, "move": state.action_to_move(action)}
        )
        state.apply_action(action)
        check_invariants(state)
    record = {
        "record_version": 1,
        "game": "flowers",
        "config": {},
        "seed": seed,
        "game_id": f"inv{seed}",
        "players": [f"random{s}" for s in range(players)],
        "moves": moves,
        "outcome": state.outcome().to_json(),
    }
    return state, record


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_hold_in_random_games_and_every_record_replays(players: int) -> None:
    seen: dict[str, int] = {}
    for seed in range(GAMES):
        final, record = play_random_game(seed, players)
        outcome = final.outcome()
        assert outcome.termination is Termination.NORMAL and outcome.end in ENDS
        seen[str(outcome.end)] = seen.get(str(outcome.end), 0) + 1
        if seed % 4 == 0:
            record = json.loads(json.dumps(record))
        if seed % 2 == 0 or outcome.end != "third_flower":
            again = replay(record)
            assert again.is_over()
            assert again.spectator_view() == final.spectator_view()
            assert again.outcome() == outcome
    assert seen.get("third_flower", 0) > GAMES * 0.9, seen
