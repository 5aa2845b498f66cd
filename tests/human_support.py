"""A game with a human seat run in a thread for the tests, and a client of its page's API."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.human.game import HumanClock, HumanTable, play_human_game
from arena.players.limits import Limits
from arena.players.manifest import BotManifest, resolve_bot
from arena.referee import GameReport


@dataclass
class RunningGame:
    """A game played in a thread: the page's address and, once over, its report."""

    url: str = ""
    result: list[tuple[GameReport, Path]] = field(default_factory=list)
    error: list[BaseException] = field(default_factory=list)
    thread: threading.Thread | None = None

    @property
    def base(self) -> str:
        return self.url.split("/#", 1)[0]

    @property
    def key(self) -> str:
        return self.url.split("#key=", 1)[1]

    def call(self, path: str, body: Any = None, key: str | None = None) -> tuple[int, Any]:
        """(status, JSON) of one request to the page's server."""
        data = None if body is None else json.dumps(body).encode()
        headers = {"X-Seat-Key": self.key if key is None else key}
        request = urllib.request.Request(self.base + path, data=data, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:  # a loaded machine
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def finished(self, seconds: float = 120) -> tuple[GameReport, Path]:
        assert self.thread is not None
        self.thread.join(seconds)
        assert not self.thread.is_alive(), "the game did not end in time"
        assert not self.error, self.error
        return self.result[0]


@contextmanager
def human_game(
    game: str, seats: int, tmp: Path, *, seat: int = 0, seed: int = 7, gone_s: float = 20,
    move_s: float = 120, linger_s: float = 30, open_s: float = 60, bot: BotManifest | None = None,
    config: dict[str, Any] | None = None, limits: Limits | None = None,
) -> Iterator[RunningGame]:  # fmt: skip
    """`human:ann` in `seat` against `bot` (`random` unless given) in the other seats, in a
    thread (`limits`: the bots', Limits() unless given)."""
    who: list[Any] = [bot or resolve_bot("random")] * seats
    who[seat] = "human:ann"
    clock = HumanClock(move_s=move_s, open_s=open_s, gone_s=gone_s, linger_s=linger_s)
    table = HumanTable(seats=who, game=game, config=config or {}, seed=seed, clock=clock,
                       limits=limits or Limits())  # fmt: skip
    running = RunningGame()
    opened = threading.Event()

    def on_open(url: str) -> None:
        running.url = url
        opened.set()

    def play() -> None:
        try:
            running.result.append(play_human_game(table, tmp / "out", on_open))
        except BaseException as error:  # shown by finished()
            running.error.append(error)
            opened.set()

    running.thread = threading.Thread(target=play, daemon=True)
    running.thread.start()
    assert opened.wait(60), "the page was never served"
    yield running
    running.thread.join(linger_s + 30)
