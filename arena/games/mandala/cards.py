"""Mandala's cards and the integer codes of its moves.

Colours are the integers 0..5 in the order of `COLOURS` (R1). A pile of cards is a list of
six counts, indexed by colour. Each move has an action code, so search bots can play
thousands of moves without building dicts:

    0..11     Build Mountain      mandala * 6 + colour
    12..107   Grow Field          12 + (mandala * 6 + colour) * 8 + (count - 1)
    108..155  Discard & Redraw    108 + colour * 8 + (count - 1)
    156..161  Claim               156 + colour
"""

from __future__ import annotations

from typing import Final

COLOURS: Final = ("black", "green", "orange", "purple", "red", "yellow")
"""The six sand colours (R1), in the order of their integer codes."""
COLOUR_INDEX: Final = {name: i for i, name in enumerate(COLOURS)}
NUM_COLOURS: Final = 6
CARDS_PER_COLOUR: Final = 18
HAND_LIMIT: Final = 8
MANDALAS: Final = 2

TURN: Final = "turn"
"""The kind of decision of a player on turn."""
CLAIM_DECISION: Final = "claim"
"""The kind of decision of the claimer during a destruction (R8)."""

BUILD_MOUNTAIN: Final = "build_mountain"
GROW_FIELD: Final = "grow_field"
DISCARD_REDRAW: Final = "discard_redraw"
CLAIM: Final = "claim"

BUILD_BASE: Final = 0
GROW_BASE: Final = 12
DISCARD_BASE: Final = 108
CLAIM_BASE: Final = 156
NUM_ACTIONS: Final = 162


def build_action(mandala: int, colour: int) -> int:
    """The code of Build Mountain: one `colour` card into the Mountain of `mandala`."""
    return BUILD_BASE + mandala * 6 + colour


def grow_action(mandala: int, colour: int, count: int) -> int:
    """The code of Grow Field: `count` cards of `colour` into one's Field of `mandala`."""
    return GROW_BASE + (mandala * 6 + colour) * 8 + count - 1


def discard_action(colour: int, count: int) -> int:
    """The code of Discard & Redraw of `count` cards of `colour`."""
    return DISCARD_BASE + colour * 8 + count - 1


def claim_action(colour: int) -> int:
    """The code of claiming `colour` from the Mountain being destroyed."""
    return CLAIM_BASE + colour


def decode(action: int) -> tuple[str, int, int, int]:
    """(kind, mandala, colour, count) of an action code; mandala is -1 where it has none."""
    if action < GROW_BASE:
        return BUILD_MOUNTAIN, action // 6, action % 6, 1
    if action < DISCARD_BASE:
        rest = action - GROW_BASE
        place, count = divmod(rest, 8)
        return GROW_FIELD, place // 6, place % 6, count + 1
    if action < CLAIM_BASE:
        colour, count = divmod(action - DISCARD_BASE, 8)
        return DISCARD_REDRAW, -1, colour, count + 1
    return CLAIM, -1, action - CLAIM_BASE, 1


def pile_json(pile: list[int]) -> dict[str, int]:
    """A pile as JSON: every colour name with its count."""
    return dict(zip(COLOURS, pile, strict=True))


# Ready-made code lists for the engine's hot path (legal_actions, apply_action):
# GROWS[mandala * 6 + colour][k]: the Grow Field codes for counts 1..k; DISCARDS likewise.
GROWS = [
    [tuple(range(GROW_BASE + place * 8, GROW_BASE + place * 8 + k)) for k in range(9)]
    for place in range(12)
]
DECODED = [decode(action)[1:] for action in range(NUM_ACTIONS)]  # (mandala, colour, count)
DISCARDS = [
    [tuple(range(DISCARD_BASE + c * 8, DISCARD_BASE + c * 8 + k)) for k in range(9)]
    for c in range(6)
]
