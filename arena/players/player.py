"""A bot as a player: its process starts lazily, persists across games, restarts after a fault."""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from arena import protocol
from arena.errors import BotFaultError, BotStartupError, MalformedReplyError
from arena.players.limits import Limits
from arena.players.manifest import BotManifest
from arena.players.process import BotProcess
from arena.players.ready import launch
from arena.players.run_queue import waited_usec
from arena.players.stderr_log import StderrLog


class Player:
    """A bot as a player: its process starts lazily, persists across games, restarts after a fault."""

    def __init__(
        self,
        manifest: BotManifest,
        limits: Limits | None = None,
        log_dir: Path | None = None,
        *,
        log_name: str | None = None,
        extra_fields: Mapping[str, Any] | None = None,
        broken: str | None = None,
    ) -> None:
        self.manifest = manifest
        self.limits = limits or Limits()
        name = log_name or manifest.name
        self.log = StderrLog(
            None if log_dir is None else Path(log_dir) / f"{name}.stderr.log",
            self.limits.stderr_cap,
        )
        self.broken = broken
        """Why this bot cannot start at all (its build failed, its program is missing): every
        start fails with the first line, and the whole text goes to its log once."""
        self.extra_fields: dict[str, Any] = dict(extra_fields or {})
        """Added to every message sent (`arena check` uses it to test tolerance)."""
        self.process: BotProcess | None = None
        self.hello: protocol.Hello | None = None
        self.starts = 0
        """How many processes have been started (1 + restarts)."""
        self.last_exit_clean: bool | None = None
        """After close(): True if the process exited by itself within the grace period."""
        self._game: str | None = None
        self._oom_kills = 0
        self._closed = False

    @property
    def name(self) -> str:
        return self.manifest.name

    @property
    def running(self) -> bool:
        return self.process is not None and not self.process.closed

    def spawn(self) -> None:
        """Start a process if none is running (no handshake yet); BotStartupError if it can't."""
        if self.running:
            return
        self._closed = False
        if self.broken is not None:
            if not self.starts:
                self.log.note(self.broken)
            self.starts += 1
            first = self.broken.splitlines()[0].rstrip(":")
            raise BotStartupError(f"{first} (the whole text is in its stderr log).")
        self.starts += 1
        self.hello = None
        self._oom_kills = 0
        self.process = BotProcess(
            launch(self.manifest, self.limits), self.log, self.limits.line_cap
        )

    def handshake(self, game: str, players: int, started: float) -> None:
        """Complete `hello` within the start-up deadline counted from `started`."""
        assert self.process is not None
        deadline = started + self.limits.startup_ms / 1000
        try:
            self.hello = self.process.handshake(
                game, players, deadline, self.limits.startup_ms, **self.extra_fields
            )
        except BotStartupError as error:
            explained = BotStartupError(self.process.explain(error))
            self.kill()
            raise explained from None
        self._game = game

    def ready_for(self, game: str) -> bool:
        """True when a running process has completed the handshake for `game`."""
        return self.running and self.hello is not None and self._game == game

    def ensure_started(self, game: str, players: int) -> None:
        """A running, greeted process for `game`; BotStartupError otherwise."""
        if self.ready_for(game):
            return
        self.kill()
        started = time.monotonic()
        self.spawn()
        self.handshake(game, players, started)

    def send(self, message: dict[str, Any], deadline: float) -> None:
        """Send one message (with `extra_fields`); raises the bot's fault."""
        assert self.process is not None
        if self.extra_fields:
            message = {**message, **self.extra_fields}
        self.process.send(protocol.encode(message), deadline)

    def request(self, data: bytes, deadline: float) -> bytes:
        """Send an encoded request and return the reply line; raises the bot's fault."""
        process = self.process
        assert process is not None
        unasked = process.reader.unasked()
        if unasked:
            raise MalformedReplyError(
                f"it wrote {len(unasked)} bytes nobody asked for ({_quote(unasked)}); write "
                "exactly one line per decide, nothing else, and logs to stderr."
            )
        process.send(data, deadline)
        return process.read_line(deadline)

    def read_late(self, deadline: float) -> bytes:
        """A reply that comes after its time ran out (the referee listens a little longer to
        tell a slow bot from a silent one); BotFaultError when none comes by `deadline`."""
        assert self.process is not None
        return self.process.read_line(deadline)

    def cpu_usec(self) -> int | None:
        """CPU time of the running process tree so far in µs (None when not measured)."""
        return None if self.process is None else self.process.spec.cpu_usec()

    def waited_usec(self) -> int | None:
        """How long the bot's processes have waited for a CPU while ready to run, in µs
        (summed over its cgroup's processes, else its own; None when not measured)."""
        if self.process is None:
            return None
        return waited_usec(self.process.spec.pids() or [self.process.pid])

    def out_of_memory(self) -> bool:
        """True when the kernel killed one of this bot's processes for passing its memory
        limit since the last time this was asked (the count lives as long as the process)."""
        if self.process is None:
            return False
        kills = self.process.spec.oom_kills()
        new, self._oom_kills = kills > self._oom_kills, kills
        return new

    def explain(self, error: BotFaultError) -> str:
        """The fault's sentence, with the exit code and stderr tail where they help."""
        return error.args[0] if self.process is None else self.process.explain(error)

    def kill(self) -> None:
        """Kill the process now (after a fault); the next game starts a fresh one."""
        process, self.process = self.process, None
        if process is not None:
            process.kill()

    def close(self) -> None:
        """Say goodbye, let the bot exit, kill its process group. Idempotent."""
        process, self.process = self.process, None  # once, though another thread kills it
        if process is not None:
            process.close(self.limits.grace_ms / 1000)
            self.last_exit_clean = process.exited_by_itself
        if not self._closed:
            self._closed = True
            self.log.close()

    def __enter__(self) -> Player:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _quote(data: bytes) -> str:
    text = data[:60].decode("utf-8", "replace")
    return repr(text + ("..." if len(data) > 60 else ""))
