"""Mandala's chance drawn as it comes (arena/games/chance.py): each card when it is drawn.

`ChanceMandala` is the engine with a deck that is a `Pile`: a shuffle (the deal's, a
reshuffle of the discard pile, R3, R4) only puts the cards in the deck, and each card is
random among those in it when it is drawn. Who sees a draw: a hand card and a setup Cup
card their seat (R2, R14), a Mountain card both (face up, R2, R10).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import partial
from typing import Any, Self

from arena.games.base import GameState
from arena.games.chance import ChanceRules, DealStep, Pile, seen_by
from arena.games.mandala import determinize
from arena.games.mandala.cards import CARDS_PER_COLOUR, COLOURS, NUM_COLOURS
from arena.games.mandala.state import MandalaState

DECK, CUP = "deck", "setup Cup"


class ChanceMandala(MandalaState):
    """Mandala whose deck draws through `arena.games.chance.pick`."""

    def _shuffle_into_deck(self, cards: list[int]) -> None:
        self.shuffles += 1
        self.deck = Pile(cards, DECK, self.shuffles)

    def copy(self) -> Self:
        other = super().copy()
        deck = self.deck
        assert isinstance(deck, Pile)
        other.deck = deck.copy()
        return other

    def _draw(self, seat: int) -> int:
        with seen_by(None if seat < 0 else (seat,)):  # -1: a Mountain refill, face up (R10)
            return super()._draw(seat)

    def _draw_to_hand(self, seat: int, count: int) -> None:
        with seen_by((seat,)):
            super()._draw_to_hand(seat, count)


class MandalaChance(ChanceRules):
    max_outcomes = NUM_COLOURS

    def start(self, config: Mapping[str, Any], players: int) -> ChanceMandala:
        """R1: the 108 cards in the deck, nothing dealt."""
        state = ChanceMandala.empty(0, int(config["turn_limit"]))
        assert isinstance(state, ChanceMandala)
        state._shuffle_into_deck([c for c in range(NUM_COLOURS) for _ in range(CARDS_PER_COLOUR)])
        return state

    def deal_steps(self, players: int) -> tuple[DealStep, ...]:
        """R2: the Mountains (face up), then per seat 6 hand cards and 2 Cup cards."""
        steps = [DealStep(partial(_to_mountain, m)) for m in range(2) for _ in range(2)]
        for seat in range(2):
            steps += [DealStep(partial(_to_hand, seat)) for _ in range(6)]
            steps += [DealStep(partial(_to_cup, seat)) for _ in range(2)]
            steps.append(DealStep(partial(_hand_size, seat)))
        return tuple(steps)

    def redeal(self, state: GameState, seat: int, rng: random.Random) -> ChanceMandala:
        """R14: the other hand, the other setup Cup and the deck, dealt again from the cards
        `seat` has not seen (determinize.redeal; after a reshuffle the deck from the
        reshuffled cards only); the deck still a `Pile` drawn as it goes."""
        assert isinstance(state, ChanceMandala)
        other = state.copy()
        determinize.redeal(other, seat, rng)
        other.shuffles = state.shuffles
        other.deck = Pile(other.deck, DECK, state.shuffles)
        return other

    def describe(self, what: str, outcome: int) -> str:
        return f"{what}: {COLOURS[outcome]}"


def _to_mountain(mandala: int, state: ChanceMandala) -> None:
    with seen_by(None):
        state.mountains[mandala][state.deck.pop()] += 1


def _to_hand(seat: int, state: ChanceMandala) -> None:
    with seen_by((seat,)):
        state.hands[seat][state.deck.pop()] += 1


def _to_cup(seat: int, state: ChanceMandala) -> None:
    """A setup Cup card: a draw told apart from the hand's by its name."""
    deck = state.deck
    assert isinstance(deck, Pile)
    deck.what = CUP
    try:
        with seen_by((seat,)):
            state.cup_setup[seat][deck.pop()] += 1
    finally:
        deck.what = DECK


def _hand_size(seat: int, state: ChanceMandala) -> None:
    state.hand_sizes[seat] = 6
