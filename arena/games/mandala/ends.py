"""How a game of Mandala ends (R3, R9, R12, R15, R16) and its result (R13)."""

from __future__ import annotations

from arena.outcome import Outcome, Termination

# Mandala's own ends (`Outcome.end`), and the turn limit (R12).
DECK_EXHAUSTED = "deck_exhausted"
"""R3, R9a: the deck ran out, then a Mandala was destroyed."""
SIXTH_RIVER_COLOUR = "sixth_river_colour"
"""R9b: a player added a sixth colour to their River."""
STALLED = "stalled"
"""R15, R16 (arena/games/mandala/RULINGS.md): no card in play can ever enter a Mandala."""
TURN_LIMIT = "turn_limit"
ENDS = (DECK_EXHAUSTED, SIXTH_RIVER_COLOUR, STALLED)


def outcome(scores: tuple[int, ...], cups: tuple[int, int], end: str, turns: int) -> Outcome:
    """The result: R13, the higher score wins; on equal scores fewer Cup cards; else a draw."""
    key0, key1 = (scores[0], -cups[0]), (scores[1], -cups[1])
    ranks = (0, 0) if key0 == key1 else ((0, 1) if key0 > key1 else (1, 0))
    return Outcome(
        scores=scores,
        ranks=ranks,
        termination=Termination.TURN_LIMIT if end == TURN_LIMIT else Termination.NORMAL,
        end=None if end == TURN_LIMIT else end,
        reason=_REASONS[end].format(turns=turns),
        details={
            "cup_sizes": list(cups),
            "tie_break": scores[0] == scores[1] and cups[0] != cups[1],
        },
    )


_REASONS = {
    DECK_EXHAUSTED: "The deck ran out and the next Mandala was destroyed (turn {turns}).",
    SIXTH_RIVER_COLOUR: "A player added a 6th colour to their River (turn {turns}).",
    STALLED: "No card left in play can enter a Mandala, so neither can complete; scored as it "
    "stands (turn {turns}, R15, R16).",
    TURN_LIMIT: "The game reached the turn limit of {turns} turns (R12).",
}
