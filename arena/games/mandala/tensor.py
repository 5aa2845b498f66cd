"""A Mandala view as numbers, for learners (`Learning.encode`; the layout in learning.py's doc).

The seat deciding and this seat, the decision, the turn, this hand and Cup, the deck size,
the discard pile, the end triggered, the reshuffle tracking (R14), both Mandalas (Mountain,
the Fields), each player's hand size, River places, Cup size, claimed and unknown Cup cards,
and the Mandala being destroyed with who completed it.
"""

from __future__ import annotations

from arena.games.learning import Vector, View
from arena.games.mandala.cards import COLOURS as MANDALA_COLOURS


def encode(view: View, players: int) -> list[float]:
    v = Vector()
    seats, colours = range(2), MANDALA_COLOURS
    v.one_hot(view["deciding_seat"], seats)
    v.one_hot(view["seat"], seats)
    v.one_hot(view["decision"], ("turn", "claim"))
    v.num(view["turn"])
    v.pile(view["hand"], colours)
    v.pile(view["cup"], colours)
    v.num(view["deck_size"])
    v.pile(view["discard"], colours)
    v.num(view["end_triggered"])
    since = view["since_reshuffle"]
    v.num(since is not None)
    empty = dict.fromkeys(colours, 0)
    v.pile(since["deck"] if since else empty, colours)
    v.pile(since["drawn_by_you"] if since else empty, colours)
    v.num(since["drawn_by_opponent"] if since else 0)
    v.pile(since["refills"] if since else empty, colours)
    for shown in view["mandalas"]:
        v.pile(shown["mountain"], colours)
        for field in shown["fields"]:
            v.pile(field, colours)
    for player in view["players"]:
        v.num(player["hand_size"])
        v.places(player["river"], colours)
        v.num(player["cup_size"])
        v.pile(player["cup_claimed"], colours)
        v.num(player["cup_unknown"])
    destroying = view["destroying"] or {}
    v.one_hot(destroying.get("mandala"), seats)
    v.one_hot(destroying.get("completed_by"), seats)
    return v.out
