"""A tournament, step by step: snapshot the configuration, schedule, feed the executor, log games.

1. `create_run` (a new run) or `resume_run` (an old one) settles the configuration and writes
   or checks `config.json` (arena/run_setup.py): the bots with a hash of their files,
   rounds, seed, limits and versions. The schedule is a function of that snapshot alone.
2. `play` reads the ids of the games already in `games.jsonl` (setting aside a half-written
   last line), generates the tables still to play, and keeps the executor busy with a bounded
   number of table tasks, so memory does not grow with the size of the tournament.
3. Each finished game is appended to the games log, flushed and fsync'ed, at once.
4. The report (ratings, leaderboard, charts) is made from the games log afterwards.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import BrokenExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.errors import BotManifestError, TournamentError
from arena.execution import (
    Executor,
    WorkerContext,
    make_executor,
    play_table,
    write_record,
)
from arena.game_sources import game_notes
from arena.pairing_tests import PairingTests
from arena.players.limits import limits_from_json
from arena.players.manifest import BotManifest
from arena.players.ready import fingerprint, unready
from arena.results.log import LOG_NAME, GameLine, GamesLog, completed_ids, read_games, repair
from arena.run_config import TournamentConfig
from arena.run_setup import create_run, load_bots, resume_run, sandbox_report_of
from arena.schedule import TableTask, schedule
from arena.startup_watch import StartupWatch, refuse_unready
from arena.stats.sprt import Sprt

__all__ = [
    "RunSummary",
    "create_run",
    "load_bots",
    "play",
    "resume_run",
]

RUN_LOG = "run.log"
RECORDS = "records"
BOT_LOGS = "logs"
TRIES = 2
"""How often a task that fails inside the arena (not a bot's fault: those end the game
normally) is tried before the tournament stops; a second try rides out a passing fault."""


log = logging.getLogger(__name__)


# --- steps 2 and 3: play ---------------------------------------------------------------------


@dataclass
class RunSummary:
    """What one call of `play` did."""

    run_dir: Path
    total: int
    """Games in the whole tournament."""
    done_before: int
    """Games already in the log when this call started."""
    played: int
    """Games played and logged by this call."""
    seconds: float
    interrupted: bool = False
    repaired: str | None = None
    """The warning if a half-written last line was set aside."""
    changed: list[str] = field(default_factory=list)
    """The bots whose files changed while this call played (`BotWatch`)."""

    @property
    def done(self) -> int:
        return self.done_before + self.played

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0


ProgressCallback = Callable[[int, int, int], None]
"""Called after every logged game with (games done, games in total, games played by this call)."""

CHANGED_CHECK_S = 30.0
"""How often the bots' files are hashed again during a run (`BotWatch`)."""


@dataclass
class BotWatch:
    """Issue 46: a bot whose files change during a run (rebuilt or edited by mistake) is
    noticed and warned of, once, in run.log and to `warn`. Each bot's source hash is taken
    once its build is done (a build may write sources, e.g. a lock file), again every
    CHANGED_CHECK_S seconds as games are logged, and at the end. A warning, not a refusal:
    the games already played stay good, and the person running it decides (Ctrl-C, restore
    the files, or a new run). In a league a change is a new version, never the old one's."""

    bots: list[BotManifest]
    cap_mb: int
    warn: Callable[[str], None] | None = None
    start: dict[str, str] = field(default_factory=dict)
    changed: list[str] = field(default_factory=list)
    last: float = 0.0

    def begin(self) -> None:
        """The hashes to compare with: the bots as built for this run."""
        self.start = {bot.name: self._hash(bot) for bot in self.bots}
        self.last = time.monotonic()

    def check(self, now: bool = False) -> None:
        """Hash the bots again if CHANGED_CHECK_S have passed (or `now`); warn of each change."""
        if not now and time.monotonic() - self.last < CHANGED_CHECK_S:
            return
        for bot in self.bots:
            if bot.name not in self.changed and self._hash(bot) != self.start.get(bot.name):
                self.changed.append(bot.name)
                text = (
                    f"bot {bot.name!r} changed during the run: its files in {bot.folder} hash "
                    "differently from when the run started, so its games from now on may be "
                    "played by another version and its results mix two. Restore its files, or "
                    "stop and start a new run to rate one version."
                )
                log.warning("%s", text)
                if self.warn is not None:
                    self.warn(text)
        self.last = time.monotonic()

    def _hash(self, bot: BotManifest) -> str:
        try:
            return fingerprint(bot.folder, self.cap_mb)
        except (BotManifestError, OSError) as error:  # gone, too big, unreadable: changed
            return f"unreadable: {error}"


@contextmanager
def _run_log(run_dir: Path) -> Iterator[None]:
    """Send the arena's log records (workers' included) to `run.log` for the run's duration."""
    import multiprocessing_logging

    logger = logging.getLogger("arena")
    handler = logging.FileHandler(run_dir / RUN_LOG, encoding="utf-8")
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s")
    )
    previous_level = logger.level
    # Our handler (only ours: others on the "arena" logger stay as they are) behind a queue
    # that worker processes forked afterwards write to; a thread of this process writes the file.
    wrapped = multiprocessing_logging.MultiProcessingHandler("arena-run-log", sub_handler=handler)
    logger.addHandler(wrapped)
    if logger.getEffectiveLevel() > logging.INFO:
        logger.setLevel(logging.INFO)
    try:
        yield
    finally:
        logger.removeHandler(wrapped)
        wrapped.close()  # closes `handler` too, once the queue is written out
        logger.setLevel(previous_level)


def _context(
    run_dir: Path,
    config: TournamentConfig,
    bots: list[BotManifest],
    broken: dict[str, str],
    carry_records: bool,
) -> WorkerContext:
    run_id = f"{run_dir.resolve()}:{config.created}:{os.getpid()}:{time.monotonic_ns()}"
    return WorkerContext(
        run_id=run_id,
        bots=tuple(bots),
        limits=dict(config.limits),
        game=config.game,
        game_config=dict(config.game_config),
        log_dir=run_dir / BOT_LOGS,
        records_dir=run_dir / RECORDS,
        carry_records=carry_records,
        broken=broken,
    )


def _batch(pending: Iterator[TableTask], tables: int) -> TableTask | None:
    """The next `tables` tables as one task (their games in schedule order); None at the end.

    A distributed executor sends several tables a task, so its cost per task is shared."""
    first = next(pending, None)
    if first is None or tables <= 1:
        return first
    games = list(first.games)
    for _ in range(tables - 1):
        task = next(pending, None)
        if task is None:
            break
        games += task.games
    return dataclasses.replace(first, games=tuple(games))


def play(
    run_dir: Path,
    config: TournamentConfig,
    *,
    workers: int,
    executor: Executor | None = None,
    progress: ProgressCallback | None = None,
    warn: Callable[[str], None] | None = None,
) -> RunSummary:
    """Play every game of the tournament that is not yet in the games log, and log each one;
    `warn` is told of a bot whose files changed meanwhile (`BotWatch`).

    Ctrl-C stops the workers at once (their bots are closed) and returns with `interrupted`
    set: every game already logged stays, the games in flight are played again on resume.
    """
    bots = load_bots(config)
    broken = unready(bots)  # a bot that cannot start stops the run (startup_watch.py)
    changes = BotWatch(bots, limits_from_json(config.limits).bot_size_mb, warn)
    changes.begin()
    (run_dir / RECORDS).mkdir(parents=True, exist_ok=True)
    (run_dir / BOT_LOGS).mkdir(parents=True, exist_ok=True)
    log_path = run_dir / LOG_NAME
    repaired = repair(log_path)
    done = completed_ids(log_path)
    total = config.total_games
    summary = RunSummary(run_dir, total, len(done), 0, 0.0, repaired=repaired)
    started = time.monotonic()
    pending, tests = _pending(config, done, log_path)
    with _run_log(run_dir):
        _log_start(config, broken)
        refuse_unready(broken, run_dir)
        watch = StartupWatch(config.seats, run_dir)
        log.info(
            "playing %d of %d games with %d workers in %s",
            total - len(done),
            total,
            workers,
            run_dir,
        )
        pool = executor if executor is not None else make_executor(workers)
        context = _context(run_dir, config, bots, broken, pool.remote)
        feed = _Feed(pool, context, pending, summary, watch, tests, progress, set(done), changes)
        _feed_until_done(feed, log_path, started)
        changes.check(now=True)
        summary.changed = changes.changed
        if tests is not None:
            log.info("SPRT: %d pairings decided", len(tests.verdicts))
        log.info(
            "%s: %d games played in %.1f s (%.1f games/s), %d of %d done",
            "interrupted" if summary.interrupted else "finished",
            summary.played,
            summary.seconds,
            summary.games_per_second,
            summary.done,
            total,
        )
    return summary


def _pending(
    config: TournamentConfig, done: set[str], log_path: Path
) -> tuple[Iterator[TableTask], PairingTests | None]:
    """The tables still to play, in schedule order (without the pairings an SPRT of
    --until-decided has decided), and those tests."""
    pending = schedule(
        config.names,
        config.rounds,
        config.seed,
        done,
        seats=config.seats,
        all_seatings=config.all_seatings,
        tables_per_round=config.tables_per_round,
        gauntlet=config.gauntlet,
    )
    if config.until_decided is None:
        return pending, None
    tests = PairingTests(Sprt(*config.until_decided), read_games(log_path))
    return (task for task in pending if not tests.decided(task.games[0].players)), tests


def _log_start(config: TournamentConfig, broken: Mapping[str, str]) -> None:
    """The run log's first lines: the sandbox, the game's notes, the bots that cannot start."""
    box = sandbox_report_of(config.limits)
    log.info(
        "sandbox: isolation %s, network %s, unix sockets %s, user %s, cgroup kill %s, "
        "process limit %s, memory %s, rlimits %s",
        box["isolation"],
        box["network"],
        box["unix_sockets"],
        box["user"],
        box["cgroup_kill"],
        box["process_limit"],
        box["memory_limit"],
        box["rlimits"],
    )
    for warning in box["warnings"]:
        log.warning("sandbox: %s", warning)
    for note in game_notes(config.game, config.game_config):
        log.info("%s: %s", config.game, note)
    for name, why in broken.items():
        log.error("bot %s cannot start: %s", name, why)


def _feed_until_done(feed: _Feed, log_path: Path, started: float) -> None:
    """Feed the executor until every table is played (or Ctrl-C), then stop it: gently
    when all went well, at once otherwise."""
    summary, pool = feed.summary, feed.pool
    clean = False
    try:
        with GamesLog(log_path) as games_log:
            feed.run(games_log)
        clean = True
    except KeyboardInterrupt:
        summary.interrupted = True
        log.warning("interrupted after %d games; stopping the workers", summary.done)
    except BrokenExecutor as error:  # a worker was killed (kill -9, the OOM killer)
        raise TournamentError(
            f"A worker process died ({error}), so the tournament stopped with "
            f"{summary.done} of {summary.total} games logged; see "
            f"{summary.run_dir / RUN_LOG}. Continue it with --resume."
        ) from error
    finally:
        summary.seconds = time.monotonic() - started
        try:
            if clean:
                pool.shutdown(wait=True)
            else:
                pool.terminate()
        except KeyboardInterrupt:  # a second Ctrl-C while the workers stop
            summary.interrupted = True
            pool.terminate()


@dataclass
class _Feed:
    """Steps 2 and 3: the executor kept busy with a bounded number of table tasks (each
    task in flight with how many times it has been tried), each finished game logged."""

    pool: Executor
    context: WorkerContext
    pending: Iterator[TableTask]
    summary: RunSummary
    watch: StartupWatch
    tests: PairingTests | None
    progress: ProgressCallback | None
    logged: set[str]
    """The games logged: a table run twice (a worker died) logs each game once."""
    changes: BotWatch | None = None
    in_flight: dict[Any, tuple[TableTask, int]] = field(default_factory=dict)

    def run(self, games_log: GamesLog) -> None:
        limit = max(1, self.pool.workers) * self.pool.tasks_per_worker
        exhausted = False
        while True:
            while not exhausted and len(self.in_flight) < limit:
                task = _batch(self.pending, self.pool.tables_per_task)
                if task is None:
                    exhausted = True
                    break
                self.submit(task, 1)
            if not self.in_flight:
                break
            finished, _ = self.pool.wait_any(self.in_flight)
            for future in finished:
                self.settle(future, games_log)

    def submit(self, task: TableTask, tries: int) -> None:
        self.in_flight[self.pool.submit(play_table, self.context, task)] = (task, tries)

    def settle(self, future: Any, games_log: GamesLog) -> None:
        """A finished task: its games logged, or, failed, tried again (TRIES at most)."""
        task, tries = self.in_flight.pop(future)
        error = future.exception()
        if error is not None:
            ids = ", ".join(slot.game_id for slot in task.games)
            log.error("games %s failed (try %d)", ids, tries, exc_info=error)
            if tries < TRIES:
                self.submit(task, tries + 1)
                return
            raise TournamentError(
                f"Games {ids} failed inside the arena {tries} times "
                f"({type(error).__name__}: {error}); see {self.summary.run_dir / RUN_LOG}. "
                "Fix the cause, then resume."
            ) from error
        result = future.result()
        for game_id, data in result.records.items():
            write_record(self.summary.run_dir / RECORDS, game_id, data)
        for line in result.lines:
            self.log_game(line, games_log)

    def log_game(self, line: GameLine, games_log: GamesLog) -> None:
        if line.game_id in self.logged:
            log.warning("%s was played twice; logged once", line.game_id)
            return
        self.logged.add(line.game_id)
        games_log.append(line)
        self.watch.feed(line)
        if self.tests is not None:
            self.tests.feed(line)
        self.summary.played += 1
        if self.progress is not None:
            self.progress(self.summary.done, self.summary.total, self.summary.played)
        if self.changes is not None:
            self.changes.check()
