"""A Flowers view as numbers, for learners (`Learning.encode`; the layout in learning.py's doc).

The seats, the decision, the turn, deck size, discard pile, stack sizes, this hand, passes;
each player's hand size, known cards, single tiles, each Flower's two tiles, score; each
Mandala's tiles, marker, colours and each side's face-up and face-down cards; the
destruction under way and the end (the final order, the Mandalas left, the reason).
"""

from __future__ import annotations

from arena.games.flowers import components
from arena.games.learning import Vector, View

_FLOWERS_ENDS = ("third_flower", "no_tiles", "stalled", "turn_limit")


def encode(view: View, players: int) -> list[float]:
    v = Vector()
    seats, colours, tiles = range(players), components.COLOURS, components.TILE_NAMES
    v.one_hot(view["deciding_seat"], seats)
    v.one_hot(view["seat"], seats)
    v.one_hot(view["decision"], (components.TURN, components.TILE))
    v.num(view["turn"], view["deck_size"], view["stacks"]["dark"], view["stacks"]["light"])
    v.pile(view["discard"], colours)
    v.pile(view["hand"], colours)
    v.num(view["passes"])
    for player in view["players"]:
        v.num(player["hand_size"], player["score"])
        v.pile(player["known"], colours)
        v.counts(player["singles"], tiles)
        flowers_made = player["flowers"]
        for slot in range(components.FLOWERS_TO_END):  # the game ends at a third Flower
            v.counts(flowers_made[slot] if slot < len(flowers_made) else [], tiles)
    mandalas = range(components.MANDALAS)
    for shown in view["mandalas"]:
        v.counts(shown["tiles"], tiles)
        v.one_hot(shown["marker"], seats)
        v.counts(shown["colours"], colours)
        for side in shown["sides"]:
            v.num(side["cards"])
            v.pile(side["face_up"], colours)
            v.pile(side["face_down"], colours)
    destroying = view["destroying"] or {}
    v.one_hot(destroying.get("mandala"), mandalas)
    v.one_hot(destroying.get("holder"), seats)
    v.one_hot(destroying.get("second_place"), seats)
    v.num(destroying.get("final"))
    v.places([str(m) for m in view["final_order"]], [str(m) for m in mandalas])
    v.counts([str(m) for m in view["final_left"]], [str(m) for m in mandalas])
    v.one_hot(view["end"], _FLOWERS_ENDS)
    return v.out
