"""A seat's view as a flat vector of numbers, for learners (OpenSpiel tensors, PettingZoo).

Mandala's view has a fixed shape, so its vector holds the whole view: every count of cards
by colour, in the order of `COLOURS`, and every flag. Flowers' and Takenoko's views hold
lists that grow (tiles, a board, objective cards); they have no vector here yet, and their
observation is the view's JSON string (`size` is 0).

The Mandala layout (`MANDALA_FIELDS`, 147 numbers), each count as it is (not scaled):
the seat deciding and this seat (one-hot, 2 each), the decision (turn, claim), the turn
number, this seat's hand and Cup, the deck size, the discard pile, the end triggered, the
reshuffle tracking of ruling R14 (present, the reshuffled deck, drawn by this seat, drawn by
the other, refills), both Mandalas (Mountain, this Field of seat 0, of seat 1), each player's
hand size, River (colour by position: 6 places one-hot over 6 colours), Cup size, claimed Cup
cards and unknown Cup cards, and the Mandala being destroyed with who completed it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.games.mandala.cards import COLOURS

_SIX = len(COLOURS)


def _pile(pile: Mapping[str, int]) -> list[float]:
    return [float(pile[c]) for c in COLOURS]


def _one_hot(index: int | None, size: int) -> list[float]:
    out = [0.0] * size
    if index is not None and 0 <= index < size:
        out[index] = 1.0
    return out


def mandala(view: Mapping[str, Any]) -> list[float]:
    """Mandala's view (2 seats) as `MANDALA_SIZE` numbers."""
    out = _one_hot(view["deciding_seat"], 2) + _one_hot(view["seat"], 2)
    out += [float(view["decision"] == "turn"), float(view["decision"] == "claim")]
    out += [float(view["turn"]), *_pile(view["hand"]), *_pile(view["cup"])]
    out += [float(view["deck_size"]), *_pile(view["discard"]), float(view["end_triggered"])]
    since = view["since_reshuffle"]
    if since is None:
        out += [0.0] * (3 * _SIX + 2)
    else:
        out += [1.0, *_pile(since["deck"]), *_pile(since["drawn_by_you"])]
        out += [float(since["drawn_by_opponent"]), *_pile(since["refills"])]
    for mandala_view in view["mandalas"]:
        out += _pile(mandala_view["mountain"])
        for field in mandala_view["fields"]:
            out += _pile(field)
    for player in view["players"]:
        out.append(float(player["hand_size"]))
        river = [COLOURS.index(c) for c in player["river"]]
        for place in range(_SIX):
            out += _one_hot(river[place] if place < len(river) else None, _SIX)
        out.append(float(player["cup_size"]))
        out += _pile(player["cup_claimed"])
        out.append(float(player["cup_unknown"]))
    destroying = view["destroying"]
    out += _one_hot(None if destroying is None else destroying["mandala"], 2)
    out += _one_hot(None if destroying is None else destroying["completed_by"], 2)
    return out


MANDALA_SIZE = 4 + 2 + 1 + 12 + 1 + 6 + 1 + 20 + 2 * 18 + 2 * (1 + 36 + 1 + 6 + 1) + 4


def size(game: str, players: int) -> int:
    """The length of `encode`'s vector for `game` at `players` seats; 0 when it has none."""
    return MANDALA_SIZE if game == "mandala" else 0


def encode(game: str, view: Mapping[str, Any]) -> list[float]:
    """The view as numbers; ValueError for a game without a vector."""
    if game == "mandala":
        return mandala(view)
    raise ValueError(f"{game} has no observation vector; use its view's JSON string.")
