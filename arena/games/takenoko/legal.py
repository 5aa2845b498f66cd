"""The legal moves of each decision of a Takenoko turn (TAKENOKO.md §9): `LEGAL` maps a
decision's kind to the function that lists its moves, in a fixed order (a move's code is
its index in that list, T24). The Chibis decisions' lists are in chibis.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from arena.games.base import Move
from arena.games.takenoko.chibis import baby_moves, bonus_moves, cabin_moves
from arena.games.takenoko.components import GROWING, MAX_HEIGHT, TILES
from arena.games.takenoko.moves import cell_json, edge_json

if TYPE_CHECKING:
    from arena.games.takenoko.state import TakenokoState


def _free(state: TakenokoState) -> list[Move]:
    """F1-F3 (§4): complete a card that holds, place a chip or a channel from the reserve."""
    seat = state.current
    moves: list[Move] = [
        {"action": "complete", "card": card}
        for card in state.hands[seat]
        if state.holds(card, seat)
    ]
    kinds = [kind for kind, n in state.reserve_chips[seat].items() if n]
    if kinds:
        places = state.board.chip_places()
        moves += [{"action": "chip", "kind": k, "to": cell_json(c)} for k in kinds for c in places]
    if state.reserve_channels[seat]:
        moves += [{"action": "channel", "edge": edge_json(e)} for e in state.board.channel_places()]
    return moves


def _turn_moves(state: TakenokoState) -> list[Move]:
    moves = _free(state)
    if not state.rolled:
        return [*moves, {"action": "roll"}]  # D0
    moves += [{"action": kind} for kind in state.action_kinds()]
    if not state.owes_action():
        moves.append({"action": "end"})
    return moves


def _weather_moves(state: TakenokoState) -> list[Move]:
    faces = ["SUN", "RAIN", "WIND", "STORM"]
    if any(state.chip_supply.values()):
        faces.append("CLOUDS")
    return [{"action": "weather", "face": face} for face in faces]


def _rain_moves(state: TakenokoState) -> list[Move]:
    """RAIN: an irrigated plot below 4 sections; on Kami's Garden, one stack (T18)."""
    moves: list[Move] = []
    for cell, tile in sorted(state.board.tiles.items()):
        if tile.kind not in GROWING or not tile.irrigated:
            continue
        if tile.stacks is None:
            if tile.height < MAX_HEIGHT:
                moves.append({"action": "rain", "to": cell_json(cell)})
            continue
        for colour, height in tile.stacks.items():
            if height < MAX_HEIGHT:
                moves.append({"action": "rain", "to": cell_json(cell), "colour": colour})
    return [*moves, {"action": "skip"}]


def _storm_moves(state: TakenokoState) -> list[Move]:
    """STORM: the panda (or Miss Panda, §8) to any tile but its own (T7)."""
    board = state.board
    cells = sorted(board.tiles)
    moves: list[Move] = [{"action": "storm", "to": cell_json(c)} for c in cells if c != board.panda]
    if board.miss_panda is not None:
        moves += [
            {"action": "storm_miss_panda", "to": cell_json(c)}
            for c in cells
            if c != board.miss_panda
        ]
    return [*moves, {"action": "skip"}]


def _clouds_moves(state: TakenokoState) -> list[Move]:
    kinds = [kind for kind, n in state.chip_supply.items() if n]
    return [*({"action": "clouds", "kind": k} for k in kinds), {"action": "skip"}]


def _plot_moves(state: TakenokoState) -> list[Move]:
    seat = state.current
    chips = [None, *(kind for kind, n in state.reserve_chips[seat].items() if n)]
    cells = state.board.placements()
    moves: list[Move] = []
    for plot_id in state.drawn:
        tile = TILES[plot_id]
        takes_chip = tile.improvement is None and tile.kind in GROWING
        for cell in cells:
            for chip in chips if takes_chip else [None]:
                moves.append(
                    {"action": "place", "plot": plot_id, "to": cell_json(cell), "chip": chip}
                )
    return moves


def _panda_moves(state: TakenokoState) -> list[Move]:
    """D6: the panda, or Miss Panda once she is on the board (§8)."""
    board = state.board
    moves = _figure_moves("move_panda", board.panda, state)
    if board.miss_panda is not None:
        moves += _figure_moves("move_miss_panda", board.miss_panda, state)
    return moves


def _figure_moves(action: str, start: tuple[int, int], state: TakenokoState) -> list[Move]:
    return [{"action": action, "to": cell_json(c)} for c in state.board.destinations(start)]


def _gardener_moves(state: TakenokoState) -> list[Move]:
    return _figure_moves("move_gardener", state.board.gardener, state)


def _objective_moves(state: TakenokoState) -> list[Move]:
    return [{"action": "draw", "deck": deck} for deck in state.open_decks()]


def _return_moves(state: TakenokoState) -> list[Move]:
    """T9, T23: the order the plots not kept go under the deck."""
    drawn = list(state.drawn)
    return [{"action": "return", "order": order} for order in (drawn, drawn[::-1])]


def _eat_moves(state: TakenokoState) -> list[Move]:
    """T18: the colour the panda eats on Kami's Garden."""
    return [{"action": "eat", "colour": c} for c in state.board.edible(state.board.panda)]


LEGAL: Final[dict[str, Callable[[TakenokoState], list[Move]]]] = {
    "turn": _turn_moves,
    "weather": _weather_moves,
    "rain": _rain_moves,
    "storm": _storm_moves,
    "clouds": _clouds_moves,
    "plot": _plot_moves,
    "gardener": _gardener_moves,
    "panda": _panda_moves,
    "objective": _objective_moves,
    "return": _return_moves,
    "eat": _eat_moves,
    "cabin": cabin_moves,
    "baby": baby_moves,
    "bonus": bonus_moves,
}
