"""Takenoko's objective cards by id and by deck (TAKENOKO.md §2.4-§2.6), as the turn's rules,
the determinizer and the bots look them up."""

from __future__ import annotations

from typing import Any, Final

from arena.games.takenoko.components import (
    GARDENER_OBJECTIVES,
    PANDA_OBJECTIVES,
    PLOT_OBJECTIVES,
)

OBJECTIVES: Final[dict[str, Any]] = {
    **{o.id: o for o in PLOT_OBJECTIVES},
    **{o.id: o for o in GARDENER_OBJECTIVES},
    **{o.id: o for o in PANDA_OBJECTIVES},
}
"""Every objective card by id."""
DECKS: Final = ("plot", "gardener", "panda")
"""The three objective decks, by the kind of their cards."""
DECK_CARDS: Final[dict[str, list[str]]] = {
    "plot": [o.id for o in PLOT_OBJECTIVES],
    "gardener": [o.id for o in GARDENER_OBJECTIVES],
    "panda": [o.id for o in PANDA_OBJECTIVES],
}
"""Each deck's cards, in id order."""


def deck_of(card: str) -> str:
    """The deck an objective card belongs to, from its id (PL, GA, PA)."""
    return {"PL": "plot", "GA": "gardener", "PA": "panda"}[card[:2]]
