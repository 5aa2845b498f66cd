"""Hand-made Mandala positions for the rule tests: a builder over `MandalaState.empty()`.

Piles are written as colour names: a dict `{"red": 2, "green": 1}` or a string
`"red red green"`. The deck is a list (or string) of colour names with the top card last.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from arena.games.mandala.cards import COLOUR_INDEX, COLOURS
from arena.games.mandala.state import MandalaState

Pile = Mapping[str, int] | str | Iterable[str] | None

BLACK, GREEN, ORANGE, PURPLE, RED, YELLOW = range(6)


def counts(pile: Pile) -> list[int]:
    """Six counts by colour for a pile written as a dict, a string or a list of names."""
    result = [0] * 6
    if pile is None:
        return result
    if isinstance(pile, Mapping):
        for name, n in pile.items():
            result[COLOUR_INDEX[name]] += n
        return result
    names = pile.split() if isinstance(pile, str) else list(pile)
    for name in names:
        result[COLOUR_INDEX[name]] += 1
    return result


def names(pile: list[int]) -> dict[str, int]:
    """A pile of six counts as {colour: count}, leaving out the colours it has none of."""
    return {COLOURS[c]: n for c, n in enumerate(pile) if n}


def position(
    *,
    hands: tuple[Pile, Pile] = (None, None),
    mountains: tuple[Pile, Pile] = (None, None),
    fields: Mapping[tuple[int, int], Pile] | None = None,
    rivers: tuple[str, str] | tuple[list[str], list[str]] = ("", ""),
    cups: tuple[Pile, Pile] = (None, None),
    claimed: tuple[Pile, Pile] = (None, None),
    deck: Iterable[str] | str = (),
    discard: Pile = None,
    current: int = 0,
    turns: int = 0,
    turn_limit: int = 1000,
    end_triggered: bool = False,
    seed: int = 0,
) -> MandalaState:
    """A position set up by hand. `fields` maps (mandala, seat) to that seat's Field there;
    `cups` are the setup Cup cards, `claimed` the Cup cards claimed in the open."""
    state = MandalaState.empty(seed=seed, turn_limit=turn_limit)
    for seat in range(2):
        state.hands[seat] = counts(hands[seat])
        state.hand_sizes[seat] = sum(state.hands[seat])
        state.cup_setup[seat] = counts(cups[seat])
        state.cup_claimed[seat] = counts(claimed[seat])
        river = rivers[seat]
        river_names = river.split() if isinstance(river, str) else list(river)
        state.rivers[seat] = [COLOUR_INDEX[n] for n in river_names]
    for m in range(2):
        state.mountains[m] = counts(mountains[m])
    for (m, seat), pile in (fields or {}).items():
        state.fields[m][seat] = counts(pile)
    deck_names = deck.split() if isinstance(deck, str) else list(deck)
    state.deck = [COLOUR_INDEX[n] for n in deck_names]
    state.discard = counts(discard)
    state.current = current
    state.turns = turns
    state.end_triggered = end_triggered
    return state


def card_total(state: MandalaState) -> list[int]:
    """Cards of each colour anywhere: deck, discard, hands, Cups, Rivers, Mountains, Fields."""
    total = state.discard[:]
    for c in state.deck:
        total[c] += 1
    for seat in range(2):
        for pile in (state.hands[seat], state.cup_setup[seat], state.cup_claimed[seat]):
            for c in range(6):
                total[c] += pile[c]
        for c in state.rivers[seat]:
            total[c] += 1
    for m in range(2):
        for pile in (state.mountains[m], state.fields[m][0], state.fields[m][1]):
            for c in range(6):
                total[c] += pile[c]
    return total


def snapshot(state: MandalaState) -> dict[str, Any]:
    """Every slot of a state as plain data, to compare two states for identity."""
    result: dict[str, Any] = {}
    slots = [name for kind in MandalaState.__mro__ for name in getattr(kind, "__slots__", ())]
    for name in slots:  # the state's own and its Deck's
        value = getattr(state, name)
        result[name] = repr(value)
    return result


def play(state: MandalaState, *moves: dict[str, Any]) -> MandalaState:
    """Apply JSON moves in order (each checked by the rules) and return the state."""
    for move in moves:
        state.apply_move(move)
    return state


def build(mandala: int, colour: str) -> dict[str, Any]:
    return {"action": "build_mountain", "mandala": mandala, "colour": colour}


def grow(mandala: int, colour: str, count: int = 1) -> dict[str, Any]:
    return {"action": "grow_field", "mandala": mandala, "colour": colour, "count": count}


def discard(colour: str, count: int = 1) -> dict[str, Any]:
    return {"action": "discard_redraw", "colour": colour, "count": count}


def claim(colour: str) -> dict[str, Any]:
    return {"action": "claim", "colour": colour}
