"""The games log, `games.jsonl`: one JSON line per finished game, appended and fsync'ed at once.

The log is the tournament's only source of truth: ratings, tables, charts and resume all
read it. A line is written only when its game has finished, and is on disk before the next
game is logged, so killing the scheduler loses no finished game. Killing it in the middle
of a write can leave a half-written last line; `repair` sets it aside before a resume.

A line holds (keys in this order):
`seq, game_id, round, pair, game, seed, players, scores, ranks, winner, termination, reason,
faulty_seat, turns, decisions, think_ms, duration_ms, worker, finished_at`.
The last four are timing and placement: they differ between runs of the same tournament.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from arena.errors import TournamentError

__all__ = [
    "LOG_NAME",
    "PARTIAL_NAME",
    "TIMING_KEYS",
    "GamesLog",
    "completed_ids",
    "read_games",
    "repair",
]

LOG_NAME = "games.jsonl"
"""The games log's file name inside a run folder."""
PARTIAL_NAME = "games.jsonl.partial"
"""Where a half-written last line is set aside by `repair`."""
TIMING_KEYS = ("think_ms", "duration_ms", "worker", "finished_at")
"""Keys of a line that depend on the machine and the moment, not on the games themselves."""

GameLine = dict[str, Any]

log = logging.getLogger(__name__)


class GamesLog:
    """The games log opened for appending: `append` writes one line and syncs it to disk."""

    def __init__(self, path: Path, *, fsync: bool = True) -> None:
        self.path = path
        self._fsync = fsync
        self._file = path.open("ab")

    def append(self, line: GameLine) -> None:
        """Write one game as one line, flush it and fsync it before returning."""
        data = json.dumps(line, separators=(",", ":"), ensure_ascii=False) + "\n"
        self._file.write(data.encode())
        self._file.flush()
        if self._fsync:
            os.fsync(self._file.fileno())

    def close(self) -> None:
        """Close the file; idempotent."""
        if not self._file.closed:
            self._file.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _parse(raw: bytes, path: Path, number: int) -> GameLine:
    try:
        line = json.loads(raw)
    except ValueError:
        raise TournamentError(
            f"{path}, line {number}, is not valid JSON; "
            "only the last line may be damaged, so the log needs a look by hand."
        ) from None
    if not isinstance(line, dict) or "game_id" not in line:
        raise TournamentError(f"{path}, line {number}, is not a game (no game_id).")
    return line


def read_games(path: Path) -> Iterator[GameLine]:
    """Every complete game in the log, in file order (the order games finished).

    A last line without its newline is a game still being written (or a write cut short):
    it is skipped, never an error, so the log of a running tournament can be read.
    A missing log reads as empty.
    """
    if not path.exists():
        return
    with path.open("rb") as file:
        for number, raw in enumerate(file, start=1):
            if not raw.endswith(b"\n"):
                return
            if raw.strip():
                yield _parse(raw, path, number)


def completed_ids(path: Path) -> set[str]:
    """The ids of the games already in the log."""
    return {line["game_id"] for line in read_games(path)}


def repair(path: Path) -> str | None:
    """Set aside a half-written last line, so the log ends with a complete line.

    The damaged bytes are appended to `games.jsonl.partial` next to the log and cut from the
    log. Returns a warning sentence when something was set aside, None when the log was whole.
    """
    if not path.exists():
        return None
    size = path.stat().st_size
    if size == 0:
        return None
    with path.open("rb+") as file:
        # Find the start of the last line: read backwards in blocks until a newline.
        end = size
        file.seek(size - 1)
        if file.read(1) == b"\n":
            # The last line is complete; check it parses (a torn write never ends in \n,
            # but a crash between write and flush may leave zeros on some filesystems).
            end = size - 1
        start = _last_line_start(file, end)
        file.seek(start)
        tail = file.read(size - start)
        if tail.endswith(b"\n"):
            try:
                json.loads(tail)
                return None
            except ValueError:
                pass
        with (path.parent / PARTIAL_NAME).open("ab") as partial:
            partial.write(tail if tail.endswith(b"\n") else tail + b"\n")
        file.truncate(start)
        file.flush()
        os.fsync(file.fileno())
    message = (
        f"{path.name}: set aside a half-written last line ({len(tail)} bytes) "
        f"in {PARTIAL_NAME}; that game will be played again."
    )
    log.warning(message)
    return message


def _last_line_start(file: Any, end: int) -> int:
    """The offset just after the last newline before `end` (0 when there is none)."""
    block = 4096
    position = end
    while position > 0:
        step = min(block, position)
        position -= step
        file.seek(position)
        chunk: bytes = file.read(step)
        cut = chunk.rfind(b"\n", 0, end - position)
        if cut >= 0:
            return position + cut + 1
    return 0
