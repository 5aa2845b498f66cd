"""Where games run: a narrow executor interface, a local process pool, and the worker's players.

The tournament and the league know execution only through `Executor` (the `submit`/
`shutdown` half of `concurrent.futures.Executor`, `terminate` for Ctrl-C, and as properties
what they need to know of it: `workers`, `remote`, `tasks_per_worker`, `tables_per_task`)
and one picklable task function, `play_table(context, task)`. Anything that can run a
module-level function on another process and hand back a future, and wait for the first of
several futures (`wait_any`), can play a tournament: the local pool here, and Dask
(arena/cluster.py), without touching the schedule, the ratings or the reports.

Workers write the game records themselves (into `WorkerContext.records_dir`, which must be
a folder they can reach: on several machines, a shared file system) and return only the
games-log lines, so the scheduler alone writes the log.

A worker keeps its bot processes alive across games: a per-process dict of `Player`s,
created on first use, closed when the worker exits (normally, on SIGTERM, or when it notices
its scheduler has died), so no bot process outlives the tournament.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import logging
import multiprocessing
import multiprocessing.util
import os
import signal
import socket
import threading
import time
import tracemalloc
from collections.abc import Callable, Collection, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from arena.atomic import atomic_file
from arena.games import DEFAULT_GAME
from arena.players.limits import limits_from_json
from arena.results.log import GameLine
from arena.schedule import GameSlot, TableTask
from arena.stats.think import histogram

if TYPE_CHECKING:
    from arena.players.manifest import BotManifest
    from arena.players.player import Player
    from arena.referee import GameReport

__all__ = [
    "Executor",
    "InlineExecutor",
    "LocalPoolExecutor",
    "TableResult",
    "WorkerContext",
    "accept_tables",
    "close_players",
    "make_executor",
    "play_table",
    "stop_tables",
]

R = TypeVar("R")

log = logging.getLogger(__name__)

PARENT_POLL_S = 0.5
"""How often a pool worker checks that its scheduler is still alive."""
TASKS_PER_WORKER = 2
"""Table tasks the local pool keeps queued per worker: enough to keep workers busy, few
enough to stay small."""


class Executor(Protocol):
    """What the tournament and the league need from an execution engine: submit work, get
    futures, stop; and how to feed it (its properties)."""

    @property
    def workers(self) -> int:
        """How many tasks can run at once."""
        ...

    @property
    def remote(self) -> bool:
        """Its workers run on other machines: bots are shipped to them (league/remote.py)
        and the game records come back with the results (`WorkerContext.carry_records`)."""
        ...

    @property
    def tasks_per_worker(self) -> int:
        """Tasks kept queued per worker (a tournament keeps `workers` times this many)."""
        ...

    @property
    def tables_per_task(self) -> int:
        """Tables sent in one task (its cost per task shared by their games)."""
        ...

    def submit(self, fn: Callable[..., R], /, *args: Any) -> Future[R]:
        """Run `fn(*args)` somewhere; `fn` and `args` must be picklable. The future has
        `result()` and `exception()` (a Dask future passes for one)."""
        ...

    def wait_any(self, futures: Collection[Any]) -> tuple[set[Any], set[Any]]:
        """Block until at least one of `futures` is done: (the done ones, the others)."""
        ...

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop after the running tasks; workers close their bots as they exit."""
        ...

    def terminate(self) -> None:
        """Stop at once (Ctrl-C): running tasks are abandoned, workers close their bots."""
        ...


@dataclass(frozen=True)
class WorkerContext:
    """Everything a worker needs to play the games of one tournament (small and picklable)."""

    run_id: str
    """Names the tournament; a worker that sees another run id closes its old players first."""
    bots: tuple[BotManifest, ...]
    """The field, as loaded by the scheduler."""
    limits: Mapping[str, Any]
    """Keyword arguments of `arena.players.limits.Limits`."""
    game: str = DEFAULT_GAME
    game_config: Mapping[str, Any] = field(default_factory=dict)
    log_dir: Path | None = None
    """Where the bots' stderr logs go (None: the referee's default)."""
    records_dir: Path | None = None
    """Where game records are written as `<game_id>.json.gz` (None: not written here)."""
    carry_records: bool = False
    """Send each game's record back with the results instead (workers on other machines,
    with no shared folder): the scheduler writes it."""
    broken: Mapping[str, str] = field(default_factory=dict)
    """Bots that cannot be built or started, with why: they lose every game at the start."""


# --- the worker side -------------------------------------------------------------------------

_players: dict[str, Player] = {}
_players_run: str | None = None
_players_lock = threading.Lock()


def close_players() -> None:
    """Close every bot process this process holds (idempotent; safe from any thread)."""
    global _players_run
    # A timeout, not a plain lock: a signal handler may run while this thread holds it.
    locked = _players_lock.acquire(timeout=1.0)
    try:
        players = list(_players.values())
        _players.clear()
        _players_run = None
    finally:
        if locked:
            _players_lock.release()
    for player in players:
        try:
            player.close()
        except Exception:  # closing must go on for the other bots
            log.exception("closing player %s failed", getattr(player, "name", "?"))
    from arena.players.sandbox.cgroups import remove_own_folders

    remove_own_folders()


_stopping = threading.Event()
"""Set on a worker whose executor is stopping (`stop_tables`): a running table ends quietly."""


def stop_tables() -> None:
    """On a worker whose executor stops: the running table ends at once and quietly (the game
    its bots are taken from under is dropped, not logged as their fault), then the bots close.
    Tables started later end before their first game until `accept_tables`."""
    _stopping.set()
    close_players()


def accept_tables() -> None:
    """On a worker given to a new executor: tables play again (after a `stop_tables`)."""
    _stopping.clear()


def _players_for(context: WorkerContext, names: tuple[str, ...]) -> list[Player]:
    """This worker's players for `names`, started on first use and kept across games."""
    from arena.players.player import Player

    global _players_run
    if _players_run != context.run_id:
        close_players()
        _players_run = context.run_id
    by_name = {bot.name: bot for bot in context.bots}
    chosen = []
    for name in names:
        player = _players.get(name)
        if player is None:
            bot, broken = by_name[name], context.broken.get(name)
            local = _local_folders.get((bot.name, str(bot.folder)))
            if local is not None:
                bot, broken = replace(bot, folder=local[0]), broken or local[1]
            limits = limits_from_json(context.limits)
            player = _players[name] = Player(bot, limits, log_dir=context.log_dir, broken=broken)
        chosen.append(player)
    return chosen


_local_folders: dict[tuple[str, str], tuple[Path, str | None]] = {}


def use_local_folder(bot: BotManifest, folder: Path, broken: str | None = None) -> None:
    """On a worker of another machine: start `bot` from `folder`, this machine's copy of its
    folder (arena/league/remote.py ships it), or, with `broken`, fail its games with that
    reason (its build failed here)."""
    _local_folders[(bot.name, str(bot.folder))] = (folder, broken)


def local_folders() -> dict[str, tuple[Path, str | None]]:
    """On a worker: each bot shipped to it, with its folder here (and why it is broken)."""
    return {name: local for (name, _), local in _local_folders.items()}


def record_bytes(record: Mapping[str, Any]) -> bytes:
    """A game record as written: gzip-compressed JSON (mtime 0: same game, same bytes)."""
    return gzip.compress(json.dumps(record, separators=(",", ":")).encode(), mtime=0)


def write_record(directory: Path, game_id: str, data: bytes) -> None:
    """Write a game record's bytes (`record_bytes`) atomically as `<game_id>.json.gz`."""
    with atomic_file(directory / f"{game_id}.json.gz") as file:
        file.write(data)


@dataclass
class TableResult:
    """What a worker hands back for one table: the games-log lines, and the records when
    the context says to carry them."""

    lines: list[GameLine]
    records: dict[str, bytes] = field(default_factory=dict)


def _game_line(slot: GameSlot, report: GameReport, duration_ms: float) -> GameLine:
    """The games-log line of one finished game (see arena.results.log)."""
    outcome = report.outcome.to_json()
    per_seat: list[list[float]] = [[] for _ in report.players]
    for move in report.moves:
        per_seat[move["seat"]].append(move["think_ms"])
    return GameLine(
        seq=slot.seq,
        game_id=slot.game_id,
        round=slot.round,
        table=slot.table,
        game=slot.game,
        seed=slot.seed,
        players=slot.players,
        scores=tuple(outcome["scores"]),
        ranks=tuple(outcome["ranks"]),
        winner=outcome["winner"],
        termination=outcome["termination"],
        end=outcome["end"],
        reason=outcome["reason"],
        faulty_seat=outcome["faulty_seat"],
        turns=report.turns,
        decisions=tuple(report.decisions),
        think_ms=tuple(round(t, 3) for t in report.think_ms),
        cpu_ms=tuple(report.cpu_ms),
        think_max_ms=tuple(max(times, default=0.0) for times in per_seat),
        think_hist=tuple(histogram(times) for times in per_seat),
        duration_ms=round(duration_ms, 3),
        worker=f"{socket.gethostname()}:{os.getpid()}",
        finished_at=datetime.now(UTC).isoformat(timespec="milliseconds"),
    )


def play_table(context: WorkerContext, task: TableTask) -> TableResult:
    """Play the games of one table (one deal) with this worker's players; returns their lines.

    The game record of each game is written before its line is returned (or returned with
    it), so a game in the log always has its record.
    """
    from arena.referee import GameSpec, play_game

    result = TableResult([])
    lines = result.lines
    for slot in task.games:
        if _stopping.is_set():
            return _stopped(task, result)
        players = _players_for(context, slot.players)
        spec = GameSpec(
            game_id=slot.game_id,
            seed=slot.seed,
            game=context.game,
            config=dict(context.game_config),
        )
        start = time.perf_counter()
        try:
            report = play_game(spec, players)
        except Exception:
            if _stopping.is_set():  # its bots were closed under it by the stop: no fault
                return _stopped(task, result)
            raise
        if _stopping.is_set():  # it may have ended as its bots were closed: not a result
            return _stopped(task, result)
        duration_ms = (time.perf_counter() - start) * 1000.0
        if context.carry_records:
            result.records[slot.game_id] = record_bytes(report.record())
        elif context.records_dir is not None:
            write_record(context.records_dir, slot.game_id, record_bytes(report.record()))
        lines.append(_game_line(slot, report, duration_ms))
        log.debug("%s: %s", slot.game_id, lines[-1].reason)
    return result


def _stopped(task: TableTask, result: TableResult) -> TableResult:
    """A table ended by `stop_tables`: the games it finished before, its bots closed (a game
    begun as the stop came may have started them again)."""
    log.info("table %d stopped with its executor after %d games", task.table, len(result.lines))
    close_players()
    return result


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    """A pool worker told to stop: close the bots, then leave at once."""
    close_players()
    os._exit(128 + signum)


def _watch_parent(parent: int) -> None:
    """Close the bots and exit when the scheduler is gone (kill -9 leaves workers orphaned)."""
    while True:
        time.sleep(PARENT_POLL_S)
        if os.getppid() != parent:
            close_players()
            os._exit(1)


def _init_worker(parent: int, counter: Any) -> None:
    """Pool worker start-up: the scheduler alone handles Ctrl-C; bots are closed on every exit.

    Each worker takes a core of its own (the n-th worker the n-th core this process may use)
    and its bots inherit it: the referee and the bot it waits for then hand over on one core,
    which on a virtual machine is several times faster than waking a process on another
    core, and the bots of one game never take the core of another game.
    """
    with counter.get_lock():
        index = counter.value
        counter.value += 1
    _pin_to_core(index)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_sigterm)
    if tracemalloc.is_tracing():  # a benchmark measures the scheduler, not its workers
        tracemalloc.stop()
    multiprocessing.util.Finalize(None, close_players, exitpriority=100)
    threading.Thread(target=_watch_parent, args=(parent,), name="watch-parent", daemon=True).start()


def _pin_to_core(index: int) -> None:
    if not hasattr(os, "sched_setaffinity"):
        return
    cores = sorted(os.sched_getaffinity(0))
    with contextlib.suppress(OSError):
        os.sched_setaffinity(0, {cores[index % len(cores)]})


# --- the executors ---------------------------------------------------------------------------


class InlineExecutor:
    """Runs each task in the calling process at submit time: for debugging and small tests."""

    workers = 1
    remote = False
    tasks_per_worker = TASKS_PER_WORKER
    tables_per_task = 1

    def submit(self, fn: Callable[..., R], /, *args: Any) -> Future[R]:
        future: Future[R] = Future()
        try:
            future.set_result(fn(*args))
        except Exception as error:
            future.set_exception(error)
        return future

    def wait_any(self, futures: Collection[Any]) -> tuple[set[Any], set[Any]]:
        return set(futures), set()  # every future is done at submit time

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        close_players()

    def terminate(self) -> None:
        close_players()


class LocalPoolExecutor:
    """A pool of `workers` local processes (fork), each keeping its own bot processes alive."""

    remote = False
    tasks_per_worker = TASKS_PER_WORKER
    tables_per_task = 1

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        self.workers = workers
        # fork: workers inherit the run's log handler (multiprocessing-logging needs it).
        context = multiprocessing.get_context("fork")
        self._pool = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=context,
            initializer=_init_worker,
            initargs=(os.getpid(), context.Value("i", 0)),
        )

    def submit(self, fn: Callable[..., R], /, *args: Any) -> Future[R]:
        return self._pool.submit(fn, *args)

    def wait_any(self, futures: Collection[Any]) -> tuple[set[Any], set[Any]]:
        done, pending = wait(futures, return_when=FIRST_COMPLETED)
        return set(done), set(pending)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)

    def terminate(self, grace_s: float = 5.0) -> None:
        """SIGTERM every worker (each closes its bots), then SIGKILL any still there."""
        live = dict(getattr(self._pool, "_processes", None) or {})
        for pid in live:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        self._pool.shutdown(wait=False, cancel_futures=True)
        deadline = time.monotonic() + grace_s
        for process in live.values():
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join(1.0)


def make_executor(workers: int) -> Executor:
    """The executor for `workers`: a local process pool, or inline (in this process) for 0."""
    if workers == 0:
        return InlineExecutor()
    return LocalPoolExecutor(workers)
