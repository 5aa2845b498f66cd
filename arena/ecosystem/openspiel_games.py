"""Mandala, Flowers and Takenoko as OpenSpiel Python games; importing this module registers them.

    import pyspiel
    import arena.ecosystem.openspiel_games  # registers arena_mandala, arena_flowers, arena_takenoko
    game = pyspiel.load_game("arena_takenoko", {"players": 3, "chibis": True})

Each is a sequential, imperfect-information, zero-sum game with **explicit chance**: one
chance node at the root deals the game, its outcome is the deal's seed (one of `DEALS`
equally likely seeds), and every later shuffle (a Mandala reshuffle, a Flowers tile stack, a
Takenoko die) follows from that seed, exactly as in an arena game. We chose one explicit
chance node over a sampled-stochastic game because then a state is a pure function of its
history: `serialize`, `clone`, undo and the random simulation tests work unchanged, and
search algorithms (ISMCTS, MCTS over determinizations) see the chance node they expect. No
seat ever observes the seed; what a seat knows is its view.

- Actions are the engine's own codes, sorted ascending as OpenSpiel wants (Takenoko's code
  is an index into the state's legal moves, as in the arena); `action_to_string` is the move
  as the JSON a bot would send.
- The information-state and observation strings are the seat's view as the referee sends it
  (`GameState.view_json`): exactly what a bot sees, no more. The view is the seat's whole
  knowledge in the arena, so both strings are the same; it is not perfect recall (the view
  keeps what the rules let a player remember, not the move history).
- The observation and information-state tensors are the same view in numbers (`tensors`).
- `resample_from_infostate` deals what the seat cannot see with the game's own determinizer.
- Returns: `returns.rank_returns` (2 seats: win 1, draw 0, loss -1).
- Parameters: `players` and the game's own options (`turn_limit`, `max_rounds`, `chibis`...).

Serialization is OpenSpiel's own for Python games (the history, and the state pickled):
deserialize only strings you made.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyspiel

from arena import compact_json
from arena.ecosystem import tensors
from arena.ecosystem.actions import NUM_ACTIONS, legal
from arena.ecosystem.returns import rank_returns
from arena.game_sources import get_game, table_seats
from arena.games import Game, GameState

DEALS = 1 << 16
"""How many deals the root chance node chooses from (each a seed of the arena's engine)."""

_CHANCE_OUTCOMES = [(seed, 1.0 / DEALS) for seed in range(DEALS)]


def _max_length(name: str, config: Mapping[str, Any], players: int) -> int:
    """A bound on the decisions in one game: the games end by their own turn or round limit."""
    if name == "mandala":
        return 7 * int(config["turn_limit"])  # a turn, then at most six claims
    if name == "flowers":
        return 2 * int(config["turn_limit"])  # a turn, then at most a tile choice
    return 64 * players * int(config["max_rounds"])  # a Takenoko turn's steps, generously


class ArenaGame(pyspiel.Game):  # type: ignore[misc]
    """One of the arena's games, with a table size and options, as an OpenSpiel game
    (a subclass per game, made by `_register`, names its `game_type`)."""

    game_type: Any

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game_type = self.game_type
        arena_game = get_game(game_type.short_name.removeprefix("arena_"))
        settings = dict(params or {})
        players = table_seats(arena_game, int(settings.pop("players", 0)) or None)
        self.arena_game: Game = arena_game
        self.players = players
        self.config: dict[str, Any] = arena_game.config(settings)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS[arena_game.name],
            max_chance_outcomes=DEALS,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=_max_length(arena_game.name, self.config, players),
        )
        super().__init__(game_type, info, dict(params or {}))
        self.tensor_size = tensors.size(arena_game.name, players)

    def new_initial_state(self) -> ArenaState:
        return ArenaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        return ViewObserver(self, iig_obs_type, params)


class ArenaState(pyspiel.State):  # type: ignore[misc]
    """A position: the deal to make (the root chance node), then the engine's state."""

    def __init__(self, game: ArenaGame, position: GameState | None = None) -> None:
        super().__init__(game)
        self.arena_game = game.arena_game
        self.config = game.config
        self.players = game.players
        self.position = position

    def current_player(self) -> int:
        if self.position is None:
            return int(pyspiel.PlayerId.CHANCE)
        decision = self.position.decision()
        return int(pyspiel.PlayerId.TERMINAL) if decision is None else decision.seat

    def _legal_actions(self, player: int) -> list[int]:
        assert self.position is not None
        return legal(self.arena_game.name, self.position.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return _CHANCE_OUTCOMES

    def _apply_action(self, action: int) -> None:
        if self.position is None:
            self.position = self.arena_game.new_state(action, self.config, self.players)
        else:
            self.position.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE or self.position is None:
            return f"deal {action}"
        try:
            return compact_json.dumps(self.position.action_to_move(action))
        except (IndexError, KeyError, ValueError):
            return f"action {action}"  # a code that names no move in this position

    def is_terminal(self) -> bool:
        return self.position is not None and self.position.is_over()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.players
        assert self.position is not None
        return rank_returns(self.position.outcome().ranks)

    def resample_from_infostate(self, player: int, sampler: Callable[[], float]) -> ArenaState:
        """A state `player` cannot tell from this one, its hidden part dealt afresh."""
        if self.position is None:
            return self.clone()  # type: ignore[no-any-return]
        determinizer = self.arena_game.determinizer()
        assert determinizer is not None, f"{self.arena_game.name} has no determinizer"
        rng = random.Random(int(float(sampler()) * (1 << 53)))
        view = self.position.view(player)
        position = determinizer.determinize(view, rng, self.config)
        return ArenaState(self.get_game(), position)

    def __str__(self) -> str:
        if self.position is None:
            return "(the deal)"
        return compact_json.dumps(self.position.spectator_view())


class ViewObserver:
    """A seat's view: the string is the referee's JSON, the tensor its numbers."""

    def __init__(self, game: ArenaGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"The arena's games take no observation parameters, not {params}.")
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError(
                "The arena's games observe as one seat does (its own private information and "
                "the public one); other observation types are not provided."
            )
        self.game_name = game.arena_game.name
        self.tensor = np.zeros(game.tensor_size, np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: ArenaState, player: int) -> None:
        if state.position is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = tensors.encode(self.game_name, state.position.view(player))

    def string_from(self, state: ArenaState, player: int) -> str:
        if state.position is None:
            return ""
        return state.position.view_json(player)


def _register(name: str) -> None:
    arena_game = get_game(name)
    game_type = pyspiel.GameType(
        short_name=f"arena_{name}",
        long_name=f"{name.capitalize()} (Mandala Arena)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=arena_game.max_players,
        min_num_players=arena_game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": arena_game.default_players or arena_game.min_players,
            **arena_game.default_config,
        },
    )
    cls = type(f"Arena{name.capitalize()}Game", (ArenaGame,), {"game_type": game_type})
    pyspiel.register_game(game_type, cls)


GAMES = ("mandala", "flowers", "takenoko")
for _name in GAMES:
    _register(_name)
