"""Invariants of Takenoko's engine over seeded random games of 2, 3 and 4 seats, in the base
game, with the Chibis option (§8) and with BGA's redraw rule (T11).

After every move: the plot deck's tiles (27, or 33 with Chibis: deck, drawn, board), the 45
objective cards (decks, hands, completed, the Cabin's), the 20 channels (supply, reserves,
board), the 9 chips (supply, reserves, chips on the board) and the 9 babies (pool, players)
are all somewhere, exactly once; bamboo stays within 0..4 and only on irrigated plots
(Kami's Garden: each stack); hands hold at most 5 cards; stomachs and supplies never go
negative; the sections a move takes off the board are exactly those it adds to the active
seat's stomach (§5.6); the board's memos agree with the position worked out afresh. Every few moves, no seat's view names a card or plot it has not seen (§7). Every
game ends, and its record replays to the same position.

`make soak` plays 1,000 games per option set instead of the 40 here
(ARENA_SOAK_GAMES=N sets any number).
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from typing import Any

import pytest

from arena.game_sources import get_game
from arena.games.takenoko import legal
from arena.games.takenoko.cards import DECK_CARDS
from arena.games.takenoko.components import (
    BABIES,
    CHANNELS,
    CHIBIS_TILES,
    CHIPS,
    PLOTS,
    TILES,
)
from arena.games.takenoko.state import TakenokoState
from arena.record import replay

GAMES = int(os.environ.get("ARENA_SOAK_GAMES", "40"))
"""Games per option set (base, Chibis, redraw), over 2, 3 and 4 seats in turn."""
OPTIONS: dict[str, dict[str, Any]] = {
    "base": {},
    "chibis": {"chibis": True},
    "redraw": {"redraw_met_objectives": True},
}


def check(state: TakenokoState) -> None:
    tiles = PLOTS + (CHIBIS_TILES if state.chibis else ())
    on_board = [tile.plot for tile in state.board.tiles.values() if tile.plot is not None]
    assert sorted(state.plot_deck + state.drawn + on_board) == sorted(t.id for t in tiles)
    cards = [c for deck in state.decks.values() for c in deck] + state.cabin
    cards += [c for hand in state.hands for c in hand] + [c for done in state.done for c in done]
    assert sorted(cards) == sorted(c for ids in DECK_CARDS.values() for c in ids)
    channels = state.channel_supply + sum(state.reserve_channels) + len(state.board.channels)
    assert channels == CHANNELS
    chips = [
        tile.improvement
        for tile in state.board.tiles.values()
        if tile.improvement is not None and TILES[str(tile.plot)].improvement is None
    ]
    for kind, count in CHIPS.items():
        held = sum(reserve[kind] for reserve in state.reserve_chips)
        assert state.chip_supply[kind] + held + chips.count(kind) == count
    babies = state.baby_pool + [baby for held in state.babies for baby in held]
    assert sorted(babies) == (sorted(BABIES) if state.chibis else [])
    for tile in state.board.tiles.values():
        for height in [tile.height] if tile.stacks is None else list(tile.stacks.values()):
            assert 0 <= height <= 4
            assert height == 0 or tile.irrigated
    figures = [state.board.gardener, state.board.panda]
    figures += [] if state.board.miss_panda is None else [state.board.miss_panda]
    assert all(cell in state.board.tiles for cell in figures)
    assert all(len(hand) <= 5 for hand in state.hands)
    assert all(n >= 0 for stomach in state.stomachs for n in stomach.values())
    assert all(n >= 0 for n in state.chip_supply.values())


def check_hidden(state: TakenokoState) -> None:
    """§7: a seat's view names no card of another hand, no card or plot in a deck that it
    did not put there itself, and no plot drawn or card seen by another seat."""
    for seat in range(state.num_players):
        shown = json.dumps(state.view(seat))
        mine = set(state.returned[seat])
        hidden = {c for s, hand in enumerate(state.hands) if s != seat for c in hand}
        hidden |= {c for deck in state.decks.values() for c in deck if c not in mine}
        hidden |= {p for p in state.plot_deck if p not in mine}
        if seat != state.current:
            hidden |= set(state.drawn) | set(state.cabin)
        assert not [card for card in hidden if f'"{card}"' in shown], seat


def bamboo(state: TakenokoState) -> tuple[Counter[tuple[Any, str]], Counter[tuple[int, str]]]:
    """The sections on the board by (cell, colour), and in stomachs by (seat, colour)."""
    board: Counter[tuple[Any, str]] = Counter()
    for cell, tile in state.board.tiles.items():
        for colour, height in tile.heights.items():
            board[cell, colour] += height
    stomachs: Counter[tuple[int, str]] = Counter()
    for seat, stomach in enumerate(state.stomachs):
        for colour, count in stomach.items():
            stomachs[seat, colour] += count
    return board, stomachs


def check_eating(state: TakenokoState, before: Any, seat: int) -> None:
    """§5.6 (issue 21): the sections a move takes off the board are exactly the sections
    added to the active seat's stomach, colour by colour (bamboo is unlimited, T2, so the
    flow is counted, not a total)."""
    board, stomachs = bamboo(state)
    eaten: Counter[str] = Counter()
    for (_, colour), count in (before[0] - board).items():
        eaten[colour] += count
    fed: Counter[str] = Counter()
    for (who, colour), count in (stomachs - before[1]).items():
        assert who == seat, "a seat other than the active one was fed"
        fed[colour] += count
    assert eaten == fed


def check_memo(state: TakenokoState) -> None:
    """The board's memos (placements, channels, chips, the garden, which cards hold) agree
    with the same position worked out afresh: no change to a tile leaves one stale."""
    fresh = state.copy()  # a copied board starts with empty memos
    fresh._legal = fresh._index = None
    assert fresh.legal_moves() == state.legal_moves()
    for seat in range(state.num_players):
        for card in state.hands[seat]:
            assert legal.holds(state, card, seat) == state.met(card, seat), card


def play_out(seed: int, players: int, config: dict[str, Any]) -> None:
    state = get_game("takenoko").new_state(seed, config, num_players=players)
    assert isinstance(state, TakenokoState)
    rng = random.Random(seed)
    moves = []
    check(state)
    while (decision := state.decision()) is not None:
        move = rng.choice(state.legal_moves())
        moves.append({"seat": decision.seat, "kind": decision.kind, "move": move})
        before, active = bamboo(state), state.current
        state.apply_move(move)
        check(state)
        check_eating(state, before, active)
        check_memo(state)
        if len(moves) % 25 == 0:
            check_hidden(state)
    assert state.is_over() and state.turns <= state.max_rounds * players
    record = {"game": "takenoko", "seed": seed, "config": config, "moves": moves,
              "players": [f"p{n}" for n in range(players)],
              "outcome": state.outcome().to_json()}  # fmt: skip
    assert replay(record).spectator_view() == state.spectator_view()


@pytest.mark.parametrize("options", sorted(OPTIONS))
def test_invariants_hold_in_random_games_and_records_replay(options: str) -> None:
    for seed in range(GAMES):
        play_out(seed, 2 + seed % 3, OPTIONS[options])
