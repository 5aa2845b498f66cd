"""Takenoko's objective cards by their meaning, for the pages that draw a game (the replay
viewer, the human seat's page), reached through `Game.card_meanings`.

The tables are made from `components` (never written again by hand in the pages' script):
each card's kind, points, colours, a sentence saying what it asks, and for a plot card its
shape's cells. Which cards of each hand are met is `TakenokoState.cards_met`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from arena.games.takenoko.components import (
    ANY,
    COLOUR_NAMES,
    GARDENER_OBJECTIVES,
    NONE,
    PANDA_OBJECTIVES,
    PLOT_OBJECTIVES,
)


def _plot_cards() -> dict[str, dict[str, Any]]:
    cards = {}
    for card in PLOT_OBJECTIVES:
        colours = [colour for _, colour in card.slots]
        words = " and ".join(COLOUR_NAMES[colour] for colour in colours)
        cards[card.id] = {
            "kind": "plot",
            "points": card.points,
            "colours": colours,
            "cells": [[q, r, colour] for (q, r), colour in card.cells()],
            "text": f"a {card.shape.lower()} of {len(card.cells())} irrigated {words} plots",
        }
    return cards


def _gardener_cards() -> dict[str, dict[str, Any]]:
    cards = {}
    for card in GARDENER_OBJECTIVES:
        colour = COLOUR_NAMES[card.colour]
        plots = "a plot" if card.count == 1 else f"{card.count} plots"
        condition = {NONE: ", no improvement", ANY: ""}.get(card.improvement)
        if condition is None:
            article = "an" if card.improvement[0] in "aeiou" else "a"
            condition = f" with {article} {card.improvement}"
        cards[card.id] = {
            "kind": "gardener",
            "points": card.points,
            "colours": [card.colour],
            "count": card.count,
            "height": card.height,
            "improvement": card.improvement,
            "text": f"{colour} bamboo {card.height} sections high on {plots}{condition}",
        }
    return cards


_COUNTS = {1: "a", 2: "two", 3: "three"}


def _sections(sections: tuple[str, ...]) -> str:
    """A panda card's sections in words: 'two green sections', 'a green, a yellow and a pink
    section'."""
    counts = {colour: sections.count(colour) for colour in dict.fromkeys(sections)}
    parts = [f"{_COUNTS.get(n, str(n))} {COLOUR_NAMES[colour]}" for colour, n in counts.items()]
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return listed + (" section" if len(parts) > 1 or len(sections) == 1 else " sections")


def _panda_cards() -> dict[str, dict[str, Any]]:
    return {
        card.id: {
            "kind": "panda",
            "points": card.points,
            "colours": list(card.sections),
            "text": _sections(card.sections) + " eaten",
        }
        for card in PANDA_OBJECTIVES
    }


@cache
def card_table() -> dict[str, dict[str, Any]]:
    """Every objective card by id: kind, points, colours, `text`, and `cells` (q, r, colour)
    of a plot card's shape, or the `count`, `height` and `improvement` of a gardener card.
    Made once: read it, never change it."""
    return {**_plot_cards(), **_gardener_cards(), **_panda_cards()}
