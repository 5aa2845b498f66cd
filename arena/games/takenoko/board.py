"""The board of Takenoko and its mechanics (TAKENOKO.md §5): placing tiles, irrigation,
growth, improvements, moving the figures, the panda eating. Base game only (no Chibis yet).

The turn structure (weather, actions, objectives, the end) is built on top of this.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from arena.games.takenoko.components import ENCLOSURE, FERTILIZER, MAX_HEIGHT, WATERSHED
from arena.games.takenoko.hexes import DIRECTIONS, POND, Cell, Edge, endpoints, neighbours


@dataclass
class Placed:
    """A tile on the board: a pond (no colour) or a plot with its bamboo."""

    colour: str | None
    """The plot's colour; None for a pond."""
    improvement: str | None = None
    plot: str | None = None
    """The plot's id (components.PLOTS), public once placed; None for a pond."""
    height: int = 0
    irrigated: bool = False
    """Once true, true for good (§5.2); the first time brings one growth (§5.3)."""

    @property
    def is_pond(self) -> bool:
        return self.colour is None


@dataclass
class Board:
    """Every tile in play by cell, the channels placed, and where the figures stand."""

    tiles: dict[Cell, Placed] = field(default_factory=lambda: {POND: Placed(None)})
    channels: set[Edge] = field(default_factory=set)
    gardener: Cell = POND
    panda: Cell = POND

    # ------------------------------------------------------------------ placing tiles (5.1)

    def placements(self) -> list[Cell]:
        """§5.1: the empty cells next to a pond or next to at least 2 tiles, sorted."""
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
        self, cell: Cell, colour: str, improvement: str | None = None, plot: str | None = None
    ) -> list[Cell]:
        """Put a plot on a legal cell (with a printed improvement, or a chip placed before
        its first irrigation, T6); the plots that grew as they became irrigated."""
        if cell not in self.placements():
            raise ValueError(f"{cell} is not a legal place for a plot (§5.1)")
        self.tiles[cell] = Placed(colour, improvement, plot=plot)
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
        legal = set()
        ends = self._channel_ends()
        for cell, tile in self.tiles.items():
            if tile.is_pond:
                continue
            for near in neighbours(cell):
                other = self.tiles.get(near)
                if other is None or other.is_pond:
                    continue
                edge = frozenset((cell, near))
                if edge in self.channels or edge in legal:
                    continue
                if any(self._wet(vertex, ends) for vertex in endpoints(cell, near)):
                    legal.add(edge)
        return sorted(legal, key=sorted)

    def place_channel(self, edge: Edge) -> list[Cell]:
        """Put a channel on a legal edge; the plots that grew as they became irrigated."""
        if edge not in self.channel_places():
            raise ValueError(f"a channel cannot go on {sorted(edge)} (§5.2)")
        self.channels.add(edge)
        return self.irrigate()

    def irrigate(self) -> list[Cell]:
        """Mark the plots that are now irrigated; each one irrigated for the first time gets
        its one growth event (§5.3). The cells that did, sorted."""
        first = []
        for cell, tile in sorted(self.tiles.items()):
            if not tile.is_pond and not tile.irrigated and self.watered(cell):
                tile.irrigated = True
                first.append(cell)
        for cell in first:
            self.grow(cell)
        return first

    # ------------------------------------------------------------------ growth (5.3, 5.4)

    def grow(self, cell: Cell) -> bool:
        """§5.3, T5: one growth event: +1 section (+2 with a fertilizer), never above 4, only
        on an irrigated plot. True if it was irrigated (even when already at 4)."""
        tile = self.tiles[cell]
        if tile.is_pond or not tile.irrigated:
            return False
        step = 2 if tile.improvement == FERTILIZER else 1
        tile.height = min(MAX_HEIGHT, tile.height + step)
        return True

    def chip_places(self) -> list[Cell]:
        """§5.4: plots without an improvement and without bamboo."""
        return sorted(
            cell
            for cell, tile in self.tiles.items()
            if not tile.is_pond and tile.improvement is None and tile.height == 0
        )

    def place_chip(self, cell: Cell, kind: str) -> list[Cell]:
        """Put an improvement chip on a legal plot (a watershed may irrigate it at once)."""
        if cell not in self.chip_places():
            raise ValueError(f"a chip cannot go on {cell} (§5.4)")
        self.tiles[cell].improvement = kind
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
        """The gardener stops on `to`: one growth event there and on each neighbour plot of
        its colour, each needing its own irrigation (§5.3). The cells that grew."""
        if to not in self.destinations(self.gardener):
            raise ValueError(f"the gardener cannot reach {to} in a straight line (§5.5)")
        self.gardener = to
        tile = self.tiles[to]
        if tile.is_pond:
            return []
        cells = [to] + [
            near
            for near in neighbours(to)
            if near in self.tiles and self.tiles[near].colour == tile.colour
        ]
        return [cell for cell in cells if self.grow(cell)]

    def move_panda(self, to: Cell) -> str | None:
        """The panda stops on `to` and eats one section there, unless it is a pond, bare,
        or enclosed (§5.6); the colour eaten, or None."""
        if to not in self.destinations(self.panda):
            raise ValueError(f"the panda cannot reach {to} in a straight line (§5.5)")
        return self.set_panda(to)

    def set_panda(self, to: Cell) -> str | None:
        """Put the panda on `to` (a STORM moves it anywhere else) and let it eat (§5.6)."""
        self.panda = to
        tile = self.tiles[to]
        if tile.is_pond or tile.height == 0 or tile.improvement == ENCLOSURE:
            return None
        tile.height -= 1
        return tile.colour
