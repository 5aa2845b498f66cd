"""Line framing over pipes: whole lines, the line cap while reading, deadlines, closed pipes."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator

import pytest

from arena.errors import BotCrashError, BotOversizedOutputError, BotTimeoutError
from arena.players.framing import LineReader, LineWriter


@pytest.fixture
def pipe() -> Iterator[tuple[int, int]]:
    read_end, write_end = os.pipe()
    yield read_end, write_end
    for fd in (read_end, write_end):
        with contextlib.suppress(OSError):
            os.close(fd)


def soon(seconds: float = 5.0) -> float:
    return time.monotonic() + seconds


def test_lines_split_across_writes_and_crlf(pipe: tuple[int, int]) -> None:
    read_end, write_end = pipe
    reader = LineReader(read_end, 100)
    os.write(write_end, b'{"move":')
    os.write(write_end, b'1}\r\n{"move":2}\n{"mo')
    assert reader.read_line(soon()) == b'{"move":1}'
    assert reader.read_line(soon()) == b'{"move":2}'
    assert reader.unasked() == b'{"mo'  # what is left when no reply is asked for
    assert reader.unasked() == b""


def test_unasked_output_still_in_the_pipe_is_found(pipe: tuple[int, int]) -> None:
    """Issue 9: a line written ahead, not yet read from the pipe, is never a reply."""
    read_end, write_end = pipe
    reader = LineReader(read_end, 100)
    assert reader.unasked() == b""
    os.write(write_end, b'{"move":0}\n')
    assert reader.unasked() == b'{"move":0}\n'
    assert reader.unasked() == b""


def test_a_line_over_the_cap_is_refused_before_it_ends(pipe: tuple[int, int]) -> None:
    read_end, write_end = pipe
    reader = LineReader(read_end, 1000)
    os.write(write_end, b"x" * 5000)  # no newline yet: must not wait for one
    with pytest.raises(BotOversizedOutputError, match="line cap of 1000 bytes"):
        reader.read_line(soon())


def test_a_complete_line_over_the_cap_is_refused(pipe: tuple[int, int]) -> None:
    read_end, write_end = pipe
    reader = LineReader(read_end, 10)
    os.write(write_end, b"0123456789ab\n")
    with pytest.raises(BotOversizedOutputError):
        reader.read_line(soon())


def test_end_of_file_is_a_crash_and_silence_a_timeout(pipe: tuple[int, int]) -> None:
    read_end, write_end = pipe
    reader = LineReader(read_end, 100)
    with pytest.raises(BotTimeoutError, match="nothing arrived"):
        reader.read_line(soon(0.05))
    os.write(write_end, b"half")
    with pytest.raises(BotTimeoutError, match="4 bytes without ending the line"):
        reader.read_line(soon(0.05))
    os.close(write_end)
    with pytest.raises(BotCrashError, match="closed its output after 4 bytes"):
        reader.read_line(soon())


def test_a_full_pipe_is_a_timeout_and_a_closed_one_a_crash(pipe: tuple[int, int]) -> None:
    read_end, write_end = pipe
    writer = LineWriter(write_end)
    with pytest.raises(BotTimeoutError, match="stopped reading its input"):
        writer.write(b"x" * (4 << 20), soon(0.1))
    os.close(read_end)
    with pytest.raises(BotCrashError, match="closed its input"):
        writer.write(b"hello\n", soon())
