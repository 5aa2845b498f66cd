"""A tournament, step by step: snapshot the configuration, schedule, feed the executor, log games.

1. `create_run` (a new run) or `resume_run` (an old one) settles the configuration and writes
   or checks `config.json`: the bots with a hash of their files, rounds, seed, limits and
   versions. The schedule is a function of that snapshot alone.
2. `play` reads the ids of the games already in `games.jsonl` (setting aside a half-written
   last line), generates the tables still to play, and keeps the executor busy with a bounded
   number of table tasks, so memory does not grow with the size of the tournament.
3. Each finished game is appended to the games log, flushed and fsync'ed, at once.
4. The report (ratings, leaderboard, charts) is made from the games log afterwards.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import secrets
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, BrokenExecutor, Future, wait
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from arena.errors import TournamentError
from arena.execution import (
    Executor,
    WorkerContext,
    make_executor,
    play_table,
)
from arena.games import DEFAULT_GAME
from arena.pairing_tests import PairingTests
from arena.players.limits import limits_from_json
from arena.players.manifest import BotManifest, load_manifest
from arena.players.ready import unready
from arena.results.log import LOG_NAME, GameLine, GamesLog, completed_ids, read_games, repair
from arena.results.report import CONFIG_NAME, load_config, write_atomic
from arena.run_config import BotEntry, TournamentConfig, bot_hash, versions
from arena.schedule import TableTask, schedule, total_games
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
TASKS_PER_WORKER = 2
"""Table tasks kept queued per worker: enough to keep workers busy, few enough to stay small."""
TRIES = 2
"""How often a task that fails inside the arena (not a bot's fault: those end the game
normally) is tried before the tournament stops; a second try rides out a passing fault."""


log = logging.getLogger(__name__)


# --- step 1: the configuration snapshot ------------------------------------------------------


def create_run(
    run_dir: Path,
    bots: Sequence[BotManifest],
    *,
    rounds: int,
    seed: int | None,
    limits: dict[str, Any],
    game: str = DEFAULT_GAME,
    game_config: dict[str, Any] | None = None,
    seats: int | None = None,
    all_seatings: bool = False,
    tables_per_round: int | None = None,
    gauntlet: str | None = None,
    until_decided: tuple[float, float] | None = None,
) -> TournamentConfig:
    """Start a new run in `run_dir`: check the field, write `config.json`; returns the config.

    `limits` are keyword arguments of `arena.players.limits.Limits`; the defaults of the others are
    filled in, so the snapshot states every limit played under. A seed of None draws one.
    `seats` is the size of every table (default: the game's `default_players`, else its
    `min_players`); the game checks `game_config`.
    """
    if (run_dir / CONFIG_NAME).exists():
        raise TournamentError(
            f"{run_dir} already holds a tournament; add --resume to continue it, "
            "or choose another --out."
        )
    if (run_dir / LOG_NAME).exists():
        raise TournamentError(
            f"{run_dir} holds a games log but no {CONFIG_NAME}; choose another --out."
        )
    if len(bots) < 2:
        raise TournamentError(f"A tournament needs at least two bots; the field has {len(bots)}.")
    names = [bot.name for bot in bots]
    if len(set(names)) != len(names):
        raise TournamentError(f"Bot names must be unique in a tournament: {names}.")
    if rounds < 1:
        raise TournamentError(f"--rounds must be at least 1, not {rounds}.")
    seats, game_config = _check_table(game, game_config or {}, seats, len(bots))
    if gauntlet is not None and gauntlet not in names:
        raise TournamentError(
            f"--gauntlet {gauntlet}: no bot of that name in the field ({', '.join(sorted(names))})."
        )
    if gauntlet is not None and tables_per_round is not None:
        raise TournamentError(
            "--gauntlet plays every table of its candidate: drop --tables-per-round."
        )
    if until_decided is not None and seats != 2:
        raise TournamentError("--until-decided tests pairs of bots: it needs tables of 2 seats.")
    if tables_per_round is not None and tables_per_round < 1:
        raise TournamentError(f"--tables-per-round must be at least 1, not {tables_per_round}.")
    # Bots must not read the results (other bots' records and logs) nor each other's files.
    full_limits = dataclasses.asdict(
        limits_from_json(limits).hiding(run_dir, *(bot.folder for bot in bots))
    )
    ordered = sorted(bots, key=lambda bot: bot.name)
    config = TournamentConfig(
        bots=tuple(BotEntry.of(bot) for bot in ordered),
        rounds=rounds,
        seed=secrets.randbits(32) if seed is None else seed,
        limits=full_limits,
        total_games=total_games(
            len(ordered), rounds, seats, all_seatings, tables_per_round, gauntlet is not None
        ),
        game=game,
        game_config=game_config,
        seats=seats,
        all_seatings=all_seatings,
        tables_per_round=tables_per_round,
        gauntlet=gauntlet,
        until_decided=until_decided,
        created=datetime.now(UTC).isoformat(timespec="seconds"),
        command_line=tuple(sys.argv),
        versions=versions(),
        sandbox=_sandbox_report(full_limits),
    )
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        _save(run_dir, config)
    except OSError as error:
        raise TournamentError(
            f"Cannot write the results folder {run_dir}: {error.strerror or error}; "
            "choose another --out."
        ) from None
    return config


def _save(run_dir: Path, config: TournamentConfig) -> None:
    write_atomic(run_dir / CONFIG_NAME, json.dumps(config.to_json(), indent=2) + "\n")


def _check_table(
    game: str, options: dict[str, Any], seats: int | None, field: int
) -> tuple[int, dict[str, Any]]:
    """The seats per table and the game's options, checked by the game; TournamentError if not."""
    from arena.errors import GameError
    from arena.games import get_game, table_seats

    try:
        rules = get_game(game)
        rules.config(options)  # the game refuses an option it does not have
        seats = table_seats(rules, seats)
    except GameError as error:
        raise TournamentError(str(error)) from None
    if seats > field:
        raise TournamentError(
            f"A table of {seats} seats needs at least {seats} bots; the field has {field}."
        )
    return seats, dict(options)


def resume_run(run_dir: Path, given: dict[str, Any]) -> tuple[TournamentConfig, list[str]]:
    """The saved configuration of `run_dir`, after checking the options given against it.

    `given` holds only the options the user gave (bots as a list of names, rounds, seed,
    move_ms, seats, game, ...); any that differs from the snapshot is refused in one
    sentence, except more rounds, which extend the run. Returns the configuration and
    warnings (e.g. a bot whose files changed since the run started).
    """
    config = TournamentConfig.from_json(load_config(run_dir), run_dir / CONFIG_NAME)
    rounds = given.get("rounds")
    extend = rounds is not None and rounds > config.rounds
    conflicts = config.differences({**given, "rounds": None if extend else rounds})
    if conflicts:
        raise TournamentError(
            f"Cannot resume {run_dir}: "
            + "; ".join(conflicts)
            + ". Leave these options out to continue as saved, or start a new run with --out."
        )
    warnings = []
    if extend:
        assert rounds is not None
        warnings.append(f"the run is extended from {config.rounds} to {rounds} rounds.")
        config = _extended(run_dir, config, rounds)
    for bot in config.bots:
        folder = Path(bot.folder)
        if not folder.is_dir():
            raise TournamentError(
                f"Cannot resume {run_dir}: bot {bot.name!r} is no longer in {folder}."
            )
        if bot_hash(folder) != bot.hash:
            warnings.append(
                f"bot {bot.name!r} has changed since the run started "
                "(its files hash differently); its games mix two versions."
            )
    return config, warnings


def _extended(run_dir: Path, config: TournamentConfig, rounds: int) -> TournamentConfig:
    """`config` with more rounds, saved: the schedule's first rounds stay as they were, so
    the games already played keep their ids and only the new rounds' games are played."""
    total = total_games(
        len(config.bots),
        rounds,
        config.seats,
        config.all_seatings,
        config.tables_per_round,
        config.gauntlet is not None,
    )
    config = dataclasses.replace(config, rounds=rounds, total_games=total)
    _save(run_dir, config)
    return config


def _sandbox_report(limits: Mapping[str, Any]) -> dict[str, Any]:
    """What isolation and limits the bots get on this machine (players/sandbox.py)."""
    from arena.players.sandbox import sandbox_report

    return sandbox_report(limits_from_json(limits).sandbox)


def load_bots(config: TournamentConfig) -> list[BotManifest]:
    """The field of a configuration, loaded from the bots' folders."""
    bots = []
    for entry in config.bots:
        bot = load_manifest(Path(entry.folder))
        if bot.name != entry.name:
            raise TournamentError(
                f"The bot in {entry.folder} is now named {bot.name!r}, "
                f"not {entry.name!r} as when the run started."
            )
        bots.append(bot)
    return bots


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

    @property
    def done(self) -> int:
        return self.done_before + self.played

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0


ProgressCallback = Callable[[int, int, int], None]
"""Called after every logged game with (games done, games in total, games played by this call)."""


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
    run_dir: Path, config: TournamentConfig, bots: list[BotManifest], broken: dict[str, str]
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
        broken=broken,
    )


def play(
    run_dir: Path,
    config: TournamentConfig,
    *,
    workers: int,
    executor: Executor | None = None,
    progress: ProgressCallback | None = None,
) -> RunSummary:
    """Play every game of the tournament that is not yet in the games log, and log each one.

    Ctrl-C stops the workers at once (their bots are closed) and returns with `interrupted`
    set: every game already logged stays, the games in flight are played again on resume.
    """
    bots = load_bots(config)
    broken = unready(bots)  # each loses its games with startup_failure; the others play
    (run_dir / RECORDS).mkdir(parents=True, exist_ok=True)
    (run_dir / BOT_LOGS).mkdir(parents=True, exist_ok=True)
    log_path = run_dir / LOG_NAME
    repaired = repair(log_path)
    done = completed_ids(log_path)
    names = config.names
    total = config.total_games
    done_before = len(done)
    summary = RunSummary(run_dir, total, done_before, 0, 0.0, repaired=repaired)
    started = time.monotonic()
    pending = schedule(
        names,
        config.rounds,
        config.seed,
        done,
        seats=config.seats,
        all_seatings=config.all_seatings,
        tables_per_round=config.tables_per_round,
        gauntlet=config.gauntlet,
    )
    tests = None
    if config.until_decided is not None:
        tests = PairingTests(Sprt(*config.until_decided), read_games(log_path))
        pending = (task for task in pending if not tests.decided(task.games[0].players))
    with _run_log(run_dir):
        box = _sandbox_report(config.limits)
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
        for name, why in broken.items():
            log.warning("bot %s cannot play and loses its games (startup_failure): %s", name, why)
        log.info(
            "playing %d of %d games with %d workers in %s",
            total - done_before,
            total,
            workers,
            run_dir,
        )
        context = _context(run_dir, config, bots, broken)
        pool = executor if executor is not None else make_executor(workers)
        # Each task in flight, with how many times it has been tried.
        in_flight: dict[Future[list[GameLine]], tuple[TableTask, int]] = {}
        limit = max(1, pool.workers) * TASKS_PER_WORKER
        clean = False
        try:
            with GamesLog(log_path) as games_log:
                exhausted = False
                while True:
                    while not exhausted and len(in_flight) < limit:
                        task = next(pending, None)
                        if task is None:
                            exhausted = True
                            break
                        in_flight[pool.submit(play_table, context, task)] = (task, 1)
                    if not in_flight:
                        break
                    finished, _ = wait(in_flight, return_when=FIRST_COMPLETED)
                    for future in finished:
                        task, tries = in_flight.pop(future)
                        error = future.exception()
                        if error is not None:
                            ids = ", ".join(slot.game_id for slot in task.games)
                            log.error("games %s failed (try %d)", ids, tries, exc_info=error)
                            if tries < TRIES:
                                in_flight[pool.submit(play_table, context, task)] = (
                                    task,
                                    tries + 1,
                                )
                                continue
                            raise TournamentError(
                                f"Games {ids} failed inside the arena {tries} times "
                                f"({type(error).__name__}: {error}); see {run_dir / RUN_LOG}. "
                                "Fix the cause, then resume."
                            ) from error
                        for line in future.result():
                            games_log.append(line)
                            if tests is not None:
                                tests.feed(line)
                            summary.played += 1
                            if progress is not None:
                                progress(summary.done, total, summary.played)
            clean = True
        except KeyboardInterrupt:
            summary.interrupted = True
            log.warning("interrupted after %d games; stopping the workers", summary.done)
        except BrokenExecutor as error:  # a worker was killed (kill -9, the OOM killer)
            raise TournamentError(
                f"A worker process died ({error}), so the tournament stopped with "
                f"{summary.done} of {total} games logged; see {run_dir / RUN_LOG}. "
                "Continue it with --resume."
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
