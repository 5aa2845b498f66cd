"""Takenoko's chance drawn as it comes (arena/games/chance.py): each plot, card and roll.

`ChanceTakenoko` is the engine that draws the top of a deck only when it takes it (§3, §4):
the plots of a PLOT action (D4), an objective card (D7, the Cabin, a baby's swap), each
random among the deck's cards below which nothing was put (the plots and cards put under a
deck, T9, T11, T29, lie there in a known order and come last). A roll of the weather die
(§2.7) and a baby taken at random (§8) are chance nodes too. Who sees a draw: the plots and
cards the seat to move (D4, D7, §8), a roll and a baby every seat.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import partial
from typing import Any

from arena.games.base import GameState
from arena.games.chance import ChanceRules, DealStep, arrange_top, seen_by, uniform
from arena.games.takenoko.cards import DECK_CARDS, DECKS, OBJECTIVES, deck_of
from arena.games.takenoko.components import BABIES, CHIBIS_TILES, PLOTS, WEATHER
from arena.games.takenoko.state import TakenokoState

PLOT = "plot"
TILE_IDS = tuple(tile.id for tile in PLOTS + CHIBIS_TILES)
CARD_IDS = tuple(OBJECTIVES)
_TILE = {tile: index for index, tile in enumerate(TILE_IDS)}
_CARD = {card: index for index, card in enumerate(CARD_IDS)}
_STREAMS = {"die": "weather die", "babies_rng": "baby"}


class ChanceTakenoko(TakenokoState):
    """Takenoko whose decks, die and babies draw through `arena.games.chance.pick`."""

    def under(self, pile: list[str]) -> int:
        """How many items at the bottom of `pile` were put there (T9, T27): known, in order."""
        known = {item for returned in self.returned for item in returned}
        return sum(1 for item in pile if item in known)

    def random_below(self, stream: str, n: int) -> int:
        with seen_by(None):
            return uniform(_STREAMS[stream], n)

    def _act(self, kind: str) -> None:
        if kind == "plot":  # D4: three plots, seen by the seat to move
            with seen_by((self.current,)):
                arrange_top(self.plot_deck, 3, self.under(self.plot_deck), PLOT, TILE_IDS)
        super()._act(kind)

    def draw_card(self, deck: str) -> str:
        cards = self.decks[deck]
        with seen_by((self.current,)):
            arrange_top(cards, 1, self.under(cards), deck, CARD_IDS)
        return super().draw_card(deck)


class TakenokoChance(ChanceRules):
    max_outcomes = max(len(TILE_IDS), len(CARD_IDS), len(WEATHER), len(BABIES))

    def start(self, config: Mapping[str, Any], players: int) -> ChanceTakenoko:
        """§3.4: the decks in order (drawn as they go), the hands empty."""
        state = ChanceTakenoko(
            players,
            0,
            int(config["max_rounds"]),
            chibis=bool(config["chibis"]),
            redraw_met_objectives=bool(config["redraw_met_objectives"]),
        )
        for hand in state.hands:  # the engine's own deal, taken back
            hand.clear()
        state.plot_deck.sort()
        for deck in DECKS:
            state.decks[deck] = sorted(DECK_CARDS[deck])
        return state

    def deal_steps(self, players: int) -> tuple[DealStep, ...]:
        """§3.4: each seat's first hand, a card of each deck in turn, seen by that seat."""
        steps = [
            DealStep(partial(_to_hand, seat, deck)) for seat in range(players) for deck in DECKS
        ]
        return (*steps, DealStep(_dealt))

    def redeal(self, state: GameState, seat: int, rng: random.Random) -> ChanceTakenoko:
        """The items `seat` has not seen where they are now (the other hands, the plots drawn
        and the Cabin's cards of another seat to move, the decks but what `seat` put under
        them, what others put under a deck, T27) take one another's places at random, each
        kind (the plots, each deck's cards) among its own: every place keeps its kind and
        every deck what lies under it in a known order."""
        assert isinstance(state, ChanceTakenoko)
        other = state.copy()
        names: dict[str, str] = {}
        for items in _hidden(state, seat).values():
            shuffled = items[:]
            rng.shuffle(shuffled)
            names.update(zip(items, shuffled, strict=True))
        _renamed(other, seat, names)
        return other

    def describe(self, what: str, outcome: int) -> str:
        if what == PLOT:
            return f"{what}: {TILE_IDS[outcome]}"
        if what in DECKS:
            return f"{what} card: {CARD_IDS[outcome]}"
        if what == _STREAMS["die"]:
            return f"{what}: {WEATHER[outcome]}"
        return f"{what}: number {outcome + 1} of those possible"


def _to_hand(seat: int, deck: str, state: ChanceTakenoko) -> None:
    with seen_by((seat,)):
        arrange_top(state.decks[deck], 1, 0, deck, CARD_IDS)
        state.hands[seat].append(state.decks[deck].pop(0))


def _dealt(state: ChanceTakenoko) -> None:
    state._legal = state._index = None


def _hidden(state: ChanceTakenoko, seat: int) -> dict[str, list[str]]:
    """The items `seat` has not seen where they are, by kind (the plots, or a card's deck)."""
    mine = set(state.returned[seat])
    places = [card for other, hand in enumerate(state.hands) if other != seat for card in hand]
    if state.current != seat:
        places += state.drawn + state.cabin
    places += [plot for plot in state.plot_deck if plot not in mine]
    places += [card for cards in state.decks.values() for card in cards if card not in mine]
    kinds: dict[str, list[str]] = {}
    for item in places:
        kinds.setdefault("plot tiles" if item in _TILE else deck_of(item), []).append(item)
    return kinds


def _renamed(state: ChanceTakenoko, seat: int, names: Mapping[str, str]) -> None:
    """`state` with the items `names` names renamed wherever `seat` cannot see them."""

    def rename(items: list[str]) -> list[str]:
        return [names.get(item, item) for item in items]

    state.hands = [hand if s == seat else rename(hand) for s, hand in enumerate(state.hands)]
    if state.current != seat:
        state.drawn, state.cabin = rename(state.drawn), rename(state.cabin)
    state.plot_deck = rename(state.plot_deck)
    state.decks = {deck: rename(cards) for deck, cards in state.decks.items()}
    state.returned = [
        items if s == seat else rename(items) for s, items in enumerate(state.returned)
    ]
    state._legal = state._index = None
