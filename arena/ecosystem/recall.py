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

Event = tuple[int, int, GameState] | GameState
"""A seat's action (the seat, the action, the position it was played in), or the position
after a whole step."""


class Recall:
    """What each seat has noticed so far, kept as the steps come and written into a seat's
    record only when that seat's record is read: a step costs one list append, not a view
    of every seat. The positions it keeps are never changed in place (stepping.py steps on
    copies), so a record read later reads the views as they were."""

    __slots__ = ("events", "texts", "lasts", "folded", "actions")

    def __init__(self, players: int) -> None:
        self.events: list[Event] = []
        """Every step since the start (or since a resample began these records)."""
        self.texts = [""] * players
        """Each seat's information-state string, up to `folded[seat]` events."""
        self.lasts: list[Mapping[str, Any]] = [{} for _ in range(players)]
        """Each seat's view when its text was last written."""
        self.folded = [0] * players
        self.actions: list[tuple[int, int]] = []
        """(seat, action) of every player action so far."""

    def copy(self) -> Recall:
        """A copy for `State.clone`: events, texts and views are never changed in place."""
        other = Recall.__new__(Recall)
        other.events, other.texts, other.lasts = self.events[:], self.texts[:], self.lasts[:]
        other.folded, other.actions = self.folded[:], self.actions[:]
        return other

    def __getstate__(self) -> tuple[Any, ...]:
        """Pickled with every record written and no positions."""
        for seat in range(len(self.texts)):
            self.text(seat)
        return ([], self.texts, self.lasts, [0] * len(self.texts), self.actions)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        self.events, self.texts, self.lasts, self.folded, self.actions = state

    def act(self, seat: int, action: int, position: GameState) -> None:
        """`seat` played `action` in `position`."""
        self.events.append((seat, action, position))
        self.actions.append((seat, action))

    def see(self, position: GameState) -> None:
        """A whole step ended in `position`."""
        self.events.append(position)

    def text(self, seat: int) -> str:
        """`seat`'s information-state string: its record, written up to now."""
        events = self.events
        if self.folded[seat] == len(events):
            return self.texts[seat]
        text, last = self.texts[seat], self.lasts[seat]
        for event in events[self.folded[seat] :]:
            if isinstance(event, tuple):
                actor, action, position = event
                if actor == seat:
                    move = compact_json.dumps(position.action_to_move(action))
                    text += f"you: {action} {move}\n"
                continue
            view = event.view(seat)
            changed = _changes(last, view)
            if changed:
                text += compact_json.dumps(changed) + "\n"
            last = view
        self.texts[seat], self.lasts[seat], self.folded[seat] = text, last, len(events)
        return text

    def restart(self, seat: int, position: GameState) -> Recall:
        """Records for a resample of `seat`'s information state at `position`: `seat`'s as
        it is; every other seat's begins again at `position` (what it holds there was
        dealt anew, so its past as it really was is not its past in the sample)."""
        other = Recall(len(self.texts))
        other.texts[seat], other.lasts[seat] = self.text(seat), self.lasts[seat]
        other.actions = self.actions[:]
        other.see(position)
        return other

    def tensor(self, seat: int, out: np.ndarray, start: int) -> None:
        """Fill `out[start:]` with the step pairs of `seat`'s record (zeros after them)."""
        pairs = out[start:].reshape(-1, 2)
        pairs.fill(0.0)
        for index, (actor, action) in enumerate(self.actions[: len(pairs)]):
            pairs[index, 0] = actor + 1
            if actor == seat:
                pairs[index, 1] = action + 1


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
