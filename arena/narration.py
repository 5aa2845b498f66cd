"""A game record told in words (`arena replay`): the walk of arena/record.py, each step put
into words by the game's own hooks (`Game.narrate_step`, `narrate_after`, `narrate_end`).

It sits above the records, so the games (rules only) know nothing of the record format.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.errors import GameError
from arena.games.base import Game, Move
from arena.outcome import Outcome
from arena.record import start, walk

__all__ = ["narrate"]


def narrate(game: Game, record: Mapping[str, Any]) -> list[str]:
    """The lines of a readable account of `record`; GameError when it does not replay."""
    try:
        names = [str(name) for name in record["players"]]
        recorded = Outcome.from_json(record["outcome"])
    except (KeyError, TypeError, ValueError) as error:
        raise GameError(f"This is not a game record (missing or wrong {error}).") from None

    def who(seat: int) -> str:
        return f"seat {seat} ({names[seat]})" if seat < len(names) else f"seat {seat}"

    lines = [
        f"Game {record.get('game_id', '?')}: {record['game']}, seed {record['seed']}, "
        f"{' vs '.join(names)}"
    ]
    state = start(record)
    after: tuple[Move, int] | None = None
    told_scores = state.scores()
    for step in walk(record, state):
        if after is not None:
            lines += game.narrate_after(state, *after, who)
            told_scores = _score_line(lines, told_scores, state.scores())
        think = step.entry.get("think_ms")
        timing = f"  [{think:.1f} ms]" if isinstance(think, int | float) else ""
        told = game.narrate_step(state, step.decision, step.move, who)
        lines += [told[0] + timing, *told[1:]]
        after = (step.move, state.turn)
    if after is not None:
        lines += game.narrate_after(state, *after, who)
        _score_line(lines, told_scores, state.scores())
    lines.append("")
    lines += game.narrate_end(state, names)
    ending = recorded.end or recorded.termination.value
    lines.append(f"End: {ending}. {recorded.reason}")
    scores = ", ".join(f"{who(s)} {score}" for s, score in enumerate(recorded.scores))
    lines.append(f"Scores: {scores}.")
    if recorded.is_draw:
        lines.append("Result: a draw.")
    elif len(recorded.winners) == 1:
        lines.append(f"Result: {who(recorded.winners[0])} wins.")
    else:
        lines.append(f"Result: {' and '.join(map(who, recorded.winners))} share first place.")
    if recorded.termination.is_normal and state.is_over():
        replayed = state.outcome()
        if replayed.scores != recorded.scores or replayed.ranks != recorded.ranks:
            lines.append(
                f"Warning: replaying gives scores {list(replayed.scores)}, "
                f"not the recorded {list(recorded.scores)}."
            )
    return lines


def _score_line(lines: list[str], before: tuple[int, ...], now: tuple[int, ...]) -> tuple[int, ...]:
    """Add a line with the scores when a move changed them; the scores now."""
    if now != before:
        lines.append("          scores now: " + " / ".join(map(str, now)))
    return now
