"""How a game ended: one enum of every termination, and the result of a finished game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Termination(StrEnum):
    """Every way a game can end, for any game: its own end, the turn limit, or a bot's fault.

    The game's own reason for a normal end (Mandala: the deck ran out, a sixth River
    colour, a stall) is the Outcome's `end`, a word the game defines.
    """

    NORMAL = "normal"
    """The game ended by its own rules (why: `Outcome.end`)."""
    TURN_LIMIT = "turn_limit"
    """The game reached the turn limit and was scored as it stood."""
    TIMEOUT = "timeout"
    """A bot did not answer within its time limit."""
    CRASH = "crash"
    """A bot's process exited or closed its output during the game."""
    ILLEGAL_MOVE = "illegal_move"
    """A bot chose a move the rules do not allow."""
    MALFORMED_REPLY = "malformed_reply"
    """A bot's reply was not JSON, or JSON of the wrong shape."""
    OVERSIZED_OUTPUT = "oversized_output"
    """A bot wrote a line longer than the line cap."""
    STARTUP_FAILURE = "startup_failure"
    """A bot could not be started or did not complete the handshake."""

    @property
    def is_normal(self) -> bool:
        """True for the ends the game itself produces; False when a bot is at fault."""
        return self in (Termination.NORMAL, Termination.TURN_LIMIT)


def competition_ranks(keys: Sequence[Any]) -> tuple[int, ...]:
    """Ranks from 0 by `keys`, higher first; equal keys share a rank and the next rank is
    skipped (keys 30, 30, 12 rank 0, 0, 2)."""
    return tuple(sum(other > mine for other in keys) for mine in keys)


OLD_ENDS = ("deck_exhausted", "sixth_river_colour")
"""Terminations of records and logs before the game-neutral enum: Mandala's own ends, read
as `normal` with that end."""


def read_termination(value: str, end: str | None = None) -> tuple[Termination, str | None]:
    """(termination, end) of a stored value, old Mandala ends mapped to `normal`.

    Raises ValueError (with the known values) for a termination this arena does not know.
    """
    if value in OLD_ENDS:
        return Termination.NORMAL, end or value
    try:
        return Termination(value), end
    except ValueError:
        known = ", ".join(t.value for t in Termination)
        raise ValueError(f"unknown termination {value!r} (known: {known})") from None


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game, for any number of players."""

    scores: tuple[int, ...]
    """Each seat's score, by seat."""
    ranks: tuple[int, ...]
    """Each seat's place, by seat: 0 is first; equal ranks are a tie (a draw when all are equal)."""
    termination: Termination
    """Why the game ended."""
    reason: str
    """A sentence a person can read, e.g. 'seat 1 timed out after 1000 ms'."""
    faulty_seat: int | None = None
    """The seat whose bot caused the end, for the terminations that are a bot's fault."""
    end: str | None = None
    """The game's own reason for a normal end, a word it defines (e.g. "deck_exhausted")."""
    details: dict[str, Any] = field(default_factory=dict)
    """Game-specific extras (for Mandala: each seat's Cup size, the tie-break)."""

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats ranked first."""
        return tuple(seat for seat, rank in enumerate(self.ranks) if rank == 0)

    @property
    def is_draw(self) -> bool:
        """True when every seat shares first place."""
        return len(set(self.ranks)) == 1

    def to_json(self) -> dict[str, Any]:
        """JSON-friendly form, as written in game records and sent to bots."""
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winner": self.winners[0] if len(self.winners) == 1 else None,
            "termination": self.termination.value,
            "end": self.end,
            "reason": self.reason,
            "faulty_seat": self.faulty_seat,
            "details": self.details,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        """Inverse of to_json (records from before the game-neutral terminations load too)."""
        termination, end = read_termination(data["termination"], data.get("end"))
        return cls(
            scores=tuple(data["scores"]),
            ranks=tuple(data["ranks"]),
            termination=termination,
            reason=data["reason"],
            faulty_seat=data.get("faulty_seat"),
            details=dict(data.get("details", {})),
            end=end,
        )
