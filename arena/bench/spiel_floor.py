"""pyspiel's own floor for `arena bench openspiel`: what stepping a game through pyspiel costs
when the game does nothing.

`recorded_games` plays random games of one of our OpenSpiel games and keeps, step by step,
what the bench's loop asks (who acts, the legal actions or the chance outcomes, the action
taken). `floor_random_play` plays them again through `bench_replay`, a Python game
registered with pyspiel whose state only reads the record: the same loop, the same number
of decisions, chance nodes, legal actions and outcomes, each a round trip through pyspiel,
and no game at all. Its time a decision added to the chance engine's own (each draw a
chance node answered where it is drawn) is the least any Python game stepping our chance
model through pyspiel could take: the bench prints it as the best ratio reachable.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pyspiel

from arena.ecosystem.stepping import CHANCE, TERMINAL
from arena.games.chance import by_probability

GAME = "bench_replay"
Step = tuple[int, list[Any], int]
"""Who acts (a seat, or `CHANCE`), the legal actions or the chance outcomes, the action
taken."""
_RECORDS: list[list[Step]] = []
"""The games the next `bench_replay` states read, in turn (set by `floor_random_play`)."""


def recorded_games(name: str, seats: int, games: int, seed: int) -> list[list[Step]]:
    """`games` random games of `arena_<name>` through pyspiel, as the bench plays them."""
    import arena.ecosystem.openspiel_games  # noqa: F401  (registers the games)

    game = pyspiel.load_game(f"arena_{name}", {"players": seats})
    uniform = random.Random(seed).random
    records = []
    for _ in range(games):
        state = game.new_initial_state()
        steps: list[Step] = []
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = by_probability(outcomes, uniform())
                steps.append((CHANCE, outcomes, action))
            else:
                actions = state.legal_actions()
                action = actions[int(uniform() * len(actions))]
                steps.append((state.current_player(), actions, action))
            state.apply_action(action)
        records.append(steps)
    return records


def timed_random_play(game: Any, games: int, seed: int) -> dict[str, Any]:
    """`games` random games of the pyspiel `game`, chance drawn by its probabilities: CPU
    seconds and decisions (the loop of the bench's random play through pyspiel and of its floor here)."""
    uniform = random.Random(seed).random
    decisions = 0
    start = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(by_probability(state.chance_outcomes(), uniform()))
            else:
                actions = state.legal_actions()
                state.apply_action(actions[int(uniform() * len(actions))])
                decisions += 1
    return {"seconds": time.process_time() - start, "decisions": decisions}


def floor_random_play(records: list[list[Step]], seed: int) -> dict[str, float]:
    """The bench's random-play loop over `bench_replay` states reading `records`: CPU
    seconds and decisions. The actions it draws are the record's own: the record answers
    every step, whichever action the loop takes."""
    _register()
    _RECORDS[:] = records
    return timed_random_play(pyspiel.load_game(GAME), len(records), seed)


_GAME_TYPE = pyspiel.GameType(
    short_name=GAME,
    long_name="A recorded game replayed (arena bench openspiel's floor)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={},
)


class Replay(pyspiel.Game):  # type: ignore[misc]
    """The recorded games, one after another: each new state reads the next."""

    def __init__(self, params: Any = None) -> None:
        info = pyspiel.GameInfo(
            num_distinct_actions=1 << 16,
            max_chance_outcomes=1 << 10,
            num_players=4,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=1 << 20,
        )
        super().__init__(_GAME_TYPE, info, params or {})
        self.next = 0

    def new_initial_state(self) -> ReplayState:
        record = _RECORDS[self.next % len(_RECORDS)]
        self.next += 1
        return ReplayState(self, record)


class ReplayState(pyspiel.State):  # type: ignore[misc]
    """A recorded game, step by step: the least a state can do."""

    def __init__(self, game: Replay, record: list[Step]) -> None:
        super().__init__(game)
        self.record = record
        self.index = 0
        self.player = record[0][0] if record else TERMINAL

    def current_player(self) -> int:
        return self.player

    def is_terminal(self) -> bool:
        return self.player == TERMINAL

    def is_chance_node(self) -> bool:
        return self.player == CHANCE

    def legal_actions(self, player: int | None = None) -> list[int]:
        return list(self.record[self.index][1])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(self.record[self.index][1])

    def _apply_action(self, action: int) -> None:
        index = self.index = self.index + 1
        self.player = self.record[index][0] if index < len(self.record) else TERMINAL

    def returns(self) -> list[float]:
        return [0.0] * 4

    def __str__(self) -> str:
        return f"step {self.index}"


def _register() -> None:
    if GAME not in pyspiel.registered_names():
        pyspiel.register_game(_GAME_TYPE, Replay)
