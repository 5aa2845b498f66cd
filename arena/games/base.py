"""The game interface: the referee, the scheduler and the bots' tools know games only through it.

A game is declared once (`Game`): its name, how many players, its default configuration.
It makes states from a configuration and a seed; the `GameState` holds the rules. The whole
game is determined by (game name, configuration, seed, moves): chance is drawn from the seed.

Moves travel as plain JSON-friendly dicts (`Move`). Inside the engine every move also has a
small integer code (an "action"), so search bots can play thousands of moves cheaply.

The contract of action codes:
- `legal_actions()` lists codes in a fixed order, the order of `legal_moves()` and of the
  `legal_moves` a bot is sent; `move_to_action(action_to_move(a)) == a` for a legal `a`.
- A game whose codes name the same move in every state (Mandala: code 17 is always "build
  red into the Mountain of Mandala 1") says `stable_action_codes = True`; the referee then
  caches each code's move and JSON across states and games. A game whose codes only mean
  something in the state that listed them (an index into a board that grows) says False,
  and the referee converts every code in its own state, never from a cache.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from arena.errors import GameError
from arena.games.states import Decision, GameState, Move, View

if TYPE_CHECKING:
    from arena.games.learning import Learning

__all__ = ["Decision", "Determinizer", "Game", "GameState", "Move", "View"]


class Determinizer(ABC):
    """Sampling what one seat cannot see: how a search bot plays a game of hidden information.

    A seat's view holds what it may know; `determinize` makes a whole state consistent with
    it (hidden cards dealt at random from those the seat has not seen), and `redeal` deals
    the hidden part of a state again, in place, far cheaper than building a new one. Both
    give the state fresh chance, so a search never learns a real future shuffle.
    """

    @abstractmethod
    def determinize(self, view: View, rng: random.Random, config: Mapping[str, Any]) -> GameState:
        """A state with `state.view(view["seat"]) == view`; ValueError if the view does not
        add up. `config` is the game's configuration, as `new_game` sends it."""

    @abstractmethod
    def redeal(self, state: GameState, seat: int, rng: random.Random) -> None:
        """Deal again, in place, everything `seat` cannot see; its view does not change."""


_TYPE_WORDS = {bool: "true or false", int: "a whole number", float: "a number", str: "text"}


class Game(ABC):
    """A game's metadata and its factory of states."""

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_config: ClassVar[Mapping[str, Any]]
    default_players: ClassVar[int | None] = None
    """The table size when none is asked for (None: `min_players`)."""
    option_help: ClassVar[Mapping[str, str]] = {}
    """A line on each option of `default_config`, for `arena games`."""
    stable_action_codes: ClassVar[bool] = True
    """True when an action code names the same move in every state (see the module doc)."""
    decision_kinds: ClassVar[tuple[str, ...]] = ()
    """Every kind of decision a seat can be asked for (`Decision.kind`); `arena check`
    plays until a bot has met each of them."""

    def config(self, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The default configuration with `overrides` applied; raises GameError on unknown keys."""
        merged = dict(self.default_config)
        for key, value in (overrides or {}).items():
            if key not in merged:
                known = ", ".join(sorted(merged)) or "none"
                raise GameError(f"{self.name} has no option {key!r}; known options: {known}.")
            wanted = type(self.default_config[key])
            if type(value) is not wanted and not (wanted is float and type(value) is int):
                raise GameError(
                    f"{self.name}'s option {key} takes {_TYPE_WORDS.get(wanted, wanted.__name__)}"
                    f", not {value!r}."
                )
            merged[key] = value
        return merged

    @abstractmethod
    def new_state(
        self, seed: int, config: Mapping[str, Any] | None = None, num_players: int = 2
    ) -> GameState:
        """A new game, dealt from `seed`. The deal depends on the seed only, never on who plays."""

    def determinizer(self) -> Determinizer | None:
        """How a search bot samples what a seat cannot see; None for a game without one."""
        return None

    def learning(self) -> Learning | None:
        """The game's coding for learners (arena/games/learning.py: its action space, a view
        as numbers, its chance); None for a game without one."""
        return None

    def card_meanings(self) -> Mapping[str, Any] | None:
        """What the pages that draw this game show of its cards by id (Takenoko: each
        objective's kind, points and what it asks); None for a game whose pages need none."""
        return None

    def config_notes(self, config: Mapping[str, Any]) -> list[str]:
        """What a reader of a tournament's log and report must know about this
        configuration (written at the start of the log, and in the reports)."""
        return []

    # --- narration: a record told in words (arena/narration.py, `arena replay`); games may
    # say more in these hooks ---

    def narrate_step(
        self, state: GameState, decision: Decision, move: Move, who: Callable[[int], str]
    ) -> list[str]:
        """One decision in words (and what follows from it at once), told in the state
        before its move."""
        return [f"Turn {state.turn + 1:>3}: {who(decision.seat)} {state.describe_move(move)}"]

    def narrate_after(
        self, state: GameState, move: Move, turn_before: int, who: Callable[[int], str]
    ) -> list[str]:
        """What the engine did by itself after a move (e.g. passes), told in the state after."""
        return []

    def narrate_end(self, state: GameState, names: list[str]) -> list[str]:
        """The final position in a few lines, before the result; none here."""
        return []
