"""The human seat's page as the browser tests read it: what it asks now, each decision in
turn, and a pace for bots that wait until the board shows each move (fakebot.py --pace)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from arena.players.manifest import BotManifest
from tests.browser_support import until
from tests.referee_support import fake_bot

NOW = """
const legal = document.getElementById("legal");
if (legal) return ["asked", legal.getAttribute("data-request"), document.body.getAttribute("data-sent"),
  [...legal.querySelectorAll("li")].map((item) => item.getAttribute("data-targets") || ""),
  document.querySelector("#board .spot") !== null];
if (document.getElementById("replay-link")) return ["over"];
return null;
"""
"""The page's state in one reading: ["asked", request, the request sent, each legal move's
board targets, whether a Takenoko plot waits to be placed], ["over"], or null."""


def asked_now(browser: Any, request: str) -> bool:
    now = browser.execute_script(NOW)
    return bool(now) and now[0] == "asked" and now[1] == request and now[2] != request


SHOWN = """
const told = document.querySelectorAll("#narration li");
const last = document.querySelector("#board .last-move");
return [told.length, told.length ? told[told.length - 1].textContent : null,
  last ? last.textContent : null, document.querySelector("#board .last") !== null];
"""
"""What the page shows in one reading: the moves narrated, the last one's line, the board's
"Last move: ..." and whether a place on the board is marked as the last move's."""


class Pace:
    """The bots' pace (fakebot.py --pace): each move is made only once the board shows the
    one before it, so the test sees every position of the game, however slow the page is
    (a bot that sleeps a fixed time lets a loaded page miss one). `shown[N]` is what the
    page showed after move N: its narrated line, the board's last move, whether marked."""

    def __init__(self, folder: Path) -> None:
        self.file = folder / "pace"
        self.shown: dict[int, tuple[str, str | None, bool]] = {}
        self._let = -1

    def __call__(self, browser: Any) -> None:
        """Read the page; once its board shows the move its narration ends with, let the
        next move be made."""
        moves, line, last, marked = browser.execute_script(SHOWN)
        if not moves:  # the page is open: the first move may be made
            self._let_through(0)
        if not moves or not last or moves in self.shown:
            return
        if last.startswith("Last move: ") and last.endswith(", " + line.split(": ", 1)[1]):
            self.shown[moves] = (line, last, marked)
            self._let_through(moves)

    def _let_through(self, moves: int) -> None:
        """Let the bots make move `moves` + 1."""
        if moves > self._let:
            self._let = moves
            (self.file.parent / "pace.new").write_text(str(moves))
            (self.file.parent / "pace.new").replace(self.file)  # never read half-written


def decisions(browser: Any, pace: Callable[[Any], None] = lambda _: None) -> Iterator[str]:
    """The request of each decision the page asks until the game is over; after each, waits
    until the page has moved on from it (the move the caller made was taken). `pace` is
    given the browser at each look at the page."""

    def look() -> Any:
        now = browser.execute_script(NOW)
        # The pace reads the page after: it sees at least the state `now` came from. Read
        # before, a move drawn between the two readings together with the human's decision
        # went unrecorded (the test clicked, and the board moved on past it).
        pace(browser)
        return now

    while True:
        now = until(look, 60)
        if now[0] == "over":
            pace(browser)
            return
        request = now[1]
        if now[2] == request:  # sent; the next state has not come yet
            until(lambda r=request: (pace(browser), not asked_now(browser, r))[1], 60)
            continue
        yield request
        until(lambda n=now: look() != n, 60)


def paced_bot(tmp: Path, *flags: str) -> tuple[BotManifest, Pace]:
    """A fake bot in `tmp`/paced whose every move waits for its pace (the test's Pace)."""
    bot = fake_bot(tmp, "paced", "--pace", str(tmp / "paced" / "pace"), *flags)
    return bot, Pace(bot.folder)
