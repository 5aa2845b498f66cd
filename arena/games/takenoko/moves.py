"""Takenoko's moves as JSON: reading a bot's move against the legal list (their words:
words.py).

{"action": "roll"}                                   D0: roll the weather die
{"action": "weather", "face": "RAIN"}                D1
{"action": "rain", "to": [1, 0]} / "storm" / {"action": "clouds", "kind": "fertilizer"}
{"action": "skip"}                                   D2: decline the weather's effect
{"action": "plot"} / "irrigation" / "gardener" / "panda" / "objective"   D3: an action
{"action": "place", "plot": "PG03", "to": [1, -1], "chip": null}        D4
{"action": "move_gardener", "to": [2, -1]} / "move_panda"               D5, D6
{"action": "draw", "deck": "panda"}                                     D7
{"action": "complete", "card": "PA02"}               F1 (free, on your own turn)
{"action": "chip", "kind": "watershed", "to": [1, 0]}                   F2
{"action": "channel", "edge": [[1, 0], [1, -1]]}                        F3
{"action": "end"}                                    end the turn
With the Chibis option (§8):
{"action": "rain", "to": [1, 0], "colour": "P"}      RAIN on one stack of Kami's Garden
{"action": "storm_miss_panda", "to": [1, 0]} / "move_miss_panda"         STORM, D6
{"action": "eat", "colour": "Y"}                     D6: the stack eaten on Kami's Garden
{"action": "keep", "card": "GA03"} / {"action": "keep", "card": null}    D5: the Cabin
{"action": "baby", "colour": "G"}                    D6: pay a section for a baby
{"action": "baby_channel", "edge": [[1, 0], [1, -1]]}                   its bonus (T17)
{"action": "baby_chip", "kind": "fertilizer", "to": [1, 0]}
{"action": "baby_move_chip", "from": [1, 0], "to": [2, -1]}
{"action": "baby_swap", "card": "PL04"}
"""

from __future__ import annotations

from typing import Any

from arena.errors import IllegalMoveError, MoveFormatError
from arena.games.base import Move
from arena.games.move_fields import move_object, shown
from arena.games.takenoko.hexes import Cell, Edge


def cell_of(value: Any) -> Cell:
    """A cell from its JSON form [q, r]."""
    return (int(value[0]), int(value[1]))


def edge_of(value: Any) -> Edge:
    """An edge from its JSON form [[q, r], [q, r]]."""
    return frozenset((cell_of(value[0]), cell_of(value[1])))


def cell_json(cell: Cell) -> list[int]:
    """A cell's JSON form [q, r]."""
    return [cell[0], cell[1]]


def edge_json(edge: Edge) -> list[list[int]]:
    """An edge's JSON form, its cells in order: [[q, r], [q, r]]."""
    return [cell_json(cell) for cell in sorted(edge)]


def normal(move: Any) -> Any:
    """A hashable form of a move in which equal moves are equal (an edge's cells in any
    order, a missing chip as null); None for a value no legal move can have."""
    if isinstance(move, dict):
        items = dict(move)
        if items.get("action") == "place":
            items.setdefault("chip", None)
        if items.get("action") == "keep":
            items.setdefault("card", None)
        if items.get("action") in ("channel", "baby_channel") and isinstance(
            items.get("edge"), list
        ):
            try:
                items["edge"] = sorted(normal(cell) for cell in items["edge"])
            except TypeError:  # cells that do not compare (not two numbers each)
                return None
        return tuple(sorted((str(k), normal(v)) for k, v in items.items()))
    if isinstance(move, list | tuple):
        return tuple(normal(item) for item in move)
    if isinstance(move, bool) or move is None or isinstance(move, int | str):
        return (type(move).__name__, move)
    return None


def index_of(legal: list[Move]) -> dict[Any, int]:
    """Each legal move's normal form with its index, to look a bot's move up at once."""
    return {normal(move): index for index, move in enumerate(legal)}


def match(move: Any, legal: list[Move], index: dict[Any, int], kind: str) -> int:
    """The index of `move` among the `legal` moves (`index`: `index_of(legal)`);
    MoveFormatError for what is not a move object, IllegalMoveError with the moves this
    decision allows otherwise."""
    move = move_object(move)
    action = move.get("action")
    if not isinstance(action, str):
        raise MoveFormatError(f"A move needs an 'action' (text), not {shown(action)}.")
    found = index.get(normal(move))
    if found is not None:
        return found
    allowed = sorted({str(candidate["action"]) for candidate in legal})
    if action not in allowed:
        raise IllegalMoveError(
            f"{shown(action)} is not a move of this {kind} decision; it allows: "
            f"{', '.join(allowed)}."
        )
    raise IllegalMoveError(
        f"{shown(move)} is not legal now: its {action} is not among the {kind} decision's "
        "legal moves (see legal_moves)."
    )
