"""A game's positions as the arena sees them: `GameState` (one position, with its rules),
`Decision`, and moves and views as JSON-friendly data (`Move`, `View`).

The lowest part of the game interface (arena/games/base.py tells the contract of action
codes): modules that only need a state (chance.py) import it from here, below `Game`,
whose hooks name the higher parts (determinizers, learning).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Self

from arena import compact_json
from arena.outcome import Outcome

Move = dict[str, Any]
"""A move as JSON-friendly data, e.g. {"action": "claim", "colour": "purple"}."""

View = dict[str, Any]
"""What one seat may see of a state, as JSON-friendly data."""


@dataclass(frozen=True)
class Decision:
    """Who must decide next, and what kind of decision it is."""

    seat: int
    """The seat that must decide."""
    kind: str
    """The kind of decision, a name the game defines (Mandala: "turn" or "claim")."""


class GameState(ABC):
    """One position of a game, with its rules. Mutable: `apply_action` changes it in place."""

    num_players: int

    @abstractmethod
    def decision(self) -> Decision | None:
        """Who must decide next and what kind of decision; None once the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """The legal moves as action codes, in a fixed order (the order of `legal_moves`)."""

    @abstractmethod
    def apply_action(self, action: int) -> None:
        """Play a legal action. The caller guarantees legality (see `move_to_action`)."""

    @abstractmethod
    def action_to_move(self, action: int) -> Move:
        """The JSON-friendly move for an action code."""

    @abstractmethod
    def move_to_action(self, move: Any) -> int:
        """Check a move against the rules and return its action code.

        Raises MoveFormatError when the move is not well formed, and IllegalMoveError with
        a sentence saying exactly what rule it breaks when it is well formed but not legal.
        """

    @abstractmethod
    def copy(self) -> Self:
        """An independent copy, cheap enough to make thousands of times per decision."""

    @abstractmethod
    def view(self, seat: int) -> View:
        """Everything `seat` may know, and nothing more (Mandala: ruling R14)."""

    @abstractmethod
    def spectator_view(self) -> View:
        """Everything, hidden information included (every hand, the deck): for replays and
        the replay viewer, never for a bot."""

    def public_view(self) -> View | None:
        """What every seat sees and no seat alone: the table, counts of hidden things (hand
        sizes, never the cards), for spectators of a game in progress. Made by the game, not
        as an intersection of the seats' views (two hands that happen to be equal would
        show). None for a game that does not say: its spectators see nothing until the end."""
        return None

    def cards_met(self) -> list[list[str]] | None:
        """For a page that draws the game: each seat's cards met as the position stands
        (Takenoko's objectives), or None for a game without such cards."""
        return None

    def view_json(self, seat: int) -> str:
        """`view(seat)` as compact JSON text; games may override it with a faster encoder."""
        return compact_json.dumps(self.view(seat))

    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """Each seat's score as the position stands (for games a bot's fault cuts short)."""

    @abstractmethod
    def is_over(self) -> bool:
        """True once the game has ended."""

    @abstractmethod
    def outcome(self) -> Outcome:
        """The result of a finished game. Raises GameError if the game is not over."""

    @property
    @abstractmethod
    def turn(self) -> int:
        """How many turns have been played."""

    def legal_moves(self) -> list[Move]:
        """The legal moves as JSON-friendly dicts."""
        return [self.action_to_move(a) for a in self.legal_actions()]

    def apply_move(self, move: Any) -> None:
        """Check a JSON-friendly move and play it (raises like `move_to_action`)."""
        self.apply_action(self.move_to_action(move))

    def describe_move(self, move: Move) -> str:
        """A short human description of a move, for replays and logs."""
        return str(move)
