"""How a game of Flowers ends (F21-F24) and its result (F25, F26)."""

from __future__ import annotations

from arena.outcome import Outcome, Termination, competition_ranks

# Flowers' own ends (`Outcome.end`, F24), and the safety cap.
THIRD_FLOWER = "third_flower"
"""F21: a player reached 3 Flowers."""
NO_TILES = "no_tiles"
"""F22: a destruction found no tiles left to begin a new Mandala."""
STALLED = "stalled"
"""F24: no seat had a legal play (one card each, nothing left to draw)."""
TURN_LIMIT = "turn_limit"
"""F24: the safety cap on turns (an engine bug if it is ever reached)."""
ENDS = (THIRD_FLOWER, NO_TILES, STALLED)


def ranks(scores: tuple[int, ...], hands: tuple[int, ...]) -> tuple[int, ...]:
    """F26: by score, then by cards in hand (more is better); equal on both share a rank.

    Competition ranks from 0: scores 30, 30, 30, 12 with hands 4, 6, 6, 9 rank 2, 0, 0, 3.
    """
    keys = list(zip(scores, hands, strict=True))
    return competition_ranks(keys)


def outcome(scores: tuple[int, ...], hands: tuple[int, ...], end: str, turns: int) -> Outcome:
    """The result of a finished game; `hands` are the hand sizes after the final destruction."""
    placed = ranks(scores, hands)
    first = [seat for seat, rank in enumerate(placed) if rank == 0]
    best = max(scores)
    return Outcome(
        scores=scores,
        ranks=placed,
        termination=Termination.TURN_LIMIT if end == TURN_LIMIT else Termination.NORMAL,
        end=None if end == TURN_LIMIT else end,
        reason=_REASONS[end].format(turns=turns),
        details={
            "hand_sizes": list(hands),
            "tie_break": sum(score == best for score in scores) > len(first),
        },
    )


_REASONS = {
    THIRD_FLOWER: "A player made their third Flower; the other Mandalas were destroyed "
    "(turn {turns}, F21, F23).",
    NO_TILES: "No flower tiles were left to begin a new Mandala; the other Mandalas were "
    "destroyed (turn {turns}, F22, F23).",
    STALLED: "No seat could play (one card each and nothing to draw); every Mandala was "
    "destroyed (turn {turns}, F24).",
    TURN_LIMIT: "The game reached the turn limit of {turns} turns and was scored as it "
    "stood (F24).",
}
