"""A game of ours as OpenSpiel steps it: the engine's position, moved on one step at a time.

`Play` is what an OpenSpiel state of ours holds (openspiel_games.ArenaState). Each step
costs the same at move 10 as at move 500: nothing earlier is run again.

- The deal is the game's `DealStep`s (arena/games/chance.py), one draw each, run in turn
  on the position being dealt: a draw whose outcome has not come yet stops its step
  (`NeedChance`) before it changes anything, and the chance outcome, when it comes, runs
  that one step again with it.
- A move runs on a copy of the position (`GameState.copy`) in a greenlet of its own: at a
  draw it hands the chance node to the state and waits (`Waiting.wait`); the outcome, when
  it comes, is drawn into the engine's position right there and the move goes on. A copy
  of a state in the middle of a move (a greenlet cannot be copied) runs that move again,
  once, with the outcomes drawn so far, when it is next stepped. The position before the
  move is never changed, so the positions of earlier steps stay as they were.
- Each seat's record (recall.py) keeps the steps as they come and writes a seat's
  information state only when it is read.
"""

from __future__ import annotations

import threading
from typing import Any

from greenlet import greenlet

from arena.ecosystem.recall import Recall
from arena.games import Game, GameState
from arena.games.chance import ChanceNode, ChanceRules, DealStep, Draws, NeedChance, drawing


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
        "pending",
        "drawn",
        "nodes",
        "node",
        "recall",
        "dealing",
        "working",
        "runner",
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
        """The copy the move under way is changing."""
        self.runner: greenlet | None = None
        """The move under way, waiting at a draw (None: none, or not started in this copy)."""
        self._deal()

    @classmethod
    def at(
        cls, game: Game, rules: ChanceRules, config: Any, position: GameState, players: int
    ) -> Play:
        """A play at `position` (a whole step), with no past."""
        play = cls.__new__(cls)
        play.game, play.rules, play.deal = game, rules, ()
        play.config, play.players = config, players
        play.dealt, play.position, play.pending = 0, position, None
        play.drawn, play.nodes, play.node, play.dealing = [], [], None, []
        play.working = play.runner = None
        play.recall = Recall(players)
        play.recall.see(position)
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
        # the position is changed in place only while it is dealt
        other.position = self.position.copy() if self.in_deal() else self.position
        other.pending, other.node = self.pending, self.node
        other.drawn, other.nodes, other.dealing = self.drawn[:], self.nodes[:], self.dealing[:]
        other.recall = self.recall.copy()
        other.working = other.runner = None  # a move under way runs again when stepped
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Play:
        return self.copy()

    def __getstate__(self) -> dict[str, Any]:
        """Pickled as a copy is made: without the move's greenlet."""
        copy = self.copy()
        return {name: getattr(copy, name) for name in Play.__slots__}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    def in_deal(self) -> bool:
        return self.dealt < len(self.deal)

    def apply(self, action: int) -> None:
        """A player's action, or the outcome of the chance node under way."""
        if self.node is None:
            decision = self.position.decision()
            assert decision is not None
            self.recall.act(decision.seat, action, self.position)
            self.pending = action
            self.start_move()
            return
        self.drawn.append(action)
        self.nodes.append(self.node)
        if self.in_deal():
            self._deal()
        elif self.runner is None:  # a copy made in the middle of the move
            self.start_move()
        else:
            self._went(self.runner.switch(action))

    def start_move(self) -> None:
        """Run the move under way from its start, with the outcomes drawn so far."""
        assert self.pending is not None
        self.working = self.position.copy()
        idle = _IDLE.runners
        self.runner = idle.pop() if idle else _runner()
        self.runner.parent = greenlet.getcurrent()
        self._went(self.runner.switch((self.working, self.pending, Waiting(self.drawn))))

    def _went(self, result: ChanceNode | BaseException | None) -> None:
        """The move waits at `result`, or (None) it is done, or it raised `result`."""
        if isinstance(result, ChanceNode):
            self.node = result
            return
        assert self.runner is not None and self.working is not None
        idle = _IDLE.runners
        if len(idle) < _IDLE_RUNNERS and self.runner.parent is greenlet.getcurrent():
            idle.append(self.runner)  # free again, for the next move
        self.runner = None
        if result is not None:
            self.drawn.pop()  # the outcome it refused
            self.nodes.pop()
            raise result
        self.position, self.pending, self.node = self.working, None, None
        self.drawn, self.nodes, self.working = [], [], None
        self.recall.see(self.position)

    def _deal(self) -> None:
        """The deal's steps in turn, each run again when its outcome comes."""
        while self.in_deal():
            step = self.deal[self.dealt]
            position = self.position if step.live else self.position.copy()
            try:
                with drawing(Draws(self.drawn)):
                    step.run(position)
            except NeedChance as need:
                self.node = need.node
                return
            self.position = position
            self.dealing += zip(self.drawn, self.nodes, strict=True)
            self.dealt, self.drawn, self.nodes = self.dealt + 1, [], []
        self.node, self.dealing = None, []
        self.recall.see(self.position)


class Waiting(Draws):
    """Draws that wait for each outcome beyond those given: the move's greenlet hands the
    chance node to the state and goes on with the outcome it is given back."""

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
    """A greenlet that plays moves, one after another: each a (position, action, draws)
    switched to it; it switches back each chance node it waits at, then None when the
    move is done (or the exception the move raised)."""
    runner = greenlet(_serve)
    runner.switch()
    return runner


def _serve() -> None:
    back = greenlet.getcurrent().parent
    assert back is not None
    task = back.switch()
    while True:
        position, action, draws = task
        result: BaseException | None = None
        try:
            with drawing(draws):
                position.apply_action(action)
        except Exception as error:  # handed to the state, which raises it
            result = error
        back = greenlet.getcurrent().parent
        assert back is not None
        task = back.switch(result)
