"""How a game of Mandala ends (R3, R9, R12, R15, R16) and its result (R13)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from arena.outcome import Outcome, Termination

if TYPE_CHECKING:
    from arena.games.mandala.state import MandalaState

# Mandala's own ends (`Outcome.end`), and the turn limit (R12).
DECK_EXHAUSTED = "deck_exhausted"
"""R3, R9a: the deck ran out, then a Mandala was destroyed."""
SIXTH_RIVER_COLOUR = "sixth_river_colour"
"""R9b: a player added a sixth colour to their River."""
STALLED = "stalled"
"""R15, R16 (arena/games/mandala/RULINGS.md): no card in play can ever enter a Mandala."""
TURN_LIMIT = "turn_limit"
ENDS = (DECK_EXHAUSTED, SIXTH_RIVER_COLOUR, STALLED)


def stalled(state: MandalaState) -> bool:
    """R15, R16: no card in play can ever enter a Mandala, so neither can complete.

    A card in play is in a hand, the deck or the discard pile. It can enter a Mountain
    unless a Field of each Mandala holds its colour (the Rule of Color), and a Field of a
    seat holding two cards or more unless each Mandala's Mountain or other Field holds it
    (R5 keeps one card in hand). Discard & Redraw keeps those cards in play and the hand
    sizes as they are, and a pass draws nothing (R11): what holds now holds for ever."""
    sizes = state.hand_sizes
    if not (sizes[0] or sizes[1]):
        return True  # R15
    hand0, hand1 = state.hands
    (f00, f01), (f10, f11) = state.fields
    m0, m1 = state.mountains
    discard, deck = state.discard, state.deck
    grow0, grow1 = sizes[0] > 1, sizes[1] > 1
    for c in range(6):
        playable = (
            not ((f00[c] or f01[c]) and (f10[c] or f11[c]))  # some Mountain takes c
            or (grow0 and not ((m0[c] or f01[c]) and (m1[c] or f11[c])))  # seat 0's Field
            or (grow1 and not ((m0[c] or f00[c]) and (m1[c] or f10[c])))  # seat 1's Field
        )
        if playable and (hand0[c] or hand1[c] or discard[c] or c in deck):
            return False  # c is in play and some seat can play it
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
    STALLED: "No card left in play can enter a Mandala, so neither can complete; scored as it "
    "stands (turn {turns}, R15, R16).",
    TURN_LIMIT: "The game reached the turn limit of {turns} turns (R12).",
}
