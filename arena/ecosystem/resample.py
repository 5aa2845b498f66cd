"""`resample_from_infostate` for the OpenSpiel games: what a seat has not seen, dealt once.

At a whole step (every decision: what OpenSpiel's ISMCTS resamples) the game's own
`ChanceRules.redeal` takes everything the seat has not seen where it is now (another
hand, a setup Cup, the decks, another seat's drawn plots...) and deals it again at random
into the same places, keeping every size: each deal that shows the seat what it saw is
equally likely (items of a kind are alike to the chance model; the other seats' choices,
which may depend on what they hold, are not weighed, as in determinized search). Nothing
is replayed, so it costs the same at every point of a game.

The sample promises `seat`'s information state: its string is the real state's
(test_openspiel_resample.py checks it at every table size). The other seats' records
begin again at the sample (what they hold was dealt anew), and the sample's `history()`
stays the real one (the actions, and the outcomes as they really fell): it is a state to
search from, not a record; serialize the real state.

Inside a step (a chance node of a move or of the deal), the step is run again on a
redeal of the position before it: the outcomes `seat` saw are kept, the others drawn again
from their chance nodes. A redeal that cannot give the move under way (seen by every
seat) or a kept outcome is dealt again, at most `ATTEMPTS` times (bounded by the step,
never by the game's length); after that the position before the step is kept as it is
and only the step's outcomes `seat` did not see are drawn again. (OpenSpiel's ISMCTS
resamples at decisions only.)
"""

from __future__ import annotations

import random

import pyspiel

from arena.ecosystem.stepping import Play
from arena.games.chance import ChanceNode

ATTEMPTS = 100
"""Redeals tried inside a step before giving up."""


class _Impossible(Exception):
    """A kept outcome has no chance in this redeal."""


def resample(play: Play, seat: int, rng: random.Random) -> Play:
    """A play `seat` cannot tell from `play`, as the module says."""
    if play.node is None:  # a whole step: the common case
        return _at(play, play.rules.redeal(play.position, seat, rng), seat)
    for attempt in range(ATTEMPTS + 1):
        try:
            return _inside_step(play, seat, rng, redeal=attempt < ATTEMPTS)
        except _Impossible:
            continue
    raise pyspiel.SpielError(f"No resample for seat {seat} kept the step under way.")


def _at(play: Play, position: object, seat: int) -> Play:
    """`play` moved to `position` (a whole step), `seat`'s record kept."""
    other = play.copy()
    other.position = position  # type: ignore[assignment]
    other.recall = play.recall.restart(seat, other.position)
    other.settle()
    return other


def _inside_step(play: Play, seat: int, rng: random.Random, redeal: bool) -> Play:
    """The step under way run again from a redeal of the position before it (or, without
    `redeal`, from that position itself)."""
    if play.in_deal():  # from the root: the deal's outcomes so far
        outcomes = [*play.dealing, *zip(play.drawn, play.nodes, strict=True)]
        other = Play(play.game, play.rules, play.config, play.players)
    else:
        outcomes = list(zip(play.drawn, play.nodes, strict=True))
        before, move = play.before(), play.pending
        assert move is not None
        position = play.rules.redeal(before, seat, rng) if redeal else before
        if move not in position.legal_actions() or (
            position.action_to_move(move) != before.action_to_move(move)
        ):
            raise _Impossible  # the move under way, seen by all, is not that one here
        other = _at(play, position, seat)
        other.drawn, other.nodes, other.node = [], [], None
        other.start_move()
    for real, node in outcomes:
        now = other.node
        if now is None or now.what != node.what:
            raise _Impossible
        if not node.sees(seat):
            real = _draw(now, rng)
        elif real not in dict(now.outcomes):
            raise _Impossible
        other.apply(real)
    if other.node is None:  # the step ended before the real one's last outcome
        raise _Impossible
    return other


def _draw(node: ChanceNode, rng: random.Random) -> int:
    """An outcome of `node` by its probabilities."""
    outcomes = [outcome for outcome, _ in node.outcomes]
    return rng.choices(outcomes, node.counts)[0]
