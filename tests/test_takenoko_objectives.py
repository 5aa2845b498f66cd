"""Takenoko's components (TAKENOKO.md §2) and objective conditions (§2.3-§2.6, T1, T3, T4),
the foundation of the engine of issue 15."""

from __future__ import annotations

from collections import Counter

import pytest

from arena.games.takenoko.components import (
    CHIPS,
    ENCLOSURE,
    FERTILIZER,
    GARDENER_OBJECTIVES,
    GREEN,
    PANDA_OBJECTIVES,
    PINK,
    PLOT_OBJECTIVES,
    PLOTS,
    SHAPES,
    WATERSHED,
    YELLOW,
    PlotObjective,
)
from arena.games.takenoko.hexes import (
    DIRECTIONS,
    POND,
    endpoints,
    line,
    mirror,
    neighbours,
    rotate,
)
from arena.games.takenoko.objectives import (
    Tile,
    gardener_objective_met,
    panda_objective_met,
    plot_objective_met,
)


def test_t1_the_plot_mix() -> None:
    mix = Counter((plot.colour, plot.improvement) for plot in PLOTS)
    assert len(PLOTS) == 27 and len({plot.id for plot in PLOTS}) == 27
    assert mix[(GREEN, None)] == 6 and mix[(GREEN, WATERSHED)] == 2
    assert mix[(GREEN, ENCLOSURE)] == 2 and mix[(GREEN, FERTILIZER)] == 1
    assert [mix[(YELLOW, kind)] for kind in (None, WATERSHED, ENCLOSURE, FERTILIZER)] == [
        6,
        1,
        1,
        1,
    ]
    assert [mix[(PINK, kind)] for kind in (None, WATERSHED, ENCLOSURE, FERTILIZER)] == [4, 1, 1, 1]
    assert CHIPS == {WATERSHED: 3, FERTILIZER: 3, ENCLOSURE: 3}


def test_the_45_objectives_and_their_points() -> None:
    assert [o.id for o in PLOT_OBJECTIVES] == [f"PL{n:02d}" for n in range(1, 16)]
    assert [o.id for o in GARDENER_OBJECTIVES] == [f"GA{n:02d}" for n in range(1, 16)]
    assert [o.id for o in PANDA_OBJECTIVES] == [f"PA{n:02d}" for n in range(1, 16)]
    assert [o.points for o in PLOT_OBJECTIVES] == [2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 3, 4, 5]
    assert [o.points for o in GARDENER_OBJECTIVES] == [3, 4, 4, 5, 8, 4, 5, 5, 6, 7, 5, 6, 6, 7, 6]
    assert [o.points for o in PANDA_OBJECTIVES] == [3] * 5 + [4] * 4 + [5] * 3 + [6] * 3
    assert PANDA_OBJECTIVES[-1].sections == (GREEN, YELLOW, PINK)


def test_geometry_directions_rotation_and_edges() -> None:
    assert rotate((1, 0), 1) == (0, 1)  # E turns to SE: 60° clockwise on screen
    assert all(rotate(cell, 6) == cell for cell in DIRECTIONS)
    assert [rotate(DIRECTIONS[0], k) for k in range(6)] == [
        DIRECTIONS[0], DIRECTIONS[5], DIRECTIONS[4], DIRECTIONS[3], DIRECTIONS[2], DIRECTIONS[1],
    ]  # fmt: skip
    assert len(set(neighbours(POND))) == 6 and POND not in neighbours(POND)
    assert line((0, 0), 0, 3) == [(1, 0), (2, 0), (3, 0)]
    a, b = endpoints((0, 0), (1, 0))
    assert a == {(0, 0), (1, 0), (0, 1)} and b == {(0, 0), (1, 0), (1, -1)}
    assert all(len(vertex & set(neighbours((0, 0)))) == 2 for vertex in (a, b))


def _board(cells: list[tuple[tuple[int, int], str]], irrigated: bool = True) -> dict:  # type: ignore[type-arg]
    return {cell: Tile(frozenset({colour}), irrigated) for cell, colour in cells}


def _placed(objective: PlotObjective, anchor: tuple[int, int], k: int) -> dict:  # type: ignore[type-arg]
    return _board(
        [
            ((anchor[0] + rotate(o, k)[0], anchor[1] + rotate(o, k)[1]), c)
            for o, c in objective.cells()
        ]
    )


@pytest.mark.parametrize("objective", PLOT_OBJECTIVES, ids=lambda o: o.id)
@pytest.mark.parametrize("k", range(6))
def test_t3_every_plot_shape_is_met_under_each_of_the_six_rotations(
    objective: PlotObjective, k: int
) -> None:
    board = _placed(objective, (2, -1), k)
    assert plot_objective_met(board, objective)
    # every plot must be irrigated, and ponds never fit
    some = next(iter(board))
    assert not plot_objective_met({**board, some: Tile(board[some].colours, False)}, objective)
    assert not plot_objective_met({**board, some: Tile()}, objective)
    # extra plots next to the shape do not matter
    extra = {(9, 9): Tile(frozenset({PINK}), True), (9, 10): Tile(frozenset({GREEN}), True)}
    assert plot_objective_met({**board, **extra}, objective)


def _same_up_to_rotation(
    a: list[tuple[tuple[int, int], str]], b: list[tuple[tuple[int, int], str]]
) -> bool:
    def normal(cells: list[tuple[tuple[int, int], str]]) -> frozenset[tuple[tuple[int, int], str]]:
        q0 = min(c[0][0] for c in cells)
        r0 = min(c[0][1] for c in cells if c[0][0] == q0)
        return frozenset(((q - q0, r - r0), colour) for (q, r), colour in cells)

    return any(normal([(rotate(c, k), col) for c, col in a]) == normal(b) for k in range(6))


@pytest.mark.parametrize("objective", PLOT_OBJECTIVES, ids=lambda o: o.id)
def test_t3_a_mirror_image_is_not_met_unless_it_is_also_a_rotation(
    objective: PlotObjective,
) -> None:
    cells = objective.cells()
    mirrored = [(mirror(offset), colour) for offset, colour in cells]
    board = _board([((o[0] + 3, o[1] - 2), c) for o, c in mirrored])
    assert plot_objective_met(board, objective) == _same_up_to_rotation(cells, mirrored)


def test_t3_the_two_colour_duo_is_chiral_and_its_colours_matter() -> None:
    duo = PLOT_OBJECTIVES[12]  # PL13: G pair on top, Y pair below and to the left
    cells = duo.cells()
    assert not _same_up_to_rotation(cells, [(mirror(o), c) for o, c in cells])
    # T3: swapping the two colours equals a 180° turn, so the swapped board still counts
    swapped = [(o, YELLOW if c == GREEN else GREEN) for o, c in cells]
    assert _same_up_to_rotation(cells, swapped)
    assert plot_objective_met(_board(swapped), duo)
    mirrored = _board([(mirror(o), c) for o, c in cells])
    assert not plot_objective_met(mirrored, duo)
    assert len(SHAPES) == 5


def test_t4_gardener_heights_are_exact_and_improvements_as_written() -> None:
    fertilized_green = GARDENER_OBJECTIVES[0]  # GA01: 1 green x4, fertilizer
    plain_green = GARDENER_OBJECTIVES[3]  # GA04: 1 green x4, no improvement
    four_by_three = GARDENER_OBJECTIVES[4]  # GA05: 4 green x3, any improvement

    def plot(height: int, improvement: str | None = None, colour: str = GREEN) -> Tile:
        return Tile(frozenset({colour}), True, {colour: height}, improvement)

    assert gardener_objective_met({(1, 0): plot(4, FERTILIZER)}, fertilized_green)
    assert not gardener_objective_met({(1, 0): plot(3, FERTILIZER)}, fertilized_green)
    assert not gardener_objective_met({(1, 0): plot(4, WATERSHED)}, fertilized_green)
    assert gardener_objective_met({(1, 0): plot(4)}, plain_green)
    assert not gardener_objective_met({(1, 0): plot(4, ENCLOSURE)}, plain_green)
    three = {(q, 0): plot(3, ENCLOSURE if q == 1 else None) for q in range(1, 4)}
    assert not gardener_objective_met(three, four_by_three)
    assert gardener_objective_met({**three, (0, 1): plot(3, FERTILIZER)}, four_by_three)
    assert not gardener_objective_met({**three, (0, 1): plot(4)}, four_by_three)  # exact
    assert not gardener_objective_met({**three, (0, 1): plot(3, colour=PINK)}, four_by_three)


def test_panda_objectives_count_the_stomach() -> None:
    two_green, rainbow = PANDA_OBJECTIVES[0], PANDA_OBJECTIVES[-1]
    assert panda_objective_met({GREEN: 2}, two_green)
    assert not panda_objective_met({GREEN: 1, YELLOW: 5}, two_green)
    assert panda_objective_met({GREEN: 1, YELLOW: 1, PINK: 1}, rainbow)
    assert not panda_objective_met({GREEN: 3, YELLOW: 1}, rainbow)
