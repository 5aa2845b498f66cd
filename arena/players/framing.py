"""Line framing over a bot's pipes: whole lines in, whole lines out, every wait with a deadline.

Both pipe ends are non-blocking. Reading goes through one bytearray with a cap on the line
length that is enforced while reading, so a bot can never make the referee buffer more than
the cap plus one chunk. Writing polls for room, so a bot that stops reading its input
cannot block the referee either.
"""

from __future__ import annotations

import os
import select
import time

from arena.errors import BotCrashError, BotOversizedOutputError, BotTimeoutError

CHUNK = 1 << 16
"""How many bytes one os.read asks for."""

_POLL_IN = select.POLLIN | select.POLLHUP | select.POLLERR
_POLL_OUT = select.POLLOUT | select.POLLHUP | select.POLLERR


def _ms_left(deadline: float) -> int:
    """Milliseconds to `deadline` (monotonic seconds), rounded up; 0 once passed."""
    left = deadline - time.monotonic()
    return 0 if left <= 0 else int(left * 1000) + 1


def _describe_size(size: int) -> str:
    return f"{size / (1 << 20):g} MiB" if size >= 1 << 20 else f"{size} bytes"


class LineReader:
    """Reads `\\n`-terminated lines from a non-blocking fd, with a deadline and a line cap."""

    def __init__(self, fd: int, line_cap: int) -> None:
        os.set_blocking(fd, False)
        self.fd = fd
        self.line_cap = line_cap
        self._buffer = bytearray()
        self._scanned = 0  # bytes of _buffer already known to hold no newline
        self._poll = select.poll()
        self._poll.register(fd, _POLL_IN)

    def unasked(self) -> bytes:
        """Output that arrived (or sits in the pipe) while no reply was asked for, taken out.

        Empty in the usual case, at the cost of one poll with no wait: called before each
        request, so a line written ahead is never taken as the reply to that request.
        """
        if not self._buffer and not self._poll.poll(0):
            return b""
        while len(self._buffer) <= self.line_cap and self._poll.poll(0):
            try:
                chunk = os.read(self.fd, CHUNK)
            except OSError:
                break
            if not chunk:
                break  # end of file: the next read reports the crash
            self._buffer += chunk
        data = bytes(self._buffer)
        self._buffer.clear()
        self._scanned = 0
        return data

    def read_line(self, deadline: float) -> bytes:
        """The next line without its `\\n` (and `\\r`); raises the bot's fault otherwise.

        BotTimeoutError when `deadline` (time.monotonic seconds) passes, BotCrashError at
        end of file, BotOversizedOutputError when a line grows past the cap.
        """
        buffer = self._buffer
        while True:
            end = buffer.find(b"\n", self._scanned)
            if end >= 0:
                if end > self.line_cap:
                    self._oversized()
                line = bytes(buffer[:end])
                del buffer[: end + 1]
                self._scanned = 0
                return line[:-1] if line.endswith(b"\r") else line
            self._scanned = len(buffer)
            if len(buffer) > self.line_cap:
                self._oversized()
            if not self._poll.poll(_ms_left(deadline)):
                if time.monotonic() >= deadline:
                    raise BotTimeoutError(self._timeout_sentence())
                continue
            try:
                chunk = os.read(self.fd, CHUNK)
            except BlockingIOError:
                continue
            except OSError as error:
                raise BotCrashError(f"reading its output failed: {error.strerror}.") from None
            if not chunk:
                raise BotCrashError(self._eof_sentence())
            buffer += chunk

    def _oversized(self) -> None:
        self._buffer.clear()
        self._scanned = 0
        raise BotOversizedOutputError(
            f"it wrote a line longer than the line cap of {_describe_size(self.line_cap)}."
        )

    def _timeout_sentence(self) -> str:
        if self._buffer:
            start = bytes(self._buffer[:60]).decode("utf-8", "replace")
            return (
                f"it wrote {len(self._buffer)} bytes without ending the line ({start!r}); "
                "end every reply with a newline and flush stdout."
            )
        return "nothing arrived; flush stdout after every reply."

    def _eof_sentence(self) -> str:
        if self._buffer:
            return f"it closed its output after {len(self._buffer)} bytes of an unfinished line."
        return "it closed its output."


class LineWriter:
    """Writes whole messages to a non-blocking fd, waiting for room until a deadline."""

    def __init__(self, fd: int) -> None:
        os.set_blocking(fd, False)
        self.fd = fd
        self._poll = select.poll()
        self._poll.register(fd, _POLL_OUT)

    def write(self, data: bytes, deadline: float) -> None:
        """Write all of `data`; BotCrashError if the pipe is closed, BotTimeoutError if full."""
        try:
            written = os.write(self.fd, data)
        except BlockingIOError:
            written = 0
        except (BrokenPipeError, ConnectionResetError):
            written = -1  # the loop below reports the closed pipe
        if written == len(data):
            return  # the usual case: the pipe had room for the whole message
        view = memoryview(data)[max(written, 0) :]
        while view:
            try:
                written = os.write(self.fd, view)
            except BlockingIOError:
                if not self._poll.poll(_ms_left(deadline)) and time.monotonic() >= deadline:
                    raise BotTimeoutError(
                        "it stopped reading its input (the pipe stayed full); read stdin "
                        "line by line."
                    ) from None
                continue
            except (BrokenPipeError, ConnectionResetError):
                raise BotCrashError(
                    "it closed its input (the process has probably exited)."
                ) from None
            view = view[written:]
