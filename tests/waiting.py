"""Waiting in the tests: on an event, with a deadline, never a fixed sleep (issue 48).

`until(condition)` asks `condition()` again and again (every `every` seconds) and returns
its first true value; past `seconds` it fails the test saying what never came. A test that
needs time to pass for the code under test gives that code a clock of its own instead.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def until(
    condition: Callable[[], T | None],
    seconds: float = 60,
    *,
    what: str = "the awaited state",
    every: float = 0.05,
    retry: tuple[type[BaseException], ...] = (),
) -> T:
    """The first true value of `condition()`; AssertionError once `seconds` have passed. An
    exception of a type in `retry` counts as not yet (the last one is chained)."""
    deadline = time.monotonic() + seconds
    failed: BaseException | None = None
    while True:
        try:
            value = condition()
        except retry as error:
            value, failed = None, error
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"{what} did not come within {seconds:g} s") from failed
        time.sleep(every)


class Clock:
    """Stands in for the `time` module where the code under test reads `time.monotonic()`
    (monkeypatch the module's `time` with it): a test moves it with `advance(seconds)`."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def monotonic(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
