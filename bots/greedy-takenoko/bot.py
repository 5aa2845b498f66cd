#!/usr/bin/env python3
"""The greedy Takenoko bot: one-ply rules of thumb for Takenoko's base game.

It reads the view and the legal moves it is sent; the objective cards' contents are copied
below from docs/rules/takenoko.md (standard library only: the bot runs in the
sandbox, where the arena's own package is not visible). Every decision picks the legal move
with the best value:

* completing a card is always first, the card worth most points first;
* the panda goes where it eats a colour my panda cards still need; the gardener where it
  grows the most sections of the colours my gardener cards need (plots of the card's
  colour on plots near the height the card wants);
* a new plot goes next to the pond when it can (irrigated at once: it grows), of a colour
  my plot cards use;
* actions in this order of preference: a figure that helps a card, an objective card when
  the hand is small, a plot, a channel;
* weather: the sun (a third action); rain on my tallest needed plot below 4;
* with the Chibis option: Miss Panda goes to meet the panda when I can pay for a baby (2
  points), paying the colour my cards need least; Kami's Garden is a plot of every colour;
  the Cabin keeps the card worth most; a baby's bonus is used when it places something.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

# The 45 objective cards (docs/rules/takenoko.md): colours G, Y, P.
# Plot cards: id -> (points, colours of the shape).
PLOT = {
    "PL01": (2, "G"),
    "PL02": (2, "G"),
    "PL03": (2, "G"),
    "PL04": (3, "G"),
    "PL05": (3, "Y"),
    "PL06": (3, "Y"),
    "PL07": (3, "Y"),
    "PL08": (4, "Y"),
    "PL09": (4, "P"),
    "PL10": (4, "P"),
    "PL11": (4, "P"),
    "PL12": (5, "P"),
    "PL13": (3, "GY"),
    "PL14": (4, "GP"),
    "PL15": (5, "PY"),
}
# Gardener cards: id -> (points, colour, how many bamboos, of exactly this height).
GARDENER = {
    "GA01": (3, "G", 1, 4),
    "GA02": (4, "G", 1, 4),
    "GA03": (4, "G", 1, 4),
    "GA04": (5, "G", 1, 4),
    "GA05": (8, "G", 4, 3),
    "GA06": (4, "Y", 1, 4),
    "GA07": (5, "Y", 1, 4),
    "GA08": (5, "Y", 1, 4),
    "GA09": (6, "Y", 1, 4),
    "GA10": (7, "Y", 3, 3),
    "GA11": (5, "P", 1, 4),
    "GA12": (6, "P", 1, 4),
    "GA13": (6, "P", 1, 4),
    "GA14": (7, "P", 1, 4),
    "GA15": (6, "P", 2, 3),
}
# Panda cards: id -> (points, sections to have eaten).
PANDA = {
    **{f"PA{n:02d}": (3, "GG") for n in range(1, 6)},
    **{f"PA{n:02d}": (4, "YY") for n in range(6, 10)},
    **{f"PA{n:02d}": (5, "PP") for n in range(10, 13)},
    **{f"PA{n:02d}": (6, "GYP") for n in range(13, 16)},
}
POINTS = {card: data[0] for table in (PLOT, GARDENER, PANDA) for card, data in table.items()}
NEAR_POND = {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}
# The Chibis tiles (docs/rules/takenoko.md, Chibis): id -> the colours they count as.
SPECIAL = {"CX1": "", "CX2": "GYP", "CX3": "G", "CX4": "Y", "CX5": "P", "CX6": ""}
GROWING = ("plot", "sacred_hill", "kami_garden")


class Needs:
    """What the cards in my hand still need, read from the view."""

    def __init__(self, view: dict[str, Any]) -> None:
        me = view["players"][view["seat"]]
        hand = view.get("hand") or []
        stomach = Counter(me["stomach"])
        self.eat: Counter[str] = Counter()
        for card in hand:
            if card in PANDA:
                need = Counter(PANDA[card][1]) - stomach
                self.eat.update(need)
        self.grow: Counter[str] = Counter()
        self.height: dict[str, int] = {}
        for card in hand:
            if card in GARDENER:
                _, colour, count, height = GARDENER[card]
                self.grow[colour] += count
                self.height[colour] = max(self.height.get(colour, 0), height)
        self.plots: Counter[str] = Counter()
        for card in hand:
            if card in PLOT:
                for colour in PLOT[card][1]:
                    self.plots[colour] += 1
        self.hand_size = len(hand)


def tiles_by_cell(view: dict[str, Any]) -> dict[tuple[int, int], dict[str, Any]]:
    return {tuple(tile["at"]): tile for tile in view["board"]["tiles"]}


def neighbours(cell: tuple[int, int]) -> list[tuple[int, int]]:
    q, r = cell
    return [(q + 1, r), (q + 1, r - 1), (q, r - 1), (q - 1, r), (q - 1, r + 1), (q, r + 1)]


def value(move: dict[str, Any], view: dict[str, Any], needs: Needs) -> float:
    """The worth of one legal move, in rough points."""
    action = move["action"]
    tiles = tiles_by_cell(view)
    if action == "complete":
        return 100 + POINTS.get(move["card"], 0)
    if action == "roll":
        return 1
    if action == "end":
        return 0
    if action == "weather":
        return {"SUN": 3, "RAIN": 2, "WIND": 1, "CLOUDS": 1, "STORM": 1}.get(move["face"], 0)
    if action == "skip":
        return 0.1
    if action in ("rain", "move_gardener"):
        grown = 0.0
        at = tuple(move["to"])
        cells = (
            [at]
            if action == "rain"
            else [at]
            + [
                n
                for n in neighbours(at)
                if n in tiles and tiles[n]["colour"] == tiles[at]["colour"]
            ]
        )
        for cell in cells:
            tile = tiles.get(cell)
            if tile and tile["kind"] in GROWING[:2] and tile["irrigated"] and tile["bamboo"] < 4:
                wanted = needs.height.get(tile["colour"], 4)
                grown += 1 + needs.grow[tile["colour"]] * (tile["bamboo"] < wanted)
        return grown + (move.get("colour") is not None)
    if action in ("move_panda", "storm"):
        tile = tiles.get(tuple(move["to"]))
        if not tile or tile["kind"] not in GROWING or not tile["bamboo"]:
            return 0
        if tile["improvement"] == "enclosure":
            return 0
        if tile["kind"] == "kami_garden":
            return 1 + 3 * max(needs.eat[c] for c, n in tile["stacks"].items() if n)
        return 1 + 3 * needs.eat[tile["colour"]]
    if action in ("move_miss_panda", "storm_miss_panda"):
        me = view["players"][view["seat"]]
        meets = list(move["to"]) == view["board"]["panda"]
        return 4 if meets and any(me["stomach"].values()) else 0.05
    if action == "eat":
        return needs.eat[move["colour"]]
    if action == "baby":
        return 5 - needs.eat[move["colour"]]
    if action == "keep":
        return POINTS.get(move["card"] or "", 0)
    if action in ("baby_channel", "baby_chip", "baby_move_chip"):
        return 0.5
    if action == "place":
        plot = move["plot"]
        colours = SPECIAL.get(plot, plot[1])
        near = 2 if tuple(move["to"]) in NEAR_POND else 0
        chip = 0.5 if move.get("chip") == "fertilizer" else 0
        wanted = sum(needs.plots[c] + needs.grow[c] * 0.5 for c in colours)
        return near + wanted + chip + (plot == "CX1")
    if action == "draw":
        deck = move["deck"]
        return {"panda": 2, "gardener": 1.5, "plot": 1}[deck]
    if action == "clouds":
        return 1 + (move["kind"] == "fertilizer")
    if action == "objective":
        return 4 if needs.hand_size <= 2 else 1.5
    if action == "gardener":
        return 3 if needs.grow else 1
    if action == "panda":
        return 3.5 if needs.eat else 0.5
    if action == "plot":
        return 2 if needs.plots or len(tiles) < 8 else 1
    if action == "irrigation":
        return 0.5
    if action in ("chip", "channel"):
        return 0.2
    return 0


def decide(message: dict[str, Any]) -> int:
    moves = message.get("legal_moves") or []
    if len(moves) <= 1:
        return 0
    try:
        view = message["view"]
        needs = Needs(view)
        values = [value(move, view, needs) for move in moves]
        return max(range(len(moves)), key=values.__getitem__)
    except (KeyError, TypeError, ValueError, IndexError) as error:
        print(f"greedy-takenoko: falling back to move 0 after {error!r}", file=sys.stderr)
        return 0


def send(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main() -> None:
    for line in iter(sys.stdin.readline, ""):
        line = line.strip()
        if not line:
            continue
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict):
            continue
        kind = message.get("type")
        if kind == "hello":
            send({"type": "hello", "name": "greedy-takenoko", "version": "0.1"})
        elif kind == "decide":
            send({"type": "move", "move": decide(message), "id": message["id"]})
        elif kind == "goodbye":
            return


if __name__ == "__main__":
    main()
