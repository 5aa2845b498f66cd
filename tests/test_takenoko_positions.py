"""The test positions 1-13 of TAKENOKO.md §11, each as the specification states it (14 and 15,
the Chibis positions, are in test_takenoko_chibis.py)."""

from __future__ import annotations

from typing import Any

import pytest

from arena.errors import IllegalMoveError
from arena.game_sources import get_game
from arena.games.takenoko.board import Board
from arena.games.takenoko.cards import OBJECTIVES
from arena.games.takenoko.components import (
    ENCLOSURE,
    FERTILIZER,
    GREEN,
    PINK,
    PLOT_OBJECTIVES,
    TILES,
    WATERSHED,
    YELLOW,
)
from arena.games.takenoko.hexes import POND, Cell
from arena.games.takenoko.objectives import (
    Garden,
    Tile,
    gardener_objective_met,
    plot_objective_met,
)
from arena.games.takenoko.state import TakenokoState

PL = {objective.id: objective for objective in PLOT_OBJECTIVES}


def new(players: int = 2, **config: Any) -> TakenokoState:
    state = get_game("takenoko").new_state(1, config or None, num_players=players)
    assert isinstance(state, TakenokoState)
    return state


def put(board: Board, cell: Cell, plot: str, chip: str | None = None) -> list[Cell]:
    tile = TILES[plot]
    return board.place(cell, tile.colour, tile.improvement or chip, plot, tile.kind)


def asked(state: TakenokoState, kind: str | None) -> TakenokoState:
    """The weather settled and `kind` the pending decision (None: the turn decision)."""
    state.rolled, state.pending, state._legal = True, kind, None
    return state


def actions(state: TakenokoState) -> set[str]:
    return {move["action"] for move in state.legal_moves()}


def test_position_1_a_triangle_under_rotation_needs_both_channels() -> None:
    board = Board()
    put(board, (1, 0), "PG01")
    put(board, (0, 1), "PG02")
    put(board, (1, 1), "PG03")
    assert frozenset({(1, 0), (0, 1)}) in board.channel_places()  # an endpoint on the pond
    board.place_channel(frozenset({(1, 0), (0, 1)}))
    assert not plot_objective_met(board.tiles, PL["PL03"])  # (1, 1) is not irrigated yet
    assert board.place_channel(frozenset({(0, 1), (1, 1)})) == [(1, 1)]
    assert board.tiles[(1, 1)].height == 1
    assert plot_objective_met(board.tiles, PL["PL03"])


def _wet(cells: dict[Cell, str]) -> dict[Cell, Tile]:
    return {cell: Tile(frozenset({colour}), True) for cell, colour in cells.items()}


def test_position_2_a_curve_against_a_line() -> None:
    line = _wet({(1, 0): YELLOW, (2, 0): YELLOW, (3, 0): YELLOW})
    assert plot_objective_met(line, PL["PL05"])
    assert not plot_objective_met(line, PL["PL06"]) and not plot_objective_met(line, PL["PL07"])
    curve = _wet({(1, 0): YELLOW, (2, 0): YELLOW, (3, -1): YELLOW})
    assert plot_objective_met(curve, PL["PL06"]) and not plot_objective_met(curve, PL["PL05"])
    assert plot_objective_met(_wet({(1, 0): YELLOW, (2, 0): YELLOW, (2, 1): YELLOW}), PL["PL06"])


def test_position_3_duo_handedness() -> None:
    duo = {(2, 0): GREEN, (3, 0): GREEN, (1, 1): YELLOW, (2, 1): YELLOW}
    assert plot_objective_met(_wet(duo), PL["PL13"])
    swapped = {cell: YELLOW if c == GREEN else GREEN for cell, c in duo.items()}
    assert plot_objective_met(_wet(swapped), PL["PL13"])  # a 180° turn
    mirror = {(2, 0): GREEN, (3, 0): GREEN, (2, 1): YELLOW, (3, 1): YELLOW}
    assert not plot_objective_met(_wet(mirror), PL["PL13"])


def test_position_4_fertilizer() -> None:
    state = new()
    put(state.board, (1, 0), "PY09")  # a printed fertilizer
    assert state.board.tiles[(1, 0)].height == 2
    state.board.move_gardener((1, 0))
    assert state.board.tiles[(1, 0)].height == 4
    asked(state, "rain")
    assert state.legal_moves() == [{"action": "skip"}]  # at 4: no rain offered
    state.board.tiles[(1, 0)].height = 3
    state.board.grow((1, 0))
    assert state.board.tiles[(1, 0)].height == 4


def test_position_5_gardener_neighbours() -> None:
    board = Board()
    put(board, (1, 0), "PG01")
    put(board, (1, -1), "PG02")
    put(board, (2, -1), "PG03")  # not irrigated
    put(board, (0, 1), "PY01")
    before = {cell: board.tiles[cell].height for cell in [(1, 0), (1, -1), (2, -1), (0, 1)]}
    board.move_gardener((1, 0))
    after = {cell: board.tiles[cell].height for cell in before}
    assert {cell: after[cell] - before[cell] for cell in before} == {
        (1, 0): 1, (1, -1): 1, (2, -1): 0, (0, 1): 0,
    }  # fmt: skip


def test_position_6_an_enclosure_and_bare_bamboo_feed_no_one() -> None:
    state = new()
    put(state.board, (1, 0), "PG09")  # a printed enclosure
    put(state.board, (0, 1), "PG01")
    state.board.tiles[(1, 0)].height = 2
    state.board.tiles[(0, 1)].height = 0
    asked(state, "panda")
    state.apply_move({"action": "move_panda", "to": [1, 0]})
    assert state.board.tiles[(1, 0)].height == 2 and sum(state.stomachs[0].values()) == 0
    state.board.panda = POND
    asked(state, "storm")
    state.apply_move({"action": "storm", "to": [1, 0]})
    assert state.board.tiles[(1, 0)].height == 2 and sum(state.stomachs[0].values()) == 0
    asked(state, "storm")
    state.apply_move({"action": "storm", "to": [0, 1]})
    assert sum(state.stomachs[0].values()) == 0


@pytest.mark.parametrize("with_chip", [True, False])
def test_position_7_a_chip_before_the_first_growth(with_chip: bool) -> None:
    state = new()
    state.reserve_chips[0][FERTILIZER] = 1
    state.plot_deck.remove("PP01")
    state.plot_deck.insert(0, "PP01")
    state.apply_move({"action": "plot"})
    chip = FERTILIZER if with_chip else None
    state.apply_move({"action": "place", "plot": "PP01", "to": [-1, 0], "chip": chip})
    assert state.board.tiles[(-1, 0)].height == (2 if with_chip else 1)
    assert (-1, 0) not in state.board.chip_places()  # it has bamboo, or a chip
    printed = Board()
    put(printed, (1, 0), "PG07")  # a printed watershed
    assert (1, 0) not in printed.chip_places()
    with pytest.raises(ValueError):
        printed.place_chip((1, 0), ENCLOSURE)


def _position_8() -> Board:
    board = Board()
    put(board, (1, 0), "PG01")
    put(board, (1, -1), "PG02")
    put(board, (2, -1), "PG03")
    put(board, (2, 0), "PG04")
    put(board, (3, -1), "PP05")  # a printed watershed
    assert TILES["PP05"].improvement == WATERSHED
    return board


def test_position_8_which_channels_are_legal() -> None:
    board = _position_8()
    places = board.channel_places()
    assert frozenset({POND, (1, 0)}) not in places  # a pond's edge
    assert frozenset({(1, -1), (1, -2)}) not in places  # an empty cell
    assert frozenset({(1, 0), (2, -1)}) not in places  # no wet endpoint yet
    assert frozenset({(2, -1), (3, -1)}) not in places  # a watershed is no source (T10)
    board.place_channel(frozenset({(1, 0), (1, -1)}))
    assert frozenset({(1, 0), (2, -1)}) in board.channel_places()
    assert board.place_channel(frozenset({(1, 0), (2, -1)})) == [(2, -1)]
    assert board.tiles[(2, -1)].height == 1


def test_position_9_the_first_growth_comes_once() -> None:
    board = _position_8()
    board.place_channel(frozenset({(1, 0), (1, -1)}))
    board.place_channel(frozenset({(1, 0), (2, -1)}))
    assert frozenset({(2, -1), (2, 0)}) in board.channel_places()
    assert board.place_channel(frozenset({(2, -1), (2, 0)})) == [(2, 0)]
    assert board.tiles[(2, 0)].height == 1 and board.tiles[(2, -1)].height == 1


def test_position_10_gardener_cards() -> None:
    state = new()
    put(state.board, (1, 0), "PY09")
    state.board.tiles[(1, 0)].height = 4
    assert state.met("GA06", 0) and not state.met("GA09", 0)
    board = Board()
    for cell, plot in [((1, 0), "PY01"), ((0, 1), "PY02"), ((-1, 1), "PY07")]:
        put(board, cell, plot)
    for cell, height in zip([(1, 0), (0, 1), (-1, 1)], [3, 3, 4], strict=True):
        board.tiles[cell].height = height
    ga10 = OBJECTIVES["GA10"]
    assert not gardener_objective_met(Garden(board.tiles), ga10)
    board.tiles[(-1, 1)].height = 3  # a watershed plot: GA10 ignores improvements
    assert gardener_objective_met(Garden(board.tiles), ga10)
    board.panda = (-1, 1)
    board.eat((-1, 1), YELLOW)  # the panda eats one of them
    assert not gardener_objective_met(board.tiles, ga10)


def test_position_11_weather_from_round_2_and_no_clouds_without_chips() -> None:
    state = new(3)
    for _ in range(3):  # turns 1-3: round 1, nobody rolls
        assert "roll" not in actions(state)
        _finish_turn(state)
    assert actions(state) >= {"roll"}  # turn 4 rolls
    state.chip_supply = dict.fromkeys(state.chip_supply, 0)
    state._weather("CLOUDS")
    state._legal = None
    assert [m["face"] for m in state.legal_moves()] == ["SUN", "RAIN", "WIND", "STORM"]
    state._weather("CHOICE")
    state._legal = None
    assert "CLOUDS" not in [m["face"] for m in state.legal_moves()]


def _finish_turn(state: TakenokoState) -> None:
    """Roll if due, take actions that need no position until END is offered (each
    sub-decision answered with its last move: `skip` where it has one), and end the turn."""
    if "roll" in actions(state):
        state.apply_move({"action": "roll"})
    while True:
        while state.pending is not None:
            state.apply_action(len(state.legal_moves()) - 1)
        if "end" in actions(state):
            break
        kinds = ("irrigation", "objective", "plot", "gardener", "panda")
        state.apply_move({"action": next(k for k in kinds if k in actions(state))})
    state.apply_move({"action": "end"})


def test_position_12_action_limits() -> None:
    state = new()
    put(state.board, (1, 0), "PG01")
    asked(state, None)
    state.apply_move({"action": "gardener"})
    state.apply_move({"action": "move_gardener", "to": [1, 0]})
    assert "gardener" not in actions(state)  # without WIND: two different kinds
    state.face, state._legal = "WIND", None
    assert "gardener" in actions(state)
    sunny = new()
    asked(sunny, None)
    sunny.face = "SUN"
    sunny.apply_move({"action": "plot"})
    sunny.apply_action(0)
    while sunny.pending is not None:
        sunny.apply_action(0)
    assert "plot" not in actions(sunny)  # SUN: three different kinds
    for kind in ("gardener", "panda"):
        assert kind in actions(sunny)
    full = new()
    full.hands[0] += ["GA14", "GA15"]
    full._legal = None
    assert len(full.hands[0]) == 5 and "objective" not in actions(full)
    panda = next(card for card in full.hands[0] if card.startswith("PA"))
    for colour in OBJECTIVES[panda].sections:
        full.stomachs[0][colour] += 1
    full.stomachs[0][PINK] += 1
    full._legal = None
    taken = list(full.taken)
    full.apply_move({"action": "complete", "card": panda})
    assert full.taken == taken  # no action used
    assert full.stomachs[0][PINK] == 1 and sum(full.stomachs[0].values()) == 1


def test_position_13_the_emperor_the_last_turns_and_the_tie_break() -> None:
    state = new(3)
    _finish_turn(state)  # seat 0
    state.done[1] = [f"GA{n:02d}" for n in range(1, 8)]
    card = next(c for c in state.hands[1] if c.startswith("PA"))
    for colour in OBJECTIVES[card].sections:
        state.stomachs[1][colour] += 1
    state._legal = None
    state.apply_move({"action": "complete", "card": card})  # seat 1's 8th card
    assert state.emperor == 1
    with pytest.raises(IllegalMoveError):  # a card is completed once
        state.apply_move({"action": "complete", "card": card})
    spare = next(c for c in state.decks["panda"] if OBJECTIVES[c].sections == (GREEN, GREEN))
    state.decks["panda"].remove(spare)
    state.hands[1].append(spare)
    state.stomachs[1][GREEN] += 2
    state._legal = None
    state.apply_move({"action": "complete", "card": spare})  # more cards in the same turn
    assert len(state.done[1]) == 9 and state.emperor == 1
    _finish_turn(state)  # seat 1 ends its turn
    state.done[2] = [f"PL{n:02d}" for n in range(1, 9)]  # seat 2 reaching 8 earns nothing
    _finish_turn(state)
    assert state.emperor == 1 and not state.is_over()
    _finish_turn(state)  # seat 0's last turn
    assert state.is_over() and state.end == "all_objectives"
    # 30 points each: seat 0 with 9 from panda cards, seat 1 with 6 (and the Emperor's 2)
    state.done = [["PA10", "PA06", "GA05", "GA14", "GA15"], ["PA13", "GA05", "GA14", "GA10"], []]
    assert state.scores() == (30, 30, 0)
    assert state.outcome().ranks == (0, 1, 2)
    state.done[1] = ["PA11", "PA07", "GA05", "GA04", "GA15"]  # 9 from panda cards too
    assert state.scores() == (30, 30, 0)
    assert state.outcome().ranks == (0, 0, 2)  # a shared first place
