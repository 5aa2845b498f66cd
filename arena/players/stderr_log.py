"""A bot's stderr: drained by a thread into its own size-capped log file, tail kept in memory."""

from __future__ import annotations

import os
import threading
from pathlib import Path

TAIL_BYTES = 2048
"""How much of the latest stderr output is kept for error messages."""


class StderrLog:
    """The stderr log of one bot, shared by every process the bot runs (restarts append).

    At most `cap` bytes are written to `path` over the log's whole life; the rest is
    counted and dropped. The last `TAIL_BYTES` are always kept for error messages.
    """

    def __init__(self, path: Path | None, cap: int) -> None:
        self.path = path
        self.cap = cap
        self.written = 0
        self.dropped = 0
        self._file = None
        self._tail = bytearray()
        self._lock = threading.Lock()
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._file = path.open("ab", buffering=0)

    def note(self, text: str) -> None:
        """A line from the referee in the log (e.g. which process started), not in the tail."""
        self._write(f"[arena] {text}\n".encode(), keep_tail=False)

    def drain(self, fd: int) -> threading.Thread:
        """Start a daemon thread that copies `fd` here until end of file, then closes it."""
        thread = threading.Thread(target=self._drain, args=(fd,), name=f"stderr-{fd}", daemon=True)
        thread.start()
        return thread

    def tail(self, lines: int = 5) -> str:
        """The last few non-empty lines written by the bot, joined with ' | '."""
        with self._lock:
            text = bytes(self._tail).decode("utf-8", "replace")
        kept = [line.strip() for line in text.splitlines() if line.strip()]
        return " | ".join(kept[-lines:])

    def clear_tail(self) -> None:
        """Forget the tail (at a process start, so messages quote only the current process)."""
        with self._lock:
            self._tail.clear()

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None

    def _drain(self, fd: int) -> None:
        try:
            while True:
                try:
                    chunk = os.read(fd, 1 << 16)
                except OSError:
                    return
                if not chunk:
                    return
                self._write(chunk, keep_tail=True)
        finally:
            os.close(fd)

    def _write(self, data: bytes, keep_tail: bool) -> None:
        with self._lock:
            if keep_tail:
                self._tail += data
                if len(self._tail) > TAIL_BYTES:
                    del self._tail[: len(self._tail) - TAIL_BYTES]
            if self._file is None:
                return
            room = self.cap - self.written
            if room <= 0:
                self.dropped += len(data)
                return
            part = data[:room]
            self._file.write(part)
            self.written += len(part)
            self.dropped += len(data) - len(part)
            if self.written >= self.cap:
                self._file.write(b"\n[arena] log cap reached; further stderr output is dropped\n")
