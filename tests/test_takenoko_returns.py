"""Issue 37: what a seat of Takenoko remembers of the plots and cards it put under a deck (T27).

A seat's view lists what it returned while it stays in the deck; once a plot or card leaves
the deck it is forgotten by every seat, so another seat's later return of it (in that seat's
own order) shows nowhere but in that seat's view. Two states that differ only in one seat's
choice of return order give every other seat the same view.
"""

from __future__ import annotations

import random
from typing import Any

from arena.game_sources import get_game
from arena.games.takenoko.board import Board
from arena.games.takenoko.components import GREEN, PLOTS, TILES, WATERSHED
from arena.games.takenoko.hexes import Cell
from arena.games.takenoko.state import TakenokoState


def new(players: int, seed: int = 1, **config: Any) -> TakenokoState:
    state = get_game("takenoko").new_state(seed, config or None, num_players=players)
    assert isinstance(state, TakenokoState)
    return state


def actions(state: TakenokoState) -> set[str]:
    return {move["action"] for move in state.legal_moves()}


def end_turn(state: TakenokoState) -> None:
    """Take the actions still owed (IRRIGATION, then an objective from the first deck open),
    then end the turn."""
    while "end" not in actions(state):
        kind = "irrigation" if "irrigation" in actions(state) else "objective"
        state.apply_move({"action": kind})
        if state.pending is not None:
            state.apply_action(0)
    state.apply_move({"action": "end"})


def draw_plots(state: TakenokoState, keep: str) -> list[str]:
    """A PLOT action that keeps `keep` (first place offered, no chip): the plots to order."""
    state.apply_move({"action": "plot"})
    place = next(m for m in state.legal_moves() if m["plot"] == keep and m.get("chip") is None)
    state.apply_move(place)
    assert state.pending == "return"
    return [plot for plot in state.drawn]


def others_views(state: TakenokoState, seat: int) -> list[Any]:
    return [state.view(other) for other in range(state.num_players) if other != seat]


def test_t27_another_seats_return_order_leaves_every_other_view_the_same() -> None:
    """Seat 0 returns plots P and Q; seat 1 draws them and returns them in either order:
    seats 0 and 2 see the same in both games, and seat 0 no longer lists P and Q."""
    state = new(3)
    a, b, c, d = state.plot_deck[:4]
    state.plot_deck = [a, b, c, d]
    p, q = draw_plots(state, keep=a)
    state.apply_move({"action": "return", "order": [p, q]})
    assert state.view(0)["returned_plots"] == [p, q]
    end_turn(state)  # seat 0 ends its turn with P and Q still under the deck
    assert state.view(0)["returned_plots"] == [p, q] and state.plot_deck == [d, p, q]
    assert sorted(draw_plots(state, keep=d)) == sorted([p, q])  # seat 1 draws them
    games = [state.copy() for _ in range(2)]
    games[0].apply_move({"action": "return", "order": [p, q]})
    games[1].apply_move({"action": "return", "order": [q, p]})
    assert games[0].plot_deck == [p, q] and games[1].plot_deck == [q, p]
    assert others_views(games[0], 1) == others_views(games[1], 1)
    assert games[0].view(0)["returned_plots"] == []  # they left the deck: forgotten
    assert games[0].view(1)["returned_plots"] == [p, q]  # the returner's own choice
    assert games[1].view(1)["returned_plots"] == [q, p]


def put(board: Board, cell: Cell, tile: str, chip: str | None = None) -> None:
    data = TILES[tile]
    board.place(cell, data.colour, data.improvement or chip, tile, data.kind)


def test_t27_t32_a_card_another_seat_drew_and_put_back_is_gone_from_your_view() -> None:
    """T11's redraw: seat 0 draws PL03 (a green triangle, already on the board) and puts it
    under; seat 1 then draws it and puts it under too. Seat 0 forgot it when it left the
    deck: it does not see seat 1's card come back."""
    state = new(2, redraw_met_objectives=True)
    plains = [p.id for p in PLOTS if p.colour == GREEN and p.improvement is None]
    put(state.board, (1, 0), plains[0])
    put(state.board, (1, -1), plains[1])
    put(state.board, (2, -1), plains[2], chip=WATERSHED)  # a green triangle
    state.decks["plot"] = ["PL03"]
    state._legal = None
    state.apply_move({"action": "objective"})
    state.apply_move({"action": "draw", "deck": "plot"})  # met: back under the deck
    assert state.view(0)["returned_cards"]["plot"] == ["PL03"]
    end_turn(state)
    assert state.view(0)["returned_cards"]["plot"] == ["PL03"]  # still there, still known
    state.apply_move({"action": "objective"})
    state.apply_move({"action": "draw", "deck": "plot"})  # seat 1 draws it, puts it back
    assert state.decks["plot"] == ["PL03"] and state.current == 1
    assert state.view(1)["returned_cards"]["plot"] == ["PL03"]
    assert state.view(0)["returned_cards"]["plot"] == []


def test_t27_in_random_games_no_return_order_shows_in_another_seats_view() -> None:
    """At every `return` decision of seeded random games (2-4 seats, with and without the
    Chibis option), each order the returner may choose gives every other seat the same view;
    and what a seat's view lists as returned is always still under a deck."""
    checked = 0
    for seed in range(12):
        players = 2 + seed % 3
        state = new(players, seed, chibis=seed % 2 == 1)
        rng = random.Random(seed)
        while (decision := state.decision()) is not None and state.round <= 30:
            moves = state.legal_moves()
            if decision.kind == "return":
                branches = [state.copy() for _ in moves]
                for branch, move in zip(branches, moves, strict=True):
                    branch.apply_move(move)
                first = others_views(branches[0], decision.seat)
                assert all(others_views(b, decision.seat) == first for b in branches[1:])
                checked += 1
            state.apply_move(rng.choice(moves))
            under = set(state.plot_deck).union(*state.decks.values())
            assert all(set(known) <= under for known in state.returned)
    assert checked >= 100
