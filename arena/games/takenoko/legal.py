"""The legal moves of each decision of a Takenoko turn (TAKENOKO.md §9): `LEGAL` maps a
decision's kind to the function that lists its moves, in a fixed order (a move's code is
its index in that list, T24), with what they are made of: the action kinds the seat may
take, the objective decks open to it, and which of its cards hold now (remembered on the
board until a tile changes). The Chibis decisions' lists are in chibis.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from arena.games.base import Move
from arena.games.takenoko.cards import DECKS
from arena.games.takenoko.chibis import baby_moves, bonus_moves, cabin_moves
from arena.games.takenoko.components import GROWING, HAND_LIMIT, MAX_HEIGHT, TILES
from arena.games.takenoko.moves import cell_json, edge_json
from arena.games.takenoko.objectives import card_met
from arena.games.takenoko.position import Position

ACTIONS = ("plot", "irrigation", "gardener", "panda", "objective")
DECISION_KINDS: Final = (
    "turn", "weather", "rain", "storm", "clouds", "plot", "return", "gardener", "panda",
    "objective", "eat", "cabin", "baby", "bonus",
)  # fmt: skip
"""Every kind of decision a seat can be asked for (`TakenokoGame.decision_kinds`)."""
"""The five action kinds (§4)."""


def open_decks(state: Position) -> list[str]:
    """The objective decks OBJECTIVE may draw from: not empty and, with T11's redraw rule,
    not yet closed this turn."""
    return [d for d in DECKS if len(state.decks[d]) > state.refunds.get(d, 0)]


def action_kinds(state: Position) -> list[str]:
    """The action kinds the seat may take next (§4), in the order of ACTIONS."""
    if not state.rolled or len(state.taken) >= state.action_limit():
        return []
    board = state.board
    ready = {
        "plot": bool(state.plot_deck),
        "irrigation": state.channel_supply > 0,
        "gardener": board.has_destination(board.gardener),
        "panda": board.has_destination(board.panda)
        or (board.miss_panda is not None and board.has_destination(board.miss_panda)),
        "objective": len(state.hands[state.current]) < HAND_LIMIT and bool(open_decks(state)),
    }
    distinct = state.face != "WIND"
    return [k for k in ACTIONS if ready[k] and not (distinct and k in state.taken)]


def owes_action(state: Position) -> bool:
    """T8: the 2 base actions are due while a legal one exists (SUN's third is not)."""
    return len(state.taken) < 2 and bool(action_kinds(state))


def holds(state: Position, card: str, seat: int) -> bool:
    """`state.met`, remembered for a gardener card while no tile changes and for a plot card
    while no plot becomes irrigated (a panda card reads the stomach: checked afresh)."""
    stomach = state.stomachs[seat]
    if card[:2] == "PA":
        return card_met(card, stomach, state.board.tiles)
    memo = state.board.wet_memo if card[:2] == "PL" else state.board.memo
    return memo(card, lambda: card_met(card, stomach, state.garden()))


def _free(state: Position) -> list[Move]:
    """F1-F3 (§4): complete a card that holds, place a chip or a channel from the reserve."""
    seat = state.current
    moves: list[Move] = [
        {"action": "complete", "card": card}
        for card in state.hands[seat]
        if holds(state, card, seat)
    ]
    kinds = [kind for kind, n in state.reserve_chips[seat].items() if n]
    if kinds:
        places = state.board.chip_places()
        moves += [{"action": "chip", "kind": k, "to": cell_json(c)} for k in kinds for c in places]
    if state.reserve_channels[seat]:
        moves += [{"action": "channel", "edge": edge_json(e)} for e in state.board.channel_places()]
    return moves


def _turn_moves(state: Position) -> list[Move]:
    moves = _free(state)
    if not state.rolled:
        return [*moves, {"action": "roll"}]  # D0
    moves += [{"action": kind} for kind in action_kinds(state)]
    if not owes_action(state):
        moves.append({"action": "end"})
    return moves


def _weather_moves(state: Position) -> list[Move]:
    faces = ["SUN", "RAIN", "WIND", "STORM"]
    if any(state.chip_supply.values()):
        faces.append("CLOUDS")
    return [{"action": "weather", "face": face} for face in faces]


def _rain_moves(state: Position) -> list[Move]:
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


def _storm_moves(state: Position) -> list[Move]:
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


def _clouds_moves(state: Position) -> list[Move]:
    kinds = [kind for kind, n in state.chip_supply.items() if n]
    return [*({"action": "clouds", "kind": k} for k in kinds), {"action": "skip"}]


def _plot_moves(state: Position) -> list[Move]:
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


def _panda_moves(state: Position) -> list[Move]:
    """D6: the panda, or Miss Panda once she is on the board (§8)."""
    board = state.board
    moves = _figure_moves("move_panda", board.panda, state)
    if board.miss_panda is not None:
        moves += _figure_moves("move_miss_panda", board.miss_panda, state)
    return moves


def _figure_moves(action: str, start: tuple[int, int], state: Position) -> list[Move]:
    return [{"action": action, "to": cell_json(c)} for c in state.board.destinations(start)]


def _gardener_moves(state: Position) -> list[Move]:
    return _figure_moves("move_gardener", state.board.gardener, state)


def _objective_moves(state: Position) -> list[Move]:
    return [{"action": "draw", "deck": deck} for deck in open_decks(state)]


def _return_moves(state: Position) -> list[Move]:
    """T9, T23: the order the plots not kept go under the deck."""
    drawn = list(state.drawn)
    return [{"action": "return", "order": order} for order in (drawn, drawn[::-1])]


def _eat_moves(state: Position) -> list[Move]:
    """T18: the colour the panda eats on Kami's Garden."""
    return [{"action": "eat", "colour": c} for c in state.board.edible(state.board.panda)]


LEGAL: Final[dict[str, Callable[[Position], list[Move]]]] = {
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
