"""Takenoko's chance drawn as it comes (arena/games/chance.py): each plot, card and roll.

`ChanceTakenoko` is the engine that draws the top of a deck only when it takes it (§3, §4):
the plots of a PLOT action (D4), an objective card (D7, the Cabin, a baby's swap), each
random among the deck's cards below which nothing was put (the plots and cards put under a
deck, T9, T11, T29, lie there in a known order and come last). A roll of the weather die
(§2.7) and a baby taken at random (§8) are chance nodes too. Who sees a draw: the plots and
cards the seat to move (D4, D7, §8), a roll and a baby every seat.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from arena.games.base import GameState
from arena.games.chance import ChanceRules, arrange_top, seen_by, uniform
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
    unique_items = True
    max_outcomes = max(len(TILE_IDS), len(CARD_IDS), len(WEATHER), len(BABIES))

    def deal(self, config: Mapping[str, Any], players: int) -> ChanceTakenoko:
        """§3.4: each seat's first hand, a card of each deck in turn, seen by that seat."""
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
        for seat in range(players):
            with seen_by((seat,)):
                for deck in DECKS:
                    arrange_top(state.decks[deck], 1, 0, deck, CARD_IDS)
                    state.hands[seat].append(state.decks[deck].pop(0))
        state._legal = state._index = None
        return state

    def hidden_from(self, state: GameState, seat: int) -> Counter[tuple[str, int, int]]:
        """The other hands, the plots drawn and the Cabin's cards of another seat to move,
        and what others put under a deck (T27: known to them only)."""
        assert isinstance(state, ChanceTakenoko)
        hidden: Counter[tuple[str, int, int]] = Counter()
        for other, hand in enumerate(state.hands):
            if other != seat:
                hidden.update((deck_of(card), other, _CARD[card]) for card in hand)
        mover = state.current
        if mover != seat:
            hidden.update((PLOT, mover, _TILE[plot]) for plot in state.drawn)
            hidden.update((deck_of(card), mover, _CARD[card]) for card in state.cabin)
        for other, returned in enumerate(state.returned):
            if other != seat:
                for item in returned:
                    if item in _TILE:
                        hidden[PLOT, other, _TILE[item]] += 1
                    else:
                        hidden[deck_of(item), other, _CARD[item]] += 1
        return hidden

    def rename(self, move: Any, renamed: Mapping[tuple[str, int], int]) -> Any:
        """The plots and cards a move names (a plot to place, the order to return them, a
        card to keep or complete), as dealt again."""
        names = {
            TILE_IDS[old]: TILE_IDS[new] for (what, old), new in renamed.items() if what == PLOT
        }
        names |= {
            CARD_IDS[old]: CARD_IDS[new] for (what, old), new in renamed.items() if what != PLOT
        }
        return _rename(move, names)

    def describe(self, what: str, outcome: int) -> str:
        if what == PLOT:
            return f"{what}: {TILE_IDS[outcome]}"
        if what in DECKS:
            return f"{what} card: {CARD_IDS[outcome]}"
        if what == _STREAMS["die"]:
            return f"{what}: {WEATHER[outcome]}"
        return f"{what}: number {outcome + 1} of those possible"


def _rename(value: Any, names: Mapping[str, str]) -> Any:
    """`value` (JSON) with every string found in `names` replaced."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_rename(item, names) for item in value]
    if isinstance(value, dict):
        return {key: _rename(item, names) for key, item in value.items()}
    return value
