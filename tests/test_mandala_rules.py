"""Every rule of the Mandala rulebook and every ruling R1..R14, each from an explicit position.

Positions are built by hand with `tests/mandala_positions.py`; the deck is written with its
top card last.
"""

from __future__ import annotations

import json
import random
import types
from typing import Any

import pytest
from mandala_positions import (
    BLACK,
    GREEN,
    ORANGE,
    PURPLE,
    RED,
    YELLOW,
    build,
    card_total,
    claim,
    counts,
    discard,
    grow,
    names,
    play,
    position,
    snapshot,
)

from arena.errors import GameError, IllegalMoveError, MoveFormatError
from arena.game_sources import get_game
from arena.games.mandala import COLOURS, MandalaGame
from arena.games.mandala import deck as deck_module
from arena.games.mandala.cards import NUM_ACTIONS, claim_action
from arena.games.mandala.state import MandalaState
from arena.outcome import Termination
from arena.record import replay

PLENTY = "black green orange purple red yellow " * 3  # 18 cards: no exhaustion by accident


def legal(state: MandalaState) -> list[dict[str, Any]]:
    return state.legal_moves()


# ---------------------------------------------------------------- R1, R2: cards and setup


def test_r1_108_sand_cards_18_of_each_of_the_six_colours() -> None:
    assert COLOURS == ("black", "green", "orange", "purple", "red", "yellow")
    for seed in range(20):
        assert card_total(MandalaState.deal(seed)) == [18] * 6


def test_r2_setup_counts_two_per_mountain_six_in_hand_two_in_cup_seat_0_first() -> None:
    state = get_game("mandala").new_state(7)
    assert [sum(m) for m in state.mountains] == [2, 2]
    assert state.hands and [sum(h) for h in state.hands] == [6, 6]
    assert state.hand_sizes == [6, 6]
    assert [sum(c) for c in state.cup_setup] == [2, 2]
    assert state.cup_claimed == [[0] * 6, [0] * 6]
    assert state.rivers == [[], []]
    assert len(state.deck) == 108 - 20
    assert state.discard == [0] * 6
    assert state.fields == [[[0] * 6, [0] * 6], [[0] * 6, [0] * 6]]
    assert state.decision() is not None and state.decision().seat == 0  # type: ignore[union-attr]
    assert state.decision().kind == "turn"  # type: ignore[union-attr]
    assert state.turn == 0 and not state.end_triggered


def test_r2_deal_order_mountain_0_mountain_1_then_each_seat_6_hand_2_cup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a 'shuffle' that stacks a known deck, every card lands where R2 says."""
    # The order cards come off the top of the deck.
    dealt = ["black", "green", "orange", "purple"]  # Mountain 0, Mountain 1
    dealt += ["red"] * 6 + ["yellow"] * 2  # seat 0: hand, Cup
    dealt += ["black"] * 3 + ["green"] * 3 + ["orange"] * 2  # seat 1: hand, Cup
    rest = counts(None)
    for c in range(6):
        rest[c] = 18 - counts(dealt)[c]
    stacked = [c for c in range(6) for _ in range(rest[c])] + [
        COLOURS.index(n) for n in reversed(dealt)
    ]

    class StackedRandom:
        def __init__(self, seed: int) -> None:
            self.seed = seed

        def shuffle(self, cards: list[int]) -> None:
            assert sorted(cards) == sorted(stacked)
            cards[:] = stacked

    monkeypatch.setattr(deck_module, "random", types.SimpleNamespace(Random=StackedRandom))
    state = MandalaState.deal(5)
    assert names(state.mountains[0]) == {"black": 1, "green": 1}
    assert names(state.mountains[1]) == {"orange": 1, "purple": 1}
    assert names(state.hands[0]) == {"red": 6}
    assert names(state.cup_setup[0]) == {"yellow": 2}
    assert names(state.hands[1]) == {"black": 3, "green": 3}
    assert names(state.cup_setup[1]) == {"orange": 2}
    assert len(state.deck) == 88


def test_r2_same_seed_same_deal_and_different_seeds_differ() -> None:
    game = get_game("mandala")
    assert snapshot(game.new_state(42)) == snapshot(game.new_state(42))
    deals = {repr(snapshot(game.new_state(seed))["deck"]) for seed in range(10)}
    assert len(deals) == 10


# ---------------------------------------------------------------- The Rule of Color


def test_rule_of_color_mountain_refuses_a_colour_in_your_own_field() -> None:
    state = position(hands=("green green red", ""), fields={(0, 0): "green"}, deck=PLENTY)
    with pytest.raises(IllegalMoveError) as error:
        state.move_to_action(build(0, "green"))
    assert str(error.value) == (
        "Mandala 0 already has green in your Field, so green cannot go into its Mountain "
        "(Rule of Color)."
    )


def test_rule_of_color_mountain_refuses_a_colour_in_the_opponents_field() -> None:
    state = position(hands=("green green red", ""), fields={(1, 1): "green"}, deck=PLENTY)
    with pytest.raises(IllegalMoveError) as error:
        state.move_to_action(build(1, "green"))
    assert str(error.value) == (
        "Mandala 1 already has green in your opponent's Field, so green cannot go into its "
        "Mountain (Rule of Color)."
    )
    state.move_to_action(build(0, "green"))  # the other Mandala is not concerned


def test_rule_of_color_field_refuses_a_colour_in_the_mountain() -> None:
    state = position(hands=("green green red", ""), mountains=("", "green"), deck=PLENTY)
    with pytest.raises(IllegalMoveError) as error:
        state.move_to_action(grow(1, "green", 1))
    assert str(error.value) == "Mandala 1 already has green in the Mountain (Rule of Color)."


def test_rule_of_color_field_refuses_a_colour_in_the_opponents_field() -> None:
    state = position(hands=("", "green green red"), fields={(0, 0): "green"}, current=1)
    with pytest.raises(IllegalMoveError) as error:
        state.move_to_action(grow(0, "green", 2))
    assert str(error.value) == (
        "Mandala 0 already has green in your opponent's Field (Rule of Color)."
    )


def test_rule_of_color_allows_additional_cards_of_a_colour_already_in_that_area() -> None:
    state = position(
        hands=("green green red red yellow", ""),
        mountains=("red", ""),
        fields={(0, 0): "green"},
        deck=PLENTY,
    )
    moves = legal(state)
    assert build(0, "red") in moves  # more red into a Mountain that has red
    assert grow(0, "green", 2) in moves  # more green into one's own Field that has green
    play(state, grow(0, "green", 2))
    assert names(state.fields[0][0]) == {"green": 3}


def test_rule_of_color_rulebook_example_green_in_the_opponents_field() -> None:
    """The rulebook's example: choices are 1 yellow, purple or black into the Mountain, or
    any number of orange, red or black cards into your Field."""
    state = position(
        hands=("black black green orange orange purple red yellow", ""),
        mountains=("yellow purple", ""),
        fields={(0, 0): "orange red", (0, 1): "green"},
        deck=PLENTY,
    )
    moves = legal(state)
    builds = {m["colour"] for m in moves if m["action"] == "build_mountain" and m["mandala"] == 0}
    grows = {
        (m["colour"], m["count"])
        for m in moves
        if m["action"] == "grow_field" and m["mandala"] == 0
    }
    assert builds == {"yellow", "purple", "black"}
    assert grows == {("orange", 1), ("orange", 2), ("red", 1), ("black", 1), ("black", 2)}


def test_discard_and_redraw_ignores_the_rule_of_color() -> None:
    state = position(
        hands=("green green red", ""),
        mountains=("green", ""),
        fields={(0, 1): "green", (1, 1): "green"},
        deck=PLENTY,
    )
    assert discard("green", 2) in legal(state)


# ---------------------------------------------------------------- A: Build Mountain & Draw


@pytest.mark.parametrize(("held", "drawn"), [(1, 3), (4, 3), (5, 3), (6, 3), (7, 2), (8, 1)])
def test_r5_build_mountain_draws_min_3_and_8_minus_hand(held: int, drawn: int) -> None:
    """Counted after playing the card: 7 left draws 1, 6 left draws 2, else 3 (rulebook A.2)."""
    state = position(hands=({"red": held}, "black"), deck=PLENTY)
    play(state, build(0, "red"))
    assert state.hand_sizes[0] == held - 1 + drawn
    assert state.hand_sizes[0] <= 8
    assert len(state.deck) == 18 - drawn


def test_build_mountain_plays_exactly_one_card_and_draws_from_the_top_of_the_deck() -> None:
    state = position(
        hands=("red red red red", "black purple"), deck="black black yellow green orange"
    )
    play(state, build(1, "red"))
    assert names(state.mountains[1]) == {"red": 1}
    assert names(state.hands[0]) == {"red": 3, "yellow": 1, "green": 1, "orange": 1}
    assert state.deck == [BLACK, BLACK]
    assert state.decision().seat == 1  # type: ignore[union-attr]


def test_r5_hand_limit_8_is_never_exceeded_by_any_legal_move() -> None:
    state = position(hands=("red " * 8, "black"), deck=PLENTY)
    for action in state.legal_actions():
        after = state.copy()
        after.apply_action(action)
        assert max(after.hand_sizes) <= 8


# ---------------------------------------------------------------- B: Grow Field & No Draw


def test_r5_grow_field_draws_nothing() -> None:
    state = position(hands=("red red red green", "black"), deck=PLENTY)
    play(state, grow(0, "red", 3))
    assert names(state.hands[0]) == {"green": 1}
    assert names(state.fields[0][0]) == {"red": 3}
    assert len(state.deck) == 18


def test_r5_grow_field_must_leave_at_least_one_card_in_hand() -> None:
    state = position(hands=("red red red", "black"), deck=PLENTY)
    moves = legal(state)
    assert grow(0, "red", 2) in moves and grow(0, "red", 3) not in moves
    with pytest.raises(IllegalMoveError) as error:
        state.move_to_action(grow(0, "red", 3))
    assert str(error.value) == (
        "Grow Field must leave at least 1 card in your hand; you hold 3 and would play 3 (R5)."
    )


def test_grow_field_plays_cards_of_one_colour_into_your_own_field() -> None:
    state = position(hands=("", "red red green"), deck=PLENTY, current=1)
    play(state, grow(1, "red", 2))
    assert names(state.fields[1][1]) == {"red": 2}
    assert state.fields[1][0] == [0] * 6


# ---------------------------------------------------------------- C: Discard & Redraw


def test_r6_discard_and_redraw_draws_as_many_cards_as_discarded() -> None:
    state = position(hands=("red red red green", "black"), deck=PLENTY)
    play(state, discard("red", 3))
    assert state.hand_sizes[0] == 4
    assert state.discard[RED] == 3
    assert len(state.deck) == 15


def test_r5_discard_and_redraw_keeps_a_full_hand_at_8() -> None:
    state = position(hands=("red " * 8, "black"), deck=PLENTY)
    play(state, discard("red", 8))
    assert state.hand_sizes[0] == 8


def test_r6_discards_go_first_so_a_player_can_redraw_their_own_discards() -> None:
    state = position(hands=("red red green", "black"), deck="yellow")
    play(state, discard("red", 2))
    # yellow exhausts the deck (R3), the discard pile (the 2 red) becomes the deck.
    assert names(state.hands[0]) == {"green": 1, "yellow": 1, "red": 1}
    assert state.discard == [0] * 6 and state.deck == [RED]
    assert state.end_triggered


def test_r7_discard_and_redraw_never_completes_a_mandala() -> None:
    state = position(
        hands=("red red green", "black"),
        mountains=("black green orange", ""),
        fields={(0, 0): "purple", (0, 1): "yellow"},
        deck=PLENTY,
    )
    play(state, discard("red", 1))
    assert state.decision() is not None and state.decision().kind == "turn"  # type: ignore[union-attr]
    assert state.destroying == -1


# ---------------------------------------------------------------- R7: completion


def test_r7_completion_only_of_the_mandala_played_into() -> None:
    """Mandala 1 holds all six colours (a hand-made oddity); a play into Mandala 0 that does
    not complete Mandala 0 destroys nothing."""
    state = position(
        hands=("red red green", "black"),
        mountains=("black", "black green orange"),
        fields={(1, 0): "purple", (1, 1): "yellow red"},
        deck=PLENTY,
    )
    play(state, build(0, "red"))
    assert state.destroying == -1
    assert state.decision().kind == "turn"  # type: ignore[union-attr]


def test_r7_build_mountain_completes_when_all_six_colours_are_present() -> None:
    state = position(
        hands=("yellow red", "black"),
        mountains=("black green red", ""),
        fields={(0, 0): "orange orange", (0, 1): "purple"},
        deck=PLENTY,
    )
    play(state, build(0, "yellow"))
    # seat 0 drew 3 first (R7: the check follows the draw), then the destruction starts.
    assert state.hand_sizes[0] == 4
    assert state.destroying == 0
    assert state.decision().kind == "claim"  # type: ignore[union-attr]


def test_r7_grow_field_completes_when_all_six_colours_are_present() -> None:
    state = position(
        hands=("", "yellow yellow red"),
        mountains=("black green red", ""),
        fields={(0, 0): "orange", (0, 1): "purple"},
        deck=PLENTY,
        current=1,
    )
    play(state, grow(0, "yellow", 2))
    assert state.destroying == 0 and state.completed_by == 1


def test_r7_r9a_a_draw_that_exhausts_the_deck_then_completes_makes_it_the_last_mandala() -> None:
    state = position(
        hands=("red red", "black"),
        mountains=("black green", "orange"),
        fields={(0, 0): "orange yellow", (0, 1): "purple"},
        deck="green",
        discard="black black",
    )
    play(state, build(0, "red"))  # draws green (deck exhausted: R3), then 2 black reshuffled
    assert state.end_triggered
    assert names(state.hands[0]) == {"red": 1, "green": 1, "black": 2}
    # seat 0 (2 Field cards) claims first: black, seat 1 green, seat 0 red (forced).
    play(state, claim("black"), claim("green"))
    assert state.is_over()
    assert state.outcome().end == "deck_exhausted"
    assert state.mountains[0] == [0] * 6  # R9: no refill
    assert state.rivers == [[BLACK, RED], [GREEN]]


# ---------------------------------------------------------------- R8: claim order


def _ready(
    field0: str, field1: str, current: int = 0, mountain: str = "black green orange"
) -> MandalaState:
    """Mandala 0 lacks only red; the seat on turn holds red to complete it by Build Mountain."""
    hand = "red yellow"
    return position(
        hands=(hand, hand) if current == 0 else ("yellow", hand),
        mountains=(mountain, "black"),
        fields={(0, 0): field0, (0, 1): field1},
        deck=PLENTY,
        current=current,
    )


def test_r8_more_cards_in_ones_field_claims_first() -> None:
    state = _ready("purple", "yellow yellow")
    play(state, build(0, "red"))
    assert state.decision().seat == 1 and state.decision().kind == "claim"  # type: ignore[union-attr]


def test_r8_more_cards_in_ones_field_claims_first_even_if_they_completed() -> None:
    state = _ready("purple purple purple", "yellow")
    play(state, build(0, "red"))
    assert state.decision().seat == 0  # type: ignore[union-attr]


@pytest.mark.parametrize("completer", [0, 1])
def test_r8_tie_in_fields_the_player_who_did_not_complete_claims_first(completer: int) -> None:
    state = _ready("purple purple", "yellow yellow", current=completer)
    play(state, build(0, "red"))
    assert state.decision().seat == 1 - completer  # type: ignore[union-attr]
    assert state.view(0)["destroying"] == {"mandala": 0, "completed_by": completer}


def test_r8_players_alternate_and_the_last_colour_is_claimed_without_asking() -> None:
    state = _ready("purple purple purple", "yellow", mountain="black black green orange")
    play(state, build(0, "red"))
    # Mountain: black 2, green, orange, red. Seat 0 claims first.
    seats = []
    for colour in ("black", "green", "orange"):
        seats.append(state.decision().seat)  # type: ignore[union-attr]
        assert claim_action(COLOURS.index(colour)) in state.legal_actions()
        play(state, claim(colour))
    assert seats == [0, 1, 0]
    # the last colour, red, went to seat 1 without a question
    assert state.rivers == [[BLACK, ORANGE], [GREEN, RED]]
    assert state.decision().kind == "turn" and state.decision().seat == 1  # type: ignore[union-attr]


def test_r8_a_single_colour_left_is_claimed_automatically() -> None:
    state = _ready("purple purple", "yellow", mountain="black green orange")
    play(state, build(0, "red"), claim("black"), claim("green"))
    # orange and red left -> seat 0 chooses red, orange goes to seat 1 without asking.
    play(state, claim("red"))
    assert state.rivers == [[BLACK, RED], [GREEN, ORANGE]]
    assert state.destroying == -1


def test_r8_a_player_with_an_empty_field_still_claims_but_discards_the_claims() -> None:
    state = _ready("", "purple yellow")
    play(state, build(0, "red"))
    # Mountain: black, green, orange, red. Seat 1 (1 card) first; seat 0 is still asked.
    play(state, claim("black"))
    assert state.decision().seat == 0 and state.decision().kind == "claim"  # type: ignore[union-attr]
    play(state, claim("green"), claim("orange"))  # seat 0 denies green to seat 1
    assert state.rivers == [[], [BLACK, ORANGE]]
    assert state.cup_claimed[0] == [0] * 6
    # seat 0's claims (green, red) and the Fields (purple, yellow) went to the discard pile.
    assert names(state.discard) == {"green": 1, "red": 1, "purple": 1, "yellow": 1}


def test_r8_both_fields_empty_claims_resolved_without_asking_all_cards_discarded() -> None:
    state = _ready("", "", mountain="black green orange purple yellow")
    play(state, build(0, "red"))
    assert state.decision().kind == "turn" and state.decision().seat == 1  # type: ignore[union-attr]
    assert state.rivers == [[], []] and state.cup_claimed == [[0] * 6, [0] * 6]
    assert names(state.discard) == {c: 1 for c in COLOURS}
    assert sum(state.mountains[0]) == 2  # refilled


# ---------------------------------------------------------------- River and Cup


def test_claim_of_a_new_colour_puts_one_card_in_the_river_and_the_rest_in_the_cup() -> None:
    state = _ready("purple purple", "yellow", mountain="black black black green orange")
    play(state, build(0, "red"), claim("black"))
    assert state.rivers[0] == [BLACK]
    assert names(state.cup_claimed[0]) == {"black": 2}


def test_claim_of_a_colour_already_in_the_river_puts_all_cards_in_the_cup() -> None:
    state = _ready("purple purple", "yellow", mountain="black black black green orange")
    state.rivers[0] = [BLACK]
    play(state, build(0, "red"), claim("black"))
    assert state.rivers[0] == [BLACK]
    assert names(state.cup_claimed[0]) == {"black": 3}


def test_river_fills_from_the_left_without_gaps_in_claim_order() -> None:
    state = _ready("purple purple", "yellow", mountain="black green orange")
    state.rivers[0] = [YELLOW]
    play(state, build(0, "red"), claim("orange"), claim("green"), claim("red"))
    assert state.rivers[0] == [YELLOW, ORANGE, RED]
    assert [COLOURS[c] for c in state.rivers[0]] == state.view(1)["players"][0]["river"]


def test_fields_are_discarded_after_the_destruction() -> None:
    state = _ready("purple purple", "yellow")
    play(state, build(0, "red"), claim("black"), claim("green"), claim("orange"))
    assert state.fields[0] == [[0] * 6, [0] * 6]
    assert names(state.discard) == {"purple": 2, "yellow": 1}


def test_r10_refill_draws_2_cards_to_the_emptied_mountain_ignoring_the_rule_of_color() -> None:
    state = _ready("purple purple", "yellow")
    state.deck = [ORANGE, GREEN, BLACK, BLACK, BLACK, YELLOW, YELLOW]
    state.fields[1][1] = counts("yellow")  # other Mandala: untouched
    play(state, build(0, "red"), claim("black"), claim("green"), claim("orange"))
    # Seat 0 drew 3 (yellow, yellow, black); the refill took black, black.
    assert names(state.mountains[0]) == {"black": 2}
    assert state.deck == [ORANGE, GREEN] and not state.end_triggered
    assert names(state.mountains[1]) == {"black": 1}
    assert state.decision().seat == 1  # type: ignore[union-attr]


# ---------------------------------------------------------------- R3, R4, R9: the end


def test_r3_deck_exhausted_by_a_hand_draw_reshuffles_the_discard_at_once() -> None:
    state = position(
        hands=("black black black", "red yellow orange purple"), deck="green", discard="red red red"
    )
    play(state, build(0, "black"))
    assert state.end_triggered and state.view(1)["end_triggered"]
    # the draw goes on from the new deck (R3)
    assert names(state.hands[0]) == {"black": 2, "green": 1, "red": 2}
    assert state.deck == [RED] and state.discard == [0] * 6
    assert not state.is_over()


def test_r3_deck_exhausted_by_a_mountain_refill_triggers_the_end() -> None:
    state = position(
        hands=("red red", "yellow yellow"),
        mountains=("black green orange", "black green orange"),
        fields={(0, 0): "purple", (0, 1): "yellow", (1, 0): "purple", (1, 1): "red"},
        deck="green black",
    )
    play(state, grow(0, "red"))  # completes Mandala 0; tie 2-1 -> seat 0 first
    play(state, claim("black"), claim("green"))
    # refill took the last 2 cards: exhausted (R3), the Fields (3 cards) became the deck
    assert state.end_triggered and not state.is_over()
    assert names(state.mountains[0]) == {"black": 1, "green": 1}
    assert len(state.deck) == 3 and state.discard == [0] * 6
    # R9a: the next destruction ends the game, without a refill
    play(state, grow(1, "yellow"), claim("black"), claim("orange"))
    assert state.is_over() and state.outcome().end == "deck_exhausted"
    assert state.mountains[1] == [0] * 6 and len(state.deck) == 3


def test_r4_empty_discard_keeps_the_deck_empty_then_a_later_draw_reshuffles() -> None:
    # Mandala 1 holds the colours no hand or pile does, so it can still complete (R16).
    state = position(
        hands=("black black black", "red red yellow"),
        mountains=(None, "orange purple"),
        deck="green",
    )
    play(state, build(0, "black"))
    assert state.end_triggered and state.deck == []
    assert names(state.hands[0]) == {"black": 2, "green": 1}
    play(state, discard("red", 2))  # the later draw reshuffles the 2 red just discarded
    assert names(state.hands[1]) == {"red": 2, "yellow": 1}
    assert state.deck == [] and state.discard == [0] * 6
    assert not state.is_over()


def test_r4_a_draw_with_empty_deck_and_empty_discard_is_skipped() -> None:
    state = position(
        hands=("black black black", "red"),
        mountains=(None, "yellow green orange purple"),
        end_triggered=True,
    )
    play(state, build(0, "black"))
    assert state.hand_sizes[0] == 2 and names(state.mountains[0]) == {"black": 1}
    assert state.decision().seat == 1  # type: ignore[union-attr]


def test_r4_a_second_exhaustion_reshuffles_again_without_further_effect() -> None:
    state = position(
        hands=("black black black", "red"),
        mountains=(None, "yellow orange purple"),
        deck="green",
        discard="red",
        end_triggered=True,
    )
    play(state, build(0, "black"))
    assert names(state.hands[0]) == {"black": 2, "green": 1, "red": 1}
    assert state.end_triggered and not state.is_over()


def test_r9a_after_exhaustion_the_game_ends_right_after_the_next_destruction() -> None:
    state = _ready("purple purple", "yellow")
    state.end_triggered = True
    deck_before = len(state.deck)
    play(state, build(0, "red"), claim("black"), claim("green"), claim("orange"))
    assert state.is_over()
    outcome = state.outcome()
    assert outcome.end == "deck_exhausted"
    assert len(state.deck) == deck_before - 3  # the Build Mountain drew 3; no refill
    assert state.mountains[0] == [0] * 6
    assert state.decision() is None and state.legal_actions() == []


def test_r9b_a_6th_river_colour_ends_the_game_after_that_mountain_is_fully_claimed() -> None:
    state = _ready("purple purple", "orange", mountain="yellow black green")
    state.rivers[0] = [BLACK, GREEN, ORANGE, PURPLE, RED]
    play(state, build(0, "red"), claim("yellow"))  # seat 0's 6th colour
    assert not state.is_over()
    assert state.decision().seat == 1 and state.decision().kind == "claim"  # type: ignore[union-attr]
    play(state, claim("black"))
    assert state.decision().seat == 0 and state.decision().kind == "claim"  # type: ignore[union-attr]
    play(state, claim("green"))  # seat 0; red goes to seat 1 without asking
    assert state.is_over()
    assert state.outcome().end == "sixth_river_colour"
    assert state.rivers[0] == [BLACK, GREEN, ORANGE, PURPLE, RED, YELLOW]
    assert state.rivers[1] == [BLACK, RED]
    assert names(state.cup_claimed[0]) == {"green": 1}
    assert state.mountains[0] == [0] * 6  # no refill


def test_r9_a_6th_river_colour_after_exhaustion_ends_the_game_once_with_one_termination() -> None:
    state = _ready("purple purple", "orange", mountain="yellow black green")
    state.rivers[0] = [BLACK, GREEN, ORANGE, PURPLE, RED]
    state.end_triggered = True
    play(state, build(0, "red"), claim("yellow"), claim("black"), claim("green"))
    assert state.is_over()
    assert state.outcome().termination is Termination.NORMAL
    assert state.outcome().end in ("sixth_river_colour", "deck_exhausted")
    assert state.mountains[0] == [0] * 6


# ---------------------------------------------------------------- R11, R12: turns


def test_r11_an_empty_hand_passes_without_a_decision() -> None:
    state = position(hands=("red red red", ""), deck=PLENTY)
    play(state, discard("red", 1))
    assert state.decision().seat == 0 and state.decision().kind == "turn"  # type: ignore[union-attr]
    assert state.turn == 2  # seat 0's turn and seat 1's pass


def test_r15_when_no_seat_can_ever_act_again_the_game_ends_at_once() -> None:
    """R15 (arena/games/mandala/RULINGS.md): both hands empty, nothing to draw: a stall.

    Without R15 the seats passed turn after turn until the turn limit (R12)."""
    state = position(hands=("red", ""), deck=(), discard=None, turns=10)
    state.rivers[0] = [RED]
    state.cup_claimed[0][RED] = 2
    play(state, build(0, "red"))  # the last card in any hand; the deck and discard are empty
    assert state.is_over() and state.decision() is None
    assert state.turn == 11  # the turn just played, and no pass after it
    outcome = state.outcome()
    assert outcome.termination is Termination.NORMAL and outcome.end == "stalled"
    assert outcome.scores == (2, 0)  # scored as it stands, by R13
    assert outcome.ranks == (0, 1)


def test_r15_one_empty_hand_is_no_stall() -> None:
    state = position(hands=("red", "black black yellow green orange purple"), deck=(), turns=10)
    play(state, build(0, "red"))
    assert not state.is_over()
    assert state.decision().seat == 1  # type: ignore[union-attr]


def test_r16_a_single_card_no_mountain_can_take_ends_the_game_as_a_stall() -> None:
    """R16 (arena/games/mandala/RULINGS.md): once green is played, the cards in play are one
    red, which a Field of each Mandala already holds; both Mandalas lack yellow, black,
    orange and purple, so neither can complete. Seat 0 could only discard and redraw its red
    card for ever."""
    state = position(hands=("red green", ""), fields={(0, 0): "red", (1, 1): "red"}, turns=10)
    play(state, build(0, "green"))  # nothing to draw: seat 0 keeps its red card
    assert state.is_over() and state.decision() is None
    assert state.turn == 11  # the turn just played counts, as in R15
    outcome = state.outcome()
    assert outcome.termination is Termination.NORMAL and outcome.end == "stalled"


def test_r16_cards_no_field_can_take_either_end_the_game_as_a_stall() -> None:
    """A case seen in `make run`: seat 0 holds four yellow cards, seat 1 one; yellow is in
    seat 1's Field of both Mandalas, so seat 0 can neither build nor grow with it."""
    yellow = "yellow yellow yellow yellow"
    fields = {(0, 1): "yellow", (1, 1): "yellow"}
    state = position(hands=(yellow + " green", "yellow"), fields=fields)
    play(state, build(0, "green"))
    assert state.is_over() and state.outcome().end == "stalled"


def _orange_out_of_play(seat0: str) -> MandalaState:
    """The position `make run` reached (game r0024-p000140-g1): every orange card is in a
    Cup, purple lies in seat 0's Fields and yellow in seat 1's, and seat 1 holds two purple
    and two yellow with nothing left to draw. Once seat 0 builds green into Mandala 1, each
    Mandala lacks orange alone."""
    return position(
        hands=(seat0, "purple purple yellow yellow"),
        mountains=("red black green", "red black"),
        fields={(0, 0): "purple", (0, 1): "yellow", (1, 0): "purple", (1, 1): "yellow"},
        cups=("orange " * 9, "orange " * 9),
        turns=40,
    )


def test_r16_each_mandala_lacking_a_colour_no_card_in_play_holds_is_a_stall() -> None:
    """Seat 1 can still grow yellow into its own Fields, but both Mandalas lack orange and no
    orange card is in play: neither can complete, and the score can no longer change."""
    state = _orange_out_of_play("green")
    before = state.copy()
    play(before, build(1, "green"))
    play(state, build(1, "green"))  # seat 0's last card
    assert state.is_over() and state.turn == 41
    outcome = state.outcome()
    assert outcome.termination is Termination.NORMAL and outcome.end == "stalled"
    # Not a stall of cards no Mandala can take: seat 1 could still play.
    blocked = _orange_out_of_play("green")
    blocked.current = 1
    assert grow(0, "yellow") in blocked.legal_moves()


def test_r16_a_card_some_seat_can_still_play_is_no_stall() -> None:
    # The one orange card lies at the bottom of the deck: it is in play.
    state = _orange_out_of_play("green")
    state.deck = [ORANGE]
    play(state, build(1, "green"))  # seat 0 draws the orange card
    assert not state.is_over() and state.hands[0][ORANGE] == 1
    # Seat 0 keeps an orange card: it can complete either Mandala.
    state = _orange_out_of_play("green orange")
    play(state, build(1, "green"))
    assert not state.is_over()
    assert state.decision().seat == 1  # type: ignore[union-attr]


def test_r16_one_mandala_that_can_still_complete_is_no_stall() -> None:
    """Mandala 0 lacks orange, which is out of play, but Mandala 1 holds it and lacks only
    green, which seat 1 holds: Mandala 1 can complete, and its destruction brings orange
    back into play."""
    state = position(
        hands=("red", "green yellow"),
        mountains=("red black", "orange red black"),
        fields={(0, 0): "purple", (0, 1): "yellow", (1, 0): "purple", (1, 1): "yellow"},
        cups=("orange " * 8, "orange " * 9),
    )
    play(state, build(0, "red"))
    assert not state.is_over()
    assert build(1, "green") in state.legal_moves()


@pytest.mark.parametrize("ruling", ["R15", "R16"])
def test_r17_a_stall_on_the_turn_that_reaches_the_limit_ends_stalled(ruling: str) -> None:
    """R17 (arena/games/mandala/RULINGS.md): the stall is checked before the limit, so the
    same game ends the same way whether turn 11 reaches the limit or not."""
    results = []
    for limit in (11, 10_000):
        if ruling == "R15":  # the last card in any hand; the deck and discard are empty
            state = position(hands=("red", ""), turns=10, turn_limit=limit)
            play(state, build(0, "red"))
        else:  # as test_r16_a_single_card_no_mountain_can_take_ends_the_game_as_a_stall
            fields = {(0, 0): "red", (1, 1): "red"}
            state = position(hands=("red green", ""), fields=fields, turns=10, turn_limit=limit)
            play(state, build(0, "green"))
        assert state.is_over() and state.turn == 11
        outcome = state.outcome()
        assert outcome.termination is Termination.NORMAL and outcome.end == "stalled"
        results.append(outcome.to_json())
    assert results[0] == results[1]  # a cap that cuts no turn changes no result


def test_r17_a_discard_and_redraw_on_the_limits_turn_still_ends_at_the_limit() -> None:
    """A Discard & Redraw cannot begin a stall (R16), so it is not checked: it ends
    `turn_limit`, as the same game under a higher limit would go on."""
    state = position(hands=("red red red", "black"), deck=PLENTY, turns=10, turn_limit=11)
    play(state, discard("red", 1))
    assert state.is_over() and state.turn == 11
    assert state.outcome().termination is Termination.TURN_LIMIT


def test_r12_turn_limit_ends_the_game_with_termination_turn_limit() -> None:
    state = position(hands=("red red red", "black"), deck=PLENTY, turns=4, turn_limit=5)
    play(state, discard("red", 1))
    assert state.is_over() and state.turn == 5
    assert state.outcome().termination is Termination.TURN_LIMIT
    with pytest.raises(IllegalMoveError) as error:
        state.move_to_action(discard("red", 1))
    assert str(error.value) == "The game is over; no move can be played."


def test_r12_turn_limit_is_configurable_and_defaults_to_1000() -> None:
    game = get_game("mandala")
    assert game.default_config["turn_limit"] == 1000
    assert game.new_state(1).turn_limit == 1000  # type: ignore[attr-defined]
    state = game.new_state(1, {"turn_limit": 7})
    rng = random.Random(1)
    while not state.is_over():
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.turn == 7 and state.outcome().termination is Termination.TURN_LIMIT


@pytest.mark.parametrize("bad", [0, -3, 2.5, "10", True, None])
def test_r12_turn_limit_must_be_a_whole_number_of_at_least_1(bad: Any) -> None:
    with pytest.raises(GameError):
        MandalaGame().new_state(1, {"turn_limit": bad})


def test_unknown_configuration_option_and_player_count_are_refused() -> None:
    with pytest.raises(GameError):
        MandalaGame().new_state(1, {"turn_limt": 5})
    with pytest.raises(GameError):
        MandalaGame().new_state(1, num_players=3)


# ---------------------------------------------------------------- R13: scoring


def test_r13_rulebook_example_anna_scores_53_points() -> None:
    """Anna ends the game by adding a 6th colour to her River; her Cup scores 4 (4 cards of
    slot 1) + ... + 15 (3 cards of slot 5) + 6 (1 card of slot 6) = 53. (The text keeps only
    4, 15, 6 and 53; the middle slots, 28 points, are filled here with 2x2 + 4x3 + 3x4.)"""
    state = position(
        hands=("red red", "black"),
        mountains=("yellow yellow", ""),
        fields={(0, 0): "black green orange", (0, 1): "purple"},
        rivers=("black green orange purple red", ""),
        cups=("black black green orange orange purple", "black green"),
        claimed=("black black green orange orange purple purple red red red", ""),
    )
    play(state, grow(0, "red"))  # completes Mandala 0; Anna claims yellow (forced)
    assert state.is_over()
    outcome = state.outcome()
    assert outcome.end == "sixth_river_colour"
    assert state.rivers[0] == [BLACK, GREEN, ORANGE, PURPLE, RED, YELLOW]
    assert names(state.cup(0)) == {
        "black": 4,
        "green": 2,
        "orange": 4,
        "purple": 3,
        "red": 3,
        "yellow": 1,
    }
    assert outcome.scores == (53, 0)
    assert outcome.ranks == (0, 1) and outcome.winners == (0,)


def _scored(river0: str, cup0: str, river1: str, cup1: str) -> MandalaState:
    """A position ended at once by the turn limit, scored as it stands (R12, R13)."""
    state = position(
        hands=("red red", "red red"),
        rivers=(river0, river1),
        cups=(cup0, cup1),
        deck=PLENTY,
        turn_limit=1,
    )
    play(state, discard("red", 1))
    assert state.is_over()
    return state


def test_r13_river_cards_score_nothing_and_cup_cards_off_the_river_score_0() -> None:
    state = _scored("red green", "green green yellow", "", "black black")
    assert state.outcome().scores == (4, 0)


def test_r13_equal_scores_fewer_cup_cards_wins() -> None:
    state = _scored("red green", "green", "red", "red red purple")  # 2 vs 2 points
    outcome = state.outcome()
    assert outcome.scores == (2, 2)
    assert outcome.ranks == (0, 1) and outcome.details["tie_break"] is True
    assert outcome.details["cup_sizes"] == [1, 3]
    assert outcome.to_json()["winner"] == 0


def test_r13_equal_scores_and_equal_cup_sizes_is_a_draw() -> None:
    state = _scored("red", "red yellow", "green", "green black")
    outcome = state.outcome()
    assert outcome.scores == (1, 1) and outcome.ranks == (0, 0)
    assert outcome.is_draw and outcome.to_json()["winner"] is None


def test_r13_higher_score_wins_whatever_the_cup_sizes() -> None:
    state = _scored("red", "red red black black black", "red", "red")
    assert state.outcome().ranks == (0, 1)


def test_outcome_before_the_end_is_an_error() -> None:
    with pytest.raises(GameError):
        get_game("mandala").new_state(3).outcome()


# ---------------------------------------------------------------- R14: what a seat sees


def _hidden_variant(state: MandalaState, seat: int, rng: random.Random) -> MandalaState:
    """The same position with the opponent's hand, the opponent's setup Cup and the deck
    dealt anew from the same cards: everything `seat` may not see changes, nothing else."""
    other = state.copy()
    opp = 1 - seat
    pool = list(other.deck)
    for pile in (other.hands[opp], other.cup_setup[opp]):
        pool += [c for c in range(6) for _ in range(pile[c])]
    rng.shuffle(pool)
    sizes = (other.hand_sizes[opp], sum(other.cup_setup[opp]))
    other.hands[opp] = counts([COLOURS[c] for c in pool[: sizes[0]]])
    other.cup_setup[opp] = counts([COLOURS[c] for c in pool[sizes[0] : sum(sizes)]])
    other.deck = pool[sum(sizes) :]
    other.seed = state.seed + 1  # future shuffles differ too
    return other


def test_r14_states_differing_only_in_hidden_cards_give_identical_views() -> None:
    a = position(
        hands=("black green", "red red green"),
        cups=("yellow yellow", "black yellow"),
        deck="orange purple purple black",
        mountains=("red", "green"),
        discard="orange",
    )
    b = position(
        hands=("black green", "orange purple black"),
        cups=("yellow yellow", "purple red"),
        deck="red green yellow black",
        mountains=("red", "green"),
        discard="orange",
    )
    assert card_total(a) == card_total(b)
    assert a.view(0) == b.view(0)
    assert a.view(1) != b.view(1)


@pytest.mark.parametrize("seed", range(6))
def test_r14_hidden_information_never_reaches_the_view_in_played_positions(seed: int) -> None:
    rng = random.Random(seed)
    state = get_game("mandala").new_state(seed)
    for _ in range(rng.randrange(0, 60)):
        if state.is_over():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    for seat in (0, 1):
        for _ in range(3):
            variant = _hidden_variant(state, seat, rng)  # type: ignore[arg-type]
            assert variant.view(seat) == state.view(seat)


def test_r14_the_view_holds_everything_the_seat_has_seen() -> None:
    state = position(
        hands=("black green green", "red red"),
        mountains=("red", "green"),
        fields={(0, 0): "yellow", (1, 1): "orange orange"},
        rivers=("purple", "black"),
        cups=("yellow yellow", "black yellow"),
        claimed=("purple", "black black"),
        deck="orange purple purple black",
        discard="orange red",
        turns=9,
        current=1,
        end_triggered=True,
    )
    view = state.view(0)
    json.dumps(view)
    assert view["seat"] == 0 and view["turn"] == 9 and view["to_move"] == 1
    assert view["decision"] == "turn" and view["deciding_seat"] == 1
    assert view["hand"] == {"black": 1, "green": 2, "orange": 0, "purple": 0, "red": 0, "yellow": 0}
    assert names(counts(view["cup"])) == {"yellow": 2, "purple": 1}
    assert view["deck_size"] == 4
    assert names(counts(view["discard"])) == {"orange": 1, "red": 1}
    assert view["end_triggered"] is True
    assert names(counts(view["mandalas"][0]["mountain"])) == {"red": 1}
    assert names(counts(view["mandalas"][0]["fields"][0])) == {"yellow": 1}
    assert names(counts(view["mandalas"][1]["fields"][1])) == {"orange": 2}
    me, opp = view["players"]
    assert me["hand_size"] == 3 and opp["hand_size"] == 2
    assert me["river"] == ["purple"] and opp["river"] == ["black"]
    assert me["cup_size"] == 3 and me["cup_unknown"] == 0
    assert opp["cup_size"] == 4 and opp["cup_unknown"] == 2
    assert names(counts(opp["cup_claimed"])) == {"black": 2}
    assert view["destroying"] is None
    for pile in (view["hand"], view["cup"], view["discard"], opp["cup_claimed"]):
        assert list(pile) == list(COLOURS)  # every pile names all six colours
    text = json.dumps(view)
    assert "cup_setup" not in text and 'deck"' not in text


# ---------------------------------------------------------------- moves: errors and JSON


@pytest.mark.parametrize(
    ("move", "sentence"),
    [
        (discard("purple"), "You have no purple cards in hand."),
        (build(0, "purple"), "You have no purple cards in hand."),
        (grow(0, "yellow", 2), "You have only 1 yellow card in hand."),
        (grow(1, "red", 3), "You have only 2 red cards in hand."),
        (discard("red", 3), "You have only 2 red cards in hand."),
        (
            build(0, "green"),
            "Mandala 0 already has green in your Field, so green cannot go into its "
            "Mountain (Rule of Color).",
        ),
        (
            build(1, "black"),
            "Mandala 1 already has black in your opponent's Field, so black cannot go into "
            "its Mountain (Rule of Color).",
        ),
        (grow(0, "red", 1), "Mandala 0 already has red in the Mountain (Rule of Color)."),
        (
            grow(1, "black", 1),
            "Mandala 1 already has black in your opponent's Field (Rule of Color).",
        ),
        (claim("red"), "No Mandala is being destroyed, so there is nothing to claim."),
    ],
)
def test_every_illegal_turn_move_gives_its_exact_sentence(
    move: dict[str, Any], sentence: str
) -> None:
    state = position(
        hands=("black green red red yellow", "orange"),
        mountains=("red", ""),
        fields={(0, 0): "green", (1, 1): "black"},
        deck=PLENTY,
    )
    with pytest.raises(IllegalMoveError) as error:
        state.move_to_action(move)
    assert str(error.value) == sentence
    with pytest.raises(IllegalMoveError):
        state.apply_move(move)


def test_illegal_moves_during_a_destruction_give_their_exact_sentences() -> None:
    state = _ready("purple purple", "yellow")
    play(state, build(0, "red"))
    with pytest.raises(IllegalMoveError) as error:
        state.move_to_action(build(1, "yellow"))
    assert str(error.value) == (
        "Mandala 0 is being destroyed: the move must be a claim, not build_mountain."
    )
    with pytest.raises(IllegalMoveError) as error:
        state.move_to_action(claim("yellow"))
    assert str(error.value) == "The Mountain of Mandala 0 has no yellow to claim."


@pytest.mark.parametrize(
    ("move", "sentence"),
    [
        ([1, 2], "A move must be a JSON object, not [1, 2]."),
        (3, "A move must be a JSON object, not 3."),
        ("claim red", "A move must be a JSON object, not 'claim red'."),
        (
            {"action": "pass"},
            "'action' must be one of build_mountain, grow_field, discard_redraw, claim, "
            "not 'pass'.",
        ),
        (
            {},
            "'action' must be one of build_mountain, grow_field, discard_redraw, claim, not None.",
        ),
        (
            {"action": "grow_field", "mandala": 0, "colour": "red"},
            "A grow_field move needs 'count'.",
        ),
        ({"action": "build_mountain"}, "A build_mountain move needs 'mandala', 'colour'."),
        (
            {"action": {"x": 1}},
            "'action' must be one of build_mountain, grow_field, discard_redraw, claim, "
            "not {'x': 1}.",
        ),
        (
            {"action": "claim", "colour": ["red"]},
            "'colour' must be one of black, green, orange, purple, red, yellow, not ['red'].",
        ),
        (
            {"action": "claim", "color": {"name": "red"}},
            "'colour' must be one of black, green, orange, purple, red, yellow, "
            "not {'name': 'red'}.",
        ),
        (
            {"action": "claim", "colour": "pink"},
            "'colour' must be one of black, green, orange, purple, red, yellow, not 'pink'.",
        ),
        (
            {"action": "claim", "colour": "Red"},
            "'colour' must be one of black, green, orange, purple, red, yellow, not 'Red'.",
        ),
        (build(2, "red"), "'mandala' must be a whole number from 0 to 1, not 2."),
        (
            {"action": "build_mountain", "mandala": "0", "colour": "red"},
            "'mandala' must be a whole number from 0 to 1, not '0'.",
        ),
        (discard("red", 0), "'count' must be a whole number from 1 to 8, not 0."),
        (discard("red", 9), "'count' must be a whole number from 1 to 8, not 9."),
        (
            {"action": "discard_redraw", "colour": "red", "count": True},
            "'count' must be a whole number from 1 to 8, not True.",
        ),
        (
            {"action": "discard_redraw", "colour": "red", "count": 1.0},
            "'count' must be a whole number from 1 to 8, not 1.0.",
        ),
    ],
)
def test_malformed_moves_raise_move_format_error_with_exact_sentences(
    move: Any, sentence: str
) -> None:
    state = position(hands=("red red", "red"), deck=PLENTY)
    with pytest.raises(MoveFormatError) as error:
        state.move_to_action(move)
    assert str(error.value) == sentence
    assert not isinstance(error.value, IllegalMoveError)


def test_moves_round_trip_through_json_for_every_action_code() -> None:
    state = position(hands=({c: 8 for c in COLOURS}, "red"), deck=PLENTY)
    state.hand_sizes[0] = 48  # a hand-made giant hand: every turn code is legal
    turn_codes = state.legal_actions()
    assert sorted(turn_codes) == list(range(156))
    for code in turn_codes:
        move = json.loads(json.dumps(state.action_to_move(code)))
        assert state.move_to_action(move) == code
    destroying = position(mountains=({c: 1 for c in COLOURS}, ""))
    destroying.destroying, destroying.claimer = 0, 0
    assert sorted(destroying.legal_actions()) == list(range(156, NUM_ACTIONS))
    for code in destroying.legal_actions():
        move = json.loads(json.dumps(destroying.action_to_move(code)))
        assert move == claim(COLOURS[code - 156])
        assert destroying.move_to_action(move) == code


def test_move_dicts_have_the_shapes_of_the_spec() -> None:
    state = position(hands=("red red", "red"), deck=PLENTY)
    assert state.action_to_move(state.move_to_action(build(0, "red"))) == build(0, "red")
    assert state.action_to_move(state.move_to_action(grow(1, "red", 1))) == grow(1, "red", 1)
    assert state.action_to_move(state.move_to_action(discard("red", 2))) == discard("red", 2)
    assert state.describe_move(grow(1, "red", 1)) == "grows a red card in their Field of Mandala 1"


# ---------------------------------------------------------------- reproducibility and records


def _random_record(seed: int, players: list[str], rng_seed: int) -> dict[str, Any]:
    state = get_game("mandala").new_state(seed)
    rng = random.Random(rng_seed)
    moves = []
    while not state.is_over():
        decision = state.decision()
        assert decision is not None
        move = rng.choice(state.legal_moves())
        moves.append({"seat": decision.seat, "kind": decision.kind, "move": move, "think_ms": 0.1})
        state.apply_move(move)
    return {
        "record_version": 1,
        "game": "mandala",
        "config": {},
        "seed": seed,
        "game_id": f"g{seed}",
        "players": players,
        "moves": moves,
        "outcome": state.outcome().to_json(),
        "_final_views": [state.view(0), state.view(1)],
    }


@pytest.mark.parametrize("seed", [0, 1, 99, 2024])
def test_a_record_replays_to_the_identical_final_state(seed: int) -> None:
    record = json.loads(json.dumps(_random_record(seed, ["greedy", "random"], seed + 5)))
    final = replay(record)
    assert final.is_over()
    assert [final.view(0), final.view(1)] == record["_final_views"]
    assert final.outcome().to_json() == record["outcome"]


def test_the_same_seed_deals_the_same_cards_whichever_seat_a_bot_sits_in() -> None:
    one = _random_record(11, ["greedy", "random"], 1)
    two = _random_record(11, ["random", "greedy"], 1)
    two["moves"] = []
    one["moves"] = []
    a, b = replay(one), replay(two)
    assert snapshot(a) == snapshot(b)  # type: ignore[arg-type]
    assert snapshot(a) == snapshot(get_game("mandala").new_state(11))  # type: ignore[arg-type]


def test_replay_refuses_a_record_with_the_wrong_seat_or_moves_after_the_end() -> None:
    record = _random_record(3, ["a", "b"], 3)
    wrong = dict(record, moves=[dict(record["moves"][0], seat=1)] + record["moves"][1:])
    with pytest.raises(GameError):
        replay(wrong)
    extra = dict(record, moves=record["moves"] + [record["moves"][-1]])
    with pytest.raises(GameError):
        replay(extra)
    with pytest.raises(GameError):
        replay({"game": "mandala"})


def test_copy_is_independent_of_the_original() -> None:
    state = _ready("purple purple", "yellow")
    before = snapshot(state)
    other = state.copy()
    play(other, build(0, "red"), claim("black"))
    assert snapshot(state) == before
    assert snapshot(other) != before


def test_seat_legal_moves_are_offered_only_to_the_deciding_seat_kind() -> None:
    """During a destruction only claims are legal; otherwise never a claim."""
    state = _ready("purple purple", "yellow")
    assert all(m["action"] != "claim" for m in legal(state))
    play(state, build(0, "red"))
    assert all(m["action"] == "claim" for m in legal(state))
    assert {m["colour"] for m in legal(state)} == {"black", "green", "orange", "red"}
    assert state.view(1)["decision"] == "claim"
    assert state.view(1)["to_move"] == 0  # whose turn it was
    assert set(range(NUM_ACTIONS)) >= set(state.legal_actions())
    assert PURPLE not in [a - 156 for a in state.legal_actions()]


def test_r14_after_a_reshuffle_the_view_recalls_the_new_deck_for_a_bot_without_memory() -> None:
    """R3 + R14: the reshuffled discard pile was face up, so the view keeps what it held,
    what this seat drew from it, how many the opponent drew, and the refills."""
    state = position(
        hands=("red red green", "black"),
        deck=["yellow"],
        discard="purple purple orange",
        current=0,
    )
    assert state.view(0)["since_reshuffle"] is None
    state.apply_move({"action": "discard_redraw", "colour": "green", "count": 1})
    # Seat 0 drew the yellow (the last card: exhaustion, R3), then the discard pile
    # (purple purple orange green) was shuffled into the deck.
    mine = state.view(0)["since_reshuffle"]
    theirs = state.view(1)["since_reshuffle"]
    assert mine is not None and theirs is not None
    assert names(counts(mine["deck"])) == {"purple": 2, "orange": 1, "green": 1}
    assert mine == theirs
    state.apply_move({"action": "discard_redraw", "colour": "black", "count": 1})
    mine, theirs = state.view(0)["since_reshuffle"], state.view(1)["since_reshuffle"]
    assert mine["drawn_by_opponent"] == 1 and sum(mine["drawn_by_you"].values()) == 0
    assert theirs["drawn_by_opponent"] == 0 and sum(theirs["drawn_by_you"].values()) == 1


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_r14_view_json_is_the_view_as_compact_json(seed: int) -> None:
    """The referee sends `view_json`; it must be exactly the R14 view, at every decision."""
    state = MandalaState.deal(seed)
    rng = random.Random(seed)
    while True:
        for seat in (0, 1):
            assert json.loads(state.view_json(seat)) == state.view(seat)
        if state.is_over():
            break
        state.apply_action(rng.choice(state.legal_actions()))
