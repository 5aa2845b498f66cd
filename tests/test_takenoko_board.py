"""Takenoko's board mechanics (TAKENOKO.md §5), each rule and ruling by name."""

from __future__ import annotations

import pytest

from arena.games.takenoko.board import Board
from arena.games.takenoko.components import ENCLOSURE, FERTILIZER, GREEN, PINK, WATERSHED, YELLOW
from arena.games.takenoko.hexes import POND, neighbours


def test_5_1_a_plot_goes_next_to_the_pond_or_next_to_two_tiles() -> None:
    board = Board()
    assert board.placements() == sorted(neighbours(POND))
    board.place((1, 0), GREEN)
    # (2, -1), (2, 0) and (1, 1) touch one tile only and not the pond
    assert board.placements() == sorted(set(neighbours(POND)) - {(1, 0)})
    with pytest.raises(ValueError, match="not a legal place"):
        board.place((2, 0), GREEN)


def test_5_1_two_tiles_make_a_cell_legal() -> None:
    board = Board()
    board.place((1, 0), GREEN)
    board.place((1, -1), GREEN)
    assert (2, -1) in board.placements()  # next to (1, 0) and (1, -1)
    assert (2, 0) not in board.placements()  # next to (1, 0) only


def test_5_2_5_3_a_plot_next_to_the_pond_is_irrigated_and_grows_once() -> None:
    board = Board()
    assert board.place((1, 0), GREEN) == [(1, 0)]
    assert board.tiles[(1, 0)].irrigated and board.tiles[(1, 0)].height == 1
    assert board.irrigate() == []  # the first growth comes once
    assert board.tiles[(1, 0)].height == 1


def test_5_2_t10_channels_need_two_plots_and_a_wet_endpoint() -> None:
    board = Board()
    for cell in ((1, 0), (1, -1), (2, -1)):
        board.place(cell, YELLOW)
    assert not board.tiles[(2, -1)].height and not board.tiles[(2, -1)].irrigated
    places = board.channel_places()
    assert frozenset({POND, (1, 0)}) not in places  # never on a pond's edge
    assert frozenset({(1, 0), (1, -1)}) in places  # its endpoint {pond, (1,0), (1,-1)} is wet
    # (1,-1)-(2,-1): endpoints {(1,-1),(2,-1),(1,0)} and {(1,-1),(2,-1),(2,-2)}: neither wet yet
    assert frozenset({(1, -1), (2, -1)}) not in places
    board.place_channel(frozenset({(1, 0), (1, -1)}))
    assert frozenset({(1, -1), (2, -1)}) in board.channel_places()  # a channel's end is wet
    grown = board.place_channel(frozenset({(1, -1), (2, -1)}))
    assert grown == [(2, -1)] and board.tiles[(2, -1)].height == 1  # first irrigation


def test_5_2_t10_a_watershed_irrigates_its_plot_but_is_no_channel_source() -> None:
    board = Board()
    board.place((1, 0), GREEN)
    board.place((1, -1), GREEN)
    board.place((2, -1), PINK, WATERSHED)
    assert board.tiles[(2, -1)].irrigated and board.tiles[(2, -1)].height == 1
    board.place((2, -2), PINK)  # next to (1, -1) and (2, -1); no pond, no channel
    assert not board.tiles[(2, -2)].irrigated
    # the edge (2,-1)-(2,-2) ends at {(2,-1), (2,-2), (3,-2)} and {(2,-1), (2,-2), (1,-1)}:
    # no pond and no channel there, so the watershed does not make it wet (T10)
    assert frozenset({(2, -1), (2, -2)}) not in board.channel_places()


def test_5_3_t5_fertilizer_doubles_growth_and_4_is_the_cap() -> None:
    board = Board()
    board.place((1, 0), GREEN, FERTILIZER)
    assert board.tiles[(1, 0)].height == 2  # first irrigation, doubled (T5)
    board.grow((1, 0))
    assert board.tiles[(1, 0)].height == 4
    board.grow((1, 0))
    assert board.tiles[(1, 0)].height == 4  # never above 4


def test_5_3_the_gardener_grows_its_plot_and_irrigated_neighbours_of_its_colour() -> None:
    board = Board()
    board.place((1, 0), GREEN)  # irrigated (pond)
    board.place((1, -1), GREEN)  # irrigated (pond)
    board.place((0, -1), PINK)  # irrigated, other colour
    board.place((2, -1), GREEN)  # not irrigated
    grown = board.move_gardener((1, 0))
    assert grown == [(1, 0), (1, -1)]
    assert board.tiles[(1, 0)].height == 2 and board.tiles[(1, -1)].height == 2
    assert board.tiles[(0, -1)].height == 1 and board.tiles[(2, -1)].height == 0
    assert board.move_gardener(POND) == []  # nothing grows on a pond


def test_5_4_t6_chips_go_on_bare_plots_without_an_improvement() -> None:
    board = Board()
    board.place((1, 0), GREEN)  # grew to 1 at once: no chip any more
    board.place((1, -1), GREEN)
    board.place((2, -1), YELLOW)  # not irrigated: bare
    assert board.chip_places() == [(2, -1)]
    grown = board.place_chip((2, -1), WATERSHED)
    assert grown == [(2, -1)] and board.tiles[(2, -1)].height == 1
    with pytest.raises(ValueError, match="chip cannot go"):
        board.place_chip((1, 0), FERTILIZER)


def test_5_5_t7_straight_lines_over_tiles_without_gaps_ponds_included() -> None:
    board = Board()
    board.place((1, 0), GREEN)
    board.place((-1, 0), GREEN)
    board.place((1, -1), GREEN)
    board.place((2, -1), GREEN)
    # from (1, 0): NE to (2, -1), NW to (1, -1), W over the pond to (-1, 0)
    assert board.destinations((1, 0)) == sorted([(2, -1), (1, -1), POND, (-1, 0)])
    assert (3, -1) not in board.destinations(POND)  # no tile there
    with pytest.raises(ValueError, match="straight line"):
        board.move_gardener((2, -1))  # not in a straight line from the pond


def test_5_6_the_panda_can_eat_one_colour_unless_enclosed() -> None:
    board = Board()
    board.place((1, 0), GREEN)
    board.place((-1, 0), PINK, ENCLOSURE)
    board.move_panda((1, 0))
    assert board.panda == (1, 0) and board.tiles[(1, 0)].height == 1  # moving eats nothing
    assert board.edible((1, 0)) == [GREEN] and board.edible((-1, 0)) == []
    assert board.eat((1, 0), GREEN) == GREEN and board.edible((1, 0)) == []
    assert board.edible(POND) == []
