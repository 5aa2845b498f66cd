"""The deck of 2-player Mandala: shuffles, reshuffles of the discard pile, and draws (R3, R4).

`Deck` is the part of `MandalaState` (state.py) that draws: its methods, and the fields they
use, declared here once. Shuffles draw from
`random.Random(seed * stride + n)` for the n-th shuffle, so the state carries no generator
object and copies cheaply. `ChanceMandala` (chance.py) draws through its own methods.
"""

from __future__ import annotations

import random

from arena.games.mandala.cards import NUM_COLOURS

_SHUFFLE_STRIDE = 1_000_003


class Deck:
    """The draws of a Mandala state (a base of `MandalaState`), and the fields they use."""

    __slots__ = (
        "seed",
        "shuffles",
        "deck",
        "discard",
        "hands",
        "hand_sizes",
        "end_triggered",
        "reshuffled",
    )

    seed: int
    shuffles: int
    deck: list[int]
    discard: list[int]
    hands: list[list[int]]
    hand_sizes: list[int]
    end_triggered: bool
    reshuffled: list[list[int]] | None
    """Since the last reshuffle (R3): [that deck, seat 0's draws, seat 1's draws, refills]."""

    def _shuffle_into_deck(self, cards: list[int]) -> None:
        random.Random(self.seed * _SHUFFLE_STRIDE + self.shuffles).shuffle(cards)
        self.shuffles += 1
        self.deck = cards

    def _reshuffle_discard(self) -> None:
        """The discard pile, shuffled, becomes the deck (R3, R4)."""
        discard = self.discard
        cards = [colour for colour in range(NUM_COLOURS) for _ in range(discard[colour])]
        # R14: the discard pile was face up, so both players know what the new deck holds.
        self.reshuffled = [discard, [0] * 6, [0] * 6, [0] * 6]
        self.discard = [0] * 6
        self._shuffle_into_deck(cards)

    def _draw(self, seat: int) -> int:
        """Take the top card for `seat` (-1: a Mountain refill); -1 when none is left (R4)."""
        if not self.deck:
            if not any(self.discard):
                return -1
            self._reshuffle_discard()  # R4: a later draw first reshuffles the discard
        colour = self.deck.pop()
        if self.reshuffled is not None:
            self.reshuffled[1 + seat if seat >= 0 else 3][colour] += 1
        if not self.deck:
            self.end_triggered = True  # R3: exhausted when its last card is taken
            if any(self.discard):
                self._reshuffle_discard()
        return colour

    def _draw_to_hand(self, seat: int, count: int) -> None:
        hand = self.hands[seat]
        deck = self.deck
        if count < len(deck) and self.reshuffled is None:  # the common case
            for _ in range(count):
                hand[deck.pop()] += 1
            self.hand_sizes[seat] += count
            return
        for _ in range(count):
            colour = self._draw(seat)
            if colour < 0:
                return
            hand[colour] += 1
            self.hand_sizes[seat] += 1
