"""The games log, `games.jsonl`: one JSON line per finished game, appended and fsync'ed at once.

The log is the tournament's only source of truth: ratings, tables, charts and resume all
read it. A line is written only when its game has finished, and is on disk before the next
game is logged, so killing the scheduler loses no finished game. Killing it in the middle
of a write can leave a half-written last line; `repair` sets it aside before a resume.

A line is a `GameLine` (keys in this order): `version, seq, game_id, round, table, game,
seed, players, scores, ranks, winner, termination, end, reason, faulty_seat, turns, decisions,
think_ms, cpu_ms, think_max_ms, think_hist, duration_ms, worker, finished_at`. The last seven
are timing and placement: they
differ between runs of the same tournament. Lines of logs written before tables (no
`version`, a `pair` key, Mandala's own ends as terminations) are read through a mapping.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from arena import bounded
from arena.bounded import MAX_COUNT, MAX_SEATS, number, text_list, whole
from arena.errors import TournamentError
from arena.outcome import read_termination

__all__ = [
    "LOG_NAME",
    "LOG_VERSION",
    "PARTIAL_NAME",
    "TIMING_KEYS",
    "GameLine",
    "GamesLog",
    "completed_ids",
    "read_games",
    "repair",
]

LOG_NAME = "games.jsonl"
"""The games log's file name inside a run folder."""
PARTIAL_NAME = "games.jsonl.partial"
"""Where a half-written last line is set aside by `repair`."""
TIMING_KEYS = (
    "think_ms", "cpu_ms", "think_max_ms", "think_hist", "duration_ms", "worker", "finished_at",
)  # fmt: skip
"""Keys of a line that depend on the machine and the moment, not on the games themselves."""

LOG_VERSION = 2
"""The version of the lines this arena writes (lines without one are of version 1)."""
MAX_LINE = 1 << 20
"""The longest line read (a game's line is about 1 KiB)."""
MAX_SCORE = 1e9
MAX_MS = 1e12
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameLine:
    """One finished game, as one line of the games log."""

    seq: int
    """The game's place in the schedule, from 0: ratings are computed in this order."""
    game_id: str
    players: tuple[str, ...]
    """Bot names by seat."""
    scores: tuple[float, ...]
    """Each seat's score, by seat."""
    ranks: tuple[int, ...]
    """Each seat's place, by seat: 0 is first, equal ranks are a tie."""
    termination: str
    """How the game ended: `normal`, `turn_limit`, or a bot's fault (arena.outcome)."""
    round: int = 0
    table: int = 0
    """The table's number across the tournament, from 0."""
    game: int = 1
    """The game's number at its table, from 1."""
    seed: int = 0
    """The deal seed of the table."""
    winner: int | None = None
    """The seat alone in first place, if there is one."""
    end: str | None = None
    """The game's own end reason (e.g. Mandala's 'deck_exhausted'), when it ended normally."""
    reason: str = ""
    """A sentence a person can read."""
    faulty_seat: int | None = None
    turns: int = 0
    decisions: tuple[int, ...] = ()
    think_ms: tuple[float, ...] = ()
    cpu_ms: tuple[float | None, ...] = ()
    think_max_ms: tuple[float, ...] = ()
    """Each seat's slowest decision in the game."""
    think_hist: tuple[Mapping[str, int], ...] = ()
    """Each seat's think times as a log-scale histogram (arena/stats/think.py): p95 over a
    whole tournament, to 25%."""
    """CPU time each seat's bot used in the game (its cgroup's), None where not measured."""
    duration_ms: float = 0.0
    worker: str = ""
    finished_at: str = ""
    version: int = LOG_VERSION

    @property
    def seats(self) -> int:
        """How many seats the game had."""
        return len(self.players)

    def to_json(self) -> dict[str, Any]:
        """The line's JSON object, keys in the documented order."""
        return {
            "version": self.version,
            "seq": self.seq,
            "game_id": self.game_id,
            "round": self.round,
            "table": self.table,
            "game": self.game,
            "seed": self.seed,
            "players": list(self.players),
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winner": self.winner,
            "termination": self.termination,
            "end": self.end,
            "reason": self.reason,
            "faulty_seat": self.faulty_seat,
            "turns": self.turns,
            "decisions": list(self.decisions),
            "think_ms": list(self.think_ms),
            "cpu_ms": list(self.cpu_ms),
            "think_max_ms": list(self.think_max_ms),
            "think_hist": [dict(h) for h in self.think_hist],
            "duration_ms": self.duration_ms,
            "worker": self.worker,
            "finished_at": self.finished_at,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameLine:
        """A line from its JSON object; version-1 lines are mapped. ValueError if malformed."""
        version = data.get("version", 1)
        if not isinstance(version, int) or not 1 <= version <= LOG_VERSION:
            raise ValueError(
                f"it has version {version!r}, and this arena reads versions 1 to {LOG_VERSION}"
            )
        try:
            termination, end = read_termination(str(data["termination"]), data.get("end"))
            players = text_list(data["players"], 1, MAX_SEATS, "players")
            seats = len(players)
            return cls(
                seq=whole(data["seq"], 0, MAX_COUNT, "seq"),
                game_id=_text(data["game_id"], "game_id"),
                players=players,
                scores=_per_seat(data["scores"], seats, "scores", MAX_SCORE),
                ranks=tuple(
                    whole(r, 0, seats - 1, "a rank") for r in _seats(data["ranks"], seats, "ranks")
                ),
                termination=termination.value,
                round=whole(data.get("round", 0), 0, MAX_COUNT, "round"),
                table=whole(data.get("table", data.get("pair", 0)), 0, MAX_COUNT, "table"),
                game=whole(data.get("game", 1), 0, MAX_COUNT, "game"),
                seed=whole(data.get("seed", 0), 0, 2**64 - 1, "seed"),
                winner=_seat_or_none(data.get("winner"), seats, "winner"),
                end=None if end is None else _text(end, "end"),
                reason=_text(data.get("reason", ""), "reason"),
                faulty_seat=_seat_or_none(data.get("faulty_seat"), seats, "faulty_seat"),
                turns=whole(data.get("turns", 0), 0, MAX_COUNT, "turns"),
                decisions=tuple(
                    int(number(d, MAX_COUNT, "decisions"))
                    for d in _seats(data.get("decisions") or [], seats, "decisions", empty=True)
                ),
                think_ms=_per_seat(data.get("think_ms") or [], seats, "think_ms", MAX_MS, True),
                cpu_ms=tuple(
                    None if ms is None else number(ms, MAX_MS, "cpu_ms")
                    for ms in _seats(data.get("cpu_ms") or [], seats, "cpu_ms", empty=True)
                ),
                think_max_ms=_per_seat(
                    data.get("think_max_ms") or [], seats, "think_max_ms", MAX_MS, True
                ),
                think_hist=tuple(
                    _histogram(h)
                    for h in _seats(data.get("think_hist") or [], seats, "think_hist", empty=True)
                ),
                duration_ms=float(number(data.get("duration_ms", 0.0), MAX_MS, "duration_ms")),
                worker=_text(data.get("worker", ""), "worker"),
                finished_at=_text(data.get("finished_at", ""), "finished_at"),
                version=LOG_VERSION,
            )
        except KeyError as missing:
            raise ValueError(f"it has no {missing.args[0]!r}") from None
        except (TypeError, ValueError) as error:
            raise ValueError(f"a value is wrong ({error})") from None


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_LINE:
        raise ValueError(f"{what} must be text")
    return value


def _seats(value: Any, seats: int, what: str, empty: bool = False) -> list[Any]:
    """`value` as a list of one item per seat (or empty, where `empty` allows it)."""
    if not isinstance(value, list) or len(value) != seats and not (empty and not value):
        raise ValueError(f"{what} must be a list of one value per seat ({seats})")
    return value


def _per_seat(
    value: Any, seats: int, what: str, bound: float, empty: bool = False
) -> tuple[float, ...]:
    return tuple(number(v, bound, what) for v in _seats(value, seats, what, empty))


def _seat_or_none(value: Any, seats: int, what: str) -> int | None:
    return None if value is None else whole(value, 0, seats - 1, what)


def _histogram(value: Any) -> dict[str, int]:
    if not isinstance(value, dict) or len(value) > 256:
        raise ValueError("think_hist must hold small objects")
    return {_text(k, "think_hist"): whole(v, 0, MAX_COUNT, "think_hist") for k, v in value.items()}


class GamesLog:
    """The games log opened for appending: `append` writes one line and syncs it to disk."""

    def __init__(self, path: Path, *, fsync: bool = True) -> None:
        self.path = path
        self._fsync = fsync
        self._file = path.open("ab")

    def append(self, line: GameLine) -> None:
        """Write one game as one line, flush it and fsync it before returning."""
        data = json.dumps(line.to_json(), separators=(",", ":"), ensure_ascii=False) + "\n"
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
        line = bounded.loads(raw, f"{path}, line {number},", max_depth=0)
    except bounded.BoundedReadError as error:
        raise TournamentError(
            f"{error} Only the last line may be damaged, so the log needs a look by hand."
        ) from None
    if not isinstance(line, dict) or "game_id" not in line:
        raise TournamentError(f"{path}, line {number}, is not a game (no game_id).")
    try:
        return GameLine.from_json(line)
    except ValueError as error:
        raise TournamentError(
            f"{path}, line {number}, is not a game this arena reads: {error}."
        ) from None


def read_games(path: Path) -> Iterator[GameLine]:
    """Every complete game in the log, in file order (the order games finished).

    A last line without its newline is a game still being written (or a write cut short):
    it is skipped, never an error, so the log of a running tournament can be read.
    A missing log reads as empty.
    """
    if not path.exists():
        return
    with path.open("rb") as file:
        number = 0
        while raw := file.readline(MAX_LINE + 1):
            number += 1
            if len(raw) > MAX_LINE:
                raise TournamentError(
                    f"{path}, line {number}, is longer than any game's line "
                    f"({MAX_LINE >> 10} KiB); the log needs a look by hand."
                )
            if not raw.endswith(b"\n"):
                return
            if raw.strip():
                yield _parse(raw, path, number)


def completed_ids(path: Path) -> set[str]:
    """The ids of the games already in the log."""
    return {line.game_id for line in read_games(path)}


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
        if size - start > MAX_LINE:
            raise TournamentError(
                f"{path}'s last line is longer than any game's line ({MAX_LINE >> 10} KiB); "
                "the log needs a look by hand."
            )
        file.seek(start)
        tail = file.read(size - start)
        if tail.endswith(b"\n"):
            try:
                bounded.loads(tail, str(path), max_depth=0)
                return None
            except bounded.BoundedReadError:
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
    """The offset just after the last newline before `end` (0 when there is none); the scan
    gives up past MAX_LINE bytes (the caller refuses a line that long)."""
    block = 4096
    position = end
    while position > 0 and end - position <= MAX_LINE:
        step = min(block, position)
        position -= step
        file.seek(position)
        chunk: bytes = file.read(step)
        cut = chunk.rfind(b"\n", 0, end - position)
        if cut >= 0:
            return position + cut + 1
    return position
