"""What the rules' helpers read and change of a Takenoko state (`Position`), named as a
Protocol so that chibis.py, legal.py, scoring.py and views.py need not import state.py,
which imports them (no import circle, not even for type hints). `TakenokoState` has all
of it."""

from __future__ import annotations

from typing import Protocol

from arena.games.base import Decision
from arena.games.takenoko.board import Board
from arena.games.takenoko.objectives import Garden


class Position(Protocol):
    """A Takenoko position as the helpers see it (the fields are `TakenokoState`'s)."""

    num_players: int
    max_rounds: int
    chibis: bool
    redraw_met_objectives: bool
    board: Board
    plot_deck: list[str]
    decks: dict[str, list[str]]
    hands: list[list[str]]
    done: list[list[str]]
    stomachs: list[dict[str, int]]
    reserve_channels: list[int]
    reserve_chips: list[dict[str, int]]
    chip_supply: dict[str, int]
    channel_supply: int
    returned: list[list[str]]
    baby_pool: list[str]
    babies: list[list[str]]
    baby: str | None
    cabin: list[str]
    refunds: dict[str, int]
    current: int
    turns: int
    rolled: bool
    face: str | None
    rolled_face: str | None
    taken: list[str]
    pending: str | None
    drawn: list[str]
    emperor: int | None
    final_turns: int
    over: bool
    end: str | None

    @property
    def round(self) -> int:
        """The round under way, from 1."""
        ...

    def decision(self) -> Decision | None:
        """Who must decide next, and what kind of decision; None once the game is over."""
        ...

    def garden(self) -> Garden:
        """The board as the objective cards read it."""
        ...

    def score(self, seat: int) -> int:
        """`seat`'s points as the position stands."""
        ...

    def action_limit(self) -> int:
        """How many actions the seat to move may take this turn."""
        ...

    def random_below(self, stream: str, n: int) -> int:
        """A number below `n` from the stream `die` or `babies_rng`."""
        ...

    def put_under(self, card: str) -> None:
        """An objective card goes under its own deck (T27, T29)."""
        ...

    def draw_card(self, deck: str) -> str:
        """The top card of the objective deck `deck`, taken off it."""
        ...
