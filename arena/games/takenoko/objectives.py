"""When an objective card's condition holds (TAKENOKO.md §2.3-§2.6, §6, T3, T4, T18).

The board is given as `Mapping[Cell, Tile]` (what each occupied cell holds; the engine's
own tiles have the same fields), or as a `Garden`: that board indexed once, for a position
where several cards are checked.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from arena.games.takenoko.board import Placed
from arena.games.takenoko.cards import OBJECTIVES
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


class TileLike(Protocol):
    """What the objectives read of a tile (`Tile`, or the engine's own)."""

    @property
    def colours(self) -> frozenset[str]: ...
    @property
    def irrigated(self) -> bool: ...
    @property
    def heights(self) -> Mapping[str, int]: ...
    @property
    def improvement(self) -> str | None: ...


class Garden:
    """A board indexed for the objective cards: the irrigated cells of each colour, and
    every bamboo with its colour, height and its plot's improvement."""

    def __init__(self, board: Mapping[Cell, TileLike]) -> None:
        wet: dict[str, set[Cell]] = {}
        bamboo: list[tuple[str, int, str | None]] = []
        add = bamboo.append
        for cell, tile in board.items():
            if type(tile) is Placed and tile.stacks is None:  # the engine's own, read directly
                colour = tile.colour
                if colour is None:
                    continue  # a pond or the Cabin: no colour, no bamboo
                if tile.irrigated:
                    wet.setdefault(colour, set()).add(cell)
                add((colour, tile.height, tile.improvement))
                continue
            if tile.irrigated:
                for colour in tile.colours:
                    wet.setdefault(colour, set()).add(cell)
            improvement = tile.improvement
            for colour, height in tile.heights.items():
                add((colour, height, improvement))
        self.wet: dict[str, set[Cell]] = wet
        self.bamboo = bamboo


def _garden(board: Mapping[Cell, TileLike] | Garden) -> Garden:
    return board if isinstance(board, Garden) else Garden(board)


def plot_objective_met(board: Mapping[Cell, TileLike] | Garden, objective: PlotObjective) -> bool:
    """§2.3: some anchor and rotation k put an irrigated plot of each slot's colour on every
    cell of the shape. Rotations only, never mirror images (T3); extra plots do not matter."""
    wet = _garden(board).wet
    for colour, needed in _needs(objective):
        if len(wet.get(colour, ())) < needed:
            return False  # too few irrigated plots of a colour for any placement
    shapes = _rotations(objective)
    anchors = wet[shapes[0][0][2]]  # every shape starts at its anchor, offset (0, 0)
    empty: set[Cell] = set()
    rotated = [[(dq, dr, wet.get(colour, empty)) for dq, dr, colour in cells[1:]]
               for cells in shapes]  # fmt: skip
    for q, r in anchors:
        for cells in rotated:
            for dq, dr, plots in cells:
                if (q + dq, r + dr) not in plots:
                    break
            else:
                return True
    return False


_ROTATED: dict[str, list[list[tuple[int, int, str]]]] = {}
_NEEDS: dict[str, list[tuple[str, int]]] = {}


def _needs(objective: PlotObjective) -> list[tuple[str, int]]:
    """How many plots of each colour the shape needs (made once per card)."""
    needs = _NEEDS.get(objective.id)
    if needs is None:
        needs = _NEEDS[objective.id] = sorted(
            Counter(colour for _, colour in objective.cells()).items()
        )
    return needs


def _rotations(objective: PlotObjective) -> list[list[tuple[int, int, str]]]:
    """The shape's cells under each of the 6 rotations (made once per card)."""
    shapes = _ROTATED.get(objective.id)
    if shapes is None:
        shapes = _ROTATED[objective.id] = [
            [(*rotate(offset, k), colour) for offset, colour in objective.cells()] for k in range(6)
        ]
    return shapes


def gardener_objective_met(
    board: Mapping[Cell, TileLike] | Garden, objective: GardenerObjective
) -> bool:
    """§2.5, T4: at least `count` bamboos of the colour with exactly `height` sections on
    plots meeting the improvement condition (each of Kami's stacks counts on its own, T18)."""
    found = 0
    wanted = objective.improvement
    for colour, height, improvement in _garden(board).bamboo:
        if colour != objective.colour or height != objective.height:
            continue
        if wanted == ANY or (wanted == NONE and improvement is None) or improvement == wanted:
            found += 1
    return found >= objective.count


def card_met(
    card: str, stomach: Mapping[str, int], board: Mapping[Cell, TileLike] | Garden
) -> bool:
    """§6: whether the objective card `card` holds for this stomach and board (the board is
    read only for plot and gardener cards)."""
    objective = OBJECTIVES[card]
    if isinstance(objective, PandaObjective):
        return panda_objective_met(stomach, objective)
    if isinstance(objective, PlotObjective):
        return plot_objective_met(board, objective)
    return gardener_objective_met(board, objective)


def panda_objective_met(stomach: Mapping[str, int], objective: PandaObjective) -> bool:
    """§2.6: the stomach holds at least the card's sections."""
    need = _PANDA_NEEDS.get(objective.id)
    if need is None:
        need = _PANDA_NEEDS[objective.id] = sorted(Counter(objective.sections).items())
    return all(stomach.get(colour, 0) >= n for colour, n in need)


_PANDA_NEEDS: dict[str, list[tuple[str, int]]] = {}
