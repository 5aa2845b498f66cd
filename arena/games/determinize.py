"""The shape every game's determinizer shares, written once (`Sampler`).

A search bot sees only its seat's view; to simulate it needs a whole state. Every game
samples one in the same four steps:

1. `fresh`: a new state of the game's configuration, its seed drawn from the sampling RNG
   (so a search never learns a real future shuffle);
2. `show`: everything the view shows, set in that state; it returns what the seat has not
   seen (the game's own shape: colour counts, card lists), or raises ValueError with one
   sentence when the view does not add up;
3. `deal`: the unseen dealt at random, keeping every size the view shows;
4. `settle`: the decision under way and the end, which the dealt state may decide.

`redeal` (far cheaper, on a copy) pools what the seat has not seen (`pool`) and deals it
again with step 3, so the seat's view does not change.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Mapping
from typing import Any, Generic, TypeVar

from arena.games.base import Determinizer, GameState, View

S = TypeVar("S", bound=GameState)
"""The game's state."""
H = TypeVar("H")
"""What a seat has not seen, in the game's own shape."""


class Sampler(Determinizer, Generic[S, H]):
    """A determinizer in the shared four steps; a game fills in each step."""

    state_type: type[S]
    """The game's state class (`redeal` takes only states of it)."""

    def determinize(self, view: View, rng: random.Random, config: Mapping[str, Any]) -> S:
        seat = int(view["seat"])
        state = self.fresh(view, rng.getrandbits(62), config)
        unseen = self.show(state, view)
        self.deal(state, seat, unseen, rng)
        self.settle(state, view)
        return state

    def redeal(self, state: GameState, seat: int, rng: random.Random) -> None:
        if not isinstance(state, self.state_type):
            raise TypeError(f"{type(self).__name__} redeals {self.state_type.__name__}s only.")
        self.deal(state, seat, self.pool(state, seat), rng)

    @abstractmethod
    def fresh(self, view: View, seed: int, config: Mapping[str, Any]) -> S:
        """A new state of the configuration `config` (and the view's), dealt from `seed`."""

    @abstractmethod
    def show(self, state: S, view: View) -> H:
        """Set what `view` shows in `state`; what its seat has not seen. ValueError when the
        view does not add up."""

    @abstractmethod
    def deal(self, state: S, seat: int, unseen: H, rng: random.Random) -> None:
        """Deal `unseen` at random where `seat` cannot see, keeping every size."""

    def settle(self, state: S, view: View) -> None:
        """Set the decision under way and the end from `view` (none to set here)."""

    @abstractmethod
    def pool(self, state: S, seat: int) -> H:
        """Take back, from `state`, everything `seat` cannot see, ready to be dealt again."""
