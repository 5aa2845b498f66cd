"""The Chibis option of Takenoko (TAKENOKO.md §8, test positions 14 and 15, T15-T21) and BGA's
redraw rule (T11), each mechanic by name."""

from __future__ import annotations

from typing import Any

import pytest

from arena.game_sources import get_game
from arena.games.takenoko import legal
from arena.games.takenoko.board import Board
from arena.games.takenoko.components import (
    BABIES,
    CHIBIS_TILES,
    ENCLOSURE,
    FERTILIZER,
    GREEN,
    PINK,
    PLOTS,
    TILES,
    WATERSHED,
    YELLOW,
)
from arena.games.takenoko.hexes import Cell
from arena.games.takenoko.state import TakenokoState

CELESTIAL_POND, KAMI, GREEN_HILL, CABIN = "CX1", "CX2", "CX3", "CX6"


def new(players: int = 2, seed: int = 1, **config: Any) -> TakenokoState:
    state = get_game("takenoko").new_state(seed, {"chibis": True, **config}, num_players=players)
    assert isinstance(state, TakenokoState)
    return state


def put(board: Board, cell: Cell, tile: str, chip: str | None = None) -> list[Cell]:
    """Place a tile of the deck by id (a plot id or CX1-CX6) through the board's rules."""
    data = TILES[tile]
    return board.place(cell, data.colour, data.improvement or chip, tile, data.kind)


def plain(colour: str, n: int = 0) -> str:
    """The id of a plain plot (no printed improvement) of `colour`."""
    return [p.id for p in PLOTS if p.colour == colour and p.improvement is None][n]


def actions(state: TakenokoState) -> set[str]:
    return {move["action"] for move in state.legal_moves()}


def asked(state: TakenokoState, kind: str) -> TakenokoState:
    """Make `kind` the pending decision (a position set up by hand)."""
    state.rolled, state.pending, state._legal = True, kind, None
    return state


def test_3_chibis_adds_the_6_special_tiles_to_the_plot_deck() -> None:
    assert len(new().plot_deck) == len(PLOTS) + len(CHIBIS_TILES) == 33
    assert len(get_game("takenoko").new_state(1, num_players=2).plot_deck) == 27
    state = new()
    assert state.baby_pool == list(BABIES) and state.board.miss_panda is None


def test_position_14_the_celestial_pond_is_a_second_pond() -> None:
    board = Board()
    for cell in [(1, 0), (1, -1), (0, 1), (1, 1)]:
        put(board, cell, plain(GREEN))
    put(board, (2, 0), plain(YELLOW))
    assert not board.tiles[(2, 0)].irrigated and board.tiles[(2, 0)].height == 0
    assert put(board, (2, -1), CELESTIAL_POND) == [(2, 0)]  # (2, 0) now touches a pond
    assert board.tiles[(2, 0)].height == 1 and board.tiles[(2, -1)].is_pond
    assert (3, -2) in board.placements()  # its only neighbour would be the Celestial Pond
    put(board, (3, -2), plain(PINK))
    assert board.tiles[(3, -2)].height == 1
    put(board, (3, -1), plain(PINK, 1))
    put(board, (3, 0), plain(PINK, 2))
    assert not board.tiles[(3, 0)].irrigated
    places = board.channel_places()
    assert frozenset({(2, 0), (3, -1)}) in places  # wet through the Celestial Pond's corner
    assert frozenset({(2, -1), (3, -1)}) not in places  # a pond's edge
    assert frozenset({(2, 0), (3, 0)}) not in places
    board.place_channel(frozenset({(2, 0), (3, -1)}))
    assert board.place_channel(frozenset({(2, 0), (3, 0)})) == [(3, 0)]


def test_position_14_placing_a_special_tile_brings_miss_panda_and_no_baby_t21() -> None:
    state = new()
    state.stomachs[0][GREEN] = 1
    state.plot_deck = [CELESTIAL_POND, *state.plot_deck]
    state.apply_move({"action": "plot"})
    state.apply_move({"action": "place", "plot": CELESTIAL_POND, "to": [1, 0]})
    assert state.board.miss_panda == (1, 0)
    state.apply_move(state.legal_moves()[0])  # the order of the 2 returned
    assert state.pending is None and state.babies[0] == []


def test_position_15_miss_panda_meeting_the_panda_buys_a_baby_of_the_colour_paid() -> None:
    state = new()
    state.board = board = Board()
    put(board, (1, -1), KAMI)
    put(board, (1, 0), plain(PINK))
    board.miss_panda, board.panda = (1, -1), (1, 0)
    state.stomachs[0][YELLOW] = 1
    asked(state, "panda")
    assert {"action": "move_miss_panda", "to": [1, 0]} in state.legal_moves()
    state.apply_move({"action": "move_miss_panda", "to": [1, 0]})
    assert state.decision() is not None and state.decision().kind == "baby"  # type: ignore[union-attr]
    assert state.legal_moves() == [{"action": "baby", "colour": YELLOW}, {"action": "skip"}]
    before = state.score(0)
    state.apply_move({"action": "baby", "colour": YELLOW})
    assert state.stomachs[0][YELLOW] == 0
    assert len(state.babies[0]) == 1 and state.babies[0][0].startswith("BY-")
    assert state.babies[0][0] not in state.baby_pool and len(state.baby_pool) == 8
    assert state.score(0) == before + 2  # §7: 2 points a baby


def test_t16_the_panda_moving_onto_miss_panda_gives_no_baby() -> None:
    state = new()
    state.board = board = Board()
    put(board, (1, -1), CABIN)
    board.miss_panda = (1, -1)
    state.stomachs[0][YELLOW] = 1
    asked(state, "panda")
    state.apply_move({"action": "move_panda", "to": [1, -1]})
    assert state.pending is None and state.babies[0] == []


def test_8_a_storm_may_move_miss_panda_who_never_eats_and_meets_the_panda() -> None:
    state = new()
    state.board = board = Board()
    put(board, (1, 0), plain(GREEN))
    put(board, (0, 1), CABIN)
    board.miss_panda, board.panda = (0, 1), (1, 0)
    state.stomachs[0][GREEN] = 1
    asked(state, "storm")
    moves = state.legal_moves()
    assert {"action": "storm_miss_panda", "to": [0, 1]} not in moves  # not where she stands
    state.apply_move({"action": "storm_miss_panda", "to": [1, 0]})
    assert board.tiles[(1, 0)].height == 1 and state.stomachs[0][GREEN] == 1  # nobody ate
    assert state.pending == "baby"


def test_t16_no_baby_is_offered_without_a_section_of_a_colour_left_in_the_pool() -> None:
    state = new()
    state.board = board = Board()
    put(board, (1, 0), CABIN)
    board.miss_panda, board.panda = (0, 0), (1, 0)
    state.baby_pool = [b for b in state.baby_pool if not b.startswith("BG")]
    state.stomachs[0][GREEN] = 2
    asked(state, "panda")
    state.apply_move({"action": "move_miss_panda", "to": [1, 0]})
    assert state.pending is None


def test_8_the_baby_is_drawn_from_the_babies_stream() -> None:
    taken = []
    for _ in range(2):
        state = new(seed=5)
        state.stomachs[0][PINK] = 1
        state.board.miss_panda = (0, 0)
        asked(state, "baby")
        state.apply_move({"action": "baby", "colour": PINK})
        taken.append(state.babies[0][0])
    assert taken[0] == taken[1] and taken[0].startswith("BP-")


def _with_baby(state: TakenokoState, baby: str) -> TakenokoState:
    state.baby = baby
    state.baby_pool.remove(baby)
    state.babies[0].append(baby)
    return asked(state, "bonus")


def test_t17_the_irrigation_baby_places_a_channel_from_the_supply() -> None:
    state = new()
    put(state.board, (1, 0), plain(GREEN))
    put(state.board, (1, -1), plain(GREEN, 1))
    _with_baby(state, "BG-IRR")
    assert state.legal_moves() == [
        {"action": "baby_channel", "edge": [[1, -1], [1, 0]]},
        {"action": "skip"},
    ]
    state.apply_move(state.legal_moves()[0])
    assert state.channel_supply == 19 and state.reserve_channels[0] == 0
    assert len(state.board.channels) == 1 and state.baby is None and state.pending is None


def test_t17_the_improvement_baby_places_a_chip_or_with_none_left_moves_one() -> None:
    state = new()
    put(state.board, (1, 0), plain(GREEN))
    put(state.board, (-1, 0), "PG07")  # a printed watershed: never moved
    put(state.board, (0, -1), plain(GREEN, 1), chip=ENCLOSURE)
    state.board.tiles[(1, 0)].height = 0
    _with_baby(state, "BY-IMP")
    assert {"action": "baby_chip", "kind": FERTILIZER, "to": [1, 0]} in state.legal_moves()
    state.apply_move({"action": "baby_chip", "kind": FERTILIZER, "to": [1, 0]})
    assert state.board.tiles[(1, 0)].improvement == FERTILIZER
    assert state.chip_supply[FERTILIZER] == 2
    state.chip_supply = dict.fromkeys(state.chip_supply, 0)
    put(state.board, (-1, 1), plain(YELLOW))
    state.board.tiles[(-1, 1)].height = 0
    state.baby_pool.append("BY-IMP")
    state.babies[0].clear()
    _with_baby(state, "BY-IMP")
    moves = state.legal_moves()
    assert {"action": "baby_move_chip", "from": [0, -1], "to": [-1, 1]} in moves
    assert not any(m.get("from") == [-1, 0] for m in moves)  # printed: never moved
    state.apply_move({"action": "baby_move_chip", "from": [0, -1], "to": [-1, 1]})
    assert state.board.tiles[(0, -1)].improvement is None
    assert state.board.tiles[(-1, 1)].improvement == ENCLOSURE


def test_t15_t17_the_objective_baby_swaps_a_card_with_the_top_of_its_deck() -> None:
    state = new()
    card = next(c for c in state.hands[0] if c.startswith("GA"))
    top = state.decks["gardener"][0]
    _with_baby(state, "BP-OBJ")
    state.apply_move({"action": "baby_swap", "card": card})
    assert top in state.hands[0] and card not in state.hands[0] and len(state.hands[0]) == 3
    assert state.decks["gardener"][-1] == card
    assert state.view(0)["returned_cards"]["gardener"] == [card]  # known to the swapper only
    assert state.view(1)["returned_cards"]["gardener"] == []


def test_t17_a_bonus_with_nowhere_to_go_is_lost_without_a_question() -> None:
    state = new()
    state.stomachs[0][GREEN] = 1
    state.baby_pool = ["BG-IRR"]
    asked(state, "baby")
    state.apply_move({"action": "baby", "colour": GREEN})  # no edge for a channel
    assert state.babies[0] == ["BG-IRR"] and state.pending is None and state.baby is None


def test_t18_kami_grows_three_stacks_and_counts_as_every_colour() -> None:
    board = Board()
    put(board, (1, -1), KAMI)
    kami = board.tiles[(1, -1)]
    assert kami.stacks == {GREEN: 1, YELLOW: 1, PINK: 1}  # the first irrigation: all three
    put(board, (1, 0), plain(PINK))
    put(board, (2, -1), plain(PINK, 1))
    board.place_channel(frozenset({(1, 0), (1, -1)}))
    board.place_channel(frozenset({(1, -1), (2, -1)}))
    assert board.tiles[(2, -1)].height == 1
    board.gardener = (0, 0)
    board.move_gardener((1, 0))  # a pink plot: Kami's pink stack grows too
    assert kami.stacks == {GREEN: 1, YELLOW: 1, PINK: 2}
    assert board.tiles[(1, 0)].height == 2 and board.tiles[(2, -1)].height == 2
    board.move_gardener((1, -1))  # on Kami: its stacks and every plot next to it
    assert kami.stacks == {GREEN: 2, YELLOW: 2, PINK: 3}
    assert board.tiles[(1, 0)].height == 3 and board.tiles[(2, -1)].height == 3


def test_position_15_kami_completes_a_pink_triangle() -> None:
    state = new()
    state.board = board = Board()
    put(board, (1, -1), KAMI)
    put(board, (1, 0), plain(PINK))
    put(board, (2, -1), plain(PINK, 1))
    board.place_channel(frozenset({(1, 0), (1, -1)}))
    board.place_channel(frozenset({(1, -1), (2, -1)}))
    assert state.met("PL11", 0)
    assert not state.met("PL03", 0)  # green would need two more green plots


def test_t18_gardener_cards_count_each_stack_and_rain_picks_one() -> None:
    state = new()
    state.board = board = Board()
    put(board, (1, -1), KAMI)
    board.tiles[(1, -1)].stacks = {GREEN: 3, YELLOW: 3, PINK: 4}
    assert state.met("GA14", 0)  # a pink 4 with no improvement
    assert not state.met("GA10", 0)  # three yellow 3s needed, one here
    asked(state, "rain")
    assert state.legal_moves() == [
        {"action": "rain", "to": [1, -1], "colour": GREEN},
        {"action": "rain", "to": [1, -1], "colour": YELLOW},
        {"action": "skip"},
    ]
    state.apply_move({"action": "rain", "to": [1, -1], "colour": YELLOW})
    assert board.tiles[(1, -1)].stacks == {GREEN: 3, YELLOW: 4, PINK: 4}


def test_t18_the_panda_on_kami_eats_the_colour_the_player_picks_unless_enclosed() -> None:
    state = new()
    state.board = board = Board()
    put(board, (1, -1), KAMI)
    asked(state, "panda")
    state.apply_move({"action": "move_panda", "to": [1, -1]})
    assert state.pending == "eat"
    assert [m["colour"] for m in state.legal_moves()] == [GREEN, YELLOW, PINK]
    state.apply_move({"action": "eat", "colour": PINK})
    assert board.tiles[(1, -1)].stacks == {GREEN: 1, YELLOW: 1, PINK: 0}
    assert state.stomachs[0][PINK] == 1 and state.pending is None
    board.tiles[(1, -1)].stacks = {GREEN: 0, YELLOW: 2, PINK: 0}
    board.panda = (0, 0)
    asked(state, "panda")
    state.apply_move({"action": "move_panda", "to": [1, -1]})  # one colour: no question
    assert state.pending is None and state.stomachs[0][YELLOW] == 1
    board.tiles[(1, -1)].improvement = ENCLOSURE
    assert board.edible((1, -1)) == []


def test_t18_a_chip_fits_kami_only_while_its_three_stacks_are_empty() -> None:
    board = Board()
    put(board, (1, -1), KAMI, chip=ENCLOSURE)  # T6: before its first growth
    assert board.tiles[(1, -1)].improvement == ENCLOSURE
    put(board, (1, 0), KAMI)
    assert (1, 0) not in board.chip_places()


def test_t19_the_gardener_on_a_sacred_hill_grows_every_irrigated_plot_of_its_colour() -> None:
    board = Board()
    put(board, (1, 0), GREEN_HILL)
    put(board, (-1, 0), plain(GREEN))
    put(board, (0, 1), plain(YELLOW))
    put(board, (1, -1), KAMI)
    put(board, (0, -1), "PG09")  # an enclosure, irrigated
    put(board, (-1, -1), plain(GREEN, 1))  # not irrigated (no pond next to it)
    heights = {cell: board.tiles[cell].bamboo for cell in board.tiles}
    board.move_gardener((1, 0))
    grown = {cell for cell in board.tiles if board.tiles[cell].bamboo != heights[cell]}
    assert grown == {(1, 0), (-1, 0), (1, -1), (0, -1)}  # every green one, Kami's green stack
    assert board.tiles[(1, -1)].stacks == {GREEN: 2, YELLOW: 1, PINK: 1}


def test_8_t15_the_cabin_shows_the_top_cards_and_keeps_at_most_one() -> None:
    state = new(2)
    state.board = board = Board()
    put(board, (1, 0), CABIN)
    assert board.tiles[(1, 0)].bamboo == 0 and (1, 0) not in board.chip_places()
    tops = [state.decks[deck][0] for deck in ("plot", "gardener", "panda")]
    asked(state, "gardener")
    state.apply_move({"action": "move_gardener", "to": [1, 0]})
    assert state.pending == "cabin" and state.view(0)["cabin"] == tops
    assert state.view(1)["cabin"] == []
    assert state.legal_moves()[-1] == {"action": "keep", "card": None}
    state.apply_move({"action": "keep", "card": tops[1]})
    assert tops[1] in state.hands[0] and len(state.hands[0]) == 4
    assert state.decks["plot"][-1] == tops[0] and state.decks["panda"][-1] == tops[2]
    assert state.view(0)["returned_cards"] == {
        "plot": [tops[0]], "gardener": [], "panda": [tops[2]],
    }  # fmt: skip


def test_t15_the_cabin_cannot_raise_a_hand_above_5() -> None:
    state = new(2)
    state.board = board = Board()
    put(board, (1, 0), CABIN)
    state.hands[0] += [state.decks["plot"].pop(), state.decks["plot"].pop()]
    asked(state, "gardener")
    state.apply_move({"action": "move_gardener", "to": [1, 0]})
    assert state.legal_moves() == [{"action": "keep", "card": None}]


@pytest.mark.parametrize("option", [False, True])
def test_t11_a_drawn_card_that_already_holds_is_redrawn_only_with_the_option(option: bool) -> None:
    state = get_game("takenoko").new_state(1, {"redraw_met_objectives": option}, num_players=2)
    assert isinstance(state, TakenokoState)
    put(state.board, (1, 0), plain(GREEN))
    put(state.board, (1, -1), plain(GREEN, 1))
    put(state.board, (2, -1), plain(GREEN, 2), chip=WATERSHED)  # a green triangle
    state.hands = [["GA01"], ["GA02"]]
    state.decks["plot"] = ["PL03", "PL01"]  # a green triangle (met), a green line (not)
    state._legal = None
    state.apply_move({"action": "objective"})
    state.apply_move({"action": "draw", "deck": "plot"})
    if option:
        assert "PL03" not in state.hands[0] and state.decks["plot"][-1] == "PL03"
        assert state.taken == [] and "objective" in actions(state)  # refunded
        assert state.view(0)["returned_cards"]["plot"] == ["PL03"]
    else:
        assert "PL03" in state.hands[0] and state.taken == ["objective"]


def test_t11_a_deck_that_gave_back_all_it_holds_is_closed_for_the_turn() -> None:
    state = get_game("takenoko").new_state(1, {"redraw_met_objectives": True}, num_players=2)
    assert isinstance(state, TakenokoState)
    put(state.board, (1, 0), plain(GREEN))
    put(state.board, (1, -1), plain(GREEN, 1))
    put(state.board, (2, -1), plain(GREEN, 2), chip=WATERSHED)  # a green triangle
    state.decks["plot"] = ["PL03"]  # met
    state.decks["gardener"], state.decks["panda"] = [], []
    state._legal = None
    state.apply_move({"action": "objective"})
    state.apply_move({"action": "draw", "deck": "plot"})
    assert state.decks["plot"] == ["PL03"] and legal.open_decks(state) == []
    assert "objective" not in actions(state)


def test_8_chibis_games_say_the_objectives_are_the_base_games() -> None:
    state = new(2, max_rounds=1)
    while (decision := state.decision()) is not None:
        state.apply_action(len(state.legal_moves()) - 1 if decision.kind == "turn" else 0)
    assert "base objectives" in state.outcome().details["note"]
    assert state.outcome().details["babies"] == [0, 0]
    assert state.view(0)["options"] == {"chibis": True, "redraw_met_objectives": False}
