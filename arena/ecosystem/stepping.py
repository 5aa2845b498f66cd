"""A game of ours as OpenSpiel steps it: the engine's position, moved on one step at a time.

`Play` is what an OpenSpiel state of ours holds (openspiel_games.ArenaState). Each step
costs the same at move 10 as at move 500: nothing earlier is run again.

- The deal is the game's `DealStep`s (arena/games/chance.py), run in turn in a greenlet
  on the position being dealt, as a move is run (below). A live step draws before it
  changes anything, so a copy of the play made while it waits shares the position.
- A move runs in a greenlet of its own: at a draw it hands the chance node to the state
  and waits (`Waiting.wait`); the outcome, when it comes, is drawn into the engine's
  position right there and the move goes on.
- A move changes the position itself when nothing else holds it, else a copy
  (`GameState.copy`): a clone shares its position until one of the two steps (copy on
  write), and the records keep the positions they are reading. So random play and a
  rollout copy nothing, and a search that reads information states at every node copies
  once a step, as it must to keep the positions it reads.
- A copy of a state in the middle of a move (a greenlet cannot be copied) runs that move
  again, once, with the outcomes drawn so far, when it is next stepped, from the position
  before the move (the records rebuild it when the move ran in place: `Play.before`). So
  does a state stepped in another thread than the one where its move began (a greenlet
  runs in the thread that made it).
- Each seat's record (recall.py) keeps the steps as they come and writes a seat's
  information state only when it is read.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from greenlet import greenlet

from arena.ecosystem.recall import Recall
from arena.games import Game, GameState
from arena.games.chance import ChanceNode, ChanceRules, DealStep, Draws, draw_from

CHANCE, TERMINAL = -1, -4
"""OpenSpiel's player ids for a chance node and the end of the game."""


class Play:
    """The engine after the last whole step (or the position being dealt), and the step
    under way with the chance outcomes it has drawn so far."""

    __slots__ = (
        "game",
        "rules",
        "config",
        "players",
        "deal",
        "dealt",
        "position",
        "owned",
        "in_place",
        "pending",
        "drawn",
        "nodes",
        "node",
        "recall",
        "dealing",
        "working",
        "runner",
        "player",
        "legal",
    )

    def __init__(self, game: Game, rules: ChanceRules, config: Any, players: int) -> None:
        """The root: nothing dealt, the deal's first chance node under way."""
        self.game = game
        self.rules = rules
        self.config = config
        self.players = players
        self.deal: tuple[DealStep, ...] = rules.deal_steps(players)
        self.dealt = 0
        """How many of the deal's steps are done."""
        self.position: GameState = rules.start(config, players)
        self.owned = True
        """`position` is this play's alone: the next step may change it in place."""
        self.in_place = False
        """The move under way changes `position` itself (`before` rebuilds it)."""
        self.pending: int | None = None
        """The player action under way."""
        self.drawn: list[int] = []
        """The chance outcomes the step under way has drawn so far."""
        self.nodes: list[ChanceNode] = []
        """The chance nodes `drawn` answered."""
        self.node: ChanceNode | None = None
        """The chance node to answer before the step under way can go on."""
        self.recall = Recall(players)
        self.dealing: list[tuple[int, ChanceNode]] = []
        """Every outcome of the deal so far, with its node, while the deal lasts."""
        self.working: GameState | None = None
        """The position the move under way is changing."""
        self.runner: greenlet | None = None
        """The move under way, waiting at a draw (None: none, or not started in this copy)."""
        self.player = CHANCE
        """Who acts now: a seat, `CHANCE` or `TERMINAL`."""
        self.legal: list[int] | None = None
        """The legal actions now, once asked (the caller's sorted codes)."""
        self._run(self._dealing)

    @classmethod
    def at(
        cls, game: Game, rules: ChanceRules, config: Any, position: GameState, players: int
    ) -> Play:
        """A play at `position` (a whole step), with no past."""
        play = cls.__new__(cls)
        play.game, play.rules, play.deal = game, rules, ()
        play.config, play.players = config, players
        play.dealt, play.position, play.pending = 0, position, None
        play.owned, play.in_place = False, False  # the caller may keep `position`
        play.drawn, play.nodes, play.node, play.dealing = [], [], None, []
        play.working = play.runner = None
        play.recall = Recall(players)
        play.recall.start(position)
        play.settle()
        return play

    def copy(self) -> Play:
        other = Play.__new__(Play)
        other.game, other.rules, other.config, other.players = (
            self.game,
            self.rules,
            self.config,
            self.players,
        )
        other.deal, other.dealt = self.deal, self.dealt
        # the two share the position until one of them steps (copy on write)
        other.position = self.before()
        self.owned = other.owned = other.in_place = False
        if self.runner is not None and self.pending is None:
            self.runner = None  # its deal step holds the shared position: run it again
        other.pending, other.node = self.pending, self.node
        other.drawn, other.nodes, other.dealing = self.drawn[:], self.nodes[:], self.dealing[:]
        other.recall = self.recall.copy()
        other.working = other.runner = None  # a move under way runs again when stepped
        other.player, other.legal = self.player, self.legal
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Play:
        return self.copy()

    def __getstate__(self) -> dict[str, Any]:
        """Pickled as a copy is made (without the move's greenlet), its records without
        their past positions."""
        copy = self.copy()
        copy.legal = None
        if not copy.in_deal():
            copy.recall = copy.recall.compact(copy.position)
        return {name: getattr(copy, name) for name in Play.__slots__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    def in_deal(self) -> bool:
        return self.dealt < len(self.deal)

    def before(self) -> GameState:
        """The position after the last whole step (before the move under way)."""
        if self.in_place:  # the move under way changes it: the records rebuild it
            self.position = self.recall.position_after(len(self.recall.steps) - 1)
            self.in_place = self.owned = False
        return self.position

    def settle(self) -> None:
        """Who acts now, after a change."""
        self.legal = None
        if self.node is not None:
            self.player = CHANCE
            return
        decision = self.position.decision()
        self.player = TERMINAL if decision is None else decision.seat

    def apply(self, action: int) -> None:
        """A player's action, or the outcome of the chance node under way."""
        if self.node is None:
            self.recall.act(self.player, action)
            self.pending = action
            self.start_move()
            return
        self.drawn.append(action)
        self.nodes.append(self.node)
        runner = self.runner
        if runner is None:  # a copy made in the middle of the step
            self._again()
            return
        try:
            result = runner.switch(action)
        except greenlet.error:  # the step waits in another thread: run it again here
            self.before()
            self.runner = self.working = None
            self._again()
            return
        if result.__class__ is ChanceNode:  # the common case: the next draw
            self.node, self.legal = result, None
            return
        self._went(result)

    def _again(self) -> None:
        """Run the step under way from its start, with the outcomes drawn so far."""
        if self.dealt < len(self.deal):
            self._run(self._dealing)
        else:
            self.start_move()

    def start_move(self) -> None:
        """Run the move under way from its start, with the outcomes drawn so far: on the
        position itself when nothing else holds it, else on a copy."""
        assert self.pending is not None
        position = self.position
        if self.owned and self.recall.release(position):
            self.working, self.in_place = position, True
        else:
            self.working = position.copy()
        self._run(self._moving)

    def _run(self, step: Callable[[Waiting], None]) -> None:
        """`step` in a greenlet of this thread's, which hands back each chance node."""
        idle = _IDLE.runners
        self.runner = runner = idle.pop() if idle else _runner()
        runner.parent = greenlet.getcurrent()
        self._went(runner.switch(step))

    def _moving(self, draws: Waiting) -> None:
        """The move under way (in its greenlet, whose chance is `draws`)."""
        assert self.working is not None and self.pending is not None
        draws.outcomes, draws.used, draws.audience = self.drawn, 0, None
        self.working.apply_action(self.pending)

    def _dealing(self, draws: Waiting) -> None:
        """The deal's steps in turn (in the deal's greenlet), from the one under way. A
        live step draws before it changes anything, so it runs on the position itself and
        a copy of the play made while it waits shares the position as it was."""
        deal = self.deal
        while self.dealt < len(deal):
            step = deal[self.dealt]
            if step.live:
                if not self.owned:
                    self.position, self.owned = self.position.copy(), True
                position = self.position
            else:
                position = self.position.copy()
            draws.outcomes, draws.used, draws.audience = self.drawn, 0, None
            step.run(position)
            self.position, self.owned = position, True
            self.dealing += zip(self.drawn, self.nodes, strict=True)
            self.dealt, self.drawn, self.nodes = self.dealt + 1, [], []

    def _went(self, result: ChanceNode | BaseException | None) -> None:
        """The step waits at `result`, or (None) it is done, or it raised `result`."""
        if isinstance(result, ChanceNode):
            self.node = result
            self.player, self.legal = CHANCE, None
            return
        runner = self.runner
        assert runner is not None
        idle = _IDLE.runners
        if len(idle) < _IDLE_RUNNERS and runner.parent is greenlet.getcurrent():
            idle.append(runner)  # free again, for the next step
        self.runner = None
        if result is not None:
            self.before()  # the move may have changed the position before it raised
            self.working = None
            if self.drawn:
                self.drawn.pop()  # the outcome it refused
                self.nodes.pop()
            raise result
        if self.pending is None:  # the deal is done
            self.node, self.dealing = None, []
            self.recall.start(self.position)
            self.settle()
            return
        assert self.working is not None
        self.recall.done(self.drawn, self.working)
        self.position, self.pending, self.node = self.working, None, None
        self.owned, self.in_place = True, False
        self.drawn, self.nodes, self.working = [], [], None
        self.settle()


class Waiting(Draws):
    """Draws that wait for each outcome beyond those given: the move's greenlet hands the
    chance node to the state and goes on with the outcome it is given back. Each runner
    greenlet has one, its chance for every step it runs (a greenlet has a context of its
    own), given the step's outcomes so far as the step starts."""

    __slots__ = ()

    def wait(self, node: ChanceNode) -> int:
        parent = greenlet.getcurrent().parent
        assert parent is not None, "a move waits for chance in its own greenlet only"
        outcome: int = parent.switch(node)
        return outcome


_IDLE_RUNNERS = 8
"""Greenlets kept for later moves (making one costs far more than a switch)."""


class _Idle(threading.local):
    """Each thread's idle greenlets (a greenlet runs in the thread that made it)."""

    def __init__(self) -> None:
        self.runners: list[greenlet] = []


_IDLE = _Idle()


def _runner() -> greenlet:
    """A greenlet that runs steps, one after another: each a function of the runner's
    `Waiting` switched to it; it switches back each chance node the step waits at, then
    None when the step is done (or the exception the step raised)."""
    runner = greenlet(_serve)
    runner.switch()
    return runner


def _serve() -> None:
    draws = Waiting()
    draw_from(draws)  # in this greenlet's own context, for every step it runs
    back = greenlet.getcurrent().parent
    assert back is not None
    step = back.switch()
    while True:
        result: BaseException | None = None
        try:
            step(draws)
        except Exception as error:  # handed to the state, which raises it
            result = error
        step = _idle  # an idle runner holds no play
        back = greenlet.getcurrent().parent
        assert back is not None
        step = back.switch(result)


def _idle(draws: Waiting) -> None:
    """What an idle runner holds until it is given a step."""
