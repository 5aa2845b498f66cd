"""Takenoko's components as data (TAKENOKO.md §2): a correction is a one-line change here.

Sources as the specification cites them: plots [S1 GameData.getStandardLandTiles, S2
TileDeck, S3 TileDeck; the mix of T1]; supplies [S1, S6, S7, S9]; shapes [S1 GameData and
PlotObjective, S2 shape/*.java, S3, S4, S5; T3]; the 45 objectives [S1 GameData, S2 and S3
ObjectiveDeck, all agreeing]; the weather die [S6, S7, S1].
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from arena.games.takenoko.hexes import Cell

GREEN, YELLOW, PINK = "G", "Y", "P"
COLOURS: Final = (GREEN, YELLOW, PINK)
COLOUR_NAMES: Final = {GREEN: "green", YELLOW: "yellow", PINK: "pink"}

WATERSHED, FERTILIZER, ENCLOSURE = "watershed", "fertilizer", "enclosure"
IMPROVEMENTS: Final = (WATERSHED, FERTILIZER, ENCLOSURE)
NONE, ANY = "none", "any"
"""A gardener card's improvement condition: no improvement at all, or not looked at (T4)."""


class Kind:
    """The kinds of tile (§1, §8): ponds and the Gardener's Cabin have no colour; Kami's
    Garden has all three; a Sacred Hill is a plot of one colour."""

    POND: Final = "pond"
    PLOT: Final = "plot"
    SACRED_HILL: Final = "sacred_hill"
    KAMI_GARDEN: Final = "kami_garden"
    CABIN: Final = "cabin"


GROWING: Final = frozenset({Kind.PLOT, Kind.SACRED_HILL, Kind.KAMI_GARDEN})
"""The kinds of tile that hold bamboo."""


@dataclass(frozen=True)
class Plot:
    """A tile of the plot deck: its id, colour (None for a Chibis tile without one),
    printed improvement (or None) and kind."""

    id: str
    colour: str | None
    improvement: str | None
    kind: str = Kind.PLOT


def _plots(colour: str, plain: int, watershed: int, enclosure: int, fertilizer: int) -> list[Plot]:
    kinds = [None] * plain + [WATERSHED] * watershed + [ENCLOSURE] * enclosure
    kinds += [FERTILIZER] * fertilizer
    return [Plot(f"P{colour}{n:02d}", colour, kind) for n, kind in enumerate(kinds, start=1)]


PLOTS: Final = tuple(
    _plots(GREEN, 6, 2, 2, 1) + _plots(YELLOW, 6, 1, 1, 1) + _plots(PINK, 4, 1, 1, 1)
)
"""§2.1 and T1: 27 plots (the pond starts on the board and is not in the deck)."""

CHIBIS_TILES: Final = (
    Plot("CX1", None, None, Kind.POND),  # the Celestial Pond
    Plot("CX2", None, None, Kind.KAMI_GARDEN),
    Plot("CX3", GREEN, None, Kind.SACRED_HILL),
    Plot("CX4", YELLOW, None, Kind.SACRED_HILL),
    Plot("CX5", PINK, None, Kind.SACRED_HILL),
    Plot("CX6", None, None, Kind.CABIN),  # the Gardener's Cabin
)
"""§8: the 6 special tiles of the Chibis option [S10, S11, S12], shuffled into the plot deck
after the 27 plots (§3.3). Each carries the Miss Panda symbol."""
TILE_NAMES: Final = {
    "CX1": "the Celestial Pond", "CX2": "Kami's Garden", "CX3": "the green Sacred Hill",
    "CX4": "the yellow Sacred Hill", "CX5": "the pink Sacred Hill", "CX6": "the Gardener's Cabin",
}  # fmt: skip
TILES: Final = {tile.id: tile for tile in PLOTS + CHIBIS_TILES}
"""Every tile of the plot deck by id."""

IRR, IMP, OBJ = "IRR", "IMP", "OBJ"
BABIES: Final = tuple(f"B{colour}-{bonus}" for colour in COLOURS for bonus in (IRR, IMP, OBJ))
"""§8: the 9 baby pandas, by colour, each colour's listed in bonus order IRR, IMP, OBJ (the
order a random draw reads them in, §8)."""
BABY_POINTS: Final = 2

CHIPS: Final = {WATERSHED: 3, FERTILIZER: 3, ENCLOSURE: 3}
"""§2.2: improvement chips in the supply, by kind (a kind is gone when its 3 are taken)."""
CHANNELS: Final = 20
BAMBOO_PRINTED: Final = {GREEN: 36, YELLOW: 30, PINK: 24}
"""§2.2: the printed bamboo; the engine treats every colour as unlimited (T2)."""
EMPEROR_POINTS: Final = 2
HAND_LIMIT: Final = 5
MAX_HEIGHT: Final = 4
ENDING_OBJECTIVES: Final = {2: 9, 3: 8, 4: 7}
"""§7: completed objectives that trigger the end, by number of players."""

# §2.3: each shape as (dq, dr, slot) entries; slot "a" or "b" names a colour of the card.
Shape = tuple[tuple[int, int, str], ...]
SHAPES: Final[dict[str, Shape]] = {
    "LINE": ((0, 0, "a"), (1, 0, "a"), (2, 0, "a")),
    "CURVE": ((0, 0, "a"), (1, 0, "a"), (2, -1, "a")),
    "TRIANGLE": ((0, 0, "a"), (1, 0, "a"), (0, 1, "a")),
    "DIAMOND": ((0, 0, "a"), (1, 0, "a"), (0, 1, "a"), (1, -1, "a")),
    "DUO": ((0, 0, "a"), (1, 0, "a"), (-1, 1, "b"), (0, 1, "b")),  # chiral (T3)
}


@dataclass(frozen=True)
class PlotObjective:
    """§2.4: irrigated plots of the slots' colours in the shape, under any rotation."""

    id: str
    shape: str
    slots: tuple[tuple[str, str], ...]
    """Each slot of the shape with its colour, e.g. (("a", "G"), ("b", "Y"))."""
    points: int

    def cells(self) -> list[tuple[Cell, str]]:
        """The shape's cells (unrotated, anchored at (0, 0)) with the colour each needs."""
        colour = dict(self.slots)
        return [((dq, dr), colour[slot]) for dq, dr, slot in SHAPES[self.shape]]


@dataclass(frozen=True)
class GardenerObjective:
    """§2.5: at least `count` plots of `colour` with bamboo of exactly `height` sections,
    each meeting the improvement condition (a kind, NONE or ANY)."""

    id: str
    colour: str
    count: int
    height: int
    improvement: str
    points: int


@dataclass(frozen=True)
class PandaObjective:
    """§2.6: the stomach holds at least these sections (paid back when completed)."""

    id: str
    sections: tuple[str, ...]
    points: int


def _plot(n: int, shape: str, a: str, points: int, b: str | None = None) -> PlotObjective:
    slots = (("a", a),) if b is None else (("a", a), ("b", b))
    return PlotObjective(f"PL{n:02d}", shape, slots, points)


PLOT_OBJECTIVES: Final = (
    _plot(1, "LINE", GREEN, 2), _plot(2, "CURVE", GREEN, 2), _plot(3, "TRIANGLE", GREEN, 2),
    _plot(4, "DIAMOND", GREEN, 3), _plot(5, "LINE", YELLOW, 3), _plot(6, "CURVE", YELLOW, 3),
    _plot(7, "TRIANGLE", YELLOW, 3), _plot(8, "DIAMOND", YELLOW, 4), _plot(9, "LINE", PINK, 4),
    _plot(10, "CURVE", PINK, 4), _plot(11, "TRIANGLE", PINK, 4), _plot(12, "DIAMOND", PINK, 5),
    _plot(13, "DUO", GREEN, 3, YELLOW), _plot(14, "DUO", GREEN, 4, PINK),
    _plot(15, "DUO", PINK, 5, YELLOW),
)  # fmt: skip

GARDENER_OBJECTIVES: Final = tuple(
    GardenerObjective(f"GA{n:02d}", colour, count, height, improvement, points)
    for n, (colour, count, height, improvement, points) in enumerate(
        [
            (GREEN, 1, 4, FERTILIZER, 3), (GREEN, 1, 4, WATERSHED, 4),
            (GREEN, 1, 4, ENCLOSURE, 4), (GREEN, 1, 4, NONE, 5), (GREEN, 4, 3, ANY, 8),
            (YELLOW, 1, 4, FERTILIZER, 4), (YELLOW, 1, 4, WATERSHED, 5),
            (YELLOW, 1, 4, ENCLOSURE, 5), (YELLOW, 1, 4, NONE, 6), (YELLOW, 3, 3, ANY, 7),
            (PINK, 1, 4, FERTILIZER, 5), (PINK, 1, 4, WATERSHED, 6),
            (PINK, 1, 4, ENCLOSURE, 6), (PINK, 1, 4, NONE, 7), (PINK, 2, 3, ANY, 6),
        ],
        start=1,
    )
)  # fmt: skip

PANDA_OBJECTIVES: Final = tuple(
    PandaObjective(f"PA{n:02d}", sections, points)
    for n, (sections, points) in enumerate(
        [((GREEN, GREEN), 3)] * 5 + [((YELLOW, YELLOW), 4)] * 4 + [((PINK, PINK), 5)] * 3
        + [((GREEN, YELLOW, PINK), 6)] * 3,
        start=1,
    )
)  # fmt: skip

WEATHER: Final = ("SUN", "RAIN", "WIND", "STORM", "CLOUDS", "CHOICE")
"""§2.7: the die's faces by the index the RNG draws."""
