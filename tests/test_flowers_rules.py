"""Every rule of the Flowers rulebook and every ruling F1..F28, from explicit positions.

The rulings file (../shared/rules/FLOWERS-RULINGS.md) ends with 15 test positions; each has
a test here named after it ("position N"). Positions are built with tests/flowers_positions.py.
"""

from __future__ import annotations

import random

import pytest
from flowers_positions import (
    card_total,
    give,
    place,
    play,
    side,
    table,
    take,
    take_tiles,
    tile_total,
    tiles,
)

from arena.errors import GameError, IllegalMoveError, MoveFormatError
from arena.game_sources import get_game
from arena.games.flowers import FlowersGame
from arena.games.flowers.components import (
    COLOURS,
    NUM_ACTIONS,
    TILE_INDEX,
    TILE_NAMES,
    flower_score,
    shuffle,
)
from arena.games.flowers.ends import ranks
from arena.games.flowers.state import FlowersState
from arena.outcome import Termination

PLENTY = "grey purple red green orange yellow " * 4  # 24 cards to draw from


def decision(state: FlowersState) -> tuple[int, str] | None:
    d = state.decision()
    return None if d is None else (d.seat, d.kind)


# ---------------------------------------------------------------- F1-F4: components


def test_f1_colour_names_and_canonical_order_dark_first() -> None:
    assert COLOURS == ("grey", "purple", "red", "green", "orange", "yellow")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_f2_f3_ninety_cards_and_thirty_six_tiles(players: int) -> None:
    state = FlowersState.deal(5, players)
    assert card_total(state) == [15] * 6
    assert tile_total(state) == list(range(36))
    assert len(state.dark) == len(state.light) == 15
    assert all(t // 6 in (0, 1, 2) for t in state.dark)  # F3: dark backs are grey/purple/red
    assert all(t // 6 in (3, 4, 5) for t in state.light)


def test_f3_tile_names_one_of_each_value_per_colour() -> None:
    assert TILE_NAMES[:6] == ("grey 2", "grey 3", "grey 4", "grey 5", "grey 7", "grey x3")
    assert sum(name.endswith("x3") for name in TILE_NAMES) == 6


def test_f4_a_flower_is_two_tiles_of_one_colour_never_two_x3() -> None:
    state = table(2)
    take_tiles(state, 0, "red 2", "green 3", "red 7")
    assert state.flowers[0] == [tuple(tiles("red 2", "red 7"))]
    assert [TILE_NAMES[t] for t in state.singles[0] if t >= 0] == ["green 3"]


# ---------------------------------------------------------------- F5, F6: setup


@pytest.mark.parametrize(("players", "deck"), [(2, 79), (3, 72), (4, 64)])
def test_f5_seat_i_draws_5_plus_i_cards(players: int, deck: int) -> None:
    state = get_game("flowers").new_state(3, num_players=players)
    assert state.hand_sizes == [5 + i for i in range(players)]
    assert len(state.deck) == deck
    assert decision(state) == (0, "turn")
    assert state.marker == [-1, -1, -1]  # F6 (3): markers in the centre


def test_f6_seeded_order_cards_then_dark_then_light_then_mandalas_then_seats() -> None:
    rng = random.Random(11)
    cards = [c for c in range(6) for _ in range(15)]
    shuffle(cards, rng)
    dark = [c * 6 + v for c in (0, 1, 2) for v in range(6)]
    shuffle(dark, rng)
    light = [c * 6 + v for c in (3, 4, 5) for v in range(6)]
    shuffle(light, rng)
    state = FlowersState.deal(11, 3)
    # The top of a deck or stack is its last element.
    assert state.tiles == [[dark[-1], light[-1]], [dark[-2], light[-2]], [dark[-3], light[-3]]]
    hands = []
    for seat in range(3):
        hand = [0] * 6
        for _ in range(5 + seat):
            hand[cards.pop()] += 1
        hands.append(hand)
    assert state.hands == hands
    assert state.deck == cards
    again = FlowersState.deal(11, 3)
    assert again.hands == state.hands and again.deck == state.deck


# ---------------------------------------------------------------- F8: legal plays


def test_f8_position_8_a_hand_of_three_red_plays_one_or_two_into_any_mandala() -> None:
    state = table(2, hands={0: "red red red", 1: "grey grey"}, deck=PLENTY)
    moves = state.legal_moves()
    assert len(moves) == 6
    assert {(m["mandala"], m["count"]) for m in moves} == {(m, k) for m in range(3) for k in (1, 2)}
    with pytest.raises(IllegalMoveError, match="leave it empty"):
        play(state, 0, "red", 3)


def test_f8_f11_position_8_the_only_card_may_be_played_when_the_discard_refills() -> None:
    state = table(2, hands={0: "green", 1: "grey grey"}, discard={"red": 7})
    assert len(state.legal_actions()) == 3
    play(state, 2, "green")
    assert state.hand_sizes[0] == 4  # reshuffled the 7, drew 4
    assert len(state.deck) == 3 and sum(state.discard) == 0


def test_f8_f10_position_8_one_card_and_nothing_to_draw_passes() -> None:
    state = table(3, hands={0: "grey grey", 1: "green", 2: "red red"})
    play(state, 0, "grey")  # nothing to draw; seat 1 cannot play and passes (F10)
    assert state.passes == 1
    assert decision(state) == (2, "turn")
    assert state.turns == 2
    with pytest.raises(IllegalMoveError):
        state.current = 1
        play(state, 0, "green")


def test_f8_f24_position_8_every_seat_stuck_ends_stalled_with_a_final_destruction() -> None:
    state = table(2, hands={0: "grey grey", 1: "green"}, seed=4)
    place(state, 1, 1, up="red")
    state.marker[1] = 1
    play(state, 0, "grey")  # seat 0 now holds 1 card too; nothing to draw
    assert state.over and state.end == "stalled"
    assert sorted(state.final_order) == [0, 1, 2]  # F24: all three Mandalas
    assert [TILE_NAMES[t] for t in state.singles[1] if t >= 0] == ["purple 2", "orange 2"]
    out = state.outcome()
    assert out.end == "stalled" and out.termination is Termination.NORMAL


def test_f34_a_stall_on_the_turn_that_reaches_the_limit_ends_stalled() -> None:
    results = []
    for limit in (1, 10_000):  # the play below is the first turn: at the limit, or far below
        state = table(2, hands={0: "grey grey", 1: "green"}, seed=4, turn_limit=limit)
        place(state, 1, 1, up="red")
        state.marker[1] = 1
        play(state, 0, "grey")  # every seat now holds 1 card with nothing to draw
        assert state.over and state.end == "stalled" and state.turns == 1
        assert sorted(state.final_order) == [0, 1, 2]  # F23: the final destruction happened
        out = state.outcome()
        assert out.termination is Termination.NORMAL
        results.append((state.final_order, out.scores, out.ranks))
    assert results[0] == results[1]  # a cap that cuts no turn changes no result


def test_f8_there_is_no_voluntary_pass() -> None:
    state = table(2, hands={0: "red red", 1: "grey grey"}, deck=PLENTY)
    assert all(move["action"] == "play" for move in state.legal_moves())
    with pytest.raises(IllegalMoveError, match="no tile to take"):
        take(state, "red")


# ---------------------------------------------------------------- F9: face up or down


def test_f9_a_new_colour_goes_face_up_a_present_one_face_down() -> None:
    state = table(2, hands={0: "orange orange grey", 1: "orange purple"}, deck=PLENTY)
    play(state, 0, "orange", 2)  # Mandala 0 has grey and green tiles: orange is new
    assert side(state, 0, 0) == {"up": {"orange": 2}, "down": {}, "cards": 2}
    play(state, 0, "orange")  # seat 1: present now (seat 0's face-up orange)
    assert side(state, 0, 1) == {"up": {}, "down": {"orange": 1}, "cards": 1}


def test_f9_a_tile_colour_and_ones_own_face_up_colour_are_present() -> None:
    state = table(2, hands={0: "grey grey green orange orange", 1: PLENTY}, deck=PLENTY)
    play(state, 0, "grey")  # grey is a tile colour of Mandala 0
    assert side(state, 0, 0)["down"] == {"grey": 1}
    state.current = 0
    play(state, 0, "orange")
    state.current = 0
    play(state, 0, "orange")  # "including you"
    assert side(state, 0, 0) == {"up": {"orange": 1}, "down": {"grey": 1, "orange": 1}, "cards": 3}


# ---------------------------------------------------------------- F11, F12: draws


@pytest.mark.parametrize(
    ("hand", "count", "after"),
    [(8, 1, 8), (9, 1, 8), (5, 2, 3), (2, 1, 5), (7, 1, 8), (4, 1, 7)],
)
def test_f11_position_9_draws(hand: int, count: int, after: int) -> None:
    state = table(2, hands={0: {"red": hand}, 1: "grey grey"}, deck=PLENTY)
    play(state, 0, "red", count)
    assert state.hand_sizes[0] == after


def test_f11_f12_position_9_deck_2_discard_5_draws_2_reshuffles_draws_2() -> None:
    state = table(
        2, hands={0: "red red", 1: "grey grey"}, deck="green green", discard="orange " * 5
    )
    play(state, 0, "red")
    assert state.hand_sizes[0] == 5
    assert state.hands[0][COLOURS.index("green")] == 2
    assert len(state.deck) == 3 and sum(state.discard) == 0


def test_f12_an_empty_deck_is_not_reshuffled_until_a_card_is_needed() -> None:
    state = table(2, hands={0: "red red red", 1: "grey grey"}, discard="orange " * 5)
    play(state, 0, "red", 2)  # no draw
    assert state.deck == [] and sum(state.discard) == 5


def test_f12_draw_stops_short_when_nothing_is_left() -> None:
    state = table(2, hands={0: "red red", 1: "grey grey"}, deck="green")
    play(state, 0, "red")
    assert state.hand_sizes[0] == 2


# ---------------------------------------------------------------- F13: the marker


def test_f13_position_1_first_face_up_card_takes_the_marker() -> None:
    state = table(
        2,
        hands={0: "orange grey grey", 1: "yellow grey"},
        deck=PLENTY,
        mandala_tiles={0: ("red 4", "green 2")},
    )
    place(state, 0, 1, down="red red red")
    play(state, 0, "orange")
    assert state.marker[0] == 0
    play(state, 0, "yellow")
    assert side(state, 0, 1)["cards"] == 4
    assert state.marker[0] == 1


def test_f13_position_2_a_tie_does_not_take_the_marker_face_down_players_never_count() -> None:
    state = table(
        4,
        hands={2: "orange orange purple grey", 0: "grey grey"},
        deck=PLENTY,
        mandala_tiles={0: ("purple 3", "orange 4")},
    )
    place(state, 0, 0, up="grey", down="purple purple")
    state.marker[0] = 0
    place(state, 0, 2, up="yellow")
    place(state, 0, 3, down="purple " * 6)
    state.current = 2
    play(state, 0, "orange", 2)
    assert side(state, 0, 2) == {"up": {"yellow": 1}, "down": {"orange": 2}, "cards": 3}
    assert state.marker[0] == 0
    state.current = 2
    play(state, 0, "purple")
    assert state.marker[0] == 2


def test_f13_the_marker_is_checked_only_in_the_mandala_played_into() -> None:
    state = table(2, hands={0: "red red red", 1: "grey grey"}, deck=PLENTY)
    place(state, 0, 0, up="orange orange")
    place(state, 0, 1, up="yellow")
    state.marker[0] = 1  # not reachable in play, but CHECK must not touch Mandala 0
    play(state, 1, "red")
    assert state.marker[0] == 1 and state.marker[1] == 0


def test_f13_only_face_down_cards_never_take_the_marker() -> None:
    state = table(2, hands={0: "grey grey grey", 1: "red red"}, deck=PLENTY)
    play(state, 0, "grey", 2)  # grey is a tile colour of Mandala 0: face down
    assert state.marker[0] == -1


# ---------------------------------------------------------------- F14: completion


def _position_3(first: str) -> FlowersState:
    state = table(
        3,
        hands={0: f"{first} red red red red", 1: "grey", 2: "grey"},
        deck=PLENTY,
        mandala_tiles={0: ("red 5", "green 3")},
    )
    place(state, 0, 0, up="orange")
    place(state, 0, 1, up="yellow")
    place(state, 0, 2, up="purple")
    state.marker[0] = 0
    return state


@pytest.mark.parametrize("colour", ["red", "green", "orange", "yellow", "purple"])
def test_f9_f14_position_3_a_present_colour_goes_face_down_and_completes_nothing(
    colour: str,
) -> None:
    state = _position_3(colour)
    play(state, 0, colour)
    assert side(state, 0, 0)["down"] == {colour: 1}
    assert state.tiles[0] == tiles("red 5", "green 3")


def test_f11_f14_position_3_grey_completes_after_the_draw() -> None:
    state = _position_3("grey")
    play(state, 0, "grey")
    # Drew 4 (to 8) before the destruction; holder seat 0 took both tiles (seats 1 and 2
    # tie, F15) and discarded its 2 cards; seats 1 and 2 took theirs back.
    assert [TILE_NAMES[t] for t in state.singles[0] if t >= 0] == ["red 5", "green 3"]
    assert state.hand_sizes == [8, 2, 2]
    assert sum(state.discard) == 2
    assert state.tiles[0] != [] and state.marker[0] == -1  # F20: a new Mandala
    assert decision(state) == (1, "turn")


# ---------------------------------------------------------------- F15-F17: tiles


def _position_4(seat_2_face_up: bool) -> FlowersState:
    state = table(
        4,
        hands={2: "yellow grey", 0: "grey grey"},
        deck=PLENTY,
        mandala_tiles={0: ("grey 4", "green 5")},
    )
    if seat_2_face_up:  # position 5
        place(state, 0, 0, up="purple", down="grey grey grey grey")
        place(state, 0, 1, up="red red", down="grey")
        place(state, 0, 2, up="orange", down="green")
    else:
        place(state, 0, 0, up="purple orange", down="grey grey grey")
        place(state, 0, 1, up="red red", down="grey")
        place(state, 0, 2, down="grey green")
    place(state, 0, 3, down="red red red red")
    state.marker[0] = 0
    state.current = 2
    return state


def test_f15_f17_position_4_second_place_by_face_up_cards_holder_asked_on_anothers_turn() -> None:
    state = _position_4(seat_2_face_up=False)
    hands = state.hand_sizes[:]
    play(state, 0, "yellow")
    assert decision(state) == (0, "tile")
    assert state.second == 1
    assert {m["colour"] for m in state.legal_moves()} == {"grey", "green"}
    take(state, "green")
    assert [TILE_NAMES[t] for t in state.singles[0] if t >= 0] == ["green 5"]
    assert [TILE_NAMES[t] for t in state.singles[1] if t >= 0] == ["grey 4"]
    assert state.hand_sizes[0] == hands[0] and state.hand_sizes[1] == hands[1]
    assert state.hand_sizes[2] == 5 + 3 and state.hand_sizes[3] == 4  # drew 4, took 3 back
    assert sum(state.discard) == 5 + 3
    assert decision(state) == (3, "turn")


def test_f15_position_5_still_tied_the_holder_takes_both_without_being_asked() -> None:
    state = _position_4(seat_2_face_up=True)
    play(state, 0, "yellow")
    assert decision(state) == (3, "turn")
    assert sorted(TILE_NAMES[t] for t in state.singles[0] if t >= 0) == ["green 5", "grey 4"]
    assert state.hand_sizes[1] == 3 and state.hand_sizes[3] == 4


def test_f15_position_6_a_player_tying_the_holder_is_second_place() -> None:
    state = table(3, hands={0: "yellow grey grey"}, deck=PLENTY)
    place(state, 0, 0, up="purple", down="grey grey")
    place(state, 0, 1, up="red", down="grey grey grey")
    place(state, 0, 2, up="orange orange")
    state.marker[0] = 0
    play(state, 0, "yellow")
    assert decision(state) == (0, "tile") and state.second == 1
    take(state, "grey")
    assert state.hand_sizes[2] == 2 and state.hand_sizes[1] == 0 + 0
    assert state.known[2] == [0, 0, 0, 0, 2, 0]  # F27: returned cards are public


@pytest.mark.parametrize(
    ("holder", "other_up", "other_down", "second"),
    [(5, 1, 1, -1), (5, 1, 2, 1), (4, 1, 1, 1), (5, 0, 4, -1), (3, 1, 1, 1), (7, 2, 1, -1)],
)
def test_f16_position_7_the_two_player_half_rule(
    holder: int, other_up: int, other_down: int, second: int
) -> None:
    state = table(2)
    place(state, 0, 0, up="purple", down={"grey": holder - 1})
    place(state, 0, 1, up={"red": other_up}, down={"grey": other_down})
    state.marker[0] = 0
    assert state.second_place(0, 0) == second


def test_f16_position_7_the_other_takes_its_cards_back_when_the_holder_takes_both() -> None:
    state = table(2, hands={0: "yellow grey grey", 1: "grey grey"}, deck=PLENTY)
    place(state, 0, 0, up="purple orange", down="grey grey")
    place(state, 0, 1, up="red", down="grey")
    state.marker[0] = 0
    play(state, 0, "yellow")  # the holder has 5, the other 2: 2 x 2 < 5
    assert decision(state) == (1, "turn")
    assert state.hand_sizes[1] == 4 and len([t for t in state.singles[0] if t >= 0]) == 2


def test_f17_the_choice_names_a_tile_colour() -> None:
    state = _position_4(seat_2_face_up=False)
    play(state, 0, "yellow")
    with pytest.raises(IllegalMoveError, match="no red tile"):
        take(state, "red")
    with pytest.raises(IllegalMoveError, match="must take one of its tiles"):
        play(state, 1, "grey")


# ---------------------------------------------------------------- F18: Flowers


def test_f18_position_10_a_fourth_tile_of_a_colour_makes_a_second_flower() -> None:
    state = table(2)
    take_tiles(state, 0, "red 2", "red 7", "red 4", "red x3")
    assert [(TILE_NAMES[a], TILE_NAMES[b]) for a, b in state.flowers[0]] == [
        ("red 2", "red 7"),
        ("red 4", "red x3"),
    ]
    assert flower_score(*state.flowers[0][1]) == 12
    take_tiles(state, 0, "red 3")
    assert len(state.flowers[0]) == 2 and state.singles[0][2] == TILE_INDEX["red 3"]


def test_f18_position_10_a_holder_taking_both_forms_two_flowers_at_once() -> None:
    state = table(
        2,
        hands={0: "yellow grey grey", 1: "grey grey"},
        deck=PLENTY,
        mandala_tiles={0: ("grey 3", "green x3")},
    )
    take_tiles(state, 0, "grey 5", "green 2")
    place(state, 0, 0, up="purple orange red")
    state.marker[0] = 0
    play(state, 0, "yellow")
    flowers = sorted((TILE_NAMES[a], TILE_NAMES[b]) for a, b in state.flowers[0])
    assert flowers == [("green 2", "green x3"), ("grey 5", "grey 3")]
    assert state.score(0) == 11 + 6


# ---------------------------------------------------------------- F19, F20


def test_f19_returned_cards_may_take_a_hand_past_eight() -> None:
    state = table(3, hands={0: "yellow grey", 1: {"grey": 8}}, deck=PLENTY)
    place(state, 0, 0, up="purple orange red", down="grey grey")
    place(state, 0, 1, down="grey grey grey")
    state.marker[0] = 0
    play(state, 0, "yellow")
    assert state.hand_sizes[1] == 11


def test_f20_a_new_mandala_takes_the_top_dark_then_top_light_tile() -> None:
    state = table(
        2,
        hands={0: "yellow grey", 1: "grey grey"},
        deck=PLENTY,
        stacks=(["grey 3", "red 7"], ["green 4", "orange 5"]),
    )
    place(state, 0, 0, up="purple orange red")
    state.marker[0] = 0
    play(state, 0, "yellow")
    assert state.tiles[0] == tiles("red 7", "orange 5")
    assert state.marker[0] == -1 and state.present[0] == (1 << 2) | (1 << 4)


# ---------------------------------------------------------------- F21-F24: the end


def _position_11(seed: int) -> FlowersState:
    state = table(
        3,
        hands={0: "purple grey grey", 1: "grey grey", 2: "grey grey"},
        deck=PLENTY,
        mandala_tiles={1: ("red 3", "yellow 7")},
        seed=seed,
    )
    take_tiles(state, 2, "grey 2", "grey 4", "red 5", "red 7", "yellow 5")
    place(state, 1, 0, up="grey grey")
    place(state, 1, 1, up="orange")
    place(state, 1, 2, up="green", down="red")
    state.marker[1] = 0
    return state


def test_f21_position_11_a_third_flower_on_anothers_turn_ends_the_game() -> None:
    state = _position_11(seed=3)
    play(state, 1, "purple")
    assert decision(state) == (0, "tile") and state.second == 2
    take(state, "red")
    assert len(state.flowers[2]) == 3
    assert state.over and state.end == "third_flower"
    assert state.turns == 1  # seat 1 never played
    assert state.tiles[1] != []  # F21: the destruction finished, new tiles included
    assert sorted(state.final_order) == [0, 2]


def test_f21_f23_position_11_the_final_order_follows_the_seed() -> None:
    orders = set()
    for seed in range(12):
        runs = []
        for _ in range(2):
            state = _position_11(seed)
            play(state, 1, "purple")
            take(state, "red")
            runs.append(tuple(state.final_order))
        assert runs[0] == runs[1]
        orders.add(runs[0])
    assert orders == {(0, 2), (2, 0)}


def test_f23_position_12_final_destruction_without_a_holder_returns_every_card() -> None:
    state = table(
        2,
        hands={0: "orange grey grey", 1: "grey grey"},
        deck=PLENTY,
        mandala_tiles={1: ("purple 2", "yellow 3")},
    )
    take_tiles(state, 0, "grey 2", "grey 4", "red 5", "red 7", "purple 5")
    place(state, 0, 1, down="grey grey grey grey")
    place(state, 2, 0, up="red")
    state.marker[2] = 0
    place(state, 1, 0, up="grey green red")
    state.marker[1] = 0
    play(state, 1, "orange")  # completes Mandala 1: seat 0 takes both, a third Flower
    assert state.over and state.end == "third_flower"
    assert state.hand_sizes[1] == 2 + 4  # Mandala 0's face-down cards came back
    assert state.known[1][0] == 4
    # Mandala 2: seat 0 was the only qualified player and took both tiles unasked.
    held = {TILE_NAMES[t] for t in state.singles[0] if t >= 0}
    assert {"red 2", "yellow 2"} <= held | {TILE_NAMES[t] for f in state.flowers[0] for t in f}
    assert state.tiles[2] == []
    assert state.tiles[0] == tiles("grey 2", "green 2")  # F23, F25: left on the mat, worth 0


def test_f22_position_13_no_tiles_left_ends_the_game_with_the_final_destruction() -> None:
    state = table(2, hands={0: "yellow grey grey", 1: "grey grey"}, deck=PLENTY, stacks=([], []))
    place(state, 0, 0, up="purple orange red")
    place(state, 2, 1, up="purple")
    state.marker[0] = 0
    state.marker[2] = 1
    play(state, 0, "yellow")
    assert state.over and state.end == "no_tiles"
    assert state.tiles[0] == [] and state.tiles[2] == []  # bare (F22); taken by seat 1
    assert state.tiles[1] == tiles("purple 2", "orange 2")  # nobody's: left on the mat
    assert sorted(state.final_order) == [1, 2]
    assert [TILE_NAMES[t] for t in state.singles[1] if t >= 0] == ["red 2", "yellow 2"]


def test_f21_f22_third_flower_wins_over_no_tiles_as_the_end_reason() -> None:
    state = table(2, hands={0: "yellow grey grey", 1: "grey grey"}, deck=PLENTY, stacks=([], []))
    take_tiles(state, 0, "red 3", "red 4", "grey 3", "grey 4", "green 3")
    place(state, 0, 0, up="purple orange red")
    state.marker[0] = 0
    play(state, 0, "yellow")
    assert state.end == "third_flower"


def test_f24_the_turn_limit_ends_the_game_as_it_stands() -> None:
    state = get_game("flowers").new_state(1, {"turn_limit": 5}, num_players=3)
    rng = random.Random(0)
    while not state.is_over():
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.turns == 5 and state.end == "turn_limit" and state.final_order == []
    out = state.outcome()
    assert out.termination is Termination.TURN_LIMIT and out.end is None


# ---------------------------------------------------------------- F25, F26: the result


def test_f25_position_14_scoring() -> None:
    state = table(2)
    take_tiles(state, 0, "red 7", "green x3", "purple x3", "purple 7", "orange 2", "orange 5")
    assert state.score(0) == 7 + 0 + 21 + 9 == 37


@pytest.mark.parametrize(
    ("a", "b", "points"),
    [
        ("red 2", "red x3", 6),
        ("red x3", "red 7", 21),
        ("red 2", "red 3", 7),
        ("red 4", "red 5", 13),
        ("red 7", "red 5", 17),
        ("red 2", "red 7", 11),
    ],
)
def test_f25_flower_values(a: str, b: str, points: int) -> None:
    assert flower_score(*tiles(a, b)) == points


def test_f26_position_15_ranks_by_score_then_hand_cards_shared_when_equal() -> None:
    assert ranks((30, 30, 30, 12), (4, 6, 6, 9)) == (2, 0, 0, 3)


def test_f26_the_outcome_uses_hand_sizes_after_the_final_destruction() -> None:
    state = _position_11(seed=1)
    play(state, 1, "purple")
    take(state, "red")
    out = state.outcome()
    assert out.details["hand_sizes"] == state.hand_sizes
    assert list(out.ranks) == list(ranks(out.scores, tuple(state.hand_sizes)))


# ---------------------------------------------------------------- F27, F28: views, decisions


def test_f27_a_view_shows_own_hand_known_cards_and_the_table_never_other_hands() -> None:
    state = FlowersState.deal(8, 3)
    view = state.view(1)
    assert view["hand"] == dict(zip(COLOURS, state.hands[1], strict=True))
    assert "hands" not in view and "deck" not in view and "tile_stacks" not in view
    assert view["players"][0]["hand_size"] == 5 and view["deck_size"] == 72
    assert view["stacks"] == {"dark": 15, "light": 15}
    assert view["mandalas"][0]["tiles"] == [TILE_NAMES[t] for t in state.tiles[0]]
    spectator = state.spectator_view()
    assert len(spectator["deck"]) == 72 and len(spectator["hands"]) == 3


def test_f27_known_cards_shrink_when_played() -> None:
    state = table(2, hands={0: "red red red grey", 1: "grey grey"}, deck=PLENTY)
    state.known[0] = [0, 0, 3, 0, 0, 0]
    play(state, 0, "red", 2)
    assert state.view(1)["players"][0]["known"]["red"] == 1


def test_f27_face_down_colours_are_public() -> None:
    state = table(2, hands={0: "grey grey grey", 1: "grey grey"}, deck=PLENTY)
    play(state, 0, "grey", 2)
    assert state.view(1)["mandalas"][0]["sides"][0]["face_down"]["grey"] == 2


def test_f28_a_bot_decides_plays_and_tile_choices_only() -> None:
    assert FlowersGame.decision_kinds == ("turn", "tile")
    assert NUM_ACTIONS == 276


# ---------------------------------------------------------------- moves as data


@pytest.mark.parametrize(
    ("move", "error"),
    [
        ([], MoveFormatError),
        ({"action": "build"}, MoveFormatError),
        ({"action": "play", "mandala": 0, "colour": "red"}, MoveFormatError),
        ({"action": "play", "mandala": 3, "colour": "red", "count": 1}, MoveFormatError),
        ({"action": "play", "mandala": 0, "colour": "black", "count": 1}, MoveFormatError),
        ({"action": "play", "mandala": 0, "colour": "red", "count": 0}, MoveFormatError),
        ({"action": "play", "mandala": 0, "colour": "red", "count": 3}, IllegalMoveError),
        ({"action": "play", "mandala": 0, "colour": "green", "count": 1}, IllegalMoveError),
    ],
)
def test_bad_moves_get_a_sentence(move: object, error: type[Exception]) -> None:
    state = table(2, hands={0: "red red grey", 1: "grey grey"}, deck=PLENTY)
    with pytest.raises(error):
        state.apply_move(move)


def test_color_is_accepted_for_colour() -> None:
    state = table(2, hands={0: "red red grey", 1: "grey grey"}, deck=PLENTY)
    state.apply_move({"action": "play", "mandala": 1, "color": "red", "count": 1})
    assert side(state, 1, 0)["up"] == {"red": 1}


def test_new_state_checks_its_players_and_options() -> None:
    game = get_game("flowers")
    with pytest.raises(GameError, match="2 to 4"):
        game.new_state(1, num_players=5)
    with pytest.raises(GameError, match="no option"):
        game.new_state(1, {"chibis": True})
    with pytest.raises(GameError):
        game.outcome if False else FlowersState.deal(1, 2).outcome()


def test_give_helper_keeps_sizes() -> None:
    state = table(2)
    give(state, 0, "red red")
    assert state.hand_sizes[0] == 2
