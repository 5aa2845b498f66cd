"""Perfect recall for the OpenSpiel games: each seat's own actions and all it observed, in order.

The arena's view is what a seat may know now (the rules let a player forget the order of
past moves), so it is the OpenSpiel *observation*. The *information state* is the seat's
whole record, as OpenSpiel defines it:

- its string is one line per step of the game that the seat noticed: `you: CODE MOVE`
  when it acted, then the part of its view that the step changed, as compact JSON (the
  keys whose values changed, and within them what changed, a list's places as "#index";
  the first line is the whole view after the deal). A step that changed nothing this seat sees (another seat's draw it cannot
  see...) adds no line. The whole sequence of views can be rebuilt from it, so two
  histories with one string have given this seat the same views and the same actions in
  the same order (perfect recall: each earlier information state is a prefix);
- its tensor is the seat's current view in numbers (the observation tensor) followed by
  one pair of numbers per step of the game, up to the game's longest: who acted (seat + 1)
  and, when this seat acted, its action code + 1 (0 for another seat's action, whose
  effect the view shows). It is fixed-length, as OpenSpiel's tensors are, so mostly zeros
  and coarser than the string: a deliberate choice (README, "Use the games elsewhere");
  the string is the exact record (CFR-family algorithms key on it), the observation
  tensor the compact one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from arena import compact_json
from arena.games import GameState
from arena.games.chance import Draws, drawing

Step = tuple[int, int, tuple[int, ...]]
"""A player's move as a whole step: the seat, its action, the chance outcomes it drew."""

FOLLOW = 1
"""Positions are kept (the next move runs on a copy) while a record was read this many
steps ago or less: a search reading records at every node of its tree reads them from
kept positions; a stretch nobody reads (a random game, a rollout) runs in place."""
CHECKPOINT = 32
"""One position in this many steps is kept whatever is read: a record read after a stretch
run in place replays at most this many steps."""


class Recall:
    """What each seat has noticed so far, kept as the steps come and written into a seat's
    record only when that seat's record is read: a step costs two list appends, not a view
    of every seat. A step's position is kept (never changed afterwards) while the records
    are being read, and one in `CHECKPOINT`; a record read after a stretch whose positions
    were not kept plays that stretch again from the last kept position (`position_after`)."""

    __slots__ = ("steps", "kept", "texts", "lasts", "folded", "actions", "pending", "read_at")

    def __init__(self, players: int) -> None:
        self.steps: list[Step | None] = []
        """Every whole step since the start (None: a start, the deal's end or a resample's
        position, whose position is always kept)."""
        self.kept: list[GameState | None] = []
        """The position after each step, where kept."""
        self.texts = [""] * players
        """Each seat's information-state string, up to `folded[seat]` steps."""
        self.lasts: list[Mapping[str, Any]] = [{} for _ in range(players)]
        """Each seat's view when its text was last written."""
        self.folded = [0] * players
        self.actions: list[tuple[int, int]] = []
        """(seat, action) of every player action so far."""
        self.pending: tuple[int, int] | None = None
        """The move under way: (seat, action)."""
        self.read_at = -FOLLOW - 1
        """How many steps there were when a record was last read."""

    def copy(self) -> Recall:
        """A copy for `State.clone`: steps, texts, views and kept positions are never changed
        in place."""
        other = Recall.__new__(Recall)
        other.steps, other.kept = self.steps[:], self.kept[:]
        other.texts, other.lasts, other.folded = self.texts[:], self.lasts[:], self.folded[:]
        other.actions, other.pending, other.read_at = self.actions[:], self.pending, self.read_at
        return other

    def start(self, position: GameState) -> None:
        """The records go on from `position` (after the deal): kept, never changed."""
        self.steps.append(None)
        self.kept.append(position)

    def act(self, seat: int, action: int) -> None:
        """`seat` plays `action`: the move under way."""
        self.pending = (seat, action)
        self.actions.append((seat, action))

    def done(self, drawn: list[int], position: GameState) -> None:
        """The move under way ended in `position` after drawing `drawn`."""
        assert self.pending is not None
        seat, action = self.pending
        self.steps.append((seat, action, tuple(drawn)))
        self.kept.append(position)
        self.pending = None

    def release(self, position: GameState) -> bool:
        """May the next move change `position` (the last step's) in place? Yes unless it is
        kept: a start's, a checkpoint's, or one the records may read soon."""
        kept = self.kept
        if kept[-1] is not position:
            return True  # the records keep a copy of their own, or none
        count = len(kept)
        if self.steps[-1] is None or count % CHECKPOINT == 0 or count - self.read_at <= FOLLOW:
            return False
        kept[-1] = None
        return True

    def position_after(self, index: int) -> GameState:
        """The position after step `index`, the records' own (a copy, or kept)."""
        kept = self.kept
        start = index
        while kept[start] is None:
            start -= 1
        position = kept[start]
        assert position is not None
        if start == index:
            return position
        position = position.copy()
        for step in self.steps[start + 1 : index + 1]:
            _replay(position, step)
        kept[index] = position  # for the next reader of this step
        return position

    def text(self, seat: int) -> str:
        """`seat`'s information-state string: its record, written up to now."""
        text = self.written(seat)
        pending = self.pending
        if pending is not None and pending[0] == seat:
            text += _you(pending[1], self.position_after(len(self.steps) - 1))
        return text

    def written(self, seat: int) -> str:
        """`seat`'s record of the whole steps (without the move under way)."""
        steps, kept = self.steps, self.kept
        count = len(steps)
        folded = self.folded[seat]
        text = self.texts[seat]
        if folded < count:
            self.read_at = count
            last = self.lasts[seat]
            before: GameState | None = kept[folded - 1] if folded else None
            for index in range(folded, count):
                step = steps[index]
                after = kept[index]
                if step is not None:
                    if before is None:
                        before = self.position_after(index - 1)
                    if step[0] == seat:
                        text += _you(step[1], before)
                    if after is None:  # replayed on a copy of its own
                        after = before if before is not kept[index - 1] else before.copy()
                        _replay(after, step)
                        kept[index] = after if index == count - 1 else None
                assert after is not None
                view = after.view(seat)
                changed = _changes(last, view)
                if changed:
                    text += compact_json.dumps(changed) + "\n"
                last, before = view, after
            self.texts[seat], self.lasts[seat], self.folded[seat] = text, last, count
        return text

    def restart(self, seat: int, position: GameState) -> Recall:
        """Records for a resample of `seat`'s information state at `position`: `seat`'s as
        it is; every other seat's begins again at `position` (what it holds there was
        dealt anew, so its past as it really was is not its past in the sample)."""
        other = Recall(len(self.texts))
        other.texts[seat], other.lasts[seat] = self.written(seat), self.lasts[seat]
        other.actions, other.pending = self.actions[:], self.pending
        other.read_at = self.read_at
        other.start(position)
        other.folded[seat] = 1
        return other

    def compact(self, position: GameState) -> Recall:
        """These records with every seat's written and no past positions: they go on from
        `position` (the one after the last step), for pickling."""
        for seat in range(len(self.texts)):
            self.written(seat)
        other = self.copy()
        other.steps, other.kept = [None], [position]
        other.folded = [1] * len(self.texts)
        other.read_at = -FOLLOW - 1
        return other

    def tensor(self, seat: int, out: np.ndarray, start: int) -> None:
        """Fill `out[start:]` with the step pairs of `seat`'s record (zeros after them)."""
        pairs = out[start:].reshape(-1, 2)
        pairs.fill(0.0)
        for index, (actor, action) in enumerate(self.actions[: len(pairs)]):
            pairs[index, 0] = actor + 1
            if actor == seat:
                pairs[index, 1] = action + 1


def _you(action: int, before: GameState) -> str:
    return f"you: {action} {compact_json.dumps(before.action_to_move(action))}\n"


def _replay(position: GameState, step: Step | None) -> None:
    """Play a whole step again on `position` with the outcomes it drew."""
    assert step is not None
    with drawing(Draws(list(step[2]))):
        position.apply_action(step[1])


def _changes(old: Any, new: Any) -> Any:
    """What changed from `old` to `new` (JSON): the new value, or for two dicts the keys
    whose values changed, for two lists of one length the places that changed ("#index"),
    each as its own changes; None when nothing did."""
    if old == new:
        return None
    if isinstance(old, dict) and isinstance(new, dict) and old.keys() == new.keys():
        return {key: _changes(old[key], value) for key, value in new.items() if old[key] != value}
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new) and new:
        return {
            f"#{i}": _changes(a, b) for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b
        }
    return new
