"""How a game of Mandala ends (R3, R9, R12, R15-R17) and its result (R13)."""

from __future__ import annotations

from arena.games.mandala.position import Position
from arena.outcome import Outcome, Termination

# Mandala's own ends (`Outcome.end`), and the turn limit (R12).
DECK_EXHAUSTED = "deck_exhausted"
"""R3, R9a: the deck ran out, then a Mandala was destroyed."""
SIXTH_RIVER_COLOUR = "sixth_river_colour"
"""R9b: a player added a sixth colour to their River."""
STALLED = "stalled"
"""R15, R16 (arena/games/mandala/RULINGS.md): neither Mandala can ever complete."""
TURN_LIMIT = "turn_limit"
ENDS = (DECK_EXHAUSTED, SIXTH_RIVER_COLOUR, STALLED)
_SIX = range(6)


def stalled(state: Position) -> bool:
    """R15, R16: neither Mandala can ever complete, so nothing can change the score.

    R15: both hands are empty, so no one can play again. R16: each Mandala lacks a colour
    of which no card is in play (in a hand, the deck or the discard pile). A card enters a
    Mandala only from a hand, and only a Mandala's destruction brings cards back into play,
    so neither Mandala can be the first to complete."""
    sizes = state.hand_sizes
    if not (sizes[0] or sizes[1]):
        return True  # R15
    hand0, hand1 = state.hands
    discard, deck = state.discard, state.deck
    gone = [c for c in _SIX if not (hand0[c] or hand1[c] or discard[c]) and c not in deck]
    if not gone:
        return False  # a card of every colour is in play: the usual case
    fields = state.fields
    for m, mountain in enumerate(state.mountains):
        field0, field1 = fields[m]
        if all(mountain[c] or field0[c] or field1[c] for c in gone):
            return False  # every colour this Mandala lacks can still enter it
    return True


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
    STALLED: "Neither Mandala can ever complete, so the score cannot change; scored as it "
    "stands (turn {turns}, R15, R16).",
    TURN_LIMIT: "The game reached the turn limit of {turns} turns (R12).",
}
