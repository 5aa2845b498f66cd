"""determinize(view, rng): a whole state, consistent with one seat's view (R14)."""

from __future__ import annotations

import random

import mandala_positions as hand_made
import pytest

from arena.games.mandala.cards import CARDS_PER_COLOUR, COLOURS, NUM_COLOURS
from arena.games.mandala.determinize import determinize, redeal, unseen_cards
from arena.games.mandala.state import MandalaState


def _all_cards(state: MandalaState) -> list[int]:
    """Every card of the state, counted by colour, wherever it lies."""
    total = [0] * NUM_COLOURS
    piles = [state.discard, *state.hands, *state.cup_setup, *state.cup_claimed, *state.mountains]
    piles += [field for mandala in state.fields for field in mandala]
    for pile in piles:
        for colour in range(NUM_COLOURS):
            total[colour] += pile[colour]
    for colour in state.deck:
        total[colour] += 1
    for river in state.rivers:
        for colour in river:
            total[colour] += 1
    return total


def _positions(games: int, seed: int) -> list[MandalaState]:
    """Positions of random games, including claims under way and finished games."""
    rng = random.Random(seed)
    positions = []
    for _ in range(games):
        state = MandalaState.deal(rng.randrange(1 << 30))
        while not state.is_over():
            if rng.random() < 0.15:
                positions.append(state.copy())
            state.apply_action(rng.choice(state.legal_actions()))
        positions.append(state)
    return positions


POSITIONS = _positions(30, seed=11)


def test_positions_cover_claims_reshuffles_and_ends() -> None:
    assert any(p.destroying >= 0 for p in POSITIONS)
    assert any(p.end_triggered and not p.is_over() for p in POSITIONS)
    assert any(p.is_over() for p in POSITIONS)


@pytest.mark.parametrize("seat", [0, 1])
def test_sampled_state_gives_the_seat_the_same_view(seat: int) -> None:
    rng = random.Random(seat)
    for position in POSITIONS:
        view = position.view(seat)
        for _ in range(3):
            assert determinize(view, rng).view(seat) == view


@pytest.mark.parametrize("seat", [0, 1])
def test_sampled_state_conserves_the_108_cards(seat: int) -> None:
    rng = random.Random(100 + seat)
    for position in POSITIONS:
        sampled = determinize(position.view(seat), rng)
        assert _all_cards(sampled) == [CARDS_PER_COLOUR] * NUM_COLOURS


def test_unseen_cards_are_opponent_hand_setup_cup_and_deck() -> None:
    for position in POSITIONS:
        for seat in (0, 1):
            other = 1 - seat
            expected = [0] * NUM_COLOURS
            for colour in range(NUM_COLOURS):
                expected[colour] += position.hands[other][colour]
                expected[colour] += position.cup_setup[other][colour]
            for colour in position.deck:
                expected[colour] += 1
            assert unseen_cards(position.view(seat)) == expected


def test_seat_own_cards_are_kept_and_hidden_cards_vary() -> None:
    position = POSITIONS[0]
    view = position.view(0)
    rng = random.Random(5)
    samples = [determinize(view, rng) for _ in range(20)]
    for sample in samples:
        assert sample.hands[0] == position.hands[0]
        assert sample.cup_setup[0] == position.cup_setup[0]
        assert sample.hand_sizes == position.hand_sizes
    assert len({tuple(sample.hands[1]) for sample in samples}) > 1
    assert len({sample.seed for sample in samples}) == len(samples)


def test_sampled_states_play_to_the_end_with_legal_moves() -> None:
    rng = random.Random(3)
    for position in POSITIONS[::5]:
        if position.is_over():
            continue
        decision = position.decision()
        assert decision is not None
        sample = determinize(position.view(decision.seat), rng)
        assert sample.decision() == decision
        while not sample.is_over():
            sample.apply_action(rng.choice(sample.legal_actions()))
        assert sample.outcome().scores is not None


def test_the_deciding_seat_has_the_same_legal_actions() -> None:
    rng = random.Random(4)
    for position in POSITIONS:
        decision = position.decision()
        if decision is None:
            continue
        sample = determinize(position.view(decision.seat), rng)
        assert sample.legal_actions() == position.legal_actions()


def test_a_view_that_does_not_add_up_is_refused() -> None:
    view = POSITIONS[0].view(0)
    view["deck_size"] += 1
    with pytest.raises(ValueError, match="does not add up"):
        determinize(view, random.Random(0))


@pytest.mark.parametrize("seat", [0, 1])
def test_redeal_keeps_the_view_and_the_cards(seat: int) -> None:
    rng = random.Random(200 + seat)
    for position in POSITIONS:
        view = position.view(seat)
        sample = determinize(view, rng)
        hands = set()
        for _ in range(3):
            again = sample.copy()
            redeal(again, seat, rng)
            assert again.view(seat) == view
            assert _all_cards(again) == [CARDS_PER_COLOUR] * NUM_COLOURS
            hands.add(tuple(again.hands[1 - seat]))
        assert sample.view(seat) == view  # the template itself is untouched


@pytest.mark.parametrize("seat", [0, 1])
def test_after_a_reshuffle_the_deck_holds_only_reshuffled_cards(seat: int) -> None:
    """R14: the new deck was the face-up discard pile, so its cards are known."""
    rng = random.Random(300 + seat)
    reshuffled = [p for p in POSITIONS if p.reshuffled is not None and p.deck]
    assert reshuffled
    for position in reshuffled:
        view = position.view(seat)
        since = view["since_reshuffle"]
        for sample in (determinize(view, rng), determinize(view, rng)):
            redeal(sample, seat, rng)
            for colour, name in enumerate(COLOURS):
                left = since["deck"][name] - since["drawn_by_you"][name] - since["refills"][name]
                assert sample.deck.count(colour) <= left
            assert sample.view(seat) == view


def _stalled_on_the_limits_turn(ruling: str) -> MandalaState:
    """A game that stalls (R15, R16) on turn 11 of 11, every other card in seat 1's claimed
    Cup (public), so the view tells everything."""
    if ruling == "R15":
        hands, fields, last = ("red", ""), {}, "red"
    else:  # R16: red is in a Field of each Mandala, seat 0 keeps one red card
        hands, fields, last = ("red green", ""), {(0, 0): "red", (1, 1): "red"}, "green"
    state = hand_made.position(hands=hands, fields=fields, turns=10, turn_limit=11)
    state.cup_claimed[1] = [CARDS_PER_COLOUR - n for n in hand_made.card_total(state)]
    hand_made.play(state, hand_made.build(0, last))
    assert state.is_over() and state.end == "stalled"
    return state


@pytest.mark.parametrize("ruling", ["R15", "R16"])
def test_r17_a_game_stalled_on_the_limits_turn_is_sampled_stalled(ruling: str) -> None:
    state = _stalled_on_the_limits_turn(ruling)
    for seat in (0, 1):
        sample = determinize(state.view(seat), random.Random(seat), turn_limit=11)
        assert sample.is_over() and sample.end == "stalled"
        assert sample.outcome() == state.outcome()
