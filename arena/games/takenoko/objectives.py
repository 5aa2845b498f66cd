"""When an objective card's condition holds (TAKENOKO.md §2.3-§2.6, §6, T3, T4, T18).

The board is given as `Mapping[Cell, Tile]`: what each occupied cell holds. The engine
keeps its own state and hands these functions that view of it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from arena.games.takenoko.components import (
    ANY,
    NONE,
    GardenerObjective,
    PandaObjective,
    PlotObjective,
)
from arena.games.takenoko.hexes import Cell, rotate


@dataclass(frozen=True)
class Tile:
    """What one cell holds, as the objectives see it."""

    colours: frozenset[str] = frozenset()
    """The plot's colour; all three for Kami's Garden (T18); none for a pond or the Cabin."""
    irrigated: bool = False
    heights: Mapping[str, int] = field(default_factory=dict)
    """The bamboo on it, by colour (Kami's Garden has a stack per colour)."""
    improvement: str | None = None
    """Its improvement, printed or chip (one at most)."""


def plot_objective_met(board: Mapping[Cell, Tile], objective: PlotObjective) -> bool:
    """§2.3: some anchor and rotation k put an irrigated plot of each slot's colour on every
    cell of the shape. Rotations only, never mirror images (T3); extra plots do not matter."""
    shapes = _rotations(objective)
    first_colour = shapes[0][0][2]
    get = board.get
    for (q, r), tile in board.items():
        if not tile.irrigated or first_colour not in tile.colours:
            continue
        for cells in shapes:
            for dq, dr, colour in cells:
                there = get((q + dq, r + dr))
                if there is None or not there.irrigated or colour not in there.colours:
                    break
            else:
                return True
    return False


_ROTATED: dict[str, list[list[tuple[int, int, str]]]] = {}


def _rotations(objective: PlotObjective) -> list[list[tuple[int, int, str]]]:
    """The shape's cells under each of the 6 rotations (made once per card)."""
    shapes = _ROTATED.get(objective.id)
    if shapes is None:
        shapes = _ROTATED[objective.id] = [
            [(*rotate(offset, k), colour) for offset, colour in objective.cells()] for k in range(6)
        ]
    return shapes


def gardener_objective_met(board: Mapping[Cell, Tile], objective: GardenerObjective) -> bool:
    """§2.5, T4: at least `count` bamboos of the colour with exactly `height` sections on
    plots meeting the improvement condition (each of Kami's stacks counts on its own, T18)."""
    found = 0
    for tile in board.values():
        if tile.heights.get(objective.colour) != objective.height:
            continue
        wanted = objective.improvement
        if (
            wanted == ANY
            or (wanted == NONE and tile.improvement is None)
            or tile.improvement == wanted
        ):
            found += 1
    return found >= objective.count


def panda_objective_met(stomach: Mapping[str, int], objective: PandaObjective) -> bool:
    """§2.6: the stomach holds at least the card's sections."""
    need = Counter(objective.sections)
    return all(stomach.get(colour, 0) >= n for colour, n in need.items())
