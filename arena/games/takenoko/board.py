"""The board of Takenoko and its mechanics (TAKENOKO.md §5, §8): placing tiles, irrigation,
growth, improvements, moving the figures, the panda eating; with the Chibis tiles (a second
pond, Kami's Garden, the Sacred Hills, the Gardener's Cabin) and Miss Panda.

The turn structure (weather, actions, objectives, babies, the end) is built on top of this.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from arena.games.takenoko.components import (
    COLOURS,
    ENCLOSURE,
    FERTILIZER,
    GROWING,
    MAX_HEIGHT,
    WATERSHED,
    Kind,
)
from arena.games.takenoko.hexes import DIRECTIONS, POND, Cell, Edge, endpoints, neighbours

T = TypeVar("T")


@dataclass
class Placed:
    """A tile on the board: a pond, a plot with its bamboo, or a Chibis tile (§8)."""

    colour: str | None
    """The plot's colour; None for a pond, Kami's Garden (every colour) and the Cabin."""
    improvement: str | None = None
    plot: str | None = None
    """The tile's id (components.TILES), public once placed; None for the starting pond."""
    height: int = 0
    """The bamboo on a plot or a Sacred Hill (Kami's Garden keeps `stacks`)."""
    irrigated: bool = False
    """Once true, true for good (§5.2); the first time brings one growth (§5.3)."""
    kind: str = Kind.PLOT
    stacks: dict[str, int] | None = None
    """Kami's Garden's bamboo, one stack per colour (T18); None for any other tile."""

    @property
    def is_pond(self) -> bool:
        return self.kind == Kind.POND

    @property
    def colours(self) -> frozenset[str]:
        """The colours it counts as for shapes and gardener growth: Kami's Garden all (T18)."""
        if self.stacks is not None:
            return frozenset(COLOURS)
        return frozenset() if self.colour is None else frozenset((self.colour,))

    @property
    def heights(self) -> dict[str, int]:
        """Its bamboo by colour, as the objectives read it (a stack per colour on Kami's)."""
        if self.stacks is not None:
            return self.stacks
        return {self.colour: self.height} if self.colour is not None else {}

    @property
    def bamboo(self) -> int:
        """Every section on it."""
        return self.height if self.stacks is None else sum(self.stacks.values())

    def copy(self) -> Placed:
        return Placed(
            self.colour,
            self.improvement,
            self.plot,
            self.height,
            self.irrigated,
            self.kind,
            None if self.stacks is None else dict(self.stacks),
        )


def new_tile(kind: str, colour: str | None, improvement: str | None, plot: str | None) -> Placed:
    """A tile as it is put on the board: Kami's Garden with its three empty stacks."""
    stacks = dict.fromkeys(COLOURS, 0) if kind == Kind.KAMI_GARDEN else None
    return Placed(colour, improvement, plot, kind=kind, stacks=stacks)


class Memo:
    """Values made once per version of what they read; a new version forgets them all."""

    __slots__ = ("values", "version")

    def __init__(self) -> None:
        self.values: dict[Hashable, Any] = {}
        self.version = -1

    def get(self, version: int, key: Hashable, compute: Callable[[], T]) -> T:
        if self.version != version:
            self.values.clear()
            self.version = version
        try:
            value: T = self.values[key]
        except KeyError:
            value = self.values[key] = compute()
        return value


@dataclass
class Board:
    """Every tile in play by cell, the channels placed, and where the figures stand."""

    tiles: dict[Cell, Placed] = field(default_factory=lambda: {POND: Placed(None, kind=Kind.POND)})
    channels: set[Edge] = field(default_factory=set)
    gardener: Cell = POND
    panda: Cell = POND
    miss_panda: Cell | None = None
    """Chibis (§8): off the board until the first special tile is placed."""
    version: int = field(default=0, compare=False, repr=False)
    """Bumped by every change to a tile or a channel (`changed`): what `memo` is valid for.
    Figures moving change neither. A copy starts its own count and an empty memo."""
    wet_version: int = field(default=0, compare=False, repr=False)
    """Bumped when a plot becomes irrigated (`changed(wet=True)`): what `wet_memo` is valid
    for. Irrigation is for good (§5.2), so the irrigated plots only ever grow in number."""
    _memo: Memo = field(default_factory=Memo, compare=False, repr=False)
    _wet_memo: Memo = field(default_factory=Memo, compare=False, repr=False)

    def changed(self, wet: bool = False) -> None:
        """A tile or a channel changed (`wet`: a plot became irrigated): memos are stale."""
        self.version += 1
        if wet:
            self.wet_version += 1

    def memo(self, key: Hashable, compute: Callable[[], T]) -> T:
        """`compute()`, made once per version of the tiles and channels (the legal moves of
        one position are asked for several times, and most decisions change no tile)."""
        return self._memo.get(self.version, key, compute)

    def wet_memo(self, key: Hashable, compute: Callable[[], T]) -> T:
        """`compute()` for something that reads only which plots are irrigated (a plot
        card), made once per `wet_version`."""
        return self._wet_memo.get(self.wet_version, key, compute)

    def has_destination(self, start: Cell) -> bool:
        """§5.5: whether a figure on `start` can move at all (a tile next to it)."""
        tiles = self.tiles
        return any(near in tiles for near in neighbours(start))

    def copy(self) -> Board:
        return Board(
            {cell: tile.copy() for cell, tile in self.tiles.items()},
            set(self.channels),
            self.gardener,
            self.panda,
            self.miss_panda,
        )

    # ------------------------------------------------------------------ placing tiles (5.1)

    def placements(self) -> list[Cell]:
        """§5.1: the empty cells next to a pond or next to at least 2 tiles, sorted."""
        return self.memo("placements", self._placements)

    def _placements(self) -> list[Cell]:
        legal = set()
        for cell in self.tiles:
            for near in neighbours(cell):
                if near in self.tiles or near in legal:
                    continue
                around = [n for n in neighbours(near) if n in self.tiles]
                if len(around) >= 2 or any(self.tiles[n].is_pond for n in around):
                    legal.add(near)
        return sorted(legal)

    def place(
        self,
        cell: Cell,
        colour: str | None,
        improvement: str | None = None,
        plot: str | None = None,
        kind: str = Kind.PLOT,
    ) -> list[Cell]:
        """Put a tile on a legal cell (a plot with a printed improvement, or a chip placed
        before its first irrigation, T6); the plots that grew as they became irrigated."""
        if cell not in self.placements():
            raise ValueError(f"{cell} is not a legal place for a plot (§5.1)")
        self.tiles[cell] = new_tile(kind, colour, improvement, plot)
        self.changed()
        return self.irrigate()

    # ------------------------------------------------------------------ irrigation (5.2)

    def watered(self, cell: Cell) -> bool:
        """§5.2: a plot is irrigated if it touches a pond, one of its edges carries a
        channel, or its improvement is a watershed."""
        tile = self.tiles[cell]
        if tile.is_pond:
            return False
        if tile.improvement == WATERSHED:
            return True
        for near in neighbours(cell):
            if near in self.tiles and self.tiles[near].is_pond:
                return True
            if frozenset((cell, near)) in self.channels:
                return True
        return False

    def wet(self, vertex: frozenset[Cell]) -> bool:
        """§5.2: a vertex is wet if one of its cells is a pond or a channel ends there."""
        return self._wet(vertex, self._channel_ends())

    def _channel_ends(self) -> set[frozenset[Cell]]:
        return {end for channel in self.channels for end in endpoints(*sorted(channel))}

    def _wet(self, vertex: frozenset[Cell], ends: set[frozenset[Cell]]) -> bool:
        tiles = self.tiles
        return vertex in ends or any(cell in tiles and tiles[cell].is_pond for cell in vertex)

    def channel_places(self) -> list[Edge]:
        """§5.2, T10: edges between two plots, without a channel, with a wet endpoint
        (never a pond's edge; a watershed is not a source)."""
        return self.memo("channel_places", self._channel_places)

    def _channel_places(self) -> list[Edge]:
        legal = []
        ends = self._channel_ends()
        tiles = self.tiles
        for cell, tile in tiles.items():
            if tile.is_pond:
                continue
            for near in neighbours(cell):
                other = tiles.get(near)
                if other is None or other.is_pond or near < cell:  # each edge once
                    continue
                edge = frozenset((cell, near))
                if edge in self.channels:
                    continue
                if any(self._wet(vertex, ends) for vertex in endpoints(cell, near)):
                    legal.append(edge)
        return sorted(legal, key=sorted)

    def place_channel(self, edge: Edge) -> list[Cell]:
        """Put a channel on a legal edge; the plots that grew as they became irrigated."""
        if edge not in self.channel_places():
            raise ValueError(f"a channel cannot go on {sorted(edge)} (§5.2)")
        self.channels.add(edge)
        self.changed()
        return self.irrigate()

    def irrigate(self) -> list[Cell]:
        """Mark the plots that are now irrigated; each one irrigated for the first time gets
        its one growth event (§5.3). The cells that did, sorted."""
        first = []
        for cell, tile in sorted(self.tiles.items()):
            if not tile.is_pond and not tile.irrigated and self.watered(cell):
                tile.irrigated = True
                first.append(cell)
        if first:
            self.changed(wet=True)
        for cell in first:
            self.grow(cell)
        return first

    # ------------------------------------------------------------------ growth (5.3, 5.4)

    def grow(self, cell: Cell, colour: str | None = None) -> bool:
        """§5.3, T5: one growth event: +1 section (+2 with a fertilizer), never above 4, only
        on an irrigated plot; on Kami's Garden, the `colour` stack, or all three for None
        (T18). True if it was an irrigated plot (even when already at 4)."""
        tile = self.tiles[cell]
        if tile.kind not in GROWING or not tile.irrigated:
            return False
        step = 2 if tile.improvement == FERTILIZER else 1
        self.changed()
        if tile.stacks is None:
            tile.height = min(MAX_HEIGHT, tile.height + step)
            return True
        for stack in COLOURS if colour is None else (colour,):
            tile.stacks[stack] = min(MAX_HEIGHT, tile.stacks[stack] + step)
        return True

    def chip_places(self) -> list[Cell]:
        """§5.4: plots without an improvement and without bamboo (Kami's Garden: all three
        stacks empty, T18); never a pond or the Cabin."""
        return self.memo("chip_places", self._chip_places)

    def _chip_places(self) -> list[Cell]:
        return sorted(
            cell
            for cell, tile in self.tiles.items()
            if tile.kind in GROWING and tile.improvement is None and tile.bamboo == 0
        )

    def place_chip(self, cell: Cell, kind: str) -> list[Cell]:
        """Put an improvement chip on a legal plot (a watershed may irrigate it at once)."""
        if cell not in self.chip_places():
            raise ValueError(f"a chip cannot go on {cell} (§5.4)")
        self.tiles[cell].improvement = kind
        self.changed()
        return self.irrigate()

    # ------------------------------------------------------------------ figures (5.5, 5.6)

    def destinations(self, start: Cell) -> list[Cell]:
        """§5.5: every cell a straight line of at least 1 cell reaches from `start` with a
        tile on each cell up to it (figures never block, T7)."""
        reached = []
        for dq, dr in DIRECTIONS:
            q, r = start[0] + dq, start[1] + dr
            while (q, r) in self.tiles:
                reached.append((q, r))
                q, r = q + dq, r + dr
        return sorted(reached)

    def move_gardener(self, to: Cell) -> list[Cell]:
        """The gardener stops on `to` and the bamboo grows (§5.3, T18, T19). The cells that
        grew."""
        if to not in self.destinations(self.gardener):
            raise ValueError(f"the gardener cannot reach {to} in a straight line (§5.5)")
        self.gardener = to
        return self.garden(to)

    def garden(self, at: Cell) -> list[Cell]:
        """The growth events of the gardener stopping on `at`, each needing its own
        irrigation: on a plot, there and on each neighbour of its colour (Kami's Garden grows
        that stack, T18); on a Sacred Hill, every plot of its colour (T19); on Kami's Garden,
        its three stacks and every plot next to it (T18); on a pond or the Cabin, nothing."""
        tiles = self.tiles
        tile = tiles[at]
        events: Sequence[tuple[Cell, str | None]]
        if tile.kind == Kind.KAMI_GARDEN:
            events = [(at, None)] + [(near, None) for near in neighbours(at) if near in tiles]
        elif tile.kind == Kind.SACRED_HILL:
            events = [(cell, tile.colour) for cell, t in tiles.items() if tile.colour in t.colours]
        elif tile.kind == Kind.PLOT:
            events = [(at, None)] + [
                (near, tile.colour)
                for near in neighbours(at)
                if near in tiles and tile.colour in tiles[near].colours
            ]
        else:
            return []
        return [cell for cell, colour in events if self.grow(cell, colour)]

    def move_panda(self, to: Cell) -> None:
        """The panda moves to `to` in a straight line (§5.5). It does not eat here: the
        state eats once, for the active player, wherever the panda stops (§5.6; issue 21:
        a panda that ate here too took two sections and credited one)."""
        if to not in self.destinations(self.panda):
            raise ValueError(f"the panda cannot reach {to} in a straight line (§5.5)")
        self.panda = to

    def edible(self, cell: Cell) -> list[str]:
        """§5.6, T18: the colours the panda can eat on `cell`: none on a pond, the Cabin, an
        enclosure or bare bamboo; on Kami's Garden each stack that is not empty."""
        tile = self.tiles[cell]
        if tile.kind not in GROWING or tile.improvement == ENCLOSURE:
            return []
        if tile.stacks is not None:
            return [colour for colour in COLOURS if tile.stacks[colour]]
        return [tile.colour] if tile.height and tile.colour else []

    def eat(self, cell: Cell, colour: str) -> str:
        """Take one section of `colour` off `cell` (§5.6); the colour."""
        if colour not in self.edible(cell):
            raise ValueError(f"the panda cannot eat {colour} on {cell} (§5.6)")
        tile = self.tiles[cell]
        if tile.stacks is None:
            tile.height -= 1
        else:
            tile.stacks[colour] -= 1
        self.changed()
        return colour

    def move_miss_panda(self, to: Cell) -> None:
        """Chibis (§8): Miss Panda moves in a straight line like the panda; she never eats."""
        if self.miss_panda is None or to not in self.destinations(self.miss_panda):
            raise ValueError(f"Miss Panda cannot reach {to} in a straight line (§8)")
        self.miss_panda = to
