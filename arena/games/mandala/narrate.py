"""Mandala told in words: the claims, the engine's forced claims and passes, Rivers and Cups."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arena.games.base import Decision, GameState, Move


def step(state: GameState, decision: Decision, move: Move, who: Callable[[int], str]) -> list[str]:
    """A turn, or a claim from the Mandala being destroyed and the forced claim after it."""
    if decision.kind != "claim":
        return [f"Turn {state.turn + 1:>3}: {who(decision.seat)} {state.describe_move(move)}"]
    view = state.view(decision.seat)
    destroying = view.get("destroying") or {}
    where = f" from Mandala {destroying['mandala']}" if "mandala" in destroying else ""
    told = [f"    claim{where}: {who(decision.seat)} {state.describe_move(move)}"]
    forced = forced_claim(view, move, who(1 - decision.seat))
    return [*told, forced] if forced else told


def after(state: GameState, move: Move, turn_before: int, who: Callable[[int], str]) -> list[str]:
    """The passes of empty hands (R11) that followed a move."""
    passes = state.turn - turn_before - 1
    if passes > 0 and not state.is_over():
        return [f"          ({passes} turn(s) passed: an empty hand passes, R11)"]
    return []


def forced_claim(view: dict[str, Any], move: Move, other: str) -> str:
    """The engine's own claim of the last colour left in a Mountain, in words ('' if none)."""
    destroying = view.get("destroying")
    if not isinstance(destroying, dict) or len(view.get("players") or []) != 2:
        return ""
    mountain = dict(view["mandalas"][destroying["mandala"]]["mountain"])
    mountain.pop(move.get("colour"), None)
    left = [colour for colour, count in mountain.items() if count]
    if len(left) != 1:
        return ""
    where = f" from Mandala {destroying['mandala']}"
    return f"    claim{where}: {other} claims {left[0]} (the last colour: no choice)"


def end(state: GameState, names: list[str]) -> list[str]:
    """Each seat's River and Cup size."""
    lines = []
    for seat, player in enumerate(state.view(0).get("players") or []):
        river = ", ".join(player["river"]) or "empty"
        name = names[seat] if seat < len(names) else "?"
        lines.append(
            f"River of seat {seat} ({name}): {river}; Cup: {player.get('cup_size', '?')} cards"
        )
    return lines
