"""Flowers' chance drawn as it comes (arena/games/chance.py): each card and tile when drawn.

`ChanceFlowers` is the engine whose deck and tile stacks are `Pile`s: a shuffle (the
deal's, F6; a reshuffle of the discard pile, F12) only puts the cards in the deck, and a
card or a tile is random among those in its pile when it is drawn. The final destruction's
next Mandala (F23) is a chance node too. Who sees a draw: a drawn card its seat (F11), a
tile and the final order every seat (face up, F20, F23).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import partial
from typing import Any, Self

from arena.games.base import GameState
from arena.games.chance import ChanceRules, DealStep, Pile, seen_by, uniform
from arena.games.flowers import determinize
from arena.games.flowers.components import (
    CARDS_PER_COLOUR,
    COLOURS,
    DARK,
    LIGHT,
    MANDALAS,
    NUM_COLOURS,
    TILE_NAMES,
)
from arena.games.flowers.state import FlowersState

CARD, DARK_TILE, LIGHT_TILE, FINAL = "card", "dark tile", "light tile", "next Mandala (F23)"


class _ChanceRandom(random.Random):
    """The F23 draw of the next Mandala, as a chance node seen by every seat."""

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        assert stop is None and step == 1, "Flowers draws randrange(n) only"
        with seen_by(None):
            return uniform(FINAL, start)


_CHANCE_RANDOM = _ChanceRandom(0)


class ChanceFlowers(FlowersState):
    """Flowers whose deck, stacks and final order draw through `arena.games.chance.pick`."""

    def copy(self) -> Self:
        other = super().copy()
        for pile in ("deck", "dark", "light"):
            mine = getattr(self, pile)
            assert isinstance(mine, Pile)
            setattr(other, pile, mine.copy())
        return other

    def apply_action(self, action: int) -> None:
        with seen_by((self.current,)):  # F11: the cards a seat draws, after it plays
            super().apply_action(action)

    def _random(self) -> random.Random:
        return _CHANCE_RANDOM

    def _new_tiles(self, mandala: int) -> None:
        with seen_by(None):  # F20: face up
            super()._new_tiles(mandala)

    def _draw(self, seat: int, count: int) -> None:
        """F11, F12 as the engine's `_draw`, the reshuffled deck a `Pile`."""
        hand = self.hands[seat]
        drawn = 0
        with seen_by((seat,)):
            while drawn < count:
                if not self.deck:
                    if not any(self.discard):
                        break  # F12: nothing left to draw; the draw stops short
                    discard, deck = self.discard, self.deck
                    assert isinstance(deck, Pile)
                    self.deck = deck.again(
                        [c for c in range(NUM_COLOURS) for _ in range(discard[c])]
                    )
                    self.discard = [0] * NUM_COLOURS
                hand[self.deck.pop()] += 1
                drawn += 1
        self.hand_sizes[seat] += drawn


class FlowersChance(ChanceRules):
    max_outcomes = len(TILE_NAMES)

    def start(self, config: Mapping[str, Any], players: int) -> ChanceFlowers:
        """F6: the deck and the tile stacks, nothing dealt."""
        state = ChanceFlowers.empty(players, 0, int(config["turn_limit"]))
        state.deck = Pile([c for c in range(NUM_COLOURS) for _ in range(CARDS_PER_COLOUR)], CARD)
        state.dark = Pile([c * 6 + v for c in DARK for v in range(6)], DARK_TILE)
        state.light = Pile([c * 6 + v for c in LIGHT for v in range(6)], LIGHT_TILE)
        return state

    def deal_steps(self, players: int) -> tuple[DealStep, ...]:
        """F6: a tile pair on each Mandala (two draws: on a copy), then seat i's 5 + i cards."""
        steps = [DealStep(partial(_tiles, mandala), live=False) for mandala in range(MANDALAS)]
        for seat in range(players):
            steps += [DealStep(partial(_to_hand, seat)) for _ in range(5 + seat)]
            steps.append(DealStep(partial(_hand_size, seat)))
        return tuple(steps)

    def redeal(self, state: GameState, seat: int, rng: random.Random) -> ChanceFlowers:
        """F27: the other hands but their known cards and the deck, dealt again from the
        cards `seat` has not seen, and the tile stacks (determinize.redeal); the deck and
        the stacks still `Pile`s drawn as they go."""
        assert isinstance(state, ChanceFlowers)
        other = state.copy()
        determinize.redeal(other, seat, rng)
        for name, what in (("deck", CARD), ("dark", DARK_TILE), ("light", LIGHT_TILE)):
            pile = getattr(state, name)
            assert isinstance(pile, Pile)
            setattr(other, name, Pile(getattr(other, name), what, pile.number))
        return other

    def describe(self, what: str, outcome: int) -> str:
        if what == CARD:
            return f"{what}: {COLOURS[outcome]}"
        if what in (DARK_TILE, LIGHT_TILE):
            return f"{what}: {TILE_NAMES[outcome]}"
        return f"{what}: number {outcome + 1} of those standing"


def _tiles(mandala: int, state: ChanceFlowers) -> None:
    state._new_tiles(mandala)


def _to_hand(seat: int, state: ChanceFlowers) -> None:
    with seen_by((seat,)):
        state.hands[seat][state.deck.pop()] += 1


def _hand_size(seat: int, state: ChanceFlowers) -> None:
    state.hand_sizes[seat] = 5 + seat
