"""What the rules' helpers read of a Mandala state (`Position`), named as a Protocol so that
moves.py, views.py and ends.py need not import state.py, which imports them (no import
circle, not even for type hints). `MandalaState` has all of it."""

from __future__ import annotations

from typing import Protocol

from arena.games.base import Decision


class Position(Protocol):
    """A Mandala position as the helpers see it (the fields are `MandalaState`'s)."""

    deck: list[int]
    discard: list[int]
    hands: list[list[int]]
    hand_sizes: list[int]
    cup_setup: list[list[int]]
    cup_claimed: list[list[int]]
    rivers: list[list[int]]
    mountains: list[list[int]]
    fields: list[list[list[int]]]
    current: int
    turns: int
    end_triggered: bool
    over: bool
    destroying: int
    claimer: int
    completed_by: int
    reshuffled: list[list[int]] | None

    def cup(self, seat: int) -> list[int]:
        """The whole Cup of `seat`: its setup cards and what it claimed."""
        ...

    def decision(self) -> Decision | None:
        """Who must decide next, and what kind of decision; None once the game is over."""
        ...
