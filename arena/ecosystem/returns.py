"""What a finished game is worth to each seat, for learners: one rule for OpenSpiel and PettingZoo."""

from __future__ import annotations

from collections.abc import Sequence


def rank_returns(ranks: Sequence[int]) -> list[float]:
    """Each seat's return from the final ranks (0 is first; equal ranks share a place):
    the seats it beat minus the seats that beat it, over the number of other seats.

    In [-1, 1] and summing to 0 (a zero-sum game at every table size): with 2 seats a win
    is 1, a loss -1 and a draw 0; with 4 seats the ranks 0, 1, 2, 3 give 1, 1/3, -1/3, -1.
    Scores decide ranks by each game's own rules (and tie-breaks); a margin is not rewarded.
    """
    others = len(ranks) - 1
    if others < 1:
        return [0.0] * len(ranks)
    return [
        (sum(r > mine for r in ranks) - sum(r < mine for r in ranks)) / others for mine in ranks
    ]
