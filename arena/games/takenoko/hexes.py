"""The hex board of Takenoko (TAKENOKO.md §1): axial cells, directions, rotations, edges.

A cell is `(q, r)`; the pond is at (0, 0); hexes are pointy-topped. The directions, counter-
clockwise: d0 E (+1,0), d1 NE (+1,-1), d2 NW (0,-1), d3 W (-1,0), d4 SW (-1,+1), d5 SE (0,+1).
`rotate(cell, k)` turns a cell k × 60° clockwise about (0, 0) on screen (R(q,r) = (-r, q+r)).
"""

from __future__ import annotations

from typing import Final

Cell = tuple[int, int]

DIRECTIONS: Final = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""d0..d5 in counter-clockwise order; the opposite of d_i is d_(i+3 mod 6)."""
POND: Final = (0, 0)


def add(a: Cell, b: Cell) -> Cell:
    return (a[0] + b[0], a[1] + b[1])


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The six cells next to `cell`, in direction order d0..d5 (made once per cell)."""
    near = _NEIGHBOURS.get(cell)
    if near is None:
        q, r = cell
        if len(_NEIGHBOURS) > 100_000:
            _NEIGHBOURS.clear()
        near = _NEIGHBOURS[cell] = tuple([(q + dq, r + dr) for dq, dr in DIRECTIONS])
    return near


_NEIGHBOURS: dict[Cell, tuple[Cell, ...]] = {}


def rotate(cell: Cell, k: int) -> Cell:
    """`cell` turned k × 60° clockwise about (0, 0): R applied k times, R(q,r) = (-r, q+r)."""
    q, r = cell
    for _ in range(k % 6):
        q, r = -r, q + r
    return (q, r)


def mirror(cell: Cell) -> Cell:
    """The mirror image T3 names for a chiral shape: (dq, dr) -> (dq + dr, -dr)."""
    q, r = cell
    return (q + r, -r)


def line(start: Cell, direction: int, length: int) -> list[Cell]:
    """The cells start + k·d for k = 1..length: a straight-line move's path (§1)."""
    dq, dr = DIRECTIONS[direction]
    return [(start[0] + k * dq, start[1] + k * dr) for k in range(1, length + 1)]


Edge = frozenset[Cell]
"""An unordered pair {A, B} of adjacent cells."""


def edge(a: Cell, b: Cell) -> Edge:
    """The edge between two adjacent cells; ValueError when they are not adjacent."""
    if b not in neighbours(a):
        raise ValueError(f"{a} and {b} are not adjacent")
    return frozenset((a, b))


_DIRECTION_INDEX: Final = {d: i for i, d in enumerate(DIRECTIONS)}


def endpoints(a: Cell, b: Cell) -> tuple[frozenset[Cell], frozenset[Cell]]:
    """The two vertices of edge {A, B} (§1): with B = A + d_i, the triples
    {A, B, A + d_(i-1)} and {A, B, A + d_(i+1)}; ValueError when they are not adjacent."""
    i = _DIRECTION_INDEX.get((b[0] - a[0], b[1] - a[1]))
    if i is None:
        raise ValueError(f"{a} and {b} are not adjacent")
    before = add(a, DIRECTIONS[(i - 1) % 6])
    after = add(a, DIRECTIONS[(i + 1) % 6])
    return frozenset((a, b, before)), frozenset((a, b, after))
