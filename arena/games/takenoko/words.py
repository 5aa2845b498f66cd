"""Takenoko's moves in a player's words (the narration of replays, logs and the human seat).

A hex is named by what lies on it and its label as the page draws the board, `q,r`
(docs/rules/takenoko.md, "Naming a hex"): "the green plot at 1,-1", "the pond at 0,0".
Plots are named by colour and printed improvement ("a green plot with a fertilizer"),
objective cards by their kind, points and what they ask (card_words.py), the weather by its
face, colours in words. A move is told in the state before it (`describe(move, state)`: the
hexes' tiles, the decision a `skip` declines); without a state, hexes by their labels alone.
"""

from __future__ import annotations

from typing import Any, Final

from arena.games.base import Move
from arena.games.takenoko.card_words import card_table
from arena.games.takenoko.components import COLOUR_NAMES, TILE_NAMES, TILES, Kind
from arena.games.takenoko.moves import cell_of
from arena.games.takenoko.position import Position

FACES: Final = {
    "SUN": "the sun",
    "RAIN": "rain",
    "WIND": "wind",
    "STORM": "a storm",
    "CLOUDS": "clouds",
    "CHOICE": "the ? face (the player chooses the weather)",
}
"""The weather die's faces (components.WEATHER) in words."""

SKIPS: Final = {
    "rain": "lets no plot grow in the rain",
    "storm": "leaves the panda where it stands in the storm",
    "clouds": "takes no chip from the clouds",
    "baby": "adopts no baby panda",
    "bonus": "gives up the baby panda's bonus",
}
"""What a `skip` declines, by the decision it answers (a Chibis decision, or the weather)."""

WORDS: Final = {
    "roll": "rolls the weather die",
    "end": "ends the turn",
    "plot": "takes a plot action",
    "irrigation": "takes an irrigation channel",
    "gardener": "takes a gardener action",
    "panda": "takes a panda action",
    "objective": "takes an objective action",
    "move_gardener": "moves the gardener to {to}",
    "move_panda": "moves the panda to {to}",
    "rain": "makes it rain on {to}",
    "storm": "blows the panda to {to}",
    "move_miss_panda": "moves Miss Panda to {to}",
    "storm_miss_panda": "blows Miss Panda to {to}",
    "weather": "chooses {face} for the weather",
    "clouds": "takes {a_kind} chip from the clouds",
    "draw": "draws a {deck} objective",
    "return": "puts back under the plot deck {order}",
    "complete": "completes {card}",
    "chip": "puts {a_kind} chip on {to}",
    "channel": "places a channel between {edge}",
    "eat": "lets the panda eat a {colour} section on Kami's Garden",
    "baby": "pays a {colour} section for a baby panda",
    "baby_channel": "places the baby panda's channel between {edge}",
    "baby_chip": "puts the baby panda's {kind} chip on {to}",
    "baby_move_chip": "moves the chip on {from} to {to}",
    "baby_swap": "swaps {card} for the top of its deck",
    "keep": "keeps {card} from the Cabin",
}
"""Each move in words, its fields filled in by `_Fields`."""

_KINDS: Final = {
    Kind.POND: "the pond",
    Kind.KAMI_GARDEN: "Kami's Garden",
    Kind.CABIN: "the Gardener's Cabin",
}


def label(cell: Any) -> str:
    """A hex's label as the board draws it under the tile: `q,r` (e.g. 1,-1)."""
    return f"{int(cell[0])},{int(cell[1])}"


def tile(plot: str) -> str:
    """A tile of the plot deck by its meaning: 'a green plot with a fertilizer', 'Kami's
    Garden'."""
    if plot in TILE_NAMES:
        return TILE_NAMES[plot]
    found = TILES.get(plot)
    if found is None or found.colour is None:
        return "a plot"
    improvement = f" with {_article(found.improvement)}" if found.improvement else ""
    return f"a {COLOUR_NAMES[found.colour]} plot{improvement}"


def card(card_id: Any) -> str:
    """An objective card by its meaning: 'a panda objective (two green sections eaten, 3
    points)'."""
    meaning = card_table().get(str(card_id))
    if meaning is None:
        return "an objective card"
    return f"a {meaning['kind']} objective ({meaning['text']}, {meaning['points']} points)"


def hex_at(cell: Any, state: Position | None) -> str:
    """A hex by what lies on it and its label: 'the green plot at 1,-1', 'the pond at
    0,0'; an empty one (or with no state) 'the hex at 1,-1'."""
    where = label(cell)
    placed = None if state is None else state.board.tiles.get((int(cell[0]), int(cell[1])))
    if placed is None:
        return f"the hex at {where}"
    if placed.plot in TILE_NAMES:  # a Chibis tile: the Celestial Pond, a Sacred Hill...
        return f"{TILE_NAMES[placed.plot]} at {where}"
    if placed.kind in _KINDS:
        return f"{_KINDS[placed.kind]} at {where}"
    colour = COLOUR_NAMES.get(placed.colour or "")
    return f"the {colour} plot at {where}" if colour else f"the plot at {where}"


def _article(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


class _Fields(dict[str, Any]):
    """A move's fields in words for its template; a missing field as 'something'."""

    def __init__(self, move: Move, state: Position | None) -> None:
        super().__init__(move)
        self.state = state

    def __missing__(self, key: str) -> str:
        return "something"

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        if key in ("to", "from") and isinstance(value, list) and len(value) == 2:
            return hex_at(value, self.state)
        if key == "edge" and isinstance(value, list) and len(value) == 2:
            return " and ".join(hex_at(cell, self.state) for cell in value)
        if key == "a_kind":
            return _article(str(self.get("kind", "improvement")))
        if key == "colour":
            return COLOUR_NAMES.get(str(value), str(value))
        if key == "face":
            return FACES.get(str(value), str(value).lower())
        if key == "card":
            return card(value)
        if key == "order" and isinstance(value, list):
            return ", then ".join(tile(str(plot)) for plot in value) or "no plot"
        return value


def describe(move: Move, state: Position | None = None) -> str:
    """`move` in words, told in `state`, the position it is played in (None: hexes by their
    labels alone), e.g. 'places a green plot with a fertilizer at 1,-1'."""
    action = str(move.get("action"))
    fields = _Fields(move, state)
    if action == "place":
        chip = move.get("chip")
        improvement = f" with {_article(str(chip))} chip from its reserve" if chip else ""
        to = move.get("to")
        at = label(to) if isinstance(to, list) and len(to) == 2 else "somewhere"
        return f"places {tile(str(move.get('plot')))} at {at}{improvement}"
    if action == "keep" and not move.get("card"):
        return "keeps no card from the Cabin"
    if action == "rain" and move.get("colour"):
        return f"makes it rain on the {fields['colour']} stack of {fields['to']}"
    if action == "skip":
        pending = None if state is None else state.pending
        return SKIPS.get(pending or "", "declines the weather")
    if action == "baby_move_chip" and state is not None and isinstance(move.get("from"), list):
        source = state.board.tiles.get(cell_of(move["from"]))
        if source is not None and source.improvement:
            return f"moves the {source.improvement} chip on {fields['from']} to {fields['to']}"
    template = WORDS.get(action)
    return template.format_map(fields) if template else "makes a move the rules do not know"


def rolled(state: Position, move: Move) -> list[str]:
    """After a roll (`move`, told in the state after it): the face the die showed."""
    shown = state.rolled_face
    if move.get("action") != "roll" or shown is None:
        return []
    return [f"          the weather die shows {FACES.get(shown, shown.lower())}"]
