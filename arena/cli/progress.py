"""What `arena run` shows on stderr as it goes: the progress of its games (a bar on a
terminal, a line now and then otherwise) and the steps of writing its results."""

from __future__ import annotations

import sys
import time
from typing import IO

ESTIMATE_AFTER, ESTIMATE_AFTER_S = 0.05, 30.0
"""Time left is shown once 5% of the run's games are played or 30 s have passed (the first
games alone gave estimates like '1:15:32 left' for a run of minutes)."""


class Progress:
    """Games done of total, games per second and time left, on stderr.

    On a terminal one line is redrawn in place (at most ten times a second); otherwise a
    plain line is printed every `plain_every_s` seconds and at the end.
    """

    def __init__(
        self,
        total: int,
        stream: IO[str] | None = None,
        plain_every_s: float = 10.0,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.tty = self.stream.isatty()
        self.total = total
        self.done = 0
        self.played = 0
        self.started = time.monotonic()
        self.every = 0.1 if self.tty else plain_every_s
        self.last = float("-inf")
        self.drawn = -1
        self.width = 30

    def update(self, done: int, total: int, played: int) -> None:
        """`done` of `total` games are logged, `played` of them since this run started."""
        self.done, self.total, self.played = done, total, played
        now = time.monotonic()
        if now - self.last >= self.every or done >= total:
            self.last = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        self.drawn = self.done
        elapsed = max(now - self.started, 1e-9)
        rate = self.played / elapsed
        left = (self.total - self.done) / rate if rate > 0 else float("nan")
        fraction = self.done / self.total if self.total else 1.0
        to_play = self.total - self.done + self.played  # what this run started with
        known = self.played >= ESTIMATE_AFTER * to_play or elapsed >= ESTIMATE_AFTER_S
        estimate = f"{_clock(left)} left" if known and self.played else "time left: estimating"
        text = (
            f"{self.done}/{self.total} games {100 * fraction:5.1f}%  "
            f"{rate:6.1f} games/s  {estimate}"
        )
        if self.tty:
            filled = int(self.width * fraction)
            bar = "█" * filled + "·" * (self.width - filled)
            self.stream.write(f"\r{bar} {text}\x1b[K")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def note(self, text: str) -> None:
        """A warning on a line of its own, above the bar on a terminal."""
        self.stream.write(("\r\x1b[K" if self.tty else "") + f"warning: {text}\n")
        self.stream.flush()
        if self.tty and self.drawn >= 0:
            self._draw(time.monotonic())

    def close(self) -> None:
        if self.played and self.drawn != self.done:
            self._draw(time.monotonic())
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


def _clock(seconds: float) -> str:
    if seconds != seconds or seconds == float("inf"):  # NaN: no rate yet
        return "--:--"
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


class Steps:
    """The steps of writing a run's results, on stderr as they go: each step's name as it
    starts, its time once done (a large run's report takes minutes on a busy machine)."""

    def __init__(self, stream: IO[str] | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.current: str | None = None
        self.started = 0.0

    def __call__(self, step: str) -> None:
        self.close()
        self.current, self.started = step, time.monotonic()
        self.stream.write(f"  {step} ...")
        self.stream.flush()

    def close(self) -> None:
        """The step under way is done."""
        if self.current is not None:
            self.stream.write(f" {time.monotonic() - self.started:.1f} s\n")
            self.stream.flush()
            self.current = None
