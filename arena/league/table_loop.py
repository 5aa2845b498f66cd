"""The league's play loop: keep an executor busy with tables, store each finished game.

`League.play_forever` runs it in a thread with the league's own steps (next table, record,
pause, the database's outage log); this module knows the executor and those steps only.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from arena.execution import Executor, TableResult, WorkerContext, play_table
from arena.league.checking import CheckPolicy
from arena.league.outage import Outage
from arena.schedule import TableTask

log = logging.getLogger("arena.league.league")


@dataclass(frozen=True)
class LeagueSteps:
    """What the loop asks of the league."""

    next_task: Callable[[], tuple[TableTask, WorkerContext] | None]
    record: Callable[[TableResult], int]
    paused: Callable[[], bool]
    outage: Outage
    stop: threading.Event
    in_flight: int
    """Tables kept running at once."""
    building: CheckPolicy
    """The league's build limits and disk quota, kept by remote workers' builds too."""


def play_tables(executor: Executor, steps: LeagueSteps) -> None:
    """Until `steps.stop` is set: hand out tables, store what they played (games a database
    outage kept from being stored wait, in order, and are stored first once it is back)."""
    shipped: set[str] = set()  # bot versions the remote workers have
    running: dict[Future[Any], TableTask] = {}
    unstored: list[TableResult] = []  # played while the database could not be written
    try:
        while not steps.stop.is_set():
            try:
                while unstored:
                    steps.record(unstored[0])
                    unstored.pop(0)
                while len(running) < steps.in_flight and not steps.paused():
                    ready = steps.next_task()
                    if ready is None:
                        break
                    task, context = ready
                    if executor.remote:
                        _ship(executor, context, shipped, steps.building)
                    running[executor.submit(play_table, context, task)] = task
            except Exception as error:  # the database away (a restart), a worker refusing
                steps.outage.failed("the league could not store or hand out a table", error)
                steps.stop.wait(1.0)
            if not running:
                steps.stop.wait(0.5)
                continue
            done, _ = executor.wait_any(list(running))
            for future in done:
                running.pop(future)
                _store(future, steps, unstored)
    finally:
        executor.terminate()  # its workers and their bots (it shuts the pool down itself)


def _store(future: Future[Any], steps: LeagueSteps, unstored: list[TableResult]) -> None:
    """A finished table's games stored, or kept in `unstored` while the database is away."""
    try:
        result = future.result()
    except Exception:  # an arena fault in one table: log it, play on
        log.exception("a league table failed")
        return
    try:
        steps.record(result)
    except Exception as error:
        unstored.append(result)
        steps.outage.failed("the league cannot store its games (they wait)", error)


def _ship(
    executor: Executor, context: WorkerContext, shipped: set[str], building: CheckPolicy
) -> None:
    """Bots of the table the remote workers do not have yet: shipped to them, built there
    under the league's `building` policy (remote.py)."""
    from arena.league.remote import ship

    for bot in context.bots:
        if bot.name not in shipped:
            ship(executor, bot, building)
            shipped.add(bot.name)
