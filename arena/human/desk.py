"""The desk between the referee's thread and the page: what the human is asked, their answer,
the seat's view as the game stands (it follows every move, the bots' too), the last move,
what they have been told, and when the page last asked. Only the clock decides a seat's
loss: a page that stops asking (a frozen or closed tab) may come back until its clock runs
out; the human may also resign.

Everything here is what the human's seat may know: its view and legal moves exactly as a bot
receives them, the moves narrated in public words (arena/human/narration.py), and, only once
the game is over, the whole game's record. A spectator (`watch`) is told less: the game's
public view (`GameState.public_view`), the moves as a seat of none hears them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from typing import Any

NARRATION_LINES = 400
"""One answer tells the page at most this many narrated lines (it asks again for the rest:
`snapshot(told=N)` sends the lines from the N-th on)."""


class Desk:
    """One human seat's desk; every method is safe to call from any thread."""

    def __init__(self, game: str, players: list[str], seat: int, clock_ms: int) -> None:
        self.game = game
        self.players = players
        self.seat = seat
        self.clock_ms = clock_ms
        self._changed = threading.Condition()
        self._asked: dict[str, Any] | None = None
        self._deadline = 0.0
        self._answer: int | None = None
        self._view: Any = None
        self._last: dict[str, Any] | None = None
        self._resigned = False
        self._narration: list[str] = []
        self._public: dict[str, Any] = {"view": None, "last": None, "narration": []}
        """What a spectator sees (`watch`): the game's public view, the last move and the
        moves told as to a seat of none (another seat's hidden choice without it)."""
        self._outcome: dict[str, Any] | None = None
        self._record: Mapping[str, Any] | None = None
        self._first_seen: float | None = None
        self._last_seen = time.monotonic()
        self._stopped: str | None = None

    # The page's side.
    def seen(self) -> None:
        """The page asked for news: it is open."""
        with self._changed:
            self._last_seen = time.monotonic()
            if self._first_seen is None:
                self._first_seen = self._last_seen
                self._changed.notify_all()

    def snapshot(self, told: int = 0) -> dict[str, Any]:
        """What the page shows now (JSON-ready); the narration from line `told` on (the page
        has the lines before), at most NARRATION_LINES of them."""
        with self._changed:
            asked = self._asked
            told = min(max(told, 0), len(self._narration))
            data: dict[str, Any] = {
                "game": self.game,
                "players": self.players,
                "seat": self.seat,
                "clock_ms": self.clock_ms,
                "view": self._view,
                "last": self._last,
                "told": told,
                "narration": self._narration[told : told + NARRATION_LINES],
                "lines": len(self._narration),
                "over": self._outcome is not None,
                "asked": None,
            }
            if asked is not None and self._answer is None:  # an answered one is gone
                left = max(0, int((self._deadline - time.monotonic()) * 1000))
                data["asked"] = {**asked, "ms_left": left}
            if self._outcome is not None:
                data["outcome"] = self._outcome
                data["replay"] = self._record is not None
            return data

    def watch(self, told: int = 0) -> dict[str, Any]:
        """What a spectator's page shows now (JSON-ready): the public view, never a seat's,
        the narration from line `told` on (at most NARRATION_LINES), the outcome once over."""
        with self._changed:
            lines = self._public["narration"]
            told = min(max(told, 0), len(lines))
            data: dict[str, Any] = {
                "game": self.game,
                "players": self.players,
                "human": self.seat,
                "view": self._public["view"],
                "last": self._public["last"],
                "told": told,
                "narration": lines[told : told + NARRATION_LINES],
                "lines": len(lines),
                "over": self._outcome is not None,
            }
            if self._outcome is not None:
                data["outcome"] = self._outcome
                data["replay"] = self._record is not None
            return data

    def answer(self, request: int, index: int) -> str | None:
        """The human's move for request `request`; a sentence when it cannot be taken."""
        with self._changed:
            asked = self._asked
            if asked is None or asked["request"] != request:
                return "That decision is no longer asked (the page was behind); look again."
            if not 0 <= index < len(asked["legal"]):
                return (
                    f"There is no move {index}: the legal moves are 0 to {len(asked['legal']) - 1}."
                )
            if self._answer is None:
                self._answer = index
                self._changed.notify_all()
            return None

    def resign(self) -> None:
        """The human gives the game up: the decision asked (or the next) is not answered."""
        with self._changed:
            self._resigned = True
            self._changed.notify_all()

    # The referee's side (through arena/human/seat.py).
    def wait_for_page(self, deadline: float) -> bool:
        """Wait until the page has been opened (True), or `deadline` (False)."""
        with self._changed:
            while self._first_seen is None and self._stopped is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(min(left, 0.5))
            return self._stopped is None

    def ask(self, asked: dict[str, Any], deadline: float) -> None:
        """Put a decision before the human: request, kind, view, legal moves in words."""
        with self._changed:
            self._asked, self._deadline, self._answer = asked, deadline, None
            self._view = asked["view"]
            self._changed.notify_all()

    def wait_answer(self) -> int | str:
        """The index chosen, or why none came: 'clock' (the deadline passed: the only way a
        silent page loses), 'resigned' (`resign`) or 'stopped' (`stop`)."""
        with self._changed:
            while self._answer is None:
                if self._stopped is not None:
                    return "stopped"
                if self._resigned:
                    return "resigned"
                now = time.monotonic()
                if now >= self._deadline:
                    return "clock"
                self._changed.wait(min(self._deadline - now, 0.25))
            answer, self._asked = self._answer, None
            return answer

    def stop(self, why: str) -> None:
        """The table is stopped from outside (its server stops): no answer will come."""
        with self._changed:
            self._stopped = why
            self._changed.notify_all()

    @property
    def stopped(self) -> str | None:
        """Why the table was stopped, else None."""
        with self._changed:
            return self._stopped

    def withdraw(self) -> None:
        """No decision is asked any more (answered, timed out, or the game ended)."""
        with self._changed:
            self._asked = None

    def follow(self, view: Any, last: dict[str, Any], told: str) -> None:
        """A move was made: the seat's view as the game now stands, the move as the seat may
        know it ({"seat", "text", "move"}, the move None when it names a hidden thing) and
        its narrated line, together (a snapshot's last line is its last move's)."""
        with self._changed:
            self._view, self._last = view, last
            self._narration.append(told)

    def tell(self, line: str) -> None:
        with self._changed:
            self._narration.append(line)

    def show(self, view: Any, last: dict[str, Any] | None = None, line: str | None = None) -> None:
        """For the spectators: the public view (after a move), the move as a seat of none may
        know it, its narrated line."""
        with self._changed:
            self._public["view"], self._public["last"] = view, last
            if line is not None:
                self._public["narration"].append(line)

    def finish(self, outcome: Mapping[str, Any]) -> None:
        with self._changed:
            self._asked = None
            self._outcome = dict(outcome)

    def publish(self, record: Mapping[str, Any], final_view: Any) -> None:
        """The game's record, written: the page may now open the whole replay, and shows
        the final position with every hand (a spectator's view: the game is over)."""
        with self._changed:
            self._record = record
            self._view = self._public["view"] = final_view

    @property
    def record(self) -> Mapping[str, Any] | None:
        with self._changed:
            return self._record

    def idle_s(self) -> float:
        """Seconds since the page last asked."""
        with self._changed:
            return time.monotonic() - self._last_seen
