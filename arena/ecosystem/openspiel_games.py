"""Mandala, Flowers and Takenoko as OpenSpiel Python games; importing this module registers them.

    import pyspiel
    import arena.ecosystem.openspiel_games  # registers arena_mandala, arena_flowers, arena_takenoko
    game = pyspiel.load_game("arena_takenoko", {"players": 3, "chibis": True})

Each is a sequential, imperfect-information, zero-sum game with **explicit chance as the
physical game has it**: a chance node wherever a card, a tile or a plot is dealt or drawn
(its outcomes: the items still in that pile, each with its probability by count), a die is
rolled or a thing is picked at random (arena/games/chance.py; each game says where it
draws in arena/games/<game>/chance.py). Nothing is decided before it is drawn, so no
seat's information identifies a future draw or another seat's hidden card beyond what the
rules reveal, and an algorithm that reasons over the declared chance model (CFR, exact
belief updates, determinization from the model) reasons over the real game. A state is a
pure function of its history (chance outcomes and actions): `serialize`, `clone` and
OpenSpiel's tests work as for any game. The arena itself still deals a game from a seed
(records, tournaments): its engines and seeds are unchanged.

- Actions are the engine's own codes, sorted ascending as OpenSpiel wants (Takenoko's code
  is an index into the state's legal moves, as in the arena); `action_to_string` is the move
  as the JSON a bot would send; a chance outcome's string names the item drawn.
- The observation (string and tensor) is the seat's view as the referee sends it
  (`GameState.view_json`, `tensors`): exactly what a bot sees now.
- The information state is perfect recall (recall.py): the seat's own actions and every
  change of its view, in order; its tensor the view and the sequence of actions.
- `resample_from_infostate` deals what the seat has not seen again, once, into the same
  places (resample.py); the sample keeps the real `history()` (a state to search from).
- A step costs the same at any point of a game (stepping.py): nothing earlier is run again.
- Returns: `returns.rank_returns` (2 seats: win 1, draw 0, loss -1).
- Parameters: `players` and the game's own options (`turn_limit`, `max_rounds`, `chibis`...);
  a value the game refuses is a `pyspiel.SpielError` with the game's own sentence.

Serialization is OpenSpiel's own for Python games (the history): deserialize only strings
you made.
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
from arena.ecosystem.recall import Recall
from arena.ecosystem.resample import resample
from arena.ecosystem.returns import rank_returns
from arena.ecosystem.stepping import CHANCE, TERMINAL, Play
from arena.errors import GameError
from arena.game_sources import BUILT_IN, get_game, table_seats
from arena.games import Game, GameState
from arena.games.chance import ChanceRules


class ArenaGame(pyspiel.Game):  # type: ignore[misc]
    """One of the arena's games, with a table size and options, as an OpenSpiel game
    (a subclass per game, made by `_register`, names its `game_type`)."""

    game_type: Any

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game_type = self.game_type
        arena_game = get_game(game_type.short_name.removeprefix("arena_"))
        settings = dict(params or {})
        try:
            players = table_seats(arena_game, int(settings.pop("players", 0)) or None)
            self.config: dict[str, Any] = arena_game.config(settings)
            arena_game.new_state(0, self.config, players)  # the game's own checks of values
        except GameError as error:
            raise pyspiel.SpielError(f"{game_type.short_name}: {error}") from None
        self.arena_game: Game = arena_game
        self.players = players
        coding = arena_game.learning()
        chance = _chance_of(arena_game)
        assert coding is not None and chance is not None
        self.chance = chance
        self.max_length = coding.max_length(self.config, players)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS[arena_game.name],
            max_chance_outcomes=self.chance.max_outcomes,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_length,
        )
        super().__init__(game_type, info, dict(params or {}))
        self.view_size = tensors.size(arena_game.name, players)
        self.root = Play(arena_game, self.chance, self.config, players)
        """The root, copied for each new state (its first chance node found once)."""

    def new_initial_state(self) -> ArenaState:
        return ArenaState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer | None:
        """The view (the default), or perfect recall; None for the observation types the
        games do not provide (public only, private only), as OpenSpiel's games do."""
        if params:
            raise ValueError(f"The arena's games take no observation parameters, not {params}.")
        if iig_obs_type is None:
            return ViewObserver(self)
        if (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            return None
        return RecallObserver(self) if iig_obs_type.perfect_recall else ViewObserver(self)


class ArenaState(pyspiel.State):  # type: ignore[misc]
    """A position: the engine after the last whole step, and the step under way (a
    player's action, or the deal) with the chance outcomes it has drawn so far (stepping.py).
    Everything it holds is one `Play`, which OpenSpiel's `clone` copies by hand."""

    def __init__(
        self, game: ArenaGame, position: GameState | None = None, play: Play | None = None
    ) -> None:
        """The game's root; or, given an arena `position` (a search bot's determinized
        sample, bots/openspiel-ismcts), a state at it without a history, whose later draws
        are the engine's own (its seed's) and whose resample is the game's determinizer."""
        super().__init__(game)
        self.sample = position is not None
        """A state made from an arena position (no history, no chance nodes)."""
        if play is not None:
            self._play = play
        elif position is None:
            self._play = game.root.copy()
        else:
            self._play = Play.at(game.arena_game, game.chance, game.config, position, game.players)

    @property
    def position(self) -> GameState | None:
        """The engine after the last whole step; None before the deal is done. Later steps
        of this state may change it in place: copy it to keep it."""
        return None if self._play.in_deal() else self._play.before()

    def whole_step(self) -> GameState | None:
        """The engine's position when this state is at a whole step (a decision or the
        end: no step under way), else None. Later steps of this state may change it in
        place: copy it to keep it (a rollout plays on a copy: rollouts.py)."""
        play = self._play
        if play.node is not None or play.in_deal():
            return None
        return play.before()

    @property
    def recall(self) -> Recall:
        return self._play.recall

    # OpenSpiel asks these many times at one state: each is kept in the play until it
    # steps. Python callers reach them without the C++ round trip (pyspiel's own methods
    # call back into Python several times each); C++ callers reach them through it.

    def current_player(self) -> int:
        return self._play.player

    def is_chance_node(self) -> bool:
        return self._play.player == CHANCE

    def is_terminal(self) -> bool:
        return self._play.player == TERMINAL

    def is_player_node(self) -> bool:
        return self._play.player >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """pyspiel's `legal_actions`, answered in Python: the chance outcomes' actions at a
        chance node, none for another seat or at the end."""
        play = self._play
        now = play.player
        if now == CHANCE:
            assert play.node is not None
            return [outcome for outcome, _ in play.node.outcomes]
        if now == TERMINAL or (player is not None and player != now):
            if player is not None and player < 0:
                raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
            return []
        codes = play.legal
        return (self._legal_actions(now) if codes is None else codes)[:]

    def _legal_actions(self, player: int) -> list[int]:
        play = self._play
        codes = play.legal
        if codes is None:
            name = play.game.name
            codes = legal(name, play.position.legal_actions(), _ACTION_SPACE[name])
            play.legal = codes
        return codes

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self._play.node is not None
        return list(self._play.node.outcomes)

    def _apply_action(self, action: int) -> None:
        self._play.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        play = self._play
        if player == pyspiel.PlayerId.CHANCE:
            what = play.node.what if play.node is not None else "chance"
            return play.rules.describe(what, action)
        try:
            return compact_json.dumps(play.before().action_to_move(action))
        except (IndexError, KeyError, ValueError):
            return f"action {action}"  # a code that names no move in this position

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._play.players
        return rank_returns(self._play.position.outcome().ranks)

    def resample_from_infostate(self, player: int, sampler: Callable[[], float]) -> ArenaState:
        """A state `player` cannot tell from this one, what it has not seen dealt again once
        (resample.py); its history() is this state's."""
        rng = random.Random(int(float(sampler()) * (1 << 53)))
        if self.sample:
            return self._redeal(player, rng)
        other: ArenaState = self.clone()
        other._play = resample(self._play, player, rng)
        return other

    def _redeal(self, seat: int, rng: random.Random) -> ArenaState:
        """For a state made from an arena position (no history): a new position from the
        game's determinizer and `seat`'s view, as a search bot samples."""
        play = self._play
        determinizer = play.game.determinizer()
        assert determinizer is not None
        position = determinizer.determinize(play.before().view(seat), rng, play.config)
        return ArenaState(self.get_game(), position)

    def __str__(self) -> str:
        if self._play.in_deal():
            return "(the deal)"
        return compact_json.dumps(self._play.before().spectator_view())


class ViewObserver:
    """A seat's view: the string is the referee's JSON, the tensor its numbers."""

    def __init__(self, game: ArenaGame) -> None:
        self.game_name = game.arena_game.name
        self.tensor = np.zeros(game.view_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ArenaState, player: int) -> None:
        position = state.position
        if position is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = tensors.encode(self.game_name, position.view(player))

    def string_from(self, state: ArenaState, player: int) -> str:
        position = state.position
        return "" if position is None else position.view_json(player)


class RecallObserver(ViewObserver):
    """A seat's information state with perfect recall (recall.py)."""

    def __init__(self, game: ArenaGame, position: GameState | None = None) -> None:
        """The game's root; or, given an arena `position` (a search bot's determinized
        sample, bots/openspiel-ismcts), a state at it without a history, whose later draws
        are the engine's own (its seed's) and whose resample is the game's determinizer."""
        super().__init__(game)
        self.view_size = game.view_size
        self.tensor = np.zeros(game.view_size + 2 * game.max_length, np.float32)
        self.dict = {"info_state": self.tensor}

    def set_from(self, state: ArenaState, player: int) -> None:
        view = self.tensor[: self.view_size]
        position = state.position
        if position is None:
            view.fill(0.0)
        else:
            view[:] = tensors.encode(self.game_name, position.view(player))
        state.recall.tensor(player, self.tensor, self.view_size)

    def string_from(self, state: ArenaState, player: int) -> str:
        return state.recall.text(player)


Observer = ViewObserver


def _chance_of(game: Game) -> ChanceRules | None:
    coding = game.learning()
    return None if coding is None else coding.chance()


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


GAMES = tuple(name for name, make in BUILT_IN.items() if _chance_of(make()) is not None)
"""The built-in games with a coding for learners and their chance (all three)."""
_ACTION_SPACE = {name: NUM_ACTIONS[name] for name in GAMES}
"""Each game's number of action codes, looked up at every decision."""
for _name in GAMES:
    _register(_name)
