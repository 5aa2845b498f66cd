"""Mandala's chance drawn as it comes (arena/games/chance.py): each card when it is drawn.

`ChanceMandala` is the engine with a deck that is a `Pile`: a shuffle (the deal's, a
reshuffle of the discard pile, R3, R4) only puts the cards in the deck, and each card is
random among those in it when it is drawn. Who sees a draw: a hand card and a setup Cup
card their seat (R2, R14), a Mountain card both (face up, R2, R10).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Self

from arena.games.base import GameState
from arena.games.chance import ChanceRules, Pile, seen_by
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
        other.deck = Pile(other.deck, DECK, self.shuffles)
        return other

    def _draw(self, seat: int) -> int:
        with seen_by(None if seat < 0 else (seat,)):  # -1: a Mountain refill, face up (R10)
            return super()._draw(seat)

    def _draw_to_hand(self, seat: int, count: int) -> None:
        with seen_by((seat,)):
            super()._draw_to_hand(seat, count)


class MandalaChance(ChanceRules):
    max_outcomes = NUM_COLOURS

    def deal(self, config: Mapping[str, Any], players: int) -> ChanceMandala:
        """R2: the Mountains (face up), then per seat 6 hand cards and 2 Cup cards."""
        state = ChanceMandala.empty(0, int(config["turn_limit"]))
        assert isinstance(state, ChanceMandala)
        state._shuffle_into_deck([c for c in range(NUM_COLOURS) for _ in range(CARDS_PER_COLOUR)])
        deck = state.deck
        assert isinstance(deck, Pile)
        take = deck.pop
        with seen_by(None):
            for mountain in state.mountains:
                for _ in range(2):
                    mountain[take()] += 1
        for seat in range(2):
            with seen_by((seat,)):
                for _ in range(6):
                    state.hands[seat][take()] += 1
                deck.what = CUP  # a draw for the Cup, told apart from the hand's
                for _ in range(2):
                    state.cup_setup[seat][take()] += 1
                deck.what = DECK
            state.hand_sizes[seat] = 6
        return state

    def hidden_from(self, state: GameState, seat: int) -> Counter[tuple[str, int, int]]:
        """R14: the other hand and the other setup Cup."""
        assert isinstance(state, MandalaState)
        other = 1 - seat
        hidden: Counter[tuple[str, int, int]] = Counter()
        for colour in range(NUM_COLOURS):
            hidden[DECK, other, colour] = state.hands[other][colour]
            hidden[CUP, other, colour] = state.cup_setup[other][colour]
        return +hidden

    def describe(self, what: str, outcome: int) -> str:
        return f"{what}: {COLOURS[outcome]}"
