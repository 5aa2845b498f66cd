"""What a seat of Takenoko sees (TAKENOKO.md §7, perfect recall) and what a spectator sees."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.games.base import View

if TYPE_CHECKING:
    from arena.games.takenoko.state import TakenokoState


def _board(state: TakenokoState) -> View:
    board = state.board
    return {
        "tiles": [
            {
                "at": [q, r],
                "kind": "pond" if tile.is_pond else "plot",
                "plot": tile.plot,
                "colour": tile.colour,
                "improvement": tile.improvement,
                "bamboo": tile.height,
                "irrigated": tile.irrigated,
            }
            for (q, r), tile in sorted(board.tiles.items())
        ],
        "channels": sorted([sorted([list(c) for c in edge]) for edge in board.channels]),
        "gardener": list(board.gardener),
        "panda": list(board.panda),
    }


def _public(state: TakenokoState) -> View:
    decision = state.decision()
    return {
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
        "chip_supply": dict(state.chip_supply),
        "channel_supply": state.channel_supply,
        "players": [
            {
                "hand_size": len(state.hands[seat]),
                "completed": list(state.done[seat]),
                "stomach": dict(state.stomachs[seat]),
                "channels": state.reserve_channels[seat],
                "chips": dict(state.reserve_chips[seat]),
                "score": state.score(seat),
            }
            for seat in range(state.num_players)
        ],
        "emperor": state.emperor,
        "final_turns": state.final_turns,
        "end": state.end,
    }


def view(state: TakenokoState, seat: int) -> View:
    """Everything public, this seat's hand, the plots it drew now (a plot decision) and the
    plots it put under the deck that are still there, in deck order."""
    whole = {"seat": seat, **_public(state), "hand": list(state.hands[seat])}
    whole["drawn"] = list(state.drawn) if seat == state.current else []
    mine = set(state.returned[seat])
    whole["returned_plots"] = [plot for plot in state.plot_deck if plot in mine]
    return whole


def spectator_view(state: TakenokoState) -> View:
    """Everything: every hand, the drawn plots, the order of every deck."""
    whole = _public(state)
    whole["hands"] = [list(hand) for hand in state.hands]
    whole["drawn"] = list(state.drawn)
    whole["decks"] = {
        "plots": list(state.plot_deck),
        **{d: list(c) for d, c in state.decks.items()},
    }
    return whole
