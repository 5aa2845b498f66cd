"""Takenoko's turn (TAKENOKO.md §2.7, §4, §6, §7, §9) and its rulings, by name."""

from __future__ import annotations

from typing import Any

import pytest

from arena.errors import IllegalMoveError
from arena.game_sources import get_game
from arena.games.takenoko.components import FERTILIZER, GREEN, PINK, YELLOW
from arena.games.takenoko.state import TakenokoState


def new(players: int = 2, seed: int = 1, **config: Any) -> TakenokoState:
    state = get_game("takenoko").new_state(seed, config or None, num_players=players)
    assert isinstance(state, TakenokoState)
    return state


def actions(state: TakenokoState) -> set[str]:
    return {move["action"] for move in state.legal_moves()}


def play(state: TakenokoState, **move: Any) -> None:
    state.apply_move(move)


def finish_turn(state: TakenokoState) -> None:
    """Take actions until END is offered, then end the turn (irrigation and objective draws,
    which need no position)."""
    while "end" not in actions(state):
        for kind in ("irrigation", "objective", "plot"):
            if kind in actions(state):
                play(state, action=kind)
                break
        while state.pending is not None:
            state.apply_action(0)
    play(state, action="end")


def test_t12_round_1_has_no_weather_and_round_2_starts_with_the_roll() -> None:
    state = new(2)
    assert "roll" not in actions(state) and "plot" in actions(state)
    finish_turn(state)
    finish_turn(state)
    assert state.round == 2
    assert actions(state) & {"plot", "irrigation", "gardener", "panda", "objective"} == set()
    assert "roll" in actions(state)


def test_4_t8_two_different_actions_are_owed_before_end() -> None:
    state = new(2)
    assert "end" not in actions(state)
    play(state, action="irrigation")
    assert "irrigation" not in actions(state) and "end" not in actions(state)
    play(state, action="objective")
    play(state, action="draw", deck="panda")
    assert "end" in actions(state)
    assert actions(state) & {"plot", "irrigation", "gardener", "panda", "objective"} == set()


def _rolled(state: TakenokoState, face: str) -> None:
    """Round 2, the die showing CHOICE, and `face` chosen (D1)."""
    finish_turn(state)
    finish_turn(state)
    state.pending, state.rolled = "weather", True
    state._legal = None
    play(state, action="weather", face=face)


def test_2_7_wind_allows_the_same_action_twice() -> None:
    state = new(2)
    _rolled(state, "WIND")
    play(state, action="irrigation")
    assert "irrigation" in actions(state)


def test_2_7_sun_gives_a_third_different_action_that_may_be_left() -> None:
    state = new(2)
    _rolled(state, "SUN")
    play(state, action="irrigation")
    play(state, action="objective")
    play(state, action="draw", deck="gardener")
    assert "end" in actions(state) and "plot" in actions(state)  # the third is optional
    assert "irrigation" not in actions(state)  # all three different


def test_2_7_rain_grows_an_irrigated_plot_or_is_declined() -> None:
    state = new(2)
    state.board.place((1, 0), GREEN)
    _rolled(state, "RAIN")
    assert {"rain", "skip"} == actions(state)
    play(state, action="rain", to=[1, 0])
    assert state.board.tiles[(1, 0)].height == 2 and state.pending is None


def test_2_7_storm_puts_the_panda_anywhere_else_and_it_eats() -> None:
    state = new(2)
    state.board.place((1, 0), PINK)
    _rolled(state, "STORM")
    seat = state.current
    play(state, action="storm", to=[1, 0])
    assert state.board.panda == (1, 0) and state.stomachs[seat][PINK] == 1
    assert state.board.tiles[(1, 0)].height == 0


def test_2_7_clouds_takes_a_chip_and_with_no_chip_left_is_not_offered() -> None:
    state = new(2)
    _rolled(state, "CLOUDS")
    seat = state.current
    play(state, action="clouds", kind=FERTILIZER)
    assert state.reserve_chips[seat][FERTILIZER] == 1 and state.chip_supply[FERTILIZER] == 2
    state.chip_supply = dict.fromkeys(state.chip_supply, 0)
    state.pending, state._legal = "weather", None
    assert {m["face"] for m in state.legal_moves()} == {"SUN", "RAIN", "WIND", "STORM"}


def test_d4_t9_t23_the_drawer_sees_3_plots_keeps_1_and_orders_the_2_it_returns() -> None:
    state = new(2)
    top = state.plot_deck[:3]
    play(state, action="plot")
    assert state.view(0)["drawn"] == top and state.view(1)["drawn"] == []
    place = next(m for m in state.legal_moves() if m["plot"] == top[1] and m["chip"] is None)
    state.apply_move(place)
    assert state.decision() is not None and state.decision().kind == "return"  # type: ignore[union-attr]
    assert state.legal_moves() == [
        {"action": "return", "order": [top[0], top[2]]},
        {"action": "return", "order": [top[2], top[0]]},
    ]
    assert state.view(0)["drawn"] == [top[0], top[2]] and state.view(1)["drawn"] == []
    play(state, action="return", order=[top[2], top[0]])
    assert state.plot_deck[-2:] == [top[2], top[0]]  # the first named goes under first
    assert state.view(0)["returned_plots"] == [top[2], top[0]]
    assert state.view(1)["returned_plots"] == []


def test_t9_with_one_plot_left_over_nobody_is_asked() -> None:
    state = new(2)
    state.plot_deck = state.plot_deck[:2]
    play(state, action="plot")
    first = state.legal_moves()[0]
    state.apply_move(first)
    assert state.pending is None and len(state.plot_deck) == 1


def test_6_the_hand_limit_is_5() -> None:
    state = new(2)
    state.hands[0] += state.decks["plot"][:2]
    del state.decks["plot"][:2]
    state._legal = None
    assert len(state.hands[0]) == 5 and "objective" not in actions(state)


def test_6_a_card_is_completed_only_while_it_holds_and_panda_cards_pay() -> None:
    state = new(2)
    panda = next(card for card in state.hands[0] if card.startswith("PA"))
    assert {"action": "complete", "card": panda} not in state.legal_moves()
    for colour in (GREEN, YELLOW, PINK):
        state.stomachs[0][colour] = 2
    state._legal = None
    play(state, action="complete", card=panda)
    assert panda in state.done[0] and panda not in state.hands[0]
    assert sum(state.stomachs[0].values()) < 6
    with pytest.raises(IllegalMoveError):
        play(state, action="complete", card=panda)


@pytest.mark.parametrize(("players", "needed"), [(2, 9), (3, 8), (4, 7)])
def test_7_t13_the_emperor_and_the_last_turns(players: int, needed: int) -> None:
    state = new(players)
    panda = next(card for card in state.hands[0] if card.startswith("PA"))
    state.done[0] = [f"GA{n:02d}" for n in range(1, needed)]
    state.stomachs[0] = {GREEN: 2, YELLOW: 2, PINK: 2}
    state._legal = None
    play(state, action="complete", card=panda)
    assert state.emperor == 0 and state.score(0) >= 2
    finish_turn(state)
    for _ in range(players - 1):  # every other seat plays one more turn
        assert not state.is_over()
        finish_turn(state)
    assert state.is_over() and state.end == "all_objectives"
    out = state.outcome()
    assert out.details["emperor"] == 0 and out.scores[0] == state.score(0)


def test_7_a_tie_goes_to_more_panda_points_then_is_shared() -> None:
    state = new(3)
    state.done = [["PA01", "GA04"], ["PA10", "GA01"], ["GA05"]]  # 3+5, 5+3, 8
    state.over, state.end = True, "all_objectives"
    assert state.scores() == (8, 8, 8)
    assert state.outcome().ranks == (1, 0, 2)
    state.done = [["PA01"], ["PA02"], []]
    assert state.outcome().ranks == (0, 0, 2)


def test_t14_the_round_cap_ends_the_game_as_it_stands() -> None:
    state = new(2, max_rounds=1)
    finish_turn(state)
    finish_turn(state)
    assert state.is_over() and state.end == "turn_limit"
    assert state.outcome().termination.value == "turn_limit"


def test_7_a_seat_sees_its_hand_never_the_others_or_the_decks() -> None:
    state = new(3)
    view = state.view(1)
    assert view["hand"] == state.hands[1]
    assert "hands" not in view and "decks" not in view
    assert [p["hand_size"] for p in view["players"]] == [3, 3, 3]
    spectator = state.spectator_view()
    assert spectator["hands"] == state.hands and len(spectator["decks"]["plots"]) == 27


def test_a_move_that_is_not_legal_gets_a_sentence() -> None:
    state = new(2)
    with pytest.raises(IllegalMoveError, match="not a move of this turn decision"):
        play(state, action="roll")
    play(state, action="plot")
    with pytest.raises(IllegalMoveError, match="not legal now"):
        play(state, action="place", plot=state.drawn[0], to=[5, 5])


def _panda_turn(height: int) -> tuple[TakenokoState, int]:
    """Round 2 after a WIND (no weather effect), a green plot of `height` at (1, 0)."""
    state = new(2)
    state.board.place((1, 0), GREEN)
    state.board.tiles[(1, 0)].height = height
    _rolled(state, "WIND")
    return state, state.current


@pytest.mark.parametrize("height", [1, 2, 3, 4])
def test_5_6_the_panda_eats_exactly_one_section_for_the_active_player(height: int) -> None:
    """Issue 21: a panda move took two sections (2→0, 3→1, 4→2) and credited one; on a
    one-section plot the player got nothing. Through the moves a bot sends."""
    state, seat = _panda_turn(height)
    play(state, action="panda")
    assert {"action": "move_panda", "to": [1, 0]} in state.legal_moves()
    play(state, action="move_panda", to=[1, 0])
    assert state.board.tiles[(1, 0)].height == height - 1
    assert state.stomachs[seat][GREEN] == 1
    assert sum(state.stomachs[1 - seat].values()) == 0


def test_5_6_the_panda_on_bare_bamboo_or_the_pond_eats_nothing() -> None:
    state, seat = _panda_turn(0)
    play(state, action="panda")
    play(state, action="move_panda", to=[1, 0])
    assert state.board.tiles[(1, 0)].height == 0 and sum(state.stomachs[seat].values()) == 0
