"""Flowers' components as data (F1-F4) and the integer codes of its moves.

Colours are the integers 0..5 in the canonical order of F1 (dark first). A pile of cards
is a list of six counts by colour (F2: cards of a colour are interchangeable). A tile is
the integer `colour * 6 + value index`, the value indexes naming 2, 3, 4, 5, 7 and x3 (F3).

Action codes, the same move in every state:

    0..269    play     (mandala * 6 + colour) * 15 + (count - 1)     (F8)
    270..275  take     270 + colour: the marker holder takes that tile   (F17)
"""

from __future__ import annotations

import random
from typing import Final

COLOURS: Final = ("grey", "purple", "red", "green", "orange", "yellow")
"""F1: the six colours in canonical order; the first three are dark, the others light."""
COLOUR_INDEX: Final = {name: i for i, name in enumerate(COLOURS)}
NUM_COLOURS: Final = 6
DARK: Final = (0, 1, 2)
LIGHT: Final = (3, 4, 5)
ALL_COLOURS: Final = (1 << NUM_COLOURS) - 1
"""The bit mask of a complete Mandala: all six colours present (F14)."""

CARDS_PER_COLOUR: Final = 15
"""F2: 90 cards, 15 of each colour."""
MANDALAS: Final = 3
HAND_LIMIT: Final = 8
"""F11: a draw fills the hand up to 8 cards."""
MOST_DRAWN: Final = 4
"""F11: playing exactly one card draws up to 4."""
FLOWERS_TO_END: Final = 3
"""F21: the game ends after the turn in which a player reaches 3 Flowers."""

VALUES: Final = (2, 3, 4, 5, 7, 0)
"""F3: the tile values by value index; index 5 is the x3 tile (0: it scores nothing alone)."""
TIMES3: Final = 5
VALUE_NAMES: Final = ("2", "3", "4", "5", "7", "x3")
NUM_TILES: Final = NUM_COLOURS * len(VALUES)
TILE_NAMES: Final = tuple(f"{COLOURS[t // 6]} {VALUE_NAMES[t % 6]}" for t in range(NUM_TILES))
"""F3: a tile is named by colour and value, e.g. 'red 5', 'red x3'."""
TILE_INDEX: Final = {name: t for t, name in enumerate(TILE_NAMES)}

TURN: Final = "turn"
"""The kind of decision of the seat on turn: its play (F8, F28)."""
TILE: Final = "tile"
"""The kind of decision of a marker holder choosing a tile (F17, F28)."""

PLAY: Final = "play"
TAKE: Final = "take"

MOST_PLAYED: Final = CARDS_PER_COLOUR
"""A play's count is at most 15: the cards of one colour."""
TAKE_BASE: Final = MANDALAS * NUM_COLOURS * MOST_PLAYED
NUM_ACTIONS: Final = TAKE_BASE + NUM_COLOURS


def tile_colour(tile: int) -> int:
    """The colour of a tile."""
    return tile // 6


def play_action(mandala: int, colour: int, count: int) -> int:
    """The code of playing `count` cards of `colour` into `mandala`."""
    return (mandala * NUM_COLOURS + colour) * MOST_PLAYED + count - 1


def take_action(colour: int) -> int:
    """The code of the marker holder taking the tile of `colour` (F17)."""
    return TAKE_BASE + colour


def decode_play(action: int) -> tuple[int, int, int]:
    """(mandala, colour, count) of a play's code."""
    place, count = divmod(action, MOST_PLAYED)
    mandala, colour = divmod(place, NUM_COLOURS)
    return mandala, colour, count + 1


def flower_score(a: int, b: int) -> int:
    """F25: a Flower with a x3 tile scores 3 x the other tile; any other, 2 x lower + higher."""
    va, vb = a % 6, b % 6
    if va == TIMES3:
        return 3 * VALUES[vb]
    if vb == TIMES3:
        return 3 * VALUES[va]
    low, high = sorted((VALUES[va], VALUES[vb]))
    return 2 * low + high


def single_score(tile: int) -> int:
    """F25: a single tile scores its value; a single x3 scores 0."""
    return VALUES[tile % 6]


def pile_json(pile: list[int]) -> dict[str, int]:
    """A pile as JSON: every colour name with its count."""
    return dict(zip(COLOURS, pile, strict=True))


def shuffle(items: list[int], rng: random.Random) -> None:
    """Fisher-Yates with `rng.random()`, in place: the one shuffle of the game (F6, our F29).

    Three times cheaper than `random.shuffle`, and as uniform for lists this short.
    """
    draw = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(draw() * (i + 1))
        items[i], items[j] = items[j], items[i]
