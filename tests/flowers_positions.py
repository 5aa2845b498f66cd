"""Hand-made Flowers positions for the rule tests: a builder over `FlowersState.empty()`.

Piles are written as colour names: a dict `{"red": 2}` or a string `"red red green"`.
Tiles are written by name ("red 4", "green x3"). The deck is written with its top card last.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from arena.games.flowers.components import (
    CARDS_PER_COLOUR,
    COLOUR_INDEX,
    COLOURS,
    NUM_COLOURS,
    TILE_INDEX,
    tile_colour,
)
from arena.games.flowers.state import FlowersState

Pile = Mapping[str, int] | str | Iterable[str] | None


def counts(pile: Pile) -> list[int]:
    """Six counts by colour for a pile written as a dict, a string or a list of names."""
    result = [0] * NUM_COLOURS
    if pile is None:
        return result
    if isinstance(pile, Mapping):
        for name, n in pile.items():
            result[COLOUR_INDEX[name]] += n
        return result
    for name in pile.split() if isinstance(pile, str) else list(pile):
        result[COLOUR_INDEX[name]] += 1
    return result


def tiles(*names: str) -> list[int]:
    return [TILE_INDEX[name] for name in names]


def table(
    players: int,
    *,
    hands: Mapping[int, Pile] | None = None,
    deck: Iterable[str] | str = (),
    discard: Pile = None,
    mandala_tiles: Mapping[int, tuple[str, str]] | None = None,
    stacks: tuple[Iterable[str], Iterable[str]] | None = None,
    current: int = 0,
    seed: int = 0,
    turn_limit: int = 10_000,
) -> FlowersState:
    """A table set up by hand. Each Mandala has the tiles `mandala_tiles` gives it (default:
    grey 2 + green 2, purple 2 + orange 2, red 2 + yellow 2); the stacks hold the given
    tiles (default: every other tile, so a destruction can begin a new Mandala)."""
    state = FlowersState.empty(players, seed=seed, turn_limit=turn_limit)
    default = {0: ("grey 2", "green 2"), 1: ("purple 2", "orange 2"), 2: ("red 2", "yellow 2")}
    chosen = {**default, **(mandala_tiles or {})}
    for m, (dark, light) in chosen.items():
        set_tiles(state, m, dark, light)
    if stacks is None:
        used = {t for pair in state.tiles for t in pair}
        state.dark = [t for t in range(18) if t not in used]
        state.light = [t for t in range(18, 36) if t not in used]
    else:
        state.dark = tiles(*stacks[0])
        state.light = tiles(*stacks[1])
    for seat, pile in (hands or {}).items():
        give(state, seat, pile)
    state.deck = [COLOUR_INDEX[name] for name in (deck.split() if isinstance(deck, str) else deck)]
    state.discard = counts(discard)
    state.current = current
    return state


def give(state: FlowersState, seat: int, pile: Pile) -> None:
    """Set a seat's hand."""
    state.hands[seat] = counts(pile)
    state.hand_sizes[seat] = sum(state.hands[seat])


def set_tiles(state: FlowersState, mandala: int, dark: str, light: str) -> None:
    """Give a Mandala its two tiles (face-up cards already there stay present)."""
    state.tiles[mandala] = tiles(dark, light)
    for t in state.tiles[mandala]:
        state.present[mandala] |= 1 << tile_colour(t)


def place(
    state: FlowersState, mandala: int, seat: int, *, up: Pile = None, down: Pile = None
) -> None:
    """Put cards on a seat's side of a Mandala, face up and face down."""
    n = state.num_players
    side = mandala * n + seat
    for pile, target in ((counts(up), state.up), (counts(down), state.down)):
        for c in range(NUM_COLOURS):
            target[side * 6 + c] += pile[c]
            state.counts[side] += pile[c]
    for c, k in enumerate(counts(up)):
        if k:
            state.ups[side] += k
            state.present[mandala] |= 1 << c


def take_tiles(state: FlowersState, seat: int, *names: str) -> None:
    """A seat takes tiles as a destruction would give them (Flowers form by F18)."""
    for t in tiles(*names):
        state._gain(seat, t)


def side(state: FlowersState, mandala: int, seat: int) -> dict[str, Any]:
    """A seat's side of a Mandala as {"up": {...}, "down": {...}, "cards": n}."""
    n = state.num_players
    base = (mandala * n + seat) * 6
    return {
        "up": {COLOURS[c]: k for c, k in enumerate(state.up[base : base + 6]) if k},
        "down": {COLOURS[c]: k for c, k in enumerate(state.down[base : base + 6]) if k},
        "cards": state.counts[mandala * n + seat],
    }


def card_total(state: FlowersState) -> list[int]:
    """Every card by colour: hands, deck, discard pile and the Mandalas (F2: 15 each)."""
    total = [0] * NUM_COLOURS
    for hand in state.hands:
        for c in range(NUM_COLOURS):
            total[c] += hand[c]
    for c in state.deck:
        total[c] += 1
    for c in range(NUM_COLOURS):
        total[c] += state.discard[c]
        total[c] += sum(state.up[i] + state.down[i] for i in range(c, len(state.up), 6))
    return total


def tile_total(state: FlowersState) -> list[int]:
    """Every tile, wherever it is (F3: each of the 36 exactly once)."""
    found = [*state.dark, *state.light]
    for pair in state.tiles:
        found += pair
    for seat in range(state.num_players):
        found += [t for t in state.singles[seat] if t >= 0]
        found += [t for flower in state.flowers[seat] for t in flower]
    return sorted(found)


def play(state: FlowersState, mandala: int, colour: str, count: int = 1) -> None:
    state.apply_move({"action": "play", "mandala": mandala, "colour": colour, "count": count})


def take(state: FlowersState, colour: str) -> None:
    state.apply_move({"action": "take", "colour": colour})


ALL_CARDS = [CARDS_PER_COLOUR] * NUM_COLOURS
