"""Chance as the physical game has it, for games played as OpenSpiel games (explicit chance).

The arena deals a whole game from a seed: every shuffle is fixed when the game starts.
A player of the physical game knows no such thing: a card is random when it is drawn,
among the cards still in the deck. This module lets an engine draw that way, outcome by
outcome, with nothing decided before it is drawn:

- a step of the engine (the deal, or a move) runs inside `drawing(draws)`; every random
  thing it does asks `draws` (`pick` for `arrange_top` and `uniform`, `Draws.take` for a
  `Pile`'s `pop`), which takes the next outcome from those given, or, when there is none
  left, stops the step with `NeedChance` naming the chance node: what is drawn, the
  outcomes (each item still possible, with its probability by count) and who sees it
  (`seen_by`, which `draws` holds while the step runs);
- the caller (arena/ecosystem/stepping.py) asks the chance player for that outcome and
  goes on with it: the step waits at the draw (`Draws.wait`) and resumes there. The deal
  is many draws, which the game gives as `DealStep`s, each one draw, run in turn on the
  position being dealt, so that a copy made while one waits can run that one again.

The games say where they draw in arena/games/<game>/chance.py (an engine subclass whose
piles draw through `pick`); the arena's own engines and seeds are untouched.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, SupportsIndex, TypeVar

from arena.games.states import GameState

T = TypeVar("T")


class ChanceNode:
    """One random event: what is drawn, its outcomes with their probabilities, and the seats
    that see the outcome (None: every seat). Made at every draw, so a plain class with
    slots (a frozen dataclass costs a call per field); never changed once made."""

    __slots__ = ("what", "outcomes", "audience", "counts", "pile")

    def __init__(
        self,
        what: str,
        outcomes: tuple[tuple[int, float], ...],
        audience: frozenset[int] | None,
        counts: tuple[int, ...],
        pile: int = 0,
    ) -> None:
        self.what = what
        self.outcomes = outcomes
        self.audience = audience
        self.counts = counts
        """How many items give each outcome (the probabilities' numerators)."""
        self.pile = pile
        """Which pile of that name (a deck made again from the discard pile is a new one)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChanceNode) and all(
            getattr(self, name) == getattr(other, name) for name in ChanceNode.__slots__
        )

    def __hash__(self) -> int:
        return hash((self.what, self.outcomes, self.audience, self.pile))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in ChanceNode.__slots__)
        return f"ChanceNode({fields})"

    def sees(self, seat: int) -> bool:
        return self.audience is None or seat in self.audience


class NeedChance(Exception):
    """The step needs one more chance outcome: `node`'s."""

    def __init__(self, node: ChanceNode) -> None:
        super().__init__(node.what)
        self.node = node


class Draws:
    """The chance outcomes a step uses, in order; one more than it has stops the step
    (`NeedChance`), or, in a subclass, waits for it (`wait`)."""

    __slots__ = ("outcomes", "used", "audience")

    def __init__(self, outcomes: list[int] | None = None) -> None:
        self.outcomes = [] if outcomes is None else outcomes
        self.used = 0
        """How many of `outcomes` the step has taken."""
        self.audience: frozenset[int] | None = None
        """Who sees the draws now (`seen_by`; None: every seat)."""

    def take(self, pile: Pile) -> int:
        """The next item drawn from `pile` (`pick` for a pile, whose tally is kept in
        ascending order of its items: the chance node is made from it without sorting)."""
        tally = pile.tally
        if len(tally) == 1:
            return next(iter(tally))
        used = self.used
        if used < len(self.outcomes):
            outcome = self.outcomes[used]
        else:
            counts = tuple(tally.values())
            total = len(pile)
            node = ChanceNode(
                pile.what,
                tuple([(item, count / total) for item, count in tally.items()]),
                self.audience,
                counts,
                pile.number,
            )
            outcome = self.wait(node)
        if outcome not in tally:
            raise ValueError(f"{outcome} is not a possible outcome of this draw ({pile.what}).")
        self.used = used + 1
        return outcome

    def pick(self, what: str, weights: Mapping[int, int], pile: int = 0) -> int:
        """The next outcome among `weights` (outcome -> how many items give it). A single
        possible outcome is no chance node: it is taken without asking."""
        if len(weights) == 1:
            return next(iter(weights))
        used = self.used
        if used < len(self.outcomes):
            outcome = self.outcomes[used]
        else:
            order = sorted(weights)
            counts = tuple(map(weights.__getitem__, order))
            total = sum(counts)
            outcomes = tuple(zip(order, [count / total for count in counts], strict=True))
            outcome = self.wait(ChanceNode(what, outcomes, self.audience, counts, pile))
        if outcome not in weights:
            raise ValueError(f"{outcome} is not a possible outcome of this draw ({what}).")
        self.used = used + 1
        return outcome

    def wait(self, node: ChanceNode) -> int:
        """The outcome of `node`, which `outcomes` does not hold yet: none here (the step
        stops, to be run again with it)."""
        raise NeedChance(node)


_DRAWS: ContextVar[Draws | None] = ContextVar("draws", default=None)
_OUTSIDE = "A chance engine drew outside `drawing`: its step has no chance."


def draw_from(draws: Draws) -> None:
    """`draws` is the chance of every step run from now on in this context, for good (a
    greenlet that runs steps, in a context of its own; `drawing` for one step)."""
    _DRAWS.set(draws)


class drawing:  # noqa: N801  (used as `with drawing(draws):`, as a contextmanager is)
    """Run a step of the engine with `draws` as its chance."""

    __slots__ = ("draws", "token")

    def __init__(self, draws: Draws) -> None:
        self.draws = draws

    def __enter__(self) -> Draws:
        self.token = _DRAWS.set(self.draws)
        return self.draws

    def __exit__(self, *exc: object) -> None:
        _DRAWS.reset(self.token)


class seen_by:  # noqa: N801  (used as `with seen_by(seats):`, as a contextmanager is)
    """The draws inside are seen by `seats` only (None: by every seat, face up): the step's
    `Draws` holds who sees its draws (outside `drawing` nothing is drawn, so nothing is
    held)."""

    __slots__ = ("seats", "draws", "before")

    def __init__(self, seats: Collection[int] | None) -> None:
        self.seats = None if seats is None else _audience(seats)

    def __enter__(self) -> None:
        draws = self.draws = _DRAWS.get()
        if draws is not None:
            self.before, draws.audience = draws.audience, self.seats

    def __exit__(self, *exc: object) -> None:
        if self.draws is not None:
            self.draws.audience = self.before


_AUDIENCES: dict[Any, frozenset[int]] = {}
"""The seats of each `seen_by` so far (a handful: one seat, or several)."""


def _audience(seats: Collection[int]) -> frozenset[int]:
    try:
        return _AUDIENCES[seats]
    except (KeyError, TypeError):  # new, or not hashable as given
        audience = frozenset(seats)
        if len(_AUDIENCES) < 256:
            _AUDIENCES[tuple(seats)] = audience
        return audience


def pick(what: str, weights: Mapping[int, int], pile: int = 0) -> int:
    """The outcome of a draw, from the step's `Draws`."""
    draws = _DRAWS.get()
    if draws is None:
        raise RuntimeError(_OUTSIDE)
    return draws.pick(what, weights, pile)


def uniform(what: str, n: int) -> int:
    """A number below `n`, each equally likely (a die, a random choice among `n`)."""
    return pick(what, dict.fromkeys(range(n), 1))


def by_probability(outcomes: Sequence[tuple[int, float]], draw: float) -> int:
    """The outcome among `outcomes` ((outcome, probability) pairs, as a chance node or
    OpenSpiel's `chance_outcomes` gives them) that `draw`, uniform in [0, 1), falls in."""
    for outcome, probability in outcomes:
        draw -= probability
        if draw < 0:
            return outcome
    return outcomes[-1][0]


class Pile(list[int]):
    """A face-down pile whose top is its end: `pop()` draws a random item among those in it
    (the pile's order means nothing, it is drawn as it goes). It keeps a tally of its items
    for the draw, in ascending order of the items (made from the sorted list; items only
    leave it); only `pop` takes items out (the engines' only use of it), so the tally's
    sum is the pile's length."""

    __slots__ = ("what", "number", "tally")

    def __init__(self, items: Sequence[int] = (), what: str = "card", number: int = 0) -> None:
        super().__init__(sorted(items))
        self.what = what
        self.number = number
        """Which pile of this name: one more for each deck made again from a discard pile."""
        self.tally: dict[int, int] = dict(Counter(self))
        """How many of each item the pile holds (the chance node's counts)."""

    def pop(self, index: SupportsIndex = -1) -> int:
        if index != -1 or not self:
            item = super().pop(index)
        else:
            draws = _DRAWS.get()
            if draws is None:
                raise RuntimeError(_OUTSIDE)
            item = draws.take(self)
            self.remove(item)
        left = self.tally[item] - 1
        if left:
            self.tally[item] = left
        else:
            del self.tally[item]
        return item

    def again(self, items: Sequence[int]) -> Pile:
        """The next pile of this name, holding `items` (a reshuffled discard pile)."""
        return Pile(items, self.what, self.number + 1)

    def copy(self) -> Pile:
        other = Pile.__new__(Pile)
        list.extend(other, self)
        other.what, other.number, other.tally = self.what, self.number, dict(self.tally)
        return other

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


@dataclass(frozen=True)
class DealStep:
    """One draw of the deal (or a step with none, such as setting a hand's size), run on the
    position being dealt. A `live` step draws once, before it changes anything, so that it
    can wait for its outcome on the position itself (a copy made meanwhile shares it and
    runs the step again); another runs on a copy."""

    run: Callable[[Any], None]
    live: bool = True


class ChanceRules(ABC):
    """Where a game deals and draws (arena/games/<game>/chance.py)."""

    max_outcomes: int
    """Every outcome of every chance node lies below it."""

    @abstractmethod
    def start(self, config: Mapping[str, Any], players: int) -> GameState:
        """The position before the deal (config checked by the game): nothing dealt yet,
        its later draws through `pick`."""

    @abstractmethod
    def deal_steps(self, players: int) -> tuple[DealStep, ...]:
        """The deal, draw by draw, in order (each run inside `drawing`)."""

    def deal(self, config: Mapping[str, Any], players: int) -> GameState:
        """The game's first position, dealt inside `drawing`, step by step."""
        position = self.start(config, players)
        for step in self.deal_steps(players):
            step.run(position)
        return position

    @abstractmethod
    def redeal(self, state: GameState, seat: int, rng: random.Random) -> GameState:
        """A copy of `state` with everything `seat` has not seen dealt again at random
        (uniformly among the deals that show `seat` what it saw), its piles still drawn
        through `pick`."""

    def describe(self, what: str, outcome: int) -> str:
        """An outcome in words."""
        return f"{what} {outcome}"
