"""High card: a tiny game for 2 to 4 seats, used only by the tests (a double for Flowers).

Each seat is dealt `hand_size` cards from the numbers 1..52, shuffled by the seed. In turn,
each seat plays one card of its hand; the played cards are public. When every hand is
empty the game ends: the highest total wins, equal totals share a rank. Action codes are
the card numbers, the same move in every state. Importing this module registers the game
(set ARENA_GAME_MODULES=tests.games.highcard for an arena in another process).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar, Self

from arena.errors import GameError, IllegalMoveError
from arena.game_sources import register_game
from arena.games import Decision, Game, GameState, Move, View
from arena.games.move_fields import int_field, move_object
from arena.outcome import Outcome, Termination

CARDS = 52
END = "hands_played"


class HighCardState(GameState):
    def __init__(self, hands: list[list[int]], turn_limit: int) -> None:
        self.num_players = len(hands)
        self.hands = hands
        self.played: list[list[int]] = [[] for _ in hands]
        self.turns = 0
        self.turn_limit = turn_limit

    @property
    def turn(self) -> int:
        return self.turns

    def _seat(self) -> int:
        return self.turns % self.num_players

    def is_over(self) -> bool:
        return self.turns >= self.turn_limit or not any(self.hands)

    def decision(self) -> Decision | None:
        return None if self.is_over() else Decision(self._seat(), "play")

    def legal_actions(self) -> list[int]:
        return [] if self.is_over() else sorted(self.hands[self._seat()])

    def apply_action(self, action: int) -> None:
        seat = self._seat()
        self.hands[seat].remove(action)
        self.played[seat].append(action)
        self.turns += 1

    def action_to_move(self, action: int) -> Move:
        return {"card": action}

    def move_to_action(self, move: Any) -> int:
        card = int_field(move_object(move).get("card"), "card", 1, CARDS)
        if self.is_over():
            raise IllegalMoveError("The game is over; no card can be played.")
        if card not in self.hands[self._seat()]:
            raise IllegalMoveError(f"You do not hold card {card}.")
        return card

    def copy(self) -> Self:
        other = type(self)([list(hand) for hand in self.hands], self.turn_limit)
        other.played = [list(pile) for pile in self.played]
        other.turns = self.turns
        return other

    def view(self, seat: int) -> View:
        return {
            "seat": seat,
            "turn": self.turns,
            "hand": sorted(self.hands[seat]),
            "hand_sizes": [len(hand) for hand in self.hands],
            "played": [list(pile) for pile in self.played],
        }

    def spectator_view(self) -> View:
        view = self.view(0)
        del view["seat"], view["hand"]
        view["hands"] = [sorted(hand) for hand in self.hands]
        return view

    def scores(self) -> tuple[int, ...]:
        return tuple(sum(pile) for pile in self.played)

    def outcome(self) -> Outcome:
        if not self.is_over():
            raise GameError("The game is not over yet, so it has no result.")
        scores = self.scores()
        ranks = tuple(sum(other > mine for other in scores) for mine in scores)
        if any(self.hands):
            termination, end, reason = Termination.TURN_LIMIT, None, "The turn limit came."
        else:
            termination, end, reason = Termination.NORMAL, END, "Every card was played."
        return Outcome(scores=scores, ranks=ranks, termination=termination, reason=reason, end=end)


class HighCardGame(Game):
    name: ClassVar[str] = "highcard"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    default_players: ClassVar[int | None] = 3
    default_config: ClassVar[Mapping[str, Any]] = {"hand_size": 5, "turn_limit": 1000}
    option_help: ClassVar[Mapping[str, str]] = {"hand_size": "cards dealt to each seat"}
    decision_kinds: ClassVar[tuple[str, ...]] = ("play",)

    def new_state(
        self, seed: int, config: Mapping[str, Any] | None = None, num_players: int = 2
    ) -> HighCardState:
        settings = self.config(config)
        if not self.min_players <= num_players <= self.max_players:
            raise GameError(f"highcard is for 2 to 4 players, not {num_players}.")
        deck = list(range(1, CARDS + 1))
        random.Random(seed).shuffle(deck)
        size = settings["hand_size"]
        hands = [deck[seat * size : (seat + 1) * size] for seat in range(num_players)]
        return HighCardState(hands, settings["turn_limit"])


register_game(HighCardGame.name, HighCardGame)
