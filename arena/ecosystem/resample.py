"""`resample_from_infostate` for the OpenSpiel games: what a seat has not seen, dealt again.

A state is its history: the deal and every move, with the chance outcomes each drew. A
resample for `seat` replays that history from a new root, keeping every move (a move that
names a redealt item is renamed, `ChanceRules.rename`) and every chance outcome `seat`
saw or has seen since (its own draws, every face-up one, a card another seat drew and
later played), and drawing again, from the chance model, each item that `seat` has not
seen where it is now (`ChanceRules.hidden_from`: another hand, a setup Cup, a plot put
under the deck by another seat). The item is drawn among those in its pile at that moment,
by count, less the items a later kept outcome of the same pile still needs. Which draw
events hold the items still hidden is told by item, latest first.

The replay must give `seat` the same information state (perfect recall, recall.py) and
every kept move must stay legal; a replay that does not (rare: an item drawn again that
changes what others see, as T11's redraw does) is drawn again, up to `ATTEMPTS` times.
The state returned has the full history that leads to it (`history()`), so it can be
serialized, cloned and played on like any other.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import pyspiel

from arena.ecosystem.recall import Recall
from arena.errors import ArenaError
from arena.games import GameState
from arena.games.chance import ChanceNode, ChanceRules, Draws, NeedChance, drawing

Step = tuple[Any, tuple[int, ...], tuple[ChanceNode, ...], tuple[tuple[int, ChanceNode], ...]]
"""A whole step: the move (None: the deal), its chance outcomes, their nodes, and its draws
with one possible outcome (each after how many of the nodes)."""


class Steps(list[Step]):
    """The whole steps of a game; a clone shares them (they are never changed in place)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Steps:
        return Steps(self)


class Replayable(Protocol):
    """What a resample reads of an OpenSpiel state of ours (openspiel_games.ArenaState)."""

    chance: ChanceRules
    pending: int | None
    drawn: list[int]
    drawn_nodes: tuple[ChanceNode, ...]
    node: ChanceNode | None
    recall: Recall
    steps: Steps

    @property
    def position(self) -> GameState | None: ...

    def get_game(self) -> Any: ...

    def current_player(self) -> int: ...

    def apply_action(self, action: int) -> None: ...


State = TypeVar("State", bound=Replayable)


ATTEMPTS = 200
"""Replays tried before giving up (each is the whole history)."""

Event = tuple[int, int]
"""A chance outcome: (step, its place among the step's outcomes)."""


class _Mismatch(Exception):
    """This replay cannot give the seat its information state."""


def _redealt(state: Replayable, seat: int, rng: random.Random | None) -> set[Event]:
    """The draw events `seat` did not see whose item it has still not seen, as many of each
    item (and seat that saw it) as `hidden_from` finds: the latest ones, or with `rng` any
    of them (a hand whose cards also came back face up, F27, does not say which draw of a
    colour was played)."""
    assert state.position is not None  # the deal is done
    hidden = state.chance.hidden_from(state.position, seat)
    if state.pending is not None:  # what the move under way shows is not hidden any more
        hidden &= state.chance.hidden_from(_finished(state), seat)
    for place, node in enumerate(state.drawn_nodes):  # the step under way deals these again
        hidden[_item(node, state.drawn[place])] -= 1
    draws: dict[tuple[str, int, int], list[Event | None]] = {}  # None: a forced draw
    drawn_later: set[tuple[str, int]] = set()
    for step in range(len(state.steps) - 1, -1, -1):  # latest first
        _, outcomes, nodes, forced = state.steps[step]
        found = [(place, node, outcomes[place], True) for place, node in enumerate(nodes)]
        found += [(place, node, node.outcomes[0][0], False) for place, node in forced]
        for place, node, outcome, chance in sorted(found, key=lambda draw: -draw[0] - draw[3]):
            item = _item(node, outcome)
            if state.chance.unique_items:  # only the latest draw of an item can hold it now
                if (node.what, outcome) in drawn_later:
                    continue
                drawn_later.add((node.what, outcome))
            if not node.sees(seat) and hidden[item] > 0:
                draws.setdefault(item, []).append((step, place) if chance else None)
    events: set[Event] = set()
    for item, holding in draws.items():
        count = min(hidden[item], len(holding))
        chosen = holding[:count] if rng is None else rng.sample(holding, count)
        events.update(event for event in chosen if event is not None)
    return events


def _item(node: ChanceNode, outcome: int) -> tuple[str, int, int]:
    """A drawn item as `hidden_from` names it: (what, the seat that saw it, outcome)."""
    holder = (
        next(iter(node.audience)) if node.audience is not None and len(node.audience) == 1 else -1
    )
    return node.what, holder, outcome


def _finished(state: Replayable) -> GameState:
    """The position after the move under way, its draws to come taken as they fall."""
    assert state.position is not None and state.pending is not None
    outcomes = list(state.drawn)
    while True:
        try:
            with drawing(Draws(outcomes)):
                position = state.position.copy()
                position.apply_action(state.pending)
                return position
        except NeedChance as need:
            outcomes.append(need.node.outcomes[0][0])


def resample(state: State, seat: int, sampler: Callable[[], float]) -> State:
    """A state with `seat`'s information state, drawn as the module says."""
    rng = random.Random(int(float(sampler()) * (1 << 53)))
    for attempt in range(ATTEMPTS):
        redealt = set()
        if state.position is not None:
            shuffled = attempt % 2 and not state.chance.unique_items
            redealt = _redealt(state, seat, rng if shuffled else None)
        try:
            return _replay(state, seat, redealt, rng)
        except _Mismatch:
            continue
    raise pyspiel.SpielError(
        f"No replay in {ATTEMPTS} gave seat {seat} its information state; the game's "
        "chance rules (hidden_from) do not match its views."
    )


def _replay(state: State, seat: int, redealt: set[Event], rng: random.Random) -> State:
    """One replay of `state`'s history for `seat` (raises _Mismatch)."""
    kept_later = Counter(
        _source(nodes[place], outcomes[place])
        for step, (_, outcomes, nodes, _) in enumerate(state.steps)
        for place in range(len(outcomes))
        if (step, place) not in redealt
    )
    kept_later.update(
        _source(node, node.outcomes[0][0]) for step in state.steps for _, node in step[3]
    )
    renamed: dict[tuple[str, int], int] = {}
    new: State = state.get_game().new_initial_state()
    target = state.recall.text[seat]
    for step, (move, outcomes, _, _) in enumerate(state.steps):
        if move is not None:
            _play(new, move if new.current_player() == seat else state.chance.rename(move, renamed))
        for place, real in enumerate(outcomes):
            node = new.node
            if node is None or node.what != state.steps[step][2][place].what:
                raise _Mismatch
            kept_later[_source(node, real)] -= (step, place) not in redealt
            outcome = real
            if (step, place) in redealt:
                outcome = _draw(node, kept_later, rng)
                renamed[node.what, real] = outcome
            elif real not in dict(node.outcomes):
                raise _Mismatch
            new.apply_action(outcome)
        kept_later.subtract(_source(node, node.outcomes[0][0]) for _, node in state.steps[step][3])
        if new.node is not None or not target.startswith(new.recall.text[seat]):
            raise _Mismatch
    if state.pending is not None:  # the step under way, to its chance node
        assert state.position is not None
        move = state.position.action_to_move(state.pending)
        _play(new, move if new.current_player() == seat else state.chance.rename(move, renamed))
    for real in state.drawn:  # the outcomes of the step (or the deal) under way
        node = new.node
        if node is None:
            raise _Mismatch
        if not node.sees(seat):
            real = _draw(node, Counter(), rng)
        elif real not in dict(node.outcomes):
            raise _Mismatch
        new.apply_action(real)
    if new.recall.text[seat] != target:
        raise _Mismatch
    return new


def _play(new: Replayable, move: object) -> None:
    """Play `move` (JSON) in the replay, or _Mismatch when it is not legal there."""
    assert new.position is not None
    try:
        new.apply_action(new.position.move_to_action(move))
    except (ArenaError, pyspiel.SpielError, KeyError, ValueError):
        raise _Mismatch from None


def _source(node: ChanceNode, outcome: int) -> tuple[str, int, int]:
    """An outcome with the pile it came from."""
    return node.what, node.pile, outcome


def _draw(node: ChanceNode, kept_later: Counter[tuple[str, int, int]], rng: random.Random) -> int:
    """An outcome by count, less what later kept outcomes of this pile need (if that leaves
    any)."""
    weights = [
        max(0, count - kept_later[_source(node, outcome)])
        for (outcome, _), count in zip(node.outcomes, node.counts, strict=True)
    ]
    outcomes = [outcome for outcome, _ in node.outcomes]
    return rng.choices(outcomes, weights if any(weights) else node.counts)[0]
