"""The end of a Takenoko game and its result (TAKENOKO.md §7, §8, T13, T14): each seat's
points, the tie-break on panda cards, and the `Outcome`."""

from __future__ import annotations

from typing import Any, Final

from arena.errors import GameError
from arena.games.takenoko.cards import OBJECTIVES, deck_of
from arena.games.takenoko.components import BABY_POINTS, EMPEROR_POINTS
from arena.games.takenoko.position import Position
from arena.outcome import Outcome, Termination, competition_ranks

END_ALL: Final = "all_objectives"
"""The game's normal end (§7): the last turns after the Emperor were played."""
TURN_LIMIT: Final = "turn_limit"
"""The end at the round cap (T14)."""
CHIBIS_NOTE: Final = (
    "Chibis mechanics with the 45 base objectives: the expansion's 18 objective cards are "
    "not public (docs/rules/takenoko.md, T20)."
)


def score(state: Position, seat: int) -> int:
    """§7: completed cards, the Emperor, and 2 for each baby panda (§8)."""
    points = sum(int(OBJECTIVES[card].points) for card in state.done[seat])
    points += BABY_POINTS * len(state.babies[seat])
    return points + (EMPEROR_POINTS if state.emperor == seat else 0)


def panda_points(state: Position, seat: int) -> int:
    """§7's tie-break: the points of the seat's completed panda cards."""
    return sum(int(OBJECTIVES[c].points) for c in state.done[seat] if deck_of(c) == "panda")


def outcome(state: Position) -> Outcome:
    """§7: higher score first; on a tie, more panda points; still tied, a shared place."""
    if not state.over or state.end is None:
        raise GameError("The game is not over yet, so it has no result.")
    keys = [(score(state, s), panda_points(state, s)) for s in range(state.num_players)]
    ranks = competition_ranks(keys)
    limited = state.end == TURN_LIMIT
    reason = (
        f"The game reached the cap of {state.max_rounds} rounds (T14)."
        if limited
        else f"Seat {state.emperor} took the Emperor; every other seat played its last "
        f"turn (turn {state.turns})."
    )
    details: dict[str, Any] = {"panda_points": [key[1] for key in keys]}
    details["emperor"] = state.emperor
    if state.chibis:
        details["babies"] = [len(babies) for babies in state.babies]
        details["note"] = CHIBIS_NOTE
    return Outcome(
        scores=tuple(key[0] for key in keys),
        ranks=ranks,
        termination=Termination.TURN_LIMIT if limited else Termination.NORMAL,
        end=None if limited else state.end,
        reason=reason,
        details=details,
    )
