"""A game's coding for learners, behind the game interface (`Game.learning`).

The ecosystem (arena/ecosystem: OpenSpiel games, PettingZoo environments, the policy bot)
knows a game only through this: a fixed action space, a seat's view as a fixed-length
vector of numbers, and where chance deals (`chance`, for OpenSpiel's chance nodes). Each
game keeps its own coding next to its rules (arena/games/<game>/learning.py).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arena.games.chance import ChanceRules

View = Mapping[str, Any]


class Learning(ABC):
    """One game's coding: `num_actions` codes, `encode` a view as numbers."""

    num_actions: int
    """The size of the action space: every action code of the game lies below it."""

    @abstractmethod
    def encode(self, view: View, players: int) -> list[float]:
        """The view as numbers, the same length for every view at `players` seats."""

    @abstractmethod
    def max_length(self, config: Mapping[str, Any], players: int) -> int:
        """A bound on the decisions of one game with `config` at `players` seats."""

    def chance(self) -> ChanceRules | None:
        """Where the game deals and draws, as explicit chance (None: not provided)."""
        return None


class Vector:
    """Numbers appended in a fixed order: counts as they are, a choice one-hot (all zeros
    for "none"), a set of named things one slot per name, an ordered list each name's place."""

    def __init__(self) -> None:
        self.out: list[float] = []

    def num(self, *values: float | bool | None) -> None:
        self.out += [float(v or 0) for v in values]

    def one_hot(self, value: Any, choices: Sequence[Any]) -> None:
        self.out += [1.0 if value == c else 0.0 for c in choices]

    def pile(self, pile: Mapping[str, int], names: Sequence[str]) -> None:
        self.out += [float(pile[n]) for n in names]

    def counts(self, items: Iterable[str], names: Sequence[str]) -> None:
        slots = dict.fromkeys(names, 0.0)
        for item in items:
            slots[item] += 1.0
        self.out += slots.values()

    def places(self, items: Sequence[str], names: Sequence[str]) -> None:
        slots = dict.fromkeys(names, 0.0)
        for place, item in enumerate(items, 1):
            slots[item] = float(place)
        self.out += slots.values()
