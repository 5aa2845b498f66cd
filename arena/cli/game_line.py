"""One game in one line, as `arena play` prints each game (with or without a human seat)."""

from __future__ import annotations

from arena.referee import GameReport


def game_line(index: int, report: GameReport) -> str:
    """One game in one line: who sat where, the scores, how it ended."""
    outcome = report.outcome
    names = report.players
    result = "draw" if outcome.is_draw else f"{names[outcome.winners[0]]} wins"
    if len(outcome.winners) > 1 and not outcome.is_draw:
        result = " and ".join(names[seat] for seat in outcome.winners) + " share first"
    if len(names) == 2:
        table = f"{names[0]} {outcome.scores[0]} - {outcome.scores[1]} {names[1]}"
    else:
        table = ", ".join(
            f"{name} {score}" for name, score in zip(names, outcome.scores, strict=True)
        )
    ending = outcome.end or outcome.termination.value
    line = f"game {index + 1:>3} (seed {report.spec.seed}): {table}  {result}, {ending}"
    if outcome.faulty_seat is not None:
        line += f"\n    {outcome.reason}"
    return line
