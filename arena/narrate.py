"""A game record told turn by turn, in words: each move, the claims, the Rivers and scores."""

from __future__ import annotations

from typing import Any

from arena.errors import GameError
from arena.games import get_game
from arena.outcome import Outcome


def narrate(record: dict[str, Any]) -> list[str]:
    """The lines of a readable account of `record`; GameError when it does not replay."""
    try:
        names: list[str] = list(record["players"])
        state = get_game(record["game"]).new_state(record["seed"], record.get("config") or None)
        moves: list[dict[str, Any]] = record["moves"]
        recorded = Outcome.from_json(record["outcome"])
    except (KeyError, TypeError, ValueError) as error:
        raise GameError(f"This is not a game record (missing or wrong {error}).") from None

    def who(seat: int) -> str:
        return f"seat {seat} ({names[seat]})" if seat < len(names) else f"seat {seat}"

    lines = [
        f"Game {record.get('game_id', '?')}: {record['game']}, seed {record['seed']}, "
        f"{' vs '.join(names)}"
    ]
    for number, entry in enumerate(moves, start=1):
        decision = state.decision()
        if decision is None:
            raise GameError(f"The record's move {number} comes after the end of the game.")
        if not isinstance(entry, dict) or not isinstance(entry.get("move"), dict):
            raise GameError(f"The record's move {number} has no move object: {entry!r}.")
        move = entry["move"]
        think = entry.get("think_ms")
        timing = f"  [{think:.1f} ms]" if isinstance(think, int | float) else ""
        forced = ""
        if decision.kind == "claim":
            view = state.view(decision.seat)
            destroying = view.get("destroying") or {}
            where = f" from Mandala {destroying['mandala']}" if "mandala" in destroying else ""
            lines.append(
                f"    claim{where}: {who(decision.seat)} {state.describe_move(move)}{timing}"
            )
            forced = _forced_claim(view, move, where, who(1 - decision.seat))
        else:
            lines.append(
                f"Turn {state.turn + 1:>3}: {who(decision.seat)} {state.describe_move(move)}{timing}"
            )
        turn_before = state.turn
        try:
            state.apply_move(move)
        except GameError as error:
            raise GameError(f"The record's move {number} does not replay: {error}") from None
        if forced:
            lines.append(forced)
        passes = state.turn - turn_before - 1
        if passes > 0 and not state.is_over():
            lines.append(f"          ({passes} turn(s) passed: an empty hand passes, R11)")
    lines.append("")
    lines += _table(state.view(0), names)
    lines.append(f"End: {recorded.termination.value}. {recorded.reason}")
    scores = ", ".join(f"{who(s)} {score}" for s, score in enumerate(recorded.scores))
    lines.append(f"Scores: {scores}.")
    if recorded.is_draw:
        lines.append("Result: a draw.")
    else:
        lines.append(f"Result: {who(recorded.winners[0])} wins.")
    if recorded.termination.is_normal and state.is_over():
        replayed = state.outcome()
        if replayed.scores != recorded.scores or replayed.ranks != recorded.ranks:
            lines.append(
                f"Warning: replaying gives scores {list(replayed.scores)}, "
                f"not the recorded {list(recorded.scores)}."
            )
    return lines


def _forced_claim(view: dict[str, Any], move: dict[str, Any], where: str, other: str) -> str:
    """The engine's own claim of the last colour left in a Mountain, in words ('' if none)."""
    destroying = view.get("destroying")
    if not isinstance(destroying, dict) or len(view.get("players") or []) != 2:
        return ""
    mountain = dict(view["mandalas"][destroying["mandala"]]["mountain"])
    mountain.pop(move.get("colour"), None)
    left = [colour for colour, count in mountain.items() if count]
    if len(left) != 1:
        return ""
    return f"    claim{where}: {other} claims {left[0]} (the last colour: no choice)"


def _table(view: dict[str, Any], names: list[str]) -> list[str]:
    """Each seat's River and Cup size, when the game's view has them (Mandala does)."""
    lines = []
    for seat, player in enumerate(view.get("players") or []):
        if not isinstance(player, dict) or "river" not in player:
            continue
        river = ", ".join(player["river"]) or "empty"
        name = names[seat] if seat < len(names) else "?"
        lines.append(
            f"River of seat {seat} ({name}): {river}; Cup: {player.get('cup_size', '?')} cards"
        )
    return lines
