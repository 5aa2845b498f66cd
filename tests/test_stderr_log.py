"""A bot's stderr log: the crash summary quotes the error, and the cap keeps start and end."""

from __future__ import annotations

import os
from pathlib import Path

from arena.players.stderr_log import StderrLog

RUST_PANIC = (
    "thinking about move 12\n"
    "thread 'main' panicked at src/main.rs:41:17:\n"
    "index out of bounds: the len is 3 but the index is 7\n"
    "stack backtrace:\n"
    + "".join(f"  {n}: std::rt::lang_start_internal::h{n:016x}\n" for n in range(40))
    + "note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.\n"
)

PYTHON_TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "bot.py", line 50, in <module>\n'
    "    main()\n"
    '  File "bot.py", line 44, in main\n'
    "    move = choose(message)\n"
    "KeyError: 'legal_moves'\n"
)


def _written(text: str, cap: int = 1 << 20, path: Path | None = None) -> StderrLog:
    log = StderrLog(path, cap)
    read_end, write_end = os.pipe()
    drainer = log.drain(read_end)
    os.write(write_end, text.encode())
    os.close(write_end)
    drainer.join(5)
    return log


def test_a_rust_panic_is_quoted_from_its_message_not_its_backtrace() -> None:
    """Issue 9: the panic's message sits above its backtrace and was cut off."""
    said = _written(RUST_PANIC).summary()
    assert said.startswith("thread 'main' panicked at src/main.rs:41:17:")
    assert "index out of bounds: the len is 3 but the index is 7" in said
    assert "RUST_BACKTRACE=full" in said  # and the end, after an ellipsis
    assert "lang_start_internal::h0000000000000020" not in said


def test_a_python_traceback_is_quoted_from_its_start_to_the_exception() -> None:
    said = _written(PYTHON_TRACEBACK).summary()
    assert said.startswith("Traceback (most recent call last):")
    assert said.endswith("KeyError: 'legal_moves'")


def test_output_without_an_error_is_quoted_by_its_last_lines() -> None:
    said = _written("".join(f"line {n}\n" for n in range(10))).summary()
    assert said == "line 5 | line 6 | line 7 | line 8 | line 9"


def test_a_log_over_its_cap_keeps_its_start_and_its_end(tmp_path: Path) -> None:
    """Issue 9: the cap kept the start and dropped the end, where the crash is."""
    path = tmp_path / "bot.stderr.log"
    text = "START\n" + "x" * 50_000 + "\n" + "".join(f"late {n}\n" for n in range(100)) + "END\n"
    log = _written(text, cap=8000, path=path)
    log.close()
    written = path.read_text()
    assert written.startswith("START\n")
    assert written.endswith("late 99\nEND\n")
    assert "log cap reached:" in written and "bytes dropped here" in written
    assert len(written) < 8000 + 200
