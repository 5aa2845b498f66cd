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
  effect the view shows). It is fixed-length, as OpenSpiel's tensors are; the string is
  the exact record (CFR-family algorithms key on it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from arena import compact_json


class Recall:
    """What each seat has noticed so far; strings only, so that a copy is cheap."""

    def __init__(self, players: int) -> None:
        self.text = [""] * players
        """Each seat's information-state string."""
        self.last: list[Mapping[str, Any]] = [{} for _ in range(players)]
        """Each seat's last view."""
        self.steps: list[tuple[int, int]] = []
        """(seat, action) of every player action so far."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Recall:
        """A copy for `State.clone`: the texts and views are never changed in place."""
        other = Recall.__new__(Recall)
        other.text, other.last, other.steps = self.text[:], self.last[:], self.steps[:]
        return other

    def act(self, seat: int, action: int, move: str) -> None:
        """`seat` played `action` (shown as `move`)."""
        self.text[seat] += f"you: {action} {move}\n"
        self.steps.append((seat, action))

    def see(self, views: list[Mapping[str, Any]]) -> None:
        """Each seat's view after a step: the keys that changed join its record."""
        for seat, view in enumerate(views):
            changed = _changes(self.last[seat], view)
            if changed:
                self.text[seat] += compact_json.dumps(changed) + "\n"
            self.last[seat] = view

    def tensor(self, seat: int, out: np.ndarray, start: int) -> None:
        """Fill `out[start:]` with the step pairs of `seat`'s record (zeros after them)."""
        pairs = out[start:].reshape(-1, 2)
        pairs.fill(0.0)
        for index, (actor, action) in enumerate(self.steps[: len(pairs)]):
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
