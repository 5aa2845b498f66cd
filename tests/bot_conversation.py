"""A bundled bot run as a real subprocess, and a line-by-line protocol conversation with it.

Shared by the bot tests, which script the conversation themselves (not through the
referee). The wait is only a safety net against a hung bot, never a speed requirement.
"""

from __future__ import annotations

import json
import os
import selectors
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

WAIT_S = 60.0


def _bot_env() -> dict[str, str]:
    """The tests' environment without the games they register for the arena's own process
    (tests/conftest.py's ARENA_GAME_MODULES names a module of tests/, which a bot started in
    its folder cannot import): the referee gives a bot none of the arena's variables either."""
    return {name: value for name, value in os.environ.items() if name != "ARENA_GAME_MODULES"}


class BotConversation:
    """One bot process: `send` a message, `receive` its reply line, `goodbye`, `kill`."""

    def __init__(self, folder: Path, argv: list[str] | None = None) -> None:
        manifest = tomllib.loads((folder / "bot.toml").read_text())
        if argv is None:
            command = manifest["command"]
            argv = shlex.split(command) if isinstance(command, str) else list(command)
        if argv[0] in ("python", "python3"):
            argv = [sys.executable, *argv[1:]]  # the arena's own interpreter, as the referee does
        self.name: str = manifest["name"]
        self.proc = subprocess.Popen(
            argv,
            cwd=folder,
            env=_bot_env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
        )
        assert self.proc.stdout is not None
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.proc.stdout, selectors.EVENT_READ)

    def send(self, message: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def receive(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        if not self.selector.select(WAIT_S):
            raise AssertionError(f"{self.name} did not answer within {WAIT_S} s")
        line = self.proc.stdout.readline()
        assert line.endswith("\n"), f"{self.name} closed its output or sent no newline"
        reply = json.loads(line)
        assert isinstance(reply, dict)
        return reply

    def goodbye(self) -> int:
        """Say goodbye and return the bot's exit status."""
        self.send({"type": "goodbye"})
        return self.proc.wait(WAIT_S)

    def kill(self) -> None:
        """Kill the process if it is still running and close the pipes (idempotent)."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None and not stream.closed:
                stream.close()
        self.selector.close()
