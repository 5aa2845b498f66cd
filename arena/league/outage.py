"""A database that keeps failing, told in the log once, then once a minute (the league's
table loop and its recording go on and try again)."""

from __future__ import annotations

import logging
import math
import time

from arena.league.database import said


class Outage:
    """A database that keeps failing (a server away, a disk full or turned read-only), told in
    the log once in a sentence and then at most once every `every_s`, never a traceback each
    time the league tries again. A quiet spell of twice `every_s` ends an outage."""

    def __init__(self, log: logging.Logger, every_s: float = 60.0) -> None:
        self.log = log
        self.every_s = every_s
        self.began = self.told = self.last = -math.inf
        self.tries = 0

    def failed(self, what: str, error: BaseException) -> None:
        """`what` (a sentence's start: what the league could not do) failed with `error`."""
        now = time.monotonic()
        if now - self.last > 2 * self.every_s:  # a new outage
            self.began = self.told = now
            self.tries = 0
            self.log.error("%s: %s; the league goes on and tries again", what, said(error))
            self.log.debug("%s", what, exc_info=error)
        elif now - self.told >= self.every_s:
            self.told = now
            self.log.error(
                "the league's database still fails (for %.0f s, %d tries): %s: %s",
                now - self.began,
                self.tries,
                what,
                said(error),
            )
        self.last = now
        self.tries += 1
