"""Tournaments on a Dask cluster: `arena run --cluster local:N` or `--scheduler tcp://HOST:PORT`.

Dask distributed (`distributed` on PyPI) is the distributed engine; this module only fits it
to the tournament's `Executor` seam (arena/execution.py): `submit` the same picklable
`play_table` task with a unique key (Dask would merge identical calls otherwise), and wait
for the first of the futures to finish. A worker that dies mid-table makes Dask run that
table again on another worker; the tournament logs each game once, by its id.

Bots stay alive per worker as in the local pool: the worker's process keeps its `Player`s
(arena.execution) across tables, and a worker plugin closes them (goodbye, grace, kill,
cgroup) when the worker stops. The plugin also writes the worker's log lines to
`logs/worker-<name>.log` in the run folder, when the worker can reach it.

`distributed` is imported only here, and this module only when a cluster is asked for.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

import dask
from distributed import Client, LocalCluster, WorkerPlugin, wait

from arena.errors import ArenaError
from arena.execution import accept_tables, close_players, stop_tables
from arena.players.ready import unready
from arena.players.sandbox.facilities import sandbox_report_of

R = TypeVar("R")

CONNECT_TIMEOUT_S = 5
"""How long `--scheduler` waits for the Dask scheduler to answer."""
WORKER_CONFIG = {"distributed.worker.profile.enabled": False}
"""Dask settings of a LocalCluster's workers (for a cluster of your own: README)."""
NO_DASHBOARD: dict[str, Any] = {
    "dashboard_address": "127.0.0.1:0",
    "scheduler_kwargs": {"dashboard": False},
}
"""LocalCluster options: no dashboard. Dask's scheduler starts an HTTP server all the same
(on port 8787 unless told, warning when another cluster has it): here on any free port of
the loopback."""
_LOCAL = re.compile(r"^local:(\d+)$")
_COMPARED = ("isolation", "network", "unix_sockets", "memory_limit", "process_limit", "user")
"""The sandbox facts a worker must share with this machine, or be warned about."""

log = logging.getLogger(__name__)


class ClusterError(ArenaError):
    """The cluster cannot be started or reached."""


def local_workers(spec: str) -> int:
    """N of `--cluster local:N`; ClusterError with the expected form otherwise."""
    match = _LOCAL.match(spec.strip())
    if match is None or int(match.group(1)) < 1:
        raise ClusterError(
            f"--cluster takes local:N (N worker processes on this machine, e.g. local:2), not "
            f"{spec!r}; for a cluster of several machines use --scheduler tcp://HOST:PORT."
        )
    return int(match.group(1))


def _stop_tables(dask_worker: Any = None) -> None:
    stop_tables()


def _unready_here(bots: list[Any]) -> dict[str, str]:
    """On a worker: build each bot (or find it built) and check it can start; the failures."""
    return unready(bots)


def _pin_to_core(index: int) -> None:
    """Keep this worker process, every thread of it and so its bots, on one core (as the
    local pool does: a bot and its referee then hand over on one core, far faster)."""
    if not hasattr(os, "sched_setaffinity"):
        return
    cores = sorted(os.sched_getaffinity(0))
    core = {cores[index % len(cores)]}
    for thread in os.listdir("/proc/self/task"):
        try:
            os.sched_setaffinity(int(thread), core)
        except OSError:
            continue


class BotsPlugin(WorkerPlugin):
    """On each worker: a log file in the run folder, and its bots closed when it stops."""

    name = "arena-bots"

    def __init__(self, log_dir: Path | None) -> None:
        self.log_dir = log_dir
        self._handler: logging.Handler | None = None

    def setup(self, worker: Any) -> None:
        accept_tables()  # a worker kept from an executor that stopped plays for this one
        if isinstance(worker.name, int):  # a LocalCluster's workers are numbered from 0
            _pin_to_core(worker.name)
        if self.log_dir is None:
            return
        try:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", str(worker.name))
            handler = logging.FileHandler(self.log_dir / f"worker-{safe}.log", encoding="utf-8")
        except OSError:
            return  # a worker on another machine without the run folder logs to its stderr
        handler.setFormatter(
            logging.Formatter(
                f"%(asctime)s worker {worker.name} %(levelname)s %(name)s: %(message)s"
            )
        )
        arena_log = logging.getLogger("arena")
        arena_log.addHandler(handler)
        arena_log.setLevel(logging.INFO)
        self._handler = handler
        log.info("worker %s ready (pid %d, %s)", worker.name, os.getpid(), worker.address)

    def teardown(self, worker: Any) -> None:
        close_players()
        if self._handler is not None:
            logging.getLogger("arena").removeHandler(self._handler)
            self._handler.close()


class DaskExecutor:
    """The tournament's executor on a Dask cluster: a LocalCluster of `local` worker
    processes, or the running cluster whose scheduler is at `address`."""

    tasks_per_worker = 4
    """Tasks queued per worker: a result's trip to this process and the next task's trip
    back take milliseconds, so each worker keeps tasks waiting (the pool needs two)."""
    tables_per_task = 4
    """Tables sent in one task, so that Dask's cost per task (scheduling, a round trip
    through the scheduler, serialising the result) is shared by their games."""
    remote: bool
    """Its workers run on other machines (`address` given): a LocalCluster's do not."""

    def __init__(self, *, local: int = 0, address: str | None = None) -> None:
        self._cluster: Any = None
        self.remote = address is not None
        self.sandboxes: dict[str, Any] = {}
        """What sandbox each worker has, by its address (`prepare`)."""
        try:
            if address is None:
                # The workers' statistical profiler walks every thread's stack each 10 ms:
                # a cost on the referee's hot loop, for a dashboard nobody looks at here.
                with dask.config.set(WORKER_CONFIG):
                    self._cluster = LocalCluster(
                        n_workers=local,
                        threads_per_worker=1,
                        processes=True,
                        silence_logs=logging.ERROR,
                        **NO_DASHBOARD,
                    )
                self._client = Client(self._cluster)
            else:
                self._client = Client(address, timeout=CONNECT_TIMEOUT_S)
        except (OSError, TimeoutError) as error:
            self._close_cluster()
            where = address or f"a LocalCluster of {local} workers"
            raise ClusterError(
                f"Cannot reach the Dask scheduler at {where} ({error}); start it with "
                "`dask scheduler` and its workers with `dask worker HOST:PORT`, or play on "
                "this machine with --cluster local:N."
            ) from None
        self.workers = max(1, len(self._client.scheduler_info().get("workers", {})))
        self._client.register_plugin(BotsPlugin(None), name=BotsPlugin.name)

    def prepare(
        self, run_dir: Path, limits: Mapping[str, Any], bots: Sequence[Any] = ()
    ) -> list[str]:
        """Ready the workers for a run: the plugin (worker logs in `run_dir/logs`, bots
        closed at the end); on other machines, each bot built there (ClusterError naming the
        bot and the worker when one cannot be); what sandbox each worker has, kept in
        `sandboxes` (for config.json). Returns a warning for each worker that differs."""
        self._client.register_plugin(BotsPlugin(run_dir / "logs"), name=BotsPlugin.name)
        if self.remote and bots:
            failures: dict[str, dict[str, str]] = self._client.run(_unready_here, list(bots))
            for worker, broken in sorted(failures.items()):
                for name, why in broken.items():
                    raise ClusterError(f"Bot {name} cannot be made ready on worker {worker}: {why}")
        here = sandbox_report_of(limits)
        facts: dict[str, Any] = self._client.run(sandbox_report_of, dict(limits))
        warnings = []
        for worker, theirs in sorted(facts.items()):
            weaker = [
                f"{key} {theirs.get(key)!r} (here: {here.get(key)!r})"
                for key in _COMPARED
                if theirs.get(key) != here.get(key)
            ]
            if weaker:
                warnings.append(f"worker {worker} isolates bots differently: {'; '.join(weaker)}.")
        self.sandboxes = facts
        return warnings

    def register_plugin(self, plugin: WorkerPlugin) -> None:
        """Run `plugin.setup` on every worker, now and on each that joins later."""
        self._client.register_plugin(plugin, name=getattr(plugin, "name", None))

    def submit(self, fn: Callable[..., R], /, *args: Any) -> Any:
        """Run `fn(*args)` on a worker, under a key of its own (never merged with another)."""
        return self._client.submit(fn, *args, pure=False)

    def wait_any(self, futures: Collection[Any]) -> tuple[set[Any], set[Any]]:
        # `wait` runs on the default client's event loop, which is the newest Client made
        # in this process (another one, made to look at the cluster, would be): the
        # futures' events belong to this client's loop, so this client is made current.
        with self._client.as_current():
            done, pending = wait(list(futures), return_when="FIRST_COMPLETED")
        return set(done), set(pending)

    def run_on_workers(self, fn: Callable[[], R]) -> dict[str, R]:
        """`fn()` on every worker, by worker address (for what each worker has)."""
        result: dict[str, R] = self._client.run(fn)
        return result

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """End the running tables and close the bots on every worker (`stop_tables`: no
        table fails under its closed bots), then the client (and a LocalCluster)."""
        try:
            self._client.run(_stop_tables)
        except Exception:  # a worker already gone has no bots left to close
            log.debug("closing the bots on the workers failed", exc_info=True)
        self._client.close()
        self._close_cluster()

    def terminate(self) -> None:
        self.shutdown(wait=False, cancel_futures=True)

    def worker_pids(self) -> dict[str, int]:
        """Each worker's process id (the tests kill one)."""
        return self.run_on_workers(os.getpid)

    def _close_cluster(self) -> None:
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None
