"""A bot's stderr: drained by a thread into its own size-capped log file, tail kept in memory."""

from __future__ import annotations

import os
import re
import select
import threading
from pathlib import Path

from arena.bounded import visible

TAIL_BYTES = 16384
"""How much of the latest stderr output is kept for error messages (a Rust backtrace fits)."""

END_BYTES = 1 << 16
"""Of a log over its cap, how much of the end is kept (written when the log closes)."""

DECISION_BYTES = 4096
"""Of what a bot writes to stderr during one decision, how much its game record keeps."""
GAME_BYTES = 32768
"""Of what a bot writes to stderr during one game, how much its game record keeps."""
PUMP_READS = 4
"""Reads of the stderr pipe a decision makes before it starts (each up to 64 KiB)."""

ERROR_MARK = re.compile(
    r"panicked at|Traceback \(most recent call last\)|Exception|Error|error:|fatal|"
    r"Segmentation fault|Aborted|terminate called",
    re.IGNORECASE,
)
"""A line that starts an error report: the place a crash summary quotes from."""


class StderrLog:
    """The stderr log of one bot, shared by every process the bot runs (restarts append).

    At most `cap` bytes are written to `path` over the log's whole life: its start as it
    comes, and its last `END_BYTES` (within the cap) when the log closes, after a line
    saying how much was dropped in between. The last `TAIL_BYTES` are always kept for
    error messages.
    """

    def __init__(self, path: Path | None, cap: int) -> None:
        self.path = path
        self.cap = cap
        self.written = 0
        self.dropped = 0
        self._file = None
        self._tail = bytearray()
        self._end = bytearray()
        """The latest output once the start has filled the cap less END_BYTES."""
        self._lock = threading.Lock()
        self._decision: tuple[str, int] | None = None
        """The game and request in progress: what the bot writes now belongs to it."""
        self._marked: tuple[str, int] | None = None
        self._captured: dict[int, bytearray] = {}
        self._captured_game: str | None = None
        self._captured_bytes = 0
        self._fd: int | None = None
        """The stderr pipe being drained (non-blocking), so a decision can take what is in it."""
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._file = path.open("ab", buffering=0)

    def note(self, text: str) -> None:
        """A line from the referee in the log (e.g. which process started), not in the tail."""
        self._write(f"[arena] {text}\n".encode(), keep_tail=False)

    def begin_decision(self, game_id: str, request: int) -> None:
        """What the bot writes to stderr from now on belongs to this decision: the log file
        gets a line `[arena] game G, decision N` before it, and the game record keeps it.

        What is already in the pipe was written before this request was sent, so it is
        taken first, for the decision before (a bot writes its stderr before its reply).
        """
        self.pump()
        self._decision = (game_id, request)

    def pump(self) -> None:
        """Take now what the bot has written to stderr and the drain thread has not read
        (at most PUMP_READS reads: a bot that never stops writing cannot hold the referee)."""
        with self._lock:
            fd = self._fd
            if fd is None:
                return
            for _ in range(PUMP_READS):
                try:
                    chunk = os.read(fd, 1 << 16)
                except OSError:  # BlockingIOError: nothing waiting
                    return
                if not chunk:
                    return
                self._write_locked(chunk, keep_tail=True)

    def take_decisions(self, game_id: str) -> dict[int, str]:
        """The stderr text the bot wrote during each decision (by request) of `game_id`,
        capped (DECISION_BYTES, GAME_BYTES); forgotten once taken."""
        self.pump()
        with self._lock:
            if self._captured_game != game_id:
                return {}
            taken = {
                n: bytes(text).decode("utf-8", "replace") for n, text in self._captured.items()
            }
            self._captured = {}
            self._captured_bytes = 0
            return taken

    def drain(self, fd: int) -> threading.Thread:
        """Start a daemon thread that copies `fd` here until end of file, then closes it."""
        thread = threading.Thread(target=self._drain, args=(fd,), name=f"stderr-{fd}", daemon=True)
        thread.start()
        return thread

    def tail(self, lines: int = 5) -> str:
        """The last few non-empty lines written by the bot, joined with ' | '."""
        kept = self._lines()
        return " | ".join(kept[-lines:])

    def summary(self, lines: int = 5) -> str:
        """What a crash reason quotes: the start of the error report (a Rust panic's message
        sits above its backtrace) and the last lines; the last lines when there is none."""
        kept = self._lines()
        first = next((i for i, line in enumerate(kept) if ERROR_MARK.search(line)), None)
        if first is None or first >= len(kept) - lines:
            return " | ".join(kept[-lines:])
        head = kept[first : first + 3]
        rest = kept[max(first + 3, len(kept) - 2) :]
        return " | ".join([*head, *(["..."] if first + 3 < len(kept) - 2 else []), *rest])

    def _lines(self) -> list[str]:
        """The tail's non-empty lines, each safe to print (a crash reason quotes them)."""
        with self._lock:
            text = bytes(self._tail).decode("utf-8", "replace")
        return [visible(line.strip()) for line in text.splitlines() if line.strip()]

    def clear_tail(self) -> None:
        """Forget the tail (at a process start, so messages quote only the current process)."""
        with self._lock:
            self._tail.clear()

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                if self.dropped:
                    self._file.write(
                        f"\n[arena] log cap reached: {self.dropped} bytes dropped here; "
                        f"the last {len(self._end)} bytes follow\n".encode()
                    )
                self._file.write(bytes(self._end))
                self._file.close()
                self._file = None

    def _capture(self, decision: tuple[str, int], data: bytes) -> None:
        """Keep `data` for the game record, within the caps (the lock is held)."""
        game_id, request = decision
        if self._captured_game != game_id:
            self._captured_game, self._captured, self._captured_bytes = game_id, {}, 0
        text = self._captured.setdefault(request, bytearray())
        room = min(DECISION_BYTES - len(text), GAME_BYTES - self._captured_bytes)
        if room > 0:
            text += data[:room]
            self._captured_bytes += min(room, len(data))

    def _drain(self, fd: int) -> None:
        os.set_blocking(fd, False)
        with self._lock:
            self._fd = fd
        poller = select.poll()  # not select(): no limit on the descriptor's number
        poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        try:
            while True:
                try:
                    poller.poll()
                except OSError:
                    return
                with self._lock:
                    try:
                        chunk = os.read(fd, 1 << 16)
                    except BlockingIOError:
                        continue  # `pump` took it first
                    except OSError:
                        return
                    if not chunk:
                        return
                    self._write_locked(chunk, keep_tail=True)
        finally:
            with self._lock:
                if self._fd == fd:
                    self._fd = None
                os.close(fd)

    def _write(self, data: bytes, keep_tail: bool) -> None:
        with self._lock:
            self._write_locked(data, keep_tail)

    def _write_locked(self, data: bytes, keep_tail: bool) -> None:
        """Write `data` (the lock is held): into the tail, the record, the log file."""
        if keep_tail:
            self._tail += data
            if len(self._tail) > TAIL_BYTES:
                del self._tail[: len(self._tail) - TAIL_BYTES]
            decision = self._decision
            if decision is not None:
                self._capture(decision, data)
                if decision != self._marked:
                    self._marked = decision
                    data = f"[arena] game {decision[0]}, decision {decision[1]}\n".encode() + data
        if self._file is None:
            return
        reserve = min(END_BYTES, self.cap // 4)
        room = self.cap - reserve - self.written
        part = data[: max(room, 0)]
        if part:
            self._file.write(part)
            self.written += len(part)
        rest = data[len(part) :]
        if rest:  # past the start: keep the latest `reserve` bytes for the end
            self._end += rest
            if len(self._end) > reserve:
                self.dropped += len(self._end) - reserve
                del self._end[: len(self._end) - reserve]
