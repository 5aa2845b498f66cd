"""Takenoko's cards as one JSON document for bot authors: `docs/rules/takenoko-cards.json`,
beside the rules page, written from the engine's own data (components.py, and the cards'
meanings of card_words.py) by `python -m arena.games.takenoko.card_file [PATH]`.
tests/test_takenoko_card_file.py checks that the file holds exactly what this writes, and
that it agrees with the engine's data; rewrite it after a change to the data.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Final

from arena.games.takenoko.card_words import card_table
from arena.games.takenoko.components import (
    BABIES,
    BABY_POINTS,
    CHIBIS_TILES,
    COLOUR_NAMES,
    PLOT_OBJECTIVES,
    PLOTS,
    TILE_NAMES,
)

FILE_NAME: Final = "takenoko-cards.json"

IDS: Final = {
    "PG01-PG11, PY01-PY09, PP01-PP07": "a plot tile: P, then its colour (G green, Y yellow, P "
    "pink), then its number in that colour (PG03: a green plot)",
    "CX1-CX6": "a special tile of the Chibis option (CX1 the Celestial Pond, CX2 Kami's "
    "Garden, CX3-CX5 the green, yellow and pink Sacred Hills, CX6 the Gardener's Cabin)",
    "PL01-PL15": "a plot objective card (irrigated plots of a shape)",
    "GA01-GA15": "a gardener objective card (bamboo of a height)",
    "PA01-PA15": "a panda objective card (sections eaten)",
    "BG-IRR ... BP-OBJ": "a baby panda of the Chibis option: B, its colour, and its bonus (IRR "
    "a channel, IMP an improvement chip, OBJ an objective card swapped)",
}
"""What each kind of id means, by its letters."""

FIELDS: Final = {
    "plots": "the 27 plot tiles of the deck: colour, and printed improvement (null: none)",
    "objectives.kind": "the deck: plot, gardener or panda",
    "objectives.cells": "a plot card's shape: [q, r, colour] of each plot, in axial cells "
    "(neighbours differ by [1,0], [1,-1], [0,-1], [-1,0], [-1,1], [0,1]); it may be turned "
    "(any of 6 rotations) and placed anywhere, never mirrored (T3)",
    "objectives.count, height, improvement": "a gardener card: at least `count` plots of its "
    "colour with bamboo of exactly `height` sections and that improvement (`none`: no "
    "improvement at all; `any`: not looked at; T4)",
    "objectives.colours": "the colours the card asks for (a panda card: the sections eaten, "
    "which completing it gives back)",
    "objectives.text": "what the card asks, in words, as the replay viewer shows it",
}
"""What the document's fields mean."""

BONUSES: Final = {
    "IRR": "a channel from the supply, placed on an edge at once",
    "IMP": "an improvement chip from the supply on a plot (none left: a placed chip moved, T31)",
    "OBJ": "an objective card from your hand put under its deck, for that deck's top card",
}


def cards_document() -> dict[str, Any]:
    """Every plot tile, objective card, Chibis tile and baby by id, in the engine's words."""
    meanings = card_table()
    shapes = {card.id: card.shape for card in PLOT_OBJECTIVES}
    return {
        "about": "Takenoko's cards as the arena plays them (docs/rules/takenoko.md), written "
        "by `python -m arena.games.takenoko.card_file` from arena/games/takenoko/components.py.",
        "ids": IDS,
        "fields": FIELDS,
        "colours": dict(COLOUR_NAMES),
        "plots": [
            {"id": plot.id, "colour": plot.colour, "improvement": plot.improvement}
            for plot in PLOTS
        ],
        "objectives": [
            {"id": card, **_shape(shapes.get(card)), **meaning}
            for card, meaning in meanings.items()
        ],
        "chibis": {
            "tiles": [
                {
                    "id": tile.id,
                    "kind": tile.kind,
                    "colour": tile.colour,
                    "name": TILE_NAMES[tile.id],
                }
                for tile in CHIBIS_TILES
            ],
            "babies": [
                {"id": baby, "colour": baby[1], "bonus": baby.split("-")[1], "points": BABY_POINTS}
                for baby in BABIES
            ],
            "bonuses": BONUSES,
        },
    }


def _shape(shape: str | None) -> dict[str, str]:
    return {} if shape is None else {"shape": shape}


def cards_json() -> str:
    """The document as the file holds it: a card a line."""
    return _lines(cards_document(), "") + "\n"


def _lines(value: Any, indent: str) -> str:
    """`value` as JSON with each dict's keys and each list's items on lines of their own,
    down to the items of a list, which are written on one line each."""
    inner = indent + "  "
    if isinstance(value, dict):
        keys = [f"{inner}{json.dumps(key)}: {_lines(item, inner)}" for key, item in value.items()]
        return "{\n" + ",\n".join(keys) + f"\n{indent}}}"
    if isinstance(value, list):
        items = [inner + json.dumps(item, ensure_ascii=False) for item in value]
        return "[\n" + ",\n".join(items) + f"\n{indent}]"
    return json.dumps(value, ensure_ascii=False)


def write(path: Path) -> Path:
    """Write the document to `path`."""
    path.write_text(cards_json(), encoding="utf-8")
    return path


if __name__ == "__main__":
    default = Path(__file__).resolve().parents[3] / "docs" / "rules" / FILE_NAME
    print(f"wrote {write(Path(sys.argv[1]) if len(sys.argv) > 1 else default)}")
