"""One running bot process: start, handshake, send a message, await a line, and teardown.

The process runs in its own session and process group; teardown is polite first (goodbye,
close its input, a grace period), then SIGKILL to the whole group, so nothing it started
outlives it. Every failure is raised as a `BotFaultError` subclass with a sentence.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from typing import Any

from arena import protocol
from arena.errors import BotCrashError, BotFaultError, BotStartupError, BotTimeoutError
from arena.players.framing import LineReader, LineWriter
from arena.players.launch import LaunchSpec, start_process
from arena.players.stderr_log import StderrLog

EXIT_WAIT_S = 0.05
"""How long to wait for an exit code after a bot closed its output (for the reason)."""


class BotProcess:
    """A bot's process and its two pipes; stderr goes to `log` through a drain thread."""

    def __init__(self, spec: LaunchSpec, log: StderrLog, line_cap: int) -> None:
        self.spec = spec
        self.log = log
        log.clear_tail()
        read_end, write_end = os.pipe()
        try:
            self.process = start_process(spec, stderr=write_end)
        except OSError as error:
            os.close(read_end)
            for hook in spec.teardown:
                hook()
            raise BotStartupError(
                f"the command {spec.argv[0]!r} could not be started in {spec.cwd}: "
                f"{error.strerror or error}; check `command` in bot.toml."
            ) from None
        finally:
            os.close(write_end)
        log.note(f"started pid {self.process.pid}: {' '.join(spec.argv)}")
        for note in spec.notes:
            log.note(note)
        self._drainer = log.drain(read_end)
        assert self.process.stdin is not None and self.process.stdout is not None
        self.reader = LineReader(self.process.stdout.fileno(), line_cap)
        self.writer = LineWriter(self.process.stdin.fileno())
        self.closed = False
        self.exited_by_itself: bool | None = None
        """After close(): True if the process exited within the grace, False if killed."""

    @property
    def pid(self) -> int:
        return self.process.pid

    def handshake(
        self, game: str, players: int, deadline: float, limit_ms: int, **extra: Any
    ) -> protocol.Hello:
        """Send `hello` and read the bot's by `deadline`; BotStartupError otherwise."""
        try:
            self.writer.write(protocol.encode(protocol.hello(game, players, **extra)), deadline)
            return protocol.parse_hello(self.reader.read_line(deadline))
        except BotTimeoutError as error:
            raise BotStartupError(
                f"it did not answer hello within {limit_ms} ms of starting: {error}"
            ) from None
        except BotCrashError:
            raise BotStartupError("it exited before answering hello.") from None
        except BotFaultError as error:
            raise BotStartupError(f"its answer to hello is wrong: {error}") from None

    def send(self, data: bytes, deadline: float) -> None:
        """Write one encoded message (see protocol.encode)."""
        self.writer.write(data, deadline)

    def read_line(self, deadline: float) -> bytes:
        """The bot's next line; raises its fault (timeout, crash, oversized output)."""
        try:
            return self.reader.read_line(deadline)
        except BotTimeoutError:
            if self._output_closed():
                raise BotCrashError("it closed its output.") from None
            raise

    def _output_closed(self) -> bool:
        """True when no process of the bot but bubblewrap's own holds its stdout any more.

        Under bubblewrap a bot that closes stdout gives no end of file (bubblewrap's
        processes keep a copy of the pipe), so on a timeout the bot's processes are asked.
        """
        pids = self.spec.pids()
        if not pids:
            return False
        pipe = f"pipe:[{os.fstat(self.reader.fd).st_ino}]"
        for pid in pids:
            try:
                if os.path.basename(os.readlink(f"/proc/{pid}/exe")) == "bwrap":
                    continue
                for fd in os.listdir(f"/proc/{pid}/fd"):
                    if os.readlink(f"/proc/{pid}/fd/{fd}") == pipe:
                        return False
            except FileNotFoundError:
                continue  # it has just exited
            except OSError:
                return False  # not ours to read: it may hold the pipe
        return True

    def explain(self, error: BotFaultError) -> str:
        """The error's sentence, with the exit code and stderr tail when the bot crashed."""
        text = str(error)
        if isinstance(error, BotCrashError | BotStartupError):
            code = self._wait_exit(EXIT_WAIT_S)
            if code is not None:
                text = text.rstrip(".") + f" (exit code {_exit_text(code)})."
            self._drainer.join(EXIT_WAIT_S)
            said = self.log.summary()
            if said:
                text += f" Its stderr: {said}"
        return text

    def kill(self) -> None:
        """SIGKILL the whole process group now and reap the process (idempotent)."""
        if self.closed:
            return
        self.closed = True
        self._killpg()
        self._reap()

    def close(self, grace_s: float) -> None:
        """Say goodbye, wait up to `grace_s` for the exit, then kill the group (idempotent)."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(BotFaultError, OSError):
            self.writer.write(protocol.encode(protocol.goodbye()), time.monotonic() + grace_s)
        with contextlib.suppress(OSError):
            self.process.stdin.close()  # type: ignore[union-attr]
        self.exited_by_itself = self._wait_exit(grace_s) is not None
        self._killpg()  # also every process the bot started, even after a clean exit
        self._reap()

    def _wait_exit(self, timeout_s: float) -> int | None:
        """The exit code once the process has exited, without reaping it; None on timeout.

        Not reaping keeps the process group's id reserved, so a later killpg cannot reach
        an unrelated process that happens to get the same number.
        """
        if self.process.returncode is not None:
            return self.process.returncode
        deadline = time.monotonic() + timeout_s
        pause = 0.0005
        while True:
            try:
                info = os.waitid(os.P_PID, self.process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                return self.process.returncode
            if info is not None and info.si_pid:
                if info.si_code == os.CLD_EXITED:
                    return info.si_status
                return -info.si_status
            if time.monotonic() >= deadline:
                return None
            time.sleep(pause)
            pause = min(pause * 2, 0.01)

    def _killpg(self) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        for hook in self.spec.teardown:  # the sandbox's cgroup: grandchildren that left the group
            hook()

    def _reap(self) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(1.0)
        for stream in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
        self._drainer.join(0.2)
        code = self.process.returncode
        self.log.note(f"pid {self.process.pid} ended (exit code {_exit_text(code)})")


def _exit_text(code: int | None) -> str:
    if code is None:
        return "unknown"
    if code < 0:
        with contextlib.suppress(ValueError):
            return f"{code}, killed by {signal.Signals(-code).name}"
    return str(code)
