"""Any sequential OpenSpiel game, played through the arena's referee as `openspiel:NAME`.

    arena run --game 'openspiel:kuhn_poker' --rounds 100
    arena run --game 'openspiel:liars_dice(numdice=2)' --rounds 50

NAME is what `pyspiel.load_game` takes, parameters included: OpenSpiel's C++ games and its
Python ones (`python_tic_tac_toe`, `python_kuhn_poker`, `python_liars_poker`...), which
register themselves when `open_spiel.python.games` is imported (here, on first use). The
table size is the game's own (`players=N` among the parameters where the game has it).

- A seat is asked for a decision of kind `turn`. Its view holds `observation` (the game's
  observation string for that seat, or its information-state string when the game has no
  observation string), `information_state` when the game provides it, `observation_tensor`
  when the game provides one, and the usual `seat`, `turn` and `to_move`. Each legal move is
  `{"action": CODE, "name": "..."}` (the name is OpenSpiel's `action_to_string`); a bot
  answers with one of them (the `action` alone is enough).
- Chance nodes are played by the engine, never shown as decisions: each outcome is drawn
  from the game's own probabilities with a generator seeded by the deal's seed and the move
  number, so a seed and the moves replay a game exactly (records, `arena replay`, the viewer).
- One-player games are refused (a tournament needs two seats). Simultaneous-move games
  are played turn-based, through OpenSpiel's own `convert_to_turn_based`: the seats choose one after the other, none seeing the others'
  choices of the round, and the joint move is applied once all have chosen.
- The result: each seat's score is its return when every return is a whole number, else its
  return times 100 rounded (`details.score_scale` says which); ranks follow the returns, equal
  returns sharing a place. The end reason is `terminal`.
- The spectator view is the state's own text (`str(state)`), which shows everything.
"""

from __future__ import annotations

import difflib
import random
from collections.abc import Mapping
from typing import Any, ClassVar, Self

import pyspiel

from arena.errors import GameError, IllegalMoveError
from arena.games import Decision, Game, GameState, Move, View
from arena.games.move_fields import int_field, move_object, shown
from arena.outcome import Outcome, Termination, competition_ranks

PREFIX = "openspiel:"
TURN = "turn"
END = "terminal"
_CHANCE_STRIDE = 1_000_003
_LISTED = (
    '`python -c "import open_spiel.python.games, pyspiel; print(pyspiel.registered_names())"`'
    " lists its games"
)


def _registered_names() -> list[str]:
    """OpenSpiel's game names, its Python games' included (registered by their import)."""
    import open_spiel.python.games  # noqa: F401

    return list(pyspiel.registered_names())


def _unknown(short: str, names: list[str]) -> GameError:
    near = (
        difflib.get_close_matches(short, names, n=1)
        or [name for name in names if name.endswith("_" + short)][:1]
    )
    hint = f" (did you mean {near[0]}?)" if near else ""
    return GameError(f"OpenSpiel has no game {short!r}{hint}; {_LISTED}.")


def _load(spec: str) -> Any:
    """The OpenSpiel game `spec` names, sequential (simultaneous games made turn-based)."""
    short = spec.split("(", 1)[0].strip()
    names = _registered_names()
    if short not in names:
        raise _unknown(short, names)
    try:
        game = pyspiel.load_game(spec)
    except pyspiel.SpielError as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else "no reason given"
        raise GameError(f"OpenSpiel cannot load {spec!r} ({first}); {_LISTED}.") from None
    kind = game.get_type()
    if kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
        game = pyspiel.convert_to_turn_based(game)
    elif kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
        raise GameError(f"{spec!r} is a mean-field game; the arena plays games of seats.")
    if game.num_players() < 2:
        raise GameError(
            f"{spec!r} is a one-player game; a tournament needs tables of two seats or more."
        )
    return game


class OpenSpielState(GameState):
    """An OpenSpiel state whose chance nodes the engine plays from the deal's seed."""

    def __init__(self, game: Any, state: Any, seed: int) -> None:
        self.num_players = game.num_players()
        self.game = game
        self.state = state
        self.seed = seed
        self.turns = 0
        kind = game.get_type()
        self._observes = kind.provides_observation_string
        self._informs = kind.provides_information_state_string
        self._tensor = kind.provides_observation_tensor
        self._play_chance()

    def _play_chance(self) -> None:
        state = self.state
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            rng = random.Random(self.seed * _CHANCE_STRIDE + state.move_number())
            pick, total = rng.random(), 0.0
            action = outcomes[-1][0]
            for outcome, probability in outcomes:
                total += probability
                if pick < total:
                    action = outcome
                    break
            state.apply_action(action)

    @property
    def turn(self) -> int:
        return self.turns

    def is_over(self) -> bool:
        return bool(self.state.is_terminal())

    def decision(self) -> Decision | None:
        if self.state.is_terminal():
            return None
        return Decision(int(self.state.current_player()), TURN)

    def legal_actions(self) -> list[int]:
        if self.state.is_terminal():
            return []
        return [int(a) for a in self.state.legal_actions()]

    def apply_action(self, action: int) -> None:
        self.state.apply_action(action)
        self.turns += 1
        self._play_chance()

    def action_to_move(self, action: int) -> Move:
        player = self.state.current_player()
        return {"action": action, "name": self.state.action_to_string(player, action)}

    def move_to_action(self, move: Any) -> int:
        fields = move_object(move)
        action = int_field(fields.get("action"), "action", 0, 1 << 62)
        if self.state.is_terminal():
            raise IllegalMoveError("The game is over; no move can be played.")
        if action not in self.state.legal_actions():
            raise IllegalMoveError(f"Action {action} is not one of the legal moves.")
        name = fields.get("name")
        if name is not None and name != self.action_to_move(action)["name"]:
            raise IllegalMoveError(
                f"Action {action} is {self.action_to_move(action)['name']!r}, not {shown(name)}."
            )
        return action

    def copy(self) -> Self:
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.state = self.state.clone()
        return other

    def view(self, seat: int) -> View:
        state = self.state
        current = None if state.is_terminal() else int(state.current_player())
        view: View = {"seat": seat, "turn": self.turns, "to_move": current}
        if self._observes:
            view["observation"] = state.observation_string(seat)
        if self._informs:
            view["information_state"] = state.information_state_string(seat)
            view.setdefault("observation", view["information_state"])
        if self._tensor:
            view["observation_tensor"] = [float(x) for x in state.observation_tensor(seat)]
        return view

    def spectator_view(self) -> View:
        return {"turn": self.turns, "state": str(self.state), "history": self.state.history()}

    def scores(self) -> tuple[int, ...]:
        return _scores(self.state.returns())[0]

    def outcome(self) -> Outcome:
        if not self.state.is_terminal():
            raise GameError("The game is not over yet.")
        returns = [float(r) for r in self.state.returns()]
        scores, scale = _scores(returns)
        ranks = competition_ranks(returns)
        return Outcome(
            scores=scores,
            ranks=ranks,
            termination=Termination.NORMAL,
            end=END,
            reason=f"The game reached a terminal state (turn {self.turns}).",
            details={"returns": returns, "score_scale": scale},
        )

    def describe_move(self, move: Move) -> str:
        return str(move.get("name", move))


def _scores(returns: list[float]) -> tuple[tuple[int, ...], int]:
    """Scores from returns: the returns when whole, else times 100 rounded; and the scale."""
    if all(float(r).is_integer() for r in returns):
        return tuple(int(r) for r in returns), 1
    return tuple(round(r * 100) for r in returns), 100


class OpenSpielGame(Game):
    """`openspiel:NAME`: the game `pyspiel.load_game(NAME)` loads, seats and all."""

    default_config: ClassVar[Mapping[str, Any]] = {}
    decision_kinds: ClassVar[tuple[str, ...]] = (TURN,)
    stable_action_codes: ClassVar[bool] = False
    """A code's name may depend on the state (tic_tac_toe's "x(1,1)" and "o(1,1)")."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.game = _load(spec)
        self.name = PREFIX + spec  # type: ignore[misc]
        self.min_players = self.max_players = self.game.num_players()  # type: ignore[misc]
        self.default_players = self.min_players  # type: ignore[misc]

    def new_state(
        self, seed: int, config: Mapping[str, Any] | None = None, num_players: int = 0
    ) -> OpenSpielState:
        self.config(config)  # no options: any is refused with a sentence
        if num_players not in (0, self.min_players):
            raise GameError(f"{self.name} is played by {self.min_players}, not {num_players}.")
        return OpenSpielState(self.game, self.game.new_initial_state(), seed)

    def config_notes(self, config: Mapping[str, Any]) -> list[str]:
        return [f"{self.name}: OpenSpiel's {self.game.get_type().long_name}."]


def make(name: str) -> Game:
    """The arena game for the name `openspiel:SPEC`."""
    return OpenSpielGame(name.removeprefix(PREFIX))
