"""Invariants of Takenoko's engine over seeded random games of 2, 3 and 4 seats.

After every move: the 27 plots (deck, drawn, board), the 45 objective cards (decks, hands,
completed) and the 20 channels (supply, reserves, board) are all somewhere, exactly once;
bamboo stays within 0..4 and only on irrigated plots; hands hold at most 5 cards; stomachs
and supplies never go negative. Every game ends, and its record replays.
"""

from __future__ import annotations

import random

import pytest

from arena.games import get_game
from arena.games.takenoko.components import CHANNELS, PLOTS
from arena.games.takenoko.state import DECK_CARDS, TakenokoState
from arena.record import replay

GAMES_PER_SIZE = 12


def check(state: TakenokoState) -> None:
    on_board = sum(1 for tile in state.board.tiles.values() if not tile.is_pond)
    assert len(state.plot_deck) + len(state.drawn) + on_board == len(PLOTS)
    assert len(set(state.plot_deck) | set(state.drawn)) == len(state.plot_deck) + len(state.drawn)
    cards = [c for deck in state.decks.values() for c in deck]
    cards += [c for hand in state.hands for c in hand] + [c for done in state.done for c in done]
    assert sorted(cards) == sorted(c for ids in DECK_CARDS.values() for c in ids)
    channels = state.channel_supply + sum(state.reserve_channels) + len(state.board.channels)
    assert channels == CHANNELS
    for tile in state.board.tiles.values():
        assert 0 <= tile.height <= 4
        assert tile.height == 0 or tile.irrigated
    assert all(len(hand) <= 5 for hand in state.hands)
    assert all(n >= 0 for stomach in state.stomachs for n in stomach.values())
    assert all(n >= 0 for n in state.chip_supply.values())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_hold_in_random_games_and_records_replay(players: int) -> None:
    for seed in range(GAMES_PER_SIZE):
        state = get_game("takenoko").new_state(seed, num_players=players)
        assert isinstance(state, TakenokoState)
        rng = random.Random(seed)
        moves = []
        check(state)
        while (decision := state.decision()) is not None:
            move = rng.choice(state.legal_moves())
            moves.append({"seat": decision.seat, "kind": decision.kind, "move": move})
            state.apply_move(move)
            check(state)
        record = {"game": "takenoko", "seed": seed, "config": {}, "moves": moves,
                  "players": [f"p{n}" for n in range(players)],
                  "outcome": state.outcome().to_json()}  # fmt: skip
        assert replay(record).spectator_view() == state.spectator_view()
