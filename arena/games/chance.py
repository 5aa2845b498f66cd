"""Chance as the physical game has it, for games played as OpenSpiel games (explicit chance).

The arena deals a whole game from a seed: every shuffle is fixed when the game starts.
A player of the physical game knows no such thing: a card is random when it is drawn,
among the cards still in the deck. This module lets an engine draw that way, outcome by
outcome, with nothing decided before it is drawn:

- a step of the engine (the deal, or a move) runs inside `drawing(draws)`; every random
  thing it does asks `pick` (a `Pile`'s `pop`, `arrange_top`, `uniform`), which takes the
  next outcome from `draws`, or, when there is none left, stops the step with `NeedChance`
  naming the chance node: what is drawn, the outcomes (each item still possible, with
  its probability by count) and who sees it;
- the caller (arena/ecosystem/openspiel_games.py) asks the chance player for that outcome
  and runs the step again from its start with one more outcome.

The games say where they draw in arena/games/<game>/chance.py (an engine subclass whose
piles draw through `pick`); the arena's own engines and seeds are untouched.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, SupportsIndex, TypeVar

from arena.games.states import GameState

T = TypeVar("T")


@dataclass(frozen=True)
class ChanceNode:
    """One random event: what is drawn, its outcomes with their probabilities, and the seats
    that see the outcome (None: every seat)."""

    what: str
    outcomes: tuple[tuple[int, float], ...]
    audience: frozenset[int] | None
    counts: tuple[int, ...]
    """How many items give each outcome (the probabilities' numerators)."""
    pile: int = 0
    """Which pile of that name (a deck made again from the discard pile is a new one)."""

    def sees(self, seat: int) -> bool:
        return self.audience is None or seat in self.audience


class NeedChance(Exception):
    """The step needs one more chance outcome: `node`'s."""

    def __init__(self, node: ChanceNode) -> None:
        super().__init__(node.what)
        self.node = node


class Draws:
    """The chance outcomes a step uses, in order, and the nodes they answered."""

    def __init__(self, outcomes: Sequence[int] = ()) -> None:
        self.outcomes = list(outcomes)
        self.nodes: list[ChanceNode] = []
        self.forced: list[tuple[int, ChanceNode]] = []
        """The draws with one possible outcome (no chance node), each after how many nodes."""

    def pick(self, what: str, weights: Mapping[int, int], pile: int = 0) -> int:
        """The next outcome among `weights` (outcome -> how many items give it). A single
        possible outcome is no chance node: it is taken without asking."""
        if len(weights) == 1:
            only, count = next(iter(weights.items()))
            node = ChanceNode(what, ((only, 1.0),), _AUDIENCE.get(), (count,), pile)
            self.forced.append((len(self.nodes), node))
            return only
        total = sum(weights.values())
        order = sorted(weights)
        node = ChanceNode(
            what,
            tuple((o, weights[o] / total) for o in order),
            _AUDIENCE.get(),
            tuple(weights[o] for o in order),
            pile,
        )
        used = len(self.nodes)
        if used == len(self.outcomes):
            raise NeedChance(node)
        outcome = self.outcomes[used]
        if outcome not in weights:
            raise ValueError(f"{outcome} is not a possible outcome of this draw ({what}).")
        self.nodes.append(node)
        return outcome


_DRAWS: ContextVar[Draws | None] = ContextVar("draws", default=None)
_AUDIENCE: ContextVar[frozenset[int] | None] = ContextVar("audience", default=None)


@contextmanager
def drawing(draws: Draws) -> Iterator[Draws]:
    """Run a step of the engine with `draws` as its chance."""
    token = _DRAWS.set(draws)
    try:
        yield draws
    finally:
        _DRAWS.reset(token)


@contextmanager
def seen_by(seats: Collection[int] | None) -> Iterator[None]:
    """The draws inside are seen by `seats` only (None: by every seat, face up)."""
    token = _AUDIENCE.set(None if seats is None else frozenset(seats))
    try:
        yield
    finally:
        _AUDIENCE.reset(token)


def pick(what: str, weights: Mapping[int, int], pile: int = 0) -> int:
    """The outcome of a draw, from the step's `Draws`."""
    draws = _DRAWS.get()
    if draws is None:
        raise RuntimeError("A chance engine drew outside `drawing`: its step has no chance.")
    return draws.pick(what, weights, pile)


def uniform(what: str, n: int) -> int:
    """A number below `n`, each equally likely (a die, a random choice among `n`)."""
    return pick(what, dict.fromkeys(range(n), 1))


class Pile(list[int]):
    """A face-down pile whose top is its end: `pop()` draws a random item among those in it
    (the pile's order means nothing, it is drawn as it goes)."""

    __slots__ = ("what", "number")

    def __init__(self, items: Sequence[int] = (), what: str = "card", number: int = 0) -> None:
        super().__init__(sorted(items))
        self.what = what
        self.number = number
        """Which pile of this name: one more for each deck made again from a discard pile."""

    def pop(self, index: SupportsIndex = -1) -> int:
        if int(index) != -1 or not self:
            return super().pop(index)
        item = pick(self.what, Counter(self), self.number)
        self.remove(item)
        return item

    def again(self, items: Sequence[int]) -> Pile:
        """The next pile of this name, holding `items` (a reshuffled discard pile)."""
        return Pile(items, self.what, self.number + 1)

    def copy(self) -> Pile:
        return Pile(self, self.what, self.number)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Pile, (list(self), self.what, self.number))


def arrange_top(pile: list[T], count: int, fixed: int, what: str, items: Sequence[T]) -> None:
    """Draw the top `count` items of `pile` (top first, at index 0) before the engine takes
    them: each is random among the pile's first `len(pile) - fixed` (the last `fixed` were
    put under in a known order); `items` numbers every item (the outcome is its index)."""
    free = len(pile) - fixed
    code = {item: index for index, item in enumerate(items)}
    for place in range(min(count, len(pile))):
        if place >= free:  # put under in a known order: drawn as it lies (one outcome)
            pick(what, {code[pile[place]]: 1})
            continue
        chosen = items[pick(what, Counter(code[item] for item in pile[place:free]))]
        where = pile.index(chosen, place, free)
        pile[place], pile[where] = pile[where], pile[place]


class ChanceRules(ABC):
    """Where a game deals and draws (arena/games/<game>/chance.py)."""

    max_outcomes: int
    """Every outcome of every chance node lies below it."""
    unique_items: bool = False
    """True when no two items of a pile are alike (Takenoko's plots and cards, by id): an
    item drawn again went back under its pile in between."""

    @abstractmethod
    def deal(self, config: Mapping[str, Any], players: int) -> GameState:
        """The game's first position, dealt inside `drawing` (config checked by the game);
        its later draws go through `pick` too."""

    @abstractmethod
    def hidden_from(self, state: GameState, seat: int) -> Counter[tuple[str, int, int]]:
        """The drawn items `seat` has not seen where they are now (another hand, a card put
        under a deck by another seat...), as (what, holder, outcome): the pile's `what`,
        the seat that saw the draw (the hand it went to) and the item. A resample of
        `seat`'s information state deals them again."""

    def rename(self, move: Any, renamed: Mapping[tuple[str, int], int]) -> Any:
        """`move` with the items it names dealt again as `renamed` says (a game whose moves
        name hidden items, by id); unchanged here."""
        return move

    def describe(self, what: str, outcome: int) -> str:
        """An outcome in words."""
        return f"{what} {outcome}"
