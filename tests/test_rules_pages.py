"""Issue 46, point 7: the rules pages say what the engine does: what a Takenoko seat's view
keeps (T27), the gardener growing an adjacent Kami's Garden (T18), where the page follows the
published rule rather than a player aid (T33), and Flowers' shared ranks counted from 0 as
the result's `ranks` are (F26). Each page's words are checked beside the engine."""

from __future__ import annotations

import re
from pathlib import Path

from arena.games.flowers.ends import ranks
from arena.games.takenoko.board import Board
from arena.games.takenoko.components import GREEN, PINK, PLOTS, TILES, YELLOW
from arena.games.takenoko.hexes import Cell
from tests.test_takenoko_returns import draw_plots, end_turn, new

ROOT = Path(__file__).resolve().parent.parent
TAKENOKO = " ".join((ROOT / "docs" / "rules" / "takenoko.md").read_text(encoding="utf-8").split())
RULINGS = " ".join(
    (ROOT / "arena" / "games" / "takenoko" / "RULINGS.md").read_text(encoding="utf-8").split()
)
FLOWERS = " ".join((ROOT / "docs" / "rules" / "flowers.md").read_text(encoding="utf-8").split())


def put(board: Board, cell: Cell, tile: str) -> None:
    data = TILES[tile]
    board.place(cell, data.colour, data.improvement, tile, data.kind)


def test_t27_the_page_says_a_returned_plot_leaves_the_view_as_the_engine_does() -> None:
    assert "remembers nothing loses nothing" not in TAKENOKO
    assert "stays in your view only until it leaves the deck" in TAKENOKO
    assert "must remember it itself" in TAKENOKO
    state = new(2)
    kept, first, second, extra = state.plot_deck = state.plot_deck[:4]
    assert sorted(draw_plots(state, keep=kept)) == sorted([first, second])
    state.apply_move({"action": "return", "order": [first, second]})
    end_turn(state)
    assert state.view(0)["returned_plots"] == [first, second]
    draw_plots(state, keep=extra)  # seat 1 draws them: seat 0's view drops them
    assert state.view(0)["returned_plots"] == []


def test_t18_the_page_says_the_gardener_grows_an_adjacent_irrigated_kamis_stack() -> None:
    assert (
        "an irrigated Kami's Garden next to it, whose stack of that colour grows (T18)" in TAKENOKO
    )
    assert "the gardener stopping on a plot next to it grows its stack of the plot's colour, if it is irrigated" in TAKENOKO  # fmt: skip
    board = Board()
    green = [p.id for p in PLOTS if p.colour == GREEN and p.improvement is None]
    put(board, (1, 0), green[0])
    put(board, (1, -1), green[1])
    put(board, (2, -1), "CX2")  # Kami's Garden, away from the pond: not irrigated
    kami = board.tiles[(2, -1)]
    board.move_gardener((1, 0))
    assert kami.stacks == {GREEN: 0, YELLOW: 0, PINK: 0}  # not irrigated: nothing grows
    board.place_channel(frozenset({(1, 0), (1, -1)}))  # from the pond's corner
    board.place_channel(frozenset({(1, 0), (2, -1)}))
    assert kami.stacks == {GREEN: 1, YELLOW: 1, PINK: 1}  # its first irrigation
    board.move_gardener((0, 0))
    board.move_gardener((1, 0))  # the gardener stops on a green plot next to it
    assert kami.stacks == {GREEN: 2, YELLOW: 1, PINK: 1}


def test_t33_the_published_rule_is_a_ruling_the_page_cites() -> None:
    ruling = RULINGS[RULINGS.index("**T33") :]
    assert "go under the plot deck" in ruling and "keep one of the cards shown or none" in ruling
    assert "**T33 The published rule, not a player aid's summary.**" in TAKENOKO
    assert "put the others under the deck (T9, T33)" in TAKENOKO
    assert "you may keep one if your hand has room, or none (T15, T29, T33)" in TAKENOKO
    state = new(2)
    size = len(state.plot_deck)
    kept, *returned = state.plot_deck[:3]
    draw_plots(state, keep=kept)
    state.apply_move({"action": "return", "order": returned})
    assert len(state.plot_deck) == size - 1 and state.plot_deck[-2:] == returned  # T33: no discard


def test_f26_the_shared_rank_on_the_page_counts_from_0_as_the_result_does() -> None:
    f26 = FLOWERS[FLOWERS.index("**F26") : FLOWERS.index("**F27")]
    assert "(1, 1, 3)" not in f26
    example = re.search(
        r"scores (\d+), (\d+), (\d+) with equal hands rank \((\d), (\d), (\d)\)", f26
    )
    assert example, f26
    scores = tuple(int(n) for n in example.groups()[:3])
    assert ranks(scores, (4, 4, 4)) == tuple(int(n) for n in example.groups()[3:]) == (0, 0, 2)
