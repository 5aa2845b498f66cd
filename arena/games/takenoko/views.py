"""What a seat of Takenoko sees (TAKENOKO.md §7, perfect recall) and what a spectator sees."""

from __future__ import annotations

from arena.games.base import View
from arena.games.takenoko.board import Placed
from arena.games.takenoko.hexes import Cell
from arena.games.takenoko.position import Position


def _tile(cell: Cell, tile: Placed) -> View:
    """One tile: Kami's Garden adds its `stacks` (its `bamboo` is their sum)."""
    shown: View = {
        "at": list(cell),
        "kind": tile.kind,
        "plot": tile.plot,
        "colour": tile.colour,
        "improvement": tile.improvement,
        "bamboo": tile.bamboo,
        "irrigated": tile.irrigated,
    }
    if tile.stacks is not None:
        shown["stacks"] = dict(tile.stacks)
    return shown


def _board(state: Position) -> View:
    """The board as every seat sees it. The tiles and channels are made once per version of
    the board (its memo) and shared by the views made from it: a view is read, never changed."""
    board = state.board
    return {
        "tiles": board.memo(
            "view_tiles", lambda: [_tile(cell, tile) for cell, tile in sorted(board.tiles.items())]
        ),
        "channels": board.memo(
            "view_channels",
            lambda: sorted([sorted([list(c) for c in edge]) for edge in board.channels]),
        ),
        "gardener": list(board.gardener),
        "panda": list(board.panda),
        "miss_panda": None if board.miss_panda is None else list(board.miss_panda),
    }


def _public(state: Position) -> View:
    decision = state.decision()
    return {
        "options": {
            "chibis": state.chibis,
            "redraw_met_objectives": state.redraw_met_objectives,
        },
        "turn": state.turns,
        "round": state.round,
        "to_move": state.current,
        "decision": decision.kind if decision else None,
        "deciding_seat": decision.seat if decision else None,
        "weather": state.face,
        "rolled": state.rolled,
        "actions_taken": list(state.taken),
        "actions_left": state.action_limit() - len(state.taken),
        "board": _board(state),
        "plot_deck": len(state.plot_deck),
        "objective_decks": {deck: len(cards) for deck, cards in state.decks.items()},
        "objective_refunds": dict(state.refunds),
        "chip_supply": dict(state.chip_supply),
        "channel_supply": state.channel_supply,
        "players": [
            {
                "hand_size": len(state.hands[seat]),
                "completed": list(state.done[seat]),
                "stomach": dict(state.stomachs[seat]),
                "channels": state.reserve_channels[seat],
                "chips": dict(state.reserve_chips[seat]),
                "babies": list(state.babies[seat]),
                "score": state.score(seat),
            }
            for seat in range(state.num_players)
        ],
        "baby_pool": list(state.baby_pool),
        "baby": state.baby,
        "emperor": state.emperor,
        "final_turns": state.final_turns,
        "end": state.end,
    }


def view(state: Position, seat: int) -> View:
    """Everything public, this seat's hand, what it sees now (the plots drawn, the cards at
    the Cabin), and the plots and cards it put under a deck that have not left it since, in
    deck order (T27)."""
    whole = {"seat": seat, **_public(state), "hand": list(state.hands[seat])}
    mover = seat == state.current
    whole["drawn"] = list(state.drawn) if mover else []
    whole["cabin"] = list(state.cabin) if mover else []
    mine = set(state.returned[seat])
    whole["returned_plots"] = [plot for plot in state.plot_deck if plot in mine]
    whole["returned_cards"] = {
        deck: [card for card in cards if card in mine] for deck, cards in state.decks.items()
    }
    return whole


def public_view(state: Position) -> View:
    """What every seat sees: the public part, and how many plots the seat to move drew and
    how many cards it looks at in the Cabin (not which: T9, T15)."""
    return {**_public(state), "drawn_count": len(state.drawn), "cabin_count": len(state.cabin)}


def spectator_view(state: Position) -> View:
    """Everything: every hand, the drawn plots, the order of every deck."""
    whole = _public(state)
    whole["hands"] = [list(hand) for hand in state.hands]
    whole["drawn"] = list(state.drawn)
    whole["cabin"] = list(state.cabin)
    whole["decks"] = {
        "plots": list(state.plot_deck),
        **{d: list(c) for d, c in state.decks.items()},
    }
    return whole
